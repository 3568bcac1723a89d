/*
 * cli/inspect2.h: the inspection commands of cli/schema.c (schema),
 * cli/footer.c (footer), cli/layout.c (layout, pages) and
 * cli/size_stats.c (size-stats).
 */
#ifndef PQT_CLI_INSPECT2_H
#define PQT_CLI_INSPECT2_H

int cmd_schema(int argc, char **argv);
int cmd_footer(int argc, char **argv);
int cmd_layout(int argc, char **argv);
int cmd_pages(int argc, char **argv);
int cmd_size_stats(int argc, char **argv);
extern const char cmd_schema_summary[], cmd_schema_usage[];
extern const char cmd_footer_summary[], cmd_footer_usage[];
extern const char cmd_layout_summary[], cmd_layout_usage[];
extern const char cmd_pages_summary[], cmd_pages_usage[];
extern const char cmd_size_stats_summary[], cmd_size_stats_usage[];

#endif
