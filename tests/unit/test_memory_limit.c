/*
 * pqt_read_options.max_memory: with a counting allocator, reading either
 * stays under the ceiling (plus the footer and schema, which the ceiling
 * does not cover and which are bounded by max_footer_bytes) or fails with
 * PQT_ELIMIT before passing it. Nothing leaks either way.
 */
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

typedef struct counter {
  size_t live, peak;
} counter;

static void *c_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
  counter *c = ctx;
  void *q = realloc(p, new_n ? new_n : 1);
  if (!q) return NULL;
  c->live = c->live - (p ? old_n : 0) + new_n;
  if (c->live > c->peak) c->peak = c->live;
  return q;
}
static void c_free(void *ctx, void *p, size_t n) {
  counter *c = ctx;
  if (!p) return;
  c->live -= n;
  free(p);
}

static pqt_status read_all(const char *path, uint64_t limit, counter *c, int64_t *rows) {
  pqt_allocator a = {c_realloc, c_free, c};
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.alloc = &a;
  o.max_memory = limit;
  pqt_reader *r;
  pqt_error e;
  pqt_status st = pqt_reader_open_file(&r, path, &o, &e);
  if (st != PQT_OK) return st;
  struct ArrowArrayStream s;
  st = pqt_reader_get_stream(r, NULL, &s, &e);
  *rows = 0;
  if (st == PQT_OK) {
    for (;;) {
      struct ArrowArray arr;
      if (s.get_next(&s, &arr) != 0) {
        st = PQT_ELIMIT;
        CHECK_MSG(strstr(s.get_last_error(&s), "max_memory") != NULL, "%s", s.get_last_error(&s));
        break;
      }
      if (!arr.release) break;
      *rows += arr.length;
      arr.release(&arr);
    }
    s.release(&s);
  }
  pqt_reader_close(r);
  return st;
}

static void test_ceiling_respected(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  const char *files[] = {"data/alltypes_tiny_pages_plain.parquet", "data/nested_lists.snappy.parquet",
                         "data/delta_byte_array.parquet"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[f]);
    counter base = {0, 0};
    int64_t all_rows = 0;
    CHECK_EQ_INT(read_all(path, 0, &base, &all_rows), PQT_OK);
    CHECK_EQ_INT(base.live, 0);
    int ok = 0, limited = 0;
    for (uint64_t lim = 64; lim <= (uint64_t)64 << 20; lim *= 2) {
      counter c = {0, 0};
      int64_t rows = 0;
      pqt_status st = read_all(path, lim, &c, &rows);
      CHECK_MSG(st == PQT_OK || st == PQT_ELIMIT, "%s at %llu: status %d", files[f], (unsigned long long)lim, st);
      CHECK_MSG(c.live == 0, "%s at %llu: %zu bytes leaked", files[f], (unsigned long long)lim, c.live);
      /* the ceiling covers decoded data; footer, schema and reader state come on top */
      CHECK_MSG(c.peak <= lim + ((size_t)2 << 20), "%s at %llu: peak %zu", files[f], (unsigned long long)lim, c.peak);
      if (st == PQT_OK) {
        ok++;
        CHECK_EQ_INT(rows, all_rows);
      } else {
        limited++;
      }
    }
    CHECK_MSG(ok > 0 && limited > 0, "%s: ok %d limited %d", files[f], ok, limited);
  }
}

/* A page's claimed size is held to max_page_expansion x its compressed
 * size + page_expansion_floor, and to max_page_bytes: a zstd page of 2.4 MB
 * of zeros (a few hundred bytes stored) is refused by the defaults (64x +
 * 1 MiB), read when the caller allows more, refused again under a caller's
 * ceiling. */
static void test_page_expansion_limits(void) {
  enum { N = 300000 };
  static int64_t v[N];
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 z; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.codec = PQT_CODEC_ZSTD;
  wo.defaults.dictionary = 0;
  wo.defaults.page_size = 8 << 20;
  wo.defaults.page_row_limit = N;
  pqt_string file = {0};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  CHECK_OK(pqt_writer_write_column(w, 0, N, NULL, NULL, v, NULL, N, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  CHECK(file.len < 64 * 1024);
  for (int k = 0; k < 3; k++) {
    pqt_read_options o;
    pqt_read_options_init(&o);
    CHECK_EQ_INT(o.max_page_expansion, 64);
    if (k >= 1) o.max_page_expansion = 100000;
    if (k == 2) o.max_page_bytes = 1 << 20;
    pqt_reader *r = NULL;
    pqt_error e;
    pqt_error_init(&e);
    CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, &o, NULL));
    if (!r) continue;
    pqt_test_text t = {0};
    pqt_status st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, 3, pqt_test_collect, &t, &e);
    if (k == 1) {
      CHECK_OK(st);
      CHECK(t.p && strcmp(t.p, "{\"z\":0}\n{\"z\":0}\n{\"z\":0}\n") == 0);
    } else {
      CHECK_EQ_INT(st, PQT_ELIMIT);
      CHECK_MSG(strstr(e.message, "page claims 2400") && strstr(e.message, "refusing"), "%s", e.message);
    }
    free(t.p);
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
}

RUN_TESTS("memory_limit", TEST_CASE(test_ceiling_respected), TEST_CASE(test_page_expansion_limits))
