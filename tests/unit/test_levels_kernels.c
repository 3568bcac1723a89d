/* Differential tests of the level block kernels (src/levels/kernels.c):
 * every level function of levels.h run with the scalar loops only, with
 * the baseline block kernels and with the AVX2/BMI2 ones (when the CPU has
 * them) must agree on status, error message and every output byte, on
 * random valid streams, corrupted ones, batch lengths around the 64-entry
 * block boundaries, bitmap offsets, tight capacities and list offsets near
 * the int32 limit (where the block kernel must step aside). */
#include "core/core.h"
#include "harness.h"
#include "rng.h"
#include "levels/levels.h"
#include "levels/levels_kernels.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint32_t rnd(uint32_t m) {
  pqt_test_xorshift(&rng_state);
  return m ? (uint32_t)(rng_state % m) : 0;
}

#define MAXL  1200
#define N_ISA 3
static const pqt_levels_isa isas[N_ISA] = {PQT_LEVELS_ISA_SCALAR, PQT_LEVELS_ISA_BASE, PQT_LEVELS_ISA_BMI2};

typedef struct stream {
  int16_t def[MAXL], rep[MAXL];
  int64_t n;
  int16_t max_def, max_rep, rd[16];
} stream;

/* A random path: max_rep repeated nodes at increasing def levels. */
static void random_path(stream *s) {
  s->max_rep = (int16_t)(1 + (rnd(4) == 0 ? rnd(10) : rnd(2)));
  int16_t d = 0;
  for (int r = 0; r < s->max_rep; r++) {
    d = (int16_t)(d + 1 + (int16_t)rnd(2)); /* the list may be optional */
    s->rd[r] = d;
  }
  s->max_def = (int16_t)(d + (int16_t)rnd(2));
}

/* Valid levels: records of nested lists, with a style: random, long runs
 * of full entries, or all records alike. */
static void random_levels(stream *s, int64_t n) {
  int style = (int)rnd(3);
  int64_t i = 0;
  int16_t open = 0; /* depth of lists open at the previous entry */
  while (i < n) {
    int16_t r, d;
    if (i == 0 || rnd(3) == 0 || open == 0) r = 0;
    else r = (int16_t)(1 + rnd((uint32_t)open));
    if (style == 1 && i > 0 && rnd(8) != 0) {
      r = open ? (int16_t)(open < s->max_rep ? open : s->max_rep) : 0;
      d = s->max_def;
    } else if (style == 2) {
      d = s->max_def;
      r = (i % 4 == 0 || open == 0) ? 0 : (int16_t)(open < s->max_rep ? open : s->max_rep);
    } else {
      /* def must keep lists 1..r open */
      int16_t lo = r > 0 ? s->rd[r - 1] : 0;
      d = (int16_t)(lo + (int16_t)rnd((uint32_t)(s->max_def - lo + 1)));
    }
    s->def[i] = d;
    s->rep[i] = r;
    open = 0;
    while (open < s->max_rep && d >= s->rd[open]) open++;
    i++;
  }
  s->n = n;
}

static void corrupt(stream *s) {
  int k = (int)rnd(4);
  for (int j = 0; j < k && s->n > 0; j++) {
    int64_t i = rnd((uint32_t)s->n);
    switch (rnd(6)) {
      case 0: s->def[i] = (int16_t)(s->max_def + 1 + (int16_t)rnd(3)); break;
      case 1: s->def[i] = (int16_t)-1 - (int16_t)rnd(3); break;
      case 2: s->rep[i] = (int16_t)(s->max_rep + 1); break;
      case 3: s->rep[i] = -1; break;
      case 4: s->rep[i] = (int16_t)(1 + rnd((uint32_t)s->max_rep)); break;
      default: s->def[i] = (int16_t)rnd((uint32_t)s->max_def + 1); break;
    }
  }
}

static int64_t random_len(void) {
  static const int64_t edges[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256};
  if (rnd(2)) return edges[rnd(sizeof edges / sizeof *edges)];
  return rnd(MAXL + 1);
}

static pqt_level_info random_info(const stream *s) {
  pqt_level_info li;
  int16_t rl = (int16_t)rnd((uint32_t)s->max_rep + 1);
  li.rep_level = rl;
  li.repeated_ancestor_def_level = rl ? s->rd[rl - 1] : 0;
  int16_t lo = li.repeated_ancestor_def_level;
  li.def_level = (int16_t)(lo + (int16_t)rnd((uint32_t)(s->max_def - lo + 1)));
  if (rnd(10) == 0) li.def_level = (int16_t)(rnd(5) - 1); /* odd infos are allowed too */
  if (rnd(10) == 0) li.repeated_ancestor_def_level = (int16_t)(rnd(5) - 1);
  return li;
}

typedef struct result {
  pqt_status st;
  char msg[sizeof(((pqt_error *)0)->message)];
  int64_t a, b;
  int16_t prev;
  uint8_t bits[MAXL / 8 + 16];
  int64_t offs[MAXL + 2];
} result;

static void check_same(const result *r, int isa, const char *what, int iter) {
  const result *x = &r[0], *y = &r[isa];
  CHECK_MSG(x->st == y->st, "%s iter %d isa %d: status %d vs %d", what, iter, isa, x->st, y->st);
  CHECK_MSG(strcmp(x->msg, y->msg) == 0, "%s iter %d isa %d: '%s' vs '%s'", what, iter, isa, x->msg, y->msg);
  CHECK_MSG(x->a == y->a && x->b == y->b && x->prev == y->prev,
            "%s iter %d isa %d: outputs %lld/%lld/%d vs %lld/%lld/%d", what, iter, isa, (long long)x->a,
            (long long)x->b, x->prev, (long long)y->a, (long long)y->b, y->prev);
  CHECK_MSG(memcmp(x->bits, y->bits, sizeof x->bits) == 0, "%s iter %d isa %d: bitmaps differ", what, iter, isa);
  CHECK_MSG(memcmp(x->offs, y->offs, sizeof x->offs) == 0, "%s iter %d isa %d: offsets differ", what, iter, isa);
}

static void prefill(result *r, uint8_t fill) {
  memset(r, 0, sizeof *r);
  memset(r->bits, fill, sizeof r->bits);
  memset(r->offs, fill, sizeof r->offs);
  r->a = r->b = -7;
}

static void test_differential(void) {
  static stream s;
  static result res[N_ISA];
  int n_iter = 4000;
  int corrupt_seen = 0, ok_seen = 0;
  for (int iter = 0; iter < n_iter; iter++) {
    random_path(&s);
    random_levels(&s, random_len());
    bool corrupted = rnd(3) == 0;
    if (corrupted) corrupt(&s);
    uint8_t fill = (uint8_t)rnd(256);
    int64_t voff = rnd(3) ? 0 : rnd(70);
    int16_t prev0 = rnd(4) ? -1 : (int16_t)rnd((uint32_t)s.max_def + 1);
    pqt_level_info li = random_info(&s);
    int64_t cap = rnd(4) ? s.n : rnd((uint32_t)s.n + 2);
    bool with_valid = rnd(8) != 0;
    /* validate */
    for (int k = 0; k < N_ISA; k++) {
      result *r = &res[k];
      prefill(r, fill);
      pqt_error e;
      pqt_error_init(&e);
      r->prev = prev0;
      r->st = pqt_levels_validate_isa(s.def, s.rep, s.n, s.max_def, s.max_rep, s.rd, &r->prev, &e, isas[k]);
      snprintf(r->msg, sizeof r->msg, "%s", r->st ? e.message : "");
      if (k) check_same(res, k, "validate", iter);
    }
    if (res[0].st == PQT_OK) ok_seen++;
    else corrupt_seen++;
    /* struct slots: with rep, and flat (rep NULL) */
    for (int flat = 0; flat < 2; flat++) {
      for (int k = 0; k < N_ISA; k++) {
        result *r = &res[k];
        prefill(r, fill);
        pqt_error e;
        pqt_error_init(&e);
        pqt_level_info fl = li;
        if (flat) fl.repeated_ancestor_def_level = (int16_t)(rnd(2) ? 0 : fl.repeated_ancestor_def_level);
        r->st = pqt_levels_to_struct_bitmap_isa(s.def, flat ? NULL : s.rep, s.n, li, with_valid ? r->bits : NULL, voff,
                                                cap, &r->a, &r->b, &e, isas[k]);
        snprintf(r->msg, sizeof r->msg, "%s", r->st ? e.message : "");
        if (k) check_same(res, k, flat ? "struct flat" : "struct rep", iter);
      }
    }
    /* flat def -> bitmap */
    for (int k = 0; k < N_ISA; k++) {
      result *r = &res[k];
      prefill(r, fill);
      pqt_error e;
      pqt_error_init(&e);
      r->st = pqt_levels_def_to_bitmap_isa(s.def, s.n, s.max_def, r->bits, voff, &r->b, &e, isas[k]);
      snprintf(r->msg, sizeof r->msg, "%s", r->st ? e.message : "");
      if (k) check_same(res, k, "def_to_bitmap", iter);
    }
    /* list slots, 32 and 64 bit offsets; a base near INT32_MAX sometimes */
    int64_t base = rnd(3) ? (int64_t)rnd(1000) : (int64_t)INT32_MAX - (int64_t)rnd(2 * MAXL);
    for (int wide = 0; wide < 2; wide++) {
      for (int k = 0; k < N_ISA; k++) {
        result *r = &res[k];
        prefill(r, fill);
        pqt_error e;
        pqt_error_init(&e);
        if (wide) {
          r->offs[0] = base;
          r->st = pqt_levels_to_list64_isa(s.def, s.rep, s.n, li, r->offs, with_valid ? r->bits : NULL, voff, cap,
                                           &r->a, &r->b, &e, isas[k]);
        } else {
          int32_t *o = (int32_t *)(void *)r->offs;
          o[0] = (int32_t)base;
          r->st = pqt_levels_to_list32_isa(s.def, s.rep, s.n, li, o, with_valid ? r->bits : NULL, voff, cap, &r->a,
                                           &r->b, &e, isas[k]);
        }
        snprintf(r->msg, sizeof r->msg, "%s", r->st ? e.message : "");
        if (k) check_same(res, k, wide ? "list64" : "list32", iter);
      }
    }
  }
  CHECK(ok_seen > n_iter / 4);
  CHECK(corrupt_seen > n_iter / 20);
}

/* Hand-made boundaries of the block kernels. */
static void test_kernel_boundaries(void) {
  static int16_t def[256], rep[256];
  const int16_t rd[1] = {2};
  pqt_error e;
  /* validate, max_rep 1: a bad continuation at each position around the
   * block edges is found by every ISA, including across the carry. */
  for (int isa = 0; isa < N_ISA; isa++) {
    for (int pos = 1; pos < 200; pos++) {
      for (int i = 0; i < 256; i++) def[i] = 3, rep[i] = (int16_t)(i % 3 != 0);
      rep[pos] = 1;
      rep[pos - 1] = 0;
      def[pos - 1] = 1; /* the list before is empty: continuation not open */
      int16_t prev = -1;
      pqt_error_init(&e);
      CHECK_EQ_INT(pqt_levels_validate_isa(def, rep, 256, 3, 1, rd, &prev, &e, isas[isa]), PQT_ECORRUPT);
      char want[32];
      snprintf(want, sizeof want, "entry %d:", pos);
      CHECK_MSG(strstr(e.message, want) != NULL, "isa %d pos %d: %s", isa, pos, e.message);
    }
    /* prev_def carried in: a batch continuing a closed list fails, an
     * open one passes. */
    for (int i = 0; i < 256; i++) def[i] = 3, rep[i] = 1;
    int16_t prev = 1;
    CHECK_EQ_INT(pqt_levels_validate_isa(def, rep, 100, 3, 1, rd, &prev, NULL, isas[isa]), PQT_ECORRUPT);
    prev = 2;
    CHECK_OK(pqt_levels_validate_isa(def, rep, 100, 3, 1, rd, &prev, NULL, isas[isa]));
    CHECK_EQ_INT(prev, 3);
    prev = -1;
    CHECK_EQ_INT(pqt_levels_validate_isa(def, rep, 100, 3, 1, rd, &prev, NULL, isas[isa]), PQT_ECORRUPT);
  }
  /* list32: the element count reaches INT32_MAX exactly (ok) or one past
   * it (PQT_ELIMIT), with the block kernel eligible or not. */
  for (int isa = 0; isa < N_ISA; isa++) {
    for (int i = 0; i < 256; i++) def[i] = 2, rep[i] = i ? 1 : 0;
    pqt_level_info li = {1, 0, 0};
    int32_t offs[3];
    uint8_t bits[1];
    int64_t ns, nulls;
    offs[0] = INT32_MAX - 256;
    CHECK_OK(pqt_levels_to_list32_isa(def, rep, 256, li, offs, bits, 0, 2, &ns, &nulls, NULL, isas[isa]));
    CHECK_EQ_INT(ns, 1);
    CHECK_EQ_INT(offs[1], INT32_MAX);
    offs[0] = INT32_MAX - 255;
    CHECK_EQ_INT(pqt_levels_to_list32_isa(def, rep, 256, li, offs, bits, 0, 2, &ns, &nulls, NULL, isas[isa]),
                 PQT_ELIMIT);
    /* a continuation before any slot (entry 0 is no slot: def < rad) */
    pqt_level_info inner = {3, 1, 2};
    for (int i = 0; i < 256; i++) def[i] = 4, rep[i] = 2;
    def[0] = 1, rep[0] = 0;
    offs[0] = 0;
    pqt_error_init(&e);
    CHECK_EQ_INT(pqt_levels_to_list32_isa(def, rep, 256, inner, offs, bits, 0, 2, &ns, &nulls, &e, isas[isa]),
                 PQT_ECORRUPT);
    CHECK(strstr(e.message, "entry 1 ") != NULL);
  }
}

RUN_TESTS("levels_kernels", TEST_CASE(test_differential), TEST_CASE(test_kernel_boundaries))
