#!/usr/bin/env bash
# convert and rewrite with key tools (--encrypt-kms-footer, --encrypt-kms-column,
# --kms-key, --encrypt-kms-single-wrapping, --encrypt-external-key-material):
# files read back with the master keys (cat equal to the plaintext file's),
# key material in key_metadata or in _KEY_MATERIAL_FOR_<output>.json, in
# parquet-java's form; clean errors without / with wrong master keys or
# without the material file (exit 1, no key shown); bad combinations are
# usage errors (exit 2) that leave no output. Usage: CLI CORPUS_DIR.
set -u
cli=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-ktw.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
b64() { printf %s "$1" | base64; }
kms=(--kms-key "kf:$(b64 0123456789012345)" --kms-key "kc1:$(b64 1234567890123450)")
{
  echo "id,name,score"
  for i in $(seq 1 500); do echo "$i,name-$((i % 40)),$((i * 3)).5"; done
} >"$tmp/in.csv"
"$cli" convert "$tmp/in.csv" "$tmp/plain.parquet" || fail "plain convert"
"$cli" cat "$tmp/plain.parquet" >"$tmp/plain.txt" || fail "plain cat"

n=0
for ext in "" --encrypt-external-key-material; do
  for wrap in "" --encrypt-kms-single-wrapping; do
    for footer in "" --encrypt-plaintext-footer; do
      n=$((n + 1))
      out=$tmp/e$n.parquet
      # shellcheck disable=SC2086
      "$cli" convert --encrypt-kms-footer kf --encrypt-kms-column name:kc1 --encrypt-kms-column id:kf "${kms[@]}" \
        $ext $wrap $footer "$tmp/in.csv" "$out" || fail "e$n: convert $ext $wrap $footer"
      grep -q "name-13" "$out" && fail "e$n: plaintext values in the file"
      "$cli" cat "${kms[@]}" "$out" >"$tmp/e$n.txt" || fail "e$n: cat"
      cmp -s "$tmp/plain.txt" "$tmp/e$n.txt" || fail "e$n: rows differ"
      m=$tmp/_KEY_MATERIAL_FOR_e$n.parquet.json
      if [ -n "$ext" ]; then
        [ -f "$m" ] || fail "e$n: no material file"
        grep -q '"footerKey":"{\\"keyMaterialType\\":\\"PKMT1\\",\\"isFooterKey\\":true,\\"kmsInstanceID\\":\\"DEFAULT\\"' "$m" ||
          fail "e$n: material file: $(cat "$m")"
        grep -q '"columnKey0":' "$m" && grep -q '"columnKey1":' "$m" || fail "e$n: column keys missing in material"
        grep -q '"keyReference":"footerKey"' "$out" || fail "e$n: no key reference in the file"
        # without the material file: named
        mv "$m" "$tmp/saved.json"
        msg=$("$cli" cat "${kms[@]}" "$out" 2>&1)
        [ $? -eq 1 ] || fail "e$n: missing material should exit 1"
        echo "$msg" | grep -q "_KEY_MATERIAL_FOR_e$n.parquet.json" || fail "e$n: material file not named: $msg"
        mv "$tmp/saved.json" "$m"
      else
        [ -f "$m" ] && fail "e$n: a material file for internal material"
        grep -q '"internalStorage":true,"isFooterKey":true,"kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","masterKeyID":"kf"' "$out" ||
          fail "e$n: no internal footer material"
      fi
      if [ -n "$wrap" ]; then
        grep -q 'doubleWrapping[\\"]*:false' "$out" "$m" 2>/dev/null || fail "e$n: not single wrapping"
        grep -q 'wrappedKEK' "$out" "$m" 2>/dev/null && fail "e$n: a KEK with single wrapping"
      else
        grep -q 'doubleWrapping[\\"]*:true' "$out" "$m" 2>/dev/null || fail "e$n: not double wrapping"
      fi
      # wrong master key kc1: exit 1, named, not shown
      msg=$("$cli" cat --kms-key "kf:$(b64 0123456789012345)" --kms-key "kc1:$(b64 1234567890123459)" "$out" 2>&1)
      [ $? -eq 1 ] || fail "e$n: wrong master key should exit 1"
      echo "$msg" | grep -q '"kc1"' || fail "e$n: master key not named: $msg"
      echo "$msg" | grep -q -e 1234567890123459 -e "$(b64 1234567890123459)" && fail "e$n: key shown: $msg"
      # no master keys at all
      msg=$("$cli" cat "$out" 2>&1)
      [ $? -eq 1 ] || fail "e$n: no keys should exit 1"
    done
  done
done
[ $n = 8 ] || fail "ran $n variants"

# rewrite: from a key-tools file to another with 32-byte data keys, external material
"$cli" rewrite "${kms[@]}" --encrypt-kms-footer kc1 --encrypt-kms-key-bytes 32 --encrypt-external-key-material \
  "$tmp/e1.parquet" "$tmp/r.parquet" || fail "rewrite"
"$cli" cat "${kms[@]}" "$tmp/r.parquet" >"$tmp/r.txt" || fail "rewrite: cat"
cmp -s "$tmp/plain.txt" "$tmp/r.txt" || fail "rewrite: rows differ"
grep -q '"masterKeyID\\":\\"kc1\\"' "$tmp/_KEY_MATERIAL_FOR_r.parquet.json" || fail "rewrite: material"
# the corpus file's path: external material written by parquet-java reads with the same options
d=$2/data
if [ -f "$d/external_key_material_java.parquet.encrypted" ]; then
  "$cli" rewrite --kms-key "kf:$(b64 0123456789012345)" --kms-key "kc1:$(b64 1234567890123450)" \
    --kms-key "kc2:$(b64 1234567890123451)" --encrypt-kms-footer kf --encrypt-external-key-material \
    "$d/external_key_material_java.parquet.encrypted" "$tmp/java.parquet" || fail "rewrite the java file"
  [ "$("$cli" cat "${kms[@]}" "$tmp/java.parquet" | wc -l)" = 100 ] || fail "java rewrite: rows"
fi

# usage errors: exit 2, no output
for bad in "--encrypt-kms-column name:kc1" "--encrypt-kms-footer kf" "--encrypt-kms-footer kf --encrypt-footer 0123456789012345 ${kms[*]}" \
  "--encrypt-kms-footer kf --encrypt-kms-column name ${kms[*]}" "--encrypt-kms-footer kf --encrypt-kms-key-bytes 20 ${kms[*]}" \
  "--kms-key kf:zz"; do
  # shellcheck disable=SC2086
  msg=$("$cli" convert $bad "$tmp/in.csv" "$tmp/bad.parquet" 2>&1)
  [ $? -eq 2 ] || fail "'$bad' should be a usage error: $msg"
  [ -e "$tmp/bad.parquet" ] && fail "'$bad' left an output"
  echo "$msg" | grep -q -e 0123456789012345 -e "$(b64 0123456789012345)" && fail "'$bad': key shown: $msg"
done
# a master key the KMS does not have: exit 1 naming it, no output
msg=$("$cli" convert --encrypt-kms-footer nope "${kms[@]}" "$tmp/in.csv" "$tmp/bad.parquet" 2>&1)
[ $? -ne 0 ] || fail "unknown master key should fail"
echo "$msg" | grep -q '"nope"' || fail "unknown master key not named: $msg"
[ -e "$tmp/bad.parquet" ] && fail "unknown master key left an output"
# external material needs a file output
msg=$("$cli" convert --encrypt-kms-footer kf --encrypt-external-key-material "${kms[@]}" "$tmp/in.csv" - 2>&1 >/dev/null)
[ $? -eq 2 ] || fail "external material to stdout should be a usage error: $msg"
for o in --encrypt-kms-footer --encrypt-kms-column --encrypt-kms-single-wrapping --encrypt-external-key-material --kms-key; do
  "$cli" convert --help | grep -q -- "$o" || fail "convert --help: no $o"
  "$cli" rewrite --help | grep -q -- "$o" || fail "rewrite --help: no $o"
done

[ $fails -eq 0 ] && echo "all keytools write checks passed"
[ $fails -eq 0 ]
