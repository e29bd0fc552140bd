#!/usr/bin/env bash
# timeline.sh: perfan timeline (issue 35, item 2) against the thread table
# and perf's own script of the same recordings: a lane per thread of the
# table (perfan report --off-cpu --json's per_thread), each off-CPU
# state's time in a lane equal to the table's to the ns, its running time
# equal to the table's wall less off-CPU time (the table's on_cpu is
# cpu-clock sample periods, a sampled estimate of what the lane measures
# from switches), the same with --time and with a coarse --resolution
# (merged segments keep their time by state); every wake arrow is a
# sched_waking or sched_wakeup record of perf script (its time, the tid
# it ran in, the pid it woke); 64 threads over 60 s in a page under
# 10 MB. Recordings: testdata/offcpu, testdata/gil and testdata/server
# (304 threads, 300 of them short handlers).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
OFF=testdata/offcpu GIL=testdata/gil
O_OFF=(--kallsyms "$OFF/kallsyms" --symfs "$OFF/symfs" --buildid-dir "$tmp/no-cache")
O_GIL=(--kallsyms "$GIL/kallsyms" --symfs "$GIL/symfs" --perf-map-dir "$GIL"
	--buildid-dir "$tmp/no-cache")
SRV=testdata/server
O_SRV=(--kallsyms "$SRV/kallsyms" --symfs "$SRV/symfs" --perf-map-dir "$SRV"
	--buildid-dir "$tmp/no-cache")

run() { # NAME OUT ARGS...: perfan ARGS > OUT, or a failure
	local name=$1 out=$2 rc=0
	shift 2
	HOME=$tmp "$PERFAN_BIN" "$@" >"$out" 2>"$tmp/err" || rc=$?
	[ "$rc" = 0 ] || { fail "$name: perfan $*: exit $rc: $(head -c 300 "$tmp/err")"; return 1; }
}

# lanes against the table: TIMELINE.json TABLE.json NAME [TIMELINE2.json]
# (the second: the same at another resolution, the same totals)
compare() {
	python3 - "$@" <<'PY'
import json, sys
tl = json.load(open(sys.argv[1]))["timeline"]
rows = json.load(open(sys.argv[2]))["per_thread"]["threads"]
name = sys.argv[3]
kinds = tl["kinds"]
bad = 0
def fail(msg):
    global bad
    bad += 1
    if bad <= 10:
        print("FAIL: %s: %s" % (name, msg))
by = {r["tid"]: r for r in rows}
lanes = {l["tid"]: l for l in tl["lanes"]}
if sorted(by) != sorted(lanes):
    fail("lanes %s, table rows %s" % (sorted(lanes), sorted(by)))
for tid, l in lanes.items():
    r = by.get(tid)
    if not r:
        continue
    for k in range(1, len(kinds)):
        if l["time"][k] != r["off"].get(kinds[k], 0):
            fail("tid %d: %s %d ns, the table %d" % (tid, kinds[k], l["time"][k], r["off"].get(kinds[k], 0)))
    if l["time"][0] != r["wall"] - r["off_cpu"]:
        fail("tid %d: running %d ns, the table's wall less off-CPU %d" % (tid, l["time"][0], r["wall"] - r["off_cpu"]))
    # the segments add up to the lane's time, tile its lifetime
    s, tot, at = l["segments"], [0] * len(kinds), l["start"]
    for i in range(0, len(s), 6):
        at += s[i]
        if s[i + 5] >= 0:
            mix = tl["mixes"][s[i + 5] * len(kinds):(s[i + 5] + 1) * len(kinds)]
            if sum(mix) != s[i]:
                fail("tid %d: a merged segment of %d ns holds %d" % (tid, s[i], sum(mix)))
            tot = [a + b for a, b in zip(tot, mix)]
        else:
            tot[s[i + 1]] += s[i]
    if tot != l["time"]:
        fail("tid %d: segments %s, lane %s" % (tid, tot, l["time"]))
    if s and at != l["end"]:
        fail("tid %d: segments end at %d, the lane at %d" % (tid, at, l["end"]))
# names and pools as the table's (perfan/threadnames.h)
for tid, l in lanes.items():
    r = by.get(tid)
    if r and r.get("name") and l["name"] != r["name"]:
        fail("tid %d: named %r, the table %r" % (tid, l["name"], r["name"]))
tp = sorted((p["name"], p["threads"]) for p in json.load(open(sys.argv[2]))["per_thread"].get("pools", []))
lp = sorted((p["name"], p["lanes"]) for p in tl["pools"])
if tp != lp:
    fail("pools %s, the table's %s" % (lp, tp))
if len(sys.argv) > 4:
    tl2 = json.load(open(sys.argv[4]))["timeline"]
    n1 = sum(len(l["segments"]) for l in tl["lanes"])
    n2 = sum(len(l["segments"]) for l in tl2["lanes"])
    if not tl2["mixes"] or n2 >= n1:
        fail("resolution %d: %d segments, %d mixes (%d at %d)" % (tl2["resolution"], n2 // 6, len(tl2["mixes"]), n1 // 6, tl["resolution"]))
    for l2 in tl2["lanes"]:
        if l2["time"] != lanes[l2["tid"]]["time"]:
            fail("resolution %d: tid %d: %s, %s at %d" % (tl2["resolution"], l2["tid"], l2["time"], lanes[l2["tid"]]["time"], tl["resolution"]))
print("%s: %d lanes, %d off-CPU states compared" % (name, len(lanes), len(lanes) * (len(kinds) - 1)))
sys.exit(1 if bad else 0)
PY
}

# every wake arrow against perf script: TIMELINE.json SCRIPT NAME
wakes() {
	python3 - "$@" <<'PY'
import json, re, sys
tl = json.load(open(sys.argv[1]))["timeline"]
name = sys.argv[3]
head = re.compile(r"^\s*(.*?)\s+(\d+)\s+\[\d+\]\s+(\d+)\.(\d+):\s+(?:\d+\s+)?sched:(sched_waking|sched_wakeup):.*\bpid=(\d+)\b")
recs, digits = set(), 9
for line in open(sys.argv[2], errors="replace"):
    m = head.match(line)
    if m:
        digits = len(m.group(4))
        recs.add((int(m.group(3)) * 10**digits + int(m.group(4)), int(m.group(2)), int(m.group(6))))
w, at, bad = tl["wakes"], tl["start"], 0
for i in range(0, len(w), 6):
    at += w[i]  # from the wakeup before
    if (at // 10**(9 - digits), w[i + 2], w[i + 4]) not in recs:
        bad += 1
        if bad <= 5:
            print("FAIL: %s: wake at %d ns of %d by %d: no such record" % (name, at, w[i + 4], w[i + 2]))
if len(w) < 6 * 10:
    print("FAIL: %s: only %d wake arrows" % (name, len(w) // 6))
    bad += 1
print("%s: %d wake arrows, %d records of perf script" % (name, len(w) // 6, len(recs)))
sys.exit(1 if bad else 0)
PY
}

zstd -dc "$GIL/wake-all.script.txt.zst" >"$tmp/wake-all.txt"
zstd -dc "$OFF/script.sched.txt.zst" >"$tmp/sched.txt"
zstd -dc "$SRV/script.txt.zst" >"$tmp/server.txt"
for c in "offcpu:$OFF/perf.data:O_OFF:$OFF/script.txt" \
	"sched:$OFF/perf.sched.data:O_OFF:$tmp/sched.txt" \
	"switch:$OFF/perf.switch.data:O_OFF:" \
	"lock:$GIL/lock.data:O_GIL:" \
	"gil-312-4:$GIL/gil-312-4.data:O_GIL:" \
	"wake-all:$GIL/wake-all.data:O_GIL:$tmp/wake-all.txt" \
	"server:$SRV/server.data:O_SRV:$tmp/server.txt"; do
	IFS=: read -r name data opts script <<<"$c"
	declare -n O=$opts
	run "$name" "$tmp/$name.tl.json" timeline --json "${O[@]}" "$data" || continue
	run "$name" "$tmp/$name.th.json" report --off-cpu --json "${O[@]}" "$data" || continue
	run "$name" "$tmp/$name.res.json" timeline --json --resolution 5 "${O[@]}" "$data" || continue
	compare "$tmp/$name.tl.json" "$tmp/$name.th.json" "$name" "$tmp/$name.res.json" || fail "$name (above)"
	[ -z "$script" ] || wakes "$tmp/$name.tl.json" "$script" "$name" || fail "$name wakes (above)"
done

# a time window: a middle fifth of offcpu/perf.sched.data, as report --time
read -r a b < <(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timeline']; s,e=t['start'],t['end']; f=lambda x: '%d.%09d' % divmod(x, 10**9); print(f(s+(e-s)*2//5), f(s+(e-s)*3//5))" "$tmp/sched.tl.json")
run window "$tmp/w.tl.json" timeline --json --time "$a,$b" "${O_OFF[@]}" "$OFF/perf.sched.data" &&
	run window "$tmp/w.th.json" report --off-cpu --json --time "$a,$b" "${O_OFF[@]}" "$OFF/perf.sched.data" &&
	{ compare "$tmp/w.tl.json" "$tmp/w.th.json" "--time $a,$b" || fail "--time (above)"; }
# --all: every process of a system-wide recording, as report --all
run all "$tmp/all.tl.json" timeline --json --all "${O_OFF[@]}" "$OFF/perf.sched.data" &&
	run all "$tmp/all.th.json" report --off-cpu --json --all "${O_OFF[@]}" "$OFF/perf.sched.data" &&
	{ compare "$tmp/all.tl.json" "$tmp/all.th.json" "--all" || fail "--all (above)"; }
# --tid: one lane
tid=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['timeline']['lanes'][1]['tid'])" "$tmp/offcpu.tl.json")
run tid "$tmp/tid.json" timeline --json --tid "$tid" "${O_OFF[@]}" "$OFF/perf.data" &&
	{ [ "$(python3 -c "import json,sys; print([l['tid'] for l in json.load(open(sys.argv[1]))['timeline']['lanes']])" "$tmp/tid.json")" = "[$tid]" ] ||
		fail "--tid $tid: $(head -c 300 "$tmp/tid.json")"; }

# 64 threads over 60 s: a lane each (and main's), a page under 10 MB
T=testdata/threads64
if run threads64 "$tmp/64.html" timeline -o - "$T/perf.data" &&
	run threads64 "$tmp/64.tl.json" timeline --json "$T/perf.data" &&
	run threads64 "$tmp/64.th.json" report --off-cpu --json "$T/perf.data"; then
	size=$(stat -c %s "$tmp/64.html")
	[ "$size" -lt 10000000 ] || fail "threads64: a page of $size bytes"
	n=$(grep -c '"comm": "threads64"' "$tmp/64.tl.json" || true)
	[ "$n" = 65 ] || fail "threads64: $n lanes of threads64, not 65"
	compare "$tmp/64.tl.json" "$tmp/64.th.json" threads64 || fail "threads64 (above)"
	echo "threads64: a page of $size bytes"
fi

# errors: no file, two files
rc=0
"$PERFAN_BIN" timeline >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'no perf.data' "$tmp/err" || fail "timeline without a file: exit $rc"
[ $fails -eq 0 ] && echo "timeline: ok"
[ $fails -eq 0 ]
