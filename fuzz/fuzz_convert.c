/*
 * fuzz/fuzz_convert.c: convert's CSV and JSON Lines parsers, inference and
 * value checks (cli/csv_input.c, json_input.c, infer.c, convert_values.c).
 *
 * Input: byte 0 chooses the format and options (bit 0 JSON Lines; bits 1-2
 * the delimiter , ; TAB |; bit 3 quote " or '; bit 4 null string "NA";
 * bit 5 Latin-1), the rest is the content. Checks:
 *   - no crash, leak or undefined behaviour on any bytes;
 *   - every accepted record, written back (CSV: every non-null field quoted;
 *     JSON: keys and strings escaped, numbers and nested values as given)
 *     and parsed again, gives the same fields, bytes and nulls;
 *   - every field is valid UTF-8;
 *   - every value of a column is accepted by the type inferred for the
 *     column, and INT64 and DATE values read back as the same text;
 *   - every value given to a GEOMETRY column (WKT, base64 or \xHEX WKB) is
 *     either refused with a "cannot read" message or stored as WKB that
 *     validates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/convert.h"
#include "parquetry_geo.h"

#define MAX_ROWS 64
#define MAX_COLS 16

static void die(const char *what) {
  fprintf(stderr, "fuzz_convert: %s\n", what);
  abort();
}

typedef struct rows {
  cv_record r[MAX_ROWS];
  int n;
} rows;

static void same_fields(const cv_record *a, const cv_record *b, bool exact_kind) {
  if (a->nf != b->nf) die("field count changed on the way back");
  for (int i = 0; i < a->nf; i++) {
    const cv_field *x = &a->f[i], *y = &b->f[i];
    if ((x->kind == CV_NULL) != (y->kind == CV_NULL)) die("null changed on the way back");
    if (exact_kind && x->kind != y->kind) die("kind changed on the way back");
    if (x->kind == CV_NULL) continue;
    if (x->len != y->len || memcmp(a->data + x->off, b->data + y->off, x->len) != 0)
      die("bytes changed on the way back");
  }
}

/* ---- CSV ---- */

static void csv_write_back(const cv_record *r, const cv_csv_options *o, cv_record *out) {
  out->dlen = 0;
  for (int i = 0; i < r->nf; i++) {
    if (i && cv_record_put(out, &o->delimiter, 1) != 0) die("oom");
    const cv_field *f = &r->f[i];
    if (f->kind == CV_NULL) {
      if (o->null_string && cv_record_put(out, o->null_string, strlen(o->null_string)) != 0) die("oom");
      continue;
    }
    if (cv_record_put(out, &o->quote, 1) != 0) die("oom");
    for (size_t k = 0; k < f->len; k++) {
      char c = r->data[f->off + k];
      if (cv_record_put(out, &c, 1) != 0 || (c == o->quote && cv_record_put(out, &c, 1) != 0)) die("oom");
    }
    if (cv_record_put(out, &o->quote, 1) != 0) die("oom");
  }
  if (cv_record_put(out, "\n", 1) != 0) die("oom");
}

static void csv_check(const cv_record *r, const cv_csv_options *o) {
  cv_record text = {0}, back = {0};
  char err[CV_ERR];
  csv_write_back(r, o, &text);
  cv_input *in;
  if (cv_input_open_memory(&in, text.data, text.dlen, err) != 0) die("oom");
  cv_bytes *b = malloc(sizeof *b);
  if (!b) die("oom");
  cv_bytes_init(b, in, false);
  cv_csv c = {b, *o, false};
  int rc = cv_csv_next(&c, &back, err);
  if (rc != 1) {
    fprintf(stderr, "%s\n", err);
    die("a record written back does not parse");
  }
  same_fields(r, &back, false);
  free(b);
  cv_input_close(in);
  cv_record_free(&text);
  cv_record_free(&back);
}

/* ---- JSON Lines ---- */

static void json_string(cv_record *out, const char *p, size_t n) {
  if (cv_record_put(out, "\"", 1) != 0) die("oom");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    char e[8];
    if (c == '"' || c == '\\') {
      e[0] = '\\';
      e[1] = (char)c;
      e[2] = 0;
    } else if (c < 0x20) snprintf(e, sizeof e, "\\u%04x", c);
    else {
      e[0] = (char)c;
      e[1] = 0;
    }
    if (cv_record_put(out, e, strlen(e)) != 0) die("oom");
  }
  if (cv_record_put(out, "\"", 1) != 0) die("oom");
}

static void json_check(cv_json *j, const cv_record *r, const char *keys) {
  cv_record text = {0}, back = {0};
  char err[CV_ERR];
  size_t klen = 0;
  for (int i = 0; i < r->nf; i++) klen += strlen(keys + klen) + 1;
  char *kcopy = malloc(klen + 1);
  if (!kcopy) die("oom");
  if (klen) memcpy(kcopy, keys, klen);
  if (cv_record_put(&text, "{", 1) != 0) die("oom");
  const char *k = kcopy;
  for (int i = 0; i < r->nf; i++, k += strlen(k) + 1) {
    if (i && cv_record_put(&text, ",", 1) != 0) die("oom");
    json_string(&text, k, strlen(k));
    if (cv_record_put(&text, ":", 1) != 0) die("oom");
    const cv_field *f = &r->f[i];
    if (f->kind == CV_NULL) {
      if (cv_record_put(&text, "null", 4) != 0) die("oom");
    } else if (f->kind == CV_QUOTED) json_string(&text, r->data + f->off, f->len);
    else if (cv_record_put(&text, r->data + f->off, f->len) != 0) die("oom");
  }
  if (cv_record_put(&text, "}", 1) != 0) die("oom");
  cv_json j2 = {0};
  int rc = cv_json_parse_line(&j2, text.data, text.dlen, 1, 0, &back, err);
  if (rc != 1) {
    fprintf(stderr, "%s\n%.*s\n", err, (int)text.dlen, text.data);
    die("an object written back does not parse");
  }
  same_fields(r, &back, true);
  if (j2.klen != klen || (klen && memcmp(j2.keys, kcopy, klen) != 0)) die("keys changed on the way back");
  (void)j;
  free(kcopy);
  cv_json_free(&j2);
  cv_record_free(&text);
  cv_record_free(&back);
}

/* ---- inference promises ---- */

static const char *format_of(cv_type t, int frac) {
  switch (t) {
    case CV_T_BOOL: return "b";
    case CV_T_INT64: return "l";
    case CV_T_DOUBLE: return "g";
    case CV_T_DATE: return "tdD";
    case CV_T_TIME: return frac > 6 ? "ttn" : "ttu";
    case CV_T_TS: return frac > 6 ? "tsn:" : "tsu:";
    case CV_T_TS_TZ: return frac > 6 ? "tsn:UTC" : "tsu:UTC";
    default: return "u";
  }
}

static void check_readback(cv_type t, const char *p, size_t n, const cv_column *c, int64_t i) {
  char buf[64];
  if (t == CV_T_INT64) {
    int64_t v;
    memcpy(&v, c->vals + 8 * i, 8);
    snprintf(buf, sizeof buf, "%lld", (long long)v);
  } else if (t == CV_T_DATE) {
    int32_t d, back;
    memcpy(&d, c->vals + 4 * i, 4);
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 60 ? n : 60), p);
    if (!cv_parse_date(buf, strlen(buf), &back) || back != d) die("date did not read back");
    return;
  } else {
    return;
  }
  if (strlen(buf) != n || memcmp(buf, p, n) != 0) die("an inferred INT64 value does not read back as the same text");
}

static void infer_check(const rows *rs, int ncols, const int (*map)[MAX_COLS]) {
  for (int col = 0; col < ncols; col++) {
    cv_infer s;
    cv_infer_init(&s);
    for (int r = 0; r < rs->n; r++)
      for (int i = 0; i < rs->r[r].nf; i++)
        if (map[r][i] == col)
          cv_infer_add(&s, rs->r[r].data + rs->r[r].f[i].off, rs->r[r].f[i].len, rs->r[r].f[i].kind);
    cv_type t = cv_infer_result(&s);
    struct ArrowSchema sch = {0};
    sch.format = format_of(t, s.frac_digits);
    sch.name = "c";
    sch.flags = ARROW_FLAG_NULLABLE;
    cv_column c;
    char err[CV_ERR];
    if (cv_column_init(&c, &sch, err) != 0) die(err);
    for (int r = 0; r < rs->n; r++)
      for (int i = 0; i < rs->r[r].nf; i++) {
        if (map[r][i] != col) continue;
        const cv_field *f = &rs->r[r].f[i];
        const char *p = rs->r[r].data + f->off;
        if (cv_column_append(&c, p, f->len, f->kind, err) != 0) {
          fprintf(stderr, "%s (type %s)\n", err, sch.format);
          die("a value does not fit the type inferred from it");
        }
        if (f->kind != CV_NULL) check_readback(t, p, f->len, &c, c.n - 1);
      }
    struct ArrowArray a;
    cv_column_array(&c, &a);
    if (a.length != c.n) die("array length");
    cv_column_free(&c);
  }
}

/* Every field into a GEOMETRY column: refused with a message, or valid WKB. */
static void geo_check(const rows *rs) {
  struct ArrowSchema sch = {0};
  sch.format = "z";
  sch.name = "g";
  sch.flags = ARROW_FLAG_NULLABLE;
  cv_column c;
  char err[CV_ERR];
  if (cv_column_init(&c, &sch, err) != 0) die(err);
  c.geo = PQT_LOGICAL_GEOMETRY;
  for (int r = 0; r < rs->n; r++)
    for (int i = 0; i < rs->r[r].nf; i++) {
      const cv_field *f = &rs->r[r].f[i];
      err[0] = 0;
      if (cv_column_append(&c, rs->r[r].data + f->off, f->len, f->kind, err) != 0) {
        if (!strstr(err, "cannot read") && !strstr(err, "null in a required")) die("geometry refused without a reason");
        continue;
      }
      if (f->kind == CV_NULL) continue;
      pqt_error e;
      int64_t k = c.n - 1;
      if (pqt_wkb_validate((const uint8_t *)c.data + c.offs[k], (size_t)(c.offs[k + 1] - c.offs[k]), NULL, &e) !=
          PQT_OK)
        die("a geometry accepted is not valid WKB");
    }
  cv_column_free(&c);
}

static void no_release(struct ArrowArray *a) { a->release = NULL; }

/* JSON Lines: the nested schema inferred from the rows (groups, LISTs, JSON
 * text) takes every row, and the writer accepts the batch and the file. */
static void nested_check(const rows *rs, int ncols, const int (*map)[MAX_COLS], char names[][64]) {
  cv_node nodes[MAX_COLS];
  int all = ncols;
  for (int c = 0; c < all; c++) {
    cv_node_init(&nodes[c]);
    if (!names[c][0]) ncols = c; /* convert refuses an empty key */
  }
  for (int r = 0; r < rs->n; r++)
    for (int i = 0; i < rs->r[r].nf; i++)
      if (map[r][i] < ncols)
        cv_node_add(&nodes[map[r][i]], rs->r[r].data + rs->r[r].f[i].off, rs->r[r].f[i].len, rs->r[r].f[i].kind);
  char *text = malloc(32);
  size_t len = 0, cap = 32;
  if (!text) die("oom");
  if (cv_schema_raw(&text, &len, &cap, "message m {\n") != 0) die("oom");
  for (int c = 0; c < ncols; c++)
    if (cv_node_schema(&nodes[c], names[c], &text, &len, &cap) != 0) die("oom");
  if (cv_schema_raw(&text, &len, &cap, "}\n") != 0) die("oom");
  pqt_string out = {0};
  pqt_writer *wr = NULL;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  pqt_error e;
  if (ncols > 0 && pqt_writer_open_buffer(&wr, &out, &ws, NULL, &e) != PQT_OK) {
    fprintf(stderr, "%s\n%s\n", e.message, text);
    die("the inferred schema does not parse");
  }
  struct ArrowSchema as = {0};
  cv_build b[MAX_COLS];
  char err[CV_ERR];
  if (wr && pqt_writer_arrow_schema(wr, &as, &e) != PQT_OK) die("arrow schema");
  for (int c = 0; c < ncols; c++)
    if (cv_build_init(&b[c], as.children[c], err) != 0) die(err);
  bool ok = true;
  for (int r = 0; r < rs->n && ok; r++) {
    bool set[MAX_COLS] = {false};
    for (int i = 0; i < rs->r[r].nf && ok; i++) {
      int c = map[r][i];
      if (c >= ncols) continue;
      set[c] = true;
      const cv_field *f = &rs->r[r].f[i];
      if (cv_build_add(&b[c], rs->r[r].data + f->off, f->len, f->kind, err) != 0) {
        if (!strstr(err, "given twice")) {
          fprintf(stderr, "%s\n%s\n", err, text);
          die("a row does not fit the schema inferred from it");
        }
        ok = false;
      }
    }
    for (int c = 0; c < ncols && ok; c++)
      if (!set[c] && cv_build_null(&b[c], false, err) != 0) die("null into an inferred field");
  }
  if (wr && ok && rs->n > 0) {
    struct ArrowArray kids[MAX_COLS], *kp[MAX_COLS];
    for (int c = 0; c < ncols; c++) {
      cv_build_array(&b[c], &kids[c]);
      kp[c] = &kids[c];
    }
    const void *top[1] = {NULL};
    struct ArrowArray batch = {rs->n, 0, 0, 1, ncols, top, kp, NULL, no_release, NULL};
    if (pqt_writer_write_batch(wr, &batch, &e) != PQT_OK) {
      fprintf(stderr, "%s\n%s\n", e.message, text);
      die("the writer refused the batch");
    }
  }
  if (wr && ok) {
    if (pqt_writer_close(wr, &e) != PQT_OK) die("close");
  } else if (wr) {
    pqt_writer_discard(wr);
  }
  for (int c = 0; c < ncols; c++) cv_build_free(&b[c]);
  if (as.release) as.release(&as);
  for (int c = 0; c < all; c++) cv_node_free(&nodes[c]);
  pqt_string_free(&out);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t sel = data[0];
  static const char delims[] = {',', ';', '\t', '|'};
  cv_csv_options o = {delims[(sel >> 1) & 3], (sel & 8) ? '\'' : '"', (sel & 16) ? "NA" : NULL};
  bool json = sel & 1, latin1 = (sel & 32) != 0;
  char err[CV_ERR];
  cv_input *in;
  if (cv_input_open_memory(&in, data + 1, size - 1, err) != 0) return 0;
  cv_bytes *b = malloc(sizeof *b);
  rows *rs = calloc(1, sizeof *rs);
  int(*map)[MAX_COLS] = calloc(MAX_ROWS, sizeof *map);
  char names[MAX_COLS][64];
  int ncols = 0;
  if (!b || !rs || !map) die("oom");
  cv_bytes_init(b, in, latin1);
  cv_csv c = {b, o, false};
  cv_json j = {0};
  j.b = b;
  for (int n = 0; n < MAX_ROWS; n++) {
    cv_record *r = &rs->r[rs->n];
    const char *keys = NULL;
    int rc = json ? cv_json_next(&j, r, &keys, err) : cv_csv_next(&c, r, err);
    if (rc <= 0) break;
    if (r->nf > MAX_COLS * 4) break;
    for (int i = 0; i < r->nf; i++)
      if (r->f[i].kind != CV_NULL && cv_utf8_bad((const unsigned char *)r->data + r->f[i].off, r->f[i].len))
        die("a field that is not UTF-8");
    if (json) json_check(&j, r, keys);
    else csv_check(r, &o);
    /* columns: CSV by position, JSON by key */
    bool fits = r->nf <= MAX_COLS;
    for (int i = 0; fits && i < r->nf; i++) {
      int col = i;
      if (json) {
        size_t kl = strlen(keys);
        col = -1;
        for (int k = 0; k < ncols; k++)
          if (strlen(names[k]) == kl && memcmp(names[k], keys, kl) == 0) col = k;
        if (col < 0 && ncols < MAX_COLS && kl < sizeof names[0]) {
          memcpy(names[ncols], keys, kl + 1);
          col = ncols++;
        }
        if (col < 0) fits = false;
        keys += kl + 1;
      } else if (i >= ncols) {
        ncols = i + 1;
      }
      map[rs->n][i] = col;
    }
    if (!fits) break;
    rs->n++;
  }
  infer_check(rs, ncols, (const int(*)[MAX_COLS])map);
  geo_check(rs);
  if (json) nested_check(rs, ncols, (const int(*)[MAX_COLS])map, names);
  for (int i = 0; i < MAX_ROWS; i++) cv_record_free(&rs->r[i]);
  free(rs);
  free(map);
  free(b);
  cv_json_free(&j);
  cv_input_close(in);
  return 0;
}
