/*
 * levels/kernels.c: block kernels of the level functions (see
 * levels_kernels.h). The kernel bodies are in kernels_body.inc, compiled
 * once for the baseline ISA and, on x86-64 with GCC/clang, once more for
 * AVX2+BMI2+POPCNT.
 */
#include "levels/levels_kernels.h"

#include "core/cpu.h"

#include <string.h>

/* PQT_LVK_PORTABLE (for testing): the portable compare loop even with SSE2. */
#if defined(__SSE2__) && !defined(PQT_LVK_PORTABLE)
#define PQT_LVK_SSE2 1
#include <emmintrin.h>
#else
#define PQT_LVK_SSE2 0
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PQT_LVK_X86 1
#include <immintrin.h>
#else
#define PQT_LVK_X86 0
#endif

#define PQT_LVK_INLINE static inline __attribute__((always_inline))

/* ---- bit output ------------------------------------------------------ */

static inline void store_u64le(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

PQT_LVK_INLINE void put_bits_inline(uint8_t *bm, int64_t pos, uint64_t word, int nbits) {
  uint8_t *p = bm + (pos >> 3);
  int s = (int)(pos & 7);
  if (nbits < 64) word &= (UINT64_C(1) << nbits) - 1;
  if (s == 0 && nbits == 64) {
    store_u64le(p, word);
    return;
  }
  int total = nbits + s; /* <= 71 */
  uint64_t lo = word << s;
  uint64_t hi = s ? word >> (64 - s) : 0;
  int n_bytes = (total + 7) >> 3;
  for (int b = 0; b < n_bytes; b++) {
    uint8_t v = (uint8_t)(b < 8 ? lo >> (8 * b) : hi);
    uint8_t keep = 0;
    if (b == 0) keep = (uint8_t)((1u << s) - 1);
    if (b == n_bytes - 1 && (total & 7)) keep = (uint8_t)(keep | (0xFFu << (total & 7)));
    p[b] = (uint8_t)((p[b] & keep) | (v & ~keep));
  }
}

void pqt_levels_put_bits(uint8_t *bm, int64_t pos, uint64_t word, int nbits) { put_bits_inline(bm, pos, word, nbits); }

/* Append the low k (0..64) bits of bits. */
PQT_LVK_INLINE void bw_put_n(pqt_bit_writer *w, uint64_t bits, int k) {
  if (k == 0) return;
  if (k < 64) bits &= (UINT64_C(1) << k) - 1;
  int n = w->n;
  w->word |= bits << n;
  if (n + k >= 64) {
    if (w->bm) put_bits_inline(w->bm, w->pos, w->word, 64);
    w->pos += 64;
    w->word = n ? bits >> (64 - n) : 0;
    w->n = n + k - 64;
  } else {
    w->n = n + k;
  }
}

/* ---- 64 levels -> 64-bit masks ---------------------------------------- */

enum { LVK_LT = 0, LVK_GT = 1, LVK_EQ = 2 };

/* Bit j set iff p[j] OP t (signed), j in [0, 64). */
PQT_LVK_INLINE uint64_t cmp64(const int16_t *p, int op, int16_t t) {
#if PQT_LVK_SSE2
  const __m128i tv = _mm_set1_epi16(t);
  uint64_t m = 0;
  for (int k = 0; k < 4; k++) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k + 8));
    __m128i ca, cb;
    if (op == LVK_LT) {
      ca = _mm_cmpgt_epi16(tv, a);
      cb = _mm_cmpgt_epi16(tv, b);
    } else if (op == LVK_GT) {
      ca = _mm_cmpgt_epi16(a, tv);
      cb = _mm_cmpgt_epi16(b, tv);
    } else {
      ca = _mm_cmpeq_epi16(a, tv);
      cb = _mm_cmpeq_epi16(b, tv);
    }
    m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_packs_epi16(ca, cb)) << (16 * k);
  }
  return m;
#else
  /* portable: 0/1 bytes, 8 bytes -> 8 bits by one multiply */
  uint8_t tmp[64];
  for (int j = 0; j < 64; j++) tmp[j] = op == LVK_LT ? p[j] < t : op == LVK_GT ? p[j] > t : p[j] == t;
  uint64_t m = 0;
  for (int j = 0; j < 8; j++) {
    uint64_t b = 0;
    for (int i = 0; i < 8; i++) b |= (uint64_t)tmp[8 * j + i] << (8 * i);
    m |= ((b * UINT64_C(0x0102040810204080)) >> 56) << (8 * j);
  }
  return m;
#endif
}

/* Bits of v at the set positions of s, packed to the bottom (pext),
 * by runs of ones of s. */
PQT_LVK_INLINE uint64_t compact_runs(uint64_t v, uint64_t s) {
  uint64_t out = 0;
  int n = 0;
  while (s) {
    int t = __builtin_ctzll(s);
    s >>= t;
    v >>= t;
    uint64_t ns = ~s;
    if (!ns) return out | (v << n); /* ones to the top: n + 64 - t bits, t >= 0 */
    int len = __builtin_ctzll(ns);
    out |= (v & ((UINT64_C(1) << len) - 1)) << n;
    n += len;
    s >>= len;
    v >>= len;
  }
  return out;
}

PQT_LVK_INLINE int popcount_swar(uint64_t x) {
  x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
  return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* ---- the kernels, per ISA -------------------------------------------- */

#if defined(__POPCNT__)
#define KPOPCNT(x) __builtin_popcountll(x)
#else
#define KPOPCNT(x) popcount_swar(x)
#endif
#define KCOMPACT(v, s) compact_runs(v, s)
#define KATTR
#define KFN(name) name##_base
#include "levels/kernels_body.inc"
#undef KPOPCNT
#undef KCOMPACT
#undef KATTR
#undef KFN

#if PQT_LVK_X86
#define KPOPCNT(x)     __builtin_popcountll(x)
#define KCOMPACT(v, s) _pext_u64(v, s)
#define KATTR          __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define KFN(name)      name##_bmi2
#include "levels/kernels_body.inc"
#undef KPOPCNT
#undef KCOMPACT
#undef KATTR
#undef KFN
#endif

pqt_levels_isa pqt_levels_best_isa(void) {
#if PQT_LVK_X86
  /* pext is microcoded (slow) on AMD Zen 1/2: core/cpu.c leaves those out. */
  if (pqt_cpu_has(PQT_CPU_AVX2_BMI2)) return PQT_LEVELS_ISA_BMI2;
#endif
  return PQT_LEVELS_ISA_BASE;
}

static pqt_levels_isa resolve(pqt_levels_isa isa) {
  if (isa == PQT_LEVELS_ISA_BEST) return pqt_levels_best_isa();
#if PQT_LVK_X86
  if (isa == PQT_LEVELS_ISA_BMI2 && pqt_levels_best_isa() != PQT_LEVELS_ISA_BMI2) return PQT_LEVELS_ISA_BASE;
  return isa;
#else
  return isa == PQT_LEVELS_ISA_BMI2 ? PQT_LEVELS_ISA_BASE : isa;
#endif
}

#if PQT_LVK_X86
#define DISPATCH(isa, name, ...) \
  (resolve(isa) == PQT_LEVELS_ISA_BMI2 ? name##_bmi2(__VA_ARGS__) : name##_base(__VA_ARGS__))
#else
#define DISPATCH(isa, name, ...) name##_base(__VA_ARGS__)
#endif

int64_t pqt_lvk_struct_rep(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                           pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls) {
  if (isa == PQT_LEVELS_ISA_SCALAR) return 0;
  return DISPATCH(isa, struct_rep, def, rep, n, info, w, slot_capacity, s, nulls);
}

int64_t pqt_lvk_list32(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                       int32_t *offsets, pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls,
                       int32_t *cur) {
  if (isa == PQT_LEVELS_ISA_SCALAR) return 0;
  int64_t c = *cur;
  int64_t done = DISPATCH(isa, list32, def, rep, n, info, offsets, w, slot_capacity, s, nulls, &c);
  *cur = (int32_t)c;
  return done;
}

int64_t pqt_lvk_list64(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                       int64_t *offsets, pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls,
                       int64_t *cur) {
  if (isa == PQT_LEVELS_ISA_SCALAR) return 0;
  return DISPATCH(isa, list64, def, rep, n, info, offsets, w, slot_capacity, s, nulls, cur);
}

int64_t pqt_lvk_ge_bitmap(pqt_levels_isa isa, const int16_t *def, int64_t n, int16_t thr, int16_t umax, uint8_t *valid,
                          int64_t valid_offset, int64_t *n_valid) {
  if (isa == PQT_LEVELS_ISA_SCALAR) return 0;
  return DISPATCH(isa, ge_bitmap, def, n, thr, umax, valid, valid_offset, n_valid);
}

bool pqt_lvk_validate(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def,
                      int16_t max_rep, const int16_t *repeated_def, int16_t prev_def) {
  if (isa == PQT_LEVELS_ISA_SCALAR || max_rep < 1 || max_rep > PQT_LVK_MAX_REP) return false;
  return DISPATCH(isa, validate, def, rep, n, max_def, max_rep, repeated_def, prev_def);
}

int64_t pqt_levels_find_nth(const int16_t *levels, int64_t n, int16_t v, int64_t nth, int64_t *before) {
  int64_t b = 0;
  int64_t at = n <= 0 ? 0 : nth < 0 ? 0 : DISPATCH(PQT_LEVELS_ISA_BEST, find_nth, levels, n, v, nth, &b);
  if (before) *before = n <= 0 || nth < 0 ? 0 : b;
  return at;
}

int64_t pqt_levels_count_eq(const int16_t *levels, int64_t n, int16_t v) {
  int64_t c = 0;
  pqt_levels_find_nth(levels, n, v, INT64_MAX, &c);
  return c;
}
