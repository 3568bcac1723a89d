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

pqt_status pqt_delta_byte_array_init(pqt_delta_byte_array_decoder *d, const uint8_t *in, size_t len, size_t fixed_width,
                                     pqt_error *err) {
  memset(d, 0, sizeof *d);
  pqt_delta_bp_decoder tmp;
  size_t prefix_end, suffix_end;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&d->prefixes, in, len, true, err));
  tmp = d->prefixes;
  PQT_RETURN_NOT_OK(pqt_delta_bp_finish(&tmp, &prefix_end, in, err));
  const uint8_t *sin = in + prefix_end;
  const size_t slen = len - prefix_end;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&d->suffixes, sin, slen, true, err));
  tmp = d->suffixes;
  PQT_RETURN_NOT_OK(pqt_delta_bp_finish(&tmp, &suffix_end, sin, err));
  d->start = in;
  d->suf = sin + suffix_end;
  d->suf_left = slen - suffix_end;
  d->fixed_width = fixed_width;
  return PQT_OK;
}

uint64_t pqt_delta_byte_array_total(const pqt_delta_byte_array_decoder *d) {
  uint64_t a = pqt_delta_bp_total(&d->prefixes), b = pqt_delta_bp_total(&d->suffixes);
  return a < b ? a : b;
}

pqt_status pqt_delta_byte_array_next(pqt_delta_byte_array_decoder *d, pqt_delta_byte_array_state *s, int32_t *offsets,
                                     pqt_buf *data, size_t n, pqt_error *err) {
  const size_t fixed_width = d->fixed_width;
  if (!fixed_width && !offsets)
    return pqt_error_set(err, PQT_EINVAL, "DELTA_BYTE_ARRAY: offsets required for BYTE_ARRAY");
  if (offsets && data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  if (pqt_delta_bp_remaining(&d->prefixes) < n || pqt_delta_bp_remaining(&d->suffixes) < n)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu more values expected, %llu prefix and %llu suffix lengths left", n,
                       (unsigned long long)pqt_delta_bp_remaining(&d->prefixes),
                       (unsigned long long)pqt_delta_bp_remaining(&d->suffixes));
  /* previous value: (buffer, offset, length); starts as the state's copy */
  const uint8_t *prev_base = s->last.data;
  size_t prev_off = 0, prev_len = s->last.len;
  bool prev_in_state = true;
  if (offsets) offsets[0] = (int32_t)data->len;
  size_t done = 0;
  while (done < n) {
    int32_t pl[PQT_DBA_CHUNK], sl[PQT_DBA_CHUNK];
    size_t k = n - done < PQT_DBA_CHUNK ? n - done : PQT_DBA_CHUNK;
    PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d->prefixes, pl, k, err));
    PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d->suffixes, sl, k, err));
    /* pass 1: validate */
    uint64_t chunk = 0, sufsum = 0;
    size_t plen = prev_len;
    for (size_t i = 0; i < k; i++) {
      if (pl[i] < 0 || sl[i] < 0) return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu: negative length", done + i);
      if ((size_t)pl[i] > plen)
        return pqt_corrupt(err,
                           "DELTA_BYTE_ARRAY: value %zu: prefix length %d exceeds the previous "
                           "value's length %zu",
                           done + i, pl[i], plen);
      plen = (size_t)pl[i] + (size_t)sl[i];
      if (fixed_width && plen != fixed_width)
        return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu has length %zu, expected %zu", done + i, plen,
                           fixed_width);
      chunk += plen;
      sufsum += (uint32_t)sl[i];
    }
    if (sufsum > d->suf_left)
      return pqt_corrupt(err, "DELTA_BYTE_ARRAY: suffixes need %llu bytes, %zu left", (unsigned long long)sufsum,
                         d->suf_left);
    if (offsets && chunk + data->len > INT32_MAX)
      return pqt_corrupt(err, "BYTE_ARRAY offset overflow: more than 2 GiB of data");
    if (chunk > SIZE_MAX / 2) return pqt_nomem(err);
    /* at least 1 byte so data->data is never NULL below */
    PQT_RETURN_NOT_OK(pqt_buf_reserve(data, chunk ? (size_t)chunk : 1, err));
    /* pass 2: copy */
    const uint8_t *suf = d->suf;
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
    d->suf = suf;
    d->suf_left -= (size_t)sufsum;
    done += k;
  }
  if (n > 0) {
    pqt_buf_clear(&s->last);
    if (prev_len) PQT_RETURN_NOT_OK(pqt_buf_append(&s->last, data->data + prev_off, prev_len, err));
  }
  return PQT_OK;
}

pqt_status pqt_delta_byte_array_lengths(pqt_delta_byte_array_decoder *d, int32_t *pl, int32_t *sl, size_t k,
                                        size_t *prev_len, const uint8_t **suffixes, pqt_error *err) {
  if (pqt_delta_bp_remaining(&d->prefixes) < k || pqt_delta_bp_remaining(&d->suffixes) < k)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu more values expected, %llu prefix and %llu suffix lengths left", k,
                       (unsigned long long)pqt_delta_bp_remaining(&d->prefixes),
                       (unsigned long long)pqt_delta_bp_remaining(&d->suffixes));
  PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d->prefixes, pl, k, err));
  PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d->suffixes, sl, k, err));
  uint64_t sufsum = 0;
  size_t plen = *prev_len;
  for (size_t i = 0; i < k; i++) {
    if (pl[i] < 0 || sl[i] < 0) return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu: negative length", i);
    if ((size_t)pl[i] > plen)
      return pqt_corrupt(err,
                         "DELTA_BYTE_ARRAY: value %zu: prefix length %d exceeds the previous "
                         "value's length %zu",
                         i, pl[i], plen);
    plen = (size_t)pl[i] + (size_t)sl[i];
    if (plen > INT32_MAX) return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu of %zu bytes", i, plen);
    if (d->fixed_width && plen != d->fixed_width)
      return pqt_corrupt(err, "DELTA_BYTE_ARRAY: value %zu has length %zu, expected %zu", i, plen, d->fixed_width);
    sufsum += (uint32_t)sl[i];
  }
  if (sufsum > d->suf_left)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: suffixes need %llu bytes, %zu left", (unsigned long long)sufsum,
                       d->suf_left);
  *suffixes = d->suf;
  d->suf += sufsum;
  d->suf_left -= (size_t)sufsum;
  *prev_len = plen;
  return PQT_OK;
}

pqt_status pqt_delta_byte_array_decode(pqt_delta_byte_array_state *s, const uint8_t *in, size_t len, size_t fixed_width,
                                       int32_t *offsets, pqt_buf *data, size_t n, size_t *consumed, pqt_error *err) {
  if (!fixed_width && !offsets)
    return pqt_error_set(err, PQT_EINVAL, "DELTA_BYTE_ARRAY: offsets required for BYTE_ARRAY");
  pqt_delta_byte_array_decoder d;
  PQT_RETURN_NOT_OK(pqt_delta_byte_array_init(&d, in, len, fixed_width, err));
  if (pqt_delta_bp_total(&d.prefixes) < n)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu values expected, %llu prefix lengths", n,
                       (unsigned long long)pqt_delta_bp_total(&d.prefixes));
  if (pqt_delta_bp_total(&d.suffixes) < n)
    return pqt_corrupt(err, "DELTA_BYTE_ARRAY: %zu values expected, %llu suffix lengths", n,
                       (unsigned long long)pqt_delta_bp_total(&d.suffixes));
  PQT_RETURN_NOT_OK(pqt_delta_byte_array_next(&d, s, offsets, data, n, err));
  if (consumed) *consumed = pqt_delta_byte_array_consumed(&d);
  return PQT_OK;
}

static pqt_status dba_encode(const int32_t *offsets, const uint8_t *data, size_t width, size_t n, pqt_buf *out,
                             pqt_error *err) {
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

pqt_status pqt_delta_byte_array_encode(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out,
                                       pqt_error *err) {
  return dba_encode(offsets, data, 0, n, out, err);
}

pqt_status pqt_delta_byte_array_encode_fixed(const uint8_t *values, size_t width, size_t n, pqt_buf *out,
                                             pqt_error *err) {
  if (width == 0) return pqt_error_set(err, PQT_EINVAL, "DELTA_BYTE_ARRAY: width 0");
  return dba_encode(NULL, values, width, n, out, err);
}
