#!/usr/bin/env bash
# threads.sh: --threads changes nothing. Every perf.data under testdata/ is
# read with one thread, with two (the second reads and orders ahead, either
# decodes) and with three (a third unwinds DWARF user stacks ahead): report,
# report --json and collapse print the same bytes, the same warnings and
# errors, and exit the same way. A recording cut in the middle of a record
# keeps its samples and its warning with each, and so does one with a
# sample that does not decode; the time and process
# filters, the off-CPU and wall views, and a stream read from a pipe (one
# thread whatever N is) agree too. So do flame graphs of folded files
# (pruned, read on two threads): sorted, from a pipe, out of order early
# and late, with a bad line.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
mkdir "$tmp/nocache"
export PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm PERFAN_HOST_KALLSYMS=
H=(--symfs testdata --kallsyms testdata/kallsyms --buildid-dir "$tmp/nocache")

# same NAME ARGS...: the command with --threads 1, --threads 2 and
# --threads 3 prints the same stdout and stderr and exits the same way.
same() {
	local name=$1 rc1=0 rc n
	shift
	"$PERFAN_BIN" "$@" --threads 1 >"$tmp/1.out" 2>"$tmp/1.err" || rc1=$?
	for n in 2 3; do
		rc=0
		"$PERFAN_BIN" "$@" --threads $n >"$tmp/$n.out" 2>"$tmp/$n.err" || rc=$?
		checks=$((checks + 1))
		[ "$rc1" = "$rc" ] || fail "$name: exit $rc1 with one thread, $rc with $n"
		cmp -s "$tmp/1.out" "$tmp/$n.out" || {
			fail "$name: output differs with $n threads"
			diff "$tmp/1.out" "$tmp/$n.out" | head -5
		}
		cmp -s "$tmp/1.err" "$tmp/$n.err" || {
			fail "$name: messages differ with $n threads"
			diff "$tmp/1.err" "$tmp/$n.err" | head -5
		}
	done
}

n=0
big=""
while IFS= read -r f; do
	n=$((n + 1))
	same "report $f" report "${H[@]}" "$f"
	same "report --json $f" report --json "${H[@]}" "$f"
	same "collapse $f" collapse "${H[@]}" "$f"
	# the largest recording: the one most read ahead
	if [ -z "$big" ] || [ "$(stat -c %s "$f")" -gt "$(stat -c %s "$big")" ]; then big=$f; fi
done < <(find testdata -name '*.data' -type f | LC_ALL=C sort)
[ "$n" -ge 50 ] || fail "only $n recordings found under testdata/"

# the outputs compared are not empty: the two-thread run counts samples
# (of the recording's first event by perf's stats, named with --event: a
# recording of several events folds one)
"$PERFAN_BIN" stats "$big" >"$tmp/stats.txt"
ev=$(awk '/ stats:$/ && !/^Aggregated/ { sub(/ stats:$/, ""); print; exit }' "$tmp/stats.txt")
"$PERFAN_BIN" collapse --samples "${H[@]}" --threads 2 ${ev:+--event "$ev"} "$big" >"$tmp/big.folded"
got=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/big.folded")
want=$(awk '$1 == "SAMPLE" && !all { all = $3 }
	/ stats:$/ && !/^Aggregated/ { ev = 1; next } ev && $1 == "SAMPLE" { first = $3; exit }
	END { print first ? first : all }' "$tmp/stats.txt")
[ "$got" = "$want" ] || fail "collapse --threads 2 $big: $got samples, stats says $want"

# views and filters on the largest recording and an off-CPU one
same "flamegraph $big" flamegraph "${H[@]}" "$big"
same "convert pprof $big" convert --to pprof -o /dev/stdout "${H[@]}" "$big"
start=$("$PERFAN_BIN" header "$big" | awk -F': ' '/^# time of first sample/ { print $2 + 0.05 }')
[ -n "$start" ] || fail "header $big: no time of first sample"
same "report --time $big" report "${H[@]}" --time "$start," "$big"
same "report --off-cpu" report --off-cpu "${H[@]}" testdata/offcpu/perf.offcpu.data
same "report --wall" report --wall "${H[@]}" testdata/offcpu/perf.offcpu.data

# a recording cut in the middle of a record, at several points: the samples
# before the cut and one warning, the same with two threads
size=$(stat -c %s "$big")
for cut in $((size / 3 + 7)) $((size / 2 + 3)) $((size - 13)); do
	head -c "$cut" "$big" >"$tmp/cut.data"
	same "collapse cut at $cut" collapse --samples "${H[@]}" "$tmp/cut.data"
	grep -q "cut" "$tmp/2.err" || fail "cut at $cut: no warning that the recording was cut: $(cat "$tmp/2.err")"
	[ -s "$tmp/2.out" ] || fail "cut at $cut: no samples"
done

# a sample that does not decode, in a DWARF recording: the records read
# ahead are decoded before their turn, for the unwinding workers (by the
# reader or the caller's thread); the error still comes in its place,
# after the samples before it
at=$(python3 tests/tools/patch_sample.py testdata/dwarf/perf.data "$tmp/undecodable.data" 100 48 0xffffffff)
same "collapse, a sample that does not decode" collapse --samples "${H[@]}" "$tmp/undecodable.data"
grep -q "offset $at .*too short for its callchain" "$tmp/2.err" ||
	fail "a sample that does not decode: $(cat "$tmp/2.err")"
checks=$((checks + 1))
[ "$(awk '{ s += $NF } END { print s }' "$tmp/2.out")" = 99 ] ||
	fail "a sample that does not decode: not the 99 samples before it"
same "report, a sample that does not decode" report "${H[@]}" "$tmp/undecodable.data"

# a stream: read once, on one thread, the same output as the file
"$PERFAN_BIN" collapse "${H[@]}" --threads 2 - <testdata/pipe/perf.data >"$tmp/pipe2" 2>/dev/null ||
	fail "collapse --threads 2 from a pipe: exit $?"
"$PERFAN_BIN" collapse "${H[@]}" --threads 1 - <testdata/pipe/perf.data >"$tmp/pipe1" 2>/dev/null ||
	fail "collapse --threads 1 from a pipe: exit $?"
checks=$((checks + 1))
cmp -s "$tmp/pipe1" "$tmp/pipe2" && [ -s "$tmp/pipe1" ] || fail "a pipe: outputs differ or are empty"

# folded input, pruned as flamegraph reads it: on two threads one reads the
# lines and interns their frames, the other builds the pruning tree
for f in testdata/script-wild/*.folded; do
	same "flamegraph $f" flamegraph "$f"
done
"$PERFAN_BIN" collapse "${H[@]}" "$big" >"$tmp/b.folded"
awk '{ for (k = 0; k < 400; k++) print "p" k ";" $0 }' "$tmp/b.folded" |
	LC_ALL=C sort >"$tmp/large.folded"
lines=$(wc -l <"$tmp/large.folded")
checks=$((checks + 1))
[ "$(stat -c %s "$tmp/large.folded")" -gt $((3 << 20)) ] ||
	fail "the large folded file is only $(stat -c %s "$tmp/large.folded") bytes"
same "flamegraph, a large sorted folded file" flamegraph "$tmp/large.folded"
grep -q '<title>p399' "$tmp/2.out" || fail "large folded file: no frame p399 in the graph"
for t in 1 2; do
	cat "$tmp/large.folded" | "$PERFAN_BIN" flamegraph --threads $t - >"$tmp/pipe$t.svg" ||
		fail "flamegraph --threads $t from a pipe: exit $?"
done
checks=$((checks + 1))
cmp -s "$tmp/pipe1.svg" "$tmp/pipe2.svg" && cmp -s "$tmp/pipe1.svg" "$tmp/2.out" ||
	fail "flamegraph from a pipe: not the graph of the file"
same "flamegraph --minwidth 0.001%, the same" flamegraph --minwidth 0.001% "$tmp/large.folded"
# out of order before anything folds (reversed), and after (a line put back)
tac "$tmp/large.folded" >"$tmp/rev.folded"
same "flamegraph, lines in reverse order" flamegraph "$tmp/rev.folded"
{ sed -n "1,$((lines * 2 / 3))p" "$tmp/large.folded"; echo "a;late 5"; sed -n "$((lines * 2 / 3 + 1)),\$p" "$tmp/large.folded"; } >"$tmp/late.folded"
same "flamegraph, a line out of order late" flamegraph "$tmp/late.folded"
# a bad line deep in the file: the same message and exit
{ sed -n "1,$((lines - 20))p" "$tmp/large.folded"; echo "p9;no count"; } >"$tmp/bad.folded"
same "flamegraph, a bad line" flamegraph "$tmp/bad.folded"
grep -q "bad.folded:$((lines - 19)):" "$tmp/2.err" || fail "a bad line: $(cat "$tmp/2.err")"

# a bad value is refused
checks=$((checks + 1))
if "$PERFAN_BIN" report --threads 0 "$big" >/dev/null 2>"$tmp/bad.err"; then
	fail "--threads 0 accepted"
fi
grep -q -- "--threads" "$tmp/bad.err" || fail "--threads 0: no message naming it"

[ "$fails" = 0 ] || { echo "$fails of $checks checks failed"; exit 1; }
echo "threads: $checks checks on $n recordings passed"
