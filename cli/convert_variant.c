/*
 * cli/convert_variant.c: `convert --variant COL`: a column's JSON text
 * stored as VARIANT (pqt_variant_from_json), handed to the writer as the
 * struct<metadata, value> the writer expects for an unshredded VARIANT
 * group; the writer shreds it against the schema inferred from the first
 * rows (pqt_variant_shred_infer).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_variant.h"

#include "cli.h"
#include "convert.h"

/* The field's value as JSON text: strings quoted again, others as given. */
static char *json_text(const char *p, size_t n, cv_kind k, size_t *out_len) {
  if (k == CV_NULL) {
    *out_len = 4;
    return strdup("null");
  }
  if (k != CV_QUOTED) {
    char *s = malloc(n + 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    s[n] = 0;
    *out_len = n;
    return s;
  }
  char *q = malloc(n * 6 + 3);
  if (!q) return NULL;
  *out_len = cv_json_quote(p, n, q);
  return q;
}

size_t cv_json_quote(const char *p, size_t n, char *q) {
  size_t o = 0;
  q[o++] = '"';
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '"' || ch == '\\') {
      q[o++] = '\\';
      q[o++] = (char)ch;
    } else if (ch < 0x20) {
      o += (size_t)snprintf(q + o, 7, "\\u%04x", ch);
    } else {
      q[o++] = (char)ch;
    }
  }
  q[o++] = '"';
  q[o] = 0;
  return o;
}

/* ---- JSON text again from the walker's events ---- */

static int jt_room(cv_jtext *t, size_t n) {
  if (t->len + n + 1 <= t->cap) return 0;
  size_t nc = t->cap ? t->cap : 256;
  while (nc < t->len + n + 1) {
    if (nc > SIZE_MAX / 2) return -1;
    nc *= 2;
  }
  char *x = realloc(t->s, nc);
  if (!x) return -1;
  t->s = x;
  t->cap = nc;
  return 0;
}

static int jt_put(cv_jtext *t, const char *p, size_t n) {
  if (jt_room(t, n + 1) != 0) return -1; /* and a comma */
  if (t->comma) t->s[t->len++] = ',';
  memcpy(t->s + t->len, p, n);
  t->len += n;
  t->s[t->len] = 0;
  return 0;
}

int cv_jtext_begin(cv_jtext *t, char bracket) {
  if (t->depth == (int)sizeof t->close || jt_put(t, &bracket, 1) != 0) return -1;
  t->close[t->depth++] = bracket == '{' ? '}' : ']';
  t->comma = false;
  return 0;
}

int cv_jtext_key(cv_jtext *t, const char *p, size_t n) {
  if (n > (SIZE_MAX - 4) / 6 || jt_room(t, n * 6 + 5) != 0) return -1;
  if (t->comma) t->s[t->len++] = ',';
  t->len += cv_json_quote(p, n, t->s + t->len);
  t->s[t->len++] = ':';
  t->s[t->len] = 0;
  t->comma = false;
  return 0;
}

int cv_jtext_end(cv_jtext *t) {
  if (t->depth == 0 || jt_room(t, 1) != 0) return -1;
  t->s[t->len++] = t->close[--t->depth];
  t->s[t->len] = 0;
  t->comma = true;
  return 0;
}

int cv_jtext_scalar(cv_jtext *t, const char *p, size_t n, cv_kind k) {
  int rc;
  if (k == CV_NULL) {
    rc = jt_put(t, "null", 4);
  } else if (k == CV_QUOTED) {
    if (n > (SIZE_MAX - 4) / 6 || jt_room(t, n * 6 + 4) != 0) return -1;
    if (t->comma) t->s[t->len++] = ',';
    t->len += cv_json_quote(p, n, t->s + t->len);
    rc = 0;
  } else {
    rc = jt_put(t, p, n);
  }
  t->comma = true;
  return rc;
}

void cv_jtext_free(cv_jtext *t) {
  free(t->s);
  memset(t, 0, sizeof *t);
}

int cv_variant_from_field(const char *p, size_t n, cv_kind k, pqt_variant_owned *out, char *err) {
  size_t len;
  char *t = json_text(p, n, k, &len);
  if (!t) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_variant_from_json(t, len, NULL, out, &e);
  free(t);
  if (st != PQT_OK) {
    snprintf(err, CV_ERR, "not JSON for a VARIANT: %.200s", e.message);
    return -1;
  }
  return 0;
}

static void b64(const uint8_t *p, size_t n, char *o) {
  static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t j = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
    o[j++] = a[(v >> 18) & 63];
    o[j++] = a[(v >> 12) & 63];
    o[j++] = i + 1 < n ? a[(v >> 6) & 63] : '=';
    o[j++] = i + 2 < n ? a[v & 63] : '=';
  }
  o[j] = 0;
}

/* {"metadata":"BASE64","value":"BASE64"}: what the struct builder takes
 * for the VARIANT group's two binary fields. */
int cv_variant_add(cv_build *b, const char *p, size_t n, cv_kind k, char *err) {
  pqt_variant_owned v;
  memset(&v, 0, sizeof v);
  if (cv_variant_from_field(p, n, k, &v, err) != 0) return -1;
  size_t cap = 40 + (v.view.metadata_len + 2) / 3 * 4 + (v.view.value_len + 2) / 3 * 4;
  char *s = malloc(cap);
  if (!s) {
    pqt_variant_owned_free(&v);
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  size_t o = (size_t)snprintf(s, cap, "{\"metadata\":\"");
  b64(v.view.metadata, v.view.metadata_len, s + o);
  o += strlen(s + o);
  o += (size_t)snprintf(s + o, cap - o, "\",\"value\":\"");
  b64(v.view.value, v.view.value_len, s + o);
  o += strlen(s + o);
  o += (size_t)snprintf(s + o, cap - o, "\"}");
  pqt_variant_owned_free(&v);
  int rc = cv_build_add(b, s, o, CV_JSON_NESTED, err);
  free(s);
  return rc;
}

void cv_variant_samples_free(cv_variant_samples *s) {
  for (int64_t i = 0; i < s->n; i++) pqt_variant_owned_free(&s->own[i]);
  free(s->own);
  free(s->views);
  memset(s, 0, sizeof *s);
}

int cv_variant_sample(cv_variant_samples *s, const char *p, size_t n, cv_kind k, char *err) {
  if (s->n == s->cap) {
    int64_t nc = s->cap ? s->cap * 2 : 64;
    pqt_variant_owned *no = realloc(s->own, (size_t)nc * sizeof *no);
    if (no) s->own = no;
    pqt_variant *nv = realloc(s->views, (size_t)nc * sizeof *nv);
    if (nv) s->views = nv;
    if (!no || !nv) {
      snprintf(err, CV_ERR, "out of memory");
      return -1;
    }
    s->cap = nc;
  }
  memset(&s->own[s->n], 0, sizeof s->own[s->n]);
  if (cv_variant_from_field(p, n, k, &s->own[s->n], err) != 0) return -1;
  s->views[s->n] = s->own[s->n].view;
  s->n++;
  return 0;
}
