#!/usr/bin/env bash
# DuckDB reads what `convert --variant s.v` writes (VARIANT inside a struct,
# unshredded and shredded) with equal values
# (tests/interop/duckdb_variant_convert_nested.mjs). Without DuckDB's Node.js
# API (scripts/install-duckdb.sh: npm unavailable) it says so and exits 77
# (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_variant_convert_nested "$1"
