/*
 * cli/main.c: the `parquetry` command. One binary with subcommands, built
 * only on the public API (include/parquetry.h).
 *
 * Exit status: 0 success, 1 a file could not be read (bad data, I/O),
 * 2 usage error, 3 data lost under --skip-corrupt (what could be read was
 * written). Errors go to stderr as `parquetry: FILE: message`.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "parquetry.h"

#include "cli.h"
#include "edit.h"
#include "geo_stats.h"
#include "inspect.h"
#include "inspect2.h"

typedef struct command {
  const char *name;
  const char *summary;
  const char *usage;
  int (*run)(int argc, char **argv);
} command;

/* The commands that parse with cli_next (cli.h). main splits --name=VALUE
 * and -n5 (cli_normalise_args) for the others before running them (cat,
 * head and count parse with row_option, cli/row_options.c). */
static const char *const own_parsers[] = {"schema", "footer", "layout", "size-stats", "meta", "pages", "verify", "dictionary", "column-index", "bloom-filter", "stats",
                                          "version", "help"};

static bool own_parser(const char *name) {
  for (size_t i = 0; i < sizeof own_parsers / sizeof own_parsers[0]; i++)
    if (strcmp(own_parsers[i], name) == 0) return true;
  return false;
}

static const command *find_command(const char *name);

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *cmd, const char *fmt, ...) {
  fprintf(stderr, "parquetry: ");
  if (cmd) fprintf(stderr, "%s: ", cmd);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nTry 'parquetry %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
  return EXIT_USAGE;
}

static int file_error(const char *path, const pqt_error *e) { return read_fail(path, e); }

static int is_help(const char *a) { return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0; }

static void print_usage(const command *c) { printf("usage: %s\n\n%s\n", c->usage, c->summary); }

/* The reading options (--footer-key, --skip-corrupt, limits, ...) live in
 * cli/read_options.c. */
static int open_reader(const char *path, pqt_reader **r) { return read_open(path, r); }

static int write_string(pqt_string *s) {
  fwrite(s->data, 1, s->len, stdout);
  if (s->len == 0 || s->data[s->len - 1] != '\n') fputc('\n', stdout);
  pqt_string_free(s);
  return 0;
}

/* ---- meta ---- */
typedef struct meta_args {
  int json, indent, legend;
  long width;
} meta_args;

static int meta_one(const char *path, void *ctx) {
  const meta_args *m = ctx;
  int json = m->json, indent = m->indent, legend = m->legend;
  long width = m->width;
  pqt_reader *r;
  int rc = open_reader(path, &r);
  if (rc) return rc;
  pqt_string s = {0};
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = json ? pqt_reader_metadata_json(r, indent, &s, &e)
                       : pqt_reader_metadata_summary_styled(
                             r, legend ? PQT_SUMMARY_PARQUET_TOOLS : PQT_SUMMARY_READABLE, (int32_t)width, &s, &e);
  if (st != PQT_OK) rc = file_error(path, &e);
  else {
    if (legend) {
      printf("file:        %s\n", path);
    } else if (!json) {
      /* the path's tail when it is too long for the line */
      size_t room = (size_t)width - 13, n = strlen(path);
      if (n > room) printf("%-13s...%s\n", "file:", path + n - (room - 3));
      else printf("%-13s%s\n", "file:", path);
    }
    rc = write_string(&s);
  }
  pqt_reader_close(r);
  return rc;
}

static int cmd_meta(int argc, char **argv) {
  const char *path = NULL;
  char **paths = argv + 1; /* several FILEs (cli/dataset_input.c): in argv's slots already read */
  int n_paths = 0;
  int json = 0, indent = 2, legend = 0;
  long width = human_width();
  static const cli_opt opts[] = {
      {"json", 0, 0, 'j'}, {"compact", 0, 0, 'C'}, {"parquet-tools", 0, 0, 'p'}, {"width", 'w', 1, 'w'}, {0}};
  cli_args a;
  cli_args_init(&a, "meta", argc, argv, opts);
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: print_usage(find_command("meta")); return 0;
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': json = 1; break;
      case 'C': indent = 0; break;
      case 'p': legend = 1; break;
      case 'w': {
        char *end;
        width = strtol(a.arg, &end, 10);
        if (*end || end == a.arg || (width != 0 && width < 40) || width > 100000)
          return usage_error("meta", "bad --width '%s' (40 or more; 0: no limit)", a.arg);
        if (width == 0) width = 100000;
        break;
      }
      default:
        if (!path) path = a.arg;
        paths[n_paths++] = (char *)a.arg;
    }
  }
  if (!path) return usage_error("meta", "%s", "missing FILE");
  if (json && legend) return usage_error("meta", "%s", "give --json or --parquet-tools, not both");
  meta_args m = {json, indent, legend, width};
  if (n_paths > 1 || dataset_input_many(path))
    return dataset_each_file("meta", (const char *const *)paths, n_paths, meta_one, &m);
  return meta_one(path, &m);
}

/* ---- cat / head ---- */
static pqt_status write_stdout(void *ctx, const char *data, size_t len) {
  (void)ctx;
  return fwrite(data, 1, len, stdout) == len ? PQT_OK : PQT_EIO;
}

static int run_rows(const char *cmd, int argc, char **argv, int64_t default_limit) {
  const char *path = NULL;
  /* several FILEs (cli/dataset_input.c): kept in argv's slots already read */
  char **paths = argv + 1;
  int n_paths = 0;
  bool count = strcmp(cmd, "count") == 0, rest = false;
  int json = 0;
  row_opts ropt;
  row_opts_init(&ropt, default_limit);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!rest) {
      if (strcmp(a, "--") == 0) {
        rest = true;
        continue;
      }
      if (is_help(a)) {
        print_usage(find_command(cmd));
        return 0;
      }
      if (strcmp(a, "--json") == 0) {
        json = 1;
        continue;
      }
      int ro = read_option(cmd, argc, argv, &i);
      unsigned accept = ROW_OPT_WHERE | ROW_OPT_STATS | ROW_OPT_RANGES | ROW_OPT_BBOX;
      if (!count) accept |= ROW_OPT_COLUMNS | ROW_OPT_FORMAT;
      accept |= ROW_OPT_LIMIT;
      if (ro == 0) ro = row_option(cmd, argc, argv, &i, accept, &ropt);
      if (ro == 2) return EXIT_USAGE;
      if (ro == 1) continue;
      if (a[0] == '-' && a[1]) {
        static const char *const known[] = {"--columns", "--limit", "--format", "--where", "--stats", "--rows",
                                            "--offset",  "--bbox",  "--json",   "--help"};
        const char *near = cli_closest(a, known, (int)(sizeof known / sizeof known[0]));
        if (near) return usage_error(cmd, "unknown option '%s' (did you mean '%s'?)", a, near);
        return usage_error(cmd, "unknown or incomplete option '%s'", a);
      }
    }
    if (!path) path = a;
    paths[n_paths++] = argv[i];
  }
  /* cat/head: --json is JSON Lines (the default format); count: {"rows": N} */
  if (json && !count) ropt.format = "jsonl";
  if (!path) return usage_error(cmd, "%s", "missing FILE");
  pqt_text_format fmt;
  if (row_text_format(cmd, ropt.format, &fmt)) return EXIT_USAGE;
  if (n_paths > 1 || dataset_input_many(path)) {
    return dataset_run_rows(cmd, (const char *const *)paths, n_paths, count, json, &ropt, fmt);
  }
  row_scan rs;
  int rc = row_scan_setup(cmd, &ropt, true, &rs);
  if (rc) return rc;
  pqt_reader *r;
  rc = open_reader(path, &r);
  if (rc == 0) {
    rc = row_scan_bind_bbox(cmd, &ropt, r, &rs);
    if (rc) pqt_reader_close(r);
  }
  if (rc == 0) {
    pqt_error e;
    pqt_error_init(&e);
    int64_t n = 0;
    /* a progress bar on a terminal (by the rows written; their number is
     * known ahead without a predicate or a row selection) */
    int64_t expect = 0;
    if (!ropt.where && !ropt.has_bbox && ropt.n_spans == 0 && ropt.offset == 0) {
      for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) expect += pqt_reader_row_group_num_rows(r, g);
      if (ropt.limit >= 0 && ropt.limit < expect) expect = ropt.limit;
    }
    progress_text pt;
    pqt_write_fn w = progress_text_init(&pt, fmt, write_stdout, NULL, expect);
    pqt_status qs = count ? pqt_reader_count(r, &rs.so, &n, &e)
                          : pqt_reader_write_text(r, &rs.so, fmt, ropt.limit, w, &pt, &e);
    progress_done(&pt.bar);
    if (qs != PQT_OK) {
      fflush(stdout);
      rc = e.code == PQT_EINVAL ? usage_error(cmd, "%s", e.message) : file_error(path, &e);
    } else if (count && json) {
      printf("{\"rows\": %lld}\n", (long long)(ropt.limit >= 0 && n > ropt.limit ? ropt.limit : n));
    } else if (count) {
      printf("%lld\n", (long long)(ropt.limit >= 0 && n > ropt.limit ? ropt.limit : n));
    }
    if (ropt.stats && qs == PQT_OK) row_scan_print_stats(&rs);
    pqt_reader_close(r);
  }
  row_scan_free(&rs);
  fflush(stdout);
  return read_finish(path, rc);
}

/* ---- verify ---- */
/* verify --json: the problem lines, collected */
typedef struct lines {
  pqt_string text;
} lines;

static pqt_status collect(void *ctx, const char *data, size_t len) {
  lines *l = ctx;
  char *p = realloc(l->text.data, l->text.len + len + 1);
  if (!p) return PQT_ENOMEM;
  memcpy(p + l->text.len, data, len);
  l->text.data = p;
  l->text.len += len;
  p[l->text.len] = '\0';
  return PQT_OK;
}

static void verify_progress(void *ctx, int64_t done, int64_t total) {
  progress *bar = ctx;
  if (bar->total != total) progress_add_total(bar, total - bar->total);
  progress_update(bar, done);
}

typedef struct verify_args {
  bool allow_unchecked;
  int json;
} verify_args;

static int verify_one(const char *path, void *ctx) {
  const verify_args *va = ctx;
  bool allow_unchecked = va->allow_unchecked;
  int json = va->json;
  pqt_reader *r;
  int rc = open_reader(path, &r);
  if (rc) {
    if (json) printf("{\"file\": \"%s\", \"ok\": false, \"error\": \"cannot open (see stderr)\"}\n", path);
    return rc;
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  progress bar; /* a progress bar on a terminal, by the column chunks checked */
  progress_init_unit(&bar, PROGRESS_CHUNKS, 0);
  rep.progress = verify_progress;
  rep.progress_ctx = &bar;
  lines got = {{0}};
  pqt_status vs = pqt_reader_verify_ex(r, json ? collect : write_stdout, json ? (void *)&got : NULL, &rep, &e);
  progress_done(&bar);
  if (vs != PQT_OK) {
    rc = file_error(path, &e);
  } else if (rep.problems) {
    fflush(stdout);
    fprintf(stderr, "parquetry: %s: %lld problem%s found", path, (long long)rep.problems, rep.problems == 1 ? "" : "s");
    if (rep.unchecked)
      fprintf(stderr, "; %lld thing%s not checked for lack of a key", (long long)rep.unchecked,
              rep.unchecked == 1 ? "" : "s");
    fputc('\n', stderr);
    rc = EXIT_DATA;
  } else if (rep.unchecked) {
    fflush(stdout);
    fprintf(stderr,
            "parquetry: %s: no problems in what was checked, but %lld thing%s not checked for lack of a key%s\n", path,
            (long long)rep.unchecked, rep.unchecked == 1 ? " was" : "s were",
            allow_unchecked ? " (--allow-unchecked)" : " (give the keys, or --allow-unchecked)");
    if (!allow_unchecked) rc = EXIT_DATA;
  } else if (!json) {
    char c1[32], c2[32], c3[32];
    int32_t ng = pqt_reader_num_row_groups(r), nc = pqt_reader_num_columns(r);
    printf("%s: ok (%s rows in %s row group%s, %s columns)\n", path, human_count(c1, sizeof c1, pqt_reader_num_rows(r)),
           human_count(c2, sizeof c2, ng), ng == 1 ? "" : "s", human_count(c3, sizeof c3, nc));
  }
  if (json) {
    printf("{\"file\": ");
    json_print_string(stdout, path, strlen(path));
    printf(", \"ok\": %s, \"rows\": %lld, \"row_groups\": %d, \"columns\": %d, \"problems\": %lld, \"unchecked\": %lld, "
           "\"chunks_checked\": %lld, \"lines\": [",
           vs == PQT_OK && rc == 0 ? "true" : "false", (long long)pqt_reader_num_rows(r), pqt_reader_num_row_groups(r),
           pqt_reader_num_columns(r), (long long)rep.problems, (long long)rep.unchecked, (long long)rep.chunks_checked);
    const char *p = got.text.data ? got.text.data : "";
    for (int k = 0; *p; k++) {
      size_t len = strcspn(p, "\n");
      if (k) printf(", ");
      json_print_string(stdout, p, len);
      p += len + (p[len] == '\n');
    }
    printf("]}\n");
    free(got.text.data);
  }
  pqt_reader_close(r);
  return rc;
}

static int cmd_verify(int argc, char **argv) {
  /* --allow-unchecked: what could not be checked for lack of a key does not
   * make the exit status 1 (it is still listed). */
  static const cli_opt opts[] = {{"json", 0, 0, 'j'}, {"allow-unchecked", 0, 0, 'u'}, {0}};
  cli_args a;
  cli_args_init(&a, "verify", argc, argv, opts);
  verify_args va = {false, 0};
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: print_usage(find_command("verify")); return 0;
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': va.json = 1; break;
      case 'u': va.allow_unchecked = true; break;
      default: paths[n_paths++] = a.arg;
    }
  }
  if (n_paths == 0) return usage_error("verify", "%s", "missing FILE");
  /* several: every file verified, each report naming it; the worst status */
  if (dataset_inputs_many(paths, n_paths))
    return dataset_each_file("verify", (const char *const *)paths, n_paths, verify_one, &va);
  return verify_one(paths[0], &va);
}

static int cmd_cat(int argc, char **argv) { return run_rows("cat", argc, argv, -1); }

static int cmd_head(int argc, char **argv) { return run_rows("head", argc, argv, 10); }

static int cmd_count(int argc, char **argv) { return run_rows("count", argc, argv, -1); }

static int cmd_version(int argc, char **argv) {
  static const cli_opt opts[] = {{"json", 0, 0, 'j'}, {0}};
  cli_args a;
  cli_args_init(&a, "version", argc, argv, opts);
  a.read_options = false;
  int json = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    if (id == CLI_HELP) return cli_help("parquetry version [--json]", "Print the version (--json: {\"version\": TEXT}).");
    if (id == CLI_ERROR) return EXIT_USAGE;
    if (id == CLI_OPERAND) return usage_error("version", "unexpected argument '%s'", a.arg);
    json = 1;
  }
  if (json) printf("{\"version\": \"%s\"}\n", pqt_version());
  else printf("parquetry %s\n", pqt_version());
  return 0;
}

static int cmd_help(int argc, char **argv);

static const command commands[] = {
    {"schema", cmd_schema_summary, cmd_schema_usage, cmd_schema},
    {"footer", cmd_footer_summary, cmd_footer_usage, cmd_footer},
    {"layout", cmd_layout_summary, cmd_layout_usage, cmd_layout},
    {"size-stats", cmd_size_stats_summary, cmd_size_stats_usage, cmd_size_stats},
    {"meta",
     "Print the file metadata: rows, row groups, key-value metadata (values cut, with\n"
     "their length), and per column chunk its type, codec, value count, encodings,\n"
     "sizes, page offsets, statistics and indexes, in labelled lines that fit 80\n"
     "columns (longer ones are cut and end with \"...\").\n\n"
     "  --width N         lines of at most N columns (0: no limit)\n"
     "  --parquet-tools   one line per column chunk as parquet-tools printed it:\n"
     "                    name: TYPE CODEC DO:.. FPO:.. SZ:../../.. VC:.. ENC:..\n"
     "                    (DO dictionary page offset, FPO first data page offset,\n"
     "                    SZ compressed/uncompressed/ratio, VC values, ENC encodings,\n"
     "                    ST statistics, OI/CI offset/column index offsets)\n"
     "  --json            the whole FileMetaData as JSON, keys as in parquet.thrift\n"
     "  --compact         with --json: on one line\n\n"
     "Several FILEs, directories (every file under them) or globs ('data/**/*.parquet'):\n"
     "each file in turn." READ_OPTIONS_HELP,
     "parquetry meta [--parquet-tools | --json [--compact]] [--width N] FILE...", cmd_meta},
    {"cat",
     "Print rows, one JSON object per line (or CSV).\n\n"
     "Several FILEs, directories (every file under them, names starting with '.' or '_'\n"
     "left out) and globs ('data/**/*.parquet', quoted) are read as one table, files in\n"
     "order: key=value directories become columns (int64 when every value is a number,\n"
     "else string), a column a file lacks is null there, struct fields are matched by\n"
     "name (a field a file lacks is null there), int32/int64 and float/double widen,\n"
     "other type differences are an error naming both files and the field; --where\n"
     "prunes files by their directory values and row groups by statistics; --columns\n"
     "takes top-level names and struct fields (s.a); --rows, --offset and --bbox take\n"
     "one file.\n\n"
     "  -c, --columns a,b.c   only these columns (top-level names or dotted paths)\n"
     "  -n, --limit N         at most N rows\n"
     "  --rows A-B[,C-D]      only the rows at positions A to B-1 in the file (\"A-\": from A\n"
     "                        on); read by pages through the offset index\n"
     "  --offset N            only the rows from position N on (within --rows)\n"
     "                        (--rows and --offset pick rows before --where, --limit\n"
     "                        counts the rows printed)\n"
     "  --format jsonl|csv    output format (default jsonl)\n"
     "  --where EXPR          only rows where EXPR is true, e.g.\n"
     "                        \"d >= DATE '1995-01-01' AND flag = 'R'\", \"x IN (1,2)\",\n"
     "                        \"s LIKE 'ab%'\", \"a.b IS NOT NULL\" (row groups that cannot match are\n"
     "                        skipped by their statistics, dictionaries and Bloom filters);\n"
     "                        ST_Intersects(geom, 'POLYGON ((...))') or\n"
     "                        ST_Intersects(geom, BOX(xmin, ymin, xmax, ymax)) on GEOMETRY or\n"
     "                        GEOGRAPHY columns (bounding-box semantics: a row matches when its\n"
     "                        own envelope meets the geometry's; row groups are skipped by\n"
     "                        their geospatial statistics);\n"
     "                        variant_get(v, '$.a.b', 'int64') > 5 on a VARIANT column (the\n"
     "                        value at the path cast to the type, NULL when missing or not\n"
     "                        castable; skipped by the shredded column's statistics when safe)\n"
     "  --bbox X0,Y0,X1,Y1    only rows whose geometry's envelope intersects this box (the\n"
     "                        first GEOMETRY/GEOGRAPHY column; bounding-box semantics, as\n"
     "                        ST_Intersects; for GEOGRAPHY X0 > X1 wraps the antimeridian);\n"
     "                        with --where both must hold\n"
     "  --stats               at the end, on stderr: rows=R row_groups=G/GT pages=P/PT\n"
     "                        bytes_read=B (what was read of the file)" READ_OPTIONS_HELP,
     "parquetry cat [--columns a,b.c] [--limit N] [--rows A-B] [--offset N] [--format jsonl|csv] [--where EXPR] "
     "[--bbox X0,Y0,X1,Y1] [--stats] FILE...",
     cmd_cat},
    {"head", "Print the first rows (10 unless -n says otherwise); options as for cat.",
     "parquetry head [-n N] [--columns a,b.c] [--rows A-B] [--offset N] [--format jsonl|csv] [--where EXPR] "
     "[--bbox X0,Y0,X1,Y1] [--stats] FILE...",
     cmd_head},
    {"count",
     "Print the number of rows (where EXPR is true). Without --where the footer answers\n"
     "and no page is read.\n\n"
     "  --where EXPR          as for cat\n"
     "  --bbox X0,Y0,X1,Y1    as for cat\n"
     "  --rows A-B, --offset N, --limit N  as for cat (--limit: count at most N)\n"
     "  --stats               as for cat\n\n"
     "Several FILEs, directories and globs: as for cat, the rows of all added up." READ_OPTIONS_HELP,
     "parquetry count [--where EXPR] [--bbox X0,Y0,X1,Y1] [--rows A-B] [--offset N] [--limit N] [--stats] FILE...",
     cmd_count},
    {"tail", cmd_tail_summary, cmd_tail_usage, cmd_tail},
    {"sample", cmd_sample_summary, cmd_sample_usage, cmd_sample},
    {"export", cmd_export_summary, cmd_export_usage, cmd_export},
    {"diff", cmd_diff_summary, cmd_diff_usage, cmd_diff},
    {"pages", cmd_pages_summary, cmd_pages_usage, cmd_pages},
    {"verify",
     "Check every page (CRC, decompression, decoding), value counts, statistics against\n"
     "the data, the offset index against the pages, the column index against each page's\n"
     "values and levels, and Bloom filters; print each problem, exit 1 if any.\n"
     "Encrypted files are checked with the keys given (every module decrypted); what\n"
     "cannot be checked without a key is listed as \"not checked\" and exits 1 too.\n\n"
     "  --allow-unchecked     exit 0 when nothing checked has a problem, even if some\n"
     "                        columns could not be checked for lack of a key\n"
     "  --json                one JSON object a file: file, ok, rows, row_groups,\n"
     "                        columns, problems, unchecked, chunks_checked, lines\n\n"
     "Several FILEs, directories and globs: every file verified in turn, each report\n"
     "naming its file; exit 1 if any has a problem or cannot be read." READ_OPTIONS_HELP,
     "parquetry verify [--allow-unchecked] [--json] FILE...", cmd_verify},
    {"dictionary", cmd_dictionary_summary, cmd_dictionary_usage, cmd_dictionary},
    {"column-index", cmd_column_index_summary, cmd_column_index_usage, cmd_column_index},
    {"bloom-filter", cmd_bloom_filter_summary, cmd_bloom_filter_usage, cmd_bloom_filter},
    {"stats", cmd_stats_summary, cmd_stats_usage, cmd_stats},
    {"geospatial-stats", cmd_geospatial_stats_summary, cmd_geospatial_stats_usage, cmd_geospatial_stats},
    {"convert", cmd_convert_summary, cmd_convert_usage, cmd_convert},
    {"rewrite", cmd_rewrite_summary, cmd_rewrite_usage, cmd_rewrite},
    {"salvage", cmd_salvage_summary, cmd_salvage_usage, cmd_salvage},
    {"concat", cmd_concat_summary, cmd_concat_usage, cmd_concat},
    {"prune", cmd_prune_summary, cmd_prune_usage, cmd_prune},
    {"merge", cmd_merge_summary, cmd_merge_usage, cmd_merge},
    {"version", "Print the version (--json: {\"version\": TEXT}).", "parquetry version [--json]", cmd_version},
    {"help", "Show help for a command: the same text as 'parquetry COMMAND --help'.", "parquetry help [COMMAND]",
     cmd_help},
};

static const command *find_command(const char *name) {
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

/* One line a command for the overview (the whole text is its --help). */
static const struct {
  const char *name, *brief;
} briefs[] = {
    {"schema", "the schema: message syntax, --arrow, --json"},
    {"footer", "the raw footer as JSON; --scrub: a copy without names or strings"},
    {"layout", "the byte map: every page, index, Bloom filter, the footer"},
    {"size-stats", "SizeStatistics and sizes of every column chunk"},
    {"meta", "the metadata: row groups, column chunks, sizes, statistics"},
    {"cat", "rows as JSON Lines or CSV (--where to filter)"},
    {"head", "the first rows"},
    {"count", "the number of rows (--where to filter)"},
    {"tail", "the last rows (only the row groups that hold them are read)"},
    {"sample", "N rows chosen at random (--seed to repeat), in file order"},
    {"export", "rows (filtered, projected) to a CSV, JSON Lines or Parquet file"},
    {"diff", "compare two files: schema, metadata, row count and values"},
    {"pages", "a table of the pages: type, encodings, sizes, statistics"},
    {"verify", "check every page, statistic, page index and Bloom filter"},
    {"dictionary", "a column's dictionary entries"},
    {"column-index", "a column's page index, one line per page"},
    {"bloom-filter", "probe a column's Bloom filters for values"},
    {"stats", "a column's statistics per row group and page"},
    {"geospatial-stats", "bounding boxes and geometry types of GEOMETRY/GEOGRAPHY chunks"},
    {"convert", "CSV or JSON Lines to Parquet"},
    {"rewrite", "read a Parquet file and write it anew"},
    {"salvage", "recover the rows of a file whose footer is lost"},
    {"concat", "append files' row groups without re-encoding"},
    {"prune", "drop columns without re-encoding the others"},
    {"merge", "re-encode files into one with row groups of a size"},
    {"version", "the version"},
    {"help", "help for a command"},
};

static void print_main_usage(FILE *f) {
  fprintf(f, "usage: parquetry COMMAND [OPTIONS] FILE\n\nRead and write Apache Parquet files.\n\nCommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    const char *brief = NULL;
    for (size_t k = 0; k < sizeof briefs / sizeof briefs[0] && !brief; k++)
      if (strcmp(briefs[k].name, commands[i].name) == 0) brief = briefs[k].brief;
    if (brief) fprintf(f, "  %-13s %s\n", commands[i].name, brief);
    else fprintf(f, "  %-13s %.*s\n", commands[i].name, (int)strcspn(commands[i].summary, "\n"), commands[i].summary);
  }
  fprintf(f,
          "\nRun 'parquetry COMMAND --help' for a command's options.\n"
          "Exit status: 0 all rows, 1 error, 2 usage, 3 rows lost under --skip-corrupt.\n");
}

static const command *suggest(const char *word) {
  const char *names[64];
  int n = 0;
  for (size_t i = 0; i < sizeof commands / sizeof commands[0] && n < 64; i++) names[n++] = commands[i].name;
  const char *near = cli_closest(word, names, n);
  return near ? find_command(near) : NULL;
}

static int unknown_command(const char *word) {
  const command *near = suggest(word);
  if (near) return usage_error(NULL, "unknown command '%s' (did you mean '%s'?)", word, near->name);
  return usage_error(NULL, "unknown command '%s'", word);
}

/* Run c with argv[0] its name; legacy parsers get --x=y and -n5 split first. */
static int run_command(const command *c, int argc, char **argv) {
  if (own_parser(c->name)) return c->run(argc, argv);
  char **norm = calloc((size_t)argc * 2 + 1, sizeof *norm);
  if (!norm) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  int n;
  cli_normalise_args(argc, argv, &n, norm);
  int rc = c->run(n, norm);
  free(norm);
  return rc;
}

/* `parquetry help CMD` is `parquetry CMD --help`: the command prints it. */
static int cmd_help(int argc, char **argv) {
  if (argc < 2) {
    print_main_usage(stdout);
    return 0;
  }
  if (is_help(argv[1])) {
    print_usage(find_command("help"));
    return 0;
  }
  if (strcmp(argv[1], "--commands") == 0) { /* not listed: the table's names, for tools/gen_cli_docs.sh */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) puts(commands[i].name);
    return 0;
  }
  if (argc > 2) return usage_error("help", "unexpected argument '%s'", argv[2]);
  const command *c = find_command(argv[1]);
  if (!c) return unknown_command(argv[1]);
  if (c->run == cmd_help) {
    print_usage(c);
    return 0;
  }
  char help[] = "--help";
  char *args[3] = {argv[1], help, NULL};
  return run_command(c, 2, args);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_main_usage(stderr);
    return EXIT_USAGE;
  }
  if (is_help(argv[1])) {
    print_main_usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) return cmd_version(argc - 1, argv + 1);
  const command *c = find_command(argv[1]);
  if (!c) return unknown_command(argv[1]);
  return run_command(c, argc - 1, argv + 1);
}
