/*
 * inspect/pages.c: pqt_reader_describe_pages, one line per page of
 * every (or one) column chunk: the view `parquetry pages` prints, and the
 * walkthrough in tests/fixtures/seed004.md builds by hand. CRCs are checked and reported, not
 * enforced, so a damaged page is shown rather than stopping the listing.
 */
#include <stdio.h>

#include "column/statistics.h"
#include "scan/row_group.h"
#include "meta/value_format.h"
#include "page/page_reader.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *name_of(const pqt_thrift_enum *e, int32_t v, char *tmp, size_t n) {
  const char *s = pqt_thrift_enum_name(e, v);
  if (s) return s;
  snprintf(tmp, n, "%d", v);
  return tmp;
}

static void append_page_stats(pqt_buf *b, const pqt_statistics *s, const pqt_value_type *vt, pqt_error *err) {
  if (!s->isset) return;
  const char *sep = "";
  pqt_buf_printf(b, err, " stats=[");
  /* The deprecated min/max were computed in signed order: shown only for
   * columns whose sort order is signed (as in the `meta` summary), never
   * for byte arrays (PARQUET-251's corrupt binary statistics live there). */
  bool legacy_ok = pqt_sort_kind_legacy_ok(pqt_sort_kind_for(vt->physical_type, &vt->logical, vt->converted_type));
  bool legacy = !PQT_HAS_FIELD(s, statistics, min_value) && !PQT_HAS_FIELD(s, statistics, max_value) &&
                (PQT_HAS_FIELD(s, statistics, min) || PQT_HAS_FIELD(s, statistics, max));
  if (legacy && !legacy_ok) {
    pqt_buf_printf(b, err, "min/max: (legacy, ignored for this sort order)");
    sep = ", ";
  }
  pqt_bytes mn = PQT_HAS_FIELD(s, statistics, min_value) ? s->min_value : s->min,
            mx = PQT_HAS_FIELD(s, statistics, max_value) ? s->max_value : s->max;
  bool has_min = PQT_HAS_FIELD(s, statistics, min_value) || (PQT_HAS_FIELD(s, statistics, min) && legacy_ok),
       has_max = PQT_HAS_FIELD(s, statistics, max_value) || (PQT_HAS_FIELD(s, statistics, max) && legacy_ok);
  if (has_min) {
    size_t mark = b->len;
    pqt_buf_printf(b, err, "min: ");
    if (pqt_format_value(vt, mn.ptr, (size_t)mn.len, b, NULL) != PQT_OK) {
      b->len = mark;
      pqt_buf_printf(b, err, "min: <%lld bytes>", (long long)mn.len);
    }
    sep = ", ";
  }
  if (has_max) {
    size_t mark = b->len;
    pqt_buf_printf(b, err, "%smax: ", sep);
    if (pqt_format_value(vt, mx.ptr, (size_t)mx.len, b, NULL) != PQT_OK) {
      b->len = mark;
      pqt_buf_printf(b, err, "%smax: <%lld bytes>", sep, (long long)mx.len);
    }
    sep = ", ";
  }
  if (PQT_HAS_FIELD(s, statistics, null_count)) pqt_buf_printf(b, err, "%snulls: %lld", sep, (long long)s->null_count);
  pqt_buf_printf(b, err, "]");
}

static pqt_status describe_chunk(pqt_reader *r, int32_t g, int32_t c, pqt_buf *b, pqt_write_fn write, void *ctx,
                                 pqt_error *err) {
  const pqt_schema_node *leaf = r->schema->leaves[c];
  pqt_chunk ch;
  pqt_status st = pqt_chunk_open_data(r, g, c, &ch, err); /* pages in another file (file_path) are read there */
  if (st != PQT_OK && ch.no_key) {
    /* not an error of the file: this column's pages cannot be shown without its key */
    pqt_chunk_close(&ch);
    return pqt_buf_printf(b, err, "rg=%d col=%s not shown: no key for column %s\n", g, leaf->dotted_path,
                          leaf->dotted_path);
  }
  if (st != PQT_OK) {
    pqt_chunk_close(&ch);
    if (err) {
      err->row_group = g;
      err->column = c;
    }
    pqt_error_prefix(err, "row group %d, column %s", g, leaf->dotted_path);
    return st;
  }
  pqt_value_type vt;
  pqt_value_type_from_leaf(&vt, leaf);
  pqt_page_reader_options po;
  pqt_chunk_page_options(r, &ch, &po);
  po.verify_crc = true;
  po.crc_report_only = true;
  pqt_page_reader pr;
  st = pqt_page_reader_init(&pr, ch.external ? &ch.ext : &r->io, ch.start, ch.len, ch.cm->codec, r->codec_ctx, &po, r->data_alloc, err);
  char t1[16], t2[16], t3[16];
  while (st == PQT_OK) {
    pqt_page pg;
    bool eof;
    st = pqt_page_reader_next(&pr, &pg, &eof, err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "row group %d, column %s, page %d", g, leaf->dotted_path, pr.current);
      break;
    }
    if (eof) break;
    const pqt_page_header *h = pg.header;
    pqt_buf_printf(b, err, "rg=%d col=%s page=%d type=%s enc=%s", g, leaf->dotted_path, pg.index,
                   name_of(&pqt_enum_page_type, pg.type, t1, sizeof t1),
                   name_of(&pqt_enum_encoding, pg.encoding, t2, sizeof t2));
    if (pg.type != PQT_PAGE_DICTIONARY)
      pqt_buf_printf(b, err, " levels=%s/%s", name_of(&pqt_enum_encoding, pg.rep_encoding, t3, sizeof t3),
                     name_of(&pqt_enum_encoding, pg.def_encoding, t1, sizeof t1));
    pqt_buf_printf(b, err, " offset=%llu header=%zu compressed=%d uncompressed=%d values=%d",
                   (unsigned long long)pg.file_offset, pg.header_len, h->compressed_page_size,
                   h->uncompressed_page_size, pg.num_values);
    if (pg.type == PQT_PAGE_DATA_V2) pqt_buf_printf(b, err, " nulls=%d rows=%d", pg.num_nulls, pg.num_rows);
    if (pg.type != PQT_PAGE_DICTIONARY) pqt_buf_printf(b, err, " rep_bytes=%zu def_bytes=%zu", pg.rep_len, pg.def_len);
    if (pg.type == PQT_PAGE_DATA && PQT_HAS_FIELD(&h->data_page_header, data_page_header, statistics))
      append_page_stats(b, &h->data_page_header.statistics, &vt, err);
    if (pg.type == PQT_PAGE_DATA_V2 && PQT_HAS_FIELD(&h->data_page_header_v2, data_page_header_v2, statistics))
      append_page_stats(b, &h->data_page_header_v2.statistics, &vt, err);
    st = pqt_buf_printf(b, err, " crc=%s\n",
                        !PQT_HAS_FIELD(h, page_header, crc) ? "none"
                        : pg.crc_mismatch                   ? "MISMATCH"
                                                            : "ok");
    if (st == PQT_OK && b->len >= (64u << 10)) {
      st = write(ctx, (const char *)b->data, b->len);
      if (st != PQT_OK) st = pqt_error_set(err, st, "write failed");
      b->len = 0;
    }
  }
  pqt_page_reader_free(&pr);
  pqt_chunk_close(&ch);
  return st;
}

PQT_API pqt_status pqt_reader_describe_pages(pqt_reader *r, const char *column, pqt_write_fn write, void *ctx,
                                             pqt_error *err) {
  if (!r || !write) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_describe_pages: bad arguments");
  int32_t nl = r->schema->n_leaves;
  uint8_t *selected = pqt_mem_calloc(r->alloc, (size_t)(nl ? nl : 1));
  if (!selected) return pqt_nomem(err);
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = &column;
  so.n_columns = column ? 1 : 0;
  pqt_status st = pqt_projection_resolve(r, &so, selected, err);
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  for (int32_t g = 0; st == PQT_OK && g < r->md.row_groups.n; g++)
    for (int32_t c = 0; st == PQT_OK && c < nl; c++)
      if (selected[c]) st = describe_chunk(r, g, c, &b, write, ctx, err);
  if (b.len) {
    pqt_status ws = write(ctx, (const char *)b.data, b.len);
    if (st == PQT_OK && ws != PQT_OK) st = pqt_error_set(err, ws, "write failed");
  }
  pqt_buf_free(&b);
  pqt_mem_free(r->alloc, selected, (size_t)(nl ? nl : 1));
  return st;
}
