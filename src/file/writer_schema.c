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

typedef struct elist {
  pqt_arena *arena;
  pqt_schema_element *items;
  int32_t n, cap;
  int32_t compat;
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
  if (af.kind == PQT_AK_STRUCT) {
    if (s->n_children < 1) return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: empty struct", s->name ? s->name : "");
    set_group(e, (int32_t)s->n_children);
    for (int64_t i = 0; i < s->n_children; i++) PQT_RETURN_NOT_OK(arrow_field(L, s->children[i], NULL, -1, err));
    return PQT_OK;
  }
  if (af.kind == PQT_AK_LIST || af.kind == PQT_AK_LARGE_LIST) {
    if (s->n_children != 1) return pqt_error_set(err, PQT_EINVAL, "list without one child");
    set_group(e, 1);
    pqt_logical_type lt = lt_simple(PQT_LT_LIST);
    set_logical(&L->items[idx], &lt);
    PQT_RETURN_NOT_OK(add(L, "list", &e, err));
    set_rep(e, PQT_REPEATED);
    set_group(e, 1);
    return arrow_field(L, s->children[0], "element", -1, err);
  }
  if (af.kind == PQT_AK_MAP) {
    const struct ArrowSchema *en = s->n_children == 1 ? s->children[0] : NULL;
    if (!en || en->n_children != 2) return pqt_error_set(err, PQT_EINVAL, "map without key/value entries");
    set_group(e, 1);
    pqt_logical_type lt = lt_simple(PQT_LT_MAP);
    set_logical(&L->items[idx], &lt);
    PQT_RETURN_NOT_OK(add(L, "key_value", &e, err));
    set_rep(e, PQT_REPEATED);
    set_group(e, 2);
    PQT_RETURN_NOT_OK(arrow_field(L, en->children[0], "key", PQT_REQUIRED, err));
    return arrow_field(L, en->children[1], "value", -1, err);
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
      set_group(e, 1);
      pqt_logical_type lt = lt_simple(PQT_LT_LIST);
      set_logical(&L->items[idx], &lt);
      PQT_RETURN_NOT_OK(add(L, "list", &e, err));
      set_rep(e, PQT_REPEATED);
      set_group(e, 1);
      if (!x->element || x->element == x->repeated)
        return tree_node(L, x->repeated, "element", PQT_REQUIRED, true, err);
      return tree_node(L, x->element, "element", -1, false, err);
    }
    case PQT_NODE_MAP: {
      set_group(e, 1);
      pqt_logical_type lt = lt_simple(PQT_LT_MAP);
      set_logical(&L->items[idx], &lt);
      const pqt_schema_node *r = x->repeated;
      PQT_RETURN_NOT_OK(add(L, "key_value", &e, err));
      set_rep(e, PQT_REPEATED);
      set_group(e, r->n_children);
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
    set_group(e, 1);
    pqt_logical_type lt = lt_simple(PQT_LT_LIST);
    set_logical(&L->items[idx], &lt);
    PQT_RETURN_NOT_OK(add(L, "list", &e, err));
    set_rep(e, PQT_REPEATED);
    set_group(e, 1);
    return tree_content(L, x, "element", PQT_REQUIRED, err);
  }
  return tree_content(L, x, name, rep >= 0 ? rep : x->repetition, err);
}

/* ---- entry points --------------------------------------------------------- */

pqt_status pqt_writer_schema_elements(pqt_arena *arena, const pqt_write_schema *ws, int32_t compat,
                                      pqt_schema_element **out, int32_t *n_out, pqt_error *err) {
  int n_src = (ws->message != NULL) + (ws->arrow != NULL) + (ws->like != NULL);
  if (n_src != 1) return pqt_error_set(err, PQT_EINVAL, "give exactly one schema source");
  if (ws->message) return pqt_schema_parse(ws->message, strlen(ws->message), arena, out, n_out, err);
  elist L = {arena, NULL, 0, 0, compat};
  pqt_schema_element *root;
  if (ws->arrow) {
    const struct ArrowSchema *s = ws->arrow;
    if (!s->format || strcmp(s->format, "+s") != 0)
      return pqt_error_set(err, PQT_EINVAL, "the ArrowSchema must be a struct (record batch) schema");
    PQT_RETURN_NOT_OK(add(&L, "schema", &root, err));
    set_group(root, (int32_t)s->n_children);
    for (int64_t i = 0; i < s->n_children; i++) PQT_RETURN_NOT_OK(arrow_field(&L, s->children[i], NULL, -1, err));
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
