/*
 * Vectored IO (pqt_io.read_ranges / will_need, io/coalesce.c): the merging
 * rule of the coalescer, and the reader's use of a batch source: opening a
 * file costs one batch (magic + speculative tail) when the footer is
 * smaller than footer_read_bytes, and each row group's projected chunks are
 * announced in one will_need batch.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "io/coalesce.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static void test_coalesce_rule(void) {
  const pqt_allocator *a = pqt_default_allocator();
  pqt_io_range in[] = {{1000, 100, NULL}, {0, 10, NULL}, {20, 10, NULL}, {5, 10, NULL}, {5000, 0, NULL},
                       {1150, 50, NULL}};
  pqt_io_request *out;
  size_t n, cap;
  pqt_error e;
  /* gap 10: [0,10) [5,15) overlap, [20,30) is 5 away; [1000,1100) and [1150,1200) 50 apart stay apart */
  CHECK_OK(pqt_io_coalesce(in, 6, 10, 0, a, &out, &n, &cap, &e));
  CHECK_EQ_INT(n, 3);
  CHECK(out[0].offset == 0 && out[0].length == 30);
  CHECK(out[1].offset == 1000 && out[1].length == 100);
  CHECK(out[2].offset == 1150 && out[2].length == 50);
  pqt_mem_free(a, out, sizeof *out * cap);
  /* gap 64: the two far ones merge too */
  CHECK_OK(pqt_io_coalesce(in, 6, 64, 0, a, &out, &n, &cap, &e));
  CHECK_EQ_INT(n, 2);
  CHECK(out[1].offset == 1000 && out[1].length == 200);
  pqt_mem_free(a, out, sizeof *out * cap);
  /* max_merged 150: [1000,1200) would be 200 bytes, so they stay apart */
  CHECK_OK(pqt_io_coalesce(in, 6, 64, 150, a, &out, &n, &cap, &e));
  CHECK_EQ_INT(n, 3);
  pqt_mem_free(a, out, sizeof *out * cap);
  /* a range longer than max_merged is cut into pieces */
  pqt_io_range big = {100, 1000, NULL};
  CHECK_OK(pqt_io_coalesce(&big, 1, 0, 300, a, &out, &n, &cap, &e));
  CHECK_EQ_INT(n, 4);
  CHECK(out[0].offset == 100 && out[0].length == 300);
  CHECK(out[3].offset == 1000 && out[3].length == 100);
  pqt_mem_free(a, out, sizeof *out * cap);
  /* overflow is refused */
  pqt_io_range bad = {UINT64_MAX - 2, 10, NULL};
  CHECK(pqt_io_coalesce(&bad, 1, 0, 0, a, &out, &n, &cap, &e) == PQT_EINVAL);
}

/* A callback source over a buffer that counts its calls (no borrow_at). */
typedef struct counting {
  uint8_t *data;
  size_t len;
  int read_at_calls, read_ranges_calls, will_need_calls;
  size_t will_need_ranges;
} counting;

static pqt_status c_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  counting *c = pd;
  c->read_at_calls++;
  if (off > c->len || n > c->len - off) return pqt_error_set(err, PQT_EIO, "past the end");
  memcpy(dst, c->data + off, n);
  return PQT_OK;
}

static pqt_status c_read_ranges(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  counting *c = pd;
  c->read_ranges_calls++;
  for (size_t i = 0; i < n; i++) {
    if (rs[i].offset > c->len || rs[i].length > c->len - rs[i].offset)
      return pqt_error_set(err, PQT_EIO, "past the end");
    memcpy(rs[i].dst, c->data + rs[i].offset, (size_t)rs[i].length);
  }
  return PQT_OK;
}

static pqt_status c_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  counting *c = pd;
  (void)err;
  c->will_need_calls++;
  c->will_need_ranges += n;
  for (size_t i = 0; i < n; i++)
    if (rs[i].offset + rs[i].length > c->len) return pqt_error_set(err, PQT_EIO, "hint past the end");
  return PQT_OK;
}

/* c over the corpus's data/alltypes_plain.parquet, and io reading it
 * through the counting callbacks (will_need too when asked). False (the
 * test skipped, saying why) without the file. */
static bool open_counting(counting *c, pqt_io *io, bool will_need) {
  const char *dir = pqt_testing_dir();
  if (!dir) return false;
  char path[1024];
  snprintf(path, sizeof path, "%s/data/alltypes_plain.parquet", dir);
  memset(c, 0, sizeof *c);
  c->data = pqt_test_read_file(path, &c->len);
  if (!c->data) {
    fprintf(stderr, "NOTE: %s absent\n", path);
    pqt_t_current_skipped = 1;
    return false;
  }
  pqt_io_init(io);
  io->read_at = c_read_at;
  io->read_ranges = c_read_ranges;
  if (will_need) io->will_need = c_will_need;
  io->size = c->len;
  io->private_data = c;
  return true;
}

static void test_reader_uses_batches(void) {
  counting c;
  pqt_io io;
  if (!open_counting(&c, &io, true)) return;
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open(&r, &io, NULL, &e));
  /* the footer (under 64 KiB) came with the first batch: nothing else read */
  CHECK_EQ_INT(c.read_ranges_calls, 1);
  CHECK_EQ_INT(c.read_at_calls, 0);
  if (!r) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  const char *cols[] = {"id", "string_col"};
  so.columns = cols;
  so.n_columns = 2;
  struct ArrowArrayStream s;
  CHECK_OK(pqt_reader_get_stream(r, &so, &s, &e));
  struct ArrowArray b;
  int64_t rows = 0;
  while (s.get_next(&s, &b) == 0 && b.release) {
    rows += b.length;
    b.release(&b);
  }
  s.release(&s);
  CHECK_EQ_INT(rows, 8);
  int32_t groups = pqt_reader_num_row_groups(r);
  CHECK_EQ_INT(c.will_need_calls, groups);
  CHECK_EQ_INT(c.will_need_ranges, 2 * (size_t)groups); /* the two projected chunks, one batch per row group */
  pqt_reader_close(r);
  free(c.data);
}

/* A footer larger than footer_read_bytes costs a second read, and the
 * footer still decodes. */
static void test_small_speculative_tail(void) {
  counting c;
  pqt_io io;
  if (!open_counting(&c, &io, false)) return;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.footer_read_bytes = 16;
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open(&r, &io, &ro, &e));
  CHECK_EQ_INT(c.read_ranges_calls, 1);
  CHECK_EQ_INT(c.read_at_calls, 1);
  if (r) {
    CHECK_EQ_INT(pqt_reader_num_rows(r), 8);
    pqt_reader_close(r);
  }
  free(c.data);
}

/* pqt_io_read_ranges over a source without read_ranges loops over read_at. */
static void test_read_ranges_fallback(void) {
  uint8_t buf[100];
  for (int i = 0; i < 100; i++) buf[i] = (uint8_t)i;
  pqt_io io;
  pqt_io_init(&io);
  pqt_error e;
  CHECK_OK(pqt_io_from_buffer(&io, buf, sizeof buf, NULL, &e));
  uint8_t a[3], b[2];
  pqt_io_range rs[] = {{10, 3, a}, {98, 2, b}};
  CHECK_OK(pqt_io_read_ranges(&io, rs, 2, &e));
  CHECK(a[0] == 10 && a[2] == 12 && b[1] == 99);
  pqt_io_range past = {99, 2, b};
  CHECK(pqt_io_read_ranges(&io, &past, 1, &e) == PQT_ECORRUPT);
  pqt_io plain = io;
  plain.read_ranges = NULL;
  CHECK_OK(pqt_io_read_ranges(&plain, rs, 2, &e));
  io.release(io.private_data);
}

RUN_TESTS("io_vectored", TEST_CASE(test_coalesce_rule), TEST_CASE(test_reader_uses_batches),
          TEST_CASE(test_small_speculative_tail), TEST_CASE(test_read_ranges_fallback))
