/*
 * inspect/pages.c: pqt_reader_describe_pages, one line per page of
 * every (or one) column chunk: the view `parquetry pages --lines` prints, and the
 * walkthrough in tests/fixtures/seed004.md builds by hand. CRCs are checked and reported, not
 * enforced, so a damaged page is shown rather than stopping the listing.
 * Built on the public page walk (pqt_page_cursor, include/parquetry_meta.h)
 * and core's buffers only (ARCHITECTURE.md, "Printers on the public API").
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "parquetry.h"
#include "parquetry_meta.h"

/* A name from the metadata API's tables, or the number when it has none. */
static const char *shown_name(const char *name, int32_t v, char *tmp, size_t n) {
  if (strcmp(name, "?") != 0) return name;
  snprintf(tmp, n, "%d", v);
  return tmp;
}

/* One bound: its value as `cat` prints it, or its byte count when the
 * bytes are not one value of the column's type. */
static void append_bound(pqt_buf *b, pqt_reader *r, int32_t col, const char *label, const uint8_t *p, size_t n,
                         pqt_error *err) {
  pqt_string s;
  memset(&s, 0, sizeof s);
  if (pqt_reader_format_plain(r, col, p, n, &s, NULL) == PQT_OK)
    pqt_buf_printf(b, err, "%s%.*s", label, (int)s.len, s.data ? s.data : "");
  else
    pqt_buf_printf(b, err, "%s<%lld bytes>", label, (long long)n);
  pqt_string_free(&s);
}

static void append_page_stats(pqt_buf *b, pqt_reader *r, int32_t col, const pqt_chunk_statistics *s, pqt_error *err) {
  if (!s->present || s->n_fields == 0) return; /* an empty Statistics struct shows nothing */
  const char *sep = "";
  pqt_buf_printf(b, err, " stats=[");
  /* The deprecated min/max were computed in signed order: shown only for
   * columns whose sort order is signed (as in the `meta` summary), never
   * for byte arrays (PARQUET-251's corrupt binary statistics live there). */
  bool legacy_ok = s->legacy_order_ok != 0;
  bool typed_min = s->min_value_plain != NULL, typed_max = s->max_value_plain != NULL;
  bool legacy = !typed_min && !typed_max && (s->legacy_min_plain || s->legacy_max_plain);
  if (legacy && !legacy_ok) {
    pqt_buf_printf(b, err, "min/max: (legacy, ignored for this sort order)");
    sep = ", ";
  }
  const uint8_t *mn = typed_min ? s->min_value_plain : s->legacy_min_plain;
  const uint8_t *mx = typed_max ? s->max_value_plain : s->legacy_max_plain;
  size_t n_mn = typed_min ? s->n_min_value_plain : s->n_legacy_min_plain;
  size_t n_mx = typed_max ? s->n_max_value_plain : s->n_legacy_max_plain;
  if (typed_min || (s->legacy_min_plain && legacy_ok)) {
    append_bound(b, r, col, "min: ", mn, n_mn, err);
    sep = ", ";
  }
  if (typed_max || (s->legacy_max_plain && legacy_ok)) {
    char label[16];
    snprintf(label, sizeof label, "%smax: ", sep);
    append_bound(b, r, col, label, mx, n_mx, err);
    sep = ", ";
  }
  if (s->has_null_count) pqt_buf_printf(b, err, "%snulls: %lld", sep, (long long)s->null_count);
  pqt_buf_printf(b, err, "]");
}

static pqt_status describe_chunk(pqt_reader *r, int32_t g, int32_t c, const char *path, pqt_buf *b,
                                 pqt_write_fn write, void *ctx, pqt_error *err) {
  pqt_page_cursor *pc = NULL;
  pqt_status st = pqt_page_cursor_open(r, g, c, &pc, err);
  if (st == PQT_ECRYPTO) /* not an error of the file: this column's pages cannot be shown without its key */
    return pqt_buf_printf(b, err, "rg=%d col=%s not shown: no key for column %s\n", g, path, path);
  if (st != PQT_OK) return st;
  size_t file_len = 0;
  const char *file = pqt_page_cursor_file(pc, &file_len);
  char t1[16], t2[16], t3[16];
  for (;;) {
    pqt_page_info p;
    pqt_page_info_init(&p);
    int eof = 0;
    st = pqt_page_cursor_next(pc, &p, &eof, err);
    if (st != PQT_OK || eof) break;
    pqt_buf_printf(b, err, "rg=%d col=%s", g, path);
    if (file) pqt_buf_printf(b, err, " file=%.*s", (int)file_len, file);
    pqt_buf_printf(b, err, " page=%d type=%s enc=%s", p.index,
                   shown_name(pqt_page_kind_name(p.page_type), p.page_type, t1, sizeof t1),
                   shown_name(pqt_encoding_name(p.encoding), p.encoding, t2, sizeof t2));
    if (p.page_type != PQT_PAGE_KIND_DICTIONARY_PAGE)
      pqt_buf_printf(b, err, " levels=%s/%s", shown_name(pqt_encoding_name(p.rep_encoding), p.rep_encoding, t3, sizeof t3),
                     shown_name(pqt_encoding_name(p.def_encoding), p.def_encoding, t1, sizeof t1));
    pqt_buf_printf(b, err, " offset=%llu header=%d compressed=%d uncompressed=%d values=%d",
                   (unsigned long long)p.offset, p.header_size, p.compressed_size, p.uncompressed_size, p.num_values);
    if (p.page_type == PQT_PAGE_KIND_DATA_PAGE_V2) pqt_buf_printf(b, err, " nulls=%d rows=%d", p.num_nulls, p.num_rows);
    if (p.page_type != PQT_PAGE_KIND_DICTIONARY_PAGE)
      pqt_buf_printf(b, err, " rep_bytes=%lld def_bytes=%lld", (long long)p.rep_levels_len, (long long)p.def_levels_len);
    if (p.has_statistics) {
      pqt_chunk_statistics s;
      pqt_chunk_statistics_init(&s);
      st = pqt_page_cursor_statistics(pc, &s, err);
      if (st != PQT_OK) break;
      append_page_stats(b, r, c, &s, err);
    }
    st = pqt_buf_printf(b, err, " crc=%s\n", !p.has_crc ? "none" : p.crc_ok == 0 ? "MISMATCH" : "ok");
    if (st == PQT_OK && b->len >= (64u << 10)) {
      st = write(ctx, (const char *)b->data, b->len);
      if (st != PQT_OK) st = pqt_error_set(err, st, "write failed");
      b->len = 0;
    }
    if (st != PQT_OK) break;
  }
  pqt_page_cursor_close(pc);
  return st;
}

/* The leaf's dotted path, or NULL. */
static const char *column_path(const pqt_reader *r, int32_t c) {
  pqt_schema_info si;
  pqt_schema_info_init(&si);
  if (pqt_reader_schema_node(r, pqt_reader_column_node(r, c), &si, NULL) != PQT_OK) return NULL;
  return si.path;
}

PQT_API pqt_status pqt_reader_describe_pages(pqt_reader *r, const char *column, pqt_write_fn write, void *ctx,
                                             pqt_error *err) {
  if (!r || !write) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_describe_pages: bad arguments");
  int32_t nl = pqt_reader_num_columns(r), ng = pqt_reader_num_row_groups(r);
  /* a leaf is shown when its path equals `column` or lies below it */
  size_t wl = column ? strlen(column) : 0;
  bool found = column == NULL;
  for (int32_t c = 0; !found && c < nl; c++) {
    const char *p = column_path(r, c);
    found = p && strncmp(p, column, wl) == 0 && (p[wl] == '\0' || p[wl] == '.');
  }
  if (!found) return pqt_error_set(err, PQT_EINVAL, "no column named '%s'", column);
  pqt_buf b;
  pqt_buf_init(&b, pqt_reader_allocator(r));
  pqt_status st = PQT_OK;
  for (int32_t g = 0; st == PQT_OK && g < ng; g++)
    for (int32_t c = 0; st == PQT_OK && c < nl; c++) {
      const char *p = column_path(r, c);
      if (!p) continue;
      if (column && !(strncmp(p, column, wl) == 0 && (p[wl] == '\0' || p[wl] == '.'))) continue;
      st = describe_chunk(r, g, c, p, &b, write, ctx, err);
    }
  if (b.len) {
    pqt_status ws = write(ctx, (const char *)b.data, b.len);
    if (st == PQT_OK && ws != PQT_OK) st = pqt_error_set(err, ws, "write failed");
  }
  pqt_buf_free(&b);
  return st;
}
