#!/usr/bin/env bash
# bench/diff.sh: `perfan flamegraph --diff BEFORE AFTER` against FlameGraph's
# two steps for the same differential graph, `difffolded.pl BEFORE AFTER >
# diff.folded` and `flamegraph.pl diff.folded`, on the same two
# 1,000,000-line folded files in the same run. Prints each one's wall time,
# CPU time and peak RSS (best of RUNS by wall time) and the size of the SVG,
# the Perl pair's sum, the ratio, and PASS/FAIL for each target.
#
# Usage: DIFFFOLDED_PL=/path/to/difffolded.pl \
#        FLAMEGRAPH_PL=/path/to/flamegraph.pl bench/diff.sh [BEFORE AFTER]
#        BEFORE defaults to /tmp/perfan-bench/base.folded, reused when it
#        holds its 1,000,000 lines, else made with
#        `../shared/tools/gen_folded.py base` (about a minute); AFTER to
#        /tmp/perfan-bench/after.folded, reused when it is newer than
#        BEFORE, else made with `gen_folded.py after BEFORE AFTER` (about
#        20 s).
# Env:   DIFFFOLDED_PL, FLAMEGRAPH_PL  difffolded.pl and flamegraph.pl from
#                       https://github.com/brendangregg/FlameGraph (not part
#                       of perfan; keep them out of the repository); either
#                       unset: the Perl pair is skipped and perfan measured
#                       alone
#        RUNS=3 (perfan)  PERL_RUNS=1 (the Perl pair takes about 4 minutes
#        and several GB on the default files)
#        PERFAN=build/perfan  PERL=perl
#        Then the table of several runs: `perfan diff -b slow-{1..3}.data
#        -a fast-{1..3}.data` of testdata/slow-service (Python view) against
#        `perf diff --sort symbol` of the same files, pair by pair (perf diff
#        takes one baseline): each one's times and the ratio, no target.
#        PERF=perf; unset or absent: perf's side is skipped.
# Targets (the differential flame graph issue): perfan at most 1/50 of the
# time of difffolded.pl and flamegraph.pl together, peak memory under
# 500 MB. Exits 1 when perfan cannot run or a target it could check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
PERL_RUNS=${PERL_RUNS:-1}
PERFAN=${PERFAN:-build/perfan}
PERL=${PERL:-perl}
DF=${DIFFFOLDED_PL:-}
FG=${FLAMEGRAPH_PL:-}
GEN=../shared/tools/gen_folded.py
LINES=1000000

# make FILE with `gen_folded.py ARGS... FILE`: written aside and renamed,
# as another run may be reading it (only a whole file is ever used)
make_file() {
	local file=$1 tmp
	shift
	echo "writing $file ($GEN $1)..."
	mkdir -p "$(dirname "$file")"
	tmp=$(mktemp "$file.XXXXXX")
	python3 "$GEN" "$@" "$tmp" >/dev/null 2>&1 || {
		rm -f "$tmp"
		echo "$GEN $* failed" >&2
		exit 1
	}
	chmod 644 "$tmp"
	mv -f "$tmp" "$file"
}

if [ $# -gt 0 ]; then
	[ $# -eq 2 ] || { echo "usage: $0 [BEFORE AFTER]" >&2; exit 2; }
	BEFORE=$1 AFTER=$2
	for f in "$BEFORE" "$AFTER"; do
		[ -f "$f" ] || { echo "no such file: $f" >&2; exit 1; }
	done
else
	BEFORE=/tmp/perfan-bench/base.folded
	AFTER=/tmp/perfan-bench/after.folded
	if [ ! -f "$BEFORE" ] || [ "$(wc -l <"$BEFORE")" -ne "$LINES" ]; then
		make_file "$BEFORE" base --lines "$LINES"
	fi
	if [ ! -f "$AFTER" ] || [ "$AFTER" -ot "$BEFORE" ]; then
		make_file "$AFTER" after "$BEFORE"
	fi
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# best of N runs by wall time of CMD..., its standard output to $out/o;
# sets best="SECONDS CPU_SECONDS MAXRSS_KB". A failing command stops the
# script with its error output.
measure() {
	local n=$1 s u k kb
	shift
	best=""
	for _ in $(seq "$n"); do
		if ! /usr/bin/time -o "$out/t" -f "%e %U %S %M" "$@" \
			>"$out/o" 2>"$out/e"; then
			echo "failed: $*" >&2
			cat "$out/e" >&2
			exit 1
		fi
		read -r s u k kb <"$out/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best%% *})}"; then
			best="$s $(awk "BEGIN{print $u + $k}") $kb"
		fi
	done
}

# a whole SVG: it ends by closing the document
check_svg() {
	tail -c 16 "$1" | grep -q '</svg>' || {
		echo "not a whole SVG: $1 ($2)" >&2
		exit 1
	}
}

for f in "$BEFORE" "$AFTER"; do
	size=$(stat -L -c %s "$f")
	echo "input: $f ($(wc -l <"$f") lines, $((size / 1000000)) MB)"
done
cat "$BEFORE" "$AFTER" >/dev/null # warm the page cache for all

have_perfan=no
if [ -x "$PERFAN" ] && "$PERFAN" flamegraph --help 2>/dev/null | grep -q -- --diff; then
	measure "$RUNS" "$PERFAN" flamegraph --diff "$BEFORE" "$AFTER" \
		-o "$out/perfan.svg"
	read -r tp cp mp <<<"$best"
	check_svg "$out/perfan.svg" "perfan flamegraph --diff"
	sp=$(stat -c %s "$out/perfan.svg")
	have_perfan=yes
else
	echo "perfan: skipped, $PERFAN has no flamegraph --diff (build it first)"
fi

have_pl=no
if [ -z "$DF" ] || [ -z "$FG" ]; then
	echo "difffolded.pl + flamegraph.pl: skipped, set DIFFFOLDED_PL and FLAMEGRAPH_PL to FlameGraph's scripts"
elif [ ! -f "$DF" ] || [ ! -f "$FG" ]; then
	echo "difffolded.pl + flamegraph.pl: skipped, no such file: $DF or $FG"
else
	measure "$PERL_RUNS" "$PERL" "$DF" "$BEFORE" "$AFTER"
	read -r td cd md <<<"$best"
	mv "$out/o" "$out/diff.folded"
	sd=$(stat -c %s "$out/diff.folded")
	measure "$PERL_RUNS" "$PERL" "$FG" "$out/diff.folded"
	read -r tf cf mf <<<"$best"
	mv "$out/o" "$out/pl.svg"
	rm -f "$out/diff.folded"
	check_svg "$out/pl.svg" "flamegraph.pl"
	sl=$(stat -c %s "$out/pl.svg")
	tl=$(awk -v a="$td" -v b="$tf" 'BEGIN { print a + b }')
	cl=$(awk -v a="$cd" -v b="$cf" 'BEGIN { print a + b }')
	ml=$((md > mf ? md : mf))
	have_pl=yes
fi

row() {
	awk -v n="$1" -v t="$2" -v c="$3" -v m="$4" -v s="$5" -v w="$6" 'BEGIN {
		printf "%-28s %7.2f s %7.2f s %7.0f MB %7.1f MB %s\n", n, t, c,
			m / 1024, s / 1e6, w }'
}
printf '%-28s %9s %9s %10s %10s\n' "" "wall" "cpu" "peak RSS" "output"
[ $have_perfan = no ] || row "perfan flamegraph --diff" "$tp" "$cp" "$mp" "$sp" "SVG"
if [ $have_pl = yes ]; then
	row "difffolded.pl" "$td" "$cd" "$md" "$sd" "folded"
	row "flamegraph.pl (its output)" "$tf" "$cf" "$mf" "$sl" "SVG"
	row "the two together" "$tl" "$cl" "$ml" "$sl" "SVG"
fi

# the table of 3 + 3 runs, against perf diff on the same recordings
sd=testdata/slow-service
PERF=${PERF:-perf}
if [ $have_perfan = yes ]; then
	measure "$RUNS" "$PERFAN" diff --symfs "$sd" --perf-map-dir "$sd" \
		--kallsyms testdata/kallsyms --buildid-dir "$out/no-cache" \
		--python python -b "$sd"/slow-{1..3}.data -a "$sd"/fast-{1..3}.data
	read -r tq cq mq <<<"$best"
	row "perfan diff -b 3 -a 3" "$tq" "$cq" "$mq" "$(stat -c %s "$out/o")" "table"
	if command -v "$PERF" >/dev/null; then
		measure "$RUNS" sh -c 'for i in 1 2 3; do
			"$0" diff --sort symbol "$1/slow-$i.data" "$1/fast-$i.data"
			done' "$PERF" "$sd"
		read -r tr cr mr <<<"$best"
		row "perf diff, 3 pairs" "$tr" "$cr" "$mr" "$(stat -c %s "$out/o")" "table"
		awk -v a="$tq" -v b="$tr" -v c="$cq" -v d="$cr" 'BEGIN {
			printf "perf diff time / perfan diff time: %.1fx wall, %.1fx cpu\n", b / a, d / c }'
	else
		echo "perf diff: skipped, no $PERF"
	fi
fi

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
		printf "difffolded.pl + flamegraph.pl time / perfan time: %.1fx\n", b / a }'
	target "perfan at most 1/50 of difffolded.pl + flamegraph.pl's time" \
		"$(awk -v a="$tp" -v b="$tl" 'BEGIN { print (a * 50 <= b) }')"
else
	echo "SKIP  perfan at most 1/50 of difffolded.pl + flamegraph.pl's time (not run)"
fi
target "perfan peak memory under 500 MB" \
	"$(awk -v m="$mp" 'BEGIN { print (m < 500 * 1024) }')"
echo "perfan SVG: $sp bytes"
exit $status
