/*
 * core/utf8.c: UTF-8 validation over whole buffers (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). ASCII runs are skipped
 * 64 bytes at a time where SSE2 is there (else 32); only multi-byte
 * sequences are decoded.
 */
#include "core/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* As pqt_utf8_invalid_at; *ascii is cleared at the first byte >= 0x80. */
static size_t invalid_at(const uint8_t *s, size_t n, bool *ascii) {
  size_t i = 0;
  while (i < n) {
    /* ASCII fast path: 64 bytes (SSE2, baseline on x86-64), 32, then 8 at a time */
#if defined(__SSE2__)
    while (i + 64 <= n) {
      __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
      __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
      __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
      if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)))) break;
      i += 64;
    }
#endif
    while (i + 32 <= n) {
      uint64_t w[4];
      memcpy(w, s + i, 32);
      if ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ULL) break;
      i += 32;
    }
    while (i + 8 <= n) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (w & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= n) break;
    uint8_t c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    *ascii = false;
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else return i;
    if (n - i < len) return i;
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
      return i;
    i += len;
  }
  return n;
}

size_t pqt_utf8_invalid_at(const uint8_t *s, size_t n) {
  bool ascii = true;
  return invalid_at(s, n, &ascii);
}

pqt_status pqt_utf8_validate_values(const uint8_t *data, const int32_t *offsets, int64_t n, pqt_error *err) {
  if (n <= 0) return PQT_OK;
  size_t start = (size_t)offsets[0], end = (size_t)offsets[n];
  bool ascii = true;
  size_t bad = invalid_at(data + start, end - start, &ascii);
  if (bad < end - start) {
    size_t at = start + bad;
    int64_t lo = 0, hi = n - 1; /* find the value holding byte `at` */
    while (lo < hi) {
      int64_t mid = (lo + hi + 1) / 2;
      if ((size_t)offsets[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return pqt_corrupt(err, "invalid UTF-8 in value %lld of a STRING column", (long long)lo);
  }
  /* The whole run is valid; a value boundary must not split a sequence
   * (which cannot happen when every byte is ASCII). */
  if (ascii) return PQT_OK;
  for (int64_t i = 1; i < n; i++) {
    int32_t o = offsets[i];
    if ((size_t)o < end && (data[o] & 0xC0) == 0x80 && offsets[i + 1] > o)
      return pqt_corrupt(err, "invalid UTF-8 in value %lld of a STRING column (starts inside a character)",
                         (long long)i);
  }
  return PQT_OK;
}
