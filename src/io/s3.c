/*
 * io/s3.c: s3:// URLs. An object is read through the HTTP engine
 * (io/http.c) with every request signed by AWS Signature Version 4
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
 * the canonical request (method, URI-encoded path, sorted query, the
 * signed headers host, x-amz-content-sha256, x-amz-date and
 * x-amz-security-token, the payload hash) is hashed into the string to
 * sign, and signed with the key derived from the secret, the date, the
 * region and "s3". Listings are ListObjectsV2 pages (pqt_s3_list).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/s3.h"

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "io/http.h"

#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define S3_URL_MAX 4096

/* ---- Signature Version 4 -------------------------------------------------------- */

static void hex(const uint8_t *d, size_t n, char *out) {
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = digits[d[i] >> 4];
    out[2 * i + 1] = digits[d[i] & 15];
  }
  out[2 * n] = 0;
}

static bool sha256_hex(const char *s, size_t n, char out[65]) {
  uint8_t md[32];
  unsigned int len = 0;
  if (!EVP_Digest(s, n, md, &len, EVP_sha256(), NULL) || len != 32) return false;
  hex(md, 32, out);
  return true;
}

static bool hmac(const uint8_t *key, size_t klen, const char *msg, uint8_t out[32]) {
  unsigned int len = 0;
  return HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msg, strlen(msg), out, &len) && len == 32;
}

bool pqt_s3_uri_encode(const char *s, size_t n, bool keep_slash, char *out, size_t cap) {
  static const char digits[] = "0123456789ABCDEF";
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                 c == '.' || c == '~' || (c == '/' && keep_slash);
    if (o + (plain ? 1 : 3) >= cap) return false;
    if (plain) {
      out[o++] = (char)c;
    } else {
      out[o++] = '%';
      out[o++] = digits[c >> 4];
      out[o++] = digits[c & 15];
    }
  }
  if (o >= cap) return false;
  out[o] = 0;
  return true;
}

typedef struct span {
  const char *p;
  size_t n;
} span;

static int span_cmp(const void *a, const void *b) {
  const span *x = a, *y = b;
  /* by name, then by value: compare up to '=' first */
  size_t xn = 0, yn = 0;
  while (xn < x->n && x->p[xn] != '=') xn++;
  while (yn < y->n && y->p[yn] != '=') yn++;
  size_t m = xn < yn ? xn : yn;
  int c = memcmp(x->p, y->p, m);
  if (c) return c;
  if (xn != yn) return xn < yn ? -1 : 1;
  m = x->n < y->n ? x->n : y->n;
  c = memcmp(x->p, y->p, m);
  if (c) return c;
  return x->n < y->n ? -1 : x->n > y->n;
}

/* A growing text buffer for the canonical request. */
typedef struct tbuf {
  char *p;
  size_t n, cap;
  bool bad;
} tbuf;

static void put(tbuf *b, const char *s, size_t n) {
  if (b->bad) return;
  if (b->n + n + 1 > b->cap) {
    size_t nc = (b->n + n + 1) * 2;
    char *q = realloc(b->p, nc);
    if (!q) {
      b->bad = true;
      return;
    }
    b->p = q;
    b->cap = nc;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void puts_(tbuf *b, const char *s) { put(b, s, strlen(s)); }

typedef struct hdr {
  const char *name, *value;
} hdr;
static int hdr_cmp(const void *a, const void *b) { return strcmp(((const hdr *)a)->name, ((const hdr *)b)->name); }

pqt_status pqt_sigv4_authorization(const pqt_sigv4_request *rq, char *out, size_t cap, pqt_error *err) {
  if (rq->n_headers > 16) return pqt_error_set(err, PQT_EINVAL, "too many signed headers");
  if (strlen(rq->amz_date) != 16) return pqt_error_set(err, PQT_EINVAL, "x-amz-date must be YYYYMMDDTHHMMSSZ");
  tbuf b = {0};
  puts_(&b, rq->method);
  puts_(&b, "\n");
  puts_(&b, rq->path && rq->path[0] ? rq->path : "/");
  puts_(&b, "\n");
  /* the query: parameters sorted by name, then value; "name" alone is "name=" */
  const char *q = rq->query ? rq->query : "";
  size_t nq = 0;
  for (const char *p = q; *p; p++) nq += *p == '&';
  span *ps = calloc(nq + 1, sizeof *ps);
  if (!ps) {
    free(b.p);
    return pqt_nomem(err);
  }
  size_t k = 0;
  for (const char *p = q; *p;) {
    const char *e = strchr(p, '&');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n) ps[k++] = (span){p, n};
    p += n + (e ? 1 : 0);
  }
  qsort(ps, k, sizeof *ps, span_cmp);
  for (size_t i = 0; i < k; i++) {
    if (i) puts_(&b, "&");
    put(&b, ps[i].p, ps[i].n);
    if (!memchr(ps[i].p, '=', ps[i].n)) puts_(&b, "=");
  }
  free(ps);
  puts_(&b, "\n");
  hdr hs[17];
  size_t nh = 0;
  hs[nh++] = (hdr){"host", rq->host};
  for (size_t i = 0; i < rq->n_headers; i++) hs[nh++] = (hdr){rq->names[i], rq->values[i]};
  qsort(hs, nh, sizeof *hs, hdr_cmp);
  char signed_names[512] = "";
  size_t sn = 0;
  for (size_t i = 0; i < nh; i++) {
    puts_(&b, hs[i].name);
    puts_(&b, ":");
    /* trimmed, inner runs of spaces as one */
    const char *v = hs[i].value;
    while (*v == ' ') v++;
    size_t vl = strlen(v);
    while (vl && v[vl - 1] == ' ') vl--;
    for (size_t j = 0; j < vl; j++)
      if (!(v[j] == ' ' && j && v[j - 1] == ' ')) put(&b, v + j, 1);
    puts_(&b, "\n");
    int w = snprintf(signed_names + sn, sizeof signed_names - sn, "%s%s", i ? ";" : "", hs[i].name);
    if (w < 0 || (size_t)w >= sizeof signed_names - sn) {
      free(b.p);
      return pqt_error_set(err, PQT_EINVAL, "signed header names too long");
    }
    sn += (size_t)w;
  }
  puts_(&b, "\n");
  puts_(&b, signed_names);
  puts_(&b, "\n");
  puts_(&b, rq->payload_hash);
  if (b.bad) {
    free(b.p);
    return pqt_nomem(err);
  }
  char creq_hash[65];
  bool ok = sha256_hex(b.p, b.n, creq_hash);
  free(b.p);
  char date[9];
  memcpy(date, rq->amz_date, 8);
  date[8] = 0;
  char scope[256], sts[512];
  snprintf(scope, sizeof scope, "%s/%s/%s/aws4_request", date, rq->region, rq->service);
  snprintf(sts, sizeof sts, "AWS4-HMAC-SHA256\n%s\n%s\n%s", rq->amz_date, scope, creq_hash);
  /* the signing key: HMAC chain from "AWS4" + secret */
  size_t sl = strlen(rq->secret_key);
  uint8_t *k0 = malloc(sl + 4);
  uint8_t k1[32], k2[32], k3[32], k4[32], sig[32];
  if (!k0) return pqt_nomem(err);
  memcpy(k0, "AWS4", 4);  // NOLINT(bugprone-not-null-terminated-result): key bytes, not a string
  memcpy(k0 + 4, rq->secret_key, sl);
  ok = ok && hmac(k0, sl + 4, date, k1) && hmac(k1, 32, rq->region, k2) && hmac(k2, 32, rq->service, k3) &&
       hmac(k3, 32, "aws4_request", k4) && hmac(k4, 32, sts, sig);
  OPENSSL_cleanse(k0, sl + 4);
  free(k0);
  OPENSSL_cleanse(k1, 32);
  OPENSSL_cleanse(k2, 32);
  OPENSSL_cleanse(k3, 32);
  OPENSSL_cleanse(k4, 32);
  if (!ok) return pqt_error_set(err, PQT_ECRYPTO, "SigV4: hashing failed");
  char sighex[65];
  hex(sig, 32, sighex);
  int w = snprintf(out, cap, "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s", rq->access_key,
                   scope, signed_names, sighex);
  if (w < 0 || (size_t)w >= cap) return pqt_error_set(err, PQT_EINVAL, "Authorization header too long");
  return PQT_OK;
}

/* ---- configuration: where and as whom --------------------------------------------- */

typedef struct s3_ctx {
  char *access_key, *secret_key, *token, *region;
} s3_ctx;

static void ctx_free(void *p) {
  s3_ctx *c = p;
  if (!c) return;
  if (c->secret_key) OPENSSL_cleanse(c->secret_key, strlen(c->secret_key));
  free(c->access_key);
  free(c->secret_key);
  free(c->token);
  free(c->region);
  free(c);
}

static const char *opt_or_env(const char *v, const char *env) {
  if (v && *v) return v;
  const char *e = getenv(env);
  return e && *e ? e : NULL;
}

/* Split s3://bucket/key. */
static pqt_status split_url(const char *url, char *bucket, size_t bcap, const char **key, pqt_error *err) {
  const char *b = url + 5, *slash = strchr(b, '/');
  size_t bl = slash ? (size_t)(slash - b) : strlen(b);
  if (!bl || bl >= bcap) return pqt_error_set(err, PQT_EINVAL, "%s: no bucket (s3://bucket/key)", url);
  memcpy(bucket, b, bl);
  bucket[bl] = 0;
  for (size_t i = 0; i < bl; i++)
    if (!((bucket[i] >= 'a' && bucket[i] <= 'z') || (bucket[i] >= '0' && bucket[i] <= '9') || bucket[i] == '-' ||
          bucket[i] == '.' || bucket[i] == '_'))
      return pqt_error_set(err, PQT_EINVAL, "%s: '%s' is not a bucket name", url, bucket);
  *key = slash ? slash + 1 : "";
  return PQT_OK;
}

/* The https?://host[:port] of the endpoint (no trailing slash), and whether
 * to address the bucket in the path. */
static pqt_status endpoint_of(const pqt_remote_options *o, const char *region, char *ep, size_t cap, bool *path_style,
                              pqt_error *err) {
  const char *e = opt_or_env(o->s3_endpoint, "AWS_ENDPOINT_URL");
  if (e) {
    if (strncmp(e, "http://", 7) != 0 && strncmp(e, "https://", 8) != 0)
      return pqt_error_set(err, PQT_EINVAL, "S3 endpoint '%s' is not an http:// or https:// URL", e);
    size_t n = strlen(e);
    while (n && e[n - 1] == '/') n--;
    if (n >= cap) return pqt_error_set(err, PQT_EINVAL, "S3 endpoint too long");
    memcpy(ep, e, n);
    ep[n] = 0;
    const char *host = strstr(ep, "://") + 3;
    bool ip = (host[0] >= '0' && host[0] <= '9') || strncmp(host, "localhost", 9) == 0 || host[0] == '[';
    *path_style = o->s3_path_style || ip;
  } else {
    snprintf(ep, cap, "https://s3.%s.amazonaws.com", region);
    *path_style = o->s3_path_style != 0;
  }
  return PQT_OK;
}

/* The request URL of bucket + encoded path/query, into out. */
static pqt_status request_url(const char *ep, bool path_style, const char *bucket, const char *enc_key,
                              const char *query, char *out, size_t cap, pqt_error *err) {
  int w;
  if (path_style) {
    w = snprintf(out, cap, "%s/%s%s%s%s%s", ep, bucket, enc_key[0] || !query ? "/" : "", enc_key, query ? "?" : "",
                 query ? query : "");
  } else {
    const char *host = strstr(ep, "://") + 3;
    w = snprintf(out, cap, "%.*s%s.%s/%s%s%s", (int)(host - ep), ep, bucket, host, enc_key, query ? "?" : "",
                 query ? query : "");
  }
  if (w < 0 || (size_t)w >= cap) return pqt_error_set(err, PQT_EINVAL, "S3 URL too long");
  return PQT_OK;
}

/* The signer of io/http.c: headers for one GET of url. */
static pqt_status s3_sign(void *pctx, const char *method, const char *url, void **headers, pqt_error *err) {
  s3_ctx *c = pctx;
  *headers = NULL;
  if (!c->access_key) return PQT_OK; /* anonymous */
  const char *hs = strstr(url, "://");
  if (!hs) return pqt_error_set(err, PQT_EINVAL, "bad URL");
  hs += 3;
  size_t hl = strcspn(hs, "/?");
  char host[256];
  if (hl >= sizeof host) return pqt_error_set(err, PQT_EINVAL, "host name too long");
  memcpy(host, hs, hl);
  host[hl] = 0;
  /* curl leaves the default port out of Host */
  size_t L = strlen(host);
  if (strncmp(url, "http://", 7) == 0 && L > 3 && strcmp(host + L - 3, ":80") == 0) host[L - 3] = 0;
  if (strncmp(url, "https://", 8) == 0 && L > 4 && strcmp(host + L - 4, ":443") == 0) host[L - 4] = 0;
  const char *rest = hs + hl;
  char path[S3_URL_MAX];
  size_t pl = strcspn(rest, "?");
  if (pl >= sizeof path) return pqt_error_set(err, PQT_EINVAL, "path too long");
  memcpy(path, rest, pl);
  path[pl] = 0;
  const char *query = rest[pl] == '?' ? rest + pl + 1 : "";
  char amz_date[17];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(amz_date, sizeof amz_date, "%Y%m%dT%H%M%SZ", &tm);
  const char *names[3] = {"x-amz-content-sha256", "x-amz-date", "x-amz-security-token"};
  const char *values[3] = {EMPTY_SHA256, amz_date, c->token};
  pqt_sigv4_request rq = {method, host,         path,   query,         names,         values, c->token ? 3u : 2u,
                          EMPTY_SHA256, amz_date, c->region, "s3", c->access_key, c->secret_key};
  char auth[1024];
  PQT_RETURN_NOT_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, err));
  char line[1200];
  struct curl_slist *l = NULL, *t;
  snprintf(line, sizeof line, "Authorization: %s", auth);
  if (!(t = curl_slist_append(l, line))) goto nomem;
  l = t;
  if (!(t = curl_slist_append(l, "x-amz-content-sha256: " EMPTY_SHA256))) goto nomem;
  l = t;
  snprintf(line, sizeof line, "x-amz-date: %s", amz_date);
  if (!(t = curl_slist_append(l, line))) goto nomem;
  l = t;
  if (c->token) {
    snprintf(line, sizeof line, "x-amz-security-token: %s", c->token);
    if (!(t = curl_slist_append(l, line))) goto nomem;
    l = t;
  }
  *headers = l;
  return PQT_OK;
nomem:
  curl_slist_free_all(l);
  return pqt_nomem(err);
}

static pqt_status make_ctx(const pqt_remote_options *o, s3_ctx **out, pqt_error *err) {
  *out = NULL;
  s3_ctx *c = calloc(1, sizeof *c);
  if (!c) return pqt_nomem(err);
  const char *ak = opt_or_env(o->access_key_id, "AWS_ACCESS_KEY_ID");
  const char *sk = opt_or_env(o->secret_access_key, "AWS_SECRET_ACCESS_KEY");
  const char *tk = opt_or_env(o->session_token, "AWS_SESSION_TOKEN");
  const char *rg = opt_or_env(o->s3_region, "AWS_REGION");
  if (!rg) rg = opt_or_env(NULL, "AWS_DEFAULT_REGION");
  if (!rg) rg = "us-east-1";
  if ((ak != NULL) != (sk != NULL)) {
    free(c);
    return pqt_error_set(err, PQT_EINVAL, "S3 credentials: an access key id needs a secret access key and back");
  }
  c->access_key = ak ? strdup(ak) : NULL;
  c->secret_key = sk ? strdup(sk) : NULL;
  c->token = tk && ak ? strdup(tk) : NULL;
  c->region = strdup(rg);
  if ((ak && (!c->access_key || !c->secret_key)) || (tk && ak && !c->token) || !c->region) {
    ctx_free(c);
    return pqt_nomem(err);
  }
  *out = c;
  return PQT_OK;
}

pqt_status pqt_s3_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_allocator *alloc,
                       pqt_error *err);

pqt_status pqt_s3_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_allocator *alloc,
                       pqt_error *err) {
  char bucket[128];
  const char *key;
  PQT_RETURN_NOT_OK(split_url(url, bucket, sizeof bucket, &key, err));
  if (!*key) return pqt_error_set(err, PQT_EINVAL, "%s: no key (s3://bucket/key)", url);
  s3_ctx *c;
  PQT_RETURN_NOT_OK(make_ctx(o, &c, err));
  char ep[1024], enc[S3_URL_MAX], full[S3_URL_MAX + 1200];
  bool path_style;
  pqt_status st = endpoint_of(o, c->region, ep, sizeof ep, &path_style, err);
  if (st == PQT_OK && !pqt_s3_uri_encode(key, strlen(key), true, enc, sizeof enc))
    st = pqt_error_set(err, PQT_EINVAL, "%s: key too long", url);
  if (st == PQT_OK) st = request_url(ep, path_style, bucket, enc, NULL, full, sizeof full, err);
  if (st != PQT_OK) {
    ctx_free(c);
    return st;
  }
  pqt_http_signer signer = {c, s3_sign};
  return pqt_http_open(io, full, o, &signer, ctx_free, alloc, err); /* frees c on failure */
}

/* ---- ListObjectsV2 ------------------------------------------------------------------ */

/* The text of the first <tag ...>...</tag> inside [p, end), or NULL. */
static const char *element(const char *p, const char *end, const char *tag, size_t *n) {
  size_t tl = strlen(tag);
  for (const char *s = p; s + tl + 2 <= end; s++) {
    if (s[0] != '<' || memcmp(s + 1, tag, tl) != 0 || (s[1 + tl] != '>' && s[1 + tl] != ' ')) continue;
    const char *v = memchr(s + 1 + tl, '>', (size_t)(end - (s + 1 + tl))); /* after any attributes */
    if (!v || v[-1] == '/') return NULL;
    v++;
    for (const char *e = v; e + tl + 3 <= end; e++)
      if (e[0] == '<' && e[1] == '/' && memcmp(e + 2, tag, tl) == 0 && e[2 + tl] == '>') {
        *n = (size_t)(e - v);
        return v;
      }
    return NULL;
  }
  return NULL;
}

/* XML text with its entities decoded, into out; false when it does not fit
 * or has a bad entity. */
static bool xml_text_raw(const char *v, size_t n, char *out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    unsigned long cp;
    if (v[i] != '&') {
      if (o + 1 >= cap) return false;
      out[o++] = v[i++];
      continue;
    }
    const char *semi = memchr(v + i, ';', n - i);
    if (!semi || semi - (v + i) > 10) return false;
    size_t el = (size_t)(semi - (v + i)) + 1;
    const char *e = v + i;
    if (el == 5 && memcmp(e, "&amp;", 5) == 0) cp = '&';
    else if (el == 4 && memcmp(e, "&lt;", 4) == 0) cp = '<';
    else if (el == 4 && memcmp(e, "&gt;", 4) == 0) cp = '>';
    else if (el == 6 && memcmp(e, "&quot;", 6) == 0) cp = '"';
    else if (el == 6 && memcmp(e, "&apos;", 6) == 0) cp = '\'';
    else if (el > 3 && e[1] == '#') {
      cp = 0;
      bool hx = e[2] == 'x';
      for (size_t j = hx ? 3 : 2; j + 1 < el; j++) {
        char c = e[j];
        int d = c >= '0' && c <= '9' ? c - '0' : hx && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hx && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return false;
        cp = cp * (hx ? 16u : 10u) + (unsigned long)d;
        if (cp > 0x10FFFF) return false;
      }
      if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    } else {
      return false;
    }
    /* UTF-8 */
    char u[4];
    size_t ul;
    if (cp < 0x80) {
      u[0] = (char)cp;
      ul = 1;
    } else if (cp < 0x800) {
      u[0] = (char)(0xC0 | (cp >> 6));
      u[1] = (char)(0x80 | (cp & 0x3F));
      ul = 2;
    } else if (cp < 0x10000) {
      u[0] = (char)(0xE0 | (cp >> 12));
      u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
      u[2] = (char)(0x80 | (cp & 0x3F));
      ul = 3;
    } else {
      u[0] = (char)(0xF0 | (cp >> 18));
      u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
      u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
      u[3] = (char)(0x80 | (cp & 0x3F));
      ul = 4;
    }
    if (o + ul >= cap) return false;
    memcpy(out + o, u, ul);
    o += ul;
    i += el;
  }
  if (o >= cap) return false;
  out[o] = 0;
  return true;
}

/* The text of an element with XML's character references decoded into out
 * (cap bytes, NUL-terminated); false, with out "" (never unterminated), when
 * it does not fit or a reference is malformed. */
static bool xml_text(const char *v, size_t n, char *out, size_t cap) {
  if (!cap) return false;
  if (xml_text_raw(v, n, out, cap)) return true;
  out[0] = 0;
  return false;
}

pqt_status pqt_s3_parse_list(const char *xml, size_t n, int (*fn)(void *ctx, const pqt_s3_object *obj), void *ctx,
                             bool *truncated, char *token, size_t token_cap, bool *stopped, pqt_error *err) {
  *truncated = false;
  *stopped = false;
  if (token_cap) token[0] = 0;
  const char *end = xml + n;
  size_t vl;
  const char *root = element(xml, end, "ListBucketResult", &vl);
  if (!root) return pqt_error_set(err, PQT_ECORRUPT, "not a ListObjectsV2 response (no <ListBucketResult>)");
  const char *rend = root + vl;
  const char *t = element(root, rend, "IsTruncated", &vl);
  *truncated = t && vl == 4 && memcmp(t, "true", 4) == 0;
  if (*truncated) {
    const char *tok = element(root, rend, "NextContinuationToken", &vl);
    if (!tok || !xml_text(tok, vl, token, token_cap) || !token[0])
      return pqt_error_set(err, PQT_ECORRUPT, "a truncated listing without a usable NextContinuationToken");
  }
  for (const char *p = root; p < rend;) {
    const char *c = element(p, rend, "Contents", &vl);
    if (!c) break;
    const char *cend = c + vl;
    size_t kl, sl, el = 0;
    const char *k = element(c, cend, "Key", &kl);
    const char *s = element(c, cend, "Size", &sl);
    const char *e = element(c, cend, "ETag", &el);
    char kbuf[4100], ebuf[260];
    uint64_t size = 0;
    if (!k || !xml_text(k, kl, kbuf, sizeof kbuf) || !kbuf[0])
      return pqt_error_set(err, PQT_ECORRUPT, "a listed object without a usable <Key>");
    if (!s || !sl || sl > 20) return pqt_error_set(err, PQT_ECORRUPT, "listed object '%.200s': bad <Size>", kbuf);
    for (size_t i = 0; i < sl; i++) {
      if (s[i] < '0' || s[i] > '9' || size > (UINT64_MAX - 9) / 10)
        return pqt_error_set(err, PQT_ECORRUPT, "listed object '%.200s': bad <Size>", kbuf);
      size = size * 10 + (uint64_t)(s[i] - '0');
    }
    if (!e || !xml_text(e, el, ebuf, sizeof ebuf)) ebuf[0] = 0;
    pqt_s3_object obj = {kbuf, size, ebuf};
    if (fn && fn(ctx, &obj)) {
      *stopped = true;
      return PQT_OK;
    }
    p = cend + strlen("</Contents>");
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_s3_list(const char *url, const pqt_remote_options *opts,
                               int (*fn)(void *ctx, const pqt_s3_object *obj), void *ctx, pqt_error *err) {
  if (!url || strncmp(url, "s3://", 5) != 0) return pqt_error_set(err, PQT_EINVAL, "pqt_s3_list: not an s3:// URL");
  pqt_remote_options o;
  PQT_RETURN_NOT_OK(pqt_remote_options_resolve(&o, opts, err));
  char bucket[128];
  const char *prefix;
  PQT_RETURN_NOT_OK(split_url(url, bucket, sizeof bucket, &prefix, err));
  s3_ctx *c;
  PQT_RETURN_NOT_OK(make_ctx(&o, &c, err));
  char ep[1024];
  bool path_style;
  pqt_status st = endpoint_of(&o, c->region, ep, sizeof ep, &path_style, err);
  char *token = calloc(1, 4096), *enc_tok = calloc(1, 12288), *enc_pre = calloc(1, 12288), *query = calloc(1, 25000),
       *full = calloc(1, 27000);
  if (st == PQT_OK && (!token || !enc_tok || !enc_pre || !query || !full)) st = pqt_nomem(err);
  if (st == PQT_OK && !pqt_s3_uri_encode(prefix, strlen(prefix), false, enc_pre, 12288))
    st = pqt_error_set(err, PQT_EINVAL, "%s: prefix too long", url);
  pqt_http_signer signer = {c, s3_sign};
  const pqt_allocator *alloc = pqt_default_allocator();
  for (int page = 0; st == PQT_OK; page++) {
    /* the parameters in canonical (sorted) order */
    if (token[0]) {
      if (!pqt_s3_uri_encode(token, strlen(token), false, enc_tok, 12288)) {
        st = pqt_error_set(err, PQT_ECORRUPT, "%s: continuation token too long", url);
        break;
      }
      snprintf(query, 25000, "continuation-token=%s&list-type=2&prefix=%s", enc_tok, enc_pre);
    } else {
      snprintf(query, 25000, "list-type=2&prefix=%s", enc_pre);
    }
    if ((st = request_url(ep, path_style, bucket, "", query, full, 27000, err)) != PQT_OK) break;
    uint8_t *body;
    size_t len;
    if ((st = pqt_http_get_all(full, &o, &signer, alloc, (uint64_t)16 << 20, &body, &len, err)) != PQT_OK) break;
    bool truncated, stopped;
    st = pqt_s3_parse_list((const char *)body, len, fn, ctx, &truncated, token, 4096, &stopped, err);
    pqt_mem_free(alloc, body, len ? len : 1);
    if (st != PQT_OK) {
      char shown[512];
      pqt_url_shown(full, shown, sizeof shown);
      pqt_error_prefix(err, "listing %s (page %d)", shown, page + 1);
      break;
    }
    if (!truncated || stopped) break;
    if (page > 1000000) {
      st = pqt_error_set(err, PQT_ELIMIT, "%s: more than a million listing pages", url);
      break;
    }
  }
  free(token);
  free(enc_tok);
  free(enc_pre);
  free(query);
  free(full);
  ctx_free(c);
  return st;
}
