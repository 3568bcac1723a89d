#!/usr/bin/env bash
# The demo: inspect the bundled sample file with the freshly built CLI.
set -euo pipefail
cli=${1:-build/release/parquetry}
here=$(cd "$(dirname "$0")/.." && pwd)
sample=$here/tests/fixtures/seed004_simple.parquet
echo "== parquetry schema $sample"
"$cli" schema "$sample"
echo
echo "== parquetry meta $sample"
"$cli" meta "$sample"
