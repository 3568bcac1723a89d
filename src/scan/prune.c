/*
 * scan/prune.c: skipping row groups no row of which can satisfy the
 * predicate, cheapest evidence first. Every rule is safe: when in doubt
 * the group is read.
 *
 * 1. Column-chunk statistics. Bounds are used only in the column's own
 *    order (column/statistics.h: pqt_sort_kind_for), and only when
 *    trustworthy:
 *    - min_value/max_value, when the file's ColumnOrder for the column is
 *      one this reader knows (TYPE_ORDER, or IEEE_754_TOTAL_ORDER for
 *      floats); truncated bounds (is_*_value_exact false) still bound
 *      byte-wise values, but not a DECIMAL's bytes;
 *    - the deprecated min/max only for signed orders (ints, floats,
 *      BOOLEAN: pqt_sort_kind_legacy_ok);
 *    - nothing but signed orders from parquet-mr before 1.10 or parquet-cpp
 *      before 1.3 (they wrote byte arrays, unsigned ints and decimals in
 *      signed byte order: PARQUET-251, PARQUET-686), unless min == max;
 *    - floats: not when a bound is NaN, and only when NaN is known absent
 *      (nan_count 0): NaN rows satisfy > and != under this library's NaN
 *      semantics. Under IEEE_754_TOTAL_ORDER non-NaN bounds do NOT say
 *      there is no NaN (parquet.thrift ColumnOrder field 2: the bounds are
 *      the smallest and largest non-NaN values; "Readers should consult the
 *      nan_count field to determine whether NaNs are present");
 *    - INT96: never (INT96_TIMESTAMP_ORDER bounds are not used: predicates
 *      have no INT96 domain, so the chunk is read);
 *    - never INT96, INTERVAL or types without an order.
 *    null_count decides IS NULL / IS NOT NULL and all-null chunks.
 * 2. Dictionaries, for = and IN: when every data page of a chunk is
 *    dictionary-encoded (encoding_stats; else the encodings list holds
 *    nothing but dictionary and level encodings), the dictionary page is
 *    read and the predicate evaluated over its values: none true skips the
 *    group. (A dictionary that does not prune is read again with its chunk:
 *    those bytes count twice in pqt_scan_stats.)
 *    Encrypted chunks and chunks whose dictionary cannot be read are kept.
 * 3. Bloom filters, for = and IN, when the first two kept the group: the
 *    filter's header, then only the 32-byte block each literal's hash
 *    selects (not the whole bitset); a literal whose bits are not all set
 *    is definitely absent. The literal is hashed in the column's PLAIN
 *    encoding; literals with more than one stored form (float zeros, NaN,
 *    DECIMAL byte arrays of any length) are never probed.
 */
#include <math.h>

#include "column/statistics.h"
#include "encoding/plain.h"
#include "meta/bloom.h"
#include "page/page_reader.h"
#include "scan/filter.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* ---- created_by ------------------------------------------------------------------ */

typedef struct app_version {
  char app[32];
  int v[3];
  bool known;
} app_version;

static app_version parse_created_by(const char *s) {
  app_version a;
  memset(&a, 0, sizeof a);
  const char *ver = strstr(s, " version ");
  if (!ver) return a;
  size_t n = (size_t)(ver - s);
  if (n >= sizeof a.app) return a;
  memcpy(a.app, s, n);
  const char *p = ver + 9;
  for (int k = 0; k < 3; k++) {
    int x = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 6) {
      x = x * 10 + (*p - '0');
      p++;
      digits++;
    }
    if (!digits) break;
    a.v[k] = x;
    if (*p != '.') break;
    p++;
  }
  a.known = true;
  return a;
}

static bool version_lt(const app_version *a, int x, int y, int z) {
  int w[3] = {x, y, z};
  for (int k = 0; k < 3; k++)
    if (a->v[k] != w[k]) return a->v[k] < w[k];
  return false;
}

/* Writers whose statistics are right only for signed orders. */
static bool signed_only_writer(const pqt_reader *r) {
  app_version a = parse_created_by(r->created_by ? r->created_by : "");
  if (!a.known) return false;
  if (strcmp(a.app, "parquet-mr") == 0) return version_lt(&a, 1, 10, 0);
  if (strcmp(a.app, "parquet-cpp") == 0) return version_lt(&a, 1, 3, 0);
  return false;
}

/* ---- a chunk's statistics, in the predicate's domain ------------------------------ */

typedef struct chunk_view {
  bool has_bounds;
  const uint8_t *min, *max;
  size_t min_n, max_n;
  bool has_nulls_count;
  int64_t null_count;
  int64_t num_values;
} chunk_view;

static size_t vx_width(const pqt_bound *b) { return pqt_vx_width(b->vx, b->width); }

static const pqt_column_chunk *chunk_of(const pqt_reader *r, int32_t g, int32_t leaf) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  if (leaf < 0 || leaf >= rg->columns.n) return NULL;
  const pqt_column_chunk *cc = &rg->columns.items[leaf];
  if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) return NULL; /* encrypted metadata, or none */
  return cc;
}

static void view_of(const pqt_reader *r, int32_t g, const pqt_bound *b, chunk_view *v) {
  memset(v, 0, sizeof *v);
  const pqt_column_chunk *cc = chunk_of(r, g, b->leaf);
  if (!cc) return;
  const pqt_column_metadata *cm = &cc->meta_data;
  const pqt_schema_node *ln = r->schema->leaves[b->leaf];
  if (cm->type != ln->physical_type) return;
  v->num_values = cm->num_values;
  if (!PQT_HAS_FIELD(cm, column_metadata, statistics)) return;
  const pqt_statistics *s = &cm->statistics;
  if (PQT_HAS_FIELD(s, statistics, null_count) && s->null_count >= 0 && s->null_count <= cm->num_values) {
    v->has_nulls_count = true;
    v->null_count = s->null_count;
  }
  if (!b->node->is_leaf) return;
  pqt_sort_kind kind = pqt_sort_kind_for(ln->physical_type, &ln->logical, ln->converted_type);
  if (kind == PQT_SORT_NONE || ln->physical_type == PQT_INT96) return;
  int order = PQT_ORDER_TYPE;
  if (r->md.column_orders.n > b->leaf) order = pqt_union_which(r->md.column_orders.items[b->leaf].isset);
  bool is_float = kind == PQT_SORT_FLOAT || kind == PQT_SORT_DOUBLE || kind == PQT_SORT_FLOAT16;
  bool total = order == PQT_ORDER_IEEE_754_TOTAL && is_float;
  const uint8_t *mn = NULL, *mx = NULL;
  size_t mnn = 0, mxn = 0;
  if (PQT_HAS_FIELD(s, statistics, max_value) && PQT_HAS_FIELD(s, statistics, min_value) &&
      (order == PQT_ORDER_TYPE || total)) {
    mn = s->min_value.ptr;
    mnn = (size_t)s->min_value.len;
    mx = s->max_value.ptr;
    mxn = (size_t)s->max_value.len;
    bool exact = (!PQT_HAS_FIELD(s, statistics, is_min_value_exact) || s->is_min_value_exact) &&
                 (!PQT_HAS_FIELD(s, statistics, is_max_value_exact) || s->is_max_value_exact);
    if (!exact && b->dom != PQT_DOM_BYTES) return; /* a cut number is no bound */
  } else if (PQT_HAS_FIELD(s, statistics, max) && PQT_HAS_FIELD(s, statistics, min) && pqt_sort_kind_legacy_ok(kind)) {
    mn = s->min.ptr;
    mnn = (size_t)s->min.len;
    mx = s->max.ptr;
    mxn = (size_t)s->max.len;
  } else {
    return;
  }
  if ((!mn && mnn) || (!mx && mxn)) return;
  if (!pqt_sort_kind_legacy_ok(kind) && signed_only_writer(r) &&
      !(mnn == mxn && (mnn == 0 || memcmp(mn, mx, mnn) == 0)))
    return;
  size_t w = vx_width(b);
  if (w && (mnn != w || mxn != w)) return;
  if (b->dom == PQT_DOM_FLOAT) {
    double a = pqt_vx_float(b->vx, mn), c = pqt_vx_float(b->vx, mx);
    if (isnan(a) || isnan(c)) return;
    bool no_nan = PQT_HAS_FIELD(s, statistics, nan_count) && s->nan_count == 0;
    if (!no_nan) return;
  }
  v->has_bounds = true;
  v->min = mn ? mn : (const uint8_t *)"";
  v->max = mx ? mx : (const uint8_t *)"";
  v->min_n = mnn;
  v->max_n = mxn;
}

/* cmp(bound, literal) in the predicate's domain */
static int cmp_bound(const pqt_bound *b, const uint8_t *p, size_t n, const pqt_blit *L) {
  switch (b->dom) {
    case PQT_DOM_INT: return pqt_dom_cmp_int(pqt_vx_int(b->vx, p, n), L->i);
    case PQT_DOM_FLOAT: return pqt_dom_cmp_float(pqt_vx_float(b->vx, p), L->d);
    default: return pqt_dom_cmp_bytes(p, n, L->b, L->n);
  }
}

/* Can no value in [min, max] satisfy `v op L`? */
static bool range_excludes(const pqt_bound *b, const chunk_view *v, int op, const pqt_blit *L) {
  int cmin = cmp_bound(b, v->min, v->min_n, L), cmax = cmp_bound(b, v->max, v->max_n, L);
  switch (op) {
    case PQT_CMP_EQ: return cmin > 0 || cmax < 0;
    case PQT_CMP_NE: return cmin == 0 && cmax == 0 && b->dom != PQT_DOM_BYTES; /* bytes bounds may be cut */
    case PQT_CMP_LT: return cmin >= 0;
    case PQT_CMP_LE: return cmin > 0;
    case PQT_CMP_GT: return cmax <= 0;
    case PQT_CMP_GE: return cmax < 0;
    case PQT_OP_NEVER: return true;
    default: return false;
  }
}

/* Can no row with values bounded by v satisfy leaf predicate b? all_null:
 * every value is null; nonempty: there is one. */
static bool view_skip(const pqt_bound *b, const chunk_view *v0, bool all_null, bool nonempty) {
  const chunk_view v = *v0;
  if (b->kind == PQT_B_ISNULL) {
    if (!b->negate) return v.has_nulls_count && v.null_count == 0;
    return b->node->is_leaf && all_null && nonempty;
  }
  if (all_null) return true; /* a comparison on NULL is never true */
  if (b->kind == PQT_B_CMP && b->op == PQT_OP_NEVER) return true;
  if (!v.has_bounds) return false;
  if (b->kind == PQT_B_CMP) return range_excludes(b, &v, b->op, &b->lits[0]);
  if (b->kind == PQT_B_IN) {
    for (int32_t k = 0; k < b->n_lits; k++)
      if (!range_excludes(b, &v, PQT_CMP_EQ, &b->lits[k])) return false;
    return true;
  }
  if (b->kind == PQT_B_LIKE) {
    size_t k = 0;
    while (k < b->pat_len && b->pat[k] != '%' && b->pat[k] != '_') k++;
    if (k == 0) return false;
    /* every match starts with pat[0..k): it lies in [prefix, prefix + 0xFF...) */
    if (pqt_dom_cmp_bytes(v.max, v.max_n, b->pat, k) < 0) return true;
    size_t m = v.min_n < k ? v.min_n : k;
    return pqt_dom_cmp_bytes(v.min, m, b->pat, k) > 0 && (m == k || memcmp(v.min, b->pat, m) != 0);
  }
  return false;
}

static bool stats_skip_leaf(const pqt_reader *r, int32_t g, const pqt_bound *b) {
  chunk_view v;
  view_of(r, g, b, &v);
  bool all_null = v.has_nulls_count && v.null_count == v.num_values;
  return view_skip(b, &v, all_null, v.num_values > 0);
}

bool pqt_filter_page_excludes(const pqt_reader *r, int32_t g, const pqt_bound *b, const pqt_column_index *ci,
                              int32_t page) {
  int32_t n = ci->null_pages.n;
  if (page < 0 || page >= n || ci->min_values.n != n || ci->max_values.n != n) return false;
  const pqt_column_chunk *cc = chunk_of(r, g, b->leaf);
  if (!cc) return false;
  const pqt_column_metadata *cm = &cc->meta_data;
  const pqt_schema_node *ln = r->schema->leaves[b->leaf];
  if (cm->type != ln->physical_type) return false;
  chunk_view v;
  memset(&v, 0, sizeof v);
  bool null_page = ci->null_pages.items[page];
  if (PQT_HAS_FIELD(ci, column_index, null_counts) && ci->null_counts.n == n && ci->null_counts.items[page] >= 0) {
    v.has_nulls_count = true;
    v.null_count = ci->null_counts.items[page];
  }
  /* the chunk's bounds are trusted (the same rules): the page's are in the same order */
  chunk_view cv;
  view_of(r, g, b, &cv);
  if (cv.has_bounds && b->node->is_leaf && !null_page) {
    const pqt_bytes *mn = &ci->min_values.items[page], *mx = &ci->max_values.items[page];
    size_t w = vx_width(b);
    bool ok = (mn->ptr || !mn->len) && (mx->ptr || !mx->len) && (!w || ((size_t)mn->len == w && (size_t)mx->len == w));
    if (ok && b->dom == PQT_DOM_FLOAT) /* view_of kept the chunk: it holds no NaN (or total order) */
      ok = !isnan(pqt_vx_float(b->vx, mn->ptr)) && !isnan(pqt_vx_float(b->vx, mx->ptr));
    if (ok) {
      v.has_bounds = true;
      v.min = mn->ptr ? mn->ptr : (const uint8_t *)"";
      v.max = mx->ptr ? mx->ptr : (const uint8_t *)"";
      v.min_n = (size_t)mn->len;
      v.max_n = (size_t)mx->len;
    }
  }
  return view_skip(b, &v, null_page, true);
}

/* ---- dictionaries -------------------------------------------------------------- */

static bool is_dict_enc(int32_t e) { return e == PQT_ENC_PLAIN_DICTIONARY || e == PQT_ENC_RLE_DICTIONARY; }

static bool all_pages_dictionary(const pqt_column_metadata *cm) {
  if (!PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) || cm->dictionary_page_offset < 4 ||
      cm->dictionary_page_offset >= cm->data_page_offset)
    return false;
  if (PQT_HAS_FIELD(cm, column_metadata, encoding_stats) && cm->encoding_stats.n > 0) {
    for (int32_t k = 0; k < cm->encoding_stats.n; k++) {
      const pqt_page_encoding_stats *es = &cm->encoding_stats.items[k];
      if ((es->page_type == PQT_PAGE_DATA || es->page_type == PQT_PAGE_DATA_V2) && es->count > 0 &&
          !is_dict_enc(es->encoding))
        return false;
    }
    return true;
  }
  bool dict = false;
  for (int32_t k = 0; k < cm->encodings.n; k++) {
    int32_t e = cm->encodings.items[k];
    if (is_dict_enc(e)) dict = true;
    else if (e != PQT_ENC_RLE && e != PQT_ENC_BIT_PACKED) return false; /* PLAIN: a fallback page, or the dictionary? */
  }
  return dict;
}

/* The dictionary of leaf's chunk in group g as a leaf array, or NULL (keep). */
static pqt_array *read_dictionary(pqt_reader *r, int32_t g, int32_t leaf, const pqt_allocator *alloc) {
  const pqt_column_chunk *cc = chunk_of(r, g, leaf);
  if (!cc || PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) return NULL;
  const pqt_column_metadata *cm = &cc->meta_data;
  const pqt_schema_node *ln = r->schema->leaves[leaf];
  if (cm->type != ln->physical_type || ln->physical_type == PQT_BOOLEAN || !all_pages_dictionary(cm)) return NULL;
  /* the dictionary page only, from the chunk's own file (file_path: another one) */
  uint64_t window[2] = {(uint64_t)cm->dictionary_page_offset,
                        (uint64_t)(cm->data_page_offset - cm->dictionary_page_offset)};
  pqt_chunk ch;
  pqt_page_reader pr;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_chunk_page_reader_open(r, g, leaf, window, false, alloc, &ch, &pr, &e) != PQT_OK) return NULL;
  pqt_page page;
  bool eof = false;
  pqt_array *a = NULL;
  if (pqt_page_reader_next(&pr, &page, &eof, &e) == PQT_OK && !eof && page.type == PQT_PAGE_DICTIONARY &&
      page.num_values >= 0 && (page.encoding == PQT_ENC_PLAIN || page.encoding == PQT_ENC_PLAIN_DICTIONARY) &&
      pqt_array_new(alloc, PQT_ARRAY_LEAF, 0, &a, &e) == PQT_OK) {
    size_t n = (size_t)page.num_values;
    a->node = ln;
    a->name = ln->name;
    a->length = (int64_t)n;
    bool ok = false;
    size_t used = 0;
    if (ln->physical_type == PQT_BYTE_ARRAY) {
      if (n <= page.values_len / 4 + 1 &&
          pqt_shared_alloc(alloc, (n + 1) * sizeof(int32_t), &a->offsets, &e) == PQT_OK) {
        pqt_buf data;
        pqt_buf_init(&data, alloc);
        ok = pqt_plain_decode_byte_array(page.values, page.values_len, (int32_t *)(void *)a->offsets->data, &data, n,
                                         &used, &e) == PQT_OK &&
             pqt_shared_from_buf(&data, &a->values, &e) == PQT_OK;
        pqt_buf_free(&data);
      }
    } else {
      size_t w = pqt_physical_width(ln->physical_type, ln->type_length);
      if (w && n <= page.values_len / w && pqt_shared_alloc(alloc, n * w, &a->values, &e) == PQT_OK)
        ok = pqt_plain_decode_fixed(page.values, page.values_len, w, a->values->data, n, &used, &e) == PQT_OK;
    }
    if (!ok) {
      pqt_array_free(alloc, a);
      a = NULL;
    }
  }
  pqt_page_reader_free(&pr);
  pqt_chunk_close(&ch);
  return a;
}

/* ---- Bloom filters ------------------------------------------------------- */

/* The PLAIN bytes a value equal to L is stored as; false when there is no
 * single form (or none). */
static bool plain_literal(const pqt_bound *b, const pqt_blit *L, uint8_t *buf, const uint8_t **p, size_t *n) {
  __int128 v = L->i;
  switch (b->vx) {
    case PQT_VX_I32:
      if (v < INT32_MIN || v > INT32_MAX) return false;
      pqt_store_u32le(buf, (uint32_t)(int32_t)v);
      *p = buf;
      *n = 4;
      return true;
    case PQT_VX_U32:
      if (v < 0 || v > UINT32_MAX) return false;
      pqt_store_u32le(buf, (uint32_t)v);
      *p = buf;
      *n = 4;
      return true;
    case PQT_VX_I64:
      if (v < INT64_MIN || v > INT64_MAX) return false;
      pqt_store_u64le(buf, (uint64_t)(int64_t)v);
      *p = buf;
      *n = 8;
      return true;
    case PQT_VX_U64:
      if (v < 0 || v > (__int128)UINT64_MAX) return false;
      pqt_store_u64le(buf, (uint64_t)v);
      *p = buf;
      *n = 8;
      return true;
    case PQT_VX_DEC_FLBA: {
      size_t w = b->width;
      if (w == 0 || w > 16) return false;
      for (size_t i = 0; i < w; i++) buf[w - 1 - i] = (uint8_t)((unsigned __int128)v >> (8 * i));
      if (pqt_vx_int(PQT_VX_DEC_FLBA, buf, w) != v) return false; /* does not fit */
      *p = buf;
      *n = w;
      return true;
    }
    case PQT_VX_DOUBLE: {
      if (isnan(L->d) || L->d == 0) return false;
      uint64_t u;
      memcpy(&u, &L->d, 8);
      pqt_store_u64le(buf, u);
      *p = buf;
      *n = 8;
      return true;
    }
    case PQT_VX_FLOAT: {
      if (isnan(L->d) || L->d == 0) return false;
      float f = (float)L->d;
      uint32_t u;
      memcpy(&u, &f, 4);
      pqt_store_u32le(buf, u);
      *p = buf;
      *n = 4;
      return true;
    }
    case PQT_VX_BA:
    case PQT_VX_FLBA:
      *p = L->b ? L->b : (const uint8_t *)"";
      *n = L->n;
      return true;
    default: return false;
  }
}

typedef struct prune_ctx {
  pqt_reader *r;
  int32_t g;
  const pqt_filter *f;
  bool use_dict;
  bool use_bloom;
  pqt_array **dicts;  /* per leaf, read on first use */
  uint8_t *tried;     /* bit 0: dictionary read; bit 1: the chunk has no usable Bloom filter (or cannot be opened) */
  pqt_error *err;
} prune_ctx;

static bool dict_skip_leaf(prune_ctx *c, const pqt_bound *b) {
  /* = and IN only: a dictionary read that does not prune is read again with
   * its chunk, and ranges are what the statistics answer well */
  if (!(b->kind == PQT_B_CMP && b->op == PQT_CMP_EQ) && b->kind != PQT_B_IN) return false;
  if (!b->node->is_leaf || b->leaf < 0) return false;
  if (!(c->tried[b->leaf] & 1)) {
    c->tried[b->leaf] |= 1;
    c->dicts[b->leaf] = read_dictionary(c->r, c->g, b->leaf, c->f->alloc);
  }
  const pqt_array *d = c->dicts[b->leaf];
  if (!d) return false;
  bool any = true;
  pqt_error e;
  if (pqt_filter_eval_leaf(b, d, &any, c->f->alloc, &e) != PQT_OK) return false;
  return !any;
}

/* = or IN whose every literal the chunk's Bloom filter rules out. Probed
 * block by block from the chunk's own file (pqt_chunk_bloom_probe: a chunk
 * in another file, an encrypted one with its key); any failure keeps the
 * row group. */
static bool bloom_skip_leaf(prune_ctx *c, const pqt_bound *b) {
  if (!(b->kind == PQT_B_CMP && b->op == PQT_CMP_EQ) && b->kind != PQT_B_IN) return false;
  if (!b->node->is_leaf || b->leaf < 0 || (c->tried[b->leaf] & 2)) return false;
  const pqt_column_chunk *cc = chunk_of(c->r, c->g, b->leaf);
  if (!cc || cc->meta_data.type != c->r->schema->leaves[b->leaf]->physical_type ||
      !PQT_HAS_FIELD(&cc->meta_data, column_metadata, bloom_filter_offset)) {
    c->tried[b->leaf] |= 2;
    return false;
  }
  pqt_chunk ch;
  pqt_error e;
  pqt_error_init(&e);
  bool skip = pqt_chunk_open_data(c->r, c->g, b->leaf, &ch, &e) == PQT_OK;
  if (!skip) c->tried[b->leaf] |= 2; /* a chunk that cannot be opened (no key, no file): not tried again */
  int32_t n = b->kind == PQT_B_IN ? b->n_lits : 1;
  for (int32_t k0 = 0; skip && k0 < n; k0 += 64) {
    uint64_t hashes[64];
    uint8_t maybe[64];
    size_t m = 0;
    for (int32_t k = k0; skip && k < n && k < k0 + 64; k++) {
      uint8_t buf[16];
      const uint8_t *p;
      size_t len;
      skip = plain_literal(b, &b->lits[k], buf, &p, &len);
      if (skip) hashes[m++] = pqt_bloom_hash(p, len);
    }
    bool found = false;
    if (skip && (pqt_chunk_bloom_probe(c->r, &ch, hashes, m, maybe, &found, &e) != PQT_OK || !found)) {
      c->tried[b->leaf] |= 2; /* no filter, or one that cannot be used: not read again */
      skip = false;
    }
    for (size_t i = 0; skip && i < m; i++) skip = !maybe[i];
  }
  pqt_chunk_close(&ch);
  return skip;
}

static bool skip_node(prune_ctx *c, const pqt_bound *b, int depth) {
  if (depth > 20000) return false;
  switch (b->kind) {
    case PQT_B_CONST: return !b->cval;
    case PQT_B_AND: return skip_node(c, b->a, depth + 1) || skip_node(c, b->b, depth + 1);
    case PQT_B_OR: return skip_node(c, b->a, depth + 1) && skip_node(c, b->b, depth + 1);
    case PQT_B_NOT: return false;
    case PQT_B_GEO: return pqt_geo_prune_skip(c->r, c->g, b);
    default:
      if (b->vpath && !(b = pqt_vget_prune_bound(c->r, c->g, b))) return false; /* variant_get: its shredded leaf */
      if (stats_skip_leaf(c->r, c->g, b)) return true;
      if (c->use_dict && dict_skip_leaf(c, b)) return true;
      return c->use_bloom && bloom_skip_leaf(c, b);
  }
}

pqt_status pqt_filter_prune(const pqt_filter *f, pqt_reader *r, int32_t g, int *skip, pqt_error *err) {
  *skip = 0;
  if (g < 0 || g >= r->md.row_groups.n) return PQT_OK;
  prune_ctx c = {r, g, f, false, false, NULL, NULL, err};
  if (skip_node(&c, f->root, 0)) {
    *skip = 1;
    return PQT_OK;
  }
  size_t nl = (size_t)(f->n_leaves ? f->n_leaves : 1);
  c.dicts = pqt_mem_calloc(f->alloc, sizeof(pqt_array *) * nl);
  c.tried = pqt_mem_calloc(f->alloc, nl);
  if (!c.dicts || !c.tried) {
    pqt_mem_free(f->alloc, c.dicts, sizeof(pqt_array *) * nl);
    pqt_mem_free(f->alloc, c.tried, nl);
    return pqt_nomem(err);
  }
  c.use_dict = true;
  if (skip_node(&c, f->root, 0)) *skip = 2;
  c.use_bloom = true;
  if (!*skip && skip_node(&c, f->root, 0)) *skip = 3;
  for (size_t i = 0; i < nl; i++) pqt_array_free(f->alloc, c.dicts[i]);
  pqt_mem_free(f->alloc, c.dicts, sizeof(pqt_array *) * nl);
  pqt_mem_free(f->alloc, c.tried, nl);
  return PQT_OK;
}
