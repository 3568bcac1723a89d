/*
 * parquetry_remote.h: byte sources over HTTP(S) and S3 (libcurl).
 *
 * pqt_io_open_url fills a pqt_io for http://, https:// or s3://bucket/key.
 * The first request is a suffix range (the last first_read_bytes of the
 * object) that learns the size and the validators (ETag, Last-Modified)
 * and usually brings the whole footer; the magic at offset 0 comes in the
 * same round trip. Later reads are range GETs: the ranges of a batch
 * (pqt_io.read_ranges, pqt_io.will_need) are merged when the gap between
 * them is at most max_gap bytes and the merged request at most max_merged
 * bytes (a longer range is cut into max_merged pieces), and issued with at
 * most max_in_flight requests at once over kept-alive connections (HTTP/2
 * when the server offers it). Ranges announced by will_need are kept in
 * memory (cache_bytes, oldest dropped first) for the reads that follow.
 *
 * Faults: connection errors, timeouts, HTTP 5xx and 429 are retried up to
 * max_retries times, waiting retry_base_ms, then twice as long each time
 * (at most 5 s). A server that ignores Range (200 with the whole body) is
 * handled by taking the requested slice out of the body. The object
 * changing during the read (a response whose ETag, or Last-Modified when
 * there is no ETag, differs from the first; or another size) is PQT_EIO,
 * never a mix of two versions. Every error names the URL (without
 * credentials or query string) and the byte range.
 *
 * S3: credentials come from the options, else AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; the region from s3_region,
 * else AWS_REGION (default us-east-1); the endpoint from s3_endpoint, else
 * AWS_ENDPOINT_URL (default https://s3.<region>.amazonaws.com).
 * Requests are signed with AWS Signature Version 4. No credentials at all
 * means anonymous (unsigned) requests.
 */
#ifndef PARQUETRY_REMOTE_H
#define PARQUETRY_REMOTE_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pqt_remote_options {
  size_t struct_size;         /* set by pqt_remote_options_init */
  uint64_t max_gap;           /* merge ranges at most this far apart (default 32 KiB) */
  uint64_t max_merged;        /* longest merged request (default 8 MiB) */
  int32_t max_in_flight;      /* concurrent requests (default 8) */
  int32_t max_retries;        /* retries of a failed request (default 4; -1: none) */
  int32_t retry_base_ms;      /* first wait before a retry (default 100) */
  int32_t timeout_ms;         /* one request, whole (default 60000) */
  int32_t connect_timeout_ms; /* default 10000 */
  int32_t insecure_tls;       /* 1: do not verify the server's certificate (default 0) */
  const char *ca_file;        /* PEM file of trusted CAs (NULL: the system's) */
  uint64_t cache_bytes;       /* memory for ranges announced by will_need (default 256 MiB) */
  uint64_t first_read_bytes;  /* the first request's suffix range (default 64 KiB) */
  /* S3 (s3:// URLs) */
  const char *s3_region;   /* NULL: $AWS_REGION, else us-east-1 */
  const char *s3_endpoint; /* NULL: $AWS_ENDPOINT_URL, else AWS's */
  int32_t s3_path_style;   /* 1: endpoint/bucket/key; 0: bucket.endpoint/key (AWS); default 0,
                              1 when the endpoint is an IP address or localhost */
  int32_t reserved0;
  const char *access_key_id;     /* NULL: $AWS_ACCESS_KEY_ID */
  const char *secret_access_key; /* NULL: $AWS_SECRET_ACCESS_KEY */
  const char *session_token;     /* NULL: $AWS_SESSION_TOKEN */
} pqt_remote_options;

PQT_API void pqt_remote_options_init_sized(pqt_remote_options *o, size_t struct_size);
/* Set struct_size and the defaults (0/NULL fields mean "default"). */
static inline void pqt_remote_options_init(pqt_remote_options *o) { pqt_remote_options_init_sized(o, sizeof *o); }

/* 1 when path is a URL pqt_io_open_url takes (http://, https://, s3://). */
PQT_API int pqt_is_url(const char *path);

/* A source over the object at url, into an io set up by pqt_io_init.
 * opts may be NULL (defaults). Release with io->release (or hand it to a
 * reader). */
PQT_API pqt_status pqt_io_open_url(pqt_io *io, const char *url, const pqt_remote_options *opts,
                                   const pqt_allocator *alloc, pqt_error *err);

/* pqt_reader_open over pqt_io_open_url. */
PQT_API pqt_status pqt_reader_open_url(pqt_reader **out, const char *url, const pqt_remote_options *ropts,
                                       const pqt_read_options *opts, pqt_error *err);

/* The requests a source from pqt_io_open_url has made so far (retries
 * included) and the body bytes it received; 0 for other sources. */
PQT_API void pqt_io_remote_counts(const pqt_io *io, uint64_t *requests, uint64_t *bytes);

/* One key of a listing. key is valid during the callback only. */
typedef struct pqt_s3_object {
  const char *key;
  uint64_t size;
  const char *etag;
} pqt_s3_object;

/* Every key under prefix in bucket (ListObjectsV2, following continuation
 * tokens), in the server's order; fn returning nonzero stops the listing
 * (PQT_OK). url is s3://bucket/prefix. */
PQT_API pqt_status pqt_s3_list(const char *url, const pqt_remote_options *opts,
                               int (*fn)(void *ctx, const pqt_s3_object *obj), void *ctx, pqt_error *err);

#ifdef __cplusplus
}
#endif
#endif
