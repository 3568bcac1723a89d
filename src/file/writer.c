/*
 * file/writer: the Parquet file writer (spec parquet-format README.md "File format":
 * magic, column chunks, optional Bloom filters and page index before the
 * FileMetaData footer, footer length, magic; "Metadata" for FileMetaData,
 * RowGroup, ColumnChunk, ColumnOrder; "Page Index" placement).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arrow/arrow_schema_ipc.h"
#include "arrow/export.h"
#include "arrow/import.h"
#include "codec/codec.h"
#include "column/column_writer.h"
#include "file/options.h"
#include "file/writer_internal.h"
#include "levels/levels.h"
#include "meta/schema.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#ifndef PQT_BUILD_ID
#define PQT_BUILD_ID "release"
#endif
#define PQT_CREATED_BY "parquetry version " PQT_VERSION_STRING " (build " PQT_BUILD_ID ")"
#define OBUF_SIZE (1u << 20)

enum { SINK_FILE, SINK_BUFFER, SINK_CALLBACK };

typedef struct idx_ref {
  int32_t rg, col;
  size_t ci_off, ci_len, oi_off, oi_len;
} idx_ref;

struct pqt_writer {
  const char *arrow_schema_b64; /* ARROW:schema value when written (arena) */
  const pqt_allocator *alloc;
  pqt_write_options opts;
  int sink_kind;
  int fd;
  char *path, *tmp_path;
  pqt_string *dst;
  pqt_write_fn cb;
  void *cb_ctx;
  pqt_buf obuf;
  int64_t offset;
  pqt_arena arena;
  pqt_schema_element *elems;
  int32_t n_elems;
  pqt_schema *schema;
  pqt_import_fmt fmt;
  pqt_codec_ctx *codec;
  int32_t n_cols;
  pqt_column_writer *cols;
  pqt_import_scratch sc;
  pqt_row_group *rgs;
  int32_t n_rgs, cap_rgs;
  int64_t rg_rows, total_rows;
  pqt_buf ci, oi, bloom;
  idx_ref *refs;
  size_t n_refs, cap_refs;
  bool failed;
};

void pqt_column_options_defaults(pqt_column_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->codec = PQT_CODEC_SNAPPY;
  o->encoding = -1;
  o->dictionary = 1;
  o->dictionary_page_size_limit = 1 << 20;
  o->page_version = 1;
  o->page_size = 1 << 20;
  o->page_row_limit = 20000;
  o->statistics = 1;
  o->statistics_truncate_length = 64;
  o->page_index = 1;
  o->bloom_filter = 0;
  o->bloom_ndv = 100000;
  o->bloom_fpp = 0.01;
  o->crc = 1;
}

void pqt_write_options_defaults(pqt_write_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  pqt_column_options_defaults(&o->defaults);
  o->row_group_rows = 1 << 20;
  o->row_group_bytes = (int64_t)128 << 20;
}

/* ---- sinks ------------------------------------------------------------------ */

static pqt_status raw_write(pqt_writer *w, const void *p, size_t n, pqt_error *err) {
  switch (w->sink_kind) {
    case SINK_FILE: {
      const uint8_t *b = p;
      while (n > 0) {
        ssize_t k = write(w->fd, b, n);
        if (k < 0) {
          if (errno == EINTR) continue;
          return pqt_error_set(err, PQT_EIO, "%s: write failed: %s", w->path, strerror(errno));
        }
        b += k;
        n -= (size_t)k;
      }
      return PQT_OK;
    }
    case SINK_BUFFER: {
      pqt_string *d = w->dst;
      const pqt_allocator *a = d->alloc ? d->alloc : w->alloc;
      d->alloc = a;
      if (d->len + n + 1 > d->cap) {
        size_t nc = d->cap ? d->cap : 4096;
        while (nc < d->len + n + 1) nc *= 2;
        char *nd = pqt_mem_realloc(a, d->data, d->cap, nc);
        if (!nd) return pqt_nomem(err);
        d->data = nd;
        d->cap = nc;
      }
      memcpy(d->data + d->len, p, n);
      d->len += n;
      d->data[d->len] = 0;
      return PQT_OK;
    }
    default: {
      pqt_status st = w->cb(w->cb_ctx, p, n);
      if (st != PQT_OK) return pqt_error_set(err, st, "write callback failed");
      return PQT_OK;
    }
  }
}

static pqt_status flush_obuf(pqt_writer *w, pqt_error *err) {
  if (w->obuf.len == 0) return PQT_OK;
  pqt_status st = raw_write(w, w->obuf.data, w->obuf.len, err);
  pqt_buf_clear(&w->obuf);
  return st;
}

static pqt_status sink(void *ctx, const void *p, size_t n, pqt_error *err) {
  pqt_writer *w = ctx;
  w->offset += (int64_t)n;
  if (w->sink_kind == SINK_BUFFER) return raw_write(w, p, n, err);
  if (w->obuf.len + n > OBUF_SIZE) {
    PQT_RETURN_NOT_OK(flush_obuf(w, err));
    if (n >= OBUF_SIZE / 2) return raw_write(w, p, n, err);
  }
  return pqt_buf_append(&w->obuf, p, n, err);
}

/* ---- open ------------------------------------------------------------------ */

/* The defaults' encoding applies to the columns it fits (others keep their
 * default); an override's encoding must fit its columns. */
static void resolve_options(const pqt_write_options *o, const pqt_schema_node *leaf, pqt_column_options *out) {
  *out = o->defaults;
  if (out->encoding >= 0 && out->encoding != PQT_ENC_RLE_DICTIONARY && out->encoding != PQT_ENC_PLAIN_DICTIONARY &&
      !pqt_encoding_fits(out->encoding, leaf->physical_type))
    out->encoding = -1;
  for (int32_t i = 0; i < o->n_columns; i++) {
    const char *p = o->columns[i].path;
    if (!p) continue;
    size_t pl = strlen(p);
    const char *d = leaf->dotted_path;
    if (strncmp(d, p, pl) == 0 && (d[pl] == 0 || d[pl] == '.')) *out = o->columns[i].options;
  }
}

static void writer_free(pqt_writer *w) {
  if (!w) return;
  const pqt_allocator *a = w->alloc;
  if (w->cols) {
    for (int32_t i = 0; i < w->n_cols; i++) pqt_column_writer_free(&w->cols[i]);
    pqt_mem_free(a, w->cols, (size_t)w->n_cols * sizeof *w->cols);
  }
  if (w->rgs) pqt_mem_free(a, w->rgs, (size_t)w->cap_rgs * sizeof *w->rgs);
  if (w->refs) pqt_mem_free(a, w->refs, w->cap_refs * sizeof *w->refs);
  pqt_codec_ctx_destroy(w->codec);
  pqt_import_scratch_free(&w->sc);
  pqt_buf_free(&w->obuf);
  pqt_buf_free(&w->ci);
  pqt_buf_free(&w->oi);
  pqt_buf_free(&w->bloom);
  if (w->fd >= 0) close(w->fd);
  if (w->tmp_path) {
    unlink(w->tmp_path);
    pqt_mem_free(a, w->tmp_path, strlen(w->tmp_path) + 1);
  }
  if (w->path) pqt_mem_free(a, w->path, strlen(w->path) + 1);
  pqt_arena_reset(&w->arena);
  pqt_mem_free(a, w, sizeof *w);
}

static pqt_status writer_new(pqt_writer **out, const pqt_write_schema *schema, const pqt_write_options *opts,
                             pqt_error *err) {
  *out = NULL;
  pqt_write_schema ws;
  pqt_write_options given;
  PQT_RETURN_NOT_OK(pqt_write_schema_load(&ws, schema, err));
  PQT_RETURN_NOT_OK(pqt_write_options_load(&given, opts, err));
  schema = &ws;
  opts = &given;
  const pqt_allocator *a = pqt_alloc_or_default(opts->alloc);
  pqt_writer *w = pqt_mem_calloc(a, sizeof *w);
  if (!w) return pqt_nomem(err);
  w->alloc = a;
  w->opts = *opts;
  w->fd = -1;
  if (w->opts.row_group_rows <= 0) w->opts.row_group_rows = 1 << 20;
  if (w->opts.row_group_bytes <= 0) w->opts.row_group_bytes = (int64_t)128 << 20;
  pqt_arena_init(&w->arena, a);
  pqt_buf_init(&w->obuf, a);
  pqt_buf_init(&w->ci, a);
  pqt_buf_init(&w->oi, a);
  pqt_buf_init(&w->bloom, a);
  pqt_import_scratch_init(&w->sc, a);
  pqt_column_override *overrides = NULL;
  pqt_status st = pqt_column_overrides_load(&w->arena, opts->columns, opts->n_columns, &overrides, err);
  w->opts.columns = overrides;
  if (st == PQT_OK) st = pqt_writer_schema_elements(&w->arena, schema, opts->compat, &w->elems, &w->n_elems, err);
  if (st == PQT_OK) st = pqt_schema_build(w->elems, w->n_elems, &w->arena, &w->schema, err);
  if (st == PQT_OK && w->schema->n_leaves == 0) st = pqt_error_set(err, PQT_EINVAL, "the schema has no columns");
  for (int32_t i = 0; st == PQT_OK && i < w->schema->n_nodes; i++) {
    const pqt_schema_node *x = &w->schema->nodes[i];
    if (x->annotation_invalid) st = pqt_error_set(err, PQT_EINVAL, "%s: annotation does not fit its type", x->name);
    if (x->kind == PQT_NODE_VECTOR || x->repetition == PQT_VECTOR)
      st = pqt_error_set(err, PQT_EUNSUPPORTED, "%s: VECTOR is not writable", x->name);
  }
  /* expected Arrow layout */
  if (st == PQT_OK) {
    if (schema->arrow) {
      st = pqt_import_fmt_copy(&w->arena, schema->arrow, &w->fmt, err);
      if (st == PQT_OK && w->opts.write_arrow_schema) {
        pqt_buf b64;
        pqt_buf_init(&b64, w->alloc);
        st = pqt_arrow_schema_encode_from_c(schema->arrow, &b64, err);
        if (st == PQT_OK) {
          w->arrow_schema_b64 = pqt_arena_strdup(&w->arena, (const char *)b64.data, b64.len);
          if (!w->arrow_schema_b64) st = pqt_nomem(err);
        }
        pqt_buf_free(&b64);
      }
    } else {
      if (w->opts.int96_as_fixed)
        for (int32_t i = 0; i < w->schema->n_leaves; i++)
          if (w->schema->leaves[i]->physical_type == PQT_INT96) w->schema->leaves[i]->int96_raw = true;
      struct ArrowSchema as;
      st = pqt_export_schema(w->schema, NULL, &as, err);
      if (st == PQT_OK) {
        st = pqt_import_fmt_copy(&w->arena, &as, &w->fmt, err);
        as.release(&as);
      }
    }
  }
  if (st == PQT_OK) st = pqt_codec_ctx_create(&w->codec, a, err);
  if (st == PQT_OK) {
    w->n_cols = w->schema->n_leaves;
    w->cols = pqt_mem_calloc(a, (size_t)w->n_cols * sizeof *w->cols);
    if (!w->cols) st = pqt_nomem(err);
  }
  for (int32_t i = 0; st == PQT_OK && i < w->n_cols; i++) {
    const pqt_schema_node *x = w->schema->leaves[i];
    pqt_column_options co;
    resolve_options(&w->opts, x, &co);
    st = pqt_column_writer_init(&w->cols[i], &co, x->physical_type, x->type_length, x->max_def, x->max_rep,
                                &x->logical, x->converted_type, w->codec, a, err);
    if (st != PQT_OK) pqt_error_prefix(err, "column %s", x->dotted_path);
  }
  if (st != PQT_OK) {
    w->n_cols = w->cols ? w->n_cols : 0;
    writer_free(w);
    return st;
  }
  *out = w;
  return PQT_OK;
}

static pqt_status write_magic(pqt_writer *w, pqt_error *err) { return sink(w, "PAR1", 4, err); }

PQT_API pqt_status pqt_writer_open_file(pqt_writer **out, const char *path, const pqt_write_schema *schema,
                                        const pqt_write_options *opts, pqt_error *err) {
  if (!out || !path) return pqt_error_set(err, PQT_EINVAL, "NULL argument");
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, err));
  pqt_writer *w = *out;
  w->sink_kind = SINK_FILE;
  size_t pl = strlen(path);
  w->path = pqt_mem_alloc(w->alloc, pl + 1);
  w->tmp_path = pqt_mem_alloc(w->alloc, pl + 64);
  if (!w->path || !w->tmp_path) {
    if (w->tmp_path) pqt_mem_free(w->alloc, w->tmp_path, pl + 64);
    w->tmp_path = NULL;
    writer_free(w);
    *out = NULL;
    return pqt_nomem(err);
  }
  memcpy(w->path, path, pl + 1);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp-%ld-%lx", path, (long)getpid(), (unsigned long)(uintptr_t)w & 0xFFFFFFu);
  size_t tl = strlen(tmp);
  char *t2 = pqt_mem_realloc(w->alloc, w->tmp_path, pl + 64, tl + 1);
  if (!t2) {
    pqt_mem_free(w->alloc, w->tmp_path, pl + 64);
    w->tmp_path = NULL;
    writer_free(w);
    *out = NULL;
    return pqt_nomem(err);
  }
  w->tmp_path = t2;
  memcpy(w->tmp_path, tmp, tl + 1);
  w->fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (w->fd < 0) {
    pqt_status st = pqt_error_set(err, PQT_EIO, "%s: cannot create: %s", w->tmp_path, strerror(errno));
    pqt_mem_free(w->alloc, w->tmp_path, tl + 1);
    w->tmp_path = NULL;
    writer_free(w);
    *out = NULL;
    return st;
  }
  pqt_status st = write_magic(w, err);
  if (st != PQT_OK) {
    writer_free(w);
    *out = NULL;
  }
  return st;
}

PQT_API pqt_status pqt_writer_open_buffer(pqt_writer **out, pqt_string *dst, const pqt_write_schema *schema,
                                          const pqt_write_options *opts, pqt_error *err) {
  if (!out || !dst) return pqt_error_set(err, PQT_EINVAL, "NULL argument");
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, err));
  (*out)->sink_kind = SINK_BUFFER;
  (*out)->dst = dst;
  pqt_status st = write_magic(*out, err);
  if (st != PQT_OK) {
    writer_free(*out);
    *out = NULL;
  }
  return st;
}

PQT_API pqt_status pqt_writer_open_callbacks(pqt_writer **out, pqt_write_fn write_fn, void *ctx,
                                             const pqt_write_schema *schema, const pqt_write_options *opts,
                                             pqt_error *err) {
  if (!out || !write_fn) return pqt_error_set(err, PQT_EINVAL, "NULL argument");
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, err));
  (*out)->sink_kind = SINK_CALLBACK;
  (*out)->cb = write_fn;
  (*out)->cb_ctx = ctx;
  pqt_status st = write_magic(*out, err);
  if (st != PQT_OK) {
    writer_free(*out);
    *out = NULL;
  }
  return st;
}

PQT_API int32_t pqt_writer_num_columns(const pqt_writer *w) { return w->n_cols; }
PQT_API int64_t pqt_writer_bytes_written(const pqt_writer *w) { return w->offset; }
PQT_API int64_t pqt_writer_num_rows(const pqt_writer *w) { return w->total_rows + w->rg_rows; }

PQT_API pqt_status pqt_writer_arrow_schema(pqt_writer *w, struct ArrowSchema *out, pqt_error *err) {
  if (out) out->release = NULL; /* a failure leaves a released schema */
  if (!w || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_writer_arrow_schema: bad arguments");
  return pqt_export_schema(w->schema, NULL, out, err);
}

/* ---- row groups ------------------------------------------------------------ */

static int64_t buffered_bytes(const pqt_writer *w) {
  int64_t b = 0;
  for (int32_t i = 0; i < w->n_cols; i++) b += pqt_column_writer_buffered(&w->cols[i]);
  return b;
}

static pqt_status flush_rg(pqt_writer *w, pqt_error *err) {
  int64_t rows = pqt_column_writer_rows(&w->cols[0]);
  for (int32_t i = 1; i < w->n_cols; i++)
    if (pqt_column_writer_rows(&w->cols[i]) != rows)
      return pqt_error_set(err, PQT_EINVAL, "column %s has %lld rows, column %s %lld",
                           w->schema->leaves[i]->dotted_path, (long long)pqt_column_writer_rows(&w->cols[i]),
                           w->schema->leaves[0]->dotted_path, (long long)rows);
  if (rows == 0) return PQT_OK;
  if (w->n_rgs == INT16_MAX) return pqt_error_set(err, PQT_ELIMIT, "too many row groups");
  if (w->n_rgs == w->cap_rgs) {
    int32_t nc = w->cap_rgs ? w->cap_rgs * 2 : 8;
    pqt_row_group *n = pqt_mem_realloc(w->alloc, w->rgs, (size_t)w->cap_rgs * sizeof *n, (size_t)nc * sizeof *n);
    if (!n) return pqt_nomem(err);
    w->rgs = n;
    w->cap_rgs = nc;
  }
  pqt_row_group *rg = &w->rgs[w->n_rgs];
  memset(rg, 0, sizeof *rg);
  rg->columns.items = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof(pqt_column_chunk));
  if (!rg->columns.items) return pqt_nomem(err);
  rg->columns.n = w->n_cols;
  PQT_SET(rg, 1);
  rg->file_offset = w->offset;
  PQT_SET(rg, 5);
  pqt_buf_clear(&w->bloom);
  size_t *bloom_at = pqt_mem_alloc(w->alloc, ((size_t)w->n_cols + 1) * sizeof(size_t));
  if (!bloom_at) return pqt_nomem(err);
  pqt_status st = PQT_OK;
  for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
    pqt_column_writer *cw = &w->cols[i];
    pqt_column_chunk *cc = &rg->columns.items[i];
    st = pqt_column_writer_finish(cw, err);
    if (st != PQT_OK) break;
    if (w->n_refs == w->cap_refs) {
      size_t nc = w->cap_refs ? w->cap_refs * 2 : 64;
      idx_ref *n = pqt_mem_realloc(w->alloc, w->refs, w->cap_refs * sizeof *n, nc * sizeof *n);
      if (!n) { st = pqt_nomem(err); break; }
      w->refs = n;
      w->cap_refs = nc;
    }
    idx_ref *r = &w->refs[w->n_refs++];
    r->rg = w->n_rgs;
    r->col = i;
    r->ci_off = w->ci.len;
    r->oi_off = w->oi.len;
    bloom_at[i] = w->bloom.len;
    st = pqt_column_writer_emit(cw, sink, w, w->offset, &w->arena, cc, &w->ci, &r->ci_len, &w->oi, &r->oi_len,
                                &w->bloom, err);
    if (st != PQT_OK) {
      pqt_error_prefix(err, "row group %d, column %s", w->n_rgs, w->schema->leaves[i]->dotted_path);
      break;
    }
    const pqt_schema_node *x = w->schema->leaves[i];
    pqt_bytes *parts = pqt_arena_array(&w->arena, (size_t)x->path_len, sizeof *parts);
    if (!parts) { st = pqt_nomem(err); break; }
    for (int32_t k = 0; k < x->path_len; k++) parts[k] = (pqt_bytes){(const uint8_t *)x->path[k], (int64_t)strlen(x->path[k])};
    cc->meta_data.path_in_schema.items = parts;
    cc->meta_data.path_in_schema.n = x->path_len;
    rg->total_byte_size += cc->meta_data.total_uncompressed_size;
    rg->total_compressed_size += cc->meta_data.total_compressed_size;
  }
  bloom_at[w->n_cols] = w->bloom.len;
  /* Bloom filters of this row group, after its column chunks */
  for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
    size_t len = bloom_at[i + 1] - bloom_at[i];
    if (!len) continue;
    pqt_column_metadata *m = &rg->columns.items[i].meta_data;
    m->bloom_filter_offset = w->offset;
    m->bloom_filter_length = (int32_t)len;
    PQT_SET(m, 14);
    PQT_SET(m, 15);
    st = sink(w, w->bloom.data + bloom_at[i], len, err);
  }
  pqt_mem_free(w->alloc, bloom_at, ((size_t)w->n_cols + 1) * sizeof(size_t));
  if (st != PQT_OK) return st;
  rg->num_rows = rows;
  PQT_SET(rg, 2); PQT_SET(rg, 3); PQT_SET(rg, 6);
  rg->ordinal = (int16_t)w->n_rgs;
  PQT_SET(rg, 7);
  if (w->opts.n_sorting_columns > 0) {
    pqt_sorting_column *sc = pqt_arena_array(&w->arena, (size_t)w->opts.n_sorting_columns, sizeof *sc);
    if (!sc) return pqt_nomem(err);
    for (int32_t i = 0; i < w->opts.n_sorting_columns; i++) {
      const pqt_sorting_column_spec *s = &w->opts.sorting_columns[i];
      sc[i] = (pqt_sorting_column){0xE, s->column, s->descending != 0, s->nulls_first != 0};
    }
    rg->sorting_columns.items = sc;
    rg->sorting_columns.n = w->opts.n_sorting_columns;
    PQT_SET(rg, 4);
  }
  w->n_rgs++;
  w->total_rows += rows;
  w->rg_rows = 0;
  return PQT_OK;
}

const pqt_schema *pqt_writer_schema(const pqt_writer *w) { return w->schema; }
const pqt_allocator *pqt_writer_allocator(const pqt_writer *w) { return w->alloc; }

PQT_API pqt_status pqt_writer_flush_row_group(pqt_writer *w, pqt_error *err) {
  if (!w || w->failed) return pqt_error_set(err, PQT_EINVAL, "writer unusable after an error");
  pqt_status st = flush_rg(w, err);
  if (st != PQT_OK) w->failed = true;
  return st;
}

PQT_API pqt_status pqt_writer_write_column(pqt_writer *w, int32_t column, int64_t n_levels, const int16_t *def,
                                           const int16_t *rep, const void *values, const int32_t *offsets,
                                           int64_t n_values, pqt_error *err) {
  if (!w || w->failed) return pqt_error_set(err, PQT_EINVAL, "writer unusable after an error");
  if (column < 0 || column >= w->n_cols) return pqt_error_set(err, PQT_EINVAL, "no column %d", column);
  const pqt_schema_node *leaf = w->schema->leaves[column];
  if (leaf->max_rep > 0 && rep && n_levels > 0) {
    /* levels from the caller: check them as a reader would (every rep > 0
     * continues an open list) before they reach a page */
    int16_t repeated_def[PQT_SCHEMA_MAX_DEPTH + 1];
    int k = leaf->max_rep;
    for (const pqt_schema_node *x = leaf; x && x->parent; x = x->parent)
      if (x->repetition == PQT_REPEATED && k > 0) repeated_def[--k] = x->max_def;
    int16_t prev = -1;
    pqt_status vs = pqt_levels_validate(def, rep, n_levels, leaf->max_def, leaf->max_rep, repeated_def, &prev, err);
    if (vs != PQT_OK) {
      pqt_error_prefix(err, "column %s", leaf->dotted_path);
      if (err) err->code = PQT_EINVAL; /* the caller's levels, not a file, are wrong */
      return PQT_EINVAL;
    }
  }
  pqt_status st = pqt_column_writer_write(&w->cols[column], n_levels, def, rep, values, offsets, n_values, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "column %s", w->schema->leaves[column]->dotted_path);
    /* argument errors are caught before any state changes only partly: stop */
    w->failed = true;
  }
  return st;
}

#define IMPORT_ROWS 65536

PQT_API pqt_status pqt_writer_write_batch(pqt_writer *w, const struct ArrowArray *batch, pqt_error *err) {
  if (!w || w->failed) return pqt_error_set(err, PQT_EINVAL, "writer unusable after an error");
  if (!batch || !batch->release) return pqt_error_set(err, PQT_EINVAL, "batch missing or released");
  int64_t total = batch->length, pos = 0;
  pqt_status st = PQT_OK;
  while (pos < total && st == PQT_OK) {
    int64_t n = total - pos;
    int64_t room = w->opts.row_group_rows - w->rg_rows;
    if (n > room) n = room;
    if (n > IMPORT_ROWS) n = IMPORT_ROWS;
    for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
      pqt_leaf_batch lb;
      st = pqt_import_leaf(w->schema, i, &w->fmt, batch, pos, n, &w->sc, &lb, err);
      if (st == PQT_OK)
        st = pqt_column_writer_write(&w->cols[i], lb.n_levels, lb.def, lb.rep, lb.values, lb.offsets, lb.n_values, err);
      if (st != PQT_OK) pqt_error_prefix(err, "column %s", w->schema->leaves[i]->dotted_path);
    }
    if (st != PQT_OK) break;
    w->rg_rows += n;
    pos += n;
    if (w->rg_rows >= w->opts.row_group_rows || buffered_bytes(w) >= w->opts.row_group_bytes) st = flush_rg(w, err);
  }
  if (st != PQT_OK) w->failed = true;
  return st;
}

/* ---- footer ------------------------------------------------------------------ */

static pqt_bytes cstr(const char *s) { return (pqt_bytes){(const uint8_t *)s, (int64_t)strlen(s)}; }

static pqt_status finish(pqt_writer *w, pqt_error *err) {
  PQT_RETURN_NOT_OK(flush_rg(w, err));
  /* page index: every ColumnIndex, then every OffsetIndex */
  for (size_t i = 0; i < w->n_refs; i++) {
    idx_ref *r = &w->refs[i];
    if (!r->ci_len) continue;
    pqt_column_chunk *cc = &w->rgs[r->rg].columns.items[r->col];
    cc->column_index_offset = w->offset;
    cc->column_index_length = (int32_t)r->ci_len;
    PQT_SET(cc, 6); PQT_SET(cc, 7);
    PQT_RETURN_NOT_OK(sink(w, w->ci.data + r->ci_off, r->ci_len, err));
  }
  for (size_t i = 0; i < w->n_refs; i++) {
    idx_ref *r = &w->refs[i];
    if (!r->oi_len) continue;
    pqt_column_chunk *cc = &w->rgs[r->rg].columns.items[r->col];
    cc->offset_index_offset = w->offset;
    cc->offset_index_length = (int32_t)r->oi_len;
    PQT_SET(cc, 4); PQT_SET(cc, 5);
    PQT_RETURN_NOT_OK(sink(w, w->oi.data + r->oi_off, r->oi_len, err));
  }
  pqt_file_metadata md;
  memset(&md, 0, sizeof md);
  md.version = 1; /* parquet.thrift: writers should write 1 for the widest compatibility */
  md.schema.items = w->elems;
  md.schema.n = w->n_elems;
  md.num_rows = w->total_rows;
  md.row_groups.items = w->rgs;
  md.row_groups.n = w->n_rgs;
  md.isset = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4);
  int32_t n_kv = w->opts.n_kv + (w->arrow_schema_b64 ? 1 : 0);
  if (n_kv > 0) {
    pqt_key_value *kv = pqt_arena_array(&w->arena, (size_t)n_kv, sizeof *kv);
    if (!kv) return pqt_nomem(err);
    if (w->arrow_schema_b64) {
      kv[n_kv - 1].key = cstr("ARROW:schema");
      kv[n_kv - 1].value = cstr(w->arrow_schema_b64);
      PQT_SET(&kv[n_kv - 1], 1);
      PQT_SET(&kv[n_kv - 1], 2);
    }
    for (int32_t i = 0; i < w->opts.n_kv; i++) {
      kv[i].key = cstr(w->opts.kv_keys[i]);
      PQT_SET(&kv[i], 1);
      if (w->opts.kv_values && w->opts.kv_values[i]) {
        kv[i].value = cstr(w->opts.kv_values[i]);
        PQT_SET(&kv[i], 2);
      }
    }
    md.key_value_metadata.items = kv;
    md.key_value_metadata.n = n_kv;
    PQT_SET(&md, 5);
  }
  md.created_by = cstr(w->opts.created_by ? w->opts.created_by : PQT_CREATED_BY);
  PQT_SET(&md, 6);
  pqt_column_order *co = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof *co);
  if (!co) return pqt_nomem(err);
  for (int32_t i = 0; i < w->n_cols; i++) co[i].isset = 1u << PQT_ORDER_TYPE;
  md.column_orders.items = co;
  md.column_orders.n = w->n_cols;
  PQT_SET(&md, 7);
  pqt_buf f;
  pqt_buf_init(&f, w->alloc);
  pqt_status st = pqt_thrift_encode(&pqt_desc_file_metadata, &md, &f, err);
  uint8_t tail[8];
  if (st == PQT_OK && f.len > UINT32_MAX) st = pqt_error_set(err, PQT_ELIMIT, "footer too large");
  if (st == PQT_OK) {
    pqt_store_u32le(tail, (uint32_t)f.len);
    memcpy(tail + 4, "PAR1", 4);
    st = sink(w, f.data, f.len, err);
  }
  if (st == PQT_OK) st = sink(w, tail, 8, err);
  pqt_buf_free(&f);
  if (st == PQT_OK) st = flush_obuf(w, err);
  return st;
}

PQT_API pqt_status pqt_writer_close(pqt_writer *w, pqt_error *err) {
  if (!w) return PQT_OK;
  pqt_status st = w->failed ? pqt_error_set(err, PQT_EINVAL, "writer unusable after an error") : finish(w, err);
  if (st == PQT_OK && w->sink_kind == SINK_FILE) {
    if (close(w->fd) != 0) st = pqt_error_set(err, PQT_EIO, "%s: close failed: %s", w->path, strerror(errno));
    w->fd = -1;
    if (st == PQT_OK && rename(w->tmp_path, w->path) != 0)
      st = pqt_error_set(err, PQT_EIO, "%s: rename failed: %s", w->path, strerror(errno));
    if (st == PQT_OK) {
      pqt_mem_free(w->alloc, w->tmp_path, strlen(w->tmp_path) + 1);
      w->tmp_path = NULL;
    }
  }
  writer_free(w);
  return st;
}

PQT_API void pqt_writer_discard(pqt_writer *w) { writer_free(w); }
