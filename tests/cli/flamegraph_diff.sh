#!/usr/bin/env bash
# flamegraph_diff.sh: perfan flamegraph --diff BEFORE AFTER. Folded pairs
# (read together, pruned) are drawn as their AFTER file implies, the same
# as difffolded.pl's two-count lines of them and as each side read whole;
# unsorted pairs are read again whole; a perf.data against itself is all
# neutral; usage errors. Run from the source tree with PERFAN_BIN set
# (ctest does both); the peer-data checks print SKIP where ../shared is
# absent.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
PEER=${PERFAN_PEERDATA:-../shared/peer-data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
err() {
	echo "FAIL: $*"
	fail=1
}

# after_frames SVG OUT: SVG without the frames that are only before
# (data-w="0", the union layout's vanished frames), which the AFTER file
# alone does not imply
after_frames() {
	python3 - "$1" "$2" <<'EOF'
import sys
import xml.etree.ElementTree as ET
ns = 'http://www.w3.org/2000/svg'
ET.register_namespace('', ns)
ET.register_namespace('xlink', 'http://www.w3.org/1999/xlink')
tree = ET.parse(sys.argv[1])
frames = tree.getroot().find(f'.//{{{ns}}}g[@id="frames"]')
frames[:] = [g for g in frames if g.get('data-w') != '0']
tree.write(sys.argv[2], xml_declaration=True, encoding='utf-8')
EOF
}

# fills SVG: the distinct fills of its frames, one a line
fills() {
	python3 - "$1" <<'EOF'
import sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
frames = ET.parse(sys.argv[1]).getroot().find(f'.//{ns}g[@id="frames"]')
print('\n'.join(sorted({g.find(f'{ns}rect').get('fill')
                        for g in frames.findall(f'{ns}g')})))
EOF
}

fg() { # fg OUT ARGS...: perfan flamegraph, which must succeed
	local out=$1
	shift
	"$PERFAN_BIN" flamegraph "$@" -o "$out" 2>"$out.err" ||
		err "perfan flamegraph $*: $(cat "$out.err")"
}

# ---- 1. difffolded.pl's pairs ------------------------------------------------

if [ -d "$PEER/diff-folded" ]; then
	for x in funcab cycles-numa java-vertx; do
		b=$PEER/diff-folded/$x.before.folded
		a=$PEER/diff-folded/$x.after.folded
		# the after shape: a differential graph opens on the union
		fg "$tmp/$x.0.svg" --diff --view after --minwidth 0 "$b" "$a"
		after_frames "$tmp/$x.0.svg" "$tmp/$x.0.after.svg"
		python3 tests/tools/fg_frames.py --minwidth 0 "$a" \
			"$tmp/$x.0.after.svg" >"$tmp/out" ||
			err "$x: frames of --diff against $a: $(cat "$tmp/out")"
		# read together and pruned, as each side whole (standard input
		# is not read as a pair), and as difffolded.pl's lines
		fg "$tmp/$x.svg" --diff "$b" "$a"
		"$PERFAN_BIN" flamegraph --diff "$b" - <"$a" >"$tmp/$x.stdin.svg"
		cmp -s "$tmp/$x.svg" "$tmp/$x.stdin.svg" ||
			err "$x: --diff of two files and of a file and stdin differ"
		fg "$tmp/$x.two.svg" "$PEER/diff-folded/$x.expected.txt"
		cmp -s "$tmp/$x.svg" "$tmp/$x.two.svg" ||
			err "$x: --diff and difffolded.pl's two-count lines differ"
		# out of order: read again whole, the same graph
		tac "$a" >"$tmp/$x.rev.folded"
		fg "$tmp/$x.rev.svg" --diff "$b" "$tmp/$x.rev.folded"
		cmp -s "$tmp/$x.svg" "$tmp/$x.rev.svg" ||
			err "$x: --diff with AFTER reversed differs"
	done
	[ "$(fills "$tmp/java-vertx.svg" | wc -l)" -gt 3 ] ||
		err "java-vertx: --diff is all one colour"
	echo "ok: --diff of difffolded.pl's pairs"
else
	echo "SKIP: no peer data ($PEER): difffolded.pl's pairs not drawn"
fi

# ---- 2. large sorted pairs, out of order after a fold ------------------------

python3 - "$tmp" <<'EOF'
import sys
names = ['main', 'parse', 'eval', 'alloc', 'free', 'hash', 'b', 'b-x',
         'write', 'read', 'sort', 'scan']
x = 88172645463325252
def rnd():
    global x
    x ^= (x << 13) & (2**64 - 1); x ^= x >> 7; x ^= (x << 17) & (2**64 - 1)
    return x
side = {0: {}, 1: {}}
for i in range(40000):
    st = ';'.join(names[rnd() % 12] for _ in range(1 + rnd() % 12))
    where = rnd() % 4
    for s in (0, 1):
        if where == 1 - s:
            continue
        c = 5000 if rnd() % 3000 == 0 else 1 + rnd() % 7
        side[s][st] = side[s].get(st, 0) + c
for s, name in ((0, 'big.before.folded'), (1, 'big.after.folded')):
    lines = sorted(f'{k} {v}' for k, v in side[s].items())
    with open(f'{sys.argv[1]}/{name}', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    # and one line out of order at the end, after much was folded
    with open(f'{sys.argv[1]}/{name}.late', 'w') as f:
        f.write('\n'.join(lines) + '\nalloc 3\n')
EOF
b=$tmp/big.before.folded a=$tmp/big.after.folded
fg "$tmp/big.svg" --diff "$b" "$a"
{ cat "$a" && echo "alloc 3"; } | LC_ALL=C sort >"$tmp/big.after.sorted"
fg "$tmp/big.late.svg" --diff "$b" "$a.late"
fg "$tmp/big.sorted.svg" --diff "$b" "$tmp/big.after.sorted"
cmp -s "$tmp/big.late.svg" "$tmp/big.sorted.svg" ||
	err "a line out of order after a fold: not read again whole"
fg "$tmp/big.late2.svg" --diff "$b.late" "$a"
"$PERFAN_BIN" flamegraph --diff - "$a" <"$b.late" >"$tmp/big.late2.stdin.svg"
cmp -s "$tmp/big.late2.svg" "$tmp/big.late2.stdin.svg" ||
	err "BEFORE out of order after a fold: not read again whole"
# pruned as it is read, the graph of each side read whole
"$PERFAN_BIN" flamegraph --diff "$b" - <"$a" >"$tmp/big.stdin.svg"
cmp -s "$tmp/big.svg" "$tmp/big.stdin.svg" ||
	err "large pair: read together and pruned, and whole, differ"
[ "$(stat -c %s "$tmp/big.svg")" -lt 5000000 ] ||
	err "large pair: $(stat -c %s "$tmp/big.svg") bytes of SVG"
grep -q '<title>(other)</title>' "$tmp/big.svg" ||
	err "large pair: nothing merged into (other)"
echo "ok: --diff of large sorted pairs, and of unsorted ones"

# ---- 3. a perf.data against itself ---------------------------------------------

pd=testdata/fp/perf.data
fg "$tmp/same.svg" --diff --view after --minwidth 0 "$pd" "$pd"
"$PERFAN_BIN" collapse "$pd" >"$tmp/fp.folded"
python3 tests/tools/fg_frames.py --minwidth 0 "$tmp/fp.folded" "$tmp/same.svg" \
	>"$tmp/out" || err "$pd twice: $(cat "$tmp/out")"
python3 - "$tmp/same.svg" >"$tmp/out" <<'EOF' || err "$pd twice: $(cat "$tmp/out")"
import sys
import xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
frames = ET.parse(sys.argv[1]).getroot().find(f'.//{ns}g[@id="frames"]')
bad, n = [], 0
for g in frames.findall(f'{ns}g'):
    n += 1
    fill = g.find(f'{ns}rect').get('fill')
    r, gr, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    if not (r == gr == b):
        bad.append(f"{g.find(f'{ns}title').text}: {fill}, not neutral")
    if g.get('data-bw') is not None and (g.get('data-w'), g.get('data-o')) != \
            (g.get('data-bw'), g.get('data-bo')):
        bad.append(f"{g.find(f'{ns}title').text}: moved")
if n < 5 or bad:
    sys.exit(f'{n} frames; ' + '; '.join(bad[:5]))
EOF
"$PERFAN_BIN" flamegraph --diff "$pd" - <"$pd" >"$tmp/same.stdin.svg"
fg "$tmp/same.default.svg" --diff "$pd" "$pd"
cmp -s "$tmp/same.default.svg" "$tmp/same.stdin.svg" ||
	err "$pd twice: a file and standard input differ"
echo "ok: --diff of a perf.data against itself: every frame neutral"

# ---- 4. usage and errors ---------------------------------------------------------

rc_of() { # rc_of WANT ARGS...
	local want=$1 rc=0
	shift
	"$PERFAN_BIN" flamegraph "$@" >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || err "perfan flamegraph $*: exit $rc, not $want"
	grep -q "^perfan flamegraph: " "$tmp/err" ||
		err "perfan flamegraph $*: no message: $(cat "$tmp/err")"
}
rc_of 2 --diff "$pd"
rc_of 2 --diff "$pd" "$pd" "$pd"
rc_of 2 --diff --flamechart "$pd" "$pd"
rc_of 1 --diff "$tmp/nonexistent.folded" "$pd"
rc_of 1 --diff "$pd" "$tmp/nonexistent.folded"
printf 'a;b 1\nnot folded\n' >"$tmp/bad.folded"
rc_of 1 --diff "$tmp/big.before.folded" "$tmp/bad.folded"
grep -q "bad.folded:2:" "$tmp/err" || err "a bad line: $(cat "$tmp/err")"
"$PERFAN_BIN" flamegraph --help >"$tmp/help.txt"
grep -q -- '--diff' "$tmp/help.txt" || err "--help has no --diff"
echo "ok: --diff usage and errors"

# colouring options: a frame whose own time is unchanged but whose callee
# grew is neutral by self and red by total; a noise floor above every
# change leaves everything neutral
printf 'm;a 10 10\nm;a;b 10 30\nm;c 20 20\n' >"$tmp/col.folded"
fillof() { # fillof SVG NAME
	python3 - "$1" "$2" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for g in ET.parse(sys.argv[1]).getroot().find(f".//{ns}g[@id='frames']"):
    if g.find(f"{ns}title").text == sys.argv[2]:
        print(g.find(f"{ns}rect").get("fill")); break
PY
}
"$PERFAN_BIN" flamegraph "$tmp/col.folded" >"$tmp/self.svg"
"$PERFAN_BIN" flamegraph --total "$tmp/col.folded" >"$tmp/total.svg"
"$PERFAN_BIN" flamegraph --noise-floor 50 "$tmp/col.folded" >"$tmp/floor.svg"
a_self=$(fillof "$tmp/self.svg" a) a_total=$(fillof "$tmp/total.svg" a)
b_floor=$(fillof "$tmp/floor.svg" b) b_self=$(fillof "$tmp/self.svg" b)
[ "$a_self" != "$a_total" ] || err "--total: a is $a_self either way"
case $a_total in \#ff*) ;; *) err "--total: a grew with its callee but is $a_total" ;; esac
[ "$b_floor" != "$b_self" ] && [ "$b_floor" = "$(fillof "$tmp/floor.svg" c)" ] ||
	err "--noise-floor 50: b is $b_floor (unfloored $b_self)"
rc_of 2 --noise-floor x "$tmp/col.folded"
rc_of 2 --noise-sigmas -1 "$tmp/col.folded"
echo "ok: --total colours by total change, --noise-floor makes small changes neutral"

exit $fail
