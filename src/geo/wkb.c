/* geo/wkb.c: the bounds-checked WKB walk and validation. */
#include "geo/wkb.h"

#include <inttypes.h>
#include <math.h>

typedef struct walk {
  const uint8_t *p;
  size_t len, pos;
  const pqt_wkb_visitor *v;
} walk;

#define WKB_EWKB_Z    0x80000000u
#define WKB_EWKB_M    0x40000000u
#define WKB_EWKB_SRID 0x20000000u

static pqt_status read_u32(walk *w, int be, uint32_t *out, const char *what, pqt_error *err) {
  if (w->len - w->pos < 4)
    return pqt_corrupt(err, "WKB: truncated %s at byte %zu (%zu bytes left, 4 needed)", what, w->pos, w->len - w->pos);
  const uint8_t *q = w->p + w->pos;
  *out = be ? pqt_load_u32be(q) : pqt_load_u32le(q);
  w->pos += 4;
  return PQT_OK;
}

static double read_f64(walk *w, int be) { /* caller checked room */
  const uint8_t *q = w->p + w->pos;
  uint64_t u;
  if (be) {
    u = 0;
    for (int i = 0; i < 8; i++) u = (u << 8) | q[i];
  } else {
    u = pqt_load_u64le(q);
  }
  w->pos += 8;
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* Read ncoord coordinates of dims into xyzm (NaN for absent ones). */
static void read_coord(walk *w, int be, uint32_t dims, double xyzm[4]) {
  xyzm[0] = read_f64(w, be);
  xyzm[1] = read_f64(w, be);
  xyzm[2] = xyzm[3] = NAN;
  if (pqt_geo_dims_has_z(dims)) xyzm[2] = read_f64(w, be);
  if (pqt_geo_dims_has_m(dims)) xyzm[3] = read_f64(w, be);
}

static size_t coord_size(uint32_t dims) {
  return 16u + (pqt_geo_dims_has_z(dims) ? 8u : 0u) + (pqt_geo_dims_has_m(dims) ? 8u : 0u);
}

static const char *type_name(uint32_t t) {
  static const char *const n[] = {"?",          "Point",           "LineString",   "Polygon",
                                  "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"};
  return t <= 7 ? n[t] : "?";
}

/* Check that count items of at least min_item bytes each fit in what is left. */
static pqt_status check_count(walk *w, uint32_t count, size_t min_item, const char *what, size_t at, pqt_error *err) {
  size_t need;
  if (!pqt_mul_size(count, min_item, &need) || need > w->len - w->pos)
    return pqt_corrupt(err, "WKB: %s count %" PRIu32 " at byte %zu exceeds the %zu bytes left (%zu bytes each)", what,
                       count, at, w->len - w->pos, min_item);
  return PQT_OK;
}

static pqt_status coords(walk *w, int be, uint32_t dims, uint32_t n, pqt_error *err) {
  double xyzm[4];
  for (uint32_t i = 0; i < n; i++) {
    read_coord(w, be, dims, xyzm);
    if (w->v->coord) PQT_RETURN_NOT_OK(w->v->coord(w->v->ctx, xyzm, i, err));
  }
  return PQT_OK;
}

/* Smallest possible geometry: byte order + type + a 4-byte count. */
#define WKB_MIN_GEOM 9u

static pqt_status geom(walk *w, const pqt_wkb_geom *parent, uint32_t index, int depth, pqt_error *err) {
  if (depth >= PQT_GEO_MAX_DEPTH)
    return pqt_corrupt(err, "WKB: geometries nested deeper than %d at byte %zu", PQT_GEO_MAX_DEPTH, w->pos);
  pqt_wkb_geom g;
  g.offset = w->pos;
  if (w->pos >= w->len) return pqt_corrupt(err, "WKB: truncated: byte order expected at byte %zu", w->pos);
  uint8_t bo = w->p[w->pos];
  if (bo > 1) return pqt_corrupt(err, "WKB: byte order %u at byte %zu (0 or 1 expected)", bo, w->pos);
  int be = bo == 0;
  w->pos++;
  uint32_t raw = 0;
  size_t type_at = w->pos;
  PQT_RETURN_NOT_OK(read_u32(w, be, &raw, "geometry type", err));
  int z = (raw & WKB_EWKB_Z) != 0, m = (raw & WKB_EWKB_M) != 0;
  uint32_t code = raw & 0x1FFFFFFFu;
  uint32_t t = code % 1000u, d = code / 1000u;
  if (t < 1 || t > 7 || d > 3)
    return pqt_corrupt(err, "WKB: unknown geometry type %" PRIu32 " at byte %zu", raw, type_at);
  if ((z || m) && d != 0 && d != (uint32_t)(z + 2 * m))
    return pqt_corrupt(err, "WKB: geometry type %" PRIu32 " at byte %zu has conflicting ISO and EWKB dimensions", raw,
                       type_at);
  if (z || m) d = (uint32_t)(z + 2 * m);
  if (raw & WKB_EWKB_SRID) {
    uint32_t srid;
    PQT_RETURN_NOT_OK(read_u32(w, be, &srid, "SRID", err));
  }
  g.type = t;
  g.dims = d;
  if (parent) {
    if (d != parent->dims)
      return pqt_corrupt(err, "WKB: %s at byte %zu has other dimensions than its %s", type_name(t), g.offset,
                         type_name(parent->type));
    uint32_t want = parent->type == PQT_GEO_MULTIPOINT        ? PQT_GEO_POINT
                    : parent->type == PQT_GEO_MULTILINESTRING ? PQT_GEO_LINESTRING
                    : parent->type == PQT_GEO_MULTIPOLYGON    ? PQT_GEO_POLYGON
                                                              : 0;
    if (want && t != want)
      return pqt_corrupt(err, "WKB: %s at byte %zu inside a %s", type_name(t), g.offset, type_name(parent->type));
  }
  size_t cs = coord_size(d);
  const pqt_wkb_visitor *v = w->v;
  if (t == PQT_GEO_POINT) {
    if (w->len - w->pos < cs)
      return pqt_corrupt(err, "WKB: truncated Point coordinates at byte %zu (%zu bytes left, %zu needed)", w->pos,
                         w->len - w->pos, cs);
    double xyzm[4];
    read_coord(w, be, d, xyzm);
    int empty = isnan(xyzm[0]) && isnan(xyzm[1]) && (!pqt_geo_dims_has_z(d) || isnan(xyzm[2])) &&
                (!pqt_geo_dims_has_m(d) || isnan(xyzm[3]));
    g.count = empty ? 0 : 1;
    if (v->geom_begin) PQT_RETURN_NOT_OK(v->geom_begin(v->ctx, &g, parent, index, depth, err));
    if (!empty && v->coord) PQT_RETURN_NOT_OK(v->coord(v->ctx, xyzm, 0, err));
    if (v->geom_end) PQT_RETURN_NOT_OK(v->geom_end(v->ctx, &g, parent, depth, err));
    return PQT_OK;
  }
  size_t count_at = w->pos;
  PQT_RETURN_NOT_OK(read_u32(w, be, &g.count, "count", err));
  if (t == PQT_GEO_LINESTRING) {
    PQT_RETURN_NOT_OK(check_count(w, g.count, cs, "LineString point", count_at, err));
  } else if (t == PQT_GEO_POLYGON) {
    PQT_RETURN_NOT_OK(check_count(w, g.count, 4, "Polygon ring", count_at, err));
  } else {
    PQT_RETURN_NOT_OK(check_count(w, g.count, WKB_MIN_GEOM, type_name(t), count_at, err));
  }
  if (v->geom_begin) PQT_RETURN_NOT_OK(v->geom_begin(v->ctx, &g, parent, index, depth, err));
  if (t == PQT_GEO_LINESTRING) {
    PQT_RETURN_NOT_OK(coords(w, be, d, g.count, err));
  } else if (t == PQT_GEO_POLYGON) {
    for (uint32_t r = 0; r < g.count; r++) {
      uint32_t np = 0;
      size_t at = w->pos;
      PQT_RETURN_NOT_OK(read_u32(w, be, &np, "ring point count", err));
      PQT_RETURN_NOT_OK(check_count(w, np, cs, "ring point", at, err));
      if (v->ring_begin) PQT_RETURN_NOT_OK(v->ring_begin(v->ctx, r, np, err));
      PQT_RETURN_NOT_OK(coords(w, be, d, np, err));
      if (v->ring_end) PQT_RETURN_NOT_OK(v->ring_end(v->ctx, np, err));
    }
  } else {
    for (uint32_t i = 0; i < g.count; i++) PQT_RETURN_NOT_OK(geom(w, &g, i, depth + 1, err));
  }
  if (v->geom_end) PQT_RETURN_NOT_OK(v->geom_end(v->ctx, &g, parent, depth, err));
  return PQT_OK;
}

pqt_status pqt_wkb_walk(const uint8_t *p, size_t len, const pqt_wkb_visitor *v, pqt_error *err) {
  static const pqt_wkb_visitor none = {0};
  if (!p && len) return pqt_error_set(err, PQT_EINVAL, "WKB: NULL data");
  walk w = {p, len, 0, v ? v : &none};
  if (len == 0) return pqt_corrupt(err, "WKB: empty value (0 bytes)");
  PQT_RETURN_NOT_OK(geom(&w, NULL, 0, 0, err));
  if (w.pos != len)
    return pqt_corrupt(err, "WKB: %zu trailing bytes after the geometry at byte %zu", len - w.pos, w.pos);
  return PQT_OK;
}

typedef struct {
  uint32_t code;
  int seen;
} validate_ctx;

static pqt_status validate_begin(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, uint32_t index,
                                 int depth, pqt_error *err) {
  (void)parent, (void)index, (void)err;
  validate_ctx *c = ctx;
  if (depth == 0) c->code = pqt_wkb_iso_code(g);
  return PQT_OK;
}

PQT_API pqt_status pqt_wkb_validate(const uint8_t *wkb, size_t len, uint32_t *iso_code, pqt_error *err) {
  validate_ctx c = {0, 0};
  pqt_wkb_visitor v = {0};
  v.ctx = &c;
  v.geom_begin = validate_begin;
  PQT_RETURN_NOT_OK(pqt_wkb_walk(wkb, len, &v, err));
  if (iso_code) *iso_code = c.code;
  return PQT_OK;
}
