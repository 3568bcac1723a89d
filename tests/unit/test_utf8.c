/* Unit tests for core/utf8: whole-buffer validation and value boundaries. */
#include "core/utf8.h"
#include "harness.h"
#include "parquetry.h"

static void test_invalid_at(void) {
  const char *ok = "plain ascii text, long enough for the word loop \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 end";
  CHECK_EQ_INT(pqt_utf8_invalid_at((const uint8_t *)ok, strlen(ok)), strlen(ok));
  struct {
    const char *s;
    size_t n;
    size_t bad;
  } cases[] = {
      {"ab\x80", 3, 2},           /* lone continuation */
      {"\xc0\xaf", 2, 0},         /* overlong '/' */
      {"\xe0\x80\xaf", 3, 0},     /* overlong */
      {"\xed\xa0\x80", 3, 0},     /* surrogate U+D800 */
      {"\xf4\x90\x80\x80", 4, 0}, /* above U+10FFFF */
      {"abcdefgh\xc3", 9, 8},     /* truncated at the end, after a word */
      {"\xc3\x28", 2, 0},         /* bad continuation */
      {"\xf8\x88\x80\x80\x80", 5, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK_MSG(pqt_utf8_invalid_at((const uint8_t *)cases[i].s, cases[i].n) == cases[i].bad, "case %zu", i);
}

static void test_values_and_boundaries(void) {
  const uint8_t data[] =
      "ab\xc3\xa9"
      "cd";
  int32_t good[] = {0, 2, 4, 6};
  CHECK_OK(pqt_utf8_validate_values(data, good, 3, NULL));
  int32_t split[] = {0, 3, 6}; /* "ab\xc3" | "\xa9cd": valid as a whole, not per value */
  pqt_error e;
  pqt_error_init(&e);
  CHECK_EQ_INT(pqt_utf8_validate_values(data, split, 2, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "value 1") != NULL);
  const uint8_t bad[] = "okok\xff";
  int32_t offs[] = {0, 2, 4, 5};
  CHECK_EQ_INT(pqt_utf8_validate_values(bad, offs, 3, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "value 2") != NULL);
  int32_t empty_last[] = {0, 2, 4, 4};
  CHECK_OK(pqt_utf8_validate_values(bad, empty_last, 3, NULL));
}

static pqt_status sink_null(void *ctx, const char *d, size_t n) {
  (void)ctx;
  (void)d;
  (void)n;
  return PQT_OK;
}

/* A STRING column with an invalid byte: an error naming the place, unless
 * validation is turned off (seed 004's file; its page CRC is then wrong
 * too, so checksums are off in both reads). */
static void test_string_column_validated(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_simple.parquet", PQT_SOURCE_DIR);
  size_t len;
  uint8_t *buf = pqt_test_read_file(path, &len);
  CHECK(buf && len == 307);
  if (!buf) return;
  CHECK(memcmp(buf + 0x2d, "text2", 5) == 0);
  buf[0x2d + 4] = 0xff; /* "text2" -> "text\xff" */
  for (int validate = 1; validate >= 0; validate--) {
    pqt_read_options o;
    pqt_read_options_init(&o);
    o.verify_checksums = 0;
    o.validate_utf8 = validate;
    pqt_reader *r;
    pqt_error e;
    pqt_error_init(&e);
    CHECK_OK(pqt_reader_open_buffer(&r, buf, len, &o, &e));
    pqt_status st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, sink_null, NULL, &e);
    if (validate) {
      CHECK_EQ_INT(st, PQT_ECORRUPT);
      CHECK(strstr(e.message, "invalid UTF-8 in value 1") && strstr(e.message, "column text") &&
            strstr(e.message, "page 0"));
    } else {
      CHECK_EQ_INT(st, PQT_OK);
    }
    pqt_reader_close(r);
  }
  free(buf);
}

RUN_TESTS("utf8", TEST_CASE(test_string_column_validated), TEST_CASE(test_invalid_at),
          TEST_CASE(test_values_and_boundaries))
