#!/usr/bin/env bash
# -j N / --threads N: `cat` prints the same rows at 1, 2 and 8 threads on
# corpus files, `rewrite` and `convert` write the same file byte for byte
# at 1, 2 and 8 threads; a bad count is a usage error (exit 2).
# Usage: CLI CORPUS_DIR
set -u
cli=$1
corpus=$2
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
if [ ! -d "$corpus/data" ]; then echo "corpus not found at $corpus: skipped"; exit 77; fi
files=0
for f in alltypes_plain.parquet alltypes_tiny_pages_plain.parquet nested_structs.rust.parquet \
         datapage_v2.snappy.parquet nested_lists.snappy.parquet byte_array_decimal.parquet; do
  p="$corpus/data/$f"
  [ -f "$p" ] || continue
  files=$((files+1))
  "$cli" cat -j 1 "$p" >"$tmp/1.jsonl" 2>"$tmp/e1"; r1=$?
  for j in 2 8; do
    "$cli" cat --threads $j "$p" >"$tmp/n.jsonl" 2>"$tmp/en"; rn=$?
    if [ $r1 = $rn ] && cmp -s "$tmp/1.jsonl" "$tmp/n.jsonl"; then ok; else bad "cat $f: -j $j differs from -j 1"; fi
  done
  [ $r1 = 0 ] || continue
  "$cli" rewrite --force -j 1 --codec zstd --page-rows 100 "$p" "$tmp/w1.parquet" 2>"$tmp/e" || { bad "rewrite -j 1 $f: $(cat "$tmp/e")"; continue; }
  for j in 2 8; do
    "$cli" rewrite --force -j $j --codec zstd --page-rows 100 "$p" "$tmp/wn.parquet" 2>"$tmp/e" || bad "rewrite -j $j $f: $(cat "$tmp/e")"
    if cmp -s "$tmp/w1.parquet" "$tmp/wn.parquet"; then ok; else bad "rewrite $f: -j $j writes other bytes than -j 1"; fi
  done
done
[ $files -ge 4 ] && ok || bad "only $files corpus files found"
{
  echo "a,b,c,d"
  for i in $(seq 1 3000); do echo "$i,x$((i % 17)),$((i * 7 % 1000)).5,$((i % 3 == 0))"; done
} >"$tmp/t.csv"
"$cli" convert -j 1 --row-group-size 1000 "$tmp/t.csv" "$tmp/c1.parquet" 2>"$tmp/e" || bad "convert -j 1: $(cat "$tmp/e")"
for j in 2 8; do
  "$cli" convert --force --threads $j --row-group-size 1000 "$tmp/t.csv" "$tmp/cn.parquet" 2>"$tmp/e" || bad "convert -j $j: $(cat "$tmp/e")"
  if cmp -s "$tmp/c1.parquet" "$tmp/cn.parquet"; then ok; else bad "convert: -j $j writes other bytes than -j 1"; fi
done
for v in -1 x 1025 ""; do
  "$cli" cat -j "$v" "$tmp/c1.parquet" >/dev/null 2>"$tmp/e"; rc=$?
  if [ $rc = 2 ] && grep -q "threads" "$tmp/e"; then ok; else bad "cat -j '$v': exit $rc, $(cat "$tmp/e")"; fi
  "$cli" convert -j "$v" "$tmp/t.csv" "$tmp/x.parquet" >/dev/null 2>"$tmp/e"; rc=$?
  if [ $rc = 2 ] && [ ! -e "$tmp/x.parquet" ]; then ok; else bad "convert -j '$v': exit $rc"; fi
done
echo "threads CLI: $pass passed, $fail failed"
[ $fail = 0 ]
