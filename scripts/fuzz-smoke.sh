#!/usr/bin/env bash
# Fuzz smoke run: build every libFuzzer target (clang, into build/fuzz) and run
# each for SECONDS (default 30) on a seed corpus assembled in a temporary
# directory, one target at a time (one job, one worker). Exits non-zero on a
# finding (crash, leak, timeout, out-of-memory); the crashing input is kept
# under build/fuzz/findings/ and its path printed.
#
# usage: scripts/fuzz-smoke.sh [SECONDS] [TARGET...]
#   TARGET: fuzz_thrift, fuzz_read_file, ... (default: every fuzz/fuzz_*.c)
#   PARQUET_TESTING_DIR: the corpus (default ../shared/parquet-testing);
#     its files up to SEED_MAX_BYTES (default 65536) seed fuzz_read_file.
#   FUZZ_NO_BUILD=1: use the existing build/fuzz binaries.
#   FUZZ_DIR=DIR: the binaries (and findings/) in DIR instead (with FUZZ_NO_BUILD=1:
#     a copy of build/fuzz kept still for a long run while the tree is rebuilt).
#   FUZZ_KEEP_CORPUS=DIR: build the working corpora under DIR and keep them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECS="${1:-30}"
shift || true
TESTING="${PARQUET_TESTING_DIR:-$ROOT/../shared/parquet-testing}"
SEED_MAX_BYTES="${SEED_MAX_BYTES:-65536}"
FUZZ_DIR="${FUZZ_DIR:-$ROOT/build/fuzz}"
FINDINGS="$FUZZ_DIR/findings"

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
  make -C "$ROOT" fuzz >/dev/null
fi

if [ $# -eq 0 ]; then
  set --
  for src in "$ROOT"/fuzz/fuzz_*.c; do set -- "$@" "$(basename "$src" .c)"; done
fi

if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then
  WORK="$FUZZ_KEEP_CORPUS"
  mkdir -p "$WORK"
else
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/pqt-fuzz-smoke.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$FINDINGS"

# seed_corpus TARGET DIR: fill DIR with the seeds of TARGET.
seed_corpus() {
  local t="$1" dir="$2" short="${1#fuzz_}"
  mkdir -p "$dir"
  for d in "$ROOT/fuzz/corpus/$short" "$ROOT/fuzz/corpus/$t" "$ROOT/tests/hardening/fuzz_regressions/$t"; do
    [ -d "$d" ] && find "$d" -maxdepth 1 -type f -exec cp -t "$dir" {} +
  done
  if { [ "$t" = fuzz_codec ] || [ "$t" = fuzz_encoding ] || [ "$t" = fuzz_arrow_schema ]; } && [ -d "$TESTING" ]; then
    # real compressed pages, level/value sections and ARROW:schema values of the corpus
    local pages="$WORK/pages"
    if [ ! -d "$pages" ]; then
      mkdir -p "$pages/codec" "$pages/encoding" "$pages/arrow_schema"
      "$FUZZ_DIR/seeds_from_corpus" "$TESTING" "$pages/codec" "$pages/encoding" "$pages/arrow_schema" >/dev/null || true
    fi
    find "$pages/$short" -maxdepth 1 -type f -exec cp -t "$dir" {} +
  fi
  if [ "$t" = fuzz_read_file ] || [ "$t" = fuzz_salvage ] || [ "$t" = fuzz_meta_api ] || [ "$t" = fuzz_scrub ]; then
    [ "$t" = fuzz_salvage ] && find "$ROOT/fuzz/corpus/read_file" -maxdepth 1 -type f -exec cp -t "$dir" {} +
    cp "$ROOT"/tests/fixtures/seed004_*.parquet "$dir"/ 2>/dev/null || true
    if [ -d "$TESTING" ]; then
      # name each seed after its corpus path so same-named files do not clash
      find "$TESTING" -type f \( -name '*.parquet' -o -name '*.parq' -o -name '*.encrypted' \) \
        -size -"$((SEED_MAX_BYTES + 1))"c -print0 |
        while IFS= read -r -d '' f; do
          rel="${f#"$TESTING"/}"
          cp "$f" "$dir/${rel//\//__}"
        done
    else
      echo "fuzz-smoke: NOTE: no corpus at $TESTING (set PARQUET_TESTING_DIR); seeding from fixtures only" >&2
    fi
  fi
}

status=0
for t in "$@"; do
  bin="$FUZZ_DIR/$t"
  [ -x "$bin" ] || { echo "fuzz-smoke: no target $bin" >&2; exit 2; }
  corpus="$WORK/$t"
  seed_corpus "$t" "$corpus"
  extra=()
  case "$t" in
    fuzz_read_file|fuzz_salvage|fuzz_meta_api|fuzz_scrub) extra=(-dict="$ROOT/fuzz/parquet.dict" -max_len=$((SEED_MAX_BYTES * 2))) ;;
    fuzz_thrift) extra=(-dict="$ROOT/fuzz/parquet.dict") ;;
  esac
  n_seeds=$(find "$corpus" -type f | wc -l)
  echo "fuzz-smoke: $t for ${SECS}s ($n_seeds seeds)"
  log="$WORK/$t.log"
  start=$(date +%s)
  if "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2560 \
      -print_final_stats=1 -artifact_prefix="$FINDINGS/$t-" "${extra[@]}" "$corpus" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz-smoke: $t ok: $execs runs in $(( $(date +%s) - start ))s"
  else
    status=1
    echo "fuzz-smoke: $t FAILED after $(( $(date +%s) - start ))s; last lines of the log:" >&2
    tail -n 40 "$log" >&2
    grep -o "Test unit written to .*" "$log" >&2 || true
  fi
done
exit $status
