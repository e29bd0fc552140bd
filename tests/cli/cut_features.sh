#!/usr/bin/env bash
# cut_features.sh: a sched_switch recording cut before or in its feature
# section (issue 36, item 5). testdata/offcpu/perf.data cut at 43, 45, 47
# and 49 fiftieths of its length: the first line on stderr says the
# recording was cut, and, where the tracing data is gone, that the
# tracepoints' names and formats are lost with it; one such line, never
# one per feature; and the off-CPU error never tells the user to record
# the switches again when the samples are there (perf script counts them
# in the cut file), but says their names were lost with the cut.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

D=testdata/offcpu
size=$(stat -c %s "$D/perf.data")
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache")
# the feature section's offset: where the data section ends (perf's header)
data_end=$(python3 -c '
import struct, sys
h = open(sys.argv[1], "rb").read(104)
off, size = struct.unpack_from("<2Q", h, 40)
print(off + size)' "$D/perf.data")

for k in 43 45 47 49; do
	f=$tmp/cut$k.data
	head -c $((size * k / 50)) "$D/perf.data" >"$f"
	cut=$((size * k / 50))
	rc=0
	HOME=$tmp timeout 60 "$PERFAN_BIN" report --off-cpu "${O[@]}" "$f" \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
	checks=$((checks + 1))
	first=$(head -1 "$tmp/err")
	if [ "$cut" -lt "$data_end" ]; then
		# cut in the data: the records there, then an error
		case $first in
		*"the recording was cut in its data section"*"feature section are lost, and with it the tracepoints' names and formats"*) ;;
		*) fail "cut at $k/50 (in the data): first line: $first" ;;
		esac
		[ "$rc" != 0 ] || fail "cut at $k/50 (in the data): exit 0"
	else
		case $first in
		*"the recording was cut "*"its feature section"*) ;;
		*) fail "cut at $k/50: first line: $first" ;;
		esac
		n=$(grep -c "warning: .*feature" "$tmp/err")
		[ "$n" = 1 ] || fail "cut at $k/50: $n lines on features, expected 1: $(head -c 600 "$tmp/err")"
	fi
	grep -q "record the switches" "$tmp/err" &&
		fail "cut at $k/50: advises recording the switches again: $(grep "record the switches" "$tmp/err" | head -c 300)"
	# perf's own reading: are the tracepoints still named?
	named=$(perf script -i "$f" -F event 2>/dev/null | grep -c 'sched:sched_switch')
	if [ "$named" = 0 ]; then
		grep -q "the recording was cut .*tracepoint.* names and formats" "$tmp/err" ||
			fail "cut at $k/50: perf lost the names; perfan does not say so: $first"
		# only in the feature section: every sample still there
		if [ "$cut" -ge "$data_end" ]; then
			grep -q "^perfan report: no off-CPU time can be read: [0-9]* samples of tracepoints have lost their names and formats" "$tmp/err" ||
				fail "cut at $k/50: no error on the unnamed samples: $(grep -v warning "$tmp/err" | head -c 400)"
			[ "$rc" = 1 ] || fail "cut at $k/50: exit $rc"
		fi
	else
		# named: the off-CPU view works
		grep -q "sleeper" "$tmp/out" && grep -q "sleep" "$tmp/out" ||
			fail "cut at $k/50: tracepoints named ($named switches), no off-CPU table"
	fi
done
# the samples are all there where only the features were cut: perfan
# stats counts perf's own number (the uncut file's stats.txt)
want=$(awk '/^ *SAMPLE events:/ {print $3; exit}' "$D/stats.txt")
HOME=$tmp "$PERFAN_BIN" stats "$tmp/cut47.data" >"$tmp/stats" 2>/dev/null
got=$(awk '/^ *SAMPLE events:/ {print $3; exit}' "$tmp/stats")
[ -n "$want" ] && [ "$got" = "$want" ] ||
	fail "stats of the cut at 47/50: $got samples, perf counts $want"

[ $fails -eq 0 ] && echo "cut_features: ok ($checks cuts)"
[ $fails -eq 0 ]
