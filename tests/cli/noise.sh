#!/usr/bin/env bash
# noise.sh: output noise (issue 35, item 9): a warning once however many
# inputs give it (diff and triage of six runs that each lack Python
# frames: perf script's own text shows none, the reason the warning
# exists); no module printed twice beside a Python function in triage
# text; report rows fit 160 columns unless --wide, a long key cut in its
# middle keeping both ends of the --wide text.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
S=testdata/slow-service
V=testdata/server
A=(--kallsyms "$V/kallsyms" --symfs "$V/symfs" --perf-map-dir "$V" --buildid-dir "$tmp/nc")

# without --perf-map-dir the runs have no Python frames, as perf script
# without the maps would show: the warning, once for six runs
for cmd in "diff" "triage --text"; do
	HOME=$tmp "$PERFAN_BIN" $cmd --kallsyms testdata/kallsyms --buildid-dir "$tmp/nc" \
		-b "$S"/slow-[123].data -a "$S"/fast-[123].data >/dev/null 2>"$tmp/err" ||
		fail "$cmd: exit $?: $(head -c 300 "$tmp/err")"
	n=$(grep -c 'no Python function is on these stacks' "$tmp/err" || true)
	[ "$n" = 1 ] || fail "$cmd of 6 runs: the Python warning $n times, not once"
	dups=$(sort "$tmp/err" | uniq -d | wc -l)
	[ "$dups" = 0 ] || fail "$cmd: $dups warnings given more than once"
done

# triage text: a Python function's module is its file, named once
HOME=$tmp "$PERFAN_BIN" triage --text "${A[@]}" "$V/server.data" >"$tmp/t.txt" 2>"$tmp/err" ||
	fail "triage server: exit $?: $(head -c 300 "$tmp/err")"
grep -q ' score (' "$tmp/t.txt" || fail "triage server: no plateau score"
grep -E '\(([^() ]+)\) \(\1\)' "$tmp/t.txt" >"$tmp/twice" &&
	fail "triage server: a module named twice: $(head -2 "$tmp/twice")"
sort "$tmp/err" | uniq -d | grep -q . && fail "triage server: a warning given twice"

# report: 160 columns, or --wide; a cut key is the wide one's start and end
HOME=$tmp "$PERFAN_BIN" report "${A[@]}" "$V/server.data" >"$tmp/r.txt" 2>/dev/null ||
	fail "report server: exit $?"
HOME=$tmp "$PERFAN_BIN" report --wide "${A[@]}" "$V/server.data" >"$tmp/w.txt" 2>/dev/null ||
	fail "report --wide server: exit $?"
python3 - "$tmp/r.txt" "$tmp/w.txt" <<'PY' || fail "report widths: see above"
import sys
narrow = open(sys.argv[1], encoding="utf-8").read().splitlines()
wide = open(sys.argv[2], encoding="utf-8").read().splitlines()
bad = 0
if len(narrow) != len(wide):
    sys.exit(f"FAIL: {len(narrow)} lines, --wide {len(wide)}")
if max(len(l) for l in narrow) > 160:
    print(f"FAIL: a row of {max(len(l) for l in narrow)} columns"); bad = 1
if max(len(l) for l in wide) <= 160:
    print("FAIL: --wide: no row longer than 160 columns (nothing to cut?)"); bad = 1
cut = 0
for n, w in zip(narrow, wide):
    if "\u2026" not in n:
        continue
    cut += 1
    # every cut key: its start and its end are the wide row's
    for part in n.split("  "):
        if "\u2026" in part:
            head, tail = part.strip().split("\u2026", 1)
            if head not in w or tail.rstrip() not in w or \
               w.index(head) > w.rindex(tail.rstrip()):
                print(f"FAIL: {part!r} is not cut from {w!r}"); bad = 1
if not cut:
    print("FAIL: no row was cut"); bad = 1
print(f"ok: {cut} rows cut to 160 columns, each the --wide row's start and end")
sys.exit(bad)
PY

[ $fails -eq 0 ] && echo "noise: ok"
[ $fails -eq 0 ]
