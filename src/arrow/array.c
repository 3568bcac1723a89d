/* arrow/array.c: array nodes (see array.h; their shared buffers: core/shared_buf.h). */
#include "arrow/array.h"

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
  for (int32_t i = 0; i < a->n_view_bufs; i++) pqt_shared_unref(a->view_bufs[i]);
  if (a->view_bufs) pqt_mem_free(alloc, a->view_bufs, sizeof(pqt_shared_buf *) * (size_t)a->n_view_bufs);
  pqt_mem_free(alloc, a, sizeof *a);
}
