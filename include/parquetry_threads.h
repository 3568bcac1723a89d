/*
 * parquetry_threads.h: threads for reading and writing.
 *
 * The Arrow stream decodes the columns of a row group in parallel, and the
 * writer encodes and compresses the column chunks of a row group in
 * parallel; what comes out is the same as with one thread, byte for byte
 * (batches in file order; the same file). How many threads: the `threads`
 * field of pqt_read_options, pqt_scan_options and pqt_write_options
 * (0 = the number of cores this process may run on, 1 = the calling thread
 * only). Where the work runs, in this order of preference:
 *   - the caller's executor (`executor` in the same options): an engine
 *     with its own scheduler plugs it in through pqt_executor;
 *   - otherwise a pool of threads-1 worker threads that the stream or the
 *     writer starts when it first has work for them and joins when it is
 *     released or closed.
 * A process that wants one pool for every reader and writer creates a
 * pqt_thread_pool and hands out its executor (pqt_thread_pool_executor).
 *
 * The calling thread always takes part: it works on the same tasks as the
 * executor's threads, and then waits only for the tasks that some thread
 * has started. An executor that runs a task late (even after the call that
 * submitted it returned) is therefore safe: a late task finds no work left
 * and returns at once.
 *
 * With threads > 1, what the caller plugs in is called from several
 * threads at once: the allocator (pqt_read_options.alloc,
 * pqt_write_options.alloc; a shared pqt_buffer_pool's always had to be)
 * and a pqt_io's read_at/borrow_at must then be thread-safe. So that a program written
 * before threads existed keeps working, threads = 0 means 1 when one of
 * them is the caller's and no executor is given: setting threads (or an
 * executor) says they are thread-safe. The writer's sink callback, the key
 * retriever and the skip callback (on_skip) are only ever called from the
 * calling thread.
 */
#ifndef PARQUETRY_THREADS_H
#define PARQUETRY_THREADS_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A task-submission hook: submit(ctx, fn, arg) arranges for fn(arg) to
 * run once, on some thread, and returns 0; non-zero means it cannot (the
 * library then does the work on the calling thread). fn never blocks on
 * anything but short internal locks. The library does its own waiting
 * (see above), so no wait function is needed. Borrowed by the options that
 * name it: ctx and the functions must outlive the readers, streams and
 * writers using it. */
typedef struct pqt_executor {
  size_t struct_size; /* set by pqt_executor_init (or `.struct_size = sizeof(pqt_executor)`) */
  int (*submit)(void *ctx, void (*fn)(void *arg), void *arg);
  void *ctx;
} pqt_executor;

PQT_API void pqt_executor_init_sized(pqt_executor *ex, size_t struct_size);
/* submit NULL, ctx NULL (and struct_size). */
static inline void pqt_executor_init(pqt_executor *ex) { pqt_executor_init_sized(ex, sizeof *ex); }

/* The cores this process may run on (its CPU affinity), at least 1: what
 * threads = 0 means. */
PQT_API int32_t pqt_default_threads(void);

/*
 * A pool of worker threads that runs submitted tasks in the order they
 * came. Thread-safe: any number of readers, streams and writers, on any
 * threads, may share one through its executor.
 */
typedef struct pqt_thread_pool pqt_thread_pool;

/* A pool of n_threads workers (1..1024; 0 = pqt_default_threads()). alloc
 * (NULL: malloc) holds the pool and its queue; it must be thread-safe. */
PQT_API pqt_status pqt_thread_pool_create(pqt_thread_pool **out, int32_t n_threads, const pqt_allocator *alloc,
                                          pqt_error *err);
/* The pool's executor (struct_size set here): valid until the pool is
 * destroyed. */
PQT_API void pqt_thread_pool_executor(pqt_thread_pool *pool, pqt_executor *out);
PQT_API int32_t pqt_thread_pool_size(const pqt_thread_pool *pool);
/* Runs the tasks still queued, joins the workers and frees the pool (NULL
 * is a no-op). Every reader, stream and writer given its executor must be
 * released or closed first. */
PQT_API void pqt_thread_pool_destroy(pqt_thread_pool *pool);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_THREADS_H */
