#!/usr/bin/env bash
# tests/cli/header.sh: `perfan header` against perf's own outputs on the same
# recordings: testdata/<case>/header.txt (perf report --header-only) line for
# line, and buildids.txt (perf buildid-list) for the build-id table; plus the
# command's exit codes, -o, standard input and --json.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=${PERFAN_TESTDATA:-testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

# Lines that depend on where and when the test runs: the file's mtime and
# the local time zone.
unstable='^# (captured on|reference time)'

# check_case DIR DATA HEADER BUILDIDS
check_case() {
	local dir=$TD/$1 data=$2 header=$3 buildids=$4
	[ -r "$dir/$data" ] && [ -r "$dir/$header" ] || return 0
	checked=$((checked + 1))
	local out=$tmp/$1.$data.out
	if ! "$PERFAN_BIN" header "$dir/$data" >"$out" 2>"$tmp/err"; then
		err "$1/$data: perfan header failed: $(cat "$tmp/err")"
		return
	fi
	if [ -s "$tmp/err" ]; then
		err "$1/$data: unexpected messages: $(cat "$tmp/err")"
	fi

	# perf's lines, all of them, in perf's order
	sed '/^# build ids:$/,$d' "$out" | grep -Ev "$unstable" >"$tmp/ours"
	grep -Ev "$unstable" "$dir/$header" >"$tmp/perfs"
	if ! diff -u "$tmp/perfs" "$tmp/ours" >"$tmp/diff"; then
		err "$1/$data: differs from perf's $header:"
		cat "$tmp/diff" >&2
	fi

	# the named lines once more, so a failure says which fact is wrong
	local key
	for key in hostname 'os release' 'perf version' arch 'nrcpus online' \
		'nrcpus avail' cpudesc cpuid 'total memory' cmdline event; do
		if ! diff <(grep "^# $key :" "$dir/$header") \
			<(grep "^# $key :" "$out") >/dev/null; then
			err "$1/$data: '# $key' lines differ"
		fi
	done

	# the build-id table: perf buildid-list's lines (file mode, when the
	# recording has the build_id feature; otherwise perf lists the DSOs
	# with hits from the samples and no table is printed)
	if [ -n "$buildids" ] && [ -r "$dir/$buildids" ] &&
		grep -q '^# missing features: ' "$dir/$header" &&
		! grep -q '^# missing features: .*\bBUILD_ID\b' "$dir/$header"; then
		sed -n '/^# build ids:$/,$p' "$out" | tail -n +2 >"$tmp/bids"
		if ! diff -u "$dir/$buildids" "$tmp/bids" >"$tmp/diff"; then
			err "$1/$data: build ids differ from perf's $buildids:"
			cat "$tmp/diff" >&2
		fi
	elif grep -q '^# build ids:$' "$out"; then
		err "$1/$data: a build-id table where perf has none"
	fi
}

check_case fp perf.data header.txt buildids.txt
check_case dwarf perf.data header.txt buildids.txt
check_case pipe perf.data header.txt buildids.txt
check_case zstd perf.data header.txt buildids.txt
check_case two-events perf.data header.txt buildids.txt
check_case sched perf.data header.txt buildids.txt
check_case cpu-pagefaults perf.data header.txt buildids.txt
check_case multi-thread-fork perf.data header.txt buildids.txt
check_case offcpu perf.offcpu.data header.offcpu.txt buildids.offcpu.txt
check_case py312-perf perf.data header.txt buildids.txt
check_case py312-perf perf.dwarf.data header.dwarf.txt buildids.dwarf.txt
check_case py313-perfjit perf.data header.txt buildids.txt
check_case py313-perfjit perf.jit.data header.jit.txt buildids.jit.txt

if [ "$checked" -eq 0 ]; then
	echo "SKIP: no testdata cases under $TD"
	exit 0
fi
[ -r "$TD/fp/perf.data" ] || err "testdata/fp is missing"

# exit codes and messages
set +e
"$PERFAN_BIN" header --help >"$tmp/help" 2>&1
[ $? -eq 0 ] && grep -q '^usage: perfan header' "$tmp/help" ||
	err "--help: not usage on stdout with status 0"
"$PERFAN_BIN" header >/dev/null 2>&1
[ $? -eq 2 ] || err "no file: status is not 2"
"$PERFAN_BIN" header --no-such-option "$TD/fp/perf.data" >/dev/null 2>&1
[ $? -eq 2 ] || err "unknown option: status is not 2"
"$PERFAN_BIN" header "$TD/fp/perf.data" "$TD/fp/perf.data" >/dev/null 2>&1
[ $? -eq 2 ] || err "two files: status is not 2"
"$PERFAN_BIN" header "$tmp/does-not-exist" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || err "missing file: status is not 1"
grep -q '^perfan header: ' "$tmp/err" || err "missing file: message is '$(cat "$tmp/err")'"
"$PERFAN_BIN" header "$TD/fp/prog.c" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || err "not a perf.data: status is not 1"
grep -q 'offset' "$tmp/err" || err "not a perf.data: message names no offset: $(cat "$tmp/err")"
set -e

# -o writes what stdout would have shown; a failed run leaves no file
"$PERFAN_BIN" header "$TD/fp/perf.data" >"$tmp/stdout"
"$PERFAN_BIN" header -o "$tmp/o.txt" "$TD/fp/perf.data"
cmp -s "$tmp/stdout" "$tmp/o.txt" || err "-o FILE differs from stdout"
"$PERFAN_BIN" header -o "$tmp/bad.txt" "$tmp/does-not-exist" 2>/dev/null || true
[ ! -e "$tmp/bad.txt" ] || err "-o left a file after a failure"

# pipe mode from standard input
if [ -r "$TD/pipe/perf.data" ]; then
	"$PERFAN_BIN" header "$TD/pipe/perf.data" | grep -Ev "$unstable" >"$tmp/a"
	"$PERFAN_BIN" header - <"$TD/pipe/perf.data" | grep -Ev "$unstable" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || err "'-' (stdin) differs from the file"
	cat "$TD/pipe/perf.data" | "$PERFAN_BIN" header - |
		grep -Ev "$unstable" >"$tmp/c"
	cmp -s "$tmp/a" "$tmp/c" || err "a real pipe differs from the file"
fi

# --json is JSON and holds the same facts
if command -v python3 >/dev/null; then
	"$PERFAN_BIN" header --json "$TD/fp/perf.data" >"$tmp/j"
	python3 - "$tmp/j" "$TD/fp/header.txt" <<'EOF' || err "--json"
import json, re, sys
j = json.load(open(sys.argv[1]))
perf = open(sys.argv[2]).read()
def line(key):
    m = re.search(r'^# ' + re.escape(key) + r' : (.*)$', perf, re.M)
    return m.group(1) if m else None
assert j["hostname"] == line("hostname"), j["hostname"]
assert j["os_release"] == line("os release")
assert j["arch"] == line("arch")
assert str(j["nr_cpus_online"]) == line("nrcpus online")
assert j["cpudesc"] == line("cpudesc")
assert " ".join(j["cmdline"]) + " " == line("cmdline")
names = re.findall(r'^# event : name = ([^,]*),', perf, re.M)
assert [e["name"] for e in j["events"]] == names, names
assert not j["pipe_mode"]
EOF
	# the BPF programs perf --off-cpu loaded, as perf's lines name them
	if [ -r "$TD/offcpu/perf.offcpu.data" ]; then
		"$PERFAN_BIN" header --json "$TD/offcpu/perf.offcpu.data" >"$tmp/j"
		python3 - "$tmp/j" "$TD/offcpu/header.offcpu.txt" <<'EOF' || err "--json bpf_progs"
import json, re, sys
j = json.load(open(sys.argv[1]))
perf = open(sys.argv[2]).read()
want = re.findall(r'^# (?:bpf_prog_info \d+|\tsub_prog \d+): (\S+) addr 0x([0-9a-f]+) size (\d+)$',
                  perf, re.M)
got = [(f["name"], "%x" % f["addr"], str(f["size"]))
       for p in j["bpf_progs"] for f in p["functions"]]
assert got == want and len(want) == 3, (got, want)
assert [b["id"] for b in j["bpf_btfs"]] == [int(x) for x in re.findall(r'^# btf info of id (\d+)$', perf, re.M)]
EOF
	fi
fi

exit $fail
