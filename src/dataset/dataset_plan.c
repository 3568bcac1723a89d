/*
 * dataset/dataset_plan.c: pqt_dataset_plan, the dataset cut into work
 * units (runs of consecutive row groups of one file that the filter keeps,
 * up to target_bytes each) for readers on other threads or machines.
 * Pruning uses the partition values, then each kept file's footer
 * statistics (and dictionaries or Bloom filters, as a scan does).
 */
#include <stdlib.h>

#include "dataset/dataset_internal.h"
#include "file/reader_internal.h"
#include "scan/filter.h"

static int64_t group_bytes(const pqt_reader *r, int32_t g) {
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  int64_t n = 0;
  for (int32_t c = 0; c < rg->columns.n; c++) {
    int64_t b = rg->columns.items[c].meta_data.total_compressed_size;
    if (b > 0 && n <= INT64_MAX - b) n += b;
  }
  return n;
}

typedef struct unit_list {
  pqt_dataset_unit *v;
  int32_t n, cap;
} unit_list;

static pqt_status push(unit_list *l, pqt_dataset_unit u, pqt_error *err) {
  if (l->n == INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "too many units");
  if (l->n == l->cap) {
    int32_t cap = l->cap ? (l->cap > INT32_MAX / 2 ? INT32_MAX : l->cap * 2) : 16;
    pqt_dataset_unit *v = realloc(l->v, sizeof *v * (size_t)cap);
    if (!v) return pqt_nomem(err);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = u;
  return PQT_OK;
}

static pqt_status plan_file(pqt_dataset *ds, int32_t f, const pqt_expr *residual, int64_t target, unit_list *l,
                            pqt_error *err) {
  pqt_reader *r;
  pqt_status st = pqt_ds_open_reader(ds, f, &r, err);
  if (st != PQT_OK) return st;
  pqt_filter *flt = NULL;
  if (residual) st = pqt_filter_bind(r, residual, NULL, r->data_alloc, &flt, err);
  pqt_dataset_unit cur = {.file = f, .first_row_group = -1};
  int32_t ng = pqt_reader_num_row_groups(r);
  for (int32_t g = 0; g < ng && st == PQT_OK; g++) {
    int skip = 0;
    if (flt) st = pqt_filter_prune(flt, r, g, &skip, err);
    if (st != PQT_OK) break;
    if (skip) {
      if (cur.n_row_groups > 0) st = push(l, cur, err);
      cur.n_row_groups = 0;
      continue;
    }
    if (cur.n_row_groups == 0) {
      cur.first_row_group = g;
      cur.rows = 0;
      cur.bytes = 0;
    }
    cur.n_row_groups++;
    cur.rows += pqt_reader_row_group_num_rows(r, g);
    cur.bytes += group_bytes(r, g);
    if (cur.bytes >= target) {
      st = push(l, cur, err);
      cur.n_row_groups = 0;
    }
  }
  if (st == PQT_OK && cur.n_row_groups > 0) st = push(l, cur, err);
  if (st != PQT_OK && err && !strstr(err->message, ds->files[f].path)) pqt_error_prefix(err, "%s", ds->files[f].path);
  pqt_filter_free(flt);
  pqt_reader_close(r);
  return st;
}

PQT_API pqt_status pqt_dataset_plan(pqt_dataset *ds, const pqt_expr *filter, int64_t target_bytes,
                                    pqt_dataset_unit **units, int32_t *n_units, pqt_error *err) {
  if (err) pqt_error_init(err);
  if (!ds || !units || !n_units) return pqt_error_set(err, PQT_EINVAL, "pqt_dataset_plan: NULL argument");
  *units = NULL;
  *n_units = 0;
  if (target_bytes <= 0) target_bytes = (int64_t)128 << 20;
  pqt_status st = PQT_OK;
  if (filter) st = pqt_ds_filter_check(ds, filter, err);
  unit_list l = {0};
  for (int32_t f = 0; f < ds->n_files && st == PQT_OK; f++) {
    int verdict = 1;
    pqt_expr *res = NULL;
    if (filter) st = pqt_ds_filter_for_file(ds, f, filter, &verdict, &res, err);
    if (st == PQT_OK && verdict != 0) st = plan_file(ds, f, res, target_bytes, &l, err);
    pqt_expr_free(res);
  }
  if (st != PQT_OK) {
    free(l.v);
    return st;
  }
  *units = l.v;
  *n_units = l.n;
  return PQT_OK;
}

PQT_API void pqt_dataset_plan_free(pqt_dataset_unit *units) { free(units); }
