/*
 * encoding/plain: PLAIN encoding (Parquet Encodings.md, "Plain: (PLAIN =
 * 0)"): BOOLEAN bit-packed LSB first, INT32/INT64/INT96/FLOAT/DOUBLE little
 * endian back to back, BYTE_ARRAY as a 4-byte LE length then the bytes,
 * FIXED_LEN_BYTE_ARRAY as the bytes. Fixed-width types are one memcpy (the
 * library assumes a little-endian host for fixed-width columns).
 */
#include "encoding/plain.h"

pqt_status pqt_plain_decode_fixed(const uint8_t *in, size_t len, size_t width, void *out, size_t n, size_t *consumed,
                                  pqt_error *err) {
  size_t need;
  if (!pqt_mul_size(n, width, &need) || need > len)
    return pqt_corrupt(err, "PLAIN: %zu values of %zu bytes exceed the %zu bytes left", n, width, len);
  if (need) memcpy(out, in, need);
  if (consumed) *consumed = need;
  return PQT_OK;
}

void pqt_copy_bits(const uint8_t *src, size_t src_bit, uint8_t *dst, size_t dst_bit, size_t n) {
  if (n == 0) return;
  if (((src_bit | dst_bit) & 7) == 0) {
    memcpy(dst + dst_bit / 8, src + src_bit / 8, n / 8);
    size_t r = n & 7;
    if (r) {
      uint8_t m = (uint8_t)((1u << r) - 1);
      uint8_t *d = dst + (dst_bit + n) / 8;
      *d = (uint8_t)((*d & ~m) | (src[(src_bit + n) / 8] & m));
    }
    return;
  }
  /* General case: 8 bits at a time where possible. */
  while (n >= 8) {
    size_t sb = src_bit >> 3;
    unsigned ss = src_bit & 7;
    unsigned v = src[sb] >> ss;
    if (ss) v |= (unsigned)src[sb + 1] << (8 - ss);
    v &= 0xff;
    size_t db = dst_bit >> 3;
    unsigned ds = dst_bit & 7;
    if (ds == 0) {
      dst[db] = (uint8_t)v;
    } else {
      dst[db] = (uint8_t)((dst[db] & ((1u << ds) - 1)) | (v << ds));
      dst[db + 1] = (uint8_t)((dst[db + 1] & ~((1u << ds) - 1)) | (v >> (8 - ds)));
    }
    src_bit += 8;
    dst_bit += 8;
    n -= 8;
  }
  while (n--) {
    unsigned b = ((unsigned)src[src_bit >> 3] >> (src_bit & 7)) & 1u;
    uint8_t *d = &dst[dst_bit >> 3];
    *d = (uint8_t)((*d & ~(1u << (dst_bit & 7))) | (b << (dst_bit & 7)));
    src_bit++;
    dst_bit++;
  }
}

static pqt_status bool_span(size_t len, size_t in_bit, size_t n, size_t *consumed, pqt_error *err) {
  size_t end_bit;
  if (!pqt_add_size(in_bit, n, &end_bit) || end_bit / 8 + ((end_bit & 7) != 0) > len)
    return pqt_corrupt(err, "PLAIN BOOLEAN: %zu values past bit %zu exceed the %zu bytes", n, in_bit, len);
  if (consumed) *consumed = end_bit / 8 + ((end_bit & 7) != 0);
  return PQT_OK;
}

pqt_status pqt_plain_decode_bool_bitmap(const uint8_t *in, size_t len, size_t in_bit, uint8_t *out, size_t out_bit,
                                        size_t n, size_t *consumed, pqt_error *err) {
  PQT_RETURN_NOT_OK(bool_span(len, in_bit, n, consumed, err));
  pqt_copy_bits(in, in_bit, out, out_bit, n);
  return PQT_OK;
}

pqt_status pqt_plain_decode_bool_bytes(const uint8_t *in, size_t len, size_t in_bit, uint8_t *out, size_t n,
                                       size_t *consumed, pqt_error *err) {
  PQT_RETURN_NOT_OK(bool_span(len, in_bit, n, consumed, err));
  size_t i = 0;
  while (i < n && ((in_bit + i) & 7)) {
    size_t b = in_bit + i;
    out[i++] = (in[b >> 3] >> (b & 7)) & 1;
  }
  for (; i + 8 <= n; i += 8) {
    uint8_t byte = in[(in_bit + i) >> 3];
    for (unsigned k = 0; k < 8; k++) out[i + k] = (byte >> k) & 1;
  }
  for (; i < n; i++) {
    size_t b = in_bit + i;
    out[i] = (in[b >> 3] >> (b & 7)) & 1;
  }
  return PQT_OK;
}

/* The length prefix of PLAIN BYTE_ARRAY value i at *pos, checked against the
 * len bytes of the page; *pos moves past the prefix. */
static inline pqt_status byte_array_length(const uint8_t *in, size_t len, size_t *pos, size_t i, uint32_t *l,
                                           pqt_error *err) {
  if (len - *pos < 4) return pqt_corrupt(err, "PLAIN BYTE_ARRAY: value %zu: truncated length", i);
  *l = pqt_load_u32le(in + *pos);
  *pos += 4;
  if (*l > len - *pos)
    return pqt_corrupt(err, "PLAIN BYTE_ARRAY: value %zu: length %u exceeds the %zu bytes left", i, *l, len - *pos);
  return PQT_OK;
}

pqt_status pqt_plain_scan_byte_array(const uint8_t *in, size_t len, uint32_t *starts, int32_t *lens, size_t n,
                                     size_t *consumed, pqt_error *err) {
  size_t pos = 0;
  if (len > UINT32_MAX) return pqt_corrupt(err, "PLAIN BYTE_ARRAY: page larger than 4 GiB");
  for (size_t i = 0; i < n; i++) {
    uint32_t l = 0; /* set by byte_array_length on success; gcc -O2 cannot see it */
    PQT_RETURN_NOT_OK(byte_array_length(in, len, &pos, i, &l, err));
    starts[i] = (uint32_t)pos;
    lens[i] = (int32_t)l;
    pos += l;
  }
  if (consumed) *consumed = pos;
  return PQT_OK;
}

/* Check the n lengths of a PLAIN BYTE_ARRAY run and write offsets[0..n]
 * (from data_len); *pos = the bytes the run takes. */
static pqt_status byte_array_offsets(const uint8_t *in, size_t len, int32_t *offsets, size_t data_len, size_t n,
                                     size_t *pos_out, pqt_error *err) {
  size_t pos = 0;
  int64_t off = (int64_t)data_len;
  offsets[0] = (int32_t)off;
  for (size_t i = 0; i < n; i++) {
    uint32_t l = 0;
    PQT_RETURN_NOT_OK(byte_array_length(in, len, &pos, i, &l, err));
    pos += l;
    off += l;
    if (off > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow: more than 2 GiB of data");
    offsets[i + 1] = (int32_t)off;
  }
  *pos_out = pos;
  return PQT_OK;
}

pqt_status pqt_plain_decode_byte_array(const uint8_t *in, size_t len, int32_t *offsets, pqt_buf *data, size_t n,
                                       size_t *consumed, pqt_error *err) {
  if (data->len > INT32_MAX) return pqt_corrupt(err, "BYTE_ARRAY offset overflow");
  size_t pos = 0;
  if (n > len / 4 || len - 4 * n > (size_t)INT32_MAX - data->len) {
    /* Cannot hold n values, or might pass 2 GiB: check every length first,
     * then copy (pass 1 reports the error, before anything is written). */
    PQT_RETURN_NOT_OK(byte_array_offsets(in, len, offsets, data->len, n, &pos, err));
    size_t total = (size_t)offsets[n] - data->len;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(data, total + 1, err));
    uint8_t *o = data->data + data->len;
    pos = 0;
    for (size_t i = 0; i < n; i++) {
      size_t l = (size_t)(offsets[i + 1] - offsets[i]);
      memcpy(o, in + pos + 4, l);
      o += l;
      pos += 4 + l;
    }
    data->len += total;
    if (consumed) *consumed = pos;
    return PQT_OK;
  }
  /* One pass: check each length, record the offset and copy the bytes.
   * The values take at most bound = len - 4n bytes (no offset can pass
   * INT32_MAX); room is kept with 48 bytes of slack so that values are
   * copied in fixed 16-byte pieces (bytes past a value are overwritten by
   * the next one or lie beyond data->len). Value i's bytes must leave room
   * for the lengths of the n - 1 - i values after it (p + l <= lim); a page
   * failing it is corrupt (pass 1 then finds and reports the error). A few
   * values asked from a much longer span (a batch from a big page) start
   * with room for 64 bytes each and grow when they need more, instead of
   * reserving the rest of the page for every batch. */
  const size_t bound = len - 4 * n;
  size_t room = bound > ((size_t)1 << 20) && bound / 64 > n ? 64 * n + 4096 : bound;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(data, room + 48, err));
  uint8_t *base = data->data + data->len;
  uint8_t *o = base;
  const uint8_t *p = in, *const end = in + len;
  const uint8_t *lim = end - 4 * n; /* + 4 per value: where value i's bytes must end by */
  int32_t off = (int32_t)data->len;
  offsets[0] = off;
  for (size_t i = 0; i < n; i++) {
    uint32_t l = pqt_load_u32le(p);
    p += 4;
    lim += 4;
    if (PQT_UNLIKELY(l > (size_t)(lim - p))) {
      pqt_status st = byte_array_offsets(in, len, offsets, data->len, n, &pos, err);
      return st != PQT_OK ? st : pqt_corrupt(err, "PLAIN BYTE_ARRAY: value %zu: length %u too long", i, l);
    }
    off += (int32_t)l;
    offsets[i + 1] = off;
    if (PQT_UNLIKELY((size_t)(o - base) + l > room)) {
      size_t used = (size_t)(o - base);
      room = room * 2 > used + l ? room * 2 : used + l;
      if (room > bound) room = bound; /* enough: l <= lim - p keeps every value inside bound */
      PQT_RETURN_NOT_OK(pqt_buf_reserve(data, room + 48, err));
      base = data->data + data->len;
      o = base + used;
    }
    size_t avail = (size_t)(end - p);
    if (PQT_LIKELY(l <= 48 && avail >= 48)) {
      memcpy(o, p, 16);
      memcpy(o + 16, p + 16, 16);
      memcpy(o + 32, p + 32, 16);
    } else if (l + 16 <= avail) {
      for (size_t k = 0; k < l; k += 16) memcpy(o + k, p + k, 16);
    } else {
      memcpy(o, p, l);
    }
    o += l;
    p += l;
  }
  data->len += (size_t)(o - base);
  if (consumed) *consumed = (size_t)(p - in);
  return PQT_OK;
}

pqt_status pqt_plain_encode_fixed(const void *values, size_t width, size_t n, pqt_buf *out, pqt_error *err) {
  size_t bytes;
  if (!pqt_mul_size(width, n, &bytes)) return pqt_error_set(err, PQT_EINVAL, "size overflow");
  return pqt_buf_append(out, values, bytes, err);
}

pqt_status pqt_plain_encode_bool_bitmap(const uint8_t *bitmap, size_t in_bit, size_t n, pqt_buf *out, pqt_error *err) {
  size_t nb = n / 8 + ((n & 7) != 0);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, nb, err));
  uint8_t *o = out->data + out->len;
  memset(o, 0, nb);
  pqt_copy_bits(bitmap, in_bit, o, 0, n);
  out->len += nb;
  return PQT_OK;
}

pqt_status pqt_plain_encode_bool_bytes(const uint8_t *values, size_t n, pqt_buf *out, pqt_error *err) {
  size_t nb = n / 8 + ((n & 7) != 0);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, nb, err));
  uint8_t *o = out->data + out->len;
  memset(o, 0, nb);
  for (size_t i = 0; i < n; i++) o[i >> 3] |= (uint8_t)((values[i] != 0) << (i & 7));
  out->len += nb;
  return PQT_OK;
}

pqt_status pqt_plain_encode_byte_array(const int32_t *offsets, const uint8_t *data, size_t n, pqt_buf *out,
                                       pqt_error *err) {
  if (n == 0) return PQT_OK;
  if (offsets[n] < offsets[0]) return pqt_error_set(err, PQT_EINVAL, "offsets not monotone");
  size_t total = (size_t)(offsets[n] - offsets[0]) + 4 * n;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, total, err));
  uint8_t *o = out->data + out->len;
  for (size_t i = 0; i < n; i++) {
    int32_t l = offsets[i + 1] - offsets[i];
    if (l < 0) return pqt_error_set(err, PQT_EINVAL, "offsets not monotone");
    pqt_store_u32le(o, (uint32_t)l);
    memcpy(o + 4, data + offsets[i], (size_t)l);
    o += 4 + (size_t)l;
  }
  out->len += total;
  return PQT_OK;
}
