/*
 * scan/prune_geo.c: skipping row groups for ST_Intersects by the column
 * chunk's GeospatialStatistics box (X and Y; a GEOGRAPHY box may wrap the
 * antimeridian, xmin > xmax). A chunk without statistics or without a box
 * is kept (no box can mean "all values empty" or "not computed": only the
 * first would allow a skip). Pages are not skipped: the ColumnIndex of
 * parquet-format has no geospatial box (only min/max, which the spec
 * forbids for these types), so no page-level box exists to prune with.
 */
#include <math.h>

#include "file/reader_internal.h"
#include "parquetry_geo.h"
#include "scan/filter.h"

bool pqt_geo_prune_skip(const pqt_reader *r, int32_t g, const pqt_bound *b) {
  if (g < 0 || g >= r->md.row_groups.n || b->leaf < 0) return false;
  const pqt_row_group *rg = &r->md.row_groups.items[g];
  if (b->leaf >= rg->columns.n) return false;
  const pqt_column_metadata *cm = &rg->columns.items[b->leaf].meta_data;
  if (!PQT_HAS_FIELD(&rg->columns.items[b->leaf], column_chunk, meta_data) ||
      !PQT_HAS_FIELD(cm, column_metadata, geospatial_statistics))
    return false;
  const pqt_geospatial_statistics *gs = &cm->geospatial_statistics;
  if (!PQT_HAS_FIELD(gs, geospatial_statistics, bbox)) return false;
  const pqt_bounding_box *x = &gs->bbox;
  if (isnan(x->xmin) || isnan(x->xmax) || isnan(x->ymin) || isnan(x->ymax) || x->ymin > x->ymax) return false;
  /* a wrapped X range is only meaningful for GEOGRAPHY; for GEOMETRY it is a bad box: keep */
  if (x->xmin > x->xmax && b->op == PQT_GEO_EDGES_PLANAR) return false;
  pqt_geo_bbox c, q;
  pqt_geo_bbox_init(&c, (pqt_geo_edges)b->op);
  pqt_geo_bbox_init(&q, (pqt_geo_edges)b->op);
  c.has_xy = q.has_xy = 1;
  c.xmin = x->xmin, c.xmax = x->xmax, c.ymin = x->ymin, c.ymax = x->ymax;
  q.xmin = b->lits[0].d, q.ymin = b->lits[1].d, q.xmax = b->lits[2].d, q.ymax = b->lits[3].d;
  return !pqt_geo_bbox_intersects(&c, &q);
}
