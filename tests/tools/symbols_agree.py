#!/usr/bin/env python3
"""symbols_agree.py [--show N] [--max PCT] [--only DSOS] PERF_REPORT PERFAN_JSON

The share of the weight that perfan gives to another (dso, symbol) than
perf does, on one recording.

PERF_REPORT is `perf report --stdio --no-children -g none --sort dso,sym`
(plain, or with `-F period,dso,sym -t '|'`); PERFAN_JSON is
`perfan report --json --no-children --sort dso,sym` of the same file, first
event. An address perf leaves unresolved ("[.] 0x...") and a frame perfan
names after its module ("[libfoo.so]") are the same key: "unresolved in
that dso". perf's "[JIT] tid PID" is perfan's "perf-PID.map" (perfan names
the map it reads). The figure is half the L1 distance between the two weightings,
over perf's total: 0 when every sample lands on the same row, 100 % when
none does. Prints it, the largest differences, and exits 1 above --max.
With --only (comma-separated dso names), only the rows of those dsos are
compared (their weight is still taken over the whole total), and every
(dso, symbol) perf gives them is listed with both weights.
"""
import argparse
import collections
import json
import re
import sys

UNRESOLVED = "<unresolved>"


def perf_rows(path):
    """(dso, sym) -> weight from perf report text; percentages when the
    report has no period column (then scaled by the event count)."""
    rows = collections.Counter()
    total = None
    plain = re.compile(r"^\s*([\d.]+)%\s+(.*?)\s+\[(.)\] (.*?)\s*$")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^# Event count \(approx\.\): (\d+)", line)
            if m:
                if total is not None:
                    break  # only the first event
                total = int(m.group(1))
                continue
            if line.startswith("#") or not line.strip():
                continue
            if "|" in line:
                period, dso, sym = (x.strip() for x in line.split("|", 2))
                w = int(period)
            else:
                m = plain.match(line)
                if not m:
                    continue
                w = float(m.group(1)) * (total or 100) / 100
                dso, sym = m.group(2), "[%s] %s" % (m.group(3), m.group(4))
            m = re.fullmatch(r"\[JIT\] tid (\d+)", dso)
            if m:
                dso = "perf-%s.map" % m.group(1)
            kind, _, name = sym.partition(" ")
            if re.fullmatch(r"0x[0-9a-f]+", name):
                name = UNRESOLVED
            rows[(dso, name)] += w
    return rows


def perfan_rows(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = collections.Counter()
    for r in doc["columns"][0]["rows"]:
        name = r["sym"]
        if r.get("kind") == "unknown" or name == "[%s]" % r["dso"]:
            name = UNRESOLVED
        rows[(r["dso"], name)] += r["self"]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", type=int, default=15)
    ap.add_argument("--max", type=float, default=0.5)
    ap.add_argument("--only", help="compare only these dsos (a,b,...)")
    ap.add_argument("perf")
    ap.add_argument("perfan")
    a = ap.parse_args()
    p, q = perf_rows(a.perf), perfan_rows(a.perfan)
    tp, tq = sum(p.values()), sum(q.values())
    if not tp:
        sys.exit("%s: no rows" % a.perf)
    keys = set(p) | set(q)
    if a.only:
        only = set(a.only.split(","))
        keys = {k for k in keys if k[0] in only}
        for k in sorted(keys, key=lambda k: (k[0], -p.get(k, 0), k[1])):
            print("  %-22s %-28s perf %12d  perfan %12d" %
                  (k[0], k[1], p.get(k, 0), q.get(k, 0)))
        if not any(p.get(k) for k in keys):
            sys.exit("%s: perf gives these dsos no weight" % a.perf)
    diff = {k: q.get(k, 0) - p.get(k, 0) for k in keys}
    off = sum(abs(d) for d in diff.values()) / 2 / tp * 100
    print("perf total %d, perfan total %d (%+.3f %%)" %
          (tp, tq, (tq - tp) / tp * 100))
    unres_p = sum(w for k, w in p.items() if k[1] == UNRESOLVED) / tp * 100
    unres_q = sum(w for k, w in q.items() if k[1] == UNRESOLVED) / tq * 100
    print("unresolved: perf %.2f %%, perfan %.2f %%" % (unres_p, unres_q))
    if a.show:
        print("largest differences (perfan - perf, % of perf's total):")
        for k in sorted(keys, key=lambda k: (-abs(diff[k]), k))[:a.show]:
            if not diff[k]:
                break
            print("  %+7.3f %%  %s  %s" % (diff[k] / tp * 100, k[0], k[1]))
    print("weight on another (dso, sym) than perf: %.3f %% (target <= %g %%)"
          % (off, a.max))
    sys.exit(0 if off <= a.max else 1)


if __name__ == "__main__":
    main()
