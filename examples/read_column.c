/*
 * read_column.c: open a Parquet file and print one column, a value a line.
 *
 *   read_column FILE COLUMN [MAX_ROWS]
 *
 * The scan is projected to COLUMN (a top-level name or a dotted path such
 * as "address.city"), so only that column's pages are read and decoded.
 * Values arrive as Arrow arrays (the Arrow C Data Interface); this example
 * prints the common primitive types and says which Arrow format it does
 * not show (the `parquetry cat` command prints every type).
 *
 * ctest-args: @CORPUS@/data/alltypes_plain.parquet double_col
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <parquetry.h>
#include <parquetry_arrow.h>

/* Is element i of an Arrow array valid (not null)? Buffer 0 is the validity
 * bitmap; it may be NULL when there is no null. */
static int is_valid(const struct ArrowArray *a, int64_t i) {
  const uint8_t *bits = a->buffers[0];
  int64_t j = a->offset + i;
  return bits == NULL || (bits[j / 8] >> (j % 8)) & 1;
}

/* Print element i of a primitive array whose Arrow format string is fmt. */
static void print_value(const char *fmt, const struct ArrowArray *a, int64_t i) {
  int64_t j = a->offset + i;
  if (!is_valid(a, i)) {
    puts("null");
  } else if (strcmp(fmt, "i") == 0) { /* int32 */
    printf("%" PRId32 "\n", ((const int32_t *)a->buffers[1])[j]);
  } else if (strcmp(fmt, "l") == 0) { /* int64 */
    printf("%" PRId64 "\n", ((const int64_t *)a->buffers[1])[j]);
  } else if (strcmp(fmt, "f") == 0) { /* float32 */
    printf("%.9g\n", (double)((const float *)a->buffers[1])[j]);
  } else if (strcmp(fmt, "g") == 0) { /* float64 */
    printf("%.17g\n", ((const double *)a->buffers[1])[j]);
  } else if (strcmp(fmt, "b") == 0) { /* bool: one bit a value */
    const uint8_t *bits = a->buffers[1];
    puts((bits[j / 8] >> (j % 8)) & 1 ? "true" : "false");
  } else if (strcmp(fmt, "u") == 0 || strcmp(fmt, "z") == 0) { /* utf8, binary: int32 offsets + bytes */
    const int32_t *off = a->buffers[1];
    const char *data = a->buffers[2];
    printf("%.*s\n", (int)(off[j + 1] - off[j]), data + off[j]);
  } else {
    printf("(Arrow format \"%s\" is not printed by this example)\n", fmt);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s FILE COLUMN [MAX_ROWS]\n", argv[0]);
    return 2;
  }
  const char *path = argv[1];
  const char *column = argv[2];
  int64_t max_rows = argc > 3 ? strtoll(argv[3], NULL, 10) : INT64_MAX;

  /* 1. Open the file (memory-mapped). Every call returns a pqt_status and,
   *    on failure, fills err with a message naming where the file is bad. */
  pqt_reader *r;
  pqt_error err;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }

  /* 2. A scan of one column. Options structs are always initialised with
   *    their _init function (it sets struct_size and every default). */
  pqt_scan_options opts;
  pqt_scan_options_init(&opts);
  const char *cols[] = {column};
  opts.columns = cols;
  opts.n_columns = 1;

  struct ArrowArrayStream stream;
  if (pqt_reader_get_stream(r, &opts, &stream, &err) != PQT_OK) { /* e.g. no such column */
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_reader_close(r);
    return 1;
  }
  pqt_reader_close(r); /* the stream keeps what it needs */

  /* 3. The stream's schema: a struct with one child, our column. */
  struct ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) != 0) {
    fprintf(stderr, "%s: %s\n", path, stream.get_last_error(&stream));
    stream.release(&stream);
    return 1;
  }
  printf("# %s (Arrow format \"%s\")\n", schema.children[0]->name, schema.children[0]->format);

  /* 4. Batch by batch: each is a struct array whose child 0 is the column.
   *    get_next returns 0 and a released batch (release == NULL) at the end. */
  int rc = 0;
  int64_t printed = 0;
  struct ArrowArray batch;
  while (printed < max_rows && (rc = stream.get_next(&stream, &batch)) == 0 && batch.release) {
    const struct ArrowArray *col = batch.children[0];
    for (int64_t i = 0; i < col->length && printed < max_rows; i++, printed++)
      print_value(schema.children[0]->format, col, i);
    batch.release(&batch);
  }
  if (printed < max_rows && rc != 0) {
    const char *msg = stream.get_last_error(&stream);
    fprintf(stderr, "%s: %s\n", path, msg ? msg : "read failed");
  }
  schema.release(&schema);
  stream.release(&stream);
  return printed < max_rows && rc != 0;
}
