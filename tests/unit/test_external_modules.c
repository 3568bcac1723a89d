/* A chunk whose pages are in another file (ColumnChunk.file_path): its
 * ColumnIndex, OffsetIndex, Bloom filter and dictionary page are read from
 * that file, not from the footer's. The footer file here holds nothing but
 * the footer, so the offsets it carries point past its end (or at footer
 * bytes): a read from the wrong file fails or differs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file/reader_internal.h"
#include "footer_fixture.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static char dir[256];

/* dir/name: a copy of the corpus file; dir/name.footer: its footer only,
 * every chunk naming name as its file_path (offsets unchanged). */
static int make_footer_file(const char *corpus_name, const char *name) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return 0;
  char from[512], to[512];
  snprintf(from, sizeof from, "%s/%s", corpus, corpus_name);
  snprintf(to, sizeof to, "%s/%s", dir, name);
  pqt_test_copy_file(from, to);
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_file(&r, to, NULL, &e));
  if (!r) return 0;
  pqt_test_point_chunks_at(&r->md, name);
  snprintf(to, sizeof to, "%s/%s.footer", dir, name);
  pqt_test_write_footer_file(to, &r->md);
  pqt_reader_close(r);
  return 1;
}

static pqt_reader *open_in_dir(const char *name) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_file(&r, p, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  cannot open %s: %s\n", p, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

static bool same_value(const pqt_value *a, const pqt_value *b) {
  return a->kind == b->kind && a->n_plain == b->n_plain && (a->n_plain == 0 || memcmp(a->plain, b->plain, a->n_plain) == 0);
}

/* The page index of every chunk through the footer file equals the data file's. */
static void check_page_index(pqt_reader *data, pqt_reader *foot) {
  pqt_error e;
  pqt_error_init(&e);
  int with_index = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(data); g++)
    for (int32_t c = 0; c < data->schema->n_leaves; c++) {
      pqt_page_index a, b;
      pqt_page_index_init(&a);
      pqt_page_index_init(&b);
      CHECK_OK(pqt_reader_page_index(data, g, c, &a, &e));
      CHECK_OK(pqt_reader_page_index(foot, g, c, &b, &e));
      CHECK_EQ_INT(a.has_column_index, b.has_column_index);
      CHECK_EQ_INT(a.has_offset_index, b.has_offset_index);
      CHECK_EQ_INT(a.n_pages, b.n_pages);
      CHECK_EQ_INT(a.n_locations, b.n_locations);
      with_index += a.has_column_index && a.has_offset_index;
      if (a.n_pages == b.n_pages)
        for (int32_t i = 0; i < a.n_pages; i++) {
          CHECK_EQ_INT(a.null_pages[i], b.null_pages[i]);
          CHECK(same_value(&a.min_values[i], &b.min_values[i]));
          CHECK(same_value(&a.max_values[i], &b.max_values[i]));
        }
      if (a.n_locations == b.n_locations)
        for (int32_t i = 0; i < a.n_locations; i++) {
          CHECK_EQ_INT(a.page_offsets[i], b.page_offsets[i]);
          CHECK_EQ_INT(a.compressed_page_sizes[i], b.compressed_page_sizes[i]);
          CHECK_EQ_INT(a.first_row_indexes[i], b.first_row_indexes[i]);
        }
      pqt_page_index_free(&a);
      pqt_page_index_free(&b);
    }
  CHECK(with_index > 0);
}

static void test_index_and_bloom(void) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return;
  snprintf(dir, sizeof dir, "%s/pqt-extidx.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  CHECK(mkdtemp(dir) != NULL);
  if (!make_footer_file("data/data_index_bloom_encoding_stats.parquet", "bloom.parquet")) return;
  pqt_reader *data = open_in_dir("bloom.parquet"), *foot = open_in_dir("bloom.parquet.footer");
  if (!data || !foot) return;
  CHECK(foot->io.size < 1024); /* the footer file holds no data: bloom_filter_offset is 192 */
  check_page_index(data, foot);
  /* every value of the chunk might be there; the absent ones answer as in the data file */
  static const char *values[] = {"Hello", "today", "foo", "bar", "Hello!", "hello", "parquet", "xyzzy", "0", "cat"};
  pqt_error e;
  pqt_error_init(&e);
  int n_not = 0;
  for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
    pqt_value v;
    pqt_string store = {0};
    pqt_value_init(&v);
    CHECK_OK(pqt_reader_parse_value(foot, 0, values[k], &v, &store, &e));
    int a = -1, b = -1;
    CHECK_OK(pqt_bloom_might_contain(data, 0, 0, &v, &a, &e));
    CHECK_MSG(pqt_bloom_might_contain(foot, 0, 0, &v, &b, &e) == PQT_OK, "%s", e.message);
    CHECK_EQ_INT(a, b);
    if (k < 2) CHECK_EQ_INT(b, 1);
    n_not += b == 0;
    pqt_string_free(&store);
  }
  CHECK(n_not >= 1);
  pqt_reader_close(data);
  pqt_reader_close(foot);
}

/* The dictionary page of a chunk in another file (pqt_chunk_page_reader_open). */
static void test_dictionary(void) {
  if (!dir[0] || !make_footer_file("data/alltypes_dictionary.parquet", "dict.parquet")) return;
  pqt_reader *data = open_in_dir("dict.parquet"), *foot = open_in_dir("dict.parquet.footer");
  if (!data || !foot) return;
  pqt_error e;
  pqt_error_init(&e);
  int present = 0;
  for (int32_t c = 0; c < data->schema->n_leaves; c++) {
    pqt_dictionary a, b;
    pqt_dictionary_init(&a);
    pqt_dictionary_init(&b);
    CHECK_OK(pqt_reader_dictionary_values(data, 0, c, &a, &e));
    CHECK_MSG(pqt_reader_dictionary_values(foot, 0, c, &b, &e) == PQT_OK, "%s", e.message);
    CHECK_EQ_INT(a.present, b.present);
    CHECK_EQ_INT(a.n_values, b.n_values);
    present += a.present;
    if (a.n_values == b.n_values)
      for (int64_t i = 0; i < a.n_values; i++) CHECK(same_value(&a.values[i], &b.values[i]));
    pqt_dictionary_free(&a);
    pqt_dictionary_free(&b);
  }
  CHECK(present > 0);
  pqt_reader_close(data);
  pqt_reader_close(foot);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

RUN_TESTS("external_modules", {"index_and_bloom", test_index_and_bloom}, {"dictionary", test_dictionary})
