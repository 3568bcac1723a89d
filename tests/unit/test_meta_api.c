/*
 * tests/unit/test_meta_api.c: the metadata API (parquetry_meta.h) over
 * corpus files. Expected values were read from `parquetry meta --json` and
 * `parquetry cat` of the same files (base64 statistics decoded by hand:
 * alltypes_tiny_pages id max_value "gxwAAA==" = 7299, float_col max
 * "ZmYeQQ==" = 9.9f, double_col max "mZmZmZm5VkA=" = 90.89999999999999).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"

static char g_path[1024];

static pqt_reader *open_corpus(const char *name) {
  const char *dir = pqt_testing_dir();
  if (!dir) return NULL;
  snprintf(g_path, sizeof g_path, "%s/%s", dir, name);
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, g_path, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  cannot open %s: %s\n", g_path, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

static pqt_status pqt_error_set_for_test(pqt_error *err) {
  if (err) {
    pqt_error_init(err);
    err->code = PQT_EIO;
    snprintf(err->message, sizeof err->message, "read past the end");
  }
  return PQT_EIO;
}

static bool bytes_eq(const uint8_t *p, size_t n, const char *s) { return n == strlen(s) && memcmp(p, s, n) == 0; }

static void test_kv_and_schema(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  CHECK_EQ_INT(pqt_reader_kv_count(r), 1);
  pqt_kv kv;
  pqt_kv_init(&kv);
  CHECK_OK(pqt_reader_kv(r, 0, &kv, &e));
  CHECK(bytes_eq((const uint8_t *)kv.key, kv.key_len, "writer.model.name"));
  CHECK(kv.value && bytes_eq((const uint8_t *)kv.value, kv.value_len, "2.1.1-cdh6.x-SNAPSHOT"));
  CHECK_EQ_INT(pqt_reader_kv(r, 1, &kv, &e), PQT_EINVAL);
  CHECK_EQ_INT(pqt_chunk_kv_count(r, 0, 0), 0);

  CHECK_EQ_INT(pqt_reader_schema_node_count(r), 14);
  pqt_schema_info s;
  pqt_schema_info_init(&s);
  CHECK_OK(pqt_reader_schema_node(r, 0, &s, &e));
  CHECK_EQ_STR(s.name, "hive_schema");
  CHECK_EQ_INT(s.repetition, PQT_REPETITION_NONE);
  CHECK_EQ_INT(s.n_children, 13);
  CHECK_EQ_INT(s.is_leaf, 0);
  int32_t tiny = pqt_reader_find_column(r, "tinyint_col");
  CHECK_EQ_INT(tiny, 2);
  int32_t node = pqt_reader_column_node(r, tiny);
  CHECK_EQ_INT(node, 3);
  CHECK_EQ_INT(pqt_reader_schema_child(r, 0, 2), node);
  CHECK_OK(pqt_reader_schema_node(r, node, &s, &e));
  CHECK_EQ_STR(s.name, "tinyint_col");
  CHECK_EQ_STR(s.path, "tinyint_col");
  CHECK_EQ_INT(s.parent, 0);
  CHECK_EQ_INT(s.physical, PQT_TYPE_INT32);
  CHECK_EQ_INT(s.repetition, PQT_REPETITION_OPTIONAL);
  CHECK_EQ_INT(s.logical, PQT_LOGICAL_INTEGER);
  CHECK_EQ_INT(s.bit_width, 8);
  CHECK_EQ_INT(s.is_signed, 1);
  CHECK_EQ_INT(s.max_def, 1);
  CHECK_EQ_INT(s.max_rep, 0);
  CHECK_EQ_INT(s.column, 2);
  CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, 9), &s, &e));
  CHECK_EQ_STR(s.path, "string_col");
  CHECK_EQ_INT(s.logical, PQT_LOGICAL_STRING);
  CHECK_EQ_INT(pqt_reader_find_column(r, "no_such"), -1);
  CHECK_EQ_INT(pqt_reader_schema_node(r, 14, &s, &e), PQT_EINVAL);
  /* a struct that was not initialised is refused, not overrun */
  pqt_schema_info bad;
  memset(&bad, 0, sizeof bad);
  CHECK_EQ_INT(pqt_reader_schema_node(r, 0, &bad, &e), PQT_EINVAL);
  pqt_reader_close(r);
}

static void test_chunk_and_statistics(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  pqt_chunk_info c;
  pqt_chunk_info_init(&c);
  CHECK_OK(pqt_reader_chunk(r, 0, 0, &c, &e));
  CHECK_EQ_INT(c.physical, PQT_TYPE_INT32);
  CHECK_EQ_INT(c.num_values, 7300);
  CHECK_EQ_INT(c.data_page_offset, 4);
  CHECK_EQ_INT(c.total_compressed_size, 37325);
  CHECK_EQ_INT(c.dictionary_page_offset, -1);
  CHECK_EQ_INT(c.column_index_offset, 323583);
  CHECK_EQ_INT(c.n_encoding_stats, 1);
  CHECK_EQ_INT(c.all_data_pages_dictionary, 0);
  pqt_encoding_stat es;
  pqt_encoding_stat_init(&es);
  CHECK_OK(pqt_chunk_encoding_stats(r, 0, 0, 0, &es, &e));
  CHECK_EQ_INT(es.page_type, PQT_PAGE_KIND_DATA_PAGE);
  CHECK_EQ_INT(es.encoding, PQT_ENCODING_PLAIN);
  CHECK_EQ_INT(es.count, 325);
  CHECK_OK(pqt_reader_chunk(r, 0, 2, &c, &e));
  CHECK_EQ_INT(c.all_data_pages_dictionary, 1);
  CHECK_EQ_STR(pqt_encoding_name(PQT_ENCODING_RLE_DICTIONARY), "RLE_DICTIONARY");
  CHECK_EQ_STR(pqt_compression_name(PQT_CODEC_ZSTD), "ZSTD");
  CHECK_EQ_INT(pqt_reader_chunk(r, 1, 0, &c, &e), PQT_EINVAL);
  CHECK_EQ_INT(pqt_reader_chunk(r, 0, 13, &c, &e), PQT_EINVAL);

  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 0, &s, &e)); /* id */
  CHECK_EQ_INT(s.present, 1);
  CHECK_EQ_INT(s.min.kind, PQT_VALUE_INT64);
  CHECK_EQ_INT(s.min.i64, 0);
  CHECK_EQ_INT(s.max.i64, 7299);
  CHECK_EQ_INT(s.usable_min, 1);
  CHECK_EQ_INT(s.usable_max, 1);
  CHECK_EQ_INT(s.from_legacy, 0);
  CHECK_EQ_INT(s.has_null_count, 1);
  CHECK_EQ_INT(s.null_count, 0);
  CHECK_EQ_INT(s.column_order, PQT_COLUMN_ORDER_TYPE_DEFINED);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 6, &s, &e)); /* float_col */
  CHECK_EQ_INT(s.max.kind, PQT_VALUE_DOUBLE);
  CHECK(s.max.f64 == (double)9.9f);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 7, &s, &e));  /* double_col */
  CHECK(s.max.f64 == 90.89999999999999);                   /* bits 0x4056B99999999999 */
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 11, &s, &e)); /* year */
  CHECK_EQ_INT(s.min.i64, 2009);
  CHECK_EQ_INT(s.max.i64, 2010);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 9, &s, &e)); /* string_col */
  CHECK_EQ_INT(s.min.kind, PQT_VALUE_STRING);
  CHECK(bytes_eq(s.min.bytes, s.min.n_bytes, "0"));
  CHECK(bytes_eq(s.max.bytes, s.max.n_bytes, "9"));
  CHECK_EQ_INT(s.usable_max, 1);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 10, &s, &e)); /* timestamp_col: INT96, only a null count */
  CHECK_EQ_INT(s.present, 1);
  CHECK_EQ_INT(s.min.kind, PQT_VALUE_NONE);
  CHECK_EQ_INT(s.usable_min, 0);
  CHECK_EQ_INT(s.has_null_count, 1);

  /* canonical text of typed values */
  pqt_string t = {0};
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 7, &s, &e));
  CHECK_OK(pqt_reader_format_value(r, 7, &s.max, &t, &e));
  CHECK_EQ_STR(t.data, "90.89999999999999");
  pqt_string_free(&t);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, 9, &s, &e));
  CHECK_OK(pqt_reader_format_value(r, 9, &s.max, &t, &e));
  CHECK_EQ_STR(t.data, "\"9\"");
  pqt_string_free(&t);

  pqt_size_stats z;
  pqt_size_stats_init(&z);
  CHECK_OK(pqt_reader_chunk_size_stats(r, 0, 0, &z, &e));
  CHECK_EQ_INT(z.present, 0);
  pqt_geo_stats g;
  pqt_geo_stats_init(&g);
  CHECK_OK(pqt_reader_chunk_geo_stats(r, 0, 0, &g, &e));
  CHECK_EQ_INT(g.present, 0);
  pqt_reader_close(r);
}

static void test_parse_and_format(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  pqt_value v;
  pqt_value_init(&v);
  pqt_string store = {0}, t = {0};
  CHECK_OK(pqt_reader_parse_value(r, 11, "2009", &v, &store, &e));
  CHECK_EQ_INT(v.kind, PQT_VALUE_INT64);
  CHECK_EQ_INT(v.i64, 2009);
  CHECK_EQ_INT(pqt_reader_parse_value(r, 11, "20x9", &v, &store, &e), PQT_EINVAL);
  CHECK(strstr(e.message, "year") != NULL);
  CHECK_EQ_INT(pqt_reader_parse_value(r, 2, "99999999999", &v, &store, &e), PQT_EINVAL);
  /* INT96 reads as a timestamp in nanoseconds, not adjusted to UTC */
  CHECK_OK(pqt_reader_parse_value(r, 10, "2009-01-01T00:01:00", &v, &store, &e));
  CHECK_EQ_INT(v.kind, PQT_VALUE_TIMESTAMP);
  CHECK_EQ_INT(v.unit, PQT_UNIT_NANOS);
  CHECK_EQ_INT(v.i64, 1230768060LL * 1000000000LL);
  CHECK_OK(pqt_reader_format_value(r, 10, &v, &t, &e));
  CHECK_EQ_STR(t.data, "\"2009-01-01T00:01:00.000000000\"");
  pqt_string_free(&t);
  CHECK_OK(pqt_reader_parse_value(r, 6, "NaN", &v, &store, &e));
  CHECK(isnan(v.f64));
  CHECK_OK(pqt_reader_format_value(r, 6, &v, &t, &e));
  CHECK_EQ_STR(t.data, "\"NaN\"");
  pqt_string_free(&t);
  CHECK_OK(pqt_reader_parse_value(r, 8, "hex:3031", &v, &store, &e)); /* STRING: taken as text */
  CHECK_EQ_INT(v.kind, PQT_VALUE_STRING);
  CHECK_EQ_INT(v.n_bytes, 8);
  pqt_string_free(&store);
  pqt_reader_close(r);
}

static void test_page_index(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_OK(pqt_reader_page_index(r, 0, 9, &pi, &e)); /* string_col */
  CHECK_EQ_INT(pi.has_column_index, 1);
  CHECK_EQ_INT(pi.has_offset_index, 1);
  CHECK_EQ_INT(pi.n_pages, 352);
  CHECK_EQ_INT(pi.n_locations, 352);
  CHECK_EQ_INT(pi.boundary_order, PQT_BOUNDARY_ORDER_ASCENDING);
  CHECK_EQ_INT(pi.page_offsets[0], 167138);
  CHECK_EQ_INT(pi.compressed_page_sizes[0], 37);
  CHECK_EQ_INT(pi.first_row_indexes[0], 0);
  CHECK_EQ_INT(pi.first_row_indexes[1], 21);
  CHECK_EQ_INT(pi.page_offsets[1], 167175);
  CHECK_EQ_INT(pi.null_pages[0], 0);
  CHECK_EQ_INT(pi.min_values[0].kind, PQT_VALUE_STRING);
  CHECK(bytes_eq(pi.min_values[0].bytes, pi.min_values[0].n_bytes, "0"));
  CHECK(bytes_eq(pi.max_values[0].bytes, pi.max_values[0].n_bytes, "9"));
  CHECK(pi.null_counts && pi.null_counts[0] == 0);
  CHECK_EQ_INT(pi.usable_bounds, 1);
  /* first rows go up, the last page starts before the row count */
  bool up = true;
  for (int32_t i = 1; i < pi.n_locations; i++) up = up && pi.first_row_indexes[i] > pi.first_row_indexes[i - 1];
  CHECK(up);
  CHECK(pi.first_row_indexes[pi.n_locations - 1] < 7300);
  pqt_page_index_free(&pi);
  CHECK(pi.min_values == NULL);
  pqt_page_index_free(&pi); /* twice is harmless */
  /* id pages: each min <= max, and over all pages the chunk's 0 and 7299 */
  CHECK_OK(pqt_reader_page_index(r, 0, 0, &pi, &e));
  CHECK(pi.n_pages > 2);
  CHECK_EQ_INT(pi.min_values[0].i64, 122); /* as `parquetry column-index -c id` prints */
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int32_t i = 0; i < pi.n_pages; i++) {
    CHECK(pi.min_values[i].i64 <= pi.max_values[i].i64);
    if (pi.min_values[i].i64 < lo) lo = pi.min_values[i].i64;
    if (pi.max_values[i].i64 > hi) hi = pi.max_values[i].i64;
  }
  CHECK_EQ_INT(lo, 0);
  CHECK_EQ_INT(hi, 7299);
  pqt_page_index_free(&pi);
  /* timestamp_col has no ColumnIndex (INT96 has no order) */
  CHECK_OK(pqt_reader_page_index(r, 0, 10, &pi, &e));
  CHECK_EQ_INT(pi.has_column_index, 0);
  CHECK(pi.min_values == NULL);
  pqt_page_index_free(&pi);
  pqt_reader_close(r);
}

static void test_dictionary(void) {
  pqt_reader *r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  pqt_error e;
  struct ArrowArray a;
  struct ArrowSchema sc;
  CHECK_OK(pqt_reader_dictionary(r, 0, 9, &a, &sc, &e)); /* string_col: "0".."9" */
  CHECK(a.release != NULL && sc.release != NULL);
  if (a.release && sc.release) {
    CHECK_EQ_STR(sc.format, "u");
    CHECK_EQ_STR(sc.name, "string_col");
    CHECK_EQ_INT(a.length, 10);
    CHECK_EQ_INT(a.null_count, 0);
    CHECK_EQ_INT(a.n_buffers, 3);
    const int32_t *off = a.buffers[1];
    const char *data = a.buffers[2];
    int seen = 0;
    for (int64_t i = 0; i < a.length; i++) {
      CHECK_EQ_INT(off[i + 1] - off[i], 1);
      seen |= 1 << (data[off[i]] - '0');
    }
    CHECK_EQ_INT(seen, 0x3FF);
  }
  pqt_reader_close(r); /* the array outlives the reader */
  if (a.release) a.release(&a);
  if (sc.release) sc.release(&sc);

  r = open_corpus("data/alltypes_tiny_pages.parquet");
  if (!r) return;
  CHECK_OK(pqt_reader_dictionary(r, 0, 2, &a, &sc, &e)); /* tinyint_col as int8 */
  if (a.release) {
    CHECK_EQ_STR(sc.format, "c");
    CHECK_EQ_INT(a.length, 10);
    const int8_t *v = a.buffers[1];
    int seen = 0;
    for (int64_t i = 0; i < a.length; i++) seen |= 1 << v[i];
    CHECK_EQ_INT(seen, 0x3FF);
    a.release(&a);
    sc.release(&sc);
  }
  /* id is PLAIN: no dictionary page */
  CHECK_OK(pqt_reader_dictionary(r, 0, 0, &a, &sc, &e));
  CHECK(a.release == NULL && sc.release == NULL);

  pqt_dictionary d;
  pqt_dictionary_init(&d);
  CHECK_OK(pqt_reader_dictionary_values(r, 0, 11, &d, &e)); /* year */
  CHECK_EQ_INT(d.present, 1);
  CHECK_EQ_INT(d.n_values, 2);
  if (d.n_values == 2) {
    CHECK_EQ_INT(d.values[0].kind, PQT_VALUE_INT64);
    CHECK_EQ_INT(d.values[0].i64 + d.values[1].i64, 2009 + 2010);
  }
  pqt_dictionary_free(&d);
  CHECK_OK(pqt_reader_dictionary_values(r, 0, 0, &d, &e));
  CHECK_EQ_INT(d.present, 0);
  pqt_dictionary_free(&d);
  pqt_reader_close(r);
}

/* Every value of the column tests positive; some absent values do not. */
static void check_bloom_file(const char *name) {
  pqt_reader *r = open_corpus(name);
  if (!r) return;
  pqt_error e;
  int32_t col = pqt_reader_find_column(r, "String");
  CHECK_EQ_INT(col, 0);
  pqt_chunk_info c;
  pqt_chunk_info_init(&c);
  CHECK_OK(pqt_reader_chunk(r, 0, col, &c, &e));
  CHECK(c.bloom_filter_offset > 0);
  pqt_column_reader *cr;
  CHECK_OK(pqt_column_reader_open(&cr, r, 0, col, &e));
  int64_t n_present = 0;
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  while (pqt_column_reader_next(cr, 1024, &b, &e) == PQT_OK && b.n_levels > 0) {
    for (int64_t i = 0; i < b.n_values; i++) {
      pqt_value v;
      pqt_value_init(&v);
      v.kind = PQT_VALUE_STRING;
      v.bytes = (const uint8_t *)b.values + b.offsets[i];
      v.n_bytes = (size_t)(b.offsets[i + 1] - b.offsets[i]);
      int might = 0;
      CHECK_OK(pqt_bloom_might_contain(r, 0, col, &v, &might, &e));
      CHECK_MSG(might == 1, "value %.*s", (int)v.n_bytes, (const char *)v.bytes);
      n_present++;
    }
  }
  pqt_column_reader_close(cr);
  CHECK_EQ_INT(n_present, 14);
  static const char *absent[] = {"foo", "bar", "Hello!", "hello", "parquet", "xyzzy", "0", "cat"};
  int n_not = 0;
  for (size_t k = 0; k < sizeof absent / sizeof absent[0]; k++) {
    pqt_value v;
    pqt_string store = {0};
    pqt_value_init(&v);
    CHECK_OK(pqt_reader_parse_value(r, col, absent[k], &v, &store, &e));
    int might = 1;
    CHECK_OK(pqt_bloom_might_contain(r, 0, col, &v, &might, &e));
    n_not += might == 0;
    pqt_string_free(&store);
  }
  CHECK_MSG(n_not >= 1, "%d of 8 absent values said definitely not", n_not);
  /* a value of the wrong kind is refused */
  pqt_value v;
  pqt_value_init(&v);
  v.kind = PQT_VALUE_DOUBLE;
  int might;
  CHECK_EQ_INT(pqt_bloom_might_contain(r, 0, col, &v, &might, &e), PQT_EINVAL);
  pqt_reader_close(r);
}

static void test_bloom(void) {
  check_bloom_file("data/data_index_bloom_encoding_stats.parquet");
  check_bloom_file("data/data_index_bloom_encoding_with_length.parquet");
}

/* A chunk encrypted with a key that was not given: PQT_ECRYPTO naming it. */
static void test_encrypted_without_key(void) {
  pqt_reader *r = open_corpus("data/encrypt_columns_plaintext_footer.parquet.encrypted");
  if (!r) return;
  pqt_error e;
  int32_t col = pqt_reader_find_column(r, "double_field");
  CHECK(col >= 0);
  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  CHECK_EQ_INT(pqt_reader_chunk_statistics(r, 0, col, &s, &e), PQT_ECRYPTO);
  CHECK(strstr(e.message, "double_field") != NULL);
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_EQ_INT(pqt_reader_page_index(r, 0, col, &pi, &e), PQT_ECRYPTO);
  CHECK(strstr(e.message, "double_field") != NULL);
  struct ArrowArray a;
  struct ArrowSchema sc;
  CHECK_EQ_INT(pqt_reader_dictionary(r, 0, col, &a, &sc, &e), PQT_ECRYPTO);
  CHECK(a.release == NULL);
  /* a plaintext column of the same file reads */
  int32_t b = pqt_reader_find_column(r, "boolean_field");
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, b, &s, &e));
  pqt_reader_close(r);
}

/* With the keys, the encrypted page index and Bloom filter decrypt. */
static void test_encrypted_with_keys(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  snprintf(g_path, sizeof g_path, "%s/data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted", dir);
  static const uint8_t fk[] = "0123456789012345", k1[] = "1234567890123450", k2[] = "1234567890123451";
  pqt_column_key keys[2] = {{"double_field", k1, 16}, {"float_field", k2, 16}};
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.footer_key = fk;
  o.footer_key_len = 16;
  o.column_keys = keys;
  o.n_column_keys = 2;
  pqt_reader *r;
  pqt_error e;
  if (pqt_reader_open_file(&r, g_path, &o, &e) != PQT_OK) {
    fprintf(stderr, "  %s: %s\n", g_path, e.message);
    CHECK(0);
    return;
  }
  int32_t col = pqt_reader_find_column(r, "double_field");
  pqt_chunk_info c;
  pqt_chunk_info_init(&c);
  CHECK_OK(pqt_reader_chunk(r, 0, col, &c, &e));
  CHECK_EQ_INT(c.encrypted, 1);
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_OK(pqt_reader_page_index(r, 0, col, &pi, &e));
  CHECK_EQ_INT(pi.has_column_index, 1);
  CHECK_EQ_INT(pi.has_offset_index, 1);
  CHECK(pi.n_pages > 0);
  pqt_page_index_free(&pi);
  CHECK(c.bloom_filter_offset > 0);
  {
    /* every value of the column might be contained */
    pqt_column_reader *cr;
    CHECK_OK(pqt_column_reader_open(&cr, r, 0, col, &e));
    pqt_column_batch b;
    pqt_column_batch_init(&b);
    int64_t n = 0;
    while (pqt_column_reader_next(cr, 1024, &b, &e) == PQT_OK && b.n_levels > 0) {
      for (int64_t i = 0; i < b.n_values; i++) {
        double d;
        memcpy(&d, (const uint8_t *)b.values + 8 * i, 8);
        pqt_value v;
        pqt_value_init(&v);
        v.kind = PQT_VALUE_DOUBLE;
        v.f64 = d;
        int might = 0;
        CHECK_OK(pqt_bloom_might_contain(r, 0, col, &v, &might, &e));
        CHECK(might == 1);
        n++;
      }
    }
    pqt_column_reader_close(cr);
    CHECK(n > 0);
  }
  pqt_reader_close(r);
}

/* GeospatialStatistics, SizeStatistics and GEOMETRY's CRS (geospatial/ of the corpus). */
static void test_geospatial(void) {
  pqt_reader *r = open_corpus("data/geospatial/geospatial-with-nan.parquet");
  if (!r) return;
  pqt_error e;
  int32_t col = pqt_reader_find_column(r, "geometry");
  CHECK(col >= 0);
  pqt_geo_stats g;
  pqt_geo_stats_init(&g);
  CHECK_OK(pqt_reader_chunk_geo_stats(r, 0, col, &g, &e));
  CHECK_EQ_INT(g.present, 1);
  CHECK_EQ_INT(g.has_bbox, 1);
  CHECK(g.xmin == 10 && g.xmax == 130 && g.ymin == 20 && g.ymax == 140);
  CHECK(g.has_z && g.zmin == 30 && g.zmax == 150);
  CHECK(g.has_m && g.mmin == 40 && g.mmax == 160);
  CHECK_EQ_INT(g.n_geospatial_types, 2);
  if (g.n_geospatial_types == 2) {
    CHECK_EQ_INT(g.geospatial_types[0], 3001);
    CHECK_EQ_INT(g.geospatial_types[1], 3002);
  }
  pqt_size_stats z;
  pqt_size_stats_init(&z);
  CHECK_OK(pqt_reader_chunk_size_stats(r, 0, col, &z, &e));
  CHECK_EQ_INT(z.present, 1);
  CHECK_EQ_INT(z.has_unencoded_byte_array_data_bytes, 1);
  CHECK_EQ_INT(z.unencoded_byte_array_data_bytes, 179);
  CHECK_EQ_INT(z.n_repetition_level_histogram, 0);
  CHECK_EQ_INT(z.n_definition_level_histogram, 2);
  if (z.n_definition_level_histogram == 2) {
    CHECK_EQ_INT(z.definition_level_histogram[0], 0);
    CHECK_EQ_INT(z.definition_level_histogram[1], 3);
  }
  pqt_schema_info s;
  pqt_schema_info_init(&s);
  CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, col), &s, &e));
  CHECK_EQ_INT(s.logical, PQT_LOGICAL_GEOMETRY);
  pqt_reader_close(r);

  r = open_corpus("data/geospatial/crs-srid.parquet");
  if (!r) return;
  col = pqt_reader_find_column(r, "geometry");
  CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, col), &s, &e));
  CHECK_EQ_INT(s.logical, PQT_LOGICAL_GEOMETRY);
  CHECK(s.crs && bytes_eq((const uint8_t *)s.crs, s.crs_len, "srid:5070"));
  /* geometry has no sort order: its bounds never prune */
  pqt_chunk_statistics st;
  pqt_chunk_statistics_init(&st);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, col, &st, &e));
  CHECK_EQ_INT(st.usable_min, 0);
  CHECK_EQ_INT(st.usable_max, 0);
  pqt_reader_close(r);
}

/* Every logical type through the writer and back: typed statistics, their
 * canonical text, text -> value -> text, Bloom probes of every value. */
static const char *TYPES_SCHEMA =
    "message m {\n"
    "  required int32 i8 (INTEGER(8,true));\n"
    "  required int32 u32 (INTEGER(32,false));\n"
    "  required int64 u64 (INTEGER(64,false));\n"
    "  required int32 d (DATE);\n"
    "  required int32 t_ms (TIME(MILLIS,true));\n"
    "  required int64 ts_us (TIMESTAMP(MICROS,true));\n"
    "  required int64 ts_ns (TIMESTAMP(NANOS,false));\n"
    "  required int32 dec32 (DECIMAL(9,2));\n"
    "  required fixed_len_byte_array(16) dec_flba (DECIMAL(30,3));\n"
    "  required binary dec_ba (DECIMAL(20,2));\n"
    "  required fixed_len_byte_array(16) id (UUID);\n"
    "  required fixed_len_byte_array(2) h (FLOAT16);\n"
    "  required double x;\n"
    "  required binary s (STRING);\n"
    "  required boolean b;\n"
    "}\n";

typedef struct type_case {
  const char *col;
  const char *min_text, *max_text; /* canonical JSON text of the bounds */
  const char *values[3];           /* the three values as text (parse input) */
  const char *absent;              /* a value not in the column */
} type_case;

static const type_case TYPE_CASES[] = {
    {"i8", "-5", "7", {"-5", "0", "7"}, "6"},
    {"u32", "1", "4000000000", {"1", "4000000000", "2"}, "3"},
    {"u64", "1", "18000000000000000000", {"1", "18000000000000000000", "5"}, "6"},
    {"d", "\"1969-12-31\"", "\"2022-01-08\"", {"1970-01-01", "2022-01-08", "1969-12-31"}, "2000-01-01"},
    {"t_ms", "\"00:00:00.000\"", "\"12:34:56.789\"", {"00:00:00.000", "01:00:00", "12:34:56.789"}, "01:00:01"},
    {"ts_us",
     "\"1969-12-31T23:59:59.999999Z\"",
     "\"2023-11-14T22:13:20.123456Z\"",
     {"1970-01-01T00:00:00Z", "2023-11-14T22:13:20.123456Z", "1969-12-31T23:59:59.999999Z"},
     "2000-01-01T00:00:00Z"},
    {"ts_ns",
     "\"1970-01-01T00:00:00.000000001\"",
     "\"1970-01-01T00:00:00.000000005\"",
     {"1970-01-01T00:00:00.000000005", "1970-01-01T00:00:00.000000001", "1970-01-01T00:00:00.000000003"},
     "1970-01-01T00:00:00.000000002"},
    {"dec32", "\"-1.50\"", "\"123.45\"", {"-1.50", "123.45", "0"}, "1"},
    {"dec_flba", "\"-1.000\"", "\"123456.789\"", {"-1", "123456.789", "0.000"}, "2"},
    {"dec_ba", "\"-0.25\"", "\"9999.99\"", {"1.00", "-0.25", "9999.99"}, "2"},
    {"id",
     "\"00010203-0405-0607-0809-0a0b0c0d0e0f\"",
     "\"ffeeddcc-bbaa-9988-7766-554433221100\"",
     {"00010203-0405-0607-0809-0a0b0c0d0e0f", "ffeeddcc-bbaa-9988-7766-554433221100",
      "10000000-0000-0000-0000-000000000001"},
     "20000000-0000-0000-0000-000000000002"},
    {"h", "-2", "1", {"1", "-2", "0.5"}, "3"},
    {"x", "-0.25", "1.5", {"1.5", "-0.25", "NaN"}, "2.5"},
    {"s", "\"a\"", "\"c\"", {"b", "a", "c"}, "d"},
    {"b", "false", "true", {"true", "false", "true"}, NULL},
};

static void put_be(uint8_t *p, size_t w, int64_t v) {
  for (size_t i = 0; i < w; i++) p[w - 1 - i] = i < 8 ? (uint8_t)((uint64_t)v >> (8 * i)) : (uint8_t)(v < 0 ? 0xFF : 0);
}

static pqt_reader *write_types_file(pqt_string *file) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.bloom_filter = 1;
  o.defaults.bloom_ndv = 16;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = TYPES_SCHEMA};
  pqt_writer *w;
  pqt_error e;
  memset(file, 0, sizeof *file);
  if (pqt_writer_open_buffer(&w, file, &ws, &o, &e) != PQT_OK) {
    fprintf(stderr, "  writer: %s\n", e.message);
    CHECK(0);
    return NULL;
  }
  int32_t i32[3];
  int64_t i64[3];
  uint8_t fl[3 * 16];
  int c = 0;
  pqt_status st = PQT_OK;
#define W32(a, b, cc)                        \
  i32[0] = (a), i32[1] = (b), i32[2] = (cc); \
  if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, i32, NULL, 3, &e)
#define W64(a, b, cc)                                                   \
  i64[0] = (int64_t)(a), i64[1] = (int64_t)(b), i64[2] = (int64_t)(cc); \
  if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, i64, NULL, 3, &e)
  W32(-5, 0, 7);
  W32(1, (int32_t)4000000000u, 2);
  W64(1, 18000000000000000000ull, 5);
  W32(0, 19000, -1);
  W32(0, 3600000, 45296789);
  W64(0, 1700000000123456LL, -1);
  W64(5, 1, 3);
  W32(-150, 12345, 0);
  put_be(fl, 16, -1000);
  put_be(fl + 16, 16, 123456789);
  put_be(fl + 32, 16, 0);
  if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, fl, NULL, 3, &e);
  {
    /* minimal big-endian two's complement: 100, -25, 999999 */
    static const uint8_t ba[] = {0x64, 0xE7, 0x0F, 0x42, 0x3F};
    static const int32_t off[] = {0, 1, 2, 5};
    if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, ba, off, 3, &e);
  }
  for (int i = 0; i < 16; i++) {
    fl[i] = (uint8_t)i;
    fl[16 + i] = (uint8_t)(0xFF - 0x11 * i);
    fl[32 + i] = 0;
  }
  fl[32] = 0x10;
  fl[47] = 1;
  if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, fl, NULL, 3, &e);
  {
    static const uint8_t h[] = {0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38}; /* 1, -2, 0.5 */
    if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, h, NULL, 3, &e);
  }
  {
    double x[3] = {1.5, -0.25, NAN};
    if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, x, NULL, 3, &e);
  }
  {
    static const int32_t off[] = {0, 1, 2, 3};
    if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, "bac", off, 3, &e);
  }
  {
    static const uint8_t b[] = {1, 0, 1};
    if (st == PQT_OK) st = pqt_writer_write_column(w, c++, 3, NULL, NULL, b, NULL, 3, &e);
  }
#undef W32
#undef W64
  if (st == PQT_OK) st = pqt_writer_close(w, &e);
  else pqt_writer_discard(w);
  if (st != PQT_OK) {
    fprintf(stderr, "  write: %s\n", e.message);
    CHECK(0);
    pqt_string_free(file);
    return NULL;
  }
  pqt_reader *r;
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  open: %s\n", e.message);
    CHECK(0);
    pqt_string_free(file);
    return NULL;
  }
  return r;
}

static void test_every_type(void) {
  pqt_string file;
  pqt_reader *r = write_types_file(&file);
  if (!r) return;
  pqt_error e;
  int n_absent_not = 0;
  for (size_t k = 0; k < sizeof TYPE_CASES / sizeof TYPE_CASES[0]; k++) {
    const type_case *tc = &TYPE_CASES[k];
    int32_t col = pqt_reader_find_column(r, tc->col);
    CHECK_MSG(col == (int32_t)k, "%s", tc->col);
    if (col < 0) continue;
    pqt_chunk_statistics s;
    pqt_chunk_statistics_init(&s);
    CHECK_OK(pqt_reader_chunk_statistics(r, 0, col, &s, &e));
    CHECK_MSG(s.usable_min && s.usable_max, "%s: bounds not usable", tc->col);
    pqt_string t = {0};
    if (pqt_reader_format_value(r, col, &s.min, &t, &e) == PQT_OK) CHECK_EQ_STR(t.data, tc->min_text);
    else CHECK_MSG(0, "%s: format min: %s", tc->col, e.message);
    pqt_string_free(&t);
    if (pqt_reader_format_value(r, col, &s.max, &t, &e) == PQT_OK) CHECK_EQ_STR(t.data, tc->max_text);
    else CHECK_MSG(0, "%s: format max: %s", tc->col, e.message);
    pqt_string_free(&t);
    /* the same bounds in the column index */
    pqt_page_index pi;
    pqt_page_index_init(&pi);
    CHECK_OK(pqt_reader_page_index(r, 0, col, &pi, &e));
    CHECK_EQ_INT(pi.n_pages, 1);
    if (pi.n_pages == 1) {
      CHECK_OK(pqt_reader_format_value(r, col, &pi.max_values[0], &t, &e));
      CHECK_EQ_STR(t.data, tc->max_text);
      pqt_string_free(&t);
    }
    pqt_page_index_free(&pi);
    /* each value parses, probes positive and formats back to what the bounds show */
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    CHECK_OK(pqt_reader_chunk(r, 0, col, &ci, &e));
    for (int i = 0; i < 3; i++) {
      pqt_value v;
      pqt_string store = {0};
      pqt_value_init(&v);
      pqt_status st = pqt_reader_parse_value(r, col, tc->values[i], &v, &store, &e);
      CHECK_MSG(st == PQT_OK, "%s: parse '%s': %s", tc->col, tc->values[i], e.message);
      if (st == PQT_OK && ci.bloom_filter_offset > 0) {
        int might = 0;
        CHECK_OK(pqt_bloom_might_contain(r, 0, col, &v, &might, &e));
        CHECK_MSG(might == 1, "%s: '%s' not in the Bloom filter", tc->col, tc->values[i]);
      }
      pqt_string_free(&store);
    }
    if (tc->absent) {
      CHECK_MSG(ci.bloom_filter_offset > 0, "%s: no Bloom filter", tc->col);
      pqt_value v;
      pqt_string store = {0};
      pqt_value_init(&v);
      CHECK_OK(pqt_reader_parse_value(r, col, tc->absent, &v, &store, &e));
      int might = -1;
      CHECK_OK(pqt_bloom_might_contain(r, 0, col, &v, &might, &e));
      CHECK(might == 0 || might == 1);
      n_absent_not += might == 0;
      pqt_string_free(&store);
    }
    /* the bounds' text, unquoted, parses back to the same value */
    if (pqt_reader_format_value(r, col, &s.max, &t, &e) == PQT_OK) {
      char unq[128];
      size_t n = t.len;
      const char *p = t.data;
      if (n >= 2 && p[0] == '"') {
        p++;
        n -= 2;
      }
      snprintf(unq, sizeof unq, "%.*s", (int)n, p);
      pqt_value v;
      pqt_string store = {0}, t2 = {0};
      pqt_value_init(&v);
      CHECK_OK(pqt_reader_parse_value(r, col, unq, &v, &store, &e));
      CHECK_OK(pqt_reader_format_value(r, col, &v, &t2, &e));
      CHECK_EQ_STR(t2.data, t.data);
      pqt_string_free(&t2);
      pqt_string_free(&store);
    }
    pqt_string_free(&t);
  }
  /* 3 values in a 256-bit block: an absent value is nearly always refused */
  CHECK_MSG(n_absent_not >= 10, "%d of 14 absent values said definitely not", n_absent_not);
  /* NaN is counted, not a bound */
  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  CHECK_OK(pqt_reader_chunk_statistics(r, 0, pqt_reader_find_column(r, "x"), &s, &e));
  CHECK(s.has_nan_count && s.nan_count == 1);
  /* UUID text that is not one is refused naming the column */
  pqt_value v;
  pqt_string store = {0};
  pqt_value_init(&v);
  CHECK_EQ_INT(pqt_reader_parse_value(r, pqt_reader_find_column(r, "id"), "not-a-uuid", &v, &store, &e), PQT_EINVAL);
  CHECK(strstr(e.message, "id") != NULL);
  CHECK_EQ_INT(pqt_reader_parse_value(r, pqt_reader_find_column(r, "dec32"), "1.234", &v, &store, &e), PQT_EINVAL);
  pqt_string_free(&store);
  pqt_reader_close(r);
  pqt_string_free(&file);

  /* the dictionary of a DECIMAL column (300 rows, three values: the writer
   * keeps the dictionary) as Arrow decimal128, and as typed values */
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { required fixed_len_byte_array(16) dec (DECIMAL(30,3)); }"};
  pqt_writer *w;
  uint8_t fl[300 * 16];
  for (int i = 0; i < 300; i++) put_be(fl + 16 * i, 16, i % 3 == 0 ? -1000 : i % 3 == 1 ? 123456789 : 0);
  memset(&file, 0, sizeof file);
  CHECK_OK(pqt_writer_open_buffer(&w, &file, &ws, &o, &e));
  CHECK_OK(pqt_writer_write_column(w, 0, 300, NULL, NULL, fl, NULL, 300, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, &e));
  struct ArrowArray a;
  struct ArrowSchema sc;
  CHECK_OK(pqt_reader_dictionary(r, 0, 0, &a, &sc, &e));
  if (a.release) {
    CHECK_EQ_STR(sc.format, "d:30,3");
    CHECK_EQ_INT(a.length, 3);
    const int64_t *lo = a.buffers[1];
    CHECK_EQ_INT(lo[0], -1000); /* little-endian 128-bit: low word first */
    CHECK_EQ_INT(lo[1], -1);
    CHECK_EQ_INT(lo[2], 123456789);
    CHECK_EQ_INT(lo[3], 0);
    a.release(&a);
    sc.release(&sc);
  } else {
    CHECK_MSG(0, "dec has no dictionary");
  }
  pqt_dictionary d;
  pqt_dictionary_init(&d);
  CHECK_OK(pqt_reader_dictionary_values(r, 0, 0, &d, &e));
  CHECK_EQ_INT(d.n_values, 3);
  if (d.n_values == 3) {
    CHECK_EQ_INT(d.values[0].kind, PQT_VALUE_DECIMAL);
    CHECK_EQ_INT(d.values[0].scale, 3);
    CHECK_EQ_INT(d.values[0].n_bytes, 16);
    pqt_string t = {0};
    CHECK_OK(pqt_reader_format_value(r, 0, &d.values[1], &t, &e));
    CHECK_EQ_STR(t.data, "\"123456.789\"");
    pqt_string_free(&t);
  }
  pqt_dictionary_free(&d);
  pqt_reader_close(r);
  pqt_string_free(&file);
}

/* A source that cannot lend its bytes (read_at only): the page index, the
 * dictionary and the Bloom filter are read into the library's own memory
 * and stay valid as long as the structs that point into them. */
typedef struct copy_src {
  unsigned char *data;
  size_t len;
  uint64_t bytes_read;
} copy_src;

static pqt_status copy_read(void *p, uint64_t off, void *dst, size_t n, pqt_error *err) {
  copy_src *c = p;
  if (off > c->len || n > c->len - off) return pqt_error_set_for_test(err);
  memcpy(dst, c->data + off, n);
  c->bytes_read += n;
  return PQT_OK;
}
static void copy_release(void *p) { (void)p; }

static void test_source_without_borrow(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  snprintf(g_path, sizeof g_path, "%s/data/alltypes_tiny_pages.parquet", dir);
  copy_src c;
  c.data = pqt_test_read_file(g_path, &c.len);
  CHECK(c.data != NULL);
  if (!c.data) return;
  pqt_io io = {
      .struct_size = sizeof(pqt_io), .read_at = copy_read, .release = copy_release, .size = c.len, .private_data = &c};
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open(&r, &io, NULL, &e));
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_OK(pqt_reader_page_index(r, 0, 9, &pi, &e));
  CHECK_EQ_INT(pi.n_pages, 352);
  bool all = pi.n_pages == 352;
  for (int32_t i = 0; all && i < pi.n_pages; i++)
    all = bytes_eq(pi.min_values[i].bytes, pi.min_values[i].n_bytes, "0") && pi.max_values[i].n_bytes == 1 &&
          pi.max_values[i].bytes[0] >= '0' && pi.max_values[i].bytes[0] <= '9';
  CHECK(all);
  pqt_page_index_free(&pi);
  pqt_dictionary d;
  pqt_dictionary_init(&d);
  CHECK_OK(pqt_reader_dictionary_values(r, 0, 8, &d, &e)); /* date_string_col */
  CHECK(d.present && d.n_values > 0);
  if (d.n_values > 0) CHECK_EQ_INT(d.values[0].n_bytes, 8); /* "01/13/09" */
  pqt_dictionary_free(&d);
  pqt_reader_close(r);
  free(c.data);

  /* a Bloom probe reads the filter's header and one 32-byte block, not the bitset */
  snprintf(g_path, sizeof g_path, "%s/data/data_index_bloom_encoding_with_length.parquet", dir);
  c.data = pqt_test_read_file(g_path, &c.len);
  c.bytes_read = 0;
  CHECK(c.data != NULL);
  if (!c.data) return;
  io = (pqt_io){
      .struct_size = sizeof(pqt_io), .read_at = copy_read, .release = copy_release, .size = c.len, .private_data = &c};
  CHECK_OK(pqt_reader_open(&r, &io, NULL, &e));
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  CHECK_OK(pqt_reader_chunk(r, 0, 0, &ci, &e));
  pqt_value v;
  pqt_value_init(&v);
  v.kind = PQT_VALUE_STRING;
  v.bytes = (const uint8_t *)"Hello";
  v.n_bytes = 5;
  int might = 0;
  uint64_t before = c.bytes_read;
  CHECK_OK(pqt_bloom_might_contain(r, 0, 0, &v, &might, &e));
  uint64_t probe = c.bytes_read - before;
  CHECK_EQ_INT(might, 1);
  printf("  Bloom probe read %llu bytes of a %lld-byte filter\n", (unsigned long long)probe,
         (long long)ci.bloom_filter_length);
  CHECK_EQ_INT(ci.bloom_filter_length, 2064);
  CHECK(probe <= 64 + 32); /* a 64-byte header window and one block */
  pqt_reader_close(r);
  free(c.data);
}

int main(void) {
  if (!pqt_testing_dir()) return 77;
  static const pqt_test_case cases[] = {TEST_CASE(test_kv_and_schema),
                                        TEST_CASE(test_chunk_and_statistics),
                                        TEST_CASE(test_parse_and_format),
                                        TEST_CASE(test_page_index),
                                        TEST_CASE(test_dictionary),
                                        TEST_CASE(test_bloom),
                                        TEST_CASE(test_encrypted_without_key),
                                        TEST_CASE(test_encrypted_with_keys),
                                        TEST_CASE(test_geospatial),
                                        TEST_CASE(test_every_type),
                                        TEST_CASE(test_source_without_borrow)};
  return pqt_run_tests("meta_api", cases, sizeof cases / sizeof cases[0]);
}
