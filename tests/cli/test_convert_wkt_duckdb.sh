#!/usr/bin/env bash
# convert's WKT input read by DuckDB 1.5 (tests/interop/duckdb_convert_wkt.mjs,
# mode core). Without DuckDB's Node.js API (scripts/install-duckdb.sh: npm
# unavailable) it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_mode=core duckdb_interop duckdb_convert_wkt "$1"
