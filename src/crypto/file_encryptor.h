/*
 * crypto/file_encryptor.h: Parquet Modular Encryption for the writer, at the
 * file level (spec "Parquet Modular Encryption": file and column keys,
 * encrypted and plaintext footer modes, AAD of each module).
 *
 * The writer asks it for the module encryptor of each column (NULL: the
 * column is written in plaintext) and hands it, in turn, the Bloom filters,
 * the column index and offset index bytes, each finished ColumnChunk (which
 * gets its crypto_metadata and, where the spec wants it,
 * encrypted_column_metadata), and the FileMetaData (which becomes the
 * encrypted footer, FileCryptoMetaData first, or a signed plaintext footer).
 *
 * Keys are copied into the writer's arena; pqt_file_encryptor_wipe
 * overwrites them (the writer calls it before it releases the arena).
 */
#ifndef PQT_CRYPTO_FILE_ENCRYPTOR_H
#define PQT_CRYPTO_FILE_ENCRYPTOR_H

#include "crypto/crypto.h"
#include "thrift/parquet_types.h"

enum { PQT_COLUMN_PLAINTEXT = 0, PQT_COLUMN_FOOTER_KEY = 1, PQT_COLUMN_OWN_KEY = 2 };

typedef struct pqt_column_encryptor {
  int32_t mode;             /* PQT_COLUMN_* */
  pqt_module_encryptor enc; /* row_group follows pqt_file_encryptor_set_row_group */
  pqt_bytes key_metadata;   /* own key: stored in EncryptionWithColumnKey (may be empty) */
} pqt_column_encryptor;

typedef struct pqt_file_encryptor {
  int32_t algorithm; /* PQT_AES_GCM_V1 / PQT_AES_GCM_CTR_V1 */
  bool plaintext_footer;
  pqt_encryption_algorithm alg; /* as written (aad_prefix when stored, aad_file_unique) */
  uint8_t *file_aad;            /* aad_prefix | aad_file_unique (arena) */
  size_t file_aad_len;
  pqt_module_encryptor footer;
  pqt_bytes footer_key_metadata;
  int32_t n_cols;
  pqt_column_encryptor *cols;
} pqt_file_encryptor;

/*
 * Check opts (a caller's struct, read by its struct_size) against the leaf
 * columns (dotted paths, n_leaves of them) and set up *out in arena: keys
 * and key metadata copied, a fresh random aad_file_unique. PQT_EINVAL for a
 * bad option (a key of the wrong size, a column path that names no column,
 * a leaf named twice), never showing a key.
 */
pqt_status pqt_file_encryptor_create(pqt_file_encryptor **out, const pqt_encryption_options *opts,
                                     const char *const *leaf_paths, int32_t n_leaves, pqt_arena *arena, pqt_error *err);

/* The file's first magic: "PARE" with an encrypted footer, else "PAR1". */
const char *pqt_file_encryptor_magic(const pqt_file_encryptor *fe);

/* The module encryptor of leaf column c, or NULL when c is in plaintext. */
const pqt_module_encryptor *pqt_file_encryptor_column(const pqt_file_encryptor *fe, int32_t c);

/* The row group whose pages are being written (the AAD's row group ordinal). */
void pqt_file_encryptor_set_row_group(pqt_file_encryptor *fe, int32_t rg);

/*
 * A serialized Bloom filter (header then bitset, plen bytes) as the two
 * modules (header: type 8, bitset: type 9) appended to out.
 */
pqt_status pqt_bloom_filter_encrypt(const pqt_module_encryptor *e, const uint8_t *plain, size_t plen, pqt_buf *out,
                                    pqt_error *err);

/*
 * Column chunk c of row group rg, complete (offsets of its page index and
 * Bloom filter set): give it crypto_metadata, and encrypted_column_metadata
 * when the column has its own key or the footer is in plaintext. Then
 * meta_data is dropped (encrypted footer) or keeps only what the spec
 * allows in plaintext: no statistics, encoding stats, size or geospatial
 * statistics (plaintext footer). Nothing happens for a plaintext column.
 */
pqt_status pqt_file_encryptor_column_chunk(const pqt_file_encryptor *fe, int32_t rg, int32_t c, pqt_column_chunk *cc,
                                           pqt_arena *arena, pqt_error *err);

/*
 * The file's tail after the last module: encrypted footer (FileCryptoMetaData,
 * the FileMetaData module, length, "PARE") or plaintext footer (FileMetaData
 * with encryption_algorithm and footer_signing_key_metadata, the 28-byte
 * signature, length, "PAR1"), appended to out. md gets the plaintext
 * footer's fields set.
 */
pqt_status pqt_file_encryptor_footer(const pqt_file_encryptor *fe, pqt_file_metadata *md, pqt_buf *out, pqt_error *err);

/* Overwrite every key copy (fe may be NULL). */
void pqt_file_encryptor_wipe(pqt_file_encryptor *fe);

/* This version's defaults of pqt_encryption_options (a whole struct). */
void pqt_encryption_options_defaults(pqt_encryption_options *o);

#endif
