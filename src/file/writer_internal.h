/* file/writer_internal.h: shared by the file/writer*.c modules (spec: parquet-format README.md "File format",
 * "Metadata"). */
#ifndef PQT_FILE_WRITER_INTERNAL_H
#define PQT_FILE_WRITER_INTERNAL_H

#include "core/core.h"
#include "file/reader_internal.h"
#include "parquetry_arrow.h"
#include "thrift/parquet_types.h"

/* The schema as a SchemaElement list (root first) in arena, from exactly
 * one source of ws. compat: PQT_COMPAT_* for Arrow schemas. */
pqt_status pqt_writer_schema_elements(pqt_arena *arena, const pqt_write_schema *ws, int32_t compat,
                                      pqt_schema_element **out, int32_t *n_out, pqt_error *err);

/* The writer's schema tree and allocator (for pqt_salvage). */
const pqt_schema *pqt_writer_schema(const pqt_writer *w);
const pqt_allocator *pqt_writer_allocator(const pqt_writer *w);

#endif
