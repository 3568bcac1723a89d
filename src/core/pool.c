/*
 * core/pool.c: a caching allocator for large buffers.
 *
 * Reading allocates the same large buffers (page scratch, levels, values)
 * for every row group, and exported Arrow buffers are released by the
 * consumer soon after. Returning those blocks to the C library and asking
 * for them again costs more than the decoding itself: big blocks are
 * mmap'ed, and every fresh page faults. The pool keeps freed blocks of
 * 64 KiB and more in size classes (four per power of two) up to a byte
 * budget and hands them out again.
 *
 * The pool is a pqt_allocator over the caller's allocator. It stays alive
 * while any block it handed out is alive: closing it only marks it closed;
 * the last block freed after that frees the pool. A mutex guards it, since
 * Arrow consumers may release buffers on another thread.
 */
#include <pthread.h>

#include "core/pool.h"

#define POOL_MIN_BLOCK ((size_t)64 << 10)
#define POOL_CLASSES   96

typedef struct pool_block {
  struct pool_block *next;
} pool_block;

struct pqt_buffer_pool {
  pqt_allocator iface; /* what callers use; ctx = this pool */
  const pqt_allocator *base;
  pthread_mutex_t mu;
  pool_block *free_list[POOL_CLASSES];
  size_t cached_bytes;
  size_t budget;
  size_t live_blocks; /* blocks handed out and not yet freed */
  size_t live_bytes;  /* their bytes (large blocks by capacity) */
  size_t limit;       /* live + cached bytes ceiling; 0 = none */
  bool limit_hit;
  bool closed;
};

/* Size class of n (n >= POOL_MIN_BLOCK) and its capacity. */
static int size_class(size_t n, size_t *cap) {
  int k = 63 - __builtin_clzll((unsigned long long)n); /* 2^k <= n */
  if (k >= 40) {                                       /* beyond the classes: served by the base allocator as is */
    *cap = n;
    return POOL_CLASSES;
  }
  size_t base = (size_t)1 << k;
  size_t quarter = base / 4;
  size_t sub = (n - base + quarter - 1) / quarter; /* 0..4 */
  size_t c = base + sub * quarter;
  int cls = (k - 16) * 4 + (int)sub;
  if (sub == 4) { /* rounds up to the next power of two */
    cls = (k + 1 - 16) * 4;
    c = base * 2;
  }
  *cap = c;
  return cls;
}

static size_t class_cap(int cls) {
  int k = cls / 4 + 16, sub = cls % 4;
  return ((size_t)1 << k) + (size_t)sub * (((size_t)1 << k) / 4);
}

/* Only called once closed (the cache is empty) and no block is out. */
static void pool_destroy(pqt_pool *p) {
  pthread_mutex_destroy(&p->mu);
  const pqt_allocator *base = p->base;
  base->free(base->ctx, p, sizeof *p);
}

/* Reserve `bytes` more under the ceiling (lock held), evicting cached
 * blocks when that makes room. Returns false when it cannot. Evicted
 * blocks are chained on *evicted for the caller to free unlocked. */
static bool reserve_locked(pqt_pool *p, size_t bytes, pool_block **evicted, size_t *evicted_cap) {
  if (!p->limit) {
    p->live_bytes += bytes;
    return true;
  }
  for (int c = POOL_CLASSES - 1; c >= 0 && p->live_bytes + p->cached_bytes + bytes > p->limit; c--) {
    while (p->free_list[c] && p->live_bytes + p->cached_bytes + bytes > p->limit) {
      pool_block *b = p->free_list[c];
      p->free_list[c] = b->next;
      p->cached_bytes -= class_cap(c);
      /* keep the class capacity in the block for the unlocked free */
      memcpy((char *)b + sizeof(pool_block), &(size_t){class_cap(c)}, sizeof(size_t));
      b->next = *evicted;
      *evicted = b;
      (void)evicted_cap;
    }
  }
  if (p->live_bytes + p->cached_bytes + bytes > p->limit) {
    p->limit_hit = true;
    return false;
  }
  p->live_bytes += bytes;
  return true;
}

static void free_evicted(pqt_pool *p, pool_block *b) {
  while (b) {
    pool_block *next = b->next;
    size_t cap;
    memcpy(&cap, (char *)b + sizeof(pool_block), sizeof cap);
    p->base->free(p->base->ctx, b, cap);
    b = next;
  }
}

static void *pool_alloc(pqt_pool *p, size_t n) {
  pool_block *evicted = NULL;
  if (n < POOL_MIN_BLOCK) {
    pthread_mutex_lock(&p->mu);
    bool ok = reserve_locked(p, n, &evicted, NULL);
    if (ok) p->live_blocks++;
    pthread_mutex_unlock(&p->mu);
    free_evicted(p, evicted);
    if (!ok) return NULL;
    void *q = p->base->realloc(p->base->ctx, NULL, 0, n);
    if (!q) {
      pthread_mutex_lock(&p->mu);
      p->live_blocks--;
      p->live_bytes -= n;
      pthread_mutex_unlock(&p->mu);
    }
    return q;
  }
  size_t cap;
  int cls = size_class(n, &cap);
  void *blk = NULL;
  bool ok = true;
  pthread_mutex_lock(&p->mu);
  if (cls < POOL_CLASSES && p->free_list[cls]) {
    pool_block *b = p->free_list[cls];
    p->free_list[cls] = b->next;
    p->cached_bytes -= cap;
    p->live_bytes += cap;
    blk = b;
  } else {
    ok = reserve_locked(p, cap, &evicted, NULL);
  }
  if (blk || ok) p->live_blocks++;
  pthread_mutex_unlock(&p->mu);
  free_evicted(p, evicted);
  if (blk) return blk;
  if (!ok) return NULL;
  blk = p->base->realloc(p->base->ctx, NULL, 0, cap);
  if (!blk) {
    pthread_mutex_lock(&p->mu);
    p->live_blocks--;
    p->live_bytes -= cap;
    pthread_mutex_unlock(&p->mu);
  }
  return blk;
}

static void pool_free_block(pqt_pool *p, void *ptr, size_t n) {
  if (!ptr) return;
  size_t cap = n;
  int cls = POOL_CLASSES;
  if (n >= POOL_MIN_BLOCK) cls = size_class(n, &cap);
  bool destroy = false, keep = false;
  pthread_mutex_lock(&p->mu);
  p->live_blocks--;
  p->live_bytes -= cap;
  if (!p->closed && cls < POOL_CLASSES && p->cached_bytes + cap <= p->budget) {
    pool_block *b = ptr;
    b->next = p->free_list[cls];
    p->free_list[cls] = b;
    p->cached_bytes += cap;
    keep = true;
  }
  destroy = p->closed && p->live_blocks == 0;
  pthread_mutex_unlock(&p->mu);
  if (!keep) p->base->free(p->base->ctx, ptr, cap);
  if (destroy) pool_destroy(p);
}

static void *iface_realloc(void *ctx, void *ptr, size_t old_n, size_t new_n) {
  pqt_pool *p = ctx;
  if (!ptr) return pool_alloc(p, new_n);
  if (old_n >= POOL_MIN_BLOCK) {
    size_t cap;
    size_class(old_n, &cap);
    if (new_n <= cap && new_n >= POOL_MIN_BLOCK) {
      size_t new_cap;
      size_class(new_n, &new_cap);
      if (new_cap == cap) return ptr; /* same block serves */
    }
  } else if (new_n < POOL_MIN_BLOCK) {
    /* small to small: still one live block, resized in place by the base */
    pool_block *evicted = NULL;
    bool ok = true;
    pthread_mutex_lock(&p->mu);
    if (new_n > old_n) ok = reserve_locked(p, new_n - old_n, &evicted, NULL);
    else p->live_bytes -= old_n - new_n;
    pthread_mutex_unlock(&p->mu);
    free_evicted(p, evicted);
    if (!ok) return NULL;
    void *q = p->base->realloc(p->base->ctx, ptr, old_n, new_n);
    if (!q) {
      pthread_mutex_lock(&p->mu);
      if (new_n > old_n) p->live_bytes -= new_n - old_n;
      else p->live_bytes += old_n - new_n;
      pthread_mutex_unlock(&p->mu);
    }
    return q;
  }
  void *np = pool_alloc(p, new_n);
  if (!np) return NULL;
  memcpy(np, ptr, old_n < new_n ? old_n : new_n);
  pool_free_block(p, ptr, old_n);
  return np;
}

static void iface_free(void *ctx, void *ptr, size_t n) { pool_free_block(ctx, ptr, n); }

pqt_status pqt_pool_create(pqt_pool **out, const pqt_allocator *base, size_t budget, pqt_error *err) {
  base = pqt_alloc_or_default(base);
  pqt_pool *p = base->realloc(base->ctx, NULL, 0, sizeof *p);
  if (!p) return pqt_nomem(err);
  memset(p, 0, sizeof *p);
  p->base = base;
  p->budget = budget;
  p->iface.realloc = iface_realloc;
  p->iface.free = iface_free;
  p->iface.ctx = p;
  pthread_mutex_init(&p->mu, NULL);
  *out = p;
  return PQT_OK;
}

const pqt_allocator *pqt_pool_allocator(pqt_pool *p) { return &p->iface; }

void pqt_pool_set_limit(pqt_pool *p, size_t limit) {
  pthread_mutex_lock(&p->mu);
  p->limit = limit;
  p->limit_hit = false;
  pthread_mutex_unlock(&p->mu);
}

bool pqt_pool_take_limit_hit(pqt_pool *p) {
  pthread_mutex_lock(&p->mu);
  bool hit = p->limit_hit;
  p->limit_hit = false;
  pthread_mutex_unlock(&p->mu);
  return hit;
}

size_t pqt_pool_bytes_in_use(pqt_pool *p) {
  pthread_mutex_lock(&p->mu);
  size_t n = p->live_bytes + p->cached_bytes;
  pthread_mutex_unlock(&p->mu);
  return n;
}

PQT_API pqt_status pqt_buffer_pool_create(pqt_buffer_pool **out, const pqt_allocator *alloc, uint64_t budget_bytes,
                                          pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_buffer_pool_create: out is NULL");
  return pqt_pool_create(out, alloc, (size_t)budget_bytes, err);
}

PQT_API void pqt_buffer_pool_destroy(pqt_buffer_pool *p) { pqt_pool_close(p); }

void pqt_pool_close(pqt_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->closed = true;
  /* drop the cache now; blocks still out come back to the base allocator */
  pool_block *lists[POOL_CLASSES];
  memcpy(lists, p->free_list, sizeof lists);
  memset(p->free_list, 0, sizeof p->free_list);
  p->cached_bytes = 0;
  bool destroy = p->live_blocks == 0;
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < POOL_CLASSES; i++) {
    pool_block *b = lists[i];
    size_t cap = class_cap(i);
    while (b) {
      pool_block *next = b->next;
      p->base->free(p->base->ctx, b, cap);
      b = next;
    }
  }
  if (destroy) pool_destroy(p);
}
