/*
 * levels/levels_kernels.h (internal): the 64-entries-at-a-time block kernels
 * behind the level functions of levels.h, and ISA selection.
 *
 * A block kernel turns 64 def/rep levels into 64-bit masks (SSE2 compares
 * on x86-64, a portable loop elsewhere), then works on the masks: slot
 * bits are compacted (pext, or runs of ones) and appended to the bitmap,
 * list offsets are written once per slot. It processes whole blocks from
 * the start and stops before any block holding something unusual (an
 * error to report, a capacity limit); the caller's scalar loop then
 * finishes from there, so results and errors are those of the scalar loop.
 *
 * ISA levels: the block kernels exist twice, for baseline x86-64 and for
 * AVX2+BMI2+POPCNT (target attribute), chosen per call from the CPU
 * (__builtin_cpu_supports; no global state of our own). Tests force a
 * level with the *_isa entry points to cover every path.
 */
#ifndef PQT_LEVELS_KERNELS_H
#define PQT_LEVELS_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

#include "levels/levels.h"

typedef enum pqt_levels_isa {
  PQT_LEVELS_ISA_SCALAR = 0, /* scalar loops only (reference) */
  PQT_LEVELS_ISA_BASE = 1,   /* block kernels, baseline ISA */
  PQT_LEVELS_ISA_BMI2 = 2,   /* block kernels, AVX2 + BMI2 + POPCNT */
  PQT_LEVELS_ISA_BEST = 3    /* the best one this CPU runs */
} pqt_levels_isa;

/* The ISA level PQT_LEVELS_ISA_BEST resolves to on this CPU. */
pqt_levels_isa pqt_levels_best_isa(void);

/* LSB-first bitmap writer: 64 bits are gathered in word, then stored at
 * bit position pos of bm (NULL: discard), preserving other bits. */
typedef struct pqt_bit_writer {
  uint8_t *bm;
  int64_t pos;
  uint64_t word;
  int n; /* bits in word, < 64 */
} pqt_bit_writer;

/* Write the low nbits (1..64) of word at bit position pos of bm, LSB-first,
 * preserving every other bit. */
void pqt_levels_put_bits(uint8_t *bm, int64_t pos, uint64_t word, int nbits);

/* Struct/leaf slots with rep levels (def and rep non-NULL). Consumes whole
 * 64-entry blocks from entry 0; returns the number of entries consumed
 * (a multiple of 64). *s, *nulls: slots and nulls so far. */
int64_t pqt_lvk_struct_rep(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                           pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls);

/* List slots (def and rep non-NULL), continuing from *s slots and list end
 * *cur; needs *cur + n to fit the offset type (the caller checks). On
 * return, if *s > 0, offsets[*s] holds *cur. */
int64_t pqt_lvk_list32(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                       int32_t *offsets, pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls,
                       int32_t *cur);
int64_t pqt_lvk_list64(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                       int64_t *offsets, pqt_bit_writer *w, int64_t slot_capacity, int64_t *s, int64_t *nulls,
                       int64_t *cur);

/* valid bit i = def[i] >= thr, for def[i] in [0, umax]: whole blocks up to
 * the first block holding a def outside [0, umax]; returns entries done. */
int64_t pqt_lvk_ge_bitmap(pqt_levels_isa isa, const int16_t *def, int64_t n, int16_t thr, int16_t umax, uint8_t *valid,
                          int64_t valid_offset, int64_t *n_valid);

/* pqt_levels_validate's checks for def and rep non-NULL and
 * 1 <= max_rep <= PQT_LVK_MAX_REP, all of [0, n) including the tail: true
 * if every entry passes (then the scalar check would pass too), false if
 * any may fail (the caller then runs the scalar check to report it). */
#define PQT_LVK_MAX_REP 8
bool pqt_lvk_validate(pqt_levels_isa isa, const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def,
                      int16_t max_rep, const int16_t *repeated_def, int16_t prev_def);

/* Entry points of levels.h with a forced ISA level (for tests/benches). */
pqt_status pqt_levels_validate_isa(const int16_t *def, const int16_t *rep, int64_t n, int16_t max_def, int16_t max_rep,
                                   const int16_t *repeated_def, int16_t *prev_def, pqt_error *err, pqt_levels_isa isa);
pqt_status pqt_levels_def_to_bitmap_isa(const int16_t *def, int64_t n, int16_t max_def, uint8_t *valid,
                                        int64_t valid_offset, int64_t *null_count, pqt_error *err, pqt_levels_isa isa);
pqt_status pqt_levels_to_struct_bitmap_isa(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                           uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                           int64_t *n_slots, int64_t *null_count, pqt_error *err, pqt_levels_isa isa);
pqt_status pqt_levels_to_list32_isa(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                    int32_t *offsets, uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                    int64_t *n_slots, int64_t *null_count, pqt_error *err, pqt_levels_isa isa);
pqt_status pqt_levels_to_list64_isa(const int16_t *def, const int16_t *rep, int64_t n, pqt_level_info info,
                                    int64_t *offsets, uint8_t *valid, int64_t valid_offset, int64_t slot_capacity,
                                    int64_t *n_slots, int64_t *null_count, pqt_error *err, pqt_levels_isa isa);

#endif /* PQT_LEVELS_KERNELS_H */
