/* The key material fuzz target (fuzz/fuzz_key_material.c) under ctest: its
 * seeds (fuzz/corpus/key_material/: the corpus's parquet-java material and
 * what parquetry writes), each with every byte flipped, cut at every length
 * and with bytes inserted, through the very code of the target (it aborts
 * on a wrong result; ASan/UBSan catch memory errors). */
#include <dirent.h>

#include "harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_key_material
#include "../../fuzz/fuzz_key_material.c"
#undef LLVMFuzzerTestOneInput

static void run(const unsigned char *p, size_t n) {
  unsigned char *exact = malloc(n ? n : 1);
  memcpy(exact, p, n);
  pqt_fuzz_entry_key_material(exact, n);
  free(exact);
}

static void test_seeds_and_mutations(void) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/fuzz/corpus/key_material", PQT_SOURCE_DIR);
  DIR *d = opendir(dir);
  CHECK_MSG(d != NULL, "no %s", dir);
  if (!d) return;
  int files = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t len = 0;
    unsigned char *buf = pqt_test_read_file(path, &len);
    CHECK_MSG(buf != NULL, "cannot read %s", path);
    if (!buf) continue;
    files++;
    run(buf, len);
    unsigned char *m = malloc(len + 1);
    for (size_t i = 0; i < len; i++) {
      memcpy(m, buf, len);
      m[i] ^= (unsigned char)(1u << (i % 8));
      run(m, len);
      run(buf, i); /* cut */
      memcpy(m, buf, i);
      m[i] = (unsigned char)"\"\\{},:0\x01"[i % 8]; /* inserted */
      memcpy(m + i + 1, buf + i, len - i);
      run(m, len + 1);
    }
    free(m);
    free(buf);
  }
  closedir(d);
  CHECK_MSG(files >= 5, "fuzz/corpus/key_material holds %d seeds", files);
}

RUN_TESTS("key_material_replay", TEST_CASE(test_seeds_and_mutations))
