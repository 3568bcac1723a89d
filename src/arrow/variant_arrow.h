/*
 * arrow/variant_arrow.h: VARIANT groups of an assembled array tree,
 * reconstructed (variant/variant_shred.h) into struct<metadata, value>.
 */
#ifndef PQT_ARROW_VARIANT_ARROW_H
#define PQT_ARROW_VARIANT_ARROW_H

#include "arrow/array.h"

/* Is x a VARIANT group the reader hands out reconstructed: annotated
 * VARIANT, marked variant_rebuild by the reader, every leaf under it
 * projected (sel NULL = all)? */
bool pqt_variant_node_rebuilt(const pqt_schema_node *x, const uint8_t *sel);

/* Replace every such group in the tree *slot with its reconstruction (a
 * struct of the metadata array and a new BYTE_ARRAY value array). Rows are
 * numbered from row_base in errors. */
pqt_status pqt_variant_rebuild_tree(const pqt_allocator *alloc, pqt_array **slot, const uint8_t *sel, int64_t row_base,
                                    pqt_error *err);

#endif
