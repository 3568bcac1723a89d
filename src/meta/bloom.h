/*
 * meta/bloom: split-block Bloom filters (spec: parquet-format BloomFilter.md:
 * "Split Block Bloom Filter": 256-bit blocks of eight 32-bit words, eight
 * salts, XXH64 with seed 0 of the PLAIN-encoded value (byte arrays without
 * their length prefix), block = (hash >> 32) * num_blocks >> 32; the file
 * layout: BloomFilterHeader (Thrift compact) followed by the bitset).
 */
#ifndef PQT_META_BLOOM_H
#define PQT_META_BLOOM_H

#include "core/core.h"

typedef struct pqt_bloom {
  const pqt_allocator *alloc;
  uint32_t *words; /* n_blocks * 8 words, little-endian when serialized */
  uint32_t n_blocks;
  size_t alloc_bytes; /* size of words as allocated (folding keeps it) */
} pqt_bloom;

/* Bytes for ndv distinct values at false-positive probability fpp: the
 * spec's formula rounded up to a power of two in [32, 128 MiB]. */
size_t pqt_bloom_optimal_bytes(int64_t ndv, double fpp);
pqt_status pqt_bloom_init(pqt_bloom *b, size_t num_bytes, const pqt_allocator *alloc, pqt_error *err);
/* A zeroed filter of n_blocks blocks, any count in [1, 128 MiB / 32]: a
 * file's filter (numBytes a multiple of 32) need not be a power of two. */
pqt_status pqt_bloom_init_blocks(pqt_bloom *b, uint32_t n_blocks, const pqt_allocator *alloc, pqt_error *err);
void pqt_bloom_free(pqt_bloom *b);
uint64_t pqt_bloom_hash(const void *p, size_t n);
void pqt_bloom_insert(pqt_bloom *b, uint64_t hash);
bool pqt_bloom_check(const pqt_bloom *b, uint64_t hash);
/* The block of an n_blocks filter that hash selects: (hash >> 32) *
 * n_blocks >> 32 (any n_blocks >= 1, not only powers of two). */
uint32_t pqt_bloom_block_of(uint64_t hash, uint32_t n_blocks);
/* hash checked against one serialized 32-byte block (eight little-endian
 * words): what pqt_bloom_check answers when that block is the one hash
 * selects. Lets a reader probe a filter a block at a time. */
bool pqt_bloom_check_block(const uint8_t *block, uint64_t hash);
/* b's words from a serialized bitset of b->n_blocks * 32 bytes (little-endian words). */
void pqt_bloom_set_bits(pqt_bloom *b, const uint8_t *bits);
/* A file's BloomFilterHeader as a reader takes it: numBytes a multiple of 32
 * in [32, 128 MiB] (PQT_ECORRUPT), split-block, XXHASH, uncompressed (else
 * PQT_EUNSUPPORTED). */
struct pqt_bloom_filter_header;
pqt_status pqt_bloom_header_check(const struct pqt_bloom_filter_header *h, pqt_error *err);
/* Insert n fixed-width values / n byte arrays. */
void pqt_bloom_insert_fixed(pqt_bloom *b, const uint8_t *values, size_t width, size_t n);
void pqt_bloom_insert_binary(pqt_bloom *b, const int32_t *offsets, const uint8_t *data, size_t n);
/* Append header + bitset. */
/* Shrink the filter to at least min_bytes (a power of two) by OR-ing block
 * pairs: with block = (hash_hi32 * n) >> 32, halving n maps block i to
 * i / 2, so the folded filter answers exactly as one built at that size.
 * Writers size a filter for the configured distinct-value count and fold
 * it to what the row group's values can justify. */
void pqt_bloom_fold(pqt_bloom *b, size_t min_bytes);
pqt_status pqt_bloom_serialize(const pqt_bloom *b, pqt_buf *out, pqt_error *err);
/* Reader helper: parse a filter at buf (header + bitset) into a view
 * (b->words points into a copy allocated with alloc). */
pqt_status pqt_bloom_parse(const uint8_t *buf, size_t len, const pqt_allocator *alloc, pqt_bloom *b, size_t *consumed,
                           pqt_error *err);

#endif
