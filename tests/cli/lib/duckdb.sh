# tests/cli/lib/duckdb.sh: sourced by the tests/cli/*_duckdb.sh tests (a
# folder below tests/cli/, so CMake's tests/cli/*.sh glob does not run it as
# a test). Each of those tests runs one tests/interop/NAME.mjs against the
# parquetry binary through DuckDB's Node.js API.
#
#   duckdb_interop NAME CLI                 node NAME.mjs CLI TMPDIR
#   duckdb_interop NAME CLI CORPUS SUBDIR   node NAME.mjs CLI CORPUS TMPDIR,
#                                           skipped when CORPUS/SUBDIR is absent
#   duckdb_mode=M duckdb_interop NAME ...   node NAME.mjs M CLI ... (a script
#                                           whose first argument is a mode)
#
# Exits the test: 77 (skipped, saying why) without the corpus, when npm is
# unavailable (scripts/install-duckdb.sh exits 3) or when the script exits 3
# (what it needs is missing, e.g. a DuckDB without VARIANT); 1 when the
# install fails; otherwise the script's exit status. The temporary folder is
# removed on exit.
duckdb_interop() {
  local name=$1 cli=$2 root rc tmp
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  local corpus_args=()
  if [ $# -ge 4 ]; then
    if [ ! -d "$3/$4" ]; then echo "SKIP: corpus not found at $3"; exit 77; fi
    corpus_args=("$3")
  fi
  bash "$root/scripts/install-duckdb.sh" >/dev/null 2>&1
  rc=$?
  if [ $rc -eq 3 ]; then echo "SKIP: npm unavailable, DuckDB not compared"; exit 77; fi
  if [ $rc -ne 0 ]; then echo "FAIL: scripts/install-duckdb.sh failed ($rc)"; exit 1; fi
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/pqt-$name.XXXXXX")
  # shellcheck disable=SC2064 # the folder's name is fixed now
  trap "rm -rf '$tmp'" EXIT
  local mode_args=()
  [ -n "${duckdb_mode:-}" ] && mode_args=("$duckdb_mode")
  node "$root/tests/interop/$name.mjs" "${mode_args[@]}" "$cli" "${corpus_args[@]}" "$tmp"
  rc=$?
  [ $rc -eq 3 ] && exit 77
  exit $rc
}
