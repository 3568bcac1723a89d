#!/usr/bin/env bash
# The commands on the metadata API: dictionary, column-index, bloom-filter,
# stats. Concrete output on corpus files (values as `meta --json` and `cat`
# show them), --json parsed, human lines within 80 columns, usage errors
# (exit 2), data errors (exit 1, "parquetry: FILE: ..."), and a sweep over
# the corpus: every command on the first column of every file either
# succeeds with valid JSON or fails cleanly. Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=${PARQUET_TESTING_DIR:-$2}
if [ ! -d "$dir" ]; then
  echo "NOTE: parquet-testing corpus not found at $dir (set PARQUET_TESTING_DIR); these checks cannot run"
  exit 77
fi
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/checks.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/checks.sh"
tiny=$dir/data/alltypes_tiny_pages.parquet
bloom=$dir/data/data_index_bloom_encoding_stats.parquet


# ---- stats ----
run "stats id" 0 stats -c id "$tiny" && {
  has "stats id" "row group 0: 7300 values, nulls 0"
  has "stats id" "  min 0, max 7299"
  has "stats id" "  usable for pruning"
  has "stats id" "  page 0: min 122, max 142, nulls 0"
  width "stats id"
}
run "stats id --json" 0 stats --json -c id "$tiny" && json "stats id --json" \
  'd["column"] == "id" and d["row_groups"][0]["statistics"]["min"] == 0 and d["row_groups"][0]["statistics"]["max"] == 7299 and d["row_groups"][0]["statistics"]["usable_min"] is True and d["row_groups"][0]["statistics"]["null_count"] == 0 and len(d["row_groups"][0]["pages"]) == 325'
run "stats double_col --json" 0 stats --json -c double_col "$tiny" && json "stats double_col" \
  'd["row_groups"][0]["statistics"]["max"] == 90.89999999999999'
run "stats timestamp_col" 0 stats -c timestamp_col "$tiny" && has "stats timestamp_col" "not usable for pruning"
run "stats timestamp_col --json" 0 stats -c timestamp_col --json "$tiny" && json "stats timestamp_col --json" \
  'd["row_groups"][0]["statistics"]["min"] is None and d["row_groups"][0]["pages"] is None'

# ---- column-index ----
run "column-index string_col" 0 column-index -c string_col "$tiny" && {
  has "column-index string_col" "row group 0: 352 pages, boundary order ASCENDING"
  has "column-index string_col" '  page 0: offset 167138, 37 bytes, first row 0, nulls 0, min "0", max "9"'
  width "column-index string_col"
}
run "column-index --json" 0 column-index --json -c string_col "$tiny" && json "column-index --json" \
  'len(d["row_groups"][0]["pages"]) == 352 and d["row_groups"][0]["pages"][1]["first_row_index"] == 21 and d["row_groups"][0]["pages"][1]["offset"] == 167175 and d["row_groups"][0]["pages"][0]["min"] == "0" and d["row_groups"][0]["boundary_order"] == "ASCENDING"'
run "column-index timestamp_col --json" 0 column-index --json -c timestamp_col "$tiny" && json "column-index timestamp_col" \
  'd["row_groups"][0]["has_column_index"] is False and d["row_groups"][0]["has_offset_index"] is True and d["row_groups"][0]["pages"][0]["min"] is None'

# ---- dictionary ----
run "dictionary string_col" 0 dictionary -c string_col "$tiny" && { has "dictionary" "row group 0: 10 entries"; width "dictionary"; }
run "dictionary --json" 0 dictionary --json -c string_col "$tiny" && json "dictionary --json" \
  'sorted(d["row_groups"][0]["values"]) == [str(i) for i in range(10)]'
run "dictionary year --json" 0 dictionary --json -c year "$tiny" && json "dictionary year" \
  'sorted(d["row_groups"][0]["values"]) == [2009, 2010]'
run "dictionary id" 0 dictionary -c id "$tiny" && has "dictionary id" "row group 0: no dictionary page"
run "dictionary id --json" 0 dictionary -c id --json "$tiny" && json "dictionary id --json" 'd["row_groups"][0]["values"] is None'

# ---- bloom-filter ----
run "bloom-filter" 0 bloom-filter -c String "$bloom" Hello "are you" foo && {
  has "bloom-filter" "row group 0: Hello: might contain"
  has "bloom-filter" "row group 0: are you: might contain"
  has "bloom-filter" "row group 0: foo: definitely not"
}
run "bloom-filter --json" 0 bloom-filter --json -c String "$bloom" Hello foo && json "bloom-filter --json" \
  'd["row_groups"][0]["has_bloom_filter"] is True and d["row_groups"][0]["values"] == [{"value": "Hello", "might_contain": True}, {"value": "foo", "might_contain": False}]'
run "bloom-filter no filter" 0 bloom-filter -c id "$tiny" 1 && has "bloom-filter no filter" "row group 0: no Bloom filter"
# every value of the column might be contained
mapfile -t vals < <("$cli" cat "$bloom" | python3 -c 'import json,sys; [print(json.loads(l)["String"]) for l in sys.stdin]')
run "bloom-filter all values" 0 bloom-filter --json -c String "$bloom" "${vals[@]}" && json "bloom-filter all values" \
  'len(d["row_groups"][0]["values"]) == 14 and all(v["might_contain"] for v in d["row_groups"][0]["values"])'

# ---- long values: cut for people, whole in JSON; truncated statistics said so ----
python3 -c "
print('name,n')
for i in range(50): print('%s,%d' % ('x' * 70 + str(i).zfill(3), 10**15 + i))" >"$tmp/long.csv"
if "$cli" convert "$tmp/long.csv" "$tmp/long.parquet" --bloom name >/dev/null 2>&1; then
  long0=$(python3 -c "print('x' * 70 + '000')")
  run "long column-index" 0 column-index -c name "$tmp/long.parquet" && {
    width "long column-index"; has "long column-index" '    min "xxxxxxxxxxxxxxxxxxxx..., max "xxxxxxxxxxxxxxxxxxxx...'; }
  run "long stats" 0 stats -c name "$tmp/long.parquet" && { width "long stats"; has "long stats" "max truncated"; }
  run "long stats --json" 0 stats --json -c name "$tmp/long.parquet" && json "long stats --json" \
    "d['row_groups'][0]['statistics']['min'] == 'x' * 64 and d['row_groups'][0]['statistics']['min_exact'] is False and d['row_groups'][0]['statistics']['max_exact'] is False"
  run "long bloom" 0 bloom-filter -c name "$tmp/long.parquet" "$long0" nope && {
    width "long bloom"; has "long bloom" "...: might contain"; has "long bloom" "nope: definitely not"; }
else
  bad "convert of a CSV with long values failed"
fi

# ---- usage and data errors ----
run "missing -c" 2 stats "$tiny" && has_err "missing -c" "missing -c COL"
run "missing FILE" 2 column-index -c id && has_err "missing FILE" "missing FILE"
run "missing VALUE" 2 bloom-filter -c String "$bloom" && has_err "missing VALUE" "missing VALUE"
run "unknown column" 2 dictionary -c nope "$tiny" && has_err "unknown column" "no leaf column 'nope'"
run "bad value" 2 bloom-filter -c id "$tiny" abc && has_err "bad value" "'abc' is not an integer"
run "unknown option" 2 stats --frobnicate -c id "$tiny"
run "help" 0 stats --help && has "help" "--json"
run "help bloom" 0 help bloom-filter && has "help bloom" "definitely not"
run "missing file" 1 stats -c id "$tmp/none.parquet" && has_err "missing file" "parquetry: $tmp/none.parquet: "
run "encrypted column" 1 stats -c double_field "$dir/data/encrypt_columns_plaintext_footer.parquet.encrypted" &&
  has_err "encrypted column" "double_field"

# ---- encrypted columns with their keys (data/README.md of the corpus) ----
keys=(--footer-key 0123456789012345 --column-key double_field:1234567890123450 --column-key float_field:1234567890123451)
encb=$dir/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted
run "encrypted stats" 0 stats -c double_field "${keys[@]}" "$encb" && has "encrypted stats" "  min 0.5, max 1999.5"
run "encrypted bloom" 0 bloom-filter -c double_field "${keys[@]}" "$encb" 2.5 1000 && {
  has "encrypted bloom" "row group 0: 2.5: might contain"; has "encrypted bloom" "row group 0: 1000: definitely not"; }
run "encrypted column-index" 0 column-index -c double_field "${keys[@]}" "$encb" && has "encrypted column-index" "first row 942"
run "encrypted dictionary" 0 dictionary -c float_field "${keys[@]}" "$dir/data/encrypt_columns_and_footer.parquet.encrypted" &&
  has "encrypted dictionary" "row group 0: 50 entries"
run "encrypted, wrong key" 1 stats -c double_field --footer-key 0123456789012345 --column-key double_field:1234567890123459 "$encb" &&
  has_err "encrypted, wrong key" "double_field"

# ---- sweep: the first column of every file of data/ and bad_data/ (the C replay
# test_meta_api_replay runs the API itself over every column of every file) ----
sweep_ok=0; sweep_err=0
while IFS= read -r f; do
  cols=$("$cli" meta --json "$f" 2>/dev/null | python3 -c '
import json,sys
try:
    d = json.load(sys.stdin)
    cs = d["row_groups"][0]["columns"] if d.get("row_groups") else []
    for c in cs[:1]:
        md = c.get("meta_data")
        if md: print(".".join(md["path_in_schema"]))
except Exception: pass' 2>/dev/null)
  [ -z "$cols" ] && continue
  while IFS= read -r c; do
    for cmd in stats column-index dictionary bloom-filter; do
      extra=(); [ $cmd = bloom-filter ] && extra=(0)
      timeout 60 "$cli" $cmd --json -c "$c" "$f" "${extra[@]}" >"$tmp/out" 2>"$tmp/err"
      rc=$?
      if grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$tmp/err"; then
        bad "sweep $cmd -c $c $f: sanitizer output"
      elif [ $rc -eq 0 ]; then
        if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null; then sweep_ok=$((sweep_ok+1)); ok
        else bad "sweep $cmd -c $c $f: not JSON: $(head -c 200 "$tmp/out")"; fi
      elif [ $rc -eq 1 ] && grep -q "^parquetry: $f: ." "$tmp/err"; then sweep_err=$((sweep_err+1)); ok
      elif [ $rc -eq 2 ] && [ $cmd = bloom-filter ] && grep -q "^parquetry: bloom-filter: column $c: '0' " "$tmp/err"; then ok   # 0 does not fit the type
      else bad "sweep $cmd -c $c $f: exit $rc: $(head -c 300 "$tmp/err")"; fi
    done
  done <<<"$cols"
done < <(find "$dir/data" "$dir/bad_data" -type f \( -name '*.parquet' -o -name '*.parquet.encrypted' \) | sort)
echo "sweep: $sweep_ok runs gave JSON, $sweep_err refused with a clear error"
echo "cli_inspect_commands: $pass passed, $fail failed"
[ $fail -eq 0 ]
