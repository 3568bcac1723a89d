/* Unit tests for src/geo: WKB reading (every type x dimension x byte order,
 * ISO and EWKB), WKT out and in, bounding boxes and type lists (the spec's
 * rules, antimeridian wrap), the corpus's geospatial files against their
 * GeospatialStatistics and WKT column, and a property test. */
#include <math.h>
#include <strings.h>

#include "file/reader_internal.h"
#include "geo/wkb.h"
#include "harness.h"
#include "rng.h"
#include "parquetry_geo.h"

#include <dirent.h>

/* the fuzz target's own code, replayed below over its seeds and regressions */
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_geo
#include "../../fuzz/fuzz_geo.c"
#undef LLVMFuzzerTestOneInput

/* ---- a small WKB + expected-WKT writer of the test's own ------------- */

typedef struct gen {
  uint8_t d[1 << 16];
  size_t n;
  char wkt[1 << 17];
  size_t wn;
  double pts[8192][4];
  uint32_t pdims[8192];
  int npts;
  uint64_t rng;
  uint64_t orng; /* byte order choices, apart so the geometry is the same in every order */
  int nan_pct;   /* chance of a NaN per coordinate value (property test) */
  int antimeridian;
} gen;

static gen G;

static uint64_t rnd(void) {
  return pqt_test_xorshift(&G.rng);
}

static void w_u8(uint8_t v) {
  if (G.n < sizeof G.d) G.d[G.n++] = v;
}
static void w_u32(int be, uint32_t v) {
  for (int i = 0; i < 4; i++) w_u8(be ? (uint8_t)(v >> (24 - 8 * i)) : (uint8_t)(v >> (8 * i)));
}
static void w_f64(int be, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  for (int i = 0; i < 8; i++) w_u8(be ? (uint8_t)(u >> (56 - 8 * i)) : (uint8_t)(u >> (8 * i)));
}
static void t_put(const char *s) {
  size_t l = strlen(s);
  if (G.wn + l < sizeof G.wkt) memcpy(G.wkt + G.wn, s, l), G.wn += l, G.wkt[G.wn] = 0;
}
static void t_num(double d) {
  char b[64];
  if (isnan(d)) snprintf(b, sizeof b, "NaN");
  else
    for (int prec = 1; prec <= 17; prec++) { /* the fewest digits that read back, in plain layout */
      snprintf(b, sizeof b, "%.*g", prec, d);
      if (strtod(b, NULL) != d) continue;
      int e = d == 0 ? 0 : (int)floor(log10(fabs(d)));
      int dec = prec - 1 - e;
      snprintf(b, sizeof b, "%.*f", dec < 0 ? 0 : dec, d);
      break;
    }
  t_put(b);
}

/* flavor: 0 ISO codes, 1 EWKB flag bits, 2 EWKB flags + SRID */
static void w_hdr(int be, uint32_t type, uint32_t dims, int flavor) {
  w_u8(be ? 0 : 1);
  if (flavor == 0) {
    w_u32(be, dims * 1000u + type);
  } else {
    uint32_t c = type | (pqt_geo_dims_has_z(dims) ? 0x80000000u : 0) | (pqt_geo_dims_has_m(dims) ? 0x40000000u : 0) |
                 (flavor == 2 ? 0x20000000u : 0);
    w_u32(be, c);
    if (flavor == 2) w_u32(be, 4326);
  }
}

static int n_dims(uint32_t dims) { return 2 + pqt_geo_dims_has_z(dims) + pqt_geo_dims_has_m(dims); }

static double rnd_coord(int k) {
  if (G.nan_pct && (int)(rnd() % 100) < G.nan_pct) return NAN;
  if (k == 0 && G.antimeridian) {
    double x = (double)(rnd() % 4000) / 100.0; /* 0..40 from the antimeridian */
    return rnd() & 1 ? 180.0 - x : -180.0 + x;
  }
  if (k == 1) return (double)((int64_t)(rnd() % 3601) - 1800) / 20.0;
  return (double)((int64_t)(rnd() % 80001) - 40000) / 4.0;
}

/* One coordinate: written, recorded, and appended to the WKT. */
static void w_coord(int be, uint32_t dims, const double *c) {
  double xyzm[4] = {c[0], c[1], NAN, NAN};
  int k = 2;
  if (pqt_geo_dims_has_z(dims)) xyzm[2] = c[k++];
  if (pqt_geo_dims_has_m(dims)) xyzm[3] = c[k++];
  for (int i = 0; i < n_dims(dims); i++) w_f64(be, c[i]);
  if (G.npts < 8192) {
    memcpy(G.pts[G.npts], xyzm, sizeof xyzm);
    G.pdims[G.npts++] = dims;
  }
  for (int i = 0; i < n_dims(dims); i++) {
    if (i) t_put(" ");
    t_num(c[i]);
  }
}

static const char *const NAMES[] = {"",           "POINT",           "LINESTRING",   "POLYGON",
                                    "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
static const char *const DIMS[] = {"", " Z", " M", " ZM"};

/* A list of n points "(..., ...)" with its count. */
static void w_points(int be, uint32_t dims, uint32_t n) {
  w_u32(be, n);
  if (!n) {
    t_put("EMPTY");
    return;
  }
  t_put("(");
  for (uint32_t i = 0; i < n; i++) {
    double c[4];
    for (int k = 0; k < n_dims(dims); k++) c[k] = rnd_coord(k);
    if (i) t_put(", ");
    w_coord(be, dims, c);
  }
  t_put(")");
}

/* A random geometry of type t (0: random) at depth; bare: a Multi* part. */
static void w_geom(uint32_t t, uint32_t dims, int be_mode, int flavor, int depth, int bare, int max_parts) {
  G.orng = G.orng * 6364136223846793005ull + 1442695040888963407ull;
  int be = be_mode == 2 ? (int)(G.orng >> 63) : be_mode;
  if (!t) t = 1 + (uint32_t)(rnd() % (depth >= 3 ? 6 : 7));
  w_hdr(be, t, dims, flavor);
  if (!bare) {
    t_put(NAMES[t]);
    t_put(DIMS[dims]);
    t_put(" ");
  }
  uint32_t n = max_parts < 0 ? 1 + (uint32_t)(rnd() % 3) : (uint32_t)(rnd() % (uint32_t)(max_parts + 1));
  if (t == PQT_GEO_POINT) {
    double c[4];
    int all_nan = 1;
    for (int k = 0; k < n_dims(dims); k++) c[k] = (max_parts >= 0 && rnd() % 8 == 0) ? NAN : rnd_coord(k);
    for (int k = 0; k < n_dims(dims); k++) all_nan &= isnan(c[k]);
    if (all_nan) {
      for (int k = 0; k < n_dims(dims); k++) w_f64(be, NAN);
      t_put("EMPTY");
    } else {
      t_put("(");
      w_coord(be, dims, c);
      t_put(")");
    }
  } else if (t == PQT_GEO_LINESTRING) {
    w_points(be, dims, n + (max_parts < 0));
  } else if (t == PQT_GEO_POLYGON) {
    w_u32(be, n);
    if (!n) {
      t_put("EMPTY");
      return;
    }
    t_put("(");
    for (uint32_t i = 0; i < n; i++) {
      if (i) t_put(", ");
      w_points(be, dims, max_parts < 0 ? 4 : (uint32_t)(rnd() % 5));
    }
    t_put(")");
  } else {
    w_u32(be, n);
    if (!n) {
      t_put("EMPTY");
      return;
    }
    t_put("(");
    for (uint32_t i = 0; i < n; i++) {
      if (i) t_put(", ");
      if (t == PQT_GEO_GEOMETRYCOLLECTION) w_geom(0, dims, be_mode, flavor, depth + 1, 0, max_parts);
      else w_geom(t - 3, dims, be_mode, flavor, depth + 1, 1, max_parts);
    }
    t_put(")");
  }
}

static void gen_reset(uint64_t seed) {
  G.n = G.wn = 0;
  G.wkt[0] = 0;
  G.npts = 0;
  G.rng = seed ? seed : 88172645463325252ull;
}

static char g_text[1 << 17];

static const char *to_wkt(const uint8_t *p, size_t n) {
  pqt_string s;
  pqt_error e;
  pqt_status st = pqt_wkb_to_wkt(p, n, NULL, &s, &e);
  if (st) snprintf(g_text, sizeof g_text, "<error %d: %s>", st, e.message);
  else snprintf(g_text, sizeof g_text, "%s", s.data);
  if (!st) pqt_string_free(&s);
  return g_text;
}

/* ---- hand-written hex ------------------------------------------------- */

static size_t unhex(const char *h, uint8_t *out) {
  size_t n = 0;
  for (; h[0] && h[1]; h += 2) {
    unsigned v;
    sscanf(h, "%2x", &v);
    out[n++] = (uint8_t)v;
  }
  return n;
}

static void test_hex_vectors(void) {
  static const struct {
    const char *hex, *wkt;
  } v[] = {
      {"0101000000000000000000f03f0000000000000040", "POINT (1 2)"},
      {"00000000013ff00000000000004000000000000000", "POINT (1 2)"},
      {"01e9030000000000000000f03f00000000000000400000000000000840", "POINT Z (1 2 3)"},
      {"0101000080000000000000f03f00000000000000400000000000000840", "POINT Z (1 2 3)"},
      {"0101000060e6100000000000000000f03f00000000000000400000000000000840", "POINT M (1 2 3)"},
      {"010200000000000000", "LINESTRING EMPTY"},
      {"0101000000000000000000f87f000000000000f87f", "POINT EMPTY"},
      {"0104000000020000000101000000000000000000f03f0000000000000040"
       "010100000000000000000008400000000000001040",
       "MULTIPOINT ((1 2), (3 4))"},
      {"0107000000010000000101000000000000000000f03f0000000000000040", "GEOMETRYCOLLECTION (POINT (1 2))"},
      /* big-endian collection holding a little-endian point */
      {"0000000007000000010101000000000000000000f03f0000000000000040", "GEOMETRYCOLLECTION (POINT (1 2))"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t b[256];
    size_t n = unhex(v[i].hex, b);
    CHECK_EQ_STR(to_wkt(b, n), v[i].wkt);
  }
  /* WKT in gives little-endian ISO WKB: byte-exact against the hex */
  uint8_t want[64];
  size_t wn = unhex("01e9030000000000000000f03f00000000000000400000000000000840", want);
  pqt_wkb_buffer wb;
  CHECK_OK(pqt_wkt_to_wkb("point z (1 2 3)", 15, NULL, &wb, NULL));
  CHECK(wb.len == wn && memcmp(wb.data, want, wn) == 0);
  pqt_wkb_buffer_free(&wb);
  uint32_t code = 0;
  CHECK_OK(pqt_wkb_validate(want, wn, &code, NULL));
  CHECK_EQ_INT(code, 1001);
}

/* Every type x dimension x byte order (and mixed per part) x ISO/EWKB/SRID:
 * the WKT is the one written alongside, and WKT -> WKB gives the same
 * geometry as little-endian ISO WKB, byte for byte. */
static void test_every_type_dims_order(void) {
  int cases = 0;
  for (uint32_t t = 1; t <= 7; t++)
    for (uint32_t d = 0; d < 4; d++)
      for (int be = 0; be < 3; be++)
        for (int fl = 0; fl < 3; fl++) {
          uint64_t seed = 1000u + t * 97u + d * 13u;
          gen_reset(seed);
          w_geom(t, d, be, fl, 0, 0, -1);
          char want[sizeof G.wkt];
          memcpy(want, G.wkt, G.wn + 1);
          uint8_t wkb[sizeof G.d];
          size_t n = G.n;
          memcpy(wkb, G.d, n);
          CHECK_EQ_STR(to_wkt(wkb, n), want);
          uint32_t code = 0;
          CHECK_OK(pqt_wkb_validate(wkb, n, &code, NULL));
          CHECK_EQ_INT(code, d * 1000 + t);
          /* the same geometry as LE ISO */
          gen_reset(seed);
          w_geom(t, d, 0, 0, 0, 0, -1);
          pqt_wkb_buffer out;
          CHECK_OK(pqt_wkt_to_wkb(want, strlen(want), NULL, &out, NULL));
          CHECK_MSG(out.len == G.n && memcmp(out.data, G.d, G.n) == 0, "%s", want);
          pqt_wkb_buffer_free(&out);
          /* and empty */
          gen_reset(seed);
          w_hdr(be == 1, t, d, fl);
          if (t == 1)
            for (int k = 0; k < n_dims(d); k++) w_f64(be == 1, NAN);
          else w_u32(be == 1, 0);
          char ew[64];
          snprintf(ew, sizeof ew, "%s%s EMPTY", NAMES[t], DIMS[d]);
          CHECK_EQ_STR(to_wkt(G.d, G.n), ew);
          cases++;
        }
  CHECK_EQ_INT(cases, 7 * 4 * 3 * 3);
}

static void test_wkt_round_trips(void) {
  static const char *const ok[] = {
      "POINT (1 2)",
      "POINT Z (1 2 3)",
      "POINT M (1 2 3)",
      "POINT ZM (1 2 3 4)",
      "POINT EMPTY",
      "POINT (1 NaN)",
      "POINT (0.1 -0)",
      "POINT (1e+21 1.5e-7)",
      "POINT (Infinity -Infinity)",
      "LINESTRING EMPTY",
      "LINESTRING (30 10, 10 30, 40 40)",
      "POLYGON ((30 10, 40 40, 20 40, 10 20, 30 10), (20 30, 35 35, 30 20, 20 30))",
      "POLYGON EMPTY",
      "MULTIPOINT ((1 2), (3 4))",
      "MULTIPOINT (EMPTY, (3 4))",
      "MULTIPOINT EMPTY",
      "MULTILINESTRING ((30 10, 10 30), EMPTY)",
      "MULTIPOLYGON (((30 10, 40 40, 20 40, 30 10)), EMPTY)",
      "GEOMETRYCOLLECTION (POINT (1 2), LINESTRING (1 2, 3 4))",
      "GEOMETRYCOLLECTION ZM (POINT ZM (1 2 3 4), GEOMETRYCOLLECTION ZM (MULTIPOINT ZM ((1 2 3 4))))",
      "GEOMETRYCOLLECTION EMPTY",
      "GEOMETRYCOLLECTION (GEOMETRYCOLLECTION EMPTY, POINT EMPTY)",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    pqt_wkb_buffer b;
    pqt_error e;
    pqt_status st = pqt_wkt_to_wkb(ok[i], strlen(ok[i]), NULL, &b, &e);
    CHECK_MSG(st == PQT_OK, "%s: %s", ok[i], st ? e.message : "");
    if (st) continue;
    CHECK_EQ_STR(to_wkt(b.data, b.len), ok[i]);
    pqt_wkb_buffer_free(&b);
  }
  /* accepted spellings that print canonically */
  static const char *const alt[][2] = {
      {"  point(1 2) ", "POINT (1 2)"},
      {"MultiPoint (1 2, 3 4)", "MULTIPOINT ((1 2), (3 4))"},
      {"POINT(1.50 +2.0e0)", "POINT (1.5 2)"},
      {"GEOMETRYCOLLECTION Z (POINT (1 2 3))", "GEOMETRYCOLLECTION Z (POINT Z (1 2 3))"},
      {"POINT (nan inf)", "POINT (NaN Infinity)"},
  };
  for (size_t i = 0; i < sizeof alt / sizeof alt[0]; i++) {
    pqt_wkb_buffer b;
    CHECK_OK(pqt_wkt_to_wkb(alt[i][0], strlen(alt[i][0]), NULL, &b, NULL));
    if (!b.data) continue;
    CHECK_EQ_STR(to_wkt(b.data, b.len), alt[i][1]);
    pqt_wkb_buffer_free(&b);
  }
}

static void test_wkt_errors(void) {
  static const struct {
    const char *wkt, *pos;
  } bad[] = {
      {"", "character 0"},
      {"POINT", "character 5"},
      {"POINT (1)", "character 8"},
      {"POINT (1 2", "character 10"},
      {"POINTS (1 2)", "character 0"},
      {"POINT (1 2) x", "character 12"},
      {"LINESTRING (1 2,)", "character 16"},
      {"POINT (1 2e)", "character 11"},
      {"GEOMETRYCOLLECTION Z (POINT M (1 2 3))", "character 22"},
      {"POINT (0x10 1)", "character 8"},
      {"MULTIPOINT Z (1 2)", "character 17"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pqt_wkb_buffer b;
    pqt_error e;
    pqt_status st = pqt_wkt_to_wkb(bad[i].wkt, strlen(bad[i].wkt), NULL, &b, &e);
    CHECK_MSG(st == PQT_EINVAL, "%s", bad[i].wkt);
    if (st == PQT_EINVAL) CHECK_MSG(strstr(e.message, bad[i].pos) != NULL, "%s: %s", bad[i].wkt, e.message);
    CHECK(b.data == NULL);
  }
  /* nesting: 64 levels parse, 65 do not */
  char deep[2048];
  for (int levels = 64; levels <= 65; levels++) {
    size_t n = 0;
    for (int i = 0; i < levels - 1; i++) n += (size_t)snprintf(deep + n, sizeof deep - n, "GEOMETRYCOLLECTION (");
    n += (size_t)snprintf(deep + n, sizeof deep - n, "POINT (1 2)");
    for (int i = 0; i < levels - 1; i++) deep[n++] = ')';
    pqt_wkb_buffer b;
    pqt_status st = pqt_wkt_to_wkb(deep, n, NULL, &b, NULL);
    CHECK_EQ_INT(st, levels == 64 ? PQT_OK : PQT_EINVAL);
    if (!st) {
      CHECK_OK(pqt_wkb_validate(b.data, b.len, NULL, NULL));
      pqt_wkb_buffer_free(&b);
    }
  }
}

/* Bad WKB: ECORRUPT, naming what and the byte offset. */
static void expect_corrupt(const uint8_t *p, size_t n, const char *needle) {
  pqt_error e;
  pqt_status st = pqt_wkb_validate(p, n, NULL, &e);
  CHECK_MSG(st == PQT_ECORRUPT, "expected corrupt for '%s', got %d", needle, st);
  if (st == PQT_ECORRUPT) CHECK_MSG(strstr(e.message, needle) != NULL, "'%s' not in '%s'", needle, e.message);
  pqt_string s;
  CHECK(pqt_wkb_to_wkt(p, n, NULL, &s, NULL) == PQT_ECORRUPT);
  pqt_geo_bbox bb;
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_PLANAR);
  CHECK(pqt_geo_bbox_add_wkb(&bb, p, n, NULL) == PQT_ECORRUPT);
  pqt_geo_bbox_result(&bb);
  CHECK(!bb.has_xy && bb.n_types == 0);
}

static void test_wkb_errors(void) {
  uint8_t b[4096] = {0};
  size_t n;
  expect_corrupt(b, 0, "empty");
  n = unhex("0201000000", b);
  expect_corrupt(b, n, "byte order 2 at byte 0");
  n = unhex("0108000000", b);
  expect_corrupt(b, n, "unknown geometry type 8 at byte 1");
  n = unhex("01a10f0000", b); /* 4001 */
  expect_corrupt(b, n, "unknown geometry type 4001");
  n = unhex("0101000000000000000000f03f", b);
  expect_corrupt(b, n, "truncated Point coordinates at byte 5");
  n = unhex("010200000000000010", b); /* 2^28 points, 0 bytes left: refused before any loop */
  expect_corrupt(b, n, "count 268435456 at byte 5");
  n = unhex("0102000000ffffffff", b);
  expect_corrupt(b, n, "count 4294967295 at byte 5");
  n = unhex("0103000000010000000200000000", b);
  expect_corrupt(b, n, "ring point count 2 at byte 9");
  n = unhex("010400000001000000010200000000000000", b); /* a LineString in a MultiPoint */
  expect_corrupt(b, n, "LineString at byte 9 inside a MultiPoint");
  n = unhex("01040000000100000001e9030000000000000000f03f00000000000000400000000000000840", b);
  expect_corrupt(b, n, "other dimensions");
  n = unhex("0102000000000000000000", b);
  expect_corrupt(b, n, "2 trailing bytes after the geometry at byte 9");
  n = unhex("01e9030040000000000000f03f00000000000000400000000000000840", b); /* 1001 + M flag */
  expect_corrupt(b, n, "conflicting");
  n = unhex("0101000020e610", b);
  expect_corrupt(b, n, "truncated SRID at byte 5");
  /* 65 nested collections: depth limit, no stack overflow */
  n = 0;
  for (int i = 0; i < 65; i++) n += unhex("010700000001000000", b + n);
  n += unhex("010700000000000000", b + n);
  expect_corrupt(b, n, "nested deeper than 64");
  /* 64 levels are fine */
  n = 0;
  for (int i = 0; i < 63; i++) n += unhex("010700000001000000", b + n);
  n += unhex("010700000000000000", b + n);
  CHECK_OK(pqt_wkb_validate(b, n, NULL, NULL));
}

/* ---- bounding boxes ---------------------------------------------------- */

static void add_wkt(pqt_geo_bbox *bb, const char *wkt) {
  pqt_wkb_buffer b;
  pqt_error e;
  pqt_status st = pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, &e);
  CHECK_MSG(st == PQT_OK, "%s", wkt);
  if (st) return;
  CHECK_OK(pqt_geo_bbox_add_wkb(bb, b.data, b.len, NULL));
  pqt_wkb_buffer_free(&b);
}

static void test_bbox_rules(void) {
  pqt_geo_bbox bb;
  pqt_geo_bbox_init(&bb, PQT_GEO_EDGES_PLANAR);
  add_wkt(&bb, "POINT (1 NaN)");
  pqt_geo_bbox_result(&bb);
  CHECK(!bb.has_xy); /* X only: no box */
  CHECK(bb.n_types == 1 && bb.types[0] == 1);
  add_wkt(&bb, "LINESTRING Z (NaN 5 NaN, 3 NaN NaN)");
  add_wkt(&bb, "POINT EMPTY");
  add_wkt(&bb, "POLYGON M EMPTY");
  pqt_geo_bbox_result(&bb);
  CHECK(bb.has_xy && bb.xmin == 1 && bb.xmax == 3 && bb.ymin == 5 && bb.ymax == 5);
  CHECK(!bb.has_z && !bb.has_m); /* Z only NaN: omitted */
  CHECK_EQ_INT(bb.n_types, 3);
  CHECK(bb.types[0] == 1 && bb.types[1] == 1002 && bb.types[2] == 2003);
  add_wkt(&bb, "GEOMETRYCOLLECTION ZM (POINT ZM (-7 9 -1 100))");
  pqt_geo_bbox_result(&bb);
  CHECK(bb.xmin == -7 && bb.xmax == 3 && bb.ymin == 5 && bb.ymax == 9);
  CHECK(bb.has_z && bb.zmin == -1 && bb.zmax == -1 && bb.has_m && bb.mmin == 100 && bb.mmax == 100);
  CHECK(bb.n_types == 4 && bb.types[3] == 3007);

  /* geography: two clusters either side of the antimeridian wrap */
  pqt_geo_bbox g, h;
  pqt_geo_bbox_init(&g, PQT_GEO_EDGES_GEOGRAPHY);
  add_wkt(&g, "MULTIPOINT ((170 1), (-175 2), (179 3))");
  pqt_geo_bbox_result(&g);
  CHECK(g.xmin == 170 && g.xmax == -175 && g.ymin == 1 && g.ymax == 3);
  /* the same values as GEOMETRY do not wrap */
  pqt_geo_bbox_init(&h, PQT_GEO_EDGES_PLANAR);
  add_wkt(&h, "MULTIPOINT ((170 1), (-175 2), (179 3))");
  pqt_geo_bbox_result(&h);
  CHECK(h.xmin == -175 && h.xmax == 179);
  /* a spread that is shorter unwrapped stays unwrapped */
  pqt_geo_bbox_init(&h, PQT_GEO_EDGES_GEOGRAPHY);
  add_wkt(&h, "LINESTRING (-10 0, 10 0, 100 0)");
  pqt_geo_bbox_result(&h);
  CHECK(h.xmin == -10 && h.xmax == 100);
  /* merge a wrapped box with one east of it */
  pqt_geo_bbox k;
  pqt_geo_bbox_init(&k, PQT_GEO_EDGES_GEOGRAPHY);
  add_wkt(&k, "POINT (-160 0)");
  CHECK_OK(pqt_geo_bbox_merge(&g, &k, NULL));
  pqt_geo_bbox_result(&g);
  CHECK(g.xmin == 170 && g.xmax == -160);
  /* merging the unwrapped [-10, 100] makes the wrapped arc the longer one */
  CHECK_OK(pqt_geo_bbox_merge(&g, &h, NULL));
  pqt_geo_bbox_result(&g);
  /* arc [170, -160] with [-10, 100]: the arc [-10, -160] (210 degrees, wraps) is shorter than
   * the plain range [-175, 179] */
  CHECK(g.xmin == -10 && g.xmax == -160);
  CHECK(pqt_geo_bbox_merge(&g, &bb, NULL) == PQT_EINVAL); /* edge models differ */
}

static void test_bbox_intersects(void) {
  pqt_geo_bbox a, b;
  pqt_geo_bbox_init(&a, PQT_GEO_EDGES_GEOGRAPHY);
  pqt_geo_bbox_init(&b, PQT_GEO_EDGES_GEOGRAPHY);
  a.has_xy = b.has_xy = 1;
  a.xmin = 170, a.xmax = -170, a.ymin = -10, a.ymax = 10; /* wraps */
  b.xmin = -175, b.xmax = -172, b.ymin = 0, b.ymax = 1;
  CHECK(pqt_geo_bbox_intersects(&a, &b) && pqt_geo_bbox_intersects(&b, &a));
  b.xmin = 0, b.xmax = 10;
  CHECK(!pqt_geo_bbox_intersects(&a, &b) && !pqt_geo_bbox_intersects(&b, &a));
  b.xmin = 175, b.xmax = -175; /* both wrap */
  CHECK(pqt_geo_bbox_intersects(&a, &b));
  b.xmin = 171, b.xmax = 172, b.ymin = 11, b.ymax = 12;
  CHECK(!pqt_geo_bbox_intersects(&a, &b)); /* Y apart */
  b.ymin = 10;
  CHECK(pqt_geo_bbox_intersects(&a, &b)); /* touching counts */
  a.has_z = 1, a.zmin = 0, a.zmax = 1;
  CHECK(pqt_geo_bbox_intersects(&a, &b)); /* b has no Z: not compared */
  b.has_z = 1, b.zmin = 2, b.zmax = 3;
  CHECK(!pqt_geo_bbox_intersects(&a, &b));
  b.has_xy = 0;
  CHECK(!pqt_geo_bbox_intersects(&a, &b));
}

/* x within the box's X range, wrap included */
static int x_in(const pqt_geo_bbox *b, double x) {
  return b->xmin <= b->xmax ? (x >= b->xmin && x <= b->xmax) : (x >= b->xmin || x <= b->xmax);
}

static void check_contains(const pqt_geo_bbox *b, const double *c, int *fails) {
  int ok = 1;
  if (!isnan(c[0]) && !isnan(c[1])) ok &= b->has_xy;
  if (b->has_xy) {
    if (!isnan(c[0])) ok &= x_in(b, c[0]);
    if (!isnan(c[1])) ok &= c[1] >= b->ymin && c[1] <= b->ymax;
  }
  if (!isnan(c[2])) ok &= b->has_z && c[2] >= b->zmin && c[2] <= b->zmax;
  if (!isnan(c[3])) ok &= b->has_m && c[3] >= b->mmin && c[3] <= b->mmax;
  if (!ok) {
    if (*fails < 5)
      fprintf(stderr, "  point (%g %g %g %g) outside box x[%g,%g] y[%g,%g]\n", c[0], c[1], c[2], c[3], b->xmin, b->xmax,
              b->ymin, b->ymax);
    ++*fails;
  }
  if (b->has_xy && !isnan(c[0]) && !isnan(c[1])) {
    pqt_geo_bbox p;
    pqt_geo_bbox_init(&p, PQT_GEO_EDGES_PLANAR);
    p.has_xy = 1;
    p.xmin = p.xmax = c[0];
    p.ymin = p.ymax = c[1];
    if (!pqt_geo_bbox_intersects(b, &p) || !pqt_geo_bbox_intersects(&p, b)) ++*fails;
  }
}

/* Random geometries of every type and dimension (NaNs, empties, both byte
 * orders, around the antimeridian half of the time): the box, accumulated
 * whole and as two merged halves, contains every non-NaN coordinate, and
 * intersects the point box of each. WKT round trips too. */
static void test_property_random(void) {
  int fails = 0, rounds = 0, wrapped = 0;
  static double all[1 << 15][4];
  for (int r = 0; r < 3000; r++) {
    int edges = r & 1 ? PQT_GEO_EDGES_GEOGRAPHY : PQT_GEO_EDGES_PLANAR;
    pqt_geo_bbox whole, half[2];
    pqt_geo_bbox_init(&whole, (pqt_geo_edges)edges);
    pqt_geo_bbox_init(&half[0], (pqt_geo_edges)edges);
    pqt_geo_bbox_init(&half[1], (pqt_geo_edges)edges);
    int nall = 0;
    int nvals = 1 + r % 7;
    uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(r + 1);
    for (int v = 0; v < nvals; v++) {
      gen_reset(seed + (uint64_t)v);
      G.nan_pct = r % 5 == 0 ? 20 : 0;
      G.antimeridian = (r / 2) % 2;
      w_geom(0, (uint32_t)(rnd() % 4), 2, (int)(rnd() % 3), 0, 0, 3);
      G.nan_pct = 0;
      pqt_error e;
      pqt_status st = pqt_geo_bbox_add_wkb(&whole, G.d, G.n, &e);
      CHECK_MSG(st == PQT_OK, "%s: %s", G.wkt, st ? e.message : "");
      CHECK_OK(pqt_geo_bbox_add_wkb(&half[v & 1], G.d, G.n, NULL));
      CHECK_EQ_STR(to_wkt(G.d, G.n), G.wkt);
      pqt_wkb_buffer wb;
      CHECK_OK(pqt_wkt_to_wkb(G.wkt, G.wn, NULL, &wb, NULL));
      if (wb.data) {
        CHECK_EQ_STR(to_wkt(wb.data, wb.len), G.wkt);
        pqt_wkb_buffer_free(&wb);
      }
      for (int i = 0; i < G.npts && nall < (1 << 15); i++) memcpy(all[nall++], G.pts[i], sizeof all[0]);
    }
    CHECK_OK(pqt_geo_bbox_merge(&half[0], &half[1], NULL));
    pqt_geo_bbox_result(&whole);
    pqt_geo_bbox_result(&half[0]);
    wrapped += whole.has_xy && whole.xmin > whole.xmax;
    CHECK(whole.n_types == half[0].n_types &&
          memcmp(whole.types, half[0].types, sizeof whole.types[0] * (size_t)whole.n_types) == 0);
    for (int i = 0; i < nall; i++) {
      check_contains(&whole, all[i], &fails);
      check_contains(&half[0], all[i], &fails);
    }
    if (edges == PQT_GEO_EDGES_PLANAR && whole.has_xy) /* planar: the exact same box either way */
      CHECK(whole.xmin == half[0].xmin && whole.xmax == half[0].xmax && whole.ymin == half[0].ymin);
    rounds++;
  }
  CHECK_EQ_INT(fails, 0);
  CHECK(wrapped > 100); /* the antimeridian cases really wrap */
  printf("  property: %d rounds, %d wrapped boxes\n", rounds, wrapped);
}

/* ---- the corpus's geospatial files ------------------------------------ */

typedef struct col_vals {
  int64_t n; /* rows */
  int present[4096];
  char *val[4096];
  size_t len[4096];
} col_vals;

static void free_vals(col_vals *c) {
  for (int64_t i = 0; i < c->n; i++) free(c->val[i]);
  c->n = 0;
}

/* Read a flat optional/required BYTE_ARRAY column of one row group. */
static int read_col(pqt_reader *r, int32_t g, int32_t col, col_vals *out) {
  out->n = 0;
  pqt_column_reader *cr;
  pqt_error e;
  if (pqt_column_reader_open(&cr, r, g, col, &e)) {
    fprintf(stderr, "  column reader: %s\n", e.message);
    return 0;
  }
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  for (;;) {
    if (pqt_column_reader_next(cr, 1000, &b, &e)) {
      fprintf(stderr, "  column read: %s\n", e.message);
      pqt_column_reader_close(cr);
      return 0;
    }
    if (!b.n_levels) break;
    int64_t vi = 0;
    for (int64_t i = 0; i < b.n_levels && out->n < 4096; i++) {
      int present = !b.def_levels || b.def_levels[i] > 0;
      out->present[out->n] = present;
      out->val[out->n] = NULL;
      out->len[out->n] = 0;
      if (present) {
        size_t l = (size_t)(b.offsets[vi + 1] - b.offsets[vi]);
        out->val[out->n] = malloc(l + 1);
        memcpy(out->val[out->n], (const uint8_t *)b.values + b.offsets[vi], l);
        out->val[out->n][l] = 0;
        out->len[out->n] = l;
        vi++;
      }
      out->n++;
    }
  }
  pqt_column_reader_close(cr);
  return 1;
}

static col_vals g_geom, g_wkt;

typedef struct file_result {
  int values, wkt_equal, wkt_compared, groups, stats_equal, stats_cover, wrapped, no_stats, x_equal, y_close;
} file_result;

/* The file's box contains ours (wrap included): for GEOGRAPHY lines and
 * polygons, whose stored boxes include the edges' bulge. */
static int box_covers(const pqt_bounding_box *f, const pqt_geo_bbox *b) {
  const double eps = 1e-9; /* the files' unit-vector round trip moves bounds by ~1e-14 */
  if (f->ymin > b->ymin + eps || f->ymax < b->ymax - eps) return 0;
  double a0 = b->xmin, a1 = b->xmax;
  if (f->xmin <= -180 && f->xmax >= 180) return 1;
  if (f->xmin <= f->xmax) return a0 <= a1 && a0 >= f->xmin - eps && a1 <= f->xmax + eps;
  if (a0 <= a1) return (a0 >= f->xmin - eps) || (a1 <= f->xmax + eps);
  return a0 >= f->xmin - eps && a1 <= f->xmax + eps;
}

static void check_file(const char *dir, const char *name, int geography, file_result *res) {
  char path[1024];
  snprintf(path, sizeof path, "%s/data/geospatial/%s", dir, name);
  memset(res, 0, sizeof *res);
  pqt_reader *r;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e)) {
    CHECK_MSG(0, "%s: %s", path, e.message);
    return;
  }
  int32_t geom_col = -1, wkt_col = -1;
  for (int32_t c = 0; c < pqt_reader_num_columns(r); c++) {
    pqt_column_info info;
    pqt_column_info_init(&info);
    CHECK_OK(pqt_reader_column_info(r, c, &info, NULL));
    if (info.logical_type == PQT_LOGICAL_GEOMETRY || info.logical_type == PQT_LOGICAL_GEOGRAPHY) geom_col = c;
    if (!strcmp(info.path, "wkt")) wkt_col = c;
    if (geom_col == c) CHECK_EQ_INT(info.logical_type == PQT_LOGICAL_GEOGRAPHY, geography);
  }
  CHECK_MSG(geom_col >= 0, "%s: no geometry column", name);
  if (geom_col < 0) {
    pqt_reader_close(r);
    return;
  }
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) {
    res->groups++;
    CHECK(read_col(r, g, geom_col, &g_geom));
    if (wkt_col >= 0) CHECK(read_col(r, g, wkt_col, &g_wkt));
    pqt_geo_bbox bb;
    pqt_geo_bbox_init(&bb, geography ? PQT_GEO_EDGES_GEOGRAPHY : PQT_GEO_EDGES_PLANAR);
    for (int64_t i = 0; i < g_geom.n; i++) {
      if (!g_geom.present[i]) continue;
      res->values++;
      pqt_status st = pqt_geo_bbox_add_wkb(&bb, (const uint8_t *)g_geom.val[i], g_geom.len[i], &e);
      CHECK_MSG(st == PQT_OK, "%s rg %d row %lld: %s", name, g, (long long)i, st ? e.message : "");
      if (wkt_col >= 0 && i < g_wkt.n && g_wkt.present[i]) {
        res->wkt_compared++;
        const char *mine = to_wkt((const uint8_t *)g_geom.val[i], g_geom.len[i]);
        /* the file spells NaN "nan"; ours is the canonical float form's "NaN" */
        if (!strcasecmp(mine, g_wkt.val[i])) res->wkt_equal++;
        else
          CHECK_MSG(0, "%s rg %d row %lld: WKT %s, the file's wkt column says %s", name, g, (long long)i, mine,
                    g_wkt.val[i]);
      }
    }
    pqt_geo_bbox_result(&bb);
    const pqt_column_metadata *md = &r->md.row_groups.items[g].columns.items[geom_col].meta_data;
    const pqt_geospatial_statistics *gs = &md->geospatial_statistics;
    int has_gs = PQT_HAS_FIELD(md, column_metadata, geospatial_statistics);
    if (!has_gs) { /* nothing to compare with */
      res->no_stats++;
      free_vals(&g_geom);
      free_vals(&g_wkt);
      continue;
    }
    int has_box = has_gs && PQT_HAS_FIELD(gs, geospatial_statistics, bbox);
    int eq = 1;
    if (has_gs) {
      /* types */
      eq &= gs->geospatial_types.n == bb.n_types;
      for (int32_t k = 0; eq && k < bb.n_types; k++) eq &= (uint32_t)gs->geospatial_types.items[k] == bb.types[k];
      CHECK_MSG(gs->geospatial_types.n == bb.n_types, "%s rg %d: %d types, file %d", name, g, bb.n_types,
                gs->geospatial_types.n);
    }
    CHECK_MSG(has_box == bb.has_xy, "%s rg %d: box presence %d, file %d", name, g, bb.has_xy, has_box);
    if (has_box && bb.has_xy) {
      const pqt_bounding_box *f = &gs->bbox;
      int xy = f->xmin == bb.xmin && f->xmax == bb.xmax && f->ymin == bb.ymin && f->ymax == bb.ymax;
      int z = (int)PQT_HAS_FIELD(f, bounding_box, zmin) == bb.has_z &&
              (!bb.has_z || (f->zmin == bb.zmin && f->zmax == bb.zmax));
      int m = (int)PQT_HAS_FIELD(f, bounding_box, mmin) == bb.has_m &&
              (!bb.has_m || (f->mmin == bb.mmin && f->mmax == bb.mmax));
      eq &= xy && z && m;
      res->wrapped += f->xmin > f->xmax;
      res->x_equal += (f->xmin > f->xmax) == (bb.xmin > bb.xmax) && fabs(f->xmin - bb.xmin) < 1e-9 &&
                      fabs(f->xmax - bb.xmax) < 1e-9;
      res->y_close += fabs(f->ymin - bb.ymin) < 1e-9 && fabs(f->ymax - bb.ymax) < 1e-9;
      if (box_covers(f, &bb)) res->stats_cover++;
      else
        fprintf(stderr,
                "  %s rg %d: our box x[%.17g,%.17g] y[%.17g,%.17g] is not inside the file's x[%.17g,%.17g] "
                "y[%.17g,%.17g]\n",
                name, g, bb.xmin, bb.xmax, bb.ymin, bb.ymax, f->xmin, f->xmax, f->ymin, f->ymax);
      if (!(xy && z && m) && getenv("GEO_TEST_VERBOSE"))
        fprintf(stderr, "  note %s rg %d: box x[%.17g,%.17g] y[%.17g,%.17g], file x[%.17g,%.17g] y[%.17g,%.17g]\n",
                name, g, bb.xmin, bb.xmax, bb.ymin, bb.ymax, f->xmin, f->xmax, f->ymin, f->ymax);
    } else if (!has_box && !bb.has_xy) {
      res->stats_cover++;
    } else {
      eq = 0;
    }
    res->stats_equal += eq;
    free_vals(&g_geom);
    free_vals(&g_wkt);
  }
  pqt_reader_close(r);
}

static void test_corpus_geometry(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  static const char *const files[] = {"geospatial.parquet",  "geospatial-with-nan.parquet",
                                      "crs-default.parquet", "crs-projjson.parquet",
                                      "crs-srid.parquet",    "crs-arbitrary-value.parquet"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    file_result res;
    check_file(dir, files[i], 0, &res);
    printf("  %s: %d values, %d/%d WKT equal to the wkt column, %d/%d row groups' statistics equal\n", files[i],
           res.values, res.wkt_equal, res.wkt_compared, res.stats_equal, res.groups);
    CHECK(res.values > 0);
    CHECK_EQ_INT(res.no_stats, 0);
    CHECK_EQ_INT(res.stats_equal, res.groups);
    CHECK_EQ_INT(res.wkt_equal, res.wkt_compared);
    if (i == 0) CHECK(res.wkt_compared > 100);
  }
}

/* GEOGRAPHY. The files' boxes were computed through unit vectors (S2), so
 * their bounds differ from the vertices' coordinates by ~1e-14 (padded
 * outwards). Points have no edges: X and Y must be within 1e-9 of ours,
 * with the same antimeridian choice (wrap or not), and
 * the file's box must contain ours. Lines and polygons: the files' boxes
 * include the edges' bulge, which this module does not compute (only
 * vertices), so ours must lie inside theirs. crs-geography.parquet has no
 * statistics: its value must still parse. */
static void test_corpus_geography(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  static const char *const files[] = {"geography-points.parquet", "geography-lines.parquet",
                                      "geography-polygons.parquet", "crs-geography.parquet"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    file_result res;
    check_file(dir, files[i], 1, &res);
    int with = res.groups - res.no_stats;
    printf(
        "  %s: %d values, %d/%d row groups with statistics: %d contain ours, %d X within 1e-9 (same wrap), %d Y within "
        "1e-9, "
        "%d wrap\n",
        files[i], res.values, with, res.groups, res.stats_cover, res.x_equal, res.y_close, res.wrapped);
    CHECK(res.values > 0);
    CHECK_EQ_INT(res.stats_cover, with);
    if (i == 0) CHECK(res.x_equal == with && res.y_close == with);
    if (i == 1 || i == 2) CHECK(res.x_equal > with / 2); /* most groups have no edge past their vertices */
    if (i < 3) CHECK(res.wrapped > 0 && with == res.groups);
    if (i == 3) CHECK_EQ_INT(res.no_stats, res.groups);
  }
}

/* Replay fuzz/corpus/geo and tests/hardening/fuzz_regressions/fuzz_geo
 * through fuzz_geo.c (its invariants abort on failure). */
static int replay_dir(const char *sub) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/%s", PQT_SOURCE_DIR, sub);
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (ent->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    static uint8_t buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    pqt_fuzz_entry_geo(buf, len);
    n++;
  }
  closedir(d);
  return n;
}

static void test_fuzz_seeds_replay(void) {
  int n = replay_dir("fuzz/corpus/geo");
  CHECK(n >= 10);
  int r = replay_dir("tests/hardening/fuzz_regressions/fuzz_geo");
  printf("  replayed %d seeds, %d regressions\n", n, r < 0 ? 0 : r);
  /* and the test's own random geometries, as WKB and as WKT */
  for (int i = 0; i < 500; i++) {
    gen_reset(0xABCDEFull * (uint64_t)(i + 7));
    G.nan_pct = i % 3 ? 0 : 25;
    G.antimeridian = i & 1;
    w_geom(0, (uint32_t)(i % 4), 2, i % 3, 0, 0, 3);
    G.nan_pct = 0;
    pqt_fuzz_entry_geo(G.d, G.n);
    pqt_fuzz_entry_geo((const uint8_t *)G.wkt, G.wn);
  }
}

RUN_TESTS("geo", TEST_CASE(test_fuzz_seeds_replay), TEST_CASE(test_hex_vectors), TEST_CASE(test_every_type_dims_order),
          TEST_CASE(test_wkt_round_trips), TEST_CASE(test_wkt_errors), TEST_CASE(test_wkb_errors),
          TEST_CASE(test_bbox_rules), TEST_CASE(test_bbox_intersects), TEST_CASE(test_property_random),
          TEST_CASE(test_corpus_geometry), TEST_CASE(test_corpus_geography))
