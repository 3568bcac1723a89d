#!/usr/bin/env bash
# Record what `meta`, `meta --parquet-tools`, `meta --json`, `pages`,
# `pages --json`, `pages --lines`, `verify` and `verify --json` print (stdout,
# stderr and exit status) for every file of the corpus, one file per command
# and input under OUTDIR. Run it with the binary before a change and after it,
# then `diff -r BEFORE AFTER`: the printers must not change a byte.
# Usage: tools/inspect_outputs.sh PARQUETRY CORPUS_DATA_DIR OUTDIR
set -u
bin=$1; data=$2; out=$3
mkdir -p "$out"
# the geospatial subfolder's files too; the encrypted ones are run without keys
files=$(find "$data" -type f \( -name '*.parquet' -o -name '*.parquet.encrypted' \) | LC_ALL=C sort)
n=0
for f in $files; do
  rel=${f#"$data"/}; tag=${rel//\//__}
  i=0
  while IFS= read -r args; do
    i=$((i+1))
    # shellcheck disable=SC2086
    (cd "$data" && "$bin" $args "$rel" >"$out/$tag.$i.out" 2>"$out/$tag.$i.err"; echo "rc=$? args=$args" >"$out/$tag.$i.rc")
  done <<'ARGS'
meta
meta --parquet-tools
meta --width 0
meta --width 40
meta --json
pages
pages --json
pages --lines
verify
verify --json
ARGS
  case $rel in
    *.encrypted) # again with the keys of the corpus's README (files that store no AAD prefix fail as before)
      keys="--footer-key 0123456789012345 --column-key double_field:1234567890123450 --column-key float_field:1234567890123451"
      for args in "meta $keys" "meta --parquet-tools $keys" "meta --json $keys" "pages --lines $keys" "verify $keys"; do
        i=$((i+1))
        # shellcheck disable=SC2086
        (cd "$data" && "$bin" $args "$rel" >"$out/$tag.$i.out" 2>"$out/$tag.$i.err"; echo "rc=$? args=$args" >"$out/$tag.$i.rc")
      done ;;
  esac
  n=$((n+1))
done
echo "inspect_outputs: $n files recorded in $out"
