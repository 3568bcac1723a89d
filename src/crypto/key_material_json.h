/*
 * crypto/key_material_json.h: the key material of parquet-java's and Arrow
 * C++'s key tools (see include/parquetry_keytools.h), parsed as untrusted
 * JSON and written back in the same form, and base64 (RFC 4648, padded).
 *
 * The parser accepts one flat JSON object whose values are strings or
 * booleans (also null and numbers, kept as their text and ignored here):
 * at most PQT_JSON_FLAT_MAX_MEMBERS members, no nesting, no duplicate
 * names, nothing but whitespace after it. Errors are PQT_ECRYPTO with a
 * message naming what and where (byte offset), never the text of a value.
 */
#ifndef PQT_CRYPTO_KEY_MATERIAL_JSON_H
#define PQT_CRYPTO_KEY_MATERIAL_JSON_H

#include "core/core.h"

#define PQT_JSON_FLAT_MAX_MEMBERS 1024
/* The largest JSON text parsed (the external material file's limit). */
#define PQT_KEY_MATERIAL_JSON_LIMIT (16 * 1024 * 1024)

typedef enum pqt_json_flat_kind { PQT_JSON_FLAT_STRING, PQT_JSON_FLAT_BOOL, PQT_JSON_FLAT_OTHER } pqt_json_flat_kind;

typedef struct pqt_json_flat_member {
  const char *name;  /* NUL-terminated, unescaped */
  const char *value; /* strings: unescaped, NUL-terminated; others: NULL */
  size_t value_len;
  pqt_json_flat_kind kind;
  bool bool_value;
} pqt_json_flat_member;

typedef struct pqt_json_flat {
  pqt_json_flat_member *members;
  int32_t n;
  char *text; /* owns the unescaped strings */
  size_t text_cap;
} pqt_json_flat;

/* Parse s (n bytes); what names the input in errors ("key material"). */
pqt_status pqt_json_flat_parse(const char *s, size_t n, const char *what, pqt_json_flat *out, pqt_error *err);
void pqt_json_flat_free(pqt_json_flat *j);
const pqt_json_flat_member *pqt_json_flat_get(const pqt_json_flat *j, const char *name);

/* Key material (or key metadata) of one key. Strings point into json. */
typedef struct pqt_key_material {
  pqt_json_flat json;
  bool internal_storage;     /* key_metadata: material here (true) or a keyReference */
  const char *key_reference; /* external: "footerKey", "columnKey0", ... */
  bool is_footer_key;
  const char *kms_instance_id; /* footer key only (may be NULL) */
  const char *kms_instance_url;
  const char *master_key_id;
  const char *wrapped_dek;
  bool double_wrapping;
  const char *kek_id;      /* keyEncryptionKeyID (double wrapping) */
  const char *wrapped_kek; /* (double wrapping) */
} pqt_key_material;

/* Parse key_metadata as stored in a file: internal material, or a
 * reference to external material (then only key_reference is set). */
pqt_status pqt_key_metadata_parse(const char *s, size_t n, pqt_key_material *out, pqt_error *err);
/* Parse key material (from the external file, or internal). */
pqt_status pqt_key_material_parse(const char *s, size_t n, bool in_key_metadata, pqt_key_material *out, pqt_error *err);
void pqt_key_material_free(pqt_key_material *m);

/* Append the material's JSON (internal: with "internalStorage":true) to out. */
pqt_status pqt_key_material_write(const pqt_key_material *m, bool internal, pqt_buf *out, pqt_error *err);
/* Append the key_metadata that refers to external material. */
pqt_status pqt_key_reference_write(const char *key_reference, pqt_buf *out, pqt_error *err);
/* Append s as a JSON string (quoted, escaped). */
pqt_status pqt_json_string_write(const char *s, size_t n, pqt_buf *out, pqt_error *err);

/* base64: decode (padding required when the length is not a multiple of 4;
 * whitespace refused) to out (cap bytes); PQT_ECRYPTO when malformed or too
 * long (strict and bounded, unlike core's pqt_base64_decode); encoding is
 * core's pqt_base64_append. */
pqt_status pqt_km_base64_decode(const char *s, size_t n, uint8_t *out, size_t cap, size_t *out_len, const char *what,
                                pqt_error *err);

#endif
