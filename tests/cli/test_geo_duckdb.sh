#!/usr/bin/env bash
# GEOMETRY/GEOGRAPHY between DuckDB 1.5 and parquetry, both directions
# (tests/interop/duckdb_geo.mjs). Without the corpus or DuckDB's Node.js API
# (scripts/install-duckdb.sh: npm unavailable) it says so and exits 77.
# Usage: CLI CORPUS_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/lib/duckdb.sh"
duckdb_interop duckdb_geo "$1" "$2" data/geospatial
