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

#define EXIT_DATA  1
#define EXIT_USAGE 2

#define WRITER_OPTIONS_HELP                                                                         \
  "  --codec NAME[:LEVEL]           uncompressed, snappy (default), gzip, brotli, lz4_raw\n"        \
  "                                 (also 'lz4'), zstd; lz4_hadoop: the deprecated LZ4\n"           \
  "  --encoding [COL=]ENCODING      PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,\n"    \
  "                                 DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE_DICTIONARY; without\n" \
  "                                 COL= for every column it fits (no dictionary)\n"                \
  "  --row-group-size ROWS|SIZE     rows per row group (default 1048576), or with a unit\n"         \
  "                                 (64MiB, 512KiB, 1GiB) compressed bytes (default 128MiB)\n"      \
  "  --page-version 1|2             data page version (default 1)\n"                                \
  "  --bloom COL                    write a Bloom filter for COL\n"                                 \
  "  --no-write-crc                 write no page checksums\n"                                      \
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
  char delimiter, quote; /* 0: not given */
  const char *null_string;
  bool no_header, latin1, dry_run, force;
  const char *variant[16]; /* --variant COL: JSON text stored as VARIANT */
  int n_variant;
  int variant_depth; /* --variant-shred-depth (-1: not given) */
  /* merge only: -o OUT sets `out`, every other argument is an input */
  const char **inputs;
  int n_inputs;
} wopts;

enum { CMD_REWRITE, CMD_CONVERT, CMD_SALVAGE, CMD_MERGE };
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

/* ---- reading options (cli/read_options.c; branch cli-read) ----
 * Every command that reads a Parquet file takes these. Exit status 3: the
 * command finished under --skip-corrupt but data were lost (rows left out,
 * or damaged fields read as null); what it could read was written. */
#define EXIT_ROWS_LOST 3

#define READ_OPTIONS_HELP                                                          \
  "\nReading options:\n"                                                           \
  "  --footer-key KEY       key of an encrypted footer (text or hex:...; 16, 24\n" \
  "                         or 32 bytes)\n"                                        \
  "  --column-key PATH:KEY  key of an encrypted column (repeatable)\n"             \
  "  --aad-prefix TEXT      AAD prefix of a file that does not store it\n"         \
  "  --no-crc               do not verify page checksums\n"                        \
  "  --no-utf8-check        do not validate STRING columns as UTF-8\n"             \
  "  --skip-corrupt         go on past corrupt data (reported on stderr): a bad\n" \
  "                         page of a top-level optional column reads as nulls,\n" \
  "                         else its rows are left out; exit status 3 when\n"      \
  "                         anything was lost\n"                                   \
  "  --max-page-bytes N     largest uncompressed page (default 1G; K, M, G)\n"     \
  "  --max-page-expansion N a page may claim N times its compressed size (64)\n"   \
  "  --page-expansion-floor N  ... plus N bytes (default 1M)\n"                    \
  "  --max-memory N         ceiling on decoded data in memory (default: none)\n"   \
  "  --max-footer-bytes N   largest footer accepted (default 256M)"

/* Parse one reading option at argv[*i]: 1 consumed (with its value), 0 not
 * a reading option, 2 usage error (printed). */
int read_option(const char *cmd, int argc, char **argv, int *i);
/* The options given so far (defaults otherwise). */
const pqt_read_options *read_options(void);
/* Open path with the reading options; 0, or an exit status (printed). It
 * also names the file in --skip-corrupt reports and counts its rows. */
int read_open(const char *path, pqt_reader **r);
/* For readers opened otherwise: name the file, count rows read. */
void read_begin(const char *path);
void read_add_rows(int64_t rows);
/* "parquetry: PATH: message", plus the option that would allow what a
 * limit refused (PQT_ELIMIT); return EXIT_DATA. */
int read_fail(const char *path, const pqt_error *e);
int read_fail_text(const char *path, int code, const char *msg);
/* A failed ArrowArrayStream get_next (errno-style code, last error). */
int read_stream_fail(const char *path, int errno_code, const char *msg);
/* At the end of a command that read: rc, or EXIT_ROWS_LOST (with "N of M
 * rows lost" on stderr) when rc is 0 and --skip-corrupt skipped anything. */
int read_finish(const char *path, int rc);
/* ---- end of reading options ---- */

#endif
