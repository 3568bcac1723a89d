#!/usr/bin/env bash
# Encryption interop with DuckDB (tests/interop/duckdb_encrypt.mjs): DuckDB
# reads files parquetry encrypted with a footer key, parquetry reads files
# DuckDB encrypted. Without DuckDB's Node.js API (scripts/install-duckdb.sh:
# npm unavailable) it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_encrypt "$1"
