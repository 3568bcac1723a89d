/*
 * cli/inspect.c: dictionary, column-index, bloom-filter and stats: views of
 * one column's metadata, built on the public metadata API only
 * (include/parquetry_meta.h). Human output keeps to 80 columns (long values
 * are cut with "..."); --json prints one JSON document with the values in
 * their canonical forms, uncut.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect.h"
#include "parquetry.h"
#include "parquetry_meta.h"

#define VALUE_WIDTH 24 /* characters of a value shown on a human line */

/* the commands that take several FILEs (all but bloom-filter, whose
 * operands after FILE are VALUEs) */
#define MANY_FILES_HELP                                                                 \
  "\n\nSeveral FILEs, directories and globs: each file in turn after a line \"# PATH\"\n" \
  "(--json: one object a file, with \"file\": PATH first)."

const char cmd_dictionary_summary[] =
    "Print the dictionary page of each column chunk of COL, one entry per line.\n\n"
    "  -c, --column PATH   the leaf column (dotted path, as `schema` shows it)\n"
    "  --json              {\"column\": PATH, \"row_groups\": [{\"row_group\": G,\n"
    "                      \"values\": [...] or null when the chunk has no dictionary}]}"
    MANY_FILES_HELP
    "\n\n  Reading options as for `cat` (--footer-key, --column-key, --aad-prefix, --no-crc).";
const char cmd_dictionary_usage[] = "parquetry dictionary -c COL [--json] FILE...";

const char cmd_column_index_summary[] =
    "Print the ColumnIndex with the OffsetIndex of COL, one line per page: null page,\n"
    "null count, min and max, offset, compressed size and first row.\n\n"
    "  -c, --column PATH   the leaf column (dotted path)\n"
    "  --json              {\"column\", \"row_groups\": [{\"row_group\", \"boundary_order\",\n"
    "                      \"pages\": [{\"page\", \"null_page\", \"null_count\", \"nan_count\",\n"
    "                      \"min\", \"max\", \"offset\", \"compressed_page_size\",\n"
    "                      \"first_row_index\"}]}]} (absent parts null)"
    MANY_FILES_HELP
    "\n\n  Reading options as for `cat` (--footer-key, --column-key, --aad-prefix, --no-crc).";
const char cmd_column_index_usage[] = "parquetry column-index -c COL [--json] FILE...";

const char cmd_bloom_filter_summary[] =
    "Probe the Bloom filter of each column chunk of COL for each VALUE: \"might\n"
    "contain\" or \"definitely not\". Values are written as `cat` prints them, without\n"
    "quotes (dates 2024-01-31, timestamps 2024-01-31T12:00:00Z, UUIDs 8-4-4-4-12,\n"
    "hex:... for any binary).\n\n"
    "  -c, --column PATH   the leaf column (dotted path)\n"
    "  --json              {\"column\", \"row_groups\": [{\"row_group\", \"has_bloom_filter\",\n"
    "                      \"values\": [{\"value\": TEXT, \"might_contain\": BOOL}]}]}"
    "\n\n  Reading options as for `cat` (--footer-key, --column-key, --aad-prefix, --no-crc).";
const char cmd_bloom_filter_usage[] = "parquetry bloom-filter -c COL [--json] FILE VALUE...";

const char cmd_stats_summary[] =
    "Print the statistics of COL per row group (typed min and max, null, NaN and\n"
    "distinct counts, exactness, whether a reader may prune by them) and per page\n"
    "(from the ColumnIndex, when the file has one).\n\n"
    "  -c, --column PATH   the leaf column (dotted path)\n"
    "  --json              {\"column\", \"row_groups\": [{\"row_group\", \"num_values\",\n"
    "                      \"statistics\": {\"min\", \"max\", \"min_exact\", \"max_exact\",\n"
    "                      \"null_count\", \"nan_count\", \"distinct_count\", \"legacy\",\n"
    "                      \"usable_min\", \"usable_max\"} or null, \"pages\": [{\"page\",\n"
    "                      \"null_page\", \"min\", \"max\", \"null_count\", \"nan_count\"}]\n"
    "                      or null}]}"
    MANY_FILES_HELP
    "\n\n  Reading options as for `cat` (--footer-key, --column-key, --aad-prefix, --no-crc).";
const char cmd_stats_usage[] = "parquetry stats -c COL [--json] FILE...";

/* ---- arguments ------------------------------------------------------------------ */

typedef struct args {
  const char *cmd;
  const char *usage;
  const char *summary;
  const char *column;
  const char *path;
  int json;
  char **values;
  int n_values;
  char **paths; /* the FILEs (commands without VALUEs take several) */
  int n_paths;
  bool many; /* several files: each named ("# PATH"; JSON: "file") */
} args;

/* 0: go on; -1: help printed; else an exit status. */
static int parse(args *a, int argc, char **argv, bool want_values) {
  a->values = calloc((size_t)argc, sizeof *a->values);
  a->paths = calloc((size_t)argc, sizeof *a->paths);
  if (!a->values || !a->paths) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  static const cli_opt opts[] = {{"column", 'c', 1, 'c'}, {"columns", 0, 1, 'c'}, {"json", 0, 0, 'j'}, {0}};
  cli_args ca;
  cli_args_init(&ca, a->cmd, argc, argv, opts);
  for (int id; (id = cli_next(&ca)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: cli_help(a->usage, a->summary); return -1;
      case CLI_ERROR: return EXIT_USAGE;
      case 'c': a->column = ca.arg; break;
      case 'j': a->json = 1; break;
      default:
        if (!a->path) a->path = ca.arg;
        else if (want_values) a->values[a->n_values++] = ca.arg;
        if (!want_values) a->paths[a->n_paths++] = ca.arg;
    }
  }
  if (!a->column) {
    usage(a->cmd, "%s", "missing -c COL");
    return EXIT_USAGE;
  }
  if (!a->path) return usage(a->cmd, "%s", "missing FILE");
  if (want_values && a->n_values == 0) return usage(a->cmd, "%s", "missing VALUE");
  return 0;
}

typedef struct run_ctx {
  args *a;
  int (*body)(pqt_reader *r, int32_t col, const args *a, pqt_error *e);
} run_ctx;

static int run_one(const char *path, void *ctx) {
  run_ctx *rc_ = ctx;
  args *a = rc_->a;
  const char *cmd = a->cmd;
  a->path = path;
  if (a->many && !a->json) printf("# %s\n", path);
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r;
  read_begin(path); /* names the file for the key tools' external key material */
  if (cli_reader_open(&r, path, read_options(), &e) != PQT_OK) {
    fflush(stdout);
    return fail(path, &e);
  }
  int rc;
  int32_t col = pqt_reader_find_column(r, a->column);
  if (col < 0) {
    fflush(stdout);
    rc = usage(cmd, "%s%sno leaf column '%s' (give its dotted path, as `parquetry schema` shows it)",
               a->many ? path : "", a->many ? ": " : "", a->column);
  } else {
    rc = rc_->body(r, col, a, &e);
    if (rc == EXIT_DATA) {
      fflush(stdout);
      fail(path, &e);
    }
  }
  pqt_reader_close(r);
  return rc;
}

static int run(const char *cmd, const char *usage_text, const char *summary, int argc, char **argv, bool want_values,
               int (*body)(pqt_reader *r, int32_t col, const args *a, pqt_error *e)) {
  args a;
  memset(&a, 0, sizeof a);
  a.cmd = cmd;
  a.usage = usage_text;
  a.summary = summary;
  int rc = parse(&a, argc, argv, want_values);
  if (rc) {
    free(a.values);
    free(a.paths);
    return rc < 0 ? 0 : rc;
  }
  run_ctx ctx = {&a, body};
  /* several FILEs, directories, globs: each file in turn, named */
  if (!want_values && dataset_inputs_many(a.paths, a.n_paths)) {
    a.many = true;
    rc = dataset_each_file(cmd, (const char *const *)a.paths, a.n_paths, run_one, &ctx);
  } else {
    rc = run_one(a.path, &ctx);
  }
  free(a.values);
  free(a.paths);
  if (fflush(stdout) != 0 && rc == 0) {
    fprintf(stderr, "parquetry: %s: cannot write the output\n", cmd);
    rc = EXIT_DATA;
  }
  return rc;
}

/* ---- printing --------------------------------------------------------------------- */

/* The canonical text of v (its JSON form), or NULL (err set). Free with pqt_string_free. */
static int value_text(pqt_reader *r, int32_t col, const pqt_value *v, pqt_string *s, pqt_error *e) {
  memset(s, 0, sizeof *s);
  return pqt_reader_format_value(r, col, v, s, e) == PQT_OK ? 0 : EXIT_DATA;
}

/* Print v: whole in JSON, cut to VALUE_WIDTH characters for people; "null" / "-" when absent. */
static int print_value(pqt_reader *r, int32_t col, const pqt_value *v, int json, pqt_error *e) {
  if (v->kind == PQT_VALUE_NONE) {
    fputs(json ? "null" : "-", stdout);
    return 0;
  }
  pqt_string s;
  if (value_text(r, col, v, &s, e)) return EXIT_DATA;
  if (json || s.len <= VALUE_WIDTH) fwrite(s.data, 1, s.len, stdout);
  else printf("%.*s...", VALUE_WIDTH - 3, s.data);
  pqt_string_free(&s);
  return 0;
}

static void print_count(const char *key, int has, int64_t v, int json) {
  if (json) {
    if (has) printf(", \"%s\": %lld", key, (long long)v);
    else printf(", \"%s\": null", key);
  } else if (has) {
    printf(", %s %lld", key, (long long)v);
  }
}

static void json_head(const args *a) {
  printf("{");
  if (a->many) {
    printf("\"file\": ");
    json_print_string(stdout, a->path, strlen(a->path));
    printf(", ");
  }
  printf("\"column\": ");
  json_print_string(stdout, a->column, strlen(a->column));
  printf(", \"row_groups\": [");
}

/* ---- lines of at most 80 columns: pieces joined by ", ", wrapped with an indent ---- */

typedef struct line {
  char buf[256];
  size_t len;
  int pieces;
} line;

static void line_start(line *l, const char *head) {
  l->len = (size_t)snprintf(l->buf, sizeof l->buf, "%s", head);
  l->pieces = 0;
}

static void line_add(line *l, const char *piece) {
  size_t n = strlen(piece);
  const char *sep = l->pieces ? ", " : " ";
  if (l->pieces && l->len + 2 + n > 80) {
    printf("%s,\n", l->buf);
    l->len = (size_t)snprintf(l->buf, sizeof l->buf, "   ");
    sep = " ";
  }
  l->len += (size_t)snprintf(l->buf + l->len, sizeof l->buf - l->len, "%s%s", sep, piece);
  if (l->len >= sizeof l->buf) l->len = sizeof l->buf - 1;
  l->pieces++;
}

static void line_end(line *l) { printf("%s\n", l->buf); }

/* "LABEL VALUE" with the value's text cut to VALUE_WIDTH characters ("-" when absent). */
static int line_value(line *l, pqt_reader *r, int32_t col, const char *label, const pqt_value *v, pqt_error *e) {
  char piece[64];
  if (v->kind == PQT_VALUE_NONE) {
    snprintf(piece, sizeof piece, "%s -", label);
  } else {
    pqt_string s;
    if (value_text(r, col, v, &s, e)) return EXIT_DATA;
    if (s.len <= VALUE_WIDTH) snprintf(piece, sizeof piece, "%s %s", label, s.data);
    else snprintf(piece, sizeof piece, "%s %.*s...", label, VALUE_WIDTH - 3, s.data);
    pqt_string_free(&s);
  }
  line_add(l, piece);
  return 0;
}

static void line_count(line *l, const char *label, int64_t v) {
  char piece[64];
  snprintf(piece, sizeof piece, "%s %lld", label, (long long)v);
  line_add(l, piece);
}

/* ---- dictionary -------------------------------------------------------------------- */

static int dictionary_body(pqt_reader *r, int32_t col, const args *a, pqt_error *e) {
  int32_t ng = pqt_reader_num_row_groups(r);
  if (a->json) json_head(a);
  for (int32_t g = 0; g < ng; g++) {
    pqt_dictionary d;
    pqt_dictionary_init(&d);
    if (pqt_reader_dictionary_values(r, g, col, &d, e) != PQT_OK) {
      if (a->json) printf("]}\n");
      return EXIT_DATA;
    }
    if (a->json) {
      printf("%s{\"row_group\": %d, \"values\": ", g ? ", " : "", g);
      if (!d.present) printf("null");
      else putchar('[');
    } else if (d.present) {
      printf("row group %d: %lld entries\n", g, (long long)d.n_values);
    } else {
      printf("row group %d: no dictionary page\n", g);
    }
    int rc = 0;
    for (int64_t i = 0; rc == 0 && i < d.n_values; i++) {
      if (a->json) {
        if (i) fputs(", ", stdout);
      } else {
        printf("  %6lld: ", (long long)i);
      }
      pqt_string s;
      rc = value_text(r, col, &d.values[i], &s, e);
      if (rc == 0) {
        /* people see a line cut to 80 columns */
        if (a->json || s.len <= 70) fwrite(s.data, 1, s.len, stdout);
        else printf("%.67s...", s.data);
        pqt_string_free(&s);
      }
      if (!a->json) putchar('\n');
    }
    if (a->json) printf("%s}", d.present ? "]" : "");
    pqt_dictionary_free(&d);
    if (rc) {
      if (a->json) printf("]}\n");
      return rc;
    }
  }
  if (a->json) printf("]}\n");
  return 0;
}

int cmd_dictionary(int argc, char **argv) {
  return run("dictionary", cmd_dictionary_usage, cmd_dictionary_summary, argc, argv, false, dictionary_body);
}

/* ---- column-index ------------------------------------------------------------------ */

static int column_index_body(pqt_reader *r, int32_t col, const args *a, pqt_error *e) {
  int32_t ng = pqt_reader_num_row_groups(r);
  if (a->json) json_head(a);
  int rc = 0;
  for (int32_t g = 0; g < ng && rc == 0; g++) {
    pqt_page_index pi;
    pqt_page_index_init(&pi);
    if (pqt_reader_page_index(r, g, col, &pi, e) != PQT_OK) {
      rc = EXIT_DATA;
      break;
    }
    int32_t n = pi.has_column_index ? pi.n_pages : 0;
    if (pi.has_offset_index && pi.n_locations > n) n = pi.n_locations;
    if (a->json) {
      printf("%s{\"row_group\": %d, \"boundary_order\": ", g ? ", " : "", g);
      if (pi.has_column_index) printf("\"%s\"", pqt_boundary_order_name(pi.boundary_order));
      else printf("null");
      printf(", \"has_column_index\": %s, \"has_offset_index\": %s, \"pages\": [",
             pi.has_column_index ? "true" : "false", pi.has_offset_index ? "true" : "false");
    } else {
      printf("row group %d: ", g);
      if (!pi.has_column_index && !pi.has_offset_index) printf("no page index\n");
      else {
        printf("%d pages", n);
        if (pi.has_column_index) printf(", boundary order %s", pqt_boundary_order_name(pi.boundary_order));
        else printf(", no column index");
        if (!pi.has_offset_index) printf(", no offset index");
        printf("\n");
      }
    }
    for (int32_t i = 0; i < n && rc == 0; i++) {
      bool ci = pi.has_column_index && i < pi.n_pages;
      bool oi = pi.has_offset_index && i < pi.n_locations;
      if (a->json) {
        printf("%s{\"page\": %d", i ? ", " : "", i);
        if (ci) printf(", \"null_page\": %s", pi.null_pages[i] ? "true" : "false");
        else printf(", \"null_page\": null");
        print_count("null_count", ci && pi.null_counts, ci && pi.null_counts ? pi.null_counts[i] : 0, 1);
        print_count("nan_count", ci && pi.nan_counts, ci && pi.nan_counts ? pi.nan_counts[i] : 0, 1);
        printf(", \"min\": ");
        if (ci) rc = print_value(r, col, &pi.min_values[i], 1, e);
        else printf("null");
        printf(", \"max\": ");
        if (rc == 0 && ci) rc = print_value(r, col, &pi.max_values[i], 1, e);
        else if (rc == 0) printf("null");
        if (oi)
          printf(", \"offset\": %lld, \"compressed_page_size\": %d, \"first_row_index\": %lld",
                 (long long)pi.page_offsets[i], pi.compressed_page_sizes[i], (long long)pi.first_row_indexes[i]);
        else printf(", \"offset\": null, \"compressed_page_size\": null, \"first_row_index\": null");
        printf("}");
      } else {
        line l;
        char head[32];
        snprintf(head, sizeof head, "  page %d:", i);
        line_start(&l, head);
        if (oi) {
          line_count(&l, "offset", pi.page_offsets[i]);
          char piece[32];
          snprintf(piece, sizeof piece, "%d bytes", pi.compressed_page_sizes[i]);
          line_add(&l, piece);
          line_count(&l, "first row", pi.first_row_indexes[i]);
        }
        if (ci) {
          if (pi.null_pages[i]) line_add(&l, "null page");
          if (pi.null_counts) line_count(&l, "nulls", pi.null_counts[i]);
          if (pi.nan_counts) line_count(&l, "NaNs", pi.nan_counts[i]);
          if (!pi.null_pages[i]) {
            rc = line_value(&l, r, col, "min", &pi.min_values[i], e);
            if (rc == 0) rc = line_value(&l, r, col, "max", &pi.max_values[i], e);
          }
        }
        line_end(&l);
      }
    }
    if (a->json) printf("]}");
    pqt_page_index_free(&pi);
  }
  if (a->json) printf("]}\n");
  return rc;
}

int cmd_column_index(int argc, char **argv) {
  return run("column-index", cmd_column_index_usage, cmd_column_index_summary, argc, argv, false, column_index_body);
}

/* ---- bloom-filter ------------------------------------------------------------------- */

static int bloom_body(pqt_reader *r, int32_t col, const args *a, pqt_error *e) {
  /* parse every value first: a value that does not fit the column is a usage error */
  pqt_value *vals = calloc((size_t)a->n_values, sizeof *vals);
  pqt_string *store = calloc((size_t)a->n_values, sizeof *store);
  int rc = 0;
  if (!vals || !store) {
    fprintf(stderr, "parquetry: out of memory\n");
    rc = EXIT_DATA;
  }
  for (int k = 0; rc == 0 && k < a->n_values; k++) {
    pqt_value_init(&vals[k]);
    pqt_error pe;
    pqt_error_init(&pe);
    if (pqt_reader_parse_value(r, col, a->values[k], &vals[k], &store[k], &pe) != PQT_OK)
      rc = usage(a->cmd, "%s", pe.message);
  }
  int32_t ng = pqt_reader_num_row_groups(r);
  if (rc == 0 && a->json) json_head(a);
  for (int32_t g = 0; rc == 0 && g < ng; g++) {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    if (pqt_reader_chunk(r, g, col, &ci, e) != PQT_OK) {
      rc = EXIT_DATA;
      break;
    }
    bool has = ci.bloom_filter_offset >= 0;
    if (a->json)
      printf("%s{\"row_group\": %d, \"has_bloom_filter\": %s, \"values\": [", g ? ", " : "", g, has ? "true" : "false");
    else if (!has) printf("row group %d: no Bloom filter\n", g);
    for (int k = 0; has && rc == 0 && k < a->n_values; k++) {
      int might = 1;
      if (pqt_bloom_might_contain(r, g, col, &vals[k], &might, e) != PQT_OK) {
        rc = EXIT_DATA;
        break;
      }
      const char *verdict = might ? "might contain" : "definitely not";
      if (a->json) {
        printf("%s{\"value\": ", k ? ", " : "");
        json_print_string(stdout, a->values[k], strlen(a->values[k]));
        printf(", \"might_contain\": %s}", might ? "true" : "false");
      } else {
        size_t len = strlen(a->values[k]);
        if (len <= 40) printf("row group %d: %s: %s\n", g, a->values[k], verdict);
        else printf("row group %d: %.37s...: %s\n", g, a->values[k], verdict);
      }
    }
    if (a->json && rc == 0) printf("]}");
  }
  if (a->json && rc != EXIT_USAGE) printf("]}\n");
  for (int k = 0; store && k < a->n_values; k++) pqt_string_free(&store[k]);
  free(store);
  free(vals);
  return rc;
}

int cmd_bloom_filter(int argc, char **argv) {
  return run("bloom-filter", cmd_bloom_filter_usage, cmd_bloom_filter_summary, argc, argv, true, bloom_body);
}

/* ---- stats ----------------------------------------------------------------------------- */

static const char *exact_word(int32_t x) { return x == 1 ? "true" : x == 0 ? "false" : "null"; }

static int stats_body(pqt_reader *r, int32_t col, const args *a, pqt_error *e) {
  int32_t ng = pqt_reader_num_row_groups(r);
  if (a->json) json_head(a);
  int rc = 0;
  for (int32_t g = 0; g < ng && rc == 0; g++) {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    pqt_chunk_statistics s;
    pqt_chunk_statistics_init(&s);
    if (pqt_reader_chunk(r, g, col, &ci, e) != PQT_OK || pqt_reader_chunk_statistics(r, g, col, &s, e) != PQT_OK) {
      rc = EXIT_DATA;
      break;
    }
    if (a->json) {
      printf("%s{\"row_group\": %d, \"num_values\": %lld, \"statistics\": ", g ? ", " : "", g,
             (long long)ci.num_values);
      if (!s.present) {
        printf("null");
      } else {
        printf("{\"min\": ");
        rc = print_value(r, col, &s.min, 1, e);
        printf(", \"max\": ");
        if (rc == 0) rc = print_value(r, col, &s.max, 1, e);
        printf(", \"min_exact\": %s, \"max_exact\": %s", exact_word(s.min_exact), exact_word(s.max_exact));
        print_count("null_count", s.has_null_count, s.null_count, 1);
        print_count("nan_count", s.has_nan_count, s.nan_count, 1);
        print_count("distinct_count", s.has_distinct_count, s.distinct_count, 1);
        printf(", \"legacy\": %s, \"usable_min\": %s, \"usable_max\": %s}", s.from_legacy ? "true" : "false",
               s.usable_min ? "true" : "false", s.usable_max ? "true" : "false");
      }
    } else {
      printf("row group %d: %lld values", g, (long long)ci.num_values);
      if (!s.present) {
        printf(", no statistics\n");
      } else {
        print_count("nulls", s.has_null_count, s.null_count, 0);
        print_count("NaNs", s.has_nan_count, s.nan_count, 0);
        print_count("distinct", s.has_distinct_count, s.distinct_count, 0);
        if (s.from_legacy) printf(", legacy min/max");
        printf("\n");
        line l;
        line_start(&l, " ");
        rc = line_value(&l, r, col, "min", &s.min, e);
        if (rc == 0) rc = line_value(&l, r, col, "max", &s.max, e);
        if (s.min.kind != PQT_VALUE_NONE && s.min_exact == 0) line_add(&l, "min truncated");
        if (s.max.kind != PQT_VALUE_NONE && s.max_exact == 0) line_add(&l, "max truncated");
        line_end(&l);
        printf("  %s for pruning\n", s.usable_min && s.usable_max ? "usable"
                                     : s.usable_min               ? "min only usable"
                                     : s.usable_max               ? "max only usable"
                                                                  : "not usable");
      }
    }
    if (rc) break;
    pqt_page_index pi;
    pqt_page_index_init(&pi);
    if (pqt_reader_page_index(r, g, col, &pi, e) != PQT_OK) {
      rc = EXIT_DATA;
      break;
    }
    if (a->json) printf(", \"pages\": %s", pi.has_column_index ? "[" : "null");
    for (int32_t i = 0; pi.has_column_index && i < pi.n_pages && rc == 0; i++) {
      if (a->json) {
        printf("%s{\"page\": %d, \"null_page\": %s, \"min\": ", i ? ", " : "", i, pi.null_pages[i] ? "true" : "false");
        rc = print_value(r, col, &pi.min_values[i], 1, e);
        printf(", \"max\": ");
        if (rc == 0) rc = print_value(r, col, &pi.max_values[i], 1, e);
        print_count("null_count", pi.null_counts != NULL, pi.null_counts ? pi.null_counts[i] : 0, 1);
        print_count("nan_count", pi.nan_counts != NULL, pi.nan_counts ? pi.nan_counts[i] : 0, 1);
        printf("}");
      } else {
        line l;
        char head[32];
        snprintf(head, sizeof head, "  page %d:", i);
        line_start(&l, head);
        if (pi.null_pages[i]) {
          line_add(&l, "null page");
        } else {
          rc = line_value(&l, r, col, "min", &pi.min_values[i], e);
          if (rc == 0) rc = line_value(&l, r, col, "max", &pi.max_values[i], e);
        }
        if (pi.null_counts) line_count(&l, "nulls", pi.null_counts[i]);
        if (pi.nan_counts) line_count(&l, "NaNs", pi.nan_counts[i]);
        line_end(&l);
      }
    }
    if (a->json) printf("%s}", pi.has_column_index ? "]" : "");
    pqt_page_index_free(&pi);
  }
  if (a->json) printf("]}\n");
  return rc;
}

int cmd_stats(int argc, char **argv) {
  return run("stats", cmd_stats_usage, cmd_stats_summary, argc, argv, false, stats_body);
}
