/*
 * The public API's error contract (include/parquetry.h): the pqt_error is
 * output only. Every public function is called on a success path and on
 * failure paths with a pqt_error filled with 0x7f bytes beforehand and
 * again with NULL:
 *   - success returns PQT_OK whatever the error held;
 *   - failure sets every field: code == the status, a NUL-terminated,
 *     non-empty message with none of the garbage in it, and each place
 *     either -1 or in range (row group, column, page, file offset).
 * Writer paths that have no min/max to write (all-null, INT96, INTERVAL
 * columns) are included: pqt_writer_close returned the garbage code there.
 *
 * Also the lifetime rules: a stream, its batches and a column reader stay
 * valid after pqt_reader_close; a failing pqt_reader_get_stream (and
 * pqt_writer_arrow_schema) leaves out->release == NULL whatever out held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"

static pqt_error g_e;

/* A pqt_error full of garbage. */
static pqt_error *garbage(void) {
  memset(&g_e, 0x7f, sizeof g_e);
  return &g_e;
}

/* Places must be -1 or within these bounds. */
static int32_t g_max_rg = 1, g_max_col = 4, g_max_page = 1000;
static int64_t g_max_offset = 1 << 20;

#define CHECK_FAILED(st, what)                                                                                     \
  do {                                                                                                             \
    pqt_status st_ = (st);                                                                                         \
    const pqt_error *e_ = &g_e;                                                                                    \
    CHECK_MSG(st_ != PQT_OK, "%s: expected a failure", what);                                                      \
    CHECK_MSG(e_->code == st_, "%s: code %d, status %d", what, e_->code, st_);                                     \
    const char *nul_ = memchr(e_->message, 0, sizeof e_->message);                                                 \
    CHECK_MSG(nul_ != NULL, "%s: message not NUL-terminated", what);                                               \
    if (nul_) {                                                                                                    \
      CHECK_MSG(e_->message[0] != 0, "%s: empty message", what);                                                   \
      CHECK_MSG(strchr(e_->message, 0x7f) == NULL, "%s: garbage in the message: %s", what, e_->message);           \
    }                                                                                                              \
    CHECK_MSG(e_->row_group == -1 || (e_->row_group >= 0 && e_->row_group < g_max_rg), "%s: row_group %d", what,   \
              e_->row_group);                                                                                      \
    CHECK_MSG(e_->column == -1 || (e_->column >= 0 && e_->column < g_max_col), "%s: column %d", what, e_->column); \
    CHECK_MSG(e_->page == -1 || (e_->page >= 0 && e_->page < g_max_page), "%s: page %d", what, e_->page);          \
    CHECK_MSG(e_->file_offset == -1 || (e_->file_offset >= 0 && e_->file_offset <= g_max_offset),                  \
              "%s: file_offset %lld", what, (long long)e_->file_offset);                                           \
  } while (0)

/* Call EXPR (which uses ERR) with a garbage error, then with NULL: both fail. */
#define FAILS(EXPR)                                        \
  do {                                                     \
    pqt_error *ERR = garbage();                            \
    CHECK_FAILED((EXPR), #EXPR);                           \
    ERR = NULL;                                            \
    CHECK_MSG((EXPR) != PQT_OK, "%s (NULL error)", #EXPR); \
  } while (0)

/* Call EXPR with a garbage error: it succeeds. */
#define OK_GARBAGE(EXPR)                                                         \
  do {                                                                           \
    pqt_error *ERR = garbage();                                                  \
    pqt_status st_ = (EXPR);                                                     \
    CHECK_MSG(st_ == PQT_OK, "%s returned %d: %.200s", #EXPR, st_, g_e.message); \
  } while (0)

static const char *SCHEMA = "message m { required int64 id; optional binary name (STRING); optional double d; }";

static pqt_status sink(void *ctx, const char *data, size_t len) {
  pqt_string *s = ctx;
  size_t need = s->len + len + 1;
  if (need > s->cap) {
    size_t cap = need * 2;
    char *p = realloc(s->data, cap);
    if (!p) return PQT_ENOMEM;
    s->data = p;
    s->cap = cap;
  }
  memcpy(s->data + s->len, data, len);
  s->len += len;
  s->data[s->len] = 0;
  return PQT_OK;
}

static int g_fail_after;
static pqt_status failing_sink(void *ctx, const char *data, size_t len) {
  (void)ctx;
  (void)data;
  (void)len;
  return g_fail_after-- > 0 ? PQT_OK : PQT_EIO;
}

/* 100 rows: id = i, name = "n<i>" or null every 3rd, d = i / 4. */
static void write_rows(pqt_writer *w, pqt_error *err) {
  int64_t ids[100];
  int16_t ndef[100], ddef[100];
  int32_t offs[101];
  char names[1000];
  double ds[100];
  int64_t nn = 0;
  offs[0] = 0;
  for (int i = 0; i < 100; i++) {
    ids[i] = i;
    ndef[i] = i % 3 != 0;
    if (ndef[i]) {
      int k = snprintf(names + offs[nn], 10, "n%d", i);
      offs[nn + 1] = offs[nn] + k;
      nn++;
    }
    ddef[i] = 1;
    ds[i] = i / 4.0;
  }
  OK_GARBAGE(pqt_writer_write_column(w, 0, 100, NULL, NULL, ids, NULL, 100, ERR));
  OK_GARBAGE(pqt_writer_write_column(w, 1, 100, ndef, NULL, names, offs, nn, ERR));
  OK_GARBAGE(pqt_writer_write_column(w, 2, 100, ddef, NULL, ds, NULL, 100, ERR));
  (void)err;
}

/* A small file in memory (one row group, 100 rows, CRCs). */
static pqt_string make_file(void) {
  pqt_string out = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_writer *w = NULL;
  OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &ws, NULL, ERR));
  if (!w) return out;
  CHECK_EQ_INT(pqt_writer_num_columns(w), 3);
  write_rows(w, NULL);
  OK_GARBAGE(pqt_writer_flush_row_group(w, ERR));
  CHECK_EQ_INT(pqt_writer_num_rows(w), 100);
  CHECK(pqt_writer_bytes_written(w) > 0);
  OK_GARBAGE(pqt_writer_close(w, ERR));
  return out;
}

static void test_core_and_io(void) {
  CHECK(pqt_version() != NULL);
  pqt_error e;
  memset(&e, 0x7f, sizeof e);
  pqt_error_init(&e);
  CHECK(e.code == PQT_OK && e.message[0] == 0 && e.row_group == -1 && e.column == -1 && e.page == -1 &&
        e.file_offset == -1);
  pqt_error_init(NULL);
  CHECK_EQ_STR(pqt_status_name(PQT_ECORRUPT), "PQT_ECORRUPT");
  pqt_buffer_pool *pool = NULL;
  OK_GARBAGE(pqt_buffer_pool_create(&pool, NULL, 1 << 20, ERR));
  pqt_buffer_pool_destroy(pool);
  FAILS(pqt_buffer_pool_create(NULL, NULL, 1 << 20, ERR));
  pqt_io io;
  pqt_io_init(&io);
  OK_GARBAGE(pqt_io_from_buffer(&io, "abc", 3, NULL, ERR));
  io.release(io.private_data);
  FAILS(pqt_io_from_buffer(&io, NULL, 3, NULL, ERR));
  FAILS(pqt_io_from_buffer(NULL, "abc", 3, NULL, ERR));
  FAILS(pqt_io_open_file(&io, "/nonexistent/dir/file.parquet", NULL, ERR));
  FAILS(pqt_io_open_file(&io, NULL, NULL, ERR));
  pqt_string s = {0};
  pqt_string_free(&s);
  pqt_string_free(NULL);
}

/* A caller's source that fails without filling in the error it is given
 * (reads past `ok_below` fail). */
typedef struct lazy_src {
  const uint8_t *data;
  uint64_t size, ok_from;
} lazy_src;
static pqt_status lazy_read(void *pd, uint64_t off, void *dst, size_t n, pqt_error *err) {
  (void)err; /* deliberately left as it is */
  lazy_src *s = pd;
  if (off < s->ok_from || off + n > s->size) return PQT_EIO;
  memcpy(dst, s->data + off, n);
  return PQT_OK;
}
static void lazy_release(void *pd) { (void)pd; }

static pqt_status collect_text(void *ctx, const char *data, size_t len) { return sink(ctx, data, len); }

static void test_reader(void) {
  pqt_string file = make_file();
  g_max_offset = (int64_t)file.len;
  pqt_reader *r = NULL;
  OK_GARBAGE(pqt_reader_open_buffer(&r, file.data, file.len, NULL, ERR));
  if (!r) return;
  CHECK_EQ_INT(pqt_reader_num_rows(r), 100);
  CHECK_EQ_INT(pqt_reader_num_row_groups(r), 1);
  CHECK_EQ_INT(pqt_reader_row_group_num_rows(r, 0), 100);
  CHECK_EQ_INT(pqt_reader_row_group_num_rows(r, 5), -1);
  CHECK_EQ_INT(pqt_reader_num_columns(r), 3);
  CHECK(pqt_reader_uncompressed_bytes(r) > 0);
  CHECK(pqt_reader_created_by(r) != NULL);
  pqt_string s = {0};
  OK_GARBAGE(pqt_reader_schema_text(r, &s, ERR));
  pqt_string_free(&s);
  FAILS(pqt_reader_schema_text(NULL, &s, ERR));
  OK_GARBAGE(pqt_reader_metadata_json(r, 2, &s, ERR));
  pqt_string_free(&s);
  FAILS(pqt_reader_metadata_json(r, 0, NULL, ERR));
  OK_GARBAGE(pqt_reader_metadata_summary(r, &s, ERR));
  pqt_string_free(&s);
  FAILS(pqt_reader_metadata_summary(r, NULL, ERR));
  pqt_column_info ci;
  pqt_column_info_init(&ci);
  OK_GARBAGE(pqt_reader_column_info(r, 1, &ci, ERR));
  CHECK_EQ_STR(ci.path, "name");
  FAILS(pqt_reader_column_info(r, 3, &ci, ERR));
  FAILS(pqt_reader_column_info(r, -1, &ci, ERR));

  pqt_column_reader *cr = NULL;
  OK_GARBAGE(pqt_column_reader_open(&cr, r, 0, 0, ERR));
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  OK_GARBAGE(pqt_column_reader_next(cr, 1000, &b, ERR));
  CHECK_EQ_INT(b.n_levels, 100);
  FAILS(pqt_column_reader_next(cr, 0, &b, ERR));
  FAILS(pqt_column_reader_next(NULL, 10, &b, ERR));
  pqt_column_reader_close(cr);
  pqt_column_reader_close(NULL);
  FAILS(pqt_column_reader_open(&cr, r, 1, 0, ERR));
  FAILS(pqt_column_reader_open(&cr, r, 0, 7, ERR));
  FAILS(pqt_column_reader_open(&cr, NULL, 0, 0, ERR));

  pqt_scan_options so;
  pqt_scan_options_init(&so);
  s.len = 0;
  OK_GARBAGE(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, 2, collect_text, &s, ERR));
  CHECK(s.data && strstr(s.data, "{\"id\":0,\"name\":null,\"d\":0}") == s.data);
  free(s.data);
  s = (pqt_string){0};
  const char *nope[] = {"nope"};
  so.columns = nope;
  so.n_columns = 1;
  FAILS(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, -1, collect_text, &s, ERR));
  so.columns = NULL;
  so.n_columns = 0;
  g_fail_after = 0;
  FAILS(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, -1, failing_sink, NULL, ERR));
  FAILS(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, -1, NULL, NULL, ERR));

  OK_GARBAGE(pqt_reader_describe_pages(r, NULL, collect_text, &s, ERR));
  free(s.data);
  s = (pqt_string){0};
  FAILS(pqt_reader_describe_pages(r, NULL, NULL, NULL, ERR));
  int64_t problems = -1;
  OK_GARBAGE(pqt_reader_verify(r, collect_text, &s, &problems, ERR));
  CHECK_EQ_INT(problems, 0);
  free(s.data);
  s = (pqt_string){0};
  FAILS(pqt_reader_verify(r, NULL, NULL, &problems, ERR));

  struct ArrowArrayStream st;
  OK_GARBAGE(pqt_reader_get_stream(r, &so, &st, ERR));
  st.release(&st);
  int32_t bad_rg[] = {3};
  so.row_groups = bad_rg;
  so.n_row_groups = 1;
  memset(&st, 0x5a, sizeof st);
  FAILS(pqt_reader_get_stream(r, &so, &st, ERR));
  CHECK(st.release == NULL);
  so.row_groups = NULL;
  so.n_row_groups = 0;
  so.columns = nope;
  so.n_columns = 1;
  memset(&st, 0x5a, sizeof st);
  FAILS(pqt_reader_get_stream(r, &so, &st, ERR));
  CHECK(st.release == NULL);
  memset(&st, 0x5a, sizeof st);
  FAILS(pqt_reader_get_stream(NULL, &so, &st, ERR));
  CHECK(st.release == NULL);
  pqt_reader_close(r);
  pqt_reader_close(NULL);

  /* opening: bad arguments, not a file, a truncated file, a missing file */
  FAILS(pqt_reader_open_buffer(&r, "PAR1 this is no parquet file PAR1", 33, NULL, ERR));
  FAILS(pqt_reader_open_buffer(&r, file.data, file.len - 5, NULL, ERR));
  FAILS(pqt_reader_open_buffer(NULL, file.data, file.len, NULL, ERR));
  FAILS(pqt_reader_open_file(&r, "/nonexistent/x.parquet", NULL, ERR));
  FAILS(pqt_reader_open(&r, NULL, NULL, ERR));
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.max_footer_bytes = 10;
  FAILS(pqt_reader_open_buffer(&r, file.data, file.len, &ro, ERR));

  /* a caller's source that fails without a word: at open, then mid-read */
  lazy_src ls = {(const uint8_t *)file.data, file.len, file.len}; /* every read fails */
  pqt_io io = {.struct_size = sizeof(pqt_io),
               .read_at = lazy_read,
               .release = lazy_release,
               .size = file.len,
               .private_data = &ls};
  FAILS(pqt_reader_open(&r, &io, NULL, ERR));
  ls.ok_from = 0;
  OK_GARBAGE(pqt_reader_open(&r, &io, NULL, ERR));
  if (r) {
    ls.ok_from = file.len; /* the pages' reads fail */
    s = (pqt_string){0};
    FAILS(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect_text, &s, ERR));
    free(s.data);
    s = (pqt_string){0};
    /* a stream's get_next fails: out is a released array, the error is said */
    struct ArrowArrayStream lst;
    OK_GARBAGE(pqt_reader_get_stream(r, NULL, &lst, ERR));
    pqt_reader_close(r);
    struct ArrowArray arr;
    memset(&arr, 0x5a, sizeof arr);
    CHECK(lst.get_next(&lst, &arr) != 0);
    CHECK(arr.release == NULL);
    const char *why = lst.get_last_error(&lst);
    CHECK(why && why[0] && strchr(why, 0x7f) == NULL);
    lst.release(&lst);
  }

  /* a damaged page: the error names row group 0, column 0, and a page */
  char *bad = malloc(file.len);
  memcpy(bad, file.data, file.len);
  bad[40] ^= 0x55; /* inside the first page of column id (a CRC mismatch, or a bad header) */
  OK_GARBAGE(pqt_reader_open_buffer(&r, bad, file.len, NULL, ERR));
  if (r) {
    pqt_error *ERR = garbage();
    pqt_status rs = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect_text, &s, ERR);
    CHECK_FAILED(rs, "write_text of a damaged page");
    CHECK_EQ_INT(g_e.row_group, 0);
    CHECK_EQ_INT(g_e.column, 0);
    free(s.data);
    s = (pqt_string){0};
    pqt_reader_close(r);
  }
  free(bad);
  pqt_string_free(&file);
}

static pqt_status nop_sink(void *ctx, const char *data, size_t len) {
  (void)ctx;
  (void)data;
  (void)len;
  return PQT_OK;
}

/* Columns without min/max: all nulls, INT96, INTERVAL. Closing used to
 * return whatever the caller's error held. */
static void test_writer_without_bounds(void) {
  static const char *schemas[] = {
      "message m { optional int64 a; optional binary s (STRING); }",
      "message m { required int96 t; }",
      "message m { required fixed_len_byte_array(12) iv (INTERVAL); }",
  };
  for (int v = 1; v <= 2; v++)
    for (int k = 0; k < 3; k++) {
      pqt_write_options o;
      pqt_write_options_init(&o);
      o.defaults.page_version = v;
      pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = schemas[k]};
      pqt_writer *w = NULL;
      OK_GARBAGE(pqt_writer_open_callbacks(&w, nop_sink, NULL, &ws, &o, ERR));
      if (!w) continue;
      int16_t def[50] = {0};
      uint8_t vals[50 * 12];
      for (size_t i = 0; i < sizeof vals; i++) vals[i] = (uint8_t)(i * 7);
      if (k == 0) {
        OK_GARBAGE(pqt_writer_write_column(w, 0, 50, def, NULL, vals, NULL, 0, ERR));
        int32_t offs[1] = {0};
        OK_GARBAGE(pqt_writer_write_column(w, 1, 50, def, NULL, "", offs, 0, ERR));
      } else {
        OK_GARBAGE(pqt_writer_write_column(w, 0, 50, NULL, NULL, vals, NULL, 50, ERR));
      }
      OK_GARBAGE(pqt_writer_flush_row_group(w, ERR));
      OK_GARBAGE(pqt_writer_close(w, ERR));
    }
}

static void test_writer(void) {
  pqt_column_options co;
  pqt_column_options_init(&co);
  pqt_write_options o;
  pqt_write_options_init(&o);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_write_schema bad_ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 }"};
  pqt_write_schema no_ws = {.struct_size = sizeof(pqt_write_schema), .message = NULL};
  pqt_string out = {0};
  pqt_writer *w = NULL;
  FAILS(pqt_writer_open_buffer(&w, &out, &bad_ws, &o, ERR));
  FAILS(pqt_writer_open_buffer(&w, &out, &no_ws, &o, ERR));
  FAILS(pqt_writer_open_buffer(&w, NULL, &ws, &o, ERR));
  FAILS(pqt_writer_open_callbacks(&w, NULL, NULL, &ws, &o, ERR));
  FAILS(pqt_writer_open_file(&w, "/nonexistent/dir/out.parquet", &ws, &o, ERR));
  FAILS(pqt_writer_open_file(&w, NULL, &ws, &o, ERR));
  o.defaults.codec = 99;
  FAILS(pqt_writer_open_buffer(&w, &out, &ws, &o, ERR));
  o.defaults.codec = 6; /* ZSTD */
  pqt_string_free(&out);

  /* a file: written under a temporary name, renamed on close */
  char path[64];
  snprintf(path, sizeof path, "/tmp/pqt_api_errors_%d.parquet", (int)getpid());
  OK_GARBAGE(pqt_writer_open_file(&w, path, &ws, &o, ERR));
  if (w) {
    struct ArrowSchema as;
    OK_GARBAGE(pqt_writer_arrow_schema(w, &as, ERR));
    CHECK(as.release && as.n_children == 3);
    as.release(&as);
    memset(&as, 0x5a, sizeof as);
    FAILS(pqt_writer_arrow_schema(NULL, &as, ERR));
    CHECK(as.release == NULL);
    write_rows(w, NULL);
    FAILS(pqt_writer_write_column(w, 3, 1, NULL, NULL, "", NULL, 0, ERR));
    FAILS(pqt_writer_write_batch(w, NULL, ERR));
    OK_GARBAGE(pqt_writer_close(w, ERR));
  }
  /* batches: read the file back, write its batches anew */
  pqt_reader *r = NULL;
  OK_GARBAGE(pqt_reader_open_file(&r, path, NULL, ERR));
  if (r) {
    pqt_write_schema like = {.struct_size = sizeof(pqt_write_schema), .like = r};
    OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &like, NULL, ERR));
    struct ArrowArrayStream st;
    OK_GARBAGE(pqt_reader_get_stream(r, NULL, &st, ERR));
    struct ArrowArray batch;
    while (st.get_next(&st, &batch) == 0 && batch.release) {
      OK_GARBAGE(pqt_writer_write_batch(w, &batch, ERR));
      batch.release(&batch);
    }
    FAILS(pqt_writer_write_batch(w, &batch, ERR)); /* released */
    st.release(&st);
    pqt_reader_close(r);
    OK_GARBAGE(pqt_writer_close(w, ERR));
    CHECK(out.len > 100 && memcmp(out.data, "PAR1", 4) == 0);
    pqt_string_free(&out);
  }
  unlink(path);

  /* rows that differ between columns */
  OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &ws, NULL, ERR));
  if (w) {
    int64_t one = 1;
    OK_GARBAGE(pqt_writer_write_column(w, 0, 1, NULL, NULL, &one, NULL, 1, ERR));
    FAILS(pqt_writer_flush_row_group(w, ERR));
    FAILS(pqt_writer_write_column(w, 9, 1, NULL, NULL, &one, NULL, 1, ERR));
    CHECK_FAILED(pqt_writer_close(w, garbage()), "close with uneven columns"); /* frees w */
  }
  pqt_string_free(&out);
  pqt_writer_discard(NULL);

  /* a sink that fails (output is buffered: the first call is at close) */
  for (int after = 0; after < 1; after++) {
    g_fail_after = after;
    w = NULL;
    pqt_error *ERR = garbage();
    pqt_status st = pqt_writer_open_callbacks(&w, failing_sink, NULL, &ws, NULL, ERR);
    if (st != PQT_OK) {
      CHECK_FAILED(st, "open_callbacks on a failing sink");
      continue;
    }
    write_rows(w, NULL);
    ERR = garbage();
    CHECK_FAILED(pqt_writer_close(w, ERR), "close on a failing sink");
  }
  CHECK_EQ_INT(pqt_writer_close(NULL, garbage()), PQT_OK);
}

/* Many pages: describe_pages hands its text out in pieces; a sink that
 * fails on the first piece fails the call with a complete error. */
static void test_describe_pages_failing_sink(void) {
  pqt_string out = {0};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = "message m { required int64 id; }"};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 1;
  o.defaults.dictionary = 0;
  pqt_writer *w = NULL;
  OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &ws, &o, ERR));
  if (!w) return;
  int64_t ids[2000];
  for (int i = 0; i < 2000; i++) ids[i] = i;
  OK_GARBAGE(pqt_writer_write_column(w, 0, 2000, NULL, NULL, ids, NULL, 2000, ERR));
  OK_GARBAGE(pqt_writer_close(w, ERR));
  pqt_reader *r = NULL;
  OK_GARBAGE(pqt_reader_open_buffer(&r, out.data, out.len, NULL, ERR));
  if (r) {
    int32_t save = g_max_page;
    g_max_page = 2000;
    g_fail_after = 0;
    FAILS(pqt_reader_describe_pages(r, NULL, failing_sink, NULL, ERR));
    g_max_page = save;
    pqt_reader_close(r);
  }
  pqt_string_free(&out);
}

static void test_salvage(void) {
  pqt_string file = make_file();
  pqt_salvage_options so;
  pqt_salvage_options_init(&so);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_salvage_report rep;
  pqt_salvage_report_init(&rep);
  /* the footer cut off */
  pqt_io io;
  pqt_io_init(&io);
  OK_GARBAGE(pqt_io_from_buffer(&io, file.data, file.len - 30, NULL, ERR));
  pqt_string out = {0};
  pqt_writer *w = NULL;
  OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &ws, NULL, ERR));
  OK_GARBAGE(pqt_salvage(&io, w, &so, &rep, ERR));
  CHECK_EQ_INT(rep.rows, 100);
  OK_GARBAGE(pqt_writer_close(w, ERR));
  pqt_string_free(&out);
  io.release(io.private_data);
  /* not a Parquet file */
  OK_GARBAGE(pqt_io_from_buffer(&io, "nothing here at all", 19, NULL, ERR));
  OK_GARBAGE(pqt_writer_open_buffer(&w, &out, &ws, NULL, ERR));
  FAILS(pqt_salvage(&io, w, &so, &rep, ERR));
  FAILS(pqt_salvage(NULL, w, &so, &rep, ERR));
  pqt_writer_discard(w);
  pqt_string_free(&out);
  io.release(io.private_data);
  pqt_string_free(&file);
}

/* The stream, its batches and a column reader after pqt_reader_close. */
static void test_stream_outlives_reader(void) {
  pqt_string file = make_file();
  char path[64];
  snprintf(path, sizeof path, "/tmp/pqt_api_stream_%d.parquet", (int)getpid());
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(file.data, 1, file.len, f) == file.len);
  if (f) fclose(f);
  pqt_string_free(&file);
  pqt_reader *r = NULL;
  OK_GARBAGE(pqt_reader_open_file(&r, path, NULL, ERR)); /* memory-mapped: unmapped by the last release */
  if (!r) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 30;
  struct ArrowArrayStream st;
  OK_GARBAGE(pqt_reader_get_stream(r, &so, &st, ERR));
  pqt_column_reader *cr = NULL;
  OK_GARBAGE(pqt_column_reader_open(&cr, r, 0, 1, ERR));
  pqt_reader_close(r); /* the stream and the column reader keep what they need */
  struct ArrowSchema schema;
  CHECK_EQ_INT(st.get_schema(&st, &schema), 0);
  CHECK(schema.n_children == 3 && strcmp(schema.children[0]->name, "id") == 0);
  schema.release(&schema);
  struct ArrowArray kept[8];
  int nb = 0;
  int64_t rows = 0, id_sum = 0;
  while (nb < 8 && st.get_next(&st, &kept[nb]) == 0 && kept[nb].release) {
    const struct ArrowArray *ids = kept[nb].children[0];
    const int64_t *v = ids->buffers[1];
    for (int64_t i = 0; i < ids->length; i++) id_sum += v[ids->offset + i];
    rows += kept[nb].length;
    nb++;
  }
  CHECK_EQ_INT(rows, 100);
  CHECK_EQ_INT(nb, 4);
  CHECK_EQ_INT(id_sum, 99 * 100 / 2);
  st.release(&st);
  CHECK(st.release == NULL);
  /* the batches outlive the stream and the reader */
  int64_t again = 0;
  for (int i = 0; i < nb; i++) {
    const struct ArrowArray *ids = kept[i].children[0];
    const int64_t *v = ids->buffers[1];
    for (int64_t k = 0; k < ids->length; k++) again += v[ids->offset + k];
  }
  CHECK_EQ_INT(again, id_sum);
  /* and so does the column reader (the last reference) */
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  OK_GARBAGE(pqt_column_reader_next(cr, 1000, &b, ERR));
  CHECK_EQ_INT(b.n_levels, 100);
  CHECK_EQ_INT(b.n_values, 66);
  CHECK(b.n_values > 0 && b.offsets[1] - b.offsets[0] == 2 &&
        memcmp((const char *)b.values + b.offsets[0], "n1", 2) == 0);
  pqt_column_reader_close(cr);
  for (int i = 0; i < nb; i++) kept[i].release(&kept[i]);
  unlink(path);
}

RUN_TESTS("api_errors", TEST_CASE(test_core_and_io), TEST_CASE(test_reader), TEST_CASE(test_writer_without_bounds),
          TEST_CASE(test_writer), TEST_CASE(test_describe_pages_failing_sink), TEST_CASE(test_salvage),
          TEST_CASE(test_stream_outlives_reader))
