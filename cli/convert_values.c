/*
 * cli/convert_values.c: text values into one Arrow column of the layout the
 * writer asks for (pqt_writer_arrow_schema). Every value is checked: a
 * value that does not fit its type exactly (out of range, too many digits,
 * a day that does not exist, a time zone a local timestamp cannot hold) is
 * an error, never rounded, wrapped or rolled forward. Binary values are
 * base64 or "\x" followed by hex; FIXED_LEN_BYTE_ARRAY(16) also takes a UUID.
 * GEOMETRY and GEOGRAPHY columns take WKT text (written as ISO WKB) or WKB
 * as base64 / \xHEX; either is checked (a malformed value names the
 * character or byte where it goes wrong).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"

enum { K_BOOL, K_INT, K_FLOAT, K_DOUBLE, K_HALF, K_DEC, K_DATE, K_TIME, K_TS, K_STRING, K_BINARY, K_FIXED };

typedef struct kind_of {
  int k;
  bool sign;
  int unit; /* fraction digits: 3, 6, 9 */
  bool tz;
} kind_of;

static kind_of classify(const char *f) {
  kind_of o = {-1, true, 0, false};
  if (!strcmp(f, "b")) o.k = K_BOOL;
  else if (f[0] && strchr("cCsSiIlL", f[0]) && !f[1]) {
    o.k = K_INT;
    o.sign = islower((unsigned char)f[0]) != 0;
  } else if (!strcmp(f, "f")) o.k = K_FLOAT;
  else if (!strcmp(f, "g")) o.k = K_DOUBLE;
  else if (!strcmp(f, "e")) o.k = K_HALF;
  else if (f[0] == 'd' && f[1] == ':') o.k = K_DEC;
  else if (!strcmp(f, "tdD")) o.k = K_DATE;
  else if (f[0] == 't' && f[1] == 't' && f[2] && strchr("mun", f[2])) {
    o.k = K_TIME;
    o.unit = f[2] == 'm' ? 3 : f[2] == 'u' ? 6 : 9;
  } else if (f[0] == 't' && f[1] == 's' && f[2] && strchr("mun", f[2]) && f[3] == ':') {
    o.k = K_TS;
    o.unit = f[2] == 'm' ? 3 : f[2] == 'u' ? 6 : 9;
    o.tz = f[4] != 0;
  } else if (!strcmp(f, "u")) o.k = K_STRING;
  else if (!strcmp(f, "z")) o.k = K_BINARY;
  else if (f[0] == 'w' && f[1] == ':') o.k = K_FIXED;
  return o;
}

int cv_column_init(cv_column *c, const struct ArrowSchema *field, char *err) {
  memset(c, 0, sizeof *c);
  c->format = field->format;
  c->name = field->name;
  c->nullable = (field->flags & ARROW_FLAG_NULLABLE) != 0;
  kind_of k = classify(c->format);
  c->kind = k.k;
  c->unit = k.unit;
  c->sign = k.sign;
  c->tz = k.tz;
  if (k.k < 0) {
    snprintf(err, CV_ERR,
             "column %s: convert cannot write this type yet (Arrow layout '%s'): give it a flat "
             "--schema field",
             c->name, c->format);
    return -1;
  }
  static const int widths[] = {-1, 0, 4, 8, 2, 16, 4, 0, 8, 0, 0, 0};
  c->width = widths[k.k];
  if (k.k == K_INT)
    c->width = strchr("cC", c->format[0]) ? 1 : strchr("sS", c->format[0]) ? 2 : strchr("iI", c->format[0]) ? 4 : 8;
  if (k.k == K_TIME) c->width = k.unit == 3 ? 4 : 8;
  if (k.k == K_FIXED) c->width = atoi(c->format + 2);  // NOLINT(cert-err34-c): a format string pqt_arrow_format_parse accepted
  if (k.k == K_DEC) {
    const char *cm = strchr(c->format + 2, ',');
    c->dec_p = atoi(c->format + 2);  // NOLINT(cert-err34-c): a format string pqt_arrow_format_parse accepted
    c->dec_s = cm ? atoi(cm + 1) : 0;  // NOLINT(cert-err34-c): a format string pqt_arrow_format_parse accepted
    if (cm && strchr(cm + 1, ',')) c->width = atoi(strchr(cm + 1, ',') + 1) / 8;  // NOLINT(cert-err34-c): a format string pqt_arrow_format_parse accepted
  }
  return 0;
}

void cv_column_free(cv_column *c) {
  free(c->valid);
  free(c->vals);
  free(c->offs);
  free(c->data);
  memset(c, 0, sizeof *c);
}

void cv_column_reset(cv_column *c) {
  c->n = c->n_null = 0;
  c->dlen = 0;
}

void cv_column_type_name(const cv_column *c, char *out, size_t n) {
  kind_of k = classify(c->format);
  const char *f = c->format;
  static const char *units[] = {"MILLIS", "MICROS", "NANOS"};
  const char *u = units[k.unit == 3 ? 0 : k.unit == 6 ? 1 : 2];
  switch (k.k) {
    case K_BOOL: snprintf(out, n, "BOOLEAN"); break;
    case K_INT: snprintf(out, n, "INT(%d,%s)", c->width * 8, k.sign ? "true" : "false"); break;
    case K_FLOAT: snprintf(out, n, "FLOAT"); break;
    case K_DOUBLE: snprintf(out, n, "DOUBLE"); break;
    case K_HALF: snprintf(out, n, "FLOAT16"); break;
    case K_DEC: snprintf(out, n, "DECIMAL(%d,%d)", c->dec_p, c->dec_s); break;
    case K_DATE: snprintf(out, n, "DATE"); break;
    case K_TIME: snprintf(out, n, "TIME(%s)", u); break;
    case K_TS: snprintf(out, n, "TIMESTAMP(%s,%s)", u, k.tz ? "true" : "false"); break;
    case K_STRING: snprintf(out, n, "STRING"); break;
    case K_BINARY:
      snprintf(out, n, "%s",
               c->geo == PQT_LOGICAL_GEOGRAPHY  ? "GEOGRAPHY"
               : c->geo == PQT_LOGICAL_GEOMETRY ? "GEOMETRY"
                                                : "BINARY");
      break;
    case K_FIXED: snprintf(out, n, "FIXED_LEN_BYTE_ARRAY(%d)", c->width); break;
    default: snprintf(out, n, "%s", f); break;
  }
}

/* ---- dates and times ---- */

static bool digits(const char *p, int n, int *v) {
  *v = 0;
  for (int i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return false;
    *v = *v * 10 + (p[i] - '0');
  }
  return true;
}

bool cv_parse_date(const char *p, size_t n, int32_t *days) {
  int y, m, d;
  if (n != 10 || p[4] != '-' || p[7] != '-' || !digits(p, 4, &y) || !digits(p + 5, 2, &m) || !digits(p + 8, 2, &d))
    return false;
  static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap)) return false;
  y -= m <= 2; /* days from civil */
  int era = y / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (unsigned)((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1);
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  *days = era * 146097 + (int32_t)doe - 719468;
  return true;
}

bool cv_parse_time(const char *p, size_t n, int64_t *ns, int *dg) {
  int h, m, s;
  if (n < 8 || p[2] != ':' || p[5] != ':' || !digits(p, 2, &h) || !digits(p + 3, 2, &m) || !digits(p + 6, 2, &s))
    return false;
  if (h > 23 || m > 59 || s > 59) return false;
  int64_t frac = 0;
  int k = 0;
  size_t i = 8;
  if (i < n && p[i] == '.') {
    for (i++; i < n && p[i] >= '0' && p[i] <= '9' && k < 9; i++, k++) frac = frac * 10 + (p[i] - '0');
    if (k == 0) return false;
  }
  if (i != n) return false;
  *dg = k;
  for (; k < 9; k++) frac *= 10;
  *ns = ((int64_t)h * 3600 + m * 60 + s) * 1000000000LL + frac;
  return true;
}

bool cv_parse_timestamp(const char *p, size_t n, int64_t *sec, int64_t *ns_frac, int *dg, bool *zone) {
  int32_t days;
  if (n < 19 || (p[10] != ' ' && p[10] != 'T') || !cv_parse_date(p, 10, &days)) return false;
  size_t e = n;
  int off_min = 0;
  *zone = false;
  if (p[e - 1] == 'Z') {
    e--;
    *zone = true;
  } else if (e >= 25 && (p[e - 6] == '+' || p[e - 6] == '-') && p[e - 3] == ':') {
    int hh, mm;
    if (!digits(p + e - 5, 2, &hh) || !digits(p + e - 2, 2, &mm) || hh > 23 || mm > 59) return false;
    off_min = (hh * 60 + mm) * (p[e - 6] == '-' ? -1 : 1);
    e -= 6;
    *zone = true;
  }
  int64_t tns;
  if (!cv_parse_time(p + 11, e - 11, &tns, dg)) return false;
  *sec = (int64_t)days * 86400 + tns / 1000000000LL - (int64_t)off_min * 60;
  *ns_frac = tns % 1000000000LL;
  return true;
}

/* ---- numbers ---- */

static bool parse_int(const char *p, size_t n, bool sign, int width, int64_t *out, const char **why) {
  size_t i = 0;
  bool neg = false;
  if (i < n && (p[i] == '-' || p[i] == '+')) neg = p[i++] == '-';
  if (i == n) {
    *why = "not a number";
    return false;
  }
  uint64_t v = 0;
  for (; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') {
      *why = "not an integer";
      return false;
    }
    unsigned d = (unsigned)(p[i] - '0');
    if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10)) {
      *why = "out of range";
      return false;
    }
    v = v * 10 + d;
  }
  int bits = width * 8;
  uint64_t umax = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
  uint64_t smax = umax >> 1;
  *why = "out of range";
  if (!sign) {
    if (neg && v != 0) {
      *why = "negative, and the type is unsigned";
      return false;
    }
    if (v > umax) return false;
    *out = (int64_t)v;
    return true;
  }
  if (neg ? v > smax + 1 : v > smax) return false;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

static bool parse_double(const char *p, size_t n, double *v) {
  if (n == 0 || isspace((unsigned char)p[0]) || p[n] != 0) return false;
  char *end;
  errno = 0;
  *v = strtod(p, &end);
  return end == p + n;
}

static uint16_t to_half(double d, bool *ok) {
  float f = (float)d;
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sgn = (uint16_t)((x >> 16) & 0x8000);
  if (isnan(d)) {
    *ok = true;
    return sgn | 0x7e00;
  }
  if (isinf(d)) {
    *ok = true;
    return sgn | 0x7c00;
  }
  double a = fabs(d);
  *ok = a <= 65504.0;
  if (!*ok) return 0;
  int e;
  double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  if (a == 0) return sgn;
  if (e < -13) { /* subnormal: units of 2^-24 */
    double q = nearbyint(ldexp(a, 24));
    return (uint16_t)(sgn | (uint16_t)q);
  }
  double q = nearbyint(ldexp(m, 11)); /* 1024..2048 */
  if (q >= 2048) {
    q /= 2;
    e++;
  }
  if (e + 14 >= 31) {
    *ok = false;
    return 0;
  }
  return (uint16_t)(sgn | (uint16_t)((e + 14) << 10) | ((uint16_t)q & 0x3ff));
}

/* DECIMAL text into a little-endian two's complement of w bytes. */
static bool parse_decimal(const char *p, size_t n, int prec, int scale, uint8_t *out, int w, const char **why) {
  size_t i = 0;
  bool neg = false;
  if (i < n && (p[i] == '-' || p[i] == '+')) neg = p[i++] == '-';
  memset(out, 0, (size_t)w);
  int nd = 0, nf = 0;
  bool any = false, dot = false;
  *why = "not a decimal number";
  for (; i < n; i++) {
    if (p[i] == '.' && !dot) {
      dot = true;
      continue;
    }
    if (p[i] < '0' || p[i] > '9') return false;
    any = true;
    if (dot) {
      if (nf == scale) {
        if (p[i] != '0') {
          *why = "more fraction digits than the scale";
          return false;
        }
        continue;
      }
      nf++;
    }
    if (nd == 0 && p[i] == '0') continue;
    if (++nd > prec) {
      *why = "more digits than the precision";
      return false;
    }
    unsigned carry = (unsigned)(p[i] - '0');
    for (int b = 0; b < w; b++) {
      unsigned x = out[b] * 10u + carry;
      out[b] = (uint8_t)x;
      carry = x >> 8;
    }
  }
  if (!any) return false;
  for (; nf<scale; nf++, nd += nd> 0) {
    unsigned carry = 0;
    for (int b = 0; b < w; b++) {
      unsigned x = out[b] * 10u + carry;
      out[b] = (uint8_t)x;
      carry = x >> 8;
    }
  }
  if (nd > prec) {
    *why = "more digits than the precision";
    return false;
  }
  if (neg) {
    unsigned carry = 1;
    for (int b = 0; b < w; b++) {
      unsigned x = (uint8_t)~out[b] + carry;
      out[b] = (uint8_t)x;
      carry = x >> 8;
    }
  }
  return true;
}

/* ---- binary ---- */

static int b64(char c) {
  return c >= 'A' && c <= 'Z'   ? c - 'A'
         : c >= 'a' && c <= 'z' ? c - 'a' + 26
         : c >= '0' && c <= '9' ? c - '0' + 52
         : c == '+'             ? 62
         : c == '/'             ? 63
                                : -1;
}

static int hexv(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* Decode in place-safe into out (n bytes max); returns the length or -1. */
static long decode_binary(const char *p, size_t n, uint8_t *out, bool uuid_ok) {
  size_t o = 0;
  if (uuid_ok && n == 36 && p[8] == '-' && p[13] == '-' && p[18] == '-' && p[23] == '-') {
    for (size_t i = 0; i < 36; i++) {
      if (i == 8 || i == 13 || i == 18 || i == 23) continue;
      int a = hexv(p[i]), b = hexv(p[i + 1]);
      if (a < 0 || b < 0) return -1;
      out[o++] = (uint8_t)(a << 4 | b);
      i++;
    }
    return (long)o;
  }
  if (n >= 2 && p[0] == '\\' && p[1] == 'x') {
    if (n % 2) return -1;
    for (size_t i = 2; i < n; i += 2) {
      int a = hexv(p[i]), b = hexv(p[i + 1]);
      if (a < 0 || b < 0) return -1;
      out[o++] = (uint8_t)(a << 4 | b);
    }
    return (long)o;
  }
  for (int pad = 0; pad < 2 && n > 0 && p[n - 1] == '='; pad++) n--; /* padding */
  if (n % 4 == 1) return -1;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    int v = b64(p[i]);
    if (v < 0) return -1;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (uint8_t)(acc >> bits);
    }
  }
  if (acc & ((1u << bits) - 1)) return -1; /* leftover bits must be zero */
  return (long)o;
}

/* ---- GEOMETRY / GEOGRAPHY ---- */

/* Does the text start with a WKT geometry type name (then a space, '(' or
 * the end)? Base64 of WKB starts with "AQ" or "AA", never with one. */
static bool is_wkt(const char *p, size_t n) {
  static const char *const names[] = {"POINT",        "LINESTRING",        "POLYGON",
                                      "MULTIPOINT",   "MULTILINESTRING",   "MULTIPOLYGON",
                                      "GEOMETRYCOLLECTION"};
  size_t i = 0;
  while (i < n && isspace((unsigned char)p[i])) i++;
  size_t w = i;
  while (w < n && isalpha((unsigned char)p[w])) w++;
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (strlen(names[k]) == w - i && strncasecmp(p + i, names[k], w - i) == 0) return true;
  return false;
}

static bool contains_ci(const char *s, const char *w) {
  for (size_t n = strlen(w); *s; s++)
    if (strncasecmp(s, w, n) == 0) return true;
  return false;
}

/* Walk the builders' leaves in order (the writer's leaf columns). */
static int mark_leaves(cv_build *b, const pqt_reader *r, int32_t *col, char *err) {
  if (b->kind != CV_B_LEAF) {
    for (int i = 0; i < b->nk; i++)
      if (mark_leaves(&b->kids[i], r, col, err) != 0) return -1;
    return 0;
  }
  int32_t node = pqt_reader_column_node(r, *col);
  pqt_schema_info info;
  pqt_schema_info_init(&info);
  pqt_error e;
  if (node < 0 || pqt_reader_schema_node(r, node, &info, &e) != PQT_OK) {
    snprintf(err, CV_ERR, "field %s: no leaf column %d in the schema", b->leaf.name, (int)*col);
    return -1;
  }
  (*col)++;
  if (info.logical == PQT_LOGICAL_GEOMETRY || info.logical == PQT_LOGICAL_GEOGRAPHY) {
    if (b->leaf.kind != K_BINARY) {
      snprintf(err, CV_ERR, "field %s: GEOMETRY/GEOGRAPHY on a layout other than binary ('%s')", b->leaf.name,
               b->leaf.format);
      return -1;
    }
    b->leaf.geo = info.logical;
  }
  return 0;
}

int cv_mark_geo(cv_build *b, int n, const char *message, char *err) {
  if (!message || (!contains_ci(message, "GEOMETRY") && !contains_ci(message, "GEOGRAPHY"))) return 0;
  /* The logical types are not in the writer's Arrow layout (plain binary):
   * read them from an empty file written with the same schema. */
  pqt_string buf = {0};
  pqt_writer *w = NULL;
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = message};
  int rc = -1;
  if (pqt_writer_open_buffer(&w, &buf, &ws, NULL, &e) != PQT_OK || pqt_writer_close(w, &e) != PQT_OK ||
      pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, &e) != PQT_OK) {
    snprintf(err, CV_ERR, "the schema's GEOMETRY/GEOGRAPHY columns: %.200s", e.message);
  } else {
    int32_t col = 0;
    rc = 0;
    for (int i = 0; i < n && rc == 0; i++) rc = mark_leaves(&b[i], r, &col, err);
    if (rc == 0 && col != pqt_reader_num_columns(r)) {
      snprintf(err, CV_ERR, "the schema has %d leaf columns, the writer's layout %d", (int)pqt_reader_num_columns(r),
               (int)col);
      rc = -1;
    }
  }
  pqt_reader_close(r);
  pqt_string_free(&buf);
  return rc;
}

/* ---- the column ---- */

static int grow(cv_column *c) {
  if (c->n < c->cap) return 0;
  int64_t nc = c->cap ? c->cap * 2 : 1024;
  size_t w = c->width > 0 ? (size_t)c->width : (size_t)(c->width < 0);
  uint8_t *v = realloc(c->valid, (size_t)(nc + 7) / 8);
  if (v) c->valid = v;
  uint8_t *x = w ? realloc(c->vals, (size_t)nc * w + 1) : c->vals;
  if (x) c->vals = x;
  int32_t *o = w ? c->offs : realloc(c->offs, (size_t)(nc + 1) * sizeof *o);
  if (o) c->offs = o;
  if (!v || (w && !x) || (!w && !o)) return -1;
  c->cap = nc;
  return 0;
}

static int put_data(cv_column *c, const void *p, size_t n) {
  if (n == 0) return 0;
  if (c->dlen + n > c->dcap) {
    size_t nc = c->dcap ? c->dcap * 2 : 4096;
    while (nc < c->dlen + n) nc *= 2;
    char *d = realloc(c->data, nc);
    if (!d) return -1;
    c->data = d;
    c->dcap = nc;
  }
  memcpy(c->data + c->dlen, p, n);
  c->dlen += n;
  return 0;
}

static void set_bit(uint8_t *b, int64_t i, bool v) {
  if (v) b[i >> 3] |= (uint8_t)(1u << (i & 7));
  else b[i >> 3] &= (uint8_t) ~(1u << (i & 7));
}

static int fail_value(cv_column *c, const char *p, size_t n, const char *why, char *err) {
  char tn[64];
  cv_column_type_name(c, tn, sizeof tn);
  snprintf(err, CV_ERR, "cannot read '%.*s%s' as %s: %s", (int)(n > 40 ? 40 : n), p, n > 40 ? "..." : "", tn, why);
  return -1;
}

static int fixed_value(cv_column *c, kind_of k, const char *p, size_t n, uint8_t *dst, const char **why);

int cv_column_append(cv_column *c, const char *p, size_t n, cv_kind kind, char *err) {
  if (grow(c) != 0 || (c->width == 0 && c->n == 0 && !c->offs)) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  if (c->width == 0 && c->n == 0) c->offs[0] = 0;
  int64_t i = c->n;
  kind_of k = {c->kind, c->sign, c->unit, c->tz}; /* no string compare per value */
  if (!p || kind == CV_NULL) {
    if (!c->nullable) {
      snprintf(err, CV_ERR, "null in a required column");
      return -1;
    }
    set_bit(c->valid, i, false);
    if (c->width > 0) memset(c->vals + (size_t)i * (size_t)c->width, 0, (size_t)c->width);
    else if (c->width < 0) set_bit(c->vals, i, false);
    else c->offs[i + 1] = (int32_t)c->dlen;
    c->n_null++;
    c->n++;
    return 0;
  }
  const char *why = "not valid for the type";
  if (kind == CV_JSON_NESTED && k.k != K_STRING) return fail_value(c, p, n, "a JSON object or array", err);
  if (kind == CV_JSON_BOOL && k.k != K_BOOL && k.k != K_STRING) return fail_value(c, p, n, "a JSON boolean", err);
  if (k.k == K_STRING || k.k == K_BINARY) {
    uint8_t *tmp = NULL;
    long len = (long)n;
    pqt_wkb_buffer wkb = {0};
    if (k.k == K_BINARY && c->geo && is_wkt(p, n)) {
      pqt_error e;
      if (pqt_wkt_to_wkb(p, n, NULL, &wkb, &e) != PQT_OK) return fail_value(c, p, n, e.message, err);
      tmp = wkb.data;
      len = (long)wkb.len;
    } else if (k.k == K_BINARY) {
      tmp = malloc(n + 1);
      len = tmp ? decode_binary(p, n, tmp, false) : -1;
      if (len < 0) {
        free(tmp);
        return fail_value(c, p, n,
                          c->geo ? "neither WKT, base64 nor \\x followed by hex digits"
                                 : "neither base64 nor \\x followed by hex digits",
                          err);
      }
      pqt_error e;
      if (c->geo && pqt_wkb_validate(tmp, (size_t)len, NULL, &e) != PQT_OK) {
        free(tmp);
        return fail_value(c, p, n, e.message, err);
      }
    }
    int put = c->dlen + (size_t)len > INT32_MAX ? -1 : put_data(c, tmp ? (const char *)tmp : p, (size_t)len);
    if (wkb.data) pqt_wkb_buffer_free(&wkb); /* tmp was its data */
    else free(tmp);
    if (put != 0) {
      snprintf(err, CV_ERR, "out of memory (or over 2 GiB of text in one batch)");
      return -1;
    }
    c->offs[i + 1] = (int32_t)c->dlen;
  } else if (k.k == K_BOOL) {
    bool t = n == 4 && strncasecmp(p, "true", 4) == 0, f = n == 5 && strncasecmp(p, "false", 5) == 0;
    if (!t && !f) return fail_value(c, p, n, "not true or false", err);
    set_bit(c->vals, i, t);
  } else if (fixed_value(c, k, p, n, c->vals + (size_t)i * (size_t)c->width, &why) != 0) {
    return fail_value(c, p, n, why, err);
  }
  set_bit(c->valid, i, true);
  c->n++;
  return 0;
}

static int time_units(int64_t ns, int dg, int unit, int64_t *v, const char **why) {
  int64_t div = unit == 3 ? 1000000 : unit == 6 ? 1000 : 1;
  if (ns % div) {
    *why = "more fraction digits than the unit holds";
    return -1;
  }
  (void)dg;
  *v = ns / div;
  return 0;
}

static int fixed_value(cv_column *c, kind_of k, const char *p, size_t n, uint8_t *dst, const char **why) {
  switch (k.k) {
    case K_INT: {
      int64_t v;
      if (!parse_int(p, n, k.sign, c->width, &v, why)) return -1;
      memcpy(dst, &v, (size_t)c->width); /* little-endian: the low bytes */
      return 0;
    }
    case K_FLOAT:
    case K_DOUBLE:
    case K_HALF: {
      double d;
      if (!parse_double(p, n, &d)) {
        *why = "not a number";
        return -1;
      }
      *why = "out of range";
      if (errno == ERANGE && (isinf(d) || d == 0)) return -1; /* overflow, or underflow to zero */
      if (k.k == K_DOUBLE) {
        memcpy(dst, &d, 8);
        return 0;
      }
      if (k.k == K_FLOAT) {
        float f = (float)d;
        if ((isinf(f) && !isinf(d)) || (f == 0 && d != 0)) return -1;
        memcpy(dst, &f, 4);
        return 0;
      }
      bool ok;
      uint16_t h = to_half(d, &ok);
      if (!ok) return -1;
      memcpy(dst, &h, 2);
      return 0;
    }
    case K_DEC: return parse_decimal(p, n, c->dec_p, c->dec_s, dst, c->width, why) ? 0 : -1;
    case K_DATE: {
      int32_t d;
      if (!cv_parse_date(p, n, &d)) {
        *why = "not a date YYYY-MM-DD that exists";
        return -1;
      }
      memcpy(dst, &d, 4);
      return 0;
    }
    case K_TIME: {
      int64_t ns, v;
      int dg;
      if (!cv_parse_time(p, n, &ns, &dg)) {
        *why = "not a time HH:MM:SS[.fraction] that exists";
        return -1;
      }
      if (time_units(ns, dg, k.unit, &v, why) != 0) return -1;
      if (c->width == 4) {
        int32_t x = (int32_t)v;
        memcpy(dst, &x, 4);
      } else memcpy(dst, &v, 8);
      return 0;
    }
    case K_TS: {
      int64_t sec, frac, f, v;
      int dg;
      bool zone;
      if (!cv_parse_timestamp(p, n, &sec, &frac, &dg, &zone)) {
        *why = "not a timestamp YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM] that exists";
        return -1;
      }
      if (zone && !k.tz) {
        *why = "a time zone, and the type is a local timestamp (isAdjustedToUTC=false)";
        return -1;
      }
      if (time_units(frac, dg, k.unit, &f, why) != 0) return -1;
      int64_t scale = k.unit == 3 ? 1000 : k.unit == 6 ? 1000000 : 1000000000;
      if (__builtin_mul_overflow(sec, scale, &v) || __builtin_add_overflow(v, f, &v)) {
        *why = "out of range";
        return -1;
      }
      memcpy(dst, &v, 8);
      return 0;
    }
    case K_FIXED: {
      uint8_t *tmp = malloc(n + 1);
      long len = tmp ? decode_binary(p, n, tmp, c->width == 16) : -1;
      if (!tmp || len != c->width) {
        free(tmp);
        *why = len < 0 ? "neither base64, \\x followed by hex digits, nor a UUID" : "not the type's length";
        return -1;
      }
      memcpy(dst, tmp, (size_t)len);
      free(tmp);
      return 0;
    }
    default: *why = "unsupported type"; return -1;
  }
}

static void no_release(struct ArrowArray *a) { a->release = NULL; }

void cv_column_array(cv_column *c, struct ArrowArray *out) {
  memset(out, 0, sizeof *out);
  out->length = c->n;
  out->null_count = c->n_null;
  c->bufs[0] = c->n_null ? c->valid : NULL;
  if (c->width == 0) {
    if (!c->offs || c->n == 0) {
      static const int32_t z[1] = {0};
      c->bufs[1] = z;
    } else c->bufs[1] = c->offs;
    c->bufs[2] = c->data ? c->data : "";
    out->n_buffers = 3;
  } else {
    c->bufs[1] = c->vals ? (const void *)c->vals : (const void *)"\0\0\0\0\0\0\0\0";
    out->n_buffers = 2;
  }
  out->buffers = c->bufs;
  out->release = no_release;
}
