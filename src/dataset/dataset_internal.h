/*
 * dataset/dataset_internal.h: the dataset object (dataset/dataset.c), its
 * Arrow side (dataset/dataset_arrow.c: schema copies, NULL columns,
 * widening, the stream) and the filter rewritten per file
 * (dataset/dataset_filter.c).
 */
#ifndef PQT_DATASET_INTERNAL_H
#define PQT_DATASET_INTERNAL_H

#include "core/core.h"
#include "parquetry_arrow.h"
#include "parquetry_dataset.h"
#include "scan/expr_internal.h"

typedef struct pqt_ds_file {
  char *path;
  char **part_raw; /* per partition column: the decoded value, NULL for NULL */
  int64_t *part_i; /* per partition column: the value when the column is int64 */
  int64_t rows;
  int32_t n_groups;
  char **names; /* the file's top-level column names */
  int32_t n_names;
  struct ArrowSchema schema; /* the file's own schema (owned) */
} pqt_ds_file;

struct pqt_dataset {
  pqt_read_options ropts;
  bool has_ropts;
  pqt_dataset_fs fs;
  pqt_ds_file *files;
  int32_t n_files;
  /* unified file columns */
  struct ArrowSchema *cols; /* each a deep copy (owned), widened, nullable */
  int32_t *col_file;        /* the file that first had the column */
  int32_t n_cols;
  /* partition columns (after the file columns) */
  char **part_names;
  int32_t *part_types; /* PQT_PARTITION_INT64 or _STRING */
  int32_t n_parts;
};

/* dataset_arrow.c */
pqt_status pqt_ds_schema_copy(const struct ArrowSchema *src, struct ArrowSchema *dst, pqt_error *err);
/* Same type (format, children by name and type, dictionary). */
bool pqt_ds_schema_same(const struct ArrowSchema *a, const struct ArrowSchema *b);
/* Append a (nullable) copy of child c to u, a schema of ours. */
pqt_status pqt_ds_schema_add_child(struct ArrowSchema *u, const struct ArrowSchema *c, pqt_error *err);
/* An array of `length` NULLs of type s. */
pqt_status pqt_ds_null_array(const struct ArrowSchema *s, int64_t length, struct ArrowArray *out, pqt_error *err);

/* The projection (o->columns: top-level names, or "s.a" for fields of
 * struct columns) as unified indices in dataset order (sel: room for every
 * column) and per selected column its unified type pruned to the fields
 * asked for (*usch: an array of n_sel, partition columns released; free
 * with pqt_ds_schemas_free). */
pqt_status pqt_ds_projection(const pqt_dataset *ds, const pqt_scan_options *o, int32_t *sel, int32_t *n_sel,
                             struct ArrowSchema **usch, pqt_error *err);
void pqt_ds_schemas_free(struct ArrowSchema *v, int32_t n);

/* A growable list of owned strings. */
typedef struct pqt_ds_names {
  char **v;
  int32_t n, cap;
} pqt_ds_names;
pqt_status pqt_ds_names_add(pqt_ds_names *l, const char *s, pqt_error *err);
void pqt_ds_names_free(pqt_ds_names *l);
/* Append the column paths file f is read with for the unified column of
 * (pruned) type u: nothing when the file lacks it; the column's name when
 * the file's fields are all wanted; else the dotted paths of the wanted
 * fields the file has (one field of the file's when it has none, for the
 * struct's own NULLs). */
pqt_status pqt_ds_file_columns(const pqt_dataset *ds, int32_t f, const struct ArrowSchema *u, pqt_ds_names *out,
                               pqt_error *err);
/* The caller's scan options (NULL: defaults) checked for a dataset scan. */
pqt_status pqt_ds_load_scan_options(const pqt_dataset *ds, const pqt_scan_options *opts, pqt_scan_options *o,
                                    pqt_error *err);
void pqt_ds_stats_add(pqt_scan_stats *a, const pqt_scan_stats *b);

/* dataset_filter.c: e with partition columns and the columns absent from
 * file f replaced by their values. *verdict: 1 true (no filter needed), 0
 * false or unknown (skip the file), -1 *out is the residual predicate over
 * the file's own columns (free with pqt_expr_free). */
pqt_status pqt_ds_filter_for_file(const pqt_dataset *ds, int32_t f, const pqt_expr *e, int *verdict, pqt_expr **out,
                                  pqt_error *err);
/* Check that every column e names is in the dataset. */
pqt_status pqt_ds_filter_check(const pqt_dataset *ds, const pqt_expr *e, pqt_error *err);

/* dataset.c */
pqt_status pqt_ds_open_reader(const pqt_dataset *ds, int32_t f, pqt_reader **out, pqt_error *err);
int32_t pqt_ds_find_col(const pqt_dataset *ds, const char *name,
                        size_t len); /* unified index or -1; partitions n_cols+i */
/* The local lister (directories walked recursively). */
pqt_status pqt_ds_local_list(void *ctx, const char *path, int *is_dir, pqt_dataset_emit_fn emit, void *ectx,
                             pqt_error *err);

/* fs is pqt_dataset_fs_remote's (dataset/dataset_remote.c): its opener may
 * be called from several threads at once. */
bool pqt_ds_fs_is_remote(const pqt_dataset_fs *fs);

#endif
