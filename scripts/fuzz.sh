#!/usr/bin/env bash
# fuzz.sh [SECONDS]: build every libFuzzer target (tests/fuzz/fuzz_*.c) with
# clang, ASan and UBSan into build-fuzz/ (or $BUILD_DIR), and run each for
# SECONDS (default 10) from its seeds: the files that tests/fuzz/NAME.seeds
# names (globs, one per line, from the top of the tree; missing ones, such
# as ../shared where it is absent, are skipped) and the corpus that earlier
# campaigns committed, tests/fuzz/campaign/NAME/. A crash, leak, timeout or
# broken promise of the target fails the script (leaks inside
# libtraceevent excepted: tests/fuzz/lsan.supp), and its input is left in
# $FUZZ_DIR (default a temporary folder) for tests/fuzz/README.md's steps.
#
# fuzz.sh --campaign SECONDS [NAME...]: a long run of each target (or the
# NAMEd ones) that goes on past what it finds (libFuzzer's fork mode, one
# worker a target), then minimises what it added: only the inputs that
# reach code the committed corpus does not are merged into
# tests/fuzz/campaign/NAME/, for the commit. Each target's totals
# (executions, executions a second, coverage, crashes, timeouts, out of
# memory, corpus files added) go to stdout; the inputs of what it found stay
# in $FUZZ_DIR/NAME/. Exits 1 when anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."

campaign=0
if [ "${1:-}" = --campaign ]; then
	campaign=1
	shift
	[ $# -ge 1 ] || { echo "usage: fuzz.sh --campaign SECONDS [NAME...]" >&2; exit 2; }
fi
secs=${1:-10}
[ $# -gt 0 ] && shift
only=" $* "
BUILD_DIR=${BUILD_DIR:-build-fuzz}
mkdir -p "$BUILD_DIR"
CC=${CC:-clang} BUILD_DIR=$BUILD_DIR ./scripts/build.sh \
	-DPERFAN_FUZZ=ON -DPERFAN_TESTS=OFF >"$BUILD_DIR/build.log" 2>&1 ||
	{ tail -30 "$BUILD_DIR/build.log" >&2; exit 1; }

work=${FUZZ_DIR:-$(mktemp -d /tmp/perfan-fuzz.XXXXXX)}
status=0
flags=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024)
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}

# run_campaign NAME BIN SEEDS CORPUS: fork mode for $secs seconds, its
# totals, and the minimised additions merged into tests/fuzz/campaign/NAME.
run_campaign() {
	local name=$1 bin=$2 seeds=$3 corpus=$4 log=$work/$1/log
	local kept=tests/fuzz/campaign/$name
	mkdir -p "$kept"
	"$bin" "${flags[@]}" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
		-ignore_ooms=1 -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$work/$name/" "$corpus" "$seeds" >"$log" 2>&1 || true
	# what the seeds and the committed corpus reach is not added again:
	# merge into a copy of them and keep what the merge adds
	local merged=$work/$name/merged added=0 f
	rm -rf "$merged"
	mkdir -p "$merged"
	cp "$seeds"/* "$merged"/ 2>/dev/null || true
	ls "$merged" >"$work/$name/had"
	"$bin" "${flags[@]}" -merge=1 "$merged" "$corpus" >"$work/$name/merge.log" 2>&1 || {
		echo "FAIL: $name: merging the corpus (log in $work/$name/merge.log)" >&2
		return 1
	}
	for f in "$merged"/*; do
		grep -qxF "$(basename "$f")" "$work/$name/had" && continue
		cp "$f" "$kept"/
		added=$((added + 1))
	done
	local last found
	# fork mode's last status line: "#N: cov: C ft: F corp: ... exec/s: E
	# oom/timeout/crash: O/T/X time: Ss job: J dft_time: D"
	last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
	found=$(find "$work/$name" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 \
		-name 'timeout-*' -o -maxdepth 1 -name 'oom-*' -o -maxdepth 1 \
		-name 'leak-*' | wc -l)
	printf '%s: %s; corpus +%d (now %d files); %d inputs found\n' \
		"$name" "${last:-no status line (see $log)}" \
		"$added" "$(find "$kept" -type f | wc -l)" "$found"
	[ "$found" -eq 0 ]
}
shopt -s nullglob
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	[ "$only" = "  " ] || [[ $only == *" $name "* ]] || continue
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
	for f in "tests/fuzz/campaign/$name"/*; do
		[ -f "$f" ] || continue
		cp "$f" "$seeds/c.$(basename "$f")"
		n=$((n + 1))
	done
	printf '%s: %d seeds, %d s\n' "$name" "$n" "$secs"
	if [ $campaign = 1 ]; then
		run_campaign "$name" "$bin" "$seeds" "$corpus" || status=1
		continue
	fi
	if ! "$bin" "${flags[@]}" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$work/$name/" "$corpus" "$seeds" \
		>"$work/$name/log" 2>&1; then
		echo "FAIL: $name (input and log in $work/$name/)" >&2
		tail -40 "$work/$name/log" >&2
		status=1
		continue
	fi
	grep -E '^stat::number_of_executed_units|^Done ' "$work/$name/log" | tail -1
done
[ -n "${FUZZ_DIR:-}" ] || [ $status -ne 0 ] || [ $campaign = 1 ] || rm -rf "$work"
exit $status
