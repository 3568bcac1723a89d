/*
 * cli/convert.c: `parquetry convert` (CSV / JSON Lines -> Parquet), on the
 * public API only. The input is read twice, as a stream: once for the
 * column names and (without --schema) their types, once to write. Rows are
 * written in batches of at most BATCH_ROWS rows or BATCH_BYTES bytes of
 * text, so memory is bounded by the batch and the writer's row group, not
 * by the input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parquetry.h"
#include "parquetry_arrow.h"

#include "cli.h"
#include "convert.h"

#define BATCH_ROWS  65536
#define BATCH_BYTES (32u << 20)

const char cmd_convert_summary[] =
    "Convert CSV (with a header line) or JSON Lines to Parquet. Without --schema the\n"
    "types are inferred from every value: BOOLEAN, INT64, DOUBLE, DATE (YYYY-MM-DD),\n"
    "TIME, TIMESTAMP (MICROS or NANOS; adjusted to UTC when every value has a zone),\n"
    "else STRING. Text that would read back differently (00123, +1, 1e5, integers over\n"
    "INT64; numbers in JSON strings) stays STRING. Empty CSV fields and JSON null are null.\n"
    "JSON objects become groups and arrays LISTs (a field whose values differ in kind, a\n"
    "number here and a string there, is kept as JSON text). Names given twice or empty are made\n"
    "unique as DuckDB does (a, a_1; an empty third name: column2), with a warning. A value that does not fit\n"
    "its type exactly is an error naming the line and column; exit status 0 means every\n"
    "row was written. gzip and zstd input is decompressed; IN '-' reads standard input,\n"
    "OUT '-' writes standard output.\n\n"
    "  --schema 'message m { ... }'   the schema (one top-level field per input column, by name;\n"
    "                                 any type: INT(8,true), DECIMAL(P,S) on any physical type,\n"
    "                                 TIME, TIMESTAMP, UUID, FLOAT16, binary (base64 or \\xHEX),\n"
    "                                 fixed_len_byte_array(N); JSON Lines: groups and LISTs too;\n"
    "                                 GEOMETRY/GEOGRAPHY take WKT text or WKB as base64/\\xHEX)\n"
    "  --format csv|jsonl             input format (default: from the file name, else the content)\n"
    "  --delimiter C, --quote C       CSV field delimiter (default ',', '\\t' for .tsv) and quote ('\"')\n"
    "  --null-string TEXT             unquoted CSV text read as null (default: the empty field)\n"
    "  --no-header                    CSV without a header line (columns column0, column1, ...)\n"
    "  --input-encoding utf8|latin1   input text encoding (default utf8: invalid UTF-8 is an error)\n"
    "  --dry-run                      print the schema (inferred or given) and write nothing\n"
    "  --variant COL                  JSON Lines: store column COL (any JSON) as VARIANT, shredded by\n"
    "                                 the types of its first 1000 values (repeatable; with --schema,\n"
    "                                 declare COL as a VARIANT group {metadata; value}: unshredded).\n"
    "                                 COL may be a path s.v (s.t.w): the value of field v of object\n"
    "                                 column s, as VARIANT inside the group s becomes; items[] (or\n"
    "                                 items.list.element): each element of array column items, a\n"
    "                                 list of VARIANT; items[].v: field v of each element\n"
    "  --variant-shred-depth N        how deep --variant values are shredded (default 2; 0: not at all)\n"
    "  --force                        replace an existing OUT (atomically)\n" WRITER_OPTIONS_HELP;
const char cmd_convert_usage[] = "parquetry convert [OPTIONS] IN.csv|IN.jsonl[.gz|.zst]|- OUT.parquet|-";

/* ---- the columns of the input: names (looked up by hash) and inference ---- */

typedef struct cols {
  char **names;
  cv_node *node; /* the values seen, for the types */
  int n, cap;
  int *hash; /* open addressing: column + 1, 0 empty */
  int hcap;
} cols;

static uint32_t hash_name(const char *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h;
}

static int cols_rehash(cols *c) {
  int nc = c->hcap ? c->hcap * 2 : 64;
  int *h = calloc((size_t)nc, sizeof *h);
  if (!h) return -1;
  for (int i = 0; i < c->n; i++) {
    uint32_t k = hash_name(c->names[i], strlen(c->names[i])) & (uint32_t)(nc - 1);
    while (h[k]) k = (k + 1) & (uint32_t)(nc - 1);
    h[k] = i + 1;
  }
  free(c->hash);
  c->hash = h;
  c->hcap = nc;
  return 0;
}

static int cols_find(const cols *c, const char *p, size_t n) {
  if (!c->hcap) return -1;
  for (uint32_t k = hash_name(p, n) & (uint32_t)(c->hcap - 1);; k = (k + 1) & (uint32_t)(c->hcap - 1)) {
    int i = c->hash[k] - 1;
    if (i < 0) return -1;
    if (strncmp(c->names[i], p, n) == 0 && c->names[i][n] == 0) return i;
  }
}

static int cols_add(cols *c, const char *p, size_t n) {
  if (c->n == c->cap) {
    int nc = c->cap ? c->cap * 2 : 16;
    char **nn = realloc(c->names, (size_t)nc * sizeof *nn);
    if (nn) c->names = nn;
    cv_node *ni = realloc(c->node, (size_t)nc * sizeof *ni);
    if (ni) c->node = ni;
    if (!nn || !ni) return -1;
    c->cap = nc;
  }
  if (!(c->names[c->n] = strndup(p, n))) return -1;
  cv_node_init(&c->node[c->n]);
  c->n++;
  if (c->n * 2 > c->hcap) return cols_rehash(c) == 0 ? c->n - 1 : -1;
  uint32_t k = hash_name(p, n) & (uint32_t)(c->hcap - 1);
  while (c->hash[k]) k = (k + 1) & (uint32_t)(c->hcap - 1);
  c->hash[k] = c->n;
  return c->n - 1;
}

static void cols_free(cols *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->names[i]);
    cv_node_free(&c->node[i]);
  }
  free(c->names);
  free(c->node);
  free(c->hash);
}

/* ---- one pass over the input ---- */

typedef struct conv {
  wopts *w;
  char *vpath[16]; /* --variant paths spelled with [] as Parquet dotted paths */
  bool json;
  cv_input *in;
  cv_bytes *b;
  cv_csv csv;
  cv_json js;
  cv_record rec;
  cols c;
  char err[CV_ERR];
  /* writing */
  pqt_writer *wr;
  struct ArrowSchema as;
  cv_build *col; /* one per top-level writer field */
  int ncol;
  int *field_of_input; /* input column -> writer field */
  int64_t *row_set;    /* JSON: the last row each field was given in */
  int64_t rows, in_batch;
  int *map; /* JSON: the record's fields -> input columns */
  int mcap;
  progress bar;
  /* --variant: samples per column (the first CV_VARIANT_SAMPLE values), the
   * shredding inferred from them, and which writer fields are VARIANT */
  cv_variant_samples samples[16];
  pqt_string shred_text[16];
  pqt_variant_shredding shred[16];
  bool *is_variant;
} conv;

/* k of --variant naming this column, or -1 */
static int variant_of(const conv *v, const char *name) {
  for (int k = 0; k < v->w->n_variant; k++)
    if (strcmp(v->w->variant[k], name) == 0) return k;
  return -1;
}

/* --variant s.v: the part of path below column name ("v"), or NULL. */
static const char *below(const char *path, const char *name) {
  size_t n = strlen(name);
  return strncmp(path, name, n) == 0 && path[n] == '.' && path[n + 1] ? path + n + 1 : NULL;
}

/* The first values of a column: the --variant s.v paths below it marked. */
static int mark_column(conv *v, int col) {
  cv_node *n = &v->c.node[col];
  n->vprep = true;
  for (int k = 0; k < v->w->n_variant; k++) {
    const char *rest = below(v->w->variant[k], v->c.names[col]);
    char e[CV_ERR];
    if (rest && cv_node_mark_variant(n, rest, v->w->variant[k], &v->samples[k], e) != 0) {
      snprintf(v->err, CV_ERR, "%s", e);
      return -1;
    }
  }
  return 0;
}

/* --variant k names a field inside a column (s.v): that column, or -1 (a
 * column of its own name, or none); -2 when two columns could be meant. */
static int variant_parent(const conv *v, int k) {
  int col = -1, n = 0;
  for (int i = 0; i < v->c.n; i++) {
    if (strcmp(v->c.names[i], v->w->variant[k]) == 0) n++;
    else if (below(v->w->variant[k], v->c.names[i])) {
      col = i;
      n++;
    }
  }
  return n > 1 ? -2 : col;
}

static int data_error(conv *v, const char *msg) {
  fprintf(stderr, "parquetry: %s: %s\n", v->w->in, msg);
  return EXIT_DATA;
}

/* The next record: 1, 0 at the end, or -1 (v->err). JSON keys are mapped
 * to columns here (new ones added when add is set). */
static int next_record(conv *v, int **map, bool add) {
  if (!v->json) {
    *map = NULL;
    return cv_csv_next(&v->csv, &v->rec, v->err);
  }
  const char *keys;
  int rc = cv_json_next(&v->js, &v->rec, &keys, v->err);
  if (rc <= 0) return rc;
  if (v->rec.nf > v->mcap) {
    int *x = realloc(v->map, (size_t)v->rec.nf * 2 * sizeof *x);
    if (!x) {
      snprintf(v->err, CV_ERR, "out of memory");
      return -1;
    }
    v->map = x;
    v->mcap = v->rec.nf * 2;
  }
  int *m = v->map;
  for (int i = 0; i < v->rec.nf; i++, keys += strlen(keys) + 1) {
    size_t kl = strlen(keys);
    m[i] = cols_find(&v->c, keys, kl);
    if (m[i] < 0 && add && (m[i] = cols_add(&v->c, keys, kl)) < 0) {
      snprintf(v->err, CV_ERR, "out of memory");
      return -1;
    }
    if (m[i] < 0) {
      snprintf(v->err, CV_ERR, "line %lld: key '%s' is not a field of --schema", (long long)v->rec.line, keys);
      return -1;
    }
  }
  *map = m;
  return 1;
}

/* CSV: a blank line cannot be a row of several columns. */
static bool blank_row(const conv *v) {
  return !v->json && v->c.n > 1 && v->rec.nf == 1 && v->rec.f[0].kind == CV_NULL && v->rec.f[0].len == 0;
}

static int check_width(conv *v) {
  if (v->json || v->rec.nf == v->c.n) return 0;
  snprintf(v->err, CV_ERR, "line %lld: %d field%s, the header has %d", (long long)v->rec.line, v->rec.nf,
           v->rec.nf == 1 ? "" : "s", v->c.n);
  return -1;
}

/* The header (or column0.. without one): the CSV column names. */
static int read_header(conv *v) {
  int rc = cv_csv_next(&v->csv, &v->rec, v->err);
  if (rc < 0) return -1;
  if (rc == 0) {
    snprintf(v->err, CV_ERR, "empty input: no header line");
    return -1;
  }
  for (int i = 0; i < v->rec.nf; i++) {
    char gen[24];
    snprintf(gen, sizeof gen, "column%d", i);
    const cv_field *f = &v->rec.f[i];
    const char *p = v->w->no_header ? gen : v->rec.data + f->off;
    size_t n = v->w->no_header ? strlen(gen) : f->len;
    if (memchr(p, 0, n)) {
      snprintf(v->err, CV_ERR, "line 1, column %d: a NUL character in the name", i + 1);
      return -1;
    }
    if (cols_add(&v->c, p, n) < 0) {
      snprintf(v->err, CV_ERR, "out of memory");
      return -1;
    }
  }
  if (!v->w->no_header && cv_unique_names(v->c.names, v->c.n, v->wr == NULL, v->w->in) < 0) return -1;
  if (cols_rehash(&v->c) != 0) {
    snprintf(v->err, CV_ERR, "out of memory");
    return -1;
  }
  return 0;
}

static int start_pass(conv *v) {
  if (cv_input_rewind(v->in, v->err) != 0) return -1;
  cv_bytes_init(v->b, v->in, v->w->latin1);
  v->csv = (cv_csv){
      v->b, {v->w->delimiter ? v->w->delimiter : ',', v->w->quote ? v->w->quote : '"', v->w->null_string}, false};
  v->js.b = v->b;
  if (v->json) return 0;
  if (v->c.n == 0) {
    if (read_header(v) != 0) return -1;
    return v->w->no_header ? start_pass(v) : 0; /* the first line is a row */
  }
  /* second pass: the header again, or the first row back */
  if (!v->w->no_header) return cv_csv_next(&v->csv, &v->rec, v->err) < 0 ? -1 : 0;
  return 0;
}

/* Pass 1 (no --schema): every value of every column, for the types. */
static int infer_pass(conv *v) {
  if (start_pass(v) != 0) return -1;
  int *map;
  int rc;
  while ((rc = next_record(v, &map, true)) > 0) {
    if (blank_row(v)) continue;
    if (check_width(v) != 0) return -1;
    for (int i = 0; i < v->rec.nf; i++) {
      const cv_field *f = &v->rec.f[i];
      int col = map ? map[i] : i, k = v->w->n_variant ? variant_of(v, v->c.names[col]) : -1;
      if (k < 0) {
        char e[CV_ERR];
        if (v->w->n_variant && !v->c.node[col].vprep && mark_column(v, col) != 0) return -1;
        if (cv_node_value(&v->c.node[col], v->rec.data + f->off, f->len, f->kind, e) != 0) {
          snprintf(v->err, CV_ERR, "line %lld, column %.50s: %.150s", (long long)v->rec.line, v->c.names[col], e);
          return -1;
        }
      } else if (v->samples[k].n < CV_VARIANT_SAMPLE) {
        char e[CV_ERR];
        if (cv_variant_sample(&v->samples[k], v->rec.data + f->off, f->len, f->kind, e) != 0) {
          snprintf(v->err, CV_ERR, "line %lld, column %.50s: %.150s", (long long)v->rec.line, v->c.names[col], e);
          return -1;
        }
      }
    }
  }
  if (rc < 0) return -1;
  if (v->json && v->c.n == 0) {
    snprintf(v->err, CV_ERR, "no fields found");
    return -1;
  }
  for (int i = 0; v->json && i < v->c.n; i++)
    if (!v->c.names[i][0]) {
      snprintf(v->err, CV_ERR, "a key with an empty name: give --schema");
      return -1;
    }
  return 0;
}

static char *inferred_schema(conv *v) {
  char *s = NULL;
  size_t len = 0, cap = 0;
  const char *head = "message schema {\n";
  s = malloc(strlen(head) + 1);
  if (!s) return NULL;
  strcpy(s, head);
  len = cap = strlen(head);
  for (int i = 0; i < v->c.n; i++) {
    int rc = variant_of(v, v->c.names[i]) >= 0
                 ? (cv_schema_raw(&s, &len, &cap, "  optional group ") || cv_schema_name(&s, &len, &cap, v->c.names[i]) ||
                    cv_schema_raw(&s, &len, &cap, " (VARIANT) {\n    required binary metadata;\n"
                                                  "    required binary value;\n  }\n"))
                 : cv_node_schema(&v->c.node[i], v->c.names[i], &s, &len, &cap);
    if (rc != 0) {
      free(s);
      return NULL;
    }
  }
  char *x = realloc(s, len + 3);
  if (!x) {
    free(s);
    return NULL;
  }
  strcpy(x + len, "}\n");
  return x;
}

static pqt_status to_stdout(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

/* Open the writer and match its top-level fields to the input's columns. */
static int open_writer(conv *v, const char *schema) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schema};
  pqt_status st = strcmp(v->w->out, "-") == 0 ? pqt_writer_open_callbacks(&v->wr, to_stdout, NULL, &ws, &v->w->o, &e)
                                              : pqt_writer_open_file(&v->wr, v->w->out, &ws, &v->w->o, &e);
  if (st != PQT_OK) {
    if (e.code == PQT_EINVAL && v->w->schema) return usage("convert", "--schema: %s", e.message);
    return fail(v->w->out, &e);
  }
  int rc = check_option_columns("convert", v->w, v->wr);
  if (rc) return rc;
  if (pqt_writer_arrow_schema(v->wr, &v->as, &e) != PQT_OK) return fail(v->w->out, &e);
  v->ncol = (int)v->as.n_children;
  v->col = calloc((size_t)(v->ncol ? v->ncol : 1), sizeof *v->col);
  if (!v->col) return data_error(v, "out of memory");
  for (int i = 0; i < v->ncol; i++)
    if (cv_build_init(&v->col[i], v->as.children[i], v->err) != 0) return usage("convert", "--schema: %s", v->err);
  if (cv_mark_geo(v->col, v->ncol, schema, v->err) != 0) return usage("convert", "--schema: %s", v->err);
  return 0;
}

static int map_fields(conv *v) {
  if (v->json && v->w->schema) /* the schema's fields are the columns */
    for (int i = 0; i < v->ncol; i++)
      if (cols_add(&v->c, v->col[i].name, strlen(v->col[i].name)) < 0) return data_error(v, "out of memory");
  v->field_of_input = malloc((size_t)(v->c.n ? v->c.n : 1) * sizeof *v->field_of_input);
  v->row_set = calloc((size_t)(v->ncol ? v->ncol : 1), sizeof *v->row_set);
  bool *used = calloc((size_t)(v->ncol ? v->ncol : 1), 1);
  v->is_variant = calloc((size_t)(v->ncol ? v->ncol : 1), 1);
  if (!v->field_of_input || !v->row_set || !used || !v->is_variant) {
    free(used);
    return data_error(v, "out of memory");
  }
  int rc = 0;
  for (int i = 0; i < v->c.n && !rc; i++) {
    int f = -1;
    for (int k = 0; k < v->ncol && f < 0; k++) /* once per column, not per value */
      if (!used[k] && strcmp(v->col[k].name, v->c.names[i]) == 0) f = k;
    if (f < 0)
      rc = usage("convert", "column '%s' of the input is not a field of --schema (nothing is left out)", v->c.names[i]);
    else used[f] = true;
    if (f >= 0 && !v->w->schema && v->c.node[i].kind == CV_N_TEXT) v->col[f].json_text = true;
    if (f >= 0 && variant_of(v, v->c.names[i]) >= 0) v->is_variant[f] = true;
    v->field_of_input[i] = f;
  }
  for (int k = 0; k < v->ncol && !rc; k++)
    if (!used[k] && !v->json)
      rc = usage("convert", "--schema: field '%s' is not a column of the input", v->col[k].name);
  free(used);
  return rc;
}

static void no_release(struct ArrowArray *a) { a->release = NULL; }

static int flush_batch(conv *v) {
  if (v->in_batch == 0) return 0;
  struct ArrowArray *kids = calloc((size_t)v->ncol, sizeof *kids);
  struct ArrowArray **kp = calloc((size_t)v->ncol, sizeof *kp);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!kids || !kp) {
    free(kids);
    free(kp);
    return data_error(v, "out of memory");
  }
  for (int i = 0; i < v->ncol; i++) {
    cv_build_array(&v->col[i], &kids[i]);
    kp[i] = &kids[i];
  }
  const void *top[1] = {NULL};
  struct ArrowArray batch = {v->in_batch, 0, 0, 1, v->ncol, top, kp, NULL, no_release, NULL};
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_writer_write_batch(v->wr, &batch, &e);
  free(kids);
  free(kp);
  if (st != PQT_OK) return fail(v->w->out, &e);
  for (int i = 0; i < v->ncol; i++) cv_build_reset(&v->col[i]);
  v->in_batch = 0;
  return 0;
}

static int value_error(conv *v, int field) {
  char msg[CV_ERR + 200];
  snprintf(msg, sizeof msg, "line %lld, column %s: %s", (long long)v->rec.line, v->col[field].name, v->err);
  return data_error(v, msg);
}

/* One record into the columns (JSON: the fields it lacks are null). */
static int add_record(conv *v, const int *map) {
  int64_t row = ++v->rows;
  for (int i = 0; i < v->rec.nf; i++) {
    int f = v->field_of_input[map ? map[i] : i];
    const cv_field *x = &v->rec.f[i];
    v->row_set[f] = row;
    if ((v->is_variant[f] ? cv_variant_add : cv_build_add)(&v->col[f], v->rec.data + x->off, x->len, x->kind, v->err) !=
        0)
      return value_error(v, f);
  }
  if (map)
    for (int f = 0; f < v->ncol; f++)
      if (v->row_set[f] != row && cv_build_null(&v->col[f], false, v->err) != 0) return value_error(v, f);
  v->in_batch++;
  int64_t bytes = 0;
  for (int f = 0; f < v->ncol; f++) bytes += cv_build_bytes(&v->col[f]);
  if (v->in_batch == BATCH_ROWS || bytes >= (int64_t)BATCH_BYTES) return flush_batch(v);
  return 0;
}

/* Pass 2: every record written. */
static int write_pass(conv *v) {
  if (start_pass(v) != 0) return data_error(v, v->err);
  int *map;
  int rc;
  progress_init(&v->bar, 0);
  while ((rc = next_record(v, &map, false)) > 0) {
    if (blank_row(v)) continue;
    if (check_width(v) != 0) return data_error(v, v->err);
    int r = add_record(v, map);
    if (r) return r;
    if ((v->rows & 4095) == 0) progress_update(&v->bar, v->rows);
  }
  if (rc < 0) return data_error(v, v->err);
  progress_done(&v->bar);
  return flush_batch(v);
}

/* ---- the command ---- */

static bool ends_with(const char *s, size_t n, const char *x) {
  size_t k = strlen(x);
  return n >= k && strncasecmp(s + n - k, x, k) == 0;
}

/* jsonl or csv: --format, else the name (past .gz/.zst), else the content. */
static bool is_json(const wopts *w, cv_input *in, bool *tsv) {
  *tsv = false;
  if (w->format) return strcmp(w->format, "jsonl") == 0;
  size_t n = strcmp(w->in, "-") == 0 ? 0 : strlen(w->in);
  if (ends_with(w->in, n, ".gz")) n -= 3;
  else if (ends_with(w->in, n, ".zst")) n -= 4;
  if (ends_with(w->in, n, ".jsonl") || ends_with(w->in, n, ".ndjson") || ends_with(w->in, n, ".json")) return true;
  if (ends_with(w->in, n, ".csv")) return false;
  if (ends_with(w->in, n, ".tsv") || ends_with(w->in, n, ".tab")) {
    *tsv = true;
    return false;
  }
  const char *p;
  size_t k = cv_input_peek(in, &p), i = 0;
  if (k >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) i = 3;
  while (i < k && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  return i < k && p[i] == '{';
}

/* The output must not be the input, and replaces a file only with --force. */
static int check_paths(const wopts *w) {
  if (!w->out || strcmp(w->out, "-") == 0) return 0;
  struct stat si, so;
  if (stat(w->out, &so) != 0) return 0;
  if (strcmp(w->in, "-") != 0 && stat(w->in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
    fprintf(stderr, "parquetry: %s: the output is the input file (refused, even with --force)\n", w->out);
    return EXIT_USAGE;
  }
  if (!w->force) {
    fprintf(stderr, "parquetry: %s: exists (say --force to replace it)\n", w->out);
    return EXIT_DATA;
  }
  return 0;
}

/* --variant items[] (and items[].v) as the Parquet dotted path of the
 * array's elements, items.list.element(.v): the spelling the rest of
 * convert, the writer's variant_shredding and parquetry's printed columns
 * use. */
static int variant_paths(conv *v) {
  for (int k = 0; k < v->w->n_variant; k++) {
    const char *p = v->w->variant[k];
    if (!strstr(p, "[]")) continue;
    size_t n = strlen(p), o = 0;
    char *q = malloc(n * 6 + 1);
    if (!q) return data_error(v, "out of memory");
    for (size_t i = 0; i < n; i++) {
      if (p[i] == '[' && p[i + 1] == ']' && i > 0 && p[i - 1] != '.') {
        memcpy(q + o, ".list.element", 13);
        o += 13;
        i++;
        continue;
      }
      if (p[i] == '[' || p[i] == ']') {
        free(q);
        return usage("convert", "--variant %s: [] follows a name (items[] or items[].v)", p);
      }
      q[o++] = p[i];
    }
    q[o] = 0;
    v->vpath[k] = q;
    v->w->variant[k] = q;
  }
  return 0;
}

static int convert(conv *v) {
  bool tsv;
  int prc = variant_paths(v);
  if (prc) return prc;
  for (int k = 0; k < v->w->n_variant; k++)
    for (int j = 0; j < k; j++) {
      const char *a = v->w->variant[j], *b = v->w->variant[k];
      if (strcmp(a, b) == 0 || below(a, b) || below(b, a))
        return usage("convert", "--variant %s and --variant %s: the same, or one inside the other", a, b);
    }
  if (cv_input_open(&v->in, v->w->in, v->err) != 0) return data_error(v, v->err);
  v->json = is_json(v->w, v->in, &tsv);
  if (tsv && !v->w->delimiter) v->w->delimiter = '\t';
  if (!(v->b = malloc(sizeof *v->b))) return data_error(v, "out of memory");
  char *schema = NULL;
  if (!v->w->schema) {
    if (infer_pass(v) != 0) return data_error(v, v->err[0] ? v->err : "out of memory");
  } else if (!v->json && start_pass(v) != 0) {
    return data_error(v, v->err);
  }
  for (int k = 0; k < v->w->n_variant; k++) {
    const char *path = v->w->variant[k];
    if (v->w->schema) continue;
    int col = variant_parent(v, k);
    char e[CV_ERR];
    bool known = col >= 0;
    for (int i = 0; i < v->c.n && !known; i++) known = strcmp(v->c.names[i], path) == 0;
    if (col == -2) {
      return usage("convert", "--variant %s: names both a column and a field inside another column", path);
    }
    if (!known) {
      return usage("convert", "--variant %s: no such column in the input", path);
    }
    if (col >= 0 && cv_node_check_variant(&v->c.node[col], below(path, v->c.names[col]), path, e) != 0) {
      return usage("convert", "%s", e);
    }
  }
  if (!v->w->schema && !(schema = inferred_schema(v))) return data_error(v, "out of memory");
  if (v->w->n_variant && !v->w->schema && v->w->variant_depth != 0) {
    /* shredded by what the first rows hold (--variant-shred-depth, default 2) */
    int depth = v->w->variant_depth < 0 ? 2 : v->w->variant_depth, n = 0;
    for (int k = 0; k < v->w->n_variant; k++) {
      pqt_error e;
      pqt_error_init(&e);
      if (pqt_variant_shred_infer(v->samples[k].views, v->samples[k].n, depth, 0, NULL, &v->shred_text[k], &e) !=
          PQT_OK) {
        free(schema);
        return fail(v->w->in, &e);
      }
      if (v->shred_text[k].len)
        v->shred[n++] = (pqt_variant_shredding){sizeof(pqt_variant_shredding), v->w->variant[k], v->shred_text[k].data};
    }
    v->w->o.variant_shredding = v->shred;
    v->w->o.n_variant_shredding = n;
  }
  const char *text = v->w->schema ? v->w->schema : schema;
  if (v->w->dry_run) {
    fputs(text, stdout);
    free(schema);
    return 0;
  }
  int rc = open_writer(v, text);
  free(schema);
  if (!rc) rc = map_fields(v);
  for (int k = 0; k < v->w->n_variant && !rc; k++) { /* --variant s.v: the VARIANT group inside s */
    int f = -1, n = 0;
    for (int i = 0; i < v->ncol; i++) {
      if (strcmp(v->col[i].name, v->w->variant[k]) == 0) n++;
      else if (below(v->w->variant[k], v->col[i].name)) {
        f = i;
        n++;
      }
    }
    if (n > 1) rc = usage("convert", "--variant %s: names both a column and a field inside another column", v->w->variant[k]);
    else if (n == 0) rc = usage("convert", "--variant %s: no such column in --schema", v->w->variant[k]);
    else if (f >= 0 && cv_build_mark_variant(&v->col[f], below(v->w->variant[k], v->col[f].name), v->w->variant[k], v->err) != 0)
      rc = usage("convert", "%s", v->err);
  }
  if (!rc) rc = write_pass(v);
  if (!rc) {
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = kms_writer_close(v->wr, &e);
    v->wr = NULL;
    if (st != PQT_OK) rc = fail(v->w->out, &e);
  }
  return rc;
}

int cmd_convert(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_convert_usage, cmd_convert_summary);
    return 0;
  }
  wopts w;
  int rc = parse_args("convert", argc, argv, &w, CMD_CONVERT);
  if (!rc) rc = check_paths(&w);
  if (rc) {
    free_args(&w);
    return rc;
  }
  conv v;
  memset(&v, 0, sizeof v);
  v.w = &w;
  rc = convert(&v);
  if (v.wr) pqt_writer_discard(v.wr);
  if (v.as.release) v.as.release(&v.as);
  for (int i = 0; i < v.ncol; i++) cv_build_free(&v.col[i]);
  free(v.col);
  free(v.field_of_input);
  free(v.row_set);
  free(v.map);
  free(v.b);
  free(v.is_variant);
  for (int k = 0; k < 16; k++) {
    free(v.vpath[k]);
    cv_variant_samples_free(&v.samples[k]);
    pqt_string_free(&v.shred_text[k]);
  }
  cv_record_free(&v.rec);
  cv_json_free(&v.js);
  cols_free(&v.c);
  cv_input_close(v.in);
  free_args(&w);
  return rc;
}
