#!/usr/bin/env bash
# python_self.sh: a Python function's self time (issue 14), on
# testdata/slow-service/slow-1.data (3.12 -X perf, DWARF), against perf's
# own perf script text of it, read by a checker here:
#  - default view: summarize_slow's self share is, within two samples, the
#    share of perf's samples whose innermost Python frame is summarize_slow
#    and whose frames below it are all the runtime's (libpython, python,
#    libc, libm, libpthread, libdl, librt, ld.so, vdso), and >= 75 %;
#  - --python python gives the same; --python mixed keeps the C functions
#    as leaves (summarize_slow < 1 % self there) and native is perf's;
#  - report --native-detail: under summarize_slow, list_contains and
#    PyObject_RichCompare with the shares the checker counts (two samples)
#    and perf report --no-children gives (report-slow-1.txt, 1 point), in
#    text and JSON; shares of self add up to 100 %.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

d=testdata/slow-service
O=(--symfs "$d" --perf-map-dir "$d" --kallsyms testdata/kallsyms
	--buildid-dir "$tmp/no-cache")
zstd -dcq "$d/script-slow-1.txt.zst" >"$tmp/script.txt"

# perf's samples: per (innermost Python function, leaf) with runtime
# frames only below the function, as JSON {"total", "self": {fn: n},
# "leaf": {fn: {leaf: n}}}
python3 - "$tmp/script.txt" >"$tmp/oracle.json" <<'PY'
import json, re, sys
runtime = re.compile(r"^(libpython|python|libc\.so|libc-2\.|libm\.so|libm-2\.|"
                     r"libpthread|libdl|librt|ld-linux|ld-2\.|ld64\.so|ld\.so|"
                     r"\[vdso\]|linux-vdso)")
frame = re.compile(r"^\s*[0-9a-f]+ (.*) \(([^()]*)\)$")
total, self_, leaf = 0, {}, {}
for block in open(sys.argv[1]).read().split("\n\n"):
    lines = [l for l in block.split("\n") if l.strip()]
    if not lines or "cpu-clock" not in lines[0]:
        continue
    total += 1
    frames = []
    for l in lines[1:]:
        m = frame.match(l)
        if not m:
            sys.exit("unparsed frame line: " + l)
        sym, mod = m.group(1), m.group(2)
        if mod == "inlined":  # the real frame at this address follows
            continue
        frames.append((re.sub(r"\+0x[0-9a-f]+$", "", sym), mod))
    py = next((i for i, f in enumerate(frames) if f[0].startswith("py::")), None)
    if py is None:
        continue
    if not all(runtime.match(mod.rsplit("/", 1)[-1]) for _, mod in frames[:py]):
        continue
    fn = frames[py][0][4:].split(":", 1)[0]
    lf = frames[0][0] if py else fn
    self_[fn] = self_.get(fn, 0) + 1
    leaf.setdefault(fn, {})
    leaf[fn][lf] = leaf[fn].get(lf, 0) + 1
json.dump({"total": total, "self": self_, "leaf": leaf}, sys.stdout)
PY

report() { # VIEW-ARGS...: report --json of the sym key, self only
	"$PERFAN_BIN" report "${O[@]}" --no-children --sort sym --json "$@" \
		"$d/slow-1.data" 2>"$tmp/err" || fail "report $*: $(cat "$tmp/err")"
}
report >"$tmp/default.json"
report --python python >"$tmp/python.json"
report --python mixed >"$tmp/mixed.json"
report --python native >"$tmp/native.json"
"$PERFAN_BIN" report "${O[@]}" --no-children --sort sym --native-detail \
	"$d/slow-1.data" >"$tmp/detail.txt" 2>"$tmp/err" || fail "report --native-detail: $(cat "$tmp/err")"
"$PERFAN_BIN" report "${O[@]}" --no-children --sort sym --native-detail --json \
	"$d/slow-1.data" >"$tmp/detail.json" 2>"$tmp/err" || fail "report --native-detail --json: $(cat "$tmp/err")"

python3 - "$tmp" "$d/report-slow-1.txt" <<'PY' || fail "see above"
import json, re, sys
tmp, perf_report = sys.argv[1], sys.argv[2]
o = json.load(open(f"{tmp}/oracle.json"))
total = o["total"]
bad = []
def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        bad.append(what)

def self_pct(path, prefix):
    rows = json.load(open(path))["columns"][0]["rows"]
    return sum(r["self_percent"] for r in rows if r["sym"].startswith(prefix))

want = 100.0 * o["self"].get("summarize_slow", 0) / total
two = 200.0 / total  # two samples, in percent
got = self_pct(f"{tmp}/default.json", "summarize_slow (")
check(abs(got - want) <= two,
      f"default view: summarize_slow self {got:.2f} %, perf script's own-time "
      f"samples {want:.2f} % ({o['self'].get('summarize_slow', 0)} of {total})")
check(got >= 75, f"default view: summarize_slow self {got:.2f} % >= 75 %")
check(self_pct(f"{tmp}/python.json", "summarize_slow (") == got,
      "--python python is the default view")
mixed = self_pct(f"{tmp}/mixed.json", "summarize_slow (")
check(mixed < 1, f"--python mixed: summarize_slow self {mixed:.2f} % < 1 % (C leaves kept)")
check(self_pct(f"{tmp}/mixed.json", "list_contains") > 20,
      "--python mixed: list_contains stays a leaf")
check(self_pct(f"{tmp}/native.json", "py::summarize_slow:") < 1,
      "--python native: perf's frames")

# perf report --no-children --sort sym: its self shares
perf = {}
for l in open(perf_report):
    m = re.match(r"^\s+([0-9.]+)%\s+\[\.\] (\S+)\s*$", l)
    if m:
        perf[m.group(2)] = float(m.group(1))

doc = json.load(open(f"{tmp}/detail.json"))
check(doc["report"]["columns"][0]["rows"][0]["sym"].startswith("summarize_slow ("),
      "--native-detail --json: the report, summarize_slow first")
funcs = doc["native_detail"][0]["functions"]
f = next(x for x in funcs if x["name"].startswith("summarize_slow ("))
check(funcs[0] is f, "--native-detail: summarize_slow first")
check(abs(f["percent"] - got) < 1e-6, "--native-detail: summarize_slow's self share is the report's")
check(abs(sum(s["self_percent"] for s in f["native"]) - 100) < 0.01,
      "--native-detail: shares of self add up to 100 %")
for c in ("list_contains", "PyObject_RichCompare"):
    s = next((x for x in f["native"] if x["name"] == c), None)
    check(s is not None, f"--native-detail: {c} under summarize_slow")
    if s is None:
        continue
    mine = 100.0 * o["leaf"]["summarize_slow"].get(c, 0) / total
    check(abs(s["percent"] - mine) <= two,
          f"--native-detail: {c} {s['percent']:.2f} %, perf script {mine:.2f} %")
    check(abs(s["percent"] - perf[c]) <= 1,
          f"--native-detail: {c} {s['percent']:.2f} %, perf report {perf[c]:.2f} %")

# the text: the same figures under the function's line
text = open(f"{tmp}/detail.txt").read().split("\n")
at = next(i for i, l in enumerate(text) if re.match(r"^\s+[0-9.]+%\s+summarize_slow \(", l))
under = []
for l in text[at + 1:]:
    m = re.match(r"^\s+([0-9.]+)%\s+([0-9.]+)%\s+(\S+)  \[(.*)\]$", l)
    if not m:
        break
    under.append((m.group(3), float(m.group(1)), m.group(4)))
names = [u[0] for u in under]
check(names[:2] == ["PyObject_RichCompare", "list_contains"],
      f"--native-detail text: heaviest first under summarize_slow: {names[:5]}")
pc = dict((u[0], u[1]) for u in under)
check(abs(pc["list_contains"] - perf["list_contains"]) <= 1 and
      dict((u[0], u[2]) for u in under)["list_contains"] == "libpython3.12.so.1.0",
      "--native-detail text: list_contains's share and module")
sys.exit(1 if bad else 0)
PY
echo "ok: python self time"
