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

With --allow FILE, the faults FILE lists (one a line, as this script
prints them; '#' comments) are known and pass, and an entry that no longer
matches a fault fails, so that the list can only shrink: it is the road to
no fault at all, and an empty list is the goal.

--self-test copies libperfan/ and cli/ of SOURCE_ROOT to a temporary
folder, makes one include go upward (a util/ file includes a render/
header), one include cycle (two util/ files include each other) and one
include of another folder's internal header, and fails unless each is
reported; and checks that a cycle of calls is found.

Usage: check_layers.py SOURCE_ROOT [--objects DIR] [--allow FILE]
       check_layers.py SOURCE_ROOT --self-test
Exit status 1 with one line per fault."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Lowest first. profile/ (the model) sits below sources/: the folded, perf
# script, py-spy and other stack readers build profiles, so the model comes
# before them, not after the stream as DESIGN.md first drew it.
STAGES = [
    "util",
    "profile",
    "trace",
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


def check(root, objdir=None):
    """The faults of the tree at ROOT, and a summary line."""
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
    summary = (f"check_layers: {len(files)} files, "
               f"{sum(map(len, edges.values()))} includes between files, "
               f"{len(faults)} faults")
    return faults, summary


def fault_key(fault):
    """A fault without its line number, so that an allow-list entry
    survives edits above the include."""
    return re.sub(r"^([^:\s]+):\d+:", r"\1:", fault)


def read_allow(path):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(fault_key(line))
    return out


def self_test(root):
    """Mutate a copy of ROOT and require each mutation to be reported."""
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for top in ("libperfan", "cli"):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        before, _ = check(tmp)
        lib = os.path.join(tmp, "libperfan")
        render_h = sorted(f for f in os.listdir(os.path.join(lib, "render"))
                          if f.endswith(".h") and not is_internal(f))[0]
        util_c = sorted(f for f in os.listdir(os.path.join(lib, "util"))
                        if f.endswith(".c"))
        a, b = util_c[0], util_c[1]
        internal = sorted(
            os.path.relpath(os.path.join(d, f), lib)
            for d, _, fs in os.walk(lib) for f in fs
            if is_internal(f) and not d.endswith("/util"))[0]

        def add(rel, inc):
            with open(os.path.join(lib, rel), "a", encoding="utf-8") as f:
                f.write(f'\n#include "{inc}"\n')

        add("util/" + a, "render/" + render_h)
        add("util/" + a, "util/" + os.path.splitext(b)[0] + ".h")
        add("util/" + b, "util/" + os.path.splitext(a)[0] + ".h")
        add("util/" + b, internal)
        after, _ = check(tmp)
        new = [f for f in after if f not in before]
        want = [
            (f"util/{a}: util/ includes render/{render_h} of the later "
             f"stage render/", lambda f: f.startswith(f"util/{a}:") and
             f"includes render/{render_h} of the later stage" in f),
            (f"an include cycle through util/{node_of(a)} and "
             f"util/{node_of(b)}",
             lambda f: f.startswith("include cycle") and
             f"util/{node_of(a)}" in f and f"util/{node_of(b)}" in f),
            (f"util/{b} includes {internal}",
             lambda f: f.startswith(f"util/{b}:") and
             f"includes {internal}, the internal header" in f),
        ]
        for what, match in want:
            if not any(match(f) for f in new):
                print(f"self-test: not reported: {what}")
                ok = False
    cycles = find_cycles({"x/a": {"x/b"}, "x/b": {"x/c"}, "x/c": {"x/a"},
                          "x/d": {"x/a"}})
    if cycles != [["x/a", "x/b", "x/c"]]:
        print(f"self-test: a cycle of three calls found as {cycles}")
        ok = False
    print("check_layers self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    root, objdir, allow = args[0], None, None
    i = 1
    while i < len(args):
        if args[i] == "--self-test":
            return self_test(root)
        if args[i] in ("--objects", "--allow") and i + 1 < len(args):
            if args[i] == "--objects":
                objdir = args[i + 1]
            else:
                allow = args[i + 1]
            i += 2
            continue
        print(__doc__, file=sys.stderr)
        return 2
    faults, summary = check(root, objdir)
    bad = faults
    if allow:
        allowed = read_allow(allow)
        bad = [f for f in faults if fault_key(f) not in allowed]
        nallowed = len(faults) - len(bad)
        keys = {fault_key(f) for f in faults}
        for entry in allowed:
            if entry not in keys:
                bad.append(f"{allow}: fixed, remove it from the list: "
                           f"{entry}")
        summary += f", {nallowed} allowed by {allow}"
    for f in bad:
        print(f)
    print(summary)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
