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
#include "meta/bloom.h"
#include "meta/sort_order.h"
#include "meta/typed_value.h"
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
  int32_t data_page;           /* ordinal of the current page among the data pages (-1: none yet) */
  bool is_data;                /* the current page is a data page */
  /* pqt_page_cursor_decode: the chunk decoded once, page spans from its page ends */
  bool decoded;
  pqt_status dec_status;
  pqt_error dec_err;
  pqt_column_data cd;
  pqt_buf ends;
  int32_t has_bloom; /* 1 loaded, 0 none, -1 unreadable (bloom_err says why) */
  pqt_bloom bloom;
  pqt_error bloom_err;
  bool page_ok;      /* the current page's span below is set */
  int64_t v0, v1;    /* the current page's dense values */
  int64_t hist[2][PQT_SCHEMA_MAX_DEPTH + 1];
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
  c->data_page = -1;
  pqt_column_data_init(&c->cd, r->data_alloc);
  pqt_buf_init(&c->ends, r->data_alloc);
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
  c->is_data = false;
  c->page_ok = false;
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
  if (pg.type != PQT_PAGE_DICTIONARY) {
    c->is_data = true;
    c->data_page++;
  }
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
  pqt_column_data_free(&c->cd);
  pqt_buf_free(&c->ends);
  if (c->has_bloom == 1) pqt_bloom_free(&c->bloom);
  pqt_page_reader_free(&c->pr);
  pqt_chunk_close(&c->ch);
  pqt_mem_free(c->r->alloc, c, sizeof *c);
}

/* ---- decoded pages --------------------------------------------------------------- */

PQT_API void pqt_page_values_init(pqt_page_values *v) {
  if (!v) return;
  memset(v, 0, sizeof *v);
  v->struct_size = sizeof *v;
  pqt_value_init(&v->min_value);
  pqt_value_init(&v->max_value);
  v->bloom_first_missing = -1;
}

static const uint8_t bool_bytes[2] = {0, 1};

/* Dense value i of cd as PLAIN bytes (BOOLEAN as one byte 0/1). */
static const uint8_t *plain_at(const pqt_schema_node *leaf, const pqt_column_data *cd, int64_t i, size_t *n) {
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
    *n = (size_t)(o[i + 1] - o[i]);
    return cd->values.data + o[i];
  }
  if (leaf->physical_type == PQT_BOOLEAN) {
    *n = 1;
    return &bool_bytes[(cd->values.data[i >> 3] >> (i & 7)) & 1];
  }
  *n = pqt_physical_width(leaf->physical_type, leaf->type_length);
  return pqt_column_values(cd) + (size_t)i * *n;
}

/* plain bytes as a value of leaf: typed when they type, else kind NONE with plain set. */
static void typed(const pqt_schema_node *leaf, const uint8_t *p, size_t n, pqt_value *out) {
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_typed_from_plain(leaf, p, n, out, &e) != PQT_OK) {
    pqt_value_init(out);
    out->kind = PQT_VALUE_NONE;
  }
  out->plain = p;
  out->n_plain = n;
}

/* Decode the chunk (once) and load its Bloom filter. */
static void decode_chunk(pqt_page_cursor *c) {
  c->decoded = true;
  pqt_error_init(&c->dec_err);
  c->cd.page_ends = &c->ends;
  c->dec_status = pqt_row_group_read_leaf(c->r, c->rg, c->col, &c->cd, &c->dec_err);
  if (c->dec_status != PQT_OK) return;
  const pqt_schema_node *leaf = c->r->schema->leaves[c->col];
  if (leaf->physical_type == PQT_BOOLEAN) return;
  pqt_error_init(&c->bloom_err);
  bool found = false;
  if (pqt_chunk_read_bloom(c->r, &c->ch, &c->bloom, &found, &c->bloom_err) != PQT_OK) c->has_bloom = -1;
  else c->has_bloom = found ? 1 : 0;
}

PQT_API pqt_status pqt_page_cursor_decode(pqt_page_cursor *c, pqt_page_values *out, pqt_error *err) {
  if (!c || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_decode: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, offsetof(pqt_page_values, bloom_error), "pqt_page_values", err));
  const pqt_schema_node *leaf = c->r->schema->leaves[c->col];
  if (!c->have_page || !c->is_data)
    return pqt_error_set(err, PQT_EINVAL, "row group %d, column %s: pqt_page_cursor_decode: no current data page",
                         c->rg, leaf->dotted_path);
  if (!c->decoded) decode_chunk(c);
  if (c->dec_status != PQT_OK) {
    if (err) *err = c->dec_err;
    return c->dec_status;
  }
  const pqt_page_end *ends = (const pqt_page_end *)(const void *)c->ends.data;
  int32_t n_ends = (int32_t)(c->ends.len / sizeof(pqt_page_end));
  int32_t i = c->data_page;
  if (i < 0 || i >= n_ends) {
    pqt_status st = pqt_corrupt(err, "row group %d, column %s, page %d: data page %d of the walk, the decoder found %d",
                                c->rg, leaf->dotted_path, c->pr.current, i, n_ends);
    if (err) {
      err->row_group = c->rg;
      err->column = c->col;
      err->page = c->pr.current;
    }
    return st;
  }
  int64_t lv0 = i ? ends[i - 1].n_levels : 0, lv1 = ends[i].n_levels;
  c->v0 = i ? ends[i - 1].n_values : 0;
  c->v1 = ends[i].n_values;
  c->page_ok = true;
  pqt_page_values pv;
  memset(&pv, 0, sizeof pv);
  pv.data_page = i;
  pv.num_levels = lv1 - lv0;
  pv.num_values = c->v1 - c->v0;
  pv.num_nulls = pv.num_levels - pv.num_values;
  pv.bloom_first_missing = -1;
  /* level histograms: levels are int16 per entry, or absent when every entry is at the max level */
  const pqt_buf *lvb[2] = {&c->cd.rep, &c->cd.def};
  int16_t maxl[2] = {leaf->max_rep, leaf->max_def};
  for (int k = 0; k < 2; k++) {
    memset(c->hist[k], 0, sizeof c->hist[k]);
    int16_t m = maxl[k] < 0 ? 0 : maxl[k] > PQT_SCHEMA_MAX_DEPTH ? PQT_SCHEMA_MAX_DEPTH : maxl[k];
    bool have = lvb[k]->len >= (size_t)c->cd.n_levels * 2 && lvb[k]->len != 0;
    const int16_t *lv = have ? (const int16_t *)(const void *)lvb[k]->data : NULL;
    if (lv) {
      for (int64_t x = lv0; x < lv1; x++)
        if (lv[x] >= 0 && lv[x] <= m) c->hist[k][lv[x]]++;
    } else {
      c->hist[k][m] = lv1 - lv0;
    }
  }
  pv.n_rep_levels = leaf->max_rep + 1;
  pv.repetition_level_histogram = c->hist[0];
  pv.n_def_levels = leaf->max_def + 1;
  pv.definition_level_histogram = c->hist[1];
  pv.num_rows = leaf->max_rep > 0 ? c->hist[0][0] : pv.num_levels;
  /* NaNs, min and max in the column's sort order */
  pqt_sort_kind k = pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type);
  const uint8_t *mn = NULL, *mx = NULL;
  size_t mnn = 0, mxn = 0;
  bool unordered = false;
  for (int64_t x = c->v0; x < c->v1; x++) {
    size_t n;
    const uint8_t *p = plain_at(leaf, &c->cd, x, &n);
    if (pqt_sort_value_is_nan(k, p, n)) {
      pv.nan_count++;
      continue;
    }
    if (unordered) continue;
    if (!pqt_sort_value_ordered(k, p, n)) {
      unordered = true; /* no order */
      continue;
    }
    if (!mn || pqt_stats_compare(k, p, n, mn, mnn) < 0) mn = p, mnn = n;
    if (!mx || pqt_stats_compare(k, p, n, mx, mxn) > 0) mx = p, mxn = n;
  }
  pqt_value_init(&pv.min_value);
  pqt_value_init(&pv.max_value);
  if (mn && !unordered) {
    pv.has_min_max = 1;
    typed(leaf, mn, mnn, &pv.min_value);
    typed(leaf, mx, mxn, &pv.max_value);
  }
  /* the Bloom filter: XXH64 of each value's PLAIN bytes */
  pv.bloom_checked = c->has_bloom;
  pv.bloom_error = c->has_bloom == -1 ? c->bloom_err.message : NULL;
  if (c->has_bloom == 1)
    for (int64_t x = c->v0; x < c->v1; x++) {
      size_t n;
      const uint8_t *p = plain_at(leaf, &c->cd, x, &n);
      if (!pqt_bloom_check(&c->bloom, pqt_bloom_hash(p, n))) {
        if (pv.bloom_first_missing < 0) pv.bloom_first_missing = x - c->v0;
        pv.bloom_missing++;
      }
    }
  size_t caller = out->struct_size;
  pv.struct_size = caller;
  memcpy(out, &pv, caller < sizeof pv ? caller : sizeof pv);
  return PQT_OK;
}

PQT_API pqt_status pqt_page_cursor_check(pqt_page_cursor *c, pqt_error *err) {
  if (!c) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_check: cursor is NULL");
  if (!c->decoded) decode_chunk(c);
  if (c->dec_status != PQT_OK && err) *err = c->dec_err;
  return c->dec_status;
}

PQT_API pqt_status pqt_page_cursor_value(const pqt_page_cursor *c, int64_t i, pqt_value *out, pqt_error *err) {
  if (!c || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_value: bad arguments");
  PQT_RETURN_NOT_OK(pqt_meta_check_size(out->struct_size, sizeof(pqt_value), "pqt_value", err));
  if (!c->page_ok || i < 0 || i >= c->v1 - c->v0)
    return pqt_error_set(err, PQT_EINVAL, "pqt_page_cursor_value: no value %lld in the decoded page", (long long)i);
  const pqt_schema_node *leaf = c->r->schema->leaves[c->col];
  size_t n;
  const uint8_t *p = plain_at(leaf, &c->cd, c->v0 + i, &n);
  typed(leaf, p, n, out);
  return PQT_OK;
}

PQT_API const char *pqt_reader_error_detail(const pqt_reader *r, const pqt_error *err) {
  if (!err) return "";
  const char *m = err->message;
  if (!r || err->row_group < 0 || err->row_group >= r->md.row_groups.n || err->column < 0 ||
      err->column >= r->schema->n_leaves)
    return m;
  char place[600];
  int n = snprintf(place, sizeof place, "row group %d, column %s", err->row_group, leaf_path(r, err->column));
  if (n <= 0 || (size_t)n >= sizeof place || strncmp(m, place, (size_t)n) != 0) return m;
  if ((m[n] == ':' || m[n] == ',') && m[n + 1] == ' ') return m + n + 2;
  return m;
}
