#!/usr/bin/env bash
# output_signal.sh: a signal that kills a command while -o writes its
# temporary file (OUT.tmpXXXXXX) removes that file, leaves OUT as it was,
# and the command dies of the signal (exit 128 + N as the shell reports
# it): SIGINT and SIGTERM during collapse -o and convert -o (issue 36,
# item 2), SIGHUP and SIGPIPE during collapse -o.
#
# Deterministic: the command is stopped (SIGSTOP) as soon as its temporary
# file appears, the file is checked to be there still, then the signal is
# sent and the command resumed. A run where the write was over before the
# stop proves nothing and is retried, up to 5 times.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

# A folded file large enough that writing its stacks takes a while: the
# py-spy recording's stacks, 20000 times over under distinct roots.
python3 - testdata/pyspy/raw.txt "$tmp/big.folded" <<'EOF'
import sys
lines = open(sys.argv[1]).read().splitlines()
with open(sys.argv[2], "w") as f:
    for i in range(20000):
        for l in lines:
            f.write("copy%d;%s\n" % (i, l))
EOF

cat >"$tmp/kill.py" <<'EOF'
# kill.py SIGNAL OUT CMD...: run CMD; once OUT.tmpXXXXXX appears, stop CMD,
# check the file is still there, send SIGNAL, resume CMD. Prints
# "killed STATUS LEFT" (STATUS as a shell reports it, LEFT the temporary
# files left beside OUT) or "missed" (the write was over first).
import os, re, signal, subprocess, sys, time
sig = getattr(signal, sys.argv[1])
out, cmd = sys.argv[2], sys.argv[3:]
d, base = os.path.split(out)
pat = re.compile(re.escape(base) + r"\.tmp[A-Za-z0-9]{6}$")
def temps():
    return [n for n in os.listdir(d) if pat.match(n)]
assert not temps()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 50
while not temps():
    if p.poll() is not None or time.monotonic() > deadline:
        if p.poll() is None:
            p.kill()
        p.wait()
        print("missed")
        sys.exit(0)
os.kill(p.pid, signal.SIGSTOP)
if not temps():
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    print("missed")
    sys.exit(0)
os.kill(p.pid, sig)
os.kill(p.pid, signal.SIGCONT)
try:
    rc = p.wait(timeout=50)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    rc = "hung"
print("killed", 128 - rc if isinstance(rc, int) and rc < 0 else rc,
      len(temps()))
EOF

# killed SIGNAL STATUS CMD ARGS: CMD -o OUT ARGS killed by SIGNAL while it
# writes must exit STATUS and leave OUT as it was, with no temporary file
try_kill() {
	local sig=$1 want=$2 cmd=$3 ext=$4
	shift 4
	checks=$((checks + 1))
	local n res=missed
	for n in 1 2 3 4 5; do
		local d=$tmp/run-$cmd-$sig-$n
		mkdir "$d"
		printf 'kept\n' >"$d/out$ext"
		res=$(timeout 120 python3 "$tmp/kill.py" "$sig" "$d/out$ext" \
			"$PERFAN_BIN" "$cmd" -o "$d/out$ext" "$@") || res="failed $?"
		[ "$res" = missed ] || break
	done
	case $res in
	"killed $want 0") ;;
	killed\ *) fail "$cmd -o, $sig: exit status and temporary files left: ${res#killed }, not $want 0" ;;
	*) fail "$cmd -o, $sig: $res" ;;
	esac
	[ "$(cat "$d/out$ext")" = kept ] || fail "$cmd -o, $sig: OUT was changed"
}

try_kill SIGINT 130 collapse .txt "$tmp/big.folded"
try_kill SIGTERM 143 collapse .txt "$tmp/big.folded"
try_kill SIGHUP 129 collapse .txt "$tmp/big.folded"
try_kill SIGPIPE 141 collapse .txt "$tmp/big.folded"
try_kill SIGINT 130 convert .pb.gz "$tmp/big.folded"
try_kill SIGTERM 143 convert .pb.gz "$tmp/big.folded"

[ "$fails" = 0 ] || exit 1
echo "ok: $checks signals during -o (collapse: INT, TERM, HUP, PIPE; convert: INT, TERM) removed the temporary file, kept OUT, exited 128+N"
