/* Unit tests for the writer's hot paths made faster for issue 13: the
 * dictionary builder's keyed table (values of 1..8 bytes are their own
 * key, wider ones and byte arrays a hash confirmed bytewise), the
 * byte-array min/max decided by 8-byte prefixes, and the RLE level
 * encoder's one-run shortcut for pages without nulls. Each is checked
 * against a plain reference on data made to hit its edge cases. */
#include <math.h>
#include <stdlib.h>

#include "column/statistics.h"
#include "core/core.h"
#include "encoding/dictionary.h"
#include "encoding/rle.h"
#include "harness.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

static size_t g_width;
static int cmp_entry(const void *a, const void *b) { return memcmp(a, b, g_width); }

/* n values of `width` bytes, drawn from `domain` distinct ones (bytes that
 * differ only in their high bytes or last byte, so a key or hash that
 * dropped bytes would merge them); the builder must give first-seen
 * indices whose entries hold the value, and no entry twice. */
static void check_fixed(size_t width, size_t n, uint64_t domain) {
  uint8_t *vals = malloc(n * width);
  uint32_t *idx = malloc(n * sizeof *idx);
  CHECK(vals && idx);
  for (size_t i = 0; i < n; i++) {
    uint64_t d = next_rand() % domain;
    uint8_t *v = vals + i * width;
    memset(v, 0xA5, width);
    for (size_t k = 0; k < width && k < 8; k++) v[width - 1 - k] = (uint8_t)(d >> (8 * k)); /* high bytes vary */
    v[0] ^= (uint8_t)(d & 1);
  }
  pqt_dict_builder b;
  pqt_dict_builder_init(&b, width, NULL);
  /* in uneven batches, as pages feed it */
  for (size_t at = 0; at < n;) {
    size_t k = 1 + (size_t)(next_rand() % 700);
    if (k > n - at) k = n - at;
    CHECK_OK(pqt_dict_builder_add_fixed(&b, vals + at * width, k, idx + at, NULL));
    at += k;
  }
  size_t count = pqt_dict_builder_count(&b);
  CHECK_EQ_INT(pqt_dict_builder_bytes(&b), count * width);
  int bad_value = 0, bad_order = 0;
  uint32_t next_new = 0;
  for (size_t i = 0; i < n; i++) {
    bad_value |= idx[i] >= count || memcmp(b.plain.data + (size_t)idx[i] * width, vals + i * width, width) != 0;
    if (idx[i] == next_new) next_new++;
    else bad_order |= idx[i] > next_new;
  }
  CHECK_MSG(!bad_value, "width %zu: an index names another value", width);
  CHECK_MSG(!bad_order, "width %zu: indices not in first-seen order", width);
  CHECK_EQ_INT(next_new, count);
  uint8_t *sorted = malloc(count * width + 1);
  CHECK(sorted);
  memcpy(sorted, b.plain.data, count * width);
  g_width = width;
  qsort(sorted, count, width, cmp_entry);
  int dup = 0;
  for (size_t i = 1; i < count; i++) dup |= memcmp(sorted + (i - 1) * width, sorted + i * width, width) == 0;
  CHECK_MSG(!dup, "width %zu: one value has two entries", width);
  free(sorted);
  pqt_dict_builder_free(&b);
  free(vals);
  free(idx);
}

static void test_dict_fixed_widths(void) {
  static const size_t widths[] = {1, 2, 3, 4, 5, 8, 12, 16};
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
    size_t w = widths[i];
    uint64_t domain = w == 1 ? 256 : 9000; /* 9000: the table grows several times */
    check_fixed(w, 30000, domain);
    check_fixed(w, 100, 7);
  }
}

/* -0.0 and +0.0, and NaNs with different payloads, stay apart (bytewise). */
static void test_dict_float_bits(void) {
  double v[6];
  uint64_t nan1 = 0x7FF8000000000001ull, nan2 = 0x7FF8000000000002ull;
  v[0] = 0.0;
  v[1] = -0.0;
  memcpy(&v[2], &nan1, 8);
  memcpy(&v[3], &nan2, 8);
  v[4] = -0.0;
  memcpy(&v[5], &nan1, 8);
  uint32_t idx[6];
  pqt_dict_builder b;
  pqt_dict_builder_init(&b, 8, NULL);
  CHECK_OK(pqt_dict_builder_add_fixed(&b, v, 6, idx, NULL));
  CHECK_EQ_INT(pqt_dict_builder_count(&b), 4);
  CHECK(idx[0] == 0 && idx[1] == 1 && idx[2] == 2 && idx[3] == 3 && idx[4] == 1 && idx[5] == 2);
  pqt_dict_builder_free(&b);
}

/* Byte arrays with shared prefixes, empty ones, and values that differ
 * only in length or in a trailing zero byte. */
static void test_dict_binary(void) {
  enum { N = 20000 };
  int32_t *offs = malloc((N + 1) * sizeof *offs);
  uint8_t *data = malloc((size_t)N * 24);
  uint32_t *idx = malloc(N * sizeof *idx);
  CHECK(offs && data && idx);
  offs[0] = 0;
  for (int i = 0; i < N; i++) {
    uint64_t d = next_rand() % 5000;
    int len = (int)(d % 21);
    uint8_t *p = data + offs[i];
    for (int k = 0; k < len; k++) p[k] = k < len - 2 ? (uint8_t)'p' : (uint8_t)(d >> (3 * k)); /* long shared prefix */
    if (len && d % 3 == 0) p[len - 1] = 0;
    offs[i + 1] = offs[i] + len;
  }
  pqt_dict_builder b;
  pqt_dict_builder_init(&b, 0, NULL);
  CHECK_OK(pqt_dict_builder_add_binary(&b, offs, data, N, idx, NULL));
  size_t count = pqt_dict_builder_count(&b);
  /* entries: starts[] gives each one's length-prefixed bytes */
  int bad = 0;
  uint32_t next_new = 0;
  for (int i = 0; i < N; i++) {
    const uint8_t *e = b.plain.data + b.starts[idx[i]];
    uint32_t el = pqt_load_u32le(e);
    size_t vl = (size_t)(offs[i + 1] - offs[i]);
    bad |= el != vl || (vl && memcmp(e + 4, data + offs[i], vl) != 0);
    if (idx[i] == next_new) next_new++;
    else bad |= idx[i] > next_new;
  }
  CHECK(!bad);
  CHECK_EQ_INT(next_new, count);
  /* no two entries equal */
  int dup = 0;
  for (size_t a = 0; a < count && !dup; a++) {
    const uint8_t *ea = b.plain.data + b.starts[a];
    for (size_t c = a + 1; c < count; c++) {
      const uint8_t *ec = b.plain.data + b.starts[c];
      uint32_t la = pqt_load_u32le(ea);
      if (la == pqt_load_u32le(ec) && memcmp(ea + 4, ec + 4, la) == 0) {
        dup = 1;
        break;
      }
    }
  }
  CHECK(!dup);
  pqt_dict_builder_free(&b);
  free(offs);
  free(data);
  free(idx);
}

/* min/max of byte arrays: the prefix shortcut against a whole-value scan. */
static void test_stats_binary_prefix(void) {
  static const uint8_t alphabet[] = {0x00, 0x01, 'a', 'b', 0x7F, 0x80, 0xFE, 0xFF};
  for (int round = 0; round < 200; round++) {
    enum { N = 64 };
    int32_t offs[N + 1];
    uint8_t data[N * 20];
    offs[0] = 0;
    int shared = (int)(next_rand() % 12); /* a common prefix up to 11 bytes: past the 8 the shortcut sees */
    for (int i = 0; i < N; i++) {
      int len = (int)(next_rand() % 20);
      uint8_t *p = data + offs[i];
      for (int k = 0; k < len; k++) p[k] = k < shared ? (uint8_t)'q' : alphabet[next_rand() % sizeof alphabet];
      offs[i + 1] = offs[i] + len;
    }
    size_t n = 1 + (size_t)(next_rand() % N);
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < n; i++) {
      size_t vl = (size_t)(offs[i + 1] - offs[i]);
      if (pqt_stats_compare(PQT_SORT_BYTES, data + offs[i], vl, data + offs[lo], (size_t)(offs[lo + 1] - offs[lo])) < 0)
        lo = i;
      if (pqt_stats_compare(PQT_SORT_BYTES, data + offs[i], vl, data + offs[hi], (size_t)(offs[hi + 1] - offs[hi])) > 0)
        hi = i;
    }
    pqt_stats s;
    pqt_stats_init(&s, PQT_SORT_BYTES, 0, NULL);
    CHECK_OK(pqt_stats_update_binary(&s, offs, data, n, NULL));
    CHECK(s.has_minmax);
    size_t lol = (size_t)(offs[lo + 1] - offs[lo]), hil = (size_t)(offs[hi + 1] - offs[hi]);
    CHECK_MSG(s.min.len == lol && (lol == 0 || memcmp(s.min.data, data + offs[lo], lol) == 0), "round %d: min", round);
    CHECK_MSG(s.max.len == hil && (hil == 0 || memcmp(s.max.data, data + offs[hi], hil) == 0), "round %d: max", round);
    pqt_stats_free(&s);
  }
  /* "ab" < "ab\0" < "ab\0\0": equal zero-padded prefixes, length decides */
  const uint8_t d2[] =
      "ab"
      "ab\0"
      "ab\0\0";
  const int32_t o2[4] = {2, 5, 9, 9}; /* "ab\0", "ab\0\0", "" */
  pqt_stats s;
  pqt_stats_init(&s, PQT_SORT_BYTES, 0, NULL);
  CHECK_OK(pqt_stats_update_binary(&s, o2, d2, 2, NULL));
  CHECK(s.min.len == 3 && s.max.len == 4);
  CHECK_OK(pqt_stats_update_binary(&s, (const int32_t[]){0, 2}, d2, 1, NULL));
  CHECK(s.min.len == 2 && s.max.len == 4);
  pqt_stats_free(&s);
}

/* Levels all equal: the same bytes as the general encoder (u32 input). */
static void test_levels_one_run(void) {
  static const size_t ns[] = {1, 7, 8, 9, 63, 64, 1000, 20000, 70000};
  for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
    size_t n = ns[t];
    for (int16_t lv = 0; lv <= 3; lv++) {
      unsigned bw = lv == 3 ? 2 : 1;
      if (lv > 1 && bw == 1) continue;
      int16_t *l16 = malloc(n * sizeof *l16);
      uint32_t *l32 = malloc(n * sizeof *l32);
      CHECK(l16 && l32);
      for (size_t i = 0; i < n; i++) {
        l16[i] = lv;
        l32[i] = (uint32_t)lv;
      }
      pqt_buf a, b;
      pqt_buf_init(&a, NULL);
      pqt_buf_init(&b, NULL);
      CHECK_OK(pqt_rle_encode_levels(l16, n, bw, &a, NULL));
      CHECK_OK(pqt_rle_encode_u32(l32, n, bw, &b, NULL));
      CHECK_MSG(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "n=%zu level %d", n, lv);
      pqt_buf_free(&a);
      pqt_buf_free(&b);
      free(l16);
      free(l32);
    }
  }
  /* bit width 1: a run of 24 costs as much as RLE as bit-packed and stays
   * literal; 25 and more become an RLE run (header 50, value 1) */
  for (size_t r = 24; r <= 25; r++) {
    uint32_t v[40];
    for (size_t i = 0; i < 40; i++) v[i] = i < 8 ? (uint32_t)(i & 1) : (i < 8 + r ? 1u : 0u);
    pqt_buf e;
    pqt_buf_init(&e, NULL);
    CHECK_OK(pqt_rle_encode_u32(v, 8 + r, 1, &e, NULL));
    if (r == 24) CHECK(e.len == 1 + 4 && e.data[0] == ((4 << 1) | 1)); /* one literal run of 4 groups */
    else CHECK(e.len == 2 + 2 && e.data[2] == (25 << 1) && e.data[3] == 1);
    pqt_buf_free(&e);
  }
  /* a level that does not fit the bit width is refused, as before */
  int16_t big[16];
  for (int i = 0; i < 16; i++) big[i] = 2;
  pqt_buf o;
  pqt_buf_init(&o, NULL);
  CHECK(pqt_rle_encode_levels(big, 16, 1, &o, NULL) == PQT_EINVAL);
  pqt_buf_free(&o);
}

RUN_TESTS("write_hotpaths", TEST_CASE(test_dict_fixed_widths), TEST_CASE(test_dict_float_bits),
          TEST_CASE(test_dict_binary), TEST_CASE(test_stats_binary_prefix), TEST_CASE(test_levels_one_run))
