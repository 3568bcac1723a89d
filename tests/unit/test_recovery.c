/*
 * Error recovery (spec: "Error recovery"): with on_error = PQT_SKIP_CORRUPT
 * a damaged row group is reported and skipped; the other row groups read
 * as they would from the undamaged file. Without it the read fails with an
 * error naming the row group, column and page.
 */
#include "harness.h"
#include "parquetry.h"


typedef struct skips { int n; int32_t row_group; int64_t rows; char msg[512]; } skips;
static void on_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  skips *s = ctx;
  s->n++;
  s->row_group = what->row_group;
  s->rows = rows_lost;
  snprintf(s->msg, sizeof s->msg, "%s", what->message);
}

static pqt_status read_text(const uint8_t *buf, size_t len, int on_error, skips *sk, pqt_test_text *out, pqt_error *e) {
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.on_error = on_error;
  o.on_skip = on_skip;
  o.on_skip_ctx = sk;
  pqt_reader *r;
  pqt_status st = pqt_reader_open_buffer(&r, buf, len, &o, e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, out, e);
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
  pqt_test_text good = {0}, bad = {0}, failed = {0};
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

/* A bad page of a top-level optional column loses only that page: its
 * values read as nulls, every row and every other column survives. */
static void test_corrupt_page_reads_as_nulls(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.message = "message m { optional int64 a; required int32 b; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_row_limit = 100;
  wo.defaults.dictionary = 0;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  int64_t a[1000];
  int32_t b[1000];
  int16_t def[1000];
  for (int i = 0; i < 1000; i++) {
    a[i] = (int64_t)i * 11;
    b[i] = i;
    def[i] = 1;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, 1000, def, NULL, a, NULL, 1000, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 1000, NULL, NULL, b, NULL, 1000, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  /* page 3 of column a: from the page listing */
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  pqt_test_text pages = {0};
  if (r) {
    CHECK_OK(pqt_reader_describe_pages(r, "a", pqt_test_collect, &pages, NULL));
    pqt_reader_close(r);
  }
  const char *p3 = pages.p ? strstr(pages.p, "col=a page=3 ") : NULL;
  CHECK(p3 != NULL);
  if (p3) {
    long off = 0, hdr = 0;
    const char *o = strstr(p3, "offset="), *h = strstr(p3, "header=");
    CHECK(o && h && sscanf(o, "offset=%ld", &off) == 1 && sscanf(h, "header=%ld", &hdr) == 1);
    file.data[off + hdr + 3] ^= 0x10; /* inside the page: its CRC no longer matches */
    pqt_test_text out = {0}, failed = {0};
    skips sk = {0};
    pqt_error e;
    pqt_error_init(&e);
    CHECK_EQ_INT(read_text((const uint8_t *)file.data, file.len, PQT_FAIL, &sk, &failed, &e), PQT_ECORRUPT);
    CHECK(strstr(e.message, "column a: page 3") != NULL);
    CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_SKIP_CORRUPT, &sk, &out, &e));
    CHECK_EQ_INT(sk.n, 1);
    CHECK_EQ_INT(sk.rows, 0);
    CHECK(strstr(sk.msg, "page 3") && strstr(sk.msg, "read as nulls"));
    int lines = 0;
    for (const char *q = out.p; q && *q; q = strchr(q, '\n') + 1) {
      char want[64];
      if (lines >= 300 && lines < 400) snprintf(want, sizeof want, "{\"a\":null,\"b\":%d}", lines);
      else snprintf(want, sizeof want, "{\"a\":%d,\"b\":%d}", lines * 11, lines);
      CHECK_MSG(strncmp(q, want, strlen(want)) == 0 && q[strlen(want)] == '\n', "row %d: %.40s", lines, q);
      lines++;
      if (!strchr(q, '\n')) break;
    }
    CHECK_EQ_INT(lines, 1000);
    free(out.p);
    free(failed.p);
  }
  free(pages.p);
  pqt_string_free(&file);
}

/* Flip a byte inside page 0 of `col` in row group `rg` (its CRC then fails). */
static bool damage_page(pqt_string *file, const char *col, int rg) {
  pqt_reader *r = NULL;
  pqt_test_text pages = {0};
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, NULL) != PQT_OK) return false;
  pqt_status st = pqt_reader_describe_pages(r, col, pqt_test_collect, &pages, NULL);
  pqt_reader_close(r);
  char key[128];
  snprintf(key, sizeof key, "rg=%d col=%s page=0 ", rg, col);
  const char *p = st == PQT_OK && pages.p ? strstr(pages.p, key) : NULL;
  long off = 0, hdr = 0;
  const char *o = p ? strstr(p, "offset=") : NULL, *h = p ? strstr(p, "header=") : NULL;
  bool ok = o && h && sscanf(o, "offset=%ld", &off) == 1 && sscanf(h, "header=%ld", &hdr) == 1;
  if (ok) file->data[off + hdr + 2] ^= 0x21;
  free(pages.p);
  return ok;
}

/* A damaged chunk of a nested column under an optional top-level field
 * costs that field only (null in the row group's rows); a damaged chunk of
 * a required column costs the row group. */
static void test_corrupt_chunk_nulls_its_field(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.message = "message m { optional group s { optional int32 x; optional binary y (STRING); }"
                                    " optional group l (LIST) { repeated group list { optional int64 element; } }"
                                    " required int32 b; }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  for (int g = 0; g < 3; g++) {
    int32_t x[100], b[100];
    int64_t e64[300];
    int16_t def[300], rep[300];
    char ys[400];
    int32_t yo[101];
    int n = 0, ne = 0;
    yo[0] = 0;
    for (int i = 0; i < 100; i++) {
      int row = g * 100 + i;
      x[i] = row;
      b[i] = row * 2;
      def[i] = 2;
      int l = snprintf(ys + yo[i], 5, "y%d", row % 100);
      yo[i + 1] = yo[i] + l;
    }
    CHECK_OK(pqt_writer_write_column(w, 0, 100, def, NULL, x, NULL, 100, NULL));
    CHECK_OK(pqt_writer_write_column(w, 1, 100, def, NULL, ys, yo, 100, NULL));
    for (int i = 0; i < 100; i++) {
      int row = g * 100 + i;
      for (int j = 0; j < 1 + row % 3; j++) {
        rep[n] = j ? 1 : 0;
        def[n++] = 3;
        e64[ne++] = row * 10 + j;
      }
    }
    CHECK_OK(pqt_writer_write_column(w, 2, n, def, rep, e64, NULL, ne, NULL));
    CHECK_OK(pqt_writer_write_column(w, 3, 100, NULL, NULL, b, NULL, 100, NULL));
    CHECK_OK(pqt_writer_flush_row_group(w, NULL));
  }
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_test_text good = {0}, out = {0};
  skips sk = {0};
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_FAIL, &sk, &good, &e));
  CHECK(damage_page(&file, "s.y", 0));
  CHECK(damage_page(&file, "b", 1));
  CHECK(damage_page(&file, "l.list.element", 2));
  CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_SKIP_CORRUPT, &sk, &out, &e));
  CHECK_EQ_INT(sk.n, 3);
  CHECK_MSG(strstr(sk.msg, "row group 2") && strstr(sk.msg, "field l reads as null"), "%s", sk.msg);
  /* row group 0: s null; row group 1: lost; row group 2: l null */
  const char *gq = good.p, *q = out.p;
  int rows = 0;
  for (int row = 0; row < 300 && gq && q; row++) {
    const char *gn = strchr(gq, '\n'), *gl = strstr(gq, "\"l\":"), *gb = strstr(gq, ",\"b\":");
    if (!gn || !gl || !gb) break;
    if (row >= 100 && row < 200) {
      gq = gn + 1;
      continue;
    }
    const char *n = strchr(q, '\n');
    if (!n) break;
    char want[512];
    if (row < 100) snprintf(want, sizeof want, "{\"s\":null,%.*s", (int)(gn - gl), gl);
    else snprintf(want, sizeof want, "%.*s\"l\":null%.*s", (int)(gl - gq), gq, (int)(gn - gb), gb);
    CHECK_MSG((size_t)(n - q) == strlen(want) && strncmp(q, want, strlen(want)) == 0, "row %d: %.*s, want %s", row,
              (int)(n - q), q, want);
    rows++;
    gq = gn + 1;
    q = n + 1;
  }
  CHECK_EQ_INT(rows, 200);
  CHECK(q && *q == '\0');
  free(good.p);
  free(out.p);
  pqt_string_free(&file);
}

RUN_TESTS("recovery", TEST_CASE(test_skip_corrupt_row_group), TEST_CASE(test_corrupt_page_reads_as_nulls),
          TEST_CASE(test_corrupt_chunk_nulls_its_field))
