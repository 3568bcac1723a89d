/* libFuzzer target for src/arrow/geoarrow.c: the input is the
 * ARROW:extension:metadata JSON of a geoarrow.wkb field. The scanner must
 * accept or refuse it with a message, never read past the input; what it
 * accepts is also put through the writer's import (a schema with one
 * geoarrow.wkb field), which must give GEOMETRY or GEOGRAPHY or a clean
 * error. */
#include <stdlib.h>
#include <string.h>

#include "arrow/geoarrow.h"
#include "parquetry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  pqt_geoarrow_meta m;
  pqt_buf_init(&m.crs, pqt_default_allocator());
  pqt_buf_init(&m.edges, pqt_default_allocator());
  pqt_error e;
  /* copy so that a read past the end is caught */
  char *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  if (size) memcpy(copy, data, size);
  pqt_status st = pqt_geoarrow_meta_parse(copy, size, &m, &e);
  if (st != PQT_OK && !memchr(e.message, 0, sizeof e.message)) abort();
  pqt_buf_free(&m.crs);
  pqt_buf_free(&m.edges);
  /* the writer's import */
  size_t cap = size + 80;
  char *md = malloc(cap);
  if (!md) {
    free(copy);
    return 0;
  }
  size_t p = 0;
  int32_t n = 2, k1 = 20, v1 = 12, k2 = 24, v2 = (int32_t)size;
  memcpy(md + p, &n, 4), p += 4;
  memcpy(md + p, &k1, 4), p += 4;
  memcpy(md + p, "ARROW:extension:name", 20), p += 20;
  memcpy(md + p, &v1, 4), p += 4;
  memcpy(md + p, "geoarrow.wkb", 12), p += 12;
  memcpy(md + p, &k2, 4), p += 4;
  memcpy(md + p, "ARROW:extension:metadata", 24), p += 24;
  memcpy(md + p, &v2, 4), p += 4;
  if (size) memcpy(md + p, data, size);
  struct ArrowSchema field;
  memset(&field, 0, sizeof field);
  field.format = "z";
  field.name = "g";
  field.metadata = md;
  pqt_arena arena;
  pqt_arena_init(&arena, pqt_default_allocator());
  pqt_logical_type lt;
  int geo = 0;
  st = pqt_geoarrow_import(&field, &arena, &lt, &geo, &e);
  if (st == PQT_OK && !geo) abort();
  if (st == PQT_OK) {
    int w = pqt_union_which(lt.isset);
    if (w != PQT_LT_GEOMETRY && w != PQT_LT_GEOGRAPHY) abort();
  }
  pqt_arena_reset(&arena);
  free(md);
  free(copy);
  return 0;
}
