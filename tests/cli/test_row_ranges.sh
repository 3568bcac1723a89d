#!/usr/bin/env bash
# `parquetry cat/head/count --rows/--offset/--limit` and the writer's
# `--page-rows`/`--page-size`: a file converted with pages of 100 rows in
# row groups of 1000, sorted by id. The rows printed are exactly those of
# the unfiltered output at the positions asked for; a row range is read by
# pages (a few pages, a fraction of the bytes); --where applies to the rows
# the range picks; bad ranges are usage errors (exit 2). Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-rows.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

awk 'BEGIN { srand(7); print "id,name,score";
  for (i = 0; i < 5000; i++) printf "%d,%s,%s\n", i, (i%11==0 ? "" : sprintf("n%d", int(rand()*50))),
    (i%7==0 ? "" : sprintf("%.2f", rand()*100)) }' > "$tmp/t.csv"
schema='message m { required int64 id; optional binary name (STRING); optional double score; }'
"$cli" convert --row-group-size 1000 --page-rows 100 --schema "$schema" "$tmp/t.csv" "$tmp/t.parquet" || bad "convert"
"$cli" convert --row-group-size 1000 --page-size 1M --schema "$schema" "$tmp/t.csv" "$tmp/big.parquet" || bad "convert big pages"
"$cli" cat --format csv "$tmp/t.parquet" | tail -n +2 > "$tmp/all.csv"
[ "$(wc -l < "$tmp/all.csv")" = 5000 ] && ok || bad "full read"
# pages of 100 rows: 10 data pages per chunk, one with --page-size 1M
n_small=$("$cli" pages --lines -c id "$tmp/t.parquet" | grep -c "DATA_PAGE")
n_big=$("$cli" pages --lines -c id "$tmp/big.parquet" | grep -c "DATA_PAGE")
[ "$n_small" = 50 ] && [ "$n_big" = 5 ] && ok || bad "pages: $n_small with --page-rows 100, $n_big with --page-size 1M"

# rows A-B (B excluded) equal lines A+1..B of the full output
range() {
  local opts=$1 first=$2 last=$3
  # shellcheck disable=SC2086
  "$cli" cat --format csv $opts --stats "$tmp/t.parquet" 2>"$tmp/stats.txt" | tail -n +2 > "$tmp/got.csv"
  if [ "$last" -ge "$first" ]; then sed -n "$((first + 1)),$((last + 1))p" "$tmp/all.csv" > "$tmp/want.csv"; else : > "$tmp/want.csv"; fi
  cmp -s "$tmp/got.csv" "$tmp/want.csv" && ok || bad "$opts: $(wc -l < "$tmp/got.csv") rows, want $(wc -l < "$tmp/want.csv")"
}
range "--rows 1200-1250" 1200 1249
range "--rows 950-1050" 950 1049
range "--offset 4990" 4990 4999
range "--offset 100 --limit 5" 100 104
range "--rows 10-20 --offset 15" 15 19
range "--rows 4999-" 4999 4999
range "--rows 6000-7000" 1 0
# a range reads its pages only: 2 of 50 pages per column, a small part of the bytes
"$cli" cat --rows 1200-1250 --stats "$tmp/t.parquet" 2>"$tmp/s1.txt" >/dev/null
"$cli" cat --stats "$tmp/t.parquet" 2>"$tmp/s0.txt" >/dev/null
grep -qE "^rows=50 row_groups=1/5 pages=3/150 " "$tmp/s1.txt" && ok || bad "range stats: $(cat "$tmp/s1.txt")"
b1=$(sed 's/.*bytes_read=//' "$tmp/s1.txt"); b0=$(sed 's/.*bytes_read=//' "$tmp/s0.txt")
[ "$b1" -gt 0 ] && [ $((b1 * 10)) -lt "$b0" ] && ok || bad "range read $b1 bytes, the full read $b0"
# head: the first pages only
"$cli" head -n 5 --stats "$tmp/t.parquet" 2>"$tmp/s2.txt" | wc -l | grep -q '^5$' && ok || bad "head"
grep -qE "^rows=5 row_groups=1/1 pages=3/30 " "$tmp/s2.txt" && ok || bad "head stats: $(cat "$tmp/s2.txt")"
# --where over a range
want=$(sed -n '2001,3000p' "$tmp/all.csv" | awk -F, '$2 == "n7"' | wc -l)
[ "$("$cli" count --rows 2000-3000 --where "name = 'n7'" "$tmp/t.parquet")" = "$want" ] && ok || bad "count --rows --where"
got=$("$cli" cat --format csv --rows 2000-3000 --where "name = 'n7'" "$tmp/t.parquet" | tail -n +2 | wc -l)
[ "$got" = "$want" ] && ok || bad "cat --rows --where: $got rows, want $want"
# count answers ranges from the footer
[ "$("$cli" count --rows 10-20,4000- --stats "$tmp/t.parquet" 2>"$tmp/s3.txt")" = 1010 ] && ok || bad "count --rows"
grep -q "bytes_read=0$" "$tmp/s3.txt" && ok || bad "count --rows read: $(cat "$tmp/s3.txt")"
[ "$("$cli" count --offset 4000 --limit 7 "$tmp/t.parquet")" = 7 ] && ok || bad "count --offset --limit"
# tail: the last rows are a row range, read by the pages that hold them
# (the last page of each column), not decoded from the group's start
"$cli" tail -n 5 --format csv --stats "$tmp/t.parquet" 2>"$tmp/s4.txt" | tail -n +2 > "$tmp/got.csv"
tail -n 5 "$tmp/all.csv" > "$tmp/want.csv"
cmp -s "$tmp/got.csv" "$tmp/want.csv" && ok || bad "tail -n 5: rows differ"
grep -qE "^rows=5 row_groups=1/1 pages=3/30 " "$tmp/s4.txt" && ok || bad "tail stats: $(cat "$tmp/s4.txt")"
# across a row-group boundary: the last page of one group, every page of the next
"$cli" tail -n 1050 --format csv --stats "$tmp/t.parquet" 2>"$tmp/s5.txt" | tail -n +2 > "$tmp/got.csv"
tail -n 1050 "$tmp/all.csv" > "$tmp/want.csv"
cmp -s "$tmp/got.csv" "$tmp/want.csv" && ok || bad "tail -n 1050: rows differ"
grep -qE "^rows=1050 row_groups=2/2 pages=33/60 " "$tmp/s5.txt" && ok || bad "tail -n 1050 stats: $(cat "$tmp/s5.txt")"
# with --where the matching rows are counted back from the last group
want=$(awk -F, '$2 == "n7"' "$tmp/all.csv" | tail -n 3)
[ "$("$cli" tail -n 3 --format csv --where "name = 'n7'" "$tmp/t.parquet" | tail -n +2)" = "$want" ] && ok || bad "tail --where"

# usage errors
for r in "5-2" "x" "10-20,15-30" "-5"; do
  "$cli" cat --rows "$r" "$tmp/t.parquet" >/dev/null 2>&1; rc=$?
  [ $rc = 2 ] && ok || bad "--rows '$r': exit $rc"
done
"$cli" convert --page-rows 0 --schema "$schema" "$tmp/t.csv" "$tmp/x.parquet" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok || bad "--page-rows 0: exit $rc"
"$cli" convert --page-size 12Q --schema "$schema" "$tmp/t.csv" "$tmp/x.parquet" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok || bad "--page-size 12Q: exit $rc"

echo "row ranges: $pass passed, $fail failed"
[ $fail -eq 0 ]
