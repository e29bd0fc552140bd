#!/usr/bin/env bash
# output.sh: -o never costs data. Naming one of the inputs (itself, through
# a symlink, a hard link or standard input) is an error for every command
# that takes -o, and the input stays as it was; a failed command leaves an
# existing output file as it was; a replaced file keeps its mode; a
# symlink is followed, not replaced; no temporary file is left behind.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh
TD=testdata
R=(--symfs "$TD/fp" --kallsyms "$TD/kallsyms" --buildid-dir "$tmp/no-cache")
umask 022

# refuse WHAT: the last command run (status in $rc, stderr in $tmp/err)
# refused to write over $tmp/in.data, which is unchanged
refused() {
	if [ "$rc" != 1 ]; then
		fail "$1: exit $rc, not 1"
	elif ! grep -q "is the input" "$tmp/err"; then
		fail "$1: no error: $(cat "$tmp/err")"
	fi
	cmp -s "$tmp/in.data" "$TD/fp/perf.data" || fail "$1: the input was changed"
	cp "$TD/fp/perf.data" "$tmp/in.data" # for the next check, whatever happened
}
try() {
	rc=0
	"$PERFAN_BIN" "$@" >/dev/null 2>"$tmp/err" || rc=$?
}

# ---- 1. -o onto an input: every command that takes -o ---------------------

cp "$TD/fp/perf.data" "$tmp/in.data"
cp "$TD/fp/perf.data" "$tmp/other.data"
ln -s in.data "$tmp/link.data"
ln "$tmp/in.data" "$tmp/hard.data"
for cmd in report collapse flamegraph stats header; do
	args=("${R[@]}")
	[ "$cmd" = stats ] || [ "$cmd" = header ] && args=()
	try "$cmd" "${args[@]}" -o "$tmp/in.data" "$tmp/in.data"
	refused "$cmd -o IN IN"
	try "$cmd" "${args[@]}" -o "$tmp/link.data" "$tmp/in.data"
	refused "$cmd -o LINK-TO-IN IN"
	try "$cmd" "${args[@]}" -o "$tmp/in.data" "$tmp/link.data"
	refused "$cmd -o IN LINK-TO-IN"
	try "$cmd" "${args[@]}" -o "$tmp/hard.data" "$tmp/in.data"
	refused "$cmd -o HARD-LINK IN"
	rc=0
	"$PERFAN_BIN" "$cmd" "${args[@]}" -o "$tmp/in.data" /dev/stdin <"$tmp/in.data" >/dev/null 2>"$tmp/err" || rc=$?
	refused "$cmd -o IN /dev/stdin < IN"
done
for cmd in report collapse flamegraph; do
	rc=0
	"$PERFAN_BIN" "$cmd" "${R[@]}" -o "$tmp/in.data" - <"$tmp/in.data" >/dev/null 2>"$tmp/err" || rc=$?
	refused "$cmd -o IN - < IN"
done
try flamegraph "${R[@]}" -o "$tmp/in.data" "$tmp/other.data" "$tmp/in.data"
refused "flamegraph -o B A B"
try flamegraph "${R[@]}" --diff -o "$tmp/in.data" "$tmp/other.data" "$tmp/in.data"
refused "flamegraph --diff -o AFTER BEFORE AFTER"
try diff "${R[@]}" -o "$tmp/in.data" "$tmp/other.data" "$tmp/in.data"
refused "diff -o AFTER BEFORE AFTER"
try diff "${R[@]}" -o "$tmp/in.data" "$tmp/in.data" "$tmp/other.data"
refused "diff -o BEFORE BEFORE AFTER"
try diff "${R[@]}" -o "$tmp/in.data" -b "$tmp/other.data" -a "$tmp/other.data,$tmp/in.data"
refused "diff -o IN -a OTHER,IN"
# classify refuses before it reads: any input will do
try classify -o "$tmp/in.data" "$tmp/in.data"
refused "classify -o IN IN"
rc=0
"$PERFAN_BIN" classify -o "$tmp/in.data" <"$tmp/in.data" >/dev/null 2>"$tmp/err" || rc=$?
refused "classify -o IN < IN"
# writing to /dev/null or another file is still fine
try report "${R[@]}" -o /dev/null "$tmp/in.data"
[ "$rc" = 0 ] || fail "report -o /dev/null: exit $rc: $(cat "$tmp/err")"

# ---- 2. a failed command leaves an existing file as it was -----------------

# the 100th record's size set to 0: a damaged data section
python3 - "$TD/fp/perf.data" "$tmp/bad.data" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
off = struct.unpack_from("<Q", d, 40)[0]
for _ in range(100):
    off += struct.unpack_from("<H", d, off + 6)[0]
d[off + 6:off + 8] = b"\0\0"
open(sys.argv[2], "wb").write(d)
EOF
for cmd in stats report collapse flamegraph header; do
	args=("${R[@]}")
	[ "$cmd" = stats ] || [ "$cmd" = header ] && args=()
	printf 'kept\n' >"$tmp/keep.txt"
	chmod 600 "$tmp/keep.txt"
	input=$tmp/bad.data
	[ "$cmd" = header ] && input=$tmp/missing.data # header reads no records
	try "$cmd" "${args[@]}" -o "$tmp/keep.txt" "$input"
	[ "$rc" = 1 ] || fail "$cmd -o of a damaged input: exit $rc"
	[ "$(cat "$tmp/keep.txt")" = kept ] || fail "$cmd -o: a failure replaced the file"
	[ "$(stat -c %a "$tmp/keep.txt")" = 600 ] || fail "$cmd -o: a failure changed the mode"
done

# ---- 3. a replaced file keeps its mode; a new one gets the umask's ---------

printf 'old\n' >"$tmp/m.txt"
chmod 600 "$tmp/m.txt"
try header -o "$tmp/m.txt" "$TD/fp/perf.data"
[ "$rc" = 0 ] && grep -q "captured on" "$tmp/m.txt" || fail "header -o over a file: exit $rc"
[ "$(stat -c %a "$tmp/m.txt")" = 600 ] || fail "-o turned a 0600 file into $(stat -c %a "$tmp/m.txt")"
chmod 640 "$tmp/m.txt"
try stats -o "$tmp/m.txt" "$TD/fp/perf.data"
[ "$(stat -c %a "$tmp/m.txt")" = 640 ] || fail "-o turned a 0640 file into $(stat -c %a "$tmp/m.txt")"
try stats -o "$tmp/new.txt" "$TD/fp/perf.data"
[ "$(stat -c %a "$tmp/new.txt")" = 644 ] || fail "a new -o file is $(stat -c %a "$tmp/new.txt") under umask 022"

# ---- 4. a symlink is followed, not replaced ----------------------------------

mkdir "$tmp/d"
printf 'old\n' >"$tmp/d/target.txt"
chmod 600 "$tmp/d/target.txt"
ln -s d/target.txt "$tmp/link.txt"
ln -s "$tmp/link.txt" "$tmp/link2.txt" # a chain, absolute then relative
try stats -o "$tmp/link2.txt" "$TD/fp/perf.data"
[ "$rc" = 0 ] || fail "stats -o LINK: exit $rc $(cat "$tmp/err")"
[ -L "$tmp/link.txt" ] && [ -L "$tmp/link2.txt" ] || fail "-o replaced a symlink with a file"
grep -q "TOTAL events" "$tmp/d/target.txt" || fail "-o LINK did not write the file it names"
[ "$(stat -c %a "$tmp/d/target.txt")" = 600 ] || fail "-o LINK changed the target's mode"
ln -s d/made.txt "$tmp/dangling.txt"
try stats -o "$tmp/dangling.txt" "$TD/fp/perf.data"
[ "$rc" = 0 ] && [ -L "$tmp/dangling.txt" ] && grep -q "TOTAL events" "$tmp/d/made.txt" ||
	fail "-o through a dangling symlink: exit $rc"

# ---- 5. no temporary file is left, after success or failure ------------------

left=$(find "$tmp" -name '*.tmp*')
[ -z "$left" ] || fail "temporary files left: $left"

[ "$fails" = 0 ] || exit 1
echo "ok: -o onto an input (itself, a symlink, a hard link, stdin) refused by report, collapse, flamegraph, diff, stats, header and classify, input untouched; failures keep the old file; modes kept; symlinks followed; no temporaries left"
