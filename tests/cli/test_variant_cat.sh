#!/usr/bin/env bash
# `parquetry cat` prints a VARIANT column as the JSON of its reconstructed
# value (shredded_variant corpus cases): numbers, canonical float, DECIMAL as
# a string with `scale` digits, DATE, TIME, TIMESTAMP (6/9 digits, Z when
# UTC), BINARY base64, UUID, objects in the encoding's order, nested
# shredding; an invalid case fails naming row and column. Skips (77)
# without the corpus. Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
dir="$corpus/shredded_variant"
if [ ! -f "$dir/cases.json" ]; then echo "SKIP: shredded_variant corpus not found at $dir"; exit 77; fi
fail=0
expect() { # case-number expected-output (lines joined by |)
  local got
  got=$("$cli" cat "$dir/case-$1.parquet" 2>&1 | tr '\n' '|')
  if [ "$got" != "$2|" ]; then echo "FAIL case $1: got '$got' want '$2|'"; fail=1; fi
}
expect 006 '{"id":1,"var":34}'
expect 012 '{"id":1,"var":9876543210}'
expect 016 '{"id":1,"var":14.3}'
expect 014 '{"id":1,"var":10.11}'
expect 018 '{"id":1,"var":"2024-11-07"}'
expect 020 '{"id":1,"var":"2024-11-07T12:33:54.123456Z"}'
expect 022 '{"id":1,"var":"2024-11-07T12:33:54.123456"}'
expect 024 '{"id":1,"var":"12345.6789"}'
expect 027 '{"id":1,"var":"-123456789.987654321"}'
expect 030 '{"id":1,"var":"CgsMDQ=="}'
expect 032 '{"id":1,"var":"12:33:54.123456"}'
expect 033 '{"id":1,"var":"2024-11-07T12:33:54.123456789Z"}'
expect 035 '{"id":1,"var":"2024-11-07T12:33:54.123456789"}'
expect 037 '{"id":1,"var":"f24f9b64-81fa-49d1-b74e-8c09a6e31c56"}'
expect 045 '{"id":0,"var":["comedy","drama"]}|{"id":1,"var":34}|{"id":2,"var":{"a":null,"d":"iceberg"}}|{"id":3,"var":["action","horror"]}'
expect 083 '{"id":0,"var":null}|{"id":1,"var":{"c":{"b":"iceberg"}}}|{"id":2,"var":{"c":8,"d":-0}}|{"id":3,"var":{"c":{"a":34,"b":""},"d":0}}'
expect 134 '{"id":1,"var":{"a":null,"b":"iceberg","d":"2024-01-30"}}'
expect 136 '{"id":1,"var":[["comedy","drama"],[]]}'
# an invalid file: exit status non-zero, the message names row and column
out=$("$cli" cat "$dir/case-042.parquet" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then echo "FAIL case 042: exit 0 on an invalid variant"; fail=1; fi
case "$out" in
  *"row group 0"*"row 0, column var"*"conflicting value and typed_value"*) ;;
  *) echo "FAIL case 042: message does not name the place: $out"; fail=1 ;;
esac
# CSV: the same JSON text in the cell
got=$("$cli" cat --format csv "$dir/case-006.parquet" 2>&1 | tail -1)
if [ "$got" != "1,34" ]; then echo "FAIL csv: got '$got'"; fail=1; fi
[ $fail -eq 0 ] && echo "ok: variant cat"
exit $fail
