/*
 * arrow/format_name.c: readable names of Arrow format strings (Arrow C Data
 * Interface, "Data type description -- format strings"), in the spelling
 * Arrow's own type printers use: int32, utf8, timestamp[us, tz=UTC],
 * decimal(12,2), fixed_size_binary[16], list, struct, map.
 */
#include <stdio.h>
#include <string.h>

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
  int p = 0, s = 0, w = 0;
  const char *u;
  if (f[0] == 'd' && f[1] == ':' && sscanf(f + 2, "%d,%d,%d", &p, &s, &w) == 3) {
    snprintf(buf, n, "decimal%d(%d,%d)", w, p, s);
  } else if (f[0] == 'd' && f[1] == ':' && sscanf(f + 2, "%d,%d", &p, &s) == 2) {
    snprintf(buf, n, "decimal(%d,%d)", p, s);
  } else if (f[0] == 'w' && f[1] == ':') {
    snprintf(buf, n, "fixed_size_binary[%s]", f + 2);
  } else if (f[0] == '+' && f[1] == 'w' && f[2] == ':') {
    snprintf(buf, n, "fixed_size_list[%s]", f + 3);
  } else if (f[0] == 't' && f[1] == 's' && (u = unit_name(f[2])) != NULL && f[3] == ':') {
    if (f[4]) snprintf(buf, n, "timestamp[%s, tz=%s]", u, f + 4);
    else snprintf(buf, n, "timestamp[%s]", u);
  } else if (f[0] == 't' && f[1] == 'D' && (u = unit_name(f[2])) != NULL && !f[3]) {
    snprintf(buf, n, "duration[%s]", u);
  } else if (f[0] == '+' && f[1] == 'u' && (f[2] == 'd' || f[2] == 's') && f[3] == ':') {
    snprintf(buf, n, "%s_union", f[2] == 'd' ? "dense" : "sparse");
  } else {
    snprintf(buf, n, "Arrow format '%s'", f);
  }
  return buf;
}
