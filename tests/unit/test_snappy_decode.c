/* Unit tests for src/codec/snappy_decode.c: hand-made blocks for every
 * element kind and every way a block can be wrong, each checked against
 * libsnappy's verdict (the decoder must accept and reject exactly what
 * snappy_uncompress does), and round trips of libsnappy's compression. */
#include <snappy-c.h>

#include "codec/snappy_decode.h"
#include "core/core.h"
#include "harness.h"
#include "rng.h"

/* Both decoders on one block, into exact-size heap buffers: same verdict,
 * same bytes. Returns the verdict. */
static bool both(const uint8_t *blk, size_t n, int line) {
  size_t lib_len = 0, our_len = 0;
  bool lok = snappy_uncompressed_length((const char *)blk, n, &lib_len) == SNAPPY_OK;
  bool ook = pqt_snappy_declared_length(blk, n, &our_len);
  CHECK_MSG(lok == ook && (!lok || lib_len == our_len), "line %d: preamble", line);
  if (!lok || lib_len > (1u << 20)) return false;
  uint8_t *a = malloc(lib_len ? lib_len : 1), *b = malloc(lib_len ? lib_len : 1);
  size_t got = lib_len;
  bool la = snappy_uncompress((const char *)blk, n, (char *)a, &got) == SNAPPY_OK && got == lib_len;
  bool lb = pqt_snappy_decode(blk, n, b, lib_len);
  CHECK_MSG(la == lb, "line %d: libsnappy says %d, ours %d", line, (int)la, (int)lb);
  if (la && lb) CHECK_MSG(lib_len == 0 || memcmp(a, b, lib_len) == 0, "line %d: bytes differ", line);
  free(a);
  free(b);
  return lb;
}

#define BOTH(...)                                \
  do {                                           \
    static const uint8_t blk_[] = {__VA_ARGS__}; \
    (void)both(blk_, sizeof blk_, __LINE__);     \
  } while (0)
#define EXPECT(ok, ...)                                    \
  do {                                                     \
    static const uint8_t blk_[] = {__VA_ARGS__};           \
    CHECK_EQ_INT(both(blk_, sizeof blk_, __LINE__), (ok)); \
  } while (0)

static void test_elements(void) {
  EXPECT(true, 0x00);                                               /* empty */
  EXPECT(true, 0x05, 0x10, 'h', 'e', 'l', 'l', 'o');                /* literal of 5 */
  EXPECT(true, 0x06, 0x00, 'a', 0x05, 0x01);                        /* 'a' then copy1 len 5 offset 1 (overlap) */
  EXPECT(false, 0x06, 0x04, 'a', 'b', 0x06, 0x02, 0x00);            /* "ab" then copy2 len 2 offset 2, short of 6 */
  EXPECT(true, 0x04, 0x04, 'a', 'b', 0x06, 0x02, 0x00);             /* "ab" + copy2 len 2 offset 2 */
  EXPECT(true, 0x04, 0x04, 'a', 'b', 0x07, 0x02, 0x00, 0x00, 0x00); /* copy4 */
  EXPECT(true, 0x03, 0xf0, 0x02, 'x', 'y', 'z');                    /* literal with a 1-byte length */
  EXPECT(true, 0x00, 0xfc, 0xff, 0xff, 0xff, 0xff);                 /* 4-byte length 2^32: wraps to 0 as in libsnappy */
}

static void test_bad_blocks(void) {
  EXPECT(false, 0x80);                              /* preamble cut */
  EXPECT(false, 0xff, 0xff, 0xff, 0xff, 0x1f);      /* preamble over 32 bits */
  EXPECT(false, 0x05, 0x10, 'h', 'e');              /* literal cut */
  EXPECT(false, 0x03, 0xf0);                        /* literal length byte missing */
  EXPECT(false, 0x04, 0x00, 'a', 0x01, 0x00);       /* copy1 offset 0 */
  EXPECT(false, 0x06, 0x00, 'a', 0x05, 0x02);       /* copy1 before the start */
  EXPECT(false, 0x02, 0x00, 'a', 0x05, 0x01);       /* copy past the declared end */
  EXPECT(false, 0x02, 0x00, 'a', 0x02);             /* copy2 offset cut */
  EXPECT(false, 0x02, 0x00, 'a', 0x03, 0x01, 0x00); /* copy4 offset cut */
  EXPECT(false, 0x03, 0x00, 'a');                   /* output short of the declared length */
  EXPECT(false, 0x01, 0x04, 'a', 'b');              /* literal past the declared end */
  EXPECT(false, 0x00, 0x00);                        /* literal into an empty output */
}

/* Compressible and incompressible data of many sizes through libsnappy's
 * compressor and our decoder; truncations of each block agree with
 * libsnappy's verdict. */
static void test_round_trips(void) {
  uint64_t s = 0x9e3779b97f4a7c15u;
  size_t sizes[] = {0, 1, 15, 16, 17, 31, 64, 100, 1000, 4095, 65536, 65537, 300000};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    for (int kind = 0; kind < 4; kind++) {
      size_t n = sizes[k];
      uint8_t *d = malloc(n ? n : 1);
      for (size_t i = 0; i < n; i++) {
        pqt_test_xorshift(&s);
        /* kind 0: random; 1: few symbols; 2: runs; 3: words repeated at far offsets */
        d[i] = kind == 0   ? (uint8_t)s
               : kind == 1 ? (uint8_t)('a' + s % 4)
               : kind == 2 ? (uint8_t)(i / 37)
                           : (uint8_t)("the quick brown fox jumps over the lazy dog"[(i * 7 + (s % 3)) % 43]);
      }
      size_t cap = snappy_max_compressed_length(n), cn = cap;
      char *c = malloc(cap);
      CHECK(snappy_compress((const char *)d, n, c, &cn) == SNAPPY_OK);
      uint8_t *back = malloc(n ? n : 1);
      CHECK_MSG(pqt_snappy_decode((const uint8_t *)c, cn, back, n), "size %zu kind %d", n, kind);
      CHECK_MSG(n == 0 || memcmp(back, d, n) == 0, "size %zu kind %d", n, kind);
      /* a wrong output size is refused */
      if (n) CHECK(!pqt_snappy_decode((const uint8_t *)c, cn, back, n - 1));
      if (n < 2000)
        for (size_t cut = 0; cut < cn; cut++) (void)both((const uint8_t *)c, cut, __LINE__);
      free(back);
      free(c);
      free(d);
    }
  }
}

RUN_TESTS("snappy_decode", TEST_CASE(test_elements), TEST_CASE(test_bad_blocks), TEST_CASE(test_round_trips))
