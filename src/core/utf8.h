/* core/utf8.h: UTF-8 validation over whole buffers. */
#ifndef PQT_CORE_UTF8_H
#define PQT_CORE_UTF8_H

#include "core/core.h"

/* Offset of the first byte of an invalid sequence, or n when s is valid. */
size_t pqt_utf8_invalid_at(const uint8_t *s, size_t n);

/* Validate n byte-array values (offsets[0..n] into data): the whole run at
 * once, then that no value starts inside a multi-byte character. */
pqt_status pqt_utf8_validate_values(const uint8_t *data, const int32_t *offsets, int64_t n, pqt_error *err);

#endif
