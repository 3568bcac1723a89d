/*
 * cli/cmd_concat.c: `parquetry concat`: the row groups of files with the
 * same schema, one file after the other, without re-encoding (the column
 * chunks are copied byte for byte; statistics, page indexes and Bloom
 * filters are carried). Also the copy that `prune` shares.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_edit.h"

#include "cli.h"
#include "edit.h"

const char cmd_concat_summary[] =
    "Append the row groups of files with the same schema into one file without\n"
    "re-encoding: every page is copied byte for byte, and the statistics, page\n"
    "indexes, Bloom filters and key-value metadata of each column chunk are carried\n"
    "(the file's key-value metadata is the first input's). Schemas are compared\n"
    "field by field (names, repetition, types, logical types, field ids): a\n"
    "difference is an error naming both files and the first field that differs.\n"
    "Encrypted inputs are refused. OUT appears only when complete.\n\n"
    "  -o, --output OUT      the file to write (required)\n"
    "  --metadata-only       write a summary file instead: a footer whose column\n"
    "                        chunks name the inputs (ColumnChunk.file_path, relative\n"
    "                        to OUT's directory; every input must lie under it), no\n"
    "                        pages copied; reading OUT reads the inputs\n"
    "  --json                what was written as one JSON object: output, inputs,\n"
    "                        rows, row_groups, columns, chunk_bytes, page_indexes,\n"
    "                        bloom_filters" READ_OPTIONS_HELP;
const char cmd_concat_usage[] = "parquetry concat [--json] -o OUT.parquet FILE.parquet...";

bool edit_common_flag(const char *a, bool *opts_done, bool *json) {
  if (*opts_done) return false;
  if (strcmp(a, "--") == 0) *opts_done = true;
  else if (strcmp(a, "--json") == 0) *json = true;
  else return false;
  return true;
}

int edit_output_option(const char *cmd, int argc, char **argv, int *i, const char **out) {
  const char *a = argv[*i];
  const char *v = NULL;
  if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
    if (*i + 1 >= argc) {
      usage(cmd, "option '%s' needs a value (the output file)", a);
      return 2;
    }
    v = argv[++*i];
  } else if (strncmp(a, "--output=", 9) == 0) {
    v = a + 9;
  } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
    v = a + 2;
  } else {
    return 0;
  }
  if (!*v || *out) {
    usage(cmd, "%s", *v ? "give the output file once" : "empty output file name");
    return 2;
  }
  *out = v;
  return 1;
}

const char *edit_count_text(int64_t v, char *buf, size_t cap) {
  char digits[32];
  int nd = snprintf(digits, sizeof digits, "%llu", v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
  size_t at = 0;
  if (v < 0 && at + 1 < cap) buf[at++] = '-';
  for (int i = 0; i < nd && at + 2 < cap; i++) {
    if (i > 0 && (nd - i) % 3 == 0) buf[at++] = ',';
    buf[at++] = digits[i];
  }
  buf[at] = 0;
  return buf;
}

const char *edit_size_text(int64_t bytes, char *buf, size_t cap) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) {
    snprintf(buf, cap, "%lld B", (long long)bytes);
    return buf;
  }
  double v = (double)bytes / 1024.0;
  int u = 0;
  while (v >= 1024.0 && u < 3) v /= 1024.0, u++;
  snprintf(buf, cap, "%.1f %s", v, units[u]);
  return buf;
}

static void json_string(const char *s) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') printf("\\%c", *p);
    else if (*p < 0x20) printf("\\u%04x", *p);
    else putchar(*p);
  }
  putchar('"');
}

/* pqt_edit_options.progress: the row groups copied, on the bar */
static void edit_progress(void *ctx, int64_t done, int64_t total) {
  progress *bar = ctx;
  if (bar->total != total) progress_add_total(bar, total - bar->total);
  progress_update(bar, done);
}

int edit_copy(const char *cmd, const char *out, const char *const *inputs, int n, const char *const *drop, int n_drop,
              bool json) {
  pqt_reader **rs = calloc((size_t)(n > 0 ? n : 1), sizeof(pqt_reader *));
  if (!rs) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  int rc = 0;
  int64_t rows_in = 0;
  for (int i = 0; i < n && !rc; i++) {
    rc = read_open(inputs[i], &rs[i]);
    for (int32_t g = 0; !rc && g < pqt_reader_num_row_groups(rs[i]); g++)
      rows_in += pqt_reader_row_group_num_rows(rs[i], g);
  }
  if (!rc) {
    pqt_edit_options o;
    pqt_edit_options_init(&o);
    o.input_names = inputs;
    o.drop_columns = drop;
    o.n_drop_columns = n_drop;
    progress bar; /* a progress bar on a terminal, by the row groups copied */
    progress_init_unit(&bar, PROGRESS_ROW_GROUPS, 0);
    o.progress = edit_progress;
    o.progress_ctx = &bar;
    pqt_edit_report rep;
    pqt_edit_report_init(&rep);
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = pqt_edit_copy_file(out, rs, n, &o, &rep, &e);
    progress_done(&bar);
    if (st == PQT_EINVAL && drop) {
      rc = usage(cmd, "%s", e.message); /* a -c that names no column */
    } else if (st != PQT_OK) {
      /* the message names the input (and row group, column) or output it is about */
      char msg[sizeof e.message];
      snprintf(msg, sizeof msg, "%s", e.message);
      name_codes(msg, sizeof msg);
      fprintf(stderr, "parquetry: %s\n", msg);
      rc = EXIT_DATA;
    } else if (rep.rows != rows_in) {
      fprintf(stderr, "parquetry: %s: %s holds %lld rows, the inputs %lld\n", cmd, out, (long long)rep.rows,
              (long long)rows_in);
      rc = EXIT_DATA;
    } else if (json) {
      printf("{\"output\": ");
      json_string(out);
      printf(", \"inputs\": [");
      for (int i = 0; i < n; i++) {
        if (i) printf(", ");
        json_string(inputs[i]);
      }
      printf(
          "], \"rows\": %lld, \"row_groups\": %d, \"columns\": %d, \"chunk_bytes\": %lld, "
          "\"page_indexes\": %lld, \"bloom_filters\": %lld}\n",
          (long long)rep.rows, (int)rep.row_groups, (int)rep.columns, (long long)rep.chunk_bytes,
          (long long)rep.page_indexes, (long long)rep.bloom_filters);
    } else {
      char rows[32], size[32];
      printf("%s: %s rows in %d row group%s, %d column%s, from %d file%s\n", out,
             edit_count_text(rep.rows, rows, sizeof rows), (int)rep.row_groups, rep.row_groups == 1 ? "" : "s",
             (int)rep.columns, rep.columns == 1 ? "" : "s", n, n == 1 ? "" : "s");
      printf("  %s of pages copied unchanged, %lld page indexes, %lld Bloom filters\n",
             edit_size_text(rep.chunk_bytes, size, sizeof size), (long long)rep.page_indexes,
             (long long)rep.bloom_filters);
    }
  }
  for (int i = 0; i < n; i++)
    if (rs[i]) pqt_reader_close(rs[i]);
  free(rs);
  return rc;
}

/* concat --metadata-only: a footer over the inputs, each named relative to OUT's directory. */
static int write_summary(const char *out, const char *const *inputs, int n) {
  if (!out || n <= 0) return EXIT_USAGE; /* (the caller checked both) */
  pqt_reader **rs = calloc((size_t)n, sizeof(pqt_reader *));
  char **refs = calloc((size_t)n, sizeof(char *));
  char *dir = NULL;
  int rc = rs && refs ? 0 : EXIT_DATA;
  if (!rc) { /* OUT's directory, resolved */
    const char *slash = strrchr(out, '/');
    char *d = slash ? strndup(out, (size_t)(slash - out) + (slash == out)) : strdup(".");
    dir = d ? realpath(d, NULL) : NULL;
    if (!dir) {
      fprintf(stderr, "parquetry: concat: %s: cannot resolve the output's directory\n", out);
      rc = EXIT_DATA;
    }
    free(d);
  }
  size_t dl = dir ? strlen(dir) : 0;
  for (int i = 0; i < n && !rc; i++) {
    char *real = realpath(inputs[i], NULL);
    if (!real) {
      fprintf(stderr, "parquetry: concat: %s: no such file\n", inputs[i]);
      rc = EXIT_DATA;
    } else if (strncmp(real, dir, dl) != 0 || (dl > 1 && real[dl] != '/')) {
      fprintf(stderr, "parquetry: concat: %s does not lie under %s, the directory of %s (--metadata-only)\n",
              inputs[i], dir, out);
      rc = EXIT_DATA;
    } else {
      refs[i] = strdup(real + dl + (dl > 1 ? 1 : 0));
      if (!refs[i]) rc = EXIT_DATA;
    }
    free(real);
    if (!rc) rc = read_open(inputs[i], &rs[i]);
  }
  if (!rc) {
    pqt_error e;
    pqt_error_init(&e);
    if (pqt_edit_write_summary(out, rs, (const char *const *)refs, n, &e) != PQT_OK) {
      fprintf(stderr, "parquetry: %s\n", e.message);
      rc = EXIT_DATA;
    } else {
      printf("%s: a footer over %d file%s (column data in them)\n", out, n, n == 1 ? "" : "s");
    }
  }
  for (int i = 0; i < n; i++) {
    if (rs && rs[i]) pqt_reader_close(rs[i]);
    if (refs) free(refs[i]);
  }
  free(rs);
  free(refs);
  free(dir);
  return rc;
}

int cmd_concat(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_concat_usage, cmd_concat_summary);
    return 0;
  }
  const char *out = NULL;
  const char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
  if (!inputs) return EXIT_DATA;
  int n = 0, rc = 0;
  bool opts_done = false, json = false, metadata_only = false;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (edit_common_flag(a, &opts_done, &json)) continue;
    if (!opts_done && strcmp(a, "--metadata-only") == 0) {
      metadata_only = true;
      continue;
    }
    if (!opts_done && a[0] == '-' && a[1]) {
      int r = edit_output_option("concat", argc, argv, &i, &out);
      if (r == 2) rc = EXIT_USAGE;
      if (r) continue;
      r = read_option("concat", argc, argv, &i);
      if (r == 2) rc = EXIT_USAGE;
      if (r) continue;
      rc = usage("concat", "unknown or incomplete option '%s'", a);
      continue;
    }
    inputs[n++] = a;
  }
  if (!rc && !out) rc = usage("concat", "%s", "missing -o OUT (the file to write)");
  if (!rc && n == 0) rc = usage("concat", "%s", "missing the files to concatenate");
  if (!rc && metadata_only && json) rc = usage("concat", "%s", "--metadata-only has no --json report");
  if (!rc) rc = metadata_only ? write_summary(out, inputs, n) : edit_copy("concat", out, inputs, n, NULL, 0, json);
  free(inputs);
  return read_finish(out ? out : "concat", rc);
}
