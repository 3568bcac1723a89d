/*
 * scan/stream.c: pqt_reader_get_stream, an ArrowArrayStream of record
 * batches. Each batch is decoded when it is asked for, straight from the
 * current pages of the row group's projected columns (scan/row_group.h):
 * memory holds a page per column and the batches the consumer keeps, and
 * a batch released before the next is decoded gives its buffers back to
 * the reader's pool, so the next one is written into memory still in cache.
 * The stream holds a reference to the reader: closing the reader first is
 * fine, the stream's release drops the last reference.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrow/geoarrow.h"
#include "arrow/variant_arrow.h"
#include "arrow/export.h"
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
} stream_priv;

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
    if (p->rg && pqt_rg_cursor_done(p->rg)) {
      pqt_scan_group_done(&p->scan, p->order.groups[p->next_group - 1], pqt_rg_cursor_pages(p->rg));
      pqt_rg_cursor_close(p->rg);
      p->rg = NULL;
    }
    if (!p->rg) {
      if (p->next_group >= p->order.n) {
        memset(out, 0, sizeof *out); /* end of stream: a released array */
        return 0;
      }
      int32_t pos = p->next_group++;
      int32_t g = p->order.groups[pos];
      bool skipped, read;
      pqt_status st = pqt_group_order_read(&p->order, &p->scan, pos, &read, &p->err);
      if (st != PQT_OK) return status_to_errno(st);
      if (!read) continue;
      if (pqt_scan_selective(&p->scan)) {
        st = pqt_sel_cursor_open(&p->scan, g, &p->sel, &p->err);
        if (st != PQT_OK) return status_to_errno(st);
        pqt_sel_cursor_set_threads(p->sel, &p->rgt);
        continue;
      }
      pqt_readahead_wait(&p->ra); /* g's chunks (announced while the last one decoded) */
      st = pqt_rg_cursor_open_recover(p->r, g, p->scan.read_sel, &p->rg, &skipped, &p->err);
      if (st != PQT_OK) return status_to_errno(st);
      if (skipped) continue;
      pqt_rg_cursor_set_threads(p->rg, &p->rgt);
      if (!p->scan.filter) pqt_rg_cursor_set_dict(p->rg, p->dict_leaves); /* a filter reads plain values */
      /* the next row group the scan reads: its chunks are fetched while this one decodes */
      int32_t next = p->ra.mode ? pqt_group_order_next(&p->order, &p->scan, pos) : -1;
      if (next >= 0) pqt_readahead_start(&p->ra, p->r, p->order.groups[next], p->scan.read_sel);
    }
    pqt_row_group_data d;
    bool skipped;
    int64_t first_row = pqt_rg_cursor_rows_done(p->rg);
    pqt_status st = pqt_rg_cursor_next_recover(p->rg, p->batch_size, &d, &skipped, &p->err);
    if (st != PQT_OK) return status_to_errno(st);
    if (!skipped) st = pqt_scan_batch(&p->scan, &d, &p->err); /* the predicate, then the projection */
    if (st == PQT_ECORRUPT) { /* a value the predicate cannot read (a bad WKB): where */
      p->err.row_group = p->order.groups[p->next_group - 1];
      pqt_error_prefix(&p->err, "row group %d, batch from row %lld", (int)p->err.row_group, (long long)first_row);
    }
    if (st != PQT_OK) {
      pqt_row_group_data_free(alloc, &d);
      return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
    }
    if (skipped || d.num_rows == 0) {
      pqt_row_group_data_free(alloc, &d);
      continue;
    }
    for (int32_t i = 0; i < d.n_fields && st == PQT_OK; i++) {
      st = pqt_array_to_arrow_layout(alloc, d.fields[i], &p->err);
      if (st == PQT_OK) st = pqt_array_apply_output(alloc, d.fields[i], p->arrow_output, &p->err);
    }
    if (st == PQT_ERANGE) { /* name the row group and where the batch starts in it */
      char msg[sizeof p->err.message];
      snprintf(msg, sizeof msg, "row group %d, batch from row %lld%s: %.400s", (int)p->order.groups[p->next_group - 1],
               (long long)first_row, p->scan.filter ? " (rows matching the filter)" : "", p->err.message);
      memcpy(p->err.message, msg, sizeof msg);
      p->err.row_group = p->order.groups[p->next_group - 1];
    }
    if (st == PQT_OK && d.num_rows > p->batch_size) {
      p->held = d;
      p->have_held = true;
      p->pos = 0;
      continue;
    }
    if (st == PQT_OK) st = pqt_export_batch(alloc, d.fields, d.n_fields, 0, d.num_rows, out, &p->err);
    pqt_row_group_data_free(alloc, &d); /* the exported batch holds its own references */
    if (st != PQT_OK) return status_to_errno(pqt_reader_limit_status(p->r, st, &p->err));
    return 0;
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
  pqt_rg_cursor_close(p->rg);
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
