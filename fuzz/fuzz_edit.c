/*
 * fuzz/fuzz_edit.c: libFuzzer target for include/parquetry_edit.h. The
 * input is a (mutated) Parquet file; it is concatenated with itself, and
 * copied without its first column, each into a buffer.
 *
 * Invariants (abort = finding):
 *   - failures carry a "bad file" status (ECORRUPT, EUNSUPPORTED, ELIMIT,
 *     ENOMEM; EINVAL only where a column name cannot be resolved, for the
 *     copy without the first column) and a message;
 *   - what a copy writes opens again with the rows it reports, twice the
 *     input's for the concatenation, in as many row groups;
 *   - every byte allocated is freed (fuzz_alloc.h, 256 MiB per request and
 *     1 GiB live).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "parquetry.h"
#include "parquetry_edit.h"

#define ED_FAIL(...)                \
  do {                              \
    fprintf(stderr, "fuzz_edit: "); \
    fprintf(stderr, __VA_ARGS__);   \
    fputc('\n', stderr);            \
    abort();                        \
  } while (0)

static void check_status(pqt_status st, const pqt_error *err, const char *what, bool einval_ok) {
  if (st == PQT_OK) return;
  if (st != PQT_ECORRUPT && st != PQT_EUNSUPPORTED && st != PQT_ELIMIT && st != PQT_ERANGE && st != PQT_ENOMEM &&
      !(einval_ok && st == PQT_EINVAL))
    ED_FAIL("%s: unexpected status %s: %s", what, pqt_status_name(st), err->message);
  if (err->message[0] == '\0') ED_FAIL("%s: failure without a message", what);
}

static void copy_and_check(pqt_reader *r, pqt_fuzz_alloc *fa, int self_concat) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_edit_options o;
  pqt_edit_options_init(&o);
  o.alloc = &fa->base;
  const char *drop[1];
  pqt_column_info ci;
  pqt_column_info_init(&ci);
  if (!self_concat) {
    if (pqt_reader_num_columns(r) < 2 || pqt_reader_column_info(r, 0, &ci, &e) != PQT_OK) return;
    drop[0] = ci.path;
    o.drop_columns = drop;
    o.n_drop_columns = 1;
  }
  pqt_reader *in[2] = {r, r};
  pqt_string out;
  memset(&out, 0, sizeof out);
  out.alloc = &fa->base;
  pqt_edit_report rep;
  pqt_edit_report_init(&rep);
  pqt_status st = pqt_edit_copy_buffer(&out, in, self_concat ? 2 : 1, &o, &rep, &e);
  check_status(st, &e, self_concat ? "concat" : "prune", !self_concat);
  if (st == PQT_OK) {
    int64_t rows = 0;
    for (int32_t g = 0; g < pqt_reader_num_row_groups(r); g++) rows += pqt_reader_row_group_num_rows(r, g);
    int k = self_concat ? 2 : 1;
    if (rep.rows != k * rows || rep.row_groups != k * pqt_reader_num_row_groups(r))
      ED_FAIL("%lld rows in %d row groups reported, the input has %lld in %d", (long long)rep.rows, (int)rep.row_groups,
              (long long)rows, (int)pqt_reader_num_row_groups(r));
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.alloc = &fa->base;
    pqt_reader *back = NULL;
    st = pqt_reader_open_buffer(&back, out.data, out.len, &ro, &e);
    if (st != PQT_OK && st != PQT_ENOMEM) ED_FAIL("the copy does not open: %s", e.message);
    if (back) {
      int64_t n = 0;
      for (int32_t g = 0; g < pqt_reader_num_row_groups(back); g++) n += pqt_reader_row_group_num_rows(back, g);
      if (n != rep.rows) ED_FAIL("the copy holds %lld rows, %lld reported", (long long)n, (long long)rep.rows);
      pqt_reader_close(back);
    }
  }
  pqt_string_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  fa.max_single = (size_t)256 << 20;
  fa.max_live = (size_t)1 << 30;
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.alloc = &fa.base;
  pqt_error e;
  pqt_error_init(&e);
  pqt_reader *r = NULL;
  if (pqt_reader_open_buffer(&r, data, size, &ro, &e) == PQT_OK) {
    copy_and_check(r, &fa, 1);
    copy_and_check(r, &fa, 0);
    pqt_reader_close(r);
  }
  if (fa.live != 0) ED_FAIL("%zu bytes leaked", fa.live);
  if (fa.size_mismatches) ED_FAIL("free with a wrong size");
  return 0;
}
