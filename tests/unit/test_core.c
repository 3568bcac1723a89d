/* Unit tests for src/core: arena, buffer, base64, JSON strings, errors, io. */
#include "core/core.h"
#include "core/cpu.h"
#include "core/varint.h"
#include "harness.h"
#include "thrift/parquet_types.h"
static void test_isset_bits(void) {
  pqt_column_metadata m = {0};
  PQT_SET_FIELD(&m, column_metadata, statistics);
  CHECK(PQT_HAS_FIELD(&m, column_metadata, statistics));
  CHECK(!PQT_HAS_FIELD(&m, column_metadata, dictionary_page_offset));
  pqt_logical_type lt = {0};
  PQT_SET_FIELD(&lt, logical_type, timestamp);
  CHECK_EQ_INT(pqt_union_which(lt.isset), PQT_LT_TIMESTAMP);
}

static void test_arena_alloc_and_limit(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  char *p = pqt_arena_alloc(&a, 10);
  CHECK(p != NULL);
  CHECK(((uintptr_t)p & 15) == 0);
  void *big = pqt_arena_alloc(&a, 100000);
  CHECK(big != NULL);
  CHECK(pqt_arena_array(&a, SIZE_MAX / 2, 4) == NULL);
  a.limit_bytes = a.used_bytes + 32;
  CHECK(pqt_arena_alloc(&a, 64) == NULL);
  CHECK(pqt_arena_alloc(&a, 16) != NULL);
  pqt_arena_reset(&a);
  CHECK(a.head == NULL);
}

static void test_buf_and_base64(void) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_base64_append(&b, (const uint8_t *)"text1", 5, NULL));
  CHECK(b.len == 8 && memcmp(b.data, "dGV4dDE=", 8) == 0);
  pqt_buf_clear(&b);
  CHECK_OK(pqt_base64_append(&b, (const uint8_t *)"ab", 2, NULL));
  CHECK(b.len == 4 && memcmp(b.data, "YWI=", 4) == 0);
  pqt_buf_clear(&b);
  CHECK_OK(pqt_json_string_append(&b, (const uint8_t *)"a\"\\\n\x01\xc3\xa9\xff", 8, NULL));
  CHECK_OK(pqt_buf_append(&b, "", 1, NULL));
  CHECK_EQ_STR((const char *)b.data, "\"a\\\"\\\\\\n\\u0001\xc3\xa9\\u00ff\"");
  pqt_buf_free(&b);
}

static void test_error_prefix(void) {
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_corrupt(&e, "bad %s", "thing"), PQT_ECORRUPT);
  pqt_error_prefix(&e, "row group %d", 3);
  CHECK_EQ_STR(e.message, "row group 3: bad thing");
  CHECK_EQ_STR(pqt_status_name(PQT_ELIMIT), "PQT_ELIMIT");
}

static void test_io_buffer_bounds(void) {
  pqt_io io;
  pqt_io_init(&io);
  uint8_t data[4] = {1, 2, 3, 4};
  CHECK_OK(pqt_io_from_buffer(&io, data, 4, NULL, NULL));
  uint8_t out[4];
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(io.read_at(io.private_data, 2, out, 2, &e), PQT_OK);
  CHECK(out[0] == 3 && out[1] == 4);
  CHECK_EQ_INT(io.read_at(io.private_data, 3, out, 2, &e), PQT_ECORRUPT);
  CHECK_EQ_INT(io.read_at(io.private_data, UINT64_MAX, out, 2, &e), PQT_ECORRUPT);
  io.release(io.private_data);
}

/* core/varint.h: the one ULEB128 reader/writer (Thrift and the encodings). */
static void test_uleb(void) {
  const uint64_t vals[] = {0, 1, 127, 128, 300, UINT32_MAX, (uint64_t)1 << 63, UINT64_MAX};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    uint8_t b[PQT_ULEB_MAX_BYTES];
    size_t n = pqt_uleb_put(b, vals[i]);
    const uint8_t *p = b;
    uint64_t v = 0;
    CHECK_EQ_INT(pqt_uleb_read(&p, b + n, &v), PQT_ULEB_OK);
    CHECK(v == vals[i]);
    CHECK(p == b + n);
    p = b; /* one byte short: truncated, nothing consumed */
    CHECK_EQ_INT(pqt_uleb_read(&p, b + n - 1, &v), PQT_ULEB_TRUNCATED);
    CHECK(p == b);
  }
  const uint8_t over[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  const uint8_t cont[11] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x00};
  const uint8_t *p = over;
  uint64_t v;
  CHECK_EQ_INT(pqt_uleb_read(&p, over + 10, &v), PQT_ULEB_OVERFLOW);
  CHECK(p == over);
  p = cont;
  CHECK_EQ_INT(pqt_uleb_read(&p, cont + 11, &v), PQT_ULEB_OVERFLOW);
  CHECK_EQ_INT(pqt_uleb_put((uint8_t[10]){0}, UINT64_MAX), 10);
}

/* core/cpu.c: the levels are nested as documented, and answer the same twice. */
static void test_cpu_levels(void) {
  if (pqt_cpu_has(PQT_CPU_AVX2_BMI2)) CHECK(pqt_cpu_has(PQT_CPU_AVX2));
  if (pqt_cpu_has(PQT_CPU_AVX512_VBMI)) CHECK(pqt_cpu_has(PQT_CPU_AVX512F));
  for (int l = PQT_CPU_AVX2; l <= PQT_CPU_AVX512_VBMI; l++)
    CHECK_EQ_INT(pqt_cpu_has((pqt_cpu_level)l), pqt_cpu_has((pqt_cpu_level)l));
#if !defined(__x86_64__)
  CHECK(!pqt_cpu_has(PQT_CPU_AVX2));
#endif
}

RUN_TESTS("core", TEST_CASE(test_arena_alloc_and_limit), TEST_CASE(test_buf_and_base64), TEST_CASE(test_error_prefix),
          TEST_CASE(test_io_buffer_bounds), TEST_CASE(test_isset_bits), TEST_CASE(test_cpu_levels),
          TEST_CASE(test_uleb))
