/* bench/bench_util.h: what the benchmark programs share: a monotonic clock
 * in seconds and the xorshift64 generator of the data they make. */
#ifndef PQT_BENCH_UTIL_H
#define PQT_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

static inline double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64 (Marsaglia): *state must not be 0. */
static inline uint64_t xorshift64(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

#endif
