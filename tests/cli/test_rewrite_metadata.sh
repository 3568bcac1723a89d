#!/usr/bin/env bash
# `rewrite` keeps the input's key-value metadata (file and column chunk,
# ARROW:schema included), sorting columns and logical types, records its
# created_by under parquetry.rewritten_from; --drop-metadata and
# --metadata KEY=VALUE change that, explicitly. Usage: CLI CORPUS_DIR
set -u
cli=$1
data=${2:-}/data
for f in sort_columns.parquet binary.parquet data_index_bloom_encoding_with_length.parquet; do
  if [ ! -f "$data/$f" ]; then
    echo "corpus not found at $data (parquet-testing): skipping"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
pairs() { # FILE: every "key":..,"value":.. pair of its metadata (file and chunks), sorted
  "$cli" meta --json --compact "$1" | grep -o '{"key":"[^"]*"\(,"value":"[^"]*"\)\?}' | sort -u
}

for f in sort_columns.parquet binary.parquet data_index_bloom_encoding_with_length.parquet \
         alltypes_tiny_pages.parquet int96_from_spark.parquet list_columns.parquet null_list.parquet \
         byte_stream_split_extended.gzip.parquet float16_nonzeros_and_nans.parquet map_no_value.parquet; do
  [ -f "$data/$f" ] || continue
  if ! "$cli" rewrite "$data/$f" "$tmp/$f" 2>"$tmp/err"; then bad "rewrite $f: $(head -c 300 "$tmp/err")"; continue; fi
  # every key-value pair of the input is in the output
  pairs "$data/$f" >"$tmp/a"; pairs "$tmp/$f" >"$tmp/b"
  missing=$(comm -23 "$tmp/a" "$tmp/b")
  [ -z "$missing" ] && ok || bad "$f: lost metadata: $(echo "$missing" | head -c 300)"
  created=$("$cli" meta --json --compact "$data/$f" | grep -o '"created_by":"[^"]*"' | head -1 | sed 's/"created_by":"\(.*\)"/\1/')
  grep -qF "{\"key\":\"parquetry.rewritten_from\",\"value\":\"$created\"}" "$tmp/b" && ok ||
    bad "$f: no parquetry.rewritten_from = $created"
  # the same rows
  "$cli" cat "$data/$f" >"$tmp/ra" 2>&1; "$cli" cat "$tmp/$f" >"$tmp/rb" 2>&1
  cmp -s "$tmp/ra" "$tmp/rb" && ok || bad "$f: rows differ after rewrite"
  # every logical type of the input (logicalType objects) is in the output
  "$cli" meta --json --compact "$data/$f" | grep -o '"logicalType":{[^]]*}}' | sed 's/"name".*//' | sort -u >"$tmp/la"
  "$cli" meta --json --compact "$tmp/$f" | grep -o '"logicalType":{[^]]*}}' | sed 's/"name".*//' | sort -u >"$tmp/lb"
  [ -z "$(comm -23 "$tmp/la" "$tmp/lb")" ] && ok || bad "$f: logical types lost: $(comm -23 "$tmp/la" "$tmp/lb" | head -c 300)"
done

# sorting columns: kept on every row group, which keep the input's bounds
sc() { "$cli" meta --json --compact "$1" | grep -o '"sorting_columns":\[[^]]*\]'; }
[ "$(sc "$data/sort_columns.parquet")" = "$(sc "$tmp/sort_columns.parquet")" ] && [ -n "$(sc "$tmp/sort_columns.parquet")" ] && ok ||
  bad "sorting_columns differ: $(sc "$tmp/sort_columns.parquet")"
# (also with a smaller --row-group-size: each row group within one of the input's)
"$cli" rewrite --row-group-size 1 "$data/sort_columns.parquet" "$tmp/sc1.parquet" && ok || bad "rewrite --row-group-size 1"
rows=$("$cli" meta --json --compact "$data/sort_columns.parquet" | grep -o '"num_rows":[0-9]*' | head -1 | cut -d: -f2)
[ "$(sc "$tmp/sc1.parquet" | wc -l)" -eq "$rows" ] && ok || bad "sorting_columns on $(sc "$tmp/sc1.parquet" | wc -l) row groups, want $rows"

# the ARROW:schema value is kept as it was (the schema written is the input's)
av() { "$cli" meta --json --compact "$1" | grep -o '{"key":"ARROW:schema","value":"[^"]*"}'; }
[ -n "$(av "$data/sort_columns.parquet")" ] && [ "$(av "$data/sort_columns.parquet")" = "$(av "$tmp/sort_columns.parquet")" ] && ok ||
  bad "ARROW:schema not kept"

# rewritten twice: the history grows
"$cli" rewrite "$tmp/binary.parquet" "$tmp/twice.parquet" && ok || bad "second rewrite"
"$cli" meta --json --compact "$tmp/twice.parquet" | grep -q '"parquetry.rewritten_from","value":"parquetry version [^"]* <- parquet-mr' && ok ||
  bad "history: $("$cli" meta --json --compact "$tmp/twice.parquet" | grep -o '"parquetry.rewritten_from[^}]*')"

# --drop-metadata: none of the input's; --metadata: set and replace
"$cli" rewrite --drop-metadata "$data/binary.parquet" "$tmp/dropped.parquet" && ok || bad "rewrite --drop-metadata"
"$cli" meta --json --compact "$tmp/dropped.parquet" | grep -q key_value_metadata && bad "--drop-metadata kept metadata" || ok
"$cli" rewrite --metadata writer.model.name=mine --metadata new.key= "$data/binary.parquet" "$tmp/set.parquet" && ok ||
  bad "rewrite --metadata"
pairs "$tmp/set.parquet" >"$tmp/s"
grep -qF '{"key":"writer.model.name","value":"mine"}' "$tmp/s" && grep -qF '{"key":"new.key","value":""}' "$tmp/s" &&
  grep -qF '"key":"parquet.proto.class"' "$tmp/s" && ok || bad "--metadata: $(cat "$tmp/s" | head -c 300)"
[ "$(grep -c '"key":"writer.model.name"' "$tmp/s")" -eq 1 ] && ok || bad "--metadata did not replace"
"$cli" rewrite --metadata nokey "$data/binary.parquet" "$tmp/x.parquet" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "KEY=VALUE" "$tmp/err" && ok || bad "--metadata without = is not a usage error"
"$cli" rewrite --help | grep -q -- "--drop-metadata" && ok || bad "help lacks --drop-metadata"
# a writer option naming a column the file does not have is a usage error, and nothing is written
for opt in "--bloom nosuch" "--encoding nosuch=PLAIN"; do
  rm -f "$tmp/nosuch.parquet"
  "$cli" rewrite $opt "$data/binary.parquet" "$tmp/nosuch.parquet" 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q "no column 'nosuch'" "$tmp/err" && [ ! -e "$tmp/nosuch.parquet" ] && ok ||
    bad "rewrite $opt: $(cat "$tmp/err")"
done

echo "rewrite metadata: $pass passed, $fail failed"
[ $fail -eq 0 ]
