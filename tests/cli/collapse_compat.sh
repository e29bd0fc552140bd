#!/bin/bash
# tests/cli/collapse_compat.sh: `perfan collapse --compat=flamegraph` gives
# what FlameGraph's stackcollapse-perf.pl gives on its 13 perf script
# captures under its six options, all 78 cases
# (../shared/tools/check-collapse-compat.sh), byte for byte. Without
# --compat perfan reads names by inferno's rules, and the count of the 78
# that still agree is printed, not required.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
check=$PEERDATA/../tools/check-collapse-compat.sh

if [ ! -x "$check" ] || [ ! -d "$PEERDATA/perf-script" ]; then
	echo "SKIP: no $check (../shared is absent)"
	exit 0
fi
out=$("$check" "$BIN" collapse --compat=flamegraph 2>&1)
status=$?
printf '%s\n' "$out"
last=$(printf '%s\n' "$out" | tail -1)
if [ "$status" != 0 ] || [ "$last" != "78 passed, 0 failed" ]; then
	echo "FAIL: want 78 passed, 0 failed"
	exit 1
fi
echo "without --compat=flamegraph (inferno's rules for names):" \
	"$("$check" "$BIN" collapse 2>&1 | tail -1 | sed 's/ passed.*/ of 78 the same/')"
