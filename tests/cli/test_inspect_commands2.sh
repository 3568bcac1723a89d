#!/usr/bin/env bash
# The inspection commands of issue 18 and the flags every command shares:
# pages (table, --json, --lines), layout, size-stats, footer --json, schema
# --json/--arrow; golden files for human output (tests/cli/golden/), JSON
# parsed by python3; option forms (-n5, --x=y, --x y, --), "did you mean",
# `help CMD` == `CMD --help`, --json on every command whose default output
# is for people, lines within 80 columns when stdout is not a terminal, no
# colour when not a terminal. Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=${PARQUET_TESTING_DIR:-$2}
here=$(cd "$(dirname "$0")/../.." && pwd)
golden=$here/tests/cli/golden
simple=$here/tests/fixtures/seed004_simple.parquet
if [ ! -d "$dir" ]; then
  echo "NOTE: parquet-testing corpus not found at $dir (set PARQUET_TESTING_DIR); these checks cannot run"
  exit 77
fi
command -v python3 >/dev/null || { echo "NOTE: python3 not found: the JSON checks cannot run"; exit 77; }
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/checks.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/checks.sh"
tiny=$dir/data/alltypes_tiny_pages.parquet
plain=$dir/data/alltypes_plain.parquet
bloom=$dir/data/data_index_bloom_encoding_stats.parquet
v2=$dir/data/datapage_v2.snappy.parquet
crc=$dir/data/datapage_v1-corrupt-checksum.parquet
nested=$dir/data/nested_lists.snappy.parquet

no_escape() { if grep -q $'\033' "$tmp/out"; then bad "$1: colour codes when stdout is not a terminal"; else ok; fi; }
golden_check() { # GOLDEN_NAME: $tmp/out against the golden file
  if cmp -s "$tmp/out" "$golden/$1"; then ok; else bad "output differs from $1:"; diff "$golden/$1" "$tmp/out" | head -20; fi
}

# ---- pages ----
run "pages v2" 0 pages "$v2" && { golden_check pages_datapage_v2.txt; width "pages v2"; no_escape "pages v2"; }
run "pages tiny -c id" 0 pages -c id "$tiny" && {
  has "pages tiny" "row group 0, column id"
  has "pages tiny" "  325 pages, UNCOMPRESSED, 36.5 KiB (raw 36.5 KiB)"
  has "pages tiny" "   9  v1    PLAIN      1,033      19    90   90      21  none"
  width "pages tiny"
}
run "pages --json" 0 pages --json "$v2" && json "pages --json" \
  'd["pages"][0]["type"] == "DICTIONARY_PAGE" and d["pages"][1]["type"] == "DATA_PAGE_V2" and d["pages"][1]["encoding"] == "RLE_DICTIONARY" and d["pages"][1]["num_nulls"] == 1 and d["pages"][1]["offset"] == 26 and d["pages"][1]["header_size"] == 35 and d["pages"][0]["num_rows"] is None and all(p["crc"] is None for p in d["pages"])'
run "pages crc mismatch" 0 pages --json "$crc" && json "pages crc" \
  'sum(1 for p in d["pages"] if p["crc"] == "mismatch") == 2 and sum(1 for p in d["pages"] if p["crc"] == "ok") == 2'
run "pages crc human" 0 pages "$crc" && has "pages crc human" "MISMATCH"
run "pages --lines" 0 pages --lines "$simple" && has "pages --lines" "rg=0 col=text page=0 type=DATA_PAGE_V2 enc=PLAIN"
run "pages -c group" 0 pages --json -c a "$nested" && json "pages -c group" \
  'len(d["pages"]) > 0 and all(p["column"].startswith("a.") for p in d["pages"])'
run "pages -c nope" 2 pages -c nope "$v2" && has_err "pages -c nope" "no column 'nope'"
run "pages --json --lines" 2 pages --json --lines "$v2"

# ---- layout ----
run "layout bloom" 0 layout "$bloom" && { golden_check layout_bloom.txt; width "layout bloom"; }
run "layout --json" 0 layout --json "$tiny" && json "layout --json" \
  'd["gaps"] == 0 and d["overlaps"] == 0 and d["regions"][0]["kind"] == "magic" and d["regions"][-1]["kind"] == "footer_length" and d["regions"][-2]["kind"] == "footer" and sum(r["length"] for r in d["regions"]) == d["file_size"] and all(d["regions"][i]["offset"] + d["regions"][i]["length"] == d["regions"][i+1]["offset"] for i in range(len(d["regions"])-1)) and sum(1 for r in d["regions"] if r["kind"] == "column_index") == 12 and sum(1 for r in d["regions"] if r["kind"] == "offset_index") == 13'
# the pages layout lists are the pages `pages --json` lists
"$cli" pages --json "$tiny" > "$tmp/pages.json" 2>/dev/null
run "layout vs pages" 0 layout --json "$tiny" && json "layout vs pages" \
  '[(r["offset"], r["header_size"], r["compressed_size"]) for r in d["regions"] if r["kind"] == "page"] == sorted((p["offset"], p["header_size"], p["compressed_size"]) for p in json.load(open("'"$tmp/pages.json"'"))["pages"])'
# Impala wrote each ColumnMetaData after its chunk: gaps nothing in the footer points at
run "layout gaps" 0 layout --json "$plain" && json "layout gaps" \
  'd["gaps"] == 11 and sum(r["length"] for r in d["regions"]) == d["file_size"] and d["regions"][3]["kind"] == "gap" and d["regions"][3]["offset"] == 77'
run "layout gaps human" 0 layout "$plain" && { has "layout gaps human" "11 gaps, "; width "layout gaps human"; }
run "layout bloom json" 0 layout --json "$bloom" && json "layout bloom json" \
  '[r["kind"] for r in d["regions"]] == ["magic", "page", "column_index", "offset_index", "bloom_filter", "footer", "footer_length"] and d["regions"][1]["codec"] == "GZIP" and d["regions"][1]["encoding"] == "PLAIN"'

# ---- size-stats ----
run "size-stats none" 0 size-stats -c id "$tiny" && has "size-stats none" "size statistics: none"
written=$tmp/ss.parquet
printf 'name,n\nalpha,1\n,2\ngamma,3\n' > "$tmp/ss.csv"
"$cli" convert "$tmp/ss.csv" "$written" >/dev/null 2>&1 || bad "convert for size-stats"
run "size-stats written" 0 size-stats "$written" && { golden_check size_stats_written.txt; width "size-stats"; }
run "size-stats --json" 0 size-stats --json -c name "$written" && json "size-stats --json" \
  'len(d["row_groups"][0]["columns"]) == 1 and d["row_groups"][0]["columns"][0]["size_statistics"]["unencoded_byte_array_data_bytes"] == 10 and d["row_groups"][0]["columns"][0]["size_statistics"]["definition_level_histogram"] == [1, 2] and d["row_groups"][0]["columns"][0]["size_statistics"]["repetition_level_histogram"] is None'
run "size-stats -c nope" 2 size-stats -c nope "$written"

# ---- footer --json ----
run "footer --json" 0 footer --json "$bloom" && json "footer --json" \
  'd["footer_length"] == 403 and d["footer_offset"] == 1232 and d["encrypted_footer"] is False and d["FileMetaData"]["num_rows"] == 14 and d["FileMetaData"]["row_groups"][0]["columns"][0]["meta_data"]["codec"] == "GZIP" and d["FileMetaData"]["row_groups"][0]["columns"][0]["meta_data"]["statistics"]["max_value"] == "dG9kYXk=" and d["FileMetaData"]["key_value_metadata"][1]["key"] == "writer.model.name"'
run "footer --json --compact" 0 footer --json --compact "$bloom" && { [ "$(wc -l < "$tmp/out")" = 1 ] && ok || bad "footer --compact: not one line"; }
run "footer" 0 footer "$bloom" && { has "footer" "footer:        403 bytes (403 B) at offset 1,232, plaintext (PAR1)"; width "footer"; }

# ---- schema --json / --arrow ----
run "schema --json" 0 schema --json "$nested" && json "schema --json" \
  'd["name"] == "spark_schema" and d["children"][0]["name"] == "a" and d["children"][0]["logical_type"] == "LIST" and d["children"][0]["children"][0]["repetition"] == "REPEATED"'
run "schema --arrow" 0 schema --arrow "$plain" && { golden_check schema_arrow_alltypes_plain.txt; width "schema --arrow"; }
run "schema --arrow --json" 0 schema --arrow --json "$nested" && json "schema --arrow --json" \
  'd["format"] == "+s" and d["children"][0]["name"] == "a" and d["children"][0]["type"] == "list" and d["children"][1]["type"] == "int32"'

# ---- option forms, shared by every command ----
run "-n5" 0 head -n2 -c id "$plain" && { [ "$(wc -l < "$tmp/out")" = 2 ] && ok || bad "-n2: $(cat "$tmp/out")"; }
run "--limit=1 --columns=id" 0 cat --limit=1 --columns=id "$plain" && { [ "$(cat "$tmp/out")" = '{"id":4}' ] && ok || bad "--x=y: $(cat "$tmp/out")"; }
run "--limit 1 --columns id" 0 cat --limit 1 --columns id "$plain" && { [ "$(cat "$tmp/out")" = '{"id":4}' ] && ok || bad "--x y: $(cat "$tmp/out")"; }
cp "$plain" "$tmp/-odd.parquet"
run "-- ends options" 0 count -- "$tmp/-odd.parquet" && { [ "$(cat "$tmp/out")" = 8 ] && ok || bad "--: $(cat "$tmp/out")"; }
run "-- then an option" 2 count -- "$plain" --json
printf 'a\n1\n2\n' > "$tmp/two.csv"
(cd "$tmp" && "$cli" convert -- two.csv -dash.parquet) >/dev/null 2>&1 && ok || bad "convert -- with an output named -dash.parquet"
run "count -- -dash" 0 count -- "$tmp/-dash.parquet" && { [ "$(cat "$tmp/out")" = 2 ] && ok || bad "convert --: $(cat "$tmp/out")"; }
run "rewrite --" 0 rewrite -- "$plain" "$tmp/-rw.parquet"
run "stats --column=" 0 stats --column=id --json "$tiny"
run "meta --width=" 0 meta --width=100 "$plain"
run "rewrite --codec=" 0 rewrite --codec=zstd "$plain" "$tmp/rw.parquet" && { "$cli" meta --json "$tmp/rw.parquet" | grep -q '"codec": "ZSTD"' && ok || bad "rewrite --codec=zstd not taken"; }
run "reading option --x=y" 2 cat --footer-key=short "$plain" && has_err "reading option --x=y" "bad --footer-key"
run "flag with value" 2 meta --json=1 "$plain" && has_err "flag with value" "takes no value"
run "did you mean command" 2 metta "$plain" && has_err "did you mean command" "did you mean 'meta'?"
run "did you mean command 2" 2 dictonary "$plain" && has_err "did you mean command 2" "did you mean 'dictionary'?"
run "no suggestion" 2 frobnicate "$plain" && { grep -q "did you mean" "$tmp/err" && bad "suggested for frobnicate" || ok; }
run "did you mean option" 2 cat --colums=id "$plain" && has_err "did you mean option" "did you mean '--columns'?"
run "missing value" 2 cat "$plain" -c && has_err "missing value" "needs a value"
for c in schema meta cat head count pages verify dictionary column-index bloom-filter stats convert rewrite salvage \
         footer layout size-stats version help; do
  "$cli" help "$c" > "$tmp/a" 2>&1; ra=$?
  "$cli" "$c" --help > "$tmp/b" 2>&1; rb=$?
  if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "help $c differs from $c --help (exit $ra/$rb)"; fi
done
run "help unknown" 2 help metta && has_err "help unknown" "did you mean 'meta'?"

# ---- --json on every command whose default output is for people ----
run "count --json" 0 count --json "$plain" && json "count --json" 'd == {"rows": 8}'
run "version --json" 0 version --json && json "version --json" 'isinstance(d["version"], str) and d["version"]'
run "verify --json" 0 verify --json "$plain" && json "verify --json" \
  'd["ok"] is True and d["rows"] == 8 and d["problems"] == 0 and d["lines"] == []'
run "verify --json problems" 1 verify --json "$crc" && json "verify --json problems" \
  'd["ok"] is False and d["problems"] == 2 and sum("CRC32 mismatch" in l for l in d["lines"]) == 2'
run "cat --json" 0 cat --json -n 1 -c id "$plain" && json "cat --json" 'd == {"id": 4}'
run "meta --json" 0 meta --json "$plain" && json "meta --json" 'd["num_rows"] == 8'
run "schema" 0 schema --json "$plain" && json "schema json plain" 'len(d["children"]) == 11'

# ---- footer --scrub ----
# shape of `meta --json`: every key and every list length, values left out
cat > "$tmp/shape.py" <<'PY'
import json, subprocess, sys
def shape(x):
    if isinstance(x, dict): return {k: shape(v) for k, v in x.items()}
    if isinstance(x, list): return [shape(v) for v in x]
    return None
cli, a, b = sys.argv[1:4]
ja = json.loads(subprocess.run([cli, "meta", "--json", a], capture_output=True, check=True).stdout)
jb = json.loads(subprocess.run([cli, "meta", "--json", b], capture_output=True, check=True).stdout)
sys.exit(0 if shape(ja) == shape(jb) and ja["num_rows"] == jb["num_rows"] else 1)
PY
{
  echo 'customer_secret_name,account_balance,favourite_city_name,note_text'
  for i in $(seq 1 400); do echo "Henrietta Confidential $((i % 37)),$i,Reykjavik-Private-$((i % 5)),memo number $i of the hidden ledger"; done
} > "$tmp/secret.csv"
scrub_case() { # NAME CONVERT_OPTIONS...: convert, scrub, check
  local name=$1; shift
  "$cli" convert "$@" "$tmp/secret.csv" "$tmp/$name.parquet" >/dev/null 2>"$tmp/err" || { bad "convert $name: $(head -c 200 "$tmp/err")"; return; }
  run "scrub $name" 0 footer --scrub -o "$tmp/$name.scrubbed" "$tmp/$name.parquet" || return
  local leaked=""
  for w in customer_secret_name account_balance favourite_city_name note_text Henrietta Confidential Reykjavik Private \
           "hidden ledger" "memo number"; do
    grep -qaF -- "$w" "$tmp/$name.scrubbed" && leaked="$leaked '$w'"
  done
  grep -qaF -- "Henrietta" "$tmp/$name.parquet" || [ "$name" != plain ] || bad "scrub $name: the original has no plain 'Henrietta' (the check proves nothing)"
  [ -z "$leaked" ] && ok || bad "scrub $name: the copy still holds$leaked"
  run "scrub $name verify" 0 verify "$tmp/$name.scrubbed"
  python3 "$tmp/shape.py" "$cli" "$tmp/$name.parquet" "$tmp/$name.scrubbed" && ok || bad "scrub $name: meta --json structure differs"
  # numbers are kept, strings become x's of the same length
  run "scrub $name cat" 0 cat -n 1 --format csv "$tmp/$name.scrubbed" && {
    [ "$(tail -1 "$tmp/out")" = "xxxxxxxxxxxxxxxxxxxxxxxx,1,xxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" ] && ok ||
      bad "scrub $name values: $(cat "$tmp/out")"
  }
}
scrub_case plain --codec uncompressed --no-dictionary
scrub_case dict_snappy --bloom customer_secret_name --bloom note_text
scrub_case v2_zstd --codec zstd --page-version 2 --encoding note_text=DELTA_BYTE_ARRAY --encoding favourite_city_name=DELTA_LENGTH_BYTE_ARRAY
# the Bloom filter answers for the new values, not the old
run "scrub bloom new" 0 bloom-filter -c cccccccce "$tmp/dict_snappy.scrubbed" "$(printf 'x%.0s' $(seq 1 34))"
has "scrub bloom new" "might contain"
# corpus files: still valid, same structure
for f in alltypes_plain.parquet data_index_bloom_encoding_stats.parquet datapage_v2.snappy.parquet delta_byte_array.parquet \
         nested_lists.snappy.parquet binary.parquet byte_array_decimal.parquet alltypes_tiny_pages.parquet; do
  run "scrub $f" 0 footer --scrub -o "$tmp/c.parquet" "$dir/data/$f" || continue
  run "scrub $f verify" 0 verify "$tmp/c.parquet"
  python3 "$tmp/shape.py" "$cli" "$dir/data/$f" "$tmp/c.parquet" && ok || bad "scrub $f: meta --json structure differs"
done
run "scrub names" 0 schema "$tmp/c.parquet" && { grep -q "string_col\|date_string_col\|bool_col" "$tmp/out" && bad "scrub: names left" || ok; }
run "scrub without -o" 2 footer --scrub "$plain"
run "scrub and --json" 2 footer --scrub --json -o "$tmp/x.parquet" "$plain"
run "scrub encrypted" 1 footer --scrub -o "$tmp/e.parquet" "$dir/data/uniform_encryption.parquet.encrypted" --footer-key 0123456789012345
[ -e "$tmp/e.parquet" ] && bad "scrub encrypted: left an output" || ok
ls "$tmp"/*.tmp-* >/dev/null 2>&1 && bad "scrub: a temporary file left behind" || ok

# ---- colour and width ----
NO_COLOR=1 run "NO_COLOR" 0 pages "$v2" && no_escape "NO_COLOR"
run "meta width" 0 meta "$tiny" && width "meta width"
run "layout width" 0 layout "$tiny" && width "layout width"

# every corpus file: human output within 80 columns, or a clean error (exit 1, "parquetry: FILE: ...")
for f in "$dir"/data/*.parquet; do
  for c in pages layout size-stats; do
    "$cli" $c "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$tmp/err"; then bad "$c $f: sanitizer output"; continue; fi
    if [ $rc -eq 0 ]; then width "$c $(basename "$f")"
    elif [ $rc -eq 1 ] && grep -q "^parquetry: $f: ." "$tmp/err"; then ok
    else bad "$c $f: exit $rc: $(head -c 200 "$tmp/err")"; fi
  done
done

echo "inspect commands 2: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
