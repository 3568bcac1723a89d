#!/usr/bin/env bash
# DuckDB and `parquetry cat`/`count` read the same rows and values from a
# Hive-partitioned dataset with a filter (tests/interop/duckdb_dataset.mjs).
# Without DuckDB's Node.js API (scripts/install-duckdb.sh: npm unavailable)
# it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR (not used)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_dataset "$1"
