/* arrow/assemble.h: decoded column chunks -> the array tree of a field. */
#ifndef PQT_ARROW_ASSEMBLE_H
#define PQT_ARROW_ASSEMBLE_H

#include "arrow/array.h"
#include "column/column_reader.h"

/*
 * Build the array tree of `field` (a child of the schema root) from the
 * decoded chunks of its leaves. cols is indexed by leaf column index and
 * must hold every projected leaf under field (selected[i] != 0, or all when
 * selected is NULL); their value buffers are taken over
 * (left empty) where they can be used as they are.
 */
pqt_status pqt_assemble_field(const pqt_schema_node *field, pqt_column_data *cols, int32_t n_cols,
                              const uint8_t *selected, const pqt_allocator *alloc, pqt_array **out, pqt_error *err);

#endif
