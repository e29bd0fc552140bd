#!/bin/bash
# tests/cli/kineto_read.sh: torch.profiler (Kineto) traces read into the
# trace model. For every trace in ../shared/peer-data/kineto, `perfan header
# --json` equals what Python's json and gzip modules read from the same file
# (tests/tools/kineto_oracle.py: events per kind, GPU streams, threads and
# their names, devices, the first start and last end in exact ns, GPU work
# linked to its launch, events skipped); perfan gpu's analysis the same
# with the gzip inflated on a second thread and on one; a copy without the
# kernels'
# correlation args links them through the ac2g flows; traces cut short and
# damaged copies give a result or a clear error, never a crash or a hang.
# Skipped (77) without ../shared.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
D=$PEERDATA/kineto
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

. tests/tools/cli_common.sh

"$BIN" header --help | grep -q 'PERF.DATA|TRACE' ||
	fail "header --help does not name TRACE"

if [ ! -d "$D" ]; then
	echo "SKIP: no $D (../shared is absent)"
	exit 77
fi

# A run that must end, in time, with a result or "perfan header: ..." (1).
sane() { # WHAT FILE
	timeout 30 "$BIN" header --json "$2" >"$tmp/o" 2>"$tmp/e"
	local rc=$?
	checks=$((checks + 1))
	case $rc in
	0) ;;
	1) grep -q '^perfan header: .' "$tmp/e" ||
		fail "$1: status 1 without a message: $(head -c 300 "$tmp/e")" ;;
	124) fail "$1: no end within 30 s" ;;
	*) fail "$1: status $rc: $(head -c 300 "$tmp/e")" ;;
	esac
	return $rc
}

# ---- every trace against Python's reading of it ------------------------------
n=0
for f in "$D"/*.json "$D"/*.json.gz; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if ! "$BIN" header --json "$f" >"$tmp/h.json" 2>"$tmp/e"; then
		fail "$f: $(cat "$tmp/e")"
		continue
	fi
	"$PY" tests/tools/kineto_oracle.py "$f" "$tmp/h.json" >"$tmp/oracle" ||
		fail "$(grep -v '^oracle:' "$tmp/oracle")"
	checks=$((checks + 1))
	"$BIN" header "$f" >"$tmp/h.txt" &&
		grep -qx '# format: torch.profiler' "$tmp/h.txt" ||
		fail "$f: the text header does not name the format"
	# inflated on a second thread or on this one: the same analysis
	checks=$((checks + 1))
	"$BIN" gpu --json --threads 1 "$f" >"$tmp/g1" 2>&1
	"$BIN" gpu --json --threads 2 "$f" >"$tmp/g2" 2>&1
	cmp -s "$tmp/g1" "$tmp/g2" ||
		fail "$f: perfan gpu on one thread and on two differ"
done
[ "$n" -ge 13 ] || fail "only $n traces in $D"

# ---- correlations from flows ---------------------------------------------------
f=$D/hta-event_sync-a100.json.gz
"$PY" - "$f" "$tmp/noc.json" <<'PYEOF'
import gzip, json, sys
doc = json.load(gzip.open(sys.argv[1], "rt"))
n = 0
for e in doc["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy",
                                               "cuda_runtime"):
        n += e.get("args", {}).pop("correlation", None) is not None
assert n > 5, n
json.dump(doc, open(sys.argv[2], "w"))
PYEOF
"$BIN" header --json "$tmp/noc.json" >"$tmp/h.json" &&
	"$PY" tests/tools/kineto_oracle.py "$tmp/noc.json" "$tmp/h.json" \
		>"$tmp/oracle" || fail "flows: $(cat "$tmp/oracle")"
grep -q '"gpu_work_linked": 5,' "$tmp/h.json" &&
	grep -q '"gpu_work": 5,' "$tmp/h.json" ||
	fail "flows: the 5 kernels and copies are not linked through ac2g"
checks=$((checks + 1))

# ---- cut and damaged copies through the CLI (every prefix and many flips:
# tests/unit/check_kineto.c) ------------------------------------------------------
f=$D/hta-event_sync-a100.json.gz
size=$(stat -c %s "$f")
for cut in 1 3 100 $((size / 2)) $((size - 1)); do
	head -c "$cut" "$f" >"$tmp/cut.json.gz"
	if sane "$f cut at $cut" "$tmp/cut.json.gz"; then
		fail "$f cut at $cut read as a whole trace"
	elif [ "$cut" -ge 1000 ] && ! grep -q "cut short" "$tmp/e"; then
		fail "$f cut at $cut: $(cat "$tmp/e")"
	fi
done
f=$D/hta-call_stack-backward_thread.json
head -c 2000 "$f" >"$tmp/cut.json"
sane "$f cut at 2000" "$tmp/cut.json" && fail "$f cut at 2000 read"
grep -q "^perfan header: $tmp/cut.json: offset [0-9]* (line [0-9]*): " \
	"$tmp/e" || fail "cut JSON: $(cat "$tmp/e")"
for seed in 1 2 3 4 5 6; do
	"$PY" - "$f" "$tmp/bad.json" "$seed" <<'PYEOF'
import random, sys
b = bytearray(open(sys.argv[1], "rb").read())
r = random.Random(int(sys.argv[3]))
for _ in range(r.choice((1, 2, 5))):
    b[r.randrange(len(b))] = r.choice(b'{}[]",:0123456789.eE-x \x00\xff')
open(sys.argv[2], "wb").write(b)
PYEOF
	sane "$f damaged (seed $seed)" "$tmp/bad.json"
done

[ "$fails" = 0 ] && echo "ok: kineto_read: $n traces, $checks checks"
[ "$fails" = 0 ]
