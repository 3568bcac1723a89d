/* Micro-benchmark for the encoding kernels: bit unpacking per width, RLE
 * dictionary gather, DELTA_BINARY_PACKED, PLAIN BYTE_ARRAY, BSS.
 * Prints values per second (single thread). Usage: enc_bench [millions]. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

/* This program needs src/ on the include path (internal kernels), which
 * CMake gives the bench targets; built elsewhere without it, it is a stub. */
#if !__has_include("core/core.h")
int main(void) {
  puts("enc_bench: built without src/ on the include path; see the comment at the top");
  return 0;
}
#else
#include "core/core.h"
#include "encoding/bitpack.h"
#include "encoding/byte_stream_split.h"
#include "encoding/delta_binary_packed.h"
#include "encoding/plain.h"
#include "encoding/rle.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { return xorshift64(&rng); }

static volatile uint64_t sink;

int main(int argc, char **argv) {
  const size_t n = (size_t)(argc > 1 ? atof(argv[1]) : 4.0) * 1000000 / 1024 * 1024;
  uint32_t *v = malloc(n * 4), *o = malloc(n * 4);
  uint8_t *packed = malloc(n * 8 + 64);
  printf("bit unpack (pqt_bitunpack32, impl %s), %zu values:\n", pqt_bitunpack_impl(), n);
  for (unsigned w = 1; w <= 32; w++) {
    if (!(w <= 8 || w == 12 || w == 16 || w == 20 || w == 24 || w == 32)) continue;
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)next() & (w == 32 ? ~0u : ((1u << w) - 1));
    pqt_bitpack32(v, n, w, packed);
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
      double t = now();
      pqt_bitunpack32(packed, pqt_bitpack_bytes(n, w), o, n, w);
      t = now() - t;
      if (t < best) best = t;
    }
    if (memcmp(o, v, n * 4) != 0) printf("MISMATCH w=%u\n", w);
    printf("  w=%2u  %7.0f M values/s\n", w, (double)n / best / 1e6);
  }

  /* RLE dictionary gather: 1000-entry dictionary of int64, random indices
   * (bit-packed runs, w=10) and a runs-heavy mix */
  int64_t dict[1000], *out64 = malloc(n * 8);
  for (int i = 0; i < 1000; i++) dict[i] = (int64_t)next();
  for (int kind = 0; kind < 2; kind++) {
    for (size_t i = 0; i < n;) {
      size_t r = kind ? 1 + next() % 30 : 1;
      uint32_t x = (uint32_t)(next() % 1000);
      for (size_t j = 0; j < r && i < n; j++, i++) v[i] = kind ? x : (uint32_t)(next() % 1000);
    }
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_rle_encode_u32(v, n, 10, &b, NULL);
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
      pqt_rle_decoder d;
      pqt_rle_decoder_init(&d, b.data, b.len, 10, NULL);
      double t = now();
      if (pqt_rle_get_dict_fixed(&d, dict, 1000, 8, out64, n, NULL)) printf("error\n");
      t = now() - t;
      if (t < best) best = t;
    }
    sink += (uint64_t)out64[n - 1];
    printf("RLE dict gather int64 (%s): %7.0f M values/s\n", kind ? "runs of 1..30" : "random, bit-packed",
           (double)n / best / 1e6);
    pqt_buf_free(&b);
  }

  /* DELTA_BINARY_PACKED int64: sorted with small gaps; random */
  int64_t *vals = malloc(n * 8);
  for (int kind = 0; kind < 2; kind++) {
    int64_t acc = 0;
    for (size_t i = 0; i < n; i++) vals[i] = kind ? (int64_t)next() : (acc += (int64_t)(next() % 1000));
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_delta_bp_encode_i64(vals, n, &b, NULL);
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
      double t = now();
      if (pqt_delta_bp_decode_i64(b.data, b.len, out64, n, NULL, NULL)) printf("error\n");
      t = now() - t;
      if (t < best) best = t;
    }
    if (memcmp(out64, vals, n * 8)) printf("MISMATCH delta\n");
    printf("DELTA_BINARY_PACKED int64 (%s): %7.0f M values/s\n", kind ? "random" : "sorted", (double)n / best / 1e6);
    pqt_buf_free(&b);
  }

  /* PLAIN BYTE_ARRAY, 0..16 byte strings */
  {
    pqt_buf b, data;
    pqt_buf_init(&b, NULL);
    pqt_buf_init(&data, NULL);
    for (size_t i = 0; i < n; i++) {
      uint8_t tmp[20];
      uint32_t l = (uint32_t)(next() % 17);
      pqt_store_u32le(tmp, l);
      pqt_buf_append(&b, tmp, 4 + l, NULL);
    }
    int32_t *offs = malloc((n + 1) * 4);
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
      data.len = 0;
      double t = now();
      if (pqt_plain_decode_byte_array(b.data, b.len, offs, &data, n, NULL, NULL)) printf("error\n");
      t = now() - t;
      if (t < best) best = t;
    }
    printf("PLAIN BYTE_ARRAY (0..16 bytes): %7.0f M values/s\n", (double)n / best / 1e6);
    free(offs);
    pqt_buf_free(&b);
    pqt_buf_free(&data);
  }

  /* BYTE_STREAM_SPLIT double */
  {
    for (size_t i = 0; i < n; i++) vals[i] = (int64_t)next();
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_bss_encode(vals, 8, n, &b, NULL);
    for (size_t w = 4; w <= 8; w += 4) {
      double best = 1e9;
      size_t cnt = b.len / w;
      for (int r = 0; r < 5; r++) {
        double t = now();
        pqt_bss_decode(b.data, b.len, w, 0, cnt, out64, NULL);
        t = now() - t;
        if (t < best) best = t;
      }
      printf("BYTE_STREAM_SPLIT width %zu: %7.0f M values/s\n", w, (double)cnt / best / 1e6);
    }
    pqt_buf_free(&b);
  }
  free(v);
  free(o);
  free(packed);
  free(out64);
  free(vals);
  return 0;
}
#endif
