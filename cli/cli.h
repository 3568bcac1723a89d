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

/* ---- option parsing (cli/opt.c): one parser for every command ----
 *
 * Forms taken: `--name VALUE` and `--name=VALUE`; `-c VALUE` and `-cVALUE`
 * (`-n5`); `--` ends the options (what follows is operands, even "-x");
 * -h/--help; an argument that looks like a negative number ("-5") is an
 * operand unless a short option of that digit exists; the reading options
 * of read_option (`--footer-key K`, `--no-crc`, ...; also `--footer-key=K`)
 * unless read_options is set false. A mistyped long option gets "did you
 * mean '--xxx'?". Errors are printed (usage(), exit status EXIT_USAGE).
 *
 *   static const cli_opt opts[] = {
 *       {"columns", 'c', 1, 'c'}, {"json", 0, 0, 'j'}, {"limit", 'n', 1, 'n'}, {0}};
 *   cli_args a;
 *   cli_args_init(&a, "cmd", argc, argv, opts);
 *   for (int id; (id = cli_next(&a)) != CLI_END;) switch (id) {
 *     case CLI_HELP: return cli_help(&a, usage_text, summary_text);   (prints, 0)
 *     case CLI_ERROR: return EXIT_USAGE;                              (printed)
 *     case CLI_OPERAND: (a.arg is FILE or VALUE) break;
 *     case 'c': columns = a.arg; break;
 *     case 'n': if (cli_count("cmd", "-n", a.arg, &limit)) return EXIT_USAGE; break;
 *     case 'j': json = 1; break;
 *   }
 *
 * Commands registered in cli/main.c that parse their arguments some other
 * way get `--name=VALUE` and `-n5` anyway: main splits them (cli_normalise_args)
 * before calling a command whose table entry does not set own_parser. */
typedef struct cli_opt {
  const char *name; /* long name without "--", or NULL */
  char shrt;        /* short letter, or 0 */
  int has_arg;      /* 1: takes a value (in cli_args.arg) */
  int id;           /* what cli_next returns for it (> 0) */
} cli_opt;            /* arrays end with {0} */

enum { CLI_END = -1, CLI_OPERAND = -2, CLI_ERROR = -3, CLI_HELP = -4 };

typedef struct cli_args {
  const char *cmd;
  int argc;
  char **argv;
  const cli_opt *opts;
  int i;             /* next argv index */
  char *arg;         /* the option's value, or the operand */
  const char *opt;   /* the option as typed (for messages) */
  bool operands_only; /* "--" was seen */
  bool read_options;  /* try read_option on unknown long options (default true) */
} cli_args;

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, const cli_opt *opts);
int cli_next(cli_args *a);
/* Parse a count (0 or more) given to option opt: 0, or EXIT_USAGE (printed). */
int cli_count(const char *cmd, const char *opt, const char *text, int64_t *out);
/* "usage: USAGE\n\nSUMMARY\n" on stdout; returns 0 (what --help exits with). */
int cli_help(const char *usage_text, const char *summary);
/* Levenshtein distance, ASCII case-insensitive (99 for words over 64 bytes). */
int cli_edit_distance(const char *s, const char *t);
/* The name among names[0..n) nearest to word when it is close (at most 2
 * edits and less than half the word, or word a prefix of 3+ letters), else NULL. */
const char *cli_closest(const char *word, const char *const *names, int n);
/* argv with `--name=VALUE` split in two and `-n5` as `-n 5` (not after
 * `--`); out has room for 2 * argc + 1 pointers; argv[0] is kept. */
void cli_normalise_args(int argc, char **argv, int *out_argc, char **out);

/* ---- human output (cli/human.c) ----
 * Sizes "12.3 MiB", counts "1,234,567", the output width (80, or the
 * terminal's when stdout is a terminal wider than that: TIOCGWINSZ),
 * colour only on a terminal and never when NO_COLOR is set, and tables
 * whose columns are aligned and fit the width (the widest cells are cut,
 * ending "..."). The progress bar is progress_* above. */
const char *human_size(char *buf, size_t cap, int64_t bytes); /* "671 B", "36.5 KiB", "12.3 MiB" */
const char *human_count(char *buf, size_t cap, int64_t n);    /* "7,300" */
int human_width(void);                                        /* columns of stdout's lines */
bool human_color(void);                                       /* stdout is a terminal, NO_COLOR unset */
/* ANSI sequences, "" when !human_color(): bold and dim, and back to normal. */
const char *human_bold(void);
const char *human_dim(void);
const char *human_reset(void);

typedef struct human_table human_table;
/* Columns named by heads[0..n); right[k] true: numbers, aligned right. */
human_table *table_new(int n, const char *const *heads, const bool *right);
/* One row of n cells (copied); a NULL cell prints as "-". */
void table_row(human_table *t, const char *const *cells);
/* Print to stdout within human_width() columns, then free t. */
void table_print(human_table *t);
/* s[0..n) as a JSON string on stdout (quotes and escapes; bytes >= 0x80 as they are). */
void json_print_string(const char *s, size_t n);

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
