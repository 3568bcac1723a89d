/* core/shared_buf.c: reference-counted byte buffers (see shared_buf.h). */
#include "core/shared_buf.h"

pqt_status pqt_shared_from_buf_at(pqt_buf *b, size_t offset, pqt_shared_buf **out, pqt_error *err) {
  pqt_shared_buf *s = pqt_mem_alloc(b->alloc, sizeof *s);
  if (!s) return pqt_nomem(err);
  memset(s, 0, sizeof *s);
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

/* A buffer over bytes it does not own (never written through), one reference. */
static pqt_shared_buf *shared_over(const pqt_allocator *alloc, const uint8_t *data, size_t len) {
  alloc = pqt_alloc_or_default(alloc);
  pqt_shared_buf *s = pqt_mem_alloc(alloc, sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  atomic_init(&s->refs, 1);
  s->alloc = alloc;
  s->data = s->base = (uint8_t *)(uintptr_t)data;
  s->len = len;
  return s;
}

pqt_status pqt_shared_wrap(const pqt_allocator *alloc, const uint8_t *data, size_t len,
                           void (*release)(pqt_shared_buf *self), void *ctx, pqt_shared_buf **out, pqt_error *err) {
  pqt_shared_buf *s = shared_over(alloc, data, len);
  if (!s) return pqt_nomem(err);
  s->release = release;
  s->release_ctx = ctx;
  *out = s;
  return PQT_OK;
}

pqt_status pqt_shared_slice(pqt_shared_buf *parent, const uint8_t *data, size_t len, const pqt_allocator *alloc,
                            pqt_shared_buf **out, pqt_error *err) {
  uintptr_t p = (uintptr_t)data, lo = (uintptr_t)parent->data;
  if (p < lo || p - lo > parent->len || len > parent->len - (p - lo))
    return pqt_error_set(err, PQT_EINVAL, "a slice of %zu bytes outside its %zu-byte buffer", len, parent->len);
  pqt_shared_buf *s = shared_over(alloc, data, len);
  if (!s) return pqt_nomem(err);
  s->parent = pqt_shared_ref(parent);
  *out = s;
  return PQT_OK;
}

void pqt_shared_unref(pqt_shared_buf *b) {
  if (!b) return;
  if (atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) != 1) return;
  const pqt_allocator *a = b->alloc;
  if (b->parent) pqt_shared_unref(b->parent);
  else if (b->release) b->release(b);
  else pqt_mem_free(a, b->base, b->cap);
  pqt_mem_free(a, b, sizeof *b);
}
