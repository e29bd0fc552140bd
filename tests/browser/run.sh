#!/usr/bin/env bash
# tests/browser/run.sh WHAT TEST.mjs MODULE...: run a browser test of
# tests/browser (node, Debian's chromium, the node modules MODULE... of
# tests/browser/node_modules), at most five minutes, and say how it went as
# WHAT. Without node, chromium or a module it fails, never skips:
# ./scripts/setup.sh installs them. For tests/cli/*_browser.sh, which ctest
# runs from the source tree with PERFAN_BIN set.
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
what=$1 test=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${PERFAN_CHROMIUM:-/usr/bin/chromium}
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

command -v node >/dev/null ||
	err "no node: run ./scripts/setup.sh (installs nodejs)"
[ -x "$CHROMIUM" ] ||
	err "no $CHROMIUM: run ./scripts/setup.sh (installs chromium)"
for m in "$@"; do
	[ -d "$HERE/node_modules/$m" ] ||
		err "no tests/browser/node_modules/$m: run ./scripts/setup.sh (npm ci in tests/browser)"
done
[ "$fail" = 0 ] || exit 1

PERFAN_BIN=$(cd "$(dirname "$PERFAN_BIN")" && pwd)/$(basename "$PERFAN_BIN")
PERFAN_TESTDATA=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
PERFAN_ARTIFACTS=${PERFAN_ARTIFACTS:-$PWD/build/test-artifacts}
mkdir -p "$PERFAN_ARTIFACTS"
export PERFAN_BIN PERFAN_TESTDATA PERFAN_ARTIFACTS PERFAN_CHROMIUM=$CHROMIUM

# at most ten minutes, whatever hangs (an ASan build on a busy machine
# took over five for the triage page: the tests run perfan a dozen times)
rc=0
timeout -k 5 600 node "$HERE/$test" || rc=$?
case $rc in
0) echo "ok: $what; screenshots in $PERFAN_ARTIFACTS" ;;
124 | 137) err "the browser test did not finish within 600 s" ;;
*) err "the browser test failed (exit $rc)" ;;
esac
exit "$fail"
