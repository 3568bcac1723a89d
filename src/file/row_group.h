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
/* The whole row group in one batch. */
pqt_status pqt_row_group_read(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_row_group_data *out,
                              pqt_error *err);
/* Where a column chunk's bytes are: from the smaller valid page offset
 * (dictionary_page_offset 0 means none), total_compressed_size long, inside the file. */
pqt_status pqt_chunk_range(const pqt_reader *r, const pqt_column_metadata *cm, uint64_t *start, uint64_t *len,
                           pqt_error *err);
/* Decode one column chunk (errors name the row group and column). */
pqt_status pqt_row_group_read_leaf(pqt_reader *r, int32_t g, int32_t leaf, pqt_column_data *cd, pqt_error *err);

/* One column chunk read a few records at a time (a column cursor set up
 * from the file's metadata: codec, decryption, recovery); errors name the
 * row group and column. See pqt_column_cursor_read / _finish. */
typedef struct pqt_leaf_cursor pqt_leaf_cursor;
pqt_status pqt_leaf_cursor_open(pqt_reader *r, int32_t g, int32_t leaf, pqt_leaf_cursor **out, pqt_error *err);
pqt_status pqt_leaf_cursor_read(pqt_leaf_cursor *c, int64_t max_rows, pqt_column_data *cd, int64_t *rows,
                                pqt_error *err);
pqt_status pqt_leaf_cursor_finish(pqt_leaf_cursor *c, pqt_error *err);
void pqt_leaf_cursor_close(pqt_leaf_cursor *c);
/* skip_pages: error recovery (pqt_column_read_options.skip_corrupt_pages),
 * with the chunk's offset index telling the rows of lost nested pages. */
pqt_status pqt_leaf_cursor_open_ex(pqt_reader *r, int32_t g, int32_t leaf, bool skip_pages, pqt_leaf_cursor **out,
                                   pqt_error *err);
const pqt_lost_rows *pqt_leaf_cursor_lost(const pqt_leaf_cursor *c, int32_t *n);

/* Damage that PQT_SKIP_CORRUPT recovers from (a chunk or row group is
 * lost): ECORRUPT, EUNSUPPORTED, ECRYPTO. */
bool pqt_recoverable_status(pqt_status st);

/* file/recovery.c: with PQT_SKIP_CORRUPT, decode every selected leaf of
 * row group g whole into cols (indexed by leaf), leaving out what is
 * damaged, and make the leaves agree again: rows a lost page held read as
 * null in its top-level field when that field is optional, and are left
 * out of every column otherwise. Each loss is reported through on_skip.
 * *rows: the rows the columns hold now. */
pqt_status pqt_recover_leaves(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_column_data *cols,
                              int64_t *rows, pqt_error *err);

/*
 * A row group read a batch of records at a time: every projected leaf has
 * a column cursor (column/column_reader.h), so memory holds a page per
 * column plus one batch. Errors name the row group and column (and page).
 * PQT_SKIP_CORRUPT: the row group is read in one batch by
 * pqt_recover_leaves (what a damage costs must not depend on the batch
 * size).
 */
typedef struct pqt_rg_cursor pqt_rg_cursor;
pqt_status pqt_rg_cursor_open(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out,
                              pqt_error *err);
/* The next max_rows rows (<= 0: all that are left) as top-level fields;
 * out->num_rows == 0 once the row group is read. The batch that ends the
 * row group also checks that every chunk ends there. */
pqt_status pqt_rg_cursor_next(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, pqt_error *err);
bool pqt_rg_cursor_done(const pqt_rg_cursor *c);
/* Data pages decoded so far (for pqt_scan_stats). */
int64_t pqt_rg_cursor_pages(const pqt_rg_cursor *c);
void pqt_rg_cursor_close(pqt_rg_cursor *c);
/* The same honouring pqt_read_options.on_error: with PQT_SKIP_CORRUPT a
 * row group that cannot be opened, or the rest of one that fails, is
 * reported (on_skip, with the rows lost) and *skipped set instead of
 * failing; out is then empty and the cursor done. */
pqt_status pqt_rg_cursor_open_recover(pqt_reader *r, int32_t g, const uint8_t *selected, pqt_rg_cursor **out,
                                      bool *skipped, pqt_error *err);
pqt_status pqt_rg_cursor_next_recover(pqt_rg_cursor *c, int64_t max_rows, pqt_row_group_data *out, bool *skipped,
                                      pqt_error *err);
/* st, or PQT_ELIMIT when st is an allocation refused at max_memory. */
pqt_status pqt_reader_limit_status(pqt_reader *r, pqt_status st, pqt_error *err);
void pqt_row_group_data_free(const pqt_allocator *alloc, pqt_row_group_data *d);

#endif
