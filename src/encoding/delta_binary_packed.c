/*
 * encoding/delta_binary_packed: DELTA_BINARY_PACKED (Parquet Encodings.md,
 * "Delta Encoding (DELTA_BINARY_PACKED = 5)").
 *
 * Header: <block size> <miniblocks per block> <total count> <zigzag first>;
 * blocks: <zigzag min delta> <one width byte per miniblock> <miniblocks>.
 * Decoding unpacks 32 deltas at a time (a group: 4*width bytes, byte
 * aligned) straight into the output when a whole group fits, then runs the
 * prefix sum in place; otherwise the group goes through d->buf. All
 * additions wrap (unsigned), as the spec demands for overflowing deltas.
 */
#include "encoding/delta_binary_packed.h"

#include "encoding/bitpack.h"
#include "encoding/enc_util.h"

pqt_status pqt_delta_bp_init(pqt_delta_bp_decoder *d, const uint8_t *in, size_t len, bool is_int32, pqt_error *err) {
  memset(d, 0, sizeof *d);
  d->p = in;
  d->end = in + len;
  d->is32 = is_int32;
  uint64_t block_size, mb_count, total, first;
  if (!pqt_enc_read_uleb(&d->p, d->end, &block_size) || !pqt_enc_read_uleb(&d->p, d->end, &mb_count) ||
      !pqt_enc_read_uleb(&d->p, d->end, &total) || !pqt_enc_read_uleb(&d->p, d->end, &first))
    return pqt_corrupt(err, "DELTA_BINARY_PACKED: truncated header");
  if (block_size == 0 || block_size % 128 != 0 || block_size > ((uint64_t)1 << 31))
    return pqt_corrupt(err, "DELTA_BINARY_PACKED: invalid block size %llu", (unsigned long long)block_size);
  if (mb_count == 0 || block_size % mb_count != 0 || (block_size / mb_count) % 32 != 0)
    return pqt_corrupt(err, "DELTA_BINARY_PACKED: invalid miniblock count %llu for block size %llu",
                       (unsigned long long)mb_count, (unsigned long long)block_size);
  d->mb_count = mb_count;
  d->mb_size = block_size / mb_count;
  d->total = total;
  d->remaining = total;
  d->pending_deltas = total ? total - 1 : 0;
  d->first_pending = total > 0;
  d->last = (uint64_t)pqt_zigzag_decode64(first);
  if (is_int32) d->last = (uint32_t)d->last;
  return PQT_OK;
}

/* Precondition: pending_deltas > 0 and mb_left == 0. */
static pqt_status start_miniblock(pqt_delta_bp_decoder *d, pqt_error *err) {
  if (!d->in_block || d->mb_index + 1 >= d->mb_count) {
    uint64_t md;
    if (!pqt_enc_read_uleb(&d->p, d->end, &md))
      return pqt_corrupt(err, "DELTA_BINARY_PACKED: truncated block header (min delta)");
    if ((uint64_t)(d->end - d->p) < d->mb_count)
      return pqt_corrupt(err, "DELTA_BINARY_PACKED: truncated block header (bit widths)");
    d->min_delta = (uint64_t)pqt_zigzag_decode64(md);
    if (d->is32) d->min_delta = (uint32_t)d->min_delta;
    d->widths = d->p;
    d->p += d->mb_count;
    d->mb_index = 0;
    d->in_block = true;
  } else {
    d->mb_index++;
  }
  unsigned w = d->widths[d->mb_index];
  /* INT32 deltas fit 32 bits in wrap-around arithmetic, but some writers
   * (DuckDB 1.x) compute them in 64 bits and store widths up to 33: such
   * deltas are unpacked in 64 bits and truncated, which gives the same
   * values modulo 2^32. */
  if (w > 64u) return pqt_corrupt(err, "DELTA_BINARY_PACKED: miniblock bit width %u exceeds 64", w);
  d->width = w;
  d->mb_left = d->mb_size;
  return PQT_OK;
}

/* Advance p past one group of 32 slots of the current miniblock. */
static inline void step_group(pqt_delta_bp_decoder *d) {
  size_t g = 4 * (size_t)d->width;
  size_t avail = (size_t)(d->end - d->p);
  d->p += g < avail ? g : avail;
  d->mb_left -= 32;
}

#define PQT_DELTA_GET(NAME, T, UT, UNPACK)                                                                      \
  pqt_status NAME(pqt_delta_bp_decoder *d, T *out_s, size_t n, pqt_error *err) {                                \
    UT *out = (UT *)out_s;                                                                                      \
    if (n > d->remaining)                                                                                       \
      return pqt_corrupt(err, "DELTA_BINARY_PACKED: %zu values requested, %llu left", n,                        \
                         (unsigned long long)d->remaining);                                                     \
    size_t i = 0;                                                                                               \
    UT last = (UT)d->last;                                                                                      \
    if (n && d->first_pending) {                                                                                \
      out[0] = last;                                                                                            \
      d->first_pending = false;                                                                                 \
      i = 1;                                                                                                    \
    }                                                                                                           \
    while (i < n) {                                                                                             \
      const UT md = (UT)d->min_delta;                                                                           \
      if (d->buf_pos < d->buf_len) {                                                                            \
        size_t k = d->buf_len - d->buf_pos;                                                                     \
        if (k > n - i) k = n - i;                                                                               \
        const uint64_t *b = d->buf + d->buf_pos;                                                                \
        for (size_t j = 0; j < k; j++) {                                                                        \
          last += md + (UT)b[j];                                                                                \
          out[i + j] = last;                                                                                    \
        }                                                                                                       \
        d->buf_pos += (unsigned)k;                                                                              \
        i += k;                                                                                                 \
        continue;                                                                                               \
      }                                                                                                         \
      if (d->mb_left == 0) {                                                                                    \
        d->last = last;                                                                                         \
        PQT_RETURN_NOT_OK(start_miniblock(d, err));                                                             \
        continue;                                                                                               \
      }                                                                                                         \
      size_t k = d->pending_deltas < 32 ? (size_t)d->pending_deltas : 32;                                       \
      const unsigned w = d->width;                                                                              \
      size_t avail = (size_t)(d->end - d->p);                                                                   \
      if (pqt_bitpack_bytes(k, w) > avail) return pqt_corrupt(err, "DELTA_BINARY_PACKED: truncated miniblock"); \
      if (k == 32 && n - i >= 32 && w <= 8 * sizeof(UT)) {                                                      \
        UT *o = out + i;                                                                                        \
        UNPACK(d->p, avail, o, 32, w);                                                                          \
        for (size_t j = 0; j < 32; j++) {                                                                       \
          last += md + o[j];                                                                                    \
          o[j] = last;                                                                                          \
        }                                                                                                       \
        i += 32;                                                                                                \
      } else {                                                                                                  \
        pqt_bitunpack64(d->p, avail, d->buf, k, w);                                                             \
        d->buf_pos = 0;                                                                                         \
        d->buf_len = (unsigned)k;                                                                               \
      }                                                                                                         \
      d->pending_deltas -= k;                                                                                   \
      step_group(d);                                                                                            \
    }                                                                                                           \
    d->last = last;                                                                                             \
    d->remaining -= n;                                                                                          \
    return PQT_OK;                                                                                              \
  }

/* For INT32 the width is <= 32, so the 32-bit kernel applies. */
#define PQT_UNPACK_U32(in, len, o, n, w) pqt_bitunpack32((in), (len), (o), (n), (w))
#define PQT_UNPACK_U64(in, len, o, n, w) pqt_bitunpack64((in), (len), (o), (n), (w))

static PQT_DELTA_GET(delta_get_u32, int32_t, uint32_t, PQT_UNPACK_U32) static PQT_DELTA_GET(delta_get_u64, int64_t,
                                                                                            uint64_t, PQT_UNPACK_U64)

    pqt_status pqt_delta_bp_get_i32(pqt_delta_bp_decoder *d, int32_t *out, size_t n, pqt_error *err) {
  if (!d->is32) return pqt_error_set(err, PQT_EINVAL, "DELTA_BINARY_PACKED: decoder is INT64");
  return delta_get_u32(d, out, n, err);
}

pqt_status pqt_delta_bp_get_i64(pqt_delta_bp_decoder *d, int64_t *out, size_t n, pqt_error *err) {
  if (d->is32) {
    /* INT32 stream widened to int64 (e.g. for lengths): decode in chunks. */
    int32_t tmp[256];
    while (n > 0) {
      size_t k = n < 256 ? n : 256;
      PQT_RETURN_NOT_OK(delta_get_u32(d, tmp, k, err));
      for (size_t i = 0; i < k; i++) out[i] = tmp[i];  // NOLINT(clang-analyzer-core.uninitialized.Assign): an OK delta_get_u32 wrote k values
      out += k;
      n -= k;
    }
    return PQT_OK;
  }
  return delta_get_u64(d, out, n, err);
}

pqt_status pqt_delta_bp_finish(pqt_delta_bp_decoder *d, size_t *consumed, const uint8_t *start, pqt_error *err) {
  /* Buffered deltas are already past; walk the rest by widths only. */
  d->buf_pos = d->buf_len = 0;
  for (;;) {
    if (d->mb_left) {
      uint64_t k = d->pending_deltas < d->mb_left ? d->pending_deltas : d->mb_left;
      d->pending_deltas -= k;
      /* the whole rest of this miniblock, padding included */
      uint64_t bytes = d->mb_left / 8 * d->width;
      size_t avail = (size_t)(d->end - d->p);
      d->p += bytes < avail ? (size_t)bytes : avail;
      d->mb_left = 0;
    }
    if (d->pending_deltas == 0) break;
    PQT_RETURN_NOT_OK(start_miniblock(d, err));
  }
  d->remaining = 0;
  d->first_pending = false;
  if (consumed) *consumed = (size_t)(d->p - start);
  return PQT_OK;
}

pqt_status pqt_delta_bp_decode_i32(const uint8_t *in, size_t len, int32_t *out, size_t n, size_t *consumed,
                                   pqt_error *err) {
  pqt_delta_bp_decoder d;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&d, in, len, true, err));
  PQT_RETURN_NOT_OK(pqt_delta_bp_get_i32(&d, out, n, err));
  return consumed ? pqt_delta_bp_finish(&d, consumed, in, err) : PQT_OK;
}

pqt_status pqt_delta_bp_decode_i64(const uint8_t *in, size_t len, int64_t *out, size_t n, size_t *consumed,
                                   pqt_error *err) {
  pqt_delta_bp_decoder d;
  PQT_RETURN_NOT_OK(pqt_delta_bp_init(&d, in, len, false, err));
  PQT_RETURN_NOT_OK(pqt_delta_bp_get_i64(&d, out, n, err));
  return consumed ? pqt_delta_bp_finish(&d, consumed, in, err) : PQT_OK;
}

/* ---- encoder ------------------------------------------------------- */

#define PQT_DBP_BLOCK   128
#define PQT_DBP_MB      4
#define PQT_DBP_MB_SIZE 32

static unsigned bits_u64(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 0u; }

/* Values are given as uint64 of either 32-bit (is32) or 64-bit domain. */
static pqt_status delta_encode(const void *values, size_t n, bool is32, pqt_buf *out, pqt_error *err) {
  const int32_t *v32 = values;
  const int64_t *v64 = values;
#define PQT_VAL(i) (is32 ? (uint64_t)(uint32_t)v32[(i)] : (uint64_t)v64[(i)])
  uint8_t hdr[40];
  size_t h = 0;
  h += pqt_enc_put_uleb(hdr + h, PQT_DBP_BLOCK);
  h += pqt_enc_put_uleb(hdr + h, PQT_DBP_MB);
  h += pqt_enc_put_uleb(hdr + h, n);
  int64_t first = n ? (is32 ? (int64_t)v32[0] : v64[0]) : 0;
  h += pqt_enc_put_uleb(hdr + h, pqt_zigzag_encode64(first));
  PQT_RETURN_NOT_OK(pqt_buf_append(out, hdr, h, err));
  size_t i = 1;
  while (i < n) {
    int64_t deltas[PQT_DBP_BLOCK];
    uint64_t rel[PQT_DBP_BLOCK];
    size_t k = n - i < PQT_DBP_BLOCK ? n - i : PQT_DBP_BLOCK;
    int64_t mn = INT64_MAX;
    for (size_t j = 0; j < k; j++) {
      uint64_t dd = PQT_VAL(i + j) - PQT_VAL(i + j - 1);
      int64_t dv = is32 ? (int64_t)(int32_t)(uint32_t)dd : (int64_t)dd;
      deltas[j] = dv;
      if (dv < mn) mn = dv;
    }
    for (size_t j = 0; j < k; j++) rel[j] = (uint64_t)deltas[j] - (uint64_t)mn;
    for (size_t j = k; j < PQT_DBP_BLOCK; j++) rel[j] = 0;
    uint8_t bh[10 + PQT_DBP_MB];
    size_t bl = pqt_enc_put_uleb(bh, pqt_zigzag_encode64(mn));
    unsigned widths[PQT_DBP_MB];
    size_t used = (k + PQT_DBP_MB_SIZE - 1) / PQT_DBP_MB_SIZE;
    size_t body = 0;
    for (size_t m = 0; m < PQT_DBP_MB; m++) {
      unsigned w = 0;
      if (m < used) {
        uint64_t orv = 0;
        for (size_t j = 0; j < PQT_DBP_MB_SIZE; j++) orv |= rel[m * PQT_DBP_MB_SIZE + j];
        w = bits_u64(orv);
        body += 4 * (size_t)w;
      }
      widths[m] = w;
      bh[bl++] = (uint8_t)w;
    }
    PQT_RETURN_NOT_OK(pqt_buf_append(out, bh, bl, err));
    PQT_RETURN_NOT_OK(pqt_buf_reserve(out, body, err));
    for (size_t m = 0; m < used; m++) {
      pqt_bitpack64(rel + m * PQT_DBP_MB_SIZE, PQT_DBP_MB_SIZE, widths[m], out->data + out->len);
      out->len += 4 * (size_t)widths[m];
    }
    i += k;
  }
#undef PQT_VAL
  return PQT_OK;
}

pqt_status pqt_delta_bp_encode_i32(const int32_t *values, size_t n, pqt_buf *out, pqt_error *err) {
  return delta_encode(values, n, true, out, err);
}

pqt_status pqt_delta_bp_encode_i64(const int64_t *values, size_t n, pqt_buf *out, pqt_error *err) {
  return delta_encode(values, n, false, out, err);
}
