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
    "Read a Parquet file and write it anew with the writer's options.\n\n" WRITER_OPTIONS_HELP;
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
    "  (neither: the damaged file's own footer, if it still reads)\n" WRITER_OPTIONS_HELP;
const char cmd_salvage_usage[] =
    "parquetry salvage [--schema MSG | --like OTHER.parquet] [OPTIONS] DAMAGED.parquet OUT.parquet";

/* ---- rewrite ----------------------------------------------------------------- */

int cmd_rewrite(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_rewrite_usage, cmd_rewrite_summary);
    return 0;
  }
  wopts w;
  int rc = parse_args("rewrite", argc, argv, &w, CMD_REWRITE);
  if (rc) {
    free_args(&w);
    return rc;
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r = NULL;
  pqt_writer *wr = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  /* INT96 travels as its stored bytes, so no value is lost to timestamp[ns] */
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.int96_as_fixed = 1;
  w.o.int96_as_fixed = 1;
  if (pqt_reader_open_file(&r, w.in, &ro, &e) != PQT_OK) {
    rc = fail(w.in, &e);
    goto out;
  }
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = r};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 65536;
  if (pqt_reader_get_stream(r, &so, &stream, &e) != PQT_OK) {
    rc = fail(w.in, &e);
    goto out;
  }
  progress bar;
  int64_t total = 0, done = 0;
  for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) total += pqt_reader_row_group_num_rows(r, g);
  progress_init(&bar, total);
  for (;;) {
    struct ArrowArray b;
    memset(&b, 0, sizeof b);
    if (stream.get_next(&stream, &b) != 0) {
      const char *m = stream.get_last_error(&stream);
      fprintf(stderr, "parquetry: %s: %s\n", w.in, m ? m : "read failed");
      rc = EXIT_DATA;
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
  return rc;
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
  wopts w;
  int rc = parse_args("salvage", argc, argv, &w, CMD_SALVAGE);
  if (rc) {
    free_args(&w);
    return rc;
  }
  if (w.schema && w.like) {
    free_args(&w);
    return usage("salvage", "%s", "give --schema or --like, not both");
  }
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
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    if (pqt_reader_open_file(&like, schema_from, &ro, &e) != PQT_OK) {
      if (w.like) {
        rc = fail(w.like, &e);
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
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = message};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.schema ? "--schema" : w.out, &e);
    goto out;
  }
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
  return rc;
}

