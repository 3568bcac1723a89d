/*
 * scan/count.c: pqt_reader_count. Without a predicate the answer is the
 * row groups' num_rows (the footer; no page is read). With one, only the
 * predicate's columns are decoded, row groups pruned as for any scan, and
 * the rows where it is true counted. While a row group decodes, the next
 * one that pruning keeps has its predicate columns read ahead (as the Arrow
 * stream and the text output do; pqt_scan_options.read_ahead): pruning is
 * decided one row group early for that.
 */
#include "file/options.h"
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
  bool explicit_groups = opts && opts->row_groups && opts->n_row_groups > 0;
  int32_t n_groups = explicit_groups ? opts->n_row_groups : r->md.row_groups.n;
  /* per position: pruning decided ahead (1 read, -1 not read; 0 not yet) */
  int8_t *decided = NULL;
  if (st == PQT_OK && scan.filter && n_groups > 0) {
    decided = pqt_mem_calloc(r->data_alloc, (size_t)n_groups);
    if (!decided) st = pqt_nomem(err);
  }
  pqt_readahead ra;
  pqt_readahead_init(&ra, r, st == PQT_OK && scan.filter && opts->read_ahead >= 0, NULL);
  if (st == PQT_OK) pqt_scan_io_begin(&scan);
  for (int32_t gi = 0; gi < n_groups && st == PQT_OK; gi++) {
    int32_t g = explicit_groups ? opts->row_groups[gi] : gi;
    if (g < 0 || g >= r->md.row_groups.n) {
      st = pqt_error_set(err, PQT_EINVAL, "no row group %d", g);
      break;
    }
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
    if (decided && decided[gi]) read = decided[gi] > 0;
    else st = pqt_scan_group(&scan, g, &read, err);
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
    /* the next row group that pruning keeps, read ahead; a pruning error
     * is left for the loop to report when it gets there */
    for (int32_t k = gi + 1; ra.mode && decided && k < n_groups; k++) {
      int32_t g2 = explicit_groups ? opts->row_groups[k] : k;
      if (g2 < 0 || g2 >= r->md.row_groups.n) break;
      if (!decided[k]) {
        bool rd;
        pqt_error scratch;
        pqt_error_init(&scratch);
        if (pqt_scan_group(&scan, g2, &rd, &scratch) != PQT_OK) break;
        decided[k] = rd ? 1 : -1;
      }
      if (decided[k] > 0) {
        pqt_readahead_start(&ra, r, g2, scan.read_sel);
        break;
      }
    }
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
  if (decided) pqt_mem_free(r->data_alloc, decided, (size_t)n_groups);
  pqt_scan_io_end(&scan);
  if (st == PQT_OK) *rows = scan.stats.rows;
  pqt_scan_publish(&scan);
  pqt_scan_free(&scan);
  pqt_mem_free(r->data_alloc, none, (size_t)(nl ? nl : 1));
  return pqt_reader_limit_status(r, st, err);
}
