/* io/coalesce.c: see coalesce.h for the merging rule. */
#include "io/coalesce.h"

#include <stdlib.h>

static int by_offset(const void *a, const void *b) {
  const pqt_io_request *x = a, *y = b;
  if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
  return x->length < y->length ? -1 : x->length > y->length;
}

pqt_status pqt_io_coalesce(const pqt_io_range *ranges, size_t n, uint64_t max_gap, uint64_t max_merged,
                           const pqt_allocator *alloc, pqt_io_request **out, size_t *n_out, size_t *cap,
                           pqt_error *err) {
  *out = NULL;
  *n_out = 0;
  *cap = 0;
  if (!n) return PQT_OK;
  if (n > SIZE_MAX / sizeof(pqt_io_request) / 2) return pqt_error_set(err, PQT_ELIMIT, "too many ranges");
  pqt_io_request *in = pqt_mem_alloc(alloc, sizeof *in * n);
  if (!in) return pqt_nomem(err);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!ranges[i].length) continue;
    if (ranges[i].offset > UINT64_MAX - ranges[i].length) {
      pqt_mem_free(alloc, in, sizeof *in * n);
      return pqt_error_set(err, PQT_EINVAL, "range at offset %llu overflows", (unsigned long long)ranges[i].offset);
    }
    in[m].offset = ranges[i].offset;
    in[m].length = ranges[i].length;
    m++;
  }
  qsort(in, m, sizeof *in, by_offset);
  /* merge first, then cut what is longer than max_merged */
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    if (k) {
      pqt_io_request *last = &in[k - 1];
      uint64_t end = last->offset + last->length;
      uint64_t new_end = in[i].offset + in[i].length;
      if (new_end < end) new_end = end;
      bool overlap = in[i].offset <= end;
      bool near = overlap || in[i].offset - end <= max_gap;
      bool small = !max_merged || new_end - last->offset <= max_merged;
      if (overlap || (near && small)) {
        last->length = new_end - last->offset;
        continue;
      }
    }
    in[k++] = in[i];
  }
  size_t total = 0;
  for (size_t i = 0; i < k; i++)
    total += max_merged && in[i].length > max_merged ? (size_t)((in[i].length + max_merged - 1) / max_merged) : 1;
  pqt_io_request *res = pqt_mem_alloc(alloc, sizeof *res * (total ? total : 1));
  if (!res) {
    pqt_mem_free(alloc, in, sizeof *in * n);
    return pqt_nomem(err);
  }
  size_t j = 0;
  for (size_t i = 0; i < k; i++) {
    uint64_t off = in[i].offset, left = in[i].length;
    while (left) {
      uint64_t take = max_merged && left > max_merged ? max_merged : left;
      res[j].offset = off;
      res[j].length = take;
      j++;
      off += take;
      left -= take;
    }
  }
  pqt_mem_free(alloc, in, sizeof *in * n);
  *out = res;
  *n_out = j;
  *cap = total ? total : 1;
  return PQT_OK;
}
