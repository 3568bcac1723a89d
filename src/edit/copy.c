/*
 * edit/copy.c: new files from the column chunks of existing ones, copied
 * byte for byte (include/parquetry_edit.h: concat, prune). Spec:
 * parquet-format README.md "File format" (column chunks, then the page
 * index and Bloom filters, then FileMetaData), "Metadata" (ColumnChunk,
 * ColumnMetaData offsets), PageIndex.md (OffsetIndex page locations are
 * file offsets: they move with the chunk; ColumnIndex holds none),
 * BloomFilter.md (header + bitset at bloom_filter_offset).
 *
 * The writer (file/writer.c, pqt_writer_open_raw) owns the output: the
 * temporary file and its rename, the page index after the row groups and
 * the footer. This module decides what goes in: the schema less the
 * dropped columns, and per row group the chunks, their moved offsets, their
 * indexes and Bloom filters.
 */
#include <stdio.h>

#include "crypto/crypto.h"
#include "file/options.h"
#include "file/writer_internal.h"
#include "meta/schema.h"
#include "parquetry_edit.h"
#include "scan/row_group.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* ---- options ------------------------------------------------------------------ */

static void edit_options_defaults(pqt_edit_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->key_value = 1;
}

PQT_DEFINE_INIT_SIZED(pqt_edit_options, pqt_edit_options_init_sized, edit_options_defaults)

PQT_DEFINE_INIT_SIZED(pqt_edit_report, pqt_edit_report_init_sized, PQT_ZERO_DEFAULTS)

/* ---- schema comparison ------------------------------------------------------- */

/* "a.b.c" of a node (the root: "(root)"). */
static void node_path(const pqt_schema_node *x, char *out, size_t cap) {
  const pqt_schema_node *chain[PQT_SCHEMA_MAX_DEPTH + 1];
  int n = 0;
  for (const pqt_schema_node *p = x; p && p->parent && n <= PQT_SCHEMA_MAX_DEPTH; p = p->parent) chain[n++] = p;
  if (n == 0) {
    snprintf(out, cap, "(root)");
    return;
  }
  size_t at = 0;
  out[0] = 0;
  for (int i = n - 1; i >= 0 && at + 1 < cap; i--) {
    int k = snprintf(out + at, cap - at, "%s%s", i == n - 1 ? "" : ".", chain[i]->name);
    if (k < 0) break;
    at += (size_t)k;
  }
}

/* The logical type as JSON ("none" when absent), for messages. */
static void logical_text(const pqt_schema_element *e, char *out, size_t cap) {
  if (!PQT_HAS_FIELD(e, schema_element, logical_type)) {
    snprintf(out, cap, "none");
    return;
  }
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  if (pqt_thrift_to_json(&pqt_desc_logical_type, &e->logical_type, 0, &b, NULL) == PQT_OK)
    snprintf(out, cap, "%.*s", (int)b.len, (const char *)b.data);
  else snprintf(out, cap, "?");
  pqt_buf_free(&b);
}

/* An optional int32 field of a SchemaElement as text ("absent" when not set). */
static void opt_text(bool has, int32_t v, const char *(*name)(int32_t), char *out, size_t cap) {
  if (!has) snprintf(out, cap, "absent");
  else if (name) snprintf(out, cap, "%s", name(v));
  else snprintf(out, cap, "%d", v);
}

PQT_API pqt_status pqt_edit_same_schema(const pqt_reader *a, const char *a_name, const pqt_reader *b,
                                        const char *b_name, pqt_error *err) {
  if (!a || !b) return pqt_error_set(err, PQT_EINVAL, "pqt_edit_same_schema: NULL reader");
  if (!a_name) a_name = "first";
  if (!b_name) b_name = "second";
  const pqt_schema *sa = a->schema, *sb = b->schema;
  /* equal num_children at every group keeps the two depth-first lists aligned */
  int32_t n = sa->n_nodes < sb->n_nodes ? sa->n_nodes : sb->n_nodes;
  for (int32_t i = 0; i < n; i++) {
    const pqt_schema_node *x = &sa->nodes[i], *y = &sb->nodes[i];
    const pqt_schema_element *ea = x->elem, *eb = y->elem;
    char path[512], va[256], vb[256];
    const char *what = NULL;
    node_path(x, path, sizeof path);
    if (i > 0 && (x->name_len != y->name_len || memcmp(x->name, y->name, x->name_len) != 0)) {
      node_path(y, vb, sizeof vb);
      return pqt_error_set(err, PQT_EINVAL, "%s and %s have different schemas: field '%s' of %s is '%s' in %s", a_name,
                           b_name, path, a_name, vb, b_name);
    }
    if (i == 0 && x->n_children != y->n_children) {
      return pqt_error_set(err, PQT_EINVAL, "%s and %s have different schemas: %d top-level fields in %s, %d in %s",
                           a_name, b_name, x->n_children, a_name, y->n_children, b_name);
    } else if (x->is_leaf != y->is_leaf || x->n_children != y->n_children) {
      snprintf(va, sizeof va, x->is_leaf ? "a column" : "a group of %d fields", x->n_children);
      snprintf(vb, sizeof vb, y->is_leaf ? "a column" : "a group of %d fields", y->n_children);
      what = "shape";
    } else if (i > 0 && x->repetition != y->repetition) {
      snprintf(va, sizeof va, "%s", pqt_repetition_name(x->repetition));
      snprintf(vb, sizeof vb, "%s", pqt_repetition_name(y->repetition));
      what = "repetition";
    } else if (x->is_leaf && x->physical_type != y->physical_type) {
      snprintf(va, sizeof va, "%s", pqt_physical_type_name(x->physical_type));
      snprintf(vb, sizeof vb, "%s", pqt_physical_type_name(y->physical_type));
      what = "physical type";
    } else if (x->is_leaf && x->type_length != y->type_length) {
      snprintf(va, sizeof va, "%d", x->type_length);
      snprintf(vb, sizeof vb, "%d", y->type_length);
      what = "type length";
    } else if (PQT_HAS_FIELD(ea, schema_element, logical_type) != PQT_HAS_FIELD(eb, schema_element, logical_type) ||
               (PQT_HAS_FIELD(ea, schema_element, logical_type) &&
                !pqt_thrift_equal(&pqt_desc_logical_type, &ea->logical_type, &eb->logical_type))) {
      logical_text(ea, va, sizeof va);
      logical_text(eb, vb, sizeof vb);
      what = "logical type";
    } else if (PQT_HAS_FIELD(ea, schema_element, converted_type) != PQT_HAS_FIELD(eb, schema_element, converted_type) ||
               (PQT_HAS_FIELD(ea, schema_element, converted_type) && ea->converted_type != eb->converted_type)) {
      opt_text(PQT_HAS_FIELD(ea, schema_element, converted_type), ea->converted_type, pqt_converted_type_name, va,
               sizeof va);
      opt_text(PQT_HAS_FIELD(eb, schema_element, converted_type), eb->converted_type, pqt_converted_type_name, vb,
               sizeof vb);
      what = "converted type";
    } else if (PQT_HAS_FIELD(ea, schema_element, scale) != PQT_HAS_FIELD(eb, schema_element, scale) ||
               (PQT_HAS_FIELD(ea, schema_element, scale) && ea->scale != eb->scale)) {
      opt_text(PQT_HAS_FIELD(ea, schema_element, scale), ea->scale, NULL, va, sizeof va);
      opt_text(PQT_HAS_FIELD(eb, schema_element, scale), eb->scale, NULL, vb, sizeof vb);
      what = "scale";
    } else if (PQT_HAS_FIELD(ea, schema_element, precision) != PQT_HAS_FIELD(eb, schema_element, precision) ||
               (PQT_HAS_FIELD(ea, schema_element, precision) && ea->precision != eb->precision)) {
      opt_text(PQT_HAS_FIELD(ea, schema_element, precision), ea->precision, NULL, va, sizeof va);
      opt_text(PQT_HAS_FIELD(eb, schema_element, precision), eb->precision, NULL, vb, sizeof vb);
      what = "precision";
    } else if (i > 0 && (x->has_field_id != y->has_field_id || (x->has_field_id && x->field_id != y->field_id))) {
      opt_text(x->has_field_id, x->field_id, NULL, va, sizeof va);
      opt_text(y->has_field_id, y->field_id, NULL, vb, sizeof vb);
      what = "field id";
    } else if (x->vector_length != y->vector_length) {
      snprintf(va, sizeof va, "%d", x->vector_length);
      snprintf(vb, sizeof vb, "%d", y->vector_length);
      what = "vector length";
    }
    if (what)
      return pqt_error_set(err, PQT_EINVAL, "%s and %s have different schemas: field '%s': %s %s in %s, %s in %s",
                           a_name, b_name, path, what, va, a_name, vb, b_name);
  }
  if (sa->n_nodes != sb->n_nodes) /* not reached: num_children differ first */
    return pqt_error_set(err, PQT_EINVAL, "%s and %s have different schemas (%d and %d fields)", a_name, b_name,
                         sa->n_nodes, sb->n_nodes);
  return PQT_OK;
}

/* ---- the copy ------------------------------------------------------------------- */

typedef struct copier {
  const pqt_allocator *alloc;
  pqt_arena arena; /* the output's metadata: lives until the writer is closed */
  pqt_writer *w;
  const pqt_edit_options *o;
  pqt_edit_report rep;
  int32_t n_leaves;  /* of the inputs */
  int32_t *new_leaf; /* input leaf -> output leaf, -1: dropped */
  int32_t n_kept;    /* leaves written */
  bool dropped;      /* some leaf is left out */
  pqt_buf hold;      /* bytes of a source that cannot lend them */
  pqt_buf blooms;    /* this row group's Bloom filters */
  size_t *bloom_at;  /* per output leaf: start in blooms, (size_t)-1 none */
  size_t *bloom_len;
} copier;

static const char *input_name(const copier *c, int32_t i, char *buf, size_t cap) {
  if (c->o->input_names && c->o->input_names[i]) return c->o->input_names[i];
  snprintf(buf, cap, "input %d", i + 1);
  return buf;
}

/* [off, off+len) of r's file: borrowed when the source lends, else read into hold. */
static pqt_status source_bytes(const pqt_reader *r, uint64_t off, uint64_t len, pqt_buf *hold, const uint8_t **p,
                               pqt_error *err) {
  if (off > r->io.size || len > r->io.size - off)
    return pqt_corrupt(err, "[%llu, +%llu) lies outside the file (%llu bytes)", (unsigned long long)off,
                       (unsigned long long)len, (unsigned long long)r->io.size);
  if (len > SIZE_MAX / 2) return pqt_error_set(err, PQT_ELIMIT, "%llu bytes at once", (unsigned long long)len);
  if (r->io.borrow_at) return r->io.borrow_at(r->io.private_data, off, (size_t)len, p, err);
  pqt_buf_clear(hold);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(hold, len ? (size_t)len : 1, err));
  PQT_RETURN_NOT_OK(r->io.read_at(r->io.private_data, off, hold->data, (size_t)len, err));
  hold->len = (size_t)len;
  *p = hold->data;
  return PQT_OK;
}

/* What the page walk found: where the first dictionary and data pages are
 * (relative to the chunk; -1 none). */
typedef struct walk {
  int64_t dict_at, data_at;
  int32_t pages;
} walk;

/* A chunk's bytes: all of them when the source lends them, else read a
 * window at a time into hold (a chunk is never held whole then). */
typedef struct chunk_src {
  const pqt_reader *r;
  uint64_t start, len;
  const uint8_t *all; /* the whole chunk, or NULL */
  pqt_buf *hold;
} chunk_src;

static pqt_status chunk_window(const chunk_src *s, uint64_t pos, uint64_t n, const uint8_t **p, pqt_error *err) {
  if (s->all) {
    *p = s->all + pos;
    return PQT_OK;
  }
  return source_bytes(s->r, s->start + pos, n, s->hold, p, err);
}

#define WALK_WINDOW     ((uint64_t)64 << 10)
#define WALK_WINDOW_MAX ((uint64_t)64 << 20) /* a page header larger than this is not believed */
#define COPY_PIECE      ((uint64_t)4 << 20)

/* The chunk's pages must fill it exactly. */
static pqt_status walk_pages(const chunk_src *s, walk *wk, pqt_error *err) {
  wk->dict_at = wk->data_at = -1;
  wk->pages = 0;
  uint64_t pos = 0, len = s->len;
  while (pos < len) {
    pqt_page_header h;
    size_t used = 0;
    uint64_t left = len - pos, window = s->all ? left : (left < WALK_WINDOW ? left : WALK_WINDOW);
    pqt_status st;
    for (;;) {
      const uint8_t *p = NULL;
      PQT_RETURN_NOT_OK(chunk_window(s, pos, window, &p, err));
      st = pqt_thrift_decode(&pqt_desc_page_header, p, (size_t)window, &used, NULL, &h, err);
      if (st == PQT_OK || window == left || window >= WALK_WINDOW_MAX) break;
      window = left / 16 < window ? left : window * 16; /* perhaps a header longer than the window */
    }
    if (st != PQT_OK) {
      pqt_error_prefix(err, "page %d (offset +%llu): header", wk->pages, (unsigned long long)pos);
      if (st == PQT_EINVAL && err) err->code = PQT_ECORRUPT;
      return st == PQT_EINVAL ? PQT_ECORRUPT : st;
    }
    if (h.compressed_page_size < 0 || h.uncompressed_page_size < 0 || (uint64_t)h.compressed_page_size > left - used)
      return pqt_corrupt(err, "page %d (offset +%llu): compressed_page_size %d runs past the chunk's %llu bytes",
                         wk->pages, (unsigned long long)pos, h.compressed_page_size, (unsigned long long)len);
    if (h.type == PQT_PAGE_DICTIONARY) {
      if (wk->dict_at >= 0 || wk->data_at >= 0)
        return pqt_corrupt(err, "page %d: a dictionary page that is not the chunk's first page", wk->pages);
      wk->dict_at = (int64_t)pos;
    } else if ((h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2) && wk->data_at < 0) {
      wk->data_at = (int64_t)pos;
    }
    pos += used + (uint64_t)h.compressed_page_size;
    wk->pages++;
  }
  return PQT_OK;
}

/* Append the chunk's bytes to the output. */
static pqt_status copy_bytes(copier *c, const chunk_src *s, pqt_error *err) {
  if (s->all) return pqt_writer_raw_bytes(c->w, s->all, (size_t)s->len, err);
  for (uint64_t pos = 0; pos < s->len; pos += COPY_PIECE) {
    uint64_t n = s->len - pos < COPY_PIECE ? s->len - pos : COPY_PIECE;
    const uint8_t *p = NULL;
    PQT_RETURN_NOT_OK(chunk_window(s, pos, n, &p, err));
    PQT_RETURN_NOT_OK(pqt_writer_raw_bytes(c->w, p, (size_t)n, err));
  }
  return PQT_OK;
}

/* The new place of an offset of the chunk [start, start+len) now at at. */
static bool in_chunk(int64_t v, uint64_t start, uint64_t len) {
  return v >= 0 && (uint64_t)v >= start && (uint64_t)v < start + len;
}

/* One column chunk: its pages, then (remembered for later) its indexes and Bloom filter. */
static pqt_status copy_chunk(copier *c, const pqt_reader *r, int32_t g, int32_t leaf, pqt_column_chunk *occ,
                             pqt_bytes *ci_out, pqt_bytes *oi_out, pqt_error *err) {
  const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[leaf];
  if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata) || PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata))
    return pqt_error_set(err, PQT_EUNSUPPORTED,
                         "the column chunk is encrypted: encrypted chunks cannot be copied (not supported)");
  pqt_chunk ch;
  pqt_status st = pqt_chunk_open(r, g, leaf, &ch, err);
  pqt_chunk_close(&ch);
  PQT_RETURN_NOT_OK(st);
  const pqt_column_metadata *cm = ch.cm;
  chunk_src src = {r, ch.start, ch.len, NULL, &c->hold};
  if (r->io.borrow_at) PQT_RETURN_NOT_OK(source_bytes(r, ch.start, ch.len, &c->hold, &src.all, err));
  walk wk;
  PQT_RETURN_NOT_OK(walk_pages(&src, &wk, err));
  int64_t at = pqt_writer_bytes_written(c->w);
  int64_t delta = at - (int64_t)ch.start;
  PQT_RETURN_NOT_OK(copy_bytes(c, &src, err));
  c->rep.chunk_bytes += (int64_t)ch.len;

  *occ = *cc;
  pqt_column_metadata *m = &occ->meta_data;
  if (in_chunk(m->data_page_offset, ch.start, ch.len)) m->data_page_offset += delta;
  else m->data_page_offset = at + (wk.data_at >= 0 ? wk.data_at : 0);
  if (PQT_HAS_FIELD(m, column_metadata, dictionary_page_offset)) {
    if (in_chunk(m->dictionary_page_offset, ch.start, ch.len)) m->dictionary_page_offset += delta;
    else if (wk.dict_at >= 0) m->dictionary_page_offset = at + wk.dict_at;
    else m->isset &= ~PQT_FIELD_MASK(column_metadata, dictionary_page_offset); /* 0 meant "none" */
  }
  if (PQT_HAS_FIELD(m, column_metadata, index_page_offset)) {
    if (in_chunk(m->index_page_offset, ch.start, ch.len)) m->index_page_offset += delta;
    else m->isset &= ~PQT_FIELD_MASK(column_metadata, index_page_offset);
  }
  occ->file_offset = at;
  PQT_SET_FIELD(occ, column_chunk, file_offset);
  occ->isset &=
      ~PQT_FIELD_MASK(column_chunk, offset_index_offset, offset_index_length, column_index_offset, column_index_length);

  /* the page index: ColumnIndex as stored, OffsetIndex with its page offsets moved */
  pqt_arena tmp;
  pqt_arena_init(&tmp, c->alloc);
  pqt_buf scratch, enc;
  pqt_buf_init(&scratch, c->alloc);
  pqt_buf_init(&enc, c->alloc);
  bool found = false, carried = false;
  pqt_offset_index oi;
  st = pqt_chunk_read_index(r, &ch, PQT_MODULE_OFFSET_INDEX, &tmp, &scratch, &oi, &found, err);
  if (st == PQT_OK && found) {
    for (int32_t i = 0; i < oi.page_locations.n && st == PQT_OK; i++) {
      pqt_page_location *pl = &oi.page_locations.items[i];
      if (!in_chunk(pl->offset, ch.start, ch.len) || pl->compressed_page_size < 0 ||
          (uint64_t)pl->offset + (uint64_t)pl->compressed_page_size > ch.start + ch.len)
        st = pqt_corrupt(err, "offset index: page %d [%lld, +%d) lies outside the column chunk [%llu, +%llu)", i,
                         (long long)pl->offset, pl->compressed_page_size, (unsigned long long)ch.start,
                         (unsigned long long)ch.len);
      pl->offset += delta;
    }
    if (st == PQT_OK) st = pqt_thrift_encode(&pqt_desc_offset_index, &oi, &enc, err);
    if (st == PQT_OK) {
      uint8_t *copy = pqt_arena_alloc(&c->arena, enc.len ? enc.len : 1);
      if (!copy) st = pqt_nomem(err);
      else {
        memcpy(copy, enc.data, enc.len);
        *oi_out = (pqt_bytes){copy, (int64_t)enc.len};
        carried = true;
      }
    }
  }
  if (st == PQT_OK) {
    pqt_column_index ci;
    st = pqt_chunk_read_index(r, &ch, PQT_MODULE_COLUMN_INDEX, &tmp, &scratch, &ci, &found, err);
    const uint8_t *raw = NULL;
    if (st == PQT_OK && found)
      st = source_bytes(r, (uint64_t)cc->column_index_offset, (uint64_t)cc->column_index_length, &scratch, &raw, err);
    if (st == PQT_OK && found) {
      uint8_t *copy = pqt_arena_alloc(&c->arena, (size_t)cc->column_index_length);
      if (!copy) st = pqt_nomem(err);
      else {
        memcpy(copy, raw, (size_t)cc->column_index_length);
        *ci_out = (pqt_bytes){copy, cc->column_index_length};
        carried = true;
      }
    }
  }
  pqt_buf_free(&enc);
  pqt_buf_free(&scratch);
  pqt_arena_reset(&tmp);
  if (st != PQT_OK) return st;
  if (carried) c->rep.page_indexes++;

  /* the Bloom filter: header and bitset, written after the row group's chunks */
  m->isset &= ~PQT_FIELD_MASK(column_metadata, bloom_filter_offset, bloom_filter_length);
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset)) {
    int64_t off = cm->bloom_filter_offset;
    if (off < 4 || (uint64_t)off >= r->io.size)
      return pqt_corrupt(err, "bloom_filter_offset %lld lies outside the file", (long long)off);
    bool has_len = PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length);
    if (has_len && cm->bloom_filter_length <= 0)
      return pqt_corrupt(err, "bloom_filter_length %d", cm->bloom_filter_length);
    uint64_t avail = r->io.size - (uint64_t)off;
    uint64_t want = has_len ? (uint64_t)cm->bloom_filter_length : (avail < 4096 ? avail : 4096);
    const uint8_t *bp = NULL;
    PQT_RETURN_NOT_OK(source_bytes(r, (uint64_t)off, want, &c->hold, &bp, err));
    pqt_bloom_filter_header h;
    size_t used = 0;
    st = pqt_thrift_decode(&pqt_desc_bloom_filter_header, bp, (size_t)want, &used, NULL, &h, err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "Bloom filter header");
      if (st == PQT_EINVAL && err) err->code = PQT_ECORRUPT;
      return st == PQT_EINVAL ? PQT_ECORRUPT : st;
    }
    uint64_t total = (uint64_t)used + (uint64_t)(h.num_bytes > 0 ? h.num_bytes : 0);
    if (h.num_bytes <= 0 || h.num_bytes > (128 << 20) || (has_len && total != want) || total > avail)
      return pqt_corrupt(err, "Bloom filter: %d bytes of bitset after a %zu-byte header do not fit its %llu bytes",
                         h.num_bytes, used, (unsigned long long)(has_len ? want : avail));
    if (!has_len) PQT_RETURN_NOT_OK(source_bytes(r, (uint64_t)off, total, &c->hold, &bp, err));
    int32_t k = c->new_leaf[leaf];
    c->bloom_at[k] = c->blooms.len;
    c->bloom_len[k] = (size_t)total;
    PQT_RETURN_NOT_OK(pqt_buf_append(&c->blooms, bp, (size_t)total, err));
  }
  return PQT_OK;
}

static pqt_status copy_row_group(copier *c, const pqt_reader *r, int32_t g, pqt_error *err) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  PQT_CHECK_CORRUPT(rg->columns.n == c->n_leaves, err, "row group %d has %d column chunks for %d columns", g,
                    rg->columns.n, c->n_leaves);
  pqt_row_group out = *rg;
  out.columns.items = pqt_arena_array(&c->arena, (size_t)c->n_kept, sizeof *out.columns.items);
  pqt_bytes *ci = pqt_arena_array(&c->arena, (size_t)c->n_kept, sizeof *ci);
  pqt_bytes *oi = pqt_arena_array(&c->arena, (size_t)c->n_kept, sizeof *oi);
  if (!out.columns.items || !ci || !oi) return pqt_nomem(err);
  out.columns.n = c->n_kept;
  pqt_buf_clear(&c->blooms);
  for (int32_t k = 0; k < c->n_kept; k++) c->bloom_at[k] = (size_t)-1;
  int64_t start = pqt_writer_bytes_written(c->w), compressed = 0, uncompressed = 0;
  for (int32_t leaf = 0; leaf < c->n_leaves; leaf++) {
    int32_t k = c->new_leaf[leaf];
    if (k < 0) continue;
    pqt_status st = copy_chunk(c, r, g, leaf, &out.columns.items[k], &ci[k], &oi[k], err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "row group %d, column %s", g, r->schema->leaves[leaf]->dotted_path);
      if (err) {
        err->row_group = g;
        err->column = leaf;
      }
      return st;
    }
    compressed += out.columns.items[k].meta_data.total_compressed_size;
    uncompressed += out.columns.items[k].meta_data.total_uncompressed_size;
  }
  for (int32_t k = 0; k < c->n_kept; k++) {
    if (c->bloom_at[k] == (size_t)-1) continue;
    pqt_column_metadata *m = &out.columns.items[k].meta_data;
    m->bloom_filter_offset = pqt_writer_bytes_written(c->w);
    m->bloom_filter_length = (int32_t)c->bloom_len[k];
    PQT_SET_FIELD(m, column_metadata, bloom_filter_offset);
    PQT_SET_FIELD(m, column_metadata, bloom_filter_length);
    PQT_RETURN_NOT_OK(pqt_writer_raw_bytes(c->w, c->blooms.data + c->bloom_at[k], c->bloom_len[k], err));
    c->rep.bloom_filters++;
  }
  out.file_offset = start;
  PQT_SET_FIELD(&out, row_group, file_offset);
  out.total_compressed_size = compressed;
  PQT_SET_FIELD(&out, row_group, total_compressed_size);
  if (c->dropped) out.total_byte_size = uncompressed;
  /* sorting columns: renumbered; the order holds up to the first one left out */
  if (PQT_HAS_FIELD(rg, row_group, sorting_columns) && rg->sorting_columns.n > 0) {
    pqt_sorting_column *sc = pqt_arena_array(&c->arena, (size_t)rg->sorting_columns.n, sizeof *sc);
    if (!sc) return pqt_nomem(err);
    int32_t n = 0;
    for (int32_t i = 0; i < rg->sorting_columns.n; i++) {
      int32_t idx = rg->sorting_columns.items[i].column_idx;
      if (idx < 0 || idx >= c->n_leaves || c->new_leaf[idx] < 0) break;
      sc[n] = rg->sorting_columns.items[i];
      sc[n++].column_idx = c->new_leaf[idx];
    }
    out.sorting_columns.items = sc;
    out.sorting_columns.n = n;
    if (n == 0) out.isset &= ~PQT_FIELD_MASK(row_group, sorting_columns);
  }
  PQT_RETURN_NOT_OK(pqt_writer_raw_row_group(c->w, &out, ci, oi, err));
  c->rep.rows += rg->num_rows;
  c->rep.row_groups++;
  return PQT_OK;
}

/* Mark the leaves under the fields named in drop_columns. */
static pqt_status resolve_drops(copier *c, const pqt_reader *r, pqt_error *err) {
  const pqt_schema *s = r->schema;
  for (int32_t i = 0; i < c->n_leaves; i++) c->new_leaf[i] = 0;
  for (int32_t d = 0; d < c->o->n_drop_columns; d++) {
    const char *name = c->o->drop_columns ? c->o->drop_columns[d] : NULL;
    if (!name) return pqt_error_set(err, PQT_EINVAL, "drop_columns[%d] is NULL", d);
    bool hit = false;
    for (int32_t i = 1; i < s->n_nodes; i++) {
      char path[4096];
      node_path(&s->nodes[i], path, sizeof path);
      if (strcmp(path, name) != 0) continue;
      for (int32_t k = 0; k < s->nodes[i].n_leaves; k++) c->new_leaf[s->nodes[i].first_leaf + k] = -1;
      hit = true;
    }
    if (!hit) return pqt_error_set(err, PQT_EINVAL, "no field or column '%s' in the schema", name);
  }
  c->n_kept = 0;
  for (int32_t i = 0; i < c->n_leaves; i++) c->new_leaf[i] = c->new_leaf[i] < 0 ? -1 : c->n_kept++;
  c->dropped = c->n_kept < c->n_leaves;
  if (c->n_kept == 0) return pqt_error_set(err, PQT_EINVAL, "every column would be left out");
  return PQT_OK;
}

/* The schema elements that stay: every kept leaf and each group above one. */
static pqt_status kept_elements(copier *c, const pqt_reader *r, pqt_schema_element **out, int32_t *n_out,
                                pqt_error *err) {
  const pqt_schema *s = r->schema;
  pqt_schema_element *e = pqt_arena_array(&c->arena, (size_t)s->n_nodes, sizeof *e);
  if (!e) return pqt_nomem(err);
  int32_t n = 0;
  for (int32_t i = 0; i < s->n_nodes; i++) {
    const pqt_schema_node *x = &s->nodes[i];
    int32_t kept = 0;
    for (int32_t k = 0; k < x->n_leaves; k++) kept += c->new_leaf[x->first_leaf + k] >= 0;
    if (kept == 0 && i > 0) continue;
    e[n] = *x->elem;
    if (!x->is_leaf) {
      int32_t children = 0;
      for (int32_t k = 0; k < x->n_children; k++) {
        const pqt_schema_node *y = x->children[k];
        int32_t ky = 0;
        for (int32_t j = 0; j < y->n_leaves; j++) ky += c->new_leaf[y->first_leaf + j] >= 0;
        children += ky > 0;
      }
      e[n].num_children = children;
      PQT_SET_FIELD(&e[n], schema_element, num_children);
    }
    n++;
  }
  *out = e;
  *n_out = n;
  return PQT_OK;
}

static bool same_orders(const pqt_file_metadata *a, const pqt_file_metadata *b) {
  bool ha = PQT_HAS_FIELD(a, file_metadata, column_orders), hb = PQT_HAS_FIELD(b, file_metadata, column_orders);
  if (ha != hb) return false;
  if (!ha) return true;
  if (a->column_orders.n != b->column_orders.n) return false;
  for (int32_t i = 0; i < a->column_orders.n; i++)
    if (a->column_orders.items[i].isset != b->column_orders.items[i].isset) return false;
  return true;
}

static pqt_status copy_into(const char *path, pqt_string *dst, pqt_reader *const *inputs, int32_t n_inputs,
                            const pqt_edit_options *opts, pqt_edit_report *report, pqt_error *err) {
  pqt_edit_options o;
  edit_options_defaults(&o);
  PQT_RETURN_NOT_OK(pqt_options_copy(&o, sizeof o, opts, "pqt_edit_options", err));
  if (report)
    PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(report), sizeof *report, "pqt_edit_report", err));
  if (!inputs || n_inputs <= 0) return pqt_error_set(err, PQT_EINVAL, "no input");
  for (int32_t i = 0; i < n_inputs; i++)
    if (!inputs[i]) return pqt_error_set(err, PQT_EINVAL, "input %d is NULL", i + 1);
  copier c;
  memset(&c, 0, sizeof c);
  c.o = &o;
  c.alloc = pqt_alloc_or_default(o.alloc);
  pqt_arena_init(&c.arena, c.alloc);
  pqt_buf_init(&c.hold, c.alloc);
  pqt_buf_init(&c.blooms, c.alloc);
  c.rep.struct_size = sizeof c.rep;
  const pqt_reader *first = inputs[0];
  char n0[32], ni[32];
  pqt_status st = PQT_OK;
  /* every input: not encrypted, the first's schema and column orders */
  for (int32_t i = 0; i < n_inputs && st == PQT_OK; i++) {
    const pqt_reader *r = inputs[i];
    if (r->crypto || PQT_HAS_FIELD(&r->md, file_metadata, encryption_algorithm))
      st = pqt_error_set(err, PQT_EUNSUPPORTED,
                         "%s: the file is encrypted: copying encrypted column chunks is not supported (read it "
                         "with its keys and write a new file)",
                         input_name(&c, i, ni, sizeof ni));
    else if (i > 0)
      st = pqt_edit_same_schema(first, input_name(&c, 0, n0, sizeof n0), r, input_name(&c, i, ni, sizeof ni), err);
    if (st == PQT_OK && i > 0 && !same_orders(&first->md, &r->md))
      st = pqt_error_set(err, PQT_EINVAL, "%s and %s have different column orders (how their statistics are sorted)",
                         input_name(&c, 0, n0, sizeof n0), input_name(&c, i, ni, sizeof ni));
  }
  c.n_leaves = first->schema->n_leaves;
  if (st == PQT_OK) {
    c.new_leaf = pqt_arena_array(&c.arena, (size_t)(c.n_leaves > 0 ? c.n_leaves : 1), sizeof *c.new_leaf);
    c.bloom_at = pqt_arena_array(&c.arena, (size_t)(c.n_leaves > 0 ? c.n_leaves : 1), sizeof *c.bloom_at);
    c.bloom_len = pqt_arena_array(&c.arena, (size_t)(c.n_leaves > 0 ? c.n_leaves : 1), sizeof *c.bloom_len);
    if (!c.new_leaf || !c.bloom_at || !c.bloom_len) st = pqt_nomem(err);
  }
  if (st == PQT_OK) st = resolve_drops(&c, first, err);
  pqt_writer_raw raw;
  memset(&raw, 0, sizeof raw);
  pqt_schema_element *elems = NULL;
  if (st == PQT_OK) st = kept_elements(&c, first, &elems, &raw.n_elems, err);
  raw.elems = elems;
  /* a logical type this version does not know would be left out when written again */
  for (int32_t i = 0; st == PQT_OK && i < raw.n_elems; i++)
    if (PQT_HAS_FIELD(&elems[i], schema_element, logical_type) && elems[i].logical_type.isset == 0)
      st = pqt_error_set(err, PQT_EUNSUPPORTED, "%s: field '%.*s' has a logical type this version does not know",
                         input_name(&c, 0, n0, sizeof n0), (int)elems[i].name.len, (const char *)elems[i].name.ptr);
  if (st == PQT_OK && PQT_HAS_FIELD(&first->md, file_metadata, column_orders)) {
    const pqt_list_column_order *co = &first->md.column_orders;
    pqt_column_order *kept = pqt_arena_array(&c.arena, (size_t)(c.n_kept > 0 ? c.n_kept : 1), sizeof *kept);
    if (!kept) st = pqt_nomem(err);
    int32_t n = 0;
    for (int32_t i = 0; st == PQT_OK && i < c.n_leaves && i < co->n; i++) {
      if (co->items[i].isset == 0) /* a kind this version does not know: it cannot be written again */
        st = pqt_error_set(err, PQT_EUNSUPPORTED, "%s: column %s has a column order this version does not know",
                           input_name(&c, 0, n0, sizeof n0), first->schema->leaves[i]->dotted_path);
      else if (c.new_leaf[i] >= 0) kept[n++] = co->items[i];
    }
    raw.column_orders = kept;
    raw.n_column_orders = n;
  }
  /* created_by: the inputs' when they agree */
  const char *created_by = o.created_by;
  if (!created_by) {
    const char *cb = pqt_reader_created_by(first);
    for (int32_t i = 1; i < n_inputs && cb[0]; i++)
      if (strcmp(cb, pqt_reader_created_by(inputs[i])) != 0) cb = "";
    created_by = cb[0] ? cb : NULL;
  }
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.alloc = o.alloc;
  wo.created_by = created_by;
  wo.like_key_value = o.key_value != 0;
  if (st == PQT_OK) st = pqt_writer_open_raw(&c.w, path, dst, &raw, o.key_value ? first : NULL, &wo, err);
  int64_t groups_total = 0, groups_done = 0;
  for (int32_t i = 0; i < n_inputs; i++) groups_total += inputs[i]->md.row_groups.n;
  for (int32_t i = 0; i < n_inputs && st == PQT_OK; i++) {
    const pqt_reader *r = inputs[i];
    for (int32_t g = 0; g < r->md.row_groups.n && st == PQT_OK; g++) {
      st = copy_row_group(&c, r, g, err);
      if (st != PQT_OK) pqt_error_prefix(err, "%s", input_name(&c, i, ni, sizeof ni));
      else if (o.progress) o.progress(o.progress_ctx, ++groups_done, groups_total);
    }
  }
  if (st == PQT_OK) {
    c.rep.columns = c.n_kept;
    st = pqt_writer_close(c.w, err);
    c.w = NULL;
    if (st == PQT_EINVAL) { /* the footer would not encode: the inputs hold what this version cannot write */
      pqt_error_prefix(err, "the inputs' metadata cannot be written again");
      if (err) err->code = PQT_EUNSUPPORTED;
      st = PQT_EUNSUPPORTED;
    }
  }
  if (c.w) pqt_writer_discard(c.w);
  if (st == PQT_OK && report) (void)pqt_struct_copy_out(report, &c.rep, sizeof c.rep, "pqt_edit_report", NULL);
  pqt_buf_free(&c.hold);
  pqt_buf_free(&c.blooms);
  pqt_arena_reset(&c.arena);
  return st;
}

PQT_API pqt_status pqt_edit_copy_file(const char *path, pqt_reader *const *inputs, int32_t n_inputs,
                                      const pqt_edit_options *opts, pqt_edit_report *report, pqt_error *err) {
  if (!path) return pqt_error_set(err, PQT_EINVAL, "pqt_edit_copy_file: no path");
  return copy_into(path, NULL, inputs, n_inputs, opts, report, err);
}

PQT_API pqt_status pqt_edit_copy_buffer(pqt_string *dst, pqt_reader *const *inputs, int32_t n_inputs,
                                        const pqt_edit_options *opts, pqt_edit_report *report, pqt_error *err) {
  if (!dst) return pqt_error_set(err, PQT_EINVAL, "pqt_edit_copy_buffer: no destination");
  return copy_into(NULL, dst, inputs, n_inputs, opts, report, err);
}
