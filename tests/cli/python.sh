#!/usr/bin/env bash
# python.sh: Python frames from CPython's perf trampolines, on the
# recordings of testdata/py-handler (one request-handler workload, recorded
# with 3.12 -X perf and 3.13 -X perf_jit, --call-graph dwarf,65528, and
# with -g), resolved with the libpython copies kept there:
#  - 3.12 -X perf: >= 95 % of the samples with workload functions are
#    whole Python stacks from <module> to the leaf, in the mixed and the
#    python view (perf: 0 %, it stops at the first trampoline);
#  - each workload function's total share within 2 points of what perf
#    reports for the 3.13 perf_jit recording after perf inject --jit;
#  - 3.13 perf_jit read without perf inject: the same Python stacks as
#    perf shows after it for >= 99 % of samples;
#  - the default view is python;
#  - mixed view: no interpreter or trampoline frame between two Python
#    frames; native view: perf's py:: names;
#  - the -g recording draws a warning that says what to record instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

d=testdata/py-handler
opts=(--symfs "$d" --kallsyms testdata/kallsyms --perf-map-dir "$d"
	--jitdump-dir "$d" --samples)
check() { python3 tests/tools/py_stacks.py "$@" || fail "py_stacks.py $*"; }

# 3.12 -X perf, DWARF: whole Python stacks, in both views
for view in mixed python; do
	"$PERFAN_BIN" collapse "${opts[@]}" --python "$view" "$d/perf312.data" \
		>"$tmp/312-$view.folded" 2>"$tmp/err"
	check full "$tmp/312-$view.folded"
done
check clean "$tmp/312-mixed.folded"
# perf itself: not one sample with two Python frames
python3 - "$d" <<'EOF'
import subprocess, sys
d = sys.argv[1]
text = subprocess.run(["zstd", "-dcf", f"{d}/script-312.txt.zst"], capture_output=True).stdout.decode() \
    if __import__("os").path.exists(f"{d}/script-312.txt.zst") else open(f"{d}/script-312.txt").read()
deep = sum(1 for b in text.split("\n\n") if b.count(" py::") >= 2)
assert deep == 0, f"perf shows {deep} samples with two Python frames"
print("ok: perf's own stacks stop at the first trampoline (no sample with two Python frames)")
EOF

# the default view is python when there are Python frames (issue 14: a
# Python function's self time holds the interpreter frames under it)
"$PERFAN_BIN" collapse "${opts[@]}" "$d/perf312.data" >"$tmp/312-default.folded" 2>/dev/null
cmp -s "$tmp/312-default.folded" "$tmp/312-python.folded" || fail "the default view is not python"
# native: perf's names
"$PERFAN_BIN" collapse "${opts[@]}" --python native "$d/perf312.data" \
	>"$tmp/312-native.folded" 2>/dev/null
grep -q ';py::handle_request:[^;]*handler.py;_PyEval_EvalFrameDefault' "$tmp/312-native.folded" ||
	fail "native view: no py::handle_request followed by its eval loop"
echo "ok: the default view is python; native keeps perf's py:: frames"

# shares against perf on the 3.13 perf_jit recording after perf inject
check shares "$tmp/312-mixed.folded" "$d/report313jit-injected.txt"

# 3.13 perf_jit without perf inject: perf's stacks after it
"$PERFAN_BIN" collapse "${opts[@]}" --python mixed "$d/perf313jit.data" \
	>"$tmp/313-mixed.folded" 2>/dev/null
script=$d/script313jit-injected.txt
[ -f "$script" ] || script=$script.zst
check same "$tmp/313-mixed.folded" "$script"
check clean "$tmp/313-mixed.folded"

# report and flamegraph show the same Python functions
"$PERFAN_BIN" report "${opts[@]}" --no-children "$d/perf312.data" >"$tmp/report.txt" 2>/dev/null
grep -q 'dedup (.*handler.py)' "$tmp/report.txt" || fail "report: no dedup row"
"$PERFAN_BIN" flamegraph "${opts[@]}" "$d/perf312.data" -o "$tmp/fg.svg" 2>/dev/null
grep -q '<title>walk (.*handler.py)</title>' "$tmp/fg.svg" || fail "flamegraph: no walk frame"
echo "ok: report and flamegraph show Python functions"

# -g through a libpython without frame pointers: a warning saying what to do
"$PERFAN_BIN" report "${opts[@]}" "$d/perf312fp.data" >/dev/null 2>"$tmp/err"
grep -q -- "--call-graph dwarf" "$tmp/err" || fail "-g recording: no advice: $(cat "$tmp/err")"
echo "ok: a -g recording draws the advice to record with --call-graph dwarf"
