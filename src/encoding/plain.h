/*
 * encoding/plain: PLAIN (Parquet Encodings.md, "Plain: (PLAIN = 0)") for
 * every physical type, decode and encode.
 *
 * Output layouts (Arrow C Data Interface):
 *   - fixed width (INT32/INT64/INT96/FLOAT/DOUBLE/FLBA): n*width bytes,
 *     contiguous, little endian as stored;
 *   - BOOLEAN: LSB-first bitmap (or one byte 0/1 per value);
 *   - BYTE_ARRAY: int32 offsets (n+1 entries) + data appended to a pqt_buf.
 *     offsets[0] is written as data->len on entry and offsets[i+1] =
 *     offsets[i] + length(i), so consecutive pages append to one column
 *     (pass offsets + values_so_far). Total data beyond INT32_MAX is
 *     PQT_ECORRUPT ("offset overflow").
 * Every decoder checks lengths against the input span and reports the bytes
 * it consumed in *consumed (may be NULL).
 */
#ifndef PQT_ENCODING_PLAIN_H
#define PQT_ENCODING_PLAIN_H

#include "core/core.h"

/* Fixed-width values: copies n*width bytes. */
pqt_status pqt_plain_decode_fixed(const uint8_t *in, size_t len, size_t width, void *out, size_t n, size_t *consumed,
                                  pqt_error *err);

/* BOOLEAN: n bits starting at bit in_bit of `in` (a page decoded in several
 * batches passes the running bit position) into a bitmap at out_bit (bits of
 * out outside the range are preserved). *consumed = bytes touched from in
 * (ceil((in_bit+n)/8)). */
pqt_status pqt_plain_decode_bool_bitmap(const uint8_t *in, size_t len, size_t in_bit, uint8_t *out, size_t out_bit,
                                        size_t n, size_t *consumed, pqt_error *err);
pqt_status pqt_plain_decode_bool_bytes(const uint8_t *in, size_t len, size_t in_bit, uint8_t *out, size_t n,
                                       size_t *consumed, pqt_error *err);

/* BYTE_ARRAY: offsets has room for n+1 entries. */
pqt_status pqt_plain_decode_byte_array(const uint8_t *in, size_t len, int32_t *offsets, pqt_buf *data, size_t n,
                                       size_t *consumed, pqt_error *err);
/* BYTE_ARRAY zero-copy variant: offsets[i] (n+1 entries) are positions in
 * `in` of value i's bytes, so value i is in[offsets[i] .. offsets[i]+len]
 * where lens[i] (n entries) is its length. Only validates. */
pqt_status pqt_plain_scan_byte_array(const uint8_t *in, size_t len, uint32_t *starts, int32_t *lens, size_t n,
                                     size_t *consumed, pqt_error *err);

/* ---- encoders (append to out) ---- */
pqt_status pqt_plain_encode_fixed(const void *values, size_t width, size_t n, pqt_buf *out, pqt_error *err);
/* Bits [in_bit, in_bit+n) of a bitmap, packed LSB-first; the last byte is
 * zero padded. */
pqt_status pqt_plain_encode_bool_bitmap(const uint8_t *bitmap, size_t in_bit, size_t n, pqt_buf *out, pqt_error *err);
pqt_status pqt_plain_encode_bool_bytes(const uint8_t *values, size_t n, pqt_buf *out, pqt_error *err);
/* Values i in [0,n) are data[offsets[i] .. offsets[i+1]). */
pqt_status pqt_plain_encode_byte_array(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out,
                                       pqt_error *err);

/* Copy n bits from src at src_bit to dst at dst_bit (LSB-first); bits of dst
 * outside the range are preserved. */
void pqt_copy_bits(const uint8_t *src, size_t src_bit, uint8_t *dst, size_t dst_bit, size_t n);

#endif
