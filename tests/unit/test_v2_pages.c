/*
 * Data page v2 compression flag (column/column_writer.c): a values section
 * that is empty (a page of only nulls) or that the codec does not shrink
 * is stored as is, with is_compressed = false; one that shrinks is stored
 * compressed. Every file reads back with the values written.
 */
#include <stdlib.h>

#include "file/reader_internal.h"
#include "harness.h"
#include "rng.h"
#include "parquetry.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const int32_t CODECS[] = {PQT_CODEC_SNAPPY, PQT_CODEC_GZIP, PQT_CODEC_BROTLI, PQT_CODEC_ZSTD, PQT_CODEC_LZ4_RAW};
#define N_CODECS (sizeof CODECS / sizeof CODECS[0])

enum { ALL_NULL, RANDOM, REPEATED };

/* One optional INT64 column of `rows` rows, v2 pages of 100 rows, PLAIN. */
static void write_file(pqt_string *out, int32_t codec, int kind, int64_t rows, int64_t *vals, int16_t *def) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = codec;
  o.defaults.page_version = 2;
  o.defaults.dictionary = 0;
  o.defaults.encoding = PQT_ENC_PLAIN;
  o.defaults.page_row_limit = 100;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { optional int64 a; }"};
  uint64_t x = 0x243F6A8885A308D3ull;
  int64_t nv = 0;
  for (int64_t i = 0; i < rows; i++) {
    def[i] = kind != ALL_NULL;
    if (kind == RANDOM) {
      pqt_test_xorshift(&x);
      vals[nv++] = (int64_t)x;
    } else if (kind == REPEATED) {
      vals[nv++] = 42;
    }
  }
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  CHECK_OK(pqt_writer_write_column(w, 0, rows, def, NULL, vals, NULL, nv, &e));
  CHECK_OK(pqt_writer_close(w, &e));
}

/* Walk the chunk's data pages: count them and those with is_compressed. */
static void scan_pages(const pqt_string *file, int *n_pages, int *n_compressed) {
  *n_pages = *n_compressed = 0;
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, &e) != PQT_OK) {
    CHECK_MSG(0, "open: %s", e.message);
    return;
  }
  const pqt_column_metadata *m = &r->md.row_groups.items[0].columns.items[0].meta_data;
  int64_t pos =
      PQT_HAS_FIELD(m, column_metadata, dictionary_page_offset) ? m->dictionary_page_offset : m->data_page_offset;
  int64_t end = pos + m->total_compressed_size;
  const uint8_t *bytes = (const uint8_t *)file->data;
  while (pos < end) {
    pqt_page_header ph;
    size_t used = 0;
    pqt_arena ar;
    pqt_arena_init(&ar, NULL);
    pqt_status st = pqt_thrift_decode(&pqt_desc_page_header, bytes + pos, (size_t)(end - pos), &used, &ar, &ph, NULL);
    pqt_arena_reset(&ar);
    CHECK_OK(st);
    if (st != PQT_OK) break;
    if (ph.type == PQT_PAGE_DATA_V2) {
      (*n_pages)++;
      CHECK(PQT_HAS_FIELD(&ph.data_page_header_v2, data_page_header_v2, is_compressed));
      if (ph.data_page_header_v2.is_compressed) (*n_compressed)++;
      else /* stored as is: levels and values, no codec framing */
        CHECK_EQ_INT(ph.compressed_page_size, ph.uncompressed_page_size);
    }
    pos += (int64_t)used + ph.compressed_page_size;
  }
  CHECK_EQ_INT(pos, end);
  pqt_reader_close(r);
}

/* The column reads back as written (levels and values). */
static void check_read_back(const pqt_string *file, int64_t rows, const int64_t *vals, const int16_t *def) {
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_buffer(&r, file->data, file->len, NULL, &e));
  pqt_column_reader *cr;
  CHECK_OK(pqt_column_reader_open(&cr, r, 0, 0, &e));
  int64_t li = 0, vi = 0;
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  while (pqt_column_reader_next(cr, 333, &b, &e) == PQT_OK && b.n_levels > 0) {
    for (int64_t i = 0; i < b.n_levels; i++) CHECK(li + i < rows && b.def_levels[i] == def[li + i]);
    if (b.n_values > 0) CHECK(memcmp(b.values, vals + vi, (size_t)b.n_values * 8) == 0);
    li += b.n_levels;
    vi += b.n_values;
  }
  CHECK_EQ_INT(li, rows);
  pqt_column_reader_close(cr);
  pqt_reader_close(r);
}

static void run(int kind, int expect_compressed) {
  const int64_t rows = 1000;
  int64_t *vals = calloc((size_t)rows, 8);
  int16_t *def = calloc((size_t)rows, 2);
  for (size_t c = 0; c < N_CODECS; c++) {
    pqt_string out = {0};
    write_file(&out, CODECS[c], kind, rows, vals, def);
    int n_pages, n_compressed;
    scan_pages(&out, &n_pages, &n_compressed);
    CHECK_EQ_INT(n_pages, 10);
    CHECK_MSG(n_compressed == (expect_compressed ? n_pages : 0), "codec %d kind %d: %d of %d pages compressed",
              CODECS[c], kind, n_compressed, n_pages);
    check_read_back(&out, rows, vals, def);
    pqt_string_free(&out);
  }
  free(vals);
  free(def);
}

static void test_all_null_pages_not_compressed(void) { run(ALL_NULL, 0); }
static void test_incompressible_values_not_compressed(void) { run(RANDOM, 0); }
static void test_compressible_values_compressed(void) { run(REPEATED, 1); }

RUN_TESTS("v2_pages", TEST_CASE(test_all_null_pages_not_compressed),
          TEST_CASE(test_incompressible_values_not_compressed), TEST_CASE(test_compressible_values_compressed))
