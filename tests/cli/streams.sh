#!/usr/bin/env bash
# streams.sh: inputs that are streams are read once: a pipe-mode perf.data
# (and perf script text, folded stacks, a file-mode perf.data) through a
# FIFO, /dev/stdin, <(...) and a socket gives what the same file by path
# gives; a stream that stalls after an error does not keep perfan waiting;
# endless or binary streams (/dev/zero, `yes`) end in a clear error, in
# bounded time and memory.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
bounded() { python3 tests/tools/bounded.py "$@"; }
TD=testdata
R=(--symfs "$TD/pipe" --kallsyms "$TD/kallsyms" --buildid-dir "$tmp/no-cache")

# run CMD... with OUT (stdout) and ERR (stderr) files; the status in $rc
run() {
	local out=$1 err=$2
	shift 2
	rc=0
	bounded 30 1024 "$@" >"$out" 2>"$err" || rc=$?
}

# ---- 1. a pipe-mode perf.data: FIFO, /dev/stdin, <(...), socket ---------------

pipe=$TD/pipe/perf.data
"$PERFAN_BIN" collapse "${R[@]}" "$pipe" >"$tmp/want.folded" 2>/dev/null
"$PERFAN_BIN" report "${R[@]}" "$pipe" 2>/dev/null | tail -n +2 >"$tmp/want.report"
"$PERFAN_BIN" stats "$pipe" >"$tmp/want.stats"
[ -s "$tmp/want.folded" ] || fail "no folded stacks from $pipe"

mkfifo "$tmp/fifo"
for cmd in collapse report stats header; do
	args=("${R[@]}")
	[ "$cmd" = stats ] || [ "$cmd" = header ] && args=()
	cat "$pipe" >"$tmp/fifo" &
	pids+=($!)
	run "$tmp/fifo.$cmd" "$tmp/fifo.$cmd.err" "$PERFAN_BIN" "$cmd" "${args[@]}" "$tmp/fifo"
	[ "$rc" = 0 ] || fail "$cmd of a FIFO: exit $rc: $(cat "$tmp/fifo.$cmd.err")"
done
cmp -s "$tmp/fifo.collapse" "$tmp/want.folded" || fail "collapse of a FIFO differs from the file's"
tail -n +2 "$tmp/fifo.report" | cmp -s - "$tmp/want.report" || fail "report of a FIFO differs"
cmp -s "$tmp/fifo.stats" "$tmp/want.stats" || fail "stats of a FIFO differs"
grep -q "^# data size" "$tmp/fifo.header" || grep -q "pipe" "$tmp/fifo.header" ||
	fail "header of a FIFO: $(head -3 "$tmp/fifo.header")"

run "$tmp/ps.folded" "$tmp/ps.err" "$PERFAN_BIN" collapse "${R[@]}" <(cat "$pipe")
[ "$rc" = 0 ] && cmp -s "$tmp/ps.folded" "$tmp/want.folded" ||
	fail "collapse <(cat pipe.data): exit $rc $(cat "$tmp/ps.err")"
rc=0
cat "$pipe" | bounded 30 1024 "$PERFAN_BIN" report "${R[@]}" /dev/stdin >"$tmp/stdin.report" 2>"$tmp/stdin.err" || rc=$?
[ "$rc" = 0 ] && tail -n +2 "$tmp/stdin.report" | cmp -s - "$tmp/want.report" ||
	fail "... | report /dev/stdin: exit $rc $(cat "$tmp/stdin.err")"
rc=0
cat "$pipe" | bounded 30 1024 "$PERFAN_BIN" stats /dev/stdin >"$tmp/stdin.stats" 2>"$tmp/stdin.err" || rc=$?
[ "$rc" = 0 ] && cmp -s "$tmp/stdin.stats" "$tmp/want.stats" || fail "... | stats /dev/stdin: exit $rc"
# a regular file as /dev/stdin is mapped as the file it is
rc=0
bounded 30 1024 "$PERFAN_BIN" collapse "${R[@]}" /dev/stdin <"$pipe" >"$tmp/redir.folded" 2>/dev/null || rc=$?
[ "$rc" = 0 ] && cmp -s "$tmp/redir.folded" "$tmp/want.folded" || fail "collapse /dev/stdin < file: exit $rc"

# a socket as standard input ("-"; /dev/stdin cannot be opened on one)
python3 - "$PERFAN_BIN" "$pipe" "$tmp/sock.folded" "${R[@]}" <<'EOF' || fail "collapse - from a socket"
import socket, subprocess, sys, threading
perfan, data, out, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
a, b = socket.socketpair()
def send():
    with open(data, "rb") as f:
        a.sendall(f.read())
    a.close()
threading.Thread(target=send).start()
with open(out, "wb") as o:
    rc = subprocess.run([perfan, "collapse", *rest, "-"], stdin=b, stdout=o,
                        stderr=subprocess.DEVNULL, timeout=30).returncode
sys.exit(rc)
EOF
cmp -s "$tmp/sock.folded" "$tmp/want.folded" || fail "collapse of a socket differs from the file's"

# the tracepoint recording whose TRACING_DATA payload follows its header
run "$tmp/sp.stats" "$tmp/sp.err" "$PERFAN_BIN" stats <(cat "$TD/sched-pipe/perf.data")
"$PERFAN_BIN" stats "$TD/sched-pipe/perf.data" >"$tmp/sp.want"
[ "$rc" = 0 ] && cmp -s "$tmp/sp.stats" "$tmp/sp.want" || fail "stats <(sched-pipe): exit $rc"

# text inputs through a FIFO and <(...): folded stacks, perf script text
printf 'a;b 2\nb;c 1\na;b 3\n' >"$tmp/in.folded"
cat "$tmp/in.folded" >"$tmp/fifo" &
pids+=($!)
run "$tmp/ff.out" "$tmp/ff.err" "$PERFAN_BIN" collapse "$tmp/fifo"
[ "$rc" = 0 ] && [ "$(cat "$tmp/ff.out")" = "$(printf 'a;b 5\nb;c 1')" ] ||
	fail "folded through a FIFO: exit $rc $(cat "$tmp/ff.out" "$tmp/ff.err")"
"$PERFAN_BIN" collapse "$TD/fp/script.txt" >"$tmp/script.want" 2>/dev/null
run "$tmp/script.out" "$tmp/script.err" "$PERFAN_BIN" collapse <(cat "$TD/fp/script.txt")
[ "$rc" = 0 ] && cmp -s "$tmp/script.out" "$tmp/script.want" || fail "perf script text through <(...): exit $rc"

# a file-mode perf.data through a stream is kept in a temporary file as it
# is read once (its features follow the records): what the path gives
"$PERFAN_BIN" report "${R[@]}" "$TD/fp/perf.data" 2>/dev/null | tail -n +2 >"$tmp/fm.want"
cat "$TD/fp/perf.data" >"$tmp/fifo" 2>/dev/null &
pids+=($!)
run "$tmp/fm.out" "$tmp/fm.err" "$PERFAN_BIN" report "${R[@]}" "$tmp/fifo"
[ "$rc" = 0 ] && tail -n +2 "$tmp/fm.out" | cmp -s - "$tmp/fm.want" ||
	fail "file-mode perf.data through a FIFO: exit $rc $(cat "$tmp/fm.err")"

# ---- 2. a stream that stalls after damage does not keep us waiting ----------

# 3000 bytes of the recording, then a record of size 0, then nothing for
# 20 s: perfan must stop at the damage, not wait for the writer
start=$(date +%s)
rc=0
bounded 15 1024 "$PERFAN_BIN" collapse "${R[@]}" \
	<(head -c 3000 "$pipe"; printf '\0\0\0\0\0\0\0\0'; exec sleep 20) \
	>/dev/null 2>"$tmp/stall.err" || rc=$?
pids+=($!)
took=$(($(date +%s) - start))
[ "$rc" = 1 ] && grep -q "size 0" "$tmp/stall.err" && [ "$took" -lt 10 ] ||
	fail "a stalled damaged stream: exit $rc after ${took}s: $(cat "$tmp/stall.err")"

# ---- 3. endless and binary streams: a clear error, bounded ----------------

run "$tmp/zero.out" "$tmp/zero.err" "$PERFAN_BIN" classify /dev/zero
[ "$rc" = 1 ] && grep -q "/dev/zero: offset 0: a NUL byte" "$tmp/zero.err" ||
	fail "classify /dev/zero: exit $rc $(cat "$tmp/zero.err")"
rc=0
yes | bounded 30 512 "$PERFAN_BIN" classify >/dev/null 2>"$tmp/yes.err" || rc=$?
[ "$rc" = 1 ] && grep -q "standard input: more than 67108864 bytes" "$tmp/yes.err" ||
	fail "yes | classify: exit $rc $(cat "$tmp/yes.err")"
rc=0
head -c 3000000 /dev/zero | tr '\0' 'x' | bounded 30 512 "$PERFAN_BIN" classify >/dev/null 2>"$tmp/line.err" || rc=$?
[ "$rc" = 1 ] && grep -q "standard input:1: a line longer than 1048576 bytes" "$tmp/line.err" ||
	fail "classify of an endless line: exit $rc $(cat "$tmp/line.err")"
# folded stacks and perf script text without an end of line: the line
# cap of the text readers
rc=0
yes 'a;' | tr -d '\n' | bounded 30 512 "$PERFAN_BIN" collapse - >/dev/null 2>"$tmp/fl.err" || rc=$?
[ "$rc" = 1 ] && grep -q "<stdin>:1: line longer than 67108864 bytes" "$tmp/fl.err" ||
	fail "collapse of an endless folded line: exit $rc $(cat "$tmp/fl.err")"
rc=0
{ printf 'p 1 1.0: 1 cpu-clock:\n'; yes $'\tffff a (b)' | tr -d '\n'; } |
	bounded 30 512 "$PERFAN_BIN" collapse - >/dev/null 2>"$tmp/sl.err" || rc=$?
[ "$rc" = 1 ] && grep -q "<stdin>:2: line longer than 67108864 bytes" "$tmp/sl.err" ||
	fail "collapse of an endless perf script line: exit $rc $(cat "$tmp/sl.err")"
for cmd in collapse report flamegraph; do
	run "$tmp/z.$cmd" "$tmp/z.$cmd.err" "$PERFAN_BIN" "$cmd" /dev/zero
	[ "$rc" = 1 ] && grep -q "/dev/zero: neither perf.data" "$tmp/z.$cmd.err" ||
		fail "$cmd /dev/zero: exit $rc $(cat "$tmp/z.$cmd.err")"
done
run "$tmp/z.stats" "$tmp/z.stats.err" "$PERFAN_BIN" stats /dev/zero
[ "$rc" = 1 ] && grep -q "not a perf.data file" "$tmp/z.stats.err" ||
	fail "stats /dev/zero: exit $rc $(cat "$tmp/z.stats.err")"

[ "$fails" = 0 ] || exit 1
echo "ok: FIFO, /dev/stdin, <(...), a socket: read once, as by path (perf.data, folded, perf script); a stalled stream, /dev/zero, yes and an endless line: clear errors in bounded time and memory"
