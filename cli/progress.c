/*
 * cli/progress.c: the progress bar of every long command (API in cli.h).
 * Shown on stderr only when stderr is a terminal and the work has run for a
 * second (PARQUETRY_PROGRESS_DELAY_MS changes that delay, for tests), at
 * most ten times a second, and wiped when the work ends. What is counted is
 * the caller's unit: rows, bytes, row groups or column chunks; a run over
 * several files adds each file's total as it opens it (progress_add_total)
 * and counts across them (progress_advance, or progress_update with the
 * running sum). An unknown total (0) shows the count alone.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_init_unit(progress *p, progress_unit unit, int64_t total) {
  p->tty = isatty(STDERR_FILENO) != 0;
  p->shown = false;
  p->start = p->last = now_s();
  p->total = total;
  p->done = 0;
  p->unit = unit;
  p->delay = 1.0;
  const char *d = getenv("PARQUETRY_PROGRESS_DELAY_MS");
  if (d && *d) {
    char *end;
    long ms = strtol(d, &end, 10);
    if (!*end && ms >= 0) p->delay = (double)ms / 1000.0;
  }
}

void progress_init(progress *p, int64_t total) { progress_init_unit(p, PROGRESS_ROWS, total); }

void progress_add_total(progress *p, int64_t more) {
  if (more > 0) p->total += more;
}

/* n as "1,234" (with_unit: "1,234 rows", "3 row groups"), bytes as "12.3 MiB" */
static void format_amount(const progress *p, int64_t n, bool with_unit, char *buf, size_t cap) {
  static const char *const names[] = {"rows", "bytes", "row groups", "column chunks"};
  if (p->unit == PROGRESS_BYTES) {
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)n;
    int k = 0;
    while (v >= 1024.0 && k < 4) {
      v /= 1024.0;
      k++;
    }
    if (k == 0) snprintf(buf, cap, "%lld B", (long long)n);
    else snprintf(buf, cap, "%.1f %s", v, u[k]);
    return;
  }
  char digits[32];
  int len = snprintf(digits, sizeof digits, "%lld", (long long)(n < 0 ? 0 : n));
  size_t o = 0;
  for (int i = 0; i < len && o + 2 < cap; i++) {
    if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  if (with_unit) snprintf(buf + o, cap - o, " %s", names[p->unit]);
}

void progress_update(progress *p, int64_t done) {
  p->done = done;
  if (!p->tty) return;
  double t = now_s();
  if (t - p->start < p->delay || (p->shown && t - p->last < 0.1)) return;
  p->last = t;
  p->shown = true;
  char a[48], b[48];
  if (p->total <= 0) { /* the total is not known (a stream, a predicate) */
    format_amount(p, done, true, a, sizeof a);
    fprintf(stderr, "\r%-40s", a);
    fflush(stderr);
    return;
  }
  format_amount(p, done, false, a, sizeof a);
  format_amount(p, p->total, true, b, sizeof b);
  int64_t pct = done >= p->total ? 100 : done * 100 / p->total;
  int fill = (int)(pct * 30 / 100);
  /* 80 columns at most */
  char line[160];
  snprintf(line, sizeof line, "[%.*s%*s] %3d%%  %s of %s", fill, "==============================", 30 - fill, "",
           (int)pct, a, b);
  fprintf(stderr, "\r%-79.79s", line);
  fflush(stderr);
}

void progress_advance(progress *p, int64_t delta) { progress_update(p, p->done + delta); }

void progress_done(progress *p) {
  if (p->shown) fprintf(stderr, "\r%*s\r", 79, "");
  p->shown = false;
}

/* ---- rows of text output counted as they are written ---- */

static bool keep_all(void *kctx, int64_t record) {
  (void)kctx;
  (void)record;
  return true;
}

static pqt_status progress_text_write(void *ctx, const char *data, size_t len) {
  progress_text *pt = ctx;
  pqt_status st = text_select_write(&pt->sel, data, len);
  progress_update(&pt->bar, pt->sel.record);
  return st;
}

pqt_write_fn progress_text_init(progress_text *pt, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                                int64_t total_rows) {
  return progress_text_init_keep(pt, fmt, write, ctx, keep_all, NULL, total_rows);
}

pqt_write_fn progress_text_init_keep(progress_text *pt, pqt_text_format fmt, pqt_write_fn write, void *ctx,
                                     bool (*keep)(void *kctx, int64_t record), void *kctx, int64_t total_rows) {
  text_select_init(&pt->sel, fmt, write, ctx, keep, kctx);
  progress_init_unit(&pt->bar, PROGRESS_ROWS, total_rows);
  return progress_text_write;
}
