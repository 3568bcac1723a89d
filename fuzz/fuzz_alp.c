/*
 * fuzz/fuzz_alp.c: libFuzzer target for src/encoding/alp (ALP = 10,
 * parquet-format AlpEncoding.md).
 *
 * Byte 0 picks the mode (low 2 bits) and byte 1-2 a start value:
 *   0, 1: the rest is an untrusted DOUBLE (0) or FLOAT (1) ALP page: the
 *         header is read and up to 65536 values from the start are decoded
 *         into an exact-size buffer. Must be OK or ECORRUPT with a message.
 *   2:    the rest, as raw doubles (floats when bit 2 of byte 0 is set), is
 *         encoded, decoded, and must come back bit for bit.
 *   3:    the same with decimal-like values made from pairs of bytes (so
 *         encodings with few exceptions are reached), specials mixed in.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "encoding/alp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void alp_fuzz_roundtrip(const void *vals, size_t w, size_t n) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_error err;
  pqt_error_init(&err);
  if (pqt_alp_encode(vals, w, n, &b, &err) != PQT_OK) abort();
  uint8_t *span = malloc(b.len ? b.len : 1);
  memcpy(span, b.data, b.len);
  pqt_alp_page pg;
  if (pqt_alp_page_init(&pg, span, b.len, w, &err) != PQT_OK || pg.n != n) abort();
  uint8_t *out = malloc(n * w + 1);
  if (pqt_alp_decode(&pg, 0, n, out, &err) != PQT_OK) abort();
  if (n && memcmp(out, vals, n * w) != 0) abort();
  free(out);
  free(span);
  pqt_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  unsigned mode = data[0] & 3;
  size_t w = (data[0] & 4) ? 4 : 8;
  size_t start = (size_t)data[1] | (size_t)data[2] << 8;
  const uint8_t *in = data + 3;
  size_t len = size - 3;
  pqt_error err;
  pqt_error_init(&err);
  if (mode < 2) {
    w = mode == 0 ? 8 : 4;
    uint8_t *span = malloc(len ? len : 1); /* exact size: ASan flags overreads */
    if (len) memcpy(span, in, len);
    pqt_alp_page pg;
    pqt_status st = pqt_alp_page_init(&pg, span, len, w, &err);
    if (st == PQT_OK) {
      if (start > pg.n) start = pg.n ? start % (pg.n + 1) : 0;
      size_t n = pg.n - start < 65536 ? pg.n - start : 65536;
      uint8_t *out = malloc(n * w + 1);
      st = pqt_alp_decode(&pg, start, n, out + (data[0] >> 7), &err); /* sometimes unaligned */
      free(out);
    }
    if (st != PQT_OK && (st != PQT_ECORRUPT || err.message[0] == '\0')) abort();
    free(span);
    return 0;
  }
  if (mode == 2) {
    size_t n = len / w;
    void *vals = malloc(n * w + 1);
    memcpy(vals, in, n * w);
    alp_fuzz_roundtrip(vals, w, n);
    free(vals);
    return 0;
  }
  /* mode 3: two bytes per value: a small integer scaled by 10^-(0..3), or a special */
  size_t n = len / 2;
  double *d = malloc(n * 8 + 1);
  float *f = malloc(n * 4 + 1);
  static const uint64_t specials[8] = {0x7ff8000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                       0xfff0000000000000ull, 0x0000000000000001ull, 0x7fefffffffffffffull,
                                       0x7ff4000000000123ull, 0x43e0000000000000ull};
  static const double scale[4] = {1, 0.1, 0.01, 0.001};
  for (size_t i = 0; i < n; i++) {
    uint8_t a = in[2 * i], b = in[2 * i + 1];
    if (a == 0xff) {
      memcpy(&d[i], &specials[b & 7], 8);
    } else {
      d[i] = (double)((int)(a & 0x3f) * 256 + b - 8192) * scale[a >> 6];
    }
    f[i] = (float)d[i];
  }
  alp_fuzz_roundtrip(d, 8, n);
  alp_fuzz_roundtrip(f, 4, n);
  free(d);
  free(f);
  return 0;
}
