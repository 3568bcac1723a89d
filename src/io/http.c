/*
 * io/http.c: byte sources over HTTP(S) range requests on libcurl's multi
 * interface (see parquetry_remote.h for the behaviour and options).
 *
 * One source holds one CURLM (its connection cache keeps connections alive
 * between batches) behind a mutex (fetch_mu): a batch is run to completion
 * by the thread that asked for it. The blocks of the cache have a mutex of
 * their own (mu), held only to look up, copy out, add or drop blocks, so a
 * read that the cache already holds is served while another thread's batch
 * (a row group read ahead) is on the wire. A batch is a list of transfers, each one range
 * GET into its own buffer; at most max_in_flight run at once; a transfer
 * that fails in a retryable way waits (retry_base_ms, doubling) and runs
 * again with its buffer reset. Ranges announced by will_need are kept as
 * blocks (cache_bytes, oldest dropped first) and reads copy out of them;
 * what no block holds is fetched first.
 */
#define _POSIX_C_SOURCE 200809L
#include "io/http.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/struct_size.h"
#include "io/coalesce.h"

#define SHOWN_MAX 512
#define VALIDATOR_MAX 256

/* ---- options ---------------------------------------------------------------- */

static void remote_defaults(pqt_remote_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->max_gap = (uint64_t)32 << 10;
  o->max_merged = (uint64_t)8 << 20;
  o->max_in_flight = 8;
  o->max_retries = 4;
  o->retry_base_ms = 100;
  o->timeout_ms = 60000;
  o->connect_timeout_ms = 10000;
  o->cache_bytes = (uint64_t)256 << 20;
  o->first_read_bytes = (uint64_t)64 << 10;
}

PQT_DEFINE_INIT_SIZED(pqt_remote_options, pqt_remote_options_init_sized, remote_defaults)

pqt_status pqt_remote_options_resolve(pqt_remote_options *dst, const pqt_remote_options *src, pqt_error *err) {
  pqt_remote_options d;
  remote_defaults(&d);
  remote_defaults(dst);
  PQT_RETURN_NOT_OK(pqt_options_copy(dst, sizeof *dst, src, "pqt_remote_options", err));
  if (!dst->max_merged) dst->max_merged = d.max_merged;
  if (dst->max_in_flight <= 0) dst->max_in_flight = d.max_in_flight;
  if (dst->max_in_flight > 64) dst->max_in_flight = 64;
  if (dst->max_retries == 0) dst->max_retries = d.max_retries;
  if (dst->max_retries < 0) dst->max_retries = 0;
  if (dst->retry_base_ms <= 0) dst->retry_base_ms = d.retry_base_ms;
  if (dst->timeout_ms <= 0) dst->timeout_ms = d.timeout_ms;
  if (dst->connect_timeout_ms <= 0) dst->connect_timeout_ms = d.connect_timeout_ms;
  if (!dst->cache_bytes) dst->cache_bytes = d.cache_bytes;
  if (dst->first_read_bytes < 8) dst->first_read_bytes = d.first_read_bytes;
  if (dst->first_read_bytes > ((uint64_t)64 << 20)) dst->first_read_bytes = (uint64_t)64 << 20;
  return PQT_OK;
}

PQT_API int pqt_is_url(const char *p) {
  return p && (strncmp(p, "http://", 7) == 0 || strncmp(p, "https://", 8) == 0 || strncmp(p, "s3://", 5) == 0);
}

void pqt_url_shown(const char *url, char *out, size_t cap) {
  if (!cap) return;
  const char *scheme_end = strstr(url, "://");
  size_t o = 0;
  const char *p = url;
  if (scheme_end) {
    size_t k = (size_t)(scheme_end - url) + 3;
    for (size_t i = 0; i < k && o + 1 < cap; i++) out[o++] = url[i];
    p = url + k;
    /* user:password@ before the host */
    const char *slash = strchr(p, '/');
    const char *at = strchr(p, '@');
    if (at && (!slash || at < slash)) p = at + 1;
  }
  for (; *p && *p != '?' && *p != '#' && o + 1 < cap; p++) out[o++] = *p;
  out[o] = 0;
}

/* ---- parsing ------------------------------------------------------------------ */

static bool parse_u64(const char **p, const char *end, uint64_t *v) {
  const char *s = *p;
  uint64_t x = 0;
  if (s >= end || *s < '0' || *s > '9') return false;
  while (s < end && *s >= '0' && *s <= '9') {
    unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10) return false;
    x = x * 10 + d;
    s++;
  }
  *p = s;
  *v = x;
  return true;
}

bool pqt_http_parse_content_range(const char *v, size_t n, uint64_t *a, uint64_t *b, uint64_t *total) {
  const char *p = v, *end = v + n;
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  if ((size_t)(end - p) < 6 || strncmp(p, "bytes", 5) != 0) return false;
  p += 5;
  while (p < end && (*p == ' ' || *p == '=')) p++;
  if (!parse_u64(&p, end, a) || p >= end || *p++ != '-' || !parse_u64(&p, end, b) || p >= end || *p++ != '/')
    return false;
  if (*b < *a) return false;
  if (p < end && *p == '*') {
    *total = UINT64_MAX;
    p++;
  } else if (!parse_u64(&p, end, total) || *b >= *total) {
    return false;
  }
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
  return p == end;
}

/* A header line "Name: value\r\n": true and the trimmed value when its name is `name`. */
static bool header_is(const char *line, size_t n, const char *name, const char **val, size_t *vlen) {
  size_t k = strlen(name);
  if (n <= k || line[k] != ':') return false;
  for (size_t i = 0; i < k; i++) {
    char c = line[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != name[i]) return false;
  }
  const char *s = line + k + 1, *e = line + n;
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  while (e > s && (e[-1] == '\r' || e[-1] == '\n' || e[-1] == ' ' || e[-1] == '\t')) e--;
  *val = s;
  *vlen = (size_t)(e - s);
  return true;
}

/* ---- the source ---------------------------------------------------------------- */

typedef struct block {
  uint64_t off, len;
  uint8_t *data;
} block;

typedef struct http_src {
  const pqt_allocator *alloc;
  pqt_remote_options o;
  char *url, *ca_file;
  char shown[SHOWN_MAX];
  pqt_http_signer signer;
  void (*ctx_free)(void *ctx);
  pthread_mutex_t fetch_mu; /* multi, the validators, size, requests, bytes: one batch at a time */
  pthread_mutex_t mu;       /* blocks, n_blocks, cap_blocks, cached */
  CURLM *multi;
  uint64_t size;
  bool size_known;
  char etag[VALIDATOR_MAX], last_modified[VALIDATOR_MAX];
  block *blocks; /* oldest first */
  size_t n_blocks, cap_blocks;
  uint64_t cached;
  uint64_t requests, bytes;
} http_src;

typedef enum { X_PENDING, X_RUNNING, X_DONE } xstate;

typedef struct xfer {
  http_src *s;
  uint64_t off, len; /* the range; for the suffix request len is the suffix size until the size is known */
  bool suffix;       /* Range: bytes=-len (the first request) */
  bool whole;        /* no Range at all (listings): the body, any length up to len */
  uint8_t *buf;
  uint64_t got;      /* bytes placed in buf */
  uint64_t body_pos; /* bytes of body seen */
  long status;
  bool status_seen, sliced_done, overflow, suffix_wrong;
  uint64_t cr_a, cr_b, cr_total, content_length;
  bool have_cr, have_cl;
  char etag[VALIDATOR_MAX], lm[VALIDATOR_MAX];
  char errbody[256];
  size_t errbody_len;
  int attempts;
  int64_t not_before;
  xstate state;
  CURL *h;
  struct curl_slist *hdrs;
  char curl_err[CURL_ERROR_SIZE];
} xfer;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static pthread_once_t g_curl_once = PTHREAD_ONCE_INIT;
static void curl_once(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static void reset_xfer(xfer *x) {
  x->got = x->body_pos = 0;
  x->status = 0;
  x->status_seen = x->sliced_done = x->overflow = x->suffix_wrong = false;
  x->have_cr = x->have_cl = false;
  x->etag[0] = x->lm[0] = 0;
  x->errbody_len = 0;
  x->curl_err[0] = 0;
}

static void copy_validator(char *dst, const char *v, size_t n) {
  if (n >= VALIDATOR_MAX) n = VALIDATOR_MAX - 1;
  memcpy(dst, v, n);
  dst[n] = 0;
}

static size_t on_header(char *line, size_t size, size_t nitems, void *ud) {
  xfer *x = ud;
  size_t n = size * nitems;
  const char *v;
  size_t vl;
  if (n >= 5 && memcmp(line, "HTTP/", 5) == 0) { /* a new response (after 100, a redirect): start over */
    x->have_cr = x->have_cl = false;
    x->etag[0] = x->lm[0] = 0;
  } else if (header_is(line, n, "content-range", &v, &vl)) {
    x->have_cr = pqt_http_parse_content_range(v, vl, &x->cr_a, &x->cr_b, &x->cr_total);
  } else if (header_is(line, n, "content-length", &v, &vl)) {
    const char *p = v;
    x->have_cl = parse_u64(&p, v + vl, &x->content_length) && p == v + vl;
  } else if (header_is(line, n, "etag", &v, &vl)) {
    copy_validator(x->etag, v, vl);
  } else if (header_is(line, n, "last-modified", &v, &vl)) {
    copy_validator(x->lm, v, vl);
  }
  return n;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *ud) {
  xfer *x = ud;
  size_t n = size * nmemb;
  if (!x->status_seen) {
    curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &x->status);
    x->status_seen = true;
    if (x->suffix && x->status == 200) { /* Range ignored: the tail of the whole body */
      if (!x->have_cl) return 0;
      if (x->len > x->content_length) x->len = x->content_length;
      x->off = x->content_length - x->len;
    } else if (x->suffix && x->status == 206) {
      if (!x->have_cr || x->cr_total == UINT64_MAX) return 0;
      if (x->cr_b != x->cr_total - 1 || x->cr_b - x->cr_a + 1 > x->len) {
        /* not the tail asked for (s3rver 3.7 answers bytes=-N with bytes 0-N):
         * the size is known now, the tail is read with an explicit range */
        x->suffix_wrong = true;
        return 0;
      }
      x->off = x->cr_a;
      x->len = x->cr_b - x->cr_a + 1;
    }
  }
  x->s->bytes += n;
  if (x->status != 200 && x->status != 206) { /* an error body: its start for the message */
    size_t k = sizeof x->errbody - 1 - x->errbody_len;
    if (k > n) k = n;
    memcpy(x->errbody + x->errbody_len, data, k);
    x->errbody_len += k;
    return n;
  }
  uint64_t base = x->whole || x->status == 206 ? (x->whole ? 0 : x->off) : 0; /* body offset of data[0] */
  uint64_t from = base + x->body_pos, to = from + n;
  x->body_pos += n;
  if (x->whole) {
    if (to > x->len) {
      x->overflow = true;
      return 0;
    }
    memcpy(x->buf + from, data, n);
    x->got = to;
    return n;
  }
  uint64_t lo = from > x->off ? from : x->off, hi = to < x->off + x->len ? to : x->off + x->len;
  if (x->status == 206 && to > x->off + x->len) {
    x->overflow = true; /* more than asked for */
    return 0;
  }
  if (hi > lo) {
    memcpy(x->buf + (lo - x->off), data + (lo - from), (size_t)(hi - lo));
    x->got += hi - lo;
  }
  if (x->status == 200 && to >= x->off + x->len) { /* the slice is complete: stop the download */
    x->sliced_done = true;
    return 0;
  }
  return n;
}

static pqt_status start_xfer(http_src *s, xfer *x, pqt_error *err) {
  reset_xfer(x);
  CURL *h = curl_easy_init();
  if (!h) return pqt_nomem(err);
  x->h = h;
  x->hdrs = NULL;
  char range[80];
  curl_easy_setopt(h, CURLOPT_URL, s->url);
  curl_easy_setopt(h, CURLOPT_PRIVATE, x);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->curl_err);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)s->o.timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)s->o.connect_timeout_ms);
  curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
  curl_easy_setopt(h, CURLOPT_PIPEWAIT, 1L);
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, NULL); /* identity: ranges are of the stored bytes */
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  if (s->ca_file) curl_easy_setopt(h, CURLOPT_CAINFO, s->ca_file);
  if (s->o.insecure_tls) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (x->suffix) {
    snprintf(range, sizeof range, "bytes=-%llu", (unsigned long long)x->len);
    curl_easy_setopt(h, CURLOPT_RANGE, range + 6);
  } else if (!x->whole) {
    snprintf(range, sizeof range, "%llu-%llu", (unsigned long long)x->off, (unsigned long long)(x->off + x->len - 1));
    curl_easy_setopt(h, CURLOPT_RANGE, range);
  }
  if (s->signer.sign) {
    void *hd = NULL;
    pqt_status st = s->signer.sign(s->signer.ctx, "GET", s->url, &hd, err);
    if (st != PQT_OK) {
      curl_easy_cleanup(h);
      x->h = NULL;
      return st;
    }
    x->hdrs = hd;
  }
  if (s->etag[0] && !x->whole) {
    char im[VALIDATOR_MAX + 16];
    snprintf(im, sizeof im, "If-Match: %s", s->etag);
    struct curl_slist *l = curl_slist_append(x->hdrs, im);
    if (l) x->hdrs = l;
  }
  if (x->hdrs) curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->hdrs);
  if (curl_multi_add_handle(s->multi, h) != CURLM_OK) {
    curl_easy_cleanup(h);
    curl_slist_free_all(x->hdrs);
    x->h = NULL;
    x->hdrs = NULL;
    return pqt_error_set(err, PQT_EIO, "GET %s: cannot start the request", s->shown);
  }
  s->requests++;
  x->state = X_RUNNING;
  return PQT_OK;
}

static void end_xfer(http_src *s, xfer *x) {
  if (x->h) {
    curl_multi_remove_handle(s->multi, x->h);
    curl_easy_cleanup(x->h);
  }
  curl_slist_free_all(x->hdrs);
  x->h = NULL;
  x->hdrs = NULL;
}

static void range_text(const xfer *x, char *out, size_t cap) {
  if (x->whole)
    snprintf(out, cap, "no range");
  else if (x->suffix)
    snprintf(out, cap, "the last %llu bytes", (unsigned long long)x->len);
  else
    snprintf(out, cap, "bytes %llu-%llu", (unsigned long long)x->off, (unsigned long long)(x->off + x->len - 1));
}

/* An S3-style error body's <Code>: into out (empty when there is none). */
static void error_code(const xfer *x, char *out, size_t cap) {
  out[0] = 0;
  const char *b = x->errbody, *e = x->errbody + x->errbody_len;
  for (const char *p = b; p + 6 <= e; p++)
    if (memcmp(p, "<Code>", 6) == 0) {
      const char *q = p + 6;
      size_t k = 0;
      while (q < e && *q != '<' && k + 1 < cap) out[k++] = *q++;
      out[k] = 0;
      return;
    }
}

/* What to do with a finished transfer: 0 done, 1 retry, -1 failed (err set). */
static int judge(http_src *s, xfer *x, CURLcode rc, char *why, size_t why_cap, pqt_error *err) {
  char rt[96];
  range_text(x, rt, sizeof rt);
  why[0] = 0;
  if (rc == CURLE_WRITE_ERROR && x->suffix_wrong) { /* done, without data: see on_body */
    x->len = 0;
    return 0;
  }
  if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && x->sliced_done)) {
    if (rc == CURLE_WRITE_ERROR && x->overflow) {
      snprintf(why, why_cap, "the server sent more than was asked for");
      return 1;
    }
    if (rc == CURLE_WRITE_ERROR && x->suffix) {
      pqt_error_set(err, PQT_EIO, "GET %s (%s): the server gave neither the object's size nor a valid Content-Range",
                    s->shown, rt);
      return -1;
    }
    snprintf(why, why_cap, "%s", x->curl_err[0] ? x->curl_err : curl_easy_strerror(rc));
    switch (rc) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_OUT_OF_MEMORY:
    case CURLE_TOO_MANY_REDIRECTS:
      pqt_error_set(err, PQT_EIO, "GET %s (%s): %s", s->shown, rt, why);
      return -1;
    default:
      return 1;
    }
  }
  long st = x->status;
  if (!x->status_seen) curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &st);
  if (st == 412 || (st == 200 && s->etag[0] && x->etag[0] && strcmp(s->etag, x->etag) != 0) ||
      (st == 206 && s->etag[0] && x->etag[0] && strcmp(s->etag, x->etag) != 0) ||
      ((st == 200 || st == 206) && !s->etag[0] && s->last_modified[0] && x->lm[0] &&
       strcmp(s->last_modified, x->lm) != 0)) {
    pqt_error_set(err, PQT_EIO, "GET %s (%s): the object changed during the read (ETag/Last-Modified differs)",
                  s->shown, rt);
    return -1;
  }
  if (st >= 500 || st == 429 || st == 408) {
    char code[64];
    error_code(x, code, sizeof code);
    snprintf(why, why_cap, "HTTP %ld%s%s", st, code[0] ? " " : "", code);
    return 1;
  }
  if (st != 200 && st != 206) {
    char code[64];
    error_code(x, code, sizeof code);
    const char *what = st == 404 ? "not found" : st == 403 || st == 401 ? "access denied" : st == 416 ? "range not satisfiable" : "refused";
    pqt_error_set(err, PQT_EIO, "GET %s (%s): %s (HTTP %ld%s%s)", s->shown, rt, what, st,
                  code[0] ? " " : "", code);
    return -1;
  }
  if (x->whole) {
    x->len = x->got;
    return 0;
  }
  if (st == 206 && !x->suffix) {
    if (!x->have_cr || x->cr_a != x->off || x->cr_b != x->off + x->len - 1) {
      snprintf(why, why_cap, "Content-Range does not match the request");
      return 1;
    }
    if (s->size_known && x->cr_total != UINT64_MAX && x->cr_total != s->size) {
      pqt_error_set(err, PQT_EIO, "GET %s (%s): the object changed during the read (size %llu, was %llu)", s->shown,
                    rt, (unsigned long long)x->cr_total, (unsigned long long)s->size);
      return -1;
    }
  }
  if (st == 200 && s->size_known && x->have_cl && x->content_length != s->size) {
    pqt_error_set(err, PQT_EIO, "GET %s (%s): the object changed during the read (size %llu, was %llu)", s->shown, rt,
                  (unsigned long long)x->content_length, (unsigned long long)s->size);
    return -1;
  }
  if (x->got != x->len) {
    snprintf(why, why_cap, "truncated body (%llu of %llu bytes)", (unsigned long long)x->got,
             (unsigned long long)x->len);
    return 1;
  }
  return 0;
}

/* Run the transfers to completion (the caller holds s->fetch_mu, not s->mu). */
static pqt_status run_batch(http_src *s, xfer *xs, size_t n, pqt_error *err) {
  size_t left = n, in_flight = 0;
  pqt_status st = PQT_OK;
  for (size_t i = 0; i < n; i++) {
    xs[i].s = s;
    xs[i].state = X_PENDING;
    xs[i].attempts = 0;
    xs[i].not_before = 0;
    xs[i].h = NULL;
    xs[i].hdrs = NULL;
  }
  while (left && st == PQT_OK) {
    int64_t now = now_ms(), wait = 100;
    for (size_t i = 0; i < n && st == PQT_OK && in_flight < (size_t)s->o.max_in_flight; i++) {
      if (xs[i].state != X_PENDING) continue;
      if (xs[i].not_before > now) {
        if (xs[i].not_before - now < wait) wait = xs[i].not_before - now;
        continue;
      }
      st = start_xfer(s, &xs[i], err);
      if (st == PQT_OK) in_flight++;
    }
    if (st != PQT_OK) break;
    int running = 0;
    if (curl_multi_perform(s->multi, &running) != CURLM_OK) {
      st = pqt_error_set(err, PQT_EIO, "GET %s: the transfer engine failed", s->shown);
      break;
    }
    CURLMsg *m;
    int q;
    while (st == PQT_OK && (m = curl_multi_info_read(s->multi, &q)) != NULL) {
      if (m->msg != CURLMSG_DONE) continue;
      xfer *x = NULL;
      curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
      CURLcode rc = m->data.result;
      char why[CURL_ERROR_SIZE + 64];
      int verdict = judge(s, x, rc, why, sizeof why, err);
      end_xfer(s, x);
      in_flight--;
      if (verdict == 0) {
        if (x->suffix && !s->size_known) { /* the first response: the object's size and validators */
          s->size = x->status == 206 ? x->cr_total : x->content_length;
          s->size_known = true;
          snprintf(s->etag, sizeof s->etag, "%s", x->etag);
          snprintf(s->last_modified, sizeof s->last_modified, "%s", x->lm);
        }
        x->state = X_DONE;
        left--;
      } else if (verdict > 0 && x->attempts < s->o.max_retries) {
        int64_t d = (int64_t)s->o.retry_base_ms << (x->attempts < 6 ? x->attempts : 6);
        if (d > 5000) d = 5000;
        x->attempts++;
        x->not_before = now_ms() + d;
        x->state = X_PENDING;
      } else if (verdict > 0) {
        char rt[96];
        range_text(x, rt, sizeof rt);
        st = pqt_error_set(err, PQT_EIO, "GET %s (%s): %s (after %d attempts)", s->shown, rt, why, x->attempts + 1);
      } else {
        st = PQT_EIO;
      }
    }
    if (st != PQT_OK || !left) break;
    if (in_flight) curl_multi_poll(s->multi, NULL, 0, (int)wait, NULL);
    else if (wait > 0) {
      struct timespec ts = {wait / 1000, (long)(wait % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    }
  }
  for (size_t i = 0; i < n; i++) end_xfer(s, &xs[i]);
  return st;
}

/* ---- the cache of announced ranges ------------------------------------------ */

static void drop_oldest(http_src *s) {
  block *b = &s->blocks[0];
  s->cached -= b->len;
  pqt_mem_free(s->alloc, b->data, (size_t)b->len);
  memmove(s->blocks, s->blocks + 1, sizeof *b * (s->n_blocks - 1));
  s->n_blocks--;
}

/* The block holding offset off (the newest one when several do), or NULL. */
static const block *find_block(const http_src *s, uint64_t off) {
  for (size_t i = s->n_blocks; i-- > 0;)
    if (off >= s->blocks[i].off && off - s->blocks[i].off < s->blocks[i].len) return &s->blocks[i];
  return NULL;
}

static bool covered(const http_src *s, uint64_t off, uint64_t len) {
  while (len) {
    const block *b = find_block(s, off);
    if (!b) return false;
    uint64_t k = b->off + b->len - off;
    if (k > len) k = len;
    off += k;
    len -= k;
  }
  return true;
}

/* Fetch the parts of ranges no block holds, merged, as new blocks. The
 * caller holds s->fetch_mu (not s->mu): only a fetch drops blocks, so what
 * this adds stays until the caller lets go of fetch_mu. */
static pqt_status fetch_missing(http_src *s, const pqt_io_range *rs, size_t n, pqt_error *err) {
  for (size_t i = 0; i < n; i++)
    if (rs[i].offset > s->size || rs[i].length > s->size - rs[i].offset)
      return pqt_error_set(err, PQT_ECORRUPT, "%s: read of %llu bytes at offset %llu is past the end of the %llu-byte object",
                           s->shown, (unsigned long long)rs[i].length, (unsigned long long)rs[i].offset,
                           (unsigned long long)s->size);
  pqt_io_range *miss = pqt_mem_alloc(s->alloc, sizeof *miss * (n ? n : 1));
  if (!miss) return pqt_nomem(err);
  size_t m = 0;
  pthread_mutex_lock(&s->mu);
  for (size_t i = 0; i < n; i++)
    if (rs[i].length && !covered(s, rs[i].offset, rs[i].length)) miss[m++] = rs[i];
  pthread_mutex_unlock(&s->mu);
  pqt_io_request *req = NULL;
  size_t nreq = 0, cap = 0;
  pqt_status st = m ? pqt_io_coalesce(miss, m, s->o.max_gap, s->o.max_merged, s->alloc, &req, &nreq, &cap, err) : PQT_OK;
  pqt_mem_free(s->alloc, miss, sizeof *miss * (n ? n : 1));
  if (st != PQT_OK || !nreq) return st;
  xfer *xs = pqt_mem_calloc(s->alloc, sizeof *xs * nreq);
  if (!xs) st = pqt_nomem(err);
  for (size_t i = 0; i < nreq && st == PQT_OK; i++) {
    xs[i].off = req[i].offset;
    xs[i].len = req[i].length;
    if (req[i].length > SIZE_MAX || !(xs[i].buf = pqt_mem_alloc(s->alloc, (size_t)req[i].length))) st = pqt_nomem(err);
  }
  if (st == PQT_OK) st = run_batch(s, xs, nreq, err);
  uint64_t incoming = 0;
  for (size_t i = 0; i < nreq && xs; i++) incoming += xs[i].len;
  pthread_mutex_lock(&s->mu);
  if (st == PQT_OK) {
    while (s->n_blocks && s->cached + incoming > s->o.cache_bytes) drop_oldest(s);
    if (s->n_blocks + nreq > s->cap_blocks) {
      size_t nc = (s->n_blocks + nreq) * 2;
      block *nb = pqt_mem_alloc(s->alloc, sizeof *nb * nc);
      if (!nb) {
        st = pqt_nomem(err);
      } else {
        if (s->n_blocks) memcpy(nb, s->blocks, sizeof *nb * s->n_blocks);
        if (s->blocks) pqt_mem_free(s->alloc, s->blocks, sizeof *nb * s->cap_blocks);
        s->blocks = nb;
        s->cap_blocks = nc;
      }
    }
  }
  for (size_t i = 0; i < nreq && xs; i++) {
    if (st == PQT_OK) {
      s->blocks[s->n_blocks++] = (block){xs[i].off, xs[i].len, xs[i].buf};
      s->cached += xs[i].len;
    } else if (xs[i].buf) {
      pqt_mem_free(s->alloc, xs[i].buf, (size_t)xs[i].len);
    }
  }
  pthread_mutex_unlock(&s->mu);
  if (xs) pqt_mem_free(s->alloc, xs, sizeof *xs * nreq);
  pqt_mem_free(s->alloc, req, sizeof *req * cap);
  return st;
}

static void copy_out(const http_src *s, uint64_t off, uint64_t len, uint8_t *dst) {
  while (len) {
    const block *b = find_block(s, off);
    if (!b) return; /* not reached: covered() held */
    uint64_t k = b->off + b->len - off;
    if (k > len) k = len;
    memcpy(dst, b->data + (off - b->off), (size_t)k);
    dst += k;
    off += k;
    len -= k;
  }
}

/* Copy out ranges [from, n) while the cache holds them; returns the index
 * of the first range it does not hold (n: all copied). */
static size_t copy_covered(http_src *s, const pqt_io_range *rs, size_t from, size_t n) {
  pthread_mutex_lock(&s->mu);
  size_t i = from;
  for (; i < n; i++) {
    if (rs[i].offset > s->size || rs[i].length > s->size - rs[i].offset) break; /* fetch_missing says why */
    if (rs[i].length && !covered(s, rs[i].offset, rs[i].length)) break;
    if (rs[i].length) copy_out(s, rs[i].offset, rs[i].length, rs[i].dst);
  }
  pthread_mutex_unlock(&s->mu);
  return i;
}

static pqt_status http_read_ranges(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  http_src *s = pd;
  size_t i = copy_covered(s, rs, 0, n); /* without waiting for a batch on the wire */
  if (i == n) return PQT_OK;
  pthread_mutex_lock(&s->fetch_mu);
  pqt_status st = fetch_missing(s, rs + i, n - i, err);
  while (st == PQT_OK && (i = copy_covered(s, rs, i, n)) < n) {
    st = fetch_missing(s, &rs[i], 1, err); /* the batch was larger than the cache */
    if (st == PQT_OK && copy_covered(s, rs, i, i + 1) == i) /* not reached: a fetch keeps what it added */
      st = pqt_error_set(err, PQT_EIO, "%s: range at offset %llu not held after its fetch", s->shown,
                         (unsigned long long)rs[i].offset);
    i++;
  }
  pthread_mutex_unlock(&s->fetch_mu);
  return st;
}

static pqt_status http_read_at(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  pqt_io_range r = {off, n, dst};
  return http_read_ranges(pd, &r, 1, err);
}

static pqt_status http_will_need(void *pd, const pqt_io_range *rs, size_t n, pqt_error *err) {
  http_src *s = pd;
  pthread_mutex_lock(&s->fetch_mu);
  pqt_status st = fetch_missing(s, rs, n, err);
  pthread_mutex_unlock(&s->fetch_mu);
  return st;
}

static void http_release(void *pd) {
  http_src *s = pd;
  if (!s) return;
  while (s->n_blocks) drop_oldest(s);
  if (s->blocks) pqt_mem_free(s->alloc, s->blocks, sizeof *s->blocks * s->cap_blocks);
  if (s->multi) curl_multi_cleanup(s->multi);
  pthread_mutex_destroy(&s->mu);
  pthread_mutex_destroy(&s->fetch_mu);
  if (s->ctx_free && s->signer.ctx) s->ctx_free(s->signer.ctx);
  free(s->url);
  free(s->ca_file);
  pqt_mem_free(s->alloc, s, sizeof *s);
}

static pqt_status src_new(http_src **out, const char *url, const pqt_remote_options *o, const pqt_http_signer *signer,
                          void (*ctx_free)(void *), const pqt_allocator *alloc, pqt_error *err) {
  pthread_once(&g_curl_once, curl_once);
  http_src *s = pqt_mem_calloc(alloc, sizeof *s);
  if (!s) {
    if (ctx_free && signer && signer->ctx) ctx_free(signer->ctx);
    return pqt_nomem(err);
  }
  s->alloc = alloc;
  s->o = *o;
  if (signer) s->signer = *signer;
  s->ctx_free = ctx_free;
  pthread_mutex_init(&s->mu, NULL);
  pthread_mutex_init(&s->fetch_mu, NULL);
  pqt_url_shown(url, s->shown, sizeof s->shown);
  s->url = strdup(url);
  s->ca_file = o->ca_file ? strdup(o->ca_file) : NULL;
  s->o.ca_file = NULL;
  s->o.access_key_id = s->o.secret_access_key = s->o.session_token = NULL;
  s->o.s3_region = s->o.s3_endpoint = NULL;
  s->multi = curl_multi_init();
  if (!s->url || (o->ca_file && !s->ca_file) || !s->multi) {
    http_release(s);
    return pqt_nomem(err);
  }
  curl_multi_setopt(s->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
  curl_multi_setopt(s->multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)o->max_in_flight);
  *out = s;
  return PQT_OK;
}

pqt_status pqt_http_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_http_signer *signer,
                         void (*ctx_free)(void *ctx), const pqt_allocator *alloc, pqt_error *err) {
  http_src *s;
  PQT_RETURN_NOT_OK(src_new(&s, url, o, signer, ctx_free, alloc, err));
  /* the first round trip: the tail (size, validators, usually the footer) */
  xfer x;
  memset(&x, 0, sizeof x);
  x.suffix = true;
  x.len = s->o.first_read_bytes;
  x.buf = pqt_mem_alloc(alloc, (size_t)x.len);
  pqt_status st = x.buf ? PQT_OK : pqt_nomem(err);
  size_t buf_len = (size_t)x.len;
  if (st == PQT_OK) st = run_batch(s, &x, 1, err);
  if (st == PQT_OK && x.len) {
    /* keep the tail as the first block */
    uint8_t *b = pqt_mem_alloc(alloc, (size_t)x.len);
    s->blocks = pqt_mem_alloc(alloc, sizeof *s->blocks * 4);
    if (!b || !s->blocks) {
      if (b) pqt_mem_free(alloc, b, (size_t)x.len);
      st = pqt_nomem(err);
    } else {
      memcpy(b, x.buf, (size_t)x.len);
      s->cap_blocks = 4;
      s->blocks[0] = (block){x.off, x.len, b};
      s->n_blocks = 1;
      s->cached = x.len;
    }
  }
  if (x.buf) pqt_mem_free(alloc, x.buf, buf_len);
  if (st == PQT_OK && !x.len && s->size) { /* the server did not give the tail: ask for it by offsets */
    uint64_t n = s->o.first_read_bytes < s->size ? s->o.first_read_bytes : s->size;
    pqt_io_range tail = {s->size - n, n, NULL};
    st = fetch_missing(s, &tail, 1, err);
  }
  if (st == PQT_OK) {
    pqt_status cs = pqt_struct_size_check(pqt_struct_size_of(io), sizeof *io, "pqt_io", err);
    if (cs != PQT_OK) st = cs;
  }
  if (st != PQT_OK) {
    http_release(s);
    return st;
  }
  pqt_io full = {sizeof full, http_read_at, NULL, http_release, s->size, s, http_read_ranges, http_will_need};
  return pqt_struct_copy_out(io, &full, sizeof full, "pqt_io", err);
}

pqt_status pqt_http_get_all(const char *url, const pqt_remote_options *o, const pqt_http_signer *signer,
                            const pqt_allocator *alloc, uint64_t max_bytes, uint8_t **body, size_t *len,
                            pqt_error *err) {
  *body = NULL;
  *len = 0;
  http_src *s;
  PQT_RETURN_NOT_OK(src_new(&s, url, o, signer, NULL, alloc, err));
  xfer x;
  memset(&x, 0, sizeof x);
  x.whole = true;
  x.len = max_bytes;
  x.buf = pqt_mem_alloc(alloc, (size_t)max_bytes);
  pqt_status st = x.buf ? run_batch(s, &x, 1, err) : pqt_nomem(err);
  if (st == PQT_OK) { /* exactly the body's size, so the caller frees *len bytes */
    *body = pqt_mem_alloc(alloc, x.got ? (size_t)x.got : 1);
    if (*body) {
      memcpy(*body, x.buf, (size_t)x.got);
      *len = (size_t)x.got;
    } else {
      st = pqt_nomem(err);
    }
  }
  if (x.buf) pqt_mem_free(alloc, x.buf, (size_t)max_bytes);
  http_release(s);
  return st;
}

bool pqt_io_is_remote(const pqt_io *io) { return io && io->release == http_release; }

bool pqt_io_remote_holds(const pqt_io *io, uint64_t off, uint64_t len) {
  if (!pqt_io_is_remote(io) || !io->private_data) return false;
  http_src *s = io->private_data;
  pthread_mutex_lock(&s->mu);
  bool held = off <= s->size && len <= s->size - off && covered(s, off, len);
  pthread_mutex_unlock(&s->mu);
  return held;
}

PQT_API void pqt_io_remote_counts(const pqt_io *io, uint64_t *requests, uint64_t *bytes) {
  if (requests) *requests = 0;
  if (bytes) *bytes = 0;
  if (!io || io->release != http_release || !io->private_data) return;
  http_src *s = io->private_data;
  pthread_mutex_lock(&s->fetch_mu);
  if (requests) *requests = s->requests;
  if (bytes) *bytes = s->bytes;
  pthread_mutex_unlock(&s->fetch_mu);
}

pqt_status pqt_s3_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_allocator *alloc,
                       pqt_error *err);

PQT_API pqt_status pqt_io_open_url(pqt_io *io, const char *url, const pqt_remote_options *opts,
                                   const pqt_allocator *alloc, pqt_error *err) {
  if (!io || !url) return pqt_error_set(err, PQT_EINVAL, "pqt_io_open_url: bad arguments");
  PQT_RETURN_NOT_OK(pqt_struct_size_check(pqt_struct_size_of(io), sizeof *io, "pqt_io", err));
  pqt_remote_options o;
  PQT_RETURN_NOT_OK(pqt_remote_options_resolve(&o, opts, err));
  alloc = pqt_alloc_or_default(alloc);
  if (strncmp(url, "s3://", 5) == 0) return pqt_s3_open(io, url, &o, alloc, err);
  if (!pqt_is_url(url)) return pqt_error_set(err, PQT_EINVAL, "not an http://, https:// or s3:// URL");
  return pqt_http_open(io, url, &o, NULL, NULL, alloc, err);
}
