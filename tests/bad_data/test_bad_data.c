/*
 * parquet-testing/bad_data: every file there is listed below with the
 * status a full read (open, then every row as JSON Lines, and again as an
 * Arrow stream) must give, as arrow-rs parquet/tests/arrow_reader/bad_data.rs
 * does. A file present in the corpus but not listed fails the test, so a new
 * bad file is looked at before it is accepted; a listed file that is missing
 * fails too (the list follows the pinned corpus).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

typedef struct expected {
  const char *name;
  pqt_status status;
  const char *why;
} expected;

static const expected listed[] = {
    {"PARQUET-1481.parquet", PQT_ECORRUPT, "schema element with physical type -7"},
    {"ARROW-RS-GH-6229-DICTHEADER.parquet", PQT_ECORRUPT, "negative num_values in the dictionary page header"},
    {"ARROW-RS-GH-6229-LEVELS.parquet", PQT_ECORRUPT, "a page with too few repetition levels"},
    {"ARROW-GH-41321.parquet", PQT_ECORRUPT, "fewer decoded levels than the page's num_values"},
    {"ARROW-GH-41317.parquet", PQT_ECORRUPT, "columns of different sizes (a chunk without its encodings)"},
    /* Readers agree this one is readable: RLE dictionary indices with bit
     * width 0 mean every index is 0 (DataFusion reads 21186 zeros). */
    {"ARROW-GH-43605.parquet", PQT_OK, "dictionary indices with RLE bit width 0: all index 0"},
    {"ARROW-GH-45185.parquet", PQT_ECORRUPT, "repetition levels start with 1"},
    {"ARROW-GH-47662.parquet", PQT_ECORRUPT, "a required column holding nulls (too few values)"},
};

typedef struct counter {
  uint64_t lines;
} counter;

static pqt_status count_lines(void *ctx, const char *data, size_t len) {
  counter *c = ctx;
  for (size_t i = 0; i < len; i++) c->lines += data[i] == '\n';
  return PQT_OK;
}

/* Status of reading every row as text; *rows gets the rows written. */
static pqt_status read_text(const char *path, uint64_t *rows, pqt_error *err) {
  pqt_reader *r = NULL;
  pqt_status st = pqt_reader_open_file(&r, path, NULL, err);
  if (st != PQT_OK) return st;
  counter c = {0};
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, count_lines, &c, err);
  *rows = c.lines;
  pqt_reader_close(r);
  return st;
}

/* 0 when every batch of the stream came through, else the errno; -1 when
 * the file does not open. */
static int read_stream(const char *path, int64_t *rows) {
  pqt_reader *r = NULL;
  if (pqt_reader_open_file(&r, path, NULL, NULL) != PQT_OK) return -1;
  struct ArrowArrayStream s;
  int rc = 0;
  *rows = 0;
  if (pqt_reader_get_stream(r, NULL, &s, NULL) != PQT_OK) {
    pqt_reader_close(r);
    return EIO;
  }
  for (;;) {
    struct ArrowArray a;
    rc = s.get_next(&s, &a);
    if (rc != 0 || !a.release) break;
    *rows += a.length;
    a.release(&a);
  }
  s.release(&s);
  pqt_reader_close(r);
  return rc;
}

static void test_every_bad_data_file_is_listed_and_fails_cleanly(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char bd[4096];
  snprintf(bd, sizeof bd, "%s/bad_data", dir);
  DIR *d = opendir(bd);
  CHECK_MSG(d != NULL, "no %s", bd);
  if (!d) return;
  int seen[sizeof listed / sizeof listed[0]] = {0};
  struct dirent *e;
  int n_files = 0;
  while ((e = readdir(d)) != NULL) {
    size_t nl = strlen(e->d_name);
    if (nl < 8 || strcmp(e->d_name + nl - 8, ".parquet") != 0) continue;
    n_files++;
    const expected *x = NULL;
    for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
      if (strcmp(listed[i].name, e->d_name) == 0) {
        x = &listed[i];
        seen[i] = 1;
      }
    CHECK_MSG(x != NULL, "bad_data/%s is not listed: read it, then list it with its expected status", e->d_name);
    if (!x) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", bd, e->d_name);
    pqt_error err;
    pqt_error_init(&err);
    uint64_t rows = 0;
    pqt_status st = read_text(path, &rows, &err);
    CHECK_MSG(st == x->status, "bad_data/%s: expected %s (%s), got %s: %s", e->d_name, pqt_status_name(x->status),
              x->why, pqt_status_name(st), err.message);
    if (st != PQT_OK) {
      CHECK_MSG(err.code == st && err.message[0] != '\0', "bad_data/%s: error without code/message", e->d_name);
    }
    int64_t srows = 0;
    int rc = read_stream(path, &srows);
    if (x->status == PQT_OK) {
      CHECK_MSG(rc == 0 && (uint64_t)srows == rows, "bad_data/%s: stream rc %d, %lld rows (text %llu)", e->d_name, rc,
                (long long)srows, (unsigned long long)rows);
    } else {
      CHECK_MSG(rc != 0, "bad_data/%s: the stream read it although the text output failed", e->d_name);
    }
    fprintf(stderr, "  bad_data/%s: %s (%s)\n", e->d_name, pqt_status_name(st), st ? err.message : "read");
  }
  closedir(d);
  for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++)
    CHECK_MSG(seen[i], "listed bad_data/%s is not in the corpus", listed[i].name);
  CHECK(n_files >= 8);
}

/* ARROW-GH-43605 reads as the other readers read it: 21186 zeros. */
static void test_gh_43605_reads_zeros(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/bad_data/ARROW-GH-43605.parquet", dir);
  pqt_reader *r = NULL;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_OK(pqt_reader_open_file(&r, path, NULL, &err));
  if (!r) return;
  CHECK_EQ_INT(pqt_reader_num_rows(r), 21186);
  struct ArrowArrayStream s;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &s, &err));
  struct ArrowSchema schema;
  CHECK_EQ_INT(s.get_schema(&s, &schema), 0);
  CHECK_EQ_INT(schema.n_children, 1);
  CHECK_EQ_STR(schema.children[0]->format, "S");
  schema.release(&schema);
  int64_t rows = 0, nonzero = 0;
  for (;;) {
    struct ArrowArray a;
    int rc = s.get_next(&s, &a);
    CHECK_EQ_INT(rc, 0);
    if (rc != 0 || !a.release) break;
    const struct ArrowArray *c = a.children[0];
    const uint16_t *v = c->buffers[1];
    for (int64_t i = 0; i < c->length; i++) nonzero += v[c->offset + i] != 0;
    rows += a.length;
    a.release(&a);
  }
  s.release(&s);
  pqt_reader_close(r);
  CHECK_EQ_INT(rows, 21186);
  CHECK_EQ_INT(nonzero, 0);
}

int main(void) {
  static const pqt_test_case cases[] = {
      TEST_CASE(test_every_bad_data_file_is_listed_and_fails_cleanly),
      TEST_CASE(test_gh_43605_reads_zeros),
  };
  return pqt_run_tests("bad_data", cases, sizeof cases / sizeof cases[0]);
}
