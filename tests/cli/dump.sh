#!/usr/bin/env bash
# dump.sh: perfan dump (issue 35) at three moments of testdata/offcpu's
# system-wide sched recording, of its one-process recording and of
# testdata/server (a Python server, 311 threads, DWARF stacks), against
# perf's own script of the same files: a thread off the CPU has the stack
# of its last switch-out before the moment, and no later sample or
# switch-in; a thread whose last switch before the moment was in runs; a
# running thread's stack is its last cpu-clock sample's.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
D=testdata/offcpu
. tests/tools/cli_common.sh
O=(--kallsyms "$D/kallsyms" --symfs "$D/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$D")

S=testdata/server
OS=(--kallsyms "$S/kallsyms" --symfs "$S/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$S")
zstd -dc "$D/script.sched.txt.zst" >"$tmp/sched.txt"
zstd -dc "$S/script.txt.zst" >"$tmp/server.txt"
for name in sched data server; do
	case $name in
	sched) data=$D/perf.sched.data txt=$tmp/sched.txt ;;
	data) data=$D/perf.data txt=$D/script.txt ;;
	server) data=$S/server.data txt=$tmp/server.txt ;;
	esac
	[ "$name" = server ] && opts=("${OS[@]}") || opts=("${O[@]}")
	# three moments: a tenth, a fifth and 35 % in (perf.data's threads
	# live from 2 % to 45 % of it)
	read -r first last < <(awk '/^ *[^\t ].* [0-9]+\.[0-9]+: / {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(":", "", t) }
		if (!f) f = t; l = t } END {print f, l}' "$txt")
	# (testdata/server's workload runs from 13 % to 99 % of its script)
	[ "$name" = server ] && qs="0.3 0.5 0.7" || qs="0.1 0.2 0.35"
	for q in $qs; do
		at=$(python3 -c "import sys; a, b, q = map(float, sys.argv[1:4]); print('%.6f' % (a + (b - a) * q))" "$first" "$last" "$q")
		rc=0
		HOME=$tmp "$PERFAN_BIN" dump --json --at "$at" "${opts[@]}" "$data" >"$tmp/d.json" 2>"$tmp/err" || rc=$?
		[ "$rc" = 0 ] || { fail "dump --at $at $data: exit $rc: $(head -c 300 "$tmp/err")"; continue; }
		python3 - "$txt" "$tmp/d.json" "$at" "$name" <<'PY' || fail "dump --at $at $data (above)"
import json, re, sys
txt, dj, at, name = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
at_ns = round(at * 1e9)
head = re.compile(r"^\s*(.*?)\s+(-?\d+)\s+(?:\[\d+\]\s+)?(\d+)\.(\d+):\s+(?:\d+\s+)?(\S+?):?\s(.*)$")
recs = []  # (time, kind, tid, leaf addr)
amb = set()
cur = None
for line in open(txt):
    if line.startswith("\t"):
        if cur is not None and cur[3] is None:
            cur[3] = int(line.split()[0], 16)
        continue
    m = head.match(line.rstrip("\n"))
    if not m:
        cur = None
        continue
    tid, t = int(m.group(2)), int(m.group(3)) * 1000000000 + int(m.group(4).ljust(9, "0"))
    ev, rest = m.group(5), m.group(6)
    if t > at_ns:
        break
    if t == at_ns // 1000 * 1000:
        # (perf script prints microseconds: a record in the moment's
        # microsecond may be after it; its thread is not checked)
        amb.add(tid)
        if ev == "sched:sched_switch":
            amb.add(int(re.search(r"next_pid=(\d+)", rest).group(1)))
    if ev.startswith("cpu-clock"):
        cur = [t, "sample", tid, None]
        recs.append(cur)
    elif ev == "sched:sched_switch":
        pp = int(re.search(r"prev_pid=(\d+)", rest).group(1))
        np_ = int(re.search(r"next_pid=(\d+)", rest).group(1))
        cur = [t, "out", pp, None]
        recs.append(cur)
        recs.append([t, "in", np_, 0])
    else:
        cur = None
last, last_sample = {}, {}
for r in recs:
    last[r[2]] = r
    if r[1] == "sample":
        last_sample[r[2]] = r
d = json.load(open(dj))["dump"]
bad = checked = 0
for th in d["threads"]:
    tid = th["tid"]
    if tid not in last or tid in amb:
        continue
    r = last[tid]
    leaf = th["frames"][0]["addr"] if th["frames"] else None
    checked += 1
    if th["state"] != "running":
        # (perf script prints microseconds)
        if r[1] != "out" or abs(r[0] - th["since"]) >= 1000 or \
                (r[3] is not None and leaf != r[3]):
            print("FAIL: %s at %.6f: %d off-CPU since %d (leaf %s); perf's last record %s"
                  % (name, at, tid, th["since"], leaf, r))
            bad += 1
    else:
        if name == "sched" and r[1] == "out":
            print("FAIL: %s at %.6f: %d running, but perf's last record is its switch-out %s"
                  % (name, at, tid, r))
            bad += 1
        s = last_sample.get(tid)
        if s and s[3] is not None and leaf != s[3]:
            print("FAIL: %s at %.6f: %d running with leaf %s, its last sample's is %x"
                  % (name, at, tid, leaf, s[3]))
            bad += 1
if checked < 5:
    print("FAIL: %s at %.6f: only %d threads checked" % (name, at, checked))
    bad += 1
sys.exit(bad)
PY
	done
done
# the threads' names (issue 35, item 1): each thread called by the
# function its script started it on (testdata/server: the role each
# thread wrote in truth.txt, the targets in server.py; testdata/gil: the
# targets in gil.py, each thread's tid in its .out), the threads of one
# function labelled with their pool, a process's first thread "main" and
# in no pool; half-way through each recording
G=testdata/gil
GO=(--kallsyms "$G/kallsyms" --symfs "$G/symfs" --buildid-dir "$tmp/no-cache"
	--perf-map-dir "$G")
for name in server gil; do
	case $name in
	server) data=$S/server.data opts=("${OS[@]}") ;;
	gil) data=$G/gil-312-4.data opts=("${GO[@]}") ;;
	esac
	HOME=$tmp "$PERFAN_BIN" dump --json "${opts[@]}" "$data" >"$tmp/n.json" 2>/dev/null ||
		fail "dump $data"
	at=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["dump"]
print("%d.%09d" % divmod((d["start"] + d["end"]) // 2, 10**9))' "$tmp/n.json")
	HOME=$tmp "$PERFAN_BIN" dump --json --at "$at" "${opts[@]}" "$data" >"$tmp/n.json" 2>/dev/null ||
		fail "dump --at $at $data"
	HOME=$tmp "$PERFAN_BIN" dump --at "$at" "${opts[@]}" "$data" >"$tmp/n.txt" 2>/dev/null ||
		fail "dump --at $at $data (text)"
	python3 - "$name" "$S" "$G" "$tmp/n.json" "$tmp/n.txt" <<'PY' || fail "dump: the names of $name's threads (above)"
import json, re, sys
sys.path.insert(0, "tests/tools")
from thread_roles import FAILS, check, expect, gil, server
name, s, g, dj, dt = sys.argv[1:6]
roles = server(s) if name == "server" else gil(g, "gil", g + "/gil-312-4.out")
d = json.load(open(dj))["dump"]
txt = open(dt).read()
checked = 0
for t in d["threads"]:
    if t["tid"] not in roles:
        continue
    checked += 1
    wname, wrole, wpool = expect(roles, t["pid"], t["tid"], t["comm"])
    check((t["name"], t["role"], t["pool"]) == (wname, wrole, wpool),
          "%s: thread %d started on %s: name %r, role %r, pool %r" % (
              name, t["tid"], wrole, t["name"], t["role"], t["pool"]))
    label = wname + (" (pool %s)" % wpool if wpool else "")
    check(re.search(r"^%s %d/%d: " % (re.escape(label), t["pid"], t["tid"]), txt, re.M),
          "%s: no text line for thread %d as %r" % (name, t["tid"], label))
check(checked >= 5, "%s: only %d threads checked" % (name, checked))
sys.exit(len(FAILS))
PY
done
# the end of the recording by default, text, and a moment outside it
rc=0
HOME=$tmp "$PERFAN_BIN" dump "${O[@]}" "$D/perf.data" >"$tmp/end.txt" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] && grep -q '^Threads at ' "$tmp/end.txt" && grep -q ': running for\|: off-CPU (' "$tmp/end.txt" ||
	fail "dump at the end: exit $rc, $(head -c 300 "$tmp/end.txt" "$tmp/err")"
rc=0
HOME=$tmp "$PERFAN_BIN" dump --at 1.5 "${O[@]}" "$D/perf.data" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q 'outside the recording' "$tmp/err" ||
	fail "dump --at outside: exit $rc, $(head -c 300 "$tmp/err")"
[ $fails -eq 0 ] && echo "dump: ok"
[ $fails -eq 0 ]
