#!/usr/bin/env bash
# bench/annotate.sh: `perfan annotate` of the ten hottest functions of a
# >= 200 MB recording against `perf annotate --stdio` on the same symbols
# in the same run (perf takes one symbol per run: ten runs, one after the
# other), and against one `perf annotate --stdio` of every function with
# samples. Both with farm-bench, the ratio pair by pair. Before timing, every
# instruction of the ten is checked against perf's percentages (within 0.5
# points, tests/tools/annotate_agree.py).
#
# The input is testdata/src/annotate.c (twelve functions of graded weight)
# recorded by bench/make-large-recording.sh with frame pointers at 50 kHz
# into /tmp/perfan-bench/annotate.data (about 235 MB, 3.2 M samples), made
# when absent; perf keeps its binary in ~/.debug, where both tools find it.
#
# Usage: bench/annotate.sh [DATA]
# Env:   PERFAN=build/perfan  PERF=perf  RUNS=5
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:-/tmp/perfan-bench/annotate.data}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
RUNS=${RUNS:-5}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
if [ ! -f "$DATA" ]; then
	SRC=$PWD/testdata/src/annotate.c ARGS=30 \
		bench/make-large-recording.sh "$DATA"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "input: $DATA, $(stat -c %s "$DATA") bytes"
"$PERFAN" annotate --json -n 10 "$DATA" >"$out/top.json" 2>"$out/top.err"
mapfile -t syms < <(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["name"])' "$out/top.json")
echo "functions: ${syms[*]}"
echo "samples: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total_samples"])' "$out/top.json")"

# the same numbers as perf, instruction by instruction
for s in "${syms[@]}"; do
	"$PERF" annotate -i "$DATA" --stdio --stdio-color never --no-source \
		-s "$s" >"$out/perf-$s.txt" 2>/dev/null
	python3 tests/tools/annotate_agree.py "$out/top.json" "$s" "$out/perf-$s.txt"
done

cat >"$out/perf-ten.sh" <<SH
#!/bin/sh
for s in ${syms[*]}; do
	$PERF annotate -i $DATA --stdio --stdio-color never --no-source -s \$s
done >/dev/null 2>&1
SH
chmod +x "$out/perf-ten.sh"

echo "== perfan annotate (ten functions, one pass) vs perf annotate (ten runs)"
farm-bench -n "$RUNS" --timeout 1800 --vs "$out/perf-ten.sh" \
	-- "$PERFAN" annotate -o "$out/ten.txt" "${syms[@]}" "$DATA"
echo "== perfan annotate (ten functions) vs perf annotate (every function, one run)"
farm-bench -n "$RUNS" --timeout 1800 \
	--vs "sh -c '$PERF annotate -i $DATA --stdio --stdio-color never --no-source >/dev/null 2>&1'" \
	-- "$PERFAN" annotate -o "$out/ten.txt" "${syms[@]}" "$DATA"
