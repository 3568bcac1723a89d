/*
 * fuzz/fuzz_alloc.h: a checking, counting pqt_allocator for the fuzz
 * targets and the hardening tests (header-only, no global state).
 *
 * Every block carries a 16-byte header with its size, so the allocator can
 * check the pqt_allocator contract ("sizes are always passed back exactly
 * as allocated") and count live bytes exactly. It fails, returning NULL:
 *   - any single request above max_single (0 = no ceiling),
 *   - any request that would take live bytes above max_live (0 = none),
 *   - the fail_at-th allocation or growing realloc (1-based; 0 = never).
 * A size mismatch on free/realloc is recorded in size_mismatches (the
 * caller asserts it stays 0).
 */
#ifndef PQT_FUZZ_ALLOC_H
#define PQT_FUZZ_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

typedef struct pqt_fuzz_alloc {
  pqt_allocator base; /* pass &fa->base; base.ctx points back here */
  size_t max_single;  /* fail single requests above this (0 = none) */
  size_t max_live;    /* fail when live bytes would exceed this (0 = none) */
  uint64_t fail_at;   /* fail exactly this allocation (1-based; 0 = never) */
  uint64_t n_calls;   /* allocations and growing reallocs so far */
  uint64_t n_failed;  /* requests refused */
  size_t live;        /* bytes currently allocated */
  size_t peak;        /* largest `live` seen */
  size_t largest;     /* largest single request granted */
  uint64_t size_mismatches;
} pqt_fuzz_alloc;

#define PQT_FUZZ_ALLOC_HDR 16u

static void *pqt_fuzz_alloc_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
  pqt_fuzz_alloc *fa = ctx;
  if (new_n == 0) new_n = 1;
  size_t real_old = 0;
  uint8_t *base = NULL;
  if (p) {
    base = (uint8_t *)p - PQT_FUZZ_ALLOC_HDR;
    memcpy(&real_old, base, sizeof real_old);
    if (real_old != (old_n ? old_n : 1)) fa->size_mismatches++;
  }
  if (!p || new_n > real_old) {
    fa->n_calls++;
    if ((fa->fail_at && fa->n_calls == fa->fail_at) || (fa->max_single && new_n > fa->max_single) ||
        new_n > SIZE_MAX - PQT_FUZZ_ALLOC_HDR || (fa->max_live && fa->live - real_old + new_n > fa->max_live)) {
      fa->n_failed++;
      return NULL;
    }
  }
  uint8_t *q = realloc(base, new_n + PQT_FUZZ_ALLOC_HDR);
  if (!q) {
    fa->n_failed++;
    return NULL;
  }
  memcpy(q, &new_n, sizeof new_n);
  fa->live = fa->live - real_old + new_n;
  if (fa->live > fa->peak) fa->peak = fa->live;
  if (new_n > fa->largest) fa->largest = new_n;
  return q + PQT_FUZZ_ALLOC_HDR;
}

static void pqt_fuzz_alloc_free(void *ctx, void *p, size_t n) {
  pqt_fuzz_alloc *fa = ctx;
  if (!p) return;
  uint8_t *base = (uint8_t *)p - PQT_FUZZ_ALLOC_HDR;
  size_t real = 0;
  memcpy(&real, base, sizeof real);
  if (real != (n ? n : 1)) fa->size_mismatches++;
  fa->live -= real;
  free(base);
}

static inline void pqt_fuzz_alloc_init(pqt_fuzz_alloc *fa) {
  memset(fa, 0, sizeof *fa);
  fa->base.realloc = pqt_fuzz_alloc_realloc;
  fa->base.free = pqt_fuzz_alloc_free;
  fa->base.ctx = fa;
}

#endif
