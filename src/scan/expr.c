/*
 * scan/expr.c: building, freeing and printing filter expressions
 * (parquetry_filter.h), and the calendar and literal-text helpers the
 * parser and the binder share.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/hex.h"
#include "scan/expr_internal.h"

static const pqt_allocator *A(void) { return pqt_default_allocator(); }

pqt_expr *pqt_expr_new_node(pqt_expr_kind kind, int32_t n_args) {
  pqt_expr *e = pqt_mem_calloc(A(), sizeof *e);
  if (!e) return NULL;
  e->kind = kind;
  if (n_args > 0) {
    e->args = pqt_mem_calloc(A(), sizeof(pqt_expr *) * (size_t)n_args);
    if (!e->args) {
      pqt_mem_free(A(), e, sizeof *e);
      return NULL;
    }
    e->n_args = n_args;
  }
  return e;
}

pqt_expr *pqt_expr_new_bytes(pqt_expr_kind kind, const void *data, size_t len) {
  pqt_expr *e = pqt_expr_new_node(kind, 0);
  if (!e) return NULL;
  e->bytes = pqt_mem_alloc(A(), len + 1);
  if (!e->bytes) {
    pqt_mem_free(A(), e, sizeof *e);
    return NULL;
  }
  if (len) memcpy(e->bytes, data, len);
  e->bytes[len] = 0;
  e->len = len;
  return e;
}

PQT_API void pqt_expr_free(pqt_expr *e) {
  if (!e) return;
  for (int32_t i = 0; i < e->n_args; i++) pqt_expr_free(e->args[i]);
  pqt_mem_free(A(), e->args, sizeof(pqt_expr *) * (size_t)e->n_args);
  if (e->bytes) pqt_mem_free(A(), e->bytes, e->len + 1);
  pqt_mem_free(A(), e, sizeof *e);
}

static pqt_expr *lit(pqt_lit_kind k) {
  pqt_expr *e = pqt_expr_new_node(PQT_EK_LITERAL, 0);
  if (e) e->lit = k;
  return e;
}

PQT_API pqt_expr *pqt_expr_column(const char *path) {
  if (!path) return NULL;
  return pqt_expr_new_bytes(PQT_EK_COLUMN, path, strlen(path));
}
PQT_API pqt_expr *pqt_expr_bool(int v) {
  pqt_expr *e = lit(PQT_LIT_BOOL);
  if (e) e->i = v != 0;
  return e;
}
PQT_API pqt_expr *pqt_expr_int(int64_t v) {
  pqt_expr *e = lit(PQT_LIT_EXACT);
  if (e) e->i = v;
  return e;
}
PQT_API pqt_expr *pqt_expr_uint(uint64_t v) {
  pqt_expr *e = lit(PQT_LIT_EXACT);
  if (e) e->i = (__int128)v;
  return e;
}
PQT_API pqt_expr *pqt_expr_double(double v) {
  pqt_expr *e = lit(PQT_LIT_DOUBLE);
  if (e) e->d = v;
  return e;
}
PQT_API pqt_expr *pqt_expr_float16(uint16_t bits) {
  pqt_expr *e = lit(PQT_LIT_FLOAT16);
  if (e) {
    e->i = bits;
    e->d = pqt_float16_to_double(bits);
  }
  return e;
}
PQT_API pqt_expr *pqt_expr_decimal(int64_t unscaled, int32_t scale) {
  if (scale < 0 || scale > 38) return NULL;
  pqt_expr *e = lit(PQT_LIT_EXACT);
  if (e) {
    e->i = unscaled;
    e->scale = scale;
  }
  return e;
}
PQT_API pqt_expr *pqt_expr_date(int32_t days) {
  pqt_expr *e = lit(PQT_LIT_DATE);
  if (e) e->i = days;
  return e;
}
static __int128 to_nanos(int64_t v, pqt_expr_unit u) {
  return (__int128)v * (u == PQT_EXPR_MILLIS ? 1000000 : u == PQT_EXPR_MICROS ? 1000 : 1);
}
PQT_API pqt_expr *pqt_expr_time(int64_t v, pqt_expr_unit unit) {
  if (unit < PQT_EXPR_MILLIS || unit > PQT_EXPR_NANOS) return NULL;
  pqt_expr *e = lit(PQT_LIT_TIME);
  if (e) e->i = to_nanos(v, unit);
  return e;
}
PQT_API pqt_expr *pqt_expr_timestamp(int64_t v, pqt_expr_unit unit, int utc) {
  if (unit < PQT_EXPR_MILLIS || unit > PQT_EXPR_NANOS) return NULL;
  pqt_expr *e = lit(PQT_LIT_TIMESTAMP);
  if (e) {
    e->i = to_nanos(v, unit);
    e->utc = utc != 0;
  }
  return e;
}
static pqt_expr *lit_bytes(pqt_lit_kind k, const void *p, size_t n) {
  if (!p && n) return NULL;
  pqt_expr *e = pqt_expr_new_bytes(PQT_EK_LITERAL, p, n);
  if (e) e->lit = k;
  return e;
}
PQT_API pqt_expr *pqt_expr_string(const char *data, size_t len) { return lit_bytes(PQT_LIT_STRING, data, len); }
PQT_API pqt_expr *pqt_expr_binary(const void *data, size_t len) { return lit_bytes(PQT_LIT_BINARY, data, len); }
PQT_API pqt_expr *pqt_expr_uuid(const uint8_t bytes[16]) { return lit_bytes(PQT_LIT_UUID, bytes, 16); }

/* A node over args (owned): NULL, freeing them, when one is NULL or out of memory. */
static pqt_expr *combine(pqt_expr_kind kind, pqt_expr **args, int32_t n) {
  bool ok = true;
  for (int32_t i = 0; i < n; i++) ok &= args[i] != NULL;
  pqt_expr *e = ok ? pqt_expr_new_node(kind, n) : NULL;
  if (!e) {
    for (int32_t i = 0; i < n; i++) pqt_expr_free(args[i]);
    return NULL;
  }
  for (int32_t i = 0; i < n; i++) e->args[i] = args[i];
  return e;
}

PQT_API pqt_expr *pqt_expr_compare(pqt_cmp_op op, pqt_expr *l, pqt_expr *r) {
  pqt_expr *a[2] = {l, r};
  if (op < PQT_CMP_EQ || op > PQT_CMP_GE) {
    pqt_expr_free(l);
    pqt_expr_free(r);
    return NULL;
  }
  pqt_expr *e = combine(PQT_EK_CMP, a, 2);
  if (e) e->op = (int32_t)op;
  return e;
}
PQT_API pqt_expr *pqt_expr_in(pqt_expr *column, pqt_expr *const *values, size_t n) {
  if (n > 1000000) n = 0;
  pqt_expr **a = pqt_mem_calloc(A(), sizeof(pqt_expr *) * (n + 1));
  if (!a) {
    pqt_expr_free(column);
    for (size_t i = 0; i < n; i++) pqt_expr_free(values[i]);
    return NULL;
  }
  a[0] = column;
  for (size_t i = 0; i < n; i++) a[i + 1] = values[i];
  pqt_expr *e = n ? combine(PQT_EK_IN, a, (int32_t)(n + 1)) : NULL;
  if (!n) pqt_expr_free(column);
  pqt_mem_free(A(), a, sizeof(pqt_expr *) * (n + 1));
  return e;
}
PQT_API pqt_expr *pqt_expr_between(pqt_expr *column, pqt_expr *low, pqt_expr *high) {
  pqt_expr *a[3] = {column, low, high};
  return combine(PQT_EK_BETWEEN, a, 3);
}
PQT_API pqt_expr *pqt_expr_is_null(pqt_expr *column, int negate) {
  pqt_expr *e = combine(PQT_EK_ISNULL, &column, 1);
  if (e) e->negate = negate != 0;
  return e;
}
PQT_API pqt_expr *pqt_expr_like(pqt_expr *column, const char *pattern, size_t len) {
  pqt_expr *e = combine(PQT_EK_LIKE, &column, 1);
  if (!e) return NULL;
  e->bytes = pqt_mem_alloc(A(), len + 1);
  if (!e->bytes || (!pattern && len)) {
    pqt_expr_free(e);
    return NULL;
  }
  if (len) memcpy(e->bytes, pattern, len);
  e->bytes[len] = 0;
  e->len = len;
  return e;
}
PQT_API pqt_expr *pqt_expr_and(pqt_expr *a, pqt_expr *b) {
  pqt_expr *v[2] = {a, b};
  return combine(PQT_EK_AND, v, 2);
}
PQT_API pqt_expr *pqt_expr_or(pqt_expr *a, pqt_expr *b) {
  pqt_expr *v[2] = {a, b};
  return combine(PQT_EK_OR, v, 2);
}
PQT_API pqt_expr *pqt_expr_not(pqt_expr *a) { return combine(PQT_EK_NOT, &a, 1); }

/* ---- calendar: meta/typed_value.h (days from a date), meta/value_format.h (the reverse) ---- */

static bool digits(const char *s, size_t n, size_t at, size_t k, int64_t *v) {
  if (at + k > n) return false;
  int64_t x = 0;
  for (size_t i = 0; i < k; i++) {
    if (s[at + i] < '0' || s[at + i] > '9') return false;
    x = x * 10 + (s[at + i] - '0');
  }
  *v = x;
  return true;
}

static bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* "YYYY-MM-DD" at the start of s; *used: bytes taken. */
static bool parse_date_prefix(const char *s, size_t n, int64_t *days, size_t *used) {
  int64_t y, m, d;
  size_t p = 0;
  bool neg = false;
  if (n > 0 && s[0] == '-') {
    neg = true;
    p = 1;
  }
  if (!digits(s, n, p, 4, &y) || p + 4 >= n || s[p + 4] != '-' || !digits(s, n, p + 5, 2, &m) || p + 7 >= n ||
      s[p + 7] != '-' || !digits(s, n, p + 8, 2, &d))
    return false;
  if (neg) y = -y;
  static const unsigned mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > (int64_t)(mdays[m - 1] + (m == 2 && leap(y)))) return false;
  *days = pqt_days_from_civil(y, (unsigned)m, (unsigned)d);
  *used = p + 10;
  return true;
}

bool pqt_parse_date_text(const char *s, size_t n, int64_t *days) {
  size_t used;
  return parse_date_prefix(s, n, days, &used) && used == n;
}

static bool parse_time_prefix(const char *s, size_t n, int64_t *nanos, size_t *used) {
  int64_t h, mi, se;
  if (!digits(s, n, 0, 2, &h) || n < 8 || s[2] != ':' || !digits(s, n, 3, 2, &mi) || s[5] != ':' ||
      !digits(s, n, 6, 2, &se))
    return false;
  if (h > 23 || mi > 59 || se > 59) return false;
  size_t p = 8;
  int64_t frac = 0;
  if (p < n && s[p] == '.') {
    p++;
    int k = 0;
    while (p < n && s[p] >= '0' && s[p] <= '9' && k < 9) {
      frac = frac * 10 + (s[p] - '0');
      p++;
      k++;
    }
    if (k == 0 || (p < n && s[p] >= '0' && s[p] <= '9')) return false;
    for (; k < 9; k++) frac *= 10;
  }
  *nanos = ((h * 60 + mi) * 60 + se) * 1000000000LL + frac;
  *used = p;
  return true;
}

bool pqt_parse_time_text(const char *s, size_t n, int64_t *nanos) {
  size_t used;
  return parse_time_prefix(s, n, nanos, &used) && used == n;
}

bool pqt_parse_timestamp_text(const char *s, size_t n, __int128 *nanos, bool *has_zone) {
  int64_t days, t = 0;
  size_t used, p;
  if (!parse_date_prefix(s, n, &days, &used)) return false;
  p = used;
  *has_zone = false;
  if (p < n && (s[p] == ' ' || s[p] == 'T')) {
    p++;
    if (!parse_time_prefix(s + p, n - p, &t, &used)) return false;
    p += used;
  }
  int64_t offset_min = 0;
  if (p < n && (s[p] == 'Z' || s[p] == 'z')) {
    *has_zone = true;
    p++;
  } else if (p < n && (s[p] == '+' || s[p] == '-')) {
    int sign = s[p] == '-' ? -1 : 1;
    int64_t hh, mm = 0;
    if (!digits(s, n, p + 1, 2, &hh) || hh > 23) return false;
    p += 3;
    if (p < n && s[p] == ':') p++;
    if (p < n) {
      if (!digits(s, n, p, 2, &mm) || mm > 59) return false;
      p += 2;
    }
    offset_min = sign * (hh * 60 + mm);
    *has_zone = true;
  }
  if (p != n) return false;
  *nanos = ((__int128)days * 86400 - offset_min * 60) * 1000000000 + t;
  return true;
}

bool pqt_parse_uuid_text(const char *s, size_t n, uint8_t out[16]) {
  if (n != 36) return false;
  int k = 0;
  for (size_t i = 0; i < n;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      i++;
      continue;
    }
    int a = pqt_hex_digit(s[i]), b = pqt_hex_digit(s[i + 1]);
    if (a < 0 || b < 0) return false;
    out[k++] = (uint8_t)(a * 16 + b);
    i += 2;
  }
  return k == 16;
}

static bool ieq(const char *s, size_t n, const char *w) { return strlen(w) == n && strncasecmp(s, w, n) == 0; }

bool pqt_parse_number_text(const char *s, size_t n, bool *is_exact, __int128 *iv, int32_t *scale, double *d) {
  size_t p = 0;
  bool neg = false;
  if (p < n && (s[p] == '-' || s[p] == '+')) {
    neg = s[p] == '-';
    p++;
  }
  if (ieq(s + p, n - p, "nan")) {
    *is_exact = false;
    *d = NAN;
    return !neg;
  }
  if (ieq(s + p, n - p, "inf") || ieq(s + p, n - p, "infinity")) {
    *is_exact = false;
    *d = neg ? -INFINITY : INFINITY;
    return true;
  }
  __int128 v = 0;
  int nd = 0, sc = 0;
  bool any = false, dot = false;
  const __int128 lim = (__int128)1 << 125;
  for (; p < n; p++) {
    char c = s[p];
    if (c >= '0' && c <= '9') {
      any = true;
      if (v == 0 && c == '0' && !dot) continue;
      if (nd >= 38) return false; /* more digits than an exact literal holds */
      v = v * 10 + (c - '0');
      nd++;
      if (dot) sc++;
      if (v > lim) return false;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  if (p == n) {
    *is_exact = true;
    *iv = neg ? -v : v;
    *scale = sc;
    return true;
  }
  if (s[p] != 'e' && s[p] != 'E') return false;
  p++;
  if (p < n && (s[p] == '+' || s[p] == '-')) p++;
  size_t ds = p;
  while (p < n && s[p] >= '0' && s[p] <= '9') p++;
  if (p == ds || p != n || n > 400) return false;
  char buf[420];
  memcpy(buf, s, n);
  buf[n] = 0;
  *d = strtod(buf, NULL);
  *is_exact = false;
  return true;
}

/* ---- printing ------------------------------------------------------------ */

static const char *op_text(int op) {
  static const char *t[] = {"=", "!=", "<", "<=", ">", ">="};
  return op >= 0 && op <= 5 ? t[op] : "?";
}

static pqt_status put_i128(pqt_buf *b, __int128 v, int32_t scale, pqt_error *err) {
  char tmp[64];
  int k = 0;
  bool neg = v < 0;
  unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  do {
    tmp[k++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u || k <= scale);
  if (neg) PQT_RETURN_NOT_OK(pqt_buf_append(b, "-", 1, err));
  for (int i = k - 1; i >= 0; i--) {
    PQT_RETURN_NOT_OK(pqt_buf_append(b, &tmp[i], 1, err));
    if (scale > 0 && i == scale) PQT_RETURN_NOT_OK(pqt_buf_append(b, ".", 1, err));
  }
  return PQT_OK;
}

static pqt_status put_quoted(pqt_buf *b, char q, const char *s, size_t n, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_append(b, &q, 1, err));
  for (size_t i = 0; i < n; i++) {
    PQT_RETURN_NOT_OK(pqt_buf_append(b, &s[i], 1, err));
    if (s[i] == q) PQT_RETURN_NOT_OK(pqt_buf_append(b, &q, 1, err));
  }
  return pqt_buf_append(b, &q, 1, err);
}

static bool plain_name(const char *s, size_t n) {
  if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (size_t i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
  static const char *kw[] = {"and",  "or",    "not",  "in",   "between",   "is",   "null", "like",
                             "true", "false", "date", "time", "timestamp", "uuid", "nan",  "infinity"};
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (ieq(s, n, kw[i])) return false;
  return true;
}

static pqt_status put_column(pqt_buf *b, const char *s, size_t n, pqt_error *err) {
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != '.') continue;
    if (start) PQT_RETURN_NOT_OK(pqt_buf_append(b, ".", 1, err));
    if (plain_name(s + start, i - start)) PQT_RETURN_NOT_OK(pqt_buf_append(b, s + start, i - start, err));
    else PQT_RETURN_NOT_OK(put_quoted(b, '"', s + start, i - start, err));
    start = i + 1;
  }
  return PQT_OK;
}

static pqt_status put_clock(pqt_buf *b, __int128 ns, pqt_error *err) {
  int64_t t = (int64_t)ns;
  return pqt_buf_printf(b, err, "%02d:%02d:%02d.%09d", (int)(t / 3600000000000LL), (int)(t / 60000000000LL % 60),
                        (int)(t / 1000000000 % 60), (int)(t % 1000000000));
}

static pqt_status put_date(pqt_buf *b, int64_t days, pqt_error *err) {
  int64_t y;
  unsigned m, d;
  pqt_civil_from_days(days, &y, &m, &d);
  if (y < 0) return pqt_buf_printf(b, err, "-%04lld-%02u-%02u", (long long)-y, m, d);
  return pqt_buf_printf(b, err, "%04lld-%02u-%02u", (long long)y, m, d);
}

static pqt_status put_literal(pqt_buf *b, const pqt_expr *e, pqt_error *err) {
  switch (e->lit) {
    case PQT_LIT_BOOL: return pqt_buf_printf(b, err, "%s", e->i ? "TRUE" : "FALSE");
    case PQT_LIT_EXACT: return put_i128(b, e->i, e->scale, err);
    case PQT_LIT_DOUBLE:
    case PQT_LIT_FLOAT16:
      if (isnan(e->d)) return pqt_buf_printf(b, err, "NAN");
      if (isinf(e->d)) return pqt_buf_printf(b, err, "%sINFINITY", e->d < 0 ? "-" : "");
      return pqt_buf_printf(b, err, "%.17e", e->d);
    case PQT_LIT_STRING: return put_quoted(b, '\'', e->bytes, e->len, err);
    case PQT_LIT_BINARY:
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "X'", 2, err));
      for (size_t i = 0; i < e->len; i++) PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "%02x", (uint8_t)e->bytes[i]));
      return pqt_buf_append(b, "'", 1, err);
    case PQT_LIT_DATE:
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "DATE '", 6, err));
      PQT_RETURN_NOT_OK(put_date(b, (int64_t)e->i, err));
      return pqt_buf_append(b, "'", 1, err);
    case PQT_LIT_TIME:
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "TIME '", 6, err));
      PQT_RETURN_NOT_OK(put_clock(b, e->i, err));
      return pqt_buf_append(b, "'", 1, err);
    case PQT_LIT_TIMESTAMP: {
      __int128 day_ns = (__int128)86400 * 1000000000;
      __int128 days = e->i / day_ns, rem = e->i % day_ns;
      if (rem < 0) {
        rem += day_ns;
        days--;
      }
      if (days > 100000000 || days < -100000000) return pqt_error_set(err, PQT_EINVAL, "timestamp out of range");
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "TIMESTAMP '", 11, err));
      PQT_RETURN_NOT_OK(put_date(b, (int64_t)days, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, " ", 1, err));
      PQT_RETURN_NOT_OK(put_clock(b, rem, err));
      return pqt_buf_append(b, e->utc ? "Z'" : "'", e->utc ? 2 : 1, err);
    }
    case PQT_LIT_UUID: {
      const uint8_t *u = (const uint8_t *)e->bytes;
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "UUID '", 6, err));
      for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) PQT_RETURN_NOT_OK(pqt_buf_append(b, "-", 1, err));
        PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "%02x", u[i]));
      }
      return pqt_buf_append(b, "'", 1, err);
    }
  }
  return pqt_error_set(err, PQT_EINVAL, "bad literal");
}

static pqt_status put_expr(pqt_buf *b, const pqt_expr *e, int depth, pqt_error *err) {
  if (depth > 10000) return pqt_error_set(err, PQT_ELIMIT, "expression nested too deeply");
  switch (e->kind) {
    case PQT_EK_COLUMN: return put_column(b, e->bytes, e->len, err);
    case PQT_EK_LITERAL: return put_literal(b, e, err);
    case PQT_EK_GEO: return pqt_geo_expr_put(b, e, err);
    case PQT_EK_VGET:
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "variant_get(", 12, err));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, ", ", 2, err));
      PQT_RETURN_NOT_OK(put_quoted(b, '\'', e->bytes, e->len, err));
      return pqt_buf_printf(b, err, ", '%s')", pqt_vget_type_name(e->op));
    default: break;
  }
  PQT_RETURN_NOT_OK(pqt_buf_append(b, "(", 1, err));
  switch (e->kind) {
    case PQT_EK_CMP:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " %s ", op_text(e->op)));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[1], depth + 1, err));
      break;
    case PQT_EK_IN:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, " IN (", 5, err));
      for (int32_t i = 1; i < e->n_args; i++) {
        if (i > 1) PQT_RETURN_NOT_OK(pqt_buf_append(b, ", ", 2, err));
        PQT_RETURN_NOT_OK(put_expr(b, e->args[i], depth + 1, err));
      }
      PQT_RETURN_NOT_OK(pqt_buf_append(b, ")", 1, err));
      break;
    case PQT_EK_BETWEEN:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, " BETWEEN ", 9, err));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[1], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, " AND ", 5, err));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[2], depth + 1, err));
      break;
    case PQT_EK_ISNULL:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " IS %sNULL", e->negate ? "NOT " : ""));
      break;
    case PQT_EK_LIKE:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(b, " LIKE ", 6, err));
      PQT_RETURN_NOT_OK(put_quoted(b, '\'', e->bytes, e->len, err));
      break;
    case PQT_EK_AND:
    case PQT_EK_OR:
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, " %s ", e->kind == PQT_EK_AND ? "AND" : "OR"));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[1], depth + 1, err));
      break;
    case PQT_EK_NOT:
      PQT_RETURN_NOT_OK(pqt_buf_append(b, "NOT ", 4, err));
      PQT_RETURN_NOT_OK(put_expr(b, e->args[0], depth + 1, err));
      break;
    default: return pqt_error_set(err, PQT_EINVAL, "bad expression node");
  }
  return pqt_buf_append(b, ")", 1, err);
}

PQT_API pqt_status pqt_expr_to_string(const pqt_expr *e, pqt_string *out, pqt_error *err) {
  if (!e || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_expr_to_string: bad arguments");
  memset(out, 0, sizeof *out);
  pqt_buf b;
  pqt_buf_init(&b, A());
  pqt_status st = put_expr(&b, e, 0, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return pqt_buf_to_string(&b, out, err);
}

PQT_API void pqt_scan_stats_format(const pqt_scan_stats *s, char *buf, size_t cap) {
  if (!buf || !cap) return;
  if (!s) {
    buf[0] = 0;
    return;
  }
  snprintf(buf, cap, "rows=%lld row_groups=%lld/%lld pages=%lld/%lld bytes_read=%llu", (long long)s->rows,
           (long long)s->row_groups_read, (long long)s->row_groups_total, (long long)s->pages_read,
           (long long)s->pages_total, (unsigned long long)s->bytes_read);
}
