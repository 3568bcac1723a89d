/*
 * file/summary.c: the readable metadata summary printed by `parquetry meta`.
 * Per column chunk it uses the parquet-tools line users already know
 * (`name: TYPE CODEC DO:.. FPO:.. SZ:comp/uncomp/ratio VC:.. ENC:..`) with
 * statistics decoded to values in the canonical text form.
 *
 * Statistics follow the spec's sort-order rules: min_value/max_value are
 * shown when present; the deprecated min/max only when the column's sort
 * order is signed (they were always computed with signed comparison), and
 * marked "(legacy)".
 */
#include <stdio.h>

#include "file/reader_internal.h"
#include "meta/value_format.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *enum_name(const pqt_thrift_enum *e, int32_t v, char *tmp, size_t n) {
  const char *s = pqt_thrift_enum_name(e, v);
  if (s) return s;
  snprintf(tmp, n, "%d", v);
  return tmp;
}

/* Is the legacy (signed) min/max meaningful for this column? Only when the
 * type's order is signed: not for byte arrays (unsigned byte order) or
 * unsigned integers. */
static bool legacy_stats_usable(const pqt_value_type *vt) {
  int lt = pqt_union_which(vt->logical.isset);
  if (vt->physical_type == PQT_BYTE_ARRAY || vt->physical_type == PQT_FIXED_LEN_BYTE_ARRAY ||
      vt->physical_type == PQT_INT96)
    return false;
  if (lt == PQT_LT_INTEGER && !vt->logical.integer.is_signed) return false;
  if (vt->converted_type >= PQT_CT_UINT_8 && vt->converted_type <= PQT_CT_UINT_64) return false;
  return true;
}

static void append_stat_value(pqt_buf *b, const pqt_value_type *vt, pqt_bytes v, pqt_error *err) {
  size_t mark = b->len;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_format_value(vt, v.ptr, (size_t)v.len, b, &e) != PQT_OK) {
    b->len = mark;
    if (e.code == PQT_ENOMEM) { /* not a value we cannot show: out of memory */
      pqt_nomem(err);
      return;
    }
    pqt_buf_printf(b, err, "<%lld bytes>", (long long)v.len);
  }
}

static pqt_status append_stats(pqt_buf *b, const pqt_statistics *s, const pqt_value_type *vt, pqt_error *err) {
  if (!s->isset) return pqt_buf_printf(b, err, " ST:[none]");
  PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " ST:["));
  const char *sep = "";
  if (PQT_HAS(s, 6) || PQT_HAS(s, 5)) {
    if (PQT_HAS(s, 6)) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, vt, s->min_value, err);
      if (PQT_HAS(s, 8) && !s->is_min_value_exact) pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
    if (PQT_HAS(s, 5)) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, vt, s->max_value, err);
      if (PQT_HAS(s, 7) && !s->is_max_value_exact) pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
  } else if ((PQT_HAS(s, 2) || PQT_HAS(s, 1)) && legacy_stats_usable(vt)) {
    if (PQT_HAS(s, 2)) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, vt, s->min, err);
      sep = ", ";
    }
    if (PQT_HAS(s, 1)) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, vt, s->max, err);
      sep = ", ";
    }
    pqt_buf_printf(b, err, " (legacy)");
  } else if (PQT_HAS(s, 2) || PQT_HAS(s, 1)) {
    pqt_buf_printf(b, err, "min/max: (legacy, ignored for this sort order)");
    sep = ", ";
  }
  if (PQT_HAS(s, 3)) { pqt_buf_printf(b, err, "%snulls: %lld", sep, (long long)s->null_count); sep = ", "; }
  if (PQT_HAS(s, 4)) { pqt_buf_printf(b, err, "%sdistinct: %lld", sep, (long long)s->distinct_count); sep = ", "; }
  if (PQT_HAS(s, 9)) { pqt_buf_printf(b, err, "%snans: %lld", sep, (long long)s->nan_count); }
  return pqt_buf_printf(b, err, "]");
}

static void append_size(pqt_buf *b, int64_t n, pqt_error *err) {
  if (n < 10 * 1024) pqt_buf_printf(b, err, "%lld B", (long long)n);
  else if (n < 10LL * 1024 * 1024) pqt_buf_printf(b, err, "%.1f KiB", (double)n / 1024);
  else if (n < 10LL * 1024 * 1024 * 1024) pqt_buf_printf(b, err, "%.1f MiB", (double)n / (1024 * 1024));
  else pqt_buf_printf(b, err, "%.1f GiB", (double)n / (1024.0 * 1024 * 1024));
}

pqt_status pqt_reader_summary_append(const pqt_reader *r, pqt_buf *b, pqt_error *err) {
  const pqt_file_metadata *md = &r->md;
  const pqt_schema *sc = r->schema;
  char tmp[32];
  pqt_buf_printf(b, err, "version:     %d\n", md->version);
  pqt_buf_printf(b, err, "created_by:  %s\n", r->created_by);
  pqt_buf_printf(b, err, "rows:        %lld\n", (long long)md->num_rows);
  pqt_buf_printf(b, err, "row groups:  %d\n", md->row_groups.n);
  pqt_buf_printf(b, err, "columns:     %d\n", sc->n_leaves);
  if (md->key_value_metadata.n > 0) {
    pqt_buf_printf(b, err, "key-value metadata:\n");
    for (int32_t i = 0; i < md->key_value_metadata.n; i++) {
      const pqt_key_value *kv = &md->key_value_metadata.items[i];
      pqt_buf_printf(b, err, "  %.*s: ", (int)kv->key.len, (const char *)kv->key.ptr);
      if (!PQT_HAS(kv, 2)) pqt_buf_printf(b, err, "(no value)\n");
      else if (kv->value.len > 80) pqt_buf_printf(b, err, "<%lld bytes>\n", (long long)kv->value.len);
      else {
        pqt_json_string_append(b, kv->value.ptr, (size_t)kv->value.len, err);
        pqt_buf_printf(b, err, "\n");
      }
    }
  }
  for (int32_t g = 0; g < md->row_groups.n; g++) {
    const pqt_row_group *rg = &md->row_groups.items[g];
    pqt_buf_printf(b, err, "\nrow group %d: rows %lld, ", g, (long long)rg->num_rows);
    int64_t comp = 0;
    for (int32_t c = 0; c < rg->columns.n; c++)
      if (PQT_HAS(&rg->columns.items[c], 3)) comp += rg->columns.items[c].meta_data.total_compressed_size;
    pqt_buf_printf(b, err, "compressed ");
    append_size(b, PQT_HAS(rg, 6) ? rg->total_compressed_size : comp, err);
    pqt_buf_printf(b, err, ", uncompressed ");
    append_size(b, rg->total_byte_size, err);
    pqt_buf_printf(b, err, "\n");
    for (int32_t c = 0; c < rg->columns.n && c < sc->n_leaves; c++) {
      const pqt_column_chunk *cc = &rg->columns.items[c];
      const pqt_schema_node *leaf = sc->leaves[c];
      pqt_buf_printf(b, err, "  %s:", leaf->dotted_path);
      if (!PQT_HAS(cc, 3)) {
        pqt_buf_printf(b, err, PQT_HAS(cc, 9) ? " (encrypted column metadata)\n" : " (no column metadata)\n");
        continue;
      }
      const pqt_column_metadata *cm = &cc->meta_data;
      pqt_value_type vt;
      pqt_value_type_from_leaf(&vt, leaf);
      pqt_buf_printf(b, err, " %s %s", enum_name(&pqt_enum_type, cm->type, tmp, sizeof tmp),
                     enum_name(&pqt_enum_compression_codec, cm->codec, tmp, sizeof tmp));
      if (PQT_HAS(cm, 11)) pqt_buf_printf(b, err, " DO:%lld", (long long)cm->dictionary_page_offset);
      else pqt_buf_printf(b, err, " DO:-");
      pqt_buf_printf(b, err, " FPO:%lld SZ:%lld/%lld/%.2f VC:%lld ENC:", (long long)cm->data_page_offset,
                     (long long)cm->total_compressed_size, (long long)cm->total_uncompressed_size,
                     cm->total_compressed_size > 0
                         ? (double)cm->total_uncompressed_size / (double)cm->total_compressed_size
                         : 0.0,
                     (long long)cm->num_values);
      for (int32_t e = 0; e < cm->encodings.n; e++)
        pqt_buf_printf(b, err, "%s%s", e ? "," : "", enum_name(&pqt_enum_encoding, cm->encodings.items[e], tmp, sizeof tmp));
      if (PQT_HAS(cm, 12)) append_stats(b, &cm->statistics, &vt, err);
      else pqt_buf_printf(b, err, " ST:[none]");
      if (PQT_HAS(cm, 14)) pqt_buf_printf(b, err, " BLOOM:%lld", (long long)cm->bloom_filter_offset);
      if (PQT_HAS(cc, 4)) pqt_buf_printf(b, err, " OI:%lld", (long long)cc->offset_index_offset);
      if (PQT_HAS(cc, 6)) pqt_buf_printf(b, err, " CI:%lld", (long long)cc->column_index_offset);
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\n"));
    }
  }
  return PQT_OK;
}

PQT_API int32_t pqt_reader_sorting_columns(const pqt_reader *r, int32_t g, struct pqt_sorting_column_spec *out,
                                           int32_t max) {
  if (!r || g < 0 || g >= r->md.row_groups.n) return -1;
  const pqt_list_sorting_column *sc = &r->md.row_groups.items[g].sorting_columns;
  for (int32_t i = 0; out && i < sc->n && i < max; i++)
    out[i] = (pqt_sorting_column_spec){sc->items[i].column_idx, sc->items[i].descending, sc->items[i].nulls_first};
  return sc->n;
}
