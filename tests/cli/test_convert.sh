#!/usr/bin/env bash
# `parquetry convert` (issue 10): a value is written as given or the command
# fails naming the file, line and column, with no output left behind; exit
# status 0 means every row made it. One check (or a few) per item of the issue.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-convert.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# expect_rows NAME EXPECTED ARGS...: convert ARGS into o.parquet; its rows (cat) equal EXPECTED
expect_rows() {
  local name=$1 want=$2; shift 2
  rm -f o.parquet
  if ! "$cli" convert "$@" o.parquet 2>err.txt; then bad "$name: convert failed: $(cat err.txt)"; return; fi
  local got; got=$("$cli" cat o.parquet)
  [ "$got" = "$want" ] && ok || bad "$name: got
$got
want
$want"
}
# expect_fail NAME PATTERN ARGS...: convert ARGS into o.parquet fails, stderr matches PATTERN, no output
expect_fail() {
  local name=$1 pat=$2; shift 2
  rm -f o.parquet
  if "$cli" convert "$@" o.parquet 2>err.txt >/dev/null; then bad "$name: succeeded"; return; fi
  [ -e o.parquet ] && bad "$name: output left behind"
  grep -q -- "$pat" err.txt && ok || bad "$name: message '$(cat err.txt)' lacks '$pat'"
}
schema_of() { "$cli" convert --dry-run "$@" 2>/dev/null; }

# ---- duplicate and empty header names (DuckDB: a, column1, a_1, b, column4, a_2) ----
printf 'a,,a,b,,a\n1,2,3,4,5,6\n' > dup.csv
expect_rows "duplicate names" '{"a":1,"column1":2,"a_1":3,"b":4,"column4":5,"a_2":6}' dup.csv
grep -q "warning: column 3 'a' (given twice) is named 'a_1'" err.txt && ok || bad "duplicate name warning: $(cat err.txt)"
printf '\xef\xbb\xbfid,v\n1,x\n' > bom.csv
expect_rows "BOM is not part of the first name" '{"id":1,"v":"x"}' bom.csv

# ---- out of range for the declared type ----
printf 'a\n1\n300\n' > i8.csv
expect_fail "300 into INT(8,true)" "i8.csv: line 3, column a: cannot read '300' as INT(8,true): out of range" \
  --schema 'message m { optional int32 a (INT(8,true)); }' i8.csv
printf 'a\n-1\n' > neg.csv
expect_fail "negative into unsigned" "line 2, column a: cannot read '-1' as INT(32,false)" \
  --schema 'message m { optional int32 a (INT(32,false)); }' neg.csv
printf 'a\n12.345\n' > dec.csv
expect_fail "decimal with too many fraction digits" "line 2, column a: .*more fraction digits" \
  --schema 'message m { optional int64 a (DECIMAL(10,2)); }' dec.csv
printf 'a\n1234.5\n' > dec2.csv
expect_fail "decimal with too many digits" "line 2, column a: .*more digits than the precision" \
  --schema 'message m { optional int32 a (DECIMAL(5,2)); }' dec2.csv
printf 'a\n9223372036854775808\n' > big.csv
expect_fail "2^63 into INT64" "line 2, column a: .*out of range" --schema 'message m { optional int64 a; }' big.csv
printf 'a\n127\n-128\n255\n' > i8ok.csv
expect_fail "255 into INT(8,true)" "line 4" --schema 'message m { optional int32 a (INT(8,true)); }' i8ok.csv
printf 'a\n255\n0\n' > u8.csv
expect_rows "INT(8,false) edges" $'{"a":255}\n{"a":0}' --schema 'message m { optional int32 a (INT(8,false)); }' u8.csv

# ---- invalid dates and times ----
printf 'd\n2023-02-28\n2023-02-30\n' > date.csv
expect_fail "2023-02-30" "line 3, column d: cannot read '2023-02-30' as DATE" --schema 'message m { optional int32 d (DATE); }' date.csv
printf 't\n23:59:59\n25:00\n' > time.csv
expect_fail "25:00" "line 3, column t: cannot read '25:00' as TIME" --schema 'message m { optional int64 t (TIME(MICROS,false)); }' time.csv
printf 't\n24:00:00\n' > t24.csv
expect_fail "24:00:00" "line 2" --schema 'message m { optional int32 t (TIME(MILLIS,false)); }' t24.csv
[ "$(schema_of date.csv | grep -c '(DATE)')" = 0 ] && ok || bad "a column with 2023-02-30 must not be inferred DATE"
printf 'd\n2024-02-29\n' > leap.csv
expect_rows "leap day" '{"d":"2024-02-29"}' leap.csv

# ---- UTF-8 ----
printf 'a,b\nx,caf\xe9\n' > latin.csv
expect_fail "invalid UTF-8" "latin.csv: line 2, column 2, byte offset 9: not valid UTF-8" latin.csv
expect_rows "--input-encoding latin1" '{"a":"x","b":"café"}' --input-encoding latin1 latin.csv
printf '{"a":"caf\xe9"}\n' > latin.jsonl
expect_fail "invalid UTF-8 in JSON" "latin.jsonl: line 1, position 10: not valid UTF-8" latin.jsonl
printf '{"a":"\\ud800"}\n' > sur.jsonl
expect_fail "lone surrogate" "line 1, position .*surrogate" sur.jsonl

# ---- inference keeps text that would change ----
printf 'id,p,e,big,n,f,q\n00123,+1,1e5,9223372036854775808,1,1.5,"7"\n7,2,2,1,-2,2,"8"\n' > inf.csv
s=$(schema_of inf.csv)
for c in id p e big; do echo "$s" | grep -q "binary \`$c\` (STRING)" && ok || bad "column $c should stay STRING: $s"; done
echo "$s" | grep -q 'int64 `n`;' && echo "$s" | grep -q 'int64 `q`;' && ok || bad "columns n and q (quoted, as DuckDB) INT64: $s"
echo "$s" | grep -q 'double `f`;' && ok || bad "column f DOUBLE: $s"
expect_rows "text kept" $'{"id":"00123","p":"+1","e":"1e5","big":"9223372036854775808","n":1,"f":1.5,"q":7}\n{"id":"7","p":"2","e":"2","big":"1","n":-2,"f":2,"q":8}' inf.csv
printf 'd,t,tz,tm,b\n2023-01-02,2023-01-02 10:00:00.5,2023-01-02T10:00:00+02:00,10:11:12,true\n' > dt.csv
s=$(schema_of dt.csv)
echo "$s" | grep -q 'int32 `d` (DATE)' && echo "$s" | grep -q '`t` (TIMESTAMP(MICROS,false))' &&
  echo "$s" | grep -q '`tz` (TIMESTAMP(MICROS,true))' && echo "$s" | grep -q '`tm` (TIME(MICROS,false))' &&
  echo "$s" | grep -q 'boolean `b`' && ok || bad "dates, times, zones, booleans inferred: $s"
expect_rows "zone converted to UTC" '{"d":"2023-01-02","t":"2023-01-02T10:00:00.500000","tz":"2023-01-02T08:00:00.000000Z","tm":"10:11:12.000000","b":true}' dt.csv
printf '{"d":"2023-01-02","n":3,"s":"x","o":{"k":[1,"2"]},"x":1.25}\n{"d":null,"n":-1}\n' > j.jsonl
s=$(schema_of j.jsonl)
echo "$s" | grep -q '`d` (DATE)' && echo "$s" | grep -q 'int64 `n`' && echo "$s" | grep -q 'double `x`' && ok || bad "JSON dates inferred like CSV: $s"
expect_rows "JSON Lines" $'{"d":"2023-01-02","n":3,"s":"x","o":"{\\"k\\":[1,\\"2\\"]}","x":1.25}\n{"d":null,"n":-1,"s":null,"o":null,"x":null}' j.jsonl

# ---- every type the writer supports, from --schema ----
S='message m { optional int64 d64 (DECIMAL(18,3)); optional fixed_len_byte_array(16) d (DECIMAL(38,10));
  optional binary db (DECIMAL(9,2)); optional int32 d32 (DECIMAL(9,0)); optional int32 tm (TIME(MILLIS,true));
  optional int64 tn (TIME(NANOS,false)); optional int64 ts (TIMESTAMP(NANOS,true)); optional int64 tl (TIMESTAMP(MILLIS,false));
  optional fixed_len_byte_array(16) u (UUID); optional binary bin; optional fixed_len_byte_array(3) fx;
  optional fixed_len_byte_array(2) h (FLOAT16); optional int32 s16 (INT(16,true)); optional int64 u64 (INT(64,false));
  optional float f; required boolean r; }'
printf '%s\n' 'd64,d,db,d32,tm,tn,ts,tl,u,bin,fx,h,s16,u64,f,r' \
  '-123456789012345.678,1234567890123456789012345678.0123456789,-1234567.89,-999999999,23:59:59.999,00:00:00.000000001,2023-06-30T23:59:59.123456789-01:30,1969-12-31 23:59:59.999,6ba7b810-9dad-11d1-80b4-00c04fd430c8,aGk=,\x616263,-65504,-32768,18446744073709551615,0.5,false' \
  ',,,,,,,,,,,,,,,true' > all.csv
expect_rows "every type" '{"d64":"-123456789012345.678","d":"1234567890123456789012345678.0123456789","db":"-1234567.89","d32":"-999999999","tm":"23:59:59.999","tn":"00:00:00.000000001","ts":"2023-07-01T01:29:59.123456789Z","tl":"1969-12-31T23:59:59.999","u":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","bin":"aGk=","fx":"YWJj","h":-65500,"s16":-32768,"u64":18446744073709551615,"f":0.5,"r":false}
{"d64":null,"d":null,"db":null,"d32":null,"tm":null,"tn":null,"ts":null,"tl":null,"u":null,"bin":null,"fx":null,"h":null,"s16":null,"u64":null,"f":null,"r":true}' --schema "$S" all.csv
printf 'r\ntrue\n\n' > req.csv
printf 'r,x\ntrue,1\n,2\n' > req.csv
expect_fail "null in a required column" "line 3, column r: null in a required field" --schema 'message m { required boolean r; optional int64 x; }' req.csv
printf 'fx\n\\x6162\n' > fx.csv
expect_fail "binary of the wrong length" "line 2, column fx: .*not the type's length" --schema 'message m { optional fixed_len_byte_array(3) fx; }' fx.csv
printf 't\n2023-01-01 00:00:00+01:00\n' > tzl.csv
expect_fail "zone into a local timestamp" "line 2, column t: .*time zone" --schema 'message m { optional int64 t (TIMESTAMP(MICROS,false)); }' tzl.csv
printf '{"a":{"b":1}}\n' > nest.jsonl
expect_fail "object into INT64" "line 1, column a: .*JSON object" --schema 'message m { optional int64 a; }' nest.jsonl

# ---- nested JSON: objects to groups, arrays to lists, inferred or from --schema ----
printf '%s\n' '{"a":1,"o":{"x":1,"y":"s","z":{"q":["2023-01-01"]}},"l":[1,2,3],"lo":[{"k":"a"},{"k":null,"m":2.5}]}' \
  '{"a":2,"o":{"y":"t"},"l":[],"lo":null}' '{"a":3,"o":null,"l":null,"lo":[null]}' > nest.jsonl
s=$(schema_of nest.jsonl)
echo "$s" | grep -q 'optional group `o` {' && echo "$s" | grep -q 'optional group `l` (LIST) {' &&
  echo "$s" | grep -q 'optional int32 `element` (DATE);' && ok || bad "nested schema inferred: $s"
expect_rows "nested JSON" '{"a":1,"o":{"x":1,"y":"s","z":{"q":["2023-01-01"]}},"l":[1,2,3],"lo":[{"k":"a","m":null},{"k":null,"m":2.5}]}
{"a":2,"o":{"x":null,"y":"t","z":null},"l":[],"lo":null}
{"a":3,"o":null,"l":null,"lo":[null]}' nest.jsonl
printf '%s\n' '{"m":5,"s":"x"}' '{"m":"five","s":"y"}' '{"m":{"a":[1]}}' > mixed.jsonl
s=$(schema_of mixed.jsonl)
echo "$s" | grep -q 'binary `m` (JSON);' && ok || bad "a field mixing kinds is JSON text: $s"
expect_rows "mixed kinds kept as JSON text" '{"m":"5","s":"x"}
{"m":"\"five\"","s":"y"}
{"m":"{\"a\":[1]}","s":null}' mixed.jsonl
NS='message m { optional group o { required int32 x (INT(8,true)); optional group l (LIST) { repeated group list { optional binary element (STRING); } } } optional int64 a; }'
printf '%s\n' '{"a":1,"o":{"x":5,"l":["a",null]}}' '{"a":2}' '{"o":{"x":7}}' > ns.jsonl
expect_rows "nested --schema" '{"o":{"x":5,"l":["a",null]},"a":1}
{"o":null,"a":2}
{"o":{"x":7,"l":null},"a":null}' --schema "$NS" ns.jsonl
printf '{"a":1}\n{"o":{"x":300}}\n' > nb1.jsonl
expect_fail "nested value out of range" "nb1.jsonl: line 2, column o: field x: cannot read '300' as INT(8,true)" --schema "$NS" nb1.jsonl
printf '{"a":1}\n{"o":{"y":1}}\n' > nb2.jsonl
expect_fail "nested unknown key" "line 2, column o: key 'y' is not a field of group o" --schema "$NS" nb2.jsonl
printf '{"o":{}}\n' > nb3.jsonl
expect_fail "nested required field missing" "line 1, column o: null in a required field (x)" --schema "$NS" nb3.jsonl
printf '{"o":[1]}\n' > nb4.jsonl
expect_fail "array into a group" "line 1, column o: a JSON array where field o is a group" --schema "$NS" nb4.jsonl

# ---- format from the content, compression, CSV options ----
printf '{"a":1}\n' > noext
expect_rows "JSON Lines sniffed" '{"a":1}' noext
printf 'a,b\n1,2\n' > noext2
expect_rows "CSV sniffed" '{"a":1,"b":2}' noext2
expect_fail "--format csv forces CSV on JSON text" "column '{\"a\":1}' of the input is not a field" --format csv --schema 'message m { optional int64 a; }' noext
printf 'a,b\n1,x\n2,y\n' > c.csv
gzip -c c.csv > c.csv.gz; zstd -q -c c.csv > c.csv.zst 2>/dev/null || true
expect_rows ".gz input" $'{"a":1,"b":"x"}\n{"a":2,"b":"y"}' c.csv.gz
if [ -s c.csv.zst ]; then expect_rows ".zst input" $'{"a":1,"b":"x"}\n{"a":2,"b":"y"}' c.csv.zst; else echo "SKIP: no zstd program"; fi
cat c.csv c.csv | tail -n +1 | head -c 0 >/dev/null
{ gzip -c c.csv; printf '3,z\n' | gzip -c; } > multi.csv.gz
expect_rows "gzip with two members" $'{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n{"a":3,"b":"z"}' multi.csv.gz
head -c 20 c.csv.gz > cut.csv.gz
expect_fail "truncated gzip" "gzip" cut.csv.gz
printf 'a|b\n"x|y"|"say ""hi"""\n' > p.txt
expect_rows "--delimiter and quotes" '{"a":"x|y","b":"say \"hi\""}' --delimiter '|' p.txt
printf "a,b\n'x,y',1\n" > q.csv
expect_rows "--quote" '{"a":"x,y","b":1}' --quote "'" q.csv
printf 'a,b\nNULL,\n1,x\n' > ns.csv
expect_rows "--null-string (the empty field is then an empty string)" $'{"a":null,"b":""}\n{"a":1,"b":"x"}' --null-string NULL ns.csv
printf '1,x\n2,y\n' > nh.csv
expect_rows "--no-header" $'{"column0":1,"column1":"x"}\n{"column0":2,"column1":"y"}' --no-header nh.csv
printf 'a\tb\n1\t2\n' > t.tsv
expect_rows ".tsv is tab-separated" '{"a":1,"b":2}' t.tsv
printf 'a,b\r\n1,"multi\r\nline"\r\n' > crlf.csv
expect_rows "CRLF and a quoted line break" '{"a":1,"b":"multi\r\nline"}' crlf.csv
printf 'a,b\n1,2\n3\n' > short.csv
expect_fail "short row" "short.csv: line 3: 1 field, the header has 2" short.csv
printf 'a,b\n1,"2\n' > open.csv
expect_fail "unterminated quote" "line 3: quoted field never closed (opened on line 2)" open.csv
printf '{"a":1}\n{"a":2,}\n' > bad.jsonl
expect_fail "JSON error names the line" "bad.jsonl: line 2, position 8" bad.jsonl
printf '{"a":1,"a":2}\n' > dupk.jsonl
expect_fail "JSON key given twice" "line 1.*given twice" dupk.jsonl

# ---- unknown names ----
expect_fail "--schema field not in the input" "field 'zz' is not a column" --schema 'message m { optional int64 a; optional binary b (STRING); optional int64 zz; }' c.csv
expect_fail "input column not in --schema" "column 'b' of the input is not a field of --schema" --schema 'message m { optional int64 a; }' c.csv
expect_fail "--bloom unknown" "--bloom: no column 'zz'" --bloom zz c.csv
expect_fail "--encoding unknown column" "--encoding: no column 'zz'" --encoding zz=PLAIN c.csv
expect_rows "--bloom known" $'{"a":1,"b":"x"}\n{"a":2,"b":"y"}' --bloom b c.csv
expect_fail "JSON key not in --schema" "line 1: key 'a' is not a field of --schema" --schema 'message m { optional int64 b; }' noext

# ---- standard input and output, same file, --force ----
rm -f o.parquet
"$cli" convert - o.parquet < c.csv 2>err.txt && [ "$("$cli" cat o.parquet | wc -l)" = 2 ] && ok || bad "stdin: $(cat err.txt)"
"$cli" convert c.csv - > out.parquet 2>err.txt && [ "$("$cli" cat out.parquet | wc -l)" = 2 ] && ok || bad "stdout: $(cat err.txt)"
"$cli" convert - - < noext > out2.parquet 2>err.txt && [ "$("$cli" cat out2.parquet)" = '{"a":1}' ] && ok || bad "stdin to stdout"
cp c.csv same.csv
if "$cli" convert --force same.csv same.csv 2>err.txt; then bad "same file accepted"; else
  grep -q "is the input file" err.txt && cmp -s same.csv c.csv && ok || bad "same file: $(cat err.txt)"; fi
echo keep > exists.parquet
if "$cli" convert c.csv exists.parquet 2>err.txt; then bad "existing output replaced without --force"; else
  grep -q "exists (say --force" err.txt && [ "$(cat exists.parquet)" = keep ] && ok || bad "exists: $(cat err.txt)"; fi
"$cli" convert --force c.csv exists.parquet 2>err.txt && [ "$("$cli" cat exists.parquet | wc -l)" = 2 ] && ok || bad "--force: $(cat err.txt)"
printf 'a\n1\nx\n' > late.csv
if "$cli" convert --force --schema 'message m { optional int64 a; }' late.csv exists.parquet 2>/dev/null; then bad "late bad value accepted"; else
  [ "$("$cli" cat exists.parquet | wc -l)" = 2 ] && ok || bad "a failed --force run must leave the old file"; fi

# ---- --dry-run writes nothing ----
rm -f o.parquet
"$cli" convert --dry-run c.csv o.parquet > dry.txt 2>&1 && [ ! -e o.parquet ] && grep -q 'optional int64 `a`;' dry.txt && ok || bad "--dry-run: $(cat dry.txt)"

# ---- flag names: writing and reading do not share --no-crc ----
expect_fail "--no-crc is not a writing flag" "no-write-crc" --no-crc c.csv
rm -f o.parquet
"$cli" convert --no-write-crc c.csv o.parquet && "$cli" pages --lines o.parquet > pages.txt 2>&1 &&
  ! grep -qi "crc ok" pages.txt && ok || bad "--no-write-crc: $(head -3 pages.txt)"
"$cli" convert --help | grep -q -- "--no-write-crc" && ok || bad "help names --no-write-crc"

# ---- errors name flags, codecs, encodings and types as typed ----
expect_fail "encoding named" "DELTA_BINARY_PACKED" --encoding b=DELTA_BINARY_PACKED c.csv
expect_fail "unknown codec" "unknown codec 'zzz'" --codec zzz c.csv

# ---- many rows: row groups by rows and by size, values intact ----
awk 'BEGIN { print "id,name,v"; for (i = 0; i < 200000; i++) printf "%d,n%d,%d.25\n", i, i % 977, i % 1000 }' > many.csv
rm -f o.parquet
"$cli" convert --row-group-size 70000 many.csv o.parquet 2>err.txt || bad "many rows: $(cat err.txt)"
[ "$("$cli" meta o.parquet | grep -c '^row group [0-9]*: 70,000 rows,')" = 2 ] && ok || bad "row groups of 70000 rows"
[ "$("$cli" cat o.parquet | tail -1)" = '{"id":199999,"name":"n691","v":999.25}' ] && ok || bad "last row"
rm -f o.parquet
"$cli" convert --row-group-size 256KiB many.csv o.parquet 2>err.txt || bad "size row groups: $(cat err.txt)"
[ "$("$cli" meta o.parquet | grep -c '^row group [0-9]*:')" -gt 1 ] && ok || bad "--row-group-size 256KiB gives several row groups"
[ "$("$cli" cat o.parquet | wc -l)" = 200000 ] && ok || bad "every row"

echo "convert: $pass passed, $fail failed"
[ "$fail" = 0 ]
