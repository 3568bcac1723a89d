/*
 * file/writer_schema: the writer's schema as a SchemaElement list (spec:
 * parquet-format README.md "Metadata" (depth-first SchemaElement list), parquet-format LogicalTypes.md logical
 * types with their ConvertedType compatibility, "Lists" and "Maps": only
 * the 3-level LIST (list/element) and MAP (key_value/key/value) shapes are
 * written). Sources: the message syntax, an ArrowSchema (the usual Arrow ->
 * Parquet mapping), or a file's schema tree (legacy shapes normalized).
 */
#include <stdio.h>
#include <stdlib.h>

#include "file/writer_internal.h"
#include "meta/schema.h"
#include "arrow/format.h"
#include "arrow/format_name.h"
#include "arrow/geoarrow.h"
#include "parquetry_variant.h"

typedef struct elist {
  pqt_arena *arena;
  pqt_schema_element *items;
  int32_t n, cap;
  int32_t compat;
  const pqt_write_options *opts; /* variant shredding entries (may be NULL) */
  bool top;                      /* the field being added is a top-level one */
  int32_t in_list;               /* lists and maps around the field being added */
  char prefix[512];              /* Arrow input: the dotted path of the structs around the field ("s." or "") */
  size_t prefix_len;
} elist;

static pqt_status add(elist *L, const char *name, pqt_schema_element **out, pqt_error *err) {
  if (L->n == L->cap) {
    int32_t nc = L->cap ? L->cap * 2 : 32;
    pqt_schema_element *ni = pqt_arena_array(L->arena, (size_t)nc, sizeof *ni);
    if (!ni) return pqt_nomem(err);
    if (L->n) memcpy(ni, L->items, (size_t)L->n * sizeof *ni);
    L->items = ni;
    L->cap = nc;
  }
  pqt_schema_element *e = &L->items[L->n++];
  memset(e, 0, sizeof *e);
  size_t nl = name ? strlen(name) : 0;
  char *nm = pqt_arena_strdup(L->arena, name ? name : "", nl);
  if (!nm) return pqt_nomem(err);
  e->name = (pqt_bytes){(const uint8_t *)nm, (int64_t)nl};
  PQT_SET_FIELD(e, schema_element, name);
  *out = e;
  return PQT_OK;
}

/* index-based handle: L->items may move while children are added */
static void set_rep(pqt_schema_element *e, int32_t rep) {
  e->repetition_type = rep;
  PQT_SET_FIELD(e, schema_element, repetition_type);
}
static void set_type(pqt_schema_element *e, int32_t t, int32_t len) {
  e->type = t;
  PQT_SET_FIELD(e, schema_element, type);
  if (t == PQT_FIXED_LEN_BYTE_ARRAY) {
    e->type_length = len;
    PQT_SET_FIELD(e, schema_element, type_length);
  }
}
static void set_logical(pqt_schema_element *e, const pqt_logical_type *lt) {
  e->logical_type = *lt;
  PQT_SET_FIELD(e, schema_element, logical_type);
  pqt_element_set_converted(e, lt);
}
static void set_group(pqt_schema_element *e, int32_t n) {
  e->num_children = n;
  PQT_SET_FIELD(e, schema_element, num_children);
}
static pqt_logical_type lt_simple(int member) {
  pqt_logical_type lt;
  memset(&lt, 0, sizeof lt);
  lt.isset = 1u << member;
  return lt;
}
static pqt_logical_type lt_int(int bw, bool sg) {
  pqt_logical_type lt = lt_simple(PQT_LT_INTEGER);
  lt.integer.bit_width = (int8_t)bw;
  lt.integer.is_signed = sg;
  lt.integer.isset = PQT_FIELD_MASK(int_type, bit_width, is_signed);
  return lt;
}
static pqt_logical_type lt_time(int member, char unit, bool utc) {
  pqt_logical_type lt = lt_simple(member);
  pqt_time_type *t = member == PQT_LT_TIME ? &lt.time : &lt.timestamp;
  t->is_adjusted_to_utc = utc;
  t->unit.isset = 1u << (unit == 'm' ? PQT_TIME_UNIT_MILLIS : unit == 'u' ? PQT_TIME_UNIT_MICROS : PQT_TIME_UNIT_NANOS);
  t->isset = PQT_FIELD_MASK(time_type, is_adjusted_to_utc, unit);
  return lt;
}

/* ---- from an ArrowSchema -------------------------------------------------- */

static pqt_status arrow_field(elist *L, const struct ArrowSchema *s, const char *name, int32_t rep, pqt_error *err);
static bool arrow_is_variant(const struct ArrowSchema *s);
static pqt_status arrow_variant(elist *L, const struct ArrowSchema *s, const char *name, int32_t idx, bool top,
                                pqt_error *err);

static pqt_status arrow_leaf(elist *L, const struct ArrowSchema *s, const char *f, int32_t idx, pqt_error *err) {
  pqt_schema_element *e = &L->items[idx];
  pqt_logical_type lt;
  bool has_lt = true;
  int32_t t = -1, len = 0;
  pqt_arrow_format af;
  pqt_arrow_format_parse(f, &af); /* an unknown format stays t = -1 */
  switch (af.kind) {
    case PQT_AK_NULL:
      t = PQT_INT32;
      lt = lt_simple(PQT_LT_UNKNOWN);
      set_rep(e, PQT_OPTIONAL);
      break;
    case PQT_AK_BOOL:
      t = PQT_BOOLEAN;
      has_lt = false;
      break;
    case PQT_AK_INT:
      t = af.bit_width == 64 ? PQT_INT64 : PQT_INT32;
      lt = lt_int(af.bit_width, af.is_signed);
      /* int32 and int64 are the plain physical types; uint64 is annotated
       * unless a compatibility mode asks for the bare INT64 */
      has_lt = !(af.is_signed && af.bit_width >= 32) && !(af.bit_width == 64 && L->compat != PQT_COMPAT_NONE);
      break;
    case PQT_AK_FLOAT:
      if (af.bit_width == 16) {
        t = PQT_FIXED_LEN_BYTE_ARRAY;
        len = 2;
        lt = lt_simple(PQT_LT_FLOAT16);
      } else {
        t = af.bit_width == 32 ? PQT_FLOAT : PQT_DOUBLE;
        has_lt = false;
      }
      break;
    case PQT_AK_BINARY:
    case PQT_AK_LARGE_BINARY: {
      t = PQT_BYTE_ARRAY;
      int geo = 0; /* geoarrow.wkb: GEOMETRY, or GEOGRAPHY when its metadata gives edges */
      PQT_RETURN_NOT_OK(pqt_geoarrow_import(s, L->arena, &lt, &geo, err));
      has_lt = geo != 0;
      break;
    }
    case PQT_AK_UTF8:
    case PQT_AK_LARGE_UTF8:
      t = PQT_BYTE_ARRAY;
      lt = lt_simple(PQT_LT_STRING);
      break;
    case PQT_AK_FIXED_BINARY:
      t = PQT_FIXED_LEN_BYTE_ARRAY;
      len = af.fixed_width;
      has_lt = false;
      if (len <= 0) t = -1;
      break;
    case PQT_AK_DECIMAL: {
      int32_t p = af.precision;
      lt = lt_simple(PQT_LT_DECIMAL);
      lt.decimal.precision = p;
      lt.decimal.scale = af.scale;
      lt.decimal.isset = PQT_FIELD_MASK(decimal_type, scale, precision);
      if (p <= 9) t = PQT_INT32;
      else if (p <= 18) t = PQT_INT64;
      else {
        t = PQT_FIXED_LEN_BYTE_ARRAY;
        len = 1;
        while (pqt_decimal_max_precision_flba(len) < p) len++;
      }
      break;
    }
    case PQT_AK_DATE:
      t = PQT_INT32;
      lt = lt_simple(PQT_LT_DATE);
      break;
    case PQT_AK_TIME: {
      char u = af.unit == 's' ? 'm' : af.unit;
      t = (u == 'm') ? PQT_INT32 : PQT_INT64;
      lt = lt_time(PQT_LT_TIME, u, true);
      break;
    }
    case PQT_AK_TIMESTAMP: {
      char u = af.unit == 's' ? 'm' : af.unit;
      if (L->compat == PQT_COMPAT_SPARK_INT96) {
        t = PQT_INT96;
        has_lt = false;
      } else {
        if (L->compat == PQT_COMPAT_SPARK_MICROS) u = 'u';
        t = PQT_INT64;
        lt = lt_time(PQT_LT_TIMESTAMP, u, af.tz != NULL);
      }
      break;
    }
    default: break;
  }
  char fn[64];
  if (t < 0)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: Arrow type %s is not supported by the writer",
                         s->name ? s->name : "", pqt_arrow_format_name(f, fn, sizeof fn));
  set_type(e, t, len);
  if (has_lt) set_logical(e, &lt);
  return PQT_OK;
}

/* ---- VARIANT (the parquet.variant extension) -------------------------------- */

static int32_t rd_i32(const char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* ARROW:extension:name == parquet.variant in the field's metadata */
static bool arrow_is_variant(const struct ArrowSchema *s) {
  const char *p = s->metadata;
  if (!p) return false;
  int32_t n = rd_i32(p);
  p += 4;
  for (int32_t i = 0; i < n && i < 4096; i++) {
    int32_t kl = rd_i32(p);
    if (kl < 0) return false;
    const char *k = p + 4;
    p = k + kl;
    int32_t vl = rd_i32(p);
    if (vl < 0) return false;
    const char *v = p + 4;
    p = v + vl;
    if (kl == 20 && memcmp(k, "ARROW:extension:name", 20) == 0) /* Arrow's canonical name, or the older one */
      return (vl == 15 && memcmp(v, "parquet.variant", 15) == 0) ||
             (vl == 21 && memcmp(v, "arrow.parquet.variant", 21) == 0);
  }
  return false;
}

static pqt_status add_binary(elist *L, const char *name, int32_t rep, pqt_error *err) {
  pqt_schema_element *e = NULL;
  PQT_RETURN_NOT_OK(add(L, name, &e, err));
  set_rep(e, rep);
  set_type(e, PQT_BYTE_ARRAY, 0);
  return PQT_OK;
}

static bool lt_is(const pqt_schema_element *e, int member) {
  return PQT_HAS_FIELD(e, schema_element, logical_type) && pqt_union_which(e->logical_type.isset) == member;
}

/* A leaf of the shredding text: one of the spec's shredded types. */
static bool shreddable_leaf(const pqt_schema_element *e) {
  bool has_lt = PQT_HAS_FIELD(e, schema_element, logical_type) && e->logical_type.isset;
  const pqt_logical_type *lt = &e->logical_type;
  switch (e->type) {
    case PQT_BOOLEAN:
    case PQT_FLOAT:
    case PQT_DOUBLE: return !has_lt;
    case PQT_INT32:
      if (!has_lt) return true;
      if (lt_is(e, PQT_LT_INTEGER)) return lt->integer.is_signed && lt->integer.bit_width <= 32;
      return lt_is(e, PQT_LT_DATE) || (lt_is(e, PQT_LT_DECIMAL) && lt->decimal.precision <= 9);
    case PQT_INT64:
      if (!has_lt) return true;
      if (lt_is(e, PQT_LT_INTEGER)) return lt->integer.is_signed && lt->integer.bit_width == 64;
      if (lt_is(e, PQT_LT_DECIMAL)) return lt->decimal.precision <= 18;
      if (lt_is(e, PQT_LT_TIME))
        return !lt->time.is_adjusted_to_utc && pqt_union_which(lt->time.unit.isset) == PQT_TIME_UNIT_MICROS;
      if (lt_is(e, PQT_LT_TIMESTAMP)) return pqt_union_which(lt->timestamp.unit.isset) != PQT_TIME_UNIT_MILLIS;
      return false;
    case PQT_BYTE_ARRAY: return !has_lt || lt_is(e, PQT_LT_STRING) || lt_is(e, PQT_LT_DECIMAL);
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (lt_is(e, PQT_LT_UUID)) return e->type_length == 16;
      return lt_is(e, PQT_LT_DECIMAL) && e->type_length <= 16;
    default: return false;
  }
}

/* Emit the typed_value for the compact shredding element at *pos (and its
 * subtree): leaves as they are, objects' fields and list elements as
 * required groups of value + typed_value. */
static pqt_status expand_typed(elist *L, const pqt_schema_element *src, int32_t n, int32_t *pos, int depth,
                               pqt_error *err) {
  if (*pos >= n || depth > 64) return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: too deep or cut short");
  const pqt_schema_element *x = &src[(*pos)++];
  char nm[256];
  snprintf(nm, sizeof nm, "%.*s", (int)x->name.len, (const char *)x->name.ptr);
  pqt_schema_element *e;
  int32_t nc = PQT_HAS_FIELD(x, schema_element, num_children) ? x->num_children : 0;
  if (nc == 0) {
    if (!PQT_HAS_FIELD(x, schema_element, type) || !shreddable_leaf(x))
      return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: %s: not a type Variant values shred to", nm);
    PQT_RETURN_NOT_OK(add(L, "typed_value", &e, err));
    set_rep(e, PQT_OPTIONAL);
    set_type(e, x->type, x->type_length);
    if (PQT_HAS_FIELD(x, schema_element, logical_type) && x->logical_type.isset)
      set_logical(e, &x->logical_type);
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(add(L, "typed_value", &e, err));
  int32_t idx = L->n - 1;
  set_rep(e, PQT_OPTIONAL);
  if (lt_is(x, PQT_LT_LIST)) {
    const pqt_schema_element *r = *pos < n ? &src[*pos] : NULL;
    if (nc != 1 || !r || !PQT_HAS_FIELD(r, schema_element, num_children) || r->num_children != 1)
      return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: %s: a LIST needs list/element", nm);
    (*pos)++;
    set_group(e, 1);
    pqt_logical_type lt = lt_simple(PQT_LT_LIST);
    set_logical(&L->items[idx], &lt);
    PQT_RETURN_NOT_OK(add(L, "list", &e, err));
    set_rep(e, PQT_REPEATED);
    set_group(e, 1);
    PQT_RETURN_NOT_OK(add(L, "element", &e, err));
    set_rep(e, PQT_REQUIRED);
    set_group(e, 2);
    PQT_RETURN_NOT_OK(add_binary(L, "value", PQT_OPTIONAL, err));
    return expand_typed(L, src, n, pos, depth + 1, err);
  }
  if (PQT_HAS_FIELD(x, schema_element, logical_type) && x->logical_type.isset)
    return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: %s: an object group takes no annotation", nm);
  set_group(e, nc);
  for (int32_t i = 0; i < nc; i++) {
    if (*pos >= n) return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: cut short");
    const pqt_schema_element *c = &src[*pos];
    char cn[256];
    snprintf(cn, sizeof cn, "%.*s", (int)c->name.len, (const char *)c->name.ptr);
    if (c->name.len > 255 || strlen(cn) != (size_t)c->name.len)
      return pqt_error_set(err, PQT_EINVAL, "variant shredding schema: a field name with NUL or over 255 bytes");
    PQT_RETURN_NOT_OK(add(L, cn, &e, err));
    set_rep(e, PQT_REQUIRED);
    set_group(e, 2);
    PQT_RETURN_NOT_OK(add_binary(L, "value", PQT_OPTIONAL, err));
    PQT_RETURN_NOT_OK(expand_typed(L, src, n, pos, depth + 1, err));
  }
  return PQT_OK;
}

static const char *shredding_for(const elist *L, const char *name) {
  const pqt_write_options *o = L->opts;
  if (!o || !o->variant_shredding || o->n_variant_shredding <= 0 || !name) return NULL;
  size_t stride = o->variant_shredding[0].struct_size;
  if (stride < sizeof(pqt_variant_shredding)) stride = sizeof(pqt_variant_shredding);
  const char *found = NULL;
  for (int32_t i = 0; i < o->n_variant_shredding; i++) {
    const pqt_variant_shredding *v =
        (const pqt_variant_shredding *)(const void *)((const char *)o->variant_shredding + (size_t)i * stride);
    if (v->column && strcmp(v->column, name) == 0) found = v->typed_value;
  }
  return found && *found ? found : NULL;
}

/* The VARIANT group at L->items[idx] given metadata, value and the
 * typed_value of the shredding schema text shred (nm names it in errors). */
static pqt_status variant_expand(elist *L, int32_t idx, const char *shred, const char *nm, pqt_error *err) {
  pqt_schema_element *src;
  int32_t n;
  pqt_status st = pqt_schema_parse(shred, strlen(shred), L->arena, &src, &n, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "%s: variant shredding schema", nm);
    return st;
  }
  if (n < 2 || src[0].num_children != 1 || src[1].name.len != 11 || memcmp(src[1].name.ptr, "typed_value", 11) != 0)
    return pqt_error_set(err, PQT_EINVAL, "%s: the variant shredding schema must have one field, typed_value", nm);
  set_group(&L->items[idx], 3);
  PQT_RETURN_NOT_OK(add_binary(L, "metadata", PQT_REQUIRED, err));
  PQT_RETURN_NOT_OK(add_binary(L, "value", PQT_OPTIONAL, err));
  int32_t pos = 1;
  st = expand_typed(L, src, n, &pos, 0, err);
  if (st != PQT_OK) pqt_error_prefix(err, "%s", nm);
  return st;
}

/* The group at items[idx] made a LIST (or MAP) of one repeated group, named inner with n_inner children, which
 * is added after it. */
static pqt_status add_wrapper(elist *L, int32_t idx, int lt_member, const char *inner, int32_t n_inner,
                              pqt_error *err) {
  set_group(&L->items[idx], 1);
  pqt_logical_type lt = lt_simple(lt_member);
  set_logical(&L->items[idx], &lt);
  pqt_schema_element *e;
  PQT_RETURN_NOT_OK(add(L, inner, &e, err));
  set_rep(e, PQT_REPEATED);
  set_group(e, n_inner);
  return PQT_OK;
}

static const struct ArrowSchema *arrow_child(const struct ArrowSchema *s, const char *name) {
  if (!s) return NULL;
  for (int64_t i = 0; i < s->n_children; i++)
    if (s->children[i] && s->children[i]->name && strcmp(s->children[i]->name, name) == 0) return s->children[i];
  return NULL;
}

/* A group of the shredded Arrow form (the VARIANT struct, an object's field
 * struct, an array's element struct): value and/or typed_value, and
 * metadata when top. */
static bool arrow_pair_ok(const struct ArrowSchema *s, bool top) {
  if (!s || !s->format || strcmp(s->format, "+s") != 0) return false;
  const struct ArrowSchema *v = arrow_child(s, "value"), *t = arrow_child(s, "typed_value");
  int64_t expect = (v != NULL) + (t != NULL) + (top ? 1 : 0);
  if (top && !arrow_child(s, "metadata")) return false;
  if (v && (!v->format || strcmp(v->format, "z") != 0)) return false;
  return (v || t) && s->n_children == expect;
}

/* The typed_value of the shredded Arrow form s as Parquet (VariantShredding.md):
 * an object's fields and an array's element as required groups of value
 * (always written, so every value has a place) and the field's typed_value. */
static pqt_status arrow_typed(elist *L, const struct ArrowSchema *s, const char *nm, int depth, pqt_error *err) {
  if (depth > 64) return pqt_error_set(err, PQT_EINVAL, "%s: shredded typed_value nested too deep", nm);
  if (!s || !s->format) return pqt_error_set(err, PQT_EINVAL, "%s: typed_value without format", nm);
  pqt_schema_element *e;
  if (strcmp(s->format, "+s") == 0 || strcmp(s->format, "+l") == 0) {
    bool list = s->format[1] == 'l';
    if (s->n_children < 1 || (list && s->n_children != 1))
      return pqt_error_set(err, PQT_EINVAL, "%s: a shredded %s without %s", nm, list ? "array" : "object",
                           list ? "one element" : "fields");
    PQT_RETURN_NOT_OK(add(L, "typed_value", &e, err));
    int32_t idx = L->n - 1;
    set_rep(e, PQT_OPTIONAL);
    if (list) {
      PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_LIST, "list", 1, err));
    } else {
      set_group(e, (int32_t)s->n_children);
    }
    for (int64_t i = 0; i < s->n_children; i++) {
      const struct ArrowSchema *c = s->children[i];
      const char *cn = list ? "element" : c && c->name ? c->name : "";
      if (!arrow_pair_ok(c, false))
        return pqt_error_set(err, PQT_EINVAL, "%s.typed_value.%s: a shredded %s must be struct<value binary, typed_value>",
                             nm, cn, list ? "array element" : "field");
      if (strlen(cn) > 255) return pqt_error_set(err, PQT_EINVAL, "%s: a shredded field name over 255 bytes", nm);
      const struct ArrowSchema *t = arrow_child(c, "typed_value");
      PQT_RETURN_NOT_OK(add(L, cn, &e, err));
      set_rep(e, PQT_REQUIRED);
      set_group(e, t ? 2 : 1);
      PQT_RETURN_NOT_OK(add_binary(L, "value", PQT_OPTIONAL, err));
      if (t) PQT_RETURN_NOT_OK(arrow_typed(L, t, cn, depth + 1, err));
    }
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(arrow_field(L, s, "typed_value", PQT_OPTIONAL, err));
  e = &L->items[L->n - 1];
  /* Variant's TIME has no time zone; a 16-byte fixed binary is a UUID */
  if (lt_is(e, PQT_LT_TIME)) e->logical_type.time.is_adjusted_to_utc = false;
  if (e->type == PQT_FIXED_LEN_BYTE_ARRAY && e->type_length == 16 && !lt_is(e, PQT_LT_DECIMAL)) {
    pqt_logical_type u = lt_simple(PQT_LT_UUID);
    set_logical(e, &u);
  }
  char fn[64];
  if (PQT_HAS_FIELD(e, schema_element, num_children) || !shreddable_leaf(e))
    return pqt_error_set(err, PQT_EINVAL, "%s: typed_value of Arrow type %s is not a type Variant values shred to", nm,
                         pqt_arrow_format_name(s->format, fn, sizeof fn));
  return PQT_OK;
}

static pqt_status arrow_variant(elist *L, const struct ArrowSchema *s, const char *name, int32_t idx, bool top,
                                pqt_error *err) {
  const char *nm = name ? name : s->name ? s->name : "";
  if (s->format && strcmp(s->format, "+s") == 0 && arrow_child(s, "typed_value")) {
    /* the shredded form (as variant_shredded exports it): the written group
     * keeps the caller's typed_value layout */
    if (!arrow_pair_ok(s, true))
      return pqt_error_set(err, PQT_EINVAL,
                           "%s: a shredded parquet.variant field must be struct<metadata binary, value binary, typed_value>",
                           nm);
    const struct ArrowSchema *m = arrow_child(s, "metadata");
    if (!m->format || (strcmp(m->format, "z") != 0 && strcmp(m->format, "Z") != 0))
      return pqt_error_set(err, PQT_EINVAL, "%s: variant metadata must be binary", nm);
    char dotted[768] = "";
    if (L->prefix_len < sizeof L->prefix) snprintf(dotted, sizeof dotted, "%.*s%s", (int)L->prefix_len, L->prefix, nm);
    if (shredding_for(L, top ? nm : dotted))
      return pqt_error_set(err, PQT_EINVAL, "%s: the field is shredded already; give no variant_shredding for it", nm);
    pqt_logical_type lt = lt_simple(PQT_LT_VARIANT);
    lt.variant.specification_version = 1;
    lt.variant.isset = PQT_FIELD_MASK(variant_type, specification_version);
    set_logical(&L->items[idx], &lt);
    set_group(&L->items[idx], 3);
    PQT_RETURN_NOT_OK(add_binary(L, "metadata", PQT_REQUIRED, err));
    PQT_RETURN_NOT_OK(add_binary(L, "value", PQT_OPTIONAL, err));
    return arrow_typed(L, arrow_child(s, "typed_value"), nm, 0, err);
  }
  bool ok = s->format && strcmp(s->format, "+s") == 0 && s->n_children == 2;
  int meta_at = -1;
  for (int64_t i = 0; ok && i < 2; i++) {
    const struct ArrowSchema *c = s->children[i];
    const char *cn = c && c->name ? c->name : "";
    const char *cf = c && c->format ? c->format : "";
    if (strcmp(cf, "z") != 0 && strcmp(cf, "Z") != 0) ok = false;
    if (strcmp(cn, "metadata") == 0) meta_at = (int)i;
    else if (strcmp(cn, "value") != 0) ok = false;
  }
  if (!ok || meta_at < 0)
    return pqt_error_set(err, PQT_EINVAL, "%s: a parquet.variant field must be struct<metadata binary, value binary>", nm);
  /* inside structs, lists and maps, variant_shredding names the field by its
   * Parquet dotted path ("s.v", "l.list.element", "m.key_value.value") */
  char dotted[768] = "";
  if (L->prefix_len < sizeof L->prefix) snprintf(dotted, sizeof dotted, "%.*s%s", (int)L->prefix_len, L->prefix, nm);
  pqt_logical_type lt = lt_simple(PQT_LT_VARIANT);
  lt.variant.specification_version = 1;
  lt.variant.isset = PQT_FIELD_MASK(variant_type, specification_version);
  set_logical(&L->items[idx], &lt);
  const char *shred = shredding_for(L, top ? nm : dotted);
  if (!shred) {
    set_group(&L->items[idx], 2);
    for (int i = 0; i < 2; i++) PQT_RETURN_NOT_OK(add_binary(L, i == meta_at ? "metadata" : "value", PQT_REQUIRED, err));
    return PQT_OK;
  }
  return variant_expand(L, idx, shred, nm, err);
}

/* Arrow input: append "name." (and "inner." for a list's or map's repeated
 * group) to the dotted path of the fields around; a path too long for the
 * buffer leaves none (no shredding below). The caller restores prefix_len. */
static void prefix_push(elist *L, const char *name, const char *inner) {
  size_t at = L->prefix_len;
  if (at >= sizeof L->prefix) return;
  int m = snprintf(L->prefix + at, sizeof L->prefix - at, "%s.%s%s", name, inner ? inner : "", inner ? "." : "");
  if (m < 0 || (size_t)m >= sizeof L->prefix - at) L->prefix_len = sizeof L->prefix;
  else L->prefix_len = at + (size_t)m;
}

static pqt_status arrow_field(elist *L, const struct ArrowSchema *s, const char *name, int32_t rep, pqt_error *err) {
  if (!s || !s->format) return pqt_error_set(err, PQT_EINVAL, "ArrowSchema without format");
  if (s->dictionary) return pqt_error_set(err, PQT_EUNSUPPORTED, "dictionary-encoded Arrow fields are not supported");
  if (rep < 0) rep = (s->flags & ARROW_FLAG_NULLABLE) ? PQT_OPTIONAL : PQT_REQUIRED;
  const char *f = s->format;
  pqt_schema_element *e;
  PQT_RETURN_NOT_OK(add(L, name ? name : s->name, &e, err));
  int32_t idx = L->n - 1;
  set_rep(e, rep);
  pqt_arrow_format af;
  pqt_arrow_format_parse(f, &af);
  bool top = L->top;
  L->top = false;
  if (arrow_is_variant(s)) return arrow_variant(L, s, name, idx, name == NULL && top, err);
  if (af.kind == PQT_AK_STRUCT) {
    if (s->n_children < 1) return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: empty struct", s->name ? s->name : "");
    set_group(e, (int32_t)s->n_children);
    const char *sn = name ? name : s->name ? s->name : "";
    size_t saved = L->prefix_len;
    prefix_push(L, sn, NULL);
    pqt_status sst = PQT_OK;
    for (int64_t i = 0; i < s->n_children && sst == PQT_OK; i++) sst = arrow_field(L, s->children[i], NULL, -1, err);
    L->prefix_len = saved;
    return sst;
  }
  if (af.kind == PQT_AK_LIST || af.kind == PQT_AK_LARGE_LIST) {
    if (s->n_children != 1) return pqt_error_set(err, PQT_EINVAL, "list without one child");
    PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_LIST, "list", 1, err));
    size_t saved = L->prefix_len;
    prefix_push(L, name ? name : s->name ? s->name : "", "list");
    L->in_list++;
    pqt_status lst = arrow_field(L, s->children[0], "element", -1, err);
    L->in_list--;
    L->prefix_len = saved;
    return lst;
  }
  if (af.kind == PQT_AK_MAP) {
    const struct ArrowSchema *en = s->n_children == 1 ? s->children[0] : NULL;
    if (!en || en->n_children != 2) return pqt_error_set(err, PQT_EINVAL, "map without key/value entries");
    PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_MAP, "key_value", 2, err));
    size_t saved = L->prefix_len;
    prefix_push(L, name ? name : s->name ? s->name : "", "key_value");
    L->in_list++;
    pqt_status mst = arrow_field(L, en->children[0], "key", PQT_REQUIRED, err);
    if (mst == PQT_OK) mst = arrow_field(L, en->children[1], "value", -1, err);
    L->in_list--;
    L->prefix_len = saved;
    return mst;
  }
  char fn[64];
  if (f[0] == '+')
    return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: Arrow type %s is not supported by the writer",
                         s->name ? s->name : "", pqt_arrow_format_name(f, fn, sizeof fn));
  return arrow_leaf(L, s, f, idx, err);
}

/* ---- from a file's schema tree -------------------------------------------- */

static pqt_status tree_node(elist *L, const pqt_schema_node *x, const char *name, int32_t rep, bool as_content,
                            pqt_error *err);

static pqt_status tree_content(elist *L, const pqt_schema_node *x, const char *name, int32_t rep, pqt_error *err) {
  pqt_schema_element *e;
  PQT_RETURN_NOT_OK(add(L, name, &e, err));
  int32_t idx = L->n - 1;
  set_rep(e, rep);
  if (x->has_field_id) {
    e->field_id = x->field_id;
    PQT_SET_FIELD(e, schema_element, field_id);
  }
  if (x->is_leaf) {
    set_type(e, x->physical_type, x->type_length);
    if (x->logical.isset) {
      set_logical(e, &x->logical);
    } else if (!x->annotation_invalid && x->converted_type >= 0) {
      e->converted_type = x->converted_type; /* INTERVAL lives only here */
      PQT_SET_FIELD(e, schema_element, converted_type);
    }
    return PQT_OK;
  }
  switch (x->kind) {
    case PQT_NODE_STRUCT:
      set_group(e, x->n_children);
      if (pqt_union_which(x->logical.isset) == PQT_LT_VARIANT) set_logical(&L->items[idx], &x->logical);
      for (int32_t i = 0; i < x->n_children; i++)
        PQT_RETURN_NOT_OK(tree_node(L, x->children[i], x->children[i]->name, -1, false, err));
      return PQT_OK;
    case PQT_NODE_LIST: {
      PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_LIST, "list", 1, err));
      if (!x->element || x->element == x->repeated)
        return tree_node(L, x->repeated, "element", PQT_REQUIRED, true, err);
      return tree_node(L, x->element, "element", -1, false, err);
    }
    case PQT_NODE_MAP: {
      const pqt_schema_node *r = x->repeated;
      PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_MAP, "key_value", r->n_children, err));
      for (int32_t i = 0; i < r->n_children; i++)
        PQT_RETURN_NOT_OK(tree_node(L, r->children[i],
                                    i == 0   ? "key"
                                    : i == 1 ? "value"
                                             : r->children[i]->name,
                                    i == 0 ? PQT_REQUIRED : -1, false, err));
      return PQT_OK;
    }
    default:
      return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: node kind %s cannot be written", x->name,
                           pqt_node_kind_name(x->kind));
  }
}

static pqt_status tree_node(elist *L, const pqt_schema_node *x, const char *name, int32_t rep, bool as_content,
                            pqt_error *err) {
  if (as_content) return tree_content(L, x, name, PQT_REQUIRED, err);
  if (x->repetition == PQT_REPEATED) {
    /* bare repeated field: a required list of required elements */
    pqt_schema_element *e;
    PQT_RETURN_NOT_OK(add(L, name, &e, err));
    int32_t idx = L->n - 1;
    set_rep(e, rep >= 0 ? rep : PQT_REQUIRED);
    PQT_RETURN_NOT_OK(add_wrapper(L, idx, PQT_LT_LIST, "list", 1, err));
    return tree_content(L, x, "element", PQT_REQUIRED, err);
  }
  return tree_content(L, x, name, rep >= 0 ? rep : x->repetition, err);
}

/* ---- a message schema's VARIANT groups shredded ---------------------------- */

static bool is_plain_variant(const pqt_schema_element *e, int32_t n, int32_t at) {
  if (!lt_is(&e[at], PQT_LT_VARIANT) || !PQT_HAS_FIELD(&e[at], schema_element, num_children) ||
      e[at].num_children != 2 || at + 2 >= n)
    return false;
  for (int i = 1; i <= 2; i++) {
    const pqt_schema_element *c = &e[at + i];
    if (PQT_HAS_FIELD(c, schema_element, num_children) && c->num_children > 0) return false;
    if (c->type != PQT_BYTE_ARRAY) return false;
  }
  return true;
}

/* Element *at of a message schema (and its subtree) again, with the dotted
 * path of the groups around in prefix (NULL: too long, no shredding below):
 * a VARIANT group {metadata, value} that variant_shredding names by its
 * dotted path ("v", "s.v", "l.list.element") expanded with its typed_value. */
static pqt_status message_node(elist *L, const pqt_schema_element *e, int32_t n, int32_t *at, const char *prefix,
                               int depth, pqt_error *err) {
  if (*at >= n || depth > 64) return pqt_error_set(err, PQT_EINVAL, "schema elements cut short or too deep");
  const pqt_schema_element *g = &e[*at];
  char dotted[512];
  const char *path = NULL;
  if (prefix) {
    int m = snprintf(dotted, sizeof dotted, "%s%.*s", prefix, (int)g->name.len, (const char *)g->name.ptr);
    if (m > 0 && (size_t)m < sizeof dotted - 1) path = dotted;
  }
  pqt_schema_element *x;
  PQT_RETURN_NOT_OK(add(L, "", &x, err));
  *x = *g;
  int32_t idx = L->n - 1;
  const char *shred = path && is_plain_variant(e, n, *at) ? shredding_for(L, path) : NULL;
  if (shred) {
    *at += 3;
    return variant_expand(L, idx, shred, path, err);
  }
  int32_t nc = PQT_HAS_FIELD(g, schema_element, num_children) ? g->num_children : 0;
  (*at)++;
  char sub[520];
  const char *sp = NULL;
  if (path) {
    snprintf(sub, sizeof sub, "%s.", path);
    sp = sub;
  }
  for (int32_t i = 0; i < nc; i++) PQT_RETURN_NOT_OK(message_node(L, e, n, at, sp, depth + 1, err));
  return PQT_OK;
}

/* The elements again, each VARIANT group {metadata, value} that
 * variant_shredding names expanded with its typed_value. */
static pqt_status message_shred(elist *L, const pqt_schema_element *e, int32_t n, pqt_error *err) {
  pqt_schema_element *x;
  if (n < 1) return pqt_error_set(err, PQT_EINVAL, "empty schema");
  PQT_RETURN_NOT_OK(add(L, "", &x, err));
  *x = e[0];
  int32_t nc = PQT_HAS_FIELD(&e[0], schema_element, num_children) ? e[0].num_children : 0;
  int32_t at = 1;
  for (int32_t i = 0; i < nc; i++) PQT_RETURN_NOT_OK(message_node(L, e, n, &at, "", 1, err));
  return PQT_OK;
}

/* ---- entry points --------------------------------------------------------- */

pqt_status pqt_writer_schema_elements(pqt_arena *arena, const pqt_write_schema *ws, const pqt_write_options *opts,
                                      pqt_schema_element **out, int32_t *n_out, pqt_error *err) {
  int32_t compat = opts ? opts->compat : PQT_COMPAT_NONE;
  int n_src = (ws->message != NULL) + (ws->arrow != NULL) + (ws->like != NULL);
  if (n_src != 1) return pqt_error_set(err, PQT_EINVAL, "give exactly one schema source");
  elist L = {arena, NULL, 0, 0, compat, opts, false, 0, {0}, 0};
  if (ws->message) {
    PQT_RETURN_NOT_OK(pqt_schema_parse(ws->message, strlen(ws->message), arena, out, n_out, err));
    if (!opts || opts->n_variant_shredding <= 0) return PQT_OK;
    PQT_RETURN_NOT_OK(message_shred(&L, *out, *n_out, err));
    *out = L.items;
    *n_out = L.n;
    return PQT_OK;
  }
  pqt_schema_element *root;
  if (ws->arrow) {
    const struct ArrowSchema *s = ws->arrow;
    if (!s->format || strcmp(s->format, "+s") != 0)
      return pqt_error_set(err, PQT_EINVAL, "the ArrowSchema must be a struct (record batch) schema");
    PQT_RETURN_NOT_OK(add(&L, "schema", &root, err));
    set_group(root, (int32_t)s->n_children);
    for (int64_t i = 0; i < s->n_children; i++) {
      L.top = true;
      PQT_RETURN_NOT_OK(arrow_field(&L, s->children[i], NULL, -1, err));
    }
  } else {
    const pqt_schema *sch = ws->like->schema;
    PQT_RETURN_NOT_OK(add(&L, sch->root->name, &root, err));
    set_group(root, sch->root->n_children);
    for (int32_t i = 0; i < sch->root->n_children; i++)
      PQT_RETURN_NOT_OK(tree_node(&L, sch->root->children[i], sch->root->children[i]->name, -1, false, err));
  }
  *out = L.items;
  *n_out = L.n;
  return PQT_OK;
}
