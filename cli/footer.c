/*
 * cli/footer.c: `parquetry footer`: where the footer is and how big, the
 * raw FileMetaData as JSON (--json, generated from the Thrift descriptor
 * tables by the library: pqt_reader_metadata_json), and --scrub: a copy
 * of the file with its names and strings replaced (pqt_reader_scrub).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    "  --compact          with --json: on one line" READ_OPTIONS_HELP;
const char cmd_footer_usage[] = "parquetry footer [--json [--compact]] FILE";

int cmd_footer(int argc, char **argv) {
  static const cli_opt opts[] = {{"json", 0, 0, 'j'}, {"compact", 0, 0, 'C'}, {0}};
  cli_args a;
  cli_args_init(&a, "footer", argc, argv, opts);
  const char *path = NULL;
  int json = 0, indent = 2;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_footer_usage, cmd_footer_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': json = 1; break;
      case 'C': indent = 0; break;
      default:
        if (path) return usage("footer", "unexpected argument '%s'", a.arg);
        path = a.arg;
    }
  }
  if (!path) return usage("footer", "%s", "missing FILE");
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
    printf(
        "{\"file_size\": %lld, \"footer_offset\": %lld, \"footer_length\": %lld, \"encrypted_footer\": %s, "
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
    printf("\n'parquetry footer --json' prints the whole FileMetaData.\n");
  }
  pqt_string_free(&s);
  pqt_reader_close(r);
  return rc;
}
