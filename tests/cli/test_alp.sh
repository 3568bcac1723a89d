#!/usr/bin/env bash
# ALP (encoding 10, a preview in parquet-format) from the CLI: `convert` and
# `rewrite` with --encoding COL=ALP write ALP pages for a DOUBLE column (v1
# and v2 pages, nulls, zstd) that read back the same as a default file; ALP
# is refused for an INT64 column (a usage error); default options never
# write ALP.
# Usage: CLI CORPUS_DIR (the corpus is not needed)
set -u
cli=$1
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
{
  echo "t,x"
  w=2000
  for i in $(seq 0 2999); do
    w=$((w + (i * 7919 % 201) - 100))
    if [ $((i % 7)) -eq 3 ]; then echo "$i,"; else printf '%d,%d.%02d\n' "$i" $((w / 100)) $((w % 100)); fi
  done
  echo "3000,-0.0"
  echo "3001,1e300"
} >"$tmp/d.csv"
# the schema is given: inference keeps a column holding 1e300 as text
schema='message m { required int64 t; optional double x; }'
"$cli" convert --schema "$schema" "$tmp/d.csv" "$tmp/plain.parquet" 2>"$tmp/err" || bad "convert default: $(cat "$tmp/err")"
"$cli" cat "$tmp/plain.parquet" >"$tmp/plain.jsonl" || bad "cat default"
if "$cli" pages --lines "$tmp/plain.parquet" | grep -q "enc=ALP"; then bad "default options wrote ALP"; else ok; fi
"$cli" convert --schema "$schema" --encoding x=ALP "$tmp/d.csv" "$tmp/alp.parquet" 2>"$tmp/err" && ok || bad "convert ALP: $(cat "$tmp/err")"
"$cli" rewrite --encoding x=ALP --page-version 2 --codec zstd "$tmp/plain.parquet" "$tmp/alp2.parquet" 2>"$tmp/err" && ok ||
  bad "rewrite ALP v2: $(cat "$tmp/err")"
for f in alp alp2; do
  if "$cli" pages --lines "$tmp/$f.parquet" | grep "col=x" | grep -q "enc=ALP"; then ok; else bad "$f: no ALP page for x"; fi
  "$cli" verify "$tmp/$f.parquet" >/dev/null 2>&1 && ok || bad "$f: verify"
  "$cli" cat "$tmp/$f.parquet" >"$tmp/$f.jsonl" 2>"$tmp/err" || bad "$f: cat: $(cat "$tmp/err")"
  cmp -s "$tmp/$f.jsonl" "$tmp/plain.jsonl" && ok || bad "$f: rows differ from the default file"
done
"$cli" convert --schema "$schema" --encoding t=ALP "$tmp/d.csv" "$tmp/bad.parquet" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "encoding ALP does not apply to physical type INT64" "$tmp/err" && [ ! -e "$tmp/bad.parquet" ]; then ok; else bad "ALP on INT64 (a usage error): exit $rc, $(cat "$tmp/err")"; fi
echo "cli_alp: $pass passed, $fail failed"
[ $fail -eq 0 ]
