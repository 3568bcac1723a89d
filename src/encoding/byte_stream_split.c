/*
 * encoding/byte_stream_split: BYTE_STREAM_SPLIT (Parquet Encodings.md,
 * "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)"): byte k of value i is at
 * in[k*N + i]. Widths 2, 4 and 8 have loops with a constant width the
 * compiler vectorises; other widths use the generic loop.
 */
#include "encoding/byte_stream_split.h"

#define PQT_BSS_DEC(K)           \
  for (size_t i = 0; i < n; i++) \
    for (size_t k = 0; k < (K); k++) o[i * (K) + k] = s[k * N + i]

pqt_status pqt_bss_decode(const uint8_t *in, size_t len, size_t width, size_t start, size_t n, void *out,
                          pqt_error *err) {
  if (width == 0) return pqt_error_set(err, PQT_EINVAL, "BYTE_STREAM_SPLIT: width 0");
  if (len % width != 0)
    return pqt_corrupt(err, "BYTE_STREAM_SPLIT: %zu bytes is not a multiple of width %zu", len, width);
  const size_t N = len / width;
  if (start > N || n > N - start)
    return pqt_corrupt(err, "BYTE_STREAM_SPLIT: values [%zu, %zu+%zu) past the %zu present", start, start, n, N);
  const uint8_t *s = in + start;
  uint8_t *o = out;
  switch (width) {
    case 2: PQT_BSS_DEC(2); break;
    case 4: {
      /* four streams at a time, 4 bytes per value assembled in a word */
      const uint8_t *s0 = s, *s1 = s + N, *s2 = s + 2 * N, *s3 = s + 3 * N;
      for (size_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)s0[i] | (uint32_t)s1[i] << 8 | (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
        pqt_store_u32le(o + 4 * i, v);
      }
      break;
    }
    case 8: {
      const uint8_t *s0 = s, *s1 = s + N, *s2 = s + 2 * N, *s3 = s + 3 * N;
      const uint8_t *s4 = s + 4 * N, *s5 = s + 5 * N, *s6 = s + 6 * N, *s7 = s + 7 * N;
      for (size_t i = 0; i < n; i++) {
        uint64_t lo = (uint64_t)s0[i] | (uint64_t)s1[i] << 8 | (uint64_t)s2[i] << 16 | (uint64_t)s3[i] << 24;
        uint64_t hi = (uint64_t)s4[i] | (uint64_t)s5[i] << 8 | (uint64_t)s6[i] << 16 | (uint64_t)s7[i] << 24;
        pqt_store_u64le(o + 8 * i, lo | hi << 32);
      }
      break;
    }
    default:
      for (size_t k = 0; k < width; k++) {
        const uint8_t *sk = s + k * N;
        for (size_t i = 0; i < n; i++) o[i * width + k] = sk[i];
      }
  }
  return PQT_OK;
}

pqt_status pqt_bss_encode(const void *values, size_t width, size_t n, pqt_buf *out, pqt_error *err) {
  size_t bytes;
  if (width == 0 || !pqt_mul_size(width, n, &bytes))
    return pqt_error_set(err, PQT_EINVAL, "BYTE_STREAM_SPLIT: bad width or size");
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bytes, err));
  const uint8_t *v = values;
  uint8_t *o = out->data + out->len;
  for (size_t k = 0; k < width; k++)
    for (size_t i = 0; i < n; i++) o[k * n + i] = v[i * width + k];
  out->len += bytes;
  return PQT_OK;
}
