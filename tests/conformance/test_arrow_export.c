/*
 * Arrow export over the corpus: every readable file is streamed through
 * pqt_reader_get_stream (with and without a batch size) and every batch is
 * checked against the Arrow C Data Interface layout rules by a validator of
 * our own: buffer counts per format, offsets monotone and inside the child,
 * child lengths, null counts equal to the validity bits, fixed widths.
 * The number of rows must equal the file's num_rows, and a few values are
 * compared with the canonical text output.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arrow_width.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static char g_where[4300];

static int fail_at(const char *what) {
  fprintf(stderr, "  invalid array: %s: %s\n", g_where, what);
  return 0;
}

static bool bit(const uint8_t *b, int64_t i) { return (b[i >> 3] >> (i & 7)) & 1; }

/* Validate array a (length+offset slots) against schema s. */
static int validate(const struct ArrowSchema *s, const struct ArrowArray *a) {
  if (!a->release) return fail_at("released");
  if (a->length < 0 || a->offset < 0) return fail_at("negative length/offset");
  for (int64_t b = 0; b < a->n_buffers; b++)
    if ((uintptr_t)a->buffers[b] % 8 != 0) return fail_at("buffer not 8-byte aligned");
  if (a->n_children != s->n_children) return fail_at("children count differs from the schema");
  const char *f = s->format;
  int64_t end = a->offset + a->length;
  const uint8_t *valid = a->n_buffers > 0 ? a->buffers[0] : NULL;
  if (strcmp(f, "n") == 0) return a->n_buffers == 0 ? 1 : fail_at("null type with buffers");
  if (a->null_count > 0 && !valid) return fail_at("nulls but no validity bitmap");
  if (a->null_count >= 0 && valid) {
    int64_t nulls = 0;
    for (int64_t i = a->offset; i < end; i++) nulls += !bit(valid, i);
    if (nulls != a->null_count) return fail_at("null_count differs from the validity bitmap");
  }
  if (!(s->flags & ARROW_FLAG_NULLABLE) && valid && a->null_count > 0 && strcmp(f, "+s") != 0) {
    /* a non-nullable field may only be null under a null parent; checked loosely */
  }
  if (strcmp(f, "+s") == 0) {
    if (a->n_buffers != 1) return fail_at("struct needs 1 buffer");
    for (int64_t k = 0; k < a->n_children; k++) {
      if (a->children[k]->length + 0 < end - a->children[k]->offset && a->children[k]->length < end)
        return fail_at("struct child shorter than the struct");
      if (!validate(s->children[k], a->children[k])) return 0;
    }
    return 1;
  }
  if (strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0 || strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
    bool nested = f[0] == '+';
    if (a->n_buffers != (nested ? 2 : 3)) return fail_at("wrong buffer count for an offsets type");
    const int32_t *off = a->buffers[1];
    if (!off) return fail_at("no offsets");
    int64_t limit = nested ? a->children[0]->length + a->children[0]->offset : INT32_MAX;
    for (int64_t i = a->offset; i < end; i++) {
      if (off[i + 1] < off[i]) return fail_at("offsets decrease");
      if (off[i] < 0 || off[i + 1] > limit) return fail_at("offsets outside the child / data");
    }
    if (!nested && a->length > 0 && !a->buffers[2]) return fail_at("no data buffer");
    if (nested) {
      if (strcmp(f, "+m") == 0) {
        const struct ArrowSchema *e = s->children[0];
        if (strcmp(e->format, "+s") != 0 || e->n_children != 2) return fail_at("map entries must be struct<key,value>");
        if (e->flags & ARROW_FLAG_NULLABLE) return fail_at("map entries must not be nullable");
      }
      return validate(s->children[0], a->children[0]);
    }
    return 1;
  }
  if (strcmp(f, "b") == 0) return a->n_buffers == 2 && (a->length == 0 || a->buffers[1]) ? 1 : fail_at("bool buffers");
  int64_t w = pqt_test_arrow_width(f);
  if (w <= 0) return fail_at("unknown format");
  if (a->n_buffers != 2 || (a->length > 0 && !a->buffers[1])) return fail_at("fixed-width buffers");
  /* touch the last value so ASan checks the buffer is long enough */
  if (a->length > 0) {
    volatile uint8_t last = ((const uint8_t *)a->buffers[1])[(end)*w - 1];
    (void)last;
  }
  return 1;
}

static void check_file(const char *path, int64_t batch_size, int *n_files, int *n_batches) {
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) return; /* not readable without keys etc. */
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = batch_size;
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) {
    pqt_reader_close(r);
    return;
  }
  struct ArrowSchema schema;
  int rc = st.get_schema(&st, &schema);
  CHECK_MSG(rc == 0, "%s: get_schema: %s", path, st.get_last_error(&st));
  int64_t rows = 0;
  bool ok_read = true;
  while (rc == 0) {
    struct ArrowArray a;
    if (st.get_next(&st, &a) != 0) {
      ok_read = false; /* a data error: fine for broken files, reported by other tests */
      break;
    }
    if (!a.release) break;
    snprintf(g_where, sizeof g_where, "%s batch at row %lld", path, (long long)rows);
    CHECK_MSG(validate(&schema, &a), "%s", g_where);
    if (batch_size > 0) CHECK(a.length <= batch_size);
    rows += a.length;
    (*n_batches)++;
    a.release(&a);
    CHECK(a.release == NULL);
  }
  if (ok_read && rc == 0) {
    int64_t want = 0;
    for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) want += pqt_reader_row_group_num_rows(r, g);
    CHECK_MSG(rows == want, "%s: %lld rows streamed, the row groups have %lld", path, (long long)rows, (long long)want);
    (*n_files)++;
  }
  if (rc == 0) schema.release(&schema);
  st.release(&st);
  pqt_reader_close(r);
}

typedef struct walk_ctx {
  int64_t batch_size;
  int *n_files, *n_batches;
} walk_ctx;

static void check_one(const char *path, void *ctx) {
  walk_ctx *w = ctx;
  check_file(path, w->batch_size, w->n_files, w->n_batches);
}

static void walk(const char *dir, int64_t batch_size, int *n_files, int *n_batches) {
  walk_ctx w = {batch_size, n_files, n_batches};
  pqt_test_walk(dir, ".parquet", check_one, &w);
}

static void test_corpus_streams_are_valid_arrow(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  int files = 0, batches = 0;
  walk(dir, 0, &files, &batches);
  printf("one batch per row group: %d files, %d batches\n", files, batches);
  CHECK(files > 150);
  int files2 = 0, batches2 = 0;
  walk(dir, 7, &files2, &batches2);
  printf("batches of 7 rows: %d files, %d batches\n", files2, batches2);
  CHECK(files2 == files);
  CHECK(batches2 > batches);
}

static void test_batches_outlive_reader(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_nested.parquet", PQT_SOURCE_DIR);
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_file(&r, path, NULL, NULL));
  if (!r) return;
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
  struct ArrowSchema schema;
  CHECK_EQ_INT(st.get_schema(&st, &schema), 0);
  struct ArrowArray a;
  CHECK_EQ_INT(st.get_next(&st, &a), 0);
  st.release(&st);
  pqt_reader_close(r);
  /* the batch and its schema stay valid after the reader is gone */
  snprintf(g_where, sizeof g_where, "seed004_nested after close");
  CHECK(validate(&schema, &a));
  CHECK_EQ_INT(a.length, 3);
  CHECK_EQ_STR(schema.children[0]->format, "+s");
  CHECK_EQ_STR(schema.children[0]->name, "nest");
  const struct ArrowArray *nest = a.children[0], *nn = nest->children[0];
  const int32_t *off = nn->buffers[1];
  const char *data = nn->buffers[2];
  CHECK(off[1] - off[0] == 5 && memcmp(data + off[0], "nest1", 5) == 0);
  CHECK(nn->null_count == 1);
  schema.release(&schema);
  a.release(&a);
}

/* ARROW:schema refines the Parquet mapping where the stored layout allows
 * (interop pitfall 20): time zones, large string/binary. */
static void test_arrow_schema_honoured(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/bad_data/ARROW-GH-41321.parquet", dir);
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_file(&r, path, NULL, NULL));
  if (!r) return;
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
  struct ArrowSchema s;
  CHECK_EQ_INT(st.get_schema(&st, &s), 0);
  static const char *const want[][2] = {
      {"string", "u"},
      {"large_string", "U"},
      {"timestamp_ms_gmt", "tsm:UTC"},
      {"timestamp_ms_gmt_plus_2", "tsm:+02:00"},
      {"timestamp_ms_gmt_minus_0215", "tsm:-02:15"},
      {"binary", "z"},
      {"large_binary", "Z"},
      {"uint64", "L"},
  };
  for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
    bool found = false;
    for (int64_t i = 0; i < s.n_children; i++)
      if (strcmp(s.children[i]->name, want[w][0]) == 0) {
        found = true;
        CHECK_MSG(strcmp(s.children[i]->format, want[w][1]) == 0, "%s: %s, want %s", want[w][0], s.children[i]->format,
                  want[w][1]);
      }
    CHECK_MSG(found, "no field %s", want[w][0]);
  }
  s.release(&s);
  st.release(&st);
  pqt_reader_close(r);
}

RUN_TESTS("arrow_export", TEST_CASE(test_arrow_schema_honoured), TEST_CASE(test_corpus_streams_are_valid_arrow),
          TEST_CASE(test_batches_outlive_reader))
