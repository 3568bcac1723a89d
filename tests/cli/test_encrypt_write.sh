#!/usr/bin/env bash
# convert and rewrite with --encrypt-*: files written encrypted read back
# with the keys (cat equal to the plaintext file's, verify ok), fail cleanly
# without them or with wrong ones (exit 1, the option to give named, no key
# in any message), and bad --encrypt-* arguments are usage errors (exit 2)
# that leave no output. Usage: CLI CORPUS_DIR (the corpus is not needed).
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-encw.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

fk=footer-key-0123456789abcdef01234 # 32 bytes
fk=${fk:0:32}
ck=hex:00112233445566778899aabbccddeeff
{
  echo "id,name,score,city"
  for i in $(seq 1 3000); do
    echo "$i,name-$((i % 40)),$((i * 3)).5,city-$((i % 7))"
  done
} >"$tmp/in.csv"
"$cli" convert --row-group-size 1000 "$tmp/in.csv" "$tmp/plain.parquet" || fail "plain convert"
"$cli" cat "$tmp/plain.parquet" >"$tmp/plain.txt" || fail "plain cat"

# every column with the footer key, encrypted footer
"$cli" convert --codec uncompressed --row-group-size 1000 --bloom name --encrypt-footer "$fk" "$tmp/in.csv" "$tmp/e1.parquet" ||
  fail "convert --encrypt-footer"
[ "$(head -c 4 "$tmp/e1.parquet")" = PARE ] || fail "e1: not PARE"
grep -q "name-13" "$tmp/e1.parquet" && fail "e1: plaintext values in the file"
"$cli" cat --footer-key "$fk" "$tmp/e1.parquet" >"$tmp/e1.txt" || fail "e1: cat with the key"
cmp -s "$tmp/plain.txt" "$tmp/e1.txt" || fail "e1: rows differ"
out=$("$cli" verify --footer-key "$fk" "$tmp/e1.parquet" 2>&1) || fail "e1: verify: $out"
echo "$out" | grep -q ": ok" || fail "e1: verify said: $out"
out=$("$cli" cat "$tmp/e1.parquet" 2>&1)
[ $? -eq 1 ] || fail "e1: cat without key should exit 1"
echo "$out" | grep -q -- "--footer-key" || fail "e1: no hint to --footer-key: $out"
out=$("$cli" cat --footer-key "${fk:0:31}X" "$tmp/e1.parquet" 2>&1)
[ $? -eq 1 ] || fail "e1: wrong key should exit 1"
echo "$out" | grep -q "$fk" && fail "e1: key in message"

# column keys, some columns plain, plaintext footer, CTR, AAD prefix not stored, key metadata
"$cli" convert --codec uncompressed --row-group-size 1000 --encrypt-footer "$fk" --encrypt-column "name:$ck" --encrypt-column score: \
  --encrypt-plaintext-footer --encrypt-algorithm AES_GCM_CTR_V1 --encrypt-aad-prefix "warehouse/t1" \
  --encrypt-no-store-aad-prefix --encrypt-key-metadata kf --encrypt-key-metadata name:kname \
  "$tmp/in.csv" "$tmp/e2.parquet" || fail "convert e2"
[ "$(head -c 4 "$tmp/e2.parquet")" = PAR1 ] || fail "e2: not PAR1"
grep -q "city-3" "$tmp/e2.parquet" || fail "e2: the plain column city is not in plaintext"
grep -q "name-13" "$tmp/e2.parquet" && fail "e2: plaintext of name in the file"
"$cli" cat --footer-key "$fk" --column-key "name:$ck" --aad-prefix "warehouse/t1" "$tmp/e2.parquet" >"$tmp/e2.txt" ||
  fail "e2: cat with keys"
cmp -s "$tmp/plain.txt" "$tmp/e2.txt" || fail "e2: rows differ"
"$cli" verify --footer-key "$fk" --column-key "name:$ck" --aad-prefix "warehouse/t1" "$tmp/e2.parquet" >/dev/null 2>&1 ||
  fail "e2: verify"
out=$("$cli" cat --footer-key "$fk" --aad-prefix "warehouse/t1" "$tmp/e2.parquet" 2>&1)
[ $? -eq 1 ] || fail "e2: missing column key should exit 1"
echo "$out" | grep -q "kname" || fail "e2: the key metadata is not named: $out"
echo "$out" | grep -q -- "--column-key name:KEY" || fail "e2: no hint: $out"
out=$("$cli" cat --footer-key "$fk" --column-key "name:$ck" "$tmp/e2.parquet" 2>&1)
[ $? -eq 1 ] || fail "e2: missing AAD prefix should exit 1"
echo "$out" | grep -q -- "--aad-prefix" || fail "e2: no hint to --aad-prefix: $out"
out=$("$cli" cat --footer-key "$fk" --column-key "name:$ck" --aad-prefix "warehouse/t2" "$tmp/e2.parquet" 2>&1)
[ $? -eq 1 ] || fail "e2: wrong AAD prefix should exit 1"

# rewrite: decrypt with the read keys, encrypt with others
"$cli" rewrite --footer-key "$fk" --column-key "name:$ck" --aad-prefix "warehouse/t1" \
  --encrypt-footer 0123456789abcdef0123456789abcdef --encrypt-column city:abcdefghijklmnop \
  "$tmp/e2.parquet" "$tmp/e3.parquet" || fail "rewrite e3"
"$cli" cat --footer-key 0123456789abcdef0123456789abcdef --column-key city:abcdefghijklmnop "$tmp/e3.parquet" \
  >"$tmp/e3.txt" || fail "e3: cat"
cmp -s "$tmp/plain.txt" "$tmp/e3.txt" || fail "e3: rows differ"

# usage errors: exit 2, no output, no key shown
for args in "--encrypt-footer short" "--encrypt-column name:$ck" "--encrypt-footer $fk --encrypt-no-store-aad-prefix" \
  "--encrypt-footer $fk --encrypt-algorithm AES_CTR" "--encrypt-footer $fk --encrypt-column name:tooshortkey" \
  "--encrypt-footer $fk --encrypt-column :$ck"; do
  # shellcheck disable=SC2086
  out=$("$cli" convert $args "$tmp/in.csv" "$tmp/bad.parquet" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': exit $rc, not 2: $out"
  [ -e "$tmp/bad.parquet" ] && fail "'$args': output left"
  echo "$out" | grep -q -e "$fk" -e "00112233445566778899" -e tooshortkey && fail "'$args': a key in: $out"
done
out=$("$cli" convert --encrypt-footer "$fk" --encrypt-column "nope:$ck" "$tmp/in.csv" "$tmp/bad.parquet" 2>&1)
[ $? -eq 1 ] || fail "unknown column: not exit 1"
echo "$out" | grep -q "no column 'nope'" || fail "unknown column: $out"
[ -e "$tmp/bad.parquet" ] && fail "unknown column: output left"
if [ $fails -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "ok"
