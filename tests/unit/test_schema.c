/* Unit tests for src/meta/schema.c and schema_types.c: tree building, levels,
 * leaf paths, LIST/MAP resolution (every legacy shape), annotation mapping
 * tables and malformed element lists. */
#include <time.h>

#include "harness.h"
#include "rng.h"
#include "test_schema_fixtures.h"

static pqt_schema *build_ok(pqt_arena *a, const pqt_schema_element *e, int32_t n) {
  pqt_schema *s = NULL;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_schema_build(e, n, a, &s, &err);
  CHECK_MSG(st == PQT_OK, "build failed: %s", err.message);
  return st == PQT_OK ? s : NULL;
}

static pqt_status build_err(const pqt_schema_element *e, int32_t n, pqt_error *err) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema *s = NULL;
  pqt_error_init(err);
  pqt_status st = pqt_schema_build(e, n, &a, &s, err);
  if (st != PQT_OK) CHECK(s == NULL);
  pqt_arena_reset(&a);
  return st;
}

static void check_leaf(const pqt_schema *s, int col, const char *dotted, int def, int rep) {
  CHECK(col < s->n_leaves);
  if (col >= s->n_leaves) return;
  const pqt_schema_node *l = s->leaves[col];
  CHECK_EQ_STR(l->dotted_path, dotted);
  CHECK_EQ_INT(l->max_def, def);
  CHECK_EQ_INT(l->max_rep, rep);
  CHECK_EQ_INT(l->column_index, col);
  CHECK(l->is_leaf);
}

/* ---- structure and levels ---------------------------------------------- */

static void test_flat(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("schema", 3),
      fx_ct(fx_leaf("text", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_CT_UTF8),
      fx_leaf("a", PQT_OPTIONAL, PQT_INT32),
      fx_lt(fx_flba("id", PQT_REQUIRED, 16), PQT_LT_UUID),
  };
  e[2].field_id = 7;
  PQT_SET_FIELD(&e[2], schema_element, field_id);
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (!s) return;
  CHECK_EQ_INT(s->n_nodes, 4);
  CHECK_EQ_INT(s->n_leaves, 3);
  CHECK_EQ_INT(s->root->n_children, 3);
  CHECK_EQ_INT(s->root->repetition, -1);
  CHECK_EQ_INT(s->root->kind, PQT_NODE_STRUCT);
  check_leaf(s, 0, "text", 0, 0);
  check_leaf(s, 1, "a", 1, 0);
  check_leaf(s, 2, "id", 0, 0);
  CHECK_EQ_INT(s->max_def, 1);
  CHECK_EQ_INT(s->max_rep, 0);
  /* UTF8 alone yields the STRING logical type. */
  CHECK_EQ_INT(pqt_union_which(s->leaves[0]->logical.isset), PQT_LT_STRING);
  CHECK_EQ_INT(s->leaves[0]->converted_type, PQT_CT_UTF8);
  CHECK_EQ_INT(pqt_union_which(s->leaves[2]->logical.isset), PQT_LT_UUID);
  CHECK_EQ_INT(s->leaves[2]->converted_type, -1);
  CHECK_EQ_INT(s->leaves[2]->type_length, 16);
  CHECK_EQ_INT(s->leaves[0]->type_length, -1);
  CHECK(s->leaves[1]->has_field_id && s->leaves[1]->field_id == 7);
  CHECK(!s->leaves[0]->has_field_id);
  CHECK(s->leaves[1]->parent == s->root);
  CHECK_EQ_INT(s->leaves[1]->child_index, 1);
  CHECK_EQ_INT(s->leaves[1]->path_len, 1);
  CHECK_EQ_STR(s->leaves[1]->path[0], "a");
  CHECK_EQ_INT(s->root->first_leaf, 0);
  CHECK_EQ_INT(s->root->n_leaves, 3);
  pqt_bytes p = fx_bytes("id");
  CHECK(pqt_schema_find_leaf(s, &p, 1) == s->leaves[2]);
  p = fx_bytes("i");
  CHECK(pqt_schema_find_leaf(s, &p, 1) == NULL);
  pqt_arena_reset(&a);
}

static void test_nested_struct(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("m", 2),
      fx_group("a", PQT_OPTIONAL, 2),
      fx_leaf("b", PQT_REQUIRED, PQT_INT32),
      fx_group("c", PQT_OPTIONAL, 1),
      fx_leaf("d", PQT_REPEATED, PQT_INT64),
      fx_leaf("z", PQT_REQUIRED, PQT_DOUBLE),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (!s) return;
  check_leaf(s, 0, "a.b", 1, 0);
  check_leaf(s, 1, "a.c.d", 3, 1);
  check_leaf(s, 2, "z", 0, 0);
  const pqt_schema_node *d = s->leaves[1];
  CHECK_EQ_INT(d->repeated_ancestor_def, 3);
  CHECK_EQ_INT(s->leaves[0]->repeated_ancestor_def, 0);
  CHECK(d->bare_repeated);
  CHECK_EQ_INT(d->kind, PQT_NODE_PRIMITIVE);
  CHECK_EQ_INT(d->depth, 3);
  CHECK_EQ_STR(d->path[0], "a");
  CHECK_EQ_STR(d->path[1], "c");
  CHECK_EQ_STR(d->path[2], "d");
  const pqt_schema_node *ga = &s->nodes[1];
  CHECK_EQ_INT(ga->kind, PQT_NODE_STRUCT);
  CHECK_EQ_INT(ga->first_leaf, 0);
  CHECK_EQ_INT(ga->n_leaves, 2);
  CHECK_EQ_INT(s->nodes[3].first_leaf, 1);
  CHECK_EQ_INT(s->nodes[3].n_leaves, 1);
  CHECK_EQ_INT(ga->max_def, 1);
  CHECK_EQ_INT(ga->column_index, -1);
  CHECK(ga->path == NULL && ga->dotted_path == NULL);
  pqt_bytes parts[3] = {fx_bytes("a"), fx_bytes("c"), fx_bytes("d")};
  CHECK(pqt_schema_find_leaf(s, parts, 3) == d);
  CHECK(pqt_schema_find_leaf(s, parts, 2) == NULL);
  pqt_arena_reset(&a);
}

/* Seed 004: the MyDeep file written by parquet-go. The schema elements below
 * are decoded by hand from the footer hexdump at 0xf8..0x150 (root MyDeep 1
 * child; optional group nest 2; optional binary nest UTF8/STRING; repeated
 * group repeated 1; optional group nest 1; repeated binary repeated
 * UTF8/STRING). The walkthrough's values show D up to 4 and R up to 2 for
 * nest.repeated.nest.repeated and D up to 2, R 0 for nest.nest. */
static void test_seed004_mydeep(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("MyDeep", 1),
      fx_group("nest", PQT_OPTIONAL, 2),
      fx_lt(fx_ct(fx_leaf("nest", PQT_OPTIONAL, PQT_BYTE_ARRAY), PQT_CT_UTF8), PQT_LT_STRING),
      fx_group("repeated", PQT_REPEATED, 1),
      fx_group("nest", PQT_OPTIONAL, 1),
      fx_lt(fx_ct(fx_leaf("repeated", PQT_REPEATED, PQT_BYTE_ARRAY), PQT_CT_UTF8), PQT_LT_STRING),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (!s) return;
  CHECK_EQ_INT(s->n_leaves, 2);
  check_leaf(s, 0, "nest.nest", 2, 0);
  check_leaf(s, 1, "nest.repeated.nest.repeated", 4, 2);
  CHECK_EQ_INT(s->leaves[1]->repeated_ancestor_def, 4);
  CHECK_EQ_INT(s->nodes[3].repeated_ancestor_def, 2);
  CHECK(s->nodes[3].bare_repeated);
  CHECK(s->leaves[1]->bare_repeated);
  CHECK_EQ_INT(s->max_def, 4);
  CHECK_EQ_INT(s->max_rep, 2);
  pqt_bytes parts[4] = {fx_bytes("nest"), fx_bytes("repeated"), fx_bytes("nest"), fx_bytes("repeated")};
  CHECK(pqt_schema_find_leaf(s, parts, 4) == s->leaves[1]);
  CHECK(pqt_schema_node_path_equals(s->leaves[1], parts, 4));
  CHECK(!pqt_schema_node_path_equals(s->leaves[0], parts, 4));
  CHECK(!pqt_schema_node_path_equals(s->leaves[1], parts, 3));
  CHECK(pqt_schema_node_path_equals(&s->nodes[3], parts, 2)); /* a group */
  pqt_bytes wrong[4] = {fx_bytes("nest"), fx_bytes("repeated"), fx_bytes("nest"), fx_bytes("repeatex")};
  CHECK(!pqt_schema_node_path_equals(s->leaves[1], wrong, 4));
  CHECK(pqt_schema_find_leaf(s, wrong, 4) == NULL);
  pqt_arena_reset(&a);
}

static void test_root_repetition_ignored_and_empty_schema(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {fx_group("schema", PQT_REPEATED, 1), fx_leaf("x", PQT_OPTIONAL, PQT_INT32)};
  pqt_schema *s = build_ok(&a, e, 2);
  if (s) {
    check_leaf(s, 0, "x", 1, 0);
    CHECK_EQ_INT(s->root->repetition, -1);
    CHECK(!s->root->bare_repeated);
  }
  pqt_schema_element r = fx_root("empty", 0);
  s = build_ok(&a, &r, 1);
  if (s) {
    CHECK_EQ_INT(s->n_leaves, 0);
    CHECK_EQ_INT(s->root->n_children, 0);
  }
  /* A root with no num_children at all is the same empty schema. */
  pqt_schema_element r2 = fx_root("empty", 0);
  r2.isset &= ~PQT_FIELD_MASK(schema_element, num_children);
  s = build_ok(&a, &r2, 1);
  if (s) CHECK_EQ_INT(s->n_leaves, 0);
  pqt_arena_reset(&a);
}

static void test_group_with_type_is_group_and_empty_names(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element g = fx_group("", PQT_OPTIONAL, 1);
  g.type = PQT_INT32; /* ignored: num_children > 0 wins */
  PQT_SET_FIELD(&g, schema_element, type);
  pqt_schema_element leaf0 = fx_leaf("", PQT_REQUIRED, PQT_INT32);
  leaf0.num_children = 0; /* some writers set 0 on leaves */
  PQT_SET_FIELD(&leaf0, schema_element, num_children);
  pqt_schema_element e[] = {fx_root("s", 1), g, leaf0};
  pqt_schema *s = build_ok(&a, e, 3);
  if (s) {
    CHECK(!s->nodes[1].is_leaf);
    CHECK(s->nodes[2].is_leaf);
    CHECK_EQ_STR(s->leaves[0]->dotted_path, ".");
    CHECK_EQ_INT(s->leaves[0]->max_def, 1);
  }
  pqt_arena_reset(&a);
}

/* ---- LIST ---------------------------------------------------------------- */

static void test_list_three_level(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("schema", 1),
      fx_lt(fx_ct(fx_group("a", PQT_OPTIONAL, 1), PQT_CT_LIST), PQT_LT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_leaf("element", PQT_OPTIONAL, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (!s) return;
  const pqt_schema_node *g = &s->nodes[1];
  CHECK_EQ_INT(g->kind, PQT_NODE_LIST);
  CHECK(g->repeated == &s->nodes[2]);
  CHECK(g->element == &s->nodes[3]);
  CHECK_EQ_INT(g->list_rule, 5);
  CHECK(!s->nodes[2].bare_repeated);
  check_leaf(s, 0, "a.list.element", 3, 1);
  CHECK_EQ_INT(s->leaves[0]->repeated_ancestor_def, 2);
  CHECK_EQ_INT(g->max_def, 1);
  pqt_arena_reset(&a);
}

/* One LIST group over the given repeated child subtree; returns the schema. */
static void check_list_rule(const pqt_schema_element *e, int32_t n, int rule, int elem_index, int leaf_def,
                            int leaf_rep) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema *s = build_ok(&a, e, n);
  if (s) {
    const pqt_schema_node *g = &s->nodes[1];
    CHECK_EQ_INT(g->kind, PQT_NODE_LIST);
    CHECK_EQ_INT(g->list_rule, rule);
    CHECK(g->repeated == &s->nodes[2]);
    CHECK(g->element == &s->nodes[elem_index]);
    CHECK(!s->nodes[2].bare_repeated);
    CHECK_EQ_INT(s->leaves[0]->max_def, leaf_def);
    CHECK_EQ_INT(s->leaves[0]->max_rep, leaf_rep);
  }
  pqt_arena_reset(&a);
}

static void test_list_legacy_rules(void) {
  /* Rule 1: optional group my_list (LIST) { repeated int32 element; } */
  pqt_schema_element r1[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                             fx_leaf("element", PQT_REPEATED, PQT_INT32)};
  check_list_rule(r1, FX_N(r1), 1, 2, 2, 1);
  /* Rule 2: repeated group element { required binary str; required int32 num; } */
  pqt_schema_element r2[] = {
      fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST), fx_group("element", PQT_REPEATED, 2),
      fx_ct(fx_leaf("str", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_CT_UTF8), fx_leaf("num", PQT_REQUIRED, PQT_INT32)};
  check_list_rule(r2, FX_N(r2), 2, 2, 2, 1);
  /* Rule 3: repeated group array (LIST) { repeated int32 array; } */
  pqt_schema_element r3[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                             fx_ct(fx_group("array", PQT_REPEATED, 1), PQT_CT_LIST),
                             fx_leaf("array", PQT_REPEATED, PQT_INT32)};
  check_list_rule(r3, FX_N(r3), 3, 2, 3, 2);
  {
    /* ... and the inner group is itself a rule-1 list. */
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_schema *s = build_ok(&a, r3, FX_N(r3));
    if (s) {
      CHECK_EQ_INT(s->nodes[2].kind, PQT_NODE_LIST);
      CHECK_EQ_INT(s->nodes[2].list_rule, 1);
      CHECK(s->nodes[2].element == &s->nodes[3]);
      CHECK(!s->nodes[3].bare_repeated);
    }
    pqt_arena_reset(&a);
  }
  /* Rule 4: repeated group array { required binary str; } */
  pqt_schema_element r4[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                             fx_group("array", PQT_REPEATED, 1), fx_leaf("str", PQT_REQUIRED, PQT_BYTE_ARRAY)};
  check_list_rule(r4, FX_N(r4), 4, 2, 2, 1);
  /* Rule 4: repeated group my_list_tuple { required binary str; } */
  pqt_schema_element r4b[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                              fx_group("my_list_tuple", PQT_REPEATED, 1), fx_leaf("str", PQT_REQUIRED, PQT_BYTE_ARRAY)};
  check_list_rule(r4b, FX_N(r4b), 4, 2, 2, 1);
  /* "other_tuple" is not this list's tuple name: rule 5. */
  pqt_schema_element r4c[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                              fx_group("other_tuple", PQT_REPEATED, 1), fx_leaf("str", PQT_REQUIRED, PQT_BYTE_ARRAY)};
  check_list_rule(r4c, FX_N(r4c), 5, 3, 2, 1);
  /* Rule 5: repeated group element { optional binary str; } -> element str */
  pqt_schema_element r5[] = {fx_root("s", 1), fx_ct(fx_group("my_list", PQT_OPTIONAL, 1), PQT_CT_LIST),
                             fx_group("element", PQT_REPEATED, 1), fx_leaf("str", PQT_OPTIONAL, PQT_BYTE_ARRAY)};
  check_list_rule(r5, FX_N(r5), 5, 3, 3, 1);
  /* Spark writeLegacyFormat: repeated group bag { optional int32 array; } */
  pqt_schema_element bag[] = {fx_root("spark_schema", 1), fx_ct(fx_group("a", PQT_OPTIONAL, 1), PQT_CT_LIST),
                              fx_group("bag", PQT_REPEATED, 1), fx_leaf("array", PQT_OPTIONAL, PQT_INT32)};
  check_list_rule(bag, FX_N(bag), 5, 3, 3, 1);
  /* Impala: optional group int_array (LIST) { repeated int32 item; } */
  pqt_schema_element imp[] = {fx_root("schema", 1), fx_ct(fx_group("int_array", PQT_OPTIONAL, 1), PQT_CT_LIST),
                              fx_leaf("item", PQT_REPEATED, PQT_INT32)};
  check_list_rule(imp, FX_N(imp), 1, 2, 2, 1);
  /* LIST via LogicalType only (no ConvertedType) resolves the same way. */
  pqt_schema_element lt[] = {fx_root("s", 1), fx_lt(fx_group("l", PQT_REQUIRED, 1), PQT_LT_LIST),
                             fx_group("list", PQT_REPEATED, 1), fx_leaf("element", PQT_REQUIRED, PQT_INT32)};
  check_list_rule(lt, FX_N(lt), 5, 3, 1, 1);
}

static void test_nested_lists(void) {
  /* nested_lists.snappy shape: three LIST levels of optional elements. */
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("schema", 2),
      fx_ct(fx_group("a", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_ct(fx_group("element", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_ct(fx_group("element", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_ct(fx_leaf("element", PQT_OPTIONAL, PQT_BYTE_ARRAY), PQT_CT_UTF8),
      fx_leaf("b", PQT_REQUIRED, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    check_leaf(s, 0, "a.list.element.list.element.list.element", 7, 3);
    check_leaf(s, 1, "b", 0, 0);
    CHECK_EQ_INT(s->leaves[0]->repeated_ancestor_def, 6);
    for (int i = 1; i <= 5; i += 2) {
      CHECK_EQ_INT(s->nodes[i].kind, PQT_NODE_LIST);
      CHECK(s->nodes[i].element == &s->nodes[i + 2]);
    }
    CHECK_EQ_INT(s->max_rep, 3);
  }
  pqt_arena_reset(&a);
}

static void test_bare_repeated(void) {
  /* repeated_no_annotation: a bare repeated group inside an optional group,
   * and a top-level bare repeated primitive. */
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("user", 3),
      fx_leaf("id", PQT_REQUIRED, PQT_INT32),
      fx_group("phoneNumbers", PQT_OPTIONAL, 1),
      fx_group("phone", PQT_REPEATED, 2),
      fx_leaf("number", PQT_REQUIRED, PQT_INT64),
      fx_lt(fx_leaf("kind", PQT_OPTIONAL, PQT_BYTE_ARRAY), PQT_LT_STRING),
      fx_leaf("num", PQT_REPEATED, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    check_leaf(s, 1, "phoneNumbers.phone.number", 2, 1);
    check_leaf(s, 2, "phoneNumbers.phone.kind", 3, 1);
    check_leaf(s, 3, "num", 1, 1);
    CHECK(s->nodes[3].bare_repeated);
    CHECK_EQ_INT(s->nodes[3].kind, PQT_NODE_STRUCT);
    CHECK(!s->nodes[2].bare_repeated);
    CHECK(s->leaves[3]->bare_repeated);
    CHECK_EQ_INT(s->leaves[2]->repeated_ancestor_def, 2);
  }
  pqt_arena_reset(&a);
}

static void test_list_bad_shape_is_struct(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  /* LIST with two children, and LIST whose only child is not repeated. */
  pqt_schema_element e[] = {
      fx_root("s", 2),
      fx_ct(fx_group("two", PQT_OPTIONAL, 2), PQT_CT_LIST),
      fx_leaf("x", PQT_REQUIRED, PQT_INT32),
      fx_leaf("y", PQT_REPEATED, PQT_INT32),
      fx_ct(fx_group("one", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_leaf("z", PQT_OPTIONAL, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    CHECK_EQ_INT(s->nodes[1].kind, PQT_NODE_STRUCT);
    CHECK_EQ_INT(s->nodes[4].kind, PQT_NODE_STRUCT);
    CHECK(s->nodes[3].bare_repeated);
    CHECK(s->nodes[1].element == NULL);
  }
  pqt_arena_reset(&a);
}

/* ---- MAP ----------------------------------------------------------------- */

static void test_maps(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("s", 5),
      /* standard */
      fx_lt(fx_ct(fx_group("m", PQT_OPTIONAL, 1), PQT_CT_MAP), PQT_LT_MAP),
      fx_group("key_value", PQT_REPEATED, 2),
      fx_lt(fx_leaf("key", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_LT_STRING),
      fx_leaf("value", PQT_OPTIONAL, PQT_INT32),
      /* parquet-mr legacy: MAP over a MAP_KEY_VALUE repeated group named map */
      fx_ct(fx_group("legacy", PQT_REQUIRED, 1), PQT_CT_MAP),
      fx_ct(fx_group("map", PQT_REPEATED, 2), PQT_CT_MAP_KEY_VALUE),
      fx_leaf("str", PQT_REQUIRED, PQT_BYTE_ARRAY),
      fx_leaf("num", PQT_REQUIRED, PQT_INT32),
      /* stray MAP_KEY_VALUE acts as MAP */
      fx_ct(fx_group("stray", PQT_OPTIONAL, 1), PQT_CT_MAP_KEY_VALUE),
      fx_group("map", PQT_REPEATED, 2),
      fx_leaf("key", PQT_REQUIRED, PQT_BYTE_ARRAY),
      fx_leaf("value", PQT_OPTIONAL, PQT_INT32),
      /* map_no_value: key only */
      fx_ct(fx_group("keys", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_group("key_value", PQT_REPEATED, 1),
      fx_leaf("key", PQT_REQUIRED, PQT_INT32),
      /* incorrect_map_schema (Presto): optional key */
      fx_ct(fx_group("presto", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_group("key_value", PQT_REPEATED, 2),
      fx_leaf("key", PQT_OPTIONAL, PQT_BYTE_ARRAY),
      fx_leaf("value", PQT_OPTIONAL, PQT_DOUBLE),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    const pqt_schema_node *m = &s->nodes[1];
    CHECK_EQ_INT(m->kind, PQT_NODE_MAP);
    CHECK(m->repeated == &s->nodes[2]);
    CHECK(m->key == &s->nodes[3]);
    CHECK(m->value == &s->nodes[4]);
    CHECK(!s->nodes[2].bare_repeated);
    check_leaf(s, 0, "m.key_value.key", 2, 1);
    check_leaf(s, 1, "m.key_value.value", 3, 1);

    const pqt_schema_node *l = &s->nodes[5];
    CHECK_EQ_INT(l->kind, PQT_NODE_MAP);
    CHECK(l->key == &s->nodes[7] && l->value == &s->nodes[8]);
    CHECK_EQ_INT(s->nodes[6].kind, PQT_NODE_STRUCT); /* consumed MAP_KEY_VALUE */
    CHECK_EQ_INT(s->nodes[6].converted_type, PQT_CT_MAP_KEY_VALUE);
    CHECK_EQ_INT(s->nodes[6].logical.isset, 0);
    check_leaf(s, 2, "legacy.map.str", 1, 1);

    const pqt_schema_node *st = &s->nodes[9];
    CHECK_EQ_INT(st->kind, PQT_NODE_MAP);
    CHECK(st->key == &s->nodes[11] && st->value == &s->nodes[12]);

    const pqt_schema_node *k = &s->nodes[13];
    CHECK_EQ_INT(k->kind, PQT_NODE_MAP);
    CHECK(k->key == &s->nodes[15]);
    CHECK(k->value == NULL);

    const pqt_schema_node *p = &s->nodes[16];
    CHECK_EQ_INT(p->kind, PQT_NODE_MAP);
    CHECK(p->key == &s->nodes[18]);
    check_leaf(s, 7, "presto.key_value.key", 3, 1);
    check_leaf(s, 8, "presto.key_value.value", 3, 1);
  }
  pqt_arena_reset(&a);
}

static void test_map_bad_shapes(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("s", 2),
      /* three fields in key_value */
      fx_ct(fx_group("m3", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_group("key_value", PQT_REPEATED, 3),
      fx_leaf("k", PQT_REQUIRED, PQT_INT32),
      fx_leaf("v", PQT_REQUIRED, PQT_INT32),
      fx_leaf("w", PQT_REQUIRED, PQT_INT32),
      /* repeated primitive instead of a group */
      fx_ct(fx_group("mp", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_leaf("key", PQT_REPEATED, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    CHECK_EQ_INT(s->nodes[1].kind, PQT_NODE_STRUCT);
    CHECK(s->nodes[2].bare_repeated);
    CHECK_EQ_INT(s->nodes[6].kind, PQT_NODE_STRUCT);
    CHECK(s->nodes[7].bare_repeated);
  }
  pqt_arena_reset(&a);
}

/* List of maps of lists, Impala style (nonnullable.impala / nullable.impala). */
static void test_impala_nested(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("schema", 1),
      fx_ct(fx_group("nested", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_group("item", PQT_REPEATED, 1), /* rule 5: element is the map */
      fx_ct(fx_group("m", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_group("map", PQT_REPEATED, 2),
      fx_ct(fx_leaf("key", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_CT_UTF8),
      fx_ct(fx_group("value", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_leaf("item", PQT_REPEATED, PQT_INT32),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    CHECK_EQ_INT(s->nodes[1].kind, PQT_NODE_LIST);
    CHECK_EQ_INT(s->nodes[1].list_rule, 5);
    CHECK(s->nodes[1].element == &s->nodes[3]);
    CHECK_EQ_INT(s->nodes[3].kind, PQT_NODE_MAP);
    CHECK(s->nodes[3].value == &s->nodes[6]);
    CHECK_EQ_INT(s->nodes[6].kind, PQT_NODE_LIST);
    CHECK_EQ_INT(s->nodes[6].list_rule, 1);
    check_leaf(s, 0, "nested.item.m.map.key", 4, 2);
    check_leaf(s, 1, "nested.item.m.map.value.item", 6, 3);
  }
  pqt_arena_reset(&a);
}

static void test_vector(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element v = fx_group("list", PQT_VECTOR, 1);
  v.vector_length = 4;
  PQT_SET_FIELD(&v, schema_element, vector_length);
  pqt_schema_element e[] = {
      fx_root("s", 1),
      fx_lt(fx_group("emb", PQT_OPTIONAL, 1), PQT_LT_VECTOR),
      v,
      fx_leaf("element", PQT_REQUIRED, PQT_FLOAT),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    CHECK_EQ_INT(s->nodes[1].kind, PQT_NODE_VECTOR);
    CHECK(s->nodes[1].repeated == &s->nodes[2]);
    CHECK(s->nodes[1].element == &s->nodes[3]);
    CHECK_EQ_INT(s->nodes[2].vector_length, 4);
    CHECK(!s->nodes[2].bare_repeated);
    check_leaf(s, 0, "emb.list.element", 1, 0); /* VECTOR adds no level */
  }
  /* VECTOR repetition without vector_length is corrupt. */
  pqt_error err;
  e[2].isset &= ~PQT_FIELD_MASK(schema_element, vector_length);
  CHECK_EQ_INT(build_err(e, FX_N(e), &err), PQT_ECORRUPT);
  CHECK(strstr(err.message, "vector_length") != NULL);
  pqt_arena_reset(&a);
}

/* ---- annotations -------------------------------------------------------- */

static void test_converted_to_logical_table(void) {
  pqt_logical_type lt;
  struct {
    int ct;
    int member;
  } simple[] = {
      {PQT_CT_UTF8, PQT_LT_STRING}, {PQT_CT_MAP, PQT_LT_MAP},   {PQT_CT_LIST, PQT_LT_LIST}, {PQT_CT_ENUM, PQT_LT_ENUM},
      {PQT_CT_DATE, PQT_LT_DATE},   {PQT_CT_JSON, PQT_LT_JSON}, {PQT_CT_BSON, PQT_LT_BSON},
  };
  for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
    CHECK(pqt_converted_to_logical(simple[i].ct, false, 0, false, 0, &lt));
    CHECK_EQ_INT(lt.isset, 1u << simple[i].member);
  }
  /* TIME_* and TIMESTAMP_* read as isAdjustedToUTC = true. */
  CHECK(pqt_converted_to_logical(PQT_CT_TIME_MILLIS, false, 0, false, 0, &lt));
  pqt_logical_type want = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_MILLIS, true);
  CHECK(pqt_logical_type_equal(&lt, &want));
  CHECK(pqt_converted_to_logical(PQT_CT_TIME_MICROS, false, 0, false, 0, &lt));
  want = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_MICROS, true);
  CHECK(pqt_logical_type_equal(&lt, &want));
  CHECK(pqt_converted_to_logical(PQT_CT_TIMESTAMP_MILLIS, false, 0, false, 0, &lt));
  want = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MILLIS, true);
  CHECK(pqt_logical_type_equal(&lt, &want));
  CHECK(pqt_converted_to_logical(PQT_CT_TIMESTAMP_MICROS, false, 0, false, 0, &lt));
  want = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MICROS, true);
  CHECK(pqt_logical_type_equal(&lt, &want));
  want = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MICROS, false);
  CHECK(!pqt_logical_type_equal(&lt, &want));
  /* Integers: the eight rows. */
  int cts[] = {PQT_CT_INT_8,  PQT_CT_INT_16,  PQT_CT_INT_32,  PQT_CT_INT_64,
               PQT_CT_UINT_8, PQT_CT_UINT_16, PQT_CT_UINT_32, PQT_CT_UINT_64};
  for (int i = 0; i < 8; i++) {
    CHECK(pqt_converted_to_logical(cts[i], false, 0, false, 0, &lt));
    want = fx_int(8 << (i % 4), i < 4);
    CHECK_MSG(pqt_logical_type_equal(&lt, &want), "row %d", i);
  }
  /* DECIMAL needs precision; scale defaults to 0. */
  CHECK(!pqt_converted_to_logical(PQT_CT_DECIMAL, true, 2, false, 0, &lt));
  CHECK(pqt_converted_to_logical(PQT_CT_DECIMAL, false, 0, true, 9, &lt));
  want = fx_decimal(9, 0);
  CHECK(pqt_logical_type_equal(&lt, &want));
  CHECK(pqt_converted_to_logical(PQT_CT_DECIMAL, true, 3, true, 12, &lt));
  want = fx_decimal(12, 3);
  CHECK(pqt_logical_type_equal(&lt, &want));
  /* No LogicalType for these. */
  CHECK(!pqt_converted_to_logical(PQT_CT_INTERVAL, false, 0, false, 0, &lt));
  CHECK(!pqt_converted_to_logical(PQT_CT_MAP_KEY_VALUE, false, 0, false, 0, &lt));
  CHECK(!pqt_converted_to_logical(22, false, 0, false, 0, &lt));
  CHECK(!pqt_converted_to_logical(-1, false, 0, false, 0, &lt));
  CHECK_EQ_INT(lt.isset, 0);
}

static void test_logical_to_converted_table(void) {
  int32_t ct = -1, sc = -1, pr = -1;
  struct {
    int member;
    int ct;
  } simple[] = {
      {PQT_LT_STRING, PQT_CT_UTF8}, {PQT_LT_MAP, PQT_CT_MAP},   {PQT_LT_LIST, PQT_CT_LIST}, {PQT_LT_ENUM, PQT_CT_ENUM},
      {PQT_LT_DATE, PQT_CT_DATE},   {PQT_LT_JSON, PQT_CT_JSON}, {PQT_LT_BSON, PQT_CT_BSON},
  };
  for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++) {
    pqt_logical_type lt = fx_simple(simple[i].member);
    CHECK(pqt_logical_to_converted(&lt, &ct, &sc, &pr));
    CHECK_EQ_INT(ct, simple[i].ct);
  }
  int none[] = {PQT_LT_UNKNOWN,  PQT_LT_UUID,      PQT_LT_FLOAT16, PQT_LT_VARIANT,
                PQT_LT_GEOMETRY, PQT_LT_GEOGRAPHY, PQT_LT_VECTOR};
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
    pqt_logical_type lt = fx_simple(none[i]);
    CHECK_MSG(!pqt_logical_to_converted(&lt, &ct, &sc, &pr), "member %d", none[i]);
  }
  pqt_logical_type d = fx_decimal(18, 4);
  CHECK(pqt_logical_to_converted(&d, &ct, &sc, &pr));
  CHECK_EQ_INT(ct, PQT_CT_DECIMAL);
  CHECK_EQ_INT(pr, 18);
  CHECK_EQ_INT(sc, 4);
  /* TIME / TIMESTAMP: MILLIS and MICROS map whatever isAdjustedToUTC is. */
  for (int utc = 0; utc <= 1; utc++) {
    pqt_logical_type t = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_MILLIS, utc);
    CHECK(pqt_logical_to_converted(&t, &ct, NULL, NULL) && ct == PQT_CT_TIME_MILLIS);
    t = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_MICROS, utc);
    CHECK(pqt_logical_to_converted(&t, &ct, NULL, NULL) && ct == PQT_CT_TIME_MICROS);
    t = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_NANOS, utc);
    CHECK(!pqt_logical_to_converted(&t, &ct, NULL, NULL));
    t = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MILLIS, utc);
    CHECK(pqt_logical_to_converted(&t, &ct, NULL, NULL) && ct == PQT_CT_TIMESTAMP_MILLIS);
    t = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MICROS, utc);
    CHECK(pqt_logical_to_converted(&t, &ct, NULL, NULL) && ct == PQT_CT_TIMESTAMP_MICROS);
    t = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_NANOS, utc);
    CHECK(!pqt_logical_to_converted(&t, &ct, NULL, NULL));
  }
  int want[8] = {PQT_CT_INT_8,  PQT_CT_INT_16,  PQT_CT_INT_32,  PQT_CT_INT_64,
                 PQT_CT_UINT_8, PQT_CT_UINT_16, PQT_CT_UINT_32, PQT_CT_UINT_64};
  for (int i = 0; i < 8; i++) {
    pqt_logical_type t = fx_int(8 << (i % 4), i < 4);
    CHECK(pqt_logical_to_converted(&t, &ct, NULL, NULL));
    CHECK_EQ_INT(ct, want[i]);
  }
  pqt_logical_type bad = fx_int(12, true);
  CHECK(!pqt_logical_to_converted(&bad, &ct, NULL, NULL));
  /* Round trip of every ConvertedType that has a LogicalType. */
  for (int c = 0; c <= PQT_CT_INTERVAL; c++) {
    pqt_logical_type lt;
    if (!pqt_converted_to_logical(c, true, 1, true, 5, &lt)) {
      CHECK(c == PQT_CT_INTERVAL || c == PQT_CT_MAP_KEY_VALUE);
      continue;
    }
    int32_t back = -1;
    CHECK(pqt_logical_to_converted(&lt, &back, NULL, NULL));
    CHECK_EQ_INT(back, c);
  }
}

static void test_annotation_fits(void) {
  const char *why = NULL;
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(1), 2);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(2), 4);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(3), 6);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(4), 9);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(5), 11);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(8), 18);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(9), 21);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(16), 38);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(32), 76);
  CHECK_EQ_INT(pqt_decimal_max_precision_flba(0), 0);
  CHECK(pqt_decimal_max_precision_flba(INT32_MAX) > 0);

  pqt_logical_type d = fx_decimal(9, 2);
  CHECK(pqt_logical_type_fits(&d, false, PQT_INT32, -1, NULL));
  d = fx_decimal(10, 2);
  CHECK(!pqt_logical_type_fits(&d, false, PQT_INT32, -1, &why));
  CHECK(why && strstr(why, "INT32"));
  CHECK(pqt_logical_type_fits(&d, false, PQT_INT64, -1, NULL));
  d = fx_decimal(19, 0);
  CHECK(!pqt_logical_type_fits(&d, false, PQT_INT64, -1, NULL));
  CHECK(pqt_logical_type_fits(&d, false, PQT_FIXED_LEN_BYTE_ARRAY, 9, NULL));
  CHECK(!pqt_logical_type_fits(&d, false, PQT_FIXED_LEN_BYTE_ARRAY, 8, NULL));
  d = fx_decimal(1000, 3);
  CHECK(pqt_logical_type_fits(&d, false, PQT_BYTE_ARRAY, -1, NULL));
  CHECK(!pqt_logical_type_fits(&d, false, PQT_DOUBLE, -1, NULL));
  d = fx_decimal(5, 6); /* scale > precision */
  CHECK(!pqt_logical_type_fits(&d, false, PQT_INT32, -1, NULL));
  d = fx_decimal(5, 5);
  CHECK(pqt_logical_type_fits(&d, false, PQT_INT32, -1, NULL));
  d = fx_decimal(0, 0);
  CHECK(!pqt_logical_type_fits(&d, false, PQT_INT32, -1, NULL));

  pqt_logical_type f16 = fx_simple(PQT_LT_FLOAT16);
  CHECK(pqt_logical_type_fits(&f16, false, PQT_FIXED_LEN_BYTE_ARRAY, 2, NULL));
  CHECK(!pqt_logical_type_fits(&f16, false, PQT_FIXED_LEN_BYTE_ARRAY, 3, NULL));
  pqt_logical_type uuid = fx_simple(PQT_LT_UUID);
  CHECK(pqt_logical_type_fits(&uuid, false, PQT_FIXED_LEN_BYTE_ARRAY, 16, NULL));
  CHECK(!pqt_logical_type_fits(&uuid, false, PQT_BYTE_ARRAY, -1, NULL));
  pqt_logical_type str = fx_simple(PQT_LT_STRING);
  CHECK(pqt_logical_type_fits(&str, false, PQT_BYTE_ARRAY, -1, NULL));
  CHECK(!pqt_logical_type_fits(&str, false, PQT_INT32, -1, NULL));
  CHECK(!pqt_logical_type_fits(&str, true, -1, -1, NULL));
  pqt_logical_type list = fx_simple(PQT_LT_LIST);
  CHECK(pqt_logical_type_fits(&list, true, -1, -1, NULL));
  CHECK(!pqt_logical_type_fits(&list, false, PQT_INT32, -1, NULL));
  pqt_logical_type unk = fx_simple(PQT_LT_UNKNOWN);
  CHECK(pqt_logical_type_fits(&unk, false, PQT_INT96, -1, NULL));
  pqt_logical_type date = fx_simple(PQT_LT_DATE);
  CHECK(pqt_logical_type_fits(&date, false, PQT_INT32, -1, NULL));
  CHECK(!pqt_logical_type_fits(&date, false, PQT_INT64, -1, NULL));

  pqt_logical_type t = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_MILLIS, true);
  CHECK(pqt_logical_type_fits(&t, false, PQT_INT32, -1, NULL));
  CHECK(!pqt_logical_type_fits(&t, false, PQT_INT64, -1, NULL));
  t = fx_time(PQT_LT_TIME, PQT_TIME_UNIT_NANOS, false);
  CHECK(pqt_logical_type_fits(&t, false, PQT_INT64, -1, NULL));
  CHECK(!pqt_logical_type_fits(&t, false, PQT_INT32, -1, NULL));
  t = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_NANOS, true);
  CHECK(pqt_logical_type_fits(&t, false, PQT_INT64, -1, NULL));
  CHECK(!pqt_logical_type_fits(&t, false, PQT_INT96, -1, NULL));
  t.timestamp.unit.isset = 0; /* unknown unit */
  CHECK(!pqt_logical_type_fits(&t, false, PQT_INT64, -1, NULL));

  for (int bw = 8; bw <= 64; bw *= 2) {
    pqt_logical_type it = fx_int(bw, false);
    CHECK(pqt_logical_type_fits(&it, false, bw == 64 ? PQT_INT64 : PQT_INT32, -1, NULL));
    CHECK(!pqt_logical_type_fits(&it, false, bw == 64 ? PQT_INT32 : PQT_INT64, -1, NULL));
  }
  pqt_logical_type it7 = fx_int(7, true);
  CHECK(!pqt_logical_type_fits(&it7, false, PQT_INT32, -1, NULL));

  CHECK(pqt_converted_type_fits(PQT_CT_INTERVAL, false, PQT_FIXED_LEN_BYTE_ARRAY, 12, false, 0, 0, NULL));
  CHECK(!pqt_converted_type_fits(PQT_CT_INTERVAL, false, PQT_FIXED_LEN_BYTE_ARRAY, 16, false, 0, 0, NULL));
  CHECK(pqt_converted_type_fits(PQT_CT_MAP_KEY_VALUE, true, -1, -1, false, 0, 0, NULL));
  CHECK(!pqt_converted_type_fits(PQT_CT_DECIMAL, false, PQT_INT32, -1, false, 0, 0, NULL));
  CHECK(pqt_converted_type_fits(PQT_CT_DECIMAL, false, PQT_INT32, -1, true, 9, 0, NULL));
  CHECK(pqt_converted_type_fits(PQT_CT_UINT_64, false, PQT_INT64, -1, false, 0, 0, NULL));
  CHECK(!pqt_converted_type_fits(PQT_CT_UINT_64, false, PQT_INT32, -1, false, 0, 0, NULL));
  CHECK(!pqt_converted_type_fits(99, false, PQT_INT32, -1, false, 0, 0, NULL));
}

static void test_lenient_annotations_in_build(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("s", 5),
      /* UUID on int32: dropped */
      fx_lt(fx_leaf("u", PQT_REQUIRED, PQT_INT32), PQT_LT_UUID),
      /* bad LogicalType DECIMAL(20) on int32 but valid converted INT_16 */
      fx_ct(fx_with(fx_leaf("d", PQT_REQUIRED, PQT_INT32), fx_decimal(20, 0)), PQT_CT_INT_16),
      /* converted DECIMAL from scale/precision */
      fx_decimal_ct(fx_leaf("dec", PQT_REQUIRED, PQT_INT64), 12, 3),
      /* INTERVAL: converted only */
      fx_ct(fx_flba("iv", PQT_OPTIONAL, 12), PQT_CT_INTERVAL),
      /* LogicalType wins over a disagreeing ConvertedType */
      fx_ct(fx_with(fx_leaf("ts", PQT_REQUIRED, PQT_INT64), fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_NANOS, false)),
            PQT_CT_TIMESTAMP_MILLIS),
  };
  pqt_schema *s = build_ok(&a, e, FX_N(e));
  if (s) {
    CHECK_EQ_INT(s->leaves[0]->logical.isset, 0);
    CHECK(s->leaves[0]->annotation_invalid);
    pqt_logical_type i16 = fx_int(16, true);
    CHECK(pqt_logical_type_equal(&s->leaves[1]->logical, &i16));
    CHECK(s->leaves[1]->annotation_invalid);
    pqt_logical_type d = fx_decimal(12, 3);
    CHECK(pqt_logical_type_equal(&s->leaves[2]->logical, &d));
    CHECK(!s->leaves[2]->annotation_invalid);
    CHECK_EQ_INT(s->leaves[3]->logical.isset, 0);
    CHECK_EQ_INT(s->leaves[3]->converted_type, PQT_CT_INTERVAL);
    CHECK(!s->leaves[3]->annotation_invalid);
    pqt_logical_type ts = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_NANOS, false);
    CHECK(pqt_logical_type_equal(&s->leaves[4]->logical, &ts));
  }
  /* An invalid converted type on a leaf (LIST) is dropped too. */
  pqt_schema_element e2[] = {fx_root("s", 1), fx_ct(fx_leaf("x", PQT_REQUIRED, PQT_INT32), PQT_CT_LIST)};
  s = build_ok(&a, e2, 2);
  if (s) {
    CHECK_EQ_INT(s->leaves[0]->converted_type, -1);
    CHECK(s->leaves[0]->annotation_invalid);
    CHECK_EQ_INT(s->leaves[0]->kind, PQT_NODE_PRIMITIVE);
  }
  pqt_arena_reset(&a);
}

/* ---- malformed element lists ---------------------------------------------- */

static void expect_corrupt(const pqt_schema_element *e, int32_t n, const char *needle) {
  pqt_error err;
  pqt_status st = build_err(e, n, &err);
  CHECK_EQ_INT(st, PQT_ECORRUPT);
  CHECK_MSG(strstr(err.message, needle) != NULL, "message \"%s\" lacks \"%s\"", err.message, needle);
}

static void test_malformed(void) {
  pqt_error err;
  CHECK_EQ_INT(build_err(NULL, 0, &err), PQT_ECORRUPT);
  {
    pqt_schema_element e[] = {fx_root("s", 3), fx_leaf("a", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 2, "num_children 3");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 1), fx_leaf("a", PQT_REQUIRED, PQT_INT32),
                              fx_leaf("b", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 3, "remain");
  }
  {
    pqt_schema_element e[] = {fx_root("s", -1), fx_leaf("a", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 2, "negative num_children");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 2), fx_group("g", PQT_OPTIONAL, 2), fx_leaf("a", PQT_REQUIRED, PQT_INT32),
                              fx_leaf("b", PQT_REQUIRED, PQT_INT32)};
    /* g claims 2, root claims 2: the list ends with root missing one child. */
    expect_corrupt(e, 4, "num_children 2 is more");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 2), fx_group("g", PQT_OPTIONAL, 1), fx_leaf("a", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 3, "num_children");
  }
  {
    pqt_schema_element leaf = fx_leaf("a", PQT_REQUIRED, PQT_INT32);
    leaf.isset &= ~PQT_FIELD_MASK(schema_element, type);
    pqt_schema_element e[] = {fx_root("s", 1), leaf};
    expect_corrupt(e, 2, "neither a type nor children");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 1), fx_leaf("f", PQT_REQUIRED, PQT_FIXED_LEN_BYTE_ARRAY)};
    expect_corrupt(e, 2, "type_length");
    pqt_schema_element e2[] = {fx_root("s", 1), fx_flba("f", PQT_REQUIRED, 0)};
    expect_corrupt(e2, 2, "type_length");
    pqt_schema_element e3[] = {fx_root("s", 1), fx_flba("f", PQT_REQUIRED, -5)};
    expect_corrupt(e3, 2, "type_length");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 1), fx_leaf("a", PQT_REQUIRED, 8)};
    expect_corrupt(e, 2, "physical type 8");
    pqt_schema_element e2[] = {fx_root("s", 1), fx_leaf("a", PQT_REQUIRED, -1)};
    expect_corrupt(e2, 2, "physical type -1");
  }
  {
    pqt_schema_element e[] = {fx_root("s", 1), fx_leaf("a", 4, PQT_INT32)};
    expect_corrupt(e, 2, "repetition_type 4");
    pqt_schema_element leaf = fx_leaf("a", PQT_REQUIRED, PQT_INT32);
    leaf.isset &= ~PQT_FIELD_MASK(schema_element, repetition_type);
    pqt_schema_element e2[] = {fx_root("s", 1), leaf};
    expect_corrupt(e2, 2, "repetition_type is missing");
  }
  {
    pqt_schema_element leaf = fx_leaf("a", PQT_REQUIRED, PQT_INT32);
    leaf.isset &= ~PQT_FIELD_MASK(schema_element, name);
    pqt_schema_element e[] = {fx_root("s", 1), leaf};
    expect_corrupt(e, 2, "name is missing");
  }
  {
    pqt_schema_element e[] = {fx_leaf("root", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 1, "root is not a group");
  }
  {
    pqt_schema_element g = fx_group("g", PQT_OPTIONAL, 0);
    pqt_schema_element e[] = {fx_root("s", 1), g};
    expect_corrupt(e, 2, "neither a type nor children");
  }
  {
    /* num_children near INT32_MAX must not overflow anything. */
    pqt_schema_element e[] = {fx_root("s", INT32_MAX), fx_leaf("a", PQT_REQUIRED, PQT_INT32)};
    expect_corrupt(e, 2, "num_children");
  }
  {
    /* Negative name length from a broken decoder. */
    pqt_schema_element leaf = fx_leaf("a", PQT_REQUIRED, PQT_INT32);
    leaf.name.len = -3;
    pqt_schema_element e[] = {fx_root("s", 1), leaf};
    expect_corrupt(e, 2, "bad name length");
  }
  /* NULL arguments are misuse. */
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element r = fx_root("s", 0);
  CHECK_EQ_INT(pqt_schema_build(&r, 1, &a, NULL, NULL), PQT_EINVAL);
  CHECK_EQ_INT(pqt_schema_build(&r, 1, NULL, NULL, NULL), PQT_EINVAL);
  pqt_arena_reset(&a);
}

static void test_deep_nesting(void) {
  /* 10000 nested groups: rejected with PQT_ELIMIT, no recursion. */
  int32_t n = 10001;
  pqt_schema_element *e = calloc((size_t)n, sizeof *e);
  if (!e) {
    CHECK(e != NULL);
    return;
  }
  e[0] = fx_root("s", 1);
  for (int32_t i = 1; i < n - 1; i++) e[i] = fx_group("g", PQT_OPTIONAL, 1);
  e[n - 1] = fx_leaf("x", PQT_OPTIONAL, PQT_INT32);
  pqt_error err;
  CHECK_EQ_INT(build_err(e, n, &err), PQT_ELIMIT);
  CHECK(strstr(err.message, "deeper than 256") != NULL);

  /* Exactly PQT_SCHEMA_MAX_DEPTH is fine: 255 groups and a leaf at depth 256. */
  int32_t m = PQT_SCHEMA_MAX_DEPTH + 1;
  e[0] = fx_root("s", 1);
  for (int32_t i = 1; i < m - 1; i++) e[i] = fx_group("g", PQT_OPTIONAL, 1);
  e[m - 1] = fx_leaf("x", PQT_OPTIONAL, PQT_INT32);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema *s = build_ok(&a, e, m);
  if (s) {
    CHECK_EQ_INT(s->leaves[0]->depth, PQT_SCHEMA_MAX_DEPTH);
    CHECK_EQ_INT(s->leaves[0]->max_def, PQT_SCHEMA_MAX_DEPTH);
    CHECK_EQ_INT(s->leaves[0]->path_len, PQT_SCHEMA_MAX_DEPTH);
    CHECK_EQ_INT(strlen(s->leaves[0]->dotted_path), 2 * PQT_SCHEMA_MAX_DEPTH - 1);
  }
  pqt_arena_reset(&a);
  /* One more level is over. */
  e[0] = fx_root("s", 1);
  for (int32_t i = 1; i < m; i++) e[i] = fx_group("g", PQT_OPTIONAL, 1);
  e[m] = fx_leaf("x", PQT_OPTIONAL, PQT_INT32);
  CHECK_EQ_INT(build_err(e, m + 1, &err), PQT_ELIMIT);
  free(e);
}

static void test_path_bytes_capped(void) {
  /* 200 nested groups with 4 KiB names over 20000 leaves would need
   * 20000 * 200 * 4 KiB = 16 GB of dotted paths: refused before allocating. */
  static char big[4097];
  memset(big, 'n', 4096);
  int32_t depth = 200, leaves = 20000;
  int32_t n = 1 + depth + leaves;
  pqt_schema_element *e = calloc((size_t)n, sizeof *e);
  if (!e) {
    CHECK(e != NULL);
    return;
  }
  e[0] = fx_root("s", 1);
  for (int32_t i = 1; i < depth; i++) e[i] = fx_group(big, PQT_OPTIONAL, 1);
  e[depth] = fx_group(big, PQT_OPTIONAL, leaves);
  for (int32_t i = 0; i < leaves; i++) e[depth + 1 + i] = fx_leaf("x", PQT_REQUIRED, PQT_INT32);
  pqt_error err;
  CHECK_EQ_INT(build_err(e, n, &err), PQT_ELIMIT);
  CHECK(strstr(err.message, "leaf paths") != NULL);
  free(e);
}

static void test_many_leaves_fast(void) {
  int32_t leaves = 100000;
  pqt_schema_element *e = calloc((size_t)leaves + 1, sizeof *e);
  if (!e) {
    CHECK(e != NULL);
    return;
  }
  static char names[100000][8];
  e[0] = fx_root("wide", leaves);
  for (int32_t i = 0; i < leaves; i++) {
    snprintf(names[i], sizeof names[i], "c%d", (int)i);
    e[i + 1] = fx_leaf(names[i], PQT_OPTIONAL, PQT_INT64);
  }
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  clock_t t0 = clock();
  pqt_schema *s = build_ok(&a, e, leaves + 1);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("  100k-leaf build: %.3f s\n", secs); /* informational: speed belongs to bench/ */
  if (s) {
    CHECK_EQ_INT(s->n_leaves, leaves);
    check_leaf(s, 99999, "c99999", 1, 0);
    CHECK_EQ_INT(s->root->n_leaves, leaves);
  }
  pqt_arena_reset(&a);
  free(e);
}

/* Deterministic mutation of a valid nested list: every build either succeeds
 * with consistent invariants or fails cleanly (ASan/UBSan watch the rest). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rng(void) {
  pqt_test_xorshift(&rng_state);
  return (uint32_t)(rng_state >> 11);
}

static void test_mutations(void) {
  const pqt_schema_element base[] = {
      fx_root("s", 3),
      fx_ct(fx_group("a", PQT_OPTIONAL, 1), PQT_CT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_ct(fx_group("element", PQT_OPTIONAL, 1), PQT_CT_MAP),
      fx_group("key_value", PQT_REPEATED, 2),
      fx_ct(fx_leaf("key", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_CT_UTF8),
      fx_decimal_ct(fx_flba("value", PQT_OPTIONAL, 8), 18, 2),
      fx_leaf("b", PQT_REPEATED, PQT_INT64),
      fx_ct(fx_group("c", PQT_OPTIONAL, 1), PQT_CT_MAP_KEY_VALUE),
      fx_leaf("d", PQT_REQUIRED, PQT_INT32),
  };
  enum { N = FX_N(base) };
  int ok = 0, bad = 0;
  for (int iter = 0; iter < 20000; iter++) {
    pqt_schema_element e[N];
    memcpy(e, base, sizeof e);
    int32_t n = N - (int32_t)(rng() % 3 == 0 ? rng() % N : 0);
    int muts = 1 + (int)(rng() % 3);
    for (int m = 0; m < muts; m++) {
      pqt_schema_element *x = &e[rng() % N];
      switch (rng() % 8) {
        case 0: x->num_children = (int32_t)(rng() % 6) - 1; break;
        case 1: x->isset ^= 1u << (rng() % 12); break;
        case 2: x->repetition_type = (int32_t)(rng() % 6) - 1; break;
        case 3: x->type = (int32_t)(rng() % 10) - 1; break;
        case 4:
          x->converted_type = (int32_t)(rng() % 24) - 1;
          PQT_SET_FIELD(x, schema_element, converted_type);
          break;
        case 5: x->type_length = (int32_t)(rng() % 20) - 2; break;
        case 6:
          x->logical_type.isset = 1u << (rng() % 21);
          PQT_SET_FIELD(x, schema_element, logical_type);
          break;
        case 7: x->num_children = (int32_t)rng(); break;
      }
    }
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_schema *s = NULL;
    pqt_error err;
    pqt_error_init(&err);
    pqt_status st = pqt_schema_build(e, n, &a, &s, &err);
    if (st == PQT_OK) {
      ok++;
      int32_t leaves = 0;
      for (int32_t i = 0; i < s->n_nodes; i++) {
        const pqt_schema_node *nd = &s->nodes[i];
        if (nd->is_leaf) {
          CHECK(s->leaves[nd->column_index] == nd);
          leaves++;
        }
        if (nd->parent) {
          CHECK(nd->parent->children[nd->child_index] == nd);
          CHECK(nd->max_def >= nd->parent->max_def && nd->max_rep >= nd->parent->max_rep);
        }
        if (nd->kind == PQT_NODE_LIST) CHECK(nd->element && nd->repeated);
        if (nd->kind == PQT_NODE_MAP) CHECK(nd->key && nd->repeated);
      }
      CHECK_EQ_INT(leaves, s->n_leaves);
      pqt_buf b;
      pqt_buf_init(&b, NULL);
      CHECK_OK(pqt_schema_to_text(s, &b, NULL));
      pqt_buf_free(&b);
    } else {
      bad++;
      CHECK(st == PQT_ECORRUPT || st == PQT_ELIMIT);
      CHECK(err.message[0] != '\0');
    }
    pqt_arena_reset(&a);
  }
  CHECK(ok > 100 && bad > 100);
}

/* The one "is this column text" test (meta/schema_types.c). */
static void test_is_text_type(void) {
  CHECK(pqt_is_text_type(PQT_LT_STRING, -1));
  CHECK(pqt_is_text_type(PQT_LT_ENUM, -1));
  CHECK(pqt_is_text_type(PQT_LT_JSON, PQT_CT_JSON));
  CHECK(!pqt_is_text_type(PQT_LT_BSON, -1));
  CHECK(!pqt_is_text_type(PQT_LT_UUID, PQT_CT_UTF8)); /* the logical type decides when there is one */
  CHECK(pqt_is_text_type(0, PQT_CT_UTF8));
  CHECK(pqt_is_text_type(0, PQT_CT_ENUM));
  CHECK(pqt_is_text_type(0, PQT_CT_JSON));
  CHECK(!pqt_is_text_type(0, PQT_CT_BSON));
  CHECK(!pqt_is_text_type(0, -1));
}

RUN_TESTS("schema", TEST_CASE(test_is_text_type), TEST_CASE(test_mutations), TEST_CASE(test_flat),
          TEST_CASE(test_nested_struct), TEST_CASE(test_seed004_mydeep),
          TEST_CASE(test_root_repetition_ignored_and_empty_schema),
          TEST_CASE(test_group_with_type_is_group_and_empty_names), TEST_CASE(test_list_three_level),
          TEST_CASE(test_list_legacy_rules), TEST_CASE(test_nested_lists), TEST_CASE(test_bare_repeated),
          TEST_CASE(test_list_bad_shape_is_struct), TEST_CASE(test_maps), TEST_CASE(test_map_bad_shapes),
          TEST_CASE(test_impala_nested), TEST_CASE(test_vector), TEST_CASE(test_converted_to_logical_table),
          TEST_CASE(test_logical_to_converted_table), TEST_CASE(test_annotation_fits),
          TEST_CASE(test_lenient_annotations_in_build), TEST_CASE(test_malformed), TEST_CASE(test_deep_nesting),
          TEST_CASE(test_path_bytes_capped), TEST_CASE(test_many_leaves_fast))
