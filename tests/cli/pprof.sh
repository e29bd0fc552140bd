#!/usr/bin/env bash
# tests/cli/pprof.sh: `perfan convert` to pprof, read by Google's own pprof
# (built from Debian's packages into build/tools/pprof, PERFAN_PPROF): on
# frame-pointer, DWARF and Python recordings, `pprof -top` gives each top
# function the flat and cumulative shares `perfan report` gives it
# (--no-children self, children total) within 0.1 points, and
# `pprof -traces` gives back the stacks of `perfan collapse --tid` with
# their counts. Then the recording's facts in the file (pprof -raw), the
# folded output, and bad inputs and names failing cleanly.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
PPROF=${PERFAN_PPROF:-build/tools/pprof}
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

if [ ! -x "$PPROF" ]; then
	echo "FAIL: no pprof at $PPROF: run ./scripts/setup.sh (golang-go," \
		"golang-github-google-pprof-dev) and build again" >&2
	exit 1
fi
# pprof must not look for binaries or symbols anywhere: the file has them
export PPROF_BINARY_PATH=$tmp/none PPROF_TMPDIR=$tmp HOME=$tmp

# CASE FILE ARGS...: the recording testdata/CASE/FILE, resolved only from
# testdata, the host pinned to the recording machine
cases=(
	"fp perf.data"
	"dwarf perf.data"
	"py-handler perf312.data --perf-map-dir $TD/py-handler --jitdump-dir $TD/py-handler"
	"py-handler perf312fp.data --perf-map-dir $TD/py-handler"
)

run() {
	PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm \
		PERFAN_HOST_KALLSYMS= "$PERFAN_BIN" "$@"
}

# shares FILE: "name flat% cum%" per function of pprof -top
pprof_shares() {
	"$PPROF" -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 \
		"$1" 2>/dev/null | awk '
		/^ *flat  *flat%/ { on = 1; next }
		on && NF >= 6 {
			name = $6; for (i = 7; i <= NF; i++) name = name " " $i
			sub(/%$/, "", $2); sub(/%$/, "", $5)
			print name "\t" $2 "\t" $5
		}'
}

# report_shares JSON: "name self% total%" per symbol
report_shares() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["columns"][0]["rows"]:
    print("%s\t%.4f\t%.4f" % (r["sym"], r["self_percent"], r["total_percent"]))
' "$1"
}

# traces_folded: pprof -traces on stdin as folded stacks "THREAD;root;...;leaf N"
traces_folded() {
	python3 -c '
import sys, collections
out = collections.Counter()
def flush(thread, frames, n):
    if frames:
        out[";".join([thread] + frames[::-1]) ] += n
thread, frames, n = "", [], 0
started = False
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("-----------+"):
        flush(thread, frames, n)
        thread, frames, n, started = "", [], 0, True
        continue
    if not started:
        continue
    if ":" in line[:12] and line.split(":", 1)[0].strip() in ("comm", "thread", "pid", "tid"):
        k, v = line.split(":", 1)
        if k.strip() == "thread":
            thread = v.strip()
        continue
    head, name = line[:11], line[13:]
    if head.strip():
        n = int(head.strip())
    if name.endswith(" (inline)"):
        name = name[: -len(" (inline)")]
    frames.append(name)
flush(thread, frames, n)
for k in sorted(out):
    print(k, out[k])
'
}

for c in "${cases[@]}"; do
	read -r kase file extra <<<"$c"
	# shellcheck disable=SC2206
	args=(--symfs "$TD/$kase" --kallsyms "$TD/kallsyms"
		--buildid-dir "$tmp/no-cache" $extra)
	in=$TD/$kase/$file
	name="$kase/$file"
	if ! run convert "${args[@]}" "$in" -o "$tmp/p.pb.gz" 2>"$tmp/err"; then
		err "$name: perfan convert: $(cat "$tmp/err")"
		continue
	fi
	gzip -t "$tmp/p.pb.gz" || err "$name: not gzip"

	# -top against report
	pprof_shares "$tmp/p.pb.gz" >"$tmp/pprof.tsv"
	run report --json -s sym --no-children "${args[@]}" "$in" \
		>"$tmp/self.json" 2>/dev/null
	run report --json -s sym --children "${args[@]}" "$in" \
		>"$tmp/total.json" 2>/dev/null
	report_shares "$tmp/self.json" >"$tmp/self.tsv"
	report_shares "$tmp/total.json" >"$tmp/total.tsv"
	if ! python3 - "$tmp/pprof.tsv" "$tmp/self.tsv" "$tmp/total.tsv" "$name" <<'EOF'; then
import sys
def load(p):
    d = {}
    for line in open(p):
        n, a, b = line.rstrip("\n").split("\t")
        d[n] = (float(a), float(b))
    return d
pp, self_, total = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
name = sys.argv[4]
top = sorted(self_, key=lambda k: -self_[k][0])[:10]
for k in set(self_) | set(total):
    self_.setdefault(k, (0.0, 0.0)); total.setdefault(k, (0.0, 0.0))
top += [k for k in sorted(total, key=lambda k: -total[k][1])[:10] if k not in top]
bad = 0
for f in top:
    if f not in pp:
        print("FAIL: %s: %s is in perfan report, not in pprof -top" % (name, f), file=sys.stderr)
        bad = 1
        continue
    flat, cum = pp[f]
    if abs(flat - self_[f][0]) > 0.1 or abs(cum - total[f][1]) > 0.1:
        print("FAIL: %s: %s: pprof flat %.2f%% cum %.2f%%, perfan report self %.2f%% total %.2f%%"
              % (name, f, flat, cum, self_[f][0], total[f][1]), file=sys.stderr)
        bad = 1
if len(top) < 3:
    print("FAIL: %s: only %d functions" % (name, len(top)), file=sys.stderr)
    bad = 1
sys.exit(bad)
EOF
		fail=1
	fi

	# -traces against collapse, with counts (--samples: pprof prints
	# counts as they are, not in time units)
	run convert --samples "${args[@]}" "$in" -o "$tmp/s.pb.gz" 2>/dev/null
	"$PPROF" -traces "$tmp/s.pb.gz" 2>/dev/null | traces_folded >"$tmp/traces.folded"
	run collapse --tid --samples "${args[@]}" "$in" 2>/dev/null |
		LC_ALL=C sort >"$tmp/collapse.folded"
	LC_ALL=C sort -o "$tmp/traces.folded" "$tmp/traces.folded"
	if [ ! -s "$tmp/collapse.folded" ]; then
		err "$name: perfan collapse wrote nothing"
	elif ! diff -u "$tmp/collapse.folded" "$tmp/traces.folded" >"$tmp/diff"; then
		err "$name: pprof -traces differs from perfan collapse --tid:"
		head -c 3000 "$tmp/diff" >&2
	fi
done

# The recording's facts: perf's command line, the period, the duration, the
# build-id of the profiled binary (testdata/fp/buildids.txt), units
run convert --symfs "$TD/fp" --kallsyms "$TD/kallsyms" \
	--buildid-dir "$tmp/no-cache" "$TD/fp/perf.data" -o "$tmp/fp.pprof"
"$PPROF" -raw "$tmp/fp.pprof" >"$tmp/raw" 2>/dev/null
grep -q '^Comment: /usr/bin/perf record -g -e cpu-clock -F 999 -o perf.data ./prog$' "$tmp/raw" ||
	err "fp: no perf command line in the comments"
grep -q '^PeriodType: cpu-clock nanoseconds$' "$tmp/raw" || err "fp: period type"
grep -q '^Period: 1001001$' "$tmp/raw" || err "fp: period (1e9 / 999 Hz)"
grep -q '^cpu-clock/nanoseconds\[dflt\]$' "$tmp/raw" || err "fp: sample type"
bid=$(awk '$2 ~ /\/prog$/ { print $1 }' "$TD/fp/buildids.txt")
grep -q "prog $bid \[FN\]" "$tmp/raw" || err "fp: no build-id $bid for prog"
grep -q 'pid:\[[0-9]*\] tid:\[[0-9]*\]' "$tmp/raw" || err "fp: no pid/tid labels"

# --samples: counts; --off-cpu: nanoseconds
# The same facts from a pipe, which is read once: standard input and a
# FIFO give the bytes the path gave
pipe_convert() { # OUT IN: convert the recording IN (a pipe) to OUT
	PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm \
		PERFAN_HOST_KALLSYMS= timeout 60 "$PERFAN_BIN" convert \
		--symfs "$TD/fp" --kallsyms "$TD/kallsyms" \
		--buildid-dir "$tmp/no-cache" "$2" -o "$1" 2>"$tmp/err" ||
		err "convert $2: $(cat "$tmp/err")"
}
pipe_convert "$tmp/stdin.pprof" - <"$TD/fp/perf.data"
cmp -s "$tmp/fp.pprof" "$tmp/stdin.pprof" || err "convert -: not the pprof of the path"
mkfifo "$tmp/fifo"
timeout 60 cat "$TD/fp/perf.data" >"$tmp/fifo" &
pipe_convert "$tmp/fifo.pprof" "$tmp/fifo"
wait
cmp -s "$tmp/fp.pprof" "$tmp/fifo.pprof" || err "convert FIFO: not the pprof of the path"
run convert --samples --symfs "$TD/fp" --kallsyms "$TD/kallsyms" \
	--buildid-dir "$tmp/no-cache" "$TD/fp/perf.data" -o "$tmp/n.pb.gz"
"$PPROF" -raw "$tmp/n.pb.gz" 2>/dev/null | grep -q '^cpu-clock/count\[dflt\]$' ||
	err "--samples: not a count"
if [ -f "$TD/offcpu/perf.offcpu.data" ]; then
	run convert --off-cpu --symfs "$TD/offcpu" --kallsyms "$TD/offcpu/kallsyms" \
		--buildid-dir "$tmp/no-cache" "$TD/offcpu/perf.offcpu.data" \
		-o "$tmp/off.pb.gz" 2>/dev/null
	"$PPROF" -raw "$tmp/off.pb.gz" 2>/dev/null | grep -q '^off-cpu/nanoseconds\[dflt\]$' ||
		err "--off-cpu: not off-cpu/nanoseconds"
fi

# Folded output is perfan collapse --tid's
run convert --symfs "$TD/fp" --kallsyms "$TD/kallsyms" \
	--buildid-dir "$tmp/no-cache" "$TD/fp/perf.data" -o "$tmp/fp.folded"
run collapse --tid --symfs "$TD/fp" --kallsyms "$TD/kallsyms" \
	--buildid-dir "$tmp/no-cache" "$TD/fp/perf.data" >"$tmp/fp.collapse"
cmp -s "$tmp/fp.folded" "$tmp/fp.collapse" || err "convert -o X.folded is not collapse --tid"
# and folded in, pprof out, gives the same stacks back
run convert "$tmp/fp.folded" --to pprof -o - >"$tmp/ff.pb.gz"
"$PPROF" -traces "$tmp/ff.pb.gz" 2>/dev/null | traces_folded | LC_ALL=C sort >"$tmp/ff.folded"
# a folded input has no pids: the thread label is the root frame
cmp -s "$tmp/ff.folded" "$tmp/fp.folded" || err "folded -> pprof -> traces differs"

# Bad inputs and names fail cleanly, leaving no file
head -c 3000 "$TD/fp/perf.data" >"$tmp/cut.data"
printf '\x00\x01garbage\xff' >"$tmp/garbage"
for bad in "$tmp/cut.data" "$tmp/garbage" "$tmp/missing"; do
	rc=0
	"$PERFAN_BIN" convert "$bad" -o "$tmp/bad.pb.gz" 2>"$tmp/err" || rc=$?
	[ "$rc" = 1 ] || err "convert $(basename "$bad"): exit $rc, not 1"
	grep -q '^perfan convert: ' "$tmp/err" || err "convert $(basename "$bad"): no message"
	[ ! -e "$tmp/bad.pb.gz" ] || err "convert $(basename "$bad") left a file"
done
rc=0
"$PERFAN_BIN" convert "$TD/fp/perf.data" -o "$tmp/x.svg" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || err "unknown extension: exit $rc, not 2"
rc=0
"$PERFAN_BIN" convert "$TD/fp/perf.data" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || err "no -o: exit $rc, not 2"

if [ "$fail" = 0 ]; then
	echo "ok: pprof -top and -traces agree with perfan report and collapse on ${#cases[@]} recordings; facts, folded, bad inputs"
fi
exit "$fail"
