/* libFuzzer target for the key tools' key material (src/crypto/
 * key_material_json.c, src/crypto/keytools.c): any bytes as key_metadata,
 * as key material and as an external material file must parse or be
 * refused with PQT_ECRYPTO and a message; a parsed material written back
 * parses to the same fields; and the key retriever (an in-memory KMS with
 * master keys kf, kc1, kc2) on the bytes as key_metadata gives a key of 16,
 * 24 or 32 bytes or a PQT_ECRYPTO error. */
#include <stdlib.h>
#include <string.h>

#include "crypto/key_material_json.h"
#include "parquetry_keytools.h"

static bool same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

static void check_round_trip(const pqt_key_material *m) {
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_error e;
  pqt_error_init(&e);
  if (pqt_key_material_write(m, false, &b, &e) != PQT_OK) abort();
  pqt_key_material r;
  if (pqt_key_material_parse((const char *)b.data, b.len, false, &r, &e) != PQT_OK) abort();
  if (r.is_footer_key != m->is_footer_key || r.double_wrapping != m->double_wrapping) abort();
  if (!same(r.master_key_id, m->master_key_id) || !same(r.wrapped_dek, m->wrapped_dek)) abort();
  if (m->double_wrapping && (!same(r.kek_id, m->kek_id) || !same(r.wrapped_kek, m->wrapped_kek))) abort();
  pqt_key_material_free(&r);
  pqt_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  const char *s = (const char *)data;
  pqt_error e;
  pqt_error_init(&e);
  pqt_key_material m;
  pqt_status st = pqt_key_material_parse(s, size, false, &m, &e);
  if (st != PQT_OK && (st != PQT_ECRYPTO || !e.message[0])) abort();
  if (st == PQT_OK) {
    check_round_trip(&m);
    pqt_key_material_free(&m);
  }
  pqt_error_init(&e);
  st = pqt_key_metadata_parse(s, size, &m, &e);
  if (st != PQT_OK && (st != PQT_ECRYPTO || !e.message[0])) abort();
  if (st == PQT_OK) {
    if (!m.internal_storage && !m.key_reference) abort();
    pqt_key_material_free(&m);
  }
  pqt_json_flat j;
  st = pqt_json_flat_parse(s, size, "file", &j, &e);
  if (st != PQT_OK && st != PQT_ECRYPTO) abort();
  if (st == PQT_OK) pqt_json_flat_free(&j);

  /* the retriever: internal material only (no file path) */
  pqt_inmemory_kms *kms;
  if (pqt_inmemory_kms_new(&kms, &e) != PQT_OK) return 0;
  pqt_inmemory_kms_add_key(kms, "kf", (const uint8_t *)"0123456789012345", 16, &e);
  pqt_inmemory_kms_add_key(kms, "kc1", (const uint8_t *)"1234567890123450", 16, &e);
  pqt_inmemory_kms_add_key(kms, "kc2", (const uint8_t *)"123456789012345612345678", 24, &e);
  pqt_kms_client c;
  pqt_inmemory_kms_client(kms, &c);
  pqt_keytools_reader *kr;
  if (pqt_keytools_reader_new(&kr, &c, NULL, &e) == PQT_OK) {
    for (int k = 0; k < 2; k++) {
      uint8_t key[32];
      size_t key_len = 0;
      pqt_error_init(&e);
      st = pqt_keytools_key_retriever(kr, data, size, k ? "a.b" : NULL, key, &key_len, &e);
      if (st == PQT_OK && key_len != 16 && key_len != 24 && key_len != 32) abort();
      if (st != PQT_OK && (st != PQT_ECRYPTO || !e.message[0])) abort();
    }
    pqt_keytools_reader_free(kr);
  }
  pqt_inmemory_kms_free(kms);
  return 0;
}
