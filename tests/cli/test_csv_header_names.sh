#!/usr/bin/env bash
# CSV output quotes column names as it quotes values (RFC 4180): a name with a
# comma or a quote (a Parquet column `x,y`, a Hive partition directory whose
# key holds a quote) is one quoted header cell with its quotes doubled, for
# one file (text/text_output.c) and for a dataset (dataset/dataset_text.c);
# found by fuzz_dataset, whose CSV record count broke on such a header.
# Usage: CLI CORPUS_DIR (the corpus is not used).
set -u
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-csvhdr.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # what got want
  if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: got [$2], want [$3]"; fail=1; fi
}
printf '"x,y","q""r",z\n1,2,3\n' > "$tmp/in.csv"
"$cli" convert "$tmp/in.csv" "$tmp/one.parquet" || { echo "FAIL: convert"; exit 1; }
check "one file: header" "$("$cli" cat --format csv "$tmp/one.parquet" | head -1)" '"x,y","q""r",z'
check "one file: row" "$("$cli" cat --format csv "$tmp/one.parquet" | sed -n 2p)" '1,2,3'
mkdir -p "$tmp/ds/k=a,b/\"h=c\"d"
cp "$tmp/one.parquet" "$tmp/ds/k=a,b/\"h=c\"d/f.parquet"
check "dataset: header" "$("$cli" cat --format csv "$tmp/ds" | head -1)" '"x,y","q""r",z,k,"""h"'
check "dataset: row" "$("$cli" cat --format csv "$tmp/ds" | sed -n 2p)" '1,2,3,"a,b","c""d"'
check "dataset: jsonl" "$("$cli" cat "$tmp/ds")" '{"x,y":1,"q\"r":2,"z":3,"k":"a,b","\"h":"c\"d"}'
exit $fail
