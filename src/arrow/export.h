/*
 * arrow/export.h: the Parquet -> Arrow type mapping and the export of array
 * trees through the Arrow C Data Interface.
 *
 * Mapping (as Arrow C++'s Parquet reader does by default):
 *   BOOLEAN -> bool; INT32 -> int32, INT(8/16/32, signed/unsigned) ->
 *   int8/16/32 / uint8/16/32, DATE -> date32, TIME(MILLIS) -> time32[ms],
 *   DECIMAL -> decimal128 (decimal256 above precision 38); INT64 -> int64,
 *   INT(64,false) -> uint64, TIME(MICROS|NANOS) -> time64, TIMESTAMP(unit,
 *   utc) -> timestamp[unit] with time zone "UTC" when adjusted; INT96 ->
 *   timestamp[ns]; FLOAT/DOUBLE -> float32/float64; BYTE_ARRAY: STRING,
 *   ENUM, JSON -> utf8, otherwise binary; FIXED_LEN_BYTE_ARRAY(n) ->
 *   fixed_size_binary(n), FLOAT16 -> float16; UNKNOWN -> null; group ->
 *   struct; LIST -> list; MAP -> map (a map without values -> list of
 *   struct<key>).
 */
#ifndef PQT_ARROW_EXPORT_H
#define PQT_ARROW_EXPORT_H

#include "arrow/array.h"
#include "parquetry_arrow.h"

/* Convert the leaves of a tree, in place, to the Arrow layout of their
 * mapped type (widening decimals, narrowing small integers, INT96 to
 * nanoseconds). Leaves whose layout already matches are untouched. */
pqt_status pqt_array_to_arrow_layout(const pqt_allocator *alloc, pqt_array *a, pqt_error *err);

/* Export the schema of the projected top-level fields of a schema tree as
 * a struct (record batch) schema. selected: per leaf, NULL = all. */
pqt_status pqt_export_schema(const pqt_schema *s, const uint8_t *selected, struct ArrowSchema *out, pqt_error *err);
/* Set the field metadata (Arrow's binary key-value form, copied) of a schema node made by pqt_export_schema. */
pqt_status pqt_export_schema_set_metadata(struct ArrowSchema *s, const char *md, size_t len, pqt_error *err);
/* Append to out the field metadata of an Arrow extension type, in Arrow's
 * binary key-value form (int32 count, then int32-length-prefixed keys and
 * values): ARROW:extension:name = ext_name and ARROW:extension:metadata =
 * ext_meta[0..ext_meta_len) (may be empty). */
pqt_status pqt_export_extension_metadata(pqt_buf *out, const char *ext_name, const char *ext_meta, size_t ext_meta_len,
                                         pqt_error *err);

/* Arrow output options (pqt_arrow_output bits, parquetry.h): does this
 * leaf go out as a dictionary array / in the view layout? The schema export
 * and the arrays (pqt_array_apply_output) ask the same questions. */
bool pqt_export_leaf_dictionary(const pqt_schema_node *leaf, uint64_t arrow_output);
bool pqt_export_leaf_view(const pqt_schema_node *leaf, uint64_t arrow_output);
/* pqt_export_schema under the output options. */
pqt_status pqt_export_schema_opts(const pqt_schema *s, const uint8_t *selected, uint64_t arrow_output,
                                  struct ArrowSchema *out, pqt_error *err);
/* Bring a tree (already converted by pqt_array_to_arrow_layout) to the
 * layout the output options ask for, in place: a leaf that should be a
 * dictionary but was decoded without indexes becomes its own dictionary
 * (indexes 0..n-1); strings and binaries (or their dictionary) become
 * views. Applying it twice changes nothing. */
pqt_status pqt_array_apply_output(const pqt_allocator *alloc, pqt_array *a, uint64_t arrow_output, pqt_error *err);

/* Export rows [offset, offset+length) of the fields (already converted by
 * pqt_array_to_arrow_layout) as one struct array. Buffers are shared. */
pqt_status pqt_export_batch(const pqt_allocator *alloc, pqt_array *const *fields, int32_t n_fields, int64_t offset,
                            int64_t length, struct ArrowArray *out, pqt_error *err);

#endif
