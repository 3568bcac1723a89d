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

/* ---- writer input: the shredded form in a caller's Arrow arrays ---------- */

/* Views of a caller's arrow.parquet.variant struct<metadata, value,
 * typed_value> (value may be absent) for seed 003's reconstruction
 * (variant/variant_shred.h), checked once when opened: lengths, offsets
 * and the typed_value types (VariantShredding.md, "Shredded Value Types").
 * col is the group's dotted column path, for errors; the typed columns are
 * named below it ("v.typed_value.a.typed_value"). */
typedef struct pqt_variant_arrow_in pqt_variant_arrow_in;
struct pqt_import_fmt;
pqt_status pqt_variant_arrow_in_open(const pqt_allocator *alloc, const char *col, const struct ArrowArray *group,
                                     const struct pqt_import_fmt *fmt, pqt_variant_arrow_in **out, pqt_error *err);
/* The reconstructed Variant of the group's physical slot j (its offset
 * included; the group itself not null there), valid until the next call.
 * Errors name row (the table row, for messages) and the column. */
pqt_status pqt_variant_arrow_in_row(pqt_variant_arrow_in *in, int64_t j, int64_t row, pqt_variant *out,
                                    pqt_error *err);
void pqt_variant_arrow_in_free(pqt_variant_arrow_in *in);
