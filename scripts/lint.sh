#!/usr/bin/env bash
# make lint: clang-tidy (bugprone, cert, clang-analyzer; see .clang-tidy for
# what is off and why) and cppcheck over src/ and cli/, both from Debian.
# Zero findings, or each one justified inline (NOLINT(check): reason /
# cppcheck-suppress id with a reason beside it). Exits 1 on any finding.
set -uo pipefail
cd "$(dirname "$0")/.."
for tool in clang-tidy cppcheck; do
  command -v $tool >/dev/null || { echo "lint: $tool missing (apt-get install clang-tidy cppcheck)"; exit 1; }
done
dir=build/lint
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DPQT_BUILD_TESTS=OFF >/dev/null || exit 1
files=$(ls src/*/*.c cli/*.c)
tidy_out=$(mktemp); cpp_out=$(mktemp); trap 'rm -f "$tidy_out" "$cpp_out"' EXIT
echo "lint: clang-tidy on $(echo "$files" | wc -w) files"
printf '%s\n' $files | xargs -P "${JOBS:-2}" -n 4 clang-tidy -p "$dir" --quiet 2>/dev/null |
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' | sort -u >"$tidy_out"
echo "lint: cppcheck"
cppcheck --enable=warning,portability,performance --std=c11 --inline-suppr --quiet \
  -I include -I src --suppress=missingIncludeSystem -j "${JOBS:-2}" src cli 2>"$cpp_out"
n_tidy=$(grep -c . "$tidy_out"); n_cpp=$(grep -cE '^[^ ]+:[0-9]+' "$cpp_out")
cat "$tidy_out"; grep -E '^[^ ]+:[0-9]+' "$cpp_out"
echo "lint: clang-tidy $n_tidy findings, cppcheck $n_cpp findings"
[ "$n_tidy" -eq 0 ] && [ "$n_cpp" -eq 0 ]
