/*
 * tests/shredded_cases.h: what the shredded-VARIANT conformance tests
 * (tests/conformance/test_variant_shredded.c, test_variant_shredded_write.c)
 * share: the walk over the corpus's shredded_variant/cases.json, the `var`
 * column of a file read back through the Arrow stream as one reconstructed
 * Variant a row, and two Variants compared as values (both printed as JSON
 * when they differ).
 */
#ifndef PQT_TESTS_SHREDDED_CASES_H
#define PQT_TESTS_SHREDDED_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"

/* A string member of an object (malloc'd; NULL when absent or not a string). */
static inline char *pqt_sc_member_str(const pqt_variant *obj, const char *name) {
  pqt_variant f;
  int found = 0;
  pqt_error e;
  if (pqt_variant_object_find(obj, name, strlen(name), &f, &found, &e) != PQT_OK || !found) return NULL;
  pqt_variant_scalar s;
  if (pqt_variant_get_scalar(&f, &s, &e) != PQT_OK || s.type != PQT_VARIANT_STRING) return NULL;
  char *out = malloc(s.u.bytes.len + 1);
  if (!out) return NULL;
  memcpy(out, s.u.bytes.data, s.u.bytes.len);
  out[s.u.bytes.len] = 0;
  return out;
}

/* Entry i of a binary ("z") array, its own offset added. */
static inline const uint8_t *pqt_sc_bin_at(const struct ArrowArray *a, int64_t i, size_t *len) {
  const int32_t *off = a->buffers[1];
  int64_t j = a->offset + i;
  *len = (size_t)(off[j + 1] - off[j]);
  return (const uint8_t *)a->buffers[2] + off[j];
}

static inline int64_t pqt_sc_child_index(const struct ArrowSchema *s, const char *name) {
  for (int64_t k = 0; k < s->n_children; k++)
    if (strcmp(s->children[k]->name, name) == 0) return k;
  return -1;
}

/* The value of ARROW:extension:name in s's metadata, into buf ("" if none). */
static inline void pqt_sc_ext_name(const struct ArrowSchema *s, char *buf, size_t cap) {
  buf[0] = 0;
  if (!s->metadata) return;
  const char *m = s->metadata;
  int32_t n;
  memcpy(&n, m, 4);
  m += 4;
  for (int32_t k = 0; k < n; k++) {
    int32_t kl, vl;
    memcpy(&kl, m, 4);
    const char *key = m + 4;
    memcpy(&vl, key + kl, 4);
    const char *val = key + kl + 4;
    if (kl == 20 && memcmp(key, "ARROW:extension:name", 20) == 0) snprintf(buf, cap, "%.*s", (int)vl, val);
    m = val + vl;
  }
}

/* The field's metadata names the extension type arrow.parquet.variant. */
static inline bool pqt_sc_has_variant_extension(const struct ArrowSchema *s) {
  char name[64];
  pqt_sc_ext_name(s, name, sizeof name);
  return strcmp(name, "arrow.parquet.variant") == 0;
}

/* A field exported as the arrow.parquet.variant extension type, as
 * struct<metadata: binary, value: binary>. */
static inline bool pqt_sc_is_variant_field(const struct ArrowSchema *s) {
  return pqt_sc_has_variant_extension(s) && s->n_children == 2 && strcmp(s->children[0]->format, "z") == 0 &&
         strcmp(s->children[1]->format, "z") == 0;
}

/* The variants of a column, one a row: rows[k] views owned[k] (metadata
 * then value); owned[k] NULL for a null variant. */
typedef struct pqt_sc_rows {
  int64_t n, cap;
  pqt_variant *rows;
  uint8_t **owned;
} pqt_sc_rows;

static inline bool pqt_sc_is_null(const pqt_sc_rows *r, int64_t k) { return r->owned[k] == NULL; }

static inline void pqt_sc_rows_free(pqt_sc_rows *r) {
  for (int64_t k = 0; k < r->n; k++) free(r->owned[k]);
  free(r->owned);
  free(r->rows);
  memset(r, 0, sizeof *r);
}

/* Append the variant at logical index i of v (a struct<metadata, value>
 * array; its own offset added, its validity bitmap read when it has one).
 * Aborts when out of memory (a test has nothing better to do). */
static inline void pqt_sc_push(pqt_sc_rows *r, const struct ArrowArray *v, int64_t i) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->rows = realloc(r->rows, sizeof *r->rows * (size_t)r->cap);
    r->owned = realloc(r->owned, sizeof *r->owned * (size_t)r->cap);
    if (!r->rows || !r->owned) abort();
  }
  int64_t j = v->offset + i, k = r->n++;
  memset(&r->rows[k], 0, sizeof r->rows[k]);
  r->owned[k] = NULL;
  const uint8_t *valid = v->buffers[0];
  if (valid && !((valid[j >> 3] >> (j & 7)) & 1)) return;
  size_t ml, vl;
  const uint8_t *m = pqt_sc_bin_at(v->children[0], j, &ml), *x = pqt_sc_bin_at(v->children[1], j, &vl);
  uint8_t *copy = malloc(ml + vl + 1);
  if (!copy) abort();
  memcpy(copy, m, ml);
  memcpy(copy + ml, x, vl);
  r->owned[k] = copy;
  r->rows[k] = (pqt_variant){copy, ml, copy + ml, vl};
}

/* Open path (ro: NULL for the defaults) and its Arrow stream: 0, or 1 with
 * what failed in msg (nothing left open). */
static inline int pqt_sc_open_stream(const char *path, const pqt_read_options *ro, pqt_reader **r,
                                     struct ArrowArrayStream *st, char *msg, size_t cap) {
  pqt_error e;
  *r = NULL;
  if (pqt_reader_open_file(r, path, ro, &e) != PQT_OK) {
    snprintf(msg, cap, "open: %s", e.message);
    return 1;
  }
  if (pqt_reader_get_stream(*r, NULL, st, &e) != PQT_OK) {
    snprintf(msg, cap, "stream: %s", e.message);
    pqt_reader_close(*r);
    *r = NULL;
    return 1;
  }
  return 0;
}

/* Read the file's `var` column, reconstructed (default options): one entry
 * a row. *exported_as_variant (when not NULL): whether the field came out as
 * pqt_sc_is_variant_field says. Returns 0, else 1 with the error in msg. */
static inline int pqt_sc_read_var(const char *path, pqt_sc_rows *out, char *msg, size_t cap,
                                  bool *exported_as_variant) {
  memset(out, 0, sizeof *out);
  if (exported_as_variant) *exported_as_variant = false;
  pqt_reader *r = NULL;
  struct ArrowArrayStream st;
  if (pqt_sc_open_stream(path, NULL, &r, &st, msg, cap) != 0) return 1;
  struct ArrowSchema sch;
  int rc = st.get_schema(&st, &sch);
  int64_t col = -1;
  if (rc != 0) {
    const char *le = st.get_last_error(&st);
    snprintf(msg, cap, "schema: %s", le ? le : "(no message)");
  } else {
    col = pqt_sc_child_index(&sch, "var");
    if (exported_as_variant) *exported_as_variant = col >= 0 && pqt_sc_is_variant_field(sch.children[col]);
    sch.release(&sch);
    if (col < 0) {
      snprintf(msg, cap, "no var column");
      rc = 1;
    }
  }
  while (rc == 0) {
    struct ArrowArray b;
    rc = st.get_next(&st, &b);
    if (rc != 0) {
      const char *le = st.get_last_error(&st);
      snprintf(msg, cap, "%s", le ? le : "(no message)");
      break;
    }
    if (!b.release) break;
    for (int64_t i = 0; i < b.length; i++) pqt_sc_push(out, b.children[col], i);
    b.release(&b);
  }
  st.release(&st);
  pqt_reader_close(r);
  return rc;
}

/* got equal to want as a value: true; else false with "got JSON, want
 * JSON" in why. */
static inline bool pqt_sc_same_variant(const pqt_variant *got, const pqt_variant *want, char *why, size_t cap) {
  pqt_error e;
  int eq = 0;
  if (pqt_variant_equal(got, want, &eq, &e) == PQT_OK && eq) return true;
  pqt_string jg = {0}, jw = {0};
  pqt_variant_to_json(got, &jg, &e);
  pqt_variant_to_json(want, &jw, &e);
  snprintf(why, cap, "got %s, want %s", jg.data ? jg.data : "?", jw.data ? jw.data : "?");
  pqt_string_free(&jg);
  pqt_string_free(&jw);
  return false;
}

/* got holds want's rows: as many, null where want is, equal values
 * elsewhere; else false with the first difference in why. */
static inline bool pqt_sc_rows_equal(const pqt_sc_rows *want, const pqt_sc_rows *got, char *why, size_t cap) {
  if (want->n != got->n) {
    snprintf(why, cap, "%lld rows, want %lld", (long long)got->n, (long long)want->n);
    return false;
  }
  for (int64_t k = 0; k < want->n; k++) {
    if (pqt_sc_is_null(want, k) || pqt_sc_is_null(got, k)) {
      if (pqt_sc_is_null(want, k) != pqt_sc_is_null(got, k)) {
        snprintf(why, cap, "row %lld: null %s", (long long)k, pqt_sc_is_null(want, k) ? "lost" : "written");
        return false;
      }
      continue;
    }
    char diff[800];
    if (!pqt_sc_same_variant(&got->rows[k], &want->rows[k], diff, sizeof diff)) {
      snprintf(why, cap, "row %lld: %s", (long long)k, diff);
      return false;
    }
  }
  return true;
}

/* The cases of shredded_variant/cases.json, one at a time:
 *   pqt_sc_cases it;
 *   if (!pqt_sc_cases_open(&it)) return;      (skipped, or a failed check)
 *   while (pqt_sc_cases_next(&it)) { ... it.cv, it.file, it.path, it.number ... }
 *   pqt_sc_cases_close(&it); */
typedef struct pqt_sc_cases {
  const char *dir; /* the corpus */
  uint8_t *text;
  pqt_variant_owned all;
  int64_t n, at;
  /* the current case */
  pqt_variant cv;
  char *file;      /* its parquet_file */
  int number;      /* its case_number (else its place, from 1) */
  char path[1024]; /* DIR/shredded_variant/FILE */
} pqt_sc_cases;

/* false when the corpus or cases.json is absent (the test case marked
 * skipped, a NOTE said) or cases.json does not parse (a failed check). */
static inline bool pqt_sc_cases_open(pqt_sc_cases *it) {
  memset(it, 0, sizeof *it);
  it->dir = pqt_testing_dir();
  if (!it->dir) return false;
  char path[1024];
  snprintf(path, sizeof path, "%s/shredded_variant/cases.json", it->dir);
  size_t n = 0;
  it->text = pqt_test_read_file(path, &n);
  if (!it->text) {
    fprintf(stderr, "NOTE: %s absent\n", path);
    pqt_t_current_skipped = 1;
    return false;
  }
  pqt_error e;
  pqt_status st = pqt_variant_from_json((const char *)it->text, n, NULL, &it->all, &e);
  CHECK_MSG(st == PQT_OK, "%s: %s", path, e.message);
  if (st == PQT_OK) {
    st = pqt_variant_num_elements(&it->all.view, &it->n, &e);
    CHECK_MSG(st == PQT_OK, "%s: %s", path, e.message);
  }
  if (st != PQT_OK) {
    pqt_variant_owned_free(&it->all);
    free(it->text);
    it->text = NULL;
    return false;
  }
  return true;
}

/* The next case that names a parquet file (a case without one, the corpus
 * has one, is passed over); false after the last. */
static inline bool pqt_sc_cases_next(pqt_sc_cases *it) {
  free(it->file);
  it->file = NULL;
  while (it->at < it->n) {
    int64_t c = it->at++;
    pqt_error e;
    pqt_status st = pqt_variant_array_element(&it->all.view, c, &it->cv, &e);
    CHECK_MSG(st == PQT_OK, "cases.json element %lld: %s", (long long)c, e.message);
    if (st != PQT_OK) continue;
    it->file = pqt_sc_member_str(&it->cv, "parquet_file");
    if (!it->file) continue;
    it->number = (int)c + 1;
    pqt_variant f;
    int found = 0;
    pqt_variant_scalar s;
    if (pqt_variant_object_find(&it->cv, "case_number", 11, &f, &found, &e) == PQT_OK && found &&
        pqt_variant_get_scalar(&f, &s, &e) == PQT_OK)
      it->number = (int)s.u.i64;
    snprintf(it->path, sizeof it->path, "%s/shredded_variant/%s", it->dir, it->file);
    return true;
  }
  return false;
}

static inline void pqt_sc_cases_close(pqt_sc_cases *it) {
  free(it->file);
  it->file = NULL;
  pqt_variant_owned_free(&it->all);
  free(it->text);
  it->text = NULL;
}

#endif
