/*
 * cli/cmd_merge.c: `parquetry merge`: files with the same schema read
 * through the Arrow stream and written anew as one file, with row groups
 * of the size asked for and the writer's options (cli/write_options.c),
 * as `rewrite` writes one file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_edit.h"

#include "cli.h"
#include "edit.h"

const char cmd_merge_summary[] =
    "Read files with the same schema and write their rows, in order, into one file\n"
    "whose row groups have the size asked for (--row-group-size), re-encoding every\n"
    "value with the writer's options. The schema and the first file's key-value\n"
    "metadata are kept; schemas are compared as for concat. To append row groups\n"
    "without re-encoding, use concat.\n\n"
    "  -o, --output OUT               the file to write (required)\n" WRITER_OPTIONS_HELP "\n" READ_OPTIONS_HELP;
const char cmd_merge_usage[] = "parquetry merge -o OUT.parquet [--row-group-size ROWS|SIZE] [OPTIONS] FILE.parquet...";

/* Do two Arrow schemas give batches of the same layout? */
static bool same_layout(const struct ArrowSchema *a, const struct ArrowSchema *b) {
  if (strcmp(a->format, b->format) != 0 || a->n_children != b->n_children) return false;
  if ((a->dictionary == NULL) != (b->dictionary == NULL)) return false;
  if (a->dictionary && !same_layout(a->dictionary, b->dictionary)) return false;
  for (int64_t i = 0; i < a->n_children; i++)
    if (!same_layout(a->children[i], b->children[i])) return false;
  return true;
}

int cmd_merge(int argc, char **argv) {
  if (want_help(argc, argv)) {
    printf("usage: %s\n\n%s\n", cmd_merge_usage, cmd_merge_summary);
    return 0;
  }
  /* the reading options first; the rest goes to the writer options' parser */
  char **rest = calloc((size_t)argc + 1, sizeof *rest);
  if (!rest) return EXIT_DATA;
  int n_rest = 0;
  rest[n_rest++] = argv[0];
  for (int i = 1; i < argc; i++) {
    int ro = read_option("merge", argc, argv, &i);
    if (ro == 2) {
      free(rest);
      return EXIT_USAGE;
    }
    if (ro == 0) rest[n_rest++] = argv[i];
  }
  wopts w;
  int rc = parse_args("merge", n_rest, rest, &w, CMD_MERGE);
  if (rc) {
    free_args(&w);
    free(rest);
    return rc;
  }
  w.o.like_key_value = 1;
  w.o.int96_as_fixed = 1; /* INT96 travels as its stored bytes */
  pqt_read_options ro = *read_options();
  ro.int96_as_fixed = 1;
  ro.variant_shredded = 1; /* VARIANT groups copied as stored */
  pqt_reader **rs = calloc((size_t)(w.n_inputs > 0 ? w.n_inputs : 1), sizeof(pqt_reader *));
  pqt_writer *wr = NULL;
  struct ArrowSchema want;
  memset(&want, 0, sizeof want);
  pqt_error e;
  pqt_error_init(&e);
  const char *at = w.inputs[0]; /* the file being read, for messages */
  int64_t total = 0, done = 0;
  if (!rs) {
    rc = EXIT_DATA;
    goto out;
  }
  for (int i = 0; i < w.n_inputs; i++) {
    at = w.inputs[i];
    read_begin(at);
    if (pqt_reader_open_file(&rs[i], at, &ro, &e) != PQT_OK) {
      rc = read_fail(at, &e);
      goto out;
    }
    if (i > 0 && pqt_edit_same_schema(rs[0], w.inputs[0], rs[i], at, &e) != PQT_OK) {
      fprintf(stderr, "parquetry: %s\n", e.message);
      rc = EXIT_DATA;
      goto out;
    }
    for (int32_t g = 0; g < pqt_reader_num_row_groups(rs[i]); g++) total += pqt_reader_row_group_num_rows(rs[i], g);
  }
  read_add_rows(total);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .like = rs[0]};
  if (pqt_writer_open_file(&wr, w.out, &ws, &w.o, &e) != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  if ((rc = check_option_columns("merge", &w, wr)) != 0) goto out;
  if (pqt_writer_arrow_schema(wr, &want, &e) != PQT_OK) {
    rc = fail(w.out, &e);
    goto out;
  }
  progress bar;
  progress_init(&bar, total);
  for (int i = 0; i < w.n_inputs; i++) {
    at = w.inputs[i];
    read_begin(at);
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    /* about 1 GiB a batch at most, as rewrite reads */
    so.batch_size = 65536;
    int64_t rows = pqt_reader_num_rows(rs[i]), bytes = pqt_reader_uncompressed_bytes(rs[i]);
    if (rows > 0 && bytes > 0 && (double)bytes / (double)rows * 65536.0 > (double)(1 << 30)) {
      double fit = (double)(1 << 30) / ((double)bytes / (double)rows);
      so.batch_size = fit < 1 ? 1 : (int64_t)fit;
    }
    struct ArrowArrayStream stream;
    memset(&stream, 0, sizeof stream);
    if (pqt_reader_get_stream(rs[i], &so, &stream, &e) != PQT_OK) {
      rc = read_fail(at, &e);
      goto out;
    }
    struct ArrowSchema got;
    memset(&got, 0, sizeof got);
    if (stream.get_schema(&stream, &got) != 0) {
      rc = read_stream_fail(at, 1, stream.get_last_error(&stream));
      stream.release(&stream);
      goto out;
    }
    bool same = same_layout(&want, &got);
    got.release(&got);
    if (!same) {
      fprintf(stderr,
              "parquetry: %s: its columns read as other Arrow types than the output's (its ARROW:schema differs "
              "from %s's); merge it separately\n",
              at, w.inputs[0]);
      stream.release(&stream);
      rc = EXIT_DATA;
      goto out;
    }
    for (;;) {
      struct ArrowArray b;
      memset(&b, 0, sizeof b);
      int gn = stream.get_next(&stream, &b);
      if (gn != 0) {
        rc = read_stream_fail(at, gn, stream.get_last_error(&stream));
        break;
      }
      if (!b.release) break;
      pqt_status st = pqt_writer_write_batch(wr, &b, &e);
      done += b.length;
      progress_update(&bar, done);
      b.release(&b);
      if (st != PQT_OK) {
        rc = fail(w.out, &e);
        break;
      }
    }
    stream.release(&stream);
    if (rc) goto out;
  }
  progress_done(&bar);
  int64_t written = pqt_writer_num_rows(wr);
  pqt_status st = pqt_writer_close(wr, &e);
  wr = NULL;
  if (st != PQT_OK) {
    rc = fail(w.out, &e);
  } else if (written != done) {
    fprintf(stderr, "parquetry: %s: %lld rows written of %lld read\n", w.out, (long long)written, (long long)done);
    rc = EXIT_DATA;
  } else {
    char rows[32];
    printf("%s: %s rows from %d file%s, re-encoded\n", w.out, edit_count_text(written, rows, sizeof rows), w.n_inputs,
           w.n_inputs == 1 ? "" : "s");
  }
out:
  if (want.release) want.release(&want);
  if (wr) pqt_writer_discard(wr);
  for (int i = 0; rs && i < w.n_inputs; i++)
    if (rs[i]) pqt_reader_close(rs[i]);
  free(rs);
  free_args(&w);
  free(rest);
  return read_finish(at, rc);
}
