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
PY=${PY312:-$HOME/.pyenv/versions/3.12.1/bin/python3.12}

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
	perf probe -l 2>/dev/null | grep -q probe_perfan && fail "probes left behind: $(perf probe -l 2>&1)"
	checks=$((checks + 1))
else
	echo "SKIP: not root: --gil not recorded"
fi
[ "$fails" = 0 ] && echo "ok: record ($checks groups)"
exit $((fails > 0))
