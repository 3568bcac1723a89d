/*
 * scan/row_group.c: reading one row group: for each projected leaf, locate
 * its column chunk (spec "Column chunks"; interop: dictionary_page_offset
 * of 0 means absent, and the chunk starts at the smaller valid offset),
 * decode it, then assemble the top-level fields. Errors are prefixed with
 * the row group and column path, and carry them in pqt_error's fields.
 */
#include "scan/row_group.h"

#include <stdatomic.h>
#include <stdio.h>

#include "column/column_reader.h"
#include "crypto/crypto.h"
#include "io/http.h"
#include "io/source.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

pqt_status pqt_projection_resolve(const pqt_reader *r, const pqt_scan_options *opts, uint8_t *selected,
                                  pqt_error *err) {
  const pqt_schema *sc = r->schema;
  if (!opts || !opts->columns || opts->n_columns == 0) {
    memset(selected, 1, (size_t)sc->n_leaves);
    return PQT_OK;
  }
  memset(selected, 0, (size_t)sc->n_leaves);
  for (int32_t k = 0; k < opts->n_columns; k++) {
    const char *want = opts->columns[k];
    size_t wl = strlen(want);
    bool found = false;
    for (int32_t i = 0; i < sc->n_leaves; i++) {
      const char *p = sc->leaves[i]->dotted_path;
      /* a leaf matches when its path equals `want` or lies below it */
      if (strncmp(p, want, wl) == 0 && (p[wl] == '\0' || p[wl] == '.')) {
        selected[i] = 1;
        found = true;
      }
    }
    if (!found) return pqt_error_set(err, PQT_EINVAL, "no column named '%s'", want);
  }
  return PQT_OK;
}

/* One leaf column of a row group being read: its column cursor and what
 * the cursor borrows (the decryptor, the page-loss context). */
struct pqt_leaf_cursor {
  pqt_reader *r;
  int32_t g, leaf;
  pqt_column_cursor *cur;
  pqt_chunk chunk;     /* the cursor's page reader borrows its decryptor */
  int64_t *first_rows; /* recovery: the offset index's first row per data page */
  int32_t n_first_rows;
};

void pqt_leaf_cursor_close(pqt_leaf_cursor *L) {
  if (!L) return;
  pqt_column_cursor_close(L->cur);
  pqt_chunk_close(&L->chunk);
  if (L->first_rows) pqt_mem_free(L->r->data_alloc, L->first_rows, sizeof(int64_t) * (size_t)L->n_first_rows);
  pqt_mem_free(L->r->data_alloc, L, sizeof *L);
}

/* The first row of each data page of the chunk, from its offset index
 * (for error recovery: how many rows a lost nested v1 page held).
 * Absent, unreadable or inconsistent: none (not an error). */
static void load_first_rows(pqt_reader *r, pqt_leaf_cursor *L) {
  pqt_arena arena;
  pqt_arena_init(&arena, r->data_alloc);
  pqt_buf hold;
  pqt_buf_init(&hold, r->data_alloc);
  pqt_offset_index oi;
  bool found = false;
  if (pqt_chunk_read_index(r, &L->chunk, PQT_MODULE_OFFSET_INDEX, &arena, &hold, &oi, &found, NULL) == PQT_OK &&
      found && oi.page_locations.n > 0) {
    int32_t n = oi.page_locations.n;
    bool ok = true; /* rows that only go up */
    for (int32_t i = 0; i < n && ok; i++)
      ok = oi.page_locations.items[i].first_row_index >= 0 &&
           (i == 0 || oi.page_locations.items[i].first_row_index >= oi.page_locations.items[i - 1].first_row_index);
    L->first_rows = ok ? pqt_mem_alloc(r->data_alloc, sizeof(int64_t) * (size_t)n) : NULL;
    if (L->first_rows) {
      L->n_first_rows = n;
      for (int32_t i = 0; i < n; i++) L->first_rows[i] = oi.page_locations.items[i].first_row_index;
    }
  }
  pqt_buf_free(&hold);
  pqt_arena_reset(&arena);
}

static pqt_status leaf_open_raw(pqt_reader *r, int32_t g, int32_t leaf, bool skip_pages, const uint64_t *window,
                                pqt_leaf_cursor *L, pqt_error *err) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  PQT_RETURN_NOT_OK(pqt_chunk_open_data(r, g, leaf, &L->chunk, err));
  const pqt_column_metadata *cm = L->chunk.cm;
  int16_t repeated_def[PQT_SCHEMA_MAX_DEPTH + 1];
  int k = 0;
  for (const pqt_schema_node *x = ln; x && k <= PQT_SCHEMA_MAX_DEPTH; x = x->parent)
    if (x->repetition == PQT_REPEATED) k++;
  PQT_CHECK_CORRUPT(k == ln->max_rep, err, "inconsistent repetition levels");  // NOLINT(clang-analyzer-core.NullDereference): schema leaves are never NULL
  for (const pqt_schema_node *x = ln; x; x = x->parent)
    if (x->repetition == PQT_REPEATED) repeated_def[--k] = x->max_def;
  int lt = pqt_union_which(ln->logical.isset);
  bool is_text = pqt_is_text_type(lt, ln->converted_type);
  pqt_column_desc desc = {ln->physical_type,
                          ln->type_length,
                          ln->max_def,
                          ln->max_rep,
                          repeated_def,
                          ln->dotted_path,
                          is_text && r->opts.validate_utf8};
  pqt_column_read_options o;
  memset(&o, 0, sizeof o);
  pqt_chunk_page_options(r, &L->chunk, &o.page);
  o.expected_rows = rg->num_rows;
  o.max_values = INT32_MAX;
  o.expected_values = cm->num_values;
  if (skip_pages) {
    /* recovery: bad pages are left out, their rows recorded */
    o.skip_corrupt_pages = true;
    if (ln->max_rep > 0) load_first_rows(r, L);
    o.page_first_row = L->first_rows;
    o.n_page_first_row = L->n_first_rows;
  }
  uint64_t start = L->chunk.start, len = L->chunk.len;
  if (window) { /* selective reads: only these bytes now (pqt_column_cursor_seek for the rest) */
    start = window[0];
    len = window[1];
    o.expected_rows = -1;
    o.expected_values = -1;
  }
  return pqt_column_cursor_open(&L->cur, pqt_chunk_io(r, &L->chunk), start, len, cm->codec, &desc, r->codec_ctx, &o, r->data_alloc, err);
}

/* An allocation refused at pqt_read_options.max_memory reads as ELIMIT. */
pqt_status pqt_reader_limit_status(pqt_reader *r, pqt_status st, pqt_error *err) {
  if (st == PQT_ENOMEM && pqt_pool_take_limit_hit(r->pool))
    return pqt_error_set(err, PQT_ELIMIT, "the memory ceiling of %llu bytes (max_memory) would be exceeded",
                         (unsigned long long)r->opts.max_memory);
  return st;
}

/* st, with err naming the row group and column. */
static pqt_status leaf_error(pqt_reader *r, int32_t g, int32_t leaf, pqt_status st, pqt_error *err) {
  st = pqt_reader_limit_status(r, st, err);
  if (st != PQT_OK) {
    if (err) {
      err->row_group = g;
      err->column = leaf;
    }
    pqt_error_prefix(err, "row group %d, column %s", g, r->schema->leaves[leaf]->dotted_path);
  }
  return st;
}

/* A leaf cursor over the whole chunk (w NULL) or the byte window w. */
static pqt_status leaf_cursor_open(pqt_reader *r, int32_t g, int32_t leaf, bool skip_pages, const uint64_t *w,
                                   pqt_leaf_cursor **out, pqt_error *err) {
  *out = NULL;
  if (g < 0 || g >= r->md.row_groups.n || leaf < 0 || leaf >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "no row group %d column %d", g, leaf);
  pqt_leaf_cursor *L = pqt_mem_calloc(r->data_alloc, sizeof *L);
  if (!L) return leaf_error(r, g, leaf, pqt_nomem(err), err);
  L->r = r;
  L->g = g;
  L->leaf = leaf;
  pqt_status st = leaf_open_raw(r, g, leaf, skip_pages, w, L, err);
  if (st != PQT_OK) {
    pqt_leaf_cursor_close(L);
    return leaf_error(r, g, leaf, st, err);
  }
  *out = L;
  return PQT_OK;
}

pqt_status pqt_leaf_cursor_open_ex(pqt_reader *r, int32_t g, int32_t leaf, bool skip_pages, pqt_leaf_cursor **out,
                                   pqt_error *err) {
  return leaf_cursor_open(r, g, leaf, skip_pages, NULL, out, err);
}

pqt_status pqt_leaf_cursor_open_window(pqt_reader *r, int32_t g, int32_t leaf, uint64_t offset, uint64_t len,
                                       pqt_leaf_cursor **out, pqt_error *err) {
  uint64_t w[2] = {offset, len};
  return leaf_cursor_open(r, g, leaf, false, w, out, err);
}

pqt_column_cursor *pqt_leaf_cursor_column(pqt_leaf_cursor *L) { return L->cur; }
const pqt_chunk *pqt_leaf_cursor_chunk(const pqt_leaf_cursor *L) { return &L->chunk; }
pqt_status pqt_leaf_cursor_error(pqt_leaf_cursor *L, pqt_status st, pqt_error *err) {
  return leaf_error(L->r, L->g, L->leaf, st, err);
}

pqt_status pqt_leaf_cursor_open(pqt_reader *r, int32_t g, int32_t leaf, pqt_leaf_cursor **out, pqt_error *err) {
  return pqt_leaf_cursor_open_ex(r, g, leaf, false, out, err);
}

const pqt_lost_rows *pqt_leaf_cursor_lost(const pqt_leaf_cursor *L, int32_t *n) {
  return pqt_column_cursor_lost(L->cur, n);
}

pqt_status pqt_leaf_cursor_read(pqt_leaf_cursor *L, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                                pqt_error *err) {
  return leaf_error(L->r, L->g, L->leaf, pqt_column_cursor_read(L->cur, max_rows, cd, rows, err), err);
}

pqt_status pqt_leaf_cursor_finish(pqt_leaf_cursor *L, pqt_error *err) {
  return leaf_error(L->r, L->g, L->leaf, pqt_column_cursor_finish(L->cur, err), err);
}

pqt_status pqt_row_group_read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err) {
  pqt_leaf_cursor *L;
  PQT_RETURN_NOT_OK(pqt_leaf_cursor_open(r, g, leaf, &L, err));
  int64_t rows;
  pqt_status st = pqt_leaf_cursor_read(L, INT64_MAX, cd, &rows, err);
  if (st == PQT_OK) st = pqt_leaf_cursor_finish(L, err);
  pqt_leaf_cursor_close(L);
  return st;
}

void pqt_row_group_data_free(const pqt_allocator *alloc, pqt_row_group_data *d) {
  for (int32_t i = 0; i < d->n_fields; i++) pqt_array_free(alloc, d->fields[i]);
  if (d->fields) pqt_mem_free(alloc, d->fields, sizeof(pqt_array *) * (size_t)d->n_fields_cap);
  memset(d, 0, sizeof *d);
}

/* ---- the row-group cursor ------------------------------------------------- */

struct pqt_rg_cursor {
  pqt_reader *r;
  int32_t g;
  int64_t num_rows, rows_done;
  const uint8_t *selected; /* borrowed: one byte per leaf */
  int32_t nl;
  int32_t n_selected;
  bool recovering;          /* PQT_SKIP_CORRUPT: the row group in one batch, see scan/recovery.c */
  pqt_leaf_cursor **leaves; /* per leaf: the cursors of the selected (not when recovering) */
  pqt_column_data *cols;    /* per leaf: one batch */
  bool finished;            /* every cursor checked at the chunk's end */
  int64_t pages;            /* data pages decoded so far */
  pqt_rg_threads *threads; /* borrowed; NULL: the leaves one after the other */
  const uint8_t *dict_leaves; /* borrowed; NULL: no leaf decoded as dictionary indexes or views */
};

void pqt_rg_cursor_set_threads(pqt_rg_cursor *c, pqt_rg_threads *t) { c->threads = t; }

bool pqt_rg_cursor_done(const pqt_rg_cursor *c) { return c->finished; }
int64_t pqt_rg_cursor_pages(const pqt_rg_cursor *c) { return c ? c->pages : 0; }
int64_t pqt_rg_cursor_rows_done(const pqt_rg_cursor *c) { return c ? c->rows_done : 0; }

void pqt_rg_cursor_close(pqt_rg_cursor *c) {
  if (!c) return;
  const pqt_allocator *a = c->r->data_alloc;
  size_t nl = (size_t)(c->nl ? c->nl : 1);
  if (c->leaves)
    for (int32_t i = 0; i < c->nl; i++) pqt_leaf_cursor_close(c->leaves[i]);
  if (c->cols)
    for (int32_t i = 0; i < c->nl; i++) pqt_column_data_free(&c->cols[i]);
  pqt_mem_free(a, c->leaves, sizeof(pqt_leaf_cursor *) * nl);
  pqt_mem_free(a, c->cols, sizeof(pqt_column_data) * nl);
  pqt_mem_free(a, c, sizeof *c);
}

/* The first selected leaf of row group g whose column key is not at hand
 * (-1: none), err saying which key. A key not given is not damage: error
 * recovery must not leave such a column out or null as if it were. */
static int32_t missing_key(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_error *err) {
  if (!r->crypto || g < 0 || g >= r->md.row_groups.n) return -1;
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  for (int32_t i = 0; i < r->schema->n_leaves && i < rg->columns.n; i++) {
    if (!selected[i] || !PQT_HAS_FIELD(&rg->columns.items[i], column_chunk, crypto_metadata)) continue;
    pqt_chunk ch;
    bool no_key = pqt_chunk_open(r, g, i, &ch, err) != PQT_OK && ch.no_key;
    pqt_chunk_close(&ch);
    if (no_key) return i;
  }
  return -1;
}

/* The byte ranges of the selected column chunks of row group g held in
 * this file, into rs (room for the row group's columns); their count. A
 * chunk whose metadata cannot be read is left out (its cursor reports it). */
static size_t chunk_ranges(const pqt_reader *r, int32_t g, const uint8_t *selected, pqt_io_range *rs) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int32_t n = r->schema->n_leaves < rg->columns.n ? r->schema->n_leaves : rg->columns.n;
  size_t k = 0;
  for (int32_t i = 0; i < n; i++) {
    const pqt_column_chunk *cc = &rg->columns.items[i];
    if (!selected[i] || !PQT_HAS_FIELD(cc, column_chunk, meta_data)) continue;
    if (PQT_HAS_FIELD(cc, column_chunk, file_path) && cc->file_path.len > 0) continue; /* in another file */
    uint64_t start, len;
    if (pqt_chunk_range(r, &cc->meta_data, &start, &len, NULL) == PQT_OK && len) rs[k++] = (pqt_io_range){start, len, NULL};
  }
  return k;
}

/* Announce the selected column chunks of row group g to the source in one
 * batch (pqt_io.will_need): a remote source fetches them together, merged
 * and concurrently. */
static pqt_status prefetch_chunks(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_error *err) {
  if (!r->io.will_need) return PQT_OK;
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int32_t n = r->schema->n_leaves < rg->columns.n ? r->schema->n_leaves : rg->columns.n;
  if (n <= 0) return PQT_OK;
  pqt_io_range *rs = pqt_mem_calloc(r->alloc, sizeof *rs * (size_t)n);
  if (!rs) return pqt_nomem(err);
  size_t k = chunk_ranges(r, g, selected, rs);
  pqt_status st = k ? r->io.will_need(r->io.private_data, rs, k, err) : PQT_OK;
  pqt_mem_free(r->alloc, rs, sizeof *rs * (size_t)n);
  if (st != PQT_OK) {
    if (err) err->row_group = g;
    pqt_error_prefix(err, "row group %d", g);
  }
  return st;
}

pqt_status pqt_rg_cursor_open(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out, pqt_error *err) {
  *out = NULL;
  if (g < 0 || g >= r->md.row_groups.n) return pqt_error_set(err, PQT_EINVAL, "no row group %d", g);
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  if (rg->num_rows < 0) {
    if (err) err->row_group = g;
    return pqt_corrupt(err, "row group %d: negative num_rows %lld", g, (long long)rg->num_rows);
  }
  PQT_RETURN_NOT_OK(prefetch_chunks(r, g, selected, err));
  const pqt_allocator *a = r->data_alloc;
  pqt_rg_cursor *c = pqt_mem_calloc(a, sizeof *c);
  if (!c) return pqt_nomem(err);
  c->r = r;
  c->g = g;
  c->num_rows = rg->num_rows;
  c->selected = selected;
  c->nl = r->schema->n_leaves;
  c->recovering = r->opts.on_error == PQT_SKIP_CORRUPT;
  if (c->recovering) { /* recovery opens no cursor here: a missing key is found now, not taken for damage */
    int32_t mk = missing_key(r, g, selected, err);
    if (mk >= 0) {
      pqt_mem_free(a, c, sizeof *c);
      return leaf_error(r, g, mk, PQT_ECRYPTO, err);
    }
  }
  size_t nl = (size_t)(c->nl ? c->nl : 1);
  c->leaves = pqt_mem_calloc(a, sizeof(pqt_leaf_cursor *) * nl);
  c->cols = pqt_mem_calloc(a, sizeof(pqt_column_data) * nl);
  pqt_status st = (!c->leaves || !c->cols) ? pqt_nomem(err) : PQT_OK;
  for (int32_t i = 0; i < c->nl && st == PQT_OK; i++) pqt_column_data_init(&c->cols[i], a);
  for (int32_t i = 0; i < c->nl && st == PQT_OK; i++) {
    if (!selected[i]) continue;
    c->n_selected++;
    if (!c->recovering) st = pqt_leaf_cursor_open(r, g, i, &c->leaves[i], err);
  }
  if (st != PQT_OK) {
    pqt_rg_cursor_close(c);
    return st;
  }
  *out = c;
  return PQT_OK;
}

/* One leaf's share of a batch: want rows into c->cols[i]; at the row
 * group's end (or a chunk that ends early) the chunk is checked. */
static pqt_status read_leaf(pqt_rg_cursor *c, int32_t i, int64_t want, bool last, pqt_error *err) {
  pqt_leaf_cursor *L = c->leaves[i];
  int64_t got = 0;
  pqt_status st = pqt_leaf_cursor_read(L, want, &c->cols[i], &got, err);
  if (st == PQT_OK && (got != want || last)) st = pqt_leaf_cursor_finish(L, err);
  if (st == PQT_OK && got != want)
    st = leaf_error(c->r, c->g, i,
                    pqt_corrupt(err, "column chunk ends after %lld rows; the row group has %lld",
                                (long long)(c->rows_done + got), (long long)c->num_rows),
                    err);
  return st;
}

/* The leaves of a batch read in parallel (pqt_rg_threads; the one loop the
 * row-group cursor, the selective cursor and recovery share). The error
 * reported is the one the leaves read in order would have stopped at: the
 * failing leaf of lowest index (leaves after a known failure are not read). */
typedef struct par_slot {
  int32_t failed_leaf; /* lowest failing leaf this slot read; INT32_MAX: none */
  pqt_status st;
  bool watched; /* some leaf of this slot failed with the status watched */
  pqt_error err;
} par_slot;

typedef struct par_run {
  pqt_rg_threads *t;
  const pqt_allocator *alloc;
  const int32_t *leaves;
  pqt_leaf_job job;
  void *ctx;
  pqt_status watch;
  par_slot *slots;
  atomic_int first_fail; /* lowest failing leaf so far (INT32_MAX: none) */
} par_run;

static void par_leaf_task(void *ctx, int32_t item, int32_t slot) {
  par_run *b = ctx;
  int32_t leaf = b->leaves[item];
  if (leaf > atomic_load_explicit(&b->first_fail, memory_order_relaxed)) return; /* an earlier leaf failed */
  par_slot *ps = &b->slots[slot];
  pqt_codec_ctx **codec = &b->t->codecs[slot];
  pqt_error local;
  pqt_error_init(&local);
  pqt_status st = PQT_OK;
  if (!*codec) st = pqt_codec_ctx_create(codec, b->alloc, &local); /* on this slot's first use */
  st = b->job(b->ctx, leaf, st == PQT_OK ? *codec : NULL, st, &local);
  if (st == PQT_OK) return;
  if (st == b->watch) ps->watched = true;
  if (leaf < ps->failed_leaf) {
    ps->failed_leaf = leaf;
    ps->st = st;
    ps->err = local;
  }
  int cur_fail = atomic_load_explicit(&b->first_fail, memory_order_relaxed);
  while (leaf < cur_fail &&
         !atomic_compare_exchange_weak_explicit(&b->first_fail, &cur_fail, leaf, memory_order_relaxed,
                                                memory_order_relaxed)) {
  }
}

pqt_status pqt_rg_threads_run(pqt_rg_threads *t, const pqt_allocator *alloc, const int32_t *leaves, int32_t n,
                              pqt_leaf_job job, void *ctx, pqt_status watch, bool *watched, pqt_error *err) {
  if (watched) *watched = false;
  int32_t ns = pqt_par_slots(&t->par);
  par_slot *slots = pqt_mem_alloc(alloc, sizeof(par_slot) * (size_t)ns);
  if (!slots) return pqt_nomem(err);
  for (int32_t k = 0; k < ns; k++) {
    slots[k].failed_leaf = INT32_MAX;
    slots[k].st = PQT_OK;
    slots[k].watched = false;
  }
  par_run b = {.t = t, .alloc = alloc, .leaves = leaves, .job = job, .ctx = ctx, .watch = watch, .slots = slots};
  atomic_init(&b.first_fail, INT32_MAX);
  pqt_par_run(&t->par, n, par_leaf_task, &b);
  pqt_status st = PQT_OK;
  int32_t best = -1;
  for (int32_t k = 0; k < ns; k++) {
    if (watched) *watched |= slots[k].watched;
    if (slots[k].st != PQT_OK && (best < 0 || slots[k].failed_leaf < slots[best].failed_leaf)) best = k;
  }
  if (best >= 0) {
    st = slots[best].st;
    if (err) *err = slots[best].err;
  }
  pqt_mem_free(alloc, slots, sizeof(par_slot) * (size_t)ns);
  return st;
}

typedef struct rg_job {
  pqt_rg_cursor *c;
  int64_t want;
  bool last;
} rg_job;

static pqt_status rg_leaf_job(void *ctx, int32_t leaf, pqt_codec_ctx *codec, pqt_status st, pqt_error *err) {
  rg_job *j = ctx;
  pqt_rg_cursor *c = j->c;
  if (!codec) return leaf_error(c->r, c->g, leaf, st, err);
  pqt_column_cursor *cur = pqt_leaf_cursor_column(c->leaves[leaf]);
  pqt_column_cursor_set_codec(cur, codec);
  st = read_leaf(c, leaf, j->want, j->last, err);
  pqt_column_cursor_set_codec(cur, c->r->codec_ctx);
  return st;
}

/* A leaf's share of the work: its chunk's uncompressed bytes (0 unknown). */
static int64_t leaf_weight(const pqt_row_group *rg, int32_t leaf) {
  if (leaf >= rg->columns.n) return 0;
  const pqt_column_chunk *cc = &rg->columns.items[leaf];
  return PQT_HAS_FIELD(cc, column_chunk, meta_data) ? cc->meta_data.total_uncompressed_size : 0;
}

static pqt_status read_leaves_parallel(pqt_rg_cursor *c, int64_t want, bool last, pqt_error *err) {
  const pqt_allocator *a = c->r->data_alloc;
  size_t n_leaves = (size_t)c->n_selected;
  int32_t *leaves = pqt_mem_alloc(a, sizeof(int32_t) * n_leaves);
  if (!leaves) return pqt_nomem(err);
  int32_t n = 0;
  for (int32_t i = 0; i < c->nl; i++)
    if (c->selected[i]) leaves[n++] = i;
  /* the largest chunks first (by their uncompressed bytes): a big column
   * started last would leave the other threads idle at the batch's end */
  const pqt_row_group *rg = &c->r->md.row_groups.items[c->g];
  for (int32_t x = 1; x < n; x++) {
    int32_t v = leaves[x], y = x;
    int64_t sv = leaf_weight(rg, v);
    while (y > 0 && leaf_weight(rg, leaves[y - 1]) < sv) {
      leaves[y] = leaves[y - 1];
      y--;
    }
    leaves[y] = v;
  }
  rg_job j = {.c = c, .want = want, .last = last};
  bool limit = false;
  pqt_status st = pqt_rg_threads_run(c->threads, a, leaves, n, rg_leaf_job, &j, PQT_ELIMIT, &limit, err);
  /* the memory ceiling seen by one thread may have been taken (and cleared) by another's failure */
  if (st == PQT_ENOMEM && limit)
    st = pqt_error_set(err, PQT_ELIMIT, "the memory ceiling of %llu bytes (max_memory) would be exceeded",
                       (unsigned long long)c->r->opts.max_memory);
  pqt_mem_free(a, leaves, sizeof(int32_t) * n_leaves);
  return st;
}

pqt_status pqt_rg_cursor_next(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  pqt_reader *r = c->r;
  const pqt_allocator *a = r->data_alloc;
  int64_t left = c->num_rows - c->rows_done;
  /* without a projected column the rows are only a count: one batch;
   * recovering: the whole row group (what a damage costs must not depend
   * on the batch size) */
  int64_t want = c->n_selected == 0 || c->recovering || max_rows <= 0 || max_rows > left ? left : max_rows;
  if (c->finished && want > 0) return pqt_error_set(err, PQT_EINVAL, "row group cursor: read past its end");
  bool last = want == left;
  pqt_status st = PQT_OK;
  int64_t rows = want; /* c->cols are empty: open made them so, and every batch leaves them so */
  if (c->dict_leaves && !c->recovering)
    for (int32_t i = 0; i < c->nl; i++) {
      c->cols[i].want_dict = (c->dict_leaves[i] & PQT_LEAF_DICT) != 0;
      c->cols[i].want_views = c->dict_leaves[i] == PQT_LEAF_VIEWS;
    }
  if (c->recovering) {
    /* its leaves have no cursors: pqt_recover_leaves opens its own */
    if (want > 0) st = pqt_recover_leaves(r, c->g, c->selected, c->cols, &rows, c->threads, err);
  } else if (c->threads && c->threads->codecs && c->n_selected > 1) {
    st = read_leaves_parallel(c, want, last, err);
  } else {
    for (int32_t i = 0; i < c->nl && st == PQT_OK; i++) {
      if (!c->selected[i]) continue;
      st = read_leaf(c, i, want, last, err);
    }
  }
  if (st == PQT_OK) st = pqt_batch_assemble(r, c->g, c->cols, c->selected, NULL, rows, c->rows_done, out, err);
  for (int32_t i = 0; i < c->nl; i++) { /* what assembly did not take over */
    c->pages += c->cols[i].n_pages;
    pqt_column_data_free(&c->cols[i]);
    pqt_column_data_init(&c->cols[i], a);
  }
  if (st != PQT_OK) {
    pqt_row_group_data_free(a, out);
    return st;
  }
  c->rows_done += want;
  if (last) c->finished = true;
  return PQT_OK;
}

void pqt_rg_cursor_set_dict(pqt_rg_cursor *c, const uint8_t *dict_leaves) { c->dict_leaves = dict_leaves; }

pqt_status pqt_row_group_read(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                              pqt_error *err) {
  memset(out, 0, sizeof *out);
  pqt_rg_cursor *c;
  PQT_RETURN_NOT_OK(pqt_rg_cursor_open(r, g, selected, &c, err));
  pqt_status st = pqt_rg_cursor_next(c, 0, out, err);
  pqt_rg_cursor_close(c);
  return st;
}

bool pqt_recoverable_status(pqt_status st) { return st == PQT_ECORRUPT || st == PQT_EUNSUPPORTED || st == PQT_ECRYPTO; }

/* A row group step that failed with st (local says why): with
 * PQT_SKIP_CORRUPT and damage, the loss of `rows` rows is reported and
 * *skipped set (PQT_OK); otherwise st, with local copied to err. */
static pqt_status skip_or_fail(pqt_reader *r, pqt_status st, const pqt_error *local, int64_t rows, bool *skipped,
                               pqt_error *err) {
  if (r->opts.on_error != PQT_SKIP_CORRUPT || !pqt_recoverable_status(st)) {
    if (err) *err = *local;
    return st;
  }
  *skipped = true;
  if (r->opts.on_skip) r->opts.on_skip(r->opts.on_skip_ctx, local, rows);
  return PQT_OK;
}

pqt_status pqt_rg_cursor_next_recover(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, bool *skipped,
                                      pqt_error *err) {
  *skipped = false;
  pqt_error local;
  pqt_error_init(&local);
  int64_t left = c->num_rows - c->rows_done;
  pqt_status st = pqt_reader_limit_status(c->r, pqt_rg_cursor_next(c, max_rows, out, &local), &local);
  if (st == PQT_OK) return PQT_OK;
  st = skip_or_fail(c->r, st, &local, left, skipped, err);
  if (*skipped) {
    /* the rest of the row group is lost, the rest of the file is not */
    c->rows_done = c->num_rows;
    c->finished = true;
  }
  return st;
}

pqt_status pqt_rg_cursor_open_recover(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out,
                                      bool *skipped, pqt_error *err) {
  *skipped = false;
  pqt_error local;
  pqt_error_init(&local);
  pqt_status st = pqt_reader_limit_status(r, pqt_rg_cursor_open(r, g, selected, out, &local), &local);
  if (st == PQT_OK) return PQT_OK;
  if (g < 0 || g >= r->md.row_groups.n || (st == PQT_ECRYPTO && missing_key(r, g, selected, NULL) >= 0)) {
    if (err) *err = local; /* not damage: a key not given */
    return st;
  }
  return skip_or_fail(r, st, &local, r->md.row_groups.items[g].num_rows, skipped, err);
}

/* ---- read-ahead (row_group.h) ---------------------------------------------- */

void pqt_readahead_init(pqt_readahead *ra, pqt_reader *r, bool enabled, const pqt_rg_threads *threads) {
  memset(ra, 0, sizeof *ra);
  pthread_mutex_init(&ra->mu, NULL);
  pthread_cond_init(&ra->cv, NULL);
  ra->alloc = r->alloc;
  ra->io = r->user_io;
  if (!enabled || !r->user_io.will_need) return;
  bool remote = pqt_io_is_remote(&r->user_io);
  bool more_threads = threads && pqt_par_slots(&threads->par) > 1;
  /* a mapped file at threads > 1: its pages mapped in by the IO thread
   * (pqt_io_populate), not by the calling thread when the group opens */
  ra->populate = more_threads && pqt_io_is_builtin(&r->user_io);
  ra->mode = remote || more_threads ? 2 : 1;
}

static void readahead_task(void *arg) {
  pqt_readahead *ra = arg;
  pqt_error e;
  pqt_error_init(&e);
  if (!ra->populate || !pqt_io_populate(&ra->io, ra->rs, ra->n))
    (void)ra->io.will_need(ra->io.private_data, ra->rs, ra->n, &e); /* a hint: the read reports failures */
  pthread_mutex_lock(&ra->mu);
  ra->busy = false;
  pthread_cond_broadcast(&ra->cv);
  pthread_mutex_unlock(&ra->mu);
}

void pqt_readahead_wait(pqt_readahead *ra) {
  if (!ra || ra->mode != 2) return;
  pthread_mutex_lock(&ra->mu);
  while (ra->busy) pthread_cond_wait(&ra->cv, &ra->mu);
  pthread_mutex_unlock(&ra->mu);
}

static void readahead_dispatch(pqt_readahead *ra, pqt_reader *r);

void pqt_readahead_start(pqt_readahead *ra, pqt_reader *r, int32_t g, const uint8_t *selected) {
  if (!ra || !ra->mode || g < 0 || g >= r->md.row_groups.n) return;
  pqt_readahead_wait(ra); /* at most one row group ahead */
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int32_t nc = r->schema->n_leaves < rg->columns.n ? r->schema->n_leaves : rg->columns.n;
  if (nc <= 0) return;
  if ((size_t)nc > ra->rs_cap) {
    pqt_io_range *nr = pqt_mem_alloc(ra->alloc, sizeof *nr * (size_t)nc);
    if (!nr) return; /* only a hint */
    if (ra->rs) pqt_mem_free(ra->alloc, ra->rs, sizeof *ra->rs * ra->rs_cap);
    ra->rs = nr;
    ra->rs_cap = (size_t)nc;
  }
  ra->n = chunk_ranges(r, g, selected, ra->rs);
  readahead_dispatch(ra, r);
}

void pqt_readahead_ranges(pqt_readahead *ra, pqt_reader *r, const pqt_io_range *rs, size_t n) {
  if (!ra || !ra->mode || !n) return;
  pqt_readahead_wait(ra); /* at most one row group ahead */
  if (n > ra->rs_cap) {
    pqt_io_range *nr = pqt_mem_alloc(ra->alloc, sizeof *nr * n);
    if (!nr) return; /* only a hint */
    if (ra->rs) pqt_mem_free(ra->alloc, ra->rs, sizeof *ra->rs * ra->rs_cap);
    ra->rs = nr;
    ra->rs_cap = n;
  }
  memcpy(ra->rs, rs, sizeof *rs * n);
  ra->n = n;
  readahead_dispatch(ra, r);
}

/* Announce ra->rs[0..n) (on the IO thread in mode 2). */
static void readahead_dispatch(pqt_readahead *ra, pqt_reader *r) {
  if (!ra->n) return;
  if (r->opts.max_memory) {
    uint64_t total = 0;
    for (size_t i = 0; i < ra->n; i++) total += ra->rs[i].length;
    if (total > r->opts.max_memory / 2) return;
  }
  ra->started++;
  if (ra->mode == 1) {
    pqt_error e;
    pqt_error_init(&e);
    (void)ra->io.will_need(ra->io.private_data, ra->rs, ra->n, &e);
    return;
  }
  if (!ra->io_thread && !ra->failed_start && pqt_thread_pool_create(&ra->io_thread, 1, ra->alloc, NULL) != PQT_OK)
    ra->failed_start = true;
  if (!ra->io_thread) { /* no thread: announced now, on this one */
    pqt_error e;
    pqt_error_init(&e);
    (void)ra->io.will_need(ra->io.private_data, ra->rs, ra->n, &e);
    return;
  }
  pqt_executor ex;
  pqt_thread_pool_executor(ra->io_thread, &ex);
  pthread_mutex_lock(&ra->mu);
  ra->busy = true;
  pthread_mutex_unlock(&ra->mu);
  if (ex.submit(ex.ctx, readahead_task, ra) != 0) {
    pthread_mutex_lock(&ra->mu);
    ra->busy = false;
    pthread_mutex_unlock(&ra->mu);
  }
}

void pqt_readahead_free(pqt_readahead *ra) {
  if (!ra) return;
  pqt_readahead_wait(ra);
  pqt_thread_pool_destroy(ra->io_thread);
  ra->io_thread = NULL;
  if (ra->rs) pqt_mem_free(ra->alloc, ra->rs, sizeof *ra->rs * ra->rs_cap);
  ra->rs = NULL;
  ra->rs_cap = 0;
  pthread_cond_destroy(&ra->cv);
  pthread_mutex_destroy(&ra->mu);
}
