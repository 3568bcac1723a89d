/*
 * cli/json_input.c: JSON Lines, one object per non-empty line (RFC 8259
 * grammar, checked strictly: numbers, escapes, surrogate pairs, UTF-8).
 * Top-level fields become record fields in key order; strings unescaped,
 * numbers and booleans as written, nested objects and arrays as their JSON
 * text. Errors name the line and the byte position in it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

#define MAX_DEPTH 128

typedef struct jp {
  const char *s, *end, *p;
  int64_t line;
  char *err;
} jp;

static int jerr(jp *j, const char *what) {
  snprintf(j->err, CV_ERR, "line %lld, position %lld: %s", (long long)j->line, (long long)(j->p - j->s + 1), what);
  return -1;
}

static void ws(jp *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')) j->p++;
}

static int hex4(jp *j, uint32_t *v) {
  if (j->end - j->p < 4) return jerr(j, "short \\u escape");
  *v = 0;
  for (int i = 0; i < 4; i++) {
    char c = j->p[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return jerr(j, "bad \\u escape");
    *v = *v << 4 | (uint32_t)d;
  }
  j->p += 4;
  return 0;
}

static int put_cp(cv_record *r, uint32_t cp) {
  char b[4];
  size_t n;
  if (cp < 0x80) {
    b[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    b[0] = (char)(0xc0 | cp >> 6);
    b[1] = (char)(0x80 | (cp & 0x3f));
    n = 2;
  } else if (cp < 0x10000) {
    b[0] = (char)(0xe0 | cp >> 12);
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    b[2] = (char)(0x80 | (cp & 0x3f));
    n = 3;
  } else {
    b[0] = (char)(0xf0 | cp >> 18);
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    b[3] = (char)(0x80 | (cp & 0x3f));
    n = 4;
  }
  return cv_record_put(r, b, n);
}

static int escape(jp *j, cv_record *r) {
  char c = *j->p++;
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  const char *k = c ? strchr(from, c) : NULL;
  if (k) return cv_record_put(r, &to[k - from], 1);
  if (c != 'u') {
    j->p--;
    return jerr(j, "bad escape");
  }
  uint32_t cp;
  if (hex4(j, &cp) != 0) return -1;
  if (cp >= 0xdc00 && cp <= 0xdfff) return jerr(j, "lone low surrogate in \\u escape");
  if (cp >= 0xd800 && cp <= 0xdbff) {
    uint32_t lo;
    if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u') return jerr(j, "high surrogate without its low half");
    j->p += 2;
    if (hex4(j, &lo) != 0) return -1;
    if (lo < 0xdc00 || lo > 0xdfff) return jerr(j, "high surrogate without its low half");
    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
  }
  return put_cp(r, cp);
}

/* A string at j->p (the opening quote) unescaped onto r's data. */
static int string(jp *j, cv_record *r) {
  j->p++;
  for (;;) {
    const char *q = j->p;
    while (q < j->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20) q++;
    size_t bad = cv_utf8_bad((const unsigned char *)j->p, (size_t)(q - j->p));
    if (bad) {
      j->p += bad - 1;
      return jerr(j, "not valid UTF-8");
    }
    if (r && cv_record_put(r, j->p, (size_t)(q - j->p)) != 0) return jerr(j, "out of memory");
    j->p = q;
    if (q == j->end) return jerr(j, "string never closed");
    if (*q == '"') {
      j->p++;
      return 0;
    }
    if (*q != '\\') return jerr(j, "control character in a string");
    j->p++;
    if (j->p == j->end) return jerr(j, "string never closed");
    cv_record tmp = {0};
    if (escape(j, r ? r : &tmp) != 0) {
      cv_record_free(&tmp);
      return -1;
    }
    cv_record_free(&tmp);
  }
}

static int number(jp *j) {
  const char *p = j->p;
  if (p < j->end && *p == '-') p++;
  if (p < j->end && *p == '0') p++;
  else if (p < j->end && *p >= '1' && *p <= '9')
    while (p < j->end && *p >= '0' && *p <= '9') p++;
  else return jerr(j, "bad value");
  if (p < j->end && *p == '.') {
    p++;
    if (p == j->end || *p < '0' || *p > '9') {
      j->p = p;
      return jerr(j, "bad number");
    }
    while (p < j->end && *p >= '0' && *p <= '9') p++;
  }
  if (p < j->end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < j->end && (*p == '+' || *p == '-')) p++;
    if (p == j->end || *p < '0' || *p > '9') {
      j->p = p;
      return jerr(j, "bad number");
    }
    while (p < j->end && *p >= '0' && *p <= '9') p++;
  }
  j->p = p;
  return 0;
}

static int word(jp *j, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return jerr(j, "bad value");
  j->p += n;
  return 0;
}

/* Any value, checked and skipped. */
static int skip(jp *j, int depth) {
  if (depth > MAX_DEPTH) return jerr(j, "nested too deeply");
  ws(j);
  if (j->p == j->end) return jerr(j, "value missing");
  char c = *j->p;
  if (c == '"') return string(j, NULL);
  if (c == 't') return word(j, "true");
  if (c == 'f') return word(j, "false");
  if (c == 'n') return word(j, "null");
  if (c != '{' && c != '[') return number(j);
  char close = c == '{' ? '}' : ']';
  j->p++;
  ws(j);
  if (j->p < j->end && *j->p == close) {
    j->p++;
    return 0;
  }
  for (;;) {
    if (c == '{') {
      ws(j);
      if (j->p == j->end || *j->p != '"') return jerr(j, "expected a key");
      if (string(j, NULL) != 0) return -1;
      ws(j);
      if (j->p == j->end || *j->p != ':') return jerr(j, "expected ':'");
      j->p++;
    }
    if (skip(j, depth + 1) != 0) return -1;
    ws(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      continue;
    }
    if (j->p < j->end && *j->p == close) {
      j->p++;
      return 0;
    }
    return jerr(j, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
  }
}

static int value(jp *j, cv_record *r, int64_t byte0) {
  size_t start = r->dlen;
  int64_t byte = byte0 + (j->p - j->s);
  char c = *j->p;
  cv_kind k;
  if (c == '"') {
    if (string(j, r) != 0) return -1;
    k = CV_QUOTED;
  } else {
    const char *vs = j->p;
    if (skip(j, 1) != 0) return -1;
    k = c == 'n'               ? CV_NULL
        : c == 't' || c == 'f' ? CV_JSON_BOOL
        : c == '{' || c == '[' ? CV_JSON_NESTED
                               : CV_JSON_NUMBER;
    if (k != CV_NULL && cv_record_put(r, vs, (size_t)(j->p - vs)) != 0) return jerr(j, "out of memory");
  }
  if (cv_record_field(r, start, k, byte) != 0) return jerr(j, "out of memory");
  return 0;
}

static int add_key(cv_json *jj, jp *j, const char *k, size_t n) {
  for (size_t at = 0; at < jj->klen; at += strlen(jj->keys + at) + 1)
    if (strlen(jj->keys + at) == n && memcmp(jj->keys + at, k, n) == 0) return jerr(j, "a key given twice");
  if (memchr(k, 0, n)) return jerr(j, "a key with a NUL character");
  if (jj->klen + n + 1 > jj->kcap) {
    size_t nc = jj->kcap ? jj->kcap * 2 : 256;
    while (nc < jj->klen + n + 1) nc *= 2;
    char *x = realloc(jj->keys, nc);
    if (!x) return jerr(j, "out of memory");
    jj->keys = x;
    jj->kcap = nc;
  }
  memcpy(jj->keys + jj->klen, k, n);
  jj->keys[jj->klen + n] = 0;
  jj->klen += n + 1;
  return 0;
}

int cv_json_parse_line(cv_json *jj, const char *s, size_t n, int64_t line, int64_t byte0, cv_record *r, char *err) {
  jp j = {s, s + n, s, line, err};
  r->nf = 0;
  r->dlen = 0;
  r->line = line;
  jj->klen = 0;
  if (cv_record_put(r, "", 0) != 0) return jerr(&j, "out of memory"); /* data is never NULL */
  ws(&j);
  if (j.p == j.end || *j.p != '{') return jerr(&j, "each line must be a JSON object");
  j.p++;
  ws(&j);
  if (j.p < j.end && *j.p == '}') j.p++;
  else
    for (;;) {
      ws(&j);
      if (j.p == j.end || *j.p != '"') return jerr(&j, "expected a key");
      size_t ks = r->dlen;
      if (string(&j, r) != 0) return -1;
      if (add_key(jj, &j, r->data + ks, r->dlen - ks) != 0) return -1;
      r->dlen = ks;
      ws(&j);
      if (j.p == j.end || *j.p != ':') return jerr(&j, "expected ':'");
      j.p++;
      ws(&j);
      if (j.p == j.end) return jerr(&j, "value missing");
      if (value(&j, r, byte0) != 0) return -1;
      ws(&j);
      if (j.p < j.end && *j.p == ',') {
        j.p++;
        continue;
      }
      if (j.p < j.end && *j.p == '}') {
        j.p++;
        break;
      }
      return jerr(&j, "expected ',' or '}'");
    }
  ws(&j);
  if (j.p != j.end) return jerr(&j, "text after the object");
  return 1;
}

static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
  return true;
}

int cv_json_next(cv_json *jj, cv_record *r, const char **keys, char *err) {
  cv_bytes *b = jj->b;
  if (b->line == 1 && b->offset == 0 && cv_bytes_fill(b) > 0 && b->len >= 3 && memcmp(b->buf, "\xef\xbb\xbf", 3) == 0) {
    b->pos += 3;
    b->offset += 3;
  }
  for (;;) {
    size_t n = 0;
    int64_t byte0 = b->offset, line = b->line;
    int f;
    while ((f = cv_bytes_fill(b)) > 0) {
      const unsigned char *s = b->buf + b->pos, *nl = memchr(s, '\n', b->len - b->pos);
      size_t k = nl ? (size_t)(nl - s) : b->len - b->pos;
      if (n + k + 1 > jj->lcap) {
        size_t nc = jj->lcap ? jj->lcap * 2 : 4096;
        while (nc < n + k + 1) nc *= 2;
        char *x = realloc(jj->line, nc);
        if (!x) {
          snprintf(err, CV_ERR, "line %lld: out of memory", (long long)line);
          return -1;
        }
        jj->line = x;
        jj->lcap = nc;
      }
      memcpy(jj->line + n, s, k);
      n += k;
      b->pos += k + (nl != NULL);
      b->offset += (int64_t)(k + (nl != NULL));
      if (nl) {
        b->line++;
        break;
      }
    }
    if (f < 0) {
      snprintf(err, CV_ERR, "%s", b->err);
      return -1;
    }
    if (f == 0 && n == 0) return 0;
    if (blank(jj->line ? jj->line : "", n)) continue;
    int rc = cv_json_parse_line(jj, jj->line, n, line, byte0, r, err);
    *keys = jj->keys;
    return rc;
  }
}

void cv_json_free(cv_json *j) {
  free(j->line);
  free(j->keys);
}

/* ---- walking a nested value (already checked by the line parser) ---- */

static int walk(jp *j, const cv_json_visitor *v, void *ctx, cv_record *tmp, int depth) {
  if (depth > MAX_DEPTH) return jerr(j, "nested too deeply");
  ws(j);
  if (j->p == j->end) return jerr(j, "value missing");
  char c = *j->p;
  if (c == '{' || c == '[') {
    bool obj = c == '{';
    if ((obj ? v->begin_object(ctx) : v->begin_array(ctx)) != 0) return -1;
    j->p++;
    ws(j);
    if (j->p < j->end && *j->p == (obj ? '}' : ']')) j->p++;
    else
      for (;;) {
        ws(j);
        if (obj) {
          tmp->dlen = 0;
          if (j->p == j->end || *j->p != '"' || string(j, tmp) != 0) return jerr(j, "expected a key");
          if (cv_record_put(tmp, "", 0) != 0) return -1;
          tmp->data[tmp->dlen] = 0;
          if (v->key(ctx, tmp->data, tmp->dlen) != 0) return -1;
          ws(j);
          if (j->p == j->end || *j->p != ':') return jerr(j, "expected ':'");
          j->p++;
        }
        if (walk(j, v, ctx, tmp, depth + 1) != 0) return -1;
        ws(j);
        if (j->p < j->end && *j->p == ',') {
          j->p++;
          continue;
        }
        if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
          j->p++;
          break;
        }
        return jerr(j, "expected ',' or a closing bracket");
      }
    return obj ? v->end_object(ctx) : v->end_array(ctx);
  }
  const char *vs = j->p;
  tmp->dlen = 0;
  cv_kind k;
  if (c == '"') {
    if (string(j, tmp) != 0) return -1;
    k = CV_QUOTED;
  } else {
    if (skip(j, depth) != 0) return -1;
    k = c == 'n' ? CV_NULL : c == 't' || c == 'f' ? CV_JSON_BOOL : CV_JSON_NUMBER;
    if (cv_record_put(tmp, vs, (size_t)(j->p - vs)) != 0) return jerr(j, "out of memory");
  }
  if (cv_record_put(tmp, "", 0) != 0) return jerr(j, "out of memory");
  tmp->data[tmp->dlen] = 0;
  return v->scalar(ctx, tmp->data, tmp->dlen, k);
}

int cv_json_walk(const char *s, size_t n, const cv_json_visitor *v, void *ctx, char *err) {
  jp j = {s, s + n, s, 0, err};
  cv_record tmp = {0};
  int rc = walk(&j, v, ctx, &tmp, 0);
  cv_record_free(&tmp);
  return rc;
}
