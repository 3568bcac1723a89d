/*
 * file/reader.c: opening a file: the footer is located from the last 8
 * bytes, its metadata read (borrowed from the source when it can lend
 * bytes, copied otherwise), decoded, and the schema tree built. Every size
 * read from the file is checked before it is used.
 */
#include "file/reader_internal.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

PQT_API void pqt_read_options_init(pqt_read_options *o) {
  memset(o, 0, sizeof *o);
  o->verify_checksums = 1;
  o->validate_utf8 = 1;
  o->max_footer_bytes = (uint64_t)256 << 20;
  o->max_nesting_depth = 256;
}

PQT_API void pqt_string_free(pqt_string *s) {
  if (!s || !s->data) return;
  pqt_mem_free(s->alloc, s->data, s->cap);
  s->data = NULL;
  s->len = s->cap = 0;
}

/* Hand a pqt_buf's bytes over to a caller's pqt_string (NUL-terminated). */
static pqt_status buf_to_string(pqt_buf *b, pqt_string *out, pqt_error *err) {
  pqt_status st = pqt_buf_append(b, "", 1, err);
  if (st != PQT_OK) {
    pqt_buf_free(b);
    return st;
  }
  out->data = (char *)b->data;
  out->len = b->len - 1;
  out->cap = b->cap;
  out->alloc = b->alloc;
  return PQT_OK;
}

static void reader_free(pqt_reader *r) {
  if (r->codec_ctx) pqt_codec_ctx_destroy(r->codec_ctx);
  pqt_arena_reset(&r->arena);
  if (r->footer_copy) pqt_mem_free(r->alloc, r->footer_copy, r->footer_len);
  pqt_mem_free(r->alloc, r, sizeof *r);
}

PQT_API pqt_status pqt_reader_open(pqt_reader **out, pqt_io *io, const pqt_read_options *opts,
                                   pqt_error *err) {
  if (!out || !io || !io->read_at) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_open: bad arguments");
  *out = NULL;
  pqt_read_options defaults;
  if (!opts) {
    pqt_read_options_init(&defaults);
    opts = &defaults;
  }
  const pqt_allocator *alloc = pqt_alloc_or_default(opts->alloc);
  pqt_reader *r = pqt_mem_calloc(alloc, sizeof *r);
  if (!r) return pqt_nomem(err);
  r->alloc = alloc;
  r->opts = *opts;
  r->opts.alloc = alloc;
  pqt_arena_init(&r->arena, alloc);

  pqt_status st;
  uint8_t head[4], tail[PQT_FOOTER_TAIL_BYTES];
  pqt_footer_location loc;
  if (io->size < 12) {
    st = pqt_footer_locate(NULL, tail, io->size, &loc, err);
    goto fail;
  }
  if ((st = io->read_at(io->private_data, 0, head, 4, err)) != PQT_OK) goto fail;
  if ((st = io->read_at(io->private_data, io->size - 8, tail, 8, err)) != PQT_OK) goto fail;
  if ((st = pqt_footer_locate(head, tail, io->size, &loc, err)) != PQT_OK) goto fail;
  if (loc.encrypted_footer) {
    st = pqt_error_set(err, PQT_ECRYPTO, "encrypted footer (PARE): a key is needed to read this file");
    goto fail;
  }
  if (loc.metadata_len > r->opts.max_footer_bytes) {
    st = pqt_error_set(err, PQT_ELIMIT, "footer of %u bytes exceeds the limit of %llu bytes", loc.metadata_len,
                       (unsigned long long)r->opts.max_footer_bytes);
    goto fail;
  }
  r->footer_len = loc.metadata_len;
  if (io->borrow_at) {
    st = io->borrow_at(io->private_data, loc.metadata_offset, loc.metadata_len, &r->footer, err);
  } else {
    r->footer_copy = pqt_mem_alloc(alloc, loc.metadata_len);
    if (!r->footer_copy) {
      st = pqt_nomem(err);
      goto fail;
    }
    st = io->read_at(io->private_data, loc.metadata_offset, r->footer_copy, loc.metadata_len, err);
    r->footer = r->footer_copy;
  }
  if (st != PQT_OK) goto fail;
  if ((st = pqt_footer_decode(r->footer, r->footer_len, &r->arena, &r->md, err)) != PQT_OK) goto fail;
  if ((st = pqt_schema_build(r->md.schema.items, r->md.schema.n, &r->arena, &r->schema, err)) != PQT_OK) {
    pqt_error_prefix(err, "schema");
    goto fail;
  }
  for (int32_t i = 0; i < r->md.row_groups.n; i++) {
    const pqt_row_group *rg = &r->md.row_groups.items[i];
    if (rg->columns.n != r->schema->n_leaves) {
      st = pqt_corrupt(err, "row group %d has %d column chunks but the schema has %d leaf columns", i,
                       rg->columns.n, r->schema->n_leaves);
      if (err) err->row_group = i;
      goto fail;
    }
  }
  /* created_by is a view into the footer: keep a NUL-terminated copy. */
  r->created_by = "";
  if (PQT_HAS(&r->md, 6)) {
    r->created_by = pqt_arena_strdup(&r->arena, (const char *)r->md.created_by.ptr, (size_t)r->md.created_by.len);
    if (!r->created_by) {
      st = pqt_nomem(err);
      goto fail;
    }
  }
  if ((st = pqt_codec_ctx_create(&r->codec_ctx, alloc, err)) != PQT_OK) goto fail;
  r->io = *io;
  *out = r;
  return PQT_OK;
fail:
  reader_free(r);
  return st;
}

PQT_API pqt_status pqt_reader_open_file(pqt_reader **out, const char *path, const pqt_read_options *opts,
                                        pqt_error *err) {
  pqt_io io;
  PQT_RETURN_NOT_OK(pqt_io_open_file(&io, path, opts ? opts->alloc : NULL, err));
  pqt_status st = pqt_reader_open(out, &io, opts, err);
  if (st != PQT_OK) io.release(io.private_data);
  return st;
}

PQT_API pqt_status pqt_reader_open_buffer(pqt_reader **out, const void *data, size_t len,
                                          const pqt_read_options *opts, pqt_error *err) {
  pqt_io io;
  PQT_RETURN_NOT_OK(pqt_io_from_buffer(&io, data, len, opts ? opts->alloc : NULL, err));
  pqt_status st = pqt_reader_open(out, &io, opts, err);
  if (st != PQT_OK) io.release(io.private_data);
  return st;
}

PQT_API void pqt_reader_close(pqt_reader *r) {
  if (!r) return;
  pqt_io io = r->io;
  reader_free(r);
  if (io.release) io.release(io.private_data);
}

PQT_API int64_t pqt_reader_num_rows(const pqt_reader *r) { return r->md.num_rows; }
PQT_API int32_t pqt_reader_num_row_groups(const pqt_reader *r) { return r->md.row_groups.n; }
PQT_API int32_t pqt_reader_num_columns(const pqt_reader *r) { return r->schema->n_leaves; }
PQT_API int64_t pqt_reader_uncompressed_bytes(const pqt_reader *r) {
  int64_t total = 0;
  for (int32_t g = 0; g < r->md.row_groups.n; g++) {
    const pqt_row_group *rg = &r->md.row_groups.items[g];
    for (int32_t c = 0; c < rg->columns.n; c++)
      if (PQT_HAS(&rg->columns.items[c], 3)) {
        /* sizes come from the file: saturate rather than overflow */
        int64_t v = rg->columns.items[c].meta_data.total_uncompressed_size;
        if (v > 0) total = v > INT64_MAX - total ? INT64_MAX : total + v;
      }
  }
  return total;
}

PQT_API const char *pqt_reader_created_by(const pqt_reader *r) { return r->created_by; }

PQT_API pqt_status pqt_reader_schema_text(const pqt_reader *r, pqt_string *out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  pqt_status st = pqt_schema_to_text(r->schema, &b, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return buf_to_string(&b, out, err);
}

PQT_API pqt_status pqt_reader_metadata_json(const pqt_reader *r, int indent, pqt_string *out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  pqt_status st = pqt_thrift_to_json(&pqt_desc_file_metadata, &r->md, indent, &b, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return buf_to_string(&b, out, err);
}

PQT_API pqt_status pqt_reader_metadata_summary(const pqt_reader *r, pqt_string *out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, r->alloc);
  /* The summary's appends do not all check their status; any failure is
   * recorded in the error, so a local one tells whether the text is whole. */
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_reader_summary_append(r, &b, &e);
  if (st == PQT_OK && e.code != PQT_OK) st = e.code;
  if (st != PQT_OK && err) *err = e;
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return buf_to_string(&b, out, err);
}
