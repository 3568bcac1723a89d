/* Unit tests for meta/bloom (BloomFilter.md, seeds/002): the split-block
 * filter against parquet-mr's bloom_filter.xxhash.bin from the corpus. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "meta/bloom.h"

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long l = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)l + 1);
  *n = fread(b, 1, (size_t)l, f);
  fclose(f);
  return b;
}

static const char *WORDS[] = {"hello", "parquet", "bloom", "filter"};

static void test_corpus_filter(void) {
  const char *dir = getenv("PARQUET_TESTING_DIR") ? getenv("PARQUET_TESTING_DIR") : PQT_TESTING_DIR_DEFAULT;
  char path[1024];
  snprintf(path, sizeof path, "%s/data/bloom_filter.xxhash.bin", dir);
  size_t n = 0;
  uint8_t *buf = slurp(path, &n);
  if (!buf) {
    fprintf(stderr, "  SKIP: %s not found\n", path);
    return;
  }
  pqt_bloom theirs, ours;
  size_t used = 0;
  CHECK_OK(pqt_bloom_parse(buf, n, NULL, &theirs, &used, NULL));
  CHECK_EQ_INT(used, n);
  for (int i = 0; i < 4; i++) CHECK(pqt_bloom_check(&theirs, pqt_bloom_hash(WORDS[i], strlen(WORDS[i]))));
  /* the same inserts into a filter of the same size give the same bits */
  CHECK_OK(pqt_bloom_init(&ours, (size_t)theirs.n_blocks * 32, NULL, NULL));
  for (int i = 0; i < 4; i++) pqt_bloom_insert(&ours, pqt_bloom_hash(WORDS[i], strlen(WORDS[i])));
  CHECK(memcmp(ours.words, theirs.words, (size_t)ours.n_blocks * 32) == 0);
  pqt_buf ser;
  pqt_buf_init(&ser, NULL);
  CHECK_OK(pqt_bloom_serialize(&ours, &ser, NULL));
  CHECK_EQ_INT(ser.len, n);
  CHECK(ser.len == n && memcmp(ser.data, buf, n) == 0);
  pqt_buf_free(&ser);
  pqt_bloom_free(&ours);
  pqt_bloom_free(&theirs);
  free(buf);
}

static void test_sizes_and_fpp(void) {
  CHECK_EQ_INT(pqt_bloom_optimal_bytes(0, 0.01), 32);
  size_t b = pqt_bloom_optimal_bytes(100000, 0.01);
  CHECK(b >= 100000 && (b & (b - 1)) == 0);
  CHECK(pqt_bloom_optimal_bytes(INT64_MAX / 2, 0.001) == (128u << 20));
  pqt_bloom f;
  CHECK_OK(pqt_bloom_init(&f, pqt_bloom_optimal_bytes(1000, 0.01), NULL, NULL));
  for (int64_t i = 0; i < 1000; i++) pqt_bloom_insert(&f, pqt_bloom_hash(&i, 8));
  for (int64_t i = 0; i < 1000; i++) CHECK(pqt_bloom_check(&f, pqt_bloom_hash(&i, 8)));
  int fp = 0;
  for (int64_t i = 1000; i < 101000; i++) fp += pqt_bloom_check(&f, pqt_bloom_hash(&i, 8));
  CHECK_MSG(fp < 2000, "false positives %d of 100000 at fpp 0.01", fp);
  pqt_bloom_free(&f);
  pqt_bloom g;
  CHECK(pqt_bloom_init(&g, 48, NULL, NULL) == PQT_EINVAL);
}

/* Folding a filter keeps every inserted value and equals a filter built at
 * the smaller size from the start. */
static void test_fold(void) {
  pqt_bloom big, small;
  CHECK_OK(pqt_bloom_init(&big, 1u << 16, NULL, NULL));
  CHECK_OK(pqt_bloom_init(&small, 1u << 10, NULL, NULL));
  for (uint64_t i = 0; i < 300; i++) {
    uint64_t v = i * 7919u + 13u;
    uint64_t h = pqt_bloom_hash(&v, 8);
    pqt_bloom_insert(&big, h);
    pqt_bloom_insert(&small, h);
  }
  pqt_bloom_fold(&big, 1u << 10);
  CHECK_EQ_INT(big.n_blocks, small.n_blocks);
  CHECK(memcmp(big.words, small.words, (size_t)small.n_blocks * 32) == 0);
  for (uint64_t i = 0; i < 300; i++) {
    uint64_t v = i * 7919u + 13u;
    CHECK(pqt_bloom_check(&big, pqt_bloom_hash(&v, 8)));
  }
  pqt_bloom_fold(&big, 1); /* down to one block */
  CHECK_EQ_INT(big.n_blocks, 1);
  pqt_bloom_free(&big); /* frees what was allocated, whatever the folded size */
  pqt_bloom_free(&small);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_corpus_filter), TEST_CASE(test_sizes_and_fpp),
                                        TEST_CASE(test_fold)};
  return pqt_run_tests("bloom", cases, sizeof cases / sizeof cases[0]);
}
