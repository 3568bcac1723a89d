/*
 * scan/ranged.h: reading only the rows a scan needs.
 *
 * scan/row_ranges.c: sets of rows of a row group as sorted, disjoint
 * half-open ranges [a, b), with union and intersection.
 *
 * scan/page_prune.c: the rows of a row group whose pages may hold a row
 * satisfying the predicate, from the ColumnIndex and OffsetIndex of its
 * columns (AND intersects, OR unites, NOT keeps every row).
 *
 * scan/ranged.c: a row group read over a set of row ranges (the caller's
 * row ranges intersected with the pages the predicate may match), each
 * column by the pages of its offset index that hold those rows; the
 * predicate's columns are decoded first, the other columns only at the
 * rows that satisfied it (late materialisation).
 */
#ifndef PQT_SCAN_RANGED_H
#define PQT_SCAN_RANGED_H

#include "scan/filter.h"

typedef struct pqt_rr {
  int64_t a, b; /* rows [a, b) */
} pqt_rr;

typedef struct pqt_rowset {
  const pqt_allocator *alloc;
  pqt_rr *r;
  int32_t n, cap;
} pqt_rowset;

void pqt_rowset_init(pqt_rowset *s, const pqt_allocator *alloc);
void pqt_rowset_free(pqt_rowset *s);
void pqt_rowset_clear(pqt_rowset *s);
/* Append [a, b) (a >= the last range's end; touching ranges merge). */
pqt_status pqt_rowset_add(pqt_rowset *s, int64_t a, int64_t b, pqt_error *err);
/* out = x AND y / x OR y (out distinct from both). */
pqt_status pqt_rowset_intersect(const pqt_rowset *x, const pqt_rowset *y, pqt_rowset *out, pqt_error *err);
pqt_status pqt_rowset_unite(const pqt_rowset *x, const pqt_rowset *y, pqt_rowset *out, pqt_error *err);
int64_t pqt_rowset_count(const pqt_rowset *s);

/* A chunk's pages from its offset index, checked: offsets rising inside
 * the chunk, first rows rising from 0 up to the row group's rows. */
typedef struct pqt_page_table {
  bool tried, ok;
  int32_t n;
  int64_t *first; /* n + 1: the last is the row group's rows */
  uint64_t *off, *size;
} pqt_page_table;
void pqt_page_table_free(const pqt_allocator *alloc, pqt_page_table *t);
/* Read it (t->tried set; t->ok when it is there and sound). */
void pqt_page_table_load(pqt_reader *r, int32_t g, int32_t leaf, pqt_page_table *t);
/* Data pages of leaf's chunk in group g from its encoding_stats; -1 unknown. */
int64_t pqt_chunk_data_pages(const pqt_reader *r, int32_t g, int32_t leaf);

/* The rows of row group g (of num_rows rows) the predicate's pages may
 * match into out (cleared first); every row when no index says otherwise.
 * tables (per leaf, may be NULL): the offset indexes read on the way are
 * kept there. */
pqt_status pqt_page_prune(const pqt_filter *f, pqt_reader *r, int32_t g, pqt_page_table *tables, pqt_rowset *out,
                          pqt_error *err);

/* A row group read selectively. Batches come filtered and projected
 * (pqt_scan_batch is not applied to them). */
typedef struct pqt_sel_cursor pqt_sel_cursor;
/* Does scan s read selectively (a predicate or row ranges, no recovery)? */
bool pqt_scan_selective(const pqt_scan *s);
pqt_status pqt_sel_cursor_open(pqt_scan *s, int32_t g, pqt_sel_cursor **out, pqt_error *err);
/* The rows of the next at most max_rows rows considered that pass; out->num_rows may be 0 before the end. */
pqt_status pqt_sel_cursor_next(pqt_sel_cursor *c, int64_t max_rows, pqt_row_group_data *out, pqt_error *err);
bool pqt_sel_cursor_done(const pqt_sel_cursor *c);
/* Data pages decoded so far. */
int64_t pqt_sel_cursor_pages(const pqt_sel_cursor *c);
void pqt_sel_cursor_close(pqt_sel_cursor *c);
/* Threads for the cursor's batches (as pqt_rg_cursor_set_threads): the
 * leaves of a batch decoded in parallel; borrowed. */
struct pqt_rg_threads;
void pqt_sel_cursor_set_threads(pqt_sel_cursor *c, struct pqt_rg_threads *t);

/* Announce to the read-ahead (scan/row_group.h) the byte ranges a
 * selective read of row group g will want (g: the next one the scan reads,
 * pqt_group_order_next): of each column read, the dictionary and the pages
 * of its offset index holding a row the caller's ranges and the
 * predicate's pages leave (the whole chunk when it is not read by pages).
 * Reads the page index of g (a remote source caches it for the read
 * itself). Only a hint: failures are ignored. */
struct pqt_readahead;
void pqt_sel_readahead(struct pqt_readahead *ra, pqt_scan *s, int32_t g);

#endif
