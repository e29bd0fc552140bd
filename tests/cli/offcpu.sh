#!/usr/bin/env bash
# offcpu.sh: --off-cpu and --wall (issue 12) on testdata/offcpu, against
# its EXPECTED.txt (the programs' own measurements and perf's records):
# report's per-thread table (wall within 2 % of each thread's lifetime,
# each planted call site's blocking time within 5 % or 2 ms), collapse's
# "[off-cpu: sleep]" leaves under wait_sleep, the flame graph's off-CPU
# colour and legend, the Python recording's handle_request above its
# sleep, diff in ns, each piece of advice for the recording that needs it,
# and an error for inputs that are not perf.data.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/offcpu
. tests/tools/cli_common.sh
# this case's own kernel symbols and binaries, no cache, no /tmp
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")
run() { # OUT ERR perfan ARGS...: the exit status in $rc
	local out=$1 err=$2
	shift 2
	rc=0
	HOME=$tmp "$PERFAN_BIN" "$@" >"$out" 2>"$err" || rc=$?
}

# 1. report's per-thread table, as JSON, against EXPECTED.txt
for rec in perf.data perf.dwarf.data perf.sched.data perf.py.data; do
	for view in --off-cpu --wall; do
		run "$tmp/$rec$view.json" "$tmp/err" report --json $view \
			"${O[@]}" "$D/$rec"
		[ "$rc" = 0 ] || fail "report $view $rec: exit $rc: $(head -c 300 "$tmp/err")"
	done
done
if ! python3 - "$D" "$tmp" <<'PY'; then
import collections, json, os, sys

d, tmp = sys.argv[1:3]
life, planted, perf_site = {}, {}, collections.defaultdict(float)
for line in open(os.path.join(d, "EXPECTED.txt")):
    p = line.split()
    if not p:
        continue
    if p[0] == "thread":
        life[(p[1], int(p[2]))] = float(p[4])
    elif p[0] == "planted":
        planted[(p[1], int(p[2]), p[4])] = float(p[8])
    elif p[0] == "offcpu" and p[5] in ("S", "D"):
        # perf's own blocking intervals at the site (S, D; R is waiting
        # for a CPU, not blocking), wakeup delay included
        perf_site[(p[1], int(p[2]), p[4])] += float(p[7])
bad = 0
def check(what, got, want, pct, ms):
    global bad
    if abs(got - want) > max(want * pct / 100, ms):
        print("FAIL: %s: %.3f ms, expected %.3f (within %g %% or %g ms)"
              % (what, got, want, pct, ms))
        bad += 1
for rec in ("perf.data", "perf.dwarf.data", "perf.sched.data", "perf.py.data"):
    for view in ("--off-cpu", "--wall"):
        doc = json.load(open(os.path.join(tmp, rec + view + ".json")))
        if doc.get("view") != view[2:] or "report" not in doc:
            print("FAIL: %s %s: no {view, per_thread, report}" % (rec, view))
            bad += 1
            continue
        rows = {(r["tid"]): r for r in doc["per_thread"]["threads"]}
        for (r, tid), lt in sorted(life.items()):
            if r != rec:
                continue
            row = rows.get(tid)
            if not row:
                print("FAIL: %s %s: thread %d missing" % (rec, view, tid))
                bad += 1
                continue
            # EXPECTED's lifetime starts at the thread's first record; a
            # thread off-CPU since before it (perf.sched.data's main thread,
            # forked by perf before the recording began) has that much
            # more, open at the start and reported as "before first seen"
            early = row["off"].get("before first seen", 0)
            check("%s %s: %s wall" % (rec, view, row["comm"]),
                  (row["wall"] - early) / 1e6, lt, 2, 0)
            # and on-CPU + off-CPU tile it (perf.sched.data has no
            # cpu-clock, perf sched record records none: its on-CPU time
            # is from each switch-in to the switch-out after it)
            if rec == "perf.sched.data" and row.get("on_cpu_from") != "switches":
                print("FAIL: %s %s: %s on-CPU from %s, not switches" % (
                    rec, view, row["comm"], row.get("on_cpu_from")))
                bad += 1
            check("%s %s: %s on + off" % (rec, view, row["comm"]),
                  (row["on_cpu"] + sum(row["off"].values()) - early)
                  / 1e6, lt, 2, 0)
            if row["comm"] == "spinner":
                # on-CPU time from cpu-clock samples (from the switches in
                # perf.sched.data): the CPU-bound thread's, against its
                # own CPU clock
                cpu = [float(l.split()[8]) for l in
                       open(os.path.join(d, "EXPECTED.txt"))
                       if l.startswith("thread %s %d " % (rec, tid))][0]
                check("%s %s: spinner on-CPU" % (rec, view),
                      row["on_cpu"] / 1e6, cpu, 5, 2)
            # blocking call sites by caller, summed over waits
            by_caller = collections.defaultdict(float)
            for s in row["sites"]:
                name = (s["caller"] or "").split(" (", 1)[0]
                by_caller[name] += s["total"] / 1e6
            for (r2, tid2, site), off in sorted(planted.items()):
                if r2 != rec or tid2 != tid or site == "spin":
                    continue  # spin: preempted, no blocking site
                if rec in ("perf.data", "perf.py.data"):
                    # frame-pointer stacks name the planted function, the
                    # Python view the Python one
                    check("%s %s: %s at %s" % (rec, view, row["comm"], site),
                          by_caller[site], off, 5, 2)
                elif rec == "perf.sched.data":
                    # perf's own switch records at the site (the system-wide
                    # recording: its planted waits include preemption,
                    # which is not blocking)
                    check("%s %s: %s at %s (perf's)" % (rec, view,
                          row["comm"], site), by_caller[site],
                          perf_site[(rec, tid, site)], 1, 0.5)
        if rec == "perf.py.data":
            sites = rows[9442]["sites"]
            top = sites[0] if sites else {}
            if not (top.get("caller") or "").startswith("handle_request") or \
                    top.get("wait") != "nanosleep":
                print("FAIL: %s %s: top site %s, not nanosleep in "
                      "handle_request" % (rec, view, top))
                bad += 1
sys.exit(1 if bad else 0)
PY
	fail "per-thread table: see above"
fi

# the text table: a column per state present, the thread named comm PID/TID
run "$tmp/text" "$tmp/err" report --wall "${O[@]}" "$D/perf.data"
grep -q '^#  *wall  *on-CPU  *sleep  *disk  *waiting for a CPU  *run-queue delay  *CPU/wall  *%GIL  *%waiting  *thread (top function)$' "$tmp/text" ||
	fail "report --wall: no per-thread header with the states present"
grep -Eq '^ +[0-9.]+ .* sleeper 8720/8729(  \(top: [^)]+\))?$' "$tmp/text" ||
	fail "report --wall: no row for sleeper 8720/8729"
# the spinner's top function is spin(), the function it spins in
grep -Eq ' spinner 8720/8735  \(top: spin\)$' "$tmp/text" ||
	fail "report --wall: the spinner's top function is not spin"
# the shares: sleeper waits 99 % of its life, the spinner none of it
grep -Eq '  0\.0%  +9[0-9]\.[0-9]%  sleeper 8720/8729' "$tmp/text" &&
	grep -Eq '  0\.0%  +0\.0%  spinner 8720/8735' "$tmp/text" ||
	fail "report --wall: %GIL and %waiting of sleeper and spinner"
# a site names the user's function, what it waited in and the class
grep -Eq '^ +2[0-9][0-9]\.[0-9]{3}  wait_sleep <- nanosleep \(sleep\)  \(sleep [0-9.]+, run-queue delay [0-9.]+\)$' "$tmp/text" ||
	fail "report --wall: no site 'wait_sleep <- nanosleep (sleep)' with its states"
# (the mutex's libc frames are not in this case's symfs: no class says
# lock there, and the site keeps the wait in its caller)
grep -q 'futex in wait_mutex' "$tmp/text" &&
	grep -q 'wait_pipe <- read/recv (I/O wait)' "$tmp/text" &&
	grep -q 'wait_disk <- disk I/O (disk wait)' "$tmp/text" ||
	fail "report --wall: futex, I/O, disk sites missing"
grep -q "^# Event count: [0-9]* (ns)  of event 'wall'" "$tmp/text" ||
	fail "report --wall: rows not in ns of wall time"
# wall time summed over threads bounds nothing (issue 35): no Max speedup;
# one thread's (--tid) is bounded, and the heading says on what
grep -q 'Max speedup' "$tmp/text" &&
	fail "report --wall: a Max speedup on wall time summed over threads"
run "$tmp/one" "$tmp/err" report --wall --tid 8729 "${O[@]}" "$D/perf.data"
grep -q "Amdahl bound on the thread's wall time" "$tmp/one" &&
	grep -q '^# Children      Self  Max speedup  Command' "$tmp/one" ||
	fail "report --wall --tid: no Max speedup on one thread's wall time"
grep -q "ns, expected\|FAIL" "$tmp/text" && fail "report --wall: odd output"
# open intervals are named: perf.sched.data's main thread was off-CPU when
# the recording began
run "$tmp/sched" "$tmp/err" report --off-cpu "${O[@]}" "$D/perf.sched.data"
grep -Eq '^#   offcpu 9199/9199: 1 open at the start' "$tmp/sched" ||
	fail "report --off-cpu perf.sched.data: the open start of offcpu 9199 is not reported"

# 2. collapse --off-cpu: sleeper's waits in wait_sleep, in ns
run "$tmp/folded" "$tmp/err" collapse --off-cpu "${O[@]}" "$D/perf.data"
[ "$rc" = 0 ] || fail "collapse --off-cpu: exit $rc: $(head -c 300 "$tmp/err")"
want=$(awk '$1 == "offcpu" && $2 == "perf.data" && $4 == "sleeper" && $5 == "wait_sleep" && $6 == "S" {print $8}' "$D/EXPECTED.txt")
got=$(awk '/^sleeper;.*;wait_sleep;.*;\[off-cpu: (sleep|run-queue delay)\] [0-9]+$/ {s += $NF} END {printf "%.3f", s / 1e6}' "$tmp/folded")
sleep_only=$(grep -c '^sleeper;.*;wait_sleep;.*;\[off-cpu: sleep\] [0-9]*$' "$tmp/folded" || true)
[ "$sleep_only" -ge 1 ] || fail "collapse --off-cpu: no [off-cpu: sleep] leaf under wait_sleep"
python3 -c "import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(g - w) > max(w * 0.01, 0.5))" "$got" "$want" ||
	fail "collapse --off-cpu: sleeper in wait_sleep $got ms, perf's $want ms"
grep -v '\[off-cpu: [A-Za-z /-]*\] [0-9]*$' "$tmp/folded" | head -1 | grep -q . &&
	fail "collapse --off-cpu: a stack without an off-CPU leaf: $(grep -v '\[off-cpu: [A-Za-z /-]*\] [0-9]*$' "$tmp/folded" | head -1)"
# each planted wait's class names its leaf (issue 34): the pipe I/O, the
# nanosleep a sleep, the O_DIRECT read the disk, from the kernel's frames;
# and no other class under them (the mutex's libc frames are not in this
# case's symfs, so its futex names no lock: gil.sh tests locks)
for want in "reader wait_pipe I/O" \
	"sleeper wait_sleep sleep" "disk wait_disk_direct disk"; do
	set -- $want
	leaves=$(awk -v t="$1" -v f="$2" 'index($0, t ";") == 1 && index($0, ";" f ";") {
		if (match($0, /\[off-cpu: [^]]*\]/)) print substr($0, RSTART, RLENGTH) }' "$tmp/folded" |
		grep -v 'run-queue delay\|waiting for a CPU' | sort -u)
	[ "$leaves" = "[off-cpu: $3]" ] ||
		fail "collapse --off-cpu: $1's $2 waits are '$(echo $leaves)', not [off-cpu: $3]"
done
run "$tmp/s.folded" "$tmp/err" collapse --samples --off-cpu "${O[@]}" "$D/perf.data"
cmp -s "$tmp/s.folded" "$tmp/folded" && grep -q 'warning: --samples does not apply' "$tmp/err" ||
	fail "collapse --samples --off-cpu: not the same ns, or no warning"
# --wall adds the on-CPU stacks: spin's own samples
run "$tmp/wall.folded" "$tmp/err" collapse --wall "${O[@]}" "$D/perf.data"
grep -q '^spinner;.*;spin [0-9]*$' "$tmp/wall.folded" ||
	fail "collapse --wall: no on-CPU stack ending in spin"

# 3. the flame graph: off-CPU leaves in their own colour, named in the legend
run "$tmp/fg.svg" "$tmp/err" flamegraph --wall "${O[@]}" "$D/perf.data"
[ "$rc" = 0 ] || fail "flamegraph --wall: exit $rc: $(head -c 300 "$tmp/err")"
if ! python3 - "$tmp/fg.svg" <<'PY'; then
import re, sys
svg = open(sys.argv[1]).read()
legend = re.search(r'<g id="legend">(.*?)</g>', svg, re.S)
if not legend:
    sys.exit("FAIL: no legend")
sw = dict((t, tuple(map(int, c.split(",")))) for c, t in re.findall(
    r'fill="rgb\(([0-9,]+)\)"/><text[^>]*>([^<]*)</text>', legend.group(1)))
for st in ("sleep", "disk", "waiting for a CPU"):
    if "off-CPU: " + st not in sw:
        sys.exit("FAIL: the legend does not name off-CPU: %s (%s)" % (st, sorted(sw)))
frames = re.findall(r'<title>([^<]*)</title><rect [^>]*fill="#([0-9a-f]{6})"', svg)
def rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
seen = 0
for name, fill in frames:
    if name == "[off-cpu: sleep]":
        seen += 1
        if rgb(fill) != sw["off-CPU: sleep"]:
            sys.exit("FAIL: [off-cpu: sleep] drawn in %s, the legend's %s"
                     % (rgb(fill), sw["off-CPU: sleep"]))
    elif rgb(fill) == sw["off-CPU: sleep"]:
        sys.exit("FAIL: %s has the off-CPU colour" % name)
if not seen:
    sys.exit("FAIL: no [off-cpu: sleep] frame")
PY
	fail "flamegraph --wall: off-CPU colour and legend"
fi

# 4. Python: handle_request above its sleep, through the Python view
run "$tmp/py.folded" "$tmp/err" collapse --wall "${O[@]}" "$D/perf.py.data"
want=$(awk '$1 == "planted" && $2 == "perf.py.data" {print $9}' "$D/EXPECTED.txt")
got=$(awk '/;handle_request \([^;]*\);([^;]*;)*\[off-cpu: sleep\] [0-9]+$/ {s += $NF} END {printf "%.3f", s / 1e6}' "$tmp/py.folded")
python3 -c "import sys; g, w = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(g - w) > max(w * 0.05, 2))" "$got" "$want" ||
	fail "collapse --wall perf.py.data: handle_request above [off-cpu: sleep] $got ms, planted $want ms"
run "$tmp/py.native" "$tmp/err" collapse --wall --python native "${O[@]}" "$D/perf.py.data"
grep -q 'handle_request (' "$tmp/py.native" &&
	fail "collapse --wall --python native: Python view applied anyway"

# 5. diff: both sides in ns of off-CPU time
run "$tmp/diff" "$tmp/err" diff --off-cpu "${O[@]}" "$D/perf.data" "$D/perf.dwarf.data"
[ "$rc" = 0 ] || fail "diff --off-cpu: exit $rc: $(head -c 300 "$tmp/err")"
grep -q '\[off-cpu: sleep\]' "$tmp/diff" ||
	fail "diff --off-cpu: no [off-cpu: sleep] row"
grep -Eq '^#   before testdata/offcpu/perf.data: 17[0-9]{8}$' "$tmp/diff" ||
	fail "diff --off-cpu: the before side is not in ns ($(grep before "$tmp/diff" | head -1))"

# 6. what to record, for each recording that needs it
CMD='perfan record --wall -- COMMAND'
# a Python program's recipe unwinds with DWARF: -g loses CPython's frames
PYCMD='perfan record --wall --python -- COMMAND'
advice() { # WANT_RC FILE PATTERN... (fixed strings, each on stderr)
	local want=$1 file=$2
	shift 2
	run "$tmp/a.out" "$tmp/a.err" report --off-cpu "${O[@]}" "$file"
	[ "$rc" = "$want" ] || fail "report --off-cpu $file: exit $rc, expected $want"
	for pat in "$@"; do
		grep -qF -- "$pat" "$tmp/a.err" ||
			fail "report --off-cpu $file: no '$pat' in: $(head -c 600 "$tmp/a.err")"
	done
}
advice 1 testdata/fp/perf.data "perfan report: no off-CPU time in this recording" "$CMD"
advice 0 testdata/offcpu-nog/perf.data \
	"perfan report: warning: sched:sched_switch was recorded without call graphs" \
	"--call-graph dwarf" "$CMD"
advice 1 "$D/perf.freq.data" "perfan report: sched:sched_switch was sampled" \
	"-c 1" "cpu-clock/freq=999/"
advice 0 "$D/perf.switch.data" "warning: off-CPU time from PERF_RECORD_SWITCH" "$CMD"
advice 0 "$D/perf.py.data" "note: no sched:sched_waking" "-e sched:sched_waking" "$PYCMD" \
	"perf probe -x LIBPYTHON take_gil" "'take_gil__return=take_gil+OFF'"
grep -q -- "$CMD" "$tmp/a.err" && fail "report --off-cpu perf.py.data: advises -g for Python"
# the one-process note counts the intervals that ended late
advice 0 "$D/perf.data" "note: a recording of one process"
n=$(grep -o 'so [0-9]* of [0-9]* off-CPU intervals end where' "$tmp/a.err" | awk '{print $2}')
[ -n "$n" ] && [ "$n" -gt 0 ] ||
	fail "report --off-cpu perf.data: the one-process note gives no count of late intervals"
grep -q "without call graphs" "$tmp/a.err" &&
	fail "report --off-cpu perf.data: says no call graphs on a -g recording"

# 7. other inputs: an error, for every command
printf 'a;b 2\n' >"$tmp/in.folded"
for c in report collapse flamegraph "diff $tmp/in.folded"; do
	for view in --off-cpu --wall; do
		run "$tmp/out" "$tmp/err" $c $view "$tmp/in.folded"
		[ "$rc" != 0 ] && grep -q "is not a perf.data: --off-cpu and --wall" "$tmp/err" ||
			fail "$c $view on folded stacks: exit $rc, $(head -c 300 "$tmp/err")"
	done
done
zstd -dc "$D/script.dwarf.txt.zst" 2>/dev/null | head -200 >"$tmp/script.txt" || true
run "$tmp/out" "$tmp/err" report --off-cpu "$tmp/script.txt"
[ "$rc" != 0 ] || fail "report --off-cpu on perf script text: exit 0"

[ $fails -eq 0 ] && echo "offcpu: ok"
[ $fails -eq 0 ]
