#!/usr/bin/env bash
# tests/cli/triage.sh: `perfan triage`: the page's figures are those of the
# commands that compute them alone. On testdata/offcpu (switches, call
# graphs) with a perf stat output and a before recording: each thread's
# wall, on-CPU and off-CPU time as `perfan report --off-cpu --json`, the
# plateaus as `perfan report --no-children -s dso,sym --json` (the
# cpu-clock event), the blocking sites summed over the threads (by class,
# site and mechanism where the wait has a class), the
# verdict as `perfan classify --json`, the changes as `perfan diff --json`;
# on the slow and fast handler recordings of testdata/slow-service (no
# switches) the same plateaus and changes, and the sections without data
# say what to record. --text gives the same figures, from standard input
# and a FIFO too; bad input fails with a message.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
mkdir "$tmp/nocache"
export PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm PERFAN_HOST_KALLSYMS=
D=testdata/offcpu
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/nocache")
S=testdata/slow-service
P=(--symfs "$S" --kallsyms testdata/kallsyms --buildid-dir "$tmp/nocache" --perf-map-dir "$S")
STAT=testdata/perf-stat-local/busy.txt

checks=$((checks + 1))
"$PERFAN_BIN" triage "${O[@]}" --stat "$STAT" --before "$D/perf.freq.data" \
	-o "$tmp/offcpu.html" "$D/perf.data" 2>"$tmp/offcpu.err" ||
	fail "triage of $D/perf.data: exit $?: $(cat "$tmp/offcpu.err")"
"$PERFAN_BIN" report --off-cpu --json "${O[@]}" "$D/perf.data" >"$tmp/off.json" 2>/dev/null
"$PERFAN_BIN" report --json --no-children -s dso,sym "${O[@]}" "$D/perf.data" >"$tmp/rep.json" 2>/dev/null
"$PERFAN_BIN" classify --json "$STAT" >"$tmp/cls.json"
"$PERFAN_BIN" diff --json "${O[@]}" -b "$D/perf.freq.data" -a "$D/perf.data" >"$tmp/diff.json" 2>/dev/null
"$PERFAN_BIN" triage --text "${O[@]}" --stat "$STAT" "$D/perf.data" \
	--before "$D/perf.freq.data" >"$tmp/offcpu.txt" 2>/dev/null

checks=$((checks + 1))
"$PERFAN_BIN" triage "${P[@]}" --before "$S/slow-1.data" --before "$S/slow-2.data" \
	-o "$tmp/slow.html" "$S/fast-1.data" 2>"$tmp/slow.err" ||
	fail "triage of $S/fast-1.data: exit $?: $(cat "$tmp/slow.err")"
"$PERFAN_BIN" report --json --no-children -s dso,sym "${P[@]}" "$S/fast-1.data" >"$tmp/srep.json" 2>/dev/null
"$PERFAN_BIN" diff --json "${P[@]}" -b "$S/slow-1.data" "$S/slow-2.data" -a "$S/fast-1.data" \
	>"$tmp/sdiff.json" 2>/dev/null

# testdata/threads64: 64 threads, the table's first 10 shown, the others
# folded (HTML) or counted (text)
T=testdata/threads64
"$PERFAN_BIN" triage --kallsyms testdata/kallsyms --symfs "$T" -o "$tmp/t64.html" \
	"$T/perf.data" 2>/dev/null
"$PERFAN_BIN" triage --text --kallsyms testdata/kallsyms --symfs "$T" \
	"$T/perf.data" >"$tmp/t64.txt" 2>/dev/null
"$PERFAN_BIN" report --off-cpu --json --kallsyms testdata/kallsyms --symfs "$T" \
	"$T/perf.data" >"$tmp/t64.json" 2>/dev/null

out=$(python3 - "$tmp" <<'PY'
import html.parser, json, math, re, sys
tmp = sys.argv[1]
fails = []
def fail(m): fails.append(m)

class Page(html.parser.HTMLParser):
    """Each section's tables as rows of cell texts, and its text."""
    def __init__(self):
        super().__init__()
        self.sec = None; self.rows = {}; self.text = {}; self.row = None
        self.cell = None; self.missing = {}; self.in_missing = False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == 'section':
            self.sec = a.get('id'); self.rows[self.sec] = []
            self.text[self.sec] = ''; self.missing[self.sec] = ''
        elif tag == 'tr': self.row = []
        elif tag in ('td', 'th'): self.cell = ''
        elif tag == 'p' and a.get('class') == 'missing': self.in_missing = True
    def handle_endtag(self, tag):
        if tag in ('td', 'th') and self.row is not None:
            self.row.append(self.cell.strip()); self.cell = None
        elif tag == 'tr' and self.sec:
            self.rows[self.sec].append(self.row); self.row = None
        elif tag == 'p': self.in_missing = False
        elif tag == 'section': self.sec = None
    def handle_data(self, d):
        if self.cell is not None: self.cell += d
        if self.sec:
            self.text[self.sec] += d
            if self.in_missing: self.missing[self.sec] += d

def page(name):
    p = Page(); p.feed(open(f'{tmp}/{name}').read()); return p

def near(a, b, tol):
    return abs(a - b) <= tol

def check_plateaus(p, rep, label):
    col = next(c for c in rep['columns'] if c['event'].startswith('cpu-clock'))
    rows = p.rows['plateaus'][1:]
    want = [r for r in col['rows'] if r['self']][:10]
    if len(rows) != len(want):
        fail(f'{label}: {len(rows)} plateaus, report has {len(want)}')
    for got, w in zip(rows, want):
        if got[3] != w['sym']:
            fail(f'{label}: plateau {got[3]}, report {w["sym"]}')
        if not near(float(got[0].rstrip('%')), w['self_percent'], 0.006) or \
           not near(float(got[1].rstrip('%')), w['total_percent'], 0.006):
            fail(f'{label}: {w["sym"]}: {got[0]} {got[1]}, report '
                 f'{w["self_percent"]} {w["total_percent"]}')
        # the bound of a function made free (its total share); with
        # several threads on CPU on the busiest (tests/cli/amdahl.sh checks
        # it against perf script)
        sp = w['max_speedup_total']
        if 'the busiest of' in p.text['plateaus']:
            sp = None
        if sp is not None and not near(float(got[2].rstrip('x')), sp, 0.006):
            fail(f'{label}: {w["sym"]}: max speedup {got[2]}, report {sp}')

def tables(rows):
    """The tables of a section's rows, each without its heading."""
    out = []
    for r in rows:
        if r and r[0] == 'before':
            out.append([])
        elif out:
            out[-1].append(r)
    return out

def check_changes(p, d, label):
    # the largest changes of own time either way, the significant ones
    # when tested, in the diff's order among equals
    rows = tables(p.rows['changes'])[0]
    want = [r for r in d['rows'] if r['self_change'] != 0 and
            (not d['tested'] or r['significant'])]
    want = sorted(want, key=lambda r: -abs(r['self_change']))[:10]
    if len(rows) != len(want):
        fail(f'{label}: {len(rows)} changes, diff has {len(want)}')
    for got, w in zip(rows, want):
        name = got[4].replace(' (new)', '').replace(' (gone)', '').rstrip(' *')
        if name != w['function']:
            fail(f'{label}: change {name}, diff {w["function"]}')
        if not near(float(got[0].rstrip('%')), 100 * w['before_self'], 0.006) or \
           not near(float(got[1].rstrip('%')), 100 * w['after_self'], 0.006):
            fail(f'{label}: {name}: {got[0]} -> {got[1]}, diff '
                 f'{w["before_self"]} -> {w["after_self"]}')

# ---- testdata/offcpu: every section has its data
p = page('offcpu.html')
for s in ('on-cpu', 'plateaus', 'flamegraph', 'blocking', 'verdict', 'changes', 'next'):
    if s not in p.rows:
        fail(f'offcpu: no section {s}')
    elif p.missing[s]:
        fail(f'offcpu: section {s} says data is missing: {p.missing[s]}')
off = json.load(open(f'{tmp}/off.json'))['per_thread']['threads']
rows = p.rows['on-cpu'][1:]
if len(rows) != len(off):
    fail(f'offcpu: {len(rows)} threads, report --off-cpu has {len(off)}')
# the table ranks the threads, the busiest on CPU first (report's order,
# by tid, sorted by its on-CPU time)
by_cpu = sorted(off, key=lambda w: (-w['on_cpu'], w['pid'], w['tid']))
if [int(r[1]) for r in rows] != [w['tid'] for w in by_cpu]:
    fail(f'offcpu: threads in the order {[r[1] for r in rows]}, by on-CPU time '
         f'{[w["tid"] for w in by_cpu]}')
for got, w in zip(rows, by_cpu):
    if got[0] != w['comm'] or int(got[1]) != w['tid']:
        fail(f'offcpu: thread {got[0]}/{got[1]}, report {w["comm"]}/{w["tid"]}')
    for i, k in ((2, 'wall'), (3, 'on_cpu'), (4, 'off_cpu')):
        if not near(float(got[i]), w[k] / 1e6, 0.051):
            fail(f'offcpu: {w["comm"]}: {k} {got[i]} ms, report {w[k]} ns')
# the blocking sites: every thread's, summed by what it waited in and the
# user's function for a site with a class (its mechanism and class, its
# site), by wait and caller for one without
words = {'GIL': 'GIL wait', 'lock': 'lock wait', 'idle': 'idle wait',
         'I/O': 'I/O wait', 'disk': 'disk wait'}
sums = {}
for t in off:
    for s in t['sites']:
        if s.get('class'):
            key = ('%s (%s)' % (s['mechanism'],
                                words.get(s['class'], s['class'])),
                   s['site'] or '(no caller)')
        else:
            key = (s['wait'], s['caller'] or '(no caller)')
        sums[key] = sums.get(key, 0) + s['total']
want = sorted(sums.items(), key=lambda kv: -kv[1])[:10]
rows = p.rows['blocking'][1:]
if [(r[2], r[3]) for r in rows] != [k for k, _ in want]:
    fail(f'offcpu: sites {[(r[2], r[3]) for r in rows]}, want {[k for k, _ in want]}')
for r, (k, v) in zip(rows, want):
    if not near(float(r[0]), v / 1e6, 0.051):
        fail(f'offcpu: site {k}: {r[0]} ms, threads sum to {v} ns')
check_plateaus(p, json.load(open(f'{tmp}/rep.json')), 'offcpu')
cls = json.load(open(f'{tmp}/cls.json'))
groups = [g for g in cls['groups'] if g.get('whole')] if 'groups' in cls else []
vrows = p.rows['verdict'][1:]
if not groups or [r[0] for r in vrows] != [g['verdict'] for g in groups]:
    fail(f'offcpu: verdicts {[r[0] for r in vrows]}, classify '
         f'{[g.get("verdict") for g in groups]}')
check_changes(p, json.load(open(f'{tmp}/diff.json')), 'offcpu')
txt = open(f'{tmp}/offcpu.txt').read()
for r in p.rows['plateaus'][1:]:
    if r[3] not in txt:
        fail(f'offcpu --text: no plateau {r[3]}')
if 'spin' not in p.rows['plateaus'][1][3]:
    fail(f'offcpu: the widest plateau is {p.rows["plateaus"][1][3]}, not spin')

# ---- the first lines, "In short": each from its section's figures
def short(text):
    """The summary's lines by section number, from the text."""
    head = text.split('\n1. On CPU or waiting?')[0]
    if '\nIn short\n' not in head:
        fail('--text: no "In short" before section 1'); return {}
    return {int(m.group(1)): m.group(2) for m in
            re.finditer(r'^  \[(\d)\] (.*)$', head.split('\nIn short\n')[1], re.M)}
s = short(txt)
busy = re.search(r'of thread (\S+) (\d+)/(\d+), the busiest of', txt)
w = next((t for t in off if busy and t['tid'] == int(busy.group(3))), None)
m = re.match(r'On CPU or waiting\? (\S+) (\d+)/(\d+), the busiest thread, was on CPU '
             r'([\d.]+)% of its ([\d.]+) ms', s.get(1, ''))
if not m or not w or int(m.group(3)) != w['tid']:
    fail(f'offcpu --text: [1] {s.get(1)!r}, not the busiest thread {busy and busy.group(0)}')
elif not near(float(m.group(4)), 100 * w['on_cpu'] / w['wall'], 0.051) or \
        not near(float(m.group(5)), w['wall'] / 1e6, 0.051):
    fail(f'offcpu --text: [1] {m.group(0)}, report --off-cpu: {w["on_cpu"]} of {w["wall"]} ns')
top = p.rows['plateaus'][1]
m = re.match(r'The widest plateau: (.*) \((.*)\), ([\d.]+)% of the on-CPU time in itself; if it cost '
             r'nothing, thread .* would be done at most ([\d.]+)x sooner', s.get(2, ''))
if not m or m.group(1) != top[3] or m.group(3) + '%' != top[0] or m.group(4) + 'x' != top[2]:
    fail(f'offcpu --text: [2] {s.get(2)!r}, the first plateau {top}')
if not groups or not s.get(4, '').startswith(f'Is the CPU stalled? {groups[0]["verdict"]} (confidence'):
    fail(f'offcpu --text: [4] {s.get(4)!r}, classify {groups and groups[0]["verdict"]}')
ch = tables(p.rows['changes'])[0][0]
m = re.match(r'What changed since the run before\? (\S+).*: own time ([\d.]+)% -> ([\d.]+)%',
             s.get(5, ''))
if not m or m.group(1) != ch[4].split(' ')[0] or m.group(2) + '%' != ch[0] or m.group(3) + '%' != ch[1]:
    fail(f'offcpu --text: [5] {s.get(5)!r}, the first change {ch}')
# the page: the same lines, first, each a link to its section
raw = open(f'{tmp}/offcpu.html').read()
ids = re.findall(r'<section id="([^"]+)"', raw)
links = re.findall(r'<li data-section="([^"]+)"><a href="#([^"]+)">', raw)
if ids[:2] != ['summary', 'on-cpu'] or [a for a, b in links] != ['on-cpu', 'plateaus', 'verdict', 'changes'] or \
        any(a != b or b not in ids for a, b in links):
    fail(f'offcpu: sections {ids}, the summary\'s links {links}')
if s and p.text['summary'].count('\n') < 2:
    fail(f'offcpu: the summary {p.text["summary"]!r}')

# ---- threads64: 64 threads, 10 shown and the rest folded
t64 = [t for t in json.load(open(f'{tmp}/t64.json'))['per_thread']['threads']
       if t['on_cpu'] or t['off_cpu']]
by_cpu = sorted(t64, key=lambda w: (-w['on_cpu'], w['pid'], w['tid']))
txt64 = open(f'{tmp}/t64.txt').read()
sect = txt64.split('1. On CPU or waiting?')[1].split('\n2.')[0]
shown = re.findall(r'^\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+\S+ (\d+)/(\d+)$', sect, re.M)
if [int(t) for _, _, t in shown] != [w['tid'] for w in by_cpu[:10]]:
    fail(f'threads64 --text: rows {[t for _, _, t in shown]}, the busiest 10 '
         f'{[w["tid"] for w in by_cpu[:10]]}')
if f'  and {len(t64) - 10} more threads (' not in sect:
    fail(f'threads64 --text: no "and {len(t64) - 10} more threads": {sect[-200:]!r}')
raw = open(f'{tmp}/t64.html').read()
more = len(re.findall(r'<tbody class="more">', raw))
if more != len(t64) - 10 or f'<summary>and {len(t64) - 10} more threads</summary>' not in raw:
    fail(f'threads64: {more} rows folded, want {len(t64) - 10} under a summary')

# ---- the handler recordings: no switches
p = page('slow.html')
for s, say in (('on-cpu', 'sched:sched_switch'), ('blocking', 'sched:sched_switch'),
               ('verdict', 'perf stat')):
    if say not in p.missing.get(s, ''):
        fail(f'slow-service: section {s} does not say to record {say}: {p.missing.get(s)!r}')
for s in ('plateaus', 'changes'):
    if p.missing.get(s):
        fail(f'slow-service: section {s} says data is missing')
check_plateaus(p, json.load(open(f'{tmp}/srep.json')), 'slow-service')
check_changes(p, json.load(open(f'{tmp}/sdiff.json')), 'slow-service')
if 'summarize_slow' not in p.rows['changes'][1][4]:
    fail(f'slow-service: the largest change is {p.rows["changes"][1][4]}')
# the graphs' titles name their mode, their event (as perf's header names
# the clock) and how threads are drawn (issue 35, item 5)
import re
ev = re.search(r'^# event : name = (cpu-clock[^,]*),', open('testdata/offcpu/header.txt').read(), re.M).group(1)
raw = open(f'{tmp}/offcpu.html').read()
titles = dict(re.findall(r'<iframe class="fg" id="([^"]+)" title="([^"]*)"', raw))
if titles.get('fg-cpu') != f'On-CPU: {ev}, threads merged':
    fail(f'offcpu: on-CPU graph titled {titles.get("fg-cpu")!r}')
if titles.get('fg-wait') != 'Off-CPU time (ns), threads merged':
    fail(f'offcpu: off-CPU graph titled {titles.get("fg-wait")!r}')
print('\n'.join(fails) if fails else 'OK')
PY
)
checks=$((checks + 1))
[ "$out" = OK ] || fail "figures: $out"

# a pipe is read once (the off-CPU view too): standard input and a FIFO
# give what the path gives, but for the name in the heading, for a
# file-mode recording and a pipe-mode one
checks=$((checks + 1))
"$PERFAN_BIN" triage --text "${O[@]}" "$D/perf.data" 2>/dev/null | sed 1d >"$tmp/path.txt"
timeout 60 "$PERFAN_BIN" triage --text "${O[@]}" - <"$D/perf.data" 2>/dev/null |
	sed 1d >"$tmp/stdin.txt"
cmp -s "$tmp/path.txt" "$tmp/stdin.txt" || fail "triage -: not the triage of the path"
grep -q 'off-CPU ms' "$tmp/stdin.txt" || fail "triage -: no off-CPU view"
checks=$((checks + 1))
mkfifo "$tmp/fifo"
timeout 60 cat "$D/perf.data" >"$tmp/fifo" &
timeout 60 "$PERFAN_BIN" triage --text "${O[@]}" "$tmp/fifo" 2>/dev/null | sed 1d >"$tmp/fifo.txt"
wait
cmp -s "$tmp/path.txt" "$tmp/fifo.txt" || fail "triage FIFO: not the triage of the path"
# a pipe-mode recording through a pipe: kept to be read again too
checks=$((checks + 1))
SP=testdata/sched-pipe/perf.data
"$PERFAN_BIN" triage --text --kallsyms testdata/kallsyms "$SP" 2>/dev/null | sed 1d >"$tmp/sp.txt"
timeout 60 cat "$SP" | timeout 60 "$PERFAN_BIN" triage --text --kallsyms testdata/kallsyms - \
	2>/dev/null | sed 1d >"$tmp/sp.pipe.txt"
cmp -s "$tmp/sp.txt" "$tmp/sp.pipe.txt" && grep -q 'off-CPU ms' "$tmp/sp.pipe.txt" ||
	fail "triage of a pipe-mode recording on a pipe: not the triage of the path"

# bad input: a message naming it, exit 1
checks=$((checks + 1))
if "$PERFAN_BIN" triage --text "${O[@]}" "$tmp/none.data" >/dev/null 2>"$tmp/bad.err"; then
	fail "triage of a missing file: exit 0"
fi
grep -q "none.data" "$tmp/bad.err" || fail "triage of a missing file: $(cat "$tmp/bad.err")"
checks=$((checks + 1))
if "$PERFAN_BIN" triage --text "${O[@]}" --stat "$tmp/none.txt" "$D/perf.data" >/dev/null 2>"$tmp/bad.err"; then
	fail "triage with a missing --stat: exit 0"
fi
grep -q "none.txt" "$tmp/bad.err" || fail "missing --stat: $(cat "$tmp/bad.err")"

[ "$fails" = 0 ] || { echo "$fails of $checks checks failed"; exit 1; }
echo "triage: $checks checks passed"
