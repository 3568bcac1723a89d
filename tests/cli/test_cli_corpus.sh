#!/usr/bin/env bash
# CLI over the whole corpus: `meta --json`, `schema` and `pages` on every file
# succeed, or fail with a clear "parquetry: FILE: message" and exit 1.
# Never a crash (exit > 2), never sanitizer output. Usage: CLI CORPUS_DIR
set -u
cli=$1
dir=${PARQUET_TESTING_DIR:-$2}
if [ ! -d "$dir" ]; then
  echo "NOTE: parquet-testing corpus not found at $dir (set PARQUET_TESTING_DIR); corpus checks cannot run"
  echo "cli_corpus: 0 passed, 0 failed"
  exit 77
fi
pass=0; fail=0; ok_files=0; err_files=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
while IFS= read -r f; do
  for cmd in "meta --json" "schema" "pages"; do
    timeout 60 "$cli" $cmd "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ]; then
      [ "$cmd" = "meta --json" ] && ok_files=$((ok_files+1))
      if [ "$cmd" = "meta --json" ] && ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null; then
        echo "FAIL: $cmd $f: output is not valid JSON"; fail=$((fail+1)); continue
      fi
      pass=$((pass+1))
    elif [ $rc -eq 1 ] && grep -q "^parquetry: $f: ." "$tmp/err" && ! grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$tmp/err"; then
      [ "$cmd" = "meta --json" ] && err_files=$((err_files+1))
      pass=$((pass+1))
    else
      echo "FAIL: $cmd $f: exit $rc: $(head -c 400 "$tmp/err")"; fail=$((fail+1))
    fi
  done
done < <(find "$dir" -type f \( -name '*.parquet' -o -name '*.parquet.encrypted' -o -name '*.parq' \) | sort)
echo "meta --json: $ok_files files read, $err_files refused with a clear error"
echo "cli_corpus: $pass passed, $fail failed"
[ $fail -eq 0 ]
