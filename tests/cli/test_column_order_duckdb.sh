#!/usr/bin/env bash
# DuckDB reads files written with --column-order total|type and --int96-stats
# (tests/interop/duckdb_column_order.mjs): the same rows and WHERE counts as
# from the corpus sources. Without the corpus or DuckDB's Node.js API
# (scripts/install-duckdb.sh: npm unavailable) it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
cli=$1; corpus=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ ! -d "$corpus/data" ]; then echo "SKIP: corpus not found at $corpus"; exit 77; fi
bash "$here/scripts/install-duckdb.sh" >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ]; then echo "SKIP: npm unavailable, DuckDB not compared"; exit 77; fi
if [ $rc -ne 0 ]; then echo "FAIL: scripts/install-duckdb.sh failed ($rc)"; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-order-duck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
node "$here/tests/interop/duckdb_column_order.mjs" "$cli" "$corpus" "$tmp"
rc=$?
[ $rc -eq 3 ] && exit 77
exit $rc
