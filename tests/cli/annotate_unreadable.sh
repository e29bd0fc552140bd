#!/usr/bin/env bash
# annotate_unreadable.sh: annotate says why it annotated nothing, on stderr
# with exit 1 (issue 36, item 4), for testdata/annotate/perf.fp.data with
# --symfs copies of its binary damaged here: cut to 484 bytes (a truncated
# ELF file: its path and size), a flipped build-id byte (a build-id
# mismatch: both ids, as perf buildid-list and readelf -n give them, and
# the path), --symfs /nonexistent (file not found: where it looked); and
# when most samples fall in a file it could not read (testdata/dynsym
# without its ld.so, as after a binary was deleted), a warning naming the
# file with perf script's own count of its samples, not the few functions
# annotated presented alone.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
. tests/tools/cli_common.sh

A=testdata/annotate
DATA=$A/perf.fp.data
BIN=$A/annotate
# the recorded binary, its build-id, and its samples: perf's own figures
rec=$(awk '$2 ~ /\/annotate$/ {print $2}' "$A/buildids.fp.txt")
rec_id=$(awk '$2 ~ /\/annotate$/ {print $1}' "$A/buildids.fp.txt")
total=$(perf script -i "$DATA" -F ip,dso -G 2>/dev/null | grep -c .)
in_bin=$(perf script -i "$DATA" -F ip,dso -G 2>/dev/null | grep -c "($rec)")
[ -n "$rec" ] && [ "$in_bin" -gt 0 ] && [ "$total" -gt "$in_bin" ] ||
	{ echo "FAIL: no oracle: '$rec' $in_bin of $total samples"; exit 1; }

run() { # SYMFS [DATA]: annotate with it, exit status in $rc
	rc=0
	HOME=$tmp timeout 60 "$PERFAN_BIN" annotate --symfs "$1" \
		--buildid-dir "$tmp/no-cache" --kallsyms "$A/kallsyms" \
		"${2:-$DATA}" >"$tmp/out" 2>"$tmp/err" || rc=$?
}
expect() { # NAME STATUS PATTERN: the exit status and one stderr line
	checks=$((checks + 1))
	[ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2"
	grep -q -- "$3" "$tmp/err" ||
		fail "$1: no stderr line '$3': $(head -c 800 "$tmp/err")"
}

# 1. cut to 484 bytes
mkdir -p "$tmp/cut"
head -c 484 "$BIN" >"$tmp/cut/annotate"
run "$tmp/cut"
expect truncated 1 "^perfan annotate: $rec: $in_bin of $total samples not annotated: $tmp/cut/annotate is a truncated ELF file: 484 bytes"

# 2. a build-id byte flipped (the note found by the recorded id's bytes)
mkdir -p "$tmp/bid"
python3 - "$BIN" "$tmp/bid/annotate" "$rec_id" <<'PY'
import sys
src, dst, hexid = sys.argv[1:4]
b = bytearray(open(src, "rb").read())
i = b.find(bytes.fromhex(hexid))
assert i > 0 and b.find(bytes.fromhex(hexid), i + 1) < 0
b[i] ^= 0xff
open(dst, "wb").write(b)
PY
new_id=$(readelf -n "$tmp/bid/annotate" | awk '/Build ID:/ {print $3}')
[ -n "$new_id" ] && [ "$new_id" != "$rec_id" ] || fail "build-id: readelf gives '$new_id'"
run "$tmp/bid"
expect build-id 1 "^perfan annotate: $rec: $in_bin of $total samples not annotated: build-id mismatch: recorded $rec_id, $tmp/bid/annotate has $new_id"

# 3. no such directory
run /nonexistent
expect "--symfs /nonexistent" 1 "^perfan annotate: $rec: $in_bin of $total samples not annotated: file not found: looked for .*/nonexistent$rec, /nonexistent/annotate$"

# 4. most samples in a file it could not read: testdata/dynsym, whose
# program spends most of its time in ld.so (its lookups), with --symfs
# holding the program alone: its functions are annotated, and a warning
# names ld.so with perf script's count of its samples
mkdir -p "$tmp/gone"
cp testdata/dynsym/prog "$tmp/gone/"
LDP=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
total2=$(perf script -i testdata/dynsym/perf.data -F ip,dso -G 2>/dev/null | grep -c .)
in_ld=$(perf script -i testdata/dynsym/perf.data -F ip,dso -G 2>/dev/null | grep -c "($LDP)")
run "$tmp/gone" testdata/dynsym/perf.data
expect "ld.so gone" 0 "^perfan annotate: warning: $LDP: $in_ld of $total2 samples not annotated: file not found: looked for .*$tmp/gone$LDP, $tmp/gone/ld-linux-x86-64.so.2 (the functions annotated hold the rest)$"
grep -q "^== spin  \[prog\]" "$tmp/out" ||
	fail "ld.so gone: the program's functions not annotated: $(head -c 300 "$tmp/out")"

# the undamaged binary: no such line
run "$A"
checks=$((checks + 1))
[ "$rc" = 0 ] && ! grep -q "not annotated" "$tmp/err" ||
	fail "undamaged: exit $rc, $(head -c 300 "$tmp/err")"

[ $fails -eq 0 ] && echo "annotate_unreadable: ok ($checks checks)"
[ $fails -eq 0 ]
