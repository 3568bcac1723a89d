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
 * Edges (GEOGRAPHY). An edge between two consecutive vertices of a
 * LineString or ring is the minor great-circle arc between them; it can
 * reach a latitude beyond both vertices (it bulges towards a pole) and it
 * sweeps the longitudes between them the short way (possibly across the
 * antimeridian). We COMPUTE, per edge, rather than widen blindly: the
 * northern and southern vertices of the edge's great circle (the points of
 * the circle farthest from the equator, from the normal n = p1 x p2) are
 * tested for lying on the arc, and when one does its latitude extends
 * ymin/ymax; the arc of longitudes swept (the short way, less than 180
 * degrees) is added to the longitude arc. For "spherical" edges this is
 * exact: the box is the smallest that holds the edge, padded only by a
 * rounding bound (a few ulps, more for very short edges where the cross
 * product loses digits). Why compute rather than widen: a fixed widening
 * is either too small near the poles or spoils pruning everywhere, while
 * the exact value costs a cross product per edge.
 * For the ellipsoidal algorithms (vincenty, thomas, andoyer, karney) the
 * edge is a geodesic on the WGS84 ellipsoid, which departs from the great
 * circle through the same geodetic coordinates by an amount of the order
 * of the flattening f times the edge's angular length; we do not solve
 * the geodesic but widen the great-circle extreme by 4 f sigma (sigma the
 * edge's central angle, in degrees; at most 2 degrees) towards the pole
 * whenever the edge has an interior extreme or bulges within that margin.
 * That margin is a bound argued from the order of the effect, not a proof;
 * it errs large (an edge of 10 degrees gets 0.13 degrees).
 * Antipodal vertices (no unique edge) widen Y to [-90, 90] and the
 * longitudes to the whole circle. An edge ending at a pole, or passing over
 * one (vertices 180 degrees of longitude apart), gives the box every longitude (the pole is at all of them; S2 bounds it so); a lone
 * POINT at a pole keeps its own longitude (as S2 and the corpus do). Polygon rings around a
 * pole: see ring_step.
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
  if (b->edges == PQT_GEO_EDGES_PLANAR) return;
  if (!(x >= -180.0 && x <= 180.0)) b->arc_state_ = 3;
  else arc_union(b, x, x);
}

typedef struct bbox_ctx {
  pqt_geo_bbox *b;
  uint32_t dims;
  int in_path;  /* inside a LineString or ring: consecutive coordinates are edges */
  int has_prev; /* prev holds the previous vertex of the path (non-NaN X and Y) */
  double prev[2];
  int in_ring;       /* the path is a polygon ring */
  double wind;       /* sum of the edges' signed longitude sweeps (degrees) */
  double north_area; /* integral of (1 - sin lat) d lon along the ring: the area north of it */
} bbox_ctx;

#define PQT_GEO_PI 3.14159265358979323846
#define PQT_GEO_WGS84_F (1.0 / 298.257223563)

static void unit_vec(double lon, double lat, double v[3]) {
  double la = lat * (PQT_GEO_PI / 180.0), lo = lon * (PQT_GEO_PI / 180.0);
  v[0] = cos(la) * cos(lo);
  v[1] = cos(la) * sin(lo);
  v[2] = sin(la);
}

static void cross3(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void add_y_ext(pqt_geo_bbox *b, double y) {
  if (y > 90.0) y = 90.0;
  if (y < -90.0) y = -90.0;
  add_range(y, &b->has_y_, &b->ymin, &b->ymax);
}

/* The edge (lon0, lat0) -> (lon1, lat1) of a GEOGRAPHY path: see the file
 * comment. Both vertices are added to the box by the caller. */
static void add_edge(pqt_geo_bbox *b, double lon0, double lat0, double lon1, double lat1) {
  if (!isfinite(lon0) || !isfinite(lat0) || !isfinite(lon1) || !isfinite(lat1)) return;
  if (lon0 == lon1 && lat0 == lat1) return;
  double p0[3], p1[3], n[3];
  unit_vec(lon0, lat0, p0);
  unit_vec(lon1, lat1, p1);
  cross3(p0, p1, n);
  double nn = sqrt(dot3(n, n));
  double c = dot3(p0, p1);
  if (nn < 1e-15 && c < 0) { /* antipodal: no unique edge */
    add_y_ext(b, -90.0);
    add_y_ext(b, 90.0);
    add_range(-180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    add_range(180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    if (b->arc_state_ != 3) b->arc_state_ = 2;
    return;
  }
  double sigma_deg = atan2(nn, c) * (180.0 / PQT_GEO_PI);
  /* rounding bound of the computed extreme latitude (degrees) */
  double pad = (8e-16 / (nn > 1e-300 ? nn : 1e-300)) * (180.0 / PQT_GEO_PI) + 1e-12;
  if (pad > 1.0) pad = 1.0;
  double margin = b->edges == PQT_GEO_EDGES_ELLIPSOIDAL ? 4.0 * PQT_GEO_WGS84_F * sigma_deg : 0.0;
  if (margin > 2.0) margin = 2.0;
  double h = sqrt(n[0] * n[0] + n[1] * n[1]);
  if (h > 0) {
    double lat_max = atan2(h, fabs(n[2])) * (180.0 / PQT_GEO_PI);
    /* the northern vertex v = (-nx nz, -ny nz, nx^2 + ny^2) up to scale */
    double v[3] = {-n[0] * n[2], -n[1] * n[2], h * h}, t[3];
    for (int s = 0; s < 2; s++) {
      double w[3] = {s ? -v[0] : v[0], s ? -v[1] : v[1], s ? -v[2] : v[2]};
      cross3(p0, w, t);
      int after0 = dot3(t, n) >= 0;
      cross3(w, p1, t);
      int before1 = dot3(t, n) >= 0;
      double ext = s ? -lat_max : lat_max;
      if (after0 && before1) {
        add_y_ext(b, s ? ext - pad - margin : ext + pad + margin);
      } else if (margin > 0) {
        /* the geodesic may reach an extreme the great circle puts just outside */
        double end = s ? fmin(lat0, lat1) : fmax(lat0, lat1);
        if (fabs(ext - end) < margin) add_y_ext(b, s ? end - margin : end + margin);
      }
    }
  }
  /* longitudes swept, the short way (a polar vertex's edge is a meridian) */
  if (fabs(lat0) >= 90.0 || fabs(lat1) >= 90.0) {
    /* an edge ending at a pole: the pole is at every longitude (as S2 bounds it) */
    add_range(-180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    add_range(180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    if (b->arc_state_ != 3) b->arc_state_ = 2;
    return;
  }
  if (!(lon0 >= -180.0 && lon0 <= 180.0 && lon1 >= -180.0 && lon1 <= 180.0)) return; /* arc unusable anyway */
  double d = lon1 - lon0;
  if (d > 180.0) d -= 360.0;
  if (d < -180.0) d += 360.0;
  if (d == 180.0 || d == -180.0) { /* over a pole: at every longitude there, as above */
    add_range(-180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    add_range(180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    if (b->arc_state_ != 3) b->arc_state_ = 2;
    return;
  }
  if (d >= 0) arc_union(b, lon0, lon1);
  else arc_union(b, lon1, lon0);
  if (d >= 0 ? lon1 < lon0 : lon1 > lon0) b->crosses_ = 1;
}

static pqt_status bbox_begin(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, uint32_t index, int depth,
                             pqt_error *err) {
  (void)parent, (void)index, (void)err;
  bbox_ctx *c = ctx;
  c->dims = g->dims;
  c->in_path = g->type == PQT_GEO_LINESTRING;
  c->in_ring = 0;
  c->has_prev = 0;
  if (depth == 0) c->b->type_mask_ |= 1u << (g->dims * 7u + g->type - 1u);
  return PQT_OK;
}

/* Polygon interiors. A ring whose edges wind once around the polar axis
 * (their longitude sweeps add up to +-360 degrees) separates the two poles,
 * so the polygon's interior holds one of them although no edge comes near
 * it. Orientation conventions differ between writers (S2 takes the left of
 * the ring, others the smaller side, many never say), so we take the
 * interior to be the smaller of the two sides (the one with less area,
 * from the ring's north_area) and extend the box to its pole, with every
 * longitude. A ring that does not wind around the axis and is given
 * clockwise is taken as the small region it draws, not its complement. */
static void ring_step(bbox_ctx *c, double lon0, double lat0, double lon1, double lat1) {
  if (!(lon0 >= -360.0 && lon0 <= 360.0 && lon1 >= -360.0 && lon1 <= 360.0) || !isfinite(lat0) || !isfinite(lat1))
    return;
  double d = lon1 - lon0;
  if (d > 180.0) d -= 360.0;
  if (d < -180.0) d += 360.0;
  if (d == 180.0 || d == -180.0) return; /* over a pole: the edge already reaches it */
  c->wind += d;
  double mid = 0.5 * (lat0 + lat1) * (PQT_GEO_PI / 180.0);
  c->north_area += d * (PQT_GEO_PI / 180.0) * (1.0 - sin(mid));
}

static pqt_status bbox_ring_end(void *ctx, uint32_t npoints, pqt_error *err) {
  (void)npoints, (void)err;
  bbox_ctx *c = ctx;
  pqt_geo_bbox *b = c->b;
  if (b->edges != PQT_GEO_EDGES_PLANAR && c->in_ring && fabs(c->wind) > 180.0) {
    /* the area north of the ring, on the side the winding gives */
    double north = fabs(c->north_area);
    add_y_ext(b, north < 2.0 * PQT_GEO_PI ? 90.0 : -90.0);
    add_range(-180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    add_range(180.0, &b->has_x_, &b->xlo_, &b->xhi_);
    if (b->arc_state_ != 3) b->arc_state_ = 2;
  }
  c->in_ring = 0;
  c->in_path = 0;
  return PQT_OK;
}

static pqt_status bbox_coord(void *ctx, const double xyzm[4], uint32_t index, pqt_error *err) {
  (void)index, (void)err;
  bbox_ctx *c = ctx;
  pqt_geo_bbox *b = c->b;
  if (b->edges != PQT_GEO_EDGES_PLANAR && c->in_path) {
    if (isnan(xyzm[0]) || isnan(xyzm[1])) {
      c->has_prev = 0; /* a vertex without a position breaks the path */
    } else {
      if (c->has_prev && index > 0) {
        add_edge(b, c->prev[0], c->prev[1], xyzm[0], xyzm[1]);
        if (c->in_ring) ring_step(c, c->prev[0], c->prev[1], xyzm[0], xyzm[1]);
      }
      c->prev[0] = xyzm[0], c->prev[1] = xyzm[1];
      c->has_prev = 1;
    }
  }
  if (!isnan(xyzm[0])) add_x(b, xyzm[0]);
  add_range(xyzm[1], &b->has_y_, &b->ymin, &b->ymax);
  if (pqt_geo_dims_has_z(c->dims)) add_range(xyzm[2], &b->has_z, &b->zmin, &b->zmax);
  if (pqt_geo_dims_has_m(c->dims)) add_range(xyzm[3], &b->has_m, &b->mmin, &b->mmax);
  return PQT_OK;
}

static pqt_status bbox_ring_begin(void *ctx, uint32_t index, uint32_t npoints, pqt_error *err) {
  (void)index, (void)npoints, (void)err;
  bbox_ctx *c = ctx;
  c->in_path = 1;
  c->in_ring = 1;
  c->has_prev = 0;
  c->wind = 0;
  c->north_area = 0;
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
  bbox_ctx c = {.b = b};
  pqt_wkb_visitor v = {0};
  v.ctx = &c;
  v.geom_begin = bbox_begin;
  v.ring_begin = bbox_ring_begin;
  v.ring_end = bbox_ring_end;
  v.coord = bbox_coord;
  return pqt_wkb_walk(wkb, len, &v, err);
}

PQT_API pqt_status pqt_geo_bbox_merge(pqt_geo_bbox *dst, const pqt_geo_bbox *src, pqt_error *err) {
  PQT_RETURN_NOT_OK(check_struct(dst, err));
  PQT_RETURN_NOT_OK(check_struct(src, err));
  if (dst->edges != src->edges)
    return pqt_error_set(err, PQT_EINVAL, "pqt_geo_bbox_merge: boxes of different edge models");
  dst->type_mask_ |= src->type_mask_;
  dst->crosses_ |= src->crosses_;
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
  if (dst->edges != PQT_GEO_EDGES_PLANAR) {
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
  if (b->has_x_ && b->edges != PQT_GEO_EDGES_PLANAR && b->arc_state_ == 1 && b->arc_lo_ > b->arc_hi_ &&
      arc_len(b->arc_lo_, b->arc_hi_) < b->xhi_ - b->xlo_) {
    b->xmin = b->arc_lo_; /* wraps the antimeridian: x >= xmin or x <= xmax */
    b->xmax = b->arc_hi_;
  } else if (b->has_x_ && b->crosses_) {
    /* an edge crosses the antimeridian, so the plain range misses part of
     * it: the arc (which holds every edge) or the whole circle */
    if (b->arc_state_ == 1) {
      b->xmin = b->arc_lo_;
      b->xmax = b->arc_hi_;
    } else { /* the whole circle (and any longitude outside it that was seen) */
      b->xmin = fmin(b->xlo_, -180.0);
      b->xmax = fmax(b->xhi_, 180.0);
    }
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
