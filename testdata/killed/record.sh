#!/usr/bin/env bash
# testdata/killed/record.sh: the commands that made this case (see COMMAND).
set -u
cd "$(dirname "$0")"
rm -f perf.data perf.cut.data perf.closed.data
# 1. perf record killed with SIGKILL while it records: perf.data is what it
#    had written (data.size 0 in the header, no feature sections).
perf record -e cpu-clock -g -F 999 -m 4 -o perf.data ./prog 2000 2> record.log &
perf_pid=$!
sleep 1
prog_pid=$(pgrep -P "$perf_pid")
kill -9 "$perf_pid"
wait "$perf_pid" 2>/dev/null
kill "$prog_pid"   # the workload outlives perf
# 2. perf record stopped (SIGSTOP) after 1 s, its file copied as it was then
#    (perf.cut.data: what a SIGKILL at that moment would have left), then
#    continued and ended with SIGINT, so that perf closes perf.closed.data:
#    the same records first, then the later ones and the feature sections.
perf record -e cpu-clock -g -F 999 -m 4 -o perf.closed.data ./prog 2000 2> record.closed.log &
perf_pid=$!
sleep 1
prog_pid=$(pgrep -P "$perf_pid")
kill -STOP "$perf_pid"
sleep 0.2
cp perf.closed.data perf.cut.data
kill -CONT "$perf_pid"
sleep 0.5
kill -INT "$perf_pid"
wait "$perf_pid"
kill "$prog_pid" 2>/dev/null
chmod 644 perf.data perf.cut.data perf.closed.data
