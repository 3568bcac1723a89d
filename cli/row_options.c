/*
 * cli/row_options.c: the options of the commands that print or export rows
 * (cat, head, count, tail, sample, export, diff): -c/--columns, -n/--limit,
 * --format, --where, --stats, --rows, --offset, --bbox; what they become in pqt_scan_options; and a
 * filter over the text pqt_reader_write_text produces that keeps chosen
 * records (rows) by their index and drops the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_filter.h"

#include "cli.h"
#include "geo_stats.h"

void row_opts_init(row_opts *o, int64_t default_limit) {
  memset(o, 0, sizeof *o);
  o->limit = default_limit;
}

static int parse_count(const char *cmd, const char *s, int64_t *out) {
  char *end;
  long long v = strtoll(s, &end, 10);
  if (!*s || *end || v < 0) return usage(cmd, "not a row count: '%s'", s);
  *out = v;
  return 0;
}

/* The row options, matched by opt.c's parser (cli_match): ids are the
 * ROW_OPT_* flags that accept them (--offset shares ROW_OPT_RANGES with
 * --rows, so it gets an id of its own). */
enum { ROW_ID_OFFSET = 1 << 16 };
static const struct {
  unsigned flag;
  cli_opt opt;
} row_opt_table[] = {
    {ROW_OPT_COLUMNS, {"columns", 'c', 1, ROW_OPT_COLUMNS}},
    {ROW_OPT_LIMIT, {"limit", 'n', 1, ROW_OPT_LIMIT}},
    {ROW_OPT_FORMAT, {"format", 0, 1, ROW_OPT_FORMAT}},
    {ROW_OPT_WHERE, {"where", 0, 1, ROW_OPT_WHERE}},
    {ROW_OPT_STATS, {"stats", 0, 0, ROW_OPT_STATS}},
    {ROW_OPT_RANGES, {"rows", 0, 1, ROW_OPT_RANGES}},
    {ROW_OPT_RANGES, {"offset", 0, 1, ROW_ID_OFFSET}},
    {ROW_OPT_BBOX, {"bbox", 0, 1, ROW_OPT_BBOX}},
};
#define ROW_OPT_N (sizeof row_opt_table / sizeof row_opt_table[0])

int row_option(const char *cmd, int argc, char **argv, int *i, unsigned accept, row_opts *o) {
  cli_opt opts[ROW_OPT_N + 1];
  size_t n = 0;
  for (size_t k = 0; k < ROW_OPT_N; k++)
    if (accept & row_opt_table[k].flag) opts[n++] = row_opt_table[k].opt;
  memset(&opts[n], 0, sizeof opts[n]);
  char *v = NULL;
  int id = cli_match(cmd, argc, argv, i, opts, &v);
  switch (id) {
    case 0: return 0;
    case CLI_ERROR: return 2;
    case ROW_OPT_STATS: o->stats = true; return 1;
    case ROW_OPT_COLUMNS: o->columns = v; return 1;
    case ROW_OPT_FORMAT: o->format = v; return 1;
    case ROW_OPT_WHERE: o->where = v; return 1;
    case ROW_OPT_LIMIT:
      if (parse_count(cmd, v, &o->limit) != 0) return 2;
      o->limit_given = true;
      return 1;
    case ROW_OPT_RANGES:
      if (parse_row_spans(v, o->spans, ROW_SPANS_MAX, &o->n_spans) == 0) return 1;
      usage(cmd, "bad --rows '%s' (A-B: rows A to B-1; A-: from A on; ranges sorted, comma separated)", v);
      return 2;
    case ROW_ID_OFFSET: return parse_count(cmd, v, &o->offset) == 0 ? 1 : 2;
    default: /* ROW_OPT_BBOX */
      if (geo_bbox_parse(cmd, v, o->bbox) != 0) return 2;
      o->has_bbox = true;
      return 1;
  }
}

int row_text_format(const char *cmd, const char *format, pqt_text_format *out) {
  if (!format || strcmp(format, "jsonl") == 0 || strcmp(format, "json") == 0) *out = PQT_TEXT_JSONL;
  else if (strcmp(format, "csv") == 0) *out = PQT_TEXT_CSV;
  else return usage(cmd, "unknown format '%s' (jsonl or csv)", format);
  return 0;
}

/* Split "a,b.c" into an array of names (pointers into the mutable copy). */
static int split_columns(char *list, const char ***out, int32_t *n) {
  int32_t cap = 1;
  for (char *p = list; *p; p++) cap += *p == ',';
  const char **names = calloc((size_t)cap, sizeof *names);
  if (!names) return -1;
  int32_t k = 0;
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) names[k++] = tok;
  *out = names;
  *n = k;
  return 0;
}

/* The row ranges --rows, --offset (and --limit, when asked) select. */
static void row_scan_ranges(const row_opts *o, bool limit_as_ranges, row_scan *s) {
  pqt_row_span *spans = s->spans;
  int32_t n_spans = o->n_spans;
  memcpy(spans, o->spans, (size_t)n_spans * sizeof *spans);
  /* --offset N: rows from position N on (within --rows when given) */
  if (o->offset > 0 && n_spans == 0) spans[n_spans++] = (pqt_row_span){0, INT64_MAX};
  if (o->offset > 0) {
    int32_t k = 0;
    for (int32_t j = 0; j < n_spans; j++) {
      pqt_row_span sp = spans[j];
      if (sp.first + sp.count <= o->offset) continue;
      if (sp.first < o->offset) {
        sp.count -= o->offset - sp.first;
        sp.first = o->offset;
      }
      spans[k++] = sp;
    }
    n_spans = k;
    if (n_spans == 0) spans[n_spans++] = (pqt_row_span){o->offset, 0}; /* nothing */
  }
  /* without a predicate, --limit N: the first N rows of the selection only */
  if (limit_as_ranges && !o->where && !o->has_bbox && o->limit >= 0 &&
      read_options()->on_error != PQT_SKIP_CORRUPT) {
    if (n_spans == 0) spans[n_spans++] = (pqt_row_span){0, INT64_MAX};
    int64_t left = o->limit;
    int32_t k = 0;
    for (int32_t j = 0; j < n_spans && left > 0; j++) {
      if (spans[j].count > left) spans[j].count = left;
      left -= spans[j].count;
      spans[k++] = spans[j];
    }
    if (k == 0) spans[k++] = (pqt_row_span){0, 0};
    n_spans = k;
  }
  s->n_spans = n_spans;
  s->so.row_ranges = n_spans ? spans : NULL;
  s->so.n_row_ranges = n_spans;
}

int row_scan_bind_bbox(const char *cmd, const row_opts *o, pqt_reader *r, row_scan *s) {
  if (!o->has_bbox) return 0;
  int rc = geo_bbox_filter(cmd, r, o->bbox, &s->filter);
  s->so.filter = s->filter;
  return rc;
}

int row_scan_setup(const char *cmd, const row_opts *o, bool limit_as_ranges, row_scan *s) {
  memset(s, 0, sizeof *s);
  pqt_scan_options_init(&s->so);
  s->so.stats = &s->stats;
  row_scan_ranges(o, limit_as_ranges, s);
  if (o->where) {
    pqt_error pe;
    pqt_error_init(&pe);
    if (pqt_expr_parse(o->where, strlen(o->where), &s->filter, &pe) != PQT_OK)
      return usage(cmd, "--where: %s", pe.message);
    s->so.filter = s->filter;
  }
  if (o->columns) {
    s->cols_copy = strdup(o->columns);
    if (!s->cols_copy || split_columns(s->cols_copy, &s->names, &s->so.n_columns) != 0) {
      row_scan_free(s);
      fprintf(stderr, "parquetry: out of memory\n");
      return EXIT_DATA;
    }
    s->so.columns = s->names;
  }
  return 0;
}

void row_scan_free(row_scan *s) {
  pqt_expr_free(s->filter);
  free(s->names);
  free(s->cols_copy);
  s->filter = NULL;
  s->names = NULL;
  s->cols_copy = NULL;
}

void row_scan_print_stats(const row_scan *s) {
  char line[256];
  pqt_scan_stats_format(&s->stats, line, sizeof line);
  fflush(stdout);
  fprintf(stderr, "%s\n", line);
}

/* ---- row groups from the footer's counts ------------------------------------ */

int row_group_counts(const char *cmd, const char *path, pqt_reader *r, const pqt_scan_options *so, int64_t *counts) {
  int32_t n = pqt_reader_num_row_groups(r);
  for (int32_t g = 0; g < n; g++) {
    int rc = row_group_count(cmd, path, r, so, g, &counts[g]);
    if (rc) return rc;
  }
  return 0;
}

int row_group_count(const char *cmd, const char *path, pqt_reader *r, const pqt_scan_options *so, int32_t g,
                    int64_t *count) {
  int64_t n = pqt_reader_row_group_num_rows(r, g);
  if (n < 0) {
    fprintf(stderr, "parquetry: %s: row group %d: negative row count %lld\n", path, g, (long long)n);
    return EXIT_DATA;
  }
  *count = n;
  if (!so->filter) return 0;
  pqt_scan_options one = *so;
  one.row_groups = &g;
  one.n_row_groups = 1;
  one.stats = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_count(r, &one, count, &e) != PQT_OK)
    return e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path, &e);
  return 0;
}

/* ---- the argument loop of tail, sample, export and diff ---------------------- */

/* The long name a mistyped option may have meant, into out ("" none). */
static const char *closest_option(const row_command *c, const char *typed, char *out, size_t cap) {
  const char *names[ROW_OPT_N + 16];
  char buf[ROW_OPT_N + 16][32];
  int n = 0;
  for (size_t k = 0; k < ROW_OPT_N; k++)
    if (c->accept & row_opt_table[k].flag) names[n++] = row_opt_table[k].opt.name;
  for (const cli_opt *p = c->own; p && p->id && n < (int)(sizeof names / sizeof names[0]); p++)
    if (p->name) names[n++] = p->name;
  for (int k = 0; k < n; k++) {
    snprintf(buf[k], sizeof buf[k], "--%s", names[k]);
    names[k] = buf[k];
  }
  const char *near = cli_closest(typed, names, n);
  snprintf(out, cap, "%s", near ? near : "");
  return out[0] ? out : NULL;
}

int row_command_args(const row_command *c, int argc, char **argv, row_opts *o, char ***files, int *n_files) {
  const char *cmd = c->cmd;
  char **kept = argv + 1; /* argv's slots already read */
  int n = 0;
  bool options = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = false;
      continue;
    }
    if (options && a[0] == '-' && a[1]) {
      if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
        printf("usage: %s\n\n%s\n", c->usage_text, c->summary);
        return -1;
      }
      int ro = read_option(cmd, argc, argv, &i);
      if (ro == 0) ro = row_option(cmd, argc, argv, &i, c->accept, o);
      if (ro == 2) return EXIT_USAGE;
      if (ro == 1) continue;
      if (c->own) {
        char *v = NULL;
        int id = cli_match(cmd, argc, argv, &i, c->own, &v);
        if (id == CLI_ERROR) return EXIT_USAGE;
        if (id > 0) {
          int rc = c->take(c->ctx, id, v);
          if (rc) return rc;
          continue;
        }
      }
      if (!c->keep_unknown) {
        char buf[40];
        const char *near = closest_option(c, a, buf, sizeof buf);
        if (near) return usage(cmd, "unknown option '%s' (did you mean '%s'?)", a, near);
        return usage(cmd, "unknown or incomplete option '%s'", a);
      }
    }
    kept[n++] = argv[i];
  }
  *files = kept;
  *n_files = n;
  return 0;
}

int row_command_scan(const char *cmd, const row_opts *o, pqt_text_format *fmt, row_scan *rs) {
  if (row_text_format(cmd, o->format, fmt)) return EXIT_USAGE;
  return row_scan_setup(cmd, o, false, rs);
}

/* ---- rows as text, some of them kept ----------------------------------------- */

static pqt_status rows_to_stdout(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

int row_write_selected(const char *cmd, const char *path, pqt_reader *r, pqt_dataset *ds, row_scan *rs,
                       pqt_text_format fmt, int64_t limit, bool (*keep)(void *kctx, int64_t record), void *kctx,
                       int64_t expect, bool read_none) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st;
  if (read_none) { /* no row: the CSV header alone, and the columns checked */
    st = ds ? pqt_dataset_write_text(ds, &rs->so, fmt, 0, rows_to_stdout, NULL, &e)
            : pqt_reader_write_text(r, &rs->so, fmt, 0, rows_to_stdout, NULL, &e);
  } else {
    progress_text pt; /* a progress bar on a terminal, by the rows read */
    pqt_write_fn w = keep ? progress_text_init_keep(&pt, fmt, rows_to_stdout, NULL, keep, kctx, expect)
                          : progress_text_init(&pt, fmt, rows_to_stdout, NULL, expect);
    st = ds ? pqt_dataset_write_text(ds, &rs->so, fmt, limit, w, &pt, &e)
            : pqt_reader_write_text(r, &rs->so, fmt, limit, w, &pt, &e);
    progress_done(&pt.bar);
  }
  if (st == PQT_OK) return 0;
  fflush(stdout);
  if (e.code == PQT_EINVAL) return usage(cmd, "%s", e.message);
  if (ds) { /* the dataset's messages name the file */
    fprintf(stderr, "parquetry: %s\n", e.message);
    return EXIT_DATA;
  }
  return read_fail(path, &e);
}
