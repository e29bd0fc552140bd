#!/usr/bin/env bash
# try.sh: set up, build, and show what perfan says about a small recording.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==== %s ====\n' "$*"; }

step "Installing missing packages"
./scripts/setup.sh
step "Building into build/"
./scripts/build.sh
step "perfan stats testdata/fp/perf.data"
build/perfan stats testdata/fp/perf.data
step "perfan header testdata/fp/perf.data"
build/perfan header testdata/fp/perf.data
