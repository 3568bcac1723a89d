/*
 * cli/size_stats.c: `parquetry size-stats`: the SizeStatistics of every
 * column chunk (unencoded byte-array bytes, repetition and definition level
 * histograms) with its compressed and uncompressed sizes, on the metadata
 * API (parquetry_meta.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect2.h"
#include "parquetry.h"
#include "parquetry_meta.h"

const char cmd_size_stats_summary[] =
    "The SizeStatistics of each column chunk: the bytes of its BYTE_ARRAY values\n"
    "before encoding (unencoded_byte_array_data_bytes) and how many values sit at\n"
    "each repetition and definition level (the histograms), with the chunk's\n"
    "compressed and uncompressed sizes. Chunks whose writer stored no\n"
    "SizeStatistics say so (\"none\").\n\n"
    "  -c, --column PATH   only the columns under PATH\n"
    "  --json              {\"row_groups\": [{\"row_group\", \"num_rows\", \"columns\":\n"
    "                      [{\"column\", \"compressed_size\", \"uncompressed_size\",\n"
    "                      \"size_statistics\": null or {\"unencoded_byte_array_data_bytes\",\n"
    "                      \"repetition_level_histogram\", \"definition_level_histogram\"}\n"
    "                      (each null when absent)}]}]}\n\n"
    "Several FILEs, directories and globs: each file in turn after a line \"# PATH\"\n"
    "(--json: one object a file, with \"file\": PATH first)." READ_OPTIONS_HELP;
const char cmd_size_stats_usage[] = "parquetry size-stats [-c PATH] [--json] FILE...";

static void json_hist(const char *key, const int64_t *h, int32_t n) {
  printf(", \"%s\": ", key);
  if (!h) {
    printf("null");
    return;
  }
  putchar('[');
  for (int32_t i = 0; i < n; i++) printf("%s%lld", i ? ", " : "", (long long)h[i]);
  putchar(']');
}

static void human_hist(const char *label, const int64_t *h, int32_t n) {
  printf("    %s: ", label);
  if (!h) {
    printf("absent\n");
    return;
  }
  /* "level: count" pieces, wrapped within the width */
  int width = human_width(), col = 6 + (int)strlen(label);
  for (int32_t i = 0; i < n; i++) {
    char c[32], piece[64];
    snprintf(piece, sizeof piece, "%s%d: %s", i ? ", " : "", i, human_count(c, sizeof c, h[i]));
    if (i && col + (int)strlen(piece) > width) {
      printf(",\n      ");
      col = 6;
      snprintf(piece, sizeof piece, "%d: %s", i, c);
    }
    fputs(piece, stdout);
    col += (int)strlen(piece);
  }
  putchar('\n');
}

typedef struct size_args {
  const char *column;
  int json;
  bool many; /* several files: each named */
} size_args;

static int size_stats_one(const char *path, void *ctx) {
  const size_args *sa = ctx;
  const char *column = sa->column;
  int json = sa->json;
  if (sa->many && !json) printf("# %s\n", path);
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  int32_t nc = pqt_reader_num_columns(r), ng = pqt_reader_num_row_groups(r), matched = 0;
  const char **paths = calloc((size_t)(nc > 0 ? nc : 1), sizeof *paths);
  if (!paths) {
    pqt_reader_close(r);
    return EXIT_DATA;
  }
  for (int32_t c = 0; c < nc; c++) {
    pqt_column_info ci;
    pqt_column_info_init(&ci);
    paths[c] = pqt_reader_column_info(r, c, &ci, NULL) == PQT_OK ? ci.path : NULL;
    size_t n = column ? strlen(column) : 0;
    if (paths[c] && column &&
        !(strcmp(paths[c], column) == 0 || (strncmp(paths[c], column, n) == 0 && paths[c][n] == '.')))
      paths[c] = NULL;
    matched += paths[c] != NULL;
  }
  if (column && !matched) {
    free(paths);
    pqt_reader_close(r);
    return usage("size-stats", "no column '%s' (give a name or dotted path, as `parquetry schema` shows it)", column);
  }
  pqt_error e;
  pqt_error_init(&e);
  if (json) {
    printf("{");
    if (sa->many) {
      printf("\"file\": ");
      json_print_string(stdout, path, strlen(path));
      printf(", ");
    }
    printf("\"row_groups\": [");
  }
  int64_t with = 0, without = 0;
  for (int32_t g = 0; g < ng && rc == 0; g++) {
    char s1[32], s2[32];
    if (json)
      printf("%s\n  {\"row_group\": %d, \"num_rows\": %lld, \"columns\": [", g ? "," : "", g,
             (long long)pqt_reader_row_group_num_rows(r, g));
    else
      printf("%srow group %d: %s rows\n", g ? "\n" : "", g,
             human_count(s1, sizeof s1, pqt_reader_row_group_num_rows(r, g)));
    bool first = true;
    for (int32_t c = 0; c < nc && rc == 0; c++) {
      if (!paths[c]) continue;
      pqt_chunk_info ci;
      pqt_chunk_info_init(&ci);
      pqt_size_stats ss;
      pqt_size_stats_init(&ss);
      if (pqt_reader_chunk(r, g, c, &ci, &e) != PQT_OK || pqt_reader_chunk_size_stats(r, g, c, &ss, &e) != PQT_OK) {
        if (e.code == PQT_ECRYPTO) {
          if (!json) printf("  %s: not shown (encrypted, no key)\n", paths[c]);
          continue;
        }
        rc = read_fail(path, &e);
        break;
      }
      ss.present ? with++ : without++;
      if (json) {
        printf("%s\n    {\"column\": ", first ? "" : ",");
        first = false;
        json_print_string(stdout, paths[c], strlen(paths[c]));
        printf(", \"compressed_size\": %lld, \"uncompressed_size\": %lld, \"size_statistics\": ",
               (long long)ci.total_compressed_size, (long long)ci.total_uncompressed_size);
        if (!ss.present) {
          printf("null}");
          continue;
        }
        printf("{\"unencoded_byte_array_data_bytes\": ");
        if (ss.has_unencoded_byte_array_data_bytes) printf("%lld", (long long)ss.unencoded_byte_array_data_bytes);
        else printf("null");
        json_hist("repetition_level_histogram", ss.repetition_level_histogram, ss.n_repetition_level_histogram);
        json_hist("definition_level_histogram", ss.definition_level_histogram, ss.n_definition_level_histogram);
        printf("}}");
      } else {
        /* the path (its tail when too long), then the sizes on a line of their own when both do not fit */
        char sizes[96];
        snprintf(sizes, sizeof sizes, "%s compressed, %s uncompressed",
                 human_size(s1, sizeof s1, ci.total_compressed_size),
                 human_size(s2, sizeof s2, ci.total_uncompressed_size));
        int pl = (int)strlen(paths[c]), width = human_width();
        if (2 + pl + 2 + (int)strlen(sizes) <= width) {
          printf("  %s%s%s: %s\n", human_bold(), paths[c], human_reset(), sizes);
        } else {
          int room = width - 2;
          printf("  %s%s%s%s\n    %s\n", human_bold(), pl > room ? "..." : "",
                 pl > room ? paths[c] + pl - (room - 3) : paths[c], human_reset(), sizes);
        }
        if (!ss.present) {
          printf("    size statistics: none\n");
          continue;
        }
        if (ss.has_unencoded_byte_array_data_bytes)
          printf("    unencoded byte-array data: %s bytes (%s)\n",
                 human_count(s1, sizeof s1, ss.unencoded_byte_array_data_bytes),
                 human_size(s2, sizeof s2, ss.unencoded_byte_array_data_bytes));
        else printf("    unencoded byte-array data: absent\n");
        human_hist("repetition levels", ss.repetition_level_histogram, ss.n_repetition_level_histogram);
        human_hist("definition levels", ss.definition_level_histogram, ss.n_definition_level_histogram);
      }
    }
    if (json && rc == 0) printf("]}");
  }
  if (json && rc == 0) printf("\n]}\n");
  else if (rc == 0 && with == 0) printf("\nno column chunk has SizeStatistics (%lld chunks)\n", (long long)without);
  free(paths);
  pqt_reader_close(r);
  return rc;
}

int cmd_size_stats(int argc, char **argv) {
  static const cli_opt opts[] = {{"column", 'c', 1, 'c'}, {"columns", 0, 1, 'c'}, {"json", 0, 0, 'j'}, {0}};
  cli_args a;
  cli_args_init(&a, "size-stats", argc, argv, opts);
  size_args sa = {NULL, 0, false};
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_size_stats_usage, cmd_size_stats_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'c': sa.column = a.arg; break;
      case 'j': sa.json = 1; break;
      default: paths[n_paths++] = a.arg;
    }
  }
  if (n_paths == 0) return usage("size-stats", "%s", "missing FILE");
  if (dataset_inputs_many(paths, n_paths)) {
    sa.many = true;
    return dataset_each_file("size-stats", (const char *const *)paths, n_paths, size_stats_one, &sa);
  }
  return size_stats_one(paths[0], &sa);
}
