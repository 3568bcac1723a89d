/*
 * inspect/page_cursor.c: pqt_page_cursor, the public walk over the pages of
 * a column chunk (include/parquetry_meta.h) on the reader's own page reader:
 * encrypted chunks (with their key), chunks in another file (file_path),
 * CRCs checked and reported, bodies decompressed. What `parquetry pages
 * --lines` prints comes from here. Spec: "Data Pages", "DataPageHeaderV2",
 * "Checksumming", "Column chunks", Encryption.md "Modules".
 */
#include <stddef.h>
#include <string.h>

#include "inspect/meta_internal.h"
#include "page/page_reader.h"
#include "scan/row_group.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

struct pqt_page_cursor {
  pqt_reader *r;
  int32_t rg, col;
  pqt_chunk ch; /* the page reader borrows its decryptor and external io: it must not move */
  pqt_page_reader pr;
  bool failed;                 /* a page did not read: the walk cannot go on */
  bool have_page;              /* a page was read (its header is current) */
  const pqt_statistics *stats; /* of the current page's header, NULL when none */
};

static const char *leaf_path(const pqt_reader *r, int32_t col) { return r->schema->leaves[col]->dotted_path; }

PQT_API pqt_status pqt_page_cursor_open(pqt_reader *r, int32_t rg, int32_t col, pqt_page_cursor **out, pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_open: out is NULL");
  *out = NULL;
  if (!r) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_open: reader is NULL");
  if (rg < 0 || rg >= r->md.row_groups.n || col < 0 || col >= r->schema->n_leaves)
    return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_open: row group %d, column %d out of range", rg, col);
  pqt_page_cursor *c = pqt_mem_calloc(r->alloc, sizeof *c);
  if (!c) return pqt_nomem(err);
  c->r = r;
  c->rg = rg;
  c->col = col;
  pqt_error e;
  pqt_error_init(&e);
  /* pages in another file are read there; CRCs reported, not refused */
  pqt_status st = pqt_chunk_page_reader_open(r, rg, col, NULL, true, r->data_alloc, &c->ch, &c->pr, &e);
  /* PQT_ECRYPTO is kept for "no key for this column"; a file that marks a
   * column encrypted without saying how is damaged */
  if (st != PQT_OK) st = pqt_error_set(err, st == PQT_ECRYPTO && !c->ch.no_key ? PQT_ECORRUPT : st, "%s", e.message);
  if (st != PQT_OK) {
    pqt_mem_free(r->alloc, c, sizeof *c);
    if (err) {
      err->row_group = rg;
      err->column = col;
    }
    pqt_error_prefix(err, "row group %d, column %s", rg, leaf_path(r, col));
    return st;
  }
  *out = c;
  return PQT_OK;
}

PQT_API pqt_status pqt_page_cursor_next(pqt_page_cursor *c, pqt_page_info *out, int *eof, pqt_error *err) {
  if (!c || !out || !eof) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_next: bad arguments");
  PQT_RETURN_NOT_OK(
      pqt_meta_check_size(out->struct_size, offsetof(pqt_page_info, rep_levels_len), "pqt_page_info", err));
  *eof = 0;
  if (c->failed)
    return pqt_error_set(err, PQT_EINVAL, "row group %d, column %s: the page walk stopped at an error", c->rg,
                         leaf_path(c->r, c->col));
  c->have_page = false;
  c->stats = NULL;
  pqt_page pg;
  bool end = false;
  pqt_status st = pqt_page_reader_next(&c->pr, &pg, &end, err);
  if (st != PQT_OK) {
    c->failed = true;
    if (err) {
      err->row_group = c->rg;
      err->column = c->col;
      err->page = c->pr.current;
    }
    pqt_error_prefix(err, "row group %d, column %s, page %d", c->rg, leaf_path(c->r, c->col), c->pr.current);
    return st;
  }
  if (end) {
    *eof = 1;
    return PQT_OK;
  }
  const pqt_page_header *h = pg.header;
  pqt_page_info pi;
  memset(&pi, 0, sizeof pi);
  pi.index = pg.index;
  pi.page_type = pg.type;
  pi.offset = (int64_t)pg.file_offset;
  pi.header_size = (int32_t)pg.header_len;
  pi.compressed_size = h->compressed_page_size;
  pi.uncompressed_size = h->uncompressed_page_size;
  pi.encoding = pg.encoding;
  pi.def_encoding = pi.rep_encoding = -1;
  pi.num_values = pg.num_values;
  pi.num_nulls = pi.num_rows = pi.def_bytes = pi.rep_bytes = -1;
  pi.is_compressed = 1;
  pi.has_crc = PQT_HAS_FIELD(h, page_header, crc);
  pi.crc_ok = pi.has_crc ? !pg.crc_mismatch : -1;
  if (pg.type == PQT_PAGE_DATA) {
    pi.def_encoding = pg.def_encoding;
    pi.rep_encoding = pg.rep_encoding;
    if (PQT_HAS_FIELD(&h->data_page_header, data_page_header, statistics)) c->stats = &h->data_page_header.statistics;
  } else if (pg.type == PQT_PAGE_DATA_V2) {
    const pqt_data_page_header_v2 *d = &h->data_page_header_v2;
    pi.def_encoding = pg.def_encoding;
    pi.rep_encoding = pg.rep_encoding;
    pi.num_nulls = pg.num_nulls;
    pi.num_rows = pg.num_rows;
    pi.def_bytes = d->definition_levels_byte_length;
    pi.rep_bytes = d->repetition_levels_byte_length;
    pi.is_compressed = !PQT_HAS_FIELD(d, data_page_header_v2, is_compressed) || d->is_compressed;
    if (PQT_HAS_FIELD(d, data_page_header_v2, statistics)) c->stats = &d->statistics;
  }
  pi.has_statistics = c->stats != NULL;
  if (pg.type != PQT_PAGE_DICTIONARY) {
    pi.rep_levels_len = (int64_t)pg.rep_len;
    pi.def_levels_len = (int64_t)pg.def_len;
  }
  c->have_page = true;
  size_t caller = out->struct_size;
  pi.struct_size = caller;
  memcpy(out, &pi, caller < sizeof pi ? caller : sizeof pi);
  return PQT_OK;
}

PQT_API pqt_status pqt_page_cursor_statistics(const pqt_page_cursor *c, pqt_chunk_statistics *out, pqt_error *err) {
  if (!c || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_statistics: bad arguments");
  PQT_RETURN_NOT_OK(
      pqt_meta_check_size(out->struct_size, offsetof(pqt_chunk_statistics, n_fields), "pqt_chunk_statistics", err));
  if (!c->have_page)
    return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_statistics: no current page (call pqt_page_cursor_next)");
  return pqt_meta_fill_statistics(c->r, c->col, c->stats, true, out, err);
}

PQT_API const char *pqt_page_cursor_file(const pqt_page_cursor *c, size_t *len) {
  if (len) *len = 0;
  if (!c || !c->ch.external) return NULL;
  const pqt_column_chunk *cc = c->ch.cc;
  if (len) *len = (size_t)cc->file_path.len;
  return (const char *)cc->file_path.ptr;
}

PQT_API void pqt_page_cursor_close(pqt_page_cursor *c) {
  if (!c) return;
  pqt_page_reader_free(&c->pr);
  pqt_chunk_close(&c->ch);
  pqt_mem_free(c->r->alloc, c, sizeof *c);
}
