/* pqt_reader_verify: a sound file has no problems; a statistic that does
 * not bound the data, a damaged page, a Bloom filter that lost values and
 * a column index that does not describe its pages are each reported. */
#include <math.h>

#include "file/reader_internal.h"
#include "footer_fixture.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct text {
  char buf[8192];
  size_t n;
} text;
static pqt_status collect(void *ctx, const char *d, size_t n) {
  text *t = ctx;
  if (t->n + n >= sizeof t->buf) return PQT_ENOMEM;
  memcpy(t->buf + t->n, d, n);
  t->n += n;
  t->buf[t->n] = '\0';
  return PQT_OK;
}

static int64_t verify_buf(const uint8_t *buf, size_t len, text *t) {
  pqt_reader *r;
  pqt_error e;
  int64_t problems = -1;
  CHECK_OK(pqt_reader_open_buffer(&r, buf, len, NULL, &e));
  CHECK_OK(pqt_reader_verify(r, collect, t, &problems, &e));
  pqt_reader_close(r);
  return problems;
}

static void test_verify_finds_problems(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_simple.parquet", PQT_SOURCE_DIR);
  size_t len;
  uint8_t *buf = pqt_test_read_file(path, &len);
  CHECK(buf != NULL);
  if (!buf) return;
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf(buf, len, &t), 0);
  CHECK_EQ_INT(t.n, 0);
  /* footer statistics: min_value "text1" -> "text3" (above the smallest value) */
  uint8_t *m = NULL;
  for (size_t i = 113; i + 7 < len; i++)
    if (memcmp(buf + i, "\x18\x05text1", 7) == 0) m = buf + i + 6;
  CHECK(m != NULL);
  if (m) {
    *m = '3';
    text t2 = {{0}, 0};
    CHECK_EQ_INT(verify_buf(buf, len, &t2), 1);
    CHECK(strstr(t2.buf, "row group 0, column text: statistics min_value is above the smallest value") != NULL);
    *m = '1';
  }
  /* a flipped data byte: the page CRC no longer matches */
  buf[40] ^= 1;
  text t3 = {{0}, 0};
  CHECK_EQ_INT(verify_buf(buf, len, &t3), 1);
  CHECK(strstr(t3.buf, "page 0: CRC32 mismatch") != NULL);
  free(buf);
}

/* A Bloom filter that lost its bits no longer holds the chunk's values. */
static void test_verify_checks_bloom_filters(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 id; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.bloom_filter = 1;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  int64_t ids[1000];
  for (int i = 0; i < 1000; i++) ids[i] = (int64_t)i * 7919;
  CHECK_OK(pqt_writer_write_column(w, 0, 1000, NULL, NULL, ids, NULL, 1000, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  /* find the filter's bitset and clear it */
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (r) {
    const pqt_column_metadata *cm = &r->md.row_groups.items[0].columns.items[0].meta_data;
    CHECK(PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset) &&
          PQT_HAS_FIELD(cm, column_metadata, bloom_filter_length));
    int64_t off = cm->bloom_filter_offset, len = cm->bloom_filter_length;
    pqt_reader_close(r);
    CHECK(off > 4 && len > 32 && (size_t)(off + len) < file.len);
    memset(file.data + off + len - 32, 0, 32); /* the last block of the bitset */
    text t2 = {{0}, 0};
    CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t2), 1);
    CHECK(strstr(t2.buf, "row group 0, column id: Bloom filter misses") != NULL);
    /* a filter header that does not parse: the chunk's pages say why, verify reports it */
    memset(file.data + off, 0xFF, 4);
    text t3 = {{0}, 0};
    CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t3), 1);
    CHECK_MSG(strstr(t3.buf, "row group 0, column id: Bloom filter: ") != NULL, "%s", t3.buf);
    pqt_reader *r2 = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r2, file.data, file.len, NULL, NULL));
    pqt_page_cursor *pc = NULL;
    if (r2) CHECK_OK(pqt_page_cursor_open(r2, 0, 0, &pc, NULL));
    if (pc) {
      pqt_page_info pi;
      pqt_page_info_init(&pi);
      int eof = 0;
      do CHECK_OK(pqt_page_cursor_next(pc, &pi, &eof, NULL));
      while (!eof && pi.page_type == PQT_PAGE_KIND_DICTIONARY_PAGE);
      pqt_page_values pv;
      pqt_page_values_init(&pv);
      CHECK_OK(pqt_page_cursor_decode(pc, &pv, NULL));
      CHECK_EQ_INT(pv.bloom_checked, -1);
      CHECK_MSG(pv.bloom_error != NULL && strstr(t3.buf, pv.bloom_error) != NULL, "bloom_error %s",
                pv.bloom_error ? pv.bloom_error : "(null)");
      pqt_page_cursor_close(pc);
    }
    pqt_reader_close(r2);
  }
  pqt_string_free(&file);
}

/* 1000 rows of `optional int64 id` in data pages of 100 rows: id = 3 x row,
 * null on every 10th row and on rows 300..399 (data page 3 holds only
 * nulls). Ascending, so the writer says boundary_order ASCENDING. */
static void write_paged(pqt_string *file) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { optional int64 id; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_row_limit = 100;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, file, &ws, &wo, NULL));
  if (!w) return;
  static int16_t def[1000];
  static int64_t ids[1000];
  int64_t n = 0;
  for (int i = 0; i < 1000; i++) {
    def[i] = (int16_t) !(i % 10 == 0 || (i >= 300 && i < 400));
    if (def[i]) ids[n++] = 3 * (int64_t)i;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, 1000, def, NULL, ids, NULL, n, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
}

/* The file with the column index of row group 0, column 0 decoded, changed
 * by edit and encoded again: the edited index and a new footer pointing at
 * it replace the old footer (the old index stays, unreferenced). */
typedef void (*ci_edit)(pqt_column_index *ci);
static uint8_t *edit_column_index(const pqt_string *file, ci_edit edit, size_t *out_len) {
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file->data, file->len, NULL, NULL));
  if (!r) return NULL;
  pqt_column_chunk *cc = &r->md.row_groups.items[0].columns.items[0];
  CHECK(PQT_HAS_FIELD(cc, column_chunk, column_index_offset) && PQT_HAS_FIELD(cc, column_chunk, column_index_length));
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_column_index ci;
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)file->data + cc->column_index_offset,
                             (size_t)cc->column_index_length, NULL, &arena, &ci, NULL));
  CHECK_EQ_INT(ci.null_pages.n, 10);
  CHECK_EQ_INT(ci.boundary_order, PQT_BOUNDARY_ASCENDING);
  CHECK(PQT_HAS_FIELD(&ci, column_index, null_counts) && PQT_HAS_FIELD(&ci, column_index, definition_level_histograms));
  if (ci.null_pages.n == 10) {
    edit(&ci);
    size_t body = file->len - 8 - r->footer_len;
    CHECK_OK(pqt_buf_append(&out, file->data, body, NULL));
    cc->column_index_offset = (int64_t)out.len;
    CHECK_OK(pqt_thrift_encode(&pqt_desc_column_index, &ci, &out, NULL));
    cc->column_index_length = (int32_t)(out.len - (size_t)cc->column_index_offset);
    pqt_test_append_footer(&out, &r->md);
  }
  pqt_arena_reset(&arena);
  pqt_reader_close(r);
  *out_len = out.len;
  return out.data; /* the caller frees it (malloc: the default allocator) */
}

static void edit_nothing(pqt_column_index *ci) { (void)ci; }
static void edit_min_above(pqt_column_index *ci) { ci->min_values.items[2] = ci->max_values.items[2]; }
static void edit_max_below(pqt_column_index *ci) { ci->max_values.items[5] = ci->min_values.items[5]; }
static void edit_null_page_true(pqt_column_index *ci) { ci->null_pages.items[2] = true; }
static void edit_null_page_false(pqt_column_index *ci) { ci->null_pages.items[3] = false; }
static void edit_null_count(pqt_column_index *ci) { ci->null_counts.items[1]++; }
static void edit_descending(pqt_column_index *ci) { ci->boundary_order = PQT_BOUNDARY_DESCENDING; }
static void edit_def_histogram(pqt_column_index *ci) { ci->definition_level_histograms.items[1 * 2 + 0]++; }
static void edit_short_lists(pqt_column_index *ci) { ci->null_pages.n = 9; }
static void edit_min_length(pqt_column_index *ci) { ci->min_values.items[4].len = 3; }

/* verify over the file with an edited index: the problems found, and the
 * report must contain `want`. */
static int64_t verify_edited(const pqt_string *file, ci_edit edit, const char *want) {
  size_t len = 0;
  uint8_t *buf = edit_column_index(file, edit, &len);
  if (!buf) return -1;
  text t = {{0}, 0};
  int64_t problems = verify_buf(buf, len, &t);
  if (want) CHECK_MSG(strstr(t.buf, want) != NULL, "want \"%s\" in:\n%s", want, t.buf);
  free(buf);
  return problems;
}

static void test_verify_checks_column_index(void) {
  pqt_string file = {0};
  write_paged(&file);
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  CHECK_MSG(t.n == 0, "%s", t.buf);
  /* the rewrite itself changes nothing that verify could see */
  CHECK_EQ_INT(verify_edited(&file, edit_nothing, NULL), 0);
  /* (a) a min above the page's smallest value (page 2 holds 603..897) */
  CHECK_EQ_INT(verify_edited(&file, edit_min_above,
                             "row group 0, column id: column index, data page 2: min_values is above the page's "
                             "smallest value"),
               1);
  CHECK_EQ_INT(verify_edited(&file, edit_max_below,
                             "row group 0, column id: column index, data page 5: max_values is below the page's "
                             "largest value"),
               1);
  /* (b) null_pages wrong both ways */
  CHECK_EQ_INT(verify_edited(&file, edit_null_page_true,
                             "column index, data page 2: null_pages says only nulls, the page has 90 values"),
               1);
  CHECK_EQ_INT(verify_edited(&file, edit_null_page_false,
                             "column index, data page 3: null_pages says values, the page has only nulls"),
               1);
  /* (c) a null count one too many */
  CHECK_EQ_INT(
      verify_edited(&file, edit_null_count, "column index, data page 1: null_counts says 11 nulls, the page has 10"),
      1);
  /* (d) ascending bounds said to be descending */
  CHECK_EQ_INT(verify_edited(&file, edit_descending,
                             "column index, data page 1: boundary_order is DESCENDING, but the page's min_values is "
                             "above data page 0's"),
               1);
  /* level histograms: [nulls, values] per page */
  CHECK_EQ_INT(verify_edited(&file, edit_def_histogram,
                             "column index, data page 1: definition_level_histograms counts 11 at level 0, the page "
                             "has 10"),
               1);
  /* untrusted shapes: lists of different lengths, a bound of the wrong width */
  CHECK(verify_edited(&file, edit_short_lists, "column index lists 9 pages, the chunk has 10 data pages") > 0);
  CHECK_EQ_INT(
      verify_edited(&file, edit_min_length, "column index, data page 4: min/max of 3/8 bytes for a INT64 column"), 1);
  pqt_string_free(&file);
}

/* Nested pages (null_counts count entries below max_def: empty and null
 * lists too; histograms of both levels) and truncated byte array bounds
 * (a min that is a prefix, a max rounded up) pass. */
static void test_verify_column_index_nested_and_truncated(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message =
                             "message m { optional group l (LIST) { repeated group list { optional int32 "
                             "element; } } required binary s (STRING); }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_row_limit = 50;
  wo.defaults.statistics_truncate_length = 4;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  enum { ROWS = 600 };
  static int16_t def[ROWS * 3], rep[ROWS * 3];
  static int32_t vals[ROWS * 3], offs[ROWS + 1];
  static char text_bytes[ROWS * 16];
  int64_t nl = 0, nv = 0;
  offs[0] = 0;
  for (int i = 0; i < ROWS; i++) {
    switch (i % 4) {
      case 0: /* [i, null, i + 1] */
        def[nl] = 3;
        rep[nl++] = 0;
        vals[nv++] = i;
        def[nl] = 2;
        rep[nl++] = 1;
        def[nl] = 3;
        rep[nl++] = 1;
        vals[nv++] = i + 1;
        break;
      case 1:
        def[nl] = 1;
        rep[nl++] = 0;
        break; /* [] */
      case 2:
        def[nl] = 0;
        rep[nl++] = 0;
        break; /* null */
      default:
        def[nl] = 3;
        rep[nl++] = 0;
        vals[nv++] = -i;
        break;
    }
    char tmp[17];
    snprintf(tmp, sizeof tmp, "row-%04d-%s", (i * 7) % ROWS, i % 2 ? "odd" : "even");
    size_t n = strlen(tmp);
    memcpy(text_bytes + offs[i], tmp, n);
    offs[i + 1] = offs[i] + (int32_t)n;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, nl, def, rep, vals, NULL, nv, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, ROWS, NULL, NULL, text_bytes, offs, ROWS, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  CHECK_MSG(t.n == 0, "%s", t.buf);
  /* the index exists, over several pages, with truncated bounds */
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (r) {
    for (int c = 0; c < 2; c++) {
      const pqt_column_chunk *cc = &r->md.row_groups.items[0].columns.items[c];
      CHECK(PQT_HAS_FIELD(cc, column_chunk, column_index_offset) &&
            PQT_HAS_FIELD(cc, column_chunk, column_index_length));
      pqt_arena arena;
      pqt_arena_init(&arena, NULL);
      pqt_column_index ci;
      CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, (const uint8_t *)file.data + cc->column_index_offset,
                                 (size_t)cc->column_index_length, NULL, &arena, &ci, NULL));
      CHECK(ci.null_pages.n > 1);
      if (c == 0)
        CHECK(PQT_HAS_FIELD(&ci, column_index, repetition_level_histograms) &&
              PQT_HAS_FIELD(&ci, column_index, definition_level_histograms));
      if (c == 1 && ci.min_values.n > 0) CHECK(ci.min_values.items[0].len <= 4 && ci.max_values.items[0].len <= 4);
      pqt_arena_reset(&arena);
    }
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
}

/* A v2 page header whose num_nulls disagrees with the page's levels: the
 * reader goes by the levels, verify reports the header. */
static void test_verify_checks_v2_num_nulls(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { optional int32 a; }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.page_version = 2;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  int32_t a[90];
  int16_t def[100];
  int n = 0;
  for (int i = 0; i < 100; i++) {
    def[i] = i % 10 == 3 ? 0 : 1; /* 10 nulls */
    if (def[i]) a[n++] = i;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, 100, def, NULL, a, NULL, (size_t)n, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  text t = {.n = 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  /* the first data page's header: num_nulls 10 -> 11 (the same varint length) */
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (!r) return;
  int64_t off = r->md.row_groups.items[0].columns.items[0].meta_data.data_page_offset;
  pqt_reader_close(r);
  pqt_page_header h;
  size_t used = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, (const uint8_t *)file.data + off, file.len - (size_t)off, &used,
                             NULL, &h, NULL));
  CHECK_EQ_INT(h.type, PQT_PAGE_DATA_V2);
  CHECK_EQ_INT(h.data_page_header_v2.num_nulls, 10);
  h.data_page_header_v2.num_nulls = 11;
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &h, &out, NULL));
  CHECK_EQ_INT(out.len, used);
  if (out.len == used) memcpy(file.data + off, out.data, used);
  pqt_buf_free(&out);
  t.n = 0;
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 1);
  CHECK_MSG(strstr(t.buf, "page 0: the v2 header says 11 nulls, its levels hold 10") != NULL, "%s", t.buf);
  /* reading goes by the levels */
  pqt_test_text rows = {0};
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (r) {
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &rows, NULL));
    pqt_reader_close(r);
  }
  CHECK(rows.p && strstr(rows.p, "{\"a\":null}\n{\"a\":4}") != NULL);
  free(rows.p);
  pqt_string_free(&file);
}

/* FLOAT16 is ordered numerically by the writer's statistics and page
 * index and by verify alike (meta/sort_order.h): a sound file passes, a
 * chunk max_value or a column index max below the largest value does not.
 * In byte order 65504 (FF 7B) sorts below -2 (00 C0): only the numeric
 * order calls the file sound. */
static void test_verify_float16_order_as_written(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { required fixed_len_byte_array(2) h (FLOAT16); }"};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &wo, NULL));
  if (!w) return;
  /* -2, 1, 0.5, 65504, -0, 3 as little-endian halves */
  static const uint8_t h[] = {0x00, 0xC0, 0x00, 0x3C, 0x00, 0x38, 0xFF, 0x7B, 0x00, 0x80, 0x00, 0x42};
  CHECK_OK(pqt_writer_write_column(w, 0, 6, NULL, NULL, h, NULL, 6, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  text t = {{0}, 0};
  CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t), 0);
  CHECK_MSG(t.n == 0, "%s", t.buf);
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (!r) {
    pqt_string_free(&file);
    return;
  }
  const pqt_column_chunk *cc = &r->md.row_groups.items[0].columns.items[0];
  const pqt_statistics *st = &cc->meta_data.statistics;
  CHECK(PQT_HAS_FIELD(&cc->meta_data, column_metadata, statistics) && PQT_HAS_FIELD(st, statistics, max_value) &&
        st->max_value.len == 2);
  CHECK(PQT_HAS_FIELD(st, statistics, min_value) && st->min_value.len == 2 &&
        memcmp(st->min_value.ptr, "\x00\xC0", 2) == 0);
  ptrdiff_t max_at = (const char *)st->max_value.ptr - file.data;
  CHECK(max_at > 0 && (size_t)max_at + 2 <= file.len && memcmp(file.data + max_at, "\xFF\x7B", 2) == 0);
  int64_t ci_off = cc->column_index_offset;
  int32_t ci_len = cc->column_index_length;
  CHECK(PQT_HAS_FIELD(cc, column_chunk, column_index_offset) && ci_off > 4 && ci_len > 0);
  pqt_reader_close(r);
  if (max_at > 0 && (size_t)max_at + 2 <= file.len) {
    /* chunk max_value 65504 -> 3: below the largest value */
    memcpy(file.data + max_at, "\x00\x42", 2);
    text t2 = {{0}, 0};
    CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t2), 1);
    CHECK_MSG(strstr(t2.buf, "row group 0, column h: statistics max_value is below the largest value") != NULL, "%s",
              t2.buf);
    memcpy(file.data + max_at, "\xFF\x7B", 2);
  }
  /* the column index's max for the page: the same */
  uint8_t *ci_max = NULL;
  for (int32_t i = 0; ci_off > 4 && i + 2 <= ci_len; i++)
    if (memcmp(file.data + ci_off + i, "\xFF\x7B", 2) == 0) ci_max = (uint8_t *)file.data + ci_off + i;
  CHECK(ci_max != NULL);
  if (ci_max) {
    memcpy(ci_max, "\x00\x42", 2);
    text t3 = {{0}, 0};
    CHECK_EQ_INT(verify_buf((const uint8_t *)file.data, file.len, &t3), 1);
    CHECK_MSG(strstr(t3.buf, "column index, data page 0: max_values is below the page's largest value") != NULL, "%s",
              t3.buf);
  }
  pqt_string_free(&file);
}


/* pqt_reader_page_index_stored gives the index as stored where
 * pqt_reader_page_index refuses it: lists of different lengths, a bound of
 * the wrong length; an index that does not parse is named, the offset
 * index still given. */
static void edit_garbage(pqt_column_index *ci) { ci->boundary_order = 7; }
static void test_page_index_stored(void) {
  pqt_string file = {0};
  write_paged(&file);
  /* sound: both readings agree */
  {
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
    pqt_page_index a, b;
    pqt_page_index_init(&a);
    pqt_page_index_init(&b);
    CHECK_OK(pqt_reader_page_index(r, 0, 0, &a, NULL));
    CHECK_OK(pqt_reader_page_index_stored(r, 0, 0, &b, NULL));
    CHECK_EQ_INT(a.n_pages, 10);
    CHECK_EQ_INT(b.n_pages, 10);
    CHECK_EQ_INT(b.n_min_values, 10);
    CHECK_EQ_INT(b.n_max_values, 10);
    CHECK_EQ_INT(b.n_null_counts, 10);
    CHECK_EQ_INT(b.n_nan_counts, -1);
    CHECK_EQ_INT(b.n_definition_level_histograms, 20);
    CHECK(b.column_index_error == NULL && b.offset_index_error == NULL);
    CHECK_EQ_INT(a.n_min_values, 0); /* the plain reading leaves the later fields alone */
    for (int32_t i = 0; i < 10 && b.n_pages == 10 && a.n_pages == 10; i++) {
      CHECK_EQ_INT(a.null_pages[i], b.null_pages[i]);
      CHECK_EQ_INT(a.null_counts[i], b.null_counts[i]);
      if (a.null_pages[i]) continue;
      CHECK_EQ_INT(a.min_values[i].i64, b.min_values[i].i64);
      CHECK_EQ_INT((int64_t)b.min_values[i].n_plain, 8);
    }
    CHECK_EQ_INT(b.n_locations, 10);
    pqt_page_index_free(&a);
    pqt_page_index_free(&b);
    pqt_reader_close(r);
  }
  /* nine null_pages for ten bounds, and a 3-byte INT64 bound */
  ci_edit edits[2] = {edit_short_lists, edit_min_length};
  for (int k = 0; k < 2; k++) {
    size_t len = 0;
    uint8_t *buf = edit_column_index(&file, edits[k], &len);
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, buf, len, NULL, NULL));
    pqt_page_index a, b;
    pqt_page_index_init(&a);
    pqt_page_index_init(&b);
    pqt_error e;
    CHECK(pqt_reader_page_index(r, 0, 0, &a, &e) == PQT_ECORRUPT);
    CHECK_OK(pqt_reader_page_index_stored(r, 0, 0, &b, NULL));
    CHECK(b.has_column_index && b.column_index_error == NULL);
    if (k == 0) {
      CHECK_EQ_INT(b.n_pages, 9);
      CHECK_EQ_INT(b.n_min_values, 10);
    } else {
      CHECK_EQ_INT(b.n_pages, 10);
      CHECK_EQ_INT((int64_t)b.min_values[4].n_plain, 3);
      CHECK_EQ_INT(b.min_values[4].kind, PQT_VALUE_NONE);
      CHECK_EQ_INT(b.min_values[5].kind, PQT_VALUE_INT64);
    }
    CHECK(b.has_offset_index && b.n_locations == 10);
    pqt_page_index_free(&a);
    pqt_page_index_free(&b);
    pqt_reader_close(r);
    free(buf);
  }
  /* an index that does not parse (boundary_order is an enum; 7 is kept by
   * the encoder, so damage the bytes instead): named, the offset index kept */
  {
    size_t len = 0;
    uint8_t *buf = edit_column_index(&file, edit_garbage, &len);
    pqt_reader *r = NULL;
    CHECK_OK(pqt_reader_open_buffer(&r, buf, len, NULL, NULL));
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    CHECK_OK(pqt_reader_chunk(r, 0, 0, &ci, NULL));
    /* the column index's first byte: a struct field header; 0x0F is no Thrift type */
    if (ci.column_index_offset > 0 && (size_t)ci.column_index_offset < len) buf[ci.column_index_offset] = 0x0F;
    pqt_page_index b;
    pqt_page_index_init(&b);
    CHECK_OK(pqt_reader_page_index_stored(r, 0, 0, &b, NULL));
    CHECK(!b.has_column_index);
    CHECK_MSG(b.column_index_error != NULL, "no column_index_error");
    CHECK(b.has_offset_index && b.n_locations == 10 && b.offset_index_error == NULL);
    pqt_page_index_free(&b);
    /* verify reports it under the chunk */
    text t = {{0}, 0};
    CHECK(verify_buf(buf, len, &t) >= 1);
    CHECK_MSG(strstr(t.buf, "row group 0, column id: column index") != NULL, "%s", t.buf);
    pqt_reader_close(r);
    free(buf);
  }
  pqt_string_free(&file);
}

/* pqt_reader_compare_plain: the column's sort order on PLAIN bytes. */
static void test_compare_plain(void) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { required int32 s; required int32 u (INTEGER(32,false)); "
                                    "required double d; required int96 t; }"};
  pqt_string file = {0};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  int32_t one = 1;
  double dv = 1.0;
  uint8_t t96[12] = {0};
  CHECK_OK(pqt_writer_write_column(w, 0, 1, NULL, NULL, &one, NULL, 1, NULL));
  CHECK_OK(pqt_writer_write_column(w, 1, 1, NULL, NULL, &one, NULL, 1, NULL));
  CHECK_OK(pqt_writer_write_column(w, 2, 1, NULL, NULL, &dv, NULL, 1, NULL));
  CHECK_OK(pqt_writer_write_column(w, 3, 1, NULL, NULL, t96, NULL, 1, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (r) {
    int32_t minus = -1, two = 2;
    const uint8_t *m = (const uint8_t *)&minus, *p2 = (const uint8_t *)&two;
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 0, m, 4, p2, 4), -1); /* signed: -1 < 2 */
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 1, m, 4, p2, 4), 1);  /* unsigned: 0xFFFFFFFF > 2 */
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 0, p2, 4, p2, 4), 0);
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 0, p2, 3, p2, 4), 2); /* not the type's length */
    double nz = -0.0, pz = 0.0, nan = NAN;
    double half = 0.5;
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 2, (const uint8_t *)&nz, 8, (const uint8_t *)&pz, 8), 0); /* -0 = +0 */
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 2, (const uint8_t *)&half, 8, (const uint8_t *)&dv, 8), -1);
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 2, (const uint8_t *)&nan, 8, (const uint8_t *)&pz, 8), 2);
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 3, t96, 12, t96, 12), 2); /* INT96 has no order */
    CHECK_EQ_INT(pqt_reader_compare_plain(r, 9, p2, 4, p2, 4), 2);     /* no such column */
    pqt_reader_close(r);
  }
  pqt_string_free(&file);
}

/* pqt_reader_footer_signature on the corpus's encrypted files. */
static void test_footer_signature_state(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char plain_footer[1024], enc_footer[1024], plain_file[1024];
  snprintf(plain_footer, sizeof plain_footer, "%s/data/encrypt_columns_plaintext_footer.parquet.encrypted", dir);
  snprintf(enc_footer, sizeof enc_footer, "%s/data/uniform_encryption.parquet.encrypted", dir);
  snprintf(plain_file, sizeof plain_file, "%s/data/alltypes_plain.parquet", dir);
  static const uint8_t key[] = "0123456789012345";
  struct {
    const char *path;
    int with_key, verify_at_open;
    int32_t want;
  } cases[] = {
      {plain_file, 0, 1, PQT_FOOTER_SIGNATURE_NONE},
      {enc_footer, 1, 1, PQT_FOOTER_SIGNATURE_NONE},
      {plain_footer, 0, 1, PQT_FOOTER_SIGNATURE_NO_KEY},
      {plain_footer, 1, 1, PQT_FOOTER_SIGNATURE_VERIFIED},
      {plain_footer, 1, 0, PQT_FOOTER_SIGNATURE_VERIFIED}, /* not at open: now */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pqt_read_options o;
    pqt_read_options_init(&o);
    if (cases[i].with_key) {
      o.footer_key = key;
      o.footer_key_len = 16;
    }
    o.verify_footer_signature = cases[i].verify_at_open;
    pqt_reader *r = NULL;
    pqt_error e;
    CHECK_OK(pqt_reader_open_file(&r, cases[i].path, &o, &e));
    if (!r) continue;
    int32_t state = -1;
    CHECK_OK(pqt_reader_footer_signature(r, &state, &e));
    CHECK_MSG(state == cases[i].want, "case %zu: state %d, want %d", i, (int)state, (int)cases[i].want);
    pqt_reader_close(r);
  }
  /* a signature that does not match: one byte of it flipped, read without the check at open */
  FILE *f = fopen(plain_footer, "rb");
  CHECK(f != NULL);
  if (!f) return;
  static uint8_t buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  CHECK(n > 40 && n < sizeof buf);
  buf[n - 8 - 5] ^= 0x55; /* inside the 28-byte signature before the footer length */
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.footer_key = key;
  o.footer_key_len = 16;
  o.verify_footer_signature = 0;
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, buf, n, &o, NULL));
  if (r) {
    int32_t state = -1;
    pqt_error e;
    CHECK(pqt_reader_footer_signature(r, &state, &e) != PQT_OK);
    CHECK_EQ_INT(state, PQT_FOOTER_SIGNATURE_NONE);
    text t = {{0}, 0};
    int64_t problems = -1;
    CHECK_OK(pqt_reader_verify(r, collect, &t, &problems, NULL));
    CHECK(problems >= 1);
    CHECK_MSG(strstr(t.buf, e.message) != NULL, "want \"%s\" in:\n%s", e.message, t.buf);
    pqt_reader_close(r);
  }
}


/* A chunk whose byte range holds only its dictionary page: no data page to
 * decode, yet its row group has rows. verify judges the chunk as a whole
 * (pqt_page_cursor_check) and names the loss. */
static void test_verify_chunk_without_data_pages(void) {
  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 id; }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, NULL, NULL));
  if (!w) return;
  static int64_t ids[1000];
  for (int i = 0; i < 1000; i++) ids[i] = i % 10;
  CHECK_OK(pqt_writer_write_column(w, 0, 1000, NULL, NULL, ids, NULL, 1000, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, NULL));
  if (!r) return;
  pqt_column_metadata *cm = &r->md.row_groups.items[0].columns.items[0].meta_data;
  CHECK(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0);
  cm->total_compressed_size = cm->data_page_offset - cm->dictionary_page_offset;
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  pqt_test_refooter(file.data, file.len, r->footer_len, &r->md, &out);
  pqt_reader_close(r);
  text t = {{0}, 0};
  CHECK(verify_buf(out.data, out.len, &t) >= 1);
  CHECK_MSG(strstr(t.buf, "row group 0, column id: column chunk holds 0 values but the row group has 1000 rows") != NULL,
            "%s", t.buf);
  pqt_buf_free(&out);
  pqt_string_free(&file);
}

RUN_TESTS("verify", TEST_CASE(test_verify_finds_problems), TEST_CASE(test_verify_checks_bloom_filters),
          TEST_CASE(test_verify_checks_column_index), TEST_CASE(test_verify_column_index_nested_and_truncated),
          TEST_CASE(test_verify_checks_v2_num_nulls), TEST_CASE(test_verify_float16_order_as_written), TEST_CASE(test_page_index_stored),
          TEST_CASE(test_compare_plain), TEST_CASE(test_footer_signature_state),
          TEST_CASE(test_verify_chunk_without_data_pages))
