#!/usr/bin/env bash
# filters.sh: every filter means the same in every command (issue 33). On
# the threaded recording testdata/offcpu/perf.data (8 threads of one
# process; sched_switch, sched_wakeup and cpu-clock/freq=999/), for each of
# report, collapse, flamegraph, convert, annotate, triage, diff and
# scaling, --pid, --tid, --comm, --time, --cpu and --event keep the same
# samples, and as many as perf script keeps with the same filter; report's
# and triage's per-thread tables list only the threads kept, their times
# cut to the window; the off-CPU time of report, collapse and triage
# agree; --event takes a unique prefix and names the file's events when it
# matches none or several (exit status 1); collapse's bare --tid names
# roots while --tid=TID filters.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/offcpu
F=$D/perf.data
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")
pf() { HOME=$tmp "$PERFAN_BIN" "$@"; }
sum_folded() { awk '{s += $NF} END {print s + 0}'; }
# the weight of the root "all" of a flame graph's SVG
root_w() { grep -o 'data-w="[0-9]*" data-d="0"><title>all<' | head -1 |
	grep -o '[0-9][0-9]*' | head -1; }
# ... of triage's graph of on-CPU (fg-cpu) or off-CPU (fg-wait) time
triage_w() { sed -n "/id=\"$1\"/,/<\/iframe>\|id=\"fg-wait\"/p" | root_w; }
json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

# The samples CMD keeps with filters ARGS..., as a number, each command
# read its own way: report's, annotate's, diff's and scaling's JSON
# totals, collapse's and convert's folded counts, the root of the flame
# graph and of triage's on-CPU graph.
count() {
	local cmd=$1
	shift
	case $cmd in
	report) pf report --json --samples "${O[@]}" "$@" "$F" |
		json 'sum(c["total"] for c in d["columns"])' ;;
	collapse) pf collapse --samples "${O[@]}" "$@" "$F" | sum_folded ;;
	flamegraph) pf flamegraph --samples "${O[@]}" "$@" "$F" | root_w ;;
	convert) pf convert --samples --to folded -o - "${O[@]}" "$@" "$F" |
		sum_folded ;;
	annotate) # exit status 1 when no function it counted has code (the
		# kernel's, for tracepoints): the count is what matters here
		{ pf annotate --json "${O[@]}" "$@" "$F" || true; } |
			json 'd["total_samples"]' ;;
	triage) pf triage --samples "${O[@]}" "$@" "$F" | triage_w fg-cpu ;;
	diff) pf diff --json --samples "${O[@]}" "$@" "$F" "$F" |
		json 'd["after"]["totals"][0]' ;;
	scaling) pf scaling --json --samples "${O[@]}" "$@" 1:"$F" 2:"$F" |
		json 'd["runs"][0]["total"]' ;;
	esac
}
cmds=(report collapse flamegraph convert annotate triage diff scaling)

# perf script's count of EVENT's samples with perf's FILTERS ("--tid=8735
# --time=A,B"), the oracle; "" when perf is not here
W=5981.8,5981.9 # 100 ms in the middle of the run
perf_count() {
	local event=$1 filter=$2
	command -v perf >/dev/null || return 0
	case $filter in
	--cpu=*) # perf script --cpu wants every event to record the CPU
		perf script -i "$F" -F trace:cpu,event 2>/dev/null |
			grep -c "^ *\[0*${filter#--cpu=}\] *$event:" || true ;;
	*) perf script -i "$F" $filter -F event 2>/dev/null |
		grep -c "^ *$event:" || true ;;
	esac
}

# 1. each filter, in every command: the same count, and perf's
# (testdata/multi-thread-fork: a process that forks, for --pid)
M=testdata/multi-thread-fork/perf.data
cases=(
	"$F|cpu-clock/freq=999/|--event=cpu-clock|"
	"$M|cpu-clock|--event=cpu-clock --pid=7440|--pid=7440"
	"$F|cpu-clock/freq=999/|--event=cpu --tid=8735|--tid=8735"
	"$F|cpu-clock/freq=999/|--event=cpu --comm=disk|--comm=disk"
	"$F|cpu-clock/freq=999/|--event=cpu --time=$W|--time=$W"
	"$F|sched:sched_switch|--event=sched:sched_s --cpu=1|--cpu=1"
	"$F|sched:sched_wakeup|--event=sched:sched_w --tid=8734|--tid=8734"
	"$F|sched:sched_switch|--event=sched:sched_switch --comm=spinner --time=5981.9,|--comm=spinner --time=5981.9,"
)
for c in "${cases[@]}"; do
	IFS='|' read -r file event args pfilter <<<"$c"
	read -ra A <<<"$args"
	want=$(F=$file perf_count "$event" "$pfilter")
	first=
	for cmd in "${cmds[@]}"; do
		checks=$((checks + 1))
		got=$(F=$file count "$cmd" "${A[@]}" 2>"$tmp/err") ||
			{ fail "$cmd $args: exit status $?: $(head -c 300 "$tmp/err")"; continue; }
		[ -n "$first" ] || first=$got
		if [ "$got" != "$first" ]; then
			fail "$cmd $args keeps $got samples, report $first"
		elif [ -n "$want" ] && [ "$got" != "$want" ]; then
			fail "$cmd $args keeps $got samples, perf script $pfilter $want"
		fi
	done
	echo "  $args: $first samples (perf script: ${want:-not compared})"
	# a filter that keeps nothing out, or everything, checks nothing
	if [ "$args" != --event=cpu-clock ] &&
		{ [ "$first" = 346 ] || [ "$first" = 397 ] || [ "$first" = 0 ]; }; then
		fail "$args keeps every sample or none"
	fi
done

# 2. report's per-thread table (--off-cpu, --wall): only the threads the
# filter keeps, alive in the window, and their times add up to the
# profile's total (the same filter on both); collapse's off-CPU time is
# report's, and triage's off-CPU graph and thread table say the same
tcases=("--tid=8734" "--pid=8720" "--comm=disk" "--time=$W"
	"--tid=8735 --time=5981.9," "--cpu=0" "--comm=nosuch")
for args in "${tcases[@]}"; do
	read -ra A <<<"$args"
	for view in --off-cpu --wall; do
		checks=$((checks + 1))
		pf report --json $view "${O[@]}" "${A[@]}" "$F" >"$tmp/r.json" 2>"$tmp/err" ||
			{ fail "report $view $args: $(head -c 300 "$tmp/err")"; continue; }
		pf collapse $view "${O[@]}" "${A[@]}" "$F" 2>/dev/null | sum_folded >"$tmp/c"
		python3 - "$tmp/r.json" "$args" "$view" "$(cat "$tmp/c")" <<'PY' || fail "report $view $args: thread table"
import json, sys
d = json.load(open(sys.argv[1]))
args = dict(a[2:].split("=", 1) for a in sys.argv[2].split())
view, folded = sys.argv[3], int(sys.argv[4])
rows = d["per_thread"]["threads"]
total = sum(c["total"] for c in d["report"]["columns"])
bad = []
lo = hi = None
if "time" in args:
    a, b = args["time"].split(",")
    lo = round(float(a) * 1e9) if a else None
    hi = round(float(b) * 1e9) if b else None
for r in rows:
    if "tid" in args and r["tid"] != int(args["tid"]):
        bad.append("tid %d" % r["tid"])
    if "pid" in args and r["pid"] != int(args["pid"]):
        bad.append("pid %d" % r["pid"])
    if "comm" in args and r["comm"] != args["comm"]:
        bad.append("comm %s" % r["comm"])
    if lo is not None and r["start"] < lo or hi is not None and r["end"] > hi:
        bad.append("%d lives %d..%d" % (r["tid"], r["start"], r["end"]))
rowsum = sum(r["off_cpu"] + (r["on_cpu"] if view == "--wall" else 0) for r in rows)
if rowsum != total:
    bad.append("its rows add up to %d ns, the profile %d" % (rowsum, total))
if folded != total:
    bad.append("collapse %s: %d ns, report %d" % (view, folded, total))
if "comm" in args and args["comm"] == "nosuch" and (rows or total):
    bad.append("a filter that keeps nothing kept %d rows" % len(rows))
if bad:
    print(view, sys.argv[2], "; ".join(bad))
    sys.exit(1)
print("  report %s %s: %d threads, %d ns" % (view, sys.argv[2], len(rows), total))
PY
	done
	# triage: its off-CPU graph is report --off-cpu's, its table the same
	# threads, with the same wall times (ms, rounded)
	checks=$((checks + 1))
	pf triage "${O[@]}" "${A[@]}" "$F" 2>/dev/null >"$tmp/t.html" || true
	pf triage --text "${O[@]}" "${A[@]}" "$F" 2>/dev/null >"$tmp/t.txt" || true
	pf report --json --off-cpu "${O[@]}" "${A[@]}" "$F" 2>/dev/null >"$tmp/r.json"
	python3 - "$tmp/r.json" "$tmp/t.txt" "$args" "$(triage_w fg-wait <"$tmp/t.html")" <<'PY' || fail "triage $args: thread table"
import json, re, sys
d = json.load(open(sys.argv[1]))
total = sum(c["total"] for c in d["report"]["columns"])
# report lists threads with time; triage leaves out the idle ones
want = sorted((r["comm"], r["pid"], r["tid"], "%.1f" % (r["wall"] / 1e6))
              for r in d["per_thread"]["threads"] if r["on_cpu"] or r["off_cpu"])
text = open(sys.argv[2]).read()
sect = text.split("1. On CPU or waiting?")[1].split("\n2.")[0]
got = []
for line in sect.splitlines():
    m = re.match(r"\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(.*) (\d+)/(\d+)$", line)
    if m:
        got.append((m.group(2), int(m.group(3)), int(m.group(4)), m.group(1)))
got.sort()
bad = []
if got != want:
    bad.append("threads %s, report's %s" % (got, want))
w = int(sys.argv[4]) if sys.argv[4] else 0
if w != total:
    bad.append("off-CPU graph %d ns, report --off-cpu %d" % (w, total))
if bad:
    print("triage", sys.argv[3], "; ".join(bad))
    sys.exit(1)
print("  triage %s: %d threads, %d ns off-CPU" % (sys.argv[3], len(got), w))
PY
done

# 3. --event: an exact name wins, a unique prefix finds its event, and no
# match or several are an error naming the events, exit status 1
for cmd in "${cmds[@]}"; do
	for ev in cycles sched; do
		checks=$((checks + 1))
		rc=0
		case $cmd in
		diff) pf diff "${O[@]}" --event="$ev" "$F" "$F" ;;
		scaling) pf scaling "${O[@]}" --event="$ev" 1:"$F" 2:"$F" ;;
		convert) pf convert --to folded -o - "${O[@]}" --event="$ev" "$F" ;;
		*) pf "$cmd" "${O[@]}" --event="$ev" "$F" ;;
		esac >/dev/null 2>"$tmp/err" || rc=$?
		grep -q "sched:sched_switch, sched:sched_wakeup and cpu-clock/freq=999/" "$tmp/err" &&
			[ "$rc" = 1 ] ||
			fail "$cmd --event $ev: exit status $rc (want 1), stderr: $(head -c 300 "$tmp/err")"
	done
done

# 4. collapse: a bare --tid (--pid) names the roots comm-PID/TID (comm-PID)
# and keeps every sample, as stackcollapse-perf.pl; --tid=TID filters
checks=$((checks + 1))
pf collapse --samples --tid "${O[@]}" --event=cpu "$F" 2>/dev/null >"$tmp/tid"
pf collapse --samples --pid "${O[@]}" --event=cpu "$F" 2>/dev/null >"$tmp/pid"
pf collapse --samples --tid=8734 "${O[@]}" --event=cpu "$F" 2>/dev/null >"$tmp/tid8734"
grep -qv '^[^;]*-8720/[0-9]*;' "$tmp/tid" && fail "collapse --tid: a root without PID/TID"
grep -qv '^[^;]*-8720;' "$tmp/pid" && fail "collapse --pid: a root without PID"
grep -q '^disk-8720/8734;' "$tmp/tid" || fail "collapse --tid: no root disk-8720/8734"
grep -qv '^disk;' "$tmp/tid8734" && fail "collapse --tid=8734: a root but disk's, or named with ids"
[ "$(sum_folded <"$tmp/tid")" = "$(count report --event=cpu)" ] ||
	fail "collapse --tid left samples out"
[ "$(sum_folded <"$tmp/tid8734")" = "$(sed -n 's/^disk-8720\/8734;.* //p' "$tmp/tid" | sum_folded)" ] ||
	fail "collapse --tid=8734 is not the samples of disk-8720/8734"

# 5. bad values are usage errors in every command, collapse's --time too
for cmd in report collapse; do
	checks=$((checks + 1))
	rc=0
	pf "$cmd" --time=5 "$F" >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "START,END" "$tmp/err" ||
		fail "$cmd --time=5: exit status $rc: $(cat "$tmp/err")"
done

echo "filters: $checks checks, $fails failures"
[ "$fails" = 0 ]
