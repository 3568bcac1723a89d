#!/usr/bin/env bash
# Messages name codecs, encodings, types and flags as users type them
# (LZO, DELTA_BINARY_PACKED, BYTE_ARRAY, --footer-key), never internal
# codes ("codec 3", "encoding 5", "type 6", option struct fields).
# Usage: CLI CORPUS_DIR
set -u
cli=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
expect() { # want_rc text command...: exit status and a line of stderr
  local want=$1 text=$2; shift 2
  "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  [ $rc -eq "$want" ] && grep -qF -- "$text" "$tmp/err" && ok || bad "$*: exit $rc, want $want with '$text': $(head -c 300 "$tmp/err")"
  grep -Eq "codec [0-9]|encoding [0-9]|type [0-9]|pqt_[a-z_]*options|\(max_memory\)|tsu:|'d:[0-9]" "$tmp/err" && bad "$*: internal code: $(cat "$tmp/err")" || ok
}
printf 'id,name\n1,a\n2,b\n' >"$tmp/t.csv"
"$cli" convert "$tmp/t.csv" "$tmp/t.parquet" >/dev/null 2>&1 || { echo "FAIL: convert"; exit 1; }
if "$cli" rewrite --codec lzo "$tmp/t.parquet" "$tmp/o.parquet" 2>"$tmp/err"; then
  ok # built with LZO
else
  grep -qF "codec LZO is not available in this build" "$tmp/err" && ok || bad "lzo: $(cat "$tmp/err")"
fi
expect 1 "encoding DELTA_BINARY_PACKED does not apply to physical type BYTE_ARRAY" \
  "$cli" rewrite --encoding name=DELTA_BINARY_PACKED "$tmp/t.parquet" "$tmp/o.parquet"
expect 1 "encoding BYTE_STREAM_SPLIT does not apply to physical type BYTE_ARRAY" \
  "$cli" rewrite --encoding name=BYTE_STREAM_SPLIT "$tmp/t.parquet" "$tmp/o.parquet"
data=${2:-}/data
if [ -f "$data/uniform_encryption.parquet.encrypted" ]; then
  expect 1 "(give it with --footer-key KEY)" "$cli" meta "$data/uniform_encryption.parquet.encrypted"
  expect 1 "(give it with --column-key float_field:KEY)" "$cli" cat "$data/encrypt_columns_plaintext_footer.parquet.encrypted"
  expect 1 "(allow it with --max-page-bytes" "$cli" cat "$data/large_string_map.brotli.parquet"
  expect 1 "(allow more with --max-memory BYTES)" "$cli" cat --max-memory 1K "$data/alltypes_plain.parquet"
else
  echo "NOTE: corpus not found at $data: key and limit messages not checked"
fi
echo "messages: $pass passed, $fail failed"
[ $fail -eq 0 ]
