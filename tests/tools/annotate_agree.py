#!/usr/bin/env python3
"""tests/tools/annotate_agree.py: compare `perfan annotate --json` with perf
annotate --stdio output of the same functions.

usage: annotate_agree.py PERFAN.json SYMBOL PERF-ASM.txt [PERF-LINES.txt]

PERF-ASM.txt is `perf annotate --stdio --no-source -s SYMBOL` (local period);
PERF-LINES.txt is the same with -l, whose "Sorted summary" gives per-line
percentages. Checks, for SYMBOL:
  - the function's sample count equals perf's "(N samples" header;
  - every instruction's local percent is within TOL (0.5) points of perf's,
    matched by address (the text differs: capstone and objdump spell
    AT&T differently), and perfan has every address perf lists;
  - each source line's period is the sum of its instructions' periods,
    and its samples the sum of theirs;
  - each line in perf's sorted summary is within TOL points of perfan's.
Prints one line per failed check and exits 1 if any failed."""
import json
import re
import sys

TOL = float(__import__("os").environ.get("TOL", "0.5"))


def perf_asm(path):
    samples, rows = None, {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.search(r"\((\d+) samples, percent: local period\)", line)
        if m:
            samples = int(m.group(1))
        m = re.match(r"^\s+([0-9.]+) :\s+([0-9a-f]+):", line)
        if m:
            rows[int(m.group(2), 16)] = float(m.group(1))
    return samples, rows


def perf_lines(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^\s+([0-9.]+) (\S+):(\d+)\s*$", line)
        if m:
            out[(m.group(2), int(m.group(3)))] = float(m.group(1))
    return out


def main():
    doc = json.load(open(sys.argv[1]))
    sym, asm = sys.argv[2], sys.argv[3]
    fails = []
    funcs = [f for f in doc["functions"] if f["name"] == sym]
    if len(funcs) != 1:
        print(f"FAIL: {sym}: {len(funcs)} functions of that name in perfan's output")
        return 1
    f = funcs[0]
    samples, rows = perf_asm(asm)
    if samples is None or not rows:
        print(f"FAIL: {asm}: no perf annotate header or rows")
        return 1
    if f["samples"] != samples:
        fails.append(f"{sym}: {f['samples']} samples, perf {samples}")
    ours = {i["addr"]: i for i in f["instructions"]}
    for addr, pct in sorted(rows.items()):
        i = ours.get(addr)
        if i is None:
            fails.append(f"{sym}: no instruction at {addr:x} (perf has one)")
        elif abs(i["local_percent"] - pct) > TOL:
            fails.append(f"{sym} {addr:x}: {i['local_percent']:.2f}%, perf {pct:.2f}%")
    for k, ln in enumerate(f["lines"]):
        ins = [i for i in f["instructions"] if i["line"] == k]
        if sum(i["period"] for i in ins) != ln["period"] or \
                sum(i["samples"] for i in ins) != ln["samples"]:
            fails.append(f"{sym} {ln['file']}:{ln['line']}: not the sum of its instructions")
    if len(sys.argv) > 4:
        want = perf_lines(sys.argv[4])
        if not want:
            fails.append(f"{sys.argv[4]}: no sorted summary")
        byname = {}
        for ln in f["lines"]:
            key = (ln["file"].rsplit("/", 1)[-1], ln["line"])
            byname[key] = byname.get(key, 0) + ln["local_percent"]
        for (file, line), pct in want.items():
            got = byname.get((file.rsplit("/", 1)[-1], line))
            if got is None:
                fails.append(f"{sym} {file}:{line}: no such line (perf {pct:.2f}%)")
            elif abs(got - pct) > TOL:
                fails.append(f"{sym} {file}:{line}: {got:.2f}%, perf {pct:.2f}%")
    for m in fails:
        print("FAIL: " + m)
    print(f"{sym}: {len(rows)} instructions and {len(f['lines'])} lines compared, "
          f"{len(fails)} differences")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
