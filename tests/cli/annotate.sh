#!/usr/bin/env bash
# annotate.sh: perfan annotate against perf annotate on testdata/annotate
# (gcc -O2 -g, recorded with frame pointers and with DWARF stacks; perf's
# per-line summary only of the first):
#  - for the three hottest functions, every instruction's local percent
#    within 0.5 points of `perf annotate --stdio --no-source` (local
#    period), the sample count equal to perf's header, each source line's
#    period the sum of its instructions' and within 0.5 points of perf's
#    `-l` sorted summary (perf leaves out instructions of 0.5 % or less
#    there: tests/tools/annotate_agree.py);
#  - the hottest functions in report's order, shares equal to report's;
#  - a stripped binary with its debug file apart (testdata/debug-buildid)
#    annotated with source lines, and without the debug file no lines;
#  - inlined code named with its call site; --source; JSON and text agree;
#  - errors: unknown names, a missing file, bad options, a cut recording
#    (its samples still annotated); output byte-identical run to run;
#  - a Python recording: the interpreter's C code, no py:: trampolines
#    (skipped when the recorded libpython is absent).
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

A=testdata/annotate
# Everything from testdata: binaries under --symfs, no build-id cache, this
# case's kernel symbols, sources under --source-dir.
pin=(--symfs "$A" --buildid-dir "$tmp/no-cache" --kallsyms "$A/kallsyms"
	--source-dir "$A")
hot=(crc_all insertion_sort bsearch_all)

check() { # NAME COMMAND...: run, count, report
	checks=$((checks + 1))
	local name=$1
	shift
	if ! "$@" >"$tmp/check.out" 2>&1; then
		fail "$name: $(cat "$tmp/check.out")"
	fi
}

# ---- against perf annotate --------------------------------------------------
"$PERFAN_BIN" annotate --json "${pin[@]}" "${hot[@]}" "$A/perf.fp.data" \
	>"$tmp/fp.json" 2>"$tmp/fp.err" || fail "fp: $(cat "$tmp/fp.err")"
for s in "${hot[@]}"; do
	check "perf parity $s" python3 tests/tools/annotate_agree.py \
		"$tmp/fp.json" "$s" "$A/annotate-$s.txt" "$A/annotate-lines-$s.txt"
	cat "$tmp/check.out"
done

# ... and on the DWARF recording (perf.data), against perf annotate on it
"$PERFAN_BIN" annotate --json "${pin[@]}" "${hot[@]}" "$A/perf.data" \
	>"$tmp/dwarf.json" 2>"$tmp/dwarf.err" || fail "dwarf: $(cat "$tmp/dwarf.err")"
for s in "${hot[@]}"; do
	check "perf parity dwarf $s" python3 tests/tools/annotate_agree.py \
		"$tmp/dwarf.json" "$s" "$A/annotate-dwarf-$s.txt"
	cat "$tmp/check.out"
done

# ---- the hottest, with report's shares --------------------------------------
for rec in perf.fp.data perf.data; do
	rep=report.txt
	[ "$rec" = perf.fp.data ] && rep=report.fp.txt
	"$PERFAN_BIN" annotate --json -n 3 "${pin[@]}" "$A/$rec" \
		>"$tmp/top.json" 2>"$tmp/top.err" ||
		fail "top $rec: $(cat "$tmp/top.err")"
	check "top $rec" python3 - "$tmp/top.json" "$A/$rep" <<'EOF'
import json, re, sys
doc = json.load(open(sys.argv[1]))
rows = []
for line in open(sys.argv[2]):
    m = re.match(r"^\s+([0-9.]+)%\s+\S+\s+annotate\s+\[\.\] (\S+)", line)
    if m:
        rows.append((m.group(2), float(m.group(1))))
names = [f["name"] for f in doc["functions"]]
assert names == [r[0] for r in rows[:3]], (names, rows[:3])
for f, (name, pct) in zip(doc["functions"], rows):
    assert abs(f["percent"] - pct) < 0.006, (name, f["percent"], pct)
    assert f["status"] == "ok" and f["has_lines"], f["name"]
    assert sum(i["samples"] for i in f["instructions"]) == f["samples"]
    assert abs(sum(i["global_percent"] for i in f["instructions"]) - f["percent"]) < 0.01
    assert f["loops"], f["name"] + ": no loop found"
    for i in f["instructions"]:
        if i["back_jump"]:
            assert i["target"] <= i["addr"]
            head = [j for j in f["instructions"] if j["addr"] == i["target"]]
            assert head and head[0]["loop_head"] and head[0]["jump_target"]
EOF
done

# ---- inlined code, source text, --source --------------------------------------
"$PERFAN_BIN" annotate --json "${pin[@]}" hash_all "$A/perf.fp.data" \
	>"$tmp/inl.json" 2>"$tmp/inl.err" || fail "inline: $(cat "$tmp/inl.err")"
check "inline call site" python3 - "$tmp/inl.json" "$A/annotate.c" \
	"$A/annotate_inl.h" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))["functions"][0]
src = {p.rsplit("/", 1)[-1]: open(p).read().split("\n") for p in sys.argv[2:]}
call = [n for n, t in enumerate(src["annotate.c"], 1) if "mix32(data[i]" in t]
inl = [l for l in f["lines"] if l["file"].endswith("annotate_inl.h")]
assert inl, "no line of the inlined mix32"
for l in inl:
    assert l["inlined_from"][0]["function"] == "mix32", l
    assert l["inlined_from"][0]["file"].endswith("annotate.c")
    assert l["inlined_from"][0]["line"] == call[0], (l, call)
for l in f["lines"]:
    base = l["file"].rsplit("/", 1)[-1]
    assert l["text"] == src[base][l["line"] - 1], l
assert sum(l["samples"] for l in inl) > 0
EOF
"$PERFAN_BIN" annotate --source "${pin[@]}" crc_all "$A/perf.fp.data" \
	>"$tmp/src.txt" 2>&1 || fail "--source: $(cat "$tmp/src.txt")"
check "--source" python3 - "$tmp/src.txt" "$tmp/fp.json" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
f = [f for f in json.load(open(sys.argv[2]))["functions"] if f["name"] == "crc_all"][0]
assert "  local  global :" not in text, "--source printed instructions"
for l in f["lines"]:
    row = "%6.2f %7.2f %8d  %s:%d" % (l["local_percent"], l["global_percent"],
                                     l["samples"], l["file"].rsplit("/", 1)[-1], l["line"])
    assert row in text, row
assert "Sampling skid" in text
EOF

# ---- the text layout ----------------------------------------------------------
"$PERFAN_BIN" annotate "${pin[@]}" crc_all "$A/perf.fp.data" >"$tmp/t1.txt" \
	2>&1 || fail "text: $(cat "$tmp/t1.txt")"
"$PERFAN_BIN" annotate "${pin[@]}" crc_all "$A/perf.fp.data" >"$tmp/t2.txt" 2>&1
checks=$((checks + 1))
cmp -s "$tmp/t1.txt" "$tmp/t2.txt" || fail "two runs differ"
check "text layout" python3 - "$tmp/t1.txt" "$tmp/fp.json" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
f = [f for f in json.load(open(sys.argv[2]))["functions"] if f["name"] == "crc_all"][0]
assert "== crc_all  [annotate]  %d samples" % f["samples"] in text
assert "hottest lines:" in text and "hottest instructions:" in text
assert "hottest loops" in text
for i in f["instructions"]:
    row = "%6.2f %7.2f : " % (i["local_percent"], i["global_percent"])
    mark = "L" if i["loop_head"] else ">" if i["jump_target"] else " "
    assert (row + mark + "%8x:  %s" % (i["addr"], i["text"])) in text, i
    if i["back_jump"]:
        assert "%s    # loop back to %x" % (i["text"], i["target"]) in text
h = f["summary"]["instructions"][0]
assert "%6.2f%%  %8x:  %s" % (h["local_percent"], h["addr"], h["text"]) in text
EOF
"$PERFAN_BIN" annotate -M intel "${pin[@]}" crc_all "$A/perf.fp.data" \
	>"$tmp/intel.txt" 2>&1
checks=$((checks + 1))
grep -q 'mov r8d, edi' "$tmp/intel.txt" || fail "-M intel: $(head "$tmp/intel.txt")"

# ---- debug info apart -------------------------------------------------------
D=testdata/debug-buildid
"$PERFAN_BIN" annotate --json --symfs "$D" --buildid-dir "$tmp/no-cache" \
	--source-dir "$D" -n 2 "$D/perf.data" >"$tmp/dbg.json" 2>"$tmp/dbg.err" ||
	fail "debug-buildid: $(cat "$tmp/dbg.err")"
mkdir -p "$tmp/bare"
cp "$D/prog" "$tmp/bare/prog"
"$PERFAN_BIN" annotate --json --symfs "$tmp/bare" --buildid-dir "$tmp/no-cache" \
	-n 2 "$D/perf.data" >"$tmp/bare.json" 2>"$tmp/bare.err" || true
check "debug info apart" python3 - "$tmp/dbg.json" "$tmp/bare.json" "$D/symsrc.c" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
src = open(sys.argv[3]).read().split("\n")
f = [f for f in doc["functions"] if f["name"] == "inner_a"]
assert f, [g["name"] for g in doc["functions"]]
f = f[0]
assert f["binary"].endswith("/prog") and f["debug_file"].endswith(".debug"), f
assert f["has_lines"] and f["instructions"], f["name"]
assert all(l["file"].endswith("symsrc.c") for l in f["lines"])
assert all(l["text"] == src[l["line"] - 1] for l in f["lines"])
assert sum(l["samples"] for l in f["lines"]) == f["samples"]
# the stripped copy alone has no local symbols: inner_a is not found
bare = json.load(open(sys.argv[2]))
assert not [g for g in bare["functions"] if g["name"] == "inner_a"]
assert bare["unresolved"] and bare["unresolved"][0]["found"], bare["unresolved"]
EOF

# ---- errors ---------------------------------------------------------------------
checks=$((checks + 1))
"$PERFAN_BIN" annotate "${pin[@]}" no_such_function "$A/perf.fp.data" \
	>"$tmp/e1.out" 2>"$tmp/e1.err"
rc=$?
[ $rc = 1 ] && grep -q 'no_such_function: no samples' "$tmp/e1.err" ||
	fail "unknown name: rc $rc, $(cat "$tmp/e1.err")"
checks=$((checks + 1))
"$PERFAN_BIN" annotate "$tmp/none.data" >/dev/null 2>"$tmp/e2.err"
rc=$?
[ $rc = 1 ] && grep -q 'none.data' "$tmp/e2.err" ||
	fail "missing file: rc $rc, $(cat "$tmp/e2.err")"
checks=$((checks + 1))
"$PERFAN_BIN" annotate -M fancy "$A/perf.fp.data" >/dev/null 2>"$tmp/e3.err"
rc=$?
[ $rc = 2 ] || fail "bad -M: rc $rc"
"$PERFAN_BIN" annotate --top 0 "$A/perf.fp.data" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || fail "--top 0: rc $rc"
# a recording cut in the middle: the samples before the cut, and an error
size=$(stat -c %s "$A/perf.fp.data")
head -c $((size * 2 / 3)) "$A/perf.fp.data" >"$tmp/cut.data"
checks=$((checks + 1))
"$PERFAN_BIN" annotate --json "${pin[@]}" -n 1 "$tmp/cut.data" \
	>"$tmp/cut.json" 2>"$tmp/cut.err"
rc=$?
[ $rc = 1 ] && grep -qi 'offset\|truncat' "$tmp/cut.err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["functions"][0]["samples"] > 100' \
		"$tmp/cut.json" || fail "cut recording: rc $rc, $(cat "$tmp/cut.err")"
# -o writes the file, and nothing on stdout
checks=$((checks + 1))
"$PERFAN_BIN" annotate "${pin[@]}" -o "$tmp/out.txt" crc_all "$A/perf.fp.data" \
	>"$tmp/o.stdout" 2>/dev/null && cmp -s "$tmp/out.txt" "$tmp/t1.txt" &&
	[ ! -s "$tmp/o.stdout" ] || fail "-o FILE"

# ---- Python: the interpreter's C code ---------------------------------------------
P=testdata/py312-perf
lib=$(grep -o '/[^ ]*libpython3.12.so.1.0' "$P/buildids.txt" | head -1)
if [ -n "$lib" ] && [ -f "$lib" ]; then
	"$PERFAN_BIN" annotate --json -n 3 --buildid-dir "$tmp/no-cache" \
		--perf-map-dir "$P" --kallsyms testdata/kallsyms "$P/perf.data" \
		>"$tmp/py.json" 2>"$tmp/py.err" || fail "python: $(cat "$tmp/py.err")"
	check "python" python3 - "$tmp/py.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
f = doc["functions"]
assert f[0]["name"] == "_PyEval_EvalFrameDefault", [g["name"] for g in f]
assert f[0]["dso"] == "libpython3.12.so.1.0" and f[0]["has_lines"]
assert len(f[0]["instructions"]) > 5000
assert not [g for g in f if g["name"].startswith("py::")]
assert any(l["inlined_from"] for l in f[0]["lines"])
EOF
else
	echo "skip: python: $lib (recorded libpython) absent"
fi

if [ "$fails" -gt 0 ]; then
	echo "annotate: $fails of $checks checks failed"
	exit 1
fi
echo "annotate: $checks checks passed"
