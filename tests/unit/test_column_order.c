/* ColumnOrder on write (parquet.thrift union ColumnOrder): TYPE_ORDER and
 * IEEE_754_TOTAL_ORDER for FLOAT, DOUBLE and FLOAT16 columns (nan_count,
 * -0.0/+0.0, NaN of both signs, infinities, all-NaN pages and chunks) and
 * INT96_TIMESTAMP_ORDER statistics for INT96 on request; the statistics and
 * ColumnIndex written, `verify` on the files, and pruning equal to a scan
 * of the same rows written without statistics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *SCHEMA =
    "message m {\n"
    "  required double d;\n"
    "  required float f;\n"
    "  required fixed_len_byte_array(2) h (FLOAT16);\n"
    "  required int96 t;\n"
    "}\n";

#define ROWS  12
#define PNAN  0x7FF8000000000001ull /* +NaN, payload 1 */
#define PNAN2 0x7FF8000000000009ull
#define NNAN  0xFFF8000000000002ull /* -NaN, payload 2 */
#define NNAN2 0xFFF8000000000007ull

static uint64_t g_bits[ROWS];

/* Row group 0 (pages of 4 rows): page 0 mixed, page 1 only NaNs; row group
 * 1: only NaNs (one page each side); row group 2: zeros and infinities. */
static void make_bits(void) {
  double v[ROWS] = {0.0, -0.0, -INFINITY, -1.0, 0, 0, 0, 0, 0.0, 0.0, INFINITY, 1.0};
  for (int i = 0; i < ROWS; i++) memcpy(&g_bits[i], &v[i], 8);
  g_bits[3] = NNAN; /* page 0: +0, -0, -Inf, -NaN */
  g_bits[4] = PNAN;
  g_bits[5] = NNAN2;
  g_bits[6] = PNAN2;
  g_bits[7] = NNAN;
}

static uint32_t f_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  if (d != d) return (uint32_t)(b >> 32 & 0x80000000u) | 0x7FC00000u | (uint32_t)(b & 0xF);
  float f = (float)d;
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static uint16_t h_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, 8);
  uint16_t s = (uint16_t)(b >> 48 & 0x8000u);
  if (d != d) return s | 0x7E00u | (uint16_t)(b & 0xF);
  if (isinf(d)) return s | 0x7C00u;
  if (d == 0) return s;
  if (d == 2.0) return 0x4000;
  if (d == -1.0) return 0xBC00;
  return 0x3C00;
}

/* rows [lo, hi) of every column, then the row group closes */
static pqt_status write_rows(pqt_writer *w, int lo, int hi, pqt_error *e) {
  double d[ROWS];
  float f[ROWS];
  uint16_t h[ROWS];
  uint8_t t[ROWS * 12];
  int n = hi - lo;
  for (int i = 0; i < n; i++) {
    uint64_t b = g_bits[lo + i];
    uint32_t fb = f_bits(b);
    memcpy(&d[i], &b, 8);
    memcpy(&f[i], &fb, 4);
    h[i] = h_bits(b);
    /* INT96: nanos ascending within the day, days descending */
    int64_t nanos = (int64_t)(lo + i) * 1000;
    int32_t days = 2460000 - (lo + i) / 2;
    memcpy(t + i * 12, &nanos, 8);
    memcpy(t + i * 12 + 8, &days, 4);
  }
  pqt_status st = pqt_writer_write_column(w, 0, n, NULL, NULL, d, NULL, n, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 1, n, NULL, NULL, f, NULL, n, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 2, n, NULL, NULL, h, NULL, n, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 3, n, NULL, NULL, t, NULL, n, e);
  if (st == PQT_OK) st = pqt_writer_flush_row_group(w, e);
  return st;
}

static void write_file(pqt_string *out, int order, int int96, int stats) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 4;
  o.defaults.dictionary = 0;
  o.defaults.statistics = stats;
  o.defaults.page_index = stats;
  o.float_column_order = order;
  o.int96_statistics = int96;
  o.int96_as_fixed = 1;
  pqt_write_schema ws = {.struct_size = sizeof ws, .message = SCHEMA};
  pqt_writer *w = NULL;
  pqt_error e;
  CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  CHECK_OK(write_rows(w, 0, 8, &e));
  CHECK_OK(write_rows(w, 4, 8, &e)); /* all NaN */
  CHECK_OK(write_rows(w, 8, 12, &e));
  CHECK_OK(pqt_writer_close(w, &e));
}

static uint64_t bits_of(const pqt_bytes *b) {
  uint64_t u = 0;
  if (b->len <= 8) memcpy(&u, b->ptr, (size_t)b->len);
  return u;
}

static pqt_status collect(void *ctx, const char *data, size_t len) { return pqt_buf_append(ctx, data, len, NULL); }

static void check_verify(const pqt_string *out) {
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, out->data, out->len, NULL, &e));
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  pqt_buf txt;
  pqt_buf_init(&txt, NULL);
  CHECK_OK(pqt_reader_verify_ex(r, collect, &txt, &rep, &e));
  CHECK_OK(pqt_buf_append(&txt, "", 1, NULL));
  CHECK_MSG(rep.problems == 0, "verify: %s", (const char *)txt.data);
  pqt_buf_free(&txt);
  pqt_reader_close(r);
}

static void test_total_order(void) {
  make_bits();
  pqt_string out = {0};
  write_file(&out, PQT_FLOAT_ORDER_TOTAL, 1, 1);
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  const pqt_file_metadata *md = &r->md;
  CHECK(md->column_orders.n == 4);
  if (md->column_orders.n != 4 || md->row_groups.n != 3) {
    CHECK(0);
    pqt_reader_close(r);
    pqt_string_free(&out);
    return;
  }
  for (int c = 0; c < 3; c++) CHECK_EQ_INT(md->column_orders.items[c].isset, 1u << PQT_ORDER_IEEE_754_TOTAL);
  CHECK_EQ_INT(md->column_orders.items[3].isset, 1u << PQT_ORDER_INT96_TIMESTAMP);
  double z = 0.0, inf = INFINITY, ninf = -INFINITY;
  uint64_t Z, INF, NINF;
  memcpy(&Z, &z, 8);
  memcpy(&INF, &inf, 8);
  memcpy(&NINF, &ninf, 8);
  /* expected double bounds and NaN counts per row group */
  uint64_t want_min[3] = {NINF, NNAN2, Z}, want_max[3] = {Z, PNAN2, INF};
  int64_t want_nan[3] = {5, 4, 0};
  pqt_arena ar;
  pqt_arena_init(&ar, NULL);
  for (int g = 0; g < 3; g++) {
    const pqt_row_group *rg = &md->row_groups.items[g];
    for (int c = 0; c < 3; c++) {
      const pqt_statistics *s = &rg->columns.items[c].meta_data.statistics;
      CHECK_MSG(PQT_HAS_FIELD(s, statistics, nan_count) && s->nan_count == want_nan[g], "rg %d col %d", g, c);
      CHECK(!PQT_HAS_FIELD(s, statistics, min) && !PQT_HAS_FIELD(s, statistics, max)); /* no legacy fields */
      uint64_t mn = bits_of(&s->min_value), mx = bits_of(&s->max_value);
      uint64_t emn = want_min[g], emx = want_max[g];
      if (c == 1) {
        emn = f_bits(emn);
        emx = f_bits(emx);
      } else if (c == 2) {
        emn = h_bits(emn);
        emx = h_bits(emx);
      }
      CHECK_MSG(mn == emn && mx == emx, "rg %d col %d: min %llx max %llx, want %llx %llx", g, c, (unsigned long long)mn,
                (unsigned long long)mx, (unsigned long long)emn, (unsigned long long)emx);
    }
    /* ColumnIndex of d: written even with an all-NaN page, NaN bounds there */
    const pqt_column_chunk *cd = &rg->columns.items[0];
    CHECK_MSG(PQT_HAS_FIELD(cd, column_chunk, column_index_offset), "rg %d: no column index", g);
    if (!PQT_HAS_FIELD(cd, column_chunk, column_index_offset)) continue;
    pqt_column_index ci;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)out.data + cd->column_index_offset,
                               (size_t)cd->column_index_length, NULL, &ar, &ci, NULL));
    CHECK(PQT_HAS_FIELD(&ci, column_index, nan_counts));
    if (g == 0 && ci.min_values.n == 2 && ci.nan_counts.n == 2) {
      CHECK(bits_of(&ci.min_values.items[0]) == NINF && bits_of(&ci.max_values.items[0]) == Z);
      CHECK(bits_of(&ci.min_values.items[1]) == NNAN2 && bits_of(&ci.max_values.items[1]) == PNAN2);
      CHECK(ci.nan_counts.items[0] == 1 && ci.nan_counts.items[1] == 4);
      CHECK(!ci.null_pages.items[1]);
    } else if (g == 0) {
      CHECK(0);
    }
    if (g == 2 && ci.min_values.n == 1) { /* +0 +0 +Inf 1: min stays +0.0 */
      CHECK(bits_of(&ci.min_values.items[0]) == Z && bits_of(&ci.max_values.items[0]) == INF);
    }
  }
  /* INT96: days descend, so the earliest is the last row of the group */
  const pqt_statistics *st = &md->row_groups.items[0].columns.items[3].meta_data.statistics;
  CHECK(st->min_value.len == 12 && st->max_value.len == 12);
  if (st->min_value.len == 12 && st->max_value.len == 12) {
    int64_t n0, n1;
    int32_t d0, d1;
    memcpy(&n0, st->min_value.ptr, 8);
    memcpy(&d0, st->min_value.ptr + 8, 4);
    memcpy(&n1, st->max_value.ptr, 8);
    memcpy(&d1, st->max_value.ptr + 8, 4);
    CHECK(d0 == 2460000 - 3 && n0 == 6000); /* rows 6, 7 share the day: nanos 6000 < 7000 */
    CHECK(d1 == 2460000 && n1 == 1000);
  }
  pqt_arena_reset(&ar);
  pqt_reader_close(r);
  check_verify(&out);
  pqt_string_free(&out);
}

static void test_type_order(void) {
  make_bits();
  pqt_string out = {0};
  write_file(&out, PQT_FLOAT_ORDER_TYPE, 0, 1);
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  const pqt_file_metadata *md = &r->md;
  CHECK(md->column_orders.n == 4 && md->row_groups.n == 3);
  if (md->column_orders.n == 4 && md->row_groups.n == 3) {
    for (int c = 0; c < 4; c++) CHECK_EQ_INT(md->column_orders.items[c].isset, 1u << PQT_ORDER_TYPE);
    const pqt_statistics *s0 = &md->row_groups.items[0].columns.items[0].meta_data.statistics;
    double mn, mx;
    memcpy(&mn, s0->min_value.ptr, 8);
    memcpy(&mx, s0->max_value.ptr, 8);
    CHECK(mn == -INFINITY && mx == 0 && !signbit(mx) && s0->nan_count == 5);
    /* all-NaN chunk: no bounds; chunk with an all-NaN page: no column index */
    const pqt_statistics *s1 = &md->row_groups.items[1].columns.items[0].meta_data.statistics;
    CHECK(!PQT_HAS_FIELD(s1, statistics, min_value) && !PQT_HAS_FIELD(s1, statistics, max_value));
    CHECK(s1->nan_count == 4);
    CHECK(!PQT_HAS_FIELD(&md->row_groups.items[0].columns.items[0], column_chunk, column_index_offset));
    /* zeros: min -0.0 written for a +0.0 */
    const pqt_statistics *s2 = &md->row_groups.items[2].columns.items[0].meta_data.statistics;
    memcpy(&mn, s2->min_value.ptr, 8);
    CHECK(mn == 0 && signbit(mn));
    const pqt_statistics *s3 = &md->row_groups.items[2].columns.items[3].meta_data.statistics;
    CHECK(!PQT_HAS_FIELD(s3, statistics, min_value)); /* INT96 without --int96-stats */
  }
  pqt_reader_close(r);
  check_verify(&out);
  pqt_string_free(&out);
}

static int64_t count_where(const pqt_string *buf, const char *text, int64_t *pruned) {
  pqt_reader *r = NULL;
  pqt_expr *x = NULL;
  pqt_error err;
  int64_t n = -1;
  pqt_scan_stats st;
  memset(&st, 0, sizeof st);
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, NULL, &err) != PQT_OK) return -2;
  if (pqt_expr_parse(text, strlen(text), &x, &err) == PQT_OK) {
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.filter = x;
    so.stats = &st;
    CHECK_OK(pqt_reader_count(r, &so, &n, &err));
  }
  if (pruned) *pruned += st.row_groups_pruned_stats;
  pqt_expr_free(x);
  pqt_reader_close(r);
  return n;
}

/* Every predicate counts the same rows in files with statistics in either
 * order as in the file without statistics (nothing to prune with). */
static void test_pruning_equals_brute_force(void) {
  make_bits();
  pqt_string plain = {0}, tot = {0}, typ = {0};
  write_file(&plain, PQT_FLOAT_ORDER_TYPE, 0, 0);
  write_file(&tot, PQT_FLOAT_ORDER_TOTAL, 1, 1);
  write_file(&typ, PQT_FLOAT_ORDER_TYPE, 0, 1);
  const char *cols[] = {"d", "f"};
  const char *ops[] = {"=", "!=", "<", "<=", ">", ">="};
  const char *lits[] = {"0", "-0.0", "2", "1", "3", "-1", "-5", "'NaN'", "'Infinity'", "'-Infinity'"};
  int64_t pruned = 0;
  int nq = 0;
  char q[96];
  for (size_t c = 0; c < 2; c++)
    for (size_t o = 0; o < 6; o++)
      for (size_t l = 0; l < sizeof lits / sizeof *lits; l++) {
        snprintf(q, sizeof q, "%s %s %s", cols[c], ops[o], lits[l]);
        int64_t want = count_where(&plain, q, NULL);
        if (want < 0) continue; /* a literal the parser does not take */
        nq++;
        int64_t a = count_where(&tot, q, &pruned), b = count_where(&typ, q, &pruned);
        CHECK_MSG(a == want && b == want, "%s: brute force %lld, total order %lld, type order %lld", q, (long long)want,
                  (long long)a, (long long)b);
      }
  CHECK(pruned > 0); /* statistics were used at all */
  fprintf(stderr, "pruning: %d queries, %lld row groups pruned\n", nq, (long long)pruned);
  pqt_string_free(&plain);
  pqt_string_free(&tot);
  pqt_string_free(&typ);
}

static void test_bad_option(void) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.float_column_order = 7;
  pqt_write_schema ws = {.struct_size = sizeof ws, .message = SCHEMA};
  pqt_writer *w = NULL;
  pqt_string out = {0};
  pqt_error e;
  CHECK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "float_column_order") != NULL);
  pqt_string_free(&out);
}

RUN_TESTS("column_order", TEST_CASE(test_total_order), TEST_CASE(test_type_order),
          TEST_CASE(test_pruning_equals_brute_force), TEST_CASE(test_bad_option))
