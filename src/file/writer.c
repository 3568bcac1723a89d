/*
 * file/writer: the Parquet file writer (spec parquet-format README.md "File format":
 * magic, column chunks, optional Bloom filters and page index before the
 * FileMetaData footer, footer length, magic; "Metadata" for FileMetaData,
 * RowGroup, ColumnChunk, ColumnOrder; "Page Index" placement).
 */
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arrow/arrow_schema_ipc.h"
#include "arrow/export.h"
#include "arrow/import.h"
#include "codec/codec.h"
#include "column/column_writer.h"
#include "core/thread_pool.h"
#include "crypto/file_encryptor.h"
#include "file/options.h"
#include "file/writer_internal.h"
#include "levels/levels.h"
#include "meta/schema.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"
#include "variant/variant_shred_write.h"
#include "arrow/variant_arrow.h"

#ifndef PQT_BUILD_ID
#define PQT_BUILD_ID "release"
#endif
#define PQT_CREATED_BY "parquetry version " PQT_VERSION_STRING " (build " PQT_BUILD_ID ")"
#define OBUF_SIZE      (1u << 20)

enum { SINK_FILE, SINK_BUFFER, SINK_CALLBACK };

typedef struct idx_ref {
  int32_t rg, col;
  size_t ci_off, ci_len, oi_off, oi_len;
} idx_ref;

/* A VARIANT column from a parquet.variant Arrow field: its values are
 * validated before they are written, and shredded here when its group has
 * a typed_value (those leaves are not imported from the batch). */
#define WVARIANT_MAX_PATH 32
typedef struct wvariant {
  int32_t top; /* index among the top-level fields (and batch children) */
  /* the schema nodes from the top-level field down to the group (inclusive),
   * through structs, lists and maps */
  const pqt_schema_node *chain[WVARIANT_MAX_PATH];
  int32_t n_chain;
  int32_t meta_at; /* the Arrow struct's child holding metadata (the other: value) */
  const pqt_schema_node *group;
  bool shredded;
  pqt_vshred sh;
  /* the batch brings the shredded form (struct<metadata, value,
   * typed_value>): reconstructed through views of its arrays, opened for
   * the group's array of the current batch */
  bool arrow_shredded;
  pqt_variant_arrow_in *ain;
  const struct ArrowArray *ain_of;
} wvariant;

/* What one thread of the writer saw go wrong (see par_columns). */
typedef struct par_slot {
  int32_t failed; /* lowest failing column of this slot; INT32_MAX: none */
  pqt_status st;
  pqt_error err;
} par_slot;

struct pqt_writer {
  wvariant *variants;
  int32_t n_variants;
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
  pqt_schema *in_schema; /* the layout batches bring (VARIANT columns unshredded); often schema */
  pqt_import_fmt fmt;
  pqt_codec_ctx *codec;
  /* threads: the columns of an import slice, and their page flushes at a
   * row group's end, run in parallel; slot k uses codecs[k] and scs[k]
   * (slot 0, the calling thread: codec and sc) */
  pqt_par par;
  pqt_codec_ctx **codecs;
  pqt_import_scratch *scs;
  par_slot *par_slots; /* pqt_par_slots(&par) of them, allocated on first use */
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
  pqt_key_value *kv; /* the file's key-value metadata (arena) */
  int32_t n_kv;
  pqt_list_key_value *chunk_kv;     /* per leaf: its chunks' key-value metadata (arena) */
  pqt_sorting_column_spec *sorting; /* sorting_columns of every row group (arena) */
  int32_t n_sorting;
  bool raw;                             /* row groups come as written bytes (pqt_writer_open_raw) */
  int32_t *col_orders; /* not raw: the PQT_ORDER_* of each leaf (arena) */
  const pqt_column_order *raw_orders; /* raw: the column orders written (NULL: none) */
  int32_t n_raw_orders;
  pqt_file_encryptor *crypt; /* NULL: a plaintext file (arena; keys wiped in writer_free) */
  pqt_buf cbuf;              /* encrypted modules on their way out */
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
  o->like_key_value = 1;
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
  if (w->variants) {
    for (int32_t i = 0; i < w->n_variants; i++)
      if (w->variants[i].shredded) pqt_vshred_free(&w->variants[i].sh);
    for (int32_t i = 0; i < w->n_variants; i++) pqt_variant_arrow_in_free(w->variants[i].ain);
    pqt_mem_free(a, w->variants, (size_t)w->n_variants * sizeof *w->variants);
  }
  if (w->rgs) pqt_mem_free(a, w->rgs, (size_t)w->cap_rgs * sizeof *w->rgs);
  if (w->refs) pqt_mem_free(a, w->refs, w->cap_refs * sizeof *w->refs);
  pqt_par_free(&w->par); /* joins the writer's threads (none run now) */
  if (w->par_slots) pqt_mem_free(a, w->par_slots, (size_t)pqt_par_slots(&w->par) * sizeof(par_slot));
  if (w->codecs) {
    int32_t ns = pqt_par_slots(&w->par);
    for (int32_t k = 1; k < ns; k++) {
      pqt_codec_ctx_destroy(w->codecs[k]);
      pqt_import_scratch_free(&w->scs[k]);
    }
    pqt_mem_free(a, w->codecs, (size_t)ns * sizeof *w->codecs);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
    pqt_mem_free(a, w->scs, (size_t)ns * sizeof *w->scs);
  }
  pqt_codec_ctx_destroy(w->codec);
  pqt_import_scratch_free(&w->sc);
  pqt_buf_free(&w->obuf);
  pqt_buf_free(&w->ci);
  pqt_buf_free(&w->oi);
  pqt_buf_free(&w->bloom);
  pqt_buf_free(&w->cbuf);
  pqt_file_encryptor_wipe(w->crypt);
  if (w->fd >= 0) close(w->fd);
  if (w->tmp_path) {
    unlink(w->tmp_path);
    pqt_mem_free(a, w->tmp_path, strlen(w->tmp_path) + 1);
  }
  if (w->path) pqt_mem_free(a, w->path, strlen(w->path) + 1);
  pqt_arena_reset(&w->arena);
  pqt_mem_free(a, w, sizeof *w);
}

/* ---- key-value metadata and sorting columns -------------------------------- */

typedef struct kv_list {
  pqt_arena *arena;
  pqt_key_value *items;
  int32_t n, cap;
} kv_list;

static bool bytes_is(pqt_bytes b, const char *s) {
  return (size_t)b.len == strlen(s) && memcmp(b.ptr, s, (size_t)b.len) == 0;
}

/* Set key to value (value NULL with has_value false: a key without value);
 * a key already there is replaced in place. Both are copied. */
static pqt_status kv_set(kv_list *L, const uint8_t *key, size_t klen, const uint8_t *value, size_t vlen, bool has_value,
                         pqt_error *err) {
  pqt_key_value *kv = NULL;
  for (int32_t i = 0; i < L->n; i++)
    if ((size_t)L->items[i].key.len == klen && memcmp(L->items[i].key.ptr, key, klen) == 0) kv = &L->items[i];
  if (!kv) {
    if (L->n == L->cap) {
      int32_t nc = L->cap ? L->cap * 2 : 8;
      pqt_key_value *ni = pqt_arena_array(L->arena, (size_t)nc, sizeof *ni);
      if (!ni) return pqt_nomem(err);
      if (L->n) memcpy(ni, L->items, (size_t)L->n * sizeof *ni);
      L->items = ni;
      L->cap = nc;
    }
    kv = &L->items[L->n++];
    memset(kv, 0, sizeof *kv);
    char *k = pqt_arena_strdup(L->arena, (const char *)key, klen);
    if (!k) return pqt_nomem(err);
    kv->key = (pqt_bytes){(const uint8_t *)k, (int64_t)klen};
    PQT_SET_FIELD(kv, key_value, key);
  }
  kv->isset &= ~PQT_FIELD_MASK(key_value, value);
  kv->value = (pqt_bytes){NULL, 0};
  if (has_value) {
    char *v = pqt_arena_strdup(L->arena, (const char *)value, vlen);
    if (!v) return pqt_nomem(err);
    kv->value = (pqt_bytes){(const uint8_t *)v, (int64_t)vlen};
    PQT_SET_FIELD(kv, key_value, value);
  }
  return PQT_OK;
}

static pqt_status kv_set_str(kv_list *L, const char *key, const char *value, pqt_error *err) {
  return kv_set(L, (const uint8_t *)key, strlen(key), (const uint8_t *)value, value ? strlen(value) : 0, value != NULL,
                err);
}

/* Does the schema written describe the reader's leaf for leaf (so the
 * reader's ARROW:schema still describes it)? */
static bool same_leaves(const pqt_schema *a, const pqt_schema *b) {
  if (a->n_leaves != b->n_leaves || a->root->n_children != b->root->n_children) return false;
  for (int32_t i = 0; i < a->root->n_children; i++)
    if (strcmp(a->root->children[i]->name, b->root->children[i]->name) != 0) return false;
  for (int32_t i = 0; i < a->n_leaves; i++) {
    const pqt_schema_node *x = a->leaves[i], *y = b->leaves[i];
    if (x->physical_type != y->physical_type || x->type_length != y->type_length ||
        !pqt_logical_type_equal(&x->logical, &y->logical))
      return false;
  }
  return true;
}

/* The ARROW:schema of the schema written (the usual Parquet -> Arrow mapping). */
static pqt_status derive_arrow_schema(pqt_writer *w, const char **out, pqt_error *err) {
  struct ArrowSchema as;
  PQT_RETURN_NOT_OK(pqt_export_schema(w->schema, NULL, &as, err));
  pqt_buf b64;
  pqt_buf_init(&b64, w->alloc);
  pqt_status st = pqt_arrow_schema_encode_from_c(&as, &b64, err);
  as.release(&as);
  if (st == PQT_OK) {
    *out = pqt_arena_strdup(&w->arena, (const char *)b64.data, b64.len);
    if (!*out) st = pqt_nomem(err);
  }
  pqt_buf_free(&b64);
  return st;
}

/* The file's and the column chunks' key-value metadata and the sorting
 * columns: carried over from a reader (pqt_write_options.like_*), then the
 * caller's. */
static pqt_status build_metadata(pqt_writer *w, const pqt_write_schema *schema, pqt_error *err) {
  const pqt_write_options *o = &w->opts;
  const pqt_reader *like = schema->like;
  kv_list L = {&w->arena, NULL, 0, 0};
  if (like && o->like_key_value) {
    const pqt_list_key_value *src = &like->md.key_value_metadata;
    const pqt_key_value *history = NULL;
    for (int32_t i = 0; i < src->n; i++) {
      const pqt_key_value *kv = &src->items[i];
      if (bytes_is(kv->key, "parquetry.rewritten_from")) {
        history = kv;
        continue;
      }
      if (bytes_is(kv->key, "ARROW:schema") && PQT_HAS_FIELD(kv, key_value, value) &&
          !same_leaves(like->schema, w->schema)) {
        const char *b64;
        PQT_RETURN_NOT_OK(derive_arrow_schema(w, &b64, err));
        PQT_RETURN_NOT_OK(kv_set_str(&L, "ARROW:schema", b64, err));
        continue;
      }
      PQT_RETURN_NOT_OK(kv_set(&L, kv->key.ptr, (size_t)kv->key.len, kv->value.ptr, (size_t)kv->value.len,
                               PQT_HAS_FIELD(kv, key_value, value), err));
    }
    const char *cb = pqt_reader_created_by(like);
    if (cb[0] || history) {
      pqt_buf h;
      pqt_buf_init(&h, w->alloc);
      pqt_status st = pqt_buf_append(&h, cb[0] ? cb : "(no created_by)", strlen(cb[0] ? cb : "(no created_by)"), err);
      if (st == PQT_OK && history && PQT_HAS_FIELD(history, key_value, value)) {
        st = pqt_buf_append(&h, " <- ", 4, err);
        if (st == PQT_OK) st = pqt_buf_append(&h, history->value.ptr, (size_t)history->value.len, err);
      }
      if (st == PQT_OK) st = kv_set(&L, (const uint8_t *)"parquetry.rewritten_from", 24, h.data, h.len, true, err);
      pqt_buf_free(&h);
      PQT_RETURN_NOT_OK(st);
    }
  }
  for (int32_t i = 0; i < o->n_kv; i++) {
    if (!o->kv_keys || !o->kv_keys[i]) return pqt_error_set(err, PQT_EINVAL, "key-value metadata %d has no key", i);
    PQT_RETURN_NOT_OK(kv_set_str(&L, o->kv_keys[i], o->kv_values ? o->kv_values[i] : NULL, err));
  }
  if (w->arrow_schema_b64) PQT_RETURN_NOT_OK(kv_set_str(&L, "ARROW:schema", w->arrow_schema_b64, err));
  w->kv = L.items;
  w->n_kv = L.n;

  /* column chunks */
  w->chunk_kv = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof *w->chunk_kv);
  if (!w->chunk_kv) return pqt_nomem(err);
  memset(w->chunk_kv, 0, (size_t)w->n_cols * sizeof *w->chunk_kv);
  bool carry = like && o->like_key_value && like->schema->n_leaves == w->n_cols;
  for (int32_t c = 0; c < w->n_cols; c++) {
    kv_list C = {&w->arena, NULL, 0, 0};
    for (int32_t g = 0; carry && g < like->md.row_groups.n; g++) {
      const pqt_row_group *rg = &like->md.row_groups.items[g];
      if (c >= rg->columns.n || !PQT_HAS_FIELD(&rg->columns.items[c], column_chunk, meta_data)) continue;
      const pqt_list_key_value *src = &rg->columns.items[c].meta_data.key_value_metadata;
      if (src->n == 0) continue;
      for (int32_t i = 0; i < src->n; i++)
        PQT_RETURN_NOT_OK(kv_set(&C, src->items[i].key.ptr, (size_t)src->items[i].key.len, src->items[i].value.ptr,
                                 (size_t)src->items[i].value.len, PQT_HAS_FIELD(&src->items[i], key_value, value),
                                 err));
      break;
    }
    for (int32_t i = 0; i < o->n_column_kv; i++) {
      const pqt_column_key_value *ck = &o->column_kv[i];
      if (ck->column < 0 || ck->column >= w->n_cols || !ck->key)
        return pqt_error_set(err, PQT_EINVAL, "column key-value metadata %d: no column %d or no key", i, ck->column);
      if (ck->column == c) PQT_RETURN_NOT_OK(kv_set_str(&C, ck->key, ck->value, err));
    }
    w->chunk_kv[c] = (pqt_list_key_value){C.items, C.n};
  }

  /* sorting columns */
  if (o->n_sorting_columns > 0) {
    if (!o->sorting_columns) return pqt_error_set(err, PQT_EINVAL, "sorting_columns missing");
    w->sorting = pqt_arena_array(&w->arena, (size_t)o->n_sorting_columns, sizeof *w->sorting);
    if (!w->sorting) return pqt_nomem(err);
    memcpy(w->sorting, o->sorting_columns, (size_t)o->n_sorting_columns * sizeof *w->sorting);
    w->n_sorting = o->n_sorting_columns;
  } else if (like && o->like_sorting_columns && like->schema->n_leaves == w->n_cols && like->md.row_groups.n > 0) {
    const pqt_list_sorting_column *first = &like->md.row_groups.items[0].sorting_columns;
    bool same = first->n > 0;
    for (int32_t g = 1; same && g < like->md.row_groups.n; g++) {
      const pqt_list_sorting_column *sc = &like->md.row_groups.items[g].sorting_columns;
      same = sc->n == first->n;
      for (int32_t i = 0; same && i < sc->n; i++)
        same = sc->items[i].column_idx == first->items[i].column_idx &&
               sc->items[i].descending == first->items[i].descending &&
               sc->items[i].nulls_first == first->items[i].nulls_first;
    }
    for (int32_t i = 0; same && i < first->n; i++)
      same = first->items[i].column_idx >= 0 && first->items[i].column_idx < w->n_cols;
    if (same) {
      w->sorting = pqt_arena_array(&w->arena, (size_t)first->n, sizeof *w->sorting);
      if (!w->sorting) return pqt_nomem(err);
      for (int32_t i = 0; i < first->n; i++)
        w->sorting[i] = (pqt_sorting_column_spec){first->items[i].column_idx, first->items[i].descending,
                                                  first->items[i].nulls_first};
      w->n_sorting = first->n;
    }
  }
  for (int32_t i = 0; i < w->n_sorting; i++)
    if (w->sorting[i].column < 0 || w->sorting[i].column >= w->n_cols)
      return pqt_error_set(err, PQT_EINVAL, "sorting column %d: no column %d", i, w->sorting[i].column);
  return PQT_OK;
}

/* The ColumnOrder of leaf i from the options (float_column_order,
 * int96_statistics); see pqt_column_writer_set_order. */
static pqt_status set_column_order(pqt_writer *w, int32_t i, pqt_error *err) {
  if (w->opts.float_column_order != PQT_FLOAT_ORDER_TYPE && w->opts.float_column_order != PQT_FLOAT_ORDER_TOTAL)
    return pqt_error_set(err, PQT_EINVAL, "float_column_order %d (PQT_FLOAT_ORDER_TYPE or _TOTAL)",
                         (int)w->opts.float_column_order);
  if (!w->col_orders) {
    w->col_orders = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof *w->col_orders);
    if (!w->col_orders) return pqt_nomem(err);
  }
  w->col_orders[i] = pqt_column_writer_set_order(&w->cols[i], w->opts.float_column_order == PQT_FLOAT_ORDER_TOTAL,
                                                 w->opts.int96_statistics != 0);
  return PQT_OK;
}

/* The top-level VARIANT groups whose batches bring struct<metadata, value>
 * (an Arrow parquet.variant field, or a message's {metadata, value} group). */
static bool variant_input(const pqt_schema_node *in, int32_t *meta_at, bool arrow, bool *shredded_form) {
  *shredded_form = false;
  if (in->is_leaf || pqt_union_which(in->logical.isset) != PQT_LT_VARIANT) return false;
  if (arrow && in->n_children == 3) { /* an Arrow field of the shredded form (writer_schema.c's arrow_variant) */
    for (int32_t k = 0; k < 3; k++)
      if (strcmp(in->children[k]->name, "typed_value") == 0) *shredded_form = true;
    *meta_at = 0;
    return *shredded_form;
  }
  if (in->n_children != 2) return false;
  int found = 0;
  for (int32_t k = 0; k < 2; k++) {
    const pqt_schema_node *c = in->children[k];
    if (!c->is_leaf || c->physical_type != PQT_BYTE_ARRAY) return false;
    if (strcmp(c->name, "metadata") == 0) {
      *meta_at = k;
      found |= 1;
    } else if (strcmp(c->name, "value") == 0) {
      found |= 2;
    }
  }
  return found == 3;
}

/* One VARIANT group g (its input layout: struct<metadata, value>, the
 * metadata at meta_at) below top-level field top: the schema nodes down to
 * it, and the shredder when g has a typed_value. */
static pqt_status variant_state_init(pqt_writer *w, const pqt_schema_node *g, int32_t top, int32_t meta_at,
                                     bool shredded_form, pqt_error *err) {
  wvariant *v = &w->variants[w->n_variants++];
  v->arrow_shredded = shredded_form;
  v->top = top;
  v->group = g;
  v->meta_at = meta_at;
  v->n_chain = g->depth;
  for (const pqt_schema_node *x = g; x && x->depth >= 1; x = x->parent) v->chain[x->depth - 1] = x;
  for (int32_t k = 0; k < g->n_children; k++)
    if (strcmp(g->children[k]->name, "typed_value") == 0) v->shredded = true;
  if (v->shredded) {
    pqt_status st = pqt_vshred_init(&v->sh, g, w->alloc, err);
    if (st != PQT_OK) {
      pqt_vshred_free(&v->sh);
      v->shredded = false;
      return st;
    }
  }
  return PQT_OK;
}

/* The VARIANT groups under g (in: its input layout), through structs,
 * standard three-level lists and maps: the writer takes them unshredded
 * and shreds those whose group has a typed_value (variant_shredding naming
 * the dotted path). Without w, only counted into *count. */
static pqt_status nested_variants(pqt_writer *w, const pqt_schema_node *g, const pqt_schema_node *in, int32_t top,
                                  bool arrow, int32_t *count, pqt_error *err) {
  int32_t meta_at;
  bool shredded_form;
  if (variant_input(in, &meta_at, arrow, &shredded_form)) {
    if (g->depth > WVARIANT_MAX_PATH || in->repetition == PQT_REPEATED) {
      if (shredded_form)
        return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: a shredded parquet.variant field nested this deep", g->name);
      return PQT_OK;
    }
    (*count)++;
    return w ? variant_state_init(w, g, top, meta_at, shredded_form, err) : PQT_OK;
  }
  if (in->is_leaf || in->repetition == PQT_REPEATED || g->n_children != in->n_children || g->depth >= WVARIANT_MAX_PATH)
    return PQT_OK;
  if (in->kind == PQT_NODE_LIST) {
    if (!in->element || in->element == in->repeated || !g->element || g->element == g->repeated ||
        in->repeated->n_children != 1 || g->repeated->n_children != 1)
      return PQT_OK;
    return nested_variants(w, g->element, in->element, top, arrow, count, err);
  }
  if (in->kind == PQT_NODE_MAP) {
    if (!in->value || !g->value || in->repeated->n_children != 2 || g->repeated->n_children != 2) return PQT_OK;
    return nested_variants(w, g->value, in->value, top, arrow, count, err);
  }
  if (in->kind != PQT_NODE_STRUCT) return PQT_OK;
  for (int32_t k = 0; k < in->n_children; k++)
    PQT_RETURN_NOT_OK(nested_variants(w, g->children[k], in->children[k], top, arrow, count, err));
  return PQT_OK;
}

static pqt_status variants_init(pqt_writer *w, bool arrow, pqt_error *err) {
  const pqt_schema_node *root = w->schema->root, *in_root = w->in_schema->root;
  if (root->n_children != in_root->n_children) return pqt_error_set(err, PQT_EINVAL, "schema shapes differ");
  int32_t n = 0;
  for (int32_t i = 0; i < root->n_children; i++)
    PQT_RETURN_NOT_OK(nested_variants(NULL, root->children[i], in_root->children[i], i, arrow, &n, err));
  if (n == 0) return PQT_OK;
  w->variants = pqt_mem_calloc(w->alloc, (size_t)n * sizeof *w->variants);
  if (!w->variants) return pqt_nomem(err);
  int32_t added = 0;
  for (int32_t i = 0; i < root->n_children; i++)
    PQT_RETURN_NOT_OK(nested_variants(w, root->children[i], in_root->children[i], i, arrow, &added, err));
  return PQT_OK;
}

static pqt_status writer_new(pqt_writer **out, const pqt_write_schema *schema, const pqt_write_options *opts,
                             const pqt_writer_raw *raw, pqt_error *err) {
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
  pqt_buf_init(&w->cbuf, a);
  pqt_import_scratch_init(&w->sc, a);
  pqt_column_override *overrides = NULL;
  pqt_status st = pqt_column_overrides_load(&w->arena, opts->columns, opts->n_columns, &overrides, err);
  w->opts.columns = overrides;
  if (st == PQT_OK && raw) {
    /* the elements as given (borrowed until close), no normalisation */
    w->raw = true;
    w->raw_orders = raw->column_orders;
    w->n_raw_orders = raw->n_column_orders;
    w->elems = pqt_arena_array(&w->arena, (size_t)(raw->n_elems > 0 ? raw->n_elems : 1), sizeof *w->elems);
    if (!w->elems) st = pqt_nomem(err);
    else if (raw->n_elems > 0) memcpy(w->elems, raw->elems, (size_t)raw->n_elems * sizeof *w->elems);
    w->n_elems = raw->n_elems;
  } else if (st == PQT_OK) {
    st = pqt_writer_schema_elements(&w->arena, schema, &w->opts, &w->elems, &w->n_elems, err);
    if (st == PQT_OK && !schema->like && w->opts.n_variant_shredding > 0) {
      /* batches come with the VARIANT columns unshredded: their layout */
      pqt_write_options plain = w->opts;
      plain.variant_shredding = NULL;
      plain.n_variant_shredding = 0;
      pqt_schema_element *e2;
      int32_t n2;
      st = pqt_writer_schema_elements(&w->arena, schema, &plain, &e2, &n2, err);
      if (st == PQT_OK) st = pqt_schema_build(e2, n2, &w->arena, &w->in_schema, err);
    }
  }
  if (st == PQT_OK) st = pqt_schema_build(w->elems, w->n_elems, &w->arena, &w->schema, err);
  if (st == PQT_OK && !w->in_schema) w->in_schema = w->schema;
  if (st == PQT_OK && w->schema->n_leaves == 0) st = pqt_error_set(err, PQT_EINVAL, "the schema has no columns");
  for (int32_t i = 0; st == PQT_OK && !w->raw && i < w->schema->n_nodes; i++) {
    const pqt_schema_node *x = &w->schema->nodes[i];
    if (x->annotation_invalid) st = pqt_error_set(err, PQT_EINVAL, "%s: annotation does not fit its type", x->name);
    if (x->kind == PQT_NODE_VECTOR || x->repetition == PQT_VECTOR)
      st = pqt_error_set(err, PQT_EUNSUPPORTED, "%s: VECTOR is not writable", x->name);
  }
  /* expected Arrow layout (a raw writer takes no batches) */
  if (st == PQT_OK && !w->raw) {
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
      st = pqt_export_schema(w->in_schema, NULL, &as, err);
      if (st == PQT_OK) {
        st = pqt_import_fmt_copy(&w->arena, &as, &w->fmt, err);
        as.release(&as);
      }
    }
  }
  if (st == PQT_OK && !w->raw && !schema->like) st = variants_init(w, schema->arrow != NULL, err);
  if (st == PQT_OK) st = pqt_codec_ctx_create(&w->codec, a, err);
  /* threads 0 (the default) runs on every core only with the library's
   * allocator: a caller's may not be thread-safe (asking for threads, or
   * giving an executor, says it is) */
  int32_t threads = w->opts.threads == 0 && !w->opts.executor && opts->alloc ? 1 : w->opts.threads;
  if (st == PQT_OK) st = pqt_par_init(&w->par, threads, w->opts.executor, a, "pqt_write_options.threads", err);
  w->opts.executor = NULL; /* copied into par */
  if (st == PQT_OK && !w->raw && pqt_par_slots(&w->par) > 1) {
    size_t ns = (size_t)pqt_par_slots(&w->par);
    w->codecs = pqt_mem_calloc(a, ns * sizeof *w->codecs);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
    w->scs = pqt_mem_calloc(a, ns * sizeof *w->scs);
    if (!w->codecs || !w->scs) {
      pqt_mem_free(a, w->codecs, ns * sizeof *w->codecs);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
      pqt_mem_free(a, w->scs, ns * sizeof *w->scs);
      w->codecs = NULL;
      w->scs = NULL;
      st = pqt_nomem(err);
    } else {
      w->codecs[0] = w->codec;
      for (size_t k = 1; k < ns; k++) pqt_import_scratch_init(&w->scs[k], a);
    }
  }
  if (st == PQT_OK) w->n_cols = w->schema->n_leaves;
  if (st == PQT_OK && !w->raw) {
    w->cols = pqt_mem_calloc(a, (size_t)w->n_cols * sizeof *w->cols);
    if (!w->cols) st = pqt_nomem(err);
  }
  for (int32_t i = 0; st == PQT_OK && !w->raw && i < w->n_cols; i++) {
    const pqt_schema_node *x = w->schema->leaves[i];
    pqt_column_options co;
    resolve_options(&w->opts, x, &co);
    st = pqt_column_writer_init(&w->cols[i], &co, x->physical_type, x->type_length, x->max_def, x->max_rep, &x->logical,
                                x->converted_type, w->codec, a, err);
    if (st == PQT_OK) st = set_column_order(w, i, err);
    if (st != PQT_OK) pqt_error_prefix(err, "column %s", x->dotted_path);
  }
  if (st == PQT_OK && w->opts.encryption && w->raw)
    st = pqt_error_set(err, PQT_EUNSUPPORTED, "copied column chunks cannot be encrypted (re-encode them instead)");
  if (st == PQT_OK && w->opts.encryption) {
    const char **paths = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof *paths);
    if (!paths) st = pqt_nomem(err);
    for (int32_t i = 0; st == PQT_OK && i < w->n_cols; i++) paths[i] = w->schema->leaves[i]->dotted_path;
    if (st == PQT_OK)
      st = pqt_file_encryptor_create(&w->crypt, w->opts.encryption, paths, w->n_cols, &w->arena, err);
    for (int32_t i = 0; st == PQT_OK && i < w->n_cols; i++) w->cols[i].enc = pqt_file_encryptor_column(w->crypt, i);
    w->opts.encryption = NULL; /* the caller's struct is not ours to keep */
  }
  if (st == PQT_OK) st = build_metadata(w, schema, err);
  if (st != PQT_OK) {
    w->n_cols = w->cols ? w->n_cols : 0;
    writer_free(w);
    return st;
  }
  *out = w;
  return PQT_OK;
}

static pqt_status write_magic(pqt_writer *w, pqt_error *err) {
  return sink(w, w->crypt ? pqt_file_encryptor_magic(w->crypt) : "PAR1", 4, err);
}

/* Page index or Bloom filter bytes of column c of row group rg to the
 * sink: as they are, or as the modules of an encrypted column. *len gets
 * the bytes written. */
static pqt_status sink_module(pqt_writer *w, int32_t rg, int32_t c, int module_type, const uint8_t *p, size_t n,
                              size_t *len, pqt_error *err) {
  const pqt_module_encryptor *e = w->crypt ? pqt_file_encryptor_column(w->crypt, c) : NULL;
  if (!e) {
    *len = n;
    return sink(w, p, n, err);
  }
  pqt_module_encryptor me = *e;
  me.row_group = rg;
  pqt_buf_clear(&w->cbuf);
  pqt_status st = module_type == PQT_MODULE_BLOOM_FILTER_HEADER
                      ? pqt_bloom_filter_encrypt(&me, p, n, &w->cbuf, err)
                      : pqt_module_encrypt(&me, module_type, 0, p, n, NULL, &w->cbuf, err);
  pqt_module_decryptor_wipe(&me);
  if (st == PQT_OK && w->cbuf.len > INT32_MAX)
    st = pqt_error_set(err, PQT_ELIMIT, "%s of %zu bytes is too large", pqt_module_name(module_type), w->cbuf.len);
  if (st == PQT_OK) st = sink(w, w->cbuf.data, w->cbuf.len, err);
  *len = w->cbuf.len;
  return st;
}

/* Attach *out (new) to a temporary file next to path; on failure *out is freed. */
static pqt_status open_file_sink(pqt_writer **out, const char *path, pqt_error *err) {
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

PQT_API pqt_status pqt_writer_open_file(pqt_writer **out, const char *path, const pqt_write_schema *schema,
                                        const pqt_write_options *opts, pqt_error *err) {
  if (!out || !path) return pqt_error_set(err, PQT_EINVAL, "NULL argument");
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, NULL, err));
  return open_file_sink(out, path, err);
}

PQT_API pqt_status pqt_writer_open_buffer(pqt_writer **out, pqt_string *dst, const pqt_write_schema *schema,
                                          const pqt_write_options *opts, pqt_error *err) {
  if (!out || !dst) return pqt_error_set(err, PQT_EINVAL, "NULL argument");
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, NULL, err));
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
  PQT_RETURN_NOT_OK(writer_new(out, schema, opts, NULL, err));
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
  return pqt_export_schema(w->in_schema ? w->in_schema : w->schema, NULL, out, err);
}

/* ---- threads ------------------------------------------------------------ */

/* The per-column work of the writer on the writer's threads (w->par):
 * PAR_WRITE imports rows [pos, pos+n) of a batch for each column and
 * writes them (pages encoded and compressed as they fill), PAR_FINISH
 * closes each column's last page and dictionary. Each column's output
 * depends on that column's input only, so the file is the same whatever
 * the count. The error reported is the one the columns taken in order
 * would have stopped at. */
enum { PAR_WRITE, PAR_FINISH };

typedef struct par_job {
  pqt_writer *w;
  int kind;
  const struct ArrowArray *batch;
  int64_t pos, n;
  pqt_status *each; /* PAR_FINISH: every column's status */
  par_slot *slots;
  atomic_int first_fail;
} par_job;

static pqt_status write_leaf(pqt_writer *w, int32_t i, const struct ArrowArray *batch, int64_t pos, int64_t n,
                             pqt_import_scratch *sc, pqt_error *err);

static void par_column(void *ctx, int32_t i, int32_t slot) {
  par_job *j = ctx;
  pqt_writer *w = j->w;
  if (j->kind == PAR_WRITE && i > atomic_load_explicit(&j->first_fail, memory_order_relaxed)) return;
  par_slot *ps = &j->slots[slot];
  pqt_error local;
  pqt_status st = PQT_OK;
  if (!w->codecs[slot]) st = pqt_codec_ctx_create(&w->codecs[slot], w->alloc, &local); /* this slot's first use */
  if (st == PQT_OK) {
    pqt_column_writer *cw = &w->cols[i];
    cw->codec = w->codecs[slot];
    if (j->kind == PAR_WRITE) st = write_leaf(w, i, j->batch, j->pos, j->n, slot ? &w->scs[slot] : &w->sc, &local);
    else st = pqt_column_writer_finish(cw, &local);
    cw->codec = w->codec;
  }
  if (j->each) j->each[i] = st;
  if (st == PQT_OK) return;
  if (i < ps->failed) {
    ps->failed = i;
    ps->st = st;
    ps->err = local;
  }
  int cur = atomic_load_explicit(&j->first_fail, memory_order_relaxed);
  while (i < cur && !atomic_compare_exchange_weak_explicit(&j->first_fail, &cur, i, memory_order_relaxed,
                                                           memory_order_relaxed)) {
  }
}

/* Run kind over every column. PAR_WRITE: the first failure (in column
 * order) is returned. PAR_FINISH: each[] gets every column's status and
 * *first_err points at the first failure's error (valid until the next
 * call); the return is an allocation failure only. */
static pqt_status par_columns(pqt_writer *w, int kind, int64_t pos, int64_t n, const struct ArrowArray *batch,
                              pqt_status *each, pqt_error **first_err, pqt_error *err) {
  int32_t ns = pqt_par_slots(&w->par);
  if (!w->par_slots) {
    w->par_slots = pqt_mem_alloc(w->alloc, (size_t)ns * sizeof(par_slot));
    if (!w->par_slots) return pqt_nomem(err);
  }
  par_slot *slots = w->par_slots;
  for (int32_t k = 0; k < ns; k++) {
    slots[k].failed = INT32_MAX;
    slots[k].st = PQT_OK;
  }
  par_job j = {.w = w, .kind = kind, .batch = batch, .pos = pos, .n = n, .each = each, .slots = slots};
  atomic_init(&j.first_fail, INT32_MAX);
  pqt_par_run(&w->par, w->n_cols, par_column, &j);
  int32_t best = -1;
  for (int32_t k = 0; k < ns; k++)
    if (slots[k].st != PQT_OK && (best < 0 || slots[k].failed < slots[best].failed)) best = k;
  if (first_err) *first_err = best >= 0 ? &slots[best].err : NULL;
  if (kind == PAR_FINISH || best < 0) return PQT_OK;
  if (err) *err = slots[best].err;
  return slots[best].st;
}

/* ---- row groups ------------------------------------------------------------ */

static int64_t buffered_bytes(const pqt_writer *w) {
  int64_t b = 0;
  for (int32_t i = 0; i < w->n_cols; i++) b += pqt_column_writer_buffered(&w->cols[i]);
  return b;
}

static pqt_status flush_rg(pqt_writer *w, pqt_error *err) {
  if (w->raw) return PQT_OK; /* raw row groups are complete when added */
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
  PQT_SET_FIELD(rg, row_group, columns);
  rg->file_offset = w->offset;
  PQT_SET_FIELD(rg, row_group, file_offset);
  pqt_buf_clear(&w->bloom);
  size_t *bloom_at = pqt_mem_alloc(w->alloc, ((size_t)w->n_cols + 1) * sizeof(size_t));
  if (!bloom_at) return pqt_nomem(err);
  pqt_status st = PQT_OK;
  pqt_status *finished = NULL; /* threads: every column's last page flushed first, in parallel */
  pqt_error *finish_err = NULL;
  if (w->codecs && w->n_cols > 1) {
    finished = pqt_mem_alloc(w->alloc, (size_t)w->n_cols * sizeof *finished);
    if (!finished) st = pqt_nomem(err);
    else st = par_columns(w, PAR_FINISH, 0, 0, NULL, finished, &finish_err, err);
  }
  for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
    pqt_column_writer *cw = &w->cols[i];
    pqt_column_chunk *cc = &rg->columns.items[i];
    if (!finished) st = pqt_column_writer_finish(cw, err);
    else if ((st = finished[i]) != PQT_OK && err && finish_err) *err = *finish_err; /* the first failure, as in order */
    if (st != PQT_OK) break;
    if (w->n_refs == w->cap_refs) {
      size_t nc = w->cap_refs ? w->cap_refs * 2 : 64;
      idx_ref *n = pqt_mem_realloc(w->alloc, w->refs, w->cap_refs * sizeof *n, nc * sizeof *n);
      if (!n) {
        st = pqt_nomem(err);
        break;
      }
      w->refs = n;
      w->cap_refs = nc;
    }
    idx_ref *r = &w->refs[w->n_refs++];
    r->rg = w->n_rgs;
    r->col = i;
    r->ci_off = w->ci.len;
    r->oi_off = w->oi.len;
    bloom_at[i] = w->bloom.len;
    pqt_chunk_out co = {.sink = sink,
                        .sink_ctx = w,
                        .at = w->offset,
                        .arena = &w->arena,
                        .cc = cc,
                        .ci = &w->ci,
                        .oi = &w->oi,
                        .bloom = &w->bloom};
    st = pqt_column_writer_emit(cw, &co, err);
    r->ci_len = co.ci_len;
    r->oi_len = co.oi_len;
    if (st != PQT_OK) {
      pqt_error_prefix(err, "row group %d, column %s", w->n_rgs, w->schema->leaves[i]->dotted_path);
      break;
    }
    const pqt_schema_node *x = w->schema->leaves[i];
    pqt_bytes *parts = pqt_arena_array(&w->arena, (size_t)x->path_len, sizeof *parts);
    if (!parts) {
      st = pqt_nomem(err);
      break;
    }
    for (int32_t k = 0; k < x->path_len; k++)
      parts[k] = (pqt_bytes){(const uint8_t *)x->path[k], (int64_t)strlen(x->path[k])};
    cc->meta_data.path_in_schema.items = parts;
    cc->meta_data.path_in_schema.n = x->path_len;
    if (w->chunk_kv[i].n > 0) {
      cc->meta_data.key_value_metadata = w->chunk_kv[i];
      PQT_SET_FIELD(&cc->meta_data, column_metadata, key_value_metadata);
    }
    rg->total_byte_size += cc->meta_data.total_uncompressed_size;
    rg->total_compressed_size += cc->meta_data.total_compressed_size;
  }
  if (finished) pqt_mem_free(w->alloc, finished, (size_t)w->n_cols * sizeof *finished);
  bloom_at[w->n_cols] = w->bloom.len;
  /* Bloom filters of this row group, after its column chunks */
  for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
    size_t len = bloom_at[i + 1] - bloom_at[i];
    if (!len) continue;
    pqt_column_metadata *m = &rg->columns.items[i].meta_data;
    m->bloom_filter_offset = w->offset;
    st = sink_module(w, w->n_rgs, i, PQT_MODULE_BLOOM_FILTER_HEADER, w->bloom.data + bloom_at[i], len, &len, err);
    m->bloom_filter_length = (int32_t)len;
    PQT_SET_FIELD(m, column_metadata, bloom_filter_offset);
    PQT_SET_FIELD(m, column_metadata, bloom_filter_length);
  }
  pqt_mem_free(w->alloc, bloom_at, ((size_t)w->n_cols + 1) * sizeof(size_t));
  if (st != PQT_OK) return st;
  rg->num_rows = rows;
  PQT_SET_FIELD(rg, row_group, total_byte_size);
  PQT_SET_FIELD(rg, row_group, num_rows);
  PQT_SET_FIELD(rg, row_group, total_compressed_size);
  rg->ordinal = (int16_t)w->n_rgs;
  PQT_SET_FIELD(rg, row_group, ordinal);
  if (w->n_sorting > 0) {
    pqt_sorting_column *sc = pqt_arena_array(&w->arena, (size_t)w->n_sorting, sizeof *sc);
    if (!sc) return pqt_nomem(err);
    for (int32_t i = 0; i < w->n_sorting; i++) {
      const pqt_sorting_column_spec *s = &w->sorting[i];
      sc[i] = (pqt_sorting_column){0xE, s->column, s->descending != 0, s->nulls_first != 0};
    }
    rg->sorting_columns.items = sc;
    rg->sorting_columns.n = w->n_sorting;
    PQT_SET_FIELD(rg, row_group, sorting_columns);
  }
  w->n_rgs++;
  if (w->crypt) pqt_file_encryptor_set_row_group(w->crypt, w->n_rgs);
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

static const wvariant *shredded_of(const pqt_writer *w, int32_t leaf) {
  for (int32_t i = 0; i < w->n_variants; i++) {
    const wvariant *v = &w->variants[i];
    if (v->shredded && leaf >= v->group->first_leaf && leaf < v->group->first_leaf + v->group->n_leaves) return v;
  }
  return NULL;
}

/* Element i of a binary ("z") or large binary ("Z") array. */
static pqt_status arrow_binary_at(const struct ArrowArray *a, bool large, int64_t i, const uint8_t **p, size_t *n,
                                  bool *is_null, pqt_error *err) {
  if (!a || a->n_buffers < 3 || i < 0 || a->offset < 0 || i >= a->length)
    return pqt_error_set(err, PQT_EINVAL, "malformed binary array");
  int64_t j = a->offset + i;
  const uint8_t *valid = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
  *is_null = valid && !((valid[j >> 3] >> (j & 7)) & 1);
  if (*is_null) return PQT_OK;
  int64_t lo, hi;
  if (!a->buffers[1]) return pqt_error_set(err, PQT_EINVAL, "binary array without offsets");
  if (large) {
    lo = ((const int64_t *)a->buffers[1])[j];
    hi = ((const int64_t *)a->buffers[1])[j + 1];
  } else {
    lo = ((const int32_t *)a->buffers[1])[j];
    hi = ((const int32_t *)a->buffers[1])[j + 1];
  }
  if (lo < 0 || hi < lo) return pqt_error_set(err, PQT_EINVAL, "binary array with bad offsets");
  static const uint8_t empty = 0;
  *p = a->buffers[2] ? (const uint8_t *)a->buffers[2] + lo : &empty;
  if (!a->buffers[2] && hi > lo) return pqt_error_set(err, PQT_EINVAL, "binary array without data");
  *n = (size_t)(hi - lo);
  return PQT_OK;
}

/* A group's dotted path ("s.v"; only leaves have dotted_path): the first
 * components of its first leaf's path, cut to fit cap. */
static const char *group_dotted(const pqt_writer *w, const pqt_schema_node *g, char *buf, size_t cap) {
  const pqt_schema_node *leaf =
      g->n_leaves > 0 && g->first_leaf < w->schema->n_leaves ? w->schema->leaves[g->first_leaf] : NULL;
  if (!leaf || g->depth < 1 || g->depth > leaf->path_len) return g->name;
  size_t at = 0;
  buf[0] = '\0';
  for (int32_t k = 0; k < g->depth && at + 1 < cap; k++) {
    int m = snprintf(buf + at, cap - at, "%s%s", k ? "." : "", leaf->path[k]);
    if (m < 0) break;
    at += (size_t)m < cap - at ? (size_t)m : cap - at - 1;
  }
  return buf;
}

/* Walking one row of a VARIANT column down its chain of schema nodes. */
typedef struct vwalk {
  pqt_writer *w;
  wvariant *v;
  const char *col;
  int64_t row;
  int64_t r;  /* the row being walked: row + r */
  bool named; /* the error names its row and column already */
} vwalk;

static const pqt_allocator *w_alloc(const vwalk *k) { return k->w->alloc; }

static bool arrow_valid(const struct ArrowArray *a, int64_t j) {
  const uint8_t *pv = a->null_count == 0 || a->n_buffers < 1 ? NULL : (const uint8_t *)a->buffers[0];
  return !pv || ((pv[j >> 3] >> (j & 7)) & 1);
}

/* Element slot of Arrow array a (logical index slot) at chain[ci], with
 * repetition level rep for its first value: validated, and shredded into
 * levels and values when the group is. */
static pqt_status vwalk_node(vwalk *k, int32_t ci, const struct ArrowArray *a, const pqt_import_fmt *f, int64_t slot,
                             int16_t rep, pqt_error *err) {
  wvariant *v = k->v;
  const pqt_schema_node *x = v->chain[ci];
  if (!a || !f || a->offset < 0 || slot < 0 || slot >= a->length)
    return pqt_error_set(err, PQT_EINVAL, "the batch's children are shorter than their parents");
  int64_t j = a->offset + slot;
  if (!arrow_valid(a, j)) {
    if (x == v->group) return v->shredded ? pqt_vshred_write_value(&v->sh, NULL, rep, err) : PQT_OK;
    if (x->repetition != PQT_OPTIONAL) return pqt_error_set(err, PQT_EINVAL, "%s: null in a required field", x->name);
    return v->shredded ? pqt_vshred_write_absent_at(&v->sh, (int16_t)(x->max_def - 1), rep, err) : PQT_OK;
  }
  if (x == v->group && v->arrow_shredded) {
    if (v->ain_of != a) {
      pqt_variant_arrow_in_free(v->ain);
      v->ain = NULL;
      v->ain_of = NULL;
      PQT_RETURN_NOT_OK(pqt_variant_arrow_in_open(w_alloc(k), k->col, a, f, &v->ain, err));
      v->ain_of = a;
    }
    pqt_variant val;
    pqt_status st = pqt_variant_arrow_in_row(v->ain, j, k->row + k->r, &val, err);
    if (st != PQT_OK) {
      k->named = true; /* the message names row and column */
      return st;
    }
    PQT_RETURN_NOT_OK(pqt_variant_validate(&val, err));
    return pqt_vshred_write_value(&v->sh, &val, rep, err);
  }
  if (x == v->group) {
    if (a->n_children != 2 || f->n_children != 2)
      return pqt_error_set(err, PQT_EINVAL, "the batch's field is not a struct<metadata, value>");
    const struct ArrowArray *ma = a->children[v->meta_at], *va = a->children[1 - v->meta_at];
    bool mlarge = strcmp(f->children[v->meta_at].format, "Z") == 0;
    bool vlarge = strcmp(f->children[1 - v->meta_at].format, "Z") == 0;
    pqt_variant val;
    bool mnull = false, vnull = false;
    PQT_RETURN_NOT_OK(arrow_binary_at(ma, mlarge, j, &val.metadata, &val.metadata_len, &mnull, err));
    PQT_RETURN_NOT_OK(arrow_binary_at(va, vlarge, j, &val.value, &val.value_len, &vnull, err));
    if (mnull || vnull)
      return pqt_error_set(err, PQT_EINVAL, "null %s in a Variant that is not null", mnull ? "metadata" : "value");
    PQT_RETURN_NOT_OK(pqt_variant_validate(&val, err));
    return v->shredded ? pqt_vshred_write_value(&v->sh, &val, rep, err) : PQT_OK;
  }
  if (ci + 1 >= v->n_chain) return pqt_error_set(err, PQT_EINVAL, "schema shapes differ");
  const pqt_schema_node *next = v->chain[ci + 1];
  if (x->kind == PQT_NODE_LIST || x->kind == PQT_NODE_MAP) {
    /* next is the repeated group; the element (or the map's value) after it */
    if (ci + 2 >= v->n_chain || a->n_children != 1 || f->n_children != 1 || a->n_buffers < 2 || !a->buffers[1])
      return pqt_error_set(err, PQT_EINVAL, "%s: the batch's list is malformed", x->name);
    bool large = f->kind == PQT_AK_LARGE_LIST;
    if (x->kind == PQT_NODE_LIST ? f->kind != PQT_AK_LIST && !large : f->kind != PQT_AK_MAP)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: Arrow %s around a VARIANT is not supported", x->name, f->format);
    int64_t lo = large ? ((const int64_t *)a->buffers[1])[j] : ((const int32_t *)a->buffers[1])[j];
    int64_t hi = large ? ((const int64_t *)a->buffers[1])[j + 1] : ((const int32_t *)a->buffers[1])[j + 1];
    const struct ArrowArray *c = a->children[0];
    const pqt_import_fmt *cf = &f->children[0];
    if (lo < 0 || hi < lo || !c || hi > c->length)
      return pqt_error_set(err, PQT_EINVAL, "%s: the batch's list has bad offsets", x->name);
    if (lo == hi) return v->shredded ? pqt_vshred_write_absent_at(&v->sh, x->max_def, rep, err) : PQT_OK;
    const pqt_schema_node *e = v->chain[ci + 2];
    if (x->kind == PQT_NODE_MAP) { /* the entries struct: its key or value child */
      if (c->offset < 0 || e->child_index >= c->n_children || e->child_index >= cf->n_children)
        return pqt_error_set(err, PQT_EINVAL, "%s: the batch's map entries are malformed", x->name);
      for (int64_t i = lo; i < hi; i++)
        PQT_RETURN_NOT_OK(vwalk_node(k, ci + 2, c->children[e->child_index], &cf->children[e->child_index],
                                     c->offset + i, i == lo ? rep : next->max_rep, err));
      return PQT_OK;
    }
    for (int64_t i = lo; i < hi; i++) PQT_RETURN_NOT_OK(vwalk_node(k, ci + 2, c, cf, i, i == lo ? rep : next->max_rep, err));
    return PQT_OK;
  }
  int32_t ch = next->child_index;
  if (ch < 0 || ch >= a->n_children || ch >= f->n_children)
    return pqt_error_set(err, PQT_EINVAL, "%s: the batch's struct is malformed", x->name);
  return vwalk_node(k, ci + 1, a->children[ch], &f->children[ch], j, rep, err);
}

/* Rows [pos, pos + n) of a VARIANT column: each checked
 * (pqt_variant_validate) and, when shredded, split into its leaves. */
static pqt_status variant_rows(pqt_writer *w, wvariant *v, const struct ArrowArray *batch, int64_t pos, int64_t n,
                               pqt_error *err) {
  char col_buf[256];
  vwalk k = {w, v, group_dotted(w, v->group, col_buf, sizeof col_buf), w->total_rows + w->rg_rows + pos, 0, false};
  const struct ArrowArray *a = v->top < batch->n_children ? batch->children[v->top] : NULL;
  const pqt_import_fmt *f = v->top < w->fmt.n_children ? &w->fmt.children[v->top] : NULL;
  if (v->shredded) pqt_vshred_clear(&v->sh);
  pqt_status st = PQT_OK;
  for (int64_t r = 0; r < n && st == PQT_OK; r++) {
    k.r = r;
    st = vwalk_node(&k, 0, a, f, pos + r, 0, err);
    if (st != PQT_OK) {
      if (!k.named) pqt_error_prefix(err, "row %lld, column %s", (long long)(k.row + r), k.col);
      if (err) err->code = PQT_EINVAL;
      st = PQT_EINVAL;
    }
  }
  /* the views are of this batch's arrays only */
  pqt_variant_arrow_in_free(v->ain);
  v->ain = NULL;
  v->ain_of = NULL;
  if (st != PQT_OK) return st;
  return v->shredded ? pqt_vshred_status(&v->sh, err) : PQT_OK;
}

/* Rows [pos, pos+n) of batch into column i (sc: the import scratch of the
 * thread doing it). */
static pqt_status write_leaf(pqt_writer *w, int32_t i, const struct ArrowArray *batch, int64_t pos, int64_t n,
                             pqt_import_scratch *sc, pqt_error *err) {
  pqt_status st;
  const wvariant *sv = shredded_of(w, i);
  if (sv) {
    const pqt_vshred_col *c = &sv->sh.cols[i - sv->sh.first_leaf];
    const pqt_schema_node *leaf = w->schema->leaves[i];
    st = pqt_column_writer_write(&w->cols[i], c->n_levels, leaf->max_def ? (const int16_t *)c->def.data : NULL,
                                 leaf->max_rep ? (const int16_t *)c->rep.data : NULL,
                                 c->vals.data ? (const void *)c->vals.data : (const void *)"",
                                 leaf->physical_type == PQT_BYTE_ARRAY ? (const int32_t *)c->offs.data : NULL,
                                 c->n_values, err);
    if (st != PQT_OK) pqt_error_prefix(err, "column %s", leaf->dotted_path);
    return st;
  }
  pqt_leaf_batch lb;
  st = pqt_import_leaf(w->schema, i, &w->fmt, batch, pos, n, sc, &lb, err);
  if (st == PQT_OK)
    st = pqt_column_writer_write(&w->cols[i], lb.n_levels, lb.def, lb.rep, lb.values, lb.offsets, lb.n_values, err);
  if (st != PQT_OK) pqt_error_prefix(err, "column %s", w->schema->leaves[i]->dotted_path);
  return st;
}

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
    for (int32_t i = 0; i < w->n_variants && st == PQT_OK; i++) st = variant_rows(w, &w->variants[i], batch, pos, n, err);
    if (st == PQT_OK && w->codecs && w->n_cols > 1) st = par_columns(w, PAR_WRITE, pos, n, batch, NULL, NULL, err);
    else
      for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) st = write_leaf(w, i, batch, pos, n, &w->sc, err);
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

/* Every chunk's ColumnIndex (column) or OffsetIndex (!column) written at
 * the sink's position, its offset and length set in the chunk's metadata. */
static pqt_status sink_page_index(pqt_writer *w, bool column, pqt_error *err) {
  for (size_t i = 0; i < w->n_refs; i++) {
    idx_ref *r = &w->refs[i];
    size_t n = column ? r->ci_len : r->oi_len;
    if (!n) continue;
    pqt_column_chunk *cc = &w->rgs[r->rg].columns.items[r->col];
    int64_t at = w->offset;
    const uint8_t *p = column ? w->ci.data + r->ci_off : w->oi.data + r->oi_off;
    size_t len = 0;
    PQT_RETURN_NOT_OK(
        sink_module(w, r->rg, r->col, column ? PQT_MODULE_COLUMN_INDEX : PQT_MODULE_OFFSET_INDEX, p, n, &len, err));
    if (column) {
      cc->column_index_offset = at;
      cc->column_index_length = (int32_t)len;
      PQT_SET_FIELD(cc, column_chunk, column_index_offset);
      PQT_SET_FIELD(cc, column_chunk, column_index_length);
    } else {
      cc->offset_index_offset = at;
      cc->offset_index_length = (int32_t)len;
      PQT_SET_FIELD(cc, column_chunk, offset_index_offset);
      PQT_SET_FIELD(cc, column_chunk, offset_index_length);
    }
  }
  return PQT_OK;
}

static pqt_status finish(pqt_writer *w, pqt_error *err) {
  PQT_RETURN_NOT_OK(flush_rg(w, err));
  /* page index: every ColumnIndex, then every OffsetIndex */
  PQT_RETURN_NOT_OK(sink_page_index(w, true, err));
  PQT_RETURN_NOT_OK(sink_page_index(w, false, err));
  /* encrypted columns: crypto metadata, and their metadata as a module where it must be */
  for (int32_t g = 0; w->crypt && g < w->n_rgs; g++)
    for (int32_t c = 0; c < w->n_cols; c++) {
      pqt_status cst = pqt_file_encryptor_column_chunk(w->crypt, g, c, &w->rgs[g].columns.items[c], &w->arena, err);
      if (cst != PQT_OK) {
        pqt_error_prefix(err, "row group %d, column %s", g, w->schema->leaves[c]->dotted_path);
        return cst;
      }
    }
  pqt_file_metadata md;
  memset(&md, 0, sizeof md);
  md.version = 1; /* parquet.thrift: writers should write 1 for the widest compatibility */
  md.schema.items = w->elems;
  md.schema.n = w->n_elems;
  md.num_rows = w->total_rows;
  md.row_groups.items = w->rgs;
  md.row_groups.n = w->n_rgs;
  md.isset = PQT_FIELD_MASK(file_metadata, version, schema, num_rows, row_groups);
  if (w->n_kv > 0) {
    md.key_value_metadata.items = w->kv;
    md.key_value_metadata.n = w->n_kv;
    PQT_SET_FIELD(&md, file_metadata, key_value_metadata);
  }
  md.created_by = cstr(w->opts.created_by ? w->opts.created_by : PQT_CREATED_BY);
  PQT_SET_FIELD(&md, file_metadata, created_by);
  if (!w->raw) {
    pqt_column_order *co = pqt_arena_array(&w->arena, (size_t)w->n_cols, sizeof *co);
    if (!co) return pqt_nomem(err);
    for (int32_t i = 0; i < w->n_cols; i++) co[i].isset = 1u << (w->col_orders ? w->col_orders[i] : PQT_ORDER_TYPE);
    md.column_orders.items = co;
    md.column_orders.n = w->n_cols;
    PQT_SET_FIELD(&md, file_metadata, column_orders);
  } else if (w->raw_orders) {
    md.column_orders.items = (pqt_column_order *)w->raw_orders;
    md.column_orders.n = w->n_raw_orders;
    PQT_SET_FIELD(&md, file_metadata, column_orders);
  }
  pqt_buf f;
  pqt_buf_init(&f, w->alloc);
  if (w->crypt) {
    pqt_status st = pqt_file_encryptor_footer(w->crypt, &md, &f, err);
    if (st == PQT_OK) st = sink(w, f.data, f.len, err);
    pqt_buf_free(&f);
    if (st == PQT_OK) st = flush_obuf(w, err);
    return st;
  }
  pqt_status st = pqt_thrift_encode(&pqt_desc_file_metadata, &md, &f, err);
  uint8_t tail[8];
  if (st == PQT_OK && f.len > UINT32_MAX) st = pqt_error_set(err, PQT_ELIMIT, "footer too large");
  if (st == PQT_OK) {
    pqt_store_u32le(tail, (uint32_t)f.len);
    memcpy(tail + 4, "PAR1", 4);  // NOLINT(bugprone-not-null-terminated-result): the 4 magic bytes, not a string
    st = sink(w, f.data, f.len, err);
  }
  if (st == PQT_OK) st = sink(w, tail, 8, err);
  pqt_buf_free(&f);
  if (st == PQT_OK) st = flush_obuf(w, err);
  return st;
}

/* ---- raw row groups (edit/: column chunks copied as they are) ----------------- */

pqt_status pqt_writer_open_raw(pqt_writer **out, const char *path, pqt_string *dst, const pqt_writer_raw *raw,
                               const pqt_reader *like, const pqt_write_options *opts, pqt_error *err) {
  if (!out || !raw || (!path && !dst) || (path && dst)) return pqt_error_set(err, PQT_EINVAL, "bad arguments");
  pqt_write_schema ws = {.struct_size = sizeof ws, .like = like};
  PQT_RETURN_NOT_OK(writer_new(out, &ws, opts, raw, err));
  if (path) return open_file_sink(out, path, err);
  (*out)->sink_kind = SINK_BUFFER;
  (*out)->dst = dst;
  pqt_status st = write_magic(*out, err);
  if (st != PQT_OK) {
    writer_free(*out);
    *out = NULL;
  }
  return st;
}

pqt_status pqt_writer_raw_bytes(pqt_writer *w, const void *p, size_t n, pqt_error *err) {
  if (!w || !w->raw || w->failed) return pqt_error_set(err, PQT_EINVAL, "not a usable raw writer");
  pqt_status st = sink(w, p, n, err);
  if (st != PQT_OK) w->failed = true;
  return st;
}

pqt_status pqt_writer_raw_row_group(pqt_writer *w, const pqt_row_group *rg, const pqt_bytes *column_index,
                                    const pqt_bytes *offset_index, pqt_error *err) {
  if (!w || !w->raw || w->failed) return pqt_error_set(err, PQT_EINVAL, "not a usable raw writer");
  if (rg->columns.n != w->n_cols)
    return pqt_error_set(err, PQT_EINVAL, "row group has %d column chunks, the schema %d columns", rg->columns.n,
                         w->n_cols);
  if (w->n_rgs == INT16_MAX) return pqt_error_set(err, PQT_ELIMIT, "too many row groups");
  if (w->n_rgs == w->cap_rgs) {
    int32_t nc = w->cap_rgs ? w->cap_rgs * 2 : 8;
    pqt_row_group *n = pqt_mem_realloc(w->alloc, w->rgs, (size_t)w->cap_rgs * sizeof *n, (size_t)nc * sizeof *n);
    if (!n) return pqt_nomem(err);
    w->rgs = n;
    w->cap_rgs = nc;
  }
  pqt_status st = PQT_OK;
  for (int32_t i = 0; i < w->n_cols && st == PQT_OK; i++) {
    if (w->n_refs == w->cap_refs) {
      size_t nc = w->cap_refs ? w->cap_refs * 2 : 64;
      idx_ref *n = pqt_mem_realloc(w->alloc, w->refs, w->cap_refs * sizeof *n, nc * sizeof *n);
      if (!n) return pqt_nomem(err);
      w->refs = n;
      w->cap_refs = nc;
    }
    idx_ref *r = &w->refs[w->n_refs++];
    *r = (idx_ref){w->n_rgs, i, w->ci.len, 0, w->oi.len, 0};
    if (column_index && column_index[i].len > 0) {
      st = pqt_buf_append(&w->ci, column_index[i].ptr, (size_t)column_index[i].len, err);
      r->ci_len = (size_t)column_index[i].len;
    }
    if (st == PQT_OK && offset_index && offset_index[i].len > 0) {
      st = pqt_buf_append(&w->oi, offset_index[i].ptr, (size_t)offset_index[i].len, err);
      r->oi_len = (size_t)offset_index[i].len;
    }
  }
  if (st != PQT_OK) {
    w->failed = true;
    return st;
  }
  pqt_row_group *out = &w->rgs[w->n_rgs];
  *out = *rg;
  out->ordinal = (int16_t)w->n_rgs;
  PQT_SET_FIELD(out, row_group, ordinal);
  w->n_rgs++;
  w->total_rows += rg->num_rows;
  return PQT_OK;
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
