/*
 * cli/cmd_tail.c: `parquetry tail`, the last N rows. The footer's row
 * counts say which row groups hold them: only those are read (with --where,
 * row groups are counted from the last one back until enough rows match),
 * and the rows before the last N in the first of them are dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

#include "cli.h"

const char cmd_tail_summary[] =
    "Print the last rows (10 unless -n says otherwise), one JSON object per line (or\n"
    "CSV). Only the row groups that hold them are read: the footer's row counts say\n"
    "which (with --where, the rows that match are counted in each row group from the\n"
    "last one back).\n\n"
    "  -n, --limit N         the last N rows\n"
    "  -c, --columns a,b.c   only these columns (top-level names or dotted paths)\n"
    "  --format jsonl|csv    output format (default jsonl)\n"
    "  --where EXPR          the last N rows where EXPR is true (as for cat)\n"
    "  --stats               at the end, on stderr: what was read (as for cat)" READ_OPTIONS_HELP;
const char cmd_tail_usage[] = "parquetry tail [-n N] [-c a,b.c] [--format jsonl|csv] [--where EXPR] FILE";

static pqt_status to_stdout(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

static bool keep_from(void *kctx, int64_t record) { return record >= *(const int64_t *)kctx; }

int cmd_tail(int argc, char **argv) {
  const char *cmd = "tail", *path = NULL;
  row_opts o;
  row_opts_init(&o, 10);
  bool options = true; /* until "--" */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (options && strcmp(a, "--") == 0) {
      options = false;
      continue;
    }
    if (!options) {
      if (path) return usage(cmd, "unexpected argument '%s'", a);
      path = a;
      continue;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      printf("usage: %s\n\n%s\n", cmd_tail_usage, cmd_tail_summary);
      return 0;
    }
    int ro = read_option(cmd, argc, argv, &i);
    if (ro == 0)
      ro = row_option(cmd, argc, argv, &i,
                      ROW_OPT_COLUMNS | ROW_OPT_LIMIT | ROW_OPT_FORMAT | ROW_OPT_WHERE | ROW_OPT_STATS, &o);
    if (ro == 2) return EXIT_USAGE;
    if (ro == 1) continue;
    if (a[0] == '-' && a[1]) return usage(cmd, "unknown or incomplete option '%s'", a);
    else if (path) return usage(cmd, "unexpected argument '%s'", a);
    else path = a;
  }
  if (!path) return usage(cmd, "%s", "missing FILE");
  pqt_text_format fmt;
  if (row_text_format(cmd, o.format, &fmt)) return EXIT_USAGE;
  row_scan rs;
  int rc = row_scan_setup(cmd, &o, false, &rs);
  if (rc) return rc;
  pqt_reader *r = NULL;
  int32_t *groups = NULL;
  rc = read_open(path, &r);
  if (rc) goto out;
  int32_t n_groups = pqt_reader_num_row_groups(r);
  groups = calloc((size_t)(n_groups ? n_groups : 1), sizeof *groups);
  if (!groups) {
    fprintf(stderr, "parquetry: out of memory\n");
    rc = EXIT_DATA;
    goto out;
  }
  /* from the last row group back until they hold N rows */
  int64_t have = 0;
  int32_t first = n_groups;
  while (first > 0 && have < o.limit) {
    int64_t n;
    if ((rc = row_group_count(cmd, path, r, &rs.so, first - 1, &n)) != 0) goto out;
    have += n;
    first--;
  }
  int32_t n_read = 0;
  for (int32_t g = first; g < n_groups; g++) groups[n_read++] = g;
  int64_t drop = have > o.limit ? have - o.limit : 0;
  pqt_row_span last_rows;
  if (n_read > 0 && o.limit > 0 && !rs.so.filter && read_options()->on_error != PQT_SKIP_CORRUPT) {
    /* no predicate: the last N rows are a row range, read by the pages of
     * the offset index that hold them (not decoded from the start of the
     * first row group) */
    int64_t total = 0;
    for (int32_t g = 0; g < n_groups; g++) total += pqt_reader_row_group_num_rows(r, g);
    last_rows = (pqt_row_span){total - (have - drop), have - drop};
    rs.so.row_ranges = &last_rows;
    rs.so.n_row_ranges = 1;
    drop = 0;
  }
  if (n_read > 0 && o.limit > 0) {
    rs.so.row_groups = groups;
    rs.so.n_row_groups = n_read;
    progress_text pt; /* a progress bar on a terminal, by the rows read */
    pqt_write_fn w = progress_text_init(&pt, fmt, to_stdout, NULL, have < o.limit ? have : o.limit);
    text_select sel;
    text_select_init(&sel, fmt, w, &pt, keep_from, &drop);
    pqt_error e;
    pqt_error_init(&e);
    pqt_status ts = pqt_reader_write_text(r, &rs.so, fmt, -1, text_select_write, &sel, &e);
    progress_done(&pt.bar);
    if (ts != PQT_OK) {
      fflush(stdout);
      rc = e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path, &e);
      goto out;
    }
  } else {
    /* no row: the CSV header alone, and the columns checked (a scan of no row) */
    pqt_error e;
    pqt_error_init(&e);
    if (pqt_reader_write_text(r, &rs.so, fmt, 0, to_stdout, NULL, &e) != PQT_OK) {
      fflush(stdout);
      rc = e.code == PQT_EINVAL ? usage(cmd, "%s", e.message) : read_fail(path, &e);
      goto out;
    }
  }
  if (o.stats) row_scan_print_stats(&rs);
out:
  if (r) pqt_reader_close(r);
  free(groups);
  row_scan_free(&rs);
  fflush(stdout);
  return read_finish(path, rc);
}
