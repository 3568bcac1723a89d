/*
 * parquetry_keytools.h: key management for Parquet Modular Encryption in the
 * format of parquet-java's crypto/keytools and Arrow C++'s
 * parquet/encryption key tools (envelope encryption).
 *
 * Every data encryption key (DEK, the key of the footer or of a column) is
 * random and stored in the file wrapped:
 *   - single wrapping: the KMS wraps the DEK with a master key;
 *   - double wrapping (the default): the DEK is wrapped locally with a random
 *     key encryption key (KEK, AES-GCM, AAD the KEK's 16-byte id), and the
 *     KMS wraps the KEK with the master key.
 * What it takes to unwrap is the key material, a JSON object:
 *   {"keyMaterialType":"PKMT1", "isFooterKey":..., "kmsInstanceID":...,
 *    "kmsInstanceURL":... (footer key only), "masterKeyID":...,
 *    "wrappedDEK":..., "doubleWrapping":..., "keyEncryptionKeyID":...,
 *    "wrappedKEK":... (double wrapping only)}
 * stored either in the key_metadata of the footer and columns (internal
 * material, plus "internalStorage":true) or in a file beside the Parquet
 * file, _KEY_MATERIAL_FOR_<file name>.json, a JSON object from key
 * reference to material text; key_metadata then is
 *   {"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"}
 * ("columnKey0", "columnKey1", ... for the columns).
 *
 * The KMS is the caller's: pqt_kms_client wraps and unwraps keys by master
 * key id. A test-only in-memory KMS is shipped (pqt_inmemory_kms): it wraps
 * with AES-GCM under master keys it holds (AAD the master key id), as
 * parquet-java's InMemoryKMS and Arrow's TestOnlyInServerWrapKms do. It is
 * for tests and demos: real master keys live in a KMS, not in a process.
 *
 * Key material is untrusted input: its size is bounded
 * (PQT_KEY_MATERIAL_MAX_BYTES per material, PQT_KEY_MATERIAL_FILE_MAX_BYTES
 * for the external file), malformed JSON or a missing field is PQT_ECRYPTO
 * naming the field, and no message shows a key.
 */
#ifndef PARQUETRY_KEYTOOLS_H
#define PARQUETRY_KEYTOOLS_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PQT_KEY_MATERIAL_MAX_BYTES      65536
#define PQT_KEY_MATERIAL_FILE_MAX_BYTES (16 * 1024 * 1024)
#define PQT_KMS_WRAPPED_MAX             4096 /* room for a wrapped key's text (with its NUL) */
#define PQT_KMS_DEFAULT_INSTANCE        "DEFAULT"

/* A KMS: wrap and unwrap keys with the master key named master_key_id. */
typedef struct pqt_kms_client {
  size_t struct_size; /* sizeof(pqt_kms_client) */
  void *ctx;          /* passed to the callbacks; must outlive every use */
  /* Wrap key (key_len bytes); write the wrapped key as NUL-terminated text
   * (e.g. base64) to out (out_cap bytes, PQT_KMS_WRAPPED_MAX). */
  pqt_status (*wrap)(void *ctx, const char *master_key_id, const uint8_t *key, size_t key_len, char *out,
                     size_t out_cap, pqt_error *err);
  /* Unwrap the text `wrapped`: write the key to key_out (key_cap bytes, at
   * least 32) and its length to *key_len. Never put a key in err. */
  pqt_status (*unwrap)(void *ctx, const char *master_key_id, const char *wrapped, uint8_t *key_out, size_t key_cap,
                       size_t *key_len, pqt_error *err);
} pqt_kms_client;

/* ---- the test-only in-memory KMS ---- */
typedef struct pqt_inmemory_kms pqt_inmemory_kms;

PQT_API pqt_status pqt_inmemory_kms_new(pqt_inmemory_kms **out, pqt_error *err);
/* Add master key id (16, 24 or 32 bytes; copied). A second key for an id
 * is PQT_EINVAL. */
PQT_API pqt_status pqt_inmemory_kms_add_key(pqt_inmemory_kms *kms, const char *id, const uint8_t *key, size_t key_len,
                                            pqt_error *err);
/* The same with the key in base64 (as parquet-java's
 * parquet.encryption.key.list gives them). */
PQT_API pqt_status pqt_inmemory_kms_add_key_base64(pqt_inmemory_kms *kms, const char *id, const char *base64,
                                                   pqt_error *err);
/* A client for kms (valid while kms lives). */
PQT_API void pqt_inmemory_kms_client(pqt_inmemory_kms *kms, pqt_kms_client *out);
/* Wipe the master keys and free. NULL is fine. */
PQT_API void pqt_inmemory_kms_free(pqt_inmemory_kms *kms);

/* ---- reading ---- */
typedef struct pqt_keytools_reader pqt_keytools_reader;

/* A key retriever for files written with key tools. kms is copied (its ctx
 * is borrowed). parquet_path: the file to be read (for its external key
 * material, read on first need); NULL: internal material only. */
PQT_API pqt_status pqt_keytools_reader_new(pqt_keytools_reader **out, const pqt_kms_client *kms,
                                           const char *parquet_path, pqt_error *err);
/* The pqt_key_retriever_fn: set pqt_read_options.key_retriever to it and
 * key_retriever_ctx to the pqt_keytools_reader. */
PQT_API pqt_status pqt_keytools_key_retriever(void *ctx, const uint8_t *key_metadata, size_t key_metadata_len,
                                              const char *column_path, uint8_t *key_out, size_t *key_len,
                                              pqt_error *err);
PQT_API void pqt_keytools_reader_free(pqt_keytools_reader *kr);

/* ---- writing ---- */
/* A fixed value struct, used in arrays (no struct_size). */
typedef struct pqt_keytools_column {
  const char *path;          /* dotted column path, as in pqt_column_encryption */
  const char *master_key_id; /* the column's master key */
} pqt_keytools_column;

typedef struct pqt_keytools_write_options {
  size_t struct_size;                 /* set by pqt_keytools_write_options_init */
  const pqt_kms_client *kms;          /* required */
  const char *footer_master_key_id;   /* required */
  const pqt_keytools_column *columns; /* columns with their own key; n_columns 0: all with the footer key */
  int32_t n_columns;
  int32_t double_wrapping;       /* default 1 */
  int32_t external_key_material; /* default 0: material in key_metadata */
  int32_t data_key_bytes;        /* 16 (default), 24 or 32: the DEKs */
  const char *kms_instance_id;   /* default "DEFAULT" */
  const char *kms_instance_url;  /* default "DEFAULT" */
} pqt_keytools_write_options;

PQT_API void pqt_keytools_write_options_init_sized(pqt_keytools_write_options *o, size_t struct_size);
static inline void pqt_keytools_write_options_init(pqt_keytools_write_options *o) {
  pqt_keytools_write_options_init_sized(o, sizeof *o);
}

typedef struct pqt_keytools_writer pqt_keytools_writer;

/* Generate the DEKs (RAND_bytes) and wrap them with the KMS. All strings are
 * copied. */
PQT_API pqt_status pqt_keytools_writer_new(pqt_keytools_writer **out, const pqt_keytools_write_options *o,
                                           pqt_error *err);
/* Fill the keys and key metadata of enc (footer_key*, columns, n_columns;
 * the rest of enc is left as it is). The pointers stay valid while kw
 * lives. */
PQT_API pqt_status pqt_keytools_writer_fill(pqt_keytools_writer *kw, pqt_encryption_options *enc, pqt_error *err);
/* External material only (else a no-op): write
 * _KEY_MATERIAL_FOR_<basename>.json beside parquet_path (temp file +
 * rename). */
PQT_API pqt_status pqt_keytools_writer_store(pqt_keytools_writer *kw, const char *parquet_path, pqt_error *err);
/* The path of the external material file for parquet_path, to out
 * (cap bytes): PQT_EINVAL when it does not fit. */
PQT_API pqt_status pqt_keytools_material_path(const char *parquet_path, char *out, size_t cap, pqt_error *err);
/* Wipe the DEKs and free. NULL is fine. */
PQT_API void pqt_keytools_writer_free(pqt_keytools_writer *kw);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_KEYTOOLS_H */
