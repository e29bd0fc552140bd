#!/usr/bin/env python3
"""make-kallsyms.py: writes testdata/kallsyms, the part of the recording
kernel's kallsyms that the test recordings need, so that kernel frames
resolve on machines running another kernel (tests pass it as --kallsyms).

Kept, in the source's order: every line whose symbol perf's outputs in
testdata (script*.txt frames in [kernel.kallsyms], report*.txt [k] rows)
name, all other symbols at the same address, the symbols at the next higher
address (they give the sizes, as perf sizes kallsyms symbols), and _text
(which relocates the file to the recording's kernel map).

Usage (on the machine and boot that made the recordings, as root):
    testdata/make-kallsyms.py [SOURCE] > testdata/kallsyms
    testdata/make-kallsyms.py --case CASE [SOURCE] > testdata/CASE/kallsyms
SOURCE defaults to perf's copy in ~/.debug for the kernel build-id that
testdata/fp/buildids.txt (with --case: CASE/buildids.txt) names, else
/proc/kallsyms.  A case recorded on another kernel has a kallsyms of its own
(testdata/CASE/kallsyms, made with --case from that case's perf script
outputs, plain or .zst); the default run leaves such cases out, and reads
the plain script*.txt only.
"""
import glob
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
case = None
if len(sys.argv) > 2 and sys.argv[1] == "--case":
    case = sys.argv[2]
    del sys.argv[1:3]


def source_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    for line in open(os.path.join(here, case or "fp", "buildids.txt")):
        if len(line.split(None, 1)) < 2:
            continue
        bid, name = line.split(None, 1)
        if name.strip() == "[kernel.kallsyms]":
            p = os.path.expanduser(
                "~/.debug/[kernel.kallsyms]/%s/kallsyms" % bid)
            if os.path.exists(p):
                return p
    return "/proc/kallsyms"


def case_files(pattern):
    """The files matching pattern in the cases this run covers."""
    if case:
        return glob.glob(os.path.join(here, case, pattern))
    return [p for p in glob.glob(os.path.join(here, "*", pattern))
            if not os.path.exists(os.path.join(os.path.dirname(p), "kallsyms"))]


def text_lines(path):
    if path.endswith(".zst"):
        out = subprocess.run(["zstd", "-dc", path], check=True,
                             stdout=subprocess.PIPE).stdout
        return out.decode(errors="replace").splitlines()
    return open(path, errors="replace")


def wanted_names():
    names = set()
    frame = re.compile(r"^\s+[0-9a-f]+ (\S+?)(\+0x[0-9a-f]+)? \(\[kernel\.kallsyms\]\)$")
    # (compressed scripts only for a case of its own: the shared file was
    # made from the plain ones)
    zst = case_files("script*.txt.zst") if case else []
    for path in case_files("script*.txt") + zst:
        for line in text_lines(path):
            m = frame.match(line.rstrip("\n"))
            if m and m.group(1) != "[unknown]":
                names.add(m.group(1))
    for path in case_files("report*.txt"):
        for line in open(path, errors="replace"):
            m = re.search(r"\[k\] (\S+)", line)
            if m:
                names.add(m.group(1))
    return names


def main():
    src = source_path()
    lines = open(src).read().splitlines()
    syms = []  # (addr, index, name) of the types perf keeps
    for i, line in enumerate(lines):
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[1].upper() not in "TWDB":
            continue
        syms.append((int(parts[0], 16), i, parts[2].split("\t")[0]))
    syms.sort()
    addrs = sorted({a for a, _, _ in syms})
    next_addr = dict(zip(addrs, addrs[1:]))
    names = wanted_names()
    keep_addrs = set()
    for a, _, name in syms:
        if name in names:
            keep_addrs.add(a)
            if a in next_addr:
                keep_addrs.add(next_addr[a])
    keep = {i for a, i, _ in syms if a in keep_addrs}
    for i, line in enumerate(lines):
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[2] == "_text":
            keep.add(i)
    if not keep_addrs:
        sys.exit("make-kallsyms.py: no symbol of testdata found in " + src)
    sys.stdout.write("".join(lines[i] + "\n" for i in sorted(keep)))
    sys.stderr.write("make-kallsyms.py: %d of %d names found, %d lines from %s\n"
                     % (len({n for _, _, n in syms if n in names}), len(names),
                        len(keep), src))


main()
