#!/usr/bin/env python3
"""collapse_agree.py PERFAN CASE_DIR DATA SCRIPT [--full] [-- ARGS...]

How many samples `perfan collapse DATA` and `perfan collapse SCRIPT` (the
perf script text of the same recording, perf's own unwinding and symbols)
give the same stack. Prints the share and exits 1 below 99 %.

Without --full the comparison must hold on any machine: perfan (with
--inline, so inlined frames are part of the comparison) reads only
binaries from CASE_DIR (by --symfs, found by build-id; an empty build-id
cache) and kernel symbols from testdata/kallsyms (CASE_DIR/kallsyms when the
case has its own), so frames in system
libraries that testdata lacks are unresolved. Both sides are then compared
from the leaf up to the first frame of such a library, with consecutive
frames of one library counted as one. With --full (this machine has the
recording's libraries) whole stacks are compared. ARGS after "--" are
given to `perfan collapse DATA` as well (--perf-map-dir, --jitdump-dir).
"""
import collections
import os
import re
import subprocess
import sys
import tempfile


def script_stacks(path, local_dsos):
    """Per sample, the leaf-first list of (name, dso) from perf script."""
    stacks, cur, comm = [], None, None
    head = re.compile(r"^(\S.*?)\s+(\d+)(?:/\d+)?\s+(?:\[\d+\]\s+)?[\d.]+:"
                      r"\s+(?:\d+\s+)?([^\s:]+(?::[^\s:]+)?):")
    events, event = {}, None  # each event's place, in order met
    frame = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$")
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = head.match(line)
        if m and m.group(3).startswith("PERF_RECORD_"):
            # side-band records (--show-task-events, --show-switch-events)
            if cur is not None:
                stacks.append((comm, cur, event))
            cur = None
            continue
        if m:
            if cur is not None:
                stacks.append((comm, cur, event))
            comm, cur, event = m.group(1), [], m.group(3)
            events.setdefault(event, len(events))
            continue
        m = frame.match(line)
        if m and cur is not None:
            name = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1))
            cur.append((name, os.path.basename(m.group(2))))
    if cur is not None:
        stacks.append((comm, cur, event))
    # perfan collapse keeps one event's samples: a CPU clock's, else the
    # first event's that is no tracepoint or probe (SYS:NAME), else the
    # first's
    def rank(e):
        clock = re.match(r"(cpu-clock|task-clock|cycles)\b", e)
        return (0 if clock else 2 if ":" in e else 1, events[e])
    keep = min(events, key=rank) if events else None
    stacks = [(c, fr) for c, fr, e in stacks if e == keep]
    # perf prints an inlined frame's module as "(inlined)": it is the
    # module of the frame it is inlined into, the next real one
    for _, frames in stacks:
        for i in range(len(frames) - 1, -1, -1):
            if frames[i][1] == "inlined" and i + 1 < len(frames):
                frames[i] = (frames[i][0], frames[i + 1][1])
    return stacks


def perfan_samples(perfan, args):
    out = subprocess.run([perfan, "collapse", "--samples"] + args,
                         check=True, capture_output=True, text=True).stdout
    c = collections.Counter()
    for line in out.splitlines():
        stack, n = line.rsplit(" ", 1)
        c[stack] += int(n)
    return c


def cut(frames, is_foreign):
    """Leaf-first frames up to and including the first foreign one."""
    out = []
    for f in frames:
        if is_foreign(f):
            out.append("[foreign]")
            break
        out.append(f)
    return tuple(out)


def main():
    argv = sys.argv
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    perfan, case, data, script = argv[1:5]
    full = "--full" in argv
    local = set(os.listdir(case))
    # a case recorded on another kernel has its own (testdata/offcpu)
    kallsyms = os.path.join(case, "kallsyms")
    if not os.path.exists(kallsyms):
        kallsyms = os.path.join(os.path.dirname(os.path.abspath(case)), "kallsyms")
    stacks = script_stacks(script, local)
    foreign_dsos = {d for _, fr in stacks for _, d in fr
                    if not (d in local or d.startswith("[kernel") or
                            d in ("unknown", "[unknown]"))}
    if full:
        got = perfan_samples(perfan, extra + [data])
        want = perfan_samples(perfan, [script])
        same = sum(min(n, got[s]) for s, n in want.items())
        total = sum(want.values())
    else:
        with tempfile.TemporaryDirectory() as empty:
            got = perfan_samples(perfan, ["--inline", "--symfs", case,
                                          "--buildid-dir",
                                          empty, "--kallsyms", kallsyms] +
                                 extra + [data])

        def foreign_name(name, _l=local):
            # "[libc.so.6]": an address in a library testdata lacks
            return name.startswith("[") and name.endswith("]") and \
                name[1:-1] in foreign_dsos
        mine = collections.Counter()
        for stack, n in got.items():
            frames = stack.split(";")[1:][::-1]  # leaf first, no comm
            mine[cut(frames, foreign_name)] += n
        theirs = collections.Counter()
        for comm, frames in stacks:
            def foreign(f, _l=local):
                name, dso = f
                return not (dso in _l or dso.startswith("[kernel") or
                            dso in ("unknown", "[unknown]"))
            names = []
            for f in frames:
                if foreign(f):
                    names.append("[foreign]")
                    break
                # an unresolved address in a known module is "[module]",
                # as stackcollapse-perf.pl names it
                names.append("[%s]" % f[1] if f[0] == "[unknown]" and
                             f[1] not in ("unknown", "[unknown]") else f[0])
            theirs[tuple(names)] += 1
        same = sum(min(n, mine[s]) for s, n in theirs.items())
        total = sum(theirs.values())
    share = same / total if total else 0.0
    print("%s: %d of %d samples agree (%.1f %%)%s" % (
        data, same, total, 100 * share, " [full]" if full else ""))
    sys.exit(0 if share >= 0.99 else 1)


if __name__ == "__main__":
    main()
