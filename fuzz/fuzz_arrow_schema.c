/* libFuzzer target for the ARROW:schema decoder (src/arrow/arrow_schema_ipc.c):
 * the input is decoded as raw IPC bytes (framed or bare Message flatbuffer)
 * and as base64 text. Whenever a decode succeeds the tree is encoded,
 * decoded again and compared (deep equality); the re-encoding must then be
 * byte-identical. An error must carry its code. The first input byte
 * selects a tight arena limit for some runs so the allocation-failure
 * paths are exercised. */
#include <stdio.h>
#include <stdlib.h>

#include "arrow/arrow_schema_ipc.h"
#include "core/core.h"

static void roundtrip(const pqt_arrow_schema *s) {
  pqt_buf e1, e2;
  pqt_buf_init(&e1, NULL);
  pqt_buf_init(&e2, NULL);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_arrow_schema back;
  /* every tree the decoder returns is one the encoder accepts */
  if (pqt_arrow_schema_encode_ipc(s, &e1, NULL) != PQT_OK) abort();
  if (pqt_arrow_schema_decode_ipc(e1.data, e1.len, &a, &back, NULL) != PQT_OK) abort();
  if (!pqt_arrow_fields_equal(s->fields, s->n_fields, back.fields, back.n_fields)) abort();
  if (back.n_metadata != s->n_metadata || back.big_endian != s->big_endian) abort();
  if (pqt_arrow_schema_encode_ipc(&back, &e2, NULL) != PQT_OK) abort();
  /* the encoder always writes V5, so both encodings must be identical */
  if (e1.len != e2.len || memcmp(e1.data, e2.data, e1.len) != 0) abort();
  pqt_arena_reset(&a);
  pqt_buf_free(&e1);
  pqt_buf_free(&e2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  a.limit_bytes = (size && data[0] == 0x7e) ? 2048 : (64u << 20);
  pqt_arrow_schema s;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_arrow_schema_decode_ipc(data, size, &a, &s, &err);
  if (st == PQT_OK) roundtrip(&s);
  else if (err.code != st) abort();
  pqt_arena_reset(&a);

  pqt_error_init(&err);
  st = pqt_arrow_schema_decode_ex((const char *)data, size, &a, &s, &err);
  if (st == PQT_OK) roundtrip(&s);
  else if (err.code != st) abort();
  pqt_arena_reset(&a);
  return 0;
}
