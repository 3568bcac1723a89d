/*
 * scan/stream.c: pqt_reader_get_stream, an ArrowArrayStream of record
 * batches. Each batch is decoded when it is asked for, straight from the
 * current pages of the row group's projected columns (scan/row_group.h):
 * memory holds a page per column and the batches the consumer keeps, and
 * a batch released before the next is decoded gives its buffers back to
 * the reader's pool, so the next one is written into memory still in cache.
 * The stream holds a reference to the reader: closing the reader first is
 * fine, the stream's release drops the last reference.
 *
 * Decode-ahead (threads > 1): when the stream starts handing out row group
 * N, the next one it reads (scan/group_order.h) is given to the thread pool
 * (an ahead_job), which opens it and decodes its batches one after the
 * other into a queue, at most that one row group ahead. When the stream
 * gets to N+1 it hands out what the queue holds; once the queue runs dry it
 * stops the job after the batch under way and goes on with its cursor
 * itself (with its leaves in parallel), handing N+2 to the pool in turn. So
 * the batches, and an error of N+1 (after N's batches and N+1's before it),
 * come out in file order, as at one thread. The job reads through a copy of
 * the reader of its own (a shadow: its codec context, its source counting
 * into its own byte counter, since the scan's counting wraps the reader's
 * source only while a get_next call runs).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrow/geoarrow.h"
#include "arrow/variant_arrow.h"
#include "arrow/export.h"
#include "codec/codec.h"
#include "file/options.h"
#include "io/source.h"
#include "scan/filter.h"
#include "scan/group_order.h"
#include "scan/ranged.h"
#include "scan/row_group.h"

typedef struct stream_priv {
  pqt_reader *r; /* a reference of the stream's own (pqt_reader_ref) */
  uint8_t *selected;
  pqt_group_order order; /* the row groups read, in order (scan/group_order.h) */
  int32_t next_group;    /* position in order */
  int64_t batch_size;
  pqt_rg_cursor *rg; /* the row group being read */
  pqt_sel_cursor *sel; /* or read selectively (scan/ranged.h) */
  /* a batch longer than batch_size (the row-group cursor decodes whole row
   * groups for PQT_SKIP_CORRUPT), handed out in slices */
  pqt_row_group_data held;
  bool have_held;
  int64_t pos;
  pqt_error err;
  pqt_scan scan; /* predicate, pruning, counts (scan/scan.c) */
  /* threads: the leaves of a batch decoded in parallel (scan/row_group.h) */
  pqt_rg_threads rgt;
  /* Arrow output options (pqt_arrow_output) and, per leaf, whether its
   * chunks are decoded as dictionary indexes or views (PQT_LEAF_*; NULL:
   * none is) */
  uint64_t arrow_output;
  uint8_t *dict_leaves;
  /* the next row group's chunks asked of the source while this one decodes */
  pqt_readahead ra;
  bool ra_init;
  /* decode-ahead (see the top): allowed at all; the job of the next row
   * group to read (at position ahead_pos) and that of the current one
   * (cur); the shadows, by the parity of the position */
  bool ahead_ok;
  struct ahead_job *ahead, *cur;
  int32_t ahead_pos;
  struct shadow_reader *shadow[2];
} stream_priv;

/* ---- decode-ahead --------------------------------------------------------- */

/* Batches a job queues at most (a row group of more goes on on the
 * stream's thread once they are handed out). */
#define AHEAD_MAX_BATCHES 1024

/* A copy of the reader for a job: same file, metadata and options, a codec
 * context of its own, and a source counting into bytes. Never closed or
 * referenced: it lives as long as the stream. */
typedef struct shadow_reader {
  pqt_reader r;
  pqt_io inner; /* the reader's source (its guards) */
  atomic_uint_fast64_t bytes;
} shadow_reader;

static pqt_status sh_read_at(void *pd, uint64_t offset, void *dst, size_t n, pqt_error *err) {
  shadow_reader *s = pd;
  atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
  return s->inner.read_at(s->inner.private_data, offset, dst, n, err);
}
static pqt_status sh_borrow_at(void *pd, uint64_t offset, size_t n, const uint8_t **out, pqt_error *err) {
  shadow_reader *s = pd;
  atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
  return s->inner.borrow_at(s->inner.private_data, offset, n, out, err);
}
static pqt_status sh_read_ranges(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  shadow_reader *s = pd;
  for (size_t i = 0; i < n; i++) atomic_fetch_add_explicit(&s->bytes, rs[i].length, memory_order_relaxed);
  return s->inner.read_ranges(s->inner.private_data, rs, n, err);
}
static pqt_status sh_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  shadow_reader *s = pd;
  return s->inner.will_need(s->inner.private_data, rs, n, err);
}

static shadow_reader *shadow_new(pqt_reader *r) {
  shadow_reader *s = pqt_mem_calloc(r->alloc, sizeof *s);
  if (!s) return NULL;
  memcpy(&s->r, r, sizeof *r); /* outside any get_next: r->io is the reader's own */
  s->inner = r->io;
  atomic_init(&s->bytes, 0);
  s->r.io.read_at = sh_read_at;
  s->r.io.borrow_at = r->io.borrow_at ? sh_borrow_at : NULL;
  s->r.io.read_ranges = r->io.read_ranges ? sh_read_ranges : NULL;
  s->r.io.will_need = r->io.will_need ? sh_will_need : NULL;
  s->r.io.private_data = s;
  s->r.codec_ctx = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_codec_ctx_create(&s->r.codec_ctx, r->alloc, &e) != PQT_OK) {
    pqt_mem_free(r->alloc, s, sizeof *s);
    return NULL;
  }
  return s;
}

static void shadow_free(pqt_reader *r, shadow_reader *s) {
  if (!s) return;
  pqt_codec_ctx_destroy(s->r.codec_ctx);
  pqt_mem_free(r->alloc, s, sizeof *s);
}

/* Bytes the shadows read, into the scan's count (the calling thread; the
 * atomic exchange takes what a running job adds). */
static void shadow_count(stream_priv *p) {
  for (int k = 0; k < 2; k++)
    if (p->shadow[k]) p->scan.stats.bytes_read += atomic_exchange(&p->shadow[k]->bytes, 0);
}

/* One row group decoded on the pool. Counted: the stream and the task each
 * hold a reference (the task may run after the stream is gone, with a
 * caller's executor: it then sees stop and touches nothing else). The
 * struct comes from the C library (freed by whichever is last); batches
 * and the cursor use the reader's allocator and are the stream's to free. */
typedef struct ahead_job {
  atomic_int refs;
  pthread_mutex_t mu; /* with cv: everything below */
  pthread_cond_t cv;
  bool started, running, stop;
  shadow_reader *sh;
  int32_t g;
  const uint8_t *selected, *dict_leaves;
  int64_t batch_size;
  pqt_rg_cursor *c;
  pqt_row_group_data *q; /* decoded batches [qhead, qn) of q_cap */
  int64_t *first_row;    /* per batch, its first row in the row group */
  int32_t qhead, qn, q_cap;
  pqt_status st; /* the failure after the queued batches */
  pqt_error err;
} ahead_job;

static void job_unref(ahead_job *j) {
  if (atomic_fetch_sub_explicit(&j->refs, 1, memory_order_acq_rel) != 1) return;
  pthread_cond_destroy(&j->cv);
  pthread_mutex_destroy(&j->mu);
  free(j);
}

static void ahead_task(void *arg) {
  ahead_job *j = arg;
  pthread_mutex_lock(&j->mu);
  if (j->stop) { /* the stream got here first (or is gone): it reads the row group itself */
    pthread_mutex_unlock(&j->mu);
    job_unref(j);
    return;
  }
  j->started = j->running = true;
  pthread_mutex_unlock(&j->mu);
  pqt_error e;
  pqt_error_init(&e);
  bool skipped = false;
  pqt_rg_cursor *c = NULL;
  pqt_status st = pqt_rg_cursor_open_recover(&j->sh->r, j->g, j->selected, &c, &skipped, &e);
  if (st == PQT_OK && j->dict_leaves) pqt_rg_cursor_set_dict(c, j->dict_leaves);
  pthread_mutex_lock(&j->mu);
  j->c = c;
  while (st == PQT_OK && !j->stop && !pqt_rg_cursor_done(c) && j->qn < j->q_cap) {
    pthread_mutex_unlock(&j->mu);
    pqt_row_group_data d;
    int64_t first = pqt_rg_cursor_rows_done(c);
    st = pqt_rg_cursor_next_recover(c, j->batch_size, &d, &skipped, &e);
    pthread_mutex_lock(&j->mu);
    if (st == PQT_OK) {
      j->first_row[j->qn] = first;
      j->q[j->qn++] = d;
    }
    pthread_cond_broadcast(&j->cv);
  }
  if (st != PQT_OK) {
    j->st = st;
    j->err = e;
  }
  j->running = false;
  pthread_cond_broadcast(&j->cv);
  pthread_mutex_unlock(&j->mu);
  job_unref(j);
}

/* Row group g (at position pos) to the pool; NULL when it cannot be (the
 * stream then reads it itself, as at one thread). */
static ahead_job *ahead_start(stream_priv *p, int32_t pos, int32_t g) {
  shadow_reader *sh = p->shadow[pos & 1];
  const pqt_row_group *rg = &p->r->md.row_groups.items[g];
  if (!sh || rg->num_rows < 0) return NULL;
  /* the batches it takes (and one spare), at most AHEAD_MAX_BATCHES (the
   * footer's num_rows is not trusted for a size): the job stops when the
   * queue is full, the stream then goes on with its cursor */
  int64_t nb = rg->num_rows / p->batch_size + 2;
  if (nb > AHEAD_MAX_BATCHES) nb = AHEAD_MAX_BATCHES;
  const pqt_allocator *a = p->r->data_alloc;
  ahead_job *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->q = pqt_mem_calloc(a, sizeof *j->q * (size_t)nb);
  j->first_row = pqt_mem_calloc(a, sizeof *j->first_row * (size_t)nb);
  if (!j->q || !j->first_row) {
    if (j->q) pqt_mem_free(a, j->q, sizeof *j->q * (size_t)nb);
    if (j->first_row) pqt_mem_free(a, j->first_row, sizeof *j->first_row * (size_t)nb);
    free(j);
    return NULL;
  }
  atomic_init(&j->refs, 2);
  pthread_mutex_init(&j->mu, NULL);
  pthread_cond_init(&j->cv, NULL);
  j->sh = sh;
  j->g = g;
  j->selected = p->scan.read_sel;
  j->dict_leaves = p->scan.filter ? NULL : p->dict_leaves; /* a filter reads plain values */
  j->batch_size = p->batch_size;
  j->q_cap = (int32_t)nb;
  if (pqt_par_submit(&p->rgt.par, ahead_task, j) != 0) {
    pqt_mem_free(a, j->q, sizeof *j->q * (size_t)nb);
    pqt_mem_free(a, j->first_row, sizeof *j->first_row * (size_t)nb);
    atomic_store(&j->refs, 1);
    job_unref(j);
    return NULL;
  }
  return j;
}

/* Stops j (after the batch under way), frees what it holds and drops the
 * stream's reference. */
static void ahead_cancel(stream_priv *p, ahead_job *j) {
  if (!j) return;
  pthread_mutex_lock(&j->mu);
  j->stop = true;
  while (j->running) pthread_cond_wait(&j->cv, &j->mu);
  pthread_mutex_unlock(&j->mu);
  for (int32_t i = j->qhead; i < j->qn; i++) pqt_row_group_data_free(p->r->data_alloc, &j->q[i]);
  pqt_rg_cursor_close(j->c);
  const pqt_allocator *a = p->r->data_alloc;
  pqt_mem_free(a, j->q, sizeof *j->q * (size_t)j->q_cap);
  pqt_mem_free(a, j->first_row, sizeof *j->first_row * (size_t)j->q_cap);
  job_unref(j);
}

/* The next of the current row group's batches from its job: *got with
 * *out and its first row; else its failure (returned); else (*got false,
 * PQT_OK) the cursor to go on with in *c (done or not; NULL: the job never
 * started, the row group is to be opened). Once the queue runs dry the
 * job is stopped after the batch under way. */
static pqt_status ahead_take(ahead_job *j, pqt_row_group_data *out, int64_t *first_row, bool *got, pqt_rg_cursor **c,
                             pqt_error *err) {
  *got = false;
  *c = NULL;
  pthread_mutex_lock(&j->mu);
  if (j->qhead == j->qn) {
    j->stop = true;
    while (j->running) pthread_cond_wait(&j->cv, &j->mu);
  }
  pqt_status st = PQT_OK;
  if (j->qhead < j->qn) {
    *out = j->q[j->qhead];
    *first_row = j->first_row[j->qhead];
    j->qhead++;
    *got = true;
  } else if (j->st != PQT_OK) {
    st = j->st;
    if (err) *err = j->err;
  } else {
    *c = j->c;
    j->c = NULL;
  }
  pthread_mutex_unlock(&j->mu);
  return st;
}


static int status_to_errno(pqt_status st) {
  switch (st) {
    case PQT_ENOMEM: return ENOMEM;
    case PQT_EINVAL: return EINVAL;
    case PQT_EUNSUPPORTED: return ENOTSUP;
    case PQT_ELIMIT: return E2BIG;
    case PQT_ERANGE: return ERANGE;
    default: return EIO;
  }
}

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  stream_priv *p = s->private_data;
  memset(out, 0, sizeof *out); /* a failure leaves a released schema */
  pqt_error_init(&p->err);
  pqt_status st = pqt_export_schema_opts(p->r->schema, p->selected, p->arrow_output, out, &p->err);
  if (st == PQT_OK && p->r->opts.arrow_extensions) { /* GEOMETRY/GEOGRAPHY as geoarrow.wkb */
    st = pqt_geoarrow_annotate(p->r->schema, p->selected, &p->r->md.key_value_metadata, out, &p->err);
    if (st == PQT_OK && p->r->opts.variant_shredded) /* stored VARIANT groups as arrow.parquet.variant */
      st = pqt_variant_annotate_stored(p->r->schema, p->selected, out, &p->err);
    if (st != PQT_OK) out->release(out);
  }
  return st == PQT_OK ? 0 : status_to_errno(st);
}

static int stream_next_batch(stream_priv *p, struct ArrowArray *out);

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  stream_priv *p = s->private_data;
  memset(out, 0, sizeof *out); /* a failure leaves a released array */
  pqt_error_init(&p->err);
  pqt_scan_io_begin(&p->scan);
  int rc = stream_next_batch(p, out);
  pqt_scan_io_end(&p->scan);
  if (rc == 0 && out->release) pqt_scan_rows(&p->scan, out->length);
  pqt_scan_publish(&p->scan);
  return rc;
}

/* Row group at position pos starts being handed out (its cursor p->rg
 * open): the next one the scan reads is read ahead, decoded on the pool
 * when decode-ahead is on, its chunks announced to the source anyway. */
static void start_next(stream_priv *p, int32_t pos) {
  int32_t next = p->ra.mode || p->ahead_ok ? pqt_group_order_next(&p->order, &p->scan, pos) : -1;
  if (next < 0) return;
  pqt_readahead_start(&p->ra, p->r, p->order.groups[next], p->scan.read_sel);
  if (p->ahead_ok && !p->ahead) {
    p->ahead = ahead_start(p, next, p->order.groups[next]);
    p->ahead_pos = next;
  }
}

/* Opens the row group at position pos on this thread (p->rg; none when
 * PQT_SKIP_CORRUPT skipped it) and reads the next one ahead. 0, or -1 with
 * p->err set. */
static int open_group(stream_priv *p, int32_t pos) {
  bool skipped;
  pqt_readahead_wait(&p->ra); /* its chunks (announced while the last one decoded) */
  pqt_status st = pqt_rg_cursor_open_recover(p->r, p->order.groups[pos], p->scan.read_sel, &p->rg, &skipped, &p->err);
  if (st != PQT_OK) {
    p->err.code = st;
    return -1;
  }
  if (skipped) return 0;
  pqt_rg_cursor_set_threads(p->rg, &p->rgt);
  if (!p->scan.filter) pqt_rg_cursor_set_dict(p->rg, p->dict_leaves); /* a filter reads plain values */
  start_next(p, pos);
  return 0;
}

/* A decoded batch d of the current row group (first_row: where it starts
 * in it): the predicate, the Arrow layout, then out (or held for slices).
 * Returns 1 when there is nothing to hand out yet (go on), else what
 * get_next returns. d is taken. */
static int hand_out(stream_priv *p, pqt_row_group_data *d, int64_t first_row, struct ArrowArray *out) {
  const pqt_allocator *alloc = p->r->data_alloc;
  int32_t g = p->order.groups[p->next_group - 1];
  pqt_status st = pqt_scan_batch(&p->scan, d, &p->err); /* the predicate, then the projection */
  if (st == PQT_ECORRUPT) { /* a value the predicate cannot read (a bad WKB): where */
    p->err.row_group = g;
    pqt_error_prefix(&p->err, "row group %d, batch from row %lld", (int)g, (long long)first_row);
  }
  if (st != PQT_OK) {
    pqt_row_group_data_free(alloc, d);
    return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
  }
  if (d->num_rows == 0) {
    pqt_row_group_data_free(alloc, d);
    return 1;
  }
  for (int32_t i = 0; i < d->n_fields && st == PQT_OK; i++) {
    st = pqt_array_to_arrow_layout(alloc, d->fields[i], &p->err);
    if (st == PQT_OK) st = pqt_array_apply_output(alloc, d->fields[i], p->arrow_output, &p->err);
  }
  if (st == PQT_ERANGE) { /* name the row group and where the batch starts in it */
    char msg[sizeof p->err.message];
    snprintf(msg, sizeof msg, "row group %d, batch from row %lld%s: %.400s", (int)g, (long long)first_row,
             p->scan.filter ? " (rows matching the filter)" : "", p->err.message);
    memcpy(p->err.message, msg, sizeof msg);
    p->err.row_group = g;
  }
  if (st == PQT_OK && d->num_rows > p->batch_size) {
    p->held = *d;
    p->have_held = true;
    p->pos = 0;
    return 1;
  }
  if (st == PQT_OK) st = pqt_export_batch(alloc, d->fields, d->n_fields, 0, d->num_rows, out, &p->err);
  pqt_row_group_data_free(alloc, d); /* the exported batch holds its own references */
  if (st != PQT_OK) return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
  return 0;
}

static int stream_next_batch(stream_priv *p, struct ArrowArray *out) {
  const pqt_allocator *alloc = p->r->data_alloc;
  for (;;) {
    if (p->have_held) {
      if (p->pos < p->held.num_rows) {
        int64_t n = p->held.num_rows - p->pos;
        if (n > p->batch_size) n = p->batch_size;
        pqt_status st = pqt_export_batch(alloc, p->held.fields, p->held.n_fields, p->pos, n, out, &p->err);
        if (st != PQT_OK) return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
        p->pos += n;
        return 0;
      }
      pqt_row_group_data_free(alloc, &p->held);
      p->have_held = false;
    }
    if (p->sel && pqt_sel_cursor_done(p->sel)) {
      pqt_scan_group_done(&p->scan, p->order.groups[p->next_group - 1], pqt_sel_cursor_pages(p->sel));
      pqt_sel_cursor_close(p->sel);
      p->sel = NULL;
    }
    if (p->sel) {
      pqt_row_group_data d;
      pqt_status st = pqt_sel_cursor_next(p->sel, p->batch_size, &d, &p->err);
      for (int32_t i = 0; i < d.n_fields && st == PQT_OK; i++) {
        st = pqt_array_to_arrow_layout(alloc, d.fields[i], &p->err);
        if (st == PQT_OK) st = pqt_array_apply_output(alloc, d.fields[i], p->arrow_output, &p->err);
      }
      if (st == PQT_OK && d.num_rows > 0) st = pqt_export_batch(alloc, d.fields, d.n_fields, 0, d.num_rows, out, &p->err);
      int64_t got = d.num_rows;
      pqt_row_group_data_free(alloc, &d);
      if (st != PQT_OK) return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
      if (got > 0) return 0;
      continue;
    }
    if (p->cur) { /* the current row group, decoded ahead on the pool */
      pqt_row_group_data d;
      int64_t first_row = 0;
      bool got;
      pqt_rg_cursor *c;
      pqt_status st = ahead_take(p->cur, &d, &first_row, &got, &c, &p->err);
      if (st != PQT_OK) { /* the row group's failure, after its batches before it */
        ahead_cancel(p, p->cur);
        p->cur = NULL;
        shadow_count(p);
        return status_to_errno(st);
      }
      if (got) {
        int rc = hand_out(p, &d, first_row, out);
        if (rc != 1) return rc;
        continue;
      }
      ahead_cancel(p, p->cur);
      p->cur = NULL;
      if (c) { /* the rest on this thread, the leaves in parallel; the next row group to the pool */
        p->rg = c;
        pqt_rg_cursor_set_threads(p->rg, &p->rgt);
        start_next(p, p->next_group - 1);
        continue;
      }
      /* the job never started: read the row group here */
      if (open_group(p, p->next_group - 1) != 0) return status_to_errno(p->err.code);
      continue;
    }
    if (p->rg && pqt_rg_cursor_done(p->rg)) {
      pqt_scan_group_done(&p->scan, p->order.groups[p->next_group - 1], pqt_rg_cursor_pages(p->rg));
      pqt_rg_cursor_close(p->rg);
      p->rg = NULL;
      shadow_count(p);
    }
    if (!p->rg) {
      if (p->next_group >= p->order.n) {
        memset(out, 0, sizeof *out); /* end of stream: a released array */
        return 0;
      }
      int32_t pos = p->next_group++;
      int32_t g = p->order.groups[pos];
      bool read;
      pqt_status st = pqt_group_order_read(&p->order, &p->scan, pos, &read, &p->err);
      if (st != PQT_OK) return status_to_errno(st);
      if (!read) continue;
      if (pqt_scan_selective(&p->scan)) {
        st = pqt_sel_cursor_open(&p->scan, g, &p->sel, &p->err);
        if (st != PQT_OK) return status_to_errno(st);
        pqt_sel_cursor_set_threads(p->sel, &p->rgt);
        /* the next row group's pages (those the predicate may need) fetched while this one decodes */
        if (p->ra.mode) {
          int32_t next = pqt_group_order_next(&p->order, &p->scan, pos);
          if (next >= 0) pqt_sel_readahead(&p->ra, &p->scan, p->order.groups[next]);
        }
        continue;
      }
      if (p->ahead && p->ahead_pos == pos) { /* decoded ahead */
        p->cur = p->ahead;
        p->ahead = NULL;
        continue;
      }
      ahead_cancel(p, p->ahead); /* (not this row group's: none is left behind) */
      p->ahead = NULL;
      if (open_group(p, pos) != 0) return status_to_errno(p->err.code);
      continue;
    }
    pqt_row_group_data d;
    bool skipped;
    int64_t first_row = pqt_rg_cursor_rows_done(p->rg);
    pqt_status st = pqt_rg_cursor_next_recover(p->rg, p->batch_size, &d, &skipped, &p->err);
    if (st != PQT_OK) return status_to_errno(st);
    if (skipped) {
      pqt_row_group_data_free(alloc, &d);
      continue;
    }
    int rc = hand_out(p, &d, first_row, out);
    if (rc != 1) return rc;
  }
}

static const char *stream_get_last_error(struct ArrowArrayStream *s) {
  stream_priv *p = s->private_data;
  return p->err.code ? p->err.message : NULL;
}

static void stream_release(struct ArrowArrayStream *s) {
  if (!s || !s->release) return;
  stream_priv *p = s->private_data;
  const pqt_allocator *alloc = p->r->data_alloc;
  if (p->ra_init) pqt_readahead_free(&p->ra); /* waits for an announcement on the way */
  ahead_cancel(p, p->ahead); /* waits for the batch under way */
  ahead_cancel(p, p->cur);
  pqt_rg_cursor_close(p->rg); /* (may read through a shadow) */
  for (int k = 0; k < 2; k++) shadow_free(p->r, p->shadow[k]);
  pqt_sel_cursor_close(p->sel);
  pqt_scan_free(&p->scan);
  pqt_rg_threads_free(&p->rgt, p->r); /* joins the stream's threads (none run now) */
  if (p->have_held) pqt_row_group_data_free(alloc, &p->held);
  pqt_mem_free(alloc, p->selected, (size_t)(p->r->schema->n_leaves ? p->r->schema->n_leaves : 1));
  if (p->dict_leaves) pqt_mem_free(alloc, p->dict_leaves, (size_t)(p->r->schema->n_leaves ? p->r->schema->n_leaves : 1));
  pqt_group_order_free(&p->order);
  pqt_reader *r = p->r;
  pqt_mem_free(alloc, p, sizeof *p);
  s->release = NULL;
  s->private_data = NULL;
  pqt_reader_unref(r); /* the last reference frees the reader (closed or not) */
}

pqt_status pqt_rg_threads_init(pqt_rg_threads *t, pqt_reader *r, const pqt_scan_options *opts, pqt_error *err) {
  memset(t, 0, sizeof *t);
  bool own = opts->executor || opts->threads != 0; /* the scan's threads, else the reader's */
  int32_t threads = own ? opts->threads : r->opts.threads;
  const pqt_executor *ex = own ? opts->executor : r->opts.executor;
  /* threads 0 (the default) runs on every core only when nothing the
   * caller plugged in would be called from several threads: a program
   * written before threads existed may hand in an allocator or a source
   * that is not thread-safe. Asking for threads (or an executor) says it is.
   * (A shared buffer pool is thread-safe, its allocator included: Arrow
   * consumers may release its buffers on any thread.) */
  if (threads == 0 && !ex && (r->opts.alloc || !pqt_io_is_builtin(&r->user_io))) threads = 1;
  PQT_RETURN_NOT_OK(pqt_par_init(&t->par, threads, ex, r->data_alloc,
                                 own ? "pqt_scan_options.threads" : "pqt_read_options.threads", err));
  int32_t ns = pqt_par_slots(&t->par);
  if (ns > 1) {
    t->codecs = pqt_mem_calloc(r->data_alloc, sizeof(pqt_codec_ctx *) * (size_t)ns);
    if (!t->codecs) return pqt_nomem(err);
    t->codecs[0] = r->codec_ctx;
  }
  return PQT_OK;
}

void pqt_rg_threads_free(pqt_rg_threads *t, pqt_reader *r) {
  pqt_par_free(&t->par);
  if (!t->codecs) return;
  int32_t ns = pqt_par_slots(&t->par);
  for (int32_t k = 1; k < ns; k++) pqt_codec_ctx_destroy(t->codecs[k]);
  pqt_mem_free(r->data_alloc, t->codecs, sizeof(pqt_codec_ctx *) * (size_t)ns);
  t->codecs = NULL;
}

PQT_API pqt_status pqt_reader_get_stream(pqt_reader *r, const pqt_scan_options *opts, struct ArrowArrayStream *out,
                                         pqt_error *err) {
  if (out) { /* on failure the caller finds a released stream, whatever out held */
    out->release = NULL;
    out->private_data = NULL;
  }
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_get_stream: bad arguments");
  pqt_scan_options given;
  PQT_RETURN_NOT_OK(pqt_scan_options_load(&given, opts, err));
  opts = &given;
  const pqt_allocator *alloc = r->data_alloc;
  stream_priv *p = pqt_mem_calloc(alloc, sizeof *p);
  if (!p) return pqt_reader_limit_status(r, pqt_nomem(err), err);
  p->r = r;
  pqt_reader_ref(r);
  int32_t nl = r->schema->n_leaves;
  p->selected = pqt_mem_calloc(alloc, (size_t)(nl ? nl : 1));
  pqt_status st = !p->selected ? pqt_nomem(err) : PQT_OK;
  if (st == PQT_OK) st = pqt_projection_resolve(r, opts, p->selected, err);
  if (st == PQT_OK) st = pqt_scan_init(&p->scan, r, opts, p->selected, err);
  if (st == PQT_OK) st = pqt_group_order_init(&p->order, r, opts, err);
  p->batch_size = opts && opts->batch_size > 0 ? opts->batch_size : PQT_DEFAULT_BATCH_ROWS;
  if (st == PQT_OK) st = pqt_rg_threads_init(&p->rgt, r, opts, err);
  p->arrow_output = opts->arrow_output ? opts->arrow_output : r->opts.arrow_output;
  if (st == PQT_OK && p->arrow_output) {
    p->dict_leaves = pqt_mem_calloc(alloc, (size_t)(nl ? nl : 1));
    if (!p->dict_leaves) st = pqt_nomem(err);
    for (int32_t i = 0; st == PQT_OK && i < nl; i++)
      p->dict_leaves[i] = (uint8_t)((pqt_export_leaf_dictionary(r->schema->leaves[i], p->arrow_output) ? PQT_LEAF_DICT : 0) |
                                    (pqt_export_leaf_view(r->schema->leaves[i], p->arrow_output) ? PQT_LEAF_VIEWS : 0));
  }
  if (st == PQT_OK) {
    pqt_readahead_init(&p->ra, r, opts->read_ahead >= 0, &p->rgt);
    p->ra_init = true;
  }
  /* decode-ahead: asked for (read_ahead > 0), threads > 1, whole row groups read
   * (not selectively, not recovering: PQT_SKIP_CORRUPT reports losses in
   * order on the calling thread), no memory ceiling (a row group decoded
   * ahead is memory the ceiling did not plan for), not encrypted */
  if (st == PQT_OK && pqt_par_slots(&p->rgt.par) > 1 && opts->read_ahead > 0 && !pqt_scan_selective(&p->scan) &&
      r->opts.on_error != PQT_SKIP_CORRUPT && !r->opts.max_memory && !r->crypto && p->order.n > 1) {
    p->shadow[0] = shadow_new(r);
    p->shadow[1] = shadow_new(r);
    p->ahead_ok = p->shadow[0] && p->shadow[1];
  }
  out->private_data = p;
  out->release = stream_release;
  if (st != PQT_OK) {
    stream_release(out);
    return pqt_reader_limit_status(r, st, err);
  }
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  return PQT_OK;
}
