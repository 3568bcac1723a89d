#!/usr/bin/env bash
# bench/select_bench's queries side by side with DuckDB's (threads=1) on the
# same file: select_bench writes the lineitem-like file (kept in
# bench/data/select_lineitem.parquet) and times parquetry (3 passes), then
# bench/duckdb_select.mjs times each WHERE in DuckDB (a warm-up, then 3).
#   bench/select_compare.sh [select_bench options, e.g. --rows 4000000]
# Needs a release build (make release, or SELECT_BENCH=path) and DuckDB's
# Node.js API (scripts/install-duckdb.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${SELECT_BENCH:-$here/build/release/select_bench}
[ -x "$bench" ] || { echo "build first: make release (or set SELECT_BENCH)" >&2; exit 2; }
mkdir -p "$here/bench/data"
file=$here/bench/data/select_lineitem.parquet
out=$("$bench" --keep "$file" --passes 3 "$@")
echo "$out"
echo
printf "%-8s %14s %14s %8s\n" query parquetry_ms duckdb_ms ratio
d=$(node "$here/bench/duckdb_select.mjs" "$file" "" 3 | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
p=$(echo "$out" | sed -n 's/^query=full .*median_ms=\([0-9.]*\).*/\1/p')
printf "%-8s %14s %14s %8s\n" full "$p" "$d" "$(awk -v a="$d" -v b="$p" 'BEGIN{printf "%.2f", a/b}')"
echo "$out" | sed -n 's/^sql: //p' | while read -r name where; do
  d=$(node "$here/bench/duckdb_select.mjs" "$file" "$where" 3 | sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
  p=$(echo "$out" | sed -n "s/^query=$name .*median_ms=\([0-9.]*\).*/\1/p")
  printf "%-8s %14s %14s %8s\n" "$name" "$p" "$d" "$(awk -v a="$d" -v b="$p" 'BEGIN{printf "%.2f", a/b}')"
done
echo "(ratio = duckdb / parquetry: > 1 means parquetry is faster)"
