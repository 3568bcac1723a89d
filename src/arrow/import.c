/*
 * arrow/import: Arrow arrays -> levels + dense physical values for one leaf
 * (parquet-format README.md "Nested Encoding", parquet-format LogicalTypes.md logical types). See import.h.
 */
#include "arrow/import.h"

#include <stdlib.h>

#include "levels/levels.h"
#include "arrow/format.h"
#include "arrow/format_name.h"
#include "meta/value_format.h"

pqt_status pqt_import_fmt_copy(pqt_arena *arena, const struct ArrowSchema *s, pqt_import_fmt *out, pqt_error *err) {
  if (!s || !s->format) return pqt_error_set(err, PQT_EINVAL, "ArrowSchema without format");
  if (s->dictionary) return pqt_error_set(err, PQT_EUNSUPPORTED, "dictionary-encoded Arrow arrays are not supported");
  out->format = pqt_arena_strdup(arena, s->format, strlen(s->format));
  out->n_children = (int32_t)s->n_children;
  out->children = NULL;
  out->name = pqt_arena_strdup(arena, s->name ? s->name : "", s->name ? strlen(s->name) : 0);
  if (!out->format || !out->name) return pqt_nomem(err);
  pqt_arrow_format af;
  pqt_arrow_format_parse(out->format, &af);
  out->kind = af.kind;
  if (s->n_children < 0 || s->n_children > INT32_MAX) return pqt_error_set(err, PQT_EINVAL, "bad n_children");
  if (s->n_children) {
    out->children = pqt_arena_array(arena, (size_t)s->n_children, sizeof *out->children);
    if (!out->children) return pqt_nomem(err);
    for (int64_t i = 0; i < s->n_children; i++)
      PQT_RETURN_NOT_OK(pqt_import_fmt_copy(arena, s->children[i], &out->children[i], err));
  }
  return PQT_OK;
}

void pqt_import_scratch_init(pqt_import_scratch *sc, const pqt_allocator *alloc) {
  memset(sc, 0, sizeof *sc);
  pqt_buf_init(&sc->def, alloc);
  pqt_buf_init(&sc->rep, alloc);
  pqt_buf_init(&sc->idx, alloc);
  pqt_buf_init(&sc->vals, alloc);
  pqt_buf_init(&sc->offs, alloc);
  pqt_buf_init(&sc->zeros, alloc);
}

void pqt_import_scratch_free(pqt_import_scratch *sc) {
  pqt_buf_free(&sc->def);
  pqt_buf_free(&sc->rep);
  pqt_buf_free(&sc->idx);
  pqt_buf_free(&sc->vals);
  pqt_buf_free(&sc->offs);
  pqt_buf_free(&sc->zeros);
}

static pqt_status buf_size(pqt_buf *b, size_t n, pqt_error *err) {
  pqt_buf_clear(b);
  PQT_RETURN_NOT_OK(pqt_buf_reserve(b, n ? n : 1, err));
  b->len = n;
  return PQT_OK;
}

/* ---- the walk: schema path -> shred nodes ---------------------------------- */

typedef struct walk {
  pqt_shred_node nodes[PQT_LEVELS_MAX_NODES];
  int32_t n;
  const struct ArrowArray *leaf;
  const pqt_import_fmt *leaf_fmt;
  pqt_import_scratch *sc;
} walk;

static bool fmt_is(const pqt_import_fmt *f, pqt_arrow_kind k) { return f->kind == k; }

static pqt_status check_array(const struct ArrowArray *a, int64_t nbuf, int64_t nch, const char *what, pqt_error *err) {
  if (!a || !a->release) return pqt_error_set(err, PQT_EINVAL, "%s: released or missing array", what);
  if (a->n_buffers < nbuf)
    return pqt_error_set(err, PQT_EINVAL, "%s: %lld buffers, need %lld", what, (long long)a->n_buffers,
                         (long long)nbuf);
  if (a->n_children < nch)
    return pqt_error_set(err, PQT_EINVAL, "%s: %lld children, need %lld", what, (long long)a->n_children,
                         (long long)nch);
  if (a->length < 0 || a->offset < 0) return pqt_error_set(err, PQT_EINVAL, "%s: negative length/offset", what);
  return PQT_OK;
}

static const uint8_t *validity_of(const struct ArrowArray *a) {
  return a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
}

static pqt_status push(walk *w, pqt_shred_node nd, pqt_error *err) {
  if (w->n >= PQT_LEVELS_MAX_NODES) return pqt_error_set(err, PQT_EUNSUPPORTED, "nesting too deep");
  w->nodes[w->n++] = nd;
  return PQT_OK;
}

static pqt_status walk_node(walk *w, const pqt_schema_node *x, int32_t leaf, const struct ArrowArray *a,
                            const pqt_import_fmt *f, bool as_content, pqt_error *err);

static pqt_status push_list(walk *w, const struct ArrowArray *a, const pqt_import_fmt *f, bool nullable,
                            pqt_error *err) {
  bool large = fmt_is(f, PQT_AK_LARGE_LIST);
  if (!large && !fmt_is(f, PQT_AK_LIST) && !fmt_is(f, PQT_AK_MAP))
    return pqt_error_set(err, PQT_EINVAL, "expected a list or map array, not %s",
                         pqt_arrow_format_name(f->format, (char[64]){0}, 64));
  if (f->n_children < 1) return pqt_error_set(err, PQT_EINVAL, "list schema without child");
  PQT_RETURN_NOT_OK(check_array(a, 2, 1, "list", err));
  pqt_shred_node nd = {PQT_LEVEL_LIST, nullable, validity_of(a), NULL, NULL, a->offset, a->length};
  if (large) nd.offsets64 = a->buffers[1];
  else nd.offsets32 = a->buffers[1];
  if (!a->buffers[1] && a->length > 0) return pqt_error_set(err, PQT_EINVAL, "list without offsets");
  if (!a->buffers[1]) {
    static const int32_t zero = 0;
    nd.offsets32 = &zero;
    nd.offsets64 = NULL;
  }
  return push(w, nd, err);
}

static pqt_status walk_content(walk *w, const pqt_schema_node *x, int32_t leaf, const struct ArrowArray *a,
                               const pqt_import_fmt *f, bool nullable, pqt_error *err) {
  if (x->is_leaf) {
    PQT_RETURN_NOT_OK(check_array(a, 0, 0, "leaf", err));
    const uint8_t *valid = fmt_is(f, PQT_AK_NULL) ? NULL : (a->n_buffers > 0 ? validity_of(a) : NULL);
    if (fmt_is(f, PQT_AK_NULL) && a->length > 0) {
      /* Arrow null arrays carry no bitmap: every slot is null. */
      pqt_buf *z = &w->sc->zeros;
      size_t nb = (size_t)((a->offset + a->length + 7) / 8);
      PQT_RETURN_NOT_OK(buf_size(z, nb, err));
      memset(z->data, 0, nb);
      valid = z->data;
    }
    w->leaf = a;
    w->leaf_fmt = f;
    return push(w, (pqt_shred_node){PQT_LEVEL_LEAF, nullable, valid, NULL, NULL, a->offset, a->length}, err);
  }
  switch (x->kind) {
    case PQT_NODE_STRUCT: {
      if (!fmt_is(f, PQT_AK_STRUCT))
        return pqt_error_set(err, PQT_EINVAL, "%s: expected a struct array, not %s", x->name,
                             pqt_arrow_format_name(f->format, (char[64]){0}, 64));
      PQT_RETURN_NOT_OK(check_array(a, 1, x->n_children, x->name, err));
      PQT_RETURN_NOT_OK(
          push(w, (pqt_shred_node){PQT_LEVEL_STRUCT, nullable, validity_of(a), NULL, NULL, a->offset, a->length}, err));
      for (int32_t i = 0; i < x->n_children; i++) {
        const pqt_schema_node *c = x->children[i];
        if (leaf >= c->first_leaf && leaf < c->first_leaf + c->n_leaves) {
          if (i >= f->n_children)
            return pqt_error_set(err, PQT_EINVAL, "%s: struct schema has too few children", x->name);
          return walk_node(w, c, leaf, a->children[i], &f->children[i], false, err);
        }
      }
      return pqt_error_set(err, PQT_EINVAL, "leaf %d not under %s", leaf, x->name);
    }
    case PQT_NODE_LIST: {
      PQT_RETURN_NOT_OK(push_list(w, a, f, nullable, err));
      const pqt_schema_node *r = x->repeated;
      if (!x->element || x->element == r) return walk_node(w, r, leaf, a->children[0], &f->children[0], true, err);
      return walk_node(w, x->element, leaf, a->children[0], &f->children[0], false, err);
    }
    case PQT_NODE_MAP: {
      PQT_RETURN_NOT_OK(push_list(w, a, f, nullable, err));
      return walk_node(w, x->repeated, leaf, a->children[0], &f->children[0], true, err);
    }
    default: return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: node kind not writable", x->name);
  }
}

static pqt_status walk_node(walk *w, const pqt_schema_node *x, int32_t leaf, const struct ArrowArray *a,
                            const pqt_import_fmt *f, bool as_content, pqt_error *err) {
  if (as_content) {
    /* x is a repeated node standing for its own (required) element. A
     * repeated group annotated LIST/MAP reads as that list/map. */
    if (!x->is_leaf && x->kind == PQT_NODE_STRUCT) return walk_content(w, x, leaf, a, f, false, err);
    return walk_content(w, x, leaf, a, f, false, err);
  }
  if (x->repetition == PQT_REPEATED) {
    PQT_RETURN_NOT_OK(push_list(w, a, f, false, err));
    return walk_node(w, x, leaf, a->children[0], &f->children[0], true, err);
  }
  return walk_content(w, x, leaf, a, f, x->repetition == PQT_OPTIONAL, err);
}

/* ---- value conversion ---------------------------------------------------- */

static int unit_pow(char u) { return u == 'n' ? 9 : pqt_arrow_unit_pow10(u); }

static char target_unit(const pqt_schema_node *x) {
  int l = pqt_union_which(x->logical.isset);
  const pqt_time_unit *tu = l == PQT_LT_TIMESTAMP ? &x->logical.timestamp.unit
                            : l == PQT_LT_TIME    ? &x->logical.time.unit
                                                  : NULL;
  if (!tu) {
    int ct = x->converted_type;
    if (ct == PQT_CT_TIME_MILLIS || ct == PQT_CT_TIMESTAMP_MILLIS) return 'm';
    if (ct == PQT_CT_TIME_MICROS || ct == PQT_CT_TIMESTAMP_MICROS) return 'u';
    return 0;
  }
  int w = pqt_union_which(tu->isset);
  return w == PQT_TIME_UNIT_MILLIS ? 'm' : w == PQT_TIME_UNIT_MICROS ? 'u' : 'n';
}

/* Source unit of an Arrow time or timestamp ("tss:", "ttm", ...), 0 if none. */
static char source_unit(const pqt_arrow_format *af) {
  return (af->kind == PQT_AK_TIMESTAMP || af->kind == PQT_AK_TIME) ? af->unit : 0;
}

/* false when v does not fit int64 in the finer unit (never wrapped) */
static bool scale_units_ok(int64_t v, int from, int to, int64_t *out) {
  while (from < to) {
    if (__builtin_mul_overflow(v, 10, &v)) return false;
    from++;
  }
  while (from > to) {
    int64_t q = v / 10;
    if ((v % 10) < 0) q--;
    v = q;
    from--;
  }
  *out = v;
  return true;
}

/* INT96 bytes of v in unit 10^-from seconds: exact (INT96 days reach far
 * beyond int64 nanoseconds). */
static void int96_from_units(int64_t v, int from, uint8_t *out) {
  __int128 ns = v;
  for (int f = from; f < 9; f++) ns *= 10;
  const __int128 day_ns = (__int128)86400 * 1000000000;
  __int128 day = ns / day_ns, rem = ns % day_ns;
  if (rem < 0) {
    rem += day_ns;
    day--;
  }
  pqt_store_u64le(out, (uint64_t)rem);
  pqt_store_u32le(out + 8, (uint32_t)(int32_t)(day + 2440588));
}

#define IDX(k) (idx ? idx[k] : p0 + (int64_t)(k))

/* The Arrow integer at s, bit_width 8, 16, 32 or else 64 bits wide, in the platform's byte order (Arrow
 * buffers are native), widened to int64 by its sign. */
static inline int64_t arrow_int_at(const uint8_t *s, int bit_width, bool is_signed) {
  switch (bit_width) {
    case 8: return is_signed ? (int64_t)(int8_t)s[0] : (int64_t)s[0];
    case 16: {
      uint16_t q;
      memcpy(&q, s, 2);
      return is_signed ? (int64_t)(int16_t)q : (int64_t)q;
    }
    case 32: {
      uint32_t q;
      memcpy(&q, s, 4);
      return is_signed ? (int64_t)(int32_t)q : (int64_t)q;
    }
    default: {
      int64_t q;
      memcpy(&q, s, 8);
      return q;
    }
  }
}

static pqt_status convert_values(const pqt_schema_node *x, const struct ArrowArray *a, const char *f,
                                 const int64_t *idx, int64_t p0, int64_t nv, pqt_import_scratch *sc,
                                 pqt_leaf_batch *out, pqt_error *err) {
  int32_t t = x->physical_type;
  out->n_values = nv;
  out->values = NULL;
  out->offsets = NULL;
  if (nv == 0) {
    static const int32_t zero_off[1] = {0};
    out->offsets = zero_off;
    out->values = (const uint8_t *)"";
    return PQT_OK;
  }
  pqt_arrow_format af;
  pqt_arrow_format_parse(f, &af);
  if (af.kind == PQT_AK_NULL) return pqt_error_set(err, PQT_EINVAL, "%s: null array with values", x->name);
  const uint8_t *buf1 = a->n_buffers > 1 ? a->buffers[1] : NULL;
  if (!buf1) return pqt_error_set(err, PQT_EINVAL, "%s: values buffer missing", x->name);
  bool is_dec = af.kind == PQT_AK_DECIMAL;
  int dec_w = 16;
  if (is_dec) {
    dec_w = (int)(af.bit_width / 8);
    if (dec_w != 16 && dec_w != 32)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: decimal width %d", x->name, dec_w * 8);
  }
  switch (t) {
    case PQT_BOOLEAN: {
      if (af.kind != PQT_AK_BOOL) goto mismatch;
      PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv, err));
      for (int64_t k = 0; k < nv; k++) {
        int64_t p = IDX(k);
        sc->vals.data[k] = (buf1[p >> 3] >> (p & 7)) & 1;
      }
      out->values = sc->vals.data;
      return PQT_OK;
    }
    case PQT_INT32:
    case PQT_FLOAT:
    case PQT_INT64:
    case PQT_DOUBLE: {
      size_t w = (t == PQT_INT32 || t == PQT_FLOAT) ? 4 : 8;
      char su = source_unit(&af), tu = target_unit(x);
      bool same = false;
      size_t sw = 0;
      if (t == PQT_FLOAT) {
        if (af.kind != PQT_AK_FLOAT || af.bit_width != 32) goto mismatch;
        same = true;
        sw = 4;
      } else if (t == PQT_DOUBLE) {
        if (af.kind != PQT_AK_FLOAT || af.bit_width != 64) goto mismatch;
        same = true;
        sw = 8;
      } else if (is_dec) sw = (size_t)dec_w;
      else if (af.kind == PQT_AK_DATE && af.unit == 'D') {
        if (t != PQT_INT32) goto mismatch;
        same = true;
        sw = 4;
      } else if (af.kind == PQT_AK_DATE) sw = 8;
      else if (su) {
        sw = (size_t)af.bit_width / 8;
        same = (sw == w) && (!tu || tu == su);
      } else {
        if (af.kind != PQT_AK_INT) goto mismatch;
        sw = (size_t)af.bit_width / 8;
        same = sw == w;
      }
      if (same && !idx) {
        out->values = buf1 + (size_t)p0 * w;
        return PQT_OK;
      }
      PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * w, err));
      uint8_t *o = sc->vals.data;
      if (same) {
        if (w == 4)
          for (int64_t k = 0; k < nv; k++) memcpy(o + 4 * k, buf1 + 4 * IDX(k), 4);
        else
          for (int64_t k = 0; k < nv; k++) memcpy(o + 8 * k, buf1 + 8 * IDX(k), 8);
        out->values = o;
        return PQT_OK;
      }
      for (int64_t k = 0; k < nv; k++) {
        int64_t p = IDX(k), v;
        const uint8_t *s = buf1 + (size_t)p * sw;
        if (is_dec) v = (int64_t)pqt_load_u64le(s);
        else if (af.kind == PQT_AK_DATE) {
          int64_t ms;
          memcpy(&ms, s, 8);
          v = ms / 86400000; /* date64: milliseconds to days, floored on the next line */
          if (ms < 0 && ms % 86400000) v--;
        } else if (su) {
          v = arrow_int_at(s, (int)sw * 8, true);
          if (tu && !scale_units_ok(v, unit_pow(su), unit_pow(tu), &v))
            return pqt_error_set(err, PQT_ERANGE, "%s: time value %lld (value %lld of the batch) does not fit int64 in the column's unit",
                                 x->name, (long long)v, (long long)k);
        } else v = arrow_int_at(s, af.bit_width, af.is_signed);
        if (w == 4) {
          int32_t q = (int32_t)v;
          memcpy(o + 4 * k, &q, 4);
        } else memcpy(o + 8 * k, &v, 8);
      }
      out->values = o;
      return PQT_OK;
    }
    case PQT_INT96: {
      if (af.kind == PQT_AK_FIXED_BINARY && af.fixed_width == 12) { /* the stored 12 bytes */
        PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * 12, err));
        for (int64_t k = 0; k < nv; k++) memcpy(sc->vals.data + 12 * k, buf1 + 12 * IDX(k), 12);
        out->values = sc->vals.data;
        return PQT_OK;
      }
      if (af.kind != PQT_AK_TIMESTAMP) goto mismatch;
      char su = af.unit;
      PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * 12, err));
      for (int64_t k = 0; k < nv; k++) {
        int64_t v;
        memcpy(&v, buf1 + 8 * IDX(k), 8);
        int96_from_units(v, unit_pow(su), sc->vals.data + 12 * k);
      }
      out->values = sc->vals.data;
      return PQT_OK;
    }
    case PQT_FIXED_LEN_BYTE_ARRAY: {
      size_t w = (size_t)x->type_length;
      if (is_dec) {
        PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * w, err));
        for (int64_t k = 0; k < nv; k++) {
          const uint8_t *s = buf1 + (size_t)IDX(k) * (size_t)dec_w;
          uint8_t *o = sc->vals.data + (size_t)k * w;
          for (size_t i = 0; i < w; i++) {
            size_t src = w - 1 - i; /* byte i of big endian = LE byte w-1-i */
            o[i] = src < (size_t)dec_w ? s[src] : ((s[dec_w - 1] & 0x80) ? 0xFF : 0);
          }
        }
        out->values = sc->vals.data;
        return PQT_OK;
      }
      size_t sw = 0;
      if (af.kind == PQT_AK_FLOAT && af.bit_width == 16) sw = 2;
      else if (af.kind == PQT_AK_FIXED_BINARY) sw = (size_t)af.fixed_width;
      if (sw != w) goto mismatch;
      if (!idx) {
        out->values = buf1 + (size_t)p0 * w;
        return PQT_OK;
      }
      PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * w, err));
      for (int64_t k = 0; k < nv; k++) memcpy(sc->vals.data + (size_t)k * w, buf1 + (size_t)IDX(k) * w, w);
      out->values = sc->vals.data;
      return PQT_OK;
    }
    case PQT_BYTE_ARRAY: {
      PQT_RETURN_NOT_OK(buf_size(&sc->offs, (size_t)(nv + 1) * 4, err));
      int32_t *o = (int32_t *)(void *)sc->offs.data;
      if (is_dec) {
        PQT_RETURN_NOT_OK(buf_size(&sc->vals, (size_t)nv * (size_t)dec_w, err));
        size_t pos = 0;
        o[0] = 0;
        for (int64_t k = 0; k < nv; k++) {
          const uint8_t *s = buf1 + (size_t)IDX(k) * (size_t)dec_w;
          uint8_t fill = (s[dec_w - 1] & 0x80) ? 0xFF : 0;
          int n = dec_w;
          while (n > 1 && s[n - 1] == fill && ((s[n - 2] & 0x80) == (fill & 0x80))) n--;
          for (int i = 0; i < n; i++) sc->vals.data[pos + (size_t)i] = s[n - 1 - i];
          pos += (size_t)n;
          o[k + 1] = (int32_t)pos;
        }
        out->values = sc->vals.data;
        out->offsets = o;
        return PQT_OK;
      }
      bool large = af.kind == PQT_AK_LARGE_UTF8 || af.kind == PQT_AK_LARGE_BINARY;
      if (!(af.kind == PQT_AK_UTF8 || af.kind == PQT_AK_BINARY || large)) goto mismatch;
      const uint8_t *data = a->n_buffers > 2 ? a->buffers[2] : NULL;
      if (!data) data = (const uint8_t *)"";
      if (!large) {
        const int32_t *so = (const int32_t *)(const void *)buf1;
        if (!idx) {
          out->offsets = so + p0;
          out->values = data;
          return PQT_OK;
        }
        /* contiguous when null slots are empty (the usual case): no copy */
        bool contiguous = true;
        for (int64_t k = 0; k < nv; k++) {
          o[k] = so[idx[k]];
          if (k > 0 && so[idx[k - 1] + 1] != o[k]) {
            contiguous = false;
            break;
          }
        }
        if (contiguous) {
          o[nv] = so[idx[nv - 1] + 1];
          out->offsets = o;
          out->values = data;
          return PQT_OK;
        }
        size_t total = 0;
        for (int64_t k = 0; k < nv; k++) total += (size_t)(so[idx[k] + 1] - so[idx[k]]);
        if (total > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "%s: batch data over 2 GiB", x->name);
        PQT_RETURN_NOT_OK(buf_size(&sc->vals, total, err));
        size_t pos = 0;
        o[0] = 0;
        for (int64_t k = 0; k < nv; k++) {
          size_t l = (size_t)(so[idx[k] + 1] - so[idx[k]]);
          memcpy(sc->vals.data + pos, data + so[idx[k]], l);
          pos += l;
          o[k + 1] = (int32_t)pos;
        }
        out->offsets = o;
        out->values = sc->vals.data;
        return PQT_OK;
      }
      const int64_t *so = (const int64_t *)(const void *)buf1;
      size_t total = 0;
      for (int64_t k = 0; k < nv; k++) total += (size_t)(so[IDX(k) + 1] - so[IDX(k)]);
      if (total > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "%s: batch data over 2 GiB", x->name);
      PQT_RETURN_NOT_OK(buf_size(&sc->vals, total, err));
      size_t pos = 0;
      o[0] = 0;
      for (int64_t k = 0; k < nv; k++) {
        int64_t p = IDX(k);
        size_t l = (size_t)(so[p + 1] - so[p]);
        memcpy(sc->vals.data + pos, data + so[p], l);
        pos += l;
        o[k + 1] = (int32_t)pos;
      }
      out->offsets = o;
      out->values = sc->vals.data;
      return PQT_OK;
    }
    default: break;
  }
mismatch:
  return pqt_error_set(err, PQT_EINVAL, "%s: Arrow type %s does not fit physical type %s", x->name,
                       pqt_arrow_format_name(f, (char[64]){0}, 64), pqt_physical_type_name(t));
}

pqt_status pqt_import_leaf(const pqt_schema *s, int32_t leaf, const pqt_import_fmt *fmt, const struct ArrowArray *batch,
                           int64_t start, int64_t len, pqt_import_scratch *sc, pqt_leaf_batch *out, pqt_error *err) {
  memset(out, 0, sizeof *out);
  if (leaf < 0 || leaf >= s->n_leaves) return pqt_error_set(err, PQT_EINVAL, "no leaf %d", leaf);
  PQT_RETURN_NOT_OK(check_array(batch, 0, s->root->n_children, "record batch", err));
  if (start < 0 || len < 0 || start + len > batch->length)
    return pqt_error_set(err, PQT_EINVAL, "row range out of the batch");
  if (fmt->n_children < s->root->n_children) return pqt_error_set(err, PQT_EINVAL, "layout has too few fields");
  walk wk; /* about 12 KiB: the path, one node per level */
  walk *w = &wk;
  w->n = 0;
  w->sc = sc;
  w->leaf = NULL;
  pqt_status st = push(w, (pqt_shred_node){PQT_LEVEL_STRUCT, 0, NULL, NULL, NULL, batch->offset, batch->length}, err);
  const pqt_schema_node *root = s->root;
  for (int32_t i = 0; st == PQT_OK && i < root->n_children; i++) {
    const pqt_schema_node *c = root->children[i];
    if (leaf >= c->first_leaf && leaf < c->first_leaf + c->n_leaves) {
      st = walk_node(w, c, leaf, batch->children[i], &fmt->children[i], false, err);
      break;
    }
  }
  if (st != PQT_OK) goto done;
  const pqt_schema_node *x = s->leaves[leaf];
  const struct ArrowArray *la = w->leaf;
  int16_t max_def = x->max_def;
  const int64_t *idx = NULL;
  int64_t p0 = 0, nv = 0;
  if (w->n == 2) {
    /* flat fast path */
    const pqt_shred_node *lf = &w->nodes[1];
    p0 = lf->offset + batch->offset + start;
    if (batch->offset + start + len > lf->length) {
      st = pqt_error_set(err, PQT_EINVAL, "%s: array shorter than the batch", x->name);
      goto done;
    }
    out->n_levels = len;
    if (max_def > 0) {
      if ((st = buf_size(&sc->def, (size_t)len * 2, err)) != PQT_OK) goto done;
      int16_t *d = (int16_t *)(void *)sc->def.data;
      out->def = d;
      if (!lf->validity) {
        for (int64_t i = 0; i < len; i++) d[i] = max_def;
        nv = len;
      } else {
        if ((st = buf_size(&sc->idx, (size_t)len * 8, err)) != PQT_OK) goto done;
        int64_t *ix = (int64_t *)(void *)sc->idx.data;
        for (int64_t i = 0; i < len; i++) {
          int64_t p = p0 + i;
          bool v = (lf->validity[p >> 3] >> (p & 7)) & 1;
          d[i] = v ? max_def : (int16_t)(max_def - 1);
          ix[nv] = p;
          nv += v;
        }
        idx = ix;
      }
    } else {
      if (lf->validity) {
        for (int64_t i = 0; i < len; i++) {
          int64_t p = p0 + i;
          if (!((lf->validity[p >> 3] >> (p & 7)) & 1)) {
            st = pqt_error_set(err, PQT_EINVAL, "%s: null in a required column", x->name);
            goto done;
          }
        }
      }
      nv = len;
    }
  } else {
    pqt_shred_out so;
    memset(&so, 0, sizeof so);
    if ((st = pqt_levels_shred(w->nodes, w->n, start, len, &so, err)) != PQT_OK) goto done;
    int64_t nl = so.n_levels;
    if ((st = buf_size(&sc->def, (size_t)nl * 2, err)) != PQT_OK) goto done;
    if ((st = buf_size(&sc->rep, (size_t)nl * 2, err)) != PQT_OK) goto done;
    if ((st = buf_size(&sc->idx, (size_t)so.n_values * 8, err)) != PQT_OK) goto done;
    so.def = (int16_t *)(void *)sc->def.data;
    so.rep = (int16_t *)(void *)sc->rep.data;
    so.value_idx = (int64_t *)(void *)sc->idx.data;
    so.level_capacity = nl;
    so.value_capacity = so.n_values;
    if ((st = pqt_levels_shred(w->nodes, w->n, start, len, &so, err)) != PQT_OK) goto done;
    if (so.max_def != x->max_def || so.max_rep != x->max_rep) {
      st = pqt_error_set(err, PQT_EINVAL, "%s: levels %d/%d do not match the schema's %d/%d", x->name, so.max_def,
                         so.max_rep, x->max_def, x->max_rep);
      goto done;
    }
    out->n_levels = nl;
    out->def = x->max_def > 0 ? so.def : NULL;
    out->rep = x->max_rep > 0 ? so.rep : NULL;
    nv = so.n_values;
    idx = so.value_idx;
  }
  st = convert_values(x, la, w->leaf_fmt->format, idx, p0, nv, sc, out, err);
done:
  return st;
}
