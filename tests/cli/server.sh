#!/usr/bin/env bash
# server.sh: testdata/server (issue 35's done-when), a threaded Python HTTP
# server (main, a server thread, an engine thread, 8 clients, 300 handler
# threads) recorded with --switch-events, sched events and DWARF, with
# each thread's thread_time() and role written by the workload itself
# (truth.txt) and every thread's switch-in to switch-out time summed from
# perf's own script (oncpu.txt). The thread table has at most 15 rows, the
# 300 handlers one pool, every thread named by its role's function; each
# thread's on-CPU time equals perf's switch records to 0.1 %, and the
# engine's and the handlers' pool's equal their thread_time() within 2 %
# (the others switch in 450 to 1600 times, and each switch-in costs a
# thread 6 to 11 us that no record brackets: testdata/server/NOTES.md);
# the exports carry the names.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/server
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")

HOME=$tmp "$PERFAN_BIN" report --wall --json "${O[@]}" "$D/server.data" >"$tmp/r.json" 2>"$tmp/err" ||
	fail "report --wall --json: $(head -c 300 "$tmp/err")"
HOME=$tmp "$PERFAN_BIN" report --wall "${O[@]}" "$D/server.data" >"$tmp/r.txt" 2>"$tmp/err" ||
	fail "report --wall: $(head -c 300 "$tmp/err")"
HOME=$tmp "$PERFAN_BIN" convert --wall "${O[@]}" "$D/server.data" -o "$tmp/s.speedscope.json" 2>/dev/null ||
	fail "convert --wall to speedscope"
HOME=$tmp "$PERFAN_BIN" convert --event cpu-clock "${O[@]}" "$D/server.data" -o "$tmp/c.speedscope.json" 2>/dev/null ||
	fail "convert to speedscope"
zstd -q -dc "$D/script.txt.zst" >"$tmp/script.txt" || fail "zstd: $D/script.txt.zst"
if ! python3 - "$D" "$tmp" <<'PY'; then
import json, re, sys
d, tmp = sys.argv[1:3]
bad = 0
def check(cond, msg):
    global bad
    if not cond:
        print("FAIL:", msg)
        bad += 1
truth, switch = {}, {}
for line in open(d + "/truth.txt"):
    if not line.startswith("#"):
        role, tid, name, ns = line.split()
        truth[int(tid)] = (role, int(ns))
for line in open(d + "/oncpu.txt"):
    w = line.split()
    if len(w) == 6 and w[1].isdigit():
        switch[int(w[1])] = int(w[4])
# the workload's roles and the functions server.py starts them on
src = open(d + "/server.py").read()
funcs = {"engine": "engine_loop", "server": "serve", "client": "client_loop"}
for role, fn in funcs.items():
    check(re.search(r"target=%s\b" % fn, src), "server.py starts no thread on %s" % fn)
rep = json.load(open(tmp + "/r.json"))["per_thread"]
th = {t["tid"]: t for t in rep["threads"]}
pools = rep["pools"]
check(set(th) == set(truth), "threads %d, the workload had %d" % (len(th), len(truth)))
units = len(pools) + sum(1 for t in th.values() if t["pool"] is None)
check(units <= 15, "%d rows in the thread table" % units)
handlers = sorted(t for t, (r, _) in truth.items() if r == "handler")
check(len(handlers) == 300, "%d handlers in truth.txt" % len(handlers))
hp = [p for p in pools if p["threads"] == 300]
check(len(hp) == 1 and hp[0]["name"].endswith("process_request_thread"),
      "no pool of the 300 handlers: %r" % [(p["name"], p["threads"]) for p in pools])
if hp:
    k = pools.index(hp[0])
    check(sorted(t for t, r in th.items() if r["pool"] == k) == handlers,
          "the handlers' pool is not the handler threads")
for tid, (role, ns) in truth.items():
    t = th.get(tid)
    if not t:
        continue
    want = funcs.get(role, "main" if role == "main" else None)
    if role != "handler":
        check(t["role"] == want, "thread %d (%s) role %r, not %r" % (tid, role, t["role"], want))
    sw = switch[tid]
    check(abs(t["on_cpu"] - sw) <= max(0.001 * sw, 1000),
          "thread %d (%s) on-CPU %.3f ms, perf's switch records %.3f ms" % (tid, role, t["on_cpu"] / 1e6, sw / 1e6))
eng = [t for t, (r, _) in truth.items() if r == "engine"][0]
got, want = th[eng]["on_cpu"], truth[eng][1]
check(abs(got - want) <= 0.02 * want, "engine on-CPU %.1f ms, thread_time() %.1f ms" % (got / 1e6, want / 1e6))
if hp:
    got, want = hp[0]["on_cpu"], sum(truth[t][1] for t in handlers)
    check(abs(got - want) <= 0.02 * want, "handlers' on-CPU %.1f ms, thread_time() %.1f ms" % (got / 1e6, want / 1e6))
# the text table: the same rows
txt = open(tmp + "/r.txt").read().split("\n")
i = next(i for i, l in enumerate(txt) if l.startswith("# ....."))
rows = [l for l in txt[i + 1:] if l and not l.startswith("#")]
rows = rows[:next((j for j, l in enumerate(txt[i + 1:]) if l.startswith("#")), len(rows))]
check(len(rows) == units, "%d text rows, %d in the JSON" % (len(rows), units))
check(any(re.search(r"process_request_thread \[pool of 300\] \d+", l) for l in rows), "no text row for the pool")
check(any(re.search(r" engine_loop \d+/%d " % eng, l) for l in rows), "no text row named engine_loop")
# speedscope, of wall time (every thread has its switch stacks): a profile
# per thread, named by its function, every handler by its pool's
names = [p["name"] for p in json.load(open(tmp + "/s.speedscope.json"))["profiles"]]
check(any(n.startswith("engine_loop-") and n.endswith("/%d" % eng) for n in names),
      "speedscope: no engine_loop profile: %r" % names[:6])
named = {int(n.rsplit("/", 1)[1]) for n in names if "process_request_thread-" in n}
check(named == set(handlers), "speedscope: %d of %d handlers named by their function"
      % (len(named & set(handlers)), len(handlers)))
# of the cpu-clock samples alone: a handler runs ~2 ms, so at 499 Hz only
# some have a sample (perf script says which), and a few of those only
# stacks cut short, named by the comm
sampled = set()
for line in open(tmp + "/script.txt", errors="replace"):
    w = line.split()
    if len(w) >= 5 and w[4].startswith("cpu-clock") and w[1].isdigit():
        sampled.add(int(w[1]))
names = [p["name"] for p in json.load(open(tmp + "/c.speedscope.json"))["profiles"]]
tids = {int(n.rsplit("/", 1)[1]) for n in names}
named = {int(n.rsplit("/", 1)[1]) for n in names if "process_request_thread-" in n}
want = sampled & set(handlers)
check(tids & set(handlers) == want and len(named) >= 0.8 * len(want),
      "speedscope of cpu-clock: %d handlers named by their function, %d have cpu-clock samples, %d profiles"
      % (len(named), len(want), len(tids & set(handlers))))
sys.exit(1 if bad else 0)
PY
	fail "testdata/server's threads"
fi
[ $fails -eq 0 ] && echo "server: ok"
[ $fails -eq 0 ]
