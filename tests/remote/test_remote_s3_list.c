/*
 * pqt_s3_list against a live S3-compatible server: run by
 * tests/cli/test_remote_s3.sh (s3rver behind a signature-checking proxy),
 * which sets PQT_TEST_S3_BUCKET, AWS_ENDPOINT_URL and the credentials.
 * Alone (no server) it says so and is skipped (77).
 * Checks: a prefix lists exactly the keys uploaded under it, in order,
 * with their sizes; more than 1000 keys take several pages (continuation
 * tokens) and none is lost or repeated; a callback returning nonzero
 * stops; wrong credentials fail naming the listing URL, never the secret.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "parquetry_remote.h"

typedef struct seen {
  int n;
  int stop_after;
  uint64_t bytes;
  char last[256];
  int out_of_order;
} seen;

static int on_obj(void *ctx, const pqt_s3_object *o) {
  seen *s = ctx;
  if (s->n && strcmp(s->last, o->key) >= 0) s->out_of_order++;
  snprintf(s->last, sizeof s->last, "%s", o->key);
  s->n++;
  s->bytes += o->size;
  return s->stop_after && s->n >= s->stop_after;
}

static const char *bucket(void) { return getenv("PQT_TEST_S3_BUCKET"); }

static void test_list(void) {
  if (!bucket()) {
    printf("NOTE: no S3 server (run by tests/cli/test_remote_s3.sh)\n");
    pqt_t_current_skipped = 1;
    return;
  }
  char url[256];
  pqt_error e;
  seen s = {0};
  snprintf(url, sizeof url, "s3://%s/data/", bucket());
  CHECK_OK(pqt_s3_list(url, NULL, on_obj, &s, &e));
  CHECK_EQ_INT(s.n, atoi(getenv("PQT_TEST_S3_DATA_KEYS")));
  CHECK(s.bytes == strtoull(getenv("PQT_TEST_S3_DATA_BYTES"), NULL, 10));
  CHECK_EQ_INT(s.out_of_order, 0);
  memset(&s, 0, sizeof s);
  snprintf(url, sizeof url, "s3://%s/many/", bucket());
  CHECK_OK(pqt_s3_list(url, NULL, on_obj, &s, &e));
  CHECK_EQ_INT(s.n, atoi(getenv("PQT_TEST_S3_MANY_KEYS")));
  CHECK_EQ_INT(s.out_of_order, 0);
  memset(&s, 0, sizeof s);
  s.stop_after = 3;
  CHECK_OK(pqt_s3_list(url, NULL, on_obj, &s, &e));
  CHECK_EQ_INT(s.n, 3);
  memset(&s, 0, sizeof s);
  snprintf(url, sizeof url, "s3://%s/nothing-here/", bucket());
  CHECK_OK(pqt_s3_list(url, NULL, on_obj, &s, &e));
  CHECK_EQ_INT(s.n, 0);
  pqt_remote_options o;
  pqt_remote_options_init(&o);
  o.secret_access_key = "not-the-secret-xyz";
  snprintf(url, sizeof url, "s3://%s/data/", bucket());
  CHECK(pqt_s3_list(url, &o, on_obj, &s, &e) == PQT_EIO);
  CHECK(strstr(e.message, "SignatureDoesNotMatch") != NULL);
  CHECK(strstr(e.message, getenv("AWS_ENDPOINT_URL")) != NULL);
  CHECK(strstr(e.message, "not-the-secret-xyz") == NULL);
  printf("wrong secret: %s\n", e.message);
}

RUN_TESTS("remote_s3_list", TEST_CASE(test_list))
