#!/usr/bin/env bash
# Make a large perf.data (>= 200 MB by default) for perfan benchmarks.
#
# Usage: bench/make-large-recording.sh [OUTPUT]   (default /tmp/perfan-bench/large.data)
# Env:   TARGET_MB=200   stop once the file reaches this size
#        FREQ=50000      sampling frequency (kernel.perf_event_max_sample_rate
#                        must allow it; default max is 100000); 4000 with
#                        CALLGRAPH=dwarf
#        CALLGRAPH=fp    fp: frame-pointer callchains (-g); dwarf: copies of
#                        the user stack for DWARF unwinding (--call-graph
#                        dwarf,$DWARF_SIZE, DWARF_SIZE=8192: ~8.5 KB per sample)
#        SYSTEM_WIDE=0   1: record every CPU (-a) while the workload runs, and
#                        add a kernel-heavy part to it (find and cat over
#                        /usr), a mixed system-wide recording
#        PERF=perf
#        SRC=testdata/src/prog.c   the workload's C source (built -O2 -g
#                        -fno-omit-frame-pointer); ARGS=250 its argument
#                        (bench/annotate.sh: SRC=testdata/src/annotate.c
#                        ARGS=30, twelve functions)
#
# Records `perf record -g -e cpu-clock -F $FREQ` of the testdata/src/prog.c
# program (frame-pointer callchains, ~90 bytes per sample), running two copies
# at a time in a loop so both CPUs are busy, until the output file reaches
# TARGET_MB; then the loop is told to stop and perf finishes normally (header,
# build-ids).  Needs perf and gcc, and permission to profile one's own tasks
# (kernel.perf_event_paranoid <= 2, or root).  Measured on the 2-CPU dev VM:
# 212.6 MB, 2.52 M samples, 29 s wall (~7-8 MB/s of perf.data at FREQ=50000);
# with CALLGRAPH=dwarf (and -m 1024, so that the 8 KB stack copies are not
# lost), 213 MB, 26 k samples, 6 s.  perf keeps the binary (deleted with the
# work directory) in its build-id cache, ~/.debug, where perfan finds it too.
# Needs ~TARGET_MB (+ a few MB of overshoot) of free space.  The output is not
# cleaned up: delete it yourself, and never commit it.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=${SRC:-$HERE/../testdata/src/prog.c}
ARGS=${ARGS:-250}
OUT=${1:-/tmp/perfan-bench/large.data}
TARGET_MB=${TARGET_MB:-200}
CALLGRAPH=${CALLGRAPH:-fp}
DWARF_SIZE=${DWARF_SIZE:-8192}
PERF=${PERF:-perf}
SYSTEM_WIDE=${SYSTEM_WIDE:-0}
WIDE_OPTS=()
[ "$SYSTEM_WIDE" = 1 ] && WIDE_OPTS=(-a)
case "$CALLGRAPH" in
fp) FREQ=${FREQ:-50000}; CG_OPTS=(-g) ;;
dwarf) FREQ=${FREQ:-4000}; CG_OPTS=(--call-graph "dwarf,$DWARF_SIZE" -m 1024) ;;
*) echo "CALLGRAPH must be fp or dwarf" >&2; exit 2 ;;
esac

outdir=$(dirname "$OUT")
mkdir -p "$outdir"
work=$(mktemp -d "$outdir/.perfan-large.XXXXXX")
trap 'rm -rf "$work"' EXIT

gcc -O2 -g -fno-omit-frame-pointer -I"$(dirname "$SRC")" -o "$work/prog" "$SRC"
# the workload: pairs of ./prog (about 1 s each) until $work/stop appears
cat > "$work/loop.sh" <<LOOP
#!/bin/sh
cd "\$(dirname "\$0")"
while [ ! -e stop ]; do
    ./prog $ARGS 2>/dev/null &
    ./prog $ARGS 2>/dev/null
    if [ "$SYSTEM_WIDE" = 1 ]; then
        find /usr/lib -type f 2>/dev/null | head -2000 | xargs cat >/dev/null 2>&1
    fi
    wait
done
LOOP
chmod +x "$work/loop.sh"

rm -f "$OUT"
target=$((TARGET_MB * 1024 * 1024))
start=$(date +%s.%N)
"$PERF" record ${WIDE_OPTS[@]+"${WIDE_OPTS[@]}"} "${CG_OPTS[@]}" -e cpu-clock -F "$FREQ" -o "$OUT" -- "$work/loop.sh" &
perf_pid=$!

while kill -0 "$perf_pid" 2>/dev/null; do
    size=$(stat -c %s "$OUT" 2>/dev/null || echo 0)
    if [ "$size" -ge "$target" ]; then
        # stop the loop and perf at once: perf writes ~7 MB/s, and letting
        # the loop's last round finish would overshoot small targets
        touch "$work/stop"
        kill -INT "$perf_pid" 2>/dev/null || true
        break
    fi
    sleep 0.1
done
# perf exits non-zero after the SIGINT above; its output is checked below
wait "$perf_pid" || true
end=$(date +%s.%N)

size=$(stat -c %s "$OUT")
awk -v o="$OUT" -v s="$size" -v a="$start" -v b="$end" \
    'BEGIN { printf "wrote %s: %.0f bytes (%.1f MB) in %.1f s\n", o, s, s / 1048576, b - a }'
if [ "$size" -lt "$target" ]; then
    echo "error: $OUT is smaller than $TARGET_MB MB" >&2
    exit 1
fi
