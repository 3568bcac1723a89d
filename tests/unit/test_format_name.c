/* Arrow format strings named as users write the types (arrow/format_name.c),
 * for messages: "tsu:UTC" -> "timestamp[us, tz=UTC]", "d:12,2" -> "decimal(12,2)". */
#include <string.h>

#include "arrow/format.h"
#include "arrow/format_name.h"
#include "harness.h"

static void test_names(void) {
  static const struct {
    const char *fmt, *name;
  } cases[] = {
      {"i", "int32"},
      {"L", "uint64"},
      {"u", "utf8"},
      {"Z", "large_binary"},
      {"tsu:UTC", "timestamp[us, tz=UTC]"},
      {"tsn:", "timestamp[ns]"},
      {"tss:Europe/Paris", "timestamp[s, tz=Europe/Paris]"},
      {"d:12,2", "decimal(12,2)"},
      {"d:40,5,256", "decimal256(40,5)"},
      {"w:16", "fixed_size_binary[16]"},
      {"tdD", "date32[day]"},
      {"ttn", "time64[ns]"},
      {"tDm", "duration[ms]"},
      {"+l", "list"},
      {"+w:3", "fixed_size_list[3]"},
      {"+s", "struct"},
      {"+m", "map"},
      {"+ud:0,1", "dense_union"},
      {"?x", "Arrow format '?x'"},
  };
  char buf[64];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK_EQ_STR(pqt_arrow_format_name(cases[i].fmt, buf, sizeof buf), cases[i].name);
  /* cut to the buffer, never past it */
  char small[8];
  memset(small, 'x', sizeof small);
  pqt_arrow_format_name("tsu:UTC", small, 6);
  CHECK_EQ_STR(small, "times");
  CHECK_EQ_INT(small[6], 'x');
  CHECK_EQ_STR(pqt_arrow_format_name(NULL, buf, sizeof buf), "(no format)");
}

/* The one parser (arrow/format.c) every layer uses. */
static void test_parse(void) {
  pqt_arrow_format f;
  CHECK(pqt_arrow_format_parse("c", &f) && f.kind == PQT_AK_INT && f.bit_width == 8 && f.is_signed);
  CHECK(pqt_arrow_format_parse("L", &f) && f.kind == PQT_AK_INT && f.bit_width == 64 && !f.is_signed);
  CHECK(pqt_arrow_format_parse("e", &f) && f.kind == PQT_AK_FLOAT && f.bit_width == 16);
  CHECK(pqt_arrow_format_parse("tdm", &f) && f.kind == PQT_AK_DATE && f.unit == 'm' && f.bit_width == 64);
  CHECK(pqt_arrow_format_parse("tts", &f) && f.kind == PQT_AK_TIME && f.unit == 's' && f.bit_width == 32);
  CHECK(pqt_arrow_format_parse("ttn", &f) && f.kind == PQT_AK_TIME && f.unit == 'n' && f.bit_width == 64);
  CHECK(pqt_arrow_format_parse("tDu", &f) && f.kind == PQT_AK_DURATION && f.unit == 'u');
  CHECK(pqt_arrow_format_parse("tsu:UTC", &f) && f.kind == PQT_AK_TIMESTAMP && f.unit == 'u' && f.tz &&
        strcmp(f.tz, "UTC") == 0);
  CHECK(pqt_arrow_format_parse("tsm:", &f) && f.kind == PQT_AK_TIMESTAMP && f.unit == 'm' && f.tz == NULL);
  CHECK(pqt_arrow_format_parse("d:12,2", &f) && f.kind == PQT_AK_DECIMAL && f.precision == 12 && f.scale == 2 &&
        f.bit_width == 128 && !f.width_given);
  CHECK(pqt_arrow_format_parse("d:40,-3,256", &f) && f.precision == 40 && f.scale == -3 && f.bit_width == 256 &&
        f.width_given);
  CHECK(pqt_arrow_format_parse("w:16", &f) && f.kind == PQT_AK_FIXED_BINARY && f.fixed_width == 16);
  CHECK(pqt_arrow_format_parse("+w:3", &f) && f.kind == PQT_AK_FIXED_LIST && f.fixed_width == 3);
  CHECK(pqt_arrow_format_parse("+L", &f) && f.kind == PQT_AK_LARGE_LIST);
  CHECK(pqt_arrow_format_parse("+ud:0,5", &f) && f.kind == PQT_AK_UNION && f.union_dense && f.n_union_ids == 2 &&
        f.union_ids[1] == 5);
  CHECK(pqt_arrow_format_parse("+us:", &f) && f.kind == PQT_AK_UNION && !f.union_dense && f.n_union_ids == 0);
  /* malformed: trailing bytes, bad numbers, unknown units */
  static const char *bad[] = {"",      "x",    "ii",  "d:0,2", "d:12", "d:12,2,100", "d:12,2x", "w:",  "w:-1",
                              "w:16x", "tsx:", "tsu", "ttx",   "tDx",  "+ud:0,",     "+ud:128", "+u:", NULL};
  for (size_t i = 0; bad[i]; i++) {
    f.kind = PQT_AK_INT;
    CHECK_MSG(!pqt_arrow_format_parse(bad[i], &f) && f.kind == PQT_AK_INVALID, "'%s'", bad[i]);
  }
  CHECK(!pqt_arrow_format_parse(NULL, &f));
  CHECK_EQ_INT(pqt_arrow_unit_pow10('u'), 6);
  CHECK_EQ_INT(pqt_arrow_unit_pow10('x'), -1);
}

RUN_TESTS("format_name", TEST_CASE(test_names), TEST_CASE(test_parse))
