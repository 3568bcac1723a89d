/* core/buffer.c: a growable byte buffer, plus JSON/base64 appenders used by
 * the metadata dump and the CLI. Failures are sticky (see core.h): every
 * entry point goes through pqt_buf_reserve, which refuses to work on a
 * buffer that already failed. */
#include <stdio.h>

#include "core.h"

void pqt_buf_init(pqt_buf *b, const pqt_allocator *alloc) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
  b->alloc = pqt_alloc_or_default(alloc);
  b->status = PQT_OK;
}

void pqt_buf_free(pqt_buf *b) {
  pqt_mem_free(b->alloc, b->data, b->cap);
  b->data = NULL;
  b->len = b->cap = 0;
  b->status = PQT_OK;
}

/* Report the remembered failure of b again. */
static pqt_status buf_failed(const pqt_buf *b, pqt_error *err) {
  if (b->status == PQT_ENOMEM) return pqt_nomem(err);
  return pqt_error_set(err, b->status, "an earlier write to this buffer failed");
}

/* Remember the first failure of b; returns it. */
static pqt_status buf_fail(pqt_buf *b, pqt_status st) {
  if (b->status == PQT_OK) b->status = st;
  return st;
}

pqt_status pqt_buf_status(const pqt_buf *b, pqt_error *err) {
  return b->status == PQT_OK ? PQT_OK : buf_failed(b, err);
}

pqt_status pqt_buf_reserve(pqt_buf *b, size_t extra, pqt_error *err) {
  size_t need;
  if (b->status != PQT_OK) return buf_failed(b, err);
  if (!pqt_add_size(b->len, extra, &need)) return buf_fail(b, pqt_nomem(err));
  if (need <= b->cap) return PQT_OK;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) {
      cap = need;
      break;
    }
    cap *= 2;
  }
  uint8_t *p = pqt_mem_realloc(b->alloc, b->data, b->cap, cap);
  if (!p) return buf_fail(b, pqt_nomem(err));
  b->data = p;
  b->cap = cap;
  return PQT_OK;
}

pqt_status pqt_buf_append(pqt_buf *b, const void *p, size_t n, pqt_error *err) {
  if (n == 0) return pqt_buf_status(b, err);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, n, err));
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return PQT_OK;
}

pqt_status pqt_buf_printf(pqt_buf *b, pqt_error *err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (b->status != PQT_OK) return buf_failed(b, err);
  if (n < 0) return buf_fail(b, pqt_error_set(err, PQT_EINVAL, "bad format"));
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, (size_t)n + 1, err));
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return PQT_OK;
}

/* ---- base64 -------------------------------------------------------- */

int pqt_base64_digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

pqt_status pqt_base64_decode(const char *s, size_t len, pqt_arena *arena, uint8_t **out, size_t *out_len,
                             pqt_error *err) {
  if (!out || !out_len || !arena || (!s && len)) return pqt_error_set(err, PQT_EINVAL, "base64 decode: bad argument");
  size_t n = len, pad = 0;
  while (n > 0 && s[n - 1] == '=' && pad < 2) {
    n--;
    pad++;
  }
  if (pad && (n + pad) % 4 != 0) return pqt_corrupt(err, "base64: misplaced '=' padding (length %zu)", len);
  if (n % 4 == 1) return pqt_corrupt(err, "base64: impossible length %zu", len);
  size_t olen = n / 4 * 3 + (n % 4 == 2 ? 1 : n % 4 == 3 ? 2 : 0);
  uint8_t *o = pqt_arena_alloc(arena, olen ? olen : 1);
  if (!o) return pqt_nomem(err);
  size_t oi = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    int v = pqt_base64_digit((unsigned char)s[i]);
    if (v < 0)
      return pqt_corrupt(err, "base64: invalid character 0x%02x at offset %zu", (unsigned)(unsigned char)s[i], i);
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      o[oi++] = (uint8_t)(acc >> bits);
      acc &= (1u << bits) - 1u;
    }
  }
  *out = o;
  *out_len = oi;
  return PQT_OK;
}

pqt_status pqt_base64_append(pqt_buf *b, const uint8_t *p, size_t n, pqt_error *err) {
  static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t out_n = ((n + 2) / 3) * 4;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, out_n, err));
  char *o = (char *)b->data + b->len;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = ((uint32_t)p[i] << 16) | ((uint32_t)p[i + 1] << 8) | p[i + 2];
    *o++ = tbl[v >> 18];
    *o++ = tbl[(v >> 12) & 63];
    *o++ = tbl[(v >> 6) & 63];
    *o++ = tbl[v & 63];
  }
  if (n - i == 1) {
    uint32_t v = (uint32_t)p[i] << 16;
    *o++ = tbl[v >> 18];
    *o++ = tbl[(v >> 12) & 63];
    *o++ = '=';
    *o++ = '=';
  } else if (n - i == 2) {
    uint32_t v = ((uint32_t)p[i] << 16) | ((uint32_t)p[i + 1] << 8);
    *o++ = tbl[v >> 18];
    *o++ = tbl[(v >> 12) & 63];
    *o++ = tbl[(v >> 6) & 63];
    *o++ = '=';
  }
  b->len += out_n;
  return PQT_OK;
}

/* Length of a valid UTF-8 sequence starting at s (max n bytes), or 0. */
static size_t utf8_seq_len(const uint8_t *s, size_t n) {
  uint8_t c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

pqt_status pqt_json_string_append(pqt_buf *b, const uint8_t *s, size_t n, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, n + 2, err));
  b->data[b->len++] = '"';
  size_t i = 0;
  while (i < n) {
    size_t run = i;
    while (run < n && s[run] >= 0x20 && s[run] < 0x80 && s[run] != '"' && s[run] != '\\') run++;
    PQT_RETURN_NOT_OK(pqt_buf_append(b, s + i, run - i, err));
    i = run;
    if (i >= n) break;
    uint8_t c = s[i];
    if (c >= 0x80) {
      size_t l = utf8_seq_len(s + i, n - i);
      if (l) {
        PQT_RETURN_NOT_OK(pqt_buf_append(b, s + i, l, err));
        i += l;
      } else {
        PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\\u%04x", c));
        i++;
      }
      continue;
    }
    switch (c) {
      case '"': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\\"", 2, err)); break;
      case '\\': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\\\", 2, err)); break;
      case '\n': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\n", 2, err)); break;
      case '\r': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\r", 2, err)); break;
      case '\t': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\t", 2, err)); break;
      case '\b': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\b", 2, err)); break;
      case '\f': PQT_RETURN_NOT_OK(pqt_buf_append(b, "\\f", 2, err)); break;
      default: PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\\u%04x", c)); break;
    }
    i++;
  }
  return pqt_buf_append(b, "\"", 1, err);
}

pqt_status pqt_buf_to_string(pqt_buf *b, pqt_string *out, pqt_error *err) {
  pqt_status st = pqt_buf_append(b, "", 1, err);
  if (st == PQT_OK) st = pqt_buf_status(b, err);
  if (st != PQT_OK) {
    pqt_buf_free(b);
    return st;
  }
  out->data = (char *)b->data;
  out->len = b->len - 1;
  out->cap = b->cap;
  out->alloc = b->alloc;
  return PQT_OK;
}
