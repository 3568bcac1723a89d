/*
 * core/thread_pool.c: pqt_thread_pool (a queue of tasks and the worker
 * threads that run them) and pqt_par_run, the one parallel loop of the
 * library.
 *
 * pqt_par_run hands out the items of a loop through an atomic counter:
 * the calling thread and up to threads-1 submitted tasks each take the
 * next item until none is left, so the caller finishes the loop alone if
 * no task ever starts. The loop's shared state (a par_group) is counted:
 * the caller and every submitted task hold a reference, and the last one
 * out frees it, so a task that starts after the loop ended touches only
 * that state and leaves. The caller waits only for items some thread has
 * taken. No global state: each pool and each loop has its own.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "core/thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/struct_size.h"

PQT_DEFINE_INIT_SIZED(pqt_executor, pqt_executor_init_sized, PQT_ZERO_DEFAULTS)

PQT_API int32_t pqt_default_threads(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n >= 1) return n > PQT_MAX_THREADS ? PQT_MAX_THREADS : (int32_t)n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) return 1;
  return n > PQT_MAX_THREADS ? PQT_MAX_THREADS : (int32_t)n;
}

/* ---- the pool ----------------------------------------------------------- */

typedef struct pool_task {
  struct pool_task *next;
  void (*fn)(void *);
  void *arg;
} pool_task;

struct pqt_thread_pool {
  const pqt_allocator *alloc;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pool_task *head, *tail; /* queued, run in order */
  pool_task *spare;       /* nodes for reuse */
  bool stop;
  int32_t n_threads; /* started */
  pthread_t *threads;
};

static void *pool_worker(void *arg) {
  pqt_thread_pool *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->head && !p->stop) pthread_cond_wait(&p->cv, &p->mu);
    pool_task *t = p->head;
    if (!t) break; /* stopping and nothing left */
    p->head = t->next;
    if (!p->head) p->tail = NULL;
    void (*fn)(void *) = t->fn;
    void *targ = t->arg;
    t->next = p->spare;
    p->spare = t;
    pthread_mutex_unlock(&p->mu);
    fn(targ);
    pthread_mutex_lock(&p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

static int pool_submit(void *ctx, void (*fn)(void *), void *arg) {
  pqt_thread_pool *p = ctx;
  pthread_mutex_lock(&p->mu);
  pool_task *t = p->spare;
  if (t) {
    p->spare = t->next;
  } else {
    pthread_mutex_unlock(&p->mu); /* allocate outside the lock */
    t = pqt_mem_alloc(p->alloc, sizeof *t);
    if (!t) return -1;
    pthread_mutex_lock(&p->mu);
  }
  if (p->stop) { /* destroyed under a running loop: the caller's misuse; refuse */
    t->next = p->spare;
    p->spare = t;
    pthread_mutex_unlock(&p->mu);
    return -1;
  }
  t->fn = fn;
  t->arg = arg;
  t->next = NULL;
  if (p->tail) p->tail->next = t;
  else p->head = t;
  p->tail = t;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return 0;
}

static void free_tasks(const pqt_allocator *a, pool_task *t) {
  while (t) {
    pool_task *n = t->next;
    pqt_mem_free(a, t, sizeof *t);
    t = n;
  }
}

PQT_API void pqt_thread_pool_destroy(pqt_thread_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  for (int32_t i = 0; i < p->n_threads; i++) pthread_join(p->threads[i], NULL);
  free_tasks(p->alloc, p->head); /* none when a thread was started: they run the queue out */
  free_tasks(p->alloc, p->spare);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  const pqt_allocator *a = p->alloc;
  if (p->threads) pqt_mem_free(a, p->threads, sizeof(pthread_t) * (size_t)p->n_threads);
  pqt_mem_free(a, p, sizeof *p);
}

PQT_API pqt_status pqt_thread_pool_create(pqt_thread_pool **out, int32_t n_threads, const pqt_allocator *alloc,
                                          pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_thread_pool_create: bad arguments");
  *out = NULL;
  if (n_threads < 0 || n_threads > PQT_MAX_THREADS)
    return pqt_error_set(err, PQT_EINVAL, "pqt_thread_pool_create: %d threads (0..%d)", (int)n_threads,
                         PQT_MAX_THREADS);
  if (n_threads == 0) n_threads = pqt_default_threads();
  alloc = pqt_alloc_or_default(alloc);
  pqt_thread_pool *p = pqt_mem_calloc(alloc, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->alloc = alloc;
  p->threads = pqt_mem_calloc(alloc, sizeof(pthread_t) * (size_t)n_threads);
  if (!p->threads) {
    pqt_mem_free(alloc, p, sizeof *p);
    return pqt_nomem(err);
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  int rc = 0;
  while (p->n_threads < n_threads && (rc = pthread_create(&p->threads[p->n_threads], NULL, pool_worker, p)) == 0)
    p->n_threads++;
  if (rc != 0) {
    int32_t started = p->n_threads;
    /* destroy frees threads[] by n_threads: keep the allocated count */
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int32_t i = 0; i < started; i++) pthread_join(p->threads[i], NULL);
    p->n_threads = 0;
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    pqt_mem_free(alloc, p->threads, sizeof(pthread_t) * (size_t)n_threads);
    pqt_mem_free(alloc, p, sizeof *p);
    return pqt_error_set(err, PQT_ENOMEM, "pqt_thread_pool_create: thread %d of %d could not start (error %d)",
                         (int)started + 1, (int)n_threads, rc);
  }
  *out = p;
  return PQT_OK;
}

PQT_API void pqt_thread_pool_executor(pqt_thread_pool *p, pqt_executor *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  out->struct_size = sizeof *out;
  out->submit = p ? pool_submit : NULL;
  out->ctx = p;
}

PQT_API int32_t pqt_thread_pool_size(const pqt_thread_pool *p) { return p ? p->n_threads : 0; }

/* ---- the parallel loop ---------------------------------------------------- */

pqt_status pqt_par_init(pqt_par *p, int32_t threads, const pqt_executor *ex, const pqt_allocator *alloc,
                        const char *what, pqt_error *err) {
  memset(p, 0, sizeof *p);
  p->threads = 1;
  p->alloc = pqt_alloc_or_default(alloc);
  if (threads < 0 || threads > PQT_MAX_THREADS)
    return pqt_error_set(err, PQT_EINVAL, "%s: %d threads (0 = every core, 1..%d)", what, (int)threads,
                         PQT_MAX_THREADS);
  if (ex) {
    pqt_executor e;
    pqt_executor_init(&e);
    PQT_RETURN_NOT_OK(pqt_options_copy(&e, sizeof e, ex, "pqt_executor", err));
    if (e.submit) p->ex = e;
  }
  p->threads = threads == 0 ? pqt_default_threads() : threads;
  return PQT_OK;
}

void pqt_par_free(pqt_par *p) {
  if (!p) return;
  pqt_thread_pool_destroy(p->own);
  p->own = NULL;
}

typedef struct par_group {
  atomic_int refs;      /* the caller's and each submitted task's */
  atomic_int next_item; /* the next item to take */
  atomic_int next_slot; /* the next slot for a task that starts (the caller is 0) */
  atomic_int done;      /* items whose call returned */
  int32_t n;
  pqt_par_fn fn;
  void *ctx;
  pthread_mutex_t mu; /* with cv: the caller waits for done == n */
  pthread_cond_t cv;
} par_group;

static void group_unref(par_group *g) {
  if (atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1) return;
  pthread_cond_destroy(&g->cv);
  pthread_mutex_destroy(&g->mu);
  free(g); /* C library malloc: a late task may free it after its owner is gone (see the file comment) */
}

static void group_work(par_group *g, int32_t slot) {
  for (;;) {
    int i = atomic_fetch_add_explicit(&g->next_item, 1, memory_order_relaxed);
    if (i >= g->n) break;
    g->fn(g->ctx, i, slot);
    if (atomic_fetch_add_explicit(&g->done, 1, memory_order_acq_rel) + 1 == g->n) {
      pthread_mutex_lock(&g->mu); /* the caller is waiting or will see done == n */
      pthread_cond_signal(&g->cv);
      pthread_mutex_unlock(&g->mu);
    }
  }
}

static void group_task(void *arg) {
  par_group *g = arg;
  int slot = atomic_fetch_add_explicit(&g->next_slot, 1, memory_order_relaxed);
  group_work(g, slot);
  group_unref(g);
}

/* The executor, the pool of p's own started on first use. */
static void par_start(pqt_par *p) {
  if (p->threads > 1 && !p->ex.submit && !p->own && !p->failed_start) {
    if (pqt_thread_pool_create(&p->own, p->threads - 1, p->alloc, NULL) == PQT_OK)
      pqt_thread_pool_executor(p->own, &p->ex);
    else p->failed_start = true;
  }
}

int pqt_par_submit(pqt_par *p, void (*fn)(void *), void *arg) {
  par_start(p);
  return p->threads > 1 && p->ex.submit ? p->ex.submit(p->ex.ctx, fn, arg) : -1;
}

void pqt_par_run(pqt_par *p, int32_t n, pqt_par_fn fn, void *ctx) {
  if (n <= 0) return;
  int32_t helpers = (p->threads < n ? p->threads : n) - 1; /* tasks besides the caller */
  if (helpers > 0) par_start(p);
  par_group *g = helpers > 0 && p->ex.submit ? malloc(sizeof *g) : NULL;
  if (!g) {
    for (int32_t i = 0; i < n; i++) fn(ctx, i, 0);
    return;
  }
  atomic_init(&g->refs, 1);
  atomic_init(&g->next_item, 0);
  atomic_init(&g->next_slot, 1);
  atomic_init(&g->done, 0);
  g->n = n;
  g->fn = fn;
  g->ctx = ctx;
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  for (int32_t k = 0; k < helpers; k++) {
    atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
    if (p->ex.submit(p->ex.ctx, group_task, g) != 0) {
      atomic_fetch_sub_explicit(&g->refs, 1, memory_order_relaxed);
      break;
    }
  }
  group_work(g, 0);
  pthread_mutex_lock(&g->mu);
  while (atomic_load_explicit(&g->done, memory_order_acquire) < n) pthread_cond_wait(&g->cv, &g->mu);
  pthread_mutex_unlock(&g->mu);
  group_unref(g);
}
