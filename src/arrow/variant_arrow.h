/*
 * arrow/variant_arrow.h: VARIANT groups of an assembled array tree,
 * reconstructed (variant/variant_shred.h) into struct<metadata, value>.
 */
#ifndef PQT_ARROW_VARIANT_ARROW_H
#define PQT_ARROW_VARIANT_ARROW_H

#include "arrow/array.h"
#include "parquetry_variant.h"

/* Arrow's canonical extension name for Parquet Variant (CanonicalExtensions:
 * "Parquet Variant"); writers also accept the older "parquet.variant". */
#define PQT_VARIANT_ARROW_EXTENSION "arrow.parquet.variant"

struct ArrowSchema;
/* The stored (not reconstructed) VARIANT groups of an exported schema
 * (pqt_export_schema of s, selected) marked with the extension type: the
 * storage struct<metadata, value, typed_value> as read, when the export
 * has metadata and value or typed_value. */
pqt_status pqt_variant_annotate_stored(const pqt_schema *s, const uint8_t *selected, struct ArrowSchema *root,
                                       pqt_error *err);

/* Is x a VARIANT group the reader hands out reconstructed: annotated
 * VARIANT, marked variant_rebuild by the reader, every leaf under it
 * projected (sel NULL = all)? */
bool pqt_variant_node_rebuilt(const pqt_schema_node *x, const uint8_t *sel);

/* Replace every such group in the tree *slot with its reconstruction (a
 * struct of the metadata array and a new BYTE_ARRAY value array). Rows are
 * numbered from row_base in errors. */
pqt_status pqt_variant_rebuild_tree(const pqt_allocator *alloc, pqt_array **slot, const uint8_t *sel, int64_t row_base,
                                    pqt_error *err);

/* Call fn for each row of a VARIANT group array, reconstructed or not (the
 * stored group with value/typed_value is reconstructed row by row): v is
 * the row's Variant, NULL for a null group. Rows are numbered from row_base
 * in errors. */
typedef pqt_status (*pqt_variant_row_fn)(void *ctx, int64_t i, const pqt_variant *v, pqt_error *err);
pqt_status pqt_variant_group_each(const pqt_allocator *alloc, const pqt_array *group, int64_t row_base,
                                  pqt_variant_row_fn fn, void *ctx, pqt_error *err);

#endif
