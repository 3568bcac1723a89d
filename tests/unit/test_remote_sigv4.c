/*
 * S3 pieces of the remote IO (io/s3.c, io/http.c): AWS Signature Version 4
 * against the AWS SigV4 test suite's vectors (get-vanilla,
 * get-vanilla-query-order-key-case, post-vanilla: the ones botocore's
 * tests use) and the S3 documentation's GetObject and ListObjects
 * examples; the ListObjectsV2 page parser; the Content-Range parser; the
 * URL shown in errors.
 */
#include <stdio.h>

#include "harness.h"
#include "io/http.h"
#include "io/s3.h"

#define EMPTY "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static const char *sig_of(const char *auth) {
  const char *s = strstr(auth, "Signature=");
  return s ? s + 10 : "";
}

static void test_aws_suite(void) {
  const char *names[] = {"x-amz-date"}, *values[] = {"20150830T123600Z"};
  pqt_sigv4_request rq = {"GET", "example.amazonaws.com", "/", "", names, values, 1, EMPTY, "20150830T123600Z",
                          "us-east-1", "service", "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"};
  char auth[512];
  pqt_error e;
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK_EQ_STR(auth, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                     "SignedHeaders=host;x-amz-date, "
                     "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  rq.query = "Param2=value2&Param1=value1"; /* get-vanilla-query-order-key-case: sorted */
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK_EQ_STR(sig_of(auth), "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
  rq.query = "";
  rq.method = "POST"; /* post-vanilla */
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK_EQ_STR(sig_of(auth), "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

static void test_s3_examples(void) {
  /* the S3 documentation's GetObject example (a signed Range header) */
  const char *names[] = {"range", "x-amz-content-sha256", "x-amz-date"};
  const char *values[] = {"bytes=0-9", EMPTY, "20130524T000000Z"};
  pqt_sigv4_request rq = {"GET",      "examplebucket.s3.amazonaws.com", "/test.txt", NULL, names, values, 3, EMPTY,
                          "20130524T000000Z", "us-east-1", "s3", "AKIAIOSFODNN7EXAMPLE",
                          "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"};
  char auth[512];
  pqt_error e;
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK(strstr(auth, "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,") != NULL);
  CHECK_EQ_STR(sig_of(auth), "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  /* ListObjects: GET /?max-keys=2&prefix=J */
  rq.path = "/";
  rq.query = "max-keys=2&prefix=J";
  rq.names = names + 1;
  rq.values = values + 1;
  rq.n_headers = 2;
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK_EQ_STR(sig_of(auth), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  /* a wrong secret gives another signature */
  rq.secret_key = "wrong";
  CHECK_OK(pqt_sigv4_authorization(&rq, auth, sizeof auth, &e));
  CHECK(strcmp(sig_of(auth), "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") != 0);
  CHECK(strstr(auth, "wrong") == NULL);
}

static void test_uri_encode(void) {
  char out[64];
  CHECK(pqt_s3_uri_encode("a b/ü~.parquet", strlen("a b/ü~.parquet"), true, out, sizeof out));
  CHECK_EQ_STR(out, "a%20b/%C3%BC~.parquet");
  CHECK(pqt_s3_uri_encode("x=1/2", 5, false, out, sizeof out));
  CHECK_EQ_STR(out, "x%3D1%2F2");
  CHECK(!pqt_s3_uri_encode("abcdef", 6, false, out, 4));
}

typedef struct got {
  int n;
  char keys[4][64];
  uint64_t sizes[4];
} got;

static int on_obj(void *ctx, const pqt_s3_object *o) {
  got *g = ctx;
  if (g->n < 4) {
    snprintf(g->keys[g->n], sizeof g->keys[0], "%s", o->key);
    g->sizes[g->n] = o->size;
  }
  g->n++;
  return 0;
}

static void test_list_parse(void) {
  const char *page = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name>"
                     "<Prefix>year=2024/</Prefix><KeyCount>2</KeyCount><IsTruncated>true</IsTruncated>"
                     "<NextContinuationToken>tok&amp;1</NextContinuationToken>"
                     "<Contents><Key>year=2024/a&amp;b.parquet</Key><ETag>&quot;abc&quot;</ETag><Size>1234</Size></Contents>"
                     "<Contents><Key>year=2024/&#xFC;.parquet</Key><Size>0</Size></Contents>"
                     "</ListBucketResult>";
  got g = {0};
  bool trunc, stopped;
  char tok[64];
  pqt_error e;
  CHECK_OK(pqt_s3_parse_list(page, strlen(page), on_obj, &g, &trunc, tok, sizeof tok, &stopped, &e));
  CHECK_EQ_INT(g.n, 2);
  CHECK_EQ_STR(g.keys[0], "year=2024/a&b.parquet");
  CHECK(g.sizes[0] == 1234);
  CHECK_EQ_STR(g.keys[1], "year=2024/\xc3\xbc.parquet");
  CHECK(trunc);
  CHECK_EQ_STR(tok, "tok&1");
  const char *bad[] = {"<Error><Code>AccessDenied</Code></Error>",
                       "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
                       "<ListBucketResult><Contents><Key>k&bogus;</Key><Size>1</Size></Contents></ListBucketResult>",
                       "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
                       "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(pqt_s3_parse_list(bad[i], strlen(bad[i]), on_obj, &g, &trunc, tok, sizeof tok, &stopped, &e) ==
          PQT_ECORRUPT);
    CHECK(e.message[0] != 0);
  }
}

static void test_content_range_and_url(void) {
  uint64_t a, b, t;
  CHECK(pqt_http_parse_content_range("bytes 0-9/100", 13, &a, &b, &t) && a == 0 && b == 9 && t == 100);
  CHECK(pqt_http_parse_content_range("bytes 5-5/*", 11, &a, &b, &t) && t == UINT64_MAX);
  CHECK(!pqt_http_parse_content_range("bytes 9-0/100", 13, &a, &b, &t));
  CHECK(!pqt_http_parse_content_range("bytes 0-100/100", 15, &a, &b, &t));
  CHECK(!pqt_http_parse_content_range("bytes 0-99999999999999999999/1", 30, &a, &b, &t));
  CHECK(!pqt_http_parse_content_range("items 0-1/2", 11, &a, &b, &t));
  char shown[128];
  pqt_url_shown("https://me:pw@host:8443/a/b.parquet?X-Amz-Signature=s#f", shown, sizeof shown);
  CHECK_EQ_STR(shown, "https://host:8443/a/b.parquet");
  pqt_url_shown("http://host/x@y.parquet", shown, sizeof shown);
  CHECK_EQ_STR(shown, "http://host/x@y.parquet");
}

RUN_TESTS("remote_sigv4", TEST_CASE(test_aws_suite), TEST_CASE(test_s3_examples), TEST_CASE(test_uri_encode),
          TEST_CASE(test_list_parse), TEST_CASE(test_content_range_and_url))
