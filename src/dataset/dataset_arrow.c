/*
 * dataset/dataset_arrow.c: the dataset as Arrow. Schema copies, arrays of
 * NULLs for the columns a file lacks, int32->int64 and float->double
 * widening, constant partition columns, and the stream that walks the
 * files (or one plan unit) and hands out batches of the unified schema.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrow/format.h"
#include "dataset/dataset_internal.h"
#include "scan/filter.h"

/* Release, then free, the children and the dictionary an own_schema or an
 * own_array holds: the same steps for both Arrow structs, which differ only
 * in type (hence a macro, not a function). */
#define OWN_RELEASE_KIDS_AND_DICT(p)                                                        \
  do {                                                                                      \
    for (int64_t k_ = 0; k_ < (p)->n_kids; k_++) {                                          \
      if ((p)->kids[k_] && (p)->kids[k_]->release) (p)->kids[k_]->release((p)->kids[k_]); \
      free((p)->kids[k_]);                                                                  \
    }                                                                                       \
    free((p)->kids);                                                                        \
    if ((p)->dict) {                                                                        \
      if ((p)->dict->release) (p)->dict->release((p)->dict);                                \
      free((p)->dict);                                                                      \
    }                                                                                       \
  } while (0)

/* ---- schemas we own ---- */
typedef struct own_schema {
  char *format, *name, *metadata;
  struct ArrowSchema **kids;
  int64_t n_kids;
  struct ArrowSchema *dict;
} own_schema;

static void own_schema_release(struct ArrowSchema *s) {
  if (!s || !s->release) return;
  own_schema *p = s->private_data;
  OWN_RELEASE_KIDS_AND_DICT(p);
  free(p->format);
  free(p->name);
  free(p->metadata);
  free(p);
  s->release = NULL;
}

static size_t metadata_len(const char *m) {
  if (!m) return 0;
  int32_t n, l;
  size_t at = 4;
  memcpy(&n, m, 4);
  for (int32_t i = 0; i < n; i++) {
    memcpy(&l, m + at, 4);
    at += 4 + (size_t)l;
    memcpy(&l, m + at, 4);
    at += 4 + (size_t)l;
  }
  return at;
}

static pqt_status own_schema_new(struct ArrowSchema *dst, const char *format, const char *name, int64_t n_kids,
                                 pqt_error *err) {
  memset(dst, 0, sizeof *dst);
  own_schema *p = calloc(1, sizeof *p);
  if (!p) return pqt_nomem(err);
  dst->private_data = p;
  dst->release = own_schema_release;
  p->format = strdup(format);
  p->name = strdup(name ? name : "");
  // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of child pointers
  if (n_kids > 0) p->kids = calloc((size_t)n_kids, sizeof *p->kids);
  if (!p->format || !p->name || (n_kids > 0 && !p->kids)) {
    own_schema_release(dst);
    return pqt_nomem(err);
  }
  p->n_kids = n_kids;
  for (int64_t i = 0; i < n_kids; i++) {
    p->kids[i] = calloc(1, sizeof(struct ArrowSchema));
    if (!p->kids[i]) {
      own_schema_release(dst);
      return pqt_nomem(err);
    }
  }
  dst->format = p->format;
  dst->name = p->name;
  dst->n_children = n_kids;
  dst->children = p->kids;
  return PQT_OK;
}

pqt_status pqt_ds_schema_copy(const struct ArrowSchema *src, struct ArrowSchema *dst, pqt_error *err) {
  pqt_status st = own_schema_new(dst, src->format, src->name, src->n_children, err);
  if (st != PQT_OK) return st;
  own_schema *p = dst->private_data;
  dst->flags = src->flags;
  if (src->metadata) {
    size_t n = metadata_len(src->metadata);
    p->metadata = malloc(n);
    if (!p->metadata) goto nomem;
    memcpy(p->metadata, src->metadata, n);
    dst->metadata = p->metadata;
  }
  for (int64_t i = 0; i < src->n_children; i++) {
    st = pqt_ds_schema_copy(src->children[i], p->kids[i], err);
    if (st != PQT_OK) goto fail;
  }
  if (src->dictionary) {
    p->dict = calloc(1, sizeof *p->dict);
    if (!p->dict) goto nomem;
    st = pqt_ds_schema_copy(src->dictionary, p->dict, err);
    if (st != PQT_OK) goto fail;
    dst->dictionary = p->dict;
  }
  return PQT_OK;
nomem:
  st = pqt_nomem(err);
fail:
  own_schema_release(dst);
  return st;
}

bool pqt_ds_schema_same(const struct ArrowSchema *a, const struct ArrowSchema *b) {
  if (strcmp(a->format, b->format) != 0 || a->n_children != b->n_children) return false;
  if (!a->dictionary != !b->dictionary) return false;
  if (a->dictionary && !pqt_ds_schema_same(a->dictionary, b->dictionary)) return false;
  for (int64_t i = 0; i < a->n_children; i++) {
    const char *an = a->children[i]->name ? a->children[i]->name : "";
    const char *bn = b->children[i]->name ? b->children[i]->name : "";
    if (strcmp(an, bn) != 0 || !pqt_ds_schema_same(a->children[i], b->children[i])) return false;
  }
  return true;
}

/* ---- arrays we own ---- */
typedef struct own_array {
  void *mem[3];
  const void *bufs[3];
  struct ArrowArray **kids;
  int64_t n_kids;
  struct ArrowArray *dict;
  struct ArrowArray keep; /* an array whose buffers are borrowed (released with us) */
} own_array;

static void own_array_release(struct ArrowArray *a) {
  if (!a || !a->release) return;
  own_array *p = a->private_data;
  OWN_RELEASE_KIDS_AND_DICT(p);
  for (int i = 0; i < 3; i++) free(p->mem[i]);
  if (p->keep.release) p->keep.release(&p->keep);
  free(p);
  a->release = NULL;
}

static pqt_status own_array_new(struct ArrowArray *out, int64_t length, int n_buffers, int64_t n_kids, pqt_error *err) {
  memset(out, 0, sizeof *out);
  own_array *p = calloc(1, sizeof *p);
  if (!p) return pqt_nomem(err);
  out->private_data = p;
  out->release = own_array_release;
  out->length = length;
  out->n_buffers = n_buffers;
  out->buffers = p->bufs;
  if (n_kids > 0) {
    // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of child pointers
    p->kids = calloc((size_t)n_kids, sizeof *p->kids);
    if (!p->kids) goto nomem;
    p->n_kids = n_kids;
    for (int64_t i = 0; i < n_kids; i++) {
      p->kids[i] = calloc(1, sizeof(struct ArrowArray));
      if (!p->kids[i]) goto nomem;
    }
  }
  out->n_children = n_kids;
  out->children = p->kids;
  return PQT_OK;
nomem:
  own_array_release(out);
  return pqt_nomem(err);
}

/* A zeroed buffer of n bytes (at least 1) as buffer i. */
static pqt_status own_buf(struct ArrowArray *a, int i, size_t n, pqt_error *err) {
  own_array *p = a->private_data;
  p->mem[i] = calloc(n ? n : 1, 1);
  if (!p->mem[i]) return pqt_nomem(err);
  p->bufs[i] = p->mem[i];
  return PQT_OK;
}

/* The bytes one value of a fixed-width Arrow type takes (0: not fixed
 * width), read through the one format-string parser. */
static size_t fixed_width(const char *f) {
  pqt_arrow_format af;
  if (!pqt_arrow_format_parse(f, &af)) return 0;
  switch (af.kind) {
    case PQT_AK_INT:
    case PQT_AK_FLOAT:
    case PQT_AK_DATE:
    case PQT_AK_TIME:
    case PQT_AK_DECIMAL: return (size_t)af.bit_width / 8;
    case PQT_AK_DURATION:
    case PQT_AK_TIMESTAMP: return 8;
    case PQT_AK_INTERVAL: return af.unit == 'M' ? 4 : af.unit == 'D' ? 8 : 16;
    case PQT_AK_FIXED_BINARY: return af.fixed_width > 0 && af.fixed_width < (1 << 30) ? (size_t)af.fixed_width : 0;
    default: return 0;
  }
}

#define DS_MAX_NULL_BYTES ((size_t)1 << 34)

pqt_status pqt_ds_null_array(const struct ArrowSchema *s, int64_t n, struct ArrowArray *out, pqt_error *err) {
  const char *f = s->format;
  size_t bitmap = ((size_t)n + 7) / 8;
  pqt_status st;
  if (s->dictionary) {
    size_t w = fixed_width(f);
    if (!w) return pqt_error_set(err, PQT_EUNSUPPORTED, "dictionary index type '%s'", f);
    if ((st = own_array_new(out, n, 2, 0, err)) != PQT_OK) return st;
    own_array *p = out->private_data;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK || (st = own_buf(out, 1, w * (size_t)n, err)) != PQT_OK)
      goto fail;
    p->dict = calloc(1, sizeof *p->dict);
    if (!p->dict) goto nomem;
    if ((st = pqt_ds_null_array(s->dictionary, 0, p->dict, err)) != PQT_OK) goto fail;
    out->dictionary = p->dict;
    return PQT_OK;
  }
  if (strcmp(f, "n") == 0) {
    if ((st = own_array_new(out, n, 0, 0, err)) != PQT_OK) return st;
    out->null_count = n;
    return PQT_OK;
  }
  if (strcmp(f, "b") == 0) {
    if ((st = own_array_new(out, n, 2, 0, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK || (st = own_buf(out, 1, bitmap, err)) != PQT_OK) goto fail;
    return PQT_OK;
  }
  size_t w = fixed_width(f);
  if (w) {
    if (w * (size_t)n > DS_MAX_NULL_BYTES) return pqt_error_set(err, PQT_ELIMIT, "NULL column too large");
    if ((st = own_array_new(out, n, 2, 0, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK || (st = own_buf(out, 1, w * (size_t)n, err)) != PQT_OK)
      goto fail;
    return PQT_OK;
  }
  if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0 || strcmp(f, "U") == 0 || strcmp(f, "Z") == 0) {
    size_t ow = (f[0] == 'U' || f[0] == 'Z') ? 8 : 4;
    if ((st = own_array_new(out, n, 3, 0, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK || (st = own_buf(out, 1, ow * ((size_t)n + 1), err)) != PQT_OK ||
        (st = own_buf(out, 2, 1, err)) != PQT_OK)
      goto fail;
    return PQT_OK;
  }
  if (strcmp(f, "+s") == 0) {
    if ((st = own_array_new(out, n, 1, s->n_children, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK) goto fail;
    for (int64_t i = 0; i < s->n_children; i++)
      if ((st = pqt_ds_null_array(s->children[i], n, out->children[i], err)) != PQT_OK) goto fail;
    return PQT_OK;
  }
  if (strcmp(f, "+l") == 0 || strcmp(f, "+L") == 0 || strcmp(f, "+m") == 0) {
    size_t ow = f[1] == 'L' ? 8 : 4;
    if (s->n_children != 1) return pqt_error_set(err, PQT_EINVAL, "list type without a child");
    if ((st = own_array_new(out, n, 2, 1, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK || (st = own_buf(out, 1, ow * ((size_t)n + 1), err)) != PQT_OK)
      goto fail;
    if ((st = pqt_ds_null_array(s->children[0], 0, out->children[0], err)) != PQT_OK) goto fail;
    return PQT_OK;
  }
  if (strncmp(f, "+w:", 3) == 0 && s->n_children == 1) {
    long k = strtol(f + 3, NULL, 10);
    if (k < 0 || k > (1L << 20)) return pqt_error_set(err, PQT_EUNSUPPORTED, "type '%s'", f);
    if ((st = own_array_new(out, n, 1, 1, err)) != PQT_OK) return st;
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK) goto fail;
    if ((st = pqt_ds_null_array(s->children[0], n * k, out->children[0], err)) != PQT_OK) goto fail;
    return PQT_OK;
  }
  return pqt_error_set(err, PQT_EUNSUPPORTED, "a NULL column of type '%s'", f);
nomem:
  st = pqt_nomem(err);
fail:
  out->release(out);
  return st;
}

/* Move a (taken over) into a widened array of format to ("l" or "g"). */
static pqt_status widen(struct ArrowArray *a, const char *from, struct ArrowArray *out, pqt_error *err) {
  int64_t n = a->offset + a->length;
  pqt_status st = own_array_new(out, a->length, 2, 0, err);
  if (st != PQT_OK) {
    a->release(a);
    return st;
  }
  own_array *p = out->private_data;
  p->keep = *a;
  a->release = NULL;
  out->offset = p->keep.offset;
  out->null_count = p->keep.null_count;
  p->bufs[0] = p->keep.buffers[0];
  if ((st = own_buf(out, 1, 8 * (size_t)(n ? n : 1), err)) != PQT_OK) {
    out->release(out);
    return st;
  }
  const void *src = p->keep.buffers[1];
  if (from[0] == 'i') {
    int64_t *d = p->mem[1];
    for (int64_t i = 0; i < n && src; i++) {
      int32_t v;
      memcpy(&v, (const char *)src + 4 * i, 4);
      d[i] = v;
    }
  } else {
    double *d = p->mem[1];
    for (int64_t i = 0; i < n && src; i++) {
      float v;
      memcpy(&v, (const char *)src + 4 * i, 4);
      d[i] = v;
    }
  }
  return PQT_OK;
}

/* A partition column: n copies of file f's value. */
static pqt_status part_array(const pqt_dataset *ds, int32_t f, int32_t k, int64_t n, struct ArrowArray *out,
                             pqt_error *err) {
  const char *v = ds->files[f].part_raw[k];
  size_t bitmap = ((size_t)n + 7) / 8;
  pqt_status st;
  if (ds->part_types[k] == PQT_PARTITION_INT64) {
    if ((st = own_array_new(out, n, 2, 0, err)) != PQT_OK) return st;
    if (!v) {
      out->null_count = n;
      if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK) goto fail;
    }
    if ((st = own_buf(out, 1, 8 * (size_t)n, err)) != PQT_OK) goto fail;
    int64_t *d = ((own_array *)out->private_data)->mem[1];
    for (int64_t i = 0; i < n && v; i++) d[i] = ds->files[f].part_i[k];
    return PQT_OK;
  }
  size_t len = v ? strlen(v) : 0;
  if (len && (size_t)n > (size_t)INT32_MAX / len) return pqt_error_set(err, PQT_ELIMIT, "partition column too large");
  if ((st = own_array_new(out, n, 3, 0, err)) != PQT_OK) return st;
  if (!v) {
    out->null_count = n;
    if ((st = own_buf(out, 0, bitmap, err)) != PQT_OK) goto fail;
  }
  if ((st = own_buf(out, 1, 4 * ((size_t)n + 1), err)) != PQT_OK ||
      (st = own_buf(out, 2, len * (size_t)n, err)) != PQT_OK)
    goto fail;
  own_array *p = out->private_data;
  int32_t *off = p->mem[1];
  char *data = p->mem[2];
  for (int64_t i = 0; i < n; i++) {
    off[i + 1] = (int32_t)((size_t)(i + 1) * len);
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): Arrow string data has no terminator; offsets give lengths
    if (len) memcpy(data + (size_t)i * len, v, len);
  }
  return PQT_OK;
fail:
  out->release(out);
  return st;
}

/* ---- the stream ---- */
typedef struct ds_stream {
  pqt_dataset *ds;
  int32_t *sel; /* projected columns: unified index (partitions from n_cols) */
  int32_t n_sel;
  const pqt_expr *filter;
  int64_t batch_size;
  pqt_scan_stats *stats_out;
  pqt_scan_stats acc, cur;
  int32_t next_file, end_file;
  int32_t *groups; /* a unit's row groups (NULL: all) */
  int32_t n_groups;
  /* the current file */
  bool open;
  int32_t file;
  struct ArrowArrayStream fstream;
  pqt_expr *residual;
  int32_t *map;   /* per sel: the file batch's child, or -1 */
  uint8_t *widen; /* per sel: widen the file's child */
  char last_error[1024];
} ds_stream;

static int st_errno(pqt_status st) {
  switch (st) {
    case PQT_ENOMEM: return ENOMEM;
    case PQT_EINVAL: return EINVAL;
    case PQT_EUNSUPPORTED: return ENOTSUP;
    case PQT_ELIMIT: return E2BIG;
    default: return EIO;
  }
}

void pqt_ds_stats_add(pqt_scan_stats *a, const pqt_scan_stats *b) {
  a->rows += b->rows;
  a->row_groups_read += b->row_groups_read;
  a->row_groups_total += b->row_groups_total;
  a->pages_read += b->pages_read;
  a->pages_total += b->pages_total;
  a->bytes_read += b->bytes_read;
  a->row_groups_pruned_stats += b->row_groups_pruned_stats;
  a->row_groups_pruned_dictionary += b->row_groups_pruned_dictionary;
  a->row_groups_pruned_bloom += b->row_groups_pruned_bloom;
}

static void close_file(ds_stream *p) {
  if (p->open) {
    p->fstream.release(&p->fstream);
    p->open = false;
  }
  pqt_expr_free(p->residual);
  p->residual = NULL;
  pqt_ds_stats_add(&p->acc, &p->cur);
  memset(&p->cur, 0, sizeof p->cur);
}

static bool file_has(const pqt_ds_file *file, const char *name) {
  for (int32_t i = 0; i < file->n_names; i++)
    if (strcmp(file->names[i], name) == 0) return true;
  return false;
}

/* Open file f's stream; *skipped when the filter rules the file out. */
static pqt_status open_file(ds_stream *p, int32_t f, bool *skipped, pqt_error *err) {
  pqt_dataset *ds = p->ds;
  pqt_ds_file *file = &ds->files[f];
  *skipped = false;
  int verdict = 1;
  if (p->filter) {
    pqt_status st = pqt_ds_filter_for_file(ds, f, p->filter, &verdict, &p->residual, err);
    if (st != PQT_OK) return st;
    if (verdict == 0) {
      *skipped = true;
      return PQT_OK;
    }
  }
  const char **cols = calloc((size_t)p->n_sel + 1, sizeof(char *));
  if (!cols) return pqt_nomem(err);
  int32_t nc = 0;
  for (int32_t k = 0; k < p->n_sel; k++)
    if (p->sel[k] < ds->n_cols && file_has(file, ds->cols[p->sel[k]].name)) cols[nc++] = ds->cols[p->sel[k]].name;
  if (nc == 0 && file->n_names > 0) cols[nc++] = file->names[0]; /* for the row count only */
  pqt_reader *r;
  pqt_status st = pqt_ds_open_reader(ds, f, &r, err);
  if (st != PQT_OK) {
    free(cols);
    return st;
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = cols;
  so.n_columns = nc;
  so.batch_size = p->batch_size;
  so.filter = p->residual;
  so.stats = &p->cur;
  so.row_groups = p->groups;
  so.n_row_groups = p->n_groups;
  st = pqt_reader_get_stream(r, &so, &p->fstream, err);
  pqt_reader_close(r);
  free(cols);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "%s", file->path);
    return st;
  }
  p->open = true;
  p->file = f;
  struct ArrowSchema fs;
  int rc = p->fstream.get_schema(&p->fstream, &fs);
  if (rc != 0) {
    const char *m = p->fstream.get_last_error(&p->fstream);
    return pqt_error_set(err, PQT_EIO, "%s: %s", file->path, m ? m : "no schema");
  }
  for (int32_t k = 0; k < p->n_sel; k++) {
    p->map[k] = -1;
    p->widen[k] = 0;
    if (p->sel[k] >= ds->n_cols) continue;
    const struct ArrowSchema *u = &ds->cols[p->sel[k]];
    for (int64_t i = 0; i < fs.n_children; i++) {
      if (strcmp(fs.children[i]->name, u->name) != 0) continue;
      p->map[k] = (int32_t)i;
      p->widen[k] = strcmp(fs.children[i]->format, u->format) != 0 ? (uint8_t)fs.children[i]->format[0] : 0;
    }
  }
  fs.release(&fs);
  return PQT_OK;
}

static int ds_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  ds_stream *p = s->private_data;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = own_schema_new(out, "+s", "", p->n_sel, &err);
  for (int32_t k = 0; k < p->n_sel && st == PQT_OK; k++) {
    int32_t c = p->sel[k];
    if (c < p->ds->n_cols) {
      st = pqt_ds_schema_copy(&p->ds->cols[c], out->children[k], &err);
    } else {
      int32_t q = c - p->ds->n_cols;
      st = own_schema_new(out->children[k], p->ds->part_types[q] == PQT_PARTITION_INT64 ? "l" : "u",
                          p->ds->part_names[q], 0, &err);
      if (st == PQT_OK) out->children[k]->flags = ARROW_FLAG_NULLABLE;
    }
  }
  if (st != PQT_OK) {
    if (out->release) out->release(out);
    snprintf(p->last_error, sizeof p->last_error, "%s", err.message);
    return st_errno(st);
  }
  return 0;
}

static pqt_status assemble(ds_stream *p, struct ArrowArray *b, struct ArrowArray *out, pqt_error *err) {
  pqt_dataset *ds = p->ds;
  int64_t n = b->offset + b->length;
  pqt_status st = own_array_new(out, b->length, 1, p->n_sel, err);
  if (st != PQT_OK) {
    b->release(b);
    return st;
  }
  out->offset = b->offset;
  for (int32_t k = 0; k < p->n_sel && st == PQT_OK; k++) {
    int32_t c = p->sel[k];
    struct ArrowArray *dst = out->children[k];
    if (c >= ds->n_cols) {
      st = part_array(ds, p->file, c - ds->n_cols, n, dst, err);
    } else if (p->map[k] < 0) {
      st = pqt_ds_null_array(&ds->cols[c], n, dst, err);
    } else {
      struct ArrowArray *src = b->children[p->map[k]];
      struct ArrowArray moved = *src;
      src->release = NULL; /* moved out of b */
      if (p->widen[k]) {
        char from[2] = {(char)p->widen[k], 0};
        st = widen(&moved, from, dst, err);
      } else {
        *dst = moved;
      }
    }
  }
  /* b keeps the children not projected: release it with the batch */
  ((own_array *)out->private_data)->keep = *b;
  b->release = NULL;
  if (st != PQT_OK) out->release(out);
  return st;
}

static int ds_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  ds_stream *p = s->private_data;
  memset(out, 0, sizeof *out);
  p->last_error[0] = 0;
  pqt_error err;
  pqt_error_init(&err);
  for (;;) {
    if (!p->open) {
      if (p->next_file >= p->end_file) {
        if (p->stats_out) *p->stats_out = p->acc;
        return 0;
      }
      bool skipped;
      int32_t f = p->next_file++;
      pqt_status st = open_file(p, f, &skipped, &err);
      if (st != PQT_OK) {
        close_file(p);
        snprintf(p->last_error, sizeof p->last_error, "%s", err.message);
        return st_errno(st);
      }
      continue;
    }
    struct ArrowArray b;
    int rc = p->fstream.get_next(&p->fstream, &b);
    if (p->stats_out) {
      *p->stats_out = p->acc;
      pqt_ds_stats_add(p->stats_out, &p->cur);
    }
    if (rc != 0) {
      const char *m = p->fstream.get_last_error(&p->fstream);
      snprintf(p->last_error, sizeof p->last_error, "%s: %s", p->ds->files[p->file].path, m ? m : "read failed");
      close_file(p);
      return rc;
    }
    if (!b.release) {
      close_file(p);
      continue;
    }
    if (b.length == 0) {
      b.release(&b);
      continue;
    }
    pqt_status st = assemble(p, &b, out, &err);
    if (st != PQT_OK) {
      snprintf(p->last_error, sizeof p->last_error, "%s: %s", p->ds->files[p->file].path, err.message);
      return st_errno(st);
    }
    return 0;
  }
}

static const char *ds_last_error(struct ArrowArrayStream *s) {
  ds_stream *p = s->private_data;
  return p->last_error[0] ? p->last_error : NULL;
}

static void ds_release(struct ArrowArrayStream *s) {
  if (!s || !s->release) return;
  ds_stream *p = s->private_data;
  close_file(p);
  free(p->sel);
  free(p->map);
  free(p->widen);
  free(p->groups);
  free(p);
  s->release = NULL;
}

pqt_status pqt_ds_projection(const pqt_dataset *ds, const pqt_scan_options *o, int32_t *sel, int32_t *n_sel,
                             pqt_error *err) {
  int32_t total = ds->n_cols + ds->n_parts;
  *n_sel = 0;
  if (!o->columns || o->n_columns <= 0) {
    for (int32_t c = 0; c < total; c++) sel[(*n_sel)++] = c;
    return PQT_OK;
  }
  uint8_t *want = calloc((size_t)total + 1, 1);
  if (!want) return pqt_nomem(err);
  for (int32_t i = 0; i < o->n_columns; i++) {
    const char *name = o->columns[i] ? o->columns[i] : "";
    int32_t c = pqt_ds_find_col(ds, name, strlen(name));
    if (c < 0) {
      free(want);
      return pqt_error_set(err, PQT_EINVAL, "no column %s in the dataset (projection takes top-level names)", name);
    }
    want[c] = 1;
  }
  for (int32_t c = 0; c < total; c++)
    if (want[c]) sel[(*n_sel)++] = c;
  free(want);
  return PQT_OK;
}

pqt_status pqt_ds_load_scan_options(const pqt_dataset *ds, const pqt_scan_options *opts, pqt_scan_options *o,
                                    pqt_error *err) {
  pqt_scan_options_init(o);
  if (opts) {
    if (opts->struct_size < sizeof(size_t) || opts->struct_size > sizeof *o)
      return pqt_error_set(err, PQT_EINVAL, "pqt_scan_options: bad struct_size");
    memcpy(o, opts, opts->struct_size);
    o->struct_size = sizeof *o;
  }
  if ((o->row_groups && o->n_row_groups > 0) || (o->row_ranges && o->n_row_ranges > 0))
    return pqt_error_set(err, PQT_EINVAL, "a dataset scan takes no row_groups or row_ranges (plan units instead)");
  if (o->filter) return pqt_ds_filter_check(ds, o->filter, err);
  return PQT_OK;
}

/* The projection: every column, or the named top-level columns in dataset order. */
static pqt_status make_stream(pqt_dataset *ds, const pqt_scan_options *opts, int32_t first, int32_t end,
                              const int32_t *groups, int32_t n_groups, struct ArrowArrayStream *out, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !out) return pqt_error_set(err, PQT_EINVAL, "dataset stream: NULL argument");
  memset(out, 0, sizeof *out);
  pqt_scan_options o;
  pqt_status lst = pqt_ds_load_scan_options(ds, opts, &o, err);
  if (lst != PQT_OK) return lst;
  int32_t total = ds->n_cols + ds->n_parts;
  ds_stream *p = calloc(1, sizeof *p);
  if (!p) return pqt_nomem(err);
  p->sel = calloc((size_t)total + 1, sizeof *p->sel);
  p->map = calloc((size_t)total + 1, sizeof *p->map);
  p->widen = calloc((size_t)total + 1, 1);
  if (!p->sel || !p->map || !p->widen) goto nomem;
  {
    pqt_status st = pqt_ds_projection(ds, &o, p->sel, &p->n_sel, err);
    if (st != PQT_OK) {
      free(p->sel), free(p->map), free(p->widen), free(p);
      return st;
    }
  }
  if (groups && n_groups > 0) {
    p->groups = malloc(sizeof(int32_t) * (size_t)n_groups);
    if (!p->groups) goto nomem;
    memcpy(p->groups, groups, sizeof(int32_t) * (size_t)n_groups);
    p->n_groups = n_groups;
  }
  p->ds = ds;
  p->filter = o.filter;
  p->batch_size = o.batch_size;
  p->stats_out = o.stats;
  if (p->stats_out) memset(p->stats_out, 0, sizeof *p->stats_out);
  p->next_file = first;
  p->end_file = end;
  out->get_schema = ds_get_schema;
  out->get_next = ds_get_next;
  out->get_last_error = ds_last_error;
  out->release = ds_release;
  out->private_data = p;
  return PQT_OK;
nomem:
  free(p->sel), free(p->map), free(p->widen), free(p);
  return pqt_nomem(err);
}

PQT_API pqt_status pqt_dataset_get_stream(pqt_dataset *ds, const pqt_scan_options *opts, struct ArrowArrayStream *out,
                                          pqt_error *err) {
  return make_stream(ds, opts, 0, ds ? ds->n_files : 0, NULL, 0, out, err);
}

PQT_API pqt_status pqt_dataset_unit_stream(pqt_dataset *ds, const pqt_dataset_unit *u, const pqt_scan_options *opts,
                                           struct ArrowArrayStream *out, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !u || u->file < 0 || u->file >= ds->n_files || u->n_row_groups <= 0 || u->first_row_group < 0 ||
      u->first_row_group > ds->files[u->file].n_groups - u->n_row_groups)
    return pqt_error_set(err, PQT_EINVAL, "not a unit of this dataset");
  int32_t *g = malloc(sizeof(int32_t) * (size_t)u->n_row_groups);
  if (!g) return pqt_nomem(err);
  for (int32_t i = 0; i < u->n_row_groups; i++) g[i] = u->first_row_group + i;
  pqt_status st = make_stream(ds, opts, u->file, u->file + 1, g, u->n_row_groups, out, err);
  free(g);
  return st;
}

PQT_API pqt_status pqt_dataset_schema(const pqt_dataset *ds, struct ArrowSchema *out, pqt_error *err) {
  if (err) pqt_error_init(err);
  struct ArrowArrayStream s;
  pqt_status st = make_stream((pqt_dataset *)ds, NULL, 0, 0, NULL, 0, &s, err);
  if (st != PQT_OK) return st;
  int rc = s.get_schema(&s, out);
  if (rc != 0) st = pqt_error_set(err, PQT_ENOMEM, "%s", s.get_last_error(&s));
  s.release(&s);
  return st;
}

PQT_API pqt_status pqt_dataset_count(pqt_dataset *ds, const pqt_scan_options *opts, int64_t *rows, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !rows) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_count: NULL argument");
  *rows = 0;
  const pqt_expr *filter = opts ? opts->filter : NULL;
  if (filter) {
    pqt_status st = pqt_ds_filter_check(ds, filter, err);
    if (st != PQT_OK) return st;
  }
  int64_t total = 0;
  pqt_scan_stats acc;
  memset(&acc, 0, sizeof acc);
  for (int32_t f = 0; f < ds->n_files; f++) {
    int verdict = 1;
    pqt_expr *res = NULL;
    if (filter) {
      pqt_status st = pqt_ds_filter_for_file(ds, f, filter, &verdict, &res, err);
      if (st != PQT_OK) return st;
    }
    if (verdict == 0) continue;
    if (verdict == 1) { /* the footer answers */
      total += ds->files[f].rows;
      acc.rows += ds->files[f].rows;
      continue;
    }
    pqt_reader *r;
    pqt_status st = pqt_ds_open_reader(ds, f, &r, err);
    if (st == PQT_OK) {
      pqt_scan_options so;
      pqt_scan_options_init(&so);
      so.filter = res;
      pqt_scan_stats fst;
      memset(&fst, 0, sizeof fst);
      so.stats = &fst;
      int64_t n = 0;
      st = pqt_reader_count(r, &so, &n, err);
      pqt_ds_stats_add(&acc, &fst);
      if (st != PQT_OK) pqt_error_prefix(err, "%s", ds->files[f].path);
      total += n;
      pqt_reader_close(r);
    }
    pqt_expr_free(res);
    if (st != PQT_OK) return st;
  }
  *rows = total;
  if (opts && opts->stats) *opts->stats = acc;
  return PQT_OK;
}
