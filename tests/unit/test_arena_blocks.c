/*
 * The arena's big blocks (core/arena.c): with the default allocator on
 * Linux (outside sanitizer builds) blocks of 2 MiB and more are mapped by
 * the arena and not zeroed by it. Whichever way a block came, every
 * allocation must read as zero, be 16-byte aligned, not overlap another,
 * and stay writable until reset; the byte limit still holds; an arena
 * reset and reused gives zeroed memory again; a caller's allocator sees
 * every block (and every one freed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "harness.h"

/* Fill tens of MB in allocations of mixed sizes (as a wide footer does),
 * checking each is zero and aligned, then stamping it. */
static void fill_and_check(pqt_arena *a, uint64_t seed, size_t total) {
  size_t got = 0;
  int bad_zero = 0, bad_align = 0;
  uint8_t **ptrs = calloc(70000, sizeof *ptrs);
  size_t *lens = calloc(70000, sizeof *lens);
  size_t n = 0;
  if (!ptrs || !lens) abort();
  while (got < total && n < 70000) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t len = (size_t)(seed >> 40) % 4096 + 1;
    if ((seed >> 20) % 97 == 0) len = ((size_t)1 << 20) + 3; /* now and then a big one */
    uint8_t *p = pqt_arena_alloc(a, len);
    CHECK(p != NULL);
    if (!p) break;
    for (size_t i = 0; i < len; i += 61) bad_zero += p[i] != 0;
    bad_zero += p[len - 1] != 0;
    bad_align += ((uintptr_t)p & 15) != 0;
    memset(p, (int)(n & 0xff) | 1, len);
    ptrs[n] = p;
    lens[n++] = len;
    got += len;
  }
  CHECK_EQ_INT(bad_zero, 0);
  CHECK_EQ_INT(bad_align, 0);
  /* nothing overwrote an earlier allocation */
  int bad_keep = 0;
  for (size_t k = 0; k < n; k++) bad_keep += ptrs[k][0] != ((k & 0xff) | 1) || ptrs[k][lens[k] - 1] != ((k & 0xff) | 1);
  CHECK_EQ_INT(bad_keep, 0);
  free(ptrs);
  free(lens);
}

static void test_default_allocator_blocks(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  for (int round = 0; round < 3; round++) { /* reset and reused: zero again */
    fill_and_check(&a, 0x1234u + (uint64_t)round, (size_t)40 << 20);
    CHECK(a.used_bytes >= (size_t)40 << 20);
    pqt_arena_reset(&a);
    CHECK(a.head == NULL && a.used_bytes == 0);
  }
  /* the limit holds for big blocks too */
  a.limit_bytes = (size_t)3 << 20;
  CHECK(pqt_arena_alloc(&a, (size_t)2 << 20) != NULL);
  CHECK(pqt_arena_alloc(&a, (size_t)2 << 20) == NULL);
  pqt_arena_reset(&a);
}

/* A counting allocator: every block the arena takes comes back. */
typedef struct counting {
  size_t live, calls;
} counting;

static void *c_realloc(void *ctx, void *p, size_t old, size_t n) {
  counting *c = ctx;
  c->live += n;
  c->live -= p ? old : 0;
  c->calls++;
  return realloc(p, n);
}
static void c_free(void *ctx, void *p, size_t n) {
  counting *c = ctx;
  c->live -= n;
  free(p);
}

static void test_caller_allocator_blocks(void) {
  counting c = {0, 0};
  pqt_allocator al = {c_realloc, c_free, &c};
  pqt_arena a;
  pqt_arena_init(&a, &al);
  fill_and_check(&a, 0x99u, (size_t)24 << 20);
  CHECK(c.live >= (size_t)24 << 20); /* every block through the caller's allocator */
  pqt_arena_reset(&a);
  CHECK_EQ_INT((long long)c.live, 0);
}

RUN_TESTS("arena_blocks", TEST_CASE(test_default_allocator_blocks), TEST_CASE(test_caller_allocator_blocks))
