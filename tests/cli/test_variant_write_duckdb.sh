#!/usr/bin/env bash
# DuckDB reads what `convert --variant` writes, unshredded and shredded,
# with equal values (tests/interop/duckdb_variant_write.mjs). Without DuckDB's
# Node.js API (scripts/install-duckdb.sh: npm unavailable) it says so and
# exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
cli=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$here/scripts/install-duckdb.sh" >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ]; then echo "SKIP: npm unavailable, DuckDB not compared"; exit 77; fi
if [ $rc -ne 0 ]; then echo "FAIL: scripts/install-duckdb.sh failed ($rc)"; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-variant.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
node "$here/tests/interop/duckdb_variant_write.mjs" "$cli" "$tmp"
rc=$?
[ $rc -eq 3 ] && exit 77
exit $rc
