/* file/row_group.h: one row group's projected columns as array trees. */
#ifndef PQT_FILE_ROW_GROUP_H
#define PQT_FILE_ROW_GROUP_H

#include "arrow/array.h"
#include "column/column_reader.h"
#include "file/reader_internal.h"

typedef struct pqt_row_group_data {
  int64_t num_rows;
  pqt_array **fields;   /* projected top-level fields, schema order */
  int32_t n_fields;
  int32_t n_fields_cap;
} pqt_row_group_data;

/* selected: one byte per leaf column (1 = projected), filled from options. */
pqt_status pqt_projection_resolve(const pqt_reader *r, const pqt_scan_options *opts, uint8_t *selected,
                                  pqt_error *err);
pqt_status pqt_row_group_read(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                              pqt_error *err);
/* Where a column chunk's bytes are: from the smaller valid page offset
 * (dictionary_page_offset 0 means none), total_compressed_size long, inside the file. */
pqt_status pqt_chunk_range(const pqt_reader *r, const pqt_column_metadata *cm, uint64_t *start, uint64_t *len,
                           pqt_error *err);
/* Decode one column chunk (errors name the row group and column). */
pqt_status pqt_row_group_read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err);
/* pqt_row_group_read honouring pqt_read_options.on_error: with
 * PQT_SKIP_CORRUPT a corrupt row group is reported (on_skip) and *skipped
 * set instead of failing; out is then empty. */
pqt_status pqt_row_group_read_recover(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                                      bool *skipped, pqt_error *err);
/* st, or PQT_ELIMIT when st is an allocation refused at max_memory. */
pqt_status pqt_reader_limit_status(pqt_reader *r, pqt_status st, pqt_error *err);
void pqt_row_group_data_free(const pqt_allocator *alloc, pqt_row_group_data *d);

#endif
