/*
 * scan/expr_bind.c: a pqt_expr bound to a file's schema. Each column
 * reference becomes a leaf (or, for IS NULL, a group) of the schema; each
 * literal is converted once to the domain its column's values are compared
 * in: integers (exact, 128-bit: ints, unsigned, DECIMAL unscaled, DATE days,
 * TIME/TIMESTAMP in the column's unit, INT96 as nanoseconds, BOOLEAN 0/1),
 * floats (double; NaN greatest), or bytes (unsigned lexicographic). A
 * literal finer than the column (1.005 against DECIMAL(9,2)) keeps its
 * exact meaning: `=` never holds, `<` becomes `<=` its floor, and so on.
 * NOT is pushed down to the comparisons (the orders are total, so NOT a<b
 * is a>=b under three-valued logic), which lets pruning see through it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "scan/filter.h"

typedef struct binder {
  pqt_filter *f;
  const pqt_schema *s;
  const uint8_t *user_sel;
  pqt_error *err;
  int depth;
} binder;

/* ---- column classes ------------------------------------------------------ */

typedef enum cclass {
  C_BOOL,
  C_INT,
  C_DECIMAL,
  C_DATE,
  C_TIME,
  C_TS,
  C_FLOAT,
  C_STRING,
  C_BINARY,
  C_UUID,
  C_NONE
} cclass;

typedef struct colinfo {
  cclass c;
  int32_t scale; /* DECIMAL scale; TIME/TS unit digits (3/6/9) */
  bool utc;
  const char *type_name;
} colinfo;

static int unit_digits(const pqt_time_unit *u) {
  int w = pqt_union_which(u->isset);
  return w == PQT_TIME_UNIT_MILLIS ? 3 : w == PQT_TIME_UNIT_MICROS ? 6 : w == PQT_TIME_UNIT_NANOS ? 9 : -1;
}

static colinfo classify(const pqt_schema_node *n, pqt_bound *b) {
  colinfo ci = {C_NONE, 0, false, "?"};
  int l = pqt_union_which(n->logical.isset);
  int32_t t = n->physical_type;
  b->width = n->type_length > 0 ? (size_t)n->type_length : 0;
  if (n->converted_type == PQT_CT_INTERVAL || l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY || l == PQT_LT_VARIANT ||
      l == PQT_LT_UNKNOWN) {
    ci.type_name = n->converted_type == PQT_CT_INTERVAL ? "INTERVAL" : "a type without an order";
    return ci;
  }
  switch (t) {
    case PQT_BOOLEAN:
      ci.c = C_BOOL;
      ci.type_name = "BOOLEAN";
      b->dom = PQT_DOM_INT;
      b->vx = PQT_VX_BOOL;
      return ci;
    case PQT_INT32:
    case PQT_INT64: {
      bool unsig = l == PQT_LT_INTEGER && !n->logical.integer.is_signed;
      b->dom = PQT_DOM_INT;
      b->vx = t == PQT_INT32 ? (unsig ? PQT_VX_U32 : PQT_VX_I32) : (unsig ? PQT_VX_U64 : PQT_VX_I64);
      if (l == PQT_LT_DECIMAL) {
        ci.c = C_DECIMAL;
        ci.scale = n->logical.decimal.scale;
        ci.type_name = "DECIMAL";
      } else if (l == PQT_LT_DATE) {
        ci.c = C_DATE;
        ci.type_name = "DATE";
      } else if (l == PQT_LT_TIME || l == PQT_LT_TIMESTAMP) {
        const pqt_time_type *tt = l == PQT_LT_TIME ? &n->logical.time : &n->logical.timestamp;
        ci.c = l == PQT_LT_TIME ? C_TIME : C_TS;
        ci.scale = unit_digits(&tt->unit);
        ci.utc = tt->is_adjusted_to_utc;
        ci.type_name = l == PQT_LT_TIME ? "TIME" : "TIMESTAMP";
        if (ci.scale < 0) ci.c = C_NONE;
      } else {
        ci.c = C_INT;
        ci.type_name = unsig ? "an unsigned integer" : "an integer";
      }
      return ci;
    }
    case PQT_INT96:
      ci.c = C_TS;
      ci.scale = 9;
      ci.utc = true;
      ci.type_name = "INT96 timestamp";
      b->dom = PQT_DOM_INT;
      b->vx = PQT_VX_INT96;
      return ci;
    case PQT_FLOAT:
    case PQT_DOUBLE:
      ci.c = C_FLOAT;
      ci.type_name = t == PQT_FLOAT ? "FLOAT" : "DOUBLE";
      b->dom = PQT_DOM_FLOAT;
      b->vx = t == PQT_FLOAT ? PQT_VX_FLOAT : PQT_VX_DOUBLE;
      return ci;
    case PQT_BYTE_ARRAY:
    case PQT_FIXED_LEN_BYTE_ARRAY:
      if (l == PQT_LT_DECIMAL) {
        ci.c = C_DECIMAL;
        ci.scale = n->logical.decimal.scale;
        ci.type_name = "DECIMAL";
        b->dom = PQT_DOM_INT;
        b->vx = t == PQT_BYTE_ARRAY ? PQT_VX_DEC_BA : PQT_VX_DEC_FLBA;
        return ci;
      }
      if (l == PQT_LT_FLOAT16 && t == PQT_FIXED_LEN_BYTE_ARRAY && b->width == 2) {
        ci.c = C_FLOAT;
        ci.type_name = "FLOAT16";
        b->dom = PQT_DOM_FLOAT;
        b->vx = PQT_VX_HALF;
        return ci;
      }
      b->dom = PQT_DOM_BYTES;
      b->vx = t == PQT_BYTE_ARRAY ? PQT_VX_BA : PQT_VX_FLBA;
      if (l == PQT_LT_UUID && b->width == 16) {
        ci.c = C_UUID;
        ci.type_name = "UUID";
      } else if (l == PQT_LT_STRING || l == PQT_LT_ENUM || l == PQT_LT_JSON) {
        ci.c = C_STRING;
        ci.type_name = "STRING";
      } else {
        ci.c = C_BINARY;
        ci.type_name = "BINARY";
      }
      return ci;
    default: return ci;
  }
}

static const char *lit_name(pqt_lit_kind k) {
  switch (k) {
    case PQT_LIT_BOOL: return "a BOOLEAN";
    case PQT_LIT_EXACT: return "a number";
    case PQT_LIT_DOUBLE: return "a floating-point number";
    case PQT_LIT_FLOAT16: return "a FLOAT16";
    case PQT_LIT_STRING: return "a string";
    case PQT_LIT_BINARY: return "a binary";
    case PQT_LIT_DATE: return "a DATE";
    case PQT_LIT_TIME: return "a TIME";
    case PQT_LIT_TIMESTAMP: return "a TIMESTAMP";
    case PQT_LIT_UUID: return "a UUID";
  }
  return "a literal";
}

static pqt_status where_err(binder *B, const pqt_expr *at, const char *fmt, const char *a, const char *b2,
                            const char *c) {
  char msg[400];
  /* every caller passes a literal format naming up to three %s */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(msg, sizeof msg, fmt, a, b2, c);
#pragma GCC diagnostic pop
  if (at && at->pos > 0) return pqt_error_set(B->err, PQT_EINVAL, "position %d: %s", at->pos, msg);
  return pqt_error_set(B->err, PQT_EINVAL, "%s", msg);
}

/* How a column operand is named in messages: its path, or the variant_get call. */
static const char *colname(binder *B, const pqt_expr *c) {
  if (c->kind != PQT_EK_VGET || c->n_args < 1 || !c->args[0]->bytes) return c->bytes ? c->bytes : "?";
  char buf[400];
  snprintf(buf, sizeof buf, "variant_get(%s, '%s', '%s')", c->args[0]->bytes, c->bytes ? c->bytes : "",
           pqt_vget_type_name(c->op));
  const char *s = pqt_arena_strdup(&B->f->arena, buf, strlen(buf));
  return s ? s : c->args[0]->bytes;
}

/* ---- finding columns ------------------------------------------------------ */

static const pqt_schema_node *find_path(const pqt_schema_node *x, const char *p, size_t n) {
  for (int32_t i = 0; i < x->n_children; i++) {
    const pqt_schema_node *c = x->children[i];
    size_t k = c->name_len;
    if (k > n || memcmp(c->name, p, k) != 0) continue;
    if (k == n) return c;
    if (p[k] != '.') continue;
    const pqt_schema_node *r = find_path(c, p + k + 1, n - k - 1);
    if (r) return r;
  }
  return NULL;
}

static pqt_status bind_vget(binder *B, const pqt_expr *c, pqt_bound *b);

static pqt_status bind_column(binder *B, const pqt_expr *c, bool leaf_only, pqt_bound *b) {
  if (c->kind == PQT_EK_VGET) return bind_vget(B, c, b);
  if (c->kind != PQT_EK_COLUMN) return where_err(B, c, "expected a column%s%s%s", "", "", "");
  const pqt_schema_node *n = find_path(B->s->root, c->bytes, c->len);
  if (!n) return where_err(B, c, "no column '%s' in the file%s%s", c->bytes, "", "");
  for (const pqt_schema_node *x = n; x && x->parent; x = x->parent)
    if (x->repetition == PQT_REPEATED || (x != n && x->kind != PQT_NODE_STRUCT))
      return where_err(B, c, "column '%s' is inside a list or map (a predicate tests one value per row)%s%s", c->bytes,
                       "", "");
  if (leaf_only && !n->is_leaf)
    return where_err(B, c, "column '%s' is a group: only IS [NOT] NULL applies to it%s%s", c->bytes, "", "");
  b->node = n;
  b->leaf = n->first_leaf;
  if (!n->is_leaf && B->user_sel) /* a leaf the projection reads already, if any */
    for (int32_t i = n->first_leaf; i < n->first_leaf + n->n_leaves; i++)
      if (B->user_sel[i]) {
        b->leaf = i;
        break;
      }
  if (b->leaf < 0 || b->leaf >= B->f->n_leaves) return where_err(B, c, "column '%s' has no leaf%s%s", c->bytes, "", "");
  B->f->leaves[b->leaf] = 1;
  return PQT_OK;
}

/* variant_get(column, path, type): the VARIANT group, every leaf of it read
 * (the value is reconstructed from them all). */
static pqt_status bind_vget(binder *B, const pqt_expr *c, pqt_bound *b) {
  const pqt_expr *col = c->n_args == 1 ? c->args[0] : NULL;
  if (!col || col->kind != PQT_EK_COLUMN || !c->bytes)
    return where_err(B, c, "variant_get takes a column, a path and a type%s%s%s", "", "", "");
  const pqt_schema_node *n = find_path(B->s->root, col->bytes, col->len);
  if (!n) return where_err(B, col, "no column '%s' in the file%s%s", col->bytes, "", "");
  if (n->is_leaf || pqt_union_which(n->logical.isset) != PQT_LT_VARIANT)
    return where_err(B, col, "variant_get needs a VARIANT column; '%s' is not one%s%s", col->bytes, "", "");
  for (const pqt_schema_node *x = n; x && x->parent; x = x->parent)
    if (x->repetition == PQT_REPEATED || (x != n && x->kind != PQT_NODE_STRUCT))
      return where_err(B, col, "column '%s' is inside a list or map (a predicate tests one value per row)%s%s",
                       col->bytes, "", "");
  if (n->n_leaves <= 0 || n->first_leaf < 0 || n->first_leaf + n->n_leaves > B->f->n_leaves)
    return where_err(B, col, "column '%s' has no leaf%s%s", col->bytes, "", "");
  b->node = n;
  b->leaf = n->first_leaf;
  for (int32_t i = n->first_leaf; i < n->first_leaf + n->n_leaves; i++) B->f->leaves[i] = 1;
  b->vpath = pqt_arena_strdup(&B->f->arena, c->bytes, c->len);
  if (!b->vpath) return pqt_nomem(B->err);
  b->vtype = c->op;
  return PQT_OK;
}

/* The class of variant_get's type. */
static colinfo vclassify(pqt_bound *b) {
  colinfo ci = {C_NONE, 0, false, "VARIANT"};
  b->width = 0;
  b->dom = PQT_DOM_INT;
  b->vx = PQT_VX_I64;
  switch (b->vtype) {
    case PQT_VARIANT_GET_BOOLEAN:
      ci.c = C_BOOL;
      ci.type_name = "BOOLEAN";
      b->vx = PQT_VX_BOOL;
      break;
    case PQT_VARIANT_GET_INT8:
    case PQT_VARIANT_GET_INT16:
    case PQT_VARIANT_GET_INT32:
    case PQT_VARIANT_GET_INT64:
      ci.c = C_INT;
      ci.type_name = "an integer";
      break;
    case PQT_VARIANT_GET_FLOAT:
    case PQT_VARIANT_GET_DOUBLE:
      ci.c = C_FLOAT;
      ci.type_name = b->vtype == PQT_VARIANT_GET_FLOAT ? "FLOAT" : "DOUBLE";
      b->dom = PQT_DOM_FLOAT;
      b->vx = b->vtype == PQT_VARIANT_GET_FLOAT ? PQT_VX_FLOAT : PQT_VX_DOUBLE;
      break;
    case PQT_VARIANT_GET_STRING:
    case PQT_VARIANT_GET_BINARY:
      ci.c = b->vtype == PQT_VARIANT_GET_STRING ? C_STRING : C_BINARY;
      ci.type_name = b->vtype == PQT_VARIANT_GET_STRING ? "STRING" : "BINARY";
      b->dom = PQT_DOM_BYTES;
      b->vx = PQT_VX_BA;
      break;
    case PQT_VARIANT_GET_DATE:
      ci.c = C_DATE;
      ci.type_name = "DATE";
      break;
    case PQT_VARIANT_GET_TIMESTAMP:
    case PQT_VARIANT_GET_TIMESTAMP_NTZ:
      ci.c = C_TS;
      ci.scale = 6;
      ci.utc = b->vtype == PQT_VARIANT_GET_TIMESTAMP;
      ci.type_name = "TIMESTAMP";
      break;
    case PQT_VARIANT_GET_UUID:
      ci.c = C_UUID;
      ci.type_name = "UUID";
      b->dom = PQT_DOM_BYTES;
      b->vx = PQT_VX_FLBA;
      b->width = 16;
      break;
    default: break;
  }
  return ci;
}

static colinfo classify_b(pqt_bound *b) { return b->vpath ? vclassify(b) : classify(b->node, b); }

/* ---- literals ---------------------------------------------------------------- */

static const __int128 BIG = (__int128)1 << 126;

/* v * 10^-from as a multiple of 10^-to: floor, and whether it was exact.
 * false when beyond +-2^126 (*sign says which way). */
static bool rescale(__int128 v, int32_t from, int32_t to, __int128 *out, bool *exact, int *sign) {
  *exact = true;
  *sign = v < 0 ? -1 : 1;
  while (from < to) {
    if (v > BIG / 10 || v < -BIG / 10) return false;
    v *= 10;
    from++;
  }
  while (from > to) {
    __int128 q = v / 10, r = v % 10;
    if (r != 0) {
      *exact = false;
      if (r < 0) q -= 1; /* floor */
    }
    v = q;
    from--;
  }
  *out = v;
  return true;
}

/* Set lit for an integer-domain comparison; adjusts *op for inexact and
 * out-of-range literals. */
static void int_lit(pqt_blit *L, int *op, __int128 v, int32_t from, int32_t to) {
  __int128 q;
  bool exact;
  int sign;
  if (!rescale(v, from, to, &q, &exact, &sign)) {
    /* beyond every value the column holds */
    bool above = sign > 0;
    switch (*op) {
      case PQT_CMP_EQ: *op = PQT_OP_NEVER; break;
      case PQT_CMP_NE: *op = PQT_OP_ALWAYS; break;
      case PQT_CMP_LT:
      case PQT_CMP_LE: *op = above ? PQT_OP_ALWAYS : PQT_OP_NEVER; break;
      default: *op = above ? PQT_OP_NEVER : PQT_OP_ALWAYS; break;
    }
    L->i = 0;
    return;
  }
  L->i = q;
  if (exact) return;
  switch (*op) {
    case PQT_CMP_EQ: *op = PQT_OP_NEVER; break;
    case PQT_CMP_NE: *op = PQT_OP_ALWAYS; break;
    case PQT_CMP_LT:
    case PQT_CMP_LE: *op = PQT_CMP_LE; break;
    default: *op = PQT_CMP_GT; break;
  }
}

static double exact_to_double(__int128 v, int32_t scale) {
  char buf[80];
  int k = 0;
  bool neg = v < 0;
  unsigned __int128 u = neg ? -(unsigned __int128)v : (unsigned __int128)v;
  char tmp[64];
  int m = 0;
  do {
    tmp[m++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  if (neg) buf[k++] = '-';
  while (m > 0) buf[k++] = tmp[--m];
  snprintf(buf + k, sizeof buf - (size_t)k, "e-%d", (int)scale);
  return strtod(buf, NULL);
}

static pqt_status bad_lit(binder *B, const pqt_expr *col, const pqt_expr *lit, const colinfo *ci) {
  char what[64];
  snprintf(what, sizeof what, "%s", ci->type_name);
  return where_err(B, lit, "type mismatch: column '%s' is %s, the literal is %s", colname(B, col), what, lit_name(lit->lit));
}

/* Convert literal e for column b (class ci): L, and *op adjusted. */
static pqt_status bind_lit(binder *B, const pqt_expr *col, const pqt_expr *e, const colinfo *ci, pqt_bound *b,
                           pqt_blit *L, int *op) {
  if (e->kind != PQT_EK_LITERAL) return where_err(B, e, "expected a literal%s%s%s", "", "", "");
  memset(L, 0, sizeof *L);
  pqt_lit_kind k = e->lit;
  const char *txt = e->bytes ? e->bytes : "";
  switch (ci->c) {
    case C_BOOL:
      if (k != PQT_LIT_BOOL) return bad_lit(B, col, e, ci);
      L->i = e->i;
      return PQT_OK;
    case C_INT:
    case C_DECIMAL: {
      int32_t to = ci->c == C_DECIMAL ? ci->scale : 0;
      if (k == PQT_LIT_EXACT) {
        int_lit(L, op, e->i, e->scale, to);
        return PQT_OK;
      }
      if (k == PQT_LIT_STRING) {
        bool ex;
        __int128 iv;
        int32_t sc;
        double d;
        if (pqt_parse_number_text(txt, e->len, &ex, &iv, &sc, &d) && ex) {
          int_lit(L, op, iv, sc, to);
          return PQT_OK;
        }
        return where_err(B, e, "'%s' is not a number (column '%s' is %s)", txt, colname(B, col), ci->type_name);
      }
      if ((k == PQT_LIT_DOUBLE || k == PQT_LIT_FLOAT16) && ci->c == C_INT) {
        double d = e->d;
        if (isnan(d) || d >= 1e30 || d <= -1e30) {
          int_lit(L, op, isnan(d) || d > 0 ? BIG : -BIG, -1, 0); /* beyond the range */
          return PQT_OK;
        }
        double fl = floor(d);
        int_lit(L, op, (__int128)fl * 10 + (fl == d ? 0 : 5), 1, 0);
        return PQT_OK;
      }
      return bad_lit(B, col, e, ci);
    }
    case C_DATE: {
      int64_t days;
      if (k == PQT_LIT_DATE) L->i = e->i;
      else if (k == PQT_LIT_STRING && pqt_parse_date_text(txt, e->len, &days)) L->i = days;
      else if (k == PQT_LIT_STRING)
        return where_err(B, e, "'%s' is not a DATE (YYYY-MM-DD) for column '%s'%s", txt, colname(B, col), "");
      else return bad_lit(B, col, e, ci);
      return PQT_OK;
    }
    case C_TIME: {
      int64_t ns;
      if (k == PQT_LIT_TIME) ns = (int64_t)e->i;
      else if (k == PQT_LIT_STRING && pqt_parse_time_text(txt, e->len, &ns)) {
      } else if (k == PQT_LIT_STRING)
        return where_err(B, e, "'%s' is not a TIME for column '%s'%s", txt, colname(B, col), "");
      else return bad_lit(B, col, e, ci);
      int_lit(L, op, ns, 9, ci->scale);
      return PQT_OK;
    }
    case C_TS: {
      __int128 ns;
      bool zone = false;
      if (k == PQT_LIT_TIMESTAMP) {
        ns = e->i;
        zone = e->utc;
      } else if (k == PQT_LIT_DATE) {
        ns = (__int128)e->i * 86400 * 1000000000;
      } else if (k == PQT_LIT_STRING && pqt_parse_timestamp_text(txt, e->len, &ns, &zone)) {
      } else if (k == PQT_LIT_STRING) {
        return where_err(B, e, "'%s' is not a TIMESTAMP for column '%s'%s", txt, colname(B, col), "");
      } else {
        return bad_lit(B, col, e, ci);
      }
      if (zone && !ci->utc)
        return where_err(B, e,
                         "the TIMESTAMP has a time zone but column '%s' holds local times (not adjusted to UTC)%s%s",
                         colname(B, col), "", "");
      if (b->vx == PQT_VX_INT96) L->i = ns;
      else int_lit(L, op, ns, 9, ci->scale);
      return PQT_OK;
    }
    case C_FLOAT: {
      double d;
      if (k == PQT_LIT_DOUBLE || k == PQT_LIT_FLOAT16) d = e->d;
      else if (k == PQT_LIT_EXACT) d = exact_to_double(e->i, e->scale);
      else if (k == PQT_LIT_STRING) {
        bool ex;
        __int128 iv;
        int32_t sc;
        if (!pqt_parse_number_text(txt, e->len, &ex, &iv, &sc, &d))
          return where_err(B, e, "'%s' is not a number for column '%s'%s", txt, colname(B, col), "");
        if (ex) d = exact_to_double(iv, sc);
      } else {
        return bad_lit(B, col, e, ci);
      }
      if (b->vx == PQT_VX_FLOAT && !isnan(d)) d = (double)(float)d; /* the column's precision */
      L->d = d;
      return PQT_OK;
    }
    case C_STRING:
    case C_BINARY:
      if (k != PQT_LIT_STRING && k != PQT_LIT_BINARY && !(ci->c == C_BINARY && k == PQT_LIT_UUID))
        return bad_lit(B, col, e, ci);
      L->b = (const uint8_t *)e->bytes;
      L->n = e->len;
      return PQT_OK;
    case C_UUID: {
      uint8_t *u = pqt_arena_alloc(&B->f->arena, 16);
      if (!u) return pqt_nomem(B->err);
      // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a 16-byte literal has its bytes (allocated len + 1)
      if (k == PQT_LIT_UUID || (k == PQT_LIT_BINARY && e->len == 16)) memcpy(u, e->bytes, 16);
      else if (k == PQT_LIT_STRING) {
        if (!pqt_parse_uuid_text(txt, e->len, u))
          return where_err(B, e, "'%s' is not a UUID for column '%s'%s", txt, colname(B, col), "");
      } else {
        return bad_lit(B, col, e, ci);
      }
      L->b = u;
      L->n = 16;
      return PQT_OK;
    }
    case C_NONE: break;
  }
  return where_err(B, col, "column '%s' has %s, which a predicate cannot compare%s", colname(B, col), ci->type_name, "");
}

/* ---- the tree ------------------------------------------------------------------ */

static pqt_bound *new_bound(binder *B, pqt_bkind kind) {
  pqt_bound *b = pqt_arena_alloc(&B->f->arena, sizeof *b);
  if (b) {
    b->kind = kind;
    b->leaf = -1;
  }
  return b;
}

static int negate_op(int op) {
  static const int neg[] = {PQT_CMP_NE, PQT_CMP_EQ, PQT_CMP_GE,    PQT_CMP_GT,
                            PQT_CMP_LE, PQT_CMP_LT, PQT_OP_ALWAYS, PQT_OP_NEVER};
  return neg[op];
}

static pqt_status bind(binder *B, const pqt_expr *e, bool neg, pqt_bound **out);

/* May a predicate on variant_get's type (vc, vb) be answered by the shredded
 * leaf's (lc, lb) statistics? Only when the leaf holds values of that type
 * exactly as variant_get returns them (any signed integer width for the
 * integer types: a value beyond the asked width is NULL, never true). */
static bool shadow_fits(const colinfo *vc, const pqt_bound *vb, const colinfo *lc, const pqt_bound *lb) {
  if (vc->c != lc->c) return false;
  switch (vc->c) {
    case C_INT: return lb->vx == PQT_VX_I32 || lb->vx == PQT_VX_I64;
    case C_FLOAT: return lb->vx == vb->vx;
    case C_TS: return lb->vx == PQT_VX_I64 && lc->utc == vc->utc;
    case C_BOOL:
    case C_STRING:
    case C_BINARY:
    case C_DATE:
    case C_UUID: return true;
    default: return false;
  }
}

/* The shadow of variant predicate b (kind CMP, IN or LIKE, bound): the same
 * test on the path's shredded typed_value leaf, for pruning only
 * (pqt_vget_prune_bound). lits: the literal expressions, op0 the comparison
 * as written, neg whether it is under NOT. No shadow is no error. */
static pqt_status bind_shadow(binder *B, pqt_bound *b, pqt_bkind kind, const pqt_expr *col,
                              const pqt_expr *const *lits, int32_t n_lits, int op0, bool neg) {
  if (b->kind != kind || (kind == PQT_B_CMP && b->op > PQT_CMP_GE)) return PQT_OK;
  const pqt_schema_node *leaf;
  int32_t *vn, nv;
  PQT_RETURN_NOT_OK(pqt_vget_shredded_leaf(b->node, b->vpath, &B->f->arena, &leaf, &vn, &nv, B->err));
  if (!leaf || leaf->first_leaf < 0 || leaf->first_leaf >= B->f->n_leaves) return PQT_OK;
  pqt_bound *s = new_bound(B, kind);
  if (!s) return pqt_nomem(B->err);
  pqt_bound vb = *b;
  colinfo vc = vclassify(&vb);
  s->node = leaf;
  s->leaf = leaf->first_leaf;
  s->pat = b->pat;
  s->pat_len = b->pat_len;
  colinfo lc = classify(leaf, s);
  if (!shadow_fits(&vc, &vb, &lc, s)) return PQT_OK;
  if (kind != PQT_B_LIKE) {
    s->lits = pqt_arena_array(&B->f->arena, (size_t)(n_lits ? n_lits : 1), sizeof(pqt_blit));
    if (!s->lits) return pqt_nomem(B->err);
    pqt_error scratch, *saved = B->err;
    pqt_error_init(&scratch);
    // cppcheck-suppress autoVariables ; B->err is put back to saved below, before any return
    B->err = &scratch; /* a literal the leaf's type refuses: no shadow, no error */
    pqt_status st = PQT_OK;
    for (int32_t k = 0; k < n_lits && st == PQT_OK; k++) {
      int op = kind == PQT_B_CMP ? op0 : PQT_CMP_EQ;
      st = bind_lit(B, col, lits[k], &lc, s, &s->lits[s->n_lits], &op);
      if (st != PQT_OK) break;
      if (kind == PQT_B_CMP) {
        s->op = neg ? negate_op(op) : op;
        s->n_lits = 1;
      } else if (op == PQT_CMP_EQ) {
        s->n_lits++;
      }
    }
    B->err = saved;
    if (st == PQT_ENOMEM) return pqt_nomem(B->err);
    if (st != PQT_OK) return PQT_OK;
    if (kind == PQT_B_IN && s->n_lits == 0) {
      s->kind = PQT_B_CMP;
      s->op = PQT_OP_NEVER;
      s->n_lits = 1;
      memset(&s->lits[0], 0, sizeof s->lits[0]);
    }
  }
  b->shadow = s;
  b->vnull = vn;
  b->n_vnull = nv;
  return PQT_OK;
}

static pqt_status bind_cmp(binder *B, const pqt_expr *col, int op, const pqt_expr *lit, bool neg, pqt_bound **out) {
  pqt_bound *b = new_bound(B, PQT_B_CMP);
  if (!b) return pqt_nomem(B->err);
  PQT_RETURN_NOT_OK(bind_column(B, col, true, b));
  colinfo ci = classify_b(b);
  b->lits = pqt_arena_alloc(&B->f->arena, sizeof(pqt_blit));
  if (!b->lits) return pqt_nomem(B->err);
  b->n_lits = 1;
  int op0 = op;
  PQT_RETURN_NOT_OK(bind_lit(B, col, lit, &ci, b, &b->lits[0], &op));
  b->op = neg ? negate_op(op) : op;
  if (b->vpath) PQT_RETURN_NOT_OK(bind_shadow(B, b, PQT_B_CMP, col, &lit, 1, op0, neg));
  *out = b;
  return PQT_OK;
}

static pqt_status wrap_not(binder *B, pqt_bound *inner, bool neg, pqt_bound **out) {
  if (!neg) {
    *out = inner;
    return PQT_OK;
  }
  pqt_bound *n = new_bound(B, PQT_B_NOT);
  if (!n) return pqt_nomem(B->err);
  n->a = inner;
  *out = n;
  return PQT_OK;
}

static pqt_status bind(binder *B, const pqt_expr *e, bool neg, pqt_bound **out) {
  if (++B->depth > 10000) return pqt_error_set(B->err, PQT_ELIMIT, "filter nested too deeply");
  pqt_status st = PQT_OK;
  switch (e->kind) {
    case PQT_EK_NOT: st = bind(B, e->args[0], !neg, out); break;
    case PQT_EK_AND:
    case PQT_EK_OR: {
      /* De Morgan under NOT */
      bool is_and = (e->kind == PQT_EK_AND) != neg;
      pqt_bound *b = new_bound(B, is_and ? PQT_B_AND : PQT_B_OR);
      if (!b) return pqt_nomem(B->err);
      st = bind(B, e->args[0], neg, &b->a);
      if (st == PQT_OK) st = bind(B, e->args[1], neg, &b->b);
      *out = b;
      break;
    }
    case PQT_EK_CMP: {
      const pqt_expr *c = e->args[0], *l = e->args[1];
      int op = e->op;
      if (!pqt_expr_is_colref(c) && pqt_expr_is_colref(l)) {
        static const int flip[] = {PQT_CMP_EQ, PQT_CMP_NE, PQT_CMP_GT, PQT_CMP_GE, PQT_CMP_LT, PQT_CMP_LE};
        const pqt_expr *t = c;
        c = l;
        l = t;
        op = flip[op];
      }
      if (!pqt_expr_is_colref(c) || l->kind != PQT_EK_LITERAL)
        st = where_err(B, e, "a comparison needs a column and a literal%s%s%s", "", "", "");
      else st = bind_cmp(B, c, op, l, neg, out);
      break;
    }
    case PQT_EK_BETWEEN: {
      /* x BETWEEN a AND b = x >= a AND x <= b */
      bool is_and = !neg;
      pqt_bound *b = new_bound(B, is_and ? PQT_B_AND : PQT_B_OR);
      if (!b) return pqt_nomem(B->err);
      st = bind_cmp(B, e->args[0], PQT_CMP_GE, e->args[1], neg, &b->a);
      if (st == PQT_OK) st = bind_cmp(B, e->args[0], PQT_CMP_LE, e->args[2], neg, &b->b);
      *out = b;
      break;
    }
    case PQT_EK_IN: {
      pqt_bound *b = new_bound(B, PQT_B_IN);
      if (!b) return pqt_nomem(B->err);
      st = bind_column(B, e->args[0], true, b);
      if (st != PQT_OK) break;
      colinfo ci = classify_b(b);
      b->lits = pqt_arena_array(&B->f->arena, (size_t)e->n_args, sizeof(pqt_blit));
      if (!b->lits) return pqt_nomem(B->err);
      for (int32_t i = 1; i < e->n_args && st == PQT_OK; i++) {
        int op = PQT_CMP_EQ;
        st = bind_lit(B, e->args[0], e->args[i], &ci, b, &b->lits[b->n_lits], &op);
        if (st == PQT_OK && op == PQT_CMP_EQ) b->n_lits++; /* a literal no value can equal drops out */
      }
      if (st == PQT_OK && b->n_lits == 0) {
        b->kind = PQT_B_CMP;
        b->op = PQT_OP_NEVER;
        b->n_lits = 1;
        memset(&b->lits[0], 0, sizeof b->lits[0]);
      }
      if (st == PQT_OK && b->vpath)
        st = bind_shadow(B, b, PQT_B_IN, e->args[0], (const pqt_expr *const *)e->args + 1, e->n_args - 1,
                         PQT_CMP_EQ, false);
      if (st == PQT_OK) st = wrap_not(B, b, neg, out);
      break;
    }
    case PQT_EK_ISNULL: {
      pqt_bound *b = new_bound(B, PQT_B_ISNULL);
      if (!b) return pqt_nomem(B->err);
      st = bind_column(B, e->args[0], false, b);
      b->negate = e->negate != neg;
      *out = b;
      break;
    }
    case PQT_EK_LIKE: {
      pqt_bound *b = new_bound(B, PQT_B_LIKE);
      if (!b) return pqt_nomem(B->err);
      st = bind_column(B, e->args[0], true, b);
      if (st != PQT_OK) break;
      colinfo ci = classify_b(b);
      if (ci.c != C_STRING && ci.c != C_BINARY) {
        st = where_err(B, e, "LIKE needs a string or binary column; '%s' is %s%s", colname(B, e->args[0]), ci.type_name, "");
        break;
      }
      b->pat = (const uint8_t *)e->bytes;
      b->pat_len = e->len;
      if (b->vpath) st = bind_shadow(B, b, PQT_B_LIKE, e->args[0], NULL, 0, 0, false);
      if (st == PQT_OK) st = wrap_not(B, b, neg, out);
      break;
    }
    case PQT_EK_LITERAL:
      if (e->lit == PQT_LIT_BOOL) {
        pqt_bound *b = new_bound(B, PQT_B_CONST);
        if (!b) return pqt_nomem(B->err);
        b->cval = (e->i != 0) != neg;
        *out = b;
      } else {
        st = where_err(B, e, "a literal alone is not a predicate%s%s%s", "", "", "");
      }
      break;
    case PQT_EK_COLUMN:
    case PQT_EK_VGET:
      st = where_err(B, e, "a column alone is not a predicate ('%s')%s%s", colname(B, e), "", "");
      break;
    case PQT_EK_GEO: {
      pqt_bound *b = new_bound(B, PQT_B_GEO);
      if (!b) return pqt_nomem(B->err);
      st = bind_column(B, e->args[0], true, b);
      bool never = false;
      if (st == PQT_OK) st = pqt_geo_bind(e, b, &B->f->arena, &never, B->err);
      if (st == PQT_OK && never) { /* an empty geometry intersects nothing: false, or under NOT "IS NOT NULL" */
        b->kind = neg ? PQT_B_ISNULL : PQT_B_CONST;
        b->negate = neg;
        b->cval = false;
        *out = b;
        break;
      }
      if (st == PQT_OK) st = wrap_not(B, b, neg, out);
      break;
    }
  }
  B->depth--;
  return st;
}

/* Literal bytes are borrowed from the expression: copy them into the arena. */
static pqt_status own_bytes(binder *B, pqt_bound *b) {
  if (!b) return PQT_OK;
  for (int32_t i = 0; i < b->n_lits; i++) {
    if (!b->lits[i].b || b->lits[i].n == 0) continue;
    uint8_t *c = pqt_arena_alloc(&B->f->arena, b->lits[i].n);
    if (!c) return pqt_nomem(B->err);
    memcpy(c, b->lits[i].b, b->lits[i].n);
    b->lits[i].b = c;
  }
  if (b->pat && b->pat_len) {
    uint8_t *c = pqt_arena_alloc(&B->f->arena, b->pat_len);
    if (!c) return pqt_nomem(B->err);
    memcpy(c, b->pat, b->pat_len);
    b->pat = c;
  }
  PQT_RETURN_NOT_OK(own_bytes(B, b->a));
  PQT_RETURN_NOT_OK(own_bytes(B, b->shadow));
  return own_bytes(B, b->b);
}

void pqt_filter_free(pqt_filter *f) {
  if (!f) return;
  const pqt_allocator *a = f->alloc;
  pqt_arena_reset(&f->arena);
  pqt_mem_free(a, f, sizeof *f);
}

pqt_status pqt_filter_bind(const pqt_reader *r, const pqt_expr *e, const uint8_t *user_sel, const pqt_allocator *alloc,
                           pqt_filter **out, pqt_error *err) {
  *out = NULL;
  alloc = pqt_alloc_or_default(alloc);
  pqt_filter *f = pqt_mem_calloc(alloc, sizeof *f);
  if (!f) return pqt_nomem(err);
  f->alloc = alloc;
  f->r = r;
  pqt_arena_init(&f->arena, alloc);
  f->n_leaves = r->schema->n_leaves;
  f->leaves = pqt_arena_alloc(&f->arena, (size_t)(f->n_leaves ? f->n_leaves : 1));
  binder B = {f, r->schema, user_sel, err, 0};
  pqt_status st = f->leaves ? bind(&B, e, false, &f->root) : pqt_nomem(err);
  if (st == PQT_OK) st = own_bytes(&B, f->root);
  if (st != PQT_OK) {
    pqt_filter_free(f);
    return st;
  }
  *out = f;
  return PQT_OK;
}

PQT_API pqt_status pqt_expr_check(const pqt_expr *e, const pqt_reader *r, pqt_error *err) {
  if (!e || !r) return pqt_error_set(err, PQT_EINVAL, "pqt_expr_check: bad arguments");
  pqt_filter *f;
  PQT_RETURN_NOT_OK(pqt_filter_bind(r, e, NULL, NULL, &f, err));
  pqt_filter_free(f);
  return PQT_OK;
}
