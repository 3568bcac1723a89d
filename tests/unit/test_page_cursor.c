/*
 * tests/unit/test_page_cursor.c: the public page walk (pqt_page_cursor,
 * parquetry_meta.h) over corpus files. Expected values are those
 * `parquetry pages --lines` printed for the same files before it was built
 * on this API (main at 7206fa5).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"

static char g_path[1024];

static const char *corpus_path(const char *name) {
  snprintf(g_path, sizeof g_path, "%s/%s", pqt_testing_dir(), name);
  return g_path;
}

static pqt_reader *open_corpus(const char *name, const pqt_read_options *o) {
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, corpus_path(name), o, &e) != PQT_OK) {
    fprintf(stderr, "  cannot open %s: %s\n", g_path, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

/* v1 pages, CRCs: the first page's CRC does not match, the second's does. */
static void test_crc_v1(void) {
  pqt_reader *r = open_corpus("data/datapage_v1-corrupt-checksum.parquet", NULL);
  if (!r) return;
  pqt_error e;
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, 0, &pc, &e));
  CHECK(pqt_page_cursor_file(pc, NULL) == NULL);
  pqt_page_info p;
  pqt_page_info_init(&p);
  int eof = 0;
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(eof, 0);
  CHECK_EQ_INT(p.index, 0);
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DATA_PAGE);
  CHECK_EQ_INT(p.encoding, PQT_ENCODING_PLAIN);
  CHECK_EQ_INT(p.offset, 4);
  CHECK_EQ_INT(p.header_size, 28);
  CHECK_EQ_INT(p.compressed_size, 10240);
  CHECK_EQ_INT(p.uncompressed_size, 10240);
  CHECK_EQ_INT(p.num_values, 2560);
  CHECK_EQ_INT(p.num_nulls, -1);
  CHECK_EQ_INT(p.rep_levels_len, 0);
  CHECK_EQ_INT(p.def_levels_len, 0);
  CHECK_EQ_INT(p.has_crc, 1);
  CHECK_EQ_INT(p.crc_ok, 0);
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.index, 1);
  CHECK_EQ_INT(p.offset, 10272);
  CHECK_EQ_INT(p.crc_ok, 1);
  int n = 2;
  while (pqt_page_cursor_next(pc, &p, &eof, &e) == PQT_OK && !eof) n++;
  CHECK_EQ_INT(eof, 1);
  CHECK(n >= 2);
  pqt_page_cursor_close(pc);
  pqt_reader_close(r);
}

/* v2 pages: dictionary page, nulls/rows, level lengths, typed statistics
 * and the legacy bounds of a byte array column. */
static void test_v2_and_statistics(void) {
  pqt_reader *r = open_corpus("data/datapage_v2.snappy.parquet", NULL);
  if (!r) return;
  pqt_error e;
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, 0, &pc, &e));
  pqt_page_info p;
  pqt_page_info_init(&p);
  int eof = 0;
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DICTIONARY_PAGE);
  CHECK_EQ_INT(p.num_values, 1);
  CHECK_EQ_INT(p.has_statistics, 0);
  CHECK_EQ_INT(p.has_crc, 0);
  CHECK_EQ_INT(p.crc_ok, -1);
  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  CHECK_OK(pqt_page_cursor_statistics(pc, &s, &e));
  CHECK_EQ_INT(s.present, 0);
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DATA_PAGE_V2);
  CHECK_EQ_INT(p.encoding, PQT_ENCODING_RLE_DICTIONARY);
  CHECK_EQ_INT(p.num_values, 5);
  CHECK_EQ_INT(p.num_nulls, 1);
  CHECK_EQ_INT(p.num_rows, 5);
  CHECK_EQ_INT(p.def_levels_len, 2);
  CHECK_EQ_INT(p.has_statistics, 1);
  CHECK_OK(pqt_page_cursor_statistics(pc, &s, &e));
  CHECK_EQ_INT(s.present, 1);
  CHECK_EQ_INT(s.from_legacy, 1);
  CHECK_EQ_INT(s.legacy_order_ok, 0); /* a string column: the old signed order is not its order */
  CHECK_EQ_INT(s.usable_min, 0);
  CHECK_EQ_INT(s.has_null_count, 1);
  CHECK_EQ_INT(s.null_count, 1);
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(eof, 1);
  pqt_page_cursor_close(pc);

  /* column b: INT32, typed bounds 1..5 */
  CHECK_OK(pqt_page_cursor_open(r, 0, 1, &pc, &e));
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DATA_PAGE_V2);
  CHECK_EQ_INT(p.encoding, PQT_ENCODING_DELTA_BINARY_PACKED);
  CHECK_EQ_INT(p.offset, 67);
  CHECK_OK(pqt_page_cursor_statistics(pc, &s, &e));
  CHECK_EQ_INT(s.min.kind, PQT_VALUE_INT64);
  CHECK_EQ_INT(s.min.i64, 1);
  CHECK_EQ_INT(s.max.i64, 5);
  CHECK_EQ_INT(s.null_count, 0);
  pqt_page_cursor_close(pc);

  /* bad indexes */
  CHECK_EQ_INT(pqt_page_cursor_open(r, 1, 0, &pc, &e), PQT_EINVAL);
  CHECK(pc == NULL);
  CHECK_EQ_INT(pqt_page_cursor_open(r, 0, 99, &pc, &e), PQT_EINVAL);
  pqt_reader_close(r);
}

static void test_encrypted(void) {
  const char *name = "data/encrypt_columns_and_footer.parquet.encrypted";
  static const uint8_t footer_key[] = "0123456789012345";
  pqt_column_key keys[2] = {{"double_field", (const uint8_t *)"1234567890123450", 16},
                            {"float_field", (const uint8_t *)"1234567890123451", 16}};
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.footer_key = footer_key;
  o.footer_key_len = 16;
  o.column_keys = keys;
  o.n_column_keys = 1; /* float_field's key left out */
  pqt_reader *r = open_corpus(name, &o);
  if (!r) return;
  pqt_error e;
  int32_t dbl = pqt_reader_find_column(r, "double_field"), flt = pqt_reader_find_column(r, "float_field");
  CHECK(dbl >= 0 && flt >= 0);
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, dbl, &pc, &e));
  pqt_page_info p;
  pqt_page_info_init(&p);
  int eof = 0;
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DICTIONARY_PAGE);
  CHECK_EQ_INT(p.offset, 2117);
  CHECK_EQ_INT(p.compressed_size, 337);
  CHECK_EQ_INT(p.num_values, 50);
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.page_type, PQT_PAGE_KIND_DATA_PAGE);
  CHECK_EQ_INT(p.offset, 2502);
  CHECK_EQ_INT(p.num_values, 50);
  pqt_page_cursor_close(pc);
  /* no key for float_field: PQT_ECRYPTO naming the column */
  CHECK_EQ_INT(pqt_page_cursor_open(r, 0, flt, &pc, &e), PQT_ECRYPTO);
  CHECK(pc == NULL);
  CHECK(strstr(e.message, "float_field") != NULL);
  CHECK_EQ_INT(e.row_group, 0);
  CHECK_EQ_INT(e.column, flt);
  pqt_reader_close(r);
}

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *d = malloc((size_t)len);
  if (d && fread(d, 1, (size_t)len, f) != (size_t)len) {
    free(d);
    d = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return d;
}

/* A page header overwritten with bytes that are no Thrift struct: the
 * pages before it are given, then an error naming row group, column and
 * page; the cursor stays stopped. */
static void test_corrupt_page(void) {
  size_t n = 0;
  unsigned char *d = slurp(corpus_path("data/alltypes_tiny_pages.parquet"), &n);
  CHECK(d != NULL);
  if (!d) return;
  /* pages --lines: column id, page 1 header at offset 113 (19 bytes) */
  CHECK(n > 140);
  memset(d + 113, 0xFF, 19);
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, d, n, NULL, &e));
  if (!r) {
    free(d);
    return;
  }
  int32_t id = pqt_reader_find_column(r, "id");
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, id, &pc, &e));
  pqt_page_info p;
  pqt_page_info_init(&p);
  int eof = 0;
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.index, 0);
  CHECK_EQ_INT(p.offset, 4);
  pqt_status st = pqt_page_cursor_next(pc, &p, &eof, &e);
  CHECK_EQ_INT(st, PQT_ECORRUPT);
  CHECK_MSG(strstr(e.message, "row group 0, column id, page 1") != NULL, "message: %s", e.message);
  CHECK_EQ_INT(e.row_group, 0);
  CHECK_EQ_INT(e.column, id);
  CHECK_EQ_INT(e.page, 1);
  CHECK(pqt_page_cursor_next(pc, &p, &eof, &e) != PQT_OK);
  pqt_page_cursor_close(pc);
  pqt_reader_close(r);
  free(d);
}

/* An older caller's pqt_page_info (before the level lengths) is filled up
 * to its size; a struct_size of 0 is refused. */
static void test_struct_size(void) {
  pqt_reader *r = open_corpus("data/datapage_v2.snappy.parquet", NULL);
  if (!r) return;
  pqt_error e;
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, 1, &pc, &e));
  pqt_page_info p;
  memset(&p, 0, sizeof p);
  int eof = 0;
  CHECK_EQ_INT(pqt_page_cursor_next(pc, &p, &eof, &e), PQT_EINVAL);
  memset(&p, 0xAB, sizeof p);
  p.struct_size = offsetof(pqt_page_info, rep_levels_len);
  CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
  CHECK_EQ_INT(p.offset, 67);
  CHECK_EQ_INT(p.struct_size, offsetof(pqt_page_info, rep_levels_len));
  CHECK(p.rep_levels_len == (int64_t)0xABABABABABABABABull); /* past the caller's size: untouched */
  pqt_page_cursor_close(pc);
  pqt_reader_close(r);
}

int main(void) {
  if (!pqt_testing_dir()) return 77;
  static const pqt_test_case cases[] = {TEST_CASE(test_crc_v1), TEST_CASE(test_v2_and_statistics),
                                        TEST_CASE(test_encrypted), TEST_CASE(test_corrupt_page),
                                        TEST_CASE(test_struct_size)};
  return pqt_run_tests("page_cursor", cases, sizeof cases / sizeof cases[0]);
}
