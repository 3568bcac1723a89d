/*
 * cli/geo_stats.h: `parquetry geospatial-stats` (cli/geo_stats.c).
 */
#ifndef PQT_CLI_GEO_STATS_H
#define PQT_CLI_GEO_STATS_H

int cmd_geospatial_stats(int argc, char **argv);
extern const char cmd_geospatial_stats_summary[], cmd_geospatial_stats_usage[];

#include "parquetry.h"
#include "parquetry_filter.h"

/* --bbox xmin,ymin,xmax,ymax: 0, or a usage error's exit status. */
int geo_bbox_parse(const char *cmd, const char *text, double box[4]);
/* AND *filter (may be NULL; taken) with ST_Intersects(first geo column, BOX(box)):
 * 0, or an exit status (no geo column: usage error). */
int geo_bbox_filter(const char *cmd, pqt_reader *r, const double box[4], pqt_expr **filter);

#endif
