/*
 * file/options.c: the _init functions of the public structs and the
 * loaders every entry point reads them with (see file/options.h and
 * core/struct_size.h).
 */
#include "file/options.h"

#include <stdio.h>

/* ---- _init ------------------------------------------------------------------ */

PQT_DEFINE_INIT_SIZED(pqt_read_options, pqt_read_options_init_sized, pqt_read_options_defaults)

PQT_DEFINE_INIT_SIZED(pqt_scan_options, pqt_scan_options_init_sized, pqt_scan_options_defaults)

PQT_DEFINE_INIT_SIZED(pqt_column_options, pqt_column_options_init_sized, pqt_column_options_defaults)

PQT_DEFINE_INIT_SIZED(pqt_salvage_options, pqt_salvage_options_init_sized, pqt_salvage_options_defaults)

/* Structs whose defaults are all zero. */
PQT_DEFINE_INIT_SIZED(pqt_io, pqt_io_init_sized, PQT_ZERO_DEFAULTS)
PQT_DEFINE_INIT_SIZED(pqt_write_schema, pqt_write_schema_init_sized, PQT_ZERO_DEFAULTS)
PQT_DEFINE_INIT_SIZED(pqt_column_info, pqt_column_info_init_sized, PQT_ZERO_DEFAULTS)
PQT_DEFINE_INIT_SIZED(pqt_column_batch, pqt_column_batch_init_sized, PQT_ZERO_DEFAULTS)
PQT_DEFINE_INIT_SIZED(pqt_salvage_report, pqt_salvage_report_init_sized, PQT_ZERO_DEFAULTS)

/*
 * pqt_write_options embeds pqt_column_options by value: in a caller's
 * struct built with another header, the fields after `defaults` sit at
 * offsetof(defaults) + the caller's sizeof(pqt_column_options). The layout
 * is three pieces: the head before `defaults`, `defaults` (its own
 * struct_size), and the tail after it.
 */
#define WO_HEAD offsetof(pqt_write_options, defaults)
#define WO_TAIL (offsetof(pqt_write_options, defaults) + sizeof(pqt_column_options))

/* A caller's column options size is sound when it covers the member and
 * keeps the tail aligned (an older struct is a multiple of its alignment). */
static bool co_size_ok(size_t n) {
  return n >= PQT_STRUCT_SIZE_MIN && n <= sizeof(pqt_column_options) && n % _Alignof(pqt_column_options) == 0;
}

PQT_API void pqt_write_options_init_sized(pqt_write_options *o, size_t size, size_t co_size) {
  if (!o || size < PQT_STRUCT_SIZE_MIN) return;
  pqt_write_options d;
  pqt_write_options_defaults(&d);
  unsigned char *p = (unsigned char *)o;
  memset(p, 0, size);
  memcpy(p, &d, size < WO_HEAD ? size : WO_HEAD);
  memcpy(p, &size, sizeof size);
  if (size <= WO_HEAD) return;
  /* an unusable co_size (a newer header) is recorded for the loader to refuse */
  size_t co_layout = co_size_ok(co_size) ? co_size : sizeof(pqt_column_options);
  size_t co_have = size - WO_HEAD < co_layout ? size - WO_HEAD : co_layout;
  pqt_struct_init(p + WO_HEAD, co_have, &d.defaults, sizeof d.defaults);
  if (co_have >= PQT_STRUCT_SIZE_MIN) memcpy(p + WO_HEAD, &co_size, sizeof co_size);
  size_t caller_tail = WO_HEAD + co_layout;
  if (size > caller_tail) {
    size_t n = size - caller_tail, ours = sizeof d - WO_TAIL;
    memcpy(p + caller_tail, (const unsigned char *)&d + WO_TAIL, n < ours ? n : ours);
  }
}

/* ---- loaders ------------------------------------------------------------------ */

pqt_status pqt_read_options_load(pqt_read_options *dst, const pqt_read_options *src, pqt_error *err) {
  pqt_read_options_defaults(dst);
  return pqt_options_copy(dst, sizeof *dst, src, "pqt_read_options", err);
}

pqt_status pqt_scan_options_load(pqt_scan_options *dst, const pqt_scan_options *src, pqt_error *err) {
  pqt_scan_options_defaults(dst);
  return pqt_options_copy(dst, sizeof *dst, src, "pqt_scan_options", err);
}

pqt_status pqt_salvage_options_load(pqt_salvage_options *dst, const pqt_salvage_options *src, pqt_error *err) {
  pqt_salvage_options_defaults(dst);
  return pqt_options_copy(dst, sizeof *dst, src, "pqt_salvage_options", err);
}

pqt_status pqt_io_load(pqt_io *dst, const pqt_io *src, pqt_error *err) {
  memset(dst, 0, sizeof *dst);
  if (!src) return pqt_error_set(err, PQT_EINVAL, "pqt_io missing");
  PQT_RETURN_NOT_OK(pqt_options_copy(dst, sizeof *dst, src, "pqt_io", err));
  if (!dst->read_at) return pqt_error_set(err, PQT_EINVAL, "pqt_io: read_at is not set");
  return PQT_OK;
}

pqt_status pqt_write_schema_load(pqt_write_schema *dst, const pqt_write_schema *src, pqt_error *err) {
  memset(dst, 0, sizeof *dst);
  if (!src) return pqt_error_set(err, PQT_EINVAL, "schema missing");
  return pqt_options_copy(dst, sizeof *dst, src, "pqt_write_schema", err);
}

/* Read `defaults` at `p` (the caller's embedded column options) into *dst,
 * returning the caller's size of it in *co_size. */
static pqt_status load_column_options(pqt_column_options *dst, const unsigned char *p, size_t have, size_t *co_size,
                                      const char *what, pqt_error *err) {
  pqt_column_options_defaults(dst);
  if (have < PQT_STRUCT_SIZE_MIN) {
    *co_size = 0;
    dst->struct_size = sizeof *dst;
    return PQT_OK;
  }
  size_t n = pqt_struct_size_of(p);
  pqt_status st = pqt_options_copy(dst, sizeof *dst, p, "pqt_column_options", err);
  if (st == PQT_OK && (n % _Alignof(pqt_column_options) != 0 || n > have))
    st = pqt_error_set(err, PQT_EINVAL, "pqt_column_options.struct_size is %zu: not the size of a pqt_column_options",
                       n);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "%s", what);
    return st;
  }
  *co_size = n;
  return PQT_OK;
}

pqt_status pqt_write_options_load(pqt_write_options *dst, const pqt_write_options *src, pqt_error *err) {
  pqt_write_options_defaults(dst);
  dst->struct_size = sizeof *dst;
  if (!src) return PQT_OK;
  size_t n = pqt_struct_size_of(src);
  const unsigned char *p = (const unsigned char *)src;
  unsigned char *q = (unsigned char *)dst;
  if (n < PQT_STRUCT_SIZE_MIN) return pqt_struct_size_check(n, sizeof *dst, "pqt_write_options", err);
  size_t head = n < WO_HEAD ? n : WO_HEAD;
  memcpy(q + PQT_STRUCT_SIZE_MIN, p + PQT_STRUCT_SIZE_MIN, head - PQT_STRUCT_SIZE_MIN);
  if (n <= WO_HEAD) return PQT_OK;
  size_t co_size;
  pqt_status st =
      load_column_options(&dst->defaults, p + WO_HEAD, n - WO_HEAD, &co_size, "pqt_write_options.defaults", err);
  if (st != PQT_OK) return st;
  size_t caller_tail = WO_HEAD + co_size;
  if (co_size == 0 || n <= caller_tail) return PQT_OK;
  size_t rest = n - caller_tail;
  if (rest > sizeof *dst - WO_TAIL)
    return pqt_struct_size_check(n - co_size + sizeof(pqt_column_options), sizeof *dst, "pqt_write_options", err);
  memcpy(q + WO_TAIL, p + caller_tail, rest);
  return PQT_OK;
}

pqt_status pqt_column_overrides_load(pqt_arena *arena, const pqt_column_override *src, int32_t n,
                                     pqt_column_override **out, pqt_error *err) {
  *out = NULL;
  if (n < 0 || (n > 0 && !src))
    return pqt_error_set(err, PQT_EINVAL, "pqt_write_options: %d column overrides at %p", n, (const void *)src);
  if (n == 0) return PQT_OK;
  /* the element size: the path, then the caller's column options, padded to
   * the element's alignment (that of pqt_column_options, at least a pointer's) */
  const unsigned char *p = (const unsigned char *)src;
  const size_t at = offsetof(pqt_column_override, options);
  size_t co_size = pqt_struct_size_of(p + at);
  if (!co_size_ok(co_size)) {
    PQT_RETURN_NOT_OK(pqt_struct_size_check(co_size, sizeof(pqt_column_options), "pqt_column_options", err));
    return pqt_error_set(err, PQT_EINVAL,
                         "pqt_write_options.columns[0].options.struct_size is %zu: not the size of a "
                         "pqt_column_options",
                         co_size);
  }
  size_t align = _Alignof(pqt_column_override);
  size_t stride = (at + co_size + align - 1) / align * align;
  pqt_column_override *o = pqt_arena_array(arena, (size_t)n, sizeof *o);
  if (!o) return pqt_nomem(err);
  for (int32_t i = 0; i < n; i++) {
    const unsigned char *e = p + (size_t)i * stride;
    memcpy(&o[i].path, e, sizeof o[i].path);
    size_t got;
    char what[64];
    snprintf(what, sizeof what, "pqt_write_options.columns[%d].options", (int)i);
    PQT_RETURN_NOT_OK(load_column_options(&o[i].options, e + at, co_size, &got, what, err));
    if (got != co_size)
      return pqt_error_set(err, PQT_EINVAL, "%s.struct_size is %zu but columns[0]'s is %zu (one array, one size)", what,
                           got, co_size);
  }
  *out = o;
  return PQT_OK;
}
