/*
 * inspect/verify.c: pqt_reader_verify, a full check of a file, reporting
 * every problem found rather than stopping at the first:
 *   - every page of every column chunk: header, CRC, decompression, and
 *     decoding of levels and values (the reader's own decoders);
 *   - the chunk's value count against its metadata;
 *   - chunk statistics against the decoded data: null_count (flat
 *     columns), min/max as bounds of the values in the column's sort order
 *     (exact when is_min/max_value_exact says so);
 *   - the offset index against the pages actually found;
 *   - the column index against each data page's decoded levels and values:
 *     entry count, null_pages, null_counts, nan_counts, min/max bounds,
 *     boundary_order, and the level histograms;
 *   - the Bloom filter: every value of the chunk must be in it;
 *   - GeospatialStatistics: the type list equals the values' and the box
 *     holds every value (see check_geo_statistics).
 * Spec: "Checksumming", "Statistics" and "Page Index" sections, and the
 * ColumnOrder rules of parquet.thrift.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "column/column_reader.h"
#include "crypto/crypto.h"
#include "scan/row_group.h"
#include "meta/bloom.h"
#include "meta/sort_order.h"
#include "page/page_reader.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct vctx {
  pqt_reader *r;
  pqt_buf out;
  int64_t problems;
  pqt_write_fn write;
  void *ctx;
  int32_t budget;    /* lines still printed (-1: no limit); past it problems are only counted */
  int64_t unprinted; /* problems counted but not printed */
  int64_t unchecked; /* things not checked for lack of a key */
} vctx;

static void problem(vctx *v, int32_t g, const char *col, const char *fmt, ...) PQT_PRINTF(4, 5);
static void problem(vctx *v, int32_t g, const char *col, const char *fmt, ...) {
  v->problems++;
  if (v->budget == 0) {
    v->unprinted++;
    return;
  }
  if (v->budget > 0) v->budget--;
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (g >= 0) pqt_buf_printf(&v->out, NULL, "row group %d, column %s: %s\n", g, col, msg);
  else pqt_buf_printf(&v->out, NULL, "%s\n", msg);
}

/* The column's sort order (meta/sort_order.h: the writer's too). */
static pqt_sort_kind sort_kind(const pqt_schema_node *leaf) {
  return pqt_sort_kind_for(leaf->physical_type, &leaf->logical, leaf->converted_type);
}

/* -1, 0, 1 comparing two plain-encoded values in the column's sort order;
 * 2 when either is not ordered (the type has no order, a NaN, a length
 * that is not the type's). */
static int compare_values(const pqt_schema_node *leaf, const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  pqt_sort_kind k = sort_kind(leaf);
  if (!pqt_sort_value_ordered(k, a, an) || !pqt_sort_value_ordered(k, b, bn)) return 2;
  int c = pqt_stats_compare(k, a, an, b, bn);
  return (c > 0) - (c < 0);
}

static const uint8_t bool_vals[2] = {0, 1};

/* Dense value i of cd as plain-encoded bytes (BOOLEAN as one byte 0/1). */
static const uint8_t *value_at(const pqt_schema_node *leaf, const pqt_column_data *cd, int64_t i, size_t *n) {
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
    *n = (size_t)(o[i + 1] - o[i]);
    return cd->values.data + o[i];
  }
  if (leaf->physical_type == PQT_BOOLEAN) {
    *n = 1;
    return &bool_vals[(cd->values.data[i >> 3] >> (i & 7)) & 1];
  }
  *n = pqt_physical_width(leaf->physical_type, leaf->type_length);
  return pqt_column_values(cd) + (size_t)i * *n;
}

typedef struct value_ref {
  const uint8_t *p;
  size_t n;
} value_ref;

/* The smallest and largest of the dense values [from, to) in the column's
 * sort order, NaNs left out. false when the type has no order or no value
 * is ordered (none, or only NaNs). */
static bool value_range(const pqt_schema_node *leaf, const pqt_column_data *cd, int64_t from, int64_t to, value_ref *mn,
                        value_ref *mx) {
  pqt_sort_kind k = sort_kind(leaf);
  mn->p = mx->p = NULL;
  mn->n = mx->n = 0;
  for (int64_t i = from; i < to; i++) {
    size_t n;
    const uint8_t *p = value_at(leaf, cd, i, &n);
    if (!pqt_sort_value_ordered(k, p, n)) {
      if (pqt_sort_value_is_nan(k, p, n)) continue; /* NaN: not ordered */
      return false;                                 /* no order */
    }
    if (!mn->p || pqt_stats_compare(k, p, n, mn->p, mn->n) < 0) *mn = (value_ref){p, n};
    if (!mx->p || pqt_stats_compare(k, p, n, mx->p, mx->n) > 0) *mx = (value_ref){p, n};
  }
  return mn->p != NULL;
}

static void check_statistics(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_column_metadata *cm,
                             const pqt_column_data *cd) {
  const pqt_statistics *s = &cm->statistics;
  if (!PQT_HAS_FIELD(cm, column_metadata, statistics)) return;
  if (PQT_HAS_FIELD(s, statistics, null_count) && leaf->max_rep == 0) {
    int64_t nulls = cd->n_levels - cd->n_values;
    if (s->null_count != nulls)
      problem(v, g, leaf->dotted_path, "statistics say %lld nulls, the data has %lld", (long long)s->null_count,
              (long long)nulls);
  }
  bool typed_order = PQT_HAS_FIELD(s, statistics, max_value) || PQT_HAS_FIELD(s, statistics, min_value);
  if (!typed_order || cd->n_values == 0) return;
  /* min_value/max_value follow FileMetaData.column_orders; without it their
   * meaning is undefined (parquet.thrift), so they are not judged (as for
   * the column index below). */
  int32_t col = leaf->column_index;
  const pqt_file_metadata *md = &v->r->md;
  int order = col >= 0 && col < md->column_orders.n ? pqt_union_which(md->column_orders.items[col].isset) : 0;
  if (order != PQT_ORDER_TYPE && order != PQT_ORDER_IEEE_754_TOTAL) return;
  /* the actual min and max over the decoded values */
  value_ref mn, mx;
  if (!value_range(leaf, cd, 0, cd->n_values, &mn, &mx)) return; /* no order, or only NaNs */
  if (PQT_HAS_FIELD(s, statistics, min_value)) {
    int c = compare_values(leaf, s->min_value.ptr, (size_t)s->min_value.len, mn.p, mn.n);
    bool exact = PQT_HAS_FIELD(s, statistics, is_min_value_exact) && s->is_min_value_exact;
    if (c == 1 || (exact && c == -1))
      problem(v, g, leaf->dotted_path, "statistics min_value is %s the smallest value", c == 1 ? "above" : "not");
  }
  if (PQT_HAS_FIELD(s, statistics, max_value)) {
    int c = compare_values(leaf, s->max_value.ptr, (size_t)s->max_value.len, mx.p, mx.n);
    bool exact = PQT_HAS_FIELD(s, statistics, is_max_value_exact) && s->is_max_value_exact;
    if (c == -1 || (exact && c == 1))
      problem(v, g, leaf->dotted_path, "statistics max_value is %s the largest value", c == -1 ? "below" : "not");
  }
}

/* ---- GeospatialStatistics ---- */

/* Does the file's X range [f0, f1] (f0 > f1 wraps) hold [v0, v1] (may wrap), within tol? */
static bool geo_x_holds(double f0, double f1, double v0, double v1, double tol) {
  if (f0 <= f1) {
    if (f0 <= -180.0 + tol && f1 >= 180.0 - tol && v0 >= f0 - tol && v1 <= f1 + tol) return true; /* whole circle */
    return v0 <= v1 && v0 >= f0 - tol && v1 <= f1 + tol;
  }
  if (v0 <= v1) return v0 >= f0 - tol || v1 <= f1 + tol;
  return v0 >= f0 - tol && v1 <= f1 + tol;
}

/*
 * The chunk's GeospatialStatistics against its values: the type list must
 * equal the sorted unique codes of the values; every value's box (its
 * vertices, and for GEOGRAPHY its edges' bulge and the poles its rings
 * enclose, see src/geo/bbox.c) must lie in the file's box, Z and M too;
 * a box over values that have no X and Y is a problem. A box larger than
 * needed is not (writers pad: S2 pads outwards), nor a missing box.
 * Tolerance: exact for GEOMETRY, 1e-9 degrees for spherical GEOGRAPHY
 * (other writers compute through unit vectors), 0.25 degrees for the
 * ellipsoidal edge algorithms (their edges are not great circles).
 */
static void check_geo_statistics(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_column_metadata *cm,
                                 const pqt_column_data *cd) {
  int l = pqt_union_which(leaf->logical.isset);
  if (leaf->physical_type != PQT_BYTE_ARRAY || (l != PQT_LT_GEOMETRY && l != PQT_LT_GEOGRAPHY)) return;
  if (!PQT_HAS_FIELD(cm, column_metadata, geospatial_statistics)) return;
  const pqt_geospatial_statistics *gs = &cm->geospatial_statistics;
  pqt_geo_edges edges = PQT_GEO_EDGES_PLANAR;
  double tol = 0;
  if (l == PQT_LT_GEOGRAPHY) {
    bool ell = PQT_HAS_FIELD(&leaf->logical.geography, geography_type, algorithm) &&
               leaf->logical.geography.algorithm != PQT_EDGE_SPHERICAL;
    edges = PQT_GEO_EDGES_GEOGRAPHY;
    tol = ell ? 0.25 : 1e-9;
  }
  pqt_geo_bbox all;
  pqt_geo_bbox_init(&all, edges);
  const pqt_bounding_box *f = &gs->bbox;
  bool has_box = PQT_HAS_FIELD(gs, geospatial_statistics, bbox);
  bool fz = has_box && PQT_HAS_FIELD(f, bounding_box, zmin) && PQT_HAS_FIELD(f, bounding_box, zmax);
  bool fm = has_box && PQT_HAS_FIELD(f, bounding_box, mmin) && PQT_HAS_FIELD(f, bounding_box, mmax);
  int64_t outside = 0, first = -1, bad = 0;
  const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
  for (int64_t i = 0; i < cd->n_values; i++) {
    pqt_geo_bbox b;
    pqt_geo_bbox_init(&b, edges);
    pqt_error e;
    const uint8_t *p = cd->values.data + o[i];
    size_t n = (size_t)(o[i + 1] - o[i]);
    if (pqt_geo_bbox_add_wkb(&b, p, n, &e) != PQT_OK) {
      if (bad++ == 0) problem(v, g, leaf->dotted_path, "value %lld is not valid WKB: %s", (long long)i, e.message);
      continue;
    }
    pqt_geo_bbox_merge(&all, &b, NULL);
    pqt_geo_bbox_result(&b);
    if (!has_box) continue;
    bool in = true;
    if (b.has_xy)
      in = b.ymin >= f->ymin - tol && b.ymax <= f->ymax + tol && geo_x_holds(f->xmin, f->xmax, b.xmin, b.xmax, tol);
    if (b.has_xy && b.has_z) in = in && fz && b.zmin >= f->zmin && b.zmax <= f->zmax;
    if (b.has_xy && b.has_m) in = in && fm && b.mmin >= f->mmin && b.mmax <= f->mmax;
    if (!in && outside++ == 0) first = i;
  }
  pqt_geo_bbox_result(&all);
  if (outside) {
    pqt_geo_bbox b;
    pqt_geo_bbox_init(&b, edges);
    pqt_geo_bbox_add_wkb(&b, cd->values.data + o[first], (size_t)(o[first + 1] - o[first]), NULL);
    pqt_geo_bbox_result(&b);
    problem(v, g, leaf->dotted_path,
            "geospatial box x [%.17g, %.17g] y [%.17g, %.17g]%s%s does not hold %lld value(s), the first (value %lld) "
            "has x [%.17g, %.17g] y [%.17g, %.17g]%s%s",
            f->xmin, f->xmax, f->ymin, f->ymax, fz ? " with z" : "", fm ? " with m" : "", (long long)outside,
            (long long)first, b.xmin, b.xmax, b.ymin, b.ymax, b.has_z ? " with z" : "", b.has_m ? " with m" : "");
  }
  if (has_box && !all.has_xy && !bad)
    problem(v, g, leaf->dotted_path, "geospatial box given, but no value has X and Y coordinates");
  if (PQT_HAS_FIELD(gs, geospatial_statistics, geospatial_types) && !bad) {
    bool same = gs->geospatial_types.n == all.n_types;
    for (int32_t k = 0; same && k < all.n_types; k++) same = (uint32_t)gs->geospatial_types.items[k] == all.types[k];
    if (!same) {
      char want[PQT_GEO_MAX_TYPES * 6 + 2], have[PQT_GEO_MAX_TYPES * 12 + 2];
      size_t a = 0, h = 0;
      want[0] = have[0] = 0;
      for (int32_t k = 0; k < all.n_types; k++)
        a += (size_t)snprintf(want + a, sizeof want - a, "%s%u", k ? "," : "", all.types[k]);
      for (int32_t k = 0; k < gs->geospatial_types.n && h < sizeof have - 14; k++)
        h += (size_t)snprintf(have + h, sizeof have - h, "%s%d", k ? "," : "", (int)gs->geospatial_types.items[k]);
      problem(v, g, leaf->dotted_path, "geospatial types [%s], the values have [%s]", have, want);
    }
  }
}

/* What a data page's header says of its nulls: v2 num_nulls (-1 where v1,
 * or where the writer did not count), with the page's index in the chunk. */
typedef struct page_nulls {
  int32_t page;
  int32_t num_nulls;
} page_nulls;
#define VERIFY_MAX_PAGES 4096

/* Walk the pages (CRC as a report) and compare with the offset index;
 * nulls[0 .. *n_nulls) receives each data page's header null count. */
static bool check_pages(vctx *v, int32_t g, int32_t c, const pqt_schema_node *leaf, const pqt_chunk *ch,
                        page_nulls *nulls, int32_t *n_nulls) {
  pqt_reader *r = v->r;
  pqt_error e;
  pqt_error_init(&e);
  uint64_t data_offsets[VERIFY_MAX_PAGES], data_sizes[VERIFY_MAX_PAGES];
  int32_t n_data = 0;
  *n_nulls = 0;
  bool broken = false;
  /* the public page walk (parquetry_meta.h): the same page reader, CRCs reported */
  pqt_page_cursor *pc = NULL;
  if (pqt_page_cursor_open(r, g, c, &pc, &e) == PQT_OK) {
    for (;;) {
      pqt_page_info pg;
      pqt_page_info_init(&pg);
      int eof = 0;
      if (pqt_page_cursor_next(pc, &pg, &eof, &e) != PQT_OK) {
        problem(v, g, leaf->dotted_path, "%s", pqt_reader_error_detail(r, &e));
        broken = true;
        break;
      }
      if (eof) break;
      if (pg.crc_ok == 0) {
        problem(v, g, leaf->dotted_path, "page %d: CRC32 mismatch", pg.index);
        broken = true;
      }
      if (pg.page_type != PQT_PAGE_KIND_DICTIONARY_PAGE && n_data < VERIFY_MAX_PAGES) {
        nulls[n_data] = (page_nulls){pg.index, pg.page_type == PQT_PAGE_KIND_DATA_PAGE_V2 ? pg.num_nulls : -1};
        data_sizes[n_data] = (uint64_t)pg.header_size + (uint64_t)pg.compressed_size;
        data_offsets[n_data++] = (uint64_t)pg.offset;
        *n_nulls = n_data;
      }
    }
  } else {
    problem(v, g, leaf->dotted_path, "%s", pqt_reader_error_detail(r, &e));
    broken = true;
  }
  pqt_page_cursor_close(pc);
  pqt_arena arena;
  pqt_arena_init(&arena, r->alloc);
  pqt_buf hold;
  pqt_buf_init(&hold, r->alloc);
  pqt_offset_index oi;
  bool found = false;
  if (pqt_chunk_read_index(r, ch, PQT_MODULE_OFFSET_INDEX, &arena, &hold, &oi, &found, &e) != PQT_OK) {
    problem(v, g, leaf->dotted_path, "%s", e.message);
  } else if (found) {
    if (oi.page_locations.n != n_data) {
      problem(v, g, leaf->dotted_path, "offset index lists %d pages, the chunk has %d data pages", oi.page_locations.n,
              n_data);
    } else {
      for (int32_t i = 0; i < n_data; i++) {
        const pqt_page_location *pl = &oi.page_locations.items[i];
        if ((uint64_t)pl->offset != data_offsets[i]) {
          problem(v, g, leaf->dotted_path, "offset index page %d at %lld, the page is at %llu", i,
                  (long long)pl->offset, (unsigned long long)data_offsets[i]);
          break;
        }
        /* the size of the page with its header (readers fetch exactly these bytes) */
        if (pl->compressed_page_size < 0 || (uint64_t)pl->compressed_page_size != data_sizes[i]) {
          problem(v, g, leaf->dotted_path,
                  "offset index page %d: compressed_page_size %d, the page with its header has %llu bytes", i,
                  pl->compressed_page_size, (unsigned long long)data_sizes[i]);
          break;
        }
      }
    }
  }
  pqt_buf_free(&hold);
  pqt_arena_reset(&arena);
  return broken;
}

/* A v2 header's num_nulls must agree with its page's levels: entries
 * without a value (null at some level, or an empty list), as parquet-java
 * and Arrow count them. The reader trusts the levels (parquet-java before
 * 1.18 writes -1); verify reports a header that says otherwise. */
static void check_page_nulls(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_page_end *ends, int32_t n_ends,
                             const page_nulls *nulls, int32_t n_nulls) {
  if (n_ends != n_nulls) return; /* the decoder saw other pages than the walk: reported elsewhere */
  for (int32_t i = 0; i < n_ends; i++) {
    if (nulls[i].num_nulls < 0) continue;
    int64_t lv = ends[i].n_levels - (i ? ends[i - 1].n_levels : 0);
    int64_t vals = ends[i].n_values - (i ? ends[i - 1].n_values : 0);
    if (lv - vals != nulls[i].num_nulls)
      problem(v, g, leaf->dotted_path, "page %d: the v2 header says %d nulls, its levels hold %lld", nulls[i].page,
              nulls[i].num_nulls, (long long)(lv - vals));
  }
}

/* Is b a well-formed min/max entry for the column? Fixed-width values
 * have their width; byte arrays may be truncated to any length. */
static bool bound_well_formed(const pqt_schema_node *leaf, const pqt_bytes *b) {
  switch (leaf->physical_type) {
    case PQT_BOOLEAN: return b->len == 1;
    case PQT_INT32:
    case PQT_FLOAT: return b->len == 4;
    case PQT_INT64:
    case PQT_DOUBLE: return b->len == 8;
    case PQT_INT96: return b->len == 12;
    default: return b->len >= 0;
  }
}

/* NaN in FLOAT, DOUBLE or FLOAT16 (little-endian half) plain bytes. */
static bool is_nan(const pqt_schema_node *leaf, const uint8_t *p, size_t n) {
  return pqt_sort_value_is_nan(sort_kind(leaf), p, n);
}

/* One page's entries and dense values. */
typedef struct page_span {
  int64_t lv0, lv1; /* entries [lv0, lv1) */
  int64_t v0, v1;   /* values [v0, v1) */
} page_span;

static page_span span_of(const pqt_page_end *ends, int32_t i) {
  page_span s = {i ? ends[i - 1].n_levels : 0, ends[i].n_levels, i ? ends[i - 1].n_values : 0, ends[i].n_values};
  return s;
}

/* A level histogram list of the column index (ColumnIndex fields 6 and 7:
 * max_level + 1 counts per page, pages concatenated) against the levels of
 * each page. levels: int16 per entry, or empty when every entry is at
 * max_level (no nulls, or a column without such levels). */
static void check_histograms(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_list_i64 *h, int16_t max_level,
                             const pqt_buf *levels, int64_t n_levels, const pqt_page_end *ends, int32_t np,
                             const char *what) {
  int64_t width = (int64_t)max_level + 1;
  if (h->n != (int64_t)np * width) {
    problem(v, g, leaf->dotted_path,
            "column index: %s_level_histograms has %d entries, %d pages x %lld levels expected", what, h->n, np,
            (long long)width);
    return;
  }
  if (max_level < 0 || max_level > PQT_SCHEMA_MAX_DEPTH) return;
  if (levels->len != 0 && levels->len < (size_t)n_levels * 2) return; /* not materialised: nothing to count */
  const int16_t *lv = levels->len ? (const int16_t *)(const void *)levels->data : NULL;
  int64_t counts[PQT_SCHEMA_MAX_DEPTH + 1];
  for (int32_t i = 0; i < np; i++) {
    page_span sp = span_of(ends, i);
    memset(counts, 0, sizeof(int64_t) * (size_t)width);
    if (lv) {
      for (int64_t k = sp.lv0; k < sp.lv1; k++)
        if (lv[k] >= 0 && lv[k] <= max_level) counts[lv[k]]++;
    } else {
      counts[max_level] = sp.lv1 - sp.lv0;
    }
    const int64_t *got = h->items + (int64_t)i * width;
    for (int64_t l = 0; l < width; l++)
      if (got[l] != counts[l]) {
        problem(v, g, leaf->dotted_path,
                "column index, data page %d: %s_level_histograms counts %lld at level %lld, the page has %lld", i, what,
                (long long)got[l], (long long)l, (long long)counts[l]);
        break;
      }
  }
}

static const char *boundary_name(int32_t b) {
  return b == PQT_BOUNDARY_ASCENDING ? "ASCENDING" : b == PQT_BOUNDARY_DESCENDING ? "DESCENDING" : "UNORDERED";
}

/* The column index (spec: "Page Index", ColumnIndex in parquet.thrift)
 * against the decoded chunk, page by page. ends: where each data page
 * ended in cd (n_ends of them). The index is untrusted: every list length
 * is checked before use, and min/max entries may have any length. */
static void check_column_index(vctx *v, int32_t g, int32_t c, const pqt_schema_node *leaf, const pqt_chunk *ch,
                               const pqt_column_data *cd, const pqt_page_end *ends, int32_t n_ends) {
  pqt_reader *r = v->r;
  pqt_arena arena;
  pqt_arena_init(&arena, r->alloc);
  pqt_buf hold;
  pqt_buf_init(&hold, r->alloc);
  pqt_error e;
  pqt_error_init(&e);
  pqt_column_index ci;
  bool found = false;
  if (pqt_chunk_read_index(r, ch, PQT_MODULE_COLUMN_INDEX, &arena, &hold, &ci, &found, &e) != PQT_OK) {
    problem(v, g, leaf->dotted_path, "%s", e.message);
    goto done;
  }
  if (!found) goto done;
  if (n_ends != cd->n_pages) goto done; /* pages lost to recovery: no page-by-page view */
  int32_t np = n_ends;
  const char *col = leaf->dotted_path;
  /* a damaged index could otherwise print a line per page */
  int32_t budget_before = v->budget;
  int64_t unprinted_before = v->unprinted;
  v->budget = 20;
  bool lists_ok = true;
  if (ci.null_pages.n != np) {
    problem(v, g, col, "column index lists %d pages, the chunk has %d data pages", ci.null_pages.n, np);
    lists_ok = false;
  }
  if (ci.min_values.n != ci.null_pages.n || ci.max_values.n != ci.null_pages.n) {
    problem(v, g, col, "column index: %d null_pages, %d min_values, %d max_values", ci.null_pages.n, ci.min_values.n,
            ci.max_values.n);
    lists_ok = false;
  }
  bool has_nulls = PQT_HAS_FIELD(&ci, column_index, null_counts);
  if (has_nulls && ci.null_counts.n != np) {
    problem(v, g, col, "column index: %d null_counts for %d data pages", ci.null_counts.n, np);
    has_nulls = false;
  }
  pqt_sort_kind kind = sort_kind(leaf);
  bool fl = kind == PQT_SORT_FLOAT || kind == PQT_SORT_DOUBLE || kind == PQT_SORT_FLOAT16;
  bool has_nans = PQT_HAS_FIELD(&ci, column_index, nan_counts) && fl;
  if (has_nans && ci.nan_counts.n != np) {
    problem(v, g, col, "column index: %d nan_counts for %d data pages", ci.nan_counts.n, np);
    has_nans = false;
  }
  /* min/max are defined by the column order (FileMetaData.column_orders;
   * without it their meaning is undefined). IEEE 754 total order agrees
   * with compare_values except for -0/+0 and NaN, which it does not judge. */
  int order = c < r->md.column_orders.n ? pqt_union_which(r->md.column_orders.items[c].isset) : 0;
  bool ordered = order == PQT_ORDER_TYPE || order == PQT_ORDER_IEEE_754_TOTAL;
  for (int32_t i = 0; i < np; i++) {
    page_span sp = span_of(ends, i);
    int64_t nonnull = sp.v1 - sp.v0, nulls = (sp.lv1 - sp.lv0) - nonnull;
    /* null_counts: the page's null values, entries below max_def (an
     * empty or null list counts as one, as writers count them) */
    if (has_nulls && ci.null_counts.items[i] != nulls)
      problem(v, g, col, "column index, data page %d: null_counts says %lld nulls, the page has %lld", i,
              (long long)ci.null_counts.items[i], (long long)nulls);
    if (has_nans) {
      int64_t nans = 0;
      for (int64_t k = sp.v0; k < sp.v1; k++) {
        size_t n;
        const uint8_t *p = value_at(leaf, cd, k, &n);
        nans += is_nan(leaf, p, n);
      }
      if (ci.nan_counts.items[i] != nans)
        problem(v, g, col, "column index, data page %d: nan_counts says %lld NaNs, the page has %lld", i,
                (long long)ci.nan_counts.items[i], (long long)nans);
    }
    if (!lists_ok) continue;
    bool null_page = ci.null_pages.items[i];
    if (null_page != (nonnull == 0)) {
      if (null_page)
        problem(v, g, col, "column index, data page %d: null_pages says only nulls, the page has %lld values", i,
                (long long)nonnull);
      else problem(v, g, col, "column index, data page %d: null_pages says values, the page has only nulls", i);
      continue;
    }
    if (null_page || !ordered) continue;
    const pqt_bytes *bmin = &ci.min_values.items[i], *bmax = &ci.max_values.items[i];
    if (!bound_well_formed(leaf, bmin) || !bound_well_formed(leaf, bmax)) {
      const char *tn = pqt_thrift_enum_name(&pqt_enum_type, leaf->physical_type);
      problem(v, g, col, "column index, data page %d: min/max of %lld/%lld bytes for a %s column", i,
              (long long)bmin->len, (long long)bmax->len, tn ? tn : "?");
      continue;
    }
    value_ref mn, mx;
    if (!value_range(leaf, cd, sp.v0, sp.v1, &mn, &mx)) continue; /* no order, or only NaNs */
    /* bounds, not necessarily values: a byte array's min may be a
     * truncated prefix, its max rounded up */
    if (compare_values(leaf, bmin->ptr, (size_t)bmin->len, mn.p, mn.n) == 1)
      problem(v, g, col, "column index, data page %d: min_values is above the page's smallest value", i);
    if (compare_values(leaf, bmax->ptr, (size_t)bmax->len, mx.p, mx.n) == -1)
      problem(v, g, col, "column index, data page %d: max_values is below the page's largest value", i);
  }
  /* boundary_order: min_values and max_values both ordered over the
   * non-null pages (null pages have no bounds and are skipped) */
  if (ci.boundary_order < PQT_BOUNDARY_UNORDERED || ci.boundary_order > PQT_BOUNDARY_DESCENDING) {
    problem(v, g, col, "column index: unknown boundary_order %d", ci.boundary_order);
  } else if (lists_ok && ordered && ci.boundary_order != PQT_BOUNDARY_UNORDERED) {
    int want = ci.boundary_order == PQT_BOUNDARY_ASCENDING ? 1 : -1;
    int32_t prev = -1;
    for (int32_t i = 0; i < np; i++) {
      const pqt_bytes *bmin = &ci.min_values.items[i], *bmax = &ci.max_values.items[i];
      if (ci.null_pages.items[i] || !bound_well_formed(leaf, bmin) || !bound_well_formed(leaf, bmax) ||
          is_nan(leaf, bmin->ptr, (size_t)bmin->len) || is_nan(leaf, bmax->ptr, (size_t)bmax->len))
        continue;
      if (prev >= 0) {
        const pqt_bytes *pmin = &ci.min_values.items[prev], *pmax = &ci.max_values.items[prev];
        int cmn = compare_values(leaf, bmin->ptr, (size_t)bmin->len, pmin->ptr, (size_t)pmin->len);
        int cmx = compare_values(leaf, bmax->ptr, (size_t)bmax->len, pmax->ptr, (size_t)pmax->len);
        if ((cmn != 2 && cmn == -want) || (cmx != 2 && cmx == -want)) {
          problem(v, g, col, "column index, data page %d: boundary_order is %s, but the page's %s %s data page %d's", i,
                  boundary_name(ci.boundary_order), cmn == -want ? "min_values is" : "max_values is",
                  want == 1 ? "below" : "above", prev);
          break;
        }
      }
      prev = i;
    }
  }
  if (PQT_HAS_FIELD(&ci, column_index, definition_level_histograms))
    check_histograms(v, g, leaf, &ci.definition_level_histograms, leaf->max_def, &cd->def, cd->n_levels, ends, np,
                     "definition");
  if (PQT_HAS_FIELD(&ci, column_index, repetition_level_histograms))
    check_histograms(v, g, leaf, &ci.repetition_level_histograms, leaf->max_rep, &cd->rep, cd->n_levels, ends, np,
                     "repetition");
  if (v->unprinted > unprinted_before)
    pqt_buf_printf(&v->out, NULL, "row group %d, column %s: column index: %lld more problems not shown\n", g, col,
                   (long long)(v->unprinted - unprinted_before));
  v->budget = budget_before;
done:
  pqt_buf_free(&hold);
  pqt_arena_reset(&arena);
}

/* Every non-null value of the chunk must test positive in its Bloom filter
 * (XXH64 of the plain encoding; BOOLEAN columns have none). */
static void check_bloom(vctx *v, int32_t g, const pqt_schema_node *leaf, const pqt_chunk *ch,
                        const pqt_column_data *cd) {
  if (leaf->physical_type == PQT_BOOLEAN) return;
  pqt_error e;
  pqt_error_init(&e);
  pqt_bloom b;
  bool found = false;
  if (pqt_chunk_read_bloom(v->r, ch, &b, &found, &e) != PQT_OK) {
    problem(v, g, leaf->dotted_path, "Bloom filter: %s", e.message);
  } else if (found) {
    size_t w = pqt_physical_width(leaf->physical_type, leaf->type_length);
    int64_t missing = 0, first = -1;
    for (int64_t i = 0; i < cd->n_values; i++) {
      uint64_t h;
      if (leaf->physical_type == PQT_BYTE_ARRAY) {
        const int32_t *o = (const int32_t *)(const void *)cd->offsets.data;
        h = pqt_bloom_hash(cd->values.data + o[i], (size_t)(o[i + 1] - o[i]));
      } else {
        h = pqt_bloom_hash(pqt_column_values(cd) + (size_t)i * w, w);
      }
      if (!pqt_bloom_check(&b, h)) {
        if (first < 0) first = i;
        missing++;
      }
    }
    if (missing)
      problem(v, g, leaf->dotted_path, "Bloom filter misses %lld of the chunk's values (the first is value %lld)",
              (long long)missing, (long long)first);
    pqt_bloom_free(&b);
  }
}

/* Something verify could not check for lack of a key: one line, counted
 * apart from the problems. */
static void unchecked(vctx *v, const char *fmt, ...) PQT_PRINTF(2, 3);
static void unchecked(vctx *v, const char *fmt, ...) {
  v->unchecked++;
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pqt_buf_printf(&v->out, NULL, "%s\n", msg);
}

/* A plaintext footer's signature (spec: "Plaintext footer mode"): checked
 * at open when the footer key is at hand and verify_footer_signature is
 * set; here when only the option was off. Without the key: not checked. */
static void check_footer_signature(vctx *v) {
  pqt_reader *r = v->r;
  const pqt_file_decryptor *fd = r->crypto;
  if (!fd || fd->encrypted_footer || fd->footer_verified) return;
  if (!fd->have_footer_key) {
    unchecked(v, "not checked: the plaintext footer's signature (no footer key)");
    return;
  }
  if (r->footer_len <= PQT_CRYPTO_SIGNATURE_BYTES) {
    problem(v, -1, "", "plaintext footer: %zu bytes cannot hold FileMetaData and its 28-byte signature", r->footer_len);
    return;
  }
  pqt_module_decryptor d;
  pqt_error e;
  pqt_error_init(&e);
  size_t n = r->footer_len - PQT_CRYPTO_SIGNATURE_BYTES;
  if (pqt_module_decryptor_init(&d, fd->algorithm, fd->footer_key, fd->footer_key_len, fd->file_aad, fd->file_aad_len,
                                &e) != PQT_OK ||
      pqt_footer_verify(&d, r->footer, n, r->footer + n, &e) != PQT_OK)
    problem(v, -1, "", "%s", e.message);
  pqt_module_decryptor_wipe(&d);
}

/* One column chunk: its pages, values, statistics, page index and Bloom
 * filter. ENOMEM stops the run; everything else is a problem reported. */
static pqt_status check_chunk(vctx *v, int32_t g, int32_t c, page_nulls *nulls, pqt_error *err) {
  pqt_reader *r = v->r;
  const pqt_schema_node *leaf = r->schema->leaves[c];
  pqt_error e;
  pqt_error_init(&e);
  pqt_chunk ch;
  pqt_status st = PQT_OK;
  if (pqt_chunk_open_data(r, g, c, &ch, &e) != PQT_OK) { /* pages in another file (file_path) are read there */
    if (ch.no_key)
      unchecked(v, "row group %d, column %s: not checked: no key for column %s (%s)", g, leaf->dotted_path,
                leaf->dotted_path, e.message);
    else problem(v, g, leaf->dotted_path, "%s", e.message);
    pqt_chunk_close(&ch);
    return PQT_OK;
  }
  /* pages that could not be walked are reported once, not again by the decoder */
  int32_t n_nulls = 0;
  if (check_pages(v, g, c, leaf, &ch, nulls, &n_nulls)) {
    pqt_chunk_close(&ch);
    return PQT_OK;
  }
  pqt_column_data cd;
  pqt_column_data_init(&cd, r->data_alloc);
  pqt_buf ends;
  pqt_buf_init(&ends, r->data_alloc);
  cd.page_ends = &ends;
  pqt_status rs = pqt_row_group_read_leaf(r, g, c, &cd, &e);
  if (rs == PQT_ENOMEM) {
    st = pqt_nomem(err);
  } else if (rs != PQT_OK) {
    problem(v, -1, "", "%s", e.message);
  } else {
    const pqt_page_end *pe = (const pqt_page_end *)(const void *)ends.data;
    int32_t n_ends = (int32_t)(ends.len / sizeof(pqt_page_end));
    if (cd.n_levels != ch.cm->num_values)
      problem(v, g, leaf->dotted_path, "metadata says %lld values, the pages hold %lld", (long long)ch.cm->num_values,
              (long long)cd.n_levels);
    check_statistics(v, g, leaf, ch.cm, &cd);
    check_geo_statistics(v, g, leaf, ch.cm, &cd);
    check_column_index(v, g, c, leaf, &ch, &cd, pe, n_ends);
    check_page_nulls(v, g, leaf, pe, n_ends, nulls, n_nulls);
    check_bloom(v, g, leaf, &ch, &cd);
  }
  pqt_column_data_free(&cd);
  pqt_buf_free(&ends);
  pqt_chunk_close(&ch);
  return st;
}

PQT_API void pqt_verify_report_init(pqt_verify_report *rep) {
  if (!rep) return;
  memset(rep, 0, sizeof *rep);
  rep->struct_size = sizeof *rep;
}

PQT_API pqt_status pqt_reader_verify_ex(pqt_reader *r, pqt_write_fn write, void *ctx, pqt_verify_report *report,
                                        pqt_error *err) {
  if (!r || !write || (report && report->struct_size < sizeof(size_t)))
    return pqt_error_set(err, PQT_EINVAL, "pqt_reader_verify: bad arguments");
  vctx v = {r, {0}, 0, write, ctx, -1, 0, 0};
  pqt_buf_init(&v.out, r->alloc);
  /* each chunk's data page header null counts (check_pages) */
  page_nulls *nulls = pqt_mem_alloc(r->alloc, sizeof *nulls * VERIFY_MAX_PAGES);
  pqt_status st = nulls ? PQT_OK : pqt_nomem(err);
  if (st == PQT_OK) check_footer_signature(&v);
  int64_t rows = 0, chunks = 0;
  bool has_progress = report && report->struct_size >= offsetof(pqt_verify_report, progress_ctx) + sizeof(void *);
  void (*progress)(void *, int64_t, int64_t) = has_progress ? report->progress : NULL;
  void *progress_ctx = has_progress ? report->progress_ctx : NULL;
  int64_t n_chunks = (int64_t)r->md.row_groups.n * r->schema->n_leaves;
  for (int32_t g = 0; g < r->md.row_groups.n && st == PQT_OK; g++) {
    rows += r->md.row_groups.items[g].num_rows;
    for (int32_t c = 0; c < r->schema->n_leaves && st == PQT_OK; c++) {
      int64_t unchecked_before = v.unchecked;
      st = check_chunk(&v, g, c, nulls, err);
      chunks += v.unchecked == unchecked_before;
      if (progress) progress(progress_ctx, (int64_t)g * r->schema->n_leaves + c + 1, n_chunks);
      if (v.out.len > (64u << 10)) {
        if (write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK) st = pqt_error_set(err, PQT_EIO, "write failed");
        v.out.len = 0;
      }
    }
  }
  if (st == PQT_OK && r->md.num_rows != rows)
    problem(&v, -1, "", "footer says %lld rows, the row groups hold %lld", (long long)r->md.num_rows, (long long)rows);
  if (st == PQT_OK && v.out.len && write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK)
    st = pqt_error_set(err, PQT_EIO, "write failed");
  pqt_buf_free(&v.out);
  if (nulls) pqt_mem_free(r->alloc, nulls, sizeof *nulls * VERIFY_MAX_PAGES);
  if (report) {
    /* only the fields the caller's struct has (struct_size) */
    pqt_verify_report full;
    pqt_verify_report_init(&full);
    full.struct_size = report->struct_size;
    full.problems = v.problems;
    full.unchecked = v.unchecked;
    full.chunks_checked = chunks;
    full.progress = progress;
    full.progress_ctx = progress_ctx;
    memcpy(report, &full, report->struct_size < sizeof full ? report->struct_size : sizeof full);
  }
  return st;
}

PQT_API pqt_status pqt_reader_verify(pqt_reader *r, pqt_write_fn write, void *ctx, int64_t *n_problems,
                                     pqt_error *err) {
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  pqt_status st = pqt_reader_verify_ex(r, write, ctx, &rep, err);
  /* what could not be checked is never counted as sound here */
  if (n_problems) *n_problems = rep.problems + rep.unchecked;
  return st;
}
