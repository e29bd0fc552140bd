#!/usr/bin/env bash
# damage_text.sh: text inputs damaged past what a format allows (issue 36,
# item 8), made here from testdata's real files:
#  - a NUL byte in a line, past the first 64 KiB (folded, py-spy) or in the
#    first bytes (folded, py-spy, bpftrace): an error naming the file, the
#    line and the column, never a name cut silently at it;
#  - a stack of 1,000,000 frames (folded, py-spy) and of 20,000 (bpftrace):
#    cut to PERFAN_MAX_STACK_DEPTH (16,384) frames nearest the root, said
#    once with the count of stacks cut, the flame graph a few MB, not 174;
#  - a 10 MB py-spy thread name: cut to PERFAN_MAX_NAME (4,096 bytes), said
#    once, report --json and collapse a few KB, not 63 and 10 MB;
#  - header of a stream (a pipe): "captured on" unknown, not the time it
#    was read.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

run() { # OUT ERR ARGS...: perfan ARGS, the exit status in $rc
	local out=$1 err=$2
	shift 2
	rc=0
	HOME=$tmp timeout 120 "$PERFAN_BIN" "$@" >"$out" 2>"$err" || rc=$?
}
FOLDED=testdata/script-wild/gcbox.folded
PYSPY=testdata/pyspy/raw-threads.txt
BPF=testdata/bpftrace/kstack-ustack.txt

# ---- NUL bytes: the inputs and where the NUL is, from python ----------
python3 - "$tmp" "$FOLDED" "$PYSPY" "$BPF" <<'PY' >"$tmp/nul.list"
import sys
tmp, folded, pyspy, bpf = sys.argv[1:5]
def damage(name, src, at_least):
    lines = open(src, "rb").read().splitlines()
    out, size = [], 0
    while size <= at_least or not out:       # real lines, repeated
        for l in lines:
            out.append(l)
            size += len(l) + 1
    # the first line past AT_LEAST bytes (the first line for 0) whose
    # text has a ';' or a '+' (a frame): a NUL into its second frame
    size = 0
    for i, l in enumerate(out):
        if size >= at_least and (b";" in l or b"+" in l):
            sep = b";" if b";" in l else b"+"
            col = l.index(sep) + 2          # 1-based, after the separator
            out[i] = l[:col - 1] + b"\0" + l[col - 1:]
            break
        size += len(l) + 1
    open("%s/%s" % (tmp, name), "wb").write(b"\n".join(out) + b"\n")
    print(name, i + 1, col)
damage("late.folded", folded, 70000)
damage("late.pyspy.txt", pyspy, 70000)
damage("early.folded", folded, 0)
damage("early.pyspy.txt", pyspy, 0)
damage("early.bpftrace.txt", bpf, 0)
PY
while read -r name line col; do
	checks=$((checks + 1))
	run "$tmp/out" "$tmp/err" collapse "$tmp/$name"
	# (as every reader of perfan's says where: "FILE: offset N (line L):
	# ...", N the line's offset; bpftrace's the byte's, no column)
	[ "$rc" = 1 ] && grep -q "^perfan collapse: $tmp/$name: offset [0-9]* (line $line): \(a NUL byte at column $col\|bpftrace output: a NUL byte\)" "$tmp/err" ||
		fail "$name (line $line, column $col): exit $rc: $(head -c 300 "$tmp/err")"
done <"$tmp/nul.list"

# ---- deep stacks ------------------------------------------------------------
python3 - "$tmp" "$FOLDED" "$PYSPY" "$BPF" <<'PY'
import sys
tmp, folded, pyspy, bpf = sys.argv[1:5]
# a real line's frames, its deepest repeated (a runaway recursion)
l = open(folded).read().splitlines()[1]
stack, count = l.rsplit(" ", 1)
f = stack.split(";")
open(tmp + "/deep.folded", "w").write(
    ";".join(f + [f[-1]] * 1000000) + " " + count + "\n" + l + "\n")
l = open(pyspy).read().splitlines()[0]
stack, count = l.rsplit(" ", 1)
f = stack.split(";")
open(tmp + "/deep.pyspy.txt", "w").write(
    ";".join(f + [f[-1]] * 1000000) + " " + count + "\n" + l + "\n")
# bpftrace: the first entry's user frame "main+103" 20,000 times more
t = open(bpf).read()
open(tmp + "/deep.bpftrace.txt", "w").write(
    t.replace("    main+103\n", "    main+103\n" * 20001, 1))
PY
for name in deep.folded deep.pyspy.txt deep.bpftrace.txt; do
	checks=$((checks + 1))
	run "$tmp/out" "$tmp/err" collapse "$tmp/$name"
	n=$(grep -c "1 stacks deeper than 16384 frames were cut" "$tmp/err")
	[ "$rc" = 0 ] && [ "$n" = 1 ] ||
		fail "$name: exit $rc, $n warnings: $(head -c 300 "$tmp/err")"
	deepest=$(awk '{n = gsub(";", ";"); if (n > m) m = n} END {print m + 1}' "$tmp/out")
	# the process root of py-spy and bpftrace is a frame of its own
	[ "$deepest" -le 16385 ] && [ "$deepest" -ge 16384 ] ||
		fail "$name: the deepest stack has $deepest frames"
done
run "$tmp/deep.svg" "$tmp/err" flamegraph "$tmp/deep.folded"
size=$(stat -c %s "$tmp/deep.svg")
[ "$rc" = 0 ] && [ "$size" -lt $((10 << 20)) ] ||
	fail "flamegraph of a 1,000,000-frame stack: exit $rc, $size bytes"

# ---- a 10 MB thread name ---------------------------------------------------
python3 - "$tmp" "$PYSPY" <<'PY'
import sys
tmp, pyspy = sys.argv[1:3]
t = open(pyspy).read().replace("worker;", "worker" + "x" * (10 << 20) + ";")
open(tmp + "/name.pyspy.txt", "w").write(t)
PY
for cmd in "report --json" collapse; do
	checks=$((checks + 1))
	run "$tmp/out" "$tmp/err" $cmd "$tmp/name.pyspy.txt"
	size=$(stat -c %s "$tmp/out")
	n=$(grep -c "names longer than 4096 bytes were cut" "$tmp/err")
	[ "$rc" = 0 ] && [ "$n" = 1 ] && [ "$size" -lt $((1 << 20)) ] ||
		fail "$cmd of a 10 MB thread name: exit $rc, $size bytes, $n warnings: $(head -c 300 "$tmp/err")"
done

# ---- header of a stream ----------------------------------------------------
checks=$((checks + 1))
cat testdata/pipe/perf.data | HOME=$tmp "$PERFAN_BIN" header - >"$tmp/h" 2>"$tmp/err"
grep -q "^# captured on    : unknown (a stream)$" "$tmp/h" ||
	fail "header of a pipe: $(grep 'captured on' "$tmp/h")"
# a file keeps its time (perf's: the file's modification time)
HOME=$tmp "$PERFAN_BIN" header testdata/pipe/perf.data >"$tmp/h"
grep -q "^# captured on    : $(LC_ALL=C date -r testdata/pipe/perf.data '+%a %b %e %H:%M:%S %Y')$" "$tmp/h" ||
	fail "header of a file: $(grep 'captured on' "$tmp/h")"

[ $fails -eq 0 ] && echo "damage_text: ok ($checks checks)"
[ $fails -eq 0 ]
