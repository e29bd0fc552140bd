#!/usr/bin/env python3
"""truth.py: the ground truth of GIL waits and holds from the uprobes of one
recording, computed from perf's own output (no perfan).

Usage: perf script -i X.data -F pid,tid,time,event --ns | truth.py X.out [--blame WAITER]

Input: the records probe_libpython3:take_gil (entry), take_gil__return (a
plain uprobe on take_gil's only `ret` instruction, not a uretprobe: see
NOTES.md) and drop_gil (entry; in 3.13 also its inlined copy in
PyEval_ReleaseLock) per thread, in time order (other events are ignored).
X.out is the workload's own output: lines `NAME TID ...` (the thread's name,
native tid, then its figures; field 4, when there are at least 4, is the
thread's wall time in seconds as measured by the thread with perf_counter).

Per thread (tid), written as one line each:
  wait      sum over take_gil entry -> the next take_gil__return of the same
            thread (s); an entry without a return (the thread ended inside
            take_gil, or the recording stopped) is counted in `open`, not in
            wait
  episodes  how many such entry -> return pairs
  wall      the thread's wall time from X.out (s; "-" when not printed)
  frac      wait / wall ("-" without wall)
  hold      sum over take_gil__return -> the next drop_gil entry of the same
            thread (s): the time the thread held the GIL (a hold still open at
            the end of the recording is left out and counted in `openhold`)
  holds     how many such hold intervals
With --blame WAITER (a thread name from X.out): for each other thread H, the
time of WAITER's take_gil waits overlapped by H's hold intervals, in seconds
and as a fraction of WAITER's total wait; `nobody` is the part of the wait
that no recorded hold covers (handoff gaps: between a drop_gil entry and the
next take_gil return, runnable delays included); `blame-held` lines give
each holder's share of the covered part only (the shares sum to 1).
"""
import sys

out_path = sys.argv[1]
blame = None
if len(sys.argv) > 3 and sys.argv[2] == "--blame":
    blame = sys.argv[3]

names, walls = {}, {}
for line in open(out_path):
    f = line.split()
    if len(f) >= 2 and f[1].isdigit():
        names[int(f[1])] = f[0]
        if len(f) >= 4:
            try:
                walls[int(f[1])] = float(f[3])
            except ValueError:
                pass

start, hstart = {}, {}
waits, holds = {}, {}          # tid -> list of (t0, t1)
opened = {}
pids = {}
for line in sys.stdin:
    f = line.split()              # "PID/TID TIME: EVENT:"
    if len(f) < 3 or "/" not in f[0]:
        continue
    pid, tid = (int(x) for x in f[0].split("/"))
    t = float(f[1].rstrip(":"))
    ev = f[2].rstrip(":")
    pids[tid] = pid
    if ev.endswith(":take_gil"):
        if tid in start:           # entry without a return: never seen here
            opened[tid] = opened.get(tid, 0) + 1
        start[tid] = t
    elif ev.endswith(":take_gil__return"):
        if tid in start:
            waits.setdefault(tid, []).append((start.pop(tid), t))
        hstart[tid] = t
    elif ev.endswith(":drop_gil"):
        if tid in hstart:
            holds.setdefault(tid, []).append((hstart.pop(tid), t))

tids = sorted(set(waits) | set(holds) | set(start) | set(names))
print("# tid name wait_s episodes wall_s wait_frac hold_s holds open openhold")
for tid in tids:
    w = waits.get(tid, [])
    h = holds.get(tid, [])
    ws = sum(b - a for a, b in w)
    hs = sum(b - a for a, b in h)
    name = names.get(tid, "main" if pids.get(tid) == tid else "?")
    wall = walls.get(tid)
    print("%d %s %.6f %d %s %s %.6f %d %d %d" % (
        tid, name, ws, len(w),
        "%.6f" % wall if wall else "-",
        "%.4f" % (ws / wall) if wall else "-",
        hs, len(h), opened.get(tid, 0) + (1 if tid in start else 0),
        1 if tid in hstart else 0))

if blame:
    wt = [t for t, n in names.items() if n == blame]
    if not wt:
        sys.exit("truth.py: no thread %r in %s" % (blame, out_path))
    wt = wt[0]
    w = waits.get(wt, [])
    total = sum(b - a for a, b in w)
    print("# blame: %s (tid %d) waited %.6f s in %d take_gil episodes;"
          " overlap of each holder's holds with those waits" % (blame, wt, total, len(w)))
    print("# blame waiter_tid holder_tid holder_name overlap_s fraction")
    covered = 0.0
    rows = []
    for tid in tids:
        if tid == wt:
            continue
        ov = 0.0
        for a, b in holds.get(tid, []):
            for c, d in w:
                lo, hi = max(a, c), min(b, d)
                if hi > lo:
                    ov += hi - lo
        covered += ov
        name = names.get(tid, "main" if pids.get(tid) == tid else "?")
        rows.append((tid, name, ov))
        print("blame %d %d %s %.6f %.4f" % (wt, tid, name, ov, ov / total if total else 0))
    print("blame %d - nobody %.6f %.4f" % (wt, total - covered,
                                          (total - covered) / total if total else 0))
    print("# of the part some thread held (without `nobody`): holder_tid holder_name fraction")
    for tid, name, ov in rows:
        print("blame-held %d %d %s %.4f" % (wt, tid, name, ov / covered if covered else 0))
