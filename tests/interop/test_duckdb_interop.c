/* Interop with DuckDB (an independent reader): every corpus file DuckDB
 * reads exactly is rewritten by our writer under several configurations and
 * DuckDB must read back the same values (duckdb_interop.sh); DuckDB's
 * parquet_metadata() must show our statistics and parquet_bloom_probe()
 * find present values (duckdb_meta.mjs). Without npm (or without the
 * corpus, for the rewrites) each prints SKIP and the test exits 77 (ctest's
 * skip), never passing silently. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "harness.h"

static int run(const char *cmd) {
  fprintf(stderr, "  $ %s\n", cmd);
  fflush(stderr);
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}

/* A command's exit status as the test's outcome: 77 skips the case. */
static void check_run(const char *cmd) {
  int rc = run(cmd);
  if (rc == 77) {
    pqt_t_current_skipped = 1;
    return;
  }
  CHECK_EQ_INT(rc, 0);
}

static const char *corpus(void) {
  const char *d = getenv("PARQUET_TESTING_DIR");
  return d ? d : PQT_TESTING_DIR_DEFAULT;
}

static void test_duckdb_reads_rewrites(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "bash '%s/tests/interop/duckdb_interop.sh' '%s' '%s' 1>&2", PQT_SOURCE_DIR, PQT_CLI_PATH,
           corpus());
  check_run(cmd);
}

static void test_duckdb_sees_metadata(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "bash '%s/scripts/install-duckdb.sh' >/dev/null 2>&1; rc=$?; if [ $rc -eq 3 ]; then echo '  SKIP: npm "
           "unavailable' 1>&2; exit 77; fi; "
           "d=$(mktemp -d) && node '%s/tests/interop/duckdb_meta.mjs' '%s' \"$d\" 1>&2; rc=$?; rm -rf \"$d\"; "
           "[ $rc -eq 3 ] && exit 77; exit $rc",
           PQT_SOURCE_DIR, PQT_SOURCE_DIR, PQT_CLI_PATH);
  check_run(cmd);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_duckdb_sees_metadata), TEST_CASE(test_duckdb_reads_rewrites)};
  return pqt_run_tests("duckdb_interop", cases, sizeof cases / sizeof cases[0]);
}
