/*
 * fuzz/fuzz_filter_file.c: libFuzzer target for filtered scans of (mutated)
 * files: row-group pruning reads the statistics, dictionary pages and Bloom
 * filter headers and blocks of a file it cannot trust (scan/prune.c), and
 * the filter is evaluated over whatever the file decodes to.
 *
 * Input: byte 0 = n, then n bytes of filter text, then the file.
 * Invariants (abort = finding):
 *   - failures carry a "bad file" status (ECORRUPT, EUNSUPPORTED, ELIMIT,
 *     ENOMEM, ECRYPTO) and a message, or PQT_EINVAL from binding the filter;
 *   - when both succeed, the text output and pqt_reader_count agree on the
 *     rows, and the stats never count more row groups read than selected;
 *   - the same with row ranges (pqt_scan_options.row_ranges, derived from a
 *     hash of the input, so seeds stay as they are): text output and count
 *     agree, and give no more rows than without them;
 *   - every byte allocated is freed, with its size (fuzz_alloc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "parquetry.h"

#define FF_FAIL(...)                       \
  do {                                     \
    fprintf(stderr, "fuzz_filter_file: "); \
    fprintf(stderr, __VA_ARGS__);          \
    fputc('\n', stderr);                   \
    abort();                               \
  } while (0)

static void ff_check(pqt_status st, const pqt_error *err, const char *what) {
  if (st == PQT_OK || st == PQT_EINVAL) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ELIMIT && st != PQT_ERANGE && st != PQT_ENOMEM && st != PQT_ECRYPTO)
    FF_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->message[0] == '\0') FF_FAIL("%s: failure without a message", what);
}

static pqt_status ff_count_lines(void *ctx, const char *d, size_t n) {
  int64_t *lines = ctx;
  for (size_t i = 0; i < n; i++) *lines += d[i] == '\n';
  return PQT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t n = data[0];
  if (n > size - 1) return 0;
  const char *text = (const char *)data + 1;
  const uint8_t *file = data + 1 + n;
  size_t flen = size - 1 - n;
  pqt_expr *e = NULL;
  if (pqt_expr_parse(text, n, &e, NULL) != PQT_OK) return 0;
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa.base;
  ro.verify_checksums = (size & 1) != 0; /* mutated pages of files with CRCs still decode */
  pqt_reader *r = NULL;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_reader_open_buffer(&r, file, flen, &ro, &err);
  ff_check(st, &err, "open");
  if (st == PQT_OK) {
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.filter = e;
    pqt_scan_stats stats;
    memset(&stats, 0, sizeof stats);
    so.stats = &stats;
    int64_t lines = 0, count = -1;
    pqt_status st1 = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, ff_count_lines, &lines, &err);
    ff_check(st1, &err, "write_text");
    if (stats.row_groups_read > stats.row_groups_total || stats.rows != (st1 == PQT_OK ? lines : stats.rows))
      FF_FAIL("stats: %lld/%lld row groups, %lld rows for %lld lines", (long long)stats.row_groups_read,
              (long long)stats.row_groups_total, (long long)stats.rows, (long long)lines);
    pqt_status st2 = pqt_reader_count(r, &so, &count, &err);
    ff_check(st2, &err, "count");
    if (st1 == PQT_OK && st2 == PQT_OK && count != lines)
      FF_FAIL("count %lld, text output %lld rows", (long long)count, (long long)lines);
    /* row ranges: read by pages through the offset index (scan/ranged.c) */
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ULL;
    pqt_row_span spans[2];
    spans[0].first = (int64_t)((h >> 8) % 300);
    spans[0].count = (int64_t)((h >> 20) % 500);
    spans[1].first = spans[0].first + spans[0].count + (int64_t)((h >> 32) % 100);
    spans[1].count = (h >> 40) & 1 ? INT64_MAX - spans[1].first : (int64_t)((h >> 44) % 300);
    so.row_ranges = spans;
    so.n_row_ranges = 1 + (int32_t)((h >> 4) & 1);
    memset(&stats, 0, sizeof stats);
    int64_t r_lines = 0, r_count = -1;
    pqt_status st3 = pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, ff_count_lines, &r_lines, &err);
    ff_check(st3, &err, "write_text with row ranges");
    if (stats.row_groups_read > stats.row_groups_total)
      FF_FAIL("row ranges: %lld/%lld row groups", (long long)stats.row_groups_read, (long long)stats.row_groups_total);
    pqt_status st4 = pqt_reader_count(r, &so, &r_count, &err);
    ff_check(st4, &err, "count with row ranges");
    if (st3 == PQT_OK && st4 == PQT_OK && r_count != r_lines)
      FF_FAIL("row ranges: count %lld, text output %lld rows", (long long)r_count, (long long)r_lines);
    if (st1 == PQT_OK && st3 == PQT_OK && r_lines > lines)
      FF_FAIL("row ranges gave %lld rows, the whole file %lld", (long long)r_lines, (long long)lines);
    pqt_reader_close(r);
  }
  pqt_expr_free(e);
  if (fa.live != 0) FF_FAIL("%zu bytes leaked", fa.live);
  if (fa.size_mismatches) FF_FAIL("free with a wrong size");
  return 0;
}
