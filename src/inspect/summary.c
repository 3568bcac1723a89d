/*
 * inspect/summary.c: the readable metadata summary printed by `parquetry meta`,
 * in two styles: labelled lines no wider than a terminal (80 columns by
 * default; longer values are cut, marked "..."), and the parquet-tools line
 * users paste into bug reports (`name: TYPE CODEC DO:.. FPO:..
 * SZ:comp/uncomp/ratio VC:.. ENC:..`). Both decode statistics to values in
 * the canonical text form and show key-value metadata values (cut, with
 * their length).
 *
 * Statistics follow the spec's sort-order rules: min_value/max_value are
 * shown when present; the deprecated min/max only when the column's sort
 * order is signed (they were always computed with signed comparison), and
 * marked "(legacy)".
 */
#include <stdio.h>

#include "file/reader_internal.h"
#include "meta/value_format.h"
#include "parquetry_geo.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *enum_name(const pqt_thrift_enum *e, int32_t v, char *tmp, size_t n) {
  const char *s = pqt_thrift_enum_name(e, v);
  if (s) return s;
  snprintf(tmp, n, "%d", v);
  return tmp;
}

/* n with thousands separators ("394,311"), for the readable style. */
static const char *sep3(int64_t n, char *buf, size_t cap) {
  char digits[32];
  unsigned long long u = n < 0 ? 0ULL - (unsigned long long)n : (unsigned long long)n;
  int len = snprintf(digits, sizeof digits, "%llu", u);
  size_t k = 0;
  if (n < 0 && k + 1 < cap) buf[k++] = '-';
  for (int i = 0; i < len && k + 2 < cap; i++) {
    if (i > 0 && (len - i) % 3 == 0) buf[k++] = ',';
    buf[k++] = digits[i];
  }
  buf[k] = '\0';
  return buf;
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

/* Lines "    geo box: x [..], y [..]", "    geo box: z [..], m [..]" (when
 * present) and "    geo types: Point, LineString Z", each ended by end_line. */
static void end_line(pqt_buf *b, size_t mark, int32_t width, pqt_error *err);
static void append_geo_stats(pqt_buf *b, const pqt_geospatial_statistics *g, int32_t width, pqt_error *err) {
  size_t m = b->len;
  if (PQT_HAS_FIELD(g, geospatial_statistics, bbox)) {
    const pqt_bounding_box *x = &g->bbox;
    const double v[8] = {x->xmin, x->xmax, x->ymin, x->ymax, x->zmin, x->zmax, x->mmin, x->mmax};
    const int has[4] = {1, 1, PQT_HAS_FIELD(x, bounding_box, zmin) && PQT_HAS_FIELD(x, bounding_box, zmax),
                        PQT_HAS_FIELD(x, bounding_box, mmin) && PQT_HAS_FIELD(x, bounding_box, mmax)};
    for (int d = 0; d < 4; d++) {
      if (!has[d]) continue;
      if (d == 2 || (d == 3 && !has[2])) {
        end_line(b, m, width, err);
        m = b->len;
      }
      pqt_buf_printf(b, err, "%s%c [", d == 0 || d == 2 || (d == 3 && !has[2]) ? "    geo box: " : ", ", "xyzm"[d]);
      pqt_format_double(v[2 * d], b, err);
      pqt_buf_printf(b, err, ", ");
      pqt_format_double(v[2 * d + 1], b, err);
      pqt_buf_printf(b, err, "]%s", d == 0 && x->xmin > x->xmax ? " (wraps)" : "");
    }
  } else {
    pqt_buf_printf(b, err, "    geo box: none");
  }
  end_line(b, m, width, err);
  if (PQT_HAS_FIELD(g, geospatial_statistics, geospatial_types)) {
    m = b->len;
    pqt_buf_printf(b, err, "    geo types:");
    for (int32_t i = 0; i < g->geospatial_types.n; i++) {
      const char *nm = pqt_geo_type_code_name(g->geospatial_types.items[i]);
      if (nm) pqt_buf_printf(b, err, "%s %s", i ? "," : "", nm);
      else pqt_buf_printf(b, err, "%s %d", i ? "," : "", (int)g->geospatial_types.items[i]);
    }
    if (g->geospatial_types.n == 0) pqt_buf_printf(b, err, " none");
    end_line(b, m, width, err);
  }
}

static pqt_status append_stats(pqt_buf *b, const pqt_statistics *s, const pqt_value_type *vt, pqt_error *err) {
  if (!s->isset) return pqt_buf_printf(b, err, " ST:[none]");
  PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " ST:["));
  const char *sep = "";
  if (PQT_HAS_FIELD(s, statistics, min_value) || PQT_HAS_FIELD(s, statistics, max_value)) {
    if (PQT_HAS_FIELD(s, statistics, min_value)) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, vt, s->min_value, err);
      if (PQT_HAS_FIELD(s, statistics, is_min_value_exact) && !s->is_min_value_exact)
        pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
    if (PQT_HAS_FIELD(s, statistics, max_value)) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, vt, s->max_value, err);
      if (PQT_HAS_FIELD(s, statistics, is_max_value_exact) && !s->is_max_value_exact)
        pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
  } else if ((PQT_HAS_FIELD(s, statistics, min) || PQT_HAS_FIELD(s, statistics, max)) && legacy_stats_usable(vt)) {
    if (PQT_HAS_FIELD(s, statistics, min)) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, vt, s->min, err);
      sep = ", ";
    }
    if (PQT_HAS_FIELD(s, statistics, max)) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, vt, s->max, err);
      sep = ", ";
    }
    pqt_buf_printf(b, err, " (legacy)");
  } else if (PQT_HAS_FIELD(s, statistics, min) || PQT_HAS_FIELD(s, statistics, max)) {
    pqt_buf_printf(b, err, "min/max: (legacy, ignored for this sort order)");
    sep = ", ";
  }
  if (PQT_HAS_FIELD(s, statistics, null_count)) {
    pqt_buf_printf(b, err, "%snulls: %lld", sep, (long long)s->null_count);
    sep = ", ";
  }
  if (PQT_HAS_FIELD(s, statistics, distinct_count)) {
    pqt_buf_printf(b, err, "%sdistinct: %lld", sep, (long long)s->distinct_count);
    sep = ", ";
  }
  if (PQT_HAS_FIELD(s, statistics, nan_count)) {
    pqt_buf_printf(b, err, "%snans: %lld", sep, (long long)s->nan_count);
  }
  return pqt_buf_printf(b, err, "]");
}

static void append_size(pqt_buf *b, int64_t n, pqt_error *err) {
  if (n < 10 * 1024) pqt_buf_printf(b, err, "%lld B", (long long)n);
  else if (n < 10LL * 1024 * 1024) pqt_buf_printf(b, err, "%.1f KiB", (double)n / 1024);
  else if (n < 10LL * 1024 * 1024 * 1024) pqt_buf_printf(b, err, "%.1f MiB", (double)n / (1024 * 1024));
  else pqt_buf_printf(b, err, "%.1f GiB", (double)n / (1024.0 * 1024 * 1024));
}

/* ---- lines that fit a width ---------------------------------------------------- */

/* Code points of s[0..n) (UTF-8 continuation bytes do not count). */
static size_t columns_of(const uint8_t *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += (s[i] & 0xC0) != 0x80;
  return c;
}

/* Byte length of the first `cols` code points of s[0..n). */
static size_t prefix_bytes(const uint8_t *s, size_t n, size_t cols) {
  size_t c = 0, i = 0;
  for (; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) {
      if (c == cols) break;
      c++;
    }
  }
  return i;
}

/* End the line begun at mark: cut it to width columns ("..." at the end
 * when cut), then a newline. */
static void end_line(pqt_buf *b, size_t mark, int32_t width, pqt_error *err) {
  if (b->len >= mark && width > 3 && columns_of(b->data + mark, b->len - mark) > (size_t)width) {
    b->len = mark + prefix_bytes(b->data + mark, b->len - mark, (size_t)width - 3);
    pqt_buf_printf(b, err, "...");
  }
  pqt_buf_printf(b, err, "\n");
}

/* A key-value value as a JSON string, cut after about `room` columns
 * ("..." inside the quotes) and then followed by its length in bytes. */
static void append_kv_value(pqt_buf *b, const pqt_key_value *kv, size_t room, pqt_error *err) {
  if (!PQT_HAS_FIELD(kv, key_value, value)) {
    pqt_buf_printf(b, err, "(no value)");
    return;
  }
  size_t mark = b->len;
  if (pqt_json_string_append(b, kv->value.ptr, (size_t)kv->value.len, err) != PQT_OK) return;
  size_t cols = columns_of(b->data + mark, b->len - mark);
  if (room < 8) room = 8;
  if (cols <= room) return;
  size_t keep = prefix_bytes(b->data + mark, b->len - mark, room - 4);
  /* not in the middle of an escape: back to before a lone backslash run */
  size_t end = mark + keep, bs = 0;
  while (end - bs > mark + 1 && b->data[end - bs - 1] == '\\') bs++;
  if (bs % 2) end--;
  for (size_t k = end; k > mark + 1 && k + 6 > end; k--)
    if (b->data[k - 1] == '\\' && k < b->len && b->data[k] == 'u') {
      end = k - 1;
      break;
    }
  b->len = end;
  pqt_buf_printf(b, err, "...\" (%lld bytes)", (long long)kv->value.len);
}

/* ---- the readable style --------------------------------------------------------- */

#define LABEL "%-13s"

static pqt_status summary_readable(const pqt_reader *r, int32_t width, pqt_buf *b, pqt_error *err) {
  const pqt_file_metadata *md = &r->md;
  const pqt_schema *sc = r->schema;
  char tmp[32], tmp2[32];
  size_t m;
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%d", "version:", md->version);
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "created by:", r->created_by[0] ? r->created_by : "(not recorded)");
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "rows:", sep3(md->num_rows, tmp, sizeof tmp));
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "row groups:", sep3(md->row_groups.n, tmp, sizeof tmp));
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "columns:", sep3(sc->n_leaves, tmp, sizeof tmp));
  end_line(b, m, width, err);
  if (md->key_value_metadata.n > 0) {
    m = b->len;
    pqt_buf_printf(b, err, "key-value metadata: %d key%s", md->key_value_metadata.n,
                   md->key_value_metadata.n == 1 ? "" : "s");
    end_line(b, m, width, err);
    size_t keyw = 0;
    for (int32_t i = 0; i < md->key_value_metadata.n; i++) {
      size_t kl = columns_of(md->key_value_metadata.items[i].key.ptr, (size_t)md->key_value_metadata.items[i].key.len);
      if (kl > keyw) keyw = kl;
    }
    if (keyw > 24) keyw = 24;
    for (int32_t i = 0; i < md->key_value_metadata.n; i++) {
      const pqt_key_value *kv = &md->key_value_metadata.items[i];
      m = b->len;
      size_t kl = columns_of(kv->key.ptr, (size_t)kv->key.len);
      pqt_buf_printf(b, err, "  %.*s%*s  ", (int)kv->key.len, (const char *)kv->key.ptr,
                     (int)(kl < keyw ? keyw - kl : 0), "");
      size_t used = columns_of(b->data + m, b->len - m);
      size_t room = (size_t)width > used + 16 ? (size_t)width - used - 16 : 8;
      append_kv_value(b, kv, room, err);
      end_line(b, m, width, err);
    }
  }
  for (int32_t g = 0; g < md->row_groups.n; g++) {
    const pqt_row_group *rg = &md->row_groups.items[g];
    int64_t comp = 0;
    for (int32_t c = 0; c < rg->columns.n; c++)
      if (PQT_HAS_FIELD(&rg->columns.items[c], column_chunk, meta_data))
        comp += rg->columns.items[c].meta_data.total_compressed_size;
    pqt_buf_printf(b, err, "\n");
    m = b->len;
    pqt_buf_printf(b, err, "row group %d: %s rows, compressed ", g, sep3(rg->num_rows, tmp, sizeof tmp));
    append_size(b, PQT_HAS_FIELD(rg, row_group, total_compressed_size) ? rg->total_compressed_size : comp, err);
    pqt_buf_printf(b, err, ", uncompressed ");
    append_size(b, rg->total_byte_size, err);
    end_line(b, m, width, err);
    if (rg->sorting_columns.n > 0) {
      m = b->len;
      pqt_buf_printf(b, err, "  sorted by ");
      for (int32_t i = 0; i < rg->sorting_columns.n; i++) {
        const pqt_sorting_column *s = &rg->sorting_columns.items[i];
        const char *name =
            s->column_idx >= 0 && s->column_idx < sc->n_leaves ? sc->leaves[s->column_idx]->dotted_path : "?";
        pqt_buf_printf(b, err, "%s%s %s, nulls %s", i ? "; " : "", name, s->descending ? "descending" : "ascending",
                       s->nulls_first ? "first" : "last");
      }
      end_line(b, m, width, err);
    }
    for (int32_t c = 0; c < rg->columns.n && c < sc->n_leaves; c++) {
      const pqt_column_chunk *cc = &rg->columns.items[c];
      const pqt_schema_node *leaf = sc->leaves[c];
      m = b->len;
      pqt_buf_printf(b, err, "  column %s", leaf->dotted_path);
      if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) {
        pqt_buf_printf(
            b, err,
            PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata) ? ": metadata encrypted" : ": no metadata");
        end_line(b, m, width, err);
        continue;
      }
      end_line(b, m, width, err);
      const pqt_column_metadata *cm = &cc->meta_data;
      pqt_value_type vt;
      pqt_value_type_from_leaf(&vt, leaf);
      m = b->len;
      char tmp3[32];
      pqt_buf_printf(b, err, "    type %s, codec %s, %s values", enum_name(&pqt_enum_type, cm->type, tmp, sizeof tmp),
                     enum_name(&pqt_enum_compression_codec, cm->codec, tmp2, sizeof tmp2),
                     sep3(cm->num_values, tmp3, sizeof tmp3));
      end_line(b, m, width, err);
      m = b->len;
      pqt_buf_printf(b, err, "    encodings ");
      for (int32_t e = 0; e < cm->encodings.n; e++)
        pqt_buf_printf(b, err, "%s%s", e ? ", " : "",
                       enum_name(&pqt_enum_encoding, cm->encodings.items[e], tmp, sizeof tmp));
      if (cm->encodings.n == 0) pqt_buf_printf(b, err, "(none listed)");
      end_line(b, m, width, err);
      m = b->len;
      pqt_buf_printf(b, err, "    compressed ");
      append_size(b, cm->total_compressed_size, err);
      pqt_buf_printf(b, err, ", uncompressed ");
      append_size(b, cm->total_uncompressed_size, err);
      if (cm->total_compressed_size > 0)
        pqt_buf_printf(b, err, ", ratio %.2f", (double)cm->total_uncompressed_size / (double)cm->total_compressed_size);
      end_line(b, m, width, err);
      m = b->len;
      if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset))
        pqt_buf_printf(b, err, "    dictionary page at %s, ", sep3(cm->dictionary_page_offset, tmp, sizeof tmp));
      else pqt_buf_printf(b, err, "    no dictionary page, ");
      pqt_buf_printf(b, err, "first data page at %s", sep3(cm->data_page_offset, tmp, sizeof tmp));
      end_line(b, m, width, err);
      m = b->len;
      pqt_buf_printf(b, err, "    statistics:");
      size_t st_mark = b->len;
      if (PQT_HAS_FIELD(cm, column_metadata, statistics)) append_stats(b, &cm->statistics, &vt, err);
      /* append_stats writes " ST:[...]": keep what is inside */
      if (b->len > st_mark + 5 && memcmp(b->data + st_mark, " ST:[", 5) == 0 && b->data[b->len - 1] == ']') {
        memmove(b->data + st_mark + 1, b->data + st_mark + 5, b->len - st_mark - 6);
        b->len -= 5;
      } else {
        b->len = st_mark;
        pqt_buf_printf(b, err, " none");
      }
      end_line(b, m, width, err);
      if (PQT_HAS_FIELD(cm, column_metadata, geospatial_statistics))
        append_geo_stats(b, &cm->geospatial_statistics, width, err);
      if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset) ||
          PQT_HAS_FIELD(cc, column_chunk, offset_index_offset) ||
          PQT_HAS_FIELD(cc, column_chunk, column_index_offset)) {
        m = b->len;
        const char *sep = "    ";
        if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset)) {
          pqt_buf_printf(b, err, "%sbloom filter at %s", sep, sep3(cm->bloom_filter_offset, tmp, sizeof tmp));
          sep = ", ";
        }
        if (PQT_HAS_FIELD(cc, column_chunk, offset_index_offset)) {
          pqt_buf_printf(b, err, "%soffset index at %s", sep, sep3(cc->offset_index_offset, tmp, sizeof tmp));
          sep = ", ";
        }
        if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset))
          pqt_buf_printf(b, err, "%scolumn index at %s", sep, sep3(cc->column_index_offset, tmp, sizeof tmp));
        end_line(b, m, width, err);
      }
      if (cm->key_value_metadata.n > 0) {
        m = b->len;
        pqt_buf_printf(b, err, "    key-value metadata: %d key%s", cm->key_value_metadata.n,
                       cm->key_value_metadata.n == 1 ? "" : "s");
        end_line(b, m, width, err);
        for (int32_t i = 0; i < cm->key_value_metadata.n; i++) {
          const pqt_key_value *kv = &cm->key_value_metadata.items[i];
          m = b->len;
          pqt_buf_printf(b, err, "      %.*s  ", (int)kv->key.len, (const char *)kv->key.ptr);
          size_t used = columns_of(b->data + m, b->len - m);
          append_kv_value(b, kv, (size_t)width > used + 16 ? (size_t)width - used - 16 : 8, err);
          end_line(b, m, width, err);
        }
      }
    }
  }
  return PQT_OK;
}

/* ---- the parquet-tools style ---------------------------------------------------- */

static pqt_status summary_legend(const pqt_reader *r, pqt_buf *b, pqt_error *err) {
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
      append_kv_value(b, kv, 60, err);
      pqt_buf_printf(b, err, "\n");
    }
  }
  for (int32_t g = 0; g < md->row_groups.n; g++) {
    const pqt_row_group *rg = &md->row_groups.items[g];
    pqt_buf_printf(b, err, "\nrow group %d: rows %lld, ", g, (long long)rg->num_rows);
    int64_t comp = 0;
    for (int32_t c = 0; c < rg->columns.n; c++)
      if (PQT_HAS_FIELD(&rg->columns.items[c], column_chunk, meta_data))
        comp += rg->columns.items[c].meta_data.total_compressed_size;
    pqt_buf_printf(b, err, "compressed ");
    append_size(b, PQT_HAS_FIELD(rg, row_group, total_compressed_size) ? rg->total_compressed_size : comp, err);
    pqt_buf_printf(b, err, ", uncompressed ");
    append_size(b, rg->total_byte_size, err);
    pqt_buf_printf(b, err, "\n");
    for (int32_t c = 0; c < rg->columns.n && c < sc->n_leaves; c++) {
      const pqt_column_chunk *cc = &rg->columns.items[c];
      const pqt_schema_node *leaf = sc->leaves[c];
      pqt_buf_printf(b, err, "  %s:", leaf->dotted_path);
      if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) {
        pqt_buf_printf(b, err,
                       PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata) ? " (encrypted column metadata)\n"
                                                                                  : " (no column metadata)\n");
        continue;
      }
      const pqt_column_metadata *cm = &cc->meta_data;
      pqt_value_type vt;
      pqt_value_type_from_leaf(&vt, leaf);
      pqt_buf_printf(b, err, " %s %s", enum_name(&pqt_enum_type, cm->type, tmp, sizeof tmp),
                     enum_name(&pqt_enum_compression_codec, cm->codec, tmp, sizeof tmp));
      if (PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset))
        pqt_buf_printf(b, err, " DO:%lld", (long long)cm->dictionary_page_offset);
      else pqt_buf_printf(b, err, " DO:-");
      pqt_buf_printf(
          b, err, " FPO:%lld SZ:%lld/%lld/%.2f VC:%lld ENC:", (long long)cm->data_page_offset,
          (long long)cm->total_compressed_size, (long long)cm->total_uncompressed_size,
          cm->total_compressed_size > 0 ? (double)cm->total_uncompressed_size / (double)cm->total_compressed_size : 0.0,
          (long long)cm->num_values);
      for (int32_t e = 0; e < cm->encodings.n; e++)
        pqt_buf_printf(b, err, "%s%s", e ? "," : "",
                       enum_name(&pqt_enum_encoding, cm->encodings.items[e], tmp, sizeof tmp));
      if (PQT_HAS_FIELD(cm, column_metadata, statistics)) append_stats(b, &cm->statistics, &vt, err);
      else pqt_buf_printf(b, err, " ST:[none]");
      if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset))
        pqt_buf_printf(b, err, " BLOOM:%lld", (long long)cm->bloom_filter_offset);
      if (PQT_HAS_FIELD(cc, column_chunk, offset_index_offset))
        pqt_buf_printf(b, err, " OI:%lld", (long long)cc->offset_index_offset);
      if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset))
        pqt_buf_printf(b, err, " CI:%lld", (long long)cc->column_index_offset);
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\n"));
    }
  }
  return PQT_OK;
}

pqt_status pqt_reader_summary_append(const pqt_reader *r, pqt_buf *b, pqt_error *err) {
  return summary_readable(r, 80, b, err);
}

PQT_API pqt_status pqt_reader_metadata_summary_styled(const pqt_reader *r, int32_t style, int32_t width,
                                                      pqt_string *out, pqt_error *err) {
  if (!r || !out || (style != PQT_SUMMARY_READABLE && style != PQT_SUMMARY_PARQUET_TOOLS) || width < 0)
    return pqt_error_set(err, PQT_EINVAL, "pqt_reader_metadata_summary_styled: bad arguments");
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  /* the appends do not all check their status; a failure is recorded in e */
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st =
      style == PQT_SUMMARY_READABLE ? summary_readable(r, width ? width : 80, &b, &e) : summary_legend(r, &b, &e);
  if (st == PQT_OK && e.code != PQT_OK) st = e.code;
  if (st != PQT_OK) {
    if (err) *err = e;
    pqt_buf_free(&b);
    return st;
  }
  return pqt_buf_to_string(&b, out, err);
}

PQT_API int32_t pqt_reader_sorting_columns(const pqt_reader *r, int32_t g, struct pqt_sorting_column_spec *out,
                                           int32_t max) {
  if (!r || g < 0 || g >= r->md.row_groups.n) return -1;
  const pqt_list_sorting_column *sc = &r->md.row_groups.items[g].sorting_columns;
  for (int32_t i = 0; out && i < sc->n && i < max; i++)
    out[i] = (pqt_sorting_column_spec){sc->items[i].column_idx, sc->items[i].descending, sc->items[i].nulls_first};
  return sc->n;
}
