#!/usr/bin/env bash
# bench/offcpu.sh: off-CPU analysis of a large sched_switch recording:
# `perf sched timehist` (per-switch lines, and the -s summary),
# `perfan report --off-cpu` and the stream alone (examples/thread_times,
# built here against build/'s library), on the same file; best wall time
# and peak RSS of each over RUNS runs (/usr/bin/time -v).
#
# Usage: bench/offcpu.sh [PERF_DATA]   (default: /tmp/perfan-bench/offcpu.data,
#        made with bench/make-offcpu-recording.sh when absent)
# Env:   RUNS=3  PERFAN=build/perfan  PERF=perf
# Needs /usr/bin/time (Debian package `time`).
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:-/tmp/perfan-bench/offcpu.data}
RUNS=${RUNS:-3}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}

[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
[ -f "$DATA" ] || bench/make-offcpu-recording.sh "$DATA"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best of RUNS by wall time: prints "SECONDS MAXRSS_KB"; the command's
# stdout goes to $out/o (its size is printed too)
measure() {
	local best="" s kb
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -v -o "$out/t" "$@" >"$out/o" 2>/dev/null || {
			echo "FAILED: $*" >&2
			return 1
		}
		s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); t = 0; for (i = 1; i <= n; i++) t = t * 60 + p[i]; print t }' "$out/t")
		kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/t")
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best% *})}"; then
			best="$s $kb"
		fi
	done
	echo "$best"
}

row() { # NAME SECONDS KB
	printf '%-34s %8s s %10s KB\n' "$1" "$2" "$3"
}

size=$(stat -c %s "$DATA")
echo "input: $DATA ($((size / 1000000)) MB)"
echo "samples: $("$PERF" report -i "$DATA" --stats 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }')"
cat "$DATA" >/dev/null # warm the page cache

read -r t m < <(measure "$PERF" sched timehist -i "$DATA")
row "perf sched timehist" "$t" "$m"
echo "  ($(wc -l <"$out/o") lines)"
read -r t m < <(measure "$PERF" sched timehist -s -i "$DATA")
row "perf sched timehist -s" "$t" "$m"

# the slot for perfan's off-CPU report (issue 12)
if [ -x "$PERFAN" ] && "$PERFAN" report --help 2>&1 | grep -q -- '--off-cpu'; then
	read -r t m < <(measure "$PERFAN" report --off-cpu "$DATA")
	row "perfan report --off-cpu" "$t" "$m"
else
	echo "perfan: not built yet ($PERFAN report --off-cpu)"
fi

# the resolved-sample stream alone, as a library client sees it
lib=$(dirname "$PERFAN")
if [ -f "$lib/libperfan.so" ]; then
	cc -O2 -Iinclude -o "$out/thread_times" examples/thread_times.c \
		-L"$lib" -lperfan -Wl,-rpath,"$(cd "$lib" && pwd)"
	read -r t m < <(measure "$out/thread_times" "$DATA")
	row "examples/thread_times (stream)" "$t" "$m"
fi
