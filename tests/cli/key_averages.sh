#!/usr/bin/env bash
# key_averages.sh: perfan gpu --key-averages on the traces Debian's torch
# 1.13 wrote (testdata/torch) against torch's own key_averages() of the
# same run, kept beside each trace: the same keys, each with the same count,
# self CPU time and CPU total (and CUDA times, 0 here); the text table's
# rows are torch's table() rows. Tolerance: torch 1.13 times are whole
# microseconds and its sums of them are exact in doubles, so perfan's ns
# must equal torch's us * 1000 to within half a ns (what printing a double
# may cost), i.e. exactly. Then cuts and damaged copies of a trace:
# a result or a clear error (exit 1, "NAME: offset N"), never a
# crash.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
T=testdata/torch
. tests/tools/cli_common.sh

for name in mlp decode threads; do
	checks=$((checks + 1))
	"$PERFAN_BIN" gpu --key-averages --json "$T/$name.json" >"$tmp/$name.out" ||
		{ fail "$name: exit $?"; continue; }
	python3 - "$tmp/$name.out" "$T/$name.key_averages.json" >"$tmp/cmp" <<'PY' ||
import json, sys
ours = json.load(open(sys.argv[1]))["key_averages"]["rows"]
theirs = json.load(open(sys.argv[2]))["rows"]
o = {(r["key"], r["gpu"]): r for r in ours}
t = {(r["key"], r["device_type"] != "DeviceType.CPU"): r for r in theirs}
bad = [("only in perfan" if k in o else "only in torch", k)
       for k in set(o) ^ set(t)]
for k in set(o) & set(t):
    if o[k]["count"] != t[k]["count"]:
        bad.append((k, "count", o[k]["count"], t[k]["count"]))
    for f in ("self_cpu_time_total", "cpu_time_total",
              "self_cuda_time_total", "cuda_time_total"):
        if abs(o[k][f] - t[k][f] * 1000.0) > 0.5:
            bad.append((k, f, o[k][f], t[k][f]))
if len(t) < 20 or bad:
    print(len(t), "keys;", bad)
    sys.exit(1)
PY
		fail "$name: $(cat "$tmp/cmp")"
	# the table's rows and its total, as torch printed them (rows of
	# equal self time may come in another order)
	checks=$((checks + 1))
	"$PERFAN_BIN" gpu --key-averages "$T/$name.json" >"$tmp/$name.txt"
	sed -n '4,/^---/p' "$tmp/$name.txt" | sort >"$tmp/a"
	sed -n '4,/^---/p' "$T/$name.key_averages.txt" | sort >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || fail "$name: rows differ: $(diff "$tmp/a" "$tmp/b" | head -5)"
	checks=$((checks + 1))
	grep -q "^$(grep '^Self CPU time total' "$T/$name.key_averages.txt")\$" "$tmp/$name.txt" ||
		fail "$name: the total differs"
	grep -q "overlapping streams counts twice" "$tmp/$name.txt" ||
		fail "$name: no note on what the table misses"
done

# a cut and damaged copies through the command (every prefix and each
# byte damaged are read in process by tests/unit/check_autograd.c): exit
# 0, or 1 with one message naming the file (and an offset in it when the
# copy is still read as the autograd layout), never a crash
run() { # FILE WHAT
	local rc=0
	"$PERFAN_BIN" gpu --key-averages --json "$1" >/dev/null 2>"$tmp/e" || rc=$?
	checks=$((checks + 1))
	if [ $rc = 1 ]; then
		if head -c 300 "$1" | grep -aq '^\[{.*"pid": "CPU functions"'; then
			grep -q "$1: offset [0-9]*" "$tmp/e" || fail "$2: $(cat "$tmp/e")"
		else
			grep -q "$1" "$tmp/e" || fail "$2: $(cat "$tmp/e")"
		fi
	elif [ $rc != 0 ]; then
		fail "$2: exit $rc: $(cat "$tmp/e")"
	fi
}
size=$(stat -c %s "$T/threads.json")
for n in 0 1 2 50 $((size / 3)) $((size / 2)) $((size - 2)) $((size - 1)); do
	head -c "$n" "$T/threads.json" >"$tmp/p.json"
	run "$tmp/p.json" "prefix of $n bytes"
	# under 100 bytes no "pid" is seen yet: not a trace, said so
	[ "$n" -lt 100 ] || grep -q "p.json: offset" "$tmp/e" || fail "prefix of $n bytes read"
done
python3 - "$T/threads.json" "$tmp" <<'PY'
import random, sys
data = open(sys.argv[1], "rb").read()
rnd = random.Random(37)
for i in range(30):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        b[rnd.randrange(len(b))] = rnd.choice(b'"{}[],:0123456789-.eE \x00\xff')
    open("%s/d%03d.json" % (sys.argv[2], i), "wb").write(bytes(b))
PY
for f in "$tmp"/d*.json; do
	run "$f" "damaged $(basename "$f")"
done

echo "key_averages: $checks checks, $fails failed"
[ $fails = 0 ]
