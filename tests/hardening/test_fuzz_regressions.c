/*
 * Fuzz regression driver: replays, under plain ctest (so the ASan/UBSan
 * build of `make test` sees them), every input kept under
 * tests/hardening/fuzz_regressions/<target>/ and the checked-in seed corpora
 * fuzz/corpus/<name>/ through the very code of the libFuzzer targets: the
 * fuzz/fuzz_*.c files are compiled into this executable, each with its
 * LLVMFuzzerTestOneInput renamed. A target's invariant failure aborts the
 * test (as it aborts the fuzzer), ASan/UBSan report memory errors.
 * (zstd tests/fuzz/regression_driver.c, lz4 ossfuzz/standaloneengine.c.)
 *
 * fuzz_read_file regressions are also replayed with every option variant
 * (checksums on/off, batch sizes, JSON indent), not only the one their size
 * selects.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_read_file
#include "../../fuzz/fuzz_read_file.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_thrift
#include "../../fuzz/fuzz_thrift.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_expr
#include "../../fuzz/fuzz_expr.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_filter_file
#include "../../fuzz/fuzz_filter_file.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_encoding
#include "../../fuzz/fuzz_encoding.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_codec
#include "../../fuzz/fuzz_codec.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_write_read
#include "../../fuzz/fuzz_write_read.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_salvage
#include "../../fuzz/fuzz_salvage.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_variant
#include "../../fuzz/fuzz_variant.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_alp
#include "../../fuzz/fuzz_alp.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput pqt_fuzz_entry_variant_shred
#include "../../fuzz/fuzz_variant_shred.c"
#undef LLVMFuzzerTestOneInput

typedef int (*fuzz_entry)(const uint8_t *, size_t);

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Replay every regular file of dir (sorted) through fn; returns how many,
 * -1 when the directory does not exist. */
static int replay_dir(const char *dir, fuzz_entry fn, int all_variants) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      names = realloc(names, cap * sizeof *names);
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_str);
  int count = 0;
  for (size_t i = 0; i < n; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    size_t len = 0;
    unsigned char *buf = pqt_test_read_file(path, &len);
    CHECK_MSG(buf != NULL, "cannot read %s", path);
    if (buf) {
      /* an exact-size copy so ASan sees reads past the end */
      unsigned char *exact = malloc(len ? len : 1);
      memcpy(exact, buf, len);
      fn(exact, len);
      if (all_variants)
        for (unsigned v = 0; v < 6; v++) pqt_fuzz_read_file_one(exact, len, v);
      free(exact);
      free(buf);
      count++;
    }
    free(names[i]);
  }
  free(names);
  return count;
}

/* sub: "corpus/<name>" (fuzz/corpus, the seeds) or "regressions/<target>"
 * (tests/hardening/fuzz_regressions, the findings). */
static int replay(const char *sub, fuzz_entry fn, int all_variants) {
  char dir[4096];
  if (strncmp(sub, "regressions/", 12) == 0)
    snprintf(dir, sizeof dir, "%s/tests/hardening/fuzz_regressions/%s", PQT_SOURCE_DIR, sub + 12);
  else snprintf(dir, sizeof dir, "%s/fuzz/%s", PQT_SOURCE_DIR, sub);
  int n = replay_dir(dir, fn, all_variants);
  if (n >= 0) fprintf(stderr, "  replayed %d inputs from %s\n", n, dir + strlen(PQT_SOURCE_DIR) + 1);
  return n;
}

static void test_read_file_regressions(void) {
  /* the generated seeds (fuzz/gen_seeds.py) and the kept findings */
  int seeds = replay("corpus/read_file", pqt_fuzz_entry_read_file, 1);
  CHECK_MSG(seeds >= 4, "fuzz/corpus/read_file holds the generated seeds (%d found)", seeds);
  (void)replay("regressions/fuzz_read_file", pqt_fuzz_entry_read_file, 1);
}

static void test_thrift_corpus_and_regressions(void) {
  int n = replay("corpus/thrift", pqt_fuzz_entry_thrift, 0);
  CHECK_MSG(n > 100, "fuzz/corpus/thrift holds the footer/page-header seeds (%d found)", n);
  (void)replay("regressions/fuzz_thrift", pqt_fuzz_entry_thrift, 0);
}

static void test_expr_corpus_and_regressions(void) {
  int n = replay("corpus/expr", pqt_fuzz_entry_expr, 0);
  CHECK_MSG(n >= 10, "fuzz/corpus/expr holds the filter seeds (%d found)", n);
  (void)replay("regressions/fuzz_expr", pqt_fuzz_entry_expr, 0);
}

static void test_filter_file_corpus_and_regressions(void) {
  int n = replay("corpus/filter_file", pqt_fuzz_entry_filter_file, 0);
  CHECK_MSG(n >= 5, "fuzz/corpus/filter_file holds the filtered-scan seeds (%d found)", n);
  (void)replay("regressions/fuzz_filter_file", pqt_fuzz_entry_filter_file, 0);
}

static void test_encoding_and_codec_regressions(void) {
  (void)replay("corpus/encoding", pqt_fuzz_entry_encoding, 0);
  (void)replay("regressions/fuzz_encoding", pqt_fuzz_entry_encoding, 0);
  (void)replay("corpus/codec", pqt_fuzz_entry_codec, 0);
  (void)replay("regressions/fuzz_codec", pqt_fuzz_entry_codec, 0);
}

static void test_write_read_and_salvage_regressions(void) {
  (void)replay("corpus/write_read", pqt_fuzz_entry_write_read, 0);
  (void)replay("regressions/fuzz_write_read", pqt_fuzz_entry_write_read, 0);
  (void)replay("corpus/salvage", pqt_fuzz_entry_salvage, 0);
  (void)replay("regressions/fuzz_salvage", pqt_fuzz_entry_salvage, 0);
}

static void test_alp_regressions(void) {
  int n = replay("corpus/alp", pqt_fuzz_entry_alp, 0);
  CHECK_MSG(n >= 6, "fuzz/corpus/alp holds the ALP seeds (%d found)", n);
  (void)replay("regressions/fuzz_alp", pqt_fuzz_entry_alp, 0);
}

static void test_variant_regressions(void) {
  int n = replay("corpus/variant", pqt_fuzz_entry_variant, 0);
  CHECK_MSG(n >= 6, "fuzz/corpus/variant holds the Variant seeds (%d found)", n);
  (void)replay("regressions/fuzz_variant", pqt_fuzz_entry_variant, 0);
}

static void test_variant_shred_regressions(void) {
  int n = replay("corpus/variant_shred", pqt_fuzz_entry_variant_shred, 0);
  CHECK_MSG(n >= 6, "fuzz/corpus/variant_shred holds the shredding seeds (%d found)", n);
  (void)replay("regressions/fuzz_variant_shred", pqt_fuzz_entry_variant_shred, 0);
}

/* The fixtures and a sample of small corpus files through the whole-file
 * target, so the target's own invariants are checked on valid files. */
static void test_read_file_on_fixtures(void) {
  static const char *fixtures[] = {"seed004_simple.parquet", "seed004_nested.parquet"};
  for (size_t i = 0; i < 2; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/%s", PQT_SOURCE_DIR, fixtures[i]);
    size_t len = 0;
    unsigned char *buf = pqt_test_read_file(path, &len);
    CHECK_MSG(buf != NULL, "cannot read %s", path);
    if (!buf) continue;
    for (unsigned v = 0; v < 6; v++) {
      pqt_fuzz_alloc fa;
      pqt_fuzz_alloc_init(&fa);
      pqt_fuzz_read_result res = pqt_fuzz_read_file_with(buf, len, v, &fa);
      CHECK_EQ_INT(res.open, PQT_OK);
      CHECK_EQ_INT(res.stream_errno, 0);
      CHECK_EQ_INT(res.jsonl, PQT_OK);
      CHECK(res.stream_rows > 0);
      CHECK_EQ_INT((uint64_t)res.stream_rows, res.jsonl_lines);
    }
    free(buf);
  }
}

int main(void) {
  static const pqt_test_case cases[] = {
      TEST_CASE(test_read_file_regressions),
      TEST_CASE(test_thrift_corpus_and_regressions),
      TEST_CASE(test_expr_corpus_and_regressions),
      TEST_CASE(test_filter_file_corpus_and_regressions),
      TEST_CASE(test_encoding_and_codec_regressions),
      TEST_CASE(test_write_read_and_salvage_regressions),
      TEST_CASE(test_read_file_on_fixtures),
      TEST_CASE(test_variant_regressions),
      TEST_CASE(test_alp_regressions),
      TEST_CASE(test_variant_shred_regressions),
  };
  return pqt_run_tests("fuzz_regressions", cases, sizeof cases / sizeof cases[0]);
}
