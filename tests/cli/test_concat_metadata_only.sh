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
# pages, verify and footer --scrub read the chunks from the data files
pages_of() { "$cli" pages "$@" | grep -v -e '^row group' -e '^(offset' -e '^stored, comp' -e '^dictionary page; crc' -e '^$'; }
pages_of "$tmp/ds/_metadata" > "$tmp/p.got" 2>&1 || fail "pages of the summary: $(head -3 "$tmp/p.got")"
{ pages_of "$tmp/ds/part/a.parquet"; pages_of "$tmp/ds/part/b.parquet"; } > "$tmp/p.want"
[ "$(grep -c PLAIN "$tmp/p.want")" -gt 10 ] || fail "pages of the data files printed too little"
cmp -s "$tmp/p.want" "$tmp/p.got" && echo "pages through the summary: as the data files'" || { fail "pages through the summary differ"; diff "$tmp/p.want" "$tmp/p.got" | head -5; }
# each line of the summary names the data file its page was read from (file=...)
"$cli" pages --lines "$tmp/ds/_metadata" > "$tmp/p.raw" 2>&1 || fail "pages --lines of the summary"
[ "$(grep -c ' file=part/[ab]\.parquet page=' "$tmp/p.raw")" -eq "$(wc -l < "$tmp/p.raw")" ] || fail "pages --lines of the summary: a line names no data file"
sed -e 's/^rg=[0-9]* //' -e 's/ file=part\/[ab]\.parquet / /' "$tmp/p.raw" > "$tmp/p.got"
{ "$cli" pages --lines "$tmp/ds/part/a.parquet"; "$cli" pages --lines "$tmp/ds/part/b.parquet"; } | sed 's/^rg=[0-9]* //' > "$tmp/p.want"
[ -s "$tmp/p.want" ] && cmp -s "$tmp/p.want" "$tmp/p.got" || fail "pages --lines through the summary differ"
out=$("$cli" verify "$tmp/ds/_metadata" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "ok (16 rows in 2 row groups" || fail "verify of the summary: rc $rc: $out"
"$cli" footer --scrub -o "$tmp/scrubbed.parquet" "$tmp/ds/_metadata" > "$tmp/out" 2>&1 || fail "footer --scrub of the summary: $(cat "$tmp/out")"
"$cli" footer --scrub -o "$tmp/scrubbed_a.parquet" "$tmp/ds/part/a.parquet" > /dev/null 2>&1 || fail "footer --scrub of a data file"
"$cli" footer --scrub -o "$tmp/scrubbed_b.parquet" "$tmp/ds/part/b.parquet" > /dev/null 2>&1 || fail "footer --scrub of b"
{ "$cli" cat "$tmp/scrubbed_a.parquet"; "$cli" cat "$tmp/scrubbed_b.parquet"; } > "$tmp/s.want"
"$cli" cat "$tmp/scrubbed.parquet" > "$tmp/s.got" 2>&1 || fail "cat of the scrubbed summary: $(head -3 "$tmp/s.got")"
[ "$(wc -l < "$tmp/s.want")" = 16 ] && cmp -s "$tmp/s.want" "$tmp/s.got" || fail "the scrubbed summary's rows differ from the scrubbed data files'"
"$cli" footer --json "$tmp/scrubbed.parquet" | grep -q file_path && fail "the scrubbed copy still names other files (file_path)"
"$cli" verify "$tmp/scrubbed.parquet" > /dev/null 2>&1 || fail "verify of the scrubbed summary"
# a short data file: verify and pages name the chunk and the data file
head -c 200 "$tmp/ds/part/a.parquet" > "$tmp/ds/part/short.parquet"
"$cli" concat --metadata-only -o "$tmp/ds/_m3" "$tmp/ds/part/a.parquet" > /dev/null 2>&1 || fail "concat of a"
cp "$tmp/ds/part/a.parquet" "$tmp/a.keep"; cp "$tmp/ds/part/short.parquet" "$tmp/ds/part/a.parquet"
for args in verify pages "footer --scrub -o $tmp/scrubbed3.parquet"; do
  # shellcheck disable=SC2086
  out=$("$cli" $args "$tmp/ds/_m3" 2>&1); rc=$?
  [ $rc -ne 0 ] && echo "$out" | grep -q "_m3" && echo "$out" | grep -q "part/a.parquet" || fail "$args with a short data file: rc $rc: $out"
done
[ -e "$tmp/scrubbed3.parquet" ] && fail "footer --scrub wrote a copy despite the short data file"
cp "$tmp/a.keep" "$tmp/ds/part/a.parquet"
# a data file gone: the error names the summary and the data file
rm "$tmp/ds/part/b.parquet"
out=$("$cli" cat "$tmp/ds/_metadata" 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "_metadata" && echo "$out" | grep -q "part/b.parquet" || fail "missing data file: rc $rc: $out"
for args in verify pages; do
  # shellcheck disable=SC2086
  out=$("$cli" $args "$tmp/ds/_metadata" 2>&1); rc=$?
  [ $rc -ne 0 ] && echo "$out" | grep -q "part/b.parquet" || fail "$args with a missing data file: rc $rc: $out"
done
if [ $fails -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "concat --metadata-only: all checks passed"
