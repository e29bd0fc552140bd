#!/usr/bin/env bash
# threadnames.sh: threads named by what they were started to run and
# pooled (issue 35, item 1), on testdata/gil's Python 3.11-3.13 workloads:
# each thread's role is the target its script gave threading.Thread (the
# scripts beside the recordings, with the native tid each thread printed
# in its .out file), threads started on one target form one pool whose
# on-CPU time is the sum of their thread_time() within 2 % (10 % for
# 91 ms of samples), a process's
# first thread is "main" and never pooled; and a system-wide recording's
# table keeps its busiest process unless --all; speedscope and pprof
# exports carry the names.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/gil
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")

for f in gil-312-4 gil-313-4 idle lock critical; do
	HOME=$tmp "$PERFAN_BIN" report --off-cpu --json "${O[@]}" "$D/$f.data" \
		>"$tmp/$f.json" 2>"$tmp/err" || fail "report $f: $(head -c 300 "$tmp/err")"
	HOME=$tmp "$PERFAN_BIN" report --off-cpu "${O[@]}" "$D/$f.data" \
		>"$tmp/$f.txt" 2>"$tmp/err" || fail "report $f (text): $(head -c 300 "$tmp/err")"
done
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, re, sys
d, tmp = sys.argv[1:3]
bad = 0
def check(cond, msg):
    global bad
    if not cond:
        print("FAIL:", msg)
        bad += 1
# what each script started its threads on: Thread(target=T, ..., name=N)
# gives the thread named N (printed with its native tid in the .out) the
# role T
targets = {"gil": {"cpu_": "crunch", "latency": "latency"},
           "idle": {"worker_": "worker", "producer": "producer"}}
# (Python 3.11 has no -X perf: its stacks name no Python function)
# thread_time() within 2 % for the 1.4 s of the crunch pools; idle's
# workers ran 91 ms in all, 91 samples at 999 Hz, whose sampling error is
# about 10 %
for f, script, tol in (("gil-312-4", "gil", 0.02), ("gil-313-4", "gil", 0.02),
                       ("idle", "idle", 0.10)):
    src = open("%s/%s.py" % (d, script)).read()
    for name, target in targets[script].items():
        check(re.search(r"Thread\(target=%s\b" % target, src), "%s.py starts no thread on %s" % (script, target))
    truth = {}
    for line in open("%s/%s.out" % (d, f)):
        w = line.split()
        if len(w) >= 4 and w[1].isdigit():
            role = [t for n, t in targets[script].items() if w[0].startswith(n)]
            if role:
                truth[int(w[1])] = (role[0], float(w[2]) * 1e9)
    rep = json.load(open("%s/%s.json" % (tmp, f)))["per_thread"]
    th = {t["tid"]: t for t in rep["threads"]}
    check(th, "%s: no thread table in the JSON: %s" % (f, list(rep)[:8]))
    pools = rep.get("pools", [])
    for tid, (role, cpu) in truth.items():
        t = th.get(tid)
        check(t, "%s: no row for thread %d" % (f, tid))
        if not t:
            continue
        check(t["role"] == role, "%s: thread %d role %r, its script started it on %r" % (f, tid, t["role"], role))
        check(t["name"] == role, "%s: thread %d named %r, not %r" % (f, tid, t["name"], role))
    main = [t for t in th.values() if t["tid"] == t["pid"]]
    check(len(main) == 1 and main[0]["role"] == "main" and main[0]["pool"] is None,
          "%s: the first thread is not main and alone: %r" % (f, main))
    for role in set(r for r, _ in truth.values()):
        members = [tid for tid, (r, _) in truth.items() if r == role]
        ps = [p for p in pools if p["name"] == role]
        if len(members) < 2:
            check(not ps, "%s: a pool of one thread, %s" % (f, role))
            continue
        check(len(ps) == 1 and ps[0]["threads"] == len(members),
              "%s: pool %s: %r, %d threads started on it" % (f, role, ps, len(members)))
        if not ps:
            continue
        idx = pools.index(ps[0])
        check(all(th[m]["pool"] == idx for m in members), "%s: a %s thread outside its pool" % (f, role))
        want = sum(truth[m][1] for m in members)
        got = ps[0]["on_cpu"]
        check(abs(got - want) <= tol * want,
              "%s: pool %s on-CPU %.1f ms, thread_time() sums to %.1f ms" % (f, role, got / 1e6, want / 1e6))
        txt = open("%s/%s.txt" % (tmp, f)).read()
        check(re.search(r"\b%s \[pool of %d\] \d+ \(per thread" % (role, len(members)), txt),
              "%s: the text table has no row for the pool %s" % (f, role))
        for m in members:
            check(not re.search(r" %d/%d$" % (th[m]["pid"], m), txt, re.M),
                  "%s: pooled thread %d has a row of its own" % (f, m))
# single threads named by their target: lock.py and critical.py
for f, roles in (("lock", ("hold_lock", "wait_for_lock", "burn")),
                 ("critical", ("hold", "serve", "request"))):
    rep = json.load(open("%s/%s.json" % (tmp, f)))["per_thread"]
    names = sorted(t["name"] for t in rep["threads"] if t["tid"] != t["pid"])
    check(names == sorted(roles), "%s: threads named %r, started on %r" % (f, names, roles))
sys.exit(1 if bad else 0)
PY
	fail "thread names"
fi

# a system-wide recording: the busiest process, the rest counted
HOME=$tmp "$PERFAN_BIN" report --off-cpu --json "${O[@]}" "$D/wake-all.data" >"$tmp/wa.json" 2>/dev/null ||
	fail "report wake-all"
HOME=$tmp "$PERFAN_BIN" report --off-cpu --all --json "${O[@]}" "$D/wake-all.data" >"$tmp/wa-all.json" 2>/dev/null ||
	fail "report --all wake-all"
if ! python3 - "$tmp" <<'PY'; then
import json, sys
tmp = sys.argv[1]
one = json.load(open(tmp + "/wa.json"))["per_thread"]
every = json.load(open(tmp + "/wa-all.json"))["per_thread"]
pids = {t["pid"] for t in one["threads"]}
allp = {t["pid"] for t in every["threads"]}
bad = 0
if len(pids) != 1:
    print("FAIL: the default table has processes", pids); bad = 1
busiest = max(allp, key=lambda p: sum(t["on_cpu"] for t in every["threads"] if t["pid"] == p))
if pids != {busiest}:
    print("FAIL: kept", pids, "not the busiest", busiest); bad = 1
left = len(every["threads"]) - len(one["threads"])
if one["left_out_threads"] != left or one["left_out_processes"] != len(allp) - 1:
    print("FAIL: left out %d threads of %d processes, --all has %d more of %d" % (
        one["left_out_threads"], one["left_out_processes"], left, len(allp) - 1)); bad = 1
if every["left_out_threads"]:
    print("FAIL: --all left threads out"); bad = 1
sys.exit(bad)
PY
	fail "system-wide focus"
fi
# the exports carry the names: speedscope's profiles, pprof's labels (read
# by the real pprof where it was built)
HOME=$tmp "$PERFAN_BIN" convert "${O[@]}" "$D/gil-312-4.data" -o "$tmp/g.speedscope.json" 2>/dev/null ||
	fail "convert to speedscope"
HOME=$tmp "$PERFAN_BIN" convert "${O[@]}" "$D/gil-312-4.data" -o "$tmp/g.pb.gz" 2>/dev/null ||
	fail "convert to pprof"
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, sys
d, tmp = sys.argv[1:3]
names = sorted(p["name"] for p in json.load(open(tmp + "/g.speedscope.json"))["profiles"])
want = []
for line in open(d + "/gil-312-4.out"):
    w = line.split()
    want.append("%s-24469/%s" % ("crunch" if w[0].startswith("cpu_") else w[0], w[1]))
want = sorted(want + ["python3-24469/24469"])
if names != want:
    print("FAIL: speedscope profiles", names, "not", want)
    sys.exit(1)
PY
	fail "speedscope names"
fi
PPROF=${PERFAN_PPROF:-build/tools/pprof}
if [ -x "$PPROF" ]; then
	"$PPROF" -tags "$tmp/g.pb.gz" >"$tmp/tags" 2>"$tmp/err" || fail "pprof -tags: $(head -c 300 "$tmp/err")"
	awk '/thread_name: Total/{on=1;next} on&&/^ *$/{on=0} on{print $NF}' "$tmp/tags" | sort >"$tmp/tn"
	printf 'crunch\nlatency\n' >"$tmp/tn.want"
	cmp -s "$tmp/tn" "$tmp/tn.want" || fail "pprof's thread_name labels: $(tr '\n' ' ' <"$tmp/tn")"
else
	echo "note: no pprof at $PPROF: its check skipped" >&2
fi
# py-spy top's shares: each thread's GIL wait against the uprobes on
# take_gil (testdata/gil/truth-312-4.txt, wait_s), within 5 points of its
# life as tests/cli/gil.sh holds the ledger; --sort-threads gil puts the
# most waiting first, the pool ranked by its sum
HOME=$tmp "$PERFAN_BIN" report --off-cpu --json --sort-threads gil "${O[@]}" "$D/gil-312-4.data" \
	>"$tmp/sorted.json" 2>/dev/null || fail "report --sort-threads gil"
HOME=$tmp "$PERFAN_BIN" report --off-cpu --sort-threads bogus "${O[@]}" "$D/gil-312-4.data" \
	>/dev/null 2>"$tmp/err" && fail "--sort-threads bogus accepted"
grep -q "sort-threads" "$tmp/err" || fail "--sort-threads bogus: no reason: $(cat "$tmp/err")"
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, sys
d, tmp = sys.argv[1:3]
bad = 0
rep = json.load(open(tmp + "/gil-312-4.json"))["per_thread"]
th = {t["tid"]: t for t in rep["threads"]}
for line in open(d + "/truth-312-4.txt"):
    w = line.split()
    if line.startswith("#") or w[1] == "main":
        continue
    tid, wait, wall = int(w[0]), float(w[2]) * 1e9, float(w[4]) * 1e9
    got = th[tid]["gil"]
    if abs(got - wait) > 0.05 * wall:
        print("FAIL: thread %d GIL wait %.1f ms, the uprobes %.1f ms" % (tid, got / 1e6, wait / 1e6))
        bad += 1
    if th[tid]["waiting"] + got > th[tid]["off_cpu"]:
        print("FAIL: thread %d waits more than it is off the CPU" % tid)
        bad += 1
srt = json.load(open(tmp + "/sorted.json"))["per_thread"]
pools = srt["pools"]
def key(t):
    return pools[t["pool"]]["gil"] if t["pool"] is not None else t["gil"]
keys = [key(t) for t in srt["threads"]]
if keys != sorted(keys, reverse=True):
    print("FAIL: --sort-threads gil order", keys)
    bad += 1
order = [t["pool"] for t in srt["threads"] if t["pool"] is not None]
if order and len(set(order)) == 1 and len(order) != 4:
    print("FAIL: the pool's rows", order)
    bad += 1
sys.exit(bad)
PY
	fail "shares and order"
fi

[ $fails -eq 0 ] && echo "threadnames: ok"
[ $fails -eq 0 ]
