#!/usr/bin/env bash
# Selective reads give a VARIANT column the same values as a plain read:
# `cat --rows`, `--offset` and `--where` (row ranges, page pruning and late
# materialisation, scan/ranged.c) print, for every shredded_variant corpus
# case, exactly the lines plain `cat` prints for the same rows (the
# reconstructed variant, not the raw metadata/value/typed_value group), and
# fail where plain `cat` fails. Skips (77) without the corpus.
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
dir="$corpus/shredded_variant"
if [ ! -f "$dir/cases.json" ]; then echo "SKIP: shredded_variant corpus not found at $dir"; exit 77; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; files=0; checks=0
same() { # label expected-file got-file
  checks=$((checks + 1))
  if ! cmp -s "$2" "$3"; then
    echo "FAIL $1:"; echo "  want: $(head -c 300 "$2")"; echo "  got:  $(head -c 300 "$3")"; fail=1
  fi
}
for f in "$dir"/case-*.parquet; do
  name=$(basename "$f" .parquet)
  n=$("$cli" count "$f" 2>/dev/null) || continue
  files=$((files + 1))
  "$cli" cat "$f" >"$tmp/all" 2>/dev/null
  rc_all=$?
  "$cli" cat --rows "0-$n" "$f" >"$tmp/got" 2>"$tmp/err"
  rc=$?
  if [ $rc_all -ne 0 ]; then
    # an invalid case: the ranged read fails too, naming the place
    checks=$((checks + 1))
    if [ $rc -eq 0 ]; then echo "FAIL $name: plain cat fails, cat --rows 0-$n exits 0"; fail=1; fi
    if ! grep -q "row group 0" "$tmp/err"; then echo "FAIL $name: error names no row group: $(cat "$tmp/err")"; fail=1; fi
    continue
  fi
  same "$name --rows 0-$n" "$tmp/all" "$tmp/got"
  # every row alone, and every offset (one-row files: --rows 0-1 above)
  i=0
  [ "$n" -eq 1 ] && i=1
  while [ $i -lt "$n" ]; do
    sed -n "$((i + 1))p" "$tmp/all" >"$tmp/want"
    "$cli" cat --rows "$i-$((i + 1))" "$f" >"$tmp/got" 2>&1
    same "$name --rows $i-$((i + 1))" "$tmp/want" "$tmp/got"
    tail -n +"$((i + 1))" "$tmp/all" >"$tmp/want"
    "$cli" cat --offset "$i" "$f" >"$tmp/got" 2>&1
    same "$name --offset $i" "$tmp/want" "$tmp/got"
    i=$((i + 1))
  done
  # a predicate on id: var is decoded late, only at the rows that pass
  [ "$n" -gt 1 ] && grep -o '^{"id":[0-9-]*' "$tmp/all" | cut -d: -f2 | sort -u | while read -r id; do
    grep "^{\"id\":$id," "$tmp/all" >"$tmp/want"
    "$cli" cat --where "id = $id" "$f" >"$tmp/got" 2>&1
    if ! cmp -s "$tmp/want" "$tmp/got"; then
      echo "FAIL $name --where id = $id:"; echo "  want: $(head -c 300 "$tmp/want")"; echo "  got:  $(head -c 300 "$tmp/got")"
      echo x >>"$tmp/where_fail"
    fi
    echo x >>"$tmp/where_checks"
  done
  "$cli" cat --where "id IS NOT NULL" -c var "$f" >"$tmp/got" 2>&1
  grep '^{"id":[0-9-]' "$tmp/all" | sed 's/^{"id":[0-9-]*,/{/' >"$tmp/want"
  same "$name --where 'id IS NOT NULL' -c var" "$tmp/want" "$tmp/got"
done
[ -f "$tmp/where_fail" ] && fail=1
wc=0; [ -f "$tmp/where_checks" ] && wc=$(wc -l <"$tmp/where_checks")
if [ $files -lt 100 ] || [ "$wc" -lt 8 ]; then echo "FAIL: only $files files, $wc --where checks"; fail=1; fi
[ $fail -eq 0 ] && echo "ok: variant ranged reads ($files files, $((checks + wc)) comparisons)"
exit $fail
