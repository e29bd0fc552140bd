#!/usr/bin/env bash
# gpu_hta.sh: perfan gpu --hta-compat equals Holistic Trace Analysis on every
# Kineto trace of ../shared/peer-data/kineto: the temporal breakdown (idle,
# compute, non-compute in us within 1 us, their % within 0.01 points), the
# idle-time breakdown per stream (us, ratio, and the gaps counted per class)
# and the launch statistics rows (correlation, CPU duration, GPU duration,
# launch delay: the same multiset). HTA's own numbers are in
# testdata/kineto/hta/ (run_hta.py and COMMAND there made them); where HTA
# failed, the error is recorded there and perfan must still give a result.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
peer=${PERFAN_PEERDATA:-../shared/peer-data}/kineto
if [ ! -d "$peer" ]; then
	echo "SKIP: $peer is absent"
	exit 77
fi
# a perfan built without a Kineto reader says so for every trace
said=$("$PERFAN_BIN" gpu "$peer/hta-call_stack-backward_thread.json" 2>&1 >/dev/null || true)
if grep -q "is not a GPU profiler's trace" <<<"$said"; then
	echo "SKIP: this perfan reads no Kineto trace"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for want in testdata/kineto/hta/*.json; do
	trace=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"])' "$want")
	if [ ! -f "$peer/$trace" ]; then
		echo "FAIL: $peer/$trace is missing" >&2
		fail=1
		continue
	fi
	if ! "$PERFAN_BIN" gpu --hta-compat --json "$peer/$trace" >"$tmp/out.json" 2>"$tmp/err"; then
		echo "FAIL: perfan gpu --hta-compat $trace: $(cat "$tmp/err")" >&2
		fail=1
		continue
	fi
	if ! python3 - "$tmp/out.json" "$want" <<'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))["gpu"]
hta = json.load(open(sys.argv[2]))
name = hta["trace"]
bad = []

def close(a, b, what, tol):
    if abs(a - b) > tol:
        bad.append("%s: perfan %s, HTA %s" % (what, a, b))

t = hta.get("temporal")
o = ours["temporal"]
if isinstance(t, list):
    t = t[0]
    close(o["idle_us"], t["idle_time(us)"], "idle us", 1)
    close(o["compute_us"], t["compute_time(us)"], "compute us", 1)
    close(o["non_compute_us"], t["non_compute_time(us)"], "non-compute us", 1)
    close(o["total_us"], t["kernel_time(us)"], "kernel time us", 1)
    tot = o["total_us"]
    for k, h in (("idle_us", "idle_time_pctg"),
                 ("compute_us", "compute_time_pctg"),
                 ("non_compute_us", "non_compute_time_pctg")):
        close(round(100 * o[k] / tot, 2) if tot else 0, t[h], h, 0.01)
elif o["total_us"] != 0:
    bad.append("HTA had no temporal breakdown (%s), perfan has GPU time" % t["error"])

i = hta.get("idle")
streams = {s["stream"]: s for s in ours["streams"]}
if len(streams) != len(ours["streams"]):
    bad.append("a stream number on two devices: HTA's rows cannot tell them apart")
if isinstance(i, list):
    seen = set()
    for r in i:
        s = streams.get(r["stream"])
        if s is None:
            bad.append("stream %s: not in perfan's" % r["stream"])
            continue
        seen.add(r["stream"])
        cls = s["idle"][r["idle_category"]]
        close(cls["us"], r["idle_time"], "stream %s %s us" % (r["stream"], r["idle_category"]), 1)
        tot = sum(v["us"] for v in s["idle"].values())
        if r["idle_time_ratio"] is not None:
            close(round(cls["us"] / tot, 2), r["idle_time_ratio"],
                  "stream %s %s ratio" % (r["stream"], r["idle_category"]), 0.01)
    for r in hta["idle_stats"]:
        s = streams.get(r["stream"])
        if s is not None:
            close(s["idle"][r["idle_category"]]["gaps"], r["count"],
                  "stream %s %s gaps" % (r["stream"], r["idle_category"]), 0)
    for st in streams:
        if st not in seen:
            bad.append("stream %s: not in HTA's" % st)
elif streams:
    bad.append("HTA had no idle breakdown (%s), perfan has streams" % i["error"])

l = hta.get("launch")
if isinstance(l, list):
    h = sorted(tuple(x) for x in l)
    p = sorted(tuple(x) for x in ours["launches"])
    if h != p:
        bad.append("launch rows: HTA %d, perfan %d, first differing %s / %s" % (
            len(h), len(p), next((x for x in h if x not in set(p)), None),
            next((x for x in p if x not in set(h)), None)))
for b in bad:
    print("%s: %s" % (name, b), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
		echo "FAIL: $trace differs from HTA" >&2
		fail=1
	fi
	n=$((n + 1))
done
[ "$n" -ge 12 ] || { echo "FAIL: only $n traces compared" >&2; fail=1; }
exit $fail
