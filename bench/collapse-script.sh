#!/usr/bin/env bash
# bench/collapse-script.sh: `perfan collapse --compat=flamegraph` (its
# bytes) against FlameGraph's
# stackcollapse-perf.pl on the same `perf script` text of a large recording,
# in the same run; prints each one's wall time and peak RSS (best of RUNS),
# the ratio, whether the outputs are identical, and, for reference,
# `perfan collapse` of the perf.data itself.
#
# Usage: STACKCOLLAPSE=/path/to/stackcollapse-perf.pl bench/collapse-script.sh [PERF_DATA]
#        PERF_DATA defaults to /tmp/perfan-bench/large.data (made with
#        bench/make-large-recording.sh when absent); its `perf script` text
#        is written next to it as PERF_DATA.script (about 4x the size).
# Env:   STACKCOLLAPSE  stackcollapse-perf.pl from
#                       https://github.com/brendangregg/FlameGraph (not part
#                       of perfan; keep it out of the repository)
#        RUNS=3 (perfan)  PERL_RUNS=1 (the Perl script takes minutes)
#        PERFAN=build/perfan  PERF=perf  PERL=perl
set -euo pipefail
cd "$(dirname "$0")/.."

DATA=${1:-/tmp/perfan-bench/large.data}
RUNS=${RUNS:-3}
PERL_RUNS=${PERL_RUNS:-1}
PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
PERL=${PERL:-perl}
SC=${STACKCOLLAPSE:-}

[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
if [ -z "$SC" ] || [ ! -f "$SC" ]; then
	echo "set STACKCOLLAPSE to FlameGraph's stackcollapse-perf.pl" >&2
	exit 1
fi
[ -f "$DATA" ] || bench/make-large-recording.sh "$DATA"
TEXT=$DATA.script
if [ ! -s "$TEXT" ] || [ "$TEXT" -ot "$DATA" ]; then
	echo "writing $TEXT (perf script)..."
	"$PERF" script -i "$DATA" >"$TEXT" 2>/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best of N: prints "SECONDS MAXRSS_KB"
measure() {
	local n=$1 best=""
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -o "$out/t" -f "%e %M" "$@" >"$out/o" 2>/dev/null
		read -r s kb <"$out/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best% *})}"; then
			best="$s $kb"
		fi
	done
	echo "$best"
}

dsize=$(stat -L -c %s "$DATA")
tsize=$(stat -L -c %s "$TEXT")
nsamples=$(grep -c '^[^[:space:]].* [0-9][0-9]*\.[0-9]*: ' "$TEXT" || true)
echo "input: $DATA ($((dsize / 1000000)) MB), its perf script text" \
	"$TEXT ($((tsize / 1000000)) MB, $nsamples samples)"
cat "$TEXT" >/dev/null # warm the page cache for both

read -r t_pf m_pf < <(measure "$RUNS" "$PERFAN" collapse --compat=flamegraph "$TEXT")
cp "$out/o" "$out/perfan.folded"
read -r t_pl m_pl < <(measure "$PERL_RUNS" "$PERL" "$SC" "$TEXT")
cp "$out/o" "$out/perl.folded"
if cmp -s "$out/perfan.folded" "$out/perl.folded"; then
	same=yes
else
	same=NO
fi

printf '%-40s %8s s %10s KB\n' "perfan collapse TEXT" "$t_pf" "$m_pf"
printf '%-40s %8s s %10s KB\n' "stackcollapse-perf.pl TEXT" "$t_pl" "$m_pl"
awk -v a="$t_pf" -v b="$t_pl" -v n="$tsize" 'BEGIN {
	printf "perfan is %.1fx the speed of stackcollapse-perf.pl (%.0f MB/s vs %.1f MB/s)\n",
		b / a, n / a / 1e6, n / b / 1e6 }'
echo "outputs identical: $same ($(wc -l <"$out/perfan.folded") lines)"

# for reference: the recording itself, resolved by perfan
if "$PERFAN" collapse "$DATA" >/dev/null 2>&1; then
	read -r t_pd m_pd < <(measure "$RUNS" "$PERFAN" collapse "$DATA")
	printf '%-40s %8s s %10s KB\n' "perfan collapse PERF_DATA" "$t_pd" "$m_pd"
fi
[ "$same" = yes ]
