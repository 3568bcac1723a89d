#!/usr/bin/env bash
# Side by side, full decode, back to back per file, every reader at the same
# thread count (THREADS, default 1):
#   duckdb   bench/duckdb_scan.mjs  (EXPLAIN ANALYZE Total Time, threads=THREADS)
#   chdb     bench/chdb_scan.mjs    (ClickHouse: FORMAT Null, max_threads=THREADS, max_parsing_threads=THREADS)
#   polars   bench/polars_scan.mjs  (readParquet, POLARS_MAX_THREADS=THREADS)
#   parquetry build/release/read_bench --threads THREADS
# each the median of 5 runs after a warm-up. For each peer the ratio is
# peer_ms / parquetry_ms (>= 1.00: parquetry at least as fast); `best` is
# the ratio to the fastest peer present. A ratio within 3% of 1.00 is printed
# as measured and marked `~` (within the noise of this shared machine), never
# rounded away. A peer that is not installed (scripts/install-bench-peers.sh)
# is shown as `absent`; that is not a failure.
#   bench/compare.sh [FILE...]     (default: every bench/data/*.parquet)
#   PEERS="duckdb chdb" bench/compare.sh ...   (a subset of the peers)
#   THREADS=2 bench/compare.sh ...              (every reader with 2 threads)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${READ_BENCH:-$here/build/release/read_bench}
[ -x "$bench" ] || { echo "build first: make release" >&2; exit 2; }
runs=${RUNS:-5}
threads=${THREADS:-1}
export THREADS=$threads
peers=(${PEERS:-duckdb chdb polars})
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here"/bench/data/*.parquet)

# peer_ms NAME FILE: the median in ms, "absent" (not installed) or "error".
peer_ms() {
  local out rc=0
  out=$(node "$here/bench/$1_scan.mjs" "$2" "$runs" 2>/dev/null) || rc=$?
  if [ $rc -eq 3 ]; then echo absent; return; fi
  if [ $rc -ne 0 ]; then echo error; return; fi
  sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<<"$out"
}
# ratio A B: A/B with two decimals, `~` appended within 3% of 1.
ratio() {
  case "$1" in absent | error) echo "-"; return ;; esac
  awk -v a="$1" -v b="$2" 'BEGIN{r=a/b; d=r-1; if (d<0) d=-d; printf "%.2f%s", r, (d<0.03?"~":"")}'
}

printf "%-28s" file
for p in "${peers[@]}"; do printf " %9s" "${p}_ms"; done
printf " %12s" parquetry_ms
for p in "${peers[@]}"; do printf " %8s" "r_$p"; done
printf " %8s\n" r_best
for f in "${files[@]}"; do
  declare -A ms=()
  for p in "${peers[@]}"; do ms[$p]=$(peer_ms "$p" "$f"); done
  s=$("$bench" "$f" --repeat "$runs" --threads "$threads" | sed -n 's/.*median_seconds=\([0-9.]*\).*/\1/p')
  pm=$(awk -v s="$s" 'BEGIN{printf "%.1f", s*1000}')
  best=""
  printf "%-28s" "$(basename "$f" .parquet)"
  for p in "${peers[@]}"; do
    printf " %9s" "${ms[$p]}"
    case "${ms[$p]}" in absent | error) ;; *)
      if [ -z "$best" ] || awk -v a="${ms[$p]}" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=${ms[$p]}; fi ;;
    esac
  done
  printf " %12s" "$pm"
  for p in "${peers[@]}"; do printf " %8s" "$(ratio "${ms[$p]}" "$pm")"; done
  printf " %8s\n" "$( [ -n "$best" ] && ratio "$best" "$pm" || echo -)"
  unset ms
done
echo "threads=$threads; ratio = peer_ms / parquetry_ms (medians of $runs); ~ = within 3% of 1.00 (noise); absent = peer not installed (scripts/install-bench-peers.sh)"
