/* libFuzzer target for the filter expression parser (src/scan/expr_parse.c):
 * the input is parsed as filter text. Whenever it parses, the printed form
 * must parse again to the same printed form, and the expression is bound
 * to a small file written once here (every column kind: ints, unsigned,
 * doubles with NaN, strings, dates, timestamps, decimals, UUIDs, booleans,
 * a struct, a list and a GEOMETRY column of points, for ST_Intersects) and used to filter its rows, which exercises the
 * binder, the evaluator and row-group pruning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

/* Public structs get a struct_size and _init functions with the growth
 * scheme (PQT_VERSION_NUMBER marks it); before it they are plain. */
#ifdef PQT_VERSION_NUMBER
#define EXPR_WRITE_SCHEMA_INIT(ws) pqt_write_schema_init(ws)
#define EXPR_COLUMN_INFO_INIT(ci)  pqt_column_info_init(ci)
#define EXPR_COLUMN_BATCH_INIT(b)  pqt_column_batch_init(b)
#else
#define EXPR_WRITE_SCHEMA_INIT(ws) memset((ws), 0, sizeof *(ws))
#define EXPR_COLUMN_INFO_INIT(ci)  memset((ci), 0, sizeof *(ci))
#define EXPR_COLUMN_BATCH_INIT(b)  memset((b), 0, sizeof *(b))
#endif

static const char *EXPR_SCHEMA =
    "message m {\n"
    "  required int32 i;\n"
    "  optional int64 u (INTEGER(64,false));\n"
    "  optional double f;\n"
    "  optional binary s (STRING);\n"
    "  optional int32 d (DATE);\n"
    "  optional int64 ts (TIMESTAMP(MILLIS,true));\n"
    "  optional int64 dec (DECIMAL(10,2));\n"
    "  optional fixed_len_byte_array(16) id (UUID);\n"
    "  optional boolean b;\n"
    "  optional group a { optional int32 b; optional binary z; }\n"
    "  optional group l (LIST) { repeated group list { optional int32 element; } }\n"
    "  optional binary g (GEOMETRY);\n"
    "}\n";

static pqt_string expr_file;
static int expr_ready;

static void expr_make_file(void) {
  expr_ready = -1;
  pqt_writer *w = NULL;
  pqt_write_schema ws;
  EXPR_WRITE_SCHEMA_INIT(&ws);
  ws.message = EXPR_SCHEMA;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = 4;
  if (pqt_writer_open_buffer(&w, &expr_file, &ws, &o, NULL) != PQT_OK) return;
  int n = pqt_writer_num_columns(w);
  for (int row = 0; row < 12; row++) {
    for (int c = 0; c < n; c++) {
      int16_t def = (int16_t)((row % 5 == 4) ? 0 : 1), rep = 0;
      uint8_t v[16];
      int32_t offs[2] = {0, 2};
      memset(v, 0, sizeof v);
      uint8_t gv[21];
      int32_t goffs[2] = {0, 21};
      int32_t i32 = row * 7 - 20;
      int64_t i64 = (int64_t)row * 1000 - 3000;
      double dd = row == 3 ? 0.0 / 0.0 : row * 0.5 - 2;
      const void *val = v;
      const int32_t *off = NULL;
      int16_t defs[1] = {def};
      switch (c) {
        case 0:
          memcpy(v, &i32, 4);
          defs[0] = 0;
          break; /* required */
        case 1:
        case 5:
        case 6: memcpy(v, &i64, 8); break;
        case 2: memcpy(v, &dd, 8); break;
        case 3:
        case 10:
          v[0] = (uint8_t)('a' + row % 3);
          v[1] = (uint8_t)('a' + row % 4);
          off = offs;
          break;
        case 4:
        case 9: memcpy(v, &i32, 4); break;
        case 7: v[15] = (uint8_t)row; break;
        case 8: v[0] = (uint8_t)(row & 1); break;
        case 12: { /* POINT (row, -row) as little-endian WKB */
          double px = row, py = -row;
          v[0] = 1;
          v[1] = 1;
          memcpy(gv, v, 5);
          memcpy(gv + 5, &px, 8);
          memcpy(gv + 13, &py, 8);
          val = gv;
          off = goffs;
          break;
        }
        default: break;
      }
      int16_t max_def = (c == 0) ? 0 : (c == 9 || c == 10) ? 2 : (c == 11) ? 3 : 1;
      if (c == 9 || c == 10) defs[0] = def ? 2 : 0;
      if (c == 11) defs[0] = def ? 3 : 0;
      int64_t nv = (max_def == 0 || defs[0] == max_def) ? 1 : 0;
      if (pqt_writer_write_column(w, c, 1, max_def ? defs : NULL, c == 11 ? &rep : NULL, val, off, nv, NULL) !=
          PQT_OK) {
        pqt_writer_discard(w);
        return;
      }
    }
    if (row % 4 == 3 && pqt_writer_flush_row_group(w, NULL) != PQT_OK) {
      pqt_writer_discard(w);
      return;
    }
  }
  if (pqt_writer_close(w, NULL) != PQT_OK) return;
  expr_ready = 1;
}

static pqt_status expr_discard(void *ctx, const char *data, size_t len) {
  (void)ctx;
  (void)data;
  (void)len;
  return PQT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  if (!expr_ready) expr_make_file();
  pqt_expr *e = NULL;
  pqt_error err;
  if (pqt_expr_parse((const char *)data, size, &e, &err) != PQT_OK) {
    if (e) abort();
    if (!memchr(err.message, 0, sizeof err.message)) abort();
    return 0;
  }
  pqt_string s1 = {0}, s2 = {0};
  if (pqt_expr_to_string(e, &s1, NULL) == PQT_OK) {
    pqt_expr *e2 = NULL;
    if (pqt_expr_parse(s1.data, s1.len, &e2, &err) != PQT_OK) {
      fprintf(stderr, "printed form does not parse: %s\n%s\n", s1.data, err.message);
      abort();
    }
    if (pqt_expr_to_string(e2, &s2, NULL) != PQT_OK || strcmp(s1.data, s2.data) != 0) {
      fprintf(stderr, "printed forms differ:\n%s\n%s\n", s1.data, s2.data ? s2.data : "?");
      abort();
    }
    pqt_expr_free(e2);
  }
  pqt_string_free(&s1);
  pqt_string_free(&s2);
  if (expr_ready == 1) {
    pqt_reader *r = NULL;
    if (pqt_reader_open_buffer(&r, expr_file.data, expr_file.len, NULL, NULL) == PQT_OK) {
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.filter = e;
      pqt_scan_stats st;
      so.stats = &st;
      int64_t n = -1;
      if (pqt_expr_check(e, r, NULL) == PQT_OK) {
        if (pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, expr_discard, NULL, NULL) != PQT_OK) abort();
        if (st.rows < 0 || st.rows > 12) abort();
        if (pqt_reader_count(r, &so, &n, NULL) != PQT_OK || n != st.rows) abort();
      }
      pqt_reader_close(r);
    }
  }
  pqt_expr_free(e);
  return 0;
}
