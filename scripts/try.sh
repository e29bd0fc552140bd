#!/usr/bin/env bash
# try.sh: set up, build, and show what perfan says about a small recording.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==== %s ====\n' "$*"; }

step "Installing missing packages"
./scripts/setup.sh
step "Building into build/"
./scripts/build.sh
# the recording's binary is in testdata/fp, found by its build-id; kernel
# symbols come with testdata, since this machine's kernel is another one
opts=(--symfs testdata/fp --kallsyms testdata/kallsyms)
step "perfan report testdata/fp/perf.data: where the time goes"
build/perfan report "${opts[@]}" --percent-limit 1 testdata/fp/perf.data
step "perfan collapse testdata/fp/perf.data: folded stacks"
build/perfan collapse "${opts[@]}" testdata/fp/perf.data
step "perfan stats testdata/fp/perf.data"
build/perfan stats testdata/fp/perf.data
step "perfan flamegraph testdata/fp/perf.data: an interactive SVG"
build/perfan flamegraph "${opts[@]}" testdata/fp/perf.data \
	-o build/fp-flamegraph.svg
echo "wrote build/fp-flamegraph.svg: open it in a browser (hover, click to zoom, Ctrl-F)"
