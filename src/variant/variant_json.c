/*
 * variant/variant_json.c: a Variant as JSON text, in the canonical forms of
 * `parquetry cat` (meta/value_format.h) for the types JSON lacks.
 */
#include "meta/value_format.h"
#include "variant/variant.h"

static pqt_status scalar_json(const pqt_variant_scalar *s, pqt_buf *out, pqt_error *err) {
  size_t mark = out->len;
  switch (s->type) {
    case PQT_VARIANT_NULL: return pqt_buf_append(out, "null", 4, err);
    case PQT_VARIANT_TRUE: return pqt_buf_append(out, "true", 4, err);
    case PQT_VARIANT_FALSE: return pqt_buf_append(out, "false", 5, err);
    case PQT_VARIANT_INT8:
    case PQT_VARIANT_INT16:
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_INT64: return pqt_buf_printf(out, err, "%lld", (long long)s->u.i64);
    case PQT_VARIANT_DOUBLE: pqt_format_double(s->u.f64, out, err); return out->len > mark ? PQT_OK : pqt_nomem(err);
    case PQT_VARIANT_FLOAT: pqt_format_float(s->u.f32, out, err); return out->len > mark ? PQT_OK : pqt_nomem(err);
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: {
      uint8_t be[16];
      for (int k = 0; k < 16; k++) be[k] = s->u.decimal.unscaled_le[15 - k];
      return pqt_format_decimal_be(be, 16, s->u.decimal.scale, out, err); /* a JSON string */
    }
    case PQT_VARIANT_DATE: return pqt_format_date(s->u.i64, out, err);
    case PQT_VARIANT_TIMESTAMP_MICROS: return pqt_format_timestamp(s->u.i64, 6, true, out, err);
    case PQT_VARIANT_TIMESTAMP_NTZ_MICROS: return pqt_format_timestamp(s->u.i64, 6, false, out, err);
    case PQT_VARIANT_TIMESTAMP_NANOS: return pqt_format_timestamp(s->u.i64, 9, true, out, err);
    case PQT_VARIANT_TIMESTAMP_NTZ_NANOS: return pqt_format_timestamp(s->u.i64, 9, false, out, err);
    case PQT_VARIANT_TIME_NTZ_MICROS: return pqt_format_time(s->u.i64, 6, out, err);
    case PQT_VARIANT_STRING: return pqt_json_string_append(out, s->u.bytes.data, s->u.bytes.len, err);
    case PQT_VARIANT_BINARY:
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "\"", 1, err));
      PQT_RETURN_NOT_OK(pqt_base64_append(out, s->u.bytes.data, s->u.bytes.len, err));
      return pqt_buf_append(out, "\"", 1, err);
    case PQT_VARIANT_UUID: {
      pqt_value_type vt;
      memset(&vt, 0, sizeof vt);
      vt.physical_type = PQT_FIXED_LEN_BYTE_ARRAY;
      vt.type_length = 16;
      vt.converted_type = -1;
      vt.logical.isset = 1u << PQT_LT_UUID;
      return pqt_format_value(&vt, s->u.uuid, 16, out, err);
    }
    default: return pqt_error_set(err, PQT_EUNSUPPORTED, "Variant type %d has no JSON form", (int)s->type);
  }
}

static pqt_status value_json(const pqt_variant *v, int depth, pqt_buf *out, pqt_error *err) {
  PQT_CHECK_CORRUPT(depth <= PQT_VARIANT_MAX_DEPTH, err, "Variant nests deeper than %d levels", PQT_VARIANT_MAX_DEPTH);
  pqt_variant_kind t;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(v, &t, err));
  if (t != PQT_VARIANT_OBJECT && t != PQT_VARIANT_ARRAY) {
    pqt_variant_scalar s;
    PQT_RETURN_NOT_OK(pqt_variant_get_scalar(v, &s, err));
    return scalar_json(&s, out, err);
  }
  int64_t n;
  PQT_RETURN_NOT_OK(pqt_variant_num_elements(v, &n, err));
  PQT_RETURN_NOT_OK(pqt_buf_append(out, t == PQT_VARIANT_OBJECT ? "{" : "[", 1, err));
  for (int64_t i = 0; i < n; i++) {
    if (i) PQT_RETURN_NOT_OK(pqt_buf_append(out, ",", 1, err));
    pqt_variant c;
    if (t == PQT_VARIANT_OBJECT) {
      const char *name;
      size_t len;
      PQT_RETURN_NOT_OK(pqt_variant_object_field(v, i, &name, &len, &c, err));
      PQT_RETURN_NOT_OK(pqt_json_string_append(out, (const uint8_t *)name, len, err));
      PQT_RETURN_NOT_OK(pqt_buf_append(out, ":", 1, err));
    } else {
      PQT_RETURN_NOT_OK(pqt_variant_array_element(v, i, &c, err));
    }
    PQT_RETURN_NOT_OK(value_json(&c, depth + 1, out, err));
  }
  return pqt_buf_append(out, t == PQT_VARIANT_OBJECT ? "}" : "]", 1, err);
}

pqt_status pqt_variant_json_append(const pqt_variant *v, pqt_buf *out, pqt_error *err) {
  return value_json(v, 0, out, err);
}

PQT_API pqt_status pqt_variant_to_json(const pqt_variant *v, pqt_string *out, pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_to_json: bad arguments");
  pqt_buf b;
  if (out->data) {
    b.data = (uint8_t *)out->data;
    b.len = out->len;
    b.cap = out->cap;
    b.alloc = out->alloc;
  } else {
    pqt_buf_init(&b, out->alloc);
  }
  size_t mark = b.len;
  pqt_status st = value_json(v, 0, &b, err);
  if (st == PQT_OK) st = pqt_buf_append(&b, "", 1, err); /* NUL-terminated */
  if (st == PQT_OK) {
    b.len--;
  } else {
    b.len = mark; /* what the caller had is kept, nothing half-written */
    if (b.data && b.cap > mark) b.data[mark] = 0;
  }
  out->data = (char *)b.data;
  out->len = b.data ? b.len : 0;
  out->cap = b.cap;
  out->alloc = b.alloc;
  return st;
}
