#!/usr/bin/env bash
# test.sh: everything CI checks, in order, stopping at the first failure:
# the unit and CLI tests, again under ASan+UBSan, every libFuzzer target
# for a few seconds from its seeds, then an install and the
# example built against the installed library, with pkg-config (shared and
# static) and with CMake's find_package.
# PERFAN_TEST_SANITIZERS=0 leaves out the ASan+UBSan pass and the fuzzers:
# .ci/run's second pass, which repeats the suite on another path and host
# to catch tests that lean on the machine, not on the code it has already
# checked under the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==== %s ====\n' "$*"; }
jobs=$(nproc)

step "Installing missing packages"
./scripts/setup.sh

step "Building into build/"
./scripts/build.sh

step "Tests (build/)"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${PERFAN_TEST_SANITIZERS:-1}" != 0 ]; then
	step "Building with ASan and UBSan into build-asan/"
	BUILD_DIR=build-asan ./scripts/build.sh -DCMAKE_BUILD_TYPE=Debug \
		-DPERFAN_SANITIZE=ON

	step "Tests under ASan and UBSan (build-asan/)"
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
		ctest --test-dir build-asan --output-on-failure -j"$jobs"

	step "libFuzzer targets, built with clang into build-fuzz/, 10 s each"
	./scripts/fuzz.sh 10
else
	step "PERFAN_TEST_SANITIZERS=0: no ASan+UBSan pass, no fuzzers"
fi

step "Installing build/ into a temporary prefix"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix"
pc=$(find "$prefix" -name perfan.pc -path '*/pkgconfig/*' -print -quit)
[ -n "$pc" ] || { echo "perfan.pc was not installed" >&2; exit 1; }
PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir perfan)

step "Example built against the installed library with pkg-config"
mkdir "$prefix/examples"
cp examples/Makefile examples/*.c "$prefix/examples/"
make -C "$prefix/examples"
ex="$prefix/examples/event_counts"
# the shared build must load the installed library, not one from build/
LD_LIBRARY_PATH="$libdir" ldd "$ex" | grep -F "$libdir/libperfan.so" ||
	{ echo "event_counts does not use $libdir/libperfan.so" >&2; exit 1; }
if [ -f testdata/fp/perf.data ]; then
	LD_LIBRARY_PATH="$libdir" "$ex" testdata/fp/perf.data | tee "$prefix/shared.txt"
	"$ex-static" testdata/fp/perf.data >"$prefix/static.txt"
	cmp "$prefix/shared.txt" "$prefix/static.txt"
	[ "$(wc -l <"$prefix/shared.txt")" -gt 1 ] ||
		{ echo "event_counts counted no samples" >&2; exit 1; }
else
	echo "testdata/fp/perf.data is absent: built the example, did not run it"
fi
# thread_times reads the resolved-sample stream: its per-thread off-CPU
# totals must be perf's own (testdata/offcpu/EXPECTED.txt)
tt="$prefix/examples/thread_times"
LD_LIBRARY_PATH="$libdir" ldd "$tt" | grep -F "$libdir/libperfan.so" >/dev/null ||
	{ echo "thread_times does not use $libdir/libperfan.so" >&2; exit 1; }
for rec in perf.data perf.switch.data perf.sched.data perf.py.data; do
	LD_LIBRARY_PATH="$libdir" "$tt" "testdata/offcpu/$rec" >"$prefix/tt.txt"
	"$tt-static" "testdata/offcpu/$rec" | cmp - "$prefix/tt.txt"
	python3 tests/tools/check_thread_times.py testdata/offcpu/EXPECTED.txt \
		"$rec" <"$prefix/tt.txt" >"$prefix/tt-check.txt" ||
		{ cat "$prefix/tt-check.txt"; exit 1; }
	echo "thread_times $rec: $(grep -c '^thread' "$prefix/tt-check.txt") threads agree with EXPECTED.txt"
done

step "Example built against the installed library with find_package"
cmake -S examples -B "$prefix/examples-cmake" -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$prefix/examples-cmake" -j"$jobs"
if [ -f testdata/fp/perf.data ]; then
	for v in event_counts event_counts-static; do
		"$prefix/examples-cmake/$v" testdata/fp/perf.data |
			cmp - "$prefix/shared.txt"
	done
fi
for v in thread_times thread_times-static; do
	"$prefix/examples-cmake/$v" testdata/offcpu/perf.py.data | cmp - "$prefix/tt.txt"
done

step "All tests passed"
