#!/usr/bin/env python3
"""oncpu.py: each thread's on-CPU time from perf's own output (no perfan),
beside the thread's own time.thread_time_ns() from server.py's truth file.

Usage: perf script -i X.data --show-switch-events --show-task-events \\
           -F pid,tid,time,event,trace --ns \\
       | grep -a 'PERF_RECORD_\|sched:sched_switch' | oncpu.py TRUTH

The recording has PERF_RECORD_SWITCH records (perf record --switch-events)
of the traced process: for each of its threads every switch-in (IN) and
switch-out (OUT). A thread's on-CPU time is the sum of IN -> the next OUT,
plus its last IN -> its PERF_RECORD_EXIT (a thread that exits is not
switched out while traced).  A new thread's first run has its IN; the main
thread runs from its COMM exec (enable-on-exec: no IN).
The scheduler charges a thread from the moment it picks it, before the
sched:sched_switch tracepoint (whose sample, with its 16 KB stack copy,
takes 10 to 50 us here) and the IN record: so a sched:sched_switch record
moves the boundary back to its own time -- its prev's OUT, and the IN of
its next when the next is a thread of the process.

Written, one line per thread of TRUTH (`role tid name thread_time_ns`):
    role tid name truth_ns switch_ns diff_pct
then one line per role (`role ROLE n N truth_ns T switch_ns S diff_pct D`).

Known differences (NOTES.md): thread_time counts the few microseconds of
each context switch between the scheduler's pick and the IN record (the
switch-based figure is about 1-2 % lower for threads that switch thousands
of times); a thread's exit after its last thread_time_ns() call counts in
the switch-based figure only (~60 us per handler thread); the main thread's
thread_time also counts perf's forked child before the exec, which is not
recorded.
"""
import sys

truth = []
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    role, tid, name, ns = line.split()
    truth.append((role, int(tid), name, int(ns)))

inn, run = {}, {}
out = set()
known = {tid for _, tid, _, _ in truth}
for line in sys.stdin:
    f = line.split()
    if len(f) < 3 or "/" not in f[0]:
        continue
    tid = int(f[0].split("/")[1])
    t = int(round(float(f[1].rstrip(":")) * 1e9))
    ev = f[2]
    if ev == "PERF_RECORD_COMM" and len(f) > 3 and f[3] == "exec:":
        inn.setdefault(tid, t)
    elif ev.startswith("PERF_RECORD_EXIT"):
        if tid in inn:
            run[tid] = run.get(tid, 0) + t - inn.pop(tid)
    elif ev == "sched:sched_switch:":
        kv = dict(x.split("=", 1) for x in f[3:] if "=" in x)
        prev, nxt = int(kv["prev_pid"]), int(kv["next_pid"])
        if prev in inn:
            run[prev] = run.get(prev, 0) + t - inn.pop(prev)
        out.add(prev)
        if nxt in known:
            inn[nxt] = t
    elif ev == "PERF_RECORD_SWITCH":
        if f[3] == "IN":
            inn.setdefault(tid, t)     # unless its sched_switch said so
        elif tid in inn:               # (after its sched_switch: the same)
            run[tid] = run.get(tid, 0) + t - inn.pop(tid)

roles = {}
for role, tid, name, ns in truth:
    m = run.get(tid, 0)
    print("%s %d %s %d %d %+.2f" % (role, tid, name, ns, m, 100.0 * (m - ns) / ns))
    r = roles.setdefault(role, [0, 0, 0])
    r[0] += 1
    r[1] += ns
    r[2] += m
for role, (n, a, b) in roles.items():
    print("role %s n %d truth_ns %d switch_ns %d diff_pct %+.2f"
          % (role, n, a, b, 100.0 * (b - a) / a))
