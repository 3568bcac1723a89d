/* io/source.c: byte sources behind pqt_io. A file is memory-mapped when it
 * can be (read_at and borrow_at both work on the mapping), and read with
 * pread otherwise. A caller's buffer is borrowed as it is. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/shared_buf.h"
#include "core/struct_size.h"
#include "io/source.h"

typedef struct mem_source {
  const pqt_allocator *alloc;
  const uint8_t *data;
  uint64_t size;
  int fd;     /* -1 for a caller's buffer */
  int mapped; /* data came from mmap */
  pqt_shared_buf *keep; /* a mapping: unmapped when the last of the source and the arrays pointing into it lets go */
} mem_source;

static pqt_status range_check(const mem_source *s, uint64_t off, size_t n, pqt_error *err) {
  if (off > s->size || n > s->size - off)
    return pqt_error_set(err, PQT_ECORRUPT, "read of %zu bytes at offset %llu is past the end of the %llu-byte input",
                         n, (unsigned long long)off, (unsigned long long)s->size);
  return PQT_OK;
}

static pqt_status src_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  mem_source *s = pd;
  PQT_RETURN_NOT_OK(range_check(s, off, n, err));
  if (s->data) {
    if (n) memcpy(dst, s->data + off, n);
    return PQT_OK;
  }
  uint8_t *d = dst;
  while (n) {
    ssize_t got = pread(s->fd, d, n, (off_t)off);
    if (got < 0) {
      if (errno == EINTR) continue;
      return pqt_error_set(err, PQT_EIO, "read failed: %s", strerror(errno));
    }
    if (got == 0) return pqt_error_set(err, PQT_EIO, "unexpected end of file");
    d += got;
    n -= (size_t)got;
    off += (uint64_t)got;
  }
  return PQT_OK;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

static pqt_status src_borrow_at(void *pd, uint64_t off, size_t n, const uint8_t **out, pqt_error *err) {
  mem_source *s = pd;
  PQT_RETURN_NOT_OK(range_check(s, off, n, err));
  *out = s->data + off;
  if (s->mapped && n >= ((size_t)256 << 10)) {
    /* A borrowed range is about to be read front to back (a column chunk):
     * map it in one call instead of faulting page by page inside the
     * decompressor. Only advice: failures are ignored. */
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)(s->data + off) & ~(uintptr_t)(pg > 0 ? pg - 1 : 4095);
    size_t len = (size_t)((uintptr_t)(s->data + off) + n - a);
    if (madvise((void *)a, len, MADV_POPULATE_READ) != 0) (void)madvise((void *)a, len, MADV_WILLNEED);
  }
  return PQT_OK;
}

/* The hint for a mapped file: the kernel starts reading the ranges in
 * (MADV_WILLNEED returns at once), so a row group read ahead is in memory
 * when its turn comes. Only advice: failures are ignored. */
static pqt_status src_will_need(void *pd, const pqt_io_range *r, size_t n, pqt_error *err) {
  (void)err;
  mem_source *s = pd;
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t mask = ~(uintptr_t)(pg > 0 ? pg - 1 : 4095);
  for (size_t i = 0; s->mapped && i < n; i++) {
    if (r[i].offset > s->size || r[i].length > s->size - r[i].offset || !r[i].length) continue;
    uintptr_t a = (uintptr_t)(s->data + r[i].offset) & mask;
    size_t len = (size_t)((uintptr_t)(s->data + r[i].offset) + (size_t)r[i].length - a);
    (void)madvise((void *)a, len, MADV_WILLNEED);
  }
  return PQT_OK;
}

bool pqt_io_is_builtin(const pqt_io *io) { return io && io->read_at == src_read_at; }

bool pqt_io_populate(const pqt_io *io, const pqt_io_range *r, size_t n) {
  if (!io || io->read_at != src_read_at || !io->private_data) return false;
  mem_source *s = io->private_data;
  if (!s->mapped) return false;
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t mask = ~(uintptr_t)(pg > 0 ? pg - 1 : 4095);
  for (size_t i = 0; i < n; i++) {
    if (r[i].offset > s->size || r[i].length > s->size - r[i].offset || !r[i].length) continue;
    uintptr_t a = (uintptr_t)(s->data + r[i].offset) & mask;
    size_t len = (size_t)((uintptr_t)(s->data + r[i].offset) + (size_t)r[i].length - a);
    if (madvise((void *)a, len, MADV_POPULATE_READ) != 0) (void)madvise((void *)a, len, MADV_WILLNEED);
  }
  return true;
}
/* Local sources have no round trips: a batch is the reads one by one. */
static pqt_status src_read_ranges(void *pd, const pqt_io_range *r, size_t n, pqt_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (r[i].length > SIZE_MAX) return pqt_error_set(err, PQT_ELIMIT, "range of %llu bytes", (unsigned long long)r[i].length);
    PQT_RETURN_NOT_OK(src_read_at(pd, r[i].offset, r[i].dst, (size_t)r[i].length, err));
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_io_read_ranges(const pqt_io *io, const pqt_io_range *ranges, size_t n, pqt_error *err) {
  if (!io || !io->read_at || (n && !ranges)) return pqt_error_set(err, PQT_EINVAL, "pqt_io_read_ranges: bad arguments");
  if (pqt_struct_size_of(io) >= offsetof(pqt_io, read_ranges) + sizeof io->read_ranges && io->read_ranges)
    return io->read_ranges(io->private_data, ranges, n, err);
  for (size_t i = 0; i < n; i++) {
    if (ranges[i].length > SIZE_MAX)
      return pqt_error_set(err, PQT_ELIMIT, "range of %llu bytes", (unsigned long long)ranges[i].length);
    PQT_RETURN_NOT_OK(io->read_at(io->private_data, ranges[i].offset, ranges[i].dst, (size_t)ranges[i].length, err));
  }
  return PQT_OK;
}

static void unmap_kept(pqt_shared_buf *b) { munmap(b->base, b->len); }

pqt_shared_buf *pqt_io_keeper(const pqt_io *io) {
  if (!io || io->read_at != src_read_at || !io->private_data) return NULL;
  return ((mem_source *)io->private_data)->keep;
}

static void src_release(void *pd) {
  mem_source *s = pd;
  if (!s) return;
  if (s->keep) pqt_shared_unref(s->keep); /* unmaps, unless arrays still point into the file */
  else if (s->mapped) munmap((void *)s->data, (size_t)s->size);
  if (s->fd >= 0) close(s->fd);
  pqt_mem_free(s->alloc, s, sizeof *s);
}

PQT_API pqt_status pqt_io_from_buffer(pqt_io *io, const void *data, size_t len, const pqt_allocator *alloc,
                                      pqt_error *err) {
  if (!io || (!data && len)) return pqt_error_set(err, PQT_EINVAL, "pqt_io_from_buffer: bad arguments");
  PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(io), sizeof *io, "pqt_io", err));
  alloc = pqt_alloc_or_default(alloc);
  mem_source *s = pqt_mem_calloc(alloc, sizeof *s);
  if (!s) return pqt_nomem(err);
  static const uint8_t empty[1] = {0};
  s->alloc = alloc;
  s->data = data ? data : empty;
  s->size = len;
  s->fd = -1;
  pqt_io full = {sizeof full, src_read_at, src_borrow_at, src_release, len, s, src_read_ranges, NULL};
  return pqt_struct_copy_out(io, &full, sizeof full, "pqt_io", err); /* size checked above */
}

PQT_API pqt_status pqt_io_open_file(pqt_io *io, const char *path, const pqt_allocator *alloc, pqt_error *err) {
  if (!io || !path) return pqt_error_set(err, PQT_EINVAL, "pqt_io_open_file: bad arguments");
  PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(io), sizeof *io, "pqt_io", err));
  alloc = pqt_alloc_or_default(alloc);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return pqt_error_set(err, PQT_EIO, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return pqt_error_set(err, PQT_EIO, "cannot stat: %s", strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return pqt_error_set(err, PQT_EIO, "not a regular file");
  }
  mem_source *s = pqt_mem_calloc(alloc, sizeof *s);
  if (!s) {
    close(fd);
    return pqt_nomem(err);
  }
  s->alloc = alloc;
  s->size = (uint64_t)st.st_size;
  s->fd = fd;
  if (st.st_size > 0 && (uint64_t)st.st_size <= (uint64_t)SIZE_MAX) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      s->data = m;
      s->mapped = 1;
      /* the mapping as a shared buffer (views point into it, pqt_io_keeper) */
      pqt_status ks = pqt_shared_wrap(alloc, m, (size_t)st.st_size, unmap_kept, NULL, &s->keep, err);
      if (ks != PQT_OK) {
        munmap(m, (size_t)st.st_size);
        close(fd);
        pqt_mem_free(alloc, s, sizeof *s);
        return ks;
      }
    }
  }
  pqt_io full = {sizeof full,   src_read_at, s->data ? src_borrow_at : NULL, src_release, s->size, s, src_read_ranges,
                 s->mapped ? src_will_need : NULL};
  return pqt_struct_copy_out(io, &full, sizeof full, "pqt_io", err); /* size checked above */
}
