/* Shredded VARIANT columns read back (VariantShredding.md): every case of
 * the corpus's shredded_variant/cases.json through the Arrow stream, each
 * reconstructed Variant equal (as a value) to the case's .variant.bin, each
 * error case a clean failure naming the row and column; the exported field
 * carries the parquet.variant extension type, and variant_shredded hands
 * out the stored group instead. Also: every sample of variant/ validates
 * and re-encodes to an equal value. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_variant.h"

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
  *n = b && len >= 0 && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
  fclose(f);
  return b;
}

/* The length of the metadata at the start of a .variant.bin (metadata then
 * value, concatenated). */
static size_t metadata_len(const uint8_t *p, size_t n) {
  if (n < 1) return 0;
  unsigned w = ((p[0] >> 6) & 3) + 1;
  if (n < 1 + (size_t)w) return 0;
  uint32_t dict = 0;
  for (unsigned k = 0; k < w; k++) dict |= (uint32_t)p[1 + k] << (8 * k);
  size_t last_at = 1 + w + (size_t)dict * w;
  if (last_at + w > n) return 0;
  uint32_t last = 0;
  for (unsigned k = 0; k < w; k++) last |= (uint32_t)p[last_at + k] << (8 * k);
  size_t total = last_at + w + last;
  return total <= n ? total : 0;
}

/* A string member of a case object (NULL when absent or not a string). */
static char *member_str(const pqt_variant *obj, const char *name) {
  pqt_variant f;
  int found = 0;
  pqt_error e;
  if (pqt_variant_object_find(obj, name, strlen(name), &f, &found, &e) != PQT_OK || !found) return NULL;
  pqt_variant_scalar s;
  if (pqt_variant_get_scalar(&f, &s, &e) != PQT_OK || s.type != PQT_VARIANT_STRING) return NULL;
  char *out = malloc(s.u.bytes.len + 1);
  memcpy(out, s.u.bytes.data, s.u.bytes.len);
  out[s.u.bytes.len] = 0;
  return out;
}

static bool has_extension(const struct ArrowSchema *s) {
  if (!s->metadata) return false;
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
    if (kl == 20 && memcmp(key, "ARROW:extension:name", 20) == 0 && vl == 21 && memcmp(val, "arrow.parquet.variant", 21) == 0)
      return true;
    m = val + vl;
  }
  return false;
}

static const uint8_t *bin_at(const struct ArrowArray *a, int64_t i, size_t *len) {
  const int32_t *off = a->buffers[1];
  const uint8_t *data = a->buffers[2];
  int64_t j = a->offset + i;
  *len = (size_t)(off[j + 1] - off[j]);
  return data + off[j];
}

/* Read the file's `var` column: one entry per row, NULL for a null
 * variant. Returns 0 on success, else the stream's error in msg. */
typedef struct read_rows {
  int64_t n;
  pqt_variant *rows; /* views into owned copies */
  uint8_t **owned;
  bool *is_null;
} read_rows;

static int read_var(const char *path, read_rows *out, char *msg, size_t msg_len, bool *ext) {
  memset(out, 0, sizeof *out);
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
    snprintf(msg, msg_len, "open: %s", e.message);
    return 1;
  }
  struct ArrowArrayStream st;
  if (pqt_reader_get_stream(r, NULL, &st, &e) != PQT_OK) {
    snprintf(msg, msg_len, "stream: %s", e.message);
    pqt_reader_close(r);
    return 1;
  }
  struct ArrowSchema sch;
  int rc = st.get_schema(&st, &sch);
  int64_t col = -1;
  for (int64_t k = 0; rc == 0 && k < sch.n_children; k++)
    if (strcmp(sch.children[k]->name, "var") == 0) col = k;
  *ext = col >= 0 && has_extension(sch.children[col]) && sch.children[col]->n_children == 2 &&
         strcmp(sch.children[col]->children[0]->format, "z") == 0 &&
         strcmp(sch.children[col]->children[1]->format, "z") == 0;
  if (rc == 0) sch.release(&sch);
  if (rc == 0 && col < 0) {
    snprintf(msg, msg_len, "no var column");
    rc = 1;
  }
  while (rc == 0) {
    struct ArrowArray b;
    rc = st.get_next(&st, &b);
    if (rc != 0) {
      const char *le = st.get_last_error(&st);
      snprintf(msg, msg_len, "%s", le ? le : "(no message)");
      break;
    }
    if (!b.release) break;
    const struct ArrowArray *v = b.children[col];
    const uint8_t *valid = v->buffers[0];
    out->rows = realloc(out->rows, sizeof *out->rows * (size_t)(out->n + b.length));
    out->owned = realloc(out->owned, sizeof *out->owned * (size_t)(out->n + b.length));
    out->is_null = realloc(out->is_null, sizeof *out->is_null * (size_t)(out->n + b.length));
    for (int64_t i = 0; i < b.length; i++) {
      int64_t j = v->offset + i;
      int64_t k = out->n++;
      out->is_null[k] = valid && !((valid[j >> 3] >> (j & 7)) & 1);
      out->owned[k] = NULL;
      memset(&out->rows[k], 0, sizeof out->rows[k]);
      if (out->is_null[k]) continue;
      size_t ml, vl;
      const uint8_t *m = bin_at(v->children[0], j, &ml), *x = bin_at(v->children[1], j, &vl);
      uint8_t *copy = malloc(ml + vl + 1);
      memcpy(copy, m, ml);
      memcpy(copy + ml, x, vl);
      out->owned[k] = copy;
      out->rows[k] = (pqt_variant){copy, ml, copy + ml, vl};
    }
    b.release(&b);
  }
  st.release(&st);
  pqt_reader_close(r);
  return rc;
}

static void free_rows(read_rows *r) {
  for (int64_t k = 0; k < r->n; k++) free(r->owned[k]);
  free(r->owned);
  free(r->rows);
  free(r->is_null);
}

static void check_row(const char *dir, int number, const char *bin, const read_rows *rows, int64_t k) {
  if (k >= rows->n) {
    CHECK_MSG(0, "case %d: row %lld missing (read %lld rows)", number, (long long)k, (long long)rows->n);
    return;
  }
  if (!bin) {
    CHECK_MSG(rows->is_null[k], "case %d row %lld: expected a null variant", number, (long long)k);
    return;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/shredded_variant/%s", dir, bin);
  size_t n = 0;
  uint8_t *b = slurp(path, &n);
  size_t ml = b ? metadata_len(b, n) : 0;
  CHECK_MSG(b && ml > 0, "case %d: cannot read %s", number, bin);
  if (!b || !ml) {
    free(b);
    return;
  }
  pqt_variant want = {b, ml, b + ml, n - ml};
  CHECK_MSG(!rows->is_null[k], "case %d row %lld: read a null variant", number, (long long)k);
  if (!rows->is_null[k]) {
    pqt_error e;
    int eq = 0;
    pqt_status st = pqt_variant_equal(&rows->rows[k], &want, &eq, &e);
    pqt_string got_json = {0}, want_json = {0};
    if (st != PQT_OK || !eq) {
      pqt_variant_to_json(&rows->rows[k], &got_json, &e);
      pqt_variant_to_json(&want, &want_json, &e);
    }
    CHECK_MSG(st == PQT_OK && eq, "case %d row %lld: got %s, want %s", number, (long long)k,
              got_json.data ? got_json.data : "?", want_json.data ? want_json.data : "?");
    pqt_string_free(&got_json);
    pqt_string_free(&want_json);
  }
  free(b);
}

static void test_cases(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/shredded_variant/cases.json", dir);
  size_t n = 0;
  uint8_t *text = slurp(path, &n);
  if (!text) {
    fprintf(stderr, "NOTE: %s absent\n", path);
    pqt_t_current_skipped = 1;
    return;
  }
  pqt_variant_owned cases;
  pqt_error e;
  CHECK_OK(pqt_variant_from_json((const char *)text, n, NULL, &cases, &e));
  int64_t n_cases = 0;
  CHECK_OK(pqt_variant_num_elements(&cases.view, &n_cases, &e));
  int ok_cases = 0, error_cases = 0;
  for (int64_t c = 0; c < n_cases; c++) {
    pqt_variant cv;
    CHECK_OK(pqt_variant_array_element(&cases.view, c, &cv, &e));
    char *file = member_str(&cv, "parquet_file");
    if (!file) continue; /* a case without a file (the corpus has one) */
    char *error = member_str(&cv, "error_message");
    char *test = member_str(&cv, "test");
    char *notes = member_str(&cv, "notes"); /* "not valid ... can choose to error, or read" */
    int number = (int)c + 1;
    pqt_variant f;
    int found = 0;
    pqt_variant_scalar s;
    if (pqt_variant_object_find(&cv, "case_number", 11, &f, &found, &e) == PQT_OK && found &&
        pqt_variant_get_scalar(&f, &s, &e) == PQT_OK)
      number = (int)s.u.i64;
    snprintf(path, sizeof path, "%s/shredded_variant/%s", dir, file);
    read_rows rows;
    char msg[700] = "";
    bool ext = false;
    int rc = read_var(path, &rows, msg, sizeof msg, &ext);
    if (notes && rc != 0) { /* the choice taken here: an error naming the place */
      CHECK_MSG(strstr(msg, "row") && strstr(msg, "column var") && strstr(msg, "conflicting"),
                "case %d (%s): error does not name the place: %s", number, test, msg);
      error_cases++;
    } else if (error) {
      CHECK_MSG(rc != 0, "case %d (%s): expected an error (%s), read %lld rows", number, test, error,
                (long long)rows.n);
      if (rc != 0 && strstr(msg, "unsupported") == NULL)
        CHECK_MSG(strstr(msg, "row") && strstr(msg, "column var"), "case %d (%s): error does not name the place: %s",
                  number, test, msg);
      error_cases++;
    } else {
      CHECK_MSG(rc == 0, "case %d (%s): %s", number, test, msg);
      CHECK_MSG(ext, "case %d: var is not exported as parquet.variant struct<metadata, value>", number);
      if (rc == 0) {
        char *bin = member_str(&cv, "variant_file");
        if (bin) {
          CHECK_MSG(rows.n == 1, "case %d: %lld rows, want 1", number, (long long)rows.n);
          check_row(dir, number, bin, &rows, 0);
          free(bin);
        } else {
          pqt_variant list;
          int64_t nl = 0;
          CHECK(pqt_variant_object_find(&cv, "variant_files", 13, &list, &found, &e) == PQT_OK && found);
          CHECK_OK(pqt_variant_num_elements(&list, &nl, &e));
          CHECK_MSG(rows.n == nl, "case %d: %lld rows, want %lld", number, (long long)rows.n, (long long)nl);
          for (int64_t k = 0; k < nl; k++) {
            pqt_variant el;
            CHECK_OK(pqt_variant_array_element(&list, k, &el, &e));
            CHECK_OK(pqt_variant_get_scalar(&el, &s, &e));
            char *name = NULL;
            if (s.type == PQT_VARIANT_STRING) {
              name = malloc(s.u.bytes.len + 1);
              memcpy(name, s.u.bytes.data, s.u.bytes.len);
              name[s.u.bytes.len] = 0;
            }
            check_row(dir, number, name, &rows, k);
            free(name);
          }
        }
        ok_cases++;
      }
    }
    free_rows(&rows);
    free(file);
    free(error);
    free(test);
    free(notes);
  }
  fprintf(stderr, "  %d cases read equal, %d error cases failed cleanly\n", ok_cases, error_cases);
  CHECK(ok_cases >= 100);
  CHECK(error_cases >= 6);
  pqt_variant_owned_free(&cases);
  free(text);
}

/* variant_shredded: the stored group as it is (typed_value a plain column). */
static void test_raw_option(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/shredded_variant/case-045.parquet", dir);
  pqt_read_options o;
  pqt_read_options_init(&o);
  o.variant_shredded = 1;
  pqt_reader *r;
  pqt_error e;
  CHECK_OK(pqt_reader_open_file(&r, path, &o, &e));
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
  struct ArrowSchema sch;
  CHECK(st.get_schema(&st, &sch) == 0);
  const struct ArrowSchema *v = sch.children[1];
  CHECK_EQ_STR(v->name, "var");
  CHECK(!has_extension(v));
  CHECK_EQ_INT(v->n_children, 3);
  CHECK_EQ_STR(v->children[2]->name, "typed_value");
  struct ArrowArray b;
  CHECK(st.get_next(&st, &b) == 0);
  CHECK_EQ_INT(b.children[1]->n_children, 3);
  b.release(&b);
  sch.release(&sch);
  st.release(&st);
  pqt_reader_close(r);
}

/* Every sample of variant/: validates, re-encodes to an equal value. */
static void test_samples(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/variant", dir);
  DIR *d = opendir(path);
  if (!d) {
    fprintf(stderr, "NOTE: %s absent\n", path);
    pqt_t_current_skipped = 1;
    return;
  }
  int seen = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 10 || strcmp(de->d_name + l - 9, ".metadata") != 0) continue;
    char mp[1400], vp[1400];
    snprintf(mp, sizeof mp, "%s/%s", path, de->d_name);
    snprintf(vp, sizeof vp, "%s/%.*s.value", path, (int)(l - 9), de->d_name);
    size_t mn = 0, vn = 0;
    uint8_t *m = slurp(mp, &mn), *v = slurp(vp, &vn);
    CHECK_MSG(m && v, "%s: cannot read", de->d_name);
    if (m && v) {
      pqt_variant x = {m, mn, v, vn};
      pqt_error e;
      pqt_variant_owned re;
      CHECK_MSG(pqt_variant_validate(&x, &e) == PQT_OK, "%s: %s", de->d_name, e.message);
      if (pqt_variant_rebuild(&x, NULL, &re, &e) == PQT_OK) {
        int eq = 0;
        CHECK_MSG(pqt_variant_equal(&x, &re.view, &eq, &e) == PQT_OK && eq, "%s: re-encoded value differs", de->d_name);
        pqt_variant_owned_free(&re);
      } else {
        CHECK_MSG(0, "%s: %s", de->d_name, e.message);
      }
      seen++;
    }
    free(m);
    free(v);
  }
  closedir(d);
  CHECK(seen >= 20);
}

RUN_TESTS("variant_shredded", TEST_CASE(test_cases), TEST_CASE(test_raw_option), TEST_CASE(test_samples))
