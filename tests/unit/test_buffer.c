/* Sticky pqt_buf errors (core/buffer.c): after the first failed allocation
 * every later append is a no-op that reports the same failure, so a caller
 * may append several times and check once with pqt_buf_status(). */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "harness.h"

/* An allocator that refuses any block larger than `max_bytes`. */
typedef struct capped {
  size_t max_bytes;
  int n_refused;
} capped;

static void *capped_realloc(void *ctx, void *p, size_t old_n, size_t new_n) {
  capped *c = ctx;
  (void)old_n;
  if (new_n > c->max_bytes) {
    c->n_refused++;
    return NULL;
  }
  return realloc(p, new_n);
}

static void capped_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

static void test_failure_is_sticky(void) {
  capped c = {128, 0};
  pqt_allocator a = {capped_realloc, capped_free, &c};
  pqt_buf b;
  pqt_buf_init(&b, &a);
  pqt_error e;
  pqt_error_init(&e);
  char big[200];
  memset(big, 'x', sizeof big);

  CHECK_OK(pqt_buf_append(&b, "head", 4, &e));
  CHECK_EQ_INT(pqt_buf_status(&b, &e), PQT_OK);
  CHECK_EQ_INT(pqt_buf_append(&b, big, sizeof big, &e), PQT_ENOMEM); /* needs > 128 bytes */
  CHECK_EQ_INT(c.n_refused, 1);
  CHECK_EQ_INT(b.len, 4);

  /* a small append would fit the current block, but the buffer failed:
   * no-op, same status, and no new allocation attempt */
  pqt_error e2;
  pqt_error_init(&e2);
  CHECK_EQ_INT(pqt_buf_append(&b, "y", 1, &e2), PQT_ENOMEM);
  CHECK_EQ_INT(e2.code, PQT_ENOMEM);
  CHECK_EQ_INT(pqt_buf_printf(&b, NULL, "%d", 42), PQT_ENOMEM);
  CHECK_EQ_INT(pqt_base64_append(&b, (const uint8_t *)"ab", 2, NULL), PQT_ENOMEM);
  CHECK_EQ_INT(pqt_json_string_append(&b, (const uint8_t *)"ab", 2, NULL), PQT_ENOMEM);
  CHECK_EQ_INT(pqt_buf_reserve(&b, 1, NULL), PQT_ENOMEM);
  CHECK_EQ_INT(pqt_buf_append(&b, "", 0, NULL), PQT_ENOMEM);
  CHECK_EQ_INT(b.len, 4);
  CHECK(memcmp(b.data, "head", 4) == 0);
  CHECK_EQ_INT(c.n_refused, 1);

  /* one check at the end sees it, with the error filled */
  pqt_error e3;
  pqt_error_init(&e3);
  CHECK_EQ_INT(pqt_buf_status(&b, &e3), PQT_ENOMEM);
  CHECK_EQ_INT(e3.code, PQT_ENOMEM);
  CHECK(strstr(e3.message, "memory") != NULL);

  /* clear starts over */
  pqt_buf_clear(&b);
  CHECK_EQ_INT(pqt_buf_status(&b, NULL), PQT_OK);
  CHECK_OK(pqt_buf_append(&b, "ok", 2, &e));
  CHECK_EQ_INT(b.len, 2);
  pqt_buf_free(&b);
  CHECK_EQ_INT(b.status, PQT_OK);
}

static void test_check_once_pattern(void) {
  /* the same sequence, results ignored, checked once: succeeds when
   * everything fits, fails when one step did not */
  for (int round = 0; round < 2; round++) {
    capped c = {round == 0 ? 4096 : 64, 0};
    pqt_allocator a = {capped_realloc, capped_free, &c};
    pqt_buf b;
    pqt_buf_init(&b, &a);
    (void)pqt_buf_printf(&b, NULL, "%s", "a fairly long first line of text, ");
    (void)pqt_buf_printf(&b, NULL, "%s", "and a second one that makes it longer than 64 bytes");
    (void)pqt_buf_append(&b, "!", 1, NULL);
    pqt_error e;
    pqt_error_init(&e);
    pqt_status st = pqt_buf_status(&b, &e);
    if (round == 0) {
      CHECK_EQ_INT(st, PQT_OK);
      CHECK_EQ_INT(b.len, 34 + 51 + 1);
      CHECK(b.data[b.len - 1] == '!');
    } else {
      CHECK_EQ_INT(st, PQT_ENOMEM);
      CHECK_EQ_INT(e.code, PQT_ENOMEM);
      CHECK_EQ_INT(b.len, 34); /* a prefix: the failed step and all later ones left out */
    }
    pqt_buf_free(&b);
  }
}

static void test_overflow_is_sticky(void) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_buf_append(&b, "z", 1, NULL));
  CHECK_EQ_INT(pqt_buf_reserve(&b, SIZE_MAX, NULL), PQT_ENOMEM); /* len + extra overflows */
  CHECK_EQ_INT(pqt_buf_append(&b, "z", 1, NULL), PQT_ENOMEM);
  CHECK_EQ_INT(b.len, 1);
  pqt_buf_free(&b);
}

static void test_zero_initialized_buffer_is_ok(void) {
  /* buffers built by {0} or memset (not pqt_buf_init) start out fine */
  pqt_buf b;
  memset(&b, 0, sizeof b);
  b.alloc = pqt_default_allocator();
  CHECK_EQ_INT(pqt_buf_status(&b, NULL), PQT_OK);
  CHECK_OK(pqt_buf_append(&b, "abc", 3, NULL));
  CHECK_EQ_INT(b.len, 3);
  pqt_buf_free(&b);
}

RUN_TESTS("buffer", TEST_CASE(test_failure_is_sticky), TEST_CASE(test_check_once_pattern),
          TEST_CASE(test_overflow_is_sticky), TEST_CASE(test_zero_initialized_buffer_is_ok))
