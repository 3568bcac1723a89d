/* crypto/file_decryptor.c: see file_decryptor.h. */
#include "crypto/file_decryptor.h"

#include <openssl/crypto.h>

#include "thrift/parquet_desc.h"

/* Key metadata in messages: quoted when short and printable, else its size. */
static void describe_key_metadata(const uint8_t *p, size_t n, char *out, size_t cap) {
  if (n == 0) {
    snprintf(out, cap, "no key metadata");
    return;
  }
  bool printable = n <= 64;
  for (size_t i = 0; printable && i < n; i++) printable = p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"';
  if (printable) snprintf(out, cap, "key metadata \"%.*s\"", (int)n, (const char *)p);
  else snprintf(out, cap, "%zu bytes of key metadata", n);
}

/* Ask the retriever for a key. */
static pqt_status retrieve(const pqt_file_decryptor *fd, const pqt_bytes *km, const char *column_path,
                           uint8_t key[PQT_CRYPTO_MAX_KEY_BYTES], uint32_t *key_len, const char *what, pqt_error *err) {
  char desc[96];
  const uint8_t *kp = km ? km->ptr : NULL;
  size_t kn = km && km->len > 0 ? (size_t)km->len : 0;
  describe_key_metadata(kp, kn, desc, sizeof desc);
  if (!fd->retriever)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: no key given (%s; give the %s key or a key retriever)", what, desc,
                         column_path ? "column" : "footer");
  uint8_t tmp[PQT_CRYPTO_MAX_KEY_BYTES];
  size_t n = 0;
  pqt_error inner;
  pqt_error_init(&inner);
  pqt_status st = fd->retriever(fd->retriever_ctx, kp ? kp : (const uint8_t *)"", kn, column_path, tmp, &n, &inner);
  if (st != PQT_OK) {
    OPENSSL_cleanse(tmp, sizeof tmp);
    inner.message[sizeof inner.message - 1] = '\0'; /* the callback may have filled it to the brim */
    return pqt_error_set(err, PQT_ECRYPTO, "%s: the key retriever has no key for %s%s%s", what, desc,
                         inner.message[0] ? ": " : "", inner.message);
  }
  if (n != 16 && n != 24 && n != 32) {
    OPENSSL_cleanse(tmp, sizeof tmp);
    return pqt_error_set(err, PQT_ECRYPTO,
                         "%s: the key retriever gave a %zu-byte key (AES keys are 16, 24 or 32 bytes)", what, n);
  }
  memcpy(key, tmp, n);
  OPENSSL_cleanse(tmp, sizeof tmp);
  *key_len = (uint32_t)n;
  return PQT_OK;
}

/* Common set-up: algorithm, AAD prefix rules, file AAD, keys copied. */
static pqt_status setup(pqt_file_decryptor **out, const pqt_read_options *opts, const pqt_encryption_algorithm *alg,
                        pqt_arena *arena, pqt_error *err) {
  pqt_file_decryptor *fd = pqt_arena_alloc(arena, sizeof *fd);
  if (!fd) return pqt_nomem(err);
  const pqt_aes_gcm_v1 *a;
  if (PQT_HAS_FIELD(alg, encryption_algorithm, aes_gcm_v1)) {
    fd->algorithm = PQT_AES_GCM_V1;
    a = &alg->aes_gcm_v1;
  } else if (PQT_HAS_FIELD(alg, encryption_algorithm, aes_gcm_ctr_v1)) {
    fd->algorithm = PQT_AES_GCM_CTR_V1;
    a = &alg->aes_gcm_ctr_v1;
  } else {
    return pqt_error_set(err, PQT_EUNSUPPORTED, "unknown encryption algorithm (not AES_GCM_V1 or AES_GCM_CTR_V1)");
  }
  /* AAD prefix: supplied, stored, or both (then equal). */
  const uint8_t *prefix = NULL;
  size_t prefix_len = 0;
  bool stored = PQT_HAS_FIELD(a, aes_gcm_v1, aad_prefix);
  if (opts->aad_prefix) {
    if (stored && ((size_t)a->aad_prefix.len != opts->aad_prefix_len ||
                   (opts->aad_prefix_len && memcmp(a->aad_prefix.ptr, opts->aad_prefix, opts->aad_prefix_len) != 0)))
      return pqt_error_set(err, PQT_ECRYPTO, "the AAD prefix given differs from the one stored in the file");
    prefix = opts->aad_prefix;
    prefix_len = opts->aad_prefix_len;
  } else if (stored) {
    prefix = a->aad_prefix.ptr;
    prefix_len = (size_t)a->aad_prefix.len;
  } else if (PQT_HAS_FIELD(a, aes_gcm_v1, supply_aad_prefix) && a->supply_aad_prefix) {
    return pqt_error_set(err, PQT_ECRYPTO,
                         "this file was encrypted with an AAD prefix it does not store: give the AAD prefix");
  }
  size_t unique_len = PQT_HAS_FIELD(a, aes_gcm_v1, aad_file_unique) ? (size_t)a->aad_file_unique.len : 0;
  size_t total;
  if (!pqt_add_size(prefix_len, unique_len, &total)) return pqt_error_set(err, PQT_ELIMIT, "AAD too long");
  fd->file_aad = pqt_arena_alloc(arena, total ? total : 1);
  if (!fd->file_aad) return pqt_nomem(err);
  if (prefix_len) memcpy(fd->file_aad, prefix, prefix_len);
  if (unique_len) memcpy(fd->file_aad + prefix_len, a->aad_file_unique.ptr, unique_len);
  fd->file_aad_len = total;
  /* Keys given in the options are copied, so callers may free theirs. */
  if (opts->footer_key) {
    if (opts->footer_key_len != 16 && opts->footer_key_len != 24 && opts->footer_key_len != 32)
      return pqt_error_set(err, PQT_EINVAL, "footer_key is %zu bytes (AES keys are 16, 24 or 32 bytes)",
                           opts->footer_key_len);
    memcpy(fd->footer_key, opts->footer_key, opts->footer_key_len);
    fd->footer_key_len = (uint32_t)opts->footer_key_len;
    fd->have_footer_key = true;
  }
  if (opts->n_column_keys < 0 || (opts->n_column_keys > 0 && !opts->column_keys))
    return pqt_error_set(err, PQT_EINVAL, "column_keys: bad count %d", opts->n_column_keys);
  if (opts->n_column_keys > 0) {
    fd->column_keys = pqt_arena_array(arena, (size_t)opts->n_column_keys, sizeof(pqt_column_key));
    if (!fd->column_keys) return pqt_nomem(err);
    for (int32_t i = 0; i < opts->n_column_keys; i++) {
      const pqt_column_key *k = &opts->column_keys[i];
      if (!k->path || !k->key || (k->key_len != 16 && k->key_len != 24 && k->key_len != 32))
        return pqt_error_set(err, PQT_EINVAL, "column_keys[%d]: needs a path and a 16, 24 or 32-byte key", i);
      char *path = pqt_arena_strdup(arena, k->path, strlen(k->path));
      uint8_t *key = pqt_arena_alloc(arena, k->key_len);
      if (!path || !key) return pqt_nomem(err);
      memcpy(key, k->key, k->key_len);
      fd->column_keys[i] = (pqt_column_key){path, key, k->key_len};
    }
    fd->n_column_keys = opts->n_column_keys;
  }
  fd->retriever = opts->key_retriever;
  fd->retriever_ctx = opts->key_retriever_ctx;
  *out = fd;
  return PQT_OK;
}

pqt_status pqt_file_decryptor_open_encrypted(pqt_file_decryptor **out, const pqt_read_options *opts, const uint8_t *buf,
                                             size_t len, pqt_arena *arena, const uint8_t **plain, size_t *plain_len,
                                             pqt_error *err) {
  *out = NULL;
  pqt_file_crypto_metadata fcm;
  size_t used = 0;
  pqt_status st = pqt_thrift_decode(&pqt_desc_file_crypto_metadata, buf, len, &used, arena, &fcm, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "encrypted footer: FileCryptoMetaData");
    return st;
  }
  pqt_file_decryptor *fd;
  st = setup(&fd, opts, &fcm.encryption_algorithm, arena, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "encrypted footer");
    return st;
  }
  fd->encrypted_footer = true;
  fd->no_aad = fd->file_aad_len == 0;
  if (!fd->have_footer_key) {
    st = retrieve(fd, PQT_HAS_FIELD(&fcm, file_crypto_metadata, key_metadata) ? &fcm.key_metadata : NULL, NULL,
                  fd->footer_key, &fd->footer_key_len, "encrypted footer", err);
    if (st != PQT_OK) return st;
    fd->have_footer_key = true;
  }
  pqt_module_decryptor d;
  PQT_RETURN_NOT_OK(pqt_module_decryptor_init(&d, fd->algorithm, fd->footer_key, fd->footer_key_len, fd->file_aad,
                                              fd->file_aad_len, err));
  d.no_aad = fd->no_aad;
  pqt_buf b;
  pqt_buf_init(&b, arena->alloc);
  size_t consumed = 0;
  st = pqt_module_decrypt(&d, PQT_MODULE_FOOTER, 0, buf + used, len - used, &consumed, &b, err);
  OPENSSL_cleanse(d.key, sizeof d.key);
  if (st == PQT_OK && consumed != len - used)
    st = pqt_corrupt(err, "footer: the module takes %zu bytes but %zu follow FileCryptoMetaData", consumed, len - used);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    if (st != PQT_ECRYPTO) pqt_error_prefix(err, "encrypted footer"); /* "footer: AES-GCM ..." says it already */
    return st;
  }
  uint8_t *copy = pqt_arena_alloc(arena, b.len ? b.len : 1);
  if (!copy) {
    pqt_buf_free(&b);
    return pqt_nomem(err);
  }
  memcpy(copy, b.data, b.len);
  *plain = copy;
  *plain_len = b.len;
  pqt_buf_free(&b);
  *out = fd;
  return PQT_OK;
}

pqt_status pqt_file_decryptor_open_plaintext(pqt_file_decryptor **out, const pqt_read_options *opts,
                                             const pqt_file_metadata *md, const uint8_t *buf, size_t len,
                                             pqt_arena *arena, pqt_error *err) {
  *out = NULL;
  pqt_file_decryptor *fd;
  pqt_status st = setup(&fd, opts, &md->encryption_algorithm, arena, err);
  if (st != PQT_OK) {
    pqt_error_prefix(err, "plaintext footer");
    return st;
  }
  if (!fd->have_footer_key && fd->retriever) {
    st = retrieve(
        fd, PQT_HAS_FIELD(md, file_metadata, footer_signing_key_metadata) ? &md->footer_signing_key_metadata : NULL,
        NULL, fd->footer_key, &fd->footer_key_len, "plaintext footer signature", err);
    if (st != PQT_OK) return st;
    fd->have_footer_key = true;
  }
  if (fd->have_footer_key && opts->verify_footer_signature) {
    PQT_RETURN_NOT_OK(pqt_file_decryptor_verify_footer(fd, buf, len, err));
    fd->footer_verified = true;
  }
  *out = fd;
  return PQT_OK;
}

pqt_status pqt_file_decryptor_verify_footer(const pqt_file_decryptor *fd, const uint8_t *buf, size_t len,
                                            pqt_error *err) {
  PQT_CHECK_CORRUPT(len > PQT_CRYPTO_SIGNATURE_BYTES, err,
                    "plaintext footer: %zu bytes cannot hold FileMetaData and its 28-byte signature", len);
  pqt_module_decryptor d;
  memset(&d, 0, sizeof d);
  size_t n = len - PQT_CRYPTO_SIGNATURE_BYTES;
  pqt_status st = pqt_module_decryptor_init(&d, fd->algorithm, fd->footer_key, fd->footer_key_len, fd->file_aad,
                                            fd->file_aad_len, err);
  if (st == PQT_OK) st = pqt_footer_verify(&d, buf, n, buf + n, err);
  OPENSSL_cleanse(d.key, sizeof d.key);
  return st;
}

int32_t pqt_file_decryptor_row_group_ordinal(const pqt_row_group *rg, int32_t g) {
  return PQT_HAS_FIELD(rg, row_group, ordinal) ? (int32_t)rg->ordinal : g;
}

pqt_status pqt_file_decryptor_column(const pqt_file_decryptor *fd, const pqt_column_chunk *cc, const char *path,
                                     int32_t rg_ordinal, int32_t column, pqt_module_decryptor *out, pqt_error *err) {
  const pqt_column_crypto_metadata *ccm = &cc->crypto_metadata;
  uint8_t key[PQT_CRYPTO_MAX_KEY_BYTES];
  uint32_t key_len = 0;
  if (PQT_HAS_FIELD(ccm, column_crypto_metadata, encryption_with_footer_key)) {
    if (!fd->have_footer_key)
      return pqt_error_set(err, PQT_ECRYPTO, "column is encrypted with the footer key, which was not given");
    memcpy(key, fd->footer_key, fd->footer_key_len);
    key_len = fd->footer_key_len;
  } else if (PQT_HAS_FIELD(ccm, column_crypto_metadata, encryption_with_column_key)) {
    const pqt_encryption_with_column_key *ck = &ccm->encryption_with_column_key;
    bool found = false;
    for (int32_t i = 0; i < fd->n_column_keys && !found; i++) {
      if (strcmp(fd->column_keys[i].path, path) == 0) {
        memcpy(key, fd->column_keys[i].key, fd->column_keys[i].key_len);
        key_len = (uint32_t)fd->column_keys[i].key_len;
        found = true;
      }
    }
    if (!found)
      PQT_RETURN_NOT_OK(retrieve(fd,
                                 PQT_HAS_FIELD(ck, encryption_with_column_key, key_metadata) ? &ck->key_metadata : NULL,
                                 path, key, &key_len, "column is encrypted with its own key", err));
  } else {
    return pqt_error_set(err, PQT_EUNSUPPORTED, "column crypto metadata of an unknown kind");
  }
  pqt_status st = pqt_module_decryptor_init(out, fd->algorithm, key, key_len, fd->file_aad, fd->file_aad_len, err);
  OPENSSL_cleanse(key, sizeof key);
  PQT_RETURN_NOT_OK(st);
  out->row_group = rg_ordinal;
  out->column = column;
  out->no_aad = fd->no_aad;
  return PQT_OK;
}

pqt_status pqt_file_decryptor_column_metadata(const pqt_file_decryptor *fd, pqt_file_metadata *md,
                                              const char *const *leaf_paths, int32_t n_leaves, pqt_arena *arena,
                                              pqt_error *err) {
  /* DuckDB's files (no AAD, see no_aad) encrypt every column with the
   * footer key without saying so in ColumnChunk.crypto_metadata: say it for
   * them, so every reader of the metadata treats the chunks as encrypted. */
  if (fd->encrypted_footer && fd->no_aad)
    for (int32_t g = 0; g < md->row_groups.n; g++)
      for (int32_t c = 0; c < md->row_groups.items[g].columns.n; c++) {
        pqt_column_chunk *cc = &md->row_groups.items[g].columns.items[c];
        if (PQT_HAS_FIELD(cc, column_chunk, crypto_metadata)) continue;
        memset(&cc->crypto_metadata, 0, sizeof cc->crypto_metadata);
        PQT_SET_FIELD(&cc->crypto_metadata, column_crypto_metadata, encryption_with_footer_key);
        PQT_SET_FIELD(cc, column_chunk, crypto_metadata);
      }
  pqt_buf b;
  pqt_buf_init(&b, arena->alloc);
  pqt_status st = PQT_OK;
  for (int32_t g = 0; g < md->row_groups.n && st == PQT_OK; g++) {
    pqt_row_group *rg = &md->row_groups.items[g];
    int32_t ord = pqt_file_decryptor_row_group_ordinal(rg, g);
    for (int32_t c = 0; c < rg->columns.n && c < n_leaves && st == PQT_OK; c++) {
      pqt_column_chunk *cc = &rg->columns.items[c];
      if (!PQT_HAS_FIELD(cc, column_chunk, crypto_metadata) ||
          !PQT_HAS_FIELD(cc, column_chunk, encrypted_column_metadata))
        continue;
      pqt_module_decryptor d;
      pqt_error ignored;
      if (pqt_file_decryptor_column(fd, cc, leaf_paths[c], ord, c, &d, &ignored) != PQT_OK) continue; /* no key */
      size_t used = 0;
      pqt_column_metadata cm;
      st = pqt_module_decrypt(&d, PQT_MODULE_COLUMN_METADATA, 0, cc->encrypted_column_metadata.ptr,
                              (size_t)cc->encrypted_column_metadata.len, &used, &b, err);
      OPENSSL_cleanse(d.key, sizeof d.key);
      uint8_t *copy = NULL;
      if (st == PQT_OK) {
        copy = pqt_arena_alloc(arena, b.len ? b.len : 1);
        if (!copy) st = pqt_nomem(err);
      }
      if (st == PQT_OK) {
        memcpy(copy, b.data, b.len);
        st = pqt_thrift_decode(&pqt_desc_column_metadata, copy, b.len, NULL, arena, &cm, err);
      }
      if (st == PQT_OK) {
        cc->meta_data = cm;
        cc->isset |= PQT_FIELD_MASK(column_chunk, meta_data);
      } else {
        if (err) {
          err->row_group = g;
          err->column = c;
        }
        pqt_error_prefix(err, "row group %d, column %s", g, leaf_paths[c]);
      }
    }
  }
  pqt_buf_free(&b);
  return st;
}

pqt_status pqt_decrypt_thrift_module(const pqt_module_decryptor *d, int module_type, const pqt_thrift_desc *desc,
                                     const uint8_t *src, size_t avail, size_t *consumed, pqt_buf *plain,
                                     pqt_arena *arena, void *out, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_module_decrypt(d, module_type, 0, src, avail, consumed, plain, err));
  pqt_status st = pqt_thrift_decode(desc, plain->data, plain->len, NULL, arena, out, err);
  if (st != PQT_OK) pqt_error_prefix(err, "%s", pqt_module_name(module_type));
  return st;
}

pqt_status pqt_decrypt_bloom_filter(const pqt_module_decryptor *d, const uint8_t *src, size_t avail,
                                    pqt_bloom_filter_header *hdr, pqt_buf *bitset, size_t *consumed, pqt_error *err) {
  pqt_buf hb;
  pqt_buf_init(&hb, bitset->alloc);
  size_t hused = 0, bused = 0;
  pqt_status st = pqt_decrypt_thrift_module(d, PQT_MODULE_BLOOM_FILTER_HEADER, &pqt_desc_bloom_filter_header, src,
                                            avail, &hused, &hb, NULL, hdr, err);
  pqt_buf_free(&hb);
  PQT_RETURN_NOT_OK(st);
  PQT_CHECK_CORRUPT(hdr->num_bytes >= 0, err, "bloom filter header: negative numBytes %d", hdr->num_bytes);
  PQT_RETURN_NOT_OK(
      pqt_module_decrypt(d, PQT_MODULE_BLOOM_FILTER_BITSET, 0, src + hused, avail - hused, &bused, bitset, err));
  PQT_CHECK_CORRUPT(bitset->len == (size_t)hdr->num_bytes, err, "bloom filter bitset: %zu bytes, the header says %d",
                    bitset->len, hdr->num_bytes);
  if (consumed) *consumed = hused + bused;
  return PQT_OK;
}

void pqt_file_decryptor_wipe(pqt_file_decryptor *fd) {
  if (!fd) return;
  OPENSSL_cleanse(fd->footer_key, sizeof fd->footer_key);
  for (int32_t i = 0; i < fd->n_column_keys; i++)
    OPENSSL_cleanse((void *)fd->column_keys[i].key, fd->column_keys[i].key_len);
}
