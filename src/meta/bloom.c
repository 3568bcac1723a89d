/*
 * meta/bloom: split-block Bloom filters (parquet-format BloomFilter.md,
 * "Split Block Bloom Filter" and "File Format"). See bloom.h.
 */
#include "meta/bloom.h"

#include <math.h>
#include <xxhash.h>

#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const uint32_t SALT[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                 0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

#define BLOOM_MIN_BYTES 32u
#define BLOOM_MAX_BYTES (128u << 20)

size_t pqt_bloom_optimal_bytes(int64_t ndv, double fpp) {
  if (ndv < 1) ndv = 1;
  if (!(fpp > 0 && fpp < 1)) fpp = 0.01;
  double m = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
  double bytes = m / 8.0;
  size_t n = BLOOM_MIN_BYTES;
  while (n < BLOOM_MAX_BYTES && (double)n < bytes) n <<= 1;
  return n;
}

pqt_status pqt_bloom_init_blocks(pqt_bloom *b, uint32_t n_blocks, const pqt_allocator *alloc, pqt_error *err) {
  memset(b, 0, sizeof *b);
  b->alloc = pqt_alloc_or_default(alloc);
  if (n_blocks < 1 || n_blocks > BLOOM_MAX_BYTES / 32)
    return pqt_error_set(err, PQT_EINVAL, "bloom filter of %u blocks is not in [32 bytes, 128 MiB]", n_blocks);
  size_t num_bytes = (size_t)n_blocks * 32;
  b->words = pqt_mem_calloc(b->alloc, num_bytes);
  if (!b->words) return pqt_nomem(err);
  b->n_blocks = n_blocks;
  b->alloc_bytes = num_bytes;
  return PQT_OK;
}

pqt_status pqt_bloom_init(pqt_bloom *b, size_t num_bytes, const pqt_allocator *alloc, pqt_error *err) {
  if (num_bytes < BLOOM_MIN_BYTES || num_bytes > BLOOM_MAX_BYTES || (num_bytes & (num_bytes - 1))) {
    memset(b, 0, sizeof *b);
    b->alloc = pqt_alloc_or_default(alloc);
    return pqt_error_set(err, PQT_EINVAL, "bloom filter size %zu is not a power of two in [32, 128 MiB]", num_bytes);
  }
  return pqt_bloom_init_blocks(b, (uint32_t)(num_bytes / 32), alloc, err);
}

void pqt_bloom_free(pqt_bloom *b) {
  if (b->words) pqt_mem_free(b->alloc, b->words, b->alloc_bytes);
  b->words = NULL;
  b->n_blocks = 0;
}

uint64_t pqt_bloom_hash(const void *p, size_t n) { return XXH64(p, n, 0); }

uint32_t pqt_bloom_block_of(uint64_t h, uint32_t n_blocks) {
  return (uint32_t)(((h >> 32) * (uint64_t)n_blocks) >> 32);
}

/* The bit of word i of a block that hash h sets: the low 32 bits times
 * salt i, top five bits. */
static uint32_t block_bit(uint64_t h, int i) { return 1u << (((uint32_t)h * SALT[i]) >> 27); }

void pqt_bloom_insert(pqt_bloom *b, uint64_t h) {
  uint32_t *w = b->words + (size_t)pqt_bloom_block_of(h, b->n_blocks) * 8;
  for (int i = 0; i < 8; i++) w[i] |= block_bit(h, i);
}

bool pqt_bloom_check(const pqt_bloom *b, uint64_t h) {
  const uint32_t *w = b->words + (size_t)pqt_bloom_block_of(h, b->n_blocks) * 8;
  for (int i = 0; i < 8; i++)
    if (!(w[i] & block_bit(h, i))) return false;
  return true;
}

bool pqt_bloom_check_block(const uint8_t *block, uint64_t h) {
  for (int i = 0; i < 8; i++)
    if (!(pqt_load_u32le(block + 4 * i) & block_bit(h, i))) return false;
  return true;
}

void pqt_bloom_insert_fixed(pqt_bloom *b, const uint8_t *values, size_t width, size_t n) {
  for (size_t i = 0; i < n; i++) pqt_bloom_insert(b, XXH64(values + i * width, width, 0));
}

void pqt_bloom_insert_binary(pqt_bloom *b, const int32_t *offsets, const uint8_t *data, size_t n) {
  for (size_t i = 0; i < n; i++)
    pqt_bloom_insert(b, XXH64(data + offsets[i], (size_t)(offsets[i + 1] - offsets[i]), 0));
}

pqt_status pqt_bloom_serialize(const pqt_bloom *b, pqt_buf *out, pqt_error *err) {
  pqt_bloom_filter_header h;
  memset(&h, 0, sizeof h);
  h.num_bytes = (int32_t)(b->n_blocks * 32);
  h.algorithm = PQT_FIELD_MASK(bloom_filter_algorithm, block);
  h.hash = PQT_FIELD_MASK(bloom_filter_hash, xxhash);
  h.compression = PQT_FIELD_MASK(bloom_filter_compression, uncompressed);
  h.isset = PQT_FIELD_MASK(bloom_filter_header, num_bytes, algorithm, hash, compression);
  PQT_RETURN_NOT_OK(pqt_thrift_encode(&pqt_desc_bloom_filter_header, &h, out, err));
  size_t nb = (size_t)b->n_blocks * 32;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, nb, err));
  uint8_t *p = out->data + out->len;
  for (size_t i = 0; i < (size_t)b->n_blocks * 8; i++) pqt_store_u32le(p + 4 * i, b->words[i]);
  out->len += nb;
  return PQT_OK;
}

void pqt_bloom_set_bits(pqt_bloom *b, const uint8_t *bits) {
  for (size_t i = 0; i < (size_t)b->n_blocks * 8; i++) b->words[i] = pqt_load_u32le(bits + 4 * i);
}

pqt_status pqt_bloom_header_check(const pqt_bloom_filter_header *h, pqt_error *err) {
  if (h->num_bytes < (int32_t)BLOOM_MIN_BYTES || h->num_bytes > (int32_t)BLOOM_MAX_BYTES || (h->num_bytes % 32) != 0)
    return pqt_corrupt(err, "Bloom filter: numBytes %d is not a multiple of 32 in [32, 128 MiB]", h->num_bytes);
  if (h->algorithm != (1u << 1) || h->hash != (1u << 1) || h->compression != (1u << 1))
    return pqt_error_set(err, PQT_EUNSUPPORTED, "Bloom filter: not a split-block, XXHASH, uncompressed filter");
  return PQT_OK;
}

pqt_status pqt_bloom_parse(const uint8_t *buf, size_t len, const pqt_allocator *alloc, pqt_bloom *b, size_t *consumed,
                           pqt_error *err) {
  pqt_bloom_filter_header h;
  size_t used = 0;
  PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_bloom_filter_header, buf, len, &used, NULL, &h, err));
  if (h.num_bytes <= 0 || (size_t)h.num_bytes > len - used)
    return pqt_corrupt(err, "bloom filter: %d bytes do not fit", h.num_bytes);
  PQT_RETURN_NOT_OK(pqt_bloom_init(b, (size_t)h.num_bytes, alloc, err));
  pqt_bloom_set_bits(b, buf + used);
  if (consumed) *consumed = used + (size_t)h.num_bytes;
  return PQT_OK;
}

void pqt_bloom_fold(pqt_bloom *b, size_t min_bytes) {
  while (b->n_blocks > 1 && (size_t)(b->n_blocks / 2) * 32 >= min_bytes && (b->n_blocks % 2) == 0) {
    uint32_t half = b->n_blocks / 2;
    for (uint32_t k = 0; k < half; k++)
      for (uint32_t w = 0; w < 8; w++) b->words[8 * k + w] = b->words[16 * k + w] | b->words[16 * k + 8 + w];
    b->n_blocks = half;
  }
}
