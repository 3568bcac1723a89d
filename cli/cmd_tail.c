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
    "  --stats               at the end, on stderr: what was read (as for cat)\n\n"
    "Several FILEs, directories and globs: read as one table as cat reads them; the\n"
    "last N rows of the whole (every file is read)." READ_OPTIONS_HELP;
const char cmd_tail_usage[] = "parquetry tail [-n N] [-c a,b.c] [--format F] [--where EXPR] FILE...";

static bool keep_from(void *kctx, int64_t record) { return record >= *(const int64_t *)kctx; }

/* Several files: the last N rows of them all, read as one table (cat's
 * schema unification); the rows before them are read and dropped. */
static int tail_many(const char *cmd, char *const *files, int n_files, const row_opts *o, row_scan *rs,
                     pqt_text_format fmt) {
  pqt_dataset_fs fs;
  pqt_dataset *ds = NULL;
  read_begin(files[0]);
  int rc = dataset_open_inputs(cmd, (const char *const *)files, n_files, NULL, &fs, &ds);
  int64_t total = 0;
  if (!rc) read_add_rows(pqt_dataset_num_rows(ds));
  if (!rc) rc = dataset_rows(cmd, ds, rs, &total);
  if (!rc) {
    int64_t from = total > o->limit ? total - o->limit : 0;
    bool none = o->limit == 0 || total == 0;
    rc = row_write_selected(cmd, files[0], NULL, ds, rs, fmt, -1, keep_from, &from, total, none);
  }
  if (!rc && o->stats) row_scan_print_stats(rs);
  pqt_dataset_close(ds);
  fflush(stdout);
  return read_finish(files[0], rc);
}

int cmd_tail(int argc, char **argv) {
  const char *cmd = "tail", *path = NULL;
  row_opts o;
  row_opts_init(&o, 10);
  row_command rc_args = {cmd, cmd_tail_usage, cmd_tail_summary,
                         ROW_OPT_COLUMNS | ROW_OPT_LIMIT | ROW_OPT_FORMAT | ROW_OPT_WHERE | ROW_OPT_STATS,
                         NULL, NULL, NULL, false};
  char **files;
  int n_files;
  int pc = row_command_args(&rc_args, argc, argv, &o, &files, &n_files);
  if (pc) return pc < 0 ? 0 : pc;
  if (n_files == 0) return usage(cmd, "%s", "missing FILE");
  path = files[0];
  pqt_text_format fmt;
  row_scan rs;
  int rc = row_command_scan(cmd, &o, &fmt, &rs);
  if (rc) return rc;
  if (dataset_inputs_many(files, n_files)) {
    rc = tail_many(cmd, files, n_files, &o, &rs, fmt);
    row_scan_free(&rs);
    return rc;
  }
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
  bool none = !(n_read > 0 && o.limit > 0);
  if (!none) {
    rs.so.row_groups = groups;
    rs.so.n_row_groups = n_read;
  }
  rc = row_write_selected(cmd, path, r, NULL, &rs, fmt, -1, keep_from, &drop, have < o.limit ? have : o.limit, none);
  if (!rc && o.stats) row_scan_print_stats(&rs);
out:
  if (r) pqt_reader_close(r);
  free(groups);
  row_scan_free(&rs);
  fflush(stdout);
  return read_finish(path, rc);
}
