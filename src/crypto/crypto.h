/*
 * crypto/crypto.h: Parquet Modular Encryption, module level (spec:
 * "Parquet Modular Encryption", sections 4 and 5.1).
 *
 * A module is one separately encrypted piece of a file: the footer, a
 * column's metadata, a page header, a page, a column or offset index, a
 * bloom filter header or bitset. Serialized modules are
 *
 *   GCM: length (4 bytes LE) | nonce (12) | ciphertext | tag (16)
 *   CTR: length (4 bytes LE) | nonce (12) | ciphertext
 *
 * where length counts the bytes after itself. AES_GCM_V1 uses GCM for every
 * module; AES_GCM_CTR_V1 uses CTR (IV = nonce | 00 00 00 01) for data and
 * dictionary pages and GCM for the rest. A GCM module's AAD is
 *
 *   aad_prefix | aad_file_unique | module type (1 byte)
 *     | row group ordinal (2 bytes LE) | column ordinal (2 bytes LE)   (all but the footer)
 *     | page ordinal (2 bytes LE)                     (data pages and their headers)
 *
 * The ciphers are OpenSSL's EVP AES-GCM and AES-CTR with 128-, 192- or
 * 256-bit keys. Every length read from a module is checked against the bytes
 * available before it is used. Functions here hold no state beyond their
 * arguments: a cipher context lives for one call.
 */
#ifndef PQT_CRYPTO_CRYPTO_H
#define PQT_CRYPTO_CRYPTO_H

#include "core/core.h"

/* EncryptionAlgorithm union member ids. */
enum { PQT_AES_GCM_V1 = 1, PQT_AES_GCM_CTR_V1 = 2 };

/* Module types (the AAD suffix's type byte). */
enum {
  PQT_MODULE_FOOTER = 0,
  PQT_MODULE_COLUMN_METADATA = 1,
  PQT_MODULE_DATA_PAGE = 2,
  PQT_MODULE_DICTIONARY_PAGE = 3,
  PQT_MODULE_DATA_PAGE_HEADER = 4,
  PQT_MODULE_DICTIONARY_PAGE_HEADER = 5,
  PQT_MODULE_COLUMN_INDEX = 6,
  PQT_MODULE_OFFSET_INDEX = 7,
  PQT_MODULE_BLOOM_FILTER_HEADER = 8,
  PQT_MODULE_BLOOM_FILTER_BITSET = 9
};

#define PQT_CRYPTO_LENGTH_BYTES  4
#define PQT_CRYPTO_NONCE_BYTES   12
#define PQT_CRYPTO_TAG_BYTES     16
#define PQT_CRYPTO_MAX_KEY_BYTES 32
/* Bytes a module adds to its plaintext. */
#define PQT_CRYPTO_GCM_OVERHEAD (PQT_CRYPTO_LENGTH_BYTES + PQT_CRYPTO_NONCE_BYTES + PQT_CRYPTO_TAG_BYTES)
#define PQT_CRYPTO_CTR_OVERHEAD (PQT_CRYPTO_LENGTH_BYTES + PQT_CRYPTO_NONCE_BYTES)
/* The plaintext footer's signature: nonce | tag. */
#define PQT_CRYPTO_SIGNATURE_BYTES (PQT_CRYPTO_NONCE_BYTES + PQT_CRYPTO_TAG_BYTES)
/* Ordinals in the AAD are 2-byte shorts. */
#define PQT_CRYPTO_MAX_ORDINAL 32767

/*
 * What it takes to decrypt (or encrypt) the modules of one column chunk, or
 * the footer: the key, the algorithm, the file AAD (aad_prefix |
 * aad_file_unique, borrowed) and the ordinals of the AAD suffix. The same
 * struct drives encryption (pqt_module_encrypt).
 */
typedef struct pqt_module_decryptor {
  int32_t algorithm; /* PQT_AES_GCM_V1 or PQT_AES_GCM_CTR_V1 */
  uint8_t key[PQT_CRYPTO_MAX_KEY_BYTES];
  uint32_t key_len;        /* 16, 24 or 32 */
  const uint8_t *file_aad; /* borrowed; may be NULL when file_aad_len is 0 */
  size_t file_aad_len;
  int32_t row_group; /* ordinal for the AAD (not used by the footer) */
  int32_t column;    /* leaf column ordinal for the AAD */
  /* No AAD at all (GCM modules authenticated without one): only for an
   * encrypted footer whose algorithm has neither aad_file_unique nor an AAD
   * prefix, as DuckDB writes them (see pqt_file_decryptor.no_aad). */
  bool no_aad;
} pqt_module_decryptor;
typedef pqt_module_decryptor pqt_module_encryptor;

/* Set up d (ordinals 0). PQT_ECRYPTO when key_len is not 16, 24 or 32. */
pqt_status pqt_module_decryptor_init(pqt_module_decryptor *d, int32_t algorithm, const uint8_t *key, size_t key_len,
                                     const uint8_t *file_aad, size_t file_aad_len, pqt_error *err);

/* Overwrite d's key copy. */
void pqt_module_decryptor_wipe(pqt_module_decryptor *d);

/* "footer", "data page header", ... */
const char *pqt_module_name(int module_type);

/* Whether this module type is encrypted with CTR under d's algorithm. */
bool pqt_module_uses_ctr(const pqt_module_decryptor *d, int module_type);

/* The AAD suffix after the file AAD (type byte and ordinals); returns its
 * length (1, 5 or 7). page_ordinal is used by data pages and their headers. */
size_t pqt_module_aad_suffix(int module_type, int32_t row_group, int32_t column, int32_t page_ordinal, uint8_t out[7]);

/*
 * Decrypt the module that starts at src (avail bytes readable there). The
 * plaintext replaces out's contents (out->len = its length; 8 spare bytes
 * are reserved after it). *consumed (may be NULL) gets the module's size on
 * disk (4 + length). PQT_ECORRUPT when the module is malformed or larger
 * than avail, PQT_ECRYPTO when authentication fails. page_ordinal is ignored
 * for modules without one.
 */
pqt_status pqt_module_decrypt(const pqt_module_decryptor *d, int module_type, int32_t page_ordinal, const uint8_t *src,
                              size_t avail, size_t *consumed, pqt_buf *out, pqt_error *err);

/*
 * Encrypt plaintext as one module appended to out (4-byte length, nonce,
 * ciphertext, tag when GCM). nonce: 12 bytes, or NULL for a fresh random
 * one (a nonce must never be reused with the same key).
 */
pqt_status pqt_module_encrypt(const pqt_module_encryptor *e, int module_type, int32_t page_ordinal,
                              const uint8_t *plain, size_t len, const uint8_t *nonce, pqt_buf *out, pqt_error *err);

/* The plaintext footer signature: AES-GCM over footer with the footer AAD,
 * keeping only nonce | tag (28 bytes). nonce NULL: random. */
pqt_status pqt_footer_sign(const pqt_module_encryptor *e, const uint8_t *footer, size_t len, const uint8_t *nonce,
                           uint8_t signature[PQT_CRYPTO_SIGNATURE_BYTES], pqt_error *err);
/* Check a plaintext footer's signature: PQT_ECRYPTO when it does not match. */
pqt_status pqt_footer_verify(const pqt_module_decryptor *d, const uint8_t *footer, size_t len,
                             const uint8_t signature[PQT_CRYPTO_SIGNATURE_BYTES], pqt_error *err);

/* Fill buf with n cryptographically random bytes (nonces, aad_file_unique). */
pqt_status pqt_crypto_random(uint8_t *buf, size_t n, pqt_error *err);

#endif
