#!/usr/bin/env bash
# bench/stats.sh: `perfan stats` against `perf report --stats` on the same
# large recording, in the same run; prints each one's best wall time and
# peak RSS over N runs and the ratio, and checks the outputs agree.
#
# Usage: bench/stats.sh [PERF_DATA]   (default: /tmp/perfan-bench/large.data,
#        made with bench/make-large-recording.sh when absent)
# Env:   RUNS=5  PERFAN=build/perfan  PERF=perf
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:-/tmp/perfan-bench/large.data}
RUNS=${RUNS:-5}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}

[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
[ -f "$DATA" ] || bench/make-large-recording.sh "$DATA"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best of RUNS: prints "SECONDS MAXRSS_KB"
measure() {
	local best=""
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -o "$out/t" -f "%e %M" "$@" >"$out/o" 2>/dev/null
		read -r s kb <"$out/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best% *})}"; then
			best="$s $kb"
		fi
	done
	echo "$best"
}

size=$(stat -c %s "$DATA")
echo "input: $DATA ($((size / 1000000)) MB)"
cat "$DATA" >/dev/null # warm the page cache for both

read -r t_perfan m_perfan < <(measure "$PERFAN" stats "$DATA")
"$PERFAN" stats "$DATA" >"$out/perfan.txt"
read -r t_perf m_perf < <(measure "$PERF" report -i "$DATA" --stats)
"$PERF" report -i "$DATA" --stats >"$out/perf.txt" 2>/dev/null

if cmp -s "$out/perfan.txt" "$out/perf.txt"; then same=yes; else same=NO; fi
printf '%-28s %8s s %10s KB\n' "perfan stats" "$t_perfan" "$m_perfan"
printf '%-28s %8s s %10s KB\n' "perf report --stats" "$t_perf" "$m_perf"
awk -v a="$t_perfan" -v b="$t_perf" -v n="$size" 'BEGIN {
	printf "perfan is %.2fx the speed of perf (%.0f MB/s vs %.0f MB/s)\n",
		b / a, n / a / 1e6, n / b / 1e6 }'
echo "outputs identical: $same"
[ "$same" = yes ]
