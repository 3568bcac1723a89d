/* pqt_page_cursor_decode: each data page's values decoded, with counts,
 * min/max, NaNs, level histograms and the Bloom check, against what the
 * file says of the same pages (the column index, the row group); a page
 * whose values do not decode is an error naming row group, column, page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_meta.h"

static pqt_reader *open_path(const char *path) {
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
    fprintf(stderr, "  cannot open %s: %s\n", path, e.message);
    CHECK(0);
    return NULL;
  }
  return r;
}

static pqt_reader *open_corpus(const char *name) {
  const char *dir = pqt_testing_dir();
  if (!dir) return NULL;
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return open_path(p);
}

static bool same_bound(const pqt_value *a, const pqt_value *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == PQT_VALUE_DOUBLE || a->kind == PQT_VALUE_FLOAT16) return a->f64 == b->f64;
  return a->n_plain == b->n_plain && memcmp(a->plain, b->plain, a->n_plain) == 0;
}

typedef struct sums {
  int64_t levels, rows, nans, pages, bloom_checked, bloom_missing;
} sums;

/* Walk chunk (g, c), decoding every data page; each page against the page index when there is one. */
static sums walk(pqt_reader *r, int32_t g, int32_t c) {
  sums s = {0, 0, 0, 0, 0, 0};
  pqt_error e;
  pqt_error_init(&e);
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  CHECK_OK(pqt_reader_page_index(r, g, c, &pi, &e));
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, g, c, &pc, &e));
  if (!pc) return s;
  for (;;) {
    pqt_page_info p;
    pqt_page_info_init(&p);
    int eof = 0;
    pqt_status st = pqt_page_cursor_next(pc, &p, &eof, &e);
    CHECK_MSG(st == PQT_OK, "%s", e.message);
    if (eof || st != PQT_OK) break;
    pqt_page_values v;
    pqt_page_values_init(&v);
    if (p.page_type == PQT_PAGE_KIND_DICTIONARY_PAGE) {
      CHECK_EQ_INT(pqt_page_cursor_decode(pc, &v, &e), PQT_EINVAL);
      continue;
    }
    CHECK_MSG(pqt_page_cursor_decode(pc, &v, &e) == PQT_OK, "%s", e.message);
    CHECK_EQ_INT(v.data_page, s.pages);
    CHECK_EQ_INT(v.num_levels, p.num_values); /* a page header's num_values counts its entries */
    CHECK_EQ_INT(v.num_nulls, v.num_levels - v.num_values);
    int64_t hsum = 0;
    for (int32_t l = 0; l < v.n_def_levels; l++) hsum += v.definition_level_histogram[l];
    CHECK_EQ_INT(hsum, v.num_levels);
    CHECK_EQ_INT(v.definition_level_histogram[v.n_def_levels - 1], v.num_values);
    if (pi.has_column_index && v.data_page < pi.n_pages) {
      int32_t i = v.data_page;
      if (pi.null_counts) CHECK_EQ_INT(pi.null_counts[i], v.num_nulls);
      CHECK_EQ_INT(pi.null_pages[i], v.num_values == 0);
      if (!pi.null_pages[i] && v.has_min_max && pi.usable_bounds) {
        /* parquet-mr writes the exact bounds of each page (a zero minimum as -0.0) */
        CHECK(same_bound(&v.min_value, &pi.min_values[i]));
        CHECK(same_bound(&v.max_value, &pi.max_values[i]));
      }
    }
    /* every value iterates; the last one past the end is refused */
    for (int64_t k = 0; k < v.num_values; k++) {
      pqt_value x;
      pqt_value_init(&x);
      CHECK_OK(pqt_page_cursor_value(pc, k, &x, &e));
      CHECK(x.plain != NULL);
    }
    pqt_value x;
    pqt_value_init(&x);
    CHECK_EQ_INT(pqt_page_cursor_value(pc, v.num_values, &x, &e), PQT_EINVAL);
    s.levels += v.num_levels;
    s.rows += v.num_rows;
    s.nans += v.nan_count;
    s.bloom_checked += v.bloom_checked == 1;
    s.bloom_missing += v.bloom_missing;
    s.pages++;
  }
  pqt_page_cursor_close(pc);
  pqt_page_index_free(&pi);
  return s;
}

static void check_file(const char *name, int64_t want_nans, bool want_bloom) {
  pqt_reader *r = open_corpus(name);
  if (!r) return;
  pqt_error e;
  pqt_error_init(&e);
  int64_t nans = 0, bloom = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) {
    pqt_row_group_info rg;
    pqt_row_group_info_init(&rg);
    CHECK_OK(pqt_reader_row_group(r, g, &rg, &e));
    for (int32_t c = 0; c < pqt_reader_num_columns(r); c++) {
      pqt_chunk_info ci;
      pqt_chunk_info_init(&ci);
      CHECK_OK(pqt_reader_chunk(r, g, c, &ci, &e));
      sums s = walk(r, g, c);
      CHECK_MSG(s.levels == ci.num_values, "%s rg %d col %d: %lld levels, %lld values", name, g, c,
                (long long)s.levels, (long long)ci.num_values);
      CHECK_MSG(s.rows == rg.num_rows, "%s rg %d col %d: %lld rows, %lld", name, g, c, (long long)s.rows,
                (long long)rg.num_rows);
      CHECK_EQ_INT(s.bloom_missing, 0);
      nans += s.nans;
      bloom += s.bloom_checked;
    }
  }
  if (want_nans >= 0) CHECK_EQ_INT(nans, want_nans);
  CHECK(want_bloom == (bloom > 0));
  pqt_reader_close(r);
}

static void test_corpus(void) {
  check_file("data/alltypes_tiny_pages_plain.parquet", 0, false);
  check_file("data/data_index_bloom_encoding_stats.parquet", 0, true);
  check_file("data/nested_lists.snappy.parquet", 0, false);
  check_file("data/floating_orders_nan_count.parquet", 84, false); /* FLOAT, DOUBLE, FLOAT16 */
}

/* A v1 page of date_string_col whose first value's length prefix is made
 * huge: the walk reads the page, the decode fails naming where. */
static void test_corrupt_page(void) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return;
  char src[1024], dst[512];
  snprintf(src, sizeof src, "%s/data/alltypes_tiny_pages_plain.parquet", corpus);
  snprintf(dst, sizeof dst, "%s/pqt-pagedecode-%d.parquet", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
           (int)getpid());
  pqt_reader *r = open_path(src);
  if (!r) return;
  int32_t col = pqt_reader_find_column(r, "date_string_col");
  CHECK(col >= 0);
  pqt_error e;
  pqt_error_init(&e);
  /* the second data page's values: after its header and its definition levels (4-byte length, then the runs) */
  pqt_page_cursor *pc = NULL;
  CHECK_OK(pqt_page_cursor_open(r, 0, col, &pc, &e));
  int64_t at = -1;
  int32_t index = -1;
  for (int k = 0; pc && k < 2; k++) {
    pqt_page_info p;
    pqt_page_info_init(&p);
    int eof = 0;
    CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e));
    CHECK(!eof && p.page_type == PQT_PAGE_KIND_DATA_PAGE && p.compressed_size == p.uncompressed_size);
    at = p.offset + p.header_size + 4 + p.def_levels_len;
    index = p.index;
  }
  pqt_page_cursor_close(pc);
  pqt_reader_close(r);
  FILE *a = fopen(src, "rb"), *b = fopen(dst, "wb");
  CHECK(a && b);
  char buf[65536];
  size_t n;
  int64_t pos = 0;
  while (a && b && (n = fread(buf, 1, sizeof buf, a)) > 0) {
    if (at >= pos && at + 4 <= pos + (int64_t)n) {
      CHECK_EQ_INT(buf[at - pos], 8); /* the length of "01/01/09" */
      memcpy(buf + (at - pos), "\xff\xff\xff\x7f", 4);
    }
    CHECK(fwrite(buf, 1, n, b) == n);
    pos += (int64_t)n;
  }
  if (a) fclose(a);
  if (b) fclose(b);
  r = open_path(dst);
  if (!r) return;
  CHECK_OK(pqt_page_cursor_open(r, 0, col, &pc, &e));
  pqt_status last = PQT_OK;
  for (int k = 0; pc && k < 3; k++) {
    pqt_page_info p;
    pqt_page_info_init(&p);
    int eof = 0;
    CHECK_OK(pqt_page_cursor_next(pc, &p, &eof, &e)); /* the header walk does not decode values */
    pqt_page_values v;
    pqt_page_values_init(&v);
    pqt_error_init(&e);
    last = pqt_page_cursor_decode(pc, &v, &e);
    CHECK(last != PQT_OK); /* the chunk does not decode: every page says so */
  }
  CHECK_EQ_INT(last, PQT_ECORRUPT);
  char want[128];
  snprintf(want, sizeof want, "page %d:", index);
  CHECK_MSG(strncmp(e.message, "row group 0, column date_string_col", 35) == 0 && strstr(e.message, want) != NULL,
            "%s", e.message);
  CHECK_EQ_INT(e.row_group, 0);
  CHECK_EQ_INT(e.column, col);
  CHECK_EQ_INT(e.page, index);
  /* the message without its place, for a caller that prints the place its own way */
  const char *detail = pqt_reader_error_detail(r, &e);
  CHECK_MSG(strncmp(detail, want, strlen(want)) == 0, "%s", detail);
  CHECK(detail > e.message && strstr(detail, "date_string_col") == NULL);
  pqt_error other = e;
  other.column = col == 0 ? 1 : 0; /* a place the message does not start with: the whole message */
  CHECK(pqt_reader_error_detail(r, &other) == other.message);
  other.row_group = -1;
  CHECK(pqt_reader_error_detail(r, &other) == other.message);
  CHECK(strcmp(pqt_reader_error_detail(NULL, &e), e.message) == 0);
  pqt_page_cursor_close(pc);
  pqt_reader_close(r);
  remove(dst);
}

RUN_TESTS("page_decode", {"corpus", test_corpus}, {"corrupt_page", test_corrupt_page})
