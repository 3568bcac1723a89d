/*
 * inspect/summary.c: the readable metadata summary printed by `parquetry meta`,
 * in two styles: labelled lines no wider than a terminal (80 columns by
 * default; longer values are cut, marked "..."), and the parquet-tools line
 * users paste into bug reports (`name: TYPE CODEC DO:.. FPO:..
 * SZ:comp/uncomp/ratio VC:.. ENC:..`). Both decode statistics to values in
 * the canonical text form and show key-value metadata values (cut, with
 * their length).
 *
 * Built on the public metadata API only (parquetry_meta.h, its "as stored"
 * accessors, so a stripped ColumnMetaData of an encrypted column is shown
 * without its key) and core's buffers: tools/check_layers.sh keeps it so.
 *
 * Statistics follow the spec's sort-order rules: min_value/max_value are
 * shown when present; the deprecated min/max only when the column's sort
 * order is signed (they were always computed with signed comparison), and
 * marked "(legacy)".
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "parquetry.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"

/* A name from the library's tables, or the number when it has none ("?"). */
static const char *name_or_number(const char *s, int32_t v, char *tmp, size_t n) {
  if (s && strcmp(s, "?") != 0) return s;
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

/* The leaf of column col: its path and types. */
static pqt_status leaf_info(const pqt_reader *r, int32_t col, pqt_schema_info *si, pqt_error *err) {
  pqt_schema_info_init(si);
  return pqt_reader_schema_node(r, pqt_reader_column_node(r, col), si, err);
}

/* Is the legacy (signed) min/max meaningful for this column? Only when the
 * type's order is signed: not for byte arrays (unsigned byte order) or
 * unsigned integers. */
static bool legacy_stats_usable(const pqt_schema_info *si) {
  if (si->physical == PQT_TYPE_BYTE_ARRAY || si->physical == PQT_TYPE_FIXED_LEN_BYTE_ARRAY ||
      si->physical == PQT_TYPE_INT96)
    return false;
  if (si->logical == PQT_LOGICAL_INTEGER && !si->is_signed) return false;
  if (si->converted_type >= PQT_CONVERTED_UINT_8 && si->converted_type <= PQT_CONVERTED_UINT_64) return false;
  return true;
}

/* The text of a bound as stored, or "<N bytes>" when its bytes are not a
 * value of the column's type. */
static void append_stat_value(pqt_buf *b, const pqt_reader *r, int32_t col, const uint8_t *p, size_t n,
                              pqt_error *err) {
  pqt_string s = {0};
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_reader_format_plain(r, col, p, n, &s, &e);
  if (st == PQT_OK) {
    pqt_buf_append(b, s.data, s.len, err);
  } else if (e.code == PQT_ENOMEM) { /* not a value we cannot show: out of memory */
    pqt_nomem(err);
  } else {
    pqt_buf_printf(b, err, "<%lld bytes>", (long long)n);
  }
  pqt_string_free(&s);
}

static void append_double(pqt_buf *b, double v, pqt_error *err) {
  char t[40];
  size_t n = pqt_double_text(v, t, sizeof t);
  pqt_buf_append(b, t, n, err);
}

/* Lines "    geo box: x [..], y [..]", "    geo box: z [..], m [..]" (when
 * present) and "    geo types: Point, LineString Z", each ended by end_line. */
static void end_line(pqt_buf *b, size_t mark, int32_t width, pqt_error *err);
static void append_geo_stats(pqt_buf *b, const pqt_geo_stats *g, int32_t width, pqt_error *err) {
  size_t m = b->len;
  if (g->has_bbox) {
    const double v[8] = {g->xmin, g->xmax, g->ymin, g->ymax, g->zmin, g->zmax, g->mmin, g->mmax};
    const int has[4] = {1, 1, g->has_z, g->has_m};
    for (int d = 0; d < 4; d++) {
      if (!has[d]) continue;
      if (d == 2 || (d == 3 && !has[2])) {
        end_line(b, m, width, err);
        m = b->len;
      }
      pqt_buf_printf(b, err, "%s%c [", d == 0 || d == 2 || (d == 3 && !has[2]) ? "    geo box: " : ", ", "xyzm"[d]);
      append_double(b, v[2 * d], err);
      pqt_buf_printf(b, err, ", ");
      append_double(b, v[2 * d + 1], err);
      pqt_buf_printf(b, err, "]%s", d == 0 && g->xmin > g->xmax ? " (wraps)" : "");
    }
  } else {
    pqt_buf_printf(b, err, "    geo box: none");
  }
  end_line(b, m, width, err);
  if (g->has_geospatial_types) {
    m = b->len;
    pqt_buf_printf(b, err, "    geo types:");
    for (int32_t i = 0; i < g->n_geospatial_types; i++) {
      const char *nm = pqt_geo_type_code_name(g->geospatial_types[i]);
      if (nm) pqt_buf_printf(b, err, "%s %s", i ? "," : "", nm);
      else pqt_buf_printf(b, err, "%s %d", i ? "," : "", (int)g->geospatial_types[i]);
    }
    if (g->n_geospatial_types == 0) pqt_buf_printf(b, err, " none");
    end_line(b, m, width, err);
  }
}

static pqt_status append_stats(pqt_buf *b, const pqt_reader *r, int32_t col, const pqt_chunk_statistics *s,
                               const pqt_schema_info *si, pqt_error *err) {
  if (!s->present || s->n_fields == 0) return pqt_buf_printf(b, err, " ST:[none]");
  PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " ST:["));
  const char *sep = "";
  bool has_legacy = s->legacy_min_plain || s->legacy_max_plain;
  if (s->min_value_plain || s->max_value_plain) {
    if (s->min_value_plain) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, r, col, s->min_value_plain, s->n_min_value_plain, err);
      if (s->min_exact == 0) pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
    if (s->max_value_plain) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, r, col, s->max_value_plain, s->n_max_value_plain, err);
      if (s->max_exact == 0) pqt_buf_printf(b, err, " (inexact)");
      sep = ", ";
    }
  } else if (has_legacy && legacy_stats_usable(si)) {
    if (s->legacy_min_plain) {
      pqt_buf_printf(b, err, "min: ");
      append_stat_value(b, r, col, s->legacy_min_plain, s->n_legacy_min_plain, err);
      sep = ", ";
    }
    if (s->legacy_max_plain) {
      pqt_buf_printf(b, err, "%smax: ", sep);
      append_stat_value(b, r, col, s->legacy_max_plain, s->n_legacy_max_plain, err);
      sep = ", ";
    }
    pqt_buf_printf(b, err, " (legacy)");
  } else if (has_legacy) {
    pqt_buf_printf(b, err, "min/max: (legacy, ignored for this sort order)");
    sep = ", ";
  }
  if (s->has_null_count) {
    pqt_buf_printf(b, err, "%snulls: %lld", sep, (long long)s->null_count);
    sep = ", ";
  }
  if (s->has_distinct_count) {
    pqt_buf_printf(b, err, "%sdistinct: %lld", sep, (long long)s->distinct_count);
    sep = ", ";
  }
  if (s->has_nan_count) {
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
static void append_kv_value(pqt_buf *b, const pqt_kv *kv, size_t room, pqt_error *err) {
  if (!kv->value) {
    pqt_buf_printf(b, err, "(no value)");
    return;
  }
  size_t mark = b->len;
  if (pqt_json_string_append(b, (const uint8_t *)kv->value, kv->value_len, err) != PQT_OK) return;
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
  pqt_buf_printf(b, err, "...\" (%lld bytes)", (long long)kv->value_len);
}

/* Key-value entry i of the file (col < 0) or of chunk (g, col), as stored. */
static pqt_status get_kv(const pqt_reader *r, int32_t g, int32_t col, int32_t i, pqt_kv *kv, pqt_error *err) {
  pqt_kv_init(kv);
  return col < 0 ? pqt_reader_kv(r, i, kv, err) : pqt_chunk_kv_stored(r, g, col, i, kv, err);
}

/* The sum of the chunks' compressed sizes of row group g (those with metadata
 * in the clear), for a footer without RowGroup.total_compressed_size. */
static int64_t chunks_compressed(const pqt_reader *r, int32_t g, int32_t n_chunks) {
  int64_t comp = 0;
  for (int32_t c = 0; c < n_chunks && c < pqt_reader_num_columns(r); c++) {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    if (pqt_reader_chunk_metadata_kind(r, g, c) == PQT_CHUNK_METADATA_PLAIN &&
        pqt_reader_chunk_stored(r, g, c, &ci, NULL) == PQT_OK)
      comp += ci.total_compressed_size;
  }
  return comp;
}

/* What one column chunk's lines need, as stored. */
typedef struct chunk_view {
  int32_t kind; /* pqt_chunk_metadata_kind */
  pqt_schema_info leaf;
  pqt_chunk_info ci;
  pqt_chunk_statistics st;
  pqt_geo_stats geo;
  int32_t n_kv;
} chunk_view;

static pqt_status chunk_view_get(const pqt_reader *r, int32_t g, int32_t c, chunk_view *v, pqt_error *err) {
  PQT_RETURN_NOT_OK(leaf_info(r, c, &v->leaf, err));
  v->kind = pqt_reader_chunk_metadata_kind(r, g, c);
  if (v->kind != PQT_CHUNK_METADATA_PLAIN) return PQT_OK;
  pqt_chunk_info_init(&v->ci);
  pqt_chunk_statistics_init(&v->st);
  pqt_geo_stats_init(&v->geo);
  PQT_RETURN_NOT_OK(pqt_reader_chunk_stored(r, g, c, &v->ci, err));
  PQT_RETURN_NOT_OK(pqt_reader_chunk_statistics_stored(r, g, c, &v->st, err));
  PQT_RETURN_NOT_OK(pqt_reader_chunk_geo_stats_stored(r, g, c, &v->geo, err));
  v->n_kv = pqt_chunk_kv_count_stored(r, g, c);
  return PQT_OK;
}

/* ---- the readable style --------------------------------------------------------- */

#define LABEL "%-13s"

static pqt_status summary_readable(const pqt_reader *r, int32_t width, pqt_buf *b, pqt_error *err) {
  const char *created_by = pqt_reader_created_by(r);
  int32_t n_groups = pqt_reader_num_row_groups(r), n_cols = pqt_reader_num_columns(r), n_kv = pqt_reader_kv_count(r);
  char tmp[32], tmp2[32];
  size_t m;
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%d", "version:", pqt_reader_footer_version(r));
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "created by:", created_by[0] ? created_by : "(not recorded)");
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "rows:", sep3(pqt_reader_num_rows(r), tmp, sizeof tmp));
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "row groups:", sep3(n_groups, tmp, sizeof tmp));
  end_line(b, m, width, err);
  m = b->len;
  pqt_buf_printf(b, err, LABEL "%s", "columns:", sep3(n_cols, tmp, sizeof tmp));
  end_line(b, m, width, err);
  if (n_kv > 0) {
    m = b->len;
    pqt_buf_printf(b, err, "key-value metadata: %d key%s", n_kv, n_kv == 1 ? "" : "s");
    end_line(b, m, width, err);
    size_t keyw = 0;
    for (int32_t i = 0; i < n_kv; i++) {
      pqt_kv kv;
      PQT_RETURN_NOT_OK(get_kv(r, 0, -1, i, &kv, err));
      size_t kl = columns_of((const uint8_t *)kv.key, kv.key_len);
      if (kl > keyw) keyw = kl;
    }
    if (keyw > 24) keyw = 24;
    for (int32_t i = 0; i < n_kv; i++) {
      pqt_kv kv;
      PQT_RETURN_NOT_OK(get_kv(r, 0, -1, i, &kv, err));
      m = b->len;
      size_t kl = columns_of((const uint8_t *)kv.key, kv.key_len);
      pqt_buf_printf(b, err, "  %.*s%*s  ", (int)kv.key_len, kv.key, (int)(kl < keyw ? keyw - kl : 0), "");
      size_t used = columns_of(b->data + m, b->len - m);
      size_t room = (size_t)width > used + 16 ? (size_t)width - used - 16 : 8;
      append_kv_value(b, &kv, room, err);
      end_line(b, m, width, err);
    }
  }
  for (int32_t g = 0; g < n_groups; g++) {
    pqt_row_group_info rg;
    pqt_row_group_info_init(&rg);
    PQT_RETURN_NOT_OK(pqt_reader_row_group(r, g, &rg, err));
    pqt_buf_printf(b, err, "\n");
    m = b->len;
    pqt_buf_printf(b, err, "row group %d: %s rows, compressed ", g, sep3(rg.num_rows, tmp, sizeof tmp));
    append_size(b, rg.total_compressed_size >= 0 ? rg.total_compressed_size : chunks_compressed(r, g, rg.n_chunks),
                err);
    pqt_buf_printf(b, err, ", uncompressed ");
    append_size(b, rg.total_byte_size, err);
    end_line(b, m, width, err);
    if (rg.n_sorting_columns > 0) {
      pqt_sorting_column_spec *sc = pqt_mem_calloc(pqt_reader_allocator(r), (size_t)rg.n_sorting_columns * sizeof *sc);
      if (!sc) return pqt_nomem(err);
      pqt_reader_sorting_columns(r, g, sc, rg.n_sorting_columns);
      m = b->len;
      pqt_buf_printf(b, err, "  sorted by ");
      for (int32_t i = 0; i < rg.n_sorting_columns; i++) {
        pqt_schema_info si;
        const char *name = sc[i].column >= 0 && sc[i].column < n_cols && leaf_info(r, sc[i].column, &si, NULL) == PQT_OK
                               ? si.path
                               : "?";
        pqt_buf_printf(b, err, "%s%s %s, nulls %s", i ? "; " : "", name, sc[i].descending ? "descending" : "ascending",
                       sc[i].nulls_first ? "first" : "last");
      }
      pqt_mem_free(pqt_reader_allocator(r), sc, (size_t)rg.n_sorting_columns * sizeof *sc);
      end_line(b, m, width, err);
    }
    for (int32_t c = 0; c < rg.n_chunks && c < n_cols; c++) {
      chunk_view v;
      PQT_RETURN_NOT_OK(chunk_view_get(r, g, c, &v, err));
      m = b->len;
      pqt_buf_printf(b, err, "  column %s", v.leaf.path);
      if (v.kind != PQT_CHUNK_METADATA_PLAIN) {
        pqt_buf_printf(b, err, v.kind == PQT_CHUNK_METADATA_ENCRYPTED ? ": metadata encrypted" : ": no metadata");
        end_line(b, m, width, err);
        continue;
      }
      end_line(b, m, width, err);
      const pqt_chunk_info *cm = &v.ci;
      m = b->len;
      char tmp3[32];
      pqt_buf_printf(b, err, "    type %s, codec %s, %s values",
                     name_or_number(pqt_physical_name(cm->physical), cm->physical, tmp, sizeof tmp),
                     name_or_number(pqt_compression_name(cm->codec), cm->codec, tmp2, sizeof tmp2),
                     sep3(cm->num_values, tmp3, sizeof tmp3));
      end_line(b, m, width, err);
      m = b->len;
      pqt_buf_printf(b, err, "    encodings ");
      for (int32_t e = 0; e < cm->n_encodings; e++)
        pqt_buf_printf(b, err, "%s%s", e ? ", " : "",
                       name_or_number(pqt_encoding_name(cm->encodings[e]), cm->encodings[e], tmp, sizeof tmp));
      if (cm->n_encodings == 0) pqt_buf_printf(b, err, "(none listed)");
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
      if (cm->stored_dictionary_page_offset >= 0)
        pqt_buf_printf(b, err, "    dictionary page at %s, ", sep3(cm->stored_dictionary_page_offset, tmp, sizeof tmp));
      else pqt_buf_printf(b, err, "    no dictionary page, ");
      pqt_buf_printf(b, err, "first data page at %s", sep3(cm->data_page_offset, tmp, sizeof tmp));
      end_line(b, m, width, err);
      m = b->len;
      pqt_buf_printf(b, err, "    statistics:");
      size_t st_mark = b->len;
      if (v.st.present) append_stats(b, r, c, &v.st, &v.leaf, err);
      /* append_stats writes " ST:[...]": keep what is inside */
      if (b->len > st_mark + 5 && memcmp(b->data + st_mark, " ST:[", 5) == 0 && b->data[b->len - 1] == ']') {
        memmove(b->data + st_mark + 1, b->data + st_mark + 5, b->len - st_mark - 6);
        b->len -= 5;
      } else {
        b->len = st_mark;
        pqt_buf_printf(b, err, " none");
      }
      end_line(b, m, width, err);
      if (v.geo.present) append_geo_stats(b, &v.geo, width, err);
      if (cm->bloom_filter_offset >= 0 || cm->offset_index_offset >= 0 || cm->column_index_offset >= 0) {
        m = b->len;
        const char *sep = "    ";
        if (cm->bloom_filter_offset >= 0) {
          pqt_buf_printf(b, err, "%sbloom filter at %s", sep, sep3(cm->bloom_filter_offset, tmp, sizeof tmp));
          sep = ", ";
        }
        if (cm->offset_index_offset >= 0) {
          pqt_buf_printf(b, err, "%soffset index at %s", sep, sep3(cm->offset_index_offset, tmp, sizeof tmp));
          sep = ", ";
        }
        if (cm->column_index_offset >= 0)
          pqt_buf_printf(b, err, "%scolumn index at %s", sep, sep3(cm->column_index_offset, tmp, sizeof tmp));
        end_line(b, m, width, err);
      }
      if (v.n_kv > 0) {
        m = b->len;
        pqt_buf_printf(b, err, "    key-value metadata: %d key%s", v.n_kv, v.n_kv == 1 ? "" : "s");
        end_line(b, m, width, err);
        for (int32_t i = 0; i < v.n_kv; i++) {
          pqt_kv kv;
          PQT_RETURN_NOT_OK(get_kv(r, g, c, i, &kv, err));
          m = b->len;
          pqt_buf_printf(b, err, "      %.*s  ", (int)kv.key_len, kv.key);
          size_t used = columns_of(b->data + m, b->len - m);
          append_kv_value(b, &kv, (size_t)width > used + 16 ? (size_t)width - used - 16 : 8, err);
          end_line(b, m, width, err);
        }
      }
    }
  }
  return PQT_OK;
}

/* ---- the parquet-tools style ---------------------------------------------------- */

static pqt_status summary_legend(const pqt_reader *r, pqt_buf *b, pqt_error *err) {
  int32_t n_groups = pqt_reader_num_row_groups(r), n_cols = pqt_reader_num_columns(r), n_kv = pqt_reader_kv_count(r);
  char tmp[32];
  pqt_buf_printf(b, err, "version:     %d\n", pqt_reader_footer_version(r));
  pqt_buf_printf(b, err, "created_by:  %s\n", pqt_reader_created_by(r));
  pqt_buf_printf(b, err, "rows:        %lld\n", (long long)pqt_reader_num_rows(r));
  pqt_buf_printf(b, err, "row groups:  %d\n", n_groups);
  pqt_buf_printf(b, err, "columns:     %d\n", n_cols);
  if (n_kv > 0) {
    pqt_buf_printf(b, err, "key-value metadata:\n");
    for (int32_t i = 0; i < n_kv; i++) {
      pqt_kv kv;
      PQT_RETURN_NOT_OK(get_kv(r, 0, -1, i, &kv, err));
      pqt_buf_printf(b, err, "  %.*s: ", (int)kv.key_len, kv.key);
      append_kv_value(b, &kv, 60, err);
      pqt_buf_printf(b, err, "\n");
    }
  }
  for (int32_t g = 0; g < n_groups; g++) {
    pqt_row_group_info rg;
    pqt_row_group_info_init(&rg);
    PQT_RETURN_NOT_OK(pqt_reader_row_group(r, g, &rg, err));
    pqt_buf_printf(b, err, "\nrow group %d: rows %lld, ", g, (long long)rg.num_rows);
    pqt_buf_printf(b, err, "compressed ");
    append_size(b, rg.total_compressed_size >= 0 ? rg.total_compressed_size : chunks_compressed(r, g, rg.n_chunks),
                err);
    pqt_buf_printf(b, err, ", uncompressed ");
    append_size(b, rg.total_byte_size, err);
    pqt_buf_printf(b, err, "\n");
    for (int32_t c = 0; c < rg.n_chunks && c < n_cols; c++) {
      chunk_view v;
      PQT_RETURN_NOT_OK(chunk_view_get(r, g, c, &v, err));
      pqt_buf_printf(b, err, "  %s:", v.leaf.path);
      if (v.kind != PQT_CHUNK_METADATA_PLAIN) {
        pqt_buf_printf(
            b, err,
            v.kind == PQT_CHUNK_METADATA_ENCRYPTED ? " (encrypted column metadata)\n" : " (no column metadata)\n");
        continue;
      }
      const pqt_chunk_info *cm = &v.ci;
      pqt_buf_printf(b, err, " %s", name_or_number(pqt_physical_name(cm->physical), cm->physical, tmp, sizeof tmp));
      pqt_buf_printf(b, err, " %s", name_or_number(pqt_compression_name(cm->codec), cm->codec, tmp, sizeof tmp));
      if (cm->stored_dictionary_page_offset >= 0)
        pqt_buf_printf(b, err, " DO:%lld", (long long)cm->stored_dictionary_page_offset);
      else pqt_buf_printf(b, err, " DO:-");
      pqt_buf_printf(
          b, err, " FPO:%lld SZ:%lld/%lld/%.2f VC:%lld ENC:", (long long)cm->data_page_offset,
          (long long)cm->total_compressed_size, (long long)cm->total_uncompressed_size,
          cm->total_compressed_size > 0 ? (double)cm->total_uncompressed_size / (double)cm->total_compressed_size : 0.0,
          (long long)cm->num_values);
      for (int32_t e = 0; e < cm->n_encodings; e++)
        pqt_buf_printf(b, err, "%s%s", e ? "," : "",
                       name_or_number(pqt_encoding_name(cm->encodings[e]), cm->encodings[e], tmp, sizeof tmp));
      if (v.st.present) append_stats(b, r, c, &v.st, &v.leaf, err);
      else pqt_buf_printf(b, err, " ST:[none]");
      if (cm->bloom_filter_offset >= 0) pqt_buf_printf(b, err, " BLOOM:%lld", (long long)cm->bloom_filter_offset);
      if (cm->offset_index_offset >= 0) pqt_buf_printf(b, err, " OI:%lld", (long long)cm->offset_index_offset);
      if (cm->column_index_offset >= 0) pqt_buf_printf(b, err, " CI:%lld", (long long)cm->column_index_offset);
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\n"));
    }
  }
  return PQT_OK;
}

static pqt_status summary_string(const pqt_reader *r, int32_t style, int32_t width, pqt_string *out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, pqt_reader_allocator(r));
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

PQT_API pqt_status pqt_reader_metadata_summary(const pqt_reader *r, pqt_string *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_metadata_summary: bad arguments");
  return summary_string(r, PQT_SUMMARY_READABLE, 80, out, err);
}

PQT_API pqt_status pqt_reader_metadata_summary_styled(const pqt_reader *r, int32_t style, int32_t width,
                                                      pqt_string *out, pqt_error *err) {
  if (!r || !out || (style != PQT_SUMMARY_READABLE && style != PQT_SUMMARY_PARQUET_TOOLS) || width < 0)
    return pqt_error_set(err, PQT_EINVAL, "pqt_reader_metadata_summary_styled: bad arguments");
  return summary_string(r, style, width, out, err);
}
