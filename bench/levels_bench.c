/*
 * levels_bench: micro benchmark of the level kernels on synthetic columns
 * shaped like bench/data/nested_*.parquet (1M rows):
 *   l: optional list<optional int64>  (max_def 3, max_rep 1), ~10% null
 *      lists, ~10% empty lists, 1-4 elements, ~10% null elements;
 *   m: optional map<string, ...> key column (max_def 2, max_rep 1).
 * Prints the best time of each kernel over --repeat runs (default 20).
 * Usage: levels_bench [--rows N] [--repeat R] [--isa scalar|base|bmi2|best]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#include "core/core.h"
#include "encoding/rle.h"
#include "levels/levels.h"
#include "levels/levels_kernels.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t m) { return (uint32_t)(xorshift64(&rng) % m); }

typedef struct levels {
  int16_t *def, *rep;
  int64_t n;
  int16_t max_def, rdef;
} levels;

/* null_def: def of a null list; elem_def: def of a present element. */
static void gen(levels *lv, int64_t rows, int16_t max_def, int null_pct, int empty_pct, int max_len,
                int null_elem_pct) {
  int64_t cap = rows * (max_len > 0 ? max_len : 1) + 1;
  lv->def = malloc((size_t)cap * 2);
  lv->rep = malloc((size_t)cap * 2);
  lv->max_def = max_def;
  lv->rdef = (int16_t)(max_def == 3 ? 2 : 2);
  int64_t n = 0;
  for (int64_t r = 0; r < rows; r++) {
    uint32_t x = rnd(100);
    if ((int)x < null_pct) {
      lv->def[n] = 0, lv->rep[n++] = 0;
    } else if ((int)x < null_pct + empty_pct) {
      lv->def[n] = 1, lv->rep[n++] = 0;
    } else {
      int len = 1 + (int)rnd((uint32_t)max_len);
      for (int e = 0; e < len; e++) {
        int16_t d = max_def;
        if (max_def == 3 && (int)rnd(100) < null_elem_pct) d = 2;
        lv->def[n] = d;
        lv->rep[n++] = e ? 1 : 0;
      }
    }
  }
  lv->n = n;
}

#define BEST(label, n, expr)                                                                 \
  do {                                                                                       \
    double best = 1e9;                                                                       \
    for (int rr = 0; rr < repeat; rr++) {                                                    \
      double t0 = now();                                                                     \
      pqt_status st_ = (expr);                                                               \
      double t = now() - t0;                                                                 \
      if (st_ != PQT_OK) {                                                                   \
        fprintf(stderr, "%s failed: %s\n", label, err.message);                              \
        return 1;                                                                            \
      }                                                                                      \
      if (t < best) best = t;                                                                \
    }                                                                                        \
    printf("%-28s %8.3f ms  %6.2f ns/entry\n", label, best * 1e3, best * 1e9 / (double)(n)); \
  } while (0)

int main(int argc, char **argv) {
  int64_t rows = 1000000;
  int repeat = 20;
  pqt_levels_isa isa = PQT_LEVELS_ISA_BEST;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--rows")) rows = atoll(argv[i + 1]);
    else if (!strcmp(argv[i], "--repeat")) repeat = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--isa"))
      isa = !strcmp(argv[i + 1], "scalar") ? PQT_LEVELS_ISA_SCALAR
            : !strcmp(argv[i + 1], "base") ? PQT_LEVELS_ISA_BASE
            : !strcmp(argv[i + 1], "bmi2") ? PQT_LEVELS_ISA_BMI2
                                           : PQT_LEVELS_ISA_BEST;
  }
  pqt_error err;
  memset(&err, 0, sizeof err);
  levels l, m;
  gen(&l, rows, 3, 10, 10, 4, 10);
  gen(&m, rows, 2, 10, 5, 3, 0);
  printf("l: %lld entries, m: %lld entries\n", (long long)l.n, (long long)m.n);
  int64_t cap = l.n > m.n ? l.n : m.n;
  uint8_t *bits = malloc((size_t)cap / 8 + 16);
  int32_t *offs = malloc(((size_t)cap + 1) * 4);
  int16_t *out = malloc((size_t)cap * 2);
  int64_t ns, nulls;

  for (int k = 0; k < 2; k++) {
    levels *v = k ? &m : &l;
    const char *nm = k ? "m" : "l";
    char label[64];
    int16_t rd = v->rdef, prev;
    snprintf(label, sizeof label, "%s validate", nm);
    BEST(label, v->n, (prev = -1, pqt_levels_validate_isa(v->def, v->rep, v->n, v->max_def, 1, &rd, &prev, &err, isa)));
    pqt_level_info list_li = {1, 0, 0};
    snprintf(label, sizeof label, "%s to_list32", nm);
    BEST(label, v->n,
         (offs[0] = 0,
          pqt_levels_to_list32_isa(v->def, v->rep, v->n, list_li, offs, bits, 0, v->n, &ns, &nulls, &err, isa)));
    pqt_level_info leaf_li = {v->max_def, 1, 2};
    snprintf(label, sizeof label, "%s struct_bitmap(leaf)", nm);
    BEST(label, v->n,
         pqt_levels_to_struct_bitmap_isa(v->def, v->rep, v->n, leaf_li, bits, 0, v->n, &ns, &nulls, &err, isa));
    pqt_level_info cont_li = {2, 1, 2};
    snprintf(label, sizeof label, "%s struct_bitmap(elem)", nm);
    BEST(label, v->n,
         pqt_levels_to_struct_bitmap_isa(v->def, v->rep, v->n, cont_li, bits, 0, v->n, &ns, &nulls, &err, isa));
    pqt_level_info flat_li = {1, 0, 0};
    snprintf(label, sizeof label, "%s struct_bitmap(flat)", nm);
    BEST(label, v->n,
         pqt_levels_to_struct_bitmap_isa(v->def, NULL, v->n, flat_li, bits, 0, v->n, &ns, &nulls, &err, isa));
    /* RLE decode of the levels as an RLE/bit-packed hybrid stream */
    pqt_buf rb, db;
    pqt_buf_init(&rb, NULL);
    pqt_buf_init(&db, NULL);
    if (pqt_rle_encode_levels(v->rep, (size_t)v->n, 1, &rb, &err) != PQT_OK ||
        pqt_rle_encode_levels(v->def, (size_t)v->n, 2, &db, &err) != PQT_OK) {
      fprintf(stderr, "encode failed\n");
      return 1;
    }
    snprintf(label, sizeof label, "%s rle rep (w1)", nm);
    BEST(label, v->n, pqt_levels_decode_rle(rb.data, rb.len, 1, out, (size_t)v->n, 1, &err));
    snprintf(label, sizeof label, "%s rle def (w2)", nm);
    BEST(label, v->n, pqt_levels_decode_rle(db.data, db.len, 2, out, (size_t)v->n, v->max_def, &err));
    pqt_buf_free(&rb);
    pqt_buf_free(&db);
  }
  free(bits);
  free(offs);
  free(out);
  free(l.def), free(l.rep), free(m.def), free(m.rep);
  return 0;
}
