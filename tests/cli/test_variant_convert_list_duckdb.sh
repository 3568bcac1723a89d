#!/usr/bin/env bash
# DuckDB reads what `convert --variant 'items[]' --variant 'recs[].v'`
# writes (VARIANT as a list's element and inside a list's struct,
# unshredded and shredded) with equal values
# (tests/interop/duckdb_variant_convert_list.mjs). Without DuckDB's Node.js
# API (scripts/install-duckdb.sh: npm unavailable) it says so and exits 77
# (skipped). Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_variant_convert_list "$1"
