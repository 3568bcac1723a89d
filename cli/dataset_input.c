/*
 * cli/dataset_input.c: several files, directories and globs as the input of
 * the reading commands (include/parquetry_dataset.h). cat, head and count
 * read them as one table (Hive partition directories as columns, schemas
 * unified); meta takes each file in turn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parquetry.h"
#include "parquetry_dataset.h"
#include "parquetry_remote.h"

#include "cli.h"

bool dataset_input_many(const char *arg) {
  /* an http(s) URL names one object; its '?' starts a query, not a glob */
  if (strncmp(arg, "http://", 7) == 0 || strncmp(arg, "https://", 8) == 0) return false;
  struct stat sb;
  if (pqt_is_url(arg)) { /* an s3:// prefix ("dir/") or glob; one object otherwise */
    size_t n = strlen(arg);
    return strncmp(arg, "s3://", 5) == 0 && (arg[n - 1] == '/' || strpbrk(arg + 5, "*?[") != NULL);
  }
  if (stat(arg, &sb) == 0) return S_ISDIR(sb.st_mode);
  return strpbrk(arg, "*?[") != NULL; /* a glob (a file of that name would have been taken as is) */
}

static pqt_status write_out(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

/* A failed query: a predicate or projection the dataset does not fit is a
 * usage error; the rest (and every failure to open: files whose schemas or
 * partitions do not fit together) is about the data. */
static int ds_fail(const char *cmd, const pqt_error *e, bool query) {
  fflush(stdout);
  if (query && e->code == PQT_EINVAL) return usage(cmd, "%s", e->message);
  fprintf(stderr, "parquetry: %s\n", e->message);
  return EXIT_DATA;
}

int dataset_run_rows(const char *cmd, const char *const *inputs, int n, bool count, bool json, const row_opts *ropt,
                     pqt_text_format fmt) {
  bool remote = false;
  for (int i = 0; i < n; i++) { /* "-- a.parquet --json": an option after --, not a file */
    struct stat sb;
    if (pqt_is_url(inputs[i])) remote = true;
    if (inputs[i][0] == '-' && stat(inputs[i], &sb) != 0)
      return usage(cmd, "unexpected argument '%s' (no such file; options go before --)", inputs[i]);
  }
  if (ropt->n_spans > 0 || ropt->offset > 0) return usage(cmd, "%s", "--rows and --offset take one file, not several");
  if (ropt->has_bbox) return usage(cmd, "%s", "--bbox takes one file, not several (use --where ST_Intersects)");
  row_opts o = *ropt;
  row_scan rs;
  int rc = row_scan_setup(cmd, &o, false, &rs);
  if (rc) return rc;
  read_begin(inputs[0]);
  pqt_dataset_options dopt;
  pqt_dataset_options_init(&dopt);
  dopt.read = read_options();
  pqt_dataset_fs rfs;
  if (remote) { /* s3:// prefixes listed, URLs opened through io/ */
    pqt_dataset_fs_remote(&rfs, cli_remote_options());
    dopt.fs = &rfs;
  }
  pqt_dataset *ds = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_dataset_open(&ds, inputs, n, &dopt, &e) != PQT_OK) {
    row_scan_free(&rs);
    return ds_fail(cmd, &e, false);
  }
  read_add_rows(pqt_dataset_num_rows(ds));
  pqt_status st;
  if (count) {
    int64_t rows = 0;
    st = pqt_dataset_count(ds, &rs.so, &rows, &e);
    if (st == PQT_OK) {
      if (ropt->limit >= 0 && rows > ropt->limit) rows = ropt->limit;
      if (json) printf("{\"rows\": %lld}\n", (long long)rows);
      else printf("%lld\n", (long long)rows);
    }
  } else {
    /* a progress bar on a terminal, by the rows of the whole dataset (known
     * ahead without a predicate: the footers' counts) */
    int64_t expect = rs.so.filter ? 0 : pqt_dataset_num_rows(ds);
    if (ropt->limit >= 0 && ropt->limit < expect) expect = ropt->limit;
    progress_text pt;
    pqt_write_fn w = progress_text_init(&pt, fmt, write_out, NULL, expect);
    st = pqt_dataset_write_text(ds, &rs.so, fmt, ropt->limit, w, &pt, &e);
    progress_done(&pt.bar);
  }
  rc = st == PQT_OK ? 0 : ds_fail(cmd, &e, true);
  if (ropt->stats && st == PQT_OK) row_scan_print_stats(&rs);
  pqt_dataset_close(ds);
  row_scan_free(&rs);
  fflush(stdout);
  return read_finish(inputs[0], rc);
}

int dataset_each_file(const char *cmd, const char *const *inputs, int n, int (*fn)(const char *path, void *ctx),
                      void *ctx) {
  char **paths = NULL;
  int32_t np = 0;
  pqt_error e;
  pqt_error_init(&e);
  pqt_dataset_options dopt;
  pqt_dataset_options_init(&dopt);
  pqt_dataset_fs rfs;
  for (int i = 0; i < n; i++)
    if (pqt_is_url(inputs[i])) {
      pqt_dataset_fs_remote(&rfs, cli_remote_options());
      dopt.fs = &rfs;
    }
  if (pqt_dataset_list(inputs, n, &dopt, &paths, &np, &e) != PQT_OK) return ds_fail(cmd, &e, false);
  int worst = 0;
  for (int32_t i = 0; i < np; i++) {
    int rc = fn(paths[i], ctx);
    if (rc > worst) worst = rc;
  }
  pqt_dataset_list_free(paths, np);
  return worst;
}

bool dataset_inputs_many(char *const *inputs, int n) { return n > 1 || (n == 1 && dataset_input_many(inputs[0])); }

int dataset_open_inputs(const char *cmd, const char *const *inputs, int n, const pqt_read_options *ro,
                        pqt_dataset_fs *fs, pqt_dataset **ds) {
  *ds = NULL;
  pqt_dataset_options dopt;
  pqt_dataset_options_init(&dopt);
  dopt.read = ro ? ro : read_options();
  for (int i = 0; i < n; i++) {
    struct stat sb;
    if (inputs[i][0] == '-' && stat(inputs[i], &sb) != 0)
      return usage(cmd, "unexpected argument '%s' (no such file; options go before --)", inputs[i]);
    if (pqt_is_url(inputs[i])) { /* s3:// prefixes listed, URLs opened through io/ */
      pqt_dataset_fs_remote(fs, cli_remote_options());
      dopt.fs = fs;
    }
  }
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_dataset_open(ds, inputs, n, &dopt, &e) != PQT_OK) {
    *ds = NULL;
    return ds_fail(cmd, &e, false);
  }
  return 0;
}

int dataset_rows(const char *cmd, pqt_dataset *ds, row_scan *rs, int64_t *rows) {
  if (!rs->so.filter) {
    *rows = pqt_dataset_num_rows(ds);
    return 0;
  }
  pqt_scan_options so = rs->so;
  so.stats = NULL; /* --stats counts what the rows' scan reads */
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_dataset_count(ds, &so, rows, &e) != PQT_OK) return ds_fail(cmd, &e, true);
  return 0;
}
