/* Read-ahead of the text output (pqt_reader_write_text: `cat`, `head`) and
 * of a filtered count (pqt_reader_count): while a row group decodes, the
 * next one's column chunks are announced to the source (pqt_io.will_need),
 * as the Arrow stream does (test_readahead.c). Checked through a caller's
 * source that logs every announcement and every byte read:
 *   - the text (CSV and JSONL, 1 and 2 threads) is the same with read-ahead
 *     on and off, and so is the set of bytes read; on, each row group after
 *     the first is announced once more (ahead), off not;
 *   - a limit that ends in the first row group announces nothing ahead; one
 *     that needs the second row group announces it only;
 *   - a count with a predicate that reads whole row groups (PQT_SKIP_CORRUPT;
 *     otherwise it reads pages selectively, scan/ranged.c, nothing ahead)
 *     announces only the row groups pruning keeps, ahead, and gives the same
 *     count and bytes read as with it off. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "parquetry_meta.h"
#include "readahead_fixture.h"

enum { GROUPS = 5, GROUP_ROWS = 8000 };

static void write_file(pqt_string *out) { ra_write_file(out, GROUPS, GROUP_ROWS, false); }

/* PQT_SKIP_CORRUPT for the next reads: a filtered count reads whole row
 * groups then (without it, a predicate reads selectively through the page
 * index, scan/ranged.c, which reads nothing ahead) */
static bool g_skip_corrupt;

typedef struct run {
  pqt_test_text text; /* harness.h's collector */
  int64_t count;
  uint8_t *touched; /* the caller frees */
  int calls;
  uint64_t ann[RA_MAX_LOG];
  int n_ann;
  char error[512];
} run;

/* what: 0 text (format, limit), 1 count (where). */
static void read_one(const pqt_string *file, int what, pqt_text_format format, int64_t limit, const char *where,
                     int32_t threads, int32_t read_ahead, run *out) {
  memset(out, 0, sizeof *out);
  pqt_io io;
  ra_source *l = ra_source_new(file, true, &io);
  if (!l) {
    snprintf(out->error, sizeof out->error, "out of memory");
    return;
  }
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.threads = threads;
  if (g_skip_corrupt) ro.on_error = PQT_SKIP_CORRUPT;
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open(&r, &io, &ro, &e) != PQT_OK) {
    r = NULL;
    snprintf(out->error, sizeof out->error, "open: %.400s", e.message);
  }
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.read_ahead = read_ahead;
  pqt_expr *filter = NULL;
  if (where) CHECK_OK(pqt_expr_parse(where, strlen(where), &filter, &e));
  so.filter = filter;
  /* what the open read (the footer) is not what the scan reads */
  ra_source_reset(l);
  if (r) {
    pqt_status st = what == 0 ? pqt_reader_write_text(r, &so, format, limit, pqt_test_collect, &out->text, &e)
                              : pqt_reader_count(r, &so, &out->count, &e);
    if (st != PQT_OK) snprintf(out->error, sizeof out->error, "%.500s", e.message);
  }
  pqt_expr_free(filter);
  pqt_reader_close(r);
  out->touched = l->touched; /* the run keeps it */
  l->touched = NULL;
  out->calls = l->calls;
  out->n_ann = l->n_ann;
  memcpy(out->ann, l->ann, sizeof out->ann);
  ra_source_free(l);
}

static void run_free(run *x) {
  free(x->text.p);
  free(x->touched);
}

static bool same_bytes(const run *a, const run *b, size_t len) {
  return a->touched && b->touched && memcmp(a->touched, b->touched, len) == 0;
}

static int64_t touched_bytes(const run *a, size_t len) {
  int64_t n = 0;
  for (size_t i = 0; a->touched && i < len; i++) n += a->touched[i];
  return n;
}

static int announced(const run *x, uint64_t off) {
  int n = 0;
  for (int i = 0; i < x->n_ann; i++) n += x->ann[i] == off;
  return n;
}

static void test_text_same_with_and_without(void) {
  pqt_string file;
  write_file(&file);
  CHECK(file.len > 0);
  pqt_text_format formats[] = {PQT_TEXT_CSV, PQT_TEXT_JSONL};
  for (int fi = 0; fi < 2; fi++) {
    for (int32_t th = 1; th <= 2; th++) {
      run on, off;
      read_one(&file, 0, formats[fi], -1, NULL, th, 0, &on);
      read_one(&file, 0, formats[fi], -1, NULL, th, -1, &off);
      CHECK_MSG(on.error[0] == 0 && off.error[0] == 0, "format %d threads %d: %s / %s", fi, th, on.error, off.error);
      CHECK_MSG(on.text.n > (size_t)GROUPS * GROUP_ROWS && on.text.n == off.text.n &&
                    memcmp(on.text.p, off.text.p, on.text.n) == 0,
                "format %d threads %d: the text differs with read-ahead (%zu vs %zu bytes)", fi, th, on.text.n,
                off.text.n);
      CHECK_MSG(same_bytes(&on, &off, file.len), "format %d threads %d: other bytes read with read-ahead", fi, th);
      CHECK(touched_bytes(&on, file.len) > 0);
      /* off: each row group announced once, by its own open; on: every
       * row group after the first once more, while the one before decoded */
      CHECK_EQ_INT(off.calls, GROUPS);
      CHECK_EQ_INT(on.calls, GROUPS + GROUPS - 1);
      for (int32_t g = 1; g < GROUPS; g++) {
        uint64_t o = ra_group_offset(&file, g);
        CHECK_MSG(o > 0 && announced(&on, o) == 2 && announced(&off, o) == 1,
                  "row group %d (offset %llu) announced %d times on, %d off", g, (unsigned long long)o,
                  announced(&on, o), announced(&off, o));
      }
      run_free(&on);
      run_free(&off);
    }
  }
  pqt_string_free(&file);
}

static void test_text_limit(void) {
  pqt_string file;
  write_file(&file);
  /* ends inside row group 0: nothing ahead */
  run a;
  read_one(&file, 0, PQT_TEXT_JSONL, GROUP_ROWS / 2, NULL, 1, 0, &a);
  CHECK_EQ_STR(a.error, "");
  CHECK_EQ_INT(a.calls, 1);
  CHECK_EQ_INT(announced(&a, ra_group_offset(&file, 1)), 0);
  run_free(&a);
  /* needs row group 1, not 2: row group 1 announced ahead, 2 never */
  run b, boff;
  read_one(&file, 0, PQT_TEXT_JSONL, GROUP_ROWS + 10, NULL, 1, 0, &b);
  read_one(&file, 0, PQT_TEXT_JSONL, GROUP_ROWS + 10, NULL, 1, -1, &boff);
  CHECK_EQ_STR(b.error, "");
  CHECK_EQ_INT(b.calls, 3);
  CHECK_EQ_INT(announced(&b, ra_group_offset(&file, 1)), 2);
  CHECK_EQ_INT(announced(&b, ra_group_offset(&file, 2)), 0);
  CHECK(b.text.n == boff.text.n && memcmp(b.text.p, boff.text.p, b.text.n) == 0);
  CHECK(same_bytes(&b, &boff, file.len));
  size_t lines = 0;
  for (size_t i = 0; i < b.text.n; i++) lines += b.text.p[i] == '\n';
  CHECK_EQ_INT((int64_t)lines, GROUP_ROWS + 10);
  run_free(&b);
  run_free(&boff);
  pqt_string_free(&file);
}

/* The one rule for the next row group (scan/group_order.h): the count and
 * the text output with the same predicate read the same row groups ahead,
 * those pruning keeps. */
static void test_count_filtered(void) {
  pqt_string file;
  write_file(&file);
  /* row groups 0 and 2 pruned by their statistics; 1, 3 and 4 read */
  const char *where = "(id >= 9000 and id < 15000) or id >= 26000";
  for (int what = 1; what >= 0; what--) {
    run on, off;
    g_skip_corrupt = true;
    read_one(&file, what, PQT_TEXT_CSV, -1, where, 1, 0, &on);
    read_one(&file, what, PQT_TEXT_CSV, -1, where, 1, -1, &off);
    g_skip_corrupt = false;
    CHECK_EQ_STR(on.error, "");
    CHECK_EQ_STR(off.error, "");
    if (what == 1) {
      CHECK_EQ_INT(off.count, (15000 - 9000) + (GROUPS * GROUP_ROWS - 26000));
      CHECK_EQ_INT(on.count, off.count);
    } else {
      size_t lines = 0;
      for (size_t i = 0; i < on.text.n; i++) lines += on.text.p[i] == '\n';
      CHECK_EQ_INT((int64_t)lines, 1 + (15000 - 9000) + (GROUPS * GROUP_ROWS - 26000)); /* and the header */
      CHECK(on.text.n == off.text.n && memcmp(on.text.p, off.text.p, on.text.n) == 0);
    }
    CHECK(same_bytes(&on, &off, file.len));
    CHECK(touched_bytes(&on, file.len) > 0);
    CHECK_MSG(off.calls == 3 && on.calls == 3 + 2, "%s: %d announcements off, %d on", what ? "count" : "text",
              off.calls, on.calls); /* on: 3 and 4 ahead */
    CHECK_EQ_INT(announced(&on, ra_group_offset(&file, 2)), 0);
    CHECK_EQ_INT(announced(&on, ra_group_offset(&file, 3)), 2);
    CHECK_EQ_INT(announced(&on, ra_group_offset(&file, 4)), 2);
    run_free(&on);
    run_free(&off);
  }
  /* no predicate: no page read, nothing announced */
  run n;
  read_one(&file, 1, PQT_TEXT_CSV, -1, NULL, 1, 0, &n);
  CHECK_EQ_INT(n.count, GROUPS * GROUP_ROWS);
  CHECK_EQ_INT(n.calls, 0);
  CHECK_EQ_INT(touched_bytes(&n, file.len), 0);
  run_free(&n);
  pqt_string_free(&file);
}

RUN_TESTS("readahead_text", TEST_CASE(test_text_same_with_and_without), TEST_CASE(test_text_limit),
          TEST_CASE(test_count_filtered))
