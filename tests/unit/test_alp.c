/* Unit tests for encoding/alp (ALP = 10, parquet-format AlpEncoding.md):
 * bit-exact round trips of doubles and floats of many shapes and sizes,
 * decoding of sub-ranges, rejection of hand-made bad pages, the spec's
 * worked example, and files written with encoding ALP through the library
 * writer (v1/v2 pages, nulls, a codec) read back equal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "encoding/alp.h"
#include "enc_test_util.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static double bits_d(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static float bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Encode, decode the whole page and a few sub-ranges; compare bits. Returns
 * the encoded size. */
static size_t roundtrip(const void *vals, size_t w, size_t n, const char *what) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_alp_encode(vals, w, n, &b, &e));
  uint8_t *span = enc_dup(b.data, b.len); /* exact size: ASan sees any overread */
  size_t len = b.len;
  pqt_alp_page pg;
  CHECK_OK(pqt_alp_page_init(&pg, span, len, w, &e));
  CHECK_EQ_INT(pg.n, n);
  uint8_t *out = malloc(n * w + 8);
  CHECK_OK(pqt_alp_decode(&pg, 0, n, out, &e));
  if (n && memcmp(out, vals, n * w) != 0) {
    size_t i = 0;
    while (memcmp(out + i * w, (const uint8_t *)vals + i * w, w) == 0) i++;
    CHECK_MSG(0, "%s: value %zu of %zu differs\n", what, i, n);
  }
  /* sub-ranges: odd starts and lengths across vector boundaries, and an unaligned output */
  size_t starts[] = {0, 1, 7, 1000, 1023, 1024, 1030, 5000};
  for (size_t s = 0; s < sizeof starts / sizeof *starts; s++) {
    size_t a = starts[s];
    if (a >= n) continue;
    size_t m = n - a < 2100 ? n - a : 2100;
    CHECK_OK(pqt_alp_decode(&pg, a, m, out + 1, &e));
    CHECK_MSG(memcmp(out + 1, (const uint8_t *)vals + a * w, m * w) == 0, "%s: range [%zu,+%zu)\n", what, a, m);
  }
  CHECK(pqt_alp_decode(&pg, n, 1, out, &e) == PQT_ECORRUPT);
  free(out);
  free(span);
  pqt_buf_free(&b);
  return len;
}

enum shape { SENSOR, INTEGERS, MIXED, CONSTANT, RANDOM_BITS, HUGE_SMALL, NEG_DECIMALS, WIDE_INTS, NEAR_2_52, SHAPES };

static double gen_d(enum shape s, size_t i, double *walk) {
  switch (s) {
    case SENSOR: *walk += (double)((int64_t)(enc_rand() % 201) - 100) / 100.0; return round(*walk * 100.0) / 100.0;
    case INTEGERS: return (double)(int64_t)(enc_rand() % 2000000) - 1000000.0;
    case MIXED: {
      static const uint64_t specials[] = {0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff8dead0000beefull,
                                          0x7ff0000000000000ull, 0xfff0000000000000ull, 0x8000000000000000ull,
                                          0x0000000000000001ull, 0x000fffffffffffffull, 0x8000000000000003ull,
                                          0x7fefffffffffffffull, 0xffefffffffffffffull, 0x0010000000000000ull};
      uint64_t r = enc_rand();
      if (r % 5 == 0) return bits_d(specials[(r >> 8) % (sizeof specials / sizeof *specials)]);
      if (r % 7 == 0) return 1e300 * (double)(r >> 40);
      return (double)(int64_t)(r % 100000) / 1000.0;
    }
    case CONSTANT: return 23.45;
    case RANDOM_BITS: return bits_d(enc_rand());
    case HUGE_SMALL: return i % 2 ? 9.2e18 + (double)(enc_rand() % 1000) * 4096.0 : -1e-300 * (double)(i % 17);
    case NEG_DECIMALS: return -(double)(enc_rand() % 1000000) / 1e4;
    /* integers up to +-2^60 (multiples of 1024, exact): bit widths above 32 */
    case WIDE_INTS: return (double)(((int64_t)(enc_rand() >> 4) - ((int64_t)1 << 59)) & ~(int64_t)1023);
    /* small deltas over a frame beyond 2^51: the decoder's general conversion */
    case NEAR_2_52: return 3e15 + (double)(enc_rand() % 1000);
    default: return 0;
  }
}

static void test_roundtrip_doubles(void) {
  size_t sizes[] = {0, 1, 2, 7, 8, 9, 1023, 1024, 1025, 3000, 100000};
  for (int s = 0; s < SHAPES; s++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      size_t n = sizes[k];
      enc_seed(1000 * (uint64_t)s + k);
      double *v = malloc((n ? n : 1) * 8), walk = 20.0;
      for (size_t i = 0; i < n; i++) v[i] = gen_d((enum shape)s, i, &walk);
      char what[64];
      snprintf(what, sizeof what, "double shape %d n %zu", s, n);
      size_t len = roundtrip(v, 8, n, what);
      if (s == SENSOR && n == 100000) CHECK_MSG(len < n * 8 / 3, "sensor doubles: %zu bytes for %zu values\n", len, n);
      if (s == CONSTANT && n == 100000) CHECK_MSG(len < 2000, "constant doubles: %zu bytes\n", len);
      if ((s == WIDE_INTS || s == NEAR_2_52) && n == 100000)
        CHECK_MSG(len < n * 8, "shape %d: %zu bytes for %zu values: not ALP-encoded\n", s, len, n);
      free(v);
    }
}

static void test_roundtrip_floats(void) {
  size_t sizes[] = {0, 1, 1023, 1024, 1025, 100000};
  for (int s = 0; s < SHAPES; s++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      size_t n = sizes[k];
      enc_seed(77 + 1000 * (uint64_t)s + k);
      float *v = malloc((n ? n : 1) * 4);
      double walk = 20.0;
      for (size_t i = 0; i < n; i++) {
        if (s == RANDOM_BITS) v[i] = bits_f((uint32_t)enc_rand());
        else if (s == MIXED && i % 9 == 0) v[i] = bits_f(i % 2 ? 0x7fc01234u : 0x80000000u);
        else v[i] = (float)gen_d((enum shape)s, i, &walk);
      }
      char what[64];
      snprintf(what, sizeof what, "float shape %d n %zu", s, n);
      size_t len = roundtrip(v, 4, n, what);
      if (s == SENSOR && n == 100000)
        CHECK_MSG(len < n * 4 * 2 / 3, "sensor floats: %zu bytes for %zu values\n", len, n);
      free(v);
    }
}

/* Every exception kind at once in one vector, in every position. */
static void test_specials_every_position(void) {
  double v[64];
  uint64_t sp[] = {0x7ff8000000000001ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                   0x0000000000000001ull};
  for (size_t k = 0; k < 5; k++)
    for (size_t p = 0; p < 64; p++) {
      for (size_t i = 0; i < 64; i++) v[i] = (double)i * 0.25;
      v[p] = bits_d(sp[k]);
      roundtrip(v, 8, 64, "special");
    }
  /* all exceptions */
  for (size_t i = 0; i < 64; i++) v[i] = bits_d(0x7ff8000000000000ull | i);
  roundtrip(v, 8, 64, "all NaN");
}

/* The spec's worked example (e=4, f=3; a NaN exception): decodes as written there. */
static void test_spec_example(void) {
  uint8_t page[7 + 4 + 31];
  memset(page, 0, sizeof page);
  page[2] = 10;
  pqt_store_u32le(page + 3, 4);
  pqt_store_u32le(page + 7, 4); /* offset of vector 0 */
  uint8_t *p = page + 11;
  p[0] = 4, p[1] = 3, p[2] = 1, p[3] = 0;
  pqt_store_u64le(p + 4, 3335);
  p[12] = 15;
  uint64_t d[4] = {11665, 11665, 21665, 0}, acc = 0;
  for (int i = 0; i < 4; i++) acc |= d[i] << (15 * i);
  pqt_store_u64le(p + 13, acc);
  pqt_store_u32le(p + 21, 1); /* position 1 (uint16) */
  pqt_store_u64le(p + 23, 0x7ff8000000000000ull);
  pqt_alp_page pg;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_alp_page_init(&pg, page, sizeof page, 8, &e));
  double out[4];
  CHECK_OK(pqt_alp_decode(&pg, 0, 4, out, &e));
  CHECK(out[0] == 1500.0);
  CHECK(isnan(out[1]));
  CHECK(out[2] == 2500.0);
  CHECK(out[3] == 333.5);
}

/* A good page of 2000 sensor doubles with some exceptions, to break. */
static void make_good(pqt_buf *b) {
  double v[2000], walk = 10;
  enc_seed(5);
  for (int i = 0; i < 2000; i++) v[i] = i % 100 == 3 ? NAN : gen_d(SENSOR, (size_t)i, &walk);
  pqt_buf_init(b, NULL);
  pqt_alp_encode(v, 8, 2000, b, NULL);
}

static pqt_status try_decode(const uint8_t *p, size_t len, size_t w, pqt_error *e) {
  uint8_t *span = enc_dup(p, len);
  pqt_alp_page pg;
  pqt_status st = pqt_alp_page_init(&pg, span, len, w, e);
  if (st == PQT_OK) {
    double *out = malloc(pg.n * 8 + 8);
    st = pqt_alp_decode(&pg, 0, pg.n, out, e);
    free(out);
  }
  free(span);
  return st;
}

static void expect_corrupt(const uint8_t *p, size_t len, size_t w, const char *needle) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = try_decode(p, len, w, &e);
  CHECK_MSG(st == PQT_ECORRUPT, "expected ECORRUPT (%s), got %d\n", needle, (int)st);
  CHECK_MSG(strstr(e.message, needle) != NULL, "message \"%s\" lacks \"%s\"\n", e.message, needle);
}

static void test_bad_pages(void) {
  pqt_buf g;
  make_good(&g);
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(try_decode(g.data, g.len, 8, &e));
  uint8_t *c = malloc(g.len);
  size_t v0 = 7 + 8; /* two vectors: vector 0 starts after the offsets */
  CHECK_EQ_INT(pqt_load_u32le(g.data + 7), 8);
#define MUT(stmt, needle)                \
  do {                                   \
    memcpy(c, g.data, g.len);            \
    stmt;                                \
    expect_corrupt(c, g.len, 8, needle); \
  } while (0)
  /* every truncation fails cleanly */
  for (size_t l = 0; l < g.len; l++) {
    pqt_status st = try_decode(g.data, l, 8, &e);
    CHECK_MSG(st == PQT_ECORRUPT, "truncated to %zu of %zu: %d\n", l, g.len, (int)st);
  }
  MUT(c[0] = 1, "compression mode");
  MUT(c[1] = 2, "integer encoding");
  MUT(c[2] = 2, "vector size");
  MUT(c[2] = 16, "vector size");
  MUT(pqt_store_u32le(c + 3, 0x80000000u), "negative");
  MUT(pqt_store_u32le(c + 3, 100000000u), "offsets");
  MUT(pqt_store_u32le(c + 7, 4), "offset");
  MUT(pqt_store_u32le(c + 11, (uint32_t)g.len), "offset");
  MUT(c[v0] = 19, "exponent");
  MUT((c[v0] = 5, c[v0 + 1] = 6), "factor");
  MUT(c[v0 + 12] = 65, "bit width");
  MUT((c[v0 + 2] = 0x01, c[v0 + 3] = 0x04), "exceptions for"); /* 1025 > 1024 values */
  {
    /* exception position out of range: find vector 0's first position */
    memcpy(c, g.data, g.len);
    size_t bw = c[v0 + 12];
    size_t pos = v0 + 13 + (1024 * bw + 7) / 8;
    CHECK(pqt_load_u16le(c + v0 + 2) > 0);
    c[pos] = 0x00, c[pos + 1] = 0x04; /* 1024 */
    expect_corrupt(c, g.len, 8, "position");
  }
  /* a float page: exponent above 10 */
  float f[10] = {1.5f, 2.25f, 3, 4, 5, 6, 7, 8, 9, 10};
  pqt_buf fb;
  pqt_buf_init(&fb, NULL);
  CHECK_OK(pqt_alp_encode(f, 4, 10, &fb, &e));
  CHECK_OK(try_decode(fb.data, fb.len, 4, &e));
  uint8_t *fc = enc_dup(fb.data, fb.len);
  fc[11] = 11;
  expect_corrupt(fc, fb.len, 4, "exponent");
  memcpy(fc, fb.data, fb.len);
  fc[11 + 8] = 33;
  expect_corrupt(fc, fb.len, 4, "bit width");
  free(fc);
  pqt_buf_free(&fb);
#undef MUT
  free(c);
  pqt_buf_free(&g);
}

/* ---- through the file writer and reader ----------------------------------- */

static pqt_status collect_text(void *ctx, const char *data, size_t len) {
  pqt_buf *b = ctx;
  return pqt_buf_append(b, data, len, NULL);
}

static void file_roundtrip(int page_version, int nulls, int32_t codec) {
  const int64_t rows = 30000;
  const char *text = "message m {\n  optional double d;\n  optional float f;\n}\n";
  double *d = malloc((size_t)rows * 8);
  float *f = malloc((size_t)rows * 4);
  int16_t *def = malloc((size_t)rows * 2);
  int64_t nv = 0;
  double walk = 50;
  enc_seed((uint64_t)(page_version * 10 + nulls + codec * 100));
  for (int64_t i = 0; i < rows; i++) {
    def[i] = (int16_t)(nulls && i % 5 == 2 ? 0 : 1);
    if (def[i]) {
      double x = gen_d(SENSOR, (size_t)i, &walk);
      if (i % 997 == 0) x = bits_d(0x7ff80000000000aaull);
      if (i % 1999 == 0) x = -0.0;
      d[nv] = x;
      f[nv] = (float)x;
      nv++;
    }
  }
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.encoding = PQT_ENCODING_ALP;
  o.defaults.dictionary = 0;
  o.defaults.page_version = page_version;
  o.defaults.codec = codec;
  o.defaults.page_row_limit = 7000; /* several pages */
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  CHECK_OK(pqt_writer_write_column(w, 0, rows, def, NULL, d, NULL, nv, &e));
  CHECK_OK(pqt_writer_write_column(w, 1, rows, def, NULL, f, NULL, nv, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  pqt_buf js;
  pqt_buf_init(&js, NULL);
  pqt_string jss = {0};
  CHECK_OK(pqt_reader_metadata_json(r, 0, &jss, &e));
  CHECK_MSG(jss.data && strstr(jss.data, "\"ALP\"") != NULL, "metadata names no ALP encoding\n");
  pqt_string_free(&jss);
  pqt_buf_free(&js);
  struct ArrowArrayStream st;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  CHECK_OK(pqt_reader_get_stream(r, &so, &st, &e));
  int64_t row = 0, k = 0;
  struct ArrowArray a;
  while (st.get_next(&st, &a) == 0 && a.release) {
    const struct ArrowArray *cd = a.children[0], *cf = a.children[1];
    const uint8_t *valid = cd->buffers[0];
    const double *dv = cd->buffers[1];
    const float *fv = cf->buffers[1];
    for (int64_t i = 0; i < a.length; i++, row++) {
      int64_t j = i + cd->offset;
      bool present = !valid || (valid[j / 8] >> (j % 8) & 1);
      CHECK_MSG(present == (def[row] == 1), "row %lld: null mismatch\n", (long long)row);
      if (present && def[row] == 1) {
        if (memcmp(&dv[j], &d[k], 8) != 0 || memcmp(&fv[i + cf->offset], &f[k], 4) != 0) {
          CHECK_MSG(0, "row %lld differs (v%d nulls %d codec %d)\n", (long long)row, page_version, nulls, codec);
          row = rows;
          break;
        }
        k++;
      }
    }
    a.release(&a);
    if (row >= rows) break;
  }
  CHECK_EQ_INT(k, nv);
  st.release(&st);
  pqt_reader_close(r);
  pqt_string_free(&out);
  free(d);
  free(f);
  free(def);
  (void)collect_text;
}

static void test_file_roundtrip(void) {
  file_roundtrip(1, 0, PQT_CODEC_UNCOMPRESSED);
  file_roundtrip(1, 1, PQT_CODEC_ZSTD);
  file_roundtrip(2, 0, PQT_CODEC_SNAPPY);
  file_roundtrip(2, 1, PQT_CODEC_ZSTD);
}

/* ALP is never chosen unless asked for, and only for FLOAT/DOUBLE. */
static void test_not_default(void) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  CHECK(o.defaults.encoding != PQT_ENCODING_ALP);
  const char *text = "message m {\n  required int64 x;\n}\n";
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  pqt_column_override ov = {"x", o.defaults};
  ov.options.encoding = PQT_ENCODING_ALP;
  o.columns = &ov;
  o.n_columns = 1;
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e) == PQT_EINVAL);
  pqt_string_free(&out);
  /* default options on a double column: no ALP in the file */
  const char *t2 = "message m {\n  required double x;\n}\n";
  pqt_write_schema ws2 = {.struct_size = sizeof(pqt_write_schema), .message = t2};
  double v[3] = {1.5, 2.5, 3.5};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws2, NULL, &e));
  CHECK_OK(pqt_writer_write_column(w, 0, 3, NULL, NULL, v, NULL, 3, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  pqt_string js = {0};
  CHECK_OK(pqt_reader_metadata_json(r, 0, &js, &e));
  CHECK(js.data && strstr(js.data, "\"ALP\"") == NULL);
  pqt_string_free(&js);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

RUN_TESTS("alp", TEST_CASE(test_roundtrip_doubles), TEST_CASE(test_roundtrip_floats),
          TEST_CASE(test_specials_every_position), TEST_CASE(test_spec_example), TEST_CASE(test_bad_pages),
          TEST_CASE(test_file_roundtrip), TEST_CASE(test_not_default))
