#!/usr/bin/env bash
# Reading encrypted corpus files by key id (--key ID:KEY, the key retriever)
# and with key tools (--kms-key ID:BASE64, the in-memory KMS):
# aes256/ files by their key ids, external_key_material_java with its
# _KEY_MATERIAL_FOR_ file; clean errors (exit 1, no key in any message) for
# a wrong or missing master key and for a missing key material file (named).
# Usage: CLI CORPUS_DIR.
set -u
cli=$1
d=$2/data
[ -f "$d/external_key_material_java.parquet.encrypted" ] || {
  echo "corpus not found at $d"
  exit 77
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-ktr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# --key: the aes256 files' key ids kf, kc1..kc8
k32f=01234567890123456789012345678901
keys=(--key "kf:$k32f")
for c in 1 2 3 4 5 6 7 8; do keys+=(--key "kc$c:1234567890123456789012345678901$((c + 1))"); done
for f in uniform_encryption encrypt_columns_and_footer encrypt_columns_and_footer_ctr encrypt_columns_plaintext_footer; do
  n=$("$cli" cat "${keys[@]}" "$d/aes256/$f.parquet.encrypted" | wc -l) || fail "aes256/$f: cat --key"
  [ "$n" = 50 ] || fail "aes256/$f: $n rows"
done
n=$("$cli" cat "${keys[@]}" --aad-prefix tester "$d/aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted" | wc -l)
[ "$n" = 50 ] || fail "aes256 disable_aad_storage: $n rows"
# the 128-bit files by key id as hex
n=$("$cli" cat --key kf:hex:30313233343536373839303132333435 --key kc1:1234567890123450 --key kc2:1234567890123451 \
  "$d/encrypt_columns_and_footer.parquet.encrypted" | wc -l)
[ "$n" = 50 ] || fail "--key hex: $n rows"
# a key id without its key: exit 1, the id named
out=$("$cli" cat --key kf:1234567890123450 "$d/uniform_encryption.parquet.encrypted" 2>&1)
[ $? -eq 1 ] || fail "wrong --key should exit 1"
echo "$out" | grep -q 1234567890123450 && fail "key in message: $out"
out=$("$cli" cat --key "kf:short" "$d/uniform_encryption.parquet.encrypted" 2>&1)
[ $? -eq 2 ] || fail "bad --key should be a usage error"
echo "$out" | grep -q short && fail "bad --key echoed: $out"

# key tools: the in-memory KMS with the README's keys
b64() { printf %s "$1" | base64; }
kms=(--kms-key "kf:$(b64 0123456789012345)" --kms-key "kc1:$(b64 1234567890123450)" --kms-key "kc2:$(b64 1234567890123451)")
f=$d/external_key_material_java.parquet.encrypted
"$cli" cat "${kms[@]}" "$f" >"$tmp/ext.txt" || fail "external: cat --kms-key"
[ "$(wc -l <"$tmp/ext.txt")" = 100 ] || fail "external: $(wc -l <"$tmp/ext.txt") rows"
head -1 "$tmp/ext.txt" | grep -qx '{"integers":0,"strings":"a0"}' || fail "external: first row $(head -1 "$tmp/ext.txt")"
tail -1 "$tmp/ext.txt" | grep -qx '{"integers":99,"strings":"j99"}' || fail "external: last row"
out=$("$cli" verify "${kms[@]}" "$f" 2>&1) || fail "external: verify: $out"
echo "$out" | grep -q ": ok" || fail "external: verify said: $out"
# wrong master key: exit 1, the master key id named, no key
out=$("$cli" cat --kms-key "kf:$(b64 0123456789012346)" "${kms[@]:2}" "$f" 2>&1)
[ $? -eq 1 ] || fail "wrong master key should exit 1"
echo "$out" | grep -q 'master key "kf"' || fail "wrong master key: not named: $out"
echo "$out" | grep -q -e "$(b64 0123456789012346)" -e 0123456789012346 && fail "key in message: $out"
# a missing master key (kc1): footer and kc2's column read, kc1's column fails
out=$("$cli" cat "${kms[@]:0:2}" "${kms[@]:4:2}" "$f" 2>&1)
[ $? -eq 1 ] || fail "missing master key should exit 1"
echo "$out" | grep -q 'no master key "kc1"' || fail "missing master key: $out"
# the material file missing: named
cp "$f" "$tmp/x.parquet.encrypted"
out=$("$cli" cat "${kms[@]}" "$tmp/x.parquet.encrypted" 2>&1)
[ $? -eq 1 ] || fail "missing material file should exit 1"
echo "$out" | grep -q "_KEY_MATERIAL_FOR_x.parquet.encrypted.json" || fail "material file not named: $out"
# a damaged material file: a clean error
cp "$d/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json" "$tmp/_KEY_MATERIAL_FOR_x.parquet.encrypted.json"
"$cli" cat "${kms[@]}" "$tmp/x.parquet.encrypted" >/dev/null || fail "copied material: cat"
printf '{"footerKey":' >"$tmp/_KEY_MATERIAL_FOR_x.parquet.encrypted.json"
out=$("$cli" cat "${kms[@]}" "$tmp/x.parquet.encrypted" 2>&1)
[ $? -eq 1 ] || fail "damaged material should exit 1"
echo "$out" | grep -q "malformed JSON" || fail "damaged material: $out"
# bad --kms-key: usage errors that do not echo the key
out=$("$cli" cat --kms-key "kf:not*base64" "$f" 2>&1)
[ $? -eq 2 ] || fail "bad --kms-key should be a usage error"
echo "$out" | grep -q 'not\*base64' && fail "bad --kms-key echoed: $out"
"$cli" cat --help | grep -q -- "--kms-key ID:BASE64" || fail "--help: no --kms-key"
"$cli" cat --help | grep -q -- "--key ID:KEY" || fail "--help: no --key"

[ $fails -eq 0 ] && echo "all keytools read checks passed"
[ $fails -eq 0 ]
