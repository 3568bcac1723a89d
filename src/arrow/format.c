/*
 * arrow/format.c: the one parser of Arrow C Data Interface format strings
 * (see format.h). Strict: a number is an optional '-' and decimal digits in
 * range, and nothing may trail a complete format.
 */
#include <stddef.h>
#include <string.h>

#include "arrow/format.h"

/* A decimal integer in [lo, hi] at *s; advances *s. */
static bool parse_int(const char **s, int64_t lo, int64_t hi, int32_t *v) {
  const char *p = *s;
  bool neg = false;
  if (*p == '-') {
    neg = true;
    p++;
  }
  if (*p < '0' || *p > '9') return false;
  int64_t x = 0;
  while (*p >= '0' && *p <= '9') {
    x = x * 10 + (*p - '0');
    if (x > (int64_t)1 << 32) return false;
    p++;
  }
  if (neg) x = -x;
  if (x < lo || x > hi) return false;
  *v = (int32_t)x;
  *s = p;
  return true;
}

static bool time_unit(char ch) { return ch == 's' || ch == 'm' || ch == 'u' || ch == 'n'; }

int pqt_arrow_unit_pow10(char unit) {
  switch (unit) {
    case 's': return 0;
    case 'm': return 3;
    case 'u': return 6;
    case 'n': return 9;
    default: return -1;
  }
}

static const struct {
  const char *fmt;
  uint8_t kind;
  uint8_t bits;
  bool is_signed;
  char unit;
} SIMPLE[] = {
    {"n", PQT_AK_NULL, 0, false, 0},
    {"b", PQT_AK_BOOL, 0, false, 0},
    {"c", PQT_AK_INT, 8, true, 0},
    {"C", PQT_AK_INT, 8, false, 0},
    {"s", PQT_AK_INT, 16, true, 0},
    {"S", PQT_AK_INT, 16, false, 0},
    {"i", PQT_AK_INT, 32, true, 0},
    {"I", PQT_AK_INT, 32, false, 0},
    {"l", PQT_AK_INT, 64, true, 0},
    {"L", PQT_AK_INT, 64, false, 0},
    {"e", PQT_AK_FLOAT, 16, false, 0},
    {"f", PQT_AK_FLOAT, 32, false, 0},
    {"g", PQT_AK_FLOAT, 64, false, 0},
    {"z", PQT_AK_BINARY, 0, false, 0},
    {"Z", PQT_AK_LARGE_BINARY, 0, false, 0},
    {"vz", PQT_AK_BINARY_VIEW, 0, false, 0},
    {"u", PQT_AK_UTF8, 0, false, 0},
    {"U", PQT_AK_LARGE_UTF8, 0, false, 0},
    {"vu", PQT_AK_UTF8_VIEW, 0, false, 0},
    {"tdD", PQT_AK_DATE, 32, false, 'D'},
    {"tdm", PQT_AK_DATE, 64, false, 'm'},
    {"tts", PQT_AK_TIME, 32, false, 's'},
    {"ttm", PQT_AK_TIME, 32, false, 'm'},
    {"ttu", PQT_AK_TIME, 64, false, 'u'},
    {"ttn", PQT_AK_TIME, 64, false, 'n'},
    {"tDs", PQT_AK_DURATION, 64, false, 's'},
    {"tDm", PQT_AK_DURATION, 64, false, 'm'},
    {"tDu", PQT_AK_DURATION, 64, false, 'u'},
    {"tDn", PQT_AK_DURATION, 64, false, 'n'},
    {"tiM", PQT_AK_INTERVAL, 0, false, 'M'},
    {"tiD", PQT_AK_INTERVAL, 0, false, 'D'},
    {"tin", PQT_AK_INTERVAL, 0, false, 'n'},
    {"+l", PQT_AK_LIST, 0, false, 0},
    {"+L", PQT_AK_LARGE_LIST, 0, false, 0},
    {"+vl", PQT_AK_LIST_VIEW, 0, false, 0},
    {"+vL", PQT_AK_LARGE_LIST_VIEW, 0, false, 0},
    {"+s", PQT_AK_STRUCT, 0, false, 0},
    {"+m", PQT_AK_MAP, 0, false, 0},
    {"+r", PQT_AK_RUN_END, 0, false, 0},
};

static bool bad(pqt_arrow_format *t) {
  t->kind = PQT_AK_INVALID;
  return false;
}

bool pqt_arrow_format_parse(const char *fm, pqt_arrow_format *t) {
  memset(t, 0, offsetof(pqt_arrow_format, union_ids));
  if (!fm) return bad(t);
  for (size_t i = 0; i < sizeof SIMPLE / sizeof SIMPLE[0]; i++) {
    if (strcmp(fm, SIMPLE[i].fmt) == 0) {
      t->kind = (pqt_arrow_kind)SIMPLE[i].kind;
      t->bit_width = SIMPLE[i].bits;
      t->is_signed = SIMPLE[i].is_signed;
      t->unit = SIMPLE[i].unit;
      return true;
    }
  }
  const char *p = fm;
  if (strncmp(p, "d:", 2) == 0) {
    p += 2;
    t->kind = PQT_AK_DECIMAL;
    t->bit_width = 128;
    if (!parse_int(&p, 1, INT32_MAX, &t->precision) || *p++ != ',' || !parse_int(&p, INT32_MIN, INT32_MAX, &t->scale))
      return bad(t);
    if (*p == ',') {
      p++;
      t->width_given = true;
      if (!parse_int(&p, 32, 256, &t->bit_width) ||
          (t->bit_width != 32 && t->bit_width != 64 && t->bit_width != 128 && t->bit_width != 256))
        return bad(t);
    }
    return *p ? bad(t) : true;
  }
  if (strncmp(p, "w:", 2) == 0 || strncmp(p, "+w:", 3) == 0) {
    t->kind = p[0] == 'w' ? PQT_AK_FIXED_BINARY : PQT_AK_FIXED_LIST;
    p += p[0] == 'w' ? 2 : 3;
    if (!parse_int(&p, 0, INT32_MAX, &t->fixed_width) || *p) return bad(t);
    return true;
  }
  if (p[0] == 't' && p[1] == 's' && time_unit(p[2]) && p[3] == ':') {
    t->kind = PQT_AK_TIMESTAMP;
    t->bit_width = 64;
    t->unit = p[2];
    t->tz = p[4] ? p + 4 : NULL;
    return true;
  }
  if (p[0] == '+' && p[1] == 'u' && (p[2] == 'd' || p[2] == 's') && p[3] == ':') {
    t->kind = PQT_AK_UNION;
    t->union_dense = p[2] == 'd';
    p += 4;
    while (*p) {
      if (t->n_union_ids == PQT_ARROW_FORMAT_MAX_UNION_IDS) return bad(t);
      if (!parse_int(&p, 0, 127, &t->union_ids[t->n_union_ids])) return bad(t);
      t->n_union_ids++;
      if (*p == ',' && p[1]) p++;
      else if (*p) return bad(t);
    }
    return true;
  }
  return bad(t);
}
