/* ALP (encoding 10) decode speed next to BYTE_STREAM_SPLIT + zstd and
 * dictionary (RLE_DICTIONARY indices + PLAIN dictionary) on the same
 * sensor-like doubles: a random walk rounded to 2 decimals. The data is cut
 * into pages of P values (as a writer would), each encoded on its own.
 * Decode speed is GB/s of doubles produced, single thread, best of 5, two
 * ways: every page into one n-value output (DRAM-bound writes), and every
 * page into one reused page-sized output (cache-resident, as a reader that
 * releases each batch before the next). Also the encoded sizes.
 * Usage: alp_bench [millions of values, default 10] [values per page, default 65536] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

#if !__has_include("core/core.h")
int main(void) {
  puts("alp_bench: built without src/ on the include path");
  return 0;
}
#else
#include "codec/codec.h"
#include "core/core.h"
#include "encoding/alp.h"
#include "encoding/byte_stream_split.h"
#include "encoding/dictionary.h"
#include "encoding/rle.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { return xorshift64(&rng); }

enum { ALP, BSS_ZSTD, DICT, N_ENC };
static const char *names[N_ENC] = {"ALP", "BYTE_STREAM_SPLIT+zstd", "RLE_DICTIONARY"};

typedef struct page {
  pqt_buf body; /* ALP / zstd-compressed BSS / RLE indices (with the bit-width byte) */
  size_t n;
} page;

int main(int argc, char **argv) {
  size_t n = (size_t)((argc > 1 ? atof(argv[1]) : 10.0) * 1e6);
  size_t P = argc > 2 ? (size_t)atol(argv[2]) : 65536;
  if (P == 0 || n == 0) return 1;
  size_t np = (n + P - 1) / P;
  double *v = malloc(n * 8), *o = malloc(n * 8), *po = malloc(P * 8);
  uint8_t *tmp = malloc(P * 8);
  double walk = 20.0;
  for (size_t i = 0; i < n; i++) {
    walk += (double)((int64_t)(next() % 201) - 100) / 100.0;
    v[i] = round(walk * 100.0) / 100.0;
  }
  pqt_codec_ctx *cx;
  if (pqt_codec_ctx_create(&cx, NULL, NULL) != PQT_OK) return 1;
  page *pg[N_ENC];
  size_t bytes[N_ENC] = {0};
  pqt_dict_builder db;
  pqt_dict_builder_init(&db, 8, NULL);
  uint32_t *idx = malloc(P * 4);
  pqt_buf sb;
  pqt_buf_init(&sb, NULL);
  double tenc[N_ENC] = {0};
  for (int e = 0; e < N_ENC; e++) {
    pg[e] = calloc(np, sizeof(page));
    double t = now();
    for (size_t k = 0; k < np; k++) {
      size_t m = n - k * P < P ? n - k * P : P;
      page *p = &pg[e][k];
      p->n = m;
      pqt_buf_init(&p->body, NULL);
      const double *src = v + k * P;
      pqt_status st = PQT_OK;
      if (e == ALP) st = pqt_alp_encode(src, 8, m, &p->body, NULL);
      if (e == BSS_ZSTD) {
        pqt_buf_clear(&sb);
        st = pqt_bss_encode(src, 8, m, &sb, NULL);
        if (!st) st = pqt_codec_compress(cx, PQT_CODEC_ZSTD, 0, sb.data, sb.len, &p->body, NULL);
      }
      if (e == DICT) {
        st = pqt_dict_builder_add_fixed(&db, src, m, idx, NULL);
        uint8_t bw = (uint8_t)pqt_dict_builder_index_width(&db);
        if (!st) st = pqt_buf_append(&p->body, &bw, 1, NULL);
        if (!st) st = pqt_rle_encode_u32(idx, m, bw, &p->body, NULL);
      }
      if (st) {
        printf("encode error (%s)\n", names[e]);
        return 1;
      }
      bytes[e] += p->body.len;
    }
    tenc[e] = now() - t;
  }
  /* one dictionary for the whole column chunk (a writer falls back past 1 MiB; shown anyway) */
  bytes[DICT] += pqt_dict_builder_bytes(&db);
  const double *dict = (const double *)(const void *)db.plain.data;
  size_t dict_n = pqt_dict_builder_count(&db);

  printf("%zu sensor-like doubles (random walk, 2 decimals), pages of %zu values, PLAIN %zu bytes\n", n, P, n * 8);
  printf("%-24s %12s %7s %10s %14s %14s\n", "encoding", "bytes", "ratio", "enc MB/s", "dec GB/s (n)",
         "dec GB/s (page)");
  for (int e = 0; e < N_ENC; e++) {
    double best[2] = {1e9, 1e9};
    for (int into = 0; into < 2; into++)
      for (int r = 0; r < 5; r++) {
        double t = now();
        for (size_t k = 0; k < np; k++) {
          page *p = &pg[e][k];
          double *out = into ? po : o + k * P;
          pqt_status st = PQT_OK;
          if (e == ALP) {
            pqt_alp_page a;
            st = pqt_alp_page_init(&a, p->body.data, p->body.len, 8, NULL);
            if (!st) st = pqt_alp_decode(&a, 0, p->n, out, NULL);
          } else if (e == BSS_ZSTD) {
            st = pqt_codec_decompress(cx, PQT_CODEC_ZSTD, p->body.data, p->body.len, tmp, p->n * 8, NULL);
            if (!st) st = pqt_bss_decode(tmp, p->n * 8, 8, 0, p->n, out, NULL);
          } else {
            pqt_rle_decoder d;
            st = pqt_rle_dict_page_init(&d, p->body.data, p->body.len, NULL);
            if (!st) st = pqt_rle_get_dict_fixed(&d, dict, dict_n, 8, out, p->n, NULL);
          }
          if (st) {
            printf("decode error (%s)\n", names[e]);
            return 1;
          }
        }
        t = now() - t;
        if (t < best[into]) best[into] = t;
      }
    if (memcmp(o, v, n * 8) != 0) {
      printf("MISMATCH (%s)\n", names[e]);
      return 1;
    }
    printf("%-24s %12zu %7.2f %10.0f %14.2f %14.2f\n", names[e], bytes[e], (double)(n * 8) / (double)bytes[e],
           (double)(n * 8) / tenc[e] / 1e6, (double)(n * 8) / best[0] / 1e9, (double)(n * 8) / best[1] / 1e9);
  }
  printf("(dictionary: %zu distinct values, %zu bytes of dictionary included; every decoded value checked)\n", dict_n,
         pqt_dict_builder_bytes(&db));
  return 0;
}
#endif
