#!/usr/bin/env bash
# text.sh: output is valid whatever the input holds. JSON of report, diff
# and classify is valid UTF-8 (U+FFFD for broken bytes); errors and
# warnings show control characters from inputs escaped; folded counts that
# pass 2^64-1 (alone or added up) and perf stat counts that are nan or inf
# are errors naming the line; perf script text is not taken for perf stat
# output.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
# valid_json FILE NEEDLE: FILE is strict UTF-8 JSON, and holds NEEDLE (a
# Python string) somewhere in its strings
valid_json() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
text = open(sys.argv[1], "rb").read().decode("utf-8")  # strict
doc = json.loads(text)
want = sys.argv[2].encode().decode("unicode_escape")
def strings(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from strings(v)
    elif isinstance(x, str):
        yield x
sys.exit(0 if any(want in s for s in strings(doc)) else 1)
EOF
}
expect() { # expect RC GREP WHAT: the last run's status and its stderr
	[ "$rc" = "$1" ] && grep -qF -- "$2" "$tmp/err" ||
		fail "$3: exit $rc, $(cat "$tmp/err")"
}
try() {
	rc=0
	"$PERFAN_BIN" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

# ---- 1. broken UTF-8 from the input: valid JSON, U+FFFD ---------------------

printf 'main;b\xff\xfer 5\nmain;caf\xc3\xa9 3\nmain;s\xed\xa0\x80x 1\nmain;c\xe2\x82 1\n' >"$tmp/u.folded"
printf 'main;b\xff\xfer 2\nmain;caf\xc3\xa9 3\n' >"$tmp/u0.folded"
try report --json "$tmp/u.folded"
[ "$rc" = 0 ] || fail "report --json: exit $rc"
cp "$tmp/out" "$tmp/report.json"
valid_json "$tmp/report.json" 'b\ufffd\ufffdr' || fail "report --json: not valid UTF-8 JSON with U+FFFD"
valid_json "$tmp/report.json" 'caf\u00e9' || fail "report --json: valid UTF-8 not kept"
valid_json "$tmp/report.json" 's\ufffd\ufffd\ufffdx' || fail "report --json: a surrogate is not U+FFFD"
try diff --json "$tmp/u0.folded" "$tmp/u.folded"
[ "$rc" = 0 ] && valid_json "$tmp/out" 'b\ufffd\ufffdr' || fail "diff --json: exit $rc or not valid"
# --per-thread rows: the thread's comm is the aggregation
printf '     caf\xff-123      1000      cycles\n     caf\xff-123      2000      instructions\n' >"$tmp/u.stat"
try classify --json "$tmp/u.stat"
[ "$rc" = 0 ] && valid_json "$tmp/out" 'caf\ufffd-123' || fail "classify --json: exit $rc or not valid"

# ---- 2. control characters from inputs are escaped on stderr ------------------

esc=$'\e'
printf '%s]0;owned\a%s[31m 1000 cycles\n' "$esc" "$esc" >"$tmp/esc.stat"
try classify "$tmp/esc.stat"
expect 1 'it begins "\x1b]0;owned\x07\x1b[31m 1000 cycles"' "classify: the input quoted raw"
grep -q "$esc" "$tmp/err" && fail "classify: an escape character reached stderr"
name="$tmp/x${esc}[2Jy.folded"
: >"$name"
try report "$name"
expect 0 'warning: no samples in' "report of an empty file with an escape in its name"
grep -qF 'x\x1b[2Jy.folded' "$tmp/err" || fail "report: the name not escaped: $(cat -v "$tmp/err")"
grep -q "$esc" "$tmp/err" && fail "report: an escape character reached stderr"
try collapse "$tmp/no${esc}[31mne.data"
expect 1 'no\x1b[31mne.data: No such file' "collapse of a missing file with an escape in its name"

# ---- 3. folded counts past 2^64-1: an error naming the line ----------------------

printf 'a;b 18446744073709551615\na;c 1\n' >"$tmp/ovf.folded"
for cmd in collapse report flamegraph; do
	try "$cmd" "$tmp/ovf.folded"
	expect 1 "ovf.folded:2: the counts add up to more than 2^64-1" "$cmd of counts adding up past 2^64-1"
done
printf 'a;b 18446744073709551615\na;b 1\n' >"$tmp/ovf2.folded"
try collapse "$tmp/ovf2.folded"
expect 1 "ovf2.folded:2: the counts add up" "collapse of one stack twice past 2^64-1"
# two files that each fit but not together
printf 'a;b 18446744073709551615\n' >"$tmp/max.folded"
printf 'x;y 1\n' >"$tmp/one.folded"
try flamegraph "$tmp/max.folded" "$tmp/one.folded"
expect 1 "one.folded:1: the counts add up" "flamegraph of two files past 2^64-1 together"
printf 'a;b 18446744073709551616\n' >"$tmp/big.folded"
try collapse "$tmp/big.folded"
expect 1 "big.folded:1: count larger than 2^64-1" "collapse of a count of 2^64"
# the BEFORE column of two-count lines too
printf 'a;b 18446744073709551615 1\na;c 1 1\n' >"$tmp/ovf3.folded"
try flamegraph "$tmp/ovf3.folded"
expect 1 "ovf3.folded:2: the counts add up" "flamegraph of two-count lines past 2^64-1 before"
# 2^64-1 itself is a count
try collapse "$tmp/max.folded"
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "a;b 18446744073709551615" ] || fail "2^64-1 alone: exit $rc"

# ---- 4. perf stat counts nan and inf; perf script text ----------------------------

printf '     1000      cycles\n      nan      instructions\n' >"$tmp/nan.txt"
try classify "$tmp/nan.txt"
expect 1 'nan.txt:2: count "nan" is not a finite number' "classify of a nan count (text)"
printf '1000,,cycles,1000,100.00,,\ninf,,instructions,1000,100.00,,\n' >"$tmp/inf.csv"
try classify "$tmp/inf.csv"
expect 1 'inf.csv:2: count "inf" is not a finite number' "classify of an inf count (CSV)"
printf '{"counter-value" : "-nan", "unit" : "", "event" : "cycles", "event-runtime" : 100, "pcnt-running" : 100.00}\n' >"$tmp/nan.json"
try classify "$tmp/nan.json"
expect 1 'nan.json:1: count "-nan" is not a finite number' "classify of a nan count (JSON)"
for f in testdata/fp/script.txt testdata/sched-pipe/script.txt testdata/multi-thread-fork/script.txt; do
	try classify "$f"
	expect 1 "perf script output (a sample line" "classify of $f"
done
# other people's perf script captures, some without times ("COMM PID
# EVENT:"), whose frame lines read like "COUNT EVENT" rows
peer=${PERFAN_PEERDATA:-../shared/peer-data}/perf-script
if [ -d "$peer" ]; then
	for f in funcab-cmd-01 funcab-pid-01 cycles-instructions-01 java-faults-01 mirageos-stacks-01 iperf-stacks-pidtid-01; do
		try classify "$peer/perf-$f.txt"
		expect 1 "perf script output (a sample line" "classify of peer perf-$f.txt"
	done
else
	echo "SKIP: $peer is absent: peer perf script captures not given to classify"
fi
rc=0
"$PERFAN_BIN" classify - <testdata/fp/script.txt >/dev/null 2>"$tmp/err" || rc=$?
expect 1 "standard input:1: perf script output" "classify of perf script text on stdin"

[ "$fails" = 0 ] || exit 1
echo "ok: broken UTF-8 in report/diff/classify JSON as U+FFFD; escapes from inputs escaped in messages; folded counts past 2^64-1 and nan/inf perf stat counts are errors naming the line; perf script text refused by classify"
