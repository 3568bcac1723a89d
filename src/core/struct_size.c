/*
 * core/struct_size.c: reading, writing and initialising the versioned
 * public structs (see struct_size.h for the scheme and its rules).
 */
#include "core/struct_size.h"

pqt_status pqt_struct_size_check(size_t caller, size_t ours, const char *type, pqt_error *err) {
  if (caller < PQT_STRUCT_SIZE_MIN)
    return pqt_error_set(err, PQT_EINVAL, "%s.struct_size is %zu: initialise the struct with %s_init first", type,
                         caller, type);
  if (caller > ours)
    return pqt_error_set(err, PQT_EINVAL,
                         "%s.struct_size is %zu but this library's %s has %zu bytes: the program was built with a "
                         "newer parquetry.h than this library (%s), or the struct was never initialised",
                         type, caller, type, ours, PQT_VERSION_STRING);
  return PQT_OK;
}

pqt_status pqt_options_copy(void *dst, size_t dst_size, const void *src, const char *type, pqt_error *err) {
  if (src) {
    size_t n = pqt_struct_size_of(src);
    PQT_RETURN_NOT_OK(pqt_struct_size_check(n, dst_size, type, err));
    memcpy((unsigned char *)dst + PQT_STRUCT_SIZE_MIN, (const unsigned char *)src + PQT_STRUCT_SIZE_MIN,
           n - PQT_STRUCT_SIZE_MIN);
  }
  memcpy(dst, &dst_size, sizeof dst_size);
  return PQT_OK;
}

pqt_status pqt_struct_copy_out(void *dst, const void *full, size_t full_size, const char *type, pqt_error *err) {
  size_t n = pqt_struct_size_of(dst);
  PQT_RETURN_NOT_OK(pqt_struct_size_check(n, full_size, type, err));
  memcpy((unsigned char *)dst + PQT_STRUCT_SIZE_MIN, (const unsigned char *)full + PQT_STRUCT_SIZE_MIN,
         n - PQT_STRUCT_SIZE_MIN);
  return PQT_OK;
}

void pqt_struct_init(void *dst, size_t size, const void *full, size_t full_size) {
  if (!dst || size < PQT_STRUCT_SIZE_MIN) return;
  size_t n = size < full_size ? size : full_size;
  memcpy(dst, full, n);
  if (size > n) memset((unsigned char *)dst + n, 0, size - n);
  memcpy(dst, &size, sizeof size);
}
