/* crypto/crypto.c: see crypto.h. The ciphers are OpenSSL's (EVP); nothing
 * cryptographic is implemented here beyond framing and AAD assembly. */
#include "crypto/crypto.h"

#include <limits.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#define CHUNK_MAX ((size_t)1 << 30) /* EVP lengths are ints: feed big buffers in pieces */

static const char *const module_names[] = {"footer",
                                           "column metadata",
                                           "data page",
                                           "dictionary page",
                                           "data page header",
                                           "dictionary page header",
                                           "column index",
                                           "offset index",
                                           "bloom filter header",
                                           "bloom filter bitset"};

const char *pqt_module_name(int module_type) {
  if (module_type < 0 || module_type > PQT_MODULE_BLOOM_FILTER_BITSET) return "module";
  return module_names[module_type];
}

pqt_status pqt_module_decryptor_init(pqt_module_decryptor *d, int32_t algorithm, const uint8_t *key, size_t key_len,
                                     const uint8_t *file_aad, size_t file_aad_len, pqt_error *err) {
  memset(d, 0, sizeof *d);
  if (algorithm != PQT_AES_GCM_V1 && algorithm != PQT_AES_GCM_CTR_V1)
    return pqt_error_set(err, PQT_EUNSUPPORTED, "unknown encryption algorithm %d", algorithm);
  if (key_len != 16 && key_len != 24 && key_len != 32)
    return pqt_error_set(err, PQT_ECRYPTO, "AES keys are 16, 24 or 32 bytes, not %zu", key_len);
  d->algorithm = algorithm;
  memcpy(d->key, key, key_len);
  d->key_len = (uint32_t)key_len;
  d->file_aad = file_aad;
  d->file_aad_len = file_aad_len;
  return PQT_OK;
}

void pqt_module_decryptor_wipe(pqt_module_decryptor *d) {
  OPENSSL_cleanse(d->key, sizeof d->key);
  d->key_len = 0;
}

bool pqt_module_uses_ctr(const pqt_module_decryptor *d, int module_type) {
  return d->algorithm == PQT_AES_GCM_CTR_V1 &&
         (module_type == PQT_MODULE_DATA_PAGE || module_type == PQT_MODULE_DICTIONARY_PAGE);
}

size_t pqt_module_aad_suffix(int module_type, int32_t row_group, int32_t column, int32_t page_ordinal, uint8_t out[7]) {
  out[0] = (uint8_t)module_type;
  if (module_type == PQT_MODULE_FOOTER) return 1;
  out[1] = (uint8_t)((uint32_t)row_group & 0xff);
  out[2] = (uint8_t)(((uint32_t)row_group >> 8) & 0xff);
  out[3] = (uint8_t)((uint32_t)column & 0xff);
  out[4] = (uint8_t)(((uint32_t)column >> 8) & 0xff);
  if (module_type != PQT_MODULE_DATA_PAGE && module_type != PQT_MODULE_DATA_PAGE_HEADER) return 5;
  out[5] = (uint8_t)((uint32_t)page_ordinal & 0xff);
  out[6] = (uint8_t)(((uint32_t)page_ordinal >> 8) & 0xff);
  return 7;
}

static const EVP_CIPHER *gcm_cipher(uint32_t key_len) {
  return key_len == 16 ? EVP_aes_128_gcm() : key_len == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
}
static const EVP_CIPHER *ctr_cipher(uint32_t key_len) {
  return key_len == 16 ? EVP_aes_128_ctr() : key_len == 24 ? EVP_aes_192_ctr() : EVP_aes_256_ctr();
}

static pqt_status check_ordinals(const pqt_module_decryptor *d, int module_type, int32_t page_ordinal, pqt_error *err) {
  if (module_type < 0 || module_type > PQT_MODULE_BLOOM_FILTER_BITSET)
    return pqt_error_set(err, PQT_EINVAL, "unknown module type %d", module_type);
  if (d->key_len != 16 && d->key_len != 24 && d->key_len != 32)
    return pqt_error_set(err, PQT_EINVAL, "module decryptor without a key");
  if (module_type == PQT_MODULE_FOOTER) return PQT_OK;
  if (d->row_group < 0 || d->row_group > PQT_CRYPTO_MAX_ORDINAL || d->column < 0 || d->column > PQT_CRYPTO_MAX_ORDINAL)
    return pqt_error_set(err, PQT_ELIMIT,
                         "encrypted files hold at most %d row groups and columns (row group %d, column %d)",
                         PQT_CRYPTO_MAX_ORDINAL + 1, d->row_group, d->column);
  if ((module_type == PQT_MODULE_DATA_PAGE || module_type == PQT_MODULE_DATA_PAGE_HEADER) &&
      (page_ordinal < 0 || page_ordinal > PQT_CRYPTO_MAX_ORDINAL))
    return pqt_error_set(err, PQT_ELIMIT, "encrypted column chunks hold at most %d data pages",
                         PQT_CRYPTO_MAX_ORDINAL + 1);
  return PQT_OK;
}

/* Feed the AAD (file AAD, then the suffix) to a GCM context. */
static bool feed_aad(EVP_CIPHER_CTX *ctx, bool enc, const pqt_module_decryptor *d, int module_type,
                     int32_t page_ordinal) {
  if (d->no_aad) return true;
  uint8_t suffix[7];
  size_t sl = pqt_module_aad_suffix(module_type, d->row_group, d->column, page_ordinal, suffix);
  int outl;
  const uint8_t *p = d->file_aad;
  size_t left = d->file_aad_len;
  while (left > 0) {
    size_t n = left < CHUNK_MAX ? left : CHUNK_MAX;
    if ((enc ? EVP_EncryptUpdate(ctx, NULL, &outl, p, (int)n) : EVP_DecryptUpdate(ctx, NULL, &outl, p, (int)n)) != 1)
      return false;
    p += n;
    left -= n;
  }
  return (enc ? EVP_EncryptUpdate(ctx, NULL, &outl, suffix, (int)sl)
              : EVP_DecryptUpdate(ctx, NULL, &outl, suffix, (int)sl)) == 1;
}

/* Run src through an initialized context into dst (same length). */
static bool update_all(EVP_CIPHER_CTX *ctx, bool enc, const uint8_t *src, size_t n, uint8_t *dst) {
  while (n > 0) {
    size_t k = n < CHUNK_MAX ? n : CHUNK_MAX;
    int outl = 0;
    if ((enc ? EVP_EncryptUpdate(ctx, dst, &outl, src, (int)k) : EVP_DecryptUpdate(ctx, dst, &outl, src, (int)k)) !=
            1 ||
        (size_t)outl != k)
      return false;
    src += k;
    dst += k;
    n -= k;
  }
  return true;
}

static void ctr_iv(const uint8_t *nonce, uint8_t iv[16]) {
  memcpy(iv, nonce, PQT_CRYPTO_NONCE_BYTES);
  iv[12] = 0;
  iv[13] = 0;
  iv[14] = 0;
  iv[15] = 1;
}

/* AES-CTR in either direction (the same operation). */
static pqt_status ctr_crypt(const pqt_module_decryptor *d, const uint8_t *nonce, const uint8_t *src, size_t n,
                            uint8_t *dst, pqt_error *err) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!ctx) return pqt_nomem(err);
  uint8_t iv[16];
  ctr_iv(nonce, iv);
  bool ok =
      EVP_EncryptInit_ex(ctx, ctr_cipher(d->key_len), NULL, d->key, iv) == 1 && update_all(ctx, true, src, n, dst);
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) return pqt_error_set(err, PQT_ECRYPTO, "AES-CTR failed (OpenSSL)");
  return PQT_OK;
}

pqt_status pqt_module_decrypt(const pqt_module_decryptor *d, int module_type, int32_t page_ordinal, const uint8_t *src,
                              size_t avail, size_t *consumed, pqt_buf *out, pqt_error *err) {
  PQT_RETURN_NOT_OK(check_ordinals(d, module_type, page_ordinal, err));
  const char *name = pqt_module_name(module_type);
  bool ctr = pqt_module_uses_ctr(d, module_type);
  size_t min = PQT_CRYPTO_NONCE_BYTES + (ctr ? 0 : PQT_CRYPTO_TAG_BYTES);
  PQT_CHECK_CORRUPT(avail >= PQT_CRYPTO_LENGTH_BYTES, err, "encrypted %s: %zu bytes, too short for its length", name,
                    avail);
  uint32_t len = pqt_load_u32le(src);
  PQT_CHECK_CORRUPT(len >= min, err, "encrypted %s: length %u is below the %zu bytes of nonce%s", name, len, min,
                    ctr ? "" : " and tag");
  PQT_CHECK_CORRUPT(len <= avail - PQT_CRYPTO_LENGTH_BYTES, err,
                    "encrypted %s: length %u exceeds the %zu bytes available", name, len,
                    avail - PQT_CRYPTO_LENGTH_BYTES);
  const uint8_t *nonce = src + PQT_CRYPTO_LENGTH_BYTES;
  const uint8_t *ct = nonce + PQT_CRYPTO_NONCE_BYTES;
  size_t n = (size_t)len - min;
  out->len = 0;
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, n + 8, err));
  if (consumed) *consumed = PQT_CRYPTO_LENGTH_BYTES + (size_t)len;
  if (ctr) {
    PQT_RETURN_NOT_OK(ctr_crypt(d, nonce, ct, n, out->data, err));
    out->len = n;
    return PQT_OK;
  }
  const uint8_t *tag = ct + n;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!ctx) return pqt_nomem(err);
  bool ok = EVP_DecryptInit_ex(ctx, gcm_cipher(d->key_len), NULL, NULL, NULL) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, PQT_CRYPTO_NONCE_BYTES, NULL) == 1 &&
            EVP_DecryptInit_ex(ctx, NULL, NULL, d->key, nonce) == 1;
  if (!ok) {
    EVP_CIPHER_CTX_free(ctx);
    return pqt_error_set(err, PQT_ECRYPTO, "%s: AES-GCM setup failed (OpenSSL)", name);
  }
  ok = feed_aad(ctx, false, d, module_type, page_ordinal) && update_all(ctx, false, ct, n, out->data) &&
       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, PQT_CRYPTO_TAG_BYTES, (void *)tag) == 1;
  int fl = 0;
  if (ok) ok = EVP_DecryptFinal_ex(ctx, out->data + n, &fl) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) {
    OPENSSL_cleanse(out->data, n); /* never hand out unauthenticated plaintext */
    return pqt_error_set(err, PQT_ECRYPTO,
                         "%s: AES-GCM authentication failed (wrong key or AAD prefix, or altered bytes)", name);
  }
  out->len = n;
  return PQT_OK;
}

pqt_status pqt_crypto_random(uint8_t *buf, size_t n, pqt_error *err) {
  while (n > 0) {
    size_t k = n < CHUNK_MAX ? n : CHUNK_MAX;
    if (RAND_bytes(buf, (int)k) != 1) return pqt_error_set(err, PQT_ECRYPTO, "no random bytes from OpenSSL");
    buf += k;
    n -= k;
  }
  return PQT_OK;
}

/* GCM-encrypt plain into ct (may be NULL: the ciphertext is only computed in
 * small pieces and dropped, for signatures) and give the tag. */
static pqt_status gcm_encrypt(const pqt_module_encryptor *e, int module_type, int32_t page_ordinal,
                              const uint8_t *nonce, const uint8_t *plain, size_t len, uint8_t *ct, uint8_t *tag,
                              pqt_error *err) {
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!ctx) return pqt_nomem(err);
  bool ok = EVP_EncryptInit_ex(ctx, gcm_cipher(e->key_len), NULL, NULL, NULL) == 1 &&
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, PQT_CRYPTO_NONCE_BYTES, NULL) == 1 &&
            EVP_EncryptInit_ex(ctx, NULL, NULL, e->key, nonce) == 1 &&
            feed_aad(ctx, true, e, module_type, page_ordinal);
  if (ok && ct) {
    ok = update_all(ctx, true, plain, len, ct);
  } else if (ok) {
    uint8_t scratch[4096];
    for (size_t off = 0; ok && off < len; off += sizeof scratch) {
      size_t k = len - off < sizeof scratch ? len - off : sizeof scratch;
      ok = update_all(ctx, true, plain + off, k, scratch);
    }
    OPENSSL_cleanse(scratch, sizeof scratch);
  }
  uint8_t fin[16];
  int fl = 0;
  if (ok) ok = EVP_EncryptFinal_ex(ctx, fin, &fl) == 1;
  if (ok) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, PQT_CRYPTO_TAG_BYTES, tag) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: AES-GCM encryption failed (OpenSSL)", pqt_module_name(module_type));
  return PQT_OK;
}

pqt_status pqt_module_encrypt(const pqt_module_encryptor *e, int module_type, int32_t page_ordinal,
                              const uint8_t *plain, size_t len, const uint8_t *nonce, pqt_buf *out, pqt_error *err) {
  PQT_RETURN_NOT_OK(check_ordinals(e, module_type, page_ordinal, err));
  bool ctr = pqt_module_uses_ctr(e, module_type);
  size_t body = PQT_CRYPTO_NONCE_BYTES + len + (ctr ? 0 : PQT_CRYPTO_TAG_BYTES);
  if (body > UINT32_MAX)
    return pqt_error_set(err, PQT_ELIMIT, "%s of %zu bytes is too large to encrypt (4-byte length)",
                         pqt_module_name(module_type), len);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(out, PQT_CRYPTO_LENGTH_BYTES + body, err));
  uint8_t *p = out->data + out->len;
  pqt_store_u32le(p, (uint32_t)body);
  uint8_t *np = p + PQT_CRYPTO_LENGTH_BYTES;
  if (nonce) memcpy(np, nonce, PQT_CRYPTO_NONCE_BYTES);
  else PQT_RETURN_NOT_OK(pqt_crypto_random(np, PQT_CRYPTO_NONCE_BYTES, err));
  uint8_t *ct = np + PQT_CRYPTO_NONCE_BYTES;
  if (ctr) PQT_RETURN_NOT_OK(ctr_crypt(e, np, plain, len, ct, err));
  else PQT_RETURN_NOT_OK(gcm_encrypt(e, module_type, page_ordinal, np, plain, len, ct, ct + len, err));
  out->len += PQT_CRYPTO_LENGTH_BYTES + body;
  return PQT_OK;
}

pqt_status pqt_footer_sign(const pqt_module_encryptor *e, const uint8_t *footer, size_t len, const uint8_t *nonce,
                           uint8_t signature[PQT_CRYPTO_SIGNATURE_BYTES], pqt_error *err) {
  PQT_RETURN_NOT_OK(check_ordinals(e, PQT_MODULE_FOOTER, 0, err));
  if (nonce) memcpy(signature, nonce, PQT_CRYPTO_NONCE_BYTES);
  else PQT_RETURN_NOT_OK(pqt_crypto_random(signature, PQT_CRYPTO_NONCE_BYTES, err));
  return gcm_encrypt(e, PQT_MODULE_FOOTER, 0, signature, footer, len, NULL, signature + PQT_CRYPTO_NONCE_BYTES, err);
}

pqt_status pqt_footer_verify(const pqt_module_decryptor *d, const uint8_t *footer, size_t len,
                             const uint8_t signature[PQT_CRYPTO_SIGNATURE_BYTES], pqt_error *err) {
  uint8_t tag[PQT_CRYPTO_TAG_BYTES];
  PQT_RETURN_NOT_OK(check_ordinals(d, PQT_MODULE_FOOTER, 0, err));
  PQT_RETURN_NOT_OK(gcm_encrypt(d, PQT_MODULE_FOOTER, 0, signature, footer, len, NULL, tag, err));
  if (CRYPTO_memcmp(tag, signature + PQT_CRYPTO_NONCE_BYTES, PQT_CRYPTO_TAG_BYTES) != 0)
    return pqt_error_set(
        err, PQT_ECRYPTO,
        "plaintext footer: signature verification failed (wrong footer key or AAD prefix, or an altered footer)");
  return PQT_OK;
}
