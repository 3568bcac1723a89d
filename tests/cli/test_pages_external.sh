#!/usr/bin/env bash
# `pages --lines` of a footer whose column data lies in another file
# (ColumnChunk.file_path, written by `concat --metadata-only`): each line
# names the data file its page was read from (file=...), and the page lines
# are otherwise those of the data file itself; a missing data file is an
# error naming the row group and column.
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
src="$corpus/data/alltypes_plain.parquet"
if [ ! -f "$src" ]; then echo "skip: $src is absent"; exit 77; fi
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass+1)); }
bad() { echo "FAIL: $*"; fail=$((fail+1)); }
cp "$src" "$tmp/a.parquet"
(cd "$tmp" && "$cli" concat --metadata-only -o _metadata a.parquet >/dev/null 2>&1) || bad "concat --metadata-only failed"
(cd "$tmp" && "$cli" pages --lines _metadata >"$tmp/ext.txt" 2>"$tmp/ext.err") || bad "pages --lines _metadata: $(cat "$tmp/ext.err")"
(cd "$tmp" && "$cli" pages --lines a.parquet >"$tmp/own.txt" 2>&1) || bad "pages --lines a.parquet failed"
n=$(wc -l <"$tmp/own.txt")
[ "$n" -gt 0 ] && ok || bad "no page lines for a.parquet"
[ "$(grep -c ' file=a.parquet page=' "$tmp/ext.txt")" -eq "$n" ] && ok || bad "not every line names a.parquet: $(head -2 "$tmp/ext.txt")"
sed 's/ file=a.parquet//' "$tmp/ext.txt" | cmp -s - "$tmp/own.txt" && ok || bad "page lines differ from the data file's own"
grep -q ' file=' "$tmp/own.txt" && bad "a file's own pages name a file" || ok
rm "$tmp/a.parquet"
if (cd "$tmp" && "$cli" pages --lines _metadata >/dev/null 2>"$tmp/miss.err"); then bad "missing data file: exit 0"; else ok; fi
grep -q 'row group 0, column id' "$tmp/miss.err" && ok || bad "missing data file: error names no place: $(cat "$tmp/miss.err")"
echo "pages_external: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
