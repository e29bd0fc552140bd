#!/usr/bin/env bash
# diff.sh: perfan diff on real recordings of a program with a planted fix
# (testdata/diff: 5 runs before, 5 after, 5 more of the unchanged program):
# the fixed functions lead the shrinking side and are significant, the
# Amdahl line is within 20 % of the speed-up timed on the programs, and an
# unchanged program shows no significant change; one run says the test
# cannot be made; --folded --absolute equals difffolded.pl on the peer
# pairs; --folded normalises exactly; --svg draws; errors and usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

d=testdata/diff
opts=(--symfs "$d" --kallsyms testdata/kallsyms)
runs() { for i in 1 2 3 4 5; do printf -- '%s %s ' "$1" "$d/$2-$i.data"; done; }

# 1. the planted fix, 5 runs a side
# shellcheck disable=SC2046
"$PERFAN_BIN" diff --json "${opts[@]}" $(runs -b before) $(runs -a after) \
	>"$tmp/fix.json"
# shellcheck disable=SC2046
"$PERFAN_BIN" diff "${opts[@]}" $(runs -b before) $(runs -a after) \
	>"$tmp/fix.txt"
python3 - "$tmp/fix.json" "$tmp/fix.txt" "$d/timing.txt" <<'EOF'
import json, re, sys
j = json.load(open(sys.argv[1]))
txt = open(sys.argv[2]).read()
assert j["tested"], "5 runs a side must be tested"
rows = j["rows"]
shrank = [r for r in rows if r["self_change"] < 0 and r["significant"]]
top = [r["function"] for r in shrank[:2]]
assert set(top) == {"dedup_quadratic", "serialize_item"}, top
assert rows[0]["function"] == "dedup_quadratic" and rows[0]["vanished"], rows[0]
new = {r["function"] for r in rows if r["new"] and r["significant"]}
assert {"dedup_hashset", "serialize_cached"} <= new, new
# the text: Shrank first, these two at its top
sec = [l for l in txt.split("Shrank:\n", 1)[1].split("\n")
       if not l.lstrip().startswith("runs (total):")]
runs = [l for l in txt.split("\n") if l.lstrip().startswith("runs (total):")]
assert runs and all(l.count("%") == 10 and " | " in l for l in runs), runs[:2]
assert sec[0].endswith("dedup_quadratic") and sec[1].endswith("serialize_item"), sec[:2]
assert "Grew:" in txt
# Amdahl within 20 % of the timed speed-up
timing = open(sys.argv[3]).read()
timed = float(re.search(r"speed-up \(median before / median after\) ([0-9.]+)", timing).group(1))
est = j["amdahl"]["speedup_top"]
m = re.search(r"make it ([0-9.]+)x faster", txt)
assert m and abs(float(m.group(1)) - est) < 0.01, m
assert abs(est - timed) <= 0.2 * timed, (est, timed)
print(f"ok: planted fix: {top} lead Shrank; Amdahl {est:.2f}x vs timed {timed:.2f}x")
EOF

# 2. the unchanged program against itself, 5 runs a side
# shellcheck disable=SC2046
"$PERFAN_BIN" diff --json "${opts[@]}" $(runs -b before) $(runs -a again) \
	>"$tmp/same.json"
# shellcheck disable=SC2046
"$PERFAN_BIN" diff "${opts[@]}" $(runs -b before) $(runs -a again) \
	>"$tmp/same.txt"
python3 - "$tmp/same.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
sig = [r["function"] for r in j["rows"] if r["significant"]]
assert j["tested"] and not sig, sig
assert j["noise_floor"] and j["noise_floor"] > 0
print(f"ok: unchanged program: no significant change of {len(j['rows'])} functions, noise floor {100*j['noise_floor']:.2f} points")
EOF
grep -q "no significant change" "$tmp/same.txt" || fail "unchanged: no 'no significant change' line"
grep -q "hidden (--all shows them)" "$tmp/same.txt" || fail "unchanged: the hidden count is not said"

# 3. one run a side: no test, said so; the comma form is the same
"$PERFAN_BIN" diff "${opts[@]}" "$d/before-1.data" "$d/after-1.data" >"$tmp/one.txt"
grep -q "cannot be judged" "$tmp/one.txt" || fail "one run: no word on significance"
"$PERFAN_BIN" diff "${opts[@]}" -b "$d/before-1.data" --after "$d/after-1.data" >"$tmp/one2.txt"
cmp -s "$tmp/one.txt" "$tmp/one2.txt" || fail "-b/--after differs from BEFORE AFTER"
# shellcheck disable=SC2046
"$PERFAN_BIN" diff "${opts[@]}" -b "$d/before-1.data,$d/before-2.data" \
	-a "$d/after-1.data" -a "$d/after-2.data" >"$tmp/comma.txt"
grep -q "2 runs before, 2 after" "$tmp/comma.txt" || fail "comma-separated runs"
# the README's form: each option takes the files after it, as braces give
"$PERFAN_BIN" diff "${opts[@]}" -b "$d"/before-{1..5}.data -a "$d"/after-{1..5}.data \
	>"$tmp/braces.txt"
cmp -s "$tmp/fix.txt" "$tmp/braces.txt" || fail "-b before-{1..5}.data -a after-{1..5}.data differs from repeated -b/-a"
echo "ok: one run, -b/-a, comma lists and -b FILE... -a FILE..."

# 4. difffolded.pl's output, byte for byte, on the peer pairs
peer=${PERFAN_PEERDATA:-../shared/peer-data}/diff-folded
if [ -d "$peer" ]; then
	n=0
	for exp in "$peer"/*.expected.txt; do
		name=${exp%.expected.txt}
		"$PERFAN_BIN" diff --folded --absolute "$name.before.folded" \
			"$name.after.folded" >"$tmp/out.txt"
		cmp "$tmp/out.txt" "$exp" || fail "--folded --absolute differs from $exp"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ] || fail "only $n peer pairs"
	echo "ok: --folded --absolute equals difffolded.pl on $n peer pairs"
	# normalised: BEFORE scaled to AFTER's total, exactly, never truncated
	"$PERFAN_BIN" diff --folded "$peer/java-vertx.before.folded" \
		"$peer/java-vertx.after.folded" >"$tmp/norm.txt"
	python3 - "$tmp/norm.txt" "$peer/java-vertx.after.folded" <<'EOF'
import sys
rows = [l.rsplit(" ", 2) for l in open(sys.argv[1]).read().splitlines()]
after = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[2]) if l.strip())
sb = sum(float(r[1]) for r in rows)
sa = sum(int(r[2]) for r in rows)
assert sa == after and abs(sb - after) < 1e-3 * len(rows), (sb, sa, after)
print(f"ok: --folded: BEFORE scaled to AFTER's total {after}: sums to {sb:.4f}")
EOF
else
	echo "SKIP: ../shared is absent: difffolded.pl comparisons not run"
fi

# 5. --svg: a differential flame graph of the fix
# shellcheck disable=SC2046
"$PERFAN_BIN" diff --svg "${opts[@]}" $(runs -b before) $(runs -a after) -o "$tmp/d.svg"
python3 - "$tmp/d.svg" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
frames = root.find(f".//{ns}g[@id='frames']")
names = {g.find(f"{ns}title").text: g for g in frames.findall(f"{ns}g")}
def fill(n):
    f = names[n].find(f"{ns}rect").get("fill")
    return int(f[1:3], 16), int(f[3:5], 16), int(f[5:7], 16)
r, g, b = fill("serialize_cached")
assert r > b, ("new function not red", r, g, b)
r, g, b = fill("serialize_item")
assert b > r, ("shrunk function not blue", r, g, b)
# what vanished stays in the graph, in BEFORE's shape
v = names["dedup_quadratic"]
assert "vanished" in (v.get("class") or ""), v.attrib
assert v.get("data-w") == "0" and int(v.get("data-bw")) > 0, v.attrib
# both sides' union first, the after and the before shape a click away
assert [root.find(f".//{ns}text[@id='view-{x}']") is not None for x in "uab"] == [True] * 3
allbw = int(frames.find(f"{ns}g[@data-d='0']").get("data-bw"))
# as wide as before (in billionths of each side's total, each part rounded)
assert int(v.get("data-uw")) >= int(v.get("data-bw")) * 10**9 // allbw - 100, (v.attrib, allbw)
# one tree: builds named apart share their stacks (no process roots)
roots = [g for g in frames.findall(f"{ns}g") if g.get("data-d") == "1"]
assert len(roots) <= 2, [g.find(f"{ns}title").text for g in roots]
print("ok: --svg: grown frames red, shrunk blue, the vanished one drawn in BEFORE's shape")
EOF

# 6. usage and errors
for bad in "" "$d/before-1.data" "--sort x $d/before-1.data $d/after-1.data" \
	"--json --folded $d/before-1.data $d/after-1.data" \
	"--alpha 2 $d/before-1.data $d/after-1.data" \
	"-b $d/before-1.data $d/after-1.data" "-b -a $d/after-1.data" \
	"$d/before-1.data -b $d/before-2.data -a $d/after-1.data" \
	"--min-share 0 $d/before-1.data $d/after-1.data"; do
	rc=0
	# shellcheck disable=SC2086
	"$PERFAN_BIN" diff $bad >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "perfan diff $bad: exit $rc, not 2"
	grep -q "usage: perfan diff" "$tmp/err" || fail "perfan diff $bad: no usage"
done
rc=0
"$PERFAN_BIN" diff "$tmp/none.data" "$d/after-1.data" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "none.data" "$tmp/err" || fail "a missing file: exit $rc, $(cat "$tmp/err")"
echo "ok: usage errors exit 2, a missing file exits 1 naming it"
