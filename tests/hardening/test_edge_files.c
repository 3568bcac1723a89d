/*
 * Files at the edges: offsets past 4 GiB (a sparse file), a file without
 * rows, a schema of 100,000 columns, a row group without columns, data pages
 * holding no values, and data 200 groups deep. Each reads as it should.
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <unistd.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static pqt_status cat_path(const char *path, pqt_test_text *t, pqt_error *e) {
  pqt_reader *r;
  pqt_status st = pqt_reader_open_file(&r, path, NULL, e);
  if (st != PQT_OK) return st;
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, t, e);
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
    pqt_test_text t = {0};
    pqt_error e;
    pqt_error_init(&e);
    CHECK_MSG(cat_path(out, &t, &e) == PQT_OK, "%s", e.message);
    CHECK(t.p && strcmp(t.p,
                        "{\"text\":\"text1\"}\n{\"text\":\"text2\"}\n{\"text\":\"text3\"}\n{\"text\":\"text4\"}\n"
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
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { required int64 a; optional binary b (STRING); }"};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &buf, &ws, NULL, NULL));
  if (!w) return;
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, NULL));
  if (r) {
    CHECK_EQ_INT(pqt_reader_num_rows(r), 0);
    pqt_test_text t = {0};
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, NULL));
    CHECK(t.n == 0);
    free(t.p);
    int64_t problems = -1;
    pqt_test_text v = {0};
    CHECK_OK(pqt_reader_verify(r, pqt_test_collect, &v, &problems, NULL));
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
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = (const char *)schema.data};
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
    pqt_test_text t = {0};
    CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, NULL));
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
  PQT_SET_FIELD(&root, schema_element, name);
  PQT_SET_FIELD(&root, schema_element, num_children);
  pqt_row_group rg;
  memset(&rg, 0, sizeof rg);
  rg.num_rows = 3;
  rg.total_byte_size = 0;
  PQT_SET_FIELD(&rg, row_group, columns);
  PQT_SET_FIELD(&rg, row_group, total_byte_size);
  PQT_SET_FIELD(&rg, row_group, num_rows);
  pqt_file_metadata md;
  memset(&md, 0, sizeof md);
  md.version = 1;
  md.schema.items = &root;
  md.schema.n = 1;
  md.num_rows = 3;
  md.row_groups.items = &rg;
  md.row_groups.n = 1;
  md.isset = PQT_FIELD_MASK(file_metadata, version, schema, num_rows, row_groups);
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
    pqt_test_text t = {0};
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, NULL));
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

/* Empty data pages (v1 and v2, no values, no bytes) before, between and
 * after the real pages of a chunk: they add nothing and break nothing. */
static void test_empty_pages(void) {
  pqt_string buf = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 a; }"};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = PQT_CODEC_UNCOMPRESSED;
  o.defaults.dictionary = 0;
  o.defaults.page_index = 0;
  o.defaults.page_row_limit = 100;
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &buf, &ws, &o, NULL));
  if (!w) return;
  int64_t v[250];
  for (int i = 0; i < 250; i++) v[i] = i * 3;
  CHECK_OK(pqt_writer_write_column(w, 0, 250, NULL, NULL, v, NULL, 250, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  const uint8_t *f = (const uint8_t *)buf.data;
  uint32_t flen = pqt_load_u32le(f + buf.len - 8);
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_file_metadata md;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, f + buf.len - 8 - flen, flen, NULL, &arena, &md, NULL));
  pqt_column_metadata *cm = &md.row_groups.items[0].columns.items[0].meta_data;
  uint64_t start = (uint64_t)cm->data_page_offset, end = start + (uint64_t)cm->total_compressed_size;
  /* the two empty pages */
  pqt_page_header v1, v2;
  memset(&v1, 0, sizeof v1);
  v1.type = PQT_PAGE_DATA;
  v1.isset = PQT_FIELD_MASK(page_header, type, uncompressed_page_size, compressed_page_size, data_page_header);
  v1.data_page_header.encoding = PQT_ENC_PLAIN;
  v1.data_page_header.definition_level_encoding = PQT_ENC_RLE;
  v1.data_page_header.repetition_level_encoding = PQT_ENC_RLE;
  v1.data_page_header.isset =
      PQT_FIELD_MASK(data_page_header, num_values, encoding, definition_level_encoding, repetition_level_encoding);
  memset(&v2, 0, sizeof v2);
  v2.type = PQT_PAGE_DATA_V2;
  v2.isset = PQT_FIELD_MASK(page_header, type, uncompressed_page_size, compressed_page_size, data_page_header_v2);
  v2.data_page_header_v2.encoding = PQT_ENC_PLAIN;
  v2.data_page_header_v2.isset = PQT_FIELD_MASK(data_page_header_v2, num_values, num_nulls, num_rows, encoding,
                                                definition_levels_byte_length, repetition_levels_byte_length);
  pqt_buf e1, e2, out;
  pqt_buf_init(&e1, NULL);
  pqt_buf_init(&e2, NULL);
  pqt_buf_init(&out, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &v1, &e1, NULL));
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &v2, &e2, NULL));
  CHECK_OK(pqt_buf_append(&out, f, (size_t)start, NULL));
  CHECK_OK(pqt_buf_append(&out, e1.data, e1.len, NULL)); /* before the first page */
  int pages = 0;
  for (uint64_t p = start; p < end;) {
    pqt_page_header h;
    size_t hl = 0;
    if (pqt_thrift_decode(&pqt_desc_page_header, f + p, (size_t)(end - p), &hl, NULL, &h, NULL) != PQT_OK) break;
    CHECK_OK(pqt_buf_append(&out, f + p, hl + (size_t)h.compressed_page_size, NULL));
    p += hl + (uint64_t)h.compressed_page_size;
    if (pages++ == 0) CHECK_OK(pqt_buf_append(&out, e2.data, e2.len, NULL)); /* between pages */
  }
  CHECK_EQ_INT(pages, 3);
  CHECK_OK(pqt_buf_append(&out, e1.data, e1.len, NULL)); /* after the last page */
  int64_t added = (int64_t)(2 * e1.len + e2.len);
  cm->total_compressed_size += added;
  cm->total_uncompressed_size += added;
  md.row_groups.items[0].total_compressed_size += added;
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &md, &out, NULL));
  uint8_t tail[8];
  size_t footer_start = (size_t)end + (size_t)added;
  pqt_store_u32le(tail, (uint32_t)(out.len - footer_start));
  memcpy(tail + 4, "PAR1", 4);
  CHECK_OK(pqt_buf_append(&out, tail, 8, NULL));
  pqt_reader *r = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e) == PQT_OK, "%s", e.message);
  if (r) {
    pqt_test_text t = {0};
    CHECK_MSG(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, &e) == PQT_OK, "%s", e.message);
    int n = 0;
    for (const char *q = t.p; q && *q; q = strchr(q, '\n') + 1, n++) {
      char want[32];
      snprintf(want, sizeof want, "{\"a\":%d}\n", n * 3);
      CHECK_MSG(strncmp(q, want, strlen(want)) == 0, "row %d", n);
    }
    CHECK_EQ_INT(n, 250);
    free(t.p);
    pqt_test_text pages_text = {0};
    CHECK_OK(pqt_reader_describe_pages(r, NULL, pqt_test_collect, &pages_text, NULL));
    int lines = 0;
    for (const char *q = pages_text.p; q && (q = strchr(q, '\n')); q++) lines++;
    CHECK_EQ_INT(lines, 6);
    free(pages_text.p);
    pqt_reader_close(r);
  }
  pqt_buf_free(&e1);
  pqt_buf_free(&e2);
  pqt_buf_free(&out);
  pqt_arena_reset(&arena);
  pqt_string_free(&buf);
}

/* Values 200 optional groups deep, null at every level along the way. */
static void test_deep_data(void) {
  enum { DEPTH = 200 };
  pqt_buf schema;
  pqt_buf_init(&schema, NULL);
  CHECK_OK(pqt_buf_printf(&schema, NULL, "message m {\n"));
  for (int i = 0; i < DEPTH; i++) CHECK_OK(pqt_buf_printf(&schema, NULL, "optional group g%d {\n", i));
  CHECK_OK(pqt_buf_printf(&schema, NULL, "optional int32 x;\n"));
  for (int i = 0; i <= DEPTH; i++) CHECK_OK(pqt_buf_printf(&schema, NULL, "}\n"));
  CHECK_OK(pqt_buf_append(&schema, "", 1, NULL));
  pqt_string buf = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = (const char *)schema.data};
  pqt_writer *w = NULL;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_MSG(pqt_writer_open_buffer(&w, &buf, &ws, NULL, &e) == PQT_OK, "%s", e.message);
  if (!w) {
    pqt_buf_free(&schema);
    return;
  }
  /* row i: defined down to level i % (DEPTH + 2) (DEPTH + 1: the value itself) */
  enum { ROWS = 404 };
  int16_t def[ROWS];
  int32_t x[ROWS];
  int nv = 0;
  for (int i = 0; i < ROWS; i++) {
    def[i] = (int16_t)(i % (DEPTH + 2));
    if (def[i] == DEPTH + 1) x[nv++] = i;
  }
  CHECK_OK(pqt_writer_write_column(w, 0, ROWS, def, NULL, x, NULL, nv, NULL));
  CHECK_OK(pqt_writer_close(w, NULL));
  pqt_reader *r = NULL;
  CHECK_MSG(pqt_reader_open_buffer(&r, buf.data, buf.len, NULL, &e) == PQT_OK, "%s", e.message);
  if (r) {
    pqt_test_text t = {0};
    CHECK_MSG(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, &t, &e) == PQT_OK, "%s", e.message);
    /* row i, level d = i % 202: the record and min(d, 200) groups, then null (or the value) */
    const char *q = t.p;
    int n = 0;
    for (; q && *q; n++) {
      const char *nl = strchr(q, '\n');
      if (!nl) break;
      int d = n % (DEPTH + 2), opened = 0;
      for (const char *c = q; c < nl; c++) opened += *c == '{';
      CHECK_MSG(opened == (d < DEPTH ? d : DEPTH) + 1, "row %d: %d objects for level %d", n, opened, d);
      if (d == DEPTH + 1) {
        char want[32];
        snprintf(want, sizeof want, "\"x\":%d}", n);
        CHECK_MSG(strstr(q, want) != NULL && strstr(q, want) < nl, "row %d", n);
      }
      q = nl + 1;
    }
    CHECK_EQ_INT(n, ROWS);
    free(t.p);
    struct ArrowArrayStream st;
    CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
    struct ArrowArray a;
    int64_t rows = 0;
    while (st.get_next(&st, &a) == 0 && a.release) {
      rows += a.length;
      a.release(&a);
    }
    CHECK_EQ_INT(rows, ROWS);
    st.release(&st);
    pqt_reader_close(r);
  }
  pqt_string_free(&buf);
  pqt_buf_free(&schema);
}

RUN_TESTS("edge_files", TEST_CASE(test_zero_column_row_group), TEST_CASE(test_offsets_past_4gib),
          TEST_CASE(test_file_without_rows), TEST_CASE(test_hundred_thousand_columns), TEST_CASE(test_empty_pages),
          TEST_CASE(test_deep_data))
