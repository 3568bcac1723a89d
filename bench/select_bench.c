/*
 * bench/select_bench.c: selective reads on a lineitem-like file.
 *
 *   select_bench [--rows N] [--page-size BYTES] [--row-group-rows N] [--passes K] [--keep FILE]
 *
 * Writes (with parquetry, page index on, small pages, a Bloom filter on
 * l_partkey) a file of N rows (default 2000000) sorted by l_orderkey, then
 * reads it through the public Arrow stream (every column projected, every
 * batch released) K times (default 3) per query:
 *   full      no predicate (the baseline)
 *   range     l_orderkey BETWEEN a AND a + 0.1% of the keys (sorted key)
 *   point     l_partkey = v (unsorted, high cardinality, Bloom filter)
 *   flag      l_returnflag = 'R' (a low-cardinality string, 2% of rows)
 *   half      l_discount < 0.05 (45% of the rows, scattered)
 *   half_scan_then_filter  the baseline for `half`: every row streamed,
 *             the predicate evaluated and every column compacted by the
 *             caller (what a reader without late materialisation costs)
 * and prints per query one line:
 *   query=Q rows=R bytes_read=B bytes_pct=P pages=P/PT median_ms=M passes_ms=a,b,c speedup=S
 * (speedup: the full scan's median over this one's). The WHERE texts are
 * printed first (sql: lines) for bench/select_compare.sh, which runs the
 * same queries in DuckDB. --keep FILE writes the file there and keeps it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

#include "parquetry.h"
#include "parquetry_arrow.h"

static const char *SCHEMA =
    "message lineitem {\n"
    "  required int64 l_orderkey;\n"
    "  required int64 l_partkey;\n"
    "  required int32 l_suppkey;\n"
    "  required int32 l_linenumber;\n"
    "  required double l_quantity;\n"
    "  required double l_extendedprice;\n"
    "  required double l_discount;\n"
    "  required double l_tax;\n"
    "  required binary l_returnflag (STRING);\n"
    "  required binary l_linestatus (STRING);\n"
    "  required int32 l_shipdate (DATE);\n"
    "  required binary l_shipmode (STRING);\n"
    "  required binary l_comment (STRING);\n"
    "}\n";

enum { N_COLS = 13 };

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void die(const char *what, const pqt_error *e) {
  fprintf(stderr, "select_bench: %s: %s\n", what, e ? e->message : "");
  exit(1);
}

typedef struct gen {
  int64_t *i64;
  int32_t *i32;
  double *f64;
  char *bytes;
  int32_t *offs;
} gen;

/* Write the file; *point_key: an l_partkey present once. */
static void write_file(const char *path, int64_t rows, int64_t rg_rows, int64_t page_size, int64_t *point_key) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = rg_rows;
  o.defaults.page_size = page_size;
  o.defaults.page_row_limit = 1 << 20;
  pqt_column_override ov[2];
  ov[0].path = "l_partkey";
  pqt_column_options_init(&ov[0].options);
  ov[0].options = o.defaults;
  ov[0].options.bloom_filter = 1;
  ov[0].options.bloom_ndv = rg_rows;
  ov[0].options.dictionary = 0;
  ov[1].path = "l_comment";
  ov[1].options = o.defaults;
  ov[1].options.dictionary = 0;
  o.columns = ov;
  o.n_columns = 2;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = SCHEMA;
  pqt_writer *w;
  pqt_error e;
  if (pqt_writer_open_file(&w, path, &ws, &o, &e) != PQT_OK) die("open writer", &e);
  static const char *const flags[] = {"A", "N", "R"}, *const status[] = {"O", "F"};
  static const char *const modes[] = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
  static const char *const words[] = {"carefully", "final", "deposits",  "sleep",   "quickly",  "ironic",   "packages",
                                      "across",    "the",   "furiously", "express", "accounts", "blithely", "regular"};
  gen g;
  g.i64 = malloc(sizeof(int64_t) * (size_t)rg_rows);
  g.i32 = malloc(sizeof(int32_t) * (size_t)rg_rows);
  g.f64 = malloc(sizeof(double) * (size_t)rg_rows);
  g.bytes = malloc((size_t)rg_rows * 64 + 64);
  g.offs = malloc(sizeof(int32_t) * ((size_t)rg_rows + 1));
  if (!g.i64 || !g.i32 || !g.f64 || !g.bytes || !g.offs) die("out of memory", NULL);
  uint64_t seed[N_COLS];
  for (int c = 0; c < N_COLS; c++) seed[c] = 0x9E3779B97F4A7C15ULL * (uint64_t)(c + 1);
  *point_key = -1;
  for (int64_t start = 0; start < rows; start += rg_rows) {
    int64_t n = rows - start < rg_rows ? rows - start : rg_rows;
    for (int c = 0; c < N_COLS; c++) {
      uint64_t *s = &seed[c];
      const void *vals = NULL;
      const int32_t *offs = NULL;
      size_t nb = 0;
      g.offs[0] = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t row = start + i;
        uint64_t x = xorshift64(s);
        switch (c) {
          case 0: g.i64[i] = row / 4 * 4 + 1; break; /* l_orderkey: sorted, 4 lines per order */
          case 1:
            g.i64[i] = (int64_t)(x >> 24); /* l_partkey: 40 random bits */
            if (row == rows / 3) *point_key = g.i64[i];
            break;
          case 2: g.i32[i] = (int32_t)(x % 10000) + 1; break;
          case 3: g.i32[i] = (int32_t)(row % 4) + 1; break;
          case 4: g.f64[i] = (double)(x % 50 + 1); break;
          case 5: g.f64[i] = (double)(x % 10000000) / 100.0 + 900.0; break;
          case 6: g.f64[i] = (double)(x % 11) / 100.0; break; /* 0.00 .. 0.10: < 0.05 for 5 of 11 */
          case 7: g.f64[i] = (double)(x % 9) / 100.0; break;
          case 8:
          case 9:
          case 11: {
            const char *v = c == 8 ? (x % 100 < 2 ? flags[2] : flags[x % 2]) : c == 9 ? status[x % 2] : modes[x % 7];
            size_t l = strlen(v);
            memcpy(g.bytes + nb, v, l);
            nb += l;
            g.offs[i + 1] = (int32_t)nb;
            break;
          }
          case 10: g.i32[i] = 8035 + (int32_t)(x % 2526); break;
          default: {
            int nw = 3 + (int)(x % 5);
            for (int k = 0; k < nw; k++) {
              const char *v = words[xorshift64(s) % 14];
              size_t l = strlen(v);
              if (k) g.bytes[nb++] = ' ';
              memcpy(g.bytes + nb, v, l);
              nb += l;
            }
            g.offs[i + 1] = (int32_t)nb;
            break;
          }
        }
      }
      switch (c) {
        case 0:
        case 1: vals = g.i64; break;
        case 2:
        case 3:
        case 10: vals = g.i32; break;
        case 4:
        case 5:
        case 6:
        case 7: vals = g.f64; break;
        default:
          vals = g.bytes;
          offs = g.offs;
          break;
      }
      if (pqt_writer_write_column(w, c, n, NULL, NULL, vals, offs, n, &e) != PQT_OK) die("write", &e);
    }
    if (pqt_writer_flush_row_group(w, &e) != PQT_OK) die("flush", &e);
  }
  if (pqt_writer_close(w, &e) != PQT_OK) die("close", &e);
  free(g.i64);
  free(g.i32);
  free(g.f64);
  free(g.bytes);
  free(g.offs);
}

/* The l_partkey write_file picks, without writing (--reuse). */
static int64_t first_point_key(int64_t rows, int64_t rg_rows) {
  uint64_t s = 0x9E3779B97F4A7C15ULL * 2;
  int64_t key = -1;
  for (int64_t start = 0; start < rows; start += rg_rows) {
    int64_t n = rows - start < rg_rows ? rows - start : rg_rows;
    for (int64_t i = 0; i < n; i++) {
      uint64_t x = xorshift64(&s);
      if (start + i == rows / 3) key = (int64_t)(x >> 24);
    }
  }
  return key;
}

/* One pass: stream every column where `where` holds (NULL: all rows). */
static double run(const char *path, const char *where, pqt_scan_stats *st, int64_t *rows) {
  pqt_error e;
  pqt_reader *r;
  pqt_expr *x = NULL;
  if (where && pqt_expr_parse(where, strlen(where), &x, &e) != PQT_OK) die(where, &e);
  double t0 = now();
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) die("open", &e);
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.filter = x;
  so.stats = st;
  struct ArrowArrayStream s;
  if (pqt_reader_get_stream(r, &so, &s, &e) != PQT_OK) die("stream", &e);
  *rows = 0;
  for (;;) {
    struct ArrowArray b;
    if (s.get_next(&s, &b) != 0) die(s.get_last_error(&s), NULL);
    if (!b.release) break;
    *rows += b.length;
    b.release(&b);
  }
  s.release(&s);
  pqt_reader_close(r);
  double t = now() - t0;
  pqt_expr_free(x);
  return t;
}

/* Keep the rows with sel[i] of an Arrow column (fixed width w, or strings
 * when w == 0) in freshly allocated buffers, as an application filtering a
 * full scan would; returns a checksum so the work is not optimised away. */
static uint64_t compact(const struct ArrowArray *a, size_t w, const uint8_t *sel) {
  int64_t n = a->length, off = a->offset;
  uint64_t sum = 0;
  if (w) {
    const uint8_t *src = (const uint8_t *)a->buffers[1] + (size_t)off * w;
    uint8_t *dst = malloc((size_t)n * w + 8);
    int64_t j = 0;
    for (int64_t i = 0; i < n; i++) {
      memcpy(dst + (size_t)j * w, src + (size_t)i * w, w);
      j += sel[i];
    }
    sum = (uint64_t)j + (j ? dst[0] : 0);
    free(dst);
    return sum;
  }
  const int32_t *o = (const int32_t *)a->buffers[1] + off;
  const uint8_t *d = a->buffers[2];
  int32_t *no = malloc(sizeof(int32_t) * ((size_t)n + 1));
  uint8_t *nd = malloc((size_t)(o[n] - o[0]) + 1);
  int32_t pos = 0;
  int64_t j = 0;
  no[0] = 0;
  for (int64_t i = 0; i < n; i++)
    if (sel[i]) {
      int32_t l = o[i + 1] - o[i];
      memcpy(nd + pos, d + o[i], (size_t)l);
      pos += l;
      no[++j] = pos;
    }
  sum = (uint64_t)pos + (uint64_t)j;
  free(no);
  free(nd);
  return sum;
}

/* The baseline for the 50% query: every column streamed, then
 * l_discount < 0.05 evaluated and every column compacted by the caller. */
static double run_scan_then_filter(const char *path, int64_t *rows) {
  static const size_t width[N_COLS] = {8, 8, 4, 4, 8, 8, 8, 8, 0, 0, 4, 0, 0};
  pqt_error e;
  pqt_reader *r;
  double t0 = now();
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) die("open", &e);
  struct ArrowArrayStream s;
  if (pqt_reader_get_stream(r, NULL, &s, &e) != PQT_OK) die("stream", &e);
  *rows = 0;
  uint64_t sum = 0;
  uint8_t *sel = NULL;
  int64_t sel_cap = 0;
  for (;;) {
    struct ArrowArray b;
    if (s.get_next(&s, &b) != 0) die(s.get_last_error(&s), NULL);
    if (!b.release) break;
    if (b.length > sel_cap) {
      free(sel);
      sel_cap = b.length;
      sel = malloc((size_t)sel_cap);
    }
    const struct ArrowArray *disc = b.children[6];
    const double *dv = (const double *)disc->buffers[1] + disc->offset;
    int64_t k = 0;
    for (int64_t i = 0; i < b.length; i++) {
      sel[i] = dv[i] < 0.05;
      k += sel[i];
    }
    for (int c = 0; c < N_COLS; c++) sum += compact(b.children[c], width[c], sel);
    *rows += k;
    b.release(&b);
  }
  free(sel);
  s.release(&s);
  pqt_reader_close(r);
  double t = now() - t0;
  if (sum == 42) printf(" ");
  return t;
}

int main(int argc, char **argv) {
  int64_t rows = 2000000, rg_rows = 250000, page_size = 16 << 10;
  int passes = 3;
  const char *keep = NULL, *only = NULL, *reuse = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc) rows = atoll(argv[++i]);
    else if (strcmp(argv[i], "--page-size") == 0 && i + 1 < argc) page_size = atoll(argv[++i]);
    else if (strcmp(argv[i], "--row-group-rows") == 0 && i + 1 < argc) rg_rows = atoll(argv[++i]);
    else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc) passes = atoi(argv[++i]);
    else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc) keep = argv[++i];
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--reuse") == 0 && i + 1 < argc) reuse = argv[++i];
    else {
      fprintf(stderr,
              "usage: select_bench [--rows N] [--page-size BYTES] [--row-group-rows N] [--passes K] [--keep FILE]\n"
              "                    [--reuse FILE (written before with the same --rows)] [--only QUERY]\n");
      return 2;
    }
  }
  if (rows < 1000 || rg_rows < 1 || page_size < 1024 || passes < 1 || passes > 50) {
    fprintf(stderr, "select_bench: bad arguments\n");
    return 2;
  }
  char tmpl[] = "/tmp/select_bench.XXXXXX.parquet";
  const char *path = reuse ? reuse : keep;
  if (!path) {
    int fd = mkstemps(tmpl, 8);
    if (fd < 0) die("temporary file", NULL);
    close(fd);
    path = tmpl;
  }
  int64_t point_key;
  double tw = now();
  if (reuse) point_key = first_point_key(rows, rg_rows);
  else write_file(path, rows, rg_rows, page_size, &point_key);
  FILE *f = fopen(path, "rb");
  long long file_bytes = 0;
  if (f) {
    fseek(f, 0, SEEK_END);
    file_bytes = ftell(f);
    fclose(f);
  }
  printf("file=%s rows=%" PRId64 " bytes=%lld page_size=%" PRId64 " row_group_rows=%" PRId64 " write_s=%.2f\n", path,
         rows, file_bytes, page_size, rg_rows, now() - tw);
  /* the keys: l_orderkey = row / 4 * 4 + 1; 0.1% of them from 40% in */
  int64_t lo = rows * 2 / 5 / 4 * 4 + 1, hi = lo + rows / 1000 - 1;
  char q_range[128], q_point[128];
  snprintf(q_range, sizeof q_range, "l_orderkey BETWEEN %" PRId64 " AND %" PRId64, lo, hi);
  snprintf(q_point, sizeof q_point, "l_partkey = %" PRId64, point_key);
  const char *names[] = {"full", "range", "point", "flag", "half", "half_scan_then_filter"};
  const char *wheres[] = {NULL, q_range, q_point, "l_returnflag = 'R'", "l_discount < 0.05", NULL};
  for (int q = 1; q < 5; q++) printf("sql: %s %s\n", names[q], wheres[q]);
  double full_median = 0;
  for (int q = 0; q < 6; q++) {
    if (only && q > 0 && strncmp(only, names[q], strlen(only)) != 0) continue;
    double t[50];
    pqt_scan_stats st;
    memset(&st, 0, sizeof st);
    int64_t got = 0;
    for (int p = 0; p < passes; p++) {
      memset(&st, 0, sizeof st);
      t[p] = q == 5 ? run_scan_then_filter(path, &got) : run(path, wheres[q], &st, &got);
    }
    char list[512];
    size_t k = 0;
    for (int p = 0; p < passes && k < sizeof list - 16; p++)
      k += (size_t)snprintf(list + k, sizeof list - k, "%s%.1f", p ? "," : "", t[p] * 1000);
    qsort(t, (size_t)passes, sizeof t[0], cmp_double);
    double med = t[passes / 2];
    if (q == 0) full_median = med;
    printf("query=%s rows=%" PRId64
           " bytes_read=%llu bytes_pct=%.2f pages=%lld/%lld median_ms=%.1f passes_ms=%s "
           "speedup=%.1f\n",
           names[q], got, (unsigned long long)st.bytes_read,
           file_bytes ? 100.0 * (double)st.bytes_read / (double)file_bytes : 0.0, (long long)st.pages_read,
           (long long)st.pages_total, med * 1000, list, full_median / med);
    fflush(stdout);
  }
  if (!keep && !reuse) remove(path);
  return 0;
}
