/*
 * cli/json_nested.c: nested JSON values. Inference: objects become groups
 * and arrays LISTs, merged over every row; a field whose rows disagree
 * (an object here, a number there) is kept as JSON text (STRING), so
 * nothing is altered. Writing: a builder per top-level field mirrors the
 * writer's Arrow layout (structs, lists, leaves of convert_values.c) and
 * is filled by walking each value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

/* ---- inference ---- */

void cv_node_init(cv_node *n) {
  memset(n, 0, sizeof *n);
  cv_infer_init(&n->inf);
}

void cv_node_free(cv_node *n) {
  for (int i = 0; i < n->nk; i++) {
    free(n->names[i]);
    cv_node_free(&n->kids[i]);
  }
  free(n->names);
  free(n->kids);
  if (n->elem) cv_node_free(n->elem);
  free(n->elem);
  memset(n, 0, sizeof *n);
}

typedef struct ictx {
  cv_node *stack[130];
  int depth;
  cv_node *slot;
  /* a VARIANT field's value being rebuilt as JSON text (vnode set) */
  cv_node *vnode;
  cv_jtext jt;
  char *err; /* a hard error (hard set): not a disagreement between rows */
  bool hard;
} ictx;

static int hard(ictx *c, const char *path, const char *msg) {
  snprintf(c->err, CV_ERR, "field %.80s: %.160s", path, msg);
  c->hard = true;
  return -1;
}

static int want(cv_node *n, int kind) {
  if (n->kind == CV_N_NONE) n->kind = kind;
  return n->kind == kind ? 0 : -1;
}

static void after_value(ictx *c) {
  cv_node *top = c->depth ? c->stack[c->depth - 1] : NULL;
  c->slot = top && top->kind == CV_N_ARRAY ? top->elem : NULL;
}

/* A value of a VARIANT field, whole: sampled for the shredding. */
static int i_variant(ictx *c, cv_node *n, const char *p, size_t len, cv_kind k) {
  n->vseen = true;
  if (n->vs->n >= CV_VARIANT_SAMPLE) return 0;
  char e[CV_ERR];
  return cv_variant_sample(n->vs, p, len, k, e) != 0 ? hard(c, n->vpath, e) : 0;
}

/* The start of an object or array: in a VARIANT field's value, its text. */
static int i_capture(ictx *c, char bracket, int *rc) {
  if (!c->vnode && c->slot && c->slot->kind == CV_N_VARIANT) {
    c->vnode = c->slot;
    c->jt.len = 0;
    c->jt.depth = 0;
    c->jt.comma = false;
  }
  if (!c->vnode) return 0;
  *rc = cv_jtext_begin(&c->jt, bracket) != 0 ? hard(c, c->vnode->vpath, "out of memory or nested too deep") : 0;
  return 1;
}

static int i_begin_object(void *ctx) {
  ictx *c = ctx;
  int rc;
  if (i_capture(c, '{', &rc)) return rc;
  if (!c->slot || want(c->slot, CV_N_OBJECT) != 0 || c->depth == 130) return -1;
  c->stack[c->depth++] = c->slot;
  c->slot = NULL;
  return 0;
}

static cv_node *kid_of(cv_node *o, const char *name, size_t len) {
  int hint = o->last_key + 1 < o->nk ? o->last_key + 1 : 0; /* keys usually come in the same order */
  for (int k = 0; k < o->nk; k++) {
    int i = (hint + k) % o->nk;
    if (strlen(o->names[i]) == len && memcmp(o->names[i], name, len) == 0) {
      o->last_key = i;
      return &o->kids[i];
    }
  }
  char **nn = realloc(o->names, (size_t)(o->nk + 1) * sizeof *nn);
  if (nn) o->names = nn;
  cv_node *nk = realloc(o->kids, (size_t)(o->nk + 1) * sizeof *nk);
  if (nk) o->kids = nk;
  if (!nn || !nk || !(o->names[o->nk] = strndup(name, len))) return NULL;
  cv_node_init(&o->kids[o->nk]);
  o->last_key = o->nk;
  return &o->kids[o->nk++];
}

static int i_key(void *ctx, const char *name, size_t len) {
  ictx *c = ctx;
  if (c->vnode)
    return cv_jtext_key(&c->jt, name, len) != 0 ? hard(c, c->vnode->vpath, "out of memory") : 0;
  cv_node *o = c->stack[c->depth - 1];
  if (memchr(name, 0, len) || len == 0) return -1;
  if (!(c->slot = kid_of(o, name, len))) return -1;
  if (!c->slot->seq) c->slot->seq = ++o->nseq;
  return 0;
}

static int i_end(void *ctx) {
  ictx *c = ctx;
  if (c->vnode) {
    if (cv_jtext_end(&c->jt) != 0) return hard(c, c->vnode->vpath, "out of memory");
    if (c->jt.depth) return 0;
    cv_node *n = c->vnode;
    c->vnode = NULL;
    after_value(c);
    return i_variant(c, n, c->jt.s, c->jt.len, CV_JSON_NESTED);
  }
  c->depth--;
  after_value(c);
  return 0;
}

static int i_begin_array(void *ctx) {
  ictx *c = ctx;
  int rc;
  if (i_capture(c, '[', &rc)) return rc;
  if (c->slot && c->slot->vmark && c->slot->kind == CV_N_OBJECT) /* the path names an object field here */
    return hard(c, c->slot->vpath,
                "a JSON array on the path where the path names an object's field (for the array's elements write "
                "NAME[] or NAME.list.element)");
  if (!c->slot || want(c->slot, CV_N_ARRAY) != 0 || c->depth == 130) return -1;
  if (!c->slot->elem) {
    if (!(c->slot->elem = malloc(sizeof *c->slot->elem))) return -1;
    cv_node_init(c->slot->elem);
  }
  c->stack[c->depth++] = c->slot;
  c->slot = c->slot->elem;
  return 0;
}

/* JSON strings, numbers and booleans in one field: its values would not
 * read back as given under any one type. */
static int scalar_kind(cv_node *n, cv_kind k) {
  n->seen |= k == CV_QUOTED ? 1 : k == CV_JSON_NUMBER ? 2 : k == CV_JSON_BOOL ? 4 : 0;
  return (n->seen & (n->seen - 1)) ? -1 : 0;
}

static int i_scalar(void *ctx, const char *p, size_t n, cv_kind k) {
  ictx *c = ctx;
  if (c->vnode)
    return cv_jtext_scalar(&c->jt, p, n, k) != 0 ? hard(c, c->vnode->vpath, "out of memory") : 0;
  if (c->slot && c->slot->kind == CV_N_VARIANT) {
    cv_node *v = c->slot;
    after_value(c);
    return i_variant(c, v, p, n, k);
  }
  if (k != CV_NULL) {
    if (!c->slot || want(c->slot, CV_N_SCALAR) != 0 || scalar_kind(c->slot, k) != 0) return -1;
    cv_infer_add(&c->slot->inf, p, n, k);
  }
  after_value(c);
  return 0;
}

static const cv_json_visitor infer_visitor = {i_begin_object, i_key, i_end, i_begin_array, i_end, i_scalar};

int cv_node_value(cv_node *n, const char *p, size_t len, cv_kind k, char *err) {
  if (n->kind == CV_N_TEXT || k == CV_NULL) return 0;
  if (k != CV_JSON_NESTED) {
    if (want(n, CV_N_SCALAR) != 0 || scalar_kind(n, k) != 0) n->kind = CV_N_TEXT;
    else cv_infer_add(&n->inf, p, len, k);
    return 0;
  }
  ictx c = {{NULL}, 0, n, NULL, {0}, err, false};
  char werr[CV_ERR];
  int rc = 0;
  if (cv_json_walk(p, len, &infer_visitor, &c, werr) != 0) {
    if (c.hard) rc = -1;
    else n->kind = CV_N_TEXT; /* rows disagree: JSON text */
  }
  cv_jtext_free(&c.jt);
  return rc;
}

void cv_node_add(cv_node *n, const char *p, size_t len, cv_kind k) {
  char err[CV_ERR];
  if (cv_node_value(n, p, len, k, err) != 0) n->kind = CV_N_TEXT;
}

/* The next name of a dotted path: its length, *next past its dot (or NULL). */
static size_t path_part(const char *rest, const char **next) {
  const char *dot = strchr(rest, '.');
  *next = dot ? dot + 1 : NULL;
  return dot ? (size_t)(dot - rest) : strlen(rest);
}

/* "list.element" at rest (the Parquet path of a list's elements, what
 * --variant NAME[] becomes): *next past it (NULL at the end). */
static bool list_element(const char *rest, const char **next) {
  if (strncmp(rest, "list.element", 12) != 0 || (rest[12] && rest[12] != '.')) return false;
  *next = rest[12] ? rest + 13 : NULL;
  return true;
}

int cv_node_mark_variant(cv_node *n, const char *rest, const char *path, struct cv_variant_samples *vs, char *err) {
  while (rest) {
    if (n->kind == CV_N_VARIANT) {
      snprintf(err, CV_ERR, "--variant %s lies inside --variant %s", path, n->vpath);
      return -1;
    }
    const char *next;
    if (list_element(rest, &next)) { /* the elements of an array */
      if (n->kind != CV_N_NONE && n->kind != CV_N_ARRAY) {
        snprintf(err, CV_ERR, "--variant %s: %.*s is an object on another --variant path", path,
                 (int)(rest - path) - 1, path);
        return -1;
      }
      n->kind = CV_N_ARRAY;
      n->vmark = true;
      if (!n->vpath) n->vpath = path;
      if (!n->elem) {
        if (!(n->elem = malloc(sizeof *n->elem))) {
          snprintf(err, CV_ERR, "out of memory");
          return -1;
        }
        cv_node_init(n->elem);
      }
      n = n->elem;
      rest = next;
      continue;
    }
    if (n->kind == CV_N_ARRAY) {
      snprintf(err, CV_ERR, "--variant %s: %.*s is an array on another --variant path", path, (int)(rest - path) - 1,
               path);
      return -1;
    }
    n->kind = CV_N_OBJECT;
    n->vmark = true;
    if (!n->vpath) n->vpath = path;
    size_t len = path_part(rest, &next);
    if (len == 0) {
      snprintf(err, CV_ERR, "--variant %s: an empty name in the path", path);
      return -1;
    }
    if (!(n = kid_of(n, rest, len))) {
      snprintf(err, CV_ERR, "out of memory");
      return -1;
    }
    rest = next;
  }
  if (n->kind != CV_N_NONE) {
    snprintf(err, CV_ERR, "--variant %s: given twice, or another --variant lies inside it", path);
    return -1;
  }
  n->kind = CV_N_VARIANT;
  n->vpath = path;
  n->vs = vs;
  return 0;
}

/* The fields of an object in the order the input first gave them. */
static void by_seq(cv_node *o) {
  for (int i = 1; i < o->nk; i++)
    for (int j = i; j > 0; j--) {
      int a = o->kids[j - 1].seq, b = o->kids[j].seq;
      if (!(b && (!a || a > b))) break;
      cv_node t = o->kids[j];
      o->kids[j] = o->kids[j - 1];
      o->kids[j - 1] = t;
      char *s = o->names[j];
      o->names[j] = o->names[j - 1];
      o->names[j - 1] = s;
    }
}

int cv_node_check_variant(cv_node *n, const char *rest, const char *path, char *err) {
  while (rest) {
    const char *next;
    bool elems = list_element(rest, &next);
    if (n->kind != (elems ? CV_N_ARRAY : CV_N_OBJECT)) { /* rest lies in path, past the name of n */
      int nl = (int)(rest - path) - 1;
      snprintf(err, CV_ERR,
               "--variant %s: %.*s is kept as JSON text (it is not an %s in every row, or values inside it "
               "differ in kind from row to row); --variant %.*s stores all of it as VARIANT",
               path, nl, path, elems ? "array" : "object", nl, path);
      return -1;
    }
    if (elems) {
      n = n->elem;
      rest = next;
      continue;
    }
    by_seq(n);
    size_t len = path_part(rest, &next);
    int i = 0;
    while (i < n->nk && !(strlen(n->names[i]) == len && memcmp(n->names[i], rest, len) == 0)) i++;
    if (i == n->nk) break;
    n = &n->kids[i];
    rest = next;
  }
  if (rest || n->kind != CV_N_VARIANT || !n->vseen) {
    snprintf(err, CV_ERR, "--variant %s: no such field in the input", path);
    return -1;
  }
  return 0;
}

static bool empty_group(const cv_node *n) {
  if (n->kind == CV_N_OBJECT) {
    for (int i = 0; i < n->nk; i++)
      if (!empty_group(&n->kids[i])) return false;
    return true;
  }
  return n->kind == CV_N_ARRAY && empty_group(n->elem);
}

static int indent(char **s, size_t *len, size_t *cap, int depth) {
  for (int i = 0; i < depth; i++)
    if (cv_schema_raw(s, len, cap, "  ") != 0) return -1;
  return 0;
}

static int node_schema(const cv_node *n, const char *name, int depth, char **s, size_t *len, size_t *cap) {
  if (indent(s, len, cap, depth) != 0) return -1;
  bool obj = n->kind == CV_N_OBJECT && !empty_group(n), arr = n->kind == CV_N_ARRAY && !empty_group(n);
  if (n->kind == CV_N_VARIANT) {
    if (cv_schema_raw(s, len, cap, "optional group ") != 0 || cv_schema_name(s, len, cap, name) != 0 ||
        cv_schema_raw(s, len, cap, " (VARIANT) {\n") != 0 || indent(s, len, cap, depth + 1) != 0 ||
        cv_schema_raw(s, len, cap, "required binary metadata;\n") != 0 || indent(s, len, cap, depth + 1) != 0 ||
        cv_schema_raw(s, len, cap, "required binary value;\n") != 0)
      return -1;
    return indent(s, len, cap, depth) != 0 ? -1 : cv_schema_raw(s, len, cap, "}\n");
  }
  if (!obj && !arr) {
    cv_type t = n->kind == CV_N_SCALAR ? cv_infer_result(&n->inf) : n->kind == CV_N_TEXT ? CV_T_JSON : CV_T_STRING;
    return cv_schema_append(s, len, cap, t, n->inf.frac_digits, name);
  }
  if (cv_schema_raw(s, len, cap, "optional group ") != 0 || cv_schema_name(s, len, cap, name) != 0) return -1;
  if (arr) {
    if (cv_schema_raw(s, len, cap, " (LIST) {\n") != 0 || indent(s, len, cap, depth + 1) != 0 ||
        cv_schema_raw(s, len, cap, "repeated group list {\n") != 0 ||
        node_schema(n->elem, "element", depth + 2, s, len, cap) != 0 || indent(s, len, cap, depth + 1) != 0 ||
        cv_schema_raw(s, len, cap, "}\n") != 0)
      return -1;
  } else {
    if (cv_schema_raw(s, len, cap, " {\n") != 0) return -1;
    for (int i = 0; i < n->nk; i++)
      if (!empty_group(&n->kids[i]) && node_schema(&n->kids[i], n->names[i], depth + 1, s, len, cap) != 0) return -1;
  }
  return indent(s, len, cap, depth) != 0 ? -1 : cv_schema_raw(s, len, cap, "}\n");
}

int cv_node_schema(const cv_node *n, const char *name, char **s, size_t *len, size_t *cap) {
  return node_schema(n, name, 1, s, len, cap);
}

/* ---- writing ---- */

int cv_build_init(cv_build *b, const struct ArrowSchema *f, char *err) {
  memset(b, 0, sizeof *b);
  b->name = f->name;
  b->nullable = (f->flags & ARROW_FLAG_NULLABLE) != 0;
  if (strcmp(f->format, "+s") == 0) b->kind = CV_B_STRUCT;
  else if (strcmp(f->format, "+l") == 0 && f->n_children == 1) b->kind = CV_B_LIST;
  else if (f->format[0] == '+') {
    snprintf(err, CV_ERR, "field %s: convert cannot write this nested type (Arrow layout '%s'); give a struct or list",
             f->name, f->format);
    return -1;
  } else {
    b->kind = CV_B_LEAF;
    return cv_column_init(&b->leaf, f, err);
  }
  b->nk = (int)f->n_children;
  b->kids = calloc((size_t)(b->nk ? b->nk : 1), sizeof *b->kids);
  b->seen = calloc((size_t)(b->nk ? b->nk : 1), sizeof *b->seen);
  b->kida = calloc((size_t)(b->nk ? b->nk : 1), sizeof *b->kida);
  b->kidp = calloc((size_t)(b->nk ? b->nk : 1), sizeof *b->kidp);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!b->kids || !b->seen || !b->kida || !b->kidp) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  for (int i = 0; i < b->nk; i++)
    if (cv_build_init(&b->kids[i], f->children[i], err) != 0) return -1;
  return 0;
}

void cv_build_free(cv_build *b) {
  if (b->kind == CV_B_LEAF) cv_column_free(&b->leaf);
  for (int i = 0; b->kids && i < b->nk; i++) cv_build_free(&b->kids[i]);
  free(b->kids);
  free(b->seen);
  free(b->kida);
  free(b->kidp);
  free(b->valid);
  free(b->offs);
  memset(b, 0, sizeof *b);
}

void cv_build_reset(cv_build *b) {
  if (b->kind == CV_B_LEAF) {
    cv_column_reset(&b->leaf);
    return;
  }
  b->n = b->n_null = 0;
  for (int i = 0; i < b->nk; i++) cv_build_reset(&b->kids[i]);
}

int64_t cv_build_bytes(const cv_build *b) {
  if (b->kind == CV_B_LEAF) return (int64_t)b->leaf.dlen + b->leaf.n * (b->leaf.width > 0 ? b->leaf.width : 1);
  int64_t s = b->n * 5;
  for (int i = 0; i < b->nk; i++) s += cv_build_bytes(&b->kids[i]);
  return s;
}

/* one more slot of a struct or list: validity and (lists) offsets */
static int slot(cv_build *b, bool valid) {
  if (b->n == b->cap) {
    int64_t nc = b->cap ? b->cap * 2 : 256;
    uint8_t *v = realloc(b->valid, (size_t)(nc + 7) / 8);
    if (v) b->valid = v;
    int32_t *o = realloc(b->offs, (size_t)(nc + 1) * sizeof *o);
    if (o) b->offs = o;
    if (!v || !o) return -1;
    b->cap = nc;
  }
  if (b->n == 0) b->offs[0] = 0;
  if (b->kind == CV_B_LIST) {
    int64_t len = b->kids[0].kind == CV_B_LEAF ? b->kids[0].leaf.n : b->kids[0].n;
    if (len > INT32_MAX) return -1;
    b->offs[b->n + 1] = (int32_t)len;
  }
  if (valid) b->valid[b->n >> 3] |= (uint8_t)(1u << (b->n & 7));
  else {
    b->valid[b->n >> 3] &= (uint8_t) ~(1u << (b->n & 7));
    b->n_null++;
  }
  b->n++;
  return 0;
}

/* A null; under a null struct (fill) a required field takes one too: it is
 * not written (its parent's definition level says so). */
int cv_build_null(cv_build *b, bool fill, char *err) {
  if (!b->nullable && !fill) {
    snprintf(err, CV_ERR, "null in a required field (%s)", b->name);
    return -1;
  }
  if (b->kind == CV_B_LEAF) {
    bool was = b->leaf.nullable;
    b->leaf.nullable = true;
    int rc = cv_column_append(&b->leaf, NULL, 0, CV_NULL, err);
    b->leaf.nullable = was;
    return rc;
  }
  if (b->kind == CV_B_STRUCT)
    for (int i = 0; i < b->nk; i++)
      if (cv_build_null(&b->kids[i], true, err) != 0) return -1;
  if (slot(b, false) != 0) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  return 0;
}

typedef struct wctx {
  cv_build *stack[130];
  int depth;
  cv_build *slot;
  char *err;
  /* a VARIANT group's value being rebuilt as JSON text (vb set) */
  cv_build *vb;
  cv_jtext jt;
} wctx;

/* A whole value into a VARIANT group inside a group. */
static int w_variant(wctx *c, cv_build *b, const char *p, size_t n, cv_kind k) {
  char e[CV_ERR];
  if (cv_variant_add(b, p, n, k, e) == 0) return 0;
  snprintf(c->err, CV_ERR, "field %.80s: %.160s", b->vpath, e);
  return -1;
}

/* The start of an object or array: in a VARIANT group's value, its text. */
static int w_capture(wctx *c, char bracket, int *rc) {
  if (!c->vb && c->depth && c->slot && c->slot->vpath) { /* not the group itself, being filled */
    c->vb = c->slot;
    c->jt.len = 0;
    c->jt.depth = 0;
    c->jt.comma = false;
  }
  if (!c->vb) return 0;
  *rc = 0;
  if (cv_jtext_begin(&c->jt, bracket) != 0) {
    snprintf(c->err, CV_ERR, "field %.80s: out of memory or nested too deep", c->vb->vpath);
    *rc = -1;
  }
  return 1;
}

static void w_after(wctx *c) {
  cv_build *top = c->depth ? c->stack[c->depth - 1] : NULL;
  c->slot = top && top->kind == CV_B_LIST ? &top->kids[0] : NULL;
}

static int w_begin(wctx *c, int kind, const char *what) {
  cv_build *b = c->slot;
  if (!b || b->kind != kind || c->depth == 130) {
    snprintf(c->err, CV_ERR, "a JSON %s where field %s is %s", what, b ? b->name : "?",
             !b                       ? "?"
             : b->kind == CV_B_STRUCT ? "a group"
             : b->kind == CV_B_LIST   ? "a list"
                                      : "a value");
    return -1;
  }
  c->stack[c->depth++] = b;
  b->gen++;
  c->slot = kind == CV_B_LIST ? &b->kids[0] : NULL;
  return 0;
}

static int w_begin_object(void *ctx) {
  int rc;
  return w_capture(ctx, '{', &rc) ? rc : w_begin(ctx, CV_B_STRUCT, "object");
}

static int w_begin_array(void *ctx) {
  int rc;
  return w_capture(ctx, '[', &rc) ? rc : w_begin(ctx, CV_B_LIST, "array");
}

static int w_key(void *ctx, const char *name, size_t len) {
  wctx *c = ctx;
  if (c->vb) {
    if (cv_jtext_key(&c->jt, name, len) == 0) return 0;
    snprintf(c->err, CV_ERR, "out of memory");
    return -1;
  }
  cv_build *o = c->stack[c->depth - 1];
  int hint = o->last_key + 1 < o->nk ? o->last_key + 1 : 0;
  for (int k = 0; k < o->nk; k++) {
    int i = (hint + k) % o->nk;
    if (strlen(o->kids[i].name) != len || memcmp(o->kids[i].name, name, len) != 0) continue;
    if (o->seen[i] == o->gen) {
      snprintf(c->err, CV_ERR, "key '%s' given twice in field %s", name, o->name);
      return -1;
    }
    o->seen[i] = o->gen;
    o->last_key = i;
    c->slot = &o->kids[i];
    return 0;
  }
  snprintf(c->err, CV_ERR, "key '%.100s' is not a field of group %s", name, o->name);
  return -1;
}

static int w_end(void *ctx) {
  wctx *c = ctx;
  if (c->vb) {
    if (cv_jtext_end(&c->jt) != 0) {
      snprintf(c->err, CV_ERR, "out of memory");
      return -1;
    }
    if (c->jt.depth) return 0;
    cv_build *v = c->vb;
    c->vb = NULL;
    w_after(c);
    return w_variant(c, v, c->jt.s, c->jt.len, CV_JSON_NESTED);
  }
  cv_build *b = c->stack[--c->depth];
  if (b->kind == CV_B_STRUCT)
    for (int i = 0; i < b->nk; i++)
      if (b->seen[i] != b->gen && cv_build_null(&b->kids[i], false, c->err) != 0) return -1;
  if (slot(b, true) != 0) {
    snprintf(c->err, CV_ERR, "out of memory (or a list over 2^31 values)");
    return -1;
  }
  w_after(c);
  return 0;
}

static int w_scalar(void *ctx, const char *p, size_t n, cv_kind k) {
  wctx *c = ctx;
  if (c->vb) {
    if (cv_jtext_scalar(&c->jt, p, n, k) == 0) return 0;
    snprintf(c->err, CV_ERR, "out of memory");
    return -1;
  }
  cv_build *b = c->slot;
  int rc;
  if (!b) rc = -1;
  else if (b->vpath && c->depth) rc = w_variant(c, b, p, n, k); /* JSON null: a Variant null, as for --variant COL */
  else if (k == CV_NULL) rc = cv_build_null(b, false, c->err);
  else if (b->kind != CV_B_LEAF) {
    snprintf(c->err, CV_ERR, "a JSON value where field %s is a %s", b->name, b->kind == CV_B_STRUCT ? "group" : "list");
    rc = -1;
  } else if ((rc = cv_column_append(&b->leaf, p, n, k, c->err)) != 0) {
    char m[CV_ERR];
    snprintf(m, sizeof m, "field %s: %s", b->name, c->err);
    memcpy(c->err, m, CV_ERR);
  }
  w_after(c);
  return rc;
}

static const cv_json_visitor write_visitor = {w_begin_object, w_key, w_end, w_begin_array, w_end, w_scalar};

/* A JSON string as JSON text (quoted, escaped) into a JSON-text leaf. */
static int append_json_string(cv_column *c, const char *p, size_t n, char *err) {
  char *q = malloc(n * 6 + 3);
  if (!q) {
    snprintf(err, CV_ERR, "out of memory");
    return -1;
  }
  size_t o = cv_json_quote(p, n, q);
  int rc = cv_column_append(c, q, o, CV_QUOTED, err);
  free(q);
  return rc;
}

int cv_build_add(cv_build *b, const char *p, size_t n, cv_kind k, char *err) {
  if (k == CV_NULL) return cv_build_null(b, false, err);
  if (b->kind == CV_B_LEAF && b->json_text && k == CV_QUOTED) return append_json_string(&b->leaf, p, n, err);
  if (b->kind == CV_B_LEAF) return cv_column_append(&b->leaf, p, n, k, err);
  if (k != CV_JSON_NESTED) {
    snprintf(err, CV_ERR, "cannot read '%.40s' as a %s", p,
             b->kind == CV_B_STRUCT ? "group (give a JSON object)" : "list (give a JSON array)");
    return -1;
  }
  wctx c = {{NULL}, 0, b, err, NULL, {0}};
  char jerr[CV_ERR];
  err[0] = 0;
  int rc = 0;
  if (cv_json_walk(p, n, &write_visitor, &c, jerr) != 0) {
    if (!err[0]) memcpy(err, jerr, CV_ERR);
    rc = -1;
  }
  cv_jtext_free(&c.jt);
  return rc;
}

int cv_build_mark_variant(cv_build *b, const char *rest, const char *path, char *err) {
  while (rest) {
    const char *next;
    if (b->kind == CV_B_LIST && !b->vpath && b->nk == 1 && list_element(rest, &next)) { /* the list's elements */
      b = &b->kids[0];
      rest = next;
      continue;
    }
    if (b->kind == CV_B_LIST) {
      snprintf(err, CV_ERR, "--variant %s: %.*s is a list (its elements: %.*s.list.element)", path,
               (int)(rest - path) - 1, path, (int)(rest - path) - 1, path);
      return -1;
    }
    if (b->kind != CV_B_STRUCT || b->vpath) {
      snprintf(err, CV_ERR, "--variant %s: %.*s is not a group", path, (int)(rest - path) - 1, path);
      return -1;
    }
    size_t len = path_part(rest, &next);
    int i = 0;
    while (i < b->nk && !(strlen(b->kids[i].name) == len && memcmp(b->kids[i].name, rest, len) == 0)) i++;
    if (i == b->nk) {
      snprintf(err, CV_ERR, "--variant %s: no such field", path);
      return -1;
    }
    b = &b->kids[i];
    rest = next;
  }
  bool ok = b->kind == CV_B_STRUCT && b->nk == 2 && b->kids[0].kind == CV_B_LEAF && b->kids[1].kind == CV_B_LEAF &&
            strcmp(b->kids[0].name, "metadata") == 0 && strcmp(b->kids[1].name, "value") == 0;
  if (!ok) {
    snprintf(err, CV_ERR, "--variant %s: not a VARIANT group {metadata; value}", path);
    return -1;
  }
  b->vpath = path;
  return 0;
}

static void no_release(struct ArrowArray *a) { a->release = NULL; }

void cv_build_array(cv_build *b, struct ArrowArray *out) {
  if (b->kind == CV_B_LEAF) {
    cv_column_array(&b->leaf, out);
    return;
  }
  for (int i = 0; i < b->nk; i++) {
    cv_build_array(&b->kids[i], &b->kida[i]);
    b->kidp[i] = &b->kida[i];
  }
  memset(out, 0, sizeof *out);
  out->length = b->n;
  out->null_count = b->n_null;
  b->bufs[0] = b->n_null ? b->valid : NULL;
  static const int32_t zero[1] = {0};
  b->bufs[1] = b->offs ? b->offs : zero;
  out->n_buffers = b->kind == CV_B_LIST ? 2 : 1;
  out->buffers = b->bufs;
  out->n_children = b->nk;
  out->children = b->kidp;
  out->release = no_release;
}
