/*
 * codec/snappy_decode.c: see snappy_decode.h. A block is a varint32 length,
 * then elements, each a tag byte whose low two bits say what it is:
 *   00 literal: length (tag >> 2) + 1, or for 60..63 the next 1..4 bytes
 *      (little-endian) + 1; the bytes follow;
 *   01 copy: length 4 + ((tag >> 2) & 7), offset ((tag >> 5) << 8) | next byte;
 *   10 copy: length (tag >> 2) + 1, offset the next 2 bytes;
 *   11 copy: length (tag >> 2) + 1, offset the next 4 bytes;
 * a copy repeats `length` bytes starting `offset` bytes back in the output
 * (overlapping: a repeated pattern). Offset 0 or past the start of the
 * output, or anything past either end, is an error; the output must come
 * out at exactly the declared length.
 *
 * Speed: short literals and copies move 16 bytes at once where both buffers
 * have that much room (the extra bytes are rewritten by what follows or lie
 * past the current end inside dst); only the last bytes of dst go byte by
 * byte.
 */
#include "codec/snappy_decode.h"

static inline void copy16(uint8_t *d, const uint8_t *s) { memcpy(d, s, 16); }

bool pqt_snappy_declared_length(const uint8_t *src, size_t src_len, size_t *out) {
  uint32_t v = 0;
  for (size_t i = 0; i < 5; i++) {
    if (i >= src_len) return false;
    uint32_t b = src[i];
    uint32_t bits = b & 0x7f;
    /* the fifth byte may carry only the top 4 bits of 32 */
    if (i == 4 && bits > 0x0f) return false;
    v |= bits << (7 * i);
    if (b < 0x80) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* Byte-by-byte copy from `off` back (handles every overlap). */
static inline void copy_slow(uint8_t *op, size_t off, size_t len) {
  const uint8_t *s = op - off;
  for (size_t i = 0; i < len; i++) op[i] = s[i];
}

bool pqt_snappy_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
  size_t declared;
  if (!pqt_snappy_declared_length(src, src_len, &declared) || declared != dst_len) return false;
  const uint8_t *ip = src, *ip_end = src + src_len;
  while (*ip++ & 0x80) {}
  uint8_t *op = dst;
  uint8_t *const op_end = dst + dst_len;
  while (ip < ip_end) {
    uint32_t tag = *ip++;
    size_t left = (size_t)(op_end - op);
    if ((tag & 3) == 0) {
      size_t len = (tag >> 2) + 1;
      if (len <= 16 && (size_t)(ip_end - ip) >= 16 && left >= 16) {
        copy16(op, ip); /* the 16 - len extra bytes are overwritten later or lie inside dst */
        ip += len;
        op += len;
        continue;
      }
      if (len > 60) {
        size_t nb = len - 60; /* 1..4 length bytes */
        if ((size_t)(ip_end - ip) < nb) return false;
        uint32_t l = 0;
        for (size_t i = 0; i < nb; i++) l |= (uint32_t)ip[i] << (8 * i);
        ip += nb;
        len = (size_t)(uint32_t)(l + 1u); /* 32-bit, as libsnappy */
      }
      if ((size_t)(ip_end - ip) < len || left < len) return false;
      memcpy(op, ip, len);
      ip += len;
      op += len;
      continue;
    }
    size_t len, off;
    switch (tag & 3) {
      case 1:
        if (ip >= ip_end) return false;
        len = 4 + ((tag >> 2) & 7);
        off = ((size_t)(tag >> 5) << 8) | *ip++;
        break;
      case 2:
        if ((size_t)(ip_end - ip) < 2) return false;
        len = (tag >> 2) + 1;
        off = (size_t)ip[0] | ((size_t)ip[1] << 8);
        ip += 2;
        break;
      default:
        if ((size_t)(ip_end - ip) < 4) return false;
        len = (tag >> 2) + 1;
        off = pqt_load_u32le(ip);
        ip += 4;
        break;
    }
    if (off == 0 || off > (size_t)(op - dst) || len > left) return false;
    if (off >= 16 && left >= len + 16) {
      /* no overlap within a 16-byte step */
      const uint8_t *s = op - off;
      for (size_t i = 0; i < len; i += 16) copy16(op + i, s + i);
    } else if (off >= 8 && left >= len + 8) {
      const uint8_t *s = op - off;
      for (size_t i = 0; i < len; i += 8) memcpy(op + i, s + i, 8);
    } else {
      copy_slow(op, off, len);
    }
    op += len;
  }
  return op == op_end;
}
