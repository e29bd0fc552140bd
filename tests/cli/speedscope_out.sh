#!/usr/bin/env bash
# tests/cli/speedscope_out.sh: `perfan convert` to speedscope JSON on FP,
# DWARF, multi-thread, Python (the default python view and native), off-CPU and wall,
# perf script and folded inputs: every file valid against speedscope's own
# file-format-schema.json (the npm package's, tests/browser/node_modules,
# through Debian's python3-jsonschema); one profile per thread whose
# stacks, under the profile's name, are `perfan collapse --tid`'s lines
# with their weights; the samples of each thread in perf script's order
# (leaf by leaf) for perf.data and perf script input; the Python view's
# samples the native ones, in the same order, each stack a part of its
# native one; the units. Then stdin, -o -, and bad names and inputs.
# Required, not skipped: without the schema or jsonschema it fails;
# ./scripts/setup.sh installs both.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
SCHEMA=tests/browser/node_modules/speedscope/dist/release/file-format-schema.json
CHECK=tests/tools/speedscope_check.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

[ -r "$SCHEMA" ] || {
	echo "FAIL: no $SCHEMA: run ./scripts/setup.sh (npm ci in tests/browser)" >&2
	exit 1
}
# Debian's jsonschema (python3-jsonschema), whichever python3 comes first
PY=
for py in python3 /usr/bin/python3; do
	if command -v "$py" >/dev/null && "$py" -c 'import jsonschema' 2>/dev/null; then
		PY=$py
		break
	fi
done
[ -n "$PY" ] || {
	echo "FAIL: no python3 with jsonschema: run ./scripts/setup.sh (python3-jsonschema)" >&2
	exit 1
}

run() {
	PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm \
		PERFAN_HOST_KALLSYMS= HOME=$tmp "$PERFAN_BIN" "$@"
}
K=(--kallsyms "$TD/kallsyms" --buildid-dir "$tmp/no-cache")
OFF=(--kallsyms "$TD/offcpu/kallsyms" --symfs "$TD/offcpu/symfs"
	--perf-map-dir "$TD/offcpu" --buildid-dir "$tmp/no-cache")
PYA=(--symfs "$TD/py-handler" --perf-map-dir "$TD/py-handler"
	--jitdump-dir "$TD/py-handler")

# NAME ARGS...: convert ARGS to $tmp/NAME.speedscope.json and collapse
# --tid the same to $tmp/NAME.folded; the stacks must agree
files=()
case_() {
	local name=$1
	shift
	local out=$tmp/$name.speedscope.json
	if ! run convert "$@" -o "$out" 2>"$tmp/err"; then
		err "convert $name: $(head -c 300 "$tmp/err")"
		return
	fi
	files+=("$out")
	if ! run collapse --tid "$@" >"$tmp/$name.folded" 2>"$tmp/err"; then
		err "collapse $name: $(head -c 300 "$tmp/err")"
		return
	fi
	"$PY" "$CHECK" folded "$out" "$tmp/$name.folded" ||
		err "$name: not collapse --tid's stacks"
}

case_ fp "${K[@]}" --symfs "$TD/fp" "$TD/fp/perf.data"
case_ dwarf "${K[@]}" --symfs "$TD/dwarf" "$TD/dwarf/perf.data"
case_ mt "${K[@]}" --symfs "$TD/multi-thread-fork" \
	"$TD/multi-thread-fork/perf.data"
case_ py "${K[@]}" "${PYA[@]}" "$TD/py-handler/perf312.data"
case_ pynative --python native "${K[@]}" "${PYA[@]}" \
	"$TD/py-handler/perf312.data"
case_ offcpu --off-cpu "${OFF[@]}" "$TD/offcpu/perf.data"
case_ wall --wall "${OFF[@]}" "$TD/offcpu/perf.data"
case_ script "$TD/fp/script.txt"
run collapse --tid "${K[@]}" --symfs "$TD/fp" "$TD/fp/perf.data" \
	>"$tmp/in.folded"
case_ folded "$tmp/in.folded"
case_ samples --samples "${K[@]}" --symfs "$TD/fp" "$TD/fp/perf.data"

"$PY" "$CHECK" schema "$SCHEMA" "${files[@]}" || err "schema validation"

# each thread in time order: perf script's samples, leaf by leaf
for c in "fp fp/script.txt" "dwarf dwarf/script.txt" \
	"mt multi-thread-fork/script.txt" "script fp/script.txt" \
	"pynative py-handler/script-312.txt.zst 0.98"; do
	set -- $c
	"$PY" "$CHECK" order "$tmp/$1.speedscope.json" "$TD/$2" ${3:-} ||
		err "$1: not in perf script's order"
done
# the oracle tells orders apart: folded stacks have no time, so one
# sample per stack, which is not perf script's order
"$PY" "$CHECK" order "$tmp/folded.speedscope.json" "$TD/fp/script.txt" \
	>/dev/null && err "folded input: the order check cannot fail"
# the default (python) view: the native samples, in their order, in the view
"$PY" "$CHECK" sub "$tmp/py.speedscope.json" "$tmp/pynative.speedscope.json" ||
	err "py: the python view is not the native samples' in order"
grep -q '"name": "dedup ([^"]*/handler.py)"' "$tmp/py.speedscope.json" ||
	err "py: no frame 'dedup (.../handler.py)'"
for c in "fp nanoseconds" "offcpu nanoseconds" "wall nanoseconds" \
	"folded none" "samples none"; do
	set -- $c
	"$PY" "$CHECK" unit "$tmp/$1.speedscope.json" "$2" ||
		err "$1: unit not $2"
done
# threads: mt has four (comm-PID/TID), as collapse's roots
n=$(cut -d';' -f1 "$tmp/mt.folded" | sort -u | wc -l)
m=$(grep -o '"type": "sampled"' "$tmp/mt.speedscope.json" | wc -l)
[ "$n" -ge 3 ] && [ "$n" = "$m" ] ||
	err "mt: $m profiles for $n threads"

# stdin, -o - (with --to), the same file as from the path
run convert --to speedscope -o - - <"$TD/fp/script.txt" >"$tmp/stdin.json" 2>"$tmp/err" ||
	err "stdin: $(head -c 300 "$tmp/err")"
sed 's/"name": "script.txt"/"name": "<stdin>"/' \
	"$tmp/script.speedscope.json" | cmp -s - "$tmp/stdin.json" ||
	err "stdin: not the file's output"
run convert --to speedscope -o "$tmp/named.json" "$TD/fp/script.txt" ||
	err "--to speedscope with another name"
cmp -s "$tmp/named.json" "$tmp/script.speedscope.json" ||
	err "--to speedscope: not the .speedscope.json output"

# bad names and inputs: exit status, message, no file left
rc=0
run convert --to speedscopes -o "$tmp/x.json" "$TD/fp/script.txt" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "speedscope" "$tmp/err" ||
	err "--to speedscopes: exit $rc: $(cat "$tmp/err")"
head -c 3000 "$TD/fp/perf.data" >"$tmp/cut.data"
rc=0
run convert "${K[@]}" "$tmp/cut.data" -o "$tmp/cut.speedscope.json" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "perfan convert: " "$tmp/err" ||
	err "a cut perf.data: exit $rc: $(head -c 300 "$tmp/err")"
[ -e "$tmp/cut.speedscope.json" ] && err "a cut perf.data left a file"

for f in "${files[@]}"; do
	printf '%s %s bytes\n' "$(basename "$f")" "$(wc -c <"$f")"
done
[ "$fail" = 0 ] && echo "ok: speedscope output"
exit "$fail"
