/*
 * test_geo_column_index: the ColumnIndex policy for GEOMETRY/GEOGRAPHY
 * (docs/geospatial.md, "Page index"). The sort order of these types is
 * undefined (parquet.thrift's ColumnOrder, seed 001), and a ColumnIndex's
 * min_values/max_values are required and "determined by the ColumnOrder",
 * so parquetry writes no ColumnIndex for them (an OffsetIndex only) and no
 * min/max Statistics. On read, a non-compliant file's byte-order min/max
 * for such a column (chunk Statistics and ColumnIndex) is never used:
 *   - a plain BINARY column of the same WKB values, whose (deliberately
 *     wrong) bounds say "every value is X'00'", has row groups pruned by
 *     them (the test can see bounds being used);
 *   - the same file with the column annotated GEOMETRY (footer re-encoded)
 *     keeps its ColumnIndex and bounds, but the metadata API calls them
 *     unusable, comparisons are refused when binding, and ST_Intersects
 *     prunes by the geospatial box only, with exact counts.
 */
#include <math.h>

#include "core/core.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"
#include "thrift/parquet_types.h"

#define N_RG  3
#define RG_N  6
#define COL_G 1

/* Row group k, row i: id k*6+i; g POINT (k*100+i i), null for i == 5. */
static void write_file(pqt_string *out, const char *g_type) {
  char schema[128];
  snprintf(schema, sizeof schema, "message m { required int32 id; optional binary g%s; }", g_type);
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 2; /* three pages per chunk */
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  for (int k = 0; k < N_RG; k++) {
    int32_t ids[RG_N], off[RG_N + 1] = {0};
    int16_t def[RG_N];
    uint8_t data[RG_N * 32];
    int nv = 0;
    for (int i = 0; i < RG_N; i++) {
      ids[i] = k * RG_N + i;
      def[i] = i != RG_N - 1;
      if (!def[i]) continue;
      char wkt[64];
      snprintf(wkt, sizeof wkt, "POINT (%d %d)", k * 100 + i, i);
      pqt_wkb_buffer b = {0};
      CHECK_OK(pqt_wkt_to_wkb(wkt, strlen(wkt), NULL, &b, &e));
      memcpy(data + off[nv], b.data, b.len);
      off[nv + 1] = off[nv] + (int32_t)b.len;
      nv++;
      pqt_wkb_buffer_free(&b);
    }
    CHECK_OK(pqt_writer_write_column(w, 0, RG_N, NULL, NULL, ids, NULL, RG_N, &e));
    CHECK_OK(pqt_writer_write_column(w, COL_G, RG_N, def, NULL, data, off, nv, &e));
    CHECK_OK(pqt_writer_flush_row_group(w, &e));
  }
  CHECK_OK(pqt_writer_close(w, &e));
}

/* Re-encode the footer: every chunk of g says min = max = X'00' (old and
 * new fields); with geometry, g is annotated GEOMETRY and each chunk gets
 * the geospatial box of its points. The ColumnIndex stays as written. */
static void patch_footer(pqt_string *f, int geometry) {
  CHECK(f->len > 12);
  uint32_t flen = pqt_load_u32le((const uint8_t *)f->data + f->len - 8);
  CHECK(flen + 8 <= f->len);
  size_t start = f->len - 8 - flen;
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_file_metadata md;
  pqt_error e;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, (const uint8_t *)f->data + start, flen, NULL, &arena, &md, &e));
  static const uint8_t zero[1] = {0};
  if (geometry) {
    CHECK_EQ_INT(md.schema.n, 3);
    pqt_schema_element *se = &md.schema.items[2];
    se->logical_type.isset = 1u << PQT_LT_GEOMETRY;
    se->logical_type.geometry.isset = 0;
    PQT_SET_FIELD(se, schema_element, logical_type);
    se->isset &= ~PQT_FIELD_BIT(schema_element, converted_type);
  }
  for (int32_t k = 0; k < md.row_groups.n; k++) {
    pqt_column_metadata *cm = &md.row_groups.items[k].columns.items[COL_G].meta_data;
    pqt_statistics *s = &cm->statistics;
    CHECK(PQT_HAS_FIELD(s, statistics, min_value) && PQT_HAS_FIELD(s, statistics, max_value));
    s->min_value = s->max_value = s->min = s->max = (pqt_bytes){zero, 1};
    s->isset |= PQT_FIELD_MASK(statistics, min_value, max_value, min, max);
    if (geometry) {
      pqt_geospatial_statistics *g = &cm->geospatial_statistics;
      memset(g, 0, sizeof *g);
      g->bbox.xmin = k * 100;
      g->bbox.xmax = k * 100 + RG_N - 2;
      g->bbox.ymin = 0;
      g->bbox.ymax = RG_N - 2;
      g->bbox.isset = PQT_FIELD_MASK(bounding_box, xmin, xmax, ymin, ymax);
      int32_t *types = pqt_arena_array(&arena, 1, sizeof *types);
      CHECK(types != NULL);
      if (types) types[0] = 1;
      g->geospatial_types.items = types;
      g->geospatial_types.n = 1;
      g->isset = PQT_FIELD_MASK(geospatial_statistics, bbox, geospatial_types);
      PQT_SET_FIELD(cm, column_metadata, geospatial_statistics);
    }
  }
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_buf_append(&b, f->data, start, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &md, &b, &e));
  uint8_t tail[8];
  pqt_store_u32le(tail, (uint32_t)(b.len - start));
  memcpy(tail + 4, "PAR1", 4);
  pqt_buf_append(&b, tail, 8, NULL);
  CHECK_OK(pqt_buf_status(&b, &e));
  pqt_string_free(f);
  CHECK_OK(pqt_buf_to_string(&b, f, &e));
  pqt_arena_reset(&arena);
}

/* Rows of the filter text, and the scan's statistics; -1 when binding fails (*code set). */
static int64_t count(pqt_reader *r, const char *text, pqt_scan_stats *st, pqt_status *code) {
  pqt_expr *x = NULL;
  pqt_error e;
  CHECK_OK(pqt_expr_parse(text, strlen(text), &x, &e));
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.filter = x;
  memset(st, 0, sizeof *st);
  so.stats = st;
  int64_t n = -1;
  pqt_status s = pqt_reader_count(r, &so, &n, &e);
  if (code) *code = s;
  pqt_expr_free(x);
  return s == PQT_OK ? n : -1;
}

/* The writer: no ColumnIndex and no min/max for GEOMETRY and GEOGRAPHY
 * (an OffsetIndex, null counts), a ColumnIndex for the same bytes as BINARY. */
static void test_writer_policy(void) {
  static const char *const types[] = {" (GEOMETRY)", " (GEOGRAPHY)", ""};
  for (int t = 0; t < 3; t++) {
    pqt_string f = {0};
    write_file(&f, types[t]);
    pqt_reader *r;
    pqt_error e;
    CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e));
    for (int32_t k = 0; k < N_RG; k++) {
      pqt_page_index pi;
      pqt_page_index_init(&pi);
      CHECK_OK(pqt_reader_page_index(r, k, COL_G, &pi, &e));
      CHECK_MSG(pi.has_column_index == (t == 2), "type%s rg %d: has_column_index %d", types[t], k, pi.has_column_index);
      CHECK_MSG(pi.has_offset_index && pi.n_locations == 3, "type%s rg %d: offset index", types[t], k);
      pqt_page_index_free(&pi);
      pqt_chunk_statistics cs;
      pqt_chunk_statistics_init(&cs);
      CHECK_OK(pqt_reader_chunk_statistics(r, k, COL_G, &cs, &e));
      CHECK(cs.present && cs.has_null_count && cs.null_count == 1);
      CHECK_MSG((cs.min.kind != PQT_VALUE_NONE) == (t == 2), "type%s: min %s", types[t],
                cs.min.kind != PQT_VALUE_NONE ? "written" : "absent");
      pqt_geo_stats gs;
      pqt_geo_stats_init(&gs);
      CHECK_OK(pqt_reader_chunk_geo_stats(r, k, COL_G, &gs, &e));
      CHECK_EQ_INT(gs.present, t != 2);
    }
    pqt_reader_close(r);
    pqt_string_free(&f);
  }
}

static void test_reader_ignores_byte_bounds(void) {
  pqt_scan_stats st;
  pqt_status code;
  pqt_error e;
  /* BINARY with bounds claiming X'00': they are used (all three row groups pruned) */
  pqt_string plain = {0};
  write_file(&plain, "");
  patch_footer(&plain, 0);
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, plain.data, plain.len, NULL, &e));
  CHECK_EQ_INT(count(r, "g > X'00'", &st, &code), 0);
  CHECK_EQ_INT(st.row_groups_pruned_stats, N_RG);
  pqt_reader_close(r);
  pqt_string_free(&plain);

  /* the same bytes as GEOMETRY: the bounds and the ColumnIndex are there but never used */
  pqt_string f = {0};
  write_file(&f, "");
  patch_footer(&f, 1);
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e));
  pqt_schema_info si;
  pqt_schema_info_init(&si);
  CHECK_OK(pqt_reader_schema_node(r, pqt_reader_column_node(r, COL_G), &si, &e));
  CHECK_EQ_INT(si.logical, PQT_LOGICAL_GEOMETRY);
  for (int32_t k = 0; k < N_RG; k++) {
    pqt_chunk_statistics cs;
    pqt_chunk_statistics_init(&cs);
    CHECK_OK(pqt_reader_chunk_statistics(r, k, COL_G, &cs, &e));
    CHECK_MSG(cs.min.kind != PQT_VALUE_NONE && !cs.usable_min && !cs.usable_max,
              "rg %d: min/max of a GEOMETRY chunk must be unusable (usable %d %d)", k, cs.usable_min, cs.usable_max);
    pqt_page_index pi;
    pqt_page_index_init(&pi);
    CHECK_OK(pqt_reader_page_index(r, k, COL_G, &pi, &e));
    CHECK_MSG(pi.has_column_index && pi.n_pages == 3 && !pi.usable_bounds,
              "rg %d: the non-compliant ColumnIndex is read but its bounds are unusable", k);
    pqt_page_index_free(&pi);
  }
  /* comparisons, which bounds could decide, are refused */
  CHECK_EQ_INT(count(r, "g > X'00'", &st, &code), -1);
  CHECK_EQ_INT(code, PQT_EINVAL);
  CHECK_EQ_INT(count(r, "g = X'00'", &st, &code), -1);
  CHECK_EQ_INT(code, PQT_EINVAL);
  /* ST_Intersects: pruned by the geospatial boxes only, every matching row found */
  CHECK_EQ_INT(count(r, "ST_Intersects(g, BOX(100, 0, 104, 4))", &st, &code), RG_N - 1);
  CHECK_EQ_INT(st.row_groups_pruned_stats, N_RG - 1);
  CHECK_EQ_INT(st.row_groups_read, 1);
  CHECK_EQ_INT(count(r, "ST_Intersects(g, 'POINT (201 1)')", &st, &code), 1);
  CHECK_EQ_INT(count(r, "ST_Intersects(g, BOX(-1000, -1000, 1000, 1000))", &st, &code), N_RG * (RG_N - 1));
  CHECK_EQ_INT(st.row_groups_pruned_stats, 0);
  /* null counts are still sound */
  CHECK_EQ_INT(count(r, "g IS NULL", &st, &code), N_RG);
  CHECK_EQ_INT(count(r, "g IS NOT NULL", &st, &code), N_RG * (RG_N - 1));
  pqt_reader_close(r);
  pqt_string_free(&f);
}

RUN_TESTS("geo_column_index", TEST_CASE(test_writer_policy), TEST_CASE(test_reader_ignores_byte_bounds))
