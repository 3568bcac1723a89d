/*
 * cli/cli.h: what the command families share: exit statuses, usage and
 * error messages, the progress bar, and the writer options of the commands
 * that write (convert, rewrite, salvage).
 */
#ifndef PQT_CLI_H
#define PQT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parquetry.h"
#include "parquetry_keytools.h"

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
  "  --page-size SIZE               target bytes per data page (default 1MiB; K, M units):\n"       \
  "                                 smaller pages prune finer, larger ones compress better\n"     \
  "  --page-rows N                  most rows per data page (default 20000)\n"                     \
  "  --bloom COL                    write a Bloom filter for COL\n"                                 \
  "  --no-write-crc                 write no page checksums\n"                                      \
  "  --column-order total|type      FLOAT/DOUBLE/FLOAT16 statistics in IEEE 754 total order\n"      \
  "                                 (IEEE_754_TOTAL_ORDER) or TYPE_ORDER (default: old readers)\n"  \
  "  --int96-stats                  INT96 min/max in INT96_TIMESTAMP_ORDER (default: none)\n"       \
  "  --no-dictionary, --no-statistics, --no-page-index\n"                                           \
  "  --encrypt-footer KEY           encrypt the file (Parquet Modular Encryption); KEY as\n"       \
  "                                 text or hex:..., 16, 24 or 32 bytes; alone: every column\n"    \
  "                                 with the footer key\n"                                         \
  "  --encrypt-column PATH:KEY      encrypt PATH (leaf or group) with its own key, PATH: with\n"   \
  "                                 the footer key (repeatable); columns not named stay plain\n"   \
  "  --encrypt-plaintext-footer     leave the footer readable (signed with the footer key)\n"      \
  "  --encrypt-algorithm ALG        AES_GCM_V1 (default) or AES_GCM_CTR_V1\n"                      \
  "  --encrypt-aad-prefix TEXT      bind the file to TEXT (its identity: a path, a table name)\n"  \
  "  --encrypt-no-store-aad-prefix  do not store the prefix: readers must give --aad-prefix\n"     \
  "  --encrypt-key-metadata [PATH:]TEXT  key metadata (a key id) stored with the footer key\n"   \
  "                                 or with PATH's key, for readers' key retrievers\n"              \
  "  --encrypt-kms-footer MASTER_ID  key tools (parquet-java / Arrow): a random footer key,\n"   \
  "                                 wrapped with master key MASTER_ID; alone: every column\n"    \
  "                                 with it\n"                                                     \
  "  --encrypt-kms-column PATH:MASTER_ID  PATH with a random key wrapped with MASTER_ID\n"      \
  "                                 (repeatable); columns not named stay plain\n"                 \
  "  --kms-key ID:BASE64            a master key of the test-only in-memory KMS (repeatable)\n" \
  "  --encrypt-kms-single-wrapping  the KMS wraps the data keys (default: double wrapping,\n"  \
  "                                 data keys wrapped by key encryption keys)\n"                 \
  "  --encrypt-external-key-material  key material in _KEY_MATERIAL_FOR_<output>.json beside\n" \
  "                                 the output (default: in the file's key_metadata)\n"           \
  "  --encrypt-kms-key-bytes 16|24|32  length of the generated data keys (default 16)\n"         \
  "  -j, --threads N                threads encoding and compressing columns (default 0: one\n"  \
  "                                 per core; 1: this thread only); the file is the same"

/* ---- a progress bar on a terminal, for runs longer than a second ----
 * (cli/progress.c) Counts rows, bytes, row groups or column chunks; a run
 * over several files adds each one's total when it opens it and counts
 * across them. total 0: not known (the count alone is shown). */
typedef enum { PROGRESS_ROWS, PROGRESS_BYTES, PROGRESS_ROW_GROUPS, PROGRESS_CHUNKS } progress_unit;
typedef struct progress {
  bool tty;
  bool shown;
  double start, last, delay;
  int64_t total, done;
  progress_unit unit;
} progress;
void progress_init(progress *p, int64_t total); /* rows */
void progress_init_unit(progress *p, progress_unit unit, int64_t total);
void progress_add_total(progress *p, int64_t more);
void progress_update(progress *p, int64_t done); /* done: the count so far, across files */
void progress_advance(progress *p, int64_t delta);
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
  /* --encrypt-* (the keys are wiped by free_args) */
  pqt_encryption_options enc;
  pqt_column_encryption *enc_cols;
  int n_enc_cols;
  uint8_t enc_footer_key[32];
  uint8_t enc_col_keys[64][32]; /* at most 64 --encrypt-column */
  const char **enc_km; /* --encrypt-key-metadata arguments, resolved after parsing */
  int n_enc_km;
  bool encrypt_flags; /* some --encrypt-* option other than --encrypt-footer */
} wopts;

enum { CMD_REWRITE, CMD_CONVERT, CMD_SALVAGE, CMD_MERGE };
/* --kms-key and --encrypt-kms-* / --encrypt-external-key-material
 * (cli/kms_options.c): 0 not one, 1 a flag, 2 with its value, -status on a
 * usage error. */
int kms_encrypt_option(const char *cmd, const char *a, const char *v);
/* After parsing: generate and wrap the keys into w->enc; 0 not used, 1
 * done, -status on an error (printed). */
int kms_encrypt_finish(const char *cmd, wopts *w);
/* pqt_writer_close, with the external key material stored beside the
 * output first (removed again when the close fails). */
pqt_status kms_writer_close(pqt_writer *wr, pqt_error *e);
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
/* The one matcher behind cli_next, for loops that take options of several
 * tables in turn (row_option): argv[*i] as an option of opts, in the forms
 * above. Its id (*val the value when it takes one, *i moved past a separate
 * value); 0 when argv[*i] is none of them; CLI_ERROR (printed) when it is
 * one but its value is missing, or one is given to a flag. */
int cli_match(const char *cmd, int argc, char **argv, int *i, const cli_opt *opts, char **val);
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
  "  --key ID:KEY           key of the key id stored in the file (key_metadata;\n" \
  "                         repeatable)\n"                                        \
  "  --kms-key ID:BASE64    master key of the test-only in-memory KMS, for files\n" \
  "                         written with key tools (repeatable)\n"               \
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
  "  --max-footer-bytes N   largest footer accepted (default 256M)\n"             \
  "  --int96-unit U         INT96 timestamps as ns (default), us, ms or s; a\n"    \
  "                         value that does not fit the unit fails the read\n"   \
  "  -j, --threads N        threads decoding columns (default 0: one per core;\n" \
  "                         1: this thread only); the output is the same\n"   \
  "  FILE may be http://, https:// or s3://bucket/key (credentials from\n"        \
  "  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN):\n"             \
  "  --s3-endpoint URL      S3-compatible endpoint (default $AWS_ENDPOINT_URL,\n" \
  "                         else AWS)\n"                                          \
  "  --s3-region R          region (default $AWS_REGION, else us-east-1)\n"       \
  "  --s3-path-style        address buckets as ENDPOINT/BUCKET/KEY\n"             \
  "  --ca-file FILE         trust the CA certificates in FILE (PEM) for https"

/* ---- key tools (cli/kms_options.c) ----
 * --kms-key ID:BASE64: a master key of the test-only in-memory KMS (usage
 * error printed: returns its exit status). */
int kms_key_option(const char *cmd, const char *v);
bool kms_active(void);
const pqt_kms_client *kms_client(void); /* NULL without --kms-key */
bool kms_read_active(void);
/* The file being read (its external key material sits beside it). */
void kms_read_file(const char *path);
/* The key tools' key retriever for that file. */
pqt_status kms_read_retriever(const uint8_t *km, size_t n, const char *column_path, uint8_t *key, size_t *key_len,
                              pqt_error *err);

/* Parse one reading option at argv[*i]: 1 consumed (with its value), 0 not
 * a reading option, 2 usage error (printed). */
int read_option(const char *cmd, int argc, char **argv, int *i);
/* A --threads / -j value: 0..1024 (0: one per core); -1 when it is not one. */
int parse_threads(const char *v, int32_t *out);
/* The options given so far (defaults otherwise). */
const pqt_read_options *read_options(void);
/* Open path with the reading options; 0, or an exit status (printed). It
 * also names the file in --skip-corrupt reports and counts its rows. */
int read_open(const char *path, pqt_reader **r);
/* pqt_reader_open_file, or pqt_reader_open_url for an http(s):// or s3://
 * path (with the --s3-* and --ca-file options). */
pqt_status cli_reader_open(pqt_reader **r, const char *path, const pqt_read_options *ro, pqt_error *e);
/* The remote options from --s3-endpoint and friends (for datasets over s3://). */
const struct pqt_remote_options *cli_remote_options(void);
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
/* Rows by position for cat/head/count: "--rows A-B[,C-D...]" (rows [A, B),
 * "A-" to the end) into spans (at most max, sorted and not overlapping);
 * 0, or -1 when the text is not such a list. */
#define ROW_SPANS_MAX 64
int parse_row_spans(const char *text, pqt_row_span *spans, int32_t max, int32_t *n);
/* ---- end of reading options ---- */

/* ---- options of the commands that print or export rows (cli/row_options.c;
 * branch cli-data) ---- */
#include "parquetry_filter.h"
#include "parquetry_dataset.h"

enum {
  ROW_OPT_COLUMNS = 1,
  ROW_OPT_LIMIT = 2,
  ROW_OPT_FORMAT = 4,
  ROW_OPT_WHERE = 8,
  ROW_OPT_STATS = 16,
  ROW_OPT_RANGES = 32, /* --rows A-B, --offset N */
  ROW_OPT_BBOX = 64    /* --bbox X0,Y0,X1,Y1 */
};
typedef struct row_opts {
  const char *columns; /* -c/--columns a,b.c */
  const char *format;  /* --format (NULL: not given) */
  const char *where;   /* --where EXPR */
  int64_t limit;       /* -n/--limit N (the command's default when not given) */
  bool limit_given;
  bool stats; /* --stats */
  int64_t offset;                     /* --offset N (0: none) */
  pqt_row_span spans[ROW_SPANS_MAX]; /* --rows A-B[,C-D...] */
  int32_t n_spans;
  bool has_bbox; /* --bbox */
  double bbox[4];
} row_opts;
void row_opts_init(row_opts *o, int64_t default_limit);
/* Parse one of the options in `accept` (ROW_OPT_*) at argv[*i] ("--x V",
 * "--x=V", "-c V", "-cV"): 1 consumed, 0 not one of them, 2 usage error
 * (printed). */
int row_option(const char *cmd, int argc, char **argv, int *i, unsigned accept, row_opts *o);
/* --format jsonl|csv (NULL: jsonl); 0 or a usage error (printed). */
int row_text_format(const char *cmd, const char *format, pqt_text_format *out);

/* The scan the options ask for: projection and predicate. */
typedef struct row_scan {
  pqt_scan_options so;
  pqt_scan_stats stats;
  pqt_expr *filter;
  char *cols_copy;
  const char **names;
  pqt_row_span spans[ROW_SPANS_MAX];
  int32_t n_spans;
} row_scan;
/* 0, or an exit status (printed; nothing to free then). With
 * limit_as_ranges, --limit without --where becomes a row range too (the
 * first N rows of the selection: later pages are never read). */
int row_scan_setup(const char *cmd, const row_opts *o, bool limit_as_ranges, row_scan *s);
/* --bbox: AND the box predicate on r's first geospatial column into the
 * scan's filter (after the file is open). 0 or an exit status. */
int row_scan_bind_bbox(const char *cmd, const row_opts *o, pqt_reader *r, row_scan *s);
void row_scan_free(row_scan *s);
/* --stats: the scan's counts on stderr. */
void row_scan_print_stats(const row_scan *s);

/* A pqt_write_fn over the text of pqt_reader_write_text that passes on the
 * records (rows) `keep` says yes to, by their index from 0 in the text, and
 * drops the others (the CSV header line is always passed on). */
typedef struct text_select {
  pqt_text_format fmt;
  pqt_write_fn write;
  void *ctx;
  bool (*keep)(void *kctx, int64_t record);
  void *kctx;
  int64_t record, kept;
  bool in_header, in_quote, at_start, keep_current;
} text_select;
void text_select_init(text_select *t, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                      bool (*keep)(void *kctx, int64_t record), void *kctx);
pqt_status text_select_write(void *ctx, const char *data, size_t len);
/* A writer for pqt_reader_write_text that passes the text on to write and
 * moves a progress bar by the records it holds (total_rows: the rows
 * expected, 0 unknown). Returns the write function to give with pt as its
 * context; progress_done(&pt->bar) at the end. */
typedef struct progress_text {
  text_select sel;
  progress bar;
} progress_text;
pqt_write_fn progress_text_init(progress_text *pt, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                                int64_t total_rows);
/* The same, passing on only the records keep accepts (text_select); the bar
 * counts every record read. */
pqt_write_fn progress_text_init_keep(progress_text *pt, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                                     bool (*keep)(void *kctx, int64_t record), void *kctx, int64_t total_rows);

/* Rows of row group g (with so->filter: those where it is true, counted
 * with pqt_reader_count), of every row group into counts[]. 0 or an exit
 * status (printed). */
int row_group_count(const char *cmd, const char *path, pqt_reader *r, const pqt_scan_options *so, int32_t g,
                    int64_t *count);
int row_group_counts(const char *cmd, const char *path, pqt_reader *r, const pqt_scan_options *so, int64_t *counts);

/* ---- text read back (cli/text_parse.c; fuzz/fuzz_cli_text.c) ---- */
/* The schema text of pqt_reader_schema_text with only the fields on the
 * way to or under the projected names (top-level names or dotted paths);
 * malloc'd, NULL when the text is not as expected (or out of memory). */
char *schema_text_project(const char *text, const char *const *names, int32_t n);
/* A row of JSON Lines, {"k":v,...}, split into its top-level fields. */
typedef struct field_span {
  const char *key, *value; /* key with its quotes, value as JSON */
  size_t key_len, value_len;
} field_span;
typedef struct row_fields {
  field_span *items; /* free() it */
  size_t n, cap;
} row_fields;
/* false when s is not such an object (or out of memory). */
bool json_row_split(const char *s, size_t n, row_fields *out);
const field_span *json_row_field(const row_fields *f, const field_span *key);
/* s (n bytes) as a JSON string. */
void json_print_string(FILE *f, const char *s, size_t n);

/* ---- the argument loop of the row commands (tail, sample, export, diff) ----
 * -h/--help, the reading options, the row options of `accept`, the
 * command's own options (`own`, handed to `take`), "--", and the operands
 * (FILEs) kept in argv's own slots. With keep_unknown (export) an option
 * none of these knows (a writer option) is kept among the operands, with
 * its value when it has one, for the writer options' parser. */
typedef struct row_command {
  const char *cmd, *usage_text, *summary;
  unsigned accept;      /* ROW_OPT_* */
  const cli_opt *own;   /* ends with {0}; NULL: none */
  int (*take)(void *ctx, int id, const char *value); /* 0 or an exit status (printed) */
  void *ctx;
  bool keep_unknown;
} row_command;
/* 0 with the operands in (*files)[0..*n_files), -1 after printing the help,
 * or an exit status (printed). */
int row_command_args(const row_command *c, int argc, char **argv, row_opts *o, char ***files, int *n_files);
/* After row_command_args: --format as fmt and the scan the options ask for
 * (row_scan_setup without --limit as ranges). 0, or an exit status
 * (printed; nothing to free then). */
int row_command_scan(const char *cmd, const row_opts *o, pqt_text_format *fmt, row_scan *rs);

/* Rows as text from one file (r) or a dataset (ds): the records keep says
 * yes to (keep NULL: all), at most limit records read (-1: all), to
 * stdout with a progress bar by the records read (expect: how many, 0 not
 * known). With read_none only the CSV header (the columns checked by a
 * scan of no row). 0 or an exit status (printed, naming path). */

int row_write_selected(const char *cmd, const char *path, pqt_reader *r, struct pqt_dataset *ds, row_scan *rs,
                       pqt_text_format fmt, int64_t limit, bool (*keep)(void *kctx, int64_t record), void *kctx,
                       int64_t expect, bool read_none);

/* The data commands of cli-data (cli/cmd_*.c). */
int cmd_tail(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_diff(int argc, char **argv);
extern const char cmd_tail_summary[], cmd_tail_usage[];
extern const char cmd_sample_summary[], cmd_sample_usage[];
extern const char cmd_export_summary[], cmd_export_usage[];
extern const char cmd_diff_summary[], cmd_diff_usage[];
/* ---- end of row options ---- */

/* ---- several files, directories, globs (cli/dataset_input.c) ---- */
/* arg names more than one file: a directory, or a glob no file is named. */
bool dataset_input_many(const char *arg);
/* cat/head/count over inputs[0..n) as one dataset. */
int dataset_run_rows(const char *cmd, const char *const *inputs, int n, bool count, bool json, const row_opts *ropt,
                     pqt_text_format fmt);
/* Open inputs[0..n) as one dataset (remote inputs through io/'s fs, kept
 * in *fs), reading options as the commands' (ro: NULL for those). 0 or an
 * exit status (printed). */
int dataset_open_inputs(const char *cmd, const char *const *inputs, int n, const pqt_read_options *ro,
                        pqt_dataset_fs *fs, struct pqt_dataset **ds);
/* Rows of the dataset where the scan's filter is true (all: the footers). */
int dataset_rows(const char *cmd, struct pqt_dataset *ds, row_scan *rs, int64_t *rows);
/* Several inputs, or one naming several files. */
bool dataset_inputs_many(char *const *inputs, int n);
/* fn for every file the inputs name, in order; the worst exit status. */
int dataset_each_file(const char *cmd, const char *const *inputs, int n, int (*fn)(const char *path, void *ctx),
                      void *ctx);

#endif
