/* Unit tests for scan/expr*: the filter text parser (every construct,
 * precedence, errors with their positions), the builders, printing, and
 * binding against a schema (unknown columns, type mismatches). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "parquetry.h"

/* Public structs get a struct_size and _init functions with the growth
 * scheme (PQT_VERSION_NUMBER marks it); before it they are plain. */
#ifdef PQT_VERSION_NUMBER
#define T_WRITE_SCHEMA_INIT(ws) pqt_write_schema_init(ws)
#define T_COLUMN_INFO_INIT(ci)  pqt_column_info_init(ci)
#define T_COLUMN_BATCH_INIT(b)  pqt_column_batch_init(b)
#else
#define T_WRITE_SCHEMA_INIT(ws) memset((ws), 0, sizeof *(ws))
#define T_COLUMN_INFO_INIT(ci)  memset((ci), 0, sizeof *(ci))
#define T_COLUMN_BATCH_INIT(b)  memset((b), 0, sizeof *(b))
#endif

/* parse `in`, print it; compare with `want` (NULL: expect an error whose
 * message contains `want_err`). The printed form must parse to itself. */
static void roundtrip(const char *in, const char *want) {
  pqt_expr *e = NULL;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_expr_parse(in, strlen(in), &e, &err);
  CHECK_MSG(st == PQT_OK, "%s: %s", in, err.message);
  if (st != PQT_OK) return;
  pqt_string s = {0};
  CHECK_OK(pqt_expr_to_string(e, &s, NULL));
  CHECK_MSG(s.data && strcmp(s.data, want) == 0, "%s -> %s (want %s)", in, s.data ? s.data : "?", want);
  pqt_expr *e2 = NULL;
  if (s.data) {
    CHECK_OK(pqt_expr_parse(s.data, s.len, &e2, NULL));
    pqt_string s2 = {0};
    if (e2) CHECK_OK(pqt_expr_to_string(e2, &s2, NULL));
    CHECK_MSG(s2.data && strcmp(s2.data, s.data) == 0, "reparse of %s gave %s", s.data, s2.data ? s2.data : "?");
    pqt_string_free(&s2);
  }
  pqt_expr_free(e2);
  pqt_string_free(&s);
  pqt_expr_free(e);
}

static void parse_error(const char *in, const char *want) {
  pqt_expr *e = (pqt_expr *)0x1;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_expr_parse(in, strlen(in), &e, &err);
  CHECK_MSG(st == PQT_EINVAL, "%s parsed (status %d)", in, st);
  CHECK(e == NULL);
  CHECK_MSG(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", in, err.message, want);
  if (st == PQT_OK) pqt_expr_free(e);
}

static void test_constructs(void) {
  roundtrip("l_shipdate >= DATE '1995-01-01' AND l_returnflag = 'R'",
            "((l_shipdate >= DATE '1995-01-01') AND (l_returnflag = 'R'))");
  roundtrip("x IN (1,2,3)", "(x IN (1, 2, 3))");
  roundtrip("s LIKE 'ab%'", "(s LIKE 'ab%')");
  roundtrip("ts < TIMESTAMP '2020-01-01 00:00:00'", "(ts < TIMESTAMP '2020-01-01 00:00:00.000000000')");
  roundtrip("ts >= timestamp '2020-01-01T10:00:00.5+02:00'", "(ts >= TIMESTAMP '2020-01-01 08:00:00.500000000Z')");
  roundtrip("a.b IS NOT NULL", "(a.b IS NOT NULL)");
  roundtrip("a.b is null", "(a.b IS NULL)");
  roundtrip("x BETWEEN -1.5 AND 2", "(x BETWEEN -1.5 AND 2)");
  roundtrip("x NOT BETWEEN 1 AND 2", "(NOT (x BETWEEN 1 AND 2))");
  roundtrip("x NOT IN (1)", "(NOT (x IN (1)))");
  roundtrip("s NOT LIKE 'a_c%'", "(NOT (s LIKE 'a_c%'))");
  roundtrip("x != 1 AND y <> 2 AND z == 3", "(((x != 1) AND (y != 2)) AND (z = 3))");
  roundtrip("x<=1 or x>2", "((x <= 1) OR (x > 2))");
  roundtrip("5 < x", "(x > 5)");
  roundtrip("DATE '2000-02-29' = d", "(d = DATE '2000-02-29')");
  roundtrip("t = TIME '12:34:56.789'", "(t = TIME '12:34:56.789000000')");
  roundtrip("u = UUID '00112233-4455-6677-8899-aabbccddeeff'", "(u = UUID '00112233-4455-6677-8899-aabbccddeeff')");
  roundtrip("b = X'00fF'", "(b = X'00ff')");
  roundtrip("f = 1e3", "(f = 1.00000000000000000e+03)");
  roundtrip("f > NaN OR f < -Infinity OR f = infinity", "(((f > NAN) OR (f < -INFINITY)) OR (f = INFINITY))");
  roundtrip("flag = TRUE AND NOT flag2 = false", "((flag = TRUE) AND (NOT (flag2 = FALSE)))");
  roundtrip("s = 'it''s'", "(s = 'it''s')");
  roundtrip("\"odd name\".\"x\"\"y\" = 1", "(\"odd name\".\"x\"\"y\" = 1)");
  roundtrip("\"and\" = 1", "(\"and\" = 1)");
  roundtrip("date = DATE '2001-01-01' AND time > 3", "((\"date\" = DATE '2001-01-01') AND (\"time\" > 3))");
  roundtrip("x = 0.000", "(x = 0.000)");
  roundtrip("x = -0.05", "(x = -0.05)");
  roundtrip("x = 12345678901234567890123456789012345678", "(x = 12345678901234567890123456789012345678)");
}

static void test_precedence(void) {
  roundtrip("a = 1 OR b = 2 AND c = 3", "((a = 1) OR ((b = 2) AND (c = 3)))");
  roundtrip("(a = 1 OR b = 2) AND c = 3", "(((a = 1) OR (b = 2)) AND (c = 3))");
  roundtrip("NOT a = 1 AND b = 2", "((NOT (a = 1)) AND (b = 2))");
  roundtrip("NOT (a = 1 AND b = 2)", "(NOT ((a = 1) AND (b = 2)))");
  roundtrip("NOT NOT a = 1", "(NOT (NOT (a = 1)))");
  roundtrip("a = 1 AND b = 2 AND c = 3 OR d = 4", "((((a = 1) AND (b = 2)) AND (c = 3)) OR (d = 4))");
  roundtrip("x BETWEEN 1 AND 2 AND y = 3", "((x BETWEEN 1 AND 2) AND (y = 3))");
}

static void test_errors(void) {
  parse_error("", "position 1: expected a predicate");
  parse_error("x = ", "position 5: expected a literal");
  parse_error("x = y", "position 5: expected a literal");
  parse_error("x", "position 2: expected a comparison");
  parse_error("(x = 1", "position 7: expected ')'");
  parse_error("x = 1 y = 2", "position 7: expected AND, OR or the end");
  parse_error("x IN ()", "position 7: expected a literal in the IN list");
  parse_error("x IN (1 2)", "position 9: expected ',' or ')'");
  parse_error("x = DATE '1995-13-01'", "position 10: bad DATE");
  parse_error("x = DATE '1995-02-29'", "position 10: bad DATE");
  parse_error("x = TIMESTAMP '2020-01-01 25:00:00'", "position 15: bad TIMESTAMP");
  parse_error("x LIKE 5", "position 8: expected a quoted pattern");
  parse_error("x = 'abc", "position 5: unterminated quote");
  parse_error("x = 1 AND", "position 10: expected a column name");
  parse_error("x BETWEEN 1 5", "position 13: expected AND in BETWEEN");
  parse_error("x IS 3", "position 6: expected NULL");
  parse_error("x NOT = 3", "position 7: expected IN, BETWEEN or LIKE after NOT");
  parse_error("x = 1.2.3", "position 5: bad number");
  parse_error("x = 123456789012345678901234567890123456789", "position 5: bad number");
  parse_error("x = X'abc'", "position 6: odd number of hex digits");
  parse_error("x = UUID 'nope'", "position 10: bad UUID");
  parse_error("x # 1", "position 3:");
  parse_error("AND = 1", "position 1: expected a column name");
  /* nesting is bounded, not a stack overflow */
  char deep[5000];
  size_t k = 0;
  for (int i = 0; i < 2000; i++) deep[k++] = '(';
  memcpy(deep + k, "x = 1", 5);
  k += 5;
  deep[k] = 0;
  parse_error(deep, "nested too deeply");
  k = 0;
  for (int i = 0; i < 1000; i++) {
    memcpy(deep + k, "NOT ", 4);
    k += 4;
  }
  memcpy(deep + k, "x = 1", 6);
  parse_error(deep, "nested too deeply");
  /* not NUL-terminated: the length is honoured */
  pqt_expr *e = NULL;
  CHECK_OK(pqt_expr_parse("x = 1 garbage", 5, &e, NULL));
  pqt_expr_free(e);
}

static void test_builders(void) {
  pqt_expr *e = pqt_expr_and(
      pqt_expr_compare(PQT_CMP_GE, pqt_expr_column("d"), pqt_expr_date(9131)),
      pqt_expr_or(pqt_expr_is_null(pqt_expr_column("a.b"), 1), pqt_expr_like(pqt_expr_column("s"), "ab%", 3)));
  CHECK(e != NULL);
  pqt_string s = {0};
  CHECK_OK(pqt_expr_to_string(e, &s, NULL));
  CHECK_EQ_STR(s.data, "((d >= DATE '1995-01-01') AND ((a.b IS NOT NULL) OR (s LIKE 'ab%')))");
  pqt_string_free(&s);
  pqt_expr_free(e);
  pqt_expr *vals[3] = {pqt_expr_int(-3), pqt_expr_uint(UINT64_MAX), pqt_expr_decimal(12345, 2)};
  e = pqt_expr_in(pqt_expr_column("x"), vals, 3);
  CHECK_OK(pqt_expr_to_string(e, &s, NULL));
  CHECK_EQ_STR(s.data, "(x IN (-3, 18446744073709551615, 123.45))");
  pqt_string_free(&s);
  pqt_expr_free(e);
  e = pqt_expr_between(pqt_expr_column("t"), pqt_expr_timestamp(1500, PQT_EXPR_MILLIS, 1),
                       pqt_expr_time(3600000000LL, PQT_EXPR_MICROS));
  CHECK_OK(pqt_expr_to_string(e, &s, NULL));
  CHECK_EQ_STR(s.data, "(t BETWEEN TIMESTAMP '1970-01-01 00:00:01.500000000Z' AND TIME '01:00:00.000000000')");
  pqt_string_free(&s);
  pqt_expr_free(e);
  e = pqt_expr_compare(PQT_CMP_EQ, pqt_expr_column("h"), pqt_expr_float16(0x3C00)); /* 1.0 */
  CHECK_OK(pqt_expr_to_string(e, &s, NULL));
  CHECK_EQ_STR(s.data, "(h = 1.00000000000000000e+00)");
  pqt_string_free(&s);
  pqt_expr_free(e);
  /* a NULL argument makes the combinator fail and free the others (ASan checks the leak) */
  CHECK(pqt_expr_and(NULL, pqt_expr_column("x")) == NULL);
  CHECK(pqt_expr_compare((pqt_cmp_op)42, pqt_expr_column("x"), pqt_expr_int(1)) == NULL);
  CHECK(pqt_expr_decimal(1, 39) == NULL);
  char buf[128];
  pqt_scan_stats st;
  memset(&st, 0, sizeof st);
  st.rows = 5;
  st.row_groups_read = 1;
  st.row_groups_total = 3;
  st.pages_read = 2;
  st.pages_total = 9;
  st.bytes_read = 1234;
  pqt_scan_stats_format(&st, buf, sizeof buf);
  CHECK_EQ_STR(buf, "rows=5 row_groups=1/3 pages=2/9 bytes_read=1234");
}

/* ---- binding ---- */

static const char *SCHEMA =
    "message m {\n"
    "  required int32 i;\n"
    "  optional int64 u (INTEGER(64,false));\n"
    "  optional double f;\n"
    "  optional binary s (STRING);\n"
    "  optional int32 d (DATE);\n"
    "  optional int64 ts (TIMESTAMP(MILLIS,true));\n"
    "  optional int64 lts (TIMESTAMP(MICROS,false));\n"
    "  optional int64 dec (DECIMAL(10,2));\n"
    "  optional fixed_len_byte_array(16) id (UUID);\n"
    "  optional boolean b;\n"
    "  optional group a {\n"
    "    optional int32 b;\n"
    "    optional group c { optional binary z; }\n"
    "  }\n"
    "  optional group l (LIST) { repeated group list { optional int32 element; } }\n"
    "}\n";

static pqt_reader *schema_reader(pqt_string *buf) {
  pqt_writer *w = NULL;
  pqt_write_schema ws;
  T_WRITE_SCHEMA_INIT(&ws);
  ws.message = SCHEMA;
  memset(buf, 0, sizeof *buf);
  if (pqt_writer_open_buffer(&w, buf, &ws, NULL, NULL) != PQT_OK) return NULL;
  if (pqt_writer_close(w, NULL) != PQT_OK) return NULL;
  pqt_reader *r = NULL;
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, NULL, NULL) != PQT_OK) return NULL;
  return r;
}

static void bind_ok(pqt_reader *r, const char *text) {
  pqt_expr *e = NULL;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_MSG(pqt_expr_parse(text, strlen(text), &e, &err) == PQT_OK, "%s: %s", text, err.message);
  if (!e) return;
  CHECK_MSG(pqt_expr_check(e, r, &err) == PQT_OK, "%s: %s", text, err.message);
  pqt_expr_free(e);
}

static void bind_error(pqt_reader *r, const char *text, const char *want) {
  pqt_expr *e = NULL;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_MSG(pqt_expr_parse(text, strlen(text), &e, &err) == PQT_OK, "%s: %s", text, err.message);
  if (!e) return;
  pqt_status st = pqt_expr_check(e, r, &err);
  CHECK_MSG(st == PQT_EINVAL, "%s bound (status %d)", text, st);
  CHECK_MSG(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", text, err.message, want);
  pqt_expr_free(e);
}

static void test_bind(void) {
  pqt_string buf;
  pqt_reader *r = schema_reader(&buf);
  CHECK(r != NULL);
  if (!r) {
    pqt_string_free(&buf);
    return;
  }
  bind_ok(r, "i = 1 AND u > 18446744073709551615 AND f > NaN AND s LIKE 'a%'");
  bind_ok(r, "d >= DATE '1995-01-01' AND d < '1996-01-01'");
  bind_ok(r,
          "ts < TIMESTAMP '2020-01-01 00:00:00Z' AND ts > TIMESTAMP '2019-01-01 00:00:00' AND ts > DATE '2000-01-01'");
  bind_ok(r, "lts < TIMESTAMP '2020-01-01 00:00:00.123456789'");
  bind_ok(r, "dec = 1.005 AND dec BETWEEN 1 AND 2.5 AND dec IN (3, 4.25)");
  bind_ok(r, "id = UUID '00112233-4455-6677-8899-aabbccddeeff' OR id = '00112233-4455-6677-8899-aabbccddeeff'");
  bind_ok(r, "b = TRUE AND a.b IS NULL AND a IS NOT NULL AND a.c.z = X'00' AND l IS NULL");
  bind_ok(r, "f = 1 AND f < 1e300 AND f = 'Infinity' AND i = 2.5 AND i < 1e100");
  bind_error(r, "nope = 1", "position 1: no column 'nope'");
  bind_error(r, "i = 1 AND a.x = 2", "position 11: no column 'a.x'");
  bind_error(r, "i = 'abc'", "position 5: 'abc' is not a number");
  bind_error(r, "s = 1", "position 5: type mismatch: column 's' is STRING, the literal is a number");
  bind_error(r, "d = 5", "position 5: type mismatch: column 'd' is DATE, the literal is a number");
  bind_error(r, "d = '1995-02-30'", "is not a DATE");
  bind_error(r, "b = 1", "column 'b' is BOOLEAN");
  bind_error(r, "i = TRUE", "column 'i' is an integer, the literal is a BOOLEAN");
  bind_error(r, "lts < TIMESTAMP '2020-01-01 00:00:00Z'", "has a time zone but column 'lts' holds local times");
  bind_error(r, "id = 'xyz'", "'xyz' is not a UUID");
  bind_error(r, "a = 1", "column 'a' is a group");
  bind_error(r, "l.list.element = 1", "inside a list or map");
  bind_error(r, "l.list.element IS NULL", "inside a list or map");
  bind_error(r, "i LIKE 'a%'", "LIKE needs a string or binary column; 'i' is an integer");
  bind_error(r, "dec = 1e5", "column 'dec' is DECIMAL, the literal is a floating-point number");
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

RUN_TESTS("expr", TEST_CASE(test_constructs), TEST_CASE(test_precedence), TEST_CASE(test_errors),
          TEST_CASE(test_builders), TEST_CASE(test_bind))
