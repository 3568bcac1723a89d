/* Unit tests for src/meta/schema_text.c: printing the message syntax,
 * parsing it back (round trips over many schemas), legacy annotation names,
 * name quoting, comments and parse errors with line:column. */
#include <time.h>

#include "harness.h"
#include "rng.h"
#include "test_schema_fixtures.h"

/* Parse, build, print; returns malloc'd text or NULL (and reports). */
static char *reprint(const char *text, pqt_error *err_out) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_error err;
  pqt_error_init(&err);
  pqt_schema_element *e = NULL;
  int32_t n = 0;
  char *res = NULL;
  pqt_schema *s = NULL;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  if (pqt_schema_parse(text, strlen(text), &a, &e, &n, &err) == PQT_OK &&
      pqt_schema_build(e, n, &a, &s, &err) == PQT_OK && pqt_schema_to_text(s, &b, &err) == PQT_OK &&
      pqt_buf_append(&b, "", 1, &err) == PQT_OK) {
    res = strdup((const char *)b.data);
  }
  if (err_out) *err_out = err;
  pqt_buf_free(&b);
  pqt_arena_reset(&a);
  return res;
}

static void check_roundtrip(const char *text) {
  pqt_error err;
  char *out = reprint(text, &err);
  CHECK_MSG(out != NULL, "parse/build failed: %s\n%s", err.message, text);
  if (out) CHECK_EQ_STR(out, text);
  free(out);
}

static void check_reprints_as(const char *text, const char *want) {
  pqt_error err;
  char *out = reprint(text, &err);
  CHECK_MSG(out != NULL, "parse/build failed: %s", err.message);
  if (out) CHECK_EQ_STR(out, want);
  free(out);
}

static void check_parse_error(const char *text, const char *want_substr) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_error err;
  pqt_error_init(&err);
  pqt_schema_element *e = NULL;
  int32_t n = 0;
  pqt_status st = pqt_schema_parse(text, strlen(text), &a, &e, &n, &err);
  CHECK_EQ_INT(st, PQT_EINVAL);
  CHECK_MSG(strstr(err.message, want_substr) != NULL, "message \"%s\" lacks \"%s\"", err.message, want_substr);
  pqt_arena_reset(&a);
}

/* ---- printing ------------------------------------------------------------ */

static void test_print_hand_built(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element x = fx_leaf("x", PQT_REQUIRED, PQT_INT32);
  x.field_id = 7;
  PQT_SET_FIELD(&x, schema_element, field_id);
  pqt_schema_element e[] = {
      fx_root("schema", 6),
      fx_ct(fx_lt(fx_leaf("text", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_LT_STRING), PQT_CT_UTF8),
      fx_ct(fx_lt(fx_group("a", PQT_OPTIONAL, 1), PQT_LT_LIST), PQT_CT_LIST),
      fx_group("list", PQT_REPEATED, 1),
      fx_leaf("element", PQT_OPTIONAL, PQT_INT32),
      fx_lt(fx_flba("id", PQT_REQUIRED, 16), PQT_LT_UUID),
      fx_with(fx_leaf("ts", PQT_OPTIONAL, PQT_INT64), fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MICROS, true)),
      fx_with(fx_decimal_ct(fx_leaf("d", PQT_REQUIRED, PQT_INT32), 9, 2), fx_decimal(9, 2)),
      x,
  };
  pqt_schema *s = NULL;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_OK(pqt_schema_build(e, FX_N(e), &a, &s, &err));
  if (!s) return;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_schema_to_text(s, &b, &err));
  CHECK_OK(pqt_buf_append(&b, "", 1, &err));
  CHECK_EQ_STR((const char *)b.data,
               "message schema {\n"
               "  required binary text (STRING);\n"
               "  optional group a (LIST) {\n"
               "    repeated group list {\n"
               "      optional int32 element;\n"
               "    }\n"
               "  }\n"
               "  required fixed_len_byte_array(16) id (UUID);\n"
               "  optional int64 ts (TIMESTAMP(MICROS,true));\n"
               "  required int32 d (DECIMAL(9,2));\n"
               "  required int32 x = 7;\n"
               "}\n");
  pqt_buf_free(&b);
  pqt_arena_reset(&a);
}

static void test_print_converted_only(void) {
  /* Old files carry only ConvertedType: the printer shows those names. */
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element e[] = {
      fx_root("hive_schema", 6),
      fx_ct(fx_leaf("s", PQT_OPTIONAL, PQT_BYTE_ARRAY), PQT_CT_UTF8),
      fx_ct(fx_leaf("t", PQT_OPTIONAL, PQT_INT64), PQT_CT_TIMESTAMP_MILLIS),
      fx_ct(fx_leaf("i", PQT_OPTIONAL, PQT_INT32), PQT_CT_UINT_16),
      fx_decimal_ct(fx_flba("d", PQT_OPTIONAL, 5), 11, 4),
      fx_ct(fx_flba("iv", PQT_OPTIONAL, 12), PQT_CT_INTERVAL),
      fx_leaf("raw", PQT_OPTIONAL, PQT_INT96),
  };
  pqt_schema *s = NULL;
  CHECK_OK(pqt_schema_build(e, FX_N(e), &a, &s, NULL));
  if (!s) return;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_schema_to_text(s, &b, NULL));
  CHECK_OK(pqt_buf_append(&b, "", 1, NULL));
  CHECK_EQ_STR((const char *)b.data,
               "message hive_schema {\n"
               "  optional binary s (UTF8);\n"
               "  optional int64 t (TIMESTAMP_MILLIS);\n"
               "  optional int32 i (UINT_16);\n"
               "  optional fixed_len_byte_array(5) d (DECIMAL(11,4));\n"
               "  optional fixed_len_byte_array(12) iv (INTERVAL);\n"
               "  optional int96 raw;\n"
               "}\n");
  pqt_buf_free(&b);
  pqt_arena_reset(&a);
}

/* ---- round trips ---------------------------------------------------------- */

static void test_roundtrip_many(void) {
  static const char *const texts[] = {
      "message schema {\n"
      "}\n",
      "message m {\n"
      "  required boolean b;\n"
      "  optional int32 i;\n"
      "  repeated int64 l;\n"
      "  required int96 t;\n"
      "  optional float f;\n"
      "  optional double d;\n"
      "  optional binary bin;\n"
      "  optional fixed_len_byte_array(3) fl;\n"
      "}\n",
      "message spark_schema {\n"
      "  optional binary s (STRING);\n"
      "  optional binary e (ENUM);\n"
      "  optional binary j (JSON);\n"
      "  optional binary bs (BSON);\n"
      "  optional fixed_len_byte_array(16) u (UUID);\n"
      "  optional fixed_len_byte_array(2) h (FLOAT16);\n"
      "  optional int32 dt (DATE);\n"
      "  optional int32 n (UNKNOWN);\n"
      "}\n",
      "message times {\n"
      "  required int32 t1 (TIME(MILLIS,true));\n"
      "  required int32 t2 (TIME(MILLIS,false));\n"
      "  required int64 t3 (TIME(MICROS,true));\n"
      "  required int64 t4 (TIME(NANOS,false));\n"
      "  required int64 s1 (TIMESTAMP(MILLIS,true));\n"
      "  required int64 s2 (TIMESTAMP(MICROS,false));\n"
      "  required int64 s3 (TIMESTAMP(NANOS,true));\n"
      "}\n",
      "message ints {\n"
      "  required int32 a (INTEGER(8,true));\n"
      "  required int32 b (INTEGER(16,false));\n"
      "  required int32 c (INTEGER(32,true));\n"
      "  required int64 d (INTEGER(64,false));\n"
      "  required int32 e (DECIMAL(9,2));\n"
      "  required int64 f (DECIMAL(18,0));\n"
      "  required fixed_len_byte_array(16) g (DECIMAL(38,10));\n"
      "  required binary h (DECIMAL(100,100));\n"
      "}\n",
      "message nested {\n"
      "  optional group a (LIST) {\n"
      "    repeated group list {\n"
      "      optional group element (LIST) {\n"
      "        repeated group list {\n"
      "          required int32 element;\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  required group m (MAP) {\n"
      "    repeated group key_value {\n"
      "      required binary key (STRING);\n"
      "      optional group value {\n"
      "        optional double x = 3;\n"
      "        repeated binary tags (STRING) = 4;\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  optional group legacy (MAP) {\n"
      "    repeated group map (MAP_KEY_VALUE) {\n"
      "      required binary key (STRING);\n"
      "    }\n"
      "  }\n"
      "}\n",
      "message geo {\n"
      "  optional binary g1 (GEOMETRY);\n"
      "  optional binary g2 (GEOMETRY(OGC:CRS84));\n"
      "  optional binary g3 (GEOMETRY(\"projjson:my key, with \\\"quotes\\\"\"));\n"
      "  optional binary g4 (GEOGRAPHY);\n"
      "  optional binary g5 (GEOGRAPHY(srid:4326));\n"
      "  optional binary g6 (GEOGRAPHY(srid:4326,KARNEY));\n"
      "  optional binary g7 (GEOGRAPHY(,VINCENTY));\n"
      "  optional group v1 (VARIANT) {\n"
      "    required binary metadata;\n"
      "    required binary value;\n"
      "  }\n"
      "  optional group v2 (VARIANT(1)) {\n"
      "    required binary metadata;\n"
      "    optional binary value;\n"
      "    optional int64 typed_value;\n"
      "  }\n"
      "}\n",
      "message vec {\n"
      "  required group emb (VECTOR) = 1 {\n"
      "    vector group list [768] {\n"
      "      required float element;\n"
      "    }\n"
      "  }\n"
      "  vector int32 v [3];\n"
      "}\n",
      "message ids {\n"
      "  required int32 a = 0;\n"
      "  optional group g = -5 {\n"
      "    required int64 b (INTEGER(64,true)) = 2147483647;\n"
      "  }\n"
      "}\n",
      "message `` {\n"
      "  required int32 ``;\n"
      "  required int32 `a b`;\n"
      "  required int32 `x``y`;\n"
      "  required int32 `\\x01\\x7f`;\n"
      "  required int32 `#hash`;\n"
      "  required int32 `//slash`;\n"
      "  required int32 `a;b`;\n"
      "  required int32 back\\slash;\n"
      "  required int32 a.b-c:d/e#f;\n"
      "  required int32 \xc3\xa9t\xc3\xa9;\n"
      "}\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) check_roundtrip(texts[i]);
}

static void test_legacy_names_and_both_annotations(void) {
  const char *text =
      "message m {\n"
      "  optional binary s (UTF8);\n"
      "  optional int64 t (TIMESTAMP_MILLIS);\n"
      "  optional int64 tu (TIMESTAMP_MICROS);\n"
      "  optional int32 tm (TIME_MILLIS);\n"
      "  optional int64 tc (TIME_MICROS);\n"
      "  optional int32 i8 (INT_8);\n"
      "  optional int64 u64 (UINT_64);\n"
      "  optional fixed_len_byte_array(12) iv (INTERVAL);\n"
      "  optional int32 d (DECIMAL(5));\n"
      "  optional int32 n (INT(16, false));\n"
      "  optional int64 ns (TIME(NANOS,true));\n"
      "}\n";
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element *e = NULL;
  int32_t n = 0;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_OK(pqt_schema_parse(text, strlen(text), &a, &e, &n, &err));
  CHECK_EQ_INT(n, 12);
  if (n == 12) {
    CHECK(PQT_HAS_FIELD(&e[1], schema_element, converted_type) && e[1].converted_type == PQT_CT_UTF8);
    CHECK(PQT_HAS_FIELD(&e[1], schema_element, logical_type) && e[1].logical_type.isset == (1u << PQT_LT_STRING));
    pqt_logical_type ts = fx_time(PQT_LT_TIMESTAMP, PQT_TIME_UNIT_MILLIS, true);
    CHECK(pqt_logical_type_equal(&e[2].logical_type, &ts));
    CHECK_EQ_INT(e[2].converted_type, PQT_CT_TIMESTAMP_MILLIS);
    CHECK_EQ_INT(e[3].converted_type, PQT_CT_TIMESTAMP_MICROS);
    CHECK_EQ_INT(e[4].converted_type, PQT_CT_TIME_MILLIS);
    CHECK_EQ_INT(e[5].converted_type, PQT_CT_TIME_MICROS);
    pqt_logical_type i8 = fx_int(8, true);
    CHECK(pqt_logical_type_equal(&e[6].logical_type, &i8));
    CHECK_EQ_INT(e[7].converted_type, PQT_CT_UINT_64);
    CHECK(PQT_HAS_FIELD(&e[8], schema_element, converted_type) && e[8].converted_type == PQT_CT_INTERVAL);
    CHECK(!PQT_HAS_FIELD(&e[8], schema_element, logical_type));
    CHECK(PQT_HAS_FIELD(&e[9], schema_element, scale) && PQT_HAS_FIELD(&e[9], schema_element, precision));
    CHECK_EQ_INT(e[9].precision, 5);
    CHECK_EQ_INT(e[9].scale, 0);
    CHECK_EQ_INT(e[9].converted_type, PQT_CT_DECIMAL);
    CHECK_EQ_INT(e[10].converted_type, PQT_CT_UINT_16);
    CHECK(PQT_HAS_FIELD(&e[11], schema_element, logical_type));
    CHECK(!PQT_HAS_FIELD(&e[11], schema_element, converted_type)); /* TIME(NANOS) has no ConvertedType */
  }
  pqt_arena_reset(&a);
  check_reprints_as(text,
                    "message m {\n"
                    "  optional binary s (STRING);\n"
                    "  optional int64 t (TIMESTAMP(MILLIS,true));\n"
                    "  optional int64 tu (TIMESTAMP(MICROS,true));\n"
                    "  optional int32 tm (TIME(MILLIS,true));\n"
                    "  optional int64 tc (TIME(MICROS,true));\n"
                    "  optional int32 i8 (INTEGER(8,true));\n"
                    "  optional int64 u64 (INTEGER(64,false));\n"
                    "  optional fixed_len_byte_array(12) iv (INTERVAL);\n"
                    "  optional int32 d (DECIMAL(5,0));\n"
                    "  optional int32 n (INTEGER(16,false));\n"
                    "  optional int64 ns (TIME(NANOS,true));\n"
                    "}\n");
  /* MAP_KEY_VALUE sets only the ConvertedType; a stray one reads as a MAP. */
  const char *mkv =
      "message m {\n"
      "  optional group my_map (MAP_KEY_VALUE) {\n"
      "    repeated group map {\n"
      "      required binary key (UTF8);\n"
      "      optional int32 value;\n"
      "    }\n"
      "  }\n"
      "}\n";
  pqt_arena_init(&a, NULL);
  pqt_schema *s = NULL;
  CHECK_OK(pqt_schema_parse(mkv, strlen(mkv), &a, &e, &n, &err));
  CHECK_OK(pqt_schema_build(e, n, &a, &s, &err));
  if (s) {
    CHECK(!PQT_HAS_FIELD(&e[1], schema_element, logical_type));
    CHECK_EQ_INT(e[1].converted_type, PQT_CT_MAP_KEY_VALUE);
    CHECK_EQ_INT(s->nodes[1].kind, PQT_NODE_MAP);
    CHECK(s->nodes[1].value == &s->nodes[4]);
  }
  pqt_arena_reset(&a);
}

static void test_lenient_syntax(void) {
  /* Quoting is only kept where needed. */
  check_reprints_as("message `m` { required int32 `b\\\\s`; }", "message m {\n  required int32 b\\s;\n}\n");
  /* Comments, case, extra spaces, ';' after '}', spec-style examples. */
  check_reprints_as(
      "# a comment line\n"
      "MESSAGE  m{ // trailing comment\n"
      "  OPTIONAL Group my_list (list) {\n"
      "    repeated group element {\n"
      "      required binary str (utf8);\n"
      "    };\n"
      "  }\n"
      "  Required INT32 x(integer( 8 , TRUE ))=9;\n"
      "  required fixed_len_byte_array ( 4 ) f;\n"
      "}  \n  # done\n",
      "message m {\n"
      "  optional group my_list (LIST) {\n"
      "    repeated group element {\n"
      "      required binary str (STRING);\n"
      "    }\n"
      "  }\n"
      "  required int32 x (INTEGER(8,true)) = 9;\n"
      "  required fixed_len_byte_array(4) f;\n"
      "}\n");
}

static void test_parse_builds_levels(void) {
  /* The seed 004 schema, written in the syntax, gives the same levels. */
  const char *text =
      "message MyDeep {\n"
      "  optional group nest {\n"
      "    optional binary nest (STRING);\n"
      "    repeated group repeated {\n"
      "      optional group nest {\n"
      "        repeated binary repeated (STRING);\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "}\n";
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_schema_element *e = NULL;
  int32_t n = 0;
  pqt_schema *s = NULL;
  CHECK_OK(pqt_schema_parse(text, strlen(text), &a, &e, &n, NULL));
  CHECK_OK(pqt_schema_build(e, n, &a, &s, NULL));
  if (s) {
    CHECK_EQ_INT(n, 6);
    CHECK_EQ_INT(e[1].num_children, 2);
    CHECK_EQ_INT(s->n_leaves, 2);
    CHECK_EQ_STR(s->leaves[1]->dotted_path, "nest.repeated.nest.repeated");
    CHECK_EQ_INT(s->leaves[1]->max_def, 4);
    CHECK_EQ_INT(s->leaves[1]->max_rep, 2);
    CHECK_EQ_INT(s->leaves[0]->max_def, 2);
  }
  pqt_arena_reset(&a);
  check_roundtrip(text);
}

static void test_parse_errors(void) {
  check_parse_error("", "line 1, column 1: expected 'message'");
  check_parse_error("message m {\n  required int33 x;\n}\n",
                    "line 2, column 12: expected 'group' or a primitive type, found 'int33'");
  check_parse_error("message m {\n  required int32 x\n}\n", "line 3, column 1: expected ';'");
  check_parse_error("message m {\n  required int32 x (FOO);\n}\n", "line 2, column 21: unknown annotation 'FOO'");
  check_parse_error("message m {\n  required int32 x (UUID);\n}\n",
                    "line 2, column 21: annotation UUID does not fit this type: UUID needs "
                    "FIXED_LEN_BYTE_ARRAY(16)");
  check_parse_error("message m {\n  required int32 x (DECIMAL(10,2));\n}\n", "DECIMAL precision over 9 on INT32");
  check_parse_error("message m {\n  required binary x (LIST);\n}\n", "annotation needs a group");
  check_parse_error("message m {\n  required group g (STRING) {\n    required int32 x;\n  }\n}\n",
                    "does not fit this group");
  check_parse_error("message m {\n  required int32 x;\n", "line 3, column 1: the text ends inside a group");
  check_parse_error("message m {\n}\nextra", "line 3, column 1: unexpected text after the message");
  check_parse_error("message m {\n  optional group g {\n  }\n}\n", "line 3, column 3: group \"g\" has no fields");
  check_parse_error("message m {\n  vector int32 v;\n}\n", "vector repetition needs a length");
  check_parse_error("message m {\n  required int32 v [3];\n}\n", "only allowed with vector");
  check_parse_error("message m {\n  required int32 x = 2147483648;\n}\n", "field id out of range");
  check_parse_error("message m {\n  required int32 x = abc;\n}\n", "expected a field id");
  check_parse_error("message m {\n  required fixed_len_byte_array(0) x;\n}\n", "must be positive");
  check_parse_error("message m {\n  required int32 x (INTEGER(12,true));\n}\n", "bit width");
  check_parse_error("message m {\n  required int64 x (TIMESTAMP(SECONDS,true));\n}\n", "time unit");
  check_parse_error("message m {\n  required int64 x (TIMESTAMP(MILLIS,yes));\n}\n", "true or false");
  check_parse_error("message m {\n  required int64 x (TIMESTAMP(MILLIS));\n}\n", "takes 2 to 2 parameters");
  check_parse_error("message m {\n  required binary x (GEOGRAPHY(a,FLAT));\n}\n", "unknown edge");
  check_parse_error("message m {\n  required int32 `abc;\n}\n", "line 2, column 18: line break inside a quoted name");
  check_parse_error("message m {\n  required int32 `a\\qb`;\n}\n", "unknown escape");
  check_parse_error("message m {\n  sometimes int32 x;\n}\n", "line 2, column 3: expected a repetition");
  check_parse_error("message m {\n  required int32 ;\n}\n", "line 2, column 18: expected a name");
  check_parse_error("message m {\n  required int32 x\x01;\n}\n", "control byte 0x01");
}

static void test_parse_deep_and_wide(void) {
  /* 300 nested groups: refused with a clear message, no recursion. */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_buf_printf(&b, NULL, "message m {\n"));
  for (int i = 0; i < 300; i++) CHECK_OK(pqt_buf_printf(&b, NULL, "optional group g {\n"));
  CHECK_OK(pqt_buf_printf(&b, NULL, "required int32 x;\n"));
  for (int i = 0; i < 301; i++) CHECK_OK(pqt_buf_printf(&b, NULL, "}\n"));
  CHECK_OK(pqt_buf_append(&b, "", 1, NULL));
  check_parse_error((const char *)b.data, "nesting deeper than 256");

  /* 100000 fields: parse, build and print, and round trip. */
  pqt_buf_clear(&b);
  CHECK_OK(pqt_buf_printf(&b, NULL, "message wide {\n"));
  for (int i = 0; i < 100000; i++)
    CHECK_OK(pqt_buf_printf(&b, NULL, "  optional int64 c%d (TIMESTAMP(MICROS,true)) = %d;\n", i, i));
  CHECK_OK(pqt_buf_printf(&b, NULL, "}\n"));
  CHECK_OK(pqt_buf_append(&b, "", 1, NULL));
  clock_t t0 = clock();
  char *out = reprint((const char *)b.data, NULL);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(out != NULL);
  if (out) CHECK(strcmp(out, (const char *)b.data) == 0);
  /* speed is for bench/, not a test assertion: printed only (ctest's timeout bounds a hang) */
  printf("  100k-field round trip: %.3f s\n", secs);
  free(out);
  pqt_buf_free(&b);
}

static void test_print_every_annotation_from_elements(void) {
  /* annotation text straight from elements, incl. odd values a file may hold */
  struct {
    pqt_schema_element e;
    const char *want;
  } rows[6];
  memset(rows, 0, sizeof rows);
  rows[0].e = fx_with(fx_leaf("x", PQT_REQUIRED, PQT_INT32), fx_int(8, false));
  rows[0].want = "INTEGER(8,false)";
  rows[1].e = fx_ct(fx_leaf("x", PQT_REQUIRED, PQT_INT32), 77);
  rows[1].want = "ConvertedType(77)";
  rows[2].e = fx_leaf("x", PQT_REQUIRED, PQT_INT32);
  rows[2].e.isset |=
      PQT_FIELD_MASK(schema_element, logical_type); /* LogicalType of a member this version does not know */
  rows[2].want = "";
  rows[3].e = fx_lt(fx_leaf("x", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_LT_GEOGRAPHY);
  rows[3].e.logical_type.geography.algorithm = 9;
  PQT_SET_FIELD(&rows[3].e.logical_type.geography, geography_type, algorithm);
  rows[3].want = "GEOGRAPHY(,9)";
  rows[4].e = fx_ct(fx_lt(fx_group("g", PQT_OPTIONAL, 1), PQT_LT_MAP), PQT_CT_MAP);
  rows[4].want = "MAP";
  rows[5].e = fx_lt(fx_leaf("x", PQT_REQUIRED, PQT_BYTE_ARRAY), PQT_LT_GEOMETRY);
  rows[5].e.logical_type.geometry.crs = fx_bytes("a\nb");
  PQT_SET_FIELD(&rows[5].e.logical_type.geometry, geometry_type, crs);
  rows[5].want = "GEOMETRY(\"a\\x0ab\")";
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    CHECK_OK(pqt_schema_annotation_text(&rows[i].e, &b, NULL));
    CHECK_OK(pqt_buf_append(&b, "", 1, NULL));
    CHECK_EQ_STR((const char *)b.data, rows[i].want);
    pqt_buf_free(&b);
  }
}

/* Random byte edits of valid text: the parser must fail cleanly or produce a
 * list that builds or is rejected cleanly. */
static void test_text_mutations(void) {
  const char *base =
      "message m {\n"
      "  optional group a (LIST) {\n"
      "    repeated group list {\n"
      "      optional binary element (GEOGRAPHY(\"x,y\",KARNEY));\n"
      "    }\n"
      "  }\n"
      "  required fixed_len_byte_array(16) `u u` (UUID) = 3;\n"
      "  required group emb (VECTOR) {\n"
      "    vector group list [4] {\n"
      "      required int32 element (DECIMAL(9,2));\n"
      "    }\n"
      "  }\n"
      "}\n";
  static const char alphabet[] = "{}();=,[]`\"\\x# \n/0123456789abgimrqvTUV-";
  size_t len = strlen(base);
  uint64_t st = 88172645463325252ull;
  char buf[512];
  for (int iter = 0; iter < 20000; iter++) {
    memcpy(buf, base, len);
    size_t n = len;
    int muts = 1 + iter % 4;
    for (int m = 0; m < muts; m++) {
      pqt_test_xorshift(&st);
      size_t pos = (size_t)(st % n);
      char c = alphabet[(st >> 20) % (sizeof alphabet - 1)];
      switch ((st >> 40) % 3) {
        case 0: buf[pos] = c; break;
        case 1:
          memmove(buf + pos, buf + pos + 1, n - pos - 1);
          n--;
          break;
        case 2:
          if (n + 1 < sizeof buf) {
            memmove(buf + pos + 1, buf + pos, n - pos);
            buf[pos] = c;
            n++;
          }
          break;
      }
    }
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_schema_element *e = NULL;
    int32_t ne = 0;
    pqt_error err;
    pqt_error_init(&err);
    pqt_status s1 = pqt_schema_parse(buf, n, &a, &e, &ne, &err);
    if (s1 == PQT_OK) {
      pqt_schema *s = NULL;
      pqt_status s2 = pqt_schema_build(e, ne, &a, &s, &err);
      CHECK(s2 == PQT_OK || s2 == PQT_ECORRUPT);
    } else {
      CHECK_EQ_INT(s1, PQT_EINVAL);
      CHECK(strncmp(err.message, "schema text line ", 17) == 0);
    }
    pqt_arena_reset(&a);
  }
}

RUN_TESTS("schema_text", TEST_CASE(test_text_mutations), TEST_CASE(test_print_hand_built),
          TEST_CASE(test_print_converted_only), TEST_CASE(test_roundtrip_many),
          TEST_CASE(test_legacy_names_and_both_annotations), TEST_CASE(test_lenient_syntax),
          TEST_CASE(test_parse_builds_levels), TEST_CASE(test_parse_errors), TEST_CASE(test_parse_deep_and_wide),
          TEST_CASE(test_print_every_annotation_from_elements))
