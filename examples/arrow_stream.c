/*
 * arrow_stream.c: stream a whole file as Arrow record batches through the
 * Arrow C Data Interface (ArrowArrayStream), as an engine that consumes
 * Arrow (DuckDB, Polars, nanoarrow, pyarrow via _import_from_c) would.
 *
 *   arrow_stream FILE [BATCH_ROWS]
 *
 * It prints the Arrow schema as a tree (name, Arrow format string, nullable),
 * then each batch's length and the null count of every top-level column,
 * and checks that the batches add up to the row count in the footer.
 *
 * ctest-args: @CORPUS@/data/alltypes_tiny_pages.parquet 2048
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <parquetry.h>
#include <parquetry_arrow.h>

/* The schema tree: a struct (the record batch) whose children are the
 * top-level fields; lists, maps and structs have children of their own. */
static void print_schema(const struct ArrowSchema *s, int depth) {
  printf("%*s%s: \"%s\"%s\n", 2 * depth, "", s->name && *s->name ? s->name : "(batch)", s->format,
         s->flags & ARROW_FLAG_NULLABLE ? " nullable" : "");
  for (int64_t i = 0; i < s->n_children; i++) print_schema(s->children[i], depth + 1);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [BATCH_ROWS]\n", argv[0]);
    return 2;
  }
  const char *path = argv[1];
  pqt_reader *r;
  pqt_error err;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  int64_t footer_rows = pqt_reader_num_rows(r);
  printf("%s: %" PRId64 " rows in %" PRId32 " row groups\n", path, footer_rows, pqt_reader_num_row_groups(r));

  pqt_scan_options opts;
  pqt_scan_options_init(&opts);
  opts.batch_size = argc > 2 ? strtoll(argv[2], NULL, 10) : 0; /* 0: 65,536 rows */

  struct ArrowArrayStream stream;
  pqt_status st = pqt_reader_get_stream(r, &opts, &stream, &err);
  pqt_reader_close(r); /* the stream holds its own reference */
  if (st != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }

  /* The schema is a separate object with its own release callback. */
  struct ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) != 0) {
    fprintf(stderr, "%s: %s\n", path, stream.get_last_error(&stream));
    stream.release(&stream);
    return 1;
  }
  print_schema(&schema, 0);

  /* Batches are decoded when asked for, a page at a time per column.
   * Releasing a batch before asking for the next lets the reader reuse its
   * buffers while they are still in cache. A batch may also be kept (and
   * handed to another thread or library): it owns its memory. */
  int rc;
  int64_t rows = 0, n_batches = 0;
  struct ArrowArray batch;
  while ((rc = stream.get_next(&stream, &batch)) == 0 && batch.release) {
    if (n_batches < 3) { /* the first few, to keep the output short */
      printf("batch %" PRId64 ": %" PRId64 " rows; nulls:", n_batches, batch.length);
      for (int64_t c = 0; c < batch.n_children; c++) printf(" %" PRId64, batch.children[c]->null_count);
      printf("\n");
    }
    rows += batch.length;
    n_batches++;
    batch.release(&batch);
  }
  if (rc != 0) { /* an error while decoding: the message names row group, column and page */
    const char *msg = stream.get_last_error(&stream);
    fprintf(stderr, "%s: %s\n", path, msg ? msg : "read failed");
  }
  schema.release(&schema);
  stream.release(&stream);
  if (rc != 0) return 1;
  printf("%" PRId64 " batches, %" PRId64 " rows\n", n_batches, rows);
  if (rows != footer_rows) {
    fprintf(stderr, "%s: the batches hold %" PRId64 " rows, the footer says %" PRId64 "\n", path, rows, footer_rows);
    return 1;
  }
  return 0;
}
