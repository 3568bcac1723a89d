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
  const struct ArrowSchema *usch; /* per sel: the unified (pruned) type */
  const struct ArrowSchema **fty; /* per sel: the file's type when its cell is rewritten to usch, else NULL */
  pqt_buf tmp, tmp2;
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

/* The end of the JSON value that starts at s[i] (strings, objects and
 * arrays skipped whole), at most n. */
static size_t json_value_end(const char *s, size_t n, size_t i) {
  int depth = 0;
  bool inq = false, esc = false;
  for (; i < n; i++) {
    char c = s[i];
    if (inq) {
      if (esc) esc = false;
      else if (c == '\\') esc = true;
      else if (c == '"') {
        inq = false;
        if (depth == 0) return i + 1;
      }
      continue;
    }
    if (c == '"') inq = true;
    else if (c == '{' || c == '[') depth++;
    else if (c == '}' || c == ']') {
      if (--depth <= 0) return i + 1;
    } else if (depth == 0 && (c == ',' || c == ':')) return i;
  }
  return n;
}

static const struct ArrowSchema *type_child(const struct ArrowSchema *s, const char *name) {
  for (int64_t i = 0; s && i < s->n_children; i++)
    if (strcmp(s->children[i]->name ? s->children[i]->name : "", name) == 0) return s->children[i];
  return NULL;
}

/* The JSON text v[0..n) of a value of the file's type f (NULL: unknown)
 * as a value of the unified type u (dataset.c's unify_type): struct
 * members by name in u's order, those the file lacks null; list, map and
 * fixed-size list elements likewise; everything else as it is. */
static pqt_status rewrite_json(const char *v, size_t n, const struct ArrowSchema *f, const struct ArrowSchema *u,
                               pqt_buf *out, pqt_buf *key, pqt_error *err) {
  while (n && (*v == ' ')) v++, n--;
  bool strct = strcmp(u->format, "+s") == 0;
  bool list = !strct && u->format[0] == '+' && u->n_children == 1;
  if ((f && pqt_ds_schema_same(f, u)) || (!strct && !list) || n == 0 || (n == 4 && memcmp(v, "null", 4) == 0))
    return pqt_buf_append(out, v, n, err);
  char open = strct ? '{' : '[';
  if (v[0] != open || v[n - 1] != (strct ? '}' : ']'))
    return pqt_error_set(err, PQT_EIO, "column %s: unexpected value text", u->name ? u->name : "");
  pqt_buf_append(out, &open, 1, err);
  if (list) {
    size_t i = 1;
    bool first = true;
    while (i < n - 1) {
      size_t e = json_value_end(v, n - 1, i);
      if (!first) pqt_buf_append(out, ",", 1, err);
      first = false;
      pqt_status st =
          rewrite_json(v + i, e - i, f && f->n_children == 1 ? f->children[0] : NULL, u->children[0], out, key, err);
      if (st != PQT_OK) return st;
      i = e + 1; /* past the comma */
    }
    return pqt_buf_append(out, "]", 1, err);
  }
  for (int64_t j = 0; j < u->n_children; j++) {
    const char *name = u->children[j]->name ? u->children[j]->name : "";
    key->len = 0;
    put_json_string(key, name, strlen(name), err);
    pqt_status st = pqt_buf_status(key, err);
    if (st != PQT_OK) return st;
    if (j) pqt_buf_append(out, ",", 1, err);
    pqt_buf_append(out, key->data, key->len, err);
    pqt_buf_append(out, ":", 1, err);
    /* the member of that name */
    const char *val = "null";
    size_t vl = 4;
    for (size_t i = 1; i < n - 1;) {
      size_t ke = json_value_end(v, n - 1, i);
      size_t ve = json_value_end(v, n - 1, ke + 1);
      if (ke - i == key->len && memcmp(v + i, key->data, key->len) == 0) {
        val = v + ke + 1;
        vl = ve - ke - 1;
        break;
      }
      i = ve + 1;
    }
    pqt_buf sub;
    pqt_buf_init(&sub, NULL);
    st = rewrite_json(val, vl, type_child(f, name), u->children[j], out, &sub, err);
    pqt_buf_free(&sub);
    if (st != PQT_OK) return st;
  }
  return pqt_buf_append(out, "}", 1, err);
}

/* Cell s of record r for selected column k, rewritten to the unified type
 * when the file's type differs (JSON: the member's value; CSV: the quoted
 * JSON text of the cell). */
static pqt_status put_cell(tx *t, int32_t k, const char *r, span s, pqt_error *err) {
  if (!t->fty[k]) return pqt_buf_append(&t->out, r + s.at, s.len, err);
  const char *c = r + s.at;
  size_t n = s.len;
  if (t->fmt == PQT_TEXT_JSONL) {
    size_t ke = json_value_end(c, n, 0);
    if (ke >= n) return pqt_error_set(err, PQT_EIO, "%s: unexpected row text", t->ds->files[t->f].path);
    pqt_buf_append(&t->out, c, ke + 1, err);
    return rewrite_json(c + ke + 1, n - ke - 1, t->fty[k], &t->usch[k], &t->out, &t->tmp2, err);
  }
  if (n == 0) return PQT_OK; /* NULL */
  t->tmp.len = 0;
  if (c[0] == '"' && n >= 2) { /* unquote */
    for (size_t i = 1; i + 1 < n; i++) {
      pqt_buf_append(&t->tmp, c + i, 1, err);
      if (c[i] == '"') i++;
    }
  } else {
    pqt_buf_append(&t->tmp, c, n, err);
  }
  pqt_buf j;
  pqt_buf_init(&j, NULL);
  pqt_status st = pqt_buf_status(&t->tmp, err);
  if (st == PQT_OK)
    st = rewrite_json((const char *)t->tmp.data, t->tmp.len, t->fty[k], &t->usch[k], &j, &t->tmp2, err);
  if (st == PQT_OK) st = pqt_buf_status(&j, err);
  if (st == PQT_OK) st = pqt_csv_cell(&t->out, (const char *)j.data, j.len, err);
  pqt_buf_free(&j);
  return st;
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
      st = put_cell(t, k, r, t->cells[t->src[k]], err);
      if (st != PQT_OK) return st;
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
  const struct ArrowSchema **fty = calloc((size_t)total + 1, sizeof(const struct ArrowSchema *));
  struct ArrowSchema *usch = NULL;
  pqt_ds_names names = {0};
  pqt_buf_init(&t.tmp, NULL);
  pqt_buf_init(&t.tmp2, NULL);
  if (!sel || !src || !fty) st = pqt_nomem(err);
  int32_t n_sel = 0;
  if (st == PQT_OK) st = pqt_ds_projection(ds, &o, sel, &n_sel, &usch, err);
  t.sel = sel;
  t.n_sel = n_sel;
  t.src = src;
  t.usch = usch;
  t.fty = fty;
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
    /* the file's projected columns in its schema order; cells follow that
     * order (the paths of fields of one struct make one cell) */
    int32_t nc = 0;
    pqt_ds_names_free(&names);
    for (int32_t k = 0; k < n_sel; k++) src[k] = -1, fty[k] = NULL;
    for (int64_t i = 0; i < file->schema.n_children && st == PQT_OK; i++) {
      const struct ArrowSchema *fc = file->schema.children[i];
      for (int32_t k = 0; k < n_sel && st == PQT_OK; k++) {
        if (sel[k] >= ds->n_cols || strcmp(usch[k].name, fc->name) != 0) continue;
        int32_t before = names.n;
        st = pqt_ds_file_columns(ds, f, &usch[k], &names, err);
        if (names.n == before) continue;
        src[k] = nc++;
        if (fc->format[0] == '+' && !pqt_ds_schema_same(fc, &usch[k])) fty[k] = fc;
      }
    }
    t.n_expected = nc;
    if (st == PQT_OK && names.n == 0 && file->n_names > 0) { /* rows only: read the first column and drop it */
      st = pqt_ds_names_add(&names, file->names[0], err);
      t.n_expected = 1;
    }
    if (st != PQT_OK) {
      pqt_expr_free(res);
      break;
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
      so.columns = (const char **)names.v;
      so.n_columns = names.n;
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
  pqt_buf_free(&t.tmp);
  pqt_buf_free(&t.tmp2);
  free(t.cells);
  pqt_ds_names_free(&names);
  pqt_ds_schemas_free(usch, n_sel);
  free(sel);
  free(src);
  free(fty);
  return st;
}
