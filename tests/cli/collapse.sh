#!/usr/bin/env bash
# collapse.sh: perfan collapse on perf.data agrees with perfan's fold of
# perf's own `perf script` text of the same recording (>= 99 % of samples,
# inlined frames included, frame pointers and DWARF alike, CPython's
# perf maps and jitdumps too); the 78
# stackcollapse-perf.pl compatibility cases (--compat=flamegraph); folded
# pass-through; errors.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. perf.data vs perf script text, on every recording that has both
n=0
for d in testdata/*/; do
	d=${d%/}
	[ -f "$d/perf.data" ] && [ -f "$d/script.txt" ] || continue
	# JIT code named from the perf map or jitdump kept with the recording
	python3 tests/tools/collapse_agree.py "$PERFAN_BIN" "$d" \
		"$d/perf.data" "$d/script.txt" -- \
		--perf-map-dir "$d" --jitdump-dir "$d" --python native
	n=$((n + 1))
done
# perf inject --jit's output: its jitted-PID-N.so files are ELF files
d=testdata/py313-perfjit
python3 tests/tools/collapse_agree.py "$PERFAN_BIN" "$d" "$d/perf.jit.data" \
	"$d/script.jit.txt" -- --python native
[ "$n" -ge 8 ] || { echo "FAIL: only $n recordings compared"; exit 1; }

# 2. stackcollapse-perf.pl's 78 cases (peer data), byte for byte under
# --compat=flamegraph
compat=../shared/tools/check-collapse-compat.sh
if [ -x "$compat" ] || [ -f "$compat" ]; then
	bash "$compat" "$PERFAN_BIN" collapse --compat=flamegraph | tail -1
else
	echo "SKIP: ../shared is absent: stackcollapse-perf.pl cases not run"
fi

# 3. roots per thread where the threads share their stacks (threads64: 64
# threads running the same code, so one stack is met under many roots):
# each thread's samples of each event are perf's (report-pid.txt, perf
# report --sort pid -n: its "pid" is the thread's)
d=testdata/threads64
events=$(sed -n "s/^# Samples: .* of event '\(.*\)'$/\1/p" "$d/report-pid.txt")
[ "$(printf '%s\n' "$events" | wc -l)" = 3 ] || { echo "FAIL: $d: events $events"; exit 1; }
while IFS= read -r ev; do
	awk -v ev="$ev" '/^# Samples: / { on = index($0, "event \047" ev "\047") > 0 }
		on && /threads64$/ { split($3, a, ":"); print a[1], $2 }' \
		"$d/report-pid.txt" | sort >"$tmp/want"
	"$PERFAN_BIN" collapse --tid --samples --event "$ev" --symfs "$d" \
		--kallsyms testdata/kallsyms "$d/perf.data" 2>/dev/null |
		awk '{ split($1, a, "[/;]"); n[a[2]] += $NF }
			END { for (t in n) print t, n[t] }' | sort >"$tmp/got"
	[ "$(wc -l <"$tmp/want")" -ge 64 ] || { echo "FAIL: $d $ev: oracle rows"; exit 1; }
	cmp -s "$tmp/want" "$tmp/got" ||
		{ echo "FAIL: $d $ev: samples per thread differ from perf's"; diff "$tmp/want" "$tmp/got" | head; exit 1; }
done <<<"$events"
echo "threads64: samples per thread of its 3 events as perf's"

# 4. folded input is merged and sorted; a bad line names file:line
printf 'a;b 2\nb;c 1\na;b 3\n' >"$tmp/in.folded"
out=$("$PERFAN_BIN" collapse "$tmp/in.folded" 2>/dev/null)
[ "$out" = "$(printf 'a;b 5\nb;c 1')" ] || { echo "FAIL: folded merge: $out"; exit 1; }
printf 'a;b 2\nnot a folded line\n' >"$tmp/bad.folded"
set +e
"$PERFAN_BIN" collapse "$tmp/bad.folded" >/dev/null 2>"$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "bad.folded" "$tmp/err" ||
	{ echo "FAIL: bad folded line: rc=$rc $(cat "$tmp/err")"; exit 1; }
printf 'a;b 2\n' | "$PERFAN_BIN" collapse - >/dev/null
set +e
"$PERFAN_BIN" collapse /nonexistent/perf.data 2>"$tmp/err"; rc=$?
set -e
[ "$rc" = 1 ] && grep -q "^perfan collapse: " "$tmp/err" ||
	{ echo "FAIL: missing file: rc=$rc $(cat "$tmp/err")"; exit 1; }
set +e
"$PERFAN_BIN" collapse --no-such-option 2>/dev/null; rc=$?
set -e
[ "$rc" = 2 ] || { echo "FAIL: bad option gave $rc"; exit 1; }

# 4. -o writes the same as stdout; stdin pipe-mode perf.data works
"$PERFAN_BIN" collapse -o "$tmp/o.folded" testdata/fp/perf.data
"$PERFAN_BIN" collapse testdata/fp/perf.data | cmp - "$tmp/o.folded"
"$PERFAN_BIN" collapse testdata/pipe/perf.data >"$tmp/a"
"$PERFAN_BIN" collapse - <testdata/pipe/perf.data >"$tmp/b"
cat testdata/pipe/perf.data | "$PERFAN_BIN" collapse - >"$tmp/c"
cmp "$tmp/a" "$tmp/b" && cmp "$tmp/a" "$tmp/c"
# 5. JIT code: CPython's trampolines named from the perf map and the
# jitdump kept with the recordings (not /tmp), marked _[j] by --jit as
# stackcollapse-perf.pl marks perf-PID.map frames; unwinding to them needs
# libpython's unwind tables
py=
if [ -r testdata/py-handler/libpython3.12.so.1.0 ] &&
	[ -r testdata/py-handler/libpython3.13.so.1.0 ]; then
	py="--symfs testdata/py-handler"
elif [ -r /root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0 ] &&
	[ -r /root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0 ]; then
	py=" "
fi
if [ -n "$py" ]; then
	# shellcheck disable=SC2086
	"$PERFAN_BIN" collapse $py --python native --perf-map-dir testdata/py312-perf --jit \
		testdata/py312-perf/perf.dwarf.data >"$tmp/py312"
	grep -q ';py::dedupe:/work/main/testdata/py312-perf/bench.py_\[j\];_PyEval_EvalFrameDefault' \
		"$tmp/py312" || { echo "FAIL: no py:: frame from the perf map"; exit 1; }
	# shellcheck disable=SC2086
	"$PERFAN_BIN" collapse $py --python native --perf-map-dir "$tmp" \
		testdata/py312-perf/perf.dwarf.data >"$tmp/py312-nomap"
	! grep -q 'py::' "$tmp/py312-nomap" ||
		{ echo "FAIL: py:: frames without a perf map"; exit 1; }
	# shellcheck disable=SC2086
	"$PERFAN_BIN" collapse $py --python native --jitdump-dir testdata/py313-perfjit \
		testdata/py313-perfjit/perf.data >"$tmp/py313"
	grep -q ';py::format_record:/work/main/testdata/py313-perfjit/bench.py;_PyEval_EvalFrameDefault' \
		"$tmp/py313" || { echo "FAIL: no py:: frame from the jitdump"; exit 1; }
else
	echo "SKIP: no libpython3.12/3.13 of the recordings: JIT names not checked"
fi
echo "ok: collapse"
