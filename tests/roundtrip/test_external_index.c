/* The page index and Bloom filter of a column chunk stored in another file
 * (ColumnChunk.file_path): their offsets (offset_index_offset,
 * column_index_offset, bloom_filter_offset) point into the file that holds
 * the chunk's pages, as parquet-java reads them, not into the footer's
 * file. `concat --metadata-only` drops them from its summaries, but other
 * writers keep them: a summary is made here from a corpus file with a page
 * index and a Bloom filter (data_index_bloom_encoding_with_length.parquet),
 * keeping those offsets, and checked:
 *   - verify of the summary finds no problem and checks as many chunks as
 *     verify of the data file (before, the offsets were looked up in the
 *     summary: "lies outside the file");
 *   - cat and count --where (a value the Bloom filter rules out, one it
 *     holds) give what the data file gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "file/reader_internal.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_filter.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static bool copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  bool ok = in && out;
  char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = false;
  return ok;
}

/* A footer-only file over data.parquet, every chunk's index and Bloom
 * filter offsets kept (they point into data.parquet). */
static bool write_summary(const char *data_path, const char *summary_path) {
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, data_path, NULL, &e) != PQT_OK) return false;
  pqt_file_metadata md = r->md;
  int32_t ng = md.row_groups.n;
  pqt_row_group *rgs = calloc((size_t)ng + 1, sizeof *rgs);
  pqt_column_chunk *all = NULL;
  int32_t total = 0;
  for (int32_t g = 0; g < ng; g++) total += md.row_groups.items[g].columns.n;
  all = calloc((size_t)total + 1, sizeof *all);
  bool ok = rgs && all;
  int32_t k = 0;
  int kept = 0;
  for (int32_t g = 0; ok && g < ng; g++) {
    rgs[g] = md.row_groups.items[g];
    pqt_column_chunk *cols = all + k;
    for (int32_t c = 0; c < rgs[g].columns.n; c++, k++) {
      all[k] = rgs[g].columns.items[c];
      all[k].file_path = (pqt_bytes){(const uint8_t *)"data.parquet", 12};
      PQT_SET_FIELD(&all[k], column_chunk, file_path);
      kept += PQT_HAS_FIELD(&all[k], column_chunk, offset_index_offset) &&
              PQT_HAS_FIELD(&all[k], column_chunk, column_index_offset) &&
              PQT_HAS_FIELD(&all[k].meta_data, column_metadata, bloom_filter_offset);
    }
    rgs[g].columns.items = cols;
  }
  CHECK_MSG(kept > 0, "the corpus file has no chunk with a page index and a Bloom filter");
  md.row_groups.items = rgs;
  pqt_buf out;
  pqt_buf_init(&out, NULL);
  ok = ok && kept > 0 && pqt_thrift_encode(&pqt_desc_file_metadata, &md, &out, &e) == PQT_OK;
  FILE *f = ok ? fopen(summary_path, "wb") : NULL;
  if (f) {
    uint8_t len[4] = {(uint8_t)out.len, (uint8_t)(out.len >> 8), (uint8_t)(out.len >> 16), (uint8_t)(out.len >> 24)};
    ok = fwrite("PAR1", 1, 4, f) == 4 && fwrite(out.data, 1, out.len, f) == out.len && fwrite(len, 1, 4, f) == 4 &&
         fwrite("PAR1", 1, 4, f) == 4;
    if (fclose(f) != 0) ok = false;
  } else {
    ok = false;
  }
  pqt_buf_free(&out);
  free(all);
  free(rgs);
  pqt_reader_close(r);
  return ok;
}

static pqt_status append(void *ctx, const char *data, size_t len) {
  pqt_string *s = ctx;
  char *p = realloc(s->data, s->len + len + 1);
  if (!p) return PQT_ENOMEM;
  memcpy(p + s->len, data, len);
  p[s->len + len] = 0;
  s->data = p;
  s->len += len;
  return PQT_OK;
}

typedef struct result {
  int64_t problems, chunks;
  pqt_string verify_text, text;
  int64_t absent_count, present_count;
  pqt_scan_stats absent_stats;
  char error[512];
} result;

static void read_all(const char *path, result *out) {
  memset(out, 0, sizeof *out);
  pqt_reader *r = NULL;
  pqt_error e;
  if (pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) {
    snprintf(out->error, sizeof out->error, "open: %.400s", e.message);
    return;
  }
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  if (pqt_reader_verify_ex(r, append, &out->verify_text, &rep, &e) != PQT_OK)
    snprintf(out->error, sizeof out->error, "verify: %.400s", e.message);
  out->problems = rep.problems;
  out->chunks = rep.chunks_checked;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  if (pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, append, &out->text, &e) != PQT_OK)
    snprintf(out->error, sizeof out->error, "cat: %.400s", e.message);
  const char *wheres[2] = {"String = 'Hellp'", "String = 'today'"};
  for (int i = 0; i < 2; i++) {
    pqt_expr *x = NULL;
    CHECK_OK(pqt_expr_parse(wheres[i], strlen(wheres[i]), &x, &e));
    pqt_scan_options_init(&so);
    so.filter = x;
    if (i == 0) so.stats = &out->absent_stats;
    int64_t n = -1;
    if (pqt_reader_count(r, &so, &n, &e) != PQT_OK)
      snprintf(out->error, sizeof out->error, "count %s: %.400s", wheres[i], e.message);
    if (i == 0) out->absent_count = n;
    else out->present_count = n;
    pqt_expr_free(x);
  }
  pqt_reader_close(r);
}

static void test_index_and_bloom_from_the_data_file(void) {
  const char *corpus = pqt_testing_dir();
  if (!corpus) return;
  char src[1024], dir[] = "/tmp/pqt-extidx.XXXXXX", data[1100], summary[1100];
  snprintf(src, sizeof src, "%s/data/data_index_bloom_encoding_with_length.parquet", corpus);
  if (access(src, R_OK) != 0) {
    fprintf(stderr, "NOTE: %s not found\n", src);
    pqt_t_current_skipped = 1;
    return;
  }
  CHECK(mkdtemp(dir) != NULL);
  snprintf(data, sizeof data, "%s/data.parquet", dir);
  snprintf(summary, sizeof summary, "%s/_summary", dir);
  CHECK(copy_file(src, data));
  CHECK(write_summary(data, summary));
  result d, s;
  read_all(data, &d);
  read_all(summary, &s);
  CHECK_EQ_STR(d.error, "");
  CHECK_EQ_STR(s.error, "");
  CHECK_EQ_INT(d.problems, 0);
  CHECK_MSG(s.problems == 0, "verify of the summary: %lld problems: %s", (long long)s.problems,
            s.verify_text.data ? s.verify_text.data : "");
  CHECK(d.chunks > 0 && s.chunks == d.chunks);
  CHECK(d.text.len > 0 && s.text.len == d.text.len && memcmp(s.text.data, d.text.data, d.text.len) == 0);
  CHECK_EQ_INT(d.absent_count, 0);
  CHECK_EQ_INT(s.absent_count, 0);
  CHECK(d.present_count > 0 && s.present_count == d.present_count);
  free(d.verify_text.data), free(d.text.data), free(s.verify_text.data), free(s.text.data);
  unlink(data);
  unlink(summary);
  rmdir(dir);
}

RUN_TESTS("external_index", TEST_CASE(test_index_and_bloom_from_the_data_file))
