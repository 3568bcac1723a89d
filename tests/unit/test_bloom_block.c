/* meta/bloom's one-block helpers (BloomFilter.md "Split Block Bloom
 * Filter"): pqt_bloom_block_of picks the block pqt_bloom_insert sets, and
 * pqt_bloom_check_block over that block, serialized, answers what
 * pqt_bloom_check answers over the whole filter; for filters of a power of
 * two and of any other number of blocks (a file's numBytes is a multiple
 * of 32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "meta/bloom.h"

static void check_filter(uint32_t n_blocks) {
  pqt_bloom b;
  CHECK_OK(pqt_bloom_init_blocks(&b, n_blocks, NULL, NULL));
  CHECK_EQ_INT(b.n_blocks, n_blocks);
  for (uint64_t i = 0; i < 50; i++) {
    uint64_t v = i * 2654435761u;
    pqt_bloom_insert(&b, pqt_bloom_hash(&v, 8));
  }
  pqt_buf ser;
  pqt_buf_init(&ser, NULL);
  CHECK_OK(pqt_bloom_serialize(&b, &ser, NULL));
  const uint8_t *bits = ser.data + ser.len - (size_t)n_blocks * 32; /* the bitset follows the header */
  int64_t agree = 0, maybe = 0, blocks_seen = 0;
  uint8_t *seen = calloc(n_blocks, 1);
  for (uint64_t i = 0; i < 4000; i++) {
    uint64_t h = pqt_bloom_hash(&i, 8);
    uint32_t k = pqt_bloom_block_of(h, n_blocks);
    CHECK(k < n_blocks);
    if (k >= n_blocks) break;
    if (!seen[k]) blocks_seen++;
    seen[k] = 1;
    bool whole = pqt_bloom_check(&b, h);
    agree += pqt_bloom_check_block(bits + (size_t)k * 32, h) == whole;
    maybe += whole;
  }
  CHECK_EQ_INT(agree, 4000);
  CHECK(maybe > 0 && maybe < 4000);    /* the comparison saw both answers */
  CHECK_EQ_INT(blocks_seen, n_blocks); /* every block is selected by some hash */
  /* every inserted value is found block by block */
  for (uint64_t i = 0; i < 50; i++) {
    uint64_t v = i * 2654435761u, h = pqt_bloom_hash(&v, 8);
    CHECK(pqt_bloom_check_block(bits + (size_t)pqt_bloom_block_of(h, n_blocks) * 32, h));
  }
  free(seen);
  pqt_buf_free(&ser);
  pqt_bloom_free(&b);
}

static void test_block_helpers(void) {
  check_filter(1);
  check_filter(3);
  check_filter(8);
  check_filter(13);
}

static void test_block_of_formula(void) {
  /* (hash >> 32) * n >> 32: the top 32 bits scaled to [0, n) */
  CHECK_EQ_INT(pqt_bloom_block_of(0, 7), 0);
  CHECK_EQ_INT(pqt_bloom_block_of(UINT64_MAX, 7), 6);
  CHECK_EQ_INT(pqt_bloom_block_of((uint64_t)0x80000000u << 32, 10), 5);
  CHECK_EQ_INT(pqt_bloom_block_of(0xffffffffu, 1000), 0); /* the low half does not pick the block */
}

static void test_init_blocks_bounds(void) {
  pqt_bloom b;
  pqt_error e;
  pqt_error_init(&e);
  CHECK(pqt_bloom_init_blocks(&b, 0, NULL, &e) == PQT_EINVAL);
  CHECK(b.words == NULL);
  CHECK(pqt_bloom_init_blocks(&b, (128u << 20) / 32 + 1, NULL, &e) == PQT_EINVAL);
  CHECK(b.words == NULL);
  pqt_bloom_free(&b);                                    /* harmless after a refused init */
  CHECK(pqt_bloom_init(&b, 96, NULL, &e) == PQT_EINVAL); /* the writer's sizes stay powers of two */
  pqt_bloom_free(&b);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_block_helpers), TEST_CASE(test_block_of_formula),
                                        TEST_CASE(test_init_blocks_bounds)};
  return pqt_run_tests("bloom_block", cases, sizeof cases / sizeof cases[0]);
}
