/* crypto/keytools.c: key tools of parquet-java / Arrow C++ (see
 * include/parquetry_keytools.h): local AES-GCM key wrapping, the test-only
 * in-memory KMS, the key retriever for reading and the key set-up for
 * writing. */
#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "core/struct_size.h"
#include "crypto/crypto.h"
#include "crypto/key_material_json.h"
#include "parquetry_keytools.h"

#define KEK_BYTES    16 /* parquet-java's and Arrow's KEK length */
#define KEK_ID_BYTES 16
#define MAX_ID_BYTES 256 /* master key ids */
#define WRAP_MAX_RAW (PQT_CRYPTO_NONCE_BYTES + PQT_CRYPTO_MAX_KEY_BYTES + PQT_CRYPTO_TAG_BYTES)

static const pqt_allocator *A(void) { return pqt_default_allocator(); }

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = pqt_mem_alloc(A(), n);
  if (c) memcpy(c, s, n);
  return c;
}

static void free_str(char *s) {
  if (s) pqt_mem_free(A(), s, strlen(s) + 1);
}

/* ---- local wrapping: base64(nonce | AES-GCM(key) | tag), AAD given ---- */
static const EVP_CIPHER *gcm_cipher(size_t key_len) {
  return key_len == 16   ? EVP_aes_128_gcm()
         : key_len == 24 ? EVP_aes_192_gcm()
         : key_len == 32 ? EVP_aes_256_gcm()
                         : NULL;
}

static pqt_status wrap_local(const uint8_t *key, size_t key_len, const uint8_t *wkey, size_t wkey_len,
                             const uint8_t *aad, size_t aad_len, pqt_buf *out, pqt_error *err) {
  const EVP_CIPHER *c = gcm_cipher(wkey_len);
  if (!c || key_len > PQT_CRYPTO_MAX_KEY_BYTES)
    return pqt_error_set(err, PQT_EINVAL, "key wrapping: a %zu-byte wrapping key (16, 24 or 32 bytes)", wkey_len);
  uint8_t raw[WRAP_MAX_RAW];
  pqt_status st = pqt_crypto_random(raw, PQT_CRYPTO_NONCE_BYTES, err);
  if (st != PQT_OK) return st;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int len = 0, ok = ctx != NULL;
  ok = ok && EVP_EncryptInit_ex(ctx, c, NULL, wkey, raw) == 1;
  ok = ok && (aad_len == 0 || EVP_EncryptUpdate(ctx, NULL, &len, aad, (int)aad_len) == 1);
  ok = ok && EVP_EncryptUpdate(ctx, raw + PQT_CRYPTO_NONCE_BYTES, &len, key, (int)key_len) == 1;
  ok = ok && EVP_EncryptFinal_ex(ctx, raw + PQT_CRYPTO_NONCE_BYTES + len, &len) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, PQT_CRYPTO_TAG_BYTES,
                                 raw + PQT_CRYPTO_NONCE_BYTES + key_len) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) return pqt_error_set(err, PQT_ECRYPTO, "key wrapping: AES-GCM failed");
  return pqt_base64_append(out, raw, PQT_CRYPTO_NONCE_BYTES + key_len + PQT_CRYPTO_TAG_BYTES, err);
}

/* what names the wrapped key in errors ("wrappedDEK of column x"). */
static pqt_status unwrap_local(const char *wrapped, const uint8_t *wkey, size_t wkey_len, const uint8_t *aad,
                               size_t aad_len, uint8_t *key_out, size_t *key_len, const char *what, pqt_error *err) {
  const EVP_CIPHER *c = gcm_cipher(wkey_len);
  if (!c) return pqt_error_set(err, PQT_ECRYPTO, "%s: a %zu-byte wrapping key (16, 24 or 32 bytes)", what, wkey_len);
  uint8_t raw[WRAP_MAX_RAW];
  size_t n;
  pqt_status st = pqt_km_base64_decode(wrapped, strlen(wrapped), raw, sizeof raw, &n, what, err);
  if (st != PQT_OK) return st;
  if (n < PQT_CRYPTO_NONCE_BYTES + PQT_CRYPTO_TAG_BYTES + 16)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: %zu bytes, too short for a wrapped key", what, n);
  size_t kl = n - PQT_CRYPTO_NONCE_BYTES - PQT_CRYPTO_TAG_BYTES;
  if (kl != 16 && kl != 24 && kl != 32)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: wraps a %zu-byte key (16, 24 or 32 bytes)", what, kl);
  uint8_t tag[PQT_CRYPTO_TAG_BYTES];
  memcpy(tag, raw + PQT_CRYPTO_NONCE_BYTES + kl, sizeof tag);
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int len = 0, ok = ctx != NULL;
  ok = ok && EVP_DecryptInit_ex(ctx, c, NULL, wkey, raw) == 1;
  ok = ok && (aad_len == 0 || EVP_DecryptUpdate(ctx, NULL, &len, aad, (int)aad_len) == 1);
  ok = ok && EVP_DecryptUpdate(ctx, key_out, &len, raw + PQT_CRYPTO_NONCE_BYTES, (int)kl) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, sizeof tag, tag) == 1;
  int fin = ok ? EVP_DecryptFinal_ex(ctx, key_out + len, &len) : 0;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok || fin != 1) {
    OPENSSL_cleanse(key_out, kl);
    return pqt_error_set(err, PQT_ECRYPTO, "%s: AES-GCM authentication failed (wrong key?)", what);
  }
  *key_len = kl;
  return PQT_OK;
}

/* ---- the in-memory KMS ---- */
typedef struct kms_key {
  char *id;
  uint8_t key[PQT_CRYPTO_MAX_KEY_BYTES];
  size_t len;
} kms_key;

struct pqt_inmemory_kms {
  kms_key *keys;
  int32_t n, cap;
};

PQT_API pqt_status pqt_inmemory_kms_new(pqt_inmemory_kms **out, pqt_error *err) {
  *out = pqt_mem_calloc(A(), sizeof **out);
  return *out ? PQT_OK : pqt_nomem(err);
}

static const kms_key *kms_find(const pqt_inmemory_kms *kms, const char *id) {
  for (int32_t k = 0; k < kms->n; k++)
    if (strcmp(kms->keys[k].id, id) == 0) return &kms->keys[k];
  return NULL;
}

PQT_API pqt_status pqt_inmemory_kms_add_key(pqt_inmemory_kms *kms, const char *id, const uint8_t *key, size_t key_len,
                                            pqt_error *err) {
  if (!kms || !id || !key) return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: NULL argument");
  if (!id[0] || strlen(id) > MAX_ID_BYTES)
    return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: a master key id of 1 to %d bytes", MAX_ID_BYTES);
  if (key_len != 16 && key_len != 24 && key_len != 32)
    return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: master key \"%s\" has %zu bytes (16, 24 or 32)", id, key_len);
  if (kms_find(kms, id)) return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: master key \"%s\" given twice", id);
  if (kms->n == kms->cap) {
    int32_t nc = kms->cap ? kms->cap * 2 : 8;
    kms_key *nk = pqt_mem_calloc(A(), sizeof *nk * (size_t)nc);
    if (!nk) return pqt_nomem(err);
    if (kms->keys) { /* moved, not realloc'ed: the old copy of the keys is wiped */
      memcpy(nk, kms->keys, sizeof *nk * (size_t)kms->n);
      OPENSSL_cleanse(kms->keys, sizeof *nk * (size_t)kms->cap);
      pqt_mem_free(A(), kms->keys, sizeof *nk * (size_t)kms->cap);
    }
    kms->keys = nk;
    kms->cap = nc;
  }
  kms_key *k = &kms->keys[kms->n];
  k->id = dup_str(id);
  if (!k->id) return pqt_nomem(err);
  memcpy(k->key, key, key_len);
  k->len = key_len;
  kms->n++;
  return PQT_OK;
}

PQT_API pqt_status pqt_inmemory_kms_add_key_base64(pqt_inmemory_kms *kms, const char *id, const char *base64,
                                                   pqt_error *err) {
  if (!base64) return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: NULL argument");
  uint8_t key[PQT_CRYPTO_MAX_KEY_BYTES];
  size_t n;
  pqt_error inner;
  pqt_error_init(&inner);
  if (pqt_km_base64_decode(base64, strlen(base64), key, sizeof key, &n, "key", &inner) != PQT_OK)
    return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: master key \"%s\" is not base64 of 16, 24 or 32 bytes",
                         id ? id : "");
  pqt_status st = pqt_inmemory_kms_add_key(kms, id, key, n, err);
  OPENSSL_cleanse(key, sizeof key);
  return st;
}

static pqt_status kms_wrap(void *ctx, const char *master_key_id, const uint8_t *key, size_t key_len, char *out,
                           size_t out_cap, pqt_error *err) {
  const kms_key *mk = kms_find(ctx, master_key_id);
  if (!mk) return pqt_error_set(err, PQT_ECRYPTO, "in-memory KMS: no master key \"%s\"", master_key_id);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_status st =
      wrap_local(key, key_len, mk->key, mk->len, (const uint8_t *)master_key_id, strlen(master_key_id), &b, err);
  if (st == PQT_OK && b.len + 1 > out_cap)
    st = pqt_error_set(err, PQT_EINVAL, "in-memory KMS: no room for a wrapped key");
  if (st == PQT_OK) {
    memcpy(out, b.data, b.len);
    out[b.len] = '\0';
  }
  pqt_buf_free(&b);
  return st;
}

static pqt_status kms_unwrap(void *ctx, const char *master_key_id, const char *wrapped, uint8_t *key_out,
                             size_t key_cap, size_t *key_len, pqt_error *err) {
  const kms_key *mk = kms_find(ctx, master_key_id);
  if (!mk) return pqt_error_set(err, PQT_ECRYPTO, "in-memory KMS: no master key \"%s\"", master_key_id);
  if (key_cap < PQT_CRYPTO_MAX_KEY_BYTES) return pqt_error_set(err, PQT_EINVAL, "in-memory KMS: key_cap below 32");
  char what[MAX_ID_BYTES + 64];
  snprintf(what, sizeof what, "in-memory KMS: unwrapping with master key \"%s\"", master_key_id);
  return unwrap_local(wrapped, mk->key, mk->len, (const uint8_t *)master_key_id, strlen(master_key_id), key_out,
                      key_len, what, err);
}

PQT_API void pqt_inmemory_kms_client(pqt_inmemory_kms *kms, pqt_kms_client *out) {
  *out = (pqt_kms_client){.struct_size = sizeof *out, .ctx = kms, .wrap = kms_wrap, .unwrap = kms_unwrap};
}

PQT_API void pqt_inmemory_kms_free(pqt_inmemory_kms *kms) {
  if (!kms) return;
  for (int32_t k = 0; k < kms->n; k++) free_str(kms->keys[k].id);
  if (kms->keys) {
    OPENSSL_cleanse(kms->keys, sizeof *kms->keys * (size_t)kms->cap);
    pqt_mem_free(A(), kms->keys, sizeof *kms->keys * (size_t)kms->cap);
  }
  pqt_mem_free(A(), kms, sizeof *kms);
}

static pqt_status copy_kms(pqt_kms_client *dst, const pqt_kms_client *src, pqt_error *err) {
  if (!src || src->struct_size < sizeof *src || !src->wrap || !src->unwrap)
    return pqt_error_set(err, PQT_EINVAL, "key tools: a pqt_kms_client with struct_size, wrap and unwrap is needed");
  *dst = *src;
  return PQT_OK;
}

/* Unwrap one key's material with the KMS. what: "footer key", "key of column x". */
static pqt_status unwrap_material(const pqt_kms_client *kms, const pqt_key_material *m, uint8_t *key, size_t *key_len,
                                  const char *what, pqt_error *err) {
  char msg[512];
  pqt_error inner;
  pqt_error_init(&inner);
  if (strlen(m->master_key_id) > MAX_ID_BYTES)
    return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: a master key id longer than %d bytes", what, MAX_ID_BYTES);
  if (!m->double_wrapping) {
    if (kms->unwrap(kms->ctx, m->master_key_id, m->wrapped_dek, key, PQT_CRYPTO_MAX_KEY_BYTES, key_len, &inner) !=
        PQT_OK) {
      inner.message[sizeof inner.message - 1] = '\0';
      snprintf(msg, sizeof msg, "%s", inner.message);
      return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s (master key \"%s\"): %s", what, m->master_key_id, msg);
    }
  } else {
    uint8_t kek[PQT_CRYPTO_MAX_KEY_BYTES], kek_id[64];
    size_t kek_len = 0, kek_id_len = 0;
    pqt_status st = pqt_km_base64_decode(m->kek_id, strlen(m->kek_id), kek_id, sizeof kek_id, &kek_id_len,
                                         "keyEncryptionKeyID", &inner);
    if (st == PQT_OK) st = kms->unwrap(kms->ctx, m->master_key_id, m->wrapped_kek, kek, sizeof kek, &kek_len, &inner);
    if (st == PQT_OK && kek_len != 16 && kek_len != 24 && kek_len != 32)
      st = pqt_error_set(&inner, PQT_ECRYPTO, "the KMS gave a %zu-byte key encryption key", kek_len);
    if (st == PQT_OK)
      st = unwrap_local(m->wrapped_dek, kek, kek_len, kek_id, kek_id_len, key, key_len, "wrappedDEK", &inner);
    OPENSSL_cleanse(kek, sizeof kek);
    if (st != PQT_OK) {
      inner.message[sizeof inner.message - 1] = '\0';
      snprintf(msg, sizeof msg, "%s", inner.message);
      return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s (master key \"%s\", double wrapping): %s", what,
                           m->master_key_id, msg);
    }
  }
  if (*key_len != 16 && *key_len != 24 && *key_len != 32) {
    OPENSSL_cleanse(key, PQT_CRYPTO_MAX_KEY_BYTES);
    return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: unwrapped to a %zu-byte key", what, *key_len);
  }
  return PQT_OK;
}

/* ---- the material file's path ---- */
PQT_API pqt_status pqt_keytools_material_path(const char *parquet_path, char *out, size_t cap, pqt_error *err) {
  if (!parquet_path) return pqt_error_set(err, PQT_EINVAL, "key tools: no file path");
  const char *slash = strrchr(parquet_path, '/');
  size_t dir_len = slash ? (size_t)(slash - parquet_path) + 1 : 0;
  int n = snprintf(out, cap, "%.*s_KEY_MATERIAL_FOR_%s.json", (int)dir_len, parquet_path, parquet_path + dir_len);
  if (n < 0 || (size_t)n >= cap)
    return pqt_error_set(err, PQT_EINVAL, "key tools: the path of the key material file is too long");
  return PQT_OK;
}

/* ---- reading ---- */
struct pqt_keytools_reader {
  pqt_kms_client kms;
  char *path; /* the Parquet file, or NULL */
  bool loaded;
  pqt_status load_status;
  char load_msg[512];
  pqt_json_flat external; /* the material file */
};

PQT_API pqt_status pqt_keytools_reader_new(pqt_keytools_reader **out, const pqt_kms_client *kms,
                                           const char *parquet_path, pqt_error *err) {
  *out = NULL;
  pqt_keytools_reader *kr = pqt_mem_calloc(A(), sizeof *kr);
  if (!kr) return pqt_nomem(err);
  pqt_status st = copy_kms(&kr->kms, kms, err);
  if (st == PQT_OK && parquet_path && !(kr->path = dup_str(parquet_path))) st = pqt_nomem(err);
  if (st != PQT_OK) {
    pqt_keytools_reader_free(kr);
    return st;
  }
  *out = kr;
  return PQT_OK;
}

PQT_API void pqt_keytools_reader_free(pqt_keytools_reader *kr) {
  if (!kr) return;
  free_str(kr->path);
  pqt_json_flat_free(&kr->external);
  pqt_mem_free(A(), kr, sizeof *kr);
}

/* Read the external material file (once). */
static pqt_status load_external(pqt_keytools_reader *kr, pqt_error *err) {
  if (kr->loaded) {
    if (kr->load_status != PQT_OK) return pqt_error_set(err, kr->load_status, "%s", kr->load_msg);
    return PQT_OK;
  }
  kr->loaded = true;
  pqt_error e;
  pqt_error_init(&e);
  char mpath[4096];
  pqt_status st = PQT_OK;
  if (!kr->path) {
    st = pqt_error_set(&e, PQT_ECRYPTO,
                       "key tools: the key material is external (in _KEY_MATERIAL_FOR_<file>.json) but no file path "
                       "was given to find it");
  } else if ((st = pqt_keytools_material_path(kr->path, mpath, sizeof mpath, &e)) == PQT_OK) {
    FILE *f = fopen(mpath, "rb");
    if (!f) {
      st = pqt_error_set(&e, PQT_ECRYPTO, "key tools: cannot open the external key material file '%s': %s", mpath,
                         strerror(errno));
    } else {
      char *buf = pqt_mem_alloc(A(), PQT_KEY_MATERIAL_FILE_MAX_BYTES + 1);
      if (!buf) {
        st = pqt_nomem(&e);
      } else {
        size_t n = fread(buf, 1, PQT_KEY_MATERIAL_FILE_MAX_BYTES + 1, f);
        if (ferror(f))
          st = pqt_error_set(&e, PQT_EIO, "key tools: cannot read the external key material file '%s'", mpath);
        else if (n > PQT_KEY_MATERIAL_FILE_MAX_BYTES)
          st = pqt_error_set(&e, PQT_ECRYPTO, "key tools: the external key material file '%s' is larger than %d bytes",
                             mpath, PQT_KEY_MATERIAL_FILE_MAX_BYTES);
        else {
          pqt_error pe;
          pqt_error_init(&pe);
          if ((st = pqt_json_flat_parse(buf, n, "JSON", &kr->external, &pe)) != PQT_OK)
            st = pqt_error_set(&e, PQT_ECRYPTO, "key tools: external key material file '%s': %s", mpath, pe.message);
        }
        pqt_mem_free(A(), buf, PQT_KEY_MATERIAL_FILE_MAX_BYTES + 1);
      }
      fclose(f);
    }
  }
  kr->load_status = st;
  snprintf(kr->load_msg, sizeof kr->load_msg, "%s", e.message);
  if (st != PQT_OK) return pqt_error_set(err, st, "%s", kr->load_msg);
  return PQT_OK;
}

PQT_API pqt_status pqt_keytools_key_retriever(void *ctx, const uint8_t *key_metadata, size_t key_metadata_len,
                                              const char *column_path, uint8_t *key_out, size_t *key_len,
                                              pqt_error *err) {
  pqt_keytools_reader *kr = ctx;
  char what[256];
  if (column_path) snprintf(what, sizeof what, "key of column %.200s", column_path);
  else snprintf(what, sizeof what, "footer key");
  if (key_metadata_len > PQT_KEY_MATERIAL_MAX_BYTES)
    return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: %zu bytes of key_metadata (at most %d)", what,
                         key_metadata_len, PQT_KEY_MATERIAL_MAX_BYTES);
  pqt_key_material meta, ext;
  memset(&ext, 0, sizeof ext);
  pqt_error inner;
  pqt_error_init(&inner);
  if (pqt_key_metadata_parse((const char *)key_metadata, key_metadata_len, &meta, &inner) != PQT_OK)
    return pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: %s", what, inner.message);
  const pqt_key_material *m = &meta;
  pqt_status st = PQT_OK;
  if (!meta.internal_storage) {
    if ((st = load_external(kr, err)) != PQT_OK) goto done;
    const pqt_json_flat_member *v = pqt_json_flat_get(&kr->external, meta.key_reference);
    char mpath[4096];
    if (pqt_keytools_material_path(kr->path, mpath, sizeof mpath, &inner) != PQT_OK) mpath[0] = '\0';
    if (!v || v->kind != PQT_JSON_FLAT_STRING) {
      st = pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: the external key material file '%s' has no %s \"%.64s\"",
                         what, mpath, v ? "string for" : "key reference", meta.key_reference);
      goto done;
    }
    if (v->value_len > PQT_KEY_MATERIAL_MAX_BYTES) {
      st = pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: material of %zu bytes in '%s' (at most %d)", what,
                         v->value_len, mpath, PQT_KEY_MATERIAL_MAX_BYTES);
      goto done;
    }
    if (pqt_key_material_parse(v->value, v->value_len, false, &ext, &inner) != PQT_OK) {
      st = pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: '%s', \"%.64s\": %s", what, mpath, meta.key_reference,
                         inner.message);
      goto done;
    }
    m = &ext;
  }
  if (m->is_footer_key != (column_path == NULL)) {
    st = pqt_error_set(err, PQT_ECRYPTO, "key tools: %s: the material says isFooterKey %s", what,
                       m->is_footer_key ? "true" : "false");
    goto done;
  }
  st = unwrap_material(&kr->kms, m, key_out, key_len, what, err);
done:
  pqt_key_material_free(&meta);
  pqt_key_material_free(&ext);
  return st;
}

/* ---- writing ---- */
static void write_options_defaults(pqt_keytools_write_options *o) {
  memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->double_wrapping = 1;
  o->data_key_bytes = 16;
}

PQT_DEFINE_INIT_SIZED(pqt_keytools_write_options, pqt_keytools_write_options_init_sized, write_options_defaults)

typedef struct kt_key {
  uint8_t dek[PQT_CRYPTO_MAX_KEY_BYTES];
  char *path;       /* NULL: the footer */
  char *reference;  /* "footerKey", "columnKeyN" */
  pqt_buf material; /* the material JSON (external form) */
  pqt_buf metadata; /* key_metadata */
} kt_key;

typedef struct kt_kek {
  char *master_key_id;
  uint8_t kek[KEK_BYTES];
  uint8_t id[KEK_ID_BYTES];
  pqt_buf encoded_id, wrapped;
} kt_kek;

struct pqt_keytools_writer {
  pqt_keytools_write_options o;
  pqt_kms_client kms;
  int32_t dek_len;
  kt_key *keys; /* [0] the footer, then the columns */
  int32_t n_keys;
  kt_kek *keks;
  int32_t n_keks;
  pqt_column_encryption *cols;
};

PQT_API void pqt_keytools_writer_free(pqt_keytools_writer *kw) {
  if (!kw) return;
  for (int32_t k = 0; k < kw->n_keys; k++) {
    OPENSSL_cleanse(kw->keys[k].dek, sizeof kw->keys[k].dek);
    free_str(kw->keys[k].path);
    free_str(kw->keys[k].reference);
    pqt_buf_free(&kw->keys[k].material);
    pqt_buf_free(&kw->keys[k].metadata);
  }
  for (int32_t k = 0; k < kw->n_keks; k++) {
    OPENSSL_cleanse(kw->keks[k].kek, sizeof kw->keks[k].kek);
    free_str(kw->keks[k].master_key_id);
    pqt_buf_free(&kw->keks[k].encoded_id);
    pqt_buf_free(&kw->keks[k].wrapped);
  }
  int32_t nk = kw->o.n_columns + 1;
  if (kw->keys) pqt_mem_free(A(), kw->keys, sizeof *kw->keys * (size_t)nk);
  if (kw->keks) pqt_mem_free(A(), kw->keks, sizeof *kw->keks * (size_t)nk);
  if (kw->cols) pqt_mem_free(A(), kw->cols, sizeof *kw->cols * (size_t)nk);
  pqt_mem_free(A(), kw, sizeof *kw);
}

/* Wrap with the KMS into a NUL-terminated string in buf. */
static pqt_status kms_wrap_to(pqt_keytools_writer *kw, const char *master_key_id, const uint8_t *key, size_t key_len,
                              pqt_buf *out, pqt_error *err) {
  char wrapped[PQT_KMS_WRAPPED_MAX];
  pqt_error inner;
  pqt_error_init(&inner);
  wrapped[0] = '\0';
  if (kw->kms.wrap(kw->kms.ctx, master_key_id, key, key_len, wrapped, sizeof wrapped, &inner) != PQT_OK) {
    inner.message[sizeof inner.message - 1] = '\0';
    return pqt_error_set(err, PQT_ECRYPTO, "key tools: wrapping with master key \"%s\": %s", master_key_id,
                         inner.message);
  }
  wrapped[sizeof wrapped - 1] = '\0';
  pqt_buf_append(out, wrapped, strlen(wrapped) + 1, err);
  return pqt_buf_status(out, err);
}

static pqt_status get_kek(pqt_keytools_writer *kw, const char *master_key_id, kt_kek **out, pqt_error *err) {
  for (int32_t k = 0; k < kw->n_keks; k++)
    if (strcmp(kw->keks[k].master_key_id, master_key_id) == 0) {
      *out = &kw->keks[k];
      return PQT_OK;
    }
  kt_kek *e = &kw->keks[kw->n_keks++];
  pqt_buf_init(&e->encoded_id, NULL);
  pqt_buf_init(&e->wrapped, NULL);
  if (!(e->master_key_id = dup_str(master_key_id))) return pqt_nomem(err);
  pqt_status st = pqt_crypto_random(e->kek, sizeof e->kek, err);
  if (st == PQT_OK) st = pqt_crypto_random(e->id, sizeof e->id, err);
  if (st == PQT_OK) st = pqt_base64_append(&e->encoded_id, e->id, sizeof e->id, err);
  if (st == PQT_OK) st = pqt_buf_append(&e->encoded_id, "", 1, err);
  if (st == PQT_OK) st = kms_wrap_to(kw, master_key_id, e->kek, sizeof e->kek, &e->wrapped, err);
  *out = e;
  return st;
}

static pqt_status make_key(pqt_keytools_writer *kw, kt_key *k, const char *path, const char *master_key_id,
                           int32_t ordinal, pqt_error *err) {
  pqt_buf_init(&k->material, NULL);
  pqt_buf_init(&k->metadata, NULL);
  char ref[32];
  if (path) snprintf(ref, sizeof ref, "columnKey%d", (int)ordinal);
  else snprintf(ref, sizeof ref, "footerKey");
  if (!(k->reference = dup_str(ref))) return pqt_nomem(err);
  if (path && !(k->path = dup_str(path))) return pqt_nomem(err);
  pqt_status st = pqt_crypto_random(k->dek, (size_t)kw->dek_len, err);
  if (st != PQT_OK) return st;
  pqt_key_material m;
  memset(&m, 0, sizeof m);
  m.is_footer_key = path == NULL;
  m.kms_instance_id = kw->o.kms_instance_id ? kw->o.kms_instance_id : PQT_KMS_DEFAULT_INSTANCE;
  m.kms_instance_url = kw->o.kms_instance_url ? kw->o.kms_instance_url : PQT_KMS_DEFAULT_INSTANCE;
  m.master_key_id = master_key_id;
  m.double_wrapping = kw->o.double_wrapping != 0;
  pqt_buf wrapped_dek;
  pqt_buf_init(&wrapped_dek, NULL);
  if (m.double_wrapping) {
    kt_kek *kek = NULL;
    st = get_kek(kw, master_key_id, &kek, err);
    if (st == PQT_OK)
      st = wrap_local(k->dek, (size_t)kw->dek_len, kek->kek, sizeof kek->kek, kek->id, sizeof kek->id, &wrapped_dek,
                      err);
    if (st == PQT_OK) st = pqt_buf_append(&wrapped_dek, "", 1, err);
    if (st == PQT_OK) {
      m.kek_id = (const char *)kek->encoded_id.data;
      m.wrapped_kek = (const char *)kek->wrapped.data;
    }
  } else {
    st = kms_wrap_to(kw, master_key_id, k->dek, (size_t)kw->dek_len, &wrapped_dek, err);
  }
  if (st == PQT_OK) {
    m.wrapped_dek = (const char *)wrapped_dek.data;
    if (kw->o.external_key_material) {
      st = pqt_key_material_write(&m, false, &k->material, err);
      if (st == PQT_OK) st = pqt_key_reference_write(ref, &k->metadata, err);
    } else {
      st = pqt_key_material_write(&m, true, &k->metadata, err);
    }
  }
  pqt_buf_free(&wrapped_dek);
  return st;
}

PQT_API pqt_status pqt_keytools_writer_new(pqt_keytools_writer **out, const pqt_keytools_write_options *o,
                                           pqt_error *err) {
  *out = NULL;
  pqt_keytools_write_options opts;
  write_options_defaults(&opts);
  pqt_status st = pqt_options_copy(&opts, sizeof opts, o, "pqt_keytools_write_options", err);
  if (st != PQT_OK) return st;
  if (!opts.footer_master_key_id || !opts.footer_master_key_id[0])
    return pqt_error_set(err, PQT_EINVAL, "key tools: footer_master_key_id is required");
  if (opts.n_columns < 0 || opts.n_columns > 65536 || (opts.n_columns > 0 && !opts.columns))
    return pqt_error_set(err, PQT_EINVAL, "key tools: bad columns / n_columns");
  if (opts.data_key_bytes != 16 && opts.data_key_bytes != 24 && opts.data_key_bytes != 32)
    return pqt_error_set(err, PQT_EINVAL, "key tools: data_key_bytes %d (16, 24 or 32)", (int)opts.data_key_bytes);
  for (int32_t c = 0; c < opts.n_columns; c++)
    if (!opts.columns[c].path || !opts.columns[c].master_key_id || !opts.columns[c].master_key_id[0])
      return pqt_error_set(err, PQT_EINVAL, "key tools: column %d needs a path and a master key id", (int)c);
  pqt_keytools_writer *kw = pqt_mem_calloc(A(), sizeof *kw);
  if (!kw) return pqt_nomem(err);
  kw->o = opts;
  kw->dek_len = opts.data_key_bytes;
  size_t nk = (size_t)opts.n_columns + 1;
  kw->keys = pqt_mem_calloc(A(), sizeof *kw->keys * nk);
  kw->keks = pqt_mem_calloc(A(), sizeof *kw->keks * nk);
  kw->cols = pqt_mem_calloc(A(), sizeof *kw->cols * nk);
  if (!kw->keys || !kw->keks || !kw->cols) st = pqt_nomem(err);
  if (st == PQT_OK) st = copy_kms(&kw->kms, opts.kms, err);
  if (st == PQT_OK) {
    kw->n_keys = 1;
    st = make_key(kw, &kw->keys[0], NULL, opts.footer_master_key_id, 0, err);
  }
  for (int32_t c = 0; st == PQT_OK && c < opts.n_columns; c++) {
    kw->n_keys++;
    st = make_key(kw, &kw->keys[c + 1], opts.columns[c].path, opts.columns[c].master_key_id, c, err);
  }
  /* the strings of the options are not kept */
  kw->o.footer_master_key_id = NULL;
  kw->o.columns = NULL;
  kw->o.kms_instance_id = kw->o.kms_instance_url = NULL;
  kw->o.kms = NULL;
  if (st != PQT_OK) {
    pqt_keytools_writer_free(kw);
    return st;
  }
  *out = kw;
  return PQT_OK;
}

PQT_API pqt_status pqt_keytools_writer_fill(pqt_keytools_writer *kw, pqt_encryption_options *enc, pqt_error *err) {
  if (!kw || !enc) return pqt_error_set(err, PQT_EINVAL, "key tools: NULL argument");
  enc->footer_key = kw->keys[0].dek;
  enc->footer_key_len = (size_t)kw->dek_len;
  enc->footer_key_metadata = kw->keys[0].metadata.data;
  enc->footer_key_metadata_len = kw->keys[0].metadata.len;
  for (int32_t k = 1; k < kw->n_keys; k++)
    kw->cols[k - 1] = (pqt_column_encryption){kw->keys[k].path, kw->keys[k].dek, (size_t)kw->dek_len,
                                              kw->keys[k].metadata.data, kw->keys[k].metadata.len};
  enc->columns = kw->n_keys > 1 ? kw->cols : NULL;
  enc->n_columns = kw->n_keys - 1;
  return PQT_OK;
}

PQT_API pqt_status pqt_keytools_writer_store(pqt_keytools_writer *kw, const char *parquet_path, pqt_error *err) {
  if (!kw) return pqt_error_set(err, PQT_EINVAL, "key tools: NULL argument");
  if (!kw->o.external_key_material) return PQT_OK;
  char mpath[4096], tmp[4200];
  pqt_status st = pqt_keytools_material_path(parquet_path, mpath, sizeof mpath, err);
  if (st != PQT_OK) return st;
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_buf_append(&b, "{", 1, err);
  for (int32_t k = 0; k < kw->n_keys; k++) {
    if (k) pqt_buf_append(&b, ",", 1, err);
    pqt_json_string_write(kw->keys[k].reference, strlen(kw->keys[k].reference), &b, err);
    pqt_buf_append(&b, ":", 1, err);
    pqt_json_string_write((const char *)kw->keys[k].material.data, kw->keys[k].material.len, &b, err);
  }
  pqt_buf_append(&b, "}", 1, err);
  if ((st = pqt_buf_status(&b, err)) != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", mpath);
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    st = pqt_error_set(err, PQT_EIO, "key tools: cannot create '%s': %s", tmp, strerror(errno));
  } else {
    bool ok = fwrite(b.data, 1, b.len, f) == b.len;
    ok = fclose(f) == 0 && ok;
    if (!ok) st = pqt_error_set(err, PQT_EIO, "key tools: cannot write '%s'", tmp);
    else if (rename(tmp, mpath) != 0)
      st = pqt_error_set(err, PQT_EIO, "key tools: cannot rename '%s' to '%s': %s", tmp, mpath, strerror(errno));
    if (st != PQT_OK) remove(tmp);
  }
  pqt_buf_free(&b);
  return st;
}
