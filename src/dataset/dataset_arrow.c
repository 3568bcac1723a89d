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

pqt_status pqt_ds_schema_add_child(struct ArrowSchema *u, const struct ArrowSchema *c, pqt_error *err) {
  own_schema *p = u->private_data;
  // NOLINTNEXTLINE(bugprone-sizeof-expression): an array of child pointers
  struct ArrowSchema **kids = realloc(p->kids, sizeof *kids * (size_t)(p->n_kids + 1));
  if (!kids) return pqt_nomem(err);
  p->kids = kids;
  u->children = kids;
  kids[p->n_kids] = calloc(1, sizeof(struct ArrowSchema));
  if (!kids[p->n_kids]) return pqt_nomem(err);
  pqt_status st = pqt_ds_schema_copy(c, kids[p->n_kids], err);
  if (st != PQT_OK) {
    free(kids[p->n_kids]);
    return st;
  }
  kids[p->n_kids]->flags |= ARROW_FLAG_NULLABLE;
  p->n_kids++;
  u->n_children = p->n_kids;
  return PQT_OK;
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

/* A new array out (n_buffers, n_children) that keeps a (taken over: a is
 * released here on failure), with a's offset and null count. */
static pqt_status take_into(struct ArrowArray *a, int n_buffers, int64_t n_children, struct ArrowArray *out,
                            own_array **p, pqt_error *err) {
  pqt_status st = own_array_new(out, a->length, n_buffers, n_children, err);
  if (st != PQT_OK) {
    a->release(a);
    return st;
  }
  *p = out->private_data;
  (*p)->keep = *a;
  a->release = NULL;
  out->offset = (*p)->keep.offset;
  out->null_count = (*p)->keep.null_count;
  return PQT_OK;
}

/* Move a (taken over) into a widened array of format to ("l" or "g"). */
static pqt_status widen(struct ArrowArray *a, const char *from, struct ArrowArray *out, pqt_error *err) {
  int64_t n = a->offset + a->length;
  own_array *p;
  pqt_status st = take_into(a, 2, 0, out, &p, err);
  if (st != PQT_OK) return st;
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

static bool widens(const char *from, const char *to) {
  return (strcmp(from, "i") == 0 && strcmp(to, "l") == 0) || (strcmp(from, "f") == 0 && strcmp(to, "g") == 0);
}

static const struct ArrowSchema *schema_child(const struct ArrowSchema *s, const char *name, int64_t *at) {
  for (int64_t i = 0; i < s->n_children; i++)
    if (strcmp(s->children[i]->name ? s->children[i]->name : "", name) == 0) {
      if (at) *at = i;
      return s->children[i];
    }
  return NULL;
}

/* Array a of type fs (taken over) as type u, the unified type it was
 * unified into (dataset.c's unify_type): struct fields matched by name,
 * the fields the file lacks NULL, int32/float widened, list, map and
 * fixed-size list elements converted. Buffers are borrowed from a, which
 * the result keeps alive. */
static pqt_status conform(const struct ArrowSchema *fs, struct ArrowArray *a, const struct ArrowSchema *u,
                          struct ArrowArray *out, pqt_error *err) {
  if (pqt_ds_schema_same(fs, u)) {
    *out = *a;
    a->release = NULL;
    return PQT_OK;
  }
  if (!fs->dictionary && !u->dictionary && widens(fs->format, u->format)) return widen(a, fs->format, out, err);
  bool strct = strcmp(fs->format, "+s") == 0 && strcmp(u->format, "+s") == 0;
  bool one = !strct && strcmp(fs->format, u->format) == 0 && fs->format[0] == '+' && fs->n_children == 1 &&
             u->n_children == 1 && a->n_children == 1;
  if ((!strct && !one) || fs->dictionary || u->dictionary || a->n_children != fs->n_children ||
      a->n_buffers < 1 || a->n_buffers > 3) {
    a->release(a);
    return pqt_error_set(err, PQT_EUNSUPPORTED, "column %s: cannot convert type '%s' to '%s'", u->name ? u->name : "",
                         fs->format, u->format);
  }
  own_array *p;
  pqt_status st = take_into(a, (int)a->n_buffers, strct ? u->n_children : 1, out, &p, err);
  if (st != PQT_OK) return st;
  for (int64_t i = 0; i < p->keep.n_buffers; i++) p->bufs[i] = p->keep.buffers[i];
  int64_t n = p->keep.offset + p->keep.length;
  for (int64_t j = 0; j < out->n_children && st == PQT_OK; j++) {
    int64_t i = 0;
    const struct ArrowSchema *fc =
        strct ? schema_child(fs, u->children[j]->name ? u->children[j]->name : "", &i) : fs->children[0];
    if (!fc) {
      st = pqt_ds_null_array(u->children[j], n, out->children[j], err);
      continue;
    }
    struct ArrowArray moved = *p->keep.children[i];
    p->keep.children[i]->release = NULL; /* moved out of keep */
    st = conform(fc, &moved, u->children[j], out->children[j], err);
  }
  if (st != PQT_OK) out->release(out);
  return st;
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
  struct ArrowSchema *usch; /* per sel: the unified type (pruned by the projection; partitions: none) */
  int32_t *map;             /* per sel: the file batch's child, or -1 */
  struct ArrowSchema *fsch; /* per sel: the file batch's child type (when map >= 0) */
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
  pqt_ds_names names = {0};
  pqt_status st = PQT_OK;
  for (int32_t k = 0; k < p->n_sel && st == PQT_OK; k++)
    if (p->sel[k] < ds->n_cols) st = pqt_ds_file_columns(ds, f, &p->usch[k], &names, err);
  if (st == PQT_OK && names.n == 0 && file->n_names > 0) /* for the row count only */
    st = pqt_ds_names_add(&names, file->names[0], err);
  if (st != PQT_OK) {
    pqt_ds_names_free(&names);
    return st;
  }
  const char **cols = (const char **)names.v;
  int32_t nc = names.n;
  pqt_reader *r;
  st = pqt_ds_open_reader(ds, f, &r, err);
  if (st != PQT_OK) {
    pqt_ds_names_free(&names);
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
  pqt_ds_names_free(&names);
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
  for (int32_t k = 0; k < p->n_sel && st == PQT_OK; k++) {
    p->map[k] = -1;
    if (p->fsch[k].release) p->fsch[k].release(&p->fsch[k]);
    if (p->sel[k] >= ds->n_cols) continue;
    int64_t i;
    if (!schema_child(&fs, p->usch[k].name, &i)) continue;
    p->map[k] = (int32_t)i;
    st = pqt_ds_schema_copy(fs.children[i], &p->fsch[k], err);
  }
  fs.release(&fs);
  return st;
}

static int ds_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  ds_stream *p = s->private_data;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = own_schema_new(out, "+s", "", p->n_sel, &err);
  for (int32_t k = 0; k < p->n_sel && st == PQT_OK; k++) {
    int32_t c = p->sel[k];
    if (c < p->ds->n_cols) {
      st = pqt_ds_schema_copy(&p->usch[k], out->children[k], &err);
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
      st = pqt_ds_null_array(&p->usch[k], n, dst, err);
    } else {
      struct ArrowArray *src = b->children[p->map[k]];
      struct ArrowArray moved = *src;
      src->release = NULL; /* moved out of b */
      st = conform(&p->fsch[k], &moved, &p->usch[k], dst, err);
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
  pqt_ds_schemas_free(p->usch, p->n_sel);
  pqt_ds_schemas_free(p->fsch, p->n_sel);
  free(p->sel);
  free(p->map);
  free(p->groups);
  free(p);
  s->release = NULL;
}

/* ---- the projection ---- */

void pqt_ds_schemas_free(struct ArrowSchema *v, int32_t n) {
  for (int32_t i = 0; v && i < n; i++)
    if (v[i].release) v[i].release(&v[i]);
  free(v);
}

pqt_status pqt_ds_names_add(pqt_ds_names *l, const char *s, pqt_error *err) {
  if (l->n == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 8;
    char **v = realloc(l->v, sizeof(char *) * (size_t)cap);
    if (!v) return pqt_nomem(err);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n] = strdup(s);
  if (!l->v[l->n]) return pqt_nomem(err);
  l->n++;
  return PQT_OK;
}

void pqt_ds_names_free(pqt_ds_names *l) {
  for (int32_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* The rest of path after a field name: "" when path is the name, what
 * follows "name." when it starts so, NULL otherwise. */
static const char *after_name(const char *path, const char *name) {
  size_t n = strlen(name);
  if (strncmp(path, name, n) != 0) return NULL;
  if (path[n] == 0) return path + n;
  return path[n] == '.' ? path + n + 1 : NULL;
}

/* A copy of the unified type u keeping only the struct fields that
 * paths[0..n) (dotted, relative to u) name; an empty path keeps all of u.
 * A path that names no field is an error naming `top`. */
static pqt_status prune_copy(const struct ArrowSchema *u, const char **paths, int32_t n, const char *top,
                             struct ArrowSchema *dst, pqt_error *err) {
  if (n <= 0 || n > (1 << 24)) return pqt_error_set(err, PQT_EINVAL, "%d column paths under %s", (int)n, top);
  bool whole = false;
  for (int32_t i = 0; i < n; i++) whole = whole || paths[i][0] == 0;
  if (whole) return pqt_ds_schema_copy(u, dst, err);
  if (strcmp(u->format, "+s") != 0)
    return pqt_error_set(err, PQT_EINVAL, "no column %s.%s in the dataset (%s is not a struct)", top, paths[0], top);
  for (int32_t i = 0; i < n; i++) { /* every path names a field */
    bool found = false;
    for (int64_t c = 0; c < u->n_children && !found; c++) found = after_name(paths[i], u->children[c]->name) != NULL;
    if (!found) return pqt_error_set(err, PQT_EINVAL, "no column %s.%s in the dataset", top, paths[i]);
  }
  const char **sub = calloc((size_t)n, sizeof *sub);
  if (!sub) return pqt_nomem(err);
  int64_t kept = 0;
  for (int64_t c = 0; c < u->n_children; c++) {
    bool any = false;
    for (int32_t i = 0; i < n && !any; i++) any = after_name(paths[i], u->children[c]->name) != NULL;
    kept += any;
  }
  pqt_status st = own_schema_new(dst, u->format, u->name, kept, err);
  if (st == PQT_OK) dst->flags = u->flags;
  int64_t k = 0;
  for (int64_t c = 0; c < u->n_children && st == PQT_OK && dst->children; c++) {
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
      const char *rest = after_name(paths[i], u->children[c]->name);
      if (rest) sub[m++] = rest;
    }
    if (m == 0) continue;
    char at[512];
    snprintf(at, sizeof at, "%s.%s", top, u->children[c]->name);
    st = prune_copy(u->children[c], sub, m, at, dst->children[k++], err);
  }
  free(sub);
  if (st != PQT_OK && dst->release) dst->release(dst);
  return st;
}

pqt_status pqt_ds_projection(const pqt_dataset *ds, const pqt_scan_options *o, int32_t *sel, int32_t *n_sel,
                             struct ArrowSchema **usch, pqt_error *err) {
  int32_t total = ds->n_cols + ds->n_parts;
  *n_sel = 0;
  *usch = calloc((size_t)total + 1, sizeof **usch);
  uint8_t *want = calloc((size_t)total + 1, 1);
  int32_t *col_of = calloc((size_t)(o->n_columns > 0 ? o->n_columns : 1), sizeof *col_of);
  const char **rel = calloc((size_t)(o->n_columns > 0 ? o->n_columns : 1), sizeof *rel);
  const char **paths = calloc((size_t)(o->n_columns > 0 ? o->n_columns : 1), sizeof *paths);
  pqt_status st = (!*usch || !want || !col_of || !rel || !paths) ? pqt_nomem(err) : PQT_OK;
  bool all = !o->columns || o->n_columns <= 0;
  for (int32_t i = 0; !all && i < o->n_columns && st == PQT_OK; i++) {
    const char *name = o->columns[i] ? o->columns[i] : "";
    int32_t c = pqt_ds_find_col(ds, name, strlen(name));
    rel[i] = "";
    /* "s.a": a field of struct column s (the longest column name that fits) */
    for (const char *d = name + strlen(name); c < 0 && d > name; d--) {
      if (*d != '.') continue;
      int32_t t = pqt_ds_find_col(ds, name, (size_t)(d - name));
      if (t >= 0 && t < ds->n_cols) {
        c = t;
        rel[i] = d + 1;
      }
    }
    if (c < 0) {
      st = pqt_error_set(err, PQT_EINVAL, "no column %s in the dataset", name);
      break;
    }
    col_of[i] = c;
    want[c] = 1;
  }
  for (int32_t c = 0; c < total && st == PQT_OK; c++) {
    if (!all && !want[c]) continue;
    int32_t k = (*n_sel)++;
    sel[k] = c;
    if (c >= ds->n_cols) continue;
    int32_t m = 0;
    for (int32_t i = 0; !all && i < o->n_columns; i++)
      if (col_of[i] == c) paths[m++] = rel[i];
    if (m == 0) paths[m++] = "";
    st = prune_copy(&ds->cols[c], paths, m, ds->cols[c].name, &(*usch)[k], err);
  }
  free(want);
  free(col_of);
  free(rel);
  free(paths);
  if (st != PQT_OK) {
    pqt_ds_schemas_free(*usch, total);
    *usch = NULL;
    *n_sel = 0;
  }
  return st;
}

/* Append the dotted paths file fs2 (the file's type of the column) is read
 * with for the (pruned) unified type u, under prefix. */
static pqt_status file_paths(const struct ArrowSchema *u, const struct ArrowSchema *fc, const char *prefix,
                             pqt_ds_names *out, pqt_error *err) {
  if (strcmp(u->format, "+s") != 0 || strcmp(fc->format, "+s") != 0) return pqt_ds_names_add(out, prefix, err);
  bool covers = true;
  for (int64_t i = 0; i < fc->n_children && covers; i++) covers = schema_child(u, fc->children[i]->name, NULL) != NULL;
  if (covers) return pqt_ds_names_add(out, prefix, err);
  size_t pl = strlen(prefix);
  int32_t before = out->n;
  pqt_status st = PQT_OK;
  for (int64_t j = 0; j < u->n_children && st == PQT_OK; j++) {
    const struct ArrowSchema *c = schema_child(fc, u->children[j]->name, NULL);
    if (!c) continue;
    char *p = malloc(pl + strlen(c->name) + 2);
    if (!p) return pqt_nomem(err);
    sprintf(p, "%s.%s", prefix, c->name);
    st = file_paths(u->children[j], c, p, out, err);
    free(p);
  }
  if (st != PQT_OK || out->n > before) return st;
  /* none of the fields asked for: one field of the file's, for the struct's own NULLs */
  if (fc->n_children == 0) return pqt_ds_names_add(out, prefix, err);
  char *p = malloc(pl + strlen(fc->children[0]->name) + 2);
  if (!p) return pqt_nomem(err);
  sprintf(p, "%s.%s", prefix, fc->children[0]->name);
  st = pqt_ds_names_add(out, p, err);
  free(p);
  return st;
}

pqt_status pqt_ds_file_columns(const pqt_dataset *ds, int32_t f, const struct ArrowSchema *u, pqt_ds_names *out,
                               pqt_error *err) {
  const struct ArrowSchema *fc = schema_child(&ds->files[f].schema, u->name, NULL);
  return fc ? file_paths(u, fc, u->name, out, err) : PQT_OK;
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
  p->fsch = calloc((size_t)total + 1, sizeof *p->fsch);
  if (!p->sel || !p->map || !p->fsch) goto nomem;
  {
    pqt_status st = pqt_ds_projection(ds, &o, p->sel, &p->n_sel, &p->usch, err);
    if (st != PQT_OK) {
      free(p->sel), free(p->map), free(p->fsch), free(p);
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
  pqt_ds_schemas_free(p->usch, p->n_sel);
  free(p->sel), free(p->map), free(p->fsch), free(p);
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
