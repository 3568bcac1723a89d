/* libFuzzer target for the parsers of server responses in the remote IO
 * (src/io/http.c, src/io/s3.c). Byte 0 picks one, the rest (an exact-size
 * copy, so ASan sees any read past it) is its input:
 *   0: a Content-Range value: parsed or refused; parsed means a <= b < total;
 *   1: a ListObjectsV2 page: OK (every key non-empty and NUL-terminated, the
 *      continuation token non-empty when truncated) or ECORRUPT with a message;
 *   2: text URI-encoded for SigV4: only unreserved characters, '/' and %XX,
 *      and decoding it gives the text back. */
#include <stdlib.h>
#include <string.h>

#include "io/http.h"
#include "io/s3.h"

static int on_obj(void *ctx, const pqt_s3_object *o) {
  if (!o->key || !o->key[0] || !o->etag) abort();
  size_t *n = ctx;
  (*n)++;
  return *n > 100000;
}

static int unhex(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int mode = data[0] % 3;
  size_t n = size - 1;
  char *s = malloc(n ? n : 1);
  if (!s) return 0;
  memcpy(s, data + 1, n);
  pqt_error e;
  if (mode == 0) {
    uint64_t a, b, t;
    if (pqt_http_parse_content_range(s, n, &a, &b, &t) && (b < a || (t != UINT64_MAX && b >= t))) abort();
  } else if (mode == 1) {
    size_t count = 0;
    bool trunc, stopped;
    char tok[256];
    pqt_status st = pqt_s3_parse_list(s, n, on_obj, &count, &trunc, tok, sizeof tok, &stopped, &e);
    if (st != PQT_OK && (st != PQT_ECORRUPT || !e.message[0])) abort();
    if (st == PQT_OK && trunc && !tok[0]) abort();
    if (!memchr(tok, 0, sizeof tok)) abort();
  } else {
    size_t cap = 3 * n + 1;
    char *out = malloc(cap);
    if (out && pqt_s3_uri_encode(s, n, (data[0] & 4) != 0, out, cap)) {
      size_t k = 0;
      for (const char *p = out; *p; k++) {
        char c;
        if (*p == '%') {
          int h = unhex(p[1]), l = h < 0 ? -1 : unhex(p[2]);
          if (l < 0) abort();
          c = (char)(h * 16 + l);
          p += 3;
        } else {
          c = *p++;
          if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-_.~/", c)))
            abort();
        }
        if (k >= n || c != s[k]) abort();
      }
      if (k != n) abort();
    } else if (out) {
      abort(); /* 3n+1 always fits */
    }
    free(out);
  }
  free(s);
  return 0;
}
