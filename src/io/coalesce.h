/*
 * io/coalesce.h: merging the ranges of a vectored read into fewer, larger
 * requests (for remote sources, where a request costs a round trip).
 *
 * The rule: ranges are sorted by offset; a range joins the request before
 * it when the gap between them (bytes nobody asked for) is at most max_gap
 * and the merged request stays within max_merged bytes. Overlapping ranges
 * always merge (gap 0). A single range longer than max_merged is cut into
 * pieces of max_merged bytes (so that they can be fetched concurrently).
 * max_merged 0 means no size limit; max_gap 0 merges only touching or
 * overlapping ranges.
 */
#ifndef PQT_IO_COALESCE_H
#define PQT_IO_COALESCE_H

#include "core/core.h"

typedef struct pqt_io_request {
  uint64_t offset, length;
} pqt_io_request;

/* The requests covering ranges[0..n) under the rule above, in offset order,
 * into *out (allocated with alloc; free with pqt_mem_free(alloc, *out,
 * sizeof(pqt_io_request) * *cap)). Empty ranges are dropped. */
pqt_status pqt_io_coalesce(const pqt_io_range *ranges, size_t n, uint64_t max_gap, uint64_t max_merged,
                           const pqt_allocator *alloc, pqt_io_request **out, size_t *n_out, size_t *cap,
                           pqt_error *err);

#endif
