/* A selective read (a predicate through the page index, scan/ranged.c)
 * with read-ahead on works out the rows of the next row group once: the
 * read-ahead (pqt_sel_readahead) keeps them, with the offset indexes it
 * read, for the cursor of that row group (pqt_sel_cursor_open). Checked
 * through a caller's source that counts the reads of each row group's
 * ColumnIndex and OffsetIndex of the predicate's column: each is read
 * exactly once, read-ahead on or off, and the text is the same; the same
 * through an Arrow stream, and a stream released with a row group worked
 * out ahead and never opened frees it (ASan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_filter.h"
#include "parquetry_meta.h"
#include "readahead_fixture.h"

enum { GROUPS = 4, GROUP_ROWS = 6000 };

typedef struct watch {
  ra_source *inner;
  uint64_t ci[GROUPS], oi[GROUPS];
  int ci_reads[GROUPS], oi_reads[GROUPS];
} watch;

static pqt_status watch_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  watch *w = pd;
  for (int g = 0; g < GROUPS; g++) {
    __atomic_add_fetch(&w->ci_reads[g], off == w->ci[g], __ATOMIC_RELAXED);
    __atomic_add_fetch(&w->oi_reads[g], off == w->oi[g], __ATOMIC_RELAXED);
  }
  return ra_read_at(w->inner, off, dst, n, err);
}

static pqt_status watch_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  watch *w = pd;
  return ra_will_need(w->inner, rs, n, err);
}

/* The text of `where` over file (read_ahead as pqt_scan_options), the
 * index reads counted in w; ahead: will_need calls made. */
static void read_text(const pqt_string *file, const char *where, int64_t limit, int32_t read_ahead, watch *w,
                      pqt_test_text *text, int *ahead) {
  memset(text, 0, sizeof *text);
  pqt_io io;
  ra_source *l = ra_source_new(file, false, &io);
  CHECK(l != NULL);
  if (!l) return;
  w->inner = l;
  memset(w->ci_reads, 0, sizeof w->ci_reads);
  memset(w->oi_reads, 0, sizeof w->oi_reads);
  io.private_data = w;
  io.read_at = watch_read_at;
  io.will_need = watch_will_need;
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open(&r, &io, NULL, &e));
  memset(w->ci_reads, 0, sizeof w->ci_reads); /* what the open read is not what the scan reads */
  memset(w->oi_reads, 0, sizeof w->oi_reads);
  ra_source_reset(l);
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.read_ahead = read_ahead;
  pqt_expr *filter = NULL;
  CHECK_OK(pqt_expr_parse(where, strlen(where), &filter, &e));
  so.filter = filter;
  if (r) CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, limit, pqt_test_collect, text, &e));
  pqt_expr_free(filter);
  pqt_reader_close(r);
  *ahead = l->calls;
  ra_source_free(l);
}

static void file_and_watch(pqt_string *file, watch *w) {
  ra_write_file(file, GROUPS, GROUP_ROWS, false);
  memset(w, 0, sizeof *w);
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open_buffer(&r, file->data, file->len, NULL, &e));
  for (int g = 0; r && g < GROUPS; g++) {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    CHECK_OK(pqt_reader_chunk(r, g, 0, &ci, &e)); /* id, the predicate's column */
    CHECK(ci.column_index_offset > 0 && ci.offset_index_offset > 0);
    w->ci[g] = (uint64_t)ci.column_index_offset;
    w->oi[g] = (uint64_t)ci.offset_index_offset;
  }
  pqt_reader_close(r);
}

static void test_index_read_once(void) {
  pqt_string file;
  watch w;
  file_and_watch(&file, &w);
  /* every row group kept by its statistics; the page index narrows each to a few pages */
  const char *where =
      "id >= 0 and (id < 100 or (id >= 6500 and id < 6600) or (id >= 12500 and id < 12600) or id >= 23900)";
  pqt_test_text on, off;
  int ahead_on = 0, ahead_off = 0;
  read_text(&file, where, -1, 0, &w, &on, &ahead_on);
  int ci_on[GROUPS], oi_on[GROUPS];
  memcpy(ci_on, w.ci_reads, sizeof ci_on);
  memcpy(oi_on, w.oi_reads, sizeof oi_on);
  read_text(&file, where, -1, -1, &w, &off, &ahead_off);
  CHECK(ahead_on > 0); /* the read-ahead ran */
  CHECK_EQ_INT(ahead_off, 0);
  for (int g = 0; g < GROUPS; g++) {
    CHECK_MSG(ci_on[g] == 1, "row group %d: column index read %d times with read-ahead", g, ci_on[g]);
    CHECK_MSG(oi_on[g] == 1, "row group %d: offset index read %d times with read-ahead", g, oi_on[g]);
    CHECK_MSG(w.ci_reads[g] == 1, "row group %d: column index read %d times without", g, w.ci_reads[g]);
    CHECK_MSG(w.oi_reads[g] == 1, "row group %d: offset index read %d times without", g, w.oi_reads[g]);
  }
  CHECK(on.n > 0 && on.n == off.n && memcmp(on.p, off.p, on.n) == 0);
  /* header + 100 + 100 + 100 + 100 rows */
  int lines = 0;
  for (size_t i = 0; i < on.n; i++) lines += on.p[i] == '\n';
  CHECK_EQ_INT(lines, 1 + 400);
  free(on.p);
  free(off.p);

  free(file.data);
}

/* Rows of an Arrow stream of where over file, stopped after max_batches
 * batches (0: all); index reads counted in w. */
static int64_t stream_rows(const pqt_string *file, const char *where, int max_batches, watch *w, int *ahead) {
  pqt_io io;
  ra_source *l = ra_source_new(file, false, &io);
  CHECK(l != NULL);
  if (!l) return -1;
  w->inner = l;
  io.private_data = w;
  io.read_at = watch_read_at;
  io.will_need = watch_will_need;
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_reader_open(&r, &io, NULL, &e));
  memset(w->ci_reads, 0, sizeof w->ci_reads);
  memset(w->oi_reads, 0, sizeof w->oi_reads);
  ra_source_reset(l);
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  pqt_expr *filter = NULL;
  CHECK_OK(pqt_expr_parse(where, strlen(where), &filter, &e));
  so.filter = filter;
  struct ArrowArrayStream st;
  memset(&st, 0, sizeof st);
  if (r) CHECK_OK(pqt_reader_get_stream(r, &so, &st, &e));
  int64_t rows = 0;
  int batches = 0;
  while (st.release && (max_batches == 0 || batches < max_batches)) {
    struct ArrowArray a;
    CHECK(st.get_next(&st, &a) == 0);
    if (!a.release) break;
    rows += a.length;
    if (a.length > 0) batches++;
    a.release(&a);
  }
  if (st.release) st.release(&st); /* with a row group worked out ahead and not opened: freed */
  pqt_reader_close(r);
  pqt_expr_free(filter);
  *ahead = l->calls;
  ra_source_free(l);
  return rows;
}

static void test_stream(void) {
  pqt_string file;
  watch w;
  file_and_watch(&file, &w);
  const char *where =
      "id >= 0 and (id < 100 or (id >= 6500 and id < 6600) or (id >= 12500 and id < 12600) or id >= 23900)";
  int ahead = 0;
  CHECK_EQ_INT(stream_rows(&file, where, 0, &w, &ahead), 400);
  CHECK(ahead > 0);
  for (int g = 0; g < GROUPS; g++) {
    CHECK_MSG(w.ci_reads[g] == 1, "row group %d: column index read %d times", g, w.ci_reads[g]);
    CHECK_MSG(w.oi_reads[g] == 1, "row group %d: offset index read %d times", g, w.oi_reads[g]);
  }
  /* stopped in the first row group: the second was worked out ahead (its
   * column index read) and is released unopened with the stream */
  int64_t got = stream_rows(&file, where, 1, &w, &ahead);
  CHECK(got > 0 && got <= 100);
  CHECK_EQ_INT(w.ci_reads[1], 1);
  CHECK_EQ_INT(w.ci_reads[2], 0);
  free(file.data);
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_index_read_once), TEST_CASE(test_stream)};
  return pqt_run_tests("sel_ahead", cases, sizeof cases / sizeof cases[0]);
}
