#!/usr/bin/env bash
# `parquetry cat/head/count --where ... --stats`: a file written by `convert`
# in row groups of 1000 rows, sorted by id: the rows printed are exactly
# those awk selects from the unfiltered output; a narrow range on the sorted
# key reads one row group and fewer bytes; count answers from the footer
# without a predicate (no byte of a page read); bad expressions are usage
# errors (exit 2) naming the position. Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-filter.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

awk 'BEGIN { srand(11); print "id,name,score,flag,day";
  for (i = 0; i < 5000; i++) printf "%d,%s,%s,%s,%s\n", i, (i%11==0 ? "" : sprintf("n%d", int(rand()*50))),
    (i%7==0 ? "" : sprintf("%.2f", rand()*100)), (i%3 ? "true" : "false"),
    sprintf("2020-%02d-%02d", 1 + int(i/500), 1 + i%28) }' > "$tmp/t.csv"
"$cli" convert --row-group-size 1000 --schema 'message m { required int64 id; optional binary name (STRING); optional double score; optional boolean flag; optional int32 day (DATE); }' "$tmp/t.csv" "$tmp/t.parquet" || bad "convert"
"$cli" cat --format csv "$tmp/t.parquet" | tail -n +2 > "$tmp/all.csv"
[ "$(wc -l < "$tmp/all.csv")" = 5000 ] && ok || bad "full read"

# check WHERE AWK-CONDITION: cat --where WHERE equals the rows awk keeps
check() {
  local where=$1 cond=$2
  "$cli" cat --format csv --where "$where" --stats "$tmp/t.parquet" 2>"$tmp/stats.txt" | tail -n +2 > "$tmp/got.csv"
  awk -F, "$cond" "$tmp/all.csv" > "$tmp/want.csv"
  cmp -s "$tmp/got.csv" "$tmp/want.csv" && ok || bad "$where: $(wc -l < "$tmp/got.csv") rows, want $(wc -l < "$tmp/want.csv")"
  grep -qE "^rows=$(wc -l < "$tmp/want.csv") row_groups=[0-9]+/5 pages=[0-9]+/[0-9]+ bytes_read=[0-9]+$" "$tmp/stats.txt" \
    && ok || bad "$where: stats line '$(cat "$tmp/stats.txt")'"
  [ "$("$cli" count --where "$where" "$tmp/t.parquet")" = "$(wc -l < "$tmp/want.csv")" ] && ok || bad "$where: count"
}
check "id >= 1200 AND id < 1250" '$1 >= 1200 && $1 < 1250'
check "name = 'n7' OR name IS NULL" '$2 == "n7" || $2 == ""'
check "name LIKE 'n1%' AND flag = false" '$2 ~ /^n1/ && $4 == "false"'
check "score > 50.5 AND NOT id IN (1, 2, 3, 4000)" '$3 != "" && $3 > 50.5 && $1 != 1 && $1 != 2 && $1 != 3 && $1 != 4000'
check "day BETWEEN DATE '2020-03-01' AND '2020-03-05'" '$5 >= "2020-03-01" && $5 <= "2020-03-05"'
check "score IS NULL AND name IS NOT NULL" '$3 == "" && $2 != ""'

# a narrow range of the sorted key: one row group of five, fewer bytes
"$cli" cat --where "id BETWEEN 2100 AND 2110" --stats "$tmp/t.parquet" 2>"$tmp/s1.txt" >/dev/null
"$cli" cat --stats "$tmp/t.parquet" 2>"$tmp/s0.txt" >/dev/null
grep -q "^rows=11 row_groups=1/5 " "$tmp/s1.txt" && ok || bad "narrow range: $(cat "$tmp/s1.txt")"
b1=$(sed 's/.*bytes_read=//' "$tmp/s1.txt"); b0=$(sed 's/.*bytes_read=//' "$tmp/s0.txt")
[ "$b1" -gt 0 ] && [ $((b1 * 3)) -lt "$b0" ] && ok || bad "narrow range read $b1 bytes, the full read $b0"
# head stops after its rows
[ "$("$cli" head -n 3 --where "flag = true" "$tmp/t.parquet" | wc -l)" = 3 ] && ok || bad "head --where"
# count without a predicate: the footer only
[ "$("$cli" count --stats "$tmp/t.parquet" 2>"$tmp/s2.txt")" = 5000 ] && ok || bad "count"
grep -q "^rows=5000 row_groups=0/5 pages=0/0 bytes_read=0$" "$tmp/s2.txt" && ok || bad "count stats: $(cat "$tmp/s2.txt")"

# a field inside an optional struct (dotted path; one value per row, so its
# ColumnIndex prunes pages like a top-level column's): the rows equal a
# brute-force filter of the full read, and only the pages that can match are
# decoded (s is null on every 17th row, a null s makes s.a null: not returned)
python3 -c "
import json
for i in range(5000): print(json.dumps({'id': i, 's': {'a': i, 'b': 'x%d' % (i % 13)} if i % 17 else None}))" > "$tmp/s.jsonl"
"$cli" convert --row-group-size 5000 --page-rows 100 --schema 'message m { required int64 id; optional group s { optional int64 a; optional binary b (STRING); } }' "$tmp/s.jsonl" "$tmp/s.parquet" || bad "convert struct"
"$cli" cat "$tmp/s.parquet" > "$tmp/s_all.jsonl"
"$cli" cat --where "s.a >= 4900 AND s.a < 4950" --stats "$tmp/s.parquet" 2>"$tmp/s_stats.txt" > "$tmp/s_got.jsonl"
python3 -c "
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(''.join(json.dumps(r, separators=(',', ':')) + '\n' for r in rows if r['s'] is not None and 4900 <= r['s']['a'] < 4950), end='')" "$tmp/s_all.jsonl" > "$tmp/s_want.jsonl"
[ "$(wc -l < "$tmp/s_want.jsonl")" -gt 40 ] && cmp -s "$tmp/s_got.jsonl" "$tmp/s_want.jsonl" && ok || bad "s.a range: rows differ from the full read's"
grep -qE "^rows=4[0-9] row_groups=1/1 pages=(2|3|4)/150 " "$tmp/s_stats.txt" && ok || bad "s.a range pages: $(cat "$tmp/s_stats.txt")"

# errors: usage (exit 2) with the position
"$cli" cat --where "id >" "$tmp/t.parquet" >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc = 2 ] && grep -q "position 5: expected a literal" "$tmp/e.txt" && ok || bad "parse error: rc $rc $(cat "$tmp/e.txt")"
"$cli" count --where "nope = 1" "$tmp/t.parquet" >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc = 2 ] && grep -q "position 1: no column 'nope'" "$tmp/e.txt" && ok || bad "unknown column: rc $rc $(cat "$tmp/e.txt")"
"$cli" cat --where "day = 5" "$tmp/t.parquet" >/dev/null 2>"$tmp/e.txt"; rc=$?
[ $rc = 2 ] && grep -q "position 7: type mismatch: column 'day' is DATE" "$tmp/e.txt" && ok || bad "mismatch: rc $rc $(cat "$tmp/e.txt")"

echo "filter: $pass passed, $fail failed"
[ $fail = 0 ]
