/*
 * file/verify.c: pqt_reader_verify, a full check of a file, reporting
 * every problem found rather than stopping at the first:
 *   - every page of every column chunk: header, CRC, decompression, and
 *     decoding of levels and values (the reader's own decoders);
 *   - the chunk's value count against its metadata;
 *   - chunk statistics against the decoded data: null_count (flat
 *     columns), min/max as bounds of the values in the column's sort order
 *     (exact when is_min/max_value_exact says so);
 *   - the offset index against the pages actually found;
 *   - the Bloom filter: every value of the chunk must be in it.
 * Spec: "Checksumming", "Statistics" and "Page Index" sections, and the
 * ColumnOrder rules of parquet.thrift.
 */
#include <math.h>
#include <stdio.h>

#include "column/column_reader.h"
#include "meta/bloom.h"
#include "file/row_group.h"
#include "page/page_reader.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct vctx {
  pqt_reader *r;
  pqt_buf out;
  int64_t problems;
  pqt_write_fn write;
  void *ctx;
} vctx;

static void problem(vctx *v, int32_t g, const char *col, const char *fmt, ...) PQT_PRINTF(4, 5);
static void problem(vctx *v, int32_t g, const char *col, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  v->problems++;
  if (g >= 0) pqt_buf_printf(&v->out, NULL, "row group %d, column %s: %s\n", g, col, msg);
  else pqt_buf_printf(&v->out, NULL, "%s\n", msg);
}

/* -1, 0, 1 comparing two plain-encoded values in the column's sort order;
 * 2 when the type has no order (INT96, INTERVAL...). */
static int compare_values(const pqt_schema_node *leaf, const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  int lt = pqt_union_which(leaf->logical.isset);
  int ct = leaf->converted_type;
  bool is_unsigned = (lt == PQT_LT_INTEGER && !leaf->logical.integer.is_signed) ||
                     (lt == 0 && ct >= PQT_CT_UINT_8 && ct <= PQT_CT_UINT_64);
  switch (leaf->physical_type) {
    case PQT_BOOLEAN:
      return an && bn ? ((a[0] & 1) > (b[0] & 1)) - ((a[0] & 1) < (b[0] & 1)) : 2;
    case PQT_INT32: {
      if (an != 4 || bn != 4) return 2;
      uint32_t x = pqt_load_u32le(a), y = pqt_load_u32le(b);
      if (is_unsigned) return (x > y) - (x < y);
      return ((int32_t)x > (int32_t)y) - ((int32_t)x < (int32_t)y);
    }
    case PQT_INT64: {
      if (an != 8 || bn != 8) return 2;
      uint64_t x = pqt_load_u64le(a), y = pqt_load_u64le(b);
      if (is_unsigned) return (x > y) - (x < y);
      return ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y);
    }
    case PQT_FLOAT: {
      if (an != 4 || bn != 4) return 2;
      uint32_t xb = pqt_load_u32le(a), yb = pqt_load_u32le(b);
      float x, y;
      memcpy(&x, &xb, 4);
      memcpy(&y, &yb, 4);
      if (isnan(x) || isnan(y)) return 2;
      return (x > y) - (x < y);
    }
    case PQT_DOUBLE: {
      if (an != 8 || bn != 8) return 2;
      uint64_t xb = pqt_load_u64le(a), yb = pqt_load_u64le(b);
      double x, y;
      memcpy(&x, &xb, 8);
      memcpy(&y, &yb, 8);
      if (isnan(x) || isnan(y)) return 2;
      return (x > y) - (x < y);
    }
    case PQT_BYTE_ARRAY:
    case PQT_FIXED_LEN_BYTE_ARRAY: {
      if (lt == PQT_LT_DECIMAL || ct == PQT_CT_DECIMAL) {
        /* signed big-endian two's complement of possibly different lengths */
        bool na = an && (a[0] & 0x80), nb = bn && (b[0] & 0x80);
        if (na != nb) return na ? -1 : 1;
        size_t n = an > bn ? an : bn;
        for (size_t i = 0; i < n; i++) {
          uint8_t x = i + an >= n ? a[i + an - n] : (na ? 0xFF : 0);
          uint8_t y = i + bn >= n ? b[i + bn - n] : (nb ? 0xFF : 0);
          if (x != y) return x < y ? -1 : 1;
        }
        return 0;
      }
      if (lt == PQT_LT_FLOAT16 || ct == PQT_CT_INTERVAL || lt == PQT_LT_GEOMETRY || lt == PQT_LT_GEOGRAPHY ||
          lt == PQT_LT_VARIANT)
        return 2;
      size_t n = an < bn ? an : bn;
      int c = n ? memcmp(a, b, n) : 0;
      if (c) return c < 0 ? -1 : 1;
      return (an > bn) - (an < bn);
    }
    default:
      return 2;
  }
}

static void check_statistics(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_column_metadata *cm,
                             const pqt_column_data *cd) {
  const pqt_statistics *s = &cm->statistics;
  if (!PQT_HAS(cm, 12)) return;
  if (PQT_HAS(s, 3) && leaf->max_rep == 0) {
    int64_t nulls = cd->n_levels - cd->n_values;
    if (s->null_count != nulls)
      problem(v, g, leaf->dotted_path, "statistics say %lld nulls, the data has %lld", (long long)s->null_count,
              (long long)nulls);
  }
  bool typed_order = PQT_HAS(s, 5) || PQT_HAS(s, 6);
  if (!typed_order || cd->n_values == 0) return;
  /* the actual min and max over the decoded values */
  size_t w = pqt_physical_width(leaf->physical_type, leaf->type_length);
  const uint8_t *mn = NULL, *mx = NULL;
  size_t mnl = 0, mxl = 0;
  uint8_t bool_val[2] = {0, 1};
  for (int64_t i = 0; i < cd->n_values; i++) {
    const uint8_t *p;
    size_t n;
    if (leaf->physical_type == PQT_BYTE_ARRAY) {
      const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
      p = cd->values.data + o[i];
      n = (size_t)(o[i + 1] - o[i]);
    } else if (leaf->physical_type == PQT_BOOLEAN) {
      p = &bool_val[(cd->values.data[i >> 3] >> (i & 7)) & 1];
      n = 1;
    } else {
      p = pqt_column_values(cd) + (size_t)i * w;
      n = w;
    }
    int c1 = mn ? compare_values(leaf, p, n, mn, mnl) : -1;
    if (c1 == 2) {
      if ((leaf->physical_type == PQT_FLOAT || leaf->physical_type == PQT_DOUBLE)) continue; /* NaN: not ordered */
      return;                                                                                /* no order */
    }
    if (c1 < 0) { mn = p; mnl = n; }
    int c2 = mx ? compare_values(leaf, p, n, mx, mxl) : 1;
    if (c2 > 0 && c2 != 2) { mx = p; mxl = n; }
  }
  if (!mn) return; /* only NaNs */
  if (PQT_HAS(s, 6)) {
    int c = compare_values(leaf, s->min_value.ptr, (size_t)s->min_value.len, mn, mnl);
    bool exact = PQT_HAS(s, 8) && s->is_min_value_exact;
    if (c == 1 || (exact && c == -1))
      problem(v, g, leaf->dotted_path, "statistics min_value is %s the smallest value", c == 1 ? "above" : "not");
  }
  if (PQT_HAS(s, 5)) {
    int c = compare_values(leaf, s->max_value.ptr, (size_t)s->max_value.len, mx, mxl);
    bool exact = PQT_HAS(s, 7) && s->is_max_value_exact;
    if (c == -1 || (exact && c == 1))
      problem(v, g, leaf->dotted_path, "statistics max_value is %s the largest value", c == -1 ? "below" : "not");
  }
}

/* Walk the pages (CRC as a report) and compare with the offset index. */
static bool check_pages(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_column_chunk *cc,
                        uint64_t start, uint64_t len) {
  pqt_reader *r = v->r;
  const pqt_column_metadata *cm = &cc->meta_data;
  pqt_page_reader_options po;
  pqt_page_reader_options_init(&po);
  po.verify_crc = true;
  po.crc_report_only = true;
  po.max_def = leaf->max_def;
  po.max_rep = leaf->max_rep;
  pqt_page_reader pr;
  pqt_error e;
  pqt_error_init(&e);
  uint64_t data_offsets[4096];
  int32_t n_data = 0;
  bool broken = false;
  if (pqt_page_reader_init(&pr, &r->io, start, len, cm->codec, r->codec_ctx, &po, r->data_alloc, &e) == PQT_OK) {
    for (;;) {
      pqt_page pg;
      bool eof;
      if (pqt_page_reader_next(&pr, &pg, &eof, &e) != PQT_OK) {
        problem(v, g, leaf->dotted_path, "page %d: %s", pr.current, e.message);
        broken = true;
        break;
      }
      if (eof) break;
      if (pg.crc_mismatch) {
        problem(v, g, leaf->dotted_path, "page %d: CRC32 mismatch", pg.index);
        broken = true;
      }
      if (pg.type != PQT_PAGE_DICTIONARY && n_data < 4096) data_offsets[n_data++] = pg.file_offset;
    }
  } else {
    problem(v, g, leaf->dotted_path, "%s", e.message);
    broken = true;
  }
  pqt_page_reader_free(&pr);
  if (!PQT_HAS(cc, 4) || !PQT_HAS(cc, 5)) return broken;
  if (cc->offset_index_offset < 0 || cc->offset_index_length <= 0 ||
      (uint64_t)cc->offset_index_offset + (uint64_t)cc->offset_index_length > r->io.size) {
    problem(v, g, leaf->dotted_path, "offset index [%lld, +%d) lies outside the file", (long long)cc->offset_index_offset,
            cc->offset_index_length);
    return broken;
  }
  if (PQT_HAS(cc, 8)) return broken; /* encrypted index: not checked here */
  pqt_buf raw;
  pqt_buf_init(&raw, r->alloc);
  pqt_arena arena;
  pqt_arena_init(&arena, r->alloc);
  pqt_offset_index oi;
  if (pqt_buf_reserve(&raw, (size_t)cc->offset_index_length, &e) == PQT_OK &&
      r->io.read_at(r->io.private_data, (uint64_t)cc->offset_index_offset, raw.data, (size_t)cc->offset_index_length,
                    &e) == PQT_OK &&
      pqt_thrift_decode(&pqt_desc_offset_index, raw.data, (size_t)cc->offset_index_length, NULL, &arena, &oi, &e) ==
          PQT_OK) {
    if (oi.page_locations.n != n_data) {
      problem(v, g, leaf->dotted_path, "offset index lists %d pages, the chunk has %d data pages", oi.page_locations.n,
              n_data);
    } else {
      for (int32_t i = 0; i < n_data; i++)
        if ((uint64_t)oi.page_locations.items[i].offset != data_offsets[i]) {
          problem(v, g, leaf->dotted_path, "offset index page %d at %lld, the page is at %llu", i,
                  (long long)oi.page_locations.items[i].offset, (unsigned long long)data_offsets[i]);
          break;
        }
    }
  } else {
    problem(v, g, leaf->dotted_path, "offset index: %s", e.message);
  }
  pqt_arena_reset(&arena);
  pqt_buf_free(&raw);
  return broken;
}

/* Every non-null value of the chunk must test positive in its Bloom filter
 * (XXH64 of the plain encoding; BOOLEAN columns have none). */
static void check_bloom(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_column_chunk *cc,
                        const pqt_column_data *cd) {
  const pqt_column_metadata *cm = &cc->meta_data;
  if (!PQT_HAS(cm, 14) || PQT_HAS(cc, 8) || leaf->physical_type == PQT_BOOLEAN) return;
  pqt_reader *r = v->r;
  uint64_t off = (uint64_t)cm->bloom_filter_offset;
  uint64_t len = PQT_HAS(cm, 15) && cm->bloom_filter_length > 0 ? (uint64_t)cm->bloom_filter_length : 0;
  if (cm->bloom_filter_offset < 4 || off >= r->io.size) {
    problem(v, g, leaf->dotted_path, "bloom_filter_offset %lld lies outside the file", (long long)cm->bloom_filter_offset);
    return;
  }
  if (!len || len > r->io.size - off) len = r->io.size - off; /* the header says how much is the filter */
  if (len > ((uint64_t)128 << 20) + 64) len = ((uint64_t)128 << 20) + 64;
  pqt_buf raw;
  pqt_buf_init(&raw, r->alloc);
  pqt_error e;
  pqt_error_init(&e);
  pqt_bloom b;
  memset(&b, 0, sizeof b);
  if (pqt_buf_reserve(&raw, (size_t)len, &e) != PQT_OK ||
      r->io.read_at(r->io.private_data, off, raw.data, (size_t)len, &e) != PQT_OK ||
      pqt_bloom_parse(raw.data, (size_t)len, r->alloc, &b, NULL, &e) != PQT_OK) {
    problem(v, g, leaf->dotted_path, "Bloom filter: %s", e.message);
  } else {
    size_t w = pqt_physical_width(leaf->physical_type, leaf->type_length);
    int64_t missing = 0, first = -1;
    for (int64_t i = 0; i < cd->n_values; i++) {
      uint64_t h;
      if (leaf->physical_type == PQT_BYTE_ARRAY) {
        const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
        h = pqt_bloom_hash(cd->values.data + o[i], (size_t)(o[i + 1] - o[i]));
      } else {
        h = pqt_bloom_hash(pqt_column_values(cd) + (size_t)i * w, w);
      }
      if (!pqt_bloom_check(&b, h)) {
        if (first < 0) first = i;
        missing++;
      }
    }
    if (missing)
      problem(v, g, leaf->dotted_path, "Bloom filter misses %lld of the chunk's values (the first is value %lld)",
              (long long)missing, (long long)first);
    pqt_bloom_free(&b);
  }
  pqt_buf_free(&raw);
}

PQT_API pqt_status pqt_reader_verify(pqt_reader *r, pqt_write_fn write, void *ctx, int64_t *n_problems,
                                     pqt_error *err) {
  if (!r || !write) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_verify: bad arguments");
  vctx v = {r, {0}, 0, write, ctx};
  pqt_buf_init(&v.out, r->alloc);
  pqt_status st = PQT_OK;
  int64_t rows = 0;
  for (int32_t g = 0; g < r->md.row_groups.n && st == PQT_OK; g++) {
    const pqt_row_group *rg = &r->md.row_groups.items[g];
    rows += rg->num_rows;
    for (int32_t c = 0; c < r->schema->n_leaves && st == PQT_OK; c++) {
      const pqt_schema_node *leaf = r->schema->leaves[c];
      const pqt_column_chunk *cc = &rg->columns.items[c];
      if (!PQT_HAS(cc, 3) || PQT_HAS(cc, 8)) {
        if (!PQT_HAS(cc, 3) && !PQT_HAS(cc, 9)) problem(&v, g, leaf->dotted_path, "column chunk has no metadata");
        continue;
      }
      uint64_t start = 0, len = 0;
      pqt_error e;
      pqt_error_init(&e);
      if (pqt_chunk_range(r, &cc->meta_data, &start, &len, &e) != PQT_OK) {
        problem(&v, g, leaf->dotted_path, "%s", e.message);
        continue;
      }
      /* pages that could not be walked are reported once, not again by the decoder */
      if (check_pages(&v, g, leaf, cc, start, len)) continue;
      pqt_column_data cd;
      pqt_column_data_init(&cd, r->data_alloc);
      pqt_status rs = pqt_row_group_read_leaf(r, g, c, &cd, &e);
      if (rs == PQT_ENOMEM) st = pqt_nomem(err);
      else if (rs != PQT_OK) problem(&v, -1, "", "%s", e.message);
      else if (rs == PQT_OK) {
        if (cd.n_levels != cc->meta_data.num_values)
          problem(&v, g, leaf->dotted_path, "metadata says %lld values, the pages hold %lld",
                  (long long)cc->meta_data.num_values, (long long)cd.n_levels);
        check_statistics(&v, g, leaf, &cc->meta_data, &cd);
        check_bloom(&v, g, leaf, cc, &cd);
      }
      pqt_column_data_free(&cd);
      if (v.out.len > (64u << 10)) {
        if (write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK) st = pqt_error_set(err, PQT_EIO, "write failed");
        v.out.len = 0;
      }
    }
  }
  if (st == PQT_OK && r->md.num_rows != rows)
    problem(&v, -1, "", "footer says %lld rows, the row groups hold %lld", (long long)r->md.num_rows, (long long)rows);
  if (st == PQT_OK && v.out.len && write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK)
    st = pqt_error_set(err, PQT_EIO, "write failed");
  pqt_buf_free(&v.out);
  if (n_problems) *n_problems = v.problems;
  return st;
}
