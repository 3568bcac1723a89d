/*
 * arrow/format_name.c: readable names of Arrow format strings (Arrow C Data
 * Interface, "Data type description -- format strings"), in the spelling
 * Arrow's own type printers use: int32, utf8, timestamp[us, tz=UTC],
 * decimal(12,2), fixed_size_binary[16], list, struct, map.
 */
#include <stdio.h>
#include <string.h>

#include "arrow/format.h"
#include "arrow/format_name.h"

static const char *unit_name(char u) {
  switch (u) {
    case 's': return "s";
    case 'm': return "ms";
    case 'u': return "us";
    case 'n': return "ns";
    default: return NULL;
  }
}

const char *pqt_arrow_format_name(const char *f, char *buf, size_t n) {
  if (!buf || n == 0) return "";
  if (!f) {
    snprintf(buf, n, "(no format)");
    return buf;
  }
  static const struct {
    const char *fmt, *name;
  } simple[] = {
      {"n", "null"},
      {"b", "bool"},
      {"c", "int8"},
      {"C", "uint8"},
      {"s", "int16"},
      {"S", "uint16"},
      {"i", "int32"},
      {"I", "uint32"},
      {"l", "int64"},
      {"L", "uint64"},
      {"e", "float16"},
      {"f", "float32"},
      {"g", "float64"},
      {"z", "binary"},
      {"Z", "large_binary"},
      {"vz", "binary_view"},
      {"u", "utf8"},
      {"U", "large_utf8"},
      {"vu", "utf8_view"},
      {"tdD", "date32[day]"},
      {"tdm", "date64[ms]"},
      {"tts", "time32[s]"},
      {"ttm", "time32[ms]"},
      {"ttu", "time64[us]"},
      {"ttn", "time64[ns]"},
      {"tiM", "interval[months]"},
      {"tiD", "interval[day_time]"},
      {"tin", "interval[month_day_nano]"},
      {"+l", "list"},
      {"+L", "large_list"},
      {"+vl", "list_view"},
      {"+vL", "large_list_view"},
      {"+s", "struct"},
      {"+m", "map"},
      {"+r", "run_end_encoded"},
  };
  for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
    if (strcmp(f, simple[i].fmt) == 0) {
      snprintf(buf, n, "%s", simple[i].name);
      return buf;
    }
  pqt_arrow_format af;
  const char *u;
  if (!pqt_arrow_format_parse(f, &af)) {  // NOLINT(bugprone-branch-clone): unparsed and unnamed kinds both print the format as given
    snprintf(buf, n, "Arrow format '%s'", f);
  } else if (af.kind == PQT_AK_DECIMAL && af.width_given) {
    snprintf(buf, n, "decimal%d(%d,%d)", (int)af.bit_width, (int)af.precision, (int)af.scale);
  } else if (af.kind == PQT_AK_DECIMAL) {
    snprintf(buf, n, "decimal(%d,%d)", (int)af.precision, (int)af.scale);
  } else if (af.kind == PQT_AK_FIXED_BINARY) {
    snprintf(buf, n, "fixed_size_binary[%d]", (int)af.fixed_width);
  } else if (af.kind == PQT_AK_FIXED_LIST) {
    snprintf(buf, n, "fixed_size_list[%d]", (int)af.fixed_width);
  } else if (af.kind == PQT_AK_TIMESTAMP && (u = unit_name(af.unit)) != NULL) {
    if (af.tz) snprintf(buf, n, "timestamp[%s, tz=%s]", u, af.tz);
    else snprintf(buf, n, "timestamp[%s]", u);
  } else if (af.kind == PQT_AK_DURATION && (u = unit_name(af.unit)) != NULL) {
    snprintf(buf, n, "duration[%s]", u);
  } else if (af.kind == PQT_AK_UNION) {
    snprintf(buf, n, "%s_union", af.union_dense ? "dense" : "sparse");
  } else {
    snprintf(buf, n, "Arrow format '%s'", f);
  }
  return buf;
}
