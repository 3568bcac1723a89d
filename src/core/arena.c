/* core/arena.c: a bump allocator. Metadata (footer, schema) lives in one
 * arena freed at close, so decoders never free node by node. */
#include "core.h"

struct pqt_arena_block {
  pqt_arena_block *next;
  size_t size; /* bytes of data[] */
  size_t used;
  _Alignas(16) unsigned char data[];
};

#define PQT_ARENA_MIN_BLOCK (16u * 1024u)

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
    pqt_arena_block *nb = pqt_mem_alloc(arena->alloc, total);
    if (!nb) return NULL;
    nb->size = sz;
    nb->used = 0;
    nb->next = arena->head;
    arena->head = nb;
    b = nb;
  }
  void *p = b->data + b->used;
  b->used += need;
  arena->used_bytes += need;
  memset(p, 0, n);
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
    pqt_mem_free(arena->alloc, b, sizeof(pqt_arena_block) + b->size);
    b = next;
  }
  arena->head = NULL;
  arena->used_bytes = 0;
}
