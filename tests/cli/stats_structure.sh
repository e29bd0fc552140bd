#!/usr/bin/env bash
# stats_structure.sh: on recordings that perf itself cannot read, perfan's
# record counts equal those of an independent walk of the file's structure
# (testdata/*/structure.txt, written by tests/tools/walk_pipe.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
n=0
for s in testdata/*/structure.txt; do
	dir=$(dirname "$s")
	got=$("$PERFAN_BIN" stats --json "$dir/perf.data" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for name, n in sorted(d["types"].items(), key=lambda kv: (-kv[1], kv[0])):
    print(name, n)')
	want=$(awk '{print $1, $3}' "$s" | sort -k2,2nr -k1,1 | sort -k2,2nr -k1,1 -s)
	got=$(printf '%s\n' "$got" | sort -k2,2nr -k1,1 -s)
	want=$(printf '%s\n' "$want" | sort -k2,2nr -k1,1 -s)
	if [ "$got" != "$want" ]; then
		echo "FAIL $dir: perfan stats differs from structure.txt"
		diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
		exit 1
	fi
	# and perf itself fails on it, which is why the oracle is structural
	grep -q "failed to process\|bad event header" "$dir/perf-stats-fails.txt"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no structure.txt cases found"; exit 1; }
echo "ok: $n recording(s) perf cannot read match their structure"
