#!/usr/bin/env bash
# tests/cli/speedscope_browser.sh: `perfan convert`'s speedscope JSON in
# speedscope itself, the npm package's release build in a headless
# Chromium (tests/browser/speedscope.test.mjs, through playwright-core):
# the title, the active profile in the toolbar, the Sandwich view's top
# frame and its self share, another thread picked from the list, no error;
# screenshots in $PERFAN_ARTIFACTS (default build/test-artifacts).
# Required, not skipped: without node, Debian's chromium or
# tests/browser/node_modules (playwright-core, speedscope) it fails;
# ./scripts/setup.sh installs them.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
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
for m in playwright-core speedscope; do
	[ -d "$ROOT/tests/browser/node_modules/$m" ] ||
		err "no tests/browser/node_modules/$m: run ./scripts/setup.sh (npm ci in tests/browser)"
done
[ "$fail" = 0 ] || exit 1

PERFAN_BIN=$(cd "$(dirname "$PERFAN_BIN")" && pwd)/$(basename "$PERFAN_BIN")
PERFAN_TESTDATA=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
PERFAN_ARTIFACTS=${PERFAN_ARTIFACTS:-$PWD/build/test-artifacts}
mkdir -p "$PERFAN_ARTIFACTS"
export PERFAN_BIN PERFAN_TESTDATA PERFAN_ARTIFACTS PERFAN_CHROMIUM=$CHROMIUM

# at most five minutes, whatever hangs (under ASan on a busy machine the
# three conversions alone take tens of seconds; natively the test takes
# about 10 s)
rc=0
timeout -k 5 300 node "$ROOT/tests/browser/speedscope.test.mjs" || rc=$?
case $rc in
0) echo "ok: perfan's speedscope JSON in speedscope; screenshots in $PERFAN_ARTIFACTS" ;;
124 | 137) err "the browser test did not finish within 300 s" ;;
*) err "the browser test failed (exit $rc)" ;;
esac
exit "$fail"
