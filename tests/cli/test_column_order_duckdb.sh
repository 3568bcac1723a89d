#!/usr/bin/env bash
# DuckDB reads files written with --column-order total|type and --int96-stats
# (tests/interop/duckdb_column_order.mjs): the same rows and WHERE counts as
# from the corpus sources. Without the corpus or DuckDB's Node.js API
# (scripts/install-duckdb.sh: npm unavailable) it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_column_order "$1" "$2" data
