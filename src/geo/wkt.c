/* geo/wkt.c: WKB -> WKT text (a WKB walk visitor) and WKT text -> ISO WKB
 * (recursive descent, little-endian output). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "geo/wkb.h"
#include "meta/value_format.h"

static const char *const k_names[] = {"",           "POINT",           "LINESTRING",   "POLYGON",
                                      "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
static const char *const k_dims[] = {"", " Z", " M", " ZM"};

/* ---- WKB -> WKT ---------------------------------------------------- */

typedef struct wkt_out {
  pqt_buf *b;
  uint32_t dims;
} wkt_out;

static void put_num(pqt_buf *b, double d) {
  if (isnan(d)) pqt_buf_append(b, "NaN", 3, NULL);
  else if (isinf(d)) pqt_buf_append(b, d < 0 ? "-Infinity" : "Infinity", d < 0 ? 9 : 8, NULL);
  else pqt_format_double(d, b, NULL);
}

/* A part of a Multi* is written without its type name. */
static int is_bare_part(const pqt_wkb_geom *parent) {
  return parent && parent->type >= PQT_GEO_MULTIPOINT && parent->type <= PQT_GEO_MULTIPOLYGON;
}

static pqt_status wkt_geom_begin(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, uint32_t index,
                                 int depth, pqt_error *err) {
  (void)depth, (void)err;
  wkt_out *o = ctx;
  o->dims = g->dims;
  if (index > 0) pqt_buf_append(o->b, ", ", 2, NULL);
  if (is_bare_part(parent)) {
    pqt_buf_append(o->b, g->count ? "(" : "EMPTY", g->count ? 1 : 5, NULL);
    return PQT_OK;
  }
  pqt_buf_printf(o->b, NULL, "%s%s%s", k_names[g->type], k_dims[g->dims], g->count ? " (" : " EMPTY");
  return PQT_OK;
}

static pqt_status wkt_geom_end(void *ctx, const pqt_wkb_geom *g, const pqt_wkb_geom *parent, int depth,
                               pqt_error *err) {
  (void)parent, (void)depth, (void)err;
  wkt_out *o = ctx;
  if (g->count) pqt_buf_append(o->b, ")", 1, NULL);
  return PQT_OK;
}

static pqt_status wkt_ring_begin(void *ctx, uint32_t index, uint32_t np, pqt_error *err) {
  (void)err;
  wkt_out *o = ctx;
  if (index > 0) pqt_buf_append(o->b, ", ", 2, NULL);
  pqt_buf_append(o->b, np ? "(" : "EMPTY", np ? 1 : 5, NULL);
  return PQT_OK;
}

static pqt_status wkt_ring_end(void *ctx, uint32_t np, pqt_error *err) {
  (void)err;
  wkt_out *o = ctx;
  if (np) pqt_buf_append(o->b, ")", 1, NULL);
  return PQT_OK;
}

static pqt_status wkt_coord(void *ctx, const double xyzm[4], uint32_t index, pqt_error *err) {
  (void)err;
  wkt_out *o = ctx;
  if (index > 0) pqt_buf_append(o->b, ", ", 2, NULL);
  put_num(o->b, xyzm[0]);
  pqt_buf_append(o->b, " ", 1, NULL);
  put_num(o->b, xyzm[1]);
  if (pqt_geo_dims_has_z(o->dims)) {
    pqt_buf_append(o->b, " ", 1, NULL);
    put_num(o->b, xyzm[2]);
  }
  if (pqt_geo_dims_has_m(o->dims)) {
    pqt_buf_append(o->b, " ", 1, NULL);
    put_num(o->b, xyzm[3]);
  }
  return PQT_OK;
}

PQT_API pqt_status pqt_wkb_to_wkt(const uint8_t *wkb, size_t len, const pqt_allocator *alloc, pqt_string *out,
                                  pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_wkb_to_wkt: NULL out");
  out->data = NULL;
  out->len = out->cap = 0;
  out->alloc = pqt_alloc_or_default(alloc);
  pqt_buf b;
  pqt_buf_init(&b, out->alloc);
  wkt_out o = {&b, 0};
  pqt_wkb_visitor v = {&o, wkt_geom_begin, wkt_geom_end, wkt_ring_begin, wkt_ring_end, wkt_coord};
  pqt_status st = pqt_wkb_walk(wkb, len, &v, err);
  if (st != PQT_OK) {
    pqt_buf_free(&b);
    return st;
  }
  return pqt_buf_to_string(&b, out, err);
}

/* ---- WKT -> WKB ---------------------------------------------------- */

typedef struct wkt_in {
  const char *s;
  size_t len, pos;
  pqt_buf *b;
  pqt_error *err;
} wkt_in;

static pqt_status syntax(wkt_in *in, const char *what) {
  if (in->pos >= in->len)
    return pqt_error_set(in->err, PQT_EINVAL, "WKT: %s at character %zu (end of text)", what, in->pos);
  return pqt_error_set(in->err, PQT_EINVAL, "WKT: %s at character %zu ('%c')", what, in->pos,
                       (in->s[in->pos] >= 0x20 && in->s[in->pos] < 0x7f) ? in->s[in->pos] : '?');
}

static void skip_ws(wkt_in *in) {
  while (in->pos < in->len &&
         (in->s[in->pos] == ' ' || in->s[in->pos] == '\t' || in->s[in->pos] == '\n' || in->s[in->pos] == '\r'))
    in->pos++;
}

static int is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* The next word (letters) without consuming it; its length. */
static size_t peek_word(wkt_in *in) {
  skip_ws(in);
  size_t n = 0;
  while (in->pos + n < in->len && is_alpha(in->s[in->pos + n])) n++;
  return n;
}

static int word_is(wkt_in *in, size_t n, const char *w) {
  size_t wl = strlen(w);
  if (n != wl) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = in->s[in->pos + i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 32);
    if (c != w[i]) return 0;
  }
  return 1;
}

static int accept_char(wkt_in *in, char c) {
  skip_ws(in);
  if (in->pos < in->len && in->s[in->pos] == c) {
    in->pos++;
    return 1;
  }
  return 0;
}

static int accept_word(wkt_in *in, const char *w) {
  size_t n = peek_word(in);
  if (word_is(in, n, w)) {
    in->pos += n;
    return 1;
  }
  return 0;
}

static pqt_status expect_char(wkt_in *in, char c) {
  if (accept_char(in, c)) return PQT_OK;
  char what[24];
  snprintf(what, sizeof what, "'%c' expected", c);
  return syntax(in, what);
}

static pqt_status number(wkt_in *in, double *out) {
  skip_ws(in);
  size_t start = in->pos, n = peek_word(in);
  if (n) {
    if (word_is(in, n, "NAN")) *out = NAN;
    else if (word_is(in, n, "INF") || word_is(in, n, "INFINITY")) *out = INFINITY;
    else return syntax(in, "number expected");
    in->pos += n;
    return PQT_OK;
  }
  size_t i = in->pos;
  int neg = 0;
  if (i < in->len && (in->s[i] == '+' || in->s[i] == '-')) neg = in->s[i++] == '-';
  if (i < in->len && is_alpha(in->s[i])) {
    size_t save = in->pos;
    in->pos = i;
    size_t wn = peek_word(in);
    if (word_is(in, wn, "INF") || word_is(in, wn, "INFINITY") || word_is(in, wn, "NAN")) {
      *out = word_is(in, wn, "NAN") ? NAN : (neg ? -INFINITY : INFINITY);
      in->pos += wn;
      return PQT_OK;
    }
    in->pos = save;
    return syntax(in, "number expected");
  }
  size_t digits = 0;
  while (i < in->len && in->s[i] >= '0' && in->s[i] <= '9') i++, digits++;
  if (i < in->len && in->s[i] == '.') {
    i++;
    while (i < in->len && in->s[i] >= '0' && in->s[i] <= '9') i++, digits++;
  }
  if (!digits) return syntax(in, "number expected");
  if (i < in->len && (in->s[i] == 'e' || in->s[i] == 'E')) {
    size_t j = i + 1, ed = 0;
    if (j < in->len && (in->s[j] == '+' || in->s[j] == '-')) j++;
    while (j < in->len && in->s[j] >= '0' && in->s[j] <= '9') j++, ed++;
    if (!ed) {
      in->pos = j;
      return syntax(in, "exponent digits expected");
    }
    i = j;
  }
  char tmp[128];
  if (i - start >= sizeof tmp) return syntax(in, "number longer than 127 characters");
  memcpy(tmp, in->s + start, i - start);
  tmp[i - start] = 0;
  *out = strtod(tmp, NULL);
  in->pos = i;
  return PQT_OK;
}

static void put_u32(pqt_buf *b, uint32_t v) {
  uint8_t t[4];
  pqt_store_u32le(t, v);
  pqt_buf_append(b, t, 4, NULL);
}

static void put_f64(pqt_buf *b, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  uint8_t t[8];
  pqt_store_u64le(t, u);
  pqt_buf_append(b, t, 8, NULL);
}

static void patch_u32(pqt_buf *b, size_t at, uint32_t v) {
  if (b->status == PQT_OK && at + 4 <= b->len) pqt_store_u32le(b->data + at, v);
}

static int ndims(uint32_t d) { return 2 + pqt_geo_dims_has_z(d) + pqt_geo_dims_has_m(d); }

static pqt_status coord(wkt_in *in, uint32_t dims) {
  for (int k = 0; k < ndims(dims); k++) {
    double d = 0;
    PQT_RETURN_NOT_OK(number(in, &d));
    put_f64(in->b, d);
  }
  return PQT_OK;
}

/* "(item, item, ...)" or "EMPTY": a count, then the items. */
static pqt_status counted_list(wkt_in *in, uint32_t dims, pqt_status (*item)(wkt_in *, uint32_t),
                               const char *too_many) {
  size_t at = in->b->len;
  put_u32(in->b, 0);
  if (accept_word(in, "EMPTY")) return PQT_OK;
  PQT_RETURN_NOT_OK(expect_char(in, '('));
  uint32_t n = 0;
  do {
    if (n == UINT32_MAX) return syntax(in, too_many);
    PQT_RETURN_NOT_OK(item(in, dims));
    n++;
  } while (accept_char(in, ','));
  PQT_RETURN_NOT_OK(expect_char(in, ')'));
  patch_u32(in->b, at, n);
  return PQT_OK;
}

/* "(x y, x y, ...)" or "EMPTY": a count and the coordinates. */
static pqt_status point_list(wkt_in *in, uint32_t dims) { return counted_list(in, dims, coord, "too many points"); }

static void header(pqt_buf *b, uint32_t type, uint32_t dims) {
  pqt_buf_append(b, "\x01", 1, NULL);
  put_u32(b, dims * 1000u + type);
}

/* Body of a point: "(x y)" or "EMPTY" (NaN coordinates). */
static pqt_status point_body(wkt_in *in, uint32_t dims) {
  if (accept_word(in, "EMPTY")) {
    for (int k = 0; k < ndims(dims); k++) put_f64(in->b, NAN);
    return PQT_OK;
  }
  PQT_RETURN_NOT_OK(expect_char(in, '('));
  PQT_RETURN_NOT_OK(coord(in, dims));
  return expect_char(in, ')');
}

static pqt_status polygon_body(wkt_in *in, uint32_t dims) {
  return counted_list(in, dims, point_list, "too many rings");
}

static pqt_status tagged(wkt_in *in, int depth, int want_dims, uint32_t *dims_out);

/* Body of type t (after its name and dimensions) at nesting depth. */
static pqt_status body(wkt_in *in, uint32_t t, uint32_t dims, int depth) {
  switch (t) {
    case PQT_GEO_POINT: return point_body(in, dims);
    case PQT_GEO_LINESTRING: return point_list(in, dims);
    case PQT_GEO_POLYGON: return polygon_body(in, dims);
    default: break;
  }
  size_t at = in->b->len;
  put_u32(in->b, 0);
  if (accept_word(in, "EMPTY")) return PQT_OK;
  PQT_RETURN_NOT_OK(expect_char(in, '('));
  if (depth + 1 >= PQT_GEO_MAX_DEPTH) return syntax(in, "geometries nested too deeply");
  uint32_t n = 0;
  do {
    if (n == UINT32_MAX) return syntax(in, "too many parts");
    if (t == PQT_GEO_GEOMETRYCOLLECTION) {
      PQT_RETURN_NOT_OK(tagged(in, depth + 1, (int)dims, NULL));
    } else {
      uint32_t pt = t - 3;
      header(in->b, pt, dims);
      if (pt == PQT_GEO_POINT) {
        /* MULTIPOINT ((1 2), (3 4)), also the bare MULTIPOINT (1 2, 3 4) */
        skip_ws(in);
        if (in->pos < in->len && in->s[in->pos] != '(' && !is_alpha(in->s[in->pos])) {
          PQT_RETURN_NOT_OK(coord(in, dims));
        } else {
          PQT_RETURN_NOT_OK(point_body(in, dims));
        }
      } else {
        PQT_RETURN_NOT_OK(body(in, pt, dims, depth + 1));
      }
    }
    n++;
  } while (accept_char(in, ','));
  PQT_RETURN_NOT_OK(expect_char(in, ')'));
  patch_u32(in->b, at, n);
  return PQT_OK;
}

/* "NAME [Z|M|ZM] body"; want_dims >= 0 requires those dimensions (parts of
 * a collection; a part without a Z/M tag takes them, as XY text cannot say). */
static pqt_status tagged(wkt_in *in, int depth, int want_dims, uint32_t *dims_out) {
  if (depth >= PQT_GEO_MAX_DEPTH) return syntax(in, "geometries nested too deeply");
  size_t n = peek_word(in);
  uint32_t t = 0;
  for (uint32_t i = 1; i <= 7; i++)
    if (word_is(in, n, k_names[i])) t = i;
  if (!t) return syntax(in, "geometry type expected");
  size_t name_at = in->pos;
  in->pos += n;
  int dims = -1;
  n = peek_word(in);
  if (word_is(in, n, "Z")) dims = PQT_GEO_XYZ;
  else if (word_is(in, n, "M")) dims = PQT_GEO_XYM;
  else if (word_is(in, n, "ZM")) dims = PQT_GEO_XYZM;
  if (dims >= 0) in->pos += n;
  if (dims < 0) dims = want_dims >= 0 ? want_dims : PQT_GEO_XY;
  if (want_dims >= 0 && dims != want_dims) {
    in->pos = name_at;
    return syntax(in, "part with other dimensions than its collection");
  }
  header(in->b, t, (uint32_t)dims);
  if (dims_out) *dims_out = (uint32_t)dims;
  return body(in, t, (uint32_t)dims, depth);
}

PQT_API void pqt_wkb_buffer_free(pqt_wkb_buffer *b) {
  if (!b || !b->data) return;
  pqt_mem_free(b->alloc, b->data, b->cap);
  b->data = NULL;
  b->len = b->cap = 0;
}

PQT_API pqt_status pqt_wkt_to_wkb(const char *wkt, size_t len, const pqt_allocator *alloc, pqt_wkb_buffer *out,
                                  pqt_error *err) {
  if (!out) return pqt_error_set(err, PQT_EINVAL, "pqt_wkt_to_wkb: NULL out");
  out->data = NULL;
  out->len = out->cap = 0;
  out->alloc = pqt_alloc_or_default(alloc);
  if (!wkt && len) return pqt_error_set(err, PQT_EINVAL, "pqt_wkt_to_wkb: NULL text");
  pqt_buf b;
  pqt_buf_init(&b, out->alloc);
  wkt_in in = {wkt, len, 0, &b, err};
  pqt_status st = tagged(&in, 0, -1, NULL);
  if (st == PQT_OK) {
    skip_ws(&in);
    if (in.pos != in.len) st = syntax(&in, "end of text expected");
  }
  if (st == PQT_OK) st = pqt_buf_status(&b, err);
  if (st != PQT_OK || !b.data) {
    pqt_buf_free(&b);
    return st != PQT_OK ? st : pqt_nomem(err);
  }
  out->data = b.data;
  out->len = b.len;
  out->cap = b.cap;
  out->alloc = b.alloc;
  return PQT_OK;
}
