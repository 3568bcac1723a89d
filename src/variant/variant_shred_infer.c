/*
 * variant/variant_shred_infer: a shredding schema from sample values
 * (parquet-format VariantShredding.md, "Shredded Value Types"): per path
 * the most common type, objects' fields shredded to a chosen depth. The
 * result is the typed_value text of pqt_variant_shredding.
 */
#include <stdlib.h>
#include <string.h>

#include "variant/variant.h"

enum {
  C_BOOL,
  C_INT,
  C_FLOAT,
  C_DOUBLE,
  C_DECIMAL,
  C_DATE,
  C_TIME,
  C_TS_UTC_US,
  C_TS_NTZ_US,
  C_TS_UTC_NS,
  C_TS_NTZ_NS,
  C_BINARY,
  C_STRING,
  C_UUID,
  C_OBJECT,
  C_ARRAY,
  N_CLASSES
};

typedef struct inode inode;
typedef struct ifield {
  char *name;
  size_t len;
  inode *node;
} ifield;

struct inode {
  int64_t count[N_CLASSES];
  int64_t seen; /* present (nulls included) */
  int int_width;
  int64_t dec_scale[39];
  int dec_width[39]; /* 4, 8 or 16 */
  ifield *fields;    /* sorted by name */
  int32_t n_fields, cap_fields;
  inode *elem;
};

typedef struct infer {
  const pqt_allocator *alloc;
  pqt_buf out;
  int32_t depth, max_fields;
} infer;

static void node_free(const pqt_allocator *a, inode *n) {
  if (!n) return;
  for (int32_t i = 0; i < n->n_fields; i++) {
    pqt_mem_free(a, n->fields[i].name, n->fields[i].len + 1);
    node_free(a, n->fields[i].node);
  }
  pqt_mem_free(a, n->fields, (size_t)n->cap_fields * sizeof *n->fields);
  node_free(a, n->elem);
  pqt_mem_free(a, n, sizeof *n);
}

static int name_cmp(const char *a, size_t an, const char *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c) return c;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

static pqt_status field_of(infer *in, inode *n, const char *name, size_t len, inode **out, pqt_error *err) {
  int32_t lo = 0, hi = n->n_fields;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    int c = name_cmp(n->fields[mid].name, n->fields[mid].len, name, len);
    if (c == 0) {
      *out = n->fields[mid].node;
      return PQT_OK;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (n->n_fields == n->cap_fields) {
    int32_t nc = n->cap_fields ? n->cap_fields * 2 : 8;
    ifield *nf = pqt_mem_realloc(in->alloc, n->fields, (size_t)n->cap_fields * sizeof *nf, (size_t)nc * sizeof *nf);
    if (!nf) return pqt_nomem(err);
    n->fields = nf;
    n->cap_fields = nc;
  }
  inode *c = pqt_mem_calloc(in->alloc, sizeof *c);
  char *nm = pqt_mem_alloc(in->alloc, len + 1);
  if (!c || !nm) {
    pqt_mem_free(in->alloc, c, sizeof *c);
    pqt_mem_free(in->alloc, nm, len + 1);
    return pqt_nomem(err);
  }
  memcpy(nm, name, len);
  nm[len] = 0;
  memmove(&n->fields[lo + 1], &n->fields[lo], (size_t)(n->n_fields - lo) * sizeof *n->fields);
  n->fields[lo] = (ifield){nm, len, c};
  n->n_fields++;
  *out = c;
  return PQT_OK;
}

static pqt_status walk(infer *in, inode *n, const pqt_variant *v, int level, pqt_error *err) {
  pqt_variant_kind k;
  PQT_RETURN_NOT_OK(pqt_variant_get_type(v, &k, err));
  n->seen++;
  if (k == PQT_VARIANT_NULL) return PQT_OK;
  if (k == PQT_VARIANT_OBJECT) {
    n->count[C_OBJECT]++;
    if (level >= in->depth) return PQT_OK;
    int64_t nf;
    PQT_RETURN_NOT_OK(pqt_variant_num_elements(v, &nf, err));
    for (int64_t i = 0; i < nf; i++) {
      const char *name;
      size_t len;
      pqt_variant f;
      inode *c;
      PQT_RETURN_NOT_OK(pqt_variant_object_field(v, i, &name, &len, &f, err));
      PQT_RETURN_NOT_OK(field_of(in, n, name, len, &c, err));
      PQT_RETURN_NOT_OK(walk(in, c, &f, level + 1, err));
    }
    return PQT_OK;
  }
  if (k == PQT_VARIANT_ARRAY) {
    n->count[C_ARRAY]++;
    if (level >= in->depth) return PQT_OK;
    int64_t ne;
    PQT_RETURN_NOT_OK(pqt_variant_num_elements(v, &ne, err));
    if (!n->elem && !(n->elem = pqt_mem_calloc(in->alloc, sizeof *n->elem))) return pqt_nomem(err);
    for (int64_t i = 0; i < ne; i++) {
      pqt_variant e;
      PQT_RETURN_NOT_OK(pqt_variant_array_element(v, i, &e, err));
      PQT_RETURN_NOT_OK(walk(in, n->elem, &e, level + 1, err));
    }
    return PQT_OK;
  }
  pqt_variant_scalar sc;
  PQT_RETURN_NOT_OK(pqt_variant_get_scalar(v, &sc, err));
  switch (k) {
    case PQT_VARIANT_TRUE:
    case PQT_VARIANT_FALSE: n->count[C_BOOL]++; break;
    case PQT_VARIANT_INT8:
    case PQT_VARIANT_INT16:
    case PQT_VARIANT_INT32:
    case PQT_VARIANT_INT64: {
      int w = k == PQT_VARIANT_INT8 ? 8 : k == PQT_VARIANT_INT16 ? 16 : k == PQT_VARIANT_INT32 ? 32 : 64;
      if (w > n->int_width) n->int_width = w;
      n->count[C_INT]++;
      break;
    }
    case PQT_VARIANT_FLOAT: n->count[C_FLOAT]++; break;
    case PQT_VARIANT_DOUBLE: n->count[C_DOUBLE]++; break;
    case PQT_VARIANT_DECIMAL4:
    case PQT_VARIANT_DECIMAL8:
    case PQT_VARIANT_DECIMAL16: {
      int32_t s = sc.u.decimal.scale;
      if (s < 0 || s > 38) break;
      int w = k == PQT_VARIANT_DECIMAL4 ? 4 : k == PQT_VARIANT_DECIMAL8 ? 8 : 16;
      n->count[C_DECIMAL]++;
      n->dec_scale[s]++;
      if (w > n->dec_width[s]) n->dec_width[s] = w;
      break;
    }
    case PQT_VARIANT_DATE: n->count[C_DATE]++; break;
    case PQT_VARIANT_TIME_NTZ_MICROS: n->count[C_TIME]++; break;
    case PQT_VARIANT_TIMESTAMP_MICROS: n->count[C_TS_UTC_US]++; break;
    case PQT_VARIANT_TIMESTAMP_NTZ_MICROS: n->count[C_TS_NTZ_US]++; break;
    case PQT_VARIANT_TIMESTAMP_NANOS: n->count[C_TS_UTC_NS]++; break;
    case PQT_VARIANT_TIMESTAMP_NTZ_NANOS: n->count[C_TS_NTZ_NS]++; break;
    case PQT_VARIANT_BINARY: n->count[C_BINARY]++; break;
    case PQT_VARIANT_STRING: n->count[C_STRING]++; break;
    case PQT_VARIANT_UUID: n->count[C_UUID]++; break;
    default: break;
  }
  return PQT_OK;
}

/* A name the writer takes (no NUL, at most 255 bytes). */
static bool name_ok(const char *s, size_t n) {
  if (n == 0 || n > 255) return false;
  return memchr(s, 0, n) == NULL;
}

/* The name between backticks: ` doubled, \ and control bytes escaped. */
static void put_name(pqt_buf *b, const char *s, size_t n) {
  pqt_buf_append(b, "`", 1, NULL);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '`') pqt_buf_append(b, "``", 2, NULL);
    else if (c == '\\') pqt_buf_append(b, "\\\\", 2, NULL);
    else if (c < 0x20 || c == 0x7f) pqt_buf_printf(b, NULL, "\\x%02x", c);
    else pqt_buf_append(b, &s[i], 1, NULL);
  }
  pqt_buf_append(b, "`", 1, NULL);
}

static int best_class(const inode *n) {
  int best = -1;
  for (int c = 0; c < N_CLASSES; c++)
    if (n->count[c] > 0 && (best < 0 || n->count[c] > n->count[best])) best = c;
  return best;
}

static int cmp_seen(const void *pa, const void *pb) {
  const ifield *a = *(const ifield *const *)pa, *b = *(const ifield *const *)pb;
  if (a->node->seen != b->node->seen) return a->node->seen > b->node->seen ? -1 : 1;
  return name_cmp(a->name, a->len, b->name, b->len);
}

/* Append the typed_value declaration of n named (name, len); *wrote 0 when
 * nothing is shredded there. */
static pqt_status emit(infer *in, const inode *n, const char *name, size_t len, int level, bool *wrote,
                       pqt_error *err) {
  *wrote = false;
  int c = best_class(n);
  if (c < 0 || level > in->depth) return PQT_OK;
  pqt_buf *b = &in->out;
  size_t mark = b->len;
  char head[96];
  head[0] = 0;
  switch (c) {
    case C_BOOL: strcpy(head, "optional boolean "); break;
    case C_INT: strcpy(head, n->int_width <= 32 ? "optional int32 " : "optional int64 "); break;
    case C_FLOAT: strcpy(head, "optional float "); break;
    case C_DOUBLE: strcpy(head, "optional double "); break;
    case C_DECIMAL: {
      int s = 0;
      for (int i = 1; i < 39; i++)
        if (n->dec_scale[i] > n->dec_scale[s]) s = i;
      int w = n->dec_width[s];
      strcpy(head, w == 4 ? "optional int32 " : w == 8 ? "optional int64 " : "optional fixed_len_byte_array(16) ");
      break;
    }
    case C_DATE:
    case C_TIME:
    case C_TS_UTC_US:
    case C_TS_NTZ_US:
    case C_TS_UTC_NS:
    case C_TS_NTZ_NS: strcpy(head, c == C_DATE ? "optional int32 " : "optional int64 "); break;
    case C_BINARY:
    case C_STRING: strcpy(head, "optional binary "); break;
    case C_UUID: strcpy(head, "optional fixed_len_byte_array(16) "); break;
    case C_OBJECT: {
      if (level >= in->depth || n->n_fields == 0) return PQT_OK;
      const ifield **order = pqt_mem_alloc(in->alloc, (size_t)n->n_fields * sizeof *order);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
      if (!order) return pqt_nomem(err);
      int32_t k = 0;
      for (int32_t i = 0; i < n->n_fields; i++)
        if (name_ok(n->fields[i].name, n->fields[i].len)) order[k++] = &n->fields[i];
      qsort(order, (size_t)k, sizeof *order, cmp_seen);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
      if (k > in->max_fields) k = in->max_fields;
      pqt_buf_append(b, "optional group ", 15, NULL);
      put_name(b, name, len);
      pqt_buf_append(b, " { ", 3, NULL);
      bool any = false;
      pqt_status st = PQT_OK;
      for (int32_t i = 0; i < k && st == PQT_OK; i++) {
        bool w;
        st = emit(in, order[i]->node, order[i]->name, order[i]->len, level + 1, &w, err);
        any |= w;
      }
      pqt_mem_free(in->alloc, (void *)order, (size_t)n->n_fields * sizeof *order);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
      PQT_RETURN_NOT_OK(st);
      if (!any) {
        b->len = mark;
        return PQT_OK;
      }
      pqt_buf_append(b, "} ", 2, NULL);
      *wrote = true;
      return pqt_buf_status(b, err);
    }
    case C_ARRAY: {
      if (level >= in->depth || !n->elem) return PQT_OK;
      pqt_buf_append(b, "optional group ", 15, NULL);
      put_name(b, name, len);
      pqt_buf_append(b, " (LIST) { repeated group list { ", 32, NULL);
      bool w;
      PQT_RETURN_NOT_OK(emit(in, n->elem, "element", 7, level + 1, &w, err));
      if (!w) {
        b->len = mark;
        return PQT_OK;
      }
      pqt_buf_append(b, "} } ", 4, NULL);
      *wrote = true;
      return pqt_buf_status(b, err);
    }
    default: return PQT_OK;
  }
  pqt_buf_append(b, head, strlen(head), NULL);
  put_name(b, name, len);
  switch (c) {
    case C_INT:
      if (n->int_width <= 16) pqt_buf_printf(b, NULL, " (INTEGER(%d,true))", n->int_width);
      break;
    case C_DECIMAL: {
      int s = 0;
      for (int i = 1; i < 39; i++)
        if (n->dec_scale[i] > n->dec_scale[s]) s = i;
      int w = n->dec_width[s];
      int p = w == 4 ? 9 : w == 8 ? 18 : 38;
      if (s > p) s = p;
      pqt_buf_printf(b, NULL, " (DECIMAL(%d,%d))", p, s);
      break;
    }
    case C_DATE: pqt_buf_printf(b, NULL, " (DATE)"); break;
    case C_TIME: pqt_buf_printf(b, NULL, " (TIME(MICROS,false))"); break;
    case C_TS_UTC_US: pqt_buf_printf(b, NULL, " (TIMESTAMP(MICROS,true))"); break;
    case C_TS_NTZ_US: pqt_buf_printf(b, NULL, " (TIMESTAMP(MICROS,false))"); break;
    case C_TS_UTC_NS: pqt_buf_printf(b, NULL, " (TIMESTAMP(NANOS,true))"); break;
    case C_TS_NTZ_NS: pqt_buf_printf(b, NULL, " (TIMESTAMP(NANOS,false))"); break;
    case C_STRING: pqt_buf_printf(b, NULL, " (STRING)"); break;
    case C_UUID: pqt_buf_printf(b, NULL, " (UUID)"); break;
    default: break;
  }
  pqt_buf_append(b, "; ", 2, NULL);
  *wrote = true;
  return pqt_buf_status(b, err);
}

PQT_API pqt_status pqt_variant_shred_infer(const pqt_variant *values, int64_t n, int32_t depth, int32_t max_fields,
                                           const pqt_allocator *alloc, pqt_string *out, pqt_error *err) {
  if (!out || (n > 0 && !values) || n < 0 || depth < 0)
    return pqt_error_set(err, PQT_EINVAL, "pqt_variant_shred_infer: bad arguments");
  infer in = {pqt_alloc_or_default(alloc),
              {0},
              depth > PQT_VARIANT_MAX_DEPTH ? PQT_VARIANT_MAX_DEPTH : depth,
              max_fields > 0 ? max_fields : 256};
  pqt_buf_init(&in.out, in.alloc);
  inode *root = pqt_mem_calloc(in.alloc, sizeof *root);
  if (!root) return pqt_nomem(err);
  pqt_status st = PQT_OK;
  for (int64_t i = 0; i < n && st == PQT_OK && depth > 0; i++) {
    st = pqt_variant_validate(&values[i], err);
    if (st == PQT_OK) st = walk(&in, root, &values[i], 0, err);
    if (st != PQT_OK) pqt_error_prefix(err, "value %lld", (long long)i);
  }
  if (st == PQT_OK && depth > 0) {
    pqt_buf_append(&in.out, "message shredding { ", 20, NULL);
    size_t mark = in.out.len;
    bool wrote;
    st = emit(&in, root, "typed_value", 11, 0, &wrote, err);
    if (st == PQT_OK && wrote) pqt_buf_append(&in.out, "}", 1, NULL);
    if (st == PQT_OK && !wrote) in.out.len = 0;
    (void)mark;
  }
  node_free(in.alloc, root);
  if (st != PQT_OK) {
    pqt_buf_free(&in.out);
    return st;
  }
  return pqt_buf_to_string(&in.out, out, err);
}
