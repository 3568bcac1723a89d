#!/usr/bin/env bash
# Side by side, single-threaded full decode: DuckDB (EXPLAIN ANALYZE timing,
# median of 5 after a warm-up) and parquetry's read_bench (median of 5),
# back to back per file. Prints ratio = duckdb_median / parquetry_median
# (>= 1.0 means parquetry is at least as fast).
#   bench/compare.sh [FILE...]     (default: every bench/data/*.parquet)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${READ_BENCH:-$here/build/release/read_bench}
[ -x "$bench" ] || { echo "build first: make release" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here"/bench/data/*.parquet)
printf "%-34s %12s %12s %7s\n" file duckdb_ms parquetry_ms ratio
for f in "${files[@]}"; do
  d=$(node "$here/bench/duckdb_scan.mjs" "$f" | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
  p=$("$bench" "$f" --repeat 5 | sed -n 's/.*median_seconds=\([0-9.]*\).*/\1/p')
  pm=$(awk -v s="$p" 'BEGIN{printf "%.1f", s*1000}')
  r=$(awk -v a="$d" -v b="$pm" 'BEGIN{printf "%.2f", a/b}')
  printf "%-34s %12s %12s %7s\n" "$(basename "$f")" "$d" "$pm" "$r"
done
