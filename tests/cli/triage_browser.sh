#!/usr/bin/env bash
# tests/cli/triage_browser.sh: `perfan triage`'s page in a headless Chromium
# with the network off (tests/browser/triage.test.mjs, through
# playwright-core): every section, what to record where data is missing,
# the flame graphs drawn, zoomed and searched; screenshots in
# $PERFAN_ARTIFACTS (default build/test-artifacts). Required, not skipped:
# ./scripts/setup.sh installs node, chromium and the modules.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail
exec bash "$(dirname "$0")/../browser/run.sh" "perfan triage in a browser" \
	triage.test.mjs playwright-core
