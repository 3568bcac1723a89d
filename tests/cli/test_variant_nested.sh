#!/usr/bin/env bash
# VARIANT below the top level: a VARIANT group inside a struct is written
# (convert --schema with the group's metadata and value as base64 in JSON;
# each value validated, a bad one failing naming row and column), read back
# reconstructed (cat prints the JSON) and filtered by variant_get on its
# dotted path. Usage: CLI CORPUS_DIR
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
schema='message m { optional int64 id; optional group s { optional int64 k; optional group v (VARIANT) { required binary metadata; required binary value; } } }'
# 5 (int8), {"a":1}, a null struct, a null variant
printf '%s\n' '{"id":1,"s":{"k":1,"v":{"metadata":"AQAA","value":"DAU="}}}' \
  '{"id":2,"s":{"k":2,"v":{"metadata":"AQEAAWE=","value":"AgEAAAIMAQ=="}}}' \
  '{"id":3,"s":null}' '{"id":4,"s":{"k":4,"v":null}}' >"$tmp/in.jsonl"
if ! "$cli" convert --schema "$schema" "$tmp/in.jsonl" "$tmp/n.parquet" 2>"$tmp/err"; then
  echo "FAIL: convert: $(cat "$tmp/err")"; exit 1
fi
got=$("$cli" cat "$tmp/n.parquet" 2>&1 | tr '\n' '|')
want='{"id":1,"s":{"k":1,"v":5}}|{"id":2,"s":{"k":2,"v":{"a":1}}}|{"id":3,"s":null}|{"id":4,"s":{"k":4,"v":null}}|'
if [ "$got" != "$want" ]; then echo "FAIL: cat: got '$got' want '$want'"; fail=1; fi
"$cli" schema "$tmp/n.parquet" | grep -q 'optional group v (VARIANT' || { echo "FAIL: v is not annotated VARIANT"; fail=1; }
got=$("$cli" cat --columns id --where "variant_get(s.v, '\$.a', 'int') = 1" "$tmp/n.parquet" 2>&1)
if [ "$got" != '{"id":2}' ]; then echo "FAIL: where on s.v: got '$got'"; fail=1; fi
got=$("$cli" cat --columns id --where "variant_get(s.v, '\$', 'int64') IS NULL" "$tmp/n.parquet" 2>&1 | tr '\n' ' ')
if [ "$got" != '{"id":2} {"id":3} {"id":4} ' ]; then echo "FAIL: IS NULL on s.v: got '$got'"; fail=1; fi
# a value that is not a Variant (an int8 cut short) is refused, naming the row and the column's full path
printf '%s\n' '{"id":1,"s":{"k":1,"v":{"metadata":"AQAA","value":"DAU="}}}' \
  '{"id":2,"s":{"k":1,"v":{"metadata":"AQAA","value":"DA=="}}}' >"$tmp/bad.jsonl"
if "$cli" convert --schema "$schema" "$tmp/bad.jsonl" "$tmp/bad.parquet" 2>"$tmp/err"; then
  echo "FAIL: a bad nested Variant value was written"; fail=1
elif ! grep -q "row 1, column s\.v: " "$tmp/err"; then
  echo "FAIL: the error does not name row and column: $(cat "$tmp/err")"; fail=1
fi
[ -e "$tmp/bad.parquet" ] && { echo "FAIL: a failed convert left its output"; fail=1; }
exit $fail
