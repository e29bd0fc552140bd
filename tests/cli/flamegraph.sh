#!/usr/bin/env bash
# tests/cli/flamegraph.sh: `perfan flamegraph`: every frame of its SVG
# (name, depth, offset, width) against tests/tools/fg_frames.py, a model of
# its own, for folded stacks (the 13 `-all` files of peer-data/perf-script
# and a file made here), under --minwidth, --reverse, --flamechart and
# --width; the pruned one-pass reading of a large sorted file against the
# whole reading, unsorted files and standard input; recordings and perf
# script text in testdata/ against `perfan collapse` of the same input
# and the sample filters; the same bytes for the same input; the options
# (texts, geometry, palettes, backgrounds, bad values); differential
# graphs (widths, self counts, red and blue); merged inputs; bad and
# damaged inputs (peer-data/fuzz too); every SVG parses as XML.
#
# The model checks of a group run together in one python3 process (its
# start is slow here) from a driver written below; fg_frames.py is
# imported, not changed. Known bugs are strict XFAILs: each prints XFAIL
# while the bug is there and fails the test once the right behaviour is
# seen, so that it turns into a plain check.
#
# Recordings are resolved only from testdata (--symfs, an empty build-id
# cache, testdata/kallsyms). Peer data (../shared) is read in place and its
# checks are skipped, with a SKIP line, where it is absent.
# Run from anywhere with PERFAN_BIN set (ctest runs it from the source tree).
# shellcheck disable=SC2317 # the predicates of xfail run through it
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
case $PERFAN_BIN in /*) ;; */*) PERFAN_BIN=$PWD/$PERFAN_BIN ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TD=$(cd "${PERFAN_TESTDATA:-$ROOT/testdata}" && pwd)
PEER=$(cd "${PERFAN_PEERDATA:-$ROOT/../shared/peer-data}" 2>/dev/null && pwd) || PEER=
GEN=
if [ -n "$PEER" ] && [ -f "$PEER/../tools/gen_folded.py" ]; then
	GEN=$PEER/../tools/gen_folded.py
elif [ -f "$ROOT/../shared/tools/gen_folded.py" ]; then
	GEN=$ROOT/../shared/tools/gen_folded.py
fi
cd "$ROOT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/nocache"
jobs=$tmp/jobs
fail=0
gfail=0
d=$tmp

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
	gfail=1
}

# q KIND LABEL ARGS...: queue a model check (see the driver) for the end
# of the group
q() {
	local IFS=$'\t'
	printf '%s\n' "$*" >>"$jobs"
}

# begin NAME: a group of checks, writing its files to $d
begin() {
	gfail=0
	: >"$jobs"
	d=$tmp/$1
	mkdir -p "$d"
}

# end MESSAGE: run the group's model checks and parse every *.svg the group
# wrote as XML, look for sanitizer reports; "ok: MESSAGE" when nothing failed
end() {
	local f
	for f in "$d"/*.err; do # ASan and UBSan (which goes on) under ctest
		[ -e "$f" ] && grep -q 'Sanitizer\|runtime error:' "$f" &&
			err "${f#"$tmp"/}: $(grep -m3 'Sanitizer\|runtime error:' "$f")"
	done
	for f in "$d"/*.svg; do
		[ -e "$f" ] && q xml "${f#"$tmp"/}: XML" "$f"
	done
	if [ -s "$jobs" ] &&
		! python3 "$tmp/driver.py" "$ROOT/tests/tools" <"$jobs"; then
		fail=1
		gfail=1
	fi
	if [ "$gfail" = 0 ]; then echo "ok: $*"; fi
}

# draw OUT ARGS...: perfan flamegraph ARGS >OUT 2>OUT.err, which must exit 0
draw() {
	local out=$1 rc=0
	shift
	"$PERFAN_BIN" flamegraph "$@" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = 0 ] ||
		err "perfan flamegraph $*: exit $rc: $(head -c 400 "$out.err")"
}

# drawrc WANT OUT ARGS...: the same, but it must exit WANT
drawrc() {
	local want=$1 out=$2 rc=0
	shift 2
	"$PERFAN_BIN" flamegraph "$@" >"$out" 2>"$out.err" || rc=$?
	[ "$rc" = "$want" ] ||
		err "perfan flamegraph $*: exit $rc, not $want: $(head -c 400 "$out.err")"
}

# quiet OUT: perfan wrote nothing on stderr for OUT
quiet() {
	[ ! -s "$1.err" ] || err "${1#"$tmp"/}: unexpected messages: $(head -c 400 "$1.err")"
}

# same A B WHAT: byte-identical
same() {
	cmp -s "$1" "$2" || err "$3: ${1#"$tmp"/} and ${2#"$tmp"/} differ"
}

# col OUT ARGS...: perfan collapse --all (kinds kept: _[k], _[j]) ARGS >OUT
col() {
	local out=$1
	shift
	"$PERFAN_BIN" collapse --all "$@" >"$out" 2>"$out.err" ||
		err "perfan collapse --all $*: $(head -c 400 "$out.err")"
}

# rec CASE: the options that resolve testdata/CASE hermetically
rec() {
	printf '%s\n' --symfs "$TD/$1" --kallsyms "$TD/kallsyms" \
		--buildid-dir "$tmp/nocache"
}

# fills SVG: the fills of the frames, in document order, one line
fills() {
	sed -n 's/^<g data-o=.*<rect [^>]* fill="\([^"]*\)".*/\1/p' "$1" | tr '\n' ' '
}

# gradient SVG: the background's two colours
gradient() {
	sed -n 's/.*<linearGradient id="background"[^>]*><stop stop-color="\([^"]*\)"[^>]*\/><stop stop-color="\([^"]*\)".*/\1 \2/p' "$1"
}

# allw SVG: the width of "all"
allw() {
	sed -n 's/^<g data-o="0" data-w="\([0-9]*\)" data-d="0".*/\1/p' "$1"
}

# xfail WHAT PREDICATE...: a known bug; PREDICATE succeeds once it is fixed
xfail() {
	local what=$1
	shift
	if "$@"; then
		err "known bug now fixed ($what): make this XFAIL a plain check"
	else
		echo "XFAIL: $what"
	fi
}

# must WHAT PREDICATE...: a bug once found stays fixed
must() {
	local what=$1
	shift
	"$@" || err "$what"
}

isxml() {
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" 2>/dev/null
}

cat >"$tmp/driver.py" <<'EOF'
"""The model checks of tests/cli/flamegraph.sh, one job a line on stdin,
fields separated by tabs: kind, label, arguments. argv[1] is tests/tools
(fg_frames.py is imported from there). A FAIL line on stderr per failed
job; exit status 1 if any failed."""
import contextlib
import hashlib
import io
import json
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, sys.argv[1])
import fg_frames  # noqa: E402

NS = '{http://www.w3.org/2000/svg}'
PARSED = set()  # digests of files that parsed, not to parse again


class Bad(Exception):
    pass


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha1(f.read()).digest()


def xml_name(b):
    """What an XML parser reads back for frame name bytes B."""
    if hasattr(fg_frames, 'xml_text'):
        return fg_frames.xml_text(b)
    return re.sub('[\x00-\x08\x0a-\x1f]', '\ufffd', b.decode('utf-8', 'replace'))


def parse(path):
    root = ET.parse(path).getroot()
    PARSED.add(digest(path))
    return root


def frames_of(path):
    """The root and [(name, depth, offset, width, fill, rect, g)]."""
    root = parse(path)
    fr = root.find(f'.//{NS}g[@id="frames"]')
    if fr is None:
        raise Bad(f'{path}: no <g id="frames">')
    out = []
    for g in fr.findall(f'{NS}g'):
        rect = g.find(f'{NS}rect')
        out.append((g.find(f'{NS}title').text or '', int(g.get('data-d')),
                    int(g.get('data-o')), int(g.get('data-w')),
                    rect.get('fill'), rect, g))
    return root, out


def rgb(fill):
    m = re.fullmatch(r'#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})', fill or '')
    if not m:
        raise Bad(f'fill {fill!r} is not #rrggbb')
    return tuple(int(x, 16) for x in m.groups())


def fg_main(argv):
    """fg_frames.py ARGV in this process: (passed, what it printed)."""
    out = io.StringIO()
    sys.argv = ['fg_frames.py'] + argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            fg_frames.main()
    except SystemExit as e:
        if e.code not in (None, 0):
            if isinstance(e.code, str):
                out.write(e.code)
            return False, out.getvalue()
    return True, out.getvalue()


def job_frames(folded, svg, *args):
    """fg_frames.py FOLDED SVG ARGS passes."""
    ok, text = fg_main([folded, svg, *args])
    if not ok:
        raise Bad(text.strip())
    PARSED.add(digest(svg))


def job_not(kind, *args):
    """Job KIND ARGS finds a mismatch (a model that cannot fail checks
    nothing); an SVG that does not parse is no mismatch."""
    try:
        JOBS[kind](*args)
    except Bad:
        return
    raise Bad(f'{kind} {" ".join(args)}: passed, expected a mismatch')


def job_xml(svg):
    if digest(svg) not in PARSED:
        parse(svg)


def job_chartsums(graph, chart):
    """A flame chart (--minwidth 0) has the flame graph's weight per
    (depth, name), in at least as many frames."""
    sums, counts = [], []
    for p in (graph, chart):
        s = {}
        frames = frames_of(p)[1]
        for name, dep, _, w, *_ in frames:
            s[(dep, name)] = s.get((dep, name), 0) + w
        sums.append(s)
        counts.append(len(frames))
    if sums[0] != sums[1]:
        diff = sorted(set(sums[0].items()) ^ set(sums[1].items()))[:6]
        raise Bad(f'weights per (depth, name) differ: {diff}')
    if counts[1] < counts[0]:
        raise Bad(f'the chart has {counts[1]} frames, the graph {counts[0]}')


def job_geom(svg, height, inverted, title):
    """The title; rects HEIGHT-1 high, one y per depth, HEIGHT apart; the
    root at the bottom, or at the top when inverted."""
    root, frames = frames_of(svg)
    h = int(height)
    t = root.find(f'.//{NS}text[@id="title"]')
    if t is None or t.text != title:
        raise Bad(f'title {None if t is None else t.text!r}, not {title!r}')
    ys = {}
    for name, dep, _, _, _, rect, _ in frames:
        if float(rect.get('height')) != h - 1:
            raise Bad(f'{name}: rect height {rect.get("height")}, not {h - 1}')
        ys.setdefault(dep, set()).add(float(rect.get('y')))
    if any(len(v) != 1 for v in ys.values()):
        raise Bad(f'frames of one depth at several heights: {ys}')
    y0 = min(ys[0])
    step = h if inverted == '1' else -h
    for dep, v in ys.items():
        if min(v) != y0 + dep * step:
            raise Bad(f'depth {dep} at y {min(v)}, not {y0 + dep * step}')
    allys = [y for v in ys.values() for y in v]
    if y0 != (min(allys) if inverted == '1' else max(allys)):
        raise Bad('the depth-0 frame is not at the ' +
                  ('top' if inverted == '1' else 'bottom'))


def js_string(root, key):
    """A string field of the script's perfan_fg object, decoded."""
    script = root.find(f'{NS}script')
    m = re.search(key + r': ("(?:[^"\\]|\\.)*")', script.text or '')
    if not m:
        raise Bad(f'no {key} in the script')
    return json.loads(m.group(1))


def job_texts(svg, title, subtitle, notes, unit, nametype):
    """What an XML parser and a JavaScript engine read back is the text
    given, whatever it held."""
    root = parse(svg)

    def text(tag, ident):
        e = root.find(f'.//{NS}{tag}[@id="{ident}"]')
        return None if e is None else e.text
    got = (text('text', 'title') or '', text('text', 'subtitle') or '',
           text('desc', 'notes') or '', js_string(root, 'unit'),
           js_string(root, 'nametype'))
    want = (title, subtitle, notes, unit, nametype)
    if got != want:
        raise Bad(f'read back {got!r}, given {want!r}')


def job_hues(folded, svg, palette):
    """Each frame has its kind's hue, as the man page names them. kind:
    kernel blue, JIT aqua, inlined pale yellow, native red to yellow.
    java, js, perl, python: kernel orange, JIT green, inlined aqua."""
    kinds = {}
    with open(folded, 'rb') as f:
        for line in f:
            stack = re.sub(rb'[ \t]+[0-9]+[ \t\r\n]*$', b'', line)
            for t in stack.split(b';'):
                m = re.fullmatch(rb'(.+)_\[([kji])\]', t, re.S)
                name, k = (m.group(1), m.group(2).decode()) if m else (t, 'n')
                kinds[xml_name(name)] = k
    seen = set()
    for name, dep, _, _, fill, *_ in frames_of(svg)[1]:
        if dep == 0 or name == '(other)':
            continue
        r, g, b = rgb(fill)
        k = kinds.get(name)
        if k is None:
            raise Bad(f'{name!r}: not a name of {folded}')
        seen.add(k)
        if palette == 'kind':
            ok = {'k': b > r and b > g,
                  'j': min(g, b) > r + 40 and abs(g - b) <= 16,
                  'i': min(r, g) >= 200 and b < min(r, g) - 40,
                  'n': r >= 200 and b <= 60}[k]
        else:
            ok = {'k': r > g > b and b <= 40,
                  'j': g > r + 40 and g > b + 40,
                  'i': min(g, b) > r + 40 and abs(g - b) <= 16,
                  'n': True}[k]
        if not ok:
            raise Bad(f'{name} (kind {k}): fill {fill}')
    if seen != {'k', 'j', 'i', 'n'}:
        raise Bad(f'only kinds {sorted(seen)} seen')


def job_grey(svg, depth):
    """The frames at DEPTH (the processes of a recording) are grey."""
    n = 0
    for name, dep, _, _, fill, *_ in frames_of(svg)[1]:
        if dep == int(depth):
            n += 1
            r, g, b = rgb(fill)
            if not r == g == b:
                raise Bad(f'{name}: fill {fill} is not grey')
    if not n:
        raise Bad(f'no frames at depth {depth}')


def job_diff(path, svg, negate):
    """A --minwidth 0 graph of 3-column folded stacks: widths from the
    second count; data-s and data-b the frame's own (self) counts after and
    before; red where the self share grew, blue where it shrank (swapped
    by --negate), white where it did not change; the largest change pure
    red or blue, a larger change never paler than a smaller one."""
    root = {'w': 0, 's': 0, 'b': 0, 'kids': {}}
    total = base = 0
    with open(path, 'rb') as f:
        for raw in f:
            line = raw.rstrip(b'\r\n')
            if not line.strip():
                continue
            stack, before, after = line.rsplit(b' ', 2)
            before, after = int(before), int(after)
            total += after
            base += before
            node = root
            node['w'] += after
            for t in stack.split(b';'):
                kind = 0
                if len(t) > 4 and t[-4:-2] == b'_[' and t[-1:] == b']' and \
                        chr(t[-2]) in 'kji':
                    kind, t = {'k': 1, 'j': 3, 'i': 4}[chr(t[-2])], t[:-4]
                node = node['kids'].setdefault(
                    (t, kind), {'w': 0, 's': 0, 'b': 0, 'kids': {}})
                node['w'] += after
            node['s'] += after
            node['b'] += before
    want = {('all', 0, 0): (root['w'], 0, 0)}
    todo = [(root, 0, 0)]
    while todo:
        node, off, dep = todo.pop()
        for key in sorted(node['kids']):
            kid = node['kids'][key]
            if kid['w'] == 0:
                continue
            want[(xml_name(key[0]), dep + 1, off)] = \
                (kid['w'], kid['s'], kid['b'])
            todo.append((kid, off, dep + 1))
            off += kid['w']
    got, colours, maxd = {}, [], 0
    for name, dep, off, w, fill, _, g in frames_of(svg)[1]:
        s, b = int(g.get('data-s')), int(g.get('data-b'))
        delta = abs(s / total - b / base) if total and base else 0
        maxd = max(maxd, delta)
        if w == 0:  # a stack gone in the after profile: not modelled
            continue
        got[(name, dep, off)] = (w, s, b)
        sign = (s * base > b * total) - (s * base < b * total)  # exact
        if negate == '1':
            sign = -sign
        colours.append((delta, sign, name, fill))
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:6]
        raise Bad('(name, depth, offset): (width, self after, self before) '
                  f'differ from the model: {diff}')
    for delta, sign, name, fill in colours:
        r, g, b = rgb(fill)
        if sign > 0 and not (r == 255 and g == b < 255):
            raise Bad(f'{name}: its share grew, fill {fill} is not red')
        if sign < 0 and not (b == 255 and r == g < 255):
            raise Bad(f'{name}: its share shrank, fill {fill} is not blue')
        if sign == 0 and not r == g == b:
            raise Bad(f'{name}: its share did not change, fill {fill}')
        if sign and delta == maxd and min(r, g, b) != 0:
            raise Bad(f'{name} changed most, fill {fill} is not pure')
    fades = sorted((c[0], min(rgb(c[3]))) for c in colours if c[1])
    for (d1, f1), (d2, f2) in zip(fades, fades[1:]):
        if d2 > d1 and f2 > f1 + 1:
            raise Bad(f'a larger change ({d2:.4f}) is paler than a smaller '
                      f'one ({d1:.4f})')


JOBS = {'frames': job_frames, 'not': job_not, 'xml': job_xml,
        'chartsums': job_chartsums, 'geom': job_geom, 'texts': job_texts,
        'hues': job_hues, 'grey': job_grey, 'diff': job_diff}


def main():
    bad = 0
    for line in sys.stdin:
        kind, label, *args = line.rstrip('\n').split('\t')
        try:
            JOBS[kind](*args)
        except Exception as e:  # a model that crashes fails the check too
            bad += 1
            what = '' if isinstance(e, Bad) else type(e).__name__ + ': '
            msg = str(e).replace('\n', '\n    ')
            print(f'FAIL: {label}: {what}{msg}', file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
EOF

# A folded file of our own: kinds (_[k] _[j] _[i]), names XML must escape
# or cannot hold (controls, broken UTF-8), an empty frame, a tab before the
# count, CRLF, a zero count, lines out of order and repeated, and narrow
# stacks that merge into "(other)" at 5 px and 2 %.
{
	printf '%s\n' 'main;work;hot_a 300' 'main;work;hot_b 200' \
		'main;work;hot_a;sys_read_[k];vfs_read_[k] 50' \
		'main;<&>"'"'"';x 30' \
		'java;Interpreter_[j];Lfoo/Bar:::baz_[j];inl_[i] 40' \
		'main;work;cold 10' 'main;;empty 10' 'zero;stack 0' \
		'main;server.js:10;Perl_pp_entersub;run.py:3;std::vector::push;x:y 25' \
		'main;work;hot_a 70' 'main;big 5000'
	printf 'main;caf\303\251;bad\377\001byte 20\n'
	printf 'main;tabbed\t60\n'
	printf 'main;crlf 20\r\n'
	for i in $(seq 1 40); do printf 'main;narrow_%02d;leaf 3\n' "$i"; done
	printf '%s\n' 'main;work;hot_b;sys_write_[k] 8'
} >"$tmp/own.folded"
printf '%s\n' 'main;work;hot_a 5' 'other;proc;f_[k] 9' 'main;work;new 4' \
	>"$tmp/own2.folded"
: >"$tmp/empty.folded"

# ---- 1. frames as the folded input implies -------------------------------

begin frames-own
f=$tmp/own.folded
for m in default 0 5 2%; do
	if [ $m = default ]; then a=(); else a=(--minwidth "$m"); fi
	draw "$d/own.$m.svg" "${a[@]}" "$f"
	q frames "own.folded --minwidth $m" "$f" "$d/own.$m.svg" "${a[@]}"
done
quiet "$d/own.default.svg"
grep -q '<title>(other)</title>' "$d/own.5.svg" ||
	err "own.folded --minwidth 5: no (other) frame (the check checks nothing)"
for o in "--reverse" "--flamechart" "--width 800" "--width 800 --minwidth 5" \
	"--reverse --minwidth 2%" "--flamechart --minwidth 5" \
	"--reverse --flamechart --minwidth 0"; do
	n=own${o// /}
	# shellcheck disable=SC2086 # the options split
	draw "$d/$n.svg" $o "$f"
	# shellcheck disable=SC2086
	q frames "own.folded $o" "$f" "$d/$n.svg" $o
done
draw "$d/own.inverted.svg" --inverted "$f"
q frames "own.folded --inverted" "$f" "$d/own.inverted.svg"
# the model tells graphs apart: other stacks, other minimum, not reversed
q not "own2.folded's model vs own.folded's graph" frames "$tmp/own2.folded" "$d/own.default.svg"
q not "--minwidth 5 graph vs the default's model" frames "$f" "$d/own.5.svg"
q not "--reverse graph vs the model unreversed" frames "$f" "$d/own--reverse.svg"
q not "--flamechart graph vs the flame graph model" frames "$f" "$d/own--flamechart.svg"
end "frames of a folded file of our own (kinds, XML and UTF-8 names, CRLF, unsorted), default/0/5/2% minwidth, --reverse, --flamechart, --width, --inverted; the model rejects wrong graphs"

begin frames-peer
LS=${PEER:+$PEER/perf-script/results-laststack}
if [ -z "$PEER" ] || [ ! -d "$LS" ]; then
	echo "SKIP: no peer data (${PERFAN_PEERDATA:-../shared/peer-data}): the 13 perf-script -all files are not drawn"
else
	n=0
	for f in "$LS"/*-all.txt; do
		b=$(basename "$f" -collapsed-all.txt)
		for m in default 0 5 2%; do
			if [ $m = default ]; then a=(); else a=(--minwidth "$m"); fi
			draw "$d/$b.$m.svg" "${a[@]}" "$f"
			q frames "$b --minwidth $m" "$f" "$d/$b.$m.svg" "${a[@]}"
		done
		quiet "$d/$b.default.svg"
		n=$((n + 1))
	done
	[ "$n" = 13 ] || err "$n perf-script -all files, not 13"
	for b in perf-vertx-stacks-01 perf-java-stacks-01 perf-numa-stacks-01 \
		perf-iperf-stacks-pidtid-01 perf-rust-Yamakaky-dcpu; do
		f=$LS/$b-collapsed-all.txt
		for o in "--reverse" "--flamechart" "--width 800" \
			"--width 800 --minwidth 5" "--reverse --minwidth 2%" \
			"--flamechart --minwidth 5"; do
			n=$b${o// /}
			# shellcheck disable=SC2086
			draw "$d/$n.svg" $o "$f"
			# shellcheck disable=SC2086
			q frames "$b $o" "$f" "$d/$n.svg" $o
		done
	done
	v=$LS/perf-vertx-stacks-01-collapsed-all.txt
	q not "vertx --minwidth 5 graph vs the default's model" frames "$v" "$d/perf-vertx-stacks-01.5.svg"
	q not "vertx --reverse graph vs the model unreversed" frames "$v" "$d/perf-vertx-stacks-01--reverse.svg"
	q not "vertx --width 800 graph vs the 1200 px model" frames "$v" "$d/perf-vertx-stacks-01--width800.svg"
	end "frames of the 13 perf-script -all files at default/0/5/2% minwidth; --reverse, --flamechart, --width 800 on 5 of them"
fi

# ---- 2. the pruned one-pass reading of a large sorted file ---------------

begin prune
if [ -z "$GEN" ]; then
	echo "SKIP: no ../shared/tools/gen_folded.py: the pruned reading is not compared"
else
	big=$d/big.folded
	python3 "$GEN" base "$big" --lines 5000 >/dev/null 2>&1
	[ "$(wc -l <"$big")" = 5000 ] || err "gen_folded.py: not 5000 lines"
	LC_ALL=C sort -c "$big" 2>/dev/null || err "gen_folded.py: not sorted"
	tac "$big" >"$d/rev.folded"
	# a fixed permutation, the same with any shuf
	awk '{ printf "%d\t%s\n", (NR * 7919) % 5003, $0 }' "$big" | sort -n |
		cut -f2- >"$d/perm.folded"
	# sorted but for its first line, moved to the end: the disorder shows
	# only after subtrees were merged
	{ tail -n +2 "$big"; head -1 "$big"; } >"$d/late.folded"
	head -4999 "$d/late.folded" >"$d/late4999.folded"
	for m in default 5; do
		if [ $m = default ]; then a=(); else a=(--minwidth "$m"); fi
		draw "$d/big.$m.svg" "${a[@]}" "$big" # pruned
		draw "$d/two.$m.svg" "${a[@]}" "$big" "$tmp/empty.folded" # two inputs: not pruned
		same "$d/big.$m.svg" "$d/two.$m.svg" "minwidth $m: pruned vs two inputs"
		# disorder after merges on standard input (pipe or file): it
		# cannot be read again: exit 1 naming the line, and what was
		# read before is drawn
		drawrc 1 "$d/latepipe.$m.svg" "${a[@]}" - < <(cat "$d/late.folded")
		grep -q '^perfan flamegraph: <stdin>:5000: .*sort' "$d/latepipe.$m.svg.err" ||
			err "late disorder on a pipe: $(cat "$d/latepipe.$m.svg.err")"
		q frames "late disorder on a pipe, minwidth $m: the first 4999 lines" \
			"$d/late4999.folded" "$d/latepipe.$m.svg" "${a[@]}"
		drawrc 1 "$d/latefile.$m.out" "${a[@]}" - <"$d/late.folded"
		grep -q '<stdin>:5000: ' "$d/latefile.$m.out.err" ||
			err "late disorder on stdin (file): $(cat "$d/latefile.$m.out.err")"
		# a regular file is read again whole: late, reversed, permuted
		draw "$d/late.$m.svg" "${a[@]}" "$d/late.folded"
		same "$d/big.$m.svg" "$d/late.$m.svg" "minwidth $m: sorted vs late.folded"
		[ $m = default ] || continue
		draw "$d/two2.$m.svg" "${a[@]}" "$tmp/empty.folded" "$big"
		same "$d/big.$m.svg" "$d/two2.$m.svg" "minwidth $m: pruned vs empty file first"
		for u in rev perm; do
			draw "$d/$u.$m.svg" "${a[@]}" "$d/$u.folded"
			same "$d/big.$m.svg" "$d/$u.$m.svg" "minwidth $m: sorted vs $u.folded"
		done
		draw "$d/stdin.$m.svg" "${a[@]}" - < <(cat "$big")
		same "$d/big.$m.svg" "$d/stdin.$m.svg" "minwidth $m: sorted file vs sorted pipe"
		# reversed on a pipe: out of order from line 2, before any merge,
		# so it is read whole
		draw "$d/revpipe.$m.svg" "${a[@]}" - < <(cat "$d/rev.folded")
		same "$d/big.$m.svg" "$d/revpipe.$m.svg" "minwidth $m: sorted vs tac | perfan flamegraph -"
		draw "$d/permpipe.$m.svg" "${a[@]}" - < <(cat "$d/perm.folded")
		same "$d/big.$m.svg" "$d/permpipe.$m.svg" "minwidth $m: sorted vs permuted on a pipe"
	done
	"$PERFAN_BIN" flamegraph --minwidth 5 -o "$d/late-o.svg" - \
		< <(cat "$d/late.folded") 2>"$d/late-o.err" && err "-o, late disorder: exit 0"
	[ -e "$d/late-o.svg" ] && err "-o, late disorder: a file is left"
	q frames "5000 sorted lines, pruned, --minwidth 5" "$big" "$d/big.5.svg" --minwidth 5
	draw "$d/big.pct.svg" --minwidth 1% "$big"
	q frames "5000 sorted lines, pruned, --minwidth 1%" "$big" "$d/big.pct.svg" --minwidth 1%
	draw "$d/big.inv.svg" --inverted --minwidth 5 "$big"
	q frames "5000 sorted lines, pruned, --inverted" "$big" "$d/big.inv.svg" --minwidth 5
	draw "$d/big.rev.svg" --reverse --minwidth 5 "$big"
	q frames "5000 sorted lines, --reverse (not pruned)" "$big" "$d/big.rev.svg" --reverse --minwidth 5
	draw "$d/late.rev.svg" --reverse --minwidth 5 - < <(cat "$d/late.folded")
	q frames "late disorder on a pipe, --reverse (not pruned)" "$d/late.folded" "$d/late.rev.svg" --reverse --minwidth 5
	end "pruned reading of 5000 sorted lines = two inputs = reversed/permuted/late-disordered files = pipes (byte for byte) = the model; late disorder on stdin: exit 1 at <stdin>:5000, the lines before drawn"
fi

# ---- 3. recordings and perf script text vs perfan collapse ---------------

begin recordings
for c in fp dwarf pipe zstd sched multi-thread-fork py312-perf; do
	mapfile -t R < <(rec $c)
	col "$d/$c.folded" "${R[@]}" "$TD/$c/perf.data"
	draw "$d/$c.svg" "${R[@]}" "$TD/$c/perf.data"
	q frames "$c/perf.data vs its collapse" "$d/$c.folded" "$d/$c.svg"
	[ "$(allw "$d/$c.svg")" -gt 0 ] 2>/dev/null || err "$c: no samples drawn"
done
quiet "$d/fp.svg"
quiet "$d/dwarf.svg"
q grey "fp: the process frame is grey" "$d/fp.svg" 1
mapfile -t R < <(rec fp)
col "$d/fp.samples.folded" --samples "${R[@]}" "$TD/fp/perf.data"
draw "$d/fp.samples.svg" --samples "${R[@]}" "$TD/fp/perf.data"
q frames "fp --samples" "$d/fp.samples.folded" "$d/fp.samples.svg"
[ "$(allw "$d/fp.samples.svg")" = 515 ] || err "fp --samples: all is $(allw "$d/fp.samples.svg"), not 515"
draw "$d/fp.rev.svg" --reverse "${R[@]}" "$TD/fp/perf.data"
q frames "fp --reverse" "$d/fp.folded" "$d/fp.rev.svg" --reverse
draw "$d/fp.pct.svg" --minwidth 2% "${R[@]}" "$TD/fp/perf.data"
q frames "fp --minwidth 2%" "$d/fp.folded" "$d/fp.pct.svg" --minwidth 2%
draw "$d/fp.time.svg" --samples --time 486.913945,486.914945 "${R[@]}" "$TD/fp/perf.data"
[ "$(allw "$d/fp.time.svg")" = 2 ] || err "fp --time: all is $(allw "$d/fp.time.svg"), not 2 samples"
for c in fp dwarf; do # flame charts: the graph's weights, in time order
	mapfile -t R < <(rec $c)
	draw "$d/$c.g0.svg" --minwidth 0 "${R[@]}" "$TD/$c/perf.data"
	draw "$d/$c.chart.svg" --flamechart --minwidth 0 "${R[@]}" "$TD/$c/perf.data"
	q chartsums "$c --flamechart vs the flame graph" "$d/$c.g0.svg" "$d/$c.chart.svg"
done
mapfile -t R < <(rec dwarf)
col "$d/dwarf.inline.folded" --inline "${R[@]}" "$TD/dwarf/perf.data"
draw "$d/dwarf.inline.svg" --inline "${R[@]}" "$TD/dwarf/perf.data"
q frames "dwarf --inline" "$d/dwarf.inline.folded" "$d/dwarf.inline.svg"
mapfile -t R < <(rec two-events)
col "$d/te.folded" --event task-clock "${R[@]}" "$TD/two-events/perf.data"
draw "$d/te.svg" --event task-clock "${R[@]}" "$TD/two-events/perf.data"
q frames "two-events --event task-clock" "$d/te.folded" "$d/te.svg"
draw "$d/te1.svg" "${R[@]}" "$TD/two-events/perf.data"
grep -q 'warning: .*2 events.*cpu-clock' "$d/te1.svg.err" ||
	err "two-events: no warning naming the event drawn: $(cat "$d/te1.svg.err")"
# filters: the collapse lines of that thread, process or command
mt=$TD/multi-thread-fork/perf.data
mapfile -t R < <(rec multi-thread-fork)
col "$d/mt.tid.folded" --tid "${R[@]}" "$mt"
col "$d/mt.pid.folded" --pid "${R[@]}" "$mt"
tid=$(sed -n 's|^worker-[0-9]*/\([0-9]*\);.*|\1|p' "$d/mt.tid.folded" | head -1)
pid=$(sed -n 's|^mt-child-\([0-9]*\);.*|\1|p' "$d/mt.pid.folded" | head -1)
if [ -z "$tid" ] || [ -z "$pid" ]; then
	err "multi-thread-fork: no worker thread or mt-child process in collapse --tid/--pid"
else
	grep '^worker;' "$d/multi-thread-fork.folded" >"$d/mt.comm.want" || true
	sed -n "s|^\([^;]*\)-[0-9]*/$tid;|\1;|p" "$d/mt.tid.folded" >"$d/mt.tid.want"
	sed -n "s|^\([^;]*\)-$pid;|\1;|p" "$d/mt.pid.folded" >"$d/mt.pid.want"
	for x in comm:worker tid:$tid pid:$pid; do
		k=${x%%:*} v=${x#*:}
		[ -s "$d/mt.$k.want" ] || err "--$k $v: no collapse lines to compare"
		draw "$d/mt.$k.svg" "--$k" "$v" "${R[@]}" "$mt"
		q frames "multi-thread-fork --$k $v vs its collapse lines" "$d/mt.$k.want" "$d/mt.$k.svg"
	done
fi
mapfile -t R < <(rec sched)
for cpu in 0 1; do
	draw "$d/sched.cpu$cpu.svg" --samples --cpu $cpu "${R[@]}" "$TD/sched/perf.data"
	want=$(awk -v c="$(printf '[%03d]' $cpu)" '$3 == c' "$TD/sched/script.txt" | grep -c . || true)
	[ "$(allw "$d/sched.cpu$cpu.svg")" = "$want" ] ||
		err "sched --cpu $cpu: all is $(allw "$d/sched.cpu$cpu.svg"), perf script has $want samples"
done
# perf script text: the frames of its collapse
for c in fp dwarf sched multi-thread-fork; do
	col "$d/$c.script.folded" "$TD/$c/script.txt"
	draw "$d/$c.script.svg" "$TD/$c/script.txt"
	q frames "$c/script.txt vs its collapse" "$d/$c.script.folded" "$d/$c.script.svg"
done
quiet "$d/fp.script.svg"
draw "$d/fp.script.chart.svg" --flamechart --minwidth 0 "$TD/fp/script.txt"
draw "$d/fp.script.g0.svg" --minwidth 0 "$TD/fp/script.txt"
q chartsums "fp/script.txt --flamechart vs the flame graph" "$d/fp.script.g0.svg" "$d/fp.script.chart.svg"
# standard input: a file, a pipe of text, a pipe of a pipe-mode recording,
# a pipe of a file-mode one (kept in a temporary file as it is read)
mapfile -t R < <(rec fp)
draw "$d/fp.stdin.svg" "${R[@]}" - <"$TD/fp/perf.data"
same "$d/fp.svg" "$d/fp.stdin.svg" "fp/perf.data on standard input"
draw "$d/fp.script.pipe.svg" - < <(cat "$TD/fp/script.txt")
same "$d/fp.script.svg" "$d/fp.script.pipe.svg" "fp/script.txt on a pipe"
mapfile -t R < <(rec pipe)
draw "$d/pipe.pipe.svg" "${R[@]}" - < <(cat "$TD/pipe/perf.data")
same "$d/pipe.svg" "$d/pipe.pipe.svg" "pipe/perf.data on a pipe"
mapfile -t R < <(rec fp)
draw "$d/fp.pipe.svg" "${R[@]}" - < <(cat "$TD/fp/perf.data")
same "$d/fp.svg" "$d/fp.pipe.svg" "file-mode fp/perf.data on a pipe"
end "testdata recordings (fp dwarf pipe zstd sched multi-thread-fork py312-perf) and perf script text draw what perfan collapse of them folds; --samples --reverse --inline --event --comm --tid --pid --cpu --time; flame charts keep the weights; stdin"

# ---- 4. the same bytes for the same input --------------------------------

begin same
mapfile -t R < <(rec fp)
for i in 1 2; do
	draw "$d/fp.$i.svg" "${R[@]}" "$TD/fp/perf.data"
	draw "$d/fpchart.$i.svg" --flamechart "${R[@]}" "$TD/fp/perf.data"
	draw "$d/own.$i.svg" "$tmp/own.folded"
	draw "$d/ownhash.$i.svg" --hash --colors java --inverted "$tmp/own.folded"
done
same "$d/fp.1.svg" "$d/fp.2.svg" "fp/perf.data twice"
same "$d/fpchart.1.svg" "$d/fpchart.2.svg" "fp/perf.data --flamechart twice"
same "$d/own.1.svg" "$d/own.2.svg" "own.folded twice"
same "$d/ownhash.1.svg" "$d/ownhash.2.svg" "own.folded --hash --colors java twice"
"$PERFAN_BIN" flamegraph -o "$d/fp.o.svg" "${R[@]}" "$TD/fp/perf.data" >"$d/o.stdout" 2>&1 ||
	err "-o: exit $?"
[ -s "$d/o.stdout" ] && err "-o: output on stdout too"
same "$d/fp.1.svg" "$d/fp.o.svg" "-o vs standard output (perf.data)"
"$PERFAN_BIN" flamegraph --output "$d/own.o.svg" "$tmp/own.folded" 2>"$d/own.o.err" || err "--output: exit $?"
same "$d/own.1.svg" "$d/own.o.svg" "--output vs standard output (folded)"
echo old >"$d/replaced.svg"
"$PERFAN_BIN" flamegraph -o "$d/replaced.svg" "$tmp/own.folded" 2>"$d/replaced.err" || err "-o over a file: exit $?"
same "$d/own.1.svg" "$d/replaced.svg" "-o over an existing file"
# a failure leaves no file, nor a temporary one
mkdir "$d/odir"
printf 'a;b 1\nnot folded\n' >"$d/bad.folded"
"$PERFAN_BIN" flamegraph -o "$d/odir/x.svg" "$d/bad.folded" 2>"$d/odir.err" && err "-o, bad input: exit 0"
[ -z "$(ls -A "$d/odir")" ] || err "-o, bad input: left $(ls -A "$d/odir")"
"$PERFAN_BIN" flamegraph -o "$d/nodir/x.svg" "$tmp/own.folded" 2>"$d/nodir.err" && err "-o into no directory: exit 0"
grep -q 'nodir/x.svg' "$d/nodir.err" || err "-o into no directory: $(cat "$d/nodir.err")"
end "byte-identical output for the same input and options (perf.data, flame chart, folded, --hash); -o/--output = stdout; no file left on failure"

# ---- 5. options ----------------------------------------------------------

begin options
f=$tmp/own.folded
T='T <&>"'"'"' ]]> x'
draw "$d/texts.svg" --title "$T" --subtitle 'S <&> "s"' --countname 'ms <&>"' \
	--nametype 'Fn <&>: ]]>' --notes 'N -- <&> "n"' "$f"
q texts "title, subtitle, notes, countname, nametype read back" "$d/texts.svg" \
	"$T" 'S <&> "s"' 'N -- <&> "n"' 'ms <&>"' 'Fn <&>: ]]>'
grep -q 'T &lt;&amp;&gt;' "$d/texts.svg" || err "--title: not XML-escaped"
draw "$d/default.svg" "$f"
q texts "defaults" "$d/default.svg" 'Flame Graph' '' '' samples 'Function:'
draw "$d/geom.svg" "$f"
q geom "default geometry" "$d/geom.svg" 16 0 'Flame Graph'
draw "$d/inv.svg" --inverted "$f"
q geom "--inverted" "$d/inv.svg" 16 1 'Icicle Graph'
draw "$d/chart.svg" --flamechart "$f"
q geom "--flamechart" "$d/chart.svg" 16 0 'Flame Chart'
draw "$d/h20.svg" --height 20 "$f"
q geom "--height 20" "$d/h20.svg" 20 0 'Flame Graph'
grep -q '<rect [^>]*height="19"' "$d/h20.svg" || err "--height 20: no rect 19 high"
draw "$d/invt.svg" --inverted --title mine "$f"
q geom "--inverted --title mine" "$d/invt.svg" 16 1 mine
q not "the model's width differs" frames "$f" "$d/geom.svg" --width 900
q not "--height 20 vs 16" geom "$d/h20.svg" 16 0 'Flame Graph'
q not "--inverted vs not" geom "$d/inv.svg" 16 0 'Icicle Graph'
draw "$d/w900.svg" --width 900 "$f"
grep -q '^<svg [^>]*width="900"' "$d/w900.svg" || err "--width 900: no width=\"900\""
q frames "--width 900" "$f" "$d/w900.svg" --width 900
draw "$d/font.svg" --fontsize 20 --fonttype 'Courier New' "$f"
sed -n '/<style/,/<\/style>/p' "$d/font.svg" >"$d/font.style"
grep -q 'font-family: Courier New' "$d/font.style" || err "--fonttype: not in the style"
grep -q 'font-size: 20px' "$d/font.style" || err "--fontsize: not in the style"
grep -q 'Verdana' "$d/font.style" && err "--fonttype: the default font is still there"
# palettes: each accepted, each its own fills (wakeup is aqua, as in
# flamegraph.pl), hues by kind, a legend for the default only
declare -A sig=()
for p in hot mem io wakeup java js perl python red green blue aqua yellow purple orange kind; do
	draw "$d/pal.$p.svg" --colors $p "$f"
	s=$(fills "$d/pal.$p.svg")
	[ -n "$s" ] || err "--colors $p: no fills"
	for o in "${!sig[@]}"; do
		if [ "${sig[$o]}" = "$s" ] && [ "$o/$p" != aqua/wakeup ] && [ "$o/$p" != wakeup/aqua ]; then
			err "--colors $p: the same fills as --colors $o"
		fi
	done
	sig[$p]=$s
	if [ $p = kind ]; then
		grep -q '<g id="legend">' "$d/pal.$p.svg" || err "--colors kind: no legend"
	else
		grep -q '<g id="legend">' "$d/pal.$p.svg" && err "--colors $p: a legend"
	fi
done
[ "${sig[wakeup]}" = "${sig[aqua]}" ] || err "--colors wakeup: not aqua's fills"
same "$d/default.svg" "$d/pal.kind.svg" "--colors kind vs the default"
q hues "--colors kind: hues by kind" "$f" "$d/pal.kind.svg" kind
for p in java js perl python; do
	q hues "--colors $p: hues by kind" "$f" "$d/pal.$p.svg" lang
done
for p in kind hot; do
	draw "$d/hash.$p.svg" --hash --colors $p "$f"
	draw "$d/hash2.$p.svg" --hash --colors $p "$f"
	same "$d/hash.$p.svg" "$d/hash2.$p.svg" "--hash --colors $p twice"
	[ "$(fills "$d/hash.$p.svg")" != "${sig[$p]}" ] || err "--hash --colors $p: the fills without --hash"
done
# backgrounds: named gradients, a flat colour; the palettes' defaults
bg() { # bg SVG CONDITION WHAT: CONDITION on r g b of the gradient's end
	local c r g b
	c=$(gradient "$1" | cut -d' ' -f2)
	c=${c:-#000000}
	# shellcheck disable=SC2034 # r g b are read by (($2))
	r=$((16#${c:1:2})) g=$((16#${c:3:2})) b=$((16#${c:5:2}))
	(($2)) || err "$3: background $(gradient "$1")"
}
bg "$d/default.svg" 'r == g && g > b' "default background (yellow)"
for x in "blue:b > r && b > g" "green:g > r && g > b" "grey:r == g && g == b" "yellow:r == g && g > b"; do
	draw "$d/bg.${x%%:*}.svg" --bgcolors "${x%%:*}" "$f"
	bg "$d/bg.${x%%:*}.svg" "${x#*:}" "--bgcolors ${x%%:*}"
done
draw "$d/bg.hex.svg" --bgcolors '#112233' "$f"
[ "$(gradient "$d/bg.hex.svg")" = '#112233 #112233' ] || err "--bgcolors #112233: $(gradient "$d/bg.hex.svg")"
for p in mem io wakeup; do bg "$d/pal.$p.svg" 'b > r && b > g' "--colors $p: background not blue"; done
draw "$d/bg.memy.svg" --colors mem --bgcolors yellow "$f"
bg "$d/bg.memy.svg" 'r == g && g > b' "--colors mem --bgcolors yellow"
# bad values: exit 2, a message naming the option, nothing on stdout
for bad in "--colors nope" "--width -1" "--width 0" "--width x" "--height 0" \
	"--fontsize x" "--minwidth x" "--minwidth -1" "--minwidth 101%" \
	"--bgcolors pink" "--bgcolors #12345g" "--time 5" "--pid x" "--no-such-option"; do
	rc=0
	# shellcheck disable=SC2086
	"$PERFAN_BIN" flamegraph $bad "$f" >"$d/bad.out" 2>"$d/bad.err" || rc=$?
	[ "$rc" = 2 ] || err "perfan flamegraph $bad: exit $rc, not 2"
	grep -q -- "${bad%% *}" "$d/bad.err" || err "perfan flamegraph $bad: the message does not name ${bad%% *}: $(cat "$d/bad.err")"
	[ -s "$d/bad.out" ] && err "perfan flamegraph $bad: output on stdout"
done
"$PERFAN_BIN" flamegraph --help >"$d/help.out" || err "--help: exit $?"
grep -q '^usage: perfan flamegraph' "$d/help.out" || err "--help: no usage"
end "options: texts XML-escaped and read back, title defaults, --inverted/--flamechart/--height/--width geometry, fonts, 16 palettes (distinct fills, hues by kind), --hash, --bgcolors, bad values exit 2"

# ---- 6. differential graphs ----------------------------------------------

begin diff
printf '%s\n' 'a;b 10 20' 'a;c 20 10' 'a;d 5 5' >"$d/diff.folded"
sed 's/ [0-9]* \([0-9]*\)$/ \1/' "$d/diff.folded" >"$d/diff.after"
draw "$d/diff.svg" "$d/diff.folded"
# the after shape (a differential graph opens on both sides' union)
draw "$d/diff.asvg" --view after "$d/diff.folded"
draw "$d/neg.svg" --negate "$d/diff.folded"
fill_of() { # fill_of SVG NAME: the #rrggbb of frame NAME
	sed -n "s/^<g data-o.*<title>$2<\/title><rect [^>]* fill=\"#\([0-9a-f]*\)\".*/\1/p" "$1"
}
hue() { # hue RRGGBB: red, blue or neutral
	local r=$((16#${1:0:2})) b=$((16#${1:4:2}))
	if [ $r -gt $b ]; then echo red; elif [ $b -gt $r ]; then echo blue; else echo neutral; fi
}
got=$(for x in b c d; do hue "$(fill_of "$d/diff.svg" $x)"; done | tr '\n' ' ')
[ "$got" = "red blue neutral " ] || err "b grew, c shrank, d did not: $got"
got=$(for x in b c d; do hue "$(fill_of "$d/neg.svg" $x)"; done | tr '\n' ' ')
[ "$got" = "blue red neutral " ] || err "--negate: $got"
q frames "differential: widths from the second count" "$d/diff.after" "$d/diff.asvg"
q diff "differential model" "$d/diff.folded" "$d/diff.svg" 0
q diff "differential model, --negate" "$d/diff.folded" "$d/neg.svg" 1
for w in grew shrank; do
	sed -n '/<g id="legend">/,/<\/g>/p' "$d/diff.svg" | grep -q ">$w<" || err "differential: no \"$w\" in the legend"
done
bg "$d/diff.svg" 'r == g && g == b' "differential: background not grey"
drawrc 1 "$d/diffchart.out" --flamechart "$d/diff.folded"
grep -q 'differential' "$d/diffchart.out.err" || err "differential --flamechart: $(cat "$d/diffchart.out.err")"
if [ -n "$PEER" ] && [ -d "$PEER/diff-folded" ]; then
	for x in funcab cycles-numa java-vertx; do
		e=$PEER/diff-folded/$x.expected.txt
		draw "$d/$x.svg" --minwidth 0 "$e"
		draw "$d/$x.neg.svg" --minwidth 0 --negate "$e"
		q diff "$x (difffolded.pl's)" "$e" "$d/$x.svg" 0
		q diff "$x --negate" "$e" "$d/$x.neg.svg" 1
	done
	q not "diff model, --negate not told" diff "$PEER/diff-folded/java-vertx.expected.txt" "$d/java-vertx.neg.svg" 0
	q not "diff model, another file" diff "$PEER/diff-folded/cycles-numa.expected.txt" "$d/java-vertx.svg" 0
	end "differential graphs: widths from the second count, self counts, red grew / blue shrank / white, --negate, legend, grey background; peer difffolded.pl files"
else
	echo "SKIP: no peer data: difffolded.pl files not drawn"
	end "differential graphs: widths from the second count, self counts, red grew / blue shrank / white, --negate, legend, grey background"
fi

# ---- 7. several inputs merge ---------------------------------------------

begin merge
fa=$tmp/own.folded fb=$tmp/own2.folded
cat "$fa" "$fb" >"$d/ab.folded"
draw "$d/ab.svg" "$fa" "$fb"
q frames "own + own2" "$d/ab.folded" "$d/ab.svg"
draw "$d/ab.stdin.svg" "$fa" - <"$fb"
same "$d/ab.svg" "$d/ab.stdin.svg" "a file and standard input"
draw "$d/ab.chart.svg" --flamechart "$fa" "$fb"
q frames "own + own2 --flamechart: in input order" "$d/ab.folded" "$d/ab.chart.svg" --flamechart
cat "$fa" "$fa" >"$d/aa.folded"
draw "$d/aa.svg" "$fa" "$fa"
q frames "a file twice: twice the weights" "$d/aa.folded" "$d/aa.svg"
mapfile -t R < <(rec fp)
col "$d/fp.folded" "${R[@]}" "$TD/fp/perf.data"
cat "$d/fp.folded" "$d/fp.folded" >"$d/fpfp.folded"
draw "$d/fpfp.svg" "${R[@]}" "$TD/fp/perf.data" "$TD/fp/perf.data"
q frames "a perf.data twice" "$d/fpfp.folded" "$d/fpfp.svg"
# shellcheck disable=SC2094 # both read
draw "$d/fpfp.stdin.svg" "${R[@]}" "$TD/fp/perf.data" - <"$TD/fp/perf.data"
same "$d/fpfp.svg" "$d/fpfp.stdin.svg" "a perf.data, and again on standard input"
col "$d/fps.folded" "$TD/fp/script.txt"
col "$d/dws.folded" "$TD/dwarf/script.txt"
cat "$d/fps.folded" "$d/dws.folded" >"$d/fpdw.folded"
draw "$d/fpdw.svg" "$TD/fp/script.txt" "$TD/dwarf/script.txt"
q frames "two perf script texts" "$d/fpdw.folded" "$d/fpdw.svg"
# folded stacks count "samples", a recording its event: two events, the
# first drawn, a warning naming it; --event samples names no event of the
# perf.data: an error naming its events, as in every command (issue 33;
# it drew the folded file alone before)
draw "$d/fpb.svg" "${R[@]}" "$TD/fp/perf.data" "$fb"
q frames "a perf.data and a folded file: the perf.data's event" "$d/fp.folded" "$d/fpb.svg"
grep -q 'warning: .*2 events.*cpu-clock' "$d/fpb.svg.err" || err "perf.data + folded: no warning naming the event: $(cat "$d/fpb.svg.err")"
drawrc 1 "$d/fpb.samples.svg" --event samples "${R[@]}" "$TD/fp/perf.data" "$fb"
grep -q 'has no event samples; its events: cpu-clock' "$d/fpb.samples.svg.err" ||
	err "perf.data + folded, --event samples: no error naming the events: $(cat "$d/fpb.samples.svg.err")"
if [ -n "$PEER" ] && [ -d "$PEER/perf-script/results-laststack" ]; then
	A=$PEER/perf-script/results-laststack/perf-java-stacks-01-collapsed-all.txt
	B=$PEER/perf-script/results-laststack/perf-vertx-stacks-01-collapsed-all.txt
	cat "$A" "$B" >"$d/peer.folded"
	draw "$d/peer.svg" "$A" "$B"
	q frames "java-stacks-01 + vertx-stacks-01" "$d/peer.folded" "$d/peer.svg"
fi
end "several inputs merge as their concatenation (folded files, stdin, a file twice, perf.data twice, two perf script texts, flame chart in input order); perf.data + folded: one event drawn, warned, --event picks"

# ---- 8. bad input --------------------------------------------------------

begin bad
drawrc 1 "$d/missing.out" "$d/no-such-file.folded"
grep -q '^perfan flamegraph: .*no-such-file.folded' "$d/missing.out.err" ||
	err "missing file: $(cat "$d/missing.out.err")"
python3 -c 'import sys; sys.stdout.buffer.write(bytes((i * 73 + 17) % 256 for i in range(4096)))' >"$d/garbage.bin"
drawrc 1 "$d/garbage.out" "$d/garbage.bin"
grep -q '^perfan flamegraph: .*garbage.bin' "$d/garbage.out.err" ||
	err "garbage: $(cat "$d/garbage.out.err")"
[ -s "$d/garbage.out" ] && err "garbage: output on stdout"
printf '%s\n' 'a;b 2' 'a;c 3' 'not a folded line' 'a;d 4' >"$d/badline.folded"
head -2 "$d/badline.folded" >"$d/badline2.folded"
drawrc 1 "$d/badline.svg" "$d/badline.folded"
grep -q 'badline.folded:3:' "$d/badline.svg.err" || err "bad line: $(cat "$d/badline.svg.err")"
q frames "bad line: the lines before it are drawn" "$d/badline2.folded" "$d/badline.svg"
drawrc 1 "$d/badpipe.svg" - < <(cat "$d/badline.folded")
grep -q '<stdin>:3:' "$d/badpipe.svg.err" || err "bad line on a pipe: $(cat "$d/badpipe.svg.err")"
printf 'a;b 99999999999999999999999\n' >"$d/huge.folded"
drawrc 1 "$d/huge.out" "$d/huge.folded"
grep -q 'huge.folded:1:' "$d/huge.out.err" || err "count too large: $(cat "$d/huge.out.err")"
for e in "$tmp/empty.folded" /dev/null; do
	n=$(basename "$e")
	draw "$d/$n.svg" "$e"
	grep -q 'warning: no samples' "$d/$n.svg.err" || err "$e: no \"no samples\" warning"
	q frames "$e: just all" "$tmp/empty.folded" "$d/$n.svg"
done
draw "$d/emptypipe.svg" - </dev/null
q frames "empty standard input: just all" "$tmp/empty.folded" "$d/emptypipe.svg"
head -c 3000 "$TD/fp/perf.data" >"$d/cut.data"
mapfile -t R < <(rec fp)
drawrc 1 "$d/cut.svg" "${R[@]}" "$d/cut.data"
"$PERFAN_BIN" flamegraph -o "$d/cut-o.svg" "${R[@]}" "$d/cut.data" 2>"$d/cut-o.err" && err "cut perf.data, -o: exit 0"
[ -e "$d/cut-o.svg" ] && err "cut perf.data, -o: a file is left"
if [ -n "$PEER" ] && [ -d "$PEER/fuzz" ]; then
	n=0 silent=0
	for z in "$PEER"/fuzz/*; do
		n=$((n + 1))
		rc=0
		timeout -k 2 10 "$PERFAN_BIN" flamegraph "$z" >"$d/fuzz$n.svg" 2>"$d/fuzz$n.err" || rc=$?
		case $rc in
		0 | 1 | 2) ;;
		124 | 137) err "fuzz/$(basename "$z"): still running after 10 s" ;;
		*) err "fuzz/$(basename "$z"): exit $rc: $(tail -c 300 "$d/fuzz$n.err")" ;;
		esac
		[ -s "$d/fuzz$n.svg" ] || mv "$d/fuzz$n.svg" "$d/fuzz$n.out"
		[ "$rc" != 0 ] && ! grep -qv 'warning:' "$d/fuzz$n.err" && silent=$((silent + 1))
	done
	[ "$n" -ge 20 ] || err "only $n fuzz inputs"
	z=$PEER/perf.data/perf.data.piped.corrupted.zero_size_sample-3.2
	if [ -f "$z" ]; then
		rc=0
		timeout -k 2 10 "$PERFAN_BIN" flamegraph "$z" >"$d/zero.svg" 2>"$d/zero.err" || rc=$?
		[ "$rc" = 1 ] || err "corrupted.zero_size_sample: exit $rc, not 1"
	fi
	end "bad input: missing file, garbage, a bad folded line (file:line, the lines before drawn), a count too large, empty input (just all, warned), a cut perf.data (-o leaves nothing); $n fuzz inputs: no crash, no hang, any output valid XML"
else
	echo "SKIP: no peer data: fuzz inputs not run"
	end "bad input: missing file, garbage, a bad folded line (file:line, the lines before drawn), a count too large, empty input (just all, warned), a cut perf.data (-o leaves nothing)"
fi

# ---- issue 35: the graphs' rules (event, kernel frames, roots, height,
# titles), on testdata/server (six events, threads, Python) and
# testdata/offcpu, against perf script's own output

begin rules
srv=(--symfs "$TD/server/symfs" --kallsyms "$TD/server/kallsyms"
	--perf-map-dir "$TD/server" --buildid-dir "$tmp/nocache")
# the default event of a recording of several is the CPU clock, not the
# tracepoint whose sample came first: as many samples as perf script
# prints of cpu-clock
want=$(zstd -dc "$TD/server/script.txt.zst" | grep -c ' cpu-clock/freq=499/:')
"$PERFAN_BIN" collapse --samples "${srv[@]}" "$TD/server/server.data" \
	>"$d/srv.folded" 2>"$d/srv.folded.err" ||
	err "collapse server.data: $(head -c 400 "$d/srv.folded.err")"
got=$(awk '{s += $NF} END {print s + 0}' "$d/srv.folded")
[ "$got" = "$want" ] && [ "$want" -gt 500 ] ||
	err "collapse server.data: $got samples by default, perf script has $want of cpu-clock"
grep -q 'these are of cpu-clock' "$d/srv.folded.err" ||
	err "collapse server.data: the warning does not name cpu-clock: $(head -c 300 "$d/srv.folded.err")"
draw "$d/srv.svg" --samples "${srv[@]}" "$TD/server/server.data"
[ "$(allw "$d/srv.svg")" = "$want" ] ||
	err "flamegraph server.data: all = $(allw "$d/srv.svg"), perf script has $want cpu-clock samples"
# roots OUT SVG: the names of the frames at depth 1 (the roots), a line each
roots() {
	sed -n 's/^<g data-o="[0-9]*" data-w="[0-9]*" data-d="1"[^>]*><title>\([^<]*\)<\/title>.*/\1/p' "$1"
}
# titleof SVG: the title's text
titleof() {
	sed -n 's/^<text id="title"[^>]*>\([^<]*\)<\/text>$/\1/p' "$1"
}
# one rule for roots: merged by default (a root per command: perf script
# names one, python3.12), --per-thread a root per thread (perf script's
# tids of cpu-clock samples), each named as the thread tables name it:
# the engine thread of truth.txt runs server.py's engine_loop
zstd -dc "$TD/server/script.txt.zst" | grep ' cpu-clock/freq=499/:' >"$d/srv.cpu.txt"
ncomm=$(awk '{print $1}' "$d/srv.cpu.txt" | sort -u | wc -l)
ntid=$(awk '{print $2}' "$d/srv.cpu.txt" | sort -u | wc -l)
engine=$(awk '$1 == "engine" {print $2}' "$TD/server/truth.txt")
[ "$(roots "$d/srv.svg" | wc -l)" = "$ncomm" ] ||
	err "flamegraph server.data: $(roots "$d/srv.svg" | wc -l) roots, perf script has $ncomm comms"
draw "$d/srv-pt.svg" --per-thread "${srv[@]}" "$TD/server/server.data"
[ "$(roots "$d/srv-pt.svg" | wc -l)" = "$ntid" ] && [ "$ntid" -gt 100 ] ||
	err "flamegraph --per-thread server.data: $(roots "$d/srv-pt.svg" | wc -l) roots, perf script has $ntid threads"
grep -qx "engine_loop [0-9]*/$engine" <<<"$(roots "$d/srv-pt.svg")" ||
	err "flamegraph --per-thread: no root 'engine_loop PID/$engine': $(roots "$d/srv-pt.svg" | head -3 | tr '\n' ' ')"
# titles name the mode, the event, the roots and the filters
[ "$(titleof "$d/srv.svg")" = "On-CPU: cpu-clock/freq=499/, threads merged" ] ||
	err "flamegraph server.data: title '$(titleof "$d/srv.svg")'"
[ "$(titleof "$d/srv-pt.svg")" = "On-CPU: cpu-clock/freq=499/, a root per thread" ] ||
	err "flamegraph --per-thread: title '$(titleof "$d/srv-pt.svg")'"
# the process and a second of its run, from truth.txt's header
pid=$(sed -n 's/^# server.py truth: pid \([0-9]*\),.*/\1/p' "$TD/server/truth.txt")
t0=$(sed -n 's/^# wall_ns .*(CLOCK_MONOTONIC \([0-9]*\) .*/\1/p' "$TD/server/truth.txt")
win=$(awk -v t="$t0" 'BEGIN {printf "%.3f-%.3f", int(t / 1e6) / 1e3 + 0.5, int(t / 1e6) / 1e3 + 1.5}')
draw "$d/srv-off.svg" --off-cpu --pid "$pid" --time "${win/-/,}" "${srv[@]}" "$TD/server/server.data"
[ "$(titleof "$d/srv-off.svg")" = "Off-CPU time (ns), threads merged, --pid $pid, $win s" ] ||
	err "flamegraph --off-cpu --pid --time: title '$(titleof "$d/srv-off.svg")'"
draw "$d/srv-inv.svg" --inverted --wall --tid "$engine" "${srv[@]}" "$TD/server/server.data"
[ "$(titleof "$d/srv-inv.svg")" = "Wall time (icicle) (ns), threads merged, --tid $engine" ] ||
	err "flamegraph --inverted --wall --tid: title '$(titleof "$d/srv-inv.svg")'"
draw "$d/srv-t.svg" --title mine --off-cpu "${srv[@]}" "$TD/server/server.data"
[ "$(titleof "$d/srv-t.svg")" = mine ] || err "--title mine: title '$(titleof "$d/srv-t.svg")'"
# --fit 12: the depth of the deepest frame 12 px wide; every frame of the
# whole graph up to it, none above, the callers of what was cut outlined
draw "$d/srv-fit.svg" --samples --fit 12 "${srv[@]}" "$TD/server/server.data"
fit=$(python3 - "$d/srv.svg" "$d/srv-fit.svg" <<'PY'
import re, sys
def frames(path):
    svg = open(path).read()
    return (re.findall(r'<g data-o="(\d+)" data-w="(\d+)" data-d="(\d+)"', svg),
            svg.count('class="cut"'))
(full, _), (fit, cut) = frames(sys.argv[1]), frames(sys.argv[2])
total = max(int(w) for _, w, _ in full)
deep = max(int(d) for _, w, d in full if int(w) * 1180 / total >= 12)
want = [f for f in full if int(f[2]) <= deep]
ok = fit == want and deep < max(int(d) for _, _, d in full) and cut > 0
print('ok' if ok else 'depth %d, %d frames of %d, %d cut' % (deep, len(fit), len(want), cut))
PY
)
[ "$fit" = ok ] || err "flamegraph --fit 12: $fit"
# off-CPU stacks: perf script shows the kernel's scheduler frames on
# testdata/offcpu's switch-out stacks; by default they are folded into
# the wait's leaf (no kernel frame directly under it), --kernel-detail
# keeps them, and both weigh the same stacks the same once the kernel
# frames under each leaf are taken away
off=(--kallsyms "$TD/offcpu/kallsyms" --symfs "$TD/offcpu/symfs" --buildid-dir "$tmp/nocache")
nk=$(grep -A1 'sched:sched_switch:' "$TD/offcpu/script.txt" | grep -c ' __schedule+0x[0-9a-f]* (\[kernel.kallsyms\])')
[ "$nk" -gt 10 ] || err "perf script of testdata/offcpu: $nk switch-out stacks start in __schedule"
for view in off-cpu wall; do
	col "$d/off-$view.folded" --"$view" "${off[@]}" "$TD/offcpu/perf.data"
	col "$d/off-$view-k.folded" --"$view" --kernel-detail "${off[@]}" "$TD/offcpu/perf.data"
	n=$(grep -c '_\[k\];\[off-cpu: ' "$d/off-$view.folded" || true)
	[ "$n" = 0 ] || err "collapse --$view: $n stacks with a kernel frame under the off-CPU leaf"
	n=$(grep -c '__schedule_\[k\];\[off-cpu: ' "$d/off-$view-k.folded" || true)
	[ "$n" -gt 10 ] || err "collapse --$view --kernel-detail: $n stacks with __schedule under the leaf"
	fold=$(python3 - "$d/off-$view.folded" "$d/off-$view-k.folded" <<'PY'
import collections, sys
def read(path, strip):
    out = collections.Counter()
    for line in open(path):
        stack, w = line.rstrip('\n').rsplit(' ', 1)
        fr = stack.split(';')
        if strip and fr[-1].startswith('[off-cpu: '):
            k = len(fr) - 1
            while k > 1 and fr[k - 1].endswith('_[k]'):
                k -= 1
            fr = fr[:k] + fr[-1:]
        out[';'.join(fr)] += int(w)
    return out
a, b = read(sys.argv[1], False), read(sys.argv[2], True)
print('same' if a == b and sum(a.values()) > 0 else 'differ: %d %d' % (sum(a.values()), sum(b.values())))
PY
)
	[ "$fold" = same ] || err "collapse --$view: folded stacks and --kernel-detail's without kernel frames under the leaf: $fold"
done
end "rules (issue 35): the default event of several is the CPU clock; roots merged or one per thread (named); titles name mode, event, roots and filters; --fit; off-CPU kernel frames folded into the leaf unless --kernel-detail"

# ---- bugs found by this test: fixed ones stay fixed (xfail: a known one)

begin known
# --countname/--nametype go into the script's JSON strings with their
# bytes: broken UTF-8 there makes the SVG not well-formed XML
utf8_ok() {
	"$PERFAN_BIN" flamegraph --countname $'ms\xff' "$tmp/own.folded" >"$d/u1.out" 2>"$d/u1.err" &&
		isxml "$d/u1.out" &&
		"$PERFAN_BIN" flamegraph --nametype $'Fn\xe2\x82' "$tmp/own.folded" >"$d/u2.out" 2>"$d/u2.err" &&
		isxml "$d/u2.out"
}
must "--countname/--nametype with broken UTF-8 give well-formed XML" utf8_ok
# --width up to 20 (twice the side padding) is taken: rects of negative or
# zero width
narrow_ok() {
	local w rc
	for w in 1 20; do
		rc=0
		"$PERFAN_BIN" flamegraph --width "$w" "$tmp/own2.folded" >"$d/w$w.out" 2>"$d/w$w.err" || rc=$?
		[ "$rc" = 2 ] && continue
		grep -q '<rect [^>]*width="\(-\|0\.0"\)' "$d/w$w.out" && return 1
	done
	return 0
}
must "--width 1 and --width 20 are refused, not drawn with negative or zero widths" narrow_ok
# counts that added up past 2^64 saturated silently ("all" and "a"
# narrower than their children): now an error naming the line
overflow_ok() {
	printf 'a;b 18446744073709551615\na;c 1\n' >"$d/ovf.folded"
	! "$PERFAN_BIN" flamegraph "$d/ovf.folded" >/dev/null 2>"$d/ovf.err" &&
		grep -q 'ovf.folded:2: the counts add up to more than 2^64-1' "$d/ovf.err"
}
must "weights adding up past 2^64 are an error naming the line" overflow_ok
# --minwidth % is taken as 0
pct_ok() { ! "$PERFAN_BIN" flamegraph --minwidth % "$tmp/own2.folded" >/dev/null 2>"$d/pct.err"; }
must "--minwidth % (no number) is refused" pct_ok
# a perf.data damaged in its data section: exit 1 with an error message
# (the reader's PERFAN_ETRUNCATED was once taken for the CLI's "already
# reported"), and what was read before the damage drawn
head -c 40000 "$TD/fp/perf.data" >"$d/cut40k.data"
mapfile -t R < <(rec fp)
cut_message_ok() {
	"$PERFAN_BIN" flamegraph "${R[@]}" "$d/cut40k.data" >"$d/cut40k.out" 2>"$d/cut40k.err"
	grep -qv 'warning:' "$d/cut40k.err"
}
must "a perf.data cut in its data section: an error message, not only warnings" cut_message_ok
cut_partial_ok() {
	"$PERFAN_BIN" flamegraph "${R[@]}" "$d/cut40k.data" >"$d/cut40k.svg" 2>"$d/cut40k.svg.err"
	[ "$(allw "$d/cut40k.svg")" -gt 0 ] 2>/dev/null
}
must "a perf.data cut in its data section: the samples before the damage are drawn" cut_partial_ok
if [ -n "${silent:-}" ]; then
	fuzz_ok() { [ "$silent" = 0 ]; }
	must "$silent of $n fuzz inputs exit 1 without an error message" fuzz_ok
fi
end "fixed bugs stay fixed"

exit "$fail"
