/*
 * tests/rng.h: the tests' one pseudo-random generator, xorshift64 (shifts
 * 13, 7, 17; Marsaglia, "Xorshift RNGs", 2003). pqt_test_xorshift advances
 * *state and returns the new state; a nonzero seed gives the same sequence
 * on every machine, so a failing random case can be replayed from its seed.
 */
#ifndef PQT_TESTS_RNG_H
#define PQT_TESTS_RNG_H

#include <stdint.h>

static inline uint64_t pqt_test_xorshift(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *state = x;
  return x;
}

#endif
