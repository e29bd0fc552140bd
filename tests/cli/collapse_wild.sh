#!/bin/bash
# tests/cli/collapse_wild.sh: perf script text as other machines print it
# (testdata/script-wild, real perf 6.1 output): C++ names with spaces and
# parentheses, Rust names mangled or half demangled, perf inject --jit's
# jitted-*.so, kernel frames named by a vmlinux-VERSION file. perfan's
# folded lines are what inferno's rules give (see script-wild/COMMAND for
# how each expected file was made), and stackcollapse-perf.pl's own bytes
# under --compat=flamegraph. perfan report and flamegraph read the text
# the same way.
set -u

BIN=${PERFAN_BIN:?PERFAN_BIN must name the perfan binary}
TESTDATA=${PERFAN_TESTDATA:-testdata}
PEERDATA=${PERFAN_PEERDATA:-../shared/peer-data}
d=$TESTDATA/script-wild

. tests/tools/cli_common.sh

# text NAME: the perf script text of script-wild's NAME, uncompressed
text() {
	[ -f "$tmp/$1.txt" ] || zstd -q -dc "$d/script.$1.txt.zst" >"$tmp/$1.txt"
	echo "$tmp/$1.txt"
}

# same LABEL WANT-FILE CMD...: CMD's standard output is WANT-FILE's bytes
# (a .zst file is uncompressed first)
same() {
	local label=$1 want=$2
	shift 2
	checks=$((checks + 1))
	if [ "${want%.zst}" != "$want" ]; then
		zstd -q -dc "$want" >"$tmp/want" || { fail "$label: cannot read $want"; return; }
		want=$tmp/want
	fi
	if ! "$@" >"$tmp/got" 2>"$tmp/err"; then
		fail "$label: $* exited non-zero ($(head -c 300 "$tmp/err"))"
		return
	fi
	if ! diff -u "$want" "$tmp/got" >"$tmp/diff"; then
		fail "$label: differs from $want"
		head -20 "$tmp/diff"
	fi
}

# has LABEL FILE STRING: FILE holds STRING
has() {
	checks=$((checks + 1))
	grep -qF -- "$3" "$2" || fail "$1: no '$3'"
}

# ---- C++: std::function, lambdas, (anonymous namespace), templates ----------

for t in fnobj fnobj-nodemangle; do
	same "C++ $t" "$d/fnobj.folded" "$BIN" collapse "$(text $t)"
	same "C++ $t --compat=flamegraph" "$d/$t.flamegraph.folded" \
		"$BIN" collapse --compat=flamegraph "$(text $t)"
done
# perf script -v: perf's names with parameter lists and return types
same "C++ fnobj-v" "$d/fnobj-v.folded" "$BIN" collapse "$(text fnobj-v)"
same "C++ fnobj-v --compat=flamegraph" "$d/fnobj-v.flamegraph.folded" \
	"$BIN" collapse --compat=flamegraph "$(text fnobj-v)"
"$BIN" collapse "$(text fnobj-v)" >"$tmp/v.folded" 2>/dev/null
has "C++ whole" "$tmp/v.folded" ";std::function<int (int, int)>::operator;"
has "C++ lambda" "$tmp/v.folded" ";main::{lambda(int, int)#1}::operator;"
has "C++ anonymous namespace" "$tmp/v.folded" ";(anonymous namespace)::spin "

# ---- Rust: whole names, and mangled ones (--no-demangle) finished -----------

for t in gcbox gcbox-nodemangle; do
	same "Rust $t" "$d/gcbox.folded" "$BIN" collapse "$(text $t)"
	same "Rust $t --compat=flamegraph" "$d/$t.flamegraph.folded" \
		"$BIN" collapse --compat=flamegraph "$(text $t)"
done

# half-demangled names from an older perf (peer data, read in place)
rust=$PEERDATA/perf-script/perf-rust-Yamakaky-dcpu.txt
if [ -f "$rust" ]; then
	"$BIN" collapse "$rust" >"$tmp/rust.folded" 2>/dev/null
	"$BIN" collapse --compat=flamegraph "$rust" >"$tmp/rust.fg" 2>/dev/null
	checks=$((checks + 1))
	grep -qE '\$(LT|GT|u7b|u20|C)\$|::h[0-9a-f]{16}' "$rust" ||
		fail "Rust peer: the input has no half-demangled name"
	if grep -E '\$(LT|GT|u7b|u7d|u20|C|RF)\$|::h[0-9a-f]{16}' "$tmp/rust.folded" >"$tmp/left"; then
		fail "Rust peer: names left half done: $(head -c 300 "$tmp/left")"
	fi
	has "Rust peer closure" "$tmp/rust.folded" ";simplelog::termlog::TermLogger::init::{{closure}};"
	has "Rust peer generic" "$tmp/rust.folded" ";<core::result::Result<T, E>>::and_then;"
	has "Rust peer hash cut" "$tmp/rust.folded" ";emulator::main;"
	# the same stacks and weights, only the names differ
	checks=$((checks + 1))
	sum() { awk '{s += $NF; n++} END {print n, s}' "$1"; }
	[ "$(sum "$tmp/rust.folded")" = "$(sum "$tmp/rust.fg")" ] ||
		fail "Rust peer: stacks/weights $(sum "$tmp/rust.folded") vs $(sum "$tmp/rust.fg")"
else
	echo "SKIP: no $rust (../shared is absent): half-demangled Rust not read"
fi

# ---- perf inject --jit: jitted-PID-N.so frames are JIT ----------------------

jit=$TESTDATA/py-handler/script313jit-injected.txt.zst
zstd -q -dc "$jit" >"$tmp/jit.txt"
same "jitted --jit" "$d/jitted.jit.folded.zst" "$BIN" collapse --jit "$tmp/jit.txt"
same "jitted --jit --compat=flamegraph" "$d/jitted.jit.flamegraph.folded.zst" \
	"$BIN" collapse --jit --compat=flamegraph "$tmp/jit.txt"
zstd -q -dc "$d/jitted.jit.folded.zst" | grep -q '_\[j\]' ||
	fail "jitted: the expected output tags no frame _[j]"

# ---- kernel frames named by /usr/lib/debug/boot/vmlinux-VERSION -------------

for t in kernel kernel-kallsyms; do
	same "kernel $t --kernel" "$d/kernel.kernel.folded" \
		"$BIN" collapse --kernel "$(text $t)"
done
same "kernel --kernel --compat=flamegraph" "$d/kernel.kernel.flamegraph.folded" \
	"$BIN" collapse --kernel --compat=flamegraph "$(text kernel)"

# ---- perfan report and flamegraph read the text alike -----------------------

"$BIN" report "$(text fnobj)" >"$tmp/report" 2>"$tmp/err" ||
	fail "report: $(head -c 300 "$tmp/err")"
has "report C++" "$tmp/report" "[.] std::function<int (int, int)>::operator"
has "report lambda" "$tmp/report" "[.] main::{lambda(int, int)#2}::operator"
"$BIN" report --no-children "$(text kernel)" >"$tmp/report" 2>"$tmp/err" ||
	fail "report: $(head -c 300 "$tmp/err")"
has "report vmlinux-VERSION is kernel" "$tmp/report" "vmlinux-6.18.44-fc-v1045  [k] pvm_irq_enable"
"$BIN" report "$(text gcbox-nodemangle)" >"$tmp/report" 2>"$tmp/err" ||
	fail "report: $(head -c 300 "$tmp/err")"
has "report Rust" "$tmp/report" "[.] <gcbox::GcBox<T> as gcbox::Visit>::visit"
"$BIN" flamegraph -o "$tmp/fn.svg" "$(text fnobj)" 2>"$tmp/err" ||
	fail "flamegraph: $(head -c 300 "$tmp/err")"
has "flamegraph C++" "$tmp/fn.svg" "std::function&lt;int (int, int)&gt;::operator"

# ---- --compat takes flamegraph or none ------------------------------------

same "--compat=none" "$d/fnobj.folded" "$BIN" collapse --compat=none "$(text fnobj)"
checks=$((checks + 1))
"$BIN" collapse --compat=inferno "$(text fnobj)" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q -- "--compat: 'inferno'" "$tmp/err" ||
	fail "--compat=inferno: exit $rc, $(head -c 200 "$tmp/err")"

if [ "$fails" != 0 ]; then
	echo "$fails of $checks checks failed"
	exit 1
fi
echo "all $checks checks passed"
