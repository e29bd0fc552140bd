#!/usr/bin/env bash
# gpu_profiler_frames.sh: the function a step's GPU idle time is charged to
# ("mostly in FUNCTION") and the charged stacks never name torch's own
# profiler frames (torch/profiler/..., torch/autograd/profiler*.py:
# record_function's __enter__, a profile's step) nor a user_annotation: the
# time is the nearest real frame's below them. Planted traces in
# testdata/torch_planted/ (their ground truth below, from how they were
# made); on ../shared/peer-data/kineto (skipped where absent) the 2021
# ResNet-50 trace, whose `Call stack`s hold record_function's frames, and
# the 2024 V100 trace, whose host waits fall in record_function ranges.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
planted=testdata/torch_planted
# the gap [100 us, 620 us) of profiler_frames.json: load_batch runs from
# 100 to 600 us, record_function's __enter__ (and what it called) from 150
# to 450 us and profile.step from 460 to 540 us inside it: all 500 us are
# load_batch's; the launch call's 20 us are <module>'s
"$PERFAN_BIN" gpu --json "$planted/profiler_frames.json" >"$tmp/py.json"
"$PERFAN_BIN" gpu --folded "$planted/profiler_frames.json" >"$tmp/py.folded"
# annotation.json: "## forward ##" (a record_function range) is the
# innermost span from 100 to 120 us and 200 to 600 us; aten::linear from
# 120 to 200 us under it is the only real frame: 80 us
"$PERFAN_BIN" gpu --json "$planted/annotation.json" >"$tmp/ann.json"
python3 - "$tmp/py.json" "$tmp/py.folded" "$tmp/ann.json" <<'PY'
import json, sys
py = json.load(open(sys.argv[1]))["gpu"]["steps"][0]
ann = json.load(open(sys.argv[3]))["gpu"]["steps"][0]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: {got!r}, want {exp!r}")
want("profiler_frames function", py["function"], "train.py(20): load_batch")
want("profiler_frames function_us", py["function_us"], 500)
want("profiler_frames longest gap", py["longest_gaps"][0]["function"],
     "train.py(20): load_batch")
folded = {}
for line in open(sys.argv[2]):
    stack, ns = line.rsplit(" ", 1)
    folded[stack.split(";", 1)[1]] = int(ns)
want("profiler_frames stacks", folded,
     {"train.py(10): <module>;train.py(20): load_batch": 500000,
      "train.py(10): <module>": 30000})
want("annotation function", ann["function"], "aten::linear")
want("annotation function_us", ann["function_us"], 80)
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
peer=${PERFAN_PEERDATA:-../shared/peer-data}/kineto
if [ ! -d "$peer" ]; then
	echo "SKIP (peer traces): $peer is absent"
	exit 0
fi
resnet=$peer/tb-resnet50-workers0-v100-2021.pt.trace.json.gz
v100=$peer/hta-ns_resolution-v100-2024.pt.trace.json.gz
"$PERFAN_BIN" gpu --json "$resnet" >"$tmp/resnet.json" 2>/dev/null
"$PERFAN_BIN" gpu --folded "$resnet" >"$tmp/resnet.folded" 2>/dev/null
"$PERFAN_BIN" gpu --json "$v100" >"$tmp/v100.json" 2>/dev/null
python3 - "$resnet" "$tmp/resnet.json" "$tmp/resnet.folded" "$v100" "$tmp/v100.json" <<'PY'
import gzip, json, re, sys
prof = re.compile(r"(^|/)torch/(profiler/|autograd/profiler[^/]*\.py\()")
trace = json.load(gzip.open(sys.argv[1]))["traceEvents"]
# python3's own reading: the trace has record_function's frames where the
# GPU waits, or this test could not fail
frames = [f for e in trace for f in e.get("args", {}).get("Call stack", "").split(";")
          if prof.search(f)]
bad = []
if not frames:
    bad.append("the ResNet-50 trace has no torch profiler frame")
steps = json.load(open(sys.argv[2]))["gpu"]["steps"]
names = [s["function"] for s in steps] + \
        [g["function"] for s in steps for g in s["longest_gaps"]]
names = [n for n in names if n]
if not names:
    bad.append("ResNet-50: no function named")
for n in names:
    if prof.search(n):
        bad.append(f"ResNet-50: a profiler frame is a function: {n}")
for line in open(sys.argv[3]):
    for f in line.rsplit(" ", 1)[0].split(";"):
        if prof.search(f):
            bad.append(f"ResNet-50: a profiler frame in a charged stack: {f}")
            break
v100 = json.load(gzip.open(sys.argv[4]))["traceEvents"]
annotations = {e["name"] for e in v100 if e.get("cat") == "user_annotation"}
steps = json.load(open(sys.argv[5]))["gpu"]["steps"]
named = 0
for s in steps:
    for n in [s["function"]] + [g["function"] for g in s["longest_gaps"]]:
        named += n is not None
        if n in annotations:
            bad.append(f"V100: a user_annotation is a function: {n}")
if not named:
    bad.append("V100: no function named")
for b in bad[:10]:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "ok"
