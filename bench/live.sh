#!/usr/bin/env bash
# bench/live.sh: perfan reading a live perf pipe (issue 38). On a busy
# machine (`perf bench sched messaging` in a loop), records every CPU
# (perf record -a -g -F 20000 -o - -- sleep 30) three ways, in turn,
# RUNS times each:
#   perfan  piped to `perfan report -`
#   cat     piped to `cat >/dev/null`
#   file    written by perf itself to a file (-o - >FILE): no pipe reader
# and prints, for each, the records perf lost: the LOST records in its
# output (the kernel's buffers overflowed because perf did not drain them
# in time, as when the pipe's reader falls behind and perf waits on it) and
# the samples perf's LOST_SAMPLES records count. The output of the
# piped runs is kept with tee (tee FILE | READER: tee waits on the reader,
# so perf does too), and counted with `perfan stats`; with /dev/null as
# perf's output nothing would count them (perf record does not print them).
# The target: perfan's median lost samples no higher than cat's and the
# file's. Then `perfan collapse -` and `perfan triage -` once each from the
# same pipe, their lost counts beside.
#
# Usage: bench/live.sh
# Env:   PERFAN=build/perfan  PERF=perf  RUNS=3  DURATION=30  FREQ=20000
#        EVENT=cpu-clock (no hardware PMU in a VM; perf's default cycles
#        gives no samples there)  LOAD=1 (0: no background load)
# Needs root or kernel.perf_event_paranoid <= -1 for -a.
set -euo pipefail
cd "$(dirname "$0")/.."

PERFAN=${PERFAN:-build/perfan}
PERF=${PERF:-perf}
RUNS=${RUNS:-3}
DURATION=${DURATION:-30}
FREQ=${FREQ:-20000}
EVENT=${EVENT:-cpu-clock}
LOAD=${LOAD:-1}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
PERFAN=$(cd "$(dirname "$PERFAN")" && pwd)/$(basename "$PERFAN")

out=$(mktemp -d)
load_pid=""
cleanup() {
	if [ -n "$load_pid" ]; then
		kill "$load_pid" 2>/dev/null || true
		wait "$load_pid" 2>/dev/null || true
	fi
	rm -rf "$out"
}
trap cleanup EXIT

if [ "$LOAD" = 1 ]; then
	# the loop stops at its next round once $out/stop exists
	(while [ ! -e "$out/stop" ]; do
		"$PERF" bench sched messaging -g 10 -l 2000 >/dev/null 2>&1 || sleep 1
	done) &
	load_pid=$!
fi

rec() {
	"$PERF" record -e "$EVENT" -a -g -F "$FREQ" -o - -- sleep "$DURATION"
}

# LOST records (perf's "lost chunks"), lost samples (the LOST_SAMPLES
# records perf writes at the end, from the kernel's count for each event)
# and samples written, of the recording in $1
lost() {
	"$PERFAN" stats --json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ev = d.get("events", [])
print(d["types"].get("LOST", 0), sum(e["lost_samples"] for e in ev),
      sum(e["samples"] for e in ev))'
}

# one run of MODE; appends "MODE LOST_RECORDS LOST_SAMPLES SAMPLES
# SECONDS" to $out/runs
one() {
	local mode=$1 t0 t1
	t0=$(date +%s.%N)
	case "$mode" in
	perfan) rec 2>"$out/perf.err" | tee "$out/s" | "$PERFAN" report - >/dev/null 2>"$out/perfan.err" ;;
	cat) rec 2>"$out/perf.err" | tee "$out/s" | cat >/dev/null ;;
	file) rec 2>"$out/perf.err" >"$out/s" ;;
	collapse) rec 2>"$out/perf.err" | tee "$out/s" | "$PERFAN" collapse - >/dev/null 2>"$out/perfan.err" ;;
	triage) rec 2>"$out/perf.err" | tee "$out/s" | "$PERFAN" triage - >/dev/null 2>"$out/perfan.err" ;;
	esac
	t1=$(date +%s.%N)
	echo "$mode $(lost "$out/s") $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" >>"$out/runs"
	tail -1 "$out/runs" >&2
}

: >"$out/runs"
for _ in $(seq "$RUNS"); do
	for mode in perfan cat file; do
		one "$mode"
	done
done
one collapse
one triage

python3 - "$out/runs" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r[0], []).append(tuple(map(float, r[1:])))
print("%-9s %4s %10s %13s %10s %8s" % ("reader", "runs", "LOST recs", "lost samples",
                                        "samples", "seconds"))
med = {}
for mode in ("perfan", "cat", "file", "collapse", "triage"):
    v = by.get(mode)
    if not v:
        continue
    m = [statistics.median(x[i] for x in v) for i in range(4)]
    med[mode] = m
    print("%-9s %4d %10.0f %13.0f %10.0f %8.1f" % (mode, len(v), *m))
    if len(v) > 1:
        print("%-9s      each (lost samples/samples): %s"
              % ("", "  ".join("%d/%d" % (x[1], x[2]) for x in v)))
for base in ("cat", "file"):
    if "perfan" in med and base in med:
        a, b = med["perfan"][1], med[base][1]
        print("median lost samples, perfan report - / %s: %.0f / %.0f%s" %
              (base, a, b, "  (target: no higher)" if a <= b else "  MISSED: higher"))
PY
for f in perf.err perfan.err; do
	if [ -s "$out/$f" ]; then
		echo "last run's $f:" >&2
		head -5 "$out/$f" >&2
	fi
done
