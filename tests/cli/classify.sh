#!/bin/bash
# tests/cli/classify.sh: `perfan classify` on every perf stat sample in
# ../shared/peer-data/perf-stat: the IPC, cache-miss and branch-miss rates it
# recomputes match the MANIFEST's human reading (the recomputed value where
# perf's printed one disagrees with its counts) to the printed precision,
# and the verdict is the one that reading supports. Plus the CLI contract.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
D=$PEERDATA/perf-stat

. tests/tools/cli_common.sh

# ---- CLI contract (no peer data needed) ------------------------------------

"$BIN" classify --help | grep -q '^usage: perfan classify' ||
	fail "--help prints no usage"
"$BIN" classify --bogus >/dev/null 2>&1
[ $? = 2 ] || fail "an unknown option is not a usage error (2)"
"$BIN" classify a b >/dev/null 2>&1
[ $? = 2 ] || fail "two files are not a usage error (2)"
"$BIN" classify "$tmp/missing" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q '^perfan classify: ' "$tmp/err" ||
	fail "a missing file is not 'perfan classify: ...' with status 1"
printf 'hello\nworld\n' | "$BIN" classify - >/dev/null 2>"$tmp/err"
[ $? = 1 ] || fail "text without perf stat output does not fail"
# made-up input on stdin: IPC 0.5, 20 cache misses per 1000 instructions
printf '%s\n' ' Performance counter stats for '"'x'"':' \
	'  2000000000      cycles' '  1000000000      instructions' \
	'   100000000      cache-references' '    20000000      cache-misses' |
	"$BIN" classify >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^whole: memory-bound' "$tmp/out" ||
	fail "stdin: memory-bound case: $(cat "$tmp/out" "$tmp/err")"
checks=$((checks + 1))

if [ ! -d "$D" ]; then
	echo "SKIP: no $D (../shared is absent); CLI contract: $fails failures"
	[ "$fails" = 0 ]
	exit
fi

# ---- the samples -------------------------------------------------------------

# file | group (whole or an aggregation key) | IPC | cache-miss % |
#   branch-miss % | verdict | why that verdict
# "-": the metric is absent (perfan must print none).
expect=$(
	cat <<'EOF'
02-perfdoc-make-user.txt|whole|1.36|-|2.98|unknown|IPC 1.36 neither low (<1) nor high (>=2.5); branch misses 2.98 % < 5 % and 6.6/kinsn < 10; no cache or stall counters to tell more
03-swiftnio-high-ipc-nocommas.txt|whole|3.41|-|0.03|well-optimised|IPC 3.41 >= 2.5, FE idle 3.08 % below perf's 10 %
04-knapsack-stalled-frontend.txt|whole|2.21|-|0.26|front-end-bound|FE idle 39.86 % over perf's 30 % "high", IPC 2.21 below 2.5, branch misses 0.26 %
05-ls-user-branchy.txt|whole|1.00|-|5.79|bad-speculation|branch misses 5.79 % > perf's 5 % and 11.6/kinsn > 10, IPC only 1.00
06-ivybridge-not-supported-backend.txt|whole|0.83|-|3.60|front-end-bound|IPC 0.83 < 1 with FE idle 59.64 % over perf's 50 % "very high"; branch misses 3.60 %, 7.6/kinsn below both thresholds
07-netdata-interval-detailed-TRUNCATED.txt|whole|1.09|-|0.90|unknown|IPC recomputed 1.09 (perf printed 0.53) and branch misses recomputed 0.90 % (perf printed 0.49 %, also half the counts' ratio); no cache-misses or stall counters; L1 3.90 % below 5 %
07-netdata-interval-detailed-TRUNCATED.txt|interval|1.09|-|0.90|unknown|the one interval is the whole
10-cascadelake-topdown-csv-percore.txt|S0-C0|-|-|-|unknown|TMA level 1 is invalid (retiring 151 %, sum > 100 %), the very subject of pmu-tools #203
12-hybrid-doc-thread-mode.txt|whole|-|-|-|unknown|cycles only, no instructions
13-json-stalled-multiplex-TRUNCATED.txt|whole|-|-|-|mostly-waiting|no instructions in the excerpt (FE idle 9.96 % alone decides nothing), but perf's own 0.001393 CPUs utilized of task-clock: on CPU 0.14 % of the wall time
15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt|S0-C0|0.17|-|-|bad-speculation|IPC recomputed 0.17 (perf printed 0.25) < 1 with 26.1 branch misses per kinsn > 10 (branches <not supported>, so no ratio)
15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt|S0-C8|-|-|-|unknown|every hardware event <not supported> on the big core
15-arm-bigLITTLE-percore-not-supported-TRUNCATED.txt|whole|0.17|-|-|bad-speculation|only S0-C0 counted cycles and instructions
17-amd-ryzen-raw-events.txt|whole|-|-|-|unknown|raw events only, all zero
18-process-id-insns-legacy.txt|whole|1.73|-|-|unknown|IPC 1.73 neither low nor high and nothing else counted
20-repeat-tracepoints-2009.txt|whole|-|-|-|unknown|tracepoints only
EOF
)

# Print metric M of group G from the JSON in FILE at 2 decimals (ratios as
# percent), or "-".
metric() {
	local json=$1 group=$2 key=$3 scale=$4
	local sel
	case $group in
	whole) sel='select(.whole)' ;;
	interval) sel='select(.whole | not) | select(.interval != null)' ;;
	*) sel="select(.aggr == \"$group\")" ;;
	esac
	local v
	v=$(jq -r "[.groups[] | $sel][0].metrics.$key // \"-\"" "$json")
	if [ "$v" = "-" ] || [ "$v" = "null" ]; then
		echo -
	else
		awk -v v="$v" -v s="$scale" 'BEGIN { printf "%.2f\n", v * s }'
	fi
}
verdict_of() {
	local json=$1 group=$2 sel
	case $group in
	whole) sel='select(.whole)' ;;
	interval) sel='select(.whole | not) | select(.interval != null)' ;;
	*) sel="select(.aggr == \"$group\")" ;;
	esac
	jq -r "[.groups[] | $sel][0].verdict // \"(no group)\"" "$json"
}

seen=""
while IFS='|' read -r file group ipc cache branch verdict why; do
	[ -n "$file" ] || continue
	json=$tmp/${file%.txt}.json
	if [ ! -f "$json" ]; then
		if ! "$BIN" classify --json "$D/$file" >"$json" 2>"$tmp/err"; then
			fail "$file: $(cat "$tmp/err")"
			continue
		fi
	fi
	seen="$seen $file"
	got_ipc=$(metric "$json" "$group" ipc 1)
	got_cache=$(metric "$json" "$group" cache_miss_ratio 100)
	got_branch=$(metric "$json" "$group" branch_miss_ratio 100)
	got_verdict=$(verdict_of "$json" "$group")
	[ "$got_ipc" = "$ipc" ] || fail "$file $group: IPC $got_ipc, want $ipc"
	[ "$got_cache" = "$cache" ] ||
		fail "$file $group: cache-miss $got_cache %, want $cache"
	[ "$got_branch" = "$branch" ] ||
		fail "$file $group: branch-miss $got_branch %, want $branch"
	[ "$got_verdict" = "$verdict" ] ||
		fail "$file $group: verdict $got_verdict, want $verdict ($why)"
	checks=$((checks + 1))
done <<<"$expect"

# 10's invalid TMA: the next step is to rerun the top-down group alone, not
# to find a machine with a PMU
if [ -f "$tmp/10-cascadelake-topdown-csv-percore.json" ]; then
	jq -e '[.groups[] | select(.aggr == "S0-C0")][0].next | test("top-down group alone")' \
		"$tmp/10-cascadelake-topdown-csv-percore.json" >/dev/null ||
		fail "10: the next step of an invalid TMA does not say to rerun the top-down group"
fi

# 07's L1-dcache ratio, recomputed (perf printed 2.25 %)
if [ -f "$tmp/07-netdata-interval-detailed-TRUNCATED.json" ]; then
	l1=$(metric "$tmp/07-netdata-interval-detailed-TRUNCATED.json" whole \
		l1d_miss_ratio 100)
	[ "$l1" = 3.90 ] || fail "07: L1-dcache miss $l1 %, want 3.90"
fi

# every sample has a row in the table
for f in "$D"/*.txt; do
	b=$(basename "$f")
	case " $seen " in
	*" $b "*) ;;
	*) fail "$b: no expectation in tests/cli/classify.sh" ;;
	esac
done

# ---- local-vm: no hardware PMU, so no hardware verdict ----------------------
# What is left is the software reading: on CPU against wall time, where the
# run is a task's (not system-wide) and both were printed; its verdict must
# follow the thresholds (mostly-waiting < 50 %, cpu-bound >= 90 %, mixed
# between) and its reason must say that there are no hardware counters.

for f in "$D"/local-vm/*.txt; do
	[ -f "$f" ] || continue
	b=local-vm/$(basename "$f")
	if [ "$b" = local-vm/text-topdown.txt ]; then
		# perf's own error message, not a counter in it
		"$BIN" classify "$f" >/dev/null 2>"$tmp/err"
		[ $? = 1 ] && grep -q '^perfan classify: ' "$tmp/err" ||
			fail "$b: not a clear error"
		continue
	fi
	if ! "$BIN" classify --json "$f" >"$tmp/vm.json" 2>"$tmp/err"; then
		fail "$b: $(cat "$tmp/err")"
		continue
	fi
	bad=$(jq -r '.groups[] | select(.verdict != "unknown") |
		select((.verdict == "mostly-waiting" and .time.on_cpu < 0.5) or
		       (.verdict == "cpu-bound" and .time.on_cpu >= 0.9) or
		       (.verdict == "mixed" and .time.on_cpu >= 0.5 and .time.on_cpu < 0.9)
		       | not) | .verdict' "$tmp/vm.json")
	[ -z "$bad" ] || fail "$b: verdict(s) $bad without hardware counters"
	jq -r '.groups[] | select(.verdict != "unknown") | .reason' "$tmp/vm.json" |
		grep -qv 'no hardware counters' &&
		fail "$b: a software verdict that does not say there are no hardware counters"
	jq -r '.groups[] | select(.verdict == "unknown") | .reason' "$tmp/vm.json" |
		grep -qv -e 'no hardware counters' -e 'no cycles or instructions' &&
		fail "$b: an unknown without the reason 'no hardware counters'"
	# system-wide runs: the clock counts idle CPUs too, no software verdict
	if grep -q "for 'system wide'" "$f"; then
		n=$(jq '[.groups[] | select(.verdict != "unknown")] | length' "$tmp/vm.json")
		[ "$n" = 0 ] || fail "$b: a verdict on a system-wide run's clock"
	fi
	checks=$((checks + 1))
done

# ---- hand-varied copies give the same numbers and verdict --------------------

for base in 04-knapsack-stalled-frontend 05-ls-user-branchy 06-ivybridge-not-supported-backend; do
	f=$D/$base.txt
	[ -f "$f" ] || continue
	# German locale: '.' groups thousands, ',' is the decimal point
	sed -e 's/\([0-9]\),\([0-9]\)/\1X\2/g' \
		-e 's/\([0-9]\)\.\([0-9]\)/\1,\2/g' -e 's/X/./g' "$f" >"$tmp/$base.de.txt"
	# the counter rows in reverse order
	awk '/^ *[0-9<][0-9,.a-z ]* [a-z]/ && !/seconds/ { rows[n++] = $0; next }
	     { if (n) { for (i = n - 1; i >= 0; i--) print rows[i]; n = 0 } print }
	     END { for (i = n - 1; i >= 0; i--) print rows[i] }' "$f" >"$tmp/$base.rev.txt"
	"$BIN" classify --json "$f" >"$tmp/orig.json" 2>/dev/null
	for v in de rev; do
		if ! "$BIN" classify --json "$tmp/$base.$v.txt" >"$tmp/v.json" 2>"$tmp/err"; then
			fail "$base ($v): $(cat "$tmp/err")"
			continue
		fi
		for k in ipc branch_miss_ratio fe_stall_ratio; do
			a=$(metric "$tmp/orig.json" whole $k 100)
			b=$(metric "$tmp/v.json" whole $k 100)
			[ "$a" = "$b" ] || fail "$base ($v): $k $b, original $a"
		done
		[ "$(verdict_of "$tmp/orig.json" whole)" = "$(verdict_of "$tmp/v.json" whole)" ] ||
			fail "$base ($v): verdict differs"
		checks=$((checks + 1))
	done
done

# ---- -- COMMAND runs perf stat itself ----------------------------------------

if command -v perf >/dev/null 2>&1; then
	if "$BIN" classify --json -- true >"$tmp/run.json" 2>"$tmp/err"; then
		jq -e '.groups[-1].whole' "$tmp/run.json" >/dev/null ||
			fail "-- true: no whole group"
		checks=$((checks + 1))
	else
		fail "-- true: $(cat "$tmp/err")"
	fi
else
	echo "SKIP: no perf: perfan classify -- COMMAND not tested"
fi
"$BIN" classify -- >/dev/null 2>&1
[ $? = 2 ] || fail "-- without COMMAND is not a usage error"

# text and JSON agree on the verdict
"$BIN" classify "$D/05-ls-user-branchy.txt" | grep -q '^whole: bad-speculation' ||
	fail "05: text output disagrees with JSON"
# -o writes the file
"$BIN" classify -o "$tmp/o.txt" "$D/03-swiftnio-high-ipc-nocommas.txt" &&
	grep -q '^whole: well-optimised' "$tmp/o.txt" || fail "-o FILE"

[ "$fails" = 0 ] && echo "ok: classify: $checks checks"
[ "$fails" = 0 ]
