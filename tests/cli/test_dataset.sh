#!/usr/bin/env bash
# Several files, directories and globs as one table (cli/dataset_input.c,
# include/parquetry_dataset.h): a Hive-partitioned dataset built in a temp
# dir with `parquetry convert`, files whose schemas differ (a column only
# in some, int32 in one file and int64 in another), checked through cat,
# head, count and meta; incompatible types and bad inputs fail naming the
# files. Nested columns: a struct column present in some files reads as
# null in the others, --where on its field s.a prunes and filters across
# the files; structs whose fields differ between files are unified by field
# name (a field a file lacks is null in its rows, fields in another order
# matched by name, nested structs and widening inside them); a field whose
# types cannot be unified fails naming the dotted path and both files;
# -c s.a (a field of a struct) projects that field across the files, null
# where a file lacks it. Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-dataset.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { :; }
bad() { echo "FAIL: $*"; fail=1; }
expect() { # NAME WANT GOT
  if [ "$2" != "$3" ]; then bad "$1: wanted [$2], got [$3]"; fi
}
d=$tmp/data
mkdir -p "$d/year=2023/month=01" "$d/year=2023/month=02" "$d/year=2024/month=01"
printf 'id,v\n1,10\n2,20\n3,30\n' >"$tmp/a.csv"
printf 'id,v,extra\n4,40,x\n5,50,"y,z"\n' >"$tmp/b.csv"
printf 'id,v\n6,60\n7,70\n8,80\n9,90\n' >"$tmp/c.csv"
"$cli" convert --schema 'message m { required int64 id; required int32 v; }' "$tmp/a.csv" \
  "$d/year=2023/month=01/a.parquet" >/dev/null || bad "convert a"
"$cli" convert --schema 'message m { required int64 id; optional int64 v; optional binary extra (STRING); }' \
  "$tmp/b.csv" "$d/year=2023/month=02/b.parquet" >/dev/null || bad "convert b"
"$cli" convert --row-group-size 2 --schema 'message m { required int64 id; required int64 v; }' "$tmp/c.csv" \
  "$d/year=2024/month=01/c.parquet" >/dev/null || bad "convert c"
touch "$d/_SUCCESS" "$d/year=2023/.hidden"

expect "count dir" 9 "$("$cli" count "$d" 2>&1)"
expect "count glob" 9 "$("$cli" count "$d/**/*.parquet" 2>&1)"
expect "count several files" 5 "$("$cli" count "$d/year=2023/month=01/a.parquet" "$d/year=2023/month=02/b.parquet" 2>&1)"
expect "count partition filter" 4 "$("$cli" count "$d" --where 'year = 2024' 2>&1)"
expect "count partition and column filter" 2 "$("$cli" count "$d" --where 'year = 2024 AND id >= 8' 2>&1)"
expect "count --json" '{"rows": 9}' "$("$cli" count --json "$d" 2>&1)"
expect "count --limit" 4 "$("$cli" count --limit 4 "$d" 2>&1)"
# statistics prune c.parquet's first row group (ids 6, 7) and a partition value skips the 2023 files
"$cli" count "$d" --where 'year = 2024 AND id >= 8' --stats >/dev/null 2>"$tmp/stats" || bad "count --stats"
grep -q 'row_groups=1/2' "$tmp/stats" || bad "stats: $(cat "$tmp/stats")"

want='id,v,extra,year,month
1,10,,2023,1
2,20,,2023,1
3,30,,2023,1
4,40,x,2023,2
5,50,"y,z",2023,2
6,60,,2024,1
7,70,,2024,1
8,80,,2024,1
9,90,,2024,1'
expect "cat csv" "$want" "$("$cli" cat --format csv "$d" 2>&1)"
want='{"id":4,"extra":"x","month":2}
{"id":5,"extra":"y,z","month":2}'
expect "cat where/columns" "$want" "$("$cli" cat "$d/year=*/*/*.parquet" --where 'extra IS NOT NULL' --columns month,extra,id 2>&1)"
want='{"id":3,"v":30,"extra":null,"year":2023,"month":1}
{"id":6,"v":60,"extra":null,"year":2024,"month":1}'
expect "cat OR across partitions" "$want" "$("$cli" cat "$d" --where 'id = 3 OR year > 2023 AND v < 70' 2>&1)"
expect "head across files" 4 "$("$cli" head -n 4 "$d" | wc -l | tr -d ' ')"
expect "head partition only" '{"year":2024}' "$("$cli" head -n 1 --columns year "$d" --where 'month = 1 AND year = 2024' 2>&1)"
expect "meta per file" 3 "$("$cli" meta "$d" | grep -c '^file:')"
expect "schema per file" 3 "$("$cli" schema "$d" | grep -c '^# ')"
want='  id: int64 ("l")
  v: int64 ("l")
  extra: utf8 ("u")
  year: int64 ("l")
  month: int64 ("l")'
expect "schema --arrow unified" "$want" "$("$cli" schema --arrow "$d/**/*.parquet" | tail -n +2 | sed 's/, not null//')"

# errors
"$cli" cat "$d" --rows 1-2 >/dev/null 2>"$tmp/err"; expect "--rows on a dataset" 2 $?
"$cli" count "$tmp/nothing" >/dev/null 2>"$tmp/err"; expect "missing dir exit" 1 $?
grep -q "nothing" "$tmp/err" || bad "missing dir message: $(cat "$tmp/err")"
"$cli" count "$d/*.csv" >/dev/null 2>"$tmp/err"; expect "glob matching nothing" 1 $?
grep -q "no files match" "$tmp/err" || bad "no match message: $(cat "$tmp/err")"
"$cli" count "$d" --where 'nope = 1' >/dev/null 2>"$tmp/err"; expect "unknown column" 2 $?
grep -q "nope" "$tmp/err" || bad "unknown column message: $(cat "$tmp/err")"
printf 'id,v\n10,abc\n' >"$tmp/d.csv"
"$cli" convert "$tmp/d.csv" "$d/year=2024/month=01/d.parquet" >/dev/null || bad "convert d"
"$cli" cat "$d" >/dev/null 2>"$tmp/err"; expect "incompatible types" 1 $?
grep -q "a.parquet" "$tmp/err" && grep -q "d.parquet" "$tmp/err" && grep -q "column v" "$tmp/err" ||
  bad "incompatible types message: $(cat "$tmp/err")"
rm "$d/year=2024/month=01/d.parquet"
echo "not parquet" >"$d/year=2024/month=01/e.parquet"
"$cli" count "$d" >/dev/null 2>"$tmp/err"; expect "not parquet" 1 $?
grep -q "e.parquet" "$tmp/err" || bad "not parquet message: $(cat "$tmp/err")"
rm "$d/year=2024/month=01/e.parquet"
mkdir -p "$d/other"
cp "$d/year=2024/month=01/c.parquet" "$d/other/"
"$cli" count "$d" >/dev/null 2>"$tmp/err"; expect "partition keys differ" 1 $?
grep -q "partition directories differ" "$tmp/err" || bad "partition message: $(cat "$tmp/err")"
# nested: struct s in n1 and n3, missing in n2
n=$tmp/nested
mkdir -p "$n"
printf '{"id":1,"s":{"a":10,"b":"x"}}\n{"id":2,"s":{"a":20,"b":"y"}}\n{"id":3,"s":null}\n' >"$tmp/n1.jsonl"
printf '{"id":4}\n{"id":5}\n' >"$tmp/n2.jsonl"
printf '{"id":6,"s":{"a":5,"b":"z"}}\n{"id":7,"s":{"a":40,"b":null}}\n' >"$tmp/n3.jsonl"
for k in 1 2 3; do "$cli" convert "$tmp/n$k.jsonl" "$n/n$k.parquet" >/dev/null || bad "convert n$k"; done
expect "nested cat" '{"id":1,"s":{"a":10,"b":"x"}}
{"id":2,"s":{"a":20,"b":"y"}}
{"id":3,"s":null}
{"id":4,"s":null}
{"id":5,"s":null}
{"id":6,"s":{"a":5,"b":"z"}}
{"id":7,"s":{"a":40,"b":null}}' "$("$cli" cat "$n")"
expect "nested --where s.a" '{"id":1}
{"id":2}
{"id":7}' "$("$cli" cat -c id --where 's.a > 8' "$n")"
expect "nested count --where s.a" 3 "$("$cli" count --where 's.a > 8' "$n")"
expect "nested --where s.a is null" '3 4 5' "$("$cli" cat -c id --where 's.a is null' --format csv "$n" | tail -n +2 | tr '\n' ' ' | sed 's/ $//')"
expect "nested -c s" '{"s":null}
{"s":{"a":5,"b":"z"}}
{"s":{"a":40,"b":null}}' "$("$cli" cat -c s "$n" | tail -n 3)"
expect "nested -c s.a" '{"s":{"a":10}}
{"s":{"a":20}}
{"s":null}
{"s":null}
{"s":null}
{"s":{"a":5}}
{"s":{"a":40}}' "$("$cli" cat -c s.a "$n")"
"$cli" cat -c s.zz "$n" >/dev/null 2>"$tmp/err"; expect "-c s.zz" 2 $?
grep -q "no column s.zz in the dataset" "$tmp/err" || bad "-c s.zz message: $(cat "$tmp/err")"
# structs whose fields differ between files: unified by name
printf '{"id":8,"s":{"a":50}}\n' >"$tmp/n4.jsonl"
"$cli" convert "$tmp/n4.jsonl" "$n/n4.parquet" >/dev/null || bad "convert n4"
printf '{"id":9,"s":{"c":{"d":1},"b":"w","a":60}}\n' >"$tmp/n5.jsonl"
"$cli" convert --schema 'message m { optional int64 id; optional group s { optional group c { optional int32 d; } optional binary b (STRING); optional int32 a; } }' "$tmp/n5.jsonl" "$n/n5.parquet" >/dev/null || bad "convert n5"
printf '{"id":10,"s":{"c":{"e":"f","d":70000000000}}}\n' >"$tmp/n6.jsonl"
"$cli" convert "$tmp/n6.jsonl" "$n/n6.parquet" >/dev/null || bad "convert n6"
expect "struct fields differ" '{"id":7,"s":{"a":40,"b":null,"c":null}}
{"id":8,"s":{"a":50,"b":null,"c":null}}
{"id":9,"s":{"a":60,"b":"w","c":{"d":1,"e":null}}}
{"id":10,"s":{"a":null,"b":null,"c":{"d":70000000000,"e":"f"}}}' "$("$cli" cat "$n" | tail -n 4)"
expect "struct fields differ, csv" '9,"{""a"":60,""b"":""w"",""c"":{""d"":1,""e"":null}}"' "$("$cli" cat --format csv "$n" | grep '^9,')"
expect "struct fields differ -c s.c.e,s.a" '{"id":8,"s":{"a":50,"c":null}}
{"id":9,"s":{"a":60,"c":{"e":null}}}
{"id":10,"s":{"a":null,"c":{"e":"f"}}}' "$("$cli" cat -c id,s.c.e,s.a "$n" | tail -n 3)"
expect "struct fields differ count" 10 "$("$cli" count "$n")"
# the Arrow stream (export to Parquet) gives the same values as the text path
"$cli" export "$n" -o "$tmp/merged.parquet" >/dev/null || bad "export of structs that differ"
expect "struct fields differ, Arrow stream" "$("$cli" cat "$n")" "$("$cli" cat "$tmp/merged.parquet")"
"$cli" export -c id,s.c.e,s.a "$n" -o "$tmp/merged2.parquet" >/dev/null || bad "export -c s.c.e,s.a"
expect "struct fields differ, Arrow stream -c s.c.e,s.a" "$("$cli" cat -c id,s.c.e,s.a "$n")" "$("$cli" cat "$tmp/merged2.parquet")"
# a field whose types do not unify: the dotted path and both files named
printf '{"id":11,"s":{"c":{"d":"text"}}}\n' >"$tmp/n7.jsonl"
"$cli" convert "$tmp/n7.jsonl" "$n/n7.parquet" >/dev/null || bad "convert n7"
"$cli" cat "$n" >/dev/null 2>"$tmp/err"; expect "struct field types differ" 1 $?
grep -q "column s.c.d: .*n5.parquet has type 'i', .*n7.parquet has type 'u'" "$tmp/err" ||
  bad "struct field types differ message: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "dataset commands ok"
exit $fail
