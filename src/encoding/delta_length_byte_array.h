/*
 * encoding/delta_length_byte_array: DELTA_LENGTH_BYTE_ARRAY (Parquet
 * Encodings.md, "Delta-length byte array (DELTA_LENGTH_BYTE_ARRAY = 6)"):
 * the lengths as DELTA_BINARY_PACKED, then all bytes back to back.
 *
 * Output: int32 offsets (n+1 entries; offsets[0] = data->len on entry) and
 * the bytes appended to data in one copy (the encoded bytes are already
 * contiguous). Negative lengths, lengths past the span and total data past
 * INT32_MAX are PQT_ECORRUPT. *consumed = end of the n-th value's bytes
 * (the whole stream when n equals the header's count).
 */
#ifndef PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY_H
#define PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY_H

#include "core/core.h"

pqt_status pqt_delta_length_decode(const uint8_t *in, size_t len, int32_t *offsets,
                                   pqt_buf *data, size_t n, size_t *consumed, pqt_error *err);
/* Values i in [0,n) are data[offsets[i] .. offsets[i+1]). */
pqt_status pqt_delta_length_encode(const int32_t *offsets, const uint8_t *data, size_t n,
                                   pqt_buf *out, pqt_error *err);

#endif
