/*
 * levels/reassemble.c: record assembly from levels (spec "Nested Encoding",
 * parquet-format README.md; Dremel). Def/rep level streams -> per-node validity bitmaps,
 * list offsets, and dense values spread into their slots. See levels.h for
 * the slot and element predicates.
 */
#include "core/core.h"
#include "levels/levels.h"
#include "levels/levels_kernels.h"

/* ---- bit output ------------------------------------------------------ */

typedef pqt_bit_writer bit_writer;

static inline void bw_put(bit_writer *w, bool bit) {
  w->word |= (uint64_t)bit << w->n;
  if (++w->n == 64) {
    if (w->bm) pqt_levels_put_bits(w->bm, w->pos, w->word, 64);
    w->pos += 64;
    w->word = 0;
    w->n = 0;
  }
}

static inline void bw_finish(bit_writer *w) {
  if (w->n && w->bm) pqt_levels_put_bits(w->bm, w->pos, w->word, w->n);
}

static inline bool get_bit(const uint8_t *bm, int64_t i) { return (bm[i >> 3] >> (i & 7)) & 1; }

/* ---- flat optional column ------------------------------------------- */

/* valid bit i = def[i] >= thr, for def[i] in [0, umax] (else PQT_ECORRUPT).
 * Whole blocks of 64 by the block kernel, then the scalar loop. */
static pqt_status ge_bitmap(const int16_t *def, int64_t n, int16_t thr, uint16_t umax, uint8_t *valid,
                            int64_t valid_offset, int64_t *n_valid_out, pqt_error *err, pqt_levels_isa isa) {
  int64_t n_valid = 0;
  int64_t i = pqt_lvk_ge_bitmap(isa, def, n, thr, (int16_t)umax, valid, valid_offset, &n_valid);
  /* The tail, or the block holding a bad level (then reported exactly). */
  for (; i < n; i += 64) {
    int64_t m = n - i < 64 ? n - i : 64;
    uint64_t w = 0;
    for (int64_t j = 0; j < m; j++) {
      int16_t d = def[i + j];
      PQT_CHECK_CORRUPT((uint16_t)d <= umax, err, "definition level %d at entry %lld is out of range [0, %u]", (int)d,
                        (long long)(i + j), (unsigned)umax);
      w |= (uint64_t)(d >= thr) << j;
    }
    n_valid += __builtin_popcountll(w);
    pqt_levels_put_bits(valid, valid_offset + i, w, (int)m);
  }
  *n_valid_out = n_valid;
  return PQT_OK;
}

pqt_status pqt_levels_def_to_bitmap(const int16_t *def, int64_t n, int16_t max_def, uint8_t *valid,
                                    int64_t valid_offset, int64_t *null_count, pqt_error *err) {
  return pqt_levels_def_to_bitmap_isa(def, n, max_def, valid, valid_offset, null_count, err, PQT_LEVELS_ISA_BEST);
}

pqt_status pqt_levels_def_to_bitmap_isa(const int16_t *def, int64_t n, int16_t max_def, uint8_t *valid,
                                        int64_t valid_offset, int64_t *null_count, pqt_error *err, pqt_levels_isa isa) {
  if (n < 0 || valid_offset < 0 || !valid || max_def < 0)
    return pqt_error_set(err, PQT_EINVAL, "levels: bad def_to_bitmap arguments");
  int64_t n_valid = n;
  if (!def) {
    for (int64_t i = 0; i < n; i += 64) {
      int nb = n - i < 64 ? (int)(n - i) : 64;
      pqt_levels_put_bits(valid, valid_offset + i, ~UINT64_C(0), nb);
    }
  } else {
    /* def <= max_def is checked, so def >= max_def means def == max_def. */
    PQT_RETURN_NOT_OK(ge_bitmap(def, n, max_def, (uint16_t)max_def, valid, valid_offset, &n_valid, err, isa));
  }
  if (null_count) *null_count = n - n_valid;
  return PQT_OK;
}

/* ---- struct / leaf slots --------------------------------------------- */

pqt_status pqt_levels_to_struct_bitmap(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                       uint8_t *valid, int64_t valid_offset, int64_t slot_capacity, int64_t *n_slots,
                                       int64_t *null_count, pqt_error *err) {
  return pqt_levels_to_struct_bitmap_isa(def, rep, n, info, valid, valid_offset, slot_capacity, n_slots, null_count,
                                         err, PQT_LEVELS_ISA_BEST);
}

pqt_status pqt_levels_to_struct_bitmap_isa(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                           uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                           int64_t *n_slots, int64_t *null_count, pqt_error *err, pqt_levels_isa isa) {
  if (n < 0 || valid_offset < 0 || slot_capacity < 0 || !n_slots)
    return pqt_error_set(err, PQT_EINVAL, "levels: bad struct_bitmap arguments");
  const int16_t rad = info.repeated_ancestor_def_level, rl = info.rep_level, dl = info.def_level;
  if (rep && n > 0) PQT_CHECK_CORRUPT(rep[0] == 0, err, "level batch does not start a record (rep %d)", (int)rep[0]);
  if (!rep && def && rad <= 0 && valid) {
    /* No repetition: every entry is a slot; word-at-a-time kernel. */
    PQT_CHECK_CORRUPT(n <= slot_capacity, err, "more than %lld slots in level batch", (long long)slot_capacity);
    int64_t n_valid = 0;
    PQT_RETURN_NOT_OK(ge_bitmap(def, n, dl, INT16_MAX, valid, valid_offset, &n_valid, err, isa));
    *n_slots = n;
    if (null_count) *null_count = n - n_valid;
    return PQT_OK;
  }
  bit_writer w = {valid, valid_offset, 0, 0};
  int64_t s = 0, nulls = 0;
  if (!def) {
    /* No def levels: everything is defined. */
    for (int64_t i = 0; i < n; i++) {
      if (rep && rep[i] > rl) continue;
      PQT_CHECK_CORRUPT(s < slot_capacity, err, "more than %lld slots in level batch", (long long)slot_capacity);
      bw_put(&w, 1);
      s++;
    }
  } else if (!rep) {
    for (int64_t i = 0; i < n; i++) {
      int16_t d = def[i];
      if (d < rad) continue;
      PQT_CHECK_CORRUPT(s < slot_capacity, err, "more than %lld slots in level batch", (long long)slot_capacity);
      bool v = d >= dl;
      nulls += !v;
      bw_put(&w, v);
      s++;
    }
  } else {
    /* Whole blocks of 64 first; the scalar loop finishes (and reports). */
    for (int64_t i = pqt_lvk_struct_rep(isa, def, rep, n, info, &w, slot_capacity, &s, &nulls); i < n; i++) {
      int16_t d = def[i];
      if (d < rad || rep[i] > rl) continue;
      PQT_CHECK_CORRUPT(s < slot_capacity, err, "more than %lld slots in level batch", (long long)slot_capacity);
      bool v = d >= dl;
      nulls += !v;
      bw_put(&w, v);
      s++;
    }
  }
  bw_finish(&w);
  *n_slots = s;
  if (null_count) *null_count = nulls;
  return PQT_OK;
}

/* ---- list slots ------------------------------------------------------ */

#define PQT_DEFINE_TO_LIST(NAME, T, T_MAX, KERNEL)                                                                    \
  pqt_status NAME(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info, T *offsets, uint8_t *valid, \
                  int64_t valid_offset, int64_t slot_capacity, int64_t *n_slots, int64_t *null_count,                 \
                  pqt_error *err) {                                                                                   \
    return NAME##_isa(def, rep, n, info, offsets, valid, valid_offset, slot_capacity, n_slots, null_count, err,       \
                      PQT_LEVELS_ISA_BEST);                                                                           \
  }                                                                                                                   \
  pqt_status NAME##_isa(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info, T *offsets,           \
                        uint8_t *valid, int64_t valid_offset, int64_t slot_capacity, int64_t *n_slots,                \
                        int64_t *null_count, pqt_error *err, pqt_levels_isa isa) {                                    \
    if (n < 0 || valid_offset < 0 || slot_capacity < 0 || !offsets || !n_slots || (n > 0 && (!rep || !def)))          \
      return pqt_error_set(err, PQT_EINVAL, "levels: bad to_list arguments");                                         \
    const int16_t rad = info.repeated_ancestor_def_level, rl = info.rep_level, dl = info.def_level;                   \
    if (n > 0) PQT_CHECK_CORRUPT(rep[0] == 0, err, "level batch does not start a record (rep %d)", (int)rep[0]);      \
    bit_writer w = {valid, valid_offset, 0, 0};                                                                       \
    int64_t s = 0, nulls = 0;                                                                                         \
    T cur = offsets[0];                                                                                               \
    PQT_CHECK_CORRUPT(cur >= 0, err, "negative base list offset");                                                    \
    int64_t i = 0;                                                                                                    \
    /* Blocks of 64 when no offset can overflow; the scalar loop finishes. */                                         \
    if (n > 0 && n <= (int64_t)(T_MAX - cur))                                                                         \
      i = KERNEL(isa, def, rep, n, info, offsets, &w, slot_capacity, &s, &nulls, &cur);                               \
    for (; i < n; i++) {                                                                                              \
      int16_t d = def[i];                                                                                             \
      int16_t r = rep[i];                                                                                             \
      if (r <= rl) {                                                                                                  \
        if (d < rad) continue; /* empty or null ancestor list */                                                      \
        PQT_CHECK_CORRUPT(s < slot_capacity, err, "more than %lld lists in level batch", (long long)slot_capacity);   \
        bool v = d >= dl;                                                                                             \
        nulls += !v;                                                                                                  \
        bw_put(&w, v);                                                                                                \
        s++;                                                                                                          \
      } else if (r == rl + 1) {                                                                                       \
        PQT_CHECK_CORRUPT(s > 0, err, "entry %lld continues a list that is not open", (long long)i);                  \
      } else {                                                                                                        \
        continue; /* continues a deeper list */                                                                       \
      }                                                                                                               \
      if (d > dl) {                                                                                                   \
        if (PQT_UNLIKELY(cur == T_MAX)) return pqt_error_set(err, PQT_ELIMIT, "list offsets overflow " #T);           \
        cur++;                                                                                                        \
      }                                                                                                               \
      offsets[s] = cur;                                                                                               \
    }                                                                                                                 \
    bw_finish(&w);                                                                                                    \
    *n_slots = s;                                                                                                     \
    if (null_count) *null_count = nulls;                                                                              \
    return PQT_OK;                                                                                                    \
  }

PQT_DEFINE_TO_LIST(pqt_levels_to_list32, int32_t, INT32_MAX, pqt_lvk_list32)
PQT_DEFINE_TO_LIST(pqt_levels_to_list64, int64_t, INT64_MAX, pqt_lvk_list64)

/* ---- spreading dense values into slots ------------------------------- */

/* Set bits of a 64-bit word (SWAR: no popcnt instruction in the baseline
 * ISA, and __builtin_popcount would call libgcc). */
static inline int64_t popcount64(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (int64_t)((x * 0x0101010101010101ull) >> 56);
}

static int64_t count_valid(const uint8_t *valid, int64_t off, int64_t n) {
  int64_t c = 0, i = 0;
  while (i < n && ((off + i) & 7)) c += get_bit(valid, off + i++);
  for (; i + 64 <= n; i += 64) c += popcount64(pqt_load_u64le(valid + ((off + i) >> 3)));
  for (; i + 8 <= n; i += 8) c += popcount64(valid[(off + i) >> 3]);
  for (; i < n; i++) c += get_bit(valid, off + i);
  return c;
}

pqt_status pqt_levels_spread_fixed(uint8_t *out, const uint8_t *dense, int64_t n_dense, int32_t width,
                                   const uint8_t *valid, int64_t valid_offset, int64_t n_slots, pqt_error *err) {
  if (!out || width <= 0 || n_dense < 0 || n_slots < 0 || valid_offset < 0 || (n_dense > 0 && !dense))
    return pqt_error_set(err, PQT_EINVAL, "levels: bad spread arguments");
  const size_t w = (size_t)width;
  if (!valid) {
    PQT_CHECK_CORRUPT(n_dense == n_slots, err, "%lld values for %lld slots", (long long)n_dense, (long long)n_slots);
    if (out != dense && n_slots) memcpy(out, dense, (size_t)n_slots * w);
    return PQT_OK;
  }
  int64_t nv = count_valid(valid, valid_offset, n_slots);
  PQT_CHECK_CORRUPT(nv == n_dense, err, "%lld values but the levels define %lld", (long long)n_dense, (long long)nv);
  if (out != dense && n_dense > 0 && (w == 8 || w == 4)) {
    /* Separate buffers, the common widths: front to back without
     * branches (the read index is clamped so that null slots past the
     * last value never read beyond it). */
    int64_t j = 0;
    if (w == 8) {
      for (int64_t i = 0; i < n_slots; i++) {
        uint64_t v;
        memcpy(&v, dense + (size_t)(j < n_dense ? j : n_dense - 1) * 8, 8);
        uint64_t b = get_bit(valid, valid_offset + i);
        v &= (uint64_t)0 - b;
        memcpy(out + (size_t)i * 8, &v, 8);
        j += (int64_t)b;
      }
    } else {
      for (int64_t i = 0; i < n_slots; i++) {
        uint32_t v;
        memcpy(&v, dense + (size_t)(j < n_dense ? j : n_dense - 1) * 4, 4);
        uint32_t b = get_bit(valid, valid_offset + i);
        v &= (uint32_t)0 - b;
        memcpy(out + (size_t)i * 4, &v, 4);
        j += (int64_t)b;
      }
    }
    return PQT_OK;
  }
  /* Back to front: slot i >= dense index j, so in place never clobbers. */
  int64_t j = n_dense;
  for (int64_t i = n_slots - 1; i >= 0 && i >= j; i--) {
    uint8_t *dst = out + (size_t)i * w;
    if (get_bit(valid, valid_offset + i)) {
      j--;
      memmove(dst, dense + (size_t)j * w, w);
    } else {
      memset(dst, 0, w);
    }
  }
  /* The loop stops once slots [0, j) are all valid: in place they already
   * hold their values; otherwise copy them. */
  if (out != dense && j > 0) memcpy(out, dense, (size_t)j * w);
  return PQT_OK;
}

#define PQT_DEFINE_SPREAD_OFFSETS(NAME, T)                                                              \
  pqt_status NAME(T *out, const T *dense, int64_t n_dense, const uint8_t *valid, int64_t valid_offset,  \
                  int64_t n_slots, pqt_error *err) {                                                    \
    if (!out || !dense || n_dense < 0 || n_slots < 0 || valid_offset < 0)                               \
      return pqt_error_set(err, PQT_EINVAL, "levels: bad spread arguments");                            \
    int64_t nv = valid ? count_valid(valid, valid_offset, n_slots) : n_slots;                           \
    PQT_CHECK_CORRUPT(nv == n_dense, err, "%lld values but the levels define %lld", (long long)n_dense, \
                      (long long)nv);                                                                   \
    /* out[i+1] = dense[#valid in [0, i]]; back to front reads dense[j], j <= i+1. */                   \
    int64_t j = n_dense;                                                                                \
    for (int64_t i = n_slots - 1; i >= 0; i--) {                                                        \
      out[i + 1] = dense[j];                                                                            \
      if (!valid || get_bit(valid, valid_offset + i)) j--;                                              \
    }                                                                                                   \
    out[0] = dense[0];                                                                                  \
    return PQT_OK;                                                                                      \
  }

PQT_DEFINE_SPREAD_OFFSETS(pqt_levels_spread_offsets32, int32_t)
PQT_DEFINE_SPREAD_OFFSETS(pqt_levels_spread_offsets64, int64_t)
