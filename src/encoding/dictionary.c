/*
 * encoding/dictionary: byte-array dictionary gather and the writer's
 * dictionary builder (Parquet Encodings.md, "Dictionary Encoding").
 *
 * The builder is an open-addressing hash table (linear probing, load <= 1/2,
 * multiplicative slot hashing) whose slots hold entry indices and a 64-bit
 * key each: a value of at most 8 bytes is its own key, so a probe never
 * reads the entries; wider values and byte arrays are keyed by their XXH3
 * hash and confirmed bytewise. The entries themselves are kept PLAIN
 * encoded, which is exactly the dictionary page body. Values are compared
 * bytewise, so float NaN payloads and -0.0 stay distinct entries.
 */
#include "encoding/dictionary.h"

#include <xxhash.h>

pqt_status pqt_dict_gather_binary(const int32_t *dict_offsets, const uint8_t *dict_data, size_t dict_n,
                                  const uint32_t *idx, size_t n, int32_t *offsets, pqt_buf *data, pqt_error *err) {
  if (data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  int64_t off = (int64_t)data->len;
  offsets[0] = (int32_t)off;
  for (size_t i = 0; i < n; i++) {
    uint32_t j = idx[i];
    if (j >= dict_n)
      return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %zu entries)", j, dict_n);
    off += dict_offsets[j + 1] - dict_offsets[j];
    if (off > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow: more than 2 GiB of data");
    offsets[i + 1] = (int32_t)off;
  }
  size_t total = (size_t)(off - offsets[0]);
  if (total == 0) return PQT_OK; /* all empty: data may still be unallocated */
  PQT_RETURN_NOT_OK(pqt_buf_reserve(data, total, err));
  uint8_t *o = data->data + data->len;
  for (size_t i = 0; i < n; i++) {
    uint32_t j = idx[i];
    size_t l = (size_t)(dict_offsets[j + 1] - dict_offsets[j]);
    memcpy(o, dict_data + dict_offsets[j], l);
    o += l;
  }
  data->len += total;
  return PQT_OK;
}

pqt_status pqt_rle_get_dict_binary(pqt_rle_decoder *d, const int32_t *dict_offsets, const uint8_t *dict_data,
                                   size_t dict_n, int32_t *offsets, pqt_buf *data, size_t n, pqt_error *err) {
  uint32_t idx[512];
  size_t done = 0;
  if (n == 0) {
    if (data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
    offsets[0] = (int32_t)data->len;
    return PQT_OK;
  }
  while (done < n) {
    size_t k = n - done < 512 ? n - done : 512;
    PQT_RETURN_NOT_OK(pqt_rle_get_u32(d, idx, k, err));
    PQT_RETURN_NOT_OK(pqt_dict_gather_binary(dict_offsets, dict_data, dict_n, idx, k, offsets + done, data, err));
    done += k;
  }
  return PQT_OK;
}

/* ---- builder ------------------------------------------------------- */

void pqt_dict_builder_init(pqt_dict_builder *b, size_t width, const pqt_allocator *alloc) {
  memset(b, 0, sizeof *b);
  b->alloc = pqt_alloc_or_default(alloc);
  b->width = width;
  pqt_buf_init(&b->plain, b->alloc);
}

void pqt_dict_builder_free(pqt_dict_builder *b) {
  pqt_buf_free(&b->plain);
  if (b->starts) pqt_mem_free(b->alloc, b->starts, b->starts_cap * sizeof *b->starts);
  if (b->slots) pqt_mem_free(b->alloc, b->slots, b->n_slots * sizeof *b->slots);
  if (b->keys) pqt_mem_free(b->alloc, b->keys, b->n_slots * sizeof *b->keys);
  memset(b, 0, sizeof *b);
}

/* Values of 1 to 8 bytes are their own key (zero-extended little-endian
 * load); wider ones and byte arrays are keyed by their XXH3 hash, and a
 * slot whose key matches is confirmed bytewise. */
static inline bool key_is_value(const pqt_dict_builder *b) { return b->width > 0 && b->width <= 8; }

static inline uint64_t load_key(const uint8_t *v, size_t w) {
  if (w == 8) return pqt_load_u64le(v);
  if (w == 4) return pqt_load_u32le(v);
  uint64_t k = 0;
  for (size_t i = 0; i < w; i++) k |= (uint64_t)v[i] << (8 * i);
  return k;
}

/* Slot of a key: multiplicative hashing, top bits (n_slots = 2^shift_bits). */
static inline size_t slot_of(uint64_t key, unsigned bits) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static pqt_status grow_table(pqt_dict_builder *b, pqt_error *err) {
  size_t ns = b->n_slots ? b->n_slots * 2 : 1024;
  unsigned bits = b->n_slots ? b->slot_bits + 1 : 10;
  uint32_t *slots = pqt_mem_calloc(b->alloc, ns * sizeof *slots);
  uint64_t *keys = pqt_mem_alloc(b->alloc, ns * sizeof *keys);
  if (!slots || !keys) {
    if (slots) pqt_mem_free(b->alloc, slots, ns * sizeof *slots);
    if (keys) pqt_mem_free(b->alloc, keys, ns * sizeof *keys);
    return pqt_nomem(err);
  }
  size_t mask = ns - 1;
  for (size_t i = 0; b->slots && i < b->n_slots; i++) {
    uint32_t s = b->slots[i];
    if (!s) continue;
    uint64_t k = b->keys[i];
    size_t h = slot_of(k, bits);
    while (slots[h]) h = (h + 1) & mask;
    slots[h] = s;
    keys[h] = k;
  }
  if (b->slots) pqt_mem_free(b->alloc, b->slots, b->n_slots * sizeof *b->slots);
  if (b->keys) pqt_mem_free(b->alloc, b->keys, b->n_slots * sizeof *b->keys);
  b->slots = slots;
  b->keys = keys;
  b->n_slots = ns;
  b->slot_bits = bits;
  return PQT_OK;
}

/* A new entry for value v (l bytes) with key k at empty slot h. */
static pqt_status add_entry(pqt_dict_builder *b, const uint8_t *v, size_t l, uint64_t k, size_t h, uint32_t *index,
                            pqt_error *err) {
  if (b->count >= UINT32_MAX - 1 || b->plain.len + l + 4 > UINT32_MAX)
    return pqt_error_set(err, PQT_ELIMIT, "dictionary too large");
  if (b->count == b->starts_cap) {
    size_t nc = b->starts_cap ? b->starts_cap * 2 : 256;
    uint32_t *ns = pqt_mem_realloc(b->alloc, b->starts, b->starts_cap * sizeof *ns, nc * sizeof *ns);
    if (!ns) return pqt_nomem(err);
    b->starts = ns;
    b->starts_cap = nc;
  }
  b->starts[b->count] = (uint32_t)b->plain.len;
  if (!b->width) {
    uint8_t lb[4];
    pqt_store_u32le(lb, (uint32_t)l);
    PQT_RETURN_NOT_OK(pqt_buf_append(&b->plain, lb, 4, err));
  }
  PQT_RETURN_NOT_OK(pqt_buf_append(&b->plain, v, l, err));
  b->slots[h] = (uint32_t)b->count + 1;
  b->keys[h] = k;
  *index = (uint32_t)b->count++;
  /* keep the load at most 1/2 */
  if (b->count * 2 > b->n_slots) PQT_RETURN_NOT_OK(grow_table(b, err));
  return PQT_OK;
}

/* Entry e's value bytes (not for key_is_value builders). */
static inline bool entry_equals(const pqt_dict_builder *b, uint32_t e, const uint8_t *v, size_t l) {
  const uint8_t *q = b->plain.data + b->starts[e];
  if (b->width) return memcmp(q, v, l) == 0;
  return pqt_load_u32le(q) == l && memcmp(q + 4, v, l) == 0;
}

/* Values of width 1..8: the key decides, no entry bytes are read. */
static pqt_status add_small(pqt_dict_builder *b, const uint8_t *v, size_t n, uint32_t *indices, pqt_error *err) {
  const size_t w = b->width;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *p = v + i * w;
    uint64_t k = load_key(p, w);
    size_t mask = b->n_slots - 1, h = slot_of(k, b->slot_bits);
    for (;;) {
      uint32_t s = b->slots[h];
      if (!s) {
        PQT_RETURN_NOT_OK(add_entry(b, p, w, k, h, &indices[i], err));
        break;
      }
      if (b->keys[h] == k) {
        indices[i] = s - 1;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  return PQT_OK;
}

static inline pqt_status add_hashed(pqt_dict_builder *b, const uint8_t *v, size_t l, uint32_t *index,
                                    pqt_error *err) {
  uint64_t k = XXH3_64bits(v, l);
  size_t mask = b->n_slots - 1, h = slot_of(k, b->slot_bits);
  for (;;) {
    uint32_t s = b->slots[h];
    if (!s) return add_entry(b, v, l, k, h, index, err);
    if (b->keys[h] == k && entry_equals(b, s - 1, v, l)) {
      *index = s - 1;
      return PQT_OK;
    }
    h = (h + 1) & mask;
  }
}

pqt_status pqt_dict_builder_add_fixed(pqt_dict_builder *b, const void *values, size_t n, uint32_t *indices,
                                      pqt_error *err) {
  if (!b->width) return pqt_error_set(err, PQT_EINVAL, "dictionary builder is for BYTE_ARRAY");
  if (n == 0) return PQT_OK;
  if (!b->slots) PQT_RETURN_NOT_OK(grow_table(b, err));
  const uint8_t *v = values;
  if (key_is_value(b)) return add_small(b, v, n, indices, err);
  for (size_t i = 0; i < n; i++) PQT_RETURN_NOT_OK(add_hashed(b, v + i * b->width, b->width, &indices[i], err));
  return PQT_OK;
}

pqt_status pqt_dict_builder_add_binary(pqt_dict_builder *b, const int32_t *offsets, const uint8_t *data, size_t n,
                                       uint32_t *indices, pqt_error *err) {
  if (b->width) return pqt_error_set(err, PQT_EINVAL, "dictionary builder is fixed width");
  if (n == 0) return PQT_OK;
  if (!b->slots) PQT_RETURN_NOT_OK(grow_table(b, err));
  for (size_t i = 0; i < n; i++) {
    int32_t l = offsets[i + 1] - offsets[i];
    if (l < 0) return pqt_error_set(err, PQT_EINVAL, "offsets not monotone");
    PQT_RETURN_NOT_OK(add_hashed(b, data + offsets[i], (size_t)l, &indices[i], err));
  }
  return PQT_OK;
}
