#!/usr/bin/env bash
# Struct columns whose fields differ between the files of a dataset: `parquetry
# cat DIR` and `cat -c s.a DIR` give DuckDB's read_parquet([...],
# union_by_name=true) values (tests/interop/duckdb_dataset_structs.mjs).
# Without DuckDB's Node.js API (scripts/install-duckdb.sh: npm unavailable)
# it says so and exits 77 (skipped). Usage: CLI CORPUS_DIR (not used)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_dataset_structs "$1"
