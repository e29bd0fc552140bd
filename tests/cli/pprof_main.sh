#!/usr/bin/env bash
# pprof_main.sh: pprof's first mapping is the main binary of the profiled
# process, as perf_data_converter writes it (issue 36, item 8): Google's
# own pprof (build/tools/pprof, PERFAN_PPROF) says "File: PROGRAM" in
# `pprof -top` of `perfan convert`'s output, PROGRAM being the workload of
# the recording's `perf record` line in testdata/CASE/COMMAND (the last
# ./NAME, after `env` too), on-CPU and for the off-CPU and wall views; and
# `pprof -raw` lists that file as mapping 1. On 65dc94b the first mapping
# was the first module met: "File: ld-linux-x86-64.so.2" or
# "[kernel.kallsyms]" for 10 of these 11 recordings.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
PPROF=${PERFAN_PPROF:-build/tools/pprof}
if [ ! -x "$PPROF" ]; then
	echo "FAIL: no pprof at $PPROF: run ./scripts/setup.sh (golang-go," \
		"golang-github-google-pprof-dev) and build again" >&2
	exit 1
fi
# pprof must not look for binaries or symbols anywhere: the file has them
export PPROF_BINARY_PATH=$tmp/none PPROF_TMPDIR=$tmp HOME=$tmp
export PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm PERFAN_HOST_KALLSYMS=

# the program CASE's perf record ran: the last ./NAME of that line
program() {
	grep -m1 '^perf record' "testdata/$1/COMMAND" | grep -o '\./[A-Za-z0-9_.-]*' |
		tail -1 | sed 's#^\./##'
}

# check CASE VIEW...: convert with VIEW, pprof names the program
check() {
	local case=$1 want
	shift
	want=$(program "$case")
	[ -n "$want" ] || { fail "$case: no ./PROGRAM in its COMMAND"; return; }
	if ! "$PERFAN_BIN" convert "$@" --buildid-dir "$tmp/no-cache" \
		"testdata/$case/perf.data" -o "$tmp/p.pb.gz" 2>"$tmp/err"; then
		fail "convert $* $case: $(head -c 300 "$tmp/err")"
		return
	fi
	checks=$((checks + 1))
	local file
	file=$("$PPROF" -top "$tmp/p.pb.gz" 2>/dev/null | sed -n 's/^File: //p' | head -1)
	[ "$file" = "$want" ] || fail "convert $* $case: pprof -top says 'File: $file', the recording ran $want"
	# mapping 1 of pprof's own listing is that file (its full path, where
	# the build-id table has one)
	local first
	first=$("$PPROF" -raw "$tmp/p.pb.gz" 2>/dev/null |
		awk '/^Mappings/ { on = 1; next } on && /^1: / { print $3; exit }')
	[ "${first##*/}" = "$want" ] || fail "convert $* $case: pprof -raw's mapping 1 is '$first', not $want"
}

for c in fp offcpu dynsym minidebug debug-buildid switch lookalike \
	multi-thread-fork sched threads64 cpu-pagefaults; do
	check "$c"
done
check offcpu --off-cpu
check offcpu --wall
check switch --wall

[ "$fails" = 0 ] || { echo "$fails failure(s) of $checks"; exit 1; }
echo "pprof_main: $checks checks passed"
