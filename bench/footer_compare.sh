#!/usr/bin/env bash
# Opening a file and decoding its whole footer, single-threaded, back to back:
#   duckdb    bench/duckdb_footer.mjs  (SELECT count(*) FROM read_parquet(F), wall clock)
#   chdb      bench/chdb_scan.mjs F RUNS "SELECT count() FROM file({file}, Parquet)"
#   parquetry build/release/footer_bench F --repeat RUNS
# each the median of RUNS (default 5) after a warm-up; ratio = peer_ms /
# parquetry_ms, within 3% of 1.00 marked `~`; a peer not installed is `absent`.
# Two rows: the wall clock and the CPU time of the process (user + system)
# over each call, which a loaded shared machine distorts less.
#   bench/footer_compare.sh [FILE]   (default: /dev/shm/parquetry-footer-10k.parquet,
#                                      made by footer_bench --make when missing:
#                                      10,000 columns x 10 row groups)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bench=${FOOTER_BENCH:-$here/build/release/footer_bench}
[ -x "$bench" ] || { echo "build first: make release" >&2; exit 2; }
runs=${RUNS:-5}
f=${1:-/dev/shm/parquetry-footer-10k.parquet}
[ -f "$f" ] || "$bench" --make "$f" >&2

# peer ARGS...: "wall_ms cpu_ms" medians, or "absent absent" / "error error".
peer() {
  local out rc=0
  out=$(node "$@" 2>/dev/null) || rc=$?
  if [ $rc -eq 3 ]; then echo "absent absent"; return; fi
  if [ $rc -ne 0 ]; then echo "error error"; return; fi
  sed -n 's/.*median_ms=\([0-9.]*\).*cpu_ms=\([0-9.]*\).*/\1 \2/p' <<<"$out"
}
ratio() {
  case "$1" in absent | error) echo "-"; return ;; esac
  awk -v a="$1" -v b="$2" 'BEGIN{r=a/b; d=r-1; if (d<0) d=-d; printf "%.2f%s", r, (d<0.03?"~":"")}'
}
read -r dw dc < <(peer "$here/bench/duckdb_footer.mjs" "$f" "$runs")
read -r cw cc < <(peer "$here/bench/chdb_scan.mjs" "$f" "$runs" "SELECT count() FROM file({file}, Parquet)")
out=$("$bench" "$f" --repeat "$runs")
pw=$(sed -n 's/^rows=.*median_seconds=\([0-9.]*\).*/\1/p' <<<"$out" | awk '{printf "%.1f", $1*1000}')
pc=$(sed -n 's/^cpu_.*cpu_median_seconds=\([0-9.]*\).*/\1/p' <<<"$out" | awk '{printf "%.1f", $1*1000}')
printf "%-24s %-5s %9s %9s %12s %8s %8s\n" file time duckdb_ms chdb_ms parquetry_ms r_duckdb r_chdb
name=$(basename "$f" .parquet)
printf "%-24s %-5s %9s %9s %12s %8s %8s\n" "$name" wall "$dw" "$cw" "$pw" "$(ratio "$dw" "$pw")" "$(ratio "$cw" "$pw")"
printf "%-24s %-5s %9s %9s %12s %8s %8s\n" "$name" cpu "$dc" "$cc" "$pc" "$(ratio "$dc" "$pc")" "$(ratio "$cc" "$pc")"
echo "medians of $runs; ratio = peer / parquetry; wall: clock around the call, cpu: the process's user + system time over it"
