#!/usr/bin/env bash
# bench/convert.sh: the exports and the new readers on one large recording,
# in the same run: `perfan convert` to pprof and to speedscope JSON against
# `perf script` (the text every other route to pprof, speedscope, inferno
# or FlameGraph starts from: perf_data_converter is not packaged), then
# `perfan collapse` of the speedscope file against `perfan collapse` of the
# recording and Python's json.load of the same file. Prints each one's best
# wall time and peak RSS over N runs, the ratios, and checks that the
# speedscope file's stacks come back as the recording's.
#
# Usage: bench/convert.sh [PERF_DATA]   (default /tmp/perfan-bench/large.data,
#        made with bench/make-large-recording.sh when absent)
# Env:   RUNS=3  PERFAN=build/perfan  PERF=perf
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:-/tmp/perfan-bench/large.data}
RUNS=${RUNS:-3}
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
		/usr/bin/time -o "$out/t" -f "%e %M" "$@" >/dev/null 2>&1
		read -r s kb <"$out/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best% *})}"; then
			best="$s $kb"
		fi
	done
	echo "$best"
}
row() { printf '%-44s %8s s %10s KB\n' "$1" "$2" "$3"; }

echo "input: $DATA ($(($(stat -c %s "$DATA") / 1000000)) MB)"
cat "$DATA" >/dev/null # warm the page cache

read -r t_script m_script < <(measure "$PERF" script -i "$DATA")
read -r t_pprof m_pprof < <(measure "$PERFAN" convert "$DATA" -o "$out/p.pb.gz")
read -r t_ss m_ss < <(measure "$PERFAN" convert "$DATA" -o "$out/s.speedscope.json")
read -r t_cd m_cd < <(measure "$PERFAN" collapse "$DATA")
read -r t_cs m_cs < <(measure "$PERFAN" collapse "$out/s.speedscope.json")
read -r t_py m_py < <(measure python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/s.speedscope.json")

row "perf script" "$t_script" "$m_script"
row "perfan convert -o .pb.gz (pprof)" "$t_pprof" "$m_pprof"
row "perfan convert -o .speedscope.json" "$t_ss" "$m_ss"
echo "speedscope file: $(($(stat -c %s "$out/s.speedscope.json") / 1000000)) MB," \
	"pprof file: $(($(stat -c %s "$out/p.pb.gz") / 1000)) KB"
row "perfan collapse perf.data" "$t_cd" "$m_cd"
row "perfan collapse .speedscope.json" "$t_cs" "$m_cs"
row "python3 json.load of it" "$t_py" "$m_py"
awk -v s="$t_script" -v p="$t_pprof" -v j="$t_ss" -v c="$t_cs" -v y="$t_py" 'BEGIN {
	printf "pprof: %.2fx the speed of perf script; speedscope: %.2fx\n", s / p, s / j
	printf "reading the speedscope file: %.2fx the speed of json.load\n", y / c }'

"$PERFAN" collapse "$DATA" >"$out/a.folded" 2>/dev/null
"$PERFAN" collapse "$out/s.speedscope.json" >"$out/b.folded" 2>/dev/null
if cmp -s "$out/a.folded" "$out/b.folded"; then
	echo "round trip: the same stacks"
else
	echo "round trip: the stacks DIFFER"
	exit 1
fi
