/*
 * scan/recovery.c: reading a row group that is damaged, with
 * on_error = PQT_SKIP_CORRUPT (spec: "Error recovery": a corrupt page loses
 * that page, a corrupt page header the rest of its chunk, corrupt column
 * metadata its chunk).
 *
 * Every selected leaf is decoded whole by a column cursor that leaves out
 * the pages it cannot read and records the rows they held
 * (column/column_reader.h, skip_corrupt_pages). The columns then disagree
 * on which rows they hold, and are made to agree row by row:
 *   - rows lost from any leaf of an optional top-level field: the field is
 *     null there, in every one of its leaves;
 *   - rows lost from a leaf of a required top-level field: left out of
 *     every column (nothing else could stand for them).
 * A chunk that cannot be opened or read at all counts as all its rows
 * lost. When every selected leaf lost every row, nothing vouches for the
 * row count: the row group is lost (the caller reports it). Each loss is
 * reported through on_skip with the rows it cost (rows left out; nulls
 * cost none).
 */
#include <stdio.h>
#include <stdlib.h>

#include "scan/row_group.h"

static const pqt_schema_node *top_field(const pqt_schema_node *n) {
  while (n->parent && n->parent->parent) n = n->parent;
  return n;
}

/* ---- row ranges ------------------------------------------------------------ */

typedef struct ranges {
  pqt_row_range *r;
  int32_t n, cap;
  const pqt_allocator *alloc;
} ranges;

static void ranges_free(ranges *s) {
  if (s->r) pqt_mem_free(s->alloc, s->r, sizeof(pqt_row_range) * (size_t)s->cap);
  memset(s, 0, sizeof *s);
}

static pqt_status ranges_add(ranges *s, int64_t first, int64_t n, pqt_error *err) {
  if (n <= 0) return PQT_OK;
  if (s->n == s->cap) {
    int32_t cap = s->cap ? s->cap * 2 : 8;
    pqt_row_range *p =
        pqt_mem_realloc(s->alloc, s->r, sizeof(pqt_row_range) * (size_t)s->cap, sizeof(pqt_row_range) * (size_t)cap);
    if (!p) return pqt_nomem(err);
    s->r = p;
    s->cap = cap;
  }
  s->r[s->n++] = (pqt_row_range){first, n};
  return PQT_OK;
}

static int cmp_range(const void *a, const void *b) {
  const pqt_row_range *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* Sort and merge overlapping or touching ranges. */
static void ranges_normalise(ranges *s) {
  if (s->n < 2) return;
  qsort(s->r, (size_t)s->n, sizeof *s->r, cmp_range);
  int32_t k = 0;
  for (int32_t i = 1; i < s->n; i++) {
    int64_t end = s->r[k].first + s->r[k].n;
    if (s->r[i].first <= end) {
      int64_t e2 = s->r[i].first + s->r[i].n;
      if (e2 > end) s->r[k].n = e2 - s->r[k].first;
    } else {
      s->r[++k] = s->r[i];
    }
  }
  s->n = k + 1;
}

/* Rows of [first, first+n) inside the (normalised) ranges. */
static int64_t ranges_overlap(const ranges *s, int64_t first, int64_t n) {
  int64_t c = 0, end = first + n;
  for (int32_t i = 0; i < s->n; i++) {
    int64_t a = s->r[i].first > first ? s->r[i].first : first;
    int64_t b = s->r[i].first + s->r[i].n < end ? s->r[i].first + s->r[i].n : end;
    if (b > a) c += b - a;
  }
  return c;
}

static int64_t ranges_rows(const ranges *s) {
  int64_t c = 0;
  for (int32_t i = 0; i < s->n; i++) c += s->r[i].n;
  return c;
}

/* ---- one row group --------------------------------------------------------- */

typedef struct leaf_losses {
  pqt_lost_rows *l; /* the losses of one leaf, in row order */
  int32_t n;
  bool chunk; /* the whole chunk: its message is already complete */
} leaf_losses;

/* Decode leaf i whole into cd, recording what it lost; codec: the
 * decompression context to use (NULL: the reader's). */
static pqt_status read_leaf(pqt_reader *r, int32_t g, int32_t i, pqt_column_data *cd, leaf_losses *ll,
                            pqt_codec_ctx *codec, pqt_error *err) {
  const pqt_allocator *a = r->data_alloc;
  int64_t num_rows = r->md.row_groups.items[g].num_rows;
  pqt_leaf_cursor *L = NULL;
  pqt_error e;
  pqt_error_init(&e);
  int64_t got = 0;
  pqt_status st = pqt_leaf_cursor_open_ex(r, g, i, true, &L, &e);
  if (st == PQT_OK && codec) pqt_column_cursor_set_codec(pqt_leaf_cursor_column(L), codec);
  if (st == PQT_OK) st = pqt_leaf_cursor_read(L, INT64_MAX, cd, &got, &e);
  if (st == PQT_OK) st = pqt_leaf_cursor_finish(L, &e);
  if (st == PQT_OK) {
    int32_t n;
    const pqt_lost_rows *lost = pqt_leaf_cursor_lost(L, &n);
    if (n > 0) {
      ll->l = pqt_mem_alloc(a, sizeof *lost * (size_t)n);
      if (!ll->l) st = pqt_nomem(err);
      else memcpy(ll->l, lost, sizeof *lost * (size_t)n);
      ll->n = ll->l ? n : 0;
    }
  } else if (pqt_recoverable_status(st)) {
    /* the chunk as a whole */
    pqt_column_data_free(cd);
    pqt_column_data_init(cd, a);
    ll->l = pqt_mem_calloc(a, sizeof *ll->l);
    if (!ll->l) {
      st = pqt_nomem(err);
    } else {
      ll->n = 1;
      ll->chunk = true;
      ll->l[0].first_row = 0;
      ll->l[0].n_rows = num_rows;
      ll->l[0].page = e.page;
      ll->l[0].why = e;
      st = PQT_OK;
    }
  } else if (err) {
    *err = e;
  }
  pqt_leaf_cursor_close(L);
  return st;
}

/* Add the losses of leaves [first, end) to s. */
static pqt_status add_losses(ranges *s, const leaf_losses *ll, int32_t first, int32_t end, pqt_error *err) {
  for (int32_t i = first; i < end; i++)
    for (int32_t j = 0; j < ll[i].n; j++)
      PQT_RETURN_NOT_OK(ranges_add(s, ll[i].l[j].first_row, ll[i].l[j].n_rows, err));
  return PQT_OK;
}

static void report(pqt_reader *r, int32_t g, int32_t leaf, const leaf_losses *ll, const pqt_lost_rows *l, bool optional,
                   int64_t rows_lost) {
  if (!r->opts.on_skip) return;
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  const pqt_schema_node *f = top_field(ln);
  pqt_error e;
  pqt_error_init(&e);
  e.code = l->why.code ? l->why.code : PQT_ECORRUPT;
  e.row_group = g;
  e.column = leaf;
  e.page = l->page;
  char what[160];
  int64_t last = l->first_row + l->n_rows - 1;
  if (l->n_rows == 0)
    snprintf(what, sizeof what, "data past the row group's %lld rows left out", (long long)l->first_row);
  else if (optional)
    snprintf(what, sizeof what, "field %.60s reads as null in rows %lld-%lld", f->name, (long long)l->first_row,
             (long long)last);
  else snprintf(what, sizeof what, "rows %lld-%lld are lost", (long long)l->first_row, (long long)last);
  if (ll->chunk) snprintf(e.message, sizeof e.message, "%.330s (%s)", l->why.message, what);
  else
    snprintf(e.message, sizeof e.message, "row group %d, column %.100s, page %d: %.200s (%s)", g, ln->dotted_path,
             l->page, l->why.message, what);
  r->opts.on_skip(r->opts.on_skip_ctx, &e, rows_lost);
}

/* The selected leaves read in parallel (threads > 1, no encryption: the key
 * retriever is only ever called from the calling thread;
 * pqt_rg_threads_run). The status is the one reading them in order would
 * have stopped at: the lowest failing leaf's (what a later leaf read
 * meanwhile is freed by the caller as usual). */
typedef struct rec_job {
  pqt_reader *r;
  int32_t g;
  pqt_column_data *cols;
  leaf_losses *ll;
} rec_job;

static pqt_status rec_leaf_job(void *ctx, int32_t leaf, pqt_codec_ctx *codec, pqt_status st, pqt_error *err) {
  rec_job *p = ctx;
  if (!codec) return st;
  return read_leaf(p->r, p->g, leaf, &p->cols[leaf], &p->ll[leaf], codec, err);
}

static pqt_status read_leaves_parallel(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_column_data *cols,
                                       leaf_losses *ll, pqt_rg_threads *t, pqt_error *err) {
  const pqt_allocator *a = r->data_alloc;
  int32_t nl = r->schema->n_leaves, n = 0;
  for (int32_t i = 0; i < nl; i++) n += selected[i] != 0;
  int32_t *leaves = pqt_mem_alloc(a, sizeof(int32_t) * (size_t)(n ? n : 1));
  if (!leaves) return pqt_nomem(err);
  int32_t k = 0;
  for (int32_t i = 0; i < nl; i++)
    if (selected[i]) leaves[k++] = i;
  rec_job p = {r, g, cols, ll};
  pqt_status st = pqt_rg_threads_run(t, a, leaves, n, rec_leaf_job, &p, PQT_OK, NULL, err);
  pqt_mem_free(a, leaves, sizeof(int32_t) * (size_t)(n ? n : 1));
  return st;
}

pqt_status pqt_recover_leaves(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_column_data *cols, int64_t *rows,
                              pqt_rg_threads *threads, pqt_error *err) {
  const pqt_allocator *a = r->data_alloc;
  const pqt_schema *sc = r->schema;
  int32_t nl = sc->n_leaves;
  int64_t num_rows = r->md.row_groups.items[g].num_rows;
  leaf_losses *ll = pqt_mem_calloc(a, sizeof *ll * (size_t)(nl ? nl : 1));
  if (!ll) return pqt_nomem(err);
  ranges drop = {.alloc = a}, reported = {.alloc = a}, field = {.alloc = a}, own = {.alloc = a};
  pqt_status st = PQT_OK;
  int32_t n_selected = 0, n_all_lost = 0;
  bool par = threads && threads->codecs && !r->crypto;
  if (par) st = read_leaves_parallel(r, g, selected, cols, ll, threads, err);
  for (int32_t i = 0; i < nl && st == PQT_OK; i++) {
    if (!selected[i]) continue;
    n_selected++;
    if (!par) st = read_leaf(r, g, i, &cols[i], &ll[i], NULL, err);
    int64_t lost = 0;
    for (int32_t k = 0; k < ll[i].n; k++) lost += ll[i].l[k].n_rows;
    if (st == PQT_OK && num_rows > 0 && lost >= num_rows) n_all_lost++;
  }
  if (st == PQT_OK && n_selected > 0 && n_all_lost == n_selected) {
    /* nothing vouches for the row count: the row group is lost */
    const char *first = "";
    for (int32_t i = 0; i < nl && !*first; i++)
      if (ll[i].n) first = ll[i].l[0].why.message;
    st = pqt_corrupt(err, "row group %d: every column read is damaged; the first: %.400s", g, first);
    if (err) err->row_group = g;
  }
  /* rows left out: those lost under a required top-level field */
  const pqt_schema_node *root = sc->root;
  for (int32_t k = 0; k < root->n_children && st == PQT_OK; k++) {
    const pqt_schema_node *f = root->children[k];
    if (f->repetition != PQT_OPTIONAL) st = add_losses(&drop, ll, f->first_leaf, f->first_leaf + f->n_leaves, err);
  }
  ranges_normalise(&drop);
  /* every column: its own losses, the nulls of its field, the rows left out */
  for (int32_t k = 0; k < root->n_children && st == PQT_OK; k++) {
    const pqt_schema_node *f = root->children[k];
    bool optional = f->repetition == PQT_OPTIONAL;
    field.n = 0;
    if (optional) st = add_losses(&field, ll, f->first_leaf, f->first_leaf + f->n_leaves, err);
    ranges_normalise(&field);
    for (int32_t i = f->first_leaf; i < f->first_leaf + f->n_leaves && st == PQT_OK; i++) {
      if (!selected[i]) continue;
      own.n = 0;
      st = add_losses(&own, ll, i, i + 1, err);
      if (st != PQT_OK) break;
      if (field.n == 0 && drop.n == 0 && own.n == 0) continue; /* nothing to change */
      const pqt_schema_node *ln = sc->leaves[i];
      st = pqt_column_data_patch(&cols[i], ln->physical_type, ln->type_length, ln->max_def, ln->max_rep, num_rows,
                                 own.r, own.n, drop.r, drop.n, field.r, field.n, err);
      if (st != PQT_OK) {
        if (err) {
          err->row_group = g;
          err->column = i;
        }
        pqt_error_prefix(err, "row group %d, column %s", g, ln->dotted_path);
      }
    }
  }
  /* report each loss with the rows it cost that no earlier one did */
  for (int32_t i = 0; i < nl && st == PQT_OK; i++) {
    bool optional = top_field(sc->leaves[i])->repetition == PQT_OPTIONAL;
    for (int32_t j = 0; j < ll[i].n && st == PQT_OK; j++) {
      const pqt_lost_rows *l = &ll[i].l[j];
      int64_t cost = 0;
      if (!optional) {
        cost = ranges_overlap(&drop, l->first_row, l->n_rows) - ranges_overlap(&reported, l->first_row, l->n_rows);
        st = ranges_add(&reported, l->first_row, l->n_rows, err);
        ranges_normalise(&reported);
      }
      report(r, g, i, &ll[i], l, optional, cost);
    }
  }
  if (st == PQT_OK) *rows = num_rows - ranges_rows(&drop);
  for (int32_t i = 0; i < nl; i++)
    if (ll[i].l) pqt_mem_free(a, ll[i].l, sizeof *ll[i].l * (size_t)ll[i].n);
  pqt_mem_free(a, ll, sizeof *ll * (size_t)(nl ? nl : 1));
  ranges_free(&drop);
  ranges_free(&reported);
  ranges_free(&field);
  ranges_free(&own);
  return st;
}
