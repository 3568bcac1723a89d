/*
 * parquetry_dataset.h: many Parquet files read as one table.
 *
 * A dataset is opened from inputs, each a file, a directory (every file
 * under it, recursively, except names starting with '.' or '_', such as
 * _SUCCESS or .crc files) or a glob (`*`, `?`, `[...]` within a path
 * component, `**` as a whole component for any number of directories).
 * Files are taken in input order, and within a directory or glob in
 * byte-wise path order.
 *
 * Hive-style partition directories (`year=2024/month=01/`, below the
 * directory or the glob's fixed prefix; every directory of an explicit file
 * path) become columns after the files' own columns: int64 when every
 * value parses as one, else string (or the type given in the options);
 * `__HIVE_DEFAULT_PARTITION__` is NULL; %XX escapes are decoded. Every file
 * must have the same partition keys.
 *
 * Schemas are unified by top-level column name, in order of first
 * appearance: a column missing from a file reads as NULL there; int32 and
 * int64 give int64, float and double give double. Struct columns are
 * unified the same way by field name, at any depth (also the elements of
 * lists, maps and fixed-size lists): a field only some files have is added
 * (in order of first appearance) and reads as NULL in the others' rows,
 * fields in another order are matched by name, and int32/float fields
 * widen. Any other difference is an error naming both files and the column
 * or the dotted path of the field ("column s.c.d: a.parquet has type 'l',
 * b.parquet has type 'u'").
 *
 * Filters (parquetry_filter.h) may name partition columns: a file whose
 * partition values make the predicate false (or unknown) is skipped without
 * being opened for reading, and the rest of the predicate prunes each
 * file's row groups by their footer statistics before any page is read.
 *
 * Remote sources: the pqt_dataset_fs callbacks list and open files; the
 * default (NULL) is local files. A URL lister/opener plugs in there.
 */
#ifndef PARQUETRY_DATASET_H
#define PARQUETRY_DATASET_H

#include "parquetry.h"
#include "parquetry_filter.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowSchema;
struct ArrowArrayStream;

typedef struct pqt_dataset pqt_dataset;

typedef enum pqt_partition_type {
  PQT_PARTITION_INFER = 0, /* int64 when every value parses, else string */
  PQT_PARTITION_INT64 = 1,
  PQT_PARTITION_STRING = 2
} pqt_partition_type;

typedef struct pqt_partition_field { /* a fixed value struct, used in arrays */
  const char *name;                  /* borrowed until pqt_dataset_open returns */
  int32_t type;                      /* a pqt_partition_type value */
} pqt_partition_field;

/* Called by a lister once per file found. */
typedef pqt_status (*pqt_dataset_emit_fn)(void *emit_ctx, const char *path, pqt_error *err);

/*
 * Where files come from. open: fill io (pqt_io_init first) for path.
 * list: when path is a directory (or an object-store prefix), set *is_dir
 * to 1 and call emit for every file under it, recursively, in any order
 * (paths joined with '/'); when it is a single file set *is_dir = 0; when it
 * does not exist return PQT_EIO naming it. Either may be NULL for the
 * local default.
 */
typedef struct pqt_dataset_fs {
  pqt_status (*open)(void *ctx, const char *path, pqt_io *io, pqt_error *err);
  pqt_status (*list)(void *ctx, const char *path, int *is_dir, pqt_dataset_emit_fn emit, void *emit_ctx,
                     pqt_error *err);
  void *ctx; /* borrowed: must outlive the dataset and its streams */
} pqt_dataset_fs;

typedef struct pqt_dataset_options {
  size_t struct_size;                          /* set by pqt_dataset_options_init */
  const pqt_read_options *read;                /* for every file (NULL: defaults); borrowed, must outlive the dataset */
  int32_t hive_partitioning;                   /* 1 (default): key=value directories become columns */
  const pqt_partition_field *partition_fields; /* types of partition columns (others inferred) */
  int32_t n_partition_fields;
  const pqt_dataset_fs *fs; /* NULL: local files; borrowed, must outlive the dataset */
  int32_t max_files;        /* most files accepted (default 1000000) */
} pqt_dataset_options;

PQT_API void pqt_dataset_options_init_sized(pqt_dataset_options *o, size_t struct_size);
static inline void pqt_dataset_options_init(pqt_dataset_options *o) { pqt_dataset_options_init_sized(o, sizeof *o); }

/* Open the dataset made of inputs (files, directories, globs); reads every
 * file's footer. opts may be NULL. An input matching nothing is an error. */
PQT_API pqt_status pqt_dataset_open(pqt_dataset **out, const char *const *inputs, int32_t n_inputs,
                                    const pqt_dataset_options *opts, pqt_error *err);
PQT_API void pqt_dataset_close(pqt_dataset *ds);

/*
 * A ready-made fs for object stores and web servers (parquetry_remote.h):
 * an s3://bucket/prefix input is listed with ListObjectsV2 (every key under
 * prefix/ is a file, a prefix with no keys under it is taken as one
 * object), http(s):// and s3:// files are opened with pqt_io_open_url,
 * every other path is a local file or directory as with the default.
 * ropts (NULL: defaults) is borrowed and must outlive the dataset, like fs.
 */
struct pqt_remote_options;
PQT_API void pqt_dataset_fs_remote(pqt_dataset_fs *fs, const struct pqt_remote_options *ropts);

/* Only list: the files the inputs name, in the order pqt_dataset_open takes
 * them, without reading them. *paths is an array of *n_paths strings, freed
 * with pqt_dataset_list_free. */
PQT_API pqt_status pqt_dataset_list(const char *const *inputs, int32_t n_inputs, const pqt_dataset_options *opts,
                                    char ***paths, int32_t *n_paths, pqt_error *err);
PQT_API void pqt_dataset_list_free(char **paths, int32_t n_paths);

PQT_API int32_t pqt_dataset_num_files(const pqt_dataset *ds);
PQT_API const char *pqt_dataset_file_path(const pqt_dataset *ds, int32_t file);
PQT_API int64_t pqt_dataset_file_num_rows(const pqt_dataset *ds, int32_t file);
PQT_API int32_t pqt_dataset_file_num_row_groups(const pqt_dataset *ds, int32_t file);
PQT_API int64_t pqt_dataset_num_rows(const pqt_dataset *ds);
/* Open one file of the dataset (its own schema, no partition columns). */
PQT_API pqt_status pqt_dataset_open_file(const pqt_dataset *ds, int32_t file, pqt_reader **out, pqt_error *err);

/* The unified schema: a struct, one child per column (partition columns last). */
PQT_API pqt_status pqt_dataset_schema(const pqt_dataset *ds, struct ArrowSchema *out, pqt_error *err);

/*
 * All files as one stream of record batches of the unified schema (files
 * in order). opts: columns are top-level names (partition columns
 * included) or dotted paths of struct fields ("s.a": column s with only
 * field a, NULL in the files that lack it), filter and batch_size as for
 * one file; stats (when set) sum
 * over the files. row_groups and row_ranges are refused (PQT_EINVAL). The
 * stream's errors name the file. The stream borrows ds (close ds after the
 * stream's release) and opts->filter (as for one file).
 */
PQT_API pqt_status pqt_dataset_get_stream(pqt_dataset *ds, const pqt_scan_options *opts, struct ArrowArrayStream *out,
                                          pqt_error *err);
/* Rows of the dataset passing opts->filter (footers alone without one). */
PQT_API pqt_status pqt_dataset_count(pqt_dataset *ds, const pqt_scan_options *opts, int64_t *rows, pqt_error *err);

/*
 * The selected rows as text (pqt_reader_write_text's JSON Lines or CSV), at
 * most limit rows (-1: all), files in order; opts as for the stream. Each
 * row has the projected columns in dataset order, a column the file lacks
 * as null (JSON) or an empty cell (CSV), then the partition columns. CSV
 * has one header line.
 */
PQT_API pqt_status pqt_dataset_write_text(pqt_dataset *ds, const pqt_scan_options *opts, pqt_text_format format,
                                          int64_t limit, pqt_write_fn write, void *ctx, pqt_error *err);

/*
 * Splits for distributed readers. A unit is a run of consecutive row groups
 * of one file that the filter does not prune (partition values, footer
 * statistics), closed when its compressed bytes reach target_bytes (at
 * least one row group per unit). rows is the row groups' row count (before
 * the filter's row-level selection): the units' rows sum to the rows of
 * the dataset's row groups that pruning keeps.
 */
typedef struct pqt_dataset_unit { /* a fixed value struct, used in arrays */
  int32_t file;
  int32_t first_row_group;
  int32_t n_row_groups;
  int64_t rows;
  int64_t bytes; /* compressed bytes of the row groups */
} pqt_dataset_unit;

/* *units is allocated (free with pqt_dataset_plan_free). */
PQT_API pqt_status pqt_dataset_plan(pqt_dataset *ds, const pqt_expr *filter, int64_t target_bytes,
                                    pqt_dataset_unit **units, int32_t *n_units, pqt_error *err);
PQT_API void pqt_dataset_plan_free(pqt_dataset_unit *units);
/* A stream of one unit, of the unified schema (opts as for the dataset stream). */
PQT_API pqt_status pqt_dataset_unit_stream(pqt_dataset *ds, const pqt_dataset_unit *unit, const pqt_scan_options *opts,
                                           struct ArrowArrayStream *out, pqt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_DATASET_H */
