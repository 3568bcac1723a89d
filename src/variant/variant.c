/*
 * variant/variant.c: reading the Variant binary encoding (parquet-format
 * VariantEncoding.md): the metadata dictionary, value headers, containers,
 * validation of whole trees, scalar getters, field lookup, paths and
 * equality. Every offset and size read from the bytes is checked before use.
 */
#include "variant/variant.h"

#include <stdlib.h>

#include "core/utf8.h"

/* ---- metadata ------------------------------------------------------- */

pqt_status pqt_vmeta_parse(const uint8_t *p, size_t n, pqt_vmeta *m, pqt_error *err) {
  memset(m, 0, sizeof *m);
  PQT_CHECK_CORRUPT(p && n >= 1, err, "Variant metadata is empty");
  unsigned version = p[0] & 0x0Fu;
  if (version != 1)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "Variant metadata version %u is not supported (version 1 is)", version);
  m->sorted = (p[0] >> 4) & 1u;
  m->offset_size = ((p[0] >> 6) & 3u) + 1;
  size_t os = m->offset_size;
  PQT_CHECK_CORRUPT(n >= 1 + os, err, "Variant metadata of %zu bytes ends inside its dictionary size", n);
  m->dict_size = pqt_vload(p + 1, m->offset_size);
  size_t room = (n - 1 - os) / os; /* offsets that fit */  // NOLINT(clang-analyzer-core.DivideZero): os = offset_size is 1..4
  PQT_CHECK_CORRUPT((size_t)m->dict_size < room, err,
                    "Variant metadata: a dictionary of %u strings needs more than its %zu bytes", m->dict_size, n);
  m->offsets = p + 1 + os;
  size_t start = 1 + os + ((size_t)m->dict_size + 1) * os;
  m->bytes = p + start;
  m->bytes_len = n - start;
  uint32_t last = pqt_vload(m->offsets + (size_t)m->dict_size * os, m->offset_size);
  PQT_CHECK_CORRUPT(last <= m->bytes_len, err,
                    "Variant metadata: the dictionary's strings end at %u, past its %zu bytes", last, m->bytes_len);
  return PQT_OK;
}

pqt_status pqt_vmeta_key(const pqt_vmeta *m, uint32_t id, const uint8_t **s, size_t *len, pqt_error *err) {
  PQT_CHECK_CORRUPT(id < m->dict_size, err, "Variant field id %u is not in the metadata's %u strings", id,
                    m->dict_size);
  uint32_t a = pqt_vload(m->offsets + (size_t)id * m->offset_size, m->offset_size);
  uint32_t b = pqt_vload(m->offsets + ((size_t)id + 1) * m->offset_size, m->offset_size);
  PQT_CHECK_CORRUPT(a <= b && b <= m->bytes_len, err, "Variant metadata: string %u has offsets %u..%u", id, a, b);
  *s = m->bytes + a;
  *len = b - a;
  return PQT_OK;
}

static int bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t common = an < bn ? an : bn;
  int c = common ? memcmp(a, b, common) : 0; /* memcmp's pointers must be valid even for 0 bytes */
  return c ? c : (an > bn) - (an < bn);
}

static pqt_status vmeta_validate(const pqt_vmeta *m, pqt_error *err) {
  const uint8_t *prev = NULL;
  size_t prev_len = 0;
  for (uint32_t i = 0; i < m->dict_size; i++) {
    const uint8_t *s;
    size_t len;
    PQT_RETURN_NOT_OK(pqt_vmeta_key(m, i, &s, &len, err));
    size_t bad = pqt_utf8_invalid_at(s, len);
    PQT_CHECK_CORRUPT(bad == len, err, "Variant metadata: string %u is not UTF-8 (byte %zu)", i, bad);
    if (m->sorted && i > 0)
      PQT_CHECK_CORRUPT(bytes_cmp(prev, prev_len, s, len) < 0, err,
                        "Variant metadata says its strings are sorted and unique, but string %u is not after %u", i,
                        i - 1);
    prev = s;
    prev_len = len;
  }
  return PQT_OK;
}

/* ---- values --------------------------------------------------------- */

/* Bytes after the header byte of primitive type t, or -1 for one of
 * variable size (binary, string), -2 for an unknown type. */
static int primitive_fixed_size(unsigned t) {
  switch (t) {
    case PQT_VARIANT_NULL:
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: return 0;
    case PQT_VARIANT_INT8: return 1;
    case PQT_VARIANT_INT16: return 2;
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_DATE:
    case PQT_VARIANT_FLOAT: return 4;
    case PQT_VARIANT_INT64:
    case PQT_VARIANT_DOUBLE:
    case PQT_VARIANT_TIMESTAMP_MICROS:
    case PQT_VARIANT_TIMESTAMP_NTZ_MICROS:
    case PQT_VARIANT_TIME_NTZ_MICROS:
    case PQT_VARIANT_TIMESTAMP_NANOS:
    case PQT_VARIANT_TIMESTAMP_NTZ_NANOS: return 8;
    case PQT_VARIANT_DECIMAL4: return 5;
    case PQT_VARIANT_DECIMAL8: return 9;
    case PQT_VARIANT_DECIMAL16: return 17;
    case PQT_VARIANT_UUID: return 16;
    case PQT_VARIANT_BINARY:
    case PQT_VARIANT_STRING: return -1;
    default: return -2;
  }
}

enum { BASIC_PRIMITIVE = 0, BASIC_SHORT_STRING = 1, BASIC_OBJECT = 2, BASIC_ARRAY = 3 };

pqt_status pqt_vcont_open(const uint8_t *p, size_t n, pqt_vcont *c, pqt_error *err) {
  memset(c, 0, sizeof *c);
  PQT_CHECK_CORRUPT(n >= 1, err, "Variant value is empty");
  unsigned basic = p[0] & 3u, hdr = p[0] >> 2;
  if (basic != BASIC_OBJECT && basic != BASIC_ARRAY)
    return pqt_error_set(err, PQT_EINVAL, "Variant value is not an object or array");
  c->is_object = basic == BASIC_OBJECT;
  bool large = c->is_object ? (hdr >> 4) & 1u : (hdr >> 2) & 1u;
  c->offset_size = (hdr & 3u) + 1;
  c->id_size = c->is_object ? ((hdr >> 2) & 3u) + 1 : 0;
  size_t nsz = large ? 4 : 1;
  PQT_CHECK_CORRUPT(n >= 1 + nsz, err, "Variant %s of %zu bytes ends inside its element count",
                    c->is_object ? "object" : "array", n);
  c->n = pqt_vload(p + 1, (unsigned)nsz);
  size_t left = n - 1 - nsz;
  /* n ids + (n + 1) offsets must fit in what is left */
  size_t per = (size_t)c->id_size + c->offset_size; /* >= 1: offset_size is 1 to 4 */
  PQT_CHECK_CORRUPT(per > 0 && (size_t)c->n <= left / per && (size_t)c->n * per + c->offset_size <= left, err,
                    "Variant %s claims %u elements, more than its %zu bytes hold", c->is_object ? "object" : "array",
                    c->n, n);
  c->ids = p + 1 + nsz;
  c->offsets = c->ids + (size_t)c->n * c->id_size;
  c->fields = c->offsets + ((size_t)c->n + 1) * c->offset_size;
  size_t head = (size_t)(c->fields - p);
  uint32_t last = pqt_vload(c->offsets + (size_t)c->n * c->offset_size, c->offset_size);
  PQT_CHECK_CORRUPT(last <= n - head, err, "Variant %s: its values end at %u, past its %zu bytes",
                    c->is_object ? "object" : "array", last, n - head);
  c->fields_len = last;
  return PQT_OK;
}

pqt_status pqt_vvalue_size(const uint8_t *p, size_t n, size_t *size, pqt_error *err) {
  PQT_CHECK_CORRUPT(p && n >= 1, err, "Variant value is empty");
  unsigned basic = p[0] & 3u, hdr = p[0] >> 2;
  size_t need;
  if (basic == BASIC_PRIMITIVE) {
    int fixed = primitive_fixed_size(hdr);
    if (fixed == -2) return pqt_error_set(err, PQT_EUNSUPPORTED, "Variant primitive type %u is not known", hdr);
    if (fixed == -1) {
      PQT_CHECK_CORRUPT(n >= 5, err, "Variant %s of %zu bytes ends inside its length",
                        hdr == PQT_VARIANT_STRING ? "string" : "binary", n);
      uint32_t len = pqt_load_u32le(p + 1);
      PQT_CHECK_CORRUPT(len <= n - 5, err, "Variant %s of %u bytes is longer than the %zu bytes left",
                        hdr == PQT_VARIANT_STRING ? "string" : "binary", len, n - 5);
      need = 5 + (size_t)len;
    } else {
      need = 1 + (size_t)fixed;
    }
  } else if (basic == BASIC_SHORT_STRING) {
    need = 1 + (size_t)hdr;
  } else {
    pqt_vcont c;
    PQT_RETURN_NOT_OK(pqt_vcont_open(p, n, &c, err));
    need = (size_t)(c.fields - p) + c.fields_len;
  }
  PQT_CHECK_CORRUPT(need <= n, err, "Variant value needs %zu bytes, has %zu", need, n);
  *size = need;
  return PQT_OK;
}

uint32_t pqt_vcont_field_id(const pqt_vcont *c, uint32_t i) {
  return pqt_vload(c->ids + (size_t)i * c->id_size, c->id_size);
}

pqt_status pqt_vcont_child(const pqt_vcont *c, uint32_t i, const uint8_t **p, size_t *n, pqt_error *err) {
  PQT_CHECK_CORRUPT(i < c->n, err, "Variant element %u of %u", i, c->n);
  uint32_t off = pqt_vload(c->offsets + (size_t)i * c->offset_size, c->offset_size);
  size_t end = c->fields_len;
  if (!c->is_object) {
    /* array elements are laid out in order */
    uint32_t next = pqt_vload(c->offsets + ((size_t)i + 1) * c->offset_size, c->offset_size);
    PQT_CHECK_CORRUPT(off <= next && next <= c->fields_len, err,
                      "Variant array: element %u spans %u..%u, outside its %zu bytes of values", i, off, next,
                      c->fields_len);
    end = next;
  }
  PQT_CHECK_CORRUPT(off < end, err, "Variant %s: %s %u starts at %u, outside its %zu bytes of values",
                    c->is_object ? "object" : "array", c->is_object ? "field" : "element", i, off, end);
  size_t size = 0;
  PQT_RETURN_NOT_OK(pqt_vvalue_size(c->fields + off, end - off, &size, err));
  *p = c->fields + off;
  *n = size;
  return PQT_OK;
}

/* ---- validation ----------------------------------------------------- */

typedef struct vfield {
  const uint8_t *name;
  size_t len;
  uint32_t id;
  uint32_t off;
} vfield;

static int vfield_cmp(const void *a, const void *b) {
  const vfield *x = a, *y = b;
  return bytes_cmp(x->name, x->len, y->name, y->len);
}

/* The fields of object c with their names (the default allocator; the
 * caller frees n entries). */
static pqt_status object_fields(const pqt_vmeta *m, const pqt_vcont *c, vfield **out, pqt_error *err) {
  *out = NULL;
  if (c->n == 0) return PQT_OK;
  vfield *f = pqt_mem_alloc(pqt_default_allocator(), sizeof *f * c->n);
  if (!f) return pqt_nomem(err);
  for (uint32_t i = 0; i < c->n; i++) {
    f[i].id = pqt_vcont_field_id(c, i);
    f[i].off = pqt_vload(c->offsets + (size_t)i * c->offset_size, c->offset_size);
    pqt_status st = pqt_vmeta_key(m, f[i].id, &f[i].name, &f[i].len, err);
    if (st != PQT_OK) {
      pqt_mem_free(pqt_default_allocator(), f, sizeof *f * c->n);
      return st;
    }
  }
  *out = f;
  return PQT_OK;
}

/* An object whose field ids are not in name order (lenient reading): its
 * names must still be unique. */
static pqt_status unique_names(const pqt_vmeta *m, const pqt_vcont *c, pqt_error *err) {
  vfield *f;
  PQT_RETURN_NOT_OK(object_fields(m, c, &f, err));
  if (!f) return PQT_OK;
  qsort(f, c->n, sizeof *f, vfield_cmp);
  pqt_status st = PQT_OK;
  for (uint32_t i = 1; i < c->n && st == PQT_OK; i++)
    if (vfield_cmp(&f[i - 1], &f[i]) == 0)
      st = pqt_corrupt(err, "Variant object: the name \"%.*s\" twice", (int)(f[i].len > 64 ? 64 : f[i].len),
                       (const char *)f[i].name);
  pqt_mem_free(pqt_default_allocator(), f, sizeof *f * c->n);
  return st;
}

/* unsorted NULL: the encoding's rules exactly. Otherwise objects whose field
 * ids are out of name order are accepted (*unsorted set), their names still
 * unique. */
static pqt_status validate_value(const pqt_vmeta *m, const uint8_t *p, size_t n, int depth, bool *unsorted,
                                 pqt_error *err) {
  PQT_CHECK_CORRUPT(depth <= PQT_VARIANT_MAX_DEPTH, err, "Variant nests deeper than %d levels", PQT_VARIANT_MAX_DEPTH);
  size_t size = 0;
  PQT_RETURN_NOT_OK(pqt_vvalue_size(p, n, &size, err));
  unsigned basic = p[0] & 3u, hdr = p[0] >> 2;
  if (basic == BASIC_SHORT_STRING || (basic == BASIC_PRIMITIVE && hdr == PQT_VARIANT_STRING)) {
    const uint8_t *s = basic == BASIC_SHORT_STRING ? p + 1 : p + 5;
    size_t len = basic == BASIC_SHORT_STRING ? hdr : size - 5;
    size_t bad = pqt_utf8_invalid_at(s, len);
    PQT_CHECK_CORRUPT(bad == len, err, "Variant string is not UTF-8 (byte %zu)", bad);
    return PQT_OK;
  }
  if (basic == BASIC_PRIMITIVE) {
    if (hdr == PQT_VARIANT_DECIMAL4 || hdr == PQT_VARIANT_DECIMAL8 || hdr == PQT_VARIANT_DECIMAL16)
      PQT_CHECK_CORRUPT(p[1] <= 38, err, "Variant decimal scale %u is over 38", p[1]);
    return PQT_OK;
  }
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(p, n, &c, err));
  const uint8_t *prev = NULL;
  size_t prev_len = 0;
  bool in_order = true;
  for (uint32_t i = 0; i < c.n; i++) {
    if (c.is_object) {
      const uint8_t *name;
      size_t name_len;
      PQT_RETURN_NOT_OK(pqt_vmeta_key(m, pqt_vcont_field_id(&c, i), &name, &name_len, err));
      int cmp = i > 0 ? bytes_cmp(prev, prev_len, name, name_len) : -1;
      if (cmp > 0 && unsorted) {
        in_order = false;
      } else if (cmp >= 0) {
        return pqt_corrupt(err,
                           "Variant object: field %u (\"%.*s\") is not after field %u by name (%s; the encoding "
                           "requires an object's field ids in name order, its values may be in any order)",
                           i, (int)(name_len > 64 ? 64 : name_len), (const char *)name, i - 1,
                           cmp == 0 ? "a duplicate name" : "out of order");
      }
      prev = name;
      prev_len = name_len;
    }
    const uint8_t *cp;
    size_t cn;
    PQT_RETURN_NOT_OK(pqt_vcont_child(&c, i, &cp, &cn, err));
    PQT_RETURN_NOT_OK(validate_value(m, cp, cn, depth + 1, unsorted, err));
  }
  if (!in_order) {
    *unsorted = true;
    PQT_RETURN_NOT_OK(unique_names(m, &c, err));
  }
  return PQT_OK;
}

static pqt_status validate(const pqt_variant *v, bool *unsorted, pqt_error *err) {
  if (!v) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_validate: no variant");
  pqt_vmeta m;
  PQT_RETURN_NOT_OK(pqt_vmeta_parse(v->metadata, v->metadata_len, &m, err));
  PQT_RETURN_NOT_OK(vmeta_validate(&m, err));
  size_t size = 0;
  PQT_RETURN_NOT_OK(pqt_vvalue_size(v->value, v->value_len, &size, err));
  PQT_CHECK_CORRUPT(size == v->value_len, err, "Variant value of %zu bytes is followed by %zu more", size,
                    v->value_len - size);
  return validate_value(&m, v->value, v->value_len, 0, unsorted, err);
}

PQT_API pqt_status pqt_variant_validate(const pqt_variant *v, pqt_error *err) { return validate(v, NULL, err); }

pqt_status pqt_variant_validate_read(const pqt_variant *v, bool *unsorted, pqt_error *err) {
  *unsorted = false;
  return validate(v, unsorted, err);
}

/* Put the field ids and offsets of every object in p (validated, n bytes)
 * in name order, in place: only the order of the (id, offset) pairs
 * changes, so every size stays. */
static pqt_status sort_fields(const pqt_vmeta *m, uint8_t *p, size_t n, int depth, pqt_error *err) {
  PQT_CHECK_CORRUPT(depth <= PQT_VARIANT_MAX_DEPTH, err, "Variant nests deeper than %d levels", PQT_VARIANT_MAX_DEPTH);
  unsigned basic = p[0] & 3u;
  if (basic != BASIC_OBJECT && basic != BASIC_ARRAY) return PQT_OK;
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(p, n, &c, err));
  if (c.is_object && c.n > 1) {
    vfield *f;
    PQT_RETURN_NOT_OK(object_fields(m, &c, &f, err));
    bool in_order = true;
    for (uint32_t i = 1; i < c.n && in_order; i++) in_order = vfield_cmp(&f[i - 1], &f[i]) < 0;
    if (!in_order) {
      qsort(f, c.n, sizeof *f, vfield_cmp);
      uint8_t *ids = p + (c.ids - p), *offs = p + (c.offsets - p);
      for (uint32_t i = 0; i < c.n; i++) {
        for (unsigned k = 0; k < c.id_size; k++) ids[(size_t)i * c.id_size + k] = (uint8_t)(f[i].id >> (8 * k));
        for (unsigned k = 0; k < c.offset_size; k++)
          offs[(size_t)i * c.offset_size + k] = (uint8_t)(f[i].off >> (8 * k));
      }
    }
    pqt_mem_free(pqt_default_allocator(), f, sizeof *f * c.n);
  }
  for (uint32_t i = 0; i < c.n; i++) {
    const uint8_t *cp;
    size_t cn;
    PQT_RETURN_NOT_OK(pqt_vcont_child(&c, i, &cp, &cn, err));
    PQT_RETURN_NOT_OK(sort_fields(m, p + (cp - p), cn, depth + 1, err));
  }
  return PQT_OK;
}

pqt_status pqt_variant_sort_fields(const uint8_t *metadata, size_t metadata_len, uint8_t *value, size_t value_len,
                                   pqt_error *err) {
  pqt_vmeta m;
  PQT_RETURN_NOT_OK(pqt_vmeta_parse(metadata, metadata_len, &m, err));
  PQT_CHECK_CORRUPT(value && value_len >= 1, err, "Variant value is empty");
  /* values whose bytes overlap (one field's bytes inside another's tables)
   * could change meaning when reordered in place: the result must pass the
   * encoding's rules and equal the original, else the original stays */
  uint8_t *orig = pqt_mem_alloc(pqt_default_allocator(), value_len);
  if (!orig) return pqt_nomem(err);
  memcpy(orig, value, value_len);
  pqt_status st = sort_fields(&m, value, value_len, 0, err);
  pqt_variant before = {metadata, metadata_len, orig, value_len}, after = {metadata, metadata_len, value, value_len};
  if (st == PQT_OK) st = pqt_variant_validate(&after, err);
  int eq = 0;
  if (st == PQT_OK) st = pqt_variant_equal(&before, &after, &eq, err);
  if (st == PQT_OK && !eq)
    st = pqt_corrupt(err, "Variant value: objects with field ids out of name order whose bytes overlap");
  if (st != PQT_OK) memcpy(value, orig, value_len);
  pqt_mem_free(pqt_default_allocator(), orig, value_len);
  return st;
}

/* ---- accessors ------------------------------------------------------ */

PQT_API pqt_status pqt_variant_get_type(const pqt_variant *v, pqt_variant_kind *out, pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_get_type: bad arguments");
  PQT_CHECK_CORRUPT(v->value && v->value_len >= 1, err, "Variant value is empty");
  unsigned basic = v->value[0] & 3u, hdr = v->value[0] >> 2;
  switch (basic) {
    case BASIC_PRIMITIVE:
      if (primitive_fixed_size(hdr) == -2)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "Variant primitive type %u is not known", hdr);
      *out = (pqt_variant_kind)hdr;
      return PQT_OK;
    case BASIC_SHORT_STRING: *out = PQT_VARIANT_STRING; return PQT_OK;
    case BASIC_OBJECT: *out = PQT_VARIANT_OBJECT; return PQT_OK;
    default: *out = PQT_VARIANT_ARRAY; return PQT_OK;
  }
}

PQT_API pqt_status pqt_variant_get_scalar(const pqt_variant *v, pqt_variant_scalar *out, pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_get_scalar: bad arguments");
  memset(out, 0, sizeof *out);
  pqt_variant_kind t;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(v, &t, err));
  if (t == PQT_VARIANT_OBJECT || t == PQT_VARIANT_ARRAY)
    return pqt_error_set(err, PQT_EINVAL, "Variant value is an %s, not a scalar",
                         t == PQT_VARIANT_OBJECT ? "object" : "array");
  size_t size;
  PQT_RETURN_NOT_OK(pqt_vvalue_size(v->value, v->value_len, &size, err));
  const uint8_t *p = v->value + 1;
  out->type = t;
  switch (t) {
    case PQT_VARIANT_INT8: out->u.i64 = (int8_t)p[0]; break;
    case PQT_VARIANT_INT16: out->u.i64 = (int16_t)pqt_load_u16le(p); break;
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_DATE: out->u.i64 = (int32_t)pqt_load_u32le(p); break;
    case PQT_VARIANT_INT64:
    case PQT_VARIANT_TIMESTAMP_MICROS:
    case PQT_VARIANT_TIMESTAMP_NTZ_MICROS:
    case PQT_VARIANT_TIME_NTZ_MICROS:
    case PQT_VARIANT_TIMESTAMP_NANOS:
    case PQT_VARIANT_TIMESTAMP_NTZ_NANOS: out->u.i64 = (int64_t)pqt_load_u64le(p); break;
    case PQT_VARIANT_DOUBLE: {
      uint64_t b = pqt_load_u64le(p);
      memcpy(&out->u.f64, &b, sizeof b);
      break;
    }
    case PQT_VARIANT_FLOAT: {
      uint32_t b = pqt_load_u32le(p);
      memcpy(&out->u.f32, &b, sizeof b);
      break;
    }
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: {
      size_t w = t == PQT_VARIANT_DECIMAL4 ? 4 : t == PQT_VARIANT_DECIMAL8 ? 8 : 16;
      out->u.decimal.scale = p[0];
      memcpy(out->u.decimal.unscaled_le, p + 1, w);
      memset(out->u.decimal.unscaled_le + w, (p[w] & 0x80) ? 0xFF : 0, 16 - w);
      break;
    }
    case PQT_VARIANT_UUID: memcpy(out->u.uuid, p, 16); break;
    case PQT_VARIANT_BINARY:
    case PQT_VARIANT_STRING:
      if ((v->value[0] & 3u) == BASIC_SHORT_STRING) {
        out->u.bytes.data = p;
        out->u.bytes.len = v->value[0] >> 2;
      } else {
        out->u.bytes.data = p + 4;
        out->u.bytes.len = size - 5;
      }
      break;
    default: break; /* null, booleans: the type says it all */
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_variant_num_elements(const pqt_variant *v, int64_t *out, pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_num_elements: bad arguments");
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(v->value, v->value_len, &c, err));
  *out = c.n;
  return PQT_OK;
}

static pqt_variant child_view(const pqt_variant *v, const uint8_t *p, size_t n) {
  pqt_variant c = {v->metadata, v->metadata_len, p, n};
  return c;
}

PQT_API pqt_status pqt_variant_object_field(const pqt_variant *v, int64_t i, const char **name, size_t *name_len,
                                            pqt_variant *field, pqt_error *err) {
  if (!v || !field || i < 0) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_object_field: bad arguments");
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(v->value, v->value_len, &c, err));
  if (!c.is_object) return pqt_error_set(err, PQT_EINVAL, "Variant value is an array, not an object");
  if (i >= c.n) return pqt_error_set(err, PQT_EINVAL, "Variant object has %u fields, no field %lld", c.n, (long long)i);
  pqt_vmeta m;
  PQT_RETURN_NOT_OK(pqt_vmeta_parse(v->metadata, v->metadata_len, &m, err));
  const uint8_t *s;
  size_t len;
  PQT_RETURN_NOT_OK(pqt_vmeta_key(&m, pqt_vcont_field_id(&c, (uint32_t)i), &s, &len, err));
  const uint8_t *cp;
  size_t cn;
  PQT_RETURN_NOT_OK(pqt_vcont_child(&c, (uint32_t)i, &cp, &cn, err));
  if (name) *name = (const char *)s;
  if (name_len) *name_len = len;
  *field = child_view(v, cp, cn);
  return PQT_OK;
}

PQT_API pqt_status pqt_variant_object_find(const pqt_variant *v, const char *name, size_t name_len, pqt_variant *field,
                                           int *found, pqt_error *err) {
  if (!v || !field || !found || (!name && name_len))
    return pqt_error_set(err, PQT_EINVAL, "pqt_variant_object_find: bad arguments");
  *found = 0;
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(v->value, v->value_len, &c, err));
  if (!c.is_object) return PQT_OK;
  pqt_vmeta m;
  PQT_RETURN_NOT_OK(pqt_vmeta_parse(v->metadata, v->metadata_len, &m, err));
  /* field ids are in the order of their names: binary search */
  uint32_t lo = 0, hi = c.n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    const uint8_t *s;
    size_t len;
    PQT_RETURN_NOT_OK(pqt_vmeta_key(&m, pqt_vcont_field_id(&c, mid), &s, &len, err));
    int cmp = bytes_cmp(s, len, (const uint8_t *)name, name_len);
    if (cmp == 0) {
      const uint8_t *cp;
      size_t cn;
      PQT_RETURN_NOT_OK(pqt_vcont_child(&c, mid, &cp, &cn, err));
      *field = child_view(v, cp, cn);
      *found = 1;
      return PQT_OK;
    }
    if (cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  /* not found: an object written with its field ids out of name order
   * (which pqt_variant_validate refuses and readers accept) is searched
   * field by field */
  for (uint32_t i = 0; i < c.n; i++) {
    const uint8_t *s;
    size_t len;
    PQT_RETURN_NOT_OK(pqt_vmeta_key(&m, pqt_vcont_field_id(&c, i), &s, &len, err));
    if (bytes_cmp(s, len, (const uint8_t *)name, name_len) != 0) continue;
    const uint8_t *cp;
    size_t cn;
    PQT_RETURN_NOT_OK(pqt_vcont_child(&c, i, &cp, &cn, err));
    *field = child_view(v, cp, cn);
    *found = 1;
    return PQT_OK;
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_variant_array_element(const pqt_variant *v, int64_t i, pqt_variant *element, pqt_error *err) {
  if (!v || !element || i < 0) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_array_element: bad arguments");
  pqt_vcont c;
  PQT_RETURN_NOT_OK(pqt_vcont_open(v->value, v->value_len, &c, err));
  if (c.is_object) return pqt_error_set(err, PQT_EINVAL, "Variant value is an object, not an array");
  if (i >= c.n)
    return pqt_error_set(err, PQT_EINVAL, "Variant array has %u elements, no element %lld", c.n, (long long)i);
  const uint8_t *cp;
  size_t cn;
  PQT_RETURN_NOT_OK(pqt_vcont_child(&c, (uint32_t)i, &cp, &cn, err));
  *element = child_view(v, cp, cn);
  return PQT_OK;
}

/* ---- paths ---------------------------------------------------------- */

static pqt_status path_error(pqt_error *err, const char *path, size_t at, const char *what) {
  return pqt_error_set(err, PQT_EINVAL, "Variant path '%s': %s at character %zu", path, what, at + 1);
}

PQT_API pqt_status pqt_variant_path(const pqt_variant *v, const char *path, pqt_variant *out, int *found,
                                    pqt_error *err) {
  if (!v || !path || !out || !found) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_path: bad arguments");
  *found = 0;
  size_t i = 0, n = strlen(path);
  if (n == 0 || path[0] != '$') return path_error(err, path, 0, "a path starts with '$'");
  i = 1;
  pqt_variant cur = *v;
  bool missing = false;
  while (i < n) {
    pqt_variant next = cur;
    int f = 0;
    if (path[i] == '.') {
      size_t s = ++i;
      while (i < n && path[i] != '.' && path[i] != '[') i++;
      if (i == s) return path_error(err, path, s, "a field name is expected");
      if (!missing) {
        pqt_variant_kind t;
        PQT_RETURN_NOT_OK(pqt_variant_get_type(&cur, &t, err));
        if (t == PQT_VARIANT_OBJECT) PQT_RETURN_NOT_OK(pqt_variant_object_find(&cur, path + s, i - s, &next, &f, err));
        missing = !f;
      }
    } else if (path[i] == '[') {
      i++;
      if (i < n && (path[i] == '\'' || path[i] == '"')) {
        char q = path[i++];
        size_t s = i;
        while (i < n && path[i] != q) i++;
        if (i >= n) return path_error(err, path, s - 1, "an unclosed quote");
        size_t e = i++;
        if (i >= n || path[i] != ']') return path_error(err, path, i, "']' is expected");
        i++;
        if (!missing) {
          pqt_variant_kind t;
          PQT_RETURN_NOT_OK(pqt_variant_get_type(&cur, &t, err));
          if (t == PQT_VARIANT_OBJECT)
            PQT_RETURN_NOT_OK(pqt_variant_object_find(&cur, path + s, e - s, &next, &f, err));
          missing = !f;
        }
      } else {
        size_t s = i;
        uint64_t idx = 0;
        while (i < n && path[i] >= '0' && path[i] <= '9') {
          if (idx > (UINT64_C(1) << 40)) return path_error(err, path, s, "an index too large");
          idx = idx * 10 + (uint64_t)(path[i++] - '0');
        }
        if (i == s) return path_error(err, path, s, "an array index is expected");
        if (i >= n || path[i] != ']') return path_error(err, path, i, "']' is expected");
        i++;
        if (!missing) {
          pqt_variant_kind t;
          PQT_RETURN_NOT_OK(pqt_variant_get_type(&cur, &t, err));
          int64_t count = 0;
          if (t == PQT_VARIANT_ARRAY) PQT_RETURN_NOT_OK(pqt_variant_num_elements(&cur, &count, err));
          if (t == PQT_VARIANT_ARRAY && idx < (uint64_t)count) {
            PQT_RETURN_NOT_OK(pqt_variant_array_element(&cur, (int64_t)idx, &next, err));
            f = 1;
          }
          missing = !f;
        }
      }
    } else {
      return path_error(err, path, i, "'.' or '[' is expected");
    }
    cur = next;
  }
  if (!missing) {
    *out = cur;
    *found = 1;
  }
  return PQT_OK;
}

/* ---- equality ------------------------------------------------------- */

static bool is_exact_numeric(pqt_variant_kind t) {
  return (t >= PQT_VARIANT_INT8 && t <= PQT_VARIANT_INT64) || (t >= PQT_VARIANT_DECIMAL4 && t <= PQT_VARIANT_DECIMAL16);
}

/* An exact numeric as (unscaled, scale). */
static void numeric_of(const pqt_variant_scalar *s, __int128 *unscaled, int32_t *scale) {
  if (s->type >= PQT_VARIANT_INT8 && s->type <= PQT_VARIANT_INT64) {
    *unscaled = s->u.i64;
    *scale = 0;
    return;
  }
  unsigned __int128 u = 0;
  for (int k = 15; k >= 0; k--) u = (u << 8) | s->u.decimal.unscaled_le[k];
  *unscaled = (__int128)u;
  *scale = s->u.decimal.scale;
}

/* Compare a*10^-sa with b*10^-sb exactly (scales <= 38). */
static bool numeric_equal(__int128 a, int32_t sa, __int128 b, int32_t sb) {
  while (sa > sb) { /* a has more fraction digits: they must be zeros */
    if (a % 10 != 0) return false;
    a /= 10;
    sa--;
  }
  while (sb > sa) {
    if (b % 10 != 0) return false;
    b /= 10;
    sb--;
  }
  return a == b;
}

static pqt_status equal_rec(const pqt_variant *a, const pqt_variant *b, int depth, int *eq, pqt_error *err) {
  *eq = 0;
  PQT_CHECK_CORRUPT(depth <= PQT_VARIANT_MAX_DEPTH, err, "Variant nests deeper than %d levels", PQT_VARIANT_MAX_DEPTH);
  pqt_variant_kind ta, tb;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(a, &ta, err));
  PQT_RETURN_NOT_OK(pqt_variant_get_type(b, &tb, err));
  if (ta == PQT_VARIANT_OBJECT || ta == PQT_VARIANT_ARRAY) {
    if (ta != tb) return PQT_OK;
    int64_t na, nb;
    PQT_RETURN_NOT_OK(pqt_variant_num_elements(a, &na, err));
    PQT_RETURN_NOT_OK(pqt_variant_num_elements(b, &nb, err));
    if (na != nb) return PQT_OK;
    for (int64_t i = 0; i < na; i++) {
      pqt_variant ca, cb;
      if (ta == PQT_VARIANT_OBJECT) {
        const char *name;
        size_t len;
        int found;
        PQT_RETURN_NOT_OK(pqt_variant_object_field(a, i, &name, &len, &ca, err));
        PQT_RETURN_NOT_OK(pqt_variant_object_find(b, name, len, &cb, &found, err));
        if (!found) return PQT_OK;
      } else {
        PQT_RETURN_NOT_OK(pqt_variant_array_element(a, i, &ca, err));
        PQT_RETURN_NOT_OK(pqt_variant_array_element(b, i, &cb, err));
      }
      int e;
      PQT_RETURN_NOT_OK(equal_rec(&ca, &cb, depth + 1, &e, err));
      if (!e) return PQT_OK;
    }
    *eq = 1;
    return PQT_OK;
  }
  if (tb == PQT_VARIANT_OBJECT || tb == PQT_VARIANT_ARRAY) return PQT_OK;
  pqt_variant_scalar sa, sb;
  PQT_RETURN_NOT_OK(pqt_variant_get_scalar(a, &sa, err));
  PQT_RETURN_NOT_OK(pqt_variant_get_scalar(b, &sb, err));
  if (is_exact_numeric(ta) && is_exact_numeric(tb)) {
    __int128 ua, ub;
    int32_t xa, xb;
    numeric_of(&sa, &ua, &xa);
    numeric_of(&sb, &ub, &xb);
    *eq = numeric_equal(ua, xa, ub, xb);
    return PQT_OK;
  }
  if (ta != tb) return PQT_OK;
  switch (ta) {
    case PQT_VARIANT_DOUBLE: *eq = memcmp(&sa.u.f64, &sb.u.f64, sizeof sa.u.f64) == 0; break;  // NOLINT(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c): encodings compared: the same bits
    case PQT_VARIANT_FLOAT: *eq = memcmp(&sa.u.f32, &sb.u.f32, sizeof sa.u.f32) == 0; break;  // NOLINT(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c): encodings compared: the same bits
    case PQT_VARIANT_BINARY:
    case PQT_VARIANT_STRING:
      *eq = sa.u.bytes.len == sb.u.bytes.len &&
            (sa.u.bytes.len == 0 || memcmp(sa.u.bytes.data, sb.u.bytes.data, sa.u.bytes.len) == 0);
      break;
    case PQT_VARIANT_UUID: *eq = memcmp(sa.u.uuid, sb.u.uuid, 16) == 0; break;
    case PQT_VARIANT_NULL:
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: *eq = 1; break;
    default: *eq = sa.u.i64 == sb.u.i64; break;
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_variant_equal(const pqt_variant *a, const pqt_variant *b, int *equal, pqt_error *err) {
  if (!a || !b || !equal) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_equal: bad arguments");
  return equal_rec(a, b, 0, equal, err);
}
