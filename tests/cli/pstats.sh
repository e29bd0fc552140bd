#!/usr/bin/env bash
# tests/cli/pstats.sh: perfan report and perfan flamegraph on the cProfile
# dumps of testdata/pstats/: the table and the caller and callee tables
# are the lines each Python's pstats printed (its committed output), the
# sort keys, JSON, the flame graph estimate saying it is one, and a damaged
# dump or a wrong --sort with a clear error and exit status 1 or 2.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)/pstats
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

# block FILE START: from the line holding START to the next empty line
block() {
	awk -v s="$2" 'index($0, s) { on = 1 } on && $0 == "" { exit } on' "$1"
}

for v in 3.8 3.11 3.13; do
	(cd "$TD" && "$PERFAN_BIN" report -s name "py$v.pstats") >"$tmp/r" 2>"$tmp/e" ||
		{ err "py$v: perfan report: $(cat "$tmp/e")"; continue; }
	for what in "print_stats:   ncalls  tottime" \
		"print_callers:was called by..." "print_callees:called..."; do
		f=${what%%:*} start=${what#*:}
		block "$TD/py$v.$f.txt" "$start" >"$tmp/want"
		block "$tmp/r" "$start" >"$tmp/got"
		[ -s "$tmp/want" ] || err "py$v: no '$start' in $f.txt"
		cmp -s "$tmp/want" "$tmp/got" ||
			err "py$v: $f differs: $(diff "$tmp/want" "$tmp/got" | head -5)"
	done
	grep -q "^88583 function calls (80024 primitive calls) in " "$tmp/r" ||
		err "py$v: no summary line"
done

# cumulative by default, tottime on request, the notes on the top rows
cd "$TD"
"$PERFAN_BIN" report py3.11.pstats >"$tmp/cum"
"$PERFAN_BIN" report -s tottime --limit 3 -g none py3.11.pstats >"$tmp/tot"
grep -A1 'filename:lineno(function)' "$tmp/cum" | tail -1 |
	grep -q '{built-in method builtins.exec}$' || err "cumulative: exec is not first"
grep -A1 'filename:lineno(function)' "$tmp/tot" | tail -1 |
	grep -q 'workload.py:11(inline_cost)$' || err "tottime: inline_cost is not first"
[ "$(grep -c '^ *[0-9/]* *[0-9]*\.[0-9]\{3\} ' "$tmp/tot")" = 3 ] || err "--limit 3"
grep -q 'was called by' "$tmp/tot" && err "-g none still prints the caller table"
grep -q 'workload.py:11(inline_cost): an inline cost' "$tmp/cum" || err "no inline-cost note"
grep -q 'workload.py:21(too_often): work done too often: 60000 calls' "$tmp/cum" ||
	err "no too-often note"

# JSON, valid, with the recursion's counts
"$PERFAN_BIN" report --json py3.13.pstats >"$tmp/j"
python3 - "$tmp/j" <<'PY' || err "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["function"]: x for x in d["functions"]}
fib = f["workload.py:33(fib)"]
assert (fib["ncalls"], fib["primitive_calls"]) == (8361, 1), fib
assert [c["function"] for c in fib["callers"]] == ["workload.py:33(fib)", "workload.py:57(main)"]
assert {n["kind"] for n in d["notes"]} == {"inline-cost", "too-often"}, d["notes"]
PY

# -o writes the file
"$PERFAN_BIN" report -o "$tmp/out.txt" py3.8.pstats
cmp -s <("$PERFAN_BIN" report py3.8.pstats) "$tmp/out.txt" || err "-o"

# the flame graph: estimated, and said so in the graph and on stderr
if "$PERFAN_BIN" flamegraph -o "$tmp/f.svg" py3.11.pstats 2>"$tmp/e"; then
	grep -q 'approximation' "$tmp/f.svg" || err "flamegraph: no approximation subtitle"
	grep -q 'inline_cost' "$tmp/f.svg" || err "flamegraph: no inline_cost"
	grep -q 'note: .*approximation' "$tmp/e" || err "flamegraph: no note"
else
	err "flamegraph: $(cat "$tmp/e")"
fi

# a damaged dump: exit 1 with the offset; a --sort it has no key for: 2
head -c 1000 py3.11.pstats >"$tmp/cut.pstats"
set +e
"$PERFAN_BIN" report "$tmp/cut.pstats" >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "cut dump: exit $rc"
grep -q "cut.pstats: offset [0-9]*: .*input" "$tmp/e" || err "cut dump: $(cat "$tmp/e")"
set +e
"$PERFAN_BIN" report -s sym py3.11.pstats >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 2 ] || err "-s sym: exit $rc"
grep -q "'sym' is none of cumulative" "$tmp/e" || err "-s sym: $(cat "$tmp/e")"

# through the registry, as any input: standard input, a FIFO, collapse and
# convert, the estimate's stacks the same whichever way the dump comes in
"$PERFAN_BIN" report py3.11.pstats >"$tmp/file.txt"
"$PERFAN_BIN" report - <py3.11.pstats >"$tmp/stdin.txt" || err "report -"
"$PERFAN_BIN" report <(cat py3.11.pstats) >"$tmp/fifo.txt" || err "report <(...)"
for f in stdin fifo; do
	# the first line names the input
	cmp -s <(tail -n +2 "$tmp/file.txt") <(tail -n +2 "$tmp/$f.txt") ||
		err "report from $f differs from the file's"
done
"$PERFAN_BIN" collapse py3.11.pstats >"$tmp/c.folded" 2>"$tmp/e" || err "collapse: $(cat "$tmp/e")"
grep -q 'note: .*approximation' "$tmp/e" || err "collapse: no note"
grep -q 'inline_cost' "$tmp/c.folded" || err "collapse: no inline_cost"
cat py3.11.pstats | "$PERFAN_BIN" collapse - >"$tmp/c2.folded" 2>/dev/null || err "collapse -"
cmp -s "$tmp/c.folded" "$tmp/c2.folded" || err "collapse - differs"
"$PERFAN_BIN" flamegraph -o "$tmp/f2.svg" - <py3.11.pstats 2>/dev/null || err "flamegraph -"
grep -q 'approximation' "$tmp/f2.svg" || err "flamegraph -: no subtitle"
"$PERFAN_BIN" convert py3.11.pstats -o "$tmp/c3.folded" 2>/dev/null || err "convert"
cmp -s "$tmp/c.folded" "$tmp/c3.folded" || err "convert .folded differs from collapse"
# the estimate's total is the dump's total time (the summary line's seconds)
python3 - "$tmp/c.folded" "$tmp/file.txt" <<'PY' || err "collapse total"
import re, sys
tot = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]) if l.strip())
secs = float(re.search(r"primitive calls\) in ([0-9.]+) seconds", open(sys.argv[2]).read()).group(1))
assert abs(tot / 1e9 - secs) <= 0.0015 + 1e-3 * secs, (tot, secs)
PY

[ $fail = 0 ] && echo "pstats: ok"
exit $fail
