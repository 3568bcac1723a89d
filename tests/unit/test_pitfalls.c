/*
 * The interoperability pitfalls of docs/interop-pitfalls.md (first
 * section) that no other test asserted; tests/PITFALLS.md maps every item
 * to its tests. Files are built in memory: by the writer, by editing a
 * written file's footer or indexes, or from hand-made pages spliced into a
 * written file (page headers encoded with the Thrift codec), so each test
 * shows exactly the bytes another writer would produce.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/delta_byte_array.h"
#include "encoding/rle.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "meta/bloom.h"
#include "page/page_reader.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* ---- helpers ------------------------------------------------------------ */

/* Text from a pqt_write_fn, collected into one NUL-terminated buffer. */

/* Write one row group of one leaf column (values in the physical layout). */
static bool write_one(const char *message, const pqt_write_options *o, int64_t n, const int16_t *def,
                      const int16_t *rep, const void *vals, const int32_t *offs, int64_t nv, pqt_string *out) {
  memset(out, 0, sizeof *out);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = message};
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_writer_open_buffer(&w, out, &ws, o, &e) != PQT_OK) {
    fprintf(stderr, "  open writer: %s\n", e.message);
    return false;
  }
  if (pqt_writer_write_column(w, 0, n, def, rep, vals, offs, nv, &e) != PQT_OK) {
    fprintf(stderr, "  write column: %s\n", e.message);
    pqt_writer_discard(w);
    return false;
  }
  if (pqt_writer_close(w, &e) != PQT_OK) {
    fprintf(stderr, "  close writer: %s\n", e.message);
    return false;
  }
  return true;
}

/* The rows of a file as JSON Lines (NULL on failure; *st gets the status). */
static char *cat_opts(const void *p, size_t n, const pqt_read_options *ro, pqt_status *st_out, pqt_error *e) {
  pqt_error tmp;
  if (!e) e = &tmp;
  pqt_error_init(e);
  pqt_reader *r = NULL;
  pqt_status st = pqt_reader_open_buffer(&r, p, n, ro, e);
  pqt_test_text t = {0};
  if (st == PQT_OK) {
    st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, e);
    pqt_reader_close(r);
  }
  if (st_out) *st_out = st;
  if (st != PQT_OK) {
    free(t.p);
    return NULL;
  }
  return t.p ? t.p : calloc(1, 1);
}
static char *cat(const void *p, size_t n) {
  pqt_error e;
  pqt_status st;
  char *s = cat_opts(p, n, NULL, &st, &e);
  if (!s) fprintf(stderr, "  read: %s\n", e.message);
  return s;
}

/* pqt_reader_verify's report (NULL when it could not run). */
static char *verify_text(const void *p, size_t n, int64_t *problems) {
  pqt_reader *r = NULL;
  if (pqt_reader_open_buffer(&r, p, n, NULL, NULL) != PQT_OK) return NULL;
  pqt_test_text t = {0};
  *problems = -1;
  pqt_status st = pqt_reader_verify(r, pqt_test_collect, &t, problems, NULL);
  pqt_reader_close(r);
  if (st != PQT_OK) {
    free(t.p);
    return NULL;
  }
  return t.p ? t.p : calloc(1, 1);
}

/* A decoded footer of a file (views into the file, which must stay alive). */
typedef struct footer {
  pqt_arena arena;
  pqt_file_metadata md;
  size_t start; /* where the footer begins */
} footer;

static bool footer_decode(const void *file, size_t len, footer *ft) {
  const uint8_t *f = file;
  pqt_arena_init(&ft->arena, NULL);
  if (len < 12) return false;
  uint32_t flen = pqt_load_u32le(f + len - 8);
  if (flen > len - 12) return false;
  ft->start = len - 8 - flen;
  return pqt_thrift_decode(&pqt_desc_file_metadata, f + ft->start, flen, NULL, &ft->arena, &ft->md, NULL) == PQT_OK;
}
static void footer_free(footer *ft) { pqt_arena_reset(&ft->arena); }

/* out = body (the file's bytes before its footer, starting with PAR1) +
 * the encoded md + footer length + PAR1. */
static bool assemble(const uint8_t *body, size_t body_len, const pqt_file_metadata *md, pqt_buf *out) {
  pqt_buf_init(out, NULL);
  if (pqt_buf_append(out, body, body_len, NULL) != PQT_OK) return false;
  size_t fstart = out->len;
  if (pqt_thrift_encode(&pqt_desc_file_metadata, md, out, NULL) != PQT_OK) return false;
  uint8_t tail[8];
  pqt_store_u32le(tail, (uint32_t)(out->len - fstart));
  memcpy(tail + 4, "PAR1", 4);
  return pqt_buf_append(out, tail, 8, NULL) == PQT_OK;
}

/* A copy of `base` (one row group, one leaf column) whose column chunk is
 * exactly `pages` (headers and bodies, as another writer made them), stored
 * right after the magic: no dictionary offset, statistics, page index or
 * Bloom filter of the original remain. */
static bool splice_pages(const pqt_string *base, const uint8_t *pages, size_t plen, int64_t num_values, int32_t codec,
                         pqt_buf *out) {
  footer ft;
  if (!footer_decode(base->data, base->len, &ft) || ft.md.row_groups.n != 1 ||
      ft.md.row_groups.items[0].columns.n != 1) {
    footer_free(&ft);
    return false;
  }
  pqt_row_group *rg = &ft.md.row_groups.items[0];
  pqt_column_chunk *cc = &rg->columns.items[0];
  pqt_column_metadata *cm = &cc->meta_data;
  cm->isset &= ~PQT_FIELD_MASK(column_metadata, dictionary_page_offset, statistics, encoding_stats, bloom_filter_offset,
                               bloom_filter_length, size_statistics);
  cm->codec = codec;
  cm->num_values = num_values;
  cm->total_compressed_size = cm->total_uncompressed_size = (int64_t)plen;
  cm->data_page_offset = 4;
  cc->isset &=
      ~PQT_FIELD_MASK(column_chunk, offset_index_offset, offset_index_length, column_index_offset, column_index_length);
  cc->file_offset = 4;
  rg->total_byte_size = (int64_t)plen;
  rg->total_compressed_size = (int64_t)plen;
  rg->file_offset = 4;
  pqt_buf body;
  pqt_buf_init(&body, NULL);
  bool ok = pqt_buf_append(&body, "PAR1", 4, NULL) == PQT_OK && pqt_buf_append(&body, pages, plen, NULL) == PQT_OK &&
            assemble(body.data, body.len, &ft.md, out);
  pqt_buf_free(&body);
  footer_free(&ft);
  return ok;
}

/* Append a page: its header (Thrift compact) then its body. */
static void put_page(pqt_buf *out, const pqt_page_header *h, const uint8_t *body, size_t blen) {
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, h, out, NULL));
  if (blen) CHECK_OK(pqt_buf_append(out, body, blen, NULL));
}

/* A v1 data page header; sizes are set from the body. */
static pqt_page_header v1_header(int32_t num_values, int32_t encoding, int32_t def_enc, size_t usize, size_t csize) {
  pqt_page_header h;
  memset(&h, 0, sizeof h);
  h.type = PQT_PAGE_DATA;
  h.uncompressed_page_size = (int32_t)usize;
  h.compressed_page_size = (int32_t)csize;
  h.isset = PQT_FIELD_MASK(page_header, type, uncompressed_page_size, compressed_page_size, data_page_header);
  h.data_page_header.num_values = num_values;
  h.data_page_header.encoding = encoding;
  h.data_page_header.definition_level_encoding = def_enc;
  h.data_page_header.repetition_level_encoding = PQT_ENC_RLE;
  h.data_page_header.isset =
      PQT_FIELD_MASK(data_page_header, num_values, encoding, definition_level_encoding, repetition_level_encoding);
  return h;
}

/* v1 RLE level section: 4-byte length, then the hybrid runs. */
static void put_v1_levels(pqt_buf *out, const int16_t *lv, size_t n, unsigned bw) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_rle_encode_levels(lv, n, bw, &b, NULL));
  uint8_t len[4];
  pqt_store_u32le(len, (uint32_t)b.len);
  CHECK_OK(pqt_buf_append(out, len, 4, NULL));
  CHECK_OK(pqt_buf_append(out, b.data, b.len, NULL));
  pqt_buf_free(&b);
}

static bool contains(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

/* Open a reader over a buffer (NULL on failure, reported). */
static pqt_reader *open_buf(const void *p, size_t n) {
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_buffer(&r, p, n, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  open: %s\n", e.message);
    return NULL;
  }
  return r;
}

/* ---- 2. dictionary_page_offset 0 / equal / missing ---------------------- */

/* A dictionary-encoded chunk described three ways other writers do: a
 * dictionary_page_offset of 0 (with data_page_offset at the dictionary
 * page), equal to data_page_offset, or absent with data_page_offset at the
 * dictionary page. The pages decide; every variant reads the same rows. */
static void test_dictionary_page_offset_variants(void) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = PQT_CODEC_UNCOMPRESSED;
  o.defaults.page_index = 0;
  o.defaults.page_row_limit = 40;
  int64_t v[100];
  for (int i = 0; i < 100; i++) v[i] = (i % 7) * 1000;
  pqt_string base;
  CHECK(write_one("message m { required int64 a; }", &o, 100, NULL, NULL, v, NULL, 100, &base));
  char *want = cat(base.data, base.len);
  CHECK(want && strncmp(want, "{\"a\":0}\n{\"a\":1000}\n", 19) == 0);
  footer ft;
  CHECK(footer_decode(base.data, base.len, &ft));
  pqt_column_metadata *cm = &ft.md.row_groups.items[0].columns.items[0].meta_data;
  CHECK(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset == 4 &&
        cm->data_page_offset > 4);
  int64_t dict_at = cm->dictionary_page_offset;
  for (int variant = 0; variant < 3 && want; variant++) {
    cm->isset |= PQT_FIELD_MASK(column_metadata, dictionary_page_offset);
    switch (variant) {
      case 0:
        cm->dictionary_page_offset = 0;
        cm->data_page_offset = dict_at;
        break;
      case 1:
        cm->dictionary_page_offset = dict_at;
        cm->data_page_offset = dict_at;
        break;
      default:
        cm->isset &= ~PQT_FIELD_MASK(column_metadata, dictionary_page_offset);
        cm->data_page_offset = dict_at;
        break;
    }
    pqt_buf f;
    CHECK(assemble((const uint8_t *)base.data, ft.start, &ft.md, &f));
    char *got = cat(f.data, f.len);
    CHECK_MSG(got && strcmp(got, want) == 0, "variant %d", variant);
    free(got);
    pqt_buf_free(&f);
  }
  /* and a data_page_offset of 0 with the chunk start in dictionary_page_offset */
  cm->isset |= PQT_FIELD_MASK(column_metadata, dictionary_page_offset);
  cm->dictionary_page_offset = dict_at;
  cm->data_page_offset = 0;
  pqt_buf f;
  CHECK(assemble((const uint8_t *)base.data, ft.start, &ft.md, &f));
  char *got = cat(f.data, f.len);
  CHECK(got && want && strcmp(got, want) == 0);
  free(got);
  pqt_buf_free(&f);
  footer_free(&ft);
  free(want);
  pqt_string_free(&base);
}

/* ---- 3. RowGroup.file_offset -------------------------------------------- */

/* The writer stores each row group's file_offset as the start of its first
 * column chunk (its dictionary page when it has one) and
 * ColumnChunk.file_offset as the chunk start; the reader never relies on
 * either: garbage there (as parquet-mr 1.12.0 wrote) reads the same. */
static void test_row_group_file_offset(void) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.bloom_filter = 1; /* filters sit between row groups */
  int32_t v[1000];
  for (int i = 0; i < 1000; i++) v[i] = i % 10;
  pqt_string base = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int32 a; }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &base, &ws, &o, NULL));
  if (!w) return;
  for (int g = 0; g < 4; g++) {
    int n = g < 3 ? 300 : 100;
    CHECK_OK(pqt_writer_write_column(w, 0, n, NULL, NULL, v + 300 * g, NULL, n, NULL));
    CHECK_OK(pqt_writer_flush_row_group(w, NULL));
  }
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(base.data, base.len, &ft));
  CHECK_EQ_INT(ft.md.row_groups.n, 4);
  for (int32_t g = 0; g < ft.md.row_groups.n; g++) {
    pqt_row_group *rg = &ft.md.row_groups.items[g];
    const pqt_column_chunk *cc = &rg->columns.items[0];
    int64_t start = PQT_HAS_FIELD(&cc->meta_data, column_metadata, dictionary_page_offset)
                        ? cc->meta_data.dictionary_page_offset
                        : cc->meta_data.data_page_offset;
    CHECK(PQT_HAS_FIELD(&cc->meta_data, column_metadata, dictionary_page_offset)); /* dictionary encoded */
    CHECK(PQT_HAS_FIELD(rg, row_group, file_offset));
    CHECK_EQ_INT(rg->file_offset, start);
    CHECK_EQ_INT(cc->file_offset, start);
    if (g > 0) CHECK(rg->file_offset > ft.md.row_groups.items[g - 1].file_offset);
  }
  char *want = cat(base.data, base.len);
  /* parquet-mr 1.12.0 style garbage: every row group says the first one's offset */
  for (int32_t g = 0; g < ft.md.row_groups.n; g++) {
    ft.md.row_groups.items[g].file_offset = g == 0 ? 4 : 123456789;
    ft.md.row_groups.items[g].columns.items[0].file_offset = 0;
    ft.md.row_groups.items[g].total_compressed_size = 1;
  }
  pqt_buf f;
  CHECK(assemble((const uint8_t *)base.data, ft.start, &ft.md, &f));
  char *got = cat(f.data, f.len);
  CHECK(want && got && strcmp(want, got) == 0);
  /* row groups read one by one */
  pqt_reader *r = open_buf(f.data, f.len);
  if (r) {
    int32_t g3 = 3;
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.row_groups = &g3;
    so.n_row_groups = 1;
    pqt_test_text t = {0};
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, NULL));
    CHECK(t.p && strncmp(t.p, "{\"a\":0}\n", 8) == 0 && strlen(t.p) == 100 * 8);
    free(t.p);
    pqt_reader_close(r);
  }
  free(got);
  free(want);
  pqt_buf_free(&f);
  footer_free(&ft);
  pqt_string_free(&base);
}

/* ---- 4, 5, 23. statistics sort order, legacy min/max, PARQUET-251 ------- */

static pqt_bytes bytes_of(const char *s, size_t n) { return (pqt_bytes){(const uint8_t *)s, (int64_t)n}; }

/* Only the deprecated min/max fields, as parquet-mr before 1.10 wrote
 * them, under a created_by of a version with PARQUET-251's corrupt binary
 * statistics: for a string and an unsigned column (whose order is not
 * signed) they are never shown or judged; for a signed int32 they are. */
static void test_legacy_min_max_by_sort_order(void) {
  const char *schema =
      "message m { required binary s (STRING); required int32 i; required int32 u (INTEGER(32,false)); }";
  pqt_string base = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &base, &ws, NULL, NULL));
  if (!w) return;
  const char *sd = "bbbccc";
  int32_t so[] = {0, 3, 6};
  int32_t iv[] = {-5, 7}, uv[] = {1, -1 /* 4294967295 */};
  CHECK_OK(pqt_writer_write_column(w, 0, 2, NULL, NULL, sd, so, 2, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 2, NULL, NULL, iv, NULL, 2, NULL));
  CHECK_OK(pqt_writer_write_column(w, 2, 2, NULL, NULL, uv, NULL, 2, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(base.data, base.len, &ft));
  pqt_row_group *rg = &ft.md.row_groups.items[0];
  /* the writer itself: min_value/max_value everywhere, legacy fields only
   * where the order is signed */
  CHECK(PQT_HAS_FIELD(&rg->columns.items[0].meta_data.statistics, statistics, min_value) &&
        !PQT_HAS_FIELD(&rg->columns.items[0].meta_data.statistics, statistics, min));
  CHECK(PQT_HAS_FIELD(&rg->columns.items[1].meta_data.statistics, statistics, min));
  CHECK(PQT_HAS_FIELD(&rg->columns.items[2].meta_data.statistics, statistics, min_value) &&
        !PQT_HAS_FIELD(&rg->columns.items[2].meta_data.statistics, statistics, min));
  /* now as an old parquet-mr file: legacy fields only, binary ones wrong */
  static const char wrong_min[] = "zzz", wrong_max[] = "aaa";
  int32_t i_min = -5, i_max = 7, u_smin = -1, u_smax = 1; /* u in signed order: wrong for UINT_32 */
  for (int c = 0; c < 3; c++) {
    pqt_statistics *st = &rg->columns.items[c].meta_data.statistics;
    st->isset &= ~PQT_FIELD_MASK(statistics, max_value, min_value, is_max_value_exact, is_min_value_exact);
    st->isset |= PQT_FIELD_MASK(statistics, max, min);
  }
  rg->columns.items[0].meta_data.statistics.min = bytes_of(wrong_min, 3);
  rg->columns.items[0].meta_data.statistics.max = bytes_of(wrong_max, 3);
  rg->columns.items[1].meta_data.statistics.min = bytes_of((const char *)&i_min, 4);
  rg->columns.items[1].meta_data.statistics.max = bytes_of((const char *)&i_max, 4);
  rg->columns.items[2].meta_data.statistics.min = bytes_of((const char *)&u_smin, 4);
  rg->columns.items[2].meta_data.statistics.max = bytes_of((const char *)&u_smax, 4);
  static const char mr[] = "parquet-mr version 1.7.0 (build 0)";
  ft.md.created_by = bytes_of(mr, strlen(mr));
  ft.md.isset &= ~PQT_FIELD_MASK(file_metadata, column_orders); /* parquet-mr 1.7 wrote no column_orders */
  pqt_buf f;
  CHECK(assemble((const uint8_t *)base.data, ft.start, &ft.md, &f));
  pqt_reader *r = open_buf(f.data, f.len);
  if (r) {
    CHECK_EQ_STR(pqt_reader_created_by(r), mr);
    pqt_string sum = {0};
    CHECK_OK(pqt_reader_metadata_summary(r, &sum, NULL));
    CHECK_MSG(!contains(sum.data, "zzz") && !contains(sum.data, "aaa"), "%s", sum.data);
    CHECK_MSG(contains(sum.data, "min: -5, max: 7 (legacy)"), "%s", sum.data);
    CHECK_MSG(!contains(sum.data, "4294967295"), "%s", sum.data);
    /* s and u: present but ignored */
    int ignored = 0;
    for (const char *q = sum.data; q && (q = strstr(q, "(legacy, ignored for this sort order)")); q++) ignored++;
    CHECK_EQ_INT(ignored, 2);
    pqt_string_free(&sum);
    pqt_reader_close(r);
  }
  int64_t problems;
  char *vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "(verify failed)");
  free(vt);
  pqt_buf_free(&f);
  footer_free(&ft);
  pqt_string_free(&base);
}

/* Page header statistics with only the legacy fields (PARQUET-251's
 * parquet-mr wrote them for binary columns, in signed byte order): the
 * page listing must not present them as the page's bounds. */
static void test_legacy_page_stats_of_binary_not_shown(void) {
  const char *text = "aaaamid";
  int32_t offs[] = {0, 4, 7};
  pqt_string base;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.dictionary = 0;
  CHECK(write_one("message m { required binary s (STRING); }", &o, 2, NULL, NULL, text, offs, 2, &base));
  /* one PLAIN page: 4-byte lengths then bytes */
  pqt_buf body;
  pqt_buf_init(&body, NULL);
  for (int i = 0; i < 2; i++) {
    uint8_t l[4];
    pqt_store_u32le(l, (uint32_t)(offs[i + 1] - offs[i]));
    CHECK_OK(pqt_buf_append(&body, l, 4, NULL));
    CHECK_OK(pqt_buf_append(&body, text + offs[i], (size_t)(offs[i + 1] - offs[i]), NULL));
  }
  pqt_page_header h = v1_header(2, PQT_ENC_PLAIN, PQT_ENC_RLE, body.len, body.len);
  pqt_statistics *st = &h.data_page_header.statistics;
  st->min = bytes_of("\xc3\xa9", 2); /* signed order: 0xC3 sorts below 'a' */
  st->max = bytes_of("mid", 3);
  st->isset = PQT_FIELD_MASK(statistics, max, min);
  PQT_SET_FIELD(&h.data_page_header, data_page_header, statistics);
  pqt_buf pages, f;
  pqt_buf_init(&pages, NULL);
  put_page(&pages, &h, body.data, body.len);
  CHECK(splice_pages(&base, pages.data, pages.len, 2, 0, &f));
  char *rows = cat(f.data, f.len);
  CHECK(rows && strcmp(rows, "{\"s\":\"aaaa\"}\n{\"s\":\"mid\"}\n") == 0);
  free(rows);
  pqt_reader *r = open_buf(f.data, f.len);
  if (r) {
    pqt_test_text t = {0};
    CHECK_OK(pqt_reader_describe_pages(r, NULL, pqt_test_collect, &t, NULL));
    CHECK_MSG(t.p && !contains(t.p, "min: \"\xc3\xa9\"") &&
                  contains(t.p, "stats=[min/max: (legacy, ignored for this sort order)]"),
              "%s", t.p ? t.p : "");
    free(t.p);
    pqt_reader_close(r);
  }
  pqt_buf_free(&f);
  pqt_buf_free(&pages);
  pqt_buf_free(&body);
  pqt_string_free(&base);
}

/* min_value/max_value have a meaning only under column_orders (parquet.thrift:
 * without it "the meaning of the min_value and max_value fields ... is
 * undefined"): verify judges them against the data only when the file
 * says which order they follow. */
static void test_min_value_needs_column_orders(void) {
  int32_t v[] = {3, 9, 4};
  pqt_string base;
  CHECK(write_one("message m { required int32 a; }", NULL, 3, NULL, NULL, v, NULL, 3, &base));
  footer ft;
  CHECK(footer_decode(base.data, base.len, &ft));
  pqt_statistics *st = &ft.md.row_groups.items[0].columns.items[0].meta_data.statistics;
  static int32_t high_min = 5;
  st->min_value = bytes_of((const char *)&high_min, 4); /* above the smallest value, 3 */
  st->isset &= ~PQT_FIELD_MASK(statistics, min);        /* no legacy min either */
  for (int with_orders = 1; with_orders >= 0; with_orders--) {
    if (!with_orders) ft.md.isset &= ~PQT_FIELD_MASK(file_metadata, column_orders);
    pqt_buf f;
    CHECK(assemble((const uint8_t *)base.data, ft.start, &ft.md, &f));
    int64_t problems = -1;
    char *vt = verify_text(f.data, f.len, &problems);
    if (with_orders)
      CHECK_MSG(problems == 1 && contains(vt, "statistics min_value is above the smallest value"), "%s", vt);
    else CHECK_MSG(problems == 0, "without column_orders: %s", vt);
    free(vt);
    pqt_buf_free(&f);
  }
  footer_free(&ft);
  pqt_string_free(&base);
}

/* ---- 6. float statistics ------------------------------------------------ */

static double dbl_of(pqt_bytes b) {
  double d = 0;
  if (b.len == 8) memcpy(&d, b.ptr, 8);
  return d;
}

/* Chunk statistics and the column index of DOUBLE columns written with
 * NaNs and zeros: NaN never a bound (counted in nan_count), a zero min
 * written as -0.0 and a zero max as +0.0, a NaN-only page leaves no
 * malformed (empty) bound in the column index, and verify accepts the file. */
static void test_float_statistics_written(void) {
  const char *schema = "message m { required double d; required double z; required double n; }";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 4;
  o.defaults.dictionary = 0;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &o, NULL));
  if (!w) return;
  /* d: page 0 [NaN, -0, 2.5, NaN], page 1 [NaN x 4] */
  double d[8] = {NAN, -0.0, 2.5, NAN, NAN, NAN, NAN, NAN};
  double z[8] = {0.0, 0.0, -0.0, 0.0, 1, 2, 3, 4};
  double n[8] = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  CHECK_OK(pqt_writer_write_column(w, 0, 8, NULL, NULL, d, NULL, 8, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 8, NULL, NULL, z, NULL, 8, NULL));
  CHECK_OK(pqt_writer_write_column(w, 2, 8, NULL, NULL, n, NULL, 8, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(file.data, file.len, &ft));
  const pqt_row_group *rg = &ft.md.row_groups.items[0];
  const pqt_statistics *sd = &rg->columns.items[0].meta_data.statistics;
  CHECK(PQT_HAS_FIELD(sd, statistics, max_value) && PQT_HAS_FIELD(sd, statistics, min_value) &&
        PQT_HAS_FIELD(sd, statistics, nan_count));
  CHECK(dbl_of(sd->min_value) == 0 && signbit(dbl_of(sd->min_value)) && dbl_of(sd->max_value) == 2.5);
  CHECK_EQ_INT(sd->nan_count, 6);
  const pqt_statistics *sz = &rg->columns.items[1].meta_data.statistics;
  CHECK(signbit(dbl_of(sz->min_value)) && dbl_of(sz->min_value) == 0 && dbl_of(sz->max_value) == 4);
  const pqt_statistics *sn = &rg->columns.items[2].meta_data.statistics;
  CHECK(!PQT_HAS_FIELD(sn, statistics, max_value) && !PQT_HAS_FIELD(sn, statistics, min_value) &&
        !PQT_HAS_FIELD(sn, statistics, max) && !PQT_HAS_FIELD(sn, statistics, min));
  CHECK(PQT_HAS_FIELD(sn, statistics, nan_count) && sn->nan_count == 8);
  /* column index: page 0 of z holds only zeros: [-0, +0] */
  const pqt_column_chunk *cz = &rg->columns.items[1];
  pqt_arena ar;
  pqt_arena_init(&ar, NULL);
  pqt_column_index ci;
  CHECK(PQT_HAS_FIELD(cz, column_chunk, column_index_offset));
  if (PQT_HAS_FIELD(cz, column_chunk, column_index_offset)) {
    CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)file.data + cz->column_index_offset,
                               (size_t)cz->column_index_length, NULL, &ar, &ci, NULL));
    CHECK(ci.min_values.n == 2 && signbit(dbl_of(ci.min_values.items[0])) && dbl_of(ci.min_values.items[0]) == 0);
    CHECK(ci.max_values.n == 2 && !signbit(dbl_of(ci.max_values.items[0])) && dbl_of(ci.max_values.items[0]) == 0);
  }
  /* d and n have pages of only NaN: any column index written for them has
   * well-formed 8-byte bounds that are not NaN on non-null pages */
  for (int c = 0; c < 3; c += 2) {
    const pqt_column_chunk *cc = &rg->columns.items[c];
    if (!PQT_HAS_FIELD(cc, column_chunk, column_index_offset)) continue;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)file.data + cc->column_index_offset,
                               (size_t)cc->column_index_length, NULL, &ar, &ci, NULL));
    for (int32_t i = 0; i < ci.null_pages.n && i < ci.min_values.n && i < ci.max_values.n; i++) {
      if (ci.null_pages.items[i]) continue;
      CHECK_MSG(ci.min_values.items[i].len == 8 && ci.max_values.items[i].len == 8,
                "column %d page %d: bounds of %lld/%lld bytes", c, i, (long long)ci.min_values.items[i].len,
                (long long)ci.max_values.items[i].len);
      CHECK(!isnan(dbl_of(ci.min_values.items[i])) && !isnan(dbl_of(ci.max_values.items[i])));
    }
  }
  pqt_arena_reset(&ar);
  int64_t problems = -1;
  char *vt = verify_text(file.data, file.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "(verify failed)");
  free(vt);
  /* a min of +0 in another writer's file may stand for -0 in the data */
  footer ft2;
  CHECK(footer_decode(file.data, file.len, &ft2));
  static const double pz = 0.0;
  ft2.md.row_groups.items[0].columns.items[1].meta_data.statistics.min_value = bytes_of((const char *)&pz, 8);
  pqt_buf f;
  CHECK(assemble((const uint8_t *)file.data, ft2.start, &ft2.md, &f));
  vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "(verify failed)");
  free(vt);
  pqt_buf_free(&f);
  footer_free(&ft2);
  footer_free(&ft);
  pqt_string_free(&file);
}

/* ---- 7. unsigned, decimal and INT96 statistics written ----------------- */

static void test_unsigned_decimal_int96_statistics_written(void) {
  const char *schema =
      "message m { required int64 u (INTEGER(64,false)); required fixed_len_byte_array(4) d (DECIMAL(9,2)); "
      "required int96 t; }";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  uint64_t u[] = {5, UINT64_MAX, 1};
  /* big-endian two's complement: 1, -2, 256 */
  const uint8_t d[] = {0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 1, 0};
  uint8_t t[36] = {0};
  for (int i = 0; i < 3; i++) pqt_store_u32le(t + 12 * i + 8, 2440588u + (uint32_t)i);
  CHECK_OK(pqt_writer_write_column(w, 0, 3, NULL, NULL, u, NULL, 3, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 3, NULL, NULL, d, NULL, 3, NULL));
  CHECK_OK(pqt_writer_write_column(w, 2, 3, NULL, NULL, t, NULL, 3, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(file.data, file.len, &ft));
  const pqt_row_group *rg = &ft.md.row_groups.items[0];
  const pqt_statistics *su = &rg->columns.items[0].meta_data.statistics;
  uint64_t mn = 0, mx = 0;
  CHECK(su->min_value.len == 8 && su->max_value.len == 8);
  if (su->min_value.len == 8) memcpy(&mn, su->min_value.ptr, 8);
  if (su->max_value.len == 8) memcpy(&mx, su->max_value.ptr, 8);
  CHECK(mn == 1 && mx == UINT64_MAX);
  CHECK(!PQT_HAS_FIELD(su, statistics, max) && !PQT_HAS_FIELD(su, statistics, min)); /* no signed legacy copy */
  const pqt_statistics *sdec = &rg->columns.items[1].meta_data.statistics;
  CHECK(sdec->min_value.len == 4 && memcmp(sdec->min_value.ptr, d + 4, 4) == 0);
  CHECK(sdec->max_value.len == 4 && memcmp(sdec->max_value.ptr, d + 8, 4) == 0);
  CHECK(!PQT_HAS_FIELD(sdec, statistics, max) && !PQT_HAS_FIELD(sdec, statistics, min));
  const pqt_statistics *st = &rg->columns.items[2].meta_data.statistics;
  CHECK(!PQT_HAS_FIELD(st, statistics, max_value) && !PQT_HAS_FIELD(st, statistics, min_value) &&
        !PQT_HAS_FIELD(st, statistics, max) && !PQT_HAS_FIELD(st, statistics, min));
  CHECK(
      !PQT_HAS_FIELD(&rg->columns.items[2], column_chunk, column_index_offset)); /* no column index without an order */
  /* column_orders: TYPE_ORDER for the ordered columns */
  CHECK(ft.md.column_orders.n == 3 && ft.md.column_orders.items[0].isset == (1u << PQT_ORDER_TYPE));
  footer_free(&ft);
  pqt_string_free(&file);
}

/* ---- 8. legacy LIST/MAP read, 3-level written --------------------------- */

/* Files with the legacy shapes (2-level list, Spark's bag/array, a
 * <name>_tuple group, MAP_KEY_VALUE) read as lists and maps, and a file
 * written "like" them uses only the standard 3-level shapes. */
static void test_legacy_lists_rewritten_three_level(void) {
  const char *legacy =
      "message spark_schema {\n"
      "  optional group two (LIST) {\n"
      "    repeated int32 array;\n"
      "  }\n"
      "  optional group spark (LIST) {\n"
      "    repeated group bag {\n"
      "      optional int32 array;\n"
      "    }\n"
      "  }\n"
      "  optional group tup (LIST) {\n"
      "    repeated group tup_tuple {\n"
      "      required int32 x;\n"
      "    }\n"
      "  }\n"
      "  optional group mkv (MAP) {\n"
      "    repeated group map (MAP_KEY_VALUE) {\n"
      "      required binary key (STRING);\n"
      "      optional int32 value;\n"
      "    }\n"
      "  }\n"
      "}\n";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = legacy};
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_writer_open_buffer(&w, &file, &ws, NULL, &e) == PQT_OK, "%s", e.message);
  if (!w) return;
  /* one row: two [1, 2], spark [3, null], tup [{x: 4}], mkv {"k": 5} */
  int16_t d0[] = {2, 2}, r0[] = {0, 1};
  int32_t v0[] = {1, 2};
  int16_t d1[] = {3, 2}, r1[] = {0, 1};
  int32_t v1[] = {3};
  int16_t d2[] = {2}, r2[] = {0};
  int32_t v2[] = {4};
  int16_t d3[] = {2}, r3[] = {0};
  int32_t ko[] = {0, 1};
  int16_t d4[] = {3}, r4[] = {0};
  int32_t v4[] = {5};
  CHECK_OK(pqt_writer_write_column(w, 0, 2, d0, r0, v0, NULL, 2, &e));
  CHECK_OK(pqt_writer_write_column(w, 1, 2, d1, r1, v1, NULL, 1, &e));
  CHECK_OK(pqt_writer_write_column(w, 2, 1, d2, r2, v2, NULL, 1, &e));
  CHECK_OK(pqt_writer_write_column(w, 3, 1, d3, r3, "k", ko, 1, &e));
  CHECK_OK(pqt_writer_write_column(w, 4, 1, d4, r4, v4, NULL, 1, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  const char *want = "{\"two\":[1,2],\"spark\":[3,null],\"tup\":[{\"x\":4}],\"mkv\":[{\"key\":\"k\",\"value\":5}]}\n";
  char *rows = cat(file.data, file.len);
  CHECK_MSG(rows && strcmp(rows, want) == 0, "%s", rows ? rows : "");
  free(rows);
  /* rewrite like it, through Arrow batches */
  pqt_reader *r = open_buf(file.data, file.len);
  if (r) {
    pqt_string out = {0};
    pqt_write_schema like = {.struct_size = sizeof(pqt_write_schema), .like = r};
    pqt_writer *w2 = NULL;
    CHECK_MSG(pqt_writer_open_buffer(&w2, &out, &like, NULL, &e) == PQT_OK, "%s", e.message);
    if (w2) {
      struct ArrowArrayStream s;
      CHECK_OK(pqt_reader_get_stream(r, NULL, &s, &e));
      struct ArrowArray b;
      while (s.get_next(&s, &b) == 0 && b.release) {
        CHECK_MSG(pqt_writer_write_batch(w2, &b, &e) == PQT_OK, "%s", e.message);
        b.release(&b);
      }
      s.release(&s);
      CHECK_OK(pqt_writer_close(w2, &e));
      pqt_reader *rr = open_buf(out.data, out.len);
      if (rr) {
        pqt_string st = {0};
        CHECK_OK(pqt_reader_schema_text(rr, &st, NULL));
        const char *want_schema =
            "message spark_schema {\n"
            "  optional group two (LIST) {\n"
            "    repeated group list {\n"
            "      required int32 element;\n"
            "    }\n"
            "  }\n"
            "  optional group spark (LIST) {\n"
            "    repeated group list {\n"
            "      optional int32 element;\n"
            "    }\n"
            "  }\n"
            "  optional group tup (LIST) {\n"
            "    repeated group list {\n"
            "      required group element {\n"
            "        required int32 x;\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "  optional group mkv (MAP) {\n"
            "    repeated group key_value {\n"
            "      required binary key (STRING);\n"
            "      optional int32 value;\n"
            "    }\n"
            "  }\n"
            "}\n";
        CHECK_MSG(st.data && strcmp(st.data, want_schema) == 0, "%s", st.data ? st.data : "");
        pqt_string_free(&st);
        pqt_reader_close(rr);
      }
      char *rows2 = cat(out.data, out.len);
      CHECK_MSG(rows2 && strcmp(rows2, want) == 0, "%s", rows2 ? rows2 : "");
      free(rows2);
    }
    pqt_string_free(&out);
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
}

/* ---- 9. duplicate map keys ---------------------------------------------- */

/* Policy: map entries are kept as stored, in file order, duplicates
 * included (as Arrow does); neither reader nor writer deduplicates. */
static void test_map_duplicate_keys_kept(void) {
  const char *schema =
      "message m { required group mp (MAP) { repeated group key_value { required binary key (STRING); "
      "optional int32 value; } } }";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  int16_t kd[] = {1, 1, 1}, kr[] = {0, 1, 1};
  int32_t ko[] = {0, 1, 2, 3};
  int16_t vd[] = {2, 2, 1}, vr[] = {0, 1, 1};
  int32_t vv[] = {1, 2};
  CHECK_OK(pqt_writer_write_column(w, 0, 3, kd, kr, "aba", ko, 3, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 3, vd, vr, vv, NULL, 2, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  char *rows = cat(file.data, file.len);
  CHECK_MSG(rows && strcmp(rows,
                           "{\"mp\":[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":2},"
                           "{\"key\":\"a\",\"value\":null}]}\n") == 0,
            "%s", rows ? rows : "");
  free(rows);
  /* the Arrow map keeps all three entries */
  pqt_reader *r = open_buf(file.data, file.len);
  if (r) {
    struct ArrowArrayStream s;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &s, NULL));
    struct ArrowArray b;
    CHECK(s.get_next(&s, &b) == 0 && b.release);
    if (b.release) {
      CHECK(b.n_children == 1 && b.children[0]->length == 1);
      const struct ArrowArray *m = b.children[0];
      CHECK(m->n_children == 1 && m->children[0]->length == 3);
      b.release(&b);
    }
    s.release(&s);
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
}

/* ---- 10. INT96 layout and output choices -------------------------------- */

/* INT96 = 8 bytes nanoseconds of the day, then a 4-byte Julian day, both
 * little-endian. timestamp[ns] by default; int96_as_fixed gives the stored
 * bytes; the text form is exact where ns would overflow (year 0001), and
 * Spark's wrapped values for extreme years read as the year Spark meant. */
static void test_int96_layout(void) {
  uint8_t t[24];
  pqt_store_u64le(t, 3723000000123ULL); /* 01:02:03.000000123 */
  pqt_store_u32le(t + 8, 2440589);      /* 1970-01-02 */
  pqt_store_u64le(t + 12, 0);
  pqt_store_u32le(t + 20, 1721426); /* 0001-01-01 */
  pqt_string file;
  CHECK(write_one("message m { required int96 t; }", NULL, 2, NULL, NULL, t, NULL, 2, &file));
  char *rows = cat(file.data, file.len);
  CHECK_MSG(
      rows &&
          strcmp(rows, "{\"t\":\"1970-01-02T01:02:03.000000123\"}\n{\"t\":\"0001-01-01T00:00:00.000000000\"}\n") == 0,
      "%s", rows ? rows : "");
  free(rows);
  for (int raw = 0; raw < 2; raw++) {
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.int96_as_fixed = raw;
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, &ro, NULL));
    if (!r) continue;
    struct ArrowArrayStream s;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &s, NULL));
    struct ArrowSchema sc;
    CHECK(s.get_schema(&s, &sc) == 0);
    CHECK_EQ_STR(sc.children[0]->format, raw ? "w:12" : "tsn:");
    sc.release(&sc);
    struct ArrowArray b;
    if (raw) {
      CHECK(s.get_next(&s, &b) == 0 && b.release);
      if (b.release) {
        CHECK(memcmp(b.children[0]->buffers[1], t, 24) == 0);
        b.release(&b);
      }
    } else { /* year 0001 does not fit int64 nanoseconds: the read fails, naming it */
      CHECK(s.get_next(&s, &b) == ERANGE && !b.release);
      const char *m = s.get_last_error(&s);
      CHECK_MSG(contains(m, "row group 0") && contains(m, "column t") && contains(m, "value 1 of the batch"), "%s",
                m ? m : "");
    }
    s.release(&s);
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
  /* Spark: julian and nanos from wrapping int64 microseconds arithmetic */
  if (pqt_testing_dir()) {
    char path[1024];
    snprintf(path, sizeof path, "%s/data/int96_from_spark.parquet", pqt_testing_dir());
    size_t n = 0;
    unsigned char *f = pqt_test_read_file(path, &n);
    char *all = f ? cat(f, n) : NULL;
    CHECK_MSG(contains(all, "{\"a\":\"290000-12-30T23:00:00.000000000\"}\n") &&
                  contains(all, "{\"a\":\"9999-12-31T03:00:00.000000000\"}\n"),
              "%s", all ? all : "(unread)");
    free(all);
    free(f);
  }
}

/* INT96 bytes of an exact nanosecond count (may lie beyond int64). */
static void int96_of(__int128 ns, uint8_t *out) {
  const __int128 day_ns = (__int128)86400 * 1000000000;
  __int128 day = ns / day_ns, rem = ns % day_ns;
  if (rem < 0) {
    rem += day_ns;
    day--;
  }
  pqt_store_u64le(out, (uint64_t)rem);
  pqt_store_u32le(out + 8, (uint32_t)(int32_t)(day + 2440588));
}

/* Read the single INT96 of file through the stream in unit u: 0 and *v, or
 * the errno of get_next (the message in msg). */
static int int96_stream_one(const pqt_string *file, int32_t u, int64_t *v, char *msg, size_t msg_n) {
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.int96_unit = u;
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file->data, file->len, &ro, NULL));
  if (!r) return -1;
  struct ArrowArrayStream s;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &s, NULL));
  struct ArrowArray b;
  int rc = s.get_next(&s, &b);
  msg[0] = '\0';
  if (rc == 0 && b.release) {
    *v = ((const int64_t *)b.children[0]->buffers[1])[0];
    b.release(&b);
  } else if (rc != 0) snprintf(msg, msg_n, "%s", s.get_last_error(&s) ? s.get_last_error(&s) : "");
  s.release(&s);
  pqt_reader_close(r);
  return rc;
}

/* INT96 to timestamp: the exact ends of the int64 range of ns and us read,
 * one beyond (ns) fails with ERANGE naming row group, column and value; digits
 * below the unit fail too (never truncated). The Spark file fails in ns and
 * reads in us as the dates the text output prints. */
static void test_int96_range(void) {
  static const int64_t per[] = {1, 1000, 1000000, 1000000000};
  for (int32_t u = PQT_INT96_NANOS; u <= PQT_INT96_SECONDS; u++) {
    const __int128 cases[] = {(__int128)INT64_MAX * per[u], (__int128)INT64_MIN * per[u],
                              ((__int128)INT64_MAX + 1) * per[u], ((__int128)INT64_MIN - 1) * per[u], per[u] + 1};
    for (int k = 0; k < 5; k++) {
      if (u == 0 && k == 4) continue; /* every ns count is whole */
      /* beyond int64 microseconds an INT96 is read as Spark's wrapped value
       * (pqt_int96_split, as the text output): us reads its ends, ms and s
       * are tested for digits below the unit and a whole value */
      if (u == 1 && (k == 2 || k == 3)) continue;
      if (u >= 2 && k < 4) {
        if (k > 0) continue;
        uint8_t w[12];
        int96_of((__int128)-123 * per[u], w);
        pqt_string wf;
        CHECK(write_one("message m { required int96 t; }", NULL, 1, NULL, NULL, w, NULL, 1, &wf));
        int64_t wv = 0;
        char wm[600];
        CHECK(int96_stream_one(&wf, u, &wv, wm, sizeof wm) == 0 && wv == -123);
        pqt_string_free(&wf);
        continue;
      }
      uint8_t t[12];
      int96_of(cases[k], t);
      pqt_string file;
      CHECK(write_one("message m { required int96 t; }", NULL, 1, NULL, NULL, t, NULL, 1, &file));
      int64_t v = 0;
      char msg[600];
      int rc = int96_stream_one(&file, u, &v, msg, sizeof msg);
      if (k < 2) {
        CHECK_MSG(rc == 0, "unit %d case %d: %s", (int)u, k, msg);
        CHECK(v == (k == 0 ? INT64_MAX : INT64_MIN));
      } else {
        CHECK_MSG(rc == ERANGE && contains(msg, "row group 0") && contains(msg, "column t") &&
                      contains(msg, "value 0 of the batch") && contains(msg, k == 4 ? "digits below" : "does not fit"),
                  "unit %d case %d: rc %d %s", (int)u, k, rc, msg);
      }
      pqt_string_free(&file);
    }
  }
  pqt_read_options bad;
  pqt_read_options_init(&bad);
  bad.int96_unit = 4;
  pqt_reader *r = NULL;
  pqt_error e;
  static const uint8_t junk[8] = {0};
  CHECK(pqt_reader_open_buffer(&r, junk, sizeof junk, &bad, &e) == PQT_EINVAL && !r);
  CHECK_EQ_STR(pqt_status_name(PQT_ERANGE), "PQT_ERANGE");

  if (!pqt_testing_dir()) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/data/int96_from_spark.parquet", pqt_testing_dir());
  size_t n = 0;
  unsigned char *f = pqt_test_read_file(path, &n);
  CHECK(f != NULL);
  if (!f) return;
  for (int32_t u = PQT_INT96_NANOS; u <= PQT_INT96_MICROS; u++) {
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.int96_unit = u;
    CHECK_OK(pqt_reader_open_buffer(&r, f, n, &ro, NULL));
    if (!r) continue;
    struct ArrowArrayStream s;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &s, NULL));
    struct ArrowArray b;
    int64_t got[6];
    int n_got = 0, rc;
    bool null_seen = false;
    while ((rc = s.get_next(&s, &b)) == 0 && b.release) {
      const struct ArrowArray *c = b.children[0];
      const uint8_t *valid = c->null_count ? c->buffers[0] : NULL;
      for (int64_t i = 0; i < c->length; i++) {
        int64_t j = c->offset + i;
        if (valid && !(valid[j / 8] >> (j % 8) & 1)) null_seen = true;
        else if (n_got < 6) got[n_got++] = ((const int64_t *)c->buffers[1])[j];
      }
      b.release(&b);
    }
    if (u == PQT_INT96_NANOS) {
      const char *m = s.get_last_error(&s);
      CHECK_MSG(rc == ERANGE && contains(m, "column a") && contains(m, "row group 0") && contains(m, "value 2"), "%d %s",
                rc, m ? m : "");
    } else {
      /* as cat prints: 2024-01-01T20:34:56.123456, 2024-01-01T01:00, 9999-12-31T03:00,
       * 2024-12-30T23:00, null, 290000-12-30T23:00 */
      const int64_t day = 86400000000LL, hour = 3600000000LL;
      const int64_t want[5] = {19723 * day + 20 * hour + 34 * 60000000LL + 56123456LL, 19723 * day + hour,
                               2932896 * day + 3 * hour, (19723 + 364) * day + 23 * hour, 105201161 * day + 23 * hour};
      CHECK_MSG(rc == 0 && n_got == 5 && null_seen, "rc %d n %d", rc, n_got);
      for (int i = 0; i < 5 && i < n_got; i++) CHECK_MSG(got[i] == want[i], "%d: %lld", i, (long long)got[i]);
    }
    s.release(&s);
    pqt_reader_close(r);
  }
  free(f);
}

/* INT32 annotated as an 8- or 16-bit integer: a stored value outside that
 * range fails the Arrow read naming column and value (never wrapped to int8). */
static void test_small_int_range(void) {
  const struct {
    const char *schema;
    int32_t v[2];
    bool ok;
  } cases[] = {
      {"message m { required int32 b (INTEGER(8,true)); }", {-128, 127}, true},
      {"message m { required int32 b (INTEGER(8,true)); }", {127, 300}, false},
      {"message m { required int32 b (INTEGER(16,false)); }", {0, 65535}, true},
      {"message m { required int32 b (INTEGER(16,false)); }", {0, -1}, false},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    pqt_string file;
    CHECK(write_one(cases[c].schema, NULL, 2, NULL, NULL, cases[c].v, NULL, 2, &file));
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
    if (r) {
      struct ArrowArrayStream s;
      CHECK_OK(pqt_reader_get_stream(r, NULL, &s, NULL));
      struct ArrowArray b;
      int rc = s.get_next(&s, &b);
      if (cases[c].ok) {
        CHECK(rc == 0 && b.release);
        if (rc == 0 && b.release) {
          const void *d = b.children[0]->buffers[1];
          if (c == 0) CHECK(((const int8_t *)d)[0] == -128 && ((const int8_t *)d)[1] == 127);
          else CHECK(((const uint16_t *)d)[1] == 65535);
          b.release(&b);
        }
      } else {
        const char *m = s.get_last_error(&s);
        CHECK_MSG(rc == ERANGE && contains(m, "column b") && contains(m, "value 1 of the batch") &&
                      contains(m, c == 1 ? "is 300" : "is -1"),
                  "%d %s", rc, m ? m : "");
      }
      s.release(&s);
      pqt_reader_close(r);
    }
    pqt_string_free(&file);
  }
}

/* ---- 11. timestamps and logical types ----------------------------------- */

static const pqt_schema_element *find_elem(const pqt_file_metadata *md, const char *name) {
  for (int32_t i = 0; i < md->schema.n; i++) {
    const pqt_schema_element *e = &md->schema.items[i];
    if ((size_t)e->name.len == strlen(name) && memcmp(e->name.ptr, name, (size_t)e->name.len) == 0) return e;
  }
  return NULL;
}

static void pf_noop_release(struct ArrowArray *a) { a->release = NULL; }

/* Every LogicalType with a ConvertedType equivalent is written with both;
 * TIMESTAMP(NANOS) has none. PQT_COMPAT_SPARK_MICROS coerces nanosecond
 * timestamps to microseconds and unsigned 64-bit to signed. */
static void test_converted_types_and_timestamp_coercion(void) {
  const char *schema =
      "message m {\n"
      "  required int64 a (TIMESTAMP(MILLIS,true));\n"
      "  required int64 b (TIMESTAMP(MICROS,true));\n"
      "  required int64 c (TIMESTAMP(NANOS,true));\n"
      "  required int32 d (DATE);\n"
      "  required int64 u (INTEGER(64,false));\n"
      "  required binary s (STRING);\n"
      "  required int32 dec (DECIMAL(9,3));\n"
      "}\n";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  struct ArrowSchema as;
  CHECK_OK(pqt_writer_arrow_schema(w, &as, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(file.data, file.len, &ft));
  static const struct {
    const char *name;
    int32_t ct;
  } want[] = {{"a", PQT_CT_TIMESTAMP_MILLIS},
              {"b", PQT_CT_TIMESTAMP_MICROS},
              {"c", -1},
              {"d", PQT_CT_DATE},
              {"u", PQT_CT_UINT_64},
              {"s", PQT_CT_UTF8},
              {"dec", PQT_CT_DECIMAL}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const pqt_schema_element *e = find_elem(&ft.md, want[i].name);
    CHECK(e && PQT_HAS_FIELD(e, schema_element, logical_type));
    if (!e) continue;
    if (want[i].ct < 0) CHECK_MSG(!PQT_HAS_FIELD(e, schema_element, converted_type), "%s", want[i].name);
    else
      CHECK_MSG(PQT_HAS_FIELD(e, schema_element, converted_type) && e->converted_type == want[i].ct,
                "%s: converted type %d", want[i].name,
                PQT_HAS_FIELD(e, schema_element, converted_type) ? e->converted_type : -1);
  }
  const pqt_schema_element *dec = find_elem(&ft.md, "dec");
  CHECK(dec && PQT_HAS_FIELD(dec, schema_element, scale) && PQT_HAS_FIELD(dec, schema_element, precision) &&
        dec->scale == 3 && dec->precision == 9);
  footer_free(&ft);
  pqt_string_free(&file);
  /* Spark-compatible: ns timestamps become MICROS (values divided), uint64 int64 */
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.compat = PQT_COMPAT_SPARK_MICROS;
  pqt_write_schema ws2 = {.struct_size = sizeof(pqt_write_schema), .arrow = &as};
  pqt_string f2 = {0};
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_writer_open_buffer(&w, &f2, &ws2, &o, &e) == PQT_OK, "%s", e.message);
  if (w) {
    /* one row through Arrow: c = 1 second + 1500 ns */
    int64_t a = 1, b = 2, c = 1000001500, u = 7;
    int32_t dd = 3;
    uint8_t dc[16] = {4}; /* decimal128: 16 bytes little-endian */
    int32_t so[] = {0, 1};
    const void *vb[7][3] = {{NULL, &a}, {NULL, &b}, {NULL, &c}, {NULL, &dd}, {NULL, &u}, {NULL, so, "x"}, {NULL, dc}};
    struct ArrowArray kids[7], *kp[7];
    void (*noop)(struct ArrowArray *) = pf_noop_release;
    for (int i = 0; i < 7; i++) {
      memset(&kids[i], 0, sizeof kids[i]);
      kids[i].length = 1;
      kids[i].n_buffers = i == 5 ? 3 : 2;
      kids[i].buffers = vb[i];
      kids[i].release = noop;
      kp[i] = &kids[i];
    }
    const void *top_bufs[1] = {NULL};
    struct ArrowArray top;
    memset(&top, 0, sizeof top);
    top.length = 1;
    top.n_buffers = 1;
    top.buffers = top_bufs;
    top.n_children = 7;
    top.children = kp;
    top.release = noop;
    CHECK_MSG(pqt_writer_write_batch(w, &top, &e) == PQT_OK, "%s", e.message);
    CHECK_MSG(pqt_writer_close(w, &e) == PQT_OK, "%s", e.message);
    pqt_reader *r = open_buf(f2.data, f2.len);
    if (r) {
      pqt_string st = {0};
      CHECK_OK(pqt_reader_schema_text(r, &st, NULL));
      CHECK_MSG(
          contains(st.data, "required int64 c (TIMESTAMP(MICROS,true));") && contains(st.data, "required int64 u;"),
          "%s", st.data);
      pqt_string_free(&st);
      CHECK_EQ_INT(r->md.schema.items[3].converted_type, PQT_CT_TIMESTAMP_MICROS);
      pqt_reader_close(r);
    }
    char *rows = cat(f2.data, f2.len);
    CHECK_MSG(contains(rows, "\"c\":\"1970-01-01T00:00:01.000001Z\""), "%s", rows ? rows : "");
    free(rows);
  }
  pqt_string_free(&f2);
  as.release(&as);
}

/* ---- 12. DELTA_BYTE_ARRAY across pages ---------------------------------- */

/* Two DELTA_BYTE_ARRAY pages of one chunk where the second page's first
 * value shares a prefix with the first page's last value (old parquet-mr
 * v2 files, PARQUET-246): the prefix state carries over. A prefix longer
 * than the previous value is corrupt. */
static void test_delta_byte_array_across_pages_in_a_file(void) {
  const char *vals = "axisaxleaxms";
  int32_t offs[] = {0, 4, 8, 12};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.dictionary = 0;
  pqt_string base;
  CHECK(write_one("message m { required binary s (STRING); }", &o, 3, NULL, NULL, vals, offs, 3, &base));
  for (int bad = 0; bad < 2; bad++) {
    pqt_buf p1, p2, pages, f;
    pqt_buf_init(&p1, NULL);
    pqt_buf_init(&p2, NULL);
    pqt_buf_init(&pages, NULL);
    CHECK_OK(pqt_delta_byte_array_encode(offs, (const uint8_t *)vals, 2, &p1, NULL));
    int32_t pre[1] = {bad ? 5 : 2}, suf[1] = {2};
    CHECK_OK(pqt_delta_bp_encode_i32(pre, 1, &p2, NULL));
    CHECK_OK(pqt_delta_bp_encode_i32(suf, 1, &p2, NULL));
    CHECK_OK(pqt_buf_append(&p2, "ms", 2, NULL));
    pqt_page_header h1 = v1_header(2, PQT_ENC_DELTA_BYTE_ARRAY, PQT_ENC_RLE, p1.len, p1.len);
    pqt_page_header h2 = v1_header(1, PQT_ENC_DELTA_BYTE_ARRAY, PQT_ENC_RLE, p2.len, p2.len);
    put_page(&pages, &h1, p1.data, p1.len);
    put_page(&pages, &h2, p2.data, p2.len);
    CHECK(splice_pages(&base, pages.data, pages.len, 3, 0, &f));
    pqt_status st;
    pqt_error e;
    char *rows = cat_opts(f.data, f.len, NULL, &st, &e);
    if (!bad) {
      CHECK_MSG(rows && strcmp(rows, "{\"s\":\"axis\"}\n{\"s\":\"axle\"}\n{\"s\":\"axms\"}\n") == 0, "%s",
                rows ? rows : e.message);
    } else {
      CHECK_EQ_INT(st, PQT_ECORRUPT);
      CHECK_MSG(contains(e.message, "page 1"), "%s", e.message);
    }
    free(rows);
    pqt_buf_free(&p1);
    pqt_buf_free(&p2);
    pqt_buf_free(&pages);
    pqt_buf_free(&f);
  }
  pqt_string_free(&base);
}

/* ---- 13. data page v2 quirks -------------------------------------------- */

/* v2 pages as other writers make them, in a SNAPPY chunk: num_nulls -1
 * (parquet-java < 1.18), is_compressed absent (means true), an all-null
 * page with a zero-size data section, and is_compressed = false with the
 * values stored raw. num_values counts the nulls; levels are stored
 * uncompressed without a length prefix. */
static void test_v2_page_quirks(void) {
  if (!pqt_codec_is_available(PQT_CODEC_SNAPPY)) return;
  int16_t def[] = {1, 0, 1, 0, 0, 1};
  int32_t dense[] = {1, 3, 6};
  pqt_string base;
  CHECK(write_one("message m { optional int32 x; }", NULL, 6, def, NULL, dense, NULL, 3, &base));
  pqt_codec_ctx *ctx = NULL;
  CHECK_OK(pqt_codec_ctx_create(&ctx, NULL, NULL));
  pqt_buf pages;
  pqt_buf_init(&pages, NULL);
  for (int p = 0; p < 3; p++) {
    static const int from[] = {0, 3, 5}, to[] = {3, 5, 6};
    pqt_buf lv, raw, comp;
    pqt_buf_init(&lv, NULL);
    pqt_buf_init(&raw, NULL);
    pqt_buf_init(&comp, NULL);
    CHECK_OK(pqt_rle_encode_levels(def + from[p], (size_t)(to[p] - from[p]), 1, &lv, NULL));
    int nn = 0, nulls = 0;
    for (int i = 0; i < from[p]; i++) nn += def[i];
    for (int i = from[p]; i < to[p]; i++) {
      if (def[i]) {
        uint8_t b[4];
        pqt_store_u32le(b, (uint32_t)dense[nn++]);
        CHECK_OK(pqt_buf_append(&raw, b, 4, NULL));
      } else {
        nulls++;
      }
    }
    bool compressed = p != 2;
    if (compressed && raw.len) CHECK_OK(pqt_codec_compress(ctx, PQT_CODEC_SNAPPY, 0, raw.data, raw.len, &comp, NULL));
    else if (raw.len) CHECK_OK(pqt_buf_append(&comp, raw.data, raw.len, NULL));
    pqt_page_header h;
    memset(&h, 0, sizeof h);
    h.type = PQT_PAGE_DATA_V2;
    h.isset = PQT_FIELD_MASK(page_header, type, uncompressed_page_size, compressed_page_size, data_page_header_v2);
    h.uncompressed_page_size = (int32_t)(lv.len + raw.len);
    h.compressed_page_size = (int32_t)(lv.len + comp.len);
    pqt_data_page_header_v2 *d = &h.data_page_header_v2;
    d->num_values = to[p] - from[p];
    d->num_nulls = p == 0 ? -1 : nulls;
    d->num_rows = to[p] - from[p];
    d->encoding = PQT_ENC_PLAIN;
    d->definition_levels_byte_length = (int32_t)lv.len;
    d->repetition_levels_byte_length = 0;
    d->isset = PQT_FIELD_MASK(data_page_header_v2, num_values, num_nulls, num_rows, encoding,
                              definition_levels_byte_length, repetition_levels_byte_length);
    if (p == 2) {
      d->is_compressed = false;
      PQT_SET_FIELD(d, data_page_header_v2, is_compressed);
    }
    CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &h, &pages, NULL));
    CHECK_OK(pqt_buf_append(&pages, lv.data, lv.len, NULL));
    if (comp.len) CHECK_OK(pqt_buf_append(&pages, comp.data, comp.len, NULL));
    if (p == 1) CHECK_EQ_INT(comp.len, 0); /* the all-null page: no data section at all */
    pqt_buf_free(&lv);
    pqt_buf_free(&raw);
    pqt_buf_free(&comp);
  }
  pqt_buf f;
  CHECK(splice_pages(&base, pages.data, pages.len, 6, PQT_CODEC_SNAPPY, &f));
  char *rows = cat(f.data, f.len);
  CHECK_MSG(rows && strcmp(rows, "{\"x\":1}\n{\"x\":null}\n{\"x\":3}\n{\"x\":null}\n{\"x\":null}\n{\"x\":6}\n") == 0,
            "%s", rows ? rows : "");
  free(rows);
  int64_t problems = -1;
  char *vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "(verify failed)");
  free(vt);
  pqt_buf_free(&f);
  pqt_buf_free(&pages);
  pqt_codec_ctx_destroy(ctx);
  pqt_string_free(&base);
}

/* ---- 14. v1 pages: BIT_PACKED levels, RLE with one length prefix -------- */

static void test_v1_bit_packed_and_rle_levels(void) {
  int16_t def[] = {1, 0, 1, 1, 0, 0, 1, 1};
  int32_t dense[] = {7, 9, 10, 11, 12};
  pqt_string base;
  CHECK(write_one("message m { optional int32 x; }", NULL, 8, def, NULL, dense, NULL, 5, &base));
  pqt_buf pages, body;
  pqt_buf_init(&pages, NULL);
  pqt_buf_init(&body, NULL);
  /* page 0: rows 0-4, BIT_PACKED definition levels (MSB first, no prefix) */
  CHECK_OK(pqt_levels_encode_bit_packed(def, 5, 1, &body, NULL));
  CHECK_EQ_INT(body.len, 1);
  CHECK(body.len == 1 && body.data[0] == 0xB0); /* 1 0 1 1 0 -> 10110000 */
  for (int i = 0; i < 3; i++) {
    uint8_t b[4];
    pqt_store_u32le(b, (uint32_t)dense[i]);
    CHECK_OK(pqt_buf_append(&body, b, 4, NULL));
  }
  pqt_page_header h = v1_header(5, PQT_ENC_PLAIN, PQT_ENC_BIT_PACKED, body.len, body.len);
  put_page(&pages, &h, body.data, body.len);
  /* page 1: rows 5-7, RLE definition levels behind one 4-byte length */
  pqt_buf_clear(&body);
  put_v1_levels(&body, def + 5, 3, 1);
  for (int i = 3; i < 5; i++) {
    uint8_t b[4];
    pqt_store_u32le(b, (uint32_t)dense[i]);
    CHECK_OK(pqt_buf_append(&body, b, 4, NULL));
  }
  h = v1_header(3, PQT_ENC_PLAIN, PQT_ENC_RLE, body.len, body.len);
  put_page(&pages, &h, body.data, body.len);
  pqt_buf f;
  CHECK(splice_pages(&base, pages.data, pages.len, 8, 0, &f));
  char *rows = cat(f.data, f.len);
  CHECK_MSG(rows && strcmp(rows,
                           "{\"x\":7}\n{\"x\":null}\n{\"x\":9}\n{\"x\":10}\n{\"x\":null}\n{\"x\":null}\n{\"x\":11}\n"
                           "{\"x\":12}\n") == 0,
            "%s", rows ? rows : "");
  free(rows);
  pqt_buf_free(&f);
  pqt_buf_free(&body);
  pqt_buf_free(&pages);
  pqt_string_free(&base);
}

/* ---- 15. record boundaries ---------------------------------------------- */

/* A file of one optional list<int32> column, written without a page index,
 * whose entries [from[p], to[p]) make v1 page p (PLAIN, RLE levels); page
 * `bad` (-1: none) claims 10 more values than its levels hold. */
static bool list_pages_file(int n, const int16_t *def, const int16_t *rep, const int32_t *v, const int *from,
                            const int *to, int n_pages, int bad, pqt_buf *f) {
  const char *schema = "message m { optional group l (LIST) { repeated group list { optional int32 element; } } }";
  pqt_buf_init(f, NULL);
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_index = 0;
  pqt_string base;
  bool ok = write_one(schema, &o, n, def, rep, v, NULL, n, &base);
  pqt_buf pages, body;
  pqt_buf_init(&pages, NULL);
  pqt_buf_init(&body, NULL);
  for (int p = 0; p < n_pages && ok; p++) {
    pqt_buf_clear(&body);
    put_v1_levels(&body, rep + from[p], (size_t)(to[p] - from[p]), 1);
    put_v1_levels(&body, def + from[p], (size_t)(to[p] - from[p]), 2);
    for (int i = from[p]; i < to[p]; i++) {
      uint8_t b[4];
      pqt_store_u32le(b, (uint32_t)v[i]);
      CHECK_OK(pqt_buf_append(&body, b, 4, NULL));
    }
    int32_t nv = to[p] - from[p] + (p == bad ? 10 : 0);
    pqt_page_header h = v1_header(nv, PQT_ENC_PLAIN, PQT_ENC_RLE, body.len, body.len);
    put_page(&pages, &h, body.data, body.len);
  }
  ok = ok && splice_pages(&base, pages.data, pages.len, n, 0, f);
  pqt_buf_free(&body);
  pqt_buf_free(&pages);
  pqt_string_free(&base);
  return ok;
}

/* A v1 chunk without a page index whose record continues on the next page
 * (page 1 starts at repetition level 1) reads as whole records. */
static void test_record_spanning_v1_pages(void) {
  int16_t def[] = {3, 3, 3, 3, 3}, rep[] = {0, 1, 1, 1, 0};
  int32_t v[] = {1, 2, 3, 4, 5};
  static const int from[] = {0, 2}, to[] = {2, 5};
  pqt_buf f;
  CHECK(list_pages_file(5, def, rep, v, from, to, 2, -1, &f));
  char *rows = cat(f.data, f.len);
  CHECK_MSG(rows && strcmp(rows, "{\"l\":[1,2,3,4]}\n{\"l\":[5]}\n") == 0, "%s", rows ? rows : "");
  free(rows);
  pqt_buf_free(&f);
}

/* Recovery over that shape: the page a record continues into is lost, so
 * the record is lost with it (not kept short), and with no page index the
 * rest of the chunk too (a lost v1 page's records cannot be counted). */
static void test_record_spanning_into_a_lost_page(void) {
  int16_t def[] = {3, 3, 3, 3, 3, 3}, rep[] = {0, 1, 1, 1, 0, 0};
  int32_t v[] = {1, 2, 3, 4, 5, 6};
  static const int from[] = {0, 2, 5}, to[] = {2, 5, 6};
  pqt_buf f;
  CHECK(list_pages_file(6, def, rep, v, from, to, 3, 1, &f)); /* page 1 cannot be read */
  pqt_status st;
  char *rows = cat_opts(f.data, f.len, NULL, &st, NULL);
  CHECK(rows == NULL && st == PQT_ECORRUPT);
  free(rows);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.on_error = PQT_SKIP_CORRUPT;
  /* every record is lost (the first with the page it continues into: kept
   * short it would read [1,2]); nothing is left to vouch for the row count,
   * so the row group is lost */
  rows = cat_opts(f.data, f.len, &ro, &st, NULL);
  CHECK_MSG(st == PQT_OK && rows && strcmp(rows, "") == 0, "%s", rows ? rows : "");
  free(rows);
  pqt_buf_free(&f);
}

/* The writer starts every data page at a record (repetition level 0), v1
 * and v2, even when one record is larger than a page. */
static void test_writer_pages_start_at_records(void) {
  enum { ROWS = 40, PER = 300 };
  static int16_t def[ROWS * PER], rep[ROWS * PER];
  static int32_t v[ROWS * PER];
  for (int i = 0; i < ROWS * PER; i++) {
    def[i] = 3;
    rep[i] = i % PER ? 1 : 0;
    v[i] = i;
  }
  for (int version = 1; version <= 2; version++) {
    pqt_write_options o;
    pqt_write_options_init(&o);
    o.defaults.page_version = version;
    o.defaults.dictionary = 0;
    o.defaults.codec = PQT_CODEC_UNCOMPRESSED;
    o.defaults.page_size = 256; /* far below one record */
    pqt_string f;
    CHECK(write_one("message m { optional group l (LIST) { repeated group list { optional int32 element; } } }", &o,
                    ROWS * PER, def, rep, v, NULL, ROWS * PER, &f));
    footer ft;
    CHECK(footer_decode(f.data, f.len, &ft));
    const pqt_column_metadata *cm = &ft.md.row_groups.items[0].columns.items[0].meta_data;
    pqt_io io;
    pqt_io_init(&io);
    CHECK_OK(pqt_io_from_buffer(&io, f.data, f.len, NULL, NULL));
    pqt_codec_ctx *ctx = NULL;
    CHECK_OK(pqt_codec_ctx_create(&ctx, NULL, NULL));
    pqt_page_reader_options po;
    pqt_page_reader_options_init(&po);
    po.max_def = 3;
    po.max_rep = 1;
    pqt_page_reader pr;
    int data_pages = 0, bad = 0;
    if (pqt_page_reader_init(&pr, &io, (uint64_t)cm->data_page_offset, (uint64_t)cm->total_compressed_size, cm->codec,
                             ctx, &po, NULL, NULL) == PQT_OK) {
      for (;;) {
        pqt_page pg;
        bool eof = false;
        if (pqt_page_reader_next(&pr, &pg, &eof, NULL) != PQT_OK) {
          bad++;
          break;
        }
        if (eof) break;
        if (pg.type == PQT_PAGE_DICTIONARY) continue;
        data_pages++;
        int16_t first = -1;
        CHECK_OK(pqt_levels_decode_rle(pg.rep, pg.rep_len, 1, &first, 1, 1, NULL));
        if (first != 0) bad++;
        if (version == 2) CHECK(pg.num_rows >= 1);
      }
      pqt_page_reader_free(&pr);
    }
    CHECK_MSG(data_pages >= ROWS && bad == 0, "v%d: %d data pages, %d start inside a record", version, data_pages, bad);
    pqt_codec_ctx_destroy(ctx);
    io.release(io.private_data);
    footer_free(&ft);
    pqt_string_free(&f);
  }
}

/* ---- 16. page index sanity ---------------------------------------------- */

/* Rewrite the file with the column index and offset index of column 0 of
 * row group 0 replaced (encoded anew, stored before the footer). */
static bool replace_indexes(const pqt_string *file, const pqt_column_index *ci, const pqt_offset_index *oi,
                            pqt_buf *out) {
  footer ft;
  if (!footer_decode(file->data, file->len, &ft)) return false;
  pqt_column_chunk *cc = &ft.md.row_groups.items[0].columns.items[0];
  pqt_buf body;
  pqt_buf_init(&body, NULL);
  bool ok = pqt_buf_append(&body, file->data, ft.start, NULL) == PQT_OK;
  size_t at = body.len;
  ok = ok && pqt_thrift_encode(&pqt_desc_column_index, ci, &body, NULL) == PQT_OK;
  cc->column_index_offset = (int64_t)at;
  cc->column_index_length = (int32_t)(body.len - at);
  at = body.len;
  ok = ok && pqt_thrift_encode(&pqt_desc_offset_index, oi, &body, NULL) == PQT_OK;
  cc->offset_index_offset = (int64_t)at;
  cc->offset_index_length = (int32_t)(body.len - at);
  ok = ok && assemble(body.data, body.len, &ft.md, out);
  pqt_buf_free(&body);
  footer_free(&ft);
  return ok;
}

/* A page index from a buggy writer (null_counts missing or -1,
 * null_pages contradicting the counts, empty bounds, offsets relative to
 * the chunk, a wrong compressed_page_size) never changes what is read:
 * the reader reads pages by walking their headers. verify names the
 * offset index problems. */
static void index_variants(const pqt_string *fileP, const char *want, const pqt_column_index *ciP,
                           const pqt_offset_index *oiP, int64_t chunk_start);
static void test_inconsistent_page_index(void) {
  int64_t v[1000];
  int16_t def[1000];
  for (int i = 0; i < 1000; i++) {
    v[i] = i * 3;
    def[i] = 1;
  }
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 100;
  o.defaults.dictionary = 0;
  pqt_string file;
  CHECK(write_one("message m { optional int64 id; }", &o, 1000, def, NULL, v, NULL, 1000, &file));
  char *want = cat(file.data, file.len);
  footer ft;
  CHECK(footer_decode(file.data, file.len, &ft));
  const pqt_column_chunk *cc = &ft.md.row_groups.items[0].columns.items[0];
  pqt_arena ar;
  pqt_arena_init(&ar, NULL);
  pqt_column_index ci;
  pqt_offset_index oi;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)file.data + cc->column_index_offset,
                             (size_t)cc->column_index_length, NULL, &ar, &ci, NULL));
  CHECK_OK(pqt_thrift_decode(&pqt_desc_offset_index, (const uint8_t *)file.data + cc->offset_index_offset,
                             (size_t)cc->offset_index_length, NULL, &ar, &oi, NULL));
  CHECK_EQ_INT(oi.page_locations.n, 10);
  CHECK_EQ_INT(ci.null_pages.n, 10);
  if (oi.page_locations.n == 10 && ci.null_pages.n == 10 && ci.null_counts.n == 10 && ci.min_values.n == 10)
    index_variants(&file, want, &ci, &oi, cc->meta_data.data_page_offset);
  pqt_arena_reset(&ar);
  footer_free(&ft);
  free(want);
  pqt_string_free(&file);
}

static void index_variants(const pqt_string *fileP, const char *want, const pqt_column_index *ciP,
                           const pqt_offset_index *oiP, int64_t chunk_start) {
  const pqt_column_index ci = *ciP;
  const pqt_offset_index oi = *oiP;
  const pqt_string file = *fileP;
  /* the index as written is sound */
  int64_t problems = -1;
  char *vt = verify_text(file.data, file.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt);
  free(vt);
  for (int variant = 0; variant < 4; variant++) {
    pqt_column_index c2 = ci;
    pqt_offset_index o2 = oi;
    bool np[10];
    int64_t nc[10];
    pqt_bytes mins[10];
    pqt_page_location locs[10];
    memcpy(np, ci.null_pages.items, sizeof np);
    memcpy(nc, ci.null_counts.items, sizeof nc);
    memcpy(mins, ci.min_values.items, sizeof mins);
    memcpy(locs, oi.page_locations.items, sizeof locs);
    c2.null_pages.items = np;
    c2.null_counts.items = nc;
    c2.min_values.items = mins;
    o2.page_locations.items = locs;
    const char *expect = NULL;
    switch (variant) {
      case 0: /* null_counts absent, then -1 */ c2.isset &= ~PQT_FIELD_MASK(column_index, null_counts); break;
      case 1: /* null_pages says page 3 is all null, its count says 0, its bounds empty */
        np[3] = true;
        mins[3] = (pqt_bytes){(const uint8_t *)"", 0};
        nc[4] = -1;
        expect = "null_pages says only nulls";
        break;
      case 2: /* offsets relative to the chunk */
        for (int i = 0; i < 10; i++) locs[i].offset -= chunk_start;
        expect = "offset index page 0 at";
        break;
      default: /* page 4's size in the offset index is wrong */
        locs[4].compressed_page_size += 7;
        expect = "compressed_page_size";
        break;
    }
    pqt_buf f;
    CHECK(replace_indexes(&file, &c2, &o2, &f));
    char *got = cat(f.data, f.len);
    CHECK_MSG(got && want && strcmp(got, want) == 0, "variant %d reads differently", variant);
    free(got);
    vt = verify_text(f.data, f.len, &problems);
    if (expect) CHECK_MSG(problems > 0 && contains(vt, expect), "variant %d: %s", variant, vt ? vt : "");
    else CHECK_MSG(problems == 0, "variant %d: %s", variant, vt ? vt : "");
    free(vt);
    pqt_buf_free(&f);
  }
}

/* An all-null column (arrow-rs#4459 wrote a bad index for one): every page
 * is a null page with empty bounds, null_counts count every row, and the
 * file verifies and reads as nulls. */
static void test_all_null_column_index(void) {
  enum { N = 250 };
  int16_t def[N];
  for (int i = 0; i < N; i++) def[i] = 0;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 100;
  pqt_string f;
  CHECK(write_one("message m { optional binary s (STRING); }", &o, N, def, NULL, "", NULL, 0, &f));
  footer ft;
  CHECK(footer_decode(f.data, f.len, &ft));
  const pqt_column_chunk *cc = &ft.md.row_groups.items[0].columns.items[0];
  CHECK(PQT_HAS_FIELD(cc, column_chunk, column_index_offset));
  if (PQT_HAS_FIELD(cc, column_chunk, column_index_offset)) {
    pqt_arena ar;
    pqt_arena_init(&ar, NULL);
    pqt_column_index ci;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)f.data + cc->column_index_offset,
                               (size_t)cc->column_index_length, NULL, &ar, &ci, NULL));
    CHECK_EQ_INT(ci.null_pages.n, 3);
    int64_t total = 0;
    for (int32_t i = 0; i < ci.null_pages.n; i++) {
      CHECK(ci.null_pages.items[i]);
      CHECK(i < ci.min_values.n && ci.min_values.items[i].len == 0 && ci.max_values.items[i].len == 0);
      if (i < ci.null_counts.n) total += ci.null_counts.items[i];
    }
    CHECK_EQ_INT(total, N);
    pqt_arena_reset(&ar);
  }
  const pqt_statistics *st = &cc->meta_data.statistics;
  CHECK(!PQT_HAS_FIELD(st, statistics, max_value) && !PQT_HAS_FIELD(st, statistics, min_value) &&
        PQT_HAS_FIELD(st, statistics, null_count) && st->null_count == N);
  int64_t problems = -1;
  char *vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "");
  free(vt);
  char *rows = cat(f.data, f.len);
  CHECK(rows && strlen(rows) == N * strlen("{\"s\":null}\n") && strncmp(rows, "{\"s\":null}\n", 11) == 0);
  free(rows);
  footer_free(&ft);
  pqt_string_free(&f);
}

/* ---- 17. page CRC ------------------------------------------------------- */

/* Written pages carry the standard CRC-32 (zlib polynomial) of the page
 * bytes as stored (compressed), the dictionary page too; a damaged
 * dictionary page is caught; a file without CRCs is valid. */
static void test_page_crc(void) {
  enum { N = 1000 };
  static char data[N * 8];
  static int32_t offs[N + 1];
  offs[0] = 0;
  for (int i = 0; i < N; i++) {
    int n = snprintf(data + offs[i], 9, "word%03d", (i * 37) % 10);
    offs[i + 1] = offs[i] + n;
  }
  for (int codec = PQT_CODEC_UNCOMPRESSED; codec <= PQT_CODEC_SNAPPY; codec++) {
    if (!pqt_codec_is_available(codec)) continue;
    pqt_write_options o;
    pqt_write_options_init(&o);
    o.defaults.codec = codec;
    o.defaults.page_row_limit = 300;
    pqt_string f;
    CHECK(write_one("message m { required binary s (STRING); }", &o, N, NULL, NULL, data, offs, N, &f));
    footer ft;
    CHECK(footer_decode(f.data, f.len, &ft));
    const pqt_column_metadata *cm = &ft.md.row_groups.items[0].columns.items[0].meta_data;
    CHECK(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset));
    uint8_t *b = (uint8_t *)f.data;
    uint64_t p = (uint64_t)cm->dictionary_page_offset, end = p + (uint64_t)cm->total_compressed_size;
    int pages = 0, dict_pages = 0;
    uint64_t dict_body = 0;
    size_t dict_len = 0;
    while (p < end) {
      pqt_page_header h;
      size_t hl = 0;
      if (pqt_thrift_decode(&pqt_desc_page_header, b + p, (size_t)(end - p), &hl, NULL, &h, NULL) != PQT_OK) break;
      CHECK(PQT_HAS_FIELD(&h, page_header, crc));
      uint32_t want = pqt_crc32(0, b + p + hl, (size_t)h.compressed_page_size);
      CHECK_MSG((uint32_t)h.crc == want, "page %d: crc %08x, computed %08x", pages, (uint32_t)h.crc, want);
      if (h.type == PQT_PAGE_DICTIONARY) {
        dict_pages++;
        dict_body = p + hl;
        dict_len = (size_t)h.compressed_page_size;
      }
      p += hl + (uint64_t)h.compressed_page_size;
      pages++;
    }
    CHECK(p == end && pages >= 5 && dict_pages == 1);
    /* damage the dictionary page (uncompressed: one letter of a word) */
    if (codec == PQT_CODEC_UNCOMPRESSED && dict_len > 8) {
      b[dict_body + 5] ^= 0x01;
      pqt_status st;
      pqt_error e;
      char *rows = cat_opts(f.data, f.len, NULL, &st, &e);
      CHECK_EQ_INT(st, PQT_ECORRUPT);
      CHECK_MSG(contains(e.message, "CRC"), "%s", e.message);
      free(rows);
      pqt_read_options ro;
      pqt_read_options_init(&ro);
      ro.verify_checksums = 0;
      rows = cat_opts(f.data, f.len, &ro, &st, &e);
      CHECK_MSG(st == PQT_OK && rows && strlen(rows) > 0, "%s", e.message);
      free(rows);
      b[dict_body + 5] ^= 0x01;
    }
    footer_free(&ft);
    pqt_string_free(&f);
    /* no CRC at all: valid */
    o.defaults.crc = 0;
    CHECK(write_one("message m { required binary s (STRING); }", &o, N, NULL, NULL, data, offs, N, &f));
    CHECK(footer_decode(f.data, f.len, &ft));
    cm = &ft.md.row_groups.items[0].columns.items[0].meta_data;
    pqt_page_header h;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, (const uint8_t *)f.data + cm->dictionary_page_offset,
                               (size_t)cm->total_compressed_size, NULL, NULL, &h, NULL));
    CHECK(!PQT_HAS_FIELD(&h, page_header, crc));
    char *rows = cat(f.data, f.len);
    CHECK(rows && strncmp(rows, "{\"s\":\"word000\"}\n", 16) == 0);
    free(rows);
    footer_free(&ft);
    pqt_string_free(&f);
  }
}

/* ---- 18. Bloom filters -------------------------------------------------- */

/* Written filters hash the PLAIN encoding (int32: 4 bytes LE; byte arrays:
 * the bytes without their length), sit after each row group, and verify
 * checks them whether or not bloom_filter_length is given. */
static void test_bloom_filters_written(void) {
  const char *schema = "message m { required int32 i; required binary s; }";
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.bloom_filter = 1;
  o.row_group_rows = 50;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &o, NULL));
  if (!w) return;
  int32_t iv[100], so[101];
  char sd[100 * 6];
  so[0] = 0;
  for (int i = 0; i < 100; i++) {
    iv[i] = i * 1000003;
    int n = snprintf(sd + so[i], 7, "v%d", i);
    so[i + 1] = so[i] + n;
  }
  for (int g = 0; g < 2; g++) {
    CHECK_OK(pqt_writer_write_column(w, 0, 50, NULL, NULL, iv + 50 * g, NULL, 50, NULL));
    CHECK_OK(pqt_writer_write_column(w, 1, 50, NULL, NULL, sd, so + 50 * g, 50, NULL));
    CHECK_OK(pqt_writer_flush_row_group(w, NULL));
  }
  CHECK_OK(pqt_writer_close(w, NULL));
  footer ft;
  CHECK(footer_decode(file.data, file.len, &ft));
  CHECK_EQ_INT(ft.md.row_groups.n, 2);
  const uint8_t *b = (const uint8_t *)file.data;
  for (int32_t g = 0; g < ft.md.row_groups.n && g < 2; g++) {
    for (int c = 0; c < 2; c++) {
      pqt_column_metadata *cm = &ft.md.row_groups.items[g].columns.items[c].meta_data;
      CHECK(PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset));
      if (!PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset)) continue;
      /* after the row group's chunks, before the next row group */
      int64_t chunk_end = cm->data_page_offset + cm->total_compressed_size;
      CHECK(cm->bloom_filter_offset >= chunk_end);
      if (g == 0) CHECK(cm->bloom_filter_offset < ft.md.row_groups.items[1].file_offset);
      pqt_bloom bf;
      size_t used = 0;
      CHECK_OK(pqt_bloom_parse(b + cm->bloom_filter_offset, file.len - (size_t)cm->bloom_filter_offset, NULL, &bf,
                               &used, NULL));
      if (PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length)) CHECK_EQ_INT(cm->bloom_filter_length, used);
      for (int i = 50 * g; i < 50 * g + 50; i++) {
        uint64_t h = c == 0 ? pqt_bloom_hash(&iv[i], 4) : pqt_bloom_hash(sd + so[i], (size_t)(so[i + 1] - so[i]));
        CHECK_MSG(pqt_bloom_check(&bf, h), "row group %d column %d value %d", g, c, i);
      }
      pqt_bloom_free(&bf);
      cm->isset &= ~PQT_FIELD_MASK(column_metadata, bloom_filter_length); /* for the check below: no length */
    }
  }
  pqt_buf f;
  CHECK(assemble(b, ft.start, &ft.md, &f));
  int64_t problems = -1;
  char *vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "");
  free(vt);
  /* clear row group 1, column 1's bitset: verify notices without a length */
  const pqt_column_metadata *cm = &ft.md.row_groups.items[1].columns.items[1].meta_data;
  pqt_bloom_filter_header bh;
  size_t hl = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_bloom_filter_header, f.data + cm->bloom_filter_offset,
                             f.len - (size_t)cm->bloom_filter_offset, &hl, NULL, &bh, NULL));
  memset(f.data + cm->bloom_filter_offset + hl, 0, (size_t)bh.num_bytes);
  vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems >= 1 && contains(vt, "row group 1, column s: Bloom filter misses"), "%s", vt ? vt : "");
  free(vt);
  pqt_buf_free(&f);
  footer_free(&ft);
  pqt_string_free(&file);
}

/* ---- 19. binary statistics truncation ----------------------------------- */

/* Long strings: the default cap (64 bytes) cuts min to a prefix and max to
 * a prefix with its last byte incremented, both flagged inexact; a max of
 * only 0xFF bytes cannot be rounded up and stays whole and exact. */
static void test_binary_truncation_written(void) {
  static char data[3 * 100];
  int32_t offs[] = {0, 100, 200, 300};
  memset(data, 'b', 100);
  memset(data + 100, 'c', 100);
  memset(data + 200, 'a', 100);
  pqt_string f;
  CHECK(write_one("message m { required binary s; }", NULL, 3, NULL, NULL, data, offs, 3, &f));
  footer ft;
  CHECK(footer_decode(f.data, f.len, &ft));
  const pqt_statistics *st = &ft.md.row_groups.items[0].columns.items[0].meta_data.statistics;
  CHECK(st->min_value.len == 64 && memcmp(st->min_value.ptr, data + 200, 64) == 0);
  CHECK(PQT_HAS_FIELD(st, statistics, is_min_value_exact) && !st->is_min_value_exact);
  CHECK(st->max_value.len == 64 && memcmp(st->max_value.ptr, data + 100, 63) == 0 && st->max_value.ptr[63] == 'd');
  CHECK(PQT_HAS_FIELD(st, statistics, is_max_value_exact) && !st->is_max_value_exact);
  footer_free(&ft);
  pqt_string_free(&f);
  memset(data + 100, 0xFF, 100);
  CHECK(write_one("message m { required binary s; }", NULL, 3, NULL, NULL, data, offs, 3, &f));
  CHECK(footer_decode(f.data, f.len, &ft));
  st = &ft.md.row_groups.items[0].columns.items[0].meta_data.statistics;
  CHECK(st->max_value.len == 100 && st->is_max_value_exact && st->max_value.ptr[99] == 0xFF);
  CHECK(st->min_value.len == 64 && !st->is_min_value_exact);
  int64_t problems = -1;
  char *vt = verify_text(f.data, f.len, &problems);
  CHECK_MSG(problems == 0, "%s", vt ? vt : "");
  free(vt);
  footer_free(&ft);
  pqt_string_free(&f);
}

/* ---- 21. DECIMAL physical type by precision ----------------------------- */

/* A DECIMAL read from BYTE_ARRAY (which DuckDB only reads) is written as
 * INT32 (precision <= 9), INT64 (<= 18) or the narrowest FIXED_LEN_BYTE_ARRAY. */
static void test_decimal_physical_by_precision(void) {
  const char *src =
      "message m { required binary a (DECIMAL(5,2)); required binary b (DECIMAL(15,2)); "
      "required binary c (DECIMAL(30,2)); }";
  pqt_string tmp = {0}, out = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = src};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &tmp, &ws, NULL, NULL));
  if (!w) return;
  struct ArrowSchema as;
  CHECK_OK(pqt_writer_arrow_schema(w, &as, NULL));
  pqt_writer_discard(w);
  pqt_write_schema ws2 = {.struct_size = sizeof(pqt_write_schema), .arrow = &as};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws2, NULL, NULL));
  if (w) {
    CHECK_OK(pqt_writer_close(w, NULL));
    pqt_reader *r = open_buf(out.data, out.len);
    if (r) {
      pqt_string st = {0};
      CHECK_OK(pqt_reader_schema_text(r, &st, NULL));
      CHECK_MSG(contains(st.data, "required int32 a (DECIMAL(5,2));") &&
                    contains(st.data, "required int64 b (DECIMAL(15,2));") &&
                    contains(st.data, "required fixed_len_byte_array(13) c (DECIMAL(30,2));"),
                "%s", st.data);
      pqt_string_free(&st);
      pqt_reader_close(r);
    }
  }
  as.release(&as);
  pqt_string_free(&tmp);
  pqt_string_free(&out);
}

/* ---- 23. created_by ----------------------------------------------------- */

static void test_created_by_well_formed(void) {
  pqt_string f = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int32 a; }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &f, &ws, NULL, NULL));
  if (!w) return;
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = open_buf(f.data, f.len);
  if (r) {
    const char *cb = pqt_reader_created_by(r);
    char want[64];
    snprintf(want, sizeof want, "parquetry version %s (build ", pqt_version());
    size_t n = strlen(cb), wl = strlen(want);
    CHECK_MSG(strncmp(cb, want, wl) == 0 && n > wl + 1 && cb[n - 1] == ')' && !strchr(cb + wl, ' '), "%s", cb);
    pqt_reader_close(r);
  }
  pqt_string_free(&f);
}

RUN_TESTS("pitfalls", TEST_CASE(test_dictionary_page_offset_variants), TEST_CASE(test_row_group_file_offset),
          TEST_CASE(test_legacy_min_max_by_sort_order), TEST_CASE(test_legacy_page_stats_of_binary_not_shown),
          TEST_CASE(test_min_value_needs_column_orders), TEST_CASE(test_float_statistics_written),
          TEST_CASE(test_unsigned_decimal_int96_statistics_written), TEST_CASE(test_legacy_lists_rewritten_three_level),
          TEST_CASE(test_map_duplicate_keys_kept), TEST_CASE(test_int96_layout), TEST_CASE(test_int96_range), TEST_CASE(test_small_int_range),
          TEST_CASE(test_converted_types_and_timestamp_coercion),
          TEST_CASE(test_delta_byte_array_across_pages_in_a_file), TEST_CASE(test_v2_page_quirks),
          TEST_CASE(test_v1_bit_packed_and_rle_levels), TEST_CASE(test_record_spanning_v1_pages),
          TEST_CASE(test_record_spanning_into_a_lost_page), TEST_CASE(test_writer_pages_start_at_records),
          TEST_CASE(test_inconsistent_page_index), TEST_CASE(test_all_null_column_index), TEST_CASE(test_page_crc),
          TEST_CASE(test_bloom_filters_written), TEST_CASE(test_binary_truncation_written),
          TEST_CASE(test_decimal_physical_by_precision), TEST_CASE(test_created_by_well_formed))
