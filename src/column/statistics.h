/*
 * column/statistics: min/max/null/NaN statistics of a page or column chunk
 * (spec: parquet.thrift `Statistics`, "ColumnOrder / TypeDefinedOrder"
 * sort orders per logical type; parquet-format PageIndex.md; parquet-format LogicalTypes.md logical
 * types' orders). Values are accumulated in their physical layout:
 * fixed width (n*width bytes, BOOLEAN one byte 0/1 per value) or byte
 * arrays (int32 offsets + data). Bounds are kept as their PLAIN bytes
 * (byte arrays: the content, without the length prefix).
 *
 * Order by kind: signed/unsigned integer compares, IEEE float order with
 * NaN excluded (counted in nan_count) and zeros written as min -0.0 /
 * max +0.0, FLOAT16 numerically, byte-wise unsigned lexicographic for
 * strings/binary/FLBA, signed big-endian two's complement for DECIMAL on
 * FLBA/BYTE_ARRAY, none for INT96, INTERVAL and geospatial types.
 * On request (meta/sort_order.h *_TOTAL kinds, PQT_SORT_INT96): IEEE 754
 * total order for floats (bounds are the smallest and largest non-NaN
 * values, -0.0 and +0.0 kept as they are; NaN bounds only when all
 * non-null values are NaN) and INT96 chronological order.
 */
#ifndef PQT_COLUMN_STATISTICS_H
#define PQT_COLUMN_STATISTICS_H

#include "core/core.h"
#include "meta/sort_order.h"
#include "thrift/parquet_types.h"

/* pqt_sort_kind, pqt_sort_kind_for, pqt_sort_kind_legacy_ok and
 * pqt_stats_compare live in meta/sort_order.h (one copy for writer, reader
 * and verify). */

typedef struct pqt_stats {
  pqt_sort_kind kind;
  size_t width; /* fixed value width in bytes, 0 for byte arrays */
  bool has_minmax;
  int64_t null_count;
  int64_t nan_count;
  int64_t n_values; /* non-null values seen */
  pqt_buf min, max; /* PLAIN bytes of the bounds */
  /* IEEE_754_TOTAL_ORDER kinds only: the smallest and largest NaN in total
   * order, written as the bounds when every non-null value is NaN. */
  bool has_nan_bounds;
  uint8_t nan_min[8], nan_max[8];
} pqt_stats;

void pqt_stats_init(pqt_stats *s, pqt_sort_kind kind, size_t width, const pqt_allocator *alloc);
void pqt_stats_free(pqt_stats *s);
void pqt_stats_reset(pqt_stats *s);
/* n fixed-width values (BOOLEAN: bytes 0/1). */
pqt_status pqt_stats_update_fixed(pqt_stats *s, const uint8_t *values, size_t n, pqt_error *err);
/* n byte arrays data[offsets[i] .. offsets[i+1]). */
pqt_status pqt_stats_update_binary(pqt_stats *s, const int32_t *offsets, const uint8_t *data, size_t n, pqt_error *err);
/* Fold src into dst (same kind). */
pqt_status pqt_stats_merge(pqt_stats *dst, const pqt_stats *src, pqt_error *err);

/* The bounds as written: zeros normalized (min -0.0, max +0.0), byte-wise
 * kinds truncated to trunc_len bytes (0 = never; a max that cannot be
 * incremented stays exact). utf8 keeps the cut on a character boundary.
 * Appends min to out_min and max to out_max; sets exactness. Returns false
 * (nothing appended) when there are no bounds. */
bool pqt_stats_bounds(const pqt_stats *s, int32_t trunc_len, bool utf8, pqt_buf *out_min, pqt_buf *out_max,
                      bool *min_exact, bool *max_exact, pqt_error *err);

#endif
