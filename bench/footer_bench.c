/*
 * bench/footer_bench.c: the cost of opening a file and decoding its whole
 * metadata (the footer: schema, every row group's column chunks with their
 * statistics, key-value metadata) through the public API.
 *
 *   footer_bench FILE [--repeat K]
 *   footer_bench --make FILE [--columns C] [--row-groups G] [--rows R]
 *
 * The first form opens FILE K times (default 5), each open reading and
 * decoding the whole footer and building the schema, and ends with the same
 * line as read_bench:
 *   rows=R uncompressed_bytes=B best_seconds=S median_seconds=M
 * then the process's CPU time per open (user + system; on a loaded machine
 * the wall clock also counts other jobs' turns):
 *   cpu_best_seconds=S cpu_median_seconds=M
 * The second writes a wide file to time: C columns (default 10,000; int64,
 * double and string in turn, optional, with statistics) in G row groups
 * (default 10) of R rows each (default 8), so its footer dominates it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#include "parquetry.h"

/* CPU time of the process (user + system): on a loaded machine the wall
 * clock also counts the time other jobs had the core. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int make(const char *path, int n_cols, int n_rg, int n_rows) {
  /* The schema as message syntax: "message wide { optional int64 c0; ... }". */
  size_t cap = 64 + (size_t)n_cols * 48, len = 0;
  char *msg = malloc(cap);
  if (!msg) return 1;
  len += (size_t)snprintf(msg + len, cap - len, "message wide {");
  static const char *const types[] = {"int64", "double", "binary"};
  for (int c = 0; c < n_cols; c++) {
    const char *ann = c % 3 == 2 ? " (STRING)" : "";
    len += (size_t)snprintf(msg + len, cap - len, " optional %s c%d%s;", types[c % 3], c, ann);
  }
  snprintf(msg + len, cap - len, " }");
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = msg;
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  pqt_writer *w;
  pqt_error e;
  if (pqt_writer_open_file(&w, path, &ws, &wo, &e) != PQT_OK) {
    fprintf(stderr, "footer_bench: %s: %s\n", path, e.message);
    free(msg);
    return 1;
  }
  free(msg);
  int16_t *def = calloc((size_t)n_rows, sizeof *def);
  int64_t *i64 = calloc((size_t)n_rows, sizeof *i64);
  double *f64 = calloc((size_t)n_rows, sizeof *f64);
  char *str = calloc((size_t)n_rows, 16);
  int32_t *off = calloc((size_t)n_rows + 1, sizeof *off);
  if (!def || !i64 || !f64 || !str || !off) {
    fprintf(stderr, "footer_bench: out of memory\n");
    return 1;
  }
  uint64_t rng = 0x9e3779b97f4a7c15u;
  for (int g = 0; g < n_rg; g++) {
    for (int c = 0; c < n_cols; c++) {
      int64_t nv = 0;
      int32_t sl = 0;
      off[0] = 0;
      for (int i = 0; i < n_rows; i++) {
        uint64_t x = xorshift64(&rng);
        def[i] = (int16_t)((x & 7) != 0); /* about 1 in 8 null */
        if (!def[i]) continue;
        i64[nv] = (int64_t)(x >> 20);
        f64[nv] = (double)(x >> 11) / 9007199254740992.0;
        int n = snprintf(str + sl, 16, "v%llx", (unsigned long long)(x >> 40));
        off[nv] = sl;
        sl += n;
        off[++nv] = sl;
      }
      const void *vals = c % 3 == 0 ? (const void *)i64 : c % 3 == 1 ? (const void *)f64 : (const void *)str;
      if (pqt_writer_write_column(w, c, n_rows, def, NULL, vals, c % 3 == 2 ? off : NULL, nv, &e) != PQT_OK) {
        fprintf(stderr, "footer_bench: %s: column c%d: %s\n", path, c, e.message);
        pqt_writer_discard(w);
        return 1;
      }
    }
    if (pqt_writer_flush_row_group(w, &e) != PQT_OK) {
      fprintf(stderr, "footer_bench: %s: %s\n", path, e.message);
      pqt_writer_discard(w);
      return 1;
    }
  }
  free(def);
  free(i64);
  free(f64);
  free(str);
  free(off);
  if (pqt_writer_close(w, &e) != PQT_OK) {
    fprintf(stderr, "footer_bench: %s: %s\n", path, e.message);
    return 1;
  }
  printf("wrote %s: %d columns x %d row groups of %d rows\n", path, n_cols, n_rg, n_rows);
  return 0;
}

int main(int argc, char **argv) {
  const char *path = NULL, *make_path = NULL;
  int repeat = 5, n_cols = 10000, n_rg = 10, n_rows = 8;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--make") == 0 && i + 1 < argc) make_path = argv[++i];
    else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc) n_cols = atoi(argv[++i]);
    else if (strcmp(argv[i], "--row-groups") == 0 && i + 1 < argc) n_rg = atoi(argv[++i]);
    else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc) n_rows = atoi(argv[++i]);
    else path = argv[i];
  }
  if (make_path) {
    if (n_cols < 1 || n_rg < 1 || n_rows < 1) {
      fprintf(stderr, "footer_bench: --columns, --row-groups and --rows must be positive\n");
      return 2;
    }
    return make(make_path, n_cols, n_rg, n_rows);
  }
  if (!path || repeat < 1) {
    fprintf(stderr,
            "usage: footer_bench FILE [--repeat K]\n"
            "       footer_bench --make FILE [--columns C] [--row-groups G] [--rows R]\n");
    return 2;
  }
  double *times = calloc((size_t)repeat, sizeof *times), *cpu = calloc((size_t)repeat, sizeof *cpu);
  if (!times || !cpu) return 1;
  long long rows = 0, ubytes = 0;
  for (int k = 0; k < repeat; k++) {
    double t0 = now(), c0 = cpu_now();
    pqt_reader *r;
    pqt_error e;
    if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
      fprintf(stderr, "footer_bench: %s: %s\n", path, e.message);
      free(times);
      free(cpu);
      return 1;
    }
    rows = pqt_reader_num_rows(r);
    ubytes = pqt_reader_uncompressed_bytes(r);
    pqt_reader_close(r);
    times[k] = now() - t0;
    cpu[k] = cpu_now() - c0;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_double);
  double median = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
  printf("rows=%lld uncompressed_bytes=%lld best_seconds=%.6f median_seconds=%.6f\n", rows, ubytes, times[0], median);
  qsort(cpu, (size_t)repeat, sizeof *cpu, cmp_double);
  median = repeat % 2 ? cpu[repeat / 2] : (cpu[repeat / 2 - 1] + cpu[repeat / 2]) / 2;
  printf("cpu_best_seconds=%.6f cpu_median_seconds=%.6f\n", cpu[0], median);
  free(times);
  free(cpu);
  return 0;
}
