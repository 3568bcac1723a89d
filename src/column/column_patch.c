/*
 * column/column_patch.c: rows of decoded column data kept, made null or
 * left out (see pqt_column_data_patch in column_reader.h). Used by error
 * recovery only: a page lost from one column costs the same rows in every
 * column of its field (null) or of the row group (left out).
 *
 * The rows are walked as segments over which nothing changes (between two
 * range ends); a kept segment is copied as a whole: its entries (levels)
 * end where the record after it starts, its values are the entries with
 * max_def.
 */
#include "column/column_reader.h"

#include "encoding/plain.h"
#include "levels/levels.h"

/* Is row r in one of the sorted, disjoint ranges? *i is a cursor that only
 * moves forward; *next is set to where the answer can change. */
static bool in_ranges(const pqt_row_range *rg, int32_t n, int32_t *i, int64_t r, int64_t *next) {
  while (*i < n && rg[*i].first + rg[*i].n <= r) (*i)++;
  if (*i >= n) {
    *next = INT64_MAX;
    return false;
  }
  if (r < rg[*i].first) {
    *next = rg[*i].first;
    return false;
  }
  *next = rg[*i].first + rg[*i].n;
  return true;
}

/* Append k null records (def 0, rep 0). */
static pqt_status put_nulls(pqt_column_data *o, int16_t max_rep, int64_t k, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&o->def, (size_t)k * 2, err));
  memset(o->def.data + o->def.len, 0, (size_t)k * 2);
  o->def.len += (size_t)k * 2;
  if (max_rep > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&o->rep, (size_t)k * 2, err));
    memset(o->rep.data + o->rep.len, 0, (size_t)k * 2);
    o->rep.len += (size_t)k * 2;
  }
  o->n_levels += k;
  o->n_rows += k;
  return PQT_OK;
}

/* Append entries [e, e2) of cd (records) and their values [v, v + nv). */
static pqt_status put_kept(pqt_column_data *o, const pqt_column_data *cd, int32_t physical_type, size_t width,
                           int16_t max_def, int16_t max_rep, int64_t e, int64_t e2, int64_t v, int64_t nv,
                           int64_t records, pqt_error *err) {
  size_t k = (size_t)(e2 - e);
  if (max_def > 0) {
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&o->def, k * 2, err));
    if (cd->def.len) {
      memcpy(o->def.data + o->def.len, cd->def.data + (size_t)e * 2, k * 2);
    } else {
      int16_t *d = (int16_t *)(void *)(o->def.data + o->def.len);
      for (size_t i = 0; i < k; i++) d[i] = max_def;
    }
    o->def.len += k * 2;
  }
  if (max_rep > 0) PQT_RETURN_NOT_OK(pqt_buf_append(&o->rep, cd->rep.data + (size_t)e * 2, k * 2, err));
  if (physical_type == PQT_BYTE_ARRAY) {
    const int32_t *src = (const int32_t *)(const void *)cd->offsets.data;
    int32_t base = src[v], len = src[v + nv] - base;
    PQT_RETURN_NOT_OK(pqt_buf_reserve(&o->offsets, (size_t)nv * 4, err));
    int32_t *dst = (int32_t *)(void *)o->offsets.data + o->n_values;
    int32_t cur = dst[0];
    for (int64_t i = 1; i <= nv; i++) dst[i] = cur + (src[v + i] - base);
    o->offsets.len = ((size_t)(o->n_values + nv) + 1) * 4;
    PQT_RETURN_NOT_OK(pqt_buf_append(&o->values, cd->values.data + base, (size_t)len, err));
  } else if (physical_type == PQT_BOOLEAN) {
    size_t bits = (size_t)(o->n_values + nv);
    size_t need = (bits + 7) / 8;
    if (need > o->values.len) {
      PQT_RETURN_NOT_OK(pqt_buf_reserve(&o->values, need - o->values.len, err));
      memset(o->values.data + o->values.len, 0, need - o->values.len);
      o->values.len = need;
    }
    pqt_copy_bits(cd->values.data, (size_t)v, o->values.data, (size_t)o->n_values, (size_t)nv);
  } else {
    PQT_RETURN_NOT_OK(pqt_buf_append(&o->values, cd->values.data + (size_t)v * width, (size_t)nv * width, err));
  }
  o->n_levels += (int64_t)k;
  o->n_values += nv;
  o->n_rows += records;
  return PQT_OK;
}

pqt_status pqt_column_data_patch(pqt_column_data *cd, int32_t physical_type, int32_t type_length, int16_t max_def,
                                 int16_t max_rep, int64_t rows, const pqt_row_range *own, int32_t n_own,
                                 const pqt_row_range *drop, int32_t n_drop, const pqt_row_range *nul, int32_t n_null,
                                 pqt_error *err) {
  size_t width = pqt_physical_width(physical_type, type_length);
  pqt_column_data o;
  pqt_column_data_init(&o, cd->values.alloc);
  pqt_status st = PQT_OK;
  if (physical_type == PQT_BYTE_ARRAY) {
    st = pqt_buf_reserve(&o.offsets, 4, err);
    if (st == PQT_OK) {
      ((int32_t *)(void *)o.offsets.data)[0] = 0;
      o.offsets.len = 4;
    }
  }
  const int16_t *rep = cd->rep.len ? (const int16_t *)(const void *)cd->rep.data : NULL;
  const int16_t *def = cd->def.len ? (const int16_t *)(const void *)cd->def.data : NULL;
  int32_t io = 0, id = 0, in = 0;
  int64_t e = 0, v = 0;
  for (int64_t r = 0; r < rows && st == PQT_OK;) {
    int64_t n1, n2, n3;
    bool is_own = in_ranges(own, n_own, &io, r, &n1);
    bool is_drop = in_ranges(drop, n_drop, &id, r, &n2);
    bool is_null = in_ranges(nul, n_null, &in, r, &n3);
    int64_t end = n1 < n2 ? n1 : n2;
    if (n3 < end) end = n3;
    if (end > rows) end = rows;
    int64_t k = end - r;
    if (is_own) {
      /* not in cd: left out, or null */
      if (!is_drop) {
        if (max_def == 0) st = pqt_error_set(err, PQT_EINVAL, "rows of a required column cannot be null");
        else st = put_nulls(&o, max_rep, k, err);
      }
    } else {
      /* the k records of cd from entry e */
      int64_t e2, got;
      if (rep) {
        e2 = e + pqt_levels_find_nth(rep + e, cd->n_levels - e, 0, k, &got);
      } else {
        e2 = e + k <= cd->n_levels ? e + k : cd->n_levels;
        got = e2 - e;
      }
      if (got != k) {
        st = pqt_corrupt(err, "column data holds fewer records than its rows");
        break;
      }
      int64_t nv = def ? pqt_levels_count_eq(def + e, e2 - e, max_def) : e2 - e;
      if (max_def == 0) nv = e2 - e;
      if (v + nv > cd->n_values) {
        st = pqt_corrupt(err, "column data holds fewer values than its levels");
        break;
      }
      if (is_drop) {
        /* left out */
      } else if (is_null) {
        if (max_def == 0) st = pqt_error_set(err, PQT_EINVAL, "rows of a required column cannot be null");
        else st = put_nulls(&o, max_rep, k, err);
      } else {
        st = put_kept(&o, cd, physical_type, width, max_def, max_rep, e, e2, v, nv, k, err);
      }
      e = e2;
      v += nv;
    }
    r = end;
  }
  if (st == PQT_OK && (e != cd->n_levels || v != cd->n_values))
    st = pqt_corrupt(err, "column data holds more records than its rows");
  if (st != PQT_OK) {
    pqt_column_data_free(&o);
    return st;
  }
  o.n_pages = cd->n_pages;
  o.page_ends = cd->page_ends;
  pqt_column_data_free(cd);
  *cd = o;
  return PQT_OK;
}
