/*
 * encoding/alp: ALP, Adaptive Lossless floating-Point (Parquet Encodings.md
 * "ALP = 10", AlpEncoding.md; "preview" in parquet-format, so it is written
 * only when asked for). FLOAT (width 4) and DOUBLE (width 8).
 *
 * A page's values section: a 7-byte header (compression_mode 0,
 * integer_encoding 0, log2 vector size 3..15, int32 num_elements), one
 * uint32 offset per vector (relative to the offset array), then the vectors:
 * AlpInfo (exponent, factor, uint16 num_exceptions), ForInfo (int32/int64
 * frame of reference, bit width), the LSB-first bit-packed deltas, the
 * uint16 exception positions and the exception values' exact bits.
 * Decoding is value = (T)(frame + delta) * 10^factor * 10^-exponent.
 */
#ifndef PQT_ENCODING_ALP_H
#define PQT_ENCODING_ALP_H

#include "core/core.h"

/* A validated page header over an untrusted values section. */
typedef struct pqt_alp_page {
  const uint8_t *in; /* the whole values section */
  size_t len;
  size_t width;    /* 4 (FLOAT) or 8 (DOUBLE) */
  unsigned log_vs; /* log2 of the vector size */
  size_t n;        /* num_elements */
  size_t n_vectors;
} pqt_alp_page;

/* Read and check the header and the offset array's extent (each vector's
 * contents are checked when it is decoded). */
pqt_status pqt_alp_page_init(pqt_alp_page *pg, const uint8_t *in, size_t len, size_t width, pqt_error *err);

/* Decode values [start, start+n) (start+n <= pg->n) into out (n*width
 * bytes). Any range may be asked for; the vectors it touches are checked. */
pqt_status pqt_alp_decode(const pqt_alp_page *pg, size_t start, size_t n, void *out, pqt_error *err);

/* Append the ALP encoding of n values (FLOAT width 4 or DOUBLE width 8,
 * native layout at values) to out. Every bit pattern round-trips exactly
 * (NaN payloads, -0.0, infinities and subnormals become exceptions). */
pqt_status pqt_alp_encode(const void *values, size_t width, size_t n, pqt_buf *out, pqt_error *err);

#endif
