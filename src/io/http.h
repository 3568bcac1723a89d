/*
 * io/http.h: the HTTP(S) range-request engine behind pqt_io_open_url (see
 * parquetry_remote.h for the behaviour) and what io/s3.c needs of it.
 */
#ifndef PQT_IO_HTTP_H
#define PQT_IO_HTTP_H

#include "core/core.h"
#include "parquetry_remote.h"

/* The options with every default filled in (0/NULL fields replaced). */
pqt_status pqt_remote_options_resolve(pqt_remote_options *dst, const pqt_remote_options *src, pqt_error *err);

/* The URL as errors show it: no user:password@, no ?query. Into out. */
void pqt_url_shown(const char *url, char *out, size_t cap);

/* Signs one request: returns the extra headers (curl_slist *) to send, or
 * NULL with err set. method "GET"/"HEAD", url the full request URL. */
typedef struct pqt_http_signer {
  void *ctx;
  pqt_status (*sign)(void *ctx, const char *method, const char *url, void **headers, pqt_error *err);
} pqt_http_signer;

/* The source over url; signer may be NULL (copied: ctx must outlive the
 * source, and is freed with ctx_free(alloc, ctx) at release when set). */
pqt_status pqt_http_open(pqt_io *io, const char *url, const pqt_remote_options *o, const pqt_http_signer *signer,
                         void (*ctx_free)(void *ctx), const pqt_allocator *alloc, pqt_error *err);

/* One whole GET of url (for listings), body into *body/len (malloc'd by
 * alloc, bounded by max_bytes); retries as for ranges. */
pqt_status pqt_http_get_all(const char *url, const pqt_remote_options *o, const pqt_http_signer *signer,
                            const pqt_allocator *alloc, uint64_t max_bytes, uint8_t **body, size_t *len,
                            pqt_error *err);

/* io is an http(s):// or s3:// source of this file (thread-safe: its
 * will_need may run on another thread while reads go on). */
bool pqt_io_is_remote(const pqt_io *io);
/* Does the remote source io hold bytes [off, off+len) already (a read of
 * them costs no request)? false for other sources. */
bool pqt_io_remote_holds(const pqt_io *io, uint64_t off, uint64_t len);

/* Parse "bytes a-b/total" (Content-Range; total may be "*": *total = UINT64_MAX).
 * Returns false when the value is not that form. Exposed for fuzzing. */
bool pqt_http_parse_content_range(const char *v, size_t n, uint64_t *a, uint64_t *b, uint64_t *total);

#endif
