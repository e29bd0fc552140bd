#!/usr/bin/env bash
# triage_before.sh: triage -b BEFORE... -a AFTER... takes runs as perfan
# diff does (issue 35, item 7): on testdata/slow-service (3 runs of the
# slow handler, 3 of the fixed one), the page and the text name
# summarize_fast as new and summarize_slow as vanished, both significant,
# with diff's own q-values; slow_service.py is the truth of which function
# each mode runs. The first AFTER run is the one triaged; -a alone is a
# usage error; one run a side says it is not tested.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
S=testdata/slow-service
P=(--symfs "$S" --kallsyms testdata/kallsyms --buildid-dir "$tmp/nocache" --perf-map-dir "$S")

# the program's truth: summarize_fast runs in fast mode only, summarize_slow
# in slow mode only
grep -q '{"slow": summarize_slow, "fast": summarize_fast}' "$S/slow_service.py" ||
	fail "slow_service.py: the handlers are not one a mode"

"$PERFAN_BIN" triage --text "${P[@]}" -b "$S"/slow-[123].data -a "$S"/fast-[123].data \
	>"$tmp/t.txt" 2>"$tmp/err" || fail "triage --text -b -a: exit $?: $(cat "$tmp/err")"
"$PERFAN_BIN" triage "${P[@]}" -b "$S"/slow-[123].data -a "$S"/fast-[123].data \
	-o "$tmp/t.html" 2>"$tmp/err" || fail "triage -b -a: exit $?: $(cat "$tmp/err")"
"$PERFAN_BIN" diff --json "${P[@]}" -b "$S"/slow-[123].data -a "$S"/fast-[123].data \
	>"$tmp/d.json" 2>/dev/null || fail "diff: exit $?"
python3 - "$tmp" "$S" <<'PY' || fail "see above"
import html, json, re, sys
tmp, S = sys.argv[1:3]
bad = 0
def fail(m):
    global bad
    print("FAIL:", m); bad = 1
d = json.load(open(f"{tmp}/d.json"))
row = {r["function"].split(" (")[0]: r for r in d["rows"]}
fast, slow = row["summarize_fast"], row["summarize_slow"]
if not (fast["new"] and fast["significant"] and slow["vanished"] and slow["significant"]):
    fail("diff itself does not find summarize_fast new and summarize_slow gone")
txt = open(f"{tmp}/t.txt").read()
if not txt.startswith(f"perfan triage of {S}/fast-1.data"):
    fail(f"the triaged run is not the first after: {txt.splitlines()[0]}")
if "(3 before, 3 after)" not in txt:
    fail("text: not 3 runs a side")
sec = txt.split("5. What changed")[1].split("6. What")[0]
new = sec.split("new functions")[1].split("vanished functions")[0]
gone = sec.split("vanished functions")[1]
def q(r):
    return "%.2g" % r["p_self"]
m = re.search(r"^\s+0\.00%\s+([\d.]+)%\s+\+([\d.]+)\s+(\S+)\s+summarize_fast .*\(new\) \*$", new, re.M)
if not m:
    fail(f"text: summarize_fast not among the new functions, significant:\n{new}")
elif m.group(3) != q(fast) or abs(float(m.group(1)) - 100 * fast["after_self"]) > 0.006:
    fail(f"text: summarize_fast {m.group(0)}, diff {100*fast['after_self']:.2f}% q {q(fast)}")
if not re.search(r"summarize_slow .*\(gone\) \*$", gone, re.M):
    fail(f"text: summarize_slow not among the vanished functions:\n{gone}")
page = open(f"{tmp}/t.html").read()
sec = page.split('<section id="changes">')[1].split("</section>")[0]
newp = sec.split('<h3 id="new">')[1].split("<h3")[0]
if "summarize_fast" not in newp or q(fast) not in newp:
    fail("page: summarize_fast with its q-value not under New functions")
if "summarize_slow" not in sec.split('<h3 id="vanished">')[1]:
    fail("page: summarize_slow not under Vanished functions")
if not bad:
    print(f"ok: summarize_fast new ({100*fast['after_self']:.2f}%, q {q(fast)}), summarize_slow gone, 3 runs a side")
sys.exit(bad)
PY

# -a without -b: a usage error
rc=0
"$PERFAN_BIN" triage --text "${P[@]}" -a "$S/fast-1.data" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "-a without -b: exit $rc, not 2"
# one run a side: said untested
"$PERFAN_BIN" triage --text "${P[@]}" "$S/fast-1.data" -b "$S/slow-1.data" >"$tmp/one.txt" 2>/dev/null ||
	fail "triage FILE -b ONE: exit $?"
grep -q "one run a side: no test" "$tmp/one.txt" || fail "one run a side: not said untested"
grep -q "summarize_fast .*(new)" "$tmp/one.txt" || fail "one run a side: summarize_fast not new"

[ $fails -eq 0 ] && echo "triage_before: ok"
[ $fails -eq 0 ]
