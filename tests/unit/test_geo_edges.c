/*
 * test_geo_edges: GEOGRAPHY boxes hold the edges, not only the vertices.
 * Property test: random LineStrings and Polygons on the sphere (many
 * crossing the antimeridian, some near the poles, long and short edges)
 * are written as GEOGRAPHY columns (spherical and an ellipsoidal
 * algorithm); every point of every edge, sampled densely along the great
 * circle (slerp), lies in the row group's written box (the X range may
 * wrap). Also hand-made edges whose bulge is known exactly.
 */
#include <math.h>
#include <stdlib.h>

#include "core/core.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "rng.h"
#include "parquetry.h"
#include "parquetry_geo.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  return pqt_test_xorshift(&rng_state);
}
static double urand(double lo, double hi) { return lo + (hi - lo) * ((double)(rnd() >> 11) / 9007199254740992.0); }

#define PI 3.14159265358979323846

static void to_vec(double lon, double lat, double v[3]) {
  double a = lat * PI / 180, o = lon * PI / 180;
  v[0] = cos(a) * cos(o), v[1] = cos(a) * sin(o), v[2] = sin(a);
}

/* Is (lon, lat) in the box (tolerance tol degrees; X may wrap)? */
static int in_box(const pqt_bounding_box *f, double lon, double lat, double tol) {
  if (lat < f->ymin - tol || lat > f->ymax + tol) return 0;
  if (fabs(lat) > 90 - 1e-7) return 1; /* at a pole every longitude is the same point */
  if (f->xmin <= f->xmax) return lon >= f->xmin - tol && lon <= f->xmax + tol;
  return lon >= f->xmin - tol || lon <= f->xmax + tol;
}

typedef struct shape {
  int n;
  double lon[16], lat[16];
  int polygon;
} shape;

static void random_shape(shape *s) {
  int kind = (int)(rnd() % 4);
  s->polygon = rnd() % 2;
  s->n = 2 + (int)(rnd() % 5);
  double clon = urand(-180, 180), clat = urand(-85, 85), spread = kind == 0 ? 2 : kind == 1 ? 20 : 80;
  if (kind == 3) clon = rnd() % 2 ? urand(170, 180) : urand(-180, -170); /* at the antimeridian */
  for (int i = 0; i < s->n; i++) {
    double lon = clon + urand(-spread, spread), lat = clat + urand(-spread / 2, spread / 2);
    while (lon > 180) lon -= 360;
    while (lon < -180) lon += 360;
    if (lat > 89.9) lat = 89.9;
    if (lat < -89.9) lat = -89.9;
    s->lon[i] = lon, s->lat[i] = lat;
  }
  if (s->polygon) { /* close the ring */
    s->lon[s->n] = s->lon[0], s->lat[s->n] = s->lat[0];
    s->n++;
  }
}

static int shape_wkt(const shape *s, char *buf, size_t cap) {
  size_t p = (size_t)snprintf(buf, cap, s->polygon ? "POLYGON ((" : "LINESTRING (");
  for (int i = 0; i < s->n; i++)
    p += (size_t)snprintf(buf + p, cap - p, "%s%.17g %.17g", i ? ", " : "", s->lon[i], s->lat[i]);
  p += (size_t)snprintf(buf + p, cap - p, s->polygon ? "))" : ")");
  return p < cap;
}

/* Sample the edges of s; count the samples outside f. */
static int samples_outside(const shape *s, const pqt_bounding_box *f, double tol, double *worst) {
  int out = 0;
  for (int i = 0; i + 1 < s->n; i++) {
    double a[3], b[3];
    to_vec(s->lon[i], s->lat[i], a);
    to_vec(s->lon[i + 1], s->lat[i + 1], b);
    double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    if (c > 1) c = 1;
    double om = acos(c), so = sin(om);
    if (so < 1e-12) continue;
    for (int k = 0; k <= 2000; k++) {
      double t = k / 2000.0, wa = sin((1 - t) * om) / so, wb = sin(t * om) / so;
      double p[3] = {wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]};
      double lat = atan2(p[2], sqrt(p[0] * p[0] + p[1] * p[1])) * 180 / PI, lon = atan2(p[1], p[0]) * 180 / PI;
      if (!in_box(f, lon, lat, tol)) {
        if (getenv("GEO_DEBUG"))
          printf("    edge (%.17g %.17g)-(%.17g %.17g) point (%.17g %.17g) box x[%.17g,%.17g] y[%.17g,%.17g]\n",
                 s->lon[i], s->lat[i], s->lon[i + 1], s->lat[i + 1], lon, lat, f->xmin, f->xmax, f->ymin, f->ymax);
        out++;
        double d = lat > f->ymax ? lat - f->ymax : f->ymin - lat;
        if (d > *worst) *worst = d;
      }
    }
  }
  return out;
}

#define N_SHAPES  400
#define PER_GROUP 4

static void property(const char *type, const char *label) {
  static shape shapes[N_SHAPES];
  for (int i = 0; i < N_SHAPES; i++) random_shape(&shapes[i]);
  char schema[160];
  snprintf(schema, sizeof schema, "message m { required binary g (%s); }", type);
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  for (int g = 0; g < N_SHAPES / PER_GROUP; g++) {
    uint8_t data[PER_GROUP * 512];
    int32_t off[PER_GROUP + 1] = {0};
    for (int k = 0; k < PER_GROUP; k++) {
      char wkt[1024];
      CHECK(shape_wkt(&shapes[g * PER_GROUP + k], wkt, sizeof wkt));
      pqt_wkb_buffer b = {0};
      CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, &e));
      memcpy(data + off[k], b.data, b.len);
      off[k + 1] = off[k] + (int32_t)b.len;
      pqt_wkb_buffer_free(&b);
    }
    CHECK_OK(pqt_writer_write_column(w, 0, PER_GROUP, NULL, NULL, data, off, PER_GROUP, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  int bad_lines = 0, bad_polys = 0, lines = 0, polys = 0, wraps = 0;
  double worst = 0, widest = 0;
  for (int g = 0; g < r->md.row_groups.n; g++) {
    const pqt_column_metadata *md = &r->md.row_groups.items[g].columns.items[0].meta_data;
    CHECK(PQT_HAS_FIELD(&md->geospatial_statistics, geospatial_statistics, bbox));
    const pqt_bounding_box *f = &md->geospatial_statistics.bbox;
    wraps += f->xmin > f->xmax;
    if (f->ymax - f->ymin > widest) widest = f->ymax - f->ymin;
    for (int k = 0; k < PER_GROUP; k++) {
      const shape *s = &shapes[g * PER_GROUP + k];
      int o2 = samples_outside(s, f, 1e-11, &worst);
      if (s->polygon) polys++, bad_polys += o2 > 0;
      else lines++, bad_lines += o2 > 0;
    }
  }
  printf("  %s: %d lines, %d polygons; %d / %d have an edge point outside the box (worst %.3g deg); %d boxes wrap\n",
         label, lines, polys, bad_lines, bad_polys, worst, wraps);
  CHECK_EQ_INT(bad_lines, 0);
  CHECK_EQ_INT(bad_polys, 0);
  CHECK(wraps > 0);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

static void test_spherical_property(void) { property("GEOGRAPHY(OGC:CRS84,SPHERICAL)", "spherical"); }
static void test_ellipsoidal_property(void) { property("GEOGRAPHY(OGC:CRS84,KARNEY)", "karney"); }

/* An edge along the 45th parallel's endpoints bulges to the great circle's vertex. */
static void test_known_bulge(void) {
  pqt_geo_bbox bb;
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_GEOGRAPHY);
  const char *wkt = "LINESTRING (-90 45, 90 45)"; /* 180 apart: over the north pole */
  pqt_wkb_buffer b = {0};
  CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, NULL));
  CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
  pqt_geo_bbox_result(&bb);
  CHECK(bb.ymax >= 90.0 && bb.ymin == 45.0);
  /* (0 10) -> (60 10): vertex at lon 30, lat atan(tan 10 / cos 30) */
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_GEOGRAPHY);
  wkt = "LINESTRING (0 10, 60 10)";
  CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, NULL));
  CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
  pqt_geo_bbox_result(&bb);
  double want = atan(tan(10 * PI / 180) / cos(30 * PI / 180)) * 180 / PI;
  CHECK(bb.ymax >= want && bb.ymax < want + 1e-9);
  CHECK(bb.ymin == 10.0 && bb.xmin == 0.0 && bb.xmax == 60.0);
  /* crossing the antimeridian between vertices: wraps */
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_GEOGRAPHY);
  wkt = "LINESTRING (170 -5, -170 5)";
  CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, NULL));
  CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
  pqt_geo_bbox_result(&bb);
  CHECK(bb.xmin == 170.0 && bb.xmax == -170.0);
  /* a ring around the north pole: the (smaller) interior holds the pole */
  static const char *const around[] = {"POLYGON ((0 60, 120 60, -120 60, 0 60))",
                                       "POLYGON ((0 60, -120 60, 120 60, 0 60))",
                                       "POLYGON ((0 -70, -90 -75, 180 -70, 90 -72, 0 -70))"};
  for (int i = 0; i < 3; i++) {
    pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_GEOGRAPHY);
    CHECK_OK(pqt_wkt_to_wkb(around[i], strlen(around[i]), NULL, &b, NULL));
    CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
    pqt_wkb_buffer_free(&b);
    pqt_geo_bbox_result(&bb);
    CHECK_MSG(i < 2 ? bb.ymax == 90.0 && bb.ymin == 60.0 : bb.ymin == -90.0 && bb.ymax < -69.0, "%s: y [%g, %g]",
              around[i], bb.ymin, bb.ymax);
    CHECK(bb.xmin == -180.0 && bb.xmax == 180.0);
  }
  /* a small ring beside the pole does not reach it */
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_GEOGRAPHY);
  wkt = "POLYGON ((10 60, 20 60, 20 70, 10 70, 10 60))";
  CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, NULL));
  CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
  pqt_geo_bbox_result(&bb);
  CHECK(bb.ymax < 71.0 && bb.xmin == 10.0 && bb.xmax == 20.0);
  /* planar: vertices only */
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_PLANAR);
  wkt = "LINESTRING (0 10, 60 10)";
  CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, NULL));
  CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
  pqt_geo_bbox_result(&bb);
  CHECK(bb.ymax == 10.0);
}

RUN_TESTS("geo_edges", TEST_CASE(test_spherical_property), TEST_CASE(test_ellipsoidal_property),
          TEST_CASE(test_known_bulge))
