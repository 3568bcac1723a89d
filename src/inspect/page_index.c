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

#define BLOOM_MAX_BYTES   ((int64_t)128 << 20)
#define BLOOM_HEADER_READ 256 /* a BloomFilterHeader takes about 15 bytes */

static pqt_status chunk_decryptor(pqt_reader *r, int32_t rg, int32_t col, const pqt_column_chunk *cc,
                                  pqt_module_decryptor *dec, pqt_error *err) {
  const char *path = r->schema->leaves[col]->dotted_path;
  if (!r->crypto)
    return pqt_error_set(err, PQT_ECRYPTO,
                         "row group %d, column %s: encrypted, but the file has no encryption algorithm", rg, path);
  pqt_status st = pqt_file_decryptor_column(
      r->crypto, cc, path, pqt_file_decryptor_row_group_ordinal(&r->md.row_groups.items[rg], rg), col, dec, err);
  if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", rg, path);
  return st;
}

/* Bytes [off, off+len) of the file into b (replacing what it held). */
static pqt_status read_range(pqt_reader *r, int64_t off, int64_t len, pqt_buf *b, pqt_error *err) {
  if (off < 0 || len <= 0 || (uint64_t)off > r->io.size || (uint64_t)len > r->io.size - (uint64_t)off)
    return pqt_corrupt(err, "[%lld, +%lld) lies outside the file", (long long)off, (long long)len);
  pqt_buf_clear(b);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, (size_t)len, err));
  PQT_RETURN_NOT_OK(r->io.read_at(r->io.private_data, (uint64_t)off, b->data, (size_t)len, err));
  b->len = (size_t)len;
  return PQT_OK;
}

/* ---- page index ---------------------------------------------------------------- */

typedef struct pi_priv {
  const pqt_allocator *alloc;
  pqt_arena arena;
  pqt_buf raw[2];   /* the stored structs; byte views point into raw or plain */
  pqt_buf plain[2]; /* decrypted */
} pi_priv;

static void pi_priv_free(pi_priv *p) {
  if (!p) return;
  pqt_arena_reset(&p->arena);
  for (int i = 0; i < 2; i++) {
    pqt_buf_free(&p->raw[i]);
    pqt_buf_free(&p->plain[i]);
  }
  pqt_mem_free(p->alloc, p, sizeof *p);
}

PQT_API void pqt_page_index_free(pqt_page_index *pi) {
  if (!pi) return;
  size_t sz = pi->struct_size;
  if (sz >= sizeof(pqt_page_index)) pi_priv_free(pi->private_data);
  memset(pi, 0, sz < sizeof *pi ? sz : sizeof *pi);
  pi->struct_size = sz;
}

static pqt_status load_struct(pqt_reader *r, int64_t off, int64_t len, const pqt_module_decryptor *dec, int module,
                              const pqt_thrift_desc *desc, pqt_buf *raw, pqt_buf *plain, pqt_arena *arena, void *out,
                              pqt_error *err) {
  PQT_RETURN_NOT_OK(read_range(r, off, len, raw, err));
  if (dec) return pqt_decrypt_thrift_module(dec, module, desc, raw->data, raw->len, NULL, plain, arena, out, err);
  return pqt_thrift_decode(desc, raw->data, raw->len, NULL, arena, out, err);
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

static pqt_status fill_offset_index(const pqt_offset_index *oi, pqt_arena *a, pqt_page_index *pi, pqt_error *err) {
  int32_t n = oi->page_locations.n;
  if (PQT_HAS_FIELD(oi, offset_index, unencoded_byte_array_data_bytes) && oi->unencoded_byte_array_data_bytes.n != n)
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
  pi->unencoded_byte_array_data_bytes = PQT_HAS_FIELD(oi, offset_index, unencoded_byte_array_data_bytes)
                                            ? oi->unencoded_byte_array_data_bytes.items
                                            : NULL;
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_page_index(pqt_reader *r, int32_t rg, int32_t col, pqt_page_index *out, pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_page_index: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_page_index), "pqt_page_index", err));
  const pqt_column_chunk *cc;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const char *path = r->schema->leaves[col]->dotted_path;
  pqt_module_decryptor dec;
  bool encrypted = PQT_HAS_FIELD(cc, column_chunk, crypto_metadata);
  if (encrypted) PQT_RETURN_NOT_OK(chunk_decryptor(r, rg, col, cc, &dec, err));
  pi_priv *p = pqt_mem_calloc(r->alloc, sizeof *p);
  if (!p) {
    if (encrypted) pqt_module_decryptor_wipe(&dec);
    return pqt_nomem(err);
  }
  p->alloc = pqt_alloc_or_default(r->alloc);
  pqt_arena_init(&p->arena, r->alloc);
  for (int i = 0; i < 2; i++) {
    pqt_buf_init(&p->raw[i], r->alloc);
    pqt_buf_init(&p->plain[i], r->alloc);
  }
  pqt_page_index pi;
  memset(&pi, 0, sizeof pi);
  pqt_status st = PQT_OK;
  if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset) && PQT_HAS_FIELD(cc, column_chunk, column_index_length)) {
    pqt_column_index ci;
    st = load_struct(r, cc->column_index_offset, cc->column_index_length, encrypted ? &dec : NULL,
                     PQT_MODULE_COLUMN_INDEX, &pqt_desc_column_index, &p->raw[0], &p->plain[0], &p->arena, &ci, err);
    if (st == PQT_OK) st = fill_column_index(r, col, &ci, &p->arena, &pi, err);
  }
  if (st == PQT_OK && PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) &&
      PQT_HAS_FIELD(cc, column_chunk, offset_index_length)) {
    pqt_offset_index oi;
    st = load_struct(r, cc->offset_index_offset, cc->offset_index_length, encrypted ? &dec : NULL,
                     PQT_MODULE_OFFSET_INDEX, &pqt_desc_offset_index, &p->raw[1], &p->plain[1], &p->arena, &oi, err);
    if (st == PQT_OK) st = fill_offset_index(&oi, &p->arena, &pi, err);
  }
  if (encrypted) pqt_module_decryptor_wipe(&dec);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "row group %d, column %s", rg, path);
    pi_priv_free(p);
    return st;
  }
  pi.private_data = p;
  size_t caller = out->struct_size;
  pi.struct_size = caller;
  memcpy(out, &pi, caller < sizeof pi ? caller : sizeof pi);
  return PQT_OK;
}

/* ---- Bloom filter probe ---------------------------------------------------------- */

static pqt_status check_bloom_header(const pqt_bloom_filter_header *h, pqt_error *err) {
  if (h->num_bytes < 32 || h->num_bytes > BLOOM_MAX_BYTES || (h->num_bytes % 32) != 0)
    return pqt_corrupt(err, "Bloom filter: numBytes %d is not a multiple of 32 in [32, 128 MiB]", h->num_bytes);
  if (h->algorithm != (1u << 1) || h->hash != (1u << 1) || h->compression != (1u << 1))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "Bloom filter: not a split-block, XXHASH, uncompressed filter");
  return PQT_OK;
}

static pqt_status bloom_probe(pqt_reader *r, int32_t rg, int32_t col, const pqt_column_chunk *cc, uint64_t hash,
                              int *result, pqt_error *err) {
  const pqt_column_metadata *cm = &cc->meta_data;
  int64_t off = cm->bloom_filter_offset;
  if (off < 4 || (uint64_t)off >= r->io.size)
    return pqt_corrupt(err, "bloom_filter_offset %lld lies outside the file", (long long)off);
  uint64_t avail = r->io.size - (uint64_t)off;
  if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) && cm->bloom_filter_length > 0 &&
      (uint64_t)cm->bloom_filter_length < avail)
    avail = (uint64_t)cm->bloom_filter_length;
  uint32_t words[8];
  pqt_status st;
  if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) {
    /* encrypted: header and bitset are two modules, read whole */
    if (avail > (uint64_t)BLOOM_MAX_BYTES + 4096) avail = (uint64_t)BLOOM_MAX_BYTES + 4096;
    pqt_module_decryptor dec;
    PQT_RETURN_NOT_OK(chunk_decryptor(r, rg, col, cc, &dec, err));
    pqt_buf raw, bits;
    pqt_buf_init(&raw, r->alloc);
    pqt_buf_init(&bits, r->alloc);
    pqt_bloom_filter_header h = {0}; /* set by the decrypt; zeroed for the paths cppcheck follows */
    st = read_range(r, off, (int64_t)avail, &raw, err);
    if (st == PQT_OK) st = pqt_decrypt_bloom_filter(&dec, raw.data, raw.len, &h, &bits, NULL, err);
    if (st == PQT_OK) st = check_bloom_header(&h, err);
    if (st == PQT_OK && bits.len < (size_t)h.num_bytes) st = pqt_corrupt(err, "Bloom filter: bitset cut short");
    if (st == PQT_OK) {
      uint32_t n_blocks = (uint32_t)(h.num_bytes / 32);
      uint32_t blk = (uint32_t)(((hash >> 32) * (uint64_t)n_blocks) >> 32);
      for (int i = 0; i < 8; i++) words[i] = pqt_load_u32le(bits.data + (size_t)blk * 32 + 4 * (size_t)i);
    }
    pqt_module_decryptor_wipe(&dec);
    pqt_buf_free(&raw);
    pqt_buf_free(&bits);
  } else {
    /* the header is about 15 bytes: read a small window, a larger one if it was cut */
    uint8_t head[BLOOM_HEADER_READ];
    pqt_bloom_filter_header h;
    size_t used = 0;
    for (size_t win = 64;; win = sizeof head) {
      size_t n = avail < win ? (size_t)avail : win;
      PQT_RETURN_NOT_OK(r->io.read_at(r->io.private_data, (uint64_t)off, head, n, err));
      st = pqt_thrift_decode(&pqt_desc_bloom_filter_header, head, n, &used, NULL, &h, err);
      if (st == PQT_OK) break;
      if (n == avail || win == sizeof head) {
        pqt_error_prefix(err, "Bloom filter header");
        return st;
      }
    }
    PQT_RETURN_NOT_OK(check_bloom_header(&h, err));
    if ((uint64_t)h.num_bytes > r->io.size - (uint64_t)off - used)
      return pqt_corrupt(err, "Bloom filter: %d bytes do not fit in the file", h.num_bytes);
    if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) && cm->bloom_filter_length > 0 &&
        used + (uint64_t)h.num_bytes > (uint64_t)cm->bloom_filter_length)
      return pqt_corrupt(err, "Bloom filter: header and %d bytes pass bloom_filter_length %d", h.num_bytes,
                         cm->bloom_filter_length);
    uint32_t n_blocks = (uint32_t)(h.num_bytes / 32);
    uint32_t blk = (uint32_t)(((hash >> 32) * (uint64_t)n_blocks) >> 32);
    uint8_t block[32];
    st = r->io.read_at(r->io.private_data, (uint64_t)off + used + (uint64_t)blk * 32, block, sizeof block, err);
    if (st == PQT_OK)
      for (int i = 0; i < 8; i++) words[i] = pqt_load_u32le(block + 4 * i);
  }
  if (st != PQT_OK) return st;
  /* the selected block as a one-block filter: block index 0 */
  pqt_bloom one;
  memset(&one, 0, sizeof one);
  one.words = words;
  one.n_blocks = 1;
  *result = pqt_bloom_check(&one, hash) ? 1 : 0;
  return PQT_OK;
}

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
    st = bloom_probe(r, rg, col, cc, h, result, err);
    if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", rg, leaf->dotted_path);
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
  const pqt_schema_node *leaf = r->schema->leaves[col];  // NOLINT(clang-analyzer-core.NullDereference): pqt_meta_chunk refused a NULL r
  if (cm->type != leaf->physical_type)
    return pqt_corrupt(err, "row group %d, column %s: chunk type %d differs from the schema's %d", rg,
                       leaf->dotted_path, cm->type, leaf->physical_type);
  uint64_t start = 0, len = 0;
  /* a chunk in another file (file_path) is read there (pqt_chunk_open_data) */
  bool ext = PQT_HAS_FIELD(cc, column_chunk, file_path) && cc->file_path.len > 0;
  pqt_chunk ch;
  memset(&ch, 0, sizeof ch);
  pqt_status st = ext ? pqt_chunk_open_data(r, rg, col, &ch, err) : pqt_chunk_range(r, cm, &start, &len, err);
  if (st != PQT_OK) {
    pqt_chunk_close(&ch);
    pqt_error_prefix(err, "row group %d, column %s", rg, leaf->dotted_path);
    return st;
  }
  if (ext) {
    start = ch.start;
    len = ch.len;
  }
  bool encrypted = PQT_HAS_FIELD(cc, column_chunk, crypto_metadata);
  pqt_module_decryptor dec;
  if (encrypted) PQT_RETURN_NOT_OK(chunk_decryptor(r, rg, col, cc, &dec, err));
  pqt_page_reader_options po;
  pqt_reader_page_options(r, &po);
  po.max_def = leaf->max_def;
  po.max_rep = leaf->max_rep;
  if (encrypted) {
    po.decryptor = &dec;
    po.dictionary_first = PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0;
  }
  pqt_page_reader pr;
  st = pqt_page_reader_init(&pr, ext ? &ch.ext : &r->io, start, len, cm->codec, r->codec_ctx, &po, r->data_alloc, err);
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
  }
  pqt_chunk_close(&ch);
  if (encrypted) pqt_module_decryptor_wipe(&dec);
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
