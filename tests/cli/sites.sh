#!/usr/bin/env bash
# sites.sh: the blocking call sites of report --off-cpu name the user's
# function, what it waited in and the class (issue 34), against the
# programs' own measurements in testdata/gil: lock.data's waiter blocks in
# lock.acquire() for the part of the planted hold after it called it
# (hold_after_waiter_start), a lock wait at wait_for_lock within 5 % or
# 2 ms, its GIL waits a row apart, and no thread but the waiter waits on
# the lock; idle.data's workers wait in queue.get() (their own
# BLOCKED_IN_GET), an idle wait at worker under Queue.get within 5 % or
# 2 ms, and the main thread's join is idle too; sites of different
# classes are different rows in the text. The GIL section of report and
# triage (text and HTML) gives gil-312-2.data's threads as perfan gil
# --json does (a pool's threads as one row, their figures summed), and a
# recording without GIL waits has none.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/gil
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --perf-map-dir "$D"
	--buildid-dir "$tmp/no-cache")
for f in lock idle; do
	HOME=$tmp "$PERFAN_BIN" report --off-cpu --json "${O[@]}" "$D/$f.data" \
		>"$tmp/$f.json" 2>"$tmp/$f.err" || fail "report --off-cpu $f.data: $(cat "$tmp/$f.err")"
done
# the advice names the GIL's probes for a Python recording without them
# (idle.data), not for one that has them (lock.data)
grep -q "perf probe -x LIBPYTHON take_gil" "$tmp/idle.err" ||
	fail "idle.data: the advice names no GIL probe: $(head -c 300 "$tmp/idle.err")"
grep -q "perf probe" "$tmp/lock.err" &&
	fail "lock.data: the advice names the GIL's probes it has"
if ! python3 - "$tmp" "$D" <<'PY'; then
import json, sys
tmp, d = sys.argv[1], sys.argv[2]
bad = 0

def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad += 1

def near(got, want, pct, ms):
    return abs(got - want) <= max(want * pct / 100, ms)

def threads(name):
    return {t["tid"]: t for t in json.load(open("%s/%s.json" % (tmp, name)))
            ["per_thread"]["threads"]}

def fn(s):  # a site's function, without its file
    return (s or "").split(" (", 1)[0]

# lock.data: NAME TID THREAD_TIME WALL per thread, then the figures
out, fig = {}, {}
for line in open(d + "/lock.out"):
    p = line.split()
    if len(p) == 4:
        out[p[0]] = int(p[1])
    elif len(p) == 2:
        fig[p[0]] = float(p[1]) * 1e3
th = threads("lock")
waiter = th[out["wait_for_lock"]]["sites"]
lock = [s for s in waiter if s["class"] == "lock"]
if len(lock) != 1 or fn(lock[0]["site"]) != "wait_for_lock":
    fail("lock.data: the waiter's lock sites %s, want one at wait_for_lock"
         % [(s["site"], s["mechanism"]) for s in lock])
else:
    blocked = lock[0]["off"].get("sleep", 0) / 1e6
    if not near(blocked, fig["hold_after_waiter_start"], 5, 2):
        fail("lock.data: lock wait %.3f ms, the hold after acquire() %.3f"
             % (blocked, fig["hold_after_waiter_start"]))
    gil = [s for s in waiter if s["class"] == "GIL" and
           fn(s["site"]) == "wait_for_lock"]
    if not gil:
        fail("lock.data: no GIL wait of the waiter at wait_for_lock apart "
             "from its lock wait")
    # acquire() measured its lock wait, the GIL taken back, and the
    # wakeups' run-queue delays
    total = sum(s["total"] for s in lock + gil) / 1e6
    if not near(total, fig["waiter_blocked"], 5, 2):
        fail("lock.data: lock and GIL waits at wait_for_lock %.3f ms, "
             "acquire() measured %.3f" % (total, fig["waiter_blocked"]))
for name in ("hold_lock", "burn"):
    for s in th[out[name]]["sites"]:
        if s["class"] == "lock":
            fail("lock.data: %s waits on the lock: %s" % (name, s))
# idle.data: NAME TID THREAD_TIME WALL BLOCKED_IN_GET JOBS per worker
th = threads("idle")
workers = 0
for line in open(d + "/idle.out"):
    p = line.split()
    if not p[0].startswith("worker_"):
        continue
    workers += 1
    sites = th[int(p[1])]["sites"]
    idle = [s for s in sites if s["class"] == "idle" and
            fn(s["site"]) == "worker" and fn(s["mechanism"]) == "Queue.get"]
    if len(idle) != 1:
        fail("idle.data: %s: sites %s, want one worker <- Queue.get "
             "(idle)" % (p[0], [(s["site"], s["mechanism"], s["class"])
                                for s in sites]))
    elif not near(idle[0]["total"] / 1e6, float(p[4]) * 1e3, 5, 2):
        fail("idle.data: %s: idle wait %.3f ms, get() measured %.3f"
             % (p[0], idle[0]["total"] / 1e6, float(p[4]) * 1e3))
    if any(s["class"] == "lock" for s in sites):
        fail("idle.data: %s has a lock wait" % p[0])
if workers != 3:
    fail("idle.data: %d workers in idle.out" % workers)
main = [t for t in th.values() if t["tid"] == t["pid"]][0]["sites"]
if not main or main[0]["class"] != "idle" or \
        fn(main[0]["mechanism"]) != "Thread.join":
    fail("idle.data: the main thread's top site %s, not an idle "
         "Thread.join" % (main[:1],))
sys.exit(1 if bad else 0)
PY
	fail "sites: see above"
fi

# the text: the user's function, the mechanism, the class
HOME=$tmp "$PERFAN_BIN" report --off-cpu "${O[@]}" "$D/lock.data" >"$tmp/lock.txt" 2>/dev/null ||
	fail "report --off-cpu lock.data failed"
grep -Eq '^ +[0-9.]+  wait_for_lock \(.*lock\.py\) <- futex \(lock wait\)  \(sleep [0-9.]+, run-queue delay [0-9.]+\)$' "$tmp/lock.txt" ||
	fail "lock.data: no text site 'wait_for_lock (lock.py) <- futex (lock wait)'"
grep -Eq '^ +[0-9.]+  wait_for_lock \(.*lock\.py\) <- futex \(GIL wait\)' "$tmp/lock.txt" ||
	fail "lock.data: no text site 'wait_for_lock (lock.py) <- futex (GIL wait)'"
# the mixed view keeps the interpreter's frames: the GIL's own function
HOME=$tmp "$PERFAN_BIN" report --off-cpu --python mixed "${O[@]}" "$D/lock.data" >"$tmp/mixed.txt" 2>/dev/null ||
	fail "report --off-cpu --python mixed lock.data failed"
grep -Eq '^ +[0-9.]+  spin \(.*lock\.py\) <- take_gil \(GIL wait\)' "$tmp/mixed.txt" ||
	fail "lock.data --python mixed: no text site 'spin (lock.py) <- take_gil (GIL wait)'"

# the GIL section of report --off-cpu and --wall and of triage (text and
# HTML): each thread that waited for the GIL, its wait, its share of its
# life and its top holder, as perfan gil --json gives them; none (the
# report as before) for a recording without a GIL wait
HOME=$tmp "$PERFAN_BIN" gil --json "${O[@]}" "$D/gil-312-2.data" >"$tmp/gil.json" 2>/dev/null ||
	fail "perfan gil --json gil-312-2.data failed"
for view in --off-cpu --wall; do
	HOME=$tmp "$PERFAN_BIN" report $view "${O[@]}" "$D/gil-312-2.data" >"$tmp/gil$view.txt" 2>/dev/null ||
		fail "report $view gil-312-2.data failed"
done
HOME=$tmp "$PERFAN_BIN" triage --text "${O[@]}" "$D/gil-312-2.data" >"$tmp/triage.txt" 2>/dev/null ||
	fail "triage --text gil-312-2.data failed"
HOME=$tmp "$PERFAN_BIN" triage "${O[@]}" -o "$tmp/triage.html" "$D/gil-312-2.data" 2>/dev/null ||
	fail "triage gil-312-2.data failed"
if ! python3 - "$tmp" <<'PY'; then
import html, json, re, sys
tmp = sys.argv[1]
bad = 0
g = json.load(open(tmp + "/gil.json"))["gil"]["threads"]
# a row per thread, or per pool: its threads' figures summed (issue 35),
# each labelled as perfan gil --json names them
def unit(t):
    return (t["pid"], "pool", t["pool"]) if t["pool"] else (t["pid"], "tid", t["tid"])
members = {}
for t in g:
    members.setdefault(unit(t), []).append(t)
def label(u):
    ts = members[u]
    if len(ts) > 1:
        return "%s [pool of %d]" % (u[2], len(ts))
    return "%s %d/%d" % (ts[0]["name"], ts[0]["pid"], ts[0]["tid"])
by_tid = {t["tid"]: unit(t) for t in g}
want = {}
for u, ts in members.items():
    wait = sum(t["wait"] for t in ts)
    if not wait:
        continue
    life = sum(t["end"] - t["start"] for t in ts)
    held, total = {}, 0
    for t in ts:
        total += t["held_by_none"]
        for h in t["held_by"]:
            held[by_tid[h["tid"]]] = held.get(by_tid[h["tid"]], 0) + h["ns"]
            total += h["ns"]
    top = max(held, key=lambda v: held[v])
    want[label(u)] = (wait / 1e6, 100 * wait / life, label(top), 100 * held[top] / total)
if len(want) < 2 or not any("[pool of 2]" in k for k in want):
    print("FAIL: gil-312-2.data: rows that waited for the GIL %s, not the two crunch threads' pool and the others" % sorted(want))
    bad += 1
line = re.compile(r"^(?:# |  ) *([0-9.]+) +([0-9.]+)%  (.+?)  held by (.+) ([0-9.]+)%$")
for name in ("gil--off-cpu.txt", "gil--wall.txt", "triage.txt"):
    got = {}
    for l in open(tmp + "/" + name):
        m = line.match(l.rstrip("\n"))
        if m:
            got[m.group(3)] = (float(m.group(1)), float(m.group(2)),
                               m.group(4), float(m.group(5)))
    if sorted(got) != sorted(want):
        print("FAIL: %s: GIL section rows %s, perfan gil %s"
              % (name, sorted(got), sorted(want)))
        bad += 1
        continue
    for k, w in want.items():
        x = got[k]
        if abs(x[0] - w[0]) > 0.0011 or abs(x[1] - w[1]) > 0.051 or \
                x[2] != w[2] or abs(x[3] - w[3]) > 0.051:
            print("FAIL: %s: %s: %s, perfan gil %s" % (name, k, x, w))
            bad += 1
page = open(tmp + "/triage.html").read()
m = re.search(r'<table id="gil">(.*?)</table>', page, re.S)
rows = re.findall(r"<tr><td>([0-9.]+)</td><td>([0-9.]+)%</td><td "
                  r'class="l">([^<]*)</td><td class="l">([^<]*)</td>', m.group(1)) if m else []
if sorted(html.unescape(r[2]) for r in rows) != sorted(want) or \
        any(html.unescape(r[3]) != want[html.unescape(r[2])][2] for r in rows if html.unescape(r[2]) in want):
    print("FAIL: triage.html: GIL table rows %s, perfan gil %s"
          % ([r[2:] for r in rows], sorted(want.items())))
    bad += 1
sys.exit(1 if bad else 0)
PY
	fail "GIL sections: see above"
fi
for f in testdata/offcpu/perf.py.data testdata/offcpu/perf.data; do
	HOME=$tmp "$PERFAN_BIN" report --off-cpu --kallsyms testdata/offcpu/kallsyms \
		--symfs testdata/offcpu/symfs --perf-map-dir testdata/offcpu "$f" \
		>"$tmp/nogil.txt" 2>/dev/null || fail "report --off-cpu $f failed"
	grep -q "GIL: the threads" "$tmp/nogil.txt" && fail "report --off-cpu $f: a GIL section without GIL waits"
done
[ "$fails" -eq 0 ] || exit 1
echo "ok"
