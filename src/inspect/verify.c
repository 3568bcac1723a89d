/*
 * inspect/verify.c: pqt_reader_verify, a full check of a file, reporting
 * every problem found rather than stopping at the first. It is built on the
 * public API alone (parquetry_meta.h, parquetry_geo.h): what it checks, a
 * tool outside the library could check the same way.
 *   - every page of every column chunk (pqt_page_cursor): header, CRC,
 *     decompression, and decoding of levels and values
 *     (pqt_page_cursor_decode, the reader's own decoders);
 *   - the chunk's value count against its metadata;
 *   - chunk statistics against the decoded data: null_count (flat
 *     columns), min/max as bounds of the values in the column's sort order
 *     (exact when is_min/max_value_exact says so);
 *   - the offset index against the pages actually found;
 *   - the column index (pqt_reader_page_index_stored: as stored, judged
 *     entry by entry) against each data page's decoded levels and values:
 *     entry count, null_pages, null_counts, nan_counts, min/max bounds,
 *     boundary_order, and the level histograms;
 *   - the Bloom filter: every value of the chunk must be in it;
 *   - GeospatialStatistics: the type list equals the values' and the box
 *     holds every value (see geo_finish);
 *   - a plaintext footer's signature (pqt_reader_footer_signature).
 * Spec: "Checksumming", "Statistics" and "Page Index" sections, and the
 * ColumnOrder rules of parquet.thrift.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "parquetry.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"

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

/* One column chunk under check. */
typedef struct chunk_ctx {
  vctx *v;
  int32_t g, c;
  pqt_schema_info leaf;
  const char *path;
  bool fl; /* floats: FLOAT, DOUBLE, FLOAT16 (NaNs, nan_counts) */
} chunk_ctx;

/* One data page: from the walk, then from its decode. Min/max point into
 * the cursor's decoded chunk, which lives until the cursor is closed. */
typedef struct page_rec {
  int32_t page;      /* index among all the chunk's pages */
  int32_t num_nulls; /* the v2 header's, -1 for v1 */
  uint64_t offset;   /* of its header */
  uint64_t size;     /* header and body */
  int64_t levels, values, nans;
  int32_t has_min_max;
  const uint8_t *mn, *mx;
  size_t mnn, mxn;
} page_rec;

/* -1, 0, 1 comparing two plain values in the column's sort order; 2 when
 * either is not ordered. */
static int cmp(const chunk_ctx *k, const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  return pqt_reader_compare_plain(k->v->r, k->c, a, an, b, bn);
}

/* A bound whose bytes are a NaN of the column's float type. */
static bool is_nan_value(const pqt_value *x) {
  return (x->kind == PQT_VALUE_DOUBLE || x->kind == PQT_VALUE_FLOAT16) && isnan(x->f64);
}

static bool ordered_by(int32_t column_order) {
  return column_order == PQT_COLUMN_ORDER_TYPE_DEFINED || column_order == PQT_COLUMN_ORDER_IEEE_754_TOTAL;
}

static void check_statistics(chunk_ctx *k, const pqt_chunk_statistics *s, const page_rec *pg, int32_t np) {
  vctx *v = k->v;
  if (!s->present) return;
  int64_t levels = 0, values = 0;
  for (int32_t i = 0; i < np; i++) levels += pg[i].levels, values += pg[i].values;
  if (s->has_null_count && k->leaf.max_rep == 0 && s->null_count != levels - values)
    problem(v, k->g, k->path, "statistics say %lld nulls, the data has %lld", (long long)s->null_count,
            (long long)(levels - values));
  bool typed_order = s->min_value_plain || s->max_value_plain;
  if (!typed_order || values == 0) return;
  /* min_value/max_value follow FileMetaData.column_orders; without it their
   * meaning is undefined (parquet.thrift), so they are not judged (as for
   * the column index below). */
  if (!ordered_by(s->column_order)) return;
  /* the actual min and max over the decoded values: the pages' (NaNs left out) */
  const page_rec *mn = NULL, *mx = NULL;
  for (int32_t i = 0; i < np; i++) {
    if (!pg[i].has_min_max) continue;
    if (!mn || cmp(k, pg[i].mn, pg[i].mnn, mn->mn, mn->mnn) < 0) mn = &pg[i];
    if (!mx || cmp(k, pg[i].mx, pg[i].mxn, mx->mx, mx->mxn) == 1) mx = &pg[i];
  }
  if (!mn) return; /* no order, or only NaNs */
  if (s->min_value_plain) {
    int c = cmp(k, s->min_value_plain, s->n_min_value_plain, mn->mn, mn->mnn);
    if (c == 1 || (s->min_exact == 1 && c == -1))
      problem(v, k->g, k->path, "statistics min_value is %s the smallest value", c == 1 ? "above" : "not");
  }
  if (s->max_value_plain) {
    int c = cmp(k, s->max_value_plain, s->n_max_value_plain, mx->mx, mx->mxn);
    if (c == -1 || (s->max_exact == 1 && c == 1))
      problem(v, k->g, k->path, "statistics max_value is %s the largest value", c == -1 ? "below" : "not");
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
 * The chunk's GeospatialStatistics against its values, gathered page by
 * page (geo_page) and judged at the end (geo_finish): the type list must
 * equal the sorted unique codes of the values; every value's box (its
 * vertices, and for GEOGRAPHY its edges' bulge and the poles its rings
 * enclose, see src/geo/bbox.c) must lie in the file's box, Z and M too;
 * a box over values that have no X and Y is a problem. A box larger than
 * needed is not (writers pad: S2 pads outwards), nor a missing box.
 * Tolerance: exact for GEOMETRY, 1e-9 degrees for spherical GEOGRAPHY
 * (other writers compute through unit vectors), 0.25 degrees for the
 * ellipsoidal edge algorithms (their edges are not great circles).
 */
typedef struct geo_check {
  bool on;
  pqt_geo_edges edges;
  double tol;
  pqt_geo_stats gs;
  bool fz, fm;
  pqt_geo_bbox all, first_box; /* every value's; the first value outside the file's box */
  int64_t outside, first, bad, bad_value;
  char bad_msg[sizeof(((pqt_error *)0)->message)];
} geo_check;

static void geo_start(chunk_ctx *k, geo_check *gc) {
  memset(gc, 0, sizeof *gc);
  int32_t l = k->leaf.logical;
  if (k->leaf.physical != PQT_TYPE_BYTE_ARRAY || (l != PQT_LOGICAL_GEOMETRY && l != PQT_LOGICAL_GEOGRAPHY)) return;
  pqt_geo_stats_init(&gc->gs);
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_chunk_geo_stats(k->v->r, k->g, k->c, &gc->gs, &e) != PQT_OK || !gc->gs.present) return;
  gc->on = true;
  gc->edges = PQT_GEO_EDGES_PLANAR;
  if (l == PQT_LOGICAL_GEOGRAPHY) {
    bool ell = k->leaf.edge_algorithm > 0; /* anything but SPHERICAL (0) */
    gc->edges = PQT_GEO_EDGES_GEOGRAPHY;
    gc->tol = ell ? 0.25 : 1e-9;
  }
  pqt_geo_bbox_init(&gc->all, gc->edges);
  gc->fz = gc->gs.has_bbox && gc->gs.has_z;
  gc->fm = gc->gs.has_bbox && gc->gs.has_m;
}

/* The decoded page's values; base: the chunk's values before it. */
static pqt_status geo_page(geo_check *gc, pqt_page_cursor *pc, int64_t base, int64_t n_values, pqt_error *err) {
  if (!gc->on) return PQT_OK;
  const pqt_geo_stats *f = &gc->gs;
  double tol = gc->tol;
  for (int64_t i = 0; i < n_values; i++) {
    pqt_value x;
    pqt_value_init(&x);
    PQT_RETURN_NOT_OK(pqt_page_cursor_value(pc, i, &x, err));
    pqt_geo_bbox b;
    pqt_geo_bbox_init(&b, gc->edges);
    pqt_error e;
    pqt_error_init(&e);
    if (pqt_geo_bbox_add_wkb(&b, x.plain, x.n_plain, &e) != PQT_OK) {
      if (gc->bad++ == 0) {
        gc->bad_value = base + i;
        snprintf(gc->bad_msg, sizeof gc->bad_msg, "%s", e.message);
      }
      continue;
    }
    pqt_geo_bbox_merge(&gc->all, &b, NULL);
    pqt_geo_bbox_result(&b);
    if (!f->has_bbox) continue;
    bool in = true;
    if (b.has_xy)
      in = b.ymin >= f->ymin - tol && b.ymax <= f->ymax + tol && geo_x_holds(f->xmin, f->xmax, b.xmin, b.xmax, tol);
    if (b.has_xy && b.has_z) in = in && gc->fz && b.zmin >= f->zmin && b.zmax <= f->zmax;
    if (b.has_xy && b.has_m) in = in && gc->fm && b.mmin >= f->mmin && b.mmax <= f->mmax;
    if (!in && gc->outside++ == 0) {
      gc->first = base + i;
      gc->first_box = b;
    }
  }
  return PQT_OK;
}

static void geo_finish(chunk_ctx *k, geo_check *gc) {
  if (!gc->on) return;
  vctx *v = k->v;
  const pqt_geo_stats *f = &gc->gs;
  if (gc->bad) problem(v, k->g, k->path, "value %lld is not valid WKB: %s", (long long)gc->bad_value, gc->bad_msg);
  pqt_geo_bbox_result(&gc->all);
  if (gc->outside) {
    const pqt_geo_bbox *b = &gc->first_box;
    problem(v, k->g, k->path,
            "geospatial box x [%.17g, %.17g] y [%.17g, %.17g]%s%s does not hold %lld value(s), the first (value %lld) "
            "has x [%.17g, %.17g] y [%.17g, %.17g]%s%s",
            f->xmin, f->xmax, f->ymin, f->ymax, gc->fz ? " with z" : "", gc->fm ? " with m" : "",
            (long long)gc->outside, (long long)gc->first, b->xmin, b->xmax, b->ymin, b->ymax, b->has_z ? " with z" : "",
            b->has_m ? " with m" : "");
  }
  if (f->has_bbox && !gc->all.has_xy && !gc->bad)
    problem(v, k->g, k->path, "geospatial box given, but no value has X and Y coordinates");
  if (f->has_geospatial_types && !gc->bad) {
    const pqt_geo_bbox *all = &gc->all;
    bool same = f->n_geospatial_types == all->n_types;
    for (int32_t t = 0; same && t < all->n_types; t++) same = (uint32_t)f->geospatial_types[t] == all->types[t];
    if (!same) {
      char want[PQT_GEO_MAX_TYPES * 6 + 2], have[PQT_GEO_MAX_TYPES * 12 + 2];
      size_t a = 0, h = 0;
      want[0] = have[0] = 0;
      for (int32_t t = 0; t < all->n_types; t++)
        a += (size_t)snprintf(want + a, sizeof want - a, "%s%u", t ? "," : "", all->types[t]);
      for (int32_t t = 0; t < f->n_geospatial_types && h < sizeof have - 14; t++)
        h += (size_t)snprintf(have + h, sizeof have - h, "%s%d", t ? "," : "", (int)f->geospatial_types[t]);
      problem(v, k->g, k->path, "geospatial types [%s], the values have [%s]", have, want);
    }
  }
}

/* ---- the walk ---- */

/* The offset index against the data pages the walk found. */
static void check_offset_index(chunk_ctx *k, const pqt_page_index *pi, const page_rec *pg, int32_t n_data) {
  vctx *v = k->v;
  if (pi->offset_index_error) {
    problem(v, k->g, k->path, "%s", pi->offset_index_error);
    return;
  }
  if (!pi->has_offset_index) return;
  if (pi->n_locations != n_data) {
    problem(v, k->g, k->path, "offset index lists %d pages, the chunk has %d data pages", pi->n_locations, n_data);
    return;
  }
  for (int32_t i = 0; i < n_data; i++) {
    if ((uint64_t)pi->page_offsets[i] != pg[i].offset) {
      problem(v, k->g, k->path, "offset index page %d at %lld, the page is at %llu", i, (long long)pi->page_offsets[i],
              (unsigned long long)pg[i].offset);
      return;
    }
    /* the size of the page with its header (readers fetch exactly these bytes) */
    if (pi->compressed_page_sizes[i] < 0 || (uint64_t)pi->compressed_page_sizes[i] != pg[i].size) {
      problem(v, k->g, k->path,
              "offset index page %d: compressed_page_size %d, the page with its header has %llu bytes", i,
              pi->compressed_page_sizes[i], (unsigned long long)pg[i].size);
      return;
    }
  }
}

/* A v2 header's num_nulls must agree with its page's levels: entries
 * without a value (null at some level, or an empty list), as parquet-java
 * and Arrow count them. The reader trusts the levels (parquet-java before
 * 1.18 writes -1); verify reports a header that says otherwise. */
static void check_page_nulls(chunk_ctx *k, const page_rec *pg, int32_t np) {
  for (int32_t i = 0; i < np; i++) {
    if (pg[i].num_nulls < 0) continue;
    int64_t nulls = pg[i].levels - pg[i].values;
    if (nulls != pg[i].num_nulls)
      problem(k->v, k->g, k->path, "page %d: the v2 header says %d nulls, its levels hold %lld", pg[i].page,
              pg[i].num_nulls, (long long)nulls);
  }
}

/* Is b a well-formed min/max entry for the column? Fixed-width values
 * have their width; byte arrays may be truncated to any length. */
static bool bound_well_formed(const chunk_ctx *k, const pqt_value *b) {
  switch (k->leaf.physical) {
    case PQT_TYPE_BOOLEAN: return b->n_plain == 1;
    case PQT_TYPE_INT32:
    case PQT_TYPE_FLOAT: return b->n_plain == 4;
    case PQT_TYPE_INT64:
    case PQT_TYPE_DOUBLE: return b->n_plain == 8;
    case PQT_TYPE_INT96: return b->n_plain == 12;
    default: return true;
  }
}

/* A level histogram list of the column index (ColumnIndex fields 6 and 7:
 * max_level + 1 counts per page, pages concatenated) against the levels of
 * each page (hist: the decoded pages' histograms, width counts each). */
static void check_histograms(chunk_ctx *k, const int64_t *h, int32_t n_h, int32_t max_level, const int64_t *hist,
                             int32_t np, const char *what) {
  int64_t width = (int64_t)max_level + 1;
  if ((int64_t)n_h != (int64_t)np * width) {
    problem(k->v, k->g, k->path, "column index: %s_level_histograms has %d entries, %d pages x %lld levels expected",
            what, n_h, np, (long long)width);
    return;
  }
  if (max_level < 0) return;
  for (int32_t i = 0; i < np; i++) {
    const int64_t *got = h + (int64_t)i * width, *counts = hist + (int64_t)i * width;
    for (int64_t l = 0; l < width; l++)
      if (got[l] != counts[l]) {
        problem(k->v, k->g, k->path,
                "column index, data page %d: %s_level_histograms counts %lld at level %lld, the page has %lld", i, what,
                (long long)got[l], (long long)l, (long long)counts[l]);
        break;
      }
  }
}

static const char *boundary_name(int32_t b) {
  return b == PQT_BOUNDARY_ORDER_ASCENDING    ? "ASCENDING"
         : b == PQT_BOUNDARY_ORDER_DESCENDING ? "DESCENDING"
                                              : "UNORDERED";
}

/* The column index (spec: "Page Index", ColumnIndex in parquet.thrift)
 * against the decoded pages. The index is untrusted: every list length is
 * checked before use, and min/max entries may have any length. */
static void check_column_index(chunk_ctx *k, const pqt_page_index *ci, int32_t column_order, const page_rec *pg,
                               int32_t np, const int64_t *rep_hist, const int64_t *def_hist) {
  vctx *v = k->v;
  int32_t g = k->g;
  const char *col = k->path;
  if (ci->column_index_error) {
    problem(v, g, col, "%s", ci->column_index_error);
    return;
  }
  if (!ci->has_column_index) return;
  /* a damaged index could otherwise print a line per page */
  int32_t budget_before = v->budget;
  int64_t unprinted_before = v->unprinted;
  v->budget = 20;
  bool lists_ok = true;
  if (ci->n_pages != np) {
    problem(v, g, col, "column index lists %d pages, the chunk has %d data pages", ci->n_pages, np);
    lists_ok = false;
  }
  if (ci->n_min_values != ci->n_pages || ci->n_max_values != ci->n_pages) {
    problem(v, g, col, "column index: %d null_pages, %d min_values, %d max_values", ci->n_pages, ci->n_min_values,
            ci->n_max_values);
    lists_ok = false;
  }
  bool has_nulls = ci->n_null_counts >= 0;
  if (has_nulls && ci->n_null_counts != np) {
    problem(v, g, col, "column index: %d null_counts for %d data pages", ci->n_null_counts, np);
    has_nulls = false;
  }
  bool has_nans = ci->n_nan_counts >= 0 && k->fl;
  if (has_nans && ci->n_nan_counts != np) {
    problem(v, g, col, "column index: %d nan_counts for %d data pages", ci->n_nan_counts, np);
    has_nans = false;
  }
  /* min/max are defined by the column order (FileMetaData.column_orders;
   * without it their meaning is undefined). IEEE 754 total order agrees
   * with the sort order compared here except for -0/+0 and NaN, which it
   * does not judge. */
  bool ordered = ordered_by(column_order);
  for (int32_t i = 0; i < np; i++) {
    int64_t nonnull = pg[i].values, nulls = pg[i].levels - pg[i].values;
    /* null_counts: the page's null values, entries below max_def (an
     * empty or null list counts as one, as writers count them) */
    if (has_nulls && ci->null_counts[i] != nulls)
      problem(v, g, col, "column index, data page %d: null_counts says %lld nulls, the page has %lld", i,
              (long long)ci->null_counts[i], (long long)nulls);
    if (has_nans && ci->nan_counts[i] != pg[i].nans)
      problem(v, g, col, "column index, data page %d: nan_counts says %lld NaNs, the page has %lld", i,
              (long long)ci->nan_counts[i], (long long)pg[i].nans);
    if (!lists_ok) continue;
    bool null_page = ci->null_pages[i];
    if (null_page != (nonnull == 0)) {
      if (null_page)
        problem(v, g, col, "column index, data page %d: null_pages says only nulls, the page has %lld values", i,
                (long long)nonnull);
      else problem(v, g, col, "column index, data page %d: null_pages says values, the page has only nulls", i);
      continue;
    }
    if (null_page || !ordered) continue;
    const pqt_value *bmin = &ci->min_values[i], *bmax = &ci->max_values[i];
    if (!bound_well_formed(k, bmin) || !bound_well_formed(k, bmax)) {
      problem(v, g, col, "column index, data page %d: min/max of %lld/%lld bytes for a %s column", i,
              (long long)bmin->n_plain, (long long)bmax->n_plain, pqt_physical_name(k->leaf.physical));
      continue;
    }
    if (!pg[i].has_min_max) continue; /* no order, or only NaNs */
    /* bounds, not necessarily values: a byte array's min may be a
     * truncated prefix, its max rounded up */
    if (cmp(k, bmin->plain, bmin->n_plain, pg[i].mn, pg[i].mnn) == 1)
      problem(v, g, col, "column index, data page %d: min_values is above the page's smallest value", i);
    if (cmp(k, bmax->plain, bmax->n_plain, pg[i].mx, pg[i].mxn) == -1)
      problem(v, g, col, "column index, data page %d: max_values is below the page's largest value", i);
  }
  /* boundary_order: min_values and max_values both ordered over the
   * non-null pages (null pages have no bounds and are skipped) */
  if (ci->boundary_order < PQT_BOUNDARY_ORDER_UNORDERED || ci->boundary_order > PQT_BOUNDARY_ORDER_DESCENDING) {
    problem(v, g, col, "column index: unknown boundary_order %d", ci->boundary_order);
  } else if (lists_ok && ordered && ci->boundary_order != PQT_BOUNDARY_ORDER_UNORDERED) {
    int want = ci->boundary_order == PQT_BOUNDARY_ORDER_ASCENDING ? 1 : -1;
    int32_t prev = -1;
    for (int32_t i = 0; i < np; i++) {
      const pqt_value *bmin = &ci->min_values[i], *bmax = &ci->max_values[i];
      if (ci->null_pages[i] || !bound_well_formed(k, bmin) || !bound_well_formed(k, bmax) || is_nan_value(bmin) ||
          is_nan_value(bmax))
        continue;
      if (prev >= 0) {
        const pqt_value *pmin = &ci->min_values[prev], *pmax = &ci->max_values[prev];
        int cmn = cmp(k, bmin->plain, bmin->n_plain, pmin->plain, pmin->n_plain);
        int cmx = cmp(k, bmax->plain, bmax->n_plain, pmax->plain, pmax->n_plain);
        if ((cmn != 2 && cmn == -want) || (cmx != 2 && cmx == -want)) {
          problem(v, g, col, "column index, data page %d: boundary_order is %s, but the page's %s %s data page %d's", i,
                  boundary_name(ci->boundary_order), cmn == -want ? "min_values is" : "max_values is",
                  want == 1 ? "below" : "above", prev);
          break;
        }
      }
      prev = i;
    }
  }
  if (ci->n_definition_level_histograms >= 0)
    check_histograms(k, ci->definition_level_histograms, ci->n_definition_level_histograms, k->leaf.max_def, def_hist,
                     np, "definition");
  if (ci->n_repetition_level_histograms >= 0)
    check_histograms(k, ci->repetition_level_histograms, ci->n_repetition_level_histograms, k->leaf.max_rep, rep_hist,
                     np, "repetition");
  if (v->unprinted > unprinted_before)
    pqt_buf_printf(&v->out, NULL, "row group %d, column %s: column index: %lld more problems not shown\n", g, col,
                   (long long)(v->unprinted - unprinted_before));
  v->budget = budget_before;
}

/* ---- one chunk ---- */

/* What the walk gathered of one chunk. */
typedef struct walk {
  pqt_buf recs;               /* page_rec per data page */
  pqt_buf rep_hist, def_hist; /* the decoded pages' level histograms, max_level + 1 counts each */
  int64_t values;             /* decoded so far */
  bool broken;                /* a page could not be walked, or its CRC does not match */
  bool dec_failed;
  pqt_error dec_err;
  int32_t bloom_checked; /* 1 read, 0 none, -1 unreadable (bloom_error) */
  int64_t bloom_missing, bloom_first;
  const char *bloom_error; /* the cursor's: lives until it is closed */
} walk;

/* Decode the cursor's current data page into rec and the walk's totals. */
static pqt_status decode_page(chunk_ctx *k, pqt_page_cursor *pc, walk *w, geo_check *gc, page_rec *rec,
                              pqt_error *err) {
  pqt_page_values pv;
  pqt_page_values_init(&pv);
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_page_cursor_decode(pc, &pv, &e);
  if (st == PQT_ENOMEM) return pqt_nomem(err);
  if (st != PQT_OK) {
    w->dec_failed = true;
    w->dec_err = e;
    return PQT_OK;
  }
  rec->levels = pv.num_levels;
  rec->values = pv.num_values;
  rec->nans = pv.nan_count;
  rec->has_min_max = pv.has_min_max;
  if (pv.has_min_max) {
    rec->mn = pv.min_value.plain;
    rec->mnn = pv.min_value.n_plain;
    rec->mx = pv.max_value.plain;
    rec->mxn = pv.max_value.n_plain;
  }
  if (pv.n_rep_levels != k->leaf.max_rep + 1 || pv.n_def_levels != k->leaf.max_def + 1)
    return pqt_error_set(err, PQT_EINVAL, "row group %d, column %s: level histograms of %d/%d levels", k->g, k->path,
                         pv.n_rep_levels, pv.n_def_levels);
  PQT_RETURN_NOT_OK(
      pqt_buf_append(&w->rep_hist, pv.repetition_level_histogram, sizeof(int64_t) * (size_t)pv.n_rep_levels, err));
  PQT_RETURN_NOT_OK(
      pqt_buf_append(&w->def_hist, pv.definition_level_histogram, sizeof(int64_t) * (size_t)pv.n_def_levels, err));
  w->bloom_checked = pv.bloom_checked;
  if (pv.bloom_error) w->bloom_error = pv.bloom_error;
  if (pv.bloom_missing) {
    if (w->bloom_first < 0) w->bloom_first = w->values + pv.bloom_first_missing;
    w->bloom_missing += pv.bloom_missing;
  }
  PQT_RETURN_NOT_OK(geo_page(gc, pc, w->values, pv.num_values, err));
  w->values += pv.num_values;
  return PQT_OK;
}

/* Walk the pages (CRCs as a report), decoding each data page while the
 * walk is sound. */
static pqt_status walk_pages(chunk_ctx *k, pqt_page_cursor *pc, walk *w, geo_check *gc, pqt_error *err) {
  vctx *v = k->v;
  for (;;) {
    pqt_page_info pg;
    pqt_page_info_init(&pg);
    int eof = 0;
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = pqt_page_cursor_next(pc, &pg, &eof, &e);
    if (st == PQT_ENOMEM) return pqt_nomem(err);
    if (st != PQT_OK) {
      problem(v, k->g, k->path, "%s", pqt_reader_error_detail(v->r, &e));
      w->broken = true;
      return PQT_OK;
    }
    if (eof) return PQT_OK;
    if (pg.crc_ok == 0) {
      problem(v, k->g, k->path, "page %d: CRC32 mismatch", pg.index);
      w->broken = true;
    }
    if (pg.page_type == PQT_PAGE_KIND_DICTIONARY_PAGE) continue;
    page_rec rec;
    memset(&rec, 0, sizeof rec);
    rec.page = pg.index;
    rec.num_nulls = pg.page_type == PQT_PAGE_KIND_DATA_PAGE_V2 ? pg.num_nulls : -1;
    rec.offset = (uint64_t)pg.offset;
    rec.size = (uint64_t)pg.header_size + (uint64_t)pg.compressed_size;
    /* pages that could not be walked are reported once, not again by the decoder */
    if (!w->broken && !w->dec_failed) PQT_RETURN_NOT_OK(decode_page(k, pc, w, gc, &rec, err));
    PQT_RETURN_NOT_OK(pqt_buf_append(&w->recs, &rec, sizeof rec, err));
  }
}

/* One column chunk: its pages, values, statistics, page index and Bloom
 * filter. ENOMEM stops the run; everything else is a problem reported. */
static pqt_status check_chunk(vctx *v, int32_t g, int32_t c, pqt_error *err) {
  pqt_reader *r = v->r;
  chunk_ctx k = {v, g, c, {0}, NULL, false};
  pqt_schema_info_init(&k.leaf);
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_schema_node(r, pqt_reader_column_node(r, c), &k.leaf, &e) != PQT_OK) {
    problem(v, -1, "", "%s", e.message);
    return PQT_OK;
  }
  k.path = k.leaf.path;
  k.fl = k.leaf.physical == PQT_TYPE_FLOAT || k.leaf.physical == PQT_TYPE_DOUBLE ||
         (k.leaf.physical == PQT_TYPE_FIXED_LEN_BYTE_ARRAY && k.leaf.logical == PQT_LOGICAL_FLOAT16);
  const pqt_allocator *a = pqt_reader_allocator(r);
  walk w;
  memset(&w, 0, sizeof w);
  w.bloom_first = -1;
  pqt_buf_init(&w.recs, a);
  pqt_buf_init(&w.rep_hist, a);
  pqt_buf_init(&w.def_hist, a);
  geo_check gc;
  geo_start(&k, &gc);
  pqt_page_index pi;
  pqt_page_index_init(&pi);
  pqt_status st = PQT_OK;
  /* the public page walk (parquetry_meta.h): the reader's page reader, CRCs reported */
  pqt_page_cursor *pc = NULL;
  pqt_status os = pqt_page_cursor_open(r, g, c, &pc, &e);
  if (os == PQT_ENOMEM) {
    st = pqt_nomem(err);
    goto out;
  }
  if (os == PQT_ECRYPTO) { /* the column's key is not at hand */
    unchecked(v, "row group %d, column %s: not checked: no key for column %s (%s)", g, k.path, k.path,
              pqt_reader_error_detail(r, &e));
    goto out;
  }
  if (os != PQT_OK) {
    problem(v, g, k.path, "%s", pqt_reader_error_detail(r, &e));
    w.broken = true;
  } else {
    st = walk_pages(&k, pc, &w, &gc, err);
    if (st != PQT_OK) goto out;
    /* the chunk's decode as a whole: it also judges a chunk without data pages */
    if (!w.broken && !w.dec_failed) {
      pqt_status cs = pqt_page_cursor_check(pc, &w.dec_err);
      if (cs == PQT_ENOMEM) {
        st = pqt_nomem(err);
        goto out;
      }
      w.dec_failed = cs != PQT_OK;
    }
  }
  const page_rec *recs = (const page_rec *)(const void *)w.recs.data;
  int32_t np = (int32_t)(w.recs.len / sizeof(page_rec));
  /* the page index as stored: judged entry by entry below. When the chunk
   * could not be opened at all, that was reported above. */
  bool have_pi = false;
  pqt_status ps = pqt_reader_page_index_stored(r, g, c, &pi, &e);
  if (ps == PQT_ENOMEM) {
    st = pqt_nomem(err);
    goto out;
  }
  if (ps == PQT_OK) have_pi = true;
  else if (pc) problem(v, g, k.path, "%s", pqt_reader_error_detail(r, &e));
  if (have_pi) check_offset_index(&k, &pi, recs, np);
  if (w.broken) goto out;
  if (w.dec_failed) {
    problem(v, -1, "", "%s", w.dec_err.message);
    goto out;
  }
  int64_t levels = 0;
  for (int32_t i = 0; i < np; i++) levels += recs[i].levels;
  pqt_chunk_info ci;
  pqt_chunk_info_init(&ci);
  if (pqt_reader_chunk(r, g, c, &ci, &e) == PQT_OK && levels != ci.num_values)
    problem(v, g, k.path, "metadata says %lld values, the pages hold %lld", (long long)ci.num_values,
            (long long)levels);
  /* a bound that is not a value of the type is still judged (as not ordered): the stored form keeps it */
  pqt_chunk_statistics s;
  pqt_chunk_statistics_init(&s);
  if (pqt_reader_chunk_statistics(r, g, c, &s, &e) != PQT_OK) {
    pqt_chunk_statistics_init(&s);
    if (pqt_reader_chunk_statistics_stored(r, g, c, &s, &e) != PQT_OK) pqt_chunk_statistics_init(&s);
  }
  check_statistics(&k, &s, recs, np);
  geo_finish(&k, &gc);
  if (have_pi)
    check_column_index(&k, &pi, s.column_order, recs, np, (const int64_t *)(const void *)w.rep_hist.data,
                       (const int64_t *)(const void *)w.def_hist.data);
  check_page_nulls(&k, recs, np);
  /* every non-null value must test positive in the Bloom filter (BOOLEAN columns have none) */
  if (w.bloom_checked == -1) problem(v, g, k.path, "Bloom filter: %s", w.bloom_error ? w.bloom_error : "");
  else if (w.bloom_missing)
    problem(v, g, k.path, "Bloom filter misses %lld of the chunk's values (the first is value %lld)",
            (long long)w.bloom_missing, (long long)w.bloom_first);
out:
  pqt_page_index_free(&pi);
  pqt_page_cursor_close(pc);
  pqt_buf_free(&w.recs);
  pqt_buf_free(&w.rep_hist);
  pqt_buf_free(&w.def_hist);
  return st;
}

/* A plaintext footer's signature (spec: "Plaintext footer mode"): checked
 * at open when the footer key is at hand and verify_footer_signature is
 * set; here when only the option was off. Without the key: not checked. */
static void check_footer_signature(vctx *v) {
  int32_t state = PQT_FOOTER_SIGNATURE_NONE;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_footer_signature(v->r, &state, &e) != PQT_OK) problem(v, -1, "", "%s", e.message);
  else if (state == PQT_FOOTER_SIGNATURE_NO_KEY)
    unchecked(v, "not checked: the plaintext footer's signature (no footer key)");
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
  pqt_buf_init(&v.out, pqt_reader_allocator(r));
  pqt_status st = PQT_OK;
  check_footer_signature(&v);
  int64_t rows = 0, chunks = 0;
  bool has_progress = report && report->struct_size >= offsetof(pqt_verify_report, progress_ctx) + sizeof(void *);
  void (*progress)(void *, int64_t, int64_t) = has_progress ? report->progress : NULL;
  void *progress_ctx = has_progress ? report->progress_ctx : NULL;
  int32_t n_groups = pqt_reader_num_row_groups(r), n_cols = pqt_reader_num_columns(r);
  int64_t n_chunks = (int64_t)n_groups * n_cols;
  for (int32_t g = 0; g < n_groups && st == PQT_OK; g++) {
    rows += pqt_reader_row_group_num_rows(r, g);
    for (int32_t c = 0; c < n_cols && st == PQT_OK; c++) {
      int64_t unchecked_before = v.unchecked;
      st = check_chunk(&v, g, c, err);
      chunks += v.unchecked == unchecked_before;
      if (progress) progress(progress_ctx, (int64_t)g * n_cols + c + 1, n_chunks);
      if (v.out.len > (64u << 10)) {
        if (write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK) st = pqt_error_set(err, PQT_EIO, "write failed");
        v.out.len = 0;
      }
    }
  }
  if (st == PQT_OK && pqt_reader_num_rows(r) != rows)
    problem(&v, -1, "", "footer says %lld rows, the row groups hold %lld", (long long)pqt_reader_num_rows(r),
            (long long)rows);
  if (st == PQT_OK && v.out.len && write(ctx, (const char *)v.out.data, v.out.len) != PQT_OK)
    st = pqt_error_set(err, PQT_EIO, "write failed");
  pqt_buf_free(&v.out);
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
