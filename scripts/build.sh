#!/usr/bin/env bash
# build.sh [CMAKE_ARGS...]: configure and build perfan (-O2 -g) into build/,
# or into $BUILD_DIR. Extra arguments go to the configure step.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$BUILD_DIR" -j"$(nproc)"
