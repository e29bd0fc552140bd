#!/usr/bin/env python3
"""Measurements on testdata/py-handler for issue 6, written to stdout
(regen.sh saves them as NOTES.txt).  Run from inside testdata/py-handler/.

Everything is computed from perf's own outputs kept in the case directory
(script-*.txt, or script-*.txt.zst read with `zstd -dc`,
report313jit-injected.txt), the perf-PID.map / jit-PID.dump copies and the
libpython copies (nm, objdump, readelf).  If PERFAN names a
perfan binary, `perfan stats` is also compared with perf's stats-*.txt.
"""
import collections
import glob
import os
import re
import struct
import subprocess
import sys

SCRIPT = "handler.py"
WORKLOAD = ["main", "handle_request", "make_items", "dedup",
            "serialize_items", "build_tree", "walk"]
RECORDINGS = [("perf312.data", "312", "3.12 -X perf, --call-graph dwarf,65528"),
              ("perf313jit.data", "313jit",
               "3.13 -X perf_jit, --call-graph dwarf,65528 -k 1"),
              ("perf312fp.data", "312fp", "3.12 -X perf, -g")]
FRAME = re.compile(r"^\s*([0-9a-f]+) (.*) \((.*)\)$")


def read_text(path):
    """The text of PATH, or of PATH.zst decompressed with `zstd -dc`."""
    if os.path.exists(path):
        return open(path, errors="replace").read()
    return subprocess.run(["zstd", "-dc", path + ".zst"], check=True,
                          capture_output=True).stdout.decode(errors="replace")


def script_name(path):
    """PATH as kept: with .zst if only the compressed copy is there."""
    return path if os.path.exists(path) else path + ".zst"


def samples(path):
    """perf script text -> list of frame lists [(sym, dso)], leaf first."""
    out = []
    for block in read_text(path).split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines:
            continue
        frames = []
        for l in lines[1:]:
            m = FRAME.match(l)
            if m:
                sym = re.sub(r"\+0x[0-9a-f]+$", "", m.group(2))
                frames.append((sym, m.group(3)))
        out.append(frames)
    return out


def py_name(sym):
    """'py::walk:/x/handler.py' -> ('walk', '/x/handler.py'), else None."""
    if not sym.startswith("py::"):
        return None
    q, _, f = sym[4:].partition(":")
    return q, f


def is_workload(sym, names=WORKLOAD):
    p = py_name(sym)
    return bool(p and p[1].endswith("/" + SCRIPT) and p[0] in names)


def pct(n, d):
    return "%d/%d = %.1f%%" % (n, d, 100.0 * n / d) if d else "0/0"


def run(*argv):
    return subprocess.run(argv, capture_output=True, text=True).stdout


def section(title):
    print()
    print(title)
    print("=" * len(title))


def innermost_estimate(ss):
    """Total shares per workload function estimated from the innermost
    py:: frame of each sample, using the known call tree (perf shows only
    that frame for 3.12 DWARF): dedup, walk, build_tree and make_items call
    no Python function of handler.py; serialize_items' callees are json's
    Python functions; handle_request/main/<module> include everything of
    handler.py and json below them."""
    inner = collections.Counter()
    n = len(ss)
    for fr in ss:
        for sym, _ in fr:
            p = py_name(sym)
            if p:
                inner[p] += 1
                break
    tot = collections.Counter()
    for (q, f), c in inner.items():
        if f.endswith("/" + SCRIPT):
            if q in ("dedup", "walk", "build_tree", "make_items",
                     "serialize_items"):
                tot[q] += c
            if q in WORKLOAD:
                tot["handle_request"] += 0 if q == "main" else c
                tot["main"] += c
        elif "/json/" in f:
            tot["serialize_items"] += c
            tot["handle_request"] += c
            tot["main"] += c
    return {k: 100.0 * v / n for k, v in tot.items()}, n


def main():
    print("py-handler measurements (testdata/py-handler-notes.py, run by regen.sh)")

    section("Recordings")
    for data, tag, what in RECORDINGS:
        st = open("stats-%s.txt" % tag).read()
        m = re.search(r"^\s*SAMPLE events:\s+(\d+)", st, re.M)
        lost = re.search(r"^\s*LOST events:\s+(\d+)", st, re.M)
        print("%-16s %-48s %9d bytes, %s samples, %s LOST records"
              % (data, what, os.path.getsize(data), m.group(1) if m else "?",
                 lost.group(1) if lost else "no"))
    perfan = os.environ.get("PERFAN")
    if perfan:
        for data, tag, _ in RECORDINGS:
            mine = subprocess.run([perfan, "stats", data], capture_output=True,
                                  text=True)
            same = (mine.stdout + mine.stderr) == open("stats-%s.txt" % tag).read()
            print("perfan stats %s == stats-%s.txt: %s"
                  % (data, tag, "yes" if same else "NO"))

    section("3.12 -X perf, DWARF (%s)" % script_name("script-312.txt"))
    ss = samples("script-312.txt")
    n = len(ss)
    anypy = [fr for fr in ss if any(py_name(s) for s, _ in fr)]
    multi = [fr for fr in ss if sum(1 for s, _ in fr if py_name(s)) > 1]
    module = [fr for fr in ss if any(s.startswith("py::<module>:") for s, _ in fr)]
    module_h = [fr for fr in module
                if any(s.startswith("py::<module>:") and s.endswith("/" + SCRIPT)
                       for s, _ in fr)]
    last_py = [fr for fr in ss if fr and py_name(fr[-1][0])]
    to_start = [fr for fr in ss if fr and fr[-1][0] == "_start"]
    wl = [fr for fr in ss if any(is_workload(s) for s, _ in fr)]
    print("samples:                                  %d" % n)
    print("with any py:: frame:                      %s" % pct(len(anypy), n))
    print("with more than one py:: frame:            %s" % pct(len(multi), n))
    print("  (of the samples with a py:: frame:      %s)" % pct(len(multi), len(anypy)))
    print("containing any py::<module>:              %s" % pct(len(module), n))
    for name, c in collections.Counter(
            s for fr in module for s, _ in fr if s.startswith("py::<module>:")).items():
        print("    %s: %d (its only py:: frame)" % (name, c))
    print("containing py::<module>:...%s:     %s" % (SCRIPT, pct(len(module_h), n)))
    print("stack ends at a py:: frame (unwind stops): %s" % pct(len(last_py), n))
    print("stack ends at _start:                     %s" % pct(len(to_start), n))
    print("with a workload function of %s:   %s" % (SCRIPT, pct(len(wl), n)))
    print("  of those, with py::main or <module>:    %s"
          % pct(sum(1 for fr in wl if any(
              is_workload(s, ["main"]) or
              (s.startswith("py::<module>:") and s.endswith("/" + SCRIPT))
              for s, _ in fr)), len(wl)))

    section("3.13 -X perf_jit after perf inject --jit (%s)"
            % script_name("script313jit-injected.txt"))
    sj = samples("script313jit-injected.txt")
    n = len(sj)
    has_main = sum(1 for fr in sj if any(is_workload(s, ["main"]) for s, _ in fr))
    has_wl = sum(1 for fr in sj if any(is_workload(s) for s, _ in fr))
    has_mod = sum(1 for fr in sj if any(s.startswith("py::<module>:") and s.endswith("/" + SCRIPT)
                                        for s, _ in fr))
    start = sum(1 for fr in sj if fr and fr[-1][0] == "_start")
    ends_py = sum(1 for fr in sj if fr and py_name(fr[-1][0]))
    ends_unk = sum(1 for fr in sj if fr and fr[-1][0] == "[unknown]")
    wl_full = sum(1 for fr in sj if any(is_workload(s) for s, _ in fr)
                  and any(s.startswith("py::<module>:") and s.endswith("/" + SCRIPT) for s, _ in fr))
    print("samples:                                   %d" % n)
    print("containing py::main:...%s:          %s" % (SCRIPT, pct(has_main, n)))
    print("containing any workload function:          %s" % pct(has_wl, n))
    print("containing py::<module>:...%s:      %s" % (SCRIPT, pct(has_mod, n)))
    print("workload samples reaching py::<module>:    %s" % pct(wl_full, has_wl))
    print("stack ends at _start:                      %s" % pct(start, n))
    cut = [fr for fr in sj if fr and fr[-1][0] != "_start"]
    ldso = [fr for fr in cut if fr[-1][0] == "_dl_start_user"]
    long_ = [fr for fr in cut if fr[-1][0] != "_dl_start_user"
             and sum(1 for _, d in fr if d != "inlined") >= 120]
    rest = [fr for fr in cut if fr[-1][0] != "_dl_start_user" and fr not in long_]
    nfr = sorted(sum(1 for _, d in fr if d != "inlined") for fr in long_)
    imp = sum(1 for fr in long_ if any(s.startswith("py::_find_and_load") or
                                       "import" in s.lower() for s, _ in fr))
    print("  the other %d:" % len(cut))
    print("    %d end at _dl_start_user (ld.so runs a library's constructor before"
          % len(ldso))
    print("      _start: a whole stack; e.g. %s)"
          % (" <- ".join(s for s, _ in ldso[0][:3]) if ldso else "-"))
    print("    %d cut at perf's frame limit (%s non-inlined frames shown; perf's"
          % (len(long_), "%d-%d" % (nfr[0], nfr[-1]) if nfr else "-"))
    print("      default --max-stack and kernel.perf_event_max_stack are 127);")
    print("      %d of them deep import stacks at start-up" % imp)
    print("    %d others%s" % (len(rest), ":" if rest else ""))
    for fr in rest:
        print("      %s" % " <- ".join(s for s, _ in fr[:6]))
    print("stack ends at a py:: frame:                %s" % pct(ends_py, n))
    print("stack ends at [unknown]:                   %s" % pct(ends_unk, n))
    depth = collections.Counter()
    for fr in sj:
        depth[sum(1 for s, _ in fr if py_name(s))] += 1
    print("py:: frames per sample (count: samples):   %s"
          % ", ".join("%d: %d" % kv for kv in sorted(depth.items())))

    section("Total (children) shares, report313jit-injected.txt")
    rep = {}
    for l in open("report313jit-injected.txt"):
        m = re.match(r"^\s+([\d.]+)%\s+([\d.]+)%\s+\[.\]\s+(.*)$", l)
        if m:
            rep.setdefault(m.group(3).strip(), (float(m.group(1)), float(m.group(2))))
    print("%-60s %8s %8s" % ("symbol", "children", "self"))
    for sym, (c, s) in rep.items():
        p = py_name(sym)
        if p and (p[1].endswith("/" + SCRIPT) or "/json/" in p[1]) and c >= 0.1:
            print("%-60s %7.2f%% %7.2f%%" % (sym, c, s))

    section("Innermost-py:: estimate of the total shares (for comparing 3.12 with 3.13)")
    print("Share of all samples whose innermost py:: frame is the function or one of")
    print("its Python callees (dedup/walk/build_tree/make_items call none of")
    print("handler.py's functions; serialize_items calls json's). The 3.13 column")
    print("applies the same estimate to the injected stacks; 'children' is perf's;")
    print("'diff' is 3.13 children - 3.12 est, in percentage points.")
    e12, n12 = innermost_estimate(ss)
    e13, n13 = innermost_estimate(sj)
    print("%-16s %10s %10s %16s %8s" % ("function", "3.12 est", "3.13 est",
                                        "3.13 children", "diff"))
    for f in WORKLOAD:
        key = [k for k in rep if is_workload(k, [f])]
        ch = rep[key[0]][0] if key else float("nan")
        print("%-16s %9.2f%% %9.2f%% %15.2f%% %+8.2f" % (f, e12.get(f, 0), e13.get(f, 0),
                                                      ch, ch - e12.get(f, 0)))
    print("(samples: 3.12 %d, 3.13 %d)" % (n12, n13))

    section("-g (frame pointers), 3.12 -X perf (%s)" % script_name("script-312fp.txt"))
    sf = samples("script-312fp.txt")
    n = len(sf)
    print("samples:                        %d" % n)
    print("with any py:: frame:            %s" % pct(sum(1 for fr in sf if any(py_name(s) for s, _ in fr)), n))
    print("with a py:: frame below leaf:   %s"
          % pct(sum(1 for fr in sf if any(py_name(s) for s, _ in fr[1:])), n))
    print("stack ends at _start:           %s" % pct(sum(1 for fr in sf if fr and fr[-1][0] == "_start"), n))

    section("perf-PID.map entries (py:: trampolines)")
    for mp in sorted(glob.glob("perf-*.map")):
        rows = [l.split(" ", 2) for l in open(mp) if l.strip()]
        addrs = sorted(int(r[0], 16) for r in rows)
        sizes = collections.Counter(int(r[1], 16) for r in rows)
        strides = collections.Counter(b - a for a, b in zip(addrs, addrs[1:]))
        print("%s: %d entries, sizes %s, strides %s" % (
            mp, len(rows), dict(sizes), dict(strides.most_common(6))))

    section("jit-PID.dump code loads")
    for jd in sorted(glob.glob("jit-*.dump")):
        b = open(jd, "rb").read()
        magic, ver, hsz = struct.unpack_from("<III", b, 0)
        pos, loads, unw, first = hsz, [], 0, None
        while pos + 16 <= len(b):
            rid, tsz, _ts = struct.unpack_from("<IIQ", b, pos)
            if tsz < 16 or pos + tsz > len(b):
                break
            if rid == 0:
                _pid, _tid, vma, addr, size, idx = struct.unpack_from("<IIQQQQ", b, pos + 16)
                name_end = b.index(b"\0", pos + 56)
                loads.append((addr, size, b[pos + 56:name_end].decode()))
                if first is None:
                    first = b[name_end + 1:name_end + 1 + size]
            elif rid == 4:
                unw += 1
            pos += tsz
        addrs = sorted(a for a, _, _ in loads)
        print("%s: version %d, %d JIT_CODE_LOAD, %d JIT_CODE_UNWINDING_INFO" % (jd, ver, len(loads), unw))
        print("  code sizes %s, strides %s" % (
            dict(collections.Counter(s for _, s, _ in loads)),
            dict(collections.Counter(y - x for x, y in zip(addrs, addrs[1:])).most_common(6))))
        if first is not None:
            print("  first code load (%s) bytes: %s" % (loads[0][2], first.hex(" ")))

    section("_Py_trampoline_func_start .. _Py_trampoline_func_end")
    for lib in sorted(glob.glob("libpython*.so.1.0")):
        nm = {}
        for l in run("nm", lib).splitlines():
            f = l.split()
            if len(f) == 3:
                nm[f[2]] = int(f[0], 16)
        s, e = nm["_Py_trampoline_func_start"], nm["_Py_trampoline_func_end"]
        dis = run("objdump", "-d", "--start-address=%#x" % s, "--stop-address=%#x" % e, lib)
        print("%s: start %#x end %#x (%d bytes)" % (lib, s, e, e - s))
        for l in dis.splitlines():
            if re.match(r"^\s+[0-9a-f]+:", l):
                print("  " + l.strip())
        covering, near = [], []
        for l in run("readelf", "--debug-dump=frames", lib).splitlines():
            m = re.search(r"FDE cie=\w+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", l)
            if m:
                lo, hi = int(m.group(1), 16), int(m.group(2), 16)
                if lo <= s < hi:
                    covering.append((lo, hi))
                if hi <= s and s - hi < 0x40 or lo >= e and lo - e < 0x40:
                    near.append((lo, hi))
        print("  .eh_frame FDE covering %#x: %s" % (
            s, ", ".join("%#x..%#x" % r for r in covering) or "none"))
        print("  neighbouring FDEs: %s" % ", ".join("%#x..%#x" % r for r in sorted(near)))
        sec = run("readelf", "-S", "-W", lib)
        print("  sections: %s" % ", ".join(x for x in (".eh_frame", ".eh_frame_hdr", ".symtab", ".dynsym", ".debug_info")
                                         if re.search(r"\s\%s\s" % x, sec)))
        bid = re.search(r"Build ID: (\w+)", run("readelf", "-n", lib))
        print("  build-id: %s" % (bid.group(1) if bid else "none"))


if __name__ == "__main__":
    main()
