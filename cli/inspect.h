/*
 * cli/inspect.h: the commands built on the metadata API (parquetry_meta.h):
 * dictionary, column-index, bloom-filter and stats (cli/inspect.c).
 */
#ifndef PQT_CLI_INSPECT_H
#define PQT_CLI_INSPECT_H

int cmd_dictionary(int argc, char **argv);
int cmd_column_index(int argc, char **argv);
int cmd_bloom_filter(int argc, char **argv);
int cmd_stats(int argc, char **argv);
extern const char cmd_dictionary_summary[], cmd_dictionary_usage[];
extern const char cmd_column_index_summary[], cmd_column_index_usage[];
extern const char cmd_bloom_filter_summary[], cmd_bloom_filter_usage[];
extern const char cmd_stats_summary[], cmd_stats_usage[];

#include "parquetry.h"
/* The shared reading options: read_option / read_options in cli.h. */

#endif
