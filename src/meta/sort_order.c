/* meta/sort_order: see sort_order.h. */
#include "meta/sort_order.h"

#include "meta/value_format.h"

pqt_sort_kind pqt_sort_kind_for(int32_t physical, const pqt_logical_type *lt, int32_t ct) {
  int l = lt ? pqt_union_which(lt->isset) : 0;
  if (l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY || l == PQT_LT_VARIANT || l == PQT_LT_UNKNOWN) return PQT_SORT_NONE;
  if (ct == PQT_CT_INTERVAL) return PQT_SORT_NONE;
  switch (physical) {
    case PQT_BOOLEAN: return PQT_SORT_BOOL;
    case PQT_INT32:
      if (l == PQT_LT_INTEGER && !lt->integer.is_signed) return PQT_SORT_U32;
      if (l == 0 && (ct == PQT_CT_UINT_8 || ct == PQT_CT_UINT_16 || ct == PQT_CT_UINT_32)) return PQT_SORT_U32;
      return PQT_SORT_I32;
    case PQT_INT64:
      if (l == PQT_LT_INTEGER && !lt->integer.is_signed) return PQT_SORT_U64;
      if (l == 0 && ct == PQT_CT_UINT_64) return PQT_SORT_U64;
      return PQT_SORT_I64;
    case PQT_INT96: return PQT_SORT_NONE;
    case PQT_FLOAT: return PQT_SORT_FLOAT;
    case PQT_DOUBLE: return PQT_SORT_DOUBLE;
    case PQT_BYTE_ARRAY:
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (l == PQT_LT_DECIMAL || (l == 0 && ct == PQT_CT_DECIMAL)) return PQT_SORT_DECIMAL_BE;
      if (l == PQT_LT_FLOAT16 && physical == PQT_FIXED_LEN_BYTE_ARRAY) return PQT_SORT_FLOAT16;
      return PQT_SORT_BYTES;
    default: return PQT_SORT_NONE;
  }
}

bool pqt_sort_kind_legacy_ok(pqt_sort_kind k) {
  return k == PQT_SORT_BOOL || k == PQT_SORT_I32 || k == PQT_SORT_I64 || k == PQT_SORT_FLOAT || k == PQT_SORT_DOUBLE;
}

/* Signed big-endian two's complement of possibly different lengths. */
static int cmp_decimal_be(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  bool an = alen && (a[0] & 0x80), bn = blen && (b[0] & 0x80);
  if (an != bn) return an ? -1 : 1;
  uint8_t fill = an ? 0xFF : 0x00;
  size_t n = alen > blen ? alen : blen;
  for (size_t i = 0; i < n; i++) {
    uint8_t x = i + alen >= n ? a[i + alen - n] : fill;
    uint8_t y = i + blen >= n ? b[i + blen - n] : fill;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

static int cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c;
  return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* IEEE 754-2008 section 5.10 totalOrder as a signed integer key: the bits
 * as a signed integer, with the magnitude bits flipped when the sign is
 * set (so more negative values, and -NaNs with larger payloads, sort lower). */
static int64_t total_key(pqt_sort_kind k, const uint8_t *p) {
  if (k == PQT_SORT_DOUBLE_TOTAL) {
    int64_t x = (int64_t)pqt_load_u64le(p);
    return x < 0 ? x ^ INT64_MAX : x;
  }
  if (k == PQT_SORT_FLOAT_TOTAL) {
    int32_t x = (int32_t)pqt_load_u32le(p);
    return x < 0 ? x ^ INT32_MAX : x;
  }
  int16_t x = (int16_t)pqt_load_u16le(p);
  return x < 0 ? x ^ INT16_MAX : x;
}

int pqt_stats_compare(pqt_sort_kind k, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  switch (k) {
    case PQT_SORT_BOOL: return (int)a[0] - (int)b[0];
    case PQT_SORT_I32: {
      int32_t x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      return (x > y) - (x < y);
    }
    case PQT_SORT_U32: {
      uint32_t x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      return (x > y) - (x < y);
    }
    case PQT_SORT_I64: {
      int64_t x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return (x > y) - (x < y);
    }
    case PQT_SORT_U64: {
      uint64_t x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return (x > y) - (x < y);
    }
    case PQT_SORT_FLOAT: {
      float x, y;
      memcpy(&x, a, 4);
      memcpy(&y, b, 4);
      return (x > y) - (x < y);
    }
    case PQT_SORT_DOUBLE: {
      double x, y;
      memcpy(&x, a, 8);
      memcpy(&y, b, 8);
      return (x > y) - (x < y);
    }
    case PQT_SORT_FLOAT16: {
      double x = pqt_float16_to_double(pqt_load_u16le(a)), y = pqt_float16_to_double(pqt_load_u16le(b));
      return (x > y) - (x < y);
    }
    case PQT_SORT_DECIMAL_BE: return cmp_decimal_be(a, alen, b, blen);
    case PQT_SORT_BYTES: return cmp_bytes(a, alen, b, blen);
    case PQT_SORT_FLOAT_TOTAL:
    case PQT_SORT_DOUBLE_TOTAL:
    case PQT_SORT_FLOAT16_TOTAL: {
      int64_t x = total_key(k, a), y = total_key(k, b);
      return (x > y) - (x < y);
    }
    case PQT_SORT_INT96: {
      int32_t da = (int32_t)pqt_load_u32le(a + 8), db = (int32_t)pqt_load_u32le(b + 8);
      if (da != db) return (da > db) - (da < db);
      int64_t na = (int64_t)pqt_load_u64le(a), nb = (int64_t)pqt_load_u64le(b);
      return (na > nb) - (na < nb);
    }
    default: return 0;
  }
}

bool pqt_sort_value_is_nan(pqt_sort_kind k, const uint8_t *p, size_t n) {
  if (k == PQT_SORT_FLOAT_TOTAL || k == PQT_SORT_DOUBLE_TOTAL || k == PQT_SORT_FLOAT16_TOTAL)
    k = (pqt_sort_kind)(PQT_SORT_FLOAT + (k - PQT_SORT_FLOAT_TOTAL));
  if (k == PQT_SORT_FLOAT && n == 4) {
    uint32_t b = pqt_load_u32le(p);
    return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu);
  }
  if (k == PQT_SORT_DOUBLE && n == 8) {
    uint64_t b = pqt_load_u64le(p);
    return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0x000FFFFFFFFFFFFFull);
  }
  if (k == PQT_SORT_FLOAT16 && n == 2) {
    uint16_t b = pqt_load_u16le(p);
    return (b & 0x7C00) == 0x7C00 && (b & 0x03FF);
  }
  return false;
}

bool pqt_sort_value_ordered(pqt_sort_kind k, const uint8_t *p, size_t n) {
  switch (k) {
    case PQT_SORT_BOOL: return n == 1;
    case PQT_SORT_I32:
    case PQT_SORT_U32: return n == 4;
    case PQT_SORT_I64:
    case PQT_SORT_U64: return n == 8;
    case PQT_SORT_FLOAT: return n == 4 && !pqt_sort_value_is_nan(k, p, n);
    case PQT_SORT_DOUBLE: return n == 8 && !pqt_sort_value_is_nan(k, p, n);
    case PQT_SORT_FLOAT16: return n == 2 && !pqt_sort_value_is_nan(k, p, n);
    /* total order: every bit pattern, NaNs too, has its place */
    case PQT_SORT_FLOAT_TOTAL: return n == 4;
    case PQT_SORT_DOUBLE_TOTAL: return n == 8;
    case PQT_SORT_FLOAT16_TOTAL: return n == 2;
    case PQT_SORT_INT96: return n == 12;
    case PQT_SORT_BYTES:
    case PQT_SORT_DECIMAL_BE: return true;
    default: return false;
  }
}

bool pqt_sort_kind_is_float(pqt_sort_kind k) {
  return k == PQT_SORT_FLOAT || k == PQT_SORT_DOUBLE || k == PQT_SORT_FLOAT16 || k == PQT_SORT_FLOAT_TOTAL ||
         k == PQT_SORT_DOUBLE_TOTAL || k == PQT_SORT_FLOAT16_TOTAL;
}

pqt_sort_kind pqt_sort_kind_total(pqt_sort_kind k) {
  switch (k) {
    case PQT_SORT_FLOAT: return PQT_SORT_FLOAT_TOTAL;
    case PQT_SORT_DOUBLE: return PQT_SORT_DOUBLE_TOTAL;
    case PQT_SORT_FLOAT16: return PQT_SORT_FLOAT16_TOTAL;
    default: return k;
  }
}
