#!/usr/bin/env bash
# bench/resolve.sh: resolving stacks, perfan report against perf report on
# the same recordings in the same run (issue 17's three inputs):
#   (a) wide   a system-wide frame-pointer recording of >= 290 MB, a mixed
#              workload (/tmp/perfan-bench/wide.data)
#   (b) single a single-process-tree frame-pointer recording of >= 25 MB
#              (/tmp/perfan-bench/small.data)
#   (a10) wide10, (a30) wide30  the same at 10 MB and 30 MB (issue 38: the
#              sizes most users record; /tmp/perfan-bench/wide10.data, wide30)
#   (b10) single10  the same at 10 MB (/tmp/perfan-bench/small10.data)
#   (c) dwarf  a --call-graph dwarf recording of >= 200 MB
#              (/tmp/perfan-bench/dwarf.data), of the C workload
#   (c2) pydwarf  the same of a Python workload (bench/py-dwarf-workload.py)
#              on python3.11-dbg, an interpreter with its debug information
#              (/tmp/perfan-bench/pydwarf.data; apt-get install python3.11-dbg)
# Each is made with bench/make-large-recording.sh when absent. For each,
# `perfan report`, `perf report --stdio` (its default: children, call
# graphs), `perf report --stdio --no-children` (the issue's yardstick: self
# time, with the call graphs perf prints by default) and, for reference,
# `perf report --stdio --no-children -g none` (no call graphs: perf's
# fastest mode, no target) are timed RUNS times; the MEDIAN wall time, the median CPU time and the largest peak RSS
# are printed, with perf's time over perfan's (the speed-up) and the
# issue's target for that pair.
#
# Usage: bench/resolve.sh [all|wide|wide10|wide30|single|single10|dwarf|pydwarf|PERF_DATA ...]
#        (all: a10, a30, a, b10, b, c, c2)
# Env:   RUNS=5  PERFAN=build/perfan  PERF=perf
#        SKIP_CHILDREN=1  leave out perf report --stdio (children) where it
#                         takes minutes (dwarf)
# Targets (issues 17 and 38): perfan report >= 10x perf report --no-children
# on every system-wide recording (a10, a30, a), >= 6x on every single-process
# one (b10, b); >= 30x perf report (children) on each of those, >= 150x on
# (c); peak memory no higher than perf's.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# "MEDIAN_WALL MEDIAN_CPU MAX_RSS_KB" over RUNS runs
measure() {
	: >"$out/all"
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -o "$out/t" -f "%e %U %S %M" "$@" >/dev/null 2>&1 ||
			{ echo "failed: $*" >&2; exit 1; }
		cat "$out/t" >>"$out/all"
	done
	python3 - "$out/all" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print("%.3f %.3f %d" % (statistics.median(r[0] for r in rows),
                        statistics.median(r[1] + r[2] for r in rows),
                        max(r[3] for r in rows)))
PY
}

row() { # NAME WALL CPU RSS PERFAN_WALL TARGET
	awk -v n="$1" -v t="$2" -v c="$3" -v m="$4" -v p="$5" -v g="$6" 'BEGIN {
		r = t / p
		v = g == "" ? "" : (r >= g ? sprintf("target %dx: met", g) \
					   : sprintf("target %dx: NOT met", g))
		printf "  %-44s %7.3f s %7.3f s %6.0f MB %7.1fx  %s\n", n, t, c,
			m / 1024, r, v }'
}

bench_one() { # LABEL DATA NO_CHILDREN_TARGET CHILDREN_TARGET
	local label=$1 data=$2 tn=$3 tc=$4
	local size samples
	size=$(stat -c %s "$data")
	samples=$("$PERFAN" stats --json "$data" | python3 -c \
		'import json,sys; print(json.load(sys.stdin)["types"].get("SAMPLE", 0))')
	echo "$label: $data ($((size / 1000000)) MB, $samples samples), median of $RUNS"
	cat "$data" >/dev/null # warm the page cache for all
	read -r tr cr mr < <(measure "$PERFAN" report "$data")
	read -r t2 c2 m2 < <(measure "$PERF" report -i "$data" --stdio --no-children)
	read -r t3 c3 m3 < <(measure "$PERF" report -i "$data" --stdio --no-children -g none)
	printf '  %-44s %9s %9s %9s %8s\n' "" "wall" "cpu" "peak RSS" "/perfan"
	row "perfan report" "$tr" "$cr" "$mr" "$tr" ""
	row "perf report --stdio --no-children" "$t2" "$c2" "$m2" "$tr" "$tn"
	row "perf report --stdio --no-children -g none" "$t3" "$c3" "$m3" "$tr" ""
	local mp=$m2
	[ "$m3" -lt "$mp" ] && mp=$m3
	if [ "${SKIP_CHILDREN:-0}" != 1 ]; then
		read -r t1 c1 m1 < <(measure "$PERF" report -i "$data" --stdio)
		row "perf report --stdio (children)" "$t1" "$c1" "$m1" "$tr" "$tc"
		[ "$m1" -lt "$mp" ] && mp=$m1
	fi
	awk -v a="$mr" -v b="$mp" 'BEGIN {
		printf "  peak memory no higher than perf'"'"'s: %s (%.0f MB vs %.0f MB)\n",
			a <= b ? "met" : "NOT met", a / 1024, b / 1024 }'
}

make_input() { # NAME -> path
	case $1 in
	wide) f=/tmp/perfan-bench/wide.data
		[ -f "$f" ] || SYSTEM_WIDE=1 TARGET_MB=290 \
			bench/make-large-recording.sh "$f" >&2 ;;
	wide10|wide30) f=/tmp/perfan-bench/$1.data
		[ -f "$f" ] || SYSTEM_WIDE=1 TARGET_MB=${1#wide} \
			bench/make-large-recording.sh "$f" >&2 ;;
	single) f=/tmp/perfan-bench/small.data
		[ -f "$f" ] || TARGET_MB=30 bench/make-large-recording.sh "$f" >&2 ;;
	single10) f=/tmp/perfan-bench/small10.data
		[ -f "$f" ] || TARGET_MB=10 bench/make-large-recording.sh "$f" >&2 ;;
	dwarf) f=/tmp/perfan-bench/dwarf.data
		[ -f "$f" ] || CALLGRAPH=dwarf bench/make-large-recording.sh "$f" >&2 ;;
	pydwarf) f=/tmp/perfan-bench/pydwarf.data
		local py
		py=$(command -v python3.11-dbg || command -v python3)
		mkdir -p "$(dirname "$f")"
		[ -f "$f" ] || "$PERF" record -q --call-graph dwarf,8192 -m 1024 \
			-F 3000 -e cpu-clock -o "$f" "$py" bench/py-dwarf-workload.py 8 >&2 ;;
	esac
	echo "$f"
}

[ $# -gt 0 ] || set -- all
for arg in "$@"; do
	case $arg in
	all) bench_one "(a10) wide10" "$(make_input wide10)" 10 30
		bench_one "(a30) wide30" "$(make_input wide30)" 10 30
		bench_one "(a) wide" "$(make_input wide)" 10 30
		bench_one "(b10) single10" "$(make_input single10)" 6 30
		bench_one "(b) single" "$(make_input single)" 6 30
		bench_one "(c) dwarf" "$(make_input dwarf)" "" 150
		bench_one "(c2) pydwarf" "$(make_input pydwarf)" "" 150 ;;
	wide10) bench_one "(a10) wide10" "$(make_input wide10)" 10 30 ;;
	wide30) bench_one "(a30) wide30" "$(make_input wide30)" 10 30 ;;
	wide) bench_one "(a) wide" "$(make_input wide)" 10 30 ;;
	single10) bench_one "(b10) single10" "$(make_input single10)" 6 30 ;;
	single) bench_one "(b) single" "$(make_input single)" 6 30 ;;
	dwarf) bench_one "(c) dwarf" "$(make_input dwarf)" "" 150 ;;
	pydwarf) bench_one "(c2) pydwarf" "$(make_input pydwarf)" "" 150 ;;
	*) bench_one "$arg" "$arg" "" "" ;;
	esac
done
