#!/usr/bin/env bash
# symbols.sh: symbols where perf finds them, on stripped binaries kept in
# testdata, each row of `perfan report --sort dso,sym` equal to perf's
# (report-dsosym.txt: exact periods):
#  - dynsym/: prog and libdyn.so with .dynsym only; the PLT slots named as
#    perf 6.1 names them (dyn_tiny@plt, strlen@plt) and .plt's header left
#    unnamed, as perf leaves it;
#  - debug-buildid/: a recording without build-ids of a stripped prog whose
#    debug file is only at <symfs>/usr/lib/debug/.build-id/xx/yyyy.debug,
#    found through the binary's own build-id (and not found without it);
#  - minidebug/: a prog whose local functions are only in its MiniDebugInfo
#    (.gnu_debugdata), named as perf names them on the unstripped binary,
#    where perf 6.1 itself, reading the recorded binary, leaves them
#    unresolved.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PERFAN_BIN:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# agree CASE DSOS [SYMFS]: perfan's rows for DSOS are perf's, exactly.
agree() {
	local c=$1 dsos=$2 symfs=${3:-testdata/$1}
	"$PERFAN_BIN" report --json --no-children --sort dso,sym \
		--symfs "$symfs" --kallsyms testdata/kallsyms \
		--buildid-dir "$tmp/no-cache" "testdata/$c/perf.data" \
		>"$tmp/$c.json" 2>"$tmp/$c.err" || fail "$c: $(cat "$tmp/$c.err")"
	python3 tests/tools/symbols_agree.py --max 0 --show 0 --only "$dsos" \
		"testdata/$c/report-dsosym.txt" "$tmp/$c.json" >"$tmp/$c.out" ||
		fail "$c: rows differ from perf's:
$(cat "$tmp/$c.out")"
}

agree dynsym prog,libdyn.so
for want in 'prog.*dyn_tiny@plt' 'libdyn.so.*strlen@plt' 'prog.*<unresolved>' \
	'prog.*spin' 'libdyn.so.*dyn_tiny'; do
	grep -q "$want" "$tmp/dynsym.out" || fail "dynsym: no row $want"
done
echo "ok: dynsym: .dynsym functions and PLT slots as perf names them"

# The stacks through the PLT slot, as perf script shows them: a slot has no
# frame of its own, so frame pointers skip its caller (spin) as in perf.
"$PERFAN_BIN" collapse --symfs testdata/dynsym --kallsyms testdata/kallsyms \
	--buildid-dir "$tmp/no-cache" testdata/dynsym/perf.data \
	>"$tmp/dynsym.folded" 2>/dev/null
grep -q ';main;dyn_tiny@plt ' "$tmp/dynsym.folded" ||
	fail "dynsym: no stack main;dyn_tiny@plt"
zstd -dc testdata/dynsym/script.txt.zst >"$tmp/script.txt"
grep -A1 'dyn_tiny@plt+' "$tmp/script.txt" >"$tmp/callers.txt" || true
grep -q ' main+' "$tmp/callers.txt" || fail "dynsym: perf script has no main <- dyn_tiny@plt"
echo "ok: dynsym: main;dyn_tiny@plt, as in perf script's stacks"

agree debug-buildid prog
grep -q 'inner_a' "$tmp/debug-buildid.out" || fail "debug-buildid: no inner_a"
# the same without the debug file: the local functions are gone
mkdir "$tmp/bare"
cp testdata/debug-buildid/prog "$tmp/bare/"
"$PERFAN_BIN" report --no-children --sort dso,sym --symfs "$tmp/bare" \
	--kallsyms testdata/kallsyms --buildid-dir "$tmp/no-cache" \
	testdata/debug-buildid/perf.data >"$tmp/bare.txt" 2>/dev/null
if grep -q 'inner_a' "$tmp/bare.txt"; then
	fail "debug-buildid: inner_a named without the debug file"
fi
echo "ok: debug-buildid: the debug file found by the binary's own build-id"

agree minidebug prog
grep -q 'inner_b' "$tmp/minidebug.out" || fail "minidebug: no inner_b"
if grep -q 'inner_b' testdata/minidebug/report-dsosym-stripped.txt; then
	fail "minidebug: perf 6.1 was expected not to read .gnu_debugdata"
fi
echo "ok: minidebug: local functions from .gnu_debugdata, .dynsym's too"
