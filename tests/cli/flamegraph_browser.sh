#!/usr/bin/env bash
# tests/cli/flamegraph_browser.sh: `perfan flamegraph`'s SVG in a headless
# Chromium (tests/browser/flamegraph.test.mjs, through playwright-core):
# the frames in the DOM, hover, zoom, search, the view in the URL, and
# screenshots of a real recording's graph in $PERFAN_ARTIFACTS (default
# build/test-artifacts). Required, not skipped: without node, Debian's
# chromium or tests/browser/node_modules it fails; ./scripts/setup.sh
# installs them (tests/browser/run.sh checks).
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail
exec bash "$(dirname "$0")/../browser/run.sh" "perfan flamegraph in a browser" \
	flamegraph.test.mjs playwright-core
