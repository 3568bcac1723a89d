/*
 * arrow/assemble.c: record assembly (spec: "Nested Encoding"). Decoded
 * column chunks (levels + dense values, column/column_reader.h) become the
 * array tree of one top-level field (arrow/array.h).
 *
 * Each array node takes its slots, validity and (for lists) offsets from
 * the levels of the first leaf below it: every leaf under a node agrees on
 * that node's structure. The node's pqt_level_info comes straight from the
 * schema tree (max def/rep levels and the def level of the nearest
 * repeated ancestor), with the LIST/MAP backward-compatibility resolution
 * done by meta/schema.c:
 *   - a LIST/MAP group L over its repeated child R: L's slots; elements
 *     where def >= R.max_def;
 *   - an element that is the repeated node itself (legacy 2-level lists,
 *     unannotated repeated fields): a required node at R's levels;
 *   - an unannotated repeated field outside LIST/MAP: a required list.
 * The level kernels (levels/) do the per-entry work.
 */
#include "arrow/assemble.h"

#include "levels/levels.h"

typedef struct asm_ctx {
  const pqt_allocator *alloc;
  pqt_column_data *cols;
  int32_t n_cols;
  const uint8_t *selected; /* per leaf column: 1 when projected; NULL = all */
  pqt_error *err;
} asm_ctx;

static bool leaf_selected(const asm_ctx *c, int32_t leaf) { return !c->selected || c->selected[leaf]; }

/* First projected leaf under x, or -1. */
static int32_t first_selected_leaf(const asm_ctx *c, const pqt_schema_node *x) {
  for (int32_t i = x->first_leaf; i >= 0 && i < x->first_leaf + x->n_leaves && i < c->n_cols; i++)
    if (leaf_selected(c, i)) return i;
  return -1;
}

static int32_t count_selected_children(const asm_ctx *c, const pqt_schema_node *x) {
  int32_t n = 0;
  for (int32_t i = 0; i < x->n_children; i++) n += first_selected_leaf(c, x->children[i]) >= 0;
  return n;
}

static pqt_level_info info_of(const pqt_schema_node *x) {
  pqt_level_info li = {x->max_def, x->max_rep, x->repeated_ancestor_def};
  return li;
}

/* The levels of the first leaf under x. */
static pqt_status leaf_levels(asm_ctx *c, const pqt_schema_node *x, const int16_t **def, const int16_t **rep,
                              int64_t *n) {
  int32_t leaf = first_selected_leaf(c, x);
  if (leaf < 0) return pqt_corrupt(c->err, "group %s has no leaf column", x->name);
  const pqt_column_data *cd = &c->cols[leaf];
  *def = cd->def.len ? (const int16_t *)(const void *)cd->def.data : NULL;
  *rep = cd->rep.len ? (const int16_t *)(const void *)cd->rep.data : NULL;
  *n = cd->n_levels;
  return PQT_OK;
}

/* Validity bitmap for n slots, or NULL when every slot is valid. */
static pqt_status finish_validity(asm_ctx *c, pqt_array *a, pqt_shared_buf *bits) {
  (void)c;
  if (a->null_count == 0) {
    pqt_shared_unref(bits);
    a->validity = NULL;
  } else {
    a->validity = bits;
  }
  return PQT_OK;
}

static pqt_status build_node(asm_ctx *c, const pqt_schema_node *x, pqt_array **out);

/* Slots + validity of a struct or leaf node described by li. */
static pqt_status struct_slots(asm_ctx *c, const pqt_schema_node *rep_node, pqt_level_info li, pqt_array *a) {
  const int16_t *def = NULL, *rep = NULL;
  int64_t n = 0;
  PQT_RETURN_NOT_OK(leaf_levels(c, rep_node, &def, &rep, &n));
  pqt_shared_buf *bits;
  PQT_RETURN_NOT_OK(pqt_shared_alloc(c->alloc, (size_t)(n + 7) / 8, &bits, c->err));
  pqt_status st;
  if (!rep && (!def || li.def_level == 0)) {
    /* flat and never null: every entry is a valid slot */
    a->length = n;
    a->null_count = 0;
    st = PQT_OK;
  } else {
    st = pqt_levels_to_struct_bitmap(def, rep, n, li, bits->data, 0, n, &a->length, &a->null_count, c->err);
  }
  if (st != PQT_OK) {
    pqt_shared_unref(bits);
    return st;
  }
  return finish_validity(c, a, bits);
}

/* a->values: n_dense fixed-width entries of dense (taken over when no slot
 * is null) spread to a's slots, null slots zeroed. */
static pqt_status spread_dense(asm_ctx *c, pqt_array *a, pqt_buf *dense, int64_t n_dense, int32_t width) {
  size_t bytes = (size_t)a->length * (size_t)width;
  if (a->null_count == 0) return pqt_shared_from_buf(dense, &a->values, c->err);
  if (n_dense == 0) return pqt_shared_alloc(c->alloc, bytes, &a->values, c->err);
  PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(c->alloc, bytes, &a->values, c->err)); /* the spread zeroes null slots */
  return pqt_levels_spread_fixed(a->values->data, dense->data, n_dense, width, a->validity->data, 0, a->length,
                                 c->err);
}

/* A leaf decoded as dictionary indexes (pqt_column_data.is_dict): the
 * int32 indexes spread to slots (0 in null slots), the dictionary a leaf of
 * its own. */
static pqt_status build_dict_leaf(asm_ctx *c, const pqt_schema_node *leaf, pqt_column_data *cd, pqt_array *a) {
  pqt_status st;
  if (cd->values.len != (size_t)cd->n_values * 4)
    return pqt_corrupt(c->err, "column %s: %lld dictionary indexes in %zu bytes", leaf->dotted_path,
                       (long long)cd->n_values, cd->values.len);
  st = spread_dense(c, a, &cd->values, cd->n_values, 4);
  if (st != PQT_OK) return st;
  pqt_array *d;
  PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, PQT_ARRAY_LEAF, 0, &d, c->err));
  d->node = leaf;
  d->name = leaf->name;
  d->length = cd->dict_n;
  a->dictionary = d;
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    if (cd->dict_offsets.len == 0) {
      st = pqt_shared_alloc(c->alloc, sizeof(int32_t), &d->offsets, c->err);
    } else if (cd->dict_offsets.len != (size_t)(cd->dict_n + 1) * 4) {
      st = pqt_corrupt(c->err, "column %s: dictionary offsets do not match its %lld entries", leaf->dotted_path,
                       (long long)cd->dict_n);
    } else {
      st = pqt_shared_from_buf(&cd->dict_offsets, &d->offsets, c->err);
    }
  }
  if (st == PQT_OK) st = pqt_shared_from_buf(&cd->dict_values, &d->values, c->err);
  return st;
}

/* A leaf decoded as views (pqt_column_data.is_views): the views spread to
 * slots (an empty view in null slots), cd's own bytes variadic buffer 0,
 * the pages and dictionary the views point into buffers 1.. (their
 * references handed over). */
static pqt_status build_view_leaf(asm_ctx *c, const pqt_schema_node *leaf, pqt_column_data *cd, pqt_array *a) {
  if (cd->views.len != (size_t)cd->n_values * 16)
    return pqt_corrupt(c->err, "column %s: %lld views in %zu bytes", leaf->dotted_path, (long long)cd->n_values,
                       cd->views.len);
  pqt_status st = spread_dense(c, a, &cd->views, cd->n_values, 16);
  if (st == PQT_OK) st = pqt_shared_from_buf(&cd->values, &a->view_data, c->err);
  size_t nb = cd->view_bufs.len / sizeof(pqt_shared_buf *);
  if (st == PQT_OK && nb > 0) {
    a->view_bufs = pqt_mem_alloc(c->alloc, nb * sizeof(pqt_shared_buf *));
    if (!a->view_bufs) return pqt_nomem(c->err);
    // cppcheck-suppress pointerSize ; an array of nb pointers
    memcpy(a->view_bufs, cd->view_bufs.data, nb * sizeof(pqt_shared_buf *));
    a->n_view_bufs = (int32_t)nb;
    cd->view_bufs.len = 0; /* the references are the array's now */
  }
  return st;
}

/* A leaf array with the slot rule li: spread the dense values to slots. */
static pqt_status build_leaf(asm_ctx *c, const pqt_schema_node *leaf, pqt_level_info li, pqt_array **out) {
  pqt_array *a;
  PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, PQT_ARRAY_LEAF, 0, &a, c->err));
  a->node = leaf;
  a->name = leaf->name;
  pqt_status st = struct_slots(c, leaf, li, a);
  pqt_column_data *cd = &c->cols[leaf->column_index];
  int64_t n_slots = a->length;
  int64_t n_valid = n_slots - a->null_count;
  if (st == PQT_OK && n_valid != cd->n_values)
    st = pqt_corrupt(c->err, "column %s: %lld values present by the levels but %lld decoded", leaf->dotted_path,
                     (long long)n_valid, (long long)cd->n_values);
  if (st == PQT_OK && cd->is_dict) {
    st = build_dict_leaf(c, leaf, cd, a);
  } else if (st == PQT_OK && cd->is_views) {
    st = build_view_leaf(c, leaf, cd, a);
  } else if (st == PQT_OK) {
    int32_t t = leaf->physical_type;
    if (t == PQT_BYTE_ARRAY) {
      if (a->null_count == 0) {
        st = pqt_shared_from_buf(&cd->offsets, &a->offsets, c->err);
      } else if (cd->n_values == 0) { /* all null (possibly no decoded page at all): empty values */
        st = pqt_shared_alloc(c->alloc, (size_t)(n_slots + 1) * sizeof(int32_t), &a->offsets, c->err);
      } else {
        st = pqt_shared_alloc_raw(c->alloc, (size_t)(n_slots + 1) * sizeof(int32_t), &a->offsets, c->err);
        if (st == PQT_OK)
          st = pqt_levels_spread_offsets32((int32_t *)(void *)a->offsets->data,
                                           (const int32_t *)(const void *)cd->offsets.data, cd->n_values,
                                           a->validity->data, 0, n_slots, c->err);
      }
      if (st == PQT_OK) st = pqt_shared_from_buf(&cd->values, &a->values, c->err);
    } else if (t == PQT_BOOLEAN) {
      if (a->null_count == 0) {
        st = pqt_shared_from_buf(&cd->values, &a->values, c->err);
      } else {
        st = pqt_shared_alloc(c->alloc, (size_t)(n_slots + 7) / 8, &a->values, c->err);
        if (st == PQT_OK) {
          const uint8_t *src = cd->values.data, *valid = a->validity->data;
          uint8_t *dst = a->values->data;
          int64_t j = 0;
          for (int64_t i = 0; i < n_slots; i++)
            if (pqt_bit_get(valid, i)) {
              if (pqt_bit_get(src, j)) pqt_bit_set(dst, i);
              j++;
            }
        }
      }
    } else {
      size_t w = pqt_physical_width(t, leaf->type_length);
      if (a->null_count == 0) {
        st = pqt_shared_from_buf(&cd->values, &a->values, c->err);
      } else if (cd->n_values == 0) { /* all null: zeroed slots */
        st = pqt_shared_alloc(c->alloc, (size_t)n_slots * w, &a->values, c->err);
      } else {
        st = pqt_shared_alloc_raw(c->alloc, (size_t)n_slots * w, &a->values, c->err); /* spread writes every slot */
        if (st == PQT_OK)
          st = pqt_levels_spread_fixed(a->values->data, pqt_column_values(cd), cd->n_values, (int32_t)w,
                                       a->validity->data, 0, n_slots, c->err);
      }
    }
  }
  if (st != PQT_OK) {
    pqt_array_free(c->alloc, a);
    return st;
  }
  *out = a;
  return PQT_OK;
}

/* The projected children of group x, in schema order. */
static pqt_status build_children(asm_ctx *c, const pqt_schema_node *x, pqt_array *a) {
  int32_t k = 0;
  for (int32_t i = 0; i < x->n_children; i++) {
    if (first_selected_leaf(c, x->children[i]) < 0) continue;
    if (k >= a->n_children) return pqt_error_set(c->err, PQT_EINVAL, "projection changed during assembly");
    PQT_RETURN_NOT_OK(build_node(c, x->children[i], &a->children[k]));
    /* the struct's slots come from its first leaf: a child built from
     * another leaf whose levels disagree must not be exported at this length */
    if (a->children[k]->length != a->length)
      return pqt_corrupt(c->err, "%s: field %s has %lld slots, its siblings %lld (leaf columns disagree)", x->name,
                         x->children[i]->name, (long long)a->children[k]->length, (long long)a->length);
    k++;
  }
  return PQT_OK;
}

static pqt_status build_listlike(asm_ctx *c, const pqt_schema_node *x, pqt_level_info li, bool nullable,
                                 pqt_array **out);

/* The content of a repeated node r used as a list element: required, at r's
 * levels. A repeated group that is itself annotated LIST or MAP (the legacy
 * `repeated group array (LIST)` shape) is a list of lists. */
static pqt_status build_content(asm_ctx *c, const pqt_schema_node *r, pqt_array **out) {
  pqt_level_info li = {r->max_def, r->max_rep, r->max_def};
  if (!r->is_leaf && (r->kind == PQT_NODE_LIST || r->kind == PQT_NODE_MAP)) return build_listlike(c, r, li, false, out);
  if (r->is_leaf) {
    PQT_RETURN_NOT_OK(build_leaf(c, r, li, out));
    (*out)->nullable = false;
    return PQT_OK;
  }
  pqt_array *a;
  PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, PQT_ARRAY_STRUCT, count_selected_children(c, r), &a, c->err));
  a->node = r;
  a->name = r->name;
  a->nullable = false;
  pqt_status st = struct_slots(c, r, li, a);
  if (st == PQT_OK) st = build_children(c, r, a);
  if (st != PQT_OK) {
    pqt_array_free(c->alloc, a);
    return st;
  }
  *out = a;
  return PQT_OK;
}

/* A list (or map) node with the list rule li; the element is built by the caller. */
static pqt_status list_slots(asm_ctx *c, const pqt_schema_node *rep_node, pqt_level_info li, pqt_array *a) {
  const int16_t *def = NULL, *rep = NULL;
  int64_t n = 0;
  PQT_RETURN_NOT_OK(leaf_levels(c, rep_node, &def, &rep, &n));
  if (!rep && n > 0) return pqt_corrupt(c->err, "list %s without repetition levels", rep_node->name);
  pqt_shared_buf *bits = NULL, *offs = NULL;
  pqt_status st = pqt_shared_alloc(c->alloc, (size_t)(n + 7) / 8, &bits, c->err);
  if (st == PQT_OK) st = pqt_shared_alloc(c->alloc, (size_t)(n + 1) * sizeof(int32_t), &offs, c->err);
  if (st == PQT_OK)
    st = pqt_levels_to_list32(def, rep, n, li, (int32_t *)(void *)offs->data, bits->data, 0, n, &a->length,
                              &a->null_count, c->err);
  if (st != PQT_OK) {
    pqt_shared_unref(bits);
    pqt_shared_unref(offs);
    return st;
  }
  a->offsets = offs;
  return finish_validity(c, a, bits);
}

static pqt_status check_child_length(asm_ctx *c, const pqt_array *list, const pqt_array *child) {
  int64_t end = list->length ? ((const int32_t *)(const void *)list->offsets->data)[list->length] : 0;
  if (end != child->length)
    return pqt_corrupt(c->err, "%s: list offsets end at %lld but the element has %lld slots", list->name,
                       (long long)end, (long long)child->length);
  return PQT_OK;
}

/* A LIST or MAP group x over its repeated child; li gives x's own slots. */
static pqt_status build_listlike(asm_ctx *c, const pqt_schema_node *x, pqt_level_info li, bool nullable,
                                 pqt_array **out) {
  bool is_map = x->kind == PQT_NODE_MAP;
  const pqt_schema_node *r = x->repeated;
  if (!r || r->max_def != li.def_level + 1 || r->max_rep != li.rep_level + 1)
    return pqt_corrupt(c->err, "%s: malformed list/map", x->name);
  pqt_array *a;
  PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, is_map ? PQT_ARRAY_MAP : PQT_ARRAY_LIST, 1, &a, c->err));
  a->node = x;
  a->name = x->name;
  a->nullable = nullable;
  pqt_status st = list_slots(c, x, li, a);
  if (st == PQT_OK) {
    if (is_map || !x->element || x->element == r) st = build_content(c, r, &a->children[0]);
    else st = build_node(c, x->element, &a->children[0]);
  }
  if (st == PQT_OK) st = check_child_length(c, a, a->children[0]);
  if (st != PQT_OK) {
    pqt_array_free(c->alloc, a);
    return st;
  }
  *out = a;
  return PQT_OK;
}

static pqt_status build_node(asm_ctx *c, const pqt_schema_node *x, pqt_array **out) {
  pqt_status st = PQT_OK;
  pqt_array *a = NULL;
  if (x->repetition == PQT_REPEATED) {
    /* unannotated repeated field: a required list of required elements */
    PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, PQT_ARRAY_LIST, 1, &a, c->err));
    a->node = x;
    a->name = x->name;
    a->nullable = false;
    const pqt_schema_node *p = x->parent;
    pqt_level_info li = {(int16_t)(x->max_def - 1), (int16_t)(x->max_rep - 1), p ? p->repeated_ancestor_def : 0};
    st = list_slots(c, x, li, a);
    if (st == PQT_OK) st = build_content(c, x, &a->children[0]);
    if (st == PQT_OK) st = check_child_length(c, a, a->children[0]);
  } else {
    switch (x->kind) {
      case PQT_NODE_PRIMITIVE:
        PQT_RETURN_NOT_OK(build_leaf(c, x, info_of(x), &a));
        a->nullable = x->repetition == PQT_OPTIONAL;
        break;
      case PQT_NODE_STRUCT:
        PQT_RETURN_NOT_OK(pqt_array_new(c->alloc, PQT_ARRAY_STRUCT, count_selected_children(c, x), &a, c->err));
        a->node = x;
        a->name = x->name;
        a->nullable = x->repetition == PQT_OPTIONAL;
        st = struct_slots(c, x, info_of(x), a);
        if (st == PQT_OK) st = build_children(c, x, a);
        break;
      case PQT_NODE_LIST:
      case PQT_NODE_MAP: return build_listlike(c, x, info_of(x), x->repetition == PQT_OPTIONAL, out);
      default:
        return pqt_error_set(c->err, PQT_EUNSUPPORTED, "%s: node kind %d is not supported yet", x->name, (int)x->kind);
    }
  }
  if (st != PQT_OK) {
    pqt_array_free(c->alloc, a);
    return st;
  }
  *out = a;
  return PQT_OK;
}

pqt_status pqt_assemble_field(const pqt_schema_node *field, pqt_column_data *cols, int32_t n_cols,
                              const uint8_t *selected, const pqt_allocator *alloc, pqt_array **out, pqt_error *err) {
  asm_ctx c = {pqt_alloc_or_default(alloc), cols, n_cols, selected, err};
  return build_node(&c, field, out);
}
