#!/usr/bin/env bash
# diff_slow.sh: perfan diff on the slow Python handler and its fix
# (testdata/slow-service, 3 runs each, Python view): the handler's own
# functions are significant shrinks (summarize_slow, policy_label) and a
# significant new one (summarize_fast); at most 3 of the top 20 rows are
# changes that an independent oracle (perf script's text) calls not real;
# the Amdahl estimate is within 25 % of the whole's measured change, in ms
# per run and as a speed-up; the shell's glob form reads the same runs as commas do; the
# unchanged program against itself (fast-1..3 against fast-4..6) shows no
# significant row; --shares flags the share that grew only because the
# rest shrank.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

d=testdata/slow-service
O=(--symfs "$d" --perf-map-dir "$d" --kallsyms testdata/kallsyms
	--buildid-dir "$tmp/no-cache" --python python)

# 1. the glob form, as a shell gives it, and the comma form
"$PERFAN_BIN" diff "${O[@]}" --json -b "$d"/slow-*.data -a "$d"/fast-[123].data \
	>"$tmp/glob.json"
"$PERFAN_BIN" diff "${O[@]}" --json -b "$d/slow-1.data,$d/slow-2.data,$d/slow-3.data" \
	-a "$d/fast-1.data,$d/fast-2.data,$d/fast-3.data" >"$tmp/comma.json"
cmp -s "$tmp/glob.json" "$tmp/comma.json" || fail "the glob form differs from the comma form"
"$PERFAN_BIN" diff "${O[@]}" -b "$d"/slow-*.data -a "$d"/fast-[123].data >"$tmp/fix.txt"
grep -q "3 runs before, 3 after" "$tmp/fix.txt" || fail "glob: not 3 runs a side"
echo "ok: -b $d/slow-*.data -a $d/fast-[123].data reads 3 runs a side, as commas do"

# 2. the oracle of what is real, independent of perfan: (a) perf script's
# own text of slow-1 and fast-1: each function's samples (counted once per
# sample it is on; Python frames py::NAME:FILE are the view's "NAME (FILE)",
# [unknown] frames of a library "[library]", GCC's .isra.N suffixes
# dropped): a change is real when these move the same way by more than
# twice their Poisson noise, 2 sqrt(a + b); (b) the program's structure, for
# the callers perf's unwinding leaves out of its text (it stops below
# json's C encoder and the handler's callers): the functions of
# slow_service.py but make_events run the handler, which got faster, so
# they shrink (summarize_fast grows: it is the new handler), and json's
# functions (not its import) run per event in the slow handler and once a
# request in the fast one, so they shrink. Anything else is not real.
zstd -dcq "$d/script-slow-1.txt.zst" >"$tmp/slow-1.txt"
zstd -dcq "$d/script-fast-1.txt.zst" >"$tmp/fast-1.txt"
python3 - "$tmp/glob.json" "$tmp/fix.txt" "$tmp/slow-1.txt" "$tmp/fast-1.txt" <<'PY'
import json, math, os, re, sys
j = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()

def norm(name):
    return re.sub(r"\.(isra|constprop|part|cold)\.[0-9]+", "", name)

def oracle(path):
    count, seen = {}, set()
    for line in open(path):
        if not line.strip():
            for n in seen:
                count[n] = count.get(n, 0) + 1
            seen = set()
            continue
        if not line.startswith("\t"):
            continue
        m = re.match(r"\s*[0-9a-f]+ (.*) \((.*)\)$", line)
        if not m:
            continue
        sym, dso = m.groups()
        if sym.startswith("[unknown]"):
            name = "[%s]" % os.path.basename(dso)
        else:
            sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
            py = re.match(r"py::(.*?):(.*)$", sym)
            name = "%s (%s)" % py.groups() if py else sym
        seen.add(norm(name))
    for n in seen:
        count[n] = count.get(n, 0) + 1
    return count

slow, fast = oracle(sys.argv[3]), oracle(sys.argv[4])

def real(r):
    change = r["total_change"] if r["total_significant"] else r["self_change"]
    name = norm(r["function"])
    a, b = slow.get(name, 0), fast.get(name, 0)
    if (b - a) * change > 0 and abs(b - a) > 2 * math.sqrt(a + b):
        return True
    m = re.match(r"(.*) \((.*)\)$", name)
    if not m:
        return False
    func, path = m.groups()
    if path.endswith("/slow_service.py") and func != "make_events":
        return change > 0 if func == "summarize_fast" else change < 0
    return "/json/" in path and func != "<module>" and change < 0

rows = j["rows"]
def find(prefix):
    m = [r for r in rows if r["function"].startswith(prefix)]
    assert len(m) == 1, (prefix, [r["function"] for r in m])
    return m[0]
assert j["tested"]
s, p, f = find("summarize_slow ("), find("policy_label ("), find("summarize_fast (")
assert s["significant"] and s["self_significant"] and s["self_change"] < -0.5, s
assert p["significant"] and p["total_change"] < -0.1 and p["vanished"], p
assert f["significant"] and f["new"] and f["self_change"] > 0.03, f
sig = [r for r in rows if r["significant"]]
top = sig[:20]
unreal = [r["function"] for r in top if not real(r)]
assert len(unreal) <= 3, unreal
# the text shows these rows, in this order
shown = [l.split("  ")[-1] for l in txt.split("\n")
         if re.match(r"\s+[0-9.]+%", l)]
assert shown == [r["function"] for r in sig], (shown[:5], len(sig))
print(f"ok: {len(sig)} significant rows of {len(rows)} ({j['tested_functions']} tested); "
      f"summarize_slow self {100*s['self_change']:+.1f}, policy_label total "
      f"{100*p['total_change']:+.1f}, summarize_fast new {100*f['self_change']:+.1f} points; "
      f"not real by the oracle: {len(unreal)} of the top {len(top)} {unreal}")
# Amdahl: significant rows only, in ms per run, within 25 % of the whole,
# as a change and as a speed-up; the changes it sums add up to it
a = j["amdahl"]
assert a["unit"] == "ms", a
est, whole = a["estimate_change"], a["whole_change"]
assert whole < 0 and abs(est - whole) <= 0.25 * abs(whole), (est, whole)
sw, st = a["speedup_whole"], a["speedup_top"]
assert abs(st - sw) <= 0.25 * sw, (st, sw)
counted = [r for r in rows if r["amdahl"]]
assert all(r["significant"] for r in counted), [r["function"] for r in counted]
assert abs(sum(r["after_amdahl"] - r["before_amdahl"] for r in counted) - est) < 0.5
names = set(a["top"])
assert names <= {r["function"] for r in counted}, names
assert any(n.startswith("summarize_slow (") for n in names), names
m = re.search(r"sum to ([-+0-9.]+) ms per run and make it ([0-9.]+)x faster; "
              r"the whole changed ([-+0-9.]+) ms per run", txt)
assert m, txt[-600:]
assert abs(float(m.group(1)) - est) < 0.1 and abs(float(m.group(3)) - whole) < 0.1, m.groups()
print(f"ok: Amdahl: significant changes {est:+.1f} ms per run, the whole "
      f"{whole:+.1f} ms ({100*est/whole:.0f} %); speed-up {a['speedup_top']:.2f}x "
      f"estimated, {a['speedup_whole']:.2f}x measured")
PY

# 3. unchanged against unchanged: the fast handler's runs against more
"$PERFAN_BIN" diff "${O[@]}" --json -b "$d"/fast-[123].data -a "$d"/fast-[456].data \
	>"$tmp/same.json"
python3 - "$tmp/same.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
sig = [r["function"] for r in j["rows"] if r["significant"]]
assert j["tested"] and j["tested_functions"] > 10 and not sig, sig
print(f"ok: fast-1..3 against fast-4..6: no significant row of "
      f"{j['tested_functions']} tested")
PY

# 4. --shares: the input generator's share grew from 3 % to 45 % because
# the rest shrank; its time per run did not change
python3 - "$tmp/glob.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
m = [r for r in j["rows"] if r["function"].startswith("make_events (")][0]
assert m["tested"] and m["total_change"] > 0.3 and not m["significant"], m
PY
"$PERFAN_BIN" diff "${O[@]}" --json --shares -b "$d"/slow-*.data -a "$d"/fast-[123].data \
	>"$tmp/shares.json"
python3 - "$tmp/shares.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
m = [r for r in j["rows"] if r["function"].startswith("make_events (")][0]
assert m["significant"] and m["total_change"] > 0.3, m
print("ok: make_events' share grew but not its time: significant with --shares only")
PY

# 5. one run a side: no test, the sampling noise of each change instead
"$PERFAN_BIN" diff "${O[@]}" "$d/slow-1.data" "$d/fast-1.data" >"$tmp/one.txt"
grep -q "cannot be judged" "$tmp/one.txt" || fail "one run: no word on significance"
grep -Eq '^ +80\.[0-9]+% +0\.00% +-80\.[0-9]+ +vanished .* \+- +[0-9.]+  summarize_slow \(' \
	"$tmp/one.txt" || fail "one run: summarize_slow without its noise interval"
echo "ok: one run a side: cannot be judged, noise intervals shown"
