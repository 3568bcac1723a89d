/*
 * meta/schema.c: the schema tree from FileMetaData.schema.
 *
 * Spec: parquet-format README.md "Metadata" (SchemaElement: the schema is flattened by a
 * depth-first traversal, num_children links a group to the elements that
 * follow) and "Nested Encoding" (max definition level = number of optional
 * or repeated fields on the path, max repetition level = number of repeated
 * fields); parquet-format LogicalTypes.md "Nested Types" / "Lists" / "Maps" for the LIST and
 * MAP shapes and their backward-compatibility rules.
 *
 * The build is two linear passes over the elements with an explicit stack
 * (at most PQT_SCHEMA_MAX_DEPTH + 1 entries): nothing recurses, so a hostile
 * footer can neither overflow the C stack nor make us allocate more than a
 * fixed multiple of the element count (leaf paths are capped separately by
 * PQT_SCHEMA_MAX_PATH_BYTES).
 *
 * LIST element rules (parquet-format LogicalTypes.md "Backward-compatibility rules"), for a
 * LIST-annotated group G whose single child R is repeated:
 *   1. R is not a group: R is the element (required).
 *   2. R is a group with several fields: R is the element (required).
 *   3. R is a group whose one field is repeated: R is the element (required).
 *   4. R is a group with one field, named "array" or "<G's name>_tuple":
 *      R is the element (required).
 *   5. Otherwise R's single field is the element, with its own repetition.
 * A repeated field that is not the repeated level of a LIST/MAP/VECTOR group
 * is a bare repeated field: a required list of required elements of its own
 * type (node->bare_repeated). A MAP_KEY_VALUE group that is not the repeated
 * level of a MAP group is read as a MAP. MAP keys are the first field of the
 * repeated group and values the second (names are not enforced; a key-only
 * map has value == NULL; a non-required key is accepted, as Presto wrote).
 *
 * VECTOR (draft, apache/parquet-format#592): a group annotated VECTOR whose
 * single child has repetition VECTOR and a positive vector_length. A VECTOR
 * node adds no definition or repetition level: its vector_length slots are
 * implied by the schema. This follows the draft and may change with it.
 */
#include <stdio.h>

#include "meta/schema.h"

#define NAME_FMT "%.*s"
#define NAME_ARG(e)                                                         \
  (int)((e)->name.len > 64 ? 64 : ((e)->name.len < 0 ? 0 : (e)->name.len)), \
      (const char *)((e)->name.ptr ? (e)->name.ptr : (const uint8_t *)"")

static void resolve_annotation(pqt_schema_node *node, const pqt_schema_element *e) {
  bool group = !node->is_leaf;
  int32_t phys = node->physical_type, tl = node->type_length;
  bool invalid = false;
  bool have_logical = false;
  memset(&node->logical, 0, sizeof node->logical);
  node->converted_type = -1;

  if (PQT_HAS_FIELD(e, schema_element, converted_type)) {
    int32_t ct = e->converted_type;
    if (pqt_converted_type_fits(ct, group, phys, tl, PQT_HAS_FIELD(e, schema_element, precision), e->precision,
                                PQT_HAS_FIELD(e, schema_element, scale) ? e->scale : 0, NULL)) {
      node->converted_type = ct;
    } else {
      invalid = true;
    }
  }
  if (PQT_HAS_FIELD(e, schema_element, logical_type) && e->logical_type.isset != 0) {
    if (pqt_logical_type_fits(&e->logical_type, group, phys, tl, NULL)) {
      node->logical = e->logical_type;
      have_logical = true;
    } else {
      invalid = true;
    }
  }
  if (!have_logical && node->converted_type >= 0) {
    pqt_logical_type lt;
    if (pqt_converted_to_logical(node->converted_type, PQT_HAS_FIELD(e, schema_element, scale), e->scale,
                                 PQT_HAS_FIELD(e, schema_element, precision), e->precision, &lt))
      node->logical = lt;
  }
  node->annotation_invalid = invalid;
}

static bool name_is(const pqt_schema_node *n, const char *s, size_t len) {
  return n->name_len == len && memcmp(n->name, s, len) == 0;
}

/* Is n named "<g's name>_tuple"? */
static bool name_is_tuple_of(const pqt_schema_node *n, const pqt_schema_node *g) {
  return n->name_len == g->name_len + 6 && memcmp(n->name, g->name, g->name_len) == 0 &&
         memcmp(n->name + g->name_len, "_tuple", 6) == 0;
}

static void classify(pqt_schema_node *x) {
  pqt_schema_node *p = x->parent;
  bool consumed = p && p->repeated == x;
  x->bare_repeated = x->repetition == PQT_REPEATED && !consumed;
  if (x->is_leaf) {
    x->kind = PQT_NODE_PRIMITIVE;
    return;
  }
  x->kind = PQT_NODE_STRUCT;
  int which = pqt_union_which(x->logical.isset);
  pqt_schema_node *r = x->n_children == 1 ? x->children[0] : NULL;
  if (which == PQT_LT_LIST) {
    if (!r || r->repetition != PQT_REPEATED) return;
    x->kind = PQT_NODE_LIST;
    x->repeated = r;
    if (r->is_leaf) {
      x->list_rule = 1;
    } else if (r->n_children > 1) {
      x->list_rule = 2;
    } else if (r->children[0]->repetition == PQT_REPEATED) {
      x->list_rule = 3;
    } else if (name_is(r, "array", 5) || name_is_tuple_of(r, x)) {
      x->list_rule = 4;
    } else {
      x->list_rule = 5;
      x->element = r->children[0];
      return;
    }
    x->element = r;
    return;
  }
  bool stray_mkv = x->converted_type == PQT_CT_MAP_KEY_VALUE && which == 0 && !consumed;
  if (which == PQT_LT_MAP || stray_mkv) {
    if (!r || r->repetition != PQT_REPEATED || r->is_leaf || r->n_children > 2) return;
    x->kind = PQT_NODE_MAP;
    x->repeated = r;
    x->key = r->children[0];
    x->value = r->n_children > 1 ? r->children[1] : NULL;
    return;
  }
  if (which == PQT_LT_VECTOR) {
    if (!r || r->repetition != PQT_VECTOR) return;
    x->kind = PQT_NODE_VECTOR;
    x->repeated = r;
    x->element = (!r->is_leaf && r->n_children == 1) ? r->children[0] : r;
  }
}

typedef struct build_frame {
  int32_t node;
  int32_t remaining;
} build_frame;

pqt_status pqt_schema_build(const pqt_schema_element *elems, int32_t n, pqt_arena *arena, pqt_schema **out,
                            pqt_error *err) {
  return pqt_schema_build_limited(elems, n, PQT_SCHEMA_MAX_DEPTH, arena, out, err);
}

pqt_status pqt_schema_build_limited(const pqt_schema_element *elems, int32_t n, int32_t max_depth, pqt_arena *arena,
                                    pqt_schema **out, pqt_error *err) {
  if (!out || !arena || (n > 0 && !elems)) return pqt_error_set(err, PQT_EINVAL, "pqt_schema_build: NULL argument");
  if (max_depth < 1 || max_depth > PQT_SCHEMA_MAX_DEPTH)
    return pqt_error_set(err, PQT_EINVAL, "pqt_schema_build: depth limit %d outside 1..%d", (int)max_depth,
                         PQT_SCHEMA_MAX_DEPTH);
  *out = NULL;
  PQT_CHECK_CORRUPT(n >= 1, err, "schema: the element list is empty (%d elements)", (int)n);

  pqt_schema *s = pqt_arena_alloc(arena, sizeof *s);
  pqt_schema_node *nodes = pqt_arena_array(arena, (size_t)n, sizeof *nodes);
  pqt_schema_node **slots = pqt_arena_array(arena, n > 1 ? (size_t)n - 1 : 1, sizeof *slots);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  build_frame *stack = pqt_arena_array(arena, PQT_SCHEMA_MAX_DEPTH + 1, sizeof *stack);
  size_t *prefix = pqt_arena_array(arena, (size_t)n, sizeof *prefix);
  if (!s || !nodes || !slots || !stack || !prefix) return pqt_nomem(err);

  int32_t sp = 0;
  int64_t next_slot = 0;
  int32_t n_leaves = 0;
  int16_t max_def = 0, max_rep = 0;
  size_t path_bytes = 0, n_path_ptrs = 0, n_path_chars = 0;

  for (int32_t i = 0; i < n; i++) {
    const pqt_schema_element *e = &elems[i];
    pqt_schema_node *node = &nodes[i];
    node->index = i;
    node->elem = e;
    node->column_index = -1;

    PQT_CHECK_CORRUPT(PQT_HAS_FIELD(e, schema_element, name), err, "schema element %d: the required name is missing",
                      (int)i);
    PQT_CHECK_CORRUPT(e->name.len >= 0 && (e->name.len == 0 || e->name.ptr), err,
                      "schema element %d: bad name length %lld", (int)i, (long long)e->name.len);
    if (i > 0 && sp == 0)
      return pqt_corrupt(err,
                         "schema element %d (\"" NAME_FMT
                         "\"): the root's children end at "
                         "element %d but %d elements remain",
                         (int)i, NAME_ARG(e), (int)i - 1, (int)(n - i));
    PQT_CHECK_CORRUPT(!PQT_HAS_FIELD(e, schema_element, num_children) || e->num_children >= 0, err,
                      "schema element %d (\"" NAME_FMT "\"): negative num_children %d", (int)i, NAME_ARG(e),
                      (int)e->num_children);
    bool group = PQT_HAS_FIELD(e, schema_element, num_children) && e->num_children > 0;
    if (i == 0) {
      PQT_CHECK_CORRUPT(group || !PQT_HAS_FIELD(e, schema_element, type), err,
                        "schema element 0 (\"" NAME_FMT "\"): the root is not a group", NAME_ARG(e));
    } else {
      PQT_CHECK_CORRUPT(group || PQT_HAS_FIELD(e, schema_element, type), err,
                        "schema element %d (\"" NAME_FMT "\"): neither a type nor children", (int)i, NAME_ARG(e));
    }

    char *name = pqt_arena_strdup(arena, e->name.len ? (const char *)e->name.ptr : "", (size_t)e->name.len);
    if (!name) return pqt_nomem(err);
    node->name = name;
    node->name_len = (size_t)e->name.len;
    node->is_leaf = !group && i > 0;
    node->physical_type = -1;
    node->type_length = -1;

    /* Attach to the parent. */
    pqt_schema_node *parent = NULL;
    if (i > 0) {
      build_frame *top = &stack[sp - 1];
      parent = &nodes[top->node];
      node->parent = parent;
      node->child_index = parent->n_children;
      parent->children[parent->n_children++] = node;
      node->depth = parent->depth + 1;
      if (--top->remaining == 0) sp--;
    }
    if (node->depth > max_depth)
      return pqt_error_set(err, PQT_ELIMIT, "schema element %d (\"" NAME_FMT "\"): nesting deeper than %d levels%s",
                           (int)i, NAME_ARG(e), (int)max_depth,
                           max_depth < PQT_SCHEMA_MAX_DEPTH ? " (max_nesting_depth)" : "");

    /* Repetition. The root's is ignored. */
    if (i == 0) {
      node->repetition = -1;
    } else {
      PQT_CHECK_CORRUPT(PQT_HAS_FIELD(e, schema_element, repetition_type), err,
                        "schema element %d (\"" NAME_FMT "\"): repetition_type is missing", (int)i, NAME_ARG(e));
      PQT_CHECK_CORRUPT(e->repetition_type >= PQT_REQUIRED && e->repetition_type <= PQT_VECTOR, err,
                        "schema element %d (\"" NAME_FMT "\"): repetition_type %d out of range", (int)i, NAME_ARG(e),
                        (int)e->repetition_type);
      node->repetition = e->repetition_type;
      if (node->repetition == PQT_VECTOR) {
        PQT_CHECK_CORRUPT(PQT_HAS_FIELD(e, schema_element, vector_length) && e->vector_length > 0, err,
                          "schema element %d (\"" NAME_FMT
                          "\"): VECTOR repetition needs a "
                          "positive vector_length",
                          (int)i, NAME_ARG(e));
        node->vector_length = e->vector_length;
      }
    }

    /* Type. */
    if (node->is_leaf) {
      PQT_CHECK_CORRUPT(e->type >= PQT_BOOLEAN && e->type <= PQT_FIXED_LEN_BYTE_ARRAY, err,
                        "schema element %d (\"" NAME_FMT "\"): physical type %d out of range", (int)i, NAME_ARG(e),
                        (int)e->type);
      node->physical_type = e->type;
      if (e->type == PQT_FIXED_LEN_BYTE_ARRAY) {
        PQT_CHECK_CORRUPT(PQT_HAS_FIELD(e, schema_element, type_length) && e->type_length > 0, err,
                          "schema element %d (\"" NAME_FMT
                          "\"): FIXED_LEN_BYTE_ARRAY needs a "
                          "positive type_length",
                          (int)i, NAME_ARG(e));
        node->type_length = e->type_length;
      }
      node->column_index = n_leaves++;
    }
    if (PQT_HAS_FIELD(e, schema_element, field_id)) {
      node->has_field_id = true;
      node->field_id = e->field_id;
    }

    /* Levels. */
    if (parent) {
      int rep = node->repetition;
      node->max_def = (int16_t)(parent->max_def + (rep == PQT_OPTIONAL || rep == PQT_REPEATED));
      node->max_rep = (int16_t)(parent->max_rep + (rep == PQT_REPEATED));
      node->repeated_ancestor_def = rep == PQT_REPEATED ? node->max_def : parent->repeated_ancestor_def;
      prefix[i] = prefix[parent->index] + node->name_len + 1;
    }
    if (node->is_leaf) {
      if (node->max_def > max_def) max_def = node->max_def;
      if (node->max_rep > max_rep) max_rep = node->max_rep;
      n_path_ptrs += (size_t)node->depth;
      n_path_chars += prefix[i];
      path_bytes += (size_t)node->depth * sizeof(char *) + prefix[i];
      if (path_bytes > PQT_SCHEMA_MAX_PATH_BYTES)
        return pqt_error_set(err, PQT_ELIMIT,
                             "schema element %d (\"" NAME_FMT
                             "\"): leaf paths need more than "
                             "%zu bytes",
                             (int)i, NAME_ARG(e), (size_t)PQT_SCHEMA_MAX_PATH_BYTES);
    }

    resolve_annotation(node, e);

    /* A group opens a frame for its children. */
    if (group) {
      int32_t nc = e->num_children;
      if (next_slot + nc > (int64_t)n - 1)
        return pqt_corrupt(err,
                           "schema element %d (\"" NAME_FMT
                           "\"): num_children %d is more than "
                           "the %d elements that follow can provide",
                           (int)i, NAME_ARG(e), (int)nc, (int)(n - 1 - next_slot));
      node->children = slots + next_slot;
      next_slot += nc;
      stack[sp].node = i;
      stack[sp].remaining = nc;
      sp++;
    }
  }
  if (sp != 0) {
    const pqt_schema_element *e = &elems[stack[sp - 1].node];
    return pqt_corrupt(err,
                       "schema element %d (\"" NAME_FMT
                       "\"): %d of its num_children=%d are "
                       "missing at the end of the list",
                       (int)stack[sp - 1].node, NAME_ARG(e), (int)stack[sp - 1].remaining, (int)e->num_children);
  }

  /* Leaf ranges (children follow their parent, so a reverse sweep works). */
  for (int32_t i = 0; i < n; i++) {
    nodes[i].n_leaves = nodes[i].is_leaf ? 1 : 0;
    nodes[i].first_leaf = 0;
  }
  for (int32_t i = n - 1; i > 0; i--) nodes[i].parent->n_leaves += nodes[i].n_leaves;
  {
    int32_t next = 0;
    for (int32_t i = 0; i < n; i++) {
      nodes[i].first_leaf = nodes[i].is_leaf ? nodes[i].column_index : next;
      if (nodes[i].is_leaf) next++;
    }
  }

  /* Leaves and their paths, in one block. */
  pqt_schema_node **leaves = pqt_arena_array(arena, n_leaves ? (size_t)n_leaves : 1, sizeof *leaves);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  const char **ptrs = pqt_arena_array(arena, n_path_ptrs ? n_path_ptrs : 1, sizeof *ptrs);
  char *chars = pqt_arena_alloc(arena, n_path_chars ? n_path_chars : 1);
  if (!leaves || !ptrs || !chars) return pqt_nomem(err);
  {
    for (int32_t i = 0; i < n; i++) {
      pqt_schema_node *leaf = &nodes[i];
      if (!leaf->is_leaf) continue;
      leaves[leaf->column_index] = leaf;
      const char **path = ptrs;
      ptrs += leaf->depth;
      char *dotted = chars;
      size_t dlen = prefix[i];
      chars += dlen;
      /* Fill from the leaf upwards. */
      size_t end = dlen - 1;
      dotted[end] = '\0';
      int32_t k = leaf->depth;
      for (pqt_schema_node *a = leaf; a->parent; a = a->parent) {
        path[--k] = a->name;
        end -= a->name_len;
        memcpy(dotted + end, a->name, a->name_len);
        if (end > 0) dotted[--end] = '.';
      }
      leaf->path = path;
      leaf->path_len = leaf->depth;
      leaf->dotted_path = dotted;
    }
  }

  for (int32_t i = 0; i < n; i++) classify(&nodes[i]);

  s->root = &nodes[0];
  s->nodes = nodes;
  s->n_nodes = n;
  s->leaves = leaves;
  s->n_leaves = n_leaves;
  s->max_def = max_def;
  s->max_rep = max_rep;
  *out = s;
  return PQT_OK;
}

bool pqt_schema_node_path_equals(const pqt_schema_node *node, const pqt_bytes *parts, int32_t n_parts) {
  if (!node || n_parts < 0 || node->depth != n_parts || (n_parts > 0 && !parts)) return false;
  const pqt_schema_node *a = node;
  for (int32_t k = n_parts; k > 0; k--, a = a->parent) {
    const pqt_bytes *p = &parts[k - 1];
    if (p->len < 0 || (size_t)p->len != a->name_len ||
        (p->len > 0 && (!p->ptr || memcmp(p->ptr, a->name, (size_t)p->len) != 0)))
      return false;
  }
  return true;
}

const pqt_schema_node *pqt_schema_find_leaf(const pqt_schema *s, const pqt_bytes *parts, int32_t n_parts) {
  if (!s) return NULL;
  for (int32_t c = 0; c < s->n_leaves; c++)
    if (pqt_schema_node_path_equals(s->leaves[c], parts, n_parts)) return s->leaves[c];
  return NULL;
}
