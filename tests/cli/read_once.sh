#!/usr/bin/env bash
# read_once.sh: every input is opened once (issue 36, item 1). The same
# recording given by path, through a FIFO, through '-' on a pipe and
# through <(...) gives the same bytes: `convert -o X.pb.gz` of each input
# format convert reads, triage of pipe-mode and file-mode perf.data, and
# report --off-cpu / --wall and triage of a Python recording with GIL
# waits, whose GIL section reads the recording again (on 65dc94b it opened
# the path a second time: a FIFO hung, '-' lost the section, <(...) failed
# "is not a perf.data"). Each run is bounded in time; no temporary file is
# left beside the output.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
TD=testdata
# the host pinned, nothing looked up outside testdata
export PERFAN_HOST_OSRELEASE=6.18.44-fc-v782 PERFAN_HOST_NAME=vm PERFAN_HOST_KALLSYMS=
NOCACHE=(--buildid-dir "$tmp/no-cache")

# via HOW FILE OUT ERR ARGS...: perfan ARGS with '@' standing for FILE
# given as HOW says (path, fifo, pipe: '-' on a pipe from cat, procsub:
# <(cat FILE)), stdout to OUT, stderr to ERR, bounded to 60 s; the status
# in $rc (124: it hung)
via() {
	local how=$1 file=$2 out=$3 err=$4 name
	shift 4
	case $how in
	path) name=$file ;;
	fifo)
		rm -f "$tmp/fifo"
		mkfifo "$tmp/fifo"
		timeout 70 cat "$file" >"$tmp/fifo" 2>/dev/null &
		writer=$!
		pids+=($writer)
		name=$tmp/fifo
		;;
	pipe) name=- ;;
	procsub) name=/dev/fd/9 ;;
	esac
	local a=() x
	for x in "$@"; do
		if [ "$x" = @ ]; then a+=("$name"); else a+=("$x"); fi
	done
	rc=0
	case $how in
	pipe) cat "$file" | timeout 60 "$PERFAN_BIN" "${a[@]}" >"$out" 2>"$err" || rc=$? ;;
	procsub) timeout 60 "$PERFAN_BIN" "${a[@]}" >"$out" 2>"$err" 9< <(cat "$file") || rc=$? ;;
	*) timeout 60 "$PERFAN_BIN" "${a[@]}" >"$out" 2>"$err" || rc=$? ;;
	esac
	if [ "$how" = fifo ]; then
		# a writer still waiting (the FIFO was not read to its end)
		kill "$writer" 2>/dev/null || true
		wait "$writer" 2>/dev/null || true
	fi
	return 0
}

# the input's name as each way shows it, made one
names() {
	sed -e "s#$1#INPUT#g; s#$tmp/fifo#INPUT#g; s#/dev/fd/9#INPUT#g" \
		-e 's#<stdin>#INPUT#g; s#&lt;stdin&gt;#INPUT#g' "$2"
}

# same LABEL FILE ARGS...: the output (and stderr) of each way equals the
# path's, names aside
same() {
	local label=$1 file=$2 how
	shift 2
	via path "$file" "$tmp/path.out" "$tmp/path.err" "$@"
	[ "$rc" = 0 ] || { fail "$label by path: exit $rc: $(head -c 300 "$tmp/path.err")"; return; }
	for how in fifo pipe procsub; do
		via "$how" "$file" "$tmp/$how.out" "$tmp/$how.err" "$@"
		if [ "$rc" != 0 ]; then
			fail "$label through $how: exit $rc$([ "$rc" = 124 ] && echo ' (hung)'): $(head -c 300 "$tmp/$how.err")"
			continue
		fi
		cmp -s <(names "$file" "$tmp/path.out") <(names "$file" "$tmp/$how.out") ||
			fail "$label through $how: output differs from the path's: $(diff <(names "$file" "$tmp/path.out") <(names "$file" "$tmp/$how.out") | head -6)"
		cmp -s <(names "$file" "$tmp/path.err") <(names "$file" "$tmp/$how.err") ||
			fail "$label through $how: stderr differs from the path's: $(diff <(names "$file" "$tmp/path.err") <(names "$file" "$tmp/$how.err") | head -6)"
	done
}

# ---- 1. convert to pprof: each input format, the same bytes -------------------

inputs=(
	"$TD/fp/perf.data"
	"$TD/pipe/perf.data"
	"$TD/zstd/perf.data"
	"$TD/fp/script.txt"
	"$TD/script-wild/fnobj.folded"
	"$TD/pyspy/raw.txt"
	"$TD/pstats/py3.11.pstats"
	"$TD/speedscope/fp.script.speedscope.json"
	"$TD/bpftrace/kstack.txt"
	"$TD/bpftrace/json.txt"
)
mkdir -p "$tmp/out"
for f in "${inputs[@]}"; do
	[ -f "$f" ] || { fail "no $f"; continue; }
	for how in path fifo pipe procsub; do
		via "$how" "$f" "$tmp/convert.$how" "$tmp/convert.$how.err" \
			convert "${NOCACHE[@]}" @ -o "$tmp/out/$how.pb.gz"
		[ "$rc" = 0 ] || fail "convert $f through $how: exit $rc$([ "$rc" = 124 ] && echo ' (hung)'): $(head -c 300 "$tmp/convert.$how.err")"
	done
	[ -s "$tmp/out/path.pb.gz" ] || fail "convert $f: no output"
	for how in fifo pipe procsub; do
		cmp -s "$tmp/out/path.pb.gz" "$tmp/out/$how.pb.gz" ||
			fail "convert $f through $how: $(stat -c %s "$tmp/out/$how.pb.gz" 2>/dev/null || echo no) bytes, the path's $(stat -c %s "$tmp/out/path.pb.gz") bytes, not the same"
	done
	left=$(find "$tmp/out" -name '*.tmp*')
	[ -z "$left" ] || fail "convert $f left temporary files: $left"
	rm -f "$tmp/out/"*
done

# ---- 2. triage: a pipe-mode and a file-mode perf.data --------------------------

same "triage of a pipe-mode perf.data" "$TD/pipe/perf.data" triage --text "${NOCACHE[@]}" @
same "triage (HTML) of a pipe-mode perf.data" "$TD/pipe/perf.data" triage "${NOCACHE[@]}" @
same "triage of a pipe-mode sched recording" "$TD/sched-pipe/perf.data" triage --text "${NOCACHE[@]}" @
same "triage of a file-mode perf.data" "$TD/offcpu/perf.data" triage --text "${NOCACHE[@]}" @

# ---- 3. the GIL section, which reads the recording again -----------------------

G=(--kallsyms "$TD/gil/kallsyms" --symfs "$TD/gil/symfs" --perf-map-dir "$TD/gil" "${NOCACHE[@]}")
crit=$TD/gil/critical.data
via path "$crit" "$tmp/gil.out" "$tmp/gil.err" report --off-cpu "${G[@]}" @
grep -q "^# GIL:" "$tmp/gil.out" ||
	fail "report --off-cpu $crit by path has no GIL section: the case tests nothing"
same "report --off-cpu of a GIL recording" "$crit" report --off-cpu "${G[@]}" @
same "report --wall of a GIL recording" "$crit" report --wall "${G[@]}" @
same "triage of a GIL recording" "$crit" triage --text "${G[@]}" @
same "triage (HTML) of a GIL recording" "$crit" triage "${G[@]}" @

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "read_once: all passed"
