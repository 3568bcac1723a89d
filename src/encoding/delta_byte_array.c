/*
 * encoding/delta_byte_array: DELTA_BYTE_ARRAY (Parquet Encodings.md,
 * "Delta Strings: (DELTA_BYTE_ARRAY = 7)").
 *
 * Decoding walks the two length streams in chunks of 256 with stack
 * buffers (no allocation proportional to the claimed count): per chunk,
 * pass 1 validates the lengths and sums the output size, the output buffer
 * grows once, pass 2 copies prefix (from the previous value) + suffix.
 */
#include "encoding/delta_byte_array.h"

#include "encoding/delta_binary_packed.h"

#define PQT_DBA_CHUNK 256

void pqt_delta_byte_array_state_init(pqt_delta_byte_array_state *s, const pqt_allocator *alloc) {
  pqt_buf_init(&s->last, alloc);
}

void pqt_delta_byte_array_state_free(pqt_delta_byte_array_state *s) { pqt_buf_free(&s->last); }

pqt_status pqt_delta_byte_array_decode(pqt_delta_byte_array_state *s, const uint8_t *in,
                                       size_t len, size_t fixed_width, int32_t *offsets,
                                       pqt_buf *data, size_t n, size_t *consumed,
                                       pqt_error *err) {
  if (!fixed_width && !offsets)
    return pqt_error_set(err, PQT_EINVAL, "DELTA_BYTE_ARRAY: offsets required for BYTE_ARRAY");
  if (offsets && data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  pqt_delta_bp_decoder pd, sd, tmp;
  size_t prefix_end, suffix_end;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&pd, in, len, true, err));
  if (pqt_delta_bp_total(&pd) < n)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu values expected, %llu prefix lengths", n,
                       (unsigned long long)pqt_delta_bp_total(&pd));
  tmp = pd;
  PQT_RETURN_NOT_OK(pqt_delta_bp_finish(&tmp, &prefix_end, in, err));
  const uint8_t *sin = in + prefix_end;
  const size_t slen = len - prefix_end;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&sd, sin, slen, true, err));
  if (pqt_delta_bp_total(&sd) < n)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu values expected, %llu suffix lengths", n,
                       (unsigned long long)pqt_delta_bp_total(&sd));
  tmp = sd;
  PQT_RETURN_NOT_OK(pqt_delta_bp_finish(&tmp, &suffix_end, sin, err));
  const uint8_t *suf = sin + suffix_end;
  size_t suf_left = slen - suffix_end;

  /* previous value: (buffer, offset, length); starts as the state's copy */
  const uint8_t *prev_base = s->last.data;
  size_t prev_off = 0, prev_len = s->last.len;
  bool prev_in_state = true;
  const size_t start_len = data->len;
  if (offsets) offsets[0] = (int32_t)data->len;

  size_t done = 0;
  while (done < n) {
    int32_t pl[PQT_DBA_CHUNK], sl[PQT_DBA_CHUNK];
    size_t k = n - done < PQT_DBA_CHUNK ? n - done : PQT_DBA_CHUNK;
    PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&pd, pl, k, err));
    PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&sd, sl, k, err));
    /* pass 1: validate */
    uint64_t chunk = 0, sufsum = 0;
    size_t plen = prev_len;
    for (size_t i = 0; i < k; i++) {
      if (pl[i] < 0 || sl[i] < 0)
        return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu: negative length", done + i);
      if ((size_t)pl[i] > plen)
        return pqt_corrupt(err,
                           "DELTA_BYTE_ARRAY: value %zu: prefix length %d exceeds the previous "
                           "value's length %zu",
                           done + i, pl[i], plen);
      plen = (size_t)pl[i] + (size_t)sl[i];
      if (fixed_width && plen != fixed_width)
        return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu has length %zu, expected %zu",
                           done + i, plen, fixed_width);
      chunk += plen;
      sufsum += (uint32_t)sl[i];
    }
    if (sufsum > suf_left)
      return pqt_corrupt(err, "DELTA_BYTE_ARRAY: suffixes need %llu bytes, %zu left",
                         (unsigned long long)sufsum, suf_left);
    if (offsets && chunk + data->len > INT32_MAX)
      return pqt_corrupt(err, "BYTE_ARRAY offset overflow: more than 2 GiB of data");
    if (chunk > SIZE_MAX / 2) return pqt_nomem(err);
    /* at least 1 byte so data->data is never NULL below */
    PQT_RETURN_NOT_OK(pqt_buf_reserve(data, chunk ? (size_t)chunk : 1, err));
    /* pass 2: copy */
    for (size_t i = 0; i < k; i++) {
      size_t p = (size_t)pl[i], q = (size_t)sl[i];
      uint8_t *o = data->data + data->len;
      if (p) /* p <= prev_len, so the previous value's buffer exists */
        memcpy(o, prev_in_state ? prev_base + prev_off : data->data + prev_off, p);
      if (q) memcpy(o + p, suf, q);
      suf += q;
      prev_off = data->len;
      prev_len = p + q;
      prev_in_state = false;
      data->len += p + q;
      if (offsets) offsets[done + i + 1] = (int32_t)data->len;
    }
    suf_left -= (size_t)sufsum;
    done += k;
  }
  if (n > 0) {
    pqt_buf_clear(&s->last);
    if (prev_len)
      PQT_RETURN_NOT_OK(pqt_buf_append(&s->last, data->data + prev_off, prev_len, err));
  }
  (void)start_len;
  if (consumed) *consumed = (size_t)(suf - in);
  return PQT_OK;
}

static pqt_status dba_encode(const int32_t *offsets, const uint8_t *data, size_t width, size_t n,
                             pqt_buf *out, pqt_error *err) {
  const pqt_allocator *a = out->alloc;
  size_t bytes;
  if (!pqt_mul_size(n ? n : 1, 2 * sizeof(int32_t), &bytes)) return pqt_nomem(err);
  int32_t *pl = pqt_mem_alloc(a, bytes);
  if (!pl) return pqt_nomem(err);
  int32_t *sl = pl + (n ? n : 1);
  const uint8_t *prev = NULL;
  size_t prev_len = 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *v = width ? data + i * width : data + offsets[i];
    size_t l = width ? width : (size_t)(offsets[i + 1] - offsets[i]);
    size_t m = l < prev_len ? l : prev_len, p = 0;
    while (p < m && v[p] == prev[p]) p++;
    pl[i] = (int32_t)p;
    sl[i] = (int32_t)(l - p);
    prev = v;
    prev_len = l;
  }
  pqt_status st = pqt_delta_bp_encode_i32(pl, n, out, err);
  if (st == PQT_OK) st = pqt_delta_bp_encode_i32(sl, n, out, err);
  for (size_t i = 0; st == PQT_OK && i < n; i++) {
    const uint8_t *v = width ? data + i * width : data + offsets[i];
    st = pqt_buf_append(out, v + pl[i], (size_t)sl[i], err);
  }
  pqt_mem_free(a, pl, bytes);
  return st;
}

pqt_status pqt_delta_byte_array_encode(const int32_t *offsets, const uint8_t *data, size_t n,
                                       pqt_buf *out, pqt_error *err) {
  return dba_encode(offsets, data, 0, n, out, err);
}

pqt_status pqt_delta_byte_array_encode_fixed(const uint8_t *values, size_t width, size_t n,
                                             pqt_buf *out, pqt_error *err) {
  if (width == 0) return pqt_error_set(err, PQT_EINVAL, "DELTA_BYTE_ARRAY: width 0");
  return dba_encode(NULL, values, width, n, out, err);
}
