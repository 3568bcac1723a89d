/*
 * parquetry_geo.h: GEOMETRY and GEOGRAPHY values (parquet-format
 * Geospatial.md): Well-Known Binary (WKB) validation, WKB <-> Well-Known
 * Text (WKT), and the column chunk statistics of the spec (bounding box and
 * the sorted list of geometry type codes).
 *
 * WKB read: ISO WKB (type + 1000 Z, + 2000 M, + 3000 ZM) and the extended
 * (EWKB) flag bits 0x80000000 Z, 0x40000000 M, 0x20000000 SRID (the 4-byte
 * SRID that follows is skipped); Point, LineString, Polygon, MultiPoint,
 * MultiLineString, MultiPolygon and GeometryCollection, nested collections
 * up to PQT_GEO_MAX_DEPTH, each geometry in its own byte order. Every count
 * is checked against the bytes left; a bad WKB is PQT_ECORRUPT with a
 * message naming what is wrong and its byte offset. The parts of a Multi*
 * and of a GeometryCollection must have the collection's dimensions. A
 * POINT whose coordinates are all NaN is POINT EMPTY. Trailing bytes after
 * the geometry are an error.
 *
 * WKB written (from WKT) is little-endian ISO WKB.
 */
#ifndef PARQUETRY_GEO_H
#define PARQUETRY_GEO_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PQT_GEO_MAX_DEPTH 64

/* The geometry types (the WKB codes of XY geometries). */
typedef enum pqt_geo_type {
  PQT_GEO_POINT = 1,
  PQT_GEO_LINESTRING = 2,
  PQT_GEO_POLYGON = 3,
  PQT_GEO_MULTIPOINT = 4,
  PQT_GEO_MULTILINESTRING = 5,
  PQT_GEO_MULTIPOLYGON = 6,
  PQT_GEO_GEOMETRYCOLLECTION = 7
} pqt_geo_type;

/* Coordinate dimensions; the value is the ISO code offset / 1000. */
typedef enum pqt_geo_dims { PQT_GEO_XY = 0, PQT_GEO_XYZ = 1, PQT_GEO_XYM = 2, PQT_GEO_XYZM = 3 } pqt_geo_dims;

/* Validate one WKB value. On success *iso_code (may be NULL) is the ISO
 * type code of the outer geometry (e.g. 1003 for POLYGON Z). */
PQT_API pqt_status pqt_wkb_validate(const uint8_t *wkb, size_t len, uint32_t *iso_code, pqt_error *err);

/* One WKB value as WKT ("POINT (1 2)", "LINESTRING Z EMPTY", ...), the
 * coordinates in the library's shortest round-trip form, NaN as "NaN",
 * infinities as "Infinity"/"-Infinity". out is overwritten (not freed
 * first); free it with pqt_string_free. alloc may be NULL. */
PQT_API pqt_status pqt_wkb_to_wkt(const uint8_t *wkb, size_t len, const pqt_allocator *alloc, pqt_string *out,
                                  pqt_error *err);

/* A WKB value owned by the caller; free with pqt_wkb_buffer_free.
 * A fixed value struct (no struct_size). */
typedef struct pqt_wkb_buffer {
  uint8_t *data;
  size_t len;
  const pqt_allocator *alloc;
  size_t cap;
} pqt_wkb_buffer;

PQT_API void pqt_wkb_buffer_free(pqt_wkb_buffer *b);

/* Parse WKT text (len bytes, no NUL needed) into little-endian ISO WKB.
 * Keywords are case-insensitive; "POINT EMPTY" becomes a point of NaNs.
 * A syntax error is PQT_EINVAL naming the character position (0-based).
 * out is overwritten; alloc may be NULL. */
PQT_API pqt_status pqt_wkt_to_wkb(const char *wkt, size_t len, const pqt_allocator *alloc, pqt_wkb_buffer *out,
                                  pqt_error *err);

/* ------------------------------------------------------------------ */
/* Statistics: bounding box and geometry types of a column chunk       */
/* ------------------------------------------------------------------ */

/* Maximum distinct type codes: 7 types x 4 dimensions. */
#define PQT_GEO_MAX_TYPES 28

/* Edge model of the column: planar (GEOMETRY) or GEOGRAPHY, where the X
 * range may wrap the antimeridian and each edge of a LineString or ring is
 * bounded along its length (its bulge towards a pole and the longitudes it
 * sweeps): exactly for spherical edges (PQT_GEO_EDGES_GEOGRAPHY), with a
 * margin for the ellipsoidal algorithms vincenty, thomas, andoyer and karney
 * (PQT_GEO_EDGES_ELLIPSOIDAL). See src/geo/bbox.c. */
typedef enum pqt_geo_edges {
  PQT_GEO_EDGES_PLANAR = 0,
  PQT_GEO_EDGES_GEOGRAPHY = 1,
  PQT_GEO_EDGES_ELLIPSOIDAL = 2
} pqt_geo_edges;

/*
 * The accumulated statistics. After pqt_geo_bbox_result:
 *   has_xy: a box exists (both X and Y had a non-NaN value); then
 *   xmin..ymax are set, with xmin > xmax meaning the X range wraps the
 *   antimeridian (x >= xmin or x <= xmax; only for GEOGRAPHY);
 *   has_z / has_m: zmin..zmax / mmin..mmax are set (only meaningful
 *   with has_xy: without X or Y the spec writes no box at all);
 *   types[0..n_types) the sorted unique ISO codes of the values added.
 * The fields after the public ones are the accumulator's state: set up
 * with pqt_geo_bbox_init, never edit them.
 */
typedef struct pqt_geo_bbox {
  size_t struct_size;
  int32_t edges; /* a pqt_geo_edges value */
  int has_xy, has_z, has_m;
  double xmin, xmax, ymin, ymax, zmin, zmax, mmin, mmax;
  int32_t n_types;
  uint32_t types[PQT_GEO_MAX_TYPES];
  /* accumulator state */
  int has_x_, has_y_;
  uint32_t type_mask_; /* bit (dims * 7 + type - 1) */
  int arc_state_;      /* 0 empty, 1 arc [arc_lo_, arc_hi_], 2 full, 3 unusable (planar only) */
  double arc_lo_, arc_hi_;
  double xlo_, xhi_; /* the plain X range */
  int crosses_;       /* an edge crossed the antimeridian: the plain X range does not cover it */
} pqt_geo_bbox;

PQT_API void pqt_geo_bbox_init_sized(pqt_geo_bbox *b, size_t struct_size, pqt_geo_edges edges);
static inline void pqt_geo_bbox_init(pqt_geo_bbox *b, pqt_geo_edges edges) {
  pqt_geo_bbox_init_sized(b, sizeof *b, edges);
}
/* Add one WKB value (validated first; a bad value leaves b unchanged and
 * is PQT_ECORRUPT). */
PQT_API pqt_status pqt_geo_bbox_add_wkb(pqt_geo_bbox *b, const uint8_t *wkb, size_t len, pqt_error *err);
/* Merge src into dst (both from pqt_geo_bbox_init with the same edges). */
PQT_API pqt_status pqt_geo_bbox_merge(pqt_geo_bbox *dst, const pqt_geo_bbox *src, pqt_error *err);
/* Fill the public fields from the state (may be called again after more adds). */
PQT_API void pqt_geo_bbox_result(pqt_geo_bbox *b);

/* Does box a intersect box b? Uses the public fields (after _result); either
 * X range may wrap (xmin > xmax). Z and M are compared only when both boxes
 * have them. A box without has_xy intersects nothing. */
PQT_API int pqt_geo_bbox_intersects(const pqt_geo_bbox *a, const pqt_geo_bbox *b);

/* The name of a WKB geometry type code of the statistics ("Point",
 * "LineString Z", "GeometryCollection ZM"); NULL for a code that is no
 * type (the spec's codes: 1..7 plus 1000 Z, 2000 M, 3000 ZM). */
PQT_API const char *pqt_geo_type_code_name(int32_t code);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_GEO_H */
