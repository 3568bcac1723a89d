/* core/varint.h: unsigned LEB128 varints (at most 10 bytes, 64 bits), the
 * one implementation used by both the Thrift compact protocol
 * (thrift/compact.c) and the Parquet encodings (RLE/bit-packing headers,
 * DELTA_BINARY_PACKED; encoding/enc_util.h). Zigzag is in core/core.h. */
#ifndef PQT_CORE_VARINT_H
#define PQT_CORE_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define PQT_ULEB_MAX_BYTES 10

typedef enum pqt_uleb_result {
  PQT_ULEB_OK = 0,
  PQT_ULEB_TRUNCATED, /* the input ends inside the varint */
  PQT_ULEB_OVERFLOW   /* the value does not fit 64 bits (10th byte above 1) */
} pqt_uleb_result;

/* Read one varint from [*pp, end). On PQT_ULEB_OK *out is set and *pp moves
 * past it; otherwise *pp is left where it was. */
static inline pqt_uleb_result pqt_uleb_read(const uint8_t **pp, const uint8_t *end, uint64_t *out) {
  const uint8_t *p = *pp;
  uint64_t v = 0;
  for (unsigned i = 0; i < PQT_ULEB_MAX_BYTES; i++) {
    if (p >= end) return PQT_ULEB_TRUNCATED;
    uint8_t b = *p++;
    if (i == PQT_ULEB_MAX_BYTES - 1 && b > 1) return PQT_ULEB_OVERFLOW;
    v |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      *pp = p;
      *out = v;
      return PQT_ULEB_OK;
    }
  }
  return PQT_ULEB_OVERFLOW; /* not reached: the 10th byte ends or overflows */
}

/* Write v at out (room for PQT_ULEB_MAX_BYTES); returns the bytes written. */
static inline size_t pqt_uleb_put(uint8_t *out, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  out[n++] = (uint8_t)v;
  return n;
}

#endif
