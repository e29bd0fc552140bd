#!/usr/bin/env bash
# tests/cli/triage_range_browser.sh: the timeline section of `perfan
# triage`'s page in a headless Chromium (tests/browser/
# triage_range.test.mjs): a range selected on it gives the flame graphs
# and the thread table the totals report --time gives for that range.
# Required, not skipped: ./scripts/setup.sh installs node, chromium and
# the modules. Run from the source tree with PERFAN_BIN set (ctest does
# both).
set -euo pipefail
exec bash "$(dirname "$0")/../browser/run.sh" "perfan triage's range in a browser" \
	triage_range.test.mjs playwright-core
