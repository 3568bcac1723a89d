/* Column data in other files (ColumnChunk.file_path): a summary file
 * written by pqt_edit_write_summary over data files reads as the data files
 * do; escaping paths are refused unless allowed; a missing or short data
 * file is an error naming both files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_edit.h"

typedef struct text {
  char *p;
  size_t n;
} text;

static pqt_status put(void *ctx, const char *d, size_t n) {
  text *t = ctx;
  char *q = realloc(t->p, t->n + n + 1);
  if (!q) return PQT_ENOMEM;
  memcpy(q + t->n, d, n);
  t->n += n;
  q[t->n] = 0;
  t->p = q;
  return PQT_OK;
}

/* Every row of path as JSON Lines (NULL and the error in *e on failure). */
static char *read_all(const char *path, const pqt_read_options *ro, pqt_error *e) {
  pqt_reader *r;
  if (pqt_reader_open_file(&r, path, ro, e) != PQT_OK) return NULL;
  text t = {NULL, 0};
  pqt_status st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, put, &t, e);
  pqt_reader_close(r);
  if (st != PQT_OK) {
    free(t.p);
    return NULL;
  }
  return t.p ? t.p : calloc(1, 1);
}

static char dir[256];

static int setup(void) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return 0;
  snprintf(dir, sizeof dir, "%s/pqt-ext.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir)) return 0;
  char p[512], q[512];
  snprintf(p, sizeof p, "%s/data", dir);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/data/alltypes_plain.parquet", corpus);
  snprintf(q, sizeof q, "%s/data/a.parquet", dir);
  pqt_test_copy_file(p, q);
  snprintf(q, sizeof q, "%s/data/b.parquet", dir);
  pqt_test_copy_file(p, q);
  snprintf(p, sizeof p, "%s/data/alltypes_tiny_pages_plain.parquet", corpus);
  snprintf(q, sizeof q, "%s/data/tiny.parquet", dir);
  pqt_test_copy_file(p, q);
  return 1;
}

static void cleanup(void) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* Write a summary at dir/name over dir/data/ files names, chunks naming them as refs. */
static pqt_status summarise(const char *name, const char *const *files, const char *const *refs, int n, pqt_error *e) {
  pqt_reader *rs[4];
  char p[512];
  pqt_status st = PQT_OK;
  int k = 0;
  while (k < n && st == PQT_OK) {
    snprintf(p, sizeof p, "%s/data/%s", dir, files[k]);
    st = pqt_reader_open_file(&rs[k], p, NULL, e);
    if (st == PQT_OK) k++;
  }
  if (st == PQT_OK) {
    snprintf(p, sizeof p, "%s/%s", dir, name);
    st = pqt_edit_write_summary(p, rs, refs, n, e);
  }
  for (int i = 0; i < k; i++) pqt_reader_close(rs[i]);
  return st;
}

static void test_round_trip(void) {
  if (!setup()) return;
  pqt_error e;
  pqt_error_init(&e);
  const char *files[] = {"a.parquet", "b.parquet"};
  const char *refs[] = {"data/a.parquet", "data/b.parquet"};
  CHECK_OK(summarise("_metadata", files, refs, 2, &e));
  char p[512];
  snprintf(p, sizeof p, "%s/_metadata", dir);
  char *via = read_all(p, NULL, &e);
  CHECK_MSG(via != NULL, "%s", e.message);
  snprintf(p, sizeof p, "%s/data/a.parquet", dir);
  char *a = read_all(p, NULL, &e);
  CHECK(a != NULL);
  if (via && a) {
    size_t n = strlen(a);
    CHECK_EQ_INT((long long)strlen(via), (long long)(2 * n)); /* a's rows then b's (the same file) */
    CHECK(strncmp(via, a, n) == 0 && strcmp(via + n, a) == 0);
  }
  pqt_reader *r;
  snprintf(p, sizeof p, "%s/_metadata", dir);
  CHECK_OK(pqt_reader_open_file(&r, p, NULL, &e));
  CHECK_EQ_INT(pqt_reader_num_rows(r), 16);
  pqt_reader_close(r);
  free(via);
  free(a);
  /* a file with many pages and its page index (left out of the summary) */
  const char *f2[] = {"tiny.parquet"};
  const char *r2[] = {"data/tiny.parquet"};
  CHECK_OK(summarise("tiny_summary", f2, r2, 1, &e));
  snprintf(p, sizeof p, "%s/tiny_summary", dir);
  via = read_all(p, NULL, &e);
  CHECK_MSG(via != NULL, "%s", e.message);
  snprintf(p, sizeof p, "%s/data/tiny.parquet", dir);
  a = read_all(p, NULL, &e);
  CHECK(via && a && strcmp(via, a) == 0);
  free(via);
  free(a);
  cleanup();
}

static void test_refusals(void) {
  if (!setup()) return;
  pqt_error e;
  pqt_error_init(&e);
  char p[512], q[512];
  /* ".." climbs out: refused, then allowed by the option */
  const char *files[] = {"a.parquet"};
  snprintf(p, sizeof p, "%s/sub", dir);
  mkdir(p, 0755);
  CHECK_OK(summarise("sub/_metadata", files, (const char *const[]){"../data/a.parquet"}, 1, &e));
  snprintf(p, sizeof p, "%s/sub/_metadata", dir);
  char *t = read_all(p, NULL, &e);
  CHECK(t == NULL);
  CHECK_EQ_INT(e.code, PQT_EINVAL);
  CHECK_MSG(strstr(e.message, "climbs out") && strstr(e.message, "../data/a.parquet"), "%s", e.message);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.allow_external_paths = 1;
  t = read_all(p, &ro, &e);
  CHECK_MSG(t != NULL && strlen(t) > 0, "%s", e.message);
  free(t);
  /* absolute: refused */
  snprintf(q, sizeof q, "%s/data/a.parquet", dir);
  const char *abs[] = {q};
  CHECK_OK(summarise("abs_metadata", files, abs, 1, &e));
  snprintf(p, sizeof p, "%s/abs_metadata", dir);
  t = read_all(p, NULL, &e);
  CHECK(t == NULL && e.code == PQT_EINVAL);
  t = read_all(p, &ro, &e);
  CHECK_MSG(t != NULL, "%s", e.message);
  free(t);
  /* missing data file: names both */
  CHECK_OK(summarise("missing_metadata", files, (const char *const[]){"data/gone.parquet"}, 1, &e));
  snprintf(p, sizeof p, "%s/missing_metadata", dir);
  t = read_all(p, NULL, &e);
  CHECK(t == NULL);
  CHECK_MSG(strstr(e.message, "missing_metadata") && strstr(e.message, "gone.parquet"), "%s", e.message);
  /* a footer from a buffer: no directory to resolve against */
  snprintf(p, sizeof p, "%s/_metadata_buf", dir);
  CHECK_OK(summarise("_metadata_buf", files, (const char *const[]){"data/a.parquet"}, 1, &e));
  FILE *bf = fopen(p, "rb");
  CHECK(bf != NULL);
  static unsigned char buf[1 << 16];
  size_t blen = bf ? fread(buf, 1, sizeof buf, bf) : 0;
  if (bf) fclose(bf);
  CHECK(blen > 8 && blen < sizeof buf);
  pqt_reader *br = NULL;
  CHECK_OK(pqt_reader_open_buffer(&br, buf, blen, NULL, &e));
  if (br) {
    text bt = {NULL, 0};
    CHECK(pqt_reader_write_text(br, NULL, PQT_TEXT_JSONL, -1, put, &bt, &e) == PQT_EUNSUPPORTED);
    CHECK_MSG(strstr(e.message, "data/a.parquet") && strstr(e.message, "no directory"), "%s", e.message);
    free(bt.p);
    pqt_reader_close(br);
  }
  /* short data file: names both */
  CHECK_OK(summarise("short_metadata", files, (const char *const[]){"data/short.parquet"}, 1, &e));
  snprintf(q, sizeof q, "%s/data/short.parquet", dir);
  FILE *f = fopen(q, "wb");
  CHECK(f && fwrite("PAR1PAR1", 1, 8, f) == 8);
  if (f) fclose(f);
  snprintf(p, sizeof p, "%s/short_metadata", dir);
  t = read_all(p, NULL, &e);
  CHECK(t == NULL);
  CHECK_MSG(strstr(e.message, "short_metadata") && strstr(e.message, "short.parquet") &&
                strstr(e.message, "runs past the end"),
            "%s", e.message);
  /* schemas that differ are refused by the writer */
  const char *two[] = {"a.parquet", "tiny.parquet"};
  CHECK(summarise("bad_metadata", two, (const char *const[]){"data/a.parquet", "data/tiny.parquet"}, 2, &e) ==
        PQT_EINVAL);
  cleanup();
}

RUN_TESTS("external_data", {"round_trip", test_round_trip}, {"refusals", test_refusals})
