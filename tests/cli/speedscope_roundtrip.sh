#!/usr/bin/env bash
# tests/cli/speedscope_roundtrip.sh: perfan -> speedscope JSON -> perfan
# gives the same folded stacks: for FP, DWARF, multi-thread and Python
# recordings, perf script text, folded stacks, py-spy raw output (threads,
# subprocesses) and bpftrace maps, `perfan collapse` of the input and of
# `perfan convert INPUT -o X.speedscope.json` agree byte for byte, with
# comm, comm-PID and comm-PID/TID roots; py-spy's line numbers with
# --lineno. (A cProfile dump's estimate comes
# back under a root named by the file, its frames named "function (file)":
# not the same text, so it is not among them.)
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

run() {
	PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm \
		PERFAN_HOST_KALLSYMS= HOME=$tmp "$PERFAN_BIN" "$@"
}
K=(--kallsyms "$TD/kallsyms" --buildid-dir "$tmp/no-cache")
PYA=(--symfs "$TD/py-handler" --perf-map-dir "$TD/py-handler"
	--jitdump-dir "$TD/py-handler")

# NAME ARGS...: ARGS (options and the input) converted, then both collapsed
roundtrip() {
	local name=$1
	shift
	local js=$tmp/$name.speedscope.json
	if ! run convert "$@" -o "$js" 2>"$tmp/err"; then
		err "$name: convert: $(head -c 300 "$tmp/err")"
		return
	fi
	for root in "" --pid --tid; do
		run collapse $root "$@" >"$tmp/$name.in" 2>/dev/null ||
			{ err "$name $root: collapse of the input"; continue; }
		run collapse $root "$js" >"$tmp/$name.out" 2>"$tmp/err" ||
			{ err "$name $root: collapse of the JSON: $(head -c 300 "$tmp/err")"; continue; }
		[ -s "$tmp/$name.in" ] || { err "$name $root: no stacks"; continue; }
		if cmp -s "$tmp/$name.in" "$tmp/$name.out"; then
			echo "$name ${root:-(comm)}: $(wc -l <"$tmp/$name.in") stacks, the same"
		else
			err "$name ${root:-(comm)}: the stacks differ: $(diff "$tmp/$name.in" "$tmp/$name.out" | head -3 | cut -c1-200)"
		fi
	done
}

roundtrip fp "${K[@]}" --symfs "$TD/fp" "$TD/fp/perf.data"
roundtrip dwarf "${K[@]}" --symfs "$TD/dwarf" "$TD/dwarf/perf.data"
roundtrip mt "${K[@]}" --symfs "$TD/multi-thread-fork" \
	"$TD/multi-thread-fork/perf.data"
roundtrip py "${K[@]}" "${PYA[@]}" "$TD/py-handler/perf312.data"
roundtrip script "$TD/fp/script.txt"
roundtrip folded "$TD/script-wild/kernel.kernel.flamegraph.folded"
roundtrip pyspy-threads "$TD/pyspy/raw-threads.txt"
roundtrip pyspy-subprocesses "$TD/pyspy/raw-subprocesses.txt"
roundtrip bpftrace "$TD/bpftrace/kstack-ustack-comm-pid.txt"

# stacks without a thread come back under one root named by the input
# (speedscope's profiles have names); py-spy's line numbers survive with
# --lineno, each line a frame "name (file:line)" again
for l in "" --lineno; do
	run convert $l "$TD/pyspy/raw.txt" -o "$tmp/raw$l.speedscope.json" ||
		err "convert $l raw.txt"
	run collapse $l "$TD/pyspy/raw.txt" | sed 's/^/raw.txt;/' >"$tmp/raw.in"
	run collapse $l "$tmp/raw$l.speedscope.json" >"$tmp/raw.out" 2>/dev/null
	if cmp -s "$tmp/raw.in" "$tmp/raw.out"; then
		echo "pyspy raw.txt ${l:-(functions)}: $(wc -l <"$tmp/raw.in") stacks, the same under the root raw.txt"
	else
		err "pyspy raw.txt $l: $(diff "$tmp/raw.in" "$tmp/raw.out" | head -3)"
	fi
done
grep -q 'summarize_slow (app.py:1[678])' "$tmp/raw.out" ||
	err "--lineno: no summarize_slow line frame"

# the check can fail: a stack lost on the way shows
run collapse "$TD/script-wild/kernel.kernel.flamegraph.folded" | tail -n +2 >"$tmp/less"
run collapse "$tmp/folded.speedscope.json" 2>/dev/null | cmp -s - "$tmp/less" &&
	err "a profile with a stack less compares equal"

[ $fail = 0 ] && echo "speedscope_roundtrip: ok"
exit $fail
