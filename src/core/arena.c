/* core/arena.c: a bump allocator. Metadata (footer, schema) lives in one
 * arena freed at close, so decoders never free node by node.
 *
 * A wide file's footer decodes to tens of MB, freed at close: with the
 * default allocator every open then faults those pages in again, 4 KiB at
 * a time, each zeroed by the kernel and then by the arena. So on Linux,
 * with the default allocator, a block of 2 MiB or more is mapped by the
 * arena itself, aligned and marked for transparent huge pages (a few
 * faults of 2 MiB instead of thousands), and is not zeroed again: fresh
 * anonymous memory reads as zero and a bump allocator never reuses it. A
 * caller's allocator gets every block through it, zeroed as before. */
#include "core.h"

#if defined(__SANITIZE_ADDRESS__)
#define PQT_ARENA_NO_MAP 1 /* sanitizer builds: every block through the allocator, where ASan watches it */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define PQT_ARENA_NO_MAP 1
#endif
#endif

#if defined(__linux__) && !defined(PQT_ARENA_NO_MAP)
#include <sys/mman.h>
#define PQT_ARENA_MAP_BLOCK ((size_t)2 << 20)
#endif

struct pqt_arena_block {
  pqt_arena_block *next;
  size_t size;    /* bytes of data[] */
  size_t used;
  size_t map_len; /* mapped by the arena (zeroed by the kernel): the mapping's length; 0: from the allocator */
  _Alignas(16) unsigned char data[];
};

#define PQT_ARENA_MIN_BLOCK (16u * 1024u)

/* A block of at least total bytes mapped by the arena (see above), or NULL. */
static pqt_arena_block *map_block(const pqt_arena *arena, size_t total) {
#ifdef PQT_ARENA_MAP_BLOCK
  const size_t h = PQT_ARENA_MAP_BLOCK;
  if (arena->alloc != pqt_default_allocator() || total < h || total > SIZE_MAX / 2) return NULL;
  size_t len = (total + h - 1) & ~(h - 1);
  uint8_t *m = mmap(NULL, len + h, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
  uint8_t *a = (uint8_t *)(((uintptr_t)m + h - 1) & ~(uintptr_t)(h - 1)); /* huge pages need 2 MiB alignment */
  if (a > m) munmap(m, (size_t)(a - m));
  if (m + len + h > a + len) munmap(a + len, (size_t)(m + len + h - (a + len)));
#ifdef MADV_HUGEPAGE
  (void)madvise(a, len, MADV_HUGEPAGE); /* only advice */
#endif
  pqt_arena_block *b = (pqt_arena_block *)(void *)a;
  b->size = len - sizeof(pqt_arena_block);
  b->map_len = len;
  return b;
#else
  (void)arena;
  (void)total;
  return NULL;
#endif
}

static void free_block(pqt_arena *arena, pqt_arena_block *b) {
#ifdef PQT_ARENA_MAP_BLOCK
  if (b->map_len) {
    munmap(b, b->map_len);
    return;
  }
#endif
  pqt_mem_free(arena->alloc, b, sizeof(pqt_arena_block) + b->size);
}

void pqt_arena_init(pqt_arena *arena, const pqt_allocator *alloc) {
  arena->alloc = pqt_alloc_or_default(alloc);
  arena->head = NULL;
  arena->used_bytes = 0;
  arena->limit_bytes = 0;
}

void *pqt_arena_alloc(pqt_arena *arena, size_t n) {
  size_t need = (n + 15u) & ~(size_t)15u;
  if (need < n) return NULL;
  if (arena->limit_bytes && (need > arena->limit_bytes || arena->used_bytes > arena->limit_bytes - need)) return NULL;
  pqt_arena_block *b = arena->head;
  if (!b || b->size - b->used < need) {
    size_t sz = need > PQT_ARENA_MIN_BLOCK ? need : PQT_ARENA_MIN_BLOCK;
    if (b && b->size * 2 > sz && b->size < (64u << 20)) sz = b->size * 2;
    size_t total;
    if (!pqt_add_size(sizeof(pqt_arena_block), sz, &total)) return NULL;
    pqt_arena_block *nb = map_block(arena, total);
    if (!nb) {
      nb = pqt_mem_alloc(arena->alloc, total);
      if (!nb) return NULL;
      nb->size = sz;
      nb->map_len = 0;
    }
    nb->used = 0;
    nb->next = arena->head;
    arena->head = nb;
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += need;
  arena->used_bytes += need;
  if (!b->map_len) memset(p, 0, n); /* a mapped block is zero and never reused */
  return p;
}

void *pqt_arena_array(pqt_arena *arena, size_t n, size_t sz) {
  size_t total;
  if (!pqt_mul_size(n, sz, &total)) return NULL;
  return pqt_arena_alloc(arena, total ? total : 1);
}

char *pqt_arena_strdup(pqt_arena *arena, const char *s, size_t len) {
  char *p = pqt_arena_alloc(arena, len + 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

void pqt_arena_reset(pqt_arena *arena) {
  pqt_arena_block *b = arena->head;
  while (b) {
    pqt_arena_block *next = b->next;
    free_block(arena, b);
    b = next;
  }
  arena->head = NULL;
  arena->used_bytes = 0;
}
