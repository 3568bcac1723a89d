/* scan/row_ranges.c: sets of rows as sorted, disjoint ranges (see scan/ranged.h). */
#include "scan/ranged.h"

void pqt_rowset_init(pqt_rowset *s, const pqt_allocator *alloc) {
  memset(s, 0, sizeof *s);
  s->alloc = alloc;
}

void pqt_rowset_free(pqt_rowset *s) {
  if (s->r) pqt_mem_free(s->alloc, s->r, sizeof(pqt_rr) * (size_t)s->cap);
  s->r = NULL;
  s->n = s->cap = 0;
}

void pqt_rowset_clear(pqt_rowset *s) { s->n = 0; }

pqt_status pqt_rowset_add(pqt_rowset *s, int64_t a, int64_t b, pqt_error *err) {
  if (b <= a) return PQT_OK;
  if (s->n > 0 && a <= s->r[s->n - 1].b) {
    if (b > s->r[s->n - 1].b) s->r[s->n - 1].b = b;
    return PQT_OK;
  }
  if (s->n == s->cap) {
    if (s->cap > INT32_MAX / 4) return pqt_error_set(err, PQT_ELIMIT, "too many row ranges");
    int32_t cap = s->cap ? s->cap * 2 : 16;
    pqt_rr *r = pqt_mem_alloc(s->alloc, sizeof(pqt_rr) * (size_t)cap);
    if (!r) return pqt_nomem(err);
    if (s->n) memcpy(r, s->r, sizeof(pqt_rr) * (size_t)s->n);
    if (s->r) pqt_mem_free(s->alloc, s->r, sizeof(pqt_rr) * (size_t)s->cap);
    s->r = r;
    s->cap = cap;
  }
  s->r[s->n].a = a;
  s->r[s->n].b = b;
  s->n++;
  return PQT_OK;
}

pqt_status pqt_rowset_intersect(const pqt_rowset *x, const pqt_rowset *y, pqt_rowset *out, pqt_error *err) {
  pqt_rowset_clear(out);
  int32_t i = 0, j = 0;
  while (i < x->n && j < y->n) {
    int64_t a = x->r[i].a > y->r[j].a ? x->r[i].a : y->r[j].a;
    int64_t b = x->r[i].b < y->r[j].b ? x->r[i].b : y->r[j].b;
    if (a < b) PQT_RETURN_NOT_OK(pqt_rowset_add(out, a, b, err));
    if (x->r[i].b < y->r[j].b) i++;
    else j++;
  }
  return PQT_OK;
}

pqt_status pqt_rowset_unite(const pqt_rowset *x, const pqt_rowset *y, pqt_rowset *out, pqt_error *err) {
  pqt_rowset_clear(out);
  int32_t i = 0, j = 0;
  while (i < x->n || j < y->n) {
    const pqt_rr *t = (j >= y->n || (i < x->n && x->r[i].a <= y->r[j].a)) ? &x->r[i++] : &y->r[j++];
    PQT_RETURN_NOT_OK(pqt_rowset_add(out, t->a, t->b, err));
  }
  return PQT_OK;
}

int64_t pqt_rowset_count(const pqt_rowset *s) {
  int64_t n = 0;
  for (int32_t i = 0; i < s->n; i++) n += s->r[i].b - s->r[i].a;
  return n;
}
