/*
 * tests/unit/test_meta_stored.c: the "as stored" part of the metadata API
 * (parquetry_meta.h) that `parquetry meta` prints from: row group entries,
 * the footer version, chunk metadata kinds, the _stored accessors (which
 * show an encrypted column's stripped ColumnMetaData without its key where
 * the checked ones give PQT_ECRYPTO), statistics as PLAIN bytes and their
 * text, the dictionary offset as stored, and pqt_double_text. Expected
 * values are those `parquetry meta` printed for the same files before the
 * printer moved onto this API.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"

static pqt_reader *open_corpus(const char *name) {
  const char *dir = pqt_testing_dir();
  if (!dir) return NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  cannot open %s: %s\n", path, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

/* The text of PLAIN bytes of column col equals want. */
static bool plain_text_is(pqt_reader *r, int32_t col, const uint8_t *p, size_t n, const char *want) {
  pqt_string s = {0};
  pqt_error e;
  bool ok = pqt_reader_format_plain(r, col, p, n, &s, &e) == PQT_OK && s.len == strlen(want) &&
            memcmp(s.data, want, s.len) == 0 && s.data[s.len] == '\0';
  if (!ok) fprintf(stderr, "  got '%.*s', want '%s'\n", (int)s.len, s.data ? s.data : "", want);
  pqt_string_free(&s);
  return ok;
}

static void test_row_group_and_footer(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  CHECK_EQ_INT(pqt_reader_footer_version(r), 1);
  pqt_row_group_info g;
  pqt_row_group_info_init(&g);
  CHECK_EQ_INT(g.struct_size, sizeof g);
  CHECK_OK(pqt_reader_row_group(r, 0, &g, &e));
  CHECK_EQ_INT(g.num_rows, 7300);
  CHECK_EQ_INT(g.n_chunks, 13);
  CHECK_EQ_INT(g.n_sorting_columns, 0);
  CHECK(g.total_byte_size > 0);
  CHECK_EQ_INT(pqt_reader_row_group(r, 1, &g, &e), PQT_EINVAL);
  CHECK_EQ_INT(pqt_reader_row_group(r, -1, &g, &e), PQT_EINVAL);
  CHECK_EQ_INT(pqt_reader_chunk_metadata_kind(r, 0, 0), PQT_CHUNK_METADATA_PLAIN);
  CHECK_EQ_INT(pqt_reader_chunk_metadata_kind(r, 0, 13), -1);
  CHECK_EQ_INT(pqt_reader_chunk_metadata_kind(r, 1, 0), -1);
  CHECK(pqt_reader_allocator(r) != NULL);

  /* id: "statistics: min: 0, max: 7299, nulls: 0" from min_value/max_value */
  pqt_chunk_statistics st;
  pqt_chunk_statistics_init(&st);
  CHECK_OK(pqt_reader_chunk_statistics_stored(r, 0, 0, &st, &e));
  CHECK(st.present);
  CHECK(st.min_value_plain && st.n_min_value_plain == 4);
  CHECK(st.max_value_plain && st.n_max_value_plain == 4);
  CHECK(plain_text_is(r, 0, st.min_value_plain, st.n_min_value_plain, "0"));
  CHECK(plain_text_is(r, 0, st.max_value_plain, st.n_max_value_plain, "7299"));
  CHECK(st.n_fields >= 3);
  CHECK_EQ_INT(st.max.i64, 7299);
  /* bytes that are not an INT32: an error, the string left as it was */
  pqt_string s = {0};
  CHECK(pqt_reader_format_plain(r, 0, st.min_value_plain, 3, &s, &e) != PQT_OK);
  CHECK(s.len == 0);
  pqt_string_free(&s);
  /* appending to text already there */
  CHECK_OK(pqt_reader_format_plain(r, 0, st.max_value_plain, 4, &s, &e));
  CHECK_OK(pqt_reader_format_plain(r, 0, st.max_value_plain, 4, &s, &e));
  CHECK(s.len == 8 && memcmp(s.data, "72997299", 8) == 0);
  pqt_string_free(&s);
  CHECK_EQ_INT(pqt_reader_format_plain(r, 99, st.max_value_plain, 4, &s, &e), PQT_EINVAL);

  /* an older caller's struct (before the fields added at the end) still works */
  pqt_chunk_info old;
  pqt_chunk_info_init(&old);
  old.struct_size = offsetof(pqt_chunk_info, stored_dictionary_page_offset);
  old.stored_dictionary_page_offset = 12345;
  CHECK_OK(pqt_reader_chunk(r, 0, 0, &old, &e));
  CHECK_EQ_INT(old.stored_dictionary_page_offset, 12345); /* untouched */
  old.struct_size = offsetof(pqt_chunk_info, stored_dictionary_page_offset) - 1;
  CHECK_EQ_INT(pqt_reader_chunk(r, 0, 0, &old, &e), PQT_EINVAL);
  pqt_reader_close(r);
}

static void test_dictionary_offset_zero(void) {
  /* "dictionary page at 0": the stored field kept, the checked one reads 0 as absent */
  pqt_reader *r = open_corpus("data/dict-page-offset-zero.parquet");
  if (!r) return;
  pqt_error e;
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  CHECK_OK(pqt_reader_chunk_stored(r, 0, 0, &ci, &e));
  CHECK_EQ_INT(ci.stored_dictionary_page_offset, 0);
  CHECK_EQ_INT(ci.dictionary_page_offset, -1);
  CHECK_EQ_INT(ci.data_page_offset, 4);
  CHECK_EQ_INT(ci.num_values, 39);
  pqt_reader_close(r);
}

static void test_legacy_statistics(void) {
  /* datapage_v2: column a (BYTE_ARRAY) has only the deprecated min/max; b (INT32) "min: 1, max: 5 (legacy)" */
  pqt_reader *r = open_corpus("data/datapage_v2.snappy.parquet");
  if (!r) return;
  pqt_error e;
  pqt_chunk_statistics st;
  pqt_chunk_statistics_init(&st);
  CHECK_OK(pqt_reader_chunk_statistics_stored(r, 0, 0, &st, &e));
  CHECK(st.from_legacy);
  CHECK(!st.min_value_plain && !st.max_value_plain);
  CHECK(st.legacy_min_plain && st.legacy_max_plain);
  pqt_chunk_statistics_init(&st);
  CHECK_OK(pqt_reader_chunk_statistics_stored(r, 0, 1, &st, &e));
  CHECK(st.legacy_min_plain && st.legacy_max_plain);
  CHECK(plain_text_is(r, 1, st.legacy_min_plain, st.n_legacy_min_plain, "1"));
  CHECK(plain_text_is(r, 1, st.legacy_max_plain, st.n_legacy_max_plain, "5"));
  CHECK(st.has_null_count && st.null_count == 0);
  pqt_reader_close(r);
}

static void test_encrypted_stripped(void) {
  /* plaintext footer, no keys: double_field's ColumnMetaData is the stripped copy */
  pqt_reader *r = open_corpus("data/encrypt_columns_plaintext_footer.parquet.encrypted");
  if (!r) return;
  pqt_error e;
  int32_t col = pqt_reader_find_column(r, "double_field");
  CHECK(col >= 0);
  CHECK_EQ_INT(pqt_reader_chunk_metadata_kind(r, 0, col), PQT_CHUNK_METADATA_PLAIN);
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  CHECK_EQ_INT(pqt_reader_chunk(r, 0, col, &ci, &e), PQT_ECRYPTO);
  CHECK(strstr(e.message, "double_field") != NULL);
  CHECK_OK(pqt_reader_chunk_stored(r, 0, col, &ci, &e));
  CHECK_EQ_INT(ci.physical, PQT_TYPE_DOUBLE);
  CHECK_EQ_INT(ci.num_values, 50);
  CHECK_EQ_INT(ci.total_compressed_size, 513);
  CHECK_EQ_INT(ci.stored_dictionary_page_offset, 2117);
  CHECK(ci.encrypted);
  pqt_chunk_statistics st;
  pqt_chunk_statistics_init(&st);
  CHECK_EQ_INT(pqt_reader_chunk_statistics(r, 0, col, &st, &e), PQT_ECRYPTO);
  CHECK_OK(pqt_reader_chunk_statistics_stored(r, 0, col, &st, &e));
  CHECK(!st.present); /* "statistics: none" */
  CHECK_EQ_INT(pqt_chunk_kv_count(r, 0, col), -1);
  CHECK_EQ_INT(pqt_chunk_kv_count_stored(r, 0, col), 0);
  pqt_geo_stats g;
  pqt_geo_stats_init(&g);
  CHECK_OK(pqt_reader_chunk_geo_stats_stored(r, 0, col, &g, &e));
  CHECK(!g.present && !g.has_geospatial_types);
  pqt_reader_close(r);
}

static void test_double_text(void) {
  char b[32];
  CHECK_EQ_INT(pqt_double_text(1.5, b, sizeof b), 3);
  CHECK(strcmp(b, "1.5") == 0);
  CHECK(pqt_double_text(-180.0, b, sizeof b) > 0 && strcmp(b, "-180") == 0);
  CHECK(pqt_double_text(0.1, b, sizeof b) > 0 && strcmp(b, "0.1") == 0);
  /* cut to the room given, always terminated */
  CHECK_EQ_INT(pqt_double_text(123456.0, b, 4), 3);
  CHECK(strcmp(b, "123") == 0);
  CHECK_EQ_INT(pqt_double_text(1.0, b, 0), 0);
}

int main(void) {
  if (!pqt_testing_dir()) return 77;
  static const pqt_test_case cases[] = {TEST_CASE(test_row_group_and_footer), TEST_CASE(test_dictionary_offset_zero),
                                        TEST_CASE(test_legacy_statistics), TEST_CASE(test_encrypted_stripped),
                                        TEST_CASE(test_double_text)};
  return pqt_run_tests("meta_stored", cases, sizeof cases / sizeof cases[0]);
}
