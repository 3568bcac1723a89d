/*
 * test_geo_prune: spatial filtering never drops a matching row. Random files
 * (GEOMETRY and GEOGRAPHY columns, points, lines and polygons clustered by
 * row group so that boxes differ, some straddling the antimeridian, nulls
 * and empties) x random query boxes (wrapping ones for GEOGRAPHY) and WKT
 * polygons: pqt_reader_count with ST_Intersects equals a brute force over
 * the full read (each row's envelope from the accumulator tested against
 * the query box by the test's own interval code), and the row groups read
 * are fewer than all for some queries (pruning happens).
 */
#include <math.h>

#include "harness.h"
#include "rng.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "parquetry_geo.h"

static uint64_t rs = 0x1234567887654321ull;
static uint64_t rnd(void) {
  return pqt_test_xorshift(&rs);
}
static double urand(double lo, double hi) { return lo + (hi - lo) * ((double)(rnd() >> 11) / 9007199254740992.0); }

#define GROUPS 12
#define ROWS   40

static double wrap180(double x) {
  while (x > 180) x -= 360;
  while (x < -180) x += 360;
  return x;
}

static void random_wkt(char *buf, size_t cap, double cx, double cy) {
  int kind = (int)(rnd() % 6);
  if (kind == 5) {
    snprintf(buf, cap, rnd() % 2 ? "POINT EMPTY" : "LINESTRING EMPTY");
    return;
  }
  int n = kind == 0 ? 1 : 2 + (int)(rnd() % 4);
  size_t p = (size_t)snprintf(buf, cap, kind == 0 ? "POINT (" : kind == 1 ? "LINESTRING (" : "POLYGON ((");
  double x0 = 0, y0 = 0;
  for (int i = 0; i < n; i++) {
    double x = wrap180(cx + urand(-8, 8)), y = cy + urand(-6, 6);
    if (i == 0) x0 = x, y0 = y;
    p += (size_t)snprintf(buf + p, cap - p, "%s%.6f %.6f", i ? ", " : "", x, y);
  }
  if (kind >= 2) p += (size_t)snprintf(buf + p, cap - p, ", %.6f %.6f", x0, y0);
  snprintf(buf + p, cap - p, kind == 0 ? ")" : kind == 1 ? ")" : "))");
}

static int ranges_meet(double a0, double a1, double b0, double b1) { return a0 <= b1 && b0 <= a1; }

/* x ranges as unions of plain intervals; a wrapped one splits at 180. */
static int x_meet(double a0, double a1, double b0, double b1) {
  double as[2][2], bs[2][2];
  int na = 0, nb = 0;
  if (a0 <= a1) as[na][0] = a0, as[na++][1] = a1;
  else as[na][0] = a0, as[na++][1] = 1e300, as[na][0] = -1e300, as[na++][1] = a1;
  if (b0 <= b1) bs[nb][0] = b0, bs[nb++][1] = b1;
  else bs[nb][0] = b0, bs[nb++][1] = 1e300, bs[nb][0] = -1e300, bs[nb++][1] = b1;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (ranges_meet(as[i][0], as[i][1], bs[j][0], bs[j][1])) return 1;
  return 0;
}

typedef struct row_box {
  int has;
  double x0, x1, y0, y1;
} row_box;

static void one_file(int geography, int *pruned_queries, int *queries) {
  const char *type = geography ? "GEOGRAPHY" : "GEOMETRY";
  char schema[128];
  snprintf(schema, sizeof schema, "message m { required int64 id; optional binary g (%s); }", type);
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  static row_box boxes[GROUPS * ROWS];
  pqt_geo_edges edges = geography ? PQT_GEO_EDGES_GEOGRAPHY : PQT_GEO_EDGES_PLANAR;
  for (int g = 0; g < GROUPS; g++) {
    double cx = g % 4 == 3 ? urand(172, 180) : urand(-170, 170), cy = urand(-70, 70);
    int64_t ids[ROWS];
    int16_t def[ROWS];
    static uint8_t data[ROWS * 400];
    int32_t off[ROWS + 1];
    int nv = 0;
    off[0] = 0;
    for (int i = 0; i < ROWS; i++) {
      int k = g * ROWS + i;
      ids[i] = k;
      def[i] = rnd() % 10 != 0;
      boxes[k].has = 0;
      if (!def[i]) continue;
      char wkt[400];
      random_wkt(wkt, sizeof wkt, cx, cy);
      pqt_wkb_buffer b = {0};
      CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, &e));
      memcpy(data + off[nv], b.data, b.len);
      off[nv + 1] = off[nv] + (int32_t)b.len;
      nv++;
      pqt_geo_bbox bb;
      pqt_geo_bbox_init(&bb, edges);
      CHECK_OK(pqt_geo_bbox_add_wkb(&bb, b.data, b.len, &e));
      pqt_geo_bbox_result(&bb);
      boxes[k] = (row_box){bb.has_xy, bb.xmin, bb.xmax, bb.ymin, bb.ymax};
      pqt_wkb_buffer_free(&b);
    }
    CHECK_OK(pqt_writer_write_column(w, 0, ROWS, NULL, NULL, ids, NULL, ROWS, &e));
    CHECK_OK(pqt_writer_write_column(w, 1, ROWS, def, NULL, data, off, nv, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  for (int q = 0; q < 120; q++) {
    double x0 = urand(-180, 180), w2 = urand(1, 60), y0 = urand(-80, 60), h = urand(1, 40);
    double x1 = x0 + w2, y1 = y0 + h;
    int use_wkt = q % 3 == 0;
    if (x1 > 180) {
      if (geography && !use_wkt) x1 -= 360; /* wraps */
      else x1 = 180;
    }
    pqt_expr *f;
    double qx0 = x0, qx1 = x1;
    if (use_wkt) { /* a rectangle as a polygon: for GEOGRAPHY its edges bulge, so its box comes from the accumulator */
      char wkt[256];
      snprintf(wkt, sizeof wkt, "POLYGON ((%.6f %.6f, %.6f %.6f, %.6f %.6f, %.6f %.6f, %.6f %.6f))", x0, y0, x1, y0, x1,
               y1, x0, y1, x0, y0);
      pqt_wkb_buffer b = {0};
      CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, &e));
      pqt_geo_bbox qb;
      pqt_geo_bbox_init(&qb, edges);
      CHECK_OK(pqt_geo_bbox_add_wkb(&qb, b.data, b.len, &e));
      pqt_geo_bbox_result(&qb);
      qx0 = qb.xmin, qx1 = qb.xmax, y0 = qb.ymin, y1 = qb.ymax;
      f = pqt_expr_st_intersects(pqt_expr_column("g"), b.data, b.len);
      pqt_wkb_buffer_free(&b);
    } else {
      f = pqt_expr_bbox_intersects(pqt_expr_column("g"), x0, y0, x1, y1);
    }
    CHECK(f != NULL);
    int64_t want = 0;
    for (int k = 0; k < GROUPS * ROWS; k++)
      if (boxes[k].has && ranges_meet(boxes[k].y0, boxes[k].y1, y0, y1) && x_meet(boxes[k].x0, boxes[k].x1, qx0, qx1))
        want++;
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    pqt_scan_stats st;
    memset(&st, 0, sizeof st);
    so.filter = f;
    so.stats = &st;
    int64_t got = -1;
    CHECK_OK(pqt_reader_count(r, &so, &got, &e));
    CHECK_MSG(got == want, "%s query %d box x[%g,%g] y[%g,%g]: %lld rows, brute force %lld", type, q, qx0, qx1, y0, y1,
              (long long)got, (long long)want);
    (*queries)++;
    if (st.row_groups_read < st.row_groups_total) (*pruned_queries)++;
    /* the expression prints and parses back to the same text */
    pqt_string s1 = {0}, s2 = {0};
    CHECK_OK(pqt_expr_to_string(f, &s1, &e));
    pqt_expr *f2 = NULL;
    CHECK_OK(pqt_expr_parse(s1.data, s1.len, &f2, &e));
    if (f2) {
      CHECK_OK(pqt_expr_to_string(f2, &s2, &e));
      CHECK_MSG(s1.len == s2.len && !memcmp(s1.data, s2.data, s1.len), "%s / %s", s1.data, s2.data);
    }
    pqt_string_free(&s1);
    pqt_string_free(&s2);
    pqt_expr_free(f2);
    pqt_expr_free(f);
  }
  pqt_reader_close(r);
  pqt_string_free(&out);
}

static void test_prune_never_drops(void) {
  int pruned = 0, queries = 0;
  one_file(0, &pruned, &queries);
  one_file(1, &pruned, &queries);
  printf("  %d queries, %d skipped row groups by their boxes\n", queries, pruned);
  CHECK(pruned > queries / 2);
}

static void test_parse_errors(void) {
  pqt_expr *f = NULL;
  pqt_error e;
  const char *bad[] = {"ST_Intersects(g, 'POLYGON ((0 0, 1')", "ST_Intersects(g, BOX(1, 2, 3))",
                       "ST_Intersects(g 'POINT (1 2)')", "ST_Intersects(g, 5)"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(pqt_expr_parse(bad[i], strlen(bad[i]), &f, &e) == PQT_EINVAL);
    CHECK_MSG(strstr(e.message, "position") != NULL, "%s: %s", bad[i], e.message);
  }
  CHECK(pqt_expr_parse("ST_Intersects(g, BOX(1e999, 0, 1, 1))", 37, &f, &e) == PQT_EINVAL);
  /* odd coordinates print and parse back */
  const char *odd[] = {"ST_Intersects(g, 'POINT (NaN 5)')", "ST_Intersects(g, 'POINT EMPTY')",
                       "ST_Intersects(g, 'LINESTRING (1e300 -1e-300, Infinity 2)')",
                       "ST_Intersects(\"a b\".c, 'GEOMETRYCOLLECTION Z (POINT Z (1 2 3))')",
                       "ST_Intersects(g, BOX(-0, 1e-7, 123456789012, 5))"};
  for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
    CHECK_MSG(pqt_expr_parse(odd[i], strlen(odd[i]), &f, &e) == PQT_OK, "%s: %s", odd[i], e.message);
    pqt_string s1 = {0}, s2 = {0};
    pqt_expr *f2 = NULL;
    CHECK_OK(pqt_expr_to_string(f, &s1, &e));
    CHECK_MSG(pqt_expr_parse(s1.data, s1.len, &f2, &e) == PQT_OK, "%s: %s", s1.data, e.message);
    if (f2) CHECK_OK(pqt_expr_to_string(f2, &s2, &e));
    CHECK_MSG(s2.data && !strcmp(s1.data, s2.data), "%s / %s", s1.data, s2.data ? s2.data : "?");
    pqt_string_free(&s1);
    pqt_string_free(&s2);
    pqt_expr_free(f2);
    pqt_expr_free(f);
  }
  /* a column named st_intersects still works */
  CHECK_OK(pqt_expr_parse("st_intersects = 1", 17, &f, &e));
  pqt_expr_free(f);
}

RUN_TESTS("geo_prune", TEST_CASE(test_prune_never_drops), TEST_CASE(test_parse_errors))
