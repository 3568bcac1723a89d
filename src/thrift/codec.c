/*
 * thrift/codec.c: one interpreter over pqt_thrift_desc tables that decodes,
 * encodes, compares and renders as JSON every parquet.thrift struct (seed
 * 002, "Metadata"; the field facts come from parquet.thrift). The decoding
 * policy (skip on wire-type mismatch, required fields, unions, lists in an
 * arena, limits) is documented in codec.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "thrift/codec.h"

/* Every pqt_list_* of parquet_types.h has this layout. */
typedef struct pqt_list_any {
  void *items;
  int32_t n;
} pqt_list_any;

_Static_assert(offsetof(pqt_list_i32, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(offsetof(pqt_list_i64, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(offsetof(pqt_list_bool, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(offsetof(pqt_list_bytes, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(offsetof(pqt_list_row_group, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(offsetof(pqt_list_column_order, n) == offsetof(pqt_list_any, n), "list layout");
_Static_assert(sizeof(pqt_list_key_value) == sizeof(pqt_list_any), "list layout");

/* Wire type of a storage kind (bool: PQT_TW_TRUE stands for both). */
static const uint8_t kind_wire[] = {
    [PQT_TK_BOOL] = PQT_TW_TRUE,     [PQT_TK_I8] = PQT_TW_I8,         [PQT_TK_I16] = PQT_TW_I16,
    [PQT_TK_I32] = PQT_TW_I32,       [PQT_TK_I64] = PQT_TW_I64,       [PQT_TK_DOUBLE] = PQT_TW_DOUBLE,
    [PQT_TK_BINARY] = PQT_TW_BINARY, [PQT_TK_STRING] = PQT_TW_BINARY, [PQT_TK_ENUM] = PQT_TW_I32,
    [PQT_TK_STRUCT] = PQT_TW_STRUCT, [PQT_TK_LIST] = PQT_TW_LIST,
};

static size_t kind_size(int kind, const pqt_thrift_desc *sub) {
  switch (kind) {
    case PQT_TK_BOOL: return sizeof(bool);
    case PQT_TK_I8: return 1;
    case PQT_TK_I16: return 2;
    case PQT_TK_I32:
    case PQT_TK_ENUM: return 4;
    case PQT_TK_I64:
    case PQT_TK_DOUBLE: return 8;
    case PQT_TK_BINARY:
    case PQT_TK_STRING: return sizeof(pqt_bytes);
    case PQT_TK_STRUCT: return sub->size;
    case PQT_TK_LIST: return sizeof(pqt_list_any);
    default: return 0;
  }
}

static inline uint32_t load_isset(const void *s) {
  uint32_t v;
  memcpy(&v, s, sizeof v);
  return v;
}

const pqt_thrift_field *pqt_thrift_find_field(const pqt_thrift_desc *d, int16_t id) {
  for (uint16_t i = 0; i < d->n_fields; i++)
    if (d->fields[i].id == id) return &d->fields[i];
  return NULL;
}

/* ---- decode ---------------------------------------------------------- */

typedef struct dec_ctx {
  pqt_tcr r;
  pqt_arena *arena;
  size_t alloc_left; /* pqt_thrift_limits.max_alloc_bytes still available */
} dec_ctx;

/* Arena array with the per-decode allocation budget. */
static void *dec_alloc(dec_ctx *c, size_t n, size_t esz, const char *what) {
  size_t total;
  if (!pqt_mul_size(n, esz, &total) || total > c->alloc_left) {
    pqt_tcr_fail(&c->r, PQT_ELIMIT, "list %s: decoded lists would exceed the allocation limit", what);
    return NULL;
  }
  void *p = pqt_arena_array(c->arena, n, esz);
  if (!p) {
    pqt_tcr_fail(&c->r, PQT_ENOMEM, "out of memory for list %s", what);
    return NULL;
  }
  c->alloc_left -= total;
  return p;
}

static void dec_struct(dec_ctx *c, const pqt_thrift_desc *d, void *out, int depth);

/* One non-bool-field value of a scalar kind (bool here is a 1-byte element). */
static inline void dec_scalar(pqt_tcr *r, int kind, void *dst) {
  switch (kind) {
    case PQT_TK_BOOL: *(bool *)dst = pqt_tcr_bool_elem(r); break;
    case PQT_TK_I8: *(int8_t *)dst = pqt_tcr_i8(r); break;
    case PQT_TK_I16: *(int16_t *)dst = pqt_tcr_i16(r); break;
    case PQT_TK_I32:
    case PQT_TK_ENUM: *(int32_t *)dst = pqt_tcr_i32(r); break;
    case PQT_TK_I64: *(int64_t *)dst = pqt_tcr_i64(r); break;
    case PQT_TK_DOUBLE: *(double *)dst = pqt_tcr_double(r); break;
    case PQT_TK_BINARY:
    case PQT_TK_STRING: *(pqt_bytes *)dst = pqt_tcr_binary(r); break;
    default: pqt_tcr_fail(r, PQT_EINVAL, "bad descriptor kind %d", kind); break;
  }
}

#define PQT_LIST_CHUNK_BYTES ((size_t)64 * 1024)

/* Decode a list body whose header (elem type matching f->elem, n) was read. */
static bool dec_list(dec_ctx *c, const pqt_thrift_field *f, pqt_list_any *dst, int32_t n, int depth) {
  dst->items = NULL;
  dst->n = 0;
  if (n == 0) return true;
  if (!c->arena) {
    pqt_tcr_fail(&c->r, PQT_EINVAL, "a non-empty list (%s) needs an arena", f->name);
    return false;
  }
  size_t esz = kind_size(f->elem, f->sub);
  if (esz == 0) esz = 1; /* storage-less empty structs: keep a harmless array */
  size_t cap = (size_t)n;
  if (cap * esz > PQT_LIST_CHUNK_BYTES) {
    /* Grow as elements are really decoded (see codec.h). */
    cap = PQT_LIST_CHUNK_BYTES / esz;
    if (cap == 0) cap = 1;
  }
  uint8_t *items = dec_alloc(c, cap, esz, f->name);
  if (!items) return false;
  const uint8_t *start = c->r.p;
  for (int32_t i = 0; i < n; i++) {
    if ((size_t)i == cap) {
      size_t ncap = cap * 2 < (size_t)n ? cap * 2 : (size_t)n;
      /* The elements decoded so far show what one takes on the wire: when
       * the rest of the input can hold the remaining ones at that rate and
       * the allocation budget allows, size the list for all of them now
       * rather than doubling (each doubling copies and strands the old
       * array in the arena: a 10,000-column row group's chunks would take
       * twice their size). A claimed count the input cannot back still
       * only grows as elements are decoded. */
      size_t used = (size_t)(c->r.p - start), left = (size_t)(c->r.end - c->r.p);
      size_t per = used / (size_t)i, need, total;
      if (per > 0 && pqt_mul_size((size_t)n - (size_t)i, per, &need) && need <= left &&
          pqt_mul_size((size_t)n, esz, &total) && total <= c->alloc_left)
        ncap = (size_t)n;
      uint8_t *grown = dec_alloc(c, ncap, esz, f->name);
      if (!grown) return false;
      memcpy(grown, items, cap * esz);
      items = grown;
      cap = ncap;
    }
    uint8_t *e = items + (size_t)i * esz;
    if (f->elem == PQT_TK_STRUCT) {
      dec_struct(c, f->sub, f->sub->size ? e : NULL, depth + 1);
    } else {
      dec_scalar(&c->r, f->elem, e);
    }
    if (c->r.status) return false;
  }
  dst->items = items;
  dst->n = n;
  return true;
}

static inline const pqt_thrift_field *lookup(const pqt_thrift_desc *d, int16_t id, uint16_t *hint) {
  uint16_t h = *hint;
  if (h < d->n_fields && d->fields[h].id == id) {
    *hint = (uint16_t)(h + 1);
    return &d->fields[h];
  }
  for (uint16_t i = 0; i < d->n_fields; i++) {
    if (d->fields[i].id == id) {
      *hint = (uint16_t)(i + 1);
      return &d->fields[i];
    }
  }
  return NULL;
}

/* Decode a struct body (after its field header, or at top level). `out` is
 * zeroed by the caller; NULL for storage-less empty structs. */
static void dec_struct(dec_ctx *c, const pqt_thrift_desc *d, void *out, int depth) {
  pqt_tcr *r = &c->r;
  if (depth > r->max_depth) {
    pqt_tcr_fail(r, PQT_ELIMIT, "nesting deeper than %d", (int)r->max_depth);
    return;
  }
  uint8_t *base = out;
  uint32_t isset = 0;
  int16_t last = 0, id = 0;
  uint16_t hint = 0;
  int n_wire = 0;
  for (;;) {
    int t = pqt_tcr_field_begin(r, &last, &id);
    if (t == PQT_TW_STOP) break;
    n_wire++;
    const pqt_thrift_field *f = base ? lookup(d, id, &hint) : NULL;
    if (!f) {
      pqt_tcr_skip(r, t, false, depth);
      continue;
    }
    int want = kind_wire[f->kind];
    bool match = (t == want) || (want == PQT_TW_TRUE && t == PQT_TW_FALSE);
    if (!match) {
      pqt_tcr_skip(r, t, false, depth);
      continue;
    }
    void *dst = f->offset >= 0 ? base + f->offset : NULL;
    if (!dst && f->kind != PQT_TK_STRUCT) {
      /* only an empty-struct member has no storage (PQT_TF_NO_STORAGE) */
      pqt_tcr_fail(r, PQT_EINVAL, "descriptor %s.%s has no storage", d->name, f->name);
      return;
    }
    switch (f->kind) {
      case PQT_TK_BOOL: *(bool *)dst = (t == PQT_TW_TRUE); break;
      case PQT_TK_STRUCT:
        /* out was zeroed by the caller (and so every member): only a field
         * met a second time (the last occurrence wins) needs clearing */
        if (dst && ((isset >> f->id) & 1u)) memset(dst, 0, f->sub->size);
        if (depth + 1 > r->max_depth) {
          pqt_tcr_fail(r, PQT_ELIMIT, "nesting deeper than %d", (int)r->max_depth);
          return;
        }
        dec_struct(c, f->sub, dst, depth + 1);
        break;
      case PQT_TK_LIST: {
        if (depth + 1 > r->max_depth) {
          pqt_tcr_fail(r, PQT_ELIMIT, "nesting deeper than %d", (int)r->max_depth);
          return;
        }
        int et;
        int32_t n;
        if (!pqt_tcr_list_begin(r, &et, &n)) return;
        if (et != kind_wire[f->elem]) {
          /* Element type mismatch: skip the elements, field stays unset. */
          for (int32_t i = 0; i < n && !r->status; i++) pqt_tcr_skip(r, et, true, depth + 1);
          continue;
        }
        if (!dec_list(c, f, dst, n, depth + 1)) return;
        break;
      }
      default: dec_scalar(r, f->kind, dst); break;
    }
    if (r->status) return;
    isset |= 1u << f->id;
  }
  if (r->status) return;
  if (d->is_union) {
    if (n_wire != 1) {
      pqt_tcr_fail(r, PQT_ECORRUPT, "union %s has %d members (exactly one expected)", d->name, n_wire);
      return;
    }
  } else {
    for (uint16_t i = 0; i < d->n_fields; i++) {
      const pqt_thrift_field *f = &d->fields[i];
      if (!f->flags || ((isset >> f->id) & 1u)) continue;
      if (f->flags & PQT_TF_REQUIRED) {
        pqt_tcr_fail(r, PQT_ECORRUPT, "required field %s.%s missing", d->name, f->name);
        return;
      }
      if ((f->flags & PQT_TF_DEFAULT_TRUE) && base && f->offset >= 0) *(bool *)(base + f->offset) = true;
    }
  }
  if (base) memcpy(base, &isset, sizeof isset);
}

pqt_status pqt_thrift_decode_ex(const pqt_thrift_desc *d, const uint8_t *buf, size_t len, size_t *consumed,
                                pqt_arena *arena, const pqt_thrift_limits *limits, void *out, pqt_error *err) {
  if (consumed) *consumed = 0;
  if (!d || (!buf && len) || (!out && d->size))
    return pqt_error_set(err, PQT_EINVAL, "pqt_thrift_decode: bad arguments");
  if (out) memset(out, 0, d->size);
  dec_ctx c;
  static const uint8_t empty[1] = {0};
  pqt_tcr_init(&c.r, buf ? buf : empty, buf ? len : 0, limits, err);
  c.arena = arena;
  if (limits && limits->max_alloc_bytes > 0) {
    c.alloc_left = (uint64_t)limits->max_alloc_bytes > SIZE_MAX ? SIZE_MAX : (size_t)limits->max_alloc_bytes;
  } else {
    size_t budget;
    if (!pqt_mul_size(len, 64, &budget) || !pqt_add_size(budget, (size_t)1 << 20, &budget)) budget = SIZE_MAX;
    c.alloc_left = budget;
  }
  dec_struct(&c, d, d->size ? out : NULL, 1);
  if (c.r.status) return c.r.status;
  if (consumed) *consumed = pqt_tcr_offset(&c.r);
  return PQT_OK;
}

pqt_status pqt_thrift_decode(const pqt_thrift_desc *d, const uint8_t *buf, size_t len, size_t *consumed,
                             pqt_arena *arena, void *out, pqt_error *err) {
  return pqt_thrift_decode_ex(d, buf, len, consumed, arena, NULL, out, err);
}

/* ---- encode ---------------------------------------------------------- */

static void enc_fail_status(pqt_tcw *w, pqt_status code, const char *what, const char *sname, const char *fname) {
  if (w->status) return;
  w->status = pqt_error_set(w->err, code, "thrift encode: %s %s.%s", what, sname, fname);
}

static void enc_fail(pqt_tcw *w, const char *what, const char *sname, const char *fname) {
  enc_fail_status(w, PQT_EINVAL, what, sname, fname);
}

static void enc_struct(pqt_tcw *w, const pqt_thrift_desc *d, const void *in, int depth);

static void enc_scalar(pqt_tcw *w, int kind, const void *src) {
  switch (kind) {
    case PQT_TK_BOOL: pqt_tcw_bool_elem(w, *(const bool *)src); break;
    case PQT_TK_I8: pqt_tcw_i8(w, *(const int8_t *)src); break;
    case PQT_TK_I16: pqt_tcw_i16(w, *(const int16_t *)src); break;
    case PQT_TK_I32:
    case PQT_TK_ENUM: pqt_tcw_i32(w, *(const int32_t *)src); break;
    case PQT_TK_I64: pqt_tcw_i64(w, *(const int64_t *)src); break;
    case PQT_TK_DOUBLE: pqt_tcw_double(w, *(const double *)src); break;
    case PQT_TK_BINARY:
    case PQT_TK_STRING: {
      const pqt_bytes *b = src;
      if (b->len < 0 || b->len > INT32_MAX || (b->len > 0 && !b->ptr)) {
        if (!w->status) w->status = pqt_error_set(w->err, PQT_EINVAL, "thrift encode: invalid bytes value");
        return;
      }
      pqt_tcw_binary(w, b->ptr, (size_t)b->len);
      break;
    }
    default: break;
  }
}

static void enc_struct(pqt_tcw *w, const pqt_thrift_desc *d, const void *in, int depth) {
  if (depth > PQT_THRIFT_DEFAULT_MAX_DEPTH) {
    enc_fail(w, "nesting too deep at", d->name, "");
    return;
  }
  uint32_t isset = (in && d->size) ? load_isset(in) : 0;
  const uint8_t *base = in;
  int16_t last = 0;
  if (d->is_union) {
    int known = 0;
    for (uint16_t i = 0; i < d->n_fields; i++) known += (int)((isset >> d->fields[i].id) & 1u);
    if (known != 1) {
      enc_fail(w, "union must have exactly one member set:", d->name, "");
      return;
    }
  }
  for (uint16_t i = 0; i < d->n_fields && !w->status; i++) {
    const pqt_thrift_field *f = &d->fields[i];
    if (!((isset >> f->id) & 1u)) {
      if (f->flags & PQT_TF_REQUIRED) enc_fail(w, "required field not set:", d->name, f->name);
      continue;
    }
    const void *src = f->offset >= 0 && base ? base + f->offset : NULL;
    if (!src && f->kind != PQT_TK_STRUCT) {
      /* only an empty-struct member has no storage (PQT_TF_NO_STORAGE) */
      enc_fail(w, "field without storage:", d->name, f->name);
      break;
    }
    switch (f->kind) {
      case PQT_TK_BOOL: pqt_tcw_field_begin(w, *(const bool *)src ? PQT_TW_TRUE : PQT_TW_FALSE, f->id, &last); break;
      case PQT_TK_STRUCT:
        if (f->sub->is_union && src && load_isset(src) == 0) {
          /* A union whose member this version does not know: left out. */
          /* Only a struct decoded from a file holds such a union (a member added to the format after
           * this version): writing it back would drop a required field, so it is refused as unsupported. */
          if (f->flags & PQT_TF_REQUIRED)
            enc_fail_status(w, PQT_EUNSUPPORTED, "a member this version does not know in", d->name, f->name);
          break;
        }
        pqt_tcw_field_begin(w, PQT_TW_STRUCT, f->id, &last);
        enc_struct(w, f->sub, src, depth + 1);
        break;
      case PQT_TK_LIST: {
        const pqt_list_any *l = src;
        if (l->n < 0 || (l->n > 0 && !l->items)) {
          enc_fail(w, "invalid list", d->name, f->name);
          break;
        }
        pqt_tcw_field_begin(w, PQT_TW_LIST, f->id, &last);
        pqt_tcw_list_begin(w, kind_wire[f->elem], l->n);
        size_t esz = kind_size(f->elem, f->sub);
        const uint8_t *items = l->items;
        for (int32_t k = 0; k < l->n && !w->status; k++) {
          const uint8_t *e = items + (size_t)k * esz;
          if (f->elem == PQT_TK_STRUCT) {
            enc_struct(w, f->sub, f->sub->size ? e : NULL, depth + 1);
          } else {
            enc_scalar(w, f->elem, e);
          }
        }
        break;
      }
      default:
        pqt_tcw_field_begin(w, kind_wire[f->kind], f->id, &last);
        enc_scalar(w, f->kind, src);
        break;
    }
  }
  pqt_tcw_stop(w);
}

pqt_status pqt_thrift_encode(const pqt_thrift_desc *d, const void *in, pqt_buf *out, pqt_error *err) {
  if (!d || !out || (!in && d->size)) return pqt_error_set(err, PQT_EINVAL, "pqt_thrift_encode: bad arguments");
  pqt_tcw w;
  pqt_tcw_init(&w, out, err);
  size_t start = out->len;
  enc_struct(&w, d, in, 1);
  if (w.status) out->len = start;
  return w.status;
}

/* ---- deep comparison ------------------------------------------------- */

static bool eq_struct(const pqt_thrift_desc *d, const uint8_t *a, const uint8_t *b);

static bool eq_value(int kind, const pqt_thrift_desc *sub, const uint8_t *a, const uint8_t *b) {
  switch (kind) {
    case PQT_TK_BOOL: return *(const bool *)a == *(const bool *)b;
    case PQT_TK_BINARY:
    case PQT_TK_STRING: {
      const pqt_bytes *x = (const pqt_bytes *)a, *y = (const pqt_bytes *)b;
      return x->len == y->len && (x->len == 0 || memcmp(x->ptr, y->ptr, (size_t)x->len) == 0);
    }
    case PQT_TK_DOUBLE: /* bitwise, so that NaN equals itself */
    default: return memcmp(a, b, kind_size(kind, sub)) == 0;
  }
}

static bool eq_struct(const pqt_thrift_desc *d, const uint8_t *a, const uint8_t *b) {
  if (!d->size || !a || !b) return true;
  uint32_t isset = load_isset(a);
  if (isset != load_isset(b)) return false;
  for (uint16_t i = 0; i < d->n_fields; i++) {
    const pqt_thrift_field *f = &d->fields[i];
    if (!((isset >> f->id) & 1u) || f->offset < 0) continue;
    const uint8_t *x = a + f->offset, *y = b + f->offset;
    if (f->kind == PQT_TK_STRUCT) {
      if (!eq_struct(f->sub, x, y)) return false;
    } else if (f->kind == PQT_TK_LIST) {
      const pqt_list_any *lx = (const pqt_list_any *)x, *ly = (const pqt_list_any *)y;
      if (lx->n != ly->n) return false;
      size_t esz = kind_size(f->elem, f->sub);
      for (int32_t k = 0; k < lx->n; k++) {
        const uint8_t *ex = (const uint8_t *)lx->items + (size_t)k * esz;
        const uint8_t *ey = (const uint8_t *)ly->items + (size_t)k * esz;
        bool same = f->elem == PQT_TK_STRUCT ? eq_struct(f->sub, ex, ey) : eq_value(f->elem, f->sub, ex, ey);
        if (!same) return false;
      }
    } else if (!eq_value(f->kind, f->sub, x, y)) {
      return false;
    }
  }
  return true;
}

bool pqt_thrift_equal(const pqt_thrift_desc *d, const void *a, const void *b) { return eq_struct(d, a, b); }

/* ---- JSON ------------------------------------------------------------ */

typedef struct json_ctx {
  pqt_buf *b;
  int indent;
  pqt_status st;
  pqt_error *err;
} json_ctx;

static void js_raw(json_ctx *j, const char *s, size_t n) {
  if (!j->st) j->st = pqt_buf_append(j->b, s, n, j->err);
}
static void js_str(json_ctx *j, const char *s) { js_raw(j, s, strlen(s)); }

static void js_newline(json_ctx *j, int level) {
  if (!j->indent || j->st) return;
  size_t n = 1 + (size_t)level * (size_t)j->indent;
  j->st = pqt_buf_reserve(j->b, n, j->err);
  if (j->st) return;
  j->b->data[j->b->len] = '\n';
  memset(j->b->data + j->b->len + 1, ' ', n - 1);
  j->b->len += n;
}

static void js_struct(json_ctx *j, const pqt_thrift_desc *d, const uint8_t *in, int level);

static void js_value(json_ctx *j, int kind, const pqt_thrift_field *f, const uint8_t *v, int level) {
  if (j->st) return;
  switch (kind) {
    case PQT_TK_BOOL: js_str(j, *(const bool *)v ? "true" : "false"); break;
    case PQT_TK_I8: j->st = pqt_buf_printf(j->b, j->err, "%d", (int)*(const int8_t *)v); break;
    case PQT_TK_I16: j->st = pqt_buf_printf(j->b, j->err, "%d", (int)*(const int16_t *)v); break;
    case PQT_TK_I32: j->st = pqt_buf_printf(j->b, j->err, "%" PRId32, *(const int32_t *)v); break;
    case PQT_TK_I64: j->st = pqt_buf_printf(j->b, j->err, "%" PRId64, *(const int64_t *)v); break;
    case PQT_TK_ENUM: {
      int32_t e = *(const int32_t *)v;
      const char *name = pqt_thrift_enum_name(f->en, e);
      if (name) j->st = pqt_buf_printf(j->b, j->err, "\"%s\"", name);
      else j->st = pqt_buf_printf(j->b, j->err, "%" PRId32, e);
      break;
    }
    case PQT_TK_DOUBLE: {
      double x;
      memcpy(&x, v, sizeof x);
      if (isnan(x)) js_str(j, "\"NaN\"");
      else if (isinf(x)) js_str(j, x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
      else {
        /* the shortest of %.15g/%.16g/%.17g that reads back exactly */
        char tmp[40];
        for (int prec = 15; prec <= 17; prec++) {
          snprintf(tmp, sizeof tmp, "%.*g", prec, x);
          if (strtod(tmp, NULL) == x) break;
        }
        js_str(j, tmp);
      }
      break;
    }
    case PQT_TK_BINARY: {
      const pqt_bytes *b = (const pqt_bytes *)v;
      js_raw(j, "\"", 1);
      if (!j->st && b->len > 0) j->st = pqt_base64_append(j->b, b->ptr, (size_t)b->len, j->err);
      js_raw(j, "\"", 1);
      break;
    }
    case PQT_TK_STRING: {
      const pqt_bytes *b = (const pqt_bytes *)v;
      j->st = pqt_json_string_append(j->b, b->len > 0 ? b->ptr : (const uint8_t *)"", b->len > 0 ? (size_t)b->len : 0,
                                     j->err);
      break;
    }
    case PQT_TK_STRUCT: js_struct(j, f->sub, v, level); break;
    default: break;
  }
}

static void js_struct(json_ctx *j, const pqt_thrift_desc *d, const uint8_t *in, int level) {
  uint32_t isset = (in && d->size) ? load_isset(in) : 0;
  js_raw(j, "{", 1);
  bool first = true;
  for (uint16_t i = 0; i < d->n_fields && !j->st; i++) {
    const pqt_thrift_field *f = &d->fields[i];
    if (!((isset >> f->id) & 1u)) continue;
    if (!first) js_raw(j, ",", 1);
    first = false;
    js_newline(j, level + 1);
    if (!j->st) j->st = pqt_buf_printf(j->b, j->err, "\"%s\":", f->name);
    if (j->indent) js_raw(j, " ", 1);
    const uint8_t *v = f->offset >= 0 && in ? in + f->offset : NULL;
    if (!v && f->kind != PQT_TK_STRUCT) {
      /* only an empty-struct member has no storage (PQT_TF_NO_STORAGE) */
      if (!j->st)
        j->st = pqt_error_set(j->err, PQT_EINVAL, "thrift JSON: descriptor %s.%s has no storage", d->name, f->name);
      break;
    }
    if (f->kind == PQT_TK_LIST) {
      const pqt_list_any *l = (const pqt_list_any *)v;
      js_raw(j, "[", 1);
      size_t esz = kind_size(f->elem, f->sub);
      for (int32_t k = 0; k < l->n && !j->st; k++) {
        if (k) js_raw(j, ",", 1);
        js_newline(j, level + 2);
        const uint8_t *e = (const uint8_t *)l->items + (size_t)k * esz;
        js_value(j, f->elem, f, (f->elem == PQT_TK_STRUCT && !f->sub->size) ? NULL : e, level + 2);
      }
      if (l->n > 0) js_newline(j, level + 1);
      js_raw(j, "]", 1);
    } else {
      js_value(j, f->kind, f, v, level + 1);
    }
  }
  if (!first) js_newline(j, level);
  js_raw(j, "}", 1);
}

pqt_status pqt_thrift_to_json(const pqt_thrift_desc *d, const void *in, int indent, pqt_buf *out, pqt_error *err) {
  if (!d || !out || (!in && d->size) || indent < 0)
    return pqt_error_set(err, PQT_EINVAL, "pqt_thrift_to_json: bad arguments");
  json_ctx j = {out, indent, PQT_OK, err};
  size_t start = out->len;
  js_struct(&j, d, in, 0);
  if (j.st) out->len = start;
  return j.st;
}
