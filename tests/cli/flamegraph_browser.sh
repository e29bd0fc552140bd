#!/usr/bin/env bash
# tests/cli/flamegraph_browser.sh: `perfan flamegraph`'s SVG in a headless
# Chromium (tests/browser/flamegraph.test.mjs, through playwright-core):
# the frames in the DOM, hover, zoom, search, the view in the URL, and
# screenshots of a real recording's graph in $PERFAN_ARTIFACTS (default
# build/test-artifacts). Required, not skipped: without node, Debian's
# chromium or tests/browser/node_modules it fails; ./scripts/setup.sh
# installs them.
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
[ -d "$ROOT/tests/browser/node_modules/playwright-core" ] ||
	err "no tests/browser/node_modules/playwright-core: run ./scripts/setup.sh (npm ci in tests/browser)"
[ "$fail" = 0 ] || exit 1

PERFAN_BIN=$(cd "$(dirname "$PERFAN_BIN")" && pwd)/$(basename "$PERFAN_BIN")
PERFAN_TESTDATA=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
PERFAN_ARTIFACTS=${PERFAN_ARTIFACTS:-$PWD/build/test-artifacts}
mkdir -p "$PERFAN_ARTIFACTS"
export PERFAN_BIN PERFAN_TESTDATA PERFAN_ARTIFACTS PERFAN_CHROMIUM=$CHROMIUM

# at most five minutes, whatever hangs (an ASan build on a busy
# machine took over one: the test draws a dozen graphs with perfan)
rc=0
timeout -k 5 300 node "$ROOT/tests/browser/flamegraph.test.mjs" || rc=$?
case $rc in
0) echo "ok: perfan flamegraph in a browser; screenshots in $PERFAN_ARTIFACTS" ;;
124 | 137) err "the browser test did not finish within 300 s" ;;
*) err "the browser test failed (exit $rc)" ;;
esac
exit "$fail"
