/*
 * core/struct_size.h: the growth scheme of the public structs.
 *
 * Every public struct that carries options or results begins with
 * `size_t struct_size`: the caller's sizeof of the struct, set by its
 * _init (an inline function in parquetry.h, so the size is the one the
 * caller was compiled with). A program built against an older header has a
 * shorter struct; the library reads only the bytes it has and takes this
 * version's defaults for the rest, and writes results back only that far.
 * struct_size smaller than the member itself (0: a struct never initialised)
 * or larger than this library's struct (a newer header than the library) is
 * PQT_EINVAL naming the struct.
 *
 * The rules that keep this sound when a field is added:
 *   - fields are only ever appended, never reordered, resized or removed;
 *   - a default must be expressible for callers that do not have the field
 *     (the defaults struct below supplies it);
 *   - a struct embedded by value in another (pqt_column_options inside
 *     pqt_write_options and pqt_column_override) shifts the fields after
 *     it when it grows: file/options.c translates those layouts using the
 *     embedded struct's own struct_size;
 *   - a field appended into the previous version's tail padding would be
 *     read from an old caller's padding: when appending would not grow
 *     sizeof, grow it (an explicit reserved member) in the same release.
 */
#ifndef PQT_CORE_STRUCT_SIZE_H
#define PQT_CORE_STRUCT_SIZE_H

#include "core/core.h"

/* The smallest acceptable struct_size: the member itself. */
#define PQT_STRUCT_SIZE_MIN sizeof(size_t)

/* The struct_size stored at the start of any versioned struct. */
static inline size_t pqt_struct_size_of(const void *s) {
  size_t n;
  memcpy(&n, s, sizeof n);
  return n;
}

/* Check a caller's struct_size against this library's size `ours`:
 * PQT_EINVAL naming `type` ("pqt_read_options") when it cannot be right. */
pqt_status pqt_struct_size_check(size_t caller, size_t ours, const char *type, pqt_error *err);

/*
 * Read a caller's struct. dst holds this version's defaults (dst_size ==
 * sizeof of the current struct); the caller's first struct_size bytes
 * replace them, and dst->struct_size becomes dst_size. src NULL leaves the
 * defaults. The one way every entry point takes a versioned struct in.
 */
pqt_status pqt_options_copy(void *dst, size_t dst_size, const void *src, const char *type, pqt_error *err);

/* Hand a struct the library filled (`full`, full_size bytes, its own
 * struct_size ignored) to the caller's dst: at most dst->struct_size bytes
 * are written, and dst keeps its struct_size. */
pqt_status pqt_struct_copy_out(void *dst, const void *full, size_t full_size, const char *type, pqt_error *err);

/* The body of every _init_sized: fill a caller's struct of `size` bytes
 * with the defaults (`full`, full_size bytes); bytes past full_size (a
 * newer header) are zeroed, and struct_size is set to `size` (so using such
 * a struct is then PQT_EINVAL). Sizes below the member write nothing. */
void pqt_struct_init(void *dst, size_t size, const void *full, size_t full_size);

/* Define `name`, the exported _init_sized of `type`: defaults(&d) fills a
 * whole `type d` with this version's defaults (PQT_ZERO_DEFAULTS: all
 * zero), and pqt_struct_init hands the caller its `size` bytes of them. */
#define PQT_ZERO_DEFAULTS(p) memset((p), 0, sizeof *(p))
#define PQT_DEFINE_INIT_SIZED(type, name, defaults) \
  PQT_API void name(type *o, size_t size) {         \
    type d;                                          \
    defaults(&d);                                    \
    pqt_struct_init(o, size, &d, sizeof d);          \
  }

#endif /* PQT_CORE_STRUCT_SIZE_H */
