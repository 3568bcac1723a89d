/*
 * bench/write_bench.c: single-threaded Parquet writing through the public
 * API (spec: parquet-format README.md; the writer is file/writer.c).
 *
 *   write_bench IN.parquet OUT.parquet --codec NAME [--repeat K] [--page-version 1|2]
 *               [--encrypt-footer KEY [--encrypt-ctr]]  (every column with the footer key)
 *
 * Reads IN fully into Arrow record batches once (pqt_reader_get_stream),
 * then times writing them to OUT K times (default 5) with default options
 * but the codec, and ends with
 *   rows=R out_bytes=B best_seconds=S median_seconds=M cpu_best_seconds=C
 * (C: the process's CPU time, every thread, of the fastest-by-CPU write: on
 * a machine others load, a steadier figure than the wall clock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench_util.h"

#include "parquetry.h"
#include "parquetry_arrow.h"

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static const struct {
  const char *name;
  pqt_codec codec;
} codec_names[] = {{"uncompressed", PQT_CODEC_UNCOMPRESSED},
                   {"snappy", PQT_CODEC_SNAPPY},
                   {"gzip", PQT_CODEC_GZIP},
                   {"lzo", PQT_CODEC_LZO},
                   {"brotli", PQT_CODEC_BROTLI},
                   {"lz4", PQT_CODEC_LZ4},
                   {"zstd", PQT_CODEC_ZSTD},
                   {"lz4_raw", PQT_CODEC_LZ4_RAW}};

int main(int argc, char **argv) {
  const char *encrypt_key = NULL;
  int encrypt_ctr = 0;
  const char *in = NULL, *out = NULL, *codec = "snappy";
  int repeat = 5, page_version = 1;
  int threads = 0; /* --threads N: pqt_write_options.threads (0: one per core) */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "--codec") == 0 && i + 1 < argc) codec = argv[++i];
    else if (strcmp(argv[i], "--page-version") == 0 && i + 1 < argc) page_version = atoi(argv[++i]);
    else if (strcmp(argv[i], "--encrypt-footer") == 0 && i + 1 < argc) encrypt_key = argv[++i];
    else if (strcmp(argv[i], "--encrypt-ctr") == 0) encrypt_ctr = 1;
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
    else if (!in) in = argv[i];
    else out = argv[i];
  }
  int codec_id = -1;
  for (size_t i = 0; i < sizeof codec_names / sizeof codec_names[0]; i++)
    if (strcmp(codec, codec_names[i].name) == 0) codec_id = (int)codec_names[i].codec;
  if (!in || !out || repeat < 1 || codec_id < 0) {
    fprintf(stderr, "usage: write_bench IN.parquet OUT.parquet --codec NAME [--repeat K] [--page-version 1|2]\n"
                    "                   [--encrypt-footer KEY [--encrypt-ctr]] [--threads N]\n");
    return 2;
  }
  pqt_error err;
  pqt_error_init(&err);
  pqt_reader *r;
  pqt_read_options ro; /* the input is read at the same thread count */
  pqt_read_options_init(&ro);
  ro.threads = threads;
  if (pqt_reader_open_file(&r, in, &ro, &err) != PQT_OK) {
    fprintf(stderr, "write_bench: %s: %s\n", in, err.message);
    return 1;
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 65536;
  struct ArrowArrayStream stream;
  if (pqt_reader_get_stream(r, &so, &stream, &err) != PQT_OK) {
    fprintf(stderr, "write_bench: %s: %s\n", in, err.message);
    return 1;
  }
  size_t nb = 0, cap = 64;
  struct ArrowArray *batches = malloc(cap * sizeof *batches);
  long long rows = 0;
  for (;;) {
    if (nb == cap) batches = realloc(batches, (cap *= 2) * sizeof *batches);
    if (!batches) return 1;
    if (stream.get_next(&stream, &batches[nb]) != 0) {
      fprintf(stderr, "write_bench: %s: %s\n", in, stream.get_last_error(&stream));
      return 1;
    }
    if (!batches[nb].release) break;
    rows += batches[nb].length;
    nb++;
  }
  stream.release(&stream);
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.codec = codec_id;
  wo.defaults.page_version = page_version;
  wo.threads = threads;
  pqt_encryption_options eo;
  pqt_encryption_options_init(&eo);
  if (encrypt_key) { /* every column with the footer key, encrypted footer */
    eo.footer_key = (const uint8_t *)encrypt_key;
    eo.footer_key_len = strlen(encrypt_key);
    if (encrypt_ctr) eo.algorithm = PQT_ENCRYPTION_AES_GCM_CTR_V1;
    wo.encryption = &eo;
  }
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = r};
  double *times = malloc((size_t)repeat * sizeof *times);
  long long out_bytes = 0;
  double best_cpu = 0;
  for (int k = 0; k < repeat; k++) {
    double t0 = now(), c0 = cpu_now();
    pqt_writer *w;
    if (pqt_writer_open_file(&w, out, &ws, &wo, &err) != PQT_OK) {
      fprintf(stderr, "write_bench: %s: %s\n", out, err.message);
      return 1;
    }
    for (size_t i = 0; i < nb; i++) {
      if (pqt_writer_write_batch(w, &batches[i], &err) != PQT_OK) {
        fprintf(stderr, "write_bench: %s: %s\n", out, err.message);
        pqt_writer_discard(w);
        return 1;
      }
    }
    if (pqt_writer_close(w, &err) != PQT_OK) {
      fprintf(stderr, "write_bench: %s: %s\n", out, err.message);
      return 1;
    }
    times[k] = now() - t0;
    double c = cpu_now() - c0;
    if (k == 0 || c < best_cpu) best_cpu = c;
    struct stat st;
    if (stat(out, &st) == 0) out_bytes = (long long)st.st_size;
  }
  qsort(times, (size_t)repeat, sizeof *times, cmp_double);
  double median = repeat % 2 ? times[repeat / 2] : (times[repeat / 2 - 1] + times[repeat / 2]) / 2;
  printf("rows=%lld out_bytes=%lld best_seconds=%.4f median_seconds=%.4f cpu_best_seconds=%.4f\n", rows, out_bytes,
         times[0], median, best_cpu);
  for (size_t i = 0; i < nb; i++) batches[i].release(&batches[i]);
  free(batches);
  free(times);
  pqt_reader_close(r);
  return 0;
}
