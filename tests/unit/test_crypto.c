/* Unit tests for crypto/crypto.h: module framing, AAD layout, GCM and CTR
 * against vectors computed independently (Python's `cryptography` package,
 * AESGCM / AES-CTR, with the AAD and IV built by hand from the spec), round
 * trips for every module type and key size, tampering, truncation and
 * ordinal limits. The corpus side is tests/conformance/test_encrypted_corpus.c. */
#include "core/core.h"
#include "crypto/crypto.h"
#include "harness.h"

static size_t unhex(const char *s, uint8_t *out) {
  size_t n = 0;
  for (; s[0] && s[1]; s += 2) {
    unsigned v;
    sscanf(s, "%2x", &v);
    out[n++] = (uint8_t)v;
  }
  return n;
}

static const uint8_t kPlain[] = "hello parquet modular encryption"; /* 32 bytes + NUL */
#define PLAIN_LEN 32
static const uint8_t kNonce[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

static void file_aad(uint8_t out[14]) {
  memcpy(out, "tester", 6);
  unhex("a1b2c3d4e5f60718", out + 6);
}

typedef struct vector {
  const char *name;
  const char *key;
  int32_t algorithm;
  int module_type;
  int32_t row_group, column, page;
  const char *module_hex;
} vector;

static const vector kVectors[] = {
    {"gcm128 data page header", "0123456789012345", PQT_AES_GCM_V1, PQT_MODULE_DATA_PAGE_HEADER, 1, 2, 3,
     "3c000000000102030405060708090a0bc89170b4543a9ec8cf8fd93a8abeb7b94f3f2f2b38cd2af874a85588e0bccd7f9dcfa68202b3f2013"
     "2"
     "75af3f54ecabf0"},
    {"gcm256 footer", "01234567890123456789012345678901", PQT_AES_GCM_V1, PQT_MODULE_FOOTER, 0, 0, 0,
     "3c000000000102030405060708090a0b927f7ed9f2c93d35341a8a77c868717bf36781be2d8a9eb64b95510845c0055db45f65688915a218"
     "73f32c5a6f5a1ed0"},
    {"ctr192 data page", "012345678901234567890123", PQT_AES_GCM_CTR_V1, PQT_MODULE_DATA_PAGE, 0, 0, 0,
     "2c000000000102030405060708090a0b64e97f9ffd97c410a701147ef77498a40eb296bb62e346f818d46a4e0b67b06a"},
    {"gcm192 column metadata, row group 300", "012345678901234567890123", PQT_AES_GCM_CTR_V1,
     PQT_MODULE_COLUMN_METADATA, 300, 5, 0,
     "3c000000000102030405060708090a0b02a296b67fe353f709d7665b0b2eb26b1bc1dd22f4d0395c3cb9b7675b1a84ccced347bd46cdfc4f"
     "edd7d80ad566c645"},
};

static void init_for(const vector *v, pqt_module_decryptor *d, const uint8_t *aad) {
  pqt_error e;
  CHECK_OK(pqt_module_decryptor_init(d, v->algorithm, (const uint8_t *)v->key, strlen(v->key), aad, 14, &e));
  d->row_group = v->row_group;
  d->column = v->column;
}

static void test_known_vectors(void) {
  uint8_t aad[14];
  file_aad(aad);
  for (size_t i = 0; i < sizeof kVectors / sizeof *kVectors; i++) {
    const vector *v = &kVectors[i];
    uint8_t want[128];
    size_t wl = unhex(v->module_hex, want);
    pqt_module_decryptor d;
    init_for(v, &d, aad);
    pqt_buf out;
    pqt_buf_init(&out, NULL);
    pqt_error e;
    pqt_error_init(&e);
    /* encrypt with the vector's nonce: the same bytes */
    CHECK_OK(pqt_module_encrypt(&d, v->module_type, v->page, kPlain, PLAIN_LEN, kNonce, &out, &e));
    CHECK_MSG(out.len == wl && memcmp(out.data, want, wl) == 0, "%s: encryption differs", v->name);
    /* decrypt (with trailing bytes after the module: consumed says where it ends) */
    uint8_t padded[160];
    memcpy(padded, want, wl);
    memset(padded + wl, 0xee, 16);
    size_t used = 0;
    pqt_status st = pqt_module_decrypt(&d, v->module_type, v->page, padded, wl + 16, &used, &out, &e);
    CHECK_MSG(st == PQT_OK, "%s: %s", v->name, e.message);
    CHECK_EQ_INT(used, wl);
    CHECK(out.len == PLAIN_LEN && memcmp(out.data, kPlain, PLAIN_LEN) == 0);
    pqt_buf_free(&out);
  }
}

static void test_aad_suffix(void) {
  uint8_t s[7];
  CHECK_EQ_INT(pqt_module_aad_suffix(PQT_MODULE_FOOTER, 9, 9, 9, s), 1);
  CHECK_EQ_INT(s[0], 0);
  CHECK_EQ_INT(pqt_module_aad_suffix(PQT_MODULE_DICTIONARY_PAGE, 0x1234, 0x0506, 9, s), 5);
  CHECK(s[0] == 3 && s[1] == 0x34 && s[2] == 0x12 && s[3] == 0x06 && s[4] == 0x05);
  CHECK_EQ_INT(pqt_module_aad_suffix(PQT_MODULE_DATA_PAGE_HEADER, 1, 2, 0x0703, s), 7);
  CHECK(s[0] == 4 && s[5] == 0x03 && s[6] == 0x07);
  CHECK_EQ_INT(pqt_module_aad_suffix(PQT_MODULE_DATA_PAGE, 1, 2, 3, s), 7);
  for (int t = PQT_MODULE_COLUMN_INDEX; t <= PQT_MODULE_BLOOM_FILTER_BITSET; t++)
    CHECK_EQ_INT(pqt_module_aad_suffix(t, 1, 2, 3, s), 5);
  CHECK_EQ_STR(pqt_module_name(PQT_MODULE_BLOOM_FILTER_BITSET), "bloom filter bitset");
}

/* Every module type and key size, both algorithms: round trip; the module
 * does not decrypt as another type, row group, column or page. */
static void test_roundtrip_and_binding(void) {
  uint8_t aad[14];
  file_aad(aad);
  const char *keys[] = {"0123456789012345", "012345678901234567890123", "01234567890123456789012345678901"};
  uint8_t plain[3000];
  for (size_t i = 0; i < sizeof plain; i++) plain[i] = (uint8_t)(i * 7 + 3);
  for (int alg = PQT_AES_GCM_V1; alg <= PQT_AES_GCM_CTR_V1; alg++)
    for (int k = 0; k < 3; k++)
      for (int t = PQT_MODULE_FOOTER; t <= PQT_MODULE_BLOOM_FILTER_BITSET; t++) {
        pqt_module_decryptor d;
        pqt_error e;
        CHECK_OK(pqt_module_decryptor_init(&d, alg, (const uint8_t *)keys[k], strlen(keys[k]), aad, 14, &e));
        d.row_group = 7;
        d.column = 3;
        pqt_buf m, p;
        pqt_buf_init(&m, NULL);
        pqt_buf_init(&p, NULL);
        size_t n = (size_t)(t * 311 + k);
        CHECK_OK(pqt_module_encrypt(&d, t, 5, plain, n, NULL, &m, &e));
        bool ctr = pqt_module_uses_ctr(&d, t);
        CHECK_EQ_INT(m.len, n + (ctr ? PQT_CRYPTO_CTR_OVERHEAD : PQT_CRYPTO_GCM_OVERHEAD));
        CHECK_EQ_INT(pqt_load_u32le(m.data), m.len - 4);
        size_t used = 0;
        CHECK_OK(pqt_module_decrypt(&d, t, 5, m.data, m.len, &used, &p, &e));
        CHECK(used == m.len && p.len == n && memcmp(p.data, plain, n) == 0);
        if (!ctr) {
          int other = t == PQT_MODULE_FOOTER ? PQT_MODULE_COLUMN_METADATA : PQT_MODULE_FOOTER;
          CHECK_EQ_INT(pqt_module_decrypt(&d, other, 5, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
          CHECK_EQ_INT(p.len, 0);
          if (t != PQT_MODULE_FOOTER) {
            d.row_group = 8;
            CHECK_EQ_INT(pqt_module_decrypt(&d, t, 5, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
            d.row_group = 7;
            d.column = 4;
            CHECK_EQ_INT(pqt_module_decrypt(&d, t, 5, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
            d.column = 3;
          }
          if (t == PQT_MODULE_DATA_PAGE || t == PQT_MODULE_DATA_PAGE_HEADER)
            CHECK_EQ_INT(pqt_module_decrypt(&d, t, 6, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
          /* another file AAD (e.g. a different AAD prefix) */
          uint8_t aad2[14];
          memcpy(aad2, aad, 14);
          aad2[0] ^= 1;
          d.file_aad = aad2;
          CHECK_EQ_INT(pqt_module_decrypt(&d, t, 5, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
          d.file_aad = aad;
          /* any flipped byte after the length fails */
          for (size_t at = 4; at < m.len; at += (m.len / 7) + 1) {
            m.data[at] ^= 0x10;
            CHECK_EQ_INT(pqt_module_decrypt(&d, t, 5, m.data, m.len, NULL, &p, NULL), PQT_ECRYPTO);
            m.data[at] ^= 0x10;
          }
        }
        pqt_buf_free(&m);
        pqt_buf_free(&p);
      }
}

static void test_malformed_modules(void) {
  uint8_t aad[14];
  file_aad(aad);
  pqt_module_decryptor d;
  pqt_error e;
  CHECK_OK(pqt_module_decryptor_init(&d, PQT_AES_GCM_CTR_V1, (const uint8_t *)"0123456789012345", 16, aad, 14, &e));
  pqt_buf p;
  pqt_buf_init(&p, NULL);
  uint8_t m[64] = {0};
  /* shorter than the length field */
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, m, 3, NULL, &p, &e), PQT_ECORRUPT);
  /* length below nonce + tag (GCM) / nonce (CTR) */
  pqt_store_u32le(m, 27);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, m, sizeof m, NULL, &p, &e), PQT_ECORRUPT);
  pqt_store_u32le(m, 11);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_DATA_PAGE, 0, m, sizeof m, NULL, &p, &e), PQT_ECORRUPT);
  /* an empty CTR page is fine; an empty GCM module authenticates or not */
  pqt_store_u32le(m, 12);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_DATA_PAGE, 0, m, sizeof m, NULL, &p, &e), PQT_OK);
  CHECK_EQ_INT(p.len, 0);
  /* length past the bytes available, including huge values */
  pqt_store_u32le(m, 61);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, m, sizeof m, NULL, &p, &e), PQT_ECORRUPT);
  CHECK(strstr(e.message, "footer") != NULL);
  pqt_store_u32le(m, 0xffffffffu);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, m, sizeof m, NULL, &p, &e), PQT_ECORRUPT);
  /* a zero tag over nothing does not authenticate */
  pqt_store_u32le(m, 28);
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, m, sizeof m, NULL, &p, &e), PQT_ECRYPTO);
  CHECK(strstr(e.message, "footer: AES-GCM authentication failed") != NULL);
  /* ordinals must fit the AAD's 2-byte shorts */
  d.row_group = 32768;
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_COLUMN_INDEX, 0, m, sizeof m, NULL, &p, &e), PQT_ELIMIT);
  d.row_group = 0;
  CHECK_EQ_INT(pqt_module_decrypt(&d, PQT_MODULE_DATA_PAGE_HEADER, 40000, m, sizeof m, NULL, &p, &e), PQT_ELIMIT);
  CHECK_EQ_INT(pqt_module_decrypt(&d, 10, 0, m, sizeof m, NULL, &p, &e), PQT_EINVAL);
  /* bad keys and algorithms */
  CHECK_EQ_INT(pqt_module_decryptor_init(&d, PQT_AES_GCM_V1, (const uint8_t *)"short", 5, NULL, 0, &e), PQT_ECRYPTO);
  CHECK_EQ_INT(pqt_module_decryptor_init(&d, 3, (const uint8_t *)"0123456789012345", 16, NULL, 0, &e),
               PQT_EUNSUPPORTED);
  pqt_buf_free(&p);
}

static void test_footer_signature(void) {
  uint8_t aad[14];
  file_aad(aad);
  pqt_module_decryptor d;
  pqt_error e;
  CHECK_OK(pqt_module_decryptor_init(&d, PQT_AES_GCM_V1, (const uint8_t *)"0123456789012345", 16, aad, 14, &e));
  uint8_t want[28], sig[28];
  unhex("000102030405060708090a0b7d29dd67d008a8ab58abe4bbe12d2273", want);
  CHECK_OK(pqt_footer_sign(&d, kPlain, PLAIN_LEN, kNonce, sig, &e));
  CHECK(memcmp(sig, want, 28) == 0);
  CHECK_OK(pqt_footer_verify(&d, kPlain, PLAIN_LEN, want, &e));
  want[20] ^= 1;
  CHECK_EQ_INT(pqt_footer_verify(&d, kPlain, PLAIN_LEN, want, &e), PQT_ECRYPTO);
  want[20] ^= 1;
  CHECK_EQ_INT(pqt_footer_verify(&d, kPlain, PLAIN_LEN - 1, want, &e), PQT_ECRYPTO);
  /* a large footer (signature computed in pieces) with a random nonce */
  size_t n = 100000;
  uint8_t *big = malloc(n);
  for (size_t i = 0; i < n; i++) big[i] = (uint8_t)(i ^ (i >> 8));
  CHECK_OK(pqt_footer_sign(&d, big, n, NULL, sig, &e));
  CHECK_OK(pqt_footer_verify(&d, big, n, sig, &e));
  big[n / 2] ^= 1;
  CHECK_EQ_INT(pqt_footer_verify(&d, big, n, sig, &e), PQT_ECRYPTO);
  free(big);
  /* two random nonces differ */
  uint8_t a[12], b[12];
  CHECK_OK(pqt_crypto_random(a, 12, &e));
  CHECK_OK(pqt_crypto_random(b, 12, &e));
  CHECK(memcmp(a, b, 12) != 0);
}

RUN_TESTS("crypto", TEST_CASE(test_known_vectors), TEST_CASE(test_aad_suffix), TEST_CASE(test_roundtrip_and_binding),
          TEST_CASE(test_malformed_modules), TEST_CASE(test_footer_signature))
