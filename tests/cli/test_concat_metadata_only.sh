#!/usr/bin/env bash
# concat --metadata-only: a summary footer over data files (their column
# chunks named by ColumnChunk.file_path); cat and count through it print
# what the data files print; an input outside OUT's directory is refused;
# a data file gone after the summary was written is an error naming both.
# Usage: CLI CORPUS_DIR
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); corpus=$2
data="$corpus/data"
if [ ! -f "$data/alltypes_plain.parquet" ]; then echo "SKIP: corpus not found at $corpus"; exit 77; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-summ.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$tmp/ds/part"
cp "$data/alltypes_plain.parquet" "$tmp/ds/part/a.parquet"
cp "$data/alltypes_plain.parquet" "$tmp/ds/part/b.parquet"
"$cli" concat --metadata-only -o "$tmp/ds/_metadata" "$tmp/ds/part/a.parquet" "$tmp/ds/part/b.parquet" > "$tmp/out" 2>&1 \
  || fail "concat --metadata-only: $(cat "$tmp/out")"
[ -f "$tmp/ds/_metadata" ] || fail "no summary file"
size=$(stat -c %s "$tmp/ds/_metadata" 2>/dev/null || echo 0)
data_size=$(stat -c %s "$tmp/ds/part/a.parquet")
[ "$size" -lt "$data_size" ] || fail "the summary ($size bytes) is not smaller than one data file ($data_size): pages copied?"
{ "$cli" cat "$tmp/ds/part/a.parquet"; "$cli" cat "$tmp/ds/part/b.parquet"; } > "$tmp/want"
"$cli" cat "$tmp/ds/_metadata" > "$tmp/got" 2>&1 || fail "cat through the summary: $(head -3 "$tmp/got")"
cmp -s "$tmp/want" "$tmp/got" && echo "cat through the summary: same rows ($(wc -l < "$tmp/got"))" || fail "cat through the summary differs"
n=$("$cli" count "$tmp/ds/_metadata" 2>&1)
[ "$n" = 16 ] || fail "count through the summary: '$n', want 16"
# relative input paths from another working directory
(cd "$tmp/ds" && "$cli" concat --metadata-only -o _m2 part/a.parquet) > /dev/null 2>&1 || fail "relative paths"
"$cli" cat "$tmp/ds/_m2" | cmp -s - <("$cli" cat "$tmp/ds/part/a.parquet") || fail "relative summary differs"
# an input outside OUT's directory is refused, nothing written
out=$("$cli" concat --metadata-only -o "$tmp/ds/part/_x" "$tmp/ds/part/a.parquet" "$data/alltypes_plain.parquet" 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "does not lie under" || fail "outside input: rc $rc: $out"
[ -e "$tmp/ds/part/_x" ] && fail "a summary was written despite the refusal"
# a data file gone: the error names the summary and the data file
rm "$tmp/ds/part/b.parquet"
out=$("$cli" cat "$tmp/ds/_metadata" 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "_metadata" && echo "$out" | grep -q "part/b.parquet" || fail "missing data file: rc $rc: $out"
if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "concat --metadata-only: all checks passed"
