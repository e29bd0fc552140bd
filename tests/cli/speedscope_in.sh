#!/usr/bin/env bash
# tests/cli/speedscope_in.sh: perfan report, collapse and flamegraph on
# speedscope's own exports (testdata/speedscope): the folded-text export
# collapses to the text under its root, the perf-script export to the same
# stacks, node's heap profile to its bytes and its CPU profile to node's
# shares; several profiles as threads with their units as columns; standard
# input, a FIFO and <(...) read as the file; a cut or damaged file is a
# clear message naming the offset and exit status 1.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
S=$TD/speedscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}
stacks() { awk '{ $NF = ""; print }' "$@"; }

# folded text (stackcollapse-perf.pl) through speedscope: the same lines
# under the profile's root, which speedscope named after the file
"$PERFAN_BIN" collapse "$TD/script-wild/kernel.kernel.flamegraph.folded" |
	sed 's/^/kernel.kernel.flamegraph.folded;/' >"$tmp/want"
"$PERFAN_BIN" collapse "$S/kernel.folded.speedscope.json" >"$tmp/got" 2>"$tmp/e" ||
	err "collapse kernel.folded: $(cat "$tmp/e")"
cmp -s "$tmp/want" "$tmp/got" ||
	err "folded export: $(diff "$tmp/want" "$tmp/got" | head -5)"
[ "$(wc -l <"$tmp/got")" -ge 20 ] || err "folded export: too few lines"

# perf script text through speedscope: the same stacks under the same comm
# roots; weighed in time (ns), all of it the samples' span
"$PERFAN_BIN" collapse "$TD/fp/script.txt" | stacks >"$tmp/want"
"$PERFAN_BIN" collapse "$S/fp.script.speedscope.json" >"$tmp/got"
stacks "$tmp/got" | cmp -s "$tmp/want" - || err "script export: other stacks"
awk '{ n += $NF } END { exit !(n > 514000000 && n < 515500000) }' "$tmp/got" ||
	err "script export: total $(awk '{ n += $NF } END { print n }' "$tmp/got") ns"

# report: perf's comm and shared object, the unit, hot_a on top
"$PERFAN_BIN" report --no-children "$S/fp.script.speedscope.json" >"$tmp/r" 2>"$tmp/e" ||
	err "report: $(cat "$tmp/e")"
grep -q "^# Event count: [0-9]* (ns)  of event 'time'" "$tmp/r" || err "report: no count in ns"
grep -m1 '%' "$tmp/r" | grep -Eq ' prog +prog +\[\.\] hot_a$' ||
	err "report: top row $(grep -m1 '%' "$tmp/r")"
"$PERFAN_BIN" report --json "$S/fp.script.speedscope.json" >"$tmp/j"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/j" || err "report --json"

# several profiles: threads, two units (speedscope weighed the exec'd
# true's single sample 1, without a unit), the choice said on stderr
"$PERFAN_BIN" collapse "$S/mtfork.script.speedscope.json" >"$tmp/m" 2>"$tmp/e"
grep -q 'has samples of 2 events; these are of time' "$tmp/e" || err "mtfork: no column warning: $(cat "$tmp/e")"
for root in mtfork worker mt-child; do
	grep -q "^$root;" "$tmp/m" || err "mtfork: no $root root"
done
"$PERFAN_BIN" collapse --event samples "$S/mtfork.script.speedscope.json" >"$tmp/t"
[ "$(cut -d';' -f1 "$tmp/t" | sort -u)" = true ] || err "--event samples: $(cat "$tmp/t")"
"$PERFAN_BIN" collapse --tid "$S/mtfork.script.speedscope.json" 2>/dev/null |
	grep -q '^worker-7439/7439;' || err "--tid: no worker-7439/7439 root"
"$PERFAN_BIN" report -s pid "$S/mtfork.script.speedscope.json" >"$tmp/r" 2>/dev/null ||
	err "report -s pid"

# node's heap profile: the bytes node counted (the self sizes' sum)
want=$(zstd -dc "$S/prog.heapprofile.zst" | python3 -c '
import json, sys
def walk(n): return n["selfSize"] + sum(walk(c) for c in n["children"])
print(walk(json.load(sys.stdin)["head"]))')
"$PERFAN_BIN" report "$S/node.heapprofile.speedscope.json" >"$tmp/r"
grep -q "^# Event count: $want (bytes)" "$tmp/r" || err "heap: $(grep 'Event count' "$tmp/r"), node counted $want"

# node's CPU profile: the self shares node's own samples give, each
# sample weighed by the time to the next one (as speedscope reads it),
# within a point
zstd -dc "$S/prog.cpuprofile.zst" | python3 -c '
import json, sys, collections
d = json.load(sys.stdin)
fn = {n["id"]: n["callFrame"]["functionName"] for n in d["nodes"]}
t = d["timeDeltas"] + [0]
c = collections.Counter()
for i, node in enumerate(d["samples"]):
	c[fn[node]] += t[i + 1]
for f in ("spin", "(garbage collector)", "makeStrings", "work"):
	print(round(100.0 * c[f] / sum(c.values()), 2), f)' >"$tmp/node"
"$PERFAN_BIN" report --no-children "$S/node.cpuprofile.speedscope.json" >"$tmp/r"
[ "$(wc -l <"$tmp/node")" = 4 ] || err "cpuprofile: node's shares"
while read -r share f; do
	got=$(awk -v f="$f" '/%/ && substr($0, index($0, "[.] ") + 4) == f { sub("%", "", $1); print $1; exit }' "$tmp/r")
	[ -n "$got" ] && awk -v a="$got" -v b="$share" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }' ||
		err "cpuprofile: $f ${got:-missing}% here, ${share}% in node's samples"
done <"$tmp/node"
[ "$(awk '/%/ { print $NF; exit }' "$tmp/r")" = spin ] || err "cpuprofile: spin is not first"

# a flame graph
"$PERFAN_BIN" flamegraph -o "$tmp/f.svg" "$S/node.cpuprofile.speedscope.json" 2>"$tmp/e" ||
	err "flamegraph: $(cat "$tmp/e")"
grep -q 'makeStrings' "$tmp/f.svg" || err "flamegraph: no makeStrings"

# standard input, a FIFO, <(...): what the file gives
f=$S/mtfork.script.speedscope.json
"$PERFAN_BIN" collapse --event time "$f" >"$tmp/file"
"$PERFAN_BIN" collapse --event time - <"$f" >"$tmp/stdin" || err "stdin"
cmp -s "$tmp/file" "$tmp/stdin" || err "stdin differs"
"$PERFAN_BIN" collapse --event time <(cat "$f") >"$tmp/proc" || err "<(...)"
cmp -s "$tmp/file" "$tmp/proc" || err "<(...) differs"
mkfifo "$tmp/fifo"
cat "$f" >"$tmp/fifo" &
"$PERFAN_BIN" report "$tmp/fifo" >"$tmp/r" 2>&1 || err "FIFO: $(cat "$tmp/r")"
wait
grep -q 'worker' "$tmp/r" || err "FIFO: no worker"

# cut, or two events swapped: a message naming the offset, exit status 1
head -c 5000 "$S/fp.script.speedscope.json" >"$tmp/cut.json"
for cmd in collapse report flamegraph; do
	set +e
	"$PERFAN_BIN" $cmd -o "$tmp/out" "$tmp/cut.json" 2>"$tmp/e" >/dev/null
	rc=$?
	set -e
	[ $rc = 1 ] || err "$cmd cut: exit $rc"
	grep -q "cut.json: offset [0-9]* (line 1): the .* input ends at 5000\|cut.json: offset [0-9]* (line 1): the input ends" "$tmp/e" ||
		err "$cmd cut: $(cat "$tmp/e")"
done
python3 - "$S/fp.script.speedscope.json" "$tmp/swap.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
c = '{"type":"C"'
i = t.index(c)
while True:
	j = t.index('}', i) + 1
	if t.startswith(',' + c, j):
		break
	i = t.index(c, j)
k = t.index('}', j + 1) + 1
open(sys.argv[2], 'w').write(t[:i] + t[j + 1:k] + ',' + t[i:j] + t[k:])
PY
set +e
"$PERFAN_BIN" collapse "$tmp/swap.json" >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "swapped: exit $rc"
grep -q 'swap.json: offset [0-9]* (line 1): an event closes frame [0-9]* ("[^"]*") but the innermost open frame is' "$tmp/e" ||
	err "swapped: $(cat "$tmp/e")"
printf '{"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": []}}' >"$tmp/noprof.json"
set +e
"$PERFAN_BIN" report "$tmp/noprof.json" >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "no profiles: exit $rc"
grep -q 'the file has no "profiles"' "$tmp/e" || err "no profiles: $(cat "$tmp/e")"

[ $fail = 0 ] && echo "speedscope_in: ok"
exit $fail
