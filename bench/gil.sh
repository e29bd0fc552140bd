#!/usr/bin/env bash
# bench/gil.sh: `perfan gil` and `perfan critical` on a large recording of
# a GIL-bound Python program (bench/make-gil-recording.sh), beside `perf
# sched timehist` and `perfan report --off-cpu` on the same file: wall
# seconds and peak memory (medians of farm-bench), and the ratios to perf.
#
# Usage: bench/gil.sh [PERF_DATA]   (default /tmp/perfan-bench/gil.data,
#        made when absent)
# Env:   RUNS=3  PERFAN=build/perfan  PERF=perf
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-/tmp/perfan-bench/gil.data}
RUNS=${RUNS:-3}
PERFAN=${PERFAN:-$PWD/build/perfan}
PERF=${PERF:-perf}
[ -f "$DATA" ] || bench/make-gil-recording.sh "$DATA"
echo "input: $DATA ($(($(stat -c %s "$DATA") / 1000000)) MB)"
# the latency thread: the critical path of its whole life
lat=$(awk '$1 == "latency" {print $2}' "${DATA%.data}.out")
bench() { # NAME COMMAND...: farm-bench's summary, A against perf sched timehist
	echo "== $1"
	shift
	farm-bench -n "$RUNS" --timeout 1800 --vs "$PERF sched timehist -i $DATA" -- "$@"
}
bench "perfan gil vs perf sched timehist" "$PERFAN" gil "$DATA"
bench "perfan critical --tid $lat vs perf sched timehist" "$PERFAN" critical --tid "$lat" "$DATA"
bench "perfan report --off-cpu vs perf sched timehist" "$PERFAN" report --off-cpu "$DATA"
