/*
 * dataset/dataset_filter.c: a dataset filter specialised to one file.
 * Predicates on partition columns are decided from the file's directory
 * values, predicates on columns the file lacks see NULL, and what is left
 * names only the file's own columns (and is handed to the file's scan,
 * which prunes row groups by statistics).
 *
 * An unknown (NULL) result is replaced by false where it is under an even
 * number of NOTs and by true under an odd number: a row is returned only
 * when the whole predicate is true, and in Kleene logic a formula true
 * with some inputs unknown is true for every value of those inputs, so the
 * replacement never changes which rows pass.
 */
#include <math.h>
#include <stdlib.h>

#include "dataset/dataset_internal.h"
#include "scan/filter.h"

enum { V_FALSE = 0, V_TRUE = 1, V_RESIDUAL = 2, V_UNKNOWN = 3 };

static pqt_expr *clone(const pqt_expr *e) {
  pqt_expr *c = pqt_expr_new_node(e->kind, e->n_args);
  if (!c) return NULL;
  if (e->bytes) { /* the bytes through the expression allocator, as pqt_expr_free expects */
    pqt_expr *b = pqt_expr_new_bytes(e->kind, e->bytes, e->len);
    if (!b) {
      pqt_expr_free(c);
      return NULL;
    }
    c->bytes = b->bytes;
    c->len = b->len;
    b->bytes = NULL;
    b->len = 0;
    pqt_expr_free(b);
  }
  c->pos = e->pos;
  c->op = e->op;
  c->negate = e->negate;
  c->lit = e->lit;
  c->i = e->i;
  c->scale = e->scale;
  c->d = e->d;
  c->utc = e->utc;
  memcpy(c->gbox, e->gbox, sizeof c->gbox);
  for (int32_t k = 0; k < e->n_args; k++) {
    c->args[k] = clone(e->args[k]);
    if (!c->args[k]) {
      pqt_expr_free(c);
      return NULL;
    }
  }
  return c;
}

/* The column a predicate tests (its first argument, or either side of a comparison). */
static const pqt_expr *pred_column(const pqt_expr *e, const pqt_expr **lit, bool *flipped) {
  *lit = NULL;
  *flipped = false;
  if (e->n_args < 1) return NULL;
  if (e->kind == PQT_EK_CMP && e->n_args == 2 && e->args[0]->kind != PQT_EK_COLUMN &&
      e->args[1]->kind == PQT_EK_COLUMN) {
    *lit = e->args[0];
    *flipped = true;
    return e->args[1];
  }
  if (e->args[0]->kind != PQT_EK_COLUMN) return NULL;
  if (e->n_args > 1) *lit = e->args[1];
  return e->args[0];
}

static void op_flip(int op, int *out) {
  switch (op) {
    case PQT_CMP_LT: *out = PQT_CMP_GT; break;
    case PQT_CMP_LE: *out = PQT_CMP_GE; break;
    case PQT_CMP_GT: *out = PQT_CMP_LT; break;
    case PQT_CMP_GE: *out = PQT_CMP_LE; break;
    default: *out = op;
  }
}

/* Compare partition value (int64 v or string s) with literal l: *c < 0, 0, > 0. */
static pqt_status cmp_value(const pqt_dataset *ds, int32_t k, int32_t f, const pqt_expr *l, int *c, pqt_error *err) {
  const char *name = ds->part_names[k];
  if (ds->part_types[k] == PQT_PARTITION_INT64) {
    int64_t v = ds->files[f].part_i[k];
    if (l->lit == PQT_LIT_EXACT) {
      if (l->scale > 18) {
        long double a = (long double)v, b = (long double)l->i;
        for (int32_t s = 0; s < l->scale; s++) b /= 10;
        *c = a < b ? -1 : a > b;
        return PQT_OK;
      }
      __int128 scaled = v;
      for (int32_t s = 0; s < l->scale; s++) scaled *= 10;
      *c = scaled < l->i ? -1 : scaled > l->i;
      return PQT_OK;
    }
    if (l->lit == PQT_LIT_DOUBLE) {
      if (isnan(l->d)) {
        *c = -1;
        return PQT_OK;
      }
      double a = (double)v;
      *c = a < l->d ? -1 : a > l->d;
      return PQT_OK;
    }
    return pqt_error_set(err, PQT_EINVAL, "position %d: partition column %s is an integer, compared with a non-number",
                         (int)l->pos, name);
  }
  const char *s = ds->files[f].part_raw[k];
  if (l->lit != PQT_LIT_STRING && l->lit != PQT_LIT_BINARY)
    return pqt_error_set(err, PQT_EINVAL, "position %d: partition column %s is a string, compared with a non-string",
                         (int)l->pos, name);
  *c = pqt_dom_cmp_bytes((const uint8_t *)s, strlen(s), (const uint8_t *)l->bytes, l->len);
  return PQT_OK;
}

/* A predicate on partition column k of file f: V_TRUE, V_FALSE or V_UNKNOWN. */
static pqt_status eval_part(const pqt_dataset *ds, int32_t f, int32_t k, const pqt_expr *e, int *v, pqt_error *err) {
  bool null = ds->files[f].part_raw[k] == NULL;
  if (e->kind == PQT_EK_ISNULL) {
    *v = null != e->negate ? V_TRUE : V_FALSE;
    return PQT_OK;
  }
  int c;
  pqt_status st;
  switch (e->kind) {
    case PQT_EK_CMP: {
      const pqt_expr *lit;
      bool flipped;
      pred_column(e, &lit, &flipped);
      if (null) break;
      int op = e->op;
      if (flipped) op_flip(e->op, &op);
      if ((st = cmp_value(ds, k, f, lit, &c, err)) != PQT_OK) return st;
      *v = pqt_cmp_holds(op, c) ? V_TRUE : V_FALSE;
      return PQT_OK;
    }
    case PQT_EK_IN:
      if (null) break;
      *v = V_FALSE;
      for (int32_t i = 1; i < e->n_args; i++) {
        if ((st = cmp_value(ds, k, f, e->args[i], &c, err)) != PQT_OK) return st;
        if (c == 0) *v = V_TRUE;
      }
      return PQT_OK;
    case PQT_EK_BETWEEN: {
      if (null) break;
      int lo, hi;
      if ((st = cmp_value(ds, k, f, e->args[1], &lo, err)) != PQT_OK) return st;
      if ((st = cmp_value(ds, k, f, e->args[2], &hi, err)) != PQT_OK) return st;
      *v = lo >= 0 && hi <= 0 ? V_TRUE : V_FALSE;
      return PQT_OK;
    }
    case PQT_EK_LIKE: {
      if (ds->part_types[k] != PQT_PARTITION_STRING)
        return pqt_error_set(err, PQT_EINVAL, "position %d: LIKE on partition column %s, an integer", (int)e->pos,
                             ds->part_names[k]);
      if (null) break;
      const char *s = ds->files[f].part_raw[k];
      *v = pqt_like_match((const uint8_t *)e->bytes, e->len, (const uint8_t *)s, strlen(s)) ? V_TRUE : V_FALSE;
      return PQT_OK;
    }
    default:
      return pqt_error_set(err, PQT_EINVAL, "position %d: partition column %s cannot be tested this way", (int)e->pos,
                           ds->part_names[k]);
  }
  *v = V_UNKNOWN;
  return PQT_OK;
}

/* The top-level name of a dotted column path. */
static size_t top_len(const pqt_expr *col) {
  const char *d = memchr(col->bytes, '.', col->len);
  return d ? (size_t)(d - col->bytes) : col->len;
}

static bool file_has_n(const pqt_ds_file *file, const char *name, size_t n) {
  for (int32_t i = 0; i < file->n_names; i++)
    if (strlen(file->names[i]) == n && memcmp(file->names[i], name, n) == 0) return true;
  return false;
}

/* positive: under an even number of NOTs. */
static pqt_status rewrite(const pqt_dataset *ds, int32_t f, const pqt_expr *e, bool positive, int *v, pqt_expr **out,
                          pqt_error *err) {
  *out = NULL;
  pqt_status st;
  if (e->kind == PQT_EK_AND || e->kind == PQT_EK_OR) {
    bool is_and = e->kind == PQT_EK_AND;
    int dominant = is_and ? V_FALSE : V_TRUE;
    pqt_expr **keep = calloc((size_t)e->n_args + 1, sizeof *keep);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
    if (!keep) return pqt_nomem(err);
    int32_t nk = 0;
    *v = is_and ? V_TRUE : V_FALSE;
    for (int32_t i = 0; i < e->n_args; i++) {
      int sv;
      pqt_expr *r;
      if ((st = rewrite(ds, f, e->args[i], positive, &sv, &r, err)) != PQT_OK) goto fail_list;
      if (sv == dominant) {
        *v = dominant;
        break;
      }
      if (sv == V_RESIDUAL) keep[nk++] = r;
    }
    if (*v == dominant || nk == 0) {
      for (int32_t i = 0; i < nk; i++) pqt_expr_free(keep[i]);
      free(keep);
      return PQT_OK;
    }
    pqt_expr *acc = keep[0];
    for (int32_t i = 1; i < nk && acc; i++) acc = is_and ? pqt_expr_and(acc, keep[i]) : pqt_expr_or(acc, keep[i]);
    free(keep);
    if (!acc) return pqt_nomem(err);
    *v = V_RESIDUAL;
    *out = acc;
    return PQT_OK;
  fail_list:
    for (int32_t i = 0; i < nk; i++) pqt_expr_free(keep[i]);
    free(keep);
    return st;
  }
  if (e->kind == PQT_EK_NOT) {
    int sv;
    pqt_expr *r;
    if ((st = rewrite(ds, f, e->args[0], !positive, &sv, &r, err)) != PQT_OK) return st;
    if (sv == V_RESIDUAL) {
      *out = pqt_expr_not(r);
      if (!*out) return pqt_nomem(err);
      *v = V_RESIDUAL;
    } else {
      *v = sv == V_TRUE ? V_FALSE : V_TRUE;
    }
    return PQT_OK;
  }
  const pqt_expr *lit;
  bool flipped;
  const pqt_expr *col = pred_column(e, &lit, &flipped);
  if (!col) return pqt_error_set(err, PQT_EINVAL, "position %d: a predicate without a column", (int)e->pos);
  size_t tl = top_len(col);
  int32_t c = pqt_ds_find_col(ds, col->bytes, col->len);
  int res = V_RESIDUAL;
  if (c >= ds->n_cols) {
    if ((st = eval_part(ds, f, c - ds->n_cols, e, &res, err)) != PQT_OK) return st;
  } else if (!file_has_n(&ds->files[f], col->bytes, tl)) {
    /* the column is NULL throughout this file */
    res = e->kind == PQT_EK_ISNULL ? (e->negate ? V_FALSE : V_TRUE) : V_UNKNOWN;
  }
  if (res == V_UNKNOWN) res = positive ? V_FALSE : V_TRUE;
  *v = res;
  if (res == V_RESIDUAL) {
    *out = clone(e);
    if (!*out) return pqt_nomem(err);
  }
  return PQT_OK;
}

pqt_status pqt_ds_filter_for_file(const pqt_dataset *ds, int32_t f, const pqt_expr *e, int *verdict, pqt_expr **out,
                                  pqt_error *err) {
  int v;
  pqt_status st = rewrite(ds, f, e, true, &v, out, err);
  if (st != PQT_OK) return st;
  *verdict = v == V_RESIDUAL ? -1 : v == V_TRUE ? 1 : 0;
  return PQT_OK;
}

static pqt_status check(const pqt_dataset *ds, const pqt_expr *e, pqt_error *err) {
  if (e->kind == PQT_EK_COLUMN) {
    if (pqt_ds_find_col(ds, e->bytes, e->len) >= ds->n_cols) return PQT_OK; /* a partition column */
    const char *d = memchr(e->bytes, '.', e->len);
    size_t tl = d ? (size_t)(d - e->bytes) : e->len;
    int32_t c = pqt_ds_find_col(ds, e->bytes, tl);
    if (c < 0 || c >= ds->n_cols)
      return pqt_error_set(err, PQT_EINVAL, "position %d: no column %.*s in the dataset", (int)e->pos, (int)e->len,
                           e->bytes);
    return PQT_OK;
  }
  for (int32_t i = 0; i < e->n_args; i++) {
    pqt_status st = check(ds, e->args[i], err);
    if (st != PQT_OK) return st;
  }
  return PQT_OK;
}

pqt_status pqt_ds_filter_check(const pqt_dataset *ds, const pqt_expr *e, pqt_error *err) { return check(ds, e, err); }
