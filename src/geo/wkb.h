/*
 * geo/wkb.h: a bounds-checked walk over one WKB value (ISO and EWKB flag
 * bits, either byte order per geometry, depth-limited). The walk calls a
 * visitor for each geometry, ring and coordinate; validation, WKT text and
 * bounding boxes are visitors. See include/parquetry_geo.h for the rules.
 */
#ifndef PQT_GEO_WKB_H
#define PQT_GEO_WKB_H

#include "core/core.h"
#include "parquetry_geo.h"

/* One geometry as the walk meets it. */
typedef struct pqt_wkb_geom {
  uint32_t type;  /* pqt_geo_type */
  uint32_t dims;  /* pqt_geo_dims */
  uint32_t count; /* points (LineString), rings (Polygon), parts (collections); Point: 0 when empty, else 1 */
  size_t offset;  /* byte offset of its byte-order byte */
} pqt_wkb_geom;

static inline uint32_t pqt_wkb_iso_code(const pqt_wkb_geom *g) { return g->dims * 1000u + g->type; }
static inline int pqt_geo_dims_has_z(uint32_t d) { return d == PQT_GEO_XYZ || d == PQT_GEO_XYZM; }
static inline int pqt_geo_dims_has_m(uint32_t d) { return d == PQT_GEO_XYM || d == PQT_GEO_XYZM; }

/* Callbacks; any may be NULL. index is the position among the parent's
 * children (geometries, rings of a polygon, points of a ring/line). depth 0
 * is the outer geometry. xyzm holds X, Y, Z, M (NaN for absent ones). A
 * callback's non-OK status stops the walk and is returned. */
typedef struct pqt_wkb_visitor {
  void *ctx;
  pqt_status (*geom_begin)(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, uint32_t index, int depth,
                           pqt_error *err);
  pqt_status (*geom_end)(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, int depth, pqt_error *err);
  pqt_status (*ring_begin)(void *ctx, uint32_t index, uint32_t npoints, pqt_error *err);
  pqt_status (*ring_end)(void *ctx, uint32_t npoints, pqt_error *err);
  pqt_status (*coord)(void *ctx, const double xyzm[4], uint32_t index, pqt_error *err);
} pqt_wkb_visitor;

/* Walk one whole WKB value (trailing bytes are an error). */
pqt_status pqt_wkb_walk(const uint8_t *p, size_t len, const pqt_wkb_visitor *v, pqt_error *err);

#endif /* PQT_GEO_WKB_H */
