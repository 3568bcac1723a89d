/*
 * encoding/dictionary: dictionary encoding support (Parquet Encodings.md,
 * "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)").
 * The dictionary page itself is PLAIN (plain.h); indices are the RLE hybrid
 * (rle.h, pqt_rle_get_dict_fixed for fixed-width values). Here: the
 * byte-array gather, and the writer's dictionary builder.
 */
#ifndef PQT_ENCODING_DICTIONARY_H
#define PQT_ENCODING_DICTIONARY_H

#include "core/core.h"
#include "encoding/rle.h"

/* Byte-array gather: value i = dictionary entry idx[i], where entry j is
 * dict_data[dict_offsets[j] .. dict_offsets[j+1]) (dict_offsets: dict_n+1
 * monotone entries, e.g. from pqt_plain_decode_byte_array). Writes
 * offsets[0..n] (offsets[0] = data->len on entry) and appends the bytes.
 * idx >= dict_n or total data past INT32_MAX: PQT_ECORRUPT. */
pqt_status pqt_dict_gather_binary(const int32_t *dict_offsets, const uint8_t *dict_data, size_t dict_n,
                                  const uint32_t *idx, size_t n, int32_t *offsets, pqt_buf *data, pqt_error *err);

/* Decode n indices from an RLE decoder and gather byte arrays as above,
 * chunk by chunk (no scratch allocation). */
pqt_status pqt_rle_get_dict_binary(pqt_rle_decoder *d, const int32_t *dict_offsets, const uint8_t *dict_data,
                                   size_t dict_n, int32_t *offsets, pqt_buf *data, size_t n, pqt_error *err);

/* ---- writer: dictionary builder ------------------------------------ */

/* Maps distinct values to indices 0, 1, ... in first-seen order. `plain`
 * holds the dictionary page body (the distinct values, PLAIN encoded), so
 * plain.len is the dictionary's byte size for the writer's fallback. */
typedef struct pqt_dict_builder {
  const pqt_allocator *alloc;
  size_t width;     /* fixed value width in bytes; 0 = BYTE_ARRAY */
  pqt_buf plain;    /* PLAIN-encoded distinct values */
  uint32_t *starts; /* per entry: offset in plain (BYTE_ARRAY: of the length) */
  size_t count, starts_cap;
  uint32_t *slots; /* hash table: entry index + 1, 0 = empty */
  uint64_t *keys;  /* per slot: the value (width <= 8) or its XXH3 hash */
  size_t n_slots;  /* power of two, 2^slot_bits */
  unsigned slot_bits;
} pqt_dict_builder;

void pqt_dict_builder_init(pqt_dict_builder *b, size_t width, const pqt_allocator *alloc);
void pqt_dict_builder_free(pqt_dict_builder *b);
/* n fixed-width values (n*width bytes) -> their indices. */
pqt_status pqt_dict_builder_add_fixed(pqt_dict_builder *b, const void *values, size_t n, uint32_t *indices,
                                      pqt_error *err);
/* n byte arrays (data[offsets[i] .. offsets[i+1])) -> their indices. */
pqt_status pqt_dict_builder_add_binary(pqt_dict_builder *b, const int32_t *offsets, const uint8_t *data, size_t n,
                                       uint32_t *indices, pqt_error *err);
static inline size_t pqt_dict_builder_count(const pqt_dict_builder *b) { return b->count; }
static inline size_t pqt_dict_builder_bytes(const pqt_dict_builder *b) { return b->plain.len; }
/* Bit width for the data pages' indices (at least 1, as writers do). */
static inline unsigned pqt_dict_builder_index_width(const pqt_dict_builder *b) {
  unsigned w = b->count > 1 ? pqt_bit_width_u32((uint32_t)(b->count - 1)) : 0;
  return w ? w : 1;
}

#endif
