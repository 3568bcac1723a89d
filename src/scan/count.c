/*
 * scan/count.c: pqt_reader_count. Without a predicate the answer is the
 * row groups' num_rows (the footer; no page is read). With one, only the
 * predicate's columns are decoded, row groups pruned as for any scan, and
 * the rows where it is true counted. While a row group decodes, the next
 * one that pruning keeps has its predicate columns read ahead (as the Arrow
 * stream and the text output do, by the one rule of scan/group_order.h;
 * pqt_scan_options.read_ahead): pruning is decided one row group early.
 */
#include "file/options.h"
#include "scan/group_order.h"
#include "scan/ranged.h"

PQT_API pqt_status pqt_reader_count(pqt_reader *r, const pqt_scan_options *opts, int64_t *rows, pqt_error *err) {
  if (!r || !rows) return pqt_error_set(err, PQT_EINVAL, "pqt_reader_count: bad arguments");
  *rows = 0;
  pqt_scan_options given; /* the caller's options as this library knows them (growth scheme) */
  PQT_RETURN_NOT_OK(pqt_scan_options_load(&given, opts, err));
  opts = &given;
  int32_t nl = r->schema->n_leaves;
  uint8_t *none = pqt_mem_calloc(r->data_alloc, (size_t)(nl ? nl : 1));
  if (!none) return pqt_nomem(err);
  pqt_scan scan;
  pqt_status st = pqt_scan_init(&scan, r, opts, none, err);
  pqt_group_order order; /* the row groups read, in order; pruning decided once */
  memset(&order, 0, sizeof order);
  if (st == PQT_OK) st = pqt_group_order_init(&order, r, opts, err);
  pqt_readahead ra;
  pqt_readahead_init(&ra, r, st == PQT_OK && scan.filter && opts->read_ahead >= 0, NULL);
  if (st == PQT_OK) pqt_scan_io_begin(&scan);
  for (int32_t gi = 0; gi < order.n && st == PQT_OK; gi++) {
    int32_t g = order.groups[gi];
    int64_t n = r->md.row_groups.items[g].num_rows;
    if (!scan.filter) {
      scan.stats.row_groups_total++;
      if (n < 0) st = pqt_corrupt(err, "row group %d: negative num_rows %lld", g, (long long)n);
      else if (!scan.spans) pqt_scan_rows(&scan, n);
      else /* the row ranges' rows in the group */
        for (int32_t k = 0; k < scan.n_spans; k++) {
          int64_t g0 = scan.group_first[g], x = scan.spans[k].first, y = x + scan.spans[k].count;
          if (x < g0) x = g0;
          if (y > g0 + n) y = g0 + n;
          if (x < y) pqt_scan_rows(&scan, y - x);
        }
      continue;
    }
    bool read, skipped;
    st = pqt_group_order_read(&order, &scan, gi, &read, err);
    if (st != PQT_OK || !read) continue;
    if (pqt_scan_selective(&scan)) {
      pqt_sel_cursor *sc;
      st = pqt_sel_cursor_open(&scan, g, &sc, err);
      while (st == PQT_OK && !pqt_sel_cursor_done(sc)) {
        pqt_row_group_data d;
        st = pqt_sel_cursor_next(sc, PQT_DEFAULT_BATCH_ROWS, &d, err);
        if (st == PQT_OK) pqt_scan_rows(&scan, d.num_rows);
        pqt_row_group_data_free(r->data_alloc, &d);
      }
      if (sc) pqt_scan_group_done(&scan, g, pqt_sel_cursor_pages(sc));
      pqt_sel_cursor_close(sc);
      continue;
    }
    pqt_rg_cursor *rg;
    pqt_readahead_wait(&ra); /* g's chunks (announced while the last one decoded) */
    st = pqt_rg_cursor_open_recover(r, g, scan.read_sel, &rg, &skipped, err);
    if (st != PQT_OK || skipped) continue;
    /* the next row group the scan reads, read ahead */
    int32_t next = ra.mode ? pqt_group_order_next(&order, &scan, gi) : -1;
    if (next >= 0) pqt_readahead_start(&ra, r, order.groups[next], scan.read_sel);
    while (st == PQT_OK && !pqt_rg_cursor_done(rg)) {
      pqt_row_group_data d;
      int64_t first_row = pqt_rg_cursor_rows_done(rg);
      st = pqt_rg_cursor_next_recover(rg, PQT_DEFAULT_BATCH_ROWS, &d, &skipped, err);
      if (st != PQT_OK || skipped) break;
      if (d.num_rows > 0) {
        uint8_t *sel = pqt_mem_alloc(r->data_alloc, (size_t)d.num_rows);
        int64_t k = 0;
        st = sel ? pqt_filter_eval(scan.filter, &d, sel, &k, err) : pqt_nomem(err);
        if (st == PQT_ECORRUPT) { /* a value the predicate cannot read (a bad WKB): where */
          if (err) err->row_group = g;
          pqt_error_prefix(err, "row group %d, batch from row %lld", (int)g, (long long)first_row);
        }
        pqt_mem_free(r->data_alloc, sel, (size_t)d.num_rows);
        if (st == PQT_OK) pqt_scan_rows(&scan, k);
      }
      pqt_row_group_data_free(r->data_alloc, &d);
    }
    pqt_scan_group_done(&scan, g, pqt_rg_cursor_pages(rg));
    pqt_rg_cursor_close(rg);
  }
  pqt_readahead_free(&ra); /* waits for an announcement on the way */
  pqt_group_order_free(&order);
  pqt_scan_io_end(&scan);
  if (st == PQT_OK) *rows = scan.stats.rows;
  pqt_scan_publish(&scan);
  pqt_scan_free(&scan);
  pqt_mem_free(r->data_alloc, none, (size_t)(nl ? nl : 1));
  return pqt_reader_limit_status(r, st, err);
}
