/*
 * tests/replay.h: run one fuzz target's entry over the public corpus under
 * ctest (ASan+UBSan), so `ctest` runs what the fuzzer checks. Every corpus
 * .parquet file of at most max_len bytes runs as it is and with one byte
 * changed at each of nine places spread over the file (most land in pages,
 * page indexes, dictionaries and Bloom filters the footer points at). The
 * target aborts on any broken invariant; the test passes when every run
 * returns and more than 50 files were read. The inputs fuzzing found and
 * kept (tests/hardening/fuzz_regressions/<target>/, any name) run as they are.
 *
 *   int main(void) { return pqt_replay_main("scrub_replay", "fuzz_scrub", pqt_fuzz_scrub_one, (size_t)1 << 20); }
 */
#ifndef PQT_TESTS_REPLAY_H
#define PQT_TESTS_REPLAY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

typedef void (*pqt_replay_fn)(const uint8_t *data, size_t size);

typedef struct pqt_replay {
  pqt_replay_fn one;
  size_t max_len;
  const char *target; /* the fuzz target's name: its kept findings' folder */
  int files, runs, kept;
} pqt_replay;

/* One test binary replays one target: the test case below reads it here. */
static pqt_replay pqt_replay_state;

static void pqt_replay_file(const char *path, void *ctx) {
  pqt_replay *r = (pqt_replay *)ctx;
  size_t len;
  unsigned char *buf = pqt_test_read_file(path, &len);
  if (!buf) return;
  if (len <= r->max_len) {
    r->files++;
    r->one(buf, len);
    r->runs++;
    for (int k = 1; k <= 9 && len > 16; k++) {
      size_t at = (size_t)k * (len - 8) / 10;
      unsigned char was = buf[at];
      buf[at] = (unsigned char)(was ^ (0x5A + k));
      r->one(buf, len);
      buf[at] = was;
      r->runs++;
    }
  }
  free(buf);
}

static void test_corpus_replay(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  pqt_test_walk(dir, ".parquet", pqt_replay_file, &pqt_replay_state);
  printf("  %d files, %d runs\n", pqt_replay_state.files, pqt_replay_state.runs);
  CHECK(pqt_replay_state.files > 50);
}

static void pqt_replay_kept_file(const char *path, void *ctx) {
  pqt_replay *r = (pqt_replay *)ctx;
  size_t len;
  unsigned char *buf = pqt_test_read_file(path, &len);
  if (!buf) return;
  r->one(buf, len);
  r->kept++;
  free(buf);
}

static void test_kept_findings(void) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tests/hardening/fuzz_regressions/%s", PQT_SOURCE_DIR, pqt_replay_state.target);
  pqt_test_walk(dir, "", pqt_replay_kept_file, &pqt_replay_state);
  printf("  %d kept findings\n", pqt_replay_state.kept);
}

/* The whole test: 77 (skipped) without the corpus. */
static inline int pqt_replay_main(const char *name, const char *target, pqt_replay_fn one, size_t max_len) {
  if (!pqt_testing_dir()) return 77;
  pqt_replay_state.one = one;
  pqt_replay_state.max_len = max_len;
  pqt_replay_state.target = target;
  static const pqt_test_case cases[] = {TEST_CASE(test_kept_findings), TEST_CASE(test_corpus_replay)};
  return pqt_run_tests(name, cases, sizeof cases / sizeof cases[0]);
}

#endif
