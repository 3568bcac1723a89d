#!/usr/bin/env bash
# `parquetry salvage`: a file written by `convert` in row groups of 1000 rows
# (also checks that --row-group-size below 65536 is honoured), cut at several
# offsets: every row group before the cut comes back, as a prefix of the
# original rows; the schema comes from --like, --schema, or the file's own
# footer when it still reads. Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-salvage.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

awk 'BEGIN { srand(7); print "id,name,score,flag,cat";
  for (i = 0; i < 5000; i++) printf "%d,name_%d,%s,%s,%s\n", i, int(rand()*300), (i%7==0 ? "" : sprintf("%.3f", rand()*100)),
    (i%3 ? "true" : "false"), substr("abc", 1 + i%3, 1) }' > "$tmp/t.csv"
"$cli" convert --row-group-size 1000 "$tmp/t.csv" "$tmp/t.parquet" || bad "convert"
[ "$("$cli" meta "$tmp/t.parquet" | grep -c '^row group [0-9]*: 1,000 rows,')" = 5 ] && ok || bad "five row groups of 1000 rows"
"$cli" cat "$tmp/t.parquet" > "$tmp/orig.jsonl"
size=$(stat -c %s "$tmp/t.parquet")

# cuts: the row group ends as the footer records them, and points inside
ends=$("$cli" meta --json --compact "$tmp/t.parquet" |
  grep -o '"num_rows":1000,"file_offset":[0-9]*,"total_compressed_size":[0-9]*' |
  awk -F'[:,]' '{ print $4 + $6 }')
[ "$(echo $ends | wc -w)" = 5 ] && ok || bad "row group ends from meta --json: $ends"
k=0
for off in $ends; do
  k=$((k + 1))
  for cut in $off $((off + 100)) $((off - 1)); do
    head -c "$cut" "$tmp/t.parquet" > "$tmp/cut.parquet"
    want=$(( cut >= off ? k * 1000 : (k - 1) * 1000 ))
    if "$cli" salvage --like "$tmp/t.parquet" "$tmp/cut.parquet" "$tmp/out.parquet" >"$tmp/out.txt" 2>"$tmp/err.txt"; then
      got=$("$cli" cat "$tmp/out.parquet" | tee "$tmp/got.jsonl" | wc -l)
      [ "$got" -ge "$want" ] && ok || bad "cut $cut: $got rows, want at least $want"
      head -n "$got" "$tmp/orig.jsonl" | cmp -s - "$tmp/got.jsonl" && ok || bad "cut $cut: rows differ from the original"
    else
      [ "$want" = 0 ] && ok || bad "cut $cut: salvage failed: $(cat "$tmp/err.txt")"
    fi
  done
done

head -c 40000 "$tmp/t.parquet" > "$tmp/cut.parquet"
"$cli" salvage --schema "$("$cli" schema "$tmp/t.parquet")" "$tmp/cut.parquet" "$tmp/s.parquet" >/dev/null 2>&1 && ok || bad "--schema"
[ "$("$cli" cat "$tmp/s.parquet" | wc -l)" -ge 3000 ] && ok || bad "--schema rows"
"$cli" salvage "$tmp/cut.parquet" "$tmp/n.parquet" >/dev/null 2>"$tmp/err.txt"
[ $? = 1 ] && grep -q "give the schema with --schema or --like" "$tmp/err.txt" && ok || bad "no schema: $(cat "$tmp/err.txt")"
[ ! -e "$tmp/n.parquet" ] && ok || bad "no output without a schema"
"$cli" salvage "$tmp/t.parquet" "$tmp/own.parquet" >/dev/null 2>&1 && ok || bad "own footer"
cmp -s <("$cli" cat "$tmp/own.parquet") "$tmp/orig.jsonl" && ok || bad "own footer: rows differ"
head -c 3000 "$tmp/t.parquet" > "$tmp/tiny.parquet"
"$cli" salvage --like "$tmp/t.parquet" "$tmp/tiny.parquet" "$tmp/tiny-out.parquet" >/dev/null 2>"$tmp/err.txt"
[ $? = 1 ] && grep -q "no complete row" "$tmp/err.txt" && ok || bad "nothing to recover: $(cat "$tmp/err.txt")"
"$cli" salvage --schema 'message m { required int32 a; }' --like "$tmp/t.parquet" a b >/dev/null 2>&1
[ $? = 2 ] && ok || bad "--schema with --like is a usage error"
"$cli" salvage --help | grep -q "footer is lost" && ok || bad "--help"

echo "salvage cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
