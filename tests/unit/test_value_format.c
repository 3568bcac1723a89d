/* Unit tests for meta/value_format: the canonical text of single values. */
#include <math.h>

#include "harness.h"
#include "meta/value_format.h"

static char g_text[256];

static const char *fmt_double(double v) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_format_double(v, &b, NULL);
  snprintf(g_text, sizeof g_text, "%.*s", (int)b.len, (const char *)b.data);
  pqt_buf_free(&b);
  return g_text;
}
static const char *fmt_float(float v) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_format_float(v, &b, NULL);
  snprintf(g_text, sizeof g_text, "%.*s", (int)b.len, (const char *)b.data);
  pqt_buf_free(&b);
  return g_text;
}
static const char *fmt_half(uint16_t bits) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_format_float16(bits, &b, NULL);
  snprintf(g_text, sizeof g_text, "%.*s", (int)b.len, (const char *)b.data);
  pqt_buf_free(&b);
  return g_text;
}

static void test_floats_shortest_js_layout(void) {
  CHECK_EQ_STR(fmt_double(0.1), "0.1");
  CHECK_EQ_STR(fmt_double(1.0), "1");
  CHECK_EQ_STR(fmt_double(-0.0), "-0");
  CHECK_EQ_STR(fmt_double(123456789012.5), "123456789012.5");
  CHECK_EQ_STR(fmt_double(1e21), "1e+21");
  CHECK_EQ_STR(fmt_double(1e20), "100000000000000000000");
  CHECK_EQ_STR(fmt_double(1.5e-7), "1.5e-7");
  CHECK_EQ_STR(fmt_double(0.000001), "0.000001");
  CHECK_EQ_STR(fmt_double(NAN), "\"NaN\"");
  CHECK_EQ_STR(fmt_double(-INFINITY), "\"-Infinity\"");
  CHECK_EQ_STR(fmt_double(5e-324), "5e-324");
  CHECK_EQ_STR(fmt_double(1.7976931348623157e308), "1.7976931348623157e+308");
  CHECK_EQ_STR(fmt_float(0.1f), "0.1");
  CHECK_EQ_STR(fmt_float(3.4028235e38f), "3.4028235e+38");
  CHECK_EQ_STR(fmt_float(-1.5f), "-1.5");
  CHECK_EQ_STR(fmt_half(0x7BFF), "65500"); /* 65504 */
  CHECK_EQ_STR(fmt_half(0x3C00), "1");
  CHECK_EQ_STR(fmt_half(0x8000), "-0");
  CHECK_EQ_STR(fmt_half(0x0001), "6e-8"); /* smallest subnormal 5.96e-8 */
  CHECK_EQ_STR(fmt_half(0x7E00), "\"NaN\"");
  CHECK_EQ_STR(fmt_half(0x3555), "0.3333");
}

static const char *fmt_value(pqt_value_type *vt, const uint8_t *p, size_t n) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  int st = pqt_format_value(vt, p, n, &b, NULL);
  if (st) snprintf(g_text, sizeof g_text, "<error %d>", st);
  else snprintf(g_text, sizeof g_text, "%.*s", (int)b.len, (const char *)b.data);
  pqt_buf_free(&b);
  return g_text;
}

static void test_dates_times_decimals(void) {
  pqt_value_type vt = {0};
  vt.converted_type = -1;
  uint8_t b4[4], b8[8];
  vt.physical_type = PQT_INT32;
  vt.logical.isset = 1u << PQT_LT_DATE;
  pqt_store_u32le(b4, 0);
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "\"1970-01-01\"");
  pqt_store_u32le(b4, (uint32_t)-719528); /* 0000-01-01 */
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "\"0000-01-01\"");
  pqt_store_u32le(b4, (uint32_t)-719529);
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "\"-0001-12-31\"");
  pqt_store_u32le(b4, 2932896); /* 9999-12-31 */
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "\"9999-12-31\"");

  vt.physical_type = PQT_INT64;
  vt.logical.isset = 1u << PQT_LT_TIMESTAMP;
  vt.logical.timestamp.is_adjusted_to_utc = true;
  vt.logical.timestamp.unit.isset = 1u << PQT_TIME_UNIT_MICROS;
  pqt_store_u64le(b8, (uint64_t)-1);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"1969-12-31T23:59:59.999999Z\"");
  vt.logical.timestamp.is_adjusted_to_utc = false;
  vt.logical.timestamp.unit.isset = 1u << PQT_TIME_UNIT_NANOS;
  pqt_store_u64le(b8, 1234567890123456789ULL);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"2009-02-13T23:31:30.123456789\"");

  vt.logical.isset = 1u << PQT_LT_TIME;
  vt.logical.time.unit.isset = 1u << PQT_TIME_UNIT_MICROS;
  pqt_store_u64le(b8, 3723000001ULL);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"01:02:03.000001\"");

  vt.logical.isset = 1u << PQT_LT_DECIMAL;
  vt.scale = 2;
  pqt_store_u64le(b8, (uint64_t)-1230);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"-12.30\"");
  pqt_store_u64le(b8, 5);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"0.05\"");
  vt.scale = 0;
  pqt_store_u64le(b8, (uint64_t)INT64_MIN);
  CHECK_EQ_STR(fmt_value(&vt, b8, 8), "\"-9223372036854775808\"");

  vt.physical_type = PQT_FIXED_LEN_BYTE_ARRAY;
  vt.scale = 3;
  const uint8_t neg[3] = {0xFF, 0xFF, 0x85}; /* -123 */
  CHECK_EQ_STR(fmt_value(&vt, neg, 3), "\"-0.123\"");
  const uint8_t big[16] = {0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  vt.scale = 0;
  CHECK_EQ_STR(fmt_value(&vt, big, 16), "\"170141183460469231731687303715884105727\"");
  const uint8_t minv[16] = {0x80};
  CHECK_EQ_STR(fmt_value(&vt, minv, 16), "\"-170141183460469231731687303715884105728\"");
}

static void test_int96_and_misc(void) {
  pqt_value_type vt = {0};
  vt.converted_type = -1;
  vt.physical_type = PQT_INT96;
  uint8_t b[12];
  pqt_store_u64le(b, 3600ULL * 1000000000ULL + 5);
  pqt_store_u32le(b + 8, 2440588);
  CHECK_EQ_STR(fmt_value(&vt, b, 12), "\"1970-01-01T01:00:00.000000005\"");
  pqt_store_u64le(b, 0);
  pqt_store_u32le(b + 8, 1721426); /* 0001-01-01 */
  CHECK_EQ_STR(fmt_value(&vt, b, 12), "\"0001-01-01T00:00:00.000000000\"");

  vt.physical_type = PQT_INT32;
  vt.logical.isset = 1u << PQT_LT_INTEGER;
  vt.logical.integer.is_signed = false;
  uint8_t b4[4];
  pqt_store_u32le(b4, 0xFFFFFFFFu);
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "4294967295");
  vt.logical.isset = 0;
  CHECK_EQ_STR(fmt_value(&vt, b4, 4), "-1");
  CHECK_EQ_STR(fmt_value(&vt, b4, 3), "<error 4>");

  vt.physical_type = PQT_FIXED_LEN_BYTE_ARRAY;
  vt.logical.isset = 1u << PQT_LT_UUID;
  uint8_t u[16];
  for (int i = 0; i < 16; i++) u[i] = (uint8_t)(i * 17);
  CHECK_EQ_STR(fmt_value(&vt, u, 16), "\"00112233-4455-6677-8899-aabbccddeeff\"");
  vt.logical.isset = 0;
  vt.converted_type = PQT_CT_INTERVAL;
  uint8_t iv[12];
  pqt_store_u32le(iv, 1);
  pqt_store_u32le(iv + 4, 2);
  pqt_store_u32le(iv + 8, 3);
  CHECK_EQ_STR(fmt_value(&vt, iv, 12), "{\"months\":1,\"days\":2,\"millis\":3}");
  vt.converted_type = -1;
  vt.physical_type = PQT_BYTE_ARRAY;
  CHECK_EQ_STR(fmt_value(&vt, (const uint8_t *)"text1", 5), "\"dGV4dDE=\"");
  vt.converted_type = PQT_CT_UTF8;
  CHECK_EQ_STR(fmt_value(&vt, (const uint8_t *)"text1", 5), "\"text1\"");
}

/* The INT96 helpers: bytes <-> nanoseconds since the epoch, both ways. */
static void test_int96_helpers(void) {
  const int64_t ns[] = {0, 1, -1, 86400000000000LL, -86400000000000LL - 5, 1700000000123456789LL, INT64_MIN, INT64_MAX};
  for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
    uint8_t b[12];
    pqt_int96_from_nanos(ns[i], b);
    CHECK(pqt_int96_to_nanos(b) == (__int128)ns[i]);
    CHECK(pqt_load_u64le(b) < 86400000000000ULL); /* nanoseconds of the day */
    int64_t days, nod;
    pqt_int96_split_bytes(b, &days, &nod);
    if (ns[i] > INT64_MIN / 2 && ns[i] < INT64_MAX / 2) CHECK((__int128)days * 86400000000000LL + nod == ns[i]);
  }
  uint8_t epoch[12];
  pqt_int96_from_nanos(0, epoch);
  CHECK_EQ_INT(pqt_load_u32le(epoch + 8), PQT_INT96_JULIAN_EPOCH);
  /* a Julian day before day 0 is negative, not a huge unsigned day */
  uint8_t neg[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  CHECK(pqt_int96_to_nanos(neg) == (__int128)(-1 - PQT_INT96_JULIAN_EPOCH) * 86400000000000LL);
}

RUN_TESTS("value_format", TEST_CASE(test_int96_helpers), TEST_CASE(test_floats_shortest_js_layout),
          TEST_CASE(test_dates_times_decimals), TEST_CASE(test_int96_and_misc))
