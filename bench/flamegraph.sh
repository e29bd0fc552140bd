#!/usr/bin/env bash
# bench/flamegraph.sh: `perfan flamegraph` against FlameGraph's flamegraph.pl
# rendering the same 1,000,000-line folded file in the same run. Prints each
# one's median wall and CPU time and largest peak RSS over RUNS runs, the
# size of the SVG it wrote, the ratio, and PASS/FAIL for each target.
#
# Usage: FLAMEGRAPH_PL=/path/to/flamegraph.pl bench/flamegraph.sh [FOLDED]
#        FOLDED defaults to /tmp/perfan-bench/base.folded, reused when it
#        holds its 1,000,000 lines, else made with
#        `../shared/tools/gen_folded.py base` (about a minute).
# Env:   FLAMEGRAPH_PL  flamegraph.pl from
#                       https://github.com/brendangregg/FlameGraph (not part
#                       of perfan; keep it out of the repository); unset: it
#                       is skipped and perfan measured alone
#        RUNS=5 (perfan)  PERL_RUNS=1 (the Perl script takes minutes and
#        about 6 GB on the default file)
#        PERFAN=build/perfan  PERL=perl
# Targets (the flame graph issue): perfan at most 1/50 of flamegraph.pl's
# time, peak memory under 300 MB, SVG under 5 MB; issue 17: at most 1.0 s
# (median) on the default file. Exits 1 when perfan cannot run or a target
# it could check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
PERL_RUNS=${PERL_RUNS:-1}
PERFAN=${PERFAN:-build/perfan}
PERL=${PERL:-perl}
FG=${FLAMEGRAPH_PL:-}
GEN=../shared/tools/gen_folded.py
LINES=1000000

if [ $# -gt 0 ]; then
	DATA=$1
	[ -f "$DATA" ] || { echo "no such file: $DATA" >&2; exit 1; }
else
	DATA=/tmp/perfan-bench/base.folded
	# Another run may be writing it right now: only a whole file is used,
	# and a new one appears under its name at once (rename).
	if [ ! -f "$DATA" ] || [ "$(wc -l <"$DATA")" -ne "$LINES" ]; then
		echo "writing $DATA ($GEN base, $LINES lines)..."
		mkdir -p "$(dirname "$DATA")"
		tmp=$(mktemp "$DATA.XXXXXX")
		python3 "$GEN" base "$tmp" --lines "$LINES" || {
			rm -f "$tmp"
			exit 1
		}
		chmod 644 "$tmp"
		mv -f "$tmp" "$DATA"
	fi
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# N runs of CMD..., its standard output to $out/o; sets best="SECONDS
# CPU_SECONDS MAXRSS_KB": the median wall and CPU times and the largest
# peak. A failing command stops the script with its error output.
measure() {
	local n=$1
	shift
	: >"$out/all"
	for _ in $(seq "$n"); do
		if ! /usr/bin/time -o "$out/t" -f "%e %U %S %M" "$@" \
			>"$out/o" 2>"$out/e"; then
			echo "failed: $*" >&2
			cat "$out/e" >&2
			exit 1
		fi
		cat "$out/t" >>"$out/all"
	done
	best=$(python3 - "$out/all" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
print("%.3f %.3f %d" % (statistics.median(r[0] for r in rows),
                        statistics.median(r[1] + r[2] for r in rows),
                        max(r[3] for r in rows)))
PY
)
}

# a whole SVG: it ends by closing the document
check_svg() {
	tail -c 16 "$1" | grep -q '</svg>' || {
		echo "not a whole SVG: $1 ($2)" >&2
		exit 1
	}
}

size=$(stat -L -c %s "$DATA")
echo "input: $DATA ($(wc -l <"$DATA") lines, $((size / 1000000)) MB)"
cat "$DATA" >/dev/null # warm the page cache for both

have_perfan=no
if [ -x "$PERFAN" ] && "$PERFAN" flamegraph --help >/dev/null 2>&1; then
	measure "$RUNS" "$PERFAN" flamegraph "$DATA" -o "$out/perfan.svg"
	read -r tp cp mp <<<"$best"
	check_svg "$out/perfan.svg" "perfan flamegraph"
	sp=$(stat -c %s "$out/perfan.svg")
	have_perfan=yes
else
	echo "perfan: skipped, $PERFAN has no flamegraph command (build it first)"
fi

have_pl=no
if [ -z "$FG" ]; then
	echo "flamegraph.pl: skipped, set FLAMEGRAPH_PL to FlameGraph's flamegraph.pl"
elif [ ! -f "$FG" ]; then
	echo "flamegraph.pl: skipped, no such file: $FG"
else
	measure "$PERL_RUNS" "$PERL" "$FG" "$DATA"
	read -r tl cl ml <<<"$best"
	mv "$out/o" "$out/pl.svg"
	check_svg "$out/pl.svg" "flamegraph.pl"
	sl=$(stat -c %s "$out/pl.svg")
	have_pl=yes
fi

row() {
	awk -v n="$1" -v t="$2" -v c="$3" -v m="$4" -v s="$5" 'BEGIN {
		printf "%-22s %7.2f s %7.2f s %7.0f MB %7.1f MB\n", n, t, c,
			m / 1024, s / 1e6 }'
}
printf '%-22s %9s %9s %10s %10s\n' "" "wall" "cpu" "peak RSS" "SVG"
[ $have_perfan = no ] || row "perfan flamegraph" "$tp" "$cp" "$mp" "$sp"
[ $have_pl = no ] || row "flamegraph.pl" "$tl" "$cl" "$ml" "$sl"

[ $have_perfan = yes ] || exit 1
status=0
target() { # NAME OK
	if [ "$2" = 1 ]; then
		echo "PASS  $1"
	else
		echo "FAIL  $1"
		status=1
	fi
}
if [ $have_pl = yes ]; then
	awk -v a="$tp" -v b="$tl" 'BEGIN {
		printf "flamegraph.pl time / perfan time: %.1fx\n", b / a }'
	target "perfan at most 1/50 of flamegraph.pl's time" \
		"$(awk -v a="$tp" -v b="$tl" 'BEGIN { print (a * 50 <= b) }')"
else
	echo "SKIP  perfan at most 1/50 of flamegraph.pl's time (flamegraph.pl not run)"
fi
if [ $# -eq 0 ]; then
	target "perfan at most 1.0 s on the 1,000,000-line file (issue 17)" \
		"$(awk -v a="$tp" 'BEGIN { print (a <= 1.0) }')"
fi
target "perfan peak memory under 300 MB" \
	"$(awk -v m="$mp" 'BEGIN { print (m < 300 * 1024) }')"
target "perfan SVG under 5 MB" \
	"$(awk -v s="$sp" 'BEGIN { print (s < 5e6) }')"
exit $status
