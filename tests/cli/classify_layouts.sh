#!/usr/bin/env bash
# classify_layouts.sh: `perfan classify` on every perf stat layout in
# testdata/perf-stat-public (real outputs from public sources, MANIFEST.md
# says where each comes from and what a person reads off it): top-down
# tables with and without intervals, tma_* and 5.x names, per-core
# prefixes, comment-column TopdownL1/L2, two runs in one file, hybrid
# Intel and ARM big.LITTLE PMUs. Then testdata/perf-stat-local (software
# counters recorded here, perf's own "CPUs utilized" the oracle): sleeping
# is mostly-waiting, busy is cpu-bound, several runs give several
# verdicts, complementary runs of one command a combined one. Last,
# `perfan classify -- COMMAND` live where perf runs.
set -u
cd "$(dirname "$0")/../.."
BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
P=testdata/perf-stat-public
L=testdata/perf-stat-local
. tests/tools/cli_common.sh

# check FILE JQ-EXPRESSION WHY: the expression holds on classify --json FILE
check() {
	local f=$1 expr=$2 why=$3 json=$tmp/$(basename "$1").json
	if [ ! -s "$json" ] &&
		! "$BIN" classify --json "$f" >"$json" 2>"$tmp/err"; then
		fail "$f: $(cat "$tmp/err")"
		rm -f "$json"
		return
	fi
	if [ "$(jq -r "$expr" "$json" 2>&1)" != true ]; then
		fail "$(basename "$f"): $why [${expr#"$defs"}]"
		return
	fi
	checks=$((checks + 1))
}

# jq helpers: the run's whole (every PMU), a PMU's whole, a group by aggr
# or interval, the largest TMA level-1 class of a group
defs='def whole(r): [.groups[] | select(.whole and .pmu == null and (.combined | not) and .run == r)][0];
def pmu(p): [.groups[] | select(.pmu == p)][0];
def aggr(a): [.groups[] | select(.aggr == a)][0];
def at(t): [.groups[] | select(.interval != null and (.interval * 1e6 | round) == (t * 1e6 | round))][0];
def largest: .metrics | [{k: "retiring", v: .tma_retiring}, {k: "bad_speculation", v: .tma_bad_speculation},
  {k: "frontend_bound", v: .tma_frontend_bound}, {k: "backend_bound", v: .tma_backend_bound}] | max_by(.v) | .k;
def pct(x): (x * 1000 | round) / 10;'

# ---- top-down tables ---------------------------------------------------------
f=$P/td-nonint-tma-6x-ref.txt
check "$f" "$defs whole(0) | .verdict == \"well-optimised\" and pct(.metrics.tma_retiring) == 77.7" \
	"names row then values row: retiring 77.7 % is most of the slots"
f=$P/td-nonint-tma-6x-new-misaligned.txt
check "$f" "$defs whole(0) | .verdict == \"front-end-bound\" and pct(.metrics.tma_frontend_bound) == 35.2 and pct(.metrics.tma_retiring) == 61.9" \
	"values matched by order, not column: front end 35.2 %"
f=$P/td-interval-tma-doc.txt
check "$f" "$defs [.groups[] | select(.interval != null)] | length == 6 and all(largest == \"frontend_bound\")" \
	"'%  tma_*' interval header: 6 intervals, front end largest in each"
check "$f" "$defs at(1.001141351) | pct(.metrics.tma_frontend_bound) == 46.9 and pct(.metrics.tma_bad_speculation) == 6.7" \
	"the first interval's columns in the header's order"
check "$f" "$defs at(2.006141972) | .verdict == \"front-end-bound\"" \
	"front end 50.4 % dominates"
f=$P/td-interval-5x-icelake-doc.txt
check "$f" "$defs at(1.00128133) | largest == \"backend_bound\" and pct(.metrics.tma_backend_bound) == 32.1" \
	"5.x names, '%' on the values: back end largest at t=1"
check "$f" "$defs [.groups[] | select(.interval != null and .interval > 2)] | length == 7 and all(largest == \"frontend_bound\")" \
	"from t=2 on the front end is largest"
f=$P/td-5x-percore-skl-system-wide.txt
check "$f" "$defs aggr(\"S0-C3\") | .verdict == \"bad-speculation\" and pct(.metrics.tma_bad_speculation) == 32.3" \
	"per-core rows: the shielded core's bad speculation"
check "$f" "$defs [aggr(\"S0-C0\"), aggr(\"S0-C1\"), aggr(\"S0-C2\")] | all(largest == \"backend_bound\")" \
	"the other cores are back-end heavy"
check "$f" "$defs whole(0) | .command == \"system wide\" and (.metrics.tma_retiring < 1)" \
	"the whole averages the cores' percentages, it does not add them"
f=$P/td-5x-percore-die-C1-trailing-blank.txt
check "$f" "$defs aggr(\"S0-D0-C1\") | .verdict == \"back-end-bound\" and pct(.metrics.tma_backend_bound) == 81.6" \
	"S0-D0-C1 prefix, trailing blanks: back end 81.6 %, no level 2 to split it"

# ---- top-down in the comment column ------------------------------------------
f=$P/default-tdl1-tdl2-spr.txt
check "$f" "$defs whole(0) | .verdict == \"front-end-bound\" and pct(.metrics.tma_fetch_latency) == 29.3 and ([.evidence[].metric] | index(\"tma_fetch_latency\") != null)" \
	"TopdownL1 front end 42.7 %, level 2 names fetch latency 29.3 %"
check "$f" "$defs whole(0) | .warning | test(\"on CPU only\")" \
	"sleep 1 ran 0.5 ms of 1 s: the hardware verdict says it is about that part"
f=$P/default-topdown-slots-spr-6.3.txt
check "$f" "$defs whole(0) | .verdict == \"front-end-bound\" and pct(.metrics.tma_retiring) == 17.2" \
	"slot counts (topdown-*) give retiring 17.2 %, as perf printed"

# ---- hybrid and big.LITTLE ----------------------------------------------------
f=$P/hybrid-adl-M-topdownL1-system-wide.txt
check "$f" "$defs pmu(\"cpu_core\").verdict == \"back-end-bound\" and (pmu(\"cpu_atom\") | largest == \"backend_bound\" and pct(.metrics.tma_backend_bound) == 38.4)" \
	"one verdict per PMU: back end largest on both"
f=$P/hybrid-intel-detailed-tdl1-per-pmu.txt
check "$f" "$defs (pmu(\"cpu_core\") | (.metrics.ipc * 100 | round) == 109 and .verdict == \"back-end-bound\") and ((pmu(\"cpu_atom\").metrics.ipc * 100 | round) == 75)" \
	"cpu_core's IPC from its own counts (1.09, perf printed 1.43), back end 67.6 %"
check "$f" "$defs (pmu(\"cpu_atom\").metrics.min_running_pct == 0.08) and (whole(0).warning | test(\"cpu_atom.s counters ran only 0.08\"))" \
	"cpu_atom ran 0.08 %: its own share, and a warning on the cycle-weighted whole"
f=$P/hybrid-intel-locale-dot-grouping-events.txt
check "$f" "$defs ((pmu(\"cpu_atom\").metrics.ipc * 100 | round) == 168) and ((pmu(\"cpu_core\").metrics.ipc * 100 | round) == 168) and ((whole(0).time.on_cpu * 100 | round) == 839)" \
	"German grouping: IPC 1.68 on both PMUs, 8.39 CPUs utilised"
f=$P/arm-biglittle-a57-a53-cycles.txt
check "$f" "$defs pmu(\"armv8_cortex_a57\").metrics.min_running_pct == 99.19 and pmu(\"armv8_cortex_a53\").metrics.min_running_pct == 94.8" \
	"ARM big.LITTLE: one group per PMU with its run share"

# ---- several runs -------------------------------------------------------------
f=$P/two-runs-ipc-rav1e.txt
check "$f" "$defs (whole(0) | (.metrics.ipc * 100 | round) == 383 and .verdict == \"well-optimised\") and (whole(1) | (.metrics.ipc * 100 | round) == 388 and .verdict == \"well-optimised\")" \
	"two runs, two verdicts: IPC 3.83 and 3.88, not one summed run"
check "$f" "[.groups[] | select(.combined)] | length == 0" \
	"same events twice complement nothing: no combined reading"

# ---- software counters recorded here ------------------------------------------
# perf's own "N CPUs utilized" of task-clock: the oracle for on_cpu
cpus_of() { awk '/task-clock/ && /CPUs utilized/ { for (i = 1; i <= NF; i++) if ($i == "CPUs") print $(i - 1) }' "$1"; }
for f in $L/sleep.txt $L/busy.txt; do
	want=$(cpus_of "$f" | head -1)
	check "$f" "$defs (whole(0).time.on_cpu * 1000 | round) == ($want * 1000 | round)" \
		"on-CPU share matches perf's $want CPUs utilized"
done
check $L/sleep.txt "$defs whole(0) | .verdict == \"mostly-waiting\" and (.next | test(\"sched:sched_switch\")) and (.reason | test(\"no hardware counters\"))" \
	"sleep is mostly waiting, with the off-CPU command, and says why it is a software reading"
check $L/busy.txt "$defs whole(0) | .verdict == \"cpu-bound\" and (.next | test(\"perfan record -- COMMAND\"))" \
	"a busy awk loop is CPU-bound"
for f in $L/two-commands.txt $L/two-commands.csv $L/two-commands.json; do
	check "$f" "$defs whole(0).verdict == \"mostly-waiting\" and whole(1).verdict == \"cpu-bound\" and ([.groups[] | select(.whole)] | length == 2)" \
		"two runs appended in one file: two verdicts"
done
check $L/two-commands.txt "$defs whole(0).command == \"sleep 0.3\" and (whole(1).command | test(\"^awk\"))" \
	"each run keeps its command"
check $L/complementary.txt "$defs [.groups[] | select(.combined)][0] | .command == \"sleep 0.3\" and .time.on_cpu < 0.5 and .time.context_switches_per_sec != null and (.reason | test(\"runs 1\\\\+2\"))" \
	"task-clock in one run, context switches in the other: read together, and said so"
check $L/interval.txt "$defs (at(0.250751707).verdict == \"cpu-bound\") and (at(1.657434453).verdict == \"mostly-waiting\") and (whole(0).verdict == \"mostly-waiting\")" \
	"intervals: busy, then sleeping; the whole mostly waited"

# ---- perfan classify -- COMMAND ------------------------------------------------
if command -v perf >/dev/null 2>&1 &&
	perf stat -e task-clock true >/dev/null 2>&1; then
	if perf stat -x, -e instructions true 2>&1 | grep -q '^[0-9]'; then
		hw=1
	else
		hw=0
	fi
	if "$BIN" classify --json -- sleep 0.3 >"$tmp/live.json" 2>"$tmp/err"; then
		if [ $hw = 0 ]; then
			jq -e '[.groups[] | select(.whole)][0].verdict == "mostly-waiting"' \
				"$tmp/live.json" >/dev/null ||
				fail "-- sleep 0.3: not mostly-waiting: $(cat "$tmp/live.json")"
			grep -q 'no hardware event' "$tmp/err" ||
				fail "-- sleep 0.3: no word that there are no hardware counters"
		else
			jq -e '[.groups[] | select(.whole)][0] | .verdict == "mostly-waiting" or (.warning | test("on CPU only"))' \
				"$tmp/live.json" >/dev/null || fail "-- sleep 0.3 (hardware counters): no waiting noted"
		fi
		checks=$((checks + 1))
	else
		fail "-- sleep 0.3: $(cat "$tmp/err")"
	fi
	if [ $hw = 0 ]; then
		# a busy loop: cpu-bound, or mixed or even mostly waiting when
		# other work (a parallel test run, a build) keeps it waiting for
		# a CPU; the verdict must follow its on-CPU share either way
		# (testdata/perf-stat-local/busy.txt is the strict case)
		"$BIN" classify --json -- awk 'BEGIN { for (i = 0; i < 20000000; i++) s += i }' \
			>"$tmp/busy.json" 2>"$tmp/err" &&
			jq -e '[.groups[] | select(.whole)][0] | .time.on_cpu > 0 and
				(.verdict == "cpu-bound") == (.time.on_cpu >= 0.9) and
				(.verdict == "mixed") == (.time.on_cpu >= 0.5 and .time.on_cpu < 0.9) and
				(.verdict == "mostly-waiting") == (.time.on_cpu < 0.5)' \
				"$tmp/busy.json" >/dev/null ||
			fail "-- busy awk: $(cat "$tmp/busy.json" "$tmp/err")"
		checks=$((checks + 1))
	fi
else
	echo "SKIP: no working perf: perfan classify -- COMMAND not run live"
fi

[ "$fails" = 0 ] && echo "ok: classify layouts: $checks checks"
[ "$fails" = 0 ]
