/*
 * cli/cmd_export.c: `parquetry export`, the rows of a file (projected with
 * -c, filtered with --where) written to a CSV, JSON Lines or Parquet file.
 * Text goes through pqt_reader_write_text; Parquet through the Arrow
 * stream into the library's writer (as rewrite does). The output is written
 * under a temporary name in its folder and renamed when complete: it never
 * exists half-written, and exit status 0 means every row is in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_meta.h"

#include "cli.h"

const char cmd_export_summary[] =
    "Write the rows of FILE (only the columns of -c, only the rows where --where is\n"
    "true) to OUT as CSV, JSON Lines or Parquet. OUT appears when it is complete\n"
    "(written under a temporary name, then renamed); exit status 0 means every\n"
    "row is in it. The number of rows written is printed.\n\n"
    "  -o, --output OUT          the file to write (replaced if it exists)\n"
    "  --format csv|jsonl|parquet  (default: from OUT's extension, .csv, .jsonl,\n"
    "                            .json or .parquet)\n"
    "  -c, --columns a,b.c       only these columns (top-level names or dotted paths)\n"
    "  --where EXPR              only rows where EXPR is true (as for cat)\n"
    "  --stats                   at the end, on stderr: what was read (as for cat)\n"
    "  --json                    what was written as JSON: {\"output\": OUT,\n"
    "                            \"format\": \"csv\"|\"jsonl\"|\"parquet\", \"rows\": N}\n\n"
    "CSV and JSON Lines are what cat prints. Parquet keeps the schema of FILE, with\n"
    "-c its fields on the paths given, and its key-value metadata (without -c, lists\n"
    "and maps are written in the standard form).\n\n"
    "Several FILEs, directories and globs: read as one table as cat reads them (the\n"
    "schemas unified, key=value directories as columns) into one OUT; Parquet gets\n"
    "the unified schema (no key-value metadata). A file that cannot be read is named\n"
    "and no OUT is left behind.\n\n"
    "Writer options (--format parquet):\n" WRITER_OPTIONS_HELP
    "\n" READ_OPTIONS_HELP;
const char cmd_export_usage[] = "parquetry export [--format F] [-c COLS] [--where EXPR] FILE... -o OUT";

enum { FORMAT_CSV, FORMAT_JSONL, FORMAT_PARQUET };

static int format_named(const char *s) {
  if (strcmp(s, "csv") == 0) return FORMAT_CSV;
  if (strcmp(s, "jsonl") == 0 || strcmp(s, "json") == 0) return FORMAT_JSONL;
  if (strcmp(s, "parquet") == 0) return FORMAT_PARQUET;
  return -1;
}

static int format_of_name(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return -1;
  return format_named(dot + 1);
}

/* ---- text: a temporary file renamed when complete ---- */

typedef struct text_out {
  FILE *f;
} text_out;

static pqt_status to_file(void *ctx, const char *data, size_t len) {
  text_out *t = ctx;
  return fwrite(data, 1, len, t->f) == len ? PQT_OK : PQT_EIO;
}

/* A temporary name next to `out` ("DIR/.NAME.tmp-XXXXXX"), opened. */
static int open_temp(const char *out, char **tmp_path, FILE **f) {
  const char *slash = strrchr(out, '/');
  size_t dir_len = slash ? (size_t)(slash - out) + 1 : 0;
  size_t n = strlen(out) + 16;
  char *p = malloc(n);
  if (!p) return -1;
  snprintf(p, n, "%.*s.%s.tmp-XXXXXX", (int)dir_len, out, out + dir_len);
  int fd = mkstemp(p);
  if (fd < 0) {
    free(p);
    return -1;
  }
  mode_t mask = umask(0); /* the mode a new file gets, not mkstemp's 0600 */
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0) {
    close(fd);
    unlink(p);
    free(p);
    return -1;
  }
  *f = fdopen(fd, "wb");
  if (!*f) {
    close(fd);
    unlink(p);
    free(p);
    return -1;
  }
  *tmp_path = p;
  return 0;
}

static int export_text(const char *path, pqt_reader *r, pqt_dataset *ds, row_scan *rs, pqt_text_format fmt,
                       const char *out, int64_t expect) {
  char *tmp = NULL;
  text_out t = {NULL};
  if (open_temp(out, &tmp, &t.f) != 0) {
    fprintf(stderr, "parquetry: %s: cannot create a file next to it: %s\n", out, strerror(errno));
    return EXIT_DATA;
  }
  pqt_error e;
  pqt_error_init(&e);
  int rc = 0;
  progress_text pt; /* a progress bar on a terminal, by the rows written */
  pqt_write_fn w = progress_text_init(&pt, fmt, to_file, &t, expect);
  pqt_status wst = ds ? pqt_dataset_write_text(ds, &rs->so, fmt, -1, w, &pt, &e)
                      : pqt_reader_write_text(r, &rs->so, fmt, -1, w, &pt, &e);
  progress_done(&pt.bar);
  if (wst != PQT_OK) {
    if (e.code == PQT_EIO && ferror(t.f)) fprintf(stderr, "parquetry: %s: write failed: %s\n", out, strerror(errno));
    else if (e.code == PQT_EINVAL) rc = usage("export", "%s", e.message);
    else if (ds) fprintf(stderr, "parquetry: %s\n", e.message); /* names the file */
    else rc = read_fail(path, &e);
    if (!rc) rc = EXIT_DATA;
  }
  if (fflush(t.f) != 0 || fsync(fileno(t.f)) != 0) {
    if (!rc) fprintf(stderr, "parquetry: %s: write failed: %s\n", out, strerror(errno));
    rc = rc ? rc : EXIT_DATA;
  }
  if (fclose(t.f) != 0 && !rc) {
    fprintf(stderr, "parquetry: %s: write failed: %s\n", out, strerror(errno));
    rc = EXIT_DATA;
  }
  if (!rc && rename(tmp, out) != 0) {
    fprintf(stderr, "parquetry: %s: cannot rename %s to it: %s\n", out, tmp, strerror(errno));
    rc = EXIT_DATA;
  }
  if (rc) unlink(tmp);
  free(tmp);
  return rc;
}

/* ---- Parquet: the Arrow stream into the writer ---- */

/* Every batch of stream into *wr, then the writer closed (*wr NULL after).
 * path: the file read, for messages (NULL: a dataset, whose messages name
 * the file). 0 or an exit status (printed). */
static int stream_to_writer(struct ArrowArrayStream *stream, const char *path, pqt_writer **wr, const char *out,
                            progress *bar, int64_t *rows) {
  pqt_error e;
  pqt_error_init(&e);
  for (;;) {
    struct ArrowArray b;
    memset(&b, 0, sizeof b);
    int gn = stream->get_next(stream, &b);
    if (gn != 0) {
      const char *msg = stream->get_last_error(stream);
      if (path) return read_stream_fail(path, gn, msg);
      fflush(stdout);
      fprintf(stderr, "parquetry: %s\n", msg ? msg : "the read failed");
      return EXIT_DATA;
    }
    if (!b.release) break;
    pqt_status st = pqt_writer_write_batch(*wr, &b, &e);
    *rows += b.length;
    progress_update(bar, *rows);
    b.release(&b);
    if (st != PQT_OK) return fail(out, &e);
  }
  pqt_status st = pqt_writer_close(*wr, &e);
  *wr = NULL;
  return st == PQT_OK ? 0 : fail(out, &e);
}


/* The stream into a new Parquet file OUT of schema ws (written under a
 * temporary name, renamed when complete; removed on a failure). */
static int stream_to_file(struct ArrowArrayStream *stream, const char *path, const pqt_write_schema *ws, wopts *w,
                          const char *out, progress *bar, int64_t *rows) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_writer *wr = NULL;
  if (pqt_writer_open_file(&wr, out, ws, &w->o, &e) != PQT_OK) return fail(out, &e);
  int rc = check_option_columns("export", w, wr);
  if (!rc) rc = stream_to_writer(stream, path, &wr, out, bar, rows);
  if (wr) pqt_writer_discard(wr);
  return rc;
}

static int export_parquet(const char *path, pqt_reader *r, row_scan *rs, wopts *w, const char *out, int64_t *rows,
                          int64_t expect) {
  progress bar; /* a progress bar on a terminal, by the rows written */
  progress_init_unit(&bar, PROGRESS_ROWS, expect);
  pqt_error e;
  pqt_error_init(&e);
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  pqt_string text = {0};
  char *message = NULL;
  const char **kv_keys = NULL, **kv_values = NULL;
  char **kv_copies = NULL;
  int32_t n_kv = 0;
  int rc = 0;
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  /* INT96 travels as its stored bytes (as read with int96_as_fixed) */
  w->o.int96_as_fixed = 1;
  if (rs->so.n_columns > 0) {
    /* the file's schema with the projected fields only */
    if (pqt_reader_schema_text(r, &text, &e) != PQT_OK) {
      rc = read_fail(path, &e);
      goto out;
    }
    message = schema_text_project(text.data, rs->so.columns, rs->so.n_columns);
    if (!message) {
      fprintf(stderr, "parquetry: %s: export: the schema could not be cut to the columns of -c\n", path);
      rc = EXIT_DATA;
      goto out;
    }
    ws.message = message;
    /* the file's key-value metadata, but ARROW:schema (of all the columns) */
    int32_t n = pqt_reader_kv_count(r);
    kv_keys = calloc((size_t)n + 1, sizeof *kv_keys);
    kv_values = calloc((size_t)n + 1, sizeof *kv_values);
    kv_copies = calloc(2 * (size_t)n + 1, sizeof *kv_copies);
    if (!kv_keys || !kv_values || !kv_copies) {
      fprintf(stderr, "parquetry: out of memory\n");
      rc = EXIT_DATA;
      goto out;
    }
    for (int32_t i = 0; i < n; i++) {
      pqt_kv kv;
      pqt_kv_init(&kv);
      if (pqt_reader_kv(r, i, &kv, &e) != PQT_OK) {
        rc = read_fail(path, &e);
        goto out;
      }
      if (kv.key_len == 12 && memcmp(kv.key, "ARROW:schema", 12) == 0) continue;
      if (memchr(kv.key, 0, kv.key_len) || (kv.value && memchr(kv.value, 0, kv.value_len))) {
        fprintf(stderr, "parquetry: %s: key-value metadata %d holds a NUL byte; export it without -c\n", path, i);
        rc = EXIT_DATA;
        goto out;
      }
      char *k = strndup(kv.key, kv.key_len), *v = kv.value ? strndup(kv.value, kv.value_len) : NULL;
      kv_copies[2 * i] = k;
      kv_copies[2 * i + 1] = v;
      if (!k || (kv.value && !v)) {
        fprintf(stderr, "parquetry: out of memory\n");
        rc = EXIT_DATA;
        goto out;
      }
      kv_keys[n_kv] = k;
      kv_values[n_kv++] = v;
    }
    w->o.kv_keys = kv_keys;
    w->o.kv_values = kv_values;
    w->o.n_kv = n_kv;
  } else {
    ws.like = r; /* the file's own schema, key-value metadata carried */
  }
  if (pqt_reader_get_stream(r, &rs->so, &stream, &e) != PQT_OK) {
    rc = e.code == PQT_EINVAL ? usage("export", "%s", e.message) : read_fail(path, &e);
    goto out;
  }
  rc = stream_to_file(&stream, path, &ws, w, out, &bar, rows);
out:
  progress_done(&bar);
  if (stream.release) stream.release(&stream);
  pqt_string_free(&text);
  free(message);
  if (kv_copies)
    for (int32_t i = 0; i < 2 * pqt_reader_kv_count(r); i++) free(kv_copies[i]);
  free(kv_copies);
  free(kv_keys);
  free(kv_values);
  return rc;
}

/* Several files as one table (cat's schema unification) into one Parquet
 * file of the unified schema (key-value metadata not carried). */
static int export_parquet_many(pqt_dataset *ds, row_scan *rs, wopts *w, const char *out, int64_t *rows,
                               int64_t expect) {
  progress bar; /* a progress bar on a terminal, by the rows written */
  progress_init_unit(&bar, PROGRESS_ROWS, expect);
  pqt_error e;
  pqt_error_init(&e);
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = 0;
  if (pqt_dataset_get_stream(ds, &rs->so, &stream, &e) != PQT_OK) {
    if (e.code == PQT_EINVAL) rc = usage("export", "%s", e.message);
    else {
      fprintf(stderr, "parquetry: %s\n", e.message); /* names the file */
      rc = EXIT_DATA;
    }
    goto out;
  }
  if (stream.get_schema(&stream, &schema) != 0) {
    rc = read_stream_fail("export", EIO, stream.get_last_error(&stream));
    goto out;
  }
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.arrow = &schema;
  rc = stream_to_file(&stream, NULL, &ws, w, out, &bar, rows);
out:
  progress_done(&bar);
  if (schema.release) schema.release(&schema);
  if (stream.release) stream.release(&stream);
  return rc;
}

typedef struct export_args {
  const char *out;
  bool json;
} export_args;

static int take_export_option(void *ctx, int id, const char *value) {
  export_args *ea = ctx;
  if (id == 'o') ea->out = value;
  else ea->json = true;
  return 0;
}

int cmd_export(int argc, char **argv) {
  const char *cmd = "export", *out = NULL;
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_export_usage, cmd_export_summary);
    return 0;
  }
  row_opts o;
  row_opts_init(&o, -1);
  static const cli_opt own[] = {{"output", 'o', 1, 'o'}, {"json", 0, 0, 'j'}, {0}};
  export_args ea = {NULL, false};
  /* the rest (writer options, FILEs) goes to the writer options' parser, -o OUT last */
  row_command rc_args = {cmd, cmd_export_usage, cmd_export_summary,
                         ROW_OPT_COLUMNS | ROW_OPT_FORMAT | ROW_OPT_WHERE | ROW_OPT_STATS, own, take_export_option,
                         &ea, true};
  char **files;
  int n_files;
  int rc = row_command_args(&rc_args, argc, argv, &o, &files, &n_files);
  if (rc) return rc < 0 ? 0 : rc;
  out = ea.out;
  bool json = ea.json;
  char **rest = calloc((size_t)n_files + 4, sizeof *rest);
  if (!rest) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  int n_rest = 0;
  const char *first_writer_option = NULL;
  rest[n_rest++] = argv[0];
  for (int i = 0; i < n_files; i++) {
    if (files[i][0] == '-' && files[i][1] && !first_writer_option) first_writer_option = files[i];
    rest[n_rest++] = files[i];
  }
  if (!rc && !out) {
    usage(cmd, "%s", "give the output file with -o OUT");
    rc = EXIT_USAGE;
  }
  int format = -1;
  if (!rc) {
    format = o.format ? format_named(o.format) : format_of_name(out);
    if (format < 0 && o.format) usage(cmd, "unknown format '%s' (csv, jsonl or parquet)", o.format);
    else if (format < 0) usage(cmd, "say --format csv|jsonl|parquet (no known extension in '%s')", out);
    if (format < 0) rc = EXIT_USAGE;
  }
  if (!rc && format != FORMAT_PARQUET && first_writer_option)
    rc = usage(cmd, "unknown option '%s' (writer options go with --format parquet)", first_writer_option);
  wopts w;
  memset(&w, 0, sizeof w);
  if (!rc) {
    static char dash_o[] = "-o";
    rest[n_rest++] = dash_o;
    rest[n_rest++] = (char *)out;
    rc = parse_args(cmd, n_rest, rest, &w, CMD_MERGE); /* FILEs, -o OUT and the writer options */
  }
  row_scan rs;
  memset(&rs, 0, sizeof rs);
  if (!rc) rc = row_scan_setup(cmd, &o, false, &rs);
  pqt_reader *r = NULL;
  pqt_dataset *ds = NULL;
  pqt_dataset_fs fs;
  int64_t all = 0; /* the file's rows */
  const char *path = w.in;
  pqt_read_options ro = *read_options(); /* outlives the dataset */
  /* INT96 travels as its stored bytes into a file of the same schema (one file) */
  bool many = !rc && dataset_inputs_many((char *const *)w.inputs, w.n_inputs);
  if (format == FORMAT_PARQUET && !many) ro.int96_as_fixed = 1;
  if (!rc) read_begin(path);
  if (!rc && many) {
    if ((rc = dataset_open_inputs(cmd, w.inputs, w.n_inputs, &ro, &fs, &ds)) == 0) {
      all = pqt_dataset_num_rows(ds);
      read_add_rows(all);
    }
  } else if (!rc) {
    pqt_error e;
    pqt_error_init(&e);
    if (cli_reader_open(&r, path, &ro, &e) != PQT_OK) rc = read_fail(path, &e);
    else {
      for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) all += pqt_reader_row_group_num_rows(r, g);
      read_add_rows(all);
    }
  }
  if (!rc) {
    int64_t rows = 0;
    /* the bar's total: the file's rows when all are exported, else unknown */
    int64_t expect = rs.so.filter || o.n_spans > 0 || o.offset > 0 || o.has_bbox ? 0 : all;
    pqt_text_format tf = format == FORMAT_CSV ? PQT_TEXT_CSV : PQT_TEXT_JSONL;
    if (format == FORMAT_PARQUET && ds) rc = export_parquet_many(ds, &rs, &w, out, &rows, expect);
    else if (format == FORMAT_PARQUET) rc = export_parquet(path, r, &rs, &w, out, &rows, expect);
    else rc = export_text(path, r, ds, &rs, tf, out, expect);
    if (format != FORMAT_PARQUET) rows = rs.stats.rows;
    if (!rc) {
      if (json) {
        static const char *const names[] = {"csv", "jsonl", "parquet"};
        printf("{\"output\": ");
        json_print_string(stdout, out, strlen(out));
        printf(", \"format\": \"%s\", \"rows\": %lld}\n", names[format], (long long)rows);
      } else {
        printf("%s: %lld row%s written\n", out, (long long)rows, rows == 1 ? "" : "s");
      }
      if (o.stats) row_scan_print_stats(&rs);
    }
  }
  if (r) pqt_reader_close(r);
  pqt_dataset_close(ds);
  row_scan_free(&rs);
  free_args(&w);
  free(rest);
  fflush(stdout);
  return path ? read_finish(path, rc) : rc;
}
