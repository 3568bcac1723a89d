/*
 * variant/variant_build.c: JSON text -> Variant (metadata + value).
 *
 * Three steps: parse the JSON into a tree in an arena (strict RFC 8259,
 * depth-limited, errors naming the byte offset); collect every object key
 * into one sorted, unique dictionary; then size every node bottom-up and
 * write the value in one pass with the smallest offset and id widths
 * (parquet-format VariantEncoding.md, "Value encoding").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/hex.h"
#include "core/utf8.h"
#include "variant/variant.h"

typedef struct jnode jnode;
struct jnode {
  uint8_t kind;     /* PQT_VARIANT_* (OBJECT, ARRAY, STRING, NULL, TRUE, FALSE) or 0xFF: a number */
  const uint8_t *s; /* string bytes (unescaped) or number text */
  size_t len;
  jnode **kids;         /* elements, or fields' values */
  const uint8_t **keys; /* objects: field names (unescaped) */
  size_t *key_lens;
  uint32_t *key_ids;
  uint32_t n;
  /* sizing */
  size_t size;      /* encoded bytes */
  uint8_t num_type; /* numbers: the chosen primitive type */
  int32_t scale;
  uint8_t unscaled[16]; /* decimals: little-endian; ints: the value */
  double dbl;
  unsigned off_size, id_size;
  bool large;
};

enum { KIND_NUMBER = 0xFF, KIND_RAW = 0xFE /* a primitive copied as encoded */ };

typedef struct jparser {
  const uint8_t *p, *start, *end;
  pqt_arena *arena;
  pqt_error *err;
  int depth;
} jparser;

static pqt_status jfail(jparser *j, const char *what) {
  return pqt_error_set(j->err, PQT_EINVAL, "JSON: %s at byte %zu", what, (size_t)(j->p - j->start));
}

static void jws(jparser *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static bool read_u4(jparser *j, uint32_t *out) {
  if (j->end - j->p < 4) return false;
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) {
    int h = pqt_hex_digit(j->p[k]);
    if (h < 0) return false;
    v = v << 4 | (uint32_t)h;
  }
  j->p += 4;
  *out = v;
  return true;
}

static size_t put_utf8(uint8_t *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (uint8_t)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (uint8_t)(0xC0 | cp >> 6);
    o[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (uint8_t)(0xE0 | cp >> 12);
    o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (uint8_t)(0xF0 | cp >> 18);
  o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

/* A string literal at j->p (the opening quote), unescaped into the arena. */
static pqt_status jstring(jparser *j, const uint8_t **out, size_t *out_len) {
  j->p++; /* " */
  const uint8_t *s = j->p;
  while (j->p < j->end && *j->p != '"' && *j->p != '\\' && *j->p >= 0x20) j->p++;
  if (j->p >= j->end) return jfail(j, "an unterminated string");
  size_t plain = (size_t)(j->p - s);
  if (*j->p == '"') { /* no escapes: the input's bytes */
    size_t bad = pqt_utf8_invalid_at(s, plain);
    if (bad != plain) {
      j->p = s + bad;
      return jfail(j, "a string that is not UTF-8");
    }
    j->p++;
    *out = s;
    *out_len = plain;
    return PQT_OK;
  }
  /* escapes: the unescaped text is never longer than the escaped one */
  const uint8_t *q = s;
  while (q < j->end && *q != '"') q += (*q == '\\' && q + 1 < j->end) ? 2 : 1;
  if (q >= j->end) return jfail(j, "an unterminated string");
  uint8_t *o = pqt_arena_alloc(j->arena, (size_t)(q - s) + 4);
  if (!o) return pqt_nomem(j->err);
  memcpy(o, s, plain);
  size_t n = plain;
  while (j->p < j->end && *j->p != '"') {
    uint8_t c = *j->p;
    if (c < 0x20) return jfail(j, "a control character in a string");
    if (c != '\\') {
      o[n++] = c;
      j->p++;
      continue;
    }
    if (j->end - j->p < 2) return jfail(j, "an unterminated escape");
    uint8_t e = j->p[1];
    j->p += 2;
    switch (e) {
      case '"': o[n++] = '"'; break;
      case '\\': o[n++] = '\\'; break;
      case '/': o[n++] = '/'; break;
      case 'b': o[n++] = '\b'; break;
      case 'f': o[n++] = '\f'; break;
      case 'n': o[n++] = '\n'; break;
      case 'r': o[n++] = '\r'; break;
      case 't': o[n++] = '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!read_u4(j, &cp)) return jfail(j, "a bad \\u escape");
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t lo;
          if (j->end - j->p < 2 || j->p[0] != '\\' || j->p[1] != 'u') return jfail(j, "a lone surrogate");
          j->p += 2;
          if (!read_u4(j, &lo) || lo < 0xDC00 || lo > 0xDFFF) return jfail(j, "a lone surrogate");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return jfail(j, "a lone surrogate");
        }
        n += put_utf8(o + n, cp);
        break;
      }
      default: return jfail(j, "an unknown escape");
    }
  }
  size_t bad = pqt_utf8_invalid_at(o, n);
  if (bad != n) return jfail(j, "a string that is not UTF-8");
  j->p++; /* closing quote */
  *out = o;
  *out_len = n;
  return PQT_OK;
}

static pqt_status jnumber(jparser *j, jnode *node) {
  const uint8_t *s = j->p;
  if (j->p < j->end && *j->p == '-') j->p++;
  if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "a bad number");
  if (*j->p == '0') j->p++;
  else
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  if (j->p < j->end && *j->p == '.') {
    j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "a bad number");
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  }
  if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return jfail(j, "a bad number");
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  }
  node->kind = KIND_NUMBER;
  node->s = s;
  node->len = (size_t)(j->p - s);
  return PQT_OK;
}

static pqt_status jvalue(jparser *j, jnode **out);

/* Elements or fields: collected in a growing array, then moved into the arena. */
typedef struct jlist {
  jnode **kids;
  const uint8_t **keys;
  size_t *key_lens;
  uint32_t n, cap;
  const pqt_allocator *a;
} jlist;

static pqt_status jlist_push(jparser *j, jlist *l, jnode *kid, const uint8_t *key, size_t key_len) {
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 8;
    if (nc > (UINT32_MAX >> 1)) return jfail(j, "too many elements");
    jnode **k = pqt_mem_realloc(l->a, l->kids, sizeof *k * l->cap, sizeof *k * nc);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
    if (!k) return pqt_nomem(j->err);
    l->kids = k;
    const uint8_t **ks = pqt_mem_realloc(l->a, l->keys, sizeof *ks * l->cap, sizeof *ks * nc);
    if (!ks) return pqt_nomem(j->err);
    l->keys = ks;
    size_t *kl = pqt_mem_realloc(l->a, l->key_lens, sizeof *kl * l->cap, sizeof *kl * nc);
    if (!kl) return pqt_nomem(j->err);
    l->key_lens = kl;
    l->cap = nc;
  }
  l->kids[l->n] = kid;
  l->keys[l->n] = key;
  l->key_lens[l->n] = key_len;
  l->n++;
  return PQT_OK;
}

static void jlist_free(jlist *l) {
  pqt_mem_free(l->a, l->kids, sizeof *l->kids * l->cap);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  pqt_mem_free(l->a, l->keys, sizeof *l->keys * l->cap);
  pqt_mem_free(l->a, l->key_lens, sizeof *l->key_lens * l->cap);
}

static pqt_status jlist_move(jparser *j, jlist *l, jnode *node, bool object) {
  node->n = l->n;
  size_t n = l->n ? l->n : 1;
  node->kids = pqt_arena_array(j->arena, n, sizeof *node->kids);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!node->kids) return pqt_nomem(j->err);
  if (l->n) memcpy(node->kids, l->kids, sizeof *node->kids * l->n);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (object) {
    node->keys = pqt_arena_array(j->arena, n, sizeof *node->keys);
    node->key_lens = pqt_arena_array(j->arena, n, sizeof *node->key_lens);
    node->key_ids = pqt_arena_array(j->arena, n, sizeof *node->key_ids);
    if (!node->keys || !node->key_lens || !node->key_ids) return pqt_nomem(j->err);
    if (l->n) {
      memcpy(node->keys, l->keys, sizeof *node->keys * l->n);
      memcpy(node->key_lens, l->key_lens, sizeof *node->key_lens * l->n);
    }
  }
  return PQT_OK;
}

static pqt_status jcontainer(jparser *j, jnode *node, bool object) {
  if (++j->depth > PQT_VARIANT_MAX_DEPTH) return jfail(j, "nesting deeper than 128 levels");
  j->p++; /* { or [ */
  jlist l;
  memset(&l, 0, sizeof l);
  l.a = j->arena->alloc;
  pqt_status st = PQT_OK;
  jws(j);
  uint8_t close = object ? '}' : ']';
  if (j->p < j->end && *j->p == close) {
    j->p++;
  } else {
    for (;;) {
      const uint8_t *key = NULL;
      size_t key_len = 0;
      if (object) {
        jws(j);
        if (j->p >= j->end || *j->p != '"') {
          st = jfail(j, "a field name is expected");
          break;
        }
        if ((st = jstring(j, &key, &key_len)) != PQT_OK) break;
        jws(j);
        if (j->p >= j->end || *j->p != ':') {
          st = jfail(j, "':' is expected");
          break;
        }
        j->p++;
      }
      jnode *kid;
      if ((st = jvalue(j, &kid)) != PQT_OK) break;
      if ((st = jlist_push(j, &l, kid, key, key_len)) != PQT_OK) break;
      jws(j);
      if (j->p < j->end && *j->p == ',') {
        j->p++;
        continue;
      }
      if (j->p < j->end && *j->p == close) {
        j->p++;
        break;
      }
      st = jfail(j, object ? "',' or '}' is expected" : "',' or ']' is expected");
      break;
    }
  }
  if (st == PQT_OK) {
    node->kind = object ? PQT_VARIANT_OBJECT : PQT_VARIANT_ARRAY;
    st = jlist_move(j, &l, node, object);
  }
  jlist_free(&l);
  j->depth--;
  return st;
}

static bool jword(jparser *j, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return false;
  j->p += n;
  return true;
}

static pqt_status jvalue(jparser *j, jnode **out) {
  jws(j);
  jnode *node = pqt_arena_alloc(j->arena, sizeof *node);
  if (!node) return pqt_nomem(j->err);
  memset(node, 0, sizeof *node);
  *out = node;
  if (j->p >= j->end) return jfail(j, "a value is expected");
  switch (*j->p) {
    case '{': return jcontainer(j, node, true);
    case '[': return jcontainer(j, node, false);
    case '"': node->kind = PQT_VARIANT_STRING; return jstring(j, &node->s, &node->len);
    case 't': node->kind = PQT_VARIANT_TRUE; return jword(j, "true") ? PQT_OK : jfail(j, "a bad literal");
    case 'f': node->kind = PQT_VARIANT_FALSE; return jword(j, "false") ? PQT_OK : jfail(j, "a bad literal");
    case 'n': node->kind = PQT_VARIANT_NULL; return jword(j, "null") ? PQT_OK : jfail(j, "a bad literal");
    default: return jnumber(j, node);
  }
}

/* ---- the dictionary ------------------------------------------------- */

typedef struct key_ref {
  const uint8_t *s;
  size_t len;
  uint32_t *id_slot;
} key_ref;

static int key_cmp(const void *a, const void *b) {
  const key_ref *x = a, *y = b;
  int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

typedef struct key_list {
  key_ref *refs;
  size_t n, cap;
  const pqt_allocator *a;
} key_list;

static pqt_status collect_keys(jnode *node, key_list *k, pqt_error *err) {
  if (node->kind != PQT_VARIANT_OBJECT && node->kind != PQT_VARIANT_ARRAY) return PQT_OK;
  for (uint32_t i = 0; i < node->n; i++) {
    if (node->kind == PQT_VARIANT_OBJECT) {
      if (k->n == k->cap) {
        size_t nc = k->cap ? k->cap * 2 : 64;
        key_ref *r = pqt_mem_realloc(k->a, k->refs, sizeof *r * k->cap, sizeof *r * nc);
        if (!r) return pqt_nomem(err);
        k->refs = r;
        k->cap = nc;
      }
      k->refs[k->n++] = (key_ref){node->keys[i], node->key_lens[i], &node->key_ids[i]};
    }
    PQT_RETURN_NOT_OK(collect_keys(node->kids[i], k, err));
  }
  return PQT_OK;
}

static unsigned width_for(uint64_t max) { return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4; }

static void put_le(uint8_t *p, uint64_t v, unsigned w) {
  for (unsigned i = 0; i < w; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- numbers -------------------------------------------------------- */

static pqt_status size_number(jnode *node, pqt_error *err) {
  const char *s = (const char *)node->s;
  size_t n = node->len;
  bool neg = s[0] == '-';
  bool frac = memchr(s, '.', n) != NULL, expo = memchr(s, 'e', n) || memchr(s, 'E', n);
  if (!expo) {
    /* the digits as an exact unscaled integer, when they fit 38 digits */
    unsigned __int128 u = 0;
    int digits = 0, scale = 0;
    bool fits = true, after = false, leading = true;
    for (size_t i = neg; i < n; i++) {
      if (s[i] == '.') {
        after = true;
        continue;
      }
      if (after) scale++;
      if (leading && s[i] == '0' && !after) continue;
      leading = false;
      if (++digits > 38) {
        fits = false;
        break;
      }
      u = u * 10 + (unsigned)(s[i] - '0');
    }
    if (fits && scale <= 38) {
      __int128 v = neg ? -(__int128)u : (__int128)u;
      for (int k = 0; k < 16; k++) node->unscaled[k] = (uint8_t)((unsigned __int128)v >> (8 * k));
      node->scale = scale;
      if (!frac && v >= INT64_MIN && v <= INT64_MAX) {
        node->num_type = v >= INT8_MIN && v <= INT8_MAX     ? PQT_VARIANT_INT8
                         : v >= INT16_MIN && v <= INT16_MAX ? PQT_VARIANT_INT16
                         : v >= INT32_MIN && v <= INT32_MAX ? PQT_VARIANT_INT32
                                                            : PQT_VARIANT_INT64;
        static const size_t int_size[] = {2, 3, 5, 9};
        node->size = int_size[node->num_type - PQT_VARIANT_INT8];
        return PQT_OK;
      }
      node->num_type = digits <= 9 ? PQT_VARIANT_DECIMAL4 : digits <= 18 ? PQT_VARIANT_DECIMAL8 : PQT_VARIANT_DECIMAL16;
      node->size = node->num_type == PQT_VARIANT_DECIMAL4 ? 6 : node->num_type == PQT_VARIANT_DECIMAL8 ? 10 : 18;
      return PQT_OK;
    }
  }
  char buf[64];
  char *text = buf;
  if (n >= sizeof buf) {
    text = malloc(n + 1);
    if (!text) return pqt_nomem(err);
  }
  memcpy(text, s, n);
  text[n] = 0;
  errno = 0;
  node->dbl = strtod(text, NULL);
  bool range = errno == ERANGE && (node->dbl == HUGE_VAL || node->dbl == -HUGE_VAL);
  if (text != buf) free(text);
  if (range)
    return pqt_error_set(err, PQT_EINVAL, "JSON: the number %.*s is out of the range of a double",
                         (int)(n > 40 ? 40 : n), s);
  node->num_type = PQT_VARIANT_DOUBLE;
  node->size = 9;
  return PQT_OK;
}

/* ---- sizing and writing --------------------------------------------- */

static pqt_status size_node(jnode *node, pqt_error *err) {
  switch (node->kind) {
    case PQT_VARIANT_NULL:
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: node->size = 1; return PQT_OK;
    case PQT_VARIANT_STRING:
      if (node->len > UINT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "JSON: a string of over 4 GiB");
      node->size = node->len < 64 ? 1 + node->len : 5 + node->len;
      return PQT_OK;
    case KIND_NUMBER: return size_number(node, err);
    case KIND_RAW: node->size = node->len; return PQT_OK;
    default: break;
  }
  size_t total = 0;
  uint32_t max_id = 0;
  for (uint32_t i = 0; i < node->n; i++) {
    PQT_RETURN_NOT_OK(size_node(node->kids[i], err));
    if (!pqt_add_size(total, node->kids[i]->size, &total) || total > UINT32_MAX)
      return pqt_error_set(err, PQT_ELIMIT, "JSON: a Variant object or array over 4 GiB");
    if (node->kind == PQT_VARIANT_OBJECT && node->key_ids[i] > max_id) max_id = node->key_ids[i];
  }
  node->large = node->n > 255;
  node->off_size = width_for(total);
  node->id_size = node->kind == PQT_VARIANT_OBJECT ? width_for(max_id) : 0;
  size_t head =
      (size_t)1 + (node->large ? 4u : 1u) + (size_t)node->n * node->id_size + ((size_t)node->n + 1) * node->off_size;
  if (!pqt_add_size(head, total, &node->size))
    return pqt_error_set(err, PQT_ELIMIT, "JSON: a Variant object or array too large");
  return PQT_OK;
}

/* Objects: fields in the order of their names (ids are in name order). */
typedef struct field_order {
  uint32_t id;
  uint32_t index;
} field_order;

static int field_cmp(const void *a, const void *b) {
  const field_order *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

static pqt_status write_node(const jnode *node, uint8_t *o, const pqt_allocator *alloc, pqt_error *err) {
  switch (node->kind) {
    case PQT_VARIANT_NULL:
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: o[0] = (uint8_t)(node->kind << 2); return PQT_OK;
    case PQT_VARIANT_STRING:
      if (node->len < 64) {
        o[0] = (uint8_t)(node->len << 2 | 1);
        if (node->len) memcpy(o + 1, node->s, node->len);
      } else {
        o[0] = PQT_VARIANT_STRING << 2;
        put_le(o + 1, node->len, 4);
        memcpy(o + 5, node->s, node->len);
      }
      return PQT_OK;
    case KIND_RAW: memcpy(o, node->s, node->len); return PQT_OK;
    case KIND_NUMBER:
      o[0] = (uint8_t)(node->num_type << 2);
      switch (node->num_type) {
        case PQT_VARIANT_INT8: memcpy(o + 1, node->unscaled, 1); break;
        case PQT_VARIANT_INT16: memcpy(o + 1, node->unscaled, 2); break;
        case PQT_VARIANT_INT32: memcpy(o + 1, node->unscaled, 4); break;
        case PQT_VARIANT_INT64: memcpy(o + 1, node->unscaled, 8); break;
        case PQT_VARIANT_DECIMAL4:
          o[1] = (uint8_t)node->scale;
          memcpy(o + 2, node->unscaled, 4);
          break;
        case PQT_VARIANT_DECIMAL8:
          o[1] = (uint8_t)node->scale;
          memcpy(o + 2, node->unscaled, 8);
          break;
        case PQT_VARIANT_DECIMAL16:
          o[1] = (uint8_t)node->scale;
          memcpy(o + 2, node->unscaled, 16);
          break;
        default: {
          uint64_t b;
          memcpy(&b, &node->dbl, sizeof b);
          put_le(o + 1, b, 8);
        }
      }
      return PQT_OK;
    default: break;
  }
  bool object = node->kind == PQT_VARIANT_OBJECT;
  unsigned nsz = node->large ? 4 : 1;
  o[0] = object ? (uint8_t)(((node->large ? 1u : 0u) << 4 | (node->id_size - 1) << 2 | (node->off_size - 1)) << 2 | 2)
                : (uint8_t)(((node->large ? 1u : 0u) << 2 | (node->off_size - 1)) << 2 | 3);
  put_le(o + 1, node->n, nsz);
  uint8_t *ids = o + 1 + nsz;
  uint8_t *offs = ids + (size_t)node->n * node->id_size;
  uint8_t *fields = offs + ((size_t)node->n + 1) * node->off_size;
  field_order *order = NULL;
  if (object && node->n) {
    order = pqt_mem_alloc(alloc, sizeof *order * node->n);
    if (!order) return pqt_nomem(err);
    for (uint32_t i = 0; i < node->n; i++) order[i] = (field_order){node->key_ids[i], i};
    qsort(order, node->n, sizeof *order, field_cmp);
  }
  size_t pos = 0;
  pqt_status st = PQT_OK;
  for (uint32_t k = 0; k < node->n && st == PQT_OK; k++) {
    uint32_t i = order ? order[k].index : k;
    if (object) put_le(ids + (size_t)k * node->id_size, node->key_ids[i], node->id_size);
    put_le(offs + (size_t)k * node->off_size, pos, node->off_size);
    st = write_node(node->kids[i], fields + pos, alloc, err);
    pos += node->kids[i]->size;
  }
  put_le(offs + (size_t)node->n * node->off_size, pos, node->off_size);
  if (order) pqt_mem_free(alloc, order, sizeof *order * node->n);
  return st;
}

/* Duplicate names within one object are an error (the spec forbids them). */
static pqt_status object_duplicates(const jnode *node, const pqt_allocator *alloc, pqt_error *err) {
  if (node->kind != PQT_VARIANT_OBJECT && node->kind != PQT_VARIANT_ARRAY) return PQT_OK;
  if (node->kind == PQT_VARIANT_OBJECT && node->n > 1) {
    field_order *order = pqt_mem_alloc(alloc, sizeof *order * node->n);
    if (!order) return pqt_nomem(err);
    for (uint32_t i = 0; i < node->n; i++) order[i] = (field_order){node->key_ids[i], i};
    qsort(order, node->n, sizeof *order, field_cmp);
    for (uint32_t i = 1; i < node->n; i++)
      if (order[i].id == order[i - 1].id) {
        uint32_t at = order[i].index;
        pqt_mem_free(alloc, order, sizeof *order * node->n);
        return pqt_error_set(err, PQT_EINVAL, "JSON: the object has the field \"%.*s\" twice",
                             (int)(node->key_lens[at] > 64 ? 64 : node->key_lens[at]), (const char *)node->keys[at]);
      }
    pqt_mem_free(alloc, order, sizeof *order * node->n);
  }
  for (uint32_t i = 0; i < node->n; i++) PQT_RETURN_NOT_OK(object_duplicates(node->kids[i], alloc, err));
  return PQT_OK;
}

PQT_API void pqt_variant_owned_free(pqt_variant_owned *v) {
  if (!v) return;
  if (v->metadata) pqt_mem_free(v->alloc, v->metadata, v->metadata_cap);
  if (v->value) pqt_mem_free(v->alloc, v->value, v->value_cap);
  memset(v, 0, sizeof *v);
}

static pqt_status build_metadata(key_list *k, pqt_variant_owned *out, pqt_error *err) {
  if (k->n) qsort(k->refs, k->n, sizeof *k->refs, key_cmp);
  /* unique names get ids 0.. in sorted order */
  size_t n_unique = 0, bytes = 0;
  for (size_t i = 0; i < k->n; i++) {
    if (i == 0 || key_cmp(&k->refs[i - 1], &k->refs[i]) != 0) {
      n_unique++;
      bytes += k->refs[i].len;
    }
    *k->refs[i].id_slot = (uint32_t)(n_unique - 1);
  }
  if (n_unique > UINT32_MAX - 1 || bytes > UINT32_MAX)
    return pqt_error_set(err, PQT_ELIMIT, "JSON: the field names exceed a Variant dictionary");
  unsigned os = width_for(bytes > n_unique ? bytes : n_unique);
  size_t size = 1 + os + (n_unique + 1) * os + bytes;
  out->metadata = pqt_mem_alloc(out->alloc, size);
  if (!out->metadata) return pqt_nomem(err);
  out->metadata_cap = size;
  uint8_t *m = out->metadata;
  m[0] = (uint8_t)(1 | 1 << 4 | (os - 1) << 6); /* version 1, sorted and unique */
  put_le(m + 1, n_unique, os);
  uint8_t *offs = m + 1 + os, *str = offs + (n_unique + 1) * os;
  size_t pos = 0, id = 0;
  for (size_t i = 0; i < k->n; i++) {
    if (i > 0 && key_cmp(&k->refs[i - 1], &k->refs[i]) == 0) continue;
    put_le(offs + id * os, pos, os);
    if (k->refs[i].len) memcpy(str + pos, k->refs[i].s, k->refs[i].len);
    pos += k->refs[i].len;
    id++;
  }
  put_le(offs + id * os, pos, os);
  out->view.metadata = out->metadata;
  out->view.metadata_len = size;
  return PQT_OK;
}

/* Encode a parsed tree into out (whose alloc is set): dictionary, checks,
 * sizes, bytes. */
static pqt_status encode_tree(jnode *root, pqt_variant_owned *out, pqt_error *err) {
  key_list keys = {NULL, 0, 0, out->alloc};
  pqt_status st = collect_keys(root, &keys, err);
  if (st == PQT_OK) st = build_metadata(&keys, out, err);
  if (st == PQT_OK) st = object_duplicates(root, out->alloc, err);
  if (st == PQT_OK) st = size_node(root, err);
  if (st == PQT_OK) {
    out->value = pqt_mem_alloc(out->alloc, root->size);
    if (!out->value) st = pqt_nomem(err);
    else {
      out->value_cap = root->size;
      st = write_node(root, out->value, out->alloc, err);
      out->view.value = out->value;
      out->view.value_len = root->size;
    }
  }
  pqt_mem_free(out->alloc, keys.refs, sizeof *keys.refs * keys.cap);
  return st;
}

PQT_API pqt_status pqt_variant_from_json(const char *json, size_t len, const pqt_allocator *alloc,
                                         pqt_variant_owned *out, pqt_error *err) {
  if (!out || (!json && len)) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_from_json: bad arguments");
  memset(out, 0, sizeof *out);
  out->alloc = pqt_alloc_or_default(alloc);
  pqt_arena arena;
  pqt_arena_init(&arena, out->alloc);
  jparser j = {(const uint8_t *)json, (const uint8_t *)json, (const uint8_t *)json + len, &arena, err, 0};
  jnode *root = NULL;
  pqt_status st = jvalue(&j, &root);
  if (st == PQT_OK) {
    jws(&j);
    if (j.p != j.end) st = jfail(&j, "text after the value");
  }
  if (st == PQT_OK) st = encode_tree(root, out, err);
  pqt_arena_reset(&arena);
  if (st != PQT_OK) pqt_variant_owned_free(out);
  return st;
}

/* ---- re-encoding an existing value ---------------------------------- */

static pqt_status tree_of(const pqt_variant *v, pqt_arena *arena, int depth, jnode **out, pqt_error *err) {
  PQT_CHECK_CORRUPT(depth <= PQT_VARIANT_MAX_DEPTH, err, "Variant nests deeper than %d levels", PQT_VARIANT_MAX_DEPTH);
  jnode *node = pqt_arena_alloc(arena, sizeof *node);
  if (!node) return pqt_nomem(err);
  *out = node;
  pqt_variant_kind t;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(v, &t, err));
  if (t == PQT_VARIANT_STRING) {
    pqt_variant_scalar sc;
    PQT_RETURN_NOT_OK(pqt_variant_get_scalar(v, &sc, err));
    node->kind = PQT_VARIANT_STRING;
    node->s = sc.u.bytes.data;
    node->len = sc.u.bytes.len;
    return PQT_OK;
  }
  if (t != PQT_VARIANT_OBJECT && t != PQT_VARIANT_ARRAY) {
    size_t size;
    PQT_RETURN_NOT_OK(pqt_vvalue_size(v->value, v->value_len, &size, err));
    node->kind = KIND_RAW;
    node->s = v->value;
    node->len = size;
    return PQT_OK;
  }
  int64_t n;
  PQT_RETURN_NOT_OK(pqt_variant_num_elements(v, &n, err));
  node->kind = (uint8_t)t;
  node->n = (uint32_t)n;
  size_t cnt = n ? (size_t)n : 1;
  node->kids = pqt_arena_array(arena, cnt, sizeof *node->kids);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!node->kids) return pqt_nomem(err);
  if (t == PQT_VARIANT_OBJECT) {
    node->keys = pqt_arena_array(arena, cnt, sizeof *node->keys);
    node->key_lens = pqt_arena_array(arena, cnt, sizeof *node->key_lens);
    node->key_ids = pqt_arena_array(arena, cnt, sizeof *node->key_ids);
    if (!node->keys || !node->key_lens || !node->key_ids) return pqt_nomem(err);
  }
  for (int64_t i = 0; i < n; i++) {
    pqt_variant c;
    if (t == PQT_VARIANT_OBJECT) {
      const char *name;
      PQT_RETURN_NOT_OK(pqt_variant_object_field(v, i, &name, &node->key_lens[i], &c, err));
      node->keys[i] = (const uint8_t *)name;
    } else {
      PQT_RETURN_NOT_OK(pqt_variant_array_element(v, i, &c, err));
    }
    PQT_RETURN_NOT_OK(tree_of(&c, arena, depth + 1, &node->kids[i], err));
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_variant_rebuild(const pqt_variant *v, const pqt_allocator *alloc, pqt_variant_owned *out,
                                       pqt_error *err) {
  if (!v || !out) return pqt_error_set(err, PQT_EINVAL, "pqt_variant_rebuild: bad arguments");
  memset(out, 0, sizeof *out);
  out->alloc = pqt_alloc_or_default(alloc);
  pqt_arena arena;
  pqt_arena_init(&arena, out->alloc);
  jnode *root = NULL;
  bool unsorted = false; /* objects out of name order are read, and written sorted */
  pqt_status st = pqt_variant_validate_read(v, &unsorted, err);
  if (st == PQT_OK) st = tree_of(v, &arena, 0, &root, err);
  if (st == PQT_OK) st = encode_tree(root, out, err);
  pqt_arena_reset(&arena);
  if (st != PQT_OK) pqt_variant_owned_free(out);
  return st;
}
