/*
 * The canonical float text (meta/value_format.c) is the shortest decimal
 * that reads back as the same value at the value's own precision. Checked
 * for every FLOAT16 bit pattern, every float32 and float64 power of two
 * (the binade edges, where the gap below is half the gap above) and a
 * large random sample of float32 and float64 bit patterns:
 *   - the text reads back to the same bits, correctly rounded at that
 *     precision (FLOAT16: against the value's rounding interval computed
 *     here from its neighbours, in long double; float: strtof; double:
 *     strtod), and
 *   - no decimal with fewer significant digits does (the nearest shorter
 *     decimals on both sides of the value are tried).
 */
#include <float.h>
#include <math.h>

#include "harness.h"
#include "rng.h"
#include "meta/value_format.h"

enum { K_DOUBLE = 0, K_FLOAT = 1, K_HALF = 2 };

static double half_value(uint16_t b) { return pqt_float16_to_double(b); }

/* Does the decimal text s read back, correctly rounded to a half, as the
 * positive finite half with bits b? The rounding interval runs between
 * the midpoints to the neighbours; a midpoint belongs to the neighbour
 * with the even significand (ties to even). */
static bool half_reads_back(const char *s, uint16_t b) {
  long double d = strtold(s, NULL);
  long double x = half_value(b);
  long double lo = b == 1 ? 0.0L : (x + half_value((uint16_t)(b - 1))) / 2;
  long double hi = b == 0x7BFF ? 65520.0L : (x + half_value((uint16_t)(b + 1))) / 2;
  if (b == 0) lo = 0;
  bool even = (b & 1) == 0;
  bool above_lo = even ? d >= lo : d > lo;
  bool below_hi = even ? d <= hi : d < hi;
  return above_lo && below_hi;
}

static bool reads_back(const char *s, int kind, double x, uint16_t hbits) {
  if (kind == K_DOUBLE) return strtod(s, NULL) == x;
  if (kind == K_FLOAT) {
    float f = strtof(s, NULL), g = (float)x;
    return memcmp(&f, &g, sizeof f) == 0;
  }
  return half_reads_back(s, hbits);
}

static char g_text[128];

static const char *format(int kind, double x, uint16_t hbits) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  if (kind == K_DOUBLE) pqt_format_double(x, &b, NULL);
  else if (kind == K_FLOAT) pqt_format_float((float)x, &b, NULL);
  else pqt_format_float16(hbits, &b, NULL);
  snprintf(g_text, sizeof g_text, "%.*s", (int)b.len, b.data ? (const char *)b.data : "");
  pqt_buf_free(&b);
  return g_text;
}

/* Significant digits of a decimal text ("0.01563" -> 4, "1.5e-7" -> 2). */
static int significant_digits(const char *s) {
  int n = 0, lead = 1, trailing_zeros = 0;
  for (const char *p = s; *p && *p != 'e'; p++) {
    if (*p < '0' || *p > '9') continue;
    if (lead && *p == '0') continue;
    lead = 0;
    n++;
    trailing_zeros = *p == '0' ? trailing_zeros + 1 : 0;
  }
  /* an integer's trailing zeros ("100") are not significant */
  if (!strchr(s, '.')) n -= trailing_zeros;
  return n;
}

static int64_t g_checked, g_bad;

/* x > 0, finite. */
static void check_value(int kind, double x, uint16_t hbits) {
  const char *t = format(kind, x, hbits);
  char text[128];
  snprintf(text, sizeof text, "%s", t);
  g_checked++;
  if (!reads_back(text, kind, x, hbits)) {
    if (g_bad++ < 20) CHECK_MSG(0, "kind %d: %.17g printed as %s, which does not read back", kind, x, text);
    return;
  }
  int k = significant_digits(text);
  /* no decimal of p < k digits reads back: the nearest p-digit decimal
   * and its neighbours on both sides (D-1, D+1 at the same scale; below
   * 10^(p-1) the next one down has one more nine) are tried */
  for (int p = 1; p < k; p++) {
    char s[64];
    snprintf(s, sizeof s, "%.*Le", p - 1, (long double)x);
    long long D = 0;
    for (const char *q = s; *q && *q != 'e'; q++)
      if (*q >= '0' && *q <= '9') D = D * 10 + (*q - '0');
    int E = atoi(strchr(s, 'e') + 1) - (p - 1); /* value = D * 10^E */
    long long pow = 1;
    for (int i = 1; i < p; i++) pow *= 10;
    char cand[3][64];
    snprintf(cand[0], sizeof cand[0], "%llde%d", D, E);
    snprintf(cand[1], sizeof cand[1], "%llde%d", D + 1, E);
    if (D == pow) snprintf(cand[2], sizeof cand[2], "%llde%d", pow * 10 - 1, E - 1);
    else snprintf(cand[2], sizeof cand[2], "%llde%d", D - 1, E);
    for (int c = 0; c < 3; c++)
      if (reads_back(cand[c], kind, x, hbits)) {
        if (g_bad++ < 20)
          CHECK_MSG(0, "kind %d: %.17g printed as %s (%d digits) but %s (%d digits) reads back", kind, x, text, k,
                    cand[c], p);
        return;
      }
  }
}

static void test_every_float16(void) {
  g_checked = g_bad = 0;
  for (uint32_t b = 0; b < 0x10000; b++) {
    uint16_t h = (uint16_t)b;
    double x = half_value(h);
    if (isnan(x) || isinf(x) || x == 0) continue;
    if (x < 0) {
      /* the sign is printed in front of the magnitude's text */
      char neg[128], pos[128];
      snprintf(neg, sizeof neg, "%s", format(K_HALF, x, h));
      snprintf(pos, sizeof pos, "%s", format(K_HALF, -x, (uint16_t)(h & 0x7FFF)));
      CHECK_MSG(neg[0] == '-' && strcmp(neg + 1, pos) == 0, "half %04x: %s vs %s", (unsigned)h, neg, pos);
      continue;
    }
    check_value(K_HALF, x, h);
  }
  CHECK_EQ_INT(g_bad, 0);
  CHECK_EQ_INT(g_checked, 0x7BFF); /* every positive finite non-zero half */
  /* the example: a binade edge where the nearest 4-digit decimal
   * (0.01562) reads back as the half below */
  CHECK_EQ_STR(format(K_HALF, 0.015625, 0x2400), "0.01563");
  CHECK_EQ_STR(format(K_HALF, -0.015625, 0xA400), "-0.01563");
  CHECK_EQ_STR(format(K_HALF, 65504, 0x7BFF), "65500");
  CHECK_EQ_STR(format(K_HALF, 1, 0x3C00), "1");
  CHECK_EQ_STR(format(K_HALF, half_value(1), 1), "6e-8");
}

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
  return pqt_test_xorshift(&g_rng);
}

static void test_float32_powers_of_two_and_sample(void) {
  g_checked = g_bad = 0;
  for (int e = -149; e <= 127; e++) check_value(K_FLOAT, ldexp(1.0, e), 0);
  CHECK_EQ_INT(g_checked, 277);
  for (int i = 0; i < 200000; i++) {
    uint32_t bits = (uint32_t)next_rand() & 0x7FFFFFFFu;
    float f;
    memcpy(&f, &bits, 4);
    if (isnan(f) || isinf(f) || f == 0) continue;
    check_value(K_FLOAT, (double)f, 0);
  }
  /* the largest values of each binade and their neighbours */
  for (int e = -126; e <= 127; e++) {
    float p = ldexpf(1.0f, e);
    check_value(K_FLOAT, (double)nextafterf(p, 0), 0);
    if (e < 127) check_value(K_FLOAT, (double)nextafterf(p, INFINITY), 0);
  }
  CHECK_EQ_INT(g_bad, 0);
  CHECK(g_checked > 190000);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_format_float(ldexpf(1.0f, -149), &b, NULL);
  CHECK(b.len == 5 && memcmp(b.data, "1e-45", 5) == 0);
  pqt_buf_free(&b);
}

static void test_float64_powers_of_two_and_sample(void) {
  g_checked = g_bad = 0;
  for (int e = -1074; e <= 1023; e++) check_value(K_DOUBLE, ldexp(1.0, e), 0);
  CHECK_EQ_INT(g_checked, 2098);
  for (int i = 0; i < 50000; i++) {
    uint64_t bits = next_rand() & 0x7FFFFFFFFFFFFFFFull;
    double d;
    memcpy(&d, &bits, 8);
    if (isnan(d) || isinf(d) || d == 0) continue;
    check_value(K_DOUBLE, d, 0);
  }
  CHECK_EQ_INT(g_bad, 0);
  /* the smallest subnormal, and a plain value */
  CHECK_EQ_STR(format(K_DOUBLE, ldexp(1.0, -1074), 0), "5e-324");
  CHECK_EQ_STR(format(K_DOUBLE, 0.1, 0), "0.1");
}

RUN_TESTS("float_shortest", TEST_CASE(test_every_float16), TEST_CASE(test_float32_powers_of_two_and_sample),
          TEST_CASE(test_float64_powers_of_two_and_sample))
