#!/usr/bin/env bash
# Install DuckDB's Node.js API (@duckdb/node-api) into tools/duckdb/node_modules.
# DuckDB is used only as an independent peer (expected values, benchmarks);
# parquetry itself never links it.
#
# Exit codes: 0 installed / already installed, 3 npm or the npm registry unavailable,
# other non-zero: unexpected failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$here/tools/duckdb"

check() {
  (cd "$dir" && node --input-type=module -e '
    import { DuckDBInstance } from "@duckdb/node-api";
    const i = await DuckDBInstance.create(":memory:");
    const c = await i.connect();
    const r = await c.runAndReadAll("SELECT 42 AS x, version() AS v");
    const [x, v] = r.getRows()[0];
    if (Number(x) !== 42) process.exit(1);
    console.log(`duckdb ${v} ok`);
  ' 2>/dev/null)
}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-duckdb: node/npm not found; install nodejs and npm (Debian: apt-get install nodejs npm)" >&2
  exit 3
fi

# Fast path: already installed and the installed version matches the lock.
want="$(node -e 'const l=require(process.argv[1]);console.log(l.packages["node_modules/@duckdb/node-api"].version)' "$dir/package-lock.json" 2>/dev/null || true)"
have="$(node -e 'console.log(require(process.argv[1]).version)' "$dir/node_modules/@duckdb/node-api/package.json" 2>/dev/null || true)"
if [ -n "$want" ] && [ "$want" = "$have" ] && check; then
  exit 0
fi

cd "$dir"
# npm ci when a lock exists. The lock written on a registry mirror that holds
# only the linux builds of @duckdb/node-bindings-* lacks the other platforms'
# optional packages, and npm ci then refuses it as "out of sync"; fall back to
# npm install, which still honours the exact pinned version.
ok=0
if [ -f package-lock.json ]; then
  echo "install-duckdb: npm ci in tools/duckdb" >&2
  if npm ci --no-audit --no-fund --loglevel=silent >/dev/null 2>&1; then ok=1; fi
fi
if [ "$ok" = 0 ]; then
  echo "install-duckdb: npm install in tools/duckdb" >&2
  if npm install --no-audit --no-fund --loglevel=error; then ok=1; fi
fi
if [ "$ok" = 0 ]; then
  echo "install-duckdb: npm failed (is the npm registry reachable?); DuckDB peer not available" >&2
  exit 3
fi
if ! check; then
  echo "install-duckdb: @duckdb/node-api installed but failed to run SELECT 42" >&2
  exit 1
fi
