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
#include "shredded_cases.h"

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

static void check_row(const char *dir, int number, const char *bin, const pqt_sc_rows *rows, int64_t k) {
  if (k >= rows->n) {
    CHECK_MSG(0, "case %d: row %lld missing (read %lld rows)", number, (long long)k, (long long)rows->n);
    return;
  }
  if (!bin) {
    CHECK_MSG(pqt_sc_is_null(rows, k), "case %d row %lld: expected a null variant", number, (long long)k);
    return;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/shredded_variant/%s", dir, bin);
  size_t n = 0;
  uint8_t *b = pqt_test_read_file(path, &n);
  size_t ml = b ? metadata_len(b, n) : 0;
  CHECK_MSG(b && ml > 0, "case %d: cannot read %s", number, bin);
  if (!b || !ml) {
    free(b);
    return;
  }
  pqt_variant want = {b, ml, b + ml, n - ml};
  CHECK_MSG(!pqt_sc_is_null(rows, k), "case %d row %lld: read a null variant", number, (long long)k);
  char why[900] = "";
  if (!pqt_sc_is_null(rows, k))
    CHECK_MSG(pqt_sc_same_variant(&rows->rows[k], &want, why, sizeof why), "case %d row %lld: %s", number,
              (long long)k, why);
  free(b);
}

static void test_cases(void) {
  pqt_sc_cases it;
  if (!pqt_sc_cases_open(&it)) return;
  int ok_cases = 0, error_cases = 0;
  while (pqt_sc_cases_next(&it)) {
    char *error = pqt_sc_member_str(&it.cv, "error_message");
    char *test = pqt_sc_member_str(&it.cv, "test");
    char *notes = pqt_sc_member_str(&it.cv, "notes"); /* "not valid ... can choose to error, or read" */
    int number = it.number;
    pqt_sc_rows rows;
    char msg[700] = "";
    bool ext = false;
    int rc = pqt_sc_read_var(it.path, &rows, msg, sizeof msg, &ext);
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
        char *bin = pqt_sc_member_str(&it.cv, "variant_file");
        if (bin) {
          CHECK_MSG(rows.n == 1, "case %d: %lld rows, want 1", number, (long long)rows.n);
          check_row(it.dir, number, bin, &rows, 0);
          free(bin);
        } else {
          pqt_variant list;
          int64_t nl = 0;
          int found = 0;
          pqt_variant_scalar s;
          pqt_error e;
          CHECK(pqt_variant_object_find(&it.cv, "variant_files", 13, &list, &found, &e) == PQT_OK && found);
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
            check_row(it.dir, number, name, &rows, k);
            free(name);
          }
        }
        ok_cases++;
      }
    }
    pqt_sc_rows_free(&rows);
    free(error);
    free(test);
    free(notes);
  }
  fprintf(stderr, "  %d cases read equal, %d error cases failed cleanly\n", ok_cases, error_cases);
  CHECK(ok_cases >= 100);
  CHECK(error_cases >= 6);
  pqt_sc_cases_close(&it);
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
  CHECK(!pqt_sc_has_variant_extension(v));
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
    uint8_t *m = pqt_test_read_file(mp, &mn), *v = pqt_test_read_file(vp, &vn);
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
