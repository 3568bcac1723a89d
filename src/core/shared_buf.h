/*
 * core/shared_buf.h: reference-counted byte buffers (atomic counts: a
 * buffer may be released on any thread). Decoded arrays hold them
 * (arrow/array.h); so do the pages a view array points into (a page's
 * decompressed bytes handed over by the page reader, kept alive by the
 * arrays that point there, page/page_reader.h).
 */
#ifndef PQT_CORE_SHARED_BUF_H
#define PQT_CORE_SHARED_BUF_H

#include <stdatomic.h>

#include "core/core.h"

typedef struct pqt_shared_buf {
  atomic_int refs;
  uint8_t *data; /* what consumers see: base + an offset */
  uint8_t *base; /* the allocation */
  size_t len;
  size_t cap;
  const pqt_allocator *alloc;
  /* Not owned memory (pqt_shared_wrap): release(this buffer) runs at the
   * last reference instead of freeing base. A slice (pqt_shared_slice):
   * parent is the buffer its bytes lie in, one reference held. */
  void (*release)(struct pqt_shared_buf *self);
  void *release_ctx;
  struct pqt_shared_buf *parent;
} pqt_shared_buf;

/* Take over a pqt_buf's memory (the pqt_buf is left empty); the shared
 * buffer's data starts `offset` bytes into it. */
pqt_status pqt_shared_from_buf_at(pqt_buf *b, size_t offset, pqt_shared_buf **out, pqt_error *err);
static inline pqt_status pqt_shared_from_buf(pqt_buf *b, pqt_shared_buf **out, pqt_error *err) {
  return pqt_shared_from_buf_at(b, 0, out, err);
}
/* A zeroed buffer of n bytes. */
pqt_status pqt_shared_alloc(const pqt_allocator *alloc, size_t n, pqt_shared_buf **out, pqt_error *err);
/* The same without zeroing: for buffers the caller writes in full. */
pqt_status pqt_shared_alloc_raw(const pqt_allocator *alloc, size_t n, pqt_shared_buf **out, pqt_error *err);
/* Memory the library does not allocate (a file's mapping): [data, data+len)
 * stays valid until release(the buffer: base, len and release_ctx = ctx
 * tell it what to let go) runs, at the last reference. */
pqt_status pqt_shared_wrap(const pqt_allocator *alloc, const uint8_t *data, size_t len,
                           void (*release)(pqt_shared_buf *self), void *ctx, pqt_shared_buf **out, pqt_error *err);
/* [data, data+len), which lies inside parent: a buffer of its own (offsets
 * from data) that keeps parent alive. The slice struct comes from alloc. */
pqt_status pqt_shared_slice(pqt_shared_buf *parent, const uint8_t *data, size_t len, const pqt_allocator *alloc,
                            pqt_shared_buf **out, pqt_error *err);
static inline pqt_shared_buf *pqt_shared_ref(pqt_shared_buf *b) {
  if (b) atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
  return b;
}
void pqt_shared_unref(pqt_shared_buf *b);

#endif
