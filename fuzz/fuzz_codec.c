/*
 * fuzz/fuzz_codec.c: libFuzzer target for src/codec (parquet-format
 * "Compression"). Byte 0 picks the codec (low 3 bits) and the output size
 * (high 5 bits: a size class), bytes 1-2 refine the size; the rest is the
 * compressed page. Decompression must return OK or ECORRUPT (EUNSUPPORTED
 * for LZO when not built), never crash or write past the exact-size output
 * buffer. Every 16th input also round-trips the payload through compress.
 * One context serves the whole run, so reuse after errors is exercised.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3) return 0;
  int codec = data[0] & 7;
  unsigned cls = data[0] >> 3; /* 0..31 */
  size_t dst_len = ((size_t)data[1] | ((size_t)data[2] << 8));
  if (cls < 8) dst_len &= 0xff;                 /* small outputs */
  else if (cls < 28) dst_len <<= (cls - 8) / 4; /* up to ~1 MiB */
  else dst_len = 0;
  const uint8_t *src = data + 3;
  size_t src_len = size - 3;

  /* One context for the whole run, so state reuse after errors is fuzzed. */
  static pqt_codec_ctx *ctx;
  if (!ctx && pqt_codec_ctx_create(&ctx, NULL, NULL) != PQT_OK) return 0;
  uint8_t *dst = dst_len ? malloc(dst_len) : NULL;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_codec_decompress(ctx, codec, src, src_len, dst, dst_len, &err);
  if (st != PQT_OK && st != PQT_ECORRUPT && !(st == PQT_EUNSUPPORTED && !pqt_codec_is_available(codec))) abort();
  if (st != PQT_OK && err.message[0] == '\0') abort();
  free(dst);

  if (pqt_codec_is_available(codec) && (data[1] & 0x0f) == 0) {
    pqt_buf out;
    pqt_buf_init(&out, NULL);
    if (pqt_codec_compress(ctx, codec, 0, src, src_len, &out, &err) == PQT_OK) {
      if (out.len > pqt_codec_max_compressed_len(codec, src_len) && src_len) abort();
      uint8_t *back = malloc(src_len ? src_len : 1);
      if (pqt_codec_decompress(ctx, codec, out.data, out.len, back, src_len, &err) != PQT_OK) abort();
      if (src_len && memcmp(back, src, src_len) != 0) abort();
      free(back);
    }
    pqt_buf_free(&out);
  }
  return 0;
}
