/*
 * meta/sort_order: the one place that decides how the values of a column
 * are ordered, for the writer's statistics, page index and Bloom filter
 * choices, the reader's pruning, `meta`/`pages` and `verify` alike (spec:
 * parquet.thrift ColumnOrder TYPE_ORDER, the sort order of each logical
 * type in LogicalTypes.md; LogicalTypes.md and README.md).
 *
 * Values are compared in their PLAIN bytes (byte arrays without the length
 * prefix; BOOLEAN as one byte 0/1): signed or unsigned integers, IEEE
 * floats (NaN is not ordered; -0 and +0 compare equal), FLOAT16
 * numerically, unsigned lexicographic bytes for strings, binaries and
 * FIXED_LEN_BYTE_ARRAY, signed big-endian two's complement for DECIMAL on
 * BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY, and no order for INT96, INTERVAL,
 * GEOMETRY, GEOGRAPHY, VARIANT and UNKNOWN.
 */
#ifndef PQT_META_SORT_ORDER_H
#define PQT_META_SORT_ORDER_H

#include "core/core.h"
#include "thrift/parquet_types.h"

typedef enum pqt_sort_kind {
  PQT_SORT_NONE = 0,
  PQT_SORT_BOOL,
  PQT_SORT_I32,
  PQT_SORT_U32,
  PQT_SORT_I64,
  PQT_SORT_U64,
  PQT_SORT_FLOAT,
  PQT_SORT_DOUBLE,
  PQT_SORT_FLOAT16,
  PQT_SORT_BYTES,     /* unsigned lexicographic */
  PQT_SORT_DECIMAL_BE, /* signed big-endian two's complement */
  /* ColumnOrder IEEE_754_TOTAL_ORDER (parquet.thrift, union ColumnOrder
   * field 2: IEEE 754-2008 section 5.10 totalOrder): -NaN < -Inf < ... < -0
   * < +0 < ... < +Inf < +NaN, NaNs ordered by their bits. Chosen by the
   * writer on request; pqt_sort_kind_for never answers these. */
  PQT_SORT_FLOAT_TOTAL,
  PQT_SORT_DOUBLE_TOTAL,
  PQT_SORT_FLOAT16_TOTAL,
  /* ColumnOrder INT96_TIMESTAMP_ORDER (parquet.thrift, union ColumnOrder,
   * note (+)): days (bytes 8..12, little-endian signed) then nanos (bytes
   * 0..8, little-endian signed). */
  PQT_SORT_INT96
} pqt_sort_kind;

/* Whether the kind orders FLOAT, DOUBLE or FLOAT16 values (either order). */
bool pqt_sort_kind_is_float(pqt_sort_kind k);
/* The total-order kind of a float kind (others unchanged). */
pqt_sort_kind pqt_sort_kind_total(pqt_sort_kind k);

/* The order statistics use for a leaf of this physical type and annotation
 * (logical may be NULL; converted_type -1 when absent). */
pqt_sort_kind pqt_sort_kind_for(int32_t physical, const pqt_logical_type *logical, int32_t converted_type);
/* True when the legacy signed min/max fields hold the same order. */
bool pqt_sort_kind_legacy_ok(pqt_sort_kind k);

/* Compare two encoded values of this kind (<0, 0, >0). Both must be
 * well-formed values of the kind (pqt_sort_value_ordered): fixed-width
 * kinds read their width without checking the lengths. */
int pqt_stats_compare(pqt_sort_kind k, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* Whether p[0..n) is a value the kind orders: the kind has an order, the
 * length is the kind's width (BOOL 1, I32/U32/FLOAT 4, I64/U64/DOUBLE 8,
 * FLOAT16 2; byte kinds any length), and it is not a NaN. */
bool pqt_sort_value_ordered(pqt_sort_kind k, const uint8_t *p, size_t n);

/* Whether p[0..n) is a NaN of a FLOAT, DOUBLE or FLOAT16 kind. */
bool pqt_sort_value_is_nan(pqt_sort_kind k, const uint8_t *p, size_t n);

#endif
