/*
 * cli/footer.c: `parquetry footer`: where the footer is and how big, the
 * raw FileMetaData as JSON (--json, generated from the Thrift descriptor
 * tables by the library: pqt_reader_metadata_json), and --scrub: a copy
 * of the file with its names and strings replaced (pqt_reader_scrub).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "inspect2.h"
#include "parquetry.h"
#include "parquetry_meta.h"

const char cmd_footer_summary[] =
    "Where the footer is, its size, and what it holds; with --json the raw\n"
    "FileMetaData (the Thrift struct as stored) as JSON: keys are the field names\n"
    "of parquet.thrift, enums their names, binary fields (statistics min/max,\n"
    "ColumnIndex bounds...) base64 strings, string fields JSON strings, unions\n"
    "{\"MEMBER\": {...}}; fields the footer does not set are left out.\n\n"
    "  --json             {\"file_size\", \"footer_offset\", \"footer_length\",\n"
    "                     \"encrypted_footer\", \"FileMetaData\": {...}}\n"
    "  --compact          with --json: on one line\n"
    "  --scrub -o OUT     write OUT: a copy of FILE to share a reproduction without\n"
    "                     the data. Replaced by placeholders of the same byte length:\n"
    "                     column names (not list/element/key_value/key/value...),\n"
    "                     key-value metadata keys and values, and in every column of\n"
    "                     strings or binaries (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY but\n"
    "                     decimals, FLOAT16, INTERVAL, geometries, variants) each value\n"
    "                     (\"xxx\"), statistics and column index bounds (\"aaa\", \"zzz\";\n"
    "                     no longer exact) and the Bloom filter (rebuilt). Numbers,\n"
    "                     dates, levels, null counts, encodings and page boundaries are\n"
    "                     kept. The pages are decoded and rewritten in place (each\n"
    "                     value's bytes overwritten, lengths kept) and compressed\n"
    "                     again with their codec, so `meta --json` of OUT has the\n"
    "                     same structure, uncompressed sizes are the same, and\n"
    "                     compressed sizes and offsets may differ. Encrypted files\n"
    "                     are refused.\n\n"
    "Several FILEs, directories and globs (not with --scrub): each file in turn after\n"
    "a line \"# PATH\" (--json: one object a file, with \"file\": PATH first)." READ_OPTIONS_HELP;
const char cmd_footer_usage[] = "parquetry footer [--json [--compact] | --scrub -o OUT] FILE...";

static pqt_status write_file(void *ctx, const char *data, size_t len) {
  return fwrite(data, 1, len, (FILE *)ctx) == len ? PQT_OK : PQT_EIO;
}

/* footer --scrub: into a temporary file next to OUT, renamed over it when complete. */
static int scrub_file(const char *path, const char *out) {
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  size_t n = strlen(out);
  char *tmp = malloc(n + 16);
  if (!tmp) {
    pqt_reader_close(r);
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  snprintf(tmp, n + 16, "%s.tmp-XXXXXX", out);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    fprintf(stderr, "parquetry: %s: cannot create %s: %s\n", out, tmp, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    free(tmp);
    pqt_reader_close(r);
    return EXIT_DATA;
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_reader_scrub(r, write_file, f, &e);
  bool closed = fclose(f) == 0;
  if (st != PQT_OK) {
    rc = read_fail(path, &e);
  } else if (!closed || rename(tmp, out) != 0) {
    fprintf(stderr, "parquetry: %s: cannot write: %s\n", out, strerror(errno));
    rc = EXIT_DATA;
  }
  if (rc) unlink(tmp);
  free(tmp);
  pqt_reader_close(r);
  return rc;
}

typedef struct footer_args {
  int json, indent;
  bool many; /* several files: each named */
} footer_args;

static int footer_one(const char *path, void *ctx) {
  const footer_args *fa = ctx;
  int json = fa->json, indent = fa->indent;
  if (fa->many && !json) printf("# %s\n", path);
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  pqt_error e;
  pqt_error_init(&e);
  pqt_file_layout fl;
  pqt_file_layout_init(&fl);
  pqt_string s = {0};
  if (pqt_reader_file_layout(r, &fl, &e) != PQT_OK || pqt_reader_metadata_json(r, indent, &s, &e) != PQT_OK) {
    rc = read_fail(path, &e);
  } else if (json) {
    printf("{");
    if (fa->many) {
      printf("\"file\": ");
      json_print_string(stdout, path, strlen(path));
      printf(", ");
    }
    printf(
        "\"file_size\": %lld, \"footer_offset\": %lld, \"footer_length\": %lld, \"encrypted_footer\": %s, "
        "\"FileMetaData\": ",
        (long long)fl.file_size, (long long)fl.footer_offset, (long long)fl.footer_length,
        fl.encrypted_footer ? "true" : "false");
    while (s.len && s.data[s.len - 1] == '\n') s.len--;
    fwrite(s.data, 1, s.len, stdout);
    printf("}\n");
  } else {
    char c1[32], c2[32], c3[32];
    printf("file size:     %s bytes (%s)\n", human_count(c1, sizeof c1, fl.file_size),
           human_size(c2, sizeof c2, fl.file_size));
    printf("footer:        %s bytes (%s) at offset %s, %s\n", human_count(c2, sizeof c2, fl.footer_length),
           human_size(c3, sizeof c3, fl.footer_length), human_count(c1, sizeof c1, fl.footer_offset),
           fl.encrypted_footer ? "encrypted (PARE)" : "plaintext (PAR1)");
    printf("row groups:    %s\n", human_count(c1, sizeof c1, pqt_reader_num_row_groups(r)));
    printf("columns:       %s\n", human_count(c1, sizeof c1, pqt_reader_num_columns(r)));
    printf("schema nodes:  %s\n", human_count(c1, sizeof c1, pqt_reader_schema_node_count(r)));
    printf("key-value:     %s\n", human_count(c1, sizeof c1, pqt_reader_kv_count(r)));
    if (!fa->many) printf("\n'parquetry footer --json' prints the whole FileMetaData.\n");
  }
  pqt_string_free(&s);
  pqt_reader_close(r);
  return rc;
}

int cmd_footer(int argc, char **argv) {
  static const cli_opt opts[] = {
      {"json", 0, 0, 'j'}, {"compact", 0, 0, 'C'}, {"scrub", 0, 0, 's'}, {"output", 'o', 1, 'o'}, {0}};
  cli_args a;
  cli_args_init(&a, "footer", argc, argv, opts);
  const char *out = NULL;
  footer_args fa = {0, 2, false};
  int scrub = 0;
  char **paths = argv + 1; /* several FILEs: in argv's slots already read */
  int n_paths = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_footer_usage, cmd_footer_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': fa.json = 1; break;
      case 'C': fa.indent = 0; break;
      case 's': scrub = 1; break;
      case 'o': out = a.arg; break;
      default: paths[n_paths++] = a.arg;
    }
  }
  if (n_paths == 0) return usage("footer", "%s", "missing FILE");
  if (scrub && fa.json) return usage("footer", "%s", "give --json or --scrub, not both");
  if (scrub && !out) return usage("footer", "%s", "--scrub needs -o OUT");
  if (out && !scrub) return usage("footer", "%s", "-o OUT goes with --scrub");
  if (scrub && n_paths > 1) return usage("footer", "unexpected argument '%s' (--scrub takes one FILE)", paths[1]);
  if (scrub) return scrub_file(paths[0], out);
  if (dataset_inputs_many(paths, n_paths)) {
    fa.many = true;
    return dataset_each_file("footer", (const char *const *)paths, n_paths, footer_one, &fa);
  }
  return footer_one(paths[0], &fa);
}
