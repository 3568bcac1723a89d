/*
 * cli/cli.h: what the command families share: exit statuses, usage and
 * error messages, the progress bar, and the writer options of the commands
 * that write (convert, rewrite, salvage).
 */
#ifndef PQT_CLI_H
#define PQT_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "parquetry.h"

#define EXIT_DATA 1
#define EXIT_USAGE 2

#define WRITER_OPTIONS_HELP                                                              \
  "  --codec NAME[:LEVEL]           uncompressed, snappy (default), gzip, brotli, lz4_raw\n" \
  "                                 (also 'lz4'), zstd; lz4_hadoop: the deprecated LZ4\n"               \
  "  --encoding [COL=]ENCODING      PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,\n" \
  "                                 DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE_DICTIONARY; without\n" \
  "                                 COL= for every column it fits (no dictionary)\n"     \
  "  --row-group-size ROWS|SIZE     rows per row group (default 1048576), or with a unit\n" \
  "                                 (64MiB, 512KiB, 1GiB) compressed bytes (default 128MiB)\n" \
  "  --page-version 1|2             data page version (default 1)\n"                      \
  "  --bloom COL                    write a Bloom filter for COL\n"                        \
  "  --no-write-crc                 write no page checksums\n"                             \
  "  --no-dictionary, --no-statistics, --no-page-index"

/* ---- a progress bar on a terminal, for runs longer than a second ---- */
typedef struct progress {
  bool tty;
  bool shown;
  double start, last;
  int64_t total;
} progress;
void progress_init(progress *p, int64_t total);
void progress_update(progress *p, int64_t done);
void progress_done(progress *p);

/* "parquetry: CMD: msg" with arg, then a hint; returns EXIT_USAGE. */
int usage(const char *cmd, const char *msg, ...) __attribute__((format(printf, 2, 3)));
/* "parquetry: PATH: message"; returns EXIT_DATA. */
int fail(const char *path, const pqt_error *e);
/* -h or --help among the arguments. */
bool want_help(int argc, char **argv);

/* ---- writer options shared by the commands that write ---- */
typedef struct col_spec {
  char *path;
  int32_t encoding; /* -2: not given */
  int bloom;
} col_spec;

typedef struct wopts {
  pqt_write_options o;
  col_spec *specs;
  int n_specs;
  pqt_column_override *ovr;
  const char *schema;
  const char *like;
  const char *format;
  const char *in, *out;
  /* convert only */
  char delimiter, quote;      /* 0: not given */
  const char *null_string;
  bool no_header, latin1, dry_run, force;
} wopts;

enum { CMD_REWRITE, CMD_CONVERT, CMD_SALVAGE };
/* Parse argv into w; returns 0, or an exit status (free_args either way). */
int parse_args(const char *cmd, int argc, char **argv, wopts *w, int kind);
void free_args(wopts *w);
/* The names of --bloom and --encoding COL= that are no column or group of
 * the writer's schema: a usage error naming the first; 0 when all exist. */
int check_option_columns(const char *cmd, const wopts *w, pqt_writer *wr);
/* Rewrite internal numbers in a writer message ("codec 3", "encoding 5",
 * "physical type 6") as the names the user types (LZO, DELTA_BINARY_PACKED, BYTE_ARRAY). */
void name_codes(char *msg, size_t cap);

int cmd_convert(int argc, char **argv);
int cmd_rewrite(int argc, char **argv);
int cmd_salvage(int argc, char **argv);
extern const char cmd_convert_summary[], cmd_convert_usage[];
extern const char cmd_rewrite_summary[], cmd_rewrite_usage[];
extern const char cmd_salvage_summary[], cmd_salvage_usage[];

#endif
