/* libFuzzer target for src/geo: the input as WKB is validated; what
 * validates is printed as WKT, the WKT parsed back to WKB, printed again
 * (the two texts must be equal) and both WKB values added to bounding-box
 * accumulators (planar and geography, merged); a failure must be a corrupt
 * status with a message. The input is also parsed as WKT text: what parses
 * must validate as WKB and print to a text that reads back to the same
 * text. */
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_geo.h"

static void check_box(const uint8_t *p, size_t n) {
  pqt_geo_bbox a, b;
  pqt_error e;
  pqt_geo_bbox_init(&a, PQT_GEO_EDGES_PLANAR);
  pqt_geo_bbox_init(&b, PQT_GEO_EDGES_GEOGRAPHY);
  pqt_status sa = pqt_geo_bbox_add_wkb(&a, p, n, &e);
  pqt_status sb = pqt_geo_bbox_add_wkb(&b, p, n, &e);
  if (sa != sb) abort();
  pqt_geo_bbox el; /* ellipsoidal edges: the same validity */
  pqt_geo_bbox_init(&el, PQT_GEO_EDGES_ELLIPSOIDAL);
  if (pqt_geo_bbox_add_wkb(&el, p, n, &e) != sa) abort();
  pqt_geo_bbox_result(&el);
  pqt_geo_bbox c;
  pqt_geo_bbox_init(&c, PQT_GEO_EDGES_GEOGRAPHY);
  if (pqt_geo_bbox_merge(&c, &b, &e) != PQT_OK) abort();
  if (pqt_geo_bbox_merge(&c, &b, &e) != PQT_OK) abort();
  pqt_geo_bbox_result(&a);
  pqt_geo_bbox_result(&b);
  pqt_geo_bbox_result(&c);
  if (a.has_xy != b.has_xy || b.has_xy != c.has_xy || a.n_types != c.n_types) abort();
  if (a.has_xy) {
    if (!(a.xmin <= a.xmax) || !(a.ymin <= a.ymax)) abort(); /* never NaN, planar never wraps */
    if (!pqt_geo_bbox_intersects(&a, &a) || !pqt_geo_bbox_intersects(&b, &c)) abort();
  }
}

/* WKB that validated: WKT -> WKB -> WKT is a fixed point. */
static void round_trip(const uint8_t *p, size_t n) {
  pqt_error e;
  pqt_string t1 = {0}, t2 = {0};
  if (pqt_wkb_to_wkt(p, n, NULL, &t1, &e) != PQT_OK) abort();
  pqt_wkb_buffer w;
  if (pqt_wkt_to_wkb(t1.data, t1.len, NULL, &w, &e) != PQT_OK) abort();
  uint32_t c1 = 0, c2 = 0;
  if (pqt_wkb_validate(p, n, &c1, &e) != PQT_OK || pqt_wkb_validate(w.data, w.len, &c2, &e) != PQT_OK) abort();
  if (c1 != c2) abort();
  if (pqt_wkb_to_wkt(w.data, w.len, NULL, &t2, &e) != PQT_OK) abort();
  if (t1.len != t2.len || memcmp(t1.data, t2.data, t1.len) != 0) abort();
  check_box(w.data, w.len);
  pqt_wkb_buffer_free(&w);
  pqt_string_free(&t1);
  pqt_string_free(&t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_error e;
  pqt_status st = pqt_wkb_validate(data, size, NULL, &e);
  if (st == PQT_OK) {
    round_trip(data, size);
  } else if (st != PQT_ECORRUPT || !e.message[0]) {
    abort();
  }
  check_box(data, size);
  pqt_wkb_buffer w;
  st = pqt_wkt_to_wkb((const char *)data, size, NULL, &w, &e);
  if (st == PQT_OK) {
    if (pqt_wkb_validate(w.data, w.len, NULL, &e) != PQT_OK) abort();
    round_trip(w.data, w.len);
    pqt_wkb_buffer_free(&w);
  } else if (st != PQT_EINVAL || !e.message[0] || w.data) {
    abort();
  }
  return 0;
}
