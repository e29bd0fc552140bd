#!/bin/bash
# tests/cli/gpu_critical.sh: `perfan critical TRACE` (no --tid), the
# critical path of a GPU profiler's trace, against Holistic Trace
# Analysis's: on hta-critical-simple_add-a100 its critical events equal
# those HTA marked critical in its own output shipped beside the trace
# (...HTA-OUTPUT.json.gz, read here with python3's gzip and json), and its
# launch, dependency and sync edges equal HTA's flow arrows there (type,
# weight, both ends); on that trace and on hta-event_sync_multi_stream the
# length, the time per edge type and the events equal HTA's run here
# (testdata/kineto/hta/critical/, made by run_hta.py there), as on alexnet,
# event_sync and event_sync_multi_stream, whose event syncs and stream
# waits HTA follows through cudaEventRecord. Plus the CLI contract.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
D=$PEERDATA/kineto
HTA=testdata/kineto/hta/critical

. tests/tools/cli_common.sh

# ---- CLI contract (no peer data needed) ------------------------------------

"$BIN" critical --help | grep -q 'perfan critical \[--json\] \[-o FILE\] TRACE' ||
	fail "--help shows no TRACE usage"
printf 'not a trace\n' >"$tmp/text"
"$BIN" critical "$tmp/text" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q '^perfan critical: ' "$tmp/err" ||
	fail "a file that is no input is not 'perfan critical: ...' with status 1"
"$BIN" critical "$tmp/a" "$tmp/b" >/dev/null 2>&1
[ $? = 2 ] || fail "two files are not a usage error (2)"

if [ ! -d "$D" ]; then
	echo "skip: no $D"
	exit 77
fi

# ---- simple_add: HTA's own output file ------------------------------------

T=$D/hta-critical-simple_add-a100.json.gz
"$BIN" critical --json "$T" >"$tmp/sa.json" 2>"$tmp/err" ||
	fail "simple_add: status $?: $(cat "$tmp/err")"
python3 - "$T" "${T%.json.gz}.HTA-OUTPUT.json.gz" "$tmp/sa.json" >"$tmp/out" <<'PY'
import collections, gzip, json, sys
raw = json.load(gzip.open(sys.argv[1]))["traceEvents"]
hta = json.load(gzip.open(sys.argv[2]))["traceEvents"]
p = json.load(open(sys.argv[3]))["critical"]
bad = []
key = lambda name, ts, dur, tid: (name, ts, dur, tid)
want = {key(e["name"], e["ts"], e["dur"], e["tid"]) for e in hta
        if e.get("ph") == "X" and e.get("args", {}).get("critical") == 1}
# perfan's ns, the trace's whole us here
got = {key(e["name"], e["ts"] / 1000, e["dur"] / 1000, e["tid"])
       for e in p["events"] if e["on_path"]}
if got != want:
    bad.append("events: %d of HTA's %d, %d not HTA's: %s / %s" % (
        len(got & want), len(want), len(got - want),
        sorted(want - got)[:3], sorted(got - want)[:3]))
# HTA's arrows (its default edge types): an edge's ends at the node's time (an end less 1 us on a GPU)
flows = collections.defaultdict(dict)
for e in hta:
    if e.get("cat") == "critical_path":
        flows[e["id"]][e["ph"]] = e
want = collections.Counter(
    (f["s"]["args"]["type"], f["s"]["args"]["weight"], f["s"]["pid"],
     f["s"]["tid"], f["s"]["ts"], f["f"]["pid"], f["f"]["tid"], f["f"]["ts"])
    for f in flows.values())
byidx = {e["index"]: e for e in p["events"]}
rawof = {(e.get("name"), e.get("ts"), e.get("tid")): e for e in raw
         if e.get("ph") == "X"}
def end(idx, start):
    e = byidx[idx]
    r = rawof[(e["name"], e["ts"] / 1000, e["tid"])]
    if start:
        return r["pid"], r["tid"], r["ts"]
    t = r["ts"] + r["dur"]
    if r["args"].get("device", -1) >= 0:
        t -= min(1, r["dur"])
    return r["pid"], r["tid"], t
got = collections.Counter(
    (e["type"], e["weight"] // 1000) + end(e["from"], e["from_start"]) +
    end(e["to"], e["to_start"])
    for e in p["edges"] if e["type"] in (
        "critical_path_dependency", "critical_path_kernel_launch_delay",
        "critical_path_sync_dependency"))  # the arrows HTA draws
if got != want:
    bad.append("edges: %d of HTA's %d: missing %s, extra %s" % (
        sum((got & want).values()), sum(want.values()),
        list((want - got).elements())[:3], list((got - want).elements())[:3]))
print("\n".join(bad) or "ok %d events %d arrows" % (len(got), sum(want.values())))
PY
grep -q '^ok ' "$tmp/out" || fail "simple_add against HTA's output: $(cat "$tmp/out")"
checks=$((checks + 1))

# ---- HTA run here: length, time per edge type, events ----------------------

for n in hta-critical-simple_add-a100 hta-event_sync_multi_stream-a100 \
	hta-critical-alexnet-a100 hta-event_sync-a100; do
	"$BIN" critical --json "$D/$n.json.gz" >"$tmp/$n.json" 2>"$tmp/err" ||
		{ fail "$n: status $?: $(cat "$tmp/err")"; continue; }
	"$BIN" critical "$D/$n.json.gz" 2>/dev/null | grep -q '^Critical path: ' ||
		fail "$n: the text has no 'Critical path: ' line"
	python3 - "$HTA/$n.json" "$tmp/$n.json" >"$tmp/out" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))["critical"]
bad = []
if not 0 < p["length"] <= p["end"] - p["start"]:
    bad.append("length %d outside the trace's %d ns" % (p["length"], p["end"] - p["start"]))
if p["length"] != h["length"] * 1000:
    bad.append("length %d ns, HTA %d us" % (p["length"], h["length"]))
for t, w in h["by_type"].items():
    if p["by_type"][t] != w * 1000:
        bad.append("%s: %d ns, HTA %d us" % (t, p["by_type"][t], w))
want = {tuple(e) for e in h["events"]}
got = {(e["name"], e["ts"] / 1000, e["dur"] / 1000, e["tid"])
       for e in p["events"] if e["on_path"]}
if got != want:
    bad.append("events: %d of HTA's %d, %d more" % (
        len(got & want), len(want), len(got - want)))
print("\n".join(bad) or "ok")
PY
	grep -qx 'ok' "$tmp/out" || fail "$n against HTA: $(cat "$tmp/out")"
	checks=$((checks + 1))
done

[ "$fails" = 0 ] && echo "ok: gpu_critical: $checks checks"
[ "$fails" = 0 ]
