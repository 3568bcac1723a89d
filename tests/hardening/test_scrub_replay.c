/*
 * tests/hardening/test_scrub_replay.c: the fuzz_scrub target
 * (fuzz/fuzz_scrub.c: page walks, file layout, scrub, scrub of the scrubbed
 * copy) over every corpus file of at most 1 MiB and nine one-byte
 * mutations of each, under ASan+UBSan, so `ctest` runs what the fuzzer
 * checks; and the kept findings (tests/hardening/fuzz_regressions/fuzz_scrub/)
 * and seeds (fuzz/corpus/scrub/) as they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_scrub
#include "../../fuzz/fuzz_scrub.c"
#undef LLVMFuzzerTestOneInput

static int g_files, g_runs;

static void replay_file(const char *path, void *ctx) {
  (void)ctx;
  size_t len;
  unsigned char *buf = pqt_test_read_file(path, &len);
  if (!buf) return;
  if (len <= ((size_t)1 << 20)) {
    g_files++;
    pqt_fuzz_scrub_one(buf, len);
    g_runs++;
    for (int k = 1; k <= 9 && len > 16; k++) {
      size_t at = (size_t)k * (len - 8) / 10;
      unsigned char was = buf[at];
      buf[at] = (unsigned char)(was ^ (0x5A + k));
      pqt_fuzz_scrub_one(buf, len);
      buf[at] = was;
      g_runs++;
    }
  }
  free(buf);
}

static void test_corpus_replay(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parquet", replay_file, NULL);
  printf("  %d files, %d runs\n", g_files, g_runs);
  CHECK(g_files > 50);
}

static int g_kept;

static void replay_kept(const char *path, void *ctx) {
  (void)ctx;
  size_t len;
  unsigned char *buf = pqt_test_read_file(path, &len);
  if (!buf) return;
  pqt_fuzz_scrub_one(buf, len);
  g_kept++;
  free(buf);
}

/* The findings kept from fuzzing (one: a TimestampType whose unit union holds
 * a member this version does not know, which scrub could not write back and
 * reported as EINVAL, a caller's error; now EUNSUPPORTED) and the seeds. */
static void test_kept_inputs(void) {
  pqt_test_walk(PQT_SOURCE_DIR "/tests/hardening/fuzz_regressions/fuzz_scrub", "", replay_kept, NULL);
  CHECK(g_kept >= 2);
  pqt_test_walk(PQT_SOURCE_DIR "/fuzz/corpus/scrub", "", replay_kept, NULL);
  printf("  %d kept inputs\n", g_kept);
}

int main(void) {
  if (!pqt_testing_dir()) return 77;
  static const pqt_test_case cases[] = {TEST_CASE(test_kept_inputs), TEST_CASE(test_corpus_replay)};
  return pqt_run_tests("scrub_replay", cases, sizeof cases / sizeof cases[0]);
}
