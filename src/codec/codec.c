/*
 * codec/codec.c: the codec registry, contexts, dispatch and the page CRC.
 * Spec: parquet-format "Compression" (CompressionCodec values 0..7) and
 * "Checksumming" (page CRC = standard CRC-32 of the page bytes after the
 * header). The adapters live in codec_<name>.c.
 */
#include <libdeflate.h>

#include "codec/codec_internal.h"
#include "thrift/parquet_desc.h"

/* ---- registry --------------------------------------------------------- */

static pqt_status uncompressed_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                                          size_t dst_len, pqt_error *err) {
  (void)ctx;
  if (src_len != dst_len)
    return pqt_corrupt(err, "UNCOMPRESSED: page has %zu bytes, page header says %zu", src_len, dst_len);
  if (src_len) memcpy(dst, src, src_len);
  return PQT_OK;
}

static pqt_status uncompressed_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                                        pqt_error *err) {
  (void)ctx;
  (void)level;
  return pqt_buf_append(out, src, src_len, err);
}

static size_t uncompressed_bound(size_t n) { return n; }

#define PQT_CODEC_COUNT 8

static const pqt_codec_entry pqt_codec_registry[PQT_CODEC_COUNT] = {
    {uncompressed_decompress, uncompressed_compress, uncompressed_bound},
    {pqt_snappy_decompress, pqt_snappy_compress, pqt_snappy_bound},
    {pqt_gzip_decompress, pqt_gzip_compress, pqt_gzip_bound},
#ifdef PQT_WITH_LZO
    {pqt_lzo_decompress, pqt_lzo_compress, pqt_lzo_bound},
#else
    {NULL, NULL, NULL},
#endif
    {pqt_brotli_decompress, pqt_brotli_compress, pqt_brotli_bound},
    {pqt_lz4_hadoop_decompress, pqt_lz4_hadoop_compress, pqt_lz4_hadoop_bound},
    {pqt_zstd_decompress, pqt_zstd_compress, pqt_zstd_bound},
    {pqt_lz4_raw_decompress, pqt_lz4_raw_compress, pqt_lz4_raw_bound},
};

static const pqt_codec_entry *lookup(int codec) {
  if (codec < 0 || codec >= PQT_CODEC_COUNT) return NULL;
  return &pqt_codec_registry[codec];
}

bool pqt_codec_is_available(int codec) {
  const pqt_codec_entry *e = lookup(codec);
  return e && e->decompress != NULL;
}

/* The names are parquet.thrift's CompressionCodec table (thrift/parquet_desc.c). */
const char *pqt_codec_name(int codec) {
  const char *s = lookup(codec) ? pqt_thrift_enum_name(&pqt_enum_compression_codec, codec) : NULL;
  return s ? s : "UNKNOWN";
}

int pqt_codec_from_name(const char *name) {
  static const char *const none_name[] = {"NONE"}; /* UNCOMPRESSED's other spelling */
  static const pqt_thrift_enum none = {"CompressionCodec", none_name, 1};
  if (pqt_enum_from_name(&none, name) == 0) return PQT_CODEC_UNCOMPRESSED;
  int32_t v = pqt_enum_from_name(&pqt_enum_compression_codec, name);
  return lookup(v) ? (int)v : -1;
}

static pqt_status unsupported(int codec, pqt_error *err) {
  if (codec == 3)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "LZO support not built (configure with -DPQT_WITH_LZO=ON)");
  return pqt_error_set(err, PQT_EUNSUPPORTED, "codec %s not built", pqt_codec_name(codec));
}

pqt_status pqt_codec_decompress(pqt_codec_ctx *ctx, int codec, const uint8_t *src, size_t src_len, uint8_t *dst,
                                size_t dst_len, pqt_error *err) {
  const pqt_codec_entry *e = lookup(codec);
  if (!e) return pqt_corrupt(err, "unknown compression codec %d", codec);
  if (!e->decompress) return unsupported(codec, err);
  if (!ctx) return pqt_error_set(err, PQT_EINVAL, "codec: NULL context");
  if ((!src && src_len) || (!dst && dst_len)) return pqt_error_set(err, PQT_EINVAL, "codec: NULL buffer");
  if (src_len == 0 && dst_len == 0) return PQT_OK;
  /* Some libraries dislike NULL even for 0 bytes. */
  uint8_t dummy = 0;
  if (!src) src = &dummy;
  if (!dst) dst = &dummy;
  return e->decompress(ctx, src, src_len, dst, dst_len, err);
}

pqt_status pqt_codec_compress(pqt_codec_ctx *ctx, int codec, int level, const uint8_t *src, size_t src_len,
                              pqt_buf *out, pqt_error *err) {
  const pqt_codec_entry *e = lookup(codec);
  if (!e) return pqt_error_set(err, PQT_EINVAL, "unknown compression codec %d", codec);
  if (!e->compress) return unsupported(codec, err);
  if (!ctx || !out) return pqt_error_set(err, PQT_EINVAL, "codec: NULL context or output");
  if (!src && src_len) return pqt_error_set(err, PQT_EINVAL, "codec: NULL buffer");
  static const uint8_t empty = 0;
  if (!src) src = &empty;
  return e->compress(ctx, level, src, src_len, out, err);
}

size_t pqt_codec_max_compressed_len(int codec, size_t src_len) {
  const pqt_codec_entry *e = lookup(codec);
  if (!e || !e->max_compressed_len) return 0;
  return e->max_compressed_len(src_len);
}

uint32_t pqt_crc32(uint32_t crc, const void *data, size_t len) {
  if (len == 0) return crc;
  return libdeflate_crc32(crc, data, len);
}

/* ---- contexts --------------------------------------------------------- */

pqt_status pqt_codec_ctx_create(pqt_codec_ctx **out, const pqt_allocator *alloc, pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "codec: NULL out");
  *out = NULL;
  alloc = pqt_alloc_or_default(alloc);
  pqt_codec_ctx *ctx = pqt_mem_calloc(alloc, sizeof *ctx);
  if (!ctx) return pqt_nomem(err);
  ctx->alloc = alloc;
  *out = ctx;
  return PQT_OK;
}

void pqt_codec_ctx_destroy(pqt_codec_ctx *ctx) {
  if (!ctx) return;
  pqt_codec_release_state(ctx);
  pqt_mem_free(ctx->alloc, ctx->lz4_state, ctx->lz4_state_size);
  pqt_mem_free(ctx->alloc, ctx->lz4hc_state, ctx->lz4hc_state_size);
  pqt_mem_free(ctx->alloc, ctx->lzo_wrkmem, ctx->lzo_wrkmem_size);
  pqt_mem_free(ctx->alloc, ctx, sizeof *ctx);
}

pqt_status pqt_codec_scratch(pqt_codec_ctx *ctx, void **slot, size_t *size, size_t n, pqt_error *err) {
  if (*slot) return PQT_OK;
  *slot = pqt_mem_alloc(ctx->alloc, n);
  if (!*slot) return pqt_nomem(err);
  *size = n;
  return PQT_OK;
}

/* Size header before each block; 16 keeps malloc's alignment. */
#define PQT_SHIM_HEADER 16

void *pqt_codec_shim_alloc(void *opaque, size_t n) {
  const pqt_codec_ctx *ctx = opaque;
  size_t total;
  if (!pqt_add_size(n, PQT_SHIM_HEADER, &total)) return NULL;
  uint8_t *p = pqt_mem_alloc(ctx->alloc, total);
  if (!p) return NULL;
  memcpy(p, &total, sizeof total);
  return p + PQT_SHIM_HEADER;
}

void pqt_codec_shim_free(void *opaque, void *q) {
  if (!q) return;
  const pqt_codec_ctx *ctx = opaque;
  uint8_t *p = (uint8_t *)q - PQT_SHIM_HEADER;
  size_t total;
  memcpy(&total, p, sizeof total);
  pqt_mem_free(ctx->alloc, p, total);
}

/* ---- Hadoop block framing (LZ4 codec 5, LZO) -------------------------- */

bool pqt_hadoop_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                           pqt_hadoop_chunk_fn chunk) {
  size_t in = 0, out = 0;
  if (src_len < 8) return false;
  while (in < src_len) {
    if (src_len - in < 4) return false;
    uint32_t raw = pqt_load_u32be(src + in);
    in += 4;
    if (raw > dst_len - out) return false;
    size_t block_end = out + raw;
    /* At least one chunk per block, so a block of 0 raw bytes followed by
     * one chunk (what Arrow writes for an empty page) parses. */
    do {
      if (src_len - in < 4) return false;
      uint32_t clen = pqt_load_u32be(src + in);
      in += 4;
      if (clen > src_len - in) return false;
      size_t produced = 0;
      if (!chunk(ctx, src + in, clen, dst + out, block_end - out, &produced)) return false;
      if (produced > block_end - out) return false;
      in += clen;
      out += produced;
    } while (out < block_end);
  }
  return out == dst_len;
}

/* ---- per-codec state -------------------------------------------------- */

#include <lz4frame.h>
#include <zstd.h>

void pqt_codec_release_state(pqt_codec_ctx *ctx) {
  if (ctx->zstd_d) ZSTD_freeDCtx((ZSTD_DCtx *)ctx->zstd_d);
  if (ctx->zstd_c) ZSTD_freeCCtx((ZSTD_CCtx *)ctx->zstd_c);
  libdeflate_free_decompressor(ctx->deflate_d);
  libdeflate_free_compressor(ctx->deflate_c);
  if (ctx->lz4f_d) LZ4F_freeDecompressionContext((LZ4F_dctx *)ctx->lz4f_d);
  ctx->zstd_d = NULL;
  ctx->zstd_c = NULL;
  ctx->deflate_d = NULL;
  ctx->deflate_c = NULL;
  ctx->lz4f_d = NULL;
}
