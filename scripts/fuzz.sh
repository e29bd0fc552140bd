#!/usr/bin/env bash
# fuzz.sh [SECONDS]: build every libFuzzer target (tests/fuzz/fuzz_*.c) with
# clang, ASan and UBSan into build-fuzz/ (or $BUILD_DIR), and run each for
# SECONDS (default 10) from its seeds: the files that tests/fuzz/NAME.seeds
# names (globs, one per line, from the top of the tree; missing ones, such
# as ../shared where it is absent, are skipped). A crash, leak, timeout or
# broken promise of the target fails the script (leaks inside
# libtraceevent excepted: tests/fuzz/lsan.supp), and its input is left in
# $FUZZ_DIR (default a temporary folder) for tests/fuzz/README.md's steps.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-10}
BUILD_DIR=${BUILD_DIR:-build-fuzz}
mkdir -p "$BUILD_DIR"
CC=${CC:-clang} BUILD_DIR=$BUILD_DIR ./scripts/build.sh \
	-DPERFAN_FUZZ=ON -DPERFAN_TESTS=OFF >"$BUILD_DIR/build.log" 2>&1 ||
	{ tail -30 "$BUILD_DIR/build.log" >&2; exit 1; }

work=${FUZZ_DIR:-$(mktemp -d /tmp/perfan-fuzz.XXXXXX)}
status=0
shopt -s nullglob
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin=$BUILD_DIR/$name
	seeds=$work/$name/seeds corpus=$work/$name/corpus
	mkdir -p "$seeds" "$corpus"
	n=0
	if [ -f "tests/fuzz/$name.seeds" ]; then
		while read -r glob; do
			case $glob in '' | '#'*) continue ;; esac
			for f in $glob; do
				# small inputs: the fuzzer mutates what fits max_len
				[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ] || continue
				cp "$f" "$seeds/$n.$(basename "$f")"
				n=$((n + 1))
			done
		done <"tests/fuzz/$name.seeds"
	fi
	printf '%s: %d seeds, %d s\n' "$name" "$n" "$secs"
	if ! LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS} \
		"$bin" -max_total_time="$secs" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$work/$name/" "$corpus" "$seeds" \
		>"$work/$name/log" 2>&1; then
		echo "FAIL: $name (input and log in $work/$name/)" >&2
		tail -40 "$work/$name/log" >&2
		status=1
		continue
	fi
	grep -E '^stat::number_of_executed_units|^Done ' "$work/$name/log" | tail -1
done
[ -n "${FUZZ_DIR:-}" ] || [ $status -ne 0 ] || rm -rf "$work"
exit $status
