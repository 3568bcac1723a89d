/*
 * tests/unit/test_dataset_null_err.c: the dataset functions that open a
 * file again after pqt_dataset_open (pqt_dataset_open_file,
 * pqt_dataset_plan, pqt_dataset_write_text) fail cleanly when the file has
 * gone bad since and the caller passed err = NULL (the header says err may
 * be NULL). They used to read err->message to decide whether to prefix the
 * path, and crashed (found by make lint: clang-analyzer-core.NullDereference).
 * With an err they still name the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../harness.h"
#include "parquetry.h"
#include "parquetry_dataset.h"

static char g_dir[256], g_file[320];

static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  int ok = in && out;
  char buf[4096];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = 0;
  return ok;
}

/* Overwrite the file with bytes that are not Parquet (no PAR1 footer). */
static void spoil(void) {
  FILE *f = fopen(g_file, "wb");
  if (!f) return;
  fputs("this is not a parquet file any more", f);
  fclose(f);
}

static pqt_status discard(void *ctx, const char *data, size_t len) {
  (void)ctx;
  (void)data;
  (void)len;
  return PQT_OK;
}

/* A one-file dataset whose file is then spoiled; NULL when the corpus is absent. */
static pqt_dataset *open_spoiled(void) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return NULL;
  char src[512];
  snprintf(src, sizeof src, "%s/data/alltypes_plain.parquet", corpus);
  snprintf(g_dir, sizeof g_dir, "%s/pqt_ds_null_err_%d", P_tmpdir, (int)getpid());
  mkdir(g_dir, 0700);
  snprintf(g_file, sizeof g_file, "%s/a.parquet", g_dir);
  if (!copy_file(src, g_file)) {
    fprintf(stderr, "NOTE: cannot copy %s\n", src);
    pqt_t_current_skipped = 1;
    return NULL;
  }
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[] = {g_dir};
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  spoil();
  return ds;
}

static void cleanup(pqt_dataset *ds) {
  pqt_dataset_close(ds);
  remove(g_file);
  rmdir(g_dir);
}

static void test_open_file_null_err(void) {
  pqt_dataset *ds = open_spoiled();
  if (!ds) return;
  pqt_reader *r = NULL;
  CHECK(pqt_dataset_open_file(ds, 0, &r, NULL) != PQT_OK);
  CHECK(r == NULL);
  pqt_error e;
  CHECK(pqt_dataset_open_file(ds, 0, &r, &e) != PQT_OK);
  CHECK_MSG(strstr(e.message, g_file) != NULL, "%s", e.message);
  cleanup(ds);
}

static void test_plan_null_err(void) {
  pqt_dataset *ds = open_spoiled();
  if (!ds) return;
  pqt_dataset_unit *units = NULL;
  int32_t n = -1;
  CHECK(pqt_dataset_plan(ds, NULL, 1 << 20, &units, &n, NULL) != PQT_OK);
  pqt_dataset_plan_free(units);
  units = NULL;
  pqt_error e;
  CHECK(pqt_dataset_plan(ds, NULL, 1 << 20, &units, &n, &e) != PQT_OK);
  CHECK_MSG(strstr(e.message, g_file) != NULL, "%s", e.message);
  pqt_dataset_plan_free(units);
  cleanup(ds);
}

static void test_write_text_null_err(void) {
  pqt_dataset *ds = open_spoiled();
  if (!ds) return;
  CHECK(pqt_dataset_write_text(ds, NULL, PQT_TEXT_JSONL, -1, discard, NULL, NULL) != PQT_OK);
  pqt_error e;
  CHECK(pqt_dataset_write_text(ds, NULL, PQT_TEXT_JSONL, -1, discard, NULL, &e) != PQT_OK);
  CHECK_MSG(strstr(e.message, g_file) != NULL, "%s", e.message);
  cleanup(ds);
}

RUN_TESTS("dataset_null_err", TEST_CASE(test_open_file_null_err), TEST_CASE(test_plan_null_err),
          TEST_CASE(test_write_text_null_err))
