/*
 * scan/group_order.h: the row groups a scan reads, in order, and the one
 * rule for "the next row group this scan will read" that the Arrow stream
 * (scan/stream.c), the text output (text/text_output.c) and the filtered
 * count (scan/count.c) share to read ahead: the next position whose row
 * group pruning (pqt_scan_group: statistics, dictionaries, Bloom filters,
 * row ranges) keeps. Pruning of a position is decided once: early when the
 * next one is asked for, else when the scan reaches it.
 */
#ifndef PQT_SCAN_GROUP_ORDER_H
#define PQT_SCAN_GROUP_ORDER_H

#include "scan/filter.h"

typedef struct pqt_group_order {
  int32_t *groups; /* per position, the row group (checked against the file) */
  int32_t n;
  int8_t *decided; /* per position: 1 read, -1 pruned, 0 not decided yet */
  const pqt_allocator *alloc;
} pqt_group_order;

/* opts->row_groups (when n_row_groups > 0), else every row group of r in
 * file order. EINVAL naming a row group the file does not have. */
pqt_status pqt_group_order_init(pqt_group_order *o, const pqt_reader *r, const pqt_scan_options *opts, pqt_error *err);
void pqt_group_order_free(pqt_group_order *o);
/* Whether the scan reads position pos (pqt_scan_group, unless decided
 * ahead: counted once either way). */
pqt_status pqt_group_order_read(pqt_group_order *o, pqt_scan *s, int32_t pos, bool *read, pqt_error *err);
/* The first position after pos that the scan will read, or -1 (none, or
 * pruning failed there: the scan reports that error when it gets there,
 * the counts are left as they were). */
int32_t pqt_group_order_next(pqt_group_order *o, pqt_scan *s, int32_t pos);

#endif
