#!/usr/bin/env bash
# DuckDB's WHERE and `parquetry count --where` agree on a converted file and
# on corpus files (tests/interop/duckdb_where.mjs). Without the corpus or
# DuckDB's Node.js API (scripts/install-duckdb.sh: npm unavailable) it says
# so and exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_where "$1" "$2" data
