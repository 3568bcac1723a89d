/* libFuzzer target for the Arrow format-string parser (src/arrow/format.c)
 * and the readable names built on it (src/arrow/format_name.c): any bytes,
 * cut at the first NUL, must parse or be refused without reading past the
 * string; a successful parse must describe a consistent type. */
#include <stdlib.h>
#include <string.h>

#include "arrow/format.h"
#include "arrow/format_name.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = '\0';
  pqt_arrow_format f;
  bool ok = pqt_arrow_format_parse(s, &f);
  if (ok != (f.kind != PQT_AK_INVALID)) abort();
  if (ok && f.kind == PQT_AK_DECIMAL && f.precision < 1) abort();
  if (ok && (f.kind == PQT_AK_FIXED_BINARY || f.kind == PQT_AK_FIXED_LIST) && f.fixed_width < 0) abort();
  if (ok && f.kind == PQT_AK_TIMESTAMP && pqt_arrow_unit_pow10(f.unit) < 0) abort();
  if (ok && f.tz && (f.tz < s || f.tz > s + size)) abort();
  if (ok && (f.n_union_ids < 0 || f.n_union_ids > PQT_ARROW_FORMAT_MAX_UNION_IDS)) abort();
  char buf[64];
  pqt_arrow_format_name(s, buf, sizeof buf);
  if (!memchr(buf, 0, sizeof buf)) abort();
  free(s);
  return 0;
}
