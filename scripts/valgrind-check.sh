#!/usr/bin/env bash
# Memcheck run: build a plain Debug tree (no sanitizers: ASan and valgrind do
# not mix) in build/valgrind and run the conformance test programs under
# valgrind's memcheck. Exits non-zero on any memcheck error (invalid read or
# write, use of uninitialised memory, bad free, definite/indirect/possible
# leak) and on any test failure. Logs go to build/valgrind/memcheck/<test>.log.
#
# usage: scripts/valgrind-check.sh [TEST...]
#   TEST: test program names (default: the conformance tests over the whole
#     corpus, plus test_seed004, test_bad_data and test_recovery).
#   PARQUET_TESTING_DIR: the corpus (default ../shared/parquet-testing); it
#     must be present, since the corpus is what this check is about.
#   JOBS: build parallelism (default: nproc).
#   VALGRIND_ARGS: extra memcheck options (e.g. --track-origins=yes to find
#     where an uninitialised value came from).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build/valgrind"
LOGS="$BUILD/memcheck"
SUPP="$ROOT/scripts/valgrind.supp"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
TESTING="${PARQUET_TESTING_DIR:-$ROOT/../shared/parquet-testing}"

if [ $# -eq 0 ]; then
  set -- test_cat_conformance test_arrow_export test_footer_roundtrip \
         test_encrypted_corpus test_seed004 test_bad_data test_recovery
fi

bash "$ROOT/scripts/install-deps.sh"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "valgrind-check: installing valgrind"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq valgrind >/dev/null
fi

if [ ! -d "$TESTING" ]; then
  echo "valgrind-check: parquet-testing corpus not found at $TESTING (set PARQUET_TESTING_DIR)" >&2
  exit 2
fi
PARQUET_TESTING_DIR="$(cd "$TESTING" && pwd)"
export PARQUET_TESTING_DIR

cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug -DPQT_SANITIZE=OFF -DPQT_FUZZ=OFF \
      -DPQT_BUILD_TESTS=ON >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target "$@"

# shellcheck disable=SC2054  # the commas are in memcheck option values
vg=(valgrind --tool=memcheck --leak-check=full
    --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible
    --error-exitcode=99 --track-origins=no --num-callers=30)
[ -f "$SUPP" ] && vg+=(--suppressions="$SUPP")
# shellcheck disable=SC2206
[ -n "${VALGRIND_ARGS:-}" ] && vg+=(${VALGRIND_ARGS})

mkdir -p "$LOGS"
failed=()
for t in "$@"; do
  log="$LOGS/$t.log"
  start=$(date +%s)
  set +e
  (cd "$BUILD" && "${vg[@]}" --log-file="$log" "./$t") >"$LOGS/$t.out" 2>&1
  rc=$?
  set -e
  secs=$(( $(date +%s) - start ))
  errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  # "All heap blocks were freed" prints no per-kind lines: that is 0 each.
  leak() { local n; n=$(sed -n "s/.*$1: \([0-9,]*\) bytes.*/\1/p" "$log" | tail -1 | tr -d ,); echo "${n:-0}"; }
  printf '%-24s rc=%-3s %3ss  errors=%s definitely=%s indirectly=%s possibly=%s  %s\n' \
    "$t" "$rc" "$secs" "${errs:-?}" "$(leak 'definitely lost')" "$(leak 'indirectly lost')" \
    "$(leak 'possibly lost')" "$(tail -1 "$LOGS/$t.out")"
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    if [ "$rc" -eq 99 ]; then
      # The first error reports, for the log.
      grep -m1 -A25 -E '^==[0-9]+== (Invalid|Conditional|Use of|Mismatched|Source and|Syscall param|[0-9,]+ (\([0-9,]+ direct, [0-9,]+ indirect\) )?bytes in)' "$log" || true
    else
      tail -20 "$LOGS/$t.out"
    fi
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "valgrind-check: FAILED: ${failed[*]} (logs in $LOGS)" >&2
  exit 1
fi
echo "valgrind-check: clean (logs in $LOGS)"
