/*
 * cli/rewrite.c: `parquetry rewrite` (Parquet -> Parquet through the Arrow
 * stream) and `parquetry salvage` (the rows of a file whose footer is lost).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parquetry.h"
#include "parquetry_arrow.h"

#include "cli.h"

const char cmd_rewrite_summary[] =
    "Read a Parquet file and write it anew with the writer's options. The rows keep\n"
    "their order; the schema (every logical type and field id), the file's and the\n"
    "column chunks' key-value metadata and the sorting columns are kept (no row group\n"
    "takes rows of two of the input's when it declares sorting columns); the input's\n"
    "created_by is recorded under parquetry.rewritten_from.\n\n"
    "  --drop-metadata                no key-value metadata of the input (file or\n"
    "                                 column chunk; ARROW:schema included)\n"
    "  --metadata KEY=VALUE           set a key of the file's key-value metadata,\n"
    "                                 replacing the input's (repeatable)\n" WRITER_OPTIONS_HELP "\n" READ_OPTIONS_HELP;
const char cmd_rewrite_usage[] = "parquetry rewrite [OPTIONS] IN.parquet OUT.parquet";
const char cmd_salvage_summary[] =
    "Recover the rows of a file whose footer is lost or corrupt (a writer killed\n"
    "mid-file): scan its pages from the start, group them into column chunks and row\n"
    "groups of the schema, and write every complete row group (and the complete rows\n"
    "of a row group cut short in its last column) to a new file. What was found and\n"
    "what could not be recovered goes to stderr; exit 1 when no row was recovered.\n\n"
    "  --schema 'message m { ... }'   the schema the file was written with\n"
    "  --like OTHER.parquet           take the schema (and column codecs) from a file\n"
    "                                 written the same way\n"
    "  (neither: the damaged file's own footer, if it still reads)\n"
    "  --metadata KEY=VALUE           set a key of the key-value metadata (repeatable)\n" WRITER_OPTIONS_HELP
    "\n" READ_OPTIONS_HELP;
const char cmd_salvage_usage[] =
    "parquetry salvage [--schema MSG | --like OTHER.parquet] [OPTIONS] DAMAGED.parquet OUT.parquet";

/* ---- options of rewrite and salvage beyond the writer's ----------------------- */

typedef struct own_options {
  char **rest; /* argv without them, for parse_args */
  int n_rest;
  const char **keys; /* --metadata KEY=VALUE */
  const char **values;
  char **copies;
  int n_kv;
  bool drop_metadata; /* --drop-metadata */
} own_options;

static void own_free(own_options *o) {
  for (int i = 0; i < o->n_kv; i++) free(o->copies[i]);
  free(o->copies);
  free(o->keys);
  free(o->values);
  free(o->rest);
}

/* Take the reading options (cli/read_options.c), --metadata and
 * --drop-metadata out of argv; the rest, with argv[0], goes to the writer
 * options' parser. Returns 0 or an exit status. */
static int take_own_options(const char *cmd, int argc, char **argv, bool rewrite, own_options *o) {
  memset(o, 0, sizeof *o);
  o->rest = calloc((size_t)argc + 1, sizeof *o->rest);
  o->keys = calloc((size_t)argc + 1, sizeof *o->keys);
  o->values = calloc((size_t)argc + 1, sizeof *o->values);
  o->copies = calloc((size_t)argc + 1, sizeof *o->copies);
  if (!o->rest || !o->keys || !o->values || !o->copies) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  o->rest[o->n_rest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    int ro = read_option(cmd, argc, argv, &i);
    if (ro == 2) return EXIT_USAGE;
    if (ro == 1) continue;
    if (rewrite && strcmp(argv[i], "--drop-metadata") == 0) {
      o->drop_metadata = true;
    } else if (strcmp(argv[i], "--metadata") == 0) {
      if (i + 1 >= argc) return usage(cmd, "option '%s' needs a value (KEY=VALUE)", argv[i]);
      const char *kv = argv[++i];
      const char *eq = strchr(kv, '=');
      if (!eq || eq == kv) return usage(cmd, "bad --metadata '%s' (KEY=VALUE)", kv);
      char *copy = strdup(kv);
      if (!copy) {
        fprintf(stderr, "parquetry: out of memory\n");
        return EXIT_DATA;
      }
      copy[eq - kv] = '\0';
      o->copies[o->n_kv] = copy;
      o->keys[o->n_kv] = copy;
      o->values[o->n_kv] = copy + (eq - kv) + 1;
      o->n_kv++;
    } else {
      o->rest[o->n_rest++] = argv[i];
    }
  }
  return 0;
}

/* ---- rewrite ----------------------------------------------------------------- */

int cmd_rewrite(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_rewrite_usage, cmd_rewrite_summary);
    return 0;
  }
  own_options own;
  int rc = take_own_options("rewrite", argc, argv, true, &own);
  if (rc) {
    own_free(&own);
    return rc;
  }
  wopts w;
  rc = parse_args("rewrite", own.n_rest, own.rest, &w, CMD_REWRITE);
  if (rc) {
    free_args(&w);
    own_free(&own);
    return rc;
  }
  w.o.kv_keys = own.keys;
  w.o.kv_values = own.values;
  w.o.n_kv = own.n_kv;
  w.o.like_key_value = !own.drop_metadata;
  w.o.like_sorting_columns = 1; /* rows keep their order; row groups are cut below */
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r = NULL;
  pqt_writer *wr = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  /* INT96 travels as its stored bytes, so no value is lost to timestamp[ns] */
  pqt_read_options ro = *read_options();
  ro.int96_as_fixed = 1;
  ro.variant_shredded = 1; /* VARIANT groups copied as stored (shredded columns too) */
  w.o.int96_as_fixed = 1;
  read_begin(w.in);
  if (pqt_reader_open_file(&r, w.in, &ro, &e) != PQT_OK) {
    rc = read_fail(w.in, &e);
    goto out;
  }
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = r};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  if ((rc = check_option_columns("rewrite", &w, wr)) != 0) goto out; /* --bloom/--encoding name columns */
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 65536;
  /* a batch of about 1 GiB at most (its byte arrays must stay under 2 GiB):
   * fewer rows a batch for files of very large values */
  int64_t all_rows = pqt_reader_num_rows(r), bytes = pqt_reader_uncompressed_bytes(r);
  if (all_rows > 0 && bytes > 0 && (double)bytes / (double)all_rows * 65536.0 > (double)(1 << 30)) {
    double fit = (double)(1 << 30) / ((double)bytes / (double)all_rows);
    so.batch_size = fit < 1 ? 1 : (int64_t)fit;
  }
  if (pqt_reader_get_stream(r, &so, &stream, &e) != PQT_OK) {
    rc = read_fail(w.in, &e);
    goto out;
  }
  progress bar;
  int64_t total = 0, done = 0;
  int32_t n_groups = pqt_reader_num_row_groups(r);
  bool sorted = false;
  for (int32_t g = 0; g < n_groups; g++) {
    total += pqt_reader_row_group_num_rows(r, g);
    sorted |= pqt_reader_sorting_columns(r, g, NULL, 0) > 0;
  }
  read_add_rows(total);
  /* a row group of a sorted input is cut where the input's ends (batches
   * never span two; recovering, a batch is a whole row group) */
  bool recovering = read_options()->on_error == PQT_SKIP_CORRUPT;
  int32_t in_group = 0;
  int64_t group_end = n_groups > 0 ? pqt_reader_row_group_num_rows(r, 0) : 0;
  progress_init(&bar, total);
  for (;;) {
    struct ArrowArray b;
    memset(&b, 0, sizeof b);
    int gn = stream.get_next(&stream, &b);
    if (gn != 0) {
      rc = read_stream_fail(w.in, gn, stream.get_last_error(&stream));
      goto out;
    }
    if (!b.release) break;
    pqt_status st = pqt_writer_write_batch(wr, &b, &e);
    done += b.length;
    progress_update(&bar, done);
    b.release(&b);
    if (st == PQT_OK && sorted && (recovering || done >= group_end)) {
      st = pqt_writer_flush_row_group(wr, &e);
      while (in_group + 1 < n_groups && group_end <= done) group_end += pqt_reader_row_group_num_rows(r, ++in_group);
    }
    if (st != PQT_OK) {
      rc = fail(w.out, &e);
      goto out;
    }
  }
  progress_done(&bar);
  pqt_status st = kms_writer_close(wr, &e);
  wr = NULL;
  if (st != PQT_OK) rc = fail(w.out, &e);
out:
  if (stream.release) stream.release(&stream);
  if (wr) pqt_writer_discard(wr);
  if (r) pqt_reader_close(r);
  free_args(&w);
  own_free(&own);
  return read_finish(w.in, rc);
}

/* ---- salvage ----------------------------------------------------------------- */

static pqt_status log_stderr(void *ctx, const char *data, size_t len) {
  (void)ctx;
  fputs("parquetry: salvage: ", stderr);
  fwrite(data, 1, len, stderr);
  return PQT_OK;
}

int cmd_salvage(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_salvage_usage, cmd_salvage_summary);
    return 0;
  }
  own_options own;
  int rc = take_own_options("salvage", argc, argv, false, &own);
  if (rc) {
    own_free(&own);
    return rc;
  }
  wopts w;
  rc = parse_args("salvage", own.n_rest, own.rest, &w, CMD_SALVAGE);
  if (rc) {
    free_args(&w);
    own_free(&own);
    return rc;
  }
  if (w.schema && w.like) {
    free_args(&w);
    own_free(&own);
    return usage("salvage", "%s", "give --schema or --like, not both");
  }
  w.o.kv_keys = own.keys;
  w.o.kv_values = own.values;
  w.o.n_kv = own.n_kv;
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *like = NULL;
  pqt_writer *wr = NULL;
  pqt_string text = {0};
  pqt_io io;
  pqt_io_init(&io);
  const char *message = w.schema;
  const char *schema_from = w.like ? w.like : w.in;
  if (!message) {
    if (pqt_reader_open_file(&like, schema_from, read_options(), &e) != PQT_OK) {
      if (w.like) {
        rc = read_fail(w.like, &e);
      } else {
        fprintf(stderr, "parquetry: %s: the footer does not read (%s); give the schema with --schema or --like\n", w.in,
                e.message);
        rc = EXIT_DATA;
      }
      goto out;
    }
    if (pqt_reader_schema_text(like, &text, &e) != PQT_OK) {
      rc = fail(schema_from, &e);
      goto out;
    }
    message = text.data;
    if (!w.like) fprintf(stderr, "parquetry: salvage: the schema comes from %s's own footer\n", w.in);
  }
  if (pqt_io_open_file(&io, w.in, NULL, &e) != PQT_OK) {
    rc = fail(w.in, &e);
    goto out;
  }
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = message};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.schema ? "--schema" : w.out, &e);
    goto out;
  }
  if ((rc = check_option_columns("salvage", &w, wr)) != 0) goto out; /* --bloom/--encoding name columns */
  pqt_salvage_options so;
  pqt_salvage_options_init(&so);
  so.like = w.like ? like : NULL;
  so.log = log_stderr;
  pqt_salvage_report rep;
  pqt_salvage_report_init(&rep);
  if (pqt_salvage(&io, wr, &so, &rep, &e) != PQT_OK) {
    rc = fail(w.in, &e);
    goto out;
  }
  if (rep.rows == 0) {
    fprintf(stderr, "parquetry: %s: no complete row could be recovered; %s not written\n", w.in, w.out);
    rc = EXIT_DATA;
    goto out;
  }
  pqt_status st = kms_writer_close(wr, &e);
  wr = NULL;
  if (st != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  printf("%s: %lld rows recovered (%d complete row groups", w.out, (long long)rep.rows, (int)rep.row_groups);
  if (rep.partial_rows) printf(", and %lld rows of a row group cut short", (long long)rep.partial_rows);
  printf("); %lld of %lld pages used\n", (long long)rep.pages_used, (long long)rep.pages_found);
out:
  if (wr) pqt_writer_discard(wr);
  if (io.release) io.release(io.private_data);
  pqt_string_free(&text);
  if (like) pqt_reader_close(like);
  free_args(&w);
  own_free(&own);
  return rc;
}
