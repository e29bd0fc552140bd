#!/usr/bin/env bash
# bench/triage.sh: `perfan triage` on large recordings: the time to write
# the page (median of RUNS, wall and CPU, peak RSS) and its size, against
# the issue's targets (under 2 s and under 5 MB for a 200 MB recording),
# beside `perfan report` (one reading) and `perf report --stdio` of the
# same file in the same run for scale. Inputs:
#   offcpu  a >= 200 MB sched_switch recording with call graphs
#           (/tmp/perfan-bench/offcpu.data, bench/make-offcpu-recording.sh)
#   wide    a >= 200 MB system-wide frame-pointer recording without
#           switches (/tmp/perfan-bench/wide.data, bench/resolve.sh's (a))
# Usage: bench/triage.sh [offcpu|wide|PERF_DATA ...]   (default: both)
# Env:   RUNS=5  PERFAN=build/perfan  PERF=perf
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# "MEDIAN_WALL MEDIAN_CPU MAX_RSS_KB" over RUNS runs of the command
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

input() {
	case $1 in
	offcpu) f=/tmp/perfan-bench/offcpu.data
		[ -f "$f" ] || bench/make-offcpu-recording.sh "$f" >&2 ;;
	wide) f=/tmp/perfan-bench/wide.data
		[ -f "$f" ] || SYSTEM_WIDE=1 bench/make-large-recording.sh "$f" >&2 ;;
	*) f=$1 ;;
	esac
	echo "$f"
}

status=0
[ $# -gt 0 ] || set -- offcpu wide
for arg in "$@"; do
	f=$(input "$arg")
	size=$(stat -c %s "$f")
	echo "$arg: $f ($((size / 1000000)) MB), median of $RUNS"
	cat "$f" >/dev/null
	read -r tt ct mt < <(measure "$PERFAN" triage -o "$out/page.html" "$f")
	page=$(stat -c %s "$out/page.html")
	read -r tr cr mr < <(measure "$PERFAN" report "$f")
	read -r tp cp mp < <(RUNS=1 measure "$PERF" report -i "$f" --stdio --no-children)
	printf '  %-34s %8s %8s %9s\n' "" wall cpu "peak RSS"
	printf '  %-34s %7.3fs %7.3fs %6.0f MB   page %.2f MB\n' "perfan triage" \
		"$tt" "$ct" "$((mt / 1024))" "$(echo "$page / 1048576" | bc -l)"
	printf '  %-34s %7.3fs %7.3fs %6.0f MB\n' "perfan report" "$tr" "$cr" "$((mr / 1024))"
	printf '  %-34s %7.3fs %7.3fs %6.0f MB   (one run)\n' "perf report --stdio --no-children" \
		"$tp" "$cp" "$((mp / 1024))"
	if [ "$size" -ge 200000000 ]; then
		ok_t=$(awk -v t="$tt" 'BEGIN { print (t < 2.0) ? "PASS" : "FAIL" }')
		ok_s=$([ "$page" -lt 5242880 ] && echo PASS || echo FAIL)
		echo "  $ok_t  written in under 2 s"
		echo "  $ok_s  page under 5 MB"
		[ "$ok_t$ok_s" = PASSPASS ] || status=1
	fi
done
exit "$status"
