#!/usr/bin/env bash
# bench/resolve.sh: resolving stacks, perfan against perf on the same
# >= 200 MB recording in the same run: `perfan collapse` and `perfan report`
# against `perf report --stdio` (its default: children, call graphs),
# `perf report --stdio --no-children -g none` and `perf script`. Prints each
# one's best wall time, CPU time and peak RSS over RUNS runs, and perfan
# report's speed-up against each.
#
# Usage: bench/resolve.sh [fp|dwarf|PERF_DATA]
#   fp     /tmp/perfan-bench/large.data (frame pointers; made when absent)
#   dwarf  /tmp/perfan-bench/dwarf.data (--call-graph dwarf; made when absent)
# Env:   RUNS=3  PERFAN=build/perfan  PERF=perf
# Target (issue 3): perfan report at least 5x the speed of perf report,
# peak memory under 300 MB.
set -euo pipefail
cd "$(dirname "$0")/.."

arg=${1:-fp}
RUNS=${RUNS:-3}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
case $arg in
fp) DATA=/tmp/perfan-bench/large.data
	[ -f "$DATA" ] || bench/make-large-recording.sh "$DATA" ;;
dwarf) DATA=/tmp/perfan-bench/dwarf.data
	[ -f "$DATA" ] || CALLGRAPH=dwarf bench/make-large-recording.sh "$DATA" ;;
*) DATA=$arg ;;
esac
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best of RUNS by wall time: "SECONDS CPU_SECONDS MAXRSS_KB"
measure() {
	local best=""
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -o "$out/t" -f "%e %U %S %M" "$@" >"$out/o" 2>/dev/null
		read -r s u k kb <"$out/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best%% *})}"; then
			best="$s $(awk "BEGIN{print $u + $k}") $kb"
		fi
	done
	echo "$best"
}

size=$(stat -c %s "$DATA")
samples=$("$PERFAN" stats --json "$DATA" | python3 -c \
	'import json,sys; print(json.load(sys.stdin)["types"].get("SAMPLE", 0))')
echo "input: $DATA ($((size / 1000000)) MB, $samples samples)"
cat "$DATA" >/dev/null # warm the page cache for all

read -r tc cc mc < <(measure "$PERFAN" collapse "$DATA")
read -r tr cr mr < <(measure "$PERFAN" report "$DATA")
read -r t1 c1 m1 < <(measure "$PERF" report -i "$DATA" --stdio)
read -r t2 c2 m2 < <(measure "$PERF" report -i "$DATA" --stdio --no-children -g none)
read -r t3 c3 m3 < <(measure "$PERF" script -i "$DATA")

row() {
	awk -v n="$1" -v t="$2" -v c="$3" -v m="$4" -v p="$tr" 'BEGIN {
		printf "%-44s %7.2f s %7.2f s %6.0f MB %7.1fx\n", n, t, c,
			m / 1024, t / p }'
}
printf '%-44s %9s %9s %9s %8s\n' "" "wall" "cpu" "peak RSS" "/perfan"
row "perfan collapse" "$tc" "$cc" "$mc"
row "perfan report" "$tr" "$cr" "$mr"
row "perf report --stdio" "$t1" "$c1" "$m1"
row "perf report --stdio --no-children -g none" "$t2" "$c2" "$m2"
row "perf script" "$t3" "$c3" "$m3"
awk -v a="$tr" -v b="$t1" -v m="$mr" 'BEGIN {
	printf "target (perfan report 5x perf report --stdio, < 300 MB): %s\n",
		(b / a >= 5 && m < 300 * 1024) ? "met" : "NOT met" }'
