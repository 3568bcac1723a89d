/*
 * Allocation-failure sweep (issue 5; libdeflate test_custom_malloc.c,
 * SQLite SQLITE_NOMEM_BKPT): open and read a few small valid files through
 * an allocator that fails exactly the Nth request, for every N from 1 to
 * the number of requests a clean read makes. Every step (open, schema text,
 * metadata JSON and summary, the Arrow stream, JSONL and CSV text) must
 * then either succeed or fail with PQT_ENOMEM (ENOMEM for the stream); a
 * refused allocation must surface as ENOMEM in some step (never silently
 * swallowed into a wrong result or another error); and after close the
 * bytes allocated minus the bytes freed must be 0 (the read helper,
 * fuzz/fuzz_read_file.c, aborts on a leak or a free with the wrong size).
 * The same sweep runs over pqt_reader_open_file (memory-mapped source).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define LLVMFuzzerTestOneInput pqt_fuzz_entry_read_file_unused
#include "../../fuzz/fuzz_read_file.c"
#undef LLVMFuzzerTestOneInput

static int ok_or_nomem(pqt_status st) { return st == PQT_OK || st == PQT_ENOMEM || st == -1; }

/* Sweep fail_at over every allocation of a clean read of data. */
static void sweep_buffer(const char *name, const uint8_t *data, size_t len) {
  pqt_fuzz_alloc fa;
  pqt_fuzz_alloc_init(&fa);
  pqt_fuzz_read_result clean = pqt_fuzz_read_file_with(data, len, 0, &fa);
  CHECK_MSG(clean.open == PQT_OK && clean.stream_errno == 0 && clean.jsonl == PQT_OK && clean.csv == PQT_OK,
            "%s: a clean read fails", name);
  uint64_t total = fa.n_calls;
  CHECK_MSG(total > 3, "%s: only %llu allocations", name, (unsigned long long)total);
  uint64_t runs = 0, failed_cleanly = 0;
  for (uint64_t n = 1; n <= total + 1; n++) {
    pqt_fuzz_alloc_init(&fa);
    fa.fail_at = n;
    pqt_fuzz_read_result r = pqt_fuzz_read_file_with(data, len, 0, &fa);
    runs++;
    int steps_ok = ok_or_nomem(r.open) && ok_or_nomem(r.schema_text) && ok_or_nomem(r.metadata_json) &&
                   ok_or_nomem(r.summary) && ok_or_nomem(r.jsonl) && ok_or_nomem(r.csv) &&
                   (r.stream_errno <= 0 || r.stream_errno == ENOMEM);
    CHECK_MSG(steps_ok,
              "%s, allocation %llu failed: open %d schema %d json %d summary %d stream errno %d jsonl %d csv %d", name,
              (unsigned long long)n, r.open, r.schema_text, r.metadata_json, r.summary, r.stream_errno, r.jsonl, r.csv);
    int any_nomem = r.open == PQT_ENOMEM || r.schema_text == PQT_ENOMEM || r.metadata_json == PQT_ENOMEM ||
                    r.summary == PQT_ENOMEM || r.jsonl == PQT_ENOMEM || r.csv == PQT_ENOMEM || r.stream_errno == ENOMEM;
    if (fa.n_failed) {
      CHECK_MSG(any_nomem, "%s: allocation %llu was refused but every step succeeded", name, (unsigned long long)n);
      failed_cleanly += any_nomem;
    } else {
      /* past the last allocation: the read is clean again */
      CHECK_MSG(!any_nomem && r.open == PQT_OK && r.jsonl == PQT_OK, "%s: run %llu refused nothing but failed", name,
                (unsigned long long)n);
      CHECK_EQ_INT(r.jsonl_lines, clean.jsonl_lines);
    }
    if (fa.n_failed && r.open == PQT_OK && r.jsonl == PQT_OK && r.stream_errno == 0)
      CHECK_EQ_INT(r.jsonl_lines, clean.jsonl_lines);
  }
  fprintf(stderr, "  %s: %llu allocations, %llu runs, %llu failed with ENOMEM\n", name, (unsigned long long)total,
          (unsigned long long)runs, (unsigned long long)failed_cleanly);
}

static void sweep_file(const char *path, const char *name) {
  size_t len = 0;
  unsigned char *data = pqt_test_read_file(path, &len);
  CHECK_MSG(data != NULL, "cannot read %s", path);
  if (!data) return;
  sweep_buffer(name, data, len);
  free(data);
}

static void test_fixtures(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_simple.parquet", PQT_SOURCE_DIR);
  sweep_file(path, "seed004_simple");
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_nested.parquet", PQT_SOURCE_DIR);
  sweep_file(path, "seed004_nested");
}

static void test_corpus_files(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  /* one per feature: dictionary + snappy, v2 pages, nested lists and maps,
   * delta and byte-stream-split encodings, CRCs, legacy lists, decimals */
  static const char *files[] = {
      "data/alltypes_plain.snappy.parquet",    "data/datapage_v2.snappy.parquet",
      "data/nested_lists.snappy.parquet",      "data/nested_maps.snappy.parquet",
      "data/delta_length_byte_array.parquet",  "data/byte_stream_split.zstd.parquet",
      "data/rle-dict-snappy-checksum.parquet", "data/old_list_structure.parquet",
      "data/nullable.impala.parquet",          "data/fixed_length_decimal.parquet",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    sweep_file(path, files[i]);
  }
}

/* pqt_reader_open_file: the mmap source allocates through the allocator too. */
static void test_open_file(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_nested.parquet", PQT_SOURCE_DIR);
  uint64_t total = 0;
  for (uint64_t n = 0;; n++) {
    pqt_fuzz_alloc fa;
    pqt_fuzz_alloc_init(&fa);
    fa.fail_at = n;
    pqt_read_options ro;
    pqt_read_options_init(&ro);
    ro.alloc = &fa.base;
    pqt_reader *r = NULL;
    pqt_error err;
    pqt_error_init(&err);
    pqt_status st = pqt_reader_open_file(&r, path, &ro, &err);
    if (n == 0) {
      CHECK_EQ_INT(st, PQT_OK);
      total = fa.n_calls;
    } else if (fa.n_failed) {
      CHECK_MSG(st == PQT_ENOMEM, "open_file with allocation %llu failing gave %s", (unsigned long long)n,
                pqt_status_name(st));
      CHECK(r == NULL);
    }
    if (st == PQT_OK) pqt_reader_close(r);
    CHECK_MSG(fa.live == 0, "open_file, allocation %llu failing: %zu bytes leaked", (unsigned long long)n, fa.live);
    CHECK_EQ_INT(fa.size_mismatches, 0);
    if (n > total) break;
  }
  CHECK(total > 1);
}

int main(void) {
  static const pqt_test_case cases[] = {
      TEST_CASE(test_fixtures),
      TEST_CASE(test_corpus_files),
      TEST_CASE(test_open_file),
  };
  return pqt_run_tests("alloc_failures", cases, sizeof cases / sizeof cases[0]);
}
