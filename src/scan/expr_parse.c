/*
 * scan/expr_parse.c: the filter text (grammar in parquetry_filter.h) ->
 * pqt_expr. A recursive-descent parser over a hand-written lexer; every
 * input byte is untrusted: nesting is bounded (MAX_DEPTH), errors name
 * the 1-based byte position, nothing is read past len.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <strings.h>

#include "parquetry_geo.h"
#include "core/hex.h"
#include "scan/expr_internal.h"

#define MAX_DEPTH 200

typedef enum tok_kind {
  T_END = 0,
  T_IDENT,  /* a bare word */
  T_QIDENT, /* "quoted name" */
  T_STRING, /* 'text' */
  T_NUMBER,
  T_LPAREN,
  T_RPAREN,
  T_COMMA,
  T_DOT,
  T_OP, /* comparison; op holds pqt_cmp_op */
  T_MINUS,
  T_BAD
} tok_kind;

typedef struct tok {
  tok_kind kind;
  size_t start, len; /* in the text (for strings/quoted names: with the quotes) */
  int op;
} tok;

typedef struct parser {
  const char *s;
  size_t n;
  size_t pos;
  tok t; /* current token */
  int depth;
  pqt_error *err;
  pqt_buf scratch; /* unquoted text */
} parser;

static void next(parser *p) {
  const char *s = p->s;
  size_t n = p->n, i = p->pos;
  while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  tok t = {T_END, i, 0, 0};
  if (i >= n) {
    p->t = t;
    p->pos = i;
    return;
  }
  char c = s[i];
  if (isalpha((unsigned char)c) || c == '_') {
    size_t j = i + 1;
    while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_')) j++;
    t.kind = T_IDENT;
    t.len = j - i;
  } else if (c == '"' || c == '\'') {
    size_t j = i + 1;
    for (;;) {
      if (j >= n) {
        t.kind = T_BAD;
        break;
      }
      if (s[j] == c) {
        if (j + 1 < n && s[j + 1] == c) {
          j += 2;
          continue;
        }
        j++;
        t.kind = c == '"' ? T_QIDENT : T_STRING;
        break;
      }
      j++;
    }
    t.len = (t.kind == T_BAD ? n : j) - i;
  } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1])) ||
             (c == '-' && i + 1 < n && (isdigit((unsigned char)s[i + 1]) || s[i + 1] == '.'))) {
    size_t j = i + 1;
    while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '.' ||
                     ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
      j++;
    t.kind = T_NUMBER;
    t.len = j - i;
  } else {
    t.len = 1;
    switch (c) {
      case '(': t.kind = T_LPAREN; break;
      case ')': t.kind = T_RPAREN; break;
      case ',': t.kind = T_COMMA; break;
      case '.': t.kind = T_DOT; break;
      case '-': t.kind = T_MINUS; break;
      case '=':
        t.kind = T_OP;
        t.op = PQT_CMP_EQ;
        if (i + 1 < n && s[i + 1] == '=') t.len = 2;
        break;
      case '!':
        if (i + 1 < n && s[i + 1] == '=') {
          t.kind = T_OP;
          t.op = PQT_CMP_NE;
          t.len = 2;
        } else {
          t.kind = T_BAD;
        }
        break;
      case '<':
        t.kind = T_OP;
        t.op = PQT_CMP_LT;
        if (i + 1 < n && s[i + 1] == '=') {
          t.op = PQT_CMP_LE;
          t.len = 2;
        } else if (i + 1 < n && s[i + 1] == '>') {
          t.op = PQT_CMP_NE;
          t.len = 2;
        }
        break;
      case '>':
        t.kind = T_OP;
        t.op = PQT_CMP_GT;
        if (i + 1 < n && s[i + 1] == '=') {
          t.op = PQT_CMP_GE;
          t.len = 2;
        }
        break;
      default: t.kind = T_BAD; break;
    }
  }
  p->t = t;
  p->pos = t.start + t.len;
}

static int32_t posof(const parser *p) { return (int32_t)(p->t.start + 1 > INT32_MAX ? INT32_MAX : p->t.start + 1); }

static pqt_status fail(parser *p, const char *what) {
  if (p->t.kind == T_END)
    return pqt_error_set(p->err, PQT_EINVAL, "position %d: %s, found the end of the text", posof(p), what);
  if (p->t.kind == T_BAD && (p->s[p->t.start] == '\'' || p->s[p->t.start] == '"'))
    return pqt_error_set(p->err, PQT_EINVAL, "position %d: unterminated quote", posof(p));
  int len = (int)(p->t.len > 20 ? 20 : p->t.len);
  return pqt_error_set(p->err, PQT_EINVAL, "position %d: %s, found '%.*s'", posof(p), what, len, p->s + p->t.start);
}

static bool is_kw(const parser *p, const char *w) {
  return p->t.kind == T_IDENT && strlen(w) == p->t.len && strncasecmp(p->s + p->t.start, w, p->t.len) == 0;
}

/* The current word is followed by a quote: DATE '...', X'..' */
static bool quote_follows(const parser *p) {
  size_t i = p->t.start + p->t.len;
  while (i < p->n && (p->s[i] == ' ' || p->s[i] == '\t' || p->s[i] == '\n' || p->s[i] == '\r')) i++;
  return i < p->n && p->s[i] == '\'';
}

static bool reserved(const parser *p) {
  static const char *kw[] = {"and",  "or",   "not",  "in",    "between", "is",
                             "null", "like", "true", "false", "nan",     "infinity"};
  if ((is_kw(p, "date") || is_kw(p, "time") || is_kw(p, "timestamp") || is_kw(p, "uuid")) && quote_follows(p))
    return true;
  for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
    if (is_kw(p, kw[i])) return true;
  return false;
}

/* The content of the current quoted token, unescaped, into p->scratch. */
static pqt_status unquote(parser *p) {
  pqt_buf_clear(&p->scratch);
  const char *s = p->s + p->t.start;
  char q = s[0];
  for (size_t i = 1; i + 1 < p->t.len; i++) {
    PQT_RETURN_NOT_OK(pqt_buf_append(&p->scratch, &s[i], 1, p->err));
    if (s[i] == q) i++;
  }
  return PQT_OK;
}

static pqt_status nomem(parser *p) { return pqt_nomem(p->err); }

static pqt_status parse_vget(parser *p, int32_t at, pqt_expr **out);

static pqt_status parse_column(parser *p, pqt_expr **out) {
  int32_t at = posof(p);
  if (is_kw(p, "variant_get") || is_kw(p, "try_variant_get")) { /* a call when '(' follows */
    parser save = *p;
    next(p);
    if (p->t.kind == T_LPAREN) return parse_vget(p, at, out);
    p->pos = save.pos;
    p->t = save.t;
  }
  pqt_buf path;
  pqt_buf_init(&path, pqt_default_allocator());
  pqt_status st = PQT_OK;
  for (;;) {
    if (p->t.kind == T_IDENT && !reserved(p)) {
      st = pqt_buf_append(&path, p->s + p->t.start, p->t.len, p->err);
    } else if (p->t.kind == T_QIDENT) {
      st = unquote(p);
      if (st == PQT_OK && p->scratch.len) st = pqt_buf_append(&path, p->scratch.data, p->scratch.len, p->err);
    } else {
      st = fail(p, "expected a column name");
    }
    if (st != PQT_OK) break;
    next(p);
    if (p->t.kind != T_DOT) break;
    st = pqt_buf_append(&path, ".", 1, p->err);
    if (st != PQT_OK) break;
    next(p);
  }
  if (st == PQT_OK) {
    *out = pqt_expr_new_bytes(PQT_EK_COLUMN, path.data ? (const char *)path.data : "", path.len);
    if (!*out) st = nomem(p);
    else (*out)->pos = at;
  }
  pqt_buf_free(&path);
  return st;
}

/* variant_get '(' column ',' 'path' ',' 'type' ')'; the current token is '('. */
static pqt_status parse_vget(parser *p, int32_t at, pqt_expr **out) {
  next(p);
  pqt_expr *col = NULL, *e = NULL;
  PQT_RETURN_NOT_OK(parse_column(p, &col));
  pqt_status st = PQT_OK;
  if (p->t.kind != T_COMMA) st = fail(p, "expected ',' after the column of variant_get");
  if (st == PQT_OK) next(p);
  int32_t pat = posof(p);
  if (st == PQT_OK && p->t.kind != T_STRING) st = fail(p, "expected the path of variant_get as a quoted string ('$.a')");
  if (st == PQT_OK) st = unquote(p);
  if (st == PQT_OK) {
    pqt_error e2;
    pqt_error_init(&e2);
    if (pqt_vget_check_path(p->scratch.data ? (const char *)p->scratch.data : "", p->scratch.len, &e2) != PQT_OK)
      st = pqt_error_set(p->err, PQT_EINVAL, "position %d: variant_get: %s", (int)pat, e2.message);
  }
  if (st == PQT_OK) {
    e = pqt_expr_new_node(PQT_EK_VGET, 1);
    if (!e) st = nomem(p);
  }
  if (st == PQT_OK) {
    e->args[0] = col;
    col = NULL;
    e->pos = at;
    e->bytes = pqt_mem_alloc(pqt_default_allocator(), p->scratch.len + 1);
    if (!e->bytes) st = nomem(p);
  }
  if (st == PQT_OK) {
    if (p->scratch.len) memcpy(e->bytes, p->scratch.data, p->scratch.len);  // NOLINT(clang-analyzer-core.NonNullParamChecker): a pqt_buf with len > 0 has data
    e->bytes[p->scratch.len] = 0;
    e->len = p->scratch.len;
    next(p);
    if (p->t.kind != T_COMMA) st = fail(p, "expected ',' and the type after the path of variant_get");
  }
  if (st == PQT_OK) next(p);
  int32_t tat = posof(p);
  if (st == PQT_OK && p->t.kind != T_STRING) st = fail(p, "expected the type of variant_get as a quoted string ('int64')");
  if (st == PQT_OK) st = unquote(p);
  if (st == PQT_OK) {
    char name[32];
    pqt_variant_target t;
    pqt_error e2;
    pqt_error_init(&e2);
    size_t k = p->scratch.len;
    if (k >= sizeof name || memchr(p->scratch.data, 0, k)) k = sizeof name - 1;
    if (k) memcpy(name, p->scratch.data, k);
    name[k] = 0;
    if (pqt_variant_target_from_name(name, &t, &e2) != PQT_OK || p->scratch.len >= sizeof name)
      st = pqt_error_set(p->err, PQT_EINVAL, "position %d: variant_get: unknown type '%s'", (int)tat, name);
    else e->op = (int32_t)t;
  }
  if (st == PQT_OK) {
    next(p);
    if (p->t.kind != T_RPAREN) st = fail(p, "expected ')' to close variant_get");
  }
  if (st == PQT_OK) next(p);
  if (st != PQT_OK) {
    pqt_expr_free(col);
    pqt_expr_free(e);
    return st;
  }
  *out = e;
  return PQT_OK;
}

static bool starts_literal(const parser *p) {
  if (p->t.kind == T_NUMBER || p->t.kind == T_STRING || p->t.kind == T_MINUS) return true;
  if (is_kw(p, "true") || is_kw(p, "false") || is_kw(p, "nan") || is_kw(p, "infinity")) return true;
  if (is_kw(p, "date") || is_kw(p, "time") || is_kw(p, "timestamp") || is_kw(p, "uuid")) return quote_follows(p);
  return is_kw(p, "x") && p->t.start + 1 < p->n && p->s[p->t.start + 1] == '\'';
}

static pqt_expr *mk_lit(pqt_lit_kind k, int32_t at) {
  pqt_expr *e = pqt_expr_new_node(PQT_EK_LITERAL, 0);
  if (e) {
    e->lit = k;
    e->pos = at;
  }
  return e;
}

static pqt_status parse_literal(parser *p, pqt_expr **out) {
  int32_t at = posof(p);
  pqt_expr *e = NULL;
  if (p->t.kind == T_NUMBER) {
    bool exact;
    __int128 iv = 0;
    int32_t scale = 0;
    double d = 0;
    if (!pqt_parse_number_text(p->s + p->t.start, p->t.len, &exact, &iv, &scale, &d))
      return fail(p, "bad number (at most 38 digits)");
    if (!(e = mk_lit(exact ? PQT_LIT_EXACT : PQT_LIT_DOUBLE, at))) return nomem(p);
    e->i = iv;
    e->scale = scale;
    e->d = d;
    next(p);
  } else if (p->t.kind == T_MINUS) {
    next(p);
    if (!is_kw(p, "infinity")) return fail(p, "expected a number or INFINITY after '-'");
    if (!(e = mk_lit(PQT_LIT_DOUBLE, at))) return nomem(p);
    e->d = -INFINITY;
    next(p);
  } else if (p->t.kind == T_STRING) {
    PQT_RETURN_NOT_OK(unquote(p));
    e = pqt_expr_new_bytes(PQT_EK_LITERAL, p->scratch.data ? (const char *)p->scratch.data : "", p->scratch.len);
    if (!e) return nomem(p);
    e->lit = PQT_LIT_STRING;
    e->pos = at;
    next(p);
  } else if (is_kw(p, "true") || is_kw(p, "false")) {
    if (!(e = mk_lit(PQT_LIT_BOOL, at))) return nomem(p);
    e->i = is_kw(p, "true");
    next(p);
  } else if (is_kw(p, "nan") || is_kw(p, "infinity")) {
    if (!(e = mk_lit(PQT_LIT_DOUBLE, at))) return nomem(p);
    e->d = is_kw(p, "nan") ? NAN : INFINITY;
    next(p);
  } else if (is_kw(p, "x")) {
    next(p);
    if (p->t.kind != T_STRING) return fail(p, "expected 'hex digits' after X");
    PQT_RETURN_NOT_OK(unquote(p));
    size_t n = p->scratch.len;
    if (n % 2) return fail(p, "odd number of hex digits");
    uint8_t *raw = p->scratch.data;
    for (size_t i = 0; i < n; i += 2) {
      int v = 0;
      for (int k = 0; k < 2; k++) {
        char c = (char)raw[i + (size_t)k];
        int h = pqt_hex_digit(c);
        if (h < 0) return fail(p, "bad hex digit in binary literal");
        v = v * 16 + h;
      }
      raw[i / 2] = (uint8_t)v;
    }
    e = pqt_expr_new_bytes(PQT_EK_LITERAL, raw ? (const char *)raw : "", n / 2);
    if (!e) return nomem(p);
    e->lit = PQT_LIT_BINARY;
    e->pos = at;
    next(p);
  } else {
    /* DATE / TIME / TIMESTAMP / UUID 'text' */
    int which = is_kw(p, "date") ? 0 : is_kw(p, "time") ? 1 : is_kw(p, "timestamp") ? 2 : is_kw(p, "uuid") ? 3 : -1;
    if (which < 0) return fail(p, "expected a literal");
    next(p);
    if (p->t.kind != T_STRING) return fail(p, "expected a quoted value");
    PQT_RETURN_NOT_OK(unquote(p));
    const char *txt = p->scratch.data ? (const char *)p->scratch.data : "";
    size_t n = p->scratch.len;
    if (which == 0) {
      int64_t days;
      if (!pqt_parse_date_text(txt, n, &days)) return fail(p, "bad DATE (YYYY-MM-DD)");
      if (!(e = mk_lit(PQT_LIT_DATE, at))) return nomem(p);
      e->i = days;
    } else if (which == 1) {
      int64_t ns;
      if (!pqt_parse_time_text(txt, n, &ns)) return fail(p, "bad TIME (HH:MM:SS[.fraction])");
      if (!(e = mk_lit(PQT_LIT_TIME, at))) return nomem(p);
      e->i = ns;
    } else if (which == 2) {
      __int128 ns;
      bool zone;
      if (!pqt_parse_timestamp_text(txt, n, &ns, &zone))
        return fail(p, "bad TIMESTAMP (YYYY-MM-DD HH:MM:SS[.fraction][Z|+HH:MM])");
      if (!(e = mk_lit(PQT_LIT_TIMESTAMP, at))) return nomem(p);
      e->i = ns;
      e->utc = zone;
    } else {
      uint8_t u[16];
      if (!pqt_parse_uuid_text(txt, n, u)) return fail(p, "bad UUID (8-4-4-4-12 hex digits)");
      e = pqt_expr_new_bytes(PQT_EK_LITERAL, u, 16);
      if (!e) return nomem(p);
      e->lit = PQT_LIT_UUID;
      e->pos = at;
    }
    next(p);
  }
  *out = e;
  return PQT_OK;
}

static pqt_status parse_or(parser *p, pqt_expr **out);

static pqt_status wrap(parser *p, pqt_expr_kind kind, pqt_expr **args, int32_t n, int32_t at, pqt_expr **out) {
  pqt_expr *e = pqt_expr_new_node(kind, n);
  if (!e) {
    for (int32_t i = 0; i < n; i++) pqt_expr_free(args[i]);
    return nomem(p);
  }
  for (int32_t i = 0; i < n; i++) e->args[i] = args[i];
  e->pos = at;
  *out = e;
  return PQT_OK;
}

static pqt_status negate(parser *p, bool neg, int32_t at, pqt_expr **e) {
  if (!neg) return PQT_OK;
  pqt_expr *inner = *e;
  return wrap(p, PQT_EK_NOT, &inner, 1, at, e);
}

/* [-]number as a double (the token's text through strtod: the value as written). */
static pqt_status parse_box_number(parser *p, double *out) {
  bool neg = false;
  if (p->t.kind == T_MINUS) {
    neg = true;
    next(p);
  }
  if (p->t.kind != T_NUMBER || p->t.len > 64) return fail(p, "expected a number in BOX(xmin, ymin, xmax, ymax)");
  char buf[72];
  memcpy(buf, p->s + p->t.start, p->t.len);
  buf[p->t.len] = 0;
  char *end;
  double d = strtod(buf, &end);
  if (*end || !isfinite(d)) return fail(p, "expected a finite number in BOX(xmin, ymin, xmax, ymax)");
  *out = neg ? -d : d;
  next(p);
  return PQT_OK;
}

/* ST_Intersects '(' column ',' ('WKT' | BOX '(' n ',' n ',' n ',' n ')') ')'; the current token is '('. */
static pqt_status parse_st_intersects(parser *p, int32_t at, pqt_expr **out) {
  next(p);
  pqt_expr *col = NULL, *e = NULL;
  PQT_RETURN_NOT_OK(parse_column(p, &col));
  pqt_status st = PQT_OK;
  if (p->t.kind != T_COMMA) st = fail(p, "expected ',' after the column of ST_Intersects");
  else next(p);
  if (st == PQT_OK && p->t.kind == T_STRING) {
    int32_t wat = posof(p);
    st = unquote(p);
    pqt_wkb_buffer wkb = {0};
    if (st == PQT_OK) {
      pqt_error e2;
      if (pqt_wkt_to_wkb(p->scratch.data ? (const char *)p->scratch.data : "", p->scratch.len, NULL, &wkb, &e2) !=
          PQT_OK)
        st = pqt_error_set(p->err, PQT_EINVAL, "position %d: ST_Intersects: the WKT: %s", (int)wat, e2.message);
    }
    if (st == PQT_OK) {
      e = pqt_expr_st_intersects(col, wkb.data, wkb.len);
      col = NULL;
      if (!e) st = nomem(p);
    }
    pqt_wkb_buffer_free(&wkb);
    if (st == PQT_OK) next(p);
  } else if (st == PQT_OK && is_kw(p, "box")) {
    next(p);
    double v[4] = {0, 0, 0, 0};
    if (p->t.kind != T_LPAREN) st = fail(p, "expected '(' after BOX");
    else next(p);
    for (int i = 0; i < 4 && st == PQT_OK; i++) {
      if (i && p->t.kind != T_COMMA) st = fail(p, "expected ',' in BOX(xmin, ymin, xmax, ymax)");
      else if (i) next(p);
      if (st == PQT_OK) st = parse_box_number(p, &v[i]);
    }
    if (st == PQT_OK && p->t.kind != T_RPAREN) st = fail(p, "expected ')' after BOX(xmin, ymin, xmax, ymax");
    if (st == PQT_OK) {
      next(p);
      e = pqt_expr_bbox_intersects(col, v[0], v[1], v[2], v[3]);
      col = NULL;
      if (!e) st = nomem(p);
    }
  } else if (st == PQT_OK) {
    st = fail(p, "expected a quoted WKT geometry or BOX(xmin, ymin, xmax, ymax)");
  }
  if (st == PQT_OK && p->t.kind != T_RPAREN) st = fail(p, "expected ')' to close ST_Intersects");
  if (st != PQT_OK) {
    pqt_expr_free(col);
    pqt_expr_free(e);
    return st;
  }
  next(p);
  e->pos = at;
  *out = e;
  return PQT_OK;
}

static pqt_status parse_predicate(parser *p, pqt_expr **out) {
  int32_t at = posof(p);
  if (starts_literal(p)) {
    /* literal op column: turned around */
    pqt_expr *l = NULL, *c = NULL;
    PQT_RETURN_NOT_OK(parse_literal(p, &l));
    if (p->t.kind != T_OP) {
      pqt_expr_free(l);
      return fail(p, "expected a comparison (=, !=, <, <=, >, >=)");
    }
    int op = p->t.op;
    next(p);
    pqt_status st = parse_column(p, &c);
    if (st != PQT_OK) {
      pqt_expr_free(l);
      return st;
    }
    static const int flip[] = {PQT_CMP_EQ, PQT_CMP_NE, PQT_CMP_GT, PQT_CMP_GE, PQT_CMP_LT, PQT_CMP_LE};
    pqt_expr *args[2] = {c, l};
    PQT_RETURN_NOT_OK(wrap(p, PQT_EK_CMP, args, 2, at, out));
    (*out)->op = flip[op];
    return PQT_OK;
  }
  if (is_kw(p, "st_intersects")) { /* a function call when '(' follows, else a column of that name */
    parser save = *p;
    next(p);
    if (p->t.kind == T_LPAREN) return parse_st_intersects(p, at, out);
    p->pos = save.pos;
    p->t = save.t;
  }
  pqt_expr *col = NULL;
  PQT_RETURN_NOT_OK(parse_column(p, &col));
  pqt_status st = PQT_OK;
  int32_t opat = posof(p);
  if (p->t.kind == T_OP) {
    int op = p->t.op;
    next(p);
    pqt_expr *l = NULL;
    if (!starts_literal(p)) st = fail(p, "expected a literal (a column can only be compared with a literal)");
    if (st == PQT_OK) st = parse_literal(p, &l);
    if (st != PQT_OK) {
      pqt_expr_free(col);
      return st;
    }
    pqt_expr *args[2] = {col, l};
    PQT_RETURN_NOT_OK(wrap(p, PQT_EK_CMP, args, 2, opat, out));
    (*out)->op = op;
    return PQT_OK;
  }
  if (is_kw(p, "is")) {
    next(p);
    bool neg = false;
    if (is_kw(p, "not")) {
      neg = true;
      next(p);
    }
    if (!is_kw(p, "null")) {
      pqt_expr_free(col);
      return fail(p, "expected NULL");
    }
    next(p);
    PQT_RETURN_NOT_OK(wrap(p, PQT_EK_ISNULL, &col, 1, opat, out));
    (*out)->negate = neg;
    return PQT_OK;
  }
  bool neg = false;
  if (is_kw(p, "not")) {
    neg = true;
    next(p);
  }
  if (is_kw(p, "in")) {
    next(p);
    if (p->t.kind != T_LPAREN) {
      pqt_expr_free(col);
      return fail(p, "expected '(' after IN");
    }
    next(p);
    int32_t n = 1, cap = 8;
    pqt_expr **args = pqt_mem_calloc(pqt_default_allocator(), sizeof(pqt_expr *) * (size_t)cap);
    if (!args) {
      pqt_expr_free(col);
      return nomem(p);
    }
    args[0] = col;
    for (;;) {
      if (n == cap) {
        pqt_expr **g = pqt_mem_realloc(pqt_default_allocator(), args, sizeof(pqt_expr *) * (size_t)cap,
                                       sizeof(pqt_expr *) * (size_t)cap * 2);
        if (!g) {
          st = nomem(p);
          break;
        }
        args = g;
        cap *= 2;
      }
      if (!starts_literal(p)) {
        st = fail(p, "expected a literal in the IN list");
        break;
      }
      st = parse_literal(p, &args[n]);
      if (st != PQT_OK) break;
      n++;
      if (p->t.kind == T_COMMA) {
        next(p);
        continue;
      }
      if (p->t.kind != T_RPAREN) st = fail(p, "expected ',' or ')' in the IN list");
      break;
    }
    if (st == PQT_OK) {
      next(p);
      st = wrap(p, PQT_EK_IN, args, n, opat, out);
    } else {
      for (int32_t i = 0; i < n; i++) pqt_expr_free(args[i]);
    }
    pqt_mem_free(pqt_default_allocator(), args, sizeof(pqt_expr *) * (size_t)cap);
    if (st == PQT_OK) st = negate(p, neg, opat, out);
    return st;
  }
  if (is_kw(p, "between")) {
    next(p);
    pqt_expr *lo = NULL, *hi = NULL;
    if (!starts_literal(p)) st = fail(p, "expected a literal after BETWEEN");
    if (st == PQT_OK) st = parse_literal(p, &lo);
    if (st == PQT_OK && !is_kw(p, "and")) st = fail(p, "expected AND in BETWEEN");
    if (st == PQT_OK) next(p);
    if (st == PQT_OK && !starts_literal(p)) st = fail(p, "expected a literal after BETWEEN ... AND");
    if (st == PQT_OK) st = parse_literal(p, &hi);
    if (st != PQT_OK) {
      pqt_expr_free(col);
      pqt_expr_free(lo);
      pqt_expr_free(hi);
      return st;
    }
    pqt_expr *args[3] = {col, lo, hi};
    PQT_RETURN_NOT_OK(wrap(p, PQT_EK_BETWEEN, args, 3, opat, out));
    return negate(p, neg, opat, out);
  }
  if (is_kw(p, "like")) {
    next(p);
    if (p->t.kind != T_STRING) {
      pqt_expr_free(col);
      return fail(p, "expected a quoted pattern after LIKE");
    }
    st = unquote(p);
    if (st != PQT_OK) {
      pqt_expr_free(col);
      return st;
    }
    PQT_RETURN_NOT_OK(wrap(p, PQT_EK_LIKE, &col, 1, opat, out));
    pqt_expr *e = *out;
    e->bytes = pqt_mem_alloc(pqt_default_allocator(), p->scratch.len + 1);
    if (!e->bytes) {
      pqt_expr_free(e);
      *out = NULL;
      return nomem(p);
    }
    if (p->scratch.len) memcpy(e->bytes, p->scratch.data, p->scratch.len);
    e->bytes[p->scratch.len] = 0;
    e->len = p->scratch.len;
    next(p);
    return negate(p, neg, opat, out);
  }
  pqt_expr_free(col);
  return fail(
      p, neg ? "expected IN, BETWEEN or LIKE after NOT" : "expected a comparison, IN, BETWEEN, IS [NOT] NULL or LIKE");
}

static pqt_status parse_factor(parser *p, pqt_expr **out) {
  if (++p->depth > MAX_DEPTH) return pqt_error_set(p->err, PQT_EINVAL, "position %d: nested too deeply", posof(p));
  pqt_status st;
  int32_t at = posof(p);
  if (is_kw(p, "not")) {
    next(p);
    pqt_expr *inner = NULL;
    st = parse_factor(p, &inner);
    if (st == PQT_OK) st = wrap(p, PQT_EK_NOT, &inner, 1, at, out);
  } else if (p->t.kind == T_LPAREN) {
    next(p);
    st = parse_or(p, out);
    if (st == PQT_OK && p->t.kind != T_RPAREN) {
      st = fail(p, "expected ')'");
      pqt_expr_free(*out);
      *out = NULL;
    }
    if (st == PQT_OK) next(p);
  } else {
    st = parse_predicate(p, out);
  }
  p->depth--;
  return st;
}

static pqt_status parse_chain(parser *p, const char *kw, pqt_expr_kind kind, pqt_expr **out) {
  pqt_expr *left = NULL;
  pqt_status st = kind == PQT_EK_OR ? parse_chain(p, "and", PQT_EK_AND, &left) : parse_factor(p, &left);
  while (st == PQT_OK && is_kw(p, kw)) {
    int32_t at = posof(p);
    next(p);
    pqt_expr *right = NULL;
    st = kind == PQT_EK_OR ? parse_chain(p, "and", PQT_EK_AND, &right) : parse_factor(p, &right);
    if (st != PQT_OK) break;
    pqt_expr *args[2] = {left, right};
    left = NULL;
    st = wrap(p, kind, args, 2, at, &left);
  }
  if (st != PQT_OK) {
    pqt_expr_free(left);
    return st;
  }
  *out = left;
  return PQT_OK;
}

static pqt_status parse_or(parser *p, pqt_expr **out) {
  if (++p->depth > MAX_DEPTH) return pqt_error_set(p->err, PQT_EINVAL, "position %d: nested too deeply", posof(p));
  pqt_status st = parse_chain(p, "or", PQT_EK_OR, out);
  p->depth--;
  return st;
}

PQT_API pqt_status pqt_expr_parse(const char *text, size_t len, pqt_expr **out, pqt_error *err) {
  if (!out || (!text && len)) return pqt_error_set(err, PQT_EINVAL, "pqt_expr_parse: bad arguments");
  *out = NULL;
  if (len > ((size_t)1 << 30)) return pqt_error_set(err, PQT_ELIMIT, "filter text too long");
  parser p = {text ? text : "", len, 0, {T_END, 0, 0, 0}, 0, err, {0}};
  pqt_buf_init(&p.scratch, pqt_default_allocator());
  next(&p);
  pqt_expr *e = NULL;
  pqt_status st = p.t.kind == T_END ? fail(&p, "expected a predicate") : parse_or(&p, &e);
  if (st == PQT_OK && p.t.kind != T_END) {
    st = fail(&p, "expected AND, OR or the end");
    pqt_expr_free(e);
    e = NULL;
  }
  pqt_buf_free(&p.scratch);
  if (st == PQT_OK) *out = e;
  return st;
}
