/*
 * encoding/delta_byte_array: DELTA_BYTE_ARRAY (Parquet Encodings.md,
 * "Delta Strings: (DELTA_BYTE_ARRAY = 7)"): prefix lengths
 * (DELTA_BINARY_PACKED), then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
 * For BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY.
 *
 * The previous value lives in a caller-owned state that survives between
 * pages: well-formed pages start with prefix length 0 anyway, and old
 * parquet-mr files (PARQUET-246) whose first value in a page refers to the
 * previous page's last value then decode correctly. Reset the state at the
 * start of each column chunk. Each prefix length must be <= the previous
 * value's length; for FLBA (fixed_width > 0) each value must be exactly
 * fixed_width bytes.
 */
#ifndef PQT_ENCODING_DELTA_BYTE_ARRAY_H
#define PQT_ENCODING_DELTA_BYTE_ARRAY_H

#include "core/core.h"
#include "encoding/delta_binary_packed.h"

typedef struct pqt_delta_byte_array_state {
  pqt_buf last; /* the last value decoded (copy) */
} pqt_delta_byte_array_state;

void pqt_delta_byte_array_state_init(pqt_delta_byte_array_state *s, const pqt_allocator *alloc);
static inline void pqt_delta_byte_array_state_reset(pqt_delta_byte_array_state *s) { pqt_buf_clear(&s->last); }
void pqt_delta_byte_array_state_free(pqt_delta_byte_array_state *s);

/* Decode n values. BYTE_ARRAY (fixed_width == 0): offsets has n+1 entries
 * (offsets[0] = data->len on entry). FLBA: offsets may be NULL; n *
 * fixed_width bytes are appended to data. *consumed = bytes of the page
 * used (may be NULL). */
pqt_status pqt_delta_byte_array_decode(pqt_delta_byte_array_state *s, const uint8_t *in, size_t len, size_t fixed_width,
                                       int32_t *offsets, pqt_buf *data, size_t n, size_t *consumed, pqt_error *err);

/* The same in batches over one page: the decoder walks the two length
 * streams and the suffixes; the previous value lives in the state (as
 * between pages). */
typedef struct pqt_delta_byte_array_decoder {
  pqt_delta_bp_decoder prefixes, suffixes; /* lengths not yet read */
  const uint8_t *start;                    /* the stream */
  const uint8_t *suf;                      /* the next suffix's bytes */
  size_t suf_left;
  size_t fixed_width; /* FLBA width, 0 for BYTE_ARRAY */
} pqt_delta_byte_array_decoder;

pqt_status pqt_delta_byte_array_init(pqt_delta_byte_array_decoder *d, const uint8_t *in, size_t len, size_t fixed_width,
                                     pqt_error *err);
/* Values in the stream (the smaller of the two length counts). */
uint64_t pqt_delta_byte_array_total(const pqt_delta_byte_array_decoder *d);
/* The next n values, as pqt_delta_byte_array_decode writes them. */
pqt_status pqt_delta_byte_array_next(pqt_delta_byte_array_decoder *d, pqt_delta_byte_array_state *s, int32_t *offsets,
                                     pqt_buf *data, size_t n, pqt_error *err);
/* The next k values' lengths, without building them (Arrow views: a value
 * whose prefix length is 0 is its suffix, which lies in the page and can
 * be pointed at; one with a prefix exists nowhere in the page and must be
 * built): prefix lengths pl[0..k), suffix lengths sl[0..k), checked as
 * _next checks them against *prev_len (the previous value's length on
 * entry, the last one's on return) and the FLBA width; *suffixes is where
 * the k suffixes start, back to back (the decoder moves past them). The
 * caller keeps the previous value (the state's `last`) up to date. */
pqt_status pqt_delta_byte_array_lengths(pqt_delta_byte_array_decoder *d, int32_t *pl, int32_t *sl, size_t k,
                                        size_t *prev_len, const uint8_t **suffixes, pqt_error *err);
static inline size_t pqt_delta_byte_array_consumed(const pqt_delta_byte_array_decoder *d) {
  return (size_t)(d->suf - d->start);
}

/* Encode n values (data[offsets[i] .. offsets[i+1])). Each page is encoded
 * independently (first prefix length is 0). */
pqt_status pqt_delta_byte_array_encode(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out,
                                       pqt_error *err);
/* FLBA: n values of width bytes, contiguous. */
pqt_status pqt_delta_byte_array_encode_fixed(const uint8_t *values, size_t width, size_t n, pqt_buf *out,
                                             pqt_error *err);

#endif
