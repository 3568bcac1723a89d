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
    "Read a Parquet file and write it anew with the writer's options.\n\n" WRITER_OPTIONS_HELP "\n" READ_OPTIONS_HELP;
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
    "  (neither: the damaged file's own footer, if it still reads)\n" WRITER_OPTIONS_HELP "\n" READ_OPTIONS_HELP;
const char cmd_salvage_usage[] =
    "parquetry salvage [--schema MSG | --like OTHER.parquet] [OPTIONS] DAMAGED.parquet OUT.parquet";

/* ---- reading options ------------------------------------------------------- */

/* Take the reading options (cli/read_options.c) out of argv; the rest, with
 * argv[0], goes to the writer options' parser. Returns 0 or an exit status. */
static int take_read_options(const char *cmd, int argc, char **argv, char ***rest, int *n_rest) {
  *rest = calloc((size_t)argc + 1, sizeof **rest);
  if (!*rest) {
    fprintf(stderr, "parquetry: out of memory\n");
    return EXIT_DATA;
  }
  int n = 0;
  (*rest)[n++] = argv[0];
  for (int i = 1; i < argc; i++) {
    int ro = read_option(cmd, argc, argv, &i);
    if (ro == 2) return EXIT_USAGE;
    if (ro == 0) (*rest)[n++] = argv[i];
  }
  *n_rest = n;
  return 0;
}

/* ---- rewrite ----------------------------------------------------------------- */

int cmd_rewrite(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_rewrite_usage, cmd_rewrite_summary);
    return 0;
  }
  char **args = NULL;
  int n_args = 0;
  int rc = take_read_options("rewrite", argc, argv, &args, &n_args);
  if (rc) {
    free(args);
    return rc;
  }
  wopts w;
  rc = parse_args("rewrite", n_args, args, &w, CMD_REWRITE);
  if (rc) {
    free_args(&w);
    free(args);
    return rc;
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r = NULL;
  pqt_writer *wr = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  /* INT96 travels as its stored bytes, so no value is lost to timestamp[ns] */
  pqt_read_options ro = *read_options();
  ro.int96_as_fixed = 1;
  w.o.int96_as_fixed = 1;
  read_begin(w.in);
  if (pqt_reader_open_file(&r, w.in, &ro, &e) != PQT_OK) {
    rc = read_fail(w.in, &e);
    goto out;
  }
  pqt_write_schema ws = {NULL, NULL, r};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 65536;
  if (pqt_reader_get_stream(r, &so, &stream, &e) != PQT_OK) {
    rc = read_fail(w.in, &e);
    goto out;
  }
  progress bar;
  int64_t total = 0, done = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) total += pqt_reader_row_group_num_rows(r, g);
  read_add_rows(total);
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
    if (st != PQT_OK) {
      rc = fail(w.out, &e);
      goto out;
    }
  }
  progress_done(&bar);
  pqt_status st = pqt_writer_close(wr, &e);
  wr = NULL;
  if (st != PQT_OK) rc = fail(w.out, &e);
out:
  if (stream.release) stream.release(&stream);
  if (wr) pqt_writer_discard(wr);
  if (r) pqt_reader_close(r);
  free_args(&w);
  free(args);
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
  char **args = NULL;
  int n_args = 0;
  int rc = take_read_options("salvage", argc, argv, &args, &n_args);
  if (rc) {
    free(args);
    return rc;
  }
  wopts w;
  rc = parse_args("salvage", n_args, args, &w, CMD_SALVAGE);
  if (rc) {
    free_args(&w);
    free(args);
    return rc;
  }
  if (w.schema && w.like) {
    free_args(&w);
    free(args);
    return usage("salvage", "%s", "give --schema or --like, not both");
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *like = NULL;
  pqt_writer *wr = NULL;
  pqt_string text = {0};
  pqt_io io;
  memset(&io, 0, sizeof io);
  const char *message = w.schema;
  const char *schema_from = w.like ? w.like : w.in;
  if (!message) {
    if (pqt_reader_open_file(&like, schema_from, read_options(), &e) != PQT_OK) {
      if (w.like) {
        rc = read_fail(w.like, &e);
      } else {
        fprintf(stderr, "parquetry: %s: the footer does not read (%s); give the schema with --schema or --like\n",
                w.in, e.message);
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
  pqt_write_schema ws = {message, NULL, NULL};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.schema ? "--schema" : w.out, &e);
    goto out;
  }
  pqt_salvage_options so;
  pqt_salvage_options_init(&so);
  so.like = w.like ? like : NULL;
  so.log = log_stderr;
  pqt_salvage_report rep;
  if (pqt_salvage(&io, wr, &so, &rep, &e) != PQT_OK) {
    rc = fail(w.in, &e);
    goto out;
  }
  if (rep.rows == 0) {
    fprintf(stderr, "parquetry: %s: no complete row could be recovered; %s not written\n", w.in, w.out);
    rc = EXIT_DATA;
    goto out;
  }
  pqt_status st = pqt_writer_close(wr, &e);
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
  free(args);
  return rc;
}

