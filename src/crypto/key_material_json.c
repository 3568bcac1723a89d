/* crypto/key_material_json.c: see key_material_json.h. */
#include "crypto/key_material_json.h"

#include <string.h>

/* ---- the flat JSON object ---- */
typedef struct jp {
  const char *s;
  size_t n, i;
  const char *what;
  char *text; /* unescaped strings go here */
  size_t text_len;
  pqt_error *err;
} jp;

static pqt_status jfail(jp *p, const char *msg) {
  return pqt_error_set(p->err, PQT_ECRYPTO, "%s: malformed JSON at byte %zu: %s", p->what, p->i, msg);
}

static void skip_ws(jp *p) {
  while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')) p->i++;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Whether s (n bytes) is well-formed UTF-8 (no overlong forms, no
 * surrogates, at most U+10FFFF). */
static bool utf8_valid(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    size_t len;
    unsigned min, cp;
    if (c < 0x80) {
      i++;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, min = 0x80, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, min = 0x800, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, min = 0x10000, cp = c & 0x07;
    } else {
      return false;
    }
    if (n - i < len) return false;
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

/* A string at p->i (the opening quote): unescaped into p->text. */
static pqt_status parse_string(jp *p, const char **out, size_t *out_len) {
  if (p->i >= p->n || p->s[p->i] != '"') return jfail(p, "a string was expected");
  p->i++;
  char *dst = p->text + p->text_len;
  size_t k = 0;
  for (;;) {
    if (p->i >= p->n) return jfail(p, "unterminated string");
    unsigned char c = (unsigned char)p->s[p->i];
    if (c == '"') break;
    if (c < 0x20) return jfail(p, "control character in a string");
    if (c != '\\') {
      dst[k++] = (char)c;
      p->i++;
      continue;
    }
    if (p->i + 1 >= p->n) return jfail(p, "unterminated escape");
    char e = p->s[p->i + 1];
    p->i += 2;
    switch (e) {
      case '"': dst[k++] = '"'; break;
      case '\\': dst[k++] = '\\'; break;
      case '/': dst[k++] = '/'; break;
      case 'b': dst[k++] = '\b'; break;
      case 'f': dst[k++] = '\f'; break;
      case 'n': dst[k++] = '\n'; break;
      case 'r': dst[k++] = '\r'; break;
      case 't': dst[k++] = '\t'; break;
      case 'u': {
        if (p->i + 4 > p->n) return jfail(p, "short \\u escape");
        unsigned v = 0;
        for (int d = 0; d < 4; d++) {
          int h = hexval(p->s[p->i + (size_t)d]);
          if (h < 0) return jfail(p, "bad \\u escape");
          v = v * 16 + (unsigned)h;
        }
        p->i += 4;
        if (v == 0) return jfail(p, "\\u0000 in a string");
        if (v >= 0xD800 && v <= 0xDFFF) return jfail(p, "surrogate \\u escape (not supported in key material)");
        /* at most 3 bytes out for 6 bytes in */
        if (v < 0x80) {
          dst[k++] = (char)v;
        } else if (v < 0x800) {
          dst[k++] = (char)(0xC0 | (v >> 6));
          dst[k++] = (char)(0x80 | (v & 0x3F));
        } else {
          dst[k++] = (char)(0xE0 | (v >> 12));
          dst[k++] = (char)(0x80 | ((v >> 6) & 0x3F));
          dst[k++] = (char)(0x80 | (v & 0x3F));
        }
        break;
      }
      default: p->i -= 1; return jfail(p, "bad escape");
    }
  }
  if (!utf8_valid((const unsigned char *)dst, k)) return jfail(p, "a string that is not UTF-8");
  p->i++; /* closing quote */
  dst[k] = '\0';
  *out = dst;
  *out_len = k;
  p->text_len += k + 1;
  return PQT_OK;
}

static bool literal(jp *p, const char *word) {
  size_t l = strlen(word);
  if (p->n - p->i < l || memcmp(p->s + p->i, word, l) != 0) return false;
  p->i += l;
  return true;
}

pqt_status pqt_json_flat_parse(const char *s, size_t n, const char *what, pqt_json_flat *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  if (n > PQT_KEY_MATERIAL_JSON_LIMIT)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: %zu bytes of JSON (at most %d)", what, n, PQT_KEY_MATERIAL_JSON_LIMIT);
  jp p = {s, n, 0, what, NULL, 0, err};
  /* unescaped text (with its NULs) is never longer than the input */
  out->text_cap = n + 1;
  p.text = pqt_mem_alloc(pqt_default_allocator(), out->text_cap);
  out->members = pqt_mem_alloc(pqt_default_allocator(), sizeof *out->members * PQT_JSON_FLAT_MAX_MEMBERS);
  out->text = p.text;
  if (!p.text || !out->members) {
    pqt_json_flat_free(out);
    return pqt_nomem(err);
  }
  pqt_status st = PQT_OK;
  skip_ws(&p);
  if (p.i >= p.n || s[p.i] != '{') {
    st = jfail(&p, "an object was expected");
    goto done;
  }
  p.i++;
  skip_ws(&p);
  if (p.i < p.n && s[p.i] == '}') {
    p.i++;
  } else {
    for (;;) {
      if (out->n == PQT_JSON_FLAT_MAX_MEMBERS) {
        st = jfail(&p, "too many members");
        goto done;
      }
      pqt_json_flat_member *m = &out->members[out->n];
      memset(m, 0, sizeof *m);
      size_t name_len;
      skip_ws(&p);
      if ((st = parse_string(&p, &m->name, &name_len)) != PQT_OK) goto done;
      for (int32_t k = 0; k < out->n; k++)
        if (strcmp(out->members[k].name, m->name) == 0) {
          st = jfail(&p, "duplicate member name");
          goto done;
        }
      skip_ws(&p);
      if (p.i >= p.n || s[p.i] != ':') {
        st = jfail(&p, "':' was expected");
        goto done;
      }
      p.i++;
      skip_ws(&p);
      if (p.i >= p.n) {
        st = jfail(&p, "a value was expected");
        goto done;
      }
      char c = s[p.i];
      if (c == '"') {
        m->kind = PQT_JSON_FLAT_STRING;
        if ((st = parse_string(&p, &m->value, &m->value_len)) != PQT_OK) goto done;
      } else if (literal(&p, "true")) {
        m->kind = PQT_JSON_FLAT_BOOL;
        m->bool_value = true;
      } else if (literal(&p, "false")) {
        m->kind = PQT_JSON_FLAT_BOOL;
      } else if (literal(&p, "null")) {
        m->kind = PQT_JSON_FLAT_OTHER;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        m->kind = PQT_JSON_FLAT_OTHER;
        while (p.i < p.n && strchr("+-.eE0123456789", s[p.i]) && s[p.i]) p.i++;
      } else if (c == '{' || c == '[') {
        st = jfail(&p, "nested values are not key material");
        goto done;
      } else {
        st = jfail(&p, "a value was expected");
        goto done;
      }
      out->n++;
      skip_ws(&p);
      if (p.i < p.n && s[p.i] == ',') {
        p.i++;
        continue;
      }
      if (p.i < p.n && s[p.i] == '}') {
        p.i++;
        break;
      }
      st = jfail(&p, "',' or '}' was expected");
      goto done;
    }
  }
  skip_ws(&p);
  if (p.i != p.n) st = jfail(&p, "bytes after the object");
done:
  if (st != PQT_OK) pqt_json_flat_free(out);
  return st;
}

void pqt_json_flat_free(pqt_json_flat *j) {
  if (!j) return;
  if (j->members) pqt_mem_free(pqt_default_allocator(), j->members, sizeof *j->members * PQT_JSON_FLAT_MAX_MEMBERS);
  if (j->text) pqt_mem_free(pqt_default_allocator(), j->text, j->text_cap);
  memset(j, 0, sizeof *j);
}

const pqt_json_flat_member *pqt_json_flat_get(const pqt_json_flat *j, const char *name) {
  for (int32_t k = 0; k < j->n; k++)
    if (strcmp(j->members[k].name, name) == 0) return &j->members[k];
  return NULL;
}

/* ---- key material ---- */
static pqt_status get_string(const pqt_key_material *m, const char *name, bool required, const char **out,
                             const char *what, pqt_error *err) {
  const pqt_json_flat_member *v = pqt_json_flat_get(&m->json, name);
  *out = NULL;
  if (!v) return required ? pqt_error_set(err, PQT_ECRYPTO, "%s: no \"%s\"", what, name) : PQT_OK;
  if (v->kind != PQT_JSON_FLAT_STRING) return pqt_error_set(err, PQT_ECRYPTO, "%s: \"%s\" is not a string", what, name);
  if (strlen(v->value) != v->value_len)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: \"%s\" holds a NUL", what, name); /* cannot happen: \u0000 refused */
  *out = v->value;
  return PQT_OK;
}

static pqt_status get_bool(const pqt_key_material *m, const char *name, bool required, bool dflt, bool *out,
                           const char *what, pqt_error *err) {
  const pqt_json_flat_member *v = pqt_json_flat_get(&m->json, name);
  *out = dflt;
  if (!v) return required ? pqt_error_set(err, PQT_ECRYPTO, "%s: no \"%s\"", what, name) : PQT_OK;
  if (v->kind != PQT_JSON_FLAT_BOOL)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: \"%s\" is not true or false", what, name);
  *out = v->bool_value;
  return PQT_OK;
}

static pqt_status check_type(const pqt_key_material *m, const char *what, pqt_error *err) {
  const char *t;
  pqt_status st = get_string(m, "keyMaterialType", true, &t, what, err);
  if (st != PQT_OK) return st;
  if (strcmp(t, "PKMT1") != 0)
    return pqt_error_set(err, PQT_ECRYPTO, "%s: keyMaterialType \"%.32s\" is not PKMT1 (the one known)", what, t);
  return PQT_OK;
}

static pqt_status material_fields(pqt_key_material *m, const char *what, pqt_error *err) {
  pqt_status st;
  if ((st = check_type(m, what, err)) != PQT_OK) return st;
  if ((st = get_bool(m, "isFooterKey", true, false, &m->is_footer_key, what, err)) != PQT_OK) return st;
  if ((st = get_string(m, "kmsInstanceID", false, &m->kms_instance_id, what, err)) != PQT_OK) return st;
  if ((st = get_string(m, "kmsInstanceURL", false, &m->kms_instance_url, what, err)) != PQT_OK) return st;
  if ((st = get_string(m, "masterKeyID", true, &m->master_key_id, what, err)) != PQT_OK) return st;
  if ((st = get_string(m, "wrappedDEK", true, &m->wrapped_dek, what, err)) != PQT_OK) return st;
  if ((st = get_bool(m, "doubleWrapping", true, false, &m->double_wrapping, what, err)) != PQT_OK) return st;
  if (m->double_wrapping) {
    if ((st = get_string(m, "keyEncryptionKeyID", true, &m->kek_id, what, err)) != PQT_OK) return st;
    if ((st = get_string(m, "wrappedKEK", true, &m->wrapped_kek, what, err)) != PQT_OK) return st;
  }
  return PQT_OK;
}

pqt_status pqt_key_material_parse(const char *s, size_t n, bool in_key_metadata, pqt_key_material *out,
                                  pqt_error *err) {
  memset(out, 0, sizeof *out);
  const char *what = in_key_metadata ? "key material (in key_metadata)" : "key material";
  pqt_status st = pqt_json_flat_parse(s, n, what, &out->json, err);
  if (st == PQT_OK) st = material_fields(out, what, err);
  if (st != PQT_OK) pqt_key_material_free(out);
  return st;
}

pqt_status pqt_key_metadata_parse(const char *s, size_t n, pqt_key_material *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  const char *what = "key_metadata";
  pqt_status st = pqt_json_flat_parse(s, n, what, &out->json, err);
  if (st == PQT_OK) st = check_type(out, what, err);
  if (st == PQT_OK) st = get_bool(out, "internalStorage", false, true, &out->internal_storage, what, err);
  if (st == PQT_OK) {
    if (out->internal_storage) st = material_fields(out, "key material (in key_metadata)", err);
    else st = get_string(out, "keyReference", true, &out->key_reference, what, err);
  }
  if (st != PQT_OK) pqt_key_material_free(out);
  return st;
}

void pqt_key_material_free(pqt_key_material *m) {
  if (!m) return;
  pqt_json_flat_free(&m->json);
  memset(m, 0, sizeof *m);
}

/* ---- writing ---- */
pqt_status pqt_json_string_write(const char *s, size_t n, pqt_buf *out, pqt_error *err) {
  return pqt_json_string_append(out, (const uint8_t *)s, n, err);
}

static void w_str(pqt_buf *out, bool *first, const char *name, const char *v, pqt_error *err) {
  if (!*first) pqt_buf_append(out, ",", 1, err);
  *first = false;
  pqt_json_string_write(name, strlen(name), out, err);
  pqt_buf_append(out, ":", 1, err);
  pqt_json_string_write(v, strlen(v), out, err);
}

static void w_bool(pqt_buf *out, bool *first, const char *name, bool v, pqt_error *err) {
  if (!*first) pqt_buf_append(out, ",", 1, err);
  *first = false;
  pqt_json_string_write(name, strlen(name), out, err);
  pqt_buf_printf(out, err, ":%s", v ? "true" : "false");
}

pqt_status pqt_key_material_write(const pqt_key_material *m, bool internal, pqt_buf *out, pqt_error *err) {
  bool first = true;
  pqt_buf_append(out, "{", 1, err);
  w_str(out, &first, "keyMaterialType", "PKMT1", err);
  if (internal) w_bool(out, &first, "internalStorage", true, err);
  w_bool(out, &first, "isFooterKey", m->is_footer_key, err);
  if (m->is_footer_key) {
    w_str(out, &first, "kmsInstanceID", m->kms_instance_id ? m->kms_instance_id : "DEFAULT", err);
    w_str(out, &first, "kmsInstanceURL", m->kms_instance_url ? m->kms_instance_url : "DEFAULT", err);
  }
  w_str(out, &first, "masterKeyID", m->master_key_id, err);
  w_str(out, &first, "wrappedDEK", m->wrapped_dek, err);
  w_bool(out, &first, "doubleWrapping", m->double_wrapping, err);
  if (m->double_wrapping) {
    w_str(out, &first, "keyEncryptionKeyID", m->kek_id, err);
    w_str(out, &first, "wrappedKEK", m->wrapped_kek, err);
  }
  pqt_buf_append(out, "}", 1, err);
  return pqt_buf_status(out, err);
}

pqt_status pqt_key_reference_write(const char *key_reference, pqt_buf *out, pqt_error *err) {
  bool first = true;
  pqt_buf_append(out, "{", 1, err);
  w_str(out, &first, "keyMaterialType", "PKMT1", err);
  w_bool(out, &first, "internalStorage", false, err);
  w_str(out, &first, "keyReference", key_reference, err);
  pqt_buf_append(out, "}", 1, err);
  return pqt_buf_status(out, err);
}

/* ---- base64 ---- */

pqt_status pqt_km_base64_decode(const char *s, size_t n, uint8_t *out, size_t cap, size_t *out_len, const char *what,
                                pqt_error *err) {
  *out_len = 0;
  if (n % 4) return pqt_error_set(err, PQT_ECRYPTO, "%s: base64 of %zu characters (not a multiple of 4)", what, n);
  size_t k = 0;
  for (size_t i = 0; i < n; i += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; j++) {
      char c = s[i + (size_t)j];
      if (c == '=' && i + 4 == n && j >= 2) {
        v[j] = 0;
        pad++;
        continue;
      }
      if (pad) return pqt_error_set(err, PQT_ECRYPTO, "%s: bad base64 padding", what);
      v[j] = pqt_base64_digit((unsigned char)c);
      if (v[j] < 0) return pqt_error_set(err, PQT_ECRYPTO, "%s: bad base64 character at %zu", what, i + (size_t)j);
    }
    if (pad == 1 && s[i + 2] == '=') return pqt_error_set(err, PQT_ECRYPTO, "%s: bad base64 padding", what);
    uint32_t w = ((uint32_t)v[0] << 18) | ((uint32_t)v[1] << 12) | ((uint32_t)v[2] << 6) | (uint32_t)v[3];
    size_t bytes = 3 - (size_t)pad;
    if (k + bytes > cap) return pqt_error_set(err, PQT_ECRYPTO, "%s: longer than %zu bytes", what, cap);
    out[k++] = (uint8_t)(w >> 16);
    if (bytes > 1) out[k++] = (uint8_t)(w >> 8);
    if (bytes > 2) out[k++] = (uint8_t)w;
  }
  *out_len = k;
  return PQT_OK;
}
