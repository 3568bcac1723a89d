/*
 * encoding/dictionary: byte-array dictionary gather and the writer's
 * dictionary builder (Parquet Encodings.md, "Dictionary Encoding").
 *
 * The builder is an open-addressing hash table (linear probing, load <= 1/2,
 * XXH3 hashes) whose slots hold entry indices; the entries themselves are
 * kept PLAIN encoded, which is exactly the dictionary page body. Values are
 * compared bytewise, so float NaN payloads and -0.0 stay distinct entries.
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
  memset(b, 0, sizeof *b);
}

static inline void entry_bytes(const pqt_dict_builder *b, uint32_t e, const uint8_t **p, size_t *l) {
  const uint8_t *q = b->plain.data + b->starts[e];
  if (b->width) {
    *p = q;
    *l = b->width;
  } else {
    *l = pqt_load_u32le(q);
    *p = q + 4;
  }
}

static pqt_status grow_table(pqt_dict_builder *b, pqt_error *err) {
  size_t ns = b->n_slots ? b->n_slots * 2 : 1024;
  uint32_t *slots = pqt_mem_calloc(b->alloc, ns * sizeof *slots);
  if (!slots) return pqt_nomem(err);
  for (uint32_t e = 0; e < b->count; e++) {
    const uint8_t *p;
    size_t l;
    entry_bytes(b, e, &p, &l);
    size_t h = (size_t)XXH3_64bits(p, l) & (ns - 1);
    while (slots[h]) h = (h + 1) & (ns - 1);
    slots[h] = e + 1;
  }
  if (b->slots) pqt_mem_free(b->alloc, b->slots, b->n_slots * sizeof *b->slots);
  b->slots = slots;
  b->n_slots = ns;
  return PQT_OK;
}

static pqt_status add_one(pqt_dict_builder *b, const uint8_t *v, size_t l, uint32_t *index, pqt_error *err) {
  if ((b->count + 1) * 2 > b->n_slots) PQT_RETURN_NOT_OK(grow_table(b, err));
  uint64_t hv = XXH3_64bits(v, l);
  size_t mask = b->n_slots - 1, h = (size_t)hv & mask;
  for (;;) {
    uint32_t s = b->slots[h];
    if (!s) break;
    const uint8_t *p;
    size_t pl;
    entry_bytes(b, s - 1, &p, &pl);
    if (pl == l && memcmp(p, v, l) == 0) {
      *index = s - 1;
      return PQT_OK;
    }
    h = (h + 1) & mask;
  }
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
  *index = (uint32_t)b->count++;
  return PQT_OK;
}

pqt_status pqt_dict_builder_add_fixed(pqt_dict_builder *b, const void *values, size_t n, uint32_t *indices,
                                      pqt_error *err) {
  if (!b->width) return pqt_error_set(err, PQT_EINVAL, "dictionary builder is for BYTE_ARRAY");
  const uint8_t *v = values;
  for (size_t i = 0; i < n; i++) PQT_RETURN_NOT_OK(add_one(b, v + i * b->width, b->width, &indices[i], err));
  return PQT_OK;
}

pqt_status pqt_dict_builder_add_binary(pqt_dict_builder *b, const int32_t *offsets, const uint8_t *data, size_t n,
                                       uint32_t *indices, pqt_error *err) {
  if (b->width) return pqt_error_set(err, PQT_EINVAL, "dictionary builder is fixed width");
  for (size_t i = 0; i < n; i++) {
    int32_t l = offsets[i + 1] - offsets[i];
    if (l < 0) return pqt_error_set(err, PQT_EINVAL, "offsets not monotone");
    PQT_RETURN_NOT_OK(add_one(b, data + offsets[i], (size_t)l, &indices[i], err));
  }
  return PQT_OK;
}
