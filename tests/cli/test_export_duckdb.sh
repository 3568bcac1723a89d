#!/usr/bin/env bash
# DuckDB reads what `parquetry export --format parquet|csv` writes and finds
# the rows its own query of the input selects (tests/interop/duckdb_export.mjs).
# Without the corpus or DuckDB's Node.js API (scripts/install-duckdb.sh: npm
# unavailable) it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_export "$1" "$2" data
