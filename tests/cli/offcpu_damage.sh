#!/usr/bin/env bash
# offcpu_damage.sh: damaged sched_switch samples (issue 36, item 6). A copy
# of testdata/offcpu/perf.data with prev_state set to -1 (all 64 bits, the
# field's size in the recording's own tracepoint format) in a third of its
# sched_switch samples, and one with prev_pid set to 1 (init, not the
# sample's thread) in a third: each is counted in one warning line (the
# count perf script's own reading of the copy gives), the intervals they
# end are kept as "unknown state", never as a thread's exit: every
# thread's off-CPU total, and its on-CPU + off-CPU against its wall time,
# as in the undamaged recording, and no thread of pid 1 made up.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/offcpu
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")
run() { # OUT ERR perfan ARGS...: the exit status in $rc
	local out=$1 err=$2
	shift 2
	rc=0
	HOME=$tmp timeout 60 "$PERFAN_BIN" "$@" >"$out" 2>"$err" || rc=$?
}

run "$tmp/good.json" "$tmp/good.err" report --off-cpu --json "${O[@]}" "$D/perf.data"
[ "$rc" = 0 ] || fail "report --off-cpu perf.data: exit $rc"

# damage FIELD VALUE NAME PERF_PATTERN WARNING: patch, count with perf
# script, compare with the undamaged run
damage() {
	local field=$1 value=$2 name=$3 pattern=$4 warning=$5
	read -r patched total < <(python3 tests/tools/patch_switch.py \
		"$D/perf.data" "$tmp/$name.data" "$field" "$value")
	[ "$patched" -gt 0 ] && [ "$patched" -lt "$total" ] ||
		{ fail "$name: patched $patched of $total"; return; }
	# perf's own reading of the copy: the damaged samples it shows
	local perf_n
	perf_n=$(perf script -i "$tmp/$name.data" -F trace 2>/dev/null |
		grep -c -- "$pattern" || true)
	[ "$perf_n" = "$patched" ] ||
		fail "$name: perf script shows $perf_n damaged switches, the patch made $patched"
	run "$tmp/$name.json" "$tmp/$name.err" report --off-cpu --json "${O[@]}" \
		"$tmp/$name.data"
	[ "$rc" = 0 ] || fail "$name: report --off-cpu: exit $rc: $(head -c 300 "$tmp/$name.err")"
	local lines
	lines=$(grep -c -- "$warning" "$tmp/$name.err" || true)
	[ "$lines" = 1 ] || fail "$name: $lines warning lines '$warning', expected 1: $(head -c 600 "$tmp/$name.err")"
	grep -q -- "warning: $patched sched:sched_switch samples .*$warning" "$tmp/$name.err" ||
		fail "$name: the warning does not give the count $patched: $(grep -- "$warning" "$tmp/$name.err" | head -c 300)"
	python3 - "$tmp/good.json" "$tmp/$name.json" "$name" <<'PY' || fails=$((fails + 1))
import json, sys

good, bad, name = sys.argv[1:4]
def threads(p):
    return {(t["pid"], t["tid"]): t
            for t in json.load(open(p))["per_thread"]["threads"]}
g, b = threads(good), threads(bad)
errs = []
if set(g) != set(b):
    errs.append("threads %s, undamaged %s" % (sorted(b), sorted(g)))
unknown = 0
for k, t in g.items():
    d = b.get(k)
    if not d:
        continue
    who = "%s %d/%d" % (t["comm"], k[0], k[1])
    # the off-CPU total kept, within 0.1 ms
    if abs(d["off_cpu"] - t["off_cpu"]) > 100e3:
        errs.append("%s: off-CPU %.3f ms, undamaged %.3f" %
                    (who, d["off_cpu"] / 1e6, t["off_cpu"] / 1e6))
    # on-CPU + off-CPU against wall as undamaged (within 0.1 ms)
    gap = lambda x: x["wall"] - x["on_cpu"] - x["off_cpu"]
    if abs(gap(d) - gap(t)) > 100e3:
        errs.append("%s: wall - on - off %.3f ms, undamaged %.3f" %
                    (who, gap(d) / 1e6, gap(t) / 1e6))
    if sum(d["off"].values()) != d["off_cpu"]:
        errs.append("%s: states sum to %d, off-CPU %d" %
                    (who, sum(d["off"].values()), d["off_cpu"]))
    u = d["off"].get("unknown state", 0)
    unknown += u
    if t["comm"] in ("sleeper", "locker") and u <= 0:
        errs.append("%s: no unknown-state time" % who)
if unknown <= 0:
    errs.append("no time under \"unknown state\"")
for e in errs:
    print("FAIL: %s: %s" % (name, e))
sys.exit(1 if errs else 0)
PY
	checks=$((checks + 1))
}

damage prev_state -1 state 'prev_state=S|D|T|t|X|Z|P|I+' \
	"have a prev_state with bits no kernel reports"
damage prev_pid 1 pid 'prev_pid=1 ' \
	"have a prev_pid other than the sample's own thread"

# the flame graph's leaf names the state
run "$tmp/state.folded" "$tmp/err" collapse --off-cpu "${O[@]}" "$tmp/state.data"
grep -q '\[off-cpu: unknown state\] [0-9]*$' "$tmp/state.folded" ||
	fail "collapse --off-cpu: no [off-cpu: unknown state] leaf"

[ $fails -eq 0 ] && echo "offcpu_damage: ok ($checks damaged recordings)"
[ $fails -eq 0 ]
