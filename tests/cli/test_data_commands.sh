#!/usr/bin/env bash
# The data commands tail, sample, export and diff on corpus files: golden
# files for human output (tests/cli/golden/data_*.txt), --json parsed,
# what each must equal (tail = the end of cat; sample = rows of cat, in
# order, the same for a seed; export = cat's text, or a Parquet file diff
# finds equal), that tail reads only the row groups it needs (--stats), that
# export's output appears only when complete, and usage errors (exit 2).
# Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=${PARQUET_TESTING_DIR:-$2}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
golden=$here/golden
if [ ! -d "$dir/data" ]; then
  echo "SKIP: parquet-testing corpus not found at $dir (set PARQUET_TESTING_DIR); these checks cannot run"
  exit 77
fi
pass=0; fail=0
tmp=$(mktemp -d); trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
# shellcheck source=lib/checks.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/checks.sh"

golden() {
  if cmp -s "$golden/$2" "$tmp/out"; then ok
  else bad "$1: output differs from golden/$2: $(diff "$golden/$2" "$tmp/out" | head -8)"; fi
}
usage_err() { # NAME ARGS...: exit 2, a message and the help hint on stderr, nothing on stdout
  local name=$1; shift
  run "$name" 2 "$@" || return
  has_err "$name" "Try 'parquetry"
  if [ -s "$tmp/out" ]; then bad "$name: printed on stdout: $(head -c 200 "$tmp/out")"; else ok; fi
}

# the corpus files, under short names (the golden files show them)
cd "$tmp" || exit 1
for f in alltypes_tiny_pages sort_columns floating_orders_nan_count int96_from_spark nullable.impala \
         datapage_v1-corrupt-checksum; do
  if [ ! -f "$dir/data/$f.parquet" ]; then echo "SKIP: $dir/data/$f.parquet missing"; exit 77; fi
  ln -s "$dir/data/$f.parquet" "$f.parquet"
done
tiny=alltypes_tiny_pages.parquet
sorted=sort_columns.parquet         # 2 row groups of 3 rows
floats=floating_orders_nan_count.parquet # 5 row groups of 10 rows
# tiny in 8 row groups (1000 rows each, the last 300)
"$cli" rewrite --row-group-size 1000 "$tiny" groups.parquet >/dev/null || bad "rewrite into row groups"
# strings that CSV must quote: commas, quotes, newlines
printf '%s\n' '{"k":1,"s":"plain"}' '{"k":2,"s":"a,b"}' '{"k":3,"s":"line\nbreak"}' '{"k":4,"s":"say \"hi\"\n, twice"}' \
  '{"k":5,"s":null}' '{"k":6,"s":"last"}' >quoted.jsonl
"$cli" convert --row-group-size 2 --schema 'message m { required int64 k; optional binary s (STRING); }' quoted.jsonl \
  quoted.parquet >/dev/null || bad "convert quoted.jsonl"

# ---------------------------------------------------------------- tail
run "tail golden" 0 tail -n 4 "$sorted" && golden "tail golden" data_tail_sort_columns.txt
run "tail csv golden" 0 tail -n 3 --format csv -c id,int_array,int_map nullable.impala.parquet &&
  golden "tail csv golden" data_tail_nested.csv
run "tail default 10" 0 tail groups.parquet && [ "$(wc -l <"$tmp/out")" -eq 10 ] && ok || bad "tail: not 10 rows by default"
# tail -n N is the end of cat, for N across row group boundaries, beyond the file, and 0
for f in "$tiny" groups.parquet "$sorted" "$floats" nullable.impala.parquet int96_from_spark.parquet quoted.parquet; do
  "$cli" cat "$f" >cat.txt || bad "cat $f"
  for n in 0 1 3 7 10 11 1000 1299 1300 1301 7299 7300 100000; do
    "$cli" tail -n "$n" "$f" >tail.txt 2>tail.err || bad "tail -n $n $f: $(cat tail.err)"
    if [ "$n" -eq 0 ]; then : >want.txt; else tail -n "$n" cat.txt >want.txt; fi
    same "tail -n $n $f = cat | tail" want.txt tail.txt
  done
done
# CSV records holding newlines: the last N records, the header kept
for n in 1 2 3 4 6 9; do
  "$cli" cat --format csv quoted.parquet >cat.csv
  "$cli" tail -n $n --format csv quoted.parquet >tail.csv || bad "tail csv -n $n"
  python3 - "$n" cat.csv tail.csv <<'EOF' && ok || bad "tail --format csv -n $n: not the header and the last $n records"
import csv, sys
n = int(sys.argv[1]); want = list(csv.reader(open(sys.argv[2], newline='')))
got = list(csv.reader(open(sys.argv[3], newline='')))
sys.exit(0 if got == [want[0]] + want[1:][-n:] and len(got) == 1 + min(n, 6) else 1)
EOF
done
# only the row groups that hold the last rows are read, and of them only
# the last rows (a row range), not the whole first group
run "tail stats 1 group" 0 tail -n 3 --stats groups.parquet && has_err "tail stats 1 group" "row_groups=1/1"
run "tail stats 2 groups" 0 tail -n 301 --stats groups.parquet && has_err "tail stats 2 groups" "row_groups=2/2" &&
  has_err "tail stats 2 groups" "rows=301 "
run "tail stats floats" 0 tail -n 11 --stats "$floats" && has_err "tail stats floats" "row_groups=2/2"
"$cli" cat --stats groups.parquet 2>all.err >/dev/null
"$cli" tail -n 3 --stats groups.parquet 2>one.err >/dev/null
all=$(sed -n 's/.*bytes_read=\([0-9]*\).*/\1/p' all.err); one=$(sed -n 's/.*bytes_read=\([0-9]*\).*/\1/p' one.err)
if [ -n "$all" ] && [ -n "$one" ] && [ "$((one * 4))" -lt "$all" ]; then ok
else bad "tail -n 3 read $one bytes, cat all $all: the earlier row groups were read"; fi
# --where: the last N rows that match
for w in "id < 100" "bool_col = true AND int_col > 5" "id > 100000"; do
  "$cli" cat --where "$w" -c id,int_col groups.parquet | tail -n 7 >want.txt
  "$cli" tail -n 7 --where "$w" -c id,int_col groups.parquet >tail.txt || bad "tail --where '$w'"
  same "tail --where '$w'" want.txt tail.txt
done
run "tail --help" 0 tail --help && has "tail --help" "usage: parquetry tail"
run "help tail" 0 help tail && has "help tail" "Only the row groups that hold them are read"
usage_err "tail no file" tail -n 3
usage_err "tail bad -n" tail -n x "$tiny"
usage_err "tail negative -n" tail -n -1 "$tiny"
usage_err "tail -n no value" tail "$tiny" -n
usage_err "tail bad option" tail --bogus "$tiny"
usage_err "tail two files, one an option after --" tail -- "$tiny" --json
usage_err "tail bad format" tail --format xml "$tiny"
usage_err "tail bad column" tail -c nope "$tiny"
usage_err "tail bad where" tail --where "id <" "$tiny"
run "tail missing file" 1 tail nonexistent.parquet && has_err "tail missing file" "parquetry: nonexistent.parquet:"
run "tail -n5 form" 0 tail -n5 -cid "$tiny" && [ "$(wc -l <"$tmp/out")" -eq 5 ] && ok || bad "tail -n5 -cid"
run "tail -- FILE" 0 tail -n 1 -- "$tiny" && has "tail -- FILE" '"id":'

# ---------------------------------------------------------------- sample
run "sample golden" 0 sample -n 5 --seed 42 -c id,string_col "$tiny" && golden "sample golden" data_sample_tiny.txt
run "sample csv golden" 0 sample -n 3 --seed 7 --format csv "$sorted" && golden "sample csv golden" data_sample_sorted.csv
"$cli" sample -n 20 --seed 123 groups.parquet >s1.txt || bad "sample seed 123"
"$cli" sample -n 20 --seed=123 groups.parquet >s2.txt || bad "sample --seed=123"
same "sample: the same seed, the same rows" s1.txt s2.txt
"$cli" sample -n 20 --seed 124 groups.parquet >s3.txt
if cmp -s s1.txt s3.txt; then bad "sample: seeds 123 and 124 chose the same 20 rows"; else ok; fi
# rows of the file, distinct, in file order; N rows (or all)
"$cli" cat groups.parquet >cat.txt
for n in 0 1 5 999 1000 3650 7000 7299 7300 9000; do
  "$cli" sample -n $n --seed $n groups.parquet >s.txt || bad "sample -n $n"
  python3 - "$n" cat.txt s.txt <<'EOF' && ok || bad "sample -n $n: not $n distinct rows of the file in file order"
import sys
n = int(sys.argv[1]); rows = open(sys.argv[2]).read().splitlines(); got = open(sys.argv[3]).read().splitlines()
pos = {r: i for i, r in enumerate(rows)}  # ids are distinct: every row is
idx = [pos.get(r, -1) for r in got]
sys.exit(0 if len(got) == min(n, len(rows)) and -1 not in idx and idx == sorted(set(idx)) else 1)
EOF
done
"$cli" sample -n 100 groups.parquet >/dev/null && ok || bad "sample without --seed"
# every row about equally likely: -n 1 over 300 seeds on a file of 6 rows
for s in $(seq 1 300); do "$cli" sample -n 1 --seed "$s" -c k quoted.parquet; done >picks.txt
python3 - picks.txt <<'EOF' && ok || bad "sample -n 1 over 300 seeds: a row chosen far from 1 time in 6: $(sort picks.txt | uniq -c | tr '\n' ' ')"
import collections, sys
c = collections.Counter(open(sys.argv[1]).read().split())
sys.exit(0 if len(c) == 6 and all(20 <= v <= 85 for v in c.values()) else 1)
EOF
# a sample of 3 of 10 rows: each pair of rows equally likely too (every row's share over 200 seeds)
for s in $(seq 1 200); do "$cli" sample -n 3 --seed "$s" -c float_ieee754 --where "float_ieee754 IS NOT NULL" "$floats" | wc -l; done | sort -u >counts.txt
[ "$(cat counts.txt)" = "3" ] && ok || bad "sample -n 3 --where: not always 3 rows: $(cat counts.txt)"
# --where: rows that match, as many as asked
"$cli" sample -n 50 --seed 5 --where "int_col = 3" -c id,int_col groups.parquet >s.txt || bad "sample --where"
python3 - s.txt <<'EOF' && ok || bad "sample --where 'int_col = 3': $(head -3 s.txt)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if len(rows) == 50 and all(r["int_col"] == 3 for r in rows) else 1)
EOF
run "sample stats" 0 sample -n 1 --seed 3 --stats groups.parquet && has_err "sample stats" "row_groups=1/1"
run "sample --help" 0 sample --help && has "sample --help" "--seed S"
usage_err "sample no -n" sample "$tiny"
usage_err "sample bad seed" sample -n 2 --seed x "$tiny"
usage_err "sample negative seed" sample -n 2 --seed -1 "$tiny"
usage_err "sample bad -n" sample -n 2x "$tiny"
usage_err "sample no file" sample -n 2
usage_err "sample bad format" sample -n 2 --format parquet "$tiny"
usage_err "sample bad column" sample -n 2 -c nope "$tiny"

# ---------------------------------------------------------------- export
for fmt in csv jsonl; do
  run "export $fmt" 0 export --format $fmt -c id,string_col,timestamp_col --where "id < 500" groups.parquet -o out.$fmt &&
    has "export $fmt" "out.$fmt: 500 rows written"
  "$cli" cat --format $fmt -c id,string_col,timestamp_col --where "id < 500" groups.parquet >want.$fmt
  same "export $fmt = cat" want.$fmt out.$fmt
done
run "export --json" 0 export --json --where "id < 10" -c id "$tiny" -o j.parquet &&
  json "export --json" 'd == {"output": "j.parquet", "format": "parquet", "rows": 10}'
run "export format from name" 0 export nullable.impala.parquet -o n.jsonl && "$cli" cat nullable.impala.parquet >want.jsonl &&
  same "export .jsonl" want.jsonl n.jsonl
perm=$(stat -c %a out.csv); umask_perm=$(printf '%o' $((0666 & ~$(umask))))
[ "$perm" = "$umask_perm" ] && ok || bad "export: out.csv has mode $perm, not $umask_perm"
# parquet: every column (the schema and metadata of the input) and projected/filtered
# (nullable.impala's legacy MAP_KEY_VALUE map is written in the standard form: its
# values are the same, its schema text not)
run "export parquet legacy map" 0 export nullable.impala.parquet -o out.parquet
run "export parquet legacy map values" 1 diff --json --no-metadata nullable.impala.parquet out.parquet &&
  json "export parquet legacy map values" 'd["values"]["equal"] and not d["schema"]["equal"] and d["rows"]["equal"]'
for f in "$tiny" groups.parquet int96_from_spark.parquet quoted.parquet; do
  run "export parquet $f" 0 export --format parquet "$f" -o out.parquet &&
    run "diff after export $f" 0 diff --no-metadata "$f" out.parquet
  run "export schema kept $f" 0 schema out.parquet && "$cli" schema "$f" >want.txt && same "export schema $f" want.txt "$tmp/out"
done
run "export parquet projected" 0 export groups.parquet -c id,bool_col,string_col --where "id >= 7000 OR id < 3" \
  --codec zstd --row-group-size 100 -o p.parquet && has "export parquet projected" "p.parquet: 303 rows written"
"$cli" cat -c id,bool_col,string_col --where "id >= 7000 OR id < 3" groups.parquet >want.txt
"$cli" cat p.parquet >got.txt
same "export parquet projected = cat" want.txt got.txt
# projected: the file's own types (INT96 kept, not wrapped through nanoseconds), nested paths
run "export projected int96" 0 export -c a int96_from_spark.parquet -o i.parquet && run "schema int96" 0 schema i.parquet &&
  has "export projected int96" "optional int96 a;"
"$cli" cat int96_from_spark.parquet >want.txt; "$cli" cat i.parquet >got.txt
same "export projected int96 = cat" want.txt got.txt
for cols in "nested_struct.C,id" "int_map,nested_struct.g" "int_Map_Array"; do
  run "export projected $cols" 0 export -c "$cols" nullable.impala.parquet -o n.parquet &&
    run "diff projected $cols" 1 diff --json -c "$cols" nullable.impala.parquet n.parquet &&
    json "export projected $cols" 'd["values"]["equal"] and d["values"]["rows_compared"] == 7 and d["metadata"]["equal"]'
done
# names the schema text quotes (`a b`, `x;y`, a line break)
printf '{"a b":1,"c{":2,"x;y":3,"n\\nl":4,"z":5}\n' >odd.jsonl
"$cli" convert odd.jsonl odd.parquet >/dev/null || bad "convert odd.jsonl"
run "export odd names" 0 export -c "$(printf 'x;y,n\nl,a b')" odd.parquet -o odd2.parquet && run "cat odd names" 0 cat odd2.parquet &&
  has "export odd names" '{"a b":1,"x;y":3,"n\nl":4}'
run "export codec" 0 meta p.parquet && has "export codec" "ZSTD" && has "export row groups" "row groups:  4"
# atomic: a failed export leaves no file and no temporary one behind
mkdir -p fails
run "export corrupt" 1 export datapage_v1-corrupt-checksum.parquet -o fails/c.parquet &&
  has_err "export corrupt" "datapage_v1-corrupt-checksum.parquet"
run "export corrupt csv" 1 export datapage_v1-corrupt-checksum.parquet -o fails/c.csv
[ -z "$(ls -A fails)" ] && ok || bad "export failures left files: $(ls -A fails)"
echo keep >fails/kept.csv
run "export bad where keeps OUT" 2 export --where "nope = 1" "$tiny" -o fails/kept.csv
[ "$(cat fails/kept.csv)" = keep ] && ok || bad "export: a failed export changed the existing OUT"
mkdir ro && chmod a-w ro
if [ ! -w ro ]; then
  run "export read-only dir" 1 export "$tiny" -o ro/x.csv && has_err "export read-only dir" "ro/x.csv"
fi
run "export --help" 0 export --help && has "export --help" "--codec NAME"
usage_err "export no -o" export "$tiny"
usage_err "export no file" export -o x.csv
usage_err "export unknown extension" export "$tiny" -o x.txt
usage_err "export bad format" export --format xml "$tiny" -o x.csv
usage_err "export writer option for csv" export --codec zstd "$tiny" -o x.csv
usage_err "export bad codec" export --codec nope "$tiny" -o x.parquet
usage_err "export -n" export -n 3 "$tiny" -o x.csv
usage_err "export bad column" export -c nope "$tiny" -o x.parquet
[ ! -e x.csv ] && [ ! -e x.parquet ] && ok || bad "export usage errors left a file"

# ---------------------------------------------------------------- diff
"$cli" rewrite --codec zstd --row-group-size 1000 "$tiny" z.parquet >/dev/null
"$cli" rewrite --codec gzip --page-version 2 --encoding DELTA_BINARY_PACKED --no-dictionary "$tiny" g.parquet >/dev/null
run "diff equal" 0 diff z.parquet g.parquet && golden "diff equal" data_diff_equal.txt
run "diff equal json" 0 diff --json z.parquet g.parquet &&
  json "diff equal json" 'd["equal"] and d["schema"]["equal"] and d["rows"] == {"equal": True, "a": 7300, "b": 7300} and d["values"]["rows_compared"] == 7300 and d["values"]["differences"] == [] and d["metadata"]["equal"]'
run "diff metadata" 1 diff "$tiny" z.parquet && has "diff metadata" 'metadata: key "parquetry.rewritten_from" only in B'
run "diff --no-metadata" 0 diff --no-metadata "$tiny" z.parquet
"$cli" export "$tiny" --where "id != 100" -o w.parquet >/dev/null
run "diff values" 1 diff -n 2 -c id,string_col "$tiny" w.parquet && golden "diff values" data_diff_values.txt
run "diff values json" 1 diff --json -n 1 "$tiny" w.parquet &&
  json "diff values json" 'not d["equal"] and d["rows"] == {"equal": False, "a": 7300, "b": 7299} and d["values"]["rows_only_a"] == 1 and d["values"]["rows_compared"] == 7299 and d["values"]["differences"][0] == {"row": 26, "column": "id", "a": 100, "b": 101} and {x["row"] for x in d["values"]["differences"]} == {26} and d["metadata"]["only_b"][0]["key"] == "parquetry.rewritten_from"'
# one value changed; a column more; a value null
printf '%s\n' '{"k":1,"s":"plain"}' '{"k":2,"s":"a,b"}' '{"k":3,"s":"line\nbreak"}' '{"k":4,"s":"say \"hi\"\n, Twice"}' \
  '{"k":5,"s":"x"}' '{"k":6,"s":"last"}' >quoted2.jsonl
"$cli" convert --schema 'message m { required int64 k; optional binary s (STRING); }' quoted2.jsonl q2.parquet >/dev/null
run "diff one value" 1 diff --no-metadata quoted.parquet q2.parquet && golden "diff one value" data_diff_one_value.txt
"$cli" export -c id,string_col "$tiny" -o a.parquet >/dev/null
"$cli" export -c id,int_col,string_col "$tiny" -o b.parquet >/dev/null
run "diff schema" 1 diff -n 1 a.parquet b.parquet && golden "diff schema" data_diff_schema.txt
run "diff schema json" 1 diff --json -n 1 a.parquet b.parquet &&
  json "diff schema json" 'not d["schema"]["equal"] and "int_col" in d["schema"]["b"] and d["values"]["rows_different"] == 7300 and d["values"]["differences"][0] == {"row": 0, "column": "int_col", "a": None, "a_missing": True, "b": 2}'
run "diff -c" 1 diff --json --no-metadata -c id,string_col a.parquet b.parquet &&
  json "diff -c" 'd["values"]["equal"] and d["values"]["rows_compared"] == 7300 and not d["schema"]["equal"] and not d["equal"]'
run "diff --help" 0 diff --help && has "diff --help" "Exit status: 0 the files are equal, 1 they differ, 2 a usage error"
usage_err "diff one file" diff "$tiny"
usage_err "diff three files" diff "$tiny" "$tiny" "$tiny"
usage_err "diff bad option" diff --bogus "$tiny" "$tiny"
usage_err "diff bad -n" diff -n x "$tiny" "$tiny"
usage_err "diff bad column" diff -c nope "$tiny" "$tiny"
run "diff missing file" 2 diff "$tiny" nonexistent.parquet && has_err "diff missing file" "nonexistent.parquet"
run "diff corrupt file" 2 diff "$tiny" datapage_v1-corrupt-checksum.parquet

# ---------------------------------------------------------------- help
run "help lists them" 0 help && for c in tail sample export diff; do has "help lists $c" "  $c "; done
for c in tail sample export diff; do
  run "help $c width" 0 "$c" --help # (up to the options shared with other commands)
  w=$(awk '/^Reading options:|^  --codec NAME/ { exit } { if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/out")
  [ "$w" -le 80 ] && ok || bad "$c --help: a line of $w columns"
done

echo "data commands: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
