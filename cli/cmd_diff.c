/*
 * cli/cmd_diff.c: `parquetry diff A B`, whether two files hold the same
 * schema, key-value metadata, row count and values. Values are compared as
 * decoded: the rows of each file as canonical JSON (what cat prints), so
 * files of the same data written with other codecs, encodings, page or row
 * group sizes are equal. A's rows go to a temporary file, then B's are
 * compared with them line by line; a row that differs is split into its
 * top-level columns to name the ones that differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_meta.h"

#include "cli.h"

const char cmd_diff_summary[] =
    "Compare two Parquet files: their schemas, key-value metadata, row counts and\n"
    "values, and print what differs: the first differing rows with, for each column\n"
    "that differs, both values (rows numbered from 0). Values are compared as decoded\n"
    "(as cat prints them), so the same data written with other codecs, encodings, or\n"
    "page and row group sizes is equal. A's rows are held in a temporary file (in\n"
    "TMPDIR) while B's are read.\n\n"
    "  -n, --limit N         show at most N differing rows (default 10; all are\n"
    "                        counted)\n"
    "  -c, --columns a,b.c   compare only these columns' values\n"
    "  --no-metadata         do not compare the key-value metadata\n"
    "  --json                the result as one JSON object (keys: equal, schema,\n"
    "                        metadata, rows, values; see below)\n\n"
    "Exit status: 0 the files are equal, 1 they differ, 2 a usage error or a file\n"
    "that cannot be read, 3 equal or not, rows were lost under --skip-corrupt.\n\n"
    "JSON: {\"equal\": BOOL, \"schema\": {\"equal\": BOOL, \"a\": TEXT, \"b\": TEXT},\n"
    "\"metadata\": {\"equal\": BOOL, \"only_a\": [{\"key\", \"value\"}], \"only_b\": [...],\n"
    "\"different\": [{\"key\", \"a\", \"b\"}]}, \"rows\": {\"equal\": BOOL, \"a\": N, \"b\": N},\n"
    "\"values\": {\"equal\": BOOL, \"rows_compared\": N, \"rows_different\": N,\n"
    "\"rows_only_a\": N, \"rows_only_b\": N, \"differences\": [{\"row\": N, \"column\": NAME,\n"
    "\"a\": VALUE, \"b\": VALUE}]}} (values as cat prints them; a column one file\n"
    "lacks: null with \"a_missing\" or \"b_missing\" true)." READ_OPTIONS_HELP;
const char cmd_diff_usage[] = "parquetry diff [--json] [-n N] [-c a,b.c] [--no-metadata] A B";

#define EXIT_TROUBLE 2
/* Human output: values cut to this many bytes. */
#define SHOW_VALUE 60

/* ---- JSON and text helpers ---- */

/* A value for people: cut to SHOW_VALUE bytes (not inside a UTF-8 sequence). */
static void show_value(FILE *f, const char *s, size_t n) {
  if (n <= SHOW_VALUE) {
    fwrite(s, 1, n, f);
    return;
  }
  size_t k = SHOW_VALUE;
  while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
  fwrite(s, 1, k, f);
  fprintf(f, "... (%zu bytes)", n);
}

/* ---- the comparison of values ---- */

typedef struct diff_state {
  bool json;
  int64_t show; /* differing rows to show */
  FILE *a;      /* A's rows, one a line */
  char *a_line;
  size_t a_cap;
  bool a_done;
  char *b_line; /* B's row being put together */
  size_t b_len, b_cap;
  int64_t row, rows_different, rows_only_a, rows_only_b, shown_differences;
  row_fields fa, fb;
  bool oom;
} diff_state;

static void print_difference(diff_state *d, const char *column, size_t column_len, const field_span *va,
                             const field_span *vb) {
  if (d->json) {
    printf("%s\n    {\"row\": %lld, \"column\": ", d->shown_differences ? "," : "", (long long)d->row);
    fwrite(column, 1, column_len, stdout); /* a JSON string already */
    printf(", \"a\": ");
    if (va) fwrite(va->value, 1, va->value_len, stdout);
    else printf("null, \"a_missing\": true");
    printf(", \"b\": ");
    if (vb) fwrite(vb->value, 1, vb->value_len, stdout);
    else printf("null, \"b_missing\": true");
    printf("}");
  } else {
    printf("row %lld, column %.*s: A ", (long long)d->row, (int)(column_len - 2), column + 1);
    if (va) show_value(stdout, va->value, va->value_len);
    else printf("(no such column)");
    printf(", B ");
    if (vb) show_value(stdout, vb->value, vb->value_len);
    else printf("(no such column)");
    printf("\n");
  }
  d->shown_differences++;
}

/* Compare row d->row: A's line with B's (both without their newline). */
static void compare_row(diff_state *d, const char *a, size_t an, const char *b, size_t bn) {
  if (an == bn && memcmp(a, b, an) == 0) return;
  d->rows_different++;
  if (d->rows_different > d->show) return;
  if (!json_row_split(a, an, &d->fa) || !json_row_split(b, bn, &d->fb)) {
    /* not objects as expected: the whole rows */
    field_span va = {"\"(row)\"", a, 7, an}, vb = {"\"(row)\"", b, 7, bn};
    print_difference(d, va.key, va.key_len, &va, &vb);
    return;
  }
  for (size_t i = 0; i < d->fa.n; i++) {
    const field_span *x = &d->fa.items[i], *y = json_row_field(&d->fb, x);
    if (!y || x->value_len != y->value_len || memcmp(x->value, y->value, x->value_len) != 0)
      print_difference(d, x->key, x->key_len, x, y);
  }
  for (size_t i = 0; i < d->fb.n; i++)
    if (!json_row_field(&d->fa, &d->fb.items[i]))
      print_difference(d, d->fb.items[i].key, d->fb.items[i].key_len, NULL, &d->fb.items[i]);
}

/* The next line of A (without its newline); false at its end. */
static bool next_a(diff_state *d, size_t *len) {
  if (d->a_done) return false;
  ssize_t n = getline(&d->a_line, &d->a_cap, d->a);
  if (n <= 0) {
    d->a_done = true;
    return false;
  }
  if (d->a_line[n - 1] == '\n') n--;
  *len = (size_t)n;
  return true;
}

static void b_row(diff_state *d) {
  size_t an;
  if (next_a(d, &an)) compare_row(d, d->a_line, an, d->b_line, d->b_len);
  else d->rows_only_b++;
  d->row++;
  d->b_len = 0;
}

/* B's text: cut into rows, each compared with A's. */
static pqt_status b_text(void *ctx, const char *data, size_t len) {
  diff_state *d = ctx;
  while (len > 0) {
    const char *nl = memchr(data, '\n', len);
    size_t take = nl ? (size_t)(nl - data) : len;
    if (d->b_len + take + 1 > d->b_cap) {
      size_t cap = d->b_cap ? d->b_cap : 4096;
      while (cap < d->b_len + take + 1) cap *= 2;
      char *p = realloc(d->b_line, cap);
      if (!p) {
        d->oom = true;
        return PQT_ENOMEM;
      }
      d->b_line = p;
      d->b_cap = cap;
    }
    memcpy(d->b_line + d->b_len, data, take);
    d->b_len += take;
    if (!nl) break;
    b_row(d);
    data += take + 1;
    len -= take + 1;
  }
  return PQT_OK;
}

static pqt_status a_text(void *ctx, const char *data, size_t len) {
  return fwrite(data, 1, len, (FILE *)ctx) == len ? PQT_OK : PQT_EIO;
}

/* ---- schema and metadata ---- */

/* The first line where two texts differ (1-based), 0 when equal. */
static int first_line_differing(const char *a, const char *b, const char **la, size_t *na, const char **lb,
                                size_t *nb) {
  int line = 1;
  for (;;) {
    size_t x = strcspn(a, "\n"), y = strcspn(b, "\n");
    if (x != y || memcmp(a, b, x) != 0 || (!a[x]) != (!b[y])) {
      *la = a;
      *na = x;
      *lb = b;
      *nb = y;
      return line;
    }
    if (!a[x]) return 0;
    a += x + 1;
    b += y + 1;
    line++;
  }
}

/* Key-value pair i of r into kv; false where it cannot be read (the pair is then passed over). */
static bool kv_at(const pqt_reader *r, int32_t i, pqt_kv *kv) {
  pqt_kv_init(kv);
  pqt_error e;
  pqt_error_init(&e);
  return pqt_reader_kv(r, i, kv, &e) == PQT_OK;
}

static bool kv_find(const pqt_reader *r, const pqt_kv *key, pqt_kv *out) {
  for (int32_t i = 0; i < pqt_reader_kv_count(r); i++) {
    if (!kv_at(r, i, out)) continue;
    if (out->key_len == key->key_len && memcmp(out->key, key->key, key->key_len) == 0) return true;
  }
  return false;
}

static bool kv_same_value(const pqt_kv *x, const pqt_kv *y) {
  if (!x->value || !y->value) return !x->value && !y->value;
  return x->value_len == y->value_len && memcmp(x->value, y->value, x->value_len) == 0;
}

static void print_kv_value(bool json, const pqt_kv *kv) {
  if (json) {
    if (kv->value) json_print_string(stdout, kv->value, kv->value_len);
    else printf("null");
  } else if (kv->value) {
    putchar('"');
    show_value(stdout, kv->value, kv->value_len);
    putchar('"');
  } else {
    printf("(no value)");
  }
}

/* Keys of `from` missing in `other` ("only_a"/"only_b"); how many. */
static int64_t kv_only(bool json, const pqt_reader *from, const pqt_reader *other, const char *which) {
  int64_t n = 0;
  for (int32_t i = 0; i < pqt_reader_kv_count(from); i++) {
    pqt_kv kv, o;
    if (!kv_at(from, i, &kv) || kv_find(other, &kv, &o)) continue;
    if (json) {
      printf("%s{\"key\": ", n ? ", " : "");
      json_print_string(stdout, kv.key, kv.key_len);
      printf(", \"value\": ");
      print_kv_value(true, &kv);
      printf("}");
    } else {
      printf("metadata: key \"%.*s\" only in %s (", (int)kv.key_len, kv.key, which);
      print_kv_value(false, &kv);
      printf(")\n");
    }
    n++;
  }
  return n;
}

static int64_t kv_different(bool json, const pqt_reader *a, const pqt_reader *b) {
  int64_t n = 0;
  for (int32_t i = 0; i < pqt_reader_kv_count(a); i++) {
    pqt_kv kv, o;
    if (!kv_at(a, i, &kv) || !kv_find(b, &kv, &o) || kv_same_value(&kv, &o)) continue;
    if (json) {
      printf("%s{\"key\": ", n ? ", " : "");
      json_print_string(stdout, kv.key, kv.key_len);
      printf(", \"a\": ");
      print_kv_value(true, &kv);
      printf(", \"b\": ");
      print_kv_value(true, &o);
      printf("}");
    } else {
      printf("metadata: key \"%.*s\": A ", (int)kv.key_len, kv.key);
      print_kv_value(false, &kv);
      printf(", B ");
      print_kv_value(false, &o);
      printf("\n");
    }
    n++;
  }
  return n;
}

/* ---- the command ---- */

static int64_t rows_of(const pqt_reader *r) {
  int64_t n = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) n += pqt_reader_row_group_num_rows(r, g);
  return n;
}

typedef struct diff_args {
  bool json, metadata;
} diff_args;

static int take_diff_option(void *ctx, int id, const char *value) {
  (void)value;
  diff_args *da = ctx;
  if (id == 'j') da->json = true;
  else da->metadata = false;
  return 0;
}

int cmd_diff(int argc, char **argv) {
  const char *cmd = "diff", *path[2] = {NULL, NULL};
  row_opts o;
  row_opts_init(&o, 10);
  static const cli_opt own[] = {{"json", 0, 0, 'j'}, {"no-metadata", 0, 0, 'm'}, {0}};
  diff_args da = {false, true};
  row_command rc_args = {cmd, cmd_diff_usage, cmd_diff_summary, ROW_OPT_COLUMNS | ROW_OPT_LIMIT,
                         own, take_diff_option, &da, false};
  char **files;
  int n_paths;
  int pc = row_command_args(&rc_args, argc, argv, &o, &files, &n_paths);
  if (pc) return pc < 0 ? 0 : pc;
  if (n_paths > 2) return usage(cmd, "unexpected argument '%s'", files[2]);
  bool json = da.json, metadata = da.metadata, differ = false;
  for (int k = 0; k < n_paths; k++) path[k] = files[k];
  if (n_paths != 2) return usage(cmd, "%s", "give two files, A and B");
  row_scan rs;
  int rc = row_scan_setup(cmd, &o, false, &rs);
  if (rc) return rc;
  pqt_reader *r[2] = {NULL, NULL};
  pqt_string schema[2] = {{0}, {0}};
  diff_state d;
  memset(&d, 0, sizeof d);
  d.json = json;
  d.show = o.limit;
  for (int k = 0; k < 2 && !rc; k++) {
    if ((rc = read_open(path[k], &r[k])) != 0) break;
    pqt_error e;
    pqt_error_init(&e);
    if (pqt_reader_schema_text(r[k], &schema[k], &e) != PQT_OK) rc = read_fail(path[k], &e);
  }
  if (rc) goto out;
  /* B's columns checked (a scan of no row), then A's rows into a temporary
   * file: errors come before anything is printed */
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_write_text(r[1], &rs.so, PQT_TEXT_JSONL, 0, a_text, NULL, &e) != PQT_OK) {
    rc = e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path[1], &e);
    goto out;
  }
  /* A's rows into a temporary file, checked before anything is printed */
  d.a = tmpfile();
  if (!d.a) {
    fprintf(stderr, "parquetry: diff: cannot create a temporary file\n");
    rc = EXIT_DATA;
    goto out;
  }
  /* a progress bar on a terminal for each file's rows as they are read */
  progress_text pt;
  pqt_write_fn w = progress_text_init(&pt, PQT_TEXT_JSONL, a_text, d.a, rs.so.filter ? 0 : rows_of(r[0]));
  pqt_status wst = pqt_reader_write_text(r[0], &rs.so, PQT_TEXT_JSONL, -1, w, &pt, &e);
  progress_done(&pt.bar);
  if (wst != PQT_OK) {
    rc = e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path[0], &e);
    goto out;
  }
  if (fflush(d.a) != 0 || fseek(d.a, 0, SEEK_SET) != 0) {
    fprintf(stderr, "parquetry: diff: the temporary file failed\n");
    rc = EXIT_DATA;
    goto out;
  }
  const char *la = NULL, *lb = NULL;
  size_t na = 0, nb = 0;
  int schema_line = first_line_differing(schema[0].data, schema[1].data, &la, &na, &lb, &nb);
  int64_t rows_a = rows_of(r[0]), rows_b = rows_of(r[1]);
  int64_t kv_a = 0, kv_b = 0, kv_d = 0;
  if (json) {
    printf("{\n  \"schema\": {\"equal\": %s, \"a\": ", schema_line ? "false" : "true");
    json_print_string(stdout, schema[0].data, schema[0].len);
    printf(", \"b\": ");
    json_print_string(stdout, schema[1].data, schema[1].len);
    printf("},\n  \"metadata\": {");
    if (metadata) {
      printf("\"only_a\": [");
      kv_a = kv_only(true, r[0], r[1], "A");
      printf("], \"only_b\": [");
      kv_b = kv_only(true, r[1], r[0], "B");
      printf("], \"different\": [");
      kv_d = kv_different(true, r[0], r[1]);
      printf("], ");
    }
    printf("\"equal\": %s},\n", kv_a + kv_b + kv_d ? "false" : "true");
    printf("  \"rows\": {\"equal\": %s, \"a\": %lld, \"b\": %lld},\n", rows_a == rows_b ? "true" : "false",
           (long long)rows_a, (long long)rows_b);
    printf("  \"values\": {\"differences\": [");
  } else {
    if (schema_line) {
      printf("schema: differs at line %d\n  A: %.*s\n  B: %.*s\n", schema_line, (int)na, la, (int)nb, lb);
    }
    if (metadata) {
      kv_a = kv_only(false, r[0], r[1], "A");
      kv_b = kv_only(false, r[1], r[0], "B");
      kv_d = kv_different(false, r[0], r[1]);
    }
    if (rows_a != rows_b) printf("rows: A %lld, B %lld\n", (long long)rows_a, (long long)rows_b);
  }
  /* B's rows against A's */
  pqt_error_init(&e);
  fflush(stdout); /* what is printed so far, before the bar on stderr */
  w = progress_text_init(&pt, PQT_TEXT_JSONL, b_text, &d, rs.so.filter ? 0 : rows_b);
  wst = pqt_reader_write_text(r[1], &rs.so, PQT_TEXT_JSONL, -1, w, &pt, &e);
  progress_done(&pt.bar);
  if (wst != PQT_OK) {
    fflush(stdout);
    if (d.oom) fprintf(stderr, "parquetry: out of memory\n");
    rc = d.oom ? EXIT_DATA : e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path[1], &e);
    goto out;
  }
  if (d.b_len > 0) b_row(&d); /* (a last line without newline) */
  size_t rest;
  while (next_a(&d, &rest)) d.rows_only_a++;
  int64_t compared = d.row - d.rows_only_b;
  bool values_equal = d.rows_different == 0 && d.rows_only_a == 0 && d.rows_only_b == 0;
  bool equal = values_equal && !schema_line && kv_a + kv_b + kv_d == 0 && rows_a == rows_b;
  if (json) {
    printf(
        "%s], \"equal\": %s, \"rows_compared\": %lld, \"rows_different\": %lld, \"rows_only_a\": %lld, "
        "\"rows_only_b\": %lld},\n  \"equal\": %s\n}\n",
        d.shown_differences ? "\n  " : "", values_equal ? "true" : "false", (long long)compared,
        (long long)d.rows_different, (long long)d.rows_only_a, (long long)d.rows_only_b, equal ? "true" : "false");
  } else {
    if (d.rows_only_a) printf("rows: the last %lld only in A\n", (long long)d.rows_only_a);
    if (d.rows_only_b) printf("rows: the last %lld only in B\n", (long long)d.rows_only_b);
    if (equal) {
      printf("%s and %s are equal (%lld rows)\n", path[0], path[1], (long long)rows_a);
    } else {
      printf("%s and %s differ:", path[0], path[1]);
      const char *sep = " ";
      if (schema_line) printf("%sschema", sep), sep = ", ";
      if (kv_a + kv_b + kv_d) printf("%smetadata", sep), sep = ", ";
      if (rows_a != rows_b) printf("%srow count", sep), sep = ", ";
      if (d.rows_different) {
        printf("%svalues (%lld of %lld rows compared differ", sep, (long long)d.rows_different, (long long)compared);
        if (d.rows_different > d.show) printf("; the first %lld shown", (long long)d.show);
        printf(")");
      }
      printf("\n");
    }
  }
  differ = !equal;
out:
  if (d.a) fclose(d.a);
  free(d.a_line);
  free(d.b_line);
  free(d.fa.items);
  free(d.fb.items);
  for (int k = 0; k < 2; k++) {
    pqt_string_free(&schema[k]);
    if (r[k]) pqt_reader_close(r[k]);
  }
  row_scan_free(&rs);
  fflush(stdout);
  if (rc) return EXIT_TROUBLE; /* a usage error, or a file that cannot be read (1 means "different") */
  rc = read_finish(path[1], 0);
  return rc ? rc : differ ? 1 : 0;
}
