#!/usr/bin/env bash
# Make a large sched_switch recording (>= 200 MB by default) for off-CPU
# benchmarks (bench/offcpu.sh).
#
# Usage: bench/make-offcpu-recording.sh [OUTPUT]   (default /tmp/perfan-bench/offcpu.data)
# Env:   TARGET_MB=200   stop once the file reaches this size
#        PAIRS=2         thread pairs of the ping-pong workload
#        SYSTEM_WIDE=0   1: record every CPU (-a) while the workload runs,
#                        so other tasks' switches are in the file too
#        PERF=perf
#
# Records `perf record -e sched:sched_switch -e sched:sched_wakeup -g -m 1024`
# of bench/pingpong.c (PAIRS pairs of threads passing a byte over pipes:
# every round trip blocks each thread once in read(), so the file is almost
# all sched_switch and sched_wakeup samples with kernel and user stacks),
# until the output file reaches TARGET_MB; then the workload is told to
# stop and perf finishes normally (header, build-ids). Needs perf, gcc, and
# permission to record tracepoints (root, or kernel.perf_event_paranoid <= -1
# and read access to tracefs). The output is not cleaned up: delete it
# yourself, and never commit it.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-/tmp/perfan-bench/offcpu.data}
TARGET_MB=${TARGET_MB:-200}
PAIRS=${PAIRS:-2}
PERF=${PERF:-perf}
WIDE=()
[ "${SYSTEM_WIDE:-0}" = 1 ] && WIDE=(-a)

outdir=$(dirname "$OUT")
mkdir -p "$outdir"
work=$(mktemp -d "$outdir/.perfan-offcpu.XXXXXX")
trap 'rm -rf "$work"' EXIT

gcc -O2 -g -fno-omit-frame-pointer -pthread -o "$work/pingpong" "$HERE/pingpong.c"

rm -f "$OUT"
target=$((TARGET_MB * 1024 * 1024))
start=$(date +%s.%N)
"$PERF" record "${WIDE[@]}" -e sched:sched_switch -e sched:sched_wakeup -g -m 1024 \
    -o "$OUT" -- "$work/pingpong" "$work/stop" "$PAIRS" > "$work/pingpong.out" 2> "$work/record.log" &
perf_pid=$!

while kill -0 "$perf_pid" 2>/dev/null; do
    size=$(stat -c %s "$OUT" 2>/dev/null || echo 0)
    if [ "$size" -ge "$target" ]; then
        touch "$work/stop"
        break
    fi
    sleep 0.5
done
wait "$perf_pid"
end=$(date +%s.%N)

cat "$work/pingpong.out" "$work/record.log"
size=$(stat -c %s "$OUT")
awk -v o="$OUT" -v s="$size" -v a="$start" -v b="$end" \
    'BEGIN { printf "wrote %s: %d bytes (%.1f MB) in %.1f s\n", o, s, s / 1048576, b - a }'
if [ "$size" -lt "$target" ]; then
    echo "error: $OUT is smaller than $TARGET_MB MB" >&2
    exit 1
fi
