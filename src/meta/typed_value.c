/*
 * meta/typed_value.c: see typed_value.h. Value forms follow LogicalTypes.md
 * (seeds/001): INT(bitWidth, isSigned) on INT32/INT64, DATE as INT32 days,
 * TIME/TIMESTAMP in MILLIS/MICROS/NANOS, DECIMAL as INT32/INT64 unscaled or
 * big-endian two's complement bytes, FLOAT16 as 2 little-endian bytes,
 * UUID 16 bytes, INTERVAL 12 bytes; INT96 as (nanoseconds of day, Julian
 * day) read as a timestamp in nanoseconds.
 */
#include "meta/typed_value.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "meta/value_format.h"

#define NANOS_PER_DAY 86400000000000LL

int32_t pqt_node_logical_kind(const pqt_schema_node *node) {
  int lt = pqt_union_which(node->logical.isset);
  if (lt) return lt;
  if (node->converted_type == PQT_CT_INTERVAL) return PQT_LOGICAL_INTERVAL;
  return PQT_LOGICAL_NONE;
}

static int32_t unit_of(const pqt_time_unit *u) {
  int w = pqt_union_which(u->isset);
  return w == PQT_TIME_UNIT_MILLIS   ? PQT_UNIT_MILLIS
         : w == PQT_TIME_UNIT_MICROS ? PQT_UNIT_MICROS
         : w == PQT_TIME_UNIT_NANOS  ? PQT_UNIT_NANOS
                                     : PQT_UNIT_NONE;
}

int32_t pqt_leaf_value_kind(const pqt_schema_node *leaf) {
  int32_t lk = pqt_node_logical_kind(leaf);
  switch (leaf->physical_type) {
    case PQT_BOOLEAN: return PQT_VALUE_BOOLEAN;
    case PQT_INT32:
    case PQT_INT64:
      if (lk == PQT_LOGICAL_INTEGER && !leaf->logical.integer.is_signed) return PQT_VALUE_UINT64;
      if (lk == PQT_LOGICAL_DATE && leaf->physical_type == PQT_INT32) return PQT_VALUE_DATE;
      if (lk == PQT_LOGICAL_TIME && unit_of(&leaf->logical.time.unit) != PQT_UNIT_NONE) return PQT_VALUE_TIME;
      if (lk == PQT_LOGICAL_TIMESTAMP && leaf->physical_type == PQT_INT64 &&
          unit_of(&leaf->logical.timestamp.unit) != PQT_UNIT_NONE)
        return PQT_VALUE_TIMESTAMP;
      if (lk == PQT_LOGICAL_DECIMAL) return PQT_VALUE_DECIMAL;
      return PQT_VALUE_INT64;
    case PQT_INT96: return PQT_VALUE_TIMESTAMP;
    case PQT_FLOAT:
    case PQT_DOUBLE: return PQT_VALUE_DOUBLE;
    case PQT_BYTE_ARRAY:
      if (lk == PQT_LOGICAL_STRING || lk == PQT_LOGICAL_ENUM || lk == PQT_LOGICAL_JSON) return PQT_VALUE_STRING;
      if (lk == PQT_LOGICAL_DECIMAL) return PQT_VALUE_DECIMAL;
      return PQT_VALUE_BYTES;
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (lk == PQT_LOGICAL_DECIMAL) return PQT_VALUE_DECIMAL;
      if (lk == PQT_LOGICAL_FLOAT16 && leaf->type_length == 2) return PQT_VALUE_FLOAT16;
      return PQT_VALUE_BYTES;
    default: return PQT_VALUE_NONE;
  }
}

static size_t plain_width(const pqt_schema_node *leaf) {
  switch (leaf->physical_type) {
    case PQT_BOOLEAN: return 1;
    case PQT_INT32:
    case PQT_FLOAT: return 4;
    case PQT_INT64:
    case PQT_DOUBLE: return 8;
    case PQT_INT96: return 12;
    case PQT_FIXED_LEN_BYTE_ARRAY: return leaf->type_length > 0 ? (size_t)leaf->type_length : 0;
    default: return 0; /* BYTE_ARRAY: any length */
  }
}

static void set_time_fields(const pqt_schema_node *leaf, pqt_value *v) {
  if (v->kind == PQT_VALUE_TIME) {
    v->unit = unit_of(&leaf->logical.time.unit);
    v->is_utc = leaf->logical.time.is_adjusted_to_utc;
  } else if (v->kind == PQT_VALUE_TIMESTAMP) {
    if (leaf->physical_type == PQT_INT96) {
      v->unit = PQT_UNIT_NANOS;
      v->is_utc = 0;
    } else {
      v->unit = unit_of(&leaf->logical.timestamp.unit);
      v->is_utc = leaf->logical.timestamp.is_adjusted_to_utc;
    }
  } else if (v->kind == PQT_VALUE_DECIMAL) {
    v->scale = leaf->logical.decimal.scale;
    v->precision = leaf->logical.decimal.precision;
  }
}

pqt_status pqt_typed_from_plain(const pqt_schema_node *leaf, const uint8_t *p, size_t n, pqt_value *out,
                                pqt_error *err) {
  memset(out, 0, sizeof *out);
  out->struct_size = sizeof *out;
  size_t w = plain_width(leaf);
  if (leaf->physical_type == PQT_BOOLEAN ? n < 1 : (w && n != w))
    return pqt_corrupt(err, "a %s value of %zu bytes", pqt_physical_type_name(leaf->physical_type), n);
  out->plain = p;
  out->n_plain = n;
  out->kind = pqt_leaf_value_kind(leaf);
  set_time_fields(leaf, out);
  switch (leaf->physical_type) {
    case PQT_BOOLEAN: out->i64 = p[0] & 1; break;
    case PQT_INT32: {
      uint32_t x = pqt_load_u32le(p);
      if (out->kind == PQT_VALUE_UINT64) out->u64 = x;
      else out->i64 = (int32_t)x;
      break;
    }
    case PQT_INT64: {
      uint64_t x = pqt_load_u64le(p);
      if (out->kind == PQT_VALUE_UINT64) out->u64 = x;
      else out->i64 = (int64_t)x;
      break;
    }
    case PQT_INT96: {
      int64_t days, nod;
      pqt_int96_split_bytes(p, &days, &nod);
      /* days * NANOS_PER_DAY + nod must fit an int64 (about 1677..2262) */
      if (days > INT64_MAX / NANOS_PER_DAY - 1 || days < INT64_MIN / NANOS_PER_DAY + 1) {
        out->kind = PQT_VALUE_BYTES;
        out->bytes = p;
        out->n_bytes = n;
      } else {
        out->i64 = days * NANOS_PER_DAY + nod;
      }
      break;
    }
    case PQT_FLOAT: {
      uint32_t b = pqt_load_u32le(p);
      float f;
      memcpy(&f, &b, 4);
      out->f64 = f;
      break;
    }
    case PQT_DOUBLE: {
      uint64_t b = pqt_load_u64le(p);
      memcpy(&out->f64, &b, 8);
      break;
    }
    default: /* byte arrays */
      if (out->kind == PQT_VALUE_FLOAT16) {
        out->f64 = pqt_float16_to_double(pqt_load_u16le(p));
      }
      out->bytes = p;
      out->n_bytes = n;
      break;
  }
  return PQT_OK;
}

/* ---- value -> PLAIN -------------------------------------------------------- */

static uint16_t double_to_half(double d) {
  float f = (float)d;
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xFFu, mant = x & 0x7FFFFFu;
  if (exp == 0xFF) return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
  int32_t e = (int32_t)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++; /* may carry into the exponent: still right */
  return (uint16_t)(sign | h);
}

static bool is_integer_kind(int32_t k) {
  return k == PQT_VALUE_INT64 || k == PQT_VALUE_UINT64 || k == PQT_VALUE_DATE || k == PQT_VALUE_TIME ||
         k == PQT_VALUE_TIMESTAMP || k == PQT_VALUE_BOOLEAN;
}

/* Big-endian two's complement of x in exactly width bytes (false when it does not fit). */
static bool i64_to_be(int64_t x, size_t width, uint8_t *outp) {
  for (size_t i = 0; i < width; i++) {
    size_t shift = 8 * i;
    outp[width - 1 - i] = (uint8_t)(shift < 64 ? (uint64_t)x >> shift : (x < 0 ? 0xFFu : 0u));
  }
  if (width >= 8) return true;
  int64_t lo = -((int64_t)1 << (8 * width - 1)), hi = ((int64_t)1 << (8 * width - 1)) - 1;
  return x >= lo && x <= hi;
}

/* Minimal big-endian two's complement of x (as writers store BYTE_ARRAY decimals). */
static size_t i64_min_be(int64_t x, uint8_t out8[8]) {
  i64_to_be(x, 8, out8);
  size_t start = 0;
  while (start < 7 &&
         ((out8[start] == 0 && !(out8[start + 1] & 0x80)) || (out8[start] == 0xFF && (out8[start + 1] & 0x80))))
    start++;
  memmove(out8, out8 + start, 8 - start);
  return 8 - start;
}

pqt_status pqt_typed_to_plain(const pqt_schema_node *leaf, const pqt_value *v, pqt_buf *out, pqt_error *err) {
  const char *col = leaf->dotted_path ? leaf->dotted_path : leaf->name;
  size_t w = plain_width(leaf);
  if (v->plain) {
    if (leaf->physical_type == PQT_BOOLEAN ? v->n_plain < 1 : (w && v->n_plain != w))
      return pqt_error_set(err, PQT_EINVAL, "column %s: a value of %zu bytes does not fit %s", col, v->n_plain,
                           pqt_physical_type_name(leaf->physical_type));
    return pqt_buf_append(out, v->plain, leaf->physical_type == PQT_BOOLEAN ? 1 : v->n_plain, err);
  }
  uint8_t tmp[16];
  int32_t k = v->kind;
  switch (leaf->physical_type) {
    case PQT_BOOLEAN:
      if (k != PQT_VALUE_BOOLEAN && k != PQT_VALUE_INT64) break;
      tmp[0] = v->i64 != 0;
      return pqt_buf_append(out, tmp, 1, err);
    case PQT_INT32:
    case PQT_INT64: {
      int64_t x;
      bool ok = true;
      if (k == PQT_VALUE_UINT64) {
        ok = v->u64 <= (uint64_t)INT64_MAX || leaf->physical_type == PQT_INT64;
        x = (int64_t)v->u64;
      } else if (is_integer_kind(k) || (k == PQT_VALUE_DECIMAL && v->n_bytes == 0)) {
        x = v->i64;
      } else {
        break;
      }
      if (leaf->physical_type == PQT_INT32) {
        bool is_unsigned = pqt_leaf_value_kind(leaf) == PQT_VALUE_UINT64;
        uint64_t ux = k == PQT_VALUE_UINT64 ? v->u64 : (uint64_t)x;
        ok = ok &&
             (is_unsigned ? (k == PQT_VALUE_UINT64 || x >= 0) && ux <= UINT32_MAX : x >= INT32_MIN && x <= INT32_MAX);
        if (!ok) return pqt_error_set(err, PQT_EINVAL, "column %s: value out of the INT32 range", col);
        pqt_store_u32le(tmp, (uint32_t)x);
        return pqt_buf_append(out, tmp, 4, err);
      }
      if (!ok) return pqt_error_set(err, PQT_EINVAL, "column %s: value out of range", col);
      pqt_store_u64le(tmp, (uint64_t)x);
      return pqt_buf_append(out, tmp, 8, err);
    }
    case PQT_INT96: {
      if (k != PQT_VALUE_TIMESTAMP && k != PQT_VALUE_INT64) break;
      pqt_int96_from_nanos(v->i64, tmp);
      return pqt_buf_append(out, tmp, 12, err);
    }
    case PQT_FLOAT:
    case PQT_DOUBLE: {
      double d;
      if (k == PQT_VALUE_DOUBLE || k == PQT_VALUE_FLOAT16) d = v->f64;
      else if (k == PQT_VALUE_INT64) d = (double)v->i64;
      else if (k == PQT_VALUE_UINT64) d = (double)v->u64;
      else break;
      if (leaf->physical_type == PQT_FLOAT) {
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        pqt_store_u32le(tmp, b);
        return pqt_buf_append(out, tmp, 4, err);
      }
      uint64_t b;
      memcpy(&b, &d, 8);
      pqt_store_u64le(tmp, b);
      return pqt_buf_append(out, tmp, 8, err);
    }
    default: { /* BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY */
      int32_t want = pqt_leaf_value_kind(leaf);
      if (want == PQT_VALUE_FLOAT16 &&
          (k == PQT_VALUE_DOUBLE || (k == PQT_VALUE_FLOAT16 && !v->bytes) || k == PQT_VALUE_INT64)) {
        double d = k == PQT_VALUE_INT64 ? (double)v->i64 : v->f64;
        uint16_t h = double_to_half(d);
        tmp[0] = (uint8_t)h;
        tmp[1] = (uint8_t)(h >> 8);
        return pqt_buf_append(out, tmp, 2, err);
      }
      if (k == PQT_VALUE_DECIMAL || (want == PQT_VALUE_DECIMAL && k == PQT_VALUE_INT64)) {
        if (k == PQT_VALUE_DECIMAL && v->n_bytes) {
          if (!w) return pqt_buf_append(out, v->bytes, v->n_bytes, err);
          /* re-width to type_length bytes, keeping the sign */
          const uint8_t *b = v->bytes;
          size_t n = v->n_bytes;
          uint8_t fill = (b[0] & 0x80) ? 0xFF : 0;
          while (n > w && b[0] == fill && ((b[1] & 0x80) == (fill & 0x80))) {
            b++;
            n--;
          }
          if (n > w) return pqt_error_set(err, PQT_EINVAL, "column %s: decimal does not fit %zu bytes", col, w);
          PQT_RETURN_NOT_OK(pqt_buf_reserve(out, w, err));
          memset(out->data + out->len, fill, w - n);
          memcpy(out->data + out->len + (w - n), b, n);
          out->len += w;
          return PQT_OK;
        }
        if (w) {
          if (w > 16) {
            PQT_RETURN_NOT_OK(pqt_buf_reserve(out, w, err));
            memset(out->data + out->len, v->i64 < 0 ? 0xFF : 0, w - 8);
            i64_to_be(v->i64, 8, out->data + out->len + (w - 8));
            out->len += w;
            return PQT_OK;
          }
          if (!i64_to_be(v->i64, w, tmp))
            return pqt_error_set(err, PQT_EINVAL, "column %s: decimal does not fit %zu bytes", col, w);
          return pqt_buf_append(out, tmp, w, err);
        }
        size_t n = i64_min_be(v->i64, tmp);
        return pqt_buf_append(out, tmp, n, err);
      }
      if (k != PQT_VALUE_BYTES && k != PQT_VALUE_STRING && k != PQT_VALUE_FLOAT16) break;
      if (w && v->n_bytes != w)
        return pqt_error_set(err, PQT_EINVAL, "column %s: a value of %zu bytes, the column's are %zu", col, v->n_bytes,
                             w);
      return pqt_buf_append(out, v->bytes, v->n_bytes, err);
    }
  }
  return pqt_error_set(err, PQT_EINVAL, "column %s: a value of kind %d does not fit a %s column", col, (int)k,
                       pqt_physical_type_name(leaf->physical_type));
}

/* ---- text -> value --------------------------------------------------------- */

int64_t pqt_days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (int64_t)(m > 2 ? m - 3 : m + 9) + 2) / 5 + (int64_t)d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static bool parse_i64(const char *s, int64_t *out) {
  if (!*s) return false;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno || *end) return false;
  *out = x;
  return true;
}

/* Digits [p, p+n) as a number; false on a non-digit. */
static bool digits(const char *p, int n, int64_t *out) {
  int64_t x = 0;
  for (int i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return false;
    x = x * 10 + (p[i] - '0');
  }
  *out = x;
  return true;
}

static int64_t unit_per_second(int32_t unit) {
  return unit == PQT_UNIT_MILLIS ? 1000 : unit == PQT_UNIT_MICROS ? 1000000 : 1000000000;
}

/* "HH:MM:SS[.fff...]" at s: *units since midnight, *used chars. */
static bool parse_clock(const char *s, int32_t unit, int64_t *units, size_t *used) {
  int64_t hh, mm, ss;
  if (strlen(s) < 8 || s[2] != ':' || s[5] != ':' || !digits(s, 2, &hh) || !digits(s + 3, 2, &mm) ||
      !digits(s + 6, 2, &ss) || hh > 23 || mm > 59 || ss > 60)
    return false;
  size_t i = 8;
  int64_t per = unit_per_second(unit), frac = 0, scale = per;
  if (s[i] == '.') {
    i++;
    size_t start = i;
    while (s[i] >= '0' && s[i] <= '9') {
      if (scale > 1) {
        scale /= 10;
        frac += (s[i] - '0') * scale;
      } else if (s[i] != '0') {
        return false; /* finer than the unit */
      }
      i++;
    }
    if (i == start) return false;
  }
  *units = ((hh * 60 + mm) * 60 + ss) * per + frac;
  *used = i;
  return true;
}

static bool parse_date(const char *s, int64_t *days, size_t *used) {
  size_t i = 0;
  bool neg = s[0] == '-';
  if (neg) i++;
  size_t ys = i;
  while (s[i] >= '0' && s[i] <= '9') i++;
  int64_t y, m, d;
  if (i - ys < 4 || i - ys > 6 || !digits(s + ys, (int)(i - ys), &y)) return false;
  if (s[i] != '-' || !digits(s + i + 1, 2, &m) || s[i + 3] != '-' || !digits(s + i + 4, 2, &d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  *days = pqt_days_from_civil(neg ? -y : y, (unsigned)m, (unsigned)d);
  *used = i + 6;
  return true;
}

/* Hex digits (dashes skipped when allow_dash) into storage. */
static bool parse_hex(const char *s, bool allow_dash, pqt_buf *storage, pqt_error *err, pqt_status *st) {
  *st = PQT_OK;
  int hi = -1;
  for (; *s; s++) {
    if (allow_dash && *s == '-') continue;
    int h = pqt_hex_digit(*s);
    if (h < 0) return false;
    if (hi < 0) {
      hi = h;
    } else {
      uint8_t b = (uint8_t)(hi * 16 + h);
      *st = pqt_buf_append(storage, &b, 1, err);
      if (*st != PQT_OK) return false;
      hi = -1;
    }
  }
  return hi < 0;
}

pqt_status pqt_typed_parse(const pqt_schema_node *leaf, const char *text, pqt_value *out, pqt_buf *storage,
                           pqt_error *err) {
  const char *col = leaf->dotted_path ? leaf->dotted_path : leaf->name;
  memset(out, 0, sizeof *out);
  out->struct_size = sizeof *out;
  out->kind = pqt_leaf_value_kind(leaf);
  set_time_fields(leaf, out);
  pqt_buf_clear(storage);
  int32_t lk = pqt_node_logical_kind(leaf);
  const char *want = "a value";
  switch (out->kind) {
    case PQT_VALUE_BOOLEAN:
      want = "true or false";
      if (!strcmp(text, "true") || !strcmp(text, "1")) out->i64 = 1;
      else if (!strcmp(text, "false") || !strcmp(text, "0")) out->i64 = 0;
      else break;
      return PQT_OK;
    case PQT_VALUE_INT64:
      want = "an integer";
      if (!parse_i64(text, &out->i64)) break;
      if (leaf->physical_type == PQT_INT32 && (out->i64 < INT32_MIN || out->i64 > INT32_MAX)) break;
      return PQT_OK;
    case PQT_VALUE_UINT64: {
      want = "an unsigned integer";
      if (!*text || text[0] == '-') break;
      char *end;
      errno = 0;
      unsigned long long x = strtoull(text, &end, 10);
      if (errno || *end) break;
      if (leaf->physical_type == PQT_INT32 && x > UINT32_MAX) break;
      out->u64 = x;
      return PQT_OK;
    }
    case PQT_VALUE_DOUBLE:
    case PQT_VALUE_FLOAT16: {
      want = "a number";
      if (!strcmp(text, "NaN") || !strcmp(text, "nan")) out->f64 = NAN;
      else if (!strcmp(text, "Infinity") || !strcmp(text, "inf")) out->f64 = INFINITY;
      else if (!strcmp(text, "-Infinity") || !strcmp(text, "-inf")) out->f64 = -INFINITY;
      else {
        char *end;
        if (!*text) break;
        out->f64 = strtod(text, &end);
        if (*end) break;
      }
      return PQT_OK;
    }
    case PQT_VALUE_STRING:
      out->bytes = (const uint8_t *)text;
      out->n_bytes = strlen(text);
      return PQT_OK;
    case PQT_VALUE_BYTES: {
      pqt_status st = PQT_OK;
      if (lk == PQT_LOGICAL_UUID) {
        want = "a UUID (8-4-4-4-12 hex digits)";
        if (!parse_hex(text, true, storage, err, &st) || storage->len != 16) {
          if (st != PQT_OK) return st;
          break;
        }
      } else if (!strncmp(text, "hex:", 4)) {
        want = "hex digits after hex:";
        if (!parse_hex(text + 4, false, storage, err, &st)) {
          if (st != PQT_OK) return st;
          break;
        }
      } else {
        PQT_RETURN_NOT_OK(pqt_buf_append(storage, text, strlen(text), err));
      }
      out->bytes = storage->data ? storage->data : (const uint8_t *)"";
      out->n_bytes = storage->len;
      if (leaf->physical_type == PQT_FIXED_LEN_BYTE_ARRAY && out->n_bytes != (size_t)leaf->type_length)
        return pqt_error_set(err, PQT_EINVAL, "column %s: '%s' is %zu bytes, the column's values are %d", col, text,
                             out->n_bytes, leaf->type_length);
      return PQT_OK;
    }
    case PQT_VALUE_DECIMAL: {
      want = "a decimal number (at most 18 digits)";
      const char *p = text;
      bool neg = *p == '-';
      if (neg || *p == '+') p++;
      int64_t x = 0;
      int nd = 0, frac = -1;
      bool ok = *p != 0;
      for (; *p && ok; p++) {
        if (*p == '.' && frac < 0) {
          frac = 0;
          continue;
        }
        if (*p < '0' || *p > '9' || nd >= 18) ok = false;
        else {
          x = x * 10 + (*p - '0');
          nd++;
          if (frac >= 0) frac++;
        }
      }
      if (frac < 0) frac = 0;
      if (!ok || frac > out->scale) break;
      for (int i = frac; i < out->scale; i++) {
        if (x > INT64_MAX / 10) {
          ok = false;
          break;
        }
        x *= 10;
      }
      if (!ok) break;
      out->i64 = neg ? -x : x;
      return PQT_OK;
    }
    case PQT_VALUE_DATE: {
      want = "a date YYYY-MM-DD";
      size_t used;
      if (parse_i64(text, &out->i64)) return PQT_OK;
      if (!parse_date(text, &out->i64, &used) || text[used]) break;
      return PQT_OK;
    }
    case PQT_VALUE_TIME: {
      want = "a time HH:MM:SS[.fff]";
      size_t used;
      if (parse_i64(text, &out->i64)) return PQT_OK;
      if (!parse_clock(text, out->unit, &out->i64, &used)) break;
      if (text[used] == 'Z') used++;
      if (text[used]) break;
      return PQT_OK;
    }
    case PQT_VALUE_TIMESTAMP: {
      want = "a timestamp YYYY-MM-DDTHH:MM:SS[.fff][Z]";
      size_t used, used2;
      if (parse_i64(text, &out->i64)) return PQT_OK;
      int64_t days, units = 0;
      if (!parse_date(text, &days, &used)) break;
      if (text[used] == 'T' || text[used] == ' ') {
        if (!parse_clock(text + used + 1, out->unit, &units, &used2)) break;
        used += 1 + used2;
      }
      if (text[used] == 'Z') used++;
      if (text[used]) break;
      int64_t per_day = 86400 * unit_per_second(out->unit);
      if (days > INT64_MAX / per_day - 1 || days < INT64_MIN / per_day + 1) break;
      out->i64 = days * per_day + units;
      return PQT_OK;
    }
    default: break;
  }
  return pqt_error_set(err, PQT_EINVAL, "column %s: '%s' is not %s", col, text, want);
}
