#!/usr/bin/env bash
# `meta`: by default labelled lines of at most 80 columns on every corpus
# file (key-value values cut, with their length); --parquet-tools keeps the
# legend users paste into bug reports; golden output for small files.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
data=${2:-}/data
here=$(cd "$(dirname "$0")/../.." && pwd)
golden=$here/tests/cli/golden
export LC_ALL=C.UTF-8 # grep counts characters, not bytes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
golden_check() { # name file [options]: meta's output but its first line (the path) against the golden file
  local name=$1 f=$2; shift 2
  "$cli" meta "$@" "$f" >"$tmp/out" 2>"$tmp/err" || { bad "meta $* $f: $(head -c 300 "$tmp/err")"; return; }
  tail -n +2 "$tmp/out" >"$tmp/body"
  if cmp -s "$tmp/body" "$golden/$name"; then ok; else bad "meta $* $f differs from $name:"; diff "$golden/$name" "$tmp/body" | head -20; fi
}

simple=$here/tests/fixtures/seed004_simple.parquet
golden_check meta_seed004_simple.txt "$simple"
golden_check meta_seed004_simple.parquet-tools.txt "$simple" --parquet-tools
"$cli" meta "$simple" | head -1 | grep -q "^file:        .*seed004_simple.parquet$" && ok || bad "file line"
# the parquet-tools legend line
"$cli" meta --parquet-tools "$simple" |
  grep -qF '  text: BYTE_ARRAY UNCOMPRESSED DO:- FPO:4 SZ:73/73/1.00 VC:5 ENC:PLAIN ST:[min: "text1", max: "text5"]' && ok ||
  bad "parquet-tools line"
"$cli" meta --help | grep -q -- "--parquet-tools" && ok || bad "help lacks --parquet-tools"
"$cli" meta --width 10 "$simple" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--width 10 is not a usage error"
"$cli" meta --json --parquet-tools "$simple" >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "--json with --parquet-tools"
# a long path: the file line keeps its tail
long=$tmp/$(printf 'a%.0s' $(seq 1 90)).parquet
cp "$simple" "$long"
"$cli" meta "$long" >"$tmp/out" && [ "$(grep -c '.\{81\}' "$tmp/out")" -eq 0 ] && grep -q '^file:        \.\.\.a*\.parquet$' "$tmp/out" && ok ||
  bad "long path: $(head -1 "$tmp/out")"

if [ ! -f "$data/sort_columns.parquet" ]; then
  echo "corpus not found at $data (parquet-testing): corpus checks skipped"
  echo "meta: $pass passed, $fail failed"
  [ $fail -eq 0 ] && exit 77 || exit 1
fi
golden_check meta_sort_columns.txt "$data/sort_columns.parquet"
golden_check meta_binary.txt "$data/binary.parquet"
# every line of every corpus file fits 80 columns (and --width 0 shows there were longer ones)
files=0; wide=0
for f in "$data"/*.parquet "$data"/*.parquet.encrypted; do
  "$cli" meta "$f" >"$tmp/out" 2>/dev/null || continue
  files=$((files+1))
  n=$(grep -c '.\{81\}' "$tmp/out")
  [ "$n" -eq 0 ] && ok || bad "$(basename "$f"): $n lines over 80 columns: $(grep -m1 '.\{81\}' "$tmp/out")"
  "$cli" meta --width 0 "$f" 2>/dev/null | grep -q '.\{81\}' && wide=$((wide+1))
done
[ $files -gt 50 ] && ok || bad "only $files corpus files read"
[ $wide -gt 0 ] && ok || bad "no corpus file has a line over 80 columns unlimited: the check checks nothing"
# a key-value value cut, with its length
grep -qF '  ARROW:schema  "/////6gAAAAQAAAAAAAKAAwABgAFAAgACgAAAAABBAA..." (236 bytes)' "$golden/meta_sort_columns.txt" && ok ||
  bad "golden lacks the cut ARROW:schema"
echo "meta: $pass passed, $fail failed ($files corpus files, $wide with longer lines unlimited)"
[ $fail -eq 0 ]
