/*
 * Error recovery (spec: "Error recovery": a corrupt page loses that page, a
 * corrupt page header the rest of its chunk). With on_error =
 * PQT_SKIP_CORRUPT the rows a lost page held read as null in its
 * top-level field when that field is optional, and are left out otherwise
 * (every other row and column reads as from the undamaged file); each loss
 * is reported with the rows it cost. Without it the read fails with an
 * error naming the row group, column and page.
 */
#include "file/reader_internal.h"
#include "footer_fixture.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

typedef struct skips {
  int n;
  int32_t row_group;
  int64_t rows;
  char msg[512];
} skips;
static void on_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  skips *s = ctx;
  s->n++;
  if (getenv("RECOVERY_VERBOSE")) fprintf(stderr, "  skip: %s (rows lost %lld)\n", what->message, (long long)rows_lost);
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
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { optional int64 a; required int32 b; }"};
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
    CHECK_MSG(strstr(sk.msg, "page 3") && strstr(sk.msg, "field a reads as null in rows 300-399"), "%s", sk.msg);
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

/* Flip a byte of page `page` of `col` in row group `rg`: inside the page
 * body (its CRC then fails), or the first byte of its header (unreadable). */
static bool damage_page_at(pqt_string *file, const char *col, int rg, int page, bool header) {
  pqt_reader *r = NULL;
  pqt_test_text pages = {0};
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, NULL) != PQT_OK) return false;
  pqt_status st = pqt_reader_describe_pages(r, col, pqt_test_collect, &pages, NULL);
  pqt_reader_close(r);
  char key[128];
  snprintf(key, sizeof key, "rg=%d col=%s page=%d ", rg, col, page);
  const char *p = st == PQT_OK && pages.p ? strstr(pages.p, key) : NULL;
  long off = 0, hdr = 0;
  const char *o = p ? strstr(p, "offset=") : NULL, *h = p ? strstr(p, "header=") : NULL;
  bool ok = o && h && sscanf(o, "offset=%ld", &off) == 1 && sscanf(h, "header=%ld", &hdr) == 1;
  if (ok && header) file->data[off] = 0x0f; /* field type 15: not a Thrift type */
  else if (ok) file->data[off + hdr + 2] ^= 0x21;
  free(pages.p);
  return ok;
}

static bool damage_page(pqt_string *file, const char *col, int rg) { return damage_page_at(file, col, rg, 0, false); }

/* A damaged chunk of a nested column under an optional top-level field
 * costs that field only (null in the row group's rows); a damaged chunk of
 * a required column costs the row group. */
static void test_corrupt_chunk_nulls_its_field(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message =
                             "message m { optional group s { optional int32 x; optional binary y (STRING); }"
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

/* ---- a page lost in the middle of a chunk, for every kind of column -------- */

/* 1000 rows, pages of 100 rows: l a list of i % 4 elements (the third
 * null), b = i (required), s = {x: i (required), y: "y<i>" or null}. */
static bool write_pages_file(pqt_string *file, int page_version, int page_index) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message =
                             "message m { optional group l (LIST) { repeated group list { optional int64 element; } }"
                             " required int32 b; optional group s { required int32 x; optional binary y (STRING); } }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_row_limit = 100;
  wo.defaults.dictionary = 0;
  wo.defaults.page_version = page_version;
  wo.defaults.page_index = page_index;
  pqt_writer *w = NULL;
  if (pqt_writer_open_buffer(&w, file, &ws, &wo, NULL) != PQT_OK) return false;
  enum { N = 1000 };
  static int64_t el[3 * N];
  static int16_t ldef[3 * N + N], lrep[3 * N + N], xdef[N], ydef[N];
  static int32_t b[N], x[N], yo[N + 1];
  static char ys[8 * N];
  int n = 0, ne = 0, ny = 0;
  yo[0] = 0;
  for (int i = 0; i < N; i++) {
    int k = i % 4;
    if (k == 0) {
      ldef[n] = 1; /* an empty list */
      lrep[n++] = 0;
    }
    for (int j = 0; j < k; j++) {
      lrep[n] = j ? 1 : 0;
      ldef[n++] = j == 2 ? 2 : 3;
      if (j != 2) el[ne++] = i * 10 + j;
    }
    b[i] = i;
    x[i] = i;
    xdef[i] = 1; /* s is there */
    ydef[i] = i % 7 ? 2 : 1;
    if (i % 7) {
      int l = snprintf(ys + yo[ny], 8, "y%d", i);
      yo[ny + 1] = yo[ny] + l;
      ny++;
    }
  }
  bool ok = pqt_writer_write_column(w, 0, n, ldef, lrep, el, NULL, ne, NULL) == PQT_OK &&
            pqt_writer_write_column(w, 1, N, NULL, NULL, b, NULL, N, NULL) == PQT_OK &&
            pqt_writer_write_column(w, 2, N, xdef, NULL, x, NULL, N, NULL) == PQT_OK &&
            pqt_writer_write_column(w, 3, N, ydef, NULL, ys, yo, ny, NULL) == PQT_OK;
  ok = pqt_writer_close(w, NULL) == PQT_OK && ok;
  return ok;
}

/* Row i as `cat` prints it; l or s replaced by null when asked. */
static void row_text(int i, bool l_null, bool s_null, char *out, size_t cap) {
  char l[96] = "null", sv[64] = "null";
  if (!l_null) {
    int k = i % 4, p = snprintf(l, sizeof l, "[");
    for (int j = 0; j < k; j++) {
      if (j == 2) p += snprintf(l + p, sizeof l - (size_t)p, ",null");
      else p += snprintf(l + p, sizeof l - (size_t)p, "%s%d", j ? "," : "", i * 10 + j);
    }
    snprintf(l + p, sizeof l - (size_t)p, "]");
  }
  if (!s_null) {
    if (i % 7) snprintf(sv, sizeof sv, "{\"x\":%d,\"y\":\"y%d\"}", i, i);
    else snprintf(sv, sizeof sv, "{\"x\":%d,\"y\":null}", i);
  }
  snprintf(out, cap, "{\"l\":%s,\"b\":%d,\"s\":%s}\n", l, i, sv);
}

typedef struct page_case {
  const char *name;
  int page_version, page_index;
  const char *col; /* damaged column */
  int page;        /* its page */
  bool header;     /* the header, not the body */
  int l0, l1;      /* rows where l reads null */
  int s0, s1;      /* rows where s reads null */
  int d0, d1;      /* rows left out */
} page_case;

static void test_page_lost_mid_chunk(void) {
  /* the dictionary page is page 0 when there is one; here there is none */
  static const page_case cases[] = {
      {"list, v2 pages", 2, 1, "l.list.element", 4, false, 400, 500, 0, 0, 0, 0},
      {"list, v1 pages with an offset index", 1, 1, "l.list.element", 4, false, 400, 500, 0, 0, 0, 0},
      /* without an offset index a lost v1 page may hold the end of the
       * record before it (row 399): it is lost with the rest of the chunk */
      {"list, v1 pages without an offset index: the rest of the chunk", 1, 0, "l.list.element", 4, false, 399, 1000, 0,
       0, 0, 0},
      {"required column: its rows are left out", 1, 1, "b", 2, false, 0, 0, 0, 0, 200, 300},
      {"required leaf of an optional group: the group is null", 2, 1, "s.x", 3, false, 0, 0, 300, 400, 0, 0},
      {"page header unreadable: the rest of the chunk", 1, 1, "s.y", 5, true, 0, 0, 500, 1000, 0, 0},
      {"required column, v2: the last page", 2, 0, "b", 9, false, 0, 0, 0, 0, 900, 1000},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const page_case *pc = &cases[c];
    pqt_string file = {0};
    CHECK_MSG(write_pages_file(&file, pc->page_version, pc->page_index), "%s: write", pc->name);
    pqt_test_text good = {0}, out = {0}, failed = {0};
    skips sk = {0};
    pqt_error e;
    pqt_error_init(&e);
    CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_FAIL, &sk, &good, &e));
    /* the undamaged file reads as row_text says */
    char want[256];
    const char *q = good.p;
    for (int i = 0; i < 1000 && q; i++) {
      row_text(i, false, false, want, sizeof want);
      CHECK_MSG(strncmp(q, want, strlen(want)) == 0, "%s: good row %d: %.80s, want %s", pc->name, i, q, want);
      q = strchr(q, '\n');
      if (q) q++;
    }
    CHECK_MSG(damage_page_at(&file, pc->col, 0, pc->page, pc->header), "%s: no page %d of %s", pc->name, pc->page,
              pc->col);
    CHECK_MSG(read_text((const uint8_t *)file.data, file.len, PQT_FAIL, &sk, &failed, &e) != PQT_OK,
              "%s: the damage goes unnoticed", pc->name);
    CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_SKIP_CORRUPT, &sk, &out, &e));
    CHECK_MSG(sk.n >= 1, "%s: no loss reported", pc->name);
    CHECK_EQ_INT(sk.rows, pc->d1 - pc->d0);
    char name[160];
    snprintf(name, sizeof name, "page %d", pc->page);
    CHECK_MSG(strstr(sk.msg, name) != NULL, "%s: %s", pc->name, sk.msg);
    q = out.p;
    int rows = 0;
    for (int i = 0; i < 1000; i++) {
      if (i >= pc->d0 && i < pc->d1) continue;
      row_text(i, i >= pc->l0 && i < pc->l1, i >= pc->s0 && i < pc->s1, want, sizeof want);
      if (!q || strncmp(q, want, strlen(want)) != 0) {
        CHECK_MSG(0, "%s: row %d: %.80s, want %s", pc->name, i, q ? q : "(end)", want);
        break;
      }
      q += strlen(want);
      rows++;
    }
    CHECK_MSG(q && *q == '\0', "%s: more rows than expected", pc->name);
    CHECK_EQ_INT(rows, 1000 - (pc->d1 - pc->d0));
    /* the Arrow stream keeps the same rows */
    pqt_read_options o;
    pqt_read_options_init(&o);
    o.on_error = PQT_SKIP_CORRUPT;
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, &o, NULL));
    if (r) {
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.batch_size = 64;
      struct ArrowArrayStream st;
      int64_t n = 0;
      if (pqt_reader_get_stream(r, &so, &st, NULL) == PQT_OK) {
        for (;;) {
          struct ArrowArray a;
          if (st.get_next(&st, &a) != 0 || !a.release) break;
          n += a.length;
          a.release(&a);
        }
        st.release(&st);
      }
      CHECK_EQ_INT(n, rows);
      pqt_reader_close(r);
    }
    free(good.p);
    free(out.p);
    free(failed.p);
    pqt_string_free(&file);
  }
}

/* Two losses: a required column's page leaves its rows out, a list page
 * over the same rows costs nothing more. */
static void test_two_losses_over_the_same_rows(void) {
  pqt_string file = {0};
  CHECK(write_pages_file(&file, 2, 1));
  CHECK(damage_page_at(&file, "b", 0, 2, false));
  CHECK(damage_page_at(&file, "l.list.element", 0, 2, false));
  CHECK(damage_page_at(&file, "s.y", 0, 7, false));
  pqt_test_text out = {0};
  skips sk = {0};
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(read_text((const uint8_t *)file.data, file.len, PQT_SKIP_CORRUPT, &sk, &out, &e));
  CHECK_EQ_INT(sk.n, 3);
  int lines = 0;
  for (const char *q = out.p; q && *q; q = strchr(q, '\n') + 1) lines++;
  CHECK_EQ_INT(lines, 900);
  CHECK(out.p && strstr(out.p, "{\"l\":[1990,1991,null],\"b\":199,") && strstr(out.p, "{\"l\":[],\"b\":300,") &&
        !strstr(out.p, "\"b\":250,") && strstr(out.p, "\"b\":700,\"s\":null}") && strstr(out.p, "\"b\":699,\"s\":{"));
  free(out.p);
  pqt_string_free(&file);
}

/* Pages past the row group's rows (its num_rows cut to 900 of the 1000
 * its pages hold): an error without recovery; with it the 900 rows read
 * and every column reports what it left out. */
static void test_pages_past_the_rows(void) {
  pqt_string file = {0};
  CHECK(write_pages_file(&file, 1, 1));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (!r) return;
  r->md.num_rows = 900;
  r->md.row_groups.items[0].num_rows = 900;
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  pqt_test_refooter(file.data, file.len, r->footer_len, &r->md, &out);
  pqt_reader_close(r);
  pqt_test_text t = {0}, failed = {0};
  skips sk = {0};
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(read_text(out.data, out.len, PQT_FAIL, &sk, &failed, &e), PQT_ECORRUPT);
  CHECK_OK(read_text(out.data, out.len, PQT_SKIP_CORRUPT, &sk, &t, &e));
  CHECK_EQ_INT(sk.n, 4);
  CHECK_EQ_INT(sk.rows, 0);
  CHECK_MSG(strstr(sk.msg, "page 9") && strstr(sk.msg, "data past the row group's 900 rows left out"), "%s", sk.msg);
  int lines = 0;
  for (const char *q = t.p; q && *q; q = strchr(q, '\n') + 1) {
    char want[256];
    row_text(lines, false, false, want, sizeof want);
    CHECK_MSG(strncmp(q, want, strlen(want)) == 0, "row %d: %.60s", lines, q);
    lines++;
  }
  CHECK_EQ_INT(lines, 900);
  free(t.p);
  free(failed.p);
  pqt_buf_free(&out);
  pqt_string_free(&file);
}

/* A row limit holds when row groups are read whole for recovery. */
static void test_limit_with_skip_corrupt(void) {
  pqt_string file = {0};
  CHECK(write_pages_file(&file, 1, 1));
  CHECK(damage_page_at(&file, "b", 0, 2, false));
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.on_error = PQT_SKIP_CORRUPT;
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, &o, NULL));
  pqt_test_text t = {0};
  if (r) {
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, 10, pqt_test_collect, &t, NULL));
    pqt_reader_close(r);
  }
  int lines = 0;
  for (const char *q = t.p; q && *q; q = strchr(q, '\n') + 1) lines++;
  CHECK_EQ_INT(lines, 10);
  free(t.p);
  pqt_string_free(&file);
}

RUN_TESTS("recovery", TEST_CASE(test_skip_corrupt_row_group), TEST_CASE(test_corrupt_page_reads_as_nulls),
          TEST_CASE(test_corrupt_chunk_nulls_its_field), TEST_CASE(test_page_lost_mid_chunk),
          TEST_CASE(test_two_losses_over_the_same_rows), TEST_CASE(test_limit_with_skip_corrupt),
          TEST_CASE(test_pages_past_the_rows))
