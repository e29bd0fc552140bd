#!/usr/bin/env bash
# tests/cli/speedscope_browser.sh: `perfan convert`'s speedscope JSON in
# speedscope itself, the npm package's release build in a headless
# Chromium (tests/browser/speedscope.test.mjs, through playwright-core):
# the title, the active profile in the toolbar, the Sandwich view's top
# frame and its self share, another thread picked from the list, no error;
# screenshots in $PERFAN_ARTIFACTS (default build/test-artifacts).
# Required, not skipped: without node, Debian's chromium or
# tests/browser/node_modules (playwright-core, speedscope) it fails;
# ./scripts/setup.sh installs them (tests/browser/run.sh checks).
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail
exec bash "$(dirname "$0")/../browser/run.sh" \
	"perfan's speedscope JSON in speedscope" speedscope.test.mjs \
	playwright-core speedscope
