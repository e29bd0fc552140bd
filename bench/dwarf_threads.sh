#!/usr/bin/env bash
# bench/dwarf_threads.sh: `perfan report` of the DWARF recordings of
# bench/resolve.sh with --threads 1 against --threads 2, side by side in one
# run (1 2 1 2 ...), the median wall time of each and their ratio (issue 38:
# at most 0.6 on pydwarf.data). The outputs of the two are compared first:
# they must be the same bytes.
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

printf '%-40s %10s %10s %8s\n' input "1 thread" "2 threads" ratio
for f in "$@"; do
	[ -f "$f" ] || { echo "$f: missing (bench/resolve.sh makes it)" >&2; exit 1; }
	run 1 "$f"
	run 2 "$f"
	cmp -s "$out/1.out" "$out/2.out" && cmp -s "$out/1.err" "$out/2.err" || {
		echo "$f: --threads 2 prints something else than --threads 1" >&2
		exit 1
	}
	: >"$out/t1"
	: >"$out/t2"
	for _ in $(seq "$RUNS"); do
		run 1 "$f" && cat "$out/t" >>"$out/t1"
		run 2 "$f" && cat "$out/t" >>"$out/t2"
	done
	t1=$(median <"$out/t1")
	t2=$(median <"$out/t2")
	printf '%-40s %9ss %9ss %8s\n' "$(basename "$f")" "$t1" "$t2" \
		"$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b / a }')"
done
