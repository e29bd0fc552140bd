#!/usr/bin/env bash
# bench/make-gil-recording.sh: a large recording for the GIL ledger and the
# critical path: testdata/gil/gil.py (4 CPU-bound threads and a latency
# thread) on Python 3.12 for SECONDS, every switch with its DWARF stack,
# the wakeups, the CPU clock at 199 Hz, uncompressed (about 16 MB a second).
#
# Usage: bench/make-gil-recording.sh [OUT] [SECONDS]
#        (default /tmp/perfan-bench/gil.data, 15 s: about 250 MB)
# Env:   PY312 (default ~/.pyenv/versions/3.12.1/bin/python3), PERF=perf
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/perfan-bench/gil.data}
SECONDS_=${2:-15}
PY=${PY312:-$HOME/.pyenv/versions/3.12.1/bin/python3}
PERF=${PERF:-perf}
mkdir -p "$(dirname "$OUT")"
"$PERF" record -q -m 64M -o "$OUT" --call-graph dwarf,8192 \
	-e cpu-clock/freq=199/ -e sched:sched_switch -e sched:sched_waking \
	-- "$PY" -X perf testdata/gil/gil.py 4 "$SECONDS_" >"${OUT%.data}.out"
ls -l "$OUT"
