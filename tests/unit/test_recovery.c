/*
 * Error recovery (spec: "Error recovery"): with on_error = PQT_SKIP_CORRUPT
 * a damaged row group is reported and skipped; the other row groups read
 * as they would from the undamaged file. Without it the read fails with an
 * error naming the row group, column and page.
 */
#include "harness.h"
#include "parquetry.h"

typedef struct text { char *p; size_t n; } text;
static pqt_status collect(void *ctx, const char *d, size_t n) {
  text *t = ctx;
  char *q = realloc(t->p, t->n + n + 1);
  if (!q) return PQT_ENOMEM;
  memcpy(q + t->n, d, n);
  t->p = q;
  t->n += n;
  t->p[t->n] = '\0';
  return PQT_OK;
}

typedef struct skips { int n; int32_t row_group; int64_t rows; char msg[512]; } skips;
static void on_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  skips *s = ctx;
  s->n++;
  s->row_group = what->row_group;
  s->rows = rows_lost;
  snprintf(s->msg, sizeof s->msg, "%s", what->message);
}

static pqt_status read_text(const uint8_t *buf, size_t len, int on_error, skips *sk, text *out, pqt_error *e) {
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.on_error = on_error;
  o.on_skip = on_skip;
  o.on_skip_ctx = sk;
  pqt_reader *r;
  pqt_status st = pqt_reader_open_buffer(&r, buf, len, &o, e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, out, e);
  pqt_reader_close(r);
  return st;
}

static void test_skip_corrupt_row_group(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/data/floating_orders_nan_count.parquet", dir);
  size_t len;
  uint8_t *buf = pqt_test_read_file(path, &len);
  CHECK(buf != NULL);
  if (!buf) return;
  text good = {0}, bad = {0}, failed = {0};
  skips sk = {0};
  pqt_error e;
  CHECK_OK(read_text(buf, len, PQT_FAIL, &sk, &good, &e));
  /* row group 1's first page: header at 426 (23 bytes), data after it */
  buf[426 + 23 + 5] ^= 0x40;
  CHECK_EQ_INT(read_text(buf, len, PQT_FAIL, &sk, &failed, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "row group 1") && strstr(e.message, "page 0") && strstr(e.message, "CRC32"));
  CHECK_EQ_INT(e.row_group, 1);
  CHECK_EQ_INT(e.column, 0);
  CHECK_OK(read_text(buf, len, PQT_SKIP_CORRUPT, &sk, &bad, &e));
  CHECK_EQ_INT(sk.n, 1);
  CHECK_EQ_INT(sk.row_group, 1);
  CHECK_EQ_INT(sk.rows, 10);
  CHECK(strstr(sk.msg, "CRC32") != NULL);
  /* every row but row group 1's (rows 10..19) is as before */
  const char *g = good.p;
  for (int i = 0; i < 10; i++) g = strchr(g, '\n') + 1;
  size_t head = (size_t)(g - good.p);
  const char *g2 = g;
  for (int i = 0; i < 10; i++) g2 = strchr(g2, '\n') + 1;
  CHECK(bad.n == good.n - (size_t)(g2 - g));
  CHECK(memcmp(bad.p, good.p, head) == 0);
  CHECK(strcmp(bad.p + head, g2) == 0);
  free(good.p);
  free(bad.p);
  free(failed.p);
  free(buf);
}

RUN_TESTS("recovery", TEST_CASE(test_skip_corrupt_row_group))
