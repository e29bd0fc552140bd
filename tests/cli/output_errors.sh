#!/usr/bin/env bash
# output_errors.sh: every command's -o that cannot be written fails with
# exactly one error line "perfan CMD: PATH: what failed: reason" (the
# system's strerror), exits 1 and leaves no temporary file (issue 36,
# item 3): onto a full disk (a 64 KiB tmpfs filled up), a directory, a
# read-only file system (a tmpfs mounted ro), a directory the user may not
# write to, and /dev/full (standard output too).
#
# The mounts are made in a private mount namespace (unshare -m as root,
# unshare -rm otherwise): the test re-runs itself inside one, and is
# skipped (exit 77) with the reason where neither is allowed. The
# permission check runs as nobody (setpriv) when the test runs as root,
# whose writes a mode does not stop.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
PERFAN_BIN=$(realpath "$PERFAN_BIN")
. tests/tools/cli_common.sh
chmod 711 "$tmp" # nobody may reach $tmp/locked

F=(--symfs testdata/fp --kallsyms testdata/kallsyms)
G=(--kallsyms testdata/gil/kallsyms --symfs testdata/gil/symfs
	--perf-map-dir testdata/gil)
FP=testdata/fp/perf.data
TID=$(awk '$1 == "R" {print $2}' testdata/gil/critical.out)
# every command that takes -o: CMD EXT ARGS... (written as CMD -o OUT ARGS)
COMMANDS=(
	"annotate .txt ${F[*]} $FP"
	"classify .txt testdata/perf-stat-local/busy.txt"
	"collapse .txt ${F[*]} $FP"
	"convert .pb.gz --to pprof ${F[*]} $FP"
	"critical .txt --tid $TID ${G[*]} testdata/gil/critical.data"
	"diff .txt ${F[*]} $FP testdata/zstd/perf.data"
	"dump .txt testdata/offcpu/perf.data"
	"flamegraph .svg ${F[*]} $FP"
	"gil .txt ${G[*]} testdata/gil/gil-312-2.data"
	"header .txt $FP"
	"report .txt ${F[*]} $FP"
	"scaling .txt 1:testdata/pyspy/raw.txt 2:testdata/pyspy/fixed.txt"
	"stats .txt $FP"
	"timeline .html testdata/offcpu/perf.data"
	"triage .html ${F[*]} $FP"
)

# one_line CMD OUT REASON [RUNNER...]: CMD -o OUT fails with exit 1 and one
# error line naming OUT and REASON; no temporary file beside OUT
one_line() {
	local spec=$1 out=$2 reason=$3
	shift 3
	local -a a
	read -r -a a <<<"$spec"
	local cmd=${a[0]} rc=0
	checks=$((checks + 1))
	HOME=$tmp/home "$@" "$PERFAN_BIN" "$cmd" -o "$out" "${a[@]:2}" \
		>/dev/null 2>"$tmp/err" || rc=$?
	grep -v "^perfan $cmd: \(warning\|note\): " "$tmp/err" >"$tmp/errors" || true
	local want="perfan $cmd: $out: [a-z ]*: $reason"
	if [ "$rc" != 1 ]; then
		fail "$cmd -o $out: exit $rc, not 1: $(head -c 300 "$tmp/err")"
	elif [ "$(wc -l <"$tmp/errors")" != 1 ] ||
		! grep -qx -- "$want" "$tmp/errors"; then
		fail "$cmd -o $out: not one line \"$want\": $(cat "$tmp/errors")"
	fi
	local left
	left=$(find "$(dirname "$out")" -maxdepth 1 -name "$(basename "$out").tmp*")
	[ -z "$left" ] || fail "$cmd -o $out: temporary file left: $left"
}

if [ "${1-}" = --inside ]; then
	# in a private mount namespace: a full and a read-only tmpfs
	mkdir "$tmp/full" "$tmp/ro"
	trap 'umount "$tmp/full" "$tmp/ro" 2>/dev/null; rm -rf "$tmp"' EXIT
	mount -t tmpfs -o size=64k tmpfs "$tmp/full"
	dd if=/dev/zero of="$tmp/full/filler" bs=4k 2>/dev/null || true
	mount -t tmpfs -o ro,size=64k tmpfs "$tmp/ro"
	for spec in "${COMMANDS[@]}"; do
		read -r cmd ext _ <<<"$spec"
		one_line "$spec" "$tmp/full/out$ext" "No space left on device"
		one_line "$spec" "$tmp/ro/out$ext" "Read-only file system"
	done
	[ "$fails" = 0 ] || exit 1
	echo "ok: $checks: -o onto a full disk and a read-only file system"
	exit 0
fi

# a directory; a directory nobody may write; /dev/full
mkdir "$tmp/home" "$tmp/locked"
chmod 755 "$tmp/locked"
runner=()
perm=1
if [ "$(id -u)" = 0 ]; then
	runner=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	"${runner[@]}" true 2>/dev/null || perm=0
else
	chmod 555 "$tmp/locked"
fi
for spec in "${COMMANDS[@]}"; do
	read -r cmd ext _ <<<"$spec"
	mkdir "$tmp/dir$ext" 2>/dev/null || true
	one_line "$spec" "$tmp/dir$ext" "Is a directory"
	one_line "$spec" /dev/full "No space left on device"
	[ "$perm" = 0 ] ||
		one_line "$spec" "$tmp/locked/out$ext" "Permission denied" "${runner[@]}"
done
# standard output the same: "standard output" for the path
for cmd in report stats; do
	checks=$((checks + 1))
	rc=0
	args=("${F[@]}")
	[ "$cmd" = stats ] && args=()
	HOME=$tmp/home "$PERFAN_BIN" "$cmd" "${args[@]}" "$FP" >/dev/full 2>"$tmp/err" || rc=$?
	grep -v "^perfan $cmd: \(warning\|note\): " "$tmp/err" >"$tmp/errors" || true
	[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/errors")" = 1 ] &&
		grep -qx "perfan $cmd: standard output: cannot write: No space left on device" "$tmp/errors" ||
		fail "$cmd >/dev/full: exit $rc: $(cat "$tmp/errors")"
done
[ "$perm" = 1 ] || echo "note: no setpriv to nobody: the permission case was not checked"

# the mounts, in a namespace of their own
if [ "$(id -u)" = 0 ]; then ns=(unshare -m --propagation private); else ns=(unshare -rm); fi
skipped=
if ! "${ns[@]}" true 2>"$tmp/ns.err"; then
	skipped="cannot make a mount namespace (${ns[*]}: $(cat "$tmp/ns.err")): no full or read-only file system to write to"
else
	"${ns[@]}" bash "$0" --inside || fails=$((fails + 1))
fi

[ "$fails" = 0 ] || exit 1
if [ -n "$skipped" ]; then
	echo "skipped (the rest passed): $skipped"
	exit 77
fi
echo "ok: every command's -o onto a full disk, a read-only file system, a directory, a directory it may not write and /dev/full (and standard output on /dev/full): one line with the path and the reason, exit 1, no temporary file"
