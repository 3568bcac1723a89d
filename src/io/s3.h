/*
 * io/s3.h: AWS Signature Version 4 and the ListObjectsV2 response parser
 * behind s3:// URLs (io/s3.c). Exposed for the tests (the AWS SigV4 test
 * suite's vectors) and the fuzz target.
 */
#ifndef PQT_IO_S3_H
#define PQT_IO_S3_H

#include "core/core.h"
#include "parquetry_remote.h"

typedef struct pqt_sigv4_request {
  const char *method;       /* "GET" */
  const char *host;         /* the Host header as sent: "bucket.s3.amazonaws.com", "127.0.0.1:9000" */
  const char *path;         /* URI-encoded, as sent ("/" at least) */
  const char *query;        /* as sent, without '?' (NULL or ""), each name and value URI-encoded */
  const char *const *names; /* other signed headers, lower case ("x-amz-date", "range", ...) */
  const char *const *values;
  size_t n_headers;
  const char *payload_hash; /* hex SHA-256 of the body, or "UNSIGNED-PAYLOAD" */
  const char *amz_date;     /* "20150830T123600Z" (also an x-amz-date header among names) */
  const char *region, *service, *access_key, *secret_key;
} pqt_sigv4_request;

/* The Authorization header's value, NUL-terminated, into out. */
pqt_status pqt_sigv4_authorization(const pqt_sigv4_request *rq, char *out, size_t cap, pqt_error *err);

/* URI-encode s (n bytes) the way SigV4 wants: unreserved characters as
 * they are, '/' kept when keep_slash, every other byte %XX. Into out
 * (NUL-terminated); false when it does not fit. */
bool pqt_s3_uri_encode(const char *s, size_t n, bool keep_slash, char *out, size_t cap);

/* One ListObjectsV2 page: fn for each <Contents> (key decoded), *truncated
 * from <IsTruncated>, the next continuation token (decoded) into token.
 * PQT_ECORRUPT naming what is wrong for a body that is not such a page;
 * fn returning nonzero stops (*stopped = true). */
pqt_status pqt_s3_parse_list(const char *xml, size_t n, int (*fn)(void *ctx, const pqt_s3_object *obj), void *ctx,
                             bool *truncated, char *token, size_t token_cap, bool *stopped, pqt_error *err);

#endif
