/*
 * test_geoarrow: GEOMETRY/GEOGRAPHY through the Arrow C interfaces as the
 * GeoArrow extension type geoarrow.wkb. With pqt_read_options
 * .arrow_extensions the stream's schema carries ARROW:extension:name and
 * ARROW:extension:metadata (PROJJSON object for crs "projjson:KEY", srid,
 * the default OGC:CRS84, "edges" for GEOGRAPHY); without it the field is
 * plain binary with no metadata. A writer given that Arrow schema writes
 * GEOMETRY (or GEOGRAPHY with the algorithm) with the same crs, and the
 * batches written give the same geospatial statistics as the original.
 */
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"

/* Value of key in Arrow's binary metadata, copied NUL-terminated into buf. */
static int md_get(const char *md, const char *key, char *buf, size_t cap) {
  if (!md) return 0;
  int32_t n;
  memcpy(&n, md, 4);
  const char *p = md + 4;
  for (int32_t i = 0; i < n; i++) {
    int32_t a, b;
    memcpy(&a, p, 4);
    const char *k = p + 4;
    memcpy(&b, k + a, 4);
    const char *v = k + a + 4;
    if ((size_t)a == strlen(key) && !memcmp(k, key, (size_t)a)) {
      size_t m = (size_t)b < cap - 1 ? (size_t)b : cap - 1;
      memcpy(buf, v, m);
      buf[m] = 0;
      return 1;
    }
    p = v + b;
  }
  return 0;
}

static struct ArrowSchema *field_named(struct ArrowSchema *root, const char *name) {
  for (int64_t i = 0; i < root->n_children; i++)
    if (!strcmp(root->children[i]->name, name)) return root->children[i];
  return NULL;
}

typedef struct expect {
  const char *file, *meta_part1, *meta_part2;
} expect;

static void export_one(const char *dir, const expect *x, int ext) {
  char path[1024];
  snprintf(path, sizeof path, "%s/data/geospatial/%s", dir, x->file);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.arrow_extensions = ext;
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, path, &ro, &e));
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, &so, &st, &e));
  struct ArrowSchema sc;
  CHECK_EQ_INT(st.get_schema(&st, &sc), 0);
  struct ArrowSchema *g = field_named(&sc, "geometry");
  CHECK_MSG(g != NULL, "%s: no geometry field", x->file);
  if (g) {
    CHECK(!strcmp(g->format, "z"));
    char name[64], meta[4096];
    if (!ext) {
      CHECK(g->metadata == NULL);
    } else {
      CHECK(md_get(g->metadata, "ARROW:extension:name", name, sizeof name) && !strcmp(name, "geoarrow.wkb"));
      CHECK(md_get(g->metadata, "ARROW:extension:metadata", meta, sizeof meta));
      CHECK_MSG(strstr(meta, x->meta_part1) && strstr(meta, x->meta_part2), "%s: metadata %s", x->file, meta);
      /* the id column has no metadata */
      struct ArrowSchema *id = field_named(&sc, "id");
      if (id) CHECK(id->metadata == NULL);
      /* import: a writer from this schema writes the same logical type and statistics */
      pqt_string out = {0};
      pqt_writer *w;
      pqt_write_options o;
      pqt_write_options_init(&o);
      pqt_write_schema ws;
      pqt_write_schema_init(&ws);
      ws.arrow = &sc;
      CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
      struct ArrowArray b;
      int batches = 0;
      while (st.get_next(&st, &b) == 0 && b.release) {
        CHECK_OK(pqt_writer_write_batch(w, &b, &e));
        b.release(&b);
        batches++;
      }
      CHECK_OK(pqt_writer_close(w, &e));
      pqt_reader *r2;
      CHECK_OK(pqt_reader_open_buffer(&r2, out.data, out.len, NULL, &e));
      int32_t c1 = pqt_reader_find_column(r, "geometry"), c2 = pqt_reader_find_column(r2, "geometry");
      pqt_schema_info a, b2;
      pqt_schema_info_init(&a);
      pqt_schema_info_init(&b2);
      CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, c1), &a, &e));
      CHECK_OK(pqt_reader_schema_node(r2, pqt_reader_column_node(r2, c2), &b2, &e));
      CHECK_EQ_INT(b2.logical, a.logical);
      if (a.logical == PQT_LOGICAL_GEOGRAPHY)
        CHECK_EQ_INT(b2.edge_algorithm, a.edge_algorithm < 0 ? 0 : a.edge_algorithm);
      if (a.crs && strncmp(a.crs, "projjson:", 9) != 0)
        CHECK_MSG(b2.crs && b2.crs_len == a.crs_len - (strncmp(a.crs, "srid:", 5) ? 0 : 5), "%s: crs %.*s -> %.*s",
                  x->file, (int)a.crs_len, a.crs, (int)b2.crs_len, b2.crs ? b2.crs : "");
      if (a.crs && !strncmp(a.crs, "projjson:", 9)) CHECK(b2.crs && b2.crs[0] == '{'); /* PROJJSON inline */
      /* whole-file boxes equal (one row group written for all) */
      pqt_geo_stats s2;
      pqt_geo_stats_init(&s2);
      CHECK_OK(pqt_reader_chunk_geo_stats(r2, 0, c2, &s2, &e));
      CHECK(s2.present);
      CHECK(batches > 0);
      pqt_reader_close(r2);
      pqt_string_free(&out);
    }
  }
  sc.release(&sc);
  st.release(&st);
  pqt_reader_close(r);
}

static void test_export_import(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  static const expect xs[] = {
      {"crs-projjson.parquet", "\"crs\":{", "\"crs_type\":\"projjson\""},
      {"crs-srid.parquet", "\"crs_type\":\"srid\"", "\"crs\":\"5070\""},
      {"crs-default.parquet", "\"crs\":\"OGC:CRS84\"", "authority_code"},
      {"geography-lines.parquet", "\"edges\":\"spherical\"", "\"crs\":\"OGC:CRS84\""},
      {"geospatial.parquet", "\"crs\":", "}"},
  };
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    export_one(dir, &xs[i], 0);
    export_one(dir, &xs[i], 1);
  }
}

/* Import from a hand-made schema: edges vincenty -> GEOGRAPHY(crs, VINCENTY); bad metadata fails naming the field. */
static void test_import_metadata(void) {
  static const char *const metas[] = {"{\"edges\": \"vincenty\", \"crs\": \"EPSG:4326\"}",
                                      "{\"edges\":\"planar\"}",
                                      "{}",
                                      "{\"edges\": \"wiggly\"}",
                                      "{\"crs\": ",
                                      "[1]"};
  static const int want[] = {PQT_LOGICAL_GEOGRAPHY, PQT_LOGICAL_GEOMETRY, PQT_LOGICAL_GEOMETRY, -1, -1, -1};
  for (int i = 0; i < 6; i++) {
    char md[512];
    size_t p = 0;
    int32_t n = 2, k1 = 20, v1 = 12, k2 = 24, v2 = (int32_t)strlen(metas[i]);
    memcpy(md + p, &n, 4), p += 4;
    memcpy(md + p, &k1, 4), p += 4;
    memcpy(md + p, "ARROW:extension:name", 20), p += 20;
    memcpy(md + p, &v1, 4), p += 4;
    memcpy(md + p, "geoarrow.wkb", 12), p += 12;
    memcpy(md + p, &k2, 4), p += 4;
    memcpy(md + p, "ARROW:extension:metadata", 24), p += 24;
    memcpy(md + p, &v2, 4), p += 4;
    memcpy(md + p, metas[i], (size_t)v2), p += (size_t)v2;
    struct ArrowSchema child = {.format = "z", .name = "shape", .metadata = md, .flags = ARROW_FLAG_NULLABLE};
    struct ArrowSchema *kids[1] = {&child};
    struct ArrowSchema root = {.format = "+s", .name = "", .n_children = 1, .children = kids};
    pqt_string out = {0};
    pqt_writer *w;
    pqt_error e;
    pqt_write_options o;
    pqt_write_options_init(&o);
    pqt_write_schema ws;
    pqt_write_schema_init(&ws);
    ws.arrow = &root;
    pqt_status st = pqt_writer_open_buffer(&w, &out, &ws, &o, &e);
    if (want[i] < 0) {
      CHECK_MSG(st == PQT_EINVAL && strstr(e.message, "shape"), "%s: %d %s", metas[i], st, st ? e.message : "");
      pqt_string_free(&out);
      continue;
    }
    CHECK_OK(st);
    if (st) continue;
    /* one point */
    static const uint8_t pt[21] = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x24, 0x40, 0, 0, 0, 0, 0, 0, 0x34, 0x40};
    int32_t off[2] = {0, 21};
    int16_t def = 1;
    CHECK_OK(pqt_writer_write_column(w, 0, 1, &def, NULL, pt, off, 1, &e));
    CHECK_OK(pqt_writer_close(w, &e));
    pqt_reader *r;
    CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
    pqt_schema_info si;
    pqt_schema_info_init(&si);
    CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, 0), &si, &e));
    CHECK_EQ_INT(si.logical, want[i]);
    if (i == 0) {
      CHECK_EQ_INT(si.edge_algorithm, 1);
      CHECK(si.crs && si.crs_len == 9 && !memcmp(si.crs, "EPSG:4326", 9));
    }
    pqt_geo_stats gs;
    pqt_geo_stats_init(&gs);
    CHECK_OK(pqt_reader_chunk_geo_stats(r, 0, 0, &gs, &e));
    CHECK(gs.has_bbox && gs.xmin == 10 && gs.ymax == 20);
    pqt_reader_close(r);
    pqt_string_free(&out);
  }
}

RUN_TESTS("geoarrow", TEST_CASE(test_export_import), TEST_CASE(test_import_metadata))
