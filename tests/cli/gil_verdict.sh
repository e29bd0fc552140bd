#!/usr/bin/env bash
# gil_verdict.sh: classify's software verdict says GIL-bound when a Python
# process's computing threads wait mostly for the GIL (issue 34). On
# testdata/gil-stat (perf stat and perf record of one run of gil.py: two
# CPU-bound threads and a latency thread): the counters alone say
# cpu-bound; with the recording (classify --perf-data, triage --stat) the
# verdict is GIL-bound, with each CPU thread's GIL wait as evidence,
# within 5 points of its life the thread did not run (its own wall minus
# thread_time in gil.out); a recording without GIL waits leaves a
# verdict as it was.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/gil-stat
. tests/tools/cli_common.sh
O=(--kallsyms testdata/gil/kallsyms --symfs testdata/gil/symfs --perf-map-dir "$D"
	--buildid-dir "$tmp/no-cache")
run() { # OUT perfan ARGS...: fails unless it exits 0
	local out=$1
	shift
	HOME=$tmp "$PERFAN_BIN" "$@" >"$out" 2>"$tmp/err" ||
		fail "perfan $*: exit $?: $(head -c 300 "$tmp/err")"
}
run "$tmp/alone.txt" classify "$D/stat.txt"
grep -q '^whole: cpu-bound' "$tmp/alone.txt" ||
	fail "classify stat.txt: not cpu-bound alone: $(head -1 "$tmp/alone.txt")"
run "$tmp/gil.json" classify --json --perf-data "$D/perf.data" "$D/stat.txt"
run "$tmp/gil.txt" classify --perf-data "$D/perf.data" "$D/stat.txt"
grep -q '^whole: GIL-bound' "$tmp/gil.txt" ||
	fail "classify --perf-data: not GIL-bound: $(head -1 "$tmp/gil.txt")"
if ! python3 - "$tmp/gil.json" "$D/gil.out" <<'PY'; then
import json, re, sys
doc = json.load(open(sys.argv[1]))
groups = [g for g in doc["groups"] if g.get("whole")]
bad = 0
if len(groups) != 1 or groups[0]["verdict"] != "GIL-bound":
    sys.exit("FAIL: whole groups %s, want one GIL-bound"
             % [g["verdict"] for g in groups])
ev = {}
for e in groups[0]["evidence"]:
    if e["metric"] == "gil_wait_of_life":
        m = re.match(r"\S+ \d+/(\d+) waited ([0-9.]+) ms", e["rule"])
        ev[int(m.group(1))] = (e["value"], float(m.group(2)))
for line in open(sys.argv[2]):
    p = line.split()
    if not p[0].startswith("cpu_"):
        continue
    tid, cpu, wall = int(p[1]), float(p[2]), float(p[3])
    if tid not in ev:
        print("FAIL: %s (%d) is not in the evidence %s" % (p[0], tid, ev))
        bad += 1
        continue
    want = (wall - cpu) / wall
    if abs(ev[tid][0] - want) > 0.05:
        print("FAIL: %s: GIL wait %.3f of its life, it did not run %.3f"
              % (p[0], ev[tid][0], want))
        bad += 1
sys.exit(1 if bad else 0)
PY
	fail "classify --perf-data: see above"
fi
run "$tmp/triage.txt" triage --text --stat "$D/stat.txt" "${O[@]}" "$D/perf.data"
grep -q '^  GIL-bound (confidence' "$tmp/triage.txt" ||
	fail "triage --stat: no GIL-bound verdict: $(grep -A2 '^4\.' "$tmp/triage.txt")"
# without GIL waits the verdict stays: a recording of C threads
run "$tmp/c.txt" classify --perf-data testdata/offcpu/perf.data testdata/perf-stat-local/sleep.txt
run "$tmp/c0.txt" classify testdata/perf-stat-local/sleep.txt
cmp -s "$tmp/c.txt" "$tmp/c0.txt" ||
	fail "classify --perf-data without GIL waits changed the verdict: $(diff "$tmp/c0.txt" "$tmp/c.txt" | head -5)"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
