/*
 * tests/arrow_width.h: the bytes one value of a fixed-width Arrow type
 * takes, from its C Data Interface format string (Arrow's "Data type
 * description -- format strings"). Written here from that table, apart
 * from src/arrow/format.c, so the tests that walk exported arrays check
 * the library against the format's definition rather than against itself.
 */
#ifndef PQT_TESTS_ARROW_WIDTH_H
#define PQT_TESTS_ARROW_WIDTH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* -1 when f is not a fixed-width type (or not one this table knows). */
static inline int64_t pqt_test_arrow_width(const char *f) {
  if (f[0] && !f[1]) {
    switch (f[0]) {
      case 'c':
      case 'C': return 1;
      case 's':
      case 'S':
      case 'e': return 2;
      case 'i':
      case 'I':
      case 'f': return 4;
      case 'l':
      case 'L':
      case 'g': return 8;
      default: return -1;
    }
  }
  if (strcmp(f, "tdD") == 0 || strcmp(f, "tts") == 0 || strcmp(f, "ttm") == 0 || strcmp(f, "tiM") == 0) return 4;
  if (strcmp(f, "tdm") == 0 || strcmp(f, "ttu") == 0 || strcmp(f, "ttn") == 0 || strcmp(f, "tiD") == 0) return 8;
  if (strcmp(f, "tin") == 0) return 16;
  if (strncmp(f, "tD", 2) == 0 || strncmp(f, "ts", 2) == 0) return 8; /* duration, timestamp */
  if (strncmp(f, "w:", 2) == 0) return atoi(f + 2);
  if (strncmp(f, "d:", 2) == 0) { /* d:P,S or d:P,S,BITS (128 unless given) */
    const char *first = strchr(f, ','), *last = strrchr(f, ',');
    int bits = first && last != first ? atoi(last + 1) : 128;
    return bits / 8;
  }
  return -1;
}

#endif
