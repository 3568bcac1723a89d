/*
 * variant/variant_shred_write.h: shredding Variant values into the leaf
 * columns of a shredded VARIANT group (parquet-format VariantShredding.md,
 * "Value Shredding", "Objects", "Arrays"), one row at a time, into
 * per-leaf buffers of levels and values in the writer's physical layout.
 * Inside lists and maps the caller gives each value's repetition level.
 */
#ifndef PQT_VARIANT_SHRED_WRITE_H
#define PQT_VARIANT_SHRED_WRITE_H

#include "core/core.h"
#include "meta/schema.h"
#include "parquetry_variant.h"

/* One leaf's pending levels and values. */
typedef struct pqt_vshred_col {
  pqt_buf def, rep; /* int16 levels */
  pqt_buf vals;     /* fixed width values, or BYTE_ARRAY bytes */
  pqt_buf offs;     /* BYTE_ARRAY: int32 offsets (n_values + 1) */
  int64_t n_levels, n_values;
} pqt_vshred_col;

typedef struct pqt_vshred {
  const pqt_schema_node *group; /* the VARIANT group */
  int32_t first_leaf, n_leaves;
  pqt_vshred_col *cols;
  /* per node of the group's subtree (index - group->index): an object
   * typed_value's children sorted by name (NULL for other nodes) */
  const pqt_schema_node ***sorted;
  int32_t *sorted_n;
  int32_t n_sub;
  const pqt_allocator *alloc;
  pqt_buf scratch;
} pqt_vshred;

/* Check the group's shape (metadata, value, typed_value as the spec lays
 * them out) and prepare the buffers. */
pqt_status pqt_vshred_init(pqt_vshred *s, const pqt_schema_node *group, const pqt_allocator *alloc, pqt_error *err);
void pqt_vshred_free(pqt_vshred *s);
/* Forget the pending levels and values (after they were written). */
void pqt_vshred_clear(pqt_vshred *s);
/* Append one row: v (validated by the caller), or NULL for a null row. */
pqt_status pqt_vshred_write_row(pqt_vshred *s, const pqt_variant *v, pqt_error *err);
/* Append one row where a struct around the group is null: every leaf gets
 * definition level def (below the group's). */
pqt_status pqt_vshred_write_absent(pqt_vshred *s, int16_t def, pqt_error *err);
/* Inside lists and maps: one value (or NULL) with repetition level rep
 * (0 for a row's first), and an absent one where an ancestor is null or an
 * empty list (every leaf gets definition level def). */
pqt_status pqt_vshred_write_value(pqt_vshred *s, const pqt_variant *v, int16_t rep, pqt_error *err);
pqt_status pqt_vshred_write_absent_at(pqt_vshred *s, int16_t def, int16_t rep, pqt_error *err);
/* PQT_OK unless a buffer failed to grow since the last clear. */
pqt_status pqt_vshred_status(const pqt_vshred *s, pqt_error *err);

#endif
