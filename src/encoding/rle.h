/*
 * encoding/rle: the RLE/bit-packing hybrid (Parquet Encodings.md, RLE = 3)
 * used for levels, dictionary indices (RLE_DICTIONARY / PLAIN_DICTIONARY
 * data pages) and RLE booleans; plus the level helpers (v1 4-byte length
 * prefix, legacy BIT_PACKED levels).
 *
 * Decoder: a small struct the caller owns, over a borrowed byte span (no
 * length prefix: strip it first with pqt_rle_v1_span). Every get_* call
 * produces exactly n values or fails with PQT_ECORRUPT (not enough values in
 * the span, an RLE value wider than the bit width, an index past the
 * dictionary, a level above max_level); runs may span calls. The last
 * bit-packed run may claim more groups than bytes remain (writers pad it):
 * the values present are decoded and the error comes only when a missing
 * value is requested. Outputs are never written beyond n entries.
 * After an error the decoder state is unspecified (do not continue).
 */
#ifndef PQT_ENCODING_RLE_H
#define PQT_ENCODING_RLE_H

#include "core/core.h"

typedef struct pqt_rle_decoder {
  const uint8_t *p; /* next run header */
  const uint8_t *end;
  unsigned bit_width; /* 0..32 */
  uint32_t rle_value;
  uint64_t rle_left;     /* values left in the current RLE run */
  const uint8_t *bp;     /* current group of 8 in the current bit-packed run */
  const uint8_t *bp_end; /* end of the bit-packed run's bytes (within span) */
  uint64_t bp_left;      /* values present and not yet consumed in the run */
  unsigned bp_phase;     /* values already consumed from the group at bp */
} pqt_rle_decoder;

/* Start decoding span [in, in+len) with the given bit width (0..32; larger
 * is PQT_ECORRUPT). */
pqt_status pqt_rle_decoder_init(pqt_rle_decoder *d, const uint8_t *in, size_t len, unsigned bit_width, pqt_error *err);

/* Decode n values into out[0..n). */
pqt_status pqt_rle_get_u32(pqt_rle_decoder *d, uint32_t *out, size_t n, pqt_error *err);
/* Decode n levels; each must be <= max_level. */
pqt_status pqt_rle_get_levels(pqt_rle_decoder *d, int16_t *out, size_t n, int16_t max_level, pqt_error *err);
/* Decode n booleans (bit width must be 1) as bytes 0/1. */
pqt_status pqt_rle_get_bool_bytes(pqt_rle_decoder *d, uint8_t *out, size_t n, pqt_error *err);
/* Decode n booleans (bit width 1) into an LSB-first bitmap starting at bit
 * out_bit of out; bits outside [out_bit, out_bit+n) are preserved. */
pqt_status pqt_rle_get_bool_bitmap(pqt_rle_decoder *d, uint8_t *out, size_t out_bit, size_t n, pqt_error *err);
/* Skip n values. */
pqt_status pqt_rle_skip(pqt_rle_decoder *d, size_t n, pqt_error *err);

/* Dictionary gather: decode n indices and write dict[idx] (each `width`
 * bytes, dict holds dict_n entries) to out[0..n*width). Any idx >= dict_n is
 * PQT_ECORRUPT. Fast paths for widths 1, 2, 4, 8, 12, 16. */
pqt_status pqt_rle_get_dict_fixed(pqt_rle_decoder *d, const void *dict, size_t dict_n, size_t width, void *out,
                                  size_t n, pqt_error *err);

/* The same; vector 0 keeps to the scalar kernels (tests compare both). */
pqt_status pqt_rle_get_dict_fixed_isa(pqt_rle_decoder *d, const void *dict, size_t dict_n, size_t width, void *out,
                                      size_t n, int vector, pqt_error *err);

/* An RLE_DICTIONARY data page body: first byte is the bit width (<= 32),
 * then the hybrid runs. Initializes d over the rest. */
pqt_status pqt_rle_dict_page_init(pqt_rle_decoder *d, const uint8_t *in, size_t len, pqt_error *err);

/* V1 level / RLE boolean streams: a 4-byte LE length then that many bytes.
 * Sets *body and *body_len to the hybrid runs and *consumed to 4 + body_len. */
pqt_status pqt_rle_v1_span(const uint8_t *in, size_t len, const uint8_t **body, size_t *body_len, size_t *consumed,
                           pqt_error *err);

/* Decode n levels from a whole span in one call (v2 levels, or a v1 body). */
pqt_status pqt_levels_decode_rle(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                 int16_t max_level, pqt_error *err);
/* The same, also counting the decoded levels equal to count_level into
 * *count (e.g. rep == 0: records; def == max_def: values present), which
 * costs nothing on RLE runs. *count is set only on success. */
pqt_status pqt_levels_decode_rle_count(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                       int16_t max_level, int16_t count_level, size_t *count, pqt_error *err);
/* Legacy BIT_PACKED levels (MSB-first, no header): n levels of bit_width,
 * exactly pqt_bitpack_bytes(n, bit_width) bytes, reported in *consumed. */
pqt_status pqt_levels_decode_bit_packed(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                        int16_t max_level, size_t *consumed, pqt_error *err);

/* Bit width needed for values up to max_value (0 for 0). */
static inline unsigned pqt_bit_width_u32(uint32_t max_value) {
  return max_value ? 32u - (unsigned)__builtin_clz(max_value) : 0u;
}

/* ---- encoder ------------------------------------------------------- */

/* Append the hybrid encoding of n values (each < 2^bit_width) to out (no
 * length prefix). Repeats of >= 8 become RLE runs, the rest bit-packed runs
 * of groups of 8 (the final group zero-padded). Runs never exceed 2^31-1
 * values. A value >= 2^bit_width is PQT_EINVAL. */
pqt_status pqt_rle_encode_u32(const uint32_t *values, size_t n, unsigned bit_width, pqt_buf *out, pqt_error *err);
pqt_status pqt_rle_encode_levels(const int16_t *levels, size_t n, unsigned bit_width, pqt_buf *out, pqt_error *err);
/* Booleans from bytes (nonzero = true), bit width 1, no prefix. */
pqt_status pqt_rle_encode_bool_bytes(const uint8_t *values, size_t n, pqt_buf *out, pqt_error *err);
/* Legacy BIT_PACKED (MSB-first) levels. */
pqt_status pqt_levels_encode_bit_packed(const int16_t *levels, size_t n, unsigned bit_width, pqt_buf *out,
                                        pqt_error *err);

#endif
