#!/usr/bin/env bash
# verify and pages on the encrypted files of the corpus: with keys every
# column is shown and checked; a column without its key is listed as not
# shown / not checked, and verify then exits 1 unless --allow-unchecked; a
# flipped byte fails verify. Usage: CLI CORPUS_DIR
set -u
cli=$1
corpus=$2
data=$corpus/data
if [ ! -f "$data/uniform_encryption.parquet.encrypted" ]; then
  echo "SKIP: corpus not found at $corpus (encrypted files needed)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
check() { # name expected_rc command...
  local name=$1 want=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ $rc -eq "$want" ]; then pass=$((pass+1)); else echo "FAIL: $name: exit $rc, want $want: $(head -c 300 "$tmp/err")"; fail=$((fail+1)); fi
}
has() { # name pattern file
  if grep -q -- "$2" "$3"; then pass=$((pass+1)); else echo "FAIL: $1: no '$2' in: $(head -c 600 "$3")"; fail=$((fail+1)); fi
}
footer="--footer-key 0123456789012345"
cols="--column-key double_field:1234567890123450 --column-key float_field:1234567890123451"
uniform=$data/uniform_encryption.parquet.encrypted
colkeys=$data/encrypt_columns_and_footer.parquet.encrypted

# every key: all checked, all shown
check "verify uniform with keys" 0 "$cli" verify $footer $cols "$uniform"
has "verify uniform ok" "ok (50 rows in 1 row group, 8 columns)" "$tmp/out"
check "pages uniform with keys" 0 "$cli" pages --lines $footer $cols "$uniform"
has "pages shows double_field" "col=double_field page=1 type=DATA_PAGE" "$tmp/out"
[ "$(grep -c 'type=DATA_PAGE' "$tmp/out")" = 8 ] && pass=$((pass+1)) || { echo "FAIL: pages uniform: $(grep -c 'type=DATA_PAGE' "$tmp/out") data pages, want 8"; fail=$((fail+1)); }
check "verify bloom filter file with keys" 0 "$cli" verify $footer $cols "$data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted"

# footer key only: two columns not checked / not shown
check "verify without column keys" 1 "$cli" verify $footer "$colkeys"
has "verify names double_field" "row group 0, column double_field: not checked: no key for column double_field" "$tmp/out"
has "verify names float_field" "not checked: no key for column float_field" "$tmp/out"
has "verify says why it fails" "2 things were not checked for lack of a key" "$tmp/err"
check "verify --allow-unchecked" 0 "$cli" verify --allow-unchecked $footer "$colkeys"
has "verify --allow-unchecked still lists" "not checked: no key for column double_field" "$tmp/out"
check "pages without column keys" 0 "$cli" pages --lines $footer "$colkeys"
has "pages names double_field" "rg=0 col=double_field not shown: no key for column double_field" "$tmp/out"
has "pages shows int32_field" "col=int32_field page=1 type=DATA_PAGE" "$tmp/out"

# plaintext footer, no key at all: the signature and two columns unchecked
check "verify plaintext footer without keys" 1 "$cli" verify "$data/encrypt_columns_plaintext_footer.parquet.encrypted"
has "verify names the signature" "not checked: the plaintext footer's signature (no footer key)" "$tmp/out"

# a flipped byte inside double_field's first page header module
cp "$uniform" "$tmp/flipped"
printf '\x55' | dd of="$tmp/flipped" bs=1 seek=2960 conv=notrunc 2>/dev/null
check "verify flipped byte" 1 "$cli" verify $footer $cols "$tmp/flipped"
has "verify names the damaged module" "column double_field: page 1: page header at offset 2952: data page header: AES-GCM authentication failed" "$tmp/out"

echo "verify_encrypted: $pass passed, $fail failed"
[ $fail -eq 0 ]
