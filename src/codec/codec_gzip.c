/*
 * codec/codec_gzip.c: GZIP (parquet-format "Compression", codec 2) via
 * libdeflate. Reading: one or more concatenated gzip members (RFC 1952; a
 * page may hold several), decoded member after member into the page buffer;
 * or a single zlib stream (RFC 1950), which Arrow's reader also accepts
 * (zlib's auto-detect). Raw deflate is not accepted. libdeflate verifies each
 * member's CRC-32 and ISIZE. Writing: one gzip member.
 */
#include <libdeflate.h>

#include "codec/codec_internal.h"

#define GZIP_DEFAULT_LEVEL 6

static pqt_status get_decompressor(pqt_codec_ctx *ctx, pqt_error *err) {
  if (!ctx->deflate_d) {
    ctx->deflate_d = libdeflate_alloc_decompressor();
    if (!ctx->deflate_d) return pqt_nomem(err);
  }
  return PQT_OK;
}

static bool is_zlib_header(const uint8_t *p, size_t n) {
  if (n < 2) return false;
  unsigned cmf = p[0], flg = p[1];
  return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
}

pqt_status pqt_gzip_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                               pqt_error *err) {
  PQT_RETURN_NOT_OK(get_decompressor(ctx, err));
  size_t in = 0, out = 0;
  if (src_len >= 2 && src[0] == 0x1f && src[1] == 0x8b) {
    unsigned member = 0;
    while (in < src_len) {
      size_t used = 0, got = 0;
      enum libdeflate_result r =
          libdeflate_gzip_decompress_ex(ctx->deflate_d, src + in, src_len - in, dst + out, dst_len - out, &used, &got);
      if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
        return pqt_corrupt(err, "gzip: decompresses to more than %zu bytes (page header)", dst_len);
      if (r != LIBDEFLATE_SUCCESS)
        return pqt_corrupt(err, "gzip: corrupt input in member %u (at byte %zu of %zu)", member, in, src_len);
      if (used == 0 || used > src_len - in || got > dst_len - out)
        return pqt_corrupt(err, "gzip: corrupt input in member %u", member);
      in += used;
      out += got;
      member++;
    }
  } else if (is_zlib_header(src, src_len)) {
    size_t used = 0, got = 0;
    enum libdeflate_result r = libdeflate_zlib_decompress_ex(ctx->deflate_d, src, src_len, dst, dst_len, &used, &got);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
      return pqt_corrupt(err,
                         "gzip: zlib stream decompresses to more than %zu bytes "
                         "(page header)",
                         dst_len);
    if (r != LIBDEFLATE_SUCCESS) return pqt_corrupt(err, "gzip: corrupt zlib stream");
    if (used != src_len) return pqt_corrupt(err, "gzip: %zu bytes after the zlib stream", src_len - used);
    out = got;
  } else {
    return pqt_corrupt(err, "gzip: input is neither gzip nor zlib data");
  }
  if (out != dst_len) return pqt_corrupt(err, "gzip: decompressed %zu bytes, page header says %zu", out, dst_len);
  return PQT_OK;
}

size_t pqt_gzip_bound(size_t n) {
  if (n > SIZE_MAX / 2) return 0;
  return libdeflate_gzip_compress_bound(NULL, n);
}

pqt_status pqt_gzip_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                             pqt_error *err) {
  if (level == 0) level = GZIP_DEFAULT_LEVEL;
  if (level < 1 || level > 12) return pqt_error_set(err, PQT_EINVAL, "gzip: level %d out of range [1, 12]", level);
  if (ctx->deflate_c && ctx->deflate_c_level != level) {
    libdeflate_free_compressor(ctx->deflate_c);
    ctx->deflate_c = NULL;
  }
  if (!ctx->deflate_c) {
    ctx->deflate_c = libdeflate_alloc_compressor(level);
    if (!ctx->deflate_c) return pqt_nomem(err);
    ctx->deflate_c_level = level;
  }
  size_t bound = libdeflate_gzip_compress_bound(ctx->deflate_c, src_len);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bound, err));
  size_t n = libdeflate_gzip_compress(ctx->deflate_c, src, src_len, out->data + out->len, bound);
  if (n == 0) return pqt_error_set(err, PQT_EINVAL, "gzip: compression failed");
  out->len += n;
  return PQT_OK;
}
