/*
 * core: allocation, errors, arenas, growable buffers and byte helpers.
 * No Parquet knowledge lives here. Every other module includes this.
 */
#ifndef PQT_CORE_H
#define PQT_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "parquetry.h"

#if defined(__GNUC__)
#define PQT_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#define PQT_LIKELY(x)                __builtin_expect(!!(x), 1)
#define PQT_UNLIKELY(x)              __builtin_expect(!!(x), 0)
#define PQT_INTERNAL                 __attribute__((visibility("hidden")))
#else
#define PQT_PRINTF(fmt_idx, arg_idx)
#define PQT_LIKELY(x)   (x)
#define PQT_UNLIKELY(x) (x)
#define PQT_INTERNAL
#endif

/* ---- allocation ---------------------------------------------------- */

/* Resolve a possibly-NULL allocator to a usable one. */
static inline const pqt_allocator *pqt_alloc_or_default(const pqt_allocator *a) {
  return a ? a : pqt_default_allocator();
}
void *pqt_mem_alloc(const pqt_allocator *a, size_t n);
void *pqt_mem_calloc(const pqt_allocator *a, size_t n);
void *pqt_mem_realloc(const pqt_allocator *a, void *p, size_t old_n, size_t new_n);
void pqt_mem_free(const pqt_allocator *a, void *p, size_t n);

/* Overflow-checked arithmetic: return false on overflow. */
static inline bool pqt_add_size(size_t a, size_t b, size_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool pqt_mul_size(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }

/* ---- errors -------------------------------------------------------- */

/* Set err (if not NULL) to code and a formatted message; return code. */
pqt_status pqt_error_set(pqt_error *err, pqt_status code, const char *fmt, ...) PQT_PRINTF(3, 4);
pqt_status pqt_error_vset(pqt_error *err, pqt_status code, const char *fmt, va_list ap) PQT_PRINTF(3, 0);
/* Prepend "prefix: " to err's message (keeps code and places). */
void pqt_error_prefix(pqt_error *err, const char *fmt, ...) PQT_PRINTF(2, 3);

/* After a caller's callback (pqt_io, ...) that was given `local` (a
 * pqt_error the library initialised) returned st != PQT_OK: set err from
 * local (its message when the callback wrote one, else "<what> failed"),
 * code st, places -1; return st. The callback's error is never trusted to
 * be complete. */
pqt_status pqt_error_from_callback(pqt_error *err, pqt_status st, pqt_error *local, const char *what);

/* One breakpoint for every corrupt-file error (as SQLite's CORRUPT_BKPT). */
pqt_status pqt_corrupt(pqt_error *err, const char *fmt, ...) PQT_PRINTF(2, 3);
pqt_status pqt_nomem(pqt_error *err);

#if defined(__clang_analyzer__) && !defined(PQT_ERROR_IMPL)
/* make lint (clang-analyzer) does not see into error.c: without these it
 * assumes `return pqt_corrupt(...)` may return PQT_OK, follows that path as
 * a success and reports the outputs the failed step never wrote. They say
 * what the functions return; compilers never see them. */
static inline pqt_status pqt_analyzer_status_(pqt_status ignored, pqt_status code) {
  (void)ignored;
  return code;
}
#define pqt_error_set(err, code, ...) pqt_analyzer_status_(pqt_error_set((err), (code), __VA_ARGS__), (code))
#define pqt_corrupt(err, ...)         pqt_analyzer_status_(pqt_corrupt((err), __VA_ARGS__), PQT_ECORRUPT)
#define pqt_nomem(err)                pqt_analyzer_status_(pqt_nomem(err), PQT_ENOMEM)
#endif

#define PQT_RETURN_NOT_OK(expr)                          \
  do {                                                   \
    pqt_status pqt_st_ = (expr);                         \
    if (PQT_UNLIKELY(pqt_st_ != PQT_OK)) return pqt_st_; \
  } while (0)

#define PQT_CHECK_CORRUPT(cond, err, ...)                              \
  do {                                                                 \
    if (PQT_UNLIKELY(!(cond))) return pqt_corrupt((err), __VA_ARGS__); \
  } while (0)

/* ---- arena --------------------------------------------------------- */

/* A bump allocator for metadata: many small allocations, one free. */
typedef struct pqt_arena_block pqt_arena_block;
typedef struct pqt_arena {
  const pqt_allocator *alloc;
  pqt_arena_block *head;
  size_t used_bytes;  /* total bytes handed out, for limits */
  size_t limit_bytes; /* 0 = no limit */
} pqt_arena;

void pqt_arena_init(pqt_arena *arena, const pqt_allocator *alloc);
/* Zeroed, 16-byte aligned memory; NULL on failure or when over limit_bytes. */
void *pqt_arena_alloc(pqt_arena *arena, size_t n);
/* n elements of size sz, overflow-checked. */
void *pqt_arena_array(pqt_arena *arena, size_t n, size_t sz);
char *pqt_arena_strdup(pqt_arena *arena, const char *s, size_t len);
void pqt_arena_reset(pqt_arena *arena);

/* ---- growable byte buffer ------------------------------------------ */

/* Errors are sticky: once a reserve/append/printf (or an appender built on
 * them: base64, JSON string) fails, the buffer remembers the failure in
 * `status` and every later one does nothing and returns that status again
 * (filling err again). So a sequence of appends may ignore the individual
 * results and check once at the end with pqt_buf_status(); checking every
 * call, as before, works unchanged. The content after a failure is a prefix
 * of what was asked for: never use it unless pqt_buf_status() is PQT_OK.
 * pqt_buf_clear() and pqt_buf_free() forget the failure. */
typedef struct pqt_buf {
  uint8_t *data;
  size_t len;
  size_t cap;
  const pqt_allocator *alloc;
  pqt_status status; /* PQT_OK, or the first failure (sticky) */
} pqt_buf;

void pqt_buf_init(pqt_buf *b, const pqt_allocator *alloc);
void pqt_buf_free(pqt_buf *b);
/* Ensure room for `extra` more bytes past len. */
pqt_status pqt_buf_reserve(pqt_buf *b, size_t extra, pqt_error *err);
pqt_status pqt_buf_append(pqt_buf *b, const void *p, size_t n, pqt_error *err);
pqt_status pqt_buf_printf(pqt_buf *b, pqt_error *err, const char *fmt, ...) PQT_PRINTF(3, 4);
/* PQT_OK when every append so far succeeded; else the first failure (err
 * filled). */
pqt_status pqt_buf_status(const pqt_buf *b, pqt_error *err);
/* Hand b's bytes over to a caller's pqt_string, NUL-terminated (len
 * without the NUL): the one way a pqt_buf becomes a result. On failure
 * (b's sticky error, or no room for the NUL) b is freed and out untouched. */
pqt_status pqt_buf_to_string(pqt_buf *b, pqt_string *out, pqt_error *err);
static inline void pqt_buf_clear(pqt_buf *b) {
  b->len = 0;
  b->status = PQT_OK;
}

/* ---- little-endian loads and stores -------------------------------- */

static inline uint16_t pqt_load_u16le(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap16(v);
#endif
  return v;
}
static inline uint32_t pqt_load_u32le(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}
static inline uint64_t pqt_load_u64le(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}
static inline void pqt_store_u32le(uint8_t *p, uint32_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  memcpy(p, &v, 4);
}
static inline void pqt_store_u64le(uint8_t *p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  memcpy(p, &v, 8);
}
static inline uint32_t pqt_load_u32be(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline void pqt_store_u32be(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- zigzag (Thrift compact integers, DELTA_BINARY_PACKED headers) ---- */
static inline int64_t pqt_zigzag_decode64(uint64_t v) { return (int64_t)((v >> 1) ^ (~(v & 1) + 1)); }
static inline uint64_t pqt_zigzag_encode64(int64_t v) { return ((uint64_t)v << 1) ^ (0 - ((uint64_t)v >> 63)); }

/* ---- base64 (JSON output of binary fields, the ARROW:schema value) ---- */
pqt_status pqt_base64_append(pqt_buf *b, const uint8_t *p, size_t n, pqt_error *err);
/* The value (0 to 63) of one standard base64 digit; -1 for any other byte, '=' included. */
int pqt_base64_digit(unsigned char c);
/* Standard base64 (padding optional) into arena memory; PQT_ECORRUPT on a
 * character outside the alphabet or misplaced padding. */
pqt_status pqt_base64_decode(const char *s, size_t len, pqt_arena *arena, uint8_t **out, size_t *out_len,
                             pqt_error *err);
/* Append s as a JSON string literal (with quotes), escaping as needed.
 * Invalid UTF-8 bytes are written as \u00XX escapes of the byte value. */
pqt_status pqt_json_string_append(pqt_buf *b, const uint8_t *s, size_t n, pqt_error *err);

#endif /* PQT_CORE_H */
