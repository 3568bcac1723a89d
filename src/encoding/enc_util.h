/*
 * encoding: small shared helpers for the encoding kernels (Parquet
 * Encodings.md: ULEB128 varints and zigzag as used by the RLE/bit-packing
 * hybrid headers and DELTA_BINARY_PACKED). Bounds-checked readers only. The
 * varint itself is core/varint.h, shared with the Thrift compact protocol.
 */
#ifndef PQT_ENCODING_ENC_UTIL_H
#define PQT_ENCODING_ENC_UTIL_H

#include "core/core.h"
#include "core/varint.h"

/* Read one ULEB128 varint of at most 64 bits from [*pp, end). Returns false
 * (and leaves *pp) when truncated or when the value does not fit 64 bits. */
static inline bool pqt_enc_read_uleb(const uint8_t **pp, const uint8_t *end, uint64_t *out) {
  return pqt_uleb_read(pp, end, out) == PQT_ULEB_OK;
}

/* zigzag: pqt_zigzag_decode64 / pqt_zigzag_encode64 in core/core.h */

/* Append a ULEB128 varint to out (at most 10 bytes); returns bytes written. */
static inline size_t pqt_enc_put_uleb(uint8_t *out, uint64_t v) { return pqt_uleb_put(out, v); }

static inline pqt_status pqt_enc_buf_put_uleb(pqt_buf *b, uint64_t v, pqt_error *err) {
  uint8_t tmp[10];
  size_t n = pqt_enc_put_uleb(tmp, v);
  return pqt_buf_append(b, tmp, n, err);
}

#endif
