/* pqt_reader_verify: a sound file has no problems; a statistic that does
 * not bound the data, and a damaged page, are each reported. */
#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry.h"

typedef struct text { char buf[4096]; size_t n; } text;
static pqt_status collect(void *ctx, const char *d, size_t n) {
  text *t = ctx;
  if (t->n + n >= sizeof t->buf) return PQT_ENOMEM;
  memcpy(t->buf + t->n, d, n);
  t->n += n;
  t->buf[t->n] = '\0';
  return PQT_OK;
}

static int64_t verify_buf(const uint8_t *buf, size_t len, text *t) {
  pqt_reader *r;
  pqt_error e;
  int64_t problems = -1;
  CHECK_OK(pqt_reader_open_buffer(&r, buf, len, NULL, &e));
  CHECK_OK(pqt_reader_verify(r, collect, t, &problems, &e));
  pqt_reader_close(r);
  return problems;
}

static void test_verify_finds_problems(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_simple.parquet", PQT_SOURCE_DIR);
  size_t len;
  uint8_t *buf = pqt_test_read_file(path, &len);
  CHECK(buf != NULL);
  if (!buf) return;
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf(buf, len, &t), 0);
  CHECK_EQ_INT(t.n, 0);
  /* footer statistics: min_value "text1" -> "text3" (above the smallest value) */
  uint8_t *m = NULL;
  for (size_t i = 113; i + 7 < len; i++)
    if (memcmp(buf + i, "\x18\x05text1", 7) == 0) m = buf + i + 6;
  CHECK(m != NULL);
  if (m) {
    *m = '3';
    text t2 = {{0}, 0};
    CHECK_EQ_INT(verify_buf(buf, len, &t2), 1);
    CHECK(strstr(t2.buf, "row group 0, column text: statistics min_value is above the smallest value") != NULL);
    *m = '1';
  }
  /* a flipped data byte: the page CRC no longer matches */
  buf[40] ^= 1;
  text t3 = {{0}, 0};
  CHECK_EQ_INT(verify_buf(buf, len, &t3), 1);
  CHECK(strstr(t3.buf, "page 0: CRC32 mismatch") != NULL);
  free(buf);
}

/* A Bloom filter that lost its bits no longer holds the chunk's values. */
static void test_verify_checks_bloom_filters(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.message = "message m { required int64 id; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.bloom_filter = 1;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  int64_t ids[1000];
  for (int i = 0; i < 1000; i++) ids[i] = (int64_t)i * 7919;
  CHECK_OK(pqt_writer_write_column(w, 0, 1000, NULL, NULL, ids, NULL, 1000, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  /* find the filter's bitset and clear it */
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (r) {
    const pqt_column_metadata *cm = &r->md.row_groups.items[0].columns.items[0].meta_data;
    CHECK(PQT_HAS(cm, 14) && PQT_HAS(cm, 15));
    int64_t off = cm->bloom_filter_offset, len = cm->bloom_filter_length;
    pqt_reader_close(r);
    CHECK(off > 4 && len > 32 && (size_t)(off + len) < file.len);
    memset(file.data + off + len - 32, 0, 32); /* the last block of the bitset */
    text t2 = {{0}, 0};
    CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t2), 1);
    CHECK(strstr(t2.buf, "row group 0, column id: Bloom filter misses") != NULL);
  }
  pqt_string_free(&file);
}

RUN_TESTS("verify", TEST_CASE(test_verify_finds_problems), TEST_CASE(test_verify_checks_bloom_filters))
