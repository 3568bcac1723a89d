/*
 * encoding/rle: RLE/bit-packing hybrid decoder and encoder (Parquet
 * Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)"), the
 * level helpers (v1 4-byte length prefix, deprecated BIT_PACKED = 4 levels)
 * and dictionary-index gathers for RLE_DICTIONARY pages.
 *
 * Design: everything is built on rle_next(), which hands out the next piece
 * of the stream as either "k copies of one value" (an RLE run) or "k literal
 * values unpacked into a buffer" (a bit-packed run, unpacked with the
 * word-at-a-time kernels in bitpack.c). Consumers then fill or gather per
 * piece, so RLE runs cost one bounds check for the whole run.
 */
#include "encoding/rle.h"

#include "core/cpu.h"
#include "encoding/bitpack.h"
#include "encoding/enc_util.h"

#define PQT_RLE_CHUNK 512

pqt_status pqt_rle_decoder_init(pqt_rle_decoder *d, const uint8_t *in, size_t len, unsigned bit_width, pqt_error *err) {
  memset(d, 0, sizeof *d);
  if (bit_width > 32) return pqt_corrupt(err, "RLE/bit-packed: bit width %u exceeds 32", bit_width);
  d->p = in;
  d->end = in + len;
  d->bit_width = bit_width;
  return PQT_OK;
}

/* Read the next run header and set up the run. */
static pqt_status rle_next_run(pqt_rle_decoder *d, pqt_error *err) {
  if (d->p >= d->end) return pqt_corrupt(err, "RLE/bit-packed data ends before all values were read");
  uint64_t header;
  if (!pqt_enc_read_uleb(&d->p, d->end, &header))
    return pqt_corrupt(err, "RLE/bit-packed: truncated or oversized run header");
  const unsigned w = d->bit_width;
  if (header & 1) {
    uint64_t groups = header >> 1;
    if (groups > ((uint64_t)1 << 40))
      return pqt_corrupt(err, "RLE/bit-packed: bit-packed run of %llu groups is implausible",
                         (unsigned long long)groups);
    d->bp = d->p;
    d->bp_phase = 0;
    if (w == 0) {
      d->bp_end = d->p;
      d->bp_left = groups * 8;
      return PQT_OK;
    }
    uint64_t need = groups * w;
    size_t avail = (size_t)(d->end - d->p);
    size_t have = need < avail ? (size_t)need : avail;
    uint64_t present = (uint64_t)have * 8 / w;
    if (present > groups * 8) present = groups * 8;
    d->bp_end = d->p + have;
    d->bp_left = present;
    d->p += have;
  } else {
    unsigned vb = (w + 7) / 8;
    if ((size_t)(d->end - d->p) < vb) return pqt_corrupt(err, "RLE/bit-packed: truncated RLE run value");
    uint32_t v = 0;
    for (unsigned i = 0; i < vb; i++) v |= (uint32_t)d->p[i] << (8 * i);
    d->p += vb;
    if (w < 32 && (v >> w) != 0)
      return pqt_corrupt(err, "RLE/bit-packed: run value %u does not fit bit width %u", v, w);
    d->rle_value = v;
    d->rle_left = header >> 1;
  }
  return PQT_OK;
}

/* Take k (<= bp_left) literal values from the current bit-packed run. */
static void bp_take(pqt_rle_decoder *d, uint32_t *out, size_t k) {
  const unsigned w = d->bit_width;
  if (w == 0) {
    memset(out, 0, k * sizeof *out);
    d->bp_left -= k;
    return;
  }
  uint64_t left = d->bp_left;
  size_t done = 0;
  if (d->bp_phase) {
    uint32_t tmp[8];
    uint64_t gv64 = d->bp_phase + left;
    size_t gv = gv64 < 8 ? (size_t)gv64 : 8;
    pqt_bitunpack32(d->bp, (size_t)(d->bp_end - d->bp), tmp, gv, w);
    size_t take = gv - d->bp_phase;
    if (take > k) take = k;
    memcpy(out, tmp + d->bp_phase, take * sizeof *out);
    done = take;
    left -= take;
    d->bp_phase += (unsigned)take;
    if (d->bp_phase == 8) {
      d->bp_phase = 0;
      d->bp += w;
    }
  }
  size_t full = (k - done) / 8 * 8;
  if (full) {
    pqt_bitunpack32(d->bp, (size_t)(d->bp_end - d->bp), out + done, full, w);
    d->bp += full / 8 * w;
    done += full;
    left -= full;
  }
  if (done < k) {
    uint32_t tmp[8];
    size_t gv = left < 8 ? (size_t)left : 8;
    pqt_bitunpack32(d->bp, (size_t)(d->bp_end - d->bp), tmp, gv, w);
    memcpy(out + done, tmp, (k - done) * sizeof *out);
    d->bp_phase = (unsigned)(k - done);
    left -= k - done;
  }
  d->bp_left = left;
}

/* Next piece of at most cap values: a run (*is_run, *val) or literals in buf. */
static inline __attribute__((always_inline)) pqt_status rle_next(pqt_rle_decoder *d, uint32_t *buf, size_t cap,
                                                                 size_t *k, bool *is_run, uint32_t *val,
                                                                 pqt_error *err) {
  for (;;) {
    if (d->rle_left) {
      size_t t = d->rle_left < cap ? (size_t)d->rle_left : cap;
      d->rle_left -= t;
      *k = t;
      *is_run = true;
      *val = d->rle_value;
      return PQT_OK;
    }
    if (d->bp_left) {
      size_t t = d->bp_left < cap ? (size_t)d->bp_left : cap;
      bp_take(d, buf, t);
      *k = t;
      *is_run = false;
      return PQT_OK;
    }
    PQT_RETURN_NOT_OK(rle_next_run(d, err));
  }
}

pqt_status pqt_rle_get_u32(pqt_rle_decoder *d, uint32_t *out, size_t n, pqt_error *err) {
  size_t done = 0;
  while (done < n) {
    size_t k;
    bool run;
    uint32_t v;
    PQT_RETURN_NOT_OK(rle_next(d, out + done, n - done, &k, &run, &v, err));
    if (run)
      for (size_t i = 0; i < k; i++) out[done + i] = v;
    done += k;
  }
  return PQT_OK;
}

/* Levels of bit-packed widths 1 and 2 straight from the bytes: one table
 * row per byte (8 levels of width 1, 4 of width 2), LSB first. */
#define PQT_U1(b)                                                                                            \
  {                                                                                                          \
    (b) & 1, ((b) >> 1) & 1, ((b) >> 2) & 1, ((b) >> 3) & 1, ((b) >> 4) & 1, ((b) >> 5) & 1, ((b) >> 6) & 1, \
        ((b) >> 7) & 1                                                                                       \
  }
#define PQT_U2(b) \
  { (b) & 3, ((b) >> 2) & 3, ((b) >> 4) & 3, ((b) >> 6) & 3 }
#define PQT_R4(F, b)  F(b), F((b) + 1), F((b) + 2), F((b) + 3)
#define PQT_R16(F, b) PQT_R4(F, b), PQT_R4(F, (b) + 4), PQT_R4(F, (b) + 8), PQT_R4(F, (b) + 12)
#define PQT_R64(F, b) PQT_R16(F, b), PQT_R16(F, (b) + 16), PQT_R16(F, (b) + 32), PQT_R16(F, (b) + 48)
#define PQT_R256(F)   PQT_R64(F, 0), PQT_R64(F, 64), PQT_R64(F, 128), PQT_R64(F, 192)
static const int16_t k_levels_w1[256][8] = {PQT_R256(PQT_U1)};
static const int16_t k_levels_w2[256][4] = {PQT_R256(PQT_U2)};
#undef PQT_U1
#undef PQT_U2
#undef PQT_R4
#undef PQT_R16
#undef PQT_R64
#undef PQT_R256

/* Count of entries of lv[0, k) equal to l (vectorizable: 32-bit lanes). */
static inline size_t count_eq16(const int16_t *lv, size_t k, int16_t l) {
  uint32_t c = 0; /* k <= PQT_RLE_CHUNK * 8 */
  for (size_t i = 0; i < k; i++) c += lv[i] == l;
  return c;
}

/* Levels: RLE runs become fills (one range check per run), bit-packed runs
 * of width 1 and 2 are expanded by table, whole groups at a time; the rest
 * goes through rle_next. count (may be NULL) gets the number of levels
 * equal to count_level. */
static inline __attribute__((always_inline)) pqt_status get_levels(pqt_rle_decoder *d, int16_t *out, size_t n,
                                                                   int16_t max_level, int16_t count_level,
                                                                   size_t *count, pqt_error *err) {
  uint32_t buf[PQT_RLE_CHUNK];
  const uint32_t maxl = max_level < 0 ? 0 : (uint32_t)max_level;
  const unsigned w = d->bit_width;
  size_t done = 0, cnt = 0;
  while (done < n) {
    int16_t *o = out + done;
    if (d->rle_left) {
      size_t k = d->rle_left < n - done ? (size_t)d->rle_left : n - done;
      uint32_t v = d->rle_value;
      if (v > maxl) return pqt_corrupt(err, "level %u exceeds the maximum level %u", v, maxl);
      for (size_t i = 0; i < k; i++) o[i] = (int16_t)v;
      if (count && v == (uint32_t)count_level) cnt += k;
      d->rle_left -= k;
      done += k;
      continue;
    }
    if ((w == 1 || w == 2) && d->bp_phase == 0 && d->bp_left >= 8 && n - done >= 8) {
      uint64_t vals = d->bp_left < n - done ? d->bp_left : n - done;
      size_t g = (size_t)(vals / 8), avail = (size_t)(d->bp_end - d->bp) / w;
      if (g > avail) g = avail;
      if (g > PQT_RLE_CHUNK) g = PQT_RLE_CHUNK;
      if (g) {
        const uint8_t *p = d->bp;
        if (w == 1) {
          for (size_t j = 0; j < g; j++) memcpy(o + 8 * j, k_levels_w1[p[j]], 16);
        } else {
          for (size_t j = 0; j < 2 * g; j++) memcpy(o + 4 * j, k_levels_w2[p[j]], 8);
        }
        size_t k = 8 * g;
        if (maxl < (1u << w) - 1) {
          uint32_t over = 0;
          for (size_t i = 0; i < k; i++) over |= (uint32_t)((uint16_t)o[i] > maxl);
          if (over) return pqt_corrupt(err, "level exceeds the maximum level %u", maxl);
        }
        if (count) cnt += count_eq16(o, k, count_level);
        d->bp += g * w;
        d->bp_left -= k;
        done += k;
        continue;
      }
    }
    if (!d->bp_left) {
      PQT_RETURN_NOT_OK(rle_next_run(d, err));
      continue;
    }
    /* the rest of a bit-packed run: partial groups, other widths */
    size_t k, want = n - done < PQT_RLE_CHUNK ? n - done : PQT_RLE_CHUNK;
    bool run;
    uint32_t v;
    PQT_RETURN_NOT_OK(rle_next(d, buf, want, &k, &run, &v, err));
    if (run) { /* not reached: bp_left > 0 */
      if (v > maxl) return pqt_corrupt(err, "level %u exceeds the maximum level %u", v, maxl);
      for (size_t i = 0; i < k; i++) o[i] = (int16_t)v;
      if (count && v == (uint32_t)count_level) cnt += k;
    } else {
      uint32_t over = 0;
      for (size_t i = 0; i < k; i++) {
        over |= (uint32_t)(buf[i] > maxl);
        o[i] = (int16_t)buf[i];
      }
      if (over) return pqt_corrupt(err, "level exceeds the maximum level %u", maxl);
      if (count) cnt += count_eq16(o, k, count_level);
    }
    done += k;
  }
  if (count) *count = cnt;
  return PQT_OK;
}

pqt_status pqt_rle_get_levels(pqt_rle_decoder *d, int16_t *out, size_t n, int16_t max_level, pqt_error *err) {
  return get_levels(d, out, n, max_level, 0, NULL, err);
}

pqt_status pqt_rle_get_bool_bytes(pqt_rle_decoder *d, uint8_t *out, size_t n, pqt_error *err) {
  if (d->bit_width != 1) return pqt_corrupt(err, "RLE booleans need bit width 1");
  uint32_t buf[PQT_RLE_CHUNK];
  size_t done = 0;
  while (done < n) {
    size_t k, want = n - done < PQT_RLE_CHUNK ? n - done : PQT_RLE_CHUNK;
    bool run;
    uint32_t v;
    PQT_RETURN_NOT_OK(rle_next(d, buf, want, &k, &run, &v, err));
    if (run) memset(out + done, (int)v, k);
    else
      for (size_t i = 0; i < k; i++) out[done + i] = (uint8_t)buf[i];
    done += k;
  }
  return PQT_OK;
}

static inline void set_bit(uint8_t *bm, size_t bit, bool v) {
  if (v) bm[bit >> 3] |= (uint8_t)(1u << (bit & 7));
  else bm[bit >> 3] &= (uint8_t) ~(1u << (bit & 7));
}

static void set_bits(uint8_t *bm, size_t bit, size_t k, bool v) {
  while (k && (bit & 7)) {
    set_bit(bm, bit, v);
    bit++;
    k--;
  }
  if (k >= 8) {
    memset(bm + (bit >> 3), v ? 0xff : 0, k / 8);
    bit += k / 8 * 8;
    k &= 7;
  }
  while (k) {
    set_bit(bm, bit, v);
    bit++;
    k--;
  }
}

pqt_status pqt_rle_get_bool_bitmap(pqt_rle_decoder *d, uint8_t *out, size_t out_bit, size_t n, pqt_error *err) {
  if (d->bit_width != 1) return pqt_corrupt(err, "RLE booleans need bit width 1");
  uint32_t buf[PQT_RLE_CHUNK];
  size_t done = 0;
  while (done < n) {
    size_t k, want = n - done < PQT_RLE_CHUNK ? n - done : PQT_RLE_CHUNK;
    bool run;
    uint32_t v;
    PQT_RETURN_NOT_OK(rle_next(d, buf, want, &k, &run, &v, err));
    if (run) {
      set_bits(out, out_bit + done, k, v != 0);
    } else {
      for (size_t i = 0; i < k; i++) {
        size_t b = out_bit + done + i;
        out[b >> 3] = (uint8_t)((out[b >> 3] & ~(1u << (b & 7))) | (buf[i] << (b & 7)));
      }
    }
    done += k;
  }
  return PQT_OK;
}

pqt_status pqt_rle_skip(pqt_rle_decoder *d, size_t n, pqt_error *err) {
  while (n > 0) {
    if (d->rle_left) {
      size_t t = d->rle_left < n ? (size_t)d->rle_left : n;
      d->rle_left -= t;
      n -= t;
    } else if (d->bp_left) {
      size_t t = d->bp_left < n ? (size_t)d->bp_left : n;
      uint64_t pos = (uint64_t)d->bp_phase + t;
      d->bp += (size_t)(pos / 8) * d->bit_width;
      d->bp_phase = (unsigned)(pos % 8);
      d->bp_left -= t;
      n -= t;
    } else {
      PQT_RETURN_NOT_OK(rle_next_run(d, err));
    }
  }
  return PQT_OK;
}

/* Every index of buf[0..k) must be < dict_n. Indices have `bit_width` bits,
 * so a dictionary of 2^bit_width entries or more needs no check; below 32
 * bits the indices compare as signed integers, which vectorizes to one
 * compare per lane on every x86-64. */
static inline pqt_status check_indices(const uint32_t *buf, size_t k, unsigned bit_width, size_t dict_n,
                                       pqt_error *err) {
  if (bit_width < 32 && dict_n >= ((size_t)1 << bit_width)) return PQT_OK;
  uint32_t bad = 0;
  if (bit_width < 32 && dict_n <= (size_t)INT32_MAX) {
    const int32_t lim = (int32_t)dict_n;
    for (size_t i = 0; i < k; i++) bad |= (uint32_t)((int32_t)buf[i] >= lim);
  } else {
    for (size_t i = 0; i < k; i++) bad |= (uint32_t)(buf[i] >= dict_n);
  }
  if (PQT_LIKELY(!bad)) return PQT_OK;
  for (size_t i = 0; i < k; i++)
    if (buf[i] >= dict_n)
      return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %zu entries)", buf[i], dict_n);
  return PQT_OK;
}

/* Copy `width`-byte entry `src` k times to dst. */
static inline void fill_fixed(uint8_t *dst, const uint8_t *src, size_t width, size_t k) {
  switch (width) {
    case 4: {
      uint32_t v;
      memcpy(&v, src, 4);
      for (size_t i = 0; i < k; i++) memcpy(dst + 4 * i, &v, 4);
      break;
    }
    case 8: {
      uint64_t v;
      memcpy(&v, src, 8);
      for (size_t i = 0; i < k; i++) memcpy(dst + 8 * i, &v, 8);
      break;
    }
    default:
      if (width == 1) {
        memset(dst, src[0], k);
      } else {
        for (size_t i = 0; i < k; i++) memcpy(dst + width * i, src, width);
      }
  }
}

#define PQT_GATHER(W) \
  for (size_t i = 0; i < k; i++) memcpy(o + (W)*i, dict + (size_t)idx[i] * (W), (W))

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* AVX2 hardware gathers for 4- and 8-byte entries (chosen at run time). */
__attribute__((target("avx2"))) static void gather8_avx2(uint8_t *o, const uint8_t *dict, const uint32_t *idx,
                                                         size_t k) {
  size_t i = 0;
  for (; i + 8 <= k; i += 8) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(idx + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(idx + i + 4));
    __m256i va = _mm256_i32gather_epi64((const long long *)(const void *)dict, a, 8);
    __m256i vb = _mm256_i32gather_epi64((const long long *)(const void *)dict, b, 8);
    _mm256_storeu_si256((__m256i *)(void *)(o + 8 * i), va);
    _mm256_storeu_si256((__m256i *)(void *)(o + 8 * i + 32), vb);
  }
  for (; i < k; i++) memcpy(o + 8 * i, dict + (size_t)idx[i] * 8, 8);
}

__attribute__((target("avx2"))) static void gather4_avx2(uint8_t *o, const uint8_t *dict, const uint32_t *idx,
                                                         size_t k) {
  size_t i = 0;
  for (; i + 8 <= k; i += 8) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(idx + i));
    __m256i v = _mm256_i32gather_epi32((const int *)(const void *)dict, a, 4);
    _mm256_storeu_si256((__m256i *)(void *)(o + 4 * i), v);
  }
  for (; i < k; i++) memcpy(o + 4 * i, dict + (size_t)idx[i] * 4, 4);
}
#define PQT_HAVE_GATHER_AVX2 1
#endif

/* Indices are checked (< dict size, which is < 2^31) before any gather. */
static inline void gather_fixed(uint8_t *o, const uint8_t *dict, const uint32_t *idx, size_t width, size_t k) {
#ifdef PQT_HAVE_GATHER_AVX2
  if ((width == 8 || width == 4) && k >= 16 && pqt_cpu_has(PQT_CPU_AVX2)) {
    if (width == 8) gather8_avx2(o, dict, idx, k);
    else gather4_avx2(o, dict, idx, k);
    return;
  }
#endif
  switch (width) {
    case 1: PQT_GATHER(1); break;
    case 2: PQT_GATHER(2); break;
    case 4: PQT_GATHER(4); break;
    case 8: PQT_GATHER(8); break;
    case 12: PQT_GATHER(12); break;
    case 16: PQT_GATHER(16); break;
    default:
      for (size_t i = 0; i < k; i++) memcpy(o + width * i, dict + (size_t)idx[i] * width, width);
  }
}

/* Fused unpack + gather for whole groups of 8 bit-packed indices of W bits
 * into entries of 1, 2, 4 or 8 bytes: no intermediate index buffer. Every index
 * is one unaligned 64-bit load, a shift and a mask (as in bitpack.c), so a
 * group of W bytes is read up to 7 bytes past its end: the caller leaves 8
 * bytes of input after the last group. An index >= dn (dn >= 1) is clamped
 * to entry 0 and flagged in *bad; the caller then reports it. */
#define PQT_AINLINE inline __attribute__((always_inline))
static PQT_AINLINE void dict_groups(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups,
                                    uint32_t *bad, const unsigned w, const size_t width) {
  const uint64_t mask = ((uint64_t)1 << w) - 1;
  uint32_t b = 0;
  for (size_t g = 0; g < groups; g++, in += w, o += 8 * width) {
#pragma GCC unroll 8
    for (unsigned i = 0; i < 8; i++) {
      const unsigned bit = i * w;
      uint32_t x = (uint32_t)((pqt_load_u64le(in + (bit >> 3)) >> (bit & 7)) & mask);
      b |= (uint32_t)(x >= dn);
      x = x < dn ? x : 0;
      memcpy(o + width * i, dict + (size_t)x * width, width);
    }
  }
  *bad |= b;
}

typedef void (*dict_groups_fn)(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups,
                               uint32_t *bad);
#define PQT_DEF_DICT_GROUPS(W)                                                                                  \
  static void dict_groups1_w##W(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups, \
                                uint32_t *bad) {                                                                \
    dict_groups(in, dict, dn, o, groups, bad, (W), 1);                                                          \
  }                                                                                                             \
  static void dict_groups2_w##W(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups, \
                                uint32_t *bad) {                                                                \
    dict_groups(in, dict, dn, o, groups, bad, (W), 2);                                                          \
  }                                                                                                             \
  static void dict_groups4_w##W(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups, \
                                uint32_t *bad) {                                                                \
    dict_groups(in, dict, dn, o, groups, bad, (W), 4);                                                          \
  }                                                                                                             \
  static void dict_groups8_w##W(const uint8_t *in, const uint8_t *dict, uint32_t dn, uint8_t *o, size_t groups, \
                                uint32_t *bad) {                                                                \
    dict_groups(in, dict, dn, o, groups, bad, (W), 8);                                                          \
  }
#define PQT_W1_32(X)                                                                                              \
  X(1)                                                                                                            \
  X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) \
      X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
PQT_W1_32(PQT_DEF_DICT_GROUPS)
#define PQT_REF1(W) dict_groups1_w##W,
#define PQT_REF2(W) dict_groups2_w##W,
#define PQT_REF4(W) dict_groups4_w##W,
#define PQT_REF8(W) dict_groups8_w##W,
static const dict_groups_fn dict_groups1_tab[33] = {NULL, PQT_W1_32(PQT_REF1)};
static const dict_groups_fn dict_groups2_tab[33] = {NULL, PQT_W1_32(PQT_REF2)};
static const dict_groups_fn dict_groups4_tab[33] = {NULL, PQT_W1_32(PQT_REF4)};
static const dict_groups_fn dict_groups8_tab[33] = {NULL, PQT_W1_32(PQT_REF8)};
#undef PQT_REF1
#undef PQT_REF2
#undef PQT_REF4
#undef PQT_REF8
#undef PQT_W1_32
#undef PQT_DEF_DICT_GROUPS

#if defined(__x86_64__) && defined(__GNUC__)
/* AVX-512 (F, BW, VBMI): fused unpack + gather of 16 indices (two groups)
 * at a time, for entries of 4 or 8 bytes and bit widths up to 24. One
 * masked load brings the 2w bytes of the two groups (no byte past them is
 * read); a byte permute puts the 4 bytes holding index i in lane i, a
 * variable shift and a mask extract it; one compare flags indices >= dn
 * (clamped to 0, as the scalar kernel does); then hardware gathers. Returns
 * the groups done (even). */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static size_t dict_pairs_avx512(const uint8_t *in,
                                                                                       const uint8_t *dict, uint32_t dn,
                                                                                       uint8_t *o, size_t groups,
                                                                                       uint32_t *bad, unsigned w,
                                                                                       size_t width) {
  uint8_t perm[64], shift32[64];
  for (unsigned i = 0; i < 16; i++) {
    unsigned bit = i * w;
    for (unsigned b = 0; b < 4; b++) perm[4 * i + b] = (uint8_t)((bit >> 3) + b);
    uint32_t sh = bit & 7;
    memcpy(shift32 + 4 * i, &sh, 4);
  }
  const __m512i vperm = _mm512_loadu_si512((const void *)perm);
  const __m512i vshift = _mm512_loadu_si512((const void *)shift32);
  const __m512i vmask = _mm512_set1_epi32((int)((1u << w) - 1));
  const __m512i vdn = _mm512_set1_epi32((int)dn);
  const __mmask64 lm = (__mmask64)((UINT64_C(1) << (2 * w)) - 1);
  __mmask16 badm = 0;
  size_t g = 0;
  for (; g + 2 <= groups; g += 2, in += 2 * w, o += 16 * width) {
    __m512i v = _mm512_maskz_loadu_epi8(lm, (const void *)in);
    v = _mm512_permutexvar_epi8(vperm, v);
    v = _mm512_and_si512(_mm512_srlv_epi32(v, vshift), vmask);
    __mmask16 over = _mm512_cmpge_epu32_mask(v, vdn);
    badm |= over;
    v = _mm512_maskz_mov_epi32((__mmask16)~over, v);
/* GCC's gather macros (used when not optimising) pass their scale through a
 * signed char cast that -Wsign-conversion flags; the scales here are 4 and 8. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
    if (width == 8) {
      __m512i a = _mm512_i32gather_epi64(_mm512_castsi512_si256(v), (const void *)dict, 8);
      __m512i b = _mm512_i32gather_epi64(_mm512_extracti64x4_epi64(v, 1), (const void *)dict, 8);
      _mm512_storeu_si512((void *)o, a);
      _mm512_storeu_si512((void *)(o + 64), b);
    } else {
      _mm512_storeu_si512((void *)o, _mm512_i32gather_epi32(v, (const void *)dict, 4));
    }
#pragma GCC diagnostic pop
  }
  *bad |= badm != 0;
  return g;
}
#define PQT_HAVE_DICT_AVX512 1
#endif

/* The first index >= dict_n among the g groups at in (known to hold one). */ /* The first index >= dict_n among the g
                                                                                 groups at in (known to hold one). */
static pqt_status bad_index_in_groups(const uint8_t *in, size_t in_len, unsigned w, size_t g, size_t dict_n,
                                      pqt_error *err) {
  uint32_t buf[PQT_RLE_CHUNK];
  for (size_t done = 0; done < g * 8; done += PQT_RLE_CHUNK) {
    size_t k = g * 8 - done < PQT_RLE_CHUNK ? g * 8 - done : PQT_RLE_CHUNK;
    size_t off = done / 8 * w;
    pqt_bitunpack32(in + off, in_len - off, buf, k, w);
    PQT_RETURN_NOT_OK(check_indices(buf, k, w, dict_n, err));
  }
  return pqt_corrupt(err, "dictionary index out of range (dictionary has %zu entries)", dict_n);
}

pqt_status pqt_rle_get_dict_fixed(pqt_rle_decoder *d, const void *dict, size_t dict_n, size_t width, void *out,
                                  size_t n, pqt_error *err) {
  return pqt_rle_get_dict_fixed_isa(d, dict, dict_n, width, out, n, 1, err);
}

pqt_status pqt_rle_get_dict_fixed_isa(pqt_rle_decoder *d, const void *dict, size_t dict_n, size_t width, void *out,
                                      size_t n, int vector, pqt_error *err) {
  uint32_t buf[PQT_RLE_CHUNK];
  const uint8_t *dp = dict;
  uint8_t *o = out;
  size_t done = 0;
  const unsigned w = d->bit_width;
  const dict_groups_fn fused = w == 0 || dict_n == 0 ? NULL
                               : width == 8          ? dict_groups8_tab[w]
                               : width == 4          ? dict_groups4_tab[w]
                               : width == 2          ? dict_groups2_tab[w]
                               : width == 1          ? dict_groups1_tab[w]
                                                     : NULL;
  const uint32_t dn = dict_n > UINT32_MAX ? UINT32_MAX : (uint32_t)dict_n;
#ifdef PQT_HAVE_DICT_AVX512
  const bool wide = vector && fused && (width == 8 || width == 4) && w <= 24 && dict_n <= INT32_MAX &&
                    pqt_cpu_has(PQT_CPU_AVX512_VBMI);
#else
  (void)vector;
#endif
  while (done < n) {
    if (fused && !d->rle_left && !d->bp_left) {
      PQT_RETURN_NOT_OK(rle_next_run(d, err)); /* a new run: bit-packed ones take the fused path */
      continue;
    }
    if (fused && d->bp_phase == 0 && d->bp_left >= 8 && n - done >= 8) {
      /* whole groups of a bit-packed run, with 8 bytes of input after them */
      size_t avail = (size_t)(d->end - d->bp);
      uint64_t g = d->bp_left / 8;
      if (g > (n - done) / 8) g = (n - done) / 8;
      if (avail < 8) g = 0;
      else if (g > (avail - 8) / w) g = (avail - 8) / w;
      if (g) {
        uint32_t bad = 0;
#ifdef PQT_HAVE_DICT_AVX512
        size_t v2 = wide ? dict_pairs_avx512(d->bp, dp, dn, o + done * width, (size_t)g, &bad, w, width) : 0;
        if (v2 < g) fused(d->bp + v2 * w, dp, dn, o + (done + v2 * 8) * width, (size_t)g - v2, &bad);
#else
        fused(d->bp, dp, dn, o + done * width, (size_t)g, &bad);
#endif
        if (PQT_UNLIKELY(bad)) return bad_index_in_groups(d->bp, avail, w, (size_t)g, dict_n, err);
        d->bp += (size_t)g * w;
        d->bp_left -= g * 8;
        done += (size_t)g * 8;
        continue;
      }
    }
    size_t k, want = n - done < PQT_RLE_CHUNK ? n - done : PQT_RLE_CHUNK;
    bool run;
    uint32_t v;
    PQT_RETURN_NOT_OK(rle_next(d, buf, want, &k, &run, &v, err));
    if (run) {
      if (v >= dict_n)
        return pqt_corrupt(err, "dictionary index %u out of range (dictionary has %zu entries)", v, dict_n);
      fill_fixed(o + done * width, dp + (size_t)v * width, width, k);
    } else {
      PQT_RETURN_NOT_OK(check_indices(buf, k, d->bit_width, dict_n, err));
      gather_fixed(o + done * width, dp, buf, width, k);
    }
    done += k;
  }
  return PQT_OK;
}

pqt_status pqt_rle_dict_page_init(pqt_rle_decoder *d, const uint8_t *in, size_t len, pqt_error *err) {
  if (len < 1) {
    memset(d, 0, sizeof *d);
    return pqt_corrupt(err, "dictionary-encoded page has no bit-width byte");
  }
  return pqt_rle_decoder_init(d, in + 1, len - 1, in[0], err);
}

pqt_status pqt_rle_v1_span(const uint8_t *in, size_t len, const uint8_t **body, size_t *body_len, size_t *consumed,
                           pqt_error *err) {
  if (len < 4) return pqt_corrupt(err, "RLE stream: truncated 4-byte length prefix");
  uint32_t n = pqt_load_u32le(in);
  if (n > len - 4) return pqt_corrupt(err, "RLE stream: length prefix %u exceeds the %zu bytes left", n, len - 4);
  *body = in + 4;
  *body_len = n;
  *consumed = (size_t)n + 4;
  return PQT_OK;
}

pqt_status pqt_levels_decode_rle(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                 int16_t max_level, pqt_error *err) {
  pqt_rle_decoder d;
  PQT_RETURN_NOT_OK(pqt_rle_decoder_init(&d, in, len, bit_width, err));
  return pqt_rle_get_levels(&d, out, n, max_level, err);
}

pqt_status pqt_levels_decode_rle_count(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                       int16_t max_level, int16_t count_level, size_t *count, pqt_error *err) {
  pqt_rle_decoder d;
  size_t c = 0;
  PQT_RETURN_NOT_OK(pqt_rle_decoder_init(&d, in, len, bit_width, err));
  PQT_RETURN_NOT_OK(get_levels(&d, out, n, max_level, count_level, &c, err));
  if (count) *count = c;
  return PQT_OK;
}

pqt_status pqt_levels_decode_bit_packed(const uint8_t *in, size_t len, unsigned bit_width, int16_t *out, size_t n,
                                        int16_t max_level, size_t *consumed, pqt_error *err) {
  if (bit_width > 16) return pqt_corrupt(err, "BIT_PACKED levels: bit width %u", bit_width);
  size_t need = pqt_bitpack_bytes(n, bit_width);
  if (need > len) return pqt_corrupt(err, "BIT_PACKED levels: need %zu bytes, %zu left", need, len);
  uint32_t buf[PQT_RLE_CHUNK];
  const uint32_t maxl = max_level < 0 ? 0 : (uint32_t)max_level;
  size_t done = 0;
  /* Chunks of PQT_RLE_CHUNK (a multiple of 8) values stay byte aligned. */
  while (done < n) {
    size_t k = n - done < PQT_RLE_CHUNK ? n - done : PQT_RLE_CHUNK;
    size_t off = done / 8 * bit_width;
    pqt_bitunpack32_msb(in + off, len - off, buf, k, bit_width);
    uint32_t over = 0;
    for (size_t i = 0; i < k; i++) {
      over |= (uint32_t)(buf[i] > maxl);
      out[done + i] = (int16_t)buf[i];
    }
    if (over) return pqt_corrupt(err, "level exceeds the maximum level %u", maxl);
    done += k;
  }
  if (consumed) *consumed = need;
  return PQT_OK;
}

/* ---- encoder ------------------------------------------------------- */

#define PQT_RLE_MAX_RUN ((size_t)0x7fffffff)

static pqt_status emit_rle(pqt_buf *out, uint32_t v, size_t count, unsigned w, pqt_error *err) {
  while (count > 0) {
    size_t c = count < PQT_RLE_MAX_RUN ? count : PQT_RLE_MAX_RUN;
    uint8_t tmp[16];
    size_t len = pqt_enc_put_uleb(tmp, (uint64_t)c << 1);
    for (unsigned i = 0; i < (w + 7) / 8; i++) tmp[len++] = (uint8_t)(v >> (8 * i));
    PQT_RETURN_NOT_OK(pqt_buf_append(out, tmp, len, err));
    count -= c;
  }
  return PQT_OK;
}

/* Bit-packed runs for values[0..count): full groups of 8, last zero-padded. */
static pqt_status emit_literal(pqt_buf *out, const uint32_t *values, size_t count, unsigned w, pqt_error *err) {
  const size_t max_groups = PQT_RLE_MAX_RUN / 8;
  while (count > 0) {
    size_t groups = (count + 7) / 8;
    if (groups > max_groups) groups = max_groups;
    size_t c = groups * 8 < count ? groups * 8 : count;
    PQT_RETURN_NOT_OK(pqt_enc_buf_put_uleb(out, (uint64_t)groups << 1 | 1, err));
    size_t bytes = groups * w;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(out, bytes, err));
    uint8_t *o = out->data + out->len;
    size_t full = c / 8 * 8;
    pqt_bitpack32(values, full, w, o);
    if (full < c) {
      uint32_t tmp[8] = {0};
      memcpy(tmp, values + full, (c - full) * sizeof *tmp);
      pqt_bitpack32(tmp, 8, w, o + full / 8 * w);
    }
    out->len += bytes;
    values += c;
    count -= c;
  }
  return PQT_OK;
}

/* The shortest run worth an RLE run. At bit width 1 a run costs a header
 * byte, a value byte and the header of the literal run it interrupts: 3
 * bytes, as much as 24 bit-packed values, so shorter runs stay literal
 * (levels of a column with scattered nulls come out up to a sixth
 * smaller). Wider values keep the usual 8. */
static inline size_t rle_min_run(unsigned w) { return w == 1 ? 25 : 8; }

pqt_status pqt_rle_encode_u32(const uint32_t *v, size_t n, unsigned w, pqt_buf *out, pqt_error *err) {
  if (w > 32) return pqt_error_set(err, PQT_EINVAL, "RLE encode: bit width %u > 32", w);
  if (w < 32) {
    uint32_t any = 0;
    for (size_t k = 0; k < n; k++) any |= v[k];
    if (any >> w) return pqt_error_set(err, PQT_EINVAL, "RLE encode: a value does not fit bit width %u", w);
  }
  const size_t min_run = rle_min_run(w);
  size_t i = 0, lit_start = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && v[j] == v[i]) j++;
    size_t r = j - i;
    if (r >= min_run) {
      size_t lit = i - lit_start;
      if (lit % 8) {
        size_t pad = 8 - lit % 8;
        if (r - pad < min_run) { /* too short after topping up the literals: keep as literals */
          i = j;
          continue;
        }
        i += pad;
        r -= pad;
        lit += pad;
      }
      if (lit) PQT_RETURN_NOT_OK(emit_literal(out, v + lit_start, lit, w, err));
      PQT_RETURN_NOT_OK(emit_rle(out, v[i], r, w, err));
      i = j;
      lit_start = j;
    } else {
      i = j;
    }
  }
  if (n > lit_start) PQT_RETURN_NOT_OK(emit_literal(out, v + lit_start, n - lit_start, w, err));
  return PQT_OK;
}

static pqt_status encode_via_u32(const void *src, size_t n, int kind, unsigned w, pqt_buf *out, pqt_error *err) {
  const pqt_allocator *a = out->alloc;
  size_t bytes;
  if (!pqt_mul_size(n ? n : 1, sizeof(uint32_t), &bytes)) return pqt_nomem(err);
  uint32_t *tmp = pqt_mem_alloc(a, bytes);
  if (!tmp) return pqt_nomem(err);
  if (kind == 0) {
    const int16_t *l = src;
    for (size_t i = 0; i < n; i++) tmp[i] = (uint32_t)(uint16_t)l[i];
  } else {
    const uint8_t *b = src;
    for (size_t i = 0; i < n; i++) tmp[i] = b[i] != 0;
  }
  pqt_status st = pqt_rle_encode_u32(tmp, n, w, out, err);
  pqt_mem_free(a, tmp, bytes);
  return st;
}

pqt_status pqt_rle_encode_levels(const int16_t *levels, size_t n, unsigned bit_width, pqt_buf *out, pqt_error *err) {
  /* all levels equal (a page without nulls): the one RLE run the general
   * encoder makes of them, without its u32 copy */
  if (n >= rle_min_run(bit_width) && bit_width < 32 && ((uint32_t)(uint16_t)levels[0] >> bit_width) == 0) {
    int16_t l0 = levels[0];
    bool same = true;
    for (size_t i = 1; i < n; i++) same &= levels[i] == l0;
    if (same) return emit_rle(out, (uint32_t)(uint16_t)l0, n, bit_width, err);
  }
  return encode_via_u32(levels, n, 0, bit_width, out, err);
}

pqt_status pqt_rle_encode_bool_bytes(const uint8_t *values, size_t n, pqt_buf *out, pqt_error *err) {
  return encode_via_u32(values, n, 1, 1, out, err);
}

pqt_status pqt_levels_encode_bit_packed(const int16_t *levels, size_t n, unsigned bit_width, pqt_buf *out,
                                        pqt_error *err) {
  if (bit_width > 16) return pqt_error_set(err, PQT_EINVAL, "bit width %u > 16", bit_width);
  const pqt_allocator *a = out->alloc;
  size_t bytes;
  if (!pqt_mul_size(n ? n : 1, sizeof(uint32_t), &bytes)) return pqt_nomem(err);
  uint32_t *tmp = pqt_mem_alloc(a, bytes);
  if (!tmp) return pqt_nomem(err);
  for (size_t i = 0; i < n; i++) tmp[i] = (uint32_t)(uint16_t)levels[i];
  size_t nb = pqt_bitpack_bytes(n, bit_width);
  pqt_status st = pqt_buf_reserve(out, nb, err);
  if (st == PQT_OK) {
    pqt_bitpack32_msb(tmp, n, bit_width, out->data + out->len);
    out->len += nb;
  }
  pqt_mem_free(a, tmp, bytes);
  return st;
}
