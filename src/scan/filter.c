/*
 * scan/filter.c: evaluating a bound predicate over a decoded batch, and
 * keeping the selected rows.
 *
 * Evaluation is three-valued and vectorised over the batch: every node
 * yields two byte masks, true and false (unknown is neither), combined as
 * AND: t = t1 & t2, f = f1 | f2; OR: t = t1 | t2, f = f1 & f2; NOT swaps
 * them. A comparison is true or false on a valid slot and unknown on a
 * null one. The batch's rows are those where the root is true. Masks are
 * allocated per node and batch (never per value).
 *
 * Selection copies the kept slots of every array of the batch's trees
 * (leaves in the Parquet layout: fixed-width, BOOLEAN bitmaps, BYTE_ARRAY
 * offsets + bytes; structs slot by slot; lists and maps by the ranges of
 * their kept slots). A batch where every row is kept is left as it is.
 */
#include <math.h>

#include "scan/filter.h"

/* ---- values --------------------------------------------------------------------- */

static __int128 be_int(const uint8_t *p, size_t n) {
  if (n == 0) return 0;
  bool neg = p[0] & 0x80;
  size_t skip = 0;
  /* drop sign-extension bytes beyond 16 */
  while (n - skip > 16 && p[skip] == (neg ? 0xFF : 0x00)) skip++;
  if (n - skip > 16 || (n - skip == 16 && ((p[skip] & 0x80) != 0) != neg)) {
    /* beyond 128 bits: saturate */
    const __int128 max = (__int128)(((unsigned __int128)1 << 127) - 1);
    return neg ? -max - 1 : max;
  }
  unsigned __int128 u = neg ? ~(unsigned __int128)0 : 0;
  for (size_t i = skip; i < n; i++) u = (u << 8) | p[i];
  return (__int128)u;
}

__int128 pqt_vx_int(pqt_vx vx, const uint8_t *p, size_t n) {
  switch (vx) {
    case PQT_VX_I32: return (int32_t)pqt_load_u32le(p);
    case PQT_VX_U32: return pqt_load_u32le(p);
    case PQT_VX_I64: return (int64_t)pqt_load_u64le(p);
    case PQT_VX_U64: return pqt_load_u64le(p);
    case PQT_VX_INT96: return pqt_int96_to_nanos(p);
    case PQT_VX_DEC_FLBA:
    case PQT_VX_DEC_BA: return be_int(p, n);
    case PQT_VX_BOOL: return n ? p[0] != 0 : 0;
    default: return 0;
  }
}

double pqt_vx_float(pqt_vx vx, const uint8_t *p) {
  if (vx == PQT_VX_FLOAT) {
    float f;
    uint32_t u = pqt_load_u32le(p);
    memcpy(&f, &u, 4);
    return f;
  }
  if (vx == PQT_VX_HALF) return pqt_float16_to_double(pqt_load_u16le(p));
  double d;
  uint64_t u = pqt_load_u64le(p);
  memcpy(&d, &u, 8);
  return d;
}

int pqt_dom_cmp_int(__int128 a, __int128 b) { return (a > b) - (a < b); }

/* NaN equals NaN and is above everything else; -0 == +0. */
int pqt_dom_cmp_float(double a, double b) {
  bool na = isnan(a), nb = isnan(b);
  if (na || nb) return na - nb;
  return (a > b) - (a < b);
}

int pqt_dom_cmp_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t m = an < bn ? an : bn;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c < 0 ? -1 : 1;
  return (an > bn) - (an < bn);
}

/* SQL LIKE: % any run, _ one byte; no escape. Linear backtracking on the last %. */
bool pqt_like_match(const uint8_t *p, size_t pn, const uint8_t *s, size_t sn) {
  size_t i = 0, j = 0, star = (size_t)-1, mark = 0;
  while (j < sn) {
    if (i < pn && p[i] == '%') {
      star = i++;
      mark = j;
    } else if (i < pn && (p[i] == '_' || p[i] == s[j])) {
      i++;
      j++;
    } else if (star != (size_t)-1) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < pn && p[i] == '%') i++;
  return i == pn;
}

/* ---- leaf predicates ----------------------------------------------------------- */

/* Slot i of leaf a: bytes for byte-wise domains. */
static inline void slot_bytes(const pqt_array *a, const pqt_bound *b, int64_t i, const uint8_t **p, size_t *n) {
  if (b->vx == PQT_VX_BA || b->vx == PQT_VX_DEC_BA) {
    const int32_t *o = (const int32_t *)(const void *)a->offsets->data;
    *p = a->values->data + o[i];
    *n = (size_t)(o[i + 1] - o[i]);
  } else {
    *p = a->values->data + (size_t)i * b->width;
    *n = b->width;
  }
}

size_t pqt_vx_width(pqt_vx vx, size_t flba_width) {
  switch (vx) {
    case PQT_VX_BOOL: return 1;
    case PQT_VX_I32:
    case PQT_VX_U32:
    case PQT_VX_FLOAT: return 4;
    case PQT_VX_I64:
    case PQT_VX_U64:
    case PQT_VX_DOUBLE: return 8;
    case PQT_VX_INT96: return 12;
    case PQT_VX_HALF: return 2;
    case PQT_VX_DEC_FLBA: return flba_width;
    default: return 0;
  }
}

/* Does slot i (valid) satisfy leaf predicate b? */
static inline bool slot_holds(const pqt_bound *b, const pqt_array *a, int64_t i) {
  if (b->kind == PQT_B_CMP && (b->op == PQT_OP_ALWAYS || b->op == PQT_OP_NEVER)) return b->op == PQT_OP_ALWAYS;
  int32_t nl = b->kind == PQT_B_IN ? b->n_lits : 1;
  int op = b->kind == PQT_B_IN ? PQT_CMP_EQ : b->op;
  if (b->kind == PQT_B_LIKE) {
    const uint8_t *p;
    size_t n;
    slot_bytes(a, b, i, &p, &n);
    return pqt_like_match(b->pat, b->pat_len, p, n);
  }
  switch (b->dom) {
    case PQT_DOM_INT: {
      __int128 v;
      if (b->vx == PQT_VX_BOOL) {
        v = pqt_bit_get(a->values->data, i);
      } else if (b->vx == PQT_VX_DEC_BA || b->vx == PQT_VX_DEC_FLBA) {
        const uint8_t *p;
        size_t n;
        slot_bytes(a, b, i, &p, &n);
        v = pqt_vx_int(b->vx, p, n);
      } else {
        size_t w = pqt_vx_width(b->vx, b->width);
        v = pqt_vx_int(b->vx, a->values->data + (size_t)i * w, w);
      }
      for (int32_t k = 0; k < nl; k++)
        if (pqt_cmp_holds(op, pqt_dom_cmp_int(v, b->lits[k].i))) return true;
      return false;
    }
    case PQT_DOM_FLOAT: {
      size_t w = pqt_vx_width(b->vx, b->width);
      double v = pqt_vx_float(b->vx, a->values->data + (size_t)i * w);
      for (int32_t k = 0; k < nl; k++)
        if (pqt_cmp_holds(op, pqt_dom_cmp_float(v, b->lits[k].d))) return true;
      return false;
    }
    case PQT_DOM_BYTES: {
      const uint8_t *p;
      size_t n;
      slot_bytes(a, b, i, &p, &n);
      for (int32_t k = 0; k < nl; k++)
        if (pqt_cmp_holds(op, pqt_dom_cmp_bytes(p, n, b->lits[k].b, b->lits[k].n))) return true;
      return false;
    }
  }
  return false;
}

/* Typed fast paths for the common comparisons (one literal). */
#define FAST_LOOP(T, LOAD)                  \
  do {                                      \
    const uint8_t *base = a->values->data;  \
    for (int64_t i = 0; i < n; i++) {       \
      T v = LOAD;                           \
      bool h;                               \
      switch (op) {                         \
        case PQT_CMP_EQ: h = v == L; break; \
        case PQT_CMP_NE: h = v != L; break; \
        case PQT_CMP_LT: h = v < L; break;  \
        case PQT_CMP_LE: h = v <= L; break; \
        case PQT_CMP_GT: h = v > L; break;  \
        default: h = v >= L; break;         \
      }                                     \
      t[i] = h;                             \
    }                                       \
  } while (0)

static bool fast_cmp(const pqt_bound *b, const pqt_array *a, int64_t n, uint8_t *t) {
  if (b->kind != PQT_B_CMP || b->op > PQT_CMP_GE) return false;
  __int128 li = b->lits[0].i;
  int op = b->op;
  if (b->vx == PQT_VX_I32 && li >= INT32_MIN && li <= INT32_MAX) {
    int32_t L = (int32_t)li;
    FAST_LOOP(int32_t, (int32_t)pqt_load_u32le(base + (size_t)i * 4));
    return true;
  }
  if (b->vx == PQT_VX_I64 && li >= INT64_MIN && li <= INT64_MAX) {
    int64_t L = (int64_t)li;
    FAST_LOOP(int64_t, (int64_t)pqt_load_u64le(base + (size_t)i * 8));
    return true;
  }
  if ((b->vx == PQT_VX_DOUBLE || b->vx == PQT_VX_FLOAT) && !isnan(b->lits[0].d)) {
    /* IEEE comparisons, with > and >= written as !(<=) and !(<) so that NaN
     * (above every number here) satisfies them; -0 == +0 as wanted */
    double L = b->lits[0].d;
    const uint8_t *base = a->values->data;
    bool dbl = b->vx == PQT_VX_DOUBLE;
    for (int64_t i = 0; i < n; i++) {
      double v =
          dbl ? pqt_vx_float(PQT_VX_DOUBLE, base + (size_t)i * 8) : pqt_vx_float(PQT_VX_FLOAT, base + (size_t)i * 4);
      bool h;
      switch (op) {
        case PQT_CMP_EQ: h = v == L; break;
        case PQT_CMP_NE: h = !(v == L); break;
        case PQT_CMP_LT: h = v < L; break;
        case PQT_CMP_LE: h = v <= L; break;
        case PQT_CMP_GT: h = !(v <= L); break;
        default: h = !(v < L); break;
      }
      t[i] = h;
    }
    return true;
  }
  return false;
}

/* The array of node x in the batch, or NULL when it is not there. */
static const pqt_array *find_array(const pqt_row_group_data *d, const pqt_schema_node *x) {
  const pqt_schema_node *chain[PQT_SCHEMA_MAX_DEPTH + 2];
  int k = 0;
  for (const pqt_schema_node *y = x; y && y->parent && k < PQT_SCHEMA_MAX_DEPTH + 1; y = y->parent) chain[k++] = y;
  if (k == 0) return NULL;
  const pqt_array *a = NULL;
  for (int32_t i = 0; i < d->n_fields; i++)
    if (d->fields[i]->node == chain[k - 1]) a = d->fields[i];
  for (int j = k - 2; a && j >= 0; j--) {
    const pqt_array *next = NULL;
    for (int32_t i = 0; i < a->n_children; i++)
      if (a->children[i]->node == chain[j]) next = a->children[i];
    a = next;
  }
  return a;
}

static pqt_status eval_leafpred(const pqt_bound *b, const pqt_array *a, int64_t n, uint8_t *t, uint8_t *f) {
  if (b->kind == PQT_B_ISNULL) {
    for (int64_t i = 0; i < n; i++) {
      bool valid = pqt_array_is_valid(a, i);
      t[i] = valid == b->negate;
      f[i] = !t[i];
    }
    return PQT_OK;
  }
  if (fast_cmp(b, a, n, t)) {
    for (int64_t i = 0; i < n; i++) {
      bool valid = pqt_array_is_valid(a, i);
      f[i] = valid & !t[i];
      t[i] &= valid;
    }
    return PQT_OK;
  }
  for (int64_t i = 0; i < n; i++) {
    if (!pqt_array_is_valid(a, i)) {
      t[i] = f[i] = 0;
      continue;
    }
    t[i] = slot_holds(b, a, i);
    f[i] = !t[i];
  }
  return PQT_OK;
}

typedef struct eval_ctx {
  const pqt_allocator *alloc;
  const pqt_row_group_data *d;
  int64_t n;
  pqt_error *err;
} eval_ctx;

static pqt_status eval_node(eval_ctx *c, const pqt_bound *b, uint8_t *t, uint8_t *f, int depth) {
  int64_t n = c->n;
  if (depth > 20000) return pqt_error_set(c->err, PQT_ELIMIT, "filter nested too deeply");
  switch (b->kind) {
    case PQT_B_CONST:
      memset(t, b->cval, (size_t)n);
      memset(f, !b->cval, (size_t)n);
      return PQT_OK;
    case PQT_B_NOT: return eval_node(c, b->a, f, t, depth + 1);
    case PQT_B_AND:
    case PQT_B_OR: {
      PQT_RETURN_NOT_OK(eval_node(c, b->a, t, f, depth + 1));
      size_t sz = (size_t)n * 2;
      uint8_t *m = pqt_mem_alloc(c->alloc, sz ? sz : 1);
      if (!m) return pqt_nomem(c->err);
      pqt_status st = eval_node(c, b->b, m, m + n, depth + 1);
      if (st == PQT_OK) {
        const uint8_t *t2 = m, *f2 = m + n;
        if (b->kind == PQT_B_AND)
          for (int64_t i = 0; i < n; i++) {
            t[i] &= t2[i];
            f[i] |= f2[i];
          }
        else
          for (int64_t i = 0; i < n; i++) {
            t[i] |= t2[i];
            f[i] &= f2[i];
          }
      }
      pqt_mem_free(c->alloc, m, sz ? sz : 1);
      return st;
    }
    default: {
      const pqt_array *a = find_array(c->d, b->node);
      if (b->vpath && a && a->length == n) { /* variant_get: its values as a leaf, then as any leaf */
        pqt_array *va;
        PQT_RETURN_NOT_OK(pqt_vget_materialise(b, a, c->alloc, &va, c->err));
        pqt_status st = eval_leafpred(b, va, n, t, f);
        pqt_array_free(c->alloc, va);
        return st;
      }
      if (!a || a->length != n ||
          (b->kind != PQT_B_ISNULL && (!a->values || ((b->vx == PQT_VX_BA || b->vx == PQT_VX_DEC_BA) && !a->offsets))))
        return pqt_error_set(c->err, PQT_EINVAL, "filter: column %s is not in the batch",
                             b->node->dotted_path ? b->node->dotted_path : b->node->name);
      if (b->kind == PQT_B_GEO) return pqt_geo_eval(b, a, n, t, f, c->err);
      return eval_leafpred(b, a, n, t, f);
    }
  }
}

pqt_status pqt_filter_eval(const pqt_filter *f, const pqt_row_group_data *d, uint8_t *sel, int64_t *n_true,
                           pqt_error *err) {
  int64_t n = d->num_rows;
  *n_true = 0;
  if (n <= 0) return PQT_OK;
  uint8_t *fm = pqt_mem_alloc(f->alloc, (size_t)n);
  if (!fm) return pqt_nomem(err);
  eval_ctx c = {f->alloc, d, n, err};
  pqt_status st = eval_node(&c, f->root, sel, fm, 0);
  pqt_mem_free(f->alloc, fm, (size_t)n);
  if (st != PQT_OK) return st;
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) k += sel[i];
  *n_true = k;
  return PQT_OK;
}

pqt_status pqt_filter_eval_leaf(const pqt_bound *b, const pqt_array *leaf, bool *any, const pqt_allocator *alloc,
                                pqt_error *err) {
  *any = false;
  int64_t n = leaf->length;
  if (n <= 0) return PQT_OK;
  uint8_t *m = pqt_mem_alloc(alloc, (size_t)n * 2);
  if (!m) return pqt_nomem(err);
  pqt_status st = eval_leafpred(b, leaf, n, m, m + n);
  for (int64_t i = 0; st == PQT_OK && i < n && !*any; i++) *any = m[i] != 0;
  pqt_mem_free(alloc, m, (size_t)n * 2);
  return st;
}

/* ---- selection ------------------------------------------------------------------ */

static pqt_status select_array(const pqt_allocator *alloc, const pqt_array *in, const uint8_t *sel, int64_t n_sel,
                               pqt_array **out, pqt_error *err);

static pqt_status select_validity(const pqt_allocator *alloc, const pqt_array *in, const uint8_t *sel, int64_t n_sel,
                                  pqt_array *o, pqt_error *err) {
  o->null_count = 0;
  if (!in->validity || in->null_count == 0) return PQT_OK;
  pqt_shared_buf *bits;
  PQT_RETURN_NOT_OK(pqt_shared_alloc(alloc, (size_t)(n_sel + 7) / 8 + 1, &bits, err));
  int64_t j = 0, nulls = 0;
  for (int64_t i = 0; i < in->length; i++) {
    if (!sel[i]) continue;
    if (pqt_bit_get(in->validity->data, i)) pqt_bit_set(bits->data, j);
    else nulls++;
    j++;
  }
  if (nulls == 0) {
    pqt_shared_unref(bits);
    return PQT_OK;
  }
  o->validity = bits;
  o->null_count = nulls;
  return PQT_OK;
}

static pqt_status select_leaf(const pqt_allocator *alloc, const pqt_array *in, const uint8_t *sel, int64_t n_sel,
                              pqt_array *o, pqt_error *err) {
  const pqt_schema_node *x = in->node;
  int32_t t = x->physical_type;
  if (t == PQT_BOOLEAN) {
    PQT_RETURN_NOT_OK(pqt_shared_alloc(alloc, (size_t)(n_sel + 7) / 8 + 1, &o->values, err));
    int64_t j = 0;
    for (int64_t i = 0; i < in->length; i++)
      if (sel[i]) {
        if (in->values && pqt_bit_get(in->values->data, i)) pqt_bit_set(o->values->data, j);
        j++;
      }
    return PQT_OK;
  }
  if (t == PQT_BYTE_ARRAY) {
    if (!in->offsets) return pqt_error_set(err, PQT_EINVAL, "filter: byte array without offsets");
    const int32_t *off = (const int32_t *)(const void *)in->offsets->data;
    size_t total = 0;
    for (int64_t i = 0; i < in->length; i++)
      if (sel[i]) total += (size_t)(off[i + 1] - off[i]);
    if (total > INT32_MAX) return pqt_error_set(err, PQT_ELIMIT, "filter: selected strings exceed 2 GiB");
    PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)(n_sel + 1) * sizeof(int32_t), &o->offsets, err));
    PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, total ? total : 1, &o->values, err));
    int32_t *no = (int32_t *)(void *)o->offsets->data;
    uint8_t *dst = o->values->data;
    const uint8_t *src = in->values ? in->values->data : NULL;
    int64_t j = 0;
    int32_t pos = 0;
    no[0] = 0;
    for (int64_t i = 0; i < in->length; i++) {
      if (!sel[i]) continue;
      int32_t len = off[i + 1] - off[i];
      if (len) memcpy(dst + pos, src + off[i], (size_t)len);  // NOLINT(clang-analyzer-core.NonNullParamChecker): a nonzero length has a values buffer
      pos += len;
      no[++j] = pos;
    }
    o->values->len = total;
    return PQT_OK;
  }
  size_t w = pqt_physical_width(t, x->type_length);
  if (!in->values) return pqt_shared_alloc(alloc, (size_t)n_sel * w + 1, &o->values, err); /* no values: zeros */
  PQT_RETURN_NOT_OK(pqt_shared_alloc_raw(alloc, (size_t)(n_sel + 1) * w + 1, &o->values, err)); /* + a slot: below */
  uint8_t *dst = o->values->data;
  const uint8_t *src = in->values->data;
  int64_t j = 0;
  /* 4 and 8 bytes: every value is stored at the next slot, which advances
   * only past a kept one (no branch to mispredict; the slot after the last
   * kept value is allocated for it) */
  if (w == 4 && n_sel < in->length) {
    for (int64_t i = 0; i < in->length; i++) {
      memcpy(dst + (size_t)j * 4, src + (size_t)i * 4, 4);
      j += sel[i] != 0;
    }
  } else if (w == 8 && n_sel < in->length) {
    for (int64_t i = 0; i < in->length; i++) {
      memcpy(dst + (size_t)j * 8, src + (size_t)i * 8, 8);
      j += sel[i] != 0;
    }
  } else if (w == 4) {
    for (int64_t i = 0; i < in->length; i++)
      if (sel[i]) memcpy(dst + (size_t)(j++) * 4, src + (size_t)i * 4, 4);
  } else if (w == 8) {
    for (int64_t i = 0; i < in->length; i++)
      if (sel[i]) memcpy(dst + (size_t)(j++) * 8, src + (size_t)i * 8, 8);
  } else {
    for (int64_t i = 0; i < in->length; i++)
      if (sel[i]) memcpy(dst + (size_t)(j++) * w, src + (size_t)i * w, w);
  }
  o->values->len = (size_t)n_sel * w;
  return PQT_OK;
}

static pqt_status select_list(const pqt_allocator *alloc, const pqt_array *in, const uint8_t *sel, int64_t n_sel,
                              pqt_array *o, pqt_error *err) {
  if (!in->offsets || in->n_children != 1 || !in->children[0])
    return pqt_error_set(err, PQT_EINVAL, "filter: list without offsets or element");
  const int32_t *off = (const int32_t *)(const void *)in->offsets->data;
  const pqt_array *child = in->children[0];
  int64_t cn = child->length;
  uint8_t *csel = pqt_mem_calloc(alloc, (size_t)(cn ? cn : 1));
  if (!csel) return pqt_nomem(err);
  pqt_status st = pqt_shared_alloc_raw(alloc, (size_t)(n_sel + 1) * sizeof(int32_t), &o->offsets, err);
  int64_t ck = 0;
  if (st == PQT_OK) {
    int32_t *no = (int32_t *)(void *)o->offsets->data;
    int64_t j = 0;
    no[0] = 0;
    for (int64_t i = 0; i < in->length && st == PQT_OK; i++) {
      if (!sel[i]) continue;
      int32_t a = off[i], b = off[i + 1];
      if (a < 0 || b < a || b > cn) {
        st = pqt_error_set(err, PQT_ECORRUPT, "filter: list offsets out of range");
        break;
      }
      for (int32_t k = a; k < b; k++) csel[k] = 1;
      ck += b - a;
      no[j + 1] = (int32_t)(no[j] + (b - a));
      j++;
    }
  }
  if (st == PQT_OK) st = select_array(alloc, child, csel, ck, &o->children[0], err);
  pqt_mem_free(alloc, csel, (size_t)(cn ? cn : 1));
  return st;
}

static pqt_status select_array(const pqt_allocator *alloc, const pqt_array *in, const uint8_t *sel, int64_t n_sel,
                               pqt_array **out, pqt_error *err) {
  pqt_array *o;
  PQT_RETURN_NOT_OK(pqt_array_new(alloc, in->kind, in->n_children, &o, err));
  o->node = in->node;
  o->name = in->name;
  o->nullable = in->nullable;
  o->length = n_sel;
  pqt_status st = select_validity(alloc, in, sel, n_sel, o, err);
  if (st == PQT_OK) {
    switch (in->kind) {
      case PQT_ARRAY_LEAF: st = select_leaf(alloc, in, sel, n_sel, o, err); break;
      case PQT_ARRAY_STRUCT:
        for (int32_t k = 0; k < in->n_children && st == PQT_OK; k++)
          st = select_array(alloc, in->children[k], sel, n_sel, &o->children[k], err);
        break;
      case PQT_ARRAY_LIST:
      case PQT_ARRAY_MAP: st = select_list(alloc, in, sel, n_sel, o, err); break;
    }
  }
  if (st != PQT_OK) {
    pqt_array_free(alloc, o);
    return st;
  }
  *out = o;
  return PQT_OK;
}

pqt_status pqt_batch_select(const pqt_allocator *alloc, pqt_row_group_data *d, const uint8_t *sel, int64_t n_sel,
                            pqt_error *err) {
  if (n_sel == d->num_rows) return PQT_OK;
  for (int32_t k = 0; k < d->n_fields; k++) {
    pqt_array *o;
    PQT_RETURN_NOT_OK(select_array(alloc, d->fields[k], sel, n_sel, &o, err));
    pqt_array_free(alloc, d->fields[k]);
    d->fields[k] = o;
  }
  d->num_rows = n_sel;
  return PQT_OK;
}

/* ---- projection ------------------------------------------------------------------- */

static bool projected(const pqt_schema_node *x, const uint8_t *user_sel) {
  for (int32_t i = x->first_leaf; i < x->first_leaf + x->n_leaves; i++)
    if (user_sel[i]) return true;
  return false;
}

static pqt_status project_array(const pqt_allocator *alloc, pqt_array *a, const uint8_t *user_sel, pqt_error *err) {
  if (a->kind == PQT_ARRAY_STRUCT) {
    int32_t k = 0;
    for (int32_t i = 0; i < a->n_children; i++) k += projected(a->children[i]->node, user_sel);
    if (k < a->n_children && k > 0) {
      pqt_array **kids = pqt_mem_calloc(alloc, sizeof(pqt_array *) * (size_t)k);
      if (!kids) return pqt_nomem(err);
      {
        int32_t j = 0;
        for (int32_t i = 0; i < a->n_children; i++) {
          if (projected(a->children[i]->node, user_sel)) kids[j++] = a->children[i];
          else pqt_array_free(alloc, a->children[i]);
        }
        pqt_mem_free(alloc, a->children, sizeof(pqt_array *) * (size_t)a->n_children);
        a->children = kids;
        a->n_children = k;
      }
    }
  }
  for (int32_t i = 0; i < a->n_children; i++)
    if (a->children[i]) PQT_RETURN_NOT_OK(project_array(alloc, a->children[i], user_sel, err));
  return PQT_OK;
}

pqt_status pqt_batch_project(const pqt_allocator *alloc, pqt_row_group_data *d, const uint8_t *user_sel,
                             pqt_error *err) {
  int32_t k = 0;
  for (int32_t i = 0; i < d->n_fields; i++) {
    pqt_array *f = d->fields[i];
    if (!projected(f->node, user_sel)) {
      pqt_array_free(alloc, f);
      continue;
    }
    d->fields[k++] = f;
  }
  for (int32_t i = k; i < d->n_fields; i++) d->fields[i] = NULL;
  d->n_fields = k;
  for (int32_t i = 0; i < d->n_fields; i++) PQT_RETURN_NOT_OK(project_array(alloc, d->fields[i], user_sel, err));
  return PQT_OK;
}
