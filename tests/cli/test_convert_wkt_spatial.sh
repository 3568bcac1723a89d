#!/usr/bin/env bash
# convert's WKT input read by DuckDB 1.5 (tests/interop/duckdb_convert_wkt.mjs,
# mode spatial). Without DuckDB's Node.js API (scripts/install-duckdb.sh: npm
# unavailable) or when its spatial extension cannot be loaded (it is not
# installed and cannot be downloaded offline) it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
cli=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$here/scripts/install-duckdb.sh" >/dev/null 2>&1
rc=$?
if [ $rc -eq 3 ]; then echo "SKIP: npm unavailable, DuckDB not compared"; exit 77; fi
if [ $rc -ne 0 ]; then echo "FAIL: scripts/install-duckdb.sh failed ($rc)"; exit 1; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-wktduck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
node "$here/tests/interop/duckdb_convert_wkt.mjs" spatial "$cli" "$tmp"
rc=$?
[ $rc -eq 3 ] && exit 77
exit $rc
