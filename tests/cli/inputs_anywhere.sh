#!/usr/bin/env bash
# inputs_anywhere.sh: '-' for an option's file and -o after the inputs
# (issue 36, item 7). triage --stat - reads perf stat output from standard
# input, as the path gives it; classify FILE -o OUT writes what
# classify -o OUT FILE writes; every command that takes -o takes it after
# its inputs, with the same output; standard input named for two inputs
# is a usage error that says so, not a second read of nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

F=(--symfs testdata/fp --kallsyms testdata/kallsyms)
G=(--kallsyms testdata/gil/kallsyms --symfs testdata/gil/symfs
	--perf-map-dir testdata/gil)
FP=testdata/fp/perf.data
STAT=testdata/perf-stat-local/busy.txt
TID=$(awk '$1 == "R" {print $2}' testdata/gil/critical.out)
export HOME=$tmp # no build-id cache of the machine's

# run NAME ARGS...: perfan ARGS, stdout in $tmp/NAME, stderr in
# $tmp/NAME.err, exit status in $rc
run() {
	local name=$1
	shift
	rc=0
	"$PERFAN_BIN" "$@" >"$tmp/$name" 2>"$tmp/$name.err" || rc=$?
}

# ---- 1. triage --stat - -------------------------------------------------------

checks=$((checks + 1))
run path triage --text --stat "$STAT" "${F[@]}" "$FP"
rc_path=$rc
run std triage --text --stat - "${F[@]}" "$FP" <"$STAT"
if [ "$rc_path" != 0 ] || [ "$rc" != 0 ]; then
	fail "triage --text --stat: exit $rc_path by path, $rc through -: $(head -c 300 "$tmp/std.err")"
elif ! grep -q "Is the CPU stalled? cpu-bound" "$tmp/path"; then
	fail "triage --text --stat FILE: no perf stat verdict in the findings"
elif ! cmp -s "$tmp/path" "$tmp/std"; then
	fail "triage --text --stat - differs from --stat FILE: $(diff "$tmp/path" "$tmp/std" | head -5)"
fi
# the HTML page, to a file
checks=$((checks + 1))
run x triage --stat "$STAT" -o "$tmp/path.html" "${F[@]}" "$FP"
run x triage --stat - -o "$tmp/std.html" "${F[@]}" "$FP" <"$STAT"
[ "$rc" = 0 ] && cmp -s "$tmp/path.html" "$tmp/std.html" ||
	fail "triage --stat - -o PAGE: exit $rc, or not the page --stat FILE makes"

# ---- 2. classify FILE -o OUT -------------------------------------------------

checks=$((checks + 1))
run x classify -o "$tmp/before.txt" "$STAT"
run x classify "$STAT" -o "$tmp/after.txt"
if [ "$rc" != 0 ]; then
	fail "classify FILE -o OUT: exit $rc: $(head -c 300 "$tmp/x.err")"
elif ! grep -q . "$tmp/before.txt" || ! cmp -s "$tmp/before.txt" "$tmp/after.txt"; then
	fail "classify FILE -o OUT wrote other than classify -o OUT FILE"
fi
checks=$((checks + 1))
run x classify "$STAT" --json
run y classify --json "$STAT"
[ "$rc" = 0 ] && cmp -s "$tmp/x" "$tmp/y" || fail "classify FILE --json: not the JSON of classify --json FILE"
# what follows -- is the command's own, and FILE with -- is an error
checks=$((checks + 1))
run x classify "$STAT" -- true
[ "$rc" = 2 ] && grep -q "give FILE or -- COMMAND, not both" "$tmp/x.err" ||
	fail "classify FILE -- COMMAND: exit $rc, not the usage error: $(head -c 300 "$tmp/x.err")"

# ---- 3. every command takes -o after its inputs ------------------------------

COMMANDS=(
	"annotate ${F[*]} $FP"
	"classify $STAT"
	"collapse ${F[*]} $FP"
	"convert --to pprof ${F[*]} $FP"
	"critical --tid $TID ${G[*]} testdata/gil/critical.data"
	"diff ${F[*]} $FP testdata/zstd/perf.data"
	"dump testdata/offcpu/perf.data"
	"flamegraph ${F[*]} $FP"
	"gil ${G[*]} testdata/gil/gil-312-2.data"
	"header $FP"
	"report ${F[*]} $FP"
	"scaling 1:testdata/pyspy/raw.txt 2:testdata/pyspy/fixed.txt"
	"stats $FP"
	"timeline testdata/offcpu/perf.data"
	"triage ${F[*]} $FP"
)
for spec in "${COMMANDS[@]}"; do
	read -r -a a <<<"$spec"
	cmd=${a[0]}
	checks=$((checks + 1))
	run x "$cmd" -o "$tmp/first.$cmd" "${a[@]:1}"
	rc_first=$rc
	run y "$cmd" "${a[@]:1}" -o "$tmp/last.$cmd"
	if [ "$rc_first" != 0 ] || [ "$rc" != 0 ]; then
		fail "$cmd: exit $rc_first with -o first, $rc with -o last: $(head -c 300 "$tmp/y.err")"
	elif ! [ -s "$tmp/first.$cmd" ] || ! cmp -s "$tmp/first.$cmd" "$tmp/last.$cmd"; then
		fail "$cmd ARGS -o OUT: not what $cmd -o OUT ARGS writes"
	fi
done

# ---- 4. standard input for two inputs ------------------------------------------

# twice CMD ARGS...: a usage error (2) that says '-' is given twice
twice() {
	checks=$((checks + 1))
	rc=0
	timeout 60 "$PERFAN_BIN" "$@" <"$FP" >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "^perfan $1: '-' (standard input) is given .*: it can be read only once$" "$tmp/err" ||
		fail "$*: exit $rc, not the usage error: $(head -c 300 "$tmp/err")"
}
twice diff - -
twice diff -b "$FP" - -a -
twice triage --stat - -
twice triage --stat - -b - -a "$FP"
twice classify --perf-data - # FILE not given: standard input too
twice classify --perf-data - -
twice flamegraph - -
twice scaling 1:- 2:-

[ "$fails" = 0 ] || exit 1
echo "ok: $checks checks: triage --stat - as the path; classify FILE -o OUT; -o after the inputs of 15 commands, same bytes; '-' for two inputs a usage error"
