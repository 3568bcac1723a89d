/*
 * file/reader.c: opening a file: the footer is located from the last 8
 * bytes, its metadata read (borrowed from the source when it can lend
 * bytes, copied otherwise), decoded, and the schema tree built. Every size
 * read from the file is checked before it is used.
 */
#include "file/reader_internal.h"

#include "file/options.h"
#include "io/http.h"

/* pqt_read_options.footer_read_bytes: its default, and the most read at once */
#define PQT_FOOTER_READ_DEFAULT ((uint64_t)64 << 10)
#define PQT_FOOTER_READ_MAX ((uint64_t)64 << 20)

#include "io/source.h"
#include "page/page_reader.h"

#include "arrow/arrow_schema_ipc.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

void pqt_read_options_defaults(pqt_read_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->verify_checksums = 1;
  o->validate_utf8 = 1;
  o->max_footer_bytes = (uint64_t)256 << 20;
  o->max_nesting_depth = 256;
  o->buffer_cache_bytes = (uint64_t)512 << 20;
  o->verify_footer_signature = 1;
  pqt_page_reader_options po;
  pqt_page_reader_options_init(&po);
  o->max_page_expansion = po.max_expansion;
  o->page_expansion_floor = po.expansion_floor;
  o->max_page_bytes = po.max_page_bytes;
}

void pqt_reader_page_options(const pqt_reader *r, pqt_page_reader_options *po) {
  pqt_page_reader_options_init(po);
  po->verify_crc = r->opts.verify_checksums != 0;
  if (r->opts.max_page_expansion) po->max_expansion = r->opts.max_page_expansion;
  if (r->opts.page_expansion_floor)
    po->expansion_floor =
        r->opts.page_expansion_floor > UINT32_MAX ? UINT32_MAX : (uint32_t)r->opts.page_expansion_floor;
  if (r->opts.max_page_bytes) po->max_page_bytes = r->opts.max_page_bytes;
  po->source = pqt_io_keeper(&r->user_io); /* a mapped file: views point into it */
}

PQT_API void pqt_string_free(pqt_string *s) {
  if (!s || !s->data) return;
  pqt_mem_free(s->alloc, s->data, s->cap);
  s->data = NULL;
  s->len = s->cap = 0;
}

static void reader_free(pqt_reader *r) {
  if (r->codec_ctx) pqt_codec_ctx_destroy(r->codec_ctx);
  if (r->pool && !r->opts.buffer_pool) pqt_pool_close(r->pool); /* freed once every exported buffer is released */
  pqt_file_decryptor_wipe(r->crypto);
  pqt_arena_reset(&r->arena);
  if (r->footer_copy) pqt_mem_free(r->alloc, r->footer_copy, r->footer_len);
  if (r->path) pqt_mem_free(r->alloc, r->path, strlen(r->path) + 1);
  if (r->url) pqt_mem_free(r->alloc, r->url, strlen(r->url) + 1);
  if (r->remote) pqt_mem_free(r->alloc, r->remote, sizeof *r->remote);
  if (r->remote_strings) { /* credentials */
    volatile char *v = r->remote_strings;
    for (size_t i = 0; i < r->remote_strings_len; i++) v[i] = 0;
    pqt_mem_free(r->alloc, r->remote_strings, r->remote_strings_len);
  }
  pqt_mem_free(r->alloc, r, sizeof *r);
}

/* Attach the fields of ARROW:schema to the schema nodes they describe. */
static void match_arrow(pqt_schema_node *x, const pqt_arrow_field *af, int depth) {
  if (!x || !af || depth > 64) return;
  x->arrow_hint = af;
  if (x->is_leaf) return;
  if (x->kind == PQT_NODE_STRUCT && x->repetition != PQT_REPEATED && strcmp(af->format, "+s") == 0) {
    for (int32_t i = 0; i < x->n_children; i++)
      for (int32_t k = 0; k < af->n_children; k++)
        if (strcmp(x->children[i]->name, af->children[k].name) == 0) {
          match_arrow(x->children[i], &af->children[k], depth + 1);
          break;
        }
  } else if (x->kind == PQT_NODE_LIST && af->n_children == 1 && x->element && x->element != x->repeated) {
    match_arrow(x->element, &af->children[0], depth + 1);
  } else if (x->kind == PQT_NODE_MAP && af->n_children == 1 && af->children[0].n_children == 2) {
    match_arrow(x->key, &af->children[0].children[0], depth + 1);
    match_arrow(x->value, &af->children[0].children[1], depth + 1);
  }
}

static void apply_arrow_schema(pqt_reader *r) {
  for (int32_t i = 0; i < r->md.key_value_metadata.n; i++) {
    const pqt_key_value *kv = &r->md.key_value_metadata.items[i];
    if (kv->key.len != 12 || memcmp(kv->key.ptr, "ARROW:schema", 12) != 0 || !PQT_HAS_FIELD(kv, key_value, value))
      continue;
    pqt_arrow_field *fields = NULL;
    int32_t n = 0;
    /* best effort: a schema we cannot read leaves the Parquet mapping alone */
    if (pqt_arrow_schema_decode((const char *)kv->value.ptr, (size_t)kv->value.len, &r->arena, &fields, &n, NULL) !=
        PQT_OK)
      return;
    pqt_schema_node *root = r->schema->root;
    for (int32_t c = 0; c < root->n_children; c++)
      for (int32_t k = 0; k < n; k++)
        if (strcmp(root->children[c]->name, fields[k].name) == 0) {
          match_arrow(root->children[c], &fields[k], 0);
          break;
        }
    return;
  }
}

/* The reader reads through these: the caller's read_at/borrow_at get a
 * pqt_error of ours, so a source that fails without filling it in (or
 * fills it in part) still leaves a complete error for the caller. */
/* rs[0..n) and the header magic in one batch (a remote file whose magic
 * was not read at open: the coalescer merges it with a range at offset 4,
 * else it travels with the batch), then the magic checked once. */
static pqt_status read_with_head(pqt_reader *r, const pqt_io_range *rs, size_t n, pqt_error *err) {
  const pqt_io *io = &r->user_io;
  uint8_t head[4];
  pqt_io_range *all = pqt_mem_alloc(r->alloc, sizeof *all * (n + 1));
  if (!all) return pqt_nomem(err);
  all[0] = (pqt_io_range){0, 4, head};
  if (n) memcpy(all + 1, rs, sizeof *all * n);
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = io->read_ranges(io->private_data, all, n + 1, &e);
  pqt_mem_free(r->alloc, all, sizeof *all * (n + 1));
  if (st != PQT_OK) return pqt_error_from_callback(err, st, &e, "read");
  if (atomic_exchange(&r->head_pending, 0)) {
    pqt_footer_location loc;
    st = pqt_footer_locate(head, r->tail8, io->size, &loc, err);
    if (st != PQT_OK) {
      atomic_store(&r->head_pending, 1); /* every later read fails the same way */
      if (r->url) pqt_error_prefix(err, "%s", r->url);
    }
  }
  return st;
}

static pqt_status guarded_read_at(void *pd, uint64_t offset, void *dst, size_t n, pqt_error *err) {
  pqt_reader *r = pd;
  if (atomic_load(&r->head_pending)) {
    pqt_io_range one = {offset, n, dst};
    return read_with_head(r, &one, 1, err);
  }
  const pqt_io *io = &((pqt_reader *)pd)->user_io;
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = io->read_at(io->private_data, offset, dst, n, &e);
  return st == PQT_OK ? PQT_OK : pqt_error_from_callback(err, st, &e, "read");
}

static pqt_status guarded_borrow_at(void *pd, uint64_t offset, size_t n, const uint8_t **out, pqt_error *err) {
  const pqt_io *io = &((pqt_reader *)pd)->user_io;
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = io->borrow_at(io->private_data, offset, n, out, &e);
  return st == PQT_OK ? PQT_OK : pqt_error_from_callback(err, st, &e, "read");
}

static pqt_status guarded_read_ranges(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  if (atomic_load(&((pqt_reader *)pd)->head_pending)) return read_with_head(pd, rs, n, err);
  const pqt_io *io = &((pqt_reader *)pd)->user_io;
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = io->read_ranges(io->private_data, rs, n, &e);
  return st == PQT_OK ? PQT_OK : pqt_error_from_callback(err, st, &e, "read");
}

static pqt_status guarded_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  pqt_reader *r = pd;
  const pqt_io *io = &r->user_io;
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st;
  if (atomic_load(&r->head_pending)) { /* the magic comes with the hinted ranges */
    pqt_io_range *all = pqt_mem_alloc(r->alloc, sizeof *all * (n + 1));
    if (!all) return pqt_nomem(err);
    all[0] = (pqt_io_range){0, 4, NULL};
    if (n) memcpy(all + 1, rs, sizeof *all * n);
    st = io->will_need(io->private_data, all, n + 1, &e);
    pqt_mem_free(r->alloc, all, sizeof *all * (n + 1));
  } else {
    st = io->will_need(io->private_data, rs, n, &e);
  }
  return st == PQT_OK ? PQT_OK : pqt_error_from_callback(err, st, &e, "read");
}

PQT_API pqt_status pqt_reader_open(pqt_reader **out, pqt_io *io, const pqt_read_options *opts, pqt_error *err) {
  if (!out || !io) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_open: bad arguments");
  *out = NULL;
  pqt_read_options given;
  pqt_io src;
  PQT_RETURN_NOT_OK(pqt_read_options_load(&given, opts, err));
  PQT_RETURN_NOT_OK(pqt_io_load(&src, io, err));
  if (given.max_nesting_depth == 0) given.max_nesting_depth = PQT_SCHEMA_MAX_DEPTH;
  if (given.max_nesting_depth < 1 || given.max_nesting_depth > PQT_SCHEMA_MAX_DEPTH)
    return pqt_error_set(err, PQT_EINVAL, "pqt_read_options.max_nesting_depth is %d: it must be 1 to %d",
                         (int)given.max_nesting_depth, PQT_SCHEMA_MAX_DEPTH);
  if (given.int96_unit < PQT_INT96_NANOS || given.int96_unit > PQT_INT96_SECONDS)
    return pqt_error_set(err, PQT_EINVAL, "pqt_read_options.int96_unit is %d: it must be a pqt_int96_unit",
                         (int)given.int96_unit);
  opts = &given;
  io = &src;
  const pqt_allocator *alloc = pqt_alloc_or_default(opts->alloc);
  pqt_reader *r = pqt_mem_calloc(alloc, sizeof *r);
  if (!r) return pqt_nomem(err);
  atomic_init(&r->refs, 1);
  r->alloc = alloc;
  r->opts = *opts;
  r->opts.alloc = alloc;
  pqt_arena_init(&r->arena, alloc);
  r->user_io = *io;
  r->io = (pqt_io){.struct_size = sizeof(pqt_io),
                   .read_at = guarded_read_at,
                   .borrow_at = io->borrow_at ? guarded_borrow_at : NULL,
                   .size = io->size,
                   .private_data = r,
                   .read_ranges = io->read_ranges ? guarded_read_ranges : NULL,
                   .will_need = io->will_need ? guarded_will_need : NULL};
  io = &r->io;

  pqt_status st;
  uint8_t head[4], tail[PQT_FOOTER_TAIL_BYTES];
  pqt_footer_location loc;
  if (io->size < 12) {
    st = pqt_footer_locate(NULL, tail, io->size, &loc, err);
    goto fail;
  }
  /* One batch: the magic at the start and a speculative tail (footer_read_bytes,
   * default 64 KiB) that holds the whole footer when it is small. A source
   * that lends its bytes (memory, mmap) needs only the last 8. */
  uint64_t spec = r->opts.footer_read_bytes ? r->opts.footer_read_bytes : PQT_FOOTER_READ_DEFAULT;
  if (io->borrow_at || spec < 8) spec = 8;
  if (spec > io->size - 4) spec = io->size - 4;
  if (spec > PQT_FOOTER_READ_MAX) spec = PQT_FOOTER_READ_MAX;
  uint8_t *spec_buf = pqt_mem_alloc(alloc, (size_t)spec);
  if (!spec_buf) {
    st = pqt_nomem(err);
    goto fail;
  }
  /* A remote source whose first round trip (its speculative tail) did not
   * bring the header magic: the magic is read with the first batch of data
   * ranges instead of a request of its own, and checked then (a file
   * without it fails at its first data read, naming the URL). A reader
   * that reads no data (footer only) does not check it. */
  bool defer_head = pqt_io_is_remote(&r->user_io) && r->user_io.read_ranges && r->user_io.will_need &&
                    !pqt_io_remote_holds(&r->user_io, 0, 4);
  pqt_io_range first[2] = {{0, 4, head}, {io->size - spec, spec, spec_buf}};
  st = pqt_io_read_ranges(io, defer_head ? first + 1 : first, defer_head ? 1 : 2, err);
  if (st == PQT_OK) {
    memcpy(tail, spec_buf + spec - 8, 8);
    memcpy(r->tail8, tail, 8);
    st = pqt_footer_locate(defer_head ? NULL : head, tail, io->size, &loc, err);
  }
  if (st == PQT_OK && defer_head) atomic_store(&r->head_pending, 1);
  if (st == PQT_OK && loc.metadata_len > r->opts.max_footer_bytes)
    st = pqt_error_set(err, PQT_ELIMIT, "footer of %u bytes exceeds the limit of %llu bytes", loc.metadata_len,
                       (unsigned long long)r->opts.max_footer_bytes);
  if (st == PQT_OK) {
    r->footer_len = loc.metadata_len;
    if (io->borrow_at) {
      st = io->borrow_at(io->private_data, loc.metadata_offset, loc.metadata_len, &r->footer, err);
    } else if (!(r->footer_copy = pqt_mem_alloc(alloc, loc.metadata_len))) {
      st = pqt_nomem(err);
    } else {
      r->footer = r->footer_copy;
      if ((uint64_t)loc.metadata_len + 8 <= spec) /* the footer came with the tail */
        memcpy(r->footer_copy, spec_buf + (spec - 8 - loc.metadata_len), loc.metadata_len);
      else
        st = io->read_at(io->private_data, loc.metadata_offset, r->footer_copy, loc.metadata_len, err);
    }
  }
  pqt_mem_free(alloc, spec_buf, (size_t)spec);
  if (st != PQT_OK) goto fail;
  if (loc.encrypted_footer) {
    /* FileCryptoMetaData + the footer as a GCM module: decrypted into the arena */
    const uint8_t *plain;
    size_t plain_len;
    st = pqt_file_decryptor_open_encrypted(&r->crypto, &r->opts, r->footer, r->footer_len, &r->arena, &plain,
                                           &plain_len, err);
    if (st != PQT_OK) goto fail;
    if ((st = pqt_footer_decode(plain, plain_len, &r->arena, &r->md, err)) != PQT_OK) goto fail;
  } else {
    if ((st = pqt_footer_decode(r->footer, r->footer_len, &r->arena, &r->md, err)) != PQT_OK) goto fail;
    if (PQT_HAS_FIELD(&r->md, file_metadata, encryption_algorithm) &&
        (st = pqt_file_decryptor_open_plaintext(&r->crypto, &r->opts, &r->md, r->footer, r->footer_len, &r->arena,
                                                err)) != PQT_OK)
      goto fail;
  }
  if ((st = pqt_schema_build_limited(r->md.schema.items, r->md.schema.n, r->opts.max_nesting_depth, &r->arena,
                                     &r->schema, err)) != PQT_OK) {
    pqt_error_prefix(err, "schema");
    goto fail;
  }
  for (int32_t i = 0; i < r->md.row_groups.n; i++) {
    const pqt_row_group *rg = &r->md.row_groups.items[i];
    if (rg->columns.n != r->schema->n_leaves) {
      st = pqt_corrupt(err, "row group %d has %d column chunks but the schema has %d leaf columns", i, rg->columns.n,
                       r->schema->n_leaves);
      if (err) err->row_group = i;
      goto fail;
    }
  }
  /* a key for a column the file does not have is a mistake, not a no-op */
  for (int32_t k = 0; k < r->opts.n_column_keys && r->opts.column_keys; k++) {
    const char *want = r->opts.column_keys[k].path;
    bool found = false;
    for (int32_t i = 0; i < r->schema->n_leaves && !found && want; i++)
      found = strcmp(r->schema->leaves[i]->dotted_path, want) == 0;
    if (!found) {
      st = pqt_error_set(err, PQT_EINVAL, "a column key was given for '%s', a column this file does not have",
                         want ? want : "(null)");
      goto fail;
    }
  }
  if (r->crypto) {
    const char **paths =
        pqt_arena_array(&r->arena, (size_t)(r->schema->n_leaves ? r->schema->n_leaves : 1), sizeof *paths);
    if (!paths) {
      st = pqt_nomem(err);
      goto fail;
    }
    for (int32_t i = 0; i < r->schema->n_leaves; i++) paths[i] = r->schema->leaves[i]->dotted_path;
    st = pqt_file_decryptor_column_metadata(r->crypto, &r->md, paths, r->schema->n_leaves, &r->arena, err);
    if (st != PQT_OK) goto fail;
  }
  apply_arrow_schema(r);
  if (r->opts.int96_as_fixed)
    for (int32_t i = 0; i < r->schema->n_leaves; i++)
      if (r->schema->leaves[i]->physical_type == PQT_INT96) r->schema->leaves[i]->int96_raw = true;
  if (!r->opts.variant_shredded)
    for (int32_t i = 0; i < r->schema->n_nodes; i++)
      if (pqt_union_which(r->schema->nodes[i].logical.isset) == PQT_LT_VARIANT && !r->schema->nodes[i].is_leaf)
        r->schema->nodes[i].variant_rebuild = true;
  for (int32_t i = 0; i < r->schema->n_leaves; i++)
    if (r->schema->leaves[i]->physical_type == PQT_INT96) r->schema->leaves[i]->int96_unit = (int8_t)r->opts.int96_unit;
  /* created_by is a view into the footer: keep a NUL-terminated copy. */
  r->created_by = "";
  if (PQT_HAS_FIELD(&r->md, file_metadata, created_by)) {
    r->created_by = pqt_arena_strdup(&r->arena, (const char *)r->md.created_by.ptr, (size_t)r->md.created_by.len);
    if (!r->created_by) {
      st = pqt_nomem(err);
      goto fail;
    }
  }
  if (r->opts.buffer_pool) {
    r->pool = r->opts.buffer_pool;
  } else {
    if ((st = pqt_pool_create(&r->pool, alloc, (size_t)r->opts.buffer_cache_bytes, err)) != PQT_OK) goto fail;
    if (r->opts.max_memory) pqt_pool_set_limit(r->pool, (size_t)r->opts.max_memory);
  }
  r->data_alloc = pqt_pool_allocator(r->pool);
  if ((st = pqt_codec_ctx_create(&r->codec_ctx, r->data_alloc, err)) != PQT_OK) {
    if (st == PQT_ENOMEM && pqt_pool_take_limit_hit(r->pool))
      st = pqt_error_set(err, PQT_ELIMIT, "the memory ceiling of %llu bytes (max_memory) would be exceeded",
                         (unsigned long long)r->opts.max_memory);
    goto fail;
  }
  *out = r;
  return PQT_OK;
fail:
  reader_free(r);
  return st;
}

PQT_API pqt_status pqt_reader_open_file(pqt_reader **out, const char *path, const pqt_read_options *opts,
                                        pqt_error *err) {
  pqt_read_options o;
  PQT_RETURN_NOT_OK(pqt_read_options_load(&o, opts, err));
  pqt_io io;
  pqt_io_init(&io);
  PQT_RETURN_NOT_OK(pqt_io_open_file(&io, path, o.alloc, err));
  pqt_status st = pqt_reader_open(out, &io, opts, err);
  if (st != PQT_OK) {
    io.release(io.private_data);
    return st;
  }
  size_t n = strlen(path) + 1; /* kept for column chunks in other files (ColumnChunk.file_path) */
  (*out)->path = pqt_mem_alloc((*out)->alloc, n);
  if (!(*out)->path) {
    pqt_reader_close(*out);
    *out = NULL;
    return pqt_nomem(err);
  }
  memcpy((*out)->path, path, n);
  return PQT_OK;
}

PQT_API pqt_status pqt_reader_open_buffer(pqt_reader **out, const void *data, size_t len, const pqt_read_options *opts,
                                          pqt_error *err) {
  pqt_read_options o;
  PQT_RETURN_NOT_OK(pqt_read_options_load(&o, opts, err));
  pqt_io io;
  pqt_io_init(&io);
  PQT_RETURN_NOT_OK(pqt_io_from_buffer(&io, data, len, o.alloc, err));
  pqt_status st = pqt_reader_open(out, &io, opts, err);
  if (st != PQT_OK) io.release(io.private_data);
  return st;
}

void pqt_reader_ref(pqt_reader *r) { atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed); }

void pqt_reader_unref(pqt_reader *r) {
  if (!r || atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1) return;
  pqt_io io = r->user_io;
  reader_free(r);
  if (io.release) io.release(io.private_data);
}

/* Drops the caller's reference: streams and column readers still open keep
 * the state (and the io) until they are released. */
PQT_API void pqt_reader_close(pqt_reader *r) { pqt_reader_unref(r); }

PQT_API int64_t pqt_reader_num_rows(const pqt_reader *r) { return r->md.num_rows; }
PQT_API int32_t pqt_reader_num_row_groups(const pqt_reader *r) { return r->md.row_groups.n; }
PQT_API int64_t pqt_reader_row_group_num_rows(const pqt_reader *r, int32_t g) {
  return g >= 0 && g < r->md.row_groups.n ? r->md.row_groups.items[g].num_rows : -1;
}
PQT_API int32_t pqt_reader_num_columns(const pqt_reader *r) { return r->schema->n_leaves; }
PQT_API int64_t pqt_reader_uncompressed_bytes(const pqt_reader *r) {
  int64_t total = 0;
  for (int32_t g = 0; g < r->md.row_groups.n; g++) {
    const pqt_row_group *rg = &r->md.row_groups.items[g];
    for (int32_t c = 0; c < rg->columns.n; c++)
      if (PQT_HAS_FIELD(&rg->columns.items[c], column_chunk, meta_data)) {
        /* sizes come from the file: saturate rather than overflow */
        int64_t v = rg->columns.items[c].meta_data.total_uncompressed_size;
        if (v > 0) total = v > INT64_MAX - total ? INT64_MAX : total + v;
      }
  }
  return total;
}

PQT_API const char *pqt_reader_created_by(const pqt_reader *r) { return r->created_by; }

PQT_API pqt_status pqt_reader_schema_text(const pqt_reader *r, pqt_string *out, pqt_error *err) {
  if (!r || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_schema_text: bad arguments");
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  pqt_status st = pqt_schema_to_text(r->schema, &b, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return pqt_buf_to_string(&b, out, err);
}
