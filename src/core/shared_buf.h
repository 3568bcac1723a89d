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
static inline pqt_shared_buf *pqt_shared_ref(pqt_shared_buf *b) {
  if (b) atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
  return b;
}
void pqt_shared_unref(pqt_shared_buf *b);

#endif
