/*
 * column/statistics: page and column-chunk statistics (parquet.thrift
 * `Statistics`, ColumnOrder TYPE_ORDER; parquet-format PageIndex.md and the sort
 * orders of parquet-format LogicalTypes.md logical types). See statistics.h.
 */
#include "column/statistics.h"

#include <math.h>

#include "meta/value_format.h"

void pqt_stats_init(pqt_stats *s, pqt_sort_kind kind, size_t width, const pqt_allocator *alloc) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->width = width;
  pqt_buf_init(&s->min, alloc);
  pqt_buf_init(&s->max, alloc);
}

void pqt_stats_free(pqt_stats *s) {
  pqt_buf_free(&s->min);
  pqt_buf_free(&s->max);
}

void pqt_stats_reset(pqt_stats *s) {
  s->has_minmax = false;
  s->null_count = s->nan_count = s->n_values = 0;
  s->has_nan_bounds = false;
  pqt_buf_clear(&s->min);
  pqt_buf_clear(&s->max);
}

static pqt_status set_buf(pqt_buf *b, const void *p, size_t n, pqt_error *err) {
  pqt_buf_clear(b);
  return pqt_buf_append(b, p, n, err);
}

/* Fold one candidate pair (already min/max of a batch) into s. */
static pqt_status fold(pqt_stats *s, const uint8_t *mn, size_t mnl, const uint8_t *mx, size_t mxl, pqt_error *err) {
  if (!s->has_minmax) {
    PQT_RETURN_NOT_OK(set_buf(&s->min, mn, mnl, err));
    PQT_RETURN_NOT_OK(set_buf(&s->max, mx, mxl, err));
    s->has_minmax = true;
    return PQT_OK;
  }
  if (pqt_stats_compare(s->kind, mn, mnl, s->min.data, s->min.len) < 0)
    PQT_RETURN_NOT_OK(set_buf(&s->min, mn, mnl, err));
  if (pqt_stats_compare(s->kind, mx, mxl, s->max.data, s->max.len) > 0)
    PQT_RETURN_NOT_OK(set_buf(&s->max, mx, mxl, err));
  return PQT_OK;
}

#define MINMAX_LOOP(T)                                                                     \
  do {                                                                                     \
    T lo, hi;                                                                              \
    memcpy(&lo, values, sizeof(T));                                                        \
    hi = lo;                                                                               \
    for (size_t i = 1; i < n; i++) {                                                       \
      T v;                                                                                 \
      memcpy(&v, values + i * sizeof(T), sizeof(T));                                       \
      lo = v < lo ? v : lo;                                                                \
      hi = v > hi ? v : hi;                                                                \
    }                                                                                      \
    return fold(s, (const uint8_t *)&lo, sizeof(T), (const uint8_t *)&hi, sizeof(T), err); \
  } while (0)

/* Fold a NaN pair (total-order kinds) into s's NaN bounds. */
static void fold_nan(pqt_stats *s, const uint8_t *lo, const uint8_t *hi) {
  size_t w = s->width;
  if (!s->has_nan_bounds || pqt_stats_compare(s->kind, lo, w, s->nan_min, w) < 0) memcpy(s->nan_min, lo, w);
  if (!s->has_nan_bounds || pqt_stats_compare(s->kind, hi, w, s->nan_max, w) > 0) memcpy(s->nan_max, hi, w);
  s->has_nan_bounds = true;
}

/* IEEE_754_TOTAL_ORDER (parquet.thrift, union ColumnOrder field 2): min
 * and max are the smallest and largest non-NaN values in total order
 * (-0.0 < +0.0); NaNs are counted and kept apart, for a page or chunk of
 * only NaNs. */
static pqt_status update_total(pqt_stats *s, const uint8_t *values, size_t n, pqt_error *err) {
  size_t w = s->width;
  const uint8_t *lo = NULL, *hi = NULL, *nlo = NULL, *nhi = NULL;
  for (size_t i = 0; i < n; i++) {
    const uint8_t *v = values + i * w;
    bool nan = pqt_sort_value_is_nan(s->kind, v, w);
    const uint8_t **a = nan ? &nlo : &lo, **b = nan ? &nhi : &hi;
    if (nan) s->nan_count++;
    if (!*a) {
      *a = *b = v;
      continue;
    }
    if (pqt_stats_compare(s->kind, v, w, *a, w) < 0) *a = v;
    if (pqt_stats_compare(s->kind, v, w, *b, w) > 0) *b = v;
  }
  if (nlo) fold_nan(s, nlo, nhi);
  if (!lo) return PQT_OK;
  return fold(s, lo, w, hi, w, err);
}

pqt_status pqt_stats_update_fixed(pqt_stats *s, const uint8_t *values, size_t n, pqt_error *err) {
  s->n_values += (int64_t)n;
  if (n == 0 || s->kind == PQT_SORT_NONE) return PQT_OK;
  switch (s->kind) {
    case PQT_SORT_FLOAT_TOTAL:
    case PQT_SORT_DOUBLE_TOTAL:
    case PQT_SORT_FLOAT16_TOTAL: return update_total(s, values, n, err);
    case PQT_SORT_BOOL: {
      uint8_t lo = 1, hi = 0;
      for (size_t i = 0; i < n; i++) {
        uint8_t v = values[i] != 0;
        lo &= v;
        hi |= v;
      }
      return fold(s, &lo, 1, &hi, 1, err);
    }
    case PQT_SORT_I32: MINMAX_LOOP(int32_t);
    case PQT_SORT_U32: MINMAX_LOOP(uint32_t);
    case PQT_SORT_I64: MINMAX_LOOP(int64_t);
    case PQT_SORT_U64: MINMAX_LOOP(uint64_t);
    case PQT_SORT_FLOAT:
    case PQT_SORT_DOUBLE: {
      bool dbl = s->kind == PQT_SORT_DOUBLE;
      double lo = INFINITY, hi = -INFINITY;
      bool any = false;
      int64_t nans = 0;
      for (size_t i = 0; i < n; i++) {
        double v;
        if (dbl) memcpy(&v, values + i * 8, 8);
        else {
          float f;
          memcpy(&f, values + i * 4, 4);
          v = f;
        }
        if (v != v) {
          nans++;
          continue;
        }
        any = true;
        if (v < lo || (v == 0 && lo == 0 && signbit(v))) lo = v;
        if (v > hi || (v == 0 && hi == 0 && !signbit(v))) hi = v;
      }
      s->nan_count += nans;
      if (!any) return PQT_OK;
      if (dbl) return fold(s, (const uint8_t *)&lo, 8, (const uint8_t *)&hi, 8, err);
      float flo = (float)lo, fhi = (float)hi;
      return fold(s, (const uint8_t *)&flo, 4, (const uint8_t *)&fhi, 4, err);
    }
    default: {
      /* FLOAT16, BYTES and DECIMAL on FLBA: compare value by value. */
      size_t w = s->width;
      const uint8_t *lo = NULL, *hi = NULL;
      for (size_t i = 0; i < n; i++) {
        const uint8_t *v = values + i * w;
        if (s->kind == PQT_SORT_FLOAT16) {
          double f = pqt_float16_to_double(pqt_load_u16le(v));
          if (f != f) {
            s->nan_count++;
            continue;
          }
        }
        if (!lo) {
          lo = hi = v;
          continue;
        }
        if (pqt_stats_compare(s->kind, v, w, lo, w) < 0) lo = v;
        if (pqt_stats_compare(s->kind, v, w, hi, w) > 0) hi = v;
      }
      if (!lo) return PQT_OK;
      return fold(s, lo, w, hi, w, err);
    }
  }
}

/* The first 8 bytes of v (zero padded) as a big-endian number: when two
 * values' prefixes differ, they order as the values do bytewise (unsigned);
 * when equal, the values must be compared whole. */
static inline uint64_t load_be64(const uint8_t *p) { return __builtin_bswap64(pqt_load_u64le(p)); }

static inline uint64_t bytes_prefix(const uint8_t *v, size_t l) {
  if (l >= 8) return load_be64(v);
  uint8_t b[8] = {0};
  if (l) memcpy(b, v, l);
  return load_be64(b);
}

/* Bytewise (PQT_SORT_BYTES) min and max indexes of n byte arrays, with
 * their prefixes deciding most comparisons. */
static void minmax_bytes(const int32_t *offsets, const uint8_t *data, size_t n, size_t *lo_out, size_t *hi_out) {
  size_t lo = 0, hi = 0;
  uint64_t plo = bytes_prefix(data + offsets[0], (size_t)(offsets[1] - offsets[0])), phi = plo;
  for (size_t i = 1; i < n; i++) {
    const uint8_t *v = data + offsets[i];
    size_t vl = (size_t)(offsets[i + 1] - offsets[i]);
    uint64_t p = bytes_prefix(v, vl);
    if (p < plo ||
        (p == plo && pqt_stats_compare(PQT_SORT_BYTES, v, vl, data + offsets[lo],
                                       (size_t)(offsets[lo + 1] - offsets[lo])) < 0)) {
      lo = i;
      plo = p;
    } else if (p > phi || (p == phi && pqt_stats_compare(PQT_SORT_BYTES, v, vl, data + offsets[hi],
                                                         (size_t)(offsets[hi + 1] - offsets[hi])) > 0)) {
      hi = i;
      phi = p;
    }
  }
  *lo_out = lo;
  *hi_out = hi;
}

pqt_status pqt_stats_update_binary(pqt_stats *s, const int32_t *offsets, const uint8_t *data, size_t n,
                                   pqt_error *err) {
  s->n_values += (int64_t)n;
  if (n == 0 || s->kind == PQT_SORT_NONE) return PQT_OK;
  size_t lo = 0, hi = 0;
  if (s->kind == PQT_SORT_BYTES) {
    minmax_bytes(offsets, data, n, &lo, &hi);
  } else {
    for (size_t i = 1; i < n; i++) {
      const uint8_t *v = data + offsets[i];
      size_t vl = (size_t)(offsets[i + 1] - offsets[i]);
      if (pqt_stats_compare(s->kind, v, vl, data + offsets[lo], (size_t)(offsets[lo + 1] - offsets[lo])) < 0) lo = i;
      else if (pqt_stats_compare(s->kind, v, vl, data + offsets[hi], (size_t)(offsets[hi + 1] - offsets[hi])) > 0)
        hi = i;
    }
  }
  return fold(s, data + offsets[lo], (size_t)(offsets[lo + 1] - offsets[lo]), data + offsets[hi],
              (size_t)(offsets[hi + 1] - offsets[hi]), err);
}

pqt_status pqt_stats_merge(pqt_stats *dst, const pqt_stats *src, pqt_error *err) {
  dst->null_count += src->null_count;
  dst->nan_count += src->nan_count;
  dst->n_values += src->n_values;
  if (src->has_nan_bounds) fold_nan(dst, src->nan_min, src->nan_max);
  if (!src->has_minmax) return PQT_OK;
  return fold(dst, src->min.data, src->min.len, src->max.data, src->max.len, err);
}

/* Length of the longest prefix of p[0..len) that is at most lim bytes and
 * ends on a UTF-8 character boundary. */
static size_t utf8_cut(const uint8_t *p, size_t len, size_t lim) {
  if (len <= lim) return len;
  size_t k = lim;
  while (k > 0 && (p[k] & 0xC0) == 0x80) k--;
  return k;
}

bool pqt_stats_bounds(const pqt_stats *s, int32_t trunc_len, bool utf8, pqt_buf *out_min, pqt_buf *out_max,
                      bool *min_exact, bool *max_exact, pqt_error *err) {
  *min_exact = *max_exact = true;
  if (!s->has_minmax && s->has_nan_bounds) { /* total order, all NaN: the NaN bounds */
    if (pqt_buf_append(out_min, s->nan_min, s->width, err) != PQT_OK) return false;
    return pqt_buf_append(out_max, s->nan_max, s->width, err) == PQT_OK;
  }
  if (!s->has_minmax || s->kind == PQT_SORT_NONE) return false;
  const uint8_t *mn = s->min.data, *mx = s->max.data;
  size_t mnl = s->min.len, mxl = s->max.len;
  uint8_t zbuf[2][8];
  if (s->kind == PQT_SORT_FLOAT || s->kind == PQT_SORT_DOUBLE) {
    size_t w = s->kind == PQT_SORT_FLOAT ? 4 : 8;
    double a, b;
    if (w == 4) {
      float f;
      memcpy(&f, mn, 4);
      a = f;
      memcpy(&f, mx, 4);
      b = f;
    } else {
      memcpy(&a, mn, 8);
      memcpy(&b, mx, 8);
    }
    if (a == 0) {
      if (w == 4) {
        float z = -0.0f;
        memcpy(zbuf[0], &z, 4);
      } else {
        double z = -0.0;
        memcpy(zbuf[0], &z, 8);
      }
      mn = zbuf[0];
    }
    if (b == 0) {
      if (w == 4) {
        float z = 0.0f;
        memcpy(zbuf[1], &z, 4);
      } else {
        double z = 0.0;
        memcpy(zbuf[1], &z, 8);
      }
      mx = zbuf[1];
    }
  } else if (s->kind == PQT_SORT_FLOAT16) {
    if (pqt_float16_to_double(pqt_load_u16le(mn)) == 0) {
      zbuf[0][0] = 0;
      zbuf[0][1] = 0x80;
      mn = zbuf[0];
    }
    if (pqt_float16_to_double(pqt_load_u16le(mx)) == 0) {
      zbuf[1][0] = 0;
      zbuf[1][1] = 0;
      mx = zbuf[1];
    }
  }
  if (s->kind == PQT_SORT_BYTES && trunc_len > 0) {
    size_t lim = (size_t)trunc_len;
    if (mnl > lim) {
      mnl = utf8 ? utf8_cut(mn, mnl, lim) : lim;
      *min_exact = false;
    }
    if (mxl > lim) {
      /* Keep a prefix and increment its last byte that can grow. */
      size_t k = utf8 ? utf8_cut(mx, mxl, lim) : lim;
      while (k > 0) {
        uint8_t last = mx[k - 1];
        if (utf8 ? last < 0x7F : last < 0xFF) break;
        k--; /* drop that byte (utf8: the whole character it belongs to) */
        if (utf8)
          while (k > 0 && (mx[k] & 0xC0) == 0x80) k--;
      }
      if (k > 0) {
        if (pqt_buf_append(out_min, mn, mnl, err) != PQT_OK) return false;
        if (pqt_buf_append(out_max, mx, k, err) != PQT_OK) return false;
        out_max->data[out_max->len - 1]++;
        *max_exact = false;
        return true;
      }
    }
  }
  if (pqt_buf_append(out_min, mn, mnl, err) != PQT_OK) return false;
  if (pqt_buf_append(out_max, mx, mxl, err) != PQT_OK) return false;
  return true;
}
