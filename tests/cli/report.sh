#!/usr/bin/env bash
# tests/cli/report.sh: `perfan report`: its output on testdata recordings
# against golden files in tests/cli/report/ (PERFAN_UPDATE_GOLDEN=1
# rewrites them), perf script text and folded input, standard input, the
# sample filters, -o, --json and the exit codes. The shares themselves are
# checked against perf report in tests/unit/check_report.c.
#
# Recordings are resolved only from testdata (--symfs, an empty build-id
# cache, testdata/kallsyms), so the outputs are the same on any machine;
# system libraries show as "[libc.so.6]" and the like. The host is pinned
# to the recording machine (PERFAN_HOST_*), whatever machine runs this,
# and once to another one, to see that perfan says what it cannot verify.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
HERE=$(cd "$(dirname "$0")" && pwd)
GOLDEN=$HERE/report
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/nocache"
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

# rep CASE ARGS...: perfan report, hermetic, run inside testdata/ so that
# the file names in the output do not depend on where testdata is
rep() {
	local kase=$1
	shift
	(cd "$TD" && PERFAN_HOST_OSRELEASE=${HOST_OSRELEASE:-6.18.44-fc-v782} \
		PERFAN_HOST_NAME=${HOST_NAME:-vm} PERFAN_HOST_KALLSYMS= \
		"$PERFAN_BIN" report --symfs "$kase" \
		--buildid-dir "$tmp/nocache" --kallsyms kallsyms "$@")
}

# golden NAME CASE ARGS...: the output equals tests/cli/report/NAME, but
# for the resolver's counts of unresolved frames and cut stacks, which are
# the resolver's to test
golden() {
	local name=$1
	shift
	if ! rep "$@" >"$tmp/raw" 2>"$tmp/err"; then
		err "$name: perfan report $*: $(cat "$tmp/err")"
		return
	fi
	grep -v '^# [0-9]* samples, [0-9]* left out by filters;' "$tmp/raw" >"$tmp/out"
	[ -s "$tmp/err" ] && err "$name: unexpected messages: $(cat "$tmp/err")"
	if [ "${PERFAN_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$GOLDEN/$name"
	elif ! diff -u "$GOLDEN/$name" "$tmp/out" >"$tmp/diff"; then
		err "$name: differs from the golden file:"
		cat "$tmp/diff" >&2
	fi
}

mkdir -p "$GOLDEN"
golden fp-children.txt fp fp/perf.data
golden fp-self.txt fp --no-children fp/perf.data
golden fp-caller.txt fp -g caller --percent-limit 5 fp/perf.data
golden fp-callee.txt fp --no-children -g callee --no-speedup fp/perf.data
golden dwarf-children.txt dwarf dwarf/perf.data
golden two-events-dso.json two-events --sort dso --json two-events/perf.data
golden mtfork-pid.txt multi-thread-fork --sort pid,sym --limit 8 \
	multi-thread-fork/perf.data
golden sched-sym.txt sched --sort sym --percent-limit 10 -g callee \
	sched/perf.data
golden pagefaults-samples.txt cpu-pagefaults --samples --sort comm,dso \
	cpu-pagefaults/perf.data

# on another machine, a binary found without a recorded build-id is named
# as unverified, and the kernel's symbols are not taken from the host; the
# same report otherwise
HOST_OSRELEASE=5.10.0-elsewhere HOST_NAME=elsewhere \
	rep sched --sort sym --percent-limit 10 -g callee sched/perf.data \
	>"$tmp/foreign" 2>"$tmp/foreign.err" || err "foreign host: report failed"
grep -q "sched/sched: no build-id recorded and recorded on another machine; using sched/sched unverified" \
	"$tmp/foreign.err" || err "foreign host: no unverified warning: $(cat "$tmp/foreign.err")"
grep -v '^# [0-9]* samples, [0-9]* left out by filters;' "$tmp/foreign" |
	diff -u "$GOLDEN/sched-sym.txt" - >&2 || err "foreign host: another report"

rep fp fp/perf.data | grep -q '^# 515 samples, 0 left out by filters; ' ||
	err "fp: the header does not count 515 samples"

# JSON is JSON
if command -v python3 >/dev/null; then
	for a in "" "-g caller" "-g callee --no-children"; do
		# shellcheck disable=SC2086
		rep fp --json $a fp/perf.data | python3 -m json.tool >/dev/null ||
			err "--json $a: not JSON"
	done
fi

# the same report from the path, from standard input (a file, and a pipe of
# a pipe-mode recording), and -o
rep fp fp/perf.data >"$tmp/path"
rep fp - <"$TD/fp/perf.data" | sed 's/^# perfan report of .*/# perfan report of fp\/perf.data/' >"$tmp/stdin"
cmp -s "$tmp/path" "$tmp/stdin" || err "stdin (file) differs from the path"
rep pipe pipe/perf.data >"$tmp/path"
# shellcheck disable=SC2002 # cat: standard input must be a pipe here
cat "$TD/pipe/perf.data" | rep pipe - |
	sed 's/^# perfan report of .*/# perfan report of pipe\/perf.data/' >"$tmp/stdin"
cmp -s "$tmp/path" "$tmp/stdin" || err "stdin (pipe) differs from the path"
rep fp -o "$tmp/o.txt" fp/perf.data >"$tmp/stdout"
[ -s "$tmp/stdout" ] && err "-o: output on stdout too"
rep fp fp/perf.data | cmp -s - "$tmp/o.txt" || err "-o: file differs"

# perf script text gives perf report's self shares (the names the script
# shows); folded stacks are read too
"$PERFAN_BIN" report --no-children --no-speedup "$TD/fp/script.txt" |
	grep -v '^#' >"$tmp/script"
grep -v '^#' "$TD/fp/report.txt" | grep . >"$tmp/perf"
diff -u "$tmp/perf" <(grep . "$tmp/script" | sed 's/ *$//') >"$tmp/diff" ||
	{ err "fp/script.txt: self shares differ from perf report:"; cat "$tmp/diff" >&2; }
printf 'a;main;f 3\na;main;g 1\nb;main;g_[k] 2\n' |
	"$PERFAN_BIN" report --no-speedup - >"$tmp/folded"
grep -q '^    66.67%     0.00%  a        \[unknown\]      \[.\] main$' "$tmp/folded" ||
	err "folded: no 66.67% main row: $(cat "$tmp/folded")"
grep -q '^    33.33%    33.33%  b        \[unknown\]      \[k\] g$' "$tmp/folded" ||
	err "folded: no kernel g row: $(cat "$tmp/folded")"

# filters: every row of the thread or command asked for (rows of a
# thread or command have no Max speedup column: the key is the third); times as perf
# script prints them (fp's first two samples, as perf script --time
# selects them); CPU; DSO
rep multi-thread-fork --comm worker --sort comm multi-thread-fork/perf.data |
	grep -v '^#' | awk '{print $3}' | sort -u >"$tmp/comms"
[ "$(cat "$tmp/comms")" = worker ] || err "--comm worker: $(cat "$tmp/comms")"
rep multi-thread-fork --tid 7439 --sort pid multi-thread-fork/perf.data |
	grep -v '^#' | awk '{print $3}' | sort -u >"$tmp/tids"
[ "$(cat "$tmp/tids")" = 7439:worker ] || err "--tid 7439: $(cat "$tmp/tids")"
rep multi-thread-fork --pid 7440 --sort pid multi-thread-fork/perf.data |
	grep -v '^#' | awk '{print $3}' | cut -d: -f1 | sort -u >"$tmp/pids"
[ "$(cat "$tmp/pids")" = 7440 ] || err "--pid 7440: $(cat "$tmp/pids")"
rep fp --time 486.913945,486.914945 --samples fp/perf.data >"$tmp/time"
grep -q '^# Samples: 2  of event' "$tmp/time" ||
	err "--time: not 2 samples: $(head -5 "$tmp/time")"
rep fp --time 486.914,  --samples fp/perf.data | grep -q '^# Samples: 514 ' ||
	err "--time START,: not 514 samples"
for c in 0 1; do
	n=$(rep sched --cpu $c --samples --sort comm sched/perf.data |
		sed -n 's/^# Samples: \([0-9]*\) .*/\1/p')
	want=$(awk -v c="$(printf '[%03d]' $c)" '$3 == c' \
		"$TD/sched/script.txt" | grep -c . || true)
	[ "${n:-0}" = "$want" ] || err "--cpu $c: ${n:-none} samples, perf script has $want"
done
rep fp --dso prog fp/perf.data | grep -v '^#' | awk '{print $5}' |
	sort -u >"$tmp/dsos"
[ "$(cat "$tmp/dsos")" = prog ] || err "--dso prog: $(cat "$tmp/dsos")"

# exit codes: 0 help, 2 usage, 1 failure (and -o leaves no file)
"$PERFAN_BIN" report --help >/dev/null || err "--help: not 0"
for bad in "--sort foo" "--sort dso," "-g up" "--time 5" "--time x,1" \
	"--percent-limit -1" "--limit x" "--pid x" "--bogus" "a b"; do
	rc=0
	# shellcheck disable=SC2086
	"$PERFAN_BIN" report $bad >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] || err "perfan report $bad: exit $rc, not 2"
	grep -q 'usage: perfan report' "$tmp/err" || err "perfan report $bad: no usage"
done
rc=0
"$PERFAN_BIN" report -o "$tmp/none.txt" "$tmp/no-such-file" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || err "missing file: exit $rc, not 1"
grep -q "^perfan report: .*no-such-file" "$tmp/err" || err "missing file: $(cat "$tmp/err")"
[ -e "$tmp/none.txt" ] && err "missing file: -o left a file"
head -c 3000 "$TD/fp/perf.data" >"$tmp/cut.data"
rc=0
"$PERFAN_BIN" report -o "$tmp/cut.txt" "$tmp/cut.data" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || err "damaged file: exit $rc, not 1"
[ -e "$tmp/cut.txt" ] && err "damaged file: -o left a file"
printf '\x00\x01\x02\x03\x00' >"$tmp/bin"
rc=0
"$PERFAN_BIN" report "$tmp/bin" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || err "unknown input: exit $rc, not 1"
# no progress line when stderr is not a terminal
rep fp fp/perf.data >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && err "messages on a non-terminal stderr: $(cat "$tmp/err")"

[ "$fail" = 0 ] && echo "ok: perfan report"
exit "$fail"
