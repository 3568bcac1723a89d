/* A tiny test harness: CHECK macros that record failures and keep going,
 * and a runner that prints "N passed, N failed" and exits non-zero on any
 * failure. Each tests/<kind>/test_*.c is one ctest executable. */
#ifndef PQT_TEST_HARNESS_H
#define PQT_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pqt_t_failed_checks;
static int pqt_t_current_failed;
static int pqt_t_current_skipped; /* an input the case needs is absent */

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "  FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      pqt_t_failed_checks++;                                            \
      pqt_t_current_failed = 1;                                         \
    }                                                                   \
  } while (0)

#define CHECK_MSG(cond, ...)                                            \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "  FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                     \
      fputc('\n', stderr);                                              \
      pqt_t_failed_checks++;                                            \
      pqt_t_current_failed = 1;                                         \
    }                                                                   \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                                    \
  do {                                                                                                        \
    long long pqt_a_ = (long long)(a), pqt_b_ = (long long)(b);                                               \
    if (pqt_a_ != pqt_b_) {                                                                                   \
      fprintf(stderr, "  FAIL %s:%d: %s == %s (%lld != %lld)\n", __FILE__, __LINE__, #a, #b, pqt_a_, pqt_b_); \
      pqt_t_failed_checks++;                                                                                  \
      pqt_t_current_failed = 1;                                                                               \
    }                                                                                                         \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                                       \
  do {                                                                                           \
    const char *pqt_a_ = (a), *pqt_b_ = (b);                                                     \
    if (!pqt_a_ || !pqt_b_ || strcmp(pqt_a_, pqt_b_) != 0) {                                     \
      fprintf(stderr, "  FAIL %s:%d: %s == %s (\"%s\" != \"%s\")\n", __FILE__, __LINE__, #a, #b, \
              pqt_a_ ? pqt_a_ : "(null)", pqt_b_ ? pqt_b_ : "(null)");                           \
      pqt_t_failed_checks++;                                                                     \
      pqt_t_current_failed = 1;                                                                  \
    }                                                                                            \
  } while (0)

#define CHECK_OK(expr)                                                                      \
  do {                                                                                      \
    pqt_error pqt_e_;                                                                       \
    pqt_error_init(&pqt_e_);                                                                \
    (void)pqt_e_;                                                                           \
    int pqt_s_ = (expr);                                                                    \
    if (pqt_s_ != 0) {                                                                      \
      fprintf(stderr, "  FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #expr, pqt_s_); \
      pqt_t_failed_checks++;                                                                \
      pqt_t_current_failed = 1;                                                             \
    }                                                                                       \
  } while (0)

typedef void (*pqt_test_fn)(void);
typedef struct {
  const char *name;
  pqt_test_fn fn;
} pqt_test_case;

#define TEST_CASE(fn) \
  { #fn, fn }

/* Run the cases; print a closing "N passed, N failed" line. */
static inline int pqt_run_tests(const char *suite, const pqt_test_case *cases, size_t n) {
  int passed = 0, failed = 0, skipped = 0;
  for (size_t i = 0; i < n; i++) {
    pqt_t_current_failed = 0;
    pqt_t_current_skipped = 0;
    cases[i].fn();
    if (pqt_t_current_failed) {
      failed++;
      fprintf(stderr, "[FAIL] %s.%s\n", suite, cases[i].name);
    } else if (pqt_t_current_skipped) {
      skipped++;
      printf("[skip] %s.%s (an input it needs is absent, see the NOTE above)\n", suite, cases[i].name);
    } else {
      passed++;
      printf("[ ok ] %s.%s\n", suite, cases[i].name);
    }
  }
  printf("%s: %d passed, %d failed, %d skipped\n", suite, passed, failed, skipped);
  /* 77: ctest's skip code (SKIP_RETURN_CODE), so a missing corpus shows as
   * skipped instead of passing silently */
  return failed ? 1 : skipped ? 77 : 0;
}

#define RUN_TESTS(suite, ...)                                           \
  int main(void) {                                                      \
    static const pqt_test_case cases[] = {__VA_ARGS__};                 \
    return pqt_run_tests(suite, cases, sizeof cases / sizeof cases[0]); \
  }

/* Where the public conformance corpus is: $PARQUET_TESTING_DIR, or the
 * default next to the repository. Returns NULL (and says so) when absent. */
#include <sys/stat.h>
static inline const char *pqt_testing_dir(void) {
  const char *d = getenv("PARQUET_TESTING_DIR");
  if (!d || !*d) d = PQT_TESTING_DIR_DEFAULT;
  struct stat st;
  if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr,
            "NOTE: parquet-testing corpus not found at %s "
            "(set PARQUET_TESTING_DIR); corpus checks cannot run\n",
            d);
    pqt_t_current_skipped = 1;
    return NULL;
  }
  return d;
}

/* Call fn(path, ctx) for every file under dir (recursively, each folder
 * in name order) whose name contains `part` (e.g. ".parquet"). */
#include <dirent.h>
static inline int pqt_test_cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static inline void pqt_test_walk(const char *dir, const char *part, void (*fn)(const char *path, void *ctx),
                                 void *ctx) {
  DIR *d = opendir(dir);
  if (!d) return;
  char **names = NULL;
  size_t n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char **q = (char **)realloc(names, (n + 1) * sizeof *names);
    if (!q) break;
    names = q;
    names[n++] = strdup(de->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, pqt_test_cmp_names);
  for (size_t i = 0; i < n; i++) {
    char p[4096];
    int pn = snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    if (pn < 0 || (size_t)pn >= sizeof p) { /* a path too long to name: skipped */
      free(names[i]);
      continue;
    }
    struct stat sb;
    if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) pqt_test_walk(p, part, fn, ctx);
    else if (strstr(names[i], part)) fn(p, ctx);
    free(names[i]);
  }
  free(names);
}

/* Read a whole file into malloc'd memory. */
static inline unsigned char *pqt_test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
  if (p && n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  if (p) *len = (size_t)n;
  return p;
}

/* Text from the library's pqt_write_fn outputs, collected into one growing
 * NUL-terminated buffer (free t.p). */
#include "parquetry.h"
/* Copy the file from to the file to (both must open). */
static inline void pqt_test_copy_file(const char *from, const char *to) {
  FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
  CHECK(a && b);
  char buf[65536];
  size_t n;
  while (a && b && (n = fread(buf, 1, sizeof buf, a)) > 0) CHECK(fwrite(buf, 1, n, b) == n);
  if (a) fclose(a);
  if (b) fclose(b);
}

typedef struct pqt_test_text {
  char *p;
  size_t n;
} pqt_test_text;
static inline pqt_status pqt_test_collect(void *ctx, const char *d, size_t n) {
  pqt_test_text *t = (pqt_test_text *)ctx;
  char *q = (char *)realloc(t->p, t->n + n + 1);
  if (!q) return PQT_ENOMEM;
  memcpy(q + t->n, d, n);
  t->p = q;
  t->n += n;
  t->p[t->n] = '\0';
  return PQT_OK;
}

#endif
