/*
 * codec/codec_zstd.c: ZSTD (parquet-format "Compression", codec 6; RFC 8878)
 * via libzstd, with a reusable DCtx/CCtx allocated through the context's
 * allocator (ZSTD_customMem). Reading: one or more frames (skippable frames
 * allowed) decompressed in one call into exactly dst_len bytes. Writing: one
 * frame, level 3 by default (zstd's default; parquet-java and DuckDB).
 */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_create?Ctx_advanced (customMem) */
#include <zstd.h>
#include <zstd_errors.h>

#include "codec/codec_internal.h"

#define ZSTD_DEFAULT_LEVEL 3

static ZSTD_customMem custom_mem(pqt_codec_ctx *ctx) {
  ZSTD_customMem m = {pqt_codec_shim_alloc, pqt_codec_shim_free, ctx};
  return m;
}

pqt_status pqt_zstd_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                               pqt_error *err) {
  if (!ctx->zstd_d) {
    ctx->zstd_d = (struct ZSTD_DCtx_s *)ZSTD_createDCtx_advanced(custom_mem(ctx));
    if (!ctx->zstd_d) return pqt_nomem(err);
  }
  size_t r = ZSTD_decompressDCtx((ZSTD_DCtx *)ctx->zstd_d, dst, dst_len, src, src_len);
  if (ZSTD_isError(r)) {
    ZSTD_ErrorCode code = ZSTD_getErrorCode(r);
    if (code == ZSTD_error_dstSize_tooSmall)
      return pqt_corrupt(err, "zstd: decompresses to more than %zu bytes (page header)", dst_len);
    if (code == ZSTD_error_memory_allocation) return pqt_nomem(err);
    return pqt_corrupt(err, "zstd: corrupt input (%s)", ZSTD_getErrorName(r));
  }
  if (r != dst_len) return pqt_corrupt(err, "zstd: decompressed %zu bytes, page header says %zu", r, dst_len);
  return PQT_OK;
}

size_t pqt_zstd_bound(size_t n) {
  size_t b = ZSTD_compressBound(n);
  return ZSTD_isError(b) ? 0 : b;
}

pqt_status pqt_zstd_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                             pqt_error *err) {
  if (level == 0) level = ZSTD_DEFAULT_LEVEL;
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
    return pqt_error_set(err, PQT_EINVAL, "zstd: level %d out of range [%d, %d]", level, ZSTD_minCLevel(),
                         ZSTD_maxCLevel());
  size_t bound = pqt_zstd_bound(src_len);
  if (bound == 0) return pqt_error_set(err, PQT_EINVAL, "zstd: input of %zu bytes is too large", src_len);
  if (!ctx->zstd_c) {
    ctx->zstd_c = (struct ZSTD_CCtx_s *)ZSTD_createCCtx_advanced(custom_mem(ctx));
    if (!ctx->zstd_c) return pqt_nomem(err);
  }
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bound, err));
  size_t r = ZSTD_compressCCtx((ZSTD_CCtx *)ctx->zstd_c, out->data + out->len, bound, src, src_len, level);
  if (ZSTD_isError(r)) {
    if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) return pqt_nomem(err);
    return pqt_error_set(err, PQT_EINVAL, "zstd: compression failed (%s)", ZSTD_getErrorName(r));
  }
  out->len += r;
  return PQT_OK;
}
