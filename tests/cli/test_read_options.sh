#!/usr/bin/env bash
# The reading options on every command that reads (rewrite and salvage
# included): keys, page limits and --max-memory (a refusal names the option
# that allows it), and --skip-corrupt's loss report and exit status 3.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
corpus=${2:-}
data=$corpus/data
if [ ! -f "$data/large_string_map.brotli.parquet" ] || [ ! -f "$data/uniform_encryption.parquet.encrypted" ]; then
  echo "corpus not found at $data (parquet-testing): skipping"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
run() { # expected_rc command... (stdout in $tmp/out, stderr in $tmp/err)
  local want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -eq "$want" ]; then ok; else bad "$*: exit $rc, want $want: $(head -c 400 "$tmp/err")"; fi
}
has() { # file text
  if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks '$2': $(head -c 400 "$1")"; fi
}

# every reading command lists the reading options, rewrite and salvage too
for c in schema meta cat pages verify rewrite salvage; do
  "$cli" $c --help >"$tmp/help" 2>&1
  for o in --footer-key --skip-corrupt --max-page-bytes --max-page-expansion --max-memory; do has "$tmp/help" "$o"; done
done
"$cli" cat --help >"$tmp/help"
has "$tmp/help" "exit status 3"

# page limits: refused by default, naming the options; allowed with them
big=$data/large_string_map.brotli.parquet
run 1 "$cli" cat "$big"
has "$tmp/err" "(allow it with --max-page-bytes 2G --max-page-expansion 1048576)"
run 1 "$cli" rewrite "$big" "$tmp/big.parquet"
has "$tmp/err" "--max-page-bytes"
[ ! -e "$tmp/big.parquet" ] && ok || bad "a failed rewrite left its output"
# (one row: a 1 GiB string)
"$cli" cat -n 1 --max-page-bytes 2G --max-page-expansion 1048576 "$big" 2>"$tmp/err" | wc -c >"$tmp/n"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && ok || bad "cat with the limits raised: exit $rc: $(head -c 300 "$tmp/err")"
[ "$(cat "$tmp/n")" -gt 1073741824 ] && ok || bad "cat with the limits raised printed $(cat "$tmp/n") bytes"
# rewrite too (batches of one row: each value is 1 GiB)
run 0 "$cli" rewrite --max-page-bytes 2G --max-page-expansion 1048576 "$big" "$tmp/big.parquet"
"$cli" meta "$tmp/big.parquet" | grep -q '^rows: *2$' && ok || bad "rewrite of $big: not 2 rows"
rm -f "$tmp/big.parquet"
run 2 "$cli" cat --max-page-bytes 0 "$big"
run 2 "$cli" cat --max-page-bytes 12X "$big"
run 2 "$cli" rewrite --max-memory "$big"
run 1 "$cli" cat --max-memory 1K "$data/alltypes_plain.parquet"
has "$tmp/err" "--max-memory"
run 1 "$cli" head --max-footer-bytes 100 "$data/alltypes_plain.parquet"
has "$tmp/err" "(allow it with --max-footer-bytes 730)"

# keys: the refusal names the flag; rewrite reads an encrypted file with them
enc=$data/uniform_encryption.parquet.encrypted
run 1 "$cli" rewrite "$enc" "$tmp/plain.parquet"
has "$tmp/err" "--footer-key KEY"
run 0 "$cli" rewrite --footer-key 0123456789012345 "$enc" "$tmp/plain.parquet"
"$cli" cat --footer-key 0123456789012345 "$enc" >"$tmp/a" 2>&1
"$cli" cat "$tmp/plain.parquet" >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ] && ok || bad "rewrite of an encrypted file differs"
run 1 "$cli" cat "$data/encrypt_columns_plaintext_footer.parquet.encrypted"
has "$tmp/err" "--column-key "
run 1 "$cli" meta --footer-key 0123456789012345 "$data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted"
has "$tmp/err" "--aad-prefix TEXT"

# --skip-corrupt: a damaged page of a required column loses its rows
printf 'id,name\n' >"$tmp/t.csv"
i=0; while [ $i -lt 3000 ]; do printf '%d,n%d\n' $i $i; i=$((i+1)); done >>"$tmp/t.csv"
run 0 "$cli" convert "$tmp/t.csv" "$tmp/r.parquet" --row-group-size 1000 \
  --schema 'message m { required int64 id; required binary name (STRING); }'
line=$("$cli" pages --lines -c id "$tmp/r.parquet" | grep '^rg=1 col=id page=0 ')
off=$(echo "$line" | sed 's/.* offset=\([0-9]*\) header=\([0-9]*\) .*/\1+\2+2/')
off=$((off))
byte=$(od -An -tu1 -j"$off" -N1 "$tmp/r.parquet" | tr -d ' ')
cp "$tmp/r.parquet" "$tmp/d.parquet"
printf "$(printf '\\%03o' $((byte ^ 0x21)))" | dd of="$tmp/d.parquet" bs=1 seek="$off" conv=notrunc status=none
run 1 "$cli" cat "$tmp/d.parquet"
has "$tmp/err" "CRC32 mismatch"
run 3 "$cli" cat --skip-corrupt "$tmp/d.parquet"
has "$tmp/err" "parquetry: $tmp/d.parquet: 1000 of 3000 rows lost"
[ "$(wc -l <"$tmp/out")" -eq 2000 ] && ok || bad "cat --skip-corrupt printed $(wc -l <"$tmp/out") rows, want 2000"
run 3 "$cli" rewrite --skip-corrupt "$tmp/d.parquet" "$tmp/kept.parquet"
has "$tmp/err" "1000 of 3000 rows lost"
run 0 "$cli" cat "$tmp/kept.parquet"
[ "$(wc -l <"$tmp/out")" -eq 2000 ] && ok || bad "rewrite --skip-corrupt kept $(wc -l <"$tmp/out") rows, want 2000"
# reading --no-crc: the CRC is not checked (the flipped byte reads as data)
run 0 "$cli" rewrite --no-crc "$tmp/r.parquet" "$tmp/nocrc.parquet"
# nothing skipped: exit 0 with --skip-corrupt
run 0 "$cli" cat --skip-corrupt "$tmp/r.parquet"
# damage under an optional field: the field reads as null, still exit 3
run 0 "$cli" convert "$tmp/t.csv" "$tmp/o.parquet" --row-group-size 1000
line=$("$cli" pages --lines -c id "$tmp/o.parquet" | grep '^rg=1 col=id page=0 ')
off=$(($(echo "$line" | sed 's/.* offset=\([0-9]*\) header=\([0-9]*\) .*/\1+\2+2/')))
byte=$(od -An -tu1 -j"$off" -N1 "$tmp/o.parquet" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 0x21)))" | dd of="$tmp/o.parquet" bs=1 seek="$off" conv=notrunc status=none
run 3 "$cli" cat --skip-corrupt "$tmp/o.parquet"
has "$tmp/err" "0 of 3000 rows lost, but damaged fields read as null"
[ "$(grep -c '"id":null' "$tmp/out")" -eq 1000 ] && ok || bad "want 1000 rows with id null"

echo "read options: $pass passed, $fail failed"
[ $fail -eq 0 ]
