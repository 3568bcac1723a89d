/*
 * parquetry: read and write Apache Parquet files from C11.
 *
 * This header is the manual. Conventions used throughout:
 *   - Every fallible function returns pqt_status (PQT_OK == 0) and takes a
 *     pqt_error* as its last argument, which may be NULL.
 *   - Objects are opaque; constructors return them through an out-parameter.
 *     `_open/_close` for objects that own I/O, `_create/_destroy` otherwise.
 *   - Every object records the allocator it was created with and frees
 *     through it. No global mutable state: objects may be used from different
 *     threads as long as one object is not used by two threads at once.
 *   - Every byte read from a file is untrusted: a malformed file gives
 *     PQT_ECORRUPT with a message naming where it is bad, never a crash.
 */
#ifndef PARQUETRY_H
#define PARQUETRY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define PQT_API __declspec(dllexport)
#elif defined(__GNUC__)
#define PQT_API __attribute__((visibility("default")))
#else
#define PQT_API
#endif

#define PQT_VERSION_MAJOR 0
#define PQT_VERSION_MINOR 1
#define PQT_VERSION_PATCH 0
#define PQT_VERSION_STRING "0.1.0"

/* Library version string, e.g. "0.1.0". */
PQT_API const char *pqt_version(void);

/* ------------------------------------------------------------------ */
/* Status and errors                                                   */
/* ------------------------------------------------------------------ */

typedef int pqt_status;

enum {
  PQT_OK = 0,
  PQT_EINVAL = 1,      /* misuse of the API (bad argument, wrong state) */
  PQT_ENOMEM = 2,      /* an allocation failed */
  PQT_EIO = 3,         /* the source or sink failed */
  PQT_ECORRUPT = 4,    /* the file is malformed */
  PQT_EUNSUPPORTED = 5,/* valid, but a feature or codec is not available */
  PQT_ECRYPTO = 6,     /* a key is missing or authentication failed */
  PQT_ELIMIT = 7       /* a configured resource limit was exceeded */
};

/* Where an error happened; fields are -1 when not applicable. */
typedef struct pqt_error {
  pqt_status code;
  char message[512];
  int64_t file_offset;
  int32_t row_group;
  int32_t column;
  int32_t page;
} pqt_error;

/* Reset an error to "no error" (code PQT_OK, places -1, empty message). */
PQT_API void pqt_error_init(pqt_error *err);

/* A short constant name for a status code ("PQT_ECORRUPT"). */
PQT_API const char *pqt_status_name(pqt_status code);

/* ------------------------------------------------------------------ */
/* Allocator                                                           */
/* ------------------------------------------------------------------ */

/*
 * Caller-supplied allocator. realloc(ctx, NULL, 0, n) allocates;
 * realloc(ctx, p, old, n) resizes; free(ctx, p, size) releases. Sizes are
 * always passed back exactly as allocated, so pools and arenas work.
 * A NULL pqt_allocator* anywhere in the API means the C library's malloc.
 */
typedef struct pqt_allocator {
  void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *ctx, void *ptr, size_t size);
  void *ctx;
} pqt_allocator;

/* The default allocator (malloc/realloc/free). */
PQT_API const pqt_allocator *pqt_default_allocator(void);

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

/*
 * A random-access byte source. read_at fills dst with exactly n bytes at
 * offset (a short read is an error). borrow_at, when not NULL, returns a
 * pointer to n bytes that stay valid until release (memory and mmap
 * sources), so pages can be decoded without a copy. release frees the
 * source's private state.
 */
typedef struct pqt_io {
  pqt_status (*read_at)(void *private_data, uint64_t offset, void *dst,
                        size_t n, pqt_error *err);
  pqt_status (*borrow_at)(void *private_data, uint64_t offset, size_t n,
                          const uint8_t **out, pqt_error *err);
  void (*release)(void *private_data);
  uint64_t size;
  void *private_data;
} pqt_io;

/* A source over a file (memory-mapped when possible). Release with io->release. */
PQT_API pqt_status pqt_io_open_file(pqt_io *io, const char *path,
                                    const pqt_allocator *alloc, pqt_error *err);

/* A source over a caller's buffer, which must outlive the source. */
PQT_API pqt_status pqt_io_from_buffer(pqt_io *io, const void *data, size_t len,
                                      const pqt_allocator *alloc,
                                      pqt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_H */
