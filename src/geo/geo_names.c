/*
 * geo/geo_names.c: the names of the WKB geometry type codes of the
 * GeospatialStatistics ("Point", "LineString Z", "Polygon ZM", ...).
 */
#include "parquetry_geo.h"

static const char *const NAMES[4][7] = {
    {"Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"},
    {"Point Z", "LineString Z", "Polygon Z", "MultiPoint Z", "MultiLineString Z", "MultiPolygon Z",
     "GeometryCollection Z"},
    {"Point M", "LineString M", "Polygon M", "MultiPoint M", "MultiLineString M", "MultiPolygon M",
     "GeometryCollection M"},
    {"Point ZM", "LineString ZM", "Polygon ZM", "MultiPoint ZM", "MultiLineString ZM", "MultiPolygon ZM",
     "GeometryCollection ZM"},
};

PQT_API const char *pqt_geo_type_code_name(int32_t code) {
  if (code < 1 || code > 3007) return NULL;
  int32_t dims = code / 1000, type = code % 1000;
  if (type < 1 || type > 7) return NULL;
  return NAMES[dims][type - 1];
}
