/* libFuzzer target for the reconstruction of shredded Variants
 * (src/variant/variant_shred_read.c). The input chooses a shredding tree
 * (value and typed_value columns, every typed_value type, objects with
 * fields a..d, arrays, nesting) and fills its columns: validity bits,
 * arbitrary value bytes (untrusted Variant values, possibly invalid),
 * fixed-width values, list lengths; byte 0's top bit chooses the metadata
 * (a valid sorted dictionary {a, b, c, d} or bytes from the input). Every
 * row is reconstructed: it succeeds with a value that validates and prints
 * as JSON, or fails with a message. Offsets and lengths are consistent, as
 * the array assembly guarantees them. */
#include <stdlib.h>
#include <string.h>

#include "parquetry.h"
#include "parquetry_variant.h"
#include "variant/variant_shred.h"

typedef struct vs_fz {
  const uint8_t *p;
  size_t n;
  void *allocs[4096];
  int n_allocs;
} vs_fz;

static uint8_t vs_take(vs_fz *f) {
  if (!f->n) return 0;
  f->n--;
  return *f->p++;
}

static void *vs_alloc(vs_fz *f, size_t n) {
  if (f->n_allocs >= (int)(sizeof f->allocs / sizeof *f->allocs)) return NULL;
  void *p = calloc(1, n ? n : 1);
  if (p) f->allocs[f->n_allocs++] = p;
  return p;
}

static uint8_t *vs_bits(vs_fz *f, int64_t rows) {
  uint8_t *b = vs_alloc(f, (size_t)(rows + 7) / 8);
  if (!b) return NULL;
  uint8_t mode = vs_take(f) % 3; /* all valid, all null, mixed */
  for (int64_t i = 0; i < rows; i++) {
    bool v = mode == 0 ? true : mode == 1 ? false : (vs_take(f) & 1);
    if (v) b[i >> 3] |= (uint8_t)(1u << (i & 7));
  }
  return b;
}

/* A byte-array column of `rows` slots (value columns, strings, binary). */
static bool vs_bytes_col(vs_fz *f, pqt_vshred_col *c, int64_t rows) {
  int32_t *off = vs_alloc(f, sizeof(int32_t) * (size_t)(rows + 1));
  uint8_t *data = vs_alloc(f, 64 * (size_t)rows);
  if (!off || !data) return false;
  for (int64_t i = 0; i < rows; i++) {
    uint8_t len = vs_take(f) % 24;
    for (uint8_t k = 0; k < len; k++) data[off[i] + k] = vs_take(f);
    off[i + 1] = off[i] + len;
  }
  c->offsets = off;
  c->values = data;
  return true;
}

static const char *const vs_names[] = {"a", "b", "c", "d"};

static bool vs_gen_pair(vs_fz *f, pqt_vshred_pair *p, int64_t rows, int depth);

static bool vs_gen_typed(vs_fz *f, pqt_vshred_col *c, int64_t rows, int depth) {
  c->path = "v.typed_value";
  c->validity = vs_bits(f, rows);
  uint8_t t = vs_take(f) % (PQT_VSHRED_UNSUPPORTED + 1);
  if (t == 0 || (depth > 4 && (t == PQT_VSHRED_OBJECT || t == PQT_VSHRED_ARRAY))) t = PQT_VSHRED_INT64;
  c->type = (pqt_vshred_type)t;
  c->type_name = "fuzzed";
  c->scale = vs_take(f) % 40;
  switch (c->type) {
    case PQT_VSHRED_BINARY:
    case PQT_VSHRED_STRING:
    case PQT_VSHRED_DECIMAL16_BYTES: return vs_bytes_col(f, c, rows);
    case PQT_VSHRED_OBJECT: {
      int32_t n = vs_take(f) % 5;
      pqt_vshred_pair *fields = vs_alloc(f, sizeof *fields * (size_t)(n ? n : 1));
      if (!fields) return false;
      for (int32_t k = 0; k < n; k++) {
        fields[k].name = vs_names[vs_take(f) % 4];
        fields[k].name_len = 1;
        if (!vs_gen_pair(f, &fields[k], rows, depth + 1)) return false;
      }
      c->fields = fields;
      c->n_fields = n;
      return true;
    }
    case PQT_VSHRED_ARRAY: {
      int32_t *off = vs_alloc(f, sizeof(int32_t) * (size_t)(rows + 1));
      if (!off) return false;
      for (int64_t i = 0; i < rows; i++) off[i + 1] = off[i] + vs_take(f) % 4;
      c->offsets = off;
      pqt_vshred_pair *el = vs_alloc(f, sizeof *el);
      if (!el) return false;
      el->name = "";
      if (!vs_gen_pair(f, el, off[rows], depth + 1)) return false;
      c->fields = el;
      c->n_fields = 1;
      return true;
    }
    default: {
      c->width = 1 + vs_take(f) % 16;
      size_t w = 16; /* room for every fixed width */
      uint8_t *v = vs_alloc(f, w * (size_t)(rows ? rows : 1));
      if (!v) return false;
      for (size_t k = 0; k < w * (size_t)rows; k++) v[k] = vs_take(f);
      c->values = v;
      return true;
    }
  }
}

static bool vs_gen_pair(vs_fz *f, pqt_vshred_pair *p, int64_t rows, int depth) {
  uint8_t shape = vs_take(f);
  p->validity = (shape & 4) ? vs_bits(f, rows) : NULL;
  if ((shape & 3) != 2) { /* a value column */
    pqt_vshred_col *v = vs_alloc(f, sizeof *v);
    if (!v) return false;
    v->type = PQT_VSHRED_BINARY;
    v->path = "v.value";
    v->validity = vs_bits(f, rows);
    if (!vs_bytes_col(f, v, rows)) return false;
    p->value = v;
  }
  if ((shape & 3) != 1) { /* a typed_value column */
    pqt_vshred_col *t = vs_alloc(f, sizeof *t);
    if (!t || !vs_gen_typed(f, t, rows, depth)) return false;
    p->typed = t;
  }
  return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 8192) return 0;
  vs_fz *f = calloc(1, sizeof *f);
  if (!f) return 0;
  f->p = data;
  f->n = size;
  static const uint8_t k_meta[] = {0x11, 4, 0, 1, 2, 3, 4, 'a', 'b', 'c', 'd'};
  uint8_t head = vs_take(f);
  pqt_variant meta = {k_meta, sizeof k_meta, NULL, 0};
  uint8_t own_meta[32];
  if (head & 0x80) {
    size_t n = vs_take(f) % sizeof own_meta;
    for (size_t k = 0; k < n; k++) own_meta[k] = vs_take(f);
    meta.metadata = own_meta;
    meta.metadata_len = n;
  }
  int64_t rows = 1 + head % 4;
  pqt_vshred_pair top;
  memset(&top, 0, sizeof top);
  if (vs_gen_pair(f, &top, rows, 0)) {
    top.validity = NULL;
    pqt_buf out;
    pqt_buf_init(&out, NULL);
    for (int64_t i = 0; i < rows; i++) {
      pqt_error e;
      pqt_error_init(&e);
      size_t start = out.len;
      pqt_status st = pqt_vshred_row(&meta, &top, i, 0, NULL, &out, &e);
      if (st != PQT_OK) {
        if (!e.message[0]) abort(); /* a failure says why */
        out.len = start;
        out.status = PQT_OK;
        continue;
      }
      pqt_variant v = meta;
      v.value = out.data + start;
      v.value_len = out.len - start;
      if (pqt_variant_validate(&v, &e) != PQT_OK) abort();
      pqt_string js = {0};
      if (pqt_variant_to_json(&v, &js, &e) != PQT_OK) abort();
      pqt_string_free(&js);
    }
    pqt_buf_free(&out);
  }
  for (int k = 0; k < f->n_allocs; k++) free(f->allocs[k]);
  free(f);
  return 0;
}
