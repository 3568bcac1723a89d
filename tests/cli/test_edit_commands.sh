#!/usr/bin/env bash
# concat, prune and merge on corpus files: concat of a file with itself has
# twice its rows (the same values twice) and `verify` finds nothing wrong
# (pages, statistics, page index, Bloom filters); prune keeps the other
# columns' pages as they were (`pages` lines equal but for offsets) and their
# values; merge cuts row groups of the size asked for; usage errors exit 2,
# bad or mismatched inputs exit 1 naming the file, and no output (nor
# temporary file) is left behind. Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=${PARQUET_TESTING_DIR:-$2}
if [ ! -d "$dir/data" ]; then
  echo "NOTE: parquet-testing corpus not found at $dir (set PARQUET_TESTING_DIR); these checks cannot run"
  exit 77
fi
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/checks.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/checks.sh"
d=$dir/data
tiny=$d/alltypes_tiny_pages.parquet
bloom=$d/data_index_bloom_encoding_stats.parquet
plain=$d/alltypes_plain.parquet

nothing_left() { # no output and no temporary file next to it
  if [ -e "$2" ] || ls "$2".tmp-* >/dev/null 2>&1; then bad "$1: $2 (or a temporary) was left behind"; else ok; fi
}
count() { "$cli" count "$1"; }

# ---- concat: a file with itself, for files with page indexes, Bloom filters, dictionaries, v2 pages, nesting
for f in "$tiny" "$bloom" "$plain" "$d/datapage_v2.snappy.parquet" "$d/nested_lists.snappy.parquet" \
         "$d/nested_maps.snappy.parquet" "$d/byte_stream_split.zstd.parquet" "$d/column_chunk_key_value_metadata.parquet"; do
  b=$(basename "$f")
  run "concat $b" 0 concat -o "$tmp/c.parquet" "$f" "$f" || continue
  has "concat $b" "$tmp/c.parquet: "
  n=$(count "$f"); n2=$(count "$tmp/c.parquet")
  if [ "$n2" = $((n * 2)) ]; then ok; else bad "concat $b: $n2 rows, wanted $((n * 2))"; fi
  run "verify concat $b" 0 verify "$tmp/c.parquet" && has "verify concat $b" ": ok ("
  "$cli" cat "$f" >"$tmp/a.jsonl" 2>/dev/null; cat "$tmp/a.jsonl" "$tmp/a.jsonl" >"$tmp/aa.jsonl"
  "$cli" cat "$tmp/c.parquet" >"$tmp/c.jsonl" 2>/dev/null
  same "concat $b values" "$tmp/aa.jsonl" "$tmp/c.jsonl"
done
# page index and Bloom filters are there (and moved): verify checked them; meta shows them
run "concat bloom meta" 0 meta "$tmp/c.parquet"
run "concat bloom" 0 concat -o "$tmp/b2.parquet" "$bloom" "$bloom" "$bloom"
has "concat bloom" "3 row groups"
has "concat bloom" "3 page indexes, 3 Bloom filters"
run "bloom-filter after concat" 0 bloom-filter -c String "$tmp/b2.parquet" Hello
run "concat --json" 0 concat --json -o "$tmp/b3.parquet" "$bloom" "$bloom"
json "concat --json" "d['rows'] == 28 and d['row_groups'] == 2 and d['columns'] == 1 and d['bloom_filters'] == 2 and d['page_indexes'] == 2 and d['inputs'] == ['$bloom', '$bloom'] and d['output'] == '$tmp/b3.parquet' and d['chunk_bytes'] > 0"
run "concat human" 0 concat -o "$tmp/b3.parquet" "$tiny" "$tiny"
has "concat human" "14,600 rows in 2 row groups, 13 columns, from 2 files"
has "concat human" "KiB of pages copied unchanged"
if sed "s|$tmp/||" "$tmp/out" | awk 'length($0) > 80 { exit 1 }'; then ok; else bad "concat human: a line over 80 columns"; fi
# the copied pages are the input's pages: the `pages` lines match but for offsets
"$cli" pages --lines "$tiny" | sed -E 's/ offset=[0-9]+//' >"$tmp/p1"
run "concat tiny again" 0 concat -o "$tmp/t2.parquet" "$tiny" "$tiny"
"$cli" pages --lines "$tmp/t2.parquet" | sed -E 's/ offset=[0-9]+//' | grep '^rg=0 ' >"$tmp/p2"
same "concat pages" "$tmp/p1" "$tmp/p2"
"$cli" pages --lines "$tmp/t2.parquet" | sed -E 's/ offset=[0-9]+//' | grep '^rg=1 ' | sed 's/^rg=1 /rg=0 /' >"$tmp/p3"
same "concat pages, second copy" "$tmp/p1" "$tmp/p3"
# different files of one schema
run "concat two files" 0 concat -o "$tmp/two.parquet" "$plain" "$d/alltypes_plain.snappy.parquet"
n=$(count "$tmp/two.parquet"); if [ "$n" = $(( $(count "$plain") + $(count "$d/alltypes_plain.snappy.parquet") )) ]; then ok; else bad "concat two files: $n rows"; fi
run "verify two" 0 verify "$tmp/two.parquet"
# -o forms and -- ending the options
run "concat --output=" 0 concat --output="$tmp/o1.parquet" -- "$plain"
run "concat -oOUT" 0 concat "-o$tmp/o2.parquet" "$plain"
same "concat forms" "$tmp/o1.parquet" "$tmp/o2.parquet"

# ---- concat: errors
run "concat mismatch" 1 concat -o "$tmp/x.parquet" "$plain" "$d/binary.parquet"
has_err "concat mismatch" "alltypes_plain.parquet and $d/binary.parquet have different schemas"
nothing_left "concat mismatch" "$tmp/x.parquet"
run "concat mismatch field" 1 concat -o "$tmp/x.parquet" "$d/int32_decimal.parquet" "$d/int64_decimal.parquet"
has_err "concat mismatch field" "field 'value': physical type INT32"
nothing_left "concat mismatch field" "$tmp/x.parquet"
run "concat encrypted" 1 concat -o "$tmp/x.parquet" "$d/encrypt_columns_plaintext_footer.parquet.encrypted"
has_err "concat encrypted" "not supported"
nothing_left "concat encrypted" "$tmp/x.parquet"
run "concat malformed" 1 concat -o "$tmp/x.parquet" "$d/nation.dict-malformed.parquet"
has_err "concat malformed" "nation.dict-malformed.parquet: row group 0, column name: page 1"
nothing_left "concat malformed" "$tmp/x.parquet"
if [ -d "$dir/bad_data" ]; then
  for f in "$dir"/bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet "$dir"/bad_data/PARQUET-1481.parquet "$dir"/bad_data/ARROW-GH-41321.parquet; do
    b=$(basename "$f")
    run "concat bad_data $b" 1 concat -o "$tmp/x.parquet" "$f" && has_err "concat bad_data $b" "parquetry: $f"
    nothing_left "concat bad_data $b" "$tmp/x.parquet"
  done
fi
run "concat missing file" 1 concat -o "$tmp/x.parquet" "$tmp/none.parquet"
run "concat no -o" 2 concat "$plain"
has_err "concat no -o" "missing -o OUT"
run "concat no input" 2 concat -o "$tmp/x.parquet"
run "concat bad option" 2 concat --bogus -o "$tmp/x.parquet" "$plain"
run "concat -o twice" 2 concat -o a.parquet -o b.parquet "$plain"
run "concat help" 0 concat --help && has "concat help" "usage: parquetry concat [--json] -o OUT.parquet FILE.parquet..."
run "help concat" 0 help concat && has "help concat" "without"
nothing_left "usage errors" "$tmp/x.parquet"

# ---- prune
run "prune" 0 prune -c string_col,timestamp_col -o "$tmp/p.parquet" "$tiny"
run "prune --json" 0 prune --json -c string_col,timestamp_col -o "$tmp/pj.parquet" "$tiny"
json "prune --json" "d['columns'] == 11 and d['rows'] == 7300 and d['page_indexes'] == 11"
same "prune --json same file" "$tmp/p.parquet" "$tmp/pj.parquet"
run "prune verify" 0 verify "$tmp/p.parquet"
run "prune schema" 0 schema "$tmp/p.parquet"
if grep -qE " (string_col|timestamp_col)[ ;]" "$tmp/out"; then bad "prune: dropped columns still there"; else ok; fi
has "prune schema" "int_col"
# the other columns' pages: the same lines but for offsets (and the column index they sit at)
for c in id bool_col int_col double_col date_string_col; do
  "$cli" pages --lines -c $c "$tiny" | sed -E 's/ offset=[0-9]+//' >"$tmp/pa"
  "$cli" pages --lines -c $c "$tmp/p.parquet" | sed -E 's/ offset=[0-9]+//' >"$tmp/pb"
  if [ -s "$tmp/pa" ]; then same "prune pages $c" "$tmp/pa" "$tmp/pb"; else bad "prune pages $c: no pages"; fi
done
cols=id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,date_string_col,year,month
"$cli" cat -c $cols "$tiny" >"$tmp/va"; "$cli" cat "$tmp/p.parquet" >"$tmp/vb"
same "prune values" "$tmp/va" "$tmp/vb"
# nested: a leaf by its dotted path; a group whose every leaf goes, goes
run "prune nested leaf" 0 prune -c roll_num.min -c PC_CUR -o "$tmp/n.parquet" "$d/nested_structs.rust.parquet"
run "prune nested verify" 0 verify "$tmp/n.parquet"
run "prune nested schema" 0 schema "$tmp/n.parquet"
if grep -q "PC_CUR" "$tmp/out"; then bad "prune nested: PC_CUR still there"; else ok; fi
if grep -A1 "group roll_num" "$tmp/out" | tail -1 | grep -q "int64 max"; then ok; else bad "prune nested: roll_num.min still there"; fi
has "prune nested schema" "group CVA_2012"
n=$("$cli" schema "$d/nested_structs.rust.parquet" | grep -c "int64"); n2=$(grep -c "int64" "$tmp/out")
if [ "$n2" = $((n - 7)) ]; then ok; else bad "prune nested: $n2 columns, wanted $((n - 7))"; fi
run "prune list" 0 prune -c int64_list.list.item -o "$tmp/l.parquet" "$d/list_columns.parquet"
run "prune list schema" 0 schema "$tmp/l.parquet"
if grep -q "int64_list" "$tmp/out"; then bad "prune list: the emptied group stays"; else ok; fi
"$cli" cat -c utf8_list "$d/list_columns.parquet" >"$tmp/la"; "$cli" cat "$tmp/l.parquet" >"$tmp/lb"
same "prune list values" "$tmp/la" "$tmp/lb"
# prune errors
run "prune unknown column" 2 prune -c nope -o "$tmp/x.parquet" "$tiny"
has_err "prune unknown column" "no field or column 'nope'"
run "prune every column" 2 prune -c id,bool_col,tinyint_col,smallint_col,int_col,bigint_col,float_col,double_col,date_string_col,string_col,timestamp_col,year,month -o "$tmp/x.parquet" "$tiny"
run "prune no -c" 2 prune -o "$tmp/x.parquet" "$tiny"
run "prune two inputs" 2 prune -c id -o "$tmp/x.parquet" "$tiny" "$tiny"
run "prune no input" 2 prune -c id -o "$tmp/x.parquet"
run "prune encrypted" 1 prune -c double_field -o "$tmp/x.parquet" "$d/encrypt_columns_plaintext_footer.parquet.encrypted"
nothing_left "prune errors" "$tmp/x.parquet"

# ---- merge
run "merge" 0 merge -o "$tmp/m.parquet" --row-group-size 100 "$tiny" "$tiny"
n=$(count "$tiny"); n2=$(count "$tmp/m.parquet")
if [ "$n2" = $((n * 2)) ]; then ok; else bad "merge: $n2 rows, wanted $((n * 2))"; fi
run "merge meta" 0 meta --json "$tmp/m.parquet"
groups=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(','.join(str(g['num_rows']) for g in d['row_groups']))" "$tmp/out")
want=$(python3 -c "n=$n*2; print(','.join(['100']*(n//100) + ([str(n%100)] if n%100 else [])))")
if [ "$groups" = "$want" ]; then ok; else bad "merge: row groups $groups, wanted $want"; fi
run "merge verify" 0 verify "$tmp/m.parquet"
"$cli" cat "$tmp/m.parquet" >"$tmp/m.jsonl"; "$cli" cat "$tiny" >"$tmp/t.jsonl"; cat "$tmp/t.jsonl" "$tmp/t.jsonl" >"$tmp/tt.jsonl"
same "merge values" "$tmp/tt.jsonl" "$tmp/m.jsonl"
run "merge size codec" 0 merge --codec zstd --row-group-size 64KiB -o "$tmp/m2.parquet" "$plain" "$d/alltypes_plain.snappy.parquet"
run "merge size meta" 0 meta "$tmp/m2.parquet" && has "merge size meta" "ZSTD"
run "merge mismatch" 1 merge -o "$tmp/x.parquet" "$plain" "$d/binary.parquet"
has_err "merge mismatch" "different schemas"
run "merge no -o" 2 merge "$plain"
run "merge bad size" 2 merge -o "$tmp/x.parquet" --row-group-size lots "$plain"
run "merge --schema refused" 2 merge -o "$tmp/x.parquet" --schema "message m { required int32 a; }" "$plain"
run "merge help" 0 merge --help && has "merge help" "--row-group-size"
nothing_left "merge errors" "$tmp/x.parquet"

# every corpus file that reads (under 200 KiB): merged with itself, its rows twice
swept=0
while IFS= read -r -d '' f; do
  "$cli" cat "$f" >"$tmp/s.jsonl" 2>/dev/null || continue
  b=$(basename "$f")
  run "merge sweep $b" 0 merge -o "$tmp/sw.parquet" "$f" "$f" || continue
  "$cli" cat "$tmp/sw.parquet" >"$tmp/sw.jsonl" 2>&1; cat "$tmp/s.jsonl" "$tmp/s.jsonl" >"$tmp/ss.jsonl"
  same "merge sweep $b values" "$tmp/ss.jsonl" "$tmp/sw.jsonl"
  swept=$((swept+1))
done < <(find "$d" -maxdepth 1 -name '*.parquet' -size -200k -print0 | sort -z)
if [ $swept -gt 40 ]; then ok; else bad "merge sweep: only $swept files"; fi

echo "edit commands: $pass passed, $fail failed ($swept files merged with themselves)"
[ $fail -eq 0 ]
