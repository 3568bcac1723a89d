/*
 * encoding/delta_length_byte_array: DELTA_LENGTH_BYTE_ARRAY (Parquet
 * Encodings.md, "Delta-length byte array (DELTA_LENGTH_BYTE_ARRAY = 6)").
 * Lengths are decoded straight into offsets[1..n] (no scratch memory), then
 * validated and prefix-summed in place, and the data copied in one memcpy
 * per call; a decoder may be called many times over one page.
 */
#include "encoding/delta_length_byte_array.h"

#include "encoding/delta_binary_packed.h"

pqt_status pqt_delta_length_init(pqt_delta_length_decoder *d, const uint8_t *in, size_t len, pqt_error *err) {
  memset(d, 0, sizeof *d);
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&d->lens, in, len, true, err));
  /* the bytes follow the lengths' stream: walk a copy to its end */
  pqt_delta_bp_decoder walk = d->lens;
  size_t lens_end;
  PQT_RETURN_NOT_OK(pqt_delta_bp_finish(&walk, &lens_end, in, err));
  d->start = in;
  d->bytes = in + lens_end;
  d->bytes_len = len - lens_end;
  return PQT_OK;
}

pqt_status pqt_delta_length_span(pqt_delta_length_decoder *d, int32_t *offsets, size_t n, int32_t base,
                                 const uint8_t **bytes, pqt_error *err) {
  if (base < 0) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  if (pqt_delta_bp_remaining(&d->lens) < n)
    return pqt_corrupt(err, "DELTA_LENGTH_BYTE_ARRAY: %zu more values expected, %llu lengths left", n,
                       (unsigned long long)pqt_delta_bp_remaining(&d->lens));
  /* lengths straight into offsets[1..n], validated and prefix-summed in place */
  PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d->lens, offsets + 1, n, err));
  const size_t avail = d->bytes_len - d->bytes_pos;
  uint64_t total = 0;
  int32_t neg = 0;
  for (size_t i = 0; i < n; i++) {
    neg |= offsets[i + 1];
    total += (uint32_t)offsets[i + 1];
  }
  if (neg < 0) return pqt_corrupt(err, "DELTA_LENGTH_BYTE_ARRAY: negative length");
  if (total > avail)
    return pqt_corrupt(err, "DELTA_LENGTH_BYTE_ARRAY: lengths sum to %llu bytes, %zu left", (unsigned long long)total,
                       avail);
  if (total + (uint64_t)base > INT32_MAX)
    return pqt_corrupt(err, "BYTE_ARRAY offset overflow: more than 2 GiB of data");
  int32_t off = base;
  offsets[0] = off;
  for (size_t i = 0; i < n; i++) {
    off += offsets[i + 1];
    offsets[i + 1] = off;
  }
  *bytes = d->bytes + d->bytes_pos;
  d->bytes_pos += (size_t)total;
  return PQT_OK;
}

pqt_status pqt_delta_length_next(pqt_delta_length_decoder *d, int32_t *offsets, pqt_buf *data, size_t n,
                                 pqt_error *err) {
  if (data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  const uint8_t *src = NULL;
  PQT_RETURN_NOT_OK(pqt_delta_length_span(d, offsets, n, (int32_t)data->len, &src, err));
  return pqt_buf_append(data, src, (size_t)(offsets[n] - offsets[0]), err);
}

pqt_status pqt_delta_length_decode(const uint8_t *in, size_t len, int32_t *offsets, pqt_buf *data, size_t n,
                                   size_t *consumed, pqt_error *err) {
  pqt_delta_length_decoder d;
  PQT_RETURN_NOT_OK(pqt_delta_length_init(&d, in, len, err));
  if (pqt_delta_length_total(&d) < n)
    return pqt_corrupt(err, "DELTA_LENGTH_BYTE_ARRAY: %zu values expected, %llu lengths present", n,
                       (unsigned long long)pqt_delta_length_total(&d));
  PQT_RETURN_NOT_OK(pqt_delta_length_next(&d, offsets, data, n, err));
  if (consumed) *consumed = pqt_delta_length_consumed(&d);
  return PQT_OK;
}

pqt_status pqt_delta_length_encode(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out,
                                   pqt_error *err) {
  int32_t lens[256] = {0};
  /* lengths first (chunked into one stream via a temporary array) */
  const pqt_allocator *a = out->alloc;
  size_t bytes = (n ? n : 1) * sizeof(int32_t);
  int32_t *all = n <= 256 ? lens : pqt_mem_alloc(a, bytes);
  if (!all) return pqt_nomem(err);
  for (size_t i = 0; i < n; i++) all[i] = offsets[i + 1] - offsets[i];
  pqt_status st = pqt_delta_bp_encode_i32(all, n, out, err);
  if (all != lens) pqt_mem_free(a, all, bytes);
  PQT_RETURN_NOT_OK(st);
  if (n == 0) return PQT_OK;
  return pqt_buf_append(out, data + offsets[0], (size_t)(offsets[n] - offsets[0]), err);
}
