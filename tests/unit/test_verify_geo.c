/*
 * test_verify_geo: `verify` recomputes each GEOMETRY/GEOGRAPHY chunk's box
 * and type list. A file written by parquetry verifies clean; the same file
 * with its footer patched (a box bound moved inwards, the type code
 * changed) reports each mismatch,
 * naming row group and column; a box moved outwards (merely loose) is no
 * problem.
 */
#include <math.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_geo.h"
#include "parquetry_meta.h"

typedef struct sink {
  char text[8192];
  size_t len;
} sink;

static pqt_status collect(void *ctx, const char *data, size_t len) {
  sink *s = ctx;
  size_t n = len < sizeof s->text - 1 - s->len ? len : sizeof s->text - 1 - s->len;
  memcpy(s->text + s->len, data, n);
  s->len += n;
  s->text[s->len] = 0;
  return PQT_OK;
}

/* LINESTRINGs with xmin 12345.5 (a bit pattern found once in the footer). */
static void write_file(pqt_string *out, const char *type, int empties) {
  char schema[128];
  snprintf(schema, sizeof schema, "message m { optional binary g (%s); }", type);
  pqt_writer *w;
  pqt_error e;
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  CHECK_OK(pqt_writer_open_buffer(&w, out, &ws, &o, &e));
  const char *wkts[] = {"LINESTRING (12345.5 10, 12350 20)", "LINESTRING (12346 11, 12347 30.25)"};
  const char *empty[] = {"LINESTRING EMPTY", "LINESTRING EMPTY"};
  uint8_t data[256];
  int32_t off[3] = {0};
  for (int i = 0; i < 2; i++) {
    const char *t = empties ? empty[i] : wkts[i];
    pqt_wkb_buffer b = {0};
    CHECK_OK(pqt_wkt_to_wkb(t, strlen(t), NULL, &b, &e));
    memcpy(data + off[i], b.data, b.len);
    off[i + 1] = off[i] + (int32_t)b.len;
    pqt_wkb_buffer_free(&b);
  }
  int16_t def[2] = {1, 1};
  CHECK_OK(pqt_writer_write_column(w, 0, 2, def, NULL, data, off, 2, &e));
  CHECK_OK(pqt_writer_close(w, &e));
}

static int64_t verify(const pqt_string *f, sink *s) {
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, f->data, f->len, NULL, &e));
  int64_t n = -1;
  s->len = 0;
  s->text[0] = 0;
  CHECK_OK(pqt_reader_verify(r, collect, s, &n, &e));
  pqt_reader_close(r);
  return n;
}

/* The footer position of the 8 bytes of d (little-endian double), once. */
static size_t find_double(const pqt_string *f, double d) {
  uint8_t pat[8];
  memcpy(pat, &d, 8);
  size_t at = 0;
  int found = 0;
  for (size_t i = 0; i + 8 <= f->len; i++)
    if (!memcmp(f->data + i, pat, 8)) at = i, found++;
  CHECK_EQ_INT(found, 1);
  return at;
}

static void put_double(pqt_string *f, size_t at, double d) { memcpy(f->data + at, &d, 8); }

static void test_verify_geo(void) {
  static const char *const types[] = {"GEOMETRY", "GEOGRAPHY"};
  for (int t = 0; t < 2; t++) {
    pqt_string f = {0};
    sink s;
    write_file(&f, types[t], 0);
    CHECK_MSG(verify(&f, &s) == 0, "%s clean: %s", types[t], s.text);
    /* xmin moved inwards: the first value is outside */
    size_t at = find_double(&f, 12345.5);
    put_double(&f, at, 12345.75);
    CHECK_EQ_INT(verify(&f, &s), 1);
    CHECK_MSG(strstr(s.text, "does not hold 1 value(s), the first (value 0)") && strstr(s.text, "row group 0") &&
                  strstr(s.text, "g"),
              "%s", s.text);
    /* moved outwards: loose but sound */
    put_double(&f, at, 12000.0);
    CHECK_MSG(verify(&f, &s) == 0, "%s loose box: %s", types[t], s.text);
    put_double(&f, at, 12345.5);
    /* the type list: LINESTRING (2, zigzag 4) -> POLYGON (3, zigzag 6): the list header
     * 0x19 (field 2, list) 0x15 (one i32) follows the box struct's end */
    size_t k = at, hits = 0;
    for (; k + 4 <= f.len; k++)
      if (f.data[k] == 0x00 && (uint8_t)f.data[k + 1] == 0x19 && f.data[k + 2] == 0x15 && f.data[k + 3] == 0x04) {
        f.data[k + 3] = 0x06;
        hits++;
        break;
      }
    CHECK_EQ_INT(hits, 1);
    CHECK_EQ_INT(verify(&f, &s), 1);
    CHECK_MSG(strstr(s.text, "geospatial types [3], the values have [2]"), "%s", s.text);
    pqt_string_free(&f);
  }
}

/* A chunk whose values are all empty gets no box, only its type, and verifies clean. */
static void test_box_over_empties(void) {
  pqt_string a = {0}, b = {0};
  write_file(&a, "GEOMETRY", 0);
  write_file(&b, "GEOMETRY", 1);
  sink s;
  CHECK_EQ_INT(verify(&b, &s), 0);
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, b.data, b.len, NULL, &e));
  pqt_geo_stats gs;
  pqt_geo_stats_init(&gs);
  CHECK_OK(pqt_reader_chunk_geo_stats(r, 0, 0, &gs, &e));
  CHECK(gs.present && !gs.has_bbox && gs.n_geospatial_types == 1 && gs.geospatial_types[0] == 2);
  pqt_reader_close(r);
  pqt_string_free(&a);
  pqt_string_free(&b);
}

RUN_TESTS("verify_geo", TEST_CASE(test_verify_geo), TEST_CASE(test_box_over_empties))
