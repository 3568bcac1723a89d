/*
 * filter.c: read only the rows where a predicate holds (parquetry_filter.h),
 * and see what the scan could skip.
 *
 *   filter                 writes sales.parquet (4 row groups) in the current
 *                          folder, then filters it with a predicate built in C
 *   filter FILE 'EXPR'     filters FILE with EXPR in the text syntax, e.g.
 *                          "id >= 2500 AND region = 'north'"
 *
 * A predicate is built with the pqt_expr_* builders or parsed from text
 * (pqt_expr_parse); it goes in pqt_scan_options.filter. The stream then
 * returns exactly the rows where it is true (SQL's three-valued logic), and
 * row groups whose statistics, dictionary or Bloom filter show they cannot
 * match are not read at all: pqt_scan_options.stats says what was read.
 *
 * ctest-args:
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <parquetry.h>
#include <parquetry_arrow.h>

#define ROWS       4000
#define GROUP_ROWS 1000

/* A small file of four row groups: id 0..3999 (sorted, so each row group
 * has a narrow min/max), region cycling through three names. */
static int write_sales(const char *path) {
  static int64_t id[ROWS];
  static char text[ROWS * 8];
  static int32_t offsets[ROWS + 1];
  static const char *regions[] = {"north", "south", "west"};
  int32_t len = 0;
  for (int i = 0; i < ROWS; i++) {
    id[i] = i;
    offsets[i] = len;
    const char *s = regions[i % 3];
    memcpy(text + len, s, strlen(s));
    len += (int32_t)strlen(s);
  }
  offsets[ROWS] = len;

  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = "message sales { required int64 id; required binary region (STRING); }";
  pqt_writer *w;
  pqt_error err;
  if (pqt_writer_open_file(&w, path, &ws, NULL, &err) != PQT_OK) { /* NULL: default options */
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  /* Column by column, a row group at a time (pqt_writer_flush_row_group cuts
   * it). Required, top-level columns: no definition or repetition levels.
   * BYTE_ARRAY values are given as offsets into one buffer. */
  pqt_status st = PQT_OK;
  for (int first = 0; first < ROWS && st == PQT_OK; first += GROUP_ROWS) {
    st = pqt_writer_write_column(w, 0, GROUP_ROWS, NULL, NULL, id + first, NULL, GROUP_ROWS, &err);
    if (st == PQT_OK) {
      int32_t rebased[GROUP_ROWS + 1]; /* this group's offsets, from 0 */
      for (int i = 0; i <= GROUP_ROWS; i++) rebased[i] = offsets[first + i] - offsets[first];
      st = pqt_writer_write_column(w, 1, GROUP_ROWS, NULL, NULL, text + offsets[first], rebased, GROUP_ROWS, &err);
    }
    if (st == PQT_OK) st = pqt_writer_flush_row_group(w, &err);
  }
  if (st != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_writer_discard(w);
    return 1;
  }
  if (pqt_writer_close(w, &err) != PQT_OK) { /* footer written, temporary file renamed */
    fprintf(stderr, "%s: %s\n", path, err.message);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *path = "sales.parquet";
  pqt_expr *expr = NULL;
  pqt_error err;

  if (argc == 3) {
    /* The text form: errors give the position, "position 12: expected a literal". */
    path = argv[1];
    if (pqt_expr_parse(argv[2], strlen(argv[2]), &expr, &err) != PQT_OK) {
      fprintf(stderr, "'%s': %s\n", argv[2], err.message);
      return 2;
    }
  } else if (argc == 1) {
    if (write_sales(path) != 0) return 1;
    /* The same as the text "id >= 2500 AND region = 'north'". Combinators take
     * ownership of their arguments, so the calls nest and one free is enough. */
    expr = pqt_expr_and(pqt_expr_compare(PQT_CMP_GE, pqt_expr_column("id"), pqt_expr_int(2500)),
                        pqt_expr_compare(PQT_CMP_EQ, pqt_expr_column("region"), pqt_expr_string("north", 5)));
    if (!expr) {
      fprintf(stderr, "out of memory\n");
      return 1;
    }
  } else {
    fprintf(stderr, "usage: %s [FILE 'EXPR']\n", argv[0]);
    return 2;
  }

  pqt_string text = {0};
  if (pqt_expr_to_string(expr, &text, &err) == PQT_OK) {
    printf("filter: %.*s\n", (int)text.len, text.data);
    pqt_string_free(&text);
  }

  pqt_reader *r;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_expr_free(expr);
    return 1;
  }
  /* Bind the predicate to the file's schema before scanning: an unknown
   * column or a literal that does not fit the column's type is an error here. */
  if (pqt_expr_check(expr, r, &err) != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_reader_close(r);
    pqt_expr_free(expr);
    return 2;
  }

  pqt_scan_stats stats; /* filled after each batch; must outlive the stream */
  memset(&stats, 0, sizeof stats);
  pqt_scan_options opts;
  pqt_scan_options_init(&opts);
  opts.filter = expr; /* must outlive the stream too */
  opts.stats = &stats;

  struct ArrowArrayStream stream;
  pqt_status st = pqt_reader_get_stream(r, &opts, &stream, &err);
  pqt_reader_close(r);
  if (st != PQT_OK) {
    fprintf(stderr, "%s: %s\n", path, err.message);
    pqt_expr_free(expr);
    return 1;
  }
  int rc;
  int64_t rows = 0;
  struct ArrowArray batch;
  while ((rc = stream.get_next(&stream, &batch)) == 0 && batch.release) {
    rows += batch.length; /* every row of every batch satisfies the predicate */
    batch.release(&batch);
  }
  if (rc != 0) {
    const char *msg = stream.get_last_error(&stream);
    fprintf(stderr, "%s: %s\n", path, msg ? msg : "read failed");
  }
  stream.release(&stream);
  pqt_expr_free(expr);
  if (rc != 0) return 1;

  char line[256];
  pqt_scan_stats_format(&stats, line, sizeof line);
  printf("%" PRId64 " rows match\n%s\n", rows, line);
  printf("row groups skipped: %" PRId64 " by statistics, %" PRId64 " by dictionary, %" PRId64 " by Bloom filter\n",
         stats.row_groups_pruned_stats, stats.row_groups_pruned_dictionary, stats.row_groups_pruned_bloom);
  if (argc == 1 && (rows != 500 || stats.row_groups_pruned_stats != 2)) {
    /* ids 2500..3999 with region north: every third row of 1500 */
    fprintf(stderr, "expected 500 rows and 2 row groups skipped by statistics\n");
    return 1;
  }
  return 0;
}
