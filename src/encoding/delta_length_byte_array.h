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
#include "encoding/delta_binary_packed.h"

pqt_status pqt_delta_length_decode(const uint8_t *in, size_t len, int32_t *offsets, pqt_buf *data, size_t n,
                                   size_t *consumed, pqt_error *err);

/* The same in batches: a decoder over a borrowed span whose state carries
 * between calls (a page read a few records at a time). */
typedef struct pqt_delta_length_decoder {
  pqt_delta_bp_decoder lens; /* the lengths, not yet read */
  const uint8_t *start;      /* the stream */
  const uint8_t *bytes;      /* the values' bytes, back to back */
  size_t bytes_len, bytes_pos;
} pqt_delta_length_decoder;

/* Parse the lengths' header and find where the bytes start. */
pqt_status pqt_delta_length_init(pqt_delta_length_decoder *d, const uint8_t *in, size_t len, pqt_error *err);
/* Values in the stream (from its header). */
static inline uint64_t pqt_delta_length_total(const pqt_delta_length_decoder *d) {
  return pqt_delta_bp_total(&d->lens);
}
/* The next n values: offsets[0..n] (offsets[0] = data->len) and their
 * bytes appended to data. */
pqt_status pqt_delta_length_next(pqt_delta_length_decoder *d, int32_t *offsets, pqt_buf *data, size_t n,
                                 pqt_error *err);
/* The same without the copy: the next n values' bytes lie back to back
 * in the stream from *bytes on, value i at [offsets[i] - base,
 * offsets[i+1] - base) from there (offsets[0] = base). For arrays that
 * point into the page instead of copying (Arrow views). */
pqt_status pqt_delta_length_span(pqt_delta_length_decoder *d, int32_t *offsets, size_t n, int32_t base,
                                 const uint8_t **bytes, pqt_error *err);
/* Bytes of the stream up to the end of the last value read. */
static inline size_t pqt_delta_length_consumed(const pqt_delta_length_decoder *d) {
  return (size_t)(d->bytes - d->start) + d->bytes_pos;
}
/* Values i in [0,n) are data[offsets[i] .. offsets[i+1]). */
pqt_status pqt_delta_length_encode(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out, pqt_error *err);

#endif
