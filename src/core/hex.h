/* core/hex.h: the value of one hexadecimal digit, the one copy used by
 * every text parser (UUID and binary literals, typed values, schema text,
 * JSON \u escapes). */
#ifndef PQT_CORE_HEX_H
#define PQT_CORE_HEX_H

/* 0..15 for '0'-'9', 'a'-'f', 'A'-'F'; -1 for anything else. */
static inline int pqt_hex_digit(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

#endif
