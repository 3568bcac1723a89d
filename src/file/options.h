/*
 * file/options.h: the public option and result structs at the library's
 * entry points. Each entry point reads a caller's struct through one of the
 * _load functions below (core/struct_size.h: the caller's struct_size
 * bytes over this version's defaults), so the code behind it always sees
 * a whole struct of the current version.
 */
#ifndef PQT_FILE_OPTIONS_H
#define PQT_FILE_OPTIONS_H

#include "core/core.h"
#include "core/struct_size.h"

/* This version's defaults in a whole struct (kept next to the code that
 * reads each struct: reader.c, text_output.c, writer.c, salvage.c). */
void pqt_read_options_defaults(pqt_read_options *o);
void pqt_scan_options_defaults(pqt_scan_options *o);
void pqt_column_options_defaults(pqt_column_options *o);
void pqt_write_options_defaults(pqt_write_options *o);
void pqt_salvage_options_defaults(pqt_salvage_options *o);

/* A caller's struct (NULL: the defaults) as a whole current one. */
pqt_status pqt_read_options_load(pqt_read_options *dst, const pqt_read_options *src, pqt_error *err);
pqt_status pqt_scan_options_load(pqt_scan_options *dst, const pqt_scan_options *src, pqt_error *err);
pqt_status pqt_salvage_options_load(pqt_salvage_options *dst, const pqt_salvage_options *src, pqt_error *err);
/* io must not be NULL; read_at must be set. */
pqt_status pqt_io_load(pqt_io *dst, const pqt_io *src, pqt_error *err);
pqt_status pqt_write_schema_load(pqt_write_schema *dst, const pqt_write_schema *src, pqt_error *err);
/* The write options, with `defaults` read by its own struct_size. dst->columns
 * still points at the caller's overrides: pqt_column_overrides_load reads them. */
pqt_status pqt_write_options_load(pqt_write_options *dst, const pqt_write_options *src, pqt_error *err);
/* The caller's n overrides (whose element size follows the first one's
 * options.struct_size) as current ones in the arena; *out NULL when n is 0. */
pqt_status pqt_column_overrides_load(pqt_arena *arena, const pqt_column_override *src, int32_t n,
                                     pqt_column_override **out, pqt_error *err);

#endif /* PQT_FILE_OPTIONS_H */
