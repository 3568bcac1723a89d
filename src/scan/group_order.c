/* scan/group_order.c: the row groups a scan reads and the next one (scan/group_order.h). */
#include "scan/group_order.h"

pqt_status pqt_group_order_init(pqt_group_order *o, const pqt_reader *r, const pqt_scan_options *opts, pqt_error *err) {
  memset(o, 0, sizeof *o);
  o->alloc = r->data_alloc;
  bool given = opts && opts->row_groups && opts->n_row_groups > 0;
  o->n = given ? opts->n_row_groups : r->md.row_groups.n;
  size_t cap = (size_t)(o->n ? o->n : 1);
  o->groups = pqt_mem_calloc(o->alloc, sizeof(int32_t) * cap);
  o->decided = pqt_mem_calloc(o->alloc, cap);
  if (!o->groups || !o->decided) {
    pqt_group_order_free(o);
    return pqt_nomem(err);
  }
  for (int32_t i = 0; i < o->n; i++) {
    int32_t g = given ? opts->row_groups[i] : i;
    if (g < 0 || g >= r->md.row_groups.n) {
      pqt_group_order_free(o);
      return pqt_error_set(err, PQT_EINVAL, "no row group %d", g);
    }
    o->groups[i] = g;
  }
  return PQT_OK;
}

void pqt_group_order_free(pqt_group_order *o) {
  size_t cap = (size_t)(o->n ? o->n : 1);
  if (o->groups) pqt_mem_free(o->alloc, o->groups, sizeof(int32_t) * cap);
  if (o->decided) pqt_mem_free(o->alloc, o->decided, cap);
  o->groups = NULL;
  o->decided = NULL;
  o->n = 0;
}

pqt_status pqt_group_order_read(pqt_group_order *o, pqt_scan *s, int32_t pos, bool *read, pqt_error *err) {
  if (o->decided[pos]) {
    *read = o->decided[pos] > 0;
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(pqt_scan_group(s, o->groups[pos], read, err));
  o->decided[pos] = *read ? 1 : -1;
  return PQT_OK;
}

int32_t pqt_group_order_next(pqt_group_order *o, pqt_scan *s, int32_t pos) {
  for (int32_t k = pos + 1; k < o->n; k++) {
    if (!o->decided[k]) {
      pqt_scan_stats before = s->stats; /* a failure leaves the counts for the scan's own attempt */
      pqt_error scratch;
      pqt_error_init(&scratch);
      bool read;
      if (pqt_scan_group(s, o->groups[k], &read, &scratch) != PQT_OK) {
        s->stats = before;
        return -1;
      }
      o->decided[k] = read ? 1 : -1;
    }
    if (o->decided[k] > 0) return k;
  }
  return -1;
}
