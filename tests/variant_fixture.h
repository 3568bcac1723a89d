/*
 * tests/variant_fixture.h: the set-up the VARIANT writer tests share
 * (tests/unit/test_variant_write.c, test_variant_list.c,
 * tests/conformance/test_variant_shredded_write.c): release callbacks of
 * caller-built Arrow structs, the field metadata marking a parquet.variant
 * field, the generator their random values come from, and the run of a
 * tests/interop DuckDB script (skipped, 77, without DuckDB).
 */
#ifndef PQT_TESTS_VARIANT_FIXTURE_H
#define PQT_TESTS_VARIANT_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "parquetry_arrow.h"

/* Arrow structs built on the stack or in static storage: nothing to free. */
static inline void pqt_vt_noop_schema_release(struct ArrowSchema *s) { s->release = NULL; }
static inline void pqt_vt_noop_array_release(struct ArrowArray *a) { a->release = NULL; }

/* ArrowSchema.metadata of a field of the extension type parquet.variant. */
#define PQT_VT_EXT_MD    \
  "\x01\x00\x00\x00"     \
  "\x14\x00\x00\x00"     \
  "ARROW:extension:name" \
  "\x0f\x00\x00\x00"     \
  "parquet.variant"

/* A 64-bit LCG (Knuth's MMIX constants), the high 31 bits out: the same
 * values on every machine for a seed. */
typedef struct pqt_vt_rng {
  uint64_t s;
} pqt_vt_rng;
static inline uint32_t pqt_vt_rnd(pqt_vt_rng *r) {
  r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(r->s >> 33);
}

/* node tests/interop/SCRIPT DIR after scripts/install-duckdb.sh: 0 pass, 1
 * fail, 77 when npm or DuckDB (with VARIANT) is missing. DIR is removed
 * afterwards when remove_dir. */
static inline int pqt_vt_run_duckdb(const char *script, const char *dir, int remove_dir) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "bash '%s/scripts/install-duckdb.sh' >/dev/null 2>&1; rc=$?; "
           "if [ $rc -eq 3 ]; then echo 'SKIP: npm unavailable, DuckDB not compared' 1>&2; rc=77; "
           "elif [ $rc -ne 0 ]; then rc=1; else node '%s/tests/interop/%s' '%s' 1>&2; rc=$?; "
           "[ $rc -eq 3 ] && rc=77; fi; %s%s%s exit $rc",
           PQT_SOURCE_DIR, PQT_SOURCE_DIR, script, dir, remove_dir ? "rm -rf '" : "", remove_dir ? dir : "",
           remove_dir ? "';" : "");
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 127;
}

#endif
