/*
 * cli/cmd_prune.c: `parquetry prune`: a copy of a file without some of its
 * columns; the others' column chunks are copied byte for byte
 * (include/parquetry_edit.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"

#include "cli.h"
#include "edit.h"

const char cmd_prune_summary[] =
    "Write a copy of a file without the columns named: top-level fields or dotted\n"
    "leaf paths (a.b.c, as `parquetry schema` shows them); a group goes with all its\n"
    "columns, and a group whose every column is dropped goes too. The other columns'\n"
    "pages are copied byte for byte, with their statistics, page indexes and Bloom\n"
    "filters. Sorting columns are kept up to the first one dropped. Encrypted files\n"
    "are refused. OUT appears only when complete.\n\n"
    "  -c, --columns COL[,COL...]  the columns to drop (repeatable)\n"
    "  -o, --output OUT            the file to write (required)\n"
    "  --json                      what was written as JSON (as concat --json)" READ_OPTIONS_HELP;
const char cmd_prune_usage[] = "parquetry prune [--json] -c COL[,COL...] -o OUT.parquet FILE.parquet";

int cmd_prune(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_prune_usage, cmd_prune_summary);
    return 0;
  }
  const char *out = NULL, *in = NULL;
  char **lists = calloc((size_t)argc + 1, sizeof *lists);
  const char **drop = calloc((size_t)argc + 1, sizeof *drop);
  int n_lists = 0, n_drop = 0, rc = 0;
  if (!lists || !drop) {
    free(lists);
    free(drop);
    return EXIT_DATA;
  }
  bool opts_done = false, json = false;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (edit_common_flag(a, &opts_done, &json)) continue;
    if (!opts_done && a[0] == '-' && a[1]) {
      const char *cols = NULL;
      if (strcmp(a, "-c") == 0 || strcmp(a, "--columns") == 0) {
        if (i + 1 >= argc) {
          rc = usage("prune", "option '%s' needs a value (COL[,COL...])", a);
          continue;
        }
        cols = argv[++i];
      } else if (strncmp(a, "--columns=", 10) == 0) {
        cols = a + 10;
      } else if (strncmp(a, "-c", 2) == 0 && a[2]) {
        cols = a + 2;
      }
      if (cols) {
        char *copy = strdup(cols);
        if (!copy) {
          rc = EXIT_DATA;
          continue;
        }
        lists[n_lists++] = copy;
        size_t names = 1;
        for (const char *p = copy; *p; p++) names += *p == ',';
        const char **nd = realloc(drop, ((size_t)n_drop + names + 1) * sizeof *nd);
        if (!nd) {
          rc = EXIT_DATA;
          continue;
        }
        drop = nd;
        for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) drop[n_drop++] = tok;
        continue;
      }
      int r = edit_output_option("prune", argc, argv, &i, &out);
      if (r == 2) rc = EXIT_USAGE;
      if (r) continue;
      r = read_option("prune", argc, argv, &i);
      if (r == 2) rc = EXIT_USAGE;
      if (r) continue;
      rc = usage("prune", "unknown or incomplete option '%s'", a);
      continue;
    }
    if (in) rc = usage("prune", "unexpected argument '%s' (one input file)", a);
    else in = a;
  }
  if (!rc && n_drop == 0) rc = usage("prune", "%s", "missing -c COL (the columns to drop)");
  if (!rc && !out) rc = usage("prune", "%s", "missing -o OUT (the file to write)");
  if (!rc && !in) rc = usage("prune", "%s", "missing the input file");
  if (!rc) rc = edit_copy("prune", out, &in, 1, drop, n_drop, json);
  for (int i = 0; i < n_lists; i++) free(lists[i]);
  free(lists);
  free(drop);
  return read_finish(in ? in : "prune", rc);
}
