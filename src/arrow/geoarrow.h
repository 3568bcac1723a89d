/*
 * arrow/geoarrow.h: GEOMETRY/GEOGRAPHY <-> the GeoArrow extension type
 * geoarrow.wkb (https://geoarrow.org/extension-types): the field metadata
 * written on export, and read back on import for the writer.
 */
#ifndef PQT_ARROW_GEOARROW_H
#define PQT_ARROW_GEOARROW_H

#include "arrow/export.h"
#include "core/core.h"
#include "meta/schema.h"
#include "parquetry_arrow.h"

/* Attach geoarrow.wkb metadata to the GEOMETRY/GEOGRAPHY leaves of root (as
 * exported by pqt_export_schema(s, selected)); kv: the file's key-value
 * metadata (PROJJSON looked up there for crs "projjson:KEY"). */
pqt_status pqt_geoarrow_annotate(const pqt_schema *s, const uint8_t *selected, const pqt_list_key_value *kv,
                                 struct ArrowSchema *root, pqt_error *err);

/* An Arrow field with ARROW:extension:name "geoarrow.wkb" (binary storage):
 * *is_geo = 1 and *lt the logical type to write: GEOMETRY, or GEOGRAPHY
 * (with its algorithm) when the extension metadata gives "edges" other than
 * "planar"; the crs string (a PROJJSON object as its JSON text) allocated in
 * arena. Bad metadata (not a JSON object, an unknown edges value) is
 * PQT_EINVAL naming the field. *is_geo = 0 for other fields. */
pqt_status pqt_geoarrow_import(const struct ArrowSchema *field, pqt_arena *arena, pqt_logical_type *lt, int *is_geo,
                               pqt_error *err);

/* The metadata JSON's top-level "crs" and "edges" (for fuzzing and the
 * above): JSON text (len bytes) -> the raw value text of each key (a
 * string's unescaped bytes into the buffers), or lengths 0 with *has_* 0.
 * PQT_EINVAL when the text is not one JSON object. */
typedef struct pqt_geoarrow_meta {
  int has_crs, crs_is_string, has_edges;
  pqt_buf crs;   /* the string's content, or the object's JSON text */
  pqt_buf edges; /* the string's content */
} pqt_geoarrow_meta;
pqt_status pqt_geoarrow_meta_parse(const char *json, size_t len, pqt_geoarrow_meta *out, pqt_error *err);

#endif
