/*
 * encoding: small shared helpers for the encoding kernels (Parquet
 * Encodings.md: ULEB128 varints and zigzag as used by the RLE/bit-packing
 * hybrid headers and DELTA_BINARY_PACKED). Bounds-checked readers only.
 */
#ifndef PQT_ENCODING_ENC_UTIL_H
#define PQT_ENCODING_ENC_UTIL_H

#include "core/core.h"

/* Read one ULEB128 varint of at most 64 bits from [*pp, end). Returns false
 * (and leaves *pp) when truncated or when the value does not fit 64 bits. */
static inline bool pqt_enc_read_uleb(const uint8_t **pp, const uint8_t *end, uint64_t *out) {
  const uint8_t *p = *pp;
  uint64_t v = 0;
  unsigned shift = 0;
  while (p < end) {
    uint8_t b = *p++;
    if (shift == 63 && (b & 0x7e)) return false;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *pp = p;
      *out = v;
      return true;
    }
    shift += 7;
    if (shift > 63) return false;
  }
  return false;
}

/* zigzag: pqt_zigzag_decode64 / pqt_zigzag_encode64 in core/core.h */

/* Append a ULEB128 varint to out (at most 10 bytes); returns bytes written. */
static inline size_t pqt_enc_put_uleb(uint8_t *out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  out[n++] = (uint8_t)v;
  return n;
}

static inline pqt_status pqt_enc_buf_put_uleb(pqt_buf *b, uint64_t v, pqt_error *err) {
  uint8_t tmp[10];
  size_t n = pqt_enc_put_uleb(tmp, v);
  return pqt_buf_append(b, tmp, n, err);
}

#endif
