/*
 * scan/scan.c: the state a filtered scan keeps (file/stream.c and
 * file/text_output.c share it): the bound predicate, the leaves to decode
 * (the projection plus the predicate's columns), row-group pruning, the
 * per-batch filter step, and the counts (pqt_scan_stats), bytes included:
 * while the scan works, the reader's source is wrapped by one that adds up
 * every byte asked of read_at/borrow_at.
 */
#include "scan/filter.h"

static pqt_status count_read_at(void *pd, uint64_t offset, void *dst, size_t n, pqt_error *err) {
  pqt_count_io *c = pd;
  __atomic_fetch_add(c->bytes, (uint64_t)n, __ATOMIC_RELAXED); /* leaves read on several threads */
  return c->inner.read_at(c->inner.private_data, offset, dst, n, err);
}

static pqt_status count_borrow_at(void *pd, uint64_t offset, size_t n, const uint8_t **out, pqt_error *err) {
  pqt_count_io *c = pd;
  __atomic_fetch_add(c->bytes, (uint64_t)n, __ATOMIC_RELAXED); /* leaves read on several threads */
  return c->inner.borrow_at(c->inner.private_data, offset, n, out, err);
}

static pqt_status count_read_ranges(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  pqt_count_io *c = pd;
  for (size_t i = 0; i < n; i++) __atomic_fetch_add(c->bytes, rs[i].length, __ATOMIC_RELAXED);
  return c->inner.read_ranges(c->inner.private_data, rs, n, err);
}

static pqt_status count_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  pqt_count_io *c = pd;
  return c->inner.will_need(c->inner.private_data, rs, n, err);
}

void pqt_scan_io_begin(pqt_scan *s) {
  if (s->io_depth++ > 0) return;
  pqt_reader *r = s->r;
  s->saved = r->io;
  s->wrap.inner = r->io;
  s->wrap.bytes = &s->stats.bytes_read;
  r->io.read_at = count_read_at;
  r->io.borrow_at = s->saved.borrow_at ? count_borrow_at : NULL;
  r->io.read_ranges = s->saved.read_ranges ? count_read_ranges : NULL;
  r->io.will_need = s->saved.will_need ? count_will_need : NULL;
  r->io.private_data = &s->wrap;
}

void pqt_scan_io_end(pqt_scan *s) {
  if (s->io_depth <= 0 || --s->io_depth > 0) return;
  s->r->io = s->saved;
}

pqt_status pqt_scan_init(pqt_scan *s, pqt_reader *r, const pqt_scan_options *opts, const uint8_t *user_sel,
                         pqt_error *err) {
  memset(s, 0, sizeof *s);
  s->r = r;
  s->user_sel = user_sel;
  s->out = opts ? opts->stats : NULL;
  int32_t nl = r->schema->n_leaves;
  s->read_sel = pqt_mem_calloc(r->data_alloc, (size_t)(nl ? nl : 1));
  if (!s->read_sel) return pqt_nomem(err);
  if (nl) memcpy(s->read_sel, user_sel, (size_t)nl);
  int32_t ng = r->md.row_groups.n;
  s->group_first = pqt_mem_calloc(r->data_alloc, sizeof(int64_t) * (size_t)(ng + 1));
  if (!s->group_first) return pqt_nomem(err);
  for (int32_t g = 0; g < ng; g++) {
    int64_t n = r->md.row_groups.items[g].num_rows;
    s->group_first[g + 1] = s->group_first[g] + (n > 0 && n < INT64_MAX / 2 - s->group_first[g] ? n : 0);
  }
  if (opts && opts->row_ranges && opts->n_row_ranges > 0) {
    int64_t end = 0;
    for (int32_t k = 0; k < opts->n_row_ranges; k++) {
      const pqt_row_span *sp = &opts->row_ranges[k];
      if (sp->first < end || sp->count < 0 || sp->first > INT64_MAX - sp->count)
        return pqt_error_set(err, PQT_EINVAL, "row range %d [%lld, +%lld): ranges must be sorted and not overlap", k,
                             (long long)sp->first, (long long)sp->count);
      end = sp->first + sp->count;
    }
    if (r->opts.on_error == PQT_SKIP_CORRUPT)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "row ranges cannot be read with PQT_SKIP_CORRUPT");
    s->spans = opts->row_ranges;
    s->n_spans = opts->n_row_ranges;
  }
  if (opts && opts->filter) {
    PQT_RETURN_NOT_OK(pqt_filter_bind(r, opts->filter, user_sel, r->data_alloc, &s->filter, err));
    for (int32_t i = 0; i < nl; i++) s->read_sel[i] |= s->filter->leaves[i];
  }
  return PQT_OK;
}

void pqt_scan_free(pqt_scan *s) {
  if (!s || !s->r) return;
  while (s->io_depth > 0) pqt_scan_io_end(s);
  pqt_sel_ahead_free(s);
  int32_t nl = s->r->schema->n_leaves;
  pqt_mem_free(s->r->data_alloc, s->read_sel, (size_t)(nl ? nl : 1));
  if (s->group_first) pqt_mem_free(s->r->data_alloc, s->group_first, sizeof(int64_t) * (size_t)(s->r->md.row_groups.n + 1));
  s->group_first = NULL;
  pqt_filter_free(s->filter);
  s->read_sel = NULL;
  s->filter = NULL;
}

/* Data pages of the chunks read in group g, from their encoding_stats;
 * -1 when a chunk has none. */
static int64_t group_pages(const pqt_scan *s, int32_t g) {
  const pqt_row_group *rg = &s->r->md.row_groups.items[g];
  int64_t n = 0;
  for (int32_t i = 0; i < s->r->schema->n_leaves; i++) {
    if (!s->read_sel[i]) continue;
    if (i >= rg->columns.n) return -1;
    const pqt_column_metadata *cm = &rg->columns.items[i].meta_data;
    if (!PQT_HAS_FIELD(&rg->columns.items[i], column_chunk, meta_data) ||
        !PQT_HAS_FIELD(cm, column_metadata, encoding_stats))
      return -1;
    for (int32_t k = 0; k < cm->encoding_stats.n; k++) {
      const pqt_page_encoding_stats *es = &cm->encoding_stats.items[k];
      if ((es->page_type == PQT_PAGE_DATA || es->page_type == PQT_PAGE_DATA_V2) && es->count > 0) n += es->count;
    }
  }
  return n;
}

pqt_status pqt_scan_group(pqt_scan *s, int32_t g, bool *read, pqt_error *err) {
  *read = true;
  s->stats.row_groups_total++;
  int64_t pages = group_pages(s, g);
  if (pages >= 0) s->stats.pages_total += pages;
  if (s->spans) { /* row ranges that miss the group: not read */
    bool touch = false;
    int64_t g0 = s->group_first[g], g1 = s->group_first[g + 1];
    for (int32_t k = 0; k < s->n_spans && !touch; k++)
      touch = s->spans[k].count > 0 && s->spans[k].first < g1 && s->spans[k].first + s->spans[k].count > g0;
    if (!touch) {
      *read = false;
      return PQT_OK;
    }
  }
  if (s->filter) {
    int skip = 0;
    PQT_RETURN_NOT_OK(pqt_filter_prune(s->filter, s->r, g, &skip, err));
    if (skip) {
      *read = false;
      if (skip == 1) s->stats.row_groups_pruned_stats++;
      else if (skip == 2) s->stats.row_groups_pruned_dictionary++;
      else s->stats.row_groups_pruned_bloom++;
      return PQT_OK;
    }
  }
  s->stats.row_groups_read++;
  return PQT_OK;
}

void pqt_scan_group_done(pqt_scan *s, int32_t g, int64_t pages) {
  s->stats.pages_read += pages;
  if (group_pages(s, g) < 0) s->stats.pages_total += pages;
}

pqt_status pqt_scan_batch(pqt_scan *s, pqt_row_group_data *d, pqt_error *err) {
  if (!s->filter) return PQT_OK;
  const pqt_allocator *a = s->r->data_alloc;
  int64_t n = d->num_rows; /* the selection changes d->num_rows */
  if (n > 0) {
    uint8_t *sel = pqt_mem_alloc(a, (size_t)n);
    if (!sel) return pqt_nomem(err);
    int64_t k = 0;
    pqt_status st = pqt_filter_eval(s->filter, d, sel, &k, err);
    if (st == PQT_OK) st = pqt_batch_select(a, d, sel, k, err);
    pqt_mem_free(a, sel, (size_t)n);
    PQT_RETURN_NOT_OK(st);
  }
  return pqt_batch_project(a, d, s->user_sel, err);
}

void pqt_scan_rows(pqt_scan *s, int64_t n) { s->stats.rows += n; }

void pqt_scan_publish(pqt_scan *s) {
  if (s->out) *s->out = s->stats;
}
