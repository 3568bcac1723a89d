#!/usr/bin/env bash
# DuckDB and `parquetry cat`/`count` read the same rows and values from a
# Hive-partitioned dataset with a filter (tests/interop/duckdb_dataset.mjs).
# Without DuckDB's Node.js API (scripts/install-duckdb.sh: npm unavailable)
# it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR (not used)
set -u
cli=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$here/scripts/install-duckdb.sh" >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ]; then echo "SKIP: npm unavailable, DuckDB not compared"; exit 77; fi
if [ $rc -ne 0 ]; then echo "FAIL: scripts/install-duckdb.sh failed ($rc)"; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-dsduck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
node "$here/tests/interop/duckdb_dataset.mjs" "$cli" "$tmp"
rc=$?
[ $rc -eq 3 ] && exit 77
exit $rc
