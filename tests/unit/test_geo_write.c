/*
 * test_geo_write: GeospatialStatistics written by the column writer for
 * GEOMETRY and GEOGRAPHY leaves (seed 001, "Geospatial"): the box and the
 * sorted type list equal what the geo accumulator gives for the values of
 * each row group, no min/max Statistics and no ColumnIndex for these
 * columns, an invalid WKB fails the write naming column and row, and a
 * rewrite of the corpus's geospatial files keeps their statistics.
 */
#include <math.h>

#include "core/core.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_geo.h"

/* ---- values ---------------------------------------------------------- */

static const char *const WKTS[] = {
    "POINT (1 2)",
    "POINT (-3.5 7)",
    "POINT EMPTY",
    "LINESTRING (0 0, 10 -4, 3 8)",
    "POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))",
    "POINT Z (1 2 3)",
    "LINESTRING M (5 5 100, 6 6 -100)",
    "POLYGON ZM ((0 0 1 2, 1 0 1 2, 1 1 9 -2, 0 0 1 2))",
    "POINT (NaN 5)",
    "LINESTRING EMPTY",
    "MULTIPOINT ((170 10), (-170 -10))",
    "GEOMETRYCOLLECTION (POINT (179 1), LINESTRING (-179 2, -178 3))",
    "POINT (NaN NaN)",
    "MULTIPOLYGON Z (((0 0 0, 1 0 5, 1 1 -5, 0 0 0)))",
};
#define N_WKTS (sizeof WKTS / sizeof WKTS[0])

typedef struct geo_col {
  int n;
  pqt_wkb_buffer wkb[64];
} geo_col;

static void make_values(geo_col *c) {
  c->n = 0;
  for (size_t i = 0; i < N_WKTS; i++) {
    pqt_error e;
    memset(&c->wkb[c->n], 0, sizeof c->wkb[c->n]);
    CHECK_OK(pqt_wkt_to_wkb(WKTS[i], strlen(WKTS[i]), NULL, &c->wkb[c->n], &e));
    c->n++;
  }
}

static void free_values(geo_col *c) {
  for (int i = 0; i < c->n; i++) pqt_wkb_buffer_free(&c->wkb[i]);
}

/* Rows [from, to) of the values, row k null when k % 5 == 4. */
static pqt_status write_rows(pqt_writer *w, const geo_col *c, int from, int to, pqt_error *e) {
  int16_t def[64];
  int32_t off[65];
  uint8_t data[8192];
  int nv = 0;
  off[0] = 0;
  for (int k = from; k < to; k++) {
    def[k - from] = k % 5 != 4;
    if (!def[k - from]) continue;
    const pqt_wkb_buffer *b = &c->wkb[k];
    memcpy(data + off[nv], b->data, b->len);
    off[nv + 1] = off[nv] + (int32_t)b->len;
    nv++;
  }
  return pqt_writer_write_column(w, 0, to - from, def, NULL, data, off, nv, e);
}

/* Check the chunk's statistics against the accumulator over its values. */
static void check_chunk(const pqt_column_metadata *md, const geo_col *c, int from, int to, pqt_geo_edges edges) {
  pqt_geo_bbox bb;
  pqt_geo_bbox_init(&bb, edges);
  int nulls = 0;
  for (int k = from; k < to; k++) {
    if (k % 5 == 4) {
      nulls++;
      continue;
    }
    CHECK_OK(pqt_geo_bbox_add_wkb(&bb, c->wkb[k].data, c->wkb[k].len, NULL));
  }
  pqt_geo_bbox_result(&bb);
  /* no min/max: only null_count */
  CHECK(PQT_HAS_FIELD(md, column_metadata, statistics));
  const pqt_statistics *s = &md->statistics;
  CHECK(!PQT_HAS_FIELD(s, statistics, min_value) && !PQT_HAS_FIELD(s, statistics, max_value));
  CHECK(!PQT_HAS_FIELD(s, statistics, min) && !PQT_HAS_FIELD(s, statistics, max));
  CHECK(PQT_HAS_FIELD(s, statistics, null_count));
  CHECK_EQ_INT(s->null_count, nulls);
  CHECK(PQT_HAS_FIELD(md, column_metadata, geospatial_statistics));
  const pqt_geospatial_statistics *g = &md->geospatial_statistics;
  CHECK(bb.n_types > 0);
  CHECK(PQT_HAS_FIELD(g, geospatial_statistics, geospatial_types));
  CHECK_EQ_INT(g->geospatial_types.n, bb.n_types);
  for (int32_t i = 0; i < bb.n_types && i < g->geospatial_types.n; i++) {
    CHECK_EQ_INT(g->geospatial_types.items[i], (int32_t)bb.types[i]);
    if (i) CHECK(g->geospatial_types.items[i - 1] < g->geospatial_types.items[i]);
  }
  CHECK_EQ_INT(PQT_HAS_FIELD(g, geospatial_statistics, bbox), bb.has_xy);
  if (!bb.has_xy) return;
  const pqt_bounding_box *f = &g->bbox;
  CHECK(f->xmin == bb.xmin && f->xmax == bb.xmax && f->ymin == bb.ymin && f->ymax == bb.ymax);
  CHECK_EQ_INT(PQT_HAS_FIELD(f, bounding_box, zmin), bb.has_z);
  CHECK_EQ_INT(PQT_HAS_FIELD(f, bounding_box, zmax), bb.has_z);
  CHECK_EQ_INT(PQT_HAS_FIELD(f, bounding_box, mmin), bb.has_m);
  CHECK_EQ_INT(PQT_HAS_FIELD(f, bounding_box, mmax), bb.has_m);
  if (bb.has_z) CHECK(f->zmin == bb.zmin && f->zmax == bb.zmax);
  if (bb.has_m) CHECK(f->mmin == bb.mmin && f->mmax == bb.mmax);
}

/* Three row groups: [0,5) points only (XY, so no Z/M), [5,10) with Z and M,
 * [10,14) crossing the antimeridian (wraps for GEOGRAPHY). */
static void write_and_check(const char *type, pqt_geo_edges edges) {
  geo_col c;
  make_values(&c);
  char schema[128];
  snprintf(schema, sizeof schema, "message m { optional binary g (%s); }", type);
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 2; /* several pages per chunk */
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  static const int cut[] = {0, 5, 10, (int)N_WKTS};
  for (int g = 0; g < 3; g++) {
    CHECK_OK(write_rows(w, &c, cut[g], cut[g + 1], &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  CHECK_EQ_INT(r->md.row_groups.n, 3);
  int wrapped = 0, zm = 0;
  for (int g = 0; g < 3 && g < r->md.row_groups.n; g++) {
    const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[0];
    check_chunk(&cc->meta_data, &c, cut[g], cut[g + 1], edges);
    /* only an offset index: no ColumnIndex for a column without a sort order */
    CHECK(!PQT_HAS_FIELD(cc, column_chunk, column_index_offset));
    CHECK(PQT_HAS_FIELD(cc, column_chunk, offset_index_offset));
    const pqt_bounding_box *f = &cc->meta_data.geospatial_statistics.bbox;
    wrapped += f->xmin > f->xmax;
    zm += PQT_HAS_FIELD(f, bounding_box, zmin) && PQT_HAS_FIELD(f, bounding_box, mmin);
  }
  CHECK_EQ_INT(wrapped, edges == PQT_GEO_EDGES_GEOGRAPHY ? 1 : 0);
  CHECK_EQ_INT(zm, 1);
  /* the values read back unchanged */
  pqt_column_reader *cr;
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  CHECK_OK(pqt_column_reader_open(&cr, r, 1, 0, &e));
  CHECK_OK(pqt_column_reader_next(cr, 100, &b, &e));
  CHECK_EQ_INT(b.n_levels, 5);
  CHECK_EQ_INT(b.n_values, 4);
  if (b.n_values == 4) {
    const pqt_wkb_buffer *x = &c.wkb[6];
    CHECK(b.offsets[2] - b.offsets[1] == (int32_t)x->len &&
          !memcmp((const uint8_t *)b.values + b.offsets[1], x->data, x->len));
  }
  pqt_column_reader_close(cr);
  pqt_reader_close(r);
  pqt_string_free(&out);
  free_values(&c);
}

static void test_geometry_written(void) { write_and_check("GEOMETRY", PQT_GEO_EDGES_PLANAR); }
static void test_geography_written(void) { write_and_check("GEOGRAPHY(OGC:CRS84,SPHERICAL)", PQT_GEO_EDGES_GEOGRAPHY); }

/* An all-null chunk: no box and an empty type list ("types not known"), as
 * Arrow C++ writes it. */
static void test_all_null_chunk(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { optional binary g (GEOMETRY); }"};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  int16_t def[3] = {0, 0, 0};
  int32_t off[1] = {0};
  CHECK_OK(pqt_writer_write_column(w, 0, 3, def, NULL, NULL, off, 0, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  const pqt_column_metadata *md = &r->md.row_groups.items[0].columns.items[0].meta_data;
  CHECK(PQT_HAS_FIELD(md, column_metadata, geospatial_statistics));
  const pqt_geospatial_statistics *g = &md->geospatial_statistics;
  CHECK(!PQT_HAS_FIELD(g, geospatial_statistics, bbox));
  CHECK(PQT_HAS_FIELD(g, geospatial_statistics, geospatial_types));
  CHECK_EQ_INT(g->geospatial_types.n, 0);
  CHECK_EQ_INT(md->statistics.null_count, 3);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

/* A value that is not WKB: the write fails naming the column and the row
 * (counted over the file: the second row group's second row is row 4). */
static void test_invalid_wkb_fails(void) {
  geo_col c;
  make_values(&c);
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { optional group s { required binary geom (GEOMETRY); } }"};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  int16_t def[3] = {1, 1, 1};
  int32_t off[4] = {0};
  uint8_t data[4096];
  for (int i = 0; i < 3; i++) {
    memcpy(data + off[i], c.wkb[i].data, c.wkb[i].len);
    off[i + 1] = off[i] + (int32_t)c.wkb[i].len;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, 3, def, NULL, data, off, 3, &e));
  CHECK_OK(pqt_writer_flush_row_group(w, &e));
  int16_t def2[3] = {0, 1, 1};
  int32_t off2[3] = {0, 0, 0};
  uint8_t bad[] = {1, 1, 0, 0, 0, 0, 0}; /* a point cut short */
  memcpy(data, c.wkb[0].data, c.wkb[0].len);
  off2[1] = (int32_t)c.wkb[0].len;
  memcpy(data + off2[1], bad, sizeof bad);
  off2[2] = off2[1] + (int32_t)sizeof bad;
  pqt_status st = pqt_writer_write_column(w, 0, 3, def2, NULL, data, off2, 2, &e);
  CHECK(st != PQT_OK);
  if (st != PQT_OK) {
    printf("  error: %s\n", e.message);
    CHECK(strstr(e.message, "s.geom") != NULL);
    CHECK(strstr(e.message, "row 5") != NULL);
    CHECK(strstr(e.message, "WKB") != NULL);
  }
  pqt_writer_discard(w);
  pqt_string_free(&out);
  free_values(&c);
}

/* ---- text output (cat) ------------------------------------------------- */

static pqt_status collect(void *ctx, const char *data, size_t n) {
  return pqt_buf_append((pqt_buf *)ctx, data, n, NULL);
}

/* GEOMETRY values print as WKT strings; a stored value that is not WKB
 * (patched into the file: the writer refuses one) prints as base64, and
 * the output does not fail. */
static void test_cat_wkt(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = PQT_CODEC_UNCOMPRESSED;
  o.defaults.dictionary = 0;
  o.defaults.crc = 0;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { optional binary g (GEOGRAPHY); optional binary b; }"};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  const char *wkt[] = {"POINT Z (1.5 -2 NaN)", "LINESTRING (170 1, -170 2)", "POINT (7 8)"};
  uint8_t data[512];
  int32_t off[4] = {0};
  for (int i = 0; i < 3; i++) {
    pqt_wkb_buffer b = {0};
    CHECK_OK(pqt_wkt_to_wkb(wkt[i], strlen(wkt[i]), NULL, &b, &e));
    memcpy(data + off[i], b.data, b.len);
    off[i + 1] = off[i] + (int32_t)b.len;
    pqt_wkb_buffer_free(&b);
  }
  int16_t def[4] = {1, 0, 1, 1};
  CHECK_OK(pqt_writer_write_column(w, 0, 4, def, NULL, data, off, 3, &e));
  int16_t bdef[4] = {0, 0, 0, 0};
  CHECK_OK(pqt_writer_write_column(w, 1, 4, bdef, NULL, NULL, NULL, 0, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  /* POINT (7 8) is the last WKB of the page: its type code 1 (LE) -> 99 */
  const uint8_t pt[] = {1, 1, 0, 0, 0};
  char *hit = NULL;
  for (size_t k = 0; k + 21 <= out.len; k++)
    if (!memcmp(out.data + k, pt, sizeof pt)) {
      double x;
      memcpy(&x, out.data + k + 5, 8);
      if (x == 7) hit = out.data + k;
    }
  CHECK(hit != NULL);
  if (hit) hit[1] = 99;
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  pqt_buf txt;
  pqt_buf_init(&txt, NULL);
  CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &txt, &e));
  CHECK_OK(pqt_buf_append(&txt, "", 1, NULL));
  const char *want =
      "{\"g\":\"POINT Z (1.5 -2 NaN)\",\"b\":null}\n"
      "{\"g\":null,\"b\":null}\n"
      "{\"g\":\"LINESTRING (170 1, -170 2)\",\"b\":null}\n"
      "{\"g\":\"AWMAAAAAAAAAAAAcQAAAAAAAACBA\",\"b\":null}\n";
  CHECK_EQ_STR((const char *)txt.data, want);
  pqt_buf_free(&txt);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

/* ---- rewriting the corpus's geospatial files -------------------------- */

/* Copy every column chunk by chunk (levels and values as read), one output
 * row group per input row group, through the public writer. */
static int rewrite(pqt_reader *in, pqt_string *out) {
  pqt_writer *w;
  pqt_error e;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = in};
  if (pqt_writer_open_buffer(&w, out, &ws, NULL, &e)) {
    CHECK_MSG(0, "open writer: %s", e.message);
    return 0;
  }
  for (int32_t g = 0; g < pqt_reader_num_row_groups(in); g++) {
    for (int32_t c = 0; c < pqt_reader_num_columns(in); c++) {
      pqt_column_reader *cr;
      if (pqt_column_reader_open(&cr, in, g, c, &e)) {
        CHECK_MSG(0, "column reader: %s", e.message);
        pqt_writer_discard(w);
        return 0;
      }
      pqt_column_batch b;
      pqt_column_batch_init(&b);
      for (;;) {
        pqt_status st = pqt_column_reader_next(cr, 4096, &b, &e);
        if (st == PQT_OK && b.n_levels == 0) break;
        if (st == PQT_OK) {
          /* offsets[0] may be non-zero: the writer takes them as given */
          st = pqt_writer_write_column(w, c, b.n_levels, b.def_levels, b.rep_levels, b.values, b.offsets, b.n_values,
                                       &e);
        }
        if (st != PQT_OK) {
          CHECK_MSG(0, "copy rg %d column %d: %s", g, c, e.message);
          pqt_column_reader_close(cr);
          pqt_writer_discard(w);
          return 0;
        }
      }
      pqt_column_reader_close(cr);
    }
    if (pqt_writer_flush_row_group(w, &e)) {
      CHECK_MSG(0, "flush: %s", e.message);
      pqt_writer_discard(w);
      return 0;
    }
  }
  if (pqt_writer_close(w, &e)) {
    CHECK_MSG(0, "close: %s", e.message);
    return 0;
  }
  return 1;
}

static int close_enough(double a, double b, double tol) { return tol == 0 ? a == b : fabs(a - b) <= tol; }

/* tol 0: exactly equal. Returns 1 when equal (within tol). Also requires
 * the written box to equal what the accumulator gives for the chunk's
 * values (checked through check_values). */
static int same_stats(const pqt_column_metadata *a, const pqt_column_metadata *b, double tol) {
  int ha = PQT_HAS_FIELD(a, column_metadata, geospatial_statistics);
  int hb = PQT_HAS_FIELD(b, column_metadata, geospatial_statistics);
  if (ha != hb) return 0;
  if (!ha) return 1;
  const pqt_geospatial_statistics *x = &a->geospatial_statistics, *y = &b->geospatial_statistics;
  if (x->geospatial_types.n != y->geospatial_types.n) return 0;
  for (int32_t i = 0; i < x->geospatial_types.n; i++)
    if (x->geospatial_types.items[i] != y->geospatial_types.items[i]) return 0;
  if (PQT_HAS_FIELD(x, geospatial_statistics, bbox) != PQT_HAS_FIELD(y, geospatial_statistics, bbox)) return 0;
  if (!PQT_HAS_FIELD(x, geospatial_statistics, bbox)) return 1;
  const pqt_bounding_box *p = &x->bbox, *q = &y->bbox;
  if ((p->xmin > p->xmax) != (q->xmin > q->xmax)) return 0;
  if (!close_enough(p->xmin, q->xmin, tol) || !close_enough(p->xmax, q->xmax, tol) ||
      !close_enough(p->ymin, q->ymin, tol) || !close_enough(p->ymax, q->ymax, tol))
    return 0;
  if (PQT_HAS_FIELD(p, bounding_box, zmin) != PQT_HAS_FIELD(q, bounding_box, zmin)) return 0;
  if (PQT_HAS_FIELD(p, bounding_box, mmin) != PQT_HAS_FIELD(q, bounding_box, mmin)) return 0;
  if (PQT_HAS_FIELD(p, bounding_box, zmin) && (!close_enough(p->zmin, q->zmin, tol) || !close_enough(p->zmax, q->zmax, tol)))
    return 0;
  if (PQT_HAS_FIELD(p, bounding_box, mmin) && (!close_enough(p->mmin, q->mmin, tol) || !close_enough(p->mmax, q->mmax, tol)))
    return 0;
  return 1;
}

/* The original's box contains the rewritten one (within 1e-9), wrap included. */
static int box_inside(const pqt_bounding_box *f, const pqt_bounding_box *b) {
  const double eps = 1e-9;
  if (f->ymin > b->ymin + eps || f->ymax < b->ymax - eps) return 0;
  double a0 = b->xmin, a1 = b->xmax;
  if (f->xmin <= -180 && f->xmax >= 180) return 1;
  if (f->xmin <= f->xmax) return a0 <= a1 && a0 >= f->xmin - eps && a1 <= f->xmax + eps;
  if (a0 <= a1) return (a0 >= f->xmin - eps) || (a1 <= f->xmax + eps);
  return a0 >= f->xmin - eps && a1 <= f->xmax + eps;
}

/* mode 0: GEOMETRY, exactly equal; 1: GEOGRAPHY points, within 1e-9;
 * 2: GEOGRAPHY lines/polygons: both include the edges' bulge (S2 there,
 * src/geo/bbox.c here); the boxes are equal within 1e-9 except where S2
 * takes a polygon's interior differently (then ours is inside theirs), so
 * types equal, our box inside theirs and all but one chunk per file equal;
 * 3: the original has no statistics (crs-geography.parquet): ours are
 * written and cover the values. */
static void check_rewrite(const char *dir, const char *name, int mode) {
  char path[1024];
  snprintf(path, sizeof path, "%s/data/geospatial/%s", dir, name);
  pqt_reader *r, *r2;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e)) {
    CHECK_MSG(0, "%s: %s", path, e.message);
    return;
  }
  pqt_string out = {0};
  if (!rewrite(r, &out)) {
    pqt_reader_close(r);
    return;
  }
  CHECK_OK(pqt_reader_open_buffer(&r2, out.data, out.len, NULL, &e));
  CHECK_EQ_INT(r2->md.row_groups.n, r->md.row_groups.n);
  int geo_chunks = 0, equal = 0, inside = 0, with = 0;
  for (int32_t g = 0; g < r->md.row_groups.n && g < r2->md.row_groups.n; g++) {
    for (int32_t c = 0; c < r->md.row_groups.items[g].columns.n; c++) {
      pqt_column_info info;
      pqt_column_info_init(&info);
      CHECK_OK(pqt_reader_column_info(r, c, &info, NULL));
      if (info.logical_type != PQT_LOGICAL_GEOMETRY && info.logical_type != PQT_LOGICAL_GEOGRAPHY) continue;
      geo_chunks++;
      const pqt_column_metadata *a = &r->md.row_groups.items[g].columns.items[c].meta_data;
      const pqt_column_metadata *b = &r2->md.row_groups.items[g].columns.items[c].meta_data;
      CHECK(!PQT_HAS_FIELD(&b->statistics, statistics, min_value) && !PQT_HAS_FIELD(&b->statistics, statistics, max_value));
      if (mode == 3) {
        CHECK(!PQT_HAS_FIELD(a, column_metadata, geospatial_statistics));
        CHECK(PQT_HAS_FIELD(b, column_metadata, geospatial_statistics));
        continue;
      }
      with += PQT_HAS_FIELD(a, column_metadata, geospatial_statistics);
      int eq = same_stats(a, b, mode == 0 ? 0 : 1e-9);
      equal += eq;
      if (mode == 2 && PQT_HAS_FIELD(a, column_metadata, geospatial_statistics) &&
          PQT_HAS_FIELD(b, column_metadata, geospatial_statistics)) {
        const pqt_geospatial_statistics *x = &a->geospatial_statistics, *y = &b->geospatial_statistics;
        int types = x->geospatial_types.n == y->geospatial_types.n;
        for (int32_t i = 0; types && i < x->geospatial_types.n; i++)
          types = x->geospatial_types.items[i] == y->geospatial_types.items[i];
        CHECK_MSG(types, "%s rg %d: type lists differ", name, g);
        if (types && box_inside(&x->bbox, &y->bbox)) inside++;
      }
      if (!eq && mode < 2) {
        const pqt_bounding_box *p = &a->geospatial_statistics.bbox, *q = &b->geospatial_statistics.bbox;
        CHECK_MSG(0, "%s rg %d: original x[%.17g,%.17g] y[%.17g,%.17g], rewritten x[%.17g,%.17g] y[%.17g,%.17g]", name,
                  g, p->xmin, p->xmax, p->ymin, p->ymax, q->xmin, q->xmax, q->ymin, q->ymax);
      }
    }
  }
  printf("  %s: %d geo chunks, %d statistics equal%s, %d inside the original's\n", name, geo_chunks, equal,
         mode == 0 ? "" : " within 1e-9", inside);
  CHECK(geo_chunks > 0);
  if (mode < 2) CHECK_EQ_INT(equal, geo_chunks);
  if (mode == 2) {
    CHECK_EQ_INT(inside, with);
    CHECK(with == geo_chunks && equal >= geo_chunks - 1);
  }
  pqt_reader_close(r2);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

static void test_rewrite_corpus(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  static const char *const geometry[] = {"geospatial.parquet",  "geospatial-with-nan.parquet",
                                         "crs-default.parquet", "crs-projjson.parquet",
                                         "crs-srid.parquet",    "crs-arbitrary-value.parquet"};
  for (size_t i = 0; i < sizeof geometry / sizeof geometry[0]; i++) check_rewrite(dir, geometry[i], 0);
  check_rewrite(dir, "geography-points.parquet", 1);
  check_rewrite(dir, "geography-lines.parquet", 2);
  check_rewrite(dir, "geography-polygons.parquet", 2);
  check_rewrite(dir, "crs-geography.parquet", 3);
}

RUN_TESTS("geo_write", TEST_CASE(test_geometry_written), TEST_CASE(test_geography_written),
          TEST_CASE(test_all_null_chunk), TEST_CASE(test_invalid_wkb_fails), TEST_CASE(test_cat_wkt),
          TEST_CASE(test_rewrite_corpus))
