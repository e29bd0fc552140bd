#!/usr/bin/env bash
# bench/classify.sh: `perfan classify` on a long perf stat interval output
# (-a -A -I 10: a group per interval and CPU), against perf's own
# post-processing of the same run, `perf stat report`, which reads the
# binary record and prints that text. Both with farm-bench in one run, the
# ratio pair by pair. No tool classifies perf stat output, so perf stat
# report is the nearest yardstick: reading the run back, not diagnosing it.
#
# Usage: bench/classify.sh [SECONDS]   (default 60: the recording's length)
# Env:   PERFAN=build/perfan  PERF=perf  RUNS=10
set -euo pipefail
cd "$(dirname "$0")/.."

SECS=${1:-60}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
RUNS=${RUNS:-10}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

"$PERF" stat record -o "$out/stat.data" -a -A -I 10 \
	-e task-clock,context-switches,cpu-migrations,page-faults \
	-- sleep "$SECS" >/dev/null 2>&1
"$PERF" stat report -i "$out/stat.data" 2>"$out/stat.txt" >/dev/null
echo "input: $(wc -l <"$out/stat.txt") lines of perf stat -a -A -I 10 ($(stat -c %s "$out/stat.txt") bytes)"
"$PERFAN" classify --json "$out/stat.txt" >"$out/c.json"
echo "groups: $(jq '.groups | length' "$out/c.json")"
farm-bench -n "$RUNS" \
	--vs "sh -c '$PERF stat report -i $out/stat.data 2>/dev/null >/dev/null'" \
	-- "$PERFAN" classify -o "$out/c.txt" "$out/stat.txt"
