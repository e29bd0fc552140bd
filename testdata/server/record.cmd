perf probe -q -d 'probe_perfan:*' 2>/dev/null || true
perf probe -q -x /root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0 probe_perfan:take_gil=take_gil
perf probe -q -x /root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0 probe_perfan:take_gil__return=take_gil+747
perf probe -q -x /root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0 probe_perfan:drop_gil=drop_gil
perf record -o server.data -z --buildid-mmap -m 64M -k CLOCK_MONOTONIC --call-graph dwarf,16384 -e cpu-clock/freq=499/ --switch-events -e sched:sched_switch -e sched:sched_waking -e probe_perfan:take_gil -e probe_perfan:take_gil__return -e probe_perfan:drop_gil -- /root/.pyenv/versions/3.12.1/bin/python3.12 -X perf server.py --truth truth.txt
perf probe -q -d 'probe_perfan:*' 2>/dev/null || true
# then: perfan triage server.data
