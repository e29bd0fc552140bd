#!/usr/bin/env python3
"""speedscope_check.py: checks of a speedscope file perfan wrote, read here
independently of perfan (json and, for the schema, Debian's jsonschema).

  speedscope_check.py schema SCHEMA FILE...    # valid against speedscope's
                                               # file-format-schema.json
  speedscope_check.py folded FILE FOLDED       # FILE's stacks, each under its
                                               # profile's name, summed, are
                                               # FOLDED's lines (perfan
                                               # collapse --tid)
  speedscope_check.py order FILE SCRIPT [MIN]  # each thread's samples are
                                               # perf script's, in its order:
                                               # as many, and the leaves both
                                               # name agree sample by sample
                                               # (a share MIN of them, default
                                               # 1: perf's symbols may differ
                                               # where testdata has no debug
                                               # information)
  speedscope_check.py sub FILE NATIVE          # the same samples, in the same
                                               # order, as in NATIVE, each
                                               # stack a subsequence of its
                                               # NATIVE one (Python frames
                                               # renamed "qualname (file)")
  speedscope_check.py unit FILE UNIT           # every profile's unit is UNIT

Every command also checks what speedscope's importer needs and the schema
does not say: as many weights as samples, frame indices in shared.frames,
endValue - startValue the sum of the weights, activeProfileIndex a profile
(the heaviest). Exits 1 with a message on the first failure.
"""
import collections
import json
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load(path):
    with open(path, "rb") as f:
        d = json.load(f)
    frames = d["shared"]["frames"]
    best = None
    for i, p in enumerate(d["profiles"]):
        if p["type"] != "sampled":
            fail(f"{path}: profile {i} is {p['type']}")
        if len(p["samples"]) != len(p["weights"]):
            fail(f"{path}: profile {i}: {len(p['samples'])} samples, "
                 f"{len(p['weights'])} weights")
        if p["endValue"] - p["startValue"] != sum(p["weights"]):
            fail(f"{path}: profile {i}: endValue - startValue "
                 f"{p['endValue'] - p['startValue']}, weights "
                 f"{sum(p['weights'])}")
        if any(w <= 0 for w in p["weights"]):
            fail(f"{path}: profile {i}: a weight not above 0")
        for s in p["samples"]:
            if any(not 0 <= k < len(frames) for k in s):
                fail(f"{path}: profile {i}: frame index out of range: {s}")
        if best is None or p["endValue"] > d["profiles"][best]["endValue"]:
            best = i
    if d.get("activeProfileIndex") != best:
        fail(f"{path}: activeProfileIndex {d.get('activeProfileIndex')}, "
             f"the heaviest profile is {best}")
    names = [p["name"] for p in d["profiles"]]
    if len(set(names)) != len(names):
        fail(f"{path}: profiles named alike: {names}")
    return d


def stacks(d, p):
    """Profile P's samples as lists of frame names, root first."""
    fr = d["shared"]["frames"]
    return [[fr[k]["name"] for k in s] for s in p["samples"]]


def cmd_schema(schema_path, files):
    import jsonschema
    with open(schema_path) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    v = cls(schema)
    for path in files:
        load(path)
        with open(path, "rb") as f:
            errs = list(v.iter_errors(json.load(f)))
        if errs:
            fail(f"{path}: {len(errs)} schema errors, first: "
                 f"{errs[0].message} at {list(errs[0].absolute_path)}")
        print(f"ok: {path} is valid ({cls.__name__})")


def cmd_folded(path, folded):
    d = load(path)
    got = collections.Counter()
    for p in d["profiles"]:
        for s, w in zip(stacks(d, p), p["weights"]):
            got[";".join([p["name"]] + s)] += w
    want = collections.Counter()
    for line in open(folded, errors="replace"):
        line = line.rstrip("\n")
        if line:
            stack, _, n = line.rpartition(" ")
            want[stack] += int(n)
    if got != want:
        extra = sorted(set(got) - set(want))[:3]
        miss = sorted(set(want) - set(got))[:3]
        diff = [k for k in want if k in got and got[k] != want[k]][:3]
        fail(f"{path}: stacks differ from {folded}: only here {extra}, "
             f"only there {miss}, weights {[(k, got[k], want[k]) for k in diff]}")
    print(f"ok: {path}: {len(d['profiles'])} profiles, {len(got)} stacks, "
          f"{sum(got.values())} weight: as {folded}")


def script_samples(path):
    """perf script text: per (comm, tid), the list of (time, leaf symbol)
    in the text's order (a sample's first frame that perf did not inline,
    as perfan without --inline; None without one)."""
    text = (subprocess.run(["zstd", "-dc", path], check=True,
                           capture_output=True).stdout.decode(errors="replace")
            if path.endswith(".zst") else open(path, errors="replace").read())
    head = re.compile(r"^(\S.*?)\s+(\d+)(?:/(\d+))?\s+(?:\[\d+\]\s+)?"
                      r"([\d.]+):\s+(?:\d+\s+)?[^\s:]+(?::[^\s:]+)?:")
    frame = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)$")
    out = collections.defaultdict(list)
    cur = None
    for line in text.split("\n"):
        m = head.match(line)
        if m:
            tid = int(m.group(3) or m.group(2))
            cur = [float(m.group(4)), None]
            out[(m.group(1), tid)].append(cur)
            continue
        m = frame.match(line)
        if m and cur is not None and cur[1] is None and \
                m.group(2) != "inlined":
            cur[1] = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1))
    return out


def thread_of(name):
    """(comm, tid) of a profile named comm-PID/TID."""
    m = re.search(r"^(.*)-(\d+|\?)/(\d+)$", name)
    if not m:
        fail(f"profile {name!r} is not comm-PID/TID")
    return m.group(1), int(m.group(3))


def cmd_order(path, script, least="1"):
    d = load(path)
    want = script_samples(script)
    agree = total = 0
    for p in d["profiles"]:
        thread = thread_of(p["name"])
        ours = [s[-1] if s else None for s in stacks(d, p)]
        theirs = want.pop(thread, [])
        if len(ours) != len(theirs):
            fail(f"{path}: {p['name']}: {len(ours)} samples, perf script "
                 f"has {len(theirs)}")
        times = [t for t, _ in theirs]
        if times != sorted(times):
            fail(f"{script}: thread {thread} is not in time order")
        # leaves both sides name (perf has [unknown] where perfan names
        # the module)
        for a, (_, b) in zip(ours, theirs):
            if b is None or b == "[unknown]" or (a or "").startswith("["):
                continue
            total += 1
            agree += a == b
    if want:
        fail(f"{path}: no profile for {sorted(want)[:3]} of {script}")
    if not total or agree < float(least) * total:
        fail(f"{path}: {agree} of {total} named leaves are perf script's, "
             f"sample by sample")
    print(f"ok: {path}: {agree} of the {total} named leaves are perf "
          f"script's, sample by sample, in each thread's order")


def py_rename(name):
    m = re.match(r"^py::([^:]*):(.*)$", name)
    return f"{m.group(1)} ({m.group(2)})" if m else name


def is_subsequence(short, long):
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def cmd_sub(path, native):
    d, n = load(path), load(native)
    mine = {p["name"]: p for p in d["profiles"]}
    theirs = {p["name"]: p for p in n["profiles"]}
    if set(mine) != set(theirs):
        fail(f"{path}: profiles {sorted(mine)}, {native} has {sorted(theirs)}")
    count = differ = 0
    for name, p in mine.items():
        q = theirs[name]
        if p["weights"] != q["weights"]:
            fail(f"{path}: {name}: weights differ from {native}'s")
        for a, b in zip(stacks(d, p), stacks(n, q)):
            b = [py_rename(x) for x in b]
            if not is_subsequence(a, b):
                fail(f"{path}: {name}: sample {count}: {a} is not part of "
                     f"{b}")
            count += 1
            differ += a != b
    if not differ:
        fail(f"{path}: no sample differs from {native}'s: not a view")
    print(f"ok: {path}: {count} samples in {native}'s order, {differ} in "
          f"the view")


def cmd_unit(path, unit):
    d = load(path)
    units = {p["unit"] for p in d["profiles"]}
    if units != {unit}:
        fail(f"{path}: units {sorted(units)}, not {unit}")
    print(f"ok: {path}: unit {unit}")


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "schema":
        cmd_schema(args[0], args[1:])
    elif cmd == "order" and len(args) in (2, 3):
        cmd_order(*args)
    elif cmd in ("folded", "sub", "unit") and len(args) == 2:
        {"folded": cmd_folded, "sub": cmd_sub,
         "unit": cmd_unit}[cmd](*args)
    else:
        fail(__doc__)


if __name__ == "__main__":
    main(sys.argv)
