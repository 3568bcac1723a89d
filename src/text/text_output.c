/*
 * text/text_output.c: pqt_reader_write_text, rows as JSON Lines or CSV.
 * Row group by row group, a batch of rows at a time: decode the projected
 * columns, then format row by row into a buffer flushed to the caller's
 * writer in large pieces.
 */
#include "file/options.h"
#include "scan/filter.h"
#include "scan/group_order.h"
#include "scan/ranged.h"
#include "scan/row_group.h"
#include "text/text.h"

void pqt_scan_options_defaults(pqt_scan_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
}

#define FLUSH_AT (256u * 1024u)
/* Rows decoded at a time: memory holds a page per column and this batch. */
#define TEXT_BATCH_ROWS 4096

/* Rows of row group g a batch takes: TEXT_BATCH_ROWS, fewer when the
 * chunks' sizes say a batch of the projected columns would hold more than
 * about 1 GiB of one column (BYTE_ARRAY data of a batch must stay under
 * 2 GiB: values of a large string column then go out a few rows at a time). */
static int64_t batch_rows(const pqt_reader *r, int32_t g, const uint8_t *selected) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int64_t want = TEXT_BATCH_ROWS;
  if (rg->num_rows <= 0) return want;
  for (int32_t i = 0; i < rg->columns.n && i < r->schema->n_leaves; i++) {
    if (!selected[i] || !PQT_HAS_FIELD(&rg->columns.items[i], column_chunk, meta_data)) continue;
    int64_t bytes = rg->columns.items[i].meta_data.total_uncompressed_size;
    if (bytes <= 0) continue;
    double per_row = (double)bytes / (double)rg->num_rows;
    double fit = (double)(1u << 30) / per_row;
    if (fit < (double)want) want = fit < 1 ? 1 : (int64_t)fit;
  }
  return want;
}

static pqt_status flush(pqt_buf *b, pqt_write_fn write, void *ctx, pqt_error *err) {
  if (b->len == 0) return PQT_OK;
  pqt_status st = write(ctx, (const char *)b->data, b->len);
  b->len = 0;
  if (st != PQT_OK) return pqt_error_set(err, st, "write failed");
  return PQT_OK;
}

/* Format the rows of d (while *written < limit; limit < 0: all). */
static pqt_status write_rows(const pqt_row_group_data *d, pqt_text_format format, int64_t limit, int64_t *written,
                             pqt_scan *scan, pqt_buf *b, pqt_write_fn write, void *ctx, pqt_error *err) {
  pqt_status st = PQT_OK;
  for (int64_t row = 0; row < d->num_rows && st == PQT_OK && (limit < 0 || *written < limit); row++) {
    if (format == PQT_TEXT_JSONL) {
      st = pqt_buf_append(b, "{", 1, err);
      for (int32_t k = 0; k < d->n_fields && st == PQT_OK; k++) {
        const pqt_array *f = d->fields[k];
        if (k) st = pqt_buf_append(b, ",", 1, err);
        if (st == PQT_OK) st = pqt_json_string_append(b, (const uint8_t *)f->name, strlen(f->name), err);
        if (st == PQT_OK) st = pqt_buf_append(b, ":", 1, err);
        if (st == PQT_OK) st = pqt_array_row_json(f, row, b, err);
      }
      if (st == PQT_OK) st = pqt_buf_append(b, "}\n", 2, err);
    } else {
      for (int32_t k = 0; k < d->n_fields && st == PQT_OK; k++) {
        if (k) st = pqt_buf_append(b, ",", 1, err);
        if (st == PQT_OK) st = pqt_array_row_csv(d->fields[k], row, b, err);
      }
      if (st == PQT_OK) st = pqt_buf_append(b, "\n", 1, err);
    }
    (*written)++;
    pqt_scan_rows(scan, 1);
    if (st == PQT_OK && b->len >= FLUSH_AT) st = flush(b, write, ctx, err);
  }
  return st;
}

PQT_API pqt_status pqt_reader_write_text(pqt_reader *r, const pqt_scan_options *opts, pqt_text_format format,
                                         int64_t limit, pqt_write_fn write, void *ctx, pqt_error *err) {
  if (!r || !write) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_write_text: bad arguments");
  pqt_scan_options given;
  PQT_RETURN_NOT_OK(pqt_scan_options_load(&given, opts, err));
  opts = &given;
  int32_t nl = r->schema->n_leaves;
  uint8_t *selected = pqt_mem_calloc(r->data_alloc, (size_t)(nl ? nl : 1));
  if (!selected) return pqt_nomem(err);
  pqt_status st = pqt_projection_resolve(r, opts, selected, err);
  pqt_scan scan; /* predicate, pruning, counts (scan/scan.c) */
  memset(&scan, 0, sizeof scan);
  if (st == PQT_OK) st = pqt_scan_init(&scan, r, opts, selected, err);
  pqt_group_order order; /* the row groups read, in order */
  memset(&order, 0, sizeof order);
  if (st == PQT_OK) st = pqt_group_order_init(&order, r, opts, err);
  pqt_rg_threads threads; /* the leaves of a batch decoded in parallel */
  memset(&threads, 0, sizeof threads);
  if (st == PQT_OK) st = pqt_rg_threads_init(&threads, r, opts, err);
  /* the next row group's chunks fetched while this one decodes (as the
   * Arrow stream does, scan/stream.c) */
  pqt_readahead ra;
  pqt_readahead_init(&ra, r, st == PQT_OK && opts->read_ahead >= 0, &threads);
  if (st == PQT_OK) pqt_scan_io_begin(&scan);
  pqt_buf b;
  pqt_buf_init(&b, r->data_alloc);
  if (st == PQT_OK && format == PQT_TEXT_CSV) {
    /* header: projected top-level field names */
    const pqt_schema_node *root = r->schema->root;
    bool first = true;
    for (int32_t k = 0; k < root->n_children && st == PQT_OK; k++) {
      const pqt_schema_node *f = root->children[k];
      bool any = false;
      for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++) any |= selected[i] != 0;
      if (!any) continue;
      if (!first) st = pqt_buf_append(&b, ",", 1, err);
      first = false;
      if (st == PQT_OK) st = pqt_csv_cell(&b, f->name, strlen(f->name), err); /* a name may hold a comma or quote */
    }
    if (st == PQT_OK) st = pqt_buf_append(&b, "\n", 1, err);
  }
  int64_t written = 0;
  for (int32_t gi = 0; gi < order.n && st == PQT_OK && (limit < 0 || written < limit); gi++) {
    int32_t g = order.groups[gi];
    pqt_rg_cursor *rg;
    bool skipped, read;
    st = pqt_group_order_read(&order, &scan, gi, &read, err);
    if (st != PQT_OK) break;
    if (!read) continue;
    if (pqt_scan_selective(&scan)) {
      pqt_sel_cursor *sc;
      st = pqt_sel_cursor_open(&scan, g, &sc, err);
      if (st != PQT_OK) break;
      /* the next row group's pages the predicate may need, fetched while this one decodes */
      int32_t next = ra.mode && limit < 0 ? pqt_group_order_next(&order, &scan, gi) : -1;
      if (next >= 0) pqt_sel_readahead(&ra, &scan, order.groups[next]);
      while (st == PQT_OK && !pqt_sel_cursor_done(sc) && (limit < 0 || written < limit)) {
        pqt_row_group_data d;
        int64_t want = batch_rows(r, g, selected);
        if (!scan.filter && limit >= 0 && limit - written < want) want = limit - written;
        st = pqt_sel_cursor_next(sc, want, &d, err);
        if (st == PQT_OK) st = write_rows(&d, format, limit, &written, &scan, &b, write, ctx, err);
        pqt_row_group_data_free(r->data_alloc, &d);
      }
      pqt_scan_group_done(&scan, g, pqt_sel_cursor_pages(sc));
      pqt_sel_cursor_close(sc);
      continue;
    }
    pqt_readahead_wait(&ra); /* g's chunks (announced while the last one decoded) */
    st = pqt_rg_cursor_open_recover(r, g, scan.read_sel, &rg, &skipped, err);
    if (st != PQT_OK) break;
    if (skipped) continue;
    pqt_rg_cursor_set_threads(rg, &threads);
    /* the next row group the scan reads, unless the limit may be reached in this one */
    int32_t next = ra.mode && (limit < 0 || written + r->md.row_groups.items[g].num_rows < limit)
                       ? pqt_group_order_next(&order, &scan, gi)
                       : -1;
    if (next >= 0) pqt_readahead_start(&ra, r, order.groups[next], scan.read_sel);
    while (st == PQT_OK && !pqt_rg_cursor_done(rg) && (limit < 0 || written < limit)) {
      pqt_row_group_data d;
      /* (with PQT_SKIP_CORRUPT the cursor gives the whole row group) */
      int64_t want = batch_rows(r, g, selected);
      if (!scan.filter && limit >= 0 && limit - written < want) want = limit - written;
      st = pqt_rg_cursor_next_recover(rg, want, &d, &skipped, err);
      if (st != PQT_OK || skipped) break;
      if (st == PQT_OK) st = pqt_scan_batch(&scan, &d, err); /* the predicate, then the projection */
      if (st == PQT_OK) st = write_rows(&d, format, limit, &written, &scan, &b, write, ctx, err);
      pqt_row_group_data_free(r->data_alloc, &d);
    }
    pqt_scan_group_done(&scan, g, pqt_rg_cursor_pages(rg));
    pqt_rg_cursor_close(rg);
  }
  pqt_readahead_free(&ra); /* waits for an announcement on the way */
  pqt_group_order_free(&order);
  pqt_scan_io_end(&scan);
  pqt_scan_publish(&scan);
  pqt_scan_free(&scan);
  pqt_rg_threads_free(&threads, r);
  if (st == PQT_OK) st = flush(&b, write, ctx, err);
  pqt_buf_free(&b);
  pqt_mem_free(r->data_alloc, selected, (size_t)(nl ? nl : 1));
  return st;
}
