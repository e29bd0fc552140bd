#!/usr/bin/env bash
# bench/dwarf_threads.sh: `perfan report` of the DWARF recordings of
# bench/resolve.sh with --threads 1, 2 and 3, side by side in one run
# (1 2 3 1 2 3 ...), the median wall time of each and their ratios to one
# thread (issue 38: --threads 2 at most 0.6 on pydwarf.data; with 3 a third
# thread unwinds, which on two cores costs more than it gives). The outputs
# are compared first: they must be the same bytes.
#
# Usage: bench/dwarf_threads.sh [DATA...]
# Env:   PERFAN=build/perfan  RUNS=5
set -euo pipefail
cd "$(dirname "$0")/.."

PERFAN=${PERFAN:-build/perfan}
RUNS=${RUNS:-5}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
if [ $# = 0 ]; then
	set -- /tmp/perfan-bench/pydwarf.data /tmp/perfan-bench/dwarf.data
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# wall seconds of one run into $out/t
run() {
	/usr/bin/time -f "%e" -o "$out/t" "$PERFAN" report --threads "$1" "$2" \
		>"$out/$1.out" 2>"$out/$1.err"
}

median() { LC_ALL=C sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-28s %9s %9s %9s %7s %7s\n' input "1 thread" "2" "3" "2/1" "3/1"
for f in "$@"; do
	[ -f "$f" ] || { echo "$f: missing (bench/resolve.sh makes it)" >&2; exit 1; }
	run 1 "$f"
	for n in 2 3; do
		run $n "$f"
		cmp -s "$out/1.out" "$out/$n.out" && cmp -s "$out/1.err" "$out/$n.err" || {
			echo "$f: --threads $n prints something else than --threads 1" >&2
			exit 1
		}
	done
	: >"$out/t1"
	: >"$out/t2"
	: >"$out/t3"
	for _ in $(seq "$RUNS"); do
		for n in 1 2 3; do
			run $n "$f" && cat "$out/t" >>"$out/t$n"
		done
	done
	t1=$(median <"$out/t1")
	t2=$(median <"$out/t2")
	t3=$(median <"$out/t3")
	printf '%-28s %8ss %8ss %8ss %7s %7s\n' "$(basename "$f")" "$t1" "$t2" "$t3" \
		"$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b / a }')" \
		"$(awk -v a="$t1" -v b="$t3" 'BEGIN { printf "%.3f", b / a }')"
done
