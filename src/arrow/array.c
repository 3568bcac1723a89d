/* arrow/array.c: shared buffers and array nodes (see array.h). */
#include "arrow/array.h"

pqt_status pqt_shared_from_buf_at(pqt_buf *b, size_t offset, pqt_shared_buf **out, pqt_error *err) {
  pqt_shared_buf *s = pqt_mem_alloc(b->alloc, sizeof *s);
  if (!s) return pqt_nomem(err);
  atomic_init(&s->refs, 1);
  s->alloc = b->alloc;
  s->data = b->data;
  s->len = b->len;
  s->cap = b->cap;
  if (!s->data) { /* keep data non-NULL: Arrow consumers dereference buffers */
    s->data = pqt_mem_alloc(b->alloc, 16);
    s->cap = 16;
    if (!s->data) {
      pqt_mem_free(b->alloc, s, sizeof *s);
      return pqt_nomem(err);
    }
    memset(s->data, 0, 16);
    offset = 0;
  }
  s->base = s->data;
  s->data += offset;
  s->len -= offset <= s->len ? offset : s->len;
  b->data = NULL;
  b->len = b->cap = 0;
  *out = s;
  return PQT_OK;
}

pqt_status pqt_shared_alloc_raw(const pqt_allocator *alloc, size_t n, pqt_shared_buf **out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, alloc);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&b, n + 8, err));
  memset(b.data + n, 0, 8); /* the slack past the end stays defined */
  b.len = n;
  pqt_status st = pqt_shared_from_buf(&b, out, err);
  if (st != PQT_OK) pqt_buf_free(&b);
  return st;
}

pqt_status pqt_shared_alloc(const pqt_allocator *alloc, size_t n, pqt_shared_buf **out, pqt_error *err) {
  pqt_buf b;
  pqt_buf_init(&b, alloc);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(&b, n + 8, err));
  memset(b.data, 0, n + 8);
  b.len = n;
  pqt_status st = pqt_shared_from_buf(&b, out, err);
  if (st != PQT_OK) pqt_buf_free(&b);
  return st;
}

void pqt_shared_unref(pqt_shared_buf *b) {
  if (!b) return;
  if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1) return;
  const pqt_allocator *a = b->alloc;
  pqt_mem_free(a, b->base, b->cap);
  pqt_mem_free(a, b, sizeof *b);
}

pqt_status pqt_array_new(const pqt_allocator *alloc, pqt_array_kind kind, int32_t n_children, pqt_array **out,
                         pqt_error *err) {
  pqt_array *a = pqt_mem_calloc(alloc, sizeof *a);
  if (!a) return pqt_nomem(err);
  a->kind = kind;
  if (n_children > 0) {
    a->children = pqt_mem_calloc(alloc, sizeof(pqt_array *) * (size_t)n_children);
    if (!a->children) {
      pqt_mem_free(alloc, a, sizeof *a);
      return pqt_nomem(err);
    }
  }
  a->n_children = n_children;
  *out = a;
  return PQT_OK;
}

void pqt_array_free(const pqt_allocator *alloc, pqt_array *a) {
  if (!a) return;
  for (int32_t i = 0; i < a->n_children; i++) pqt_array_free(alloc, a->children[i]);
  if (a->children) pqt_mem_free(alloc, a->children, sizeof(pqt_array *) * (size_t)a->n_children);
  pqt_shared_unref(a->validity);
  pqt_shared_unref(a->offsets);
  pqt_shared_unref(a->values);
  pqt_array_free(alloc, a->dictionary);
  pqt_shared_unref(a->view_data);
  pqt_mem_free(alloc, a, sizeof *a);
}
