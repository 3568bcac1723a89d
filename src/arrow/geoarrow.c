/*
 * arrow/geoarrow.c: GEOMETRY/GEOGRAPHY columns as the GeoArrow extension
 * type geoarrow.wkb. Export: the leaf keeps its binary storage and gets the
 * field metadata ARROW:extension:name = "geoarrow.wkb" and
 * ARROW:extension:metadata = {"crs": ..., "crs_type": ..., "edges": ...}:
 *   - crs "projjson:KEY" with KEY in the file's key-value metadata holding
 *     a JSON object: that object, crs_type "projjson";
 *   - crs "srid:N": "N", crs_type "srid";
 *   - no crs: "OGC:CRS84" (Parquet's default), crs_type "authority_code";
 *   - any other crs: the string as is (no crs_type);
 *   - GEOGRAPHY: "edges" the algorithm in lower case ("spherical" when
 *     absent); GEOMETRY: no "edges" (planar).
 * Import (the writer's Arrow schema): a binary field named geoarrow.wkb is
 * written as GEOMETRY, or GEOGRAPHY with the algorithm when its metadata
 * has "edges" other than "planar"; the crs is kept (a PROJJSON object as
 * its JSON text, which the crs field allows as an arbitrary string).
 * The metadata JSON comes from the caller: it is scanned with bounded
 * depth and every byte checked (fuzz/fuzz_geoarrow.c).
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/geoarrow.h"

#define JSON_MAX_DEPTH 64

static const char *const EDGE_NAMES[] = {"spherical", "vincenty", "thomas", "andoyer", "karney"};

/* ---- a small JSON scanner (validates; no numbers' values needed) ---- */

typedef struct jscan {
  const char *s;
  size_t n, i;
} jscan;

static void ws(jscan *j) {
  while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r')) j->i++;
}

static int hexd(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

static void put_utf8(pqt_buf *b, uint32_t cp, pqt_error *err) {
  char u[4];
  size_t k;
  if (cp < 0x80) u[0] = (char)cp, k = 1;
  else if (cp < 0x800) u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), k = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)),
    k = 3;
  else
    u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), k = 4;
  pqt_buf_append(b, u, k, err);
}

/* A string at j->i ('"'); its content unescaped into out (may be NULL). */
static bool jstring(jscan *j, pqt_buf *out, pqt_error *err) {
  if (j->i >= j->n || j->s[j->i] != '"') return false;
  j->i++;
  while (j->i < j->n) {
    unsigned char c = (unsigned char)j->s[j->i++];
    if (c == '"') return true;
    if (c < 0x20) return false;
    if (c != '\\') {
      if (out) pqt_buf_append(out, &c, 1, err);
      continue;
    }
    if (j->i >= j->n) return false;
    char e = j->s[j->i++];
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *f = strchr(from, e);
    if (e && f) {
      if (out) pqt_buf_append(out, &to[f - from], 1, err);
      continue;
    }
    if (e != 'u' || j->n - j->i < 4) return false;
    uint32_t cp = 0;
    for (int k = 0; k < 4; k++) {
      int h = hexd(j->s[j->i++]);
      if (h < 0) return false;
      cp = cp * 16 + (uint32_t)h;
    }
    if (cp >= 0xD800 && cp < 0xDC00) { /* a surrogate pair */
      if (j->n - j->i < 6 || j->s[j->i] != '\\' || j->s[j->i + 1] != 'u') return false;
      j->i += 2;
      uint32_t lo = 0;
      for (int k = 0; k < 4; k++) {
        int h = hexd(j->s[j->i++]);
        if (h < 0) return false;
        lo = lo * 16 + (uint32_t)h;
      }
      if (lo < 0xDC00 || lo > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      return false;
    }
    if (out) put_utf8(out, cp, err);
  }
  return false;
}

static bool jvalue(jscan *j, int depth);

static bool jcontainer(jscan *j, int depth, char open, char close) {
  if (depth > JSON_MAX_DEPTH) return false;
  j->i++; /* open */
  ws(j);
  if (j->i < j->n && j->s[j->i] == close) {
    j->i++;
    return true;
  }
  for (;;) {
    if (open == '{') {
      if (!jstring(j, NULL, NULL)) return false;
      ws(j);
      if (j->i >= j->n || j->s[j->i] != ':') return false;
      j->i++;
    }
    if (!jvalue(j, depth + 1)) return false;
    ws(j);
    if (j->i >= j->n) return false;
    char c = j->s[j->i++];
    if (c == close) return true;
    if (c != ',') return false;
    ws(j);
  }
}

static bool jvalue(jscan *j, int depth) {
  ws(j);
  if (j->i >= j->n) return false;
  char c = j->s[j->i];
  if (c == '{') return jcontainer(j, depth, '{', '}');
  if (c == '[') return jcontainer(j, depth, '[', ']');
  if (c == '"') return jstring(j, NULL, NULL);
  static const char *const lits[] = {"true", "false", "null"};
  for (int k = 0; k < 3; k++) {
    size_t L = strlen(lits[k]);
    if (j->n - j->i >= L && !memcmp(j->s + j->i, lits[k], L)) {
      j->i += L;
      return true;
    }
  }
  /* a number: -?digits(.digits)?([eE][+-]?digits)? */
  size_t st = j->i;
  if (j->s[j->i] == '-') j->i++;
  size_t d0 = j->i;
  while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
  if (j->i == d0) return false;
  if (j->i < j->n && j->s[j->i] == '.') {
    size_t f0 = ++j->i;
    while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
    if (j->i == f0) return false;
  }
  if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
    j->i++;
    if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-')) j->i++;
    size_t e0 = j->i;
    while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9') j->i++;
    if (j->i == e0) return false;
  }
  return j->i > st;
}

/* Is s (n bytes) exactly one JSON object? */
static bool json_is_object(const char *s, size_t n) {
  jscan j = {s, n, 0};
  ws(&j);
  if (j.i >= n || s[j.i] != '{' || !jvalue(&j, 0)) return false;
  ws(&j);
  return j.i == n;
}

pqt_status pqt_geoarrow_meta_parse(const char *json, size_t len, pqt_geoarrow_meta *out, pqt_error *err) {
  out->has_crs = out->crs_is_string = out->has_edges = 0;
  pqt_buf_clear(&out->crs);
  pqt_buf_clear(&out->edges);
  if (!json_is_object(json, len))
    return pqt_error_set(err, PQT_EINVAL, "geoarrow.wkb: ARROW:extension:metadata is not a JSON object");
  jscan j = {json, len, 0};
  ws(&j);
  j.i++; /* '{' */
  ws(&j);
  pqt_buf key;
  pqt_buf_init(&key, pqt_default_allocator());
  pqt_status st = PQT_OK;
  while (j.i < len && json[j.i] != '}') {
    pqt_buf_clear(&key);
    jstring(&j, &key, err);
    ws(&j);
    j.i++; /* ':' */
    ws(&j);
    size_t v0 = j.i;
    bool is_crs = key.len == 3 && !memcmp(key.data, "crs", 3), is_edges = key.len == 5 && !memcmp(key.data, "edges", 5);
    if ((is_crs || is_edges) && json[j.i] == '"') {
      pqt_buf *dst = is_crs ? &out->crs : &out->edges;
      pqt_buf_clear(dst);
      jstring(&j, dst, err);
      if (is_crs) out->has_crs = 1, out->crs_is_string = 1;
      else out->has_edges = 1;
    } else {
      jvalue(&j, 1);
      if (is_crs && json[v0] != 'n') { /* an object (PROJJSON) or other value: its JSON text */
        pqt_buf_clear(&out->crs);
        pqt_buf_append(&out->crs, json + v0, j.i - v0, err);
        out->has_crs = 1;
        out->crs_is_string = 0;
      } else if (is_edges && json[v0] != 'n') {
        st = pqt_error_set(err, PQT_EINVAL, "geoarrow.wkb: \"edges\" is not a string");
        break;
      }
    }
    ws(&j);
    if (j.i < len && json[j.i] == ',') j.i++;
    ws(&j);
  }
  pqt_buf_free(&key);
  if (st == PQT_OK && (pqt_buf_status(&out->crs, err) != PQT_OK || pqt_buf_status(&out->edges, err) != PQT_OK))
    st = pqt_nomem(err);
  return st;
}

/* ---- export ---- */

static pqt_status json_str(pqt_buf *b, const uint8_t *s, size_t n, pqt_error *err) {
  PQT_RETURN_NOT_OK(pqt_buf_append(b, "\"", 1, err));
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c == '"' || c == '\\') PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\\%c", c));
    else if (c < 0x20) PQT_RETURN_NOT_OK(pqt_buf_printf(b, err, "\\u%04x", c));
    else PQT_RETURN_NOT_OK(pqt_buf_append(b, &c, 1, err));
  }
  return pqt_buf_append(b, "\"", 1, err);
}

static pqt_status leaf_metadata(const pqt_schema_node *x, const pqt_list_key_value *kv, pqt_buf *out, pqt_error *err) {
  int l = pqt_union_which(x->logical.isset);
  bool geog = l == PQT_LT_GEOGRAPHY;
  const pqt_bytes *crs = geog ? &x->logical.geography.crs : &x->logical.geometry.crs;
  bool has_crs = geog ? PQT_HAS_FIELD(&x->logical.geography, geography_type, crs)
                      : PQT_HAS_FIELD(&x->logical.geometry, geometry_type, crs);
  pqt_buf j;
  pqt_buf_init(&j, pqt_default_allocator());
  pqt_status st = pqt_buf_append(&j, "{\"crs\":", 7, err);
  if (st == PQT_OK && !has_crs) {
    st = pqt_buf_printf(&j, err, "\"OGC:CRS84\",\"crs_type\":\"authority_code\"");
  } else if (st == PQT_OK) {
    const char *c = (const char *)crs->ptr;
    size_t n = (size_t)crs->len;
    const pqt_bytes *projjson = NULL;
    if (n > 9 && !memcmp(c, "projjson:", 9))
      for (int32_t i = 0; kv && i < kv->n; i++)
        if ((size_t)kv->items[i].key.len == n - 9 && !memcmp(kv->items[i].key.ptr, c + 9, n - 9) &&
            PQT_HAS_FIELD(&kv->items[i], key_value, value) &&
            json_is_object((const char *)kv->items[i].value.ptr, (size_t)kv->items[i].value.len))
          projjson = &kv->items[i].value;
    if (projjson) {
      st = pqt_buf_append(&j, projjson->ptr, (size_t)projjson->len, err);
      if (st == PQT_OK) st = pqt_buf_printf(&j, err, ",\"crs_type\":\"projjson\"");
    } else if (n > 5 && !memcmp(c, "srid:", 5)) {
      st = json_str(&j, crs->ptr + 5, n - 5, err);
      if (st == PQT_OK) st = pqt_buf_printf(&j, err, ",\"crs_type\":\"srid\"");
    } else {
      st = json_str(&j, crs->ptr, n, err);
    }
  }
  if (st == PQT_OK && geog) {
    int32_t a = PQT_HAS_FIELD(&x->logical.geography, geography_type, algorithm) ? x->logical.geography.algorithm : 0;
    const char *e = a >= 0 && a < 5 ? EDGE_NAMES[a] : NULL;
    if (!e) st = pqt_error_set(err, PQT_EUNSUPPORTED, "%s: edge algorithm %d has no GeoArrow name", x->name, (int)a);
    else st = pqt_buf_printf(&j, err, ",\"edges\":\"%s\"", e);
  }
  if (st == PQT_OK) st = pqt_buf_append(&j, "}", 1, err);
  if (st == PQT_OK) st = pqt_export_extension_metadata(out, "geoarrow.wkb", (const char *)j.data, j.len, err);
  pqt_buf_free(&j);
  return st;
}

static void collect_leaves(struct ArrowSchema *s, struct ArrowSchema **out, int64_t *n, int64_t cap, int depth) {
  if (!s || depth > 1000) return;
  if (s->n_children == 0) {
    if (*n < cap) out[*n] = s;
    (*n)++;
    return;
  }
  for (int64_t i = 0; i < s->n_children; i++) collect_leaves(s->children[i], out, n, cap, depth + 1);
}

pqt_status pqt_geoarrow_annotate(const pqt_schema *s, const uint8_t *selected, const pqt_list_key_value *kv,
                                 struct ArrowSchema *root, pqt_error *err) {
  int32_t n_sel = 0, any_geo = 0;
  for (int32_t i = 0; i < s->n_leaves; i++) {
    if (selected && !selected[i]) continue;
    n_sel++;
    int l = pqt_union_which(s->leaves[i]->logical.isset);
    any_geo |= s->leaves[i]->physical_type == PQT_BYTE_ARRAY && (l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY);
  }
  if (!any_geo) return PQT_OK;
  struct ArrowSchema **leaves = calloc((size_t)n_sel + 1, sizeof *leaves);  // NOLINT(bugprone-sizeof-expression): T **, sizeof *p is one pointer
  if (!leaves) return pqt_nomem(err);
  int64_t n = 0;
  collect_leaves(root, leaves, &n, n_sel, 0);
  pqt_status st = PQT_OK;
  if (n != n_sel)
    st = pqt_error_set(err, PQT_EINVAL, "geoarrow: %lld exported leaves for %d columns", (long long)n, n_sel);
  pqt_buf md;
  pqt_buf_init(&md, pqt_default_allocator());
  for (int32_t i = 0, k = 0; st == PQT_OK && i < s->n_leaves; i++) {
    if (selected && !selected[i]) continue;
    const pqt_schema_node *x = s->leaves[i];
    struct ArrowSchema *a = leaves[k++];
    int l = pqt_union_which(x->logical.isset);
    if (x->physical_type != PQT_BYTE_ARRAY || (l != PQT_LT_GEOMETRY && l != PQT_LT_GEOGRAPHY)) continue;
    pqt_buf_clear(&md);
    st = leaf_metadata(x, kv, &md, err);
    if (st == PQT_OK) st = pqt_export_schema_set_metadata(a, (const char *)md.data, md.len, err);
  }
  pqt_buf_free(&md);
  free(leaves);
  return st;
}

/* ---- import ---- */

/* The value of key in Arrow's binary metadata (NULL when absent or malformed). */
static const char *md_lookup(const char *md, const char *key, int32_t *vlen) {
  if (!md) return NULL;
  int32_t n;
  memcpy(&n, md, 4);
  const char *p = md + 4;
  size_t kl = strlen(key);
  for (int32_t i = 0; i < n && i < 100000; i++) {
    int32_t a, b;
    memcpy(&a, p, 4);
    if (a < 0) return NULL;
    const char *k = p + 4;
    memcpy(&b, k + a, 4);
    if (b < 0) return NULL;
    const char *v = k + a + 4;
    if ((size_t)a == kl && !memcmp(k, key, kl)) {
      *vlen = b;
      return v;
    }
    p = v + b;
  }
  return NULL;
}

pqt_status pqt_geoarrow_import(const struct ArrowSchema *field, pqt_arena *arena, pqt_logical_type *lt, int *is_geo,
                               pqt_error *err) {
  *is_geo = 0;
  int32_t nl = 0, ml = 0;
  const char *name = md_lookup(field->metadata, "ARROW:extension:name", &nl);
  if (!name || nl != 12 || memcmp(name, "geoarrow.wkb", 12) != 0) return PQT_OK;
  const char *meta = md_lookup(field->metadata, "ARROW:extension:metadata", &ml);
  const char *fname = field->name ? field->name : "";
  pqt_geoarrow_meta m;
  pqt_buf_init(&m.crs, pqt_default_allocator());
  pqt_buf_init(&m.edges, pqt_default_allocator());
  pqt_status st = PQT_OK;
  if (meta && ml > 0) {
    pqt_error e2;
    st = pqt_geoarrow_meta_parse(meta, (size_t)ml, &m, &e2);
    if (st != PQT_OK) st = pqt_error_set(err, st, "%s: %s", fname, e2.message);
  } else {
    m.has_crs = m.has_edges = 0;
  }
  int32_t algorithm = -1; /* -1: GEOMETRY */
  if (st == PQT_OK && m.has_edges && !(m.edges.len == 6 && !memcmp(m.edges.data, "planar", 6))) {
    for (int32_t k = 0; k < 5; k++)
      if (m.edges.len == strlen(EDGE_NAMES[k]) && !memcmp(m.edges.data, EDGE_NAMES[k], m.edges.len)) algorithm = k;
    if (algorithm < 0)
      st = pqt_error_set(err, PQT_EINVAL,
                         "%s: geoarrow.wkb edges \"%.*s\" (planar, spherical, vincenty, thomas, "
                         "andoyer or karney)",
                         fname, (int)(m.edges.len > 40 ? 40 : m.edges.len), (const char *)m.edges.data);
  }
  char *crs = NULL;
  if (st == PQT_OK && m.has_crs) {
    crs = pqt_arena_strdup(arena, m.crs.data ? (const char *)m.crs.data : "", m.crs.len);
    if (!crs) st = pqt_nomem(err);
  }
  if (st == PQT_OK) {
    memset(lt, 0, sizeof *lt);
    if (algorithm < 0) {
      lt->isset = 1u << PQT_LT_GEOMETRY;
      if (crs) {
        lt->geometry.crs = (pqt_bytes){(const uint8_t *)crs, (int64_t)m.crs.len};
        PQT_SET_FIELD(&lt->geometry, geometry_type, crs);
      }
    } else {
      lt->isset = 1u << PQT_LT_GEOGRAPHY;
      if (crs) {
        lt->geography.crs = (pqt_bytes){(const uint8_t *)crs, (int64_t)m.crs.len};
        PQT_SET_FIELD(&lt->geography, geography_type, crs);
      }
      lt->geography.algorithm = algorithm;
      PQT_SET_FIELD(&lt->geography, geography_type, algorithm);
    }
    *is_geo = 1;
  }
  pqt_buf_free(&m.crs);
  pqt_buf_free(&m.edges);
  return st;
}
