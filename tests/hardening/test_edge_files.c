/*
 * Files at the edges: offsets past 4 GiB (a sparse file), a file without
 * rows, and a schema of 100,000 columns. Each reads as it should.
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <unistd.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

typedef struct text { char *p; size_t n; } text;
static pqt_status collect(void *ctx, const char *d, size_t n) {
  text *t = ctx;
  char *q = realloc(t->p, t->n + n + 1);
  if (!q) return PQT_ENOMEM;
  memcpy(q + t->n, d, n);
  t->p = q;
  t->n += n;
  t->p[t->n] = '\0';
  return PQT_OK;
}

static pqt_status cat_path(const char *path, text *t, pqt_error *e) {
  pqt_reader *r;
  pqt_status st = pqt_reader_open_file(&r, path, NULL, e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, t, e);
  pqt_reader_close(r);
  return st;
}

/* seed004_simple.parquet moved 5 GiB further into a sparse file: every
 * offset of the footer shifted past 2^32. */
static void test_offsets_past_4gib(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/fixtures/seed004_simple.parquet", PQT_SOURCE_DIR);
  size_t len;
  uint8_t *src = pqt_test_read_file(path, &len);
  CHECK(src && len == 307);
  if (!src) return;
  const uint64_t shift = (uint64_t)5 << 30;
  uint32_t flen = pqt_load_u32le(src + len - 8);
  const uint8_t *footer = src + len - 8 - flen;
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_file_metadata md;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, footer, flen, NULL, &arena, &md, NULL));
  pqt_row_group *rg = &md.row_groups.items[0];
  rg->file_offset += (int64_t)shift;
  pqt_column_chunk *cc = &rg->columns.items[0];
  cc->meta_data.data_page_offset += (int64_t)shift;
  cc->offset_index_offset += (int64_t)shift;
  cc->column_index_offset += (int64_t)shift;
  pqt_buf nf;
  pqt_buf_init(&nf, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &md, &nf, NULL));
  char out[4096];
  snprintf(out, sizeof out, "/tmp/pqt_sparse_%d.parquet", (int)getpid());
  int fd = open(out, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  CHECK(fd >= 0);
  if (fd >= 0) {
    /* magic, a hole, the pages and indexes at their shifted offsets, the footer */
    bool ok = pwrite(fd, src, 4, 0) == 4;
    size_t body = len - 8 - flen - 4;
    ok = ok && pwrite(fd, src + 4, body, (off_t)(4 + shift)) == (ssize_t)body;
    uint8_t tail[8];
    pqt_store_u32le(tail, (uint32_t)nf.len);
    memcpy(tail + 4, "PAR1", 4);
    ok = ok && pwrite(fd, nf.data, nf.len, (off_t)(4 + shift + body)) == (ssize_t)nf.len;
    ok = ok && pwrite(fd, tail, 8, (off_t)(4 + shift + body + nf.len)) == 8;
    close(fd);
    CHECK(ok);
    text t = {0};
    pqt_error e;
    pqt_error_init(&e);
    CHECK_MSG(cat_path(out, &t, &e) == PQT_OK, "%s", e.message);
    CHECK(t.p && strcmp(t.p, "{\"text\":\"text1\"}\n{\"text\":\"text2\"}\n{\"text\":\"text3\"}\n{\"text\":\"text4\"}\n"
                             "{\"text\":\"text5\"}\n") == 0);
    free(t.p);
    unlink(out);
  }
  pqt_buf_free(&nf);
  pqt_arena_reset(&arena);
  free(src);
}

static void test_file_without_rows(void) {
  pqt_string buf = {0};
  pqt_write_schema ws = {.message = "message m { required int64 a; optional binary b (STRING); }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &buf, &ws, NULL, NULL));
  if (!w) return;
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, NULL));
  if (r) {
    CHECK_EQ_INT(pqt_reader_num_rows(r), 0);
    text t = {0};
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &t, NULL));
    CHECK(t.n == 0);
    free(t.p);
    int64_t problems = -1;
    text v = {0};
    CHECK_OK(pqt_reader_verify(r, collect, &v, &problems, NULL));
    CHECK_EQ_INT(problems, 0);
    free(v.p);
    pqt_reader_close(r);
  }
  pqt_string_free(&buf);
}

/* 100,000 leaf columns, one row: written by our writer, read back. */
static void test_hundred_thousand_columns(void) {
  enum { N = 100000 };
  pqt_buf schema;
  pqt_buf_init(&schema, NULL);
  CHECK_OK(pqt_buf_printf(&schema, NULL, "message wide {"));
  for (int i = 0; i < N; i++) CHECK_OK(pqt_buf_printf(&schema, NULL, " required int32 c%d;", i));
  CHECK_OK(pqt_buf_printf(&schema, NULL, " }"));
  CHECK_OK(pqt_buf_append(&schema, "", 1, NULL));
  pqt_string buf = {0};
  pqt_write_schema ws = {.message = (const char *)schema.data};
  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.defaults.statistics = 0;
  wo.defaults.page_index = 0;
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_writer_open_buffer(&w, &buf, &ws, &wo, &e) == PQT_OK, "%s", e.message);
  if (w) {
    CHECK_EQ_INT(pqt_writer_num_columns(w), N);
    pqt_status st = PQT_OK;
    for (int i = 0; i < N && st == PQT_OK; i++) {
      int32_t v = i * 3;
      st = pqt_writer_write_column(w, i, 1, NULL, NULL, &v, NULL, 1, &e);
    }
    CHECK_MSG(st == PQT_OK, "%s", e.message);
    CHECK_MSG(pqt_writer_close(w, &e) == PQT_OK, "%s", e.message);
  }
  pqt_reader *r = NULL;
  CHECK_MSG(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, &e) == PQT_OK, "%s", e.message);
  if (r) {
    CHECK_EQ_INT(pqt_reader_num_columns(r), N);
    CHECK_EQ_INT(pqt_reader_num_rows(r), 1);
    const char *cols[] = {"c0", "c99999"};
    pqt_scan_options so;
    pqt_scan_options_init(&so);
    so.columns = cols;
    so.n_columns = 2;
    text t = {0};
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &t, NULL));
    CHECK(t.p && strcmp(t.p, "{\"c0\":0,\"c99999\":299997}\n") == 0);
    free(t.p);
    pqt_reader_close(r);
  }
  pqt_string_free(&buf);
  pqt_buf_free(&schema);
}

/* A schema without columns and a row group without column chunks: three
 * rows of nothing, read as three empty records. */
static void test_zero_column_row_group(void) {
  pqt_schema_element root;
  memset(&root, 0, sizeof root);
  root.name = (pqt_bytes){(const uint8_t *)"empty", 5};
  root.num_children = 0;
  PQT_SET(&root, 4);
  PQT_SET(&root, 5);
  pqt_row_group rg;
  memset(&rg, 0, sizeof rg);
  rg.num_rows = 3;
  rg.total_byte_size = 0;
  PQT_SET(&rg, 1);
  PQT_SET(&rg, 2);
  PQT_SET(&rg, 3);
  pqt_file_metadata md;
  memset(&md, 0, sizeof md);
  md.version = 1;
  md.schema.items = &root;
  md.schema.n = 1;
  md.num_rows = 3;
  md.row_groups.items = &rg;
  md.row_groups.n = 1;
  md.isset = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4);
  pqt_buf f;
  pqt_buf_init(&f, NULL);
  CHECK_OK(pqt_buf_append(&f, "PAR1", 4, NULL));
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &md, &f, NULL));
  uint8_t tail[8];
  pqt_store_u32le(tail, (uint32_t)(f.len - 4));
  memcpy(tail + 4, "PAR1", 4);
  CHECK_OK(pqt_buf_append(&f, tail, 8, NULL));
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e) == PQT_OK, "%s", e.message);
  if (r) {
    CHECK_EQ_INT(pqt_reader_num_columns(r), 0);
    CHECK_EQ_INT(pqt_reader_num_rows(r), 3);
    text t = {0};
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &t, NULL));
    CHECK(t.p && strcmp(t.p, "{}\n{}\n{}\n") == 0);
    free(t.p);
    struct ArrowArrayStream st;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
    struct ArrowArray a;
    int64_t rows = 0;
    while (st.get_next(&st, &a) == 0 && a.release) {
      CHECK_EQ_INT(a.n_children, 0);
      rows += a.length;
      a.release(&a);
    }
    CHECK_EQ_INT(rows, 3);
    st.release(&st);
    pqt_reader_close(r);
  }
  pqt_buf_free(&f);
}

RUN_TESTS("edge_files", TEST_CASE(test_zero_column_row_group), TEST_CASE(test_offsets_past_4gib), TEST_CASE(test_file_without_rows),
          TEST_CASE(test_hundred_thousand_columns))
