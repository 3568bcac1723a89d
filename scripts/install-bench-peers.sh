#!/usr/bin/env bash
# Install the benchmark peers next to DuckDB: ClickHouse's chDB (npm `chdb`)
# into tools/chdb/node_modules and Polars (npm `nodejs-polars`) into
# tools/polars/node_modules, then DuckDB (scripts/install-duckdb.sh). They are
# used only by bench/ (compare.sh, footer_compare.sh); parquetry never links
# them and no test needs them.
#
# Exit codes: 0 every peer installed (or already there); 3 npm or the registry
# unavailable for at least one peer (the others are still installed; compare.sh
# reports a missing peer as absent); other non-zero: unexpected failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-bench-peers: node/npm not found; install nodejs and npm (Debian: apt-get install nodejs npm)" >&2
  exit 3
fi

# check DIR JS: run JS (an ES module) in tools/DIR; 0 when it works.
check() {
  (cd "$here/tools/$1" && node --input-type=module -e "$2" 2>/dev/null)
}
chdb_check='import { query } from "chdb"; const v = query("SELECT 42 FORMAT CSV", "CSV").trim(); if (v !== "42") process.exit(1); console.log("chdb ok");'
polars_check='process.env.POLARS_MAX_THREADS = "1"; const pl = (await import("nodejs-polars")).default; const d = pl.DataFrame({x: [1, 2]}); if (d.height !== 2) process.exit(1); console.log("nodejs-polars ok");'

# install DIR CHECK [EXTRA...]: npm install in tools/DIR (the versions pinned
# in its package.json), then EXTRA with --no-save (a platform binding that npm
# skipped as an optional dependency).
install() {
  local dir="$1" chk="$2"
  shift 2
  if check "$dir" "$chk" >/dev/null; then return 0; fi
  echo "install-bench-peers: npm install in tools/$dir" >&2
  (cd "$here/tools/$dir" && npm install --no-audit --no-fund --loglevel=error >/dev/null) || return 3
  if [ $# -gt 0 ] && ! check "$dir" "$chk" >/dev/null; then
    (cd "$here/tools/$dir" && npm install --no-save --no-audit --no-fund --loglevel=error "$@" >/dev/null) || return 3
  fi
  check "$dir" "$chk" || { echo "install-bench-peers: tools/$dir installed but does not run" >&2; return 1; }
}

rc=0
install chdb "$chdb_check" || rc=$?
# npm installs nodejs-polars' prebuilt binding as an optional dependency and
# may skip it; name the one for this platform when it did.
plat="$(node -p 'process.platform + "-" + process.arch')"
libc=gnu
if [ "$(uname -s)" = Linux ] && ldd --version 2>&1 | grep -qi musl; then libc=musl; fi
case "$plat" in
  linux-*) binding="nodejs-polars-$plat-$libc" ;;
  win32-*) binding="nodejs-polars-$plat-msvc" ;;
  *) binding="nodejs-polars-$plat" ;;
esac
pver="$(node -p 'require(process.argv[1]).dependencies["nodejs-polars"]' "$here/tools/polars/package.json")"
install polars "$polars_check" "$binding@$pver" || { r=$?; [ $rc -ne 0 ] || rc=$r; }
"$here/scripts/install-duckdb.sh" || { r=$?; [ $rc -ne 0 ] || rc=$r; }
for d in chdb polars; do
  [ -d "$here/tools/$d/node_modules" ] || echo "install-bench-peers: $d absent" >&2
done
exit $rc
