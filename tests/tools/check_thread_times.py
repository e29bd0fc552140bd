#!/usr/bin/env python3
"""check_thread_times.py: checks the thread_times example's output (on
stdin) for one recording of testdata/offcpu against EXPECTED.txt, the ground
truth made from perf script's records and the program's own clocks:

  - every thread of the workload is listed;
  - its off-CPU time equals the sum of its `offtotal` lines (within 0.5 % or
    0.01 ms: the example ends an interval at the FORK record's child, perf
    script's line at the parent);
  - when the recording has cpu-clock samples, the on-CPU time (their
    periods) of a thread that is not the process's main one and used at
    least 20 ms is within 10 % of the CPU time it measured itself
    (PROG_CPU, from its first to its last statement: a main thread's
    start-up is outside it; cpu-clock at freq=999 samples every ms).

Usage: thread_times testdata/offcpu/perf.data |
       check_thread_times.py testdata/offcpu/EXPECTED.txt perf.data"""
import collections
import sys

expected, rec = sys.argv[1], sys.argv[2]
cpu, off = {}, collections.defaultdict(float)
for line in open(expected):
    p = line.split()
    if len(p) > 2 and p[1] == rec:
        if p[0] == "thread" and p[4] != "-":
            cpu[int(p[2])] = float(p[8])
        elif p[0] == "offtotal":
            off[int(p[2])] += float(p[6])
if not cpu:
    sys.exit("check_thread_times: no thread of %s in %s" % (rec, expected))

got = {}
for line in sys.stdin:
    p = line.rstrip("\n").split("\t")
    if p[0] != "PID":
        got[int(p[1])] = (float(p[3]), float(p[4]), int(p[0]))
sampled = any(g[0] > 0 for g in got.values())
bad = 0
for tid, prog_cpu in sorted(cpu.items()):
    if tid not in got:
        print("thread %d: not listed" % tid)
        bad += 1
        continue
    on, o, pid = got[tid]
    if abs(o - off[tid]) > max(0.005 * off[tid], 0.01):
        print("thread %d: off-CPU %.3f ms, perf's records say %.3f" % (tid, o, off[tid]))
        bad += 1
    if (sampled and pid != tid and prog_cpu >= 20
            and abs(on - prog_cpu) > 0.1 * prog_cpu):
        print("thread %d: on-CPU %.3f ms, it measured %.3f" % (tid, on, prog_cpu))
        bad += 1
    print("thread %d: on %.3f (measured %.3f) off %.3f (expected %.3f)" % (
        tid, on, prog_cpu, o, off[tid]))
sys.exit(1 if bad else 0)
