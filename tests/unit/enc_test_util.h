/* Shared helpers for the encoding unit tests: seeded PRNG and exact-size
 * heap copies (so AddressSanitizer flags any read past a span). */
#ifndef PQT_ENC_TEST_UTIL_H
#define PQT_ENC_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t enc_rng_state = 0x9e3779b97f4a7c15ull;
static inline void enc_seed(uint64_t s) { enc_rng_state = s; }
static inline uint64_t enc_rand(void) {
  uint64_t z = (enc_rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static inline uint64_t enc_rand_bits(unsigned w) {
  return w == 0 ? 0 : w >= 64 ? enc_rand() : enc_rand() & ((1ull << w) - 1);
}
/* An exact-size heap copy (at least 1 byte allocated; len may be 0). */
static inline uint8_t *enc_dup(const void *p, size_t len) {
  uint8_t *q = malloc(len ? len : 1);
  if (len) memcpy(q, p, len);
  return q;
}

#endif
