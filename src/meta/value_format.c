/*
 * meta/value_format.c: the canonical text form of single values (see the
 * header). Used for statistics in `parquetry meta` and, value by value, by
 * the JSON Lines output of `parquetry cat`.
 *
 * Floating point: the shortest decimal that round-trips at the value's own
 * precision is found by trying 1..17 (double), 1..9 (float) or 1..5 (half)
 * significant digits with "%.*e" and parsing back. The digits are then laid
 * out as ECMAScript's Number::toString does (plain notation for decimal
 * exponents in [-6, 21), "1e+21" / "1.5e-7" outside), so the C and the
 * JavaScript (DuckDB-side) generators agree byte for byte.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "meta/value_format.h"

#include "meta/schema.h"

void pqt_value_type_from_element(pqt_value_type *vt, const pqt_schema_element *e) {
  memset(vt, 0, sizeof *vt);
  vt->physical_type = PQT_HAS_FIELD(e, schema_element, type) ? e->type : -1;
  vt->type_length = PQT_HAS_FIELD(e, schema_element, type_length) ? e->type_length : 0;
  vt->converted_type = PQT_HAS_FIELD(e, schema_element, converted_type) ? e->converted_type : -1;
  vt->scale = PQT_HAS_FIELD(e, schema_element, scale) ? e->scale : 0;
  vt->precision = PQT_HAS_FIELD(e, schema_element, precision) ? e->precision : 0;
  if (PQT_HAS_FIELD(e, schema_element, logical_type)) {
    vt->logical = e->logical_type;
    if (PQT_HAS_FIELD(&e->logical_type, logical_type, decimal)) {
      vt->scale = e->logical_type.decimal.scale;
      vt->precision = e->logical_type.decimal.precision;
    }
  }
}

void pqt_value_type_from_leaf(pqt_value_type *vt, const pqt_schema_node *leaf) {
  pqt_value_type_from_element(vt, leaf->elem);
  vt->logical = leaf->logical;
  if (PQT_HAS_FIELD(&leaf->logical, logical_type, decimal)) {
    vt->scale = leaf->logical.decimal.scale;
    vt->precision = leaf->logical.decimal.precision;
  }
}

/* ---- floating point ------------------------------------------------- */

/* Lay out digits (no dot, no sign) with decimal exponent n (value =
 * 0.d1d2... x 10^n) the way ECMAScript Number::toString does. */
static void js_layout(bool neg, const char *digits, int k, int n, pqt_buf *out, pqt_error *err) {
  char tmp[64];
  int pos = 0;
  if (neg) tmp[pos++] = '-';
  if (k <= n && n <= 21) {
    memcpy(tmp + pos, digits, (size_t)k);
    pos += k;
    for (int i = 0; i < n - k; i++) tmp[pos++] = '0';
  } else if (0 < n && n <= 21) {
    memcpy(tmp + pos, digits, (size_t)n);
    pos += n;
    tmp[pos++] = '.';
    memcpy(tmp + pos, digits + n, (size_t)(k - n));
    pos += k - n;
  } else if (-6 < n && n <= 0) {
    tmp[pos++] = '0';
    tmp[pos++] = '.';
    for (int i = 0; i < -n; i++) tmp[pos++] = '0';
    memcpy(tmp + pos, digits, (size_t)k);
    pos += k;
  } else {
    tmp[pos++] = digits[0];
    if (k > 1) {
      tmp[pos++] = '.';
      memcpy(tmp + pos, digits + 1, (size_t)(k - 1));
      pos += k - 1;
    }
    pos += snprintf(tmp + pos, sizeof tmp - (size_t)pos, "e%c%d", n - 1 >= 0 ? '+' : '-', abs(n - 1));
  }
  pqt_buf_append(out, tmp, (size_t)pos, err);
}

/* Split "%.*e" output "d.ddde±XX" into digits and exponent n (0.ddd x 10^n). */
static void split_e(const char *s, char *digits, int *k, int *n) {
  int nd = 0;
  const char *p = s;
  if (*p == '-') p++;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[nd++] = *p;
  int e = atoi(p + 1);  // NOLINT(cert-err34-c): the exponent digits of our own %.17g text
  while (nd > 1 && digits[nd - 1] == '0') nd--; /* strip trailing zeros */
  digits[nd] = '\0';
  *k = nd;
  *n = e + 1;
}

static bool special_float(double v, pqt_buf *out, pqt_error *err) {
  if (isnan(v)) {
    pqt_buf_append(out, "\"NaN\"", 5, err);
    return true;
  }
  if (isinf(v)) {
    if (v > 0) pqt_buf_append(out, "\"Infinity\"", 10, err);
    else pqt_buf_append(out, "\"-Infinity\"", 11, err);
    return true;
  }
  if (v == 0) {
    if (signbit(v)) pqt_buf_append(out, "-0", 2, err);
    else pqt_buf_append(out, "0", 1, err);
    return true;
  }
  return false;
}

static uint16_t float_to_half_bits(double d);

/* Does the decimal text s read back as v at the precision of kind (0
 * double, 1 float, 2 half)? strtod/strtof round correctly; a half is
 * rounded from the double, which is exact enough: a decimal of at most 5
 * digits is never within a double's rounding error of a half's midpoint
 * without being on it. */
static bool round_trips(const char *s, double v, int kind) {
  if (kind == 0) return strtod(s, NULL) == v;
  if (kind == 1) return strtof(s, NULL) == (float)v;
  return float_to_half_bits(strtod(s, NULL)) == float_to_half_bits(v);
}

/* Step the p-digit decimal "d.ddde±X" in s (as "%.*e" prints it) one unit
 * of its last digit up (dir 1) or down (dir -1), keeping p digits. */
static void step_decimal(char *s, size_t cap, int p, int dir) {
  char digits[40] = {0}; /* digits[0] is read even when s has none */
  int nd = 0;
  const char *q = s;
  bool neg = *q == '-';
  if (neg) q++;
  for (; *q && *q != 'e' && nd < p; q++)
    if (*q >= '0' && *q <= '9') digits[nd++] = *q;
  while (*q && *q != 'e') q++;
  int e = *q ? atoi(q + 1) : 0;  // NOLINT(cert-err34-c): the exponent digits of our own %e text
  int i = nd - 1;
  if (dir > 0) {
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i >= 0) {
      digits[i]++;
    } else { /* 9.99 -> 10.0: one more decimal exponent */
      digits[0] = '1';
      e++;
    }
  } else {
    while (i >= 0 && digits[i] == '0') digits[i--] = '9';
    if (i >= 0) digits[i]--;
    if (digits[0] == '0') { /* 1.00 -> 0.999 -> 9.99 one exponent down */
      memmove(digits, digits + 1, (size_t)(nd - 1));
      digits[nd - 1] = '9';
      e--;
    }
  }
  int pos = 0;
  if (neg) s[pos++] = '-';
  s[pos++] = digits[0];
  if (nd > 1) {
    s[pos++] = '.';
    memcpy(s + pos, digits + 1, (size_t)(nd - 1));
    pos += nd - 1;
  }
  snprintf(s + pos, cap - (size_t)pos, "e%d", e);
}

/* kind: 0 double, 1 float, 2 half. The shortest decimal that reads back as
 * v at its own precision; of two such, the nearer to v (ECMAScript's rule).
 * At each length p the nearest p-digit decimal ("%.*e", exact) is tried,
 * then its neighbour on the other side of v: at a binade's lower edge (a
 * power of two) the gap below is half the gap above, so the nearest
 * decimal may fall just outside below while the next one up is inside
 * (half 0.015625: 0.01562 reads back as 0.015617..., 0.01563 as 0.015625).
 * Any farther p-digit decimal is outside when these two are. */
static void format_shortest(double v, int kind, pqt_buf *out, pqt_error *err) {
  if (special_float(v, out, err)) return;
  char s[64], digits[40];
  int max_p = kind == 0 ? 17 : kind == 1 ? 9 : 5;
  double a = fabs(v); /* rounding is symmetric: the sign goes on at the end */
  for (int p = 1; p <= max_p; p++) {
    snprintf(s, sizeof s, "%.*e", p - 1, a);
    if (round_trips(s, a, kind)) break;
    char t[64];
    memcpy(t, s, sizeof t);
    step_decimal(t, sizeof t, p, strtod(s, NULL) < a ? 1 : -1);
    if (round_trips(t, a, kind)) {
      memcpy(s, t, sizeof s);
      break;
    }
    if (p == max_p) break;
  }
  int k, n;
  split_e(s, digits, &k, &n);
  js_layout(v < 0, digits, k, n, out, err);
}

void pqt_format_double(double v, pqt_buf *out, pqt_error *err) { format_shortest(v, 0, out, err); }
void pqt_format_float(float v, pqt_buf *out, pqt_error *err) { format_shortest((double)v, 1, out, err); }

double pqt_float16_to_double(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0) v = ldexp((double)mant, -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = ldexp((double)(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

/* Round a double to the nearest half (ties to even); only the bits matter. */
static uint16_t float_to_half_bits(double d) {
  uint16_t sign = signbit(d) ? 0x8000 : 0;
  d = fabs(d);
  if (isnan(d)) return sign | 0x7E00;
  if (d >= 65520.0) return sign | 0x7C00; /* rounds to infinity */
  if (d < ldexp(1.0, -14)) {              /* subnormal: units of 2^-24 */
    double m = nearbyint(ldexp(d, 24));
    return sign | (uint16_t)m;
  }
  int e;
  double f = frexp(d, &e);            /* d = f * 2^e, f in [0.5,1) */
  double m = nearbyint(ldexp(f, 11)); /* 11 significant bits */
  if (m >= 2048.0) {
    m /= 2;
    e++;
  }
  int exp = e - 1 + 15;
  if (exp >= 31) return sign | 0x7C00;
  return sign | (uint16_t)(exp << 10) | ((uint16_t)m & 0x3FF);
}

void pqt_format_float16(uint16_t bits, pqt_buf *out, pqt_error *err) {
  format_shortest(pqt_float16_to_double(bits), 2, out, err);
}

/* ---- dates and times ------------------------------------------------ */

void pqt_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  /* Days-to-civil over 400-year eras (proleptic Gregorian). */
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
  *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
  *y = yy + (*m <= 2);
}

static pqt_status append_year(int64_t y, pqt_buf *out, pqt_error *err) {
  if (y < 0) return pqt_buf_printf(out, err, "-%04lld", (long long)-y);
  return pqt_buf_printf(out, err, "%04lld", (long long)y);
}

pqt_status pqt_format_date(int64_t days, pqt_buf *out, pqt_error *err) {
  int64_t y;
  unsigned m, d;
  pqt_civil_from_days(days, &y, &m, &d);
  PQT_RETURN_NOT_OK(pqt_buf_append(out, "\"", 1, err));
  PQT_RETURN_NOT_OK(append_year(y, out, err));
  return pqt_buf_printf(out, err, "-%02u-%02u\"", m, d);
}

static int64_t pow10_i64(int digits) {
  int64_t p = 1;
  for (int i = 0; i < digits; i++) p *= 10;
  return p;
}

/* floor division and modulo */
static void floordiv(int64_t a, int64_t b, int64_t *q, int64_t *r) {
  *q = a / b;
  *r = a % b;
  if (*r < 0) {
    *r += b;
    *q -= 1;
  }
}

pqt_status pqt_format_timestamp(int64_t v, int digits, bool utc, pqt_buf *out, pqt_error *err) {
  int64_t unit = pow10_i64(digits), secs, frac, days, sod;
  floordiv(v, unit, &secs, &frac);
  floordiv(secs, 86400, &days, &sod);
  int64_t y;
  unsigned m, d;
  pqt_civil_from_days(days, &y, &m, &d);
  PQT_RETURN_NOT_OK(pqt_buf_append(out, "\"", 1, err));
  PQT_RETURN_NOT_OK(append_year(y, out, err));
  return pqt_buf_printf(out, err, "-%02u-%02uT%02d:%02d:%02d.%0*lld%s\"", m, d, (int)(sod / 3600), (int)(sod / 60 % 60),
                        (int)(sod % 60), digits, (long long)frac, utc ? "Z" : "");
}

pqt_status pqt_format_time(int64_t v, int digits, pqt_buf *out, pqt_error *err) {
  int64_t unit = pow10_i64(digits), secs, frac;
  floordiv(v, unit, &secs, &frac);
  /* A time outside one day is printed as hours past 24 rather than wrapped. */
  bool neg = secs < 0;
  if (neg) secs = -secs - (frac ? 1 : 0), frac = frac ? unit - frac : 0;
  return pqt_buf_printf(out, err, "\"%s%02lld:%02d:%02d.%0*lld\"", neg ? "-" : "", (long long)(secs / 3600),
                        (int)(secs / 60 % 60), (int)(secs % 60), digits, (long long)frac);
}

/* Append the decimal string of a non-negative magnitude held as little-endian
 * 32-bit limbs (destroyed), with `scale` fraction digits. */
static pqt_status append_scaled(uint32_t *limbs, size_t nl, bool neg, int32_t scale, pqt_buf *out, pqt_error *err) {
  char stackbuf[128];
  size_t cap = nl * 10 + (size_t)(scale > 0 ? scale : 0) + 8;
  char *digits = cap <= sizeof stackbuf ? stackbuf : pqt_mem_alloc(out->alloc, cap);
  if (!digits) return pqt_nomem(err);
  size_t nd = 0;
  /* repeated division by 10^9 */
  for (;;) {
    bool zero = true;
    for (size_t i = 0; i < nl; i++)
      if (limbs[i]) {
        zero = false;
        break;
      }
    if (zero) break;
    uint64_t rem = 0;
    for (size_t i = nl; i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = (uint32_t)(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    for (int j = 0; j < 9; j++) {
      digits[nd++] = (char)('0' + rem % 10);
      rem /= 10;
    }
  }
  while (nd > 0 && digits[nd - 1] == '0') nd--;
  size_t sc = scale > 0 ? (size_t)scale : 0;
  while (nd < sc + 1) digits[nd++] = '0';
  pqt_status st = pqt_buf_reserve(out, nd + 4, err);
  if (st == PQT_OK) {
    char *o = (char *)out->data + out->len;
    size_t pos = 0;
    o[pos++] = '"';
    if (neg) o[pos++] = '-';
    for (size_t i = nd; i-- > 0;) {
      o[pos++] = digits[i];
      if (i == sc && sc > 0) o[pos++] = '.';
    }
    o[pos++] = '"';
    out->len += pos;
  }
  if (digits != stackbuf) pqt_mem_free(out->alloc, digits, cap);
  return st;
}

pqt_status pqt_format_decimal_be(const uint8_t *p, size_t n, int32_t scale, pqt_buf *out, pqt_error *err) {
  if (n == 0) return pqt_buf_append(out, "\"0\"", 3, err); /* treated as zero */
  if (scale < 0 || scale > 1000) return pqt_corrupt(err, "decimal scale %d out of range", scale);
  bool neg = (p[0] & 0x80) != 0;
  size_t nl = (n + 3) / 4;
  uint32_t stack_limbs[16];
  uint32_t *limbs = nl <= 16 ? stack_limbs : pqt_mem_alloc(out->alloc, nl * 4);
  if (!limbs) return pqt_nomem(err);
  memset(limbs, 0, nl * 4);
  for (size_t i = 0; i < n; i++) {
    uint8_t b = p[n - 1 - i];
    if (neg) b = (uint8_t)~b;
    limbs[i / 4] |= (uint32_t)b << (8 * (i % 4));
  }
  if (neg) { /* two's complement: magnitude = ~x + 1 */
    for (size_t i = 0; i < nl; i++) {
      if (i * 4 + 4 > n) { /* mask bytes past n (were zero, not inverted) */
        unsigned valid = (unsigned)(n - i * 4);
        if (valid < 4) limbs[i] &= (1u << (8 * valid)) - 1u;
      }
    }
    for (size_t i = 0; i < nl; i++) {
      if (++limbs[i] != 0) break;
    }
  }
  pqt_status st = append_scaled(limbs, nl, neg, scale, out, err);
  if (limbs != stack_limbs) pqt_mem_free(out->alloc, limbs, nl * 4);
  return st;
}

pqt_status pqt_format_decimal_i64(int64_t v, int32_t scale, pqt_buf *out, pqt_error *err) {
  if (scale < 0 || scale > 1000) return pqt_corrupt(err, "decimal scale %d out of range", scale);
  bool neg = v < 0;
  uint64_t mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint32_t limbs[2] = {(uint32_t)mag, (uint32_t)(mag >> 32)};
  return append_scaled(limbs, 2, neg, scale, out, err);
}

/*
 * INT96 (nanoseconds of day, Julian day; 2440588 is 1970-01-01) to days
 * since the epoch and nanoseconds of that day. The exact value is used when
 * it lies in the range of int64 microseconds since the epoch. Outside it,
 * the value is taken as Spark's writer made it: Spark computes the Julian
 * day and time of day from int64 microseconds with wrapping arithmetic, so
 * years beyond that range come out wrapped (interop pitfall 10); wrapping
 * back the same way recovers the value Spark meant.
 */
void pqt_int96_split_bytes(const uint8_t *p, int64_t *days, int64_t *nod) {
  pqt_int96_split((int32_t)pqt_load_u32le(p + 8), (int64_t)pqt_load_u64le(p), days, nod);
}

__int128 pqt_int96_to_nanos(const uint8_t *p) {
  int64_t julian = (int32_t)pqt_load_u32le(p + 8);
  return ((__int128)julian - PQT_INT96_JULIAN_EPOCH) * 86400 * 1000000000 + (__int128)pqt_load_u64le(p);
}

void pqt_int96_from_nanos(int64_t ns, uint8_t *out) {
  const int64_t day_ns = 86400000000000LL;
  int64_t day = ns / day_ns, rem = ns % day_ns;
  if (rem < 0) {
    rem += day_ns;
    day--;
  }
  pqt_store_u64le(out, (uint64_t)rem);
  pqt_store_u32le(out + 8, (uint32_t)(int32_t)(day + PQT_INT96_JULIAN_EPOCH));
}

void pqt_int96_split(int64_t julian, int64_t nanos, int64_t *days, int64_t *nod) {
  const __int128 ns_per_day = (__int128)86400 * 1000000000;
  __int128 total = (__int128)(julian - 2440588) * ns_per_day + nanos;
  __int128 us = total / 1000 - (total % 1000 < 0); /* floor */
  if (us < (__int128)INT64_MIN || us > (__int128)INT64_MAX) {
    uint64_t wrapped = (uint64_t)julian * 86400000000ULL + (uint64_t)(nanos / 1000) - 2440588ULL * 86400000000ULL;
    int64_t sub = nanos % 1000;
    if (sub < 0) sub += 1000;
    total = (__int128)(int64_t)wrapped * 1000 + sub;
  }
  __int128 d = total / ns_per_day, r = total % ns_per_day;
  if (r < 0) {
    r += ns_per_day;
    d -= 1;
  }
  *days = (int64_t)d;
  *nod = (int64_t)r;
}

/* ---- dispatch ------------------------------------------------------- */

static int lt_which(const pqt_value_type *vt) { return pqt_union_which(vt->logical.isset); }

static int time_digits(const pqt_time_unit *u) {
  int w = pqt_union_which(u->isset);
  return w == PQT_TIME_UNIT_MILLIS ? 3 : w == PQT_TIME_UNIT_MICROS ? 6 : 9;
}

pqt_status pqt_format_value(const pqt_value_type *vt, const uint8_t *p, size_t n, pqt_buf *out, pqt_error *err) {
  int lt = lt_which(vt);
  int ct = vt->converted_type;
  switch (vt->physical_type) {
    case PQT_BOOLEAN:
      PQT_CHECK_CORRUPT(n >= 1, err, "BOOLEAN value needs 1 byte, has %zu", n);
      return p[0] & 1 ? pqt_buf_append(out, "true", 4, err) : pqt_buf_append(out, "false", 5, err);
    case PQT_INT32: {
      PQT_CHECK_CORRUPT(n == 4, err, "INT32 value needs 4 bytes, has %zu", n);
      int32_t v = (int32_t)pqt_load_u32le(p);
      if (lt == PQT_LT_DECIMAL || (lt == 0 && ct == PQT_CT_DECIMAL))
        return pqt_format_decimal_i64(v, vt->scale, out, err);
      if (lt == PQT_LT_DATE || (lt == 0 && ct == PQT_CT_DATE)) return pqt_format_date(v, out, err);
      if (lt == PQT_LT_TIME) return pqt_format_time(v, time_digits(&vt->logical.time.unit), out, err);
      if (lt == 0 && ct == PQT_CT_TIME_MILLIS) return pqt_format_time(v, 3, out, err);
      bool is_unsigned = (lt == PQT_LT_INTEGER && !vt->logical.integer.is_signed) ||
                         (lt == 0 && (ct == PQT_CT_UINT_8 || ct == PQT_CT_UINT_16 || ct == PQT_CT_UINT_32));
      if (is_unsigned) return pqt_buf_printf(out, err, "%u", (uint32_t)v);
      return pqt_buf_printf(out, err, "%d", v);
    }
    case PQT_INT64: {
      PQT_CHECK_CORRUPT(n == 8, err, "INT64 value needs 8 bytes, has %zu", n);
      int64_t v = (int64_t)pqt_load_u64le(p);
      if (lt == PQT_LT_DECIMAL || (lt == 0 && ct == PQT_CT_DECIMAL))
        return pqt_format_decimal_i64(v, vt->scale, out, err);
      if (lt == PQT_LT_TIMESTAMP)
        return pqt_format_timestamp(v, time_digits(&vt->logical.timestamp.unit),
                                    vt->logical.timestamp.is_adjusted_to_utc, out, err);
      if (lt == PQT_LT_TIME) return pqt_format_time(v, time_digits(&vt->logical.time.unit), out, err);
      if (lt == 0 && ct == PQT_CT_TIMESTAMP_MILLIS) return pqt_format_timestamp(v, 3, true, out, err);
      if (lt == 0 && ct == PQT_CT_TIMESTAMP_MICROS) return pqt_format_timestamp(v, 6, true, out, err);
      if (lt == 0 && ct == PQT_CT_TIME_MICROS) return pqt_format_time(v, 6, out, err);
      bool is_unsigned = (lt == PQT_LT_INTEGER && !vt->logical.integer.is_signed) || (lt == 0 && ct == PQT_CT_UINT_64);
      if (is_unsigned) return pqt_buf_printf(out, err, "%llu", (unsigned long long)(uint64_t)v);
      return pqt_buf_printf(out, err, "%lld", (long long)v);
    }
    case PQT_INT96: {
      PQT_CHECK_CORRUPT(n == 12, err, "INT96 value needs 12 bytes, has %zu", n);
      int64_t days, nod;
      pqt_int96_split_bytes(p, &days, &nod);
      int64_t y;
      unsigned m, d;
      pqt_civil_from_days(days, &y, &m, &d);
      int64_t secs = nod / 1000000000LL, frac = nod % 1000000000LL;
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "\"", 1, err));
      PQT_RETURN_NOT_OK(append_year(y, out, err));
      return pqt_buf_printf(out, err, "-%02u-%02uT%02d:%02d:%02d.%09lld\"", m, d, (int)(secs / 3600),
                            (int)(secs / 60 % 60), (int)(secs % 60), (long long)frac);
    }
    case PQT_FLOAT: {
      PQT_CHECK_CORRUPT(n == 4, err, "FLOAT value needs 4 bytes, has %zu", n);
      uint32_t bits = pqt_load_u32le(p);
      float f;
      memcpy(&f, &bits, 4);
      size_t mark = out->len;
      pqt_format_float(f, out, err);
      return out->len > mark ? PQT_OK : pqt_nomem(err); /* it always appends unless out of memory */
    }
    case PQT_DOUBLE: {
      PQT_CHECK_CORRUPT(n == 8, err, "DOUBLE value needs 8 bytes, has %zu", n);
      uint64_t bits = pqt_load_u64le(p);
      double d;
      memcpy(&d, &bits, 8);
      size_t mark = out->len;
      pqt_format_double(d, out, err);
      return out->len > mark ? PQT_OK : pqt_nomem(err); /* it always appends unless out of memory */
    }
    case PQT_BYTE_ARRAY:
    case PQT_FIXED_LEN_BYTE_ARRAY: {
      if (lt == PQT_LT_DECIMAL || (lt == 0 && ct == PQT_CT_DECIMAL))
        return pqt_format_decimal_be(p, n, vt->scale, out, err);
      if (pqt_is_text_type(lt, ct)) return pqt_json_string_append(out, p, n, err);
      if (lt == PQT_LT_UUID && n == 16)
        return pqt_buf_printf(out, err, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
                              p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13],
                              p[14], p[15]);
      if (lt == PQT_LT_FLOAT16 && n == 2) {
        size_t mark = out->len;
        pqt_format_float16(pqt_load_u16le(p), out, err);
        return out->len > mark ? PQT_OK : pqt_nomem(err); /* it always appends unless out of memory */
      }
      if (ct == PQT_CT_INTERVAL && n == 12)
        return pqt_buf_printf(out, err, "{\"months\":%u,\"days\":%u,\"millis\":%u}", pqt_load_u32le(p),
                              pqt_load_u32le(p + 4), pqt_load_u32le(p + 8));
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "\"", 1, err));
      PQT_RETURN_NOT_OK(pqt_base64_append(out, p, n, err));
      return pqt_buf_append(out, "\"", 1, err);
    }
    default: return pqt_corrupt(err, "unknown physical type %d", vt->physical_type);
  }
}
