/* Arrow format strings named as users write the types (arrow/format_name.c),
 * for messages: "tsu:UTC" -> "timestamp[us, tz=UTC]", "d:12,2" -> "decimal(12,2)". */
#include <string.h>

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

RUN_TESTS("format_name", TEST_CASE(test_names))
