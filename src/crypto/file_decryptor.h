/*
 * crypto/file_decryptor.h: Parquet Modular Encryption at the file level:
 * the footer in both modes, key lookup, column metadata, and the modules a
 * reader meets outside column chunks (page indexes, bloom filters).
 *
 * Encrypted footer ("PARE"): the footer region holds FileCryptoMetaData
 * (plaintext Thrift: algorithm, footer key metadata) followed by the footer
 * as a GCM module. Plaintext footer ("PAR1" with FileMetaData field 8):
 * FileMetaData is followed by a 28-byte signature (nonce | GCM tag over the
 * serialized FileMetaData with the footer AAD).
 *
 * Columns: ColumnChunk.crypto_metadata says which key (footer key, or a
 * column key with its key_metadata); a column with its own key keeps its
 * ColumnMetaData in encrypted_column_metadata (a GCM module, type 1), which
 * is decrypted at open when the key is at hand and then replaces meta_data.
 * Files without aad_file_unique under an encrypted footer (DuckDB's) are
 * read without AADs, their chunks as encrypted with the footer key (see
 * no_aad and pqt_file_decryptor_column_metadata).
 *
 * Everything lives in the reader's arena; no other resources are held.
 */
#ifndef PQT_CRYPTO_FILE_DECRYPTOR_H
#define PQT_CRYPTO_FILE_DECRYPTOR_H

#include "crypto/crypto.h"
#include "thrift/codec.h"
#include "thrift/parquet_types.h"

typedef struct pqt_file_decryptor {
  int32_t algorithm; /* PQT_AES_GCM_V1 / PQT_AES_GCM_CTR_V1 */
  bool encrypted_footer;
  bool footer_verified; /* plaintext footer: the signature was checked */
  uint8_t *file_aad;    /* aad_prefix | aad_file_unique (arena) */
  size_t file_aad_len;
  bool have_footer_key;
  uint8_t footer_key[PQT_CRYPTO_MAX_KEY_BYTES];
  uint32_t footer_key_len;
  pqt_column_key *column_keys; /* arena copies of the options' keys */
  int32_t n_column_keys;
  pqt_key_retriever_fn retriever;
  void *retriever_ctx;
  /* An encrypted footer whose algorithm has no aad_file_unique (the spec
   * requires one) and no AAD prefix: DuckDB writes such files, every module
   * encrypted without AAD. Modules are then decrypted without AAD; nothing
   * changes for any other file (an AAD-less read of a file written with
   * AADs fails authentication: its footer was encrypted under them). */
  bool no_aad;
} pqt_file_decryptor;

/*
 * Encrypted footer: buf[0..len) is the footer region (FileCryptoMetaData,
 * then the footer module). Creates *out in arena and returns the decrypted
 * FileMetaData bytes (in arena) through *plain / *plain_len.
 */
pqt_status pqt_file_decryptor_open_encrypted(pqt_file_decryptor **out, const pqt_read_options *opts, const uint8_t *buf,
                                             size_t len, pqt_arena *arena, const uint8_t **plain, size_t *plain_len,
                                             pqt_error *err);

/*
 * Plaintext footer of an encrypted file (md has encryption_algorithm):
 * buf[0..len) is the footer region, FileMetaData then the signature.
 * Creates *out in arena; verifies the signature when the footer key is at
 * hand and opts->verify_footer_signature is set.
 */
pqt_status pqt_file_decryptor_open_plaintext(pqt_file_decryptor **out, const pqt_read_options *opts,
                                             const pqt_file_metadata *md, const uint8_t *buf, size_t len,
                                             pqt_arena *arena, pqt_error *err);

/* The signature of a plaintext footer (buf[0..len): FileMetaData then its
 * 28 bytes) checked with fd's footer key, which must be at hand: at open,
 * and later for pqt_reader_footer_signature. */
pqt_status pqt_file_decryptor_verify_footer(const pqt_file_decryptor *fd, const uint8_t *buf, size_t len,
                                            pqt_error *err);

/* The AAD row group ordinal of row group g (RowGroup.ordinal when set). */
int32_t pqt_file_decryptor_row_group_ordinal(const pqt_row_group *rg, int32_t g);

/*
 * The module decryptor for column `column` (leaf ordinal, dotted path
 * `path`) of row group g: PQT_ECRYPTO naming the column when its key is not
 * at hand (not given, or the retriever has none or a bad one), and for no
 * other reason: pqt_chunk_open tells a missing key by it. The decryptor
 * borrows fd's file AAD.
 */
pqt_status pqt_file_decryptor_column(const pqt_file_decryptor *fd, const pqt_column_chunk *cc, const char *path,
                                     int32_t rg_ordinal, int32_t column, pqt_module_decryptor *out, pqt_error *err);

/*
 * Decrypt encrypted_column_metadata of every encrypted chunk whose key is
 * at hand and put it in meta_data (decoded into arena). Chunks without a
 * key are left as they are (reading them fails later, naming the key).
 * leaf_paths: dotted path per leaf column.
 */
pqt_status pqt_file_decryptor_column_metadata(const pqt_file_decryptor *fd, pqt_file_metadata *md,
                                              const char *const *leaf_paths, int32_t n_leaves, pqt_arena *arena,
                                              pqt_error *err);

/*
 * Decrypt one Thrift module (column index: PQT_MODULE_COLUMN_INDEX with
 * pqt_desc_column_index; offset index: PQT_MODULE_OFFSET_INDEX with
 * pqt_desc_offset_index) at src and decode it into out. The plaintext stays
 * in *plain (byte views in out point into it; lists go to arena).
 */
pqt_status pqt_decrypt_thrift_module(const pqt_module_decryptor *d, int module_type, const pqt_thrift_desc *desc,
                                     const uint8_t *src, size_t avail, size_t *consumed, pqt_buf *plain,
                                     pqt_arena *arena, void *out, pqt_error *err);

/*
 * An encrypted bloom filter at src (bloom_filter_offset): the header module
 * (type 8), then the bitset module (type 9). Decodes the header into *hdr,
 * puts the bitset in *bitset (checked against numBytes), and gives the
 * bytes both modules take through *consumed (may be NULL).
 */
pqt_status pqt_decrypt_bloom_filter(const pqt_module_decryptor *d, const uint8_t *src, size_t avail,
                                    pqt_bloom_filter_header *hdr, pqt_buf *bitset, size_t *consumed, pqt_error *err);

/* Overwrite the key copies (called before the arena is released). */
void pqt_file_decryptor_wipe(pqt_file_decryptor *fd);

#endif
