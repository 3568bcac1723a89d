/*
 * scan/page_prune.c: pruning pages by the ColumnIndex (see scan/ranged.h).
 *
 * For each column the predicate reads, its ColumnIndex and OffsetIndex
 * give per page the bounds and the first row; a page that cannot hold a
 * row satisfying a leaf predicate (pqt_filter_page_excludes: the chunk
 * statistics' trust rules, null_pages, null counts) leaves its rows out of
 * that leaf's set. AND intersects the sets, OR unites them, NOT and
 * anything this code cannot bound keep every row. The boundary order is
 * not used (every page is looked at). An index that is missing, cannot
 * be read or does not agree with itself (page counts, rows not rising
 * from 0, rows past the row group) keeps every row: pruning is an
 * optimisation, never a reason to fail. A chunk of one data page has
 * nothing to prune: its indexes are not read. Nested columns are not
 * pruned by page (a v1 page need not start a record).
 */
#include "scan/ranged.h"

#include "crypto/crypto.h"

void pqt_page_table_free(const pqt_allocator *a, pqt_page_table *t) {
  if (t->first) pqt_mem_free(a, t->first, sizeof(int64_t) * ((size_t)t->n + 1));
  if (t->off) pqt_mem_free(a, t->off, sizeof(uint64_t) * (size_t)(t->n ? t->n : 1));
  if (t->size) pqt_mem_free(a, t->size, sizeof(uint64_t) * (size_t)(t->n ? t->n : 1));
  memset(t, 0, sizeof *t);
}

int64_t pqt_chunk_data_pages(const pqt_reader *r, int32_t g, int32_t leaf) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  if (leaf < 0 || leaf >= rg->columns.n || !PQT_HAS_FIELD(&rg->columns.items[leaf], column_chunk, meta_data)) return -1;
  const pqt_column_metadata *cm = &rg->columns.items[leaf].meta_data;
  if (!PQT_HAS_FIELD(cm, column_metadata, encoding_stats) || cm->encoding_stats.n == 0) return -1;
  int64_t n = 0;
  for (int32_t k = 0; k < cm->encoding_stats.n; k++) {
    const pqt_page_encoding_stats *es = &cm->encoding_stats.items[k];
    if ((es->page_type == PQT_PAGE_DATA || es->page_type == PQT_PAGE_DATA_V2) && es->count > 0) n += es->count;
  }
  return n;
}

/* The offset index as a checked page table; the chunk is open. */
static void table_from(pqt_reader *r, const pqt_chunk *ch, int64_t rows, pqt_page_table *t) {
  const pqt_allocator *a = r->data_alloc;
  pqt_arena arena;
  pqt_arena_init(&arena, a);
  pqt_buf hold;
  pqt_buf_init(&hold, a);
  pqt_offset_index oi;
  bool found = false;
  pqt_error e;
  pqt_error_init(&e);
  bool ok = pqt_chunk_read_index(r, ch, PQT_MODULE_OFFSET_INDEX, &arena, &hold, &oi, &found, &e) == PQT_OK && found &&
            oi.page_locations.n > 0;
  int32_t n = ok ? oi.page_locations.n : 0;
  if (ok) {
    t->n = n;
    t->first = pqt_mem_alloc(a, sizeof(int64_t) * ((size_t)n + 1));
    t->off = pqt_mem_alloc(a, sizeof(uint64_t) * (size_t)n);
    t->size = pqt_mem_alloc(a, sizeof(uint64_t) * (size_t)n);
    ok = t->first && t->off && t->size;
  }
  uint64_t end = ch->start + ch->len, prev_end = ch->start;
  for (int32_t i = 0; ok && i < n; i++) {
    const pqt_page_location *pl = &oi.page_locations.items[i];
    int64_t fr = pl->first_row_index;
    ok = pl->offset >= 0 && (uint64_t)pl->offset >= prev_end && pl->compressed_page_size > 0 &&
         (uint64_t)pl->offset < end && (uint64_t)pl->compressed_page_size <= end - (uint64_t)pl->offset && fr >= 0 &&
         fr <= rows && (i == 0 ? fr == 0 : fr >= t->first[i - 1]);
    if (!ok) break;
    t->first[i] = fr;
    t->off[i] = (uint64_t)pl->offset;
    t->size[i] = (uint64_t)pl->compressed_page_size;
    prev_end = t->off[i] + t->size[i];
  }
  if (ok) t->first[n] = rows;
  pqt_buf_free(&hold);
  pqt_arena_reset(&arena);
  if (!ok) pqt_page_table_free(a, t);
  t->tried = true;
  t->ok = ok;
}

void pqt_page_table_load(pqt_reader *r, int32_t g, int32_t leaf, pqt_page_table *t) {
  pqt_chunk ch;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_chunk_open(r, g, leaf, &ch, &e) == PQT_OK) table_from(r, &ch, r->md.row_groups.items[g].num_rows, t);
  pqt_chunk_close(&ch);
  t->tried = true;
}

typedef struct leaf_index {
  bool tried, ok;
  pqt_column_index ci;
  pqt_buf hold; /* the ColumnIndex bytes when the source does not lend them (ci's views point there) */
  bool holds;
} leaf_index;

typedef struct pp_ctx {
  const pqt_filter *f;
  pqt_reader *r;
  int32_t g;
  int64_t rows;
  pqt_arena arena;
  leaf_index *idx;        /* per leaf */
  pqt_page_table *tables; /* per leaf: the caller's, or ours */
  pqt_error *err;
} pp_ctx;

static void load_index(pp_ctx *c, int32_t leaf) {
  leaf_index *li = &c->idx[leaf];
  li->tried = true;
  const pqt_schema_node *ln = c->r->schema->leaves[leaf];
  if (ln->max_rep > 0 || pqt_chunk_data_pages(c->r, c->g, leaf) == 1) return;
  pqt_page_table *t = &c->tables[leaf];
  if (!t->tried) pqt_page_table_load(c->r, c->g, leaf, t);
  if (!t->ok) return;
  pqt_chunk ch;
  pqt_error e;
  pqt_error_init(&e);
  bool found = false;
  pqt_buf_init(&li->hold, c->f->alloc);
  li->holds = true;
  bool ok =
      pqt_chunk_open(c->r, c->g, leaf, &ch, &e) == PQT_OK &&
      pqt_chunk_read_index(c->r, &ch, PQT_MODULE_COLUMN_INDEX, &c->arena, &li->hold, &li->ci, &found, &e) == PQT_OK &&
      found;
  pqt_chunk_close(&ch);
  int32_t n = t->n;
  li->ok = ok && li->ci.null_pages.n == n && li->ci.min_values.n == n && li->ci.max_values.n == n;
}

static pqt_status eval(pp_ctx *c, const pqt_bound *b, pqt_rowset *out, int depth) {
  pqt_rowset_clear(out);
  if (depth > 20000) return pqt_rowset_add(out, 0, c->rows, c->err);
  switch (b->kind) {
    case PQT_B_CONST: return b->cval ? pqt_rowset_add(out, 0, c->rows, c->err) : PQT_OK;
    case PQT_B_AND:
    case PQT_B_OR: {
      pqt_rowset x, y;
      pqt_rowset_init(&x, c->f->alloc);
      pqt_rowset_init(&y, c->f->alloc);
      pqt_status st = eval(c, b->a, &x, depth + 1);
      /* AND with nothing on one side: nothing */
      if (st == PQT_OK && !(b->kind == PQT_B_AND && x.n == 0)) st = eval(c, b->b, &y, depth + 1);
      if (st == PQT_OK)
        st = b->kind == PQT_B_AND ? pqt_rowset_intersect(&x, &y, out, c->err) : pqt_rowset_unite(&x, &y, out, c->err);
      pqt_rowset_free(&x);
      pqt_rowset_free(&y);
      return st;
    }
    case PQT_B_NOT: return pqt_rowset_add(out, 0, c->rows, c->err);
    default: break;
  }
  if (b->vpath && !(b = pqt_vget_prune_bound(c->r, c->g, b))) return pqt_rowset_add(out, 0, c->rows, c->err);
  int32_t leaf = b->leaf;
  if (leaf < 0 || leaf >= c->r->schema->n_leaves) return pqt_rowset_add(out, 0, c->rows, c->err);
  if (!c->idx[leaf].tried) load_index(c, leaf);
  const leaf_index *li = &c->idx[leaf];
  if (!li->ok) return pqt_rowset_add(out, 0, c->rows, c->err);
  const pqt_page_table *t = &c->tables[leaf];
  for (int32_t i = 0; i < t->n; i++)
    if (!pqt_filter_page_excludes(c->r, c->g, b, &li->ci, i))
      PQT_RETURN_NOT_OK(pqt_rowset_add(out, t->first[i], t->first[i + 1], c->err));
  return PQT_OK;
}

pqt_status pqt_page_prune(const pqt_filter *f, pqt_reader *r, int32_t g, pqt_page_table *tables, pqt_rowset *out,
                          pqt_error *err) {
  pqt_rowset_clear(out);
  int64_t rows = r->md.row_groups.items[g].num_rows;
  if (rows <= 0) return PQT_OK;
  pp_ctx c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.r = r;
  c.g = g;
  c.rows = rows;
  c.err = err;
  pqt_arena_init(&c.arena, f->alloc);
  int32_t nl = r->schema->n_leaves;
  size_t n = (size_t)(nl ? nl : 1);
  c.idx = pqt_mem_calloc(f->alloc, sizeof(leaf_index) * n);
  c.tables = tables ? tables : pqt_mem_calloc(r->data_alloc, sizeof(pqt_page_table) * n);
  if (!c.idx || !c.tables) {
    if (c.idx) pqt_mem_free(f->alloc, c.idx, sizeof(leaf_index) * n);
    if (c.tables && !tables) pqt_mem_free(r->data_alloc, c.tables, sizeof(pqt_page_table) * n);
    return pqt_nomem(err);
  }
  pqt_status st = eval(&c, f->root, out, 0);
  for (int32_t i = 0; i < nl; i++)
    if (c.idx[i].holds) pqt_buf_free(&c.idx[i].hold);
  pqt_arena_reset(&c.arena);
  pqt_mem_free(f->alloc, c.idx, sizeof(leaf_index) * n);
  if (!tables) {
    for (int32_t i = 0; i < nl; i++) pqt_page_table_free(r->data_alloc, &c.tables[i]);
    pqt_mem_free(r->data_alloc, c.tables, sizeof(pqt_page_table) * n);
  }
  return st;
}
