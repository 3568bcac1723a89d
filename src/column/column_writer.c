/*
 * column/column_writer: a column chunk writer (parquet-format README.md "Column chunks",
 * "Data Pages" v1/v2, "Nested Encoding", Encodings.md for every value
 * encoding, "Page Index" (ColumnIndex/OffsetIndex, SizeStatistics),
 * "Checksumming", BloomFilter.md). See column_writer.h.
 */
#include "column/column_writer.h"

#include <math.h>

#include "column/column_reader.h"
#include "encoding/alp.h"
#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/delta_length_byte_array.h"
#include "encoding/plain.h"
#include "encoding/rle.h"
#include "levels/levels.h"
#include "meta/schema.h"
#include "page/page_writer.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#define SLICE_LEVELS 4096

typedef struct page_info {
  int64_t offset; /* in cw->pages */
  int64_t first_row;
  int64_t nulls, nans, ba_bytes;
  int32_t size; /* header + body */
  uint32_t min_off, min_len, max_off, max_len;
  uint8_t null_page, has_bounds, min_exact, max_exact;
} page_info;

bool pqt_encoding_fits(int32_t enc, int32_t physical) {
  switch (enc) {
    case PQT_ENC_PLAIN: return true;
    case PQT_ENC_RLE: return physical == PQT_BOOLEAN;
    case PQT_ENC_DELTA_BINARY_PACKED: return physical == PQT_INT32 || physical == PQT_INT64;
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY: return physical == PQT_BYTE_ARRAY;
    case PQT_ENC_DELTA_BYTE_ARRAY: return physical == PQT_BYTE_ARRAY || physical == PQT_FIXED_LEN_BYTE_ARRAY;
    case PQT_ENC_BYTE_STREAM_SPLIT:
      return physical == PQT_INT32 || physical == PQT_INT64 || physical == PQT_FLOAT || physical == PQT_DOUBLE ||
             physical == PQT_FIXED_LEN_BYTE_ARRAY;
    case PQT_ENC_ALP: return physical == PQT_FLOAT || physical == PQT_DOUBLE;
    default: return false;
  }
}

pqt_status pqt_column_writer_init(pqt_column_writer *cw, const pqt_column_options *o, int32_t physical,
                                  int32_t type_length, int16_t max_def, int16_t max_rep,
                                  const pqt_logical_type *logical, int32_t converted_type, pqt_codec_ctx *codec,
                                  const pqt_allocator *alloc, pqt_error *err) {
  memset(cw, 0, sizeof *cw);
  cw->alloc = pqt_alloc_or_default(alloc);
  cw->o = *o;
  cw->physical = physical;
  cw->type_length = type_length;
  /* one value's bytes: the writer takes BOOLEAN as one byte 0/1 a value,
   * where pqt_physical_width (the reader's dense layout) counts bits as 0 */
  cw->width = physical == PQT_BOOLEAN ? 1 : pqt_physical_width(physical, type_length);
  cw->max_def = max_def;
  cw->max_rep = max_rep;
  cw->codec = codec;
  int l = logical ? pqt_union_which(logical->isset) : 0;
  cw->utf8 = pqt_is_text_type(l, converted_type);
  cw->sort = pqt_sort_kind_for(physical, logical, converted_type);
  /* GEOMETRY/GEOGRAPHY: sort_kind is PQT_SORT_NONE, so no min/max
   * Statistics and no ColumnIndex are written (see emit); the chunk gets
   * GeospatialStatistics from every non-null value instead. */
  if (physical == PQT_BYTE_ARRAY && (l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY)) {
    cw->geo = true;
    pqt_geo_edges edges = PQT_GEO_EDGES_PLANAR;
    if (l == PQT_LT_GEOGRAPHY) /* SPHERICAL (0, the default) or an ellipsoidal algorithm */
      edges = PQT_HAS_FIELD(&logical->geography, geography_type, algorithm) && logical->geography.algorithm != PQT_EDGE_SPHERICAL
                  ? PQT_GEO_EDGES_ELLIPSOIDAL
                  : PQT_GEO_EDGES_GEOGRAPHY;
    pqt_geo_bbox_init(&cw->geo_box, edges);
  }
  if (cw->o.page_version != 1 && cw->o.page_version != 2)
    return pqt_error_set(err, PQT_EINVAL, "page version %d (1 or 2)", cw->o.page_version);
  if (!pqt_codec_is_available(cw->o.codec))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "codec %s is not available in this build", pqt_codec_name(cw->o.codec));
  if (cw->o.page_size <= 0) cw->o.page_size = 1 << 20;
  if (cw->o.page_row_limit <= 0) cw->o.page_row_limit = 20000;
  if (cw->o.dictionary_page_size_limit <= 0) cw->o.dictionary_page_size_limit = 1 << 20;
  int32_t enc = cw->o.encoding;
  if (enc == PQT_ENC_RLE_DICTIONARY || enc == PQT_ENC_PLAIN_DICTIONARY) {
    cw->o.dictionary = 1;
    enc = -1;
  }
  if (enc < 0) {
    enc = PQT_ENC_PLAIN;
    if (cw->o.page_version == 2) {
      if (physical == PQT_INT32 || physical == PQT_INT64) enc = PQT_ENC_DELTA_BINARY_PACKED;
      else if (physical == PQT_BYTE_ARRAY && cw->sort != PQT_SORT_DECIMAL_BE)
        enc = PQT_ENC_DELTA_LENGTH_BYTE_ARRAY; /* DuckDB reads delta only for strings/blobs */
      else if (physical == PQT_BOOLEAN) enc = PQT_ENC_RLE;
    }
  } else if (!pqt_encoding_fits(enc, physical)) {
    return pqt_error_set(err, PQT_EINVAL, "encoding %s does not apply to physical type %s", PQT_ENCODING_NAME(enc),
                         PQT_TYPE_NAME(physical));
  }
  cw->value_encoding = enc;
  cw->dict_on = cw->o.dictionary && physical != PQT_BOOLEAN;
  cw->stats_on = (cw->o.statistics || cw->o.page_index);
  pqt_buf *bufs[] = {&cw->def, &cw->rep,       &cw->vals,    &cw->offs, &cw->idx,   &cw->dict_page, &cw->pages,
                     &cw->pi,  &cw->pi_bounds, &cw->pi_hist, &cw->s_lv, &cw->s_val, &cw->s_comp,    &cw->s_body,
                     &cw->s_crypt};
  // NOLINTNEXTLINE(bugprone-sizeof-expression): bufs holds pointers, sizeof *bufs is one pointer
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) pqt_buf_init(bufs[i], cw->alloc);
  pqt_stats_init(&cw->pg_stats, cw->sort, cw->width, cw->alloc);
  pqt_stats_init(&cw->ck_stats, cw->sort, cw->width, cw->alloc);
  pqt_dict_builder_init(&cw->dict, physical == PQT_BYTE_ARRAY ? 0 : cw->width, cw->alloc);
  size_t nh = (size_t)(max_def + 1) + (size_t)(max_rep + 1);
  cw->pg_hist = pqt_mem_calloc(cw->alloc, nh * sizeof(int64_t));
  cw->ck_hist = pqt_mem_calloc(cw->alloc, nh * sizeof(int64_t));
  if (!cw->pg_hist || !cw->ck_hist) return pqt_nomem(err);
  if (cw->o.bloom_filter && physical != PQT_BOOLEAN) {
    size_t nb = pqt_bloom_optimal_bytes(cw->o.bloom_ndv > 0 ? cw->o.bloom_ndv : 100000,
                                        cw->o.bloom_fpp > 0 ? cw->o.bloom_fpp : 0.01);
    PQT_RETURN_NOT_OK(pqt_bloom_init(&cw->bloom, nb, cw->alloc, err));
    cw->bloom_blocks = cw->bloom.n_blocks;
    cw->bloom_on = true;
  }
  return PQT_OK;
}

int32_t pqt_column_writer_set_order(pqt_column_writer *cw, bool float_total, bool int96) {
  pqt_sort_kind k = cw->sort;
  if (float_total && pqt_sort_kind_is_float(k)) k = pqt_sort_kind_total(k);
  else if (int96 && cw->physical == PQT_INT96) k = PQT_SORT_INT96;
  cw->sort = k;
  cw->pg_stats.kind = cw->ck_stats.kind = k;
  if (k == PQT_SORT_INT96) return PQT_ORDER_INT96_TIMESTAMP;
  if (k == PQT_SORT_FLOAT_TOTAL || k == PQT_SORT_DOUBLE_TOTAL || k == PQT_SORT_FLOAT16_TOTAL)
    return PQT_ORDER_IEEE_754_TOTAL;
  return PQT_ORDER_TYPE;
}

void pqt_column_writer_free(pqt_column_writer *cw) {
  pqt_buf *bufs[] = {&cw->def, &cw->rep,       &cw->vals,    &cw->offs, &cw->idx,   &cw->dict_page, &cw->pages,
                     &cw->pi,  &cw->pi_bounds, &cw->pi_hist, &cw->s_lv, &cw->s_val, &cw->s_comp,    &cw->s_body,
                     &cw->s_crypt};
  // NOLINTNEXTLINE(bugprone-sizeof-expression): bufs holds pointers, sizeof *bufs is one pointer
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) pqt_buf_free(bufs[i]);
  pqt_stats_free(&cw->pg_stats);
  pqt_stats_free(&cw->ck_stats);
  pqt_dict_builder_free(&cw->dict);
  size_t nh = (size_t)(cw->max_def + 1) + (size_t)(cw->max_rep + 1);
  if (cw->pg_hist) pqt_mem_free(cw->alloc, cw->pg_hist, nh * sizeof(int64_t));
  if (cw->ck_hist) pqt_mem_free(cw->alloc, cw->ck_hist, nh * sizeof(int64_t));
  cw->pg_hist = cw->ck_hist = NULL;
  if (cw->bloom_on) pqt_bloom_free(&cw->bloom);
}

int64_t pqt_column_writer_buffered(const pqt_column_writer *cw) {
  int64_t open = (int64_t)(cw->vals.len + cw->idx.len / 2 + cw->def.len / 4);
  return (int64_t)(cw->pages.len + cw->dict_page.len) + (cw->dict_on ? (int64_t)cw->dict.plain.len : 0) + open / 2;
}

/* ---- encoding and emitting one page ------------------------------------ */

static pqt_status encode_values(pqt_column_writer *cw, int32_t enc, pqt_buf *out, pqt_error *err) {
  size_t n = (size_t)cw->pg_values;
  static const int32_t zero_offsets[1] = {0};
  const int32_t *offs = cw->offs.data ? (const int32_t *)(const void *)cw->offs.data : zero_offsets;
  if (!cw->vals.data) PQT_RETURN_NOT_OK(pqt_buf_reserve(&cw->vals, 16, err));
  if (!cw->idx.data) PQT_RETURN_NOT_OK(pqt_buf_reserve(&cw->idx, 16, err));
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, 16, err)); /* encoders may memset/memcpy 0 bytes at data */
  switch (enc) {
    case PQT_ENC_RLE_DICTIONARY: {
      unsigned bw = pqt_dict_builder_index_width(&cw->dict);
      uint8_t b = (uint8_t)bw;
      PQT_RETURN_NOT_OK(pqt_buf_append(out, &b, 1, err));
      return pqt_rle_encode_u32((const uint32_t *)cw->idx.data, n, bw, out, err);
    }
    case PQT_ENC_PLAIN:
      if (cw->physical == PQT_BOOLEAN) return pqt_plain_encode_bool_bytes(cw->vals.data, n, out, err);
      if (cw->physical == PQT_BYTE_ARRAY) return pqt_plain_encode_byte_array(offs, cw->vals.data, n, out, err);
      return pqt_plain_encode_fixed(cw->vals.data, cw->width, n, out, err);
    case PQT_ENC_RLE: {
      PQT_RETURN_NOT_OK(pqt_buf_reserve(out, 4, err));
      size_t at = out->len;
      out->len += 4;
      PQT_RETURN_NOT_OK(pqt_rle_encode_bool_bytes(cw->vals.data, n, out, err));
      pqt_store_u32le(out->data + at, (uint32_t)(out->len - at - 4));
      return PQT_OK;
    }
    case PQT_ENC_DELTA_BINARY_PACKED:
      if (cw->physical == PQT_INT32)
        return pqt_delta_bp_encode_i32((const int32_t *)(const void *)cw->vals.data, n, out, err);
      return pqt_delta_bp_encode_i64((const int64_t *)(const void *)cw->vals.data, n, out, err);
    case PQT_ENC_DELTA_LENGTH_BYTE_ARRAY: return pqt_delta_length_encode(offs, cw->vals.data, n, out, err);
    case PQT_ENC_DELTA_BYTE_ARRAY:
      if (cw->physical == PQT_BYTE_ARRAY) return pqt_delta_byte_array_encode(offs, cw->vals.data, n, out, err);
      return pqt_delta_byte_array_encode_fixed(cw->vals.data, cw->width, n, out, err);
    case PQT_ENC_BYTE_STREAM_SPLIT: return pqt_bss_encode(cw->vals.data, cw->width, n, out, err);
    case PQT_ENC_ALP: return pqt_alp_encode(cw->vals.data, cw->width, n, out, err);
    default: return pqt_error_set(err, PQT_EINVAL, "encoding %s not writable", PQT_ENCODING_NAME(enc));
  }
}

/* The min/max of st as written (truncated, -0/+0 normalised) into tmin and
 * tmax; *has false when there are none (all nulls, or a type without an
 * order: INT96, INTERVAL, UNKNOWN, ...). pqt_stats_bounds answers false for
 * both "none" and a failure, so a local error tells them apart (the
 * caller's pqt_error is output only and never read). */
static pqt_status stats_bounds(pqt_column_writer *cw, const pqt_stats *st, pqt_buf *tmin, pqt_buf *tmax, bool *mne,
                               bool *mxe, bool *has, pqt_error *err) {
  pqt_error e;
  pqt_error_init(&e);
  *has = pqt_stats_bounds(st, cw->o.statistics_truncate_length, cw->utf8, tmin, tmax, mne, mxe, &e);
  if (!*has && e.code != PQT_OK) {
    if (err) *err = e;
    return e.code;
  }
  return PQT_OK;
}

static pqt_status fill_stats(pqt_column_writer *cw, const pqt_stats *st, pqt_arena *arena, pqt_statistics *out,
                             pqt_buf *tmin, pqt_buf *tmax, pqt_error *err) {
  memset(out, 0, sizeof *out);
  out->null_count = st->null_count;
  PQT_SET_FIELD(out, statistics, null_count);
  if (pqt_sort_kind_is_float(cw->sort)) {
    out->nan_count = st->nan_count;
    PQT_SET_FIELD(out, statistics, nan_count);
  }
  pqt_buf_clear(tmin);
  pqt_buf_clear(tmax);
  bool mne, mxe, has;
  PQT_RETURN_NOT_OK(stats_bounds(cw, st, tmin, tmax, &mne, &mxe, &has, err));
  if (!has) return PQT_OK;
  const uint8_t *mn = tmin->data ? tmin->data : (const uint8_t *)"";
  const uint8_t *mx = tmax->data ? tmax->data : (const uint8_t *)"";
  if (arena) {
    uint8_t *a = pqt_arena_alloc(arena, tmin->len + 1), *b = pqt_arena_alloc(arena, tmax->len + 1);
    if (!a || !b) return pqt_nomem(err);
    memcpy(a, mn, tmin->len);
    memcpy(b, mx, tmax->len);
    mn = a;
    mx = b;
  }
  out->min_value = (pqt_bytes){mn, (int64_t)tmin->len};
  out->max_value = (pqt_bytes){mx, (int64_t)tmax->len};
  PQT_SET_FIELD(out, statistics, max_value);
  PQT_SET_FIELD(out, statistics, min_value);
  out->is_max_value_exact = mxe;
  out->is_min_value_exact = mne;
  PQT_SET_FIELD(out, statistics, is_max_value_exact);
  PQT_SET_FIELD(out, statistics, is_min_value_exact);
  if (pqt_sort_kind_legacy_ok(cw->sort)) {
    out->min = out->min_value;
    out->max = out->max_value;
    PQT_SET_FIELD(out, statistics, max);
    PQT_SET_FIELD(out, statistics, min);
  }
  return PQT_OK;
}

static pqt_status compress_into(pqt_column_writer *cw, const uint8_t *src, size_t n, pqt_buf *out, pqt_error *err) {
  if (cw->o.codec == PQT_CODEC_UNCOMPRESSED) return pqt_buf_append(out, src, n, err);
  return pqt_codec_compress(cw->codec, cw->o.codec, cw->o.codec_level, src, n, out, err);
}

/* Distinct values a column would show over many draws, estimated from
 * d distinct among the first n (uniform draws: d = N (1 - e^(-n/N))).
 * Returns a huge value when d is (nearly) n. */
static double estimate_domain(double n, double d) {
  if (d >= n * 0.995) return 1e18;
  double lo = d, hi = 1e15;
  for (int i = 0; i < 80; i++) {
    double mid = (lo + hi) / 2;
    if (mid * (1 - exp(-n / mid)) < d) lo = mid;
    else hi = mid;
  }
  return hi;
}

static pqt_status flush_page_ex(pqt_column_writer *cw, bool chunk_end, pqt_error *err);
static pqt_status flush_page(pqt_column_writer *cw, pqt_error *err) { return flush_page_ex(cw, false, err); }

/* Header and body to out, as modules when the column is encrypted
 * (data_page_ordinal: the data page's ordinal in the chunk, for its AAD). */
static pqt_status append_page(pqt_column_writer *cw, pqt_buf *out, pqt_page_header *h, const uint8_t *body,
                              size_t len, int32_t data_page_ordinal, size_t *hdr_len, pqt_error *err) {
  if (cw->enc)
    return pqt_page_append_encrypted(out, h, body, len, cw->o.crc != 0, cw->enc, data_page_ordinal, &cw->s_crypt,
                                     hdr_len, err);
  return pqt_page_append(out, h, body, len, cw->o.crc != 0, hdr_len, err);
}

/* The chunk's first page was kept both ways (dictionary and plain). Keep
 * the dictionary when it already pays (dictionary + indices smaller than
 * the plain values) or, when more pages follow, when the dictionary this
 * column's value domain projects to still fits its limit (values keep
 * repeating); otherwise drop it and write the page plain. */
static void settle_dictionary(pqt_column_writer *cw, bool chunk_end) {
  if (!cw->dict_on || cw->n_pages != 0 || cw->dict_used) return;
  unsigned bw = pqt_dict_builder_index_width(&cw->dict);
  int64_t dict_cost = (int64_t)cw->dict.plain.len + (cw->pg_values * (int64_t)bw + 7) / 8;
  int64_t raw_cost = (int64_t)cw->vals.len + (cw->physical == PQT_BYTE_ARRAY ? 4 * cw->pg_values : 0);
  if (cw->physical == PQT_BOOLEAN) raw_cost = cw->pg_values / 8;
  bool keep = dict_cost < raw_cost;
  if (!chunk_end && cw->dict.count > 0) {
    double dom = estimate_domain((double)cw->pg_values, (double)cw->dict.count);
    double projected = dom * ((double)cw->dict.plain.len / (double)cw->dict.count);
    bool fits = projected <= (double)cw->o.dictionary_page_size_limit;
    /* A dictionary that barely pays on the first page but whose domain
     * projects past its limit overflows a few pages later and the chunk
     * falls back to plain anyway: every value hashed for nothing, and the
     * dictionary page plus plain pages come out larger than plain alone
     * (free-text columns). It stays only when it halves the page or fits. */
    keep = fits || 2 * dict_cost < raw_cost;
  }
  if (!keep) {
    cw->dict_on = false;
    pqt_dict_builder_free(&cw->dict);
    pqt_dict_builder_init(&cw->dict, cw->physical == PQT_BYTE_ARRAY ? 0 : cw->width, cw->alloc);
  }
}

/* The open page's repetition then definition levels into s_lv: v1 each
 * run with its 4-byte length, v2 bare RLE (lengths go in the header). */
static pqt_status encode_levels(pqt_column_writer *cw, size_t *rep_len, size_t *def_len, pqt_error *err) {
  size_t nl = (size_t)cw->pg_levels;
  const int16_t *def = (const int16_t *)(const void *)cw->def.data;
  const int16_t *rep = (const int16_t *)(const void *)cw->rep.data;
  bool v2 = cw->o.page_version == 2;
  *rep_len = *def_len = 0;
  if (cw->max_rep > 0) {
    if (v2) PQT_RETURN_NOT_OK(pqt_rle_encode_levels(rep, nl, pqt_bit_width_u32((uint32_t)cw->max_rep), &cw->s_lv, err));
    else PQT_RETURN_NOT_OK(pqt_page_append_v1_levels(&cw->s_lv, rep, nl, cw->max_rep, err));
    *rep_len = cw->s_lv.len;
  }
  if (cw->max_def > 0) {
    if (v2) PQT_RETURN_NOT_OK(pqt_rle_encode_levels(def, nl, pqt_bit_width_u32((uint32_t)cw->max_def), &cw->s_lv, err));
    else PQT_RETURN_NOT_OK(pqt_page_append_v1_levels(&cw->s_lv, def, nl, cw->max_def, err));
    *def_len = cw->s_lv.len - *rep_len;
  }
  return PQT_OK;
}

/* A v1 data page: its header fields, and the body (levels and values
 * compressed together; as they are when uncompressed and no levels). */
static pqt_status v1_page(pqt_column_writer *cw, pqt_page_header *h, int32_t enc, const uint8_t **body,
                          size_t *body_len, pqt_error *err) {
  h->type = PQT_PAGE_DATA;
  pqt_data_page_header *d = &h->data_page_header;
  d->num_values = (int32_t)cw->pg_levels;
  d->encoding = enc;
  d->definition_level_encoding = PQT_ENC_RLE;
  d->repetition_level_encoding = PQT_ENC_RLE;
  d->isset |=
      PQT_FIELD_MASK(data_page_header, num_values, encoding, definition_level_encoding, repetition_level_encoding);
  if (cw->o.statistics) PQT_SET_FIELD(d, data_page_header, statistics);
  PQT_SET_FIELD(h, page_header, data_page_header);
  /* the values were encoded right after the levels in s_lv: the body as it is */
  if (cw->o.codec == PQT_CODEC_UNCOMPRESSED) {
    *body = cw->s_lv.data;
    *body_len = cw->s_lv.len;
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(compress_into(cw, cw->s_lv.data, cw->s_lv.len, &cw->s_comp, err));
  *body = cw->s_comp.data;
  *body_len = cw->s_comp.len;
  return PQT_OK;
}

/* A v2 data page: its header fields, and the body (levels as they are,
 * then the values section). The values section is stored compressed only
 * when that makes it smaller: an empty section (a page of only nulls) or
 * one the codec does not shrink is stored as is with is_compressed =
 * false (a 1-byte LZ4_RAW block for zero bytes trips some readers, e.g.
 * hyparquet, and readers are spared a decompression). */
static pqt_status v2_page(pqt_column_writer *cw, pqt_page_header *h, int32_t enc, size_t rep_len, size_t def_len,
                          const uint8_t **body, size_t *body_len, pqt_error *err) {
  h->type = PQT_PAGE_DATA_V2;
  pqt_data_page_header_v2 *d = &h->data_page_header_v2;
  d->num_values = (int32_t)cw->pg_levels;
  d->num_nulls = (int32_t)(cw->pg_levels - cw->pg_values);
  d->num_rows = (int32_t)cw->pg_rows;
  d->encoding = enc;
  d->definition_levels_byte_length = (int32_t)def_len;
  d->repetition_levels_byte_length = (int32_t)rep_len;
  d->isset |= PQT_FIELD_MASK(data_page_header_v2, num_values, num_nulls, num_rows, encoding,
                             definition_levels_byte_length, repetition_levels_byte_length);
  bool compressed = cw->o.codec != PQT_CODEC_UNCOMPRESSED && cw->s_val.len > 0;
  PQT_RETURN_NOT_OK(pqt_buf_append(&cw->s_comp, cw->s_lv.data, cw->s_lv.len, err));
  size_t values_at = cw->s_comp.len;
  if (compressed) {
    PQT_RETURN_NOT_OK(compress_into(cw, cw->s_val.data, cw->s_val.len, &cw->s_comp, err));
    if (cw->s_comp.len - values_at >= cw->s_val.len) {
      cw->s_comp.len = values_at;
      compressed = false;
    }
  }
  if (!compressed) PQT_RETURN_NOT_OK(pqt_buf_append(&cw->s_comp, cw->s_val.data, cw->s_val.len, err));
  d->is_compressed = compressed;
  PQT_SET_FIELD(d, data_page_header_v2, is_compressed);
  if (cw->o.statistics) PQT_SET_FIELD(d, data_page_header_v2, statistics);
  PQT_SET_FIELD(h, page_header, data_page_header_v2);
  *body = cw->s_comp.data;
  *body_len = cw->s_comp.len;
  return PQT_OK;
}

/* The page index entry of the page just appended at `at` of cw->pages:
 * location, counts, and with page_index its bounds (into pi_bounds, using
 * tmin/tmax as scratch) and level histograms (into pi_hist). */
static pqt_status add_page_info(pqt_column_writer *cw, size_t at, pqt_buf *tmin, pqt_buf *tmax, pqt_error *err) {
  page_info pi;
  memset(&pi, 0, sizeof pi);
  pi.offset = (int64_t)at;
  pi.size = (int32_t)(cw->pages.len - at);
  pi.first_row = cw->ck_rows;
  pi.nulls = cw->pg_levels - cw->pg_values;
  pi.nans = cw->pg_stats.nan_count;
  pi.ba_bytes = cw->pg_ba_bytes;
  /* only nulls: a page of only NaNs has values but no bounds (see the column index) */
  pi.null_page = cw->pg_values == 0;
  if (cw->o.page_index) {
    pqt_buf_clear(tmin);
    pqt_buf_clear(tmax);
    bool mne, mxe, has;
    PQT_RETURN_NOT_OK(stats_bounds(cw, &cw->pg_stats, tmin, tmax, &mne, &mxe, &has, err));
    if (has) {
      pi.has_bounds = 1;
      pi.min_off = (uint32_t)cw->pi_bounds.len;
      pi.min_len = (uint32_t)tmin->len;
      PQT_RETURN_NOT_OK(pqt_buf_append(&cw->pi_bounds, tmin->data, tmin->len, err));
      pi.max_off = (uint32_t)cw->pi_bounds.len;
      pi.max_len = (uint32_t)tmax->len;
      PQT_RETURN_NOT_OK(pqt_buf_append(&cw->pi_bounds, tmax->data, tmax->len, err));
    }
    size_t nh = (size_t)(cw->max_def + 1) + (size_t)(cw->max_rep + 1);
    PQT_RETURN_NOT_OK(pqt_buf_append(&cw->pi_hist, cw->pg_hist, nh * sizeof(int64_t), err));
  }
  return pqt_buf_append(&cw->pi, &pi, sizeof pi, err);
}

/* Add the page written (page_bytes uncompressed, header included, with
 * encoding enc) to the chunk's totals and start the next page empty. */
static pqt_status close_page(pqt_column_writer *cw, int32_t enc, size_t page_bytes, pqt_error *err) {
  cw->n_pages++;
  cw->data_uncompressed += (int64_t)page_bytes;
  cw->enc_pages[enc]++;
  if (enc == PQT_ENC_RLE_DICTIONARY) cw->dict_used = true;
  if (cw->stats_on) PQT_RETURN_NOT_OK(pqt_stats_merge(&cw->ck_stats, &cw->pg_stats, err));
  size_t nh = (size_t)(cw->max_def + 1) + (size_t)(cw->max_rep + 1);
  for (size_t i = 0; i < nh; i++) {
    cw->ck_hist[i] += cw->pg_hist[i];
    cw->pg_hist[i] = 0;
  }
  cw->ck_levels += cw->pg_levels;
  cw->ck_values += cw->pg_values;
  cw->ck_rows += cw->pg_rows;
  cw->ck_ba_bytes += cw->pg_ba_bytes;
  cw->pg_levels = cw->pg_values = cw->pg_rows = cw->pg_ba_bytes = 0;
  pqt_stats_reset(&cw->pg_stats);
  pqt_buf_clear(&cw->def);
  pqt_buf_clear(&cw->rep);
  pqt_buf_clear(&cw->vals);
  pqt_buf_clear(&cw->offs);
  pqt_buf_clear(&cw->idx);
  return PQT_OK;
}

/* Close the open page: levels and values encoded, statistics, header and
 * body (v1 or v2), appended to cw->pages, its page index entry, then the
 * chunk's totals. chunk_end: no page follows in this chunk. */
static pqt_status flush_page_ex(pqt_column_writer *cw, bool chunk_end, pqt_error *err) {
  if (cw->pg_levels == 0) return PQT_OK;
  settle_dictionary(cw, chunk_end);
  int32_t enc = cw->dict_on ? PQT_ENC_RLE_DICTIONARY : cw->value_encoding;
  pqt_buf_clear(&cw->s_lv);
  pqt_buf_clear(&cw->s_val);
  pqt_buf_clear(&cw->s_comp);
  pqt_buf_clear(&cw->s_body);
  size_t rep_len, def_len;
  PQT_RETURN_NOT_OK(encode_levels(cw, &rep_len, &def_len, err));
  bool v2 = cw->o.page_version == 2;
  /* v1: levels and values form one body, so the values go right after the
   * levels (no copy to join them); v2 keeps them apart (values compressed alone) */
  PQT_RETURN_NOT_OK(encode_values(cw, enc, v2 ? &cw->s_val : &cw->s_lv, err));
  pqt_page_header h;
  memset(&h, 0, sizeof h);
  pqt_buf tmin, tmax;
  pqt_buf_init(&tmin, cw->alloc);
  pqt_buf_init(&tmax, cw->alloc);
  pqt_status st = PQT_OK;
  pqt_statistics *ps = v2 ? &h.data_page_header_v2.statistics : &h.data_page_header.statistics;
  cw->pg_stats.null_count = cw->pg_levels - cw->pg_values;
  if (cw->o.statistics) {
    st = fill_stats(cw, &cw->pg_stats, NULL, ps, &tmin, &tmax, err);
    if (st != PQT_OK) goto done;
  }
  const uint8_t *body;
  size_t body_len;
  size_t uncompressed = cw->s_lv.len + cw->s_val.len;
  st = v2 ? v2_page(cw, &h, enc, rep_len, def_len, &body, &body_len, err) : v1_page(cw, &h, enc, &body, &body_len, err);
  if (st != PQT_OK) goto done;
  if (uncompressed > INT32_MAX) {
    st = pqt_error_set(err, PQT_ELIMIT, "page of %zu bytes is too large", uncompressed);
    goto done;
  }
  h.uncompressed_page_size = (int32_t)uncompressed;
  size_t at = cw->pages.len, hdr_len = 0;
  st = append_page(cw, &cw->pages, &h, body, body_len, cw->n_pages, &hdr_len, err);
  if (st != PQT_OK) goto done;
  st = add_page_info(cw, at, &tmin, &tmax, err);
  if (st == PQT_OK) st = close_page(cw, enc, hdr_len + uncompressed, err);
done:
  pqt_buf_free(&tmin);
  pqt_buf_free(&tmax);
  return st;
}

/* Close the dictionary: build the dictionary page and stop dictionary encoding. */
static pqt_status close_dictionary(pqt_column_writer *cw, pqt_error *err) {
  cw->dict_on = false;
  if (!cw->dict_used) return PQT_OK;
  pqt_page_header h;
  memset(&h, 0, sizeof h);
  h.type = PQT_PAGE_DICTIONARY;
  h.uncompressed_page_size = (int32_t)cw->dict.plain.len;
  h.dictionary_page_header.num_values = (int32_t)cw->dict.count;
  h.dictionary_page_header.encoding = PQT_ENC_PLAIN;
  PQT_SET_FIELD(&h.dictionary_page_header, dictionary_page_header, num_values);
  PQT_SET_FIELD(&h.dictionary_page_header, dictionary_page_header, encoding);
  PQT_SET_FIELD(&h, page_header, dictionary_page_header);
  pqt_buf_clear(&cw->s_comp);
  PQT_RETURN_NOT_OK(compress_into(cw, cw->dict.plain.data, cw->dict.plain.len, &cw->s_comp, err));
  size_t hdr = 0;
  pqt_buf_clear(&cw->dict_page);
  PQT_RETURN_NOT_OK(append_page(cw, &cw->dict_page, &h, cw->s_comp.data, cw->s_comp.len, 0, &hdr, err));
  cw->dict_page_uncompressed = (int64_t)(hdr + cw->dict.plain.len);
  cw->dict_count = (int32_t)cw->dict.count;
  pqt_dict_builder_free(&cw->dict);
  pqt_dict_builder_init(&cw->dict, cw->physical == PQT_BYTE_ARRAY ? 0 : cw->width, cw->alloc);
  return PQT_OK;
}

/* Add the slice's non-null values to the chunk's geospatial statistics.
 * Every value is checked first (into a copy of the accumulator), so an
 * invalid WKB fails the write before anything of the slice is buffered;
 * the error names the row (0-based, counted over the whole file's rows
 * written by this column writer) and the writer prefixes the column. */
static pqt_status geo_add(pqt_column_writer *cw, int64_t n, const int16_t *def, const int16_t *rep,
                          const uint8_t *values, const int32_t *offsets, pqt_error *err) {
  pqt_geo_bbox box = cw->geo_box;
  int64_t row = cw->rows_before_chunk + cw->ck_rows + cw->pg_rows - 1, v = 0;
  for (int64_t i = 0; i < n; i++) {
    if (cw->max_rep == 0 || rep[i] == 0) row++;  // NOLINT(clang-analyzer-core.NullDereference): write() checks rep
    if (cw->max_def > 0 && def[i] != cw->max_def) continue;
    const uint8_t *p = values + offsets[v];  // NOLINT(clang-analyzer-core.NullDereference): write() checks
    size_t len = (size_t)(offsets[v + 1] - offsets[v]);
    v++;
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = pqt_geo_bbox_add_wkb(&box, len ? p : (const uint8_t *)"", len, &e);
    if (st != PQT_OK) {
      if (err) *err = e;
      pqt_error_prefix(err, "row %lld: value is not valid WKB", (long long)row);
      if (err) err->code = PQT_EINVAL; /* the caller's value, not a file, is wrong */
      return PQT_EINVAL;
    }
  }
  cw->geo_box = box;
  return PQT_OK;
}

static pqt_status append_slice(pqt_column_writer *cw, int64_t n, const int16_t *def, const int16_t *rep,
                               const uint8_t *values, const int32_t *offsets, int64_t nv, pqt_error *err) {
  if (cw->geo && nv > 0) PQT_RETURN_NOT_OK(geo_add(cw, n, def, rep, values, offsets, err));
  int64_t *dh = cw->pg_hist, *rh = cw->pg_hist + cw->max_def + 1;
  if (cw->max_def > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_append(&cw->def, def, (size_t)n * 2, err));
    pqt_levels_histogram(def, n, cw->max_def, dh);
  } else {
    dh[0] += n;
  }
  if (cw->max_rep > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_append(&cw->rep, rep, (size_t)n * 2, err));
    pqt_levels_histogram(rep, n, cw->max_rep, rh);
    int64_t rows = 0;
    for (int64_t i = 0; i < n; i++) rows += rep[i] == 0;
    cw->pg_rows += rows;
  } else {
    rh[0] += n;
    cw->pg_rows += n;
  }
  cw->pg_levels += n;
  cw->pg_values += nv;
  if (nv == 0) return PQT_OK;
  bool ba = cw->physical == PQT_BYTE_ARRAY;
  if (ba) cw->pg_ba_bytes += offsets[nv] - offsets[0];
  if (cw->stats_on) {
    if (ba) PQT_RETURN_NOT_OK(pqt_stats_update_binary(&cw->pg_stats, offsets, values, (size_t)nv, err));
    else PQT_RETURN_NOT_OK(pqt_stats_update_fixed(&cw->pg_stats, values, (size_t)nv, err));
  }
  if (cw->bloom_on) {
    if (ba) pqt_bloom_insert_binary(&cw->bloom, offsets, values, (size_t)nv);
    else pqt_bloom_insert_fixed(&cw->bloom, values, cw->width, (size_t)nv);
  }
  if (cw->dict_on) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cw->idx, (size_t)nv * 4, err));
    uint32_t *ix = (uint32_t *)(void *)(cw->idx.data + cw->idx.len);
    if (ba) PQT_RETURN_NOT_OK(pqt_dict_builder_add_binary(&cw->dict, offsets, values, (size_t)nv, ix, err));
    else PQT_RETURN_NOT_OK(pqt_dict_builder_add_fixed(&cw->dict, values, (size_t)nv, ix, err));
    cw->idx.len += (size_t)nv * 4;
    /* the chunk's first page also keeps the plain values (see flush_page) */
    if (cw->n_pages > 0 || cw->dict_used) return PQT_OK;
  }
  if (ba) {
    if (cw->offs.len == 0) {
      int32_t z = 0;
      PQT_RETURN_NOT_OK(pqt_buf_append(&cw->offs, &z, 4, err));
    }
    int64_t base = (int64_t)cw->vals.len;
    int64_t total = base + offsets[nv] - offsets[0];
    if (total > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "page data over 2 GiB");
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&cw->offs, (size_t)nv * 4, err));
    int32_t *o = (int32_t *)(void *)(cw->offs.data + cw->offs.len);
    int32_t shift = (int32_t)base - offsets[0];
    for (int64_t i = 1; i <= nv; i++) o[i - 1] = offsets[i] + shift;
    cw->offs.len += (size_t)nv * 4;
    return pqt_buf_append(&cw->vals, values + offsets[0], (size_t)(offsets[nv] - offsets[0]), err);
  }
  return pqt_buf_append(&cw->vals, values, (size_t)nv * cw->width, err);
}

static int64_t page_estimate(const pqt_column_writer *cw) {
  int64_t lv = (cw->max_def > 0 || cw->max_rep > 0) ? cw->pg_levels / 4 : 0;
  /* the chunk's first page keeps plain values too and may end up plain */
  if (cw->dict_on && (cw->n_pages > 0 || cw->dict_used)) {
    unsigned bw = pqt_dict_builder_index_width(&cw->dict);
    return lv + (cw->pg_values * (int64_t)bw) / 8;
  }
  return lv + (int64_t)cw->vals.len + (int64_t)cw->offs.len;
}

pqt_status pqt_column_writer_write(pqt_column_writer *cw, int64_t n, const int16_t *def, const int16_t *rep,
                                   const uint8_t *values, const int32_t *offsets, int64_t n_values, pqt_error *err) {
  if (n < 0 || n_values < 0 || n_values > n) return pqt_error_set(err, PQT_EINVAL, "bad level/value counts");
  if (n == 0) return PQT_OK;
  if (cw->max_def > 0 && !def) return pqt_error_set(err, PQT_EINVAL, "definition levels required");
  if (cw->max_rep > 0 && !rep) return pqt_error_set(err, PQT_EINVAL, "repetition levels required");
  if (cw->max_rep > 0 && rep[0] != 0) return pqt_error_set(err, PQT_EINVAL, "input must start a record (rep[0] == 0)");
  if (n_values > 0 && !values) return pqt_error_set(err, PQT_EINVAL, "values missing");
  if (cw->physical == PQT_BYTE_ARRAY && n_values > 0 && !offsets)
    return pqt_error_set(err, PQT_EINVAL, "byte array offsets missing");
  if (cw->max_def == 0 && n_values != n)
    return pqt_error_set(err, PQT_EINVAL, "%lld values for %lld levels of a required column", (long long)n_values,
                         (long long)n);
  if (cw->physical == PQT_BYTE_ARRAY) {
    for (int64_t i = 0; i < n_values; i++)
      if (offsets[i + 1] < offsets[i]) return pqt_error_set(err, PQT_EINVAL, "offsets decrease at %lld", (long long)i);
  }
  int64_t s = 0, vpos = 0;
  while (s < n) {
    int64_t room = cw->o.page_row_limit - cw->pg_rows;
    if (room < 1) room = 1;
    /* also keep a slice within the page's remaining bytes (roughly) */
    int64_t per_level = cw->width ? (int64_t)cw->width
                                  : 4 + (cw->ck_values + cw->pg_values > 0
                                             ? (cw->ck_ba_bytes + cw->pg_ba_bytes) / (cw->ck_values + cw->pg_values)
                                             : 12);
    int64_t bytes_left = cw->o.page_size - page_estimate(cw);
    int64_t by_bytes = bytes_left / (per_level > 0 ? per_level : 1);
    if (by_bytes < 16) by_bytes = 16;
    if (room > by_bytes) room = by_bytes;
    int64_t e = s + (room < SLICE_LEVELS ? room : SLICE_LEVELS);
    if (e > n) e = n;
    if (cw->max_rep > 0)
      while (e < n && rep[e] != 0) e++;
    int64_t nv = e - s;
    if (cw->max_def > 0) {
      nv = 0;
      for (int64_t i = s; i < e; i++) {
        if (def[i] < 0 || def[i] > cw->max_def)
          return pqt_error_set(err, PQT_EINVAL, "definition level %d out of range", def[i]);
        nv += def[i] == cw->max_def;
      }
    }
    if (cw->max_rep > 0)
      for (int64_t i = s; i < e; i++)
        if (rep[i] < 0 || rep[i] > cw->max_rep)
          return pqt_error_set(err, PQT_EINVAL, "repetition level %d out of range", rep[i]);
    if (vpos + nv > n_values) return pqt_error_set(err, PQT_EINVAL, "more present levels than values");
    const uint8_t *vp = cw->physical == PQT_BYTE_ARRAY ? values : values + (size_t)vpos * cw->width;
    const int32_t *op = cw->physical == PQT_BYTE_ARRAY ? offsets + vpos : NULL;
    PQT_RETURN_NOT_OK(append_slice(cw, e - s, def ? def + s : NULL, rep ? rep + s : NULL, vp, op, nv, err));
    vpos += nv;
    s = e;
    if (cw->dict_on && (int64_t)pqt_dict_builder_bytes(&cw->dict) > cw->o.dictionary_page_size_limit) {
      PQT_RETURN_NOT_OK(flush_page(cw, err));
      PQT_RETURN_NOT_OK(close_dictionary(cw, err));
    } else if (page_estimate(cw) >= cw->o.page_size || cw->pg_rows >= cw->o.page_row_limit) {
      PQT_RETURN_NOT_OK(flush_page(cw, err));
    }
  }
  if (vpos != n_values)
    return pqt_error_set(err, PQT_EINVAL, "%lld values given, levels say %lld", (long long)n_values, (long long)vpos);
  return PQT_OK;
}

pqt_status pqt_column_writer_finish(pqt_column_writer *cw, pqt_error *err) {
  PQT_RETURN_NOT_OK(flush_page_ex(cw, true, err));
  if (cw->dict_on) PQT_RETURN_NOT_OK(close_dictionary(cw, err));
  return PQT_OK;
}

/* ---- emitting the chunk ---------------------------------------------------- */

static int32_t boundary_order(const pqt_column_writer *cw, const page_info *pis, int32_t n) {
  bool asc = true, desc = true;
  const page_info *prev = NULL;
  for (int32_t i = 0; i < n; i++) {
    const page_info *p = &pis[i];
    if (!p->has_bounds || p->null_page) continue;
    if (prev) {
      const uint8_t *b = cw->pi_bounds.data ? cw->pi_bounds.data : (const uint8_t *)""; /* all bounds empty */
      int cmn = pqt_stats_compare(cw->sort, b + p->min_off, p->min_len, b + prev->min_off, prev->min_len);
      int cmx = pqt_stats_compare(cw->sort, b + p->max_off, p->max_len, b + prev->max_off, prev->max_len);
      if (cmn < 0 || cmx < 0) asc = false;
      if (cmn > 0 || cmx > 0) desc = false;
    }
    prev = p;
  }
  return asc ? PQT_BOUNDARY_ASCENDING : desc ? PQT_BOUNDARY_DESCENDING : PQT_BOUNDARY_UNORDERED;
}

static void reset_chunk(pqt_column_writer *cw) {
  cw->rows_before_chunk += cw->ck_rows;
  pqt_buf_clear(&cw->dict_page);
  pqt_buf_clear(&cw->pages);
  pqt_buf_clear(&cw->pi);
  pqt_buf_clear(&cw->pi_bounds);
  pqt_buf_clear(&cw->pi_hist);
  cw->n_pages = 0;
  cw->dict_page_uncompressed = 0;
  cw->dict_count = 0;
  cw->data_uncompressed = 0;
  cw->ck_levels = cw->ck_rows = cw->ck_values = cw->ck_ba_bytes = 0;
  memset(cw->enc_pages, 0, sizeof cw->enc_pages);
  cw->dict_used = false;
  cw->dict_on = cw->o.dictionary && cw->physical != PQT_BOOLEAN;
  pqt_stats_reset(&cw->ck_stats);
  if (cw->geo) pqt_geo_bbox_init(&cw->geo_box, (pqt_geo_edges)cw->geo_box.edges);
  size_t nh = (size_t)(cw->max_def + 1) + (size_t)(cw->max_rep + 1);
  memset(cw->ck_hist, 0, nh * sizeof(int64_t));
  if (cw->bloom_on) {
    cw->bloom.n_blocks = cw->bloom_blocks; /* a folded filter regains its full size */
    memset(cw->bloom.words, 0, (size_t)cw->bloom.n_blocks * 32);
  }
}

/* ColumnMetaData.geospatial_statistics (seed 001, "Geospatial"): the box
 * only when X and Y both had a value (Z, M only when present) and the
 * sorted unique type codes. A chunk of only nulls gets an empty type list
 * and no box, as Arrow C++ writes it (the corpus's geospatial.parquet has
 * such a chunk): the spec reads an empty list as "types not known", which
 * claims nothing, and a rewrite keeps the original footer's statistics. */
static pqt_status fill_geo_stats(pqt_column_writer *cw, pqt_arena *arena, pqt_column_metadata *m, pqt_error *err) {
  pqt_geo_bbox *b = &cw->geo_box;
  pqt_geo_bbox_result(b);
  pqt_geospatial_statistics *g = &m->geospatial_statistics;
  memset(g, 0, sizeof *g);
  if (b->has_xy) {
    pqt_bounding_box *bb = &g->bbox;
    bb->xmin = b->xmin;
    bb->xmax = b->xmax;
    bb->ymin = b->ymin;
    bb->ymax = b->ymax;
    PQT_SET_FIELD(bb, bounding_box, xmin);
    PQT_SET_FIELD(bb, bounding_box, xmax);
    PQT_SET_FIELD(bb, bounding_box, ymin);
    PQT_SET_FIELD(bb, bounding_box, ymax);
    if (b->has_z) {
      bb->zmin = b->zmin;
      bb->zmax = b->zmax;
      PQT_SET_FIELD(bb, bounding_box, zmin);
      PQT_SET_FIELD(bb, bounding_box, zmax);
    }
    if (b->has_m) {
      bb->mmin = b->mmin;
      bb->mmax = b->mmax;
      PQT_SET_FIELD(bb, bounding_box, mmin);
      PQT_SET_FIELD(bb, bounding_box, mmax);
    }
    PQT_SET_FIELD(g, geospatial_statistics, bbox);
  }
  g->geospatial_types.items = NULL;
  g->geospatial_types.n = 0;
  if (b->n_types > 0) {
    g->geospatial_types.items = pqt_arena_array(arena, (size_t)b->n_types, sizeof(int32_t));
    if (!g->geospatial_types.items) return pqt_nomem(err);
    for (int32_t i = 0; i < b->n_types; i++) g->geospatial_types.items[i] = (int32_t)b->types[i];
    g->geospatial_types.n = b->n_types;
  }
  PQT_SET_FIELD(g, geospatial_statistics, geospatial_types);
  PQT_SET_FIELD(m, column_metadata, geospatial_statistics);
  return PQT_OK;
}

/* ColumnMetaData.encodings: RLE (levels), PLAIN when there is a
 * dictionary page, and every encoding a data page used, in enum order. */
static pqt_status fill_encodings(const pqt_column_writer *cw, pqt_arena *arena, pqt_column_metadata *m,
                                 pqt_error *err) {
  int32_t encs[12], ne = 0;
  bool has_enc[11] = {0};
  if (cw->dict_page.len) has_enc[PQT_ENC_PLAIN] = true;
  for (int e = 0; e < 11; e++)
    if (cw->enc_pages[e]) has_enc[e] = true;
  has_enc[PQT_ENC_RLE] = true;
  for (int e = 0; e < 11; e++)
    if (has_enc[e]) encs[ne++] = e;
  m->encodings.items = pqt_arena_array(arena, (size_t)ne, sizeof(int32_t));
  if (!m->encodings.items) return pqt_nomem(err);
  memcpy(m->encodings.items, encs, (size_t)ne * sizeof(int32_t));
  m->encodings.n = ne;
  PQT_SET_FIELD(m, column_metadata, encodings);
  return PQT_OK;
}

/* The chunk's Statistics (with statistics on) and GeospatialStatistics. */
static pqt_status fill_chunk_stats(pqt_column_writer *cw, pqt_arena *arena, pqt_column_metadata *m, pqt_error *err) {
  pqt_buf tmin, tmax;
  pqt_buf_init(&tmin, cw->alloc);
  pqt_buf_init(&tmax, cw->alloc);
  pqt_status st = PQT_OK;
  if (cw->o.statistics) {
    cw->ck_stats.null_count = cw->ck_levels - cw->ck_values;
    st = fill_stats(cw, &cw->ck_stats, arena, &m->statistics, &tmin, &tmax, err);
    if (st == PQT_OK) PQT_SET_FIELD(m, column_metadata, statistics);
  }
  pqt_buf_free(&tmin);
  pqt_buf_free(&tmax);
  if (st == PQT_OK && cw->geo) st = fill_geo_stats(cw, arena, m, err);
  return st;
}

/* ColumnMetaData.encoding_stats: the dictionary page, then the data pages
 * of each encoding. */
static pqt_status fill_encoding_stats(const pqt_column_writer *cw, pqt_arena *arena, pqt_column_metadata *m,
                                      pqt_error *err) {
  bool dict = cw->dict_page.len > 0;
  int32_t n = (dict ? 1 : 0);
  for (int e = 0; e < 11; e++) n += cw->enc_pages[e] > 0;
  pqt_page_encoding_stats *es = pqt_arena_array(arena, (size_t)n, sizeof *es);
  if (!es && n) return pqt_nomem(err);
  int32_t k = 0;
  if (dict) es[k++] = (pqt_page_encoding_stats){0xE, PQT_PAGE_DICTIONARY, PQT_ENC_PLAIN, 1};
  int32_t pt = cw->o.page_version == 2 ? PQT_PAGE_DATA_V2 : PQT_PAGE_DATA;
  for (int e = 0; e < 11; e++)
    if (cw->enc_pages[e]) es[k++] = (pqt_page_encoding_stats){0xE, pt, e, cw->enc_pages[e]};
  m->encoding_stats.items = es;
  m->encoding_stats.n = k;
  PQT_SET_FIELD(m, column_metadata, encoding_stats);
  return PQT_OK;
}

/* ColumnMetaData.size_statistics: byte-array bytes and the chunk's level
 * histograms (set only when one of them applies). */
static pqt_status fill_size_stats(const pqt_column_writer *cw, pqt_arena *arena, pqt_column_metadata *m,
                                  pqt_error *err) {
  pqt_size_statistics *ss = &m->size_statistics;
  if (cw->physical == PQT_BYTE_ARRAY) {
    ss->unencoded_byte_array_data_bytes = cw->ck_ba_bytes;
    PQT_SET_FIELD(ss, size_statistics, unencoded_byte_array_data_bytes);
  }
  if (cw->max_rep > 0) {
    ss->repetition_level_histogram.items = pqt_arena_array(arena, (size_t)cw->max_rep + 1, 8);
    if (!ss->repetition_level_histogram.items) return pqt_nomem(err);
    memcpy(ss->repetition_level_histogram.items, cw->ck_hist + cw->max_def + 1, ((size_t)cw->max_rep + 1) * 8);
    ss->repetition_level_histogram.n = cw->max_rep + 1;
    PQT_SET_FIELD(ss, size_statistics, repetition_level_histogram);
  }
  if (cw->max_def > 0) {
    ss->definition_level_histogram.items = pqt_arena_array(arena, (size_t)cw->max_def + 1, 8);
    if (!ss->definition_level_histogram.items) return pqt_nomem(err);
    memcpy(ss->definition_level_histogram.items, cw->ck_hist, ((size_t)cw->max_def + 1) * 8);
    ss->definition_level_histogram.n = cw->max_def + 1;
    PQT_SET_FIELD(ss, size_statistics, definition_level_histogram);
  }
  if (ss->isset) PQT_SET_FIELD(m, column_metadata, size_statistics);
  return PQT_OK;
}

/* The chunk's ColumnMetaData (cc->meta_data) and file_offset, for a chunk
 * whose dictionary page (dict_len bytes, 0 for none) starts at `at`. */
static pqt_status fill_chunk_meta(pqt_column_writer *cw, pqt_arena *arena, int64_t at, int64_t dict_len,
                                  pqt_column_chunk *cc, pqt_error *err) {
  pqt_column_metadata *m = &cc->meta_data;
  m->type = cw->physical;
  PQT_SET_FIELD(m, column_metadata, type);
  PQT_RETURN_NOT_OK(fill_encodings(cw, arena, m, err));
  PQT_SET_FIELD(m, column_metadata, path_in_schema); /* path_in_schema: filled by the caller */
  m->codec = cw->o.codec;
  PQT_SET_FIELD(m, column_metadata, codec);
  m->num_values = cw->ck_levels;
  PQT_SET_FIELD(m, column_metadata, num_values);
  m->total_uncompressed_size = cw->dict_page_uncompressed + cw->data_uncompressed;
  PQT_SET_FIELD(m, column_metadata, total_uncompressed_size);
  m->total_compressed_size = dict_len + (int64_t)cw->pages.len;
  PQT_SET_FIELD(m, column_metadata, total_compressed_size);
  m->data_page_offset = at + dict_len;
  PQT_SET_FIELD(m, column_metadata, data_page_offset);
  if (dict_len) {
    m->dictionary_page_offset = at;
    PQT_SET_FIELD(m, column_metadata, dictionary_page_offset);
  }
  PQT_RETURN_NOT_OK(fill_chunk_stats(cw, arena, m, err));
  PQT_RETURN_NOT_OK(fill_encoding_stats(cw, arena, m, err));
  PQT_RETURN_NOT_OK(fill_size_stats(cw, arena, m, err));
  cc->file_offset = at;
  PQT_SET_FIELD(cc, column_chunk, file_offset);
  PQT_SET_FIELD(cc, column_chunk, meta_data);
  return PQT_OK;
}

/* The chunk's OffsetIndex (its data pages start at data_at in the file),
 * encoded and appended to oi; *oi_len gets its bytes. */
static pqt_status encode_offset_index(const pqt_column_writer *cw, pqt_arena *tmp, int64_t data_at, pqt_buf *oi,
                                      size_t *oi_len, pqt_error *err) {
  const page_info *pis = (const page_info *)(const void *)cw->pi.data;
  int32_t np = cw->n_pages;
  pqt_offset_index oix;
  memset(&oix, 0, sizeof oix);
  oix.page_locations.items = pqt_arena_array(tmp, (size_t)np, sizeof(pqt_page_location));
  if (!oix.page_locations.items) return pqt_nomem(err);
  oix.page_locations.n = np;
  for (int32_t i = 0; i < np; i++)
    oix.page_locations.items[i] = (pqt_page_location){0xE, data_at + pis[i].offset, pis[i].size, pis[i].first_row};
  PQT_SET_FIELD(&oix, offset_index, page_locations);
  if (cw->physical == PQT_BYTE_ARRAY) {
    oix.unencoded_byte_array_data_bytes.items = pqt_arena_array(tmp, (size_t)np, 8);
    if (!oix.unencoded_byte_array_data_bytes.items) return pqt_nomem(err);
    for (int32_t i = 0; i < np; i++) oix.unencoded_byte_array_data_bytes.items[i] = pis[i].ba_bytes;
    oix.unencoded_byte_array_data_bytes.n = np;
    PQT_SET_FIELD(&oix, offset_index, unencoded_byte_array_data_bytes);
  }
  size_t before = oi->len;
  pqt_status st = pqt_thrift_encode(&pqt_desc_offset_index, &oix, oi, err);
  *oi_len = oi->len - before;
  return st;
}

/* Can the chunk have a ColumnIndex? Not without a sort order (INT96,
 * INTERVAL, GEOMETRY, GEOGRAPHY, ...): for GEOMETRY/GEOGRAPHY the spec's
 * ColumnIndex has required min_values/max_values that would have to be
 * empty for every non-null page, which null_pages=false makes a claim of
 * real bounds; readers could prune with them. And not when a page has
 * values but no bounds (only NaNs): null_pages would claim it holds only
 * nulls and empty bounds are not values. Such chunks get no column index
 * (as Arrow C++ and parquet-java do); their offset index stays. */
static bool column_index_applies(const pqt_column_writer *cw) {
  if (cw->sort == PQT_SORT_NONE) return false;
  const page_info *pis = (const page_info *)(const void *)cw->pi.data;
  for (int32_t i = 0; i < cw->n_pages; i++)
    if (!pis[i].null_page && !pis[i].has_bounds) return false;
  return true;
}

/* The ColumnIndex lists of np pages, allocated in tmp. */
static pqt_status alloc_column_index(const pqt_column_writer *cw, pqt_arena *tmp, int32_t np, bool fl,
                                     pqt_column_index *cix, pqt_error *err) {
  cix->null_pages.items = pqt_arena_array(tmp, (size_t)np, sizeof(bool));
  cix->min_values.items = pqt_arena_array(tmp, (size_t)np, sizeof(pqt_bytes));
  cix->max_values.items = pqt_arena_array(tmp, (size_t)np, sizeof(pqt_bytes));
  cix->null_counts.items = pqt_arena_array(tmp, (size_t)np, 8);
  if (fl) cix->nan_counts.items = pqt_arena_array(tmp, (size_t)np, 8);
  if (cw->max_rep > 0)
    cix->repetition_level_histograms.items = pqt_arena_array(tmp, (size_t)np * (size_t)(cw->max_rep + 1), 8);
  if (cw->max_def > 0)
    cix->definition_level_histograms.items = pqt_arena_array(tmp, (size_t)np * (size_t)(cw->max_def + 1), 8);
  if (!cix->null_pages.items || !cix->min_values.items || !cix->max_values.items || !cix->null_counts.items ||
      (fl && !cix->nan_counts.items) || (cw->max_rep > 0 && !cix->repetition_level_histograms.items) ||
      (cw->max_def > 0 && !cix->definition_level_histograms.items))
    return pqt_nomem(err);
  return PQT_OK;
}

/* The chunk's ColumnIndex from its pages' entries, encoded and appended
 * to ci; *ci_len gets its bytes. */
static pqt_status encode_column_index(const pqt_column_writer *cw, pqt_arena *tmp, pqt_buf *ci, size_t *ci_len,
                                      pqt_error *err) {
  const page_info *pis = (const page_info *)(const void *)cw->pi.data;
  int32_t np = cw->n_pages;
  pqt_column_index cix;
  memset(&cix, 0, sizeof cix);
  bool fl = pqt_sort_kind_is_float(cw->sort);
  PQT_RETURN_NOT_OK(alloc_column_index(cw, tmp, np, fl, &cix, err));
  size_t nh = (size_t)(cw->max_def + 1) + (size_t)(cw->max_rep + 1);
  const int64_t *hist = (const int64_t *)(const void *)cw->pi_hist.data;
  const uint8_t *bounds = cw->pi_bounds.data ? cw->pi_bounds.data : (const uint8_t *)""; /* all bounds empty */
  for (int32_t i = 0; i < np; i++) {
    const page_info *p = &pis[i];
    cix.null_pages.items[i] = p->null_page;
    if (p->has_bounds && !p->null_page) {
      cix.min_values.items[i] = (pqt_bytes){bounds + p->min_off, p->min_len};
      cix.max_values.items[i] = (pqt_bytes){bounds + p->max_off, p->max_len};
    } else {
      cix.min_values.items[i] = cix.max_values.items[i] = (pqt_bytes){(const uint8_t *)"", 0};
    }
    cix.null_counts.items[i] = p->nulls;
    if (fl) cix.nan_counts.items[i] = p->nans;
    const int64_t *h = hist + (size_t)i * nh;
    if (cw->max_def > 0)
      memcpy(cix.definition_level_histograms.items + (size_t)i * (size_t)(cw->max_def + 1), h,
             (size_t)(cw->max_def + 1) * 8);
    if (cw->max_rep > 0)
      memcpy(cix.repetition_level_histograms.items + (size_t)i * (size_t)(cw->max_rep + 1), h + cw->max_def + 1,
             (size_t)(cw->max_rep + 1) * 8);
  }
  cix.null_pages.n = cix.min_values.n = cix.max_values.n = cix.null_counts.n = np;
  cix.isset |= PQT_FIELD_MASK(column_index, null_pages, min_values, max_values, boundary_order, null_counts);
  cix.boundary_order = boundary_order(cw, pis, np);
  if (fl) {
    cix.nan_counts.n = np;
    PQT_SET_FIELD(&cix, column_index, nan_counts);
  }
  if (cw->max_rep > 0) {
    cix.repetition_level_histograms.n = np * (cw->max_rep + 1);
    PQT_SET_FIELD(&cix, column_index, repetition_level_histograms);
  }
  if (cw->max_def > 0) {
    cix.definition_level_histograms.n = np * (cw->max_def + 1);
    PQT_SET_FIELD(&cix, column_index, definition_level_histograms);
  }
  size_t before = ci->len;
  pqt_status st = pqt_thrift_encode(&pqt_desc_column_index, &cix, ci, err);
  *ci_len = ci->len - before;
  return st;
}

/* The chunk's page index (offset index, and the column index where it
 * applies), with page_index on and at least one page. */
static pqt_status encode_page_index(const pqt_column_writer *cw, int64_t data_at, pqt_chunk_out *out, pqt_error *err) {
  if (!cw->o.page_index || cw->n_pages == 0) return PQT_OK;
  pqt_arena tmp;
  pqt_arena_init(&tmp, cw->alloc);
  pqt_status st = encode_offset_index(cw, &tmp, data_at, out->oi, &out->oi_len, err);
  if (st == PQT_OK && column_index_applies(cw)) st = encode_column_index(cw, &tmp, out->ci, &out->ci_len, err);
  pqt_arena_reset(&tmp);
  return st;
}

/* The chunk's Bloom filter, folded to the distinct values it can hold
 * (no more than its values), serialized into out. */
static pqt_status serialize_bloom(pqt_column_writer *cw, pqt_buf *out, pqt_error *err) {
  int64_t ndv = cw->o.bloom_ndv > 0 ? cw->o.bloom_ndv : 100000;
  if (cw->ck_values < ndv) ndv = cw->ck_values;
  pqt_bloom_fold(&cw->bloom, pqt_bloom_optimal_bytes(ndv, cw->o.bloom_fpp > 0 ? cw->o.bloom_fpp : 0.01));
  return pqt_bloom_serialize(&cw->bloom, out, err);
}

pqt_status pqt_column_writer_emit(pqt_column_writer *cw, pqt_chunk_out *out, pqt_error *err) {
  out->ci_len = out->oi_len = 0;
  int64_t dict_len = (int64_t)cw->dict_page.len;
  if (dict_len) PQT_RETURN_NOT_OK(out->sink(out->sink_ctx, cw->dict_page.data, cw->dict_page.len, err));
  if (cw->pages.len) PQT_RETURN_NOT_OK(out->sink(out->sink_ctx, cw->pages.data, cw->pages.len, err));
  PQT_RETURN_NOT_OK(fill_chunk_meta(cw, out->arena, out->at, dict_len, out->cc, err));
  PQT_RETURN_NOT_OK(encode_page_index(cw, out->at + dict_len, out, err));
  if (cw->bloom_on && out->bloom) PQT_RETURN_NOT_OK(serialize_bloom(cw, out->bloom, err));
  reset_chunk(cw);
  return PQT_OK;
}
