#!/usr/bin/env bash
# scaling.sh: perfan scaling on testdata/slow-service's recordings of the
# course page's handler at 5000, 10000, 20000 and 40000 events, two runs
# each: the slow handler's summarize_slow grows with k in [1.6, 2.1] (a
# scan inside a loop: flagged), the fast handler's summarize_fast with k in
# [0.8, 1.2], make_events about linearly in both; the whole program's time
# per size and its ratio per doubling are printed and agree with the runs'
# totals; folded stacks of the same runs give the same verdict; usage errors
# exit 2 and bad input 1, with clear messages.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

d=testdata/slow-service
# --python python: the view where summarize_slow has its self time, named
# so that the results do not depend on the default view
O=(--symfs "$d" --perf-map-dir "$d" --kallsyms testdata/kallsyms
	--buildid-dir "$tmp/no-cache" --python python)
runs() { for n in 5000 10000 20000 40000; do for r in 1 2; do
	printf '%s:%s ' "$n" "$d/scale-$1-$n-$r.data"; done; done; }

for m in slow fast; do
	# shellcheck disable=SC2046
	"$PERFAN_BIN" scaling "${O[@]}" --json $(runs "$m") >"$tmp/$m.json"
	# shellcheck disable=SC2046
	"$PERFAN_BIN" scaling "${O[@]}" $(runs "$m") >"$tmp/$m.txt"
done

python3 - "$tmp" <<'EOF'
import json, math, re, sys
tmp = sys.argv[1]
def fn(j, prefix):
    rows = [f for f in j["functions"] if f["name"].startswith(prefix)]
    assert len(rows) == 1, (prefix, [f["name"] for f in j["functions"]][:20])
    return rows[0]
def line(txt, prefix):
    ls = [l for l in txt.split("\n") if re.search(r"\s" + re.escape(prefix), l)]
    assert len(ls) == 1, (prefix, ls)
    return ls[0]
want = {"slow": ("summarize_slow (", 1.6, 2.1, True),
        "fast": ("summarize_fast (", 0.8, 1.2, False)}
for m, (name, lo, hi, flagged) in want.items():
    j = json.load(open(f"{tmp}/{m}.json"))
    txt = open(f"{tmp}/{m}.txt").read()
    assert j["unit"] == "ns" and j["event"] == "cpu-clock:u", (j["unit"], j["event"])
    assert j["level"] == 0.95 and len(j["runs"]) == 8
    f = fn(j, name)
    k, (ilo, ihi) = f["exponent"], f["interval"]
    assert lo <= k <= hi, (m, name, k)
    assert ilo < k < ihi and ihi - ilo < 1.5, (m, name, ilo, ihi)
    assert f["fitted"] and f["flagged"] == flagged and f["flagged"] == (k >= 1.5)
    assert f["at_largest"] > 4 * f["at_smallest"], f
    # the same in the text, with the flag
    l = line(txt, name)
    assert l.lstrip().startswith(f"{k:.2f}{'*' if flagged else ' '}"), l
    assert f"[{ilo:6.2f}, {ihi:6.2f}]" in l, l
    # make_events: about linear
    e = fn(j, "make_events (")
    assert 0.8 <= e["exponent"] <= 1.3 and not e["flagged"], e["exponent"]
    # the whole program: time per size, per doubling, from the runs' totals
    sizes = j["whole"]["sizes"]
    assert [s["size"] for s in sizes] == [5000, 10000, 20000, 40000]
    tot = {}
    for r in j["runs"]:
        tot.setdefault(r["size"], []).append(r["total"])
    prev = None
    for s in sizes:
        mean = sum(tot[s["size"]]) / 2
        assert abs(s["mean"] - mean) < 1e-6 * mean and s["runs"] == 2
        if prev is None:
            assert s["per_doubling"] is None
        else:
            assert abs(s["per_doubling"] - mean / prev) < 1e-6, s
        prev = mean
    table = txt.split("The whole program:\n", 1)[1].split("\n")
    assert re.match(r"\s+size\s+runs\s+time.*per doubling\s+k$", table[0]), table[0]
    for s, l in zip(sizes, table[1:5]):
        cols = l.split()
        assert cols[0] == str(s["size"]) and cols[1] == "2", l
        if s["per_doubling"] is not None:
            assert f"{s['per_doubling']:.2f}x" in cols, (l, s)
    wk = j["whole"]["exponent"]
    assert f"exponent k = {wk:.2f}, 95% interval" in txt
    print(f"ok: {m}: {name[:-2]} k = {k:.2f} [{ilo:.2f}, {ihi:.2f}], make_events {e['exponent']:.2f}, "
          f"whole {wk:.2f}, per doubling " +
          " ".join(f"{s['per_doubling']:.2f}" for s in sizes[1:]))
# the slow handler's drifting runs at 40000 (8.1 s and 4.9 s) are said
slow = open(f"{tmp}/slow.txt").read()
assert re.search(r"note: runs of one size differ: at 40000: 1\.6\dx", slow), slow
EOF

# other formats: the same runs as folded stacks (samples) tell the same
fruns=()
for n in 5000 10000 20000 40000; do
	for r in 1 2; do
		"$PERFAN_BIN" collapse "${O[@]}" "$d/scale-slow-$n-$r.data" \
			>"$tmp/slow-$n-$r.folded"
		fruns+=("$n:$tmp/slow-$n-$r.folded")
	done
done
"$PERFAN_BIN" scaling --json "${fruns[@]}" >"$tmp/folded.json"
python3 - "$tmp/folded.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["unit"] == "samples", j["unit"]
f = [f for f in j["functions"] if f["name"].startswith("summarize_slow (")][0]
assert 1.6 <= f["exponent"] <= 2.1 and f["flagged"], f["exponent"]
print(f"ok: folded: summarize_slow k = {f['exponent']:.2f}")
EOF
# --limit, --sort, --min-share, -o
"$PERFAN_BIN" scaling --limit 3 --sort name -o "$tmp/o.txt" "${fruns[@]}"
grep -q '^# [0-9]* more not shown (limit 3)$' "$tmp/o.txt" || fail "--limit"
"$PERFAN_BIN" scaling --json --min-share 0 "${fruns[@]}" >"$tmp/all.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["below_share"] == 0 and len(j["functions"]) > 100, len(j["functions"])' "$tmp/all.json" ||
	fail "--min-share 0"

# usage errors: exit 2, a clear message
usage() {
	local want=$1
	shift
	set +e
	"$PERFAN_BIN" scaling "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	set -e
	[ "$rc" = 2 ] || fail "scaling $*: exit $rc, not 2"
	grep -q "^perfan scaling: .*$want" "$tmp/err" ||
		fail "scaling $*: no '$want' in: $(head -1 "$tmp/err")"
}
f=$d/scale-slow-5000-1.data
usage "is not SIZE:FILE" "$f" 10000:"$f"
usage "is not SIZE:FILE" 5000: 10000:"$f"
usage "is not a number" abc:"$f" 10000:"$f"
usage "must be positive" 0:"$f" 10000:"$f"
usage "must be positive" -5:"$f" 10000:"$f"
usage "one run" 5000:"$f"
usage "all runs are at size 5000" 5000:"$f" 5000:"$f"
usage "give SIZE:FILE" --json
usage "--sort" --sort k 5000:"$f" 10000:"$f"
usage "--level" --level 2 5000:"$f" 10000:"$f"
usage "--min-share" --min-share x 5000:"$f" 10000:"$f"

# bad input: exit 1, the file named
bad() {
	set +e
	"$PERFAN_BIN" scaling "${O[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	set -e
	[ "$rc" = 1 ] || fail "scaling $*: exit $rc, not 1"
	grep -q "^perfan scaling: " "$tmp/err" || fail "scaling $*: no message"
}
head -c 3000 "$f" >"$tmp/cut.data"
: >"$tmp/empty.folded"
printf 'not a profile\n\x01\x02' >"$tmp/junk"
bad 5000:"$tmp/missing.data" 10000:"$f"
bad 5000:"$tmp/cut.data" 10000:"$f"
bad 5000:"$tmp/empty.folded" 10000:"$f"
bad 5000:"$tmp/junk" 10000:"$f"
bad 5000:"$f" 10000:"$tmp/slow-5000-1.folded" # ns against samples
grep -q "give runs of one kind" "$tmp/err" || fail "mixed units: $(cat "$tmp/err")"
[ ! -e "$tmp/o2" ] || fail "o2"
bad -o "$tmp/o2" 5000:"$tmp/cut.data" 10000:"$f"
[ ! -e "$tmp/o2" ] || fail "-o left a file after an error"
echo "ok: scaling usage and input errors"
