#!/bin/sh
# record.sh: makes this case's bpftrace outputs (needs root and bpftrace;
# the tests do not run it). Each run profiles ./spin (or python) for about
# a second at 499 Hz, filtered on the workload's comm. bpftrace 0.17
# names user frames when it prints the map, so the workload runs past that.
set -e
cd "$(dirname "$0")"
gcc -O2 -g -fno-omit-frame-pointer -o spin spin.c
run() { # OUT FLAGS PROGRAM-BODY
	out=$1 flags=$2 body=$3
	./spin 6 &
	sleep 0.3
	bpftrace $flags -e "profile:hz:499 /comm == \"spin\"/ { $body } interval:s:1 { exit(); }" >"$out" 2>"$out.err" || true
	wait
}
run kstack-ustack-comm-pid.txt '' '@[kstack, ustack, comm, pid] = count();'
run kstack-ustack.txt '' '@[kstack, ustack] = count();'
run ustack.txt '' '@[ustack] = count();'
run kstack.txt '' '@[kstack] = count();'
run comm-kstack.txt '' '@[comm, kstack] = count();'
run ustack-comm.txt '' '@[ustack, comm] = count();'
run ustack-perf.txt '' '@[ustack(perf)] = count();'
run kstack-perf-ustack-perf-pid.txt '' '@[kstack(perf), ustack(perf), pid] = count();'
run two-maps.txt '' '@k[kstack] = count(); @u[ustack] = count();'
run json.txt '-f json' '@[kstack, ustack, comm, pid] = count();'
run ustack-json.txt '-f json' '@[ustack] = count();'
# python: the interpreter's own frames (no -X perf: bpftrace does not read
# perf maps)
/usr/bin/python3 -c 'import time
def f(n):
    return sum(i * i for i in range(n))
t = time.time()
while time.time() - t < 6: f(10000)' &
sleep 0.3
bpftrace -e 'profile:hz:499 /comm == "python3"/ { @[ustack] = count(); } interval:s:1 { exit(); }' >python-ustack.txt 2>python-ustack.txt.err || true
wait
