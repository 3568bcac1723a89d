/* Replays fuzz/corpus/thrift (the libFuzzer corpus of fuzz/fuzz_thrift.c)
 * under the sanitizer build: every input is decoded as each top-level
 * parquet.thrift struct; a successful decode must re-encode, decode again to
 * an equal model and render as JSON; a failed one must carry an error
 * code and message. Keeps fuzz findings as regressions in plain ctest. */
#include <dirent.h>

#include "core/core.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static int n_ok, n_err;

static void replay(const pqt_thrift_desc *d, const uint8_t *data, size_t size, const char *name) {
  void *m1 = calloc(1, d->size), *m2 = calloc(1, d->size);
  pqt_arena a1, a2;
  pqt_arena_init(&a1, NULL);
  pqt_arena_init(&a2, NULL);
  pqt_buf e1, e2, j;
  pqt_buf_init(&e1, NULL);
  pqt_buf_init(&e2, NULL);
  pqt_buf_init(&j, NULL);
  pqt_error err;
  pqt_error_init(&err);
  size_t used = 0;
  pqt_status st = pqt_thrift_decode(d, data, size, &used, &a1, m1, &err);
  if (st == PQT_OK) {
    n_ok++;
    CHECK(used <= size);
    if (pqt_thrift_encode(d, m1, &e1, NULL) == PQT_OK) {
      size_t used2 = 0;
      CHECK_MSG(pqt_thrift_decode(d, e1.data, e1.len, &used2, &a2, m2, NULL) == PQT_OK,
                "%s as %s: our encoding does not decode", name, d->name);
      CHECK(used2 == e1.len);
      CHECK_OK(pqt_thrift_encode(d, m2, &e2, NULL));
      CHECK_MSG(e1.len == e2.len && memcmp(e1.data, e2.data, e1.len) == 0, "%s as %s: re-encoding differs", name,
                d->name);
    }
    CHECK_OK(pqt_thrift_to_json(d, m1, 1, &j, NULL));
  } else {
    n_err++;
    CHECK_MSG(err.code == st && err.message[0] != 0, "%s as %s: status %d without message", name, d->name, st);
  }
  pqt_buf_free(&e1);
  pqt_buf_free(&e2);
  pqt_buf_free(&j);
  pqt_arena_reset(&a1);
  pqt_arena_reset(&a2);
  free(m1);
  free(m2);
}

static void test_replay_fuzz_corpus(void) {
  const char *dir = PQT_SOURCE_DIR "/fuzz/corpus/thrift";
  DIR *dp = opendir(dir);
  CHECK_MSG(dp != NULL, "no corpus at %s", dir);
  if (!dp) return;
  static const pqt_thrift_desc *const descs[] = {
      &pqt_desc_file_metadata,       &pqt_desc_page_header,          &pqt_desc_column_index,    &pqt_desc_offset_index,
      &pqt_desc_bloom_filter_header, &pqt_desc_file_crypto_metadata, &pqt_desc_column_metadata, &pqt_desc_statistics};
  int files = 0;
  struct dirent *de;
  char path[4096];
  while ((de = readdir(dp)) != NULL) {
    if (de->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    size_t n = 0;
    uint8_t *data = pqt_test_read_file(path, &n);
    if (!data) continue;
    files++;
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++) {
      /* exact-size copy so over-reads are caught */
      uint8_t *copy = malloc(n ? n : 1);
      if (n) memcpy(copy, data, n);
      replay(descs[i], copy, n, de->d_name);
      free(copy);
    }
    free(data);
  }
  closedir(dp);
  printf("replayed %d corpus inputs: %d decodes succeeded, %d failed cleanly\n", files, n_ok, n_err);
  CHECK(files > 100);
  CHECK(n_ok > 100);
}

RUN_TESTS("thrift_fuzz_corpus", TEST_CASE(test_replay_fuzz_corpus))
