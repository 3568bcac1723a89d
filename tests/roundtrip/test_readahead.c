/* Read-ahead (pqt_scan_options.read_ahead): while a row group decodes, the
 * stream announces the next one's column chunks to the source
 * (pqt_io.will_need). Checked through a caller's source that logs every
 * announcement and read: the next row group is announced before the
 * current one's first batch is handed out (and not with read_ahead off),
 * the announcement runs on another thread when threads > 1 and on the
 * calling one at 1 thread, the batches are the same with it on and off at
 * 1, 2, 3 and 8 threads, and a memory ceiling smaller than twice a row
 * group stops it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_filter.h"
#include "readahead_fixture.h"

enum { GROUPS = 5, GROUP_ROWS = 20000, BATCH = 1000 };

static void write_file(pqt_string *out) { ra_write_file(out, GROUPS, GROUP_ROWS, true); }

typedef struct run {
  uint64_t h;
  int64_t rows, batches;
  uint64_t first_max;   /* the largest offset announced before the first batch came back */
  uint64_t first_bytes; /* bytes of the first announcement (row group 0's chunks) */
  int calls, calls_elsewhere;
  char error[512];
  int skips; /* on_skip calls, their rows lost and a digest of their messages */
  int64_t lost;
  uint64_t skip_h;
} run;

static void mix(uint64_t *h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) *h = (*h ^ b[i]) * 1099511628211ull;
}

/* The batches' digest: lengths, then the values of int64, double and
 * string columns (of other columns, their lengths and null counts). */
static void digest_batch(uint64_t *h, const struct ArrowSchema *sc, const struct ArrowArray *a) {
  mix(h, &a->length, sizeof a->length);
  for (int64_t c = 0; c < a->n_children; c++) {
    const struct ArrowArray *ch = a->children[c];
    const char *f = sc->children[c]->format;
    mix(h, &ch->length, sizeof ch->length);
    mix(h, &ch->null_count, sizeof ch->null_count);
    if (strcmp(f, "u") == 0) { /* string: offsets and bytes */
      const int32_t *off = ch->buffers[1];
      const uint8_t *d = ch->buffers[2];
      for (int64_t i = 0; i < ch->length; i++) {
        int32_t b = off[ch->offset + i], n = off[ch->offset + i + 1] - b;
        mix(h, &n, sizeof n);
        if (n > 0) mix(h, d + b, (size_t)n);
      }
    } else if (strcmp(f, "l") == 0 || strcmp(f, "g") == 0) {
      mix(h, (const uint8_t *)ch->buffers[1] + 8 * ch->offset, 8 * (size_t)ch->length);
    }
  }
}

/* What a read selects besides its threads: a predicate, row ranges. */
typedef struct select {
  const char *where; /* NULL: every row */
  const pqt_row_span *spans;
  int32_t n_spans;
  bool skip_corrupt; /* PQT_SKIP_CORRUPT (scan/recovery.c) */
} selection;

static void on_skip(void *ctx, const pqt_error *what, int64_t rows_lost) {
  run *out = ctx;
  out->skips++;
  out->lost += rows_lost;
  mix(&out->skip_h, what->message, strlen(what->message));
}

static void read_sel(const pqt_string *file, int32_t threads, int32_t read_ahead, uint64_t max_memory,
                     const selection *sel, run *out) {
  memset(out, 0, sizeof *out);
  out->h = 14695981039346656037ull;
  pqt_io io;
  ra_source *l = ra_source_new(file, false, &io);
  if (!l) return;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.threads = threads;
  ro.max_memory = max_memory;
  if (sel && sel->skip_corrupt) {
    ro.on_error = PQT_SKIP_CORRUPT;
    ro.on_skip = on_skip;
    ro.on_skip_ctx = out;
  }
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open(&r, &io, &ro, &e) != PQT_OK) {
    r = NULL;
    snprintf(out->error, sizeof out->error, "open: %.400s", e.message);
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = BATCH;
  so.read_ahead = read_ahead;
  pqt_expr *filter = NULL;
  if (sel && sel->where) CHECK_OK(pqt_expr_parse(sel->where, strlen(sel->where), &filter, &e));
  so.filter = filter;
  if (sel) {
    so.row_ranges = sel->spans;
    so.n_row_ranges = sel->n_spans;
  }
  struct ArrowArrayStream st;
  memset(&st, 0, sizeof st);
  if (r && pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) snprintf(out->error, sizeof out->error, "%s", e.message);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  if (st.release && st.get_schema(&st, &schema) != 0) {
    snprintf(out->error, sizeof out->error, "schema: %.400s", st.get_last_error(&st));
    st.release(&st);
  }
  while (st.release) {
    struct ArrowArray a;
    if (st.get_next(&st, &a) != 0) {
      snprintf(out->error, sizeof out->error, "%s", st.get_last_error(&st));
      break;
    }
    if (!a.release) break;
    if (out->batches == 0) {
      pthread_mutex_lock(&l->mu);
      for (int i = 0; i < l->n_ann; i++)
        if (l->ann[i] > out->first_max) out->first_max = l->ann[i];
      out->first_bytes = l->first_bytes;
      pthread_mutex_unlock(&l->mu);
    }
    digest_batch(&out->h, &schema, &a);
    out->rows += a.length;
    out->batches++;
    a.release(&a);
  }
  if (st.release) st.release(&st);
  if (schema.release) schema.release(&schema);
  pqt_reader_close(r);
  pqt_expr_free(filter);
  out->calls = l->calls; /* every announcement has returned: the stream is released */
  out->calls_elsewhere = l->calls_elsewhere;
  ra_source_free(l);
}

static void read_all(const pqt_string *file, int32_t threads, int32_t read_ahead, uint64_t max_memory, run *out) {
  read_sel(file, threads, read_ahead, max_memory, NULL, out);
}

/* Predicates and row ranges (scan/ranged.c, the leaves of a batch decoded
 * in parallel): the same batches at 1, 2, 3 and 8 threads. */
static void test_selective_same_at_any_thread_count(void) {
  pqt_string file;
  write_file(&file);
  if (!file.data) return;
  static const pqt_row_span spans[] = {{100, 5000}, {30000, 20}, {41999, 2}, {59000, 20000}};
  static const selection sels[] = {
      {"x < 20000", NULL, 0, false},                  /* scattered rows: late columns compacted */
      {"x < 500", NULL, 0, false},                    /* few rows: late columns read by runs */
      {"id >= 25000 and id < 61000", NULL, 0, false}, /* pages pruned by the offset index */
      {"s = 's7' or x > 240000", NULL, 0, false},     /* a string and a double */
      {NULL, spans, 4, false},                        /* row ranges */
      {"x < 100000", spans, 4, false},                /* both */
  };
  for (size_t k = 0; k < sizeof sels / sizeof *sels; k++) {
    run one;
    read_sel(&file, 1, 0, 0, &sels[k], &one);
    CHECK_MSG(one.error[0] == 0 && one.rows > 0, "%s: %lld rows (%s)", sels[k].where ? sels[k].where : "ranges",
              (long long)one.rows, one.error);
    static const int32_t counts[] = {2, 3, 8};
    for (size_t t = 0; t < sizeof counts / sizeof *counts; t++) {
      run more;
      read_sel(&file, counts[t], 0, 0, &sels[k], &more);
      CHECK_MSG(more.h == one.h && more.rows == one.rows && more.batches == one.batches && more.error[0] == 0,
                "%s at %d threads: %lld rows in %lld batches, 1 thread %lld in %lld (%s)",
                sels[k].where ? sels[k].where : "ranges", (int)counts[t], (long long)more.rows, (long long)more.batches,
                (long long)one.rows, (long long)one.batches, more.error);
    }
  }
  pqt_string_free(&file);
}

/* PQT_SKIP_CORRUPT (scan/recovery.c, the leaves of a row group read in
 * parallel): the same batches and the same losses reported at 1, 2, 3 and
 * 8 threads, on a damaged copy of the generated file and on the corpus's
 * bad files. */
static int g_rec_files, g_rec_skips;

static void check_recovery(const char *name, const pqt_string *file) {
  static const selection rec = {NULL, NULL, 0, true};
  run one;
  read_sel(file, 1, 0, 0, &rec, &one);
  g_rec_files++;
  g_rec_skips += one.skips;
  static const int32_t counts[] = {2, 3, 8};
  for (size_t t = 0; t < sizeof counts / sizeof *counts; t++) {
    run more;
    read_sel(file, counts[t], 0, 0, &rec, &more);
    CHECK_MSG(more.h == one.h && more.rows == one.rows && more.batches == one.batches &&
                  strcmp(more.error, one.error) == 0 && more.skips == one.skips && more.lost == one.lost &&
                  more.skip_h == one.skip_h,
              "%s, skipping damage, at %d threads: %lld rows, %d losses (%lld rows), \"%s\"; 1 thread %lld, %d "
              "(%lld), \"%s\"",
              name, (int)counts[t], (long long)more.rows, more.skips, (long long)more.lost, more.error,
              (long long)one.rows, one.skips, (long long)one.lost, one.error);
  }
}

static void check_bad_file(const char *path, void *ctx) {
  (void)ctx;
  size_t len = 0;
  unsigned char *data = pqt_test_read_file(path, &len);
  if (!data) return;
  pqt_string f = {(char *)data, len, NULL, len};
  check_recovery(path, &f);
  free(data);
}

static void test_recovery_same_at_any_thread_count(void) {
  pqt_string file;
  write_file(&file);
  if (!file.data) return;
  /* damage in the middle of the file (some page of row group 2) and near the start */
  memset(file.data + file.len / 2, 0xff, 48);
  memset(file.data + 4096, 0x7f, 32);
  run probe;
  static const selection rec = {NULL, NULL, 0, true};
  read_sel(&file, 1, 0, 0, &rec, &probe);
  CHECK_MSG(probe.skips > 0 && probe.rows > 0, "the damaged copy: %d losses, %lld rows (%s)", probe.skips,
            (long long)probe.rows, probe.error);
  check_recovery("the damaged copy", &file);
  pqt_string_free(&file);
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char bad[1024];
  snprintf(bad, sizeof bad, "%s/bad_data", dir);
  pqt_test_walk(bad, ".parquet", check_bad_file, NULL);
  printf("  %d files read alike with damage skipped (%d losses at 1 thread)\n", g_rec_files, g_rec_skips);
  CHECK(g_rec_files > 5);
}

static void test_readahead(void) {
  pqt_string file;
  write_file(&file);
  if (!file.data) return;
  pqt_reader *r = NULL;
  pqt_error e;
  CHECK_OK(pqt_reader_open_buffer(&r, file.data, file.len, NULL, &e));
  CHECK_EQ_INT(pqt_reader_num_row_groups(r), GROUPS);
  pqt_reader_close(r);

  run off1, on1;
  read_all(&file, 1, -1, 0, &off1);
  read_all(&file, 1, 0, 0, &on1);
  CHECK_EQ_STR(off1.error, "");
  CHECK(off1.rows == (int64_t)GROUPS * GROUP_ROWS && off1.batches == GROUPS * (GROUP_ROWS / BATCH));
  /* off: every row group announced once, when it is opened */
  CHECK_EQ_INT(off1.calls, GROUPS);
  /* on: besides, each row group but the first announced while the one before decodes */
  CHECK_EQ_INT(on1.calls, GROUPS + GROUPS - 1);
  CHECK_EQ_INT(on1.calls_elsewhere, 0); /* one thread and a caller's source: on the calling thread */
  /* before group 0's first batch came back, read-ahead had announced group 1 (larger offsets) */
  CHECK(off1.first_max > 0 && on1.first_max > off1.first_max);
  CHECK(on1.h == off1.h && on1.rows == off1.rows && on1.batches == off1.batches);
  static const int32_t counts[] = {2, 3, 8};
  for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
    run on, off;
    read_all(&file, counts[k], 0, 0, &on);
    read_all(&file, counts[k], -1, 0, &off);
    CHECK_MSG(on.h == off1.h && on.rows == off1.rows && on.batches == off1.batches && on.error[0] == 0,
              "%d threads with read-ahead: other batches", (int)counts[k]);
    CHECK_MSG(off.h == off1.h && off.rows == off1.rows && off.batches == off1.batches && off.error[0] == 0,
              "%d threads without read-ahead: other batches", (int)counts[k]);
    CHECK_EQ_INT(on.calls, GROUPS + GROUPS - 1);
    /* threads > 1 (the caller's source said thread-safe): on the stream's
     * IO thread; and a row group decoded ahead is opened (announced) on a
     * thread of the pool, unless the stream got there first */
    CHECK_MSG(on.calls_elsewhere >= GROUPS - 1 && on.calls_elsewhere <= 2 * (GROUPS - 1),
              "%d threads: %d announcements elsewhere", (int)counts[k], on.calls_elsewhere);
    CHECK_EQ_INT(off.calls, GROUPS);
    CHECK_EQ_INT(off.calls_elsewhere, 0);
  }
  /* a memory ceiling below twice a row group's bytes: no read-ahead */
  run tight;
  uint64_t ceiling = 2 * off1.first_bytes * 9 / 10; /* the row groups are about the same size */
  read_all(&file, 1, 0, ceiling, &tight);
  CHECK_MSG(tight.calls == GROUPS && tight.error[0] == 0 && tight.h == off1.h, "max_memory %llu: %d announcements (%s)",
            (unsigned long long)ceiling, tight.calls, tight.error);
  pqt_string_free(&file);
}

/* A selective read (a predicate the offset index prunes pages by) announces
 * the next row group's pages while one decodes (scan/ranged.c,
 * pqt_sel_readahead): more announcements with read-ahead on than off, the
 * same batches; at 1 thread the next kept row group (offsets past the
 * first one read) is announced before the first batch is handed out. */
static void test_selective_readahead(void) {
  pqt_string file;
  write_file(&file);
  if (!file.data) return;
  static const selection sels[] = {
      {"id >= 25000 and id < 61000", NULL, 0, false}, /* groups 1-3, pages of 1 and 3 pruned */
      {"id >= 45000 and id < 46000 or id >= 85000 and id < 85100", NULL, 0, false}, /* a few pages of 2 and 4 */
  };
  for (size_t k = 0; k < sizeof sels / sizeof *sels; k++) {
    static const int32_t counts[] = {1, 2};
    for (size_t t = 0; t < sizeof counts / sizeof *counts; t++) {
      run on, off;
      read_sel(&file, counts[t], 0, 0, &sels[k], &on);
      read_sel(&file, counts[t], -1, 0, &sels[k], &off);
      CHECK_MSG(on.error[0] == 0 && off.error[0] == 0 && on.rows > 0, "%s: %s / %s", sels[k].where, on.error,
                off.error);
      CHECK_MSG(on.h == off.h && on.rows == off.rows && on.batches == off.batches,
                "%s at %d threads: other batches with read-ahead", sels[k].where, (int)counts[t]);
      CHECK_MSG(on.calls > off.calls, "%s at %d threads: %d announcements with read-ahead, %d without",
                sels[k].where, (int)counts[t], on.calls, off.calls);
      /* at 1 thread the announcement is made on the calling thread, before the first batch is handed out */
      if (counts[t] == 1)
        CHECK_MSG(on.first_max > off.first_max, "%s: nothing of the next row group announced before the first batch",
                  sels[k].where);
    }
  }
  pqt_string_free(&file);
}

RUN_TESTS("readahead", TEST_CASE(test_readahead), TEST_CASE(test_selective_same_at_any_thread_count),
          TEST_CASE(test_recovery_same_at_any_thread_count), TEST_CASE(test_selective_readahead))
