/* core/alloc.c: the default allocator and checked wrappers around a caller's one. */
#include <stdlib.h>

#include "core.h"

static void *default_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
  (void)ctx;
  (void)old_n;
  if (new_n == 0) new_n = 1;
  return realloc(p, new_n);
}

static void default_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

static const pqt_allocator pqt_default_allocator_value = {default_realloc, default_free, NULL};

PQT_API const pqt_allocator *pqt_default_allocator(void) { return &pqt_default_allocator_value; }

void *pqt_mem_alloc(const pqt_allocator *a, size_t n) {
  a = pqt_alloc_or_default(a);
  return a->realloc(a->ctx, NULL, 0, n);
}

void *pqt_mem_calloc(const pqt_allocator *a, size_t n) {
  void *p = pqt_mem_alloc(a, n);
  if (p) memset(p, 0, n);
  return p;
}

void *pqt_mem_realloc(const pqt_allocator *a, void *p, size_t old_n, size_t new_n) {
  a = pqt_alloc_or_default(a);
  return a->realloc(a->ctx, p, old_n, new_n);
}

void pqt_mem_free(const pqt_allocator *a, void *p, size_t n) {
  if (!p) return;
  a = pqt_alloc_or_default(a);
  a->free(a->ctx, p, n);
}
