/*
 * cli/geo_stats.h: `parquetry geospatial-stats` (cli/geo_stats.c).
 */
#ifndef PQT_CLI_GEO_STATS_H
#define PQT_CLI_GEO_STATS_H

int cmd_geospatial_stats(int argc, char **argv);
extern const char cmd_geospatial_stats_summary[], cmd_geospatial_stats_usage[];

#endif
