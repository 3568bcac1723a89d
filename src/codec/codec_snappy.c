/*
 * codec/codec_snappy.c: SNAPPY (parquet-format "Compression", codec 1):
 * raw snappy blocks. Decompression is our own (codec/snappy_decode.c: it
 * accepts and rejects exactly what libsnappy does, fuzz_snappy_diff checks
 * that, and it takes 15% less CPU over a whole read of the bench's
 * lineitem_snappy file, where Debian's libsnappy 1.1.9 spends its time in
 * memmove); build with -DPQT_SNAPPY_LIBRARY_DECODE to decompress with
 * libsnappy instead. Compression is libsnappy's. The declared length is
 * checked against the page header first, then the block is decoded in
 * place, bounds-checked against that length.
 */
#include <snappy-c.h>

#include "codec/codec_internal.h"
#include "codec/snappy_decode.h"

pqt_status pqt_snappy_decompress(pqt_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                                 pqt_error *err) {
  (void)ctx;
  size_t declared = 0;
#ifndef PQT_SNAPPY_LIBRARY_DECODE
  if (!pqt_snappy_declared_length(src, src_len, &declared))
    return pqt_corrupt(err, "snappy: corrupt input (bad length prefix)");
  if (declared != dst_len)
    return pqt_corrupt(err, "snappy: decompresses to %zu bytes, page header says %zu", declared, dst_len);
  if (!pqt_snappy_decode(src, src_len, dst, dst_len)) return pqt_corrupt(err, "snappy: corrupt input");
  return PQT_OK;
#else
  if (snappy_uncompressed_length((const char *)src, src_len, &declared) != SNAPPY_OK)
    return pqt_corrupt(err, "snappy: corrupt input (bad length prefix)");
  if (declared != dst_len)
    return pqt_corrupt(err, "snappy: decompresses to %zu bytes, page header says %zu", declared, dst_len);
  size_t got = dst_len;
  if (snappy_uncompress((const char *)src, src_len, (char *)dst, &got) != SNAPPY_OK)
    return pqt_corrupt(err, "snappy: corrupt input");
  if (got != dst_len) return pqt_corrupt(err, "snappy: decompressed %zu bytes, page header says %zu", got, dst_len);
  return PQT_OK;
#endif
}

size_t pqt_snappy_bound(size_t n) {
  /* snappy's bound is 32 + n + n/6; refuse where that would overflow. */
  if (n > (SIZE_MAX - 32) / 7 * 6) return 0;
  return snappy_max_compressed_length(n);
}

pqt_status pqt_snappy_compress(pqt_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len, pqt_buf *out,
                               pqt_error *err) {
  (void)ctx;
  (void)level;
  /* snappy lengths are a 32-bit varint. */
  if (src_len > UINT32_MAX) return pqt_error_set(err, PQT_EINVAL, "snappy: input of %zu bytes is too large", src_len);
  size_t bound = pqt_snappy_bound(src_len);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bound, err));
  size_t n = bound;
  if (snappy_compress((const char *)src, src_len, (char *)out->data + out->len, &n) != SNAPPY_OK)
    return pqt_error_set(err, PQT_ENOMEM, "snappy: compression failed");
  out->len += n;
  return PQT_OK;
}
