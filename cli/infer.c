/*
 * cli/infer.c: column names and types of convert's input.
 *
 * Types are inferred over every value of a column (not a sample, so a late
 * row never contradicts the schema). Text is given a type only when reading
 * it back gives the same text, as DuckDB keeps such columns VARCHAR:
 * "00123", "+1", "-0", "1e5" and integers beyond INT64 stay STRING, as do
 * numbers in JSON strings (CSV quotes are syntax: "7" is 7, as in DuckDB).
 * Dates, times and timestamps (with or without a zone) are inferred from
 * CSV text and JSON strings alike.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

void cv_infer_init(cv_infer *s) {
  memset(s, 0, sizeof *s);
  s->can_bool = s->can_int = s->can_double = s->can_date = s->can_time = s->can_ts = s->can_ts_tz = true;
}

/* -?(0|[1-9][0-9]*) within INT64; *big: beyond 2^53 */
static bool canonical_int(const char *p, size_t n, bool *big) {
  size_t i = p[0] == '-';
  if (i == n || (p[i] == '0' && n > i + 1) || (p[i] == '0' && i == 1)) return false;
  uint64_t v = 0;
  for (; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return false;
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + (uint64_t)(p[i] - '0');
  }
  if (v > (p[0] == '-' ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX)) return false;
  *big = v > (1ULL << 53);
  return true;
}

/* The significant digits of the text (no leading or trailing zeros). */
static size_t sig_digits(const char *p, size_t n, char *out, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && p[i] != 'e' && p[i] != 'E'; i++)
    if (p[i] >= '0' && p[i] <= '9' && (k || p[i] != '0') && k + 1 < cap) out[k++] = p[i];
  while (k && out[k - 1] == '0') k--;
  out[k] = 0;
  return k;
}

/* 16 or 17 digits: a DOUBLE gives them back (cat prints the shortest
 * decimal that reads back) only when no shorter decimal is the same double. */
static bool shortest_is(const char *p, size_t n, double d) {
  char want[32], buf[48], got[32];
  size_t sig = sig_digits(p, n, want, sizeof want);
  if (sig < 2) return true;
  snprintf(buf, sizeof buf, "%.*e", (int)sig - 2, d);
  if (strtod(buf, NULL) == d) return false; /* a shorter decimal reads back as d */
  snprintf(buf, sizeof buf, "%.*e", (int)sig - 1, d);
  sig_digits(buf, strlen(buf), got, sizeof got);
  return strcmp(got, want) == 0;
}

/* -?(0|[1-9][0-9]*).[0-9]+ (text), or any JSON number, whose digits a
 * DOUBLE gives back (at most 15 always; 16 or 17 when they are the shortest). */
static bool plain_double(const char *p, size_t n, bool json) {
  size_t i = p[0] == '-', sig = 0;
  bool dot = false, started = false;
  if (i == n || (p[i] == '0' && i + 1 < n && p[i + 1] != '.' && !json)) return false;
  for (; i < n; i++) {
    char c = p[i];
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if ((c == 'e' || c == 'E') && json) break;
    if (c < '0' || c > '9') return false;
    if (c != '0') started = true;
    sig += started;
  }
  if (sig > 17 || !(dot || json) || p[n - 1] == '.') return false;
  char *end;
  errno = 0;
  double d = strtod(p, &end); /* p is NUL-terminated after n bytes */
  if (end != p + n || errno == ERANGE || !isfinite(d)) return false;
  return sig <= 15 || shortest_is(p, n, d);
}

void cv_infer_add(cv_infer *s, const char *p, size_t n, cv_kind k) {
  if (k == CV_NULL) return;
  s->any = true;
  if (k == CV_JSON_NESTED || n == 0) {
    s->can_bool = s->can_int = s->can_double = s->can_date = s->can_time = s->can_ts = s->can_ts_tz = false;
    return;
  }
  bool text = k == CV_TEXT, num = k == CV_JSON_NUMBER;
  if (s->can_bool)
    s->can_bool = (text || k == CV_JSON_BOOL) &&
                  ((n == 4 && !strncasecmp(p, "true", 4)) || (n == 5 && !strncasecmp(p, "false", 5)));
  bool big = false;
  bool is_int = (text || num) && (s->can_int || s->can_double) && canonical_int(p, n, &big);
  if (s->can_int) s->can_int = is_int;
  if (s->can_double) s->can_double = is_int ? !big : (text || num) && plain_double(p, n, num);
  s->int_over_2_53 |= big;
  bool str = text || k == CV_QUOTED;
  int dg = 0;
  if (s->can_date) {
    int32_t d;
    s->can_date = str && cv_parse_date(p, n, &d);
  }
  if (s->can_time) {
    int64_t ns;
    s->can_time = str && cv_parse_time(p, n, &ns, &dg);
    if (s->can_time && dg > s->frac_digits) s->frac_digits = dg;
  }
  if (s->can_ts || s->can_ts_tz) {
    int64_t sec, f;
    bool zone;
    bool ok = str && cv_parse_timestamp(p, n, &sec, &f, &dg, &zone);
    s->can_ts = s->can_ts && ok && !zone;
    s->can_ts_tz = s->can_ts_tz && ok && zone;
    if (ok && dg > s->frac_digits) s->frac_digits = dg;
    int64_t v;
    if (ok && (__builtin_mul_overflow(sec, 1000000000LL, &v) || __builtin_add_overflow(v, f, &v)))
      s->beyond_nanos = true;
  }
}

cv_type cv_infer_result(const cv_infer *s) {
  if (!s->any) return CV_T_STRING;
  if (s->can_int) return CV_T_INT64;
  if (s->can_double) return CV_T_DOUBLE;
  if (s->can_bool) return CV_T_BOOL;
  if (s->can_date) return CV_T_DATE;
  bool fits = s->frac_digits <= 6 || !s->beyond_nanos; /* NANOS hold 1677..2262 */
  if (s->can_ts && fits) return CV_T_TS;
  if (s->can_ts_tz && fits) return CV_T_TS_TZ;
  if (s->can_time) return CV_T_TIME;
  return CV_T_STRING;
}

static int app(char **s, size_t *len, size_t *cap, const char *x, size_t n) {
  if (*len + n + 1 > *cap) {
    size_t nc = (*len + n + 1) * 2;
    char *q = realloc(*s, nc);
    if (!q) return -1;
    *s = q;
    *cap = nc;
  }
  memcpy(*s + *len, x, n);
  *len += n;
  (*s)[*len] = 0;
  return 0;
}

int cv_schema_append(char **s, size_t *len, size_t *cap, cv_type t, int frac_digits, const char *name) {
  const char *unit = frac_digits > 6 ? "NANOS" : "MICROS";
  char decl[96];
  switch (t) {
    case CV_T_BOOL: snprintf(decl, sizeof decl, "optional boolean `"); break;
    case CV_T_INT64:
    case CV_T_TIME:
    case CV_T_TS:
    case CV_T_TS_TZ: snprintf(decl, sizeof decl, "optional int64 `"); break;
    case CV_T_DOUBLE: snprintf(decl, sizeof decl, "optional double `"); break;
    case CV_T_DATE: snprintf(decl, sizeof decl, "optional int32 `"); break;
    default: snprintf(decl, sizeof decl, "optional binary `"); break;
  }
  decl[strlen(decl) - 1] = 0; /* the name brings its own backtick */
  if (app(s, len, cap, decl, strlen(decl)) != 0 || cv_schema_name(s, len, cap, name) != 0) return -1;
  switch (t) {
    case CV_T_DATE: snprintf(decl, sizeof decl, " (DATE);\n"); break;
    case CV_T_TIME: snprintf(decl, sizeof decl, " (TIME(%s,false));\n", unit); break;
    case CV_T_TS: snprintf(decl, sizeof decl, " (TIMESTAMP(%s,false));\n", unit); break;
    case CV_T_TS_TZ: snprintf(decl, sizeof decl, " (TIMESTAMP(%s,true));\n", unit); break;
    case CV_T_STRING:
    case CV_T_NONE: snprintf(decl, sizeof decl, " (STRING);\n"); break;
    case CV_T_JSON: snprintf(decl, sizeof decl, " (JSON);\n"); break;
    default: snprintf(decl, sizeof decl, ";\n"); break;
  }
  return app(s, len, cap, decl, strlen(decl));
}

int cv_schema_raw(char **s, size_t *len, size_t *cap, const char *text) { return app(s, len, cap, text, strlen(text)); }

int cv_schema_name(char **s, size_t *len, size_t *cap, const char *name) {
  if (app(s, len, cap, "`", 1) != 0) return -1;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    char e[8];
    if (*p == '`') snprintf(e, sizeof e, "``");
    else if (*p == '\\') snprintf(e, sizeof e, "\\\\");
    else if (*p < 0x20 || *p == 0x7f) snprintf(e, sizeof e, "\\x%02X", *p);
    else {
      e[0] = (char)*p;
      e[1] = 0;
    }
    if (app(s, len, cap, e, strlen(e)) != 0) return -1;
  }
  return app(s, len, cap, "`", 1);
}

/* ---- names ---- */

static bool taken(char **names, int n, int except, const char *s) {
  for (int i = 0; i < n; i++)
    if (i != except && names[i] && strcmp(names[i], s) == 0) return true;
  return false;
}

int cv_unique_names(char **names, int n, bool warn, const char *path) {
  int renamed = 0;
  for (int i = 0; i < n; i++) {
    char *old = names[i];
    char *nn = NULL;
    if (!old[0]) {
      nn = malloc(24);
      if (!nn) return -1;
      snprintf(nn, 24, "column%d", i);
    } else if (taken(names, i, -1, old)) {
      size_t l = strlen(old) + 24;
      nn = malloc(l);
      if (!nn) return -1;
      for (int k = 1;; k++) {
        snprintf(nn, l, "%s_%d", old, k);
        if (!taken(names, n, i, nn)) break;
      }
    }
    if (!nn) continue;
    if (warn)
      fprintf(stderr, "parquetry: %s: warning: column %d %s%s%s is named '%s'\n", path, i + 1, old[0] ? "'" : "",
              old[0] ? old : "(no name)", old[0] ? "' (given twice)" : "", nn);
    free(old);
    names[i] = nn;
    renamed++;
  }
  return renamed;
}
