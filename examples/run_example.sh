#!/usr/bin/env bash
# examples/run_example.sh EXAMPLE CORPUS_DIR [ARGS...]: how ctest runs an
# example (CMakeLists.txt adds one test per examples/*.c, ARGS from its
# "ctest-args:" comment line). It runs in a fresh temporary folder, so what
# it writes goes there and is removed afterwards; an argument under the
# corpus folder that is absent skips the test (77) instead of failing it.
set -u
exe=$1
corpus=$2
shift 2
for a in "$@"; do
  case $a in
    "$corpus"/*) [ -e "$a" ] || { echo "SKIP: $a not found (the parquet-testing corpus)"; exit 77; } ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
TMPDIR=$tmp "$exe" "$@"
rc=$?
echo "exit status $rc"
exit $rc
