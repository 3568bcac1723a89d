/*
 * inspect/page_index.c: the parts of parquetry_meta.h that read beyond the
 * footer:
 *   - pqt_reader_page_index: ColumnIndex and OffsetIndex (spec: PageIndex.md
 *     in seeds/002) decoded into arrays, bounds typed by meta/typed_value.c;
 *   - pqt_bloom_might_contain: the split-block Bloom filter (BloomFilter.md):
 *     the header, then only the 32-byte block the value's XXH64 selects;
 *   - pqt_reader_dictionary: the chunk's dictionary page (PLAIN values) as
 *     an Arrow array of the column's Arrow type.
 * Encrypted chunks go through the column's module decryptor (spec:
 * Encryption.md module types 3, 5, 6, 7, 8, 9); without the key the error
 * is PQT_ECRYPTO naming the column.
 */
#include <string.h>

#include "arrow/export.h"
#include "crypto/crypto.h"
#include "crypto/file_decryptor.h"
#include "encoding/plain.h"
#include "scan/row_group.h"
#include "inspect/meta_internal.h"
#include "meta/bloom.h"
#include "meta/typed_value.h"
#include "page/page_reader.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* ---- page index ---------------------------------------------------------------- */

typedef struct pi_priv {
  const pqt_allocator *alloc;
  pqt_arena arena;
  pqt_buf hold[2]; /* the stored (or decrypted) structs when the source does not lend its bytes */
  pqt_chunk ch;    /* open while byte views may point into its file (a chunk in another file) */
} pi_priv;

static void pi_priv_free(pi_priv *p) {
  if (!p) return;
  pqt_arena_reset(&p->arena);
  for (int i = 0; i < 2; i++) pqt_buf_free(&p->hold[i]);
  pqt_chunk_close(&p->ch);
  pqt_mem_free(p->alloc, p, sizeof *p);
}

PQT_API void pqt_page_index_free(pqt_page_index *pi) {
  if (!pi) return;
  size_t sz = pi->struct_size;
  /* a caller's struct from before the fields added later still has private_data */
  if (sz >= offsetof(pqt_page_index, private_data) + sizeof(void *)) pi_priv_free(pi->private_data);
  memset(pi, 0, sz < sizeof *pi ? sz : sizeof *pi);
  pi->struct_size = sz;
}

static pqt_status fill_column_index(pqt_reader *r, int32_t col, const pqt_column_index *ci, pqt_arena *a,
                                    pqt_page_index *pi, pqt_error *err) {
  const pqt_schema_node *leaf = r->schema->leaves[col];
  int32_t n = ci->null_pages.n;
  if (ci->min_values.n != n || ci->max_values.n != n)
    return pqt_corrupt(err, "column index: %d null_pages, %d min_values, %d max_values", n, ci->min_values.n,
                       ci->max_values.n);
  if (PQT_HAS_FIELD(ci, column_index, null_counts) && ci->null_counts.n != n)
    return pqt_corrupt(err, "column index: %d null_counts for %d pages", ci->null_counts.n, n);
  if (PQT_HAS_FIELD(ci, column_index, nan_counts) && ci->nan_counts.n != n)
    return pqt_corrupt(err, "column index: %d nan_counts for %d pages", ci->nan_counts.n, n);
  int32_t nr = leaf->max_rep + 1, nd = leaf->max_def + 1;
  if (PQT_HAS_FIELD(ci, column_index, repetition_level_histograms) && ci->repetition_level_histograms.n &&
      (int64_t)ci->repetition_level_histograms.n != (int64_t)n * nr)
    return pqt_corrupt(err, "column index: %d repetition level histogram entries for %d pages of %d levels",
                       ci->repetition_level_histograms.n, n, nr);
  if (PQT_HAS_FIELD(ci, column_index, definition_level_histograms) && ci->definition_level_histograms.n &&
      (int64_t)ci->definition_level_histograms.n != (int64_t)n * nd)
    return pqt_corrupt(err, "column index: %d definition level histogram entries for %d pages of %d levels",
                       ci->definition_level_histograms.n, n, nd);
  size_t cnt = n > 0 ? (size_t)n : 1;
  uint8_t *nulls = pqt_arena_array(a, cnt, 1);
  pqt_value *mins = pqt_arena_array(a, cnt, sizeof(pqt_value));
  pqt_value *maxs = pqt_arena_array(a, cnt, sizeof(pqt_value));
  if (!nulls || !mins || !maxs) return pqt_nomem(err);
  for (int32_t i = 0; i < n; i++) {
    nulls[i] = ci->null_pages.items[i] ? 1 : 0;
    if (nulls[i]) {
      memset(&mins[i], 0, sizeof mins[i]);
      memset(&maxs[i], 0, sizeof maxs[i]);
      mins[i].struct_size = maxs[i].struct_size = sizeof(pqt_value);
      continue;
    }
    pqt_status st =
        pqt_typed_from_plain(leaf, ci->min_values.items[i].ptr, (size_t)ci->min_values.items[i].len, &mins[i], err);
    if (st == PQT_OK)
      st = pqt_typed_from_plain(leaf, ci->max_values.items[i].ptr, (size_t)ci->max_values.items[i].len, &maxs[i], err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "column index, page %d", i);
      return st;
    }
  }
  pi->has_column_index = 1;
  pi->n_pages = n;
  pi->null_pages = nulls;
  pi->min_values = mins;
  pi->max_values = maxs;
  pi->boundary_order = ci->boundary_order;
  pi->null_counts = PQT_HAS_FIELD(ci, column_index, null_counts) ? ci->null_counts.items : NULL;
  pi->nan_counts = PQT_HAS_FIELD(ci, column_index, nan_counts) ? ci->nan_counts.items : NULL;
  pi->n_rep_levels = nr;
  pi->n_def_levels = nd;
  pi->repetition_level_histograms =
      PQT_HAS_FIELD(ci, column_index, repetition_level_histograms) && ci->repetition_level_histograms.n
          ? ci->repetition_level_histograms.items
          : NULL;
  pi->definition_level_histograms =
      PQT_HAS_FIELD(ci, column_index, definition_level_histograms) && ci->definition_level_histograms.n
          ? ci->definition_level_histograms.items
          : NULL;
  pi->usable_bounds = pqt_meta_bounds_usable(r, col);
  return PQT_OK;
}

/* stored: a list of unencoded sizes that does not match the pages is left out (NULL), not refused. */
static pqt_status fill_offset_index(const pqt_offset_index *oi, bool stored, pqt_arena *a, pqt_page_index *pi,
                                    pqt_error *err) {
  int32_t n = oi->page_locations.n;
  bool unenc_ok =
      !PQT_HAS_FIELD(oi, offset_index, unencoded_byte_array_data_bytes) || oi->unencoded_byte_array_data_bytes.n == n;
  if (!unenc_ok && !stored)
    return pqt_corrupt(err, "offset index: %d unencoded_byte_array_data_bytes for %d pages",
                       oi->unencoded_byte_array_data_bytes.n, n);
  size_t cnt = n > 0 ? (size_t)n : 1;
  int64_t *offs = pqt_arena_array(a, cnt, sizeof(int64_t));
  int32_t *sizes = pqt_arena_array(a, cnt, sizeof(int32_t));
  int64_t *rows = pqt_arena_array(a, cnt, sizeof(int64_t));
  if (!offs || !sizes || !rows) return pqt_nomem(err);
  for (int32_t i = 0; i < n; i++) {
    offs[i] = oi->page_locations.items[i].offset;
    sizes[i] = oi->page_locations.items[i].compressed_page_size;
    rows[i] = oi->page_locations.items[i].first_row_index;
  }
  pi->has_offset_index = 1;
  pi->n_locations = n;
  pi->page_offsets = offs;
  pi->compressed_page_sizes = sizes;
  pi->first_row_indexes = rows;
  pi->unencoded_byte_array_data_bytes = PQT_HAS_FIELD(oi, offset_index, unencoded_byte_array_data_bytes) && unenc_ok
                                            ? oi->unencoded_byte_array_data_bytes.items
                                            : NULL;
  return PQT_OK;
}

/* Bounds as stored: every entry's bytes in plain, typed where they are a value of the type. */
static const pqt_value *stored_bounds(const pqt_schema_node *leaf, const pqt_list_bytes *l, pqt_arena *a) {
  pqt_value *v = pqt_arena_array(a, l->n > 0 ? (size_t)l->n : 1, sizeof(pqt_value));
  if (!v) return NULL;
  for (int32_t i = 0; i < l->n; i++) {
    const uint8_t *p = l->items[i].ptr ? l->items[i].ptr : (const uint8_t *)"";
    size_t n = (size_t)l->items[i].len;
    if (pqt_typed_from_plain(leaf, p, n, &v[i], NULL) != PQT_OK) pqt_value_init(&v[i]);
    v[i].plain = p;
    v[i].n_plain = n;
  }
  return v;
}

/* The ColumnIndex as stored: each list with its own length. */
static pqt_status fill_column_index_stored(pqt_reader *r, int32_t col, const pqt_column_index *ci, pqt_arena *a,
                                           pqt_page_index *pi, pqt_error *err) {
  const pqt_schema_node *leaf = r->schema->leaves[col];
  int32_t n = ci->null_pages.n;
  uint8_t *nulls = pqt_arena_array(a, n > 0 ? (size_t)n : 1, 1);
  const pqt_value *mins = stored_bounds(leaf, &ci->min_values, a);
  const pqt_value *maxs = stored_bounds(leaf, &ci->max_values, a);
  if (!nulls || !mins || !maxs) return pqt_nomem(err);
  for (int32_t i = 0; i < n; i++) nulls[i] = ci->null_pages.items[i] ? 1 : 0;
  pi->has_column_index = 1;
  pi->n_pages = n;
  pi->null_pages = nulls;
  pi->min_values = mins;
  pi->n_min_values = ci->min_values.n;
  pi->max_values = maxs;
  pi->n_max_values = ci->max_values.n;
  pi->boundary_order = ci->boundary_order;
  bool has_nulls = PQT_HAS_FIELD(ci, column_index, null_counts);
  bool has_nans = PQT_HAS_FIELD(ci, column_index, nan_counts);
  bool has_rep = PQT_HAS_FIELD(ci, column_index, repetition_level_histograms);
  bool has_def = PQT_HAS_FIELD(ci, column_index, definition_level_histograms);
  static const int64_t none[1] = {0}; /* a list that is there with no entries */
  pi->null_counts = has_nulls ? (ci->null_counts.n ? ci->null_counts.items : none) : NULL;
  pi->n_null_counts = has_nulls ? ci->null_counts.n : -1;
  pi->nan_counts = has_nans ? (ci->nan_counts.n ? ci->nan_counts.items : none) : NULL;
  pi->n_nan_counts = has_nans ? ci->nan_counts.n : -1;
  pi->n_rep_levels = leaf->max_rep + 1;
  pi->n_def_levels = leaf->max_def + 1;
  pi->repetition_level_histograms =
      has_rep ? (ci->repetition_level_histograms.n ? ci->repetition_level_histograms.items : none) : NULL;
  pi->n_repetition_level_histograms = has_rep ? ci->repetition_level_histograms.n : -1;
  pi->definition_level_histograms =
      has_def ? (ci->definition_level_histograms.n ? ci->definition_level_histograms.items : none) : NULL;
  pi->n_definition_level_histograms = has_def ? ci->definition_level_histograms.n : -1;
  pi->usable_bounds = pqt_meta_bounds_usable(r, col);
  return PQT_OK;
}

/* Read one index of the chunk; with stored, an index that does not parse
 * is not an error of the call: its message goes to *why. */
static pqt_status read_one_index(pqt_reader *r, int32_t col, pi_priv *p, int module, bool stored, pqt_page_index *pi,
                                 const char **why, pqt_error *err) {
  pqt_error e;
  pqt_error_init(&e);
  bool found = false;
  bool ci = module == PQT_MODULE_COLUMN_INDEX;
  pqt_column_index cix;
  pqt_offset_index oix;
  pqt_status st = pqt_chunk_read_index(r, &p->ch, module, &p->arena, &p->hold[ci ? 0 : 1],
                                       ci ? (void *)&cix : (void *)&oix, &found, &e);
  if (st == PQT_OK && found) {
    if (ci)
      st = stored ? fill_column_index_stored(r, col, &cix, &p->arena, pi, &e)
                  : fill_column_index(r, col, &cix, &p->arena, pi, &e);
    else st = fill_offset_index(&oix, stored, &p->arena, pi, &e);
  }
  if (st == PQT_OK) return PQT_OK;
  if (!stored || st == PQT_ENOMEM) return pqt_error_set(err, st, "%s", e.message);
  *why = pqt_arena_strdup(&p->arena, e.message, strlen(e.message));
  return *why ? PQT_OK : pqt_nomem(err);
}

static pqt_status page_index(pqt_reader *r, int32_t rg, int32_t col, bool stored, pqt_page_index *out, pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_page_index: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size,
                                        stored ? sizeof(pqt_page_index) : offsetof(pqt_page_index, n_min_values),
                                        "pqt_page_index", err));
  const pqt_column_chunk *cc;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const char *path = r->schema->leaves[col]->dotted_path;
  pi_priv *p = pqt_mem_calloc(r->alloc, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->alloc = pqt_alloc_or_default(r->alloc);
  pqt_arena_init(&p->arena, r->alloc);
  for (int i = 0; i < 2; i++) pqt_buf_init(&p->hold[i], r->alloc);
  pqt_page_index pi;
  memset(&pi, 0, sizeof pi);
  /* the chunk's own file (file_path: another one), its decryptor when encrypted */
  pqt_status st = pqt_chunk_open_data(r, rg, col, &p->ch, err);
  if (stored)
    pi.n_null_counts = pi.n_nan_counts = pi.n_repetition_level_histograms = pi.n_definition_level_histograms = -1;
  if (st == PQT_OK) st = read_one_index(r, col, p, PQT_MODULE_COLUMN_INDEX, stored, &pi, &pi.column_index_error, err);
  if (st == PQT_OK) st = read_one_index(r, col, p, PQT_MODULE_OFFSET_INDEX, stored, &pi, &pi.offset_index_error, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "row group %d, column %s", rg, path);
    pi_priv_free(p);
    return st;
  }
  /* the key copy is not needed any more; the file stays open for the byte views */
  if (p->ch.encrypted) pqt_module_decryptor_wipe(&p->ch.dec);
  p->ch.encrypted = false;
  pi.private_data = p;
  size_t caller = out->struct_size;
  pi.struct_size = caller;
  memcpy(out, &pi, caller < sizeof pi ? caller : sizeof pi);
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_page_index(pqt_reader *r, int32_t rg, int32_t col, pqt_page_index *out, pqt_error *err) {
  return page_index(r, rg, col, false, out, err);
}

PQT_API pqt_status pqt_reader_page_index_stored(pqt_reader *r, int32_t rg, int32_t col, pqt_page_index *out,
                                                pqt_error *err) {
  return page_index(r, rg, col, true, out, err);
}

/* ---- Bloom filter probe ---------------------------------------------------------- */

PQT_API pqt_status pqt_bloom_might_contain(pqt_reader *r, int32_t rg, int32_t col, const pqt_value *v, int *result,
                                           pqt_error *err) {
  if (!v || !result) return pqt_error_set(err, PQT_EINVAL, "pqt_bloom_might_contain: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(v->struct_size, sizeof(pqt_value), "pqt_value", err));
  const pqt_column_chunk *cc;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  *result = 1;
  if (!PQT_HAS_FIELD(&cc->meta_data, column_metadata, bloom_filter_offset)) return PQT_OK;
  const pqt_schema_node *leaf = r->schema->leaves[col];
  pqt_buf plain;
  pqt_buf_init(&plain, r->alloc);
  pqt_status st = pqt_typed_to_plain(leaf, v, &plain, err);
  if (st == PQT_OK) {
    uint64_t h = pqt_bloom_hash(plain.data ? plain.data : (const uint8_t *)"", plain.len);
    /* the filter in the chunk's own file (file_path: another one), by block */
    pqt_chunk ch;
    st = pqt_chunk_open_data(r, rg, col, &ch, err);
    uint8_t maybe = 1;
    bool found = false;
    if (st == PQT_OK) st = pqt_chunk_bloom_probe(r, &ch, &h, 1, &maybe, &found, err);
    pqt_chunk_close(&ch);
    if (st == PQT_OK) *result = maybe;
    else pqt_error_prefix(err, "row group %d, column %s", rg, leaf->dotted_path);
  }
  pqt_buf_free(&plain);
  return st;
}

/* ---- dictionary ------------------------------------------------------------------ */

/* The chunk's dictionary page, if any: its PLAIN values copied into
 * bytes, *n entries. *found false when the chunk starts with a data page. */
static pqt_status load_dictionary(pqt_reader *r, int32_t rg, int32_t col, pqt_buf *bytes, int32_t *n, bool *found,
                                  pqt_error *err) {
  *found = false;
  *n = 0;
  const pqt_column_chunk *cc;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const pqt_column_metadata *cm = &cc->meta_data;
  const pqt_schema_node *leaf =
      r->schema->leaves[col];  // NOLINT(clang-analyzer-core.NullDereference): pqt_meta_chunk refused a NULL r
  if (cm->type != leaf->physical_type)
    return pqt_corrupt(err, "row group %d, column %s: chunk type %d differs from the schema's %d", rg,
                       leaf->dotted_path, cm->type, leaf->physical_type);
  /* a chunk in another file (file_path) is read there, an encrypted one with its key */
  pqt_chunk ch;
  pqt_page_reader pr;
  pqt_status st = pqt_chunk_page_reader_open(r, rg, col, NULL, false, r->data_alloc, &ch, &pr, err);
  if (st == PQT_OK) {
    pqt_page pg;
    bool eof = true;
    st = pqt_page_reader_next(&pr, &pg, &eof, err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "page %d", pr.current);
    } else if (!eof && pg.type == PQT_PAGE_DICTIONARY) {
      if (pg.encoding != PQT_ENC_PLAIN && pg.encoding != PQT_ENC_PLAIN_DICTIONARY)
        st = pqt_error_set(err, PQT_EUNSUPPORTED, "dictionary page encoded as %s", pqt_encoding_name(pg.encoding));
      else if (pg.num_values < 0) st = pqt_corrupt(err, "dictionary page with %d values", pg.num_values);
      if (st == PQT_OK) st = pqt_buf_append(bytes, pg.values ? pg.values : (const uint8_t *)"", pg.values_len, err);
      if (st == PQT_OK) {
        *n = pg.num_values;
        *found = true;
      }
    }
    pqt_page_reader_free(&pr);
    pqt_chunk_close(&ch);
  }
  if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", rg, leaf->dotted_path);
  return st;
}

/* n PLAIN values in bytes as a leaf array. */
static pqt_status dictionary_array(const pqt_allocator *alloc, const pqt_schema_node *leaf, const pqt_buf *bytes,
                                   size_t n, pqt_array **out, pqt_error *err) {
  pqt_array *a;
  PQT_RETURN_NOT_OK(pqt_array_new(alloc, PQT_ARRAY_LEAF, 0, &a, err));
  a->node = leaf;
  a->name = leaf->name;
  a->nullable = false;
  a->length = (int64_t)n;
  const uint8_t *in = bytes->data ? bytes->data : (const uint8_t *)"";
  size_t in_len = bytes->len;
  pqt_status st;
  if (leaf->physical_type == PQT_BOOLEAN) {
    st = pqt_shared_alloc(alloc, (n + 7) / 8, &a->values, err);
    if (st == PQT_OK) st = pqt_plain_decode_bool_bitmap(in, in_len, 0, a->values->data, 0, n, NULL, err);
  } else if (leaf->physical_type == PQT_BYTE_ARRAY) {
    if (n > in_len / 4) {
      st = pqt_corrupt(err, "dictionary page claims %zu values in %zu bytes", n, in_len);
    } else {
      st = pqt_shared_alloc(alloc, (n + 1) * sizeof(int32_t), &a->offsets, err);
      pqt_buf data;
      pqt_buf_init(&data, alloc);
      if (st == PQT_OK)
        st = pqt_plain_decode_byte_array(in, in_len, (int32_t *)(void *)a->offsets->data, &data, n, NULL, err);
      if (st == PQT_OK && !data.data) st = pqt_buf_reserve(&data, 1, err);
      if (st == PQT_OK) st = pqt_shared_from_buf(&data, &a->values, err);
      pqt_buf_free(&data);
    }
  } else {
    size_t w = pqt_physical_width(leaf->physical_type, leaf->type_length), total;
    if (!w || !pqt_mul_size(n, w, &total) || total > in_len) {
      st = pqt_corrupt(err, "dictionary page claims %zu values of %zu bytes in %zu bytes", n, w, in_len);
    } else {
      st = pqt_shared_alloc_raw(alloc, total ? total : 1, &a->values, err);
      if (st == PQT_OK) st = pqt_plain_decode_fixed(in, in_len, w, a->values->data, n, NULL, err);
    }
  }
  if (st == PQT_OK) st = pqt_array_to_arrow_layout(alloc, a, err);
  if (st != PQT_OK) {
    pqt_array_free(alloc, a);
    return st;
  }
  *out = a;
  return PQT_OK;
}

/* The leaf's own Arrow schema: export the top-level field with only this
 * leaf selected, then take the innermost child out of it. */
static pqt_status leaf_schema(const pqt_reader *r, int32_t col, struct ArrowSchema *out, pqt_error *err) {
  int32_t nl = r->schema->n_leaves;
  uint8_t *sel = pqt_mem_calloc(r->alloc, (size_t)nl);
  if (!sel) return pqt_nomem(err);
  sel[col] = 1;
  struct ArrowSchema root;
  pqt_status st = pqt_export_schema(r->schema, sel, &root, err);
  pqt_mem_free(r->alloc, sel, (size_t)nl);
  if (st != PQT_OK) return st;
  struct ArrowSchema *parent = &root;
  while (parent->n_children == 1 && parent->children[0]->n_children > 0) parent = parent->children[0];
  if (parent->n_children != 1) {
    root.release(&root);
    return pqt_error_set(err, PQT_EUNSUPPORTED, "column %s has no Arrow leaf type",
                         r->schema->leaves[col]->dotted_path);
  }
  *out = *parent->children[0];
  parent->children[0]->release = NULL; /* moved: the parent frees only the struct */
  root.release(&root);
  out->flags &= ~(int64_t)ARROW_FLAG_NULLABLE; /* dictionary entries are never null */
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_dictionary(pqt_reader *r, int32_t rg, int32_t col, struct ArrowArray *out,
                                         struct ArrowSchema *out_schema, pqt_error *err) {
  if (!out || !out_schema) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_dictionary: bad arguments");
  out->release = NULL;
  out_schema->release = NULL;
  pqt_buf bytes;
  pqt_buf_init(&bytes, r ? r->alloc : NULL);
  int32_t n = 0;
  bool found = false;
  pqt_status st = load_dictionary(r, rg, col, &bytes, &n, &found, err);
  if (st != PQT_OK || !found) {
    pqt_buf_free(&bytes);
    return st;
  }
  const pqt_schema_node *leaf = r->schema->leaves[col];
  const pqt_allocator *alloc = r->data_alloc;
  pqt_array *a = NULL;
  st = dictionary_array(alloc, leaf, &bytes, (size_t)n, &a, err);
  pqt_buf_free(&bytes);
  if (st == PQT_OK) {
    struct ArrowArray batch;
    st = pqt_export_batch(alloc, &a, 1, 0, a->length, &batch, err);
    if (st == PQT_OK) {
      *out = *batch.children[0];
      batch.children[0]->release = NULL; /* moved out */
      batch.release(&batch);
      st = leaf_schema(r, col, out_schema, err);
      if (st != PQT_OK) out->release(out);
    }
  }
  if (a) pqt_array_free(alloc, a);
  if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s: dictionary page", rg, leaf->dotted_path);
  return st;
}

typedef struct dict_priv {
  const pqt_allocator *alloc;
  pqt_buf bytes;
  pqt_value *values;
  size_t n_alloc;
} dict_priv;

PQT_API void pqt_dictionary_init(pqt_dictionary *d) {
  if (!d) return;
  memset(d, 0, sizeof *d);
  d->struct_size = sizeof *d;
}

static void dict_priv_free(dict_priv *p) {
  if (!p) return;
  if (p->values) pqt_mem_free(p->alloc, p->values, p->n_alloc * sizeof(pqt_value));
  pqt_buf_free(&p->bytes);
  pqt_mem_free(p->alloc, p, sizeof *p);
}

PQT_API void pqt_dictionary_free(pqt_dictionary *d) {
  if (!d) return;
  size_t sz = d->struct_size;
  if (sz >= sizeof(pqt_dictionary)) dict_priv_free(d->private_data);
  memset(d, 0, sz < sizeof *d ? sz : sizeof *d);
  d->struct_size = sz;
}

PQT_API pqt_status pqt_reader_dictionary_values(pqt_reader *r, int32_t rg, int32_t col, pqt_dictionary *out,
                                                pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_dictionary_values: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_dictionary), "pqt_dictionary", err));
  if (!r) return pqt_error_set(err, PQT_EINVAL, "reader is NULL");
  dict_priv *p = pqt_mem_calloc(r->alloc, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->alloc = pqt_alloc_or_default(r->alloc);
  pqt_buf_init(&p->bytes, r->alloc);
  int32_t n = 0;
  bool found = false;
  pqt_status st = load_dictionary(r, rg, col, &p->bytes, &n, &found, err);
  pqt_dictionary d;
  memset(&d, 0, sizeof d);
  if (st == PQT_OK && found) {
    const pqt_schema_node *leaf = r->schema->leaves[col];
    const uint8_t *in = p->bytes.data ? p->bytes.data : (const uint8_t *)"";
    size_t len = p->bytes.len, pos = 0;
    size_t w = leaf->physical_type == PQT_BYTE_ARRAY ? 0 : pqt_physical_width(leaf->physical_type, leaf->type_length);
    /* every entry takes at least 4 bytes (a length) or w bytes (BOOLEAN: a bit) */
    size_t min_bytes = leaf->physical_type == PQT_BOOLEAN ? 0 : w ? w : 4;
    if (min_bytes && (size_t)n > len / min_bytes)
      st = pqt_corrupt(err, "dictionary page claims %d values in %zu bytes", n, len);
    if (leaf->physical_type == PQT_BOOLEAN && (size_t)n > len * 8)
      st = pqt_corrupt(err, "dictionary page claims %d values in %zu bytes", n, len);
    if (st == PQT_OK) {
      p->n_alloc = n > 0 ? (size_t)n : 1;
      p->values = pqt_mem_calloc(p->alloc, p->n_alloc * sizeof(pqt_value));
      if (!p->values) st = pqt_nomem(err);
    }
    static const uint8_t bits[2] = {0, 1};
    for (int32_t i = 0; st == PQT_OK && i < n; i++) {
      const uint8_t *v;
      size_t vn;
      if (leaf->physical_type == PQT_BOOLEAN) {
        v = &bits[(in[(size_t)i >> 3] >> (i & 7)) & 1];
        vn = 1;
      } else if (leaf->physical_type == PQT_BYTE_ARRAY) {
        if (len - pos < 4) {
          st = pqt_corrupt(err, "dictionary entry %d: cut short", i);
          break;
        }
        vn = pqt_load_u32le(in + pos);
        pos += 4;
        if (vn > len - pos) {
          st = pqt_corrupt(err, "dictionary entry %d: %zu bytes, %zu left", i, vn, len - pos);
          break;
        }
        v = in + pos;
        pos += vn;
      } else {
        v = in + pos;
        vn = w;
        pos += w;
      }
      st = pqt_typed_from_plain(leaf, v, vn, &p->values[i], err);
    }
    if (st == PQT_OK) {
      d.present = 1;
      d.n_values = n;
      d.values = p->values;
    } else {
      pqt_error_prefix(err, "row group %d, column %s: dictionary page", rg, leaf->dotted_path);
    }
  }
  if (st != PQT_OK) {
    dict_priv_free(p);
    return st;
  }
  d.private_data = p;
  size_t caller = out->struct_size;
  d.struct_size = caller;
  memcpy(out, &d, caller < sizeof d ? caller : sizeof d);
  return PQT_OK;
}
