/*
 * inspect/meta_api.c: the accessors of include/parquetry_meta.h over an
 * open reader: key-value metadata, the schema tree, column chunk metadata,
 * statistics typed by meta/typed_value.c with the pruning rules of
 * parquet.thrift (ColumnOrder, "min/max deprecated: signed order only",
 * INT96 undefined), SizeStatistics and GeospatialStatistics.
 * The page index, Bloom probe and dictionary are in inspect/page_index.c.
 *
 * Every struct handed in carries struct_size: the library fills a full
 * struct of its own and copies the first struct_size bytes, so an older
 * caller's smaller struct gets what it knows of.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "codec/codec.h"
#include "column/statistics.h"
#include "crypto/crypto.h"
#include "crypto/file_decryptor.h"
#include "file/reader_internal.h"
#include "inspect/meta_internal.h"
#include "meta/typed_value.h"
#include "meta/value_format.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* ---- struct_size ------------------------------------------------------------ */

pqt_status pqt_meta_check_size(size_t have, size_t need, const char *what, pqt_error *err) {
  if (have < need)
    return pqt_error_set(err, PQT_EINVAL, "%s: struct_size %zu is smaller than %zu (call its _init)", what, have, need);
  return PQT_OK;
}

#define INIT_FN(name, type)     \
  PQT_API void name(type *p) {  \
    if (!p) return;             \
    memset(p, 0, sizeof *p);    \
    p->struct_size = sizeof *p; \
  }

INIT_FN(pqt_value_init, pqt_value)
INIT_FN(pqt_kv_init, pqt_kv)
INIT_FN(pqt_schema_info_init, pqt_schema_info)
INIT_FN(pqt_chunk_info_init, pqt_chunk_info)
INIT_FN(pqt_encoding_stat_init, pqt_encoding_stat)
INIT_FN(pqt_chunk_statistics_init, pqt_chunk_statistics)
INIT_FN(pqt_size_stats_init, pqt_size_stats)
INIT_FN(pqt_geo_stats_init, pqt_geo_stats)
INIT_FN(pqt_page_index_init, pqt_page_index)

/* Copy a filled struct into the caller's, as much as its struct_size says. */
#define FILL_OUT(out, full)                                                            \
  do {                                                                                 \
    size_t caller_size_ = (out)->struct_size;                                          \
    (full).struct_size = caller_size_;                                                 \
    memcpy((out), &(full), caller_size_ < sizeof(full) ? caller_size_ : sizeof(full)); \
  } while (0)

/* ---- names -------------------------------------------------------------------- */

static const char *enum_name(const pqt_thrift_enum *e, int32_t v) {
  const char *s = pqt_thrift_enum_name(e, v);
  return s ? s : "?";
}
PQT_API const char *pqt_compression_name(int32_t codec) { return enum_name(&pqt_enum_compression_codec, codec); }
PQT_API const char *pqt_encoding_name(int32_t encoding) { return enum_name(&pqt_enum_encoding, encoding); }
PQT_API int32_t pqt_compression_from_name(const char *name) { return pqt_codec_from_name(name); }
PQT_API int32_t pqt_encoding_from_name(const char *name) { return pqt_enum_from_name(&pqt_enum_encoding, name); }
PQT_API const char *pqt_page_kind_name(int32_t page_type) { return enum_name(&pqt_enum_page_type, page_type); }
PQT_API const char *pqt_boundary_order_name(int32_t order) { return enum_name(&pqt_enum_boundary_order, order); }
PQT_API const char *pqt_physical_name(int32_t physical) { return enum_name(&pqt_enum_type, physical); }
PQT_API const char *pqt_repetition_kind_name(int32_t rep) {
  return rep == PQT_REPETITION_NONE ? "NONE" : enum_name(&pqt_enum_field_repetition_type, rep);
}
PQT_API const char *pqt_logical_name(int32_t logical) {
  static const char *const names[] = {"NONE", "STRING",    "MAP",      "LIST",     "ENUM",      "DECIMAL", "DATE",
                                      "TIME", "TIMESTAMP", "INTERVAL", "INTEGER",  "UNKNOWN",   "JSON",    "BSON",
                                      "UUID", "FLOAT16",   "VARIANT",  "GEOMETRY", "GEOGRAPHY", "VECTOR"};
  return logical >= 0 && logical < (int32_t)(sizeof names / sizeof names[0]) ? names[logical] : "?";
}

/* ---- chunks -------------------------------------------------------------------- */

/* The chunk of (rg, col) with a ColumnMetaData in the clear; unless stored,
 * an encrypted one only with its key. */
static pqt_status meta_chunk(const pqt_reader *r, int32_t rg, int32_t col, bool stored, const pqt_column_chunk **cc_out,
                             pqt_error *err) {
  if (!r) return pqt_error_set(err, PQT_EINVAL, "reader is NULL");
  if (rg < 0 || rg >= r->md.row_groups.n)
    return pqt_error_set(err, PQT_EINVAL, "row group %d out of range (the file has %d)", rg, r->md.row_groups.n);
  if (col < 0 || col >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "column %d out of range (the file has %d)", col, r->schema->n_leaves);
  const pqt_row_group *g = &r->md.row_groups.items[rg];
  const char *path = r->schema->leaves[col]->dotted_path;
  if (col >= g->columns.n) return pqt_corrupt(err, "row group %d has no chunk for column %s", rg, path);
  const pqt_column_chunk *cc = &g->columns.items[col];
  if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) {
    if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata) || PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata))
      return pqt_error_set(err, PQT_ECRYPTO,
                           "row group %d, column %s: the column is encrypted and its key was not given", rg, path);
    return pqt_corrupt(err, "row group %d, column %s: column chunk has no metadata", rg, path);
  }
  if (!stored && PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) {
    /* With a plaintext footer an encrypted chunk keeps a stripped
     * ColumnMetaData in the clear; the real one is read only with the key. */
    if (!r->crypto)
      return pqt_error_set(err, PQT_ECRYPTO,
                           "row group %d, column %s: encrypted, but the file has no encryption algorithm", rg, path);
    pqt_module_decryptor dec;
    pqt_status st =
        pqt_file_decryptor_column(r->crypto, cc, path, pqt_file_decryptor_row_group_ordinal(g, rg), col, &dec, err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "row group %d, column %s", rg, path);
      return st;
    }
    pqt_module_decryptor_wipe(&dec);
  }
  *cc_out = cc;
  return PQT_OK;
}

pqt_status pqt_meta_chunk(const pqt_reader *r, int32_t rg, int32_t col, const pqt_column_chunk **cc_out,
                          pqt_error *err) {
  return meta_chunk(r, rg, col, false, cc_out, err);
}

static void fill_kv(const pqt_key_value *k, pqt_kv *out) {
  pqt_kv full;
  memset(&full, 0, sizeof full);
  full.key = (const char *)k->key.ptr;
  full.key_len = (size_t)k->key.len;
  if (PQT_HAS_FIELD(k, key_value, value)) {
    full.value = k->value.ptr ? (const char *)k->value.ptr : "";
    full.value_len = (size_t)k->value.len;
  }
  if (!full.key) full.key = "";
  FILL_OUT(out, full);
}

PQT_API int32_t pqt_reader_kv_count(const pqt_reader *r) { return r ? r->md.key_value_metadata.n : 0; }

PQT_API pqt_status pqt_reader_kv(const pqt_reader *r, int32_t i, pqt_kv *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_kv: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_kv), "pqt_kv", err));
  if (i < 0 || i >= r->md.key_value_metadata.n)
    return pqt_error_set(err, PQT_EINVAL, "key-value entry %d out of range", i);
  fill_kv(&r->md.key_value_metadata.items[i], out);
  return PQT_OK;
}

static int32_t chunk_kv_count(const pqt_reader *r, int32_t rg, int32_t col, bool stored) {
  const pqt_column_chunk *cc = NULL;
  if (meta_chunk(r, rg, col, stored, &cc, NULL) != PQT_OK) return -1;
  return cc->meta_data.key_value_metadata.n;
}
PQT_API int32_t pqt_chunk_kv_count(const pqt_reader *r, int32_t rg, int32_t col) {
  return chunk_kv_count(r, rg, col, false);
}
PQT_API int32_t pqt_chunk_kv_count_stored(const pqt_reader *r, int32_t rg, int32_t col) {
  return chunk_kv_count(r, rg, col, true);
}

static pqt_status chunk_kv(const pqt_reader *r, int32_t rg, int32_t col, int32_t i, bool stored, pqt_kv *out,
                           pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_chunk_kv: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_kv), "pqt_kv", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(meta_chunk(r, rg, col, stored, &cc, err));
  if (i < 0 || i >= cc->meta_data.key_value_metadata.n)
    return pqt_error_set(err, PQT_EINVAL, "key-value entry %d out of range", i);
  fill_kv(&cc->meta_data.key_value_metadata.items[i], out);
  return PQT_OK;
}
PQT_API pqt_status pqt_chunk_kv(const pqt_reader *r, int32_t rg, int32_t col, int32_t i, pqt_kv *out, pqt_error *err) {
  return chunk_kv(r, rg, col, i, false, out, err);
}
PQT_API pqt_status pqt_chunk_kv_stored(const pqt_reader *r, int32_t rg, int32_t col, int32_t i, pqt_kv *out,
                                       pqt_error *err) {
  return chunk_kv(r, rg, col, i, true, out, err);
}

/* ---- schema -------------------------------------------------------------------- */

PQT_API int32_t pqt_reader_schema_node_count(const pqt_reader *r) { return r ? r->schema->n_nodes : 0; }

PQT_API pqt_status pqt_reader_schema_node(const pqt_reader *r, int32_t node, pqt_schema_info *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_schema_node: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_schema_info), "pqt_schema_info", err));
  if (node < 0 || node >= r->schema->n_nodes)
    return pqt_error_set(err, PQT_EINVAL, "schema node %d out of range (the schema has %d)", node, r->schema->n_nodes);
  const pqt_schema_node *x = &r->schema->nodes[node];
  pqt_schema_info s;
  memset(&s, 0, sizeof s);
  s.name = x->name;
  s.name_len = x->name_len;
  s.index = node;
  s.parent = x->parent ? (int32_t)(x->parent - r->schema->nodes) : -1;
  s.n_children = x->n_children;
  s.depth = x->depth;
  s.repetition = x->parent ? x->repetition : PQT_REPETITION_NONE;
  s.is_leaf = x->is_leaf;
  s.physical = x->is_leaf ? x->physical_type : PQT_TYPE_NONE;
  s.type_length = x->type_length;
  s.converted_type = x->converted_type;
  s.has_field_id = x->has_field_id;
  s.field_id = x->field_id;
  s.logical = pqt_node_logical_kind(x);
  s.edge_algorithm = -1;
  switch (s.logical) {
    case PQT_LOGICAL_DECIMAL:
      s.scale = x->logical.decimal.scale;
      s.precision = x->logical.decimal.precision;
      break;
    case PQT_LOGICAL_TIME:
    case PQT_LOGICAL_TIMESTAMP: {
      const pqt_time_type *t = s.logical == PQT_LOGICAL_TIME ? &x->logical.time : &x->logical.timestamp;
      int w = pqt_union_which(t->unit.isset);
      s.unit = w == PQT_TIME_UNIT_MILLIS   ? PQT_UNIT_MILLIS
               : w == PQT_TIME_UNIT_MICROS ? PQT_UNIT_MICROS
               : w == PQT_TIME_UNIT_NANOS  ? PQT_UNIT_NANOS
                                           : PQT_UNIT_NONE;
      s.is_utc = t->is_adjusted_to_utc;
      break;
    }
    case PQT_LOGICAL_INTEGER:
      s.bit_width = x->logical.integer.bit_width;
      s.is_signed = x->logical.integer.is_signed;
      break;
    case PQT_LOGICAL_GEOMETRY:
      if (PQT_HAS_FIELD(&x->logical.geometry, geometry_type, crs)) {
        s.crs = x->logical.geometry.crs.ptr ? (const char *)x->logical.geometry.crs.ptr : "";
        s.crs_len = (size_t)x->logical.geometry.crs.len;
      }
      break;
    case PQT_LOGICAL_GEOGRAPHY:
      if (PQT_HAS_FIELD(&x->logical.geography, geography_type, crs)) {
        s.crs = x->logical.geography.crs.ptr ? (const char *)x->logical.geography.crs.ptr : "";
        s.crs_len = (size_t)x->logical.geography.crs.len;
      }
      if (PQT_HAS_FIELD(&x->logical.geography, geography_type, algorithm))
        s.edge_algorithm = x->logical.geography.algorithm;
      break;
    default: break;
  }
  s.vector_length = x->vector_length;
  s.max_def = x->max_def;
  s.max_rep = x->max_rep;
  s.first_leaf = x->first_leaf;
  s.n_leaves = x->n_leaves;
  s.column = x->is_leaf ? x->column_index : -1;
  s.path = x->is_leaf ? x->dotted_path : NULL;
  FILL_OUT(out, s);
  return PQT_OK;
}

PQT_API int32_t pqt_reader_schema_child(const pqt_reader *r, int32_t node, int32_t i) {
  if (!r || node < 0 || node >= r->schema->n_nodes) return -1;
  const pqt_schema_node *x = &r->schema->nodes[node];
  if (i < 0 || i >= x->n_children) return -1;
  return (int32_t)(x->children[i] - r->schema->nodes);
}

PQT_API int32_t pqt_reader_column_node(const pqt_reader *r, int32_t col) {
  if (!r || col < 0 || col >= r->schema->n_leaves) return -1;
  return (int32_t)(r->schema->leaves[col] - r->schema->nodes);
}

PQT_API int32_t pqt_reader_find_column(const pqt_reader *r, const char *dotted_path) {
  if (!r || !dotted_path) return -1;
  for (int32_t i = 0; i < r->schema->n_leaves; i++)
    if (strcmp(r->schema->leaves[i]->dotted_path, dotted_path) == 0) return i;
  return -1;
}

/* ---- chunk metadata ------------------------------------------------------------ */

static pqt_status reader_chunk(const pqt_reader *r, int32_t rg, int32_t col, bool stored, pqt_chunk_info *out,
                               pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_chunk: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, offsetof(pqt_chunk_info, stored_dictionary_page_offset),
                                        "pqt_chunk_info", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(meta_chunk(r, rg, col, stored, &cc, err));
  const pqt_column_metadata *cm = &cc->meta_data;
  pqt_chunk_info c;
  memset(&c, 0, sizeof c);
  c.physical = cm->type;
  c.codec = cm->codec;
  c.num_values = cm->num_values;
  c.total_compressed_size = cm->total_compressed_size;
  c.total_uncompressed_size = cm->total_uncompressed_size;
  c.data_page_offset = cm->data_page_offset;
  c.dictionary_page_offset =
      PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0
          ? cm->dictionary_page_offset
          : -1;
  c.index_page_offset = PQT_HAS_FIELD(cm, column_metadata, index_page_offset) ? cm->index_page_offset : -1;
  c.bloom_filter_offset = PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset) ? cm->bloom_filter_offset : -1;
  c.bloom_filter_length = PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length) ? cm->bloom_filter_length : -1;
  c.column_index_offset = PQT_HAS_FIELD(cc, column_chunk, column_index_offset) ? cc->column_index_offset : -1;
  c.column_index_length = PQT_HAS_FIELD(cc, column_chunk, column_index_length) ? cc->column_index_length : -1;
  c.offset_index_offset = PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) ? cc->offset_index_offset : -1;
  c.offset_index_length = PQT_HAS_FIELD(cc, column_chunk, offset_index_length) ? cc->offset_index_length : -1;
  c.n_encodings = cm->encodings.n;
  c.encodings = cm->encodings.items;
  c.n_encoding_stats = cm->encoding_stats.n;
  c.has_statistics = PQT_HAS_FIELD(cm, column_metadata, statistics);
  c.has_size_statistics = PQT_HAS_FIELD(cm, column_metadata, size_statistics);
  c.has_geospatial_statistics = PQT_HAS_FIELD(cm, column_metadata, geospatial_statistics);
  c.encrypted = PQT_HAS_FIELD(cc, column_chunk, crypto_metadata);
  if (!PQT_HAS_FIELD(cm, column_metadata, encoding_stats) || cm->encoding_stats.n == 0) {
    c.all_data_pages_dictionary = -1;
  } else {
    c.all_data_pages_dictionary = 1;
    for (int32_t i = 0; i < cm->encoding_stats.n; i++) {
      const pqt_page_encoding_stats *es = &cm->encoding_stats.items[i];
      bool data = es->page_type == PQT_PAGE_DATA || es->page_type == PQT_PAGE_DATA_V2;
      bool dict = es->encoding == PQT_ENC_PLAIN_DICTIONARY || es->encoding == PQT_ENC_RLE_DICTIONARY;
      if (data && !dict && es->count > 0) c.all_data_pages_dictionary = 0;
    }
  }
  c.stored_dictionary_page_offset =
      PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) ? cm->dictionary_page_offset : -1;
  FILL_OUT(out, c);
  return PQT_OK;
}
PQT_API pqt_status pqt_reader_chunk(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_info *out, pqt_error *err) {
  return reader_chunk(r, rg, col, false, out, err);
}
PQT_API pqt_status pqt_reader_chunk_stored(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_info *out,
                                           pqt_error *err) {
  return reader_chunk(r, rg, col, true, out, err);
}

PQT_API pqt_status pqt_chunk_encoding_stats(const pqt_reader *r, int32_t rg, int32_t col, int32_t i,
                                            pqt_encoding_stat *out, pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_chunk_encoding_stats: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_encoding_stat), "pqt_encoding_stat", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const pqt_list_page_encoding_stats *l = &cc->meta_data.encoding_stats;
  if (i < 0 || i >= l->n) return pqt_error_set(err, PQT_EINVAL, "encoding stats entry %d out of range", i);
  pqt_encoding_stat s;
  memset(&s, 0, sizeof s);
  s.page_type = l->items[i].page_type;
  s.encoding = l->items[i].encoding;
  s.count = l->items[i].count;
  FILL_OUT(out, s);
  return PQT_OK;
}

/* ---- statistics ------------------------------------------------------------------ */

int32_t pqt_meta_column_order(const pqt_reader *r, int32_t col) {
  const pqt_list_column_order *co = &r->md.column_orders;
  if (col < 0 || col >= co->n) return PQT_COLUMN_ORDER_UNDEFINED;
  int w = pqt_union_which(co->items[col].isset);
  return w >= PQT_ORDER_TYPE && w <= PQT_ORDER_INT96_TIMESTAMP ? w : PQT_COLUMN_ORDER_UNDEFINED;
}

bool pqt_meta_bounds_usable(const pqt_reader *r, int32_t col) {
  const pqt_schema_node *leaf = r->schema->leaves[col];
  int32_t order = pqt_meta_column_order(r, col);
  if (order != PQT_COLUMN_ORDER_TYPE_DEFINED && order != PQT_COLUMN_ORDER_IEEE_754_TOTAL) return false;
  return pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type) != PQT_SORT_NONE;
}

static bool is_nan_value(const pqt_value *v) {
  return (v->kind == PQT_VALUE_DOUBLE || v->kind == PQT_VALUE_FLOAT16) && isnan(v->f64);
}

pqt_status pqt_meta_fill_statistics(const pqt_reader *r, int32_t col, const pqt_statistics *st, bool stored,
                                    pqt_chunk_statistics *out, pqt_error *err) {
  const pqt_schema_node *leaf = r->schema->leaves[col];
  pqt_chunk_statistics s;
  memset(&s, 0, sizeof s);
  s.min.struct_size = s.max.struct_size = sizeof(pqt_value);
  s.min_exact = s.max_exact = -1;
  s.column_order = pqt_meta_column_order(r, col);
  pqt_sort_kind kind = pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type);
  s.legacy_order_ok = pqt_sort_kind_legacy_ok(kind);
  if (st) {
    s.present = 1;
    bool typed = PQT_HAS_FIELD(st, statistics, max_value) || PQT_HAS_FIELD(st, statistics, min_value);
    bool usable = typed ? pqt_meta_bounds_usable(r, col) : (kind != PQT_SORT_NONE && pqt_sort_kind_legacy_ok(kind));
    s.from_legacy = !typed && (PQT_HAS_FIELD(st, statistics, max) || PQT_HAS_FIELD(st, statistics, min));
    bool has_min = typed ? PQT_HAS_FIELD(st, statistics, min_value) : PQT_HAS_FIELD(st, statistics, min);
    bool has_max = typed ? PQT_HAS_FIELD(st, statistics, max_value) : PQT_HAS_FIELD(st, statistics, max);
    pqt_bytes mn = typed ? st->min_value : st->min, mx = typed ? st->max_value : st->max;
    if (has_min) {
      pqt_status e = pqt_typed_from_plain(leaf, mn.ptr, (size_t)mn.len, &s.min, stored ? NULL : err);
      if (e != PQT_OK && !stored) {
        pqt_error_prefix(err, "statistics min");
        return e;
      }
      if (e != PQT_OK) {
        pqt_value_init(&s.min);
      } else {
        s.usable_min = usable && !is_nan_value(&s.min);
      }
    }
    if (has_max) {
      pqt_status e = pqt_typed_from_plain(leaf, mx.ptr, (size_t)mx.len, &s.max, stored ? NULL : err);
      if (e != PQT_OK && !stored) {
        pqt_error_prefix(err, "statistics max");
        return e;
      }
      if (e != PQT_OK) {
        pqt_value_init(&s.max);
      } else {
        s.usable_max = usable && !is_nan_value(&s.max);
      }
    }
    for (uint32_t bits = st->isset; bits; bits &= bits - 1) s.n_fields++;
    if (PQT_HAS_FIELD(st, statistics, min_value)) {
      s.min_value_plain = st->min_value.ptr ? st->min_value.ptr : (const uint8_t *)"";
      s.n_min_value_plain = (size_t)st->min_value.len;
    }
    if (PQT_HAS_FIELD(st, statistics, max_value)) {
      s.max_value_plain = st->max_value.ptr ? st->max_value.ptr : (const uint8_t *)"";
      s.n_max_value_plain = (size_t)st->max_value.len;
    }
    if (PQT_HAS_FIELD(st, statistics, min)) {
      s.legacy_min_plain = st->min.ptr ? st->min.ptr : (const uint8_t *)"";
      s.n_legacy_min_plain = (size_t)st->min.len;
    }
    if (PQT_HAS_FIELD(st, statistics, max)) {
      s.legacy_max_plain = st->max.ptr ? st->max.ptr : (const uint8_t *)"";
      s.n_legacy_max_plain = (size_t)st->max.len;
    }
    if (typed && PQT_HAS_FIELD(st, statistics, is_min_value_exact)) s.min_exact = st->is_min_value_exact;
    if (typed && PQT_HAS_FIELD(st, statistics, is_max_value_exact)) s.max_exact = st->is_max_value_exact;
    s.has_null_count = PQT_HAS_FIELD(st, statistics, null_count);
    s.null_count = st->null_count;
    s.has_nan_count = PQT_HAS_FIELD(st, statistics, nan_count);
    s.nan_count = st->nan_count;
    s.has_distinct_count = PQT_HAS_FIELD(st, statistics, distinct_count);
    s.distinct_count = st->distinct_count;
  }
  FILL_OUT(out, s);
  return PQT_OK;
}

static pqt_status chunk_statistics(const pqt_reader *r, int32_t rg, int32_t col, bool stored, pqt_chunk_statistics *out,
                                   pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_chunk_statistics: out is NULL");
  PQT_RETURN_NOT_OK(
      pqt_meta_check_size(out->struct_size, offsetof(pqt_chunk_statistics, n_fields), "pqt_chunk_statistics", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(meta_chunk(r, rg, col, stored, &cc, err));
  const pqt_column_metadata *cm = &cc->meta_data;
  pqt_status st = pqt_meta_fill_statistics(
      r, col, PQT_HAS_FIELD(cm, column_metadata, statistics) ? &cm->statistics : NULL, stored, out, err);
  if (st != PQT_OK) pqt_error_prefix(err, "row group %d, column %s", rg, r->schema->leaves[col]->dotted_path);
  return st;
}
PQT_API pqt_status pqt_reader_chunk_statistics(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_statistics *out,
                                               pqt_error *err) {
  return chunk_statistics(r, rg, col, false, out, err);
}
PQT_API pqt_status pqt_reader_chunk_statistics_stored(const pqt_reader *r, int32_t rg, int32_t col,
                                                      pqt_chunk_statistics *out, pqt_error *err) {
  return chunk_statistics(r, rg, col, true, out, err);
}

PQT_API pqt_status pqt_reader_chunk_size_stats(const pqt_reader *r, int32_t rg, int32_t col, pqt_size_stats *out,
                                               pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_chunk_size_stats: out is NULL");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_size_stats), "pqt_size_stats", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(pqt_meta_chunk(r, rg, col, &cc, err));
  const pqt_column_metadata *cm = &cc->meta_data;
  pqt_size_stats s;
  memset(&s, 0, sizeof s);
  if (PQT_HAS_FIELD(cm, column_metadata, size_statistics)) {
    const pqt_size_statistics *z = &cm->size_statistics;
    s.present = 1;
    s.has_unencoded_byte_array_data_bytes = PQT_HAS_FIELD(z, size_statistics, unencoded_byte_array_data_bytes);
    s.unencoded_byte_array_data_bytes = z->unencoded_byte_array_data_bytes;
    if (PQT_HAS_FIELD(z, size_statistics, repetition_level_histogram)) {
      s.n_repetition_level_histogram = z->repetition_level_histogram.n;
      s.repetition_level_histogram = z->repetition_level_histogram.items;
    }
    if (PQT_HAS_FIELD(z, size_statistics, definition_level_histogram)) {
      s.n_definition_level_histogram = z->definition_level_histogram.n;
      s.definition_level_histogram = z->definition_level_histogram.items;
    }
  }
  FILL_OUT(out, s);
  return PQT_OK;
}

static pqt_status chunk_geo_stats(const pqt_reader *r, int32_t rg, int32_t col, bool stored, pqt_geo_stats *out,
                                  pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_chunk_geo_stats: out is NULL");
  PQT_RETURN_NOT_OK(
      pqt_meta_check_size(out->struct_size, offsetof(pqt_geo_stats, has_geospatial_types), "pqt_geo_stats", err));
  const pqt_column_chunk *cc = NULL;
  PQT_RETURN_NOT_OK(meta_chunk(r, rg, col, stored, &cc, err));
  const pqt_column_metadata *cm = &cc->meta_data;
  pqt_geo_stats s;
  memset(&s, 0, sizeof s);
  if (PQT_HAS_FIELD(cm, column_metadata, geospatial_statistics)) {
    const pqt_geospatial_statistics *g = &cm->geospatial_statistics;
    s.present = 1;
    if (PQT_HAS_FIELD(g, geospatial_statistics, bbox)) {
      const pqt_bounding_box *b = &g->bbox;
      s.has_bbox = 1;
      s.xmin = b->xmin;
      s.xmax = b->xmax;
      s.ymin = b->ymin;
      s.ymax = b->ymax;
      s.has_z = PQT_HAS_FIELD(b, bounding_box, zmin) && PQT_HAS_FIELD(b, bounding_box, zmax);
      s.zmin = b->zmin;
      s.zmax = b->zmax;
      s.has_m = PQT_HAS_FIELD(b, bounding_box, mmin) && PQT_HAS_FIELD(b, bounding_box, mmax);
      s.mmin = b->mmin;
      s.mmax = b->mmax;
    }
    if (PQT_HAS_FIELD(g, geospatial_statistics, geospatial_types)) {
      s.n_geospatial_types = g->geospatial_types.n;
      s.geospatial_types = g->geospatial_types.items;
      s.has_geospatial_types = 1;
    }
  }
  FILL_OUT(out, s);
  return PQT_OK;
}
PQT_API pqt_status pqt_reader_chunk_geo_stats(const pqt_reader *r, int32_t rg, int32_t col, pqt_geo_stats *out,
                                              pqt_error *err) {
  return chunk_geo_stats(r, rg, col, false, out, err);
}
PQT_API pqt_status pqt_reader_chunk_geo_stats_stored(const pqt_reader *r, int32_t rg, int32_t col, pqt_geo_stats *out,
                                                     pqt_error *err) {
  return chunk_geo_stats(r, rg, col, true, out, err);
}

/* ---- the footer as stored ------------------------------------------------------------ */

INIT_FN(pqt_row_group_info_init, pqt_row_group_info)

PQT_API int32_t pqt_reader_footer_version(const pqt_reader *r) { return r ? r->md.version : 0; }

PQT_API const pqt_allocator *pqt_reader_allocator(const pqt_reader *r) {
  return pqt_alloc_or_default(r ? r->alloc : NULL);
}

PQT_API int32_t pqt_reader_sorting_columns(const pqt_reader *r, int32_t g, struct pqt_sorting_column_spec *out,
                                           int32_t max) {
  if (!r || g < 0 || g >= r->md.row_groups.n) return -1;
  const pqt_list_sorting_column *sc = &r->md.row_groups.items[g].sorting_columns;
  for (int32_t i = 0; out && i < sc->n && i < max; i++)
    out[i] = (pqt_sorting_column_spec){sc->items[i].column_idx, sc->items[i].descending, sc->items[i].nulls_first};
  return sc->n;
}

PQT_API pqt_status pqt_reader_row_group(const pqt_reader *r, int32_t rg, pqt_row_group_info *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_row_group: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_row_group_info), "pqt_row_group_info", err));
  if (rg < 0 || rg >= r->md.row_groups.n)
    return pqt_error_set(err, PQT_EINVAL, "row group %d out of range (the file has %d)", rg, r->md.row_groups.n);
  const pqt_row_group *g = &r->md.row_groups.items[rg];
  pqt_row_group_info s;
  memset(&s, 0, sizeof s);
  s.num_rows = g->num_rows;
  s.total_byte_size = g->total_byte_size;
  s.total_compressed_size = PQT_HAS_FIELD(g, row_group, total_compressed_size) ? g->total_compressed_size : -1;
  s.n_chunks = g->columns.n;
  s.n_sorting_columns = g->sorting_columns.n;
  FILL_OUT(out, s);
  return PQT_OK;
}

PQT_API int32_t pqt_reader_chunk_metadata_kind(const pqt_reader *r, int32_t rg, int32_t col) {
  if (!r || rg < 0 || rg >= r->md.row_groups.n || col < 0 || col >= r->schema->n_leaves) return -1;
  const pqt_row_group *g = &r->md.row_groups.items[rg];
  if (col >= g->columns.n) return PQT_CHUNK_METADATA_NONE;
  const pqt_column_chunk *cc = &g->columns.items[col];
  if (PQT_HAS_FIELD(cc, column_chunk, meta_data)) return PQT_CHUNK_METADATA_PLAIN;
  if (PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata)) return PQT_CHUNK_METADATA_ENCRYPTED;
  return PQT_CHUNK_METADATA_NONE;
}

PQT_API size_t pqt_double_text(double v, char *buf, size_t cap) {
  if (!buf || cap == 0) return 0;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_format_double(v, &b, NULL);
  size_t n = b.status == PQT_OK && b.data ? b.len : 0;
  if (n > cap - 1) n = cap - 1;
  if (n) memcpy(buf, b.data, n);
  buf[n] = '\0';
  pqt_buf_free(&b);
  return n;
}

/* ---- values as text ---------------------------------------------------------------- */

static pqt_status column_leaf(const pqt_reader *r, int32_t col, const pqt_schema_node **leaf, pqt_error *err) {
  if (!r) return pqt_error_set(err, PQT_EINVAL, "reader is NULL");
  if (col < 0 || col >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "column %d out of range (the file has %d)", col, r->schema->n_leaves);
  *leaf = r->schema->leaves[col];
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_parse_value(const pqt_reader *r, int32_t col, const char *text, pqt_value *out,
                                          pqt_string *storage, pqt_error *err) {
  if (!out || !text || !storage) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_parse_value: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_value), "pqt_value", err));
  const pqt_schema_node *leaf = NULL;
  PQT_RETURN_NOT_OK(column_leaf(r, col, &leaf, err));
  pqt_string_free(storage);
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  size_t caller = out->struct_size;
  pqt_value v;
  pqt_status st = pqt_typed_parse(leaf, text, &v, &b, err);
  if (st == PQT_OK && b.data) {
    /* hand the storage over (data stays where it is: v.bytes point into it) */
    storage->data = (char *)b.data;
    storage->len = b.len;
    storage->cap = b.cap;
    storage->alloc = b.alloc;
  } else {
    pqt_buf_free(&b);
  }
  if (st == PQT_OK) {
    v.struct_size = caller;
    memcpy(out, &v, caller < sizeof v ? caller : sizeof v);
  }
  return st;
}

PQT_API pqt_status pqt_reader_format_plain(const pqt_reader *r, int32_t col, const uint8_t *plain, size_t n,
                                           pqt_string *out, pqt_error *err) {
  if (!out || (!plain && n)) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_format_plain: bad arguments");
  const pqt_schema_node *leaf = NULL;
  PQT_RETURN_NOT_OK(column_leaf(r, col, &leaf, err));
  pqt_buf text;
  pqt_buf_init(&text, out->data ? out->alloc : r->alloc);
  if (out->data) {
    text.data = (uint8_t *)out->data;
    text.len = out->len;
    text.cap = out->cap;
  }
  size_t had = text.len;
  pqt_value_type vt;
  pqt_value_type_from_leaf(&vt, leaf);
  pqt_status st = pqt_format_value(&vt, plain ? plain : (const uint8_t *)"", n, &text, err);
  if (st == PQT_OK) st = pqt_buf_append(&text, "", 1, err);
  if (text.data) {
    out->data = (char *)text.data;
    out->cap = text.cap;
    out->alloc = text.alloc;
    out->len = st == PQT_OK ? text.len - 1 : had;
    if (out->len < text.cap) out->data[out->len] = '\0';
  }
  return st;
}

PQT_API pqt_status pqt_reader_format_value(const pqt_reader *r, int32_t col, const pqt_value *v, pqt_string *out,
                                           pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_format_value: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(v->struct_size, sizeof(pqt_value), "pqt_value", err));
  const pqt_schema_node *leaf = NULL;
  PQT_RETURN_NOT_OK(column_leaf(r, col, &leaf, err));
  if (v->kind == PQT_VALUE_NONE) return pqt_error_set(err, PQT_EINVAL, "column %s: no value", leaf->dotted_path);
  pqt_buf plain, text;
  pqt_buf_init(&plain, r->alloc);
  /* append to what out holds (taken over, handed back) */
  pqt_buf_init(&text, out->data ? out->alloc : r->alloc);
  if (out->data) {
    text.data = (uint8_t *)out->data;
    text.len = out->len;
    text.cap = out->cap;
  }
  pqt_value_type vt;
  pqt_value_type_from_leaf(&vt, leaf);
  pqt_status st = pqt_typed_to_plain(leaf, v, &plain, err);
  if (st == PQT_OK) st = pqt_format_value(&vt, plain.data, plain.len, &text, err);
  if (st == PQT_OK) st = pqt_buf_append(&text, "", 1, err);
  pqt_buf_free(&plain);
  if (st == PQT_OK) {
    out->data = (char *)text.data;
    out->len = text.len - 1;
    out->cap = text.cap;
    out->alloc = text.alloc;
  } else if (text.data) {
    /* keep the caller's text as it was (only its NUL may have moved) */
    out->data = (char *)text.data;
    out->cap = text.cap;
    out->alloc = text.alloc;
    if (out->len < text.cap) out->data[out->len] = '\0';
  }
  return st;
}

/* ---- comparing values, the footer's signature ------------------------------------------- */

PQT_API int pqt_reader_compare_plain(const pqt_reader *r, int32_t col, const uint8_t *a, size_t an, const uint8_t *b,
                                     size_t bn) {
  if (!r || col < 0 || col >= r->schema->n_leaves || (!a && an) || (!b && bn)) return 2;
  const pqt_schema_node *leaf = r->schema->leaves[col];
  pqt_sort_kind k = pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type);
  if (!pqt_sort_value_ordered(k, a, an) || !pqt_sort_value_ordered(k, b, bn)) return 2;
  int c = pqt_stats_compare(k, a, an, b, bn);
  return (c > 0) - (c < 0);
}

PQT_API pqt_status pqt_reader_footer_signature(const pqt_reader *r, int32_t *state, pqt_error *err) {
  if (!r || !state) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_footer_signature: bad arguments");
  *state = PQT_FOOTER_SIGNATURE_NONE;
  const pqt_file_decryptor *fd = r->crypto;
  if (!fd || fd->encrypted_footer) return PQT_OK;
  if (fd->footer_verified) {
    *state = PQT_FOOTER_SIGNATURE_VERIFIED;
    return PQT_OK;
  }
  if (!fd->have_footer_key) {
    *state = PQT_FOOTER_SIGNATURE_NO_KEY;
    return PQT_OK;
  }
  pqt_status st = pqt_file_decryptor_verify_footer(fd, r->footer, r->footer_len, err);
  if (st == PQT_OK) *state = PQT_FOOTER_SIGNATURE_VERIFIED;
  return st;
}
