/*
 * codec/snappy_decode.h: a snappy block decompressor of our own (the raw
 * format of google/snappy's format_description.txt), written to avoid
 * libsnappy 1.1.9's calls into memmove for its short copies. It accepts and
 * rejects exactly what libsnappy's snappy_uncompress does (checked by
 * fuzz/fuzz_snappy_diff.c against the library); compression stays with
 * libsnappy.
 */
#ifndef PQT_CODEC_SNAPPY_DECODE_H
#define PQT_CODEC_SNAPPY_DECODE_H

#include "core/core.h"

/* The length the block's preamble declares; false when the preamble is not
 * a valid varint32 (as snappy_uncompressed_length). */
bool pqt_snappy_declared_length(const uint8_t *src, size_t src_len, size_t *out);

/* Decompress a whole block into dst, which must be exactly the declared
 * length (dst_len): true when the block is valid and fills dst exactly. */
bool pqt_snappy_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

#endif
