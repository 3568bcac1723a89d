#!/usr/bin/env bash
# DuckDB reads the files `parquetry concat` and `parquetry prune` write,
# with the inputs' values (tests/interop/duckdb_edit.mjs). Without the corpus
# or DuckDB's Node.js API (scripts/install-duckdb.sh: npm unavailable) it
# says so and exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_edit "$1" "$2" data
