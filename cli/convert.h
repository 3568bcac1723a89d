/*
 * cli/convert.h: the pieces of `parquetry convert`, one job per file:
 *   input.c          bytes of the input: a file, standard input, .gz or .zst
 *   csv_input.c      CSV records (delimiter, quote, BOM, quoted newlines)
 *   json_input.c     JSON Lines objects (top-level fields; nested values as JSON text)
 *   infer.c          column names (made unique as DuckDB does) and types
 *   convert_values.c text -> one Arrow column of the writer's layout, checked
 *   convert.c        the command: options, two passes, writing
 * Every parser reports errors as "line N, ..." text in a caller buffer.
 */
#ifndef PQT_CLI_CONVERT_H
#define PQT_CLI_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parquetry.h"
#include "parquetry_arrow.h"

#define CV_ERR 256 /* size of the error buffers */

/* ---- input.c: a byte source read sequentially, and rewound for a second pass ---- */
typedef struct cv_input cv_input;
/* "-" is standard input (copied to an unlinked temporary file so it can be
 * read twice); gzip and zstd content (by magic bytes) is decompressed. */
int cv_input_open(cv_input **out, const char *path, char *err);
/* Up to n bytes; 0 at the end, -1 on error (message in err). */
long cv_input_read(cv_input *in, void *dst, size_t n, char *err);
/* Plain bytes in memory (the fuzz target and the tests). */
int cv_input_open_memory(cv_input **out, const void *data, size_t n, char *err);
int cv_input_rewind(cv_input *in, char *err);
void cv_input_close(cv_input *in);
/* The first bytes of the (decompressed) content, for format sniffing. */
size_t cv_input_peek(cv_input *in, const char **p);

/* A buffered byte reader over cv_input with the line count and offset. */
typedef struct cv_bytes {
  cv_input *in;
  unsigned char buf[1 << 16];
  size_t pos, len;
  bool eof, latin1;
  int64_t offset; /* of buf[pos] in the content */
  int64_t line;   /* 1-based line of buf[pos] */
  char err[CV_ERR];
  bool failed;
} cv_bytes;
void cv_bytes_init(cv_bytes *b, cv_input *in, bool latin1);
int cv_bytes_fill(cv_bytes *b); /* 1: more bytes, 0: end, -1: error (b->err) */

/* ---- a record: fields as spans of one growing buffer ---- */
typedef enum { CV_NULL, CV_TEXT, CV_QUOTED, CV_JSON_NUMBER, CV_JSON_BOOL, CV_JSON_NESTED } cv_kind;
typedef struct cv_field {
  size_t off, len;
  cv_kind kind;
  int64_t byte; /* offset of the field in the input */
} cv_field;
typedef struct cv_record {
  char *data;
  size_t dlen, dcap;
  cv_field *f;
  int nf, fcap;
  int64_t line; /* line the record starts on */
} cv_record;
void cv_record_free(cv_record *r);
int cv_record_put(cv_record *r, const char *p, size_t n);                 /* append bytes to the current field */
int cv_record_field(cv_record *r, size_t start, cv_kind k, int64_t byte); /* close a field begun at start */

/* UTF-8: 0, or the index of the first bad byte + 1. */
size_t cv_utf8_bad(const unsigned char *p, size_t n);

/* ---- csv_input.c ---- */
typedef struct cv_csv_options {
  char delimiter, quote;
  const char *null_string; /* unquoted text read as null (NULL: the empty field) */
} cv_csv_options;
typedef struct cv_csv {
  cv_bytes *b;
  cv_csv_options o;
  bool started;
} cv_csv;
/* The next record: 1, 0 at the end, -1 on error (message in err). */
int cv_csv_next(cv_csv *c, cv_record *r, char *err);

/* ---- json_input.c ---- */
typedef struct cv_json {
  cv_bytes *b;
  char *line;
  size_t lcap;
  char *keys; /* the record's key names: "name\0name\0" in r order (parallel to fields) */
  size_t klen, kcap;
} cv_json;
/* The next non-empty line's object: fields in key order; *keys points at the
 * n names (each NUL-terminated, back to back). 1, 0 at the end, -1 on error. */
int cv_json_next(cv_json *j, cv_record *r, const char **keys, char *err);
void cv_json_free(cv_json *j);
/* Parse one line of text as an object (the fuzz target and the tests use this). */
int cv_json_parse_line(cv_json *j, const char *s, size_t n, int64_t line, int64_t byte0, cv_record *r, char *err);

/* Walk a nested JSON value (objects, arrays, scalars as the line parser
 * gives them). A callback returning non-zero stops the walk (its message in
 * the ctx); a returns -1. Strings reach scalar() unescaped, NUL-terminated. */
typedef struct cv_json_visitor {
  int (*begin_object)(void *ctx);
  int (*key)(void *ctx, const char *name, size_t n);
  int (*end_object)(void *ctx);
  int (*begin_array)(void *ctx);
  int (*end_array)(void *ctx);
  int (*scalar)(void *ctx, const char *p, size_t n, cv_kind k);
} cv_json_visitor;
int cv_json_walk(const char *s, size_t n, const cv_json_visitor *v, void *ctx, char *err);

/* ---- infer.c ---- */
typedef enum {
  CV_T_NONE,
  CV_T_BOOL,
  CV_T_INT64,
  CV_T_DOUBLE,
  CV_T_DATE,
  CV_T_TIME,
  CV_T_TS,
  CV_T_TS_TZ,
  CV_T_STRING,
  CV_T_JSON /* JSON text: a JSON field whose values differ in kind */
} cv_type;
typedef struct cv_infer {
  bool any, can_bool, can_int, can_double, can_date, can_time, can_ts, can_ts_tz;
  bool int_over_2_53; /* an integer that a DOUBLE would not hold exactly */
  int frac_digits;    /* most fraction digits of a time/timestamp */
  bool beyond_nanos;  /* a timestamp outside the range of NANOS */
} cv_infer;
void cv_infer_init(cv_infer *s);
void cv_infer_add(cv_infer *s, const char *p, size_t n, cv_kind k);
cv_type cv_infer_result(const cv_infer *s);
/* Message-syntax declaration of a column of this type ("optional int64 `a`;"). */
int cv_schema_append(char **s, size_t *len, size_t *cap, cv_type t, int frac_digits, const char *name);
/* Pieces of message syntax: raw text, and a `quoted` name. */
int cv_schema_raw(char **s, size_t *len, size_t *cap, const char *text);
int cv_schema_name(char **s, size_t *len, size_t *cap, const char *name);
/* Names made unique as DuckDB's read_csv does: empty -> "column<i>", a
 * repeat -> "a_1", "a_2". Returns the number of renamed columns. */
int cv_unique_names(char **names, int n, bool warn, const char *path);

/* ---- convert_values.c: text into one Arrow column of the writer's layout ---- */
typedef struct cv_column {
  const char *format; /* the writer's Arrow format for the field */
  const char *name;
  bool nullable, is_uuid_ok;
  int width;        /* bytes per value for fixed layouts; 0 for strings, -1 for booleans */
  int dec_p, dec_s; /* DECIMAL */
  int kind, unit;   /* convert_values.c's classification of format, made once */
  bool sign, tz;
  int32_t geo; /* PQT_LOGICAL_GEOMETRY / _GEOGRAPHY for such a binary column (cv_mark_geo), else 0 */
  uint8_t *valid, *vals;
  int32_t *offs;
  char *data;
  size_t vcap, dlen, dcap;
  int64_t n, n_null, cap;
  const void *bufs[3];
} cv_column;
int cv_column_init(cv_column *c, const struct ArrowSchema *field, char *err);
void cv_column_free(cv_column *c);
void cv_column_reset(cv_column *c);
/* Append one value (p == NULL: null). err: "cannot read '...' as TYPE: why". */
int cv_column_append(cv_column *c, const char *p, size_t n, cv_kind k, char *err);
/* The Arrow array of the values appended since the last reset (borrowed). */
void cv_column_array(cv_column *c, struct ArrowArray *out);
/* The type's name as a user writes it in --schema ("INT(8,true)", "DECIMAL(9,2)"). */
void cv_column_type_name(const cv_column *c, char *out, size_t n);

/* ---- json_nested.c: nested JSON values ---- */
enum { CV_N_NONE, CV_N_SCALAR, CV_N_OBJECT, CV_N_ARRAY, CV_N_TEXT, CV_N_VARIANT };
struct cv_variant_samples;
typedef struct cv_node {
  int kind;     /* CV_N_*; TEXT: rows disagree, kept as JSON text */
  cv_infer inf; /* SCALAR */
  char **names; /* OBJECT: fields in first-seen order */
  struct cv_node *kids;
  int nk, last_key;
  int seen;             /* JSON kinds seen: 1 string, 2 number, 4 boolean */
  struct cv_node *elem; /* ARRAY */
  /* convert --variant s.v: the nodes on the path are marked (vmark, vpath
   * the option's text); the last one is a CV_N_VARIANT whose values are
   * sampled into vs (vseen: given in some row) */
  bool vmark, vseen, vprep;
  int seq, nseq; /* first seen as the nseq-th key of its parent (the marking adds keys early) */
  const char *vpath;
  struct cv_variant_samples *vs;
} cv_node;
void cv_node_init(cv_node *n);
void cv_node_free(cv_node *n);
/* One value of the field (k CV_JSON_NESTED: its JSON text). */
void cv_node_add(cv_node *n, const char *p, size_t len, cv_kind k);
/* The same, failing (-1, err) where a marked --variant path cannot be kept:
 * a list on the path, a value that is no Variant. */
int cv_node_value(cv_node *n, const char *p, size_t len, cv_kind k, char *err);
/* --variant PATH with rest the part of PATH below the column node n: the
 * nodes on the way become objects, the last a VARIANT field sampled into vs. */
int cv_node_mark_variant(cv_node *n, const char *rest, const char *path, struct cv_variant_samples *vs, char *err);
/* After inference: the path still leads through objects to a VARIANT field
 * given in some row; else -1 with the reason in err. The fields on the way
 * are put back in the order the input gave them. */
int cv_node_check_variant(cv_node *n, const char *rest, const char *path, char *err);
int cv_node_schema(const cv_node *n, const char *name, char **s, size_t *len, size_t *cap);

enum { CV_B_LEAF, CV_B_STRUCT, CV_B_LIST };
typedef struct cv_build {
  int kind;
  const char *name;
  bool nullable;
  bool json_text;        /* LEAF of inferred JSON text: strings go in quoted */
  cv_column leaf;        /* LEAF */
  struct cv_build *kids; /* STRUCT fields; LIST: kids[0] the element */
  int nk, last_key;
  int64_t gen, *seen; /* STRUCT: the object each field was last given in */
  uint8_t *valid;
  int32_t *offs; /* LIST */
  int64_t n, n_null, cap;
  struct ArrowArray *kida, **kidp;
  const void *bufs[2];
  const char *vpath; /* STRUCT of a VARIANT group inside a group (convert --variant s.v): its PATH */
} cv_build;
int cv_build_init(cv_build *b, const struct ArrowSchema *field, char *err);
void cv_build_free(cv_build *b);
void cv_build_reset(cv_build *b);
int64_t cv_build_bytes(const cv_build *b);
int cv_build_null(cv_build *b, bool fill, char *err);
int cv_build_add(cv_build *b, const char *p, size_t n, cv_kind k, char *err);
void cv_build_array(cv_build *b, struct ArrowArray *out);
/* --variant PATH, rest the part below the column builder b: mark the
 * VARIANT group it names (values then go in as Variants); -1 with err when
 * the path does not lead through groups to a VARIANT group. */
int cv_build_mark_variant(cv_build *b, const char *rest, const char *path, char *err);
/* Mark the GEOMETRY/GEOGRAPHY leaves of the n builders made from the
 * schema `message` (message syntax), so that they take WKT text (or WKB
 * as base64 / \xHEX, checked). 0, or -1 with the reason in err. */
int cv_mark_geo(cv_build *b, int n, const char *message, char *err);

/* convert --variant (convert_variant.c): a field's JSON text as a Variant;
 * added to the struct<metadata, value> builder of a VARIANT group; the
 * first rows' values kept for pqt_variant_shred_infer. */
#include "parquetry_variant.h"
#define CV_VARIANT_SAMPLE 1000 /* values of a --variant field its shredding is inferred from */
int cv_variant_from_field(const char *p, size_t n, cv_kind k, pqt_variant_owned *out, char *err);
int cv_variant_add(cv_build *b, const char *p, size_t n, cv_kind k, char *err);
typedef struct cv_variant_samples {
  pqt_variant_owned *own;
  pqt_variant *views;
  int64_t n, cap;
} cv_variant_samples;
int cv_variant_sample(cv_variant_samples *s, const char *p, size_t n, cv_kind k, char *err);
void cv_variant_samples_free(cv_variant_samples *s);
/* A JSON string: p[0..n) quoted and escaped into q (room for n * 6 + 3
 * bytes, NUL-terminated); returns the length. */
size_t cv_json_quote(const char *p, size_t n, char *q);
/* JSON text rebuilt from cv_json_walk's events: the value of a VARIANT field
 * met inside a nested one. Each call 0, or -1 (out of memory, too deep). */
typedef struct cv_jtext {
  char *s;
  size_t len, cap;
  int depth;
  bool comma;
  char close[130];
} cv_jtext;
int cv_jtext_begin(cv_jtext *t, char bracket); /* '{' or '[' */
int cv_jtext_key(cv_jtext *t, const char *p, size_t n);
int cv_jtext_end(cv_jtext *t);
int cv_jtext_scalar(cv_jtext *t, const char *p, size_t n, cv_kind k);
void cv_jtext_free(cv_jtext *t);

/* Values checked by convert_values.c, also used by infer.c. */
bool cv_parse_date(const char *p, size_t n, int32_t *days);
/* HH:MM:SS[.f]: nanoseconds of the day; *digits the fraction digits given. */
bool cv_parse_time(const char *p, size_t n, int64_t *ns, int *digits);
/* date[ T]time[Z|+HH:MM|-HH:MM]: ns since the epoch (UTC when a zone is given). */
bool cv_parse_timestamp(const char *p, size_t n, int64_t *sec, int64_t *ns_frac, int *digits, bool *has_zone);

#endif
