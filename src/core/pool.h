/* core/pool.h: a caching allocator for large buffers (see pool.c). */
#ifndef PQT_CORE_POOL_H
#define PQT_CORE_POOL_H

#include "core/core.h"

/* The public pqt_buffer_pool (parquetry.h) is this pool. */
typedef struct pqt_buffer_pool pqt_pool;

/* A pool over base that keeps up to budget bytes of freed large blocks. */
pqt_status pqt_pool_create(pqt_pool **out, const pqt_allocator *base, size_t budget, pqt_error *err);
/* The allocator interface; valid while any block from it is alive. */
const pqt_allocator *pqt_pool_allocator(pqt_pool *p);
/* Ceiling on bytes in use (handed out + cached); 0 = none. An allocation
 * that would pass it fails (after the cache is dropped). */
void pqt_pool_set_limit(pqt_pool *p, size_t limit);
/* Did an allocation fail at the ceiling since the last call? (clears) */
bool pqt_pool_take_limit_hit(pqt_pool *p);
size_t pqt_pool_bytes_in_use(pqt_pool *p);
/* Drop the cache and release the pool once every block is freed. */
void pqt_pool_close(pqt_pool *p);

#endif
