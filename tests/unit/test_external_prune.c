/* Bloom filter and dictionary pruning of chunks whose pages are in another
 * file (ColumnChunk.file_path): a data file written with a dictionary on s
 * and a Bloom filter on s and t (t without a dictionary), and a file that
 * holds only its footer, every chunk naming the data file. A filtered scan
 * of the footer file reads the dictionary and the Bloom filter from the data
 * file: `=` on a value no row group holds skips every row group (by the
 * dictionary for s, by the Bloom filter for t), on a value one row group
 * holds skips the others; the rows equal a brute-force filter of all rows,
 * and the counts equal a scan of the data file itself. The statistics never
 * prune: every row group spans "a" to "z". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file/reader_internal.h"
#include "footer_fixture.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

enum { GROUPS = 3, ROWS = 200 };

static char dir[256];

/* Row i of group g: id g*ROWS+i; s = t = "a", "z", then "v<g*1000 + i % 40>". */
static void value(int g, int i, char *buf, size_t cap) {
  if (i == 0) snprintf(buf, cap, "a");
  else if (i == 1) snprintf(buf, cap, "z");
  else snprintf(buf, cap, "v%d", g * 1000 + i % 40);
}

static void write_data(const char *path) {
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = "message m { required int64 id; required binary s (STRING); required binary t (STRING); }";
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_column_override ov[2] = {{.path = "s", .options = o.defaults}, {.path = "t", .options = o.defaults}};
  for (int k = 0; k < 2; k++) {
    ov[k].options.bloom_filter = 1;
    ov[k].options.bloom_ndv = 64;
  }
  ov[1].options.dictionary = 0;
  o.columns = ov;
  o.n_columns = 2;
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_file(&w, path, &ws, &o, &e));
  int64_t id[ROWS];
  int32_t off[ROWS + 1];
  char data[ROWS * 8];
  for (int g = 0; g < GROUPS && w; g++) {
    off[0] = 0;
    for (int i = 0; i < ROWS; i++) {
      id[i] = (int64_t)g * ROWS + i;
      char v[16];
      value(g, i, v, sizeof v);
      memcpy(data + off[i], v, strlen(v));
      off[i + 1] = off[i] + (int32_t)strlen(v);
    }
    CHECK_OK(pqt_writer_write_column(w, 0, ROWS, NULL, NULL, id, NULL, ROWS, &e));
    CHECK_OK(pqt_writer_write_column(w, 1, ROWS, NULL, NULL, data, off, ROWS, &e));
    CHECK_OK(pqt_writer_write_column(w, 2, ROWS, NULL, NULL, data, off, ROWS, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  if (w) CHECK_OK(pqt_writer_close(w, &e));
}

/* dir/name.footer: the footer of dir/name only, every chunk naming name as
 * its file_path (offsets unchanged); the chunks of s and t have a Bloom
 * filter, s's a dictionary page and t's none. */
static void write_footer(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_file(&r, path, NULL, &e));
  if (!r) return;
  CHECK_EQ_INT(r->md.row_groups.n, GROUPS);
  for (int32_t g = 0; g < r->md.row_groups.n; g++) {
    const pqt_row_group *rg = &r->md.row_groups.items[g];
    for (int32_t c = 0; c < rg->columns.n; c++) {
      const pqt_column_metadata *cm = &rg->columns.items[c].meta_data;
      if (c > 0) CHECK(PQT_HAS_FIELD(cm, column_metadata, bloom_filter_offset));
      if (c == 1) CHECK(PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset));
      if (c == 2) CHECK(!PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) || cm->dictionary_page_offset == 0);
    }
  }
  pqt_test_point_chunks_at(&r->md, name);
  snprintf(path, sizeof path, "%s/%s.footer", dir, name);
  pqt_test_write_footer_file(path, &r->md);
  pqt_reader_close(r);
}

/* CSV of dir/name filtered by where (NULL: every row), its scan stats in *stats. */
static void scan(const char *name, const char *where, pqt_test_text *text, pqt_scan_stats *stats) {
  memset(text, 0, sizeof *text);
  memset(stats, 0, sizeof *stats);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_file(&r, path, NULL, &e));
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.stats = stats;
  pqt_expr *filter = NULL;
  if (where) CHECK_OK(pqt_expr_parse(where, strlen(where), &filter, &e));
  so.filter = filter;
  if (r)
    CHECK_MSG(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, -1, pqt_test_collect, text, &e) == PQT_OK, "%s: %s", where, e.message);
  pqt_expr_free(filter);
  pqt_reader_close(r);
}

/* The lines of all (CSV, header first) whose field col (0-based) is want:
 * the header and those lines, as a filtered scan writes them. */
static char *brute_force(const pqt_test_text *all, int col, const char *want) {
  char *out = calloc(all->n + 1, 1);
  size_t n = 0;
  const char *p = all->p, *end = all->p + all->n;
  for (bool header = true; p && p < end; header = false) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl + 1 : end;
    const char *f = p;
    for (int k = 0; k < col && f < stop; k++) {
      const char *c = memchr(f, ',', (size_t)(stop - f));
      f = c ? c + 1 : stop;
    }
    size_t wl = strlen(want);
    bool hit = (size_t)(stop - f) > wl && memcmp(f, want, wl) == 0 && (f[wl] == ',' || f[wl] == '\n');
    if (out && (header || hit)) {
      memcpy(out + n, p, (size_t)(stop - p));
      n += (size_t)(stop - p);
    }
    p = stop;
  }
  return out;
}

typedef struct expect {
  const char *where;
  int col; /* 1: s, 2: t */
  const char *value;
  int64_t rows, read, by_dict, by_bloom;
} expect;

static void test_external_prune(void) {
  snprintf(dir, sizeof dir, "%s/pqt-extprune.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  CHECK(mkdtemp(dir) != NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/data.parquet", dir);
  write_data(path);
  write_footer("data.parquet");
  snprintf(path, sizeof path, "%s/data.parquet.footer", dir);
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (f) {
    fseek(f, 0, SEEK_END);
    CHECK(ftell(f) < 4096); /* the footer file holds no data: a read from it would fail */
    fclose(f);
  }
  pqt_test_text all;
  pqt_scan_stats st;
  scan("data.parquet.footer", NULL, &all, &st);
  CHECK_EQ_INT(st.rows, GROUPS * ROWS);
  CHECK_EQ_INT(st.row_groups_read, GROUPS);
  static const expect cases[] = {
      {"s = 'm_absent'", 1, "m_absent", 0, 0, GROUPS, 0},
      {"t = 'm_absent'", 2, "m_absent", 0, 0, 0, GROUPS},
      {"s = 'v1005'", 1, "v1005", ROWS / 40, 1, GROUPS - 1, 0},
      {"t = 'v1005'", 2, "v1005", ROWS / 40, 1, 0, GROUPS - 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const expect *x = &cases[k];
    pqt_test_text got, direct;
    pqt_scan_stats gs, ds;
    scan("data.parquet.footer", x->where, &got, &gs);
    scan("data.parquet", x->where, &direct, &ds);
    char *want = brute_force(&all, x->col, x->value);
    CHECK_MSG(want && got.p && strcmp(got.p, want) == 0, "%s: rows differ from the brute-force filter", x->where);
    CHECK_MSG(gs.rows == x->rows, "%s: %lld rows", x->where, (long long)gs.rows);
    CHECK_MSG(gs.row_groups_read == x->read, "%s: %lld row groups read", x->where, (long long)gs.row_groups_read);
    CHECK_MSG(gs.row_groups_pruned_stats == 0, "%s: statistics pruned %lld", x->where,
              (long long)gs.row_groups_pruned_stats);
    CHECK_MSG(gs.row_groups_pruned_dictionary == x->by_dict, "%s: %lld skipped by the dictionary", x->where,
              (long long)gs.row_groups_pruned_dictionary);
    CHECK_MSG(gs.row_groups_pruned_bloom == x->by_bloom, "%s: %lld skipped by the Bloom filter", x->where,
              (long long)gs.row_groups_pruned_bloom);
    /* the same as a scan of the data file itself */
    CHECK(direct.p && got.p && strcmp(direct.p, got.p) == 0);
    CHECK_EQ_INT(ds.row_groups_read, gs.row_groups_read);
    CHECK_EQ_INT(ds.row_groups_pruned_dictionary, gs.row_groups_pruned_dictionary);
    CHECK_EQ_INT(ds.row_groups_pruned_bloom, gs.row_groups_pruned_bloom);
    free(want);
    free(got.p);
    free(direct.p);
  }
  free(all.p);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

RUN_TESTS("external_prune", {"external_prune", test_external_prune})
