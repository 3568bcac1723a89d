/*
 * fuzz/fuzz_snappy_diff.c: differential libFuzzer target for the snappy
 * decompressor of our own (src/codec/snappy_decode.c) against libsnappy's
 * snappy_uncompress: on every input both must accept with the same bytes or
 * both reject. The input is taken as a snappy block as it is; every input is
 * also compressed by libsnappy and must come back unchanged through ours.
 * Declared lengths over 4 MiB are compared on the preamble only (no
 * allocation that size).
 */
#include <snappy-c.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/snappy_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t lib_len = 0, our_len = 0;
  bool lib_ok = snappy_uncompressed_length((const char *)data, size, &lib_len) == SNAPPY_OK;
  bool our_ok = pqt_snappy_declared_length(data, size, &our_len);
  if (lib_ok != our_ok || (lib_ok && lib_len != our_len)) abort();
  if (lib_ok && lib_len <= ((size_t)4 << 20)) {
    /* exact-size buffers (ASan sees any write past them) */
    uint8_t *a = malloc(lib_len ? lib_len : 1), *b = malloc(lib_len ? lib_len : 1);
    if (!a || !b) abort();
    size_t got = lib_len;
    bool la = snappy_uncompress((const char *)data, size, (char *)a, &got) == SNAPPY_OK && got == lib_len;
    bool lb = pqt_snappy_decode(data, size, b, lib_len);
    if (la != lb) abort();
    if (la && lib_len && memcmp(a, b, lib_len) != 0) abort();
    free(a);
    free(b);
  }
  /* round trip: libsnappy's compression of the input through our decoder */
  size_t cap = snappy_max_compressed_length(size), n = cap;
  char *c = malloc(cap ? cap : 1);
  uint8_t *back = malloc(size ? size : 1);
  if (!c || !back) abort();
  if (snappy_compress((const char *)data, size, c, &n) != SNAPPY_OK) abort();
  if (!pqt_snappy_decode((const uint8_t *)c, n, back, size)) abort();
  if (size && memcmp(back, data, size) != 0) abort();
  free(c);
  free(back);
  return 0;
}
