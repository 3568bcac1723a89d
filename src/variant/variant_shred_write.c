/*
 * variant/variant_shred_write: a Variant value split into a shredded
 * VARIANT group's columns (parquet-format VariantShredding.md): a value
 * that is of typed_value's type goes there and value is null; an object
 * beside an object typed_value puts each shredded field in its field group
 * (both null when missing) and the other fields, if any, as an object in
 * value (never a field in both); an array beside a LIST typed_value puts
 * every element in the element group (a null element as Variant null in
 * value); anything else goes whole into value with typed_value null.
 */
#include "variant/variant_shred_write.h"

#include <stdlib.h>
#include <string.h>

#include "variant/variant.h"

static const pqt_schema_node *child_named(const pqt_schema_node *x, const char *name) {
  for (int32_t i = 0; i < x->n_children; i++)
    if (strcmp(x->children[i]->name, name) == 0) return x->children[i];
  return NULL;
}

static int lt_of(const pqt_schema_node *x) { return x->logical.isset ? pqt_union_which(x->logical.isset) : -1; }

static int name_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c) return c;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

static int node_cmp(const void *pa, const void *pb) {
  const pqt_schema_node *a = *(const pqt_schema_node *const *)pa, *b = *(const pqt_schema_node *const *)pb;
  return name_cmp((const uint8_t *)a->name, a->name_len, (const uint8_t *)b->name, b->name_len);
}

static int32_t subtree_size(const pqt_schema_node *x) {
  int32_t n = 1;
  for (int32_t i = 0; i < x->n_children; i++) n += subtree_size(x->children[i]);
  return n;
}

static pqt_status bad_shape(const pqt_schema_node *x, const char *what, pqt_error *err) {
  return pqt_error_set(err, PQT_EINVAL, "%s: shredded VARIANT layout: %s", x->name, what);
}

/* p: a group holding value and/or typed_value (the VARIANT group, a field
 * group, a list element group). */
static pqt_status check_pair(pqt_vshred *s, const pqt_schema_node *p, bool top, pqt_error *err) {
  const pqt_schema_node *v = child_named(p, "value"), *t = child_named(p, "typed_value");
  int32_t expect = (v != NULL) + (t != NULL) + (top ? 1 : 0);
  if (!v && !t) return bad_shape(p, "neither value nor typed_value", err);
  if (p->n_children != expect) return bad_shape(p, "unexpected fields", err);
  if (v && (!v->is_leaf || v->physical_type != PQT_BYTE_ARRAY || v->repetition != PQT_OPTIONAL))
    return bad_shape(p, "value must be an optional binary", err);
  if (!t) return PQT_OK;
  if (t->repetition != PQT_OPTIONAL) return bad_shape(p, "typed_value must be optional", err);
  if (t->is_leaf) return PQT_OK;
  if (lt_of(t) == PQT_LT_LIST) {
    const pqt_schema_node *r = t->n_children == 1 ? t->children[0] : NULL;
    const pqt_schema_node *e = r && r->n_children == 1 ? r->children[0] : NULL;
    if (!r || r->repetition != PQT_REPEATED || !e || e->is_leaf || e->repetition != PQT_REQUIRED)
      return bad_shape(t, "a LIST typed_value needs repeated list / required group element", err);
    return check_pair(s, e, false, err);
  }
  if (t->n_children < 1) return bad_shape(t, "an object typed_value without fields", err);
  const pqt_schema_node **sorted = pqt_mem_alloc(s->alloc, (size_t)t->n_children * sizeof *sorted);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!sorted) return pqt_nomem(err);
  memcpy(sorted, t->children, (size_t)t->n_children * sizeof *sorted);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  qsort(sorted, (size_t)t->n_children, sizeof *sorted, node_cmp);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  s->sorted[t->index - s->group->index] = sorted;
  s->sorted_n[t->index - s->group->index] = t->n_children;
  for (int32_t i = 0; i < t->n_children; i++) {
    if (i > 0 && node_cmp(&sorted[i - 1], &sorted[i]) == 0) return bad_shape(t, "a field name twice", err);
    const pqt_schema_node *f = sorted[i];
    if (f->is_leaf || f->repetition != PQT_REQUIRED)
      return bad_shape(f, "a shredded field must be a required group", err);
    PQT_RETURN_NOT_OK(check_pair(s, f, false, err));
  }
  return PQT_OK;
}

pqt_status pqt_vshred_init(pqt_vshred *s, const pqt_schema_node *group, const pqt_allocator *alloc, pqt_error *err) {
  memset(s, 0, sizeof *s);
  s->group = group;
  s->alloc = alloc;
  s->first_leaf = group->first_leaf;
  s->n_leaves = group->n_leaves;
  pqt_buf_init(&s->scratch, alloc);
  const pqt_schema_node *m = child_named(group, "metadata");
  if (!m || !m->is_leaf || m->physical_type != PQT_BYTE_ARRAY || m->repetition != PQT_REQUIRED)
    return bad_shape(group, "metadata must be a required binary", err);
  s->n_sub = subtree_size(group);
  s->sorted = pqt_mem_calloc(alloc, (size_t)s->n_sub * sizeof *s->sorted);
  s->sorted_n = pqt_mem_calloc(alloc, (size_t)s->n_sub * sizeof *s->sorted_n);
  s->cols = pqt_mem_calloc(alloc, (size_t)s->n_leaves * sizeof *s->cols);
  if (!s->sorted || !s->sorted_n || !s->cols) return pqt_nomem(err);
  for (int32_t i = 0; i < s->n_leaves; i++) {
    pqt_vshred_col *c = &s->cols[i];
    pqt_buf_init(&c->def, alloc);
    pqt_buf_init(&c->rep, alloc);
    pqt_buf_init(&c->vals, alloc);
    pqt_buf_init(&c->offs, alloc);
  }
  pqt_vshred_clear(s);
  return check_pair(s, group, true, err);
}

void pqt_vshred_free(pqt_vshred *s) {
  if (s->cols)
    for (int32_t i = 0; i < s->n_leaves; i++) {
      pqt_buf_free(&s->cols[i].def);
      pqt_buf_free(&s->cols[i].rep);
      pqt_buf_free(&s->cols[i].vals);
      pqt_buf_free(&s->cols[i].offs);
    }
  if (s->sorted && s->sorted_n)
    for (int32_t i = 0; i < s->n_sub; i++)
      if (s->sorted[i]) pqt_mem_free(s->alloc, (void *)s->sorted[i], (size_t)s->sorted_n[i] * sizeof *s->sorted[i]);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  pqt_mem_free(s->alloc, s->sorted, (size_t)s->n_sub * sizeof *s->sorted);
  pqt_mem_free(s->alloc, s->sorted_n, (size_t)s->n_sub * sizeof *s->sorted_n);
  pqt_mem_free(s->alloc, s->cols, (size_t)s->n_leaves * sizeof *s->cols);
  pqt_buf_free(&s->scratch);
  memset(s, 0, sizeof *s);
}

void pqt_vshred_clear(pqt_vshred *s) {
  static const int32_t zero = 0;
  for (int32_t i = 0; i < s->n_leaves; i++) {
    pqt_vshred_col *c = &s->cols[i];
    pqt_buf_clear(&c->def);
    pqt_buf_clear(&c->rep);
    pqt_buf_clear(&c->vals);
    pqt_buf_clear(&c->offs);
    pqt_buf_append(&c->offs, &zero, sizeof zero, NULL);
    c->n_levels = c->n_values = 0;
  }
}

/* ---- emitting levels and values ------------------------------------------ */

static pqt_vshred_col *col_of(pqt_vshred *s, const pqt_schema_node *leaf) {
  return &s->cols[leaf->column_index - s->first_leaf];
}

static void level(pqt_vshred *s, const pqt_schema_node *leaf, int16_t def, int16_t rep) {
  pqt_vshred_col *c = col_of(s, leaf);
  if (leaf->max_def > 0) pqt_buf_append(&c->def, &def, sizeof def, NULL);
  if (leaf->max_rep > 0) pqt_buf_append(&c->rep, &rep, sizeof rep, NULL);
  c->n_levels++;
}

/* every leaf under x: a level saying x (and what is below) is absent */
static void emit_null(pqt_vshred *s, const pqt_schema_node *x, int16_t def, int16_t rep) {
  if (!x) return;
  if (x->is_leaf) {
    level(s, x, def, rep);
    return;
  }
  for (int32_t i = 0; i < x->n_children; i++) emit_null(s, x->children[i], def, rep);
}

static pqt_status push_value(pqt_vshred *s, const pqt_schema_node *leaf, int16_t rep, const void *p, size_t n,
                             pqt_error *err) {
  pqt_vshred_col *c = col_of(s, leaf);
  level(s, leaf, leaf->max_def, rep);
  pqt_buf_append(&c->vals, p, n, NULL);
  if (leaf->physical_type == PQT_BYTE_ARRAY) {
    if (c->vals.len > (size_t)INT32_MAX)
      return pqt_error_set(err, PQT_EUNSUPPORTED, "%s: more than 2 GiB of values in one batch", leaf->dotted_path);
    int32_t end = (int32_t)c->vals.len;
    pqt_buf_append(&c->offs, &end, sizeof end, NULL);
  }
  c->n_values++;
  return PQT_OK;
}

/* ---- typed values ------------------------------------------------------------ */

static bool int_fits(const pqt_schema_node *t, pqt_variant_kind k) {
  int rank = k == PQT_VARIANT_INT8 ? 8 : k == PQT_VARIANT_INT16 ? 16 : k == PQT_VARIANT_INT32 ? 32 : 64;
  int width;
  if (lt_of(t) == PQT_LT_INTEGER) width = t->logical.integer.bit_width;
  else width = t->physical_type == PQT_INT32 ? 32 : 64;
  return rank <= width;
}

static __int128 dec_value(const pqt_variant_scalar *sc) {
  unsigned __int128 u = 0;
  for (int i = 15; i >= 0; i--) u = (u << 8) | sc->u.decimal.unscaled_le[i];
  return (__int128)u;
}

static bool dec_fits(__int128 v, int32_t precision) {
  __int128 lim = 1;
  for (int32_t i = 0; i < precision && i < 38; i++) lim *= 10;
  return v < lim && v > -lim;
}

/* The value's bytes for typed_value t (fixed or pointed to), or false when
 * it is not of t's type. */
static bool typed_fit(const pqt_schema_node *t, const pqt_variant_scalar *sc, uint8_t *fixed, const uint8_t **bp,
                      size_t *bn) {
  pqt_variant_kind k = sc->type;
  int lt = lt_of(t);
  *bp = fixed;
  switch (t->physical_type) {
    case PQT_BOOLEAN:
      if (k != PQT_VARIANT_TRUE && k != PQT_VARIANT_FALSE) return false;
      fixed[0] = k == PQT_VARIANT_TRUE;
      *bn = 1;
      return true;
    case PQT_FLOAT:
      if (k != PQT_VARIANT_FLOAT) return false;
      memcpy(fixed, &sc->u.f32, 4);
      *bn = 4;
      return true;
    case PQT_DOUBLE:
      if (k != PQT_VARIANT_DOUBLE) return false;
      memcpy(fixed, &sc->u.f64, 8);
      *bn = 8;
      return true;
    case PQT_INT32:
    case PQT_INT64: {
      int64_t v;
      bool ok;
      if (lt == PQT_LT_DATE) {
        ok = k == PQT_VARIANT_DATE;
        v = sc->u.i64;
      } else if (lt == PQT_LT_TIME) {
        ok = k == PQT_VARIANT_TIME_NTZ_MICROS;
        v = sc->u.i64;
      } else if (lt == PQT_LT_TIMESTAMP) {
        bool utc = t->logical.timestamp.is_adjusted_to_utc;
        bool nanos = pqt_union_which(t->logical.timestamp.unit.isset) == PQT_TIME_UNIT_NANOS;
        pqt_variant_kind want = nanos ? (utc ? PQT_VARIANT_TIMESTAMP_NANOS : PQT_VARIANT_TIMESTAMP_NTZ_NANOS)
                                      : (utc ? PQT_VARIANT_TIMESTAMP_MICROS : PQT_VARIANT_TIMESTAMP_NTZ_MICROS);
        ok = k == want;
        v = sc->u.i64;
      } else if (lt == PQT_LT_DECIMAL) {
        ok = (k == PQT_VARIANT_DECIMAL4 || k == PQT_VARIANT_DECIMAL8 || k == PQT_VARIANT_DECIMAL16) &&
             sc->u.decimal.scale == t->logical.decimal.scale;
        __int128 d = ok ? dec_value(sc) : 0;
        ok = ok && dec_fits(d, t->logical.decimal.precision);
        v = (int64_t)d;
      } else {
        ok = (k == PQT_VARIANT_INT8 || k == PQT_VARIANT_INT16 || k == PQT_VARIANT_INT32 || k == PQT_VARIANT_INT64) &&
             int_fits(t, k);
        v = sc->u.i64;
      }
      if (!ok) return false;
      if (t->physical_type == PQT_INT32) {
        int32_t v32 = (int32_t)v;
        memcpy(fixed, &v32, 4);
        *bn = 4;
      } else {
        memcpy(fixed, &v, 8);
        *bn = 8;
      }
      return true;
    }
    case PQT_BYTE_ARRAY:
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (lt == PQT_LT_DECIMAL) {
        if ((k != PQT_VARIANT_DECIMAL4 && k != PQT_VARIANT_DECIMAL8 && k != PQT_VARIANT_DECIMAL16) ||
            sc->u.decimal.scale != t->logical.decimal.scale || !dec_fits(dec_value(sc), t->logical.decimal.precision))
          return false;
        uint8_t be[16];
        for (int i = 0; i < 16; i++) be[i] = sc->u.decimal.unscaled_le[15 - i];
        size_t w = 16;
        if (t->physical_type == PQT_FIXED_LEN_BYTE_ARRAY) {
          if (t->type_length < 1 || t->type_length > 16) return false;
          w = (size_t)t->type_length;
        } else {
          /* the fewest bytes that keep the sign */
          while (w > 1 && ((be[16 - w] == 0 && !(be[17 - w] & 0x80)) || (be[16 - w] == 0xff && (be[17 - w] & 0x80))))
            w--;
        }
        memcpy(fixed, be + 16 - w, w);
        *bn = w;
        return true;
      }
      if (lt == PQT_LT_UUID) {
        if (k != PQT_VARIANT_UUID) return false;
        memcpy(fixed, sc->u.uuid, 16);
        *bn = 16;
        return true;
      }
      if (t->physical_type != PQT_BYTE_ARRAY) return false;
      if (!(lt == PQT_LT_STRING ? k == PQT_VARIANT_STRING : (lt < 0 && k == PQT_VARIANT_BINARY))) return false;
      *bp = sc->u.bytes.data;
      *bn = sc->u.bytes.len;
      return true;
    default: return false;
  }
}

/* ---- shredding ----------------------------------------------------------------- */

static unsigned width_for(uint64_t max) { return max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4; }

static void put_le(uint8_t *p, uint64_t v, unsigned w) {
  for (unsigned i = 0; i < w; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* An object of fields `keep` (indices into c, in c's order) of the object c. */
static pqt_status residual_object(pqt_vshred *s, const pqt_vcont *c, const uint32_t *keep, uint32_t n, pqt_error *err) {
  uint32_t max_id = 0;
  uint64_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t id = pqt_vcont_field_id(c, keep[i]);
    if (id > max_id) max_id = id;
    const uint8_t *p;
    size_t len;
    PQT_RETURN_NOT_OK(pqt_vcont_child(c, keep[i], &p, &len, err));
    total += len;
  }
  if (total > 0xffffffffu) return pqt_error_set(err, PQT_EUNSUPPORTED, "Variant object over 4 GiB");
  unsigned idw = width_for(max_id), offw = width_for(total);
  bool large = n > 0xff;
  uint8_t hdr = (uint8_t)((((offw - 1u) | ((idw - 1u) << 2) | ((large ? 1u : 0u) << 4)) << 2) | 2u);
  pqt_buf *b = &s->scratch;
  pqt_buf_clear(b);
  pqt_buf_append(b, &hdr, 1, NULL);
  uint8_t tmp[4];
  put_le(tmp, n, large ? 4 : 1);
  pqt_buf_append(b, tmp, large ? 4 : 1, NULL);
  for (uint32_t i = 0; i < n; i++) {
    put_le(tmp, pqt_vcont_field_id(c, keep[i]), idw);
    pqt_buf_append(b, tmp, idw, NULL);
  }
  uint64_t off = 0;
  for (uint32_t i = 0; i <= n; i++) {
    put_le(tmp, off, offw);
    pqt_buf_append(b, tmp, offw, NULL);
    if (i < n) {
      const uint8_t *p;
      size_t len;
      PQT_RETURN_NOT_OK(pqt_vcont_child(c, keep[i], &p, &len, err));
      off += len;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *p;
    size_t len;
    PQT_RETURN_NOT_OK(pqt_vcont_child(c, keep[i], &p, &len, err));
    pqt_buf_append(b, p, len, NULL);
  }
  return pqt_buf_status(b, err);
}

static pqt_status shred(pqt_vshred *s, const pqt_schema_node *p, const pqt_variant *v, int16_t rep, pqt_error *err);

static pqt_status shred_object(pqt_vshred *s, const pqt_schema_node *p, const pqt_schema_node *t,
                               const pqt_schema_node *vcol, const pqt_variant *v, int16_t rep, pqt_error *err) {
  pqt_vcont c;
  pqt_vmeta m;
  PQT_RETURN_NOT_OK(pqt_vcont_open(v->value, v->value_len, &c, err));
  PQT_RETURN_NOT_OK(pqt_vmeta_parse(v->metadata, v->metadata_len, &m, err));
  const pqt_schema_node **sorted = s->sorted[t->index - s->group->index];
  int32_t nt = t->n_children;
  if (!sorted) return bad_shape(t, "object typed_value not prepared", err);
  uint32_t *keep = NULL;
  if (c.n > 0) {
    keep = pqt_mem_alloc(s->alloc, (size_t)c.n * sizeof *keep);
    if (!keep) return pqt_nomem(err);
  }
  uint32_t n_keep = 0, i = 0;
  int32_t j = 0;
  pqt_status st = PQT_OK;
  while (st == PQT_OK && (i < c.n || j < nt)) {
    int cmp;
    const uint8_t *key = NULL;
    size_t key_len = 0;
    if (i < c.n) {
      st = pqt_vmeta_key(&m, pqt_vcont_field_id(&c, i), &key, &key_len, err);
      if (st != PQT_OK) break;
    }
    if (i >= c.n) cmp = 1;
    else if (j >= nt) cmp = -1;
    else cmp = name_cmp(key, key_len, (const uint8_t *)sorted[j]->name, sorted[j]->name_len);
    if (cmp < 0) {
      keep[n_keep++] = i++; /* not shredded: stays in value */
    } else if (cmp > 0) {
      emit_null(s, sorted[j++], t->max_def, rep); /* missing */
    } else {
      const uint8_t *fp;
      size_t fn;
      st = pqt_vcont_child(&c, i, &fp, &fn, err);
      if (st == PQT_OK) {
        pqt_variant f = {v->metadata, v->metadata_len, fp, fn};
        st = shred(s, sorted[j], &f, rep, err);
      }
      i++;
      j++;
    }
  }
  if (st == PQT_OK) {
    if (n_keep == 0) {
      emit_null(s, vcol, p->max_def, rep);
    } else if (!vcol) {
      st = pqt_error_set(err, PQT_EINVAL, "%s: object fields that are not shredded and no value column", p->name);
    } else {
      st = residual_object(s, &c, keep, n_keep, err);
      if (st == PQT_OK) st = push_value(s, vcol, rep, s->scratch.data, s->scratch.len, err);
    }
  }
  pqt_mem_free(s->alloc, keep, (size_t)c.n * sizeof *keep);
  return st;
}

static pqt_status shred(pqt_vshred *s, const pqt_schema_node *p, const pqt_variant *v, int16_t rep, pqt_error *err) {
  const pqt_schema_node *vcol = child_named(p, "value"), *t = child_named(p, "typed_value");
  pqt_variant_kind k;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(v, &k, err));
  if (t) {
    if (t->is_leaf) {
      if (k != PQT_VARIANT_OBJECT && k != PQT_VARIANT_ARRAY) {
        pqt_variant_scalar sc;
        PQT_RETURN_NOT_OK(pqt_variant_get_scalar(v, &sc, err));
        uint8_t fixed[16];
        const uint8_t *bp;
        size_t bn;
        if (typed_fit(t, &sc, fixed, &bp, &bn)) {
          emit_null(s, vcol, p->max_def, rep);
          return push_value(s, t, rep, bp, bn, err);
        }
      }
    } else if (lt_of(t) == PQT_LT_LIST) {
      if (k == PQT_VARIANT_ARRAY) {
        const pqt_schema_node *r = t->children[0], *e = r->children[0];
        int64_t n;
        PQT_RETURN_NOT_OK(pqt_variant_num_elements(v, &n, err));
        emit_null(s, vcol, p->max_def, rep);
        if (n == 0) {
          emit_null(s, r, t->max_def, rep);
          return PQT_OK;
        }
        for (int64_t i = 0; i < n; i++) {
          pqt_variant el;
          PQT_RETURN_NOT_OK(pqt_variant_array_element(v, i, &el, err));
          PQT_RETURN_NOT_OK(shred(s, e, &el, i ? r->max_rep : rep, err));
        }
        return PQT_OK;
      }
    } else if (k == PQT_VARIANT_OBJECT) {
      return shred_object(s, p, t, vcol, v, rep, err);
    }
    emit_null(s, t, p->max_def, rep);
  }
  if (!vcol)
    return pqt_error_set(err, PQT_EINVAL, "%s: a value that is not of typed_value's type and no value column", p->name);
  return push_value(s, vcol, rep, v->value, v->value_len, err);
}

pqt_status pqt_vshred_write_value(pqt_vshred *s, const pqt_variant *v, int16_t rep, pqt_error *err) {
  const pqt_schema_node *g = s->group;
  if (rep < 0 || rep > g->max_rep)
    return pqt_error_set(err, PQT_EINVAL, "%s: repetition level %d for a value", g->name, rep);
  if (!v) {
    if (g->repetition != PQT_OPTIONAL) return pqt_error_set(err, PQT_EINVAL, "%s: null in a required column", g->name);
    emit_null(s, g, (int16_t)(g->max_def - 1), rep);
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(push_value(s, child_named(g, "metadata"), rep, v->metadata, v->metadata_len, err));
  return shred(s, g, v, rep, err);
}

pqt_status pqt_vshred_write_row(pqt_vshred *s, const pqt_variant *v, pqt_error *err) {
  return pqt_vshred_write_value(s, v, 0, err);
}

pqt_status pqt_vshred_write_absent_at(pqt_vshred *s, int16_t def, int16_t rep, pqt_error *err) {
  const pqt_schema_node *g = s->group;
  if (def < 0 || def >= g->max_def || rep < 0 || rep > g->max_rep)
    return pqt_error_set(err, PQT_EINVAL, "%s: definition level %d, repetition level %d for an absent value", g->name,
                         def, rep);
  emit_null(s, g, def, rep);
  return PQT_OK;
}

pqt_status pqt_vshred_write_absent(pqt_vshred *s, int16_t def, pqt_error *err) {
  return pqt_vshred_write_absent_at(s, def, 0, err);
}

pqt_status pqt_vshred_status(const pqt_vshred *s, pqt_error *err) {
  for (int32_t i = 0; i < s->n_leaves; i++) {
    const pqt_vshred_col *c = &s->cols[i];
    PQT_RETURN_NOT_OK(pqt_buf_status(&c->def, err));
    PQT_RETURN_NOT_OK(pqt_buf_status(&c->rep, err));
    PQT_RETURN_NOT_OK(pqt_buf_status(&c->vals, err));
    PQT_RETURN_NOT_OK(pqt_buf_status(&c->offs, err));
  }
  return PQT_OK;
}
