/*
 * scan/expr_variant.c: variant_get in filter expressions.
 *
 * A variant_get(col, 'path', 'type') operand is bound (scan/expr_bind.c) as
 * a predicate on the VARIANT group whose domain is that of the type. Per
 * batch its values are computed row by row from the reconstructed Variant
 * (pqt_variant_get) into a leaf array of that domain, which the ordinary
 * leaf predicates then test: results are exact whatever the shredding.
 *
 * Pruning goes through the path's shredded typed_value leaf (a "shadow"
 * predicate bound to it) only where that is provably safe: the path steps
 * through object fields only, and in the row group every `value` column on
 * the way (the variant's own, each field's) is all null by its statistics.
 * Then every row's value at the path is its typed_value leaf or missing
 * (VariantShredding.md: a field shredded in typed_value is never also in
 * value; a null value and typed_value is a missing field).
 */
#include <string.h>

#include "arrow/variant_arrow.h"
#include "scan/filter.h"

/* ---- the expression node -------------------------------------------------------- */

pqt_status pqt_vget_check_path(const char *path, size_t len, pqt_error *err) {
  if (memchr(path, 0, len)) return pqt_error_set(err, PQT_EINVAL, "a path cannot hold a NUL byte");
  static const uint8_t k_meta[] = {0x01, 0x00, 0x00}, k_null[] = {0x00};
  pqt_variant v = {k_meta, sizeof k_meta, k_null, sizeof k_null}, out;
  int found;
  char small[256];
  char *p = small;
  if (len >= sizeof small) {
    p = pqt_mem_alloc(pqt_default_allocator(), len + 1);
    if (!p) return pqt_nomem(err);
  }
  memcpy(p, path, len);
  p[len] = 0;
  pqt_status st = pqt_variant_path(&v, p, &out, &found, err); /* parses the whole path, the value is null */
  if (p != small) pqt_mem_free(pqt_default_allocator(), p, len + 1);
  return st;
}

const char *pqt_vget_type_name(int32_t t) {
  switch (t) {
    case PQT_VARIANT_GET_BOOLEAN: return "boolean";
    case PQT_VARIANT_GET_INT8: return "int8";
    case PQT_VARIANT_GET_INT16: return "int16";
    case PQT_VARIANT_GET_INT32: return "int32";
    case PQT_VARIANT_GET_INT64: return "int64";
    case PQT_VARIANT_GET_FLOAT: return "float";
    case PQT_VARIANT_GET_DOUBLE: return "double";
    case PQT_VARIANT_GET_STRING: return "string";
    case PQT_VARIANT_GET_BINARY: return "binary";
    case PQT_VARIANT_GET_DATE: return "date";
    case PQT_VARIANT_GET_TIMESTAMP: return "timestamp";
    case PQT_VARIANT_GET_TIMESTAMP_NTZ: return "timestamp_ntz";
    case PQT_VARIANT_GET_UUID: return "uuid";
    case PQT_VARIANT_GET_VARIANT: return "variant";
    default: return "?";
  }
}

PQT_API pqt_expr *pqt_expr_variant_get(pqt_expr *column, const char *path, pqt_variant_target type) {
  if (!column || !path || column->kind != PQT_EK_COLUMN || pqt_vget_type_name((int32_t)type)[0] == '?') {
    pqt_expr_free(column);
    return NULL;
  }
  size_t n = strlen(path);
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_vget_check_path(path, n, &e) != PQT_OK) {
    pqt_expr_free(column);
    return NULL;
  }
  pqt_expr *x = pqt_expr_new_bytes(PQT_EK_VGET, path, n);
  pqt_expr **args = x ? pqt_mem_calloc(pqt_default_allocator(), sizeof(pqt_expr *)) : NULL;
  if (!args) {
    pqt_expr_free(x);
    pqt_expr_free(column);
    return NULL;
  }
  x->args = args;
  x->n_args = 1;
  x->args[0] = column;
  x->op = (int32_t)type;
  return x;
}

/* ---- values per batch ------------------------------------------------------------ */

typedef struct mat_ctx {
  const pqt_bound *b;
  uint8_t *validity;
  uint8_t *values; /* fixed width (or BOOLEAN bitmap) */
  int32_t *offsets;
  pqt_buf bytes;
  int64_t nulls;
} mat_ctx;

static pqt_status mat_row(void *vc, int64_t i, const pqt_variant *v, pqt_error *err) {
  mat_ctx *c = vc;
  const pqt_bound *b = c->b;
  pqt_variant_value r;
  memset(&r, 0, sizeof r);
  r.is_null = 1;
  if (v) PQT_RETURN_NOT_OK(pqt_variant_get(v, b->vpath, (pqt_variant_target)b->vtype, &r, err));
  if (!r.is_null) {
    pqt_bit_set(c->validity, i);
    switch (b->vtype) {
      case PQT_VARIANT_GET_BOOLEAN:
        if (r.u.b) pqt_bit_set(c->values, i);
        break;
      case PQT_VARIANT_GET_FLOAT: {
        uint32_t u;
        memcpy(&u, &r.u.f32, 4);
        pqt_store_u32le(c->values + (size_t)i * 4, u);
        break;
      }
      case PQT_VARIANT_GET_DOUBLE: {
        uint64_t u;
        memcpy(&u, &r.u.f64, 8);
        pqt_store_u64le(c->values + (size_t)i * 8, u);
        break;
      }
      case PQT_VARIANT_GET_STRING:
      case PQT_VARIANT_GET_BINARY:
        if (r.u.bytes.len) PQT_RETURN_NOT_OK(pqt_buf_append(&c->bytes, r.u.bytes.data, r.u.bytes.len, err));
        break;
      case PQT_VARIANT_GET_UUID: memcpy(c->values + (size_t)i * 16, r.u.uuid, 16); break;
      case PQT_VARIANT_GET_VARIANT: break;
      default: pqt_store_u64le(c->values + (size_t)i * 8, (uint64_t)r.u.i64); break;
    }
  } else {
    c->nulls++;
  }
  if (c->offsets) {
    if (c->bytes.len > INT32_MAX)
      return pqt_error_set(err, PQT_ELIMIT, "variant_get: the values of a batch exceed 2 GiB");
    c->offsets[i + 1] = (int32_t)c->bytes.len;
  }
  return PQT_OK;
}

pqt_status pqt_vget_materialise(const pqt_bound *b, const pqt_array *group, const pqt_allocator *alloc, pqt_array **out,
                                pqt_error *err) {
  *out = NULL;
  int64_t n = group->length;
  size_t w = 0;
  bool var_len = false;
  switch (b->vtype) {
    case PQT_VARIANT_GET_BOOLEAN: w = 0; break;
    case PQT_VARIANT_GET_FLOAT: w = 4; break;
    case PQT_VARIANT_GET_STRING:
    case PQT_VARIANT_GET_BINARY: var_len = true; break;
    case PQT_VARIANT_GET_UUID: w = 16; break;
    case PQT_VARIANT_GET_VARIANT: w = 0; break;
    default: w = 8; break;
  }
  pqt_array *a;
  PQT_RETURN_NOT_OK(pqt_array_new(alloc, PQT_ARRAY_LEAF, 0, &a, err));
  a->node = b->node;
  a->name = "variant_get";
  a->nullable = true;
  a->length = n;
  size_t bits = (size_t)(n + 7) / 8;
  pqt_status st = pqt_shared_alloc(alloc, bits ? bits : 1, &a->validity, err);
  size_t vsize = b->vtype == PQT_VARIANT_GET_BOOLEAN || b->vtype == PQT_VARIANT_GET_VARIANT ? bits : w * (size_t)n;
  if (st == PQT_OK && !var_len) st = pqt_shared_alloc(alloc, vsize ? vsize : 1, &a->values, err);
  if (st == PQT_OK && var_len) st = pqt_shared_alloc(alloc, sizeof(int32_t) * (size_t)(n + 1), &a->offsets, err);
  mat_ctx c;
  memset(&c, 0, sizeof c);
  c.b = b;
  pqt_buf_init(&c.bytes, alloc);
  if (st == PQT_OK) {
    c.validity = a->validity->data;
    c.values = a->values ? a->values->data : NULL;
    c.offsets = a->offsets ? (int32_t *)(void *)a->offsets->data : NULL;
    st = pqt_variant_group_each(alloc, group, 0, mat_row, &c, err);
  }
  if (st == PQT_OK && var_len) {
    if (c.bytes.len == 0) st = pqt_buf_append(&c.bytes, "", 1, err); /* a buffer to point at */
    if (st == PQT_OK) st = pqt_shared_from_buf(&c.bytes, &a->values, err);
  }
  pqt_buf_free(&c.bytes);
  if (st != PQT_OK) {
    pqt_array_free(alloc, a);
    return st;
  }
  a->null_count = c.nulls;
  *out = a;
  return PQT_OK;
}

/* ---- pruning through the shredded leaf -------------------------------------------- */

static const pqt_schema_node *child(const pqt_schema_node *x, const char *name, size_t len) {
  for (int32_t i = 0; x && i < x->n_children; i++)
    if (x->children[i]->name_len == len && memcmp(x->children[i]->name, name, len) == 0) return x->children[i];
  return NULL;
}

static pqt_status add_vnull(const pqt_schema_node *pair, pqt_arena *arena, int32_t **v, int32_t *n, int32_t *cap,
                            pqt_error *err) {
  const pqt_schema_node *val = child(pair, "value", 5);
  if (!val) return PQT_OK;
  if (!val->is_leaf) return PQT_EINVAL; /* not a shape we know: no pruning */
  if (*n == *cap) {
    int32_t nc = *cap ? *cap * 2 : 8;
    int32_t *g = pqt_arena_array(arena, (size_t)nc, sizeof *g);
    if (!g) return pqt_nomem(err);
    if (*n) memcpy(g, *v, sizeof *g * (size_t)*n);
    *v = g;
    *cap = nc;
  }
  (*v)[(*n)++] = val->first_leaf;
  return PQT_OK;
}

pqt_status pqt_vget_shredded_leaf(const pqt_schema_node *group, const char *path, pqt_arena *arena,
                                  const pqt_schema_node **leaf, int32_t **vnull, int32_t *n_vnull, pqt_error *err) {
  *leaf = NULL;
  *vnull = NULL;
  *n_vnull = 0;
  int32_t cap = 0;
  const pqt_schema_node *pair = group;
  size_t i = 1, n = strlen(path);
  if (n == 0 || path[0] != '$') return PQT_OK;
  for (;;) {
    pqt_status st = add_vnull(pair, arena, vnull, n_vnull, &cap, err);
    if (st == PQT_EINVAL) return PQT_OK;
    PQT_RETURN_NOT_OK(st);
    const pqt_schema_node *tv = child(pair, "typed_value", 11);
    if (!tv) return PQT_OK;
    if (i >= n) {
      if (tv->is_leaf) *leaf = tv;
      return PQT_OK;
    }
    /* one step: an object field */
    const char *name;
    size_t len;
    if (path[i] == '.') {
      size_t s = ++i;
      while (i < n && path[i] != '.' && path[i] != '[') i++;
      name = path + s;
      len = i - s;
    } else if (path[i] == '[' && i + 1 < n && (path[i + 1] == '\'' || path[i + 1] == '"')) {
      char q = path[i + 1];
      size_t s = i + 2, e = s;
      while (e < n && path[e] != q) e++;
      if (e + 1 >= n || path[e + 1] != ']') return PQT_OK;
      name = path + s;
      len = e - s;
      i = e + 2;
    } else {
      return PQT_OK; /* an array index: not pruned */
    }
    if (tv->is_leaf || tv->kind != PQT_NODE_STRUCT || pqt_union_which(tv->logical.isset) != 0) return PQT_OK;
    const pqt_schema_node *f = child(tv, name, len);
    if (!f || f->is_leaf || f->kind != PQT_NODE_STRUCT || f->repetition == PQT_REPEATED) return PQT_OK;
    pair = f;
  }
}

const pqt_bound *pqt_vget_prune_bound(const pqt_reader *r, int32_t g, const pqt_bound *b) {
  if (!b->shadow || g < 0 || g >= r->md.row_groups.n) return NULL;
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  for (int32_t k = 0; k < b->n_vnull; k++) {
    int32_t leaf = b->vnull[k];
    if (leaf < 0 || leaf >= rg->columns.n) return NULL;
    const pqt_column_chunk *cc = &rg->columns.items[leaf];
    if (!PQT_HAS_FIELD(cc, column_chunk, meta_data)) return NULL;
    const pqt_column_metadata *cm = &cc->meta_data;
    if (!PQT_HAS_FIELD(cm, column_metadata, statistics)) return NULL;
    const pqt_statistics *s = &cm->statistics;
    if (!PQT_HAS_FIELD(s, statistics, null_count) || s->null_count != cm->num_values || cm->num_values != rg->num_rows)
      return NULL;
  }
  return b->shadow;
}
