/*
 * tests/unit/test_dataset_null.c: the all-NULL arrays a dataset gives for a
 * column a file lacks (pqt_ds_null_array), for every fixed-width Arrow type:
 * the values buffer holds exactly width * length zero bytes (read in full
 * under ASan, so a buffer sized too small fails), and formats that are not
 * fixed width, or malformed, are refused with PQT_EUNSUPPORTED.
 */
#include <string.h>

#include "dataset/dataset_internal.h"
#include "harness.h"

static struct ArrowSchema leaf(const char *format) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof s);
  s.format = format;
  s.name = "x";
  s.flags = ARROW_FLAG_NULLABLE;
  return s;
}

static void test_fixed_widths(void) {
  static const struct {
    const char *format;
    size_t width;
  } cases[] = {{"c", 1},      {"C", 1},        {"s", 2},         {"S", 2},           {"e", 2},   {"i", 4},
               {"I", 4},      {"f", 4},        {"l", 8},         {"L", 8},           {"g", 8},   {"tdD", 4},
               {"tdm", 8},    {"tts", 4},      {"ttm", 4},       {"ttu", 8},         {"ttn", 8}, {"tDs", 8},
               {"tDn", 8},    {"tss:", 8},     {"tsu:UTC", 8},   {"tiM", 4},         {"tiD", 8}, {"tin", 16},
               {"d:5,2", 16}, {"d:5,2,32", 4}, {"d:12,2,64", 8}, {"d:40,2,256", 32}, {"w:7", 7}};
  const int64_t n = 5;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct ArrowSchema s = leaf(cases[i].format);
    struct ArrowArray a;
    pqt_error e;
    pqt_status st = pqt_ds_null_array(&s, n, &a, &e);
    CHECK_MSG(st == PQT_OK, "%s: %d", cases[i].format, st);
    if (st != PQT_OK) continue;
    CHECK_EQ_INT(a.length, n);
    CHECK_EQ_INT(a.null_count, n);
    CHECK_EQ_INT(a.n_buffers, 2);
    const uint8_t *v = a.buffers[1];
    size_t nonzero = 0;
    for (size_t b = 0; b < cases[i].width * (size_t)n; b++) nonzero += v[b] != 0;
    CHECK_MSG(nonzero == 0, "%s: %zu nonzero bytes", cases[i].format, nonzero);
    a.release(&a);
  }
}

static void test_not_fixed_width(void) {
  static const char *const formats[] = {"w:0", "w:", "d:5", "tx", "q", "+w:x"};
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    struct ArrowSchema s = leaf(formats[i]);
    struct ArrowArray a;
    pqt_error e;
    CHECK_MSG(pqt_ds_null_array(&s, 3, &a, &e) == PQT_EUNSUPPORTED, "%s accepted", formats[i]);
  }
  /* a dictionary whose index type is not an integer width */
  struct ArrowSchema dict = leaf("u");
  struct ArrowSchema s = leaf("u");
  s.dictionary = &dict;
  struct ArrowArray a;
  pqt_error e;
  CHECK(pqt_ds_null_array(&s, 3, &a, &e) == PQT_EUNSUPPORTED);
  s.format = "i";
  CHECK_OK(pqt_ds_null_array(&s, 3, &a, &e));
  if (a.release) {
    const int32_t *idx = a.buffers[1];
    CHECK(idx[0] == 0 && idx[2] == 0);
    CHECK(a.dictionary != NULL && a.dictionary->length == 0);
    a.release(&a);
  }
}

RUN_TESTS("dataset_null", TEST_CASE(test_fixed_widths), TEST_CASE(test_not_fixed_width))
