/*
 * cli/csv_input.c: CSV records one at a time (RFC 4180 quoting with a
 * chosen delimiter and quote character; quoted fields may span lines; CRLF
 * or LF line ends; a UTF-8 byte-order mark before the first record is
 * skipped). Every field is checked to be UTF-8.
 */
#include <stdio.h>
#include <string.h>

#include "convert.h"

/* the next byte without consuming it: -1 at the end, -2 on error */
static int peek(cv_bytes *b) {
  int f = cv_bytes_fill(b);
  return f > 0 ? b->buf[b->pos] : f == 0 ? -1 : -2;
}

static void take(cv_bytes *b) {
  if (b->buf[b->pos] == '\n') b->line++;
  b->pos++;
  b->offset++;
}

static void skip_bom(cv_bytes *b) {
  if (cv_bytes_fill(b) <= 0) return;
  if (b->len - b->pos >= 3 && memcmp(b->buf + b->pos, "\xef\xbb\xbf", 3) == 0) {
    b->pos += 3;
    b->offset += 3;
  }
}

/* Copy bytes of an unquoted field up to a delimiter or line end. */
static int unquoted(cv_csv *c, cv_record *r) {
  cv_bytes *b = c->b;
  for (;;) {
    int f = cv_bytes_fill(b);
    if (f < 0) return -1;
    if (f == 0) return 0;
    const unsigned char *s = b->buf + b->pos;
    size_t n = b->len - b->pos, i = 0;
    while (i < n && s[i] != (unsigned char)c->o.delimiter && s[i] != '\n' && s[i] != '\r') i++;
    if (cv_record_put(r, (const char *)s, i) != 0) return -1;
    b->pos += i;
    b->offset += (int64_t)i;
    if (i < n) return 0;
  }
}

static int quoted(cv_csv *c, cv_record *r, char *err) {
  cv_bytes *b = c->b;
  int64_t open_line = b->line;
  take(b);
  for (;;) {
    int ch = peek(b);
    if (ch == -2) return -1;
    if (ch == -1) {
      snprintf(err, CV_ERR, "line %lld: quoted field never closed (opened on line %lld)", (long long)b->line,
               (long long)open_line);
      return -1;
    }
    if (ch == (unsigned char)c->o.quote) {
      take(b);
      if (peek(b) != (unsigned char)c->o.quote) return 0;
    }
    char cc = (char)ch;
    if (cv_record_put(r, &cc, 1) != 0) return -1;
    take(b);
  }
}

static int field_done(cv_csv *c, cv_record *r, size_t start, bool q, int64_t byte, char *err) {
  size_t len = r->dlen - start;
  size_t bad = cv_utf8_bad((const unsigned char *)r->data + start, len);
  if (bad) {
    snprintf(err, CV_ERR,
             "line %lld, column %d, byte offset %lld: not valid UTF-8 (use --input-encoding latin1 "
             "for Latin-1 text)",
             (long long)c->b->line, r->nf + 1, (long long)(byte + (int64_t)bad - 1 + q));
    return -1;
  }
  /* quotes are CSV syntax, not a type: "7" reads as 7, as in DuckDB; only
   * "" (an empty string, never null) keeps the quoted kind */
  cv_kind k = q && len == 0 ? CV_QUOTED : CV_TEXT;
  if (!q) {
    const char *ns = c->o.null_string;
    if (ns ? strlen(ns) == len && memcmp(ns, r->data + start, len) == 0 : len == 0) k = CV_NULL;
  }
  if (cv_record_field(r, start, k, byte) != 0) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  return 0;
}

int cv_csv_next(cv_csv *c, cv_record *r, char *err) {
  cv_bytes *b = c->b;
  r->nf = 0;
  r->dlen = 0;
  err[0] = 0;
  if (cv_record_put(r, "", 0) != 0) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  } /* data is never NULL */
  if (!c->started) {
    c->started = true;
    skip_bom(b);
  }
  int ch = peek(b);
  if (ch == -2) goto io;
  if (ch == -1) return 0;
  r->line = b->line;
  for (;;) {
    size_t start = r->dlen;
    int64_t byte = b->offset;
    bool q = ch == (unsigned char)c->o.quote;
    if ((q ? quoted(c, r, err) : unquoted(c, r)) != 0) goto fail;
    ch = peek(b);
    if (ch == -2) goto io;
    if (q && ch >= 0 && ch != (unsigned char)c->o.delimiter && ch != '\r' && ch != '\n') {
      snprintf(err, CV_ERR, "line %lld, column %d: text after the closing quote", (long long)b->line, r->nf + 1);
      return -1;
    }
    if (field_done(c, r, start, q, byte, err) != 0) return -1;
    if (ch == (unsigned char)c->o.delimiter) {
      take(b);
      ch = peek(b);
      if (ch == -2) goto io;
      continue;
    }
    if (ch == '\r') {
      take(b);
      ch = peek(b);
      if (ch == -2) goto io;
      if (ch != '\n') b->line++;
    }
    if (ch == '\n') take(b);
    return 1;
  }
fail:
  if (b->failed) goto io;
  if (!err[0]) snprintf(err, CV_ERR, "line %lld: out of memory", (long long)b->line);
  return -1;
io:
  snprintf(err, CV_ERR, "%s", b->err);
  return -1;
}
