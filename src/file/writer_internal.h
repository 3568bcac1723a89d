/* file/writer_internal.h: shared by the file/writer*.c modules (spec: parquet-format README.md "File format",
 * "Metadata"). */
#ifndef PQT_FILE_WRITER_INTERNAL_H
#define PQT_FILE_WRITER_INTERNAL_H

#include "core/core.h"
#include "file/reader_internal.h"
#include "parquetry_arrow.h"
#include "thrift/parquet_types.h"

/* The schema as a SchemaElement list (root first) in arena, from exactly
 * one source of ws. opts (may be NULL): compat (PQT_COMPAT_*) and
 * variant_shredding for Arrow schemas. */
pqt_status pqt_writer_schema_elements(pqt_arena *arena, const pqt_write_schema *ws, const pqt_write_options *opts,
                                      pqt_schema_element **out, int32_t *n_out, pqt_error *err);

/* The writer's schema tree and allocator (for pqt_salvage). */
const pqt_schema *pqt_writer_schema(const pqt_writer *w);
const pqt_allocator *pqt_writer_allocator(const pqt_writer *w);

/*
 * Raw writing (edit/: concat, prune): column chunks whose bytes exist
 * already. The schema is `elems` exactly as given (no normalisation);
 * like (may be NULL) supplies the file's key-value metadata as
 * pqt_write_options.like_key_value says. The page index and the footer are
 * written at close as for any writer. elems, column_orders and everything
 * a row group points to are borrowed until the writer is closed.
 */
typedef struct pqt_writer_raw {
  const pqt_schema_element *elems;
  int32_t n_elems;
  const pqt_column_order *column_orders; /* NULL: the footer has none */
  int32_t n_column_orders;
} pqt_writer_raw;

/* Exactly one of path (temporary file renamed at close) and dst. */
pqt_status pqt_writer_open_raw(pqt_writer **out, const char *path, pqt_string *dst, const pqt_writer_raw *raw,
                               const pqt_reader *like, const pqt_write_options *opts, pqt_error *err);
/* Append bytes (column chunks, Bloom filters); pqt_writer_bytes_written
 * tells where the next byte goes. */
pqt_status pqt_writer_raw_bytes(pqt_writer *w, const void *p, size_t n, pqt_error *err);
/* Add a row group whose chunks were written: its ColumnChunks' offsets are
 * final; column_index/offset_index (one per column, len 0: none; copied)
 * are written after the row groups and their offsets set there. The
 * ordinal is set here. */
pqt_status pqt_writer_raw_row_group(pqt_writer *w, const pqt_row_group *rg, const pqt_bytes *column_index,
                                    const pqt_bytes *offset_index, pqt_error *err);

#endif
