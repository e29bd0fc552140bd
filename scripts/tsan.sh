#!/usr/bin/env bash
# tsan.sh: build perfan with ThreadSanitizer into build-tsan/ (or
# $BUILD_DIR) and run tests/cli/threads.sh with it: every recording read
# with one thread and with two (the reader thread and the DWARF unwinding
# worker), any data race reported failing the run.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build-tsan}
BUILD_DIR=$BUILD_DIR ./scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DPERFAN_SANITIZE=thread -DPERFAN_TESTS=OFF
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# a report exits 66 and is written to $logs, so that threads.sh's compared
# outputs stay clean
TSAN_OPTIONS="halt_on_error=1 exitcode=66 log_path=$logs/tsan ${TSAN_OPTIONS:-}" \
	PERFAN_BIN=$PWD/$BUILD_DIR/perfan tests/cli/threads.sh || rc=$?
if compgen -G "$logs/tsan*" >/dev/null; then
	cat "$logs"/tsan*
	echo "tsan: ThreadSanitizer reported the above" >&2
	exit 1
fi
[ "${rc:-0}" = 0 ] || exit "$rc"
echo "tsan: threads.sh clean under ThreadSanitizer"
