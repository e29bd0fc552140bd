#!/usr/bin/env python3
"""tests/check_layers.py: the house's order (shared/DESIGN.md, "Layout"),
checked on every #include of libperfan/ and cli/.

Fails on:
  - an include from a stage to a later one (the order is STAGES below);
  - an include of another folder's internal header (internal.h or
    *_internal.h): a folder's internals are its own;
  - a cycle between files: file A includes B's header and B includes A's,
    directly or around a longer circle (a header and the .c file of the
    same name are one node);
  - cli/ including anything of libperfan/ but the public headers.

With --objects DIR (the perfan_obj object files), also through the
functions files call (nm's undefined and defined symbols), since a public
header hides who defines what: a call from a stage into a later one, and a
cycle of calls between files (A calls a function that B defines and B one
that A defines, or around a longer circle), the circles that helpers kept
in a folder's entry file make.

Usage: check_layers.py SOURCE_ROOT [--objects DIR]; exit status 1 with one
line per fault."""
import os
import re
import subprocess
import sys

# Lowest first. profile/ (the model) sits below sources/: the folded, perf
# script, py-spy and other stack readers build profiles, so the model comes
# before them, not after the stream as DESIGN.md first drew it.
STAGES = [
    "util",
    "profile",
    "sources/stat",
    "sources/perfdata",
    "sources",
    "resolve",
    "stream",
    "python",
    "analysis",
    "load",
    "render",
    "cli",
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def stage_of(path):
    """The stage of a file (relative to libperfan/, or 'cli/...'), from
    the folder it is in."""
    folder = os.path.dirname(path)
    best = None
    for s in STAGES:
        if folder == s or folder.startswith(s + "/"):
            if best is None or len(s) > len(best):
                best = s
    return best


def folder_of(path):
    return os.path.dirname(path)


def is_internal(path):
    base = os.path.basename(path)
    return base == "internal.h" or base.endswith("_internal.h")


def node_of(path):
    return os.path.splitext(path)[0]


def sources(root):
    out = []
    for top in ("libperfan", "cli"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    full = os.path.join(d, f)
                    rel = os.path.relpath(full, os.path.join(root, "libperfan"))
                    if top == "cli":
                        rel = os.path.relpath(full, root)
                    out.append((full, rel))
    return sorted(out, key=lambda x: x[1])


def resolve_include(rel, inc, known):
    """The file an include names, relative to libperfan/ (or cli/...)."""
    if rel.startswith("cli/"):
        cand = os.path.normpath(os.path.join("cli", inc))
        if cand in known:
            return cand
    if inc in known:
        return inc
    cand = os.path.normpath(os.path.join(folder_of(rel), inc))
    if cand in known:
        return cand
    return None  # generated (config.h, render/fgjs.h) or public


def find_cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def symbol_edges(objdir, root):
    """file -> files whose functions it calls, from nm on the objects of
    the sources that exist (a build directory keeps stale ones)."""
    defs, uses = {}, {}
    for d, _, files in os.walk(objdir):
        for f in files:
            if not f.endswith(".c.o"):
                continue
            full = os.path.join(d, f)
            rel = os.path.relpath(full, objdir)
            m = re.search(r"libperfan/(.*)\.c\.o$", full)
            if not m:
                continue
            node = m.group(1)
            if not os.path.exists(os.path.join(root, "libperfan",
                                               node + ".c")):
                continue
            out = subprocess.run(["nm", full], capture_output=True,
                                 text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    uses.setdefault(node, set()).add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBRVW":
                    defs.setdefault(parts[2], node)
            del rel
    edges = {}
    for node, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != node:
                edges.setdefault(node, set()).add(d)
    return edges


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    objdir = None
    if len(argv) >= 4 and argv[2] == "--objects":
        objdir = argv[3]
    files = sources(root)
    known = {rel for _, rel in files}
    faults = []
    edges = {}
    for full, rel in files:
        text = open(full, encoding="utf-8", errors="replace").read()
        src_stage = stage_of(rel)
        if src_stage is None:
            faults.append(f"{rel}: in no stage of {STAGES}")
            continue
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            target = resolve_include(rel, inc, known)
            if target is None:
                continue
            if src_stage == "cli" and not target.startswith("cli/"):
                faults.append(f"{rel}:{line}: cli/ includes the library's "
                              f"private header {inc}")
                continue
            dst_stage = stage_of(target)
            if dst_stage is None:
                continue
            if STAGES.index(dst_stage) > STAGES.index(src_stage):
                faults.append(f"{rel}:{line}: {src_stage}/ includes {inc} "
                              f"of the later stage {dst_stage}/")
            if is_internal(target) and folder_of(target) != folder_of(rel):
                faults.append(f"{rel}:{line}: includes {inc}, the internal "
                              f"header of another folder")
            a, b = node_of(rel), node_of(target)
            if a != b:
                edges.setdefault(a, set()).add(b)
    for comp in find_cycles(edges):
        faults.append("include cycle between files: " + " -> ".join(comp))
    if objdir:
        calls = symbol_edges(objdir, root)
        for a in sorted(calls):
            for b in sorted(calls[a]):
                sa, sb = stage_of(a), stage_of(b)
                if sa and sb and STAGES.index(sb) > STAGES.index(sa):
                    faults.append(f"{a}.c: {sa}/ calls into {b}.c of the "
                                  f"later stage {sb}/")
        for comp in find_cycles(calls):
            faults.append("call cycle between files: " + " <-> ".join(comp))
    for f in faults:
        print(f)
    print(f"check_layers: {len(files)} files, {sum(map(len, edges.values()))} "
          f"includes between files, {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
