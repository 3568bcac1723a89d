/*
 * parquetry_edit.h: new files from the column chunks of existing ones,
 * without re-encoding (what `parquetry concat` and `parquetry prune` do).
 *
 * Every page of a copied column chunk (dictionary, data v1 and v2) is
 * copied byte for byte; the chunk's ColumnMetaData is carried (statistics,
 * encoding stats, SizeStatistics, geospatial statistics, key-value
 * metadata) with its page offsets moved to where the chunk now lies. The
 * ColumnIndex is carried as stored, the OffsetIndex with its page offsets
 * moved; both are written after the row groups as the writer writes them.
 * Bloom filters are copied after their row group's chunks. The inputs'
 * row groups keep their rows, their order and their sorting_columns.
 *
 * Not copied: encrypted files and column chunks (PQT_EUNSUPPORTED: read
 * them with the keys and write a new file instead), and chunks stored in
 * another file (ColumnChunk.file_path). Before anything is copied each
 * chunk's page headers are walked: pages that do not fill the chunk
 * exactly, or page index entries outside it, are PQT_ECORRUPT naming the
 * input, row group, column and page.
 *
 * Conventions as in parquetry.h (struct_size, _init, pqt_error).
 */
#ifndef PARQUETRY_EDIT_H
#define PARQUETRY_EDIT_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pqt_edit_options {
  size_t struct_size;         /* set by pqt_edit_options_init */
  const pqt_allocator *alloc; /* NULL: malloc. Borrowed for the call */
  /* Columns left out: top-level field names or dotted paths ("a.b.c", as
   * pqt_reader_schema_text shows them); a group takes every leaf under it,
   * and a group whose every leaf is left out goes too. A name that is no
   * field or column is PQT_EINVAL. Leaving out every column is PQT_EINVAL.
   * Borrowed for the call. */
  const char *const *drop_columns;
  int32_t n_drop_columns;
  /* Names of the inputs for messages (one per input, e.g. file paths);
   * NULL: "input 1", "input 2", ... Borrowed for the call. */
  const char *const *input_names;
  /* created_by of the new file. NULL (default): the inputs' created_by
   * when they all have the same one (their pages and statistics come from
   * that writer, and readers choose their workarounds by it), else
   * parquetry's. Borrowed for the call. */
  const char *created_by;
  /* 1 (default): the first input's file key-value metadata (ARROW:schema
   * re-derived when columns are left out), its created_by recorded under
   * "parquetry.rewritten_from". 0: no file key-value metadata. Column
   * chunks always keep theirs. */
  int32_t key_value;
  /* Called (when set) after each row group is copied with the row groups
   * done and the total over every input, e.g. to move a progress bar. */
  void (*progress)(void *progress_ctx, int64_t done, int64_t total);
  void *progress_ctx; /* borrowed for the call */
} pqt_edit_options;

PQT_API void pqt_edit_options_init_sized(pqt_edit_options *o, size_t struct_size);
static inline void pqt_edit_options_init(pqt_edit_options *o) { pqt_edit_options_init_sized(o, sizeof *o); }

/* What a copy did (filled when it succeeded). */
typedef struct pqt_edit_report {
  size_t struct_size;    /* set by pqt_edit_report_init */
  int64_t rows;          /* rows written: the inputs' rows, every one */
  int32_t row_groups;    /* row groups written */
  int32_t columns;       /* leaf columns of the new file */
  int64_t chunk_bytes;   /* column chunk bytes copied (pages) */
  int64_t bloom_filters; /* Bloom filters carried */
  int64_t page_indexes;  /* column chunks whose ColumnIndex or OffsetIndex was carried */
} pqt_edit_report;

PQT_API void pqt_edit_report_init_sized(pqt_edit_report *r, size_t struct_size);
static inline void pqt_edit_report_init(pqt_edit_report *r) { pqt_edit_report_init_sized(r, sizeof *r); }

/*
 * Write the row groups of inputs[0..n_inputs) one after the other (less
 * opts->drop_columns) to `path` (a temporary name in the same folder,
 * renamed when complete; nothing is left on failure). Every input must
 * have the schema of the first (pqt_edit_same_schema) and the same column
 * orders. The inputs are borrowed: they stay open and are not closed.
 * report may be NULL.
 */
PQT_API pqt_status pqt_edit_copy_file(const char *path, pqt_reader *const *inputs, int32_t n_inputs,
                                      const pqt_edit_options *opts, pqt_edit_report *report, pqt_error *err);
/* The same into *dst (bytes appended; dst->alloc used when set; the
 * caller frees it with pqt_string_free). */
PQT_API pqt_status pqt_edit_copy_buffer(pqt_string *dst, pqt_reader *const *inputs, int32_t n_inputs,
                                        const pqt_edit_options *opts, pqt_edit_report *report, pqt_error *err);

/*
 * PQT_OK when b's schema is a's: the same fields in the same order with
 * the same names, repetition, physical types and lengths, logical and
 * converted types (scale, precision) and field ids (the root's name aside).
 * Otherwise PQT_EINVAL whose message names both (a_name, b_name; NULL:
 * "first", "second") and the first field that differs and how.
 */
PQT_API pqt_status pqt_edit_same_schema(const pqt_reader *a, const char *a_name, const pqt_reader *b,
                                        const char *b_name, pqt_error *err);

/*
 * A metadata-only footer file at `path` (parquet-mr's summary files): "PAR1",
 * then a footer holding every row group of the inputs in order, each
 * column chunk's file_path set to file_paths[i] (the name the data file
 * of inputs[i] is read by, relative to the directory of `path`), and no
 * column data. A reader opened on `path` (pqt_reader_open_file) reads the
 * rows from the data files. Page indexes and Bloom filters are left out
 * (their offsets lie in the data files). Every input must have the schema
 * of the first; encrypted inputs are PQT_EUNSUPPORTED. Written to a
 * temporary name and renamed.
 */
PQT_API pqt_status pqt_edit_write_summary(const char *path, pqt_reader *const *inputs, const char *const *file_paths,
                                          int32_t n_inputs, pqt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_EDIT_H */
