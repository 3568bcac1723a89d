/*
 * Batches over the corpus: reading a column chunk, or a row group, a few
 * records at a time must give exactly what one whole read gives.
 *
 *  - leaf level: for every readable corpus file, row group and leaf column,
 *    the column cursor read in pieces of 1, 2, 7, 64 and 1000 records
 *    (pqt_leaf_cursor_read) is concatenated and compared with the whole
 *    chunk (pqt_row_group_read_leaf): definition and repetition levels,
 *    the dense values byte for byte (BYTE_ARRAY by value lengths and bytes,
 *    BOOLEAN bit by bit), and the counts. Every piece but the last holds
 *    exactly the records asked for; a chunk that fails whole fails in
 *    pieces too.
 *  - row level: every row group read whole (pqt_row_group_read) and read by
 *    the row-group cursor in batches of 1, 5 and 333 rows renders to the
 *    same canonical JSON rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text/text.h"
#include "scan/row_group.h"
#include "harness.h"

/* A chunk's levels and values, flattened for comparison. */
typedef struct flat {
  pqt_buf def, rep, values, lens;
  int64_t n_levels, n_values, n_rows;
} flat;

static void flat_init(flat *f) {
  memset(f, 0, sizeof *f);
  pqt_buf_init(&f->def, NULL);
  pqt_buf_init(&f->rep, NULL);
  pqt_buf_init(&f->values, NULL);
  pqt_buf_init(&f->lens, NULL);
}

static void flat_free(flat *f) {
  pqt_buf_free(&f->def);
  pqt_buf_free(&f->rep);
  pqt_buf_free(&f->values);
  pqt_buf_free(&f->lens);
}

/* Append cd (one piece) to f. */
static int flat_append(flat *f, const pqt_column_data *cd, const pqt_schema_node *leaf) {
  int ok = 1;
  if (leaf->max_def > 0) {
    for (int64_t i = 0; i < cd->n_levels; i++) {
      int16_t d = cd->def.len ? ((const int16_t *)(const void *)cd->def.data)[i] : leaf->max_def;
      ok &= pqt_buf_append(&f->def, &d, 2, NULL) == PQT_OK;
    }
  }
  if (leaf->max_rep > 0) ok &= pqt_buf_append(&f->rep, cd->rep.data, (size_t)cd->n_levels * 2, NULL) == PQT_OK;
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
    for (int64_t i = 0; i < cd->n_values; i++) {
      int32_t l = o[i + 1] - o[i];
      ok &= pqt_buf_append(&f->lens, &l, 4, NULL) == PQT_OK;
      ok &= pqt_buf_append(&f->values, cd->values.data + o[i], (size_t)l, NULL) == PQT_OK;
    }
  } else if (leaf->physical_type == PQT_BOOLEAN) {
    for (int64_t i = 0; i < cd->n_values; i++) {
      uint8_t b = (cd->values.data[i >> 3] >> (i & 7)) & 1;
      ok &= pqt_buf_append(&f->values, &b, 1, NULL) == PQT_OK;
    }
  } else {
    size_t w = pqt_physical_width(leaf->physical_type, leaf->type_length);
    ok &= pqt_buf_append(&f->values, pqt_column_values(cd), (size_t)cd->n_values * w, NULL) == PQT_OK;
  }
  f->n_levels += cd->n_levels;
  f->n_values += cd->n_values;
  f->n_rows += cd->n_rows;
  return ok;
}

static bool buf_eq(const pqt_buf *a, const pqt_buf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int g_files, g_chunks, g_pieces, g_groups;

static void check_leaf(pqt_reader *r, const char *path, int32_t g, int32_t i) {
  const pqt_schema_node *leaf = r->schema->leaves[i];
  pqt_column_data whole;
  pqt_column_data_init(&whole, NULL);
  pqt_error e;
  pqt_error_init(&e);
  pqt_status ws = pqt_row_group_read_leaf(r, g, i, &whole, &e);
  flat fw;
  flat_init(&fw);
  if (ws == PQT_OK) CHECK(flat_append(&fw, &whole, leaf));
  pqt_column_data_free(&whole);
  static const int64_t sizes[] = {1, 2, 7, 64, 1000};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t b = sizes[k];
    pqt_leaf_cursor *lc;
    pqt_status st = pqt_leaf_cursor_open(r, g, i, &lc, &e);
    flat fp;
    flat_init(&fp);
    while (st == PQT_OK) {
      pqt_column_data cd;
      pqt_column_data_init(&cd, NULL);
      int64_t rows = 0;
      st = pqt_leaf_cursor_read(lc, b, &cd, &rows, &e);
      if (st == PQT_OK) {
        CHECK(flat_append(&fp, &cd, leaf));
        CHECK_MSG(cd.n_rows == rows, "%s rg %d %s: piece says %lld rows, holds %lld", path, g, leaf->dotted_path,
                  (long long)rows, (long long)cd.n_rows);
        g_pieces++;
      }
      pqt_column_data_free(&cd);
      if (st == PQT_OK && rows < b) {
        st = pqt_leaf_cursor_finish(lc, &e);
        break;
      }
    }
    if (st == PQT_OK || lc) pqt_leaf_cursor_close(lc);
    if (ws != PQT_OK) {
      CHECK_MSG(st != PQT_OK, "%s rg %d %s: fails whole (%s) but reads in pieces of %lld", path, g, leaf->dotted_path,
                pqt_status_name(ws), (long long)b);
    } else {
      CHECK_MSG(st == PQT_OK, "%s rg %d %s: reads whole but not in pieces of %lld: %s", path, g, leaf->dotted_path,
                (long long)b, e.message);
      if (st == PQT_OK) {
        CHECK_MSG(fp.n_levels == fw.n_levels && fp.n_values == fw.n_values && fp.n_rows == fw.n_rows,
                  "%s rg %d %s, pieces of %lld: counts %lld/%lld/%lld vs %lld/%lld/%lld", path, g, leaf->dotted_path,
                  (long long)b, (long long)fp.n_levels, (long long)fp.n_values, (long long)fp.n_rows,
                  (long long)fw.n_levels, (long long)fw.n_values, (long long)fw.n_rows);
        CHECK_MSG(buf_eq(&fp.def, &fw.def) && buf_eq(&fp.rep, &fw.rep), "%s rg %d %s, pieces of %lld: levels differ",
                  path, g, leaf->dotted_path, (long long)b);
        CHECK_MSG(buf_eq(&fp.values, &fw.values) && buf_eq(&fp.lens, &fw.lens),
                  "%s rg %d %s, pieces of %lld: values differ", path, g, leaf->dotted_path, (long long)b);
      }
    }
    flat_free(&fp);
  }
  flat_free(&fw);
  g_chunks++;
}

/* Every row of d as canonical JSON, appended to out. */
static int render(const pqt_row_group_data *d, pqt_buf *out) {
  for (int64_t row = 0; row < d->num_rows; row++) {
    for (int32_t k = 0; k < d->n_fields; k++) {
      if (pqt_array_row_json(d->fields[k], row, out, NULL) != PQT_OK) return 0;
      if (pqt_buf_append(out, k + 1 < d->n_fields ? "," : "\n", 1, NULL) != PQT_OK) return 0;
    }
  }
  return 1;
}

static void check_group(pqt_reader *r, const char *path, int32_t g, const uint8_t *selected) {
  pqt_row_group_data d;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_row_group_read(r, g, selected, &d, &e) != PQT_OK) return; /* checked per leaf above */
  pqt_buf whole;
  pqt_buf_init(&whole, NULL);
  CHECK(render(&d, &whole));
  pqt_row_group_data_free(r->data_alloc, &d);
  static const int64_t sizes[] = {1, 5, 333};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    pqt_buf parts;
    pqt_buf_init(&parts, NULL);
    pqt_rg_cursor *c;
    pqt_status st = pqt_rg_cursor_open(r, g, selected, &c, &e);
    int64_t rows = 0;
    while (st == PQT_OK && !pqt_rg_cursor_done(c)) {
      st = pqt_rg_cursor_next(c, sizes[k], &d, &e);
      if (st != PQT_OK) break;
      CHECK(d.num_rows <= sizes[k] || (d.num_rows == 0 && pqt_rg_cursor_done(c)));
      rows += d.num_rows;
      CHECK(render(&d, &parts));
      pqt_row_group_data_free(r->data_alloc, &d);
    }
    if (st == PQT_OK) pqt_rg_cursor_close(c);
    CHECK_MSG(st == PQT_OK, "%s rg %d: reads whole, not in batches of %lld: %s", path, g, (long long)sizes[k],
              e.message);
    if (st == PQT_OK) {
      CHECK_MSG(rows == r->md.row_groups.items[g].num_rows, "%s rg %d: %lld rows in batches", path, g, (long long)rows);
      CHECK_MSG(buf_eq(&parts, &whole), "%s rg %d: rows in batches of %lld differ from the whole read", path, g,
                (long long)sizes[k]);
    }
    pqt_buf_free(&parts);
  }
  pqt_buf_free(&whole);
  g_groups++;
}

static void check_file(const char *path) {
  pqt_reader *r;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) return;
  g_files++;
  int32_t nl = r->schema->n_leaves;
  uint8_t *selected = malloc((size_t)(nl ? nl : 1));
  memset(selected, 1, (size_t)(nl ? nl : 1));
  for (int32_t g = 0; g < r->md.row_groups.n; g++) {
    for (int32_t i = 0; i < nl; i++) check_leaf(r, path, g, i);
    check_group(r, path, g, selected);
  }
  free(selected);
  pqt_reader_close(r);
}

static void check_one(const char *path, void *ctx) {
  (void)ctx;
  check_file(path);
}

static void test_corpus_in_batches(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parq", check_one, NULL);
  printf("  %d files, %d chunks (%d pieces), %d row groups compared\n", g_files, g_chunks, g_pieces, g_groups);
  CHECK(g_files > 150);
}

/* The seed 004 files: a nested chunk read one record at a time. */
static void test_seed004_in_batches(void) {
  check_file(PQT_SOURCE_DIR "/tests/fixtures/seed004_nested.parquet");
  check_file(PQT_SOURCE_DIR "/tests/fixtures/seed004_simple.parquet");
}

RUN_TESTS("batches", TEST_CASE(test_seed004_in_batches), TEST_CASE(test_corpus_in_batches))
