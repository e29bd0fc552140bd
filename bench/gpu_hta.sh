#!/usr/bin/env bash
# bench/gpu_hta.sh: reading and analysing a torch.profiler (Kineto) trace,
# perfan against Holistic Trace Analysis (HTA) on the same file in the same
# run: `perfan gpu TRACE` (where the build has it; else `perfan collapse
# TRACE`, the read and the profile alone) against HTA's TraceAnalysis with
# get_temporal_breakdown and get_idle_time_breakdown, the two analyses HTA
# gives of a trace's GPU time (each tried: HTA fails on some traces, and
# the script says which). Prints each one's best wall time and peak RSS
# over RUNS runs, and the ratios (issue 37: perfan under 1/20 of HTA's
# time and 1/10 of its memory).
#
# Usage: HTA_DIR=DIR bench/gpu_hta.sh TRACE...
#        DIR: a checkout of github.com/facebookresearch/HolisticTraceAnalysis
#        (its top folder, the one holding hta/), run by Debian's python3
#        with python3-pandas, python3-numpy and python3-networkx.
# Env:   RUNS=3  PERFAN=build/perfan  PYTHON=/usr/bin/python3
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-3}
PERFAN=${PERFAN:-build/perfan}
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$PERFAN" ] || { echo "build perfan first ($PERFAN)" >&2; exit 1; }
[ -n "${HTA_DIR:-}" ] && [ -d "$HTA_DIR/hta" ] ||
	{ echo "HTA_DIR must name an HTA checkout (with hta/ in it)" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: HTA_DIR=DIR $0 TRACE..." >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# HTA reads every trace of a folder: one folder per trace
cat >"$out/hta.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from hta.trace_analysis import TraceAnalysis
a = TraceAnalysis(trace_dir=sys.argv[2])
for name, fn in [("temporal", lambda: a.get_temporal_breakdown(visualize=False)),
                 ("idle", lambda: a.get_idle_time_breakdown(visualize=False))]:
    try:
        fn()
        print(name, "ok", file=sys.stderr)
    except Exception as e:  # HTA's own failure on this trace, said
        print(name, "ERROR", repr(e), file=sys.stderr)
EOF

if "$PERFAN" gpu --help >/dev/null 2>&1; then cmd=gpu; else cmd=collapse; fi

# best of RUNS: prints "SECONDS MAXRSS_KB"
measure() {
	local best=""
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -o "$out/t" -f "%e %M" "$@" >/dev/null 2>"$out/err" ||
			{ cat "$out/err" >&2; return 1; }
		read -r s kb < <(tail -1 "$out/t")
		if [ -z "$best" ] || awk "BEGIN{exit !($s < ${best% *})}"; then
			best="$s $kb"
		fi
	done
	echo "$best"
}
row() { printf '%-44s %8s s %10s KB\n' "$1" "$2" "$3"; }

for trace in "$@"; do
	name=$(basename "$trace")
	mkdir -p "$out/${name%%.*}"
	ln -sf "$(realpath "$trace")" "$out/${name%%.*}/$name"
	echo "trace: $name ($(($(stat -c %s "$trace") / 1000)) KB)"
	cat "$trace" >/dev/null # warm the page cache
	read -r t_p m_p < <(measure "$PERFAN" "$cmd" "$trace")
	read -r t_h m_h < <(measure "$PYTHON" "$out/hta.py" "$HTA_DIR" "$out/${name%%.*}")
	grep -E '^(temporal|idle) ' "$out/err" | sed 's/^/  HTA /' || true
	row "perfan $cmd" "$t_p" "$m_p"
	row "HTA temporal + idle-time breakdown" "$t_h" "$m_h"
	awk -v a="$t_p" -v b="$t_h" -v c="$m_p" -v d="$m_h" 'BEGIN {
		printf "perfan: %.3f of HTA'"'"'s time, %.3f of its memory\n",
			(a > 0 ? a : 0.01) / b, c / d }'
done
