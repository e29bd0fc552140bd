#!/bin/bash
# tests/cli/collapse_text.sh: `perfan collapse` on text: folded stacks
# (merged, sorted, passed through) and perf script output (by path, from a
# pipe, with options, two events); -o; exit statuses and messages.
# (collapse.sh compares perf.data with perf script text.)
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
TESTDATA=${PERFAN_TESTDATA:-testdata}

. tests/tools/cli_common.sh

# expect STATUS CMD...: runs CMD with stdout in $tmp/out, stderr in $tmp/err
expect() {
	local want=$1
	shift
	checks=$((checks + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" != "$want" ]; then
		fail "$* exited $got, not $want ($(head -c 300 "$tmp/err"))"
		return 1
	fi
	return 0
}

same() { # same FILE WANT-TEXT LABEL
	checks=$((checks + 1))
	if ! diff -u <(printf '%s' "$2") "$1" >"$tmp/diff"; then
		fail "$3:"
		head -20 "$tmp/diff"
	fi
}

# ---- folded in, folded out -----------------------------------------------

printf 'b;c 2\r\n\nmain;a 3  \nb;c\t5\nmain 1\nmain;a 4\nf1;x 1\nf10 2\n' >"$tmp/in.folded"
want='b;c 7
f10 2
f1;x 1
main 1
main;a 7
'
expect 0 "$BIN" collapse "$tmp/in.folded" && same "$tmp/out" "$want" "folded pass-through"
expect 0 "$BIN" collapse - <"$tmp/in.folded" && same "$tmp/out" "$want" "folded from standard input"
cat "$tmp/in.folded" | expect 0 "$BIN" collapse - && same "$tmp/out" "$want" "folded from a pipe"
# options that shape frames do not apply to folded input: a warning
expect 0 "$BIN" collapse --kernel "$tmp/in.folded" && same "$tmp/out" "$want" "folded with --kernel"
grep -q "warning" "$tmp/err" || fail "no warning for --kernel on folded input"

# -o writes the file whole
expect 0 "$BIN" collapse -o "$tmp/o.folded" "$tmp/in.folded" &&
	same "$tmp/o.folded" "$want" "collapse -o"
[ -s "$tmp/out" ] && fail "collapse -o also wrote to stdout"

# a bad line: its file and line named, exit 1, no output file
printf 'a;b 1\nc 2\nno count here\n' >"$tmp/bad.folded"
expect 1 "$BIN" collapse -o "$tmp/bad.out" "$tmp/bad.folded"
grep -q "^perfan collapse: $tmp/bad.folded:3: " "$tmp/err" ||
	fail "bad folded line: message lacks FILE:3: ($(cat "$tmp/err"))"
[ -e "$tmp/bad.out" ] && fail "a failed collapse -o left $tmp/bad.out"
ls "$tmp" | grep -q 'bad.out.tmp' && fail "a failed collapse -o left its temporary file"

# ---- perf script text --------------------------------------------------------

script=$TESTDATA/fp/script.txt
if [ -f "$script" ]; then
	expect 0 "$BIN" collapse "$script" && cp "$tmp/out" "$tmp/fp.folded"
	checks=$((checks + 1))
	# stackcollapse-perf.pl sums the periods perf script shows
	total=$(awk '{s += $NF} END {print s}' "$tmp/fp.folded")
	nsamples=$(grep -c 'cpu-clock:' "$script")
	[ "$total" = $((nsamples * 1001001)) ] ||
		fail "fp/script.txt: total $total, want $nsamples samples x 1001001"
	grep -q '^prog;__libc_start_call_main;main;work;hot_a ' "$tmp/fp.folded" ||
		fail "fp/script.txt: no prog;...;work;hot_a stack"
	cat "$script" | expect 0 "$BIN" collapse - && same "$tmp/out" "$(cat "$tmp/fp.folded")
" "perf script text from a pipe"
	expect 0 "$BIN" collapse --samples "$script"
	checks=$((checks + 1))
	[ "$(awk '{s += $NF} END {print s}' "$tmp/out")" = "$nsamples" ] ||
		fail "--samples does not count one per sample"
	expect 0 "$BIN" collapse --tid --kernel "$TESTDATA/sched/script.txt"
	checks=$((checks + 1))
	# the default perf script output has no pid: "?" as in stackcollapse-perf.pl
	grep -q '^sched-?/[0-9]*;.*;__schedule_\[k\] ' "$tmp/out" ||
		fail "--tid --kernel: no comm-pid/tid root or _[k] frames"
	# two events: the first is kept, with a warning; --event picks
	expect 0 "$BIN" collapse --samples "$TESTDATA/two-events/script.txt"
	n1=$(awk '{s += $NF} END {print s}' "$tmp/out")
	grep -q "first event" "$tmp/err" || fail "two events: no warning"
	expect 0 "$BIN" collapse --samples --event task-clock "$TESTDATA/two-events/script.txt"
	n2=$(awk '{s += $NF} END {print s}' "$tmp/out")
	checks=$((checks + 1))
	[ "$n1" = "$(grep -c ' cpu-clock:' "$TESTDATA/two-events/script.txt")" ] &&
		[ "$n2" = "$(grep -c ' task-clock:' "$TESTDATA/two-events/script.txt")" ] ||
		fail "two events: $n1 and $n2 samples"
	expect 0 "$BIN" collapse --samples --event-filter task-clock "$TESTDATA/two-events/script.txt"
	checks=$((checks + 1))
	[ "$(awk '{s += $NF} END {print s}' "$tmp/out")" = "$n2" ] ||
		fail "--event-filter and --event differ"
else
	echo "SKIP: no $script"
fi

# ---- usage and failures ------------------------------------------------------------

expect 1 "$BIN" collapse "$tmp/does-not-exist"
grep -q "^perfan collapse: $tmp/does-not-exist: " "$tmp/err" || fail "missing file: $(cat "$tmp/err")"
(cd "$tmp" && expect 1 "$BIN" collapse)
grep -q "perf.data" "$tmp/err" || fail "no FILE: perf.data is not the default"
head -c 4096 /dev/urandom | tr -d '\n' | sed 's/^/\x00/' >"$tmp/binary"
expect 1 "$BIN" collapse "$tmp/binary"
grep -q "neither" "$tmp/err" || fail "binary input: $(cat "$tmp/err")"
expect 0 "$BIN" collapse - </dev/null && same "$tmp/out" "" "empty input"
expect 2 "$BIN" collapse --no-such-option "$tmp/in.folded"
expect 2 "$BIN" collapse a b
expect 0 "$BIN" collapse --help
grep -q -- "--event-filter" "$tmp/out" || fail "--help lacks --event-filter"
expect 0 "$BIN" help collapse

echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
