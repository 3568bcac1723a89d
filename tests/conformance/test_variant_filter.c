/* Predicates on variant paths (variant_get in parquetry_filter.h): the
 * text form parses and prints back; on every valid case of the corpus's
 * shredded_variant/ (and on a file this library writes shredded, several
 * row groups: tests/cli/test_variant_where.sh) `variant_get(var, path, type) = v`, its NOT and IS NULL
 * select exactly the rows where pqt_variant_get of the reconstructed value
 * says so, for every path and type the rows' values offer; row groups are
 * pruned through a shredded typed_value column only when every value
 * column on the way is all null. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_filter.h"
#include "parquetry_variant.h"

/* ---- text -------------------------------------------------------------------- */

static void check_print(const char *in, const char *want) {
  pqt_expr *e = NULL;
  pqt_error err;
  pqt_status st = pqt_expr_parse(in, strlen(in), &e, &err);
  CHECK_MSG(st == PQT_OK, "%s: %s", in, err.message);
  if (st != PQT_OK) return;
  pqt_string s = {0};
  CHECK_OK(pqt_expr_to_string(e, &s, &err));
  CHECK_EQ_STR(s.data, want);
  pqt_expr *again = NULL;
  CHECK_OK(pqt_expr_parse(s.data, s.len, &again, &err));
  pqt_string s2 = {0};
  if (again) CHECK_OK(pqt_expr_to_string(again, &s2, &err));
  CHECK_EQ_STR(s2.data, want);
  pqt_string_free(&s);
  pqt_string_free(&s2);
  pqt_expr_free(again);
  pqt_expr_free(e);
}

static void check_parse_error(const char *in, const char *want) {
  pqt_expr *e = NULL;
  pqt_error err;
  pqt_status st = pqt_expr_parse(in, strlen(in), &e, &err);
  CHECK_MSG(st == PQT_EINVAL, "%s: parsed", in);
  if (st != PQT_OK) CHECK_MSG(strstr(err.message, want) != NULL, "%s: message '%s' lacks '%s'", in, err.message, want);
  pqt_expr_free(e);
}

static void test_text(void) {
  check_print("variant_get(v, '$.a.b', 'INT') > 5", "(variant_get(v, '$.a.b', 'int32') > 5)");
  check_print("try_variant_get(s.v, '$[''a b''][0]', 'string') = 'x'",
              "(variant_get(s.v, '$[''a b''][0]', 'string') = 'x')");
  check_print("5 < variant_get(v, '$', 'bigint')", "(variant_get(v, '$', 'int64') > 5)");
  check_print(
      "variant_get(v, '$.d', 'date') BETWEEN DATE '2024-01-01' AND DATE '2024-12-31' OR "
      "variant_get(v, '$.t', 'timestamp') IS NULL",
      "((variant_get(v, '$.d', 'date') BETWEEN DATE '2024-01-01' AND DATE '2024-12-31') OR "
      "(variant_get(v, '$.t', 'timestamp') IS NULL))");
  check_print("variant_get(v, '$.k', 'string') IN ('a', 'b')", "(variant_get(v, '$.k', 'string') IN ('a', 'b'))");
  check_print("variant_get(v, '$.k', 'string') LIKE 'a%'", "(variant_get(v, '$.k', 'string') LIKE 'a%')");
  check_print("variant_get = 1", "(variant_get = 1)"); /* a column of that name */
  check_parse_error("variant_get(v, 'a', 'int') = 1", "position 16: variant_get: Variant path");
  check_parse_error("variant_get(v, '$.a', 'integral') = 1", "position 23: variant_get: unknown type 'integral'");
  check_parse_error("variant_get(v, '$.a') = 1", "expected ',' and the type");
  check_parse_error("variant_get(v, '$.a', 'int' = 1", "expected ')' to close variant_get");
  check_parse_error("variant_get(v, $.a, 'int') = 1", "path of variant_get");
  /* builders */
  pqt_expr *e = pqt_expr_variant_get(pqt_expr_column("v"), "$.a", PQT_VARIANT_GET_INT64);
  CHECK(e != NULL);
  pqt_expr *c = pqt_expr_compare(PQT_CMP_EQ, e, pqt_expr_int(3));
  pqt_string s = {0};
  pqt_error err;
  CHECK_OK(pqt_expr_to_string(c, &s, &err));
  CHECK_EQ_STR(s.data, "(variant_get(v, '$.a', 'int64') = 3)");
  pqt_string_free(&s);
  pqt_expr_free(c);
  CHECK(pqt_expr_variant_get(pqt_expr_column("v"), "a.b", PQT_VARIANT_GET_INT64) == NULL);
  CHECK(pqt_expr_variant_get(pqt_expr_column("v"), "$.a", (pqt_variant_target)99) == NULL);
  CHECK(pqt_expr_variant_get(NULL, "$.a", PQT_VARIANT_GET_INT64) == NULL);
}

/* ---- reading the truth ----------------------------------------------------------- */

typedef struct rows_t {
  int64_t n;
  pqt_variant *v;
  uint8_t **owned;
  bool *null;
} rows_t;

static const uint8_t *bin_at(const struct ArrowArray *a, int64_t i, size_t *len) {
  const int32_t *off = a->buffers[1];
  const uint8_t *data = a->buffers[2];
  int64_t j = a->offset + i;
  *len = (size_t)(off[j + 1] - off[j]);
  return data + off[j];
}

/* The rows of column `col` (reconstructed), or -1. */
static int read_rows(const char *path, const char *col, rows_t *out) {
  memset(out, 0, sizeof *out);
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) return -1;
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, NULL, &st, &e) != PQT_OK) {
    pqt_reader_close(r);
    return -1;
  }
  struct ArrowSchema sch;
  int rc = st.get_schema(&st, &sch);
  int64_t ci = -1;
  for (int64_t k = 0; rc == 0 && k < sch.n_children; k++)
    if (strcmp(sch.children[k]->name, col) == 0) ci = k;
  if (rc == 0) sch.release(&sch);
  if (ci < 0) rc = -1;
  while (rc == 0) {
    struct ArrowArray b;
    rc = st.get_next(&st, &b);
    if (rc != 0 || !b.release) break;
    const struct ArrowArray *v = b.children[ci];
    const uint8_t *valid = v->buffers[0];
    size_t m = (size_t)(out->n + b.length);
    out->v = realloc(out->v, sizeof *out->v * m);
    out->owned = realloc(out->owned, sizeof *out->owned * m);
    out->null = realloc(out->null, sizeof *out->null * m);
    for (int64_t i = 0; i < b.length; i++) {
      int64_t j = v->offset + i, k = out->n++;
      out->null[k] = valid && !((valid[j >> 3] >> (j & 7)) & 1);
      out->owned[k] = NULL;
      memset(&out->v[k], 0, sizeof out->v[k]);
      if (out->null[k]) continue;
      size_t ml, vl;
      const uint8_t *mp = bin_at(v->children[0], j, &ml), *xp = bin_at(v->children[1], j, &vl);
      uint8_t *copy = malloc(ml + vl + 1);
      memcpy(copy, mp, ml);
      memcpy(copy + ml, xp, vl);
      out->owned[k] = copy;
      out->v[k] = (pqt_variant){copy, ml, copy + ml, vl};
    }
    b.release(&b);
  }
  st.release(&st);
  pqt_reader_close(r);
  return rc;
}

static void rows_free(rows_t *r) {
  for (int64_t k = 0; k < r->n; k++) free(r->owned[k]);
  free(r->owned);
  free(r->v);
  free(r->null);
  memset(r, 0, sizeof *r);
}

/* ---- probes ------------------------------------------------------------------------ */

/* variant_get's value for row k, path, type: *is_null or the value. */
static void truth(const rows_t *rows, int64_t k, const char *path, pqt_variant_target t, pqt_variant_value *out) {
  memset(out, 0, sizeof *out);
  out->is_null = 1;
  if (rows->null[k]) return;
  pqt_error e;
  pqt_status st = pqt_variant_get(&rows->v[k], path, t, out, &e);
  CHECK_MSG(st == PQT_OK, "variant_get %s: %s", path, e.message);
  if (st != PQT_OK) out->is_null = 1;
}

/* Do a and b compare equal as the filter compares that type? */
static bool same(pqt_variant_target t, const pqt_variant_value *a, const pqt_variant_value *b) {
  switch (t) {
    case PQT_VARIANT_GET_BOOLEAN: return (a->u.b != 0) == (b->u.b != 0);
    case PQT_VARIANT_GET_FLOAT: return (isnan(a->u.f32) && isnan(b->u.f32)) || a->u.f32 == b->u.f32;
    case PQT_VARIANT_GET_DOUBLE: return (isnan(a->u.f64) && isnan(b->u.f64)) || a->u.f64 == b->u.f64;
    case PQT_VARIANT_GET_STRING:
    case PQT_VARIANT_GET_BINARY:
      return a->u.bytes.len == b->u.bytes.len &&
             (a->u.bytes.len == 0 || memcmp(a->u.bytes.data, b->u.bytes.data, a->u.bytes.len) == 0);
    case PQT_VARIANT_GET_UUID: return memcmp(a->u.uuid, b->u.uuid, 16) == 0;
    default: return a->u.i64 == b->u.i64;
  }
}

static pqt_expr *literal(pqt_variant_target t, const pqt_variant_value *v) {
  switch (t) {
    case PQT_VARIANT_GET_BOOLEAN: return pqt_expr_bool(v->u.b);
    case PQT_VARIANT_GET_FLOAT: return pqt_expr_double((double)v->u.f32);
    case PQT_VARIANT_GET_DOUBLE: return pqt_expr_double(v->u.f64);
    case PQT_VARIANT_GET_STRING: return pqt_expr_string((const char *)v->u.bytes.data, v->u.bytes.len);
    case PQT_VARIANT_GET_BINARY: return pqt_expr_binary(v->u.bytes.data, v->u.bytes.len);
    case PQT_VARIANT_GET_UUID: return pqt_expr_uuid(v->u.uuid);
    case PQT_VARIANT_GET_DATE: return pqt_expr_date((int32_t)v->u.i64);
    case PQT_VARIANT_GET_TIMESTAMP: return pqt_expr_timestamp(v->u.i64, PQT_EXPR_MICROS, 1);
    case PQT_VARIANT_GET_TIMESTAMP_NTZ: return pqt_expr_timestamp(v->u.i64, PQT_EXPR_MICROS, 0);
    default: return pqt_expr_int(v->u.i64);
  }
}

static int64_t count(const char *path, pqt_expr *e, pqt_scan_stats *stats, char *msg, size_t cap) {
  pqt_reader *r = NULL;
  pqt_error err;
  int64_t n = -1;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) {
    snprintf(msg, cap, "open: %s", err.message);
    return -1;
  }
  pqt_scan_options o;
  pqt_scan_options_init(&o);
  o.filter = e;
  o.stats = stats;
  if (pqt_reader_count(r, &o, &n, &err) != PQT_OK) {
    snprintf(msg, cap, "%s", err.message);
    n = -1;
  }
  pqt_reader_close(r);
  return n;
}

typedef struct tally {
  int probes;
  int64_t pruned_groups;
} tally;

/* variant_get(col, path, t) = (row k's value), its NOT, and IS NULL. */
static void probe(const char *file, const char *col, const rows_t *rows, const char *path, pqt_variant_target t,
                  int64_t k, tally *ty) {
  pqt_variant_value want;
  truth(rows, k, path, t, &want);
  int64_t eq = 0, ne = 0, nul = 0;
  for (int64_t j = 0; j < rows->n; j++) {
    pqt_variant_value v;
    truth(rows, j, path, t, &v);
    if (v.is_null) nul++;
    else if (!want.is_null && same(t, &v, &want)) eq++;
    else ne++;
  }
  char msg[600] = "";
  pqt_scan_stats s;
  memset(&s, 0, sizeof s);
  if (!want.is_null) {
    pqt_expr *e = pqt_expr_compare(PQT_CMP_EQ, pqt_expr_variant_get(pqt_expr_column(col), path, t), literal(t, &want));
    int64_t got = count(file, e, &s, msg, sizeof msg);
    CHECK_MSG(got == eq, "%s: %s %d = (row %lld): %lld rows, want %lld %s", file, path, (int)t, (long long)k,
              (long long)got, (long long)eq, msg);
    ty->pruned_groups += s.row_groups_total - s.row_groups_read;
    e = pqt_expr_not(e);
    got = count(file, e, &s, msg, sizeof msg);
    CHECK_MSG(got == ne, "%s: NOT %s %d = (row %lld): %lld rows, want %lld %s", file, path, (int)t, (long long)k,
              (long long)got, (long long)ne, msg);
    pqt_expr_free(e);
  }
  pqt_expr *e = pqt_expr_is_null(pqt_expr_variant_get(pqt_expr_column(col), path, t), 0);
  int64_t got = count(file, e, &s, msg, sizeof msg);
  CHECK_MSG(got == nul, "%s: %s %d IS NULL: %lld rows, want %lld %s", file, path, (int)t, (long long)got,
            (long long)nul, msg);
  pqt_expr_free(e);
  ty->probes++;
}

static pqt_variant_target target_of(pqt_variant_kind k) {
  switch (k) {
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: return PQT_VARIANT_GET_BOOLEAN;
    case PQT_VARIANT_INT8:
    case PQT_VARIANT_INT16:
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_INT64: return PQT_VARIANT_GET_INT64;
    case PQT_VARIANT_DOUBLE: return PQT_VARIANT_GET_DOUBLE;
    case PQT_VARIANT_FLOAT: return PQT_VARIANT_GET_FLOAT;
    case PQT_VARIANT_STRING: return PQT_VARIANT_GET_STRING;
    case PQT_VARIANT_BINARY: return PQT_VARIANT_GET_BINARY;
    case PQT_VARIANT_DATE: return PQT_VARIANT_GET_DATE;
    case PQT_VARIANT_TIMESTAMP_MICROS:
    case PQT_VARIANT_TIMESTAMP_NANOS: return PQT_VARIANT_GET_TIMESTAMP;
    case PQT_VARIANT_TIMESTAMP_NTZ_MICROS:
    case PQT_VARIANT_TIMESTAMP_NTZ_NANOS: return PQT_VARIANT_GET_TIMESTAMP_NTZ;
    case PQT_VARIANT_UUID: return PQT_VARIANT_GET_UUID;
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: return PQT_VARIANT_GET_DOUBLE;
    default: return (pqt_variant_target)0;
  }
}

/* Every path of row k's value (objects' fields by name, arrays' first
 * elements) down to depth 3, probed with the type its value has. */
static void walk(const char *file, const char *col, const rows_t *rows, int64_t k, const pqt_variant *v,
                 const char *path, int depth, tally *ty) {
  pqt_variant_kind kind;
  pqt_error e;
  if (pqt_variant_get_type(v, &kind, &e) != PQT_OK) return;
  pqt_variant_target t = target_of(kind);
  if (t) probe(file, col, rows, path, t, k, ty);
  if (depth >= 3) return;
  int64_t n = 0;
  if ((kind != PQT_VARIANT_OBJECT && kind != PQT_VARIANT_ARRAY) || pqt_variant_num_elements(v, &n, &e) != PQT_OK)
    return;
  for (int64_t i = 0; i < n && i < 8; i++) {
    char sub[512];
    pqt_variant f;
    if (kind == PQT_VARIANT_OBJECT) {
      const char *name;
      size_t len;
      if (pqt_variant_object_field(v, i, &name, &len, &f, &e) != PQT_OK) return;
      if (memchr(name, '\'', len) || memchr(name, 0, len) || len > 100) continue;
      snprintf(sub, sizeof sub, "%s['%.*s']", path, (int)len, name);
    } else {
      if (pqt_variant_array_element(v, i, &f, &e) != PQT_OK) return;
      snprintf(sub, sizeof sub, "%s[%lld]", path, (long long)i);
    }
    walk(file, col, rows, k, &f, sub, depth + 1, ty);
  }
}

static void probe_file(const char *file, const char *col, tally *ty) {
  rows_t rows;
  if (read_rows(file, col, &rows) != 0) { /* the corpus's invalid cases */
    rows_free(&rows);
    return;
  }
  for (int64_t k = 0; k < rows.n && k < 64; k++)
    if (!rows.null[k]) walk(file, col, &rows, k, &rows.v[k], "$", 0, ty);
  /* a path no row has */
  probe(file, col, &rows, "$.no_such_field", PQT_VARIANT_GET_INT64, 0, ty);
  rows_free(&rows);
}

static void test_corpus(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char d[1024];
  snprintf(d, sizeof d, "%s/shredded_variant", dir);
  tally ty = {0, 0};
  int files = 0;
  for (int c = 1; c <= 200; c++) {
    char path[1200];
    snprintf(path, sizeof path, "%s/case-%03d.parquet", d, c);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    fclose(f);
    files++;
    probe_file(path, "var", &ty);
  }
  printf("  %d files, %d probes\n", files, ty.probes);
  CHECK(files > 100);
  CHECK(ty.probes > 250);
}

RUN_TESTS("variant_filter", TEST_CASE(test_text), TEST_CASE(test_corpus))
