#!/usr/bin/env bash
# killed.sh: a recording whose perf record was killed (testdata/killed:
# data size 0 in the header, feature bits set, no feature sections) keeps
# its samples: every command reads its records to the last whole one, says
# once that the recording was cut, and succeeds; perf 6.1 itself fails on
# it. The cut-and-closed pair: perfan reads the closed one as perf script
# does, and check_cut (unit) shows the cut one is its start.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
K=testdata/killed
R=(--symfs "$K" --kallsyms testdata/kallsyms --buildid-dir "$tmp/no-cache")
samples=$(awk '$1 == "SAMPLE" { print $3 }' "$K/structure.txt")
[ "$samples" -gt 500 ] || fail "structure.txt: $samples samples"
# perf's own reading fails (the reason the oracle is the structural walk)
grep -q "data size field is 0" "$K/perf-script-fails.txt" || fail "perf-script-fails.txt"
grep -q "failed to process sample" "$K/perf-stats-fails.txt" || fail "perf-stats-fails.txt"

# one warning, naming the cut (not 21 from samples read as features)
warned_once() {
	local err=$1 what=$2
	[ "$(grep -c "" "$err")" = 1 ] && grep -q "the recording was cut: data size 0" "$err" ||
		fail "$what: not one warning that the recording was cut: $(cat "$err")"
}

"$PERFAN_BIN" stats "$K/perf.data" >"$tmp/stats" 2>"$tmp/stats.err" || fail "stats: exit $?"
warned_once "$tmp/stats.err" stats
grep -q "SAMPLE events: *$samples\$" "$tmp/stats" || fail "stats: not $samples samples: $(grep SAMPLE "$tmp/stats")"

"$PERFAN_BIN" collapse --samples "${R[@]}" "$K/perf.data" >"$tmp/k.folded" 2>"$tmp/collapse.err" ||
	fail "collapse: exit $?"
grep -v "unverified" "$tmp/collapse.err" >"$tmp/collapse.err2" || true
warned_once "$tmp/collapse.err2" collapse
got=$(awk '{ s += $NF } END { print s }' "$tmp/k.folded")
[ "$got" = "$samples" ] || fail "collapse: $got samples, not $samples"
for f in hot_a hot_b cold_c; do
	grep -q "main;work;$f " "$tmp/k.folded" || fail "collapse: no main;work;$f stack"
done

"$PERFAN_BIN" report "${R[@]}" "$K/perf.data" >"$tmp/report" 2>/dev/null || fail "report: exit $?"
grep -q "^# $samples samples" "$tmp/report" || fail "report: $(sed -n 2p "$tmp/report")"
"$PERFAN_BIN" header --json "$K/perf.data" >"$tmp/header.json" 2>/dev/null || fail "header: exit $?"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d["data_size"] == 0 else 1)' \
	"$tmp/header.json" || fail "header --json: data_size is not 0"
"$PERFAN_BIN" flamegraph "${R[@]}" -o "$tmp/k.svg" "$K/perf.data" 2>/dev/null || fail "flamegraph: exit $?"
grep -q "hot_a" "$tmp/k.svg" || fail "flamegraph: no hot_a"

# the closed recording, read as perf script reads it; the cut copy of its
# start has fewer samples, all of them stacks the closed one has
python3 tests/tools/collapse_agree.py "$PERFAN_BIN" "$K" "$K/perf.closed.data" \
	<(zstd -dc "$K/script.closed.txt.zst") || fail "perf.closed.data vs perf script"
cut=$(awk '$1 == "SAMPLE" { print $3 }' "$K/structure.cut.txt")
"$PERFAN_BIN" collapse --samples "${R[@]}" "$K/perf.cut.data" >"$tmp/cut.folded" 2>/dev/null
"$PERFAN_BIN" collapse --samples "${R[@]}" "$K/perf.closed.data" >"$tmp/closed.folded" 2>/dev/null
got=$(awk '{ s += $NF } END { print s }' "$tmp/cut.folded")
[ "$got" = "$cut" ] || fail "perf.cut.data: $got samples, not $cut"
python3 - "$tmp/cut.folded" "$tmp/closed.folded" <<'EOF' || fail "a cut stack that the closed recording has fewer of"
import sys
def read(p):
    d = {}
    for line in open(p):
        s, n = line.rsplit(" ", 1)
        d[s] = int(n)
    return d
cut, closed = read(sys.argv[1]), read(sys.argv[2])
bad = [s for s, n in cut.items() if closed.get(s, 0) < n]
for s in bad:
    print("  %s: %d cut, %d closed" % (s, cut[s], closed.get(s, 0)))
sys.exit(1 if bad else 0)
EOF

[ "$fails" = 0 ] || exit 1
echo "ok: a killed perf record's file: its $samples samples (as walked), one warning that it was cut, exit 0, in stats, collapse, report, header, flamegraph; the closed recording as perf script reads it, its cut start a part of it"
