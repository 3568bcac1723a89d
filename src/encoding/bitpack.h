/*
 * encoding/bitpack: LSB-first bit packing and unpacking (Parquet
 * Encodings.md, "Run Length Encoding / Bit-Packing Hybrid", note 1: values
 * are packed from the least significant bit of each byte), plus the
 * deprecated MSB-first BIT_PACKED order.
 *
 * Contracts (all functions):
 *   - `in` starts byte aligned; unpacking n values of width w reads exactly
 *     the first pqt_bitpack_bytes(n, w) bytes of `in` and never beyond
 *     in + in_len. The caller guarantees in_len >= pqt_bitpack_bytes(n, w)
 *     (these are kernels; the callers validate against the untrusted span).
 *   - w == 0 yields zeros and reads nothing.
 *   - out has room for n values; nothing beyond out[n-1] is written.
 */
#ifndef PQT_ENCODING_BITPACK_H
#define PQT_ENCODING_BITPACK_H

#include "core/core.h"

/* Bytes holding n values of w bits (ceil(n*w/8)); saturates at SIZE_MAX. */
static inline size_t pqt_bitpack_bytes(size_t n, unsigned w) {
  size_t bits;
  if (!pqt_mul_size(n, w, &bits)) return SIZE_MAX;
  return bits / 8 + ((bits & 7) != 0);
}

/* Unpack n values of w bits (0..32) into uint32. */
void pqt_bitunpack32(const uint8_t *in, size_t in_len, uint32_t *out, size_t n, unsigned w);
/* Unpack n values of w bits (0..64) into uint64. */
void pqt_bitunpack64(const uint8_t *in, size_t in_len, uint64_t *out, size_t n, unsigned w);

/* Pack n values (only their low w bits) into pqt_bitpack_bytes(n, w) bytes at
 * out; the unused high bits of the last byte are zero. */
void pqt_bitpack32(const uint32_t *in, size_t n, unsigned w, uint8_t *out);
void pqt_bitpack64(const uint64_t *in, size_t n, unsigned w, uint8_t *out);

/* The deprecated BIT_PACKED encoding (MSB-first, no header): unpack n values
 * of w bits (0..32); same length contract as above. */
void pqt_bitunpack32_msb(const uint8_t *in, size_t in_len, uint32_t *out, size_t n, unsigned w);
void pqt_bitpack32_msb(const uint32_t *in, size_t n, unsigned w, uint8_t *out);

/* Name of the unpack kernel selected at runtime ("avx2" or "scalar"). */
const char *pqt_bitunpack_impl(void);

#endif
