/*
 * variant/variant_shred_read.c: one row of a shredded Variant group back to
 * the Variant it stands for (VariantShredding.md, construct_variant).
 *
 *   typed_value non-null: an object (its present fields, united with the
 *     fields of `value`, which must then be an object holding none of the
 *     shredded names), an array (each element a value/typed_value pair that
 *     must be present; `value` must be null) or a primitive (`value` null);
 *   else value non-null: the value as stored;
 *   else missing: left out of an object, Variant null at the top level
 *     and as an array element (the spec wants elements written as Variant
 *     null; the corpus's reference reader reads a missing one so).
 *
 * Every other shape is an error naming the row and the column. Objects are
 * written with their fields sorted by name (the names' ids come from the
 * row's metadata, which must hold every name); the finished value is
 * validated against the metadata before it is handed out. An object kept
 * whole in `value` with its field ids out of name order (DuckDB 1.5 writes
 * them so) is accepted and handed out with its ids in name order.
 */
#include <stdlib.h>
#include <string.h>

#include "variant/variant_shred.h"

typedef struct shred_ctx {
  const pqt_allocator *alloc;
  pqt_vmeta meta;
  pqt_variant mv; /* metadata view */
  int64_t row;    /* for errors */
  pqt_error *err;
} shred_ctx;

static bool bit_valid(const uint8_t *validity, int64_t i) { return !validity || ((validity[i >> 3] >> (i & 7)) & 1); }

static pqt_status fail(shred_ctx *c, const char *path, const char *what) {
  return pqt_corrupt(c->err, "row %lld, column %s: invalid variant: %s", (long long)c->row, path ? path : "?", what);
}

static void put_le(uint8_t *p, uint64_t v, unsigned w) {
  for (unsigned k = 0; k < w; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static unsigned width_for(uint64_t max) { return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4; }

/* The id of a dictionary name (binary search when the dictionary is sorted). */
static pqt_status meta_find(shred_ctx *c, const char *name, size_t len, uint32_t *id, bool *found) {
  *found = false;
  const pqt_vmeta *m = &c->meta;
  if (m->sorted) {
    uint32_t lo = 0, hi = m->dict_size;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      const uint8_t *s;
      size_t n;
      PQT_RETURN_NOT_OK(pqt_vmeta_key(m, mid, &s, &n, c->err));
      int cmp = memcmp(s, name, n < len ? n : len);
      if (cmp == 0) cmp = n < len ? -1 : n > len ? 1 : 0;
      if (cmp == 0) {
        *id = mid;
        *found = true;
        return PQT_OK;
      }
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return PQT_OK;
  }
  for (uint32_t k = 0; k < m->dict_size; k++) {
    const uint8_t *s;
    size_t n;
    PQT_RETURN_NOT_OK(pqt_vmeta_key(m, k, &s, &n, c->err));
    if (n == len && memcmp(s, name, n) == 0) {
      *id = k;
      *found = true;
      return PQT_OK;
    }
  }
  return PQT_OK;
}

static pqt_status emit_pair(shred_ctx *c, const pqt_vshred_pair *p, int64_t i, int depth, bool *present, pqt_buf *out);

static pqt_status put_header_int(pqt_buf *out, unsigned type_id, uint64_t v, unsigned w, pqt_error *err) {
  uint8_t b[17];
  b[0] = (uint8_t)(type_id << 2);
  put_le(b + 1, v, w);
  return pqt_buf_append(out, b, 1 + w, err);
}

static pqt_status put_bytes(pqt_buf *out, unsigned type_id, const uint8_t *s, size_t n, pqt_error *err) {
  if (n > UINT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "variant string of %zu bytes", n);
  if (type_id == PQT_VARIANT_STRING && n < 64) {
    uint8_t h = (uint8_t)((n << 2) | 1);
    PQT_RETURN_NOT_OK(pqt_buf_append(out, &h, 1, err));
  } else {
    PQT_RETURN_NOT_OK(put_header_int(out, type_id, n, 4, err));
  }
  return pqt_buf_append(out, s, n, err);
}

static pqt_status emit_primitive(shred_ctx *c, const pqt_vshred_col *t, int64_t i, pqt_buf *out) {
  pqt_error *err = c->err;
  const uint8_t *v = t->values;
  int32_t i32 = 0;
  int64_t i64 = 0;
  switch (t->type) {
    case PQT_VSHRED_INT8:
    case PQT_VSHRED_INT16:
    case PQT_VSHRED_INT32:
    case PQT_VSHRED_DATE:
    case PQT_VSHRED_DECIMAL4:
    case PQT_VSHRED_FLOAT: memcpy(&i32, v + 4 * i, 4); break;
    case PQT_VSHRED_INT64:
    case PQT_VSHRED_DOUBLE:
    case PQT_VSHRED_DECIMAL8:
    case PQT_VSHRED_TIME_MICROS:
    case PQT_VSHRED_TIMESTAMP_UTC_MICROS:
    case PQT_VSHRED_TIMESTAMP_NTZ_MICROS:
    case PQT_VSHRED_TIMESTAMP_UTC_NANOS:
    case PQT_VSHRED_TIMESTAMP_NTZ_NANOS: memcpy(&i64, v + 8 * i, 8); break;
    default: break;
  }
  switch (t->type) {
    case PQT_VSHRED_BOOLEAN: {
      uint8_t h = (uint8_t)((bit_valid(v, i) ? PQT_VARIANT_TRUE : PQT_VARIANT_FALSE) << 2);
      return pqt_buf_append(out, &h, 1, err);
    }
    case PQT_VSHRED_INT8:
      if (i32 < INT8_MIN || i32 > INT8_MAX) return fail(c, t->path, "INT(8) value out of range");
      return put_header_int(out, PQT_VARIANT_INT8, (uint64_t)(int64_t)i32, 1, err);
    case PQT_VSHRED_INT16:
      if (i32 < INT16_MIN || i32 > INT16_MAX) return fail(c, t->path, "INT(16) value out of range");
      return put_header_int(out, PQT_VARIANT_INT16, (uint64_t)(int64_t)i32, 2, err);
    case PQT_VSHRED_INT32: return put_header_int(out, PQT_VARIANT_INT32, (uint64_t)(int64_t)i32, 4, err);
    case PQT_VSHRED_DATE: return put_header_int(out, PQT_VARIANT_DATE, (uint64_t)(int64_t)i32, 4, err);
    case PQT_VSHRED_FLOAT: return put_header_int(out, PQT_VARIANT_FLOAT, (uint32_t)i32, 4, err);
    case PQT_VSHRED_INT64: return put_header_int(out, PQT_VARIANT_INT64, (uint64_t)i64, 8, err);
    case PQT_VSHRED_DOUBLE: return put_header_int(out, PQT_VARIANT_DOUBLE, (uint64_t)i64, 8, err);
    case PQT_VSHRED_TIME_MICROS: return put_header_int(out, PQT_VARIANT_TIME_NTZ_MICROS, (uint64_t)i64, 8, err);
    case PQT_VSHRED_TIMESTAMP_UTC_MICROS:
      return put_header_int(out, PQT_VARIANT_TIMESTAMP_MICROS, (uint64_t)i64, 8, err);
    case PQT_VSHRED_TIMESTAMP_NTZ_MICROS:
      return put_header_int(out, PQT_VARIANT_TIMESTAMP_NTZ_MICROS, (uint64_t)i64, 8, err);
    case PQT_VSHRED_TIMESTAMP_UTC_NANOS: return put_header_int(out, PQT_VARIANT_TIMESTAMP_NANOS, (uint64_t)i64, 8, err);
    case PQT_VSHRED_TIMESTAMP_NTZ_NANOS:
      return put_header_int(out, PQT_VARIANT_TIMESTAMP_NTZ_NANOS, (uint64_t)i64, 8, err);
    case PQT_VSHRED_DECIMAL4:
    case PQT_VSHRED_DECIMAL8: {
      if (t->scale < 0 || t->scale > 38) return fail(c, t->path, "decimal scale out of range");
      bool four = t->type == PQT_VSHRED_DECIMAL4;
      uint8_t b[10];
      b[0] = (uint8_t)((four ? PQT_VARIANT_DECIMAL4 : PQT_VARIANT_DECIMAL8) << 2);
      b[1] = (uint8_t)t->scale;
      put_le(b + 2, four ? (uint64_t)(int64_t)i32 : (uint64_t)i64, four ? 4 : 8);
      return pqt_buf_append(out, b, four ? 6 : 10, err);
    }
    case PQT_VSHRED_DECIMAL16_FIXED:
    case PQT_VSHRED_DECIMAL16_BYTES: {
      if (t->scale < 0 || t->scale > 38) return fail(c, t->path, "decimal scale out of range");
      const uint8_t *s;
      size_t n;
      if (t->type == PQT_VSHRED_DECIMAL16_FIXED) {
        n = (size_t)t->width;
        s = v + (size_t)i * n;
      } else {
        s = v + t->offsets[i];
        n = (size_t)(t->offsets[i + 1] - t->offsets[i]);
      }
      if (n == 0 || n > 16) return fail(c, t->path, "decimal of more than 16 bytes");
      uint8_t b[18];
      b[0] = (uint8_t)(PQT_VARIANT_DECIMAL16 << 2);
      b[1] = (uint8_t)t->scale;
      uint8_t fill = (s[0] & 0x80) ? 0xff : 0;
      for (size_t k = 0; k < 16; k++) b[2 + k] = k < n ? s[n - 1 - k] : fill;
      return pqt_buf_append(out, b, 18, err);
    }
    case PQT_VSHRED_BINARY:
    case PQT_VSHRED_STRING:
      return put_bytes(out, t->type == PQT_VSHRED_STRING ? PQT_VARIANT_STRING : PQT_VARIANT_BINARY, v + t->offsets[i],
                       (size_t)(t->offsets[i + 1] - t->offsets[i]), err);
    case PQT_VSHRED_UUID: {
      uint8_t h = (uint8_t)(PQT_VARIANT_UUID << 2);
      PQT_RETURN_NOT_OK(pqt_buf_append(out, &h, 1, err));
      return pqt_buf_append(out, v + 16 * i, 16, err);
    }
    default: return fail(c, t->path, "unexpected shredded type");
  }
}

typedef struct obj_entry {
  uint32_t id;
  const uint8_t *name;
  size_t name_len;
  size_t start, len; /* in the scratch buffer */
} obj_entry;

static int entry_cmp(const void *a, const void *b) {
  const obj_entry *x = a, *y = b;
  size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
  int c = memcmp(x->name, y->name, n);
  if (c) return c;
  return x->name_len < y->name_len ? -1 : x->name_len > y->name_len ? 1 : 0;
}

/* Write an object of n entries (values in scratch) to out. */
static pqt_status write_object(shred_ctx *c, const char *path, obj_entry *e, size_t n, const pqt_buf *scratch,
                               pqt_buf *out) {
  pqt_error *err = c->err;
  if (n > 1) qsort(e, n, sizeof *e, entry_cmp);
  uint32_t max_id = 0;
  size_t total = 0;
  for (size_t k = 0; k < n; k++) {
    if (k > 0 && entry_cmp(&e[k - 1], &e[k]) == 0) return fail(c, path, "conflicting value and typed_value");
    if (e[k].id > max_id) max_id = e[k].id;
    total += e[k].len;
  }
  if (total > UINT32_MAX || n > UINT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "variant object too large");
  unsigned idw = width_for(max_id), offw = width_for(total);
  bool large = n > 255;
  uint8_t h = (uint8_t)((((large ? 1u : 0u) << 4) | ((idw - 1) << 2) | (offw - 1)) << 2 | 2);
  uint8_t tmp[4];
  PQT_RETURN_NOT_OK(pqt_buf_append(out, &h, 1, err));
  put_le(tmp, n, large ? 4 : 1);
  PQT_RETURN_NOT_OK(pqt_buf_append(out, tmp, large ? 4 : 1, err));
  for (size_t k = 0; k < n; k++) {
    put_le(tmp, e[k].id, idw);
    PQT_RETURN_NOT_OK(pqt_buf_append(out, tmp, idw, err));
  }
  size_t off = 0;
  for (size_t k = 0; k <= n; k++) {
    put_le(tmp, off, offw);
    PQT_RETURN_NOT_OK(pqt_buf_append(out, tmp, offw, err));
    if (k < n) off += e[k].len;
  }
  for (size_t k = 0; k < n; k++) PQT_RETURN_NOT_OK(pqt_buf_append(out, scratch->data + e[k].start, e[k].len, err));
  return pqt_buf_status(out, err);
}

static pqt_status emit_object(shred_ctx *c, const pqt_vshred_col *t, int64_t i, const uint8_t *rest, size_t rest_len,
                              int depth, pqt_buf *out) {
  pqt_error *err = c->err;
  pqt_vcont rc;
  memset(&rc, 0, sizeof rc);
  if (rest) {
    if (rest_len == 0 || (rest[0] & 3) != 2) return fail(c, t->path, "non-object value with shredded fields");
    PQT_RETURN_NOT_OK(pqt_vcont_open(rest, rest_len, &rc, err));
  }
  size_t cap = (size_t)t->n_fields + (rest ? rc.n : 0);
  obj_entry *e = pqt_mem_calloc(c->alloc, sizeof *e * (cap ? cap : 1));
  if (!e) return pqt_nomem(err);
  pqt_buf scratch;
  pqt_buf_init(&scratch, c->alloc);
  size_t n = 0;
  pqt_status st = PQT_OK;
  for (int32_t f = 0; f < t->n_fields && st == PQT_OK; f++) {
    const pqt_vshred_pair *p = &t->fields[f];
    size_t start = scratch.len;
    bool present = false;
    st = emit_pair(c, p, i, depth + 1, &present, &scratch);
    if (st != PQT_OK || !present) continue;
    uint32_t id = 0;
    bool found = false;
    st = meta_find(c, p->name, p->name_len, &id, &found);
    if (st == PQT_OK && !found) st = fail(c, t->path, "a shredded field name is not in the metadata");
    if (st != PQT_OK) break;
    e[n++] = (obj_entry){id, (const uint8_t *)p->name, p->name_len, start, scratch.len - start};
  }
  for (uint32_t k = 0; rest && k < rc.n && st == PQT_OK; k++) {
    uint32_t id = pqt_vcont_field_id(&rc, k);
    const uint8_t *name, *fv;
    size_t name_len, fn;
    st = pqt_vmeta_key(&c->meta, id, &name, &name_len, err);
    if (st == PQT_OK) st = pqt_vcont_child(&rc, k, &fv, &fn, err);
    for (int32_t f = 0; st == PQT_OK && f < t->n_fields; f++)
      if (t->fields[f].name_len == name_len && memcmp(t->fields[f].name, name, name_len) == 0)
        st = fail(c, t->path, "conflicting value and typed_value (a shredded field is also in value)");
    if (st != PQT_OK) break;
    size_t start = scratch.len;
    st = pqt_buf_append(&scratch, fv, fn, err);
    e[n++] = (obj_entry){id, name, name_len, start, fn};
  }
  if (st == PQT_OK) st = pqt_buf_status(&scratch, err);
  if (st == PQT_OK) st = write_object(c, t->path, e, n, &scratch, out);
  pqt_buf_free(&scratch);
  pqt_mem_free(c->alloc, e, sizeof *e * (cap ? cap : 1));
  return st;
}

static pqt_status emit_array(shred_ctx *c, const pqt_vshred_col *t, int64_t i, int depth, pqt_buf *out) {
  pqt_error *err = c->err;
  if (t->n_fields != 1) return fail(c, t->path, "a shredded array needs one element group");
  int32_t b = t->offsets[i], e = t->offsets[i + 1];
  if (e < b) return fail(c, t->path, "list offsets go backwards");
  size_t n = (size_t)(e - b);
  size_t *ends = pqt_mem_calloc(c->alloc, sizeof *ends * (n ? n : 1));
  if (!ends) return pqt_nomem(err);
  pqt_buf scratch;
  pqt_buf_init(&scratch, c->alloc);
  pqt_status st = PQT_OK;
  for (size_t k = 0; k < n && st == PQT_OK; k++) {
    bool present = false;
    st = emit_pair(c, &t->fields[0], b + (int64_t)k, depth + 1, &present, &scratch);
    if (st == PQT_OK && !present) { /* not written by the spec's rules; read as the reference reader does */
      uint8_t z = 0;
      st = pqt_buf_append(&scratch, &z, 1, err);
    }
    ends[k] = scratch.len;
  }
  if (st == PQT_OK) st = pqt_buf_status(&scratch, err);
  if (st == PQT_OK && (scratch.len > UINT32_MAX || n > UINT32_MAX))
    st = pqt_error_set(err, PQT_ELIMIT, "variant array too large");
  if (st == PQT_OK) {
    unsigned offw = width_for(scratch.len);
    bool large = n > 255;
    uint8_t h = (uint8_t)((((large ? 1u : 0u) << 2) | (offw - 1)) << 2 | 3);
    uint8_t tmp[4];
    pqt_buf_append(out, &h, 1, err);
    put_le(tmp, n, large ? 4 : 1);
    pqt_buf_append(out, tmp, large ? 4 : 1, err);
    for (size_t k = 0; k <= n; k++) {
      put_le(tmp, k == 0 ? 0 : ends[k - 1], offw);
      pqt_buf_append(out, tmp, offw, err);
    }
    pqt_buf_append(out, scratch.data, scratch.len, err);
    st = pqt_buf_status(out, err);
  }
  pqt_buf_free(&scratch);
  pqt_mem_free(c->alloc, ends, sizeof *ends * (n ? n : 1));
  return st;
}

static pqt_status emit_pair(shred_ctx *c, const pqt_vshred_pair *p, int64_t i, int depth, bool *present, pqt_buf *out) {
  *present = false;
  if (depth > PQT_VARIANT_MAX_DEPTH)
    return pqt_error_set(c->err, PQT_ELIMIT, "row %lld: variant nested deeper than %d", (long long)c->row,
                         PQT_VARIANT_MAX_DEPTH);
  if (!bit_valid(p->validity, i)) return PQT_OK;
  const pqt_vshred_col *v = p->value, *t = p->typed;
  if (t && t->type == PQT_VSHRED_UNSUPPORTED)
    return pqt_error_set(c->err, PQT_EUNSUPPORTED, "row %lld, column %s: unsupported shredded value type: %s",
                         (long long)c->row, t->path, t->type_name ? t->type_name : "?");
  bool has_v = v && bit_valid(v->validity, i);
  bool has_t = t && bit_valid(t->validity, i);
  const uint8_t *vb = NULL;
  size_t vn = 0;
  if (has_v) {
    vb = v->values + v->offsets[i];
    vn = (size_t)(v->offsets[i + 1] - v->offsets[i]);
  }
  if (has_t) {
    *present = true;
    if (t->type == PQT_VSHRED_OBJECT) return emit_object(c, t, i, vb, vn, depth, out);
    if (has_v) return fail(c, t->path, "conflicting value and typed_value");
    if (t->type == PQT_VSHRED_ARRAY) return emit_array(c, t, i, depth, out);
    return emit_primitive(c, t, i, out);
  }
  if (has_v) {
    if (vn == 0) return fail(c, v->path, "an empty value");
    *present = true;
    return pqt_buf_append(out, vb, vn, c->err);
  }
  return PQT_OK;
}

pqt_status pqt_vshred_row(const pqt_variant *meta, const pqt_vshred_pair *top, int64_t i, int64_t row_base,
                          const pqt_allocator *alloc, pqt_buf *out, pqt_error *err) {
  shred_ctx c = {.alloc = alloc, .mv = *meta, .row = row_base + i, .err = err};
  pqt_status st = pqt_vmeta_parse(meta->metadata, meta->metadata_len, &c.meta, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "row %lld, variant metadata", (long long)c.row);
    return st;
  }
  size_t start = out->len;
  bool present = false;
  PQT_RETURN_NOT_OK(emit_pair(&c, top, i, 0, &present, out));
  if (!present) {
    uint8_t z = 0;
    PQT_RETURN_NOT_OK(pqt_buf_append(out, &z, 1, err));
  }
  PQT_RETURN_NOT_OK(pqt_buf_status(out, err));
  pqt_variant whole = *meta;
  whole.value = out->data + start;
  whole.value_len = out->len - start;
  /* objects written with their field ids out of name order are read, and
   * handed out in name order (the encoding's rule) */
  bool unsorted = false;
  st = pqt_variant_validate_read(&whole, &unsorted, err);
  if (st == PQT_OK && unsorted)
    st = pqt_variant_sort_fields(meta->metadata, meta->metadata_len, out->data + start, out->len - start, err);
  if (st != PQT_OK) pqt_error_prefix(err, "row %lld, variant value", (long long)c.row);
  return st;
}
