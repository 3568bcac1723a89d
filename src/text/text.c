/*
 * text/text.c: one row of an array tree as canonical JSON (the
 * `parquetry cat` form, see meta/value_format.h) or as a CSV cell.
 * Leaves are formatted from their Parquet physical layout, so nothing is
 * lost to an in-memory type (INT96 beyond the nanosecond range, unsigned
 * 64-bit integers, decimals of any precision). GEOMETRY and GEOGRAPHY
 * values are printed as WKT strings (geo/ is below text/, above meta/, so
 * the WKT call is made here rather than in meta/value_format.c); a value
 * that is not valid WKB keeps the plain binary form (base64) instead of
 * failing the output.
 */
#include "text/text.h"

#include "column/column_reader.h"
#include "meta/value_format.h"
#include "parquetry_geo.h"
#include "variant/variant.h"

/* A GEOMETRY/GEOGRAPHY value as a JSON string of its WKT; *done false (and
 * nothing appended) when the bytes are not valid WKB. */
static pqt_status geo_json(const uint8_t *p, size_t n, pqt_buf *out, bool *done, pqt_error *err) {
  *done = false;
  pqt_string wkt = {0};
  pqt_error e;
  pqt_error_init(&e);
  pqt_status st = pqt_wkb_to_wkt(n ? p : (const uint8_t *)"", n, out->alloc, &wkt, &e);
  if (st == PQT_ENOMEM) {
    if (err) *err = e;
    return st;
  }
  if (st != PQT_OK) return PQT_OK; /* not WKB: printed as binary by the caller */
  st = pqt_json_string_append(out, (const uint8_t *)wkt.data, wkt.len, err);
  pqt_string_free(&wkt);
  *done = st == PQT_OK;
  return st;
}

static pqt_status leaf_json(const pqt_array *a, int64_t i, pqt_buf *out, pqt_error *err) {
  const pqt_schema_node *leaf = a->node;
  pqt_value_type vt;
  pqt_value_type_from_leaf(&vt, leaf);
  int32_t t = leaf->physical_type;
  if (t == PQT_BYTE_ARRAY) {
    const int32_t *off = (const int32_t *)(const void *)a->offsets->data;
    int l = pqt_union_which(leaf->logical.isset);
    if (l == PQT_LT_GEOMETRY || l == PQT_LT_GEOGRAPHY) {
      bool done;
      PQT_RETURN_NOT_OK(geo_json(a->values->data + off[i], (size_t)(off[i + 1] - off[i]), out, &done, err));
      if (done) return PQT_OK;
    }
    return pqt_format_value(&vt, a->values->data + off[i], (size_t)(off[i + 1] - off[i]), out, err);
  }
  if (t == PQT_BOOLEAN) {
    uint8_t b = pqt_bit_get(a->values->data, i);
    return pqt_format_value(&vt, &b, 1, out, err);
  }
  size_t w = pqt_physical_width(t, leaf->type_length);
  return pqt_format_value(&vt, a->values->data + (size_t)i * w, w, out, err);
}

/* A reconstructed VARIANT (arrow/variant_arrow.c: struct<metadata, value>)
 * as the JSON of its value; *done false for any other array. */
static pqt_status variant_json(const pqt_array *a, int64_t i, pqt_buf *out, bool *done, pqt_error *err) {
  *done = false;
  if (a->kind != PQT_ARRAY_STRUCT || !a->node || !a->node->variant_rebuild || a->n_children != 2) return PQT_OK;
  const pqt_array *m = a->children[0], *v = a->children[1];
  if (m->kind != PQT_ARRAY_LEAF || v->kind != PQT_ARRAY_LEAF || !m->offsets || !v->offsets ||
      strcmp(m->name, "metadata") != 0 || strcmp(v->name, "value") != 0)
    return PQT_OK;
  const int32_t *mo = (const int32_t *)(const void *)m->offsets->data;
  const int32_t *vo = (const int32_t *)(const void *)v->offsets->data;
  pqt_variant x = {.metadata = m->values ? m->values->data + mo[i] : NULL,
                   .metadata_len = (size_t)(mo[i + 1] - mo[i]),
                   .value = v->values ? v->values->data + vo[i] : NULL,
                   .value_len = (size_t)(vo[i + 1] - vo[i])};
  if (!x.metadata || !x.value) return PQT_OK;
  *done = true;
  return pqt_variant_json_append(&x, out, err);
}

pqt_status pqt_array_row_json(const pqt_array *a, int64_t i, pqt_buf *out, pqt_error *err) {
  if (!pqt_array_is_valid(a, i)) return pqt_buf_append(out, "null", 4, err);
  bool done;
  PQT_RETURN_NOT_OK(variant_json(a, i, out, &done, err));
  if (done) return PQT_OK;
  switch (a->kind) {
    case PQT_ARRAY_LEAF: return leaf_json(a, i, out, err);
    case PQT_ARRAY_STRUCT:
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "{", 1, err));
      for (int32_t k = 0; k < a->n_children; k++) {
        if (k) PQT_RETURN_NOT_OK(pqt_buf_append(out, ",", 1, err));
        const char *name = a->children[k]->name;
        PQT_RETURN_NOT_OK(pqt_json_string_append(out, (const uint8_t *)name, strlen(name), err));
        PQT_RETURN_NOT_OK(pqt_buf_append(out, ":", 1, err));
        PQT_RETURN_NOT_OK(pqt_array_row_json(a->children[k], i, out, err));
      }
      return pqt_buf_append(out, "}", 1, err);
    case PQT_ARRAY_LIST: {
      const int32_t *off = (const int32_t *)(const void *)a->offsets->data;
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "[", 1, err));
      for (int32_t j = off[i]; j < off[i + 1]; j++) {
        if (j > off[i]) PQT_RETURN_NOT_OK(pqt_buf_append(out, ",", 1, err));
        PQT_RETURN_NOT_OK(pqt_array_row_json(a->children[0], j, out, err));
      }
      return pqt_buf_append(out, "]", 1, err);
    }
    case PQT_ARRAY_MAP: {
      const int32_t *off = (const int32_t *)(const void *)a->offsets->data;
      const pqt_array *kv = a->children[0];
      PQT_RETURN_NOT_OK(pqt_buf_append(out, "[", 1, err));
      for (int32_t j = off[i]; j < off[i + 1]; j++) {
        if (j > off[i]) PQT_RETURN_NOT_OK(pqt_buf_append(out, ",", 1, err));
        PQT_RETURN_NOT_OK(pqt_buf_append(out, "{\"key\":", 7, err));
        if (kv->n_children >= 1) PQT_RETURN_NOT_OK(pqt_array_row_json(kv->children[0], j, out, err));
        else PQT_RETURN_NOT_OK(pqt_buf_append(out, "null", 4, err));
        PQT_RETURN_NOT_OK(pqt_buf_append(out, ",\"value\":", 9, err));
        if (kv->n_children >= 2) PQT_RETURN_NOT_OK(pqt_array_row_json(kv->children[1], j, out, err));
        else PQT_RETURN_NOT_OK(pqt_buf_append(out, "null", 4, err));
        PQT_RETURN_NOT_OK(pqt_buf_append(out, "}", 1, err));
      }
      return pqt_buf_append(out, "]", 1, err);
    }
  }
  return pqt_error_set(err, PQT_EINVAL, "unknown array kind");
}

pqt_status pqt_array_row_csv(const pqt_array *a, int64_t i, pqt_buf *out, pqt_error *err) {
  if (!pqt_array_is_valid(a, i)) return PQT_OK; /* empty cell */
  size_t mark = out->len;
  PQT_RETURN_NOT_OK(pqt_array_row_json(a, i, out, err));
  /* A JSON string leaf becomes its raw text; anything else stays JSON.
   * Cells with a comma, quote or newline are quoted, quotes doubled. */
  pqt_buf cell;
  pqt_buf_init(&cell, out->alloc);
  const uint8_t *p = out->data + mark;
  size_t n = out->len - mark;
  pqt_status st = PQT_OK;
  bool is_str = a->kind == PQT_ARRAY_LEAF && n >= 2 && p[0] == '"' && p[n - 1] == '"';
  if (is_str) {
    for (size_t k = 1; k + 1 < n && st == PQT_OK; k++) {
      uint8_t ch = p[k];
      if (ch == '\\' && k + 2 < n) {
        uint8_t e = p[++k];
        char c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : (char)e;
        if (e == 'u' && k + 4 < n) { /* keep \\uXXXX escapes of control bytes as they are */
          st = pqt_buf_append(&cell, "\\u", 2, err);
          continue;
        }
        st = pqt_buf_append(&cell, &c, 1, err);
      } else {
        st = pqt_buf_append(&cell, &ch, 1, err);
      }
    }
  } else {
    st = pqt_buf_append(&cell, p, n, err);
  }
  out->len = mark;
  if (st == PQT_OK) st = pqt_csv_cell(out, (const char *)cell.data, cell.len, err);
  pqt_buf_free(&cell);
  return st;
}

pqt_status pqt_csv_cell(pqt_buf *out, const char *s, size_t n, pqt_error *err) {
  bool quote = false;
  for (size_t k = 0; k < n && !quote; k++) quote = s[k] == ',' || s[k] == '"' || s[k] == '\n' || s[k] == '\r';
  if (!quote) return pqt_buf_append(out, s, n, err);
  pqt_status st = pqt_buf_append(out, "\"", 1, err);
  for (size_t k = 0; k < n && st == PQT_OK; k++)
    st = s[k] == '"' ? pqt_buf_append(out, "\"\"", 2, err) : pqt_buf_append(out, s + k, 1, err);
  return st == PQT_OK ? pqt_buf_append(out, "\"", 1, err) : st;
}
