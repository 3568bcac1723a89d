/*
 * scan/ranged.c: a row group read over row ranges, with late
 * materialisation (see scan/ranged.h).
 *
 * Each column read has a column cursor. Where the chunk has a sound
 * offset index (pages at rising offsets inside the chunk, first rows rising
 * from 0), is not encrypted, does not use DELTA_BYTE_ARRAY (its values may
 * lean on the previous page's last one) and, when nested, has only v2 data
 * pages (a v1 page need not start a record), the cursor is "windowed": it
 * starts on the dictionary page alone and is moved to the run of pages that
 * hold the rows asked for; only those bytes are requested from the source,
 * and rows before the wanted ones inside a page are stepped over (not
 * materialised where the encoding allows). Any other chunk is read from its
 * start, the rows not wanted stepped over.
 *
 * A batch takes the next rows of the ranges. The columns of the top-level
 * fields the predicate reads are decoded over the whole batch, the
 * predicate evaluated, and the other projected fields decoded only at the
 * rows that passed: a run of passing rows at a time when they are few
 * (pages with none of them are never read), or over the whole batch and
 * then compacted when they are many (stepping over many short gaps would
 * cost more than decoding them).
 */
#include "scan/ranged.h"

#include "scan/row_group.h"
#include "thrift/parquet_desc.h"

typedef struct rleaf {
  pqt_leaf_cursor *L;
  pqt_column_cursor *cur;
  bool windowed;
  int32_t n_pages, dict_pages;
  const int64_t *first; /* windowed: per page, then the row group's rows (c->tables) */
  const uint64_t *off;
  const uint64_t *size;
  int64_t pos;     /* the next record the cursor gives */
  int64_t win_end; /* windowed: the first row past the current run of pages */
} rleaf;

struct pqt_sel_cursor {
  pqt_scan *s;
  pqt_reader *r;
  int32_t g;
  int32_t nl;
  int64_t num_rows;
  pqt_rowset ranges;
  int32_t ri;
  int64_t rpos;
  rleaf *leaves;
  pqt_page_table *tables; /* per leaf: offset indexes read */
  uint8_t *early, *late;  /* per leaf: decoded before / after the predicate */
  bool any_late;
  pqt_column_data *cols;
  bool done;
  int64_t pages_closed; /* pages of cursors closed */
  pqt_rowset batch;
  uint8_t *sel;
  size_t sel_cap;
  pqt_rg_threads *threads; /* borrowed; NULL: the leaves one after the other */
};

void pqt_sel_cursor_set_threads(pqt_sel_cursor *c, pqt_rg_threads *t) {
  if (c) c->threads = t;
}

bool pqt_scan_selective(const pqt_scan *s) {
  return (s->filter || s->spans) && s->r->opts.on_error != PQT_SKIP_CORRUPT;
}

bool pqt_sel_cursor_done(const pqt_sel_cursor *c) { return c->done; }

int64_t pqt_sel_cursor_pages(const pqt_sel_cursor *c) {
  if (!c) return 0;
  int64_t n = c->pages_closed;
  for (int32_t i = 0; i < c->nl; i++)
    if (c->leaves[i].cur) n += pqt_column_cursor_pages(c->leaves[i].cur);
  return n;
}

static void rleaf_close(pqt_sel_cursor *c, rleaf *rl) {
  if (rl->cur) c->pages_closed += pqt_column_cursor_pages(rl->cur);
  pqt_leaf_cursor_close(rl->L);
  memset(rl, 0, sizeof *rl); /* its page table is the cursor's (c->tables) */
}

void pqt_sel_cursor_close(pqt_sel_cursor *c) {
  if (!c) return;
  const pqt_allocator *a = c->r->data_alloc;
  size_t nl = (size_t)(c->nl ? c->nl : 1);
  if (c->leaves)
    for (int32_t i = 0; i < c->nl; i++) rleaf_close(c, &c->leaves[i]);
  if (c->cols)
    for (int32_t i = 0; i < c->nl; i++) pqt_column_data_free(&c->cols[i]);
  if (c->tables)
    for (int32_t i = 0; i < c->nl; i++) pqt_page_table_free(a, &c->tables[i]);
  pqt_mem_free(a, c->tables, sizeof(pqt_page_table) * nl);
  pqt_mem_free(a, c->leaves, sizeof(rleaf) * nl);
  pqt_mem_free(a, c->cols, sizeof(pqt_column_data) * nl);
  pqt_mem_free(a, c->early, nl);
  pqt_mem_free(a, c->late, nl);
  if (c->sel) pqt_mem_free(a, c->sel, c->sel_cap);
  pqt_rowset_free(&c->ranges);
  pqt_rowset_free(&c->batch);
  pqt_mem_free(a, c, sizeof *c);
}

/* Can leaf's chunk in row group g be read by pages (and is it worth
 * reading its offset index, t)? *dict_len: the bytes before its first data
 * page. */
static bool chunk_windowable(pqt_reader *r, int32_t g, int32_t leaf, pqt_page_table *t, bool want, uint64_t *dict_off,
                             uint64_t *dict_len) {
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  /* an offset index already read is used; one is read only when pages may be left out */
  if (!t->tried && (!want || pqt_chunk_data_pages(r, g, leaf) == 1)) return false;
  pqt_chunk ch;
  pqt_error e;
  pqt_error_init(&e);
  bool ok = pqt_chunk_open(r, g, leaf, &ch, &e) == PQT_OK && !ch.encrypted && ch.cm;
  const pqt_column_metadata *cm = ok ? ch.cm : NULL;
  for (int32_t k = 0; ok && k < cm->encodings.n; k++) ok = cm->encodings.items[k] != PQT_ENC_DELTA_BYTE_ARRAY;
  if (ok && ln->max_rep > 0) {
    /* nested: only when every data page is v2 (they start records) */
    ok = PQT_HAS_FIELD(cm, column_metadata, encoding_stats) && cm->encoding_stats.n > 0;
    for (int32_t k = 0; ok && k < cm->encoding_stats.n; k++)
      ok = cm->encoding_stats.items[k].page_type != PQT_PAGE_DATA || cm->encoding_stats.items[k].count == 0;
  }
  if (ok) {
    *dict_off = ch.start;
    if (!t->tried) pqt_page_table_load(r, g, leaf, t);
    ok = t->ok;
    if (ok) *dict_len = t->off[0] - ch.start;
  }
  pqt_chunk_close(&ch);
  return ok;
}

static bool plan_windowed(pqt_sel_cursor *c, int32_t leaf, bool want, rleaf *rl, uint64_t *dict_off,
                          uint64_t *dict_len) {
  pqt_page_table *t = &c->tables[leaf];
  if (!chunk_windowable(c->r, c->g, leaf, t, want, dict_off, dict_len)) return false;
  rl->n_pages = t->n;
  rl->first = t->first;
  rl->off = t->off;
  rl->size = t->size;
  rl->dict_pages = *dict_len > 0 ? 1 : 0;
  return true;
}

/* want: reading by pages may pay (else only when the offset index is at hand). */
static pqt_status rleaf_open(pqt_sel_cursor *c, int32_t leaf, bool want, rleaf *rl, pqt_error *err) {
  memset(rl, 0, sizeof *rl);
  uint64_t doff = 0, dlen = 0;
  if (plan_windowed(c, leaf, want, rl, &doff, &dlen)) {
    PQT_RETURN_NOT_OK(pqt_leaf_cursor_open_window(c->r, c->g, leaf, doff, dlen, &rl->L, err));
    rl->cur = pqt_leaf_cursor_column(rl->L);
    bool data_page = false;
    PQT_RETURN_NOT_OK(pqt_leaf_cursor_error(rl->L, pqt_column_cursor_prime(rl->cur, &data_page, err), err));
    if (!data_page) {
      rl->windowed = true;
      rl->win_end = 0; /* no run yet */
      return PQT_OK;
    }
    /* a data page before the first the offset index lists: read it all */
    rleaf_close(c, rl);
  }
  PQT_RETURN_NOT_OK(pqt_leaf_cursor_open(c->r, c->g, leaf, &rl->L, err));
  rl->cur = pqt_leaf_cursor_column(rl->L);
  rl->win_end = c->num_rows;
  return PQT_OK;
}

/* Move a windowed cursor to the run of pages holding row a, reaching
 * towards row b. */
static pqt_status rleaf_seek(pqt_sel_cursor *c, rleaf *rl, int64_t a, int64_t b, pqt_error *err) {
  int32_t lo = 0, hi = rl->n_pages - 1; /* the last page whose first row is <= a */
  while (lo < hi) {
    int32_t mid = lo + (hi - lo + 1) / 2;
    if (rl->first[mid] <= a) lo = mid;
    else hi = mid - 1;
  }
  int32_t p = lo, q = p;
  while (q + 1 < rl->n_pages && rl->first[q + 1] < b && rl->off[q + 1] == rl->off[q] + rl->size[q]) q++;
  if (rl->pos > 0 && rl->pos == rl->win_end) {
    /* the run read to its end must hold no more rows than the index says */
    int64_t more = 0;
    PQT_RETURN_NOT_OK(pqt_leaf_cursor_error(rl->L, pqt_column_cursor_skip(rl->cur, 1, &more, err), err));
    if (more)
      return pqt_leaf_cursor_error(
          rl->L,
          pqt_corrupt(err, "pages hold more rows than the offset index says (past row %lld)", (long long)rl->pos), err);
  }
  PQT_RETURN_NOT_OK(pqt_leaf_cursor_error(
      rl->L,
      pqt_column_cursor_seek(rl->cur, &c->r->io, rl->off[p], rl->off[q] + rl->size[q] - rl->off[p], p + rl->dict_pages,
                             p, rl->first[p], err),
      err));
  rl->pos = rl->first[p];
  rl->win_end = rl->first[q + 1];
  return PQT_OK;
}

/* Rows [a, b) of the leaf appended to cd (a >= the rows given so far); with
 * keep (flat leaves), only those with keep[row - a] set. */
static pqt_status rleaf_rows(pqt_sel_cursor *c, rleaf *rl, int64_t a, int64_t b, const uint8_t *keep,
                             pqt_column_data *cd, pqt_error *err) {
  if (a < rl->pos)
    return pqt_error_set(err, PQT_EINVAL, "selective read: row %lld asked after row %lld", (long long)a,
                         (long long)rl->pos);
  const int64_t a0 = a;
  while (a < b) {
    if (rl->windowed && a >= rl->win_end) PQT_RETURN_NOT_OK(rleaf_seek(c, rl, a, b, err));
    int64_t got = 0;
    if (rl->pos < a) {
      PQT_RETURN_NOT_OK(pqt_leaf_cursor_error(rl->L, pqt_column_cursor_skip(rl->cur, a - rl->pos, &got, err), err));
    } else {
      int64_t end = b < rl->win_end ? b : rl->win_end;
      pqt_status st = keep ? pqt_column_cursor_read_sel(rl->cur, end - a, keep + (a - a0), cd, &got, err)
                           : pqt_column_cursor_read(rl->cur, end - a, cd, &got, err);
      PQT_RETURN_NOT_OK(pqt_leaf_cursor_error(rl->L, st, err));
      a += got;
    }
    if (got == 0)
      return pqt_leaf_cursor_error(rl->L,
                                   pqt_corrupt(err, "column chunk ends at row %lld; the row group has %lld",
                                               (long long)rl->pos, (long long)c->num_rows),
                                   err);
    rl->pos += got;
  }
  return PQT_OK;
}

/* Leaves of top-level fields that hold a leaf the predicate reads. */
static void classify(pqt_sel_cursor *c) {
  const pqt_schema_node *root = c->r->schema->root;
  const uint8_t *rs = c->s->read_sel;
  const uint8_t *fl = c->s->filter ? c->s->filter->leaves : NULL;
  for (int32_t k = 0; k < root->n_children; k++) {
    const pqt_schema_node *f = root->children[k];
    bool pred = !fl;
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves && !pred; i++) pred = fl[i] != 0;
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves; i++) {
      if (!rs[i]) continue;
      if (pred) c->early[i] = 1;
      else {
        c->late[i] = 1;
        c->any_late = true;
      }
    }
  }
}

/* The rows of row group g (num_rows rows) to consider into out: the
 * caller's ranges, then the predicate's pages (offset indexes read on the
 * way kept in tables). */
static pqt_status group_rows(pqt_scan *s, int32_t g, int64_t num_rows, pqt_page_table *tables, pqt_rowset *out,
                             pqt_error *err) {
  pqt_status st = PQT_OK;
  if (s->spans) {
    int64_t g0 = s->group_first[g], g1 = g0 + num_rows;
    for (int32_t k = 0; k < s->n_spans && st == PQT_OK; k++) {
      int64_t x = s->spans[k].first, y = x + s->spans[k].count;
      if (x < g0) x = g0;
      if (y > g1) y = g1;
      if (x < y) st = pqt_rowset_add(out, x - g0, y - g0, err);
    }
  } else {
    st = pqt_rowset_add(out, 0, num_rows, err);
  }
  if (st == PQT_OK && s->filter && out->n > 0) {
    pqt_rowset pages, both;
    pqt_rowset_init(&pages, out->alloc);
    pqt_rowset_init(&both, out->alloc);
    st = pqt_page_prune(s->filter, s->r, g, tables, &pages, err);
    if (st == PQT_OK) st = pqt_rowset_intersect(out, &pages, &both, err);
    if (st == PQT_OK) {
      pqt_rowset t = *out;
      *out = both;
      both = t;
    }
    pqt_rowset_free(&pages);
    pqt_rowset_free(&both);
  }
  return st;
}

/* What pqt_sel_readahead worked out for row group g with group_rows (the
 * rows, and the offset indexes it read on the way, as the cursor sizes and
 * allocates them), kept in the scan so that pqt_sel_cursor_open of g does
 * not work it out again. */
struct pqt_sel_ahead {
  int32_t g;
  pqt_rowset rows;
  pqt_page_table *tables; /* per leaf of the schema (at least one), r->data_alloc */
};

void pqt_sel_ahead_free(pqt_scan *s) {
  struct pqt_sel_ahead *h = s ? s->ahead : NULL;
  if (!h) return;
  s->ahead = NULL;
  const pqt_allocator *a = s->r->data_alloc;
  int32_t nl = s->r->schema->n_leaves;
  if (h->tables) {
    for (int32_t i = 0; i < nl; i++) pqt_page_table_free(a, &h->tables[i]);
    pqt_mem_free(a, h->tables, sizeof(pqt_page_table) * (size_t)(nl ? nl : 1));
  }
  pqt_rowset_free(&h->rows);
  pqt_mem_free(a, h, sizeof *h);
}

pqt_status pqt_sel_cursor_open(pqt_scan *s, int32_t g, pqt_sel_cursor **out, pqt_error *err) {
  *out = NULL;
  pqt_reader *r = s->r;
  if (g < 0 || g >= r->md.row_groups.n) return pqt_error_set(err, PQT_EINVAL, "no row group %d", g);
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  if (rg->num_rows < 0) {
    if (err) err->row_group = g;
    return pqt_corrupt(err, "row group %d: negative num_rows %lld", g, (long long)rg->num_rows);
  }
  const pqt_allocator *a = r->data_alloc;
  pqt_sel_cursor *c = pqt_mem_calloc(a, sizeof *c);
  if (!c) return pqt_nomem(err);
  c->s = s;
  c->r = r;
  c->g = g;
  c->nl = r->schema->n_leaves;
  c->num_rows = rg->num_rows;
  pqt_rowset_init(&c->ranges, a);
  pqt_rowset_init(&c->batch, a);
  size_t nl = (size_t)(c->nl ? c->nl : 1);
  c->leaves = pqt_mem_calloc(a, sizeof(rleaf) * nl);
  c->cols = pqt_mem_calloc(a, sizeof(pqt_column_data) * nl);
  /* the rows (and the offset indexes read for them) the read-ahead worked out for g, else worked out now */
  struct pqt_sel_ahead *h = s->ahead && s->ahead->g == g ? s->ahead : NULL;
  if (h) {
    s->ahead = NULL;
    c->tables = h->tables;
    c->ranges = h->rows;
    pqt_mem_free(a, h, sizeof *h);
  } else {
    pqt_sel_ahead_free(s); /* one for another row group: not wanted */
    c->tables = pqt_mem_calloc(a, sizeof(pqt_page_table) * nl);
  }
  c->early = pqt_mem_calloc(a, nl);
  c->late = pqt_mem_calloc(a, nl);
  pqt_status st = (!c->leaves || !c->cols || !c->tables || !c->early || !c->late) ? pqt_nomem(err) : PQT_OK;
  for (int32_t i = 0; i < c->nl && st == PQT_OK; i++) pqt_column_data_init(&c->cols[i], a);
  if (st == PQT_OK && !h) st = group_rows(s, g, c->num_rows, c->tables, &c->ranges, err);
  if (st == PQT_OK) classify(c);
  if (st == PQT_OK && c->ranges.n == 0) c->done = true;
  /* the early columns now (by pages when not every row is wanted); the
   * late ones when the first batch shows how many rows pass */
  bool all_rows = c->ranges.n == 1 && c->ranges.r[0].a == 0 && c->ranges.r[0].b == c->num_rows;
  for (int32_t i = 0; i < c->nl && st == PQT_OK && !c->done; i++)
    if (c->early[i]) st = rleaf_open(c, i, !all_rows, &c->leaves[i], err);
  if (st != PQT_OK) {
    pqt_sel_cursor_close(c);
    return pqt_reader_limit_status(r, st, err);
  }
  *out = c;
  return PQT_OK;
}

/* The fields whose leaves are in mask, from c->cols (which are left empty),
 * by the one assembly every read path uses (scan/assemble_batch.c). Rows in
 * its errors are numbered from the batch's first row. */
static pqt_status assemble(pqt_sel_cursor *c, const uint8_t *mask, int64_t rows, pqt_row_group_data *out,
                           pqt_error *err) {
  int64_t row_base = c->batch.n > 0 ? c->batch.r[0].a : 0;
  pqt_status st = pqt_batch_assemble(c->r, c->g, c->cols, mask, c->s->user_sel, rows, row_base, out, err);
  for (int32_t i = 0; i < c->nl; i++)
    if (mask[i]) {
      pqt_column_data_free(&c->cols[i]);
      pqt_column_data_init(&c->cols[i], c->r->data_alloc);
    }
  return st;
}

/* One leaf's rows of a batch: the ranges of set, or (keep set) the rows of
 * the batch c->batch whose keep byte is set. */
static pqt_status leaf_rows(pqt_sel_cursor *c, int32_t i, const pqt_rowset *set, const uint8_t *keep,
                            pqt_error *err) {
  if (keep) {
    int64_t at = 0;
    for (int32_t q = 0; q < c->batch.n; q++) {
      PQT_RETURN_NOT_OK(rleaf_rows(c, &c->leaves[i], c->batch.r[q].a, c->batch.r[q].b, keep + at, &c->cols[i], err));
      at += c->batch.r[q].b - c->batch.r[q].a;
    }
    return PQT_OK;
  }
  for (int32_t k = 0; k < set->n; k++)
    PQT_RETURN_NOT_OK(rleaf_rows(c, &c->leaves[i], set->r[k].a, set->r[k].b, NULL, &c->cols[i], err));
  return PQT_OK;
}

/* The leaves of a batch read in parallel (c->threads, pqt_rg_threads_run),
 * as the row-group cursor does: slot k decompresses with its own codec
 * context, and the error reported is the one the leaves read in order would
 * have stopped at (the failing leaf of lowest index); max_memory's ENOMEM is
 * sorted out by the caller (pqt_reader_limit_status). */
typedef struct sel_job {
  pqt_sel_cursor *c;
  const pqt_rowset *set;
  const uint8_t *keep;
} sel_job;

static pqt_status sel_leaf_job(void *ctx, int32_t leaf, pqt_codec_ctx *codec, pqt_status st, pqt_error *err) {
  sel_job *j = ctx;
  pqt_sel_cursor *c = j->c;
  if (!codec) return pqt_leaf_cursor_error(c->leaves[leaf].L, st, err);
  pqt_column_cursor_set_codec(c->leaves[leaf].cur, codec);
  st = leaf_rows(c, leaf, j->set, j->keep, err);
  pqt_column_cursor_set_codec(c->leaves[leaf].cur, c->r->codec_ctx);
  return st;
}

/* Decode the leaves in mask over the ranges of set (rows of the batch), or
 * with keep the batch's rows whose keep byte is set; a leaf not open yet is
 * opened (on this thread, in leaf order), by pages when `sparse`. */
static pqt_status read_leaves_keep(pqt_sel_cursor *c, const uint8_t *mask, const pqt_rowset *set,
                                   const uint8_t *keep, bool sparse, pqt_error *err) {
  int32_t n = 0;
  for (int32_t i = 0; i < c->nl; i++) n += mask[i] != 0;
  bool par = c->threads && c->threads->codecs && n > 1;
  for (int32_t i = 0; i < c->nl; i++) {
    if (!mask[i]) continue;
    if (!c->leaves[i].L) PQT_RETURN_NOT_OK(rleaf_open(c, i, sparse, &c->leaves[i], err));
    if (!par) PQT_RETURN_NOT_OK(leaf_rows(c, i, set, keep, err));
  }
  if (!par) return PQT_OK;
  const pqt_allocator *a = c->r->data_alloc;
  int32_t *leaves = pqt_mem_alloc(a, sizeof(int32_t) * (size_t)n);
  if (!leaves) return pqt_nomem(err);
  int32_t k = 0;
  for (int32_t i = 0; i < c->nl; i++)
    if (mask[i]) leaves[k++] = i;
  sel_job j = {.c = c, .set = set, .keep = keep};
  pqt_status st = pqt_rg_threads_run(c->threads, a, leaves, n, sel_leaf_job, &j, PQT_OK, NULL, err);
  pqt_mem_free(a, leaves, sizeof(int32_t) * (size_t)n);
  return st;
}

static pqt_status read_leaves(pqt_sel_cursor *c, const uint8_t *mask, const pqt_rowset *set, bool sparse,
                              pqt_error *err) {
  return read_leaves_keep(c, mask, set, NULL, sparse, err);
}

/* Put the fields of x and y (taken over) into out in schema order. */
static pqt_status merge(pqt_sel_cursor *c, pqt_row_group_data *x, pqt_row_group_data *y, pqt_row_group_data *out,
                        pqt_error *err) {
  const pqt_schema_node *root = c->r->schema->root;
  memset(out, 0, sizeof *out);
  int32_t nf = x->n_fields + y->n_fields;
  out->fields = pqt_mem_calloc(c->r->data_alloc, sizeof(pqt_array *) * (size_t)(nf ? nf : 1));
  if (!out->fields) return pqt_nomem(err);
  out->n_fields_cap = nf ? nf : 1;
  out->num_rows = x->num_rows;
  int32_t i = 0, j = 0;
  for (int32_t k = 0; k < root->n_children; k++) {
    const pqt_schema_node *f = root->children[k];
    if (i < x->n_fields && x->fields[i]->node == f) {
      out->fields[out->n_fields++] = x->fields[i];
      x->fields[i++] = NULL;
    } else if (j < y->n_fields && y->fields[j]->node == f) {
      out->fields[out->n_fields++] = y->fields[j];
      y->fields[j++] = NULL;
    }
  }
  x->n_fields = y->n_fields = 0;
  return PQT_OK;
}

pqt_status pqt_sel_cursor_next(pqt_sel_cursor *c, int64_t max_rows, pqt_row_group_data *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  const pqt_allocator *a = c->r->data_alloc;
  if (max_rows <= 0) max_rows = INT64_MAX;
  pqt_rowset_clear(&c->batch);
  int64_t n = 0;
  pqt_status st = PQT_OK;
  while (c->ri < c->ranges.n && n < max_rows && st == PQT_OK) {
    const pqt_rr *rr = &c->ranges.r[c->ri];
    int64_t x = rr->a > c->rpos ? rr->a : c->rpos;
    int64_t take = rr->b - x < max_rows - n ? rr->b - x : max_rows - n;
    st = pqt_rowset_add(&c->batch, x, x + take, err);
    n += take;
    c->rpos = x + take;
    if (c->rpos >= rr->b) c->ri++;
  }
  if (c->ri >= c->ranges.n) c->done = true;
  if (st != PQT_OK || n == 0) return st;
  pqt_row_group_data d1, d2;
  memset(&d2, 0, sizeof d2);
  st = read_leaves(c, c->early, &c->batch, false, err);
  if (st == PQT_OK) st = assemble(c, c->early, n, &d1, err);
  else memset(&d1, 0, sizeof d1);
  if (st != PQT_OK || !c->s->filter) {
    if (st == PQT_OK) st = pqt_batch_project(a, &d1, c->s->user_sel, err);
    if (st != PQT_OK) {
      pqt_row_group_data_free(a, &d1);
      return pqt_reader_limit_status(c->r, st, err);
    }
    *out = d1;
    return PQT_OK;
  }
  if ((size_t)n > c->sel_cap) {
    if (c->sel) pqt_mem_free(a, c->sel, c->sel_cap);
    c->sel_cap = (size_t)n;
    c->sel = pqt_mem_alloc(a, c->sel_cap);
    if (!c->sel) {
      c->sel_cap = 0;
      st = pqt_nomem(err);
    }
  }
  int64_t k = 0;
  if (st == PQT_OK) st = pqt_filter_eval(c->s->filter, &d1, c->sel, &k, err);
  if (st == PQT_ECORRUPT && c->batch.n > 0) { /* a value the predicate cannot read (a bad WKB): where */
    if (err) err->row_group = c->g;
    pqt_error_prefix(err, "row group %d, batch of the rows selected from row %lld", (int)c->g,
                     (long long)c->batch.r[0].a);
  }
  if (st == PQT_OK && c->any_late && k > 0) {
    /* runs of passing rows: many short ones, decode the batch and compact
     * (stepping over each gap would cost more); few, read only them */
    int64_t runs = 0;
    for (int64_t j = 0; j < n; j++) runs += c->sel[j] && (j == 0 || !c->sel[j - 1]);
    bool dense = runs > n / 16;
    /* flat columns: reading every value once and copying the passing ones
     * beats stepping run by run unless runs are rare enough that whole
     * pages between them go unread */
    bool flat = true;
    for (int32_t i = 0; i < c->nl && flat; i++) flat = !c->late[i] || c->r->schema->leaves[i]->max_rep == 0;
    if (flat && runs > n / 512) dense = true;
    pqt_rowset surv;
    pqt_rowset_init(&surv, a);
    int64_t j = 0;
    for (int32_t q = 0; q < c->batch.n && st == PQT_OK && !dense; q++)
      for (int64_t row = c->batch.r[q].a; row < c->batch.r[q].b && st == PQT_OK; row++, j++)
        if (c->sel[j]) st = pqt_rowset_add(&surv, row, row + 1, err);
    /* a late column is read by pages when rows are left out anyway, or when few pass */
    bool all_rows = c->ranges.n == 1 && c->ranges.r[0].a == 0 && c->ranges.r[0].b == c->num_rows;
    bool by_pages = !all_rows || (!dense && k <= n / 2);
    /* many runs over flat columns: each value read once, only the passing ones copied */
    if (dense && flat) {
      if (st == PQT_OK) st = read_leaves_keep(c, c->late, NULL, c->sel, by_pages, err);
      if (st == PQT_OK) st = assemble(c, c->late, k, &d2, err);
    } else {
      if (st == PQT_OK) st = read_leaves(c, c->late, dense ? &c->batch : &surv, by_pages, err);
      if (st == PQT_OK) st = assemble(c, c->late, dense ? n : k, &d2, err);
      if (st == PQT_OK && dense) st = pqt_batch_select(a, &d2, c->sel, k, err);
    }
    pqt_rowset_free(&surv);
  } else if (st == PQT_OK && k == 0) {
    /* no row passed: an empty batch (the late columns are not read) */
    pqt_row_group_data_free(a, &d1);
    return PQT_OK;
  }
  if (st == PQT_OK) st = pqt_batch_select(a, &d1, c->sel, k, err);
  if (st == PQT_OK) st = merge(c, &d1, &d2, out, err);
  pqt_row_group_data_free(a, &d1);
  pqt_row_group_data_free(a, &d2);
  if (st == PQT_OK) st = pqt_batch_project(a, out, c->s->user_sel, err);
  if (st != PQT_OK) {
    pqt_row_group_data_free(a, out);
    return pqt_reader_limit_status(c->r, st, err);
  }
  out->num_rows = k;
  return PQT_OK;
}

/* ---- read-ahead of the next row group's pages ---- */

/* Append [off, +len) (nothing when empty) to rs, a growing pqt_io_range array. */
static pqt_status add_range(pqt_buf *rs, uint64_t off, uint64_t len, pqt_error *err) {
  if (!len) return PQT_OK;
  pqt_io_range x = {off, len, NULL};
  return pqt_buf_append(rs, &x, sizeof x, err);
}

void pqt_sel_readahead(pqt_readahead *ra, pqt_scan *s, int32_t g) {
  pqt_reader *r = s->r;
  if (!ra || !ra->mode || g < 0 || g >= r->md.row_groups.n) return;
  pqt_error e;
  pqt_error_init(&e);
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int32_t nl = r->schema->n_leaves < rg->columns.n ? r->schema->n_leaves : rg->columns.n;
  if (nl <= 0 || rg->num_rows <= 0) return;
  /* g's rows, kept for its cursor (pqt_sel_cursor_open): sized as it sizes them */
  pqt_sel_ahead_free(s);
  const pqt_allocator *da = r->data_alloc;
  size_t n_tables = (size_t)r->schema->n_leaves;
  struct pqt_sel_ahead *h = pqt_mem_calloc(da, sizeof *h);
  if (!h) return;
  h->g = g;
  pqt_rowset_init(&h->rows, da);
  h->tables = pqt_mem_calloc(da, sizeof(pqt_page_table) * n_tables);
  s->ahead = h;
  if (!h->tables || group_rows(s, g, rg->num_rows, h->tables, &h->rows, &e) != PQT_OK) {
    pqt_sel_ahead_free(s); /* the cursor works it out again, and reports what failed */
    return;
  }
  const pqt_rowset *rows = &h->rows;
  pqt_buf rs; /* of pqt_io_range */
  pqt_buf_init(&rs, r->alloc);
  pqt_status st = PQT_OK;
  bool all_rows = rows->n == 1 && rows->r[0].a == 0 && rows->r[0].b == rg->num_rows;
  for (int32_t i = 0; i < nl && st == PQT_OK && rows->n > 0; i++) {
    if (!s->read_sel[i]) continue;
    const pqt_column_chunk *cc = &rg->columns.items[i];
    if (!PQT_HAS_FIELD(cc, column_chunk, meta_data) || (PQT_HAS_FIELD(cc, column_chunk, file_path) && cc->file_path.len > 0))
      continue;
    /* an offset index group_rows read is used (and kept for the cursor);
     * one read here only to plan is dropped: the cursor decides for itself
     * whether to read it */
    pqt_page_table own;
    memset(&own, 0, sizeof own);
    pqt_page_table *t = h->tables[i].tried ? &h->tables[i] : &own;
    uint64_t doff = 0, dlen = 0;
    if (!chunk_windowable(r, g, i, t, !all_rows, &doff, &dlen)) { /* read from its start: all of it */
      uint64_t start, len;
      if (pqt_chunk_range(r, &cc->meta_data, &start, &len, NULL) == PQT_OK) st = add_range(&rs, start, len, &e);
    } else {
      /* the dictionary, then the pages holding a row to consider */
      st = add_range(&rs, doff, dlen, &e);
      int32_t k = 0;
      for (int32_t p = 0; p < t->n && st == PQT_OK; p++) {
        while (k < rows->n && rows->r[k].b <= t->first[p]) k++;
        if (k < rows->n && rows->r[k].a < t->first[p + 1]) st = add_range(&rs, t->off[p], t->size[p], &e);
      }
    }
    pqt_page_table_free(da, &own); /* table_from's allocator */
  }
  if (st == PQT_OK && rs.len)
    pqt_readahead_ranges(ra, r, (const pqt_io_range *)(const void *)rs.data, rs.len / sizeof(pqt_io_range));
  pqt_buf_free(&rs);
}
