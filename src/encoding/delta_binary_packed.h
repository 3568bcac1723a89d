/*
 * encoding/delta_binary_packed: DELTA_BINARY_PACKED (Parquet Encodings.md,
 * "Delta Encoding (DELTA_BINARY_PACKED = 5)") for INT32 and INT64.
 *
 * Decoder: a caller-owned struct over a borrowed span; values are read in
 * batches of any size (state carries between calls). Arithmetic wraps
 * (done in uint32/uint64). For INT32 a miniblock bit width above 32 is
 * PQT_ECORRUPT (above 64 for INT64); widths of unused miniblocks in the last
 * block are ignored, as the spec requires. The last miniblock's padding may
 * be missing at the very end of the span as long as the values requested
 * are present.
 */
#ifndef PQT_ENCODING_DELTA_BINARY_PACKED_H
#define PQT_ENCODING_DELTA_BINARY_PACKED_H

#include "core/core.h"

typedef struct pqt_delta_bp_decoder {
  const uint8_t *p, *end;
  bool is32;
  bool first_pending; /* the header's first value is not yet returned */
  bool in_block;
  uint64_t mb_count, mb_size;
  uint64_t total;          /* value count from the header */
  uint64_t remaining;      /* values not yet returned */
  uint64_t pending_deltas; /* deltas not yet unpacked */
  uint64_t last;           /* last value returned (or the first value) */
  uint64_t min_delta;      /* current block's min delta */
  const uint8_t *widths;   /* current block's miniblock bit widths */
  uint64_t mb_index;
  uint64_t mb_left; /* value slots (multiple of 32) left in the miniblock */
  unsigned width;   /* current miniblock's bit width */
  unsigned buf_pos, buf_len;
  uint64_t buf[32]; /* unpacked deltas of a partly consumed group */
} pqt_delta_bp_decoder;

/* Parse the header of the stream at [in, in+len). is_int32 selects the
 * INT32 rules. */
pqt_status pqt_delta_bp_init(pqt_delta_bp_decoder *d, const uint8_t *in, size_t len, bool is_int32, pqt_error *err);
/* Values in the stream (from its header) and values not yet read. */
static inline uint64_t pqt_delta_bp_total(const pqt_delta_bp_decoder *d) { return d->total; }
static inline uint64_t pqt_delta_bp_remaining(const pqt_delta_bp_decoder *d) { return d->remaining; }
/* Read the next n values (n <= remaining, else PQT_ECORRUPT). */
pqt_status pqt_delta_bp_get_i32(pqt_delta_bp_decoder *d, int32_t *out, size_t n, pqt_error *err);
pqt_status pqt_delta_bp_get_i64(pqt_delta_bp_decoder *d, int64_t *out, size_t n, pqt_error *err);
/* Walk to the end of the stream without decoding the remaining values and
 * set *consumed to the stream's byte length (header, blocks, last
 * miniblock's padding; clamped to the span). Needed where another stream
 * follows (DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY). The decoder is
 * finished afterwards. */
pqt_status pqt_delta_bp_finish(pqt_delta_bp_decoder *d, size_t *consumed, const uint8_t *start, pqt_error *err);

/* Whole-buffer helpers: decode the first n values (n <= the header's
 * count) and report the stream's byte length in *consumed. With consumed
 * NULL the rest of the stream is not walked (nor validated). */
pqt_status pqt_delta_bp_decode_i32(const uint8_t *in, size_t len, int32_t *out, size_t n, size_t *consumed,
                                   pqt_error *err);
pqt_status pqt_delta_bp_decode_i64(const uint8_t *in, size_t len, int64_t *out, size_t n, size_t *consumed,
                                   pqt_error *err);

/* Encoders (block size 128, 4 miniblocks of 32): append to out. */
pqt_status pqt_delta_bp_encode_i32(const int32_t *values, size_t n, pqt_buf *out, pqt_error *err);
pqt_status pqt_delta_bp_encode_i64(const int64_t *values, size_t n, pqt_buf *out, pqt_error *err);

#endif
