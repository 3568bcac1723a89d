/*
 * codec/codec_lz4.c: LZ4 (parquet-format "Compression", codec 5, deprecated)
 * and LZ4_RAW (codec 7) via liblz4.
 *
 * LZ4_RAW is one raw LZ4 block. Codec 5 has three framings in the wild
 * (interop-pitfalls item 1), read by trial in this order:
 *   1. Hadoop framing (parquet-java, Arrow >= 4): blocks of [BE u32 raw len]
 *      then [BE u32 compressed len][raw block] chunks; several per page.
 *   2. the LZ4 frame format (magic 0x184D2204; one or more frames).
 *   3. one raw LZ4 block (Arrow < 4 wrote this).
 * Each trial must produce exactly dst_len bytes and consume all input.
 * Writing codec 5 uses Hadoop framing in blocks of at most 128 KiB, one chunk
 * per block, which Hadoop's own decompressor (256 KiB buffer) and Arrow read.
 * Level: <= 2 is LZ4_compress_fast (negative = acceleration), 3..12 LZ4HC.
 */
#include <limits.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>

#include "codec/codec_internal.h"

#define LZ4_FRAME_MAGIC     0x184D2204u
#define LZ4_SKIPPABLE_MASK  0xFFFFFFF0u
#define LZ4_SKIPPABLE_MAGIC 0x184D2A50u

/* ---- decoding ---------------------------------------------------------- */

static bool raw_chunk(pqt_codec_ctx *ctx, const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *produced) {
  (void)ctx;
  if (n > INT_MAX || cap > INT_MAX) return false;
  int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)cap);
  if (r < 0) return false;
  *produced = (size_t)r;
  return true;
}

/* LZ4 frame format: true on success; false when malformed (*st says
 * whether it was an allocation failure instead). */
static bool frame_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                             pqt_status *st, pqt_error *err) {
  *st = PQT_OK;
  if (!ctx->lz4f_d) {
    LZ4F_dctx *d = NULL;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)) || !d) {
      *st = pqt_nomem(err);
      return false;
    }
    ctx->lz4f_d = (struct LZ4F_dctx_s *)d;
  }
  LZ4F_dctx *d = (LZ4F_dctx *)ctx->lz4f_d;
  LZ4F_resetDecompressionContext(d);
  size_t in = 0, out = 0, hint = 0;
  LZ4F_decompressOptions_t opts;
  memset(&opts, 0, sizeof opts);
  while (in < src_len) {
    size_t isz = src_len - in, osz = dst_len - out;
    hint = LZ4F_decompress(d, dst + out, &osz, src + in, &isz, &opts);
    if (LZ4F_isError(hint)) {
      LZ4F_resetDecompressionContext(d);
      return false;
    }
    if (isz > src_len - in || osz > dst_len - out) return false;
    in += isz;
    out += osz;
    if (hint != 0 && isz == 0 && osz == 0) break; /* output full, frame wants more */
  }
  if (hint != 0 || in != src_len || out != dst_len) {
    LZ4F_resetDecompressionContext(d);
    return false;
  }
  return true;
}

static bool looks_like_frame(const uint8_t *src, size_t n) {
  if (n < 4) return false;
  uint32_t m = pqt_load_u32le(src);
  return m == LZ4_FRAME_MAGIC || (m & LZ4_SKIPPABLE_MASK) == LZ4_SKIPPABLE_MAGIC;
}

pqt_status pqt_lz4_hadoop_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                                     size_t dst_len, pqt_error *err) {
  if (pqt_hadoop_decompress(ctx, src, src_len, dst, dst_len, raw_chunk)) return PQT_OK;
  if (looks_like_frame(src, src_len)) {
    pqt_status st;
    if (frame_decompress(ctx, src, src_len, dst, dst_len, &st, err)) return PQT_OK;
    if (st != PQT_OK) return st;
  }
  size_t got = 0;
  if (raw_chunk(ctx, src, src_len, dst, dst_len, &got) && got == dst_len) return PQT_OK;
  return pqt_corrupt(err,
                     "lz4: %zu bytes are not Hadoop-framed LZ4, an LZ4 frame or a raw "
                     "LZ4 block decompressing to %zu bytes (page header)",
                     src_len, dst_len);
}

pqt_status pqt_lz4_raw_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                                  pqt_error *err) {
  (void)ctx;
  if (src_len > INT_MAX || dst_len > INT_MAX) return pqt_corrupt(err, "lz4_raw: page larger than 2 GiB");
  int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_len, (int)dst_len);
  if (r < 0)
    return pqt_corrupt(err,
                       "lz4_raw: corrupt input, or it decompresses to more than %zu "
                       "bytes (page header)",
                       dst_len);
  if ((size_t)r != dst_len) return pqt_corrupt(err, "lz4_raw: decompressed %d bytes, page header says %zu", r, dst_len);
  return PQT_OK;
}

/* ---- encoding ---------------------------------------------------------- */

/* Compress one raw block of n <= INT_MAX bytes into dst (capacity cap). */
static pqt_status compress_block(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                                 size_t *written, const char *name, pqt_error *err) {
  int icap = cap > INT_MAX ? INT_MAX : (int)cap;
  int r;
  if (level >= 3) {
    PQT_RETURN_NOT_OK(
        pqt_codec_scratch(ctx, &ctx->lz4hc_state, &ctx->lz4hc_state_size, (size_t)LZ4_sizeofStateHC(), err));
    r = LZ4_compress_HC_extStateHC(ctx->lz4hc_state, (const char *)src, (char *)dst, (int)n, icap, level);
  } else {
    PQT_RETURN_NOT_OK(pqt_codec_scratch(ctx, &ctx->lz4_state, &ctx->lz4_state_size, (size_t)LZ4_sizeofState(), err));
    int accel = level < 0 ? -level : 1;
    r = LZ4_compress_fast_extState(ctx->lz4_state, (const char *)src, (char *)dst, (int)n, icap, accel);
  }
  if (r <= 0) return pqt_error_set(err, PQT_EINVAL, "%s: compression failed", name);
  *written = (size_t)r;
  return PQT_OK;
}

static pqt_status check_level(int level, const char *name, pqt_error *err) {
  if (level > LZ4HC_CLEVEL_MAX || level < -65537)
    return pqt_error_set(err, PQT_EINVAL, "%s: level %d out of range [-65537, %d]", name, level, LZ4HC_CLEVEL_MAX);
  return PQT_OK;
}

size_t pqt_lz4_raw_bound(size_t n) {
  if (n > LZ4_MAX_INPUT_SIZE) return 0;
  return (size_t)LZ4_compressBound((int)n);
}

pqt_status pqt_lz4_raw_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                                pqt_error *err) {
  PQT_RETURN_NOT_OK(check_level(level, "lz4_raw", err));
  if (src_len > LZ4_MAX_INPUT_SIZE)
    return pqt_error_set(err, PQT_EINVAL, "lz4_raw: input of %zu bytes is too large", src_len);
  size_t bound = pqt_lz4_raw_bound(src_len);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bound, err));
  size_t n = 0;
  PQT_RETURN_NOT_OK(compress_block(ctx, level, src, src_len, out->data + out->len, bound, &n, "lz4_raw", err));
  out->len += n;
  return PQT_OK;
}

size_t pqt_lz4_hadoop_bound(size_t n) {
  size_t blocks = n / PQT_HADOOP_BLOCK_SIZE + 1;
  size_t per = (size_t)LZ4_compressBound((int)PQT_HADOOP_BLOCK_SIZE) + 8, total;
  if (!pqt_mul_size(blocks, per, &total)) return 0;
  return total;
}

pqt_status pqt_lz4_hadoop_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                                   pqt_error *err) {
  PQT_RETURN_NOT_OK(check_level(level, "lz4", err));
  size_t pos = 0;
  do { /* an empty input still gets one block: [0][1][0x00] */
    size_t n = src_len - pos;
    if (n > PQT_HADOOP_BLOCK_SIZE) n = PQT_HADOOP_BLOCK_SIZE;
    size_t bound = (size_t)LZ4_compressBound((int)n);
    PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bound + 8, err));
    uint8_t *hdr = out->data + out->len;
    size_t written = 0;
    PQT_RETURN_NOT_OK(compress_block(ctx, level, src + pos, n, hdr + 8, bound, &written, "lz4", err));
    pqt_store_u32be(hdr, (uint32_t)n);
    pqt_store_u32be(hdr + 4, (uint32_t)written);
    out->len += 8 + written;
    pos += n;
  } while (pos < src_len);
  return PQT_OK;
}
