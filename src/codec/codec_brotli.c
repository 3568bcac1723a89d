/*
 * codec/codec_brotli.c: BROTLI (parquet-format "Compression", codec 4;
 * RFC 7932) via libbrotlidec/libbrotlienc, with state allocated through the
 * context's allocator. Reading: exactly one brotli stream that fills the
 * page buffer and consumes all input. Writing: one stream, quality 8
 * (Arrow's default) unless a level is given, window 22.
 */
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "codec/codec_internal.h"

#define BROTLI_DEFAULT_LEVEL 8

pqt_status pqt_brotli_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                                 pqt_error *err) {
  BrotliDecoderState *s = BrotliDecoderCreateInstance(pqt_codec_shim_alloc, pqt_codec_shim_free, ctx);
  if (!s) return pqt_nomem(err);
  size_t avail_in = src_len, avail_out = dst_len;
  const uint8_t *next_in = src;
  uint8_t *next_out = dst;
  BrotliDecoderResult r = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, NULL);
  pqt_status st = PQT_OK;
  size_t got = dst_len - avail_out;
  switch (r) {
    case BROTLI_DECODER_RESULT_SUCCESS:
      if (avail_in != 0) st = pqt_corrupt(err, "brotli: %zu bytes after the end of the stream", avail_in);
      else if (got != dst_len)
        st = pqt_corrupt(err, "brotli: decompressed %zu bytes, page header says %zu", got, dst_len);
      break;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
      st = pqt_corrupt(err, "brotli: decompresses to more than %zu bytes (page header)", dst_len);
      break;
    case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
      st = pqt_corrupt(err,
                       "brotli: truncated input (%zu bytes decompressed, page header "
                       "says %zu)",
                       got, dst_len);
      break;
    default: {
      BrotliDecoderErrorCode code = BrotliDecoderGetErrorCode(s);
      if (code == BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES || code == BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS ||
          code == BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP || code == BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1 ||
          code == BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2 || code == BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES)
        st = pqt_nomem(err);
      else st = pqt_corrupt(err, "brotli: corrupt input (%s)", BrotliDecoderErrorString(code));
      break;
    }
  }
  BrotliDecoderDestroyInstance(s);
  return st;
}

size_t pqt_brotli_bound(size_t n) {
  /* BrotliEncoderMaxCompressedSize is the one-shot bound; the streaming
   * encoder used below stays within it in practice, and compress grows the
   * buffer if not. 0 on overflow. */
  return BrotliEncoderMaxCompressedSize(n);
}

pqt_status pqt_brotli_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                               pqt_error *err) {
  if (level == 0) level = BROTLI_DEFAULT_LEVEL;
  if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY)
    return pqt_error_set(err, PQT_EINVAL, "brotli: level %d out of range [%d, %d]", level, BROTLI_MIN_QUALITY,
                         BROTLI_MAX_QUALITY);
  BrotliEncoderState *s = BrotliEncoderCreateInstance(pqt_codec_shim_alloc, pqt_codec_shim_free, ctx);
  if (!s) return pqt_nomem(err);
  BrotliEncoderSetParameter(s, BROTLI_PARAM_QUALITY, (uint32_t)level);
  BrotliEncoderSetParameter(s, BROTLI_PARAM_LGWIN, BROTLI_DEFAULT_WINDOW);
  if (src_len <= UINT32_MAX) BrotliEncoderSetParameter(s, BROTLI_PARAM_SIZE_HINT, (uint32_t)src_len);
  size_t bound = BrotliEncoderMaxCompressedSize(src_len);
  if (bound == 0) bound = src_len / 2 + 1024;
  pqt_status st = pqt_buf_reserve(out, bound, err);
  size_t avail_in = src_len;
  const uint8_t *next_in = src;
  while (st == PQT_OK) {
    size_t avail_out = out->cap - out->len;
    uint8_t *next_out = out->data + out->len;
    if (!BrotliEncoderCompressStream(s, BROTLI_OPERATION_FINISH, &avail_in, &next_in, &avail_out, &next_out, NULL)) {
      st = pqt_error_set(err, PQT_ENOMEM, "brotli: compression failed");
      break;
    }
    out->len = (size_t)(next_out - out->data);
    if (BrotliEncoderIsFinished(s)) break;
    if (out->len == out->cap) st = pqt_buf_reserve(out, out->cap / 2 + 1024, err);
  }
  BrotliEncoderDestroyInstance(s);
  return st;
}
