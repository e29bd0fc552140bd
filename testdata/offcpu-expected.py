#!/usr/bin/env python3
"""offcpu-expected.py: writes testdata/offcpu/EXPECTED.txt, the ground truth
for off-CPU analysis of the offcpu recordings, from two sources only (no
perfan): the programs' own measurements (offcpu*.out, handler.out: every
planted wait timed with CLOCK_MONOTONIC and the thread's CPU clock around
it) and perf script's own records (the samples in script*.txt[.zst], the
COMM/FORK/EXIT/SWITCH records in sideband*.txt, merged by time).

Usage: python3 testdata/offcpu-expected.py [DIR] > DIR/EXPECTED.txt
       (DIR defaults to testdata/offcpu; needs zstd for the .zst scripts)

Per recording, for every thread of the workload (the tids the program
printed), whitespace-separated lines (times in ms, 3 decimals):

  thread  REC TID COMM LIFETIME FIRST LAST PROG_WALL PROG_CPU
      LIFETIME: perf script's first to last record of the tid (FIRST, LAST
      in perf's seconds; a sched_switch naming it as prev_pid or next_pid
      counts, whatever its header says); PROG_WALL / PROG_CPU: the thread's own wall and
      CPU time from its first to its last statement (the .out file)
  planted REC TID COMM SITE CALLS WALL CPU OFF
      the program's sums for the call site: WALL and CPU around the waits,
      OFF = WALL - CPU, the time it was off-CPU during them
  offcpu  REC TID COMM SITE STATE N TOTAL EXACT WOKEN RUNQ
      perf's switch records: N intervals from a switch-out of the tid (a
      sched:sched_switch with prev_pid=TID, STATE its prev_state; or a
      PERF_RECORD_SWITCH OUT, STATE R if "preempt", else "-": the record
      does not say) to its switch-in, TOTAL ms in all.  The switch-in is a
      sched_switch with next_pid=TID or a SWITCH IN record when there is one
      (EXACT counts those); a recording of one process has none when the
      CPU comes from a task it does not trace (idle, say), and the interval
      ends at the tid's next record of any kind instead, a little late
      (the last wait of a thread, when it exits, ends at its EXIT record).
      SITE: the first planted function (wait_sleep, wait_mutex, holder,
      wait_pipe, writer, wait_disk, wait_disk_direct, spin; handle_request
      and parse, its CPU work, for the Python handler)
      in the switch-out's callchain, "[other]" when none is (barrier waits,
      thread start and exit, pthread_join, stacks cut short in libc), "-"
      for SWITCH records (no callchain).  WOKEN: intervals in which a
      sched_wakeup/sched_waking of the tid was recorded; RUNQ: ms from the
      (first) wakeup to the switch-in, over the EXACT and WOKEN intervals.
  open    REC TID COMM SITE STATE T   a switch-out (at T, perf's seconds)
                              with no later record of the tid
  exit    REC TID COMM T      the tid's last switch-out, prev_state X or Z
                              (it exited; not a wait, so no offcpu line)
  offtotal REC TID COMM STATE N TOTAL    the offcpu lines summed over sites
  offcputime  REC TID COMM SITE N TOTAL
      perf's own off-CPU event (perf.offcpu.data, `perf record --off-cpu`):
      N offcpu-time samples of the tid whose callchain's first planted
      function is SITE (as for offcpu lines), TOTAL ms the sum of their
      periods.  perf's BPF program sums, per thread, user stack and state,
      the ns from each switch-out in state S or D to the next switch-in,
      and writes one sample per sum when the recording ends (time
      0xffffffff00000000 ns and up, so these samples are left out of the
      thread lines' lifetimes); no state, no timeline, no preemption (R)
  offcputotal REC TID COMM N TOTAL   the offcputime lines summed per thread,
      for every thread of the workload (N 0 when perf saw none of its waits)

perf.freq.data is left out of the offcpu lines: -F 999 sampled its
sched_switch records (about one switch in N), so its intervals mean nothing.
"""
import collections
import heapq
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
DIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "offcpu")

# recording, program output, perf script output
RECORDINGS = [
    ("perf.data", "offcpu.out", "script.txt", "sideband.txt"),
    ("perf.dwarf.data", "offcpu.dwarf.out", "script.dwarf.txt.zst", "sideband.dwarf.txt"),
    ("perf.switch.data", "offcpu.switch.out", "script.switch.txt", "sideband.switch.txt"),
    ("perf.sched.data", "offcpu.sched.out", "script.sched.txt.zst", "sideband.sched.txt"),
    ("perf.freq.data", "offcpu.freq.out", "script.freq.txt", "sideband.freq.txt"),
    ("perf.py.data", "handler.out", "script.py.txt.zst", "sideband.py.txt"),
    ("perf.offcpu.data", "offcpu.offcpu.out", "script.offcpu.txt", "sideband.offcpu.txt"),
]
SITES = {"wait_sleep", "wait_mutex", "holder", "wait_pipe", "writer", "wait_disk",
         "wait_disk_direct", "spin", "handle_request", "parse"}
SAMPLED = {"perf.freq.data"}
OFFCPU_TIME = {"perf.offcpu.data"}  # recorded with perf's --off-cpu

HEAD = re.compile(r"^(?P<comm>\S.*?)\s+(?P<tid>-?\d+)\s+(?:\[(?P<cpu>\d+)\]\s+)?"
                  r"(?P<time>\d+\.\d+):\s+(?P<rest>.*)$")
FRAME = re.compile(r"^\s+[0-9a-f]+ (?P<sym>.+?)(?:\+0x[0-9a-f]+)? \((?P<dso>.*)\)$")


def lines_of(path):
    if path.endswith(".zst"):
        out = subprocess.run(["zstd", "-dc", path], check=True, stdout=subprocess.PIPE).stdout
        return out.decode(errors="replace").splitlines()
    with open(path, errors="replace") as f:
        return f.read().splitlines()


def records(path, sideband):
    """perf script's records, (time, tid, comm, rest, frames): the samples
    of path and the side-band records of sideband merged in time order (a
    sample before a side-band record of the same time)."""
    side = []
    for line in lines_of(sideband):
        m = HEAD.match(line)
        if m:
            side.append((float(m.group("time")), int(m.group("tid")), m.group("comm"),
                         m.group("rest"), []))
    side.sort(key=lambda r: r[0])
    return heapq.merge(samples(path), side, key=lambda r: r[0])


def samples(path):
    """perf script's samples: (time, tid, comm, rest, frames) in file order."""
    cur = None
    for line in lines_of(path):
        if not line.strip():
            continue
        m = HEAD.match(line)
        if m and not line[0].isspace():
            if cur:
                yield cur
            cur = (float(m.group("time")), int(m.group("tid")), m.group("comm"),
                   m.group("rest"), [])
            continue
        f = FRAME.match(line)
        if f and cur:
            cur[4].append(f.group("sym"))
    if cur:
        yield cur


def site_of(frames):
    for sym in frames:
        name = sym
        if name.startswith("py::"):
            name = name[4:].split(":", 1)[0]
        if name in SITES:
            return name
    return "[other]"


def field(rest, key):
    m = re.search(r"\b%s=(\S+)" % key, rest)
    return m.group(1) if m else None


def read_out(path):
    calls = collections.OrderedDict()
    threads = collections.OrderedDict()
    for line in open(path):
        p = line.split()
        if p[0] == "site":
            calls[(int(p[2]), p[3])] = (p[1], int(p[4]), int(p[5]), int(p[6]))
        elif p[0] == "thread":
            threads[int(p[2])] = (p[1], int(p[3]), int(p[4]))
    return threads, calls


def ms(ns):
    return "%.3f" % (ns / 1e6)


def analyse(rec, outf, scriptf, sidef):
    threads, calls = read_out(os.path.join(DIR, outf))
    tids = set(threads)
    first, last = {}, {}
    dead = {}  # tid -> time of its last switch-out, prev_state X or Z
    out_at = {}  # tid -> (time, state, site, wakeup time or None)
    # (tid, site, state) -> [n, total, exact, woken, runq]
    acc = collections.defaultdict(lambda: [0, 0.0, 0, 0, 0.0])
    bpf = collections.defaultdict(lambda: [0, 0])  # (tid, site) -> [n, ns]

    def close(tid, t, exact):
        t0, state, site, woke = out_at.pop(tid)
        a = acc[(tid, site, state)]
        a[0] += 1
        a[1] += t - t0
        if exact:
            a[2] += 1
        if woke is not None:
            a[3] += 1
            if exact:
                a[4] += t - woke

    for t, tid, comm, rest, frames in records(os.path.join(DIR, scriptf),
                                              os.path.join(DIR, sidef)):
        if t == 0.0:  # perf's synthesized perf-exec COMM
            continue
        ev = rest.split(":", 1)[0].split()[-1] if ":" in rest else rest
        if ev == "offcpu-time":  # a sum written at the end, not a record in time
            if tid in tids:
                b = bpf[(tid, site_of(frames))]
                b[0] += 1
                b[1] += int(rest.split()[0])  # the period, ns
            continue
        # the record's own tid (or, for FORK, the child's and parent's tids)
        if tid in tids:
            first.setdefault(tid, t)
            last[tid] = t
        if rec in SAMPLED:
            continue
        if "sched:sched_switch" in rest:
            prev, nxt = int(field(rest, "prev_pid")), int(field(rest, "next_pid"))
            for p in (prev, nxt):  # the switch names them: a record of both
                if p in tids:
                    first.setdefault(p, t)
                    last[p] = t
            if nxt in out_at:
                close(nxt, t, True)
            if prev in out_at:  # out again without a switch-in seen
                close(prev, t, False)
            if prev in tids and field(rest, "prev_state") in ("X", "Z"):
                dead[prev] = t  # its last switch: it has exited
            elif prev in tids:
                out_at[prev] = (t, field(rest, "prev_state"), site_of(frames), None)
            continue
        if "sched:sched_wakeup" in rest or "sched:sched_waking" in rest:
            pid = int(field(rest, "pid"))
            if pid in out_at and out_at[pid][3] is None:
                o = out_at[pid]
                out_at[pid] = (o[0], o[1], o[2], t)
            if tid in out_at:  # the waker itself is on a CPU
                close(tid, t, False)
            continue
        if rest.startswith("PERF_RECORD_SWITCH"):
            if tid not in tids:
                continue
            if " OUT" in rest:
                if tid in out_at:
                    close(tid, t, False)
                out_at[tid] = (t, "R" if "preempt" in rest else "-", "-", None)
            elif tid in out_at:
                close(tid, t, True)
            continue
        # any other record of the tid (a sample, COMM, or the FORK / EXIT
        # records, which are made in the forking or exiting task's context):
        # it runs again
        if tid in out_at:
            close(tid, t, False)

    print("# %s (program output %s, perf script %s and %s)" % (rec, outf, scriptf, sidef))
    for tid, (name, wall, cpu) in threads.items():
        if tid in first:
            print("thread %s %d %s %s %.6f %.6f %s %s" % (
                rec, tid, name, ms((last[tid] - first[tid]) * 1e9), first[tid], last[tid],
                ms(wall), ms(cpu)))
        else:
            print("thread %s %d %s - - - %s %s" % (rec, tid, name, ms(wall), ms(cpu)))
    for (tid, site), (name, n, wall, cpu) in calls.items():
        print("planted %s %d %s %s %d %s %s %s" % (rec, tid, name, site, n, ms(wall), ms(cpu),
                                                  ms(wall - cpu)))
    if rec in SAMPLED:
        print("# %s: no offcpu lines (sched_switch sampled, see above)" % rec)
        print()
        return
    totals = collections.defaultdict(lambda: [0, 0.0])
    for (tid, site, state) in sorted(acc, key=lambda k: (list(threads).index(k[0]), k[1], k[2])):
        n, total, exact, woken, runq = acc[(tid, site, state)]
        print("offcpu %s %d %s %s %s %d %s %d %d %s" % (
            rec, tid, threads[tid][0], site, state, n, ms(total * 1e9), exact, woken,
            ms(runq * 1e9)))
        totals[(tid, state)][0] += n
        totals[(tid, state)][1] += total
    for tid in threads:
        if tid in out_at:
            t0, state, site, _ = out_at[tid]
            print("open %s %d %s %s %s %.6f" % (rec, tid, threads[tid][0], site, state, t0))
    for tid in threads:
        if tid in dead:
            print("exit %s %d %s %.6f" % (rec, tid, threads[tid][0], dead[tid]))
    for (tid, state) in sorted(totals, key=lambda k: (list(threads).index(k[0]), k[1])):
        n, total = totals[(tid, state)]
        print("offtotal %s %d %s %s %d %s" % (rec, tid, threads[tid][0], state, n,
                                             ms(total * 1e9)))
    if rec in OFFCPU_TIME:
        for (tid, site) in sorted(bpf, key=lambda k: (list(threads).index(k[0]), k[1])):
            n, ns = bpf[(tid, site)]
            print("offcputime %s %d %s %s %d %s" % (rec, tid, threads[tid][0], site, n, ms(ns)))
        for tid in threads:
            n = sum(v[0] for k, v in bpf.items() if k[0] == tid)
            ns = sum(v[1] for k, v in bpf.items() if k[0] == tid)
            print("offcputotal %s %d %s %d %s" % (rec, tid, threads[tid][0], n, ms(ns)))
    print()


def main():
    print("# EXPECTED.txt: ground truth for off-CPU analysis of testdata/offcpu,")
    print("# made by testdata/offcpu-expected.py (its docstring says what each field is)")
    print("# from the programs' own measurements and perf script's records; no perfan.")
    print("# Times in ms.  Kinds of line:")
    print("#   thread  REC TID COMM LIFETIME FIRST LAST PROG_WALL PROG_CPU")
    print("#   planted REC TID COMM SITE CALLS WALL CPU OFF")
    print("#   offcpu  REC TID COMM SITE STATE N TOTAL EXACT WOKEN RUNQ")
    print("#   open    REC TID COMM SITE STATE T")
    print("#   exit    REC TID COMM T")
    print("#   offtotal REC TID COMM STATE N TOTAL")
    print("#   offcputime  REC TID COMM SITE N TOTAL   (perf's offcpu-time event)")
    print("#   offcputotal REC TID COMM N TOTAL")
    print()
    for rec, outf, scriptf, sidef in RECORDINGS:
        if os.path.exists(os.path.join(DIR, rec)):
            analyse(rec, outf, scriptf, sidef)


main()
