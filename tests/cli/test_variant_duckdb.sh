#!/usr/bin/env bash
# parquetry reads the (shredded) VARIANT columns DuckDB 1.5 writes with the
# values DuckDB reads (tests/interop/duckdb_variant.mjs). Without DuckDB's
# Node.js API (scripts/install-duckdb.sh: npm unavailable) or a DuckDB
# without VARIANT it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_variant "$1"
