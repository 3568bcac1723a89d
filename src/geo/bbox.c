/*
 * geo/bbox.c: the GeospatialStatistics of a column chunk (seed 001,
 * "Geospatial"): bounding box and the sorted unique list of ISO geometry
 * type codes, as an accumulator (init, add a WKB value, merge, result).
 *
 * Box rules: each dimension keeps its own min/max over the non-NaN values
 * (NaN skipped per dimension); a dimension that saw no value is omitted;
 * without X or Y there is no box; Z and M only for geometries that have
 * them. Empty geometries (including POINT EMPTY, a point of NaNs) add no
 * coordinate but their type code is listed. The type list holds the outer
 * geometry's code of each value.
 *
 * GEOGRAPHY and the antimeridian. Besides the plain [min, max] of X we keep
 * an arc of the longitude circle that covers every longitude seen, and grow
 * it one longitude (or, in merge, one arc) at a time by the smaller of the
 * two possible extensions: eastward from its end or westward from its
 * start, whichever adds less (the rule of S2's S1Interval union). The
 * result is the arc when it wraps (start > end) and is shorter than the
 * plain range, else the plain range; so the box is never larger than the
 * GEOMETRY box and never misses a longitude. Why this rule and not the
 * exact "smallest gap" over all longitudes: the exact rule needs every
 * longitude of the chunk (memory grows with the data and two accumulators
 * cannot be merged from their results), while the arc is O(1) state,
 * mergeable, and exact for the usual cases (vertices or shapes clustered
 * on either side of the antimeridian). Its cost is that for adversarial
 * orders the arc can be longer than the optimum; it is always a cover.
 * Longitudes outside [-180, 180] (or infinite) make the arc unusable and
 * the plain range is reported.
 *
 * Edge interpolation is NOT handled here: only the vertices are bounded.
 * For GEOGRAPHY an edge between two vertices bulges towards a pole (a great
 * circle's highest latitude can lie between its vertices) and an edge may
 * cross the antimeridian between vertices given in the "long way" order.
 * The widening belongs in bbox_coord below, per pair of consecutive
 * vertices of a LineString or ring (the walk gives them in order with
 * their index): extend ymin/ymax by the edge's extreme latitude and the
 * arc by the edge's own longitude span.
 */
#include <math.h>

#include "geo/wkb.h"

static double arc_len(double lo, double hi) { return lo <= hi ? hi - lo : 360.0 - (lo - hi); }

/* Does arc [lo, hi] (eastward from lo; lo > hi wraps) contain arc [lo2,
 * hi2]? Decided by comparisons only (no rounding), so a chosen arc really
 * covers what it must; -180 and 180 are treated as different values, which
 * can only make an arc longer. */
static int arc_contains(double lo, double hi, double lo2, double hi2) {
  if (lo <= hi) return lo2 <= hi2 && lo <= lo2 && hi2 <= hi;
  if (lo2 <= hi2) return (lo2 >= lo) || (hi2 <= hi);
  return lo2 >= lo && hi2 <= hi;
}

/* The shortest of the arcs made from the endpoints of a and b that covers both. */
static void arc_union(pqt_geo_bbox *b, double lo2, double hi2) {
  if (b->arc_state_ == 3 || b->arc_state_ == 2) return;
  if (b->arc_state_ == 0) {
    b->arc_state_ = 1;
    b->arc_lo_ = lo2;
    b->arc_hi_ = hi2;
    return;
  }
  double cand[4][2] = {{b->arc_lo_, b->arc_hi_}, {b->arc_lo_, hi2}, {lo2, b->arc_hi_}, {lo2, hi2}};
  int best = -1;
  double best_len = 0;
  for (int i = 0; i < 4; i++) {
    double lo = cand[i][0], hi = cand[i][1];
    if (!arc_contains(lo, hi, b->arc_lo_, b->arc_hi_) || !arc_contains(lo, hi, lo2, hi2)) continue;
    double l = arc_len(lo, hi);
    if (best < 0 || l < best_len) best = i, best_len = l;
  }
  if (best < 0) {
    b->arc_state_ = 2; /* the whole circle */
    return;
  }
  b->arc_lo_ = cand[best][0];
  b->arc_hi_ = cand[best][1];
}

static void add_range(double v, int *has, double *lo, double *hi) {
  if (isnan(v)) return;
  if (!*has) {
    *lo = *hi = v;
    *has = 1;
  } else {
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
}

static void add_x(pqt_geo_bbox *b, double x) {
  add_range(x, &b->has_x_, &b->xlo_, &b->xhi_);
  if (b->edges != PQT_GEO_EDGES_GEOGRAPHY) return;
  if (!(x >= -180.0 && x <= 180.0)) b->arc_state_ = 3;
  else arc_union(b, x, x);
}

typedef struct bbox_ctx {
  pqt_geo_bbox *b;
  uint32_t dims;
} bbox_ctx;

static pqt_status bbox_begin(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, uint32_t index, int depth,
                             pqt_error *err) {
  (void)parent, (void)index, (void)err;
  bbox_ctx *c = ctx;
  c->dims = g->dims;
  if (depth == 0) c->b->type_mask_ |= 1u << (g->dims * 7u + g->type - 1u);
  return PQT_OK;
}

static pqt_status bbox_coord(void *ctx, const double xyzm[4], uint32_t index, pqt_error *err) {
  (void)index, (void)err;
  bbox_ctx *c = ctx;
  pqt_geo_bbox *b = c->b;
  /* (edge widening for GEOGRAPHY would go here: see the file comment) */
  if (!isnan(xyzm[0])) add_x(b, xyzm[0]);
  add_range(xyzm[1], &b->has_y_, &b->ymin, &b->ymax);
  if (pqt_geo_dims_has_z(c->dims)) add_range(xyzm[2], &b->has_z, &b->zmin, &b->zmax);
  if (pqt_geo_dims_has_m(c->dims)) add_range(xyzm[3], &b->has_m, &b->mmin, &b->mmax);
  return PQT_OK;
}

PQT_API void pqt_geo_bbox_init_sized(pqt_geo_bbox *b, size_t struct_size, pqt_geo_edges edges) {
  if (!b) return;
  pqt_geo_bbox t;
  memset(&t, 0, sizeof t);
  t.struct_size = struct_size;
  t.edges = (int32_t)edges;
  memcpy(b, &t, struct_size < sizeof t ? struct_size : sizeof t);
}

static pqt_status check_struct(const pqt_geo_bbox *b, pqt_error *err) {
  if (!b || b->struct_size != sizeof *b)
    return pqt_error_set(err, PQT_EINVAL, "pqt_geo_bbox: not set up by pqt_geo_bbox_init (struct_size)");
  return PQT_OK;
}

PQT_API pqt_status pqt_geo_bbox_add_wkb(pqt_geo_bbox *b, const uint8_t *wkb, size_t len, pqt_error *err) {
  PQT_RETURN_NOT_OK(check_struct(b, err));
  PQT_RETURN_NOT_OK(pqt_wkb_validate(wkb, len, NULL, err)); /* a bad value changes nothing */
  bbox_ctx c = {b, 0};
  pqt_wkb_visitor v = {0};
  v.ctx = &c;
  v.geom_begin = bbox_begin;
  v.coord = bbox_coord;
  return pqt_wkb_walk(wkb, len, &v, err);
}

PQT_API pqt_status pqt_geo_bbox_merge(pqt_geo_bbox *dst, const pqt_geo_bbox *src, pqt_error *err) {
  PQT_RETURN_NOT_OK(check_struct(dst, err));
  PQT_RETURN_NOT_OK(check_struct(src, err));
  if (dst->edges != src->edges)
    return pqt_error_set(err, PQT_EINVAL, "pqt_geo_bbox_merge: boxes of different edge models");
  dst->type_mask_ |= src->type_mask_;
  if (src->has_x_) {
    add_range(src->xlo_, &dst->has_x_, &dst->xlo_, &dst->xhi_);
    add_range(src->xhi_, &dst->has_x_, &dst->xlo_, &dst->xhi_);
  }
  if (src->has_y_) {
    add_range(src->ymin, &dst->has_y_, &dst->ymin, &dst->ymax);
    add_range(src->ymax, &dst->has_y_, &dst->ymin, &dst->ymax);
  }
  if (src->has_z) {
    add_range(src->zmin, &dst->has_z, &dst->zmin, &dst->zmax);
    add_range(src->zmax, &dst->has_z, &dst->zmin, &dst->zmax);
  }
  if (src->has_m) {
    add_range(src->mmin, &dst->has_m, &dst->mmin, &dst->mmax);
    add_range(src->mmax, &dst->has_m, &dst->mmin, &dst->mmax);
  }
  if (dst->edges == PQT_GEO_EDGES_GEOGRAPHY) {
    if (src->arc_state_ == 3 || src->arc_state_ == 2) {
      if (dst->arc_state_ != 3) dst->arc_state_ = src->arc_state_;
    } else if (src->arc_state_ == 1) {
      arc_union(dst, src->arc_lo_, src->arc_hi_);
    }
  }
  return PQT_OK;
}

PQT_API void pqt_geo_bbox_result(pqt_geo_bbox *b) {
  if (!b || b->struct_size != sizeof *b) return;
  b->has_xy = b->has_x_ && b->has_y_;
  b->xmin = b->xlo_;
  b->xmax = b->xhi_;
  if (b->has_x_ && b->edges == PQT_GEO_EDGES_GEOGRAPHY && b->arc_state_ == 1 && b->arc_lo_ > b->arc_hi_ &&
      arc_len(b->arc_lo_, b->arc_hi_) < b->xhi_ - b->xlo_) {
    b->xmin = b->arc_lo_; /* wraps the antimeridian: x >= xmin or x <= xmax */
    b->xmax = b->arc_hi_;
  }
  b->n_types = 0;
  for (uint32_t d = 0; d < 4; d++)
    for (uint32_t t = 1; t <= 7; t++)
      if (b->type_mask_ & (1u << (d * 7u + t - 1u))) b->types[b->n_types++] = d * 1000u + t;
}

/* X ranges as at most two plain intervals (a wrapped one splits at the antimeridian). */
static int x_parts(const pqt_geo_bbox *b, double lo[2], double hi[2]) {
  if (b->xmin <= b->xmax) {
    lo[0] = b->xmin, hi[0] = b->xmax;
    return 1;
  }
  lo[0] = b->xmin, hi[0] = INFINITY;
  lo[1] = -INFINITY, hi[1] = b->xmax;
  return 2;
}

static int overlap(double alo, double ahi, double blo, double bhi) { return alo <= bhi && blo <= ahi; }

PQT_API int pqt_geo_bbox_intersects(const pqt_geo_bbox *a, const pqt_geo_bbox *b) {
  if (!a || !b || !a->has_xy || !b->has_xy) return 0;
  if (!overlap(a->ymin, a->ymax, b->ymin, b->ymax)) return 0;
  if (a->has_z && b->has_z && !overlap(a->zmin, a->zmax, b->zmin, b->zmax)) return 0;
  if (a->has_m && b->has_m && !overlap(a->mmin, a->mmax, b->mmin, b->mmax)) return 0;
  double alo[2], ahi[2], blo[2], bhi[2];
  int na = x_parts(a, alo, ahi), nb = x_parts(b, blo, bhi);
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (overlap(alo[i], ahi[i], blo[j], bhi[j])) return 1;
  return 0;
}
