/*
 * dataset/dataset_text.c: pqt_dataset_write_text. Each file's rows come
 * from pqt_reader_write_text (its own columns, the filter specialised to
 * the file); each record of that text is cut into its cells (CSV) or
 * top-level members (JSON) and written again in dataset order, with the
 * columns the file lacks as null and the partition values appended.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dataset/dataset_internal.h"
#include "text/text.h"

typedef struct span {
  size_t at, len;
} span;

typedef struct tx {
  const pqt_dataset *ds;
  int32_t f;
  pqt_text_format fmt;
  const int32_t *sel;
  int32_t n_sel;
  int32_t *src;       /* per sel: the cell of the file's record, -1 none */
  int32_t n_expected; /* cells per record of the file's text */
  bool skip_header;   /* CSV: the file's header line is not passed on */
  pqt_buf pend;       /* text of an unfinished record */
  size_t scanned;     /* pend[0..scanned) holds no record end */
  bool in_quote;
  pqt_buf out;
  span *cells;
  int32_t cells_cap;
  pqt_write_fn write;
  void *wctx;
  int64_t records;
  pqt_error err;
} tx;

static pqt_status put_json_string(pqt_buf *b, const char *s, size_t n, pqt_error *err) {
  pqt_buf_append(b, "\"", 1, err);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      pqt_buf_append(b, e, 2, err);
    } else if (c < 0x20) {
      pqt_buf_printf(b, err, "\\u%04x", c);
    } else {
      pqt_buf_append(b, s + i, 1, err);
    }
  }
  return pqt_buf_append(b, "\"", 1, err);
}

static const char *col_name(const pqt_dataset *ds, int32_t c) {
  return c < ds->n_cols ? ds->cols[c].name : ds->part_names[c - ds->n_cols];
}

static pqt_status add_cell(tx *t, int32_t *n, size_t at, size_t len, pqt_error *err) {
  if (*n == t->cells_cap) {
    int32_t cap = t->cells_cap ? t->cells_cap * 2 : 16;
    span *c = realloc(t->cells, sizeof *c * (size_t)cap);
    if (!c) return pqt_nomem(err);
    t->cells = c;
    t->cells_cap = cap;
  }
  t->cells[(*n)++] = (span){at, len};
  return PQT_OK;
}

/* Cut record r[0..n) into cells (CSV) or members (JSON, without braces). */
static pqt_status split(tx *t, const char *r, size_t n, int32_t *nc, pqt_error *err) {
  *nc = 0;
  size_t from = 0, end = n;
  if (t->fmt == PQT_TEXT_JSONL) {
    if (n < 2 || r[0] != '{' || r[n - 1] != '}')
      return pqt_error_set(err, PQT_EIO, "%s: unexpected row text", t->ds->files[t->f].path);
    from = 1;
    end = n - 1;
    if (end == from) return PQT_OK;
  }
  bool inq = false, esc = false;
  int depth = 0;
  size_t start = from;
  for (size_t i = from; i < end; i++) {
    char c = r[i];
    if (t->fmt == PQT_TEXT_JSONL) {
      if (inq) {
        if (esc) esc = false;
        else if (c == '\\') esc = true;
        else if (c == '"') inq = false;
        continue;
      }
      if (c == '"') inq = true;
      else if (c == '{' || c == '[') depth++;
      else if (c == '}' || c == ']') depth--;
      else if (c == ',' && depth == 0) {
        pqt_status st = add_cell(t, nc, start, i - start, err);
        if (st != PQT_OK) return st;
        start = i + 1;
      }
    } else {
      if (c == '"') inq = !inq;
      else if (c == ',' && !inq) {
        pqt_status st = add_cell(t, nc, start, i - start, err);
        if (st != PQT_OK) return st;
        start = i + 1;
      }
    }
  }
  return add_cell(t, nc, start, end - start, err);
}

static pqt_status put_partition(tx *t, int32_t k, pqt_error *err) {
  const pqt_ds_file *file = &t->ds->files[t->f];
  const char *v = file->part_raw[k];
  if (t->fmt == PQT_TEXT_JSONL) {
    if (!v) return pqt_buf_append(&t->out, "null", 4, err);
    if (t->ds->part_types[k] == PQT_PARTITION_INT64)
      return pqt_buf_printf(&t->out, err, "%lld", (long long)file->part_i[k]);
    return put_json_string(&t->out, v, strlen(v), err);
  }
  if (!v) return PQT_OK;
  if (t->ds->part_types[k] == PQT_PARTITION_INT64)
    return pqt_buf_printf(&t->out, err, "%lld", (long long)file->part_i[k]);
  return pqt_csv_cell(&t->out, v, strlen(v), err);
}

static pqt_status record(tx *t, const char *r, size_t n, pqt_error *err) {
  if (t->skip_header) {
    t->skip_header = false;
    return PQT_OK;
  }
  int32_t nc;
  pqt_status st = split(t, r, n, &nc, err);
  if (st != PQT_OK) return st;
  if (nc != t->n_expected)
    return pqt_error_set(err, PQT_EIO, "%s: a row of %d columns, %d expected", t->ds->files[t->f].path, (int)nc,
                         (int)t->n_expected);
  bool json = t->fmt == PQT_TEXT_JSONL;
  if (json) pqt_buf_append(&t->out, "{", 1, err);
  for (int32_t k = 0; k < t->n_sel; k++) {
    if (k) pqt_buf_append(&t->out, ",", 1, err);
    int32_t c = t->sel[k];
    if (t->src[k] >= 0) {
      span s = t->cells[t->src[k]];
      pqt_buf_append(&t->out, r + s.at, s.len, err);
      continue;
    }
    if (json) {
      const char *name = col_name(t->ds, c);
      put_json_string(&t->out, name, strlen(name), err);
      pqt_buf_append(&t->out, ":", 1, err);
    }
    if (c >= t->ds->n_cols) put_partition(t, c - t->ds->n_cols, err);
    else if (json) pqt_buf_append(&t->out, "null", 4, err);
  }
  if (json) pqt_buf_append(&t->out, "}", 1, err);
  pqt_buf_append(&t->out, "\n", 1, err);
  t->records++;
  if ((st = pqt_buf_status(&t->out, err)) != PQT_OK) return st;
  if (t->out.len >= (1u << 18)) {
    st = t->write(t->wctx, (const char *)t->out.data, t->out.len);
    t->out.len = 0;
    if (st != PQT_OK) return pqt_error_set(err, st, "write failed");
  }
  return PQT_OK;
}

/* The file's text arrives here in pieces: cut it at record ends. */
static pqt_status on_text(void *ctx, const char *data, size_t len) {
  tx *t = ctx;
  pqt_status st = pqt_buf_append(&t->pend, data, len, &t->err);
  if (st != PQT_OK) return st;
  size_t start = 0;
  const char *p = (const char *)t->pend.data;
  for (size_t i = t->scanned; i < t->pend.len; i++) {
    if (t->fmt == PQT_TEXT_CSV && p[i] == '"') t->in_quote = !t->in_quote;
    if (p[i] != '\n' || t->in_quote) continue;
    st = record(t, p + start, i - start, &t->err);
    if (st != PQT_OK) return st;
    start = i + 1;
  }
  memmove(t->pend.data, t->pend.data + start, t->pend.len - start);
  t->pend.len -= start;
  t->scanned = t->pend.len;
  return PQT_OK;
}

static bool file_has(const pqt_ds_file *file, const char *name, int32_t *at) {
  for (int32_t i = 0; i < file->n_names; i++)
    if (strcmp(file->names[i], name) == 0) {
      *at = i;
      return true;
    }
  return false;
}

PQT_API pqt_status pqt_dataset_write_text(pqt_dataset *ds, const pqt_scan_options *opts, pqt_text_format format,
                                          int64_t limit, pqt_write_fn write, void *ctx, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !write || (format != PQT_TEXT_JSONL && format != PQT_TEXT_CSV))
    return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_write_text: bad arguments");
  pqt_scan_options o;
  pqt_status st = pqt_ds_load_scan_options(ds, opts, &o, err);
  if (st != PQT_OK) return st;
  int32_t total = ds->n_cols + ds->n_parts;
  tx t;
  memset(&t, 0, sizeof t);
  t.ds = ds;
  t.fmt = format;
  t.write = write;
  t.wctx = ctx;
  pqt_buf_init(&t.pend, NULL);
  pqt_buf_init(&t.out, NULL);
  int32_t *sel = calloc((size_t)total + 1, sizeof *sel);
  int32_t *src = calloc((size_t)total + 1, sizeof *src);
  int32_t *rank = calloc((size_t)total + 1, sizeof *rank);
  const char **cols = calloc((size_t)total + 1, sizeof *cols);
  if (!sel || !src || !rank || !cols) st = pqt_nomem(err);
  int32_t n_sel = 0;
  if (st == PQT_OK) st = pqt_ds_projection(ds, &o, sel, &n_sel, err);
  t.sel = sel;
  t.n_sel = n_sel;
  t.src = src;
  pqt_scan_stats acc;
  memset(&acc, 0, sizeof acc);
  if (st == PQT_OK && format == PQT_TEXT_CSV) {
    for (int32_t k = 0; k < n_sel; k++) {
      if (k) pqt_buf_append(&t.out, ",", 1, err);
      const char *name = col_name(ds, sel[k]); /* a Hive key may hold a comma or quote */
      pqt_csv_cell(&t.out, name, strlen(name), err);
    }
    st = pqt_buf_append(&t.out, "\n", 1, err);
  }
  for (int32_t f = 0; f < ds->n_files && st == PQT_OK && (limit < 0 || t.records < limit); f++) {
    int verdict = 1;
    pqt_expr *res = NULL;
    if (o.filter && (st = pqt_ds_filter_for_file(ds, f, o.filter, &verdict, &res, err)) != PQT_OK) break;
    if (verdict == 0) continue;
    const pqt_ds_file *file = &ds->files[f];
    /* the file's projected columns in its schema order; cells follow that order */
    int32_t nc = 0;
    for (int32_t i = 0; i < file->n_names; i++) rank[i] = -1;
    for (int32_t k = 0; k < n_sel; k++) {
      int32_t at;
      src[k] = -1;
      if (sel[k] < ds->n_cols && file_has(file, ds->cols[sel[k]].name, &at)) rank[at] = 0;
    }
    for (int32_t i = 0; i < file->n_names; i++)
      if (rank[i] == 0) {
        rank[i] = nc;
        cols[nc++] = file->names[i];
      }
    for (int32_t k = 0; k < n_sel; k++) {
      int32_t at;
      if (sel[k] < ds->n_cols && file_has(file, ds->cols[sel[k]].name, &at)) src[k] = rank[at];
    }
    t.n_expected = nc;
    if (nc == 0 && file->n_names > 0) { /* rows only: read the first column and drop it */
      cols[nc++] = file->names[0];
      t.n_expected = 1;
    }
    t.f = f;
    t.skip_header = format == PQT_TEXT_CSV;
    t.in_quote = false;
    t.pend.len = 0;
    t.scanned = 0;
    pqt_error_init(&t.err);
    pqt_reader *r;
    st = pqt_ds_open_reader(ds, f, &r, err);
    if (st == PQT_OK) {
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.columns = cols;
      so.n_columns = nc;
      so.filter = res;
      pqt_scan_stats fst;
      memset(&fst, 0, sizeof fst);
      so.stats = &fst;
      st = pqt_reader_write_text(r, &so, format, limit < 0 ? -1 : limit - t.records, on_text, &t, err);
      if (st != PQT_OK && t.err.message[0] && err) *err = t.err;
      if (st == PQT_OK && t.pend.len > 0) st = record(&t, (const char *)t.pend.data, t.pend.len, err);
      if (st != PQT_OK && err && !strstr(err->message, file->path)) pqt_error_prefix(err, "%s", file->path);
      pqt_ds_stats_add(&acc, &fst);
      pqt_reader_close(r);
    }
    pqt_expr_free(res);
  }
  if (st == PQT_OK && t.out.len > 0) {
    st = write(ctx, (const char *)t.out.data, t.out.len);
    if (st != PQT_OK) pqt_error_set(err, st, "write failed");
  }
  if (o.stats) *o.stats = acc;
  pqt_buf_free(&t.pend);
  pqt_buf_free(&t.out);
  free(t.cells);
  free(sel);
  free(src);
  free(rank);
  free(cols);
  return st;
}
