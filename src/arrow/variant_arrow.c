/*
 * arrow/variant_arrow.c: the assembled arrays of a VARIANT group described
 * as column views (variant/variant_shred.h), reconstructed row by row, and
 * put back in the tree as struct<metadata, value> (the metadata array as
 * read, the value a new BYTE_ARRAY array).
 *
 * The views are built once per group and batch in an arena; the type of a
 * typed_value column comes from its Parquet node (VariantShredding.md,
 * "Shredded Value Types"); a type the spec does not list is
 * PQT_VSHRED_UNSUPPORTED, an error in the first row that reaches it.
 */
#include <stdio.h>
#include <string.h>

#include "arrow/variant_arrow.h"
#include "arrow/export.h"
#include "parquetry_arrow.h"
#include "variant/variant_shred.h"

bool pqt_variant_node_rebuilt(const pqt_schema_node *x, const uint8_t *sel) {
  if (!x || x->is_leaf || !x->variant_rebuild || pqt_union_which(x->logical.isset) != PQT_LT_VARIANT) return false;
  for (int32_t i = x->first_leaf; sel && i < x->first_leaf + x->n_leaves; i++)
    if (!sel[i]) return false;
  return true;
}

typedef struct vb_ctx {
  pqt_arena arena;
  pqt_error *err;
} vb_ctx;

static const char *node_path(vb_ctx *c, const pqt_schema_node *n) {
  if (n->dotted_path) return n->dotted_path;
  char buf[1024];
  size_t len = 0;
  const pqt_schema_node *chain[64];
  int k = 0;
  for (const pqt_schema_node *p = n; p && p->parent && k < 64; p = p->parent) chain[k++] = p;
  buf[0] = 0;
  while (k-- > 0 && len < sizeof buf - 1) {
    int w = snprintf(buf + len, sizeof buf - len, "%s%s", len ? "." : "", chain[k]->name);
    if (w < 0) break;
    len += (size_t)w;
    if (len >= sizeof buf) len = sizeof buf - 1;
  }
  char *s = pqt_arena_strdup(&c->arena, buf, strlen(buf));
  return s ? s : n->name;
}

static const pqt_array *child_named(const pqt_array *a, const char *name) {
  for (int32_t i = 0; i < a->n_children; i++)
    if (a->children[i] && a->children[i]->name && strcmp(a->children[i]->name, name) == 0) return a->children[i];
  return NULL;
}

static const uint8_t *validity_of(const pqt_array *a) { return a->validity ? a->validity->data : NULL; }

static void leaf_type(const pqt_schema_node *n, pqt_vshred_col *v, vb_ctx *c) {
  int l = pqt_union_which(n->logical.isset);
  const pqt_logical_type *lt = &n->logical;
  pqt_vshred_type t = PQT_VSHRED_UNSUPPORTED;
  switch (n->physical_type) {
    case PQT_BOOLEAN:
      if (!l) t = PQT_VSHRED_BOOLEAN;
      break;
    case PQT_INT32:
      if (!l) t = PQT_VSHRED_INT32;
      else if (l == PQT_LT_INTEGER && lt->integer.is_signed)
        t = lt->integer.bit_width == 8    ? PQT_VSHRED_INT8
            : lt->integer.bit_width == 16 ? PQT_VSHRED_INT16
            : lt->integer.bit_width == 32 ? PQT_VSHRED_INT32
                                          : PQT_VSHRED_UNSUPPORTED;
      else if (l == PQT_LT_DECIMAL) t = PQT_VSHRED_DECIMAL4;
      else if (l == PQT_LT_DATE) t = PQT_VSHRED_DATE;
      break;
    case PQT_INT64: {
      int unit = 0;
      if (l == PQT_LT_TIME) unit = pqt_union_which(lt->time.unit.isset);
      if (l == PQT_LT_TIMESTAMP) unit = pqt_union_which(lt->timestamp.unit.isset);
      if (!l || (l == PQT_LT_INTEGER && lt->integer.is_signed && lt->integer.bit_width == 64)) t = PQT_VSHRED_INT64;
      else if (l == PQT_LT_DECIMAL) t = PQT_VSHRED_DECIMAL8;
      else if (l == PQT_LT_TIME && unit == PQT_TIME_UNIT_MICROS && !lt->time.is_adjusted_to_utc)
        t = PQT_VSHRED_TIME_MICROS;
      else if (l == PQT_LT_TIMESTAMP && unit == PQT_TIME_UNIT_MICROS)
        t = lt->timestamp.is_adjusted_to_utc ? PQT_VSHRED_TIMESTAMP_UTC_MICROS : PQT_VSHRED_TIMESTAMP_NTZ_MICROS;
      else if (l == PQT_LT_TIMESTAMP && unit == PQT_TIME_UNIT_NANOS)
        t = lt->timestamp.is_adjusted_to_utc ? PQT_VSHRED_TIMESTAMP_UTC_NANOS : PQT_VSHRED_TIMESTAMP_NTZ_NANOS;
      break;
    }
    case PQT_FLOAT:
      if (!l) t = PQT_VSHRED_FLOAT;
      break;
    case PQT_DOUBLE:
      if (!l) t = PQT_VSHRED_DOUBLE;
      break;
    case PQT_BYTE_ARRAY:
      if (!l) t = PQT_VSHRED_BINARY;
      else if (l == PQT_LT_STRING) t = PQT_VSHRED_STRING;
      else if (l == PQT_LT_DECIMAL) t = PQT_VSHRED_DECIMAL16_BYTES;
      break;
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (l == PQT_LT_UUID && n->type_length == 16) t = PQT_VSHRED_UUID;
      else if (l == PQT_LT_DECIMAL && n->type_length >= 1 && n->type_length <= 16) t = PQT_VSHRED_DECIMAL16_FIXED;
      break;
    default: break;
  }
  v->type = t;
  if (l == PQT_LT_DECIMAL) v->scale = lt->decimal.scale;
  v->width = n->type_length;
  if (t == PQT_VSHRED_UNSUPPORTED) {
    char buf[160];
    snprintf(buf, sizeof buf, "%s%s", pqt_physical_type_name(n->physical_type),
             l == PQT_LT_INTEGER ? (lt->integer.is_signed ? " INTEGER(signed)" : " INTEGER(unsigned)")
             : l                 ? " (annotated)"
                                 : "");
    if (n->physical_type == PQT_FIXED_LEN_BYTE_ARRAY)
      snprintf(buf, sizeof buf, "fixed_len_byte_array(%d)%s", n->type_length, l ? " (annotated)" : "");
    v->type_name = pqt_arena_strdup(&c->arena, buf, strlen(buf));
  }
}

static pqt_status build_pair(vb_ctx *c, const pqt_array *group, const char *name, pqt_vshred_pair *p);

/* The view of a typed_value array. */
static pqt_status build_typed(vb_ctx *c, const pqt_array *a, pqt_vshred_col **out) {
  pqt_vshred_col *v = pqt_arena_alloc(&c->arena, sizeof *v);
  if (!v) return pqt_nomem(c->err);
  v->path = node_path(c, a->node);
  v->validity = validity_of(a);
  *out = v;
  switch (a->kind) {
    case PQT_ARRAY_LEAF:
      leaf_type(a->node, v, c);
      v->offsets = a->offsets ? (const int32_t *)(const void *)a->offsets->data : NULL;
      v->values = a->values ? a->values->data : NULL;
      if (!v->values && v->type != PQT_VSHRED_UNSUPPORTED && a->length > 0) {
        v->type = PQT_VSHRED_UNSUPPORTED;
        v->type_name = "a column without values";
      }
      if ((v->type == PQT_VSHRED_BINARY || v->type == PQT_VSHRED_STRING || v->type == PQT_VSHRED_DECIMAL16_BYTES) &&
          !v->offsets && a->length > 0) {
        v->type = PQT_VSHRED_UNSUPPORTED;
        v->type_name = "a byte array column without offsets";
      }
      return PQT_OK;
    case PQT_ARRAY_STRUCT: {
      v->type = PQT_VSHRED_OBJECT;
      pqt_vshred_pair *f = pqt_arena_array(&c->arena, (size_t)(a->n_children ? a->n_children : 1), sizeof *f);
      if (!f) return pqt_nomem(c->err);
      for (int32_t i = 0; i < a->n_children; i++) {
        const pqt_array *g = a->children[i];
        if (g->kind != PQT_ARRAY_STRUCT) {
          v->type = PQT_VSHRED_UNSUPPORTED;
          v->type_name = "an object whose field is not a group of value and typed_value";
          return PQT_OK;
        }
        PQT_RETURN_NOT_OK(build_pair(c, g, g->name, &f[i]));
      }
      v->fields = f;
      v->n_fields = a->n_children;
      return PQT_OK;
    }
    case PQT_ARRAY_LIST: {
      const pqt_array *e = a->children[0];
      if (a->n_children != 1 || e->kind != PQT_ARRAY_STRUCT) {
        v->type = PQT_VSHRED_UNSUPPORTED;
        v->type_name = "a list whose element is not a group of value and typed_value";
        return PQT_OK;
      }
      v->type = PQT_VSHRED_ARRAY;
      v->offsets = (const int32_t *)(const void *)a->offsets->data;
      pqt_vshred_pair *f = pqt_arena_alloc(&c->arena, sizeof *f);
      if (!f) return pqt_nomem(c->err);
      PQT_RETURN_NOT_OK(build_pair(c, e, "", f));
      v->fields = f;
      v->n_fields = 1;
      return PQT_OK;
    }
    default:
      v->type = PQT_VSHRED_UNSUPPORTED;
      v->type_name = "a map";
      return PQT_OK;
  }
}

static pqt_status build_pair(vb_ctx *c, const pqt_array *group, const char *name, pqt_vshred_pair *p) {
  memset(p, 0, sizeof *p);
  p->name = name ? name : "";
  p->name_len = strlen(p->name);
  p->validity = validity_of(group);
  const pqt_array *val = child_named(group, "value");
  const pqt_array *typed = child_named(group, "typed_value");
  if (!val && !typed)
    return pqt_corrupt(c->err, "column %s: a shredded variant group has neither value nor typed_value",
                       node_path(c, group->node));
  if (val) {
    if (val->kind != PQT_ARRAY_LEAF || val->node->physical_type != PQT_BYTE_ARRAY || !val->offsets)
      return pqt_corrupt(c->err, "column %s: a variant value must be binary", node_path(c, val->node));
    pqt_vshred_col *v = pqt_arena_alloc(&c->arena, sizeof *v);
    if (!v) return pqt_nomem(c->err);
    v->type = PQT_VSHRED_BINARY;
    v->path = node_path(c, val->node);
    v->validity = validity_of(val);
    v->offsets = (const int32_t *)(const void *)val->offsets->data;
    v->values = val->values ? val->values->data : NULL;
    p->value = v;
  }
  if (typed) {
    pqt_vshred_col *t = NULL;
    PQT_RETURN_NOT_OK(build_typed(c, typed, &t));
    p->typed = t;
  }
  return PQT_OK;
}

static pqt_status rebuild_group(const pqt_allocator *alloc, pqt_array **slot, int64_t row_base, pqt_error *err) {
  pqt_array *a = *slot;
  const pqt_array *meta = child_named(a, "metadata");
  if (!meta || meta->kind != PQT_ARRAY_LEAF || meta->node->physical_type != PQT_BYTE_ARRAY || !meta->offsets)
    return pqt_corrupt(err, "variant %s: no binary metadata column", a->node->name);
  vb_ctx c;
  pqt_arena_init(&c.arena, alloc);
  c.err = err;
  pqt_vshred_pair top;
  pqt_status st = build_pair(&c, a, a->name, &top);
  top.validity = NULL; /* a null group is handled here */
  pqt_buf vals;
  pqt_buf_init(&vals, alloc);
  pqt_shared_buf *offs = NULL;
  pqt_array *nv = NULL, *ns = NULL;
  if (st == PQT_OK) st = pqt_shared_alloc(alloc, sizeof(int32_t) * (size_t)(a->length + 1), &offs, err);
  const int32_t *mo = (const int32_t *)(const void *)meta->offsets->data;
  for (int64_t i = 0; i < a->length && st == PQT_OK; i++) {
    if (pqt_array_is_valid(a, i)) {
      pqt_variant m = {.metadata = meta->values ? meta->values->data + mo[i] : NULL,
                       .metadata_len = (size_t)(mo[i + 1] - mo[i])};
      if (!pqt_array_is_valid(meta, i) || !m.metadata)
        st = pqt_corrupt(err, "row %lld, column %s: variant metadata is null", (long long)(row_base + i),
                         node_path(&c, meta->node));
      if (st == PQT_OK) st = pqt_vshred_row(&m, &top, i, row_base, alloc, &vals, err);
    }
    if (st == PQT_OK && vals.len > INT32_MAX)
      st = pqt_error_set(err, PQT_ELIMIT, "variant values of a batch exceed 2 GiB");
    if (st == PQT_OK) ((int32_t *)(void *)offs->data)[i + 1] = (int32_t)vals.len;
  }
  if (st == PQT_OK) st = pqt_array_new(alloc, PQT_ARRAY_LEAF, 0, &nv, err);
  if (st == PQT_OK) {
    nv->node = meta->node;
    nv->name = "value";
    nv->nullable = false;
    nv->length = a->length;
    nv->offsets = offs;
    offs = NULL;
    st = pqt_shared_from_buf(&vals, &nv->values, err);
  }
  if (st == PQT_OK) st = pqt_array_new(alloc, PQT_ARRAY_STRUCT, 2, &ns, err);
  if (st == PQT_OK) {
    ns->node = a->node;
    ns->name = a->name;
    ns->nullable = a->nullable;
    ns->length = a->length;
    ns->null_count = a->null_count;
    ns->validity = pqt_shared_ref(a->validity);
    for (int32_t k = 0; k < a->n_children; k++)
      if (a->children[k] == meta) { /* take the metadata array over */
        ns->children[0] = a->children[k];
        a->children[k] = NULL;
      }
    ns->children[1] = nv;
    nv = NULL;
    pqt_array_free(alloc, a);
    *slot = ns;
    ns = NULL;
  }
  pqt_array_free(alloc, nv);
  pqt_array_free(alloc, ns);
  pqt_shared_unref(offs);
  pqt_buf_free(&vals);
  pqt_arena_reset(&c.arena);
  return st;
}

pqt_status pqt_variant_rebuild_tree(const pqt_allocator *alloc, pqt_array **slot, const uint8_t *sel, int64_t row_base,
                                    pqt_error *err) {
  pqt_array *a = *slot;
  if (!a) return PQT_OK;
  if (a->kind == PQT_ARRAY_STRUCT && pqt_variant_node_rebuilt(a->node, sel))
    return rebuild_group(alloc, slot, row_base, err);
  for (int32_t i = 0; i < a->n_children; i++)
    PQT_RETURN_NOT_OK(pqt_variant_rebuild_tree(alloc, &a->children[i], sel, row_base, err));
  return PQT_OK;
}

pqt_status pqt_variant_group_each(const pqt_allocator *alloc, const pqt_array *a, int64_t row_base,
                                  pqt_variant_row_fn fn, void *ctx, pqt_error *err) {
  if (!a || a->kind != PQT_ARRAY_STRUCT) return pqt_error_set(err, PQT_EINVAL, "variant: not a variant group");
  const pqt_array *meta = child_named(a, "metadata");
  if (!meta || meta->kind != PQT_ARRAY_LEAF || meta->node->physical_type != PQT_BYTE_ARRAY || !meta->offsets)
    return pqt_corrupt(err, "variant %s: no binary metadata column", a->name ? a->name : "?");
  const pqt_array *val = child_named(a, "value");
  bool direct = !child_named(a, "typed_value") && val && val->kind == PQT_ARRAY_LEAF && val->offsets;
  vb_ctx c;
  pqt_arena_init(&c.arena, alloc);
  c.err = err;
  pqt_vshred_pair top;
  pqt_status st = direct ? PQT_OK : build_pair(&c, a, a->name, &top);
  top.validity = NULL;
  pqt_buf vals;
  pqt_buf_init(&vals, alloc);
  const int32_t *mo = (const int32_t *)(const void *)meta->offsets->data;
  static const uint8_t k_null = 0; /* Variant null: a missing top-level value */
  for (int64_t i = 0; i < a->length && st == PQT_OK; i++) {
    if (!pqt_array_is_valid(a, i)) {
      st = fn(ctx, i, NULL, err);
      continue;
    }
    pqt_variant v = {.metadata = meta->values ? meta->values->data + mo[i] : NULL,
                     .metadata_len = (size_t)(mo[i + 1] - mo[i])};
    if (!pqt_array_is_valid(meta, i) || !v.metadata) {
      st = pqt_corrupt(err, "row %lld, column %s: variant metadata is null", (long long)(row_base + i),
                       node_path(&c, meta->node));
      break;
    }
    if (direct) {
      const int32_t *vo = (const int32_t *)(const void *)val->offsets->data;
      if (pqt_array_is_valid(val, i) && val->values) {
        v.value = val->values->data + vo[i];
        v.value_len = (size_t)(vo[i + 1] - vo[i]);
      } else {
        v.value = &k_null;
        v.value_len = 1;
      }
    } else {
      pqt_buf_clear(&vals);
      st = pqt_vshred_row(&v, &top, i, row_base, alloc, &vals, err);
      if (st != PQT_OK) break;
      v.value = vals.len ? vals.data : &k_null;
      v.value_len = vals.len ? vals.len : 1;
    }
    st = fn(ctx, i, &v, err);
  }
  pqt_buf_free(&vals);
  pqt_arena_reset(&c.arena);
  return st;
}

/* ---- the stored form's extension type ---------------------------------------- */

static bool node_selected(const pqt_schema_node *x, const uint8_t *sel) {
  if (!sel) return true;
  for (int32_t i = x->first_leaf; i < x->first_leaf + x->n_leaves; i++)
    if (sel[i]) return true;
  return false;
}

static bool has_child(const struct ArrowSchema *a, const char *name) {
  for (int64_t i = 0; i < a->n_children; i++)
    if (a->children[i] && a->children[i]->name && strcmp(a->children[i]->name, name) == 0) return true;
  return false;
}

static pqt_status annotate(const pqt_schema_node *x, const uint8_t *sel, struct ArrowSchema *a, int depth,
                           pqt_error *err) {
  if (depth > PQT_SCHEMA_MAX_DEPTH || x->is_leaf || !a->format || strcmp(a->format, "+s") != 0) return PQT_OK;
  if (pqt_union_which(x->logical.isset) == PQT_LT_VARIANT) {
    if (pqt_variant_node_rebuilt(x, sel) || !has_child(a, "metadata") ||
        !(has_child(a, "value") || has_child(a, "typed_value")))
      return PQT_OK;
    pqt_buf md;
    pqt_buf_init(&md, pqt_default_allocator());
    pqt_status st = pqt_export_extension_metadata(&md, PQT_VARIANT_ARROW_EXTENSION, "", 0, err);
    if (st == PQT_OK) st = pqt_export_schema_set_metadata(a, (const char *)md.data, md.len, err);
    pqt_buf_free(&md);
    return st;
  }
  if (x->kind != PQT_NODE_STRUCT) return PQT_OK;
  int64_t k = 0;
  for (int32_t i = 0; i < x->n_children && k < a->n_children; i++) {
    if (!node_selected(x->children[i], sel)) continue;
    PQT_RETURN_NOT_OK(annotate(x->children[i], sel, a->children[k++], depth + 1, err));
  }
  return PQT_OK;
}

pqt_status pqt_variant_annotate_stored(const pqt_schema *s, const uint8_t *selected, struct ArrowSchema *root,
                                       pqt_error *err) {
  const pqt_schema_node *r = s->root;
  int64_t k = 0;
  for (int32_t i = 0; i < r->n_children && k < root->n_children; i++) {
    if (!node_selected(r->children[i], selected)) continue;
    PQT_RETURN_NOT_OK(annotate(r->children[i], selected, root->children[k++], 0, err));
  }
  return PQT_OK;
}
