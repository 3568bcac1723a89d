#!/usr/bin/env bash
# make lint: clang-tidy (bugprone, cert, clang-analyzer; see .clang-tidy for
# what is off and why) and cppcheck over src/ and cli/, both from Debian
# (apt-get install clang-tidy cppcheck).
#
#   make lint                          # the whole tree (JOBS=2 by default)
#   JOBS=4 bash scripts/lint.sh        # the same, 4 clang-tidy processes
#   bash scripts/lint.sh src/column/column_writer.c cli/main.c   # just these files
#
# Zero findings, or each one justified inline where it is:
#   code;  // NOLINT(check-name): why it is right here
#   // cppcheck-suppress id ; why it is right here      (on the line before)
# Prints every finding as file:line:col: warning: ... [check], then the
# counts; exits 1 on any finding (or when a tool is missing), 0 on none.
# It takes a few minutes on 2 cores (clang-tidy runs the static analyzer).
set -uo pipefail
cd "$(dirname "$0")/.."
for tool in clang-tidy cppcheck; do
  command -v $tool >/dev/null || { echo "lint: $tool missing (make deps, or apt-get install clang-tidy cppcheck)"; exit 1; }
done
dir=build/lint
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DPQT_BUILD_TESTS=OFF >/dev/null || exit 1
if [ $# -gt 0 ]; then files="$*"; cpp_targets="$*"; else files=$(ls src/*/*.c cli/*.c); cpp_targets="src cli"; fi
tidy_out=$(mktemp); cpp_out=$(mktemp); trap 'rm -f "$tidy_out" "$cpp_out"' EXIT
echo "lint: clang-tidy on $(echo "$files" | wc -w) files"
# shellcheck disable=SC2086
printf '%s\n' $files | xargs -P "${JOBS:-2}" -n 4 clang-tidy -p "$dir" --quiet 2>/dev/null |
  grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' | sort -u >"$tidy_out"
echo "lint: cppcheck"
# -D__CPPCHECK__: PQT_ASSERT_TYPE_ (thrift/parquet_types.h) is a _Generic
# cppcheck 2.10 cannot parse; this build of it defines the name only when told.
# shellcheck disable=SC2086
cppcheck --enable=warning,portability,performance --std=c11 --inline-suppr --quiet -D__CPPCHECK__ \
  -I include -I src --suppress=missingIncludeSystem -j "${JOBS:-2}" $cpp_targets 2>"$cpp_out"
# a finding is a warning or error line; cppcheck's "note:" lines explain the one above
n_tidy=$(grep -c . "$tidy_out")
n_cpp=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: (warning|error|style|performance|portability):' "$cpp_out")
cat "$tidy_out"
grep -E '^[^ ]+:[0-9]+' "$cpp_out"
echo "lint: clang-tidy $n_tidy findings, cppcheck $n_cpp findings"
[ "$n_tidy" -eq 0 ] && [ "$n_cpp" -eq 0 ] && exit 0
exit 1
