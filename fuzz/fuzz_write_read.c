/*
 * fuzz_write_read: the writer against the reader. The input chooses a
 * schema (1-4 columns: required/optional INT32, INT64, DOUBLE, STRING,
 * BOOLEAN, and an optional list of optional INT32), the values and nulls,
 * and the writer options (codec, page version, dictionary, encoding, page
 * size, row group size). The file is written with the low-level column
 * writer, read back with the low-level column reader, and every level and
 * value must be equal. Any writer error other than a refused option is a
 * finding, and so is any difference.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static uint32_t take(input *in, uint32_t bound) {
  if (bound == 0) return 0;
  uint32_t v = 0;
  for (int i = 0; i < 4 && in->n; i++) {
    v = (v << 8) | in->p[0];
    in->p++;
    in->n--;
  }
  return v % bound;
}

enum { T_I32, T_I64, T_DBL, T_STR, T_BOOL, T_LIST, N_TYPES };

typedef struct column {
  int type;
  int optional;
  int16_t max_def, max_rep;
  int16_t *def, *rep;
  int64_t n_levels, n_values;
  uint8_t *values;  /* fixed width, or bytes of strings */
  int32_t *offsets; /* strings */
  size_t width;
} column;

static void fail(const char *what) {
  fprintf(stderr, "fuzz_write_read: %s\n", what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  int ncols = 1 + (int)take(&in, 4);
  int64_t rows = take(&in, 300);
  column cols[4];
  memset(cols, 0, sizeof cols);
  char schema[1024];
  int pos = snprintf(schema, sizeof schema, "message m {");
  for (int c = 0; c < ncols; c++) {
    column *col = &cols[c];
    col->type = (int)take(&in, N_TYPES);
    col->optional = (int)take(&in, 2);
    static const char *const prim[] = {"int32", "int64", "double", "binary", "boolean"};
    static const size_t widths[] = {4, 8, 8, 0, 1};
    if (col->type == T_LIST) {
      pos += snprintf(schema + pos, sizeof schema - (size_t)pos,
                      " optional group c%d (LIST) { repeated group list { optional int32 element; } }", c);
      col->max_def = 3;
      col->max_rep = 1;
      col->width = 4;
    } else {
      pos +=
          snprintf(schema + pos, sizeof schema - (size_t)pos, " %s %s c%d%s;", col->optional ? "optional" : "required",
                   prim[col->type], c, col->type == T_STR ? " (STRING)" : "");
      col->max_def = (int16_t)col->optional;
      col->width = widths[col->type];
    }
  }
  snprintf(schema + pos, sizeof schema - (size_t)pos, " }");

  /* levels and values */
  for (int c = 0; c < ncols; c++) {
    column *col = &cols[c];
    size_t cap = (size_t)rows * 6 + 1; /* a list row holds up to 6 entries */
    col->def = calloc(cap, sizeof(int16_t));
    col->rep = calloc(cap, sizeof(int16_t));
    col->values = calloc(cap * 8 + 1, 1);
    col->offsets = calloc(cap + 1, sizeof(int32_t));
    size_t sbytes = 0;
    for (int64_t r = 0; r < rows; r++) {
      int entries = 1;
      if (col->type == T_LIST) {
        uint32_t shape = take(&in, 8); /* 0 null list, 1 empty, else 1..6 elements */
        if (shape == 0) {
          col->def[col->n_levels] = 0;
          col->rep[col->n_levels++] = 0;
          continue;
        }
        if (shape == 1) {
          col->def[col->n_levels] = 1;
          col->rep[col->n_levels++] = 0;
          continue;
        }
        entries = (int)shape - 1;
      }
      for (int k = 0; k < entries; k++) {
        bool present = col->max_def == 0 || take(&in, 4) != 0;
        int16_t d = present ? col->max_def : (int16_t)(col->max_def - 1);
        col->def[col->n_levels] = d;
        col->rep[col->n_levels] = (int16_t)(k ? 1 : 0);
        col->n_levels++;
        if (!present) continue;
        uint32_t v = take(&in, 0xFFFFFFFFu);
        if (take(&in, 3) == 0) v %= 5; /* repeats, for the dictionary */
        if (col->type == T_STR) {
          int l = (int)(v % 9);
          for (int j = 0; j < l; j++) col->values[sbytes++] = (uint8_t)('a' + (v >> j) % 26);
          col->offsets[col->n_values + 1] = (int32_t)sbytes;
        } else if (col->type == T_BOOL) {
          col->values[col->n_values] = (uint8_t)(v & 1);
        } else if (col->type == T_DBL) {
          double x = (double)(int32_t)v / 7.0;
          memcpy(col->values + 8 * col->n_values, &x, 8);
        } else if (col->type == T_I64) {
          int64_t x = (int64_t)v * 1000003 - (int64_t)(v >> 3);
          memcpy(col->values + 8 * col->n_values, &x, 8);
        } else {
          int32_t x = (int32_t)v;
          memcpy(col->values + 4 * col->n_values, &x, 4);
        }
        col->n_values++;
      }
    }
  }

  /* options */
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  static const int codecs[] = {0, 1, 2, 4, 6, 7};
  wo.defaults.codec = codecs[take(&in, 6)];
  wo.defaults.page_version = 1 + (int)take(&in, 2);
  wo.defaults.dictionary = (int)take(&in, 2);
  wo.defaults.page_size = 64 + (int64_t)take(&in, 4096);
  wo.defaults.page_row_limit = 1 + (int64_t)take(&in, 100);
  wo.defaults.bloom_filter = (int)take(&in, 2);
  wo.row_group_rows = 1 + (int64_t)take(&in, 200);
  static const int encs[] = {-1, 0, 5, 6, 7, 9};
  wo.defaults.encoding = encs[take(&in, 6)];

  pqt_string file = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_writer_open_buffer(&w, &file, &ws, &wo, &e) != PQT_OK) {
    if (e.code != PQT_EINVAL && e.code != PQT_EUNSUPPORTED) fail(e.message);
    goto done;
  }
  /* rows in row groups of row_group_rows: cut every column at the same rows */
  {
    int64_t lpos[4] = {0}, vpos[4] = {0};
    for (int64_t r0 = 0; r0 < rows; r0 += wo.row_group_rows) {
      int64_t r1 = r0 + wo.row_group_rows < rows ? r0 + wo.row_group_rows : rows;
      for (int c = 0; c < ncols; c++) {
        column *col = &cols[c];
        int64_t l0 = lpos[c], l1 = l0, v1 = vpos[c];
        for (int64_t r = r0; r < r1; r++) {
          do {
            if (col->def[l1] == col->max_def) v1++;
            l1++;
          } while (l1 < col->n_levels && col->rep[l1] != 0);
        }
        const void *vals =
            col->type == T_STR ? (const void *)col->values : (const void *)(col->values + col->width * (size_t)vpos[c]);
        pqt_status st = pqt_writer_write_column(w, c, l1 - l0, col->max_def ? col->def + l0 : NULL,
                                                col->max_rep ? col->rep + l0 : NULL, vals,
                                                col->type == T_STR ? col->offsets + vpos[c] : NULL, v1 - vpos[c], &e);
        if (st != PQT_OK) {
          if (e.code == PQT_EINVAL || e.code == PQT_EUNSUPPORTED) { /* an encoding that does not fit */
            pqt_writer_discard(w);
            w = NULL;
            goto done;
          }
          fail(e.message);
        }
        lpos[c] = l1;
        vpos[c] = v1;
      }
      if (pqt_writer_flush_row_group(w, &e) != PQT_OK) fail(e.message);
    }
  }
  if (pqt_writer_close(w, &e) != PQT_OK) fail(e.message);
  w = NULL;

  /* read back, column by column, every level and value */
  {
    pqt_reader *r = NULL;
    if (pqt_reader_open_buffer(&r, file.data, file.len, NULL, &e) != PQT_OK) fail(e.message);
    for (int c = 0; c < ncols; c++) {
      column *col = &cols[c];
      int64_t lpos = 0, vpos = 0;
      for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) {
        pqt_column_reader *cr = NULL;
        if (pqt_column_reader_open(&cr, r, g, c, &e) != PQT_OK) fail(e.message);
        for (;;) {
          pqt_column_batch b;
          pqt_column_batch_init(&b);
          if (pqt_column_reader_next(cr, 1 + (int64_t)(size % 97), &b, &e) != PQT_OK) fail(e.message);
          if (b.n_levels == 0) break;
          if (lpos + b.n_levels > col->n_levels || vpos + b.n_values > col->n_values)
            fail("more data read than written");
          for (int64_t i = 0; i < b.n_levels; i++) {
            if (col->max_def && b.def_levels[i] != col->def[lpos + i]) fail("definition level differs");
            if (col->max_rep && b.rep_levels[i] != col->rep[lpos + i]) fail("repetition level differs");
          }
          for (int64_t i = 0; i < b.n_values; i++) {
            if (col->type == T_STR) {
              int32_t a0 = b.offsets[i], a1 = b.offsets[i + 1];
              int32_t w0 = col->offsets[vpos + i], w1 = col->offsets[vpos + i + 1];
              if (a1 - a0 != w1 - w0 || memcmp((const uint8_t *)b.values + a0, col->values + w0, (size_t)(a1 - a0)))
                fail("string value differs");
            } else if (memcmp((const uint8_t *)b.values + col->width * (size_t)i,
                              col->values + col->width * (size_t)(vpos + i), col->width) != 0) {
              fail("value differs");
            }
          }
          lpos += b.n_levels;
          vpos += b.n_values;
        }
        pqt_column_reader_close(cr);
      }
      if (lpos != col->n_levels || vpos != col->n_values) fail("less data read than written");
    }
    pqt_reader_close(r);
  }
done:
  if (w) pqt_writer_discard(w);
  pqt_string_free(&file);
  for (int c = 0; c < ncols; c++) {
    free(cols[c].def);
    free(cols[c].rep);
    free(cols[c].values);
    free(cols[c].offsets);
  }
  return 0;
}
