/*
 * arrow/import: Arrow C Data Interface arrays -> one Parquet leaf column's
 * definition/repetition levels and dense values in the physical layout
 * (spec: parquet-format README.md "Nested Encoding"; logical type encodings of parquet-format LogicalTypes.md;
 * the Arrow <-> Parquet mapping of README.md). Shredding itself is
 * pqt_levels_shred (levels/levels.h); here the walk from the schema tree to
 * the Arrow arrays and the value conversions (small integers widened,
 * time units scaled, decimals to INT32/INT64/big-endian bytes, timestamps
 * to INT96, large offsets to int32).
 */
#ifndef PQT_ARROW_IMPORT_H
#define PQT_ARROW_IMPORT_H

#include "core/core.h"
#include "arrow/format.h"
#include "meta/schema.h"
#include "parquetry_arrow.h"

/* The Arrow formats of the expected layout, as a tree mirroring ArrowSchema. */
typedef struct pqt_import_fmt {
  const char *format;
  pqt_arrow_kind kind; /* format parsed (arrow/format.h) */
  int32_t n_children;
  struct pqt_import_fmt *children;
  const char *name; /* the field's name ("" when none): VARIANT input finds its children by name */
} pqt_import_fmt;

/* Deep-copy the formats of an ArrowSchema into arena. */
pqt_status pqt_import_fmt_copy(pqt_arena *arena, const struct ArrowSchema *s, pqt_import_fmt *out, pqt_error *err);

typedef struct pqt_import_scratch {
  pqt_buf def, rep, idx, vals, offs, zeros;
} pqt_import_scratch;

void pqt_import_scratch_init(pqt_import_scratch *sc, const pqt_allocator *alloc);
void pqt_import_scratch_free(pqt_import_scratch *sc);

typedef struct pqt_leaf_batch {
  int64_t n_levels;
  const int16_t *def; /* NULL when max_def == 0 */
  const int16_t *rep; /* NULL when max_rep == 0 */
  const uint8_t *values;
  const int32_t *offsets; /* BYTE_ARRAY */
  int64_t n_values;
} pqt_leaf_batch;

/* Rows [start, start+len) of the record batch (a struct array whose
 * children are the schema's top-level fields, layout `fmt`) for leaf
 * column `leaf`. Output points into the batch or into sc (valid until the
 * next call with sc). */
pqt_status pqt_import_leaf(const pqt_schema *s, int32_t leaf, const pqt_import_fmt *fmt, const struct ArrowArray *batch,
                           int64_t start, int64_t len, pqt_import_scratch *sc, pqt_leaf_batch *out, pqt_error *err);

#endif
