#!/usr/bin/env bash
# record.sh: perfan record (issue 35). --dry-run: the perf commands for a
# C program (frame pointers) and a Python -X perf one (DWARF), usage
# errors. Where perf can record (checked with perf record -e cpu-clock -o
# /dev/null true; skipped with a message otherwise): a Python target
# recorded with --python (which adds -X perf) gives whole Python stacks,
# <module> -> outer -> middle -> leaf on the samples in leaf (perfan
# collapse, against the workload's own call chain); --wall --gil on
# testdata/gil/gil.py gives the probe events (as many take_gil__return as
# take_gil in perf script's own count), perfan gil's exact waits from
# them, and the probes are gone afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
# pyenv's 3.12 (ctest's HOME is an empty folder: the user's real one)
PY=${PY312:-$(getent passwd "$(id -u)" | cut -d: -f6)/.pyenv/versions/3.12.1/bin/python3.12}

# 1. the plan, printed
out=$("$PERFAN_BIN" record --dry-run --wall -o "$tmp/c.data" -- ./prog 1)
grep -q -- "--call-graph fp " <<<"$out" || fail "C: no frame pointers: $out"
grep -q -- "-e sched:sched_switch -e sched:sched_waking" <<<"$out" || fail "C --wall: no sched events: $out"
grep -q -- "--switch-events" <<<"$out" || fail "C --wall: no switch records: $out"
grep -q -- "-e cpu-clock/freq=999/" <<<"$out" || fail "C: cpu-clock: $out"
grep -q -- " -F " <<<"$out" && fail "C: -F samples the tracepoints: $out"
grep -q "^# then: perfan triage $tmp/c.data$" <<<"$out" || fail "C: next command: $out"
out=$("$PERFAN_BIN" record --dry-run -- "$PY" -X perf s.py)
grep -q -- "--call-graph dwarf,16384 " <<<"$out" || fail "Python -X perf: not DWARF: $out"
grep -q -- "sched:" <<<"$out" && fail "no --wall, yet sched events: $out"
out=$("$PERFAN_BIN" record --dry-run --python -- "$PY" s.py)
grep -q -- "-- $PY -X perf s.py" <<<"$out" || fail "--python: no -X perf added: $out"
rc=0
"$PERFAN_BIN" record --dry-run >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q "nothing to record" "$tmp/err" || fail "no target: exit $rc $(cat "$tmp/err")"
rc=0
"$PERFAN_BIN" record --dry-run -p 1 -- ls >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "-p and a COMMAND: exit $rc"
checks=$((checks + 1))

# 2. real recordings, where perf records
if ! perf record -q -e cpu-clock -o /dev/null true >/dev/null 2>&1; then
	echo "SKIP: perf cannot record here (perf record -e cpu-clock -o /dev/null true fails): no real recording"
	[ "$fails" = 0 ] && echo "ok: record --dry-run"
	exit $((fails > 0))
fi
if [ ! -x "$PY" ]; then
	echo "SKIP: no $PY: no real recording"
	exit $((fails > 0))
fi
cat >"$tmp/work.py" <<'PY'
def leaf(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def middle(n):
    return leaf(n)


def outer(k):
    for _ in range(k):
        middle(200000)


outer(25)
PY
"$PERFAN_BIN" record --python -o "$tmp/py.data" -- "$PY" "$tmp/work.py" >"$tmp/out" 2>&1 ||
	fail "record --python: $(tail -5 "$tmp/out")"
grep -q "perfan record: next: perfan triage $tmp/py.data" "$tmp/out" || fail "no next command: $(tail -3 "$tmp/out")"
"$PERFAN_BIN" collapse "$tmp/py.data" >"$tmp/py.folded" 2>/dev/null || fail "collapse py.data"
# every sample in leaf has leaf's whole chain of callers
read -r inleaf whole < <(awk -v f="$tmp/work.py" '
	{ n = $NF; $NF = "" }
	index($0, "leaf (" f ")") { l += n }
	index($0, "<module> (" f ");outer (" f ");middle (" f ");leaf (" f ")") { w += n }
	END { print l + 0, w + 0 }' "$tmp/py.folded")
[ "$inleaf" -gt 0 ] && [ "$whole" = "$inleaf" ] ||
	fail "Python stacks: of $inleaf ns in leaf, $whole under <module>;outer;middle"
checks=$((checks + 1))

# 3. --gil: the probes' events, perfan gil's exact waits, probes removed
if [ "$(id -u)" = 0 ]; then
	"$PERFAN_BIN" record --wall --python --gil -o "$tmp/gil.data" -- "$PY" testdata/gil/gil.py 2 0.4 >"$tmp/out" 2>&1 ||
		fail "record --gil: $(tail -5 "$tmp/out")"
	perf script -i "$tmp/gil.data" -F event 2>/dev/null | sort | uniq -c >"$tmp/ev"
	t=$(awk '$2 == "probe_perfan:take_gil:" { print $1 }' "$tmp/ev")
	r=$(awk '$2 == "probe_perfan:take_gil__return:" { print $1 }' "$tmp/ev")
	d=$(awk '$2 == "probe_perfan:drop_gil:" { print $1 }' "$tmp/ev")
	[ "${t:-0}" -gt 10 ] && [ "$t" = "$r" ] && [ "${d:-0}" -gt 10 ] ||
		fail "--gil: take_gil $t, take_gil__return $r, drop_gil $d: $(cat "$tmp/ev")"
	"$PERFAN_BIN" gil "$tmp/gil.data" >"$tmp/gil.txt" 2>/dev/null || fail "perfan gil"
	grep -q "holds and waits also from perf probe events" "$tmp/gil.txt" ||
		fail "perfan gil: no probe waits: $(head -3 "$tmp/gil.txt")"
	perf probe -l >"$tmp/probes" 2>/dev/null || true
	grep -q probe_perfan "$tmp/probes" && fail "probes left behind: $(cat "$tmp/probes")"
	checks=$((checks + 1))
else
	echo "SKIP: not root: --gil not recorded"
fi

# 4. each advice line, run on the workload it is meant for, gives a
# recording in which the section it named is no longer missing (issue 35):
# the first perfan record command of the advice, with its COMMAND (or
# python3.12 SCRIPT) the workload's
take() { # FILE: the command the advice in FILE names
	grep -o 'perfan record [^();]*-- \(COMMAND\|python3.12 SCRIPT\)' "$1" | head -1
}
again() { # ADVICE_FILE OUT ARGV...: run the advised recording of ARGV
	local cmd flags
	cmd=$(take "$1")
	out=$2
	shift 2
	[ -n "$cmd" ] || { fail "no perfan record command in: $(head -c 600 "$advfile")"; return 1; }
	flags=${cmd#perfan record }
	flags=${flags% -- *}
	# shellcheck disable=SC2086
	"$PERFAN_BIN" record $flags -o "$out" -- "$@" >"$tmp/again.out" 2>&1 ||
		{ fail "$cmd: $(tail -3 "$tmp/again.out")"; return 1; }
}
G=testdata/gil/gil.py
# (a) off-CPU missing: a CPU-only recording
advfile=$tmp/a1.err
"$PERFAN_BIN" report --off-cpu "$tmp/py.data" >/dev/null 2>"$advfile" || true
grep -q "no off-CPU time in this recording" "$advfile" || fail "(a) no off-CPU advice: $(head -c 300 "$advfile")"
grep -q -- "perfan record --wall --python -- COMMAND" "$advfile" || fail "(a) not the Python recipe: $(head -c 600 "$advfile")"
if again "$advfile" "$tmp/a2.data" "$PY" -X perf "$G" 2 0.3; then
	"$PERFAN_BIN" report --off-cpu "$tmp/a2.data" >"$tmp/a2.txt" 2>"$tmp/a2.err" ||
		fail "(a) the advised recording still has no off-CPU time: $(head -c 300 "$tmp/a2.err")"
	grep -q "no off-CPU time\|was recorded without call graphs\|no sched:sched_waking\|of one process" "$tmp/a2.err" &&
		fail "(a) the advised recording still lacks: $(head -c 600 "$tmp/a2.err")"
fi
# (b) wakers missing: switches without sched_waking
perf record -q -z -e sched:sched_switch -e cpu-clock/freq=499/ --call-graph dwarf,16384 \
	-o "$tmp/b1.data" -- "$PY" -X perf "$G" 2 0.3 >/dev/null 2>&1 || fail "(b) perf record"
advfile=$tmp/b1.err
"$PERFAN_BIN" report --off-cpu "$tmp/b1.data" >/dev/null 2>"$advfile" || true
grep -q "no sched:sched_waking" "$advfile" || fail "(b) no wakers advice: $(head -c 300 "$advfile")"
if again "$advfile" "$tmp/b2.data" "$PY" -X perf "$G" 2 0.3; then
	"$PERFAN_BIN" report --off-cpu "$tmp/b2.data" >/dev/null 2>"$tmp/b2.err" ||
		fail "(b) report: $(head -c 300 "$tmp/b2.err")"
	grep -q "no sched:sched_waking" "$tmp/b2.err" && fail "(b) the advised recording has no wakers"
	[ "$(perf script -i "$tmp/b2.data" -F event 2>/dev/null | grep -c sched_waking)" -gt 0 ] ||
		fail "(b) no sched_waking record in the advised recording"
fi
# (c) the GIL's probes missing (root only)
if [ "$(id -u)" = 0 ]; then
	advfile=$tmp/c1.err
	"$PERFAN_BIN" report --off-cpu "$tmp/a2.data" >/dev/null 2>"$advfile" || true
	"$PERFAN_BIN" gil "$tmp/a2.data" >>"$advfile" 2>&1 || true
	grep -q "sudo perfan record --wall --python --gil -- COMMAND" "$advfile" ||
		fail "(c) no GIL probes advice: $(head -c 600 "$advfile")"
	if again "$advfile" "$tmp/c2.data" "$PY" -X perf "$G" 2 0.3; then
		"$PERFAN_BIN" gil "$tmp/c2.data" >"$tmp/c2.txt" 2>/dev/null || fail "(c) perfan gil"
		grep -q "holds and waits also from perf probe events" "$tmp/c2.txt" ||
			fail "(c) the advised recording has no GIL probes: $(head -3 "$tmp/c2.txt")"
	fi
fi
# (d) Python stacks cut: frame pointers through a libpython without them
perf record -q -g -e cpu-clock -F 499 -o "$tmp/d1.data" -- "$PY" -X perf "$tmp/work.py" >/dev/null 2>&1 ||
	fail "(d) perf record -g"
advfile=$tmp/d1.err
"$PERFAN_BIN" report "$tmp/d1.data" >/dev/null 2>"$advfile" || true
grep -q "perfan record --python" "$advfile" || fail "(d) no Python stacks advice: $(head -c 600 "$advfile")"
if again "$advfile" "$tmp/d2.data" "$PY" "$tmp/work.py"; then
	# (into a file: under pipefail, grep -q leaving early would fail the
	# pipe with collapse's SIGPIPE)
	"$PERFAN_BIN" collapse "$tmp/d2.data" >"$tmp/d2.folded" 2>/dev/null || true
	grep -q "<module> ($tmp/work.py);outer ($tmp/work.py);middle ($tmp/work.py);leaf ($tmp/work.py)" "$tmp/d2.folded" ||
		fail "(d) the advised recording has no whole Python stacks"
fi
# a recording with the switch records: no note about late intervals
"$PERFAN_BIN" report --off-cpu --kallsyms testdata/server/kallsyms --symfs testdata/server/symfs \
	--perf-map-dir testdata/server testdata/server/server.data >/dev/null 2>"$tmp/s.err" || fail "report server.data"
grep -q "a recording of one process" "$tmp/s.err" && fail "server.data (--switch-events): the late-intervals note"
checks=$((checks + 1))
[ "$fails" = 0 ] && echo "ok: record ($checks groups)"
exit $((fails > 0))
