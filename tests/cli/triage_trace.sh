#!/usr/bin/env bash
# triage_trace.sh: perfan triage of a GPU profiler's trace: its GPU section
# is perfan gpu's analysis (the same verdict lines, busy, idle and wall
# time per step as perfan gpu --json), the GPU busy time equals an
# independent oracle (python3's json module merging the trace's kernels,
# copies and sets per step; a SQL query on the Nsight export), the CPU ops'
# self time equals the sum of their spans' durations where no span nests
# in them (python3 again), the page leaves out what applies only to a perf
# recording, and the HTML page has the same section. On testdata/torch and
# testdata/torch_planted (in the repo), then on ../shared/peer-data/kineto
# (skipped where absent).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check TRACE: the text page against perfan gpu and python3's reading
check() {
	local trace=$1
	"$PERFAN_BIN" triage --text "$trace" >"$tmp/triage.txt" 2>/dev/null
	"$PERFAN_BIN" gpu "$trace" >"$tmp/gpu.txt" 2>/dev/null
	"$PERFAN_BIN" gpu --json "$trace" >"$tmp/gpu.json" 2>/dev/null
	python3 - "$trace" "$tmp/triage.txt" "$tmp/gpu.txt" "$tmp/gpu.json" <<'PY'
import decimal, gzip, json, re, sqlite3, sys
D = decimal.Decimal
trace, triage, gpu_txt, gpu_json = sys.argv[1:]
text = open(triage).read()
bad = []
# what applies only to a perf recording is left out
for gone in ["On CPU or waiting", "Where the threads blocked",
             "What to record next", "max speedup", "not recorded"]:
    if gone in text:
        bad.append(f"the page has {gone!r}")
sec1 = text.split("\n1. The GPU, per step and device", 1)
sec2 = text.split("\n2. The CPU ops with the most self time\n", 1)
if len(sec1) < 2 or len(sec2) < 2:
    sys.exit(f"FAIL {trace}: sections missing:\n{text}")
gpu_section = sec1[1].split("\n2. ")[0]
# the same analysis: perfan gpu's verdict lines, its figures
verdicts = [l for l in open(gpu_txt).read().splitlines()
            if re.match(r"^\S.* on GPU -?\d+: ", l)]
mine = [l.strip() for l in gpu_section.splitlines()
        if re.match(r"^  \S.* on GPU -?\d+: ", l)]
if verdicts != mine:
    bad.append(f"verdict lines {mine} != perfan gpu's {verdicts}")
steps = json.load(open(gpu_json))["gpu"]["steps"]
figs = re.findall(r"wall ([0-9.]+) ms; GPU busy ([0-9.]+) ms \(([0-9.]+) %\), "
                  r"idle ([0-9.]+) ms \(([0-9.]+) %\)", gpu_section)
if len(figs) != len(steps):
    bad.append(f"{len(figs)} steps shown, perfan gpu has {len(steps)}")
for s, f in zip(steps, figs):
    for key, got in zip(["wall_us", "busy_us", "idle_us"], [f[0], f[1], f[3]]):
        if abs(float(got) - s[key] / 1000) > 0.0006:
            bad.append(f"{s['name']} {key}: {got} ms, perfan gpu {s[key]} us")
if not steps and "no GPU work in the trace" not in gpu_section:
    bad.append("no steps, and the section does not say so")
# independent: the device's kernels, copies and sets merged, cut to each step
def merged(iv, lo, hi):
    total, end = D(0), None
    for s, e in sorted(iv):
        s, e = max(s, lo), min(e, hi)
        if e <= s:
            continue
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total
work, step_spans, spans = {}, [], []
if trace.endswith(".sqlite"):
    db = sqlite3.connect(trace)
    for t in ["KERNEL", "MEMCPY", "MEMSET"]:
        try:
            rows = db.execute(f"SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_{t}").fetchall()
        except sqlite3.OperationalError:
            continue  # the export has no such table
        for d, s, e in rows:
            work.setdefault(d, []).append((D(s) / 1000, D(e) / 1000))
else:
    opener = gzip.open if trace.endswith(".gz") else open
    doc = json.load(opener(trace), parse_float=D)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    for e in events:
        if e.get("ph") != "X":
            continue
        ts, dur = D(e["ts"]), D(e.get("dur", 0))
        cat = str(e.get("cat", "")).lower()
        if cat in ("kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset"):
            dev = e.get("args", {}).get("device", e.get("pid"))
            work.setdefault(int(dev), []).append((ts, ts + dur))
        elif cat in ("cpu_op", "user_annotation", "python_function",
                     "cuda_runtime", "cuda_driver", "operator", "runtime", ""):
            spans.append((str(e.get("pid")), str(e.get("tid")), ts, dur, e["name"]))
        if re.match(r"^ProfilerStep#[0-9]+", e.get("name", "")) and cat != "gpu_user_annotation":
            step_spans.append((e["name"], ts, ts + dur))
for s, f in zip(steps, figs):
    iv = work.get(s["device"], [])
    if s["name"] is None:
        lo, hi = D(-10**30), D(10**30)  # the whole trace
    else:
        lo, hi = [(a, b) for n, a, b in step_spans if n == s["name"]][0]
    busy = merged(iv, lo, hi)
    if abs(D(f[1]) - busy / 1000) > D("0.0006"):
        bad.append(f"{s['name']}: GPU busy {f[1]} ms, the trace's work merged {busy / 1000} ms")
# the CPU ops: a span nothing nests in weighs its duration; an op all of
# whose spans are such, the sum (json traces; the autograd layout's
# "CPU functions" too)
ops = re.findall(r"^ +([0-9.]+) +[0-9.]+%  (.*)$", sec2[1].split("\n\n")[0], re.M)
if not ops:
    bad.append("no CPU ops listed")
if spans:
    by_thread = {}
    for p, t, ts, dur, name in spans:
        by_thread.setdefault((p, t), []).append((ts, dur, name))
    leaf_ok, dur_sum = {}, {}
    for v in by_thread.values():
        v.sort(key=lambda x: (x[0], -x[1]))
        for i, (ts, dur, name) in enumerate(v):
            nested = i + 1 < len(v) and v[i + 1][0] < ts + dur
            leaf_ok[name] = leaf_ok.get(name, True) and not nested and dur > 0
            dur_sum[name] = dur_sum.get(name, D(0)) + dur
    checked = 0
    for got, name in ops:
        if leaf_ok.get(name):
            checked += 1
            if abs(D(got) - dur_sum[name] / 1000) > D("0.0006"):
                bad.append(f"CPU op {name}: {got} ms, its spans {dur_sum[name] / 1000} ms")
    if not checked:
        bad.append("no CPU op of the list could be checked")
for b in bad[:12]:
    print(f"FAIL {trace}:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# the HTML page of TRACE: the GPU section's verdicts, the two flame graphs
check_html() {
	local trace=$1
	"$PERFAN_BIN" triage -o "$tmp/page.html" "$trace" 2>/dev/null
	"$PERFAN_BIN" gpu "$trace" >"$tmp/gpu.txt" 2>/dev/null
	python3 - "$tmp/page.html" "$tmp/gpu.txt" <<'PY'
import html, re, sys
page = open(sys.argv[1]).read()
bad = []
for want in ['<section id="summary"', '<section id="gpu"', '<section id="plateaus"',
             'id="fg-cpu"']:
    if want not in page:
        bad.append(f"no {want}")
for gone in ['id="on-cpu"', 'id="blocking"', 'id="next"', 'id="fg-wait"']:
    if gone in page:
        bad.append(f"has {gone}")
text = html.unescape(re.sub(r"<[^>]*>", "", page))
for l in open(sys.argv[2]).read().splitlines():
    m = re.match(r"^\S.* on GPU -?\d+: (.*)$", l)
    if m and m.group(1) not in text:
        bad.append(f"verdict missing: {m.group(1)}")
    if m and "waiting for the host" in l and 'id="fg-gpu-idle"' not in page:
        bad.append("no flame graph of the GPU's idle time")
for b in bad:
    print("FAIL html:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

for t in testdata/torch/decode.json testdata/torch/mlp.json; do
	check "$t"
done
check_html testdata/torch/decode.json
# the planted trace: its one gap is load_batch's (testdata/torch_planted/
# NOTES), its kernels 90 and 80 us
planted=testdata/torch_planted/profiler_frames.json
check "$planted"
check_html "$planted"
"$PERFAN_BIN" triage --text "$planted" >"$tmp/planted.txt"
grep -q "^  \[1\] ProfilerStep#1 on GPU 0: CPU-bound: .*, mostly in train.py(20): load_batch\.$" "$tmp/planted.txt" ||
	{ echo "FAIL: the planted trace's verdict" >&2; cat "$tmp/planted.txt" >&2; exit 1; }
grep -q "GPU busy 0.170 ms (17.0 %)" "$tmp/planted.txt" ||
	{ echo "FAIL: the planted trace's busy time" >&2; exit 1; }

peer=${PERFAN_PEERDATA:-../shared/peer-data}/kineto
if [ ! -d "$peer" ]; then
	echo "SKIP (peer traces): $peer is absent"
	exit 0
fi
for t in hta-ns_resolution-v100-2024.pt.trace.json.gz \
	tb-resnet50-workers0-v100-2021.pt.trace.json.gz \
	hta-critical-simple_add-a100.json.gz nsys-saxpy-mpi-cuda-2022.2.sqlite; do
	check "$peer/$t"
done
check_html "$peer/hta-ns_resolution-v100-2024.pt.trace.json.gz"
# --step and --device reach the GPU analysis as perfan gpu's do
v100=$peer/hta-ns_resolution-v100-2024.pt.trace.json.gz
for args in "--step ProfilerStep#10[24]" "--device 0" "--device 1"; do
	# shellcheck disable=SC2086
	"$PERFAN_BIN" triage --text $args "$v100" 2>/dev/null |
		sed -n 's/^  \([^[ ].* on GPU [0-9]*: .*\)$/\1/p' >"$tmp/steps.triage"
	# shellcheck disable=SC2086
	"$PERFAN_BIN" gpu $args "$v100" 2>/dev/null | grep -E '^\S.* on GPU [0-9]+: ' >"$tmp/steps.gpu" || true
	if ! diff "$tmp/steps.gpu" "$tmp/steps.triage" >&2; then
		echo "FAIL: triage $args: not perfan gpu $args's steps" >&2
		exit 1
	fi
done
[ "$(wc -l <"$tmp/steps.gpu")" = 0 ] || { echo "FAIL: --device 1 has steps" >&2; exit 1; }
echo ok
