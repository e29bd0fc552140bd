#!/usr/bin/env bash
# tests/cli/pyspy.sh: perfan on py-spy's raw output (testdata/pyspy, a real
# run of app.py written in py-spy's format): report shows summarize_slow as
# one row whose share is the sum of its lines' (--lineno), and the
# processes as commands, not <module>; collapse, flamegraph and diff of two
# runs; standard input and FIFOs; a binary, a damaged and a cut file.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)/pyspy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
P=$PERFAN_BIN

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

# share FILE SYMBOL-REGEX: the Children column of the rows whose symbol
# matches, one per line
share() {
	awk -v re="$2" '$1 ~ /%$/ && $0 ~ re { sub(/%/, "", $1); print $1 }' "$1"
}

cd "$TD"
# ---- report: a function is one row, its share the sum of its lines' -------
"$P" report -s sym raw.txt >"$tmp/fn" 2>"$tmp/e" || err "report: $(cat "$tmp/e")"
"$P" report -s sym --lineno raw.txt >"$tmp/ln" 2>"$tmp/e" ||
	err "report --lineno: $(cat "$tmp/e")"
[ "$(share "$tmp/fn" 'summarize_slow \(app\.py\)$' | wc -l)" = 1 ] ||
	err "report: summarize_slow is not one row"
share "$tmp/fn" 'summarize_slow \(app\.py:' | grep -q . &&
	err "report: a line number without --lineno"
nl=$(share "$tmp/ln" 'summarize_slow \(app\.py:[0-9]+\)$' | wc -l)
[ "$nl" -ge 3 ] || err "report --lineno: summarize_slow on $nl lines, not 3"
f=$(share "$tmp/fn" 'summarize_slow \(app\.py\)$')
s=$(share "$tmp/ln" 'summarize_slow \(app\.py:[0-9]+\)$' | awk '{ s += $1 } END { print s }')
# two decimals each: the sum of the rounded line shares is within 0.01 per
# line (the unit suite compares the counts exactly)
awk -v f="$f" -v s="$s" -v n="$nl" 'BEGIN { d = f - s; exit !(d <= n * 0.005 + 1e-9 && -d <= n * 0.005 + 1e-9) }' ||
	err "summarize_slow: $f% as a function, $s% over its lines"
echo "summarize_slow: $f% as one function; its $nl lines: $(share "$tmp/ln" 'summarize_slow \(app\.py:[0-9]+\)$' | tr '\n' ' ')(sum $s%)"

# the command column: the processes, never <module>
"$P" report -s comm raw-subprocesses.txt >"$tmp/comm"
for c in python_app.py_--child python_app.py_--leaf; do
	grep -q "%  *[0-9.x]*  *$c\$" "$tmp/comm" || err "report -s comm: no $c"
done
"$P" report raw.txt >"$tmp/r"
grep -q '%  *[0-9.x]*  *<module>  ' "$tmp/r" && err "report: <module> as the command"
"$P" report -s pid,sym raw-subprocesses.txt >"$tmp/pid"
grep -q ' 30755:python_app.py_--leaf  .* summarize_slow (app.py)$' "$tmp/pid" ||
	err "report -s pid: no pid 30755 for the child"

# ---- collapse ----------------------------------------------------------------
# folded line numbers: py-spy's own --nolineno of the same samples
"$P" collapse raw.txt >"$tmp/c1"
"$P" collapse raw-nolineno.txt >"$tmp/c2"
cmp -s "$tmp/c1" "$tmp/c2" || err "collapse: not py-spy's --nolineno: $(diff "$tmp/c1" "$tmp/c2" | head -3)"
# --lineno: py-spy's lines as they are, sorted
"$P" collapse --lineno raw.txt | cmp -s - <(LC_ALL=C sort raw.txt) ||
	err "collapse --lineno: not raw.txt sorted"
# roots: the process, then the thread by name
"$P" collapse raw-subprocesses.txt >"$tmp/c3"
grep -q '^python_app.py_--leaf;worker;_bootstrap (threading.py);' "$tmp/c3" ||
	err "collapse: no process;thread roots"
"$P" collapse --tid raw-subprocesses.txt 2>"$tmp/e" >"$tmp/c4"
grep -q '^python_app.py_--leaf-30755/30757;thread (30757): worker;' "$tmp/c4" ||
	err "collapse --tid: no comm-PID/TID root"
[ -s "$tmp/e" ] && err "collapse --tid warns: $(cat "$tmp/e")"

# ---- flamegraph ------------------------------------------------------------------
"$P" flamegraph -o "$tmp/f.svg" raw.txt 2>"$tmp/e" || err "flamegraph: $(cat "$tmp/e")"
grep -q '<title>summarize_slow (app.py)<' "$tmp/f.svg" ||
	err "flamegraph: no summarize_slow (app.py)"
grep -q 'summarize_slow (app.py:' "$tmp/f.svg" && err "flamegraph: line numbers"
"$P" flamegraph --lineno -o "$tmp/fl.svg" raw.txt
grep -q '<title>summarize_slow (app.py:17)<' "$tmp/fl.svg" ||
	err "flamegraph --lineno: no summarize_slow (app.py:17)"

# ---- two runs --------------------------------------------------------------------
"$P" diff raw.txt fixed.txt >"$tmp/d" 2>"$tmp/e" || err "diff: $(cat "$tmp/e")"
grep -q '%  *\(+- *[0-9.]*  *\)\?summarize_slow (app.py)$' "$tmp/d" || err "diff: no summarize_slow row"
grep -q '[-+][0-9.]*%  *\(+- *[0-9.]*  *\)\?<genexpr> (app.py)$' "$tmp/d" || err "diff: no <genexpr> change"
"$P" diff <(cat raw.txt) <(cat fixed.txt) 2>/dev/null | grep -v '^#' >"$tmp/d2"
grep -v '^#' "$tmp/d" | cmp -s - "$tmp/d2" || err "diff of FIFOs differs"

# ---- standard input, FIFO ------------------------------------------------------------
"$P" collapse - <raw-subprocesses.txt >"$tmp/s1"
cmp -s "$tmp/s1" "$tmp/c3" || err "collapse - (stdin) differs"
"$P" report <(cat raw-subprocesses.txt) | tail -n +2 >"$tmp/s2"
"$P" report raw-subprocesses.txt | tail -n +2 | cmp -s - "$tmp/s2" ||
	err "report <(cat ...) differs"

# ---- a binary, a damaged and a cut file ------------------------------------------------
head -c 4096 "$P" >"$tmp/binary"
set +e
"$P" collapse "$tmp/binary" >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "binary: exit $rc"
grep -q "perfan collapse: .*binary: neither perf.data" "$tmp/e" || err "binary: $(cat "$tmp/e")"

sed '3s/ [0-9]*$//' raw.txt >"$tmp/damaged.txt"
for cmd in collapse report flamegraph; do
	set +e
	"$P" $cmd "$tmp/damaged.txt" >/dev/null 2>"$tmp/e"
	rc=$?
	set -e
	[ $rc = 1 ] || err "damaged, $cmd: exit $rc"
	grep -q "damaged.txt: offset [0-9]* (line 3): expected a stack, a space and a count" "$tmp/e" ||
		err "damaged, $cmd: $(cat "$tmp/e")"
done

# cut in its fourth line: the three before it are read, the cut one left
# out with a warning (its count or its last frame may be cut)
head -c 700 raw-subprocesses.txt >"$tmp/cut.txt"
"$P" collapse "$tmp/cut.txt" >"$tmp/cut.out" 2>"$tmp/e" || err "cut: exit $?"
grep -q "cut.txt: offset [0-9]* (line 4): the last line has no newline: cut short, left out" "$tmp/e" ||
	err "cut: $(cat "$tmp/e")"
[ "$(awk '{ s += $NF } END { print s }' "$tmp/cut.out")" = \
	"$(head -3 raw-subprocesses.txt | awk '{ s += $NF } END { print s }')" ] ||
	err "cut: not the three whole lines"

[ $fail = 0 ] && echo "pyspy: ok"
exit $fail
