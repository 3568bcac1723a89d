/*
 * bench/read_bench.c: full single-threaded decode of a file into Arrow
 * arrays through the public streaming API.
 *
 *   read_bench FILE [--repeat K] [--batch-size N] [--columns a,b.c] [--cold] [--threads N] [--no-read-ahead] [--decode-ahead]
 *              [--arrow-dictionary] [--arrow-view]
 * FILE may be an http://, https:// or s3:// URL (parquetry_remote.h).
 *
 * --columns projects (as pqt_scan_options.columns): to see where the time
 * of one column goes. --arrow-dictionary / --arrow-view set
 * pqt_read_options.arrow_output (PQT_ARROW_DICTIONARY / PQT_ARROW_VIEW):
 * dictionary arrays, string/binary views.
 * Runs the whole decode K times (default 5) and ends with
 *   rows=R uncompressed_bytes=B best_seconds=S median_seconds=M
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_remote.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int repeat = 5, cold = 0;
  long long batch = 0;
  const char *cols[256];
  int n_cols = 0;
  char *col_arg = NULL;
  const char *footer_key = NULL; /* --footer-key KEY: an encrypted file (16, 24 or 32 characters) */
  int threads = 0;               /* --threads N: pqt_read_options.threads (0: one per core) */
  uint64_t arrow_output = 0;     /* --arrow-dictionary, --arrow-view */
  int read_ahead = 0;            /* --no-read-ahead: -1; --decode-ahead: 1 (pqt_scan_options.read_ahead) */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--batch-size") == 0 && i + 1 < argc) batch = atoll(argv[++i]);
    else if (strcmp(argv[i], "--cold") == 0) cold = 1;
    else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc) col_arg = argv[++i];
    else if (strcmp(argv[i], "--footer-key") == 0 && i + 1 < argc) footer_key = argv[++i];
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--arrow-dictionary") == 0) arrow_output |= PQT_ARROW_DICTIONARY;
    else if (strcmp(argv[i], "--arrow-view") == 0) arrow_output |= PQT_ARROW_VIEW;
    else if (strcmp(argv[i], "--no-read-ahead") == 0) read_ahead = -1;
    else if (strcmp(argv[i], "--decode-ahead") == 0) read_ahead = 1;
    else path = argv[i];
  }
  if (!path || repeat < 1) {
    fprintf(stderr, "usage: read_bench FILE [--repeat K] [--batch-size N] [--columns a,b.c] [--cold] [--footer-key KEY]\n"
                    "                  [--threads N] [--no-read-ahead] [--decode-ahead] [--arrow-dictionary] [--arrow-view]\n");
    return 2;
  }
  for (char *t = col_arg ? strtok(col_arg, ",") : NULL; t && n_cols < 256; t = strtok(NULL, ",")) cols[n_cols++] = t;
  /* One buffer pool for every run, as a process reading many files would
   * keep (--cold: a private pool per open, so every run faults in fresh
   * memory). */
  pqt_buffer_pool *pool = NULL;
  if (!cold) {
    pqt_error pe;
    if (pqt_buffer_pool_create(&pool, NULL, (uint64_t)1 << 30, &pe) != PQT_OK) {
      fprintf(stderr, "read_bench: %s\n", pe.message);
      return 1;
    }
  }
  double *times = calloc((size_t)repeat, sizeof *times);
  long long rows = 0, ubytes = 0;
  for (int k = 0; k < repeat; k++) {
    double t0 = now();
    pqt_reader *r;
    pqt_error e;
    pqt_error_init(&e);
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.buffer_pool = pool;
    ro.threads = threads;
    ro.arrow_output = arrow_output;
    if (footer_key) {
      ro.footer_key = (const uint8_t *)footer_key;
      ro.footer_key_len = strlen(footer_key);
    }
    pqt_status ost = pqt_is_url(path) ? pqt_reader_open_url(&r, path, NULL, &ro, &e) /* http(s)://, s3:// */
                                      : pqt_reader_open_file(&r, path, &ro, &e);
    if (ost != PQT_OK) {
      fprintf(stderr, "read_bench: %s: %s\n", path, e.message);
      return 1;
    }
    ubytes = pqt_reader_uncompressed_bytes(r);
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.batch_size = batch;
    so.columns = n_cols ? cols : NULL;
    so.n_columns = n_cols;
    so.read_ahead = read_ahead;
    struct ArrowArrayStream s;
    if (pqt_reader_get_stream(r, &so, &s, &e) != PQT_OK) {
      fprintf(stderr, "read_bench: %s: %s\n", path, e.message);
      return 1;
    }
    long long n = 0;
    for (;;) {
      struct ArrowArray a;
      if (s.get_next(&s, &a) != 0) {
        fprintf(stderr, "read_bench: %s: %s\n", path, s.get_last_error(&s));
        return 1;
      }
      if (!a.release) break;
      n += a.length;
      a.release(&a);
    }
    s.release(&s);
    pqt_reader_close(r);
    times[k] = now() - t0;
    rows = n;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_double);
  double median = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
  printf("rows=%lld uncompressed_bytes=%lld best_seconds=%.4f median_seconds=%.4f\n", rows, ubytes, times[0], median);
  free(times);
  pqt_buffer_pool_destroy(pool);
  return 0;
}
