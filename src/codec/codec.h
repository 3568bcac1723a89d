/*
 * codec: page compression codecs and the page CRC.
 *
 * Spec: parquet-format "Compression" (CompressionCodec: UNCOMPRESSED, SNAPPY,
 * GZIP, LZO, BROTLI, LZ4 (deprecated, Hadoop framing), ZSTD, LZ4_RAW) and
 * "Checksumming" (standard CRC-32 over the page bytes after the header).
 *
 * Whole-buffer API: Parquet stores both page sizes, so a page is decompressed
 * in one call into a buffer of exactly the size the page header states
 * (style.md §2.5/§2.7). Every compressed byte is untrusted: an input that does
 * not decompress to exactly dst_len bytes is PQT_ECORRUPT, nothing is ever
 * written past dst + dst_len, and no allocation depends on a size read from
 * the compressed data (the output size is the caller's dst_len, which the
 * caller caps).
 *
 * Accepted framings (reading is lenient where other writers differ):
 *   SNAPPY    raw snappy (not the framing/stream format).
 *   GZIP      one or more concatenated gzip members (RFC 1952); also a single
 *             zlib stream (RFC 1950), as Arrow's reader auto-detects both.
 *             Raw deflate is not accepted (nor by Arrow).
 *   LZO       Hadoop block framing of lzo1x chunks, else one raw lzo1x stream.
 *             Only with -DPQT_WITH_LZO=ON (liblzo2 is GPL); otherwise
 *             PQT_EUNSUPPORTED "LZO support not built".
 *   BROTLI    one brotli stream.
 *   LZ4       by trial: Hadoop framing (blocks of [BE u32 raw len] followed
 *             by one or more [BE u32 compressed len][raw LZ4 block] chunks,
 *             several blocks per page), then the LZ4 frame format (one or more
 *             frames, magic 0x184D2204), then one raw LZ4 block.
 *   ZSTD      one or more zstd frames (skippable frames allowed).
 *   LZ4_RAW   one raw LZ4 block.
 * An empty input with dst_len == 0 is accepted for every codec (an empty
 * page some writers emit without a codec envelope).
 *
 * Compression writes: one gzip member; Hadoop-framed LZ4 in blocks of at most
 * 128 KiB (one chunk per block: readable by Hadoop, parquet-java and Arrow);
 * one zstd frame; one brotli stream; one raw LZ4 block for LZ4_RAW.
 * Levels (0 = the codec default; out of range is PQT_EINVAL):
 *   GZIP 1..12 (libdeflate), default 6 (zlib's default; Arrow uses 9).
 *   BROTLI 0..11, default 8 (Arrow's choice), window 22.
 *   ZSTD -131072..22 (ZSTD_minCLevel..max), default 3 (zstd's own default,
 *        as parquet-java and DuckDB write; Arrow uses 1).
 *   LZ4 / LZ4_RAW: <= 2 is the fast compressor (a negative level is the
 *        LZ4_compress_fast acceleration), 3..12 is LZ4HC at that level.
 *   SNAPPY, UNCOMPRESSED, LZO: level ignored.
 *
 * Contexts hold the reusable state (zstd DCtx/CCtx, libdeflate
 * (de)compressors, LZ4 state, the LZ4 frame decompressor), created lazily on
 * first use of each codec. Use one context per column reader/writer; a
 * context is not thread-safe. zstd and brotli state is allocated through the
 * context's allocator; libdeflate, snappy and the LZ4 frame decoder use the C
 * library's malloc internally (their APIs offer no per-call allocator).
 */
#ifndef PQT_CODEC_H
#define PQT_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

typedef struct pqt_codec_ctx pqt_codec_ctx;

/* A context using alloc (NULL = malloc). Destroy with pqt_codec_ctx_destroy. */
pqt_status pqt_codec_ctx_create(pqt_codec_ctx **out, const pqt_allocator *alloc, pqt_error *err);
/* Free a context and all codec state it holds (NULL is a no-op). */
void pqt_codec_ctx_destroy(pqt_codec_ctx *ctx);

/* True for the codecs this build can both read and write (0..7; LZO only
 * when built with PQT_WITH_LZO). */
bool pqt_codec_is_available(int codec);

/* The spec's name ("UNCOMPRESSED", "SNAPPY", ..., "LZ4_RAW"), or "UNKNOWN". */
const char *pqt_codec_name(int codec);

/* The codec id for a name, case-insensitive ("zstd", "LZ4_RAW"; also
 * "NONE" for UNCOMPRESSED), or -1. For command-line and writer options. */
int pqt_codec_from_name(const char *name);

/* Decompress src into exactly dst_len bytes at dst. Any other size, trailing
 * input, or malformed input is PQT_ECORRUPT with a message naming the codec;
 * an unknown codec is PQT_ECORRUPT too (it comes from the file); a known
 * codec not built is PQT_EUNSUPPORTED. dst may be NULL when dst_len == 0. */
pqt_status pqt_codec_decompress(pqt_codec_ctx *ctx, int codec, const uint8_t *src, size_t src_len, uint8_t *dst,
                                size_t dst_len, pqt_error *err);

/* Compress src and append the result to out. level 0 = codec default. */
pqt_status pqt_codec_compress(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src, size_t src_len,
                              pqt_buf *out, pqt_error *err);

/* Worst-case compressed size of src_len bytes with this codec at any level,
 * as pqt_codec_compress writes it; 0 for an unknown or unavailable codec or
 * when the bound overflows (UNCOMPRESSED of 0 bytes is 0 too). */
size_t pqt_codec_max_compressed_len(int codec, size_t src_len);

/* Standard CRC-32 (IEEE/zlib, reflected 0xEDB88320, as the page CRC), via
 * libdeflate. Start with crc = 0; chain calls to continue. */
uint32_t pqt_crc32(uint32_t crc, const void *data, size_t len);

#endif /* PQT_CODEC_H */
