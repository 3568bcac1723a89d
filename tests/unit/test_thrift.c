/* Unit tests for src/thrift/compact.c and src/thrift/codec.c: hand-made byte
 * vectors for every wire type, skipping, limits, truncation, hostile counts,
 * required fields, unions, JSON and encode/decode round trips. */
#include "core/core.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/compact.h"
#include "thrift/parquet_desc.h"

/* ---- helpers ------------------------------------------------------------- */

typedef struct counting_alloc {
  int n_alloc;
  size_t live;
} counting_alloc;

static void *count_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
  counting_alloc *c = ctx;
  if (!p) c->n_alloc++;
  c->live += new_n;
  c->live -= old_n;
  return realloc(p, new_n ? new_n : 1);
}
static void count_free(void *ctx, void *p, size_t n) {
  counting_alloc *c = ctx;
  c->live -= n;
  free(p);
}

static pqt_tcr reader(const uint8_t *b, size_t n) {
  pqt_tcr r;
  pqt_tcr_init(&r, b, n, NULL, NULL);
  return r;
}

/* Decode desc from a heap copy of exactly n bytes, so that ASan catches any
 * read past the end. */
static pqt_status decode_copy(const pqt_thrift_desc *d, const uint8_t *b, size_t n, pqt_arena *arena, void *out,
                              pqt_error *err) {
  uint8_t *copy = malloc(n ? n : 1);
  if (n) memcpy(copy, b, n);
  pqt_status st = pqt_thrift_decode(d, copy, n, NULL, arena, out, err);
  free(copy);
  return st;
}

/* ---- primitives ------------------------------------------------------------ */

static void test_varint_zigzag_i32(void) {
  static const struct {
    int32_t v;
    uint8_t b[5];
    size_t n;
  } cases[] = {
      {0, {0x00}, 1},
      {-1, {0x01}, 1},
      {1, {0x02}, 1},
      {-64, {0x7f}, 1},
      {64, {0x80, 0x01}, 2},
      {INT32_MAX, {0xfe, 0xff, 0xff, 0xff, 0x0f}, 5},
      {INT32_MIN, {0xff, 0xff, 0xff, 0xff, 0x0f}, 5},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pqt_tcr r = reader(cases[i].b, cases[i].n);
    CHECK_EQ_INT(pqt_tcr_i32(&r), cases[i].v);
    CHECK_EQ_INT(r.status, PQT_OK);
    CHECK_EQ_INT(pqt_tcr_remaining(&r), 0);
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_tcw w;
    pqt_tcw_init(&w, &b, NULL);
    pqt_tcw_i32(&w, cases[i].v);
    CHECK(b.len == cases[i].n && memcmp(b.data, cases[i].b, b.len) == 0);
    pqt_buf_free(&b);
  }
  /* 2^32 does not fit an i32 */
  static const uint8_t big[] = {0x80, 0x80, 0x80, 0x80, 0x10};
  pqt_tcr r = reader(big, sizeof big);
  (void)pqt_tcr_i32(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* i16 range */
  static const uint8_t i16max[] = {0xfe, 0xff, 0x03}; /* 32767 */
  r = reader(i16max, sizeof i16max);
  CHECK_EQ_INT(pqt_tcr_i16(&r), 32767);
  static const uint8_t i16big[] = {0x80, 0x80, 0x04}; /* 65536 */
  r = reader(i16big, sizeof i16big);
  (void)pqt_tcr_i16(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
}

static void test_varint_i64_and_limits(void) {
  static const uint8_t min64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  pqt_tcr r = reader(min64, sizeof min64);
  CHECK(pqt_tcr_i64(&r) == INT64_MIN);
  CHECK_EQ_INT(r.status, PQT_OK);
  static const uint8_t max64[] = {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  r = reader(max64, sizeof max64);
  CHECK(pqt_tcr_i64(&r) == INT64_MAX);
  static const uint8_t neg[] = {0x83, 0x01}; /* zigzag 131 -> -66 */
  r = reader(neg, sizeof neg);
  CHECK_EQ_INT(pqt_tcr_i64(&r), -66);
  /* 11 bytes: too long */
  static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  r = reader(eleven, sizeof eleven);
  (void)pqt_tcr_varint(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* tenth byte carrying more than bit 63 */
  static const uint8_t over[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  r = reader(over, sizeof over);
  (void)pqt_tcr_varint(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* truncated */
  static const uint8_t trunc[] = {0x80, 0x80};
  r = reader(trunc, sizeof trunc);
  (void)pqt_tcr_varint(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* sticky: later reads return 0 and keep the first error */
  CHECK_EQ_INT(pqt_tcr_i32(&r), 0);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* writer round trip of extremes */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  pqt_tcw_i64(&w, INT64_MIN);
  CHECK(b.len == sizeof min64 && memcmp(b.data, min64, b.len) == 0);
  pqt_buf_free(&b);
}

static void test_double_byte_binary(void) {
  static const uint8_t d[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f, 0x85};
  pqt_tcr r = reader(d, sizeof d);
  CHECK(pqt_tcr_double(&r) == 1.5);
  CHECK_EQ_INT(pqt_tcr_i8(&r), -123);
  CHECK_EQ_INT(r.status, PQT_OK);
  r = reader(d, 7);
  (void)pqt_tcr_double(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);

  static const uint8_t s[] = {0x03, 'a', 'b', 'c', 0x00};
  r = reader(s, sizeof s);
  pqt_bytes v = pqt_tcr_binary(&r);
  CHECK(v.len == 3 && memcmp(v.ptr, "abc", 3) == 0 && v.ptr == s + 1);
  v = pqt_tcr_binary(&r);
  CHECK(v.len == 0);
  CHECK_EQ_INT(r.status, PQT_OK);
  /* length past the end */
  static const uint8_t s2[] = {0x04, 'a', 'b', 'c'};
  r = reader(s2, sizeof s2);
  (void)pqt_tcr_binary(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* length 2^31 (would be negative as i32) */
  static const uint8_t s3[] = {0x80, 0x80, 0x80, 0x80, 0x08};
  r = reader(s3, sizeof s3);
  (void)pqt_tcr_binary(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* string limit */
  pqt_thrift_limits lim = {.max_string_bytes = 2};
  pqt_tcr_init(&r, s, sizeof s, &lim, NULL);
  (void)pqt_tcr_binary(&r);
  CHECK_EQ_INT(r.status, PQT_ELIMIT);
}

static void test_field_headers(void) {
  /* short form: delta 1 i32; long form id 20 (zigzag 40 = 0x28); delta 2
   * after the long form (id 22, bool true); long form id -1 (zigzag 1);
   * stop. */
  static const uint8_t b[] = {0x15, 0x05, 0x28, 0x21, 0x06, 0x01, 0x00};
  pqt_tcr r = reader(b, sizeof b);
  int16_t last = 0, id = 0;
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_I32);
  CHECK_EQ_INT(id, 1);
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_I32);
  CHECK_EQ_INT(id, 20);
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_TRUE);
  CHECK_EQ_INT(id, 22);
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_I64);
  CHECK_EQ_INT(id, -1);
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_STOP);
  CHECK_EQ_INT(r.status, PQT_OK);
  /* invalid type nibble 13 */
  static const uint8_t bad[] = {0x1d};
  r = reader(bad, 1);
  last = 0;
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_STOP);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* delta overflow past 32767 */
  static const uint8_t ovf[] = {0x05, 0xfe, 0xff, 0x03, 0x15};
  r = reader(ovf, sizeof ovf);
  last = 0;
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_I32);
  CHECK_EQ_INT(id, 32767);
  CHECK_EQ_INT(pqt_tcr_field_begin(&r, &last, &id), PQT_TW_STOP);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);

  /* writer: short form for deltas 1..15, long form otherwise */
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &out, NULL);
  last = 0;
  pqt_tcw_field_begin(&w, PQT_TW_I32, 1, &last);
  pqt_tcw_field_begin(&w, PQT_TW_I32, 20, &last);
  pqt_tcw_field_begin(&w, PQT_TW_TRUE, 22, &last);
  pqt_tcw_field_begin(&w, PQT_TW_I64, -1, &last);
  pqt_tcw_stop(&w);
  static const uint8_t want[] = {0x15, 0x05, 0x28, 0x21, 0x06, 0x01, 0x00};
  CHECK(out.len == sizeof want && memcmp(out.data, want, sizeof want) == 0);
  pqt_buf_free(&out);
}

static void test_list_and_map_headers(void) {
  int et;
  int32_t n;
  /* short form: 3 x i32 */
  static const uint8_t s[] = {0x35, 0x02, 0x04, 0x06};
  pqt_tcr r = reader(s, sizeof s);
  CHECK(pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(et, PQT_TW_I32);
  CHECK_EQ_INT(n, 3);
  CHECK_EQ_INT(pqt_tcr_i32(&r) + pqt_tcr_i32(&r) + pqt_tcr_i32(&r), 6);
  /* long form: 0xf? + varint 15 */
  uint8_t l[2 + 15];
  l[0] = 0xf3;
  l[1] = 15;
  memset(l + 2, 7, 15);
  r = reader(l, sizeof l);
  CHECK(pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(et, PQT_TW_I8);
  CHECK_EQ_INT(n, 15);
  /* bool elements: element type 1 or 2, bytes 1 true, 2 or 0 false */
  static const uint8_t bl[] = {0x42, 0x01, 0x02, 0x00, 0x01};
  r = reader(bl, sizeof bl);
  CHECK(pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(et, PQT_TW_TRUE);
  CHECK_EQ_INT(n, 4);
  CHECK(pqt_tcr_bool_elem(&r) == true);
  CHECK(pqt_tcr_bool_elem(&r) == false);
  CHECK(pqt_tcr_bool_elem(&r) == false);
  CHECK(pqt_tcr_bool_elem(&r) == true);
  CHECK_EQ_INT(r.status, PQT_OK);
  static const uint8_t badbool[] = {0x03};
  r = reader(badbool, 1);
  (void)pqt_tcr_bool_elem(&r);
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* count larger than the bytes left; doubles need 8 bytes each */
  static const uint8_t many[] = {0xf5, 0xff, 0xff, 0xff, 0xff, 0x07};
  r = reader(many, sizeof many);
  CHECK(!pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  static const uint8_t dbl[] = {0x27, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  r = reader(dbl, sizeof dbl); /* 2 doubles need 16 bytes, 10 left */
  CHECK(!pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* negative (>= 2^31) size */
  static const uint8_t negsz[] = {0xf5, 0x80, 0x80, 0x80, 0x80, 0x08};
  r = reader(negsz, sizeof negsz);
  CHECK(!pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(r.status, PQT_ECORRUPT);
  /* invalid element type 0 */
  static const uint8_t t0[] = {0x10, 0x00};
  r = reader(t0, sizeof t0);
  CHECK(!pqt_tcr_list_begin(&r, &et, &n));
  /* container limit */
  pqt_thrift_limits lim = {.max_container_elems = 2};
  pqt_tcr_init(&r, s, sizeof s, &lim, NULL);
  CHECK(!pqt_tcr_list_begin(&r, &et, &n));
  CHECK_EQ_INT(r.status, PQT_ELIMIT);

  /* maps: empty is one byte 0; else varint size + kv types */
  int kt, vt;
  static const uint8_t m0[] = {0x00};
  r = reader(m0, 1);
  CHECK(pqt_tcr_map_begin(&r, &kt, &vt, &n));
  CHECK_EQ_INT(n, 0);
  CHECK_EQ_INT(pqt_tcr_remaining(&r), 0);
  static const uint8_t m2[] = {0x02, 0x58, 0x02, 0x01, 'a', 0x04, 0x01, 'b'};
  r = reader(m2, sizeof m2);
  CHECK(pqt_tcr_map_begin(&r, &kt, &vt, &n));
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_INT(kt, PQT_TW_I32);
  CHECK_EQ_INT(vt, PQT_TW_BINARY);
  static const uint8_t mbig[] = {0x05, 0x58, 0x02, 0x01, 'a'};
  r = reader(mbig, sizeof mbig);
  CHECK(!pqt_tcr_map_begin(&r, &kt, &vt, &n));

  /* writer: short and long list forms, map forms */
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &out, NULL);
  pqt_tcw_list_begin(&w, PQT_TW_I32, 3);
  pqt_tcw_list_begin(&w, PQT_TW_I8, 15);
  pqt_tcw_list_begin(&w, PQT_TW_BINARY, 300);
  pqt_tcw_map_begin(&w, PQT_TW_I32, PQT_TW_BINARY, 0);
  pqt_tcw_map_begin(&w, PQT_TW_I32, PQT_TW_BINARY, 2);
  static const uint8_t want[] = {0x35, 0xf3, 0x0f, 0xf8, 0xac, 0x02, 0x00, 0x02, 0x58};
  CHECK(out.len == sizeof want && memcmp(out.data, want, sizeof want) == 0);
  pqt_buf_free(&out);
}

/* ---- a test struct for the interpreter ------------------------------------- */

typedef struct test_inner {
  uint32_t isset;
  int64_t x; /* 1 */
} test_inner;

typedef struct test_outer {
  uint32_t isset;
  int32_t a;        /* 1 required */
  pqt_bytes s;      /* 2 */
  pqt_list_i64 l;   /* 3 */
  bool flag;        /* 4 */
  test_inner inner; /* 5 */
  int16_t h;        /* 20 (long-form id) */
} test_outer;

/* Field ids of the test structs (the descriptor rows below use them too). */
enum { TEST_INNER_X = 1 };
enum {
  TEST_OUTER_A = 1,
  TEST_OUTER_S = 2,
  TEST_OUTER_L = 3,
  TEST_OUTER_FLAG = 4,
  TEST_OUTER_INNER = 5,
  TEST_OUTER_H = 20
};

static const pqt_thrift_field test_inner_rows[] = {
    {"x", TEST_INNER_X, PQT_TK_I64, 0, 0, (int32_t)offsetof(test_inner, x), NULL, NULL},
};
static const pqt_thrift_desc test_inner_desc = {"Inner", test_inner_rows, 1, 0, sizeof(test_inner)};
static const pqt_thrift_field test_outer_rows[] = {
    {"a", TEST_OUTER_A, PQT_TK_I32, 0, PQT_TF_REQUIRED, (int32_t)offsetof(test_outer, a), NULL, NULL},
    {"s", TEST_OUTER_S, PQT_TK_STRING, 0, 0, (int32_t)offsetof(test_outer, s), NULL, NULL},
    {"l", TEST_OUTER_L, PQT_TK_LIST, PQT_TK_I64, 0, (int32_t)offsetof(test_outer, l), NULL, NULL},
    {"flag", TEST_OUTER_FLAG, PQT_TK_BOOL, 0, 0, (int32_t)offsetof(test_outer, flag), NULL, NULL},
    {"inner", TEST_OUTER_INNER, PQT_TK_STRUCT, 0, 0, (int32_t)offsetof(test_outer, inner), &test_inner_desc, NULL},
    {"h", TEST_OUTER_H, PQT_TK_I16, 0, 0, (int32_t)offsetof(test_outer, h), NULL, NULL},
};
static const pqt_thrift_desc test_outer_desc = {"Outer", test_outer_rows, 6, 0, sizeof(test_outer)};

/* Write one unknown field of every kind (ids 6..19, 21.. are unknown). */
static void write_unknown_fields(pqt_tcw *w, int16_t *last) {
  pqt_tcw_field_begin(w, PQT_TW_TRUE, 6, last);
  pqt_tcw_field_begin(w, PQT_TW_FALSE, 7, last);
  pqt_tcw_field_begin(w, PQT_TW_I8, 8, last);
  pqt_tcw_i8(w, -5);
  pqt_tcw_field_begin(w, PQT_TW_I16, 9, last);
  pqt_tcw_i16(w, -300);
  pqt_tcw_field_begin(w, PQT_TW_I32, 10, last);
  pqt_tcw_i32(w, 123456);
  pqt_tcw_field_begin(w, PQT_TW_I64, 11, last);
  pqt_tcw_i64(w, -1234567890123LL);
  pqt_tcw_field_begin(w, PQT_TW_DOUBLE, 12, last);
  pqt_tcw_double(w, 2.5);
  pqt_tcw_field_begin(w, PQT_TW_BINARY, 13, last);
  pqt_tcw_binary(w, (const uint8_t *)"hello", 5);
  pqt_tcw_field_begin(w, PQT_TW_LIST, 14, last); /* list<bool> */
  pqt_tcw_list_begin(w, PQT_TW_TRUE, 3);
  pqt_tcw_bool_elem(w, true);
  pqt_tcw_bool_elem(w, false);
  pqt_tcw_bool_elem(w, true);
  pqt_tcw_field_begin(w, PQT_TW_SET, 15, last); /* set<binary>, long form */
  pqt_tcw_list_begin(w, PQT_TW_BINARY, 16);
  for (int i = 0; i < 16; i++) pqt_tcw_binary(w, (const uint8_t *)"xy", 2);
  pqt_tcw_field_begin(w, PQT_TW_MAP, 16, last); /* map<i32, list<double>> */
  pqt_tcw_map_begin(w, PQT_TW_I32, PQT_TW_LIST, 2);
  pqt_tcw_i32(w, 1);
  pqt_tcw_list_begin(w, PQT_TW_DOUBLE, 1);
  pqt_tcw_double(w, 1.0);
  pqt_tcw_i32(w, 2);
  pqt_tcw_list_begin(w, PQT_TW_DOUBLE, 0);
  pqt_tcw_field_begin(w, PQT_TW_MAP, 17, last); /* empty map */
  pqt_tcw_map_begin(w, PQT_TW_I32, PQT_TW_I32, 0);
  pqt_tcw_field_begin(w, PQT_TW_STRUCT, 18, last); /* nested struct with a list of structs */
  {
    int16_t l2 = 0;
    pqt_tcw_field_begin(w, PQT_TW_LIST, 1, &l2);
    pqt_tcw_list_begin(w, PQT_TW_STRUCT, 2);
    int16_t l3 = 0;
    pqt_tcw_field_begin(w, PQT_TW_TRUE, 1, &l3);
    pqt_tcw_stop(w);
    l3 = 0;
    pqt_tcw_field_begin(w, PQT_TW_MAP, 300, &l3); /* long-form id in nested */
    pqt_tcw_map_begin(w, PQT_TW_BINARY, PQT_TW_STRUCT, 1);
    pqt_tcw_binary(w, (const uint8_t *)"k", 1);
    pqt_tcw_stop(w);
    pqt_tcw_stop(w);
    pqt_tcw_field_begin(w, PQT_TW_LIST, 2, &l2); /* list<list<i32>> */
    pqt_tcw_list_begin(w, PQT_TW_LIST, 2);
    pqt_tcw_list_begin(w, PQT_TW_I32, 1);
    pqt_tcw_i32(w, 9);
    pqt_tcw_list_begin(w, PQT_TW_I32, 0);
    pqt_tcw_stop(w);
  }
  pqt_tcw_field_begin(w, PQT_TW_I64, -7, last); /* negative id (long form) */
  pqt_tcw_i64(w, 77);
}

static void test_skip_unknown_fields_of_every_type(void) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  int16_t last = 0;
  pqt_tcw_field_begin(&w, PQT_TW_I32, 1, &last);
  pqt_tcw_i32(&w, -42);
  write_unknown_fields(&w, &last);
  pqt_tcw_field_begin(&w, PQT_TW_I16, 20, &last);
  pqt_tcw_i16(&w, -2);
  pqt_tcw_field_begin(&w, PQT_TW_FALSE, 4, &last); /* known field after unknowns */
  pqt_tcw_field_begin(&w, PQT_TW_STRUCT, 5, &last);
  {
    int16_t l2 = 0;
    write_unknown_fields(&w, &l2); /* unknown fields inside a known struct */
    pqt_tcw_field_begin(&w, PQT_TW_I64, 1, &l2);
    pqt_tcw_i64(&w, 99);
    pqt_tcw_stop(&w);
  }
  pqt_tcw_stop(&w);
  pqt_tcw_byte(&w, 0xee); /* trailing byte, not consumed */
  CHECK_EQ_INT(w.status, PQT_OK);

  test_outer o;
  size_t used = 0;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_thrift_decode(&test_outer_desc, b.data, b.len, &used, NULL, &o, &e));
  CHECK_EQ_INT(used, b.len - 1);
  CHECK_EQ_INT(o.a, -42);
  CHECK_EQ_INT(o.h, -2);
  CHECK(PQT_HAS(&o, TEST_OUTER_FLAG) && o.flag == false);
  CHECK(PQT_HAS(&o, TEST_OUTER_INNER) && PQT_HAS(&o.inner, TEST_INNER_X) && o.inner.x == 99);
  CHECK(!PQT_HAS(&o, TEST_OUTER_S) && !PQT_HAS(&o, TEST_OUTER_L));
  CHECK_EQ_INT(o.isset,
               (1u << TEST_OUTER_A) | (1u << TEST_OUTER_FLAG) | (1u << TEST_OUTER_INNER) | (1u << TEST_OUTER_H));

  /* every strict prefix is an error, never a crash */
  for (size_t k = 0; k + 1 < b.len; k++) {
    CHECK(decode_copy(&test_outer_desc, b.data, k, NULL, &o, NULL) != PQT_OK);
  }
  pqt_buf_free(&b);
}

static void test_wire_type_mismatch_is_skipped(void) {
  /* field 1 (i32 in the table) sent as binary, then as i32; field 2
   * (string) sent as i32; field 3 list<i64> sent as list<binary> */
  static const uint8_t b[] = {0x18, 0x02, 'z', 'z', 0x05, 0x02, 0x0e, 0x15, 0x07, 0x19, 0x18, 0x01, 'q', 0x00};
  test_outer o;
  CHECK_OK(decode_copy(&test_outer_desc, b, sizeof b, NULL, &o, NULL));
  CHECK_EQ_INT(o.a, 7);
  CHECK(!PQT_HAS(&o, TEST_OUTER_S));
  CHECK(!PQT_HAS(&o, TEST_OUTER_L));
  /* a required field sent only with the wrong type is missing */
  static const uint8_t c[] = {0x18, 0x01, 'z', 0x00};
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(decode_copy(&test_outer_desc, c, sizeof c, NULL, &o, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "Outer.a") != NULL);
  /* a bool field may use either bool nibble */
  static const uint8_t d[] = {0x15, 0x02, 0x31, 0x00};
  CHECK_OK(decode_copy(&test_outer_desc, d, sizeof d, NULL, &o, NULL));
  CHECK(o.flag == true);
}

static void test_depth_limit(void) {
  /* field 1 = 1, then unknown field 6 holding 100 nested structs */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  int16_t last = 0;
  pqt_tcw_field_begin(&w, PQT_TW_I32, 1, &last);
  pqt_tcw_i32(&w, 1);
  pqt_tcw_field_begin(&w, PQT_TW_STRUCT, 6, &last);
  for (int i = 0; i < 99; i++) {
    int16_t l = 0;
    pqt_tcw_field_begin(&w, PQT_TW_STRUCT, 1, &l);
  }
  for (int i = 0; i < 100; i++) pqt_tcw_stop(&w);
  pqt_tcw_stop(&w);
  test_outer o;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_thrift_decode(&test_outer_desc, b.data, b.len, NULL, NULL, &o, &e), PQT_ELIMIT);
  CHECK(strstr(e.message, "deeper") != NULL);
  pqt_thrift_limits lim = {.max_depth = 200};
  CHECK_OK(pqt_thrift_decode_ex(&test_outer_desc, b.data, b.len, NULL, NULL, &lim, &o, NULL));
  /* nested lists count too */
  pqt_buf_clear(&b);
  last = 0;
  pqt_tcw_field_begin(&w, PQT_TW_I32, 1, &last);
  pqt_tcw_i32(&w, 1);
  pqt_tcw_field_begin(&w, PQT_TW_LIST, 6, &last);
  for (int i = 0; i < 99; i++) pqt_tcw_list_begin(&w, PQT_TW_LIST, 1);
  pqt_tcw_list_begin(&w, PQT_TW_LIST, 0);
  pqt_tcw_stop(&w);
  CHECK_EQ_INT(pqt_thrift_decode(&test_outer_desc, b.data, b.len, NULL, NULL, &o, NULL), PQT_ELIMIT);
  CHECK_OK(pqt_thrift_decode_ex(&test_outer_desc, b.data, b.len, NULL, NULL, &lim, &o, NULL));
  /* a limit of 1 still allows a flat struct but no nested struct */
  static const uint8_t flat[] = {0x15, 0x02, 0x00};
  pqt_thrift_limits one = {.max_depth = 1};
  CHECK_OK(pqt_thrift_decode_ex(&test_outer_desc, flat, sizeof flat, NULL, NULL, &one, &o, NULL));
  static const uint8_t nested[] = {0x15, 0x02, 0x4c, 0x00, 0x00};
  CHECK_EQ_INT(pqt_thrift_decode_ex(&test_outer_desc, nested, sizeof nested, NULL, NULL, &one, &o, NULL), PQT_ELIMIT);
  pqt_buf_free(&b);
}

/* ---- parquet structs ------------------------------------------------------ */

static const uint8_t kv_key[] = "k\"ey";
static const uint8_t blob[] = {0x00, 0xff, 0x10, 0x80};

/* A FileMetaData using every kind of field: lists of structs, strings,
 * binary, bools, i8/i16, doubles, unions with empty and non-empty members,
 * encryption algorithm. Built in caller-provided storage. */
typedef struct rich_storage {
  pqt_schema_element schema[6];
  pqt_row_group rg[1];
  pqt_column_chunk cols[2];
  pqt_bytes path0[1], path1[2];
  int32_t enc0[2];
  pqt_key_value kv[2];
  pqt_page_encoding_stats es[1];
  pqt_sorting_column sc[1];
  int64_t hist[3];
  int32_t geotypes[2];
  pqt_column_order orders[2];
} rich_storage;

static pqt_bytes bytes_of(const char *s) {
  pqt_bytes b = {(const uint8_t *)s, (int64_t)strlen(s)};
  return b;
}

static void build_rich(pqt_file_metadata *m, rich_storage *s) {
  memset(m, 0, sizeof *m);
  memset(s, 0, sizeof *s);
  PQT_SET_FIELD(m, file_metadata, version);
  m->version = 2;
  /* schema: root, a (int32 INTEGER(8,false)), b (timestamp micros utc),
   * c (decimal), d (geography), e (VARIANT) */
  pqt_schema_element *se = s->schema;
  PQT_SET_FIELD(&se[0], schema_element, name);
  se[0].name = bytes_of("schema");
  PQT_SET_FIELD(&se[0], schema_element, num_children);
  se[0].num_children = 5;
  PQT_SET_FIELD(&se[1], schema_element, type);
  se[1].type = PQT_INT32;
  PQT_SET_FIELD(&se[1], schema_element, repetition_type);
  se[1].repetition_type = PQT_OPTIONAL;
  PQT_SET_FIELD(&se[1], schema_element, name);
  se[1].name = bytes_of("a");
  PQT_SET_FIELD(&se[1], schema_element, converted_type);
  se[1].converted_type = PQT_CT_UINT_8;
  PQT_SET_FIELD(&se[1], schema_element, field_id);
  se[1].field_id = -17;
  PQT_SET_FIELD(&se[1], schema_element, logical_type);
  PQT_SET_FIELD(&se[1].logical_type, logical_type, integer);
  PQT_SET_FIELD(&se[1].logical_type.integer, int_type, bit_width);
  se[1].logical_type.integer.bit_width = 8;
  PQT_SET_FIELD(&se[1].logical_type.integer, int_type, is_signed);
  se[1].logical_type.integer.is_signed = false;
  PQT_SET_FIELD(&se[2], schema_element, type);
  se[2].type = PQT_INT64;
  PQT_SET_FIELD(&se[2], schema_element, repetition_type);
  se[2].repetition_type = PQT_REQUIRED;
  PQT_SET_FIELD(&se[2], schema_element, name);
  se[2].name = bytes_of("b");
  PQT_SET_FIELD(&se[2], schema_element, logical_type);
  PQT_SET_FIELD(&se[2].logical_type, logical_type, timestamp);
  PQT_SET_FIELD(&se[2].logical_type.timestamp, timestamp_type, is_adjusted_to_utc);
  se[2].logical_type.timestamp.is_adjusted_to_utc = true;
  PQT_SET_FIELD(&se[2].logical_type.timestamp, timestamp_type, unit);
  PQT_SET_FIELD(&se[2].logical_type.timestamp.unit, time_unit, micros);
  PQT_SET_FIELD(&se[3], schema_element, type);
  se[3].type = PQT_FIXED_LEN_BYTE_ARRAY;
  PQT_SET_FIELD(&se[3], schema_element, type_length);
  se[3].type_length = 16;
  PQT_SET_FIELD(&se[3], schema_element, name);
  se[3].name = bytes_of("c");
  PQT_SET_FIELD(&se[3], schema_element, logical_type);
  PQT_SET_FIELD(&se[3].logical_type, logical_type, decimal);
  PQT_SET_FIELD(&se[3].logical_type.decimal, decimal_type, scale);
  se[3].logical_type.decimal.scale = 3;
  PQT_SET_FIELD(&se[3].logical_type.decimal, decimal_type, precision);
  se[3].logical_type.decimal.precision = 30;
  PQT_SET_FIELD(&se[4], schema_element, type);
  se[4].type = PQT_BYTE_ARRAY;
  PQT_SET_FIELD(&se[4], schema_element, name);
  se[4].name = bytes_of("d");
  PQT_SET_FIELD(&se[4], schema_element, logical_type);
  PQT_SET_FIELD(&se[4].logical_type, logical_type, geography);
  PQT_SET_FIELD(&se[4].logical_type.geography, geography_type, crs);
  se[4].logical_type.geography.crs = bytes_of("OGC:CRS84");
  PQT_SET_FIELD(&se[4].logical_type.geography, geography_type, algorithm);
  se[4].logical_type.geography.algorithm = PQT_EDGE_KARNEY;
  PQT_SET_FIELD(&se[5], schema_element, name);
  se[5].name = bytes_of("e");
  PQT_SET_FIELD(&se[5], schema_element, logical_type);
  PQT_SET_FIELD(&se[5].logical_type, logical_type, variant);
  PQT_SET_FIELD(&se[5].logical_type.variant, variant_type, specification_version);
  se[5].logical_type.variant.specification_version = 1;
  PQT_SET_FIELD(&se[5], schema_element, vector_length);
  se[5].vector_length = 4;
  PQT_SET_FIELD(m, file_metadata, schema);
  m->schema.items = se;
  m->schema.n = 6;
  PQT_SET_FIELD(m, file_metadata, num_rows);
  m->num_rows = 1LL << 40;

  /* one row group, two columns */
  pqt_column_chunk *cc = s->cols;
  s->path0[0] = bytes_of("a");
  s->path1[0] = bytes_of("b");
  s->path1[1] = bytes_of("list");
  s->enc0[0] = PQT_ENC_PLAIN;
  s->enc0[1] = PQT_ENC_RLE_DICTIONARY;
  PQT_SET_FIELD(&cc[0], column_chunk, file_offset);
  cc[0].file_offset = 0;
  PQT_SET_FIELD(&cc[0], column_chunk, meta_data);
  pqt_column_metadata *md = &cc[0].meta_data;
  PQT_SET_FIELD(md, column_metadata, type);
  md->type = PQT_INT32;
  PQT_SET_FIELD(md, column_metadata, encodings);
  md->encodings.items = s->enc0;
  md->encodings.n = 2;
  PQT_SET_FIELD(md, column_metadata, path_in_schema);
  md->path_in_schema.items = s->path0;
  md->path_in_schema.n = 1;
  PQT_SET_FIELD(md, column_metadata, codec);
  md->codec = PQT_CODEC_ZSTD;
  PQT_SET_FIELD(md, column_metadata, num_values);
  md->num_values = 1000;
  PQT_SET_FIELD(md, column_metadata, total_uncompressed_size);
  md->total_uncompressed_size = 5000;
  PQT_SET_FIELD(md, column_metadata, total_compressed_size);
  md->total_compressed_size = 3000;
  s->kv[0].isset = 0;
  PQT_SET_FIELD(&s->kv[0], key_value, key);
  s->kv[0].key = (pqt_bytes){kv_key, 4};
  PQT_SET_FIELD(&s->kv[0], key_value, value);
  s->kv[0].value = bytes_of("v\n1");
  PQT_SET_FIELD(&s->kv[1], key_value, key);
  s->kv[1].key = bytes_of("only-key");
  PQT_SET_FIELD(md, column_metadata, key_value_metadata);
  md->key_value_metadata.items = s->kv;
  md->key_value_metadata.n = 2;
  PQT_SET_FIELD(md, column_metadata, data_page_offset);
  md->data_page_offset = 4;
  PQT_SET_FIELD(md, column_metadata, dictionary_page_offset);
  md->dictionary_page_offset = 4;
  PQT_SET_FIELD(md, column_metadata, statistics);
  PQT_SET_FIELD(&md->statistics, statistics, null_count);
  md->statistics.null_count = 0;
  PQT_SET_FIELD(&md->statistics, statistics, max_value);
  md->statistics.max_value = (pqt_bytes){blob, 4};
  PQT_SET_FIELD(&md->statistics, statistics, min_value);
  md->statistics.min_value = (pqt_bytes){blob, 0};
  PQT_SET_FIELD(&md->statistics, statistics, is_max_value_exact);
  md->statistics.is_max_value_exact = true;
  PQT_SET_FIELD(&md->statistics, statistics, is_min_value_exact);
  md->statistics.is_min_value_exact = false;
  PQT_SET_FIELD(&s->es[0], page_encoding_stats, page_type);
  s->es[0].page_type = PQT_PAGE_DATA_V2;
  PQT_SET_FIELD(&s->es[0], page_encoding_stats, encoding);
  s->es[0].encoding = PQT_ENC_PLAIN;
  PQT_SET_FIELD(&s->es[0], page_encoding_stats, count);
  s->es[0].count = 1;
  PQT_SET_FIELD(md, column_metadata, encoding_stats);
  md->encoding_stats.items = s->es;
  md->encoding_stats.n = 1;
  PQT_SET_FIELD(md, column_metadata, bloom_filter_offset);
  md->bloom_filter_offset = 12345678901LL;
  PQT_SET_FIELD(md, column_metadata, bloom_filter_length);
  md->bloom_filter_length = 1024;
  s->hist[0] = 1;
  s->hist[1] = -2;
  s->hist[2] = INT64_MAX;
  PQT_SET_FIELD(md, column_metadata, size_statistics);
  PQT_SET_FIELD(&md->size_statistics, size_statistics, unencoded_byte_array_data_bytes);
  md->size_statistics.unencoded_byte_array_data_bytes = 7;
  PQT_SET_FIELD(&md->size_statistics, size_statistics, definition_level_histogram);
  md->size_statistics.definition_level_histogram.items = s->hist;
  md->size_statistics.definition_level_histogram.n = 3;
  PQT_SET_FIELD(md, column_metadata, geospatial_statistics);
  PQT_SET_FIELD(&md->geospatial_statistics, geospatial_statistics, bbox);
  pqt_bounding_box *bb = &md->geospatial_statistics.bbox;
  PQT_SET_FIELD(bb, bounding_box, xmin);
  bb->xmin = -180.0;
  PQT_SET_FIELD(bb, bounding_box, xmax);
  bb->xmax = 180.0;
  PQT_SET_FIELD(bb, bounding_box, ymin);
  bb->ymin = -90.5;
  PQT_SET_FIELD(bb, bounding_box, ymax);
  bb->ymax = 1e-300;
  PQT_SET_FIELD(bb, bounding_box, mmin);
  bb->mmin = 0.1;
  s->geotypes[0] = 1;
  s->geotypes[1] = 1003;
  PQT_SET_FIELD(&md->geospatial_statistics, geospatial_statistics, geospatial_types);
  md->geospatial_statistics.geospatial_types.items = s->geotypes;
  md->geospatial_statistics.geospatial_types.n = 2;
  PQT_SET_FIELD(&cc[0], column_chunk, offset_index_offset);
  cc[0].offset_index_offset = 102;
  PQT_SET_FIELD(&cc[0], column_chunk, offset_index_length);
  cc[0].offset_index_length = 11;
  PQT_SET_FIELD(&cc[0], column_chunk, crypto_metadata);
  PQT_SET_FIELD(&cc[0].crypto_metadata, column_crypto_metadata, encryption_with_footer_key);

  PQT_SET_FIELD(&cc[1], column_chunk, file_path);
  cc[1].file_path = bytes_of("other.parquet");
  PQT_SET_FIELD(&cc[1], column_chunk, file_offset);
  cc[1].file_offset = 77;
  PQT_SET_FIELD(&cc[1], column_chunk, crypto_metadata);
  PQT_SET_FIELD(&cc[1].crypto_metadata, column_crypto_metadata, encryption_with_column_key);
  PQT_SET_FIELD(&cc[1].crypto_metadata.encryption_with_column_key, encryption_with_column_key, path_in_schema);
  cc[1].crypto_metadata.encryption_with_column_key.path_in_schema.items = s->path1;
  cc[1].crypto_metadata.encryption_with_column_key.path_in_schema.n = 2;
  PQT_SET_FIELD(&cc[1].crypto_metadata.encryption_with_column_key, encryption_with_column_key, key_metadata);
  cc[1].crypto_metadata.encryption_with_column_key.key_metadata = (pqt_bytes){blob, 3};
  PQT_SET_FIELD(&cc[1], column_chunk, encrypted_column_metadata);
  cc[1].encrypted_column_metadata = (pqt_bytes){blob, 4};

  pqt_row_group *rg = s->rg;
  PQT_SET_FIELD(rg, row_group, columns);
  rg->columns.items = cc;
  rg->columns.n = 2;
  PQT_SET_FIELD(rg, row_group, total_byte_size);
  rg->total_byte_size = 5000;
  PQT_SET_FIELD(rg, row_group, num_rows);
  rg->num_rows = 1000;
  PQT_SET_FIELD(&s->sc[0], sorting_column, column_idx);
  s->sc[0].column_idx = 1;
  PQT_SET_FIELD(&s->sc[0], sorting_column, descending);
  s->sc[0].descending = true;
  PQT_SET_FIELD(&s->sc[0], sorting_column, nulls_first);
  s->sc[0].nulls_first = false;
  PQT_SET_FIELD(rg, row_group, sorting_columns);
  rg->sorting_columns.items = s->sc;
  rg->sorting_columns.n = 1;
  PQT_SET_FIELD(rg, row_group, ordinal);
  rg->ordinal = -3;
  PQT_SET_FIELD(m, file_metadata, row_groups);
  m->row_groups.items = rg;
  m->row_groups.n = 1;
  PQT_SET_FIELD(m, file_metadata, key_value_metadata);
  m->key_value_metadata.items = s->kv;
  m->key_value_metadata.n = 1;
  PQT_SET_FIELD(m, file_metadata, created_by);
  m->created_by = bytes_of("parquetry test");
  PQT_SET_FIELD(&s->orders[0], column_order, type_order);
  PQT_SET_FIELD(&s->orders[1], column_order, ieee_754_total_order);
  PQT_SET_FIELD(m, file_metadata, column_orders);
  m->column_orders.items = s->orders;
  m->column_orders.n = 2;
  PQT_SET_FIELD(m, file_metadata, encryption_algorithm);
  PQT_SET_FIELD(&m->encryption_algorithm, encryption_algorithm, aes_gcm_ctr_v1);
  PQT_SET_FIELD(&m->encryption_algorithm.aes_gcm_ctr_v1, aes_gcm_v1, aad_file_unique);
  m->encryption_algorithm.aes_gcm_ctr_v1.aad_file_unique = (pqt_bytes){blob, 4};
  PQT_SET_FIELD(&m->encryption_algorithm.aes_gcm_ctr_v1, aes_gcm_v1, supply_aad_prefix);
  m->encryption_algorithm.aes_gcm_ctr_v1.supply_aad_prefix = true;
  PQT_SET_FIELD(m, file_metadata, footer_signing_key_metadata);
  m->footer_signing_key_metadata = (pqt_bytes){blob, 2};
}

static void test_file_metadata_roundtrip(void) {
  pqt_file_metadata m, m2;
  rich_storage *s = malloc(sizeof *s);
  build_rich(&m, s);
  pqt_buf b1, b2, j1, j2;
  pqt_buf_init(&b1, NULL);
  pqt_buf_init(&b2, NULL);
  pqt_buf_init(&j1, NULL);
  pqt_buf_init(&j2, NULL);
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &m, &b1, &e));
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  size_t used = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, b1.data, b1.len, &used, &arena, &m2, &e));
  CHECK_EQ_INT(used, b1.len);
  CHECK(pqt_thrift_equal(&pqt_desc_file_metadata, &m, &m2));
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &m2, &b2, &e));
  CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_file_metadata, &m, 0, &j1, &e));
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_file_metadata, &m2, 0, &j2, &e));
  CHECK(j1.len == j2.len && memcmp(j1.data, j2.data, j1.len) == 0);
  /* spot checks of decoded values */
  CHECK_EQ_INT(m2.schema.n, 6);
  CHECK_EQ_INT(m2.schema.items[1].logical_type.integer.bit_width, 8);
  CHECK_EQ_INT(pqt_union_which(m2.schema.items[2].logical_type.timestamp.unit.isset), PQT_TIME_UNIT_MICROS);
  CHECK_EQ_INT(m2.row_groups.items[0].ordinal, -3);
  CHECK(m2.row_groups.items[0].columns.items[0].meta_data.geospatial_statistics.bbox.ymax == 1e-300);
  CHECK_EQ_INT(m2.row_groups.items[0].columns.items[0].meta_data.size_statistics.definition_level_histogram.items[2],
               INT64_MAX);
  CHECK_EQ_INT(pqt_union_which(m2.column_orders.items[1].isset), PQT_ORDER_IEEE_754_TOTAL);
  /* views point into the encoded buffer */
  CHECK(m2.created_by.ptr >= b1.data && m2.created_by.ptr < b1.data + b1.len);
  /* a change is noticed by the comparison */
  m2.row_groups.items[0].columns.items[1].crypto_metadata.encryption_with_column_key.path_in_schema.items[1] =
      bytes_of("lisT");
  CHECK(!pqt_thrift_equal(&pqt_desc_file_metadata, &m, &m2));

  /* truncation at every byte position: error, never a crash */
  int failures = 0;
  for (size_t k = 0; k < b1.len; k++) {
    pqt_arena_reset(&arena);
    if (decode_copy(&pqt_desc_file_metadata, b1.data, k, &arena, &m2, NULL) == PQT_OK) failures++;
  }
  CHECK_EQ_INT(failures, 0);
  pqt_arena_reset(&arena);
  pqt_buf_free(&b1);
  pqt_buf_free(&b2);
  pqt_buf_free(&j1);
  pqt_buf_free(&j2);
  free(s);
}

static void test_encode_errors(void) {
  pqt_file_metadata m;
  memset(&m, 0, sizeof m);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_thrift_encode(&pqt_desc_file_metadata, &m, &b, &e), PQT_EINVAL);
  CHECK(strstr(e.message, "FileMetaData.version") != NULL);
  CHECK_EQ_INT(b.len, 0);
  /* union with two members */
  pqt_column_order co = {0};
  PQT_SET_FIELD(&co, column_order, type_order);
  PQT_SET_FIELD(&co, column_order, ieee_754_total_order);
  CHECK_EQ_INT(pqt_thrift_encode(&pqt_desc_column_order, &co, &b, NULL), PQT_EINVAL);
  /* an optional union field with no known member is left out */
  pqt_schema_element se = {0};
  PQT_SET_FIELD(&se, schema_element, name);
  se.name = bytes_of("x");
  PQT_SET_FIELD(&se, schema_element, logical_type);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_schema_element, &se, &b, NULL));
  static const uint8_t want[] = {0x48, 0x01, 'x', 0x00};
  CHECK(b.len == sizeof want && memcmp(b.data, want, b.len) == 0);
  pqt_buf_free(&b);
}

static void test_required_missing_and_unions(void) {
  pqt_file_metadata m;
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_error e;
  pqt_error_init(&e);
  /* schema (empty list), num_rows, row_groups (empty) but no version */
  static const uint8_t nover[] = {0x29, 0x0c, 0x16, 0x00, 0x19, 0x0c, 0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_file_metadata, nover, sizeof nover, &a, &m, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "required field FileMetaData.version missing") != NULL);
  static const uint8_t ok[] = {0x15, 0x02, 0x19, 0x0c, 0x16, 0x00, 0x19, 0x0c, 0x00};
  CHECK_OK(decode_copy(&pqt_desc_file_metadata, ok, sizeof ok, &a, &m, NULL));
  CHECK_EQ_INT(m.version, 1);
  CHECK_EQ_INT(m.schema.n, 0);

  /* ColumnOrder union: one member */
  pqt_column_order co;
  static const uint8_t u1[] = {0x1c, 0x00, 0x00};
  CHECK_OK(decode_copy(&pqt_desc_column_order, u1, sizeof u1, NULL, &co, NULL));
  CHECK_EQ_INT(co.isset, PQT_FIELD_MASK(column_order, type_order));
  /* two members */
  static const uint8_t u2[] = {0x1c, 0x00, 0x1c, 0x00, 0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_column_order, u2, sizeof u2, NULL, &co, &e), PQT_ECORRUPT);
  /* none */
  static const uint8_t u0[] = {0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_column_order, u0, sizeof u0, NULL, &co, NULL), PQT_ECORRUPT);
  /* an unknown member (id 9, with content) is accepted and leaves isset 0 */
  static const uint8_t u9[] = {0x9c, 0x15, 0x04, 0x00, 0x00};
  CHECK_OK(decode_copy(&pqt_desc_column_order, u9, sizeof u9, NULL, &co, NULL));
  CHECK_EQ_INT(co.isset, 0);
  /* empty-struct union member with unknown content inside is skipped */
  static const uint8_t u1x[] = {0x1c, 0x18, 0x01, 'z', 0x00, 0x00};
  CHECK_OK(decode_copy(&pqt_desc_column_order, u1x, sizeof u1x, NULL, &co, NULL));
  CHECK_EQ_INT(pqt_union_which(co.isset), PQT_ORDER_TYPE);
  pqt_arena_reset(&a);
}

static void test_huge_counts_do_not_allocate(void) {
  counting_alloc ca = {0, 0};
  pqt_allocator al = {count_realloc, count_free, &ca};
  pqt_arena a;
  pqt_arena_init(&a, &al);
  pqt_file_metadata m;
  pqt_error e;
  pqt_error_init(&e);
  /* version 1, schema: list<struct> of 2^31-1 elements, then nothing */
  static const uint8_t huge[] = {0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_file_metadata, huge, sizeof huge, &a, &m, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "cannot fit") != NULL);
  CHECK_EQ_INT(ca.n_alloc, 0);
  /* a large count that does fit in the bytes (each element one STOP byte)
   * but whose elements are invalid (SchemaElement.name is required): the
   * failure comes after at most one chunk, not a count-sized allocation */
  size_t n = 200000;
  uint8_t *buf = malloc(n + 16);
  size_t k = 0;
  buf[k++] = 0x15;
  buf[k++] = 0x02;
  buf[k++] = 0x19;
  buf[k++] = 0xfc;
  uint32_t v = (uint32_t)n;
  while (v >= 0x80) {
    buf[k++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  buf[k++] = (uint8_t)v;
  memset(buf + k, 0, n);
  k += n;
  buf[k++] = 0x00;
  CHECK_EQ_INT(pqt_thrift_decode(&pqt_desc_file_metadata, buf, k, NULL, &a, &m, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "SchemaElement.name") != NULL);
  CHECK(a.used_bytes <= 2 * 64 * 1024 + 4096);
  /* the container limit */
  pqt_thrift_limits lim = {.max_container_elems = 1000};
  pqt_arena_reset(&a);
  CHECK_EQ_INT(pqt_thrift_decode_ex(&pqt_desc_file_metadata, buf, k, NULL, &a, &lim, &m, NULL), PQT_ELIMIT);
  free(buf);
  pqt_arena_reset(&a);
  CHECK_EQ_INT(ca.live, 0);
  /* a ColumnIndex with list<bool> claiming more bools than bytes */
  pqt_column_index ci;
  static const uint8_t bools[] = {0x19, 0xf1, 0x20, 0x01, 0x01, 0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_column_index, bools, sizeof bools, &a, &ci, NULL), PQT_ECORRUPT);
  pqt_arena_reset(&a);
}

static void test_allocation_budget(void) {
  /* one RowGroup whose 20000 ColumnChunks are 3 bytes each on the wire
   * (file_offset 0, STOP) but ~520 bytes each in memory */
  size_t n = 20000;
  uint8_t *buf = malloc(3 * n + 64);
  size_t k = 0;
  buf[k++] = 0x15;
  buf[k++] = 0x02; /* version 1 */
  buf[k++] = 0x19;
  buf[k++] = 0x0c; /* schema: [] */
  buf[k++] = 0x16;
  buf[k++] = 0x00; /* num_rows 0 */
  buf[k++] = 0x19;
  buf[k++] = 0x1c; /* row_groups: 1 struct */
  buf[k++] = 0x19;
  buf[k++] = 0xfc; /* columns: long form */
  uint32_t v = (uint32_t)n;
  while (v >= 0x80) {
    buf[k++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  buf[k++] = (uint8_t)v;
  for (size_t i = 0; i < n; i++) {
    buf[k++] = 0x26;
    buf[k++] = 0x00;
    buf[k++] = 0x00;
  }
  buf[k++] = 0x16;
  buf[k++] = 0x00; /* total_byte_size */
  buf[k++] = 0x16;
  buf[k++] = 0x00; /* num_rows */
  buf[k++] = 0x00; /* end RowGroup */
  buf[k++] = 0x00; /* end FileMetaData */
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_thrift_decode(&pqt_desc_file_metadata, buf, k, NULL, &a, &m, &e), PQT_ELIMIT);
  CHECK(strstr(e.message, "allocation limit") != NULL);
  CHECK(a.used_bytes <= 64 * k + (1u << 20));
  pqt_arena_reset(&a);
  pqt_thrift_limits lim = {.max_alloc_bytes = 64 << 20};
  CHECK_OK(pqt_thrift_decode_ex(&pqt_desc_file_metadata, buf, k, NULL, &a, &lim, &m, NULL));
  CHECK_EQ_INT(m.row_groups.items[0].columns.n, (int64_t)n);
  pqt_arena_reset(&a);
  free(buf);
}

/* The head of a FileMetaData: version 1, no schema elements, no rows, no
 * row groups; the caller writes further fields and the closing stop. */
static void write_empty_file_metadata_head(pqt_tcw *w, int16_t *last) {
  pqt_tcw_field_begin(w, PQT_TW_I32, PQT_FID_file_metadata_version, last);
  pqt_tcw_i32(w, 1);
  pqt_tcw_field_begin(w, PQT_TW_LIST, PQT_FID_file_metadata_schema, last);
  pqt_tcw_list_begin(w, PQT_TW_STRUCT, 0);
  pqt_tcw_field_begin(w, PQT_TW_I64, PQT_FID_file_metadata_num_rows, last);
  pqt_tcw_i64(w, 0);
  pqt_tcw_field_begin(w, PQT_TW_LIST, PQT_FID_file_metadata_row_groups, last);
  pqt_tcw_list_begin(w, PQT_TW_STRUCT, 0);
}

/* Key i of the key_value_metadata lists below: "k" and i, zero-padded to
 * `width` digits (0: not padded). */
static int kv_key_text(char *key, size_t cap, int width, int i) { return snprintf(key, cap, "k%0*d", width, i); }

/* key_value_metadata with n KeyValue structs holding only their key. */
static void write_kv_keys(pqt_tcw *w, int16_t *last, int n, int width) {
  pqt_tcw_field_begin(w, PQT_TW_LIST, PQT_FID_file_metadata_key_value_metadata, last);
  pqt_tcw_list_begin(w, PQT_TW_STRUCT, n);
  char key[16];
  for (int i = 0; i < n; i++) {
    int16_t l2 = 0;
    int kn = kv_key_text(key, sizeof key, width, i);
    pqt_tcw_field_begin(w, PQT_TW_BINARY, PQT_FID_key_value_key, &l2);
    pqt_tcw_binary(w, (const uint8_t *)key, (size_t)kn);
    pqt_tcw_stop(w);
  }
}

/* m holds the n keys write_kv_keys wrote, each in its place. */
static void check_kv_keys(const pqt_file_metadata *m, int n, int width) {
  CHECK_EQ_INT(m->key_value_metadata.n, n);
  char key[16];
  int bad = 0;
  for (int i = 0; i < n && i < m->key_value_metadata.n; i++) {
    int kn = kv_key_text(key, sizeof key, width, i);
    const pqt_bytes *k = &m->key_value_metadata.items[i].key;
    if (k->len != kn || memcmp(k->ptr, key, (size_t)kn) != 0) bad++;
  }
  CHECK_EQ_INT(bad, 0);
}

static void test_list_growth_keeps_all_elements(void) {
  /* 5000 KeyValue elements (more than one 64 KiB chunk of structs) */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  int16_t last = 0;
  write_empty_file_metadata_head(&w, &last);
  write_kv_keys(&w, &last, 5000, 0);
  pqt_tcw_stop(&w);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, b.data, b.len, NULL, &a, &m, NULL));
  check_kv_keys(&m, 5000, 0);
  pqt_buf b2;
  pqt_buf_init(&b2, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &m, &b2, NULL));
  CHECK(b2.len == b.len && memcmp(b.data, b2.data, b.len) == 0);
  pqt_buf_free(&b2);
  pqt_buf_free(&b);
  pqt_arena_reset(&a);
}

/* A list of structs that outgrows its first 64 KiB chunk is sized for all
 * its elements once the decoded ones show the input holds them: the arena
 * holds the first chunk and one array of n, not a doubling series. */
static void test_list_growth_sized_by_decoded_rate(void) {
  int n = 20000;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  int16_t last = 0;
  write_empty_file_metadata_head(&w, &last);
  write_kv_keys(&w, &last, n, 5);
  pqt_tcw_stop(&w);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, b.data, b.len, NULL, &a, &m, NULL));
  check_kv_keys(&m, n, 5);
  size_t one = (size_t)n * sizeof(pqt_key_value);
  CHECK(a.used_bytes <= one + 64 * 1024 + 4096);
  pqt_arena_reset(&a);
  /* the same count claimed with the input cut after the first elements:
   * the list does not get sized for the claim, decoding fails */
  size_t cut = b.len / 4;
  CHECK_EQ_INT(pqt_thrift_decode(&pqt_desc_file_metadata, b.data, cut, NULL, &a, &m, NULL), PQT_ECORRUPT);
  CHECK(a.used_bytes < one);
  pqt_arena_reset(&a);
  pqt_buf_free(&b);
}

/* A struct field met twice: the last occurrence wins whole, nothing of the
 * first one is left in it. */
static void test_struct_field_twice_last_wins(void) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_tcw w;
  pqt_tcw_init(&w, &b, NULL);
  int16_t last = 0;
  write_empty_file_metadata_head(&w, &last);
  for (int k = 0; k < 2; k++) {
    pqt_tcw_field_begin(&w, PQT_TW_STRUCT, PQT_FID_file_metadata_encryption_algorithm, &last);
    int16_t l2 = 0, l3 = 0;
    pqt_tcw_field_begin(&w, PQT_TW_STRUCT,
                        k == 0 ? PQT_FID_encryption_algorithm_aes_gcm_v1 : PQT_FID_encryption_algorithm_aes_gcm_ctr_v1,
                        &l2);
    if (k == 0) {
      pqt_tcw_field_begin(&w, PQT_TW_BINARY, PQT_FID_aes_gcm_v1_aad_prefix, &l3);
      pqt_tcw_binary(&w, (const uint8_t *)"first", 5);
    }
    pqt_tcw_stop(&w);
    pqt_tcw_stop(&w);
  }
  pqt_tcw_stop(&w);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, b.data, b.len, NULL, &a, &m, NULL));
  CHECK(PQT_HAS_FIELD(&m, file_metadata, encryption_algorithm));
  CHECK(PQT_HAS_FIELD(&m.encryption_algorithm, encryption_algorithm, aes_gcm_ctr_v1));
  CHECK(!PQT_HAS_FIELD(&m.encryption_algorithm, encryption_algorithm, aes_gcm_v1));
  CHECK_EQ_INT(m.encryption_algorithm.aes_gcm_v1.aad_prefix.len, 0);
  CHECK_EQ_INT(m.encryption_algorithm.aes_gcm_v1.isset, 0);
  pqt_arena_reset(&a);
  pqt_buf_free(&b);
}

static void test_page_header_without_arena(void) {
  /* DATA_PAGE v1 with statistics, crc negative; DICTIONARY_PAGE; V2 with
   * is_compressed absent (defaults to true) */
  pqt_page_header h;
  memset(&h, 0, sizeof h);
  PQT_SET_FIELD(&h, page_header, type);
  h.type = PQT_PAGE_DATA;
  PQT_SET_FIELD(&h, page_header, uncompressed_page_size);
  h.uncompressed_page_size = 100;
  PQT_SET_FIELD(&h, page_header, compressed_page_size);
  h.compressed_page_size = 80;
  PQT_SET_FIELD(&h, page_header, crc);
  h.crc = -5;
  PQT_SET_FIELD(&h, page_header, data_page_header);
  PQT_SET_FIELD(&h.data_page_header, data_page_header, num_values);
  h.data_page_header.num_values = 10;
  PQT_SET_FIELD(&h.data_page_header, data_page_header, encoding);
  h.data_page_header.encoding = PQT_ENC_PLAIN;
  PQT_SET_FIELD(&h.data_page_header, data_page_header, definition_level_encoding);
  h.data_page_header.definition_level_encoding = PQT_ENC_RLE;
  PQT_SET_FIELD(&h.data_page_header, data_page_header, repetition_level_encoding);
  h.data_page_header.repetition_level_encoding = PQT_ENC_BIT_PACKED;
  PQT_SET_FIELD(&h.data_page_header, data_page_header, statistics);
  PQT_SET_FIELD(&h.data_page_header.statistics, statistics, nan_count);
  h.data_page_header.statistics.nan_count = 3;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &h, &b, NULL));
  pqt_page_header h2;
  size_t used = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, b.data, b.len, &used, NULL, &h2, NULL));
  CHECK_EQ_INT(used, b.len);
  CHECK(pqt_thrift_equal(&pqt_desc_page_header, &h, &h2));
  CHECK_EQ_INT(h2.crc, -5);
  CHECK_EQ_INT(h2.data_page_header.statistics.nan_count, 3);

  /* V2 without is_compressed */
  static const uint8_t v2[] = {0x15, 0x06, 0x15, 0x10, 0x15, 0x10, 0x5c, 0x15, 0x02, 0x15, 0x00,
                               0x15, 0x02, 0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x00, 0x00};
  CHECK_OK(decode_copy(&pqt_desc_page_header, v2, sizeof v2, NULL, &h2, NULL));
  CHECK(PQT_HAS_FIELD(&h2, page_header, data_page_header_v2));
  CHECK(!PQT_HAS_FIELD(&h2.data_page_header_v2, data_page_header_v2, is_compressed));
  CHECK(h2.data_page_header_v2.is_compressed == true);
  /* re-encoding keeps it absent */
  pqt_buf_clear(&b);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &h2, &b, NULL));
  CHECK(b.len == sizeof v2 && memcmp(b.data, v2, sizeof v2) == 0);

  /* a struct with a non-empty list needs an arena */
  pqt_offset_index oi;
  static const uint8_t oib[] = {0x19, 0x1c, 0x16, 0x08, 0x15, 0x02, 0x16, 0x00, 0x00, 0x00};
  CHECK_EQ_INT(decode_copy(&pqt_desc_offset_index, oib, sizeof oib, NULL, &oi, NULL), PQT_EINVAL);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  CHECK_OK(decode_copy(&pqt_desc_offset_index, oib, sizeof oib, &a, &oi, NULL));
  CHECK_EQ_INT(oi.page_locations.n, 1);
  pqt_arena_reset(&a);
  pqt_buf_free(&b);
}

static void test_json_output(void) {
  pqt_buf j;
  pqt_buf_init(&j, NULL);
  /* ColumnIndex: bools, binary (base64), enum, i64 list */
  pqt_column_index ci;
  memset(&ci, 0, sizeof ci);
  bool np[2] = {true, false};
  pqt_bytes mins[2] = {{(const uint8_t *)"", 0}, {(const uint8_t *)"ab", 2}};
  int64_t nc[2] = {5, 0};
  PQT_SET_FIELD(&ci, column_index, null_pages);
  ci.null_pages.items = np;
  ci.null_pages.n = 2;
  PQT_SET_FIELD(&ci, column_index, min_values);
  ci.min_values.items = mins;
  ci.min_values.n = 2;
  PQT_SET_FIELD(&ci, column_index, max_values);
  ci.max_values.items = mins;
  ci.max_values.n = 2;
  PQT_SET_FIELD(&ci, column_index, boundary_order);
  ci.boundary_order = PQT_BOUNDARY_ASCENDING;
  PQT_SET_FIELD(&ci, column_index, null_counts);
  ci.null_counts.items = nc;
  ci.null_counts.n = 2;
  PQT_SET_FIELD(&ci, column_index, nan_counts);
  ci.nan_counts.items = nc;
  ci.nan_counts.n = 0;
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_column_index, &ci, 0, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  CHECK_EQ_STR((const char *)j.data,
               "{\"null_pages\":[true,false],\"min_values\":[\"\",\"YWI=\"],"
               "\"max_values\":[\"\",\"YWI=\"],\"boundary_order\":\"ASCENDING\","
               "\"null_counts\":[5,0],\"nan_counts\":[]}");
  /* pretty: unions, empty structs, enum out of range and the Encoding hole */
  pqt_schema_element se;
  memset(&se, 0, sizeof se);
  PQT_SET_FIELD(&se, schema_element, type);
  se.type = 42;
  PQT_SET_FIELD(&se, schema_element, name);
  se.name = bytes_of("t\"x");
  PQT_SET_FIELD(&se, schema_element, logical_type);
  PQT_SET_FIELD(&se.logical_type, logical_type, string);
  pqt_buf_clear(&j);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_schema_element, &se, 2, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  CHECK_EQ_STR((const char *)j.data,
               "{\n  \"type\": 42,\n  \"name\": \"t\\\"x\",\n  \"logicalType\": {\n"
               "    \"STRING\": {}\n  }\n}");
  pqt_page_encoding_stats es = {0};
  PQT_SET_FIELD(&es, page_encoding_stats, page_type);
  es.page_type = PQT_PAGE_DICTIONARY;
  PQT_SET_FIELD(&es, page_encoding_stats, encoding);
  es.encoding = 1;
  PQT_SET_FIELD(&es, page_encoding_stats, count);
  es.count = -1;
  pqt_buf_clear(&j);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_page_encoding_stats, &es, 0, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  CHECK_EQ_STR((const char *)j.data, "{\"page_type\":\"DICTIONARY_PAGE\",\"encoding\":1,\"count\":-1}");
  /* column orders list of empty-member unions, timestamp unit, doubles */
  pqt_file_metadata m;
  rich_storage *s = malloc(sizeof *s);
  build_rich(&m, s);
  pqt_buf_clear(&j);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_file_metadata, &m, 0, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  const char *js = (const char *)j.data;
  CHECK(strstr(js, "\"column_orders\":[{\"TYPE_ORDER\":{}},{\"IEEE_754_TOTAL_ORDER\":{}}]") != NULL);
  CHECK(strstr(js, "\"logicalType\":{\"TIMESTAMP\":{\"isAdjustedToUTC\":true,\"unit\":{\"MICROS\":{}}}}") != NULL);
  CHECK(strstr(js, "\"INTEGER\":{\"bitWidth\":8,\"isSigned\":false}") != NULL);
  CHECK(strstr(js, "\"GEOGRAPHY\":{\"crs\":\"OGC:CRS84\",\"algorithm\":\"KARNEY\"}") != NULL);
  CHECK(strstr(js, "\"bbox\":{\"xmin\":-180,\"xmax\":180,\"ymin\":-90.5,\"ymax\":1e-300,\"mmin\":0.1}") != NULL);
  CHECK(strstr(js, "\"crypto_metadata\":{\"ENCRYPTION_WITH_FOOTER_KEY\":{}}") != NULL);
  CHECK(strstr(js, "\"encodings\":[\"PLAIN\",\"RLE_DICTIONARY\"]") != NULL);
  CHECK(strstr(js, "\"codec\":\"ZSTD\"") != NULL);
  CHECK(strstr(js, "\"key\":\"k\\\"ey\",\"value\":\"v\\n1\"") != NULL);
  CHECK(strstr(js, "\"max_value\":\"AP8QgA==\"") != NULL);
  CHECK(strstr(js,
               "\"encryption_algorithm\":{\"AES_GCM_CTR_V1\":{\"aad_file_unique\":\"AP8QgA==\",\"supply_aad_prefix\":"
               "true}}") != NULL);
  CHECK(strstr(js, "\"path_in_schema\":[\"b\",\"list\"]") != NULL);
  free(s);
  pqt_buf_free(&j);
}

RUN_TESTS("thrift", TEST_CASE(test_varint_zigzag_i32), TEST_CASE(test_varint_i64_and_limits),
          TEST_CASE(test_double_byte_binary), TEST_CASE(test_field_headers), TEST_CASE(test_list_and_map_headers),
          TEST_CASE(test_skip_unknown_fields_of_every_type), TEST_CASE(test_wire_type_mismatch_is_skipped),
          TEST_CASE(test_depth_limit), TEST_CASE(test_file_metadata_roundtrip), TEST_CASE(test_encode_errors),
          TEST_CASE(test_required_missing_and_unions), TEST_CASE(test_huge_counts_do_not_allocate),
          TEST_CASE(test_allocation_budget), TEST_CASE(test_list_growth_keeps_all_elements), TEST_CASE(test_list_growth_sized_by_decoded_rate),
          TEST_CASE(test_struct_field_twice_last_wins),
          TEST_CASE(test_page_header_without_arena), TEST_CASE(test_json_output))
