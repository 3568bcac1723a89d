#!/usr/bin/env bash
# make coverage: a plain Debug build with gcov instrumentation in
# build/coverage, every ctest test, then gcovr's line and branch figures for
# src/ and cli/ (summary on stdout, HTML in build/coverage/html/index.html).
# -fprofile-update=atomic: the threaded tests update the counters from several
# threads; without it gcovr meets negative branch counts and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v gcovr >/dev/null; then
  echo "coverage: installing gcovr (Debian)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gcovr >/dev/null
fi
dir=build/coverage
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="--coverage -fprofile-update=atomic -O0" \
  -DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage >/dev/null
cmake --build "$dir" -j "${JOBS:-2}"
find "$dir" -name '*.gcda' -delete
(cd "$dir" && ctest -j "${JOBS:-2}" --output-on-failure -E 'test_install' || true)
mkdir -p "$dir/html"
gcovr -r . --object-directory "$dir" -f 'src/' -f 'cli/' --exclude-unreachable-branches \
  --html-details "$dir/html/index.html" --print-summary
