/*
 * inspect/scrub.c: pqt_reader_scrub, a copy of a file with what identifies
 * its data replaced by placeholders of the same byte lengths, so a user can
 * share a reproduction without the data (`parquetry footer --scrub`).
 *
 * Replaced: schema names (and path_in_schema) but the names the LIST, MAP
 * and VARIANT shapes prescribe; key-value metadata keys and values (file
 * and column chunk); ColumnChunk.file_path; and in every column whose
 * values sort as unsigned bytes (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY
 * without DECIMAL, FLOAT16, INTERVAL, GEOMETRY or GEOGRAPHY, and not under
 * a VARIANT) every value ('x' repeated, its length kept) in dictionary and
 * data pages, the statistics min/max ('a'... and 'z'..., so they still
 * bound the values; "exact" flags become false), the page headers'
 * statistics, the ColumnIndex bounds (boundary order kept when it still
 * holds, else UNORDERED) and the Bloom filter (rebuilt from the new
 * values). Numbers, dates, levels, null counts, SizeStatistics, encodings
 * and page boundaries are kept: the copy has the same structure and the
 * same uncompressed sizes; compressed pages are compressed again with the
 * same codec (their compressed sizes may change, and every offset is
 * rewritten to match). Bytes no metadata points at (e.g. the copies of
 * ColumnMetaData some writers put after each chunk) are left out.
 * Encrypted files are refused. Column chunks in other files
 * (ColumnChunk.file_path) are read from them (pqt_chunk_open_data) and
 * copied in: the copy is one file and has no file_path.
 */
#include <string.h>

#include "codec/codec.h"
#include "encoding/delta_binary_packed.h"
#include "inspect/meta_internal.h"
#include "meta/bloom.h"
#include "meta/sort_order.h"
#include "scan/row_group.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#include "parquetry_meta.h"

typedef struct out_ctx {
  pqt_write_fn write;
  void *ctx;
  uint64_t pos;
} out_ctx;

static pqt_status emit(out_ctx *o, const void *p, size_t n, pqt_error *err) {
  if (n == 0) return PQT_OK;
  pqt_status st = o->write(o->ctx, p, n);
  if (st != PQT_OK) return pqt_error_set(err, st, "scrub: write failed");
  o->pos += n;
  return PQT_OK;
}

/* old page start -> new page start and size (header + body) */
typedef struct page_map {
  int64_t *old_off, *new_off;
  int32_t *new_size;
  size_t n, cap;
} page_map;

typedef struct chunk_state {
  page_map map;
  uint64_t old_start, old_len, new_start, new_len;
  int64_t uncompressed_delta;
  bool scrub;
  /* lengths of the new values (for the Bloom filter): small ones in a bitmap */
  uint8_t small[8192];
  int64_t *big;
  size_t n_big, cap_big;
} chunk_state;

typedef struct scrub {
  pqt_reader *r;
  pqt_arena arena;
  out_ctx out;
  pqt_file_metadata md;
  chunk_state *chunks; /* rg * ncol + col */
  const pqt_io *src;   /* the pages of the chunk being written: the file's, or another file's (file_path) */
  int32_t ncol;
} scrub;

static pqt_status grow(const pqt_allocator *a, void **p, size_t *cap, size_t need, size_t elem, pqt_error *err) {
  if (need <= *cap) return PQT_OK;
  size_t nc = *cap ? *cap * 2 : 16;
  while (nc < need) nc *= 2;
  void *q = pqt_mem_realloc(a, *p, *cap * elem, nc * elem);
  if (!q) return pqt_nomem(err);
  *p = q;
  *cap = nc;
  return PQT_OK;
}

static pqt_status map_add(scrub *s, page_map *m, int64_t o, int64_t n, int32_t size, pqt_error *err) {
  // cppcheck-suppress duplicateAssignExpression ; three arrays, each grown with its own capacity, all at m->cap now
  size_t c1 = m->cap, c2 = m->cap, c3 = m->cap;
  PQT_RETURN_NOT_OK(grow(s->r->alloc, (void **)&m->old_off, &c1, m->n + 1, sizeof *m->old_off, err));
  PQT_RETURN_NOT_OK(grow(s->r->alloc, (void **)&m->new_off, &c2, m->n + 1, sizeof *m->new_off, err));
  PQT_RETURN_NOT_OK(grow(s->r->alloc, (void **)&m->new_size, &c3, m->n + 1, sizeof *m->new_size, err));
  m->cap = c1;
  m->old_off[m->n] = o;
  m->new_off[m->n] = n;
  m->new_size[m->n] = size;
  m->n++;
  return PQT_OK;
}

static int64_t map_find(const page_map *m, int64_t o) {
  for (size_t i = 0; i < m->n; i++)
    if (m->old_off[i] == o) return (int64_t)i;
  return -1;
}

static pqt_status add_len(scrub *s, chunk_state *cs, int64_t len, pqt_error *err) {
  if (len < (int64_t)sizeof cs->small * 8) {
    cs->small[len >> 3] |= (uint8_t)(1u << (len & 7));
    return PQT_OK;
  }
  for (size_t i = 0; i < cs->n_big; i++)
    if (cs->big[i] == len) return PQT_OK;
  PQT_RETURN_NOT_OK(grow(s->r->alloc, (void **)&cs->big, &cs->cap_big, cs->n_big + 1, sizeof *cs->big, err));
  cs->big[cs->n_big++] = len;
  return PQT_OK;
}

/* ---- placeholders ---- */

static pqt_bytes fill(scrub *s, char c, int64_t len) {
  pqt_bytes b = {(const uint8_t *)"", 0};
  if (len <= 0) return b;
  uint8_t *p = pqt_arena_alloc(&s->arena, (size_t)len);
  if (!p) return b; /* checked by the caller through len */
  memset(p, c, (size_t)len);
  b.ptr = p;
  b.len = len;
  return b;
}

/* len bytes: `c` then the number i in base 26 at the end ("ccab"). */
static pqt_bytes numbered(scrub *s, char c, int64_t i, int64_t len) {
  pqt_bytes b = fill(s, c, len);
  uint8_t *p = (uint8_t *)b.ptr;
  for (int64_t k = len - 1; k >= 1 && i > 0; k--) {
    p[k] = (uint8_t)('a' + i % 26);
    i /= 26;
  }
  return b;
}

static bool filled(const pqt_bytes *b, int64_t len) { return len <= 0 || b->len == len; }

static pqt_status kv_scrub(scrub *s, pqt_list_key_value *kv, pqt_error *err) {
  for (int32_t i = 0; i < kv->n; i++) {
    pqt_key_value *e = &kv->items[i];
    int64_t kl = e->key.len, vl = e->value.len;
    e->key = numbered(s, 'k', i, kl);
    if (!filled(&e->key, kl)) return pqt_nomem(err);
    if (PQT_HAS_FIELD(e, key_value, value)) {
      e->value = fill(s, 'v', vl);
      if (!filled(&e->value, vl)) return pqt_nomem(err);
    }
  }
  return PQT_OK;
}

static pqt_status stats_scrub(scrub *s, pqt_statistics *st, pqt_error *err) {
  if (PQT_HAS_FIELD(st, statistics, min)) st->min = fill(s, 'a', st->min.len);
  if (PQT_HAS_FIELD(st, statistics, max)) st->max = fill(s, 'z', st->max.len);
  if (PQT_HAS_FIELD(st, statistics, min_value)) st->min_value = fill(s, 'a', st->min_value.len);
  if (PQT_HAS_FIELD(st, statistics, max_value)) st->max_value = fill(s, 'z', st->max_value.len);
  if (PQT_HAS_FIELD(st, statistics, is_min_value_exact)) st->is_min_value_exact = false;
  if (PQT_HAS_FIELD(st, statistics, is_max_value_exact)) st->is_max_value_exact = false;
  /* every value of the column is now 'x'... of its length: one per length */
  if (PQT_HAS_FIELD(st, statistics, distinct_count)) st->distinct_count = 0;
  (void)err;
  return PQT_OK;
}

/* Are this leaf's values scrubbed? Unsigned byte order, not geospatial, not in a VARIANT. */
static bool scrub_leaf(const pqt_schema_node *leaf) {
  if (pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type) != PQT_SORT_BYTES) return false;
  int lt = pqt_union_which(leaf->logical.isset);
  if (lt == PQT_LT_GEOMETRY || lt == PQT_LT_GEOGRAPHY) return false;
  for (const pqt_schema_node *p = leaf; p; p = p->parent)
    if (pqt_union_which(p->logical.isset) == PQT_LT_VARIANT) return false;
  return true;
}

static bool shape_group(const pqt_schema_node *p) {
  if (!p) return false;
  int lt = pqt_union_which(p->logical.isset);
  return lt == PQT_LT_LIST || lt == PQT_LT_MAP || lt == PQT_LT_VARIANT || p->converted_type == PQT_CT_LIST ||
         p->converted_type == PQT_CT_MAP || p->converted_type == PQT_CT_MAP_KEY_VALUE;
}

static bool name_is(const pqt_bytes *b, const char *s) {
  size_t n = strlen(s);
  return (size_t)b->len == n && memcmp(b->ptr, s, n) == 0;
}

/* A name the LIST, MAP or VARIANT shapes prescribe (kept): one of theirs,
 * under such a group or its child. */
static bool shaped(const pqt_schema_node *n, const pqt_bytes *name) {
  static const char *const kept[] = {"list",  "element", "key_value", "key",      "value",
                                     "array", "bag",     "map",       "metadata", "typed_value"};
  if (!n->parent || !(shape_group(n->parent) || shape_group(n->parent->parent))) return false;
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
    if (name_is(name, kept[k])) return true;
  return false;
}

static pqt_status names_scrub(scrub *s, pqt_error *err) {
  const pqt_schema *sc = s->r->schema;
  /* parents come before their children (depth-first order) */
  for (int32_t i = 0; i < sc->n_nodes; i++) {
    const pqt_schema_node *n = &sc->nodes[i];
    if (n->index < 0 || n->index >= s->md.schema.n) continue;
    pqt_bytes *name = &s->md.schema.items[n->index].name;
    int64_t len = name->len;
    if (len == 0 || (n->parent && shaped(n, name))) continue;
    if (!n->parent) {
      *name = fill(s, 'r', len);
    } else {
      /* a legacy list's "<parent>_tuple" stays the parent's new name + "_tuple" */
      const pqt_bytes *pn = &s->md.schema.items[n->parent->index].name;
      size_t on = n->parent->name_len;
      if ((size_t)len == on + 6 && memcmp(n->name, n->parent->name, on) == 0 &&
          memcmp(n->name + on, "_tuple", 6) == 0 && (size_t)pn->len == on) {
        pqt_bytes b = fill(s, 't', len);
        if (!filled(&b, len)) return pqt_nomem(err);
        memcpy((uint8_t *)b.ptr, pn->ptr, on);
        memcpy((uint8_t *)b.ptr + on, "_tuple", 6);
        *name = b;
        continue;
      }
      *name = numbered(s, 'c', n->child_index + 1, len);
    }
    if (!filled(name, len)) return pqt_nomem(err);
  }
  /* path_in_schema: the new names of the leaf's path */
  for (int32_t g = 0; g < s->md.row_groups.n; g++) {
    pqt_row_group *rg = &s->md.row_groups.items[g];
    for (int32_t c = 0; c < rg->columns.n && c < sc->n_leaves; c++) {
      pqt_column_chunk *cc = &rg->columns.items[c];
      if (PQT_HAS_FIELD(cc, column_chunk, file_path)) cc->file_path = fill(s, 'f', cc->file_path.len);
      pqt_column_metadata *cm = &cc->meta_data;
      pqt_list_bytes *p = &cm->path_in_schema;
      const pqt_schema_node *leaf = sc->leaves[c];
      int32_t k = leaf->depth - 1;
      if (p->n == leaf->depth) {
        for (const pqt_schema_node *n = leaf; n && n->parent && k >= 0; n = n->parent, k--)
          p->items[k] = s->md.schema.items[n->index].name;
      } else {
        for (int32_t j = 0; j < p->n; j++) p->items[j] = fill(s, 'p', p->items[j].len);
      }
      PQT_RETURN_NOT_OK(kv_scrub(s, &cm->key_value_metadata, err));
    }
  }
  return kv_scrub(s, &s->md.key_value_metadata, err);
}

/* ---- values ---- */

/* p[0..n): the values section of a page holding at most max_values values. */
static pqt_status values_scrub(scrub *s, chunk_state *cs, const pqt_schema_node *leaf, int32_t encoding, uint8_t *p,
                               size_t n, int64_t max_values, pqt_error *err) {
  bool fixed = leaf->physical_type == PQT_FIXED_LEN_BYTE_ARRAY;
  int64_t w = leaf->type_length;
  switch (encoding) {
    case PQT_ENCODING_PLAIN:
      if (fixed) {
        memset(p, 'x', n);
        return add_len(s, cs, w, err);
      }
      for (size_t i = 0; i + 4 <= n;) {
        uint32_t l = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
        if (l > n - i - 4) return pqt_corrupt(err, "a PLAIN value of %u bytes runs past the page", l);
        memset(p + i + 4, 'x', l);
        PQT_RETURN_NOT_OK(add_len(s, cs, l, err));
        i += 4 + (size_t)l;
      }
      return PQT_OK;
    case PQT_ENCODING_PLAIN_DICTIONARY:
    case PQT_ENCODING_RLE_DICTIONARY: return PQT_OK; /* indexes: the dictionary page holds the values */
    case PQT_ENCODING_BYTE_STREAM_SPLIT: memset(p, 'x', n); return add_len(s, cs, w, err);
    case PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY:
    case PQT_ENCODING_DELTA_BYTE_ARRAY: {
      /* one (DELTA_LENGTH) or two (prefix, suffix) length blocks, then the bytes */
      int blocks = encoding == PQT_ENCODING_DELTA_BYTE_ARRAY ? 2 : 1;
      size_t at = 0;
      int32_t *lens[2] = {NULL, NULL};
      uint64_t count = 0;
      pqt_status st = PQT_OK;
      for (int b = 0; b < blocks && st == PQT_OK; b++) {
        pqt_delta_bp_decoder d;
        st = pqt_delta_bp_init(&d, p + at, n - at, true, err);
        if (st != PQT_OK) break;
        uint64_t total = pqt_delta_bp_total(&d);
        if (max_values < 0 || total > (uint64_t)max_values) {
          st = pqt_corrupt(err, "a DELTA length block claims %llu values, the page %lld", (unsigned long long)total,
                           (long long)max_values);
          break;
        }
        if (b == 0) count = total;
        else if (total != count) {
          st = pqt_corrupt(err, "DELTA_BYTE_ARRAY: %llu prefixes, %llu suffixes", (unsigned long long)count,
                           (unsigned long long)total);
          break;
        }
        lens[b] = pqt_mem_alloc(s->r->alloc, (size_t)(total ? total : 1) * sizeof(int32_t));
        if (!lens[b]) {
          st = pqt_nomem(err);
          break;
        }
        st = pqt_delta_bp_get_i32(&d, lens[b], (size_t)total, err);
        size_t used = 0;
        if (st == PQT_OK) st = pqt_delta_bp_finish(&d, &used, p + at, err);
        at += used;
      }
      for (uint64_t i = 0; st == PQT_OK && i < count; i++) {
        int64_t l = (int64_t)lens[blocks - 1][i] + (blocks == 2 ? lens[0][i] : 0);
        if (l < 0) st = pqt_corrupt(err, "a negative length in a DELTA length block");
        else st = add_len(s, cs, l, err);
      }
      if (st == PQT_OK && at <= n) memset(p + at, 'x', n - at);
      for (int b = 0; b < 2; b++)
        if (lens[b]) pqt_mem_free(s->r->alloc, lens[b], (size_t)(count ? count : 1) * sizeof(int32_t));
      return st;
    }
    default: {
      char t[24];
      return pqt_error_set(err, PQT_EUNSUPPORTED, "scrub: values in encoding %s",
                           pqt_enum_label(&pqt_enum_encoding, encoding, t, sizeof t));
    }
  }
}

static int bit_width(int v) {
  int w = 0;
  while (v >> w) w++;
  return w;
}

/* Skip a v1 level section; *at moves past it. */
static pqt_status skip_levels(const uint8_t *p, size_t n, size_t *at, int32_t encoding, int max, int32_t num_values,
                              pqt_error *err) {
  if (max <= 0) return PQT_OK;
  if (encoding == PQT_ENCODING_BIT_PACKED) {
    size_t bytes = ((size_t)num_values * (size_t)bit_width(max) + 7) / 8;
    if (bytes > n - *at) return pqt_corrupt(err, "BIT_PACKED levels run past the page");
    *at += bytes;
    return PQT_OK;
  }
  if (n - *at < 4) return pqt_corrupt(err, "levels run past the page");
  uint32_t l = (uint32_t)p[*at] | (uint32_t)p[*at + 1] << 8 | (uint32_t)p[*at + 2] << 16 | (uint32_t)p[*at + 3] << 24;
  if (l > n - *at - 4) return pqt_corrupt(err, "levels of %u bytes run past the page", l);
  *at += 4 + (size_t)l;
  return PQT_OK;
}

/* Read and decode the page header at pos (at most up to end). */
static pqt_status read_header(scrub *s, uint64_t pos, uint64_t end, pqt_buf *hb, pqt_page_header *h, size_t *used,
                              pqt_error *err) {
  size_t want = 256;
  for (;;) {
    size_t n = (uint64_t)want < end - pos ? want : (size_t)(end - pos);
    hb->len = 0;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(hb, n, err));
    PQT_RETURN_NOT_OK(s->src->read_at(s->src->private_data, pos, hb->data, n, err));
    pqt_error he;
    pqt_error_init(&he);
    if (pqt_thrift_decode(&pqt_desc_page_header, hb->data, n, used, NULL, h, &he) == PQT_OK) return PQT_OK;
    if (n == end - pos || want >= (16u << 20))
      return pqt_corrupt(err, "bad page header at offset %llu: %s", (unsigned long long)pos, he.message);
    want *= 4;
  }
}

static pqt_status page_scrub(scrub *s, chunk_state *cs, const pqt_schema_node *leaf, int32_t codec, pqt_page_header *h,
                             const uint8_t *body, size_t blen, pqt_buf *plain, pqt_buf *nb, pqt_error *err) {
  nb->len = 0;
  plain->len = 0;
  int32_t t = h->type;
  size_t usize = h->uncompressed_page_size > 0 ? (size_t)h->uncompressed_page_size : 0;
  if (usize > (size_t)s->r->opts.max_page_bytes && s->r->opts.max_page_bytes > 0)
    return pqt_error_set(err, PQT_ELIMIT, "a page of %zu bytes uncompressed is over the limit", usize);
  if (t == PQT_PAGE_DATA_V2) {
    const pqt_data_page_header_v2 *d = &h->data_page_header_v2;
    if (d->definition_levels_byte_length < 0 || d->repetition_levels_byte_length < 0 ||
        (size_t)d->definition_levels_byte_length + (size_t)d->repetition_levels_byte_length > blen ||
        (size_t)d->definition_levels_byte_length + (size_t)d->repetition_levels_byte_length > usize)
      return pqt_corrupt(err, "v2 level lengths run past the page");
    size_t lv = (size_t)d->definition_levels_byte_length + (size_t)d->repetition_levels_byte_length;
    bool compressed =
        (!PQT_HAS_FIELD(d, data_page_header_v2, is_compressed) || d->is_compressed) && codec != PQT_CODEC_UNCOMPRESSED;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(plain, usize - lv, err));
    if (compressed)
      PQT_RETURN_NOT_OK(
          pqt_codec_decompress(s->r->codec_ctx, codec, body + lv, blen - lv, plain->data, usize - lv, err));
    else if (blen - lv != usize - lv) return pqt_corrupt(err, "an uncompressed v2 page of the wrong size");
    else if (usize > lv) memcpy(plain->data, body + lv, usize - lv);
    plain->len = usize - lv;
    PQT_RETURN_NOT_OK(values_scrub(s, cs, leaf, d->encoding, plain->data, plain->len, d->num_values, err));
    PQT_RETURN_NOT_OK(pqt_buf_append(nb, body, lv, err));
    if (compressed) return pqt_codec_compress(s->r->codec_ctx, codec, 0, plain->data, plain->len, nb, err);
    return pqt_buf_append(nb, plain->data, plain->len, err);
  }
  PQT_RETURN_NOT_OK(pqt_buf_reserve(plain, usize, err));
  if (codec != PQT_CODEC_UNCOMPRESSED)
    PQT_RETURN_NOT_OK(pqt_codec_decompress(s->r->codec_ctx, codec, body, blen, plain->data, usize, err));
  else if (blen != usize) return pqt_corrupt(err, "an uncompressed page of the wrong size");
  else if (usize) memcpy(plain->data, body, usize);
  plain->len = usize;
  size_t at = 0;
  int32_t enc;
  int64_t max_values;
  if (t == PQT_PAGE_DATA) {
    const pqt_data_page_header *d = &h->data_page_header;
    PQT_RETURN_NOT_OK(
        skip_levels(plain->data, plain->len, &at, d->repetition_level_encoding, leaf->max_rep, d->num_values, err));
    PQT_RETURN_NOT_OK(
        skip_levels(plain->data, plain->len, &at, d->definition_level_encoding, leaf->max_def, d->num_values, err));
    enc = d->encoding;
    max_values = d->num_values;
  } else {
    enc = PQT_ENCODING_PLAIN; /* dictionary pages are PLAIN (PLAIN_DICTIONARY in old files) */
    max_values = h->dictionary_page_header.num_values;
  }
  PQT_RETURN_NOT_OK(values_scrub(s, cs, leaf, enc, plain->data + at, plain->len - at, max_values, err));
  if (codec != PQT_CODEC_UNCOMPRESSED)
    return pqt_codec_compress(s->r->codec_ctx, codec, 0, plain->data, plain->len, nb, err);
  return pqt_buf_append(nb, plain->data, plain->len, err);
}

static pqt_status chunk_write(scrub *s, int32_t g, int32_t c, chunk_state *cs, pqt_error *err) {
  pqt_column_metadata *cm = &s->md.row_groups.items[g].columns.items[c].meta_data;
  const pqt_schema_node *leaf = s->r->schema->leaves[c];
  uint64_t pos = cs->old_start, end = cs->old_start + cs->old_len;
  cs->new_start = s->out.pos;
  pqt_buf hb, body, plain, nb, hdr;
  pqt_buf_init(&hb, s->r->alloc);
  pqt_buf_init(&body, s->r->alloc);
  pqt_buf_init(&plain, s->r->alloc);
  pqt_buf_init(&nb, s->r->alloc);
  pqt_buf_init(&hdr, s->r->alloc);
  pqt_status st = PQT_OK;
  for (int32_t index = 0; st == PQT_OK && pos < end; index++) {
    pqt_page_header h;
    size_t used = 0;
    st = read_header(s, pos, end, &hb, &h, &used, err);
    if (st != PQT_OK) break;
    if (h.compressed_page_size < 0 || (uint64_t)h.compressed_page_size > end - pos - used) {
      st = pqt_corrupt(err, "page %d at offset %llu runs past the column chunk", index, (unsigned long long)pos);
      break;
    }
    size_t blen = (size_t)h.compressed_page_size;
    body.len = 0;
    st = pqt_buf_reserve(&body, blen, err);
    if (st == PQT_OK && blen) st = s->src->read_at(s->src->private_data, pos + used, body.data, blen, err);
    if (st != PQT_OK) break;
    body.len = blen;
    const pqt_buf *outb = &body;
    bool data = h.type == PQT_PAGE_DATA || h.type == PQT_PAGE_DATA_V2 || h.type == PQT_PAGE_DICTIONARY;
    if (cs->scrub && data) {
      st = page_scrub(s, cs, leaf, cm->codec, &h, body.data, blen, &plain, &nb, err);
      if (st != PQT_OK) {
        pqt_error_prefix(err, "page %d", index);
        break;
      }
      outb = &nb;
      if (h.type == PQT_PAGE_DATA && PQT_HAS_FIELD(&h.data_page_header, data_page_header, statistics))
        stats_scrub(s, &h.data_page_header.statistics, err);
      if (h.type == PQT_PAGE_DATA_V2 && PQT_HAS_FIELD(&h.data_page_header_v2, data_page_header_v2, statistics))
        stats_scrub(s, &h.data_page_header_v2.statistics, err);
      if (outb->len > INT32_MAX) {
        st = pqt_error_set(err, PQT_ELIMIT, "page %d: recompressed page over 2 GiB", index);
        break;
      }
      h.compressed_page_size = (int32_t)outb->len;
      if (PQT_HAS_FIELD(&h, page_header, crc)) h.crc = (int32_t)pqt_crc32(0, outb->data, outb->len);
      hdr.len = 0;
      st = pqt_thrift_encode(&pqt_desc_page_header, &h, &hdr, err);
      if (st != PQT_OK) break;
    } else {
      hdr.len = 0;
      st = pqt_buf_append(&hdr, hb.data, used, err);
      if (st != PQT_OK) break;
    }
    cs->uncompressed_delta += (int64_t)hdr.len - (int64_t)used;
    st = map_add(s, &cs->map, (int64_t)pos, (int64_t)s->out.pos, (int32_t)(hdr.len + outb->len), err);
    if (st == PQT_OK) st = emit(&s->out, hdr.data, hdr.len, err);
    if (st == PQT_OK) st = emit(&s->out, outb->data, outb->len, err);
    pos += used + blen;
  }
  cs->new_len = s->out.pos - cs->new_start;
  pqt_buf_free(&hb);
  pqt_buf_free(&body);
  pqt_buf_free(&plain);
  pqt_buf_free(&nb);
  pqt_buf_free(&hdr);
  if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", g, leaf->dotted_path);
  return st;
}

/* ---- indexes and Bloom filters ---- */

static pqt_status read_region(scrub *s, int64_t off, int64_t len, pqt_buf *b, pqt_error *err) {
  if (off < 0 || len < 0 || (uint64_t)off > s->r->io.size || (uint64_t)len > s->r->io.size - (uint64_t)off)
    return pqt_corrupt(err, "a region of %lld bytes at %lld is outside the file", (long long)len, (long long)off);
  b->len = 0;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, (size_t)len, err));
  if (len) PQT_RETURN_NOT_OK(s->r->io.read_at(s->r->io.private_data, (uint64_t)off, b->data, (size_t)len, err));
  b->len = (size_t)len;
  return PQT_OK;
}

static int ord(pqt_bytes a, pqt_bytes b) { return a.len < b.len ? -1 : a.len > b.len; }

static pqt_status column_index_write(scrub *s, pqt_column_chunk *cc, const chunk_state *cs, pqt_buf *b,
                                     pqt_error *err) {
  if (!PQT_HAS_FIELD(cc, column_chunk, column_index_offset)) return PQT_OK;
  PQT_RETURN_NOT_OK(read_region(s, cc->column_index_offset, cc->column_index_length, b, err));
  uint64_t at = s->out.pos;
  if (cs->scrub) {
    pqt_column_index ci;
    PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_column_index, b->data, b->len, NULL, &s->arena, &ci, err));
    for (int32_t i = 0; i < ci.min_values.n && i < ci.max_values.n; i++) {
      ci.min_values.items[i] = fill(s, 'a', ci.min_values.items[i].len);
      ci.max_values.items[i] = fill(s, 'z', ci.max_values.items[i].len);
    }
    /* the order of the new bounds is the order of their lengths */
    int want = ci.boundary_order == PQT_BOUNDARY_ORDER_ASCENDING    ? 1
               : ci.boundary_order == PQT_BOUNDARY_ORDER_DESCENDING ? -1
                                                                    : 0;
    int32_t prev = -1;
    for (int32_t i = 0; want && i < ci.min_values.n && i < ci.max_values.n && i < ci.null_pages.n; i++) {
      if (ci.null_pages.items[i]) continue;
      if (prev >= 0 && (ord(ci.min_values.items[i], ci.min_values.items[prev]) == -want ||
                        ord(ci.max_values.items[i], ci.max_values.items[prev]) == -want))
        want = 0;
      prev = i;
    }
    if (want == 0) ci.boundary_order = PQT_BOUNDARY_ORDER_UNORDERED;
    b->len = 0;
    PQT_RETURN_NOT_OK(pqt_thrift_encode(&pqt_desc_column_index, &ci, b, err));
  }
  PQT_RETURN_NOT_OK(emit(&s->out, b->data, b->len, err));
  cc->column_index_offset = (int64_t)at;
  cc->column_index_length = (int32_t)b->len;
  return PQT_OK;
}

static pqt_status offset_index_write(scrub *s, pqt_column_chunk *cc, const chunk_state *cs, pqt_buf *b,
                                     pqt_error *err) {
  if (!PQT_HAS_FIELD(cc, column_chunk, offset_index_offset)) return PQT_OK;
  PQT_RETURN_NOT_OK(read_region(s, cc->offset_index_offset, cc->offset_index_length, b, err));
  pqt_offset_index oi;
  PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_offset_index, b->data, b->len, NULL, &s->arena, &oi, err));
  for (int32_t i = 0; i < oi.page_locations.n; i++) {
    pqt_page_location *l = &oi.page_locations.items[i];
    int64_t k = map_find(&cs->map, l->offset);
    if (k < 0) return pqt_corrupt(err, "offset index: no page starts at offset %lld", (long long)l->offset);
    l->offset = cs->map.new_off[k];
    l->compressed_page_size = cs->map.new_size[k];
  }
  uint64_t at = s->out.pos;
  b->len = 0;
  PQT_RETURN_NOT_OK(pqt_thrift_encode(&pqt_desc_offset_index, &oi, b, err));
  PQT_RETURN_NOT_OK(emit(&s->out, b->data, b->len, err));
  cc->offset_index_offset = (int64_t)at;
  cc->offset_index_length = (int32_t)b->len;
  return PQT_OK;
}

static pqt_status bloom_write(scrub *s, pqt_column_metadata *cm, const chunk_state *cs, pqt_buf *b, pqt_error *err) {
  if (!PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset)) return PQT_OK;
  int64_t off = cm->bloom_filter_offset, len;
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length)) {
    len = cm->bloom_filter_length;
  } else { /* the header says how long the bitset is */
    int64_t piece = (int64_t)s->r->io.size - off < 256 ? (int64_t)s->r->io.size - off : 256;
    PQT_RETURN_NOT_OK(read_region(s, off, piece, b, err));
    pqt_bloom_filter_header bh;
    size_t used = 0;
    PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_bloom_filter_header, b->data, b->len, &used, NULL, &bh, err));
    if (bh.num_bytes < 0) return pqt_corrupt(err, "Bloom filter of %d bytes", bh.num_bytes);
    len = (int64_t)used + bh.num_bytes;
  }
  PQT_RETURN_NOT_OK(read_region(s, off, len, b, err));
  uint64_t at = s->out.pos;
  if (cs->scrub) {
    pqt_bloom bl;
    size_t used = 0;
    PQT_RETURN_NOT_OK(pqt_bloom_parse(b->data, b->len, s->r->alloc, &bl, &used, err));
    memset(bl.words, 0, (size_t)bl.n_blocks * 32);
    pqt_buf x;
    pqt_buf_init(&x, s->r->alloc);
    pqt_status st = PQT_OK;
    for (int64_t l = 0; st == PQT_OK && l < (int64_t)sizeof cs->small * 8; l++)
      if (cs->small[l >> 3] >> (l & 7) & 1) {
        x.len = 0;
        st = pqt_buf_reserve(&x, (size_t)l + 1, err);
        if (st == PQT_OK) memset(x.data, 'x', (size_t)l), pqt_bloom_insert(&bl, pqt_bloom_hash(x.data, (size_t)l));
      }
    for (size_t i = 0; st == PQT_OK && i < cs->n_big; i++) {
      x.len = 0;
      st = pqt_buf_reserve(&x, (size_t)cs->big[i], err);
      if (st == PQT_OK)
        memset(x.data, 'x', (size_t)cs->big[i]), pqt_bloom_insert(&bl, pqt_bloom_hash(x.data, (size_t)cs->big[i]));
    }
    b->len = 0;
    if (st == PQT_OK) st = pqt_bloom_serialize(&bl, b, err);
    pqt_bloom_free(&bl);
    pqt_buf_free(&x);
    PQT_RETURN_NOT_OK(st);
  }
  PQT_RETURN_NOT_OK(emit(&s->out, b->data, b->len, err));
  cm->bloom_filter_offset = (int64_t)at;
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length)) cm->bloom_filter_length = (int32_t)b->len;
  return PQT_OK;
}

/* ---- the file ---- */

static int64_t map_offset(const chunk_state *cs, int64_t old) {
  int64_t k = map_find(&cs->map, old);
  if (k >= 0) return cs->map.new_off[k];
  if ((uint64_t)old == cs->old_start + cs->old_len) return (int64_t)(cs->new_start + cs->new_len);
  return old == 0 ? 0 : (int64_t)cs->new_start;
}

static pqt_status run(scrub *s, pqt_error *err) {
  pqt_reader *r = s->r;
  PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_file_metadata, r->footer, r->footer_len, NULL, &s->arena, &s->md, err));
  int32_t ng = s->md.row_groups.n, nc = r->schema->n_leaves;
  s->ncol = nc;
  for (int32_t g = 0; g < ng; g++)
    if (s->md.row_groups.items[g].columns.n != nc)
      return pqt_corrupt(err, "row group %d has %d column chunks for %d columns", g,
                         s->md.row_groups.items[g].columns.n, nc);
  s->chunks = pqt_mem_calloc(r->alloc, sizeof *s->chunks * (size_t)(ng > 0 && nc > 0 ? ng * nc : 1));
  if (!s->chunks) return pqt_nomem(err);
  PQT_RETURN_NOT_OK(emit(&s->out, "PAR1", 4, err));
  for (int32_t g = 0; g < ng; g++)
    for (int32_t c = 0; c < nc; c++) {
      pqt_chunk ch;
      /* pages in another file (file_path) are read from it and copied into this one */
      pqt_status st = pqt_chunk_open_data(r, g, c, &ch, err);
      chunk_state *cs = &s->chunks[g * nc + c];
      cs->old_start = ch.start;
      cs->old_len = ch.len;
      if (st != PQT_OK) {
        pqt_chunk_close(&ch);
        pqt_error_prefix(err, "row group %d, column %s", g, r->schema->leaves[c]->dotted_path);
        return st;
      }
      if (ch.external) {
        pqt_column_chunk *occ = &s->md.row_groups.items[g].columns.items[c];
        occ->isset &= ~PQT_FIELD_MASK(column_chunk, file_path);
      }
      s->src = pqt_chunk_io(r, &ch);
      cs->scrub = scrub_leaf(r->schema->leaves[c]);
      st = chunk_write(s, g, c, cs, err);
      s->src = NULL;
      pqt_chunk_close(&ch);
      PQT_RETURN_NOT_OK(st);
    }
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  pqt_status st = PQT_OK;
  for (int pass = 0; pass < 3 && st == PQT_OK; pass++)
    for (int32_t g = 0; g < ng && st == PQT_OK; g++)
      for (int32_t c = 0; c < nc && st == PQT_OK; c++) {
        pqt_column_chunk *cc = &s->md.row_groups.items[g].columns.items[c];
        const chunk_state *cs = &s->chunks[g * nc + c];
        if (pass == 0) st = column_index_write(s, cc, cs, &b, err);
        else if (pass == 1) st = offset_index_write(s, cc, cs, &b, err);
        else st = bloom_write(s, &cc->meta_data, cs, &b, err);
        if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", g, r->schema->leaves[c]->dotted_path);
      }
  /* offsets and sizes of the chunks and row groups */
  for (int32_t g = 0; g < ng && st == PQT_OK; g++) {
    pqt_row_group *rg = &s->md.row_groups.items[g];
    int64_t comp = 0, delta = 0;
    for (int32_t c = 0; c < nc; c++) {
      pqt_column_chunk *cc = &rg->columns.items[c];
      pqt_column_metadata *cm = &cc->meta_data;
      const chunk_state *cs = &s->chunks[g * nc + c];
      if (PQT_HAS_FIELD(rg, row_group, file_offset) && rg->file_offset == (int64_t)cs->old_start && c == 0)
        rg->file_offset = (int64_t)cs->new_start;
      cc->file_offset = map_offset(cs, cc->file_offset);
      cm->data_page_offset = map_offset(cs, cm->data_page_offset);
      if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset))
        cm->dictionary_page_offset = map_offset(cs, cm->dictionary_page_offset);
      if (PQT_HAS_FIELD(cm, column_metadata, index_page_offset))
        cm->index_page_offset = map_offset(cs, cm->index_page_offset);
      cm->total_compressed_size = (int64_t)cs->new_len;
      cm->total_uncompressed_size += cs->uncompressed_delta;
      comp += (int64_t)cs->new_len;
      delta += cs->uncompressed_delta;
      if (cs->scrub && PQT_HAS_FIELD(cm, column_metadata, statistics)) st = stats_scrub(s, &cm->statistics, err);
    }
    if (PQT_HAS_FIELD(rg, row_group, total_compressed_size)) rg->total_compressed_size = comp;
    rg->total_byte_size += delta;
  }
  if (st == PQT_OK) st = names_scrub(s, err);
  if (st == PQT_OK) {
    b.len = 0;
    st = pqt_thrift_encode(&pqt_desc_file_metadata, &s->md, &b, err);
  }
  if (st == PQT_OK && b.len > UINT32_MAX) st = pqt_error_set(err, PQT_ELIMIT, "scrub: footer over 4 GiB");
  if (st == PQT_OK) {
    uint32_t n = (uint32_t)b.len;
    uint8_t tail[8] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24), 'P', 'A', 'R', '1'};
    st = emit(&s->out, b.data, b.len, err);
    if (st == PQT_OK) st = emit(&s->out, tail, 8, err);
  }
  pqt_buf_free(&b);
  return st;
}

PQT_API pqt_status pqt_reader_scrub(pqt_reader *r, pqt_write_fn write, void *ctx, pqt_error *err) {
  if (!r || !write) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_scrub: bad arguments");
  if (r->crypto) return pqt_error_set(err, PQT_EUNSUPPORTED, "scrub: encrypted files are not scrubbed");
  /* A union member this version does not know (a newer column order or
   * logical type) cannot be written again: refused, as concat/prune do. */
  if (PQT_HAS_FIELD(&r->md, file_metadata, column_orders))
    for (int32_t i = 0; i < r->md.column_orders.n; i++)
      if (r->md.column_orders.items[i].isset == 0)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "scrub: column %d has a column order this version does not know",
                             (int)i);
  for (int32_t i = 0; i < r->md.schema.n; i++)
    if (PQT_HAS_FIELD(&r->md.schema.items[i], schema_element, logical_type) &&
        r->md.schema.items[i].logical_type.isset == 0)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "scrub: field %d has a logical type this version does not know",
                           (int)i);
  scrub s;
  memset(&s, 0, sizeof s);
  s.r = r;
  s.out.write = write;
  s.out.ctx = ctx;
  pqt_arena_init(&s.arena, r->alloc);
  pqt_status st = run(&s, err);
  if (s.chunks) {
    size_t n = (size_t)s.md.row_groups.n * (size_t)s.ncol;
    for (size_t i = 0; i < n; i++) {
      chunk_state *cs = &s.chunks[i];
      pqt_mem_free(r->alloc, cs->map.old_off, cs->map.cap * sizeof(int64_t));
      pqt_mem_free(r->alloc, cs->map.new_off, cs->map.cap * sizeof(int64_t));
      pqt_mem_free(r->alloc, cs->map.new_size, cs->map.cap * sizeof(int32_t));
      pqt_mem_free(r->alloc, cs->big, cs->cap_big * sizeof(int64_t));
    }
    pqt_mem_free(r->alloc, s.chunks, sizeof *s.chunks * (n ? n : 1));
  }
  pqt_arena_reset(&s.arena);
  return st;
}
