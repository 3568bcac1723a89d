/*
 * tests/unit/test_dataset_seeds.c: fuzz/fuzz_dataset.c's seeds (and its
 * regressions, when there are) replayed under ctest: a dataset listed and
 * opened through caller callbacks (pqt_dataset_fs: an in-memory lister and
 * opener, as a remote store would plug in), with the target's invariants
 * (stream, text, count and plan agree) checked on each.
 */
#include <dirent.h>

#include "../harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_dataset
#include "../../fuzz/fuzz_dataset.c"
#undef LLVMFuzzerTestOneInput

static int replay(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t len = 0;
    unsigned char *buf = pqt_test_read_file(path, &len);
    if (!buf) continue;
    pqt_fuzz_entry_dataset(buf, len);
    free(buf);
    n++;
  }
  closedir(d);
  return n;
}

static void test_seeds(void) {
  int n = replay(PQT_SOURCE_DIR "/fuzz/corpus/dataset");
  CHECK_MSG(n >= 3, "fuzz/corpus/dataset holds the seeds (%d found)", n);
  CHECK_EQ_INT(ds_fuzz_opened, n); /* every seed opens a dataset */
  (void)replay(PQT_SOURCE_DIR "/tests/hardening/fuzz_regressions/fuzz_dataset");
}

/* A seed spelled out: three files under data/, two of 2024 pass a partition
 * predicate, their v > 3 rows are counted through the callbacks. */
static void test_memory_lister(void) {
  const char *in =
      "data/**/*.parquet\n"
      "year = 2024 AND id >= 3\n"
      "data/year=2023/m=a/x.parquet\n"
      "data/year=2024/m=b/xy.parquet\n"
      "data/year=2024/m=c/xyz.parquet\n";
  int before = ds_fuzz_opened;
  pqt_fuzz_entry_dataset((const uint8_t *)in, strlen(in));
  CHECK_EQ_INT(ds_fuzz_opened, before + 1);
  CHECK_EQ_INT(ds_fuzz_count, 6); /* 2 files x ids 3, 4, 5 */
}

RUN_TESTS("dataset_seeds", TEST_CASE(test_seeds), TEST_CASE(test_memory_lister))
