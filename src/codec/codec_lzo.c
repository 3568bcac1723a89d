/*
 * codec/codec_lzo.c: LZO (parquet-format "Compression", codec 3) via liblzo2,
 * built only with -DPQT_WITH_LZO=ON (liblzo2 is GPL; see codec.h). Parquet
 * writers use Hadoop's LzoCodec: Hadoop block framing of lzo1x chunks
 * ([BE u32 raw len] then [BE u32 compressed len][lzo1x data] chunks). Reading
 * tries that framing, then one raw lzo1x stream. Writing uses the framing,
 * blocks of at most 128 KiB, lzo1x_1 (level ignored).
 */
#include "codec/codec_internal.h"

#ifdef PQT_WITH_LZO
#include <lzo/lzo1x.h>

static pqt_status lzo_ready(pqt_codec_ctx *ctx, pqt_error *err) {
  if (!ctx->lzo_ready) {
    if (lzo_init() != LZO_E_OK) return pqt_error_set(err, PQT_EUNSUPPORTED, "lzo: lzo_init failed");
    ctx->lzo_ready = true;
  }
  return PQT_OK;
}

static bool lzo_chunk(pqt_codec_ctx *ctx, const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *produced) {
  (void)ctx;
  lzo_uint got = cap;
  int r = lzo1x_decompress_safe(src, n, dst, &got, NULL);
  if (r != LZO_E_OK || got > cap) return false;
  *produced = got;
  return true;
}

pqt_status pqt_lzo_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                              pqt_error *err) {
  PQT_RETURN_NOT_OK(lzo_ready(ctx, err));
  if (pqt_hadoop_decompress(ctx, src, src_len, dst, dst_len, lzo_chunk)) return PQT_OK;
  size_t got = 0;
  if (lzo_chunk(ctx, src, src_len, dst, dst_len, &got) && got == dst_len) return PQT_OK;
  return pqt_corrupt(err,
                     "lzo: %zu bytes are not Hadoop-framed LZO or an lzo1x stream "
                     "decompressing to %zu bytes (page header)",
                     src_len, dst_len);
}

static size_t block_bound(size_t n) { return n + n / 16 + 64 + 3; }

size_t pqt_lzo_bound(size_t n) {
  size_t blocks = n / PQT_HADOOP_BLOCK_SIZE + 1, total;
  if (!pqt_mul_size(blocks, block_bound(PQT_HADOOP_BLOCK_SIZE) + 8, &total)) return 0;
  return total;
}

pqt_status pqt_lzo_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                            pqt_error *err) {
  (void)level;
  PQT_RETURN_NOT_OK(lzo_ready(ctx, err));
  PQT_RETURN_NOT_OK(pqt_codec_scratch(ctx, &ctx->lzo_wrkmem, &ctx->lzo_wrkmem_size, LZO1X_1_MEM_COMPRESS, err));
  size_t pos = 0;
  do {
    size_t n = src_len - pos;
    if (n > PQT_HADOOP_BLOCK_SIZE) n = PQT_HADOOP_BLOCK_SIZE;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(out, block_bound(n) + 8, err));
    uint8_t *hdr = out->data + out->len;
    lzo_uint written = block_bound(n);
    if (lzo1x_1_compress(src + pos, n, hdr + 8, &written, ctx->lzo_wrkmem) != LZO_E_OK)
      return pqt_error_set(err, PQT_EINVAL, "lzo: compression failed");
    pqt_store_u32be(hdr, (uint32_t)n);
    pqt_store_u32be(hdr + 4, (uint32_t)written);
    out->len += 8 + (size_t)written;
    pos += n;
  } while (pos < src_len);
  return PQT_OK;
}
#endif /* PQT_WITH_LZO */
