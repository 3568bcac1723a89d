/*
 * cli/schema.c: `parquetry schema`: the Parquet schema in the message
 * syntax, as JSON (the schema tree of the metadata API, parquetry_meta.h),
 * or the Arrow schema the reader exports (format strings spelled out, field
 * metadata decoded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect2.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_dataset.h"
#include "parquetry_meta.h"

const char cmd_schema_summary[] =
    "Print the schema: by default in the Parquet message syntax.\n\n"
    "  --json    the Parquet schema tree as JSON: {\"name\", \"repetition\",\n"
    "            \"physical_type\", \"type_length\", \"logical_type\", \"scale\",\n"
    "            \"precision\", \"unit\", \"is_adjusted_to_utc\", \"bit_width\", \"is_signed\",\n"
    "            \"field_id\", \"max_definition_level\", \"max_repetition_level\", \"path\",\n"
    "            \"children\": [...]} (keys that do not apply are left out)\n"
    "  --arrow   the Arrow schema the reader exports (what a stream of this file\n"
    "            gives): one line per field, its Arrow format string with its\n"
    "            meaning (\"u = utf8\", \"tsu:UTC = timestamp[us, tz=UTC]\"), nullability\n"
    "            and metadata (key = value); with --json: {\"name\", \"format\",\n"
    "            \"type\", \"nullable\", \"metadata\": {KEY: VALUE} or null,\n"
    "            \"children\": [...]}\n\n"
    "Several FILEs, directories or globs: each file's schema after a \"# FILE\" line;\n"
    "with --arrow the dataset's one schema (as cat reads them: partition columns,\n"
    "widened types)." READ_OPTIONS_HELP;
const char cmd_schema_usage[] = "parquetry schema [--json] [--arrow] FILE...";

/* ---- the Parquet schema as JSON ---- */

static const char *unit_name(int32_t u) {
  return u == PQT_UNIT_MILLIS ? "MILLIS" : u == PQT_UNIT_MICROS ? "MICROS" : u == PQT_UNIT_NANOS ? "NANOS" : NULL;
}

static int json_node(pqt_reader *r, int32_t node, int depth, pqt_error *e) {
  pqt_schema_info s;
  pqt_schema_info_init(&s);
  if (pqt_reader_schema_node(r, node, &s, e) != PQT_OK) return EXIT_DATA;
  printf("%*s{\"name\": ", depth * 2, "");
  json_print_string(stdout, s.name, s.name_len);
  if (s.repetition >= 0) printf(", \"repetition\": \"%s\"", pqt_repetition_kind_name(s.repetition));
  if (s.is_leaf) {
    printf(", \"physical_type\": \"%s\"", pqt_physical_name(s.physical));
    if (s.type_length >= 0 && s.physical == PQT_TYPE_FIXED_LEN_BYTE_ARRAY)
      printf(", \"type_length\": %d", s.type_length);
  }
  if (s.logical != PQT_LOGICAL_NONE) {
    printf(", \"logical_type\": \"%s\"", pqt_logical_name(s.logical));
    if (s.logical == PQT_LOGICAL_DECIMAL) printf(", \"scale\": %d, \"precision\": %d", s.scale, s.precision);
    if ((s.logical == PQT_LOGICAL_TIME || s.logical == PQT_LOGICAL_TIMESTAMP) && unit_name(s.unit))
      printf(", \"unit\": \"%s\", \"is_adjusted_to_utc\": %s", unit_name(s.unit), s.is_utc ? "true" : "false");
    if (s.logical == PQT_LOGICAL_INTEGER)
      printf(", \"bit_width\": %d, \"is_signed\": %s", s.bit_width, s.is_signed ? "true" : "false");
  }
  if (s.has_field_id) printf(", \"field_id\": %d", s.field_id);
  printf(", \"max_definition_level\": %d, \"max_repetition_level\": %d", s.max_def, s.max_rep);
  if (s.is_leaf) {
    printf(", \"path\": ");
    json_print_string(stdout, s.path, strlen(s.path));
    printf("}");
    return 0;
  }
  printf(", \"children\": [");
  for (int32_t i = 0; i < s.n_children; i++) {
    printf("%s\n", i ? "," : "");
    int rc = json_node(r, pqt_reader_schema_child(r, node, i), depth + 1, e);
    if (rc) return rc;
  }
  printf("%s]}", s.n_children ? "\n" : "");
  if (s.n_children) printf("%*s", 0, "");
  return 0;
}

/* ---- the Arrow schema ---- */

static int32_t get_i32(const char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Print the metadata (int32 count, then int32-length-prefixed key and value pairs). */
static void arrow_metadata(const char *md, int json, int indent) {
  if (!md) {
    if (json) printf(", \"metadata\": null");
    return;
  }
  int32_t n = get_i32(md);
  const char *p = md + 4;
  if (json) printf(", \"metadata\": {");
  for (int32_t i = 0; i < n; i++) {
    int32_t kl = get_i32(p);
    const char *k = p + 4;
    int32_t vl = get_i32(k + kl);
    const char *v = k + kl + 4;
    p = v + vl;
    if (json) {
      printf("%s", i ? ", " : "");
      json_print_string(stdout, k, (size_t)kl);
      printf(": ");
      json_print_string(stdout, v, (size_t)vl);
    } else {
      int room = human_width() - indent - kl - 5;
      if (room < 10) room = 10;
      if (vl <= room) printf("%*s  %.*s = %.*s\n", indent, "", (int)kl, k, (int)vl, v);
      else printf("%*s  %.*s = %.*s... (%d bytes)\n", indent, "", (int)kl, k, room - 16 > 0 ? room - 16 : 1, v, vl);
    }
  }
  if (json) printf("}");
}

static void arrow_field(const struct ArrowSchema *s, int depth, int json) {
  char buf[96];
  const char *type = pqt_arrow_format_name(s->format, buf, sizeof buf);
  bool nullable = (s->flags & ARROW_FLAG_NULLABLE) != 0;
  if (json) {
    printf("%*s{\"name\": ", depth * 2, "");
    json_print_string(stdout, s->name ? s->name : "", s->name ? strlen(s->name) : 0);
    printf(", \"format\": ");
    json_print_string(stdout, s->format, strlen(s->format));
    printf(", \"type\": ");
    json_print_string(stdout, type, strlen(type));
    printf(", \"nullable\": %s", nullable ? "true" : "false");
    arrow_metadata(s->metadata, 1, 0);
    printf(", \"children\": [");
    for (int64_t i = 0; i < s->n_children; i++) {
      printf("%s\n", i ? "," : "");
      arrow_field(s->children[i], depth + 1, 1);
    }
    printf("%s]}", s->n_children ? "\n" : "");
    return;
  }
  printf("%*s%s%s%s: %s (\"%s\")%s\n", depth * 2, "", human_bold(), s->name ? s->name : "", human_reset(), type,
         s->format, nullable ? "" : " not null");
  arrow_metadata(s->metadata, 0, depth * 2);
  for (int64_t i = 0; i < s->n_children; i++) arrow_field(s->children[i], depth + 1, 0);
}

static int schema_one(const char *path, int json, int arrow) {
  pqt_reader *r;
  int rc = read_open(path, &r);
  if (rc) return rc;
  pqt_error e;
  pqt_error_init(&e);
  if (arrow) {
    struct ArrowArrayStream st;
    memset(&st, 0, sizeof st);
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    if (pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) {
      rc = read_fail(path, &e);
    } else {
      struct ArrowSchema sc;
      memset(&sc, 0, sizeof sc);
      int ge = st.get_schema(&st, &sc);
      if (ge != 0) {
        const char *msg = st.get_last_error ? st.get_last_error(&st) : NULL;
        rc = read_stream_fail(path, ge, msg);
      } else {
        if (json) {
          arrow_field(&sc, 0, 1);
          printf("\n");
        } else {
          /* the top-level struct is the record batch: show its fields */
          printf("Arrow schema (%lld fields)\n", (long long)sc.n_children);
          arrow_metadata(sc.metadata, 0, 0);
          for (int64_t i = 0; i < sc.n_children; i++) arrow_field(sc.children[i], 1, 0);
        }
        sc.release(&sc);
      }
      st.release(&st);
    }
  } else if (json) {
    rc = json_node(r, 0, 0, &e);
    if (rc) rc = read_fail(path, &e);
    else printf("\n");
  } else {
    pqt_string s = {0};
    if (pqt_reader_schema_text(r, &s, &e) != PQT_OK) rc = read_fail(path, &e);
    else {
      fwrite(s.data, 1, s.len, stdout);
      if (s.len == 0 || s.data[s.len - 1] != '\n') fputc('\n', stdout);
      pqt_string_free(&s);
    }
  }
  pqt_reader_close(r);
  return rc;
}

typedef struct schema_args {
  int json, arrow;
} schema_args;

static int schema_each(const char *path, void *ctx) {
  const schema_args *sa = ctx;
  printf("# %s\n", path);
  return schema_one(path, sa->json, sa->arrow);
}

/* Several FILEs with --arrow: the dataset's unified schema (partition
 * columns included); else each file's own, after a "# FILE" line. */
static int schema_many(const char *const *paths, int n, int json, int arrow) {
  if (!arrow) {
    schema_args sa = {json, arrow};
    return dataset_each_file("schema", paths, n, schema_each, &sa);
  }
  pqt_dataset_options o;
  pqt_dataset_options_init(&o);
  o.read = read_options();
  pqt_dataset *ds = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_dataset_open(&ds, paths, n, &o, &e) != PQT_OK) {
    fprintf(stderr, "parquetry: %s\n", e.message);
    return EXIT_DATA;
  }
  struct ArrowSchema sc;
  int rc = 0;
  if (pqt_dataset_schema(ds, &sc, &e) != PQT_OK) {
    fprintf(stderr, "parquetry: %s\n", e.message);
    rc = EXIT_DATA;
  } else {
    if (json) {
      arrow_field(&sc, 0, 1);
      printf("\n");
    } else {
      printf("Arrow schema (%lld fields, %d files)\n", (long long)sc.n_children, (int)pqt_dataset_num_files(ds));
      for (int64_t i = 0; i < sc.n_children; i++) arrow_field(sc.children[i], 1, 0);
    }
    sc.release(&sc);
  }
  pqt_dataset_close(ds);
  return rc;
}

int cmd_schema(int argc, char **argv) {
  static const cli_opt opts[] = {{"json", 0, 0, 'j'}, {"arrow", 0, 0, 'a'}, {0}};
  cli_args a;
  cli_args_init(&a, "schema", argc, argv, opts);
  const char *path = NULL;
  char **paths = argv + 1; /* several FILEs (cli/dataset_input.c): in argv's slots already read */
  int n_paths = 0;
  int json = 0, arrow = 0;
  for (int id; (id = cli_next(&a)) != CLI_END;) {
    switch (id) {
      case CLI_HELP: return cli_help(cmd_schema_usage, cmd_schema_summary);
      case CLI_ERROR: return EXIT_USAGE;
      case 'j': json = 1; break;
      case 'a': arrow = 1; break;
      default:
        if (!path) path = a.arg;
        paths[n_paths++] = (char *)a.arg;
    }
  }
  if (!path) return usage("schema", "%s", "missing FILE");
  if (n_paths > 1 || dataset_input_many(path)) return schema_many((const char *const *)paths, n_paths, json, arrow);
  return schema_one(path, json, arrow);
}
