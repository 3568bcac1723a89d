/*
 * variant/variant_get.c: the spec's variant_get (the value at a path, cast
 * to a type, or SQL NULL). The cast rules are in parquetry_variant.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "variant/variant.h"

static const struct {
  const char *name;
  pqt_variant_target t;
} k_names[] = {
    {"boolean", PQT_VARIANT_GET_BOOLEAN},
    {"bool", PQT_VARIANT_GET_BOOLEAN},
    {"int8", PQT_VARIANT_GET_INT8},
    {"tinyint", PQT_VARIANT_GET_INT8},
    {"byte", PQT_VARIANT_GET_INT8},
    {"int16", PQT_VARIANT_GET_INT16},
    {"smallint", PQT_VARIANT_GET_INT16},
    {"short", PQT_VARIANT_GET_INT16},
    {"int32", PQT_VARIANT_GET_INT32},
    {"int", PQT_VARIANT_GET_INT32},
    {"integer", PQT_VARIANT_GET_INT32},
    {"int64", PQT_VARIANT_GET_INT64},
    {"bigint", PQT_VARIANT_GET_INT64},
    {"long", PQT_VARIANT_GET_INT64},
    {"float", PQT_VARIANT_GET_FLOAT},
    {"real", PQT_VARIANT_GET_FLOAT},
    {"double", PQT_VARIANT_GET_DOUBLE},
    {"string", PQT_VARIANT_GET_STRING},
    {"varchar", PQT_VARIANT_GET_STRING},
    {"binary", PQT_VARIANT_GET_BINARY},
    {"blob", PQT_VARIANT_GET_BINARY},
    {"date", PQT_VARIANT_GET_DATE},
    {"timestamp", PQT_VARIANT_GET_TIMESTAMP},
    {"timestamptz", PQT_VARIANT_GET_TIMESTAMP},
    {"timestamp_ntz", PQT_VARIANT_GET_TIMESTAMP_NTZ},
    {"uuid", PQT_VARIANT_GET_UUID},
    {"variant", PQT_VARIANT_GET_VARIANT},
};

PQT_API pqt_status pqt_variant_target_from_name(const char *name, pqt_variant_target *out, pqt_error *err) {
  if (!name || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_target_from_name: bad arguments");
  for (size_t k = 0; k < sizeof k_names / sizeof *k_names; k++)
    if (strcasecmp(name, k_names[k].name) == 0) {
      *out = k_names[k].t;
      return PQT_OK;
    }
  return pqt_error_set(err, PQT_EINVAL, "variant_get: unknown type '%s'", name);
}

/* A decimal's unscaled value as int64, when it fits. */
static bool dec_i64(const pqt_variant_scalar *s, int64_t *out) {
  const uint8_t *b = s->u.decimal.unscaled_le;
  uint8_t fill = (b[7] & 0x80) ? 0xff : 0;
  for (int k = 8; k < 16; k++)
    if (b[k] != fill) return false;
  uint64_t u = 0;
  for (int k = 0; k < 8; k++) u |= (uint64_t)b[k] << (8 * k);
  *out = (int64_t)u;
  return true;
}

static double dec_double(const pqt_variant_scalar *s) {
  const uint8_t *b = s->u.decimal.unscaled_le;
  bool neg = (b[15] & 0x80) != 0;
  uint8_t m[16];
  int carry = 1;
  for (int k = 0; k < 16; k++) { /* magnitude */
    int x = neg ? (uint8_t)~b[k] + carry : b[k];
    m[k] = (uint8_t)x;
    carry = neg ? x >> 8 : 0;
  }
  double d = 0;
  for (int k = 15; k >= 0; k--) d = d * 256.0 + m[k];
  d /= pow(10.0, s->u.decimal.scale);
  return neg ? -d : d;
}

/* A whole number as int64 (integers, whole decimals, whole floats, digit
 * strings). */
static bool as_integer(const pqt_variant_scalar *s, int64_t *out) {
  switch (s->type) {
    case PQT_VARIANT_INT8:
    case PQT_VARIANT_INT16:
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_INT64: *out = s->u.i64; return true;
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: {
      int64_t u;
      if (!dec_i64(s, &u)) return false;
      int32_t sc = s->u.decimal.scale;
      for (int32_t k = 0; k < sc; k++) {
        if (u % 10 != 0) return false;
        u /= 10;
      }
      *out = u;
      return true;
    }
    case PQT_VARIANT_DOUBLE:
    case PQT_VARIANT_FLOAT: {
      double d = s->type == PQT_VARIANT_DOUBLE ? s->u.f64 : (double)s->u.f32;
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != floor(d)) return false;
      *out = (int64_t)d;
      return true;
    }
    case PQT_VARIANT_STRING: {
      size_t n = s->u.bytes.len;
      const uint8_t *p = s->u.bytes.data;
      if (n == 0 || n > 20) return false;
      char buf[24];
      memcpy(buf, p, n);
      buf[n] = 0;
      size_t k = buf[0] == '-' ? 1 : 0;
      if (k == n) return false;
      for (; k < n; k++)
        if (!isdigit((unsigned char)buf[k])) return false;
      errno = 0;
      long long v = strtoll(buf, NULL, 10);
      if (errno) return false;
      *out = v;
      return true;
    }
    default: return false;
  }
}

static bool as_double(const pqt_variant_scalar *s, double *out) {
  switch (s->type) {
    case PQT_VARIANT_INT8:
    case PQT_VARIANT_INT16:
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_INT64: *out = (double)s->u.i64; return true;
    case PQT_VARIANT_DOUBLE: *out = s->u.f64; return true;
    case PQT_VARIANT_FLOAT: *out = s->u.f32; return true;
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: *out = dec_double(s); return true;
    case PQT_VARIANT_STRING: {
      size_t n = s->u.bytes.len;
      if (n == 0 || n > 64) return false;
      char buf[72];
      memcpy(buf, s->u.bytes.data, n);
      buf[n] = 0;
      for (size_t k = 0; k < n; k++) /* digits, sign, point, exponent only: no "nan", "inf", hex */
        if (!strchr("0123456789+-.eE", buf[k])) return false;
      char *end;
      double d = strtod(buf, &end);
      if (end != buf + n) return false;
      *out = d;
      return true;
    }
    default: return false;
  }
}

static bool cast(const pqt_variant_scalar *s, pqt_variant_target t, pqt_variant_value *out) {
  int64_t i;
  double d;
  switch (t) {
    case PQT_VARIANT_GET_BOOLEAN:
      if (s->type == PQT_VARIANT_TRUE || s->type == PQT_VARIANT_FALSE) {
        out->u.b = s->type == PQT_VARIANT_TRUE;
        return true;
      }
      if (s->type == PQT_VARIANT_STRING && s->u.bytes.len == 4 && memcmp(s->u.bytes.data, "true", 4) == 0) {
        out->u.b = 1;
        return true;
      }
      if (s->type == PQT_VARIANT_STRING && s->u.bytes.len == 5 && memcmp(s->u.bytes.data, "false", 5) == 0) {
        out->u.b = 0;
        return true;
      }
      return false;
    case PQT_VARIANT_GET_INT8:
    case PQT_VARIANT_GET_INT16:
    case PQT_VARIANT_GET_INT32:
    case PQT_VARIANT_GET_INT64: {
      if (!as_integer(s, &i)) return false;
      int64_t lim = t == PQT_VARIANT_GET_INT8    ? INT8_MAX
                    : t == PQT_VARIANT_GET_INT16 ? INT16_MAX
                    : t == PQT_VARIANT_GET_INT32 ? INT32_MAX
                                                 : INT64_MAX;
      if (i > lim || i < -lim - 1) return false;
      out->u.i64 = i;
      return true;
    }
    case PQT_VARIANT_GET_FLOAT:
      if (!as_double(s, &d)) return false;
      out->u.f32 = (float)d;
      return true;
    case PQT_VARIANT_GET_DOUBLE:
      if (!as_double(s, &d)) return false;
      out->u.f64 = d;
      return true;
    case PQT_VARIANT_GET_STRING:
    case PQT_VARIANT_GET_BINARY:
      if (s->type != (t == PQT_VARIANT_GET_STRING ? PQT_VARIANT_STRING : PQT_VARIANT_BINARY)) return false;
      out->u.bytes.data = s->u.bytes.data;
      out->u.bytes.len = s->u.bytes.len;
      return true;
    case PQT_VARIANT_GET_DATE:
      if (s->type != PQT_VARIANT_DATE) return false;
      out->u.i64 = s->u.i64;
      return true;
    case PQT_VARIANT_GET_TIMESTAMP:
    case PQT_VARIANT_GET_TIMESTAMP_NTZ: {
      bool utc = t == PQT_VARIANT_GET_TIMESTAMP;
      if (s->type == PQT_VARIANT_DATE) {
        if (s->u.i64 > INT64_MAX / 86400000000LL || s->u.i64 < INT64_MIN / 86400000000LL) return false;
        out->u.i64 = s->u.i64 * 86400000000LL;
        return true;
      }
      if (s->type == (utc ? PQT_VARIANT_TIMESTAMP_MICROS : PQT_VARIANT_TIMESTAMP_NTZ_MICROS)) {
        out->u.i64 = s->u.i64;
        return true;
      }
      if (s->type == (utc ? PQT_VARIANT_TIMESTAMP_NANOS : PQT_VARIANT_TIMESTAMP_NTZ_NANOS) && s->u.i64 % 1000 == 0) {
        out->u.i64 = s->u.i64 / 1000;
        return true;
      }
      return false;
    }
    case PQT_VARIANT_GET_UUID:
      if (s->type != PQT_VARIANT_UUID) return false;
      memcpy(out->u.uuid, s->u.uuid, 16);
      return true;
    default: return false;
  }
}

PQT_API pqt_status pqt_variant_get(const pqt_variant *v, const char *path, pqt_variant_target type,
                                   pqt_variant_value *out, pqt_error *err) {
  if (!v || !path || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_get: bad arguments");
  if (type < PQT_VARIANT_GET_BOOLEAN || type > PQT_VARIANT_GET_VARIANT)
    return pqt_error_set(err, PQT_EINVAL, "pqt_variant_get: unknown type %d", (int)type);
  memset(out, 0, sizeof *out);
  out->type = type;
  out->is_null = 1;
  pqt_variant at;
  int found = 0;
  PQT_RETURN_NOT_OK(pqt_variant_path(v, path, &at, &found, err));
  if (!found) return PQT_OK;
  if (type == PQT_VARIANT_GET_VARIANT) {
    out->u.variant = at;
    out->is_null = 0;
    return PQT_OK;
  }
  pqt_variant_kind k;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(&at, &k, err));
  if (k == PQT_VARIANT_OBJECT || k == PQT_VARIANT_ARRAY || k == PQT_VARIANT_NULL) return PQT_OK;
  pqt_variant_scalar s;
  PQT_RETURN_NOT_OK(pqt_variant_get_scalar(&at, &s, err));
  out->is_null = cast(&s, type, out) ? 0 : 1;
  return PQT_OK;
}
