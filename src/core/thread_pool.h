/*
 * core/thread_pool.h: the worker pool (public pqt_thread_pool,
 * parquetry_threads.h) and the parallel loop that the stream and the
 * writer run their per-column work through.
 */
#ifndef PQT_CORE_THREAD_POOL_H
#define PQT_CORE_THREAD_POOL_H

#include "core/core.h"
#include "parquetry_threads.h"

/* Where a reader's or writer's parallel work runs: the caller's executor,
 * or a pool of its own started on first use. Not thread-safe itself: one
 * owner (a stream, a writer) runs pqt_par_run from one thread at a time. */
typedef struct pqt_par {
  int32_t threads;      /* >= 1: tasks at once, the calling thread included */
  pqt_executor ex;      /* submit NULL: none yet */
  pqt_thread_pool *own; /* started by pqt_par_run when no executor was given */
  const pqt_allocator *alloc;
  bool failed_start; /* the pool could not start: run on the calling thread */
} pqt_par;

/* threads: 0 = pqt_default_threads(), 1..PQT_MAX_THREADS, else
 * PQT_EINVAL naming `what` (the option); ex: NULL or the caller's, copied
 * (its struct_size checked). Starts no thread. */
pqt_status pqt_par_init(pqt_par *p, int32_t threads, const pqt_executor *ex, const pqt_allocator *alloc,
                        const char *what, pqt_error *err);
/* The slots pqt_par_run may use (slot numbers are below this). */
static inline int32_t pqt_par_slots(const pqt_par *p) { return p->threads > 1 ? p->threads : 1; }

/* fn(ctx, item, slot) once for every item in [0, n); slot (below
 * pqt_par_slots) names the thread running the call: no two calls with the
 * same slot run at once, and slot 0 is the calling thread. Returns when
 * every call has returned. Work that cannot be handed out (no memory, the
 * executor refuses) runs on the calling thread. */
typedef void (*pqt_par_fn)(void *ctx, int32_t item, int32_t slot);
void pqt_par_run(pqt_par *p, int32_t n, pqt_par_fn fn, void *ctx);
/* fn(arg) once on one of p's threads besides the caller's (the pool
 * started here if need be), for work that runs beside the caller's loops:
 * 0, or -1 when it cannot be handed out (one thread, the executor refuses;
 * fn is then not called). */
int pqt_par_submit(pqt_par *p, void (*fn)(void *), void *arg);
/* Joins the pool started here (if any). */
void pqt_par_free(pqt_par *p);

#define PQT_MAX_THREADS 1024

#endif
