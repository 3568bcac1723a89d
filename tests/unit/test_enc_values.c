/* Unit tests for src/encoding plain.c, delta_binary_packed.c,
 * delta_length_byte_array.c, delta_byte_array.c, byte_stream_split.c: the
 * spec's examples byte for byte, wrap-around deltas, batches, padding,
 * truncation at every byte, offsets overflow. */
#include <limits.h>

#include "core/core.h"
#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/dictionary.h"
#include "encoding/plain.h"
#include "enc_test_util.h"
#include "harness.h"

/* ---- PLAIN ---- */

static void test_plain_fixed_and_bool(void) {
  const uint8_t raw[8] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  int32_t o[2];
  size_t used;
  CHECK_OK(pqt_plain_decode_fixed(raw, 8, 4, o, 2, &used, NULL));
  CHECK(o[0] == 1 && o[1] == -1 && used == 8);
  CHECK(pqt_plain_decode_fixed(raw, 7, 4, o, 2, &used, NULL) == PQT_ECORRUPT);
  CHECK(pqt_plain_decode_fixed(raw, 8, 12, o, SIZE_MAX / 4, &used, NULL) == PQT_ECORRUPT);
  /* booleans: 0b10110101 0b1 */
  const uint8_t bits[2] = {0xB5, 0x01};
  uint8_t bytes[9], bm[3] = {0xFF, 0xFF, 0xFF};
  CHECK_OK(pqt_plain_decode_bool_bytes(bits, 2, 0, bytes, 9, &used, NULL));
  const uint8_t exp[9] = {1, 0, 1, 0, 1, 1, 0, 1, 1};
  CHECK(memcmp(bytes, exp, 9) == 0 && used == 2);
  CHECK_OK(pqt_plain_decode_bool_bytes(bits, 2, 3, bytes, 6, &used, NULL));
  CHECK(memcmp(bytes, exp + 3, 6) == 0);
  CHECK(pqt_plain_decode_bool_bytes(bits, 2, 3, bytes, 14, &used, NULL) == PQT_ECORRUPT);
  CHECK_OK(pqt_plain_decode_bool_bitmap(bits, 2, 1, bm, 5, 8, &used, NULL));
  for (int i = 0; i < 8; i++) CHECK_EQ_INT((bm[(5 + i) >> 3] >> ((5 + i) & 7)) & 1, exp[1 + i]);
  CHECK_EQ_INT(bm[0] & 0x1f, 0x1f);
  CHECK_EQ_INT(bm[1] & 0xE0, 0xE0);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_plain_encode_bool_bytes(exp, 9, &b, NULL));
  CHECK(b.len == 2 && b.data[0] == 0xB5 && b.data[1] == 0x01);
  pqt_buf_clear(&b);
  CHECK_OK(pqt_plain_encode_bool_bitmap(bits, 1, 8, &b, NULL));
  CHECK(b.len == 1 && b.data[0] == 0xDA);
  pqt_buf_free(&b);
  /* random bit copies against a reference */
  enc_seed(11);
  uint8_t src[40], dst[40], ref[40];
  for (int t = 0; t < 2000; t++) {
    for (int i = 0; i < 40; i++) src[i] = (uint8_t)enc_rand(), dst[i] = ref[i] = (uint8_t)enc_rand();
    size_t sb = enc_rand() % 64, db = enc_rand() % 64, n = enc_rand() % 250;
    for (size_t i = 0; i < n; i++) {
      unsigned v = (src[(sb + i) >> 3] >> ((sb + i) & 7)) & 1;
      size_t d = db + i;
      ref[d >> 3] = (uint8_t)((ref[d >> 3] & ~(1u << (d & 7))) | (v << (d & 7)));
    }
    pqt_copy_bits(src, sb, dst, db, n);
    CHECK(memcmp(dst, ref, 40) == 0);
  }
}

static void test_plain_byte_array(void) {
  const int32_t offs[4] = {0, 5, 5, 11};
  const uint8_t *data = (const uint8_t *)"Hello World!";
  pqt_buf enc, out;
  pqt_buf_init(&enc, NULL);
  pqt_buf_init(&out, NULL);
  CHECK_OK(pqt_plain_encode_byte_array(offs, data, 3, &enc, NULL));
  CHECK_EQ_INT(enc.len, 12 + 11);
  CHECK(memcmp(enc.data, "\x05\0\0\0Hello\0\0\0\0\x06\0\0\0 World", 23) == 0);
  int32_t o[8];
  size_t used;
  CHECK_OK(pqt_buf_append(&out, "xy", 2, NULL)); /* appending after earlier data */
  CHECK_OK(pqt_plain_decode_byte_array(enc.data, enc.len, o, &out, 3, &used, NULL));
  CHECK(o[0] == 2 && o[1] == 7 && o[2] == 7 && o[3] == 13 && used == 23);
  CHECK(out.len == 13 && memcmp(out.data, "xyHello World", 13) == 0);
  uint32_t st[3];
  int32_t ln[3];
  CHECK_OK(pqt_plain_scan_byte_array(enc.data, enc.len, st, ln, 3, &used, NULL));
  CHECK(st[0] == 4 && ln[0] == 5 && st[2] == 17 && ln[2] == 6);
  /* truncated at every byte: always an error, out untouched */
  for (size_t cut = 0; cut < enc.len; cut++) {
    uint8_t *in = enc_dup(enc.data, cut);
    out.len = 0;
    CHECK_MSG(pqt_plain_decode_byte_array(in, cut, o, &out, 3, &used, NULL) == PQT_ECORRUPT, "cut %zu", cut);
    CHECK(out.len == 0);
    CHECK(pqt_plain_scan_byte_array(in, cut, st, ln, 3, &used, NULL) == PQT_ECORRUPT);
    free(in);
  }
  /* a length near 4 GiB */
  const uint8_t huge[8] = {0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4};
  CHECK(pqt_plain_decode_byte_array(huge, 8, o, &out, 1, &used, NULL) == PQT_ECORRUPT);
  /* offsets overflow: data already near INT32_MAX (fails before writing) */
  pqt_buf fake = {NULL, (size_t)INT32_MAX - 2, 0, NULL, PQT_OK};
  CHECK(pqt_plain_decode_byte_array(enc.data, enc.len, o, &fake, 1, &used, NULL) == PQT_ECORRUPT);
  pqt_buf_free(&enc);
  pqt_buf_free(&out);
}

/* PLAIN BYTE_ARRAY: values of every length class the decoder copies
 * differently (<= 48 bytes, longer, near the end of the page), read from an
 * exact-size buffer so that any read past the page is caught by ASan; then
 * corrupt lengths: a value that fits the page but leaves no room for the
 * lengths after it must be reported as before (by the value that fails). */
static void test_plain_byte_array_random(void) {
  enc_seed(4242);
  for (int iter = 0; iter < 300; iter++) {
    size_t n = (size_t)(enc_rand() % 60);
    int32_t *offs = malloc((n + 1) * sizeof(int32_t));
    uint8_t *vals = malloc(n * 200 + 1);
    offs[0] = 0;
    for (size_t i = 0; i < n; i++) {
      size_t l = enc_rand() % 4 == 0 ? (size_t)(enc_rand() % 200) : (size_t)(enc_rand() % 50);
      for (size_t k = 0; k < l; k++) vals[offs[i] + k] = (uint8_t)enc_rand();
      offs[i + 1] = offs[i] + (int32_t)l;
    }
    pqt_buf enc, out;
    pqt_buf_init(&enc, NULL);
    pqt_buf_init(&out, NULL);
    CHECK_OK(pqt_plain_encode_byte_array(offs, vals, n, &enc, NULL));
    uint8_t *in = enc_dup(enc.data, enc.len);
    int32_t *o = malloc((n + 1) * sizeof(int32_t));
    size_t used = 0;
    CHECK_OK(pqt_buf_append(&out, "abc", 3, NULL));
    CHECK_OK(pqt_plain_decode_byte_array(in, enc.len, o, &out, n, &used, NULL));
    CHECK(used == enc.len);
    CHECK(out.len == 3 + (size_t)offs[n]);
    CHECK(memcmp(out.data, "abc", 3) == 0);
    CHECK(n == 0 || memcmp(out.data + 3, vals, (size_t)offs[n]) == 0);
    for (size_t i = 0; i <= n; i++) CHECK(o[i] == offs[i] + 3);
    /* one length raised so that the value still fits the page but the
     * lengths after it do not: an error, nothing appended */
    if (n >= 2) {
      size_t i = (size_t)(enc_rand() % (n - 1)), pos = 4 * i + (size_t)offs[i];
      size_t left = enc.len - pos - 4;
      uint32_t l = (uint32_t)(left - (enc_rand() % 4));
      memcpy(in + pos, &l, 4);
      out.len = 0;
      pqt_error e;
      pqt_error_init(&e);
      CHECK(pqt_plain_decode_byte_array(in, enc.len, o, &out, n, &used, &e) == PQT_ECORRUPT);
      CHECK(out.len == 0);
      CHECK(strstr(e.message, "PLAIN BYTE_ARRAY: value") != NULL);
    }
    free(in);
    free(o);
    free(offs);
    free(vals);
    pqt_buf_free(&enc);
    pqt_buf_free(&out);
  }
}

/* ---- DELTA_BINARY_PACKED ---- */

/* Spec example 1 (1..5) with a valid block size (128, 1 miniblock). */
static void test_delta_spec_example1(void) {
  const uint8_t raw[] = {0x80, 0x01, 0x01, 0x05, 0x02, 0x02, 0x00};
  uint8_t *in = enc_dup(raw, sizeof raw);
  int32_t o[5];
  size_t used = 0;
  CHECK_OK(pqt_delta_bp_decode_i32(in, sizeof raw, o, 5, &used, NULL));
  for (int i = 0; i < 5; i++) CHECK_EQ_INT(o[i], i + 1);
  CHECK_EQ_INT(used, sizeof raw);
  free(in);
  /* the spec's literal block size 8 is invalid ("in real cases it would be
   * invalid"): rejected */
  const uint8_t spec8[] = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
  CHECK(pqt_delta_bp_decode_i32(spec8, sizeof spec8, o, 5, &used, NULL) == PQT_ECORRUPT);
}

/* Spec example 2 (7,5,3,1,2,3,4,5): min delta -2, width 2. */
static void test_delta_spec_example2(void) {
  uint8_t raw[7 + 32] = {0x80, 0x01, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F};
  const int64_t exp[8] = {7, 5, 3, 1, 2, 3, 4, 5};
  int64_t o[8];
  size_t used = 0;
  uint8_t *in = enc_dup(raw, sizeof raw); /* with the miniblock's padding */
  CHECK_OK(pqt_delta_bp_decode_i64(in, sizeof raw, o, 8, &used, NULL));
  CHECK(memcmp(o, exp, sizeof exp) == 0);
  CHECK_EQ_INT(used, sizeof raw);
  free(in);
  in = enc_dup(raw, 9); /* padding missing at the end of the span: tolerated */
  CHECK_OK(pqt_delta_bp_decode_i64(in, 9, o, 8, &used, NULL));
  CHECK(memcmp(o, exp, sizeof exp) == 0);
  CHECK_EQ_INT(used, 9);
  free(in);
  in = enc_dup(raw, 8); /* a needed value missing */
  CHECK(pqt_delta_bp_decode_i64(in, 8, o, 8, &used, NULL) == PQT_ECORRUPT);
  free(in);
  /* our encoder produces the same values (4 miniblocks of 32) */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_delta_bp_encode_i64(exp, 8, &b, NULL));
  const uint8_t want[] = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00, 0xC0, 0x3F};
  CHECK(b.len == sizeof want + 6 && memcmp(b.data, want, sizeof want) == 0);
  pqt_buf_free(&b);
}

static void test_delta_invalid_headers(void) {
  int32_t o[40];
  size_t used;
  /* INT32 with a 33-bit miniblock, as DuckDB writes deltas computed in 64
   * bits: 0, INT32_MAX, INT32_MIN (deltas 2^31-1 and -(2^32-1)). Read
   * modulo 2^32; a 33-bit miniblock with its bytes missing is corrupt. */
  const uint8_t w33[] = {
      0x80, 0x01, 0x04, 0x03, 0x00, 0xFD, 0xFF, 0xFF, 0xFF, 0x1F, 0x21, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0xFF, 0x7F, 0x01,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  CHECK_OK(pqt_delta_bp_decode_i32(w33, sizeof w33, o, 3, &used, NULL));
  CHECK(o[0] == 0 && o[1] == INT32_MAX && o[2] == INT32_MIN);
  const uint8_t w33_short[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 33, 0, 0, 0};
  CHECK(pqt_delta_bp_decode_i32(w33_short, sizeof w33_short, o, 3, &used, NULL) == PQT_ECORRUPT);
  const uint8_t w65[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 65, 0, 0, 0};
  CHECK(pqt_delta_bp_decode_i32(w65, sizeof w65, o, 3, &used, NULL) == PQT_ECORRUPT);
  /* unused miniblocks may carry garbage widths */
  const uint8_t garbage[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x02, 0x00, 200, 201, 202};
  CHECK_OK(pqt_delta_bp_decode_i32(garbage, sizeof garbage, o, 3, &used, NULL));
  CHECK(o[0] == 0 && o[1] == 1 && o[2] == 2 && used == sizeof garbage);
  /* miniblock size not a multiple of 32 (128 / 8 = 16) */
  const uint8_t mb16[] = {0x80, 0x01, 0x08, 0x01, 0x00};
  CHECK(pqt_delta_bp_decode_i32(mb16, sizeof mb16, o, 1, &used, NULL) == PQT_ECORRUPT);
  const uint8_t mb0[] = {0x80, 0x01, 0x00, 0x01, 0x00};
  CHECK(pqt_delta_bp_decode_i32(mb0, sizeof mb0, o, 1, &used, NULL) == PQT_ECORRUPT);
  /* more values requested than the header has */
  CHECK(pqt_delta_bp_decode_i32(garbage, sizeof garbage, o, 4, &used, NULL) == PQT_ECORRUPT);
  /* a huge claimed count decodes only what is asked; the rest is missing */
  const uint8_t huge[] = {0x80, 0x01, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00};
  CHECK_OK(pqt_delta_bp_decode_i32(huge, sizeof huge, o, 1, NULL, NULL));
  CHECK(pqt_delta_bp_decode_i32(huge, sizeof huge, o, 2, NULL, NULL) == PQT_ECORRUPT);
  CHECK(pqt_delta_bp_decode_i32(huge, sizeof huge, o, 1, &used, NULL) == PQT_ECORRUPT);
  /* zero values, and one value (no blocks) */
  const uint8_t zero[] = {0x80, 0x01, 0x04, 0x00, 0x00};
  CHECK_OK(pqt_delta_bp_decode_i32(zero, sizeof zero, o, 0, &used, NULL));
  CHECK_EQ_INT(used, 5);
  const uint8_t one[] = {0x80, 0x01, 0x04, 0x01, 0x03};
  CHECK_OK(pqt_delta_bp_decode_i32(one, sizeof one, o, 1, &used, NULL));
  CHECK(o[0] == -2 && used == 5);
}

static void check_delta_roundtrip64(const int64_t *v, size_t n, const char *what) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_delta_bp_encode_i64(v, n, &b, NULL));
  uint8_t *in = enc_dup(b.data, b.len);
  int64_t *o = malloc((n ? n : 1) * 8);
  pqt_delta_bp_decoder d;
  CHECK_OK(pqt_delta_bp_init(&d, in, b.len, false, NULL));
  size_t i = 0;
  while (i < n) {
    size_t k = 1 + enc_rand() % 100;
    if (k > n - i) k = n - i;
    CHECK_OK(pqt_delta_bp_get_i64(&d, o + i, k, NULL));
    i += k;
  }
  size_t used = 0;
  CHECK_OK(pqt_delta_bp_finish(&d, &used, in, NULL));
  CHECK_MSG(used == b.len, "%s: consumed %zu of %zu", what, used, b.len);
  CHECK_MSG(n == 0 || memcmp(o, v, n * 8) == 0, "%s", what);
  free(o);
  free(in);
  pqt_buf_free(&b);
}

static void check_delta_roundtrip32(const int32_t *v, size_t n, const char *what) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_delta_bp_encode_i32(v, n, &b, NULL));
  uint8_t *in = enc_dup(b.data, b.len);
  int32_t *o = malloc((n ? n : 1) * 4);
  pqt_delta_bp_decoder d;
  CHECK_OK(pqt_delta_bp_init(&d, in, b.len, true, NULL));
  size_t i = 0;
  while (i < n) {
    size_t k = 1 + enc_rand() % 100;
    if (k > n - i) k = n - i;
    CHECK_OK(pqt_delta_bp_get_i32(&d, o + i, k, NULL));
    i += k;
  }
  size_t used = 0;
  CHECK_OK(pqt_delta_bp_finish(&d, &used, in, NULL));
  CHECK_MSG(used == b.len, "%s: consumed %zu of %zu", what, used, b.len);
  CHECK_MSG(n == 0 || memcmp(o, v, n * 4) == 0, "%s", what);
  /* all widths are <= 32 for INT32 (the decoder would reject otherwise) */
  free(o);
  free(in);
  pqt_buf_free(&b);
}

static void test_delta_roundtrip(void) {
  enc_seed(21);
  static int64_t v[5000];
  static int32_t w[5000];
  const size_t ns[] = {0, 1, 2, 31, 32, 33, 128, 129, 130, 500, 4999};
  for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
    size_t n = ns[t];
    for (unsigned bits = 0; bits <= 64; bits += 4) {
      for (size_t i = 0; i < n; i++) v[i] = (int64_t)enc_rand_bits(bits);
      check_delta_roundtrip64(v, n, "random64");
      for (size_t i = 0; i < n; i++) w[i] = (int32_t)enc_rand_bits(bits > 32 ? 32 : bits);
      check_delta_roundtrip32(w, n, "random32");
    }
    for (size_t i = 0; i < n; i++) v[i] = i % 2 ? INT64_MAX : INT64_MIN;
    check_delta_roundtrip64(v, n, "alternating extremes 64");
    for (size_t i = 0; i < n; i++) w[i] = i % 2 ? INT32_MAX : INT32_MIN;
    check_delta_roundtrip32(w, n, "alternating extremes 32");
    for (size_t i = 0; i < n; i++) v[i] = (int64_t)(i * 1000003u) - 7;
    check_delta_roundtrip64(v, n, "sorted");
    for (size_t i = 0; i < n; i++) w[i] = (int32_t)(i % 3 == 0 ? INT32_MIN : (int32_t)enc_rand());
    check_delta_roundtrip32(w, n, "mixed32");
  }
}

/* Truncation at every byte: an error, or (only when the cut falls in the
 * last miniblock's padding) the right values. Full miniblocks: always error. */
static void test_delta_truncation(void) {
  enc_seed(22);
  int64_t v[129], o[129];
  for (int i = 0; i < 129; i++) v[i] = (int64_t)enc_rand();
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_delta_bp_encode_i64(v, 129, &b, NULL)); /* 128 deltas: no padding */
  for (size_t cut = 0; cut < b.len; cut++) {
    uint8_t *in = enc_dup(b.data, cut);
    CHECK_MSG(pqt_delta_bp_decode_i64(in, cut, o, 129, NULL, NULL) == PQT_ECORRUPT, "cut %zu", cut);
    free(in);
  }
  pqt_buf_clear(&b);
  CHECK_OK(pqt_delta_bp_encode_i64(v, 100, &b, NULL));
  for (size_t cut = 0; cut < b.len; cut++) {
    uint8_t *in = enc_dup(b.data, cut);
    if (pqt_delta_bp_decode_i64(in, cut, o, 100, NULL, NULL) == PQT_OK)
      CHECK_MSG(memcmp(o, v, 100 * 8) == 0, "cut %zu", cut);
    free(in);
  }
  pqt_buf_free(&b);
}

/* ---- DELTA_LENGTH_BYTE_ARRAY ---- */

static void test_delta_length_spec(void) {
  const char *s = "HelloWorldFoobarABCDEF";
  const int32_t offs[5] = {0, 5, 10, 16, 22};
  pqt_buf b, data;
  pqt_buf_init(&b, NULL);
  pqt_buf_init(&data, NULL);
  CHECK_OK(pqt_delta_length_encode(offs, (const uint8_t *)s, 4, &b, NULL));
  /* DeltaEncoding(5, 5, 6, 6): first 5, deltas 0,1,0, min 0, width 1 */
  const uint8_t want[] = {0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00};
  CHECK(b.len == sizeof want + 22 && memcmp(b.data, want, sizeof want) == 0);
  CHECK(memcmp(b.data + sizeof want, s, 22) == 0);
  uint8_t *in = enc_dup(b.data, b.len);
  int32_t o[5];
  size_t used;
  CHECK_OK(pqt_delta_length_decode(in, b.len, o, &data, 4, &used, NULL));
  CHECK(memcmp(o, offs, sizeof offs) == 0 && used == b.len);
  CHECK(data.len == 22 && memcmp(data.data, s, 22) == 0);
  for (size_t cut = 0; cut < b.len; cut++) {
    uint8_t *t = enc_dup(b.data, cut);
    data.len = 0;
    CHECK_MSG(pqt_delta_length_decode(t, cut, o, &data, 4, &used, NULL) == PQT_ECORRUPT, "cut %zu", cut);
    free(t);
  }
  /* a negative length */
  pqt_buf_clear(&b);
  const int32_t neg[3] = {4, -1, 0};
  CHECK_OK(pqt_delta_bp_encode_i32(neg, 3, &b, NULL));
  CHECK_OK(pqt_buf_append(&b, "abcd", 4, NULL));
  CHECK(pqt_delta_length_decode(b.data, b.len, o, &data, 3, &used, NULL) == PQT_ECORRUPT);
  free(in);
  pqt_buf_free(&b);
  pqt_buf_free(&data);
}

/* ---- DELTA_BYTE_ARRAY ---- */

static void test_delta_byte_array_spec(void) {
  const char *s = "axisaxlebabblebabyhood";
  const int32_t offs[5] = {0, 4, 8, 14, 22};
  pqt_buf b, data;
  pqt_buf_init(&b, NULL);
  pqt_buf_init(&data, NULL);
  CHECK_OK(pqt_delta_byte_array_encode(offs, (const uint8_t *)s, 4, &b, NULL));
  /* DeltaEncoding(0, 2, 0, 3), DeltaEncoding(4, 2, 6, 5), "axislebabbleyhood" */
  int32_t pl[4], sl[4];
  size_t used1, used2;
  CHECK_OK(pqt_delta_bp_decode_i32(b.data, b.len, pl, 4, &used1, NULL));
  CHECK(pl[0] == 0 && pl[1] == 2 && pl[2] == 0 && pl[3] == 3);
  CHECK_OK(pqt_delta_bp_decode_i32(b.data + used1, b.len - used1, sl, 4, &used2, NULL));
  CHECK(sl[0] == 4 && sl[1] == 2 && sl[2] == 6 && sl[3] == 5);
  CHECK(b.len - used1 - used2 == 17 && memcmp(b.data + used1 + used2, "axislebabbleyhood", 17) == 0);
  pqt_delta_byte_array_state st;
  pqt_delta_byte_array_state_init(&st, NULL);
  int32_t o[5];
  size_t used;
  uint8_t *in = enc_dup(b.data, b.len);
  CHECK_OK(pqt_delta_byte_array_decode(&st, in, b.len, 0, o, &data, 4, &used, NULL));
  CHECK(memcmp(o, offs, sizeof offs) == 0 && used == b.len);
  CHECK(data.len == 22 && memcmp(data.data, s, 22) == 0);
  /* truncation at every byte */
  for (size_t cut = 0; cut < b.len; cut++) {
    uint8_t *t = enc_dup(b.data, cut);
    pqt_delta_byte_array_state_reset(&st);
    data.len = 0;
    CHECK_MSG(pqt_delta_byte_array_decode(&st, t, cut, 0, o, &data, 4, &used, NULL) == PQT_ECORRUPT, "cut %zu", cut);
    free(t);
  }
  free(in);
  pqt_delta_byte_array_state_free(&st);
  pqt_buf_free(&b);
  pqt_buf_free(&data);
}

/* PARQUET-246: a page whose first value shares a prefix with the previous
 * page's last value decodes with the carried state; without it the prefix
 * length exceeds the (empty) previous value and is corrupt. */
static void test_delta_byte_array_state_across_pages(void) {
  pqt_buf p1, p2, data;
  pqt_buf_init(&p1, NULL);
  pqt_buf_init(&p2, NULL);
  pqt_buf_init(&data, NULL);
  const int32_t offs[3] = {0, 4, 8};
  CHECK_OK(pqt_delta_byte_array_encode(offs, (const uint8_t *)"axisaxle", 2, &p1, NULL));
  const int32_t pre[1] = {2}, suf[1] = {2};
  CHECK_OK(pqt_delta_bp_encode_i32(pre, 1, &p2, NULL));
  CHECK_OK(pqt_delta_bp_encode_i32(suf, 1, &p2, NULL));
  CHECK_OK(pqt_buf_append(&p2, "ms", 2, NULL));
  pqt_delta_byte_array_state st;
  pqt_delta_byte_array_state_init(&st, NULL);
  int32_t o[4];
  CHECK_OK(pqt_delta_byte_array_decode(&st, p1.data, p1.len, 0, o, &data, 2, NULL, NULL));
  CHECK_OK(pqt_delta_byte_array_decode(&st, p2.data, p2.len, 0, o + 2, &data, 1, NULL, NULL));
  CHECK(o[2] == 8 && o[3] == 12 && memcmp(data.data, "axisaxleaxms", 12) == 0);
  pqt_delta_byte_array_state_reset(&st);
  CHECK(pqt_delta_byte_array_decode(&st, p2.data, p2.len, 0, o, &data, 1, NULL, NULL) == PQT_ECORRUPT);
  /* FLBA: all values must be `width` bytes */
  pqt_buf_clear(&p1);
  data.len = 0;
  CHECK_OK(pqt_delta_byte_array_encode_fixed((const uint8_t *)"abcdabceabzz", 4, 3, &p1, NULL));
  pqt_delta_byte_array_state_reset(&st);
  CHECK_OK(pqt_delta_byte_array_decode(&st, p1.data, p1.len, 4, NULL, &data, 3, NULL, NULL));
  CHECK(data.len == 12 && memcmp(data.data, "abcdabceabzz", 12) == 0);
  pqt_delta_byte_array_state_reset(&st);
  CHECK(pqt_delta_byte_array_decode(&st, p1.data, p1.len, 5, NULL, &data, 3, NULL, NULL) == PQT_ECORRUPT);
  pqt_delta_byte_array_state_free(&st);
  pqt_buf_free(&p1);
  pqt_buf_free(&p2);
  pqt_buf_free(&data);
}

static void test_delta_byte_array_random(void) {
  enc_seed(31);
  enum { N = 1500 };
  static int32_t offs[N + 1], o[N + 1];
  static uint8_t data[N * 20];
  offs[0] = 0;
  for (int i = 0; i < N; i++) {
    int l = (int)(enc_rand() % 20);
    int keep = i ? (int)(enc_rand() % (l + 1)) : 0;
    int prevl = i ? offs[i] - offs[i - 1] : 0;
    if (keep > prevl) keep = prevl;
    for (int k = 0; k < l; k++) data[offs[i] + k] = k < keep ? data[offs[i - 1] + k] : (uint8_t)('a' + enc_rand() % 3);
    offs[i + 1] = offs[i] + l;
  }
  pqt_buf b, out;
  pqt_buf_init(&b, NULL);
  pqt_buf_init(&out, NULL);
  CHECK_OK(pqt_delta_byte_array_encode(offs, data, N, &b, NULL));
  pqt_delta_byte_array_state st;
  pqt_delta_byte_array_state_init(&st, NULL);
  CHECK_OK(pqt_delta_byte_array_decode(&st, b.data, b.len, 0, o, &out, N, NULL, NULL));
  CHECK(memcmp(o, offs, sizeof offs) == 0);
  CHECK(out.len == (size_t)offs[N] && memcmp(out.data, data, out.len) == 0);
  pqt_buf_clear(&b);
  out.len = 0;
  CHECK_OK(pqt_delta_length_encode(offs, data, N, &b, NULL));
  CHECK_OK(pqt_delta_length_decode(b.data, b.len, o, &out, N, NULL, NULL));
  CHECK(memcmp(o, offs, sizeof offs) == 0);
  CHECK(out.len == (size_t)offs[N] && memcmp(out.data, data, out.len) == 0);
  pqt_delta_byte_array_state_free(&st);
  pqt_buf_free(&b);
  pqt_buf_free(&out);
}

/* Fuzz regression: empty values into a never-allocated output buffer
 * (NULL data pointer) must not do pointer arithmetic on NULL (UBSan). */
static void test_empty_values_into_empty_buffer(void) {
  const int32_t offs[4] = {0, 0, 0, 0};
  pqt_buf b, data;
  pqt_buf_init(&b, NULL);
  pqt_buf_init(&data, NULL);
  CHECK_OK(pqt_delta_byte_array_encode(offs, (const uint8_t *)"", 3, &b, NULL));
  pqt_delta_byte_array_state st;
  pqt_delta_byte_array_state_init(&st, NULL);
  int32_t o[4] = {9, 9, 9, 9};
  CHECK_OK(pqt_delta_byte_array_decode(&st, b.data, b.len, 0, o, &data, 3, NULL, NULL));
  CHECK(o[0] == 0 && o[3] == 0 && data.len == 0);
  pqt_buf_free(&data);
  pqt_buf_init(&data, NULL);
  const uint32_t idx[3] = {0, 0, 0};
  CHECK_OK(pqt_dict_gather_binary(offs, NULL, 1, idx, 3, o, &data, NULL));
  CHECK(o[0] == 0 && o[3] == 0 && data.len == 0);
  pqt_delta_byte_array_state_free(&st);
  pqt_buf_free(&b);
  pqt_buf_free(&data);
}

/* ---- BYTE_STREAM_SPLIT ---- */

static void test_bss(void) {
  const uint8_t vals[12] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const uint8_t enc[12] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_bss_encode(vals, 4, 3, &b, NULL));
  CHECK(b.len == 12 && memcmp(b.data, enc, 12) == 0);
  uint8_t o[64];
  CHECK_OK(pqt_bss_decode(enc, 12, 4, 0, 3, o, NULL));
  CHECK(memcmp(o, vals, 12) == 0);
  CHECK_OK(pqt_bss_decode(enc, 12, 4, 1, 2, o, NULL));
  CHECK(memcmp(o, vals + 4, 8) == 0);
  CHECK(pqt_bss_decode(enc, 12, 4, 2, 2, o, NULL) == PQT_ECORRUPT);
  CHECK(pqt_bss_decode(enc, 11, 4, 0, 2, o, NULL) == PQT_ECORRUPT);
  enc_seed(41);
  for (size_t w = 1; w <= 17; w++) {
    uint8_t v[17 * 50], out[17 * 50];
    for (size_t i = 0; i < w * 50; i++) v[i] = (uint8_t)enc_rand();
    pqt_buf_clear(&b);
    CHECK_OK(pqt_bss_encode(v, w, 50, &b, NULL));
    uint8_t *in = enc_dup(b.data, b.len);
    CHECK_OK(pqt_bss_decode(in, b.len, w, 0, 50, out, NULL));
    CHECK_MSG(memcmp(out, v, w * 50) == 0, "width %zu", w);
    CHECK_OK(pqt_bss_decode(in, b.len, w, 13, 37, out, NULL));
    CHECK_MSG(memcmp(out, v + 13 * w, w * 37) == 0, "width %zu offset", w);
    free(in);
  }
  pqt_buf_free(&b);
}

/* A few values at a time from a long PLAIN BYTE_ARRAY span (as the column
 * cursor reads a batch from a big page): the output starts with room for 64
 * bytes a value and grows when the values are longer; every value, offset
 * and the bytes consumed must come out as from one whole read, and the
 * output may not grow by the rest of the span each time. */
static void test_plain_byte_array_in_batches(void) {
  enum { N = 600 };
  pqt_buf page;
  pqt_buf_init(&page, NULL);
  uint32_t seed = 7;
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    uint32_t l = i % 50 == 7 ? 300000 + (seed >> 14) : (seed >> 24) % 90; /* mostly short, some long */
    uint8_t b[4];
    pqt_store_u32le(b, l);
    CHECK_OK(pqt_buf_append(&page, b, 4, NULL));
    for (uint32_t k = 0; k < l; k++) {
      uint8_t c = (uint8_t)(i * 31 + k);
      CHECK_OK(pqt_buf_append(&page, &c, 1, NULL));
    }
  }
  CHECK(page.len > (1u << 20));
  uint8_t *in = malloc(page.len);
  memcpy(in, page.data, page.len);
  int32_t whole_off[N + 1], off[N + 1];
  pqt_buf whole, parts;
  pqt_buf_init(&whole, NULL);
  pqt_buf_init(&parts, NULL);
  size_t used = 0;
  CHECK_OK(pqt_plain_decode_byte_array(in, page.len, whole_off, &whole, N, &used, NULL));
  CHECK_EQ_INT(used, page.len);
  size_t pos = 0, done = 0;
  static const size_t steps[] = {1, 3, 10, 64, 7};
  for (int k = 0; done < N; k++) {
    size_t m = steps[k % 5];
    if (m > N - done) m = N - done;
    /* each batch into a buffer of its own, as the cursor's batches are */
    pqt_buf one;
    pqt_buf_init(&one, NULL);
    int32_t o[65];
    CHECK_OK(pqt_plain_decode_byte_array(in + pos, page.len - pos, o, &one, m, &used, NULL));
    CHECK_EQ_INT(o[0], 0);
    /* room for the values asked (64 bytes each, grown when longer), not for
     * the rest of the span (up to ~5 MB: reserved whole, a batch of one value
     * would take 8 MiB); a span of 1 MiB or less is reserved whole */
    CHECK_MSG(one.cap <= 4 * (one.len + 64 * m + 4096) || one.cap <= ((size_t)1 << 21),
              "batch of %zu: cap %zu for %zu bytes", m, one.cap, one.len);
    for (size_t i = 0; i < m; i++) off[done + i + 1] = (int32_t)parts.len + o[i + 1];
    off[0] = 0;
    CHECK_OK(pqt_buf_append(&parts, one.data, one.len, NULL));
    pqt_buf_free(&one);
    pos += used;
    done += m;
  }
  CHECK_EQ_INT(pos, page.len);
  CHECK(parts.len == whole.len && memcmp(parts.data, whole.data, whole.len) == 0);
  CHECK(memcmp(off, whole_off, sizeof off) == 0);
  free(in);
  pqt_buf_free(&page);
  pqt_buf_free(&whole);
  pqt_buf_free(&parts);
}

RUN_TESTS("enc_values", TEST_CASE(test_plain_fixed_and_bool), TEST_CASE(test_plain_byte_array),
          TEST_CASE(test_plain_byte_array_in_batches), TEST_CASE(test_plain_byte_array_random),
          TEST_CASE(test_delta_spec_example1), TEST_CASE(test_delta_spec_example2),
          TEST_CASE(test_delta_invalid_headers), TEST_CASE(test_delta_roundtrip), TEST_CASE(test_delta_truncation),
          TEST_CASE(test_delta_length_spec), TEST_CASE(test_delta_byte_array_spec),
          TEST_CASE(test_delta_byte_array_state_across_pages), TEST_CASE(test_delta_byte_array_random),
          TEST_CASE(test_empty_values_into_empty_buffer), TEST_CASE(test_bss))
