/*
 * encoding/bitpack: LSB-first bit unpacking/packing for the RLE/bit-packing
 * hybrid, dictionary indices and DELTA_BINARY_PACKED miniblocks (Parquet
 * Encodings.md, "Run Length Encoding / Bit-Packing Hybrid" note 1 and
 * "Delta Encoding"), and the deprecated MSB-first BIT_PACKED order.
 *
 * Design: values are unpacked 32 at a time (32 values of w bits are exactly
 * 4*w bytes, so every group starts byte aligned). For each width there is a
 * specialised function whose loop is fully unrolled with the width a
 * compile-time constant: every value is one unaligned 64-bit load, a shift
 * and a mask. Those loads may read up to 8 bytes past the group, so the
 * fast path only runs while that much input remains; the last groups are
 * copied into a zero-padded stack buffer first. Nothing reads past in_len.
 */
#include "encoding/bitpack.h"

#define PQT_AINLINE inline __attribute__((always_inline))

static PQT_AINLINE void unpack32_group(const uint8_t *in, uint32_t *out, const unsigned w) {
  const uint64_t mask = w == 32 ? 0xffffffffu : (((uint64_t)1 << w) - 1);
#pragma GCC unroll 32
  for (unsigned i = 0; i < 32; i++) {
    const unsigned bit = i * w;
    out[i] = (uint32_t)((pqt_load_u64le(in + (bit >> 3)) >> (bit & 7)) & mask);
  }
}

static PQT_AINLINE void unpack64_group(const uint8_t *in, uint64_t *out, const unsigned w) {
  const uint64_t mask = w == 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
#pragma GCC unroll 32
  for (unsigned i = 0; i < 32; i++) {
    const unsigned bit = i * w;
    const unsigned s = bit & 7;
    uint64_t v = pqt_load_u64le(in + (bit >> 3)) >> s;
    if (w > 56 && s + w > 64) v |= (uint64_t)in[(bit >> 3) + 8] << (64 - s);
    out[i] = v & mask;
  }
}

typedef void (*unpack32_fn)(const uint8_t *in, uint32_t *out, size_t groups);
typedef void (*unpack64_fn)(const uint8_t *in, uint64_t *out, size_t groups);

#define PQT_DEF_UNPACK(W)                                                                       \
  static void unpack32_w##W(const uint8_t *in, uint32_t *out, size_t groups) {                  \
    for (size_t g = 0; g < groups; g++, in += 4 * (W), out += 32) unpack32_group(in, out, (W)); \
  }
#define PQT_DEF_UNPACK64(W)                                                                     \
  static void unpack64_w##W(const uint8_t *in, uint64_t *out, size_t groups) {                  \
    for (size_t g = 0; g < groups; g++, in += 4 * (W), out += 32) unpack64_group(in, out, (W)); \
  }

#define PQT_W1_32(X)                                                                                              \
  X(1)                                                                                                            \
  X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) \
      X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32)
#define PQT_W33_64(X)                                                                                               \
  X(33)                                                                                                             \
  X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) X(46) X(47) X(48) X(49) X(50) X(51) X(52) \
      X(53) X(54) X(55) X(56) X(57) X(58) X(59) X(60) X(61) X(62) X(63) X(64)

PQT_W1_32(PQT_DEF_UNPACK)
PQT_W1_32(PQT_DEF_UNPACK64)
PQT_W33_64(PQT_DEF_UNPACK64)

#define PQT_REF32(W) unpack32_w##W,
#define PQT_REF64(W) unpack64_w##W,
static const unpack32_fn unpack32_tab[33] = {NULL, PQT_W1_32(PQT_REF32)};
static const unpack64_fn unpack64_tab[65] = {NULL, PQT_W1_32(PQT_REF64) PQT_W33_64(PQT_REF64)};

const char *pqt_bitunpack_impl(void) { return "scalar"; }

void pqt_bitunpack32(const uint8_t *in, size_t in_len, uint32_t *out, size_t n, unsigned w) {
  if (w == 0) {
    memset(out, 0, n * sizeof *out);
    return;
  }
  const size_t group_bytes = 4 * (size_t)w;
  size_t groups = n / 32;
  size_t fast = in_len < 8 ? 0 : (in_len - 8) / group_bytes;
  if (fast > groups) fast = groups;
  unpack32_tab[w](in, out, fast);
  in += fast * group_bytes;
  out += fast * 32;
  n -= fast * 32;
  /* Remaining (at most a few) groups: through a zero-padded buffer. */
  while (n > 0) {
    uint8_t tmp[4 * 32 + 8] = {0};
    uint32_t vals[32];
    size_t k = n < 32 ? n : 32;
    size_t nb = pqt_bitpack_bytes(k, w);
    memcpy(tmp, in, nb);
    unpack32_tab[w](tmp, vals, 1);
    memcpy(out, vals, k * sizeof *out);
    in += nb;
    out += k;
    n -= k;
  }
}

void pqt_bitunpack64(const uint8_t *in, size_t in_len, uint64_t *out, size_t n, unsigned w) {
  if (w == 0) {
    memset(out, 0, n * sizeof *out);
    return;
  }
  const size_t group_bytes = 4 * (size_t)w;
  size_t groups = n / 32;
  size_t fast = in_len < 16 ? 0 : (in_len - 16) / group_bytes;
  if (fast > groups) fast = groups;
  unpack64_tab[w](in, out, fast);
  in += fast * group_bytes;
  out += fast * 32;
  n -= fast * 32;
  while (n > 0) {
    uint8_t tmp[4 * 64 + 16] = {0};
    uint64_t vals[32];
    size_t k = n < 32 ? n : 32;
    size_t nb = pqt_bitpack_bytes(k, w);
    memcpy(tmp, in, nb);
    unpack64_tab[w](tmp, vals, 1);
    memcpy(out, vals, k * sizeof *out);
    in += nb;
    out += k;
    n -= k;
  }
}

void pqt_bitpack64(const uint64_t *in, size_t n, unsigned w, uint8_t *out) {
  if (w == 0) return;
  const uint64_t mask = w == 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1);
  uint64_t acc = 0;
  unsigned nb = 0; /* bits pending in acc, < 64 */
  for (size_t i = 0; i < n; i++) {
    uint64_t v = in[i] & mask;
    acc |= v << nb;
    if (nb + w >= 64) {
      pqt_store_u64le(out, acc);
      out += 8;
      acc = nb ? v >> (64 - nb) : 0;
      nb = nb + w - 64;
    } else {
      nb += w;
    }
  }
  for (unsigned b = 0; b < nb; b += 8) {
    *out++ = (uint8_t)acc;
    acc >>= 8;
  }
}

void pqt_bitpack32(const uint32_t *in, size_t n, unsigned w, uint8_t *out) {
  if (w == 0) return;
  const uint64_t mask = w == 32 ? 0xffffffffu : (((uint64_t)1 << w) - 1);
  uint64_t acc = 0;
  unsigned nb = 0;
  for (size_t i = 0; i < n; i++) {
    acc |= ((uint64_t)in[i] & mask) << nb;
    nb += w;
    if (nb >= 32) {
      pqt_store_u32le(out, (uint32_t)acc);
      out += 4;
      acc >>= 32;
      nb -= 32;
    }
  }
  for (unsigned b = 0; b < nb; b += 8) {
    *out++ = (uint8_t)acc;
    acc >>= 8;
  }
}

void pqt_bitunpack32_msb(const uint8_t *in, size_t in_len, uint32_t *out, size_t n, unsigned w) {
  (void)in_len;
  if (w == 0) {
    memset(out, 0, n * sizeof *out);
    return;
  }
  const uint64_t mask = w == 32 ? 0xffffffffu : (((uint64_t)1 << w) - 1);
  uint64_t acc = 0;
  unsigned nb = 0;
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    while (nb < w) {
      acc = (acc << 8) | in[pos++];
      nb += 8;
    }
    out[i] = (uint32_t)((acc >> (nb - w)) & mask);
    nb -= w;
  }
}

void pqt_bitpack32_msb(const uint32_t *in, size_t n, unsigned w, uint8_t *out) {
  if (w == 0) return;
  const uint64_t mask = w == 32 ? 0xffffffffu : (((uint64_t)1 << w) - 1);
  uint64_t acc = 0;
  unsigned nb = 0;
  for (size_t i = 0; i < n; i++) {
    acc = (acc << w) | ((uint64_t)in[i] & mask);
    nb += w;
    while (nb >= 8) {
      *out++ = (uint8_t)(acc >> (nb - 8));
      nb -= 8;
    }
  }
  if (nb) *out = (uint8_t)(acc << (8 - nb));
}
