/*
 * fuzz/fuzz_meta_api.c: libFuzzer target for the metadata API
 * (parquetry_meta.h). The input is a whole Parquet file, opened from a
 * buffer; then, for every column chunk (at most 64 row groups x 64
 * columns), every accessor: key-value metadata, schema nodes, chunk info
 * and encoding stats, typed statistics (each bound formatted as text), size
 * and geospatial statistics, the ColumnIndex/OffsetIndex arrays (each bound
 * formatted), the dictionary as typed values and as an Arrow array (checked
 * by fuzz_arrow_check.h), and a Bloom probe with the chunk's min, a
 * dictionary entry and a value parsed from text; and the page walk
 * (pqt_page_cursor) of every chunk with each page header's statistics.
 *
 * The page index, Bloom filter header and dictionary page are bytes the
 * footer points at: fuzz_read_file does not reach them through this API.
 *
 * Invariants (abort = finding): failures are a "bad file" status (ECORRUPT,
 * EUNSUPPORTED, ECRYPTO, ELIMIT, ENOMEM) with a message, never EINVAL or
 * EIO (the API is used correctly here); counts and arrays are consistent
 * (null pages have no bounds); every byte allocated is freed with its size.
 *
 * pqt_fuzz_meta_api_one() is also called by tests/hardening/test_meta_api_replay.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "fuzz_arrow_check.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"

#define MA_FAIL(...)                    \
  do {                                  \
    fprintf(stderr, "fuzz_meta_api: "); \
    fprintf(stderr, __VA_ARGS__);       \
    fputc('\n', stderr);                \
    abort();                            \
  } while (0)

static void ma_check(pqt_status st, const pqt_error *err, const char *what) {
  if (st == PQT_OK) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ECRYPTO && st != PQT_ELIMIT && st != PQT_ERANGE && st != PQT_ENOMEM)
    MA_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->code != st) MA_FAIL("%s: error code %d differs from the status %d", what, err->code, st);
  if (err->message[0] == '\0') MA_FAIL("%s: failure without a message", what);
}

static void ma_format(pqt_reader *r, int32_t col, const pqt_value *v, const char *what) {
  if (v->kind == PQT_VALUE_NONE) return;
  pqt_string s;
  memset(&s, 0, sizeof s);
  pqt_error err;
  pqt_status st = pqt_reader_format_value(r, col, v, &s, &err);
  /* a value the library typed always formats; some kinds (a decimal wider
   * than its column claims) may still be refused as corrupt */
  ma_check(st, &err, what);
  if (st == PQT_OK && strlen(s.data) != s.len) MA_FAIL("%s: text length mismatch", what);
  pqt_string_free(&s);
}

static void ma_probe(pqt_reader *r, int32_t g, int32_t col, const pqt_value *v) {
  if (v->kind == PQT_VALUE_NONE) return;
  int might = -1;
  pqt_error err;
  pqt_status st = pqt_bloom_might_contain(r, g, col, v, &might, &err);
  if (st == PQT_EINVAL) return; /* a kind the column cannot take (e.g. an INT96 out of range as bytes) */
  ma_check(st, &err, "bloom_might_contain");
  if (st == PQT_OK && might != 0 && might != 1) MA_FAIL("bloom result %d", might);
}

/* The current page decoded (pqt_page_cursor_decode): counts that add up,
 * min/max and every value formatting; a failure names its place. */
static void ma_decode(pqt_reader *r, int32_t g, int32_t col, pqt_page_cursor *pc, const pqt_page_info *p) {
  pqt_error err;
  pqt_page_values v;
  pqt_page_values_init(&v);
  pqt_status st = pqt_page_cursor_decode(pc, &v, &err);
  if (p->page_type == PQT_PAGE_KIND_DICTIONARY_PAGE) {
    if (st != PQT_EINVAL) MA_FAIL("page_cursor_decode of a dictionary page: %s", pqt_status_name(st));
    return;
  }
  ma_check(st, &err, "page_cursor_decode");
  if (st != PQT_OK) {
    if (err.row_group != g || err.column != col) MA_FAIL("page_cursor_decode: error place %d/%d", err.row_group, err.column);
    if (!strstr(err.message, "row group ")) MA_FAIL("page_cursor_decode: message names no row group: %s", err.message);
    return;
  }
  if (v.num_values < 0 || v.num_levels < v.num_values || v.num_nulls != v.num_levels - v.num_values)
    MA_FAIL("page_cursor_decode: %lld levels, %lld values, %lld nulls", (long long)v.num_levels,
            (long long)v.num_values, (long long)v.num_nulls);
  if (v.nan_count < 0 || v.nan_count > v.num_values) MA_FAIL("page_cursor_decode: %lld NaNs", (long long)v.nan_count);
  if (v.num_rows < 0 || v.num_rows > v.num_levels) MA_FAIL("page_cursor_decode: %lld rows", (long long)v.num_rows);
  if (v.bloom_missing < 0 || v.bloom_missing > v.num_values) MA_FAIL("page_cursor_decode: bloom_missing");
  int64_t sum = 0;
  for (int32_t l = 0; l < v.n_def_levels; l++) sum += v.definition_level_histogram[l];
  if (sum != v.num_levels) MA_FAIL("page_cursor_decode: definition histogram sums to %lld", (long long)sum);
  if (v.has_min_max) {
    ma_format(r, col, &v.min_value, "format decoded page min");
    ma_format(r, col, &v.max_value, "format decoded page max");
  }
  for (int64_t i = 0; i < v.num_values && i < 64; i++) {
    pqt_value x;
    pqt_value_init(&x);
    st = pqt_page_cursor_value(pc, i, &x, &err);
    if (st != PQT_OK) MA_FAIL("page_cursor_value %lld: %s", (long long)i, err.message);
    else ma_format(r, col, &x, "format decoded value");
  }
}

/* The page walk (pqt_page_cursor): pages in order with sound fields, each
 * header's statistics decoded and formatted; a failure names the row
 * group, column and page, and the cursor stays stopped after it. */
static void ma_pages(pqt_reader *r, int32_t g, int32_t col) {
  pqt_error err;
  pqt_page_cursor *pc = NULL;
  pqt_status st = pqt_page_cursor_open(r, g, col, &pc, &err);
  ma_check(st, &err, "page_cursor_open");
  if (st != PQT_OK) {
    if (pc) MA_FAIL("page_cursor_open failed but gave a cursor");
    if (err.row_group != g || err.column != col) MA_FAIL("page_cursor_open: error place %d/%d", err.row_group, err.column);
    return;
  }
  size_t flen = 0;
  const char *file = pqt_page_cursor_file(pc, &flen);
  if (file && flen == 0) MA_FAIL("page_cursor_file: empty name");
  int64_t last_offset = -1;
  int32_t last_index = -1;
  for (int n = 0; n < 4096; n++) {
    pqt_page_info p;
    pqt_page_info_init(&p);
    int eof = -1;
    st = pqt_page_cursor_next(pc, &p, &eof, &err);
    ma_check(st, &err, "page_cursor_next");
    if (st != PQT_OK) {
      if (err.page < 0 || err.row_group != g || err.column != col) MA_FAIL("page_cursor_next: error without its place");
      if (!strstr(err.message, "page ")) MA_FAIL("page_cursor_next: message names no page: %s", err.message);
      if (pqt_page_cursor_next(pc, &p, &eof, &err) == PQT_OK) MA_FAIL("page_cursor_next went on after an error");
      break;
    }
    if (eof) break;
    if (p.index <= last_index || p.offset <= last_offset) MA_FAIL("pages out of order");
    last_index = p.index;
    last_offset = p.offset;
    if (p.compressed_size < 0 || p.uncompressed_size < 0 || p.header_size <= 0) MA_FAIL("page with a negative size");
    if (p.crc_ok != -1 && p.crc_ok != 0 && p.crc_ok != 1) MA_FAIL("crc_ok %d", p.crc_ok);
    if (!p.has_crc && p.crc_ok != -1) MA_FAIL("crc checked without a crc");
    if (p.rep_levels_len < 0 || p.def_levels_len < 0) MA_FAIL("negative level length");
    pqt_chunk_statistics s;
    pqt_chunk_statistics_init(&s);
    st = pqt_page_cursor_statistics(pc, &s, &err);
    ma_check(st, &err, "page_cursor_statistics");
    if (st == PQT_OK) {
      if (s.present != p.has_statistics) MA_FAIL("page statistics present %d, header says %d", s.present, p.has_statistics);
      ma_format(r, col, &s.min, "format page header min");
      ma_format(r, col, &s.max, "format page header max");
    }
    ma_decode(r, g, col, pc, &p);
  }
  pqt_page_cursor_close(pc);
}

/* verify's output: checked for being text, then dropped */
static pqt_status ma_sink(void *ctx, const char *d, size_t n) {
  (void)ctx;
  if (n && d[n - 1] != '\n') MA_FAIL("verify output does not end a line");
  return PQT_OK;
}

static void ma_chunk(pqt_reader *r, int32_t g, int32_t col) {
  pqt_error err;
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  pqt_status st = pqt_reader_chunk(r, g, col, &ci, &err);
  ma_check(st, &err, "chunk");
  if (st != PQT_OK) return;
  for (int32_t i = 0; i < ci.n_encodings; i++) (void)pqt_encoding_name(ci.encodings[i]);
  for (int32_t i = 0; i < ci.n_encoding_stats; i++) {
    pqt_encoding_stat es;
    pqt_encoding_stat_init(&es);
    ma_check(pqt_chunk_encoding_stats(r, g, col, i, &es, &err), &err, "encoding_stats");
  }
  int32_t nkv = pqt_chunk_kv_count(r, g, col);
  for (int32_t i = 0; i < nkv; i++) {
    pqt_kv kv;
    pqt_kv_init(&kv);
    ma_check(pqt_chunk_kv(r, g, col, i, &kv, &err), &err, "chunk_kv");
  }
  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  st = pqt_reader_chunk_statistics(r, g, col, &s, &err);
  ma_check(st, &err, "chunk_statistics");
  if (st == PQT_OK) {
    ma_format(r, col, &s.min, "format stats min");
    ma_format(r, col, &s.max, "format stats max");
    ma_probe(r, g, col, &s.min);
  }
  pqt_size_stats z;
  pqt_size_stats_init(&z);
  ma_check(pqt_reader_chunk_size_stats(r, g, col, &z, &err), &err, "size_stats");
  pqt_geo_stats geo;
  pqt_geo_stats_init(&geo);
  ma_check(pqt_reader_chunk_geo_stats(r, g, col, &geo, &err), &err, "geo_stats");

  pqt_page_index pi;
  pqt_page_index_init(&pi);
  st = pqt_reader_page_index(r, g, col, &pi, &err);
  ma_check(st, &err, "page_index");
  if (st == PQT_OK) {
    for (int32_t i = 0; pi.has_column_index && i < pi.n_pages && i < 256; i++) {
      if (pi.null_pages[i] && pi.min_values[i].kind != PQT_VALUE_NONE) MA_FAIL("null page with a bound");
      ma_format(r, col, &pi.min_values[i], "format page min");
      ma_format(r, col, &pi.max_values[i], "format page max");
      if (pi.null_counts) (void)pi.null_counts[i];
    }
    for (int32_t i = 0; pi.has_offset_index && i < pi.n_locations; i++)
      (void)(pi.page_offsets[i] + pi.compressed_page_sizes[i] + pi.first_row_indexes[i]);
    pqt_page_index_free(&pi);
  }
  /* as stored: every list with its own length, bounds compared in the column's order */
  pqt_page_index ps;
  pqt_page_index_init(&ps);
  st = pqt_reader_page_index_stored(r, g, col, &ps, &err);
  ma_check(st, &err, "page_index_stored");
  if (st == PQT_OK) {
    if (ps.has_column_index && (ps.n_min_values < 0 || ps.n_max_values < 0)) MA_FAIL("negative list length");
    int32_t nb = ps.n_min_values < ps.n_max_values ? ps.n_min_values : ps.n_max_values;
    for (int32_t i = 0; ps.has_column_index && i < nb && i < 256; i++) {
      const pqt_value *a = &ps.min_values[i], *b = &ps.max_values[i];
      int c1 = pqt_reader_compare_plain(r, col, a->plain, a->n_plain, b->plain, b->n_plain);
      int c2 = pqt_reader_compare_plain(r, col, b->plain, b->n_plain, a->plain, a->n_plain);
      if (c1 < -1 || c1 > 2 || (c1 == 2) != (c2 == 2) || (c1 != 2 && c1 != -c2)) MA_FAIL("compare not antisymmetric");
    }
    for (int32_t i = 0; i < ps.n_null_counts && i < 256; i++) (void)ps.null_counts[i];
    for (int32_t i = 0; i < ps.n_nan_counts && i < 256; i++) (void)ps.nan_counts[i];
    for (int32_t i = 0; i < ps.n_definition_level_histograms && i < 256; i++) (void)ps.definition_level_histograms[i];
    for (int32_t i = 0; i < ps.n_repetition_level_histograms && i < 256; i++) (void)ps.repetition_level_histograms[i];
    if (ps.column_index_error) (void)strlen(ps.column_index_error);
    pqt_page_index_free(&ps);
  }

  pqt_dictionary d;
  pqt_dictionary_init(&d);
  st = pqt_reader_dictionary_values(r, g, col, &d, &err);
  ma_check(st, &err, "dictionary_values");
  if (st == PQT_OK) {
    for (int64_t i = 0; i < d.n_values && i < 64; i++) ma_format(r, col, &d.values[i], "format dictionary entry");
    if (d.n_values > 0) ma_probe(r, g, col, &d.values[0]);
    int64_t n = d.present ? d.n_values : -1;
    pqt_dictionary_free(&d);
    struct ArrowArray a;
    struct ArrowSchema sc;
    st = pqt_reader_dictionary(r, g, col, &a, &sc, &err);
    ma_check(st, &err, "dictionary");
    if (st == PQT_OK && n >= 0) {
      if (!a.release || !sc.release) MA_FAIL("dictionary present as values but not as an array");
      if (a.length != n) MA_FAIL("dictionary: %lld values, array of %lld", (long long)n, (long long)a.length);
      pqt_arrow_check chk = {0};
      /* formats the checker does not know (large_utf8 from ARROW:schema...) are let through */
      const char *why = pqt_arrow_check_array(&chk, &sc, &a, 0);
      if (why && strcmp(why, "unknown format") != 0) MA_FAIL("dictionary array (%s): %s", sc.format, why);
    }
    if (a.release) a.release(&a);
    if (sc.release) sc.release(&sc);
  }
  pqt_value v;
  pqt_value_init(&v);
  pqt_string storage;
  memset(&storage, 0, sizeof storage);
  if (pqt_reader_parse_value(r, col, "1", &v, &storage, &err) == PQT_OK) ma_probe(r, g, col, &v);
  pqt_string_free(&storage);
}

static void pqt_fuzz_meta_api_with(const uint8_t *data, size_t size, pqt_fuzz_alloc *fa) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa->base;
  ro.verify_checksums = (size & 1) == 0;
  pqt_error err;
  pqt_reader *r = NULL;
  pqt_status st = pqt_reader_open_buffer(&r, data, size, &ro, &err);
  if (st != PQT_OK) return;
  int32_t sig = -1;
  if (pqt_reader_footer_signature(r, &sig, &err) == PQT_OK &&
      (sig < PQT_FOOTER_SIGNATURE_NONE || sig > PQT_FOOTER_SIGNATURE_NO_KEY))
    MA_FAIL("footer signature state %d", (int)sig);
  int32_t nkv = pqt_reader_kv_count(r);
  for (int32_t i = 0; i < nkv; i++) {
    pqt_kv kv;
    pqt_kv_init(&kv);
    ma_check(pqt_reader_kv(r, i, &kv, &err), &err, "kv");
    if (!kv.key) MA_FAIL("kv %d without a key", i);
  }
  int32_t nn = pqt_reader_schema_node_count(r);
  for (int32_t i = 0; i < nn; i++) {
    pqt_schema_info s;
    pqt_schema_info_init(&s);
    ma_check(pqt_reader_schema_node(r, i, &s, &err), &err, "schema_node");
    for (int32_t k = 0; k < s.n_children; k++)
      if (pqt_reader_schema_child(r, i, k) <= i) MA_FAIL("child %d of node %d is not after it", k, i);
  }
  int32_t ng = pqt_reader_num_row_groups(r), nc = pqt_reader_num_columns(r);
  for (int32_t c = 0; c < nc; c++)
    if (pqt_reader_column_node(r, c) < 0) MA_FAIL("column %d has no node", c);
  for (int32_t g = 0; g < ng && g < 64; g++)
    for (int32_t c = 0; c < nc && c < 64; c++) {
      ma_chunk(r, g, c);
      ma_pages(r, g, c);
    }
  /* verify: the same API over every page, every problem a line */
  if (ng <= 64 && nc <= 64) {
    pqt_verify_report rep;
    pqt_verify_report_init(&rep);
    st = pqt_reader_verify_ex(r, ma_sink, NULL, &rep, &err);
    if (st != PQT_OK && st != PQT_ENOMEM) MA_FAIL("verify: %s: %s", pqt_status_name(st), err.message);
    if (st == PQT_OK && (rep.problems < 0 || rep.unchecked < 0 || rep.chunks_checked > (int64_t)ng * nc))
      MA_FAIL("verify report: %lld problems, %lld unchecked, %lld chunks", (long long)rep.problems,
              (long long)rep.unchecked, (long long)rep.chunks_checked);
  }
  pqt_reader_close(r);
}

static void pqt_fuzz_meta_api_one(const uint8_t *data, size_t size) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  pqt_fuzz_meta_api_with(data, size, &fa);
  if (fa.live != 0) MA_FAIL("leak: %zu bytes still allocated after close", fa.live);
  if (fa.size_mismatches) MA_FAIL("%llu frees/reallocs with a wrong size", (unsigned long long)fa.size_mismatches);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_fuzz_meta_api_one(data, size);
  return 0;
}
