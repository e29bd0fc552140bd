#!/usr/bin/env bash
# gil.sh: why threads wait, on testdata/gil (issue 34), each against the
# ground truth recorded beside it (testdata/gil/NOTES.md, regen.sh's case
# gil): the GIL wait of every thread on Python 3.11, 3.12 and 3.13 with 2
# and 4 CPU-bound threads within 5 points of the uprobes' (take_gil to its
# return), and the probes read back exactly; who held the GIL while the
# latency thread waited (80/20), estimated within 5 points; a lock wait
# told from the GIL; an idle pool told from contention; the critical path
# of a request through a queue and a lock to f(); the classes in folded,
# speedscope and the real pprof.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/gil
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")
run() { # OUT ERR perfan ARGS...: the exit status in $rc
	local out=$1 err=$2
	shift 2
	rc=0
	HOME=$tmp "$PERFAN_BIN" "$@" >"$out" 2>"$err" || rc=$?
}

# 1. the GIL ledger against the uprobes, six recordings
for v in 311 312 313; do
	for n in 2 4; do
		f=gil-$v-$n
		run "$tmp/$f.est.json" "$tmp/err" gil --json --no-probes "${O[@]}" "$D/$f.data"
		[ "$rc" = 0 ] || fail "gil --no-probes $f: exit $rc: $(head -c 300 "$tmp/err")"
		run "$tmp/$f.probe.json" "$tmp/err" gil --json "${O[@]}" "$D/$f.data"
		[ "$rc" = 0 ] || fail "gil $f: exit $rc: $(head -c 300 "$tmp/err")"
	done
done
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, os, sys
d, tmp = sys.argv[1:3]
bad = 0
for v in ("311", "312", "313"):
    for n in ("2", "4"):
        f = "gil-%s-%s" % (v, n)
        truth = {}
        for line in open(os.path.join(d, "truth-%s-%s.txt" % (v, n))):
            p = line.split()
            if p and not p[0].startswith("#"):
                truth[int(p[0])] = (p[1], float(p[2]), int(p[3]), p[5])
        est = json.load(open(os.path.join(tmp, f + ".est.json")))["gil"]
        probe = json.load(open(os.path.join(tmp, f + ".probe.json")))["gil"]
        if est["probes"] or not est["probes_seen"] or not probe["probes"]:
            print("FAIL: %s: --no-probes read the probes, or they were not seen" % f)
            bad += 1
        by_tid = {t["tid"]: t for t in est["threads"]}
        by_tid_p = {t["tid"]: t for t in probe["threads"]}
        checked = 0
        for tid, (name, wait, episodes, frac) in truth.items():
            t, tp = by_tid.get(tid), by_tid_p.get(tid)
            if t is None or tp is None:
                print("FAIL: %s: %s (%d) missing from the ledger" % (f, name, tid))
                bad += 1
                continue
            # the probes, read back: the same pairs as the truth's script
            if abs(tp["probe_wait"] / 1e9 - wait) > max(wait * 0.001, 1e-5) or \
                    tp["probe_episodes"] != episodes:
                print("FAIL: %s: %s probe wait %.6f s over %d, truth %.6f s over %d"
                      % (f, name, tp["probe_wait"] / 1e9, tp["probe_episodes"], wait, episodes))
                bad += 1
            if frac == "-":
                continue  # the main thread: no wall of its own
            checked += 1
            # the estimate from the switch-out stacks alone
            if abs(t["wait_fraction"] - float(frac)) > 0.05:
                print("FAIL: %s: %s GIL wait %.3f of its life, the uprobes' %.3f"
                      % (f, name, t["wait_fraction"], float(frac)))
                bad += 1
        if checked != int(n) + 1:
            print("FAIL: %s: %d threads checked, not %d" % (f, checked, int(n) + 1))
            bad += 1
sys.exit(bad)
PY
	fail "gil: the ledger against the uprobes (above)"
fi

# 2. blame: who held the GIL while the latency thread waited (hold_a
# ~75 %, hold_b ~22 %), estimated within 5 points, from the probes exactly
for mode in est probe; do
	args=(--json); [ "$mode" = est ] && args+=(--no-probes)
	run "$tmp/blame.$mode.json" "$tmp/err" gil "${args[@]}" "${O[@]}" "$D/gil-blame.data"
	[ "$rc" = 0 ] || fail "gil gil-blame.data: exit $rc: $(head -c 300 "$tmp/err")"
done
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, os, sys
d, tmp = sys.argv[1:3]
want, waiter = {}, None
for line in open(os.path.join(d, "truth-blame.txt")):
    p = line.split()
    if p and p[0] == "blame" and p[2] != "-":
        waiter = int(p[1])
        want[int(p[2])] = (p[3], float(p[5]))
bad = 0
for mode, tol in (("est", 0.05), ("probe", 0.002)):
    g = json.load(open(os.path.join(tmp, "blame.%s.json" % mode)))["gil"]
    row = [t for t in g["threads"] if t["tid"] == waiter]
    if not row:
        sys.exit("FAIL: blame: the latency thread %d is not in the ledger" % waiter)
    held = {h["tid"]: h["fraction"] for h in row[0]["held_by"]}
    for tid, (name, frac) in want.items():
        if frac < 0.01:
            continue
        got = held.get(tid, 0.0)
        if abs(got - frac) > tol:
            print("FAIL: blame (%s): %s held the GIL for %.3f of the latency "
                  "thread's wait, the uprobes say %.3f" % (mode, name, got, frac))
            bad += 1
sys.exit(bad)
PY
	fail "gil: blame 80/20 (above)"
fi
# the blame flame graph: the holders' stacks, hold_a's the widest
run "$tmp/blame.svg" "$tmp/err" gil --no-probes -o "$tmp/blame.svg" "${O[@]}" "$D/gil-blame.data"
[ "$rc" = 0 ] && grep -q '<title>hold_a (' "$tmp/blame.svg" ||
	fail "gil -o blame.svg: no flame graph with hold_a: $(head -c 300 "$tmp/err")"

# per-thread sums of the off-CPU leaves: "TID LEAF MS"
leaves() { # FILE.data
	HOME=$tmp "$PERFAN_BIN" collapse --off-cpu --tid --python mixed "${O[@]}" "$1" 2>/dev/null |
		python3 -c '
import collections, sys
d = collections.defaultdict(float)
for line in sys.stdin:
    stack, w = line.rstrip().rsplit(" ", 1)
    fr = stack.split(";")
    d[(fr[0].rsplit("/", 1)[1], fr[-1])] += int(w) / 1e6
for (tid, leaf), ms in sorted(d.items()):
    print(tid, leaf.replace(" ", "_"), "%.3f" % ms)'
}
ms_of() { # FILE TID LEAF
	awk -v t="$2" -v l="$3" '$1 == t && $2 == l {print $3; f = 1} END {if (!f) print 0}' "$1"
}
near() { # GOT WANT PCT MS: |GOT - WANT| within PCT % of WANT or MS
	python3 -c 'import sys; g, w, p, m = map(float, sys.argv[1:]); sys.exit(abs(g - w) > max(w * p / 100, m))' "$@"
}

# 3. a lock against the GIL: the waiter's lock wait is the hold after it
# started waiting, its GIL waits apart; the holder has no lock wait
leaves "$D/lock.data" >"$tmp/lock.leaves"
waiter=$(awk '$1 == "wait_for_lock" {print $2}' "$D/lock.out")
holder=$(awk '$1 == "hold_lock" {print $2}' "$D/lock.out")
want=$(awk '$1 == "hold_after_waiter_start" {print $2 * 1000}' "$D/lock.out")
got=$(ms_of "$tmp/lock.leaves" "$waiter" "[off-cpu:_lock]")
near "$got" "$want" 5 2 || fail "lock: the waiter's lock wait $got ms, the planted hold after it began waiting $want ms"
gil_truth=$(awk -v t="$waiter" '$1 == t {print $3 * 1000}' "$D/truth-lock.txt")
gil_got=$(ms_of "$tmp/lock.leaves" "$waiter" "[off-cpu:_GIL]")
near "$gil_got" "$gil_truth" 10 5 || fail "lock: the waiter's GIL wait $gil_got ms, the uprobes' $gil_truth ms"
held=$(ms_of "$tmp/lock.leaves" "$holder" "[off-cpu:_lock]")
near "$held" 0 0 1 || fail "lock: the holder has $held ms of lock wait"

# 4. an idle pool: each worker's wait in queue.get is idle, its measured
# time within 5 %, no lock wait; the stacks pass through worker and Queue.get
leaves "$D/idle.data" >"$tmp/idle.leaves"
for w in worker_0 worker_1 worker_2; do
	tid=$(awk -v w="$w" '$1 == w {print $2}' "$D/idle.out")
	want=$(awk -v w="$w" '$1 == w {print $5 * 1000}' "$D/idle.out")
	got=$(ms_of "$tmp/idle.leaves" "$tid" "[off-cpu:_idle]")
	near "$got" "$want" 5 2 || fail "idle: $w idle $got ms, measured in get() $want ms"
	lock=$(ms_of "$tmp/idle.leaves" "$tid" "[off-cpu:_lock]")
	near "$lock" 0 0 1 || fail "idle: $w has $lock ms of lock wait"
done
# (into a file: grep -q under pipefail would fail the writer it leaves)
run "$tmp/idle.folded" "$tmp/err" collapse --off-cpu --python mixed "${O[@]}" "$D/idle.data"
grep -q ';worker ([^;]*);.*Queue.get ([^;]*);.*\[off-cpu: idle\] [0-9]*$' "$tmp/idle.folded" ||
	fail "idle: no idle wait under worker and Queue.get"

# 5. the critical path of each request: X in f() for at least 95 % of the
# planted time, the segments tiling the request's interval
R=$(awk '$1 == "R" {print $2}' "$D/critical.out")
X=$(awk '$1 == "X" {print $2}' "$D/critical.out")
n=0
while read -r _ i a b _ fa fb fms; do
	range=$(python3 -c "import sys; print('%.9f,%.9f' % (int(sys.argv[1]) / 1e9, int(sys.argv[2]) / 1e9))" "$a" "$b")
	run "$tmp/crit$i.json" "$tmp/err" critical --json --tid "$R" --time "$range" "${O[@]}" "$D/critical.data"
	[ "$rc" = 0 ] || fail "critical request $i: exit $rc: $(head -c 300 "$tmp/err")"
	python3 - "$tmp/crit$i.json" "$X" "$a" "$b" "$fa" "$fb" "$fms" <<'PY' || fail "critical request $i (above)"
import json, sys
c = json.load(open(sys.argv[1]))["critical"]
X, a, b, fa, fb = (int(x) for x in sys.argv[2:7])
fms = float(sys.argv[7])
segs = c["segments"]
tot = sum(s["end"] - s["start"] for s in segs)
if abs(tot - (b - a)) > (b - a) * 0.01 or abs(c["end"] - c["start"] - (b - a)) > 1000:
    sys.exit("FAIL: segments sum to %.3f ms, the interval is %.3f ms" % (tot / 1e6, (b - a) / 1e6))
for s, t in zip(segs, segs[1:]):
    if s["end"] != t["start"]:
        sys.exit("FAIL: a gap or an overlap at %d" % s["end"])
inf = sum(min(s["end"], fb) - max(s["start"], fa) for s in segs
          if s["tid"] == X and (s["function"] or "").startswith("py::f:")
          and min(s["end"], fb) > max(s["start"], fa))
if inf / 1e6 < 0.95 * fms:
    sys.exit("FAIL: X in f for %.3f ms of the path, planted %.3f ms" % (inf / 1e6, fms))
if X not in c["chain"]:
    sys.exit("FAIL: X is not in the chain %s" % c["chain"])
if not any(r["function"] and r["function"].startswith("py::f:") for r in c["bounds"]):
    sys.exit("FAIL: no Amdahl bound for f")
PY
	n=$((n + 1))
done < <(awk '$1 == "req"' "$D/critical.out")
[ "$n" = 5 ] || fail "critical: $n requests checked, not 5"
# the threads on the path by name (issue 35): critical.py's by the
# function each was started on, testdata/server's engine thread's path by
# the roles in truth.txt
run "$tmp/crit.txt" "$tmp/err" critical --tid "$R" "${O[@]}" "$D/critical.data"
[ "$rc" = 0 ] || fail "critical --tid $R: exit $rc: $(head -c 300 "$tmp/err")"
S=testdata/server
SO=(--kallsyms "$S/kallsyms" --symfs "$S/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$S")
E=$(awk '$1 == "engine" {print $2}' "$S/truth.txt")
run "$tmp/s.crit.json" "$tmp/err" critical --json --tid "$E" "${SO[@]}" "$S/server.data"
[ "$rc" = 0 ] || fail "critical --json --tid $E server.data: exit $rc: $(head -c 300 "$tmp/err")"
run "$tmp/s.crit.txt" "$tmp/err" critical --tid "$E" "${SO[@]}" "$S/server.data"
[ "$rc" = 0 ] || fail "critical --tid $E server.data: exit $rc: $(head -c 300 "$tmp/err")"
python3 - "$D" "$S" "$tmp" <<'PY' || fail "critical: the threads' names (above)"
import json, re, sys
sys.path.insert(0, "tests/tools")
from thread_roles import FAILS, check, critical, expect, server
d, s, tmp = sys.argv[1:4]
for f, roles, js, txt in (("critical", critical(d), tmp + "/crit0.json", tmp + "/crit.txt"),
                          ("server", server(s), tmp + "/s.crit.json", tmp + "/s.crit.txt")):
    c = json.load(open(js))["critical"]
    text = open(txt).read()
    seen = set()
    for t in [c] + c["rows"] + c["segments"]:
        if t["tid"] not in roles or t["pid"] < 0:
            continue
        seen.add(t["tid"])
        name, _, pool = expect(roles, t["pid"], t["tid"], t["comm"])
        check((t["name"], t["pool"]) == (name, pool), "%s: thread %d: name %r, pool %r, not %r, %r" % (
            f, t["tid"], t["name"], t["pool"], name, pool))
    check(len(seen) >= 2, "%s: %d threads of the path checked" % (f, len(seen)))
    name = expect(roles, c["pid"], c["tid"], c["comm"])[0]
    check(text.startswith("Critical path of %s %d/%d over" % (name, c["pid"], c["tid"])),
          "%s: the text's first line: %r" % (f, text.split("\n")[0]))
    for w in c["rows"]:
        if w["tid"] in roles:
            check(re.search(r"^ +[\d.]+ +[\d.]+%%  \S+ +\S+ +%s %d/%d " % (
                re.escape(expect(roles, w["pid"], w["tid"], w["comm"])[0]), w["pid"], w["tid"]), text, re.M),
                  "%s: no text row for thread %d by name" % (f, w["tid"]))
sys.exit(len(FAILS))
PY
run "$tmp/crit.svg" "$tmp/err" critical --tid "$R" -o "$tmp/crit.svg" "${O[@]}" "$D/critical.data"
[ "$rc" = 0 ] && grep -q '<title>f (' "$tmp/crit.svg" ||
	fail "critical -o x.svg: no flame graph with f: $(head -c 300 "$tmp/err")"
run "$tmp/out" "$tmp/err" critical "${O[@]}" "$D/critical.data"
[ "$rc" = 2 ] || [ "$rc" = 1 ] && grep -q 'tid' "$tmp/err" ||
	fail "critical without --tid: exit $rc, $(head -c 200 "$tmp/err")"

# 6. the classes in every export: folded, speedscope, and the real pprof
run "$tmp/gil.folded" "$tmp/err" collapse --off-cpu "${O[@]}" "$D/gil-312-2.data"
grep -q '\[off-cpu: GIL\] [0-9]*$' "$tmp/gil.folded" || fail "collapse --off-cpu: no [off-cpu: GIL] leaf"
run "$tmp/out" "$tmp/err" convert --off-cpu -o "$tmp/gil.speedscope.json" "${O[@]}" "$D/gil-312-2.data"
grep -q '"\[off-cpu: GIL\]"' "$tmp/gil.speedscope.json" || fail "speedscope: no [off-cpu: GIL] frame: $(head -c 300 "$tmp/err")"
PPROF=${PERFAN_PPROF:-build/tools/pprof}
if [ -x "$PPROF" ]; then
	run "$tmp/out" "$tmp/err" convert --off-cpu -o "$tmp/lock.pb.gz" "${O[@]}" "$D/lock.data"
	PPROF_BINARY_PATH=/nonexistent HOME=$tmp "$PPROF" -top -nodecount=100 "$tmp/lock.pb.gz" 2>/dev/null >"$tmp/top" || true
	grep -q '\[off-cpu: lock\]' "$tmp/top" && grep -q '\[off-cpu: GIL\]' "$tmp/top" ||
		fail "pprof -top shows no [off-cpu: lock] and [off-cpu: GIL]: $(head -20 "$tmp/top")"
else
	echo "note: no pprof at $PPROF: its check skipped" >&2
fi
# 7. the threads' names (issue 35, item 1): each thread of the ledger
# called by the function its script started it on (gil.py's targets and
# the tids in the .out; testdata/server's roles in truth.txt and the
# targets in server.py), a pool's threads one text row "POOL [pool of N]"
# with their waits summed, in perfan gil and in report's GIL section
S=testdata/server
SO=(--kallsyms "$S/kallsyms" --symfs "$S/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$S")
run "$tmp/s.gil.json" "$tmp/err" gil --json "${SO[@]}" "$S/server.data"
[ "$rc" = 0 ] || fail "gil --json server.data: exit $rc: $(head -c 300 "$tmp/err")"
run "$tmp/s.gil.txt" "$tmp/err" gil "${SO[@]}" "$S/server.data"
[ "$rc" = 0 ] || fail "gil server.data: exit $rc: $(head -c 300 "$tmp/err")"
run "$tmp/s.report.txt" "$tmp/err" report --wall "${SO[@]}" "$S/server.data"
[ "$rc" = 0 ] || fail "report --wall server.data: exit $rc: $(head -c 300 "$tmp/err")"
for v in 312 313; do
	run "$tmp/gil-$v-4.txt" "$tmp/err" gil "${O[@]}" "$D/gil-$v-4.data"
	[ "$rc" = 0 ] || fail "gil gil-$v-4: exit $rc: $(head -c 300 "$tmp/err")"
done
if ! python3 - "$D" "$S" "$tmp" <<'PY'; then
import json, re, sys
sys.path.insert(0, "tests/tools")
from thread_roles import FAILS, check, expect, gil, server
d, s, tmp = sys.argv[1:4]
def ms(ns):
    return "%.3f" % (ns / 1e6)
def names(f, js, txt, roles, section=None):
    g = json.load(open(js))["gil"]
    th = {t["tid"]: t for t in g["threads"]}
    checked = 0
    pools = {}
    for t in th.values():
        if t["tid"] not in roles:
            continue
        checked += 1
        want = expect(roles, t["pid"], t["tid"], t["comm"])
        check((t["name"], t["role"], t["pool"]) == want,
              "%s: thread %d started on %s: name %r, role %r, pool %r" % (
                  f, t["tid"], want[1], t["name"], t["role"], t["pool"]))
        if want[2]:
            pools.setdefault(want[2], []).append(t)
        elif t["tid"] != t["pid"]:
            check(re.search(r"^%s %d/%d " % (re.escape(want[0]), t["pid"], t["tid"]), open(txt).read(), re.M),
                  "%s: no text row %s %d/%d" % (f, want[0], t["pid"], t["tid"]))
    check(checked >= 5, "%s: %d threads of the ledger checked" % (f, checked))
    text = open(txt).read()
    for pool, ts in pools.items():
        # the pool's row: its threads' count and their waits summed
        waited = ms(sum(t["wait"] for t in ts))
        row = re.search(r"^%s \[pool of (\d+)\] +[\d.]+ +([\d.]+) " % re.escape(pool), text, re.M)
        check(row and int(row.group(1)) == len(ts) and row.group(2) == waited,
              "%s: pool %s: text row %r, %d threads waiting %s ms" % (
                  f, pool, row and row.group(0), len(ts), waited))
        for t in ts:
            check(not re.search(r" %d/%d " % (t["pid"], t["tid"]), text),
                  "%s: pooled thread %d has a row of its own" % (f, t["tid"]))
        if section:
            check(re.search(r"^# +%s +[\d.]+%%  %s \[pool of %d\]" % (waited, re.escape(pool), len(ts)),
                            open(section).read(), re.M),
                  "%s: report's GIL section has no row for pool %s (%s ms)" % (f, pool, waited))
for v in ("312", "313"):
    f = "gil-%s-4" % v
    names(f, "%s/%s.probe.json" % (tmp, f), "%s/%s.txt" % (tmp, f), gil(d, "gil", "%s/%s.out" % (d, f)))
names("server", tmp + "/s.gil.json", tmp + "/s.gil.txt", server(s), tmp + "/s.report.txt")
sys.exit(len(FAILS))
PY
	fail "gil: the threads' names (above)"
fi
[ $fails -eq 0 ] && echo "gil: ok"
[ $fails -eq 0 ]
