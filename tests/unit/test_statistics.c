/* Unit tests for column/statistics (parquet.thrift Statistics, sort orders
 * of seeds/001 logical types; -0/+0 and NaN rules; binary truncation). */
#include <math.h>

#include "column/statistics.h"
#include "harness.h"

static void test_kinds(void) {
  pqt_logical_type u = {0};
  PQT_SET_FIELD(&u, logical_type, integer);
  u.integer.bit_width = 32;
  u.integer.is_signed = false;
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_INT32, &u, -1), PQT_SORT_U32);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_INT32, NULL, PQT_CT_UINT_16), PQT_SORT_U32);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_INT64, NULL, PQT_CT_UINT_64), PQT_SORT_U64);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_INT96, NULL, -1), PQT_SORT_NONE);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_FIXED_LEN_BYTE_ARRAY, NULL, PQT_CT_INTERVAL), PQT_SORT_NONE);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_FIXED_LEN_BYTE_ARRAY, NULL, PQT_CT_DECIMAL), PQT_SORT_DECIMAL_BE);
  pqt_logical_type g = {0};
  PQT_SET_FIELD(&g, logical_type, geometry);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_BYTE_ARRAY, &g, -1), PQT_SORT_NONE);
  pqt_logical_type h = {0};
  PQT_SET_FIELD(&h, logical_type, float16);
  CHECK_EQ_INT(pqt_sort_kind_for(PQT_FIXED_LEN_BYTE_ARRAY, &h, -1), PQT_SORT_FLOAT16);
}

static void test_unsigned_vs_signed(void) {
  int32_t v[] = {5, -1, 7};
  pqt_stats s, u;
  pqt_stats_init(&s, PQT_SORT_I32, 4, NULL);
  pqt_stats_init(&u, PQT_SORT_U32, 4, NULL);
  CHECK_OK(pqt_stats_update_fixed(&s, (const uint8_t *)v, 3, NULL));
  CHECK_OK(pqt_stats_update_fixed(&u, (const uint8_t *)v, 3, NULL));
  int32_t mn, mx;
  memcpy(&mn, s.min.data, 4);
  memcpy(&mx, s.max.data, 4);
  CHECK(mn == -1 && mx == 7);
  memcpy(&mn, u.min.data, 4);
  memcpy(&mx, u.max.data, 4);
  CHECK(mn == 5 && mx == -1); /* 0xFFFFFFFF is the largest unsigned */
  pqt_stats_free(&s);
  pqt_stats_free(&u);
}

static void test_floats(void) {
  double v[] = {NAN, 0.0, -0.0, NAN, 3.5};
  pqt_stats s;
  pqt_stats_init(&s, PQT_SORT_DOUBLE, 8, NULL);
  CHECK_OK(pqt_stats_update_fixed(&s, (const uint8_t *)v, 5, NULL));
  CHECK_EQ_INT(s.nan_count, 2);
  pqt_buf a, b;
  pqt_buf_init(&a, NULL);
  pqt_buf_init(&b, NULL);
  bool me, xe;
  CHECK(pqt_stats_bounds(&s, 0, false, &a, &b, &me, &xe, NULL));
  double mn, mx;
  memcpy(&mn, a.data, 8);
  memcpy(&mx, b.data, 8);
  CHECK(mn == 0 && signbit(mn) && mx == 3.5);
  /* only zeros: min -0, max +0 */
  pqt_stats_reset(&s);
  double z[] = {0.0, 0.0};
  CHECK_OK(pqt_stats_update_fixed(&s, (const uint8_t *)z, 2, NULL));
  pqt_buf_clear(&a);
  pqt_buf_clear(&b);
  CHECK(pqt_stats_bounds(&s, 0, false, &a, &b, &me, &xe, NULL));
  memcpy(&mn, a.data, 8);
  memcpy(&mx, b.data, 8);
  CHECK(signbit(mn) && !signbit(mx));
  /* only NaN: no bounds */
  pqt_stats_reset(&s);
  double n2[] = {NAN};
  CHECK_OK(pqt_stats_update_fixed(&s, (const uint8_t *)n2, 1, NULL));
  pqt_buf_clear(&a);
  pqt_buf_clear(&b);
  CHECK(!pqt_stats_bounds(&s, 0, false, &a, &b, &me, &xe, NULL));
  pqt_stats_free(&s);
  /* FLOAT16: 1.0 = 0x3C00, -2.0 = 0xC000, NaN = 0x7E00 */
  uint8_t h[] = {0x00, 0x3C, 0x00, 0xC0, 0x00, 0x7E};
  pqt_stats_init(&s, PQT_SORT_FLOAT16, 2, NULL);
  CHECK_OK(pqt_stats_update_fixed(&s, h, 3, NULL));
  CHECK_EQ_INT(s.nan_count, 1);
  CHECK(s.min.data[1] == 0xC0 && s.max.data[1] == 0x3C);
  pqt_stats_free(&s);
  pqt_buf_free(&a);
  pqt_buf_free(&b);
}

static void test_binary_and_truncation(void) {
  const char *data = "bbbzzzzzzzzaaa\xff\xff";
  int32_t off[] = {0, 3, 11, 14, 16};
  pqt_stats s;
  pqt_stats_init(&s, PQT_SORT_BYTES, 0, NULL);
  CHECK_OK(pqt_stats_update_binary(&s, off, (const uint8_t *)data, 4, NULL));
  CHECK(s.min.len == 3 && memcmp(s.min.data, "aaa", 3) == 0);
  CHECK(s.max.len == 2 && s.max.data[0] == 0xFF);
  pqt_buf a, b;
  pqt_buf_init(&a, NULL);
  pqt_buf_init(&b, NULL);
  bool me, xe;
  /* max 0xFF 0xFF cannot be incremented: stays exact */
  CHECK(pqt_stats_bounds(&s, 1, false, &a, &b, &me, &xe, NULL));
  CHECK(me == false && a.len == 1 && a.data[0] == 'a');
  CHECK(xe == true && b.len == 2);
  pqt_stats_free(&s);
  /* "zzzzzzzz" truncated to 4 -> "zzz{" (incremented), inexact */
  pqt_stats_init(&s, PQT_SORT_BYTES, 0, NULL);
  int32_t off2[] = {0, 8};
  CHECK_OK(pqt_stats_update_binary(&s, off2, (const uint8_t *)"zzzzzzzz", 1, NULL));
  pqt_buf_clear(&a);
  pqt_buf_clear(&b);
  CHECK(pqt_stats_bounds(&s, 4, true, &a, &b, &me, &xe, NULL));
  CHECK(a.len == 4 && memcmp(a.data, "zzzz", 4) == 0 && !me);
  CHECK(b.len == 4 && memcmp(b.data, "zzz{", 4) == 0 && !xe);
  pqt_stats_free(&s);
  /* UTF-8: a cut never splits a character: "é" is C3 A9 */
  pqt_stats_init(&s, PQT_SORT_BYTES, 0, NULL);
  int32_t off3[] = {0, 5};
  CHECK_OK(pqt_stats_update_binary(&s, off3, (const uint8_t *)"a\xc3\xa9\xc3\xa9", 1, NULL));
  pqt_buf_clear(&a);
  pqt_buf_clear(&b);
  CHECK(pqt_stats_bounds(&s, 2, true, &a, &b, &me, &xe, NULL));
  CHECK(a.len == 1 && a.data[0] == 'a');
  CHECK(b.len == 1 && b.data[0] == 'b');
  pqt_stats_free(&s);
  pqt_buf_free(&a);
  pqt_buf_free(&b);
}

static void test_decimal_be(void) {
  /* FLBA(2) big-endian: -1 (FF FF) < 1 (00 01) < 256 (01 00) */
  uint8_t v[] = {0x00, 0x01, 0xFF, 0xFF, 0x01, 0x00};
  pqt_stats s;
  pqt_stats_init(&s, PQT_SORT_DECIMAL_BE, 2, NULL);
  CHECK_OK(pqt_stats_update_fixed(&s, v, 3, NULL));
  CHECK(s.min.data[0] == 0xFF && s.max.data[0] == 0x01);
  pqt_stats_free(&s);
  /* variable length: -1 (FF) < 255 (00 FF) */
  CHECK(pqt_stats_compare(PQT_SORT_DECIMAL_BE, (const uint8_t *)"\xff", 1, (const uint8_t *)"\x00\xff", 2) < 0);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_kinds), TEST_CASE(test_unsigned_vs_signed),
                                        TEST_CASE(test_floats), TEST_CASE(test_binary_and_truncation),
                                        TEST_CASE(test_decimal_be)};
  return pqt_run_tests("statistics", cases, sizeof cases / sizeof cases[0]);
}
