/*
 * encoding/byte_stream_split: BYTE_STREAM_SPLIT (Parquet Encodings.md,
 * "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)") for any value width K
 * (FLOAT 4, DOUBLE 8, FLOAT16 2, INT32/INT64, FLBA of any width).
 */
#ifndef PQT_ENCODING_BYTE_STREAM_SPLIT_H
#define PQT_ENCODING_BYTE_STREAM_SPLIT_H

#include "core/core.h"

/* The span holds N = len / width values (len must be a multiple of width).
 * Decode values [start, start+n) (start+n <= N) into out (n*width bytes). */
pqt_status pqt_bss_decode(const uint8_t *in, size_t len, size_t width, size_t start, size_t n, void *out,
                          pqt_error *err);
/* Append the K streams of n values (n*width bytes at values). */
pqt_status pqt_bss_encode(const void *values, size_t width, size_t n, pqt_buf *out, pqt_error *err);

#endif
