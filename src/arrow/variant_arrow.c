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
#include "arrow/import.h"
#include "parquetry.h"
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

/* ---- writer input: the shredded form in a caller's Arrow arrays ---------------
 *
 * view(a, d): view index X is physical index X + d of Arrow array a. A
 * struct's children are indexed by the struct's physical index (their own
 * offset added), a list's element by the list's offsets (the element's
 * offset added); a bitmap whose shift is not a whole byte is copied, and
 * values the views hold in another width (int8/int16 as int32, Arrow's
 * little-endian decimal128 as int32, int64 or big-endian bytes) are
 * converted once. Every offset and length is checked here, so the
 * reconstruction never reads outside the caller's buffers. */

static bool bit_valid(const uint8_t *bits, int64_t i) { return !bits || ((bits[i >> 3] >> (i & 7)) & 1); }

struct pqt_variant_arrow_in {
  const pqt_allocator *alloc;
  pqt_arena arena;
  const struct ArrowArray *meta;
  bool meta_large;
  pqt_vshred_pair top;
  pqt_buf out;
};

typedef struct ain_ctx {
  pqt_variant_arrow_in *in;
  pqt_error *err;
} ain_ctx;

static const char *ain_path(ain_ctx *c, const char *parent, const char *name) {
  size_t n = strlen(parent) + strlen(name) + 2;
  char *s = pqt_arena_alloc(&c->in->arena, n);
  if (s) snprintf(s, n, "%s.%s", parent, name);
  return s ? s : name;
}

static void *ain_alloc(ain_ctx *c, int64_t n, size_t sz) {
  return pqt_arena_array(&c->in->arena, (size_t)(n > 0 ? n : 1), sz);
}

/* Bits [d, end) of bits as a bitmap from bit 0 (NULL bits: NULL). */
static pqt_status ain_bits(ain_ctx *c, const uint8_t *bits, int64_t d, int64_t end, const uint8_t **out) {
  *out = NULL;
  if (!bits) return PQT_OK;
  if (d % 8 == 0) {
    *out = bits + d / 8;
    return PQT_OK;
  }
  int64_t n = end > d ? end - d : 0;
  uint8_t *o = ain_alloc(c, n / 8 + 1, 1);
  if (!o) return pqt_nomem(c->err);
  for (int64_t i = 0; i < n; i++)
    if ((bits[(i + d) >> 3] >> ((i + d) & 7)) & 1) o[i >> 3] |= (uint8_t)(1u << (i & 7));
  *out = o;
  return PQT_OK;
}

static int32_t ain_find(const pqt_import_fmt *f, const char *name) {
  for (int32_t i = 0; i < f->n_children; i++)
    if (f->children[i].name && strcmp(f->children[i].name, name) == 0) return i;
  return -1;
}

/* a's shape and validity for view(a, d); end: one past the last physical
 * index the view may touch. */
static pqt_status ain_base(ain_ctx *c, const struct ArrowArray *a, const char *path, int64_t need, int64_t *end,
                           int64_t min_buffers) {
  if (!a || !a->release || a->offset < 0 || a->length < 0 || a->n_buffers < min_buffers || a->n_children < 0 ||
      (a->n_children > 0 && !a->children))
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: malformed Arrow array", path);
  *end = a->offset + a->length;
  if (*end < need)
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: the Arrow array is shorter than its parent (%lld < %lld)",
                         path, (long long)*end, (long long)need);
  return PQT_OK;
}

static const uint8_t *ain_validity_buf(const struct ArrowArray *a) {
  return !a || a->null_count == 0 || a->n_buffers < 1 ? NULL : (const uint8_t *)a->buffers[0];
}

/* int32 offsets [d, end] of a: non-negative, never decreasing, the last at
 * most limit (limit < 0: unknown). */
static pqt_status ain_offsets(ain_ctx *c, const struct ArrowArray *a, const char *path, int64_t d, int64_t end,
                              int64_t limit, const int32_t **out) {
  const int32_t *o = (const int32_t *)a->buffers[1];
  if (!o) {
    if (end <= d) {
      static const int32_t zero = 0;
      *out = &zero;
      return PQT_OK;
    }
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: an Arrow array without offsets", path);
  }
  for (int64_t k = d; k <= end; k++)
    if (o[k] < 0 || (k > d && o[k] < o[k - 1]) || (limit >= 0 && o[k] > limit))
      return pqt_error_set(c->err, PQT_EINVAL, "column %s: Arrow offsets out of order or out of range at %lld", path,
                           (long long)k);
  *out = o + d;
  return PQT_OK;
}

static pqt_status ain_pair(ain_ctx *c, const struct ArrowArray *a, const pqt_import_fmt *f, const char *path,
                           int64_t d, int64_t need, bool top, pqt_vshred_pair *p);

/* view(a, d) of a typed_value array of format f; need: the view is indexed
 * up to need - d. */
static pqt_status ain_typed(ain_ctx *c, const struct ArrowArray *a, const pqt_import_fmt *f, const char *path,
                            int64_t d, int64_t need, pqt_vshred_col **out) {
  pqt_vshred_col *v = pqt_arena_alloc(&c->in->arena, sizeof *v);
  if (!v) return pqt_nomem(c->err);
  *out = v;
  v->path = path;
  int64_t end;
  pqt_arrow_format af;
  pqt_arrow_format_parse(f->format, &af);
  bool nested = af.kind == PQT_AK_STRUCT;
  PQT_RETURN_NOT_OK(ain_base(c, a, path, need, &end, nested ? 1 : 2));
  PQT_RETURN_NOT_OK(ain_bits(c, ain_validity_buf(a), d, end, &v->validity));
  int64_t n = end - d; /* view indices [0, n) */
  const uint8_t *raw = a->n_buffers >= 2 ? (const uint8_t *)a->buffers[1] : NULL;
  if (!nested && af.kind != PQT_AK_LIST && !raw && n > 0)
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: an Arrow array without values", path);
  switch (af.kind) {
    case PQT_AK_BOOL:
      v->type = PQT_VSHRED_BOOLEAN;
      return ain_bits(c, raw, d, end, &v->values);
    case PQT_AK_INT:
      if (!af.is_signed) break;
      if (af.bit_width == 32 || af.bit_width == 64) {
        v->type = af.bit_width == 32 ? PQT_VSHRED_INT32 : PQT_VSHRED_INT64;
        v->values = raw ? raw + (size_t)d * (size_t)(af.bit_width / 8) : NULL;
        return PQT_OK;
      }
      if (af.bit_width == 8 || af.bit_width == 16) { /* the views hold them as int32 */
        v->type = af.bit_width == 8 ? PQT_VSHRED_INT8 : PQT_VSHRED_INT16;
        int32_t *o = ain_alloc(c, n, sizeof *o);
        if (!o) return pqt_nomem(c->err);
        for (int64_t i = 0; i < n; i++) {
          if (af.bit_width == 8) o[i] = ((const int8_t *)raw)[d + i];
          else {
            int16_t x;
            memcpy(&x, raw + 2 * (size_t)(d + i), 2);
            o[i] = x;
          }
        }
        v->values = (const uint8_t *)o;
        return PQT_OK;
      }
      break;
    case PQT_AK_FLOAT:
      if (af.bit_width == 16) break;
      v->type = af.bit_width == 32 ? PQT_VSHRED_FLOAT : PQT_VSHRED_DOUBLE;
      v->values = raw ? raw + (size_t)d * (size_t)(af.bit_width / 8) : NULL;
      return PQT_OK;
    case PQT_AK_DATE:
      if (af.unit != 'D') break;
      v->type = PQT_VSHRED_DATE;
      v->values = raw ? raw + (size_t)d * 4 : NULL;
      return PQT_OK;
    case PQT_AK_TIME:
      if (af.unit != 'u') break;
      v->type = PQT_VSHRED_TIME_MICROS;
      v->values = raw ? raw + (size_t)d * 8 : NULL;
      return PQT_OK;
    case PQT_AK_TIMESTAMP: {
      bool utc = af.tz && *af.tz;
      if (af.unit == 'u') v->type = utc ? PQT_VSHRED_TIMESTAMP_UTC_MICROS : PQT_VSHRED_TIMESTAMP_NTZ_MICROS;
      else if (af.unit == 'n') v->type = utc ? PQT_VSHRED_TIMESTAMP_UTC_NANOS : PQT_VSHRED_TIMESTAMP_NTZ_NANOS;
      else break;
      v->values = raw ? raw + (size_t)d * 8 : NULL;
      return PQT_OK;
    }
    case PQT_AK_BINARY:
    case PQT_AK_UTF8:
      v->type = af.kind == PQT_AK_UTF8 ? PQT_VSHRED_STRING : PQT_VSHRED_BINARY;
      if (a->n_buffers < 3) return pqt_error_set(c->err, PQT_EINVAL, "column %s: malformed Arrow binary array", path);
      PQT_RETURN_NOT_OK(ain_offsets(c, a, path, d, end, -1, &v->offsets));
      v->values = (const uint8_t *)a->buffers[2];
      if (!v->values) {
        static const uint8_t none = 0;
        if (n > 0 && v->offsets[n] != v->offsets[0])
          return pqt_error_set(c->err, PQT_EINVAL, "column %s: an Arrow binary array without data", path);
        v->values = &none;
      }
      return PQT_OK;
    case PQT_AK_FIXED_BINARY:
      if (af.fixed_width != 16) break;
      v->type = PQT_VSHRED_UUID;
      v->values = raw ? raw + (size_t)d * 16 : NULL;
      return PQT_OK;
    case PQT_AK_DECIMAL: {
      if (af.bit_width != 128 || af.precision < 1 || af.precision > 38 || af.scale < 0 || af.scale > af.precision)
        break;
      int32_t p = af.precision;
      v->scale = af.scale;
      v->type = p <= 9 ? PQT_VSHRED_DECIMAL4 : p <= 18 ? PQT_VSHRED_DECIMAL8 : PQT_VSHRED_DECIMAL16_FIXED;
      size_t w = p <= 9 ? 4 : p <= 18 ? 8 : 16;
      v->width = (int32_t)w;
      uint8_t *o = ain_alloc(c, n, w);
      if (!o) return pqt_nomem(c->err);
      for (int64_t i = 0; i < n; i++) {
        const uint8_t *s = raw + 16 * (size_t)(d + i); /* little-endian two's complement */
        if (w == 16) {
          for (size_t k = 0; k < 16; k++) o[16 * (size_t)i + k] = s[15 - k];
          continue;
        }
        uint8_t fill = (s[w - 1] & 0x80) ? 0xff : 0;
        for (size_t k = w; k < 16; k++)
          if (s[k] != fill && bit_valid(v->validity, i))
            return pqt_error_set(c->err, PQT_EINVAL, "column %s: a decimal(%d, %d) value does not fit its precision",
                                 path, af.precision, af.scale);
        memcpy(o + w * (size_t)i, s, w);
      }
      v->values = o;
      return PQT_OK;
    }
    case PQT_AK_STRUCT: {
      v->type = PQT_VSHRED_OBJECT;
      if (f->n_children < 1 || a->n_children != f->n_children)
        return pqt_error_set(c->err, PQT_EINVAL, "column %s: a shredded object without fields", path);
      pqt_vshred_pair *fs = ain_alloc(c, f->n_children, sizeof *fs);
      if (!fs) return pqt_nomem(c->err);
      for (int32_t i = 0; i < f->n_children; i++) {
        const pqt_import_fmt *cf = &f->children[i];
        const struct ArrowArray *ca = a->children[i];
        const char *cp = ain_path(c, path, cf->name);
        if (cf->kind != PQT_AK_STRUCT)
          return pqt_error_set(c->err, PQT_EINVAL, "column %s: a shredded field must be a struct of value and typed_value",
                               cp);
        int64_t cd = (ca ? ca->offset : 0) + d;
        PQT_RETURN_NOT_OK(ain_pair(c, ca, cf, cp, cd, end + (ca ? ca->offset : 0), false, &fs[i]));
        fs[i].name = cf->name;
        fs[i].name_len = strlen(cf->name);
      }
      v->fields = fs;
      v->n_fields = f->n_children;
      return PQT_OK;
    }
    case PQT_AK_LIST: {
      v->type = PQT_VSHRED_ARRAY;
      if (f->n_children != 1 || a->n_children != 1 || f->children[0].kind != PQT_AK_STRUCT)
        return pqt_error_set(c->err, PQT_EINVAL, "column %s: a shredded array's element must be a struct of value and typed_value",
                             path);
      const struct ArrowArray *e = a->children[0];
      if (!e || e->offset < 0 || e->length < 0)
        return pqt_error_set(c->err, PQT_EINVAL, "column %s: malformed Arrow list", path);
      PQT_RETURN_NOT_OK(ain_offsets(c, a, path, d, end, e->length, &v->offsets));
      pqt_vshred_pair *ep = pqt_arena_alloc(&c->in->arena, sizeof *ep);
      if (!ep) return pqt_nomem(c->err);
      const char *ep_path = ain_path(c, path, "list.element");
      PQT_RETURN_NOT_OK(ain_pair(c, e, &f->children[0], ep_path, e->offset, e->offset + e->length, false, ep));
      ep->name = "";
      v->fields = ep;
      v->n_fields = 1;
      return PQT_OK;
    }
    default: break;
  }
  char fn[64];
  return pqt_error_set(c->err, PQT_EUNSUPPORTED,
                       "column %s: Arrow type %s is not a type Variant values shred to (VariantShredding.md)", path,
                       pqt_arrow_format_name(f->format, fn, sizeof fn));
}

/* A group of value and/or typed_value (the VARIANT group itself when top:
 * its metadata checked by the caller, its validity the writer's). */
static pqt_status ain_pair(ain_ctx *c, const struct ArrowArray *a, const pqt_import_fmt *f, const char *path,
                           int64_t d, int64_t need, bool top, pqt_vshred_pair *p) {
  memset(p, 0, sizeof *p);
  p->name = "";
  int64_t end;
  PQT_RETURN_NOT_OK(ain_base(c, a, path, need, &end, 1));
  if (a->n_children != f->n_children) return pqt_error_set(c->err, PQT_EINVAL, "column %s: malformed Arrow struct", path);
  if (!top) PQT_RETURN_NOT_OK(ain_bits(c, ain_validity_buf(a), d, end, &p->validity));
  int32_t vi = ain_find(f, "value"), ti = ain_find(f, "typed_value");
  int32_t expect = (vi >= 0) + (ti >= 0) + (top ? 1 : 0);
  if (vi < 0 && ti < 0)
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: a shredded variant group has neither value nor typed_value",
                         path);
  if (f->n_children != expect)
    return pqt_error_set(c->err, PQT_EINVAL, "column %s: a shredded variant group has fields other than value and typed_value",
                         path);
  /* a struct's children are indexed by its physical index: view(child,
   * child->offset + d) */
  if (vi >= 0) {
    const struct ArrowArray *va = a->children[vi];
    const char *vp = ain_path(c, path, "value");
    if (!va) return pqt_error_set(c->err, PQT_EINVAL, "column %s: malformed Arrow array", vp);
    if (f->children[vi].kind != PQT_AK_BINARY)
      return pqt_error_set(c->err, PQT_EINVAL, "column %s: a variant value must be binary", vp);
    pqt_vshred_col *v = pqt_arena_alloc(&c->in->arena, sizeof *v);
    if (!v) return pqt_nomem(c->err);
    int64_t vend, vd = va->offset + d;
    PQT_RETURN_NOT_OK(ain_base(c, va, vp, end + va->offset, &vend, 3));
    v->type = PQT_VSHRED_BINARY;
    v->path = vp;
    PQT_RETURN_NOT_OK(ain_bits(c, ain_validity_buf(va), vd, vend, &v->validity));
    PQT_RETURN_NOT_OK(ain_offsets(c, va, vp, vd, vend, -1, &v->offsets));
    v->values = (const uint8_t *)va->buffers[2];
    if (!v->values) {
      static const uint8_t none = 0;
      if (vend > vd && v->offsets[vend - vd] != v->offsets[0])
        return pqt_error_set(c->err, PQT_EINVAL, "column %s: an Arrow binary array without data", vp);
      v->values = &none;
    }
    p->value = v;
  }
  if (ti >= 0) {
    const struct ArrowArray *ta = a->children[ti];
    pqt_vshred_col *t = NULL;
    int64_t toff = ta ? ta->offset : 0;
    PQT_RETURN_NOT_OK(ain_typed(c, ta, &f->children[ti], ain_path(c, path, "typed_value"), toff + d,
                                end + toff, &t));
    p->typed = t;
  }
  return PQT_OK;
}

pqt_status pqt_variant_arrow_in_open(const pqt_allocator *alloc, const char *col, const struct ArrowArray *group,
                                     const struct pqt_import_fmt *fmt, pqt_variant_arrow_in **out, pqt_error *err) {
  *out = NULL;
  pqt_variant_arrow_in *in = pqt_mem_calloc(alloc, sizeof *in);
  if (!in) return pqt_nomem(err);
  in->alloc = alloc;
  pqt_arena_init(&in->arena, alloc);
  pqt_buf_init(&in->out, alloc);
  ain_ctx c = {in, err};
  pqt_status st = PQT_OK;
  int32_t mi = fmt ? ain_find(fmt, "metadata") : -1;
  if (!group || !fmt || mi < 0 || group->n_children != fmt->n_children || !group->children)
    st = pqt_error_set(err, PQT_EINVAL, "column %s: a shredded parquet.variant struct needs metadata", col);
  if (st == PQT_OK) {
    in->meta = group->children[mi];
    in->meta_large = fmt->children[mi].kind == PQT_AK_LARGE_BINARY;
    int64_t mend;
    if (fmt->children[mi].kind != PQT_AK_BINARY && !in->meta_large)
      st = pqt_error_set(err, PQT_EINVAL, "column %s: variant metadata must be binary", col);
    if (st == PQT_OK)
      st = ain_base(&c, in->meta, col, group->offset + group->length + (in->meta ? in->meta->offset : 0), &mend, 3);
  }
  /* the group's children are indexed by its physical index j */
  if (st == PQT_OK) st = ain_pair(&c, group, fmt, col, 0, group->offset + group->length, true, &in->top);
  if (st != PQT_OK) {
    pqt_variant_arrow_in_free(in);
    return st;
  }
  *out = in;
  return PQT_OK;
}

pqt_status pqt_variant_arrow_in_row(pqt_variant_arrow_in *in, int64_t j, int64_t row, pqt_variant *out,
                                    pqt_error *err) {
  const struct ArrowArray *m = in->meta;
  int64_t k = m->offset + j;
  if (j < 0 || k >= m->offset + m->length) return pqt_error_set(err, PQT_EINVAL, "variant row out of range");
  const uint8_t *mv = ain_validity_buf(m);
  if (mv && !((mv[k >> 3] >> (k & 7)) & 1))
    return pqt_error_set(err, PQT_EINVAL, "row %lld: variant metadata is null", (long long)row);
  if (!m->buffers[1] || !m->buffers[2])
    return pqt_error_set(err, PQT_EINVAL, "row %lld: variant metadata without offsets or data", (long long)row);
  int64_t lo, hi;
  if (in->meta_large) {
    lo = ((const int64_t *)m->buffers[1])[k];
    hi = ((const int64_t *)m->buffers[1])[k + 1];
  } else {
    lo = ((const int32_t *)m->buffers[1])[k];
    hi = ((const int32_t *)m->buffers[1])[k + 1];
  }
  if (lo < 0 || hi <= lo)
    return pqt_error_set(err, PQT_EINVAL, "row %lld: variant metadata is empty or malformed", (long long)row);
  pqt_variant meta = {.metadata = (const uint8_t *)m->buffers[2] + lo, .metadata_len = (size_t)(hi - lo)};
  pqt_buf_clear(&in->out);
  PQT_RETURN_NOT_OK(pqt_vshred_row(&meta, &in->top, j, row - j, in->alloc, &in->out, err));
  *out = meta;
  out->value = in->out.data;
  out->value_len = in->out.len;
  return PQT_OK;
}

void pqt_variant_arrow_in_free(pqt_variant_arrow_in *in) {
  if (!in) return;
  pqt_buf_free(&in->out);
  pqt_arena_reset(&in->arena);
  pqt_mem_free(in->alloc, in, sizeof *in);
}
