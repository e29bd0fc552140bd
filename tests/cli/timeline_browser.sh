#!/usr/bin/env bash
# tests/cli/timeline_browser.sh: `perfan timeline`'s page in a headless
# Chromium with the network off (tests/browser/timeline.test.mjs, through
# playwright-core): lanes and their time by state against the thread
# table, wake arrows against perf script, hover, zoom, pan, a range
# against report --time, 64 threads over 60 s drawn in under 2 s;
# screenshots in $PERFAN_ARTIFACTS (default build/test-artifacts).
# Required, not skipped: ./scripts/setup.sh installs node, chromium and
# the modules. Run from the source tree with PERFAN_BIN set (ctest does
# both).
set -euo pipefail
exec bash "$(dirname "$0")/../browser/run.sh" "perfan timeline in a browser" \
	timeline.test.mjs playwright-core
