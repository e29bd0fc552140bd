#!/usr/bin/env python3
"""py_stacks.py: checks of perfan's Python stacks against the workload of
testdata/py-handler and perf's own output (an independent reading: it parses
folded text and perf script text itself).

  py_stacks.py full   FOLDED             # >= 95 % full Python stacks
  py_stacks.py clean  FOLDED             # no interpreter frame between Python frames
  py_stacks.py shares FOLDED REPORT      # totals within 2 points of perf's report
  py_stacks.py same   FOLDED SCRIPT      # >= 99 % of samples: the same Python stacks

FOLDED is `perfan collapse --samples --python=mixed|python` output; Python
frames are named "qualname (file)". REPORT is `perf report --children
--sort sym` of the injected perf_jit recording; SCRIPT its `perf script`
text (zstd-compressed if it ends in .zst).
"""
import collections
import re
import subprocess
import sys

WORKLOAD = "handler.py"
# caller each workload function must have right above it
PARENT = {
    "main": {"<module>"},
    "handle_request": {"main"},
    "make_items": {"handle_request"},
    "dedup": {"handle_request"},
    "serialize_items": {"handle_request"},
    "build_tree": {"handle_request", "build_tree"},
    "walk": {"handle_request", "walk"},
}
PYFRAME = re.compile(r"^(.*) \((.*)\)$")
GLUE = {"_PyEval_EvalFrameDefault", "_PyEval_Vector", "_PyFunction_Vectorcall",
        "PyObject_Vectorcall", "py_trampoline_evaluator"}


def folded(path):
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if not line:
            continue
        stack, n = line.rsplit(" ", 1)
        yield stack.split(";"), int(n)


def pyframes(frames):
    """[(qualname, file)] of the Python frames, root first."""
    out = []
    for f in frames:
        m = PYFRAME.match(f)
        if m and (m.group(2).endswith(".py") or m.group(2).startswith("<")):
            out.append((m.group(1), m.group(2)))
    return out


def is_workload(fr):
    return fr[1].endswith(WORKLOAD)


def full(path):
    n_work = n_full = 0
    bad = collections.Counter()
    for frames, n in folded(path):
        py = pyframes(frames)
        if not any(is_workload(f) and f[0] in PARENT for f in py):
            continue
        n_work += n
        ok = bool(py) and py[0] == ("<module>", py[0][1]) and is_workload(py[0])
        for i, (q, f) in enumerate(py):
            if is_workload((q, f)) and q in PARENT:
                ok &= i > 0 and py[i - 1][0] in PARENT[q] and is_workload(py[i - 1])
        if ok:
            n_full += n
        else:
            bad[";".join(q for q, _ in py)] += n
    frac = n_full / n_work if n_work else 0
    print(f"full Python stacks: {n_full} of {n_work} samples with workload "
          f"functions ({100 * frac:.1f} %)")
    for s, n in bad.most_common(3):
        print(f"  not full: {n} x {s}")
    return frac >= 0.95 and n_work > 0


def clean(path):
    bad = 0
    for frames, n in folded(path):
        idx = [i for i, f in enumerate(frames) if PYFRAME.match(f)]
        if len(idx) < 2:
            continue
        between = frames[idx[0]:idx[-1] + 1]
        if any(f in GLUE or f.startswith("py::") or ".map" in f for f in between):
            bad += n
            if bad == n:
                print("  interpreter frame between Python frames:", ";".join(between))
    print(f"stacks with an interpreter or trampoline frame between two Python frames: {bad}")
    return bad == 0


def totals(path):
    tot = collections.Counter()
    all_n = 0
    for frames, n in folded(path):
        all_n += n
        for name in {q for q, f in pyframes(frames) if is_workload((q, f))}:
            tot[name] += n
    return {k: 100 * v / all_n for k, v in tot.items()}


def shares(path, report):
    ours = totals(path)
    perf = {}
    for line in open(report, encoding="utf-8", errors="replace"):
        m = re.match(r"\s+([0-9.]+)%\s+[0-9.]+%\s+\[\.\]\s+py::(\S+):(\S+)", line)
        if m and m.group(3).endswith(WORKLOAD):
            perf[m.group(2)] = float(m.group(1))
    ok = bool(perf)
    for name in sorted(perf, key=lambda k: -perf[k]):
        d = ours.get(name, 0) - perf[name]
        flag = "" if abs(d) <= 2 else "  <-- more than 2 points"
        ok &= abs(d) <= 2
        print(f"  {name:20s} perfan {ours.get(name, 0):6.2f} %  perf {perf[name]:6.2f} %  {d:+.2f}{flag}")
    return ok


def script_stacks(path):
    if path.endswith(".zst"):
        text = subprocess.run(["zstd", "-dc", path], check=True,
                              capture_output=True).stdout.decode("utf-8", "replace")
    else:
        text = open(path, encoding="utf-8", errors="replace").read()
    for block in text.split("\n\n"):
        lines = [l for l in block.split("\n") if l.strip()]
        if not lines:
            continue
        py = []
        for l in lines[1:]:
            m = re.search(r"\spy::([^:\s]+):(\S+?)(\+0x[0-9a-f]+)? \(", l)
            if m:
                py.append((m.group(1), m.group(2)))
        yield tuple(reversed(py))


def same(path, script):
    ours = collections.Counter()
    for frames, n in folded(path):
        ours[tuple(pyframes(frames))] += n
    theirs = collections.Counter(script_stacks(script))
    common = sum(min(ours[k], theirs[k]) for k in theirs)
    total = sum(theirs.values())
    frac = common / total if total else 0
    print(f"the same Python stack as perf after inject: {common} of {total} samples ({100 * frac:.2f} %)")
    for k, n in (theirs - ours).most_common(3):
        print(f"  perf has {n} more x {';'.join(q for q, _ in k)}")
    return frac >= 0.99


if __name__ == "__main__":
    cmd = sys.argv[1]
    ok = {"full": lambda: full(sys.argv[2]), "clean": lambda: clean(sys.argv[2]),
          "shares": lambda: shares(sys.argv[2], sys.argv[3]),
          "same": lambda: same(sys.argv[2], sys.argv[3])}[cmd]()
    sys.exit(0 if ok else 1)
