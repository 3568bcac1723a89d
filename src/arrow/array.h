/*
 * arrow/array.h: decoded row-group data as a tree of arrays in the Arrow
 * columnar layout, with reference-counted buffers.
 *
 * The tree mirrors the Arrow type of each top-level field: struct, list,
 * map (a list of key/value structs) and leaves. Leaves keep the Parquet
 * physical layout (INT96 as 12 bytes, DECIMAL as its physical type, ...):
 * the canonical text output formats from it directly, and the Arrow export
 * (arrow/export.c) converts only where the Arrow type differs.
 *
 * Buffers are shared: slicing a row group into record batches, or
 * exporting the same buffer twice, only takes references. A buffer is
 * released through the allocator that made it, so exported ArrowArrays stay
 * valid after the reader is closed.
 */
#ifndef PQT_ARROW_ARRAY_H
#define PQT_ARROW_ARRAY_H

#include "core/core.h"
#include "core/shared_buf.h"
#include "meta/schema.h"


typedef enum pqt_array_kind {
  PQT_ARRAY_LEAF = 0,
  PQT_ARRAY_STRUCT = 1,
  PQT_ARRAY_LIST = 2,
  PQT_ARRAY_MAP = 3
} pqt_array_kind;

typedef struct pqt_array pqt_array;
struct pqt_array {
  pqt_array_kind kind;
  const pqt_schema_node *node; /* the Parquet node; for a leaf, the leaf column */
  const char *name;            /* field name */
  bool nullable;
  int64_t length;
  int64_t null_count;
  pqt_shared_buf *validity; /* LSB-first bitmap; NULL when no nulls */
  pqt_shared_buf *offsets;  /* int32: LIST/MAP (length + 1), BYTE_ARRAY leaves */
  pqt_shared_buf *values;   /* leaves: fixed-width values, bitmap (BOOLEAN) or bytes */
  int32_t n_children;
  pqt_array **children;
  /* Arrow output options (pqt_arrow_output):
   * - dictionary: a leaf exported as an Arrow dictionary array: values holds
   *   int32 indexes (one per slot, 0 in null slots) into this leaf array
   *   (same node, no nulls), which is exported as ArrowArray.dictionary;
   * - view_data: a BYTE_ARRAY leaf in the view layout: values holds 16-byte
   *   views (Arrow utf8view/binaryview), long values pointing into this
   *   buffer (variadic buffer 0); offsets is NULL;
   * - view_bufs: variadic buffers 1..n_view_bufs of such a leaf (the
   *   decompressed pages and dictionaries its views point into, kept alive
   *   by these references), in order. */
  pqt_array *dictionary;
  pqt_shared_buf *view_data;
  pqt_shared_buf **view_bufs;
  int32_t n_view_bufs;
};

pqt_status pqt_array_new(const pqt_allocator *alloc, pqt_array_kind kind, int32_t n_children, pqt_array **out,
                         pqt_error *err);
void pqt_array_free(const pqt_allocator *alloc, pqt_array *a);

static inline bool pqt_bit_get(const uint8_t *bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
static inline void pqt_bit_set(uint8_t *bits, int64_t i) { bits[i >> 3] |= (uint8_t)(1u << (i & 7)); }

/* Is slot i of array a valid (non-null)? */
static inline bool pqt_array_is_valid(const pqt_array *a, int64_t i) {
  return !a->validity || pqt_bit_get(a->validity->data, i);
}

#endif
