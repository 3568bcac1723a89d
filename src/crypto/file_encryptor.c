/* crypto/file_encryptor.c: see file_encryptor.h. */
#include "crypto/file_encryptor.h"

#include <openssl/crypto.h>

#include "core/struct_size.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#define FILE_UNIQUE_BYTES 8 /* aad_file_unique: as Arrow C++ and parquet-java write it */

void pqt_encryption_options_defaults(pqt_encryption_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->algorithm = PQT_ENCRYPTION_AES_GCM_V1;
  o->store_aad_prefix = 1;
}

PQT_DEFINE_INIT_SIZED(pqt_encryption_options, pqt_encryption_options_init_sized, pqt_encryption_options_defaults)

static bool key_size_ok(size_t n) { return n == 16 || n == 24 || n == 32; }

static pqt_status copy_bytes(pqt_arena *arena, const uint8_t *p, size_t n, pqt_bytes *out, pqt_error *err) {
  *out = (pqt_bytes){NULL, 0};
  if (!p || n == 0) return PQT_OK;
  if (n > INT32_MAX) return pqt_error_set(err, PQT_EINVAL, "encryption: key metadata of %zu bytes is too long", n);
  uint8_t *c = pqt_arena_alloc(arena, n);
  if (!c) return pqt_nomem(err);
  memcpy(c, p, n);
  *out = (pqt_bytes){c, (int64_t)n};
  return PQT_OK;
}

/* Does option path p name leaf `leaf` (the leaf itself or a group above it)? */
static bool path_covers(const char *p, const char *leaf) {
  size_t n = strlen(p);
  return n > 0 && strncmp(leaf, p, n) == 0 && (leaf[n] == 0 || leaf[n] == '.');
}

static pqt_status build(pqt_file_encryptor *fe, const pqt_encryption_options *given, const char *const *leaf_paths,
                        int32_t n_leaves, pqt_arena *arena, pqt_error *err) {
  pqt_encryption_options o;
  pqt_encryption_options_defaults(&o);
  PQT_RETURN_NOT_OK(pqt_options_copy(&o, sizeof o, given, "pqt_encryption_options", err));
  if (o.algorithm != PQT_ENCRYPTION_AES_GCM_V1 && o.algorithm != PQT_ENCRYPTION_AES_GCM_CTR_V1)
    return pqt_error_set(err, PQT_EINVAL, "encryption: unknown algorithm %d (AES_GCM_V1 or AES_GCM_CTR_V1)",
                         o.algorithm);
  if (!o.footer_key || !key_size_ok(o.footer_key_len))
    return pqt_error_set(err, PQT_EINVAL, "encryption: the footer key must be 16, 24 or 32 bytes (%s)",
                         o.footer_key ? "it has another size" : "none given");
  if (o.n_columns < 0 || (o.n_columns > 0 && !o.columns))
    return pqt_error_set(err, PQT_EINVAL, "encryption: bad column count %d", o.n_columns);
  if (o.aad_prefix_len > 0 && !o.aad_prefix)
    return pqt_error_set(err, PQT_EINVAL, "encryption: aad_prefix_len without aad_prefix");
  fe->algorithm = o.algorithm == PQT_ENCRYPTION_AES_GCM_V1 ? PQT_AES_GCM_V1 : PQT_AES_GCM_CTR_V1;
  fe->plaintext_footer = o.plaintext_footer != 0;

  /* the file AAD: prefix (given or not) | aad_file_unique */
  size_t plen = o.aad_prefix ? o.aad_prefix_len : 0;
  if (plen > INT32_MAX) return pqt_error_set(err, PQT_EINVAL, "encryption: AAD prefix too long");
  fe->file_aad_len = plen + FILE_UNIQUE_BYTES;
  fe->file_aad = pqt_arena_alloc(arena, fe->file_aad_len);
  if (!fe->file_aad) return pqt_nomem(err);
  if (plen) memcpy(fe->file_aad, o.aad_prefix, plen);
  PQT_RETURN_NOT_OK(pqt_crypto_random(fe->file_aad + plen, FILE_UNIQUE_BYTES, err));
  pqt_aes_gcm_v1 a;
  memset(&a, 0, sizeof a);
  a.aad_file_unique = (pqt_bytes){fe->file_aad + plen, FILE_UNIQUE_BYTES};
  PQT_SET_FIELD(&a, aes_gcm_v1, aad_file_unique);
  if (o.aad_prefix && o.store_aad_prefix) {
    a.aad_prefix = (pqt_bytes){fe->file_aad, (int64_t)plen};
    PQT_SET_FIELD(&a, aes_gcm_v1, aad_prefix);
  } else if (o.aad_prefix) {
    a.supply_aad_prefix = true;
    PQT_SET_FIELD(&a, aes_gcm_v1, supply_aad_prefix);
  }
  if (fe->algorithm == PQT_AES_GCM_V1) {
    fe->alg.aes_gcm_v1 = a;
    PQT_SET_FIELD(&fe->alg, encryption_algorithm, aes_gcm_v1);
  } else {
    fe->alg.aes_gcm_ctr_v1 = a;
    PQT_SET_FIELD(&fe->alg, encryption_algorithm, aes_gcm_ctr_v1);
  }

  PQT_RETURN_NOT_OK(pqt_module_decryptor_init(&fe->footer, fe->algorithm, o.footer_key, o.footer_key_len, fe->file_aad,
                                              fe->file_aad_len, err));
  PQT_RETURN_NOT_OK(copy_bytes(arena, o.footer_key_metadata, o.footer_key_metadata_len, &fe->footer_key_metadata, err));

  /* columns: all with the footer key, or exactly those listed */
  fe->cols = pqt_arena_array(arena, (size_t)n_leaves, sizeof *fe->cols);
  if (!fe->cols) return pqt_nomem(err);
  memset(fe->cols, 0, (size_t)n_leaves * sizeof *fe->cols);
  fe->n_cols = n_leaves;
  for (int32_t c = 0; c < n_leaves; c++)
    fe->cols[c].mode = o.n_columns == 0 ? PQT_COLUMN_FOOTER_KEY : PQT_COLUMN_PLAINTEXT;
  for (int32_t i = 0; i < o.n_columns; i++) {
    const pqt_column_encryption *ce = &o.columns[i];
    if (!ce->path || !ce->path[0]) return pqt_error_set(err, PQT_EINVAL, "encryption: column %d has no path", i);
    if (ce->key && !key_size_ok(ce->key_len))
      return pqt_error_set(err, PQT_EINVAL, "encryption: the key of column '%s' must be 16, 24 or 32 bytes", ce->path);
    bool any = false;
    for (int32_t c = 0; c < n_leaves; c++) {
      if (!path_covers(ce->path, leaf_paths[c])) continue;
      any = true;
      pqt_column_encryptor *col = &fe->cols[c];
      if (col->mode != PQT_COLUMN_PLAINTEXT)
        return pqt_error_set(err, PQT_EINVAL, "encryption: column %s is named twice", leaf_paths[c]);
      if (ce->key) {
        col->mode = PQT_COLUMN_OWN_KEY;
        PQT_RETURN_NOT_OK(pqt_module_decryptor_init(&col->enc, fe->algorithm, ce->key, ce->key_len, fe->file_aad,
                                                    fe->file_aad_len, err));
        PQT_RETURN_NOT_OK(copy_bytes(arena, ce->key_metadata, ce->key_metadata_len, &col->key_metadata, err));
      } else {
        col->mode = PQT_COLUMN_FOOTER_KEY;
      }
    }
    if (!any) return pqt_error_set(err, PQT_EINVAL, "encryption: no column '%s' in the schema", ce->path);
  }
  for (int32_t c = 0; c < n_leaves; c++) {
    pqt_column_encryptor *col = &fe->cols[c];
    if (col->mode == PQT_COLUMN_FOOTER_KEY) col->enc = fe->footer;
    col->enc.column = c;
  }
  return PQT_OK;
}

pqt_status pqt_file_encryptor_create(pqt_file_encryptor **out, const pqt_encryption_options *opts,
                                     const char *const *leaf_paths, int32_t n_leaves, pqt_arena *arena,
                                     pqt_error *err) {
  *out = NULL;
  if (!opts) return pqt_error_set(err, PQT_EINVAL, "encryption: no options");
  pqt_file_encryptor *fe = pqt_arena_alloc(arena, sizeof *fe);
  if (!fe) return pqt_nomem(err);
  memset(fe, 0, sizeof *fe);
  pqt_status st = build(fe, opts, leaf_paths, n_leaves, arena, err);
  if (st != PQT_OK) {
    pqt_file_encryptor_wipe(fe); /* keys copied before the failure */
    return st;
  }
  *out = fe;
  return PQT_OK;
}

const char *pqt_file_encryptor_magic(const pqt_file_encryptor *fe) { return fe->plaintext_footer ? "PAR1" : "PARE"; }

const pqt_module_encryptor *pqt_file_encryptor_column(const pqt_file_encryptor *fe, int32_t c) {
  if (c < 0 || c >= fe->n_cols || fe->cols[c].mode == PQT_COLUMN_PLAINTEXT) return NULL;
  return &fe->cols[c].enc;
}

void pqt_file_encryptor_set_row_group(pqt_file_encryptor *fe, int32_t rg) {
  for (int32_t c = 0; c < fe->n_cols; c++) fe->cols[c].enc.row_group = rg;
}

pqt_status pqt_bloom_filter_encrypt(const pqt_module_encryptor *e, const uint8_t *plain, size_t plen, pqt_buf *out,
                                    pqt_error *err) {
  pqt_bloom_filter_header h;
  size_t used = 0;
  PQT_RETURN_NOT_OK(pqt_thrift_decode(&pqt_desc_bloom_filter_header, plain, plen, &used, NULL, &h, err));
  if (h.num_bytes < 0 || (size_t)h.num_bytes != plen - used)
    return pqt_error_set(err, PQT_EINVAL, "bloom filter of %zu bytes does not match its header (%d)", plen - used,
                         h.num_bytes);
  PQT_RETURN_NOT_OK(pqt_module_encrypt(e, PQT_MODULE_BLOOM_FILTER_HEADER, 0, plain, used, NULL, out, err));
  return pqt_module_encrypt(e, PQT_MODULE_BLOOM_FILTER_BITSET, 0, plain + used, plen - used, NULL, out, err);
}

pqt_status pqt_file_encryptor_column_chunk(const pqt_file_encryptor *fe, int32_t rg, int32_t c, pqt_column_chunk *cc,
                                           pqt_arena *arena, pqt_error *err) {
  if (c < 0 || c >= fe->n_cols) return pqt_error_set(err, PQT_EINVAL, "encryption: no column %d", c);
  const pqt_column_encryptor *col = &fe->cols[c];
  if (col->mode == PQT_COLUMN_PLAINTEXT) return PQT_OK;
  pqt_column_crypto_metadata *ccm = &cc->crypto_metadata;
  memset(ccm, 0, sizeof *ccm);
  if (col->mode == PQT_COLUMN_FOOTER_KEY) {
    PQT_SET_FIELD(ccm, column_crypto_metadata, encryption_with_footer_key);
  } else {
    pqt_encryption_with_column_key *ck = &ccm->encryption_with_column_key;
    ck->path_in_schema = cc->meta_data.path_in_schema;
    PQT_SET_FIELD(ck, encryption_with_column_key, path_in_schema);
    if (col->key_metadata.len > 0) {
      ck->key_metadata = col->key_metadata;
      PQT_SET_FIELD(ck, encryption_with_column_key, key_metadata);
    }
    PQT_SET_FIELD(ccm, column_crypto_metadata, encryption_with_column_key);
  }
  PQT_SET_FIELD(cc, column_chunk, crypto_metadata);
  if (col->mode == PQT_COLUMN_FOOTER_KEY && !fe->plaintext_footer) return PQT_OK; /* inside the encrypted footer */
  pqt_buf plain, enc;
  pqt_buf_init(&plain, arena->alloc);
  pqt_buf_init(&enc, arena->alloc);
  pqt_module_encryptor e = col->enc;
  e.row_group = rg;
  pqt_status st = pqt_thrift_encode(&pqt_desc_column_metadata, &cc->meta_data, &plain, err);
  if (st == PQT_OK) st = pqt_module_encrypt(&e, PQT_MODULE_COLUMN_METADATA, 0, plain.data, plain.len, NULL, &enc, err);
  OPENSSL_cleanse(e.key, sizeof e.key);
  uint8_t *copy = NULL;
  if (st == PQT_OK && enc.len > INT32_MAX) st = pqt_error_set(err, PQT_ELIMIT, "column metadata too large");
  if (st == PQT_OK && !(copy = pqt_arena_alloc(arena, enc.len))) st = pqt_nomem(err);
  if (st == PQT_OK) {
    memcpy(copy, enc.data, enc.len);
    cc->encrypted_column_metadata = (pqt_bytes){copy, (int64_t)enc.len};
    PQT_SET_FIELD(cc, column_chunk, encrypted_column_metadata);
    if (!fe->plaintext_footer) {
      cc->isset &= ~PQT_FIELD_MASK(column_chunk, meta_data);
    } else {
      /* what a reader without the key may see: where the chunk is, not what it holds */
      cc->meta_data.isset &=
          ~PQT_FIELD_MASK(column_metadata, statistics, encoding_stats, size_statistics, geospatial_statistics);
    }
  }
  pqt_buf_free(&plain);
  pqt_buf_free(&enc);
  return st;
}

pqt_status pqt_file_encryptor_footer(const pqt_file_encryptor *fe, pqt_file_metadata *md, pqt_buf *out,
                                     pqt_error *err) {
  pqt_buf f;
  pqt_buf_init(&f, out->alloc);
  size_t start = out->len;
  pqt_status st;
  if (fe->plaintext_footer) {
    md->encryption_algorithm = fe->alg;
    PQT_SET_FIELD(md, file_metadata, encryption_algorithm);
    if (fe->footer_key_metadata.len > 0) {
      md->footer_signing_key_metadata = fe->footer_key_metadata;
      PQT_SET_FIELD(md, file_metadata, footer_signing_key_metadata);
    }
    st = pqt_thrift_encode(&pqt_desc_file_metadata, md, out, err);
    uint8_t sig[PQT_CRYPTO_SIGNATURE_BYTES];
    if (st == PQT_OK) st = pqt_footer_sign(&fe->footer, out->data + start, out->len - start, NULL, sig, err);
    if (st == PQT_OK) st = pqt_buf_append(out, sig, sizeof sig, err);
  } else {
    pqt_file_crypto_metadata fcm;
    memset(&fcm, 0, sizeof fcm);
    fcm.encryption_algorithm = fe->alg;
    PQT_SET_FIELD(&fcm, file_crypto_metadata, encryption_algorithm);
    if (fe->footer_key_metadata.len > 0) {
      fcm.key_metadata = fe->footer_key_metadata;
      PQT_SET_FIELD(&fcm, file_crypto_metadata, key_metadata);
    }
    st = pqt_thrift_encode(&pqt_desc_file_crypto_metadata, &fcm, out, err);
    if (st == PQT_OK) st = pqt_thrift_encode(&pqt_desc_file_metadata, md, &f, err);
    if (st == PQT_OK) st = pqt_module_encrypt(&fe->footer, PQT_MODULE_FOOTER, 0, f.data, f.len, NULL, out, err);
  }
  pqt_buf_free(&f);
  PQT_RETURN_NOT_OK(st);
  size_t len = out->len - start;
  if (len > UINT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "footer too large");
  uint8_t tail[8];
  pqt_store_u32le(tail, (uint32_t)len);
  memcpy(tail + 4, pqt_file_encryptor_magic(fe), 4);
  return pqt_buf_append(out, tail, 8, err);
}

void pqt_file_encryptor_wipe(pqt_file_encryptor *fe) {
  if (!fe) return;
  pqt_module_decryptor_wipe(&fe->footer);
  for (int32_t c = 0; c < fe->n_cols; c++) pqt_module_decryptor_wipe(&fe->cols[c].enc);
}
