/*
 * thrift/compact.c: the Thrift compact protocol reader and writer used for
 * every parquet.thrift structure (parquet-format README.md, "Metadata": the file metadata
 * and page headers are Thrift compact-protocol structs). Wire rules and the
 * plausibility argument for container sizes are in compact.h.
 */
#include <stdio.h>

#include "thrift/compact.h"

#include "core/varint.h"

void pqt_tcr_init(pqt_tcr *r, const uint8_t *buf, size_t len, const pqt_thrift_limits *lim, pqt_error *err) {
  r->begin = buf;
  r->p = buf;
  r->end = buf + len;
  r->status = PQT_OK;
  r->err = err;
  r->max_depth = PQT_THRIFT_DEFAULT_MAX_DEPTH;
  r->max_string_bytes = PQT_THRIFT_DEFAULT_MAX_STRING_BYTES;
  r->max_container_elems = PQT_THRIFT_DEFAULT_MAX_CONTAINER_ELEMS;
  if (lim) {
    if (lim->max_depth > 0) r->max_depth = lim->max_depth;
    if (lim->max_string_bytes > 0) r->max_string_bytes = lim->max_string_bytes;
    if (lim->max_container_elems > 0) r->max_container_elems = lim->max_container_elems;
  }
}

pqt_status pqt_tcr_fail(pqt_tcr *r, pqt_status code, const char *fmt, ...) {
  if (r->status != PQT_OK) return r->status;
  r->status = code;
  /* Stop all further reads: nothing remains. */
  size_t off = pqt_tcr_offset(r);
  r->p = r->end;
  if (r->err) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (code == PQT_ECORRUPT) pqt_corrupt(r->err, "thrift at byte %zu: %s", off, msg);
    else pqt_error_set(r->err, code, "thrift at byte %zu: %s", off, msg);
  }
  return code;
}

uint64_t pqt_tcr_varint_slow(pqt_tcr *r) {
  uint64_t v = 0;
  const uint8_t *start = r->p;
  switch (pqt_uleb_read(&r->p, r->end, &v)) {
    case PQT_ULEB_OK: return v;
    case PQT_ULEB_TRUNCATED:
      r->p = r->end; /* the bytes were consumed: the error offset is the end */
      pqt_tcr_fail(r, PQT_ECORRUPT, "truncated varint");
      return 0;
    default:
      r->p = start + PQT_ULEB_MAX_BYTES; /* where the 10th byte was read */
      pqt_tcr_fail(r, PQT_ECORRUPT, "varint overflows 64 bits");
      return 0;
  }
}

int8_t pqt_tcr_i8(pqt_tcr *r) { return (int8_t)pqt_tcr_byte(r); }

int16_t pqt_tcr_i16(pqt_tcr *r) {
  uint64_t v = pqt_tcr_varint(r);
  if (PQT_UNLIKELY(v > UINT16_MAX)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "i16 varint out of range");
    return 0;
  }
  return (int16_t)pqt_zigzag_decode64(v);
}

int32_t pqt_tcr_i32_slow(pqt_tcr *r) {
  uint64_t v = pqt_tcr_varint(r);
  if (PQT_UNLIKELY(v > UINT32_MAX)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "i32 varint out of range");
    return 0;
  }
  return (int32_t)pqt_zigzag_decode64(v);
}

double pqt_tcr_double(pqt_tcr *r) {
  if (PQT_UNLIKELY(pqt_tcr_remaining(r) < 8)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "truncated double");
    return 0.0;
  }
  uint64_t u = pqt_load_u64le(r->p);
  r->p += 8;
  double d;
  memcpy(&d, &u, 8);
  return d;
}

bool pqt_tcr_bool_elem(pqt_tcr *r) {
  if (PQT_UNLIKELY(r->p >= r->end)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "truncated bool");
    return false;
  }
  uint8_t b = *r->p;
  if (b == 1) {
    r->p++;
    return true;
  }
  if (b == 2 || b == 0) {
    r->p++;
    return false;
  }
  pqt_tcr_fail(r, PQT_ECORRUPT, "invalid bool byte 0x%02x", b);
  return false;
}

pqt_bytes pqt_tcr_binary(pqt_tcr *r) {
  pqt_bytes out = {NULL, 0};
  uint64_t n = pqt_tcr_varint(r);
  if (r->status) return out;
  if (PQT_UNLIKELY(n > INT32_MAX)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "binary length %llu is negative or too large", (unsigned long long)n);
    return out;
  }
  if (PQT_UNLIKELY(n > pqt_tcr_remaining(r))) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "binary length %llu exceeds the %zu bytes left", (unsigned long long)n,
                 pqt_tcr_remaining(r));
    return out;
  }
  if (PQT_UNLIKELY((int64_t)n > r->max_string_bytes)) {
    pqt_tcr_fail(r, PQT_ELIMIT, "binary length %llu exceeds the limit %lld", (unsigned long long)n,
                 (long long)r->max_string_bytes);
    return out;
  }
  out.ptr = r->p;
  out.len = (int64_t)n;
  r->p += n;
  return out;
}

int pqt_tcr_field_begin_slow(pqt_tcr *r, int16_t *last_id, int16_t *id) {
  uint8_t b = pqt_tcr_byte(r);
  if (r->status) return PQT_TW_STOP;
  int type = b & 0x0f;
  /* As Apache Thrift does, a zero type nibble ends the struct whatever the
   * high nibble holds. */
  if (type == PQT_TW_STOP) return PQT_TW_STOP;
  if (PQT_UNLIKELY(type > PQT_TW_STRUCT)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "invalid field type %d", type);
    return PQT_TW_STOP;
  }
  int delta = b >> 4;
  if (delta) {
    int32_t nid = (int32_t)*last_id + delta;
    if (PQT_UNLIKELY(nid > INT16_MAX)) {
      pqt_tcr_fail(r, PQT_ECORRUPT, "field id delta overflows");
      return PQT_TW_STOP;
    }
    *id = (int16_t)nid;
  } else {
    *id = pqt_tcr_i16(r);
    if (r->status) return PQT_TW_STOP;
  }
  *last_id = *id;
  return type;
}

size_t pqt_tcr_min_elem_bytes(int type) { return type == PQT_TW_DOUBLE ? 8u : 1u; }

static bool valid_elem_type(int t) { return t >= PQT_TW_TRUE && t <= PQT_TW_STRUCT; }

static bool check_count(pqt_tcr *r, uint64_t n, size_t min_each, const char *what) {
  if (PQT_UNLIKELY(n > INT32_MAX)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "%s size %llu is negative or too large", what, (unsigned long long)n);
    return false;
  }
  size_t need;
  if (!pqt_mul_size((size_t)n, min_each, &need) || need > pqt_tcr_remaining(r)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "%s of %llu elements cannot fit in the %zu bytes left", what, (unsigned long long)n,
                 pqt_tcr_remaining(r));
    return false;
  }
  if (PQT_UNLIKELY((int64_t)n > r->max_container_elems)) {
    pqt_tcr_fail(r, PQT_ELIMIT, "%s of %llu elements exceeds the limit %lld", what, (unsigned long long)n,
                 (long long)r->max_container_elems);
    return false;
  }
  return true;
}

bool pqt_tcr_list_begin(pqt_tcr *r, int *elem_type, int32_t *n) {
  *n = 0;
  *elem_type = 0;
  uint8_t b = pqt_tcr_byte(r);
  if (r->status) return false;
  int t = b & 0x0f;
  uint64_t size = b >> 4;
  if (PQT_UNLIKELY(!valid_elem_type(t))) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "invalid list element type %d", t);
    return false;
  }
  if (t == PQT_TW_FALSE) t = PQT_TW_TRUE;
  if (size == 15) {
    size = pqt_tcr_varint(r);
    if (r->status) return false;
  }
  if (!check_count(r, size, pqt_tcr_min_elem_bytes(t), "list")) return false;
  *elem_type = t;
  *n = (int32_t)size;
  return true;
}

bool pqt_tcr_map_begin(pqt_tcr *r, int *ktype, int *vtype, int32_t *n) {
  *n = 0;
  *ktype = *vtype = 0;
  uint64_t size = pqt_tcr_varint(r);
  if (r->status) return false;
  if (size == 0) return true;
  if (size > INT32_MAX) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "map size %llu is negative or too large", (unsigned long long)size);
    return false;
  }
  uint8_t b = pqt_tcr_byte(r);
  if (r->status) return false;
  int kt = b >> 4, vt = b & 0x0f;
  if (!valid_elem_type(kt) || !valid_elem_type(vt)) {
    pqt_tcr_fail(r, PQT_ECORRUPT, "invalid map key/value types 0x%02x", b);
    return false;
  }
  if (kt == PQT_TW_FALSE) kt = PQT_TW_TRUE;
  if (vt == PQT_TW_FALSE) vt = PQT_TW_TRUE;
  if (!check_count(r, size, pqt_tcr_min_elem_bytes(kt) + pqt_tcr_min_elem_bytes(vt), "map")) return false;
  *ktype = kt;
  *vtype = vt;
  *n = (int32_t)size;
  return true;
}

void pqt_tcr_skip(pqt_tcr *r, int type, bool in_container, int depth) {
  if (r->status) return;
  switch (type) {
    case PQT_TW_TRUE:
    case PQT_TW_FALSE:
      if (in_container) (void)pqt_tcr_bool_elem(r);
      return;
    case PQT_TW_I8: (void)pqt_tcr_byte(r); return;
    case PQT_TW_I16:
    case PQT_TW_I32:
    case PQT_TW_I64: (void)pqt_tcr_varint(r); return;
    case PQT_TW_DOUBLE:
      if (pqt_tcr_remaining(r) < 8) pqt_tcr_fail(r, PQT_ECORRUPT, "truncated double");
      else r->p += 8;
      return;
    case PQT_TW_BINARY: (void)pqt_tcr_binary(r); return;
    default: break;
  }
  /* Containers: one level deeper. */
  if (depth + 1 > r->max_depth) {
    pqt_tcr_fail(r, PQT_ELIMIT, "nesting deeper than %d", (int)r->max_depth);
    return;
  }
  switch (type) {
    case PQT_TW_LIST:
    case PQT_TW_SET: {
      int et;
      int32_t n;
      if (!pqt_tcr_list_begin(r, &et, &n)) return;
      for (int32_t i = 0; i < n && !r->status; i++) pqt_tcr_skip(r, et, true, depth + 1);
      return;
    }
    case PQT_TW_MAP: {
      int kt, vt;
      int32_t n;
      if (!pqt_tcr_map_begin(r, &kt, &vt, &n)) return;
      for (int32_t i = 0; i < n && !r->status; i++) {
        pqt_tcr_skip(r, kt, true, depth + 1);
        pqt_tcr_skip(r, vt, true, depth + 1);
      }
      return;
    }
    case PQT_TW_STRUCT: {
      int16_t last = 0, id;
      for (;;) {
        int t = pqt_tcr_field_begin(r, &last, &id);
        if (t == PQT_TW_STOP) return;
        pqt_tcr_skip(r, t, false, depth + 1);
      }
    }
    default: pqt_tcr_fail(r, PQT_ECORRUPT, "invalid type %d", type); return;
  }
}

/* ---- writer ---------------------------------------------------------- */

void pqt_tcw_init(pqt_tcw *w, pqt_buf *out, pqt_error *err) {
  w->out = out;
  w->status = PQT_OK;
  w->err = err;
}

static inline uint8_t *tcw_room(pqt_tcw *w, size_t n) {
  if (w->status) return NULL;
  if (PQT_UNLIKELY(w->out->cap - w->out->len < n)) {
    w->status = pqt_buf_reserve(w->out, n, w->err);
    if (w->status) return NULL;
  }
  return w->out->data + w->out->len;
}

void pqt_tcw_byte(pqt_tcw *w, uint8_t b) {
  uint8_t *o = tcw_room(w, 1);
  if (!o) return;
  *o = b;
  w->out->len++;
}

void pqt_tcw_varint(pqt_tcw *w, uint64_t v) {
  uint8_t *o = tcw_room(w, PQT_ULEB_MAX_BYTES);
  if (!o) return;
  w->out->len += pqt_uleb_put(o, v);
}

void pqt_tcw_i8(pqt_tcw *w, int8_t v) { pqt_tcw_byte(w, (uint8_t)v); }
void pqt_tcw_i16(pqt_tcw *w, int16_t v) { pqt_tcw_varint(w, pqt_zigzag_encode64(v)); }
void pqt_tcw_i32(pqt_tcw *w, int32_t v) { pqt_tcw_varint(w, pqt_zigzag_encode64(v)); }
void pqt_tcw_i64(pqt_tcw *w, int64_t v) { pqt_tcw_varint(w, pqt_zigzag_encode64(v)); }

void pqt_tcw_double(pqt_tcw *w, double v) {
  uint8_t *o = tcw_room(w, 8);
  if (!o) return;
  uint64_t u;
  memcpy(&u, &v, 8);
  pqt_store_u64le(o, u);
  w->out->len += 8;
}

void pqt_tcw_binary(pqt_tcw *w, const uint8_t *p, size_t n) {
  pqt_tcw_varint(w, n);
  if (w->status || n == 0) return;
  uint8_t *o = tcw_room(w, n);
  if (!o) return;
  memcpy(o, p, n);
  w->out->len += n;
}

void pqt_tcw_bool_elem(pqt_tcw *w, bool v) { pqt_tcw_byte(w, v ? 1 : 2); }

void pqt_tcw_field_begin(pqt_tcw *w, int type, int16_t id, int16_t *last_id) {
  int32_t delta = (int32_t)id - *last_id;
  if (delta > 0 && delta <= 15) {
    pqt_tcw_byte(w, (uint8_t)((delta << 4) | type));
  } else {
    pqt_tcw_byte(w, (uint8_t)type);
    pqt_tcw_i16(w, id);
  }
  *last_id = id;
}

void pqt_tcw_list_begin(pqt_tcw *w, int elem_type, int32_t n) {
  if (n >= 0 && n < 15) {
    pqt_tcw_byte(w, (uint8_t)((n << 4) | elem_type));
  } else {
    pqt_tcw_byte(w, (uint8_t)(0xf0 | elem_type));
    pqt_tcw_varint(w, (uint32_t)n);
  }
}

void pqt_tcw_map_begin(pqt_tcw *w, int ktype, int vtype, int32_t n) {
  pqt_tcw_varint(w, (uint32_t)n);
  if (n > 0) pqt_tcw_byte(w, (uint8_t)((ktype << 4) | vtype));
}
