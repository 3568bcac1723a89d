/*
 * fuzz/fuzz_arrow_check.h: a structural checker for exported Arrow C Data
 * Interface arrays (header-only), used by fuzz_read_file and the hardening
 * tests. It walks an ArrowArray against its ArrowSchema and touches the
 * first and last byte every buffer must have for the array's offset and
 * length (so ASan flags a buffer that is too short), and checks offsets
 * are non-negative, monotone and inside the child or data they index.
 * Returns NULL when the array is well formed, otherwise what is wrong.
 */
#ifndef PQT_FUZZ_ARROW_CHECK_H
#define PQT_FUZZ_ARROW_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquetry_arrow.h"

typedef struct pqt_arrow_check {
  uint64_t sum;  /* folds every byte touched, so the reads are not optimised away */
  char msg[200]; /* details of the last problem */
} pqt_arrow_check;

static void pqt_ac_touch(pqt_arrow_check *c, const void *buf, int64_t first, int64_t end_excl) {
  if (end_excl <= first) return;
  const volatile uint8_t *p = buf;
  c->sum += p[first];
  c->sum += p[end_excl - 1];
}

/* Width in bytes of a fixed-width format, 0 if not fixed width, -1 bool. */
static int pqt_ac_fixed_width(const char *f) {
  switch (f[0]) {
    case 'b': return f[1] ? 0 : -1;
    case 'c':
    case 'C': return f[1] ? 0 : 1;
    case 's':
    case 'S':
    case 'e': return f[1] ? 0 : 2;
    case 'i':
    case 'I':
    case 'f': return f[1] ? 0 : 4;
    case 'l':
    case 'L':
    case 'g': return f[1] ? 0 : 8;
    case 'w': return f[1] == ':' ? atoi(f + 2) : 0;
    case 'd': return strstr(f, ",256") ? 32 : 16;
    case 't':
      if (f[1] == 'd') return f[2] == 'D' ? 4 : 8;
      if (f[1] == 't') return (f[2] == 's' || f[2] == 'm') ? 4 : 8;
      if (f[1] == 's' || f[1] == 'D') return 8;
      return 0;
    default: return 0;
  }
}

static const char *pqt_arrow_check_array(pqt_arrow_check *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                                         int depth) {
  if (depth > 300) return "nesting too deep";
  if (!s || !a || !s->format) return "missing schema or array";
  if (!a->release) return "array already released";
  if (a->length < 0 || a->offset < 0 || a->null_count < -1) return "negative length/offset";
  if (a->n_children != s->n_children) return "n_children differs from the schema";
  if (a->n_children > 0 && !a->children) return "children missing";
  if (a->n_buffers > 0 && !a->buffers) return "buffers missing";
  const char *f = s->format;
  const int64_t lo = a->offset, hi = a->offset + a->length;
  if (!s->dictionary != !a->dictionary) return "dictionary in only one of schema and array";
  if (s->dictionary) { /* int32 indexes into a whole dictionary array */
    if (strcmp(f, "i") != 0) return "dictionary indexes are not int32";
    if (a->n_buffers != 2) return "dictionary indexes without 2 buffers";
    const char *e = pqt_arrow_check_array(c, s->dictionary, a->dictionary, depth + 1);
    if (e) return e;
    if (a->length == 0) return NULL;
    const int32_t *ix = a->buffers[1];
    if (!ix) return "dictionary indexes are NULL";
    const uint8_t *valid = a->buffers[0];
    for (int64_t i = lo; i < hi; i++) {
      if (valid && !((valid[i >> 3] >> (i & 7)) & 1)) continue;
      if (ix[i] < 0 || ix[i] >= a->dictionary->length) {
        snprintf(c->msg, sizeof c->msg, "%s: index %d at %lld, dictionary of %lld", s->name ? s->name : "?", ix[i],
                 (long long)i, (long long)a->dictionary->length);
        return "dictionary index out of range";
      }
    }
    pqt_ac_touch(c, ix, lo * 4, hi * 4);
    return NULL;
  }
  if (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0) { /* views, variadic data buffers, their sizes last */
    if (a->n_buffers < 3) return "view array without views and sizes";
    int64_t nd = a->n_buffers - 3;
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    if (nd > 0 && !sizes) return "view array without variadic sizes";
    if (a->length == 0) return NULL;
    const uint8_t *v = a->buffers[1];
    if (!v) return "views are NULL";
    for (int64_t i = lo; i < hi; i++) {
      int32_t len, bi, off;
      memcpy(&len, v + 16 * i, 4);
      if (len < 0) return "negative view length";
      if (len <= 12) {
        for (int32_t k = len; k < 12; k++)
          if (v[16 * i + 4 + k]) return "inline view not zero-padded";
        continue;
      }
      memcpy(&bi, v + 16 * i + 8, 4);
      memcpy(&off, v + 16 * i + 12, 4);
      if (bi < 0 || bi >= nd) return "view buffer index out of range";
      if (off < 0 || (int64_t)off + len > sizes[bi]) return "view past its data buffer";
      const uint8_t *d = a->buffers[2 + bi];
      if (!d) return "view data buffer is NULL";
      if (memcmp(d + off, v + 16 * i + 4, 4) != 0) return "view prefix differs from its data";
      pqt_ac_touch(c, d, off, (int64_t)off + len);
    }
    return NULL;
  }
  if (strcmp(f, "n") == 0) return a->n_buffers == 0 ? NULL : "null array with buffers";
  if (a->n_buffers < 1) return "no validity slot";
  if (a->buffers[0] && a->length > 0) pqt_ac_touch(c, a->buffers[0], lo / 8, (hi + 7) / 8);
  if (a->null_count > a->length) return "null_count above length";
  int w = pqt_ac_fixed_width(f);
  if (w != 0) {
    if (a->n_buffers != 2) return "fixed-width array without 2 buffers";
    if (a->length == 0) return NULL;
    if (!a->buffers[1]) return "fixed-width data buffer is NULL";
    if (w < 0) pqt_ac_touch(c, a->buffers[1], lo / 8, (hi + 7) / 8);
    else pqt_ac_touch(c, a->buffers[1], lo * w, hi * w);
    return NULL;
  }
  if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
    if (a->n_buffers != 3) return "binary array without 3 buffers";
    const int32_t *off = a->buffers[1];
    if (!off) return a->length == 0 ? NULL : "binary offsets are NULL";
    for (int64_t i = lo; i < hi; i++)
      if (off[i] < 0 || off[i + 1] < off[i]) return "binary offsets not monotone";
    if (a->length > 0 && off[hi] > off[lo]) {
      if (!a->buffers[2]) return "binary data is NULL";
      pqt_ac_touch(c, a->buffers[2], off[lo], off[hi]);
    }
    return NULL;
  }
  if (strcmp(f, "+s") == 0) {
    if (a->n_buffers != 1) return "struct without 1 buffer";
    for (int64_t k = 0; k < a->n_children; k++) {
      if (!a->children[k] || !s->children || !s->children[k]) return "struct child missing";
      if (a->children[k]->length < hi) return "struct child shorter than the struct";
      const char *e = pqt_arrow_check_array(c, s->children[k], a->children[k], depth + 1);
      if (e) return e;
    }
    return NULL;
  }
  if (strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0) {
    if (a->n_buffers != 2) return "list without 2 buffers";
    if (a->n_children != 1 || !a->children[0] || !s->children || !s->children[0]) return "list child missing";
    const int32_t *off = a->buffers[1];
    if (!off) return a->length == 0 ? NULL : "list offsets are NULL";
    for (int64_t i = lo; i < hi; i++)
      if (off[i] < 0 || off[i + 1] < off[i]) {
        snprintf(c->msg, sizeof c->msg, "list %s: offsets[%lld..%lld] = %d, %d (offset %lld, length %lld)",
                 s->name ? s->name : "?", (long long)i, (long long)i + 1, off[i], off[i + 1], (long long)a->offset,
                 (long long)a->length);
        return "list offsets not monotone";
      }
    if (a->length > 0 && off[hi] > a->children[0]->length) return "list offsets past the child";
    if (off[lo] < 0) return "negative list offset";
    return pqt_arrow_check_array(c, s->children[0], a->children[0], depth + 1);
  }
  return "unknown format";
}

#endif
