/*
 * tests/unit/test_dataset.c: include/parquetry_dataset.h. Datasets built in
 * a temporary directory: Hive partitions as columns (inferred and given
 * types, the default partition as NULL), directories and globs (`**`),
 * schemas unified (missing columns NULL, int32->int64 and float->double),
 * incompatible types naming both files, filters pruning files by partition
 * values and row groups by statistics, and the plan's units adding up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_dataset.h"
#include "parquetry_filter.h"

static char g_root[256];

static void mkdirs(const char *path) {
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0700);
      *p = '/';
    }
  }
  mkdir(tmp, 0700);
}

/* A file at root/rel whose columns are kinds ('l' int64 "id" = base + row,
 * then 'i' int32 / 'l' int64 / 'f' float / 'd' double / 's' string columns
 * named by names[k], value base + row), rows rows in groups of rg rows. */
static int write_file(const char *rel, const char *kinds, const char *const *names, int64_t rows, int64_t rg,
                      int64_t base) {
  char path[512], msg[1024];
  snprintf(path, sizeof path, "%s/%s", g_root, rel);
  char *slash = strrchr(path, '/');
  *slash = 0;
  mkdirs(path);
  *slash = '/';
  int n = snprintf(msg, sizeof msg, "message m {\n");
  for (int k = 0; kinds[k]; k++) {
    const char *t = kinds[k] == 'i'   ? "int32"
                    : kinds[k] == 'l' ? "int64"
                    : kinds[k] == 'f' ? "float"
                    : kinds[k] == 'd' ? "double"
                                      : "binary";
    n += snprintf(msg + n, sizeof msg - (size_t)n, "  required %s %s%s;\n", t, names[k],
                  kinds[k] == 's' ? " (STRING)" : "");
  }
  snprintf(msg + n, sizeof msg - (size_t)n, "}\n");
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = msg};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = rg;
  pqt_writer *w;
  pqt_error e;
  if (pqt_writer_open_file(&w, path, &ws, &o, &e) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, e.message);
    return 1;
  }
  for (int64_t at = 0; at < rows; at += rg) {
    int64_t m = rows - at < rg ? rows - at : rg;
    for (int k = 0; kinds[k]; k++) {
      void *vals = malloc((size_t)m * 16 + 16);
      int32_t *off = malloc(sizeof(int32_t) * (size_t)(m + 1));
      off[0] = 0;
      for (int64_t i = 0; i < m; i++) {
        int64_t v = base + at + i;
        switch (kinds[k]) {
          case 'i': ((int32_t *)vals)[i] = (int32_t)v; break;
          case 'l': ((int64_t *)vals)[i] = v; break;
          case 'f': ((float *)vals)[i] = (float)v; break;
          case 'd': ((double *)vals)[i] = (double)v; break;
          default: off[i + 1] = off[i] + snprintf((char *)vals + off[i], 16, "s%07lld", (long long)(v % 10000000));
        }
      }
      pqt_status st = pqt_writer_write_column(w, k, m, NULL, NULL, vals, kinds[k] == 's' ? off : NULL, m, &e);
      free(vals);
      free(off);
      if (st != PQT_OK) {
        fprintf(stderr, "%s: %s\n", path, e.message);
        pqt_writer_discard(w);
        return 1;
      }
    }
    if (pqt_writer_flush_row_group(w, &e) != PQT_OK) return 1;
  }
  return pqt_writer_close(w, &e) != PQT_OK;
}

static void fresh_root(const char *name) {
  snprintf(g_root, sizeof g_root, "%s/pqt_ds_%s_%d", P_tmpdir, name, (int)getpid());
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
  if (system(cmd) != 0) fprintf(stderr, "rm failed\n");
  mkdirs(g_root);
}

static void drop_root(void) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_root);
  if (system(cmd) != 0) fprintf(stderr, "rm failed\n");
}

static int child_index(const struct ArrowSchema *s, const char *name) {
  for (int64_t i = 0; i < s->n_children; i++)
    if (strcmp(s->children[i]->name, name) == 0) return (int)i;
  return -1;
}

static bool is_valid(const struct ArrowArray *a, int64_t i) {
  const uint8_t *v = a->buffers[0];
  int64_t j = a->offset + i;
  return !v || (v[j / 8] >> (j % 8)) & 1;
}

static int64_t i64_at(const struct ArrowArray *a, int64_t i) { return ((const int64_t *)a->buffers[1])[a->offset + i]; }

/* Read the whole stream; for every row check fn(batch, row). Returns rows, -1 on a stream error. */
typedef void (*row_fn)(const struct ArrowSchema *s, const struct ArrowArray *b, int64_t row, void *ctx);
static int64_t drain(struct ArrowArrayStream *st, row_fn fn, void *ctx) {
  struct ArrowSchema s;
  if (st->get_schema(st, &s) != 0) return -1;
  int64_t rows = 0;
  for (;;) {
    struct ArrowArray b;
    if (st->get_next(st, &b) != 0) {
      fprintf(stderr, "stream: %s\n", st->get_last_error(st));
      rows = -1;
      break;
    }
    if (!b.release) break;
    for (int64_t i = 0; i < b.length && fn; i++) fn(&s, &b, i, ctx);
    rows += b.length;
    b.release(&b);
  }
  s.release(&s);
  st->release(st);
  return rows;
}

/* The rows of ds's stream under so (NULL: everything), fn checking each
 * (it counts bad rows in its int context, which must stay 0). */
static int64_t scan_checked(pqt_dataset *ds, const pqt_scan_options *so, row_fn fn) {
  struct ArrowArrayStream st;
  pqt_error e;
  CHECK_OK(pqt_dataset_get_stream(ds, so, &st, &e));
  int bad = 0;
  int64_t rows = drain(&st, fn, &bad);
  CHECK_EQ_INT(bad, 0);
  return rows;
}

/* pqt_dataset_count under the filter text q (parsed here) in *n; returns
 * the count's status, *e saying why it failed. */
static pqt_status count_where(pqt_dataset *ds, const char *q, int64_t *n, pqt_error *e) {
  pqt_expr *f = NULL;
  CHECK_OK(pqt_expr_parse(q, strlen(q), &f, e));
  if (!f) return PQT_EINVAL;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.filter = f;
  *n = -1;
  pqt_status st = pqt_dataset_count(ds, &so, n, e);
  pqt_expr_free(f);
  return st;
}

/* The dataset of every file under g_root, hive partitioning on (NULL when
 * it fails to open, which is a failed check). */
static pqt_dataset *open_root(void) {
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[] = {g_root};
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  if (!ds) fprintf(stderr, "%s\n", e.message);
  return ds;
}

/* year=2023|2024 / month=1|2: four files of 100 rows, id = 1000*year_index*... */
static const char *const ID_V[] = {"id", "v"};
static void build_partitioned(void) {
  int64_t base = 0;
  for (int y = 2023; y <= 2024; y++)
    for (int m = 1; m <= 2; m++) {
      char rel[128];
      snprintf(rel, sizeof rel, "year=%d/month=%02d/part-0.parquet", y, m);
      CHECK_EQ_INT(write_file(rel, "li", ID_V, 100, 25, base), 0);
      base += 1000;
    }
  /* files the walk leaves out */
  char p[512];
  snprintf(p, sizeof p, "%s/year=2023/_SUCCESS", g_root);
  FILE *f = fopen(p, "w");
  if (f) fclose(f);
}

static void check_partition_row(const struct ArrowSchema *s, const struct ArrowArray *b, int64_t i, void *ctx) {
  int *bad = ctx;
  int ci = child_index(s, "id"), cy = child_index(s, "year"), cm = child_index(s, "month"), cv = child_index(s, "v");
  int64_t id = i64_at(b->children[ci], i);
  int64_t file = id / 1000;
  int64_t year = i64_at(b->children[cy], i), month = i64_at(b->children[cm], i);
  if (year != 2023 + file / 2 || month != 1 + file % 2) (*bad)++;
  if (((const int32_t *)b->children[cv]->buffers[1])[b->children[cv]->offset + i] != (int32_t)id) (*bad)++;
}

static void test_partitions(void) {
  fresh_root("part");
  build_partitioned();
  pqt_error e;
  const char *in[] = {g_root};
  pqt_dataset *ds = open_root();
  if (!ds) return;
  CHECK_EQ_INT(pqt_dataset_num_files(ds), 4);
  CHECK_EQ_INT(pqt_dataset_num_rows(ds), 400);
  struct ArrowSchema s;
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_INT(s.n_children, 4);
  CHECK_EQ_STR(s.children[0]->name, "id");
  CHECK_EQ_STR(s.children[1]->name, "v");
  CHECK_EQ_STR(s.children[2]->name, "year");
  CHECK_EQ_STR(s.children[2]->format, "l");
  CHECK_EQ_STR(s.children[3]->name, "month");
  CHECK_EQ_STR(s.children[3]->format, "l"); /* "01" parses as an integer */
  s.release(&s);
  CHECK_EQ_INT(scan_checked(ds, NULL, check_partition_row), 400);

  /* a partition predicate: two files skipped, the rest read whole */
  pqt_expr *f;
  const char *q = "year = 2024 AND month >= 2";
  CHECK_OK(pqt_expr_parse(q, strlen(q), &f, &e));
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  pqt_scan_stats stats;
  so.filter = f;
  so.stats = &stats;
  CHECK_EQ_INT(scan_checked(ds, &so, check_partition_row), 100);
  CHECK_EQ_INT(stats.row_groups_total, 4); /* only the one file was opened */
  int64_t n = -1;
  CHECK_OK(pqt_dataset_count(ds, &so, &n, &e));
  CHECK_EQ_INT(n, 100);
  pqt_expr_free(f);

  /* partitions and statistics together: id 3000..3099 is file 3; id < 3010 is its first row group */
  struct ArrowArrayStream st;
  q = "NOT (year <> 2024) AND id < 3010 OR month IS NULL";
  CHECK_OK(pqt_expr_parse(q, strlen(q), &f, &e));
  so.filter = f;
  CHECK_OK(pqt_dataset_get_stream(ds, &so, &st, &e));
  CHECK_EQ_INT(drain(&st, NULL, NULL), 100 + 10);
  CHECK_EQ_INT(stats.row_groups_read, 4 + 1); /* file 2 whole, file 3 its first group */
  CHECK_EQ_INT(stats.row_groups_pruned_stats, 3);
  CHECK_OK(pqt_dataset_count(ds, &so, &n, &e));
  CHECK_EQ_INT(n, 110);
  pqt_expr_free(f);

  /* projection: partition columns only, and a column then a partition */
  const char *cols[] = {"month"};
  pqt_scan_options_init(&so);
  so.columns = cols;
  so.n_columns = 1;
  CHECK_OK(pqt_dataset_get_stream(ds, &so, &st, &e));
  struct ArrowSchema ps;
  CHECK_EQ_INT(st.get_schema(&st, &ps), 0);
  CHECK_EQ_INT(ps.n_children, 1);
  ps.release(&ps);
  CHECK_EQ_INT(drain(&st, NULL, NULL), 400);
  const char *nope[] = {"nope"};
  so.columns = nope;
  CHECK(pqt_dataset_get_stream(ds, &so, &st, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "nope") != NULL);
  /* an unknown column in the filter */
  CHECK(count_where(ds, "nope = 1", &n, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "nope") != NULL);
  /* a string literal against an integer partition */
  CHECK(count_where(ds, "year = 'x'", &n, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "year") != NULL);
  pqt_dataset_close(ds);

  /* the partition type given: month as a string */
  pqt_dataset_options dopt;
  pqt_dataset_options_init(&dopt);
  pqt_partition_field pf = {.name = "month", .type = PQT_PARTITION_STRING};
  dopt.partition_fields = &pf;
  dopt.n_partition_fields = 1;
  CHECK_OK(pqt_dataset_open(&ds, in, 1, &dopt, &e));
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_STR(s.children[3]->format, "u");
  s.release(&s);
  CHECK_OK(count_where(ds, "month = '02'", &n, &e));
  CHECK_EQ_INT(n, 200);
  pqt_dataset_close(ds);
  /* without hive partitioning: two columns */
  pqt_dataset_options_init(&dopt);
  dopt.hive_partitioning = 0;
  CHECK_OK(pqt_dataset_open(&ds, in, 1, &dopt, &e));
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_INT(s.n_children, 2);
  s.release(&s);
  pqt_dataset_close(ds);
  drop_root();
}

static void test_globs(void) {
  fresh_root("glob");
  build_partitioned();
  char g[600];
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[1] = {g};
  snprintf(g, sizeof g, "%s/**/*.parquet", g_root);
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  CHECK_EQ_INT(pqt_dataset_num_files(ds), 4);
  if (ds) {
    CHECK(strstr(pqt_dataset_file_path(ds, 0), "year=2023/month=01/part-0.parquet") != NULL);
    CHECK(strstr(pqt_dataset_file_path(ds, 3), "year=2024/month=02/part-0.parquet") != NULL);
  }
  pqt_dataset_close(ds);
  snprintf(g, sizeof g, "%s/year=2024/*/part-?.parquet", g_root);
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  CHECK_EQ_INT(pqt_dataset_num_files(ds), 2);
  if (ds) { /* the partitions below the fixed prefix: month only */
    struct ArrowSchema s;
    CHECK_OK(pqt_dataset_schema(ds, &s, &e));
    CHECK_EQ_INT(s.n_children, 3);
    CHECK_EQ_STR(s.children[2]->name, "month");
    s.release(&s);
  }
  pqt_dataset_close(ds);
  snprintf(g, sizeof g, "%s/*.parquet", g_root);
  CHECK(pqt_dataset_open(&ds, in, 1, NULL, &e) == PQT_EIO);
  CHECK(strstr(e.message, "no files match") != NULL);
  snprintf(g, sizeof g, "%s/missing", g_root);
  CHECK(pqt_dataset_open(&ds, in, 1, NULL, &e) == PQT_EIO);
  CHECK(strstr(e.message, "missing") != NULL);
  /* several inputs: a file and a directory */
  char f1[600], d2[600];
  snprintf(f1, sizeof f1, "%s/year=2023/month=01/part-0.parquet", g_root);
  snprintf(d2, sizeof d2, "%s/year=2024", g_root);
  const char *two[] = {f1, d2};
  CHECK(pqt_dataset_open(&ds, two, 2, NULL, &e) == PQT_EINVAL); /* partition keys differ (year=, month= vs month=) */
  CHECK(strstr(e.message, "partition") != NULL);
  pqt_dataset_options dopt;
  pqt_dataset_options_init(&dopt);
  dopt.hive_partitioning = 0;
  CHECK_OK(pqt_dataset_open(&ds, two, 2, &dopt, &e));
  CHECK_EQ_INT(pqt_dataset_num_files(ds), 3);
  pqt_dataset_close(ds);
  drop_root();
}

static const char *const ID_V_W[] = {"id", "v", "w"};
static const char *const ID_S[] = {"id", "s"};

static void check_widened(const struct ArrowSchema *s, const struct ArrowArray *b, int64_t i, void *ctx) {
  int *bad = ctx;
  const struct ArrowArray *id = b->children[child_index(s, "id")], *v = b->children[child_index(s, "v")],
                          *w = b->children[child_index(s, "w")], *str = b->children[child_index(s, "s")];
  int64_t x = i64_at(id, i);
  if (x >= 2000 ? is_valid(v, i) : i64_at(v, i) != x) (*bad)++; /* c.parquet has no v */
  bool has_w = x >= 1000 && x < 2000;
  if (is_valid(w, i) != has_w) (*bad)++;
  if (has_w && ((const double *)w->buffers[1])[w->offset + i] != (double)x) (*bad)++;
  if (is_valid(str, i) != (x >= 2000)) (*bad)++;
}

static void test_unify(void) {
  fresh_root("unify");
  CHECK_EQ_INT(write_file("a.parquet", "li", ID_V, 50, 20, 0), 0);       /* v int32 */
  CHECK_EQ_INT(write_file("b.parquet", "llf", ID_V_W, 60, 20, 1000), 0); /* v int64, w float */
  CHECK_EQ_INT(write_file("c.parquet", "ls", ID_S, 30, 20, 2000), 0);    /* no v: v NULL */
  pqt_error e;
  const char *in[] = {g_root};
  pqt_dataset *ds = open_root();
  if (!ds) return;
  struct ArrowSchema s;
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_INT(s.n_children, 4);
  CHECK_EQ_STR(s.children[1]->format, "l");
  CHECK_EQ_STR(s.children[2]->format, "f");
  CHECK_EQ_STR(s.children[3]->format, "u");
  s.release(&s);
  pqt_dataset_close(ds);
  /* float widened to double by a later file */
  CHECK_EQ_INT(write_file("d.parquet", "lld", ID_V_W, 10, 20, 1500), 0);
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_STR(s.children[2]->format, "g");
  s.release(&s);
  CHECK_EQ_INT(scan_checked(ds, NULL, check_widened), 150);
  /* a filter on a column missing from some files: NULL there */
  pqt_expr *f;
  const char *q = "w >= 1010 OR s IS NULL AND v < 5";
  CHECK_OK(pqt_expr_parse(q, strlen(q), &f, &e));
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.filter = f;
  int64_t n = -1;
  CHECK_OK(pqt_dataset_count(ds, &so, &n, &e));
  CHECK_EQ_INT(n, 50 + 10 + 5);
  struct ArrowArrayStream st;
  CHECK_OK(pqt_dataset_get_stream(ds, &so, &st, &e));
  CHECK_EQ_INT(drain(&st, NULL, NULL), 65);
  pqt_expr_free(f);
  CHECK_OK(count_where(ds, "NOT (w < 1010)", &n, &e)); /* NULL w stays unknown under NOT */
  CHECK_EQ_INT(n, 50 + 10);
  pqt_dataset_close(ds);
  /* incompatible: v as a string names both files */
  static const char *const ID_VS[] = {"id", "v"};
  CHECK_EQ_INT(write_file("e.parquet", "ls", ID_VS, 10, 20, 3000), 0);
  CHECK(pqt_dataset_open(&ds, in, 1, NULL, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "a.parquet") != NULL && strstr(e.message, "e.parquet") != NULL);
  CHECK(strstr(e.message, "column v") != NULL);
  /* not a Parquet file */
  char p[512];
  snprintf(p, sizeof p, "%s/e.parquet", g_root);
  FILE *fp = fopen(p, "w");
  if (fp) {
    fputs("hello", fp);
    fclose(fp);
  }
  CHECK(pqt_dataset_open(&ds, in, 1, NULL, &e) != PQT_OK);
  CHECK(strstr(e.message, "e.parquet") != NULL);
  drop_root();
}

static void test_default_partition_and_strings(void) {
  fresh_root("hive");
  CHECK_EQ_INT(write_file("k=a%2Fb/x.parquet", "li", ID_V, 10, 20, 0), 0);
  CHECK_EQ_INT(write_file("k=__HIVE_DEFAULT_PARTITION__/x.parquet", "li", ID_V, 7, 20, 100), 0);
  CHECK_EQ_INT(write_file("k=zz/x.parquet", "li", ID_V, 5, 20, 200), 0);
  pqt_error e;
  pqt_dataset *ds = open_root();
  if (!ds) return;
  struct ArrowSchema s;
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  CHECK_EQ_STR(s.children[2]->format, "u");
  s.release(&s);
  const char *qs[] = {"k IS NULL", "k = 'a/b'", "k LIKE 'z%'", "k IN ('zz', 'a/b')", "NOT (k = 'zz')", "k > 'a'"};
  const int64_t want[] = {7, 10, 5, 15, 10, 15};
  for (int i = 0; i < 6; i++) {
    pqt_expr *f;
    CHECK_OK(pqt_expr_parse(qs[i], strlen(qs[i]), &f, &e));
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.filter = f;
    int64_t n = -1;
    CHECK_OK(pqt_dataset_count(ds, &so, &n, &e));
    CHECK_MSG(n == want[i], "%s: %lld rows", qs[i], (long long)n);
    struct ArrowArrayStream st;
    CHECK_OK(pqt_dataset_get_stream(ds, &so, &st, &e));
    CHECK_EQ_INT(drain(&st, NULL, NULL), want[i]);
    pqt_expr_free(f);
  }
  pqt_dataset_close(ds);
  drop_root();
}

static void test_plan(void) {
  fresh_root("plan");
  CHECK_EQ_INT(write_file("p=1/a.parquet", "li", ID_V, 1000, 100, 0), 0);
  CHECK_EQ_INT(write_file("p=2/b.parquet", "li", ID_V, 700, 100, 1000), 0);
  CHECK_EQ_INT(write_file("p=3/c.parquet", "li", ID_V, 300, 100, 2000), 0);
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[] = {g_root};
  CHECK_OK(pqt_dataset_open(&ds, in, 1, NULL, &e));
  if (!ds) return;
  const char *qs[] = {"id >= 450 AND id < 1250", "p <> 2 AND v % 2 = 0", "p = 3 OR id < 100", NULL};
  for (int qi = 0; qi < 4; qi++) {
    if (qi == 1) continue; /* no modulo in the grammar */
    pqt_expr *f = NULL;
    if (qs[qi]) CHECK_OK(pqt_expr_parse(qs[qi], strlen(qs[qi]), &f, &e));
    for (int64_t target = 1; target <= ((int64_t)1 << 40); target *= 4096) {
      pqt_dataset_unit *u = NULL;
      int32_t nu = 0;
      CHECK_OK(pqt_dataset_plan(ds, f, target, &u, &nu, &e));
      int64_t unit_rows = 0, filtered = 0;
      for (int32_t i = 0; i < nu; i++) {
        unit_rows += u[i].rows;
        CHECK(u[i].n_row_groups >= 1 && u[i].bytes > 0);
        pqt_scan_options so;
        pqt_scan_options_init(&so);
        so.filter = f;
        struct ArrowArrayStream st;
        CHECK_OK(pqt_dataset_unit_stream(ds, &u[i], &so, &st, &e));
        filtered += drain(&st, NULL, NULL);
      }
      /* the row groups pruning keeps, counted independently */
      int64_t kept = qi == 0 ? 1000 - 400 + 300 : qi == 2 ? 300 + 100 : 2000;
      CHECK_MSG(unit_rows == kept, "%s target %lld: units hold %lld rows", qs[qi] ? qs[qi] : "(all)", (long long)target,
                (long long)unit_rows);
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.filter = f;
      int64_t n = -1;
      CHECK_OK(pqt_dataset_count(ds, &so, &n, &e));
      CHECK_EQ_INT(filtered, n);
      if (target == 1) CHECK_EQ_INT(nu, kept / 100);   /* one row group a unit */
      if (target > ((int64_t)1 << 30)) CHECK(nu <= 3); /* one unit a file at most */
      pqt_dataset_plan_free(u);
    }
    pqt_expr_free(f);
  }
  /* a unit not of this dataset */
  pqt_dataset_unit bogus = {.file = 0, .first_row_group = 9, .n_row_groups = 2};
  struct ArrowArrayStream st;
  CHECK(pqt_dataset_unit_stream(ds, &bogus, NULL, &st, &e) == PQT_EINVAL);
  pqt_dataset_close(ds);
  drop_root();
}

/* What a dataset opened at some thread count says of its files. */
typedef struct ds_view {
  int32_t files;
  int64_t rows, id_sum;
  uint64_t h; /* per file: path, rows, row groups; the unified schema's names and formats */
  char error[600];
} ds_view;

static void mixs(uint64_t *h, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) *h = (*h ^ ((const uint8_t *)p)[i]) * 1099511628211ull;
}

static void sum_ids(const struct ArrowSchema *s, const struct ArrowArray *b, int64_t i, void *ctx) {
  int k = child_index(s, "id");
  if (k >= 0 && is_valid(b->children[k], i)) *(int64_t *)ctx += i64_at(b->children[k], i);
}

static void open_view(int32_t threads, ds_view *v) {
  memset(v, 0, sizeof *v);
  v->h = 14695981039346656037ull;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.threads = threads;
  pqt_dataset_options o;
  pqt_dataset_options_init(&o);
  o.read = &ro;
  pqt_dataset *ds = NULL;
  pqt_error e;
  const char *in[] = {g_root};
  if (pqt_dataset_open(&ds, in, 1, &o, &e) != PQT_OK) {
    snprintf(v->error, sizeof v->error, "%s", e.message);
    return;
  }
  v->files = pqt_dataset_num_files(ds);
  for (int32_t f = 0; f < v->files; f++) {
    const char *p = pqt_dataset_file_path(ds, f);
    int64_t r = pqt_dataset_file_num_rows(ds, f);
    int32_t g = pqt_dataset_file_num_row_groups(ds, f);
    mixs(&v->h, p, strlen(p));
    mixs(&v->h, &r, sizeof r);
    mixs(&v->h, &g, sizeof g);
  }
  struct ArrowSchema s;
  CHECK_OK(pqt_dataset_schema(ds, &s, &e));
  for (int64_t i = 0; i < s.n_children; i++) {
    mixs(&v->h, s.children[i]->name, strlen(s.children[i]->name));
    mixs(&v->h, s.children[i]->format, strlen(s.children[i]->format));
  }
  s.release(&s);
  struct ArrowArrayStream st;
  CHECK_OK(pqt_dataset_get_stream(ds, NULL, &st, &e));
  v->rows = drain(&st, sum_ids, &v->id_sum);
  pqt_dataset_close(ds);
}

/* Footers read concurrently: many files give the same dataset (files,
 * rows, row groups, unified schema, rows read) at 1, 2, 4 and 0 (every
 * core) threads, and the error of the first bad file in order. */
static void test_many_files_any_thread_count(void) {
  fresh_root("many");
  enum { N = 60 };
  int64_t rows = 0;
  for (int i = 0; i < N; i++) {
    char rel[64];
    snprintf(rel, sizeof rel, "d%d/f%03d.parquet", i % 3, i);
    /* v int32 in most files, int64 in some (widened), w float from file 20 on */
    const char *kinds = i % 7 == 3 ? "ll" : i >= 20 ? "lif" : "li";
    CHECK_EQ_INT(write_file(rel, kinds, ID_V_W, 10 + i, 16, (int64_t)i * 1000), 0);
    rows += 10 + i;
  }
  ds_view one;
  open_view(1, &one);
  CHECK_EQ_STR(one.error, "");
  CHECK_EQ_INT(one.files, N);
  CHECK(one.rows == rows);
  static const int32_t counts[] = {2, 4, 0};
  for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
    ds_view more;
    open_view(counts[k], &more);
    CHECK_MSG(more.h == one.h && more.files == one.files && more.rows == one.rows && more.id_sum == one.id_sum &&
                  strcmp(more.error, one.error) == 0,
              "%d threads: %d files, %lld rows (%s); 1 thread %d, %lld", (int)counts[k], more.files,
              (long long)more.rows, more.error, one.files, (long long)one.rows);
  }
  /* two files that are not Parquet: the first in order is the error, at any thread count */
  static const char *const bad[] = {"d1/f010.parquet", "d0/f042.parquet"};
  for (int b = 0; b < 2; b++) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", g_root, bad[b]);
    FILE *fp = fopen(p, "w");
    if (fp) {
      fputs("not parquet", fp);
      fclose(fp);
    }
  }
  ds_view e1;
  open_view(1, &e1);
  CHECK(strstr(e1.error, "f042.parquet") != NULL); /* d0/ comes before d1/ */
  for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
    ds_view en;
    open_view(counts[k], &en);
    CHECK_MSG(strcmp(en.error, e1.error) == 0, "%d threads: \"%s\", 1 thread \"%s\"", (int)counts[k], en.error,
              e1.error);
  }
  drop_root();
}

RUN_TESTS("dataset", TEST_CASE(test_partitions), TEST_CASE(test_globs), TEST_CASE(test_unify),
          TEST_CASE(test_default_partition_and_strings), TEST_CASE(test_plan),
          TEST_CASE(test_many_files_any_thread_count))
