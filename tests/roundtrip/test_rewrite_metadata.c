/* What a rewrite keeps (pqt_write_schema.like with pqt_write_options
 * like_key_value / like_sorting_columns, column_kv): the file's key-value
 * metadata, each column's chunk key-value metadata, the sorting columns,
 * ARROW:schema, the created_by history; and what the caller's own keys
 * replace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static const char *SCHEMA =
    "message m {\n"
    "  required int64 a;\n"
    "  optional binary s (STRING);\n"
    "  optional int64 t (TIMESTAMP(MICROS,true));\n"
    "}\n";

/* rows a = i, s = "x", t = i */
static int write_rows(pqt_writer *w, int64_t n) {
  int64_t *a = calloc((size_t)n, 8);
  int16_t *def = calloc((size_t)n, 2);
  int32_t *off = calloc((size_t)n + 1, 4);
  char *dat = calloc((size_t)n + 1, 1);
  if (!a || !def || !off || !dat) return -1;
  for (int64_t i = 0; i < n; i++) {
    a[i] = i;
    def[i] = 1;
    dat[i] = 'x';
    off[i + 1] = (int32_t)i + 1;
  }
  pqt_error e;
  pqt_error_init(&e);
  int bad = pqt_writer_write_column(w, 0, n, NULL, NULL, a, NULL, n, &e) != PQT_OK ||
            pqt_writer_write_column(w, 1, n, def, NULL, dat, off, n, &e) != PQT_OK ||
            pqt_writer_write_column(w, 2, n, def, NULL, a, NULL, n, &e) != PQT_OK ||
            pqt_writer_flush_row_group(w, &e) != PQT_OK;
  if (bad) fprintf(stderr, "write_rows: %s\n", e.message);
  free(a);
  free(def);
  free(off);
  free(dat);
  return bad ? -1 : 0;
}

/* Read every batch of r and write it to w, cutting w's row groups where
 * r's end. */
static int copy_rows(pqt_reader *r, pqt_writer *w) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, &so, &st, NULL) != PQT_OK) return -1;
  int rc = 0;
  for (;;) {
    struct ArrowArray b;
    memset(&b, 0, sizeof b);
    if (st.get_next(&st, &b) != 0) {
      rc = -1;
      break;
    }
    if (!b.release) break;
    if (pqt_writer_write_batch(w, &b, NULL) != PQT_OK || pqt_writer_flush_row_group(w, NULL) != PQT_OK) rc = -1;
    b.release(&b);
    if (rc) break;
  }
  st.release(&st);
  return rc;
}

static char *meta_json(const pqt_string *file) {
  pqt_reader *r = NULL;
  if (pqt_reader_open_buffer(&r, file->data, file->len, NULL, NULL) != PQT_OK) return NULL;
  pqt_string j = {0};
  pqt_status st = pqt_reader_metadata_json(r, 0, &j, NULL);
  pqt_reader_close(r);
  if (st != PQT_OK) return NULL;
  char *out = strdup(j.data);
  pqt_string_free(&j);
  return out;
}

/* Rewrite src into *dst with o (schema from src's reader). */
static int rewrite(const pqt_string *src, pqt_string *dst, pqt_write_options *o) {
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_buffer(&r, src->data, src->len, NULL, &e) != PQT_OK) return -1;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = r};
  pqt_writer *w = NULL;
  int rc = 0;
  if (pqt_writer_open_buffer(&w, dst, &ws, o, &e) != PQT_OK) {
    fprintf(stderr, "rewrite: %s\n", e.message);
    rc = -1;
  } else if (copy_rows(r, w) != 0) {
    pqt_writer_discard(w);
    rc = -1;
  } else if (pqt_writer_close(w, &e) != PQT_OK) {
    fprintf(stderr, "rewrite: %s\n", e.message);
    rc = -1;
  }
  pqt_reader_close(r);
  return rc;
}

static void test_kept_and_replaced(void) {
  const char *keys[] = {"origin", "note", "empty"};
  const char *vals[] = {"unit test", "first", NULL};
  pqt_column_key_value ckv[] = {{1, "foo", "bar"}, {1, "novalue", NULL}, {2, "unit", "us"}};
  pqt_sorting_column_spec sort[] = {{0, 0, 0}, {2, 1, 1}};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.kv_keys = keys;
  o.kv_values = vals;
  o.n_kv = 3;
  o.column_kv = ckv;
  o.n_column_kv = 3;
  o.sorting_columns = sort;
  o.n_sorting_columns = 2;
  o.created_by = "unit-test writer 1.0";
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_string src = {0}, out = {0}, out2 = {0}, bare = {0};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &src, &ws, &o, NULL));
  CHECK(write_rows(w, 10) == 0);
  CHECK(write_rows(w, 5) == 0);
  CHECK_OK(pqt_writer_close(w, NULL));
  char *j0 = meta_json(&src);
  CHECK(j0 != NULL);
  CHECK_MSG(strstr(j0, "{\"key\":\"foo\",\"value\":\"bar\"},{\"key\":\"novalue\"}") != NULL, "%s", j0);
  CHECK_MSG(strstr(j0, "{\"key\":\"unit\",\"value\":\"us\"}") != NULL, "%s", j0);

  /* a rewrite keeps them all, and records where it came from */
  pqt_write_options r;
  pqt_write_options_init(&r);
  CHECK_EQ_INT(r.like_key_value, 1);
  r.like_sorting_columns = 1;
  const char *rkeys[] = {"note"};
  const char *rvals[] = {"replaced"};
  r.kv_keys = rkeys;
  r.kv_values = rvals;
  r.n_kv = 1;
  CHECK(rewrite(&src, &out, &r) == 0);
  char *j1 = meta_json(&out);
  CHECK(j1 != NULL);
  CHECK_MSG(
      strstr(j1,
             "{\"key\":\"origin\",\"value\":\"unit test\"},{\"key\":\"note\",\"value\":\"replaced\"},"
             "{\"key\":\"empty\"},{\"key\":\"parquetry.rewritten_from\",\"value\":\"unit-test writer 1.0\"}") != NULL,
      "%s", j1);
  CHECK_MSG(strstr(j1, "\"first\"") == NULL, "%s", j1);
  /* chunk metadata on both row groups' chunks of s and t, none on a */
  const char *p = j1;
  int n_foo = 0, n_unit = 0;
  while ((p = strstr(p, "{\"key\":\"foo\",\"value\":\"bar\"},{\"key\":\"novalue\"}")) != NULL) n_foo++, p++;
  p = j1;
  while ((p = strstr(p, "{\"key\":\"unit\",\"value\":\"us\"}")) != NULL) n_unit++, p++;
  CHECK_EQ_INT(n_foo, 2);
  CHECK_EQ_INT(n_unit, 2);
  const char *sorting =
      "\"sorting_columns\":[{\"column_idx\":0,\"descending\":false,\"nulls_first\":false},"
      "{\"column_idx\":2,\"descending\":true,\"nulls_first\":true}]";
  CHECK_MSG(strstr(j1, sorting) && strstr(strstr(j1, sorting) + 1, sorting), "%s", j1);
  /* the logical type of t and the STRING of s */
  CHECK_MSG(strstr(j1, "\"TIMESTAMP\":{\"isAdjustedToUTC\":true,\"unit\":{\"MICROS\":{}}}") != NULL, "%s", j1);

  /* rewritten again: the history grows */
  CHECK(rewrite(&out, &out2, &r) == 0);
  char *j2 = meta_json(&out2);
  CHECK(j2 != NULL);
  CHECK_MSG(strstr(j2, "{\"key\":\"parquetry.rewritten_from\",\"value\":\"parquetry version ") != NULL &&
                strstr(j2, " <- unit-test writer 1.0\"}") != NULL,
            "%s", j2);

  /* like_key_value 0, like_sorting_columns 0: the schema only */
  pqt_write_options b;
  pqt_write_options_init(&b);
  b.like_key_value = 0;
  CHECK(rewrite(&src, &bare, &b) == 0);
  char *j3 = meta_json(&bare);
  CHECK(j3 != NULL);
  CHECK_MSG(strstr(j3, "key_value_metadata") == NULL && strstr(j3, "sorting_columns") == NULL, "%s", j3);
  free(j0);
  free(j1);
  free(j2);
  free(j3);
  pqt_string_free(&src);
  pqt_string_free(&out);
  pqt_string_free(&out2);
  pqt_string_free(&bare);
}

/* ARROW:schema of the input: kept as it is when the schema written is the
 * input's. */
static void test_arrow_schema_kept(void) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_writer *w = NULL;
  pqt_string src = {0}, out = {0};
  const char *keys[] = {"ARROW:schema"};
  /* any value: a rewrite does not read it, only keeps or re-derives it */
  const char *vals[] = {"/////3gAAAAQAAAAAAAKAAwABgAFAAgACgAAAAABBAAMAAAACAAIAAAABAAIAAAABAAAAAAAAAA="};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.kv_keys = keys;
  o.kv_values = vals;
  o.n_kv = 1;
  CHECK_OK(pqt_writer_open_buffer(&w, &src, &ws, &o, NULL));
  CHECK(write_rows(w, 3) == 0);
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_write_options r;
  pqt_write_options_init(&r);
  CHECK(rewrite(&src, &out, &r) == 0);
  char *j = meta_json(&out);
  CHECK(j != NULL);
  char want[256];
  snprintf(want, sizeof want, "{\"key\":\"ARROW:schema\",\"value\":\"%s\"}", vals[0]);
  CHECK_MSG(strstr(j, want) != NULL, "%s", j);
  free(j);
  pqt_string_free(&src);
  pqt_string_free(&out);
}

static void test_bad_column_kv(void) {
  pqt_column_key_value ckv[] = {{7, "k", "v"}};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.column_kv = ckv;
  o.n_column_kv = 1;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_string dst = {0};
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_writer_open_buffer(&w, &dst, &ws, &o, &e), PQT_EINVAL);
  CHECK_MSG(strstr(e.message, "no column 7") != NULL, "%s", e.message);
  pqt_sorting_column_spec sort[] = {{3, 0, 0}};
  pqt_write_options_init(&o);
  o.sorting_columns = sort;
  o.n_sorting_columns = 1;
  CHECK_EQ_INT(pqt_writer_open_buffer(&w, &dst, &ws, &o, &e), PQT_EINVAL);
  pqt_string_free(&dst);
}

RUN_TESTS("rewrite_metadata", TEST_CASE(test_kept_and_replaced), TEST_CASE(test_arrow_schema_kept),
          TEST_CASE(test_bad_column_kv))
