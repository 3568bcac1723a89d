#!/usr/bin/env bash
# The demo: convert a bundled CSV to Parquet (zstd), then inspect and read it
# back with the freshly built CLI; finally the byte-exact seed 004 sample.
set -euo pipefail
cli=${1:-build/release/parquetry}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
csv=$here/tests/fixtures/sample.csv
pq=$out/sample.parquet
run() { echo; echo "\$ parquetry $*"; "$cli" "$@"; }
run convert --codec zstd --bloom customer "$csv" "$pq"
run schema "$pq"
run meta "$pq"
run head -n 3 "$pq"
run rewrite --page-version 2 --codec lz4_raw "$pq" "$out/sample_v2.parquet"
run pages "$out/sample_v2.parquet"
run cat --format csv -n 5 "$out/sample_v2.parquet"
run verify "$out/sample_v2.parquet"
seed=$here/tests/fixtures/seed004_nested.parquet
run schema "$seed"
run cat "$seed"
