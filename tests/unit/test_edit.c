/*
 * tests/unit/test_edit.c: include/parquetry_edit.h: concat and prune copy
 * column chunks byte for byte; the rows read back (through the Arrow
 * stream and as text) are the inputs' rows, verify finds nothing wrong
 * (page index, Bloom filters, statistics), and bad inputs fail cleanly.
 */
#include <unistd.h>

#include "../harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_edit.h"
#include "parquetry_meta.h"

#define SCHEMA                      \
  "message m {\n"                   \
  "  required int64 a;\n"           \
  "  optional binary s (STRING);\n" \
  "  optional group l (LIST) {\n"   \
  "    repeated group list {\n"     \
  "      optional int32 element;\n" \
  "    }\n"                         \
  "  }\n"                           \
  "  optional double d;\n"          \
  "}"

/* rows rows in row groups of rg_rows, values depending on seed; page
 * version, codec and Bloom filters as given (the inputs of one concat may
 * differ in those). */
static pqt_status make_file(pqt_string *out, int64_t rows, int64_t rg_rows, int seed, int page_version, int32_t codec,
                            pqt_error *e) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_version = page_version;
  o.defaults.codec = codec;
  o.defaults.page_row_limit = 50; /* several pages a chunk: the offset index has entries to move */
  pqt_column_override ov = {.path = "s", .options = o.defaults};
  ov.options.bloom_filter = 1;
  ov.options.bloom_ndv = 64;
  o.columns = &ov;
  o.n_columns = 1;
  const char *keys[] = {"origin"};
  const char *vals[] = {seed == 1 ? "one" : "two"};
  o.kv_keys = keys;
  o.kv_values = vals;
  o.n_kv = 1;
  pqt_column_key_value ckv = {.column = 0, .key = "chunk.note", .value = "kept"};
  o.column_kv = &ckv;
  o.n_column_kv = 1;
  pqt_writer *w = NULL;
  pqt_status st = pqt_writer_open_buffer(&w, out, &ws, &o, e);
  if (st != PQT_OK) return st;
  int64_t *a = malloc((size_t)rg_rows * 8);
  int16_t *sdef = malloc((size_t)rg_rows * 2), *ddef = malloc((size_t)rg_rows * 2);
  int32_t *soff = malloc((size_t)(rg_rows + 1) * 4);
  char *sdat = malloc((size_t)rg_rows * 8 + 1);
  int16_t *ldef = malloc((size_t)rg_rows * 6), *lrep = malloc((size_t)rg_rows * 6);
  int32_t *lval = malloc((size_t)rg_rows * 12);
  double *dv = malloc((size_t)rg_rows * 8);
  for (int64_t base = 0; base < rows && st == PQT_OK; base += rg_rows) {
    int64_t n = rows - base < rg_rows ? rows - base : rg_rows;
    int64_t ns = 0, nl = 0, nlv = 0, nd = 0;
    soff[0] = 0;
    for (int64_t k = 0; k < n; k++) {
      int64_t i = base + k;
      a[k] = i * 10 + seed;
      if (i % 5 == 4) sdef[k] = 0;
      else {
        sdef[k] = 1;
        int len = snprintf(sdat + soff[ns], 8, "s%d_%d", seed, (int)(i % 7));
        soff[ns + 1] = soff[ns] + len;
        ns++;
      }
      switch (i % 3) {
        case 0:
          ldef[nl] = 3, lrep[nl++] = 0, lval[nlv++] = (int32_t)i;
          ldef[nl] = 2, lrep[nl++] = 1;
          break;
        case 1: ldef[nl] = 1, lrep[nl++] = 0; break;
        default: ldef[nl] = 0, lrep[nl++] = 0; break;
      }
      ddef[k] = i % 4 != 1;
      if (ddef[k]) dv[nd++] = 0.5 * (double)i - seed;
    }
    st = pqt_writer_write_column(w, 0, n, NULL, NULL, a, NULL, n, e);
    if (st == PQT_OK) st = pqt_writer_write_column(w, 1, n, sdef, NULL, sdat, soff, ns, e);
    if (st == PQT_OK) st = pqt_writer_write_column(w, 2, nl, ldef, lrep, lval, NULL, nlv, e);
    if (st == PQT_OK) st = pqt_writer_write_column(w, 3, n, ddef, NULL, dv, NULL, nd, e);
    if (st == PQT_OK) st = pqt_writer_flush_row_group(w, e);
  }
  free(a);
  free(sdef);
  free(ddef);
  free(soff);
  free(sdat);
  free(ldef);
  free(lrep);
  free(lval);
  free(dv);
  if (st != PQT_OK) {
    pqt_writer_discard(w);
    return st;
  }
  return pqt_writer_close(w, e);
}

static pqt_status collect(void *ctx, const char *data, size_t len) {
  pqt_string *s = ctx;
  char *n = realloc(s->data, s->len + len + 1);
  if (!n) return PQT_ENOMEM;
  memcpy(n + s->len, data, len);
  s->data = n;
  s->len += len;
  s->data[s->len] = 0;
  return PQT_OK;
}

/* The rows as JSON Lines (projected to cols when n_cols > 0). */
static char *rows_text_q(pqt_reader *r, const char *const *cols, int32_t n_cols, bool quiet) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.columns = cols;
  so.n_columns = n_cols;
  pqt_string s = {0};
  pqt_error e;
  if (pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, collect, &s, &e) != PQT_OK) {
    if (!quiet) fprintf(stderr, "  write_text: %s\n", e.message);
    free(s.data);
    return NULL;
  }
  return s.data ? s.data : calloc(1, 1);
}
static char *rows_text(pqt_reader *r, const char *const *cols, int32_t n_cols) {
  return rows_text_q(r, cols, n_cols, false);
}

/* Column a (int64, required) of every row, through the Arrow stream. */
static int64_t stream_column_a(pqt_reader *r, int64_t *out, int64_t cap) {
  struct ArrowArrayStream st;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.batch_size = 37; /* batches that do not line up with row groups or pages */
  pqt_error e;
  if (pqt_reader_get_stream(r, &so, &st, &e) != PQT_OK) return -1;
  int64_t n = 0;
  for (;;) {
    struct ArrowArray b;
    if (st.get_next(&st, &b) != 0) {
      n = -1;
      break;
    }
    if (!b.release) break;
    const struct ArrowArray *col = b.children[0];
    const int64_t *v = (const int64_t *)col->buffers[1];
    for (int64_t i = 0; i < col->length && n < cap; i++) out[n++] = v[col->offset + i];
    b.release(&b);
  }
  st.release(&st);
  return n;
}

static int64_t verify_problems(pqt_reader *r, int64_t *chunks) {
  pqt_verify_report rep;
  pqt_verify_report_init(&rep);
  pqt_string log = {0};
  pqt_error e;
  if (pqt_reader_verify_ex(r, collect, &log, &rep, &e) != PQT_OK) {
    free(log.data);
    return -1;
  }
  if (rep.problems) fprintf(stderr, "  verify: %s", log.data ? log.data : "");
  free(log.data);
  if (chunks) *chunks = rep.chunks_checked;
  return rep.problems + rep.unchecked;
}

static void test_concat_round_trip(void) {
  pqt_error e;
  pqt_string fa = {0}, fb = {0}, out = {0};
  CHECK_OK(make_file(&fa, 230, 100, 1, 1, PQT_CODEC_SNAPPY, &e));
  CHECK_OK(make_file(&fb, 170, 64, 2, 2, PQT_CODEC_ZSTD, &e));
  pqt_reader *ra = NULL, *rb = NULL, *ro = NULL;
  CHECK_OK(pqt_reader_open_buffer(&ra, fa.data, fa.len, NULL, &e));
  CHECK_OK(pqt_reader_open_buffer(&rb, fb.data, fb.len, NULL, &e));
  if (!ra || !rb) goto done;
  pqt_reader *in[] = {ra, rb, ra};
  const char *names[] = {"a.parquet", "b.parquet", "a.parquet"};
  pqt_edit_options o;
  pqt_edit_options_init(&o);
  o.input_names = names;
  pqt_edit_report rep;
  pqt_edit_report_init(&rep);
  CHECK_OK(pqt_edit_copy_buffer(&out, in, 3, &o, &rep, &e));
  CHECK_EQ_INT(rep.rows, 230 + 170 + 230);
  CHECK_EQ_INT(rep.row_groups, 3 + 3 + 3);
  CHECK_EQ_INT(rep.columns, 4);
  CHECK_EQ_INT(rep.bloom_filters, 9);    /* one per row group (column s) */
  CHECK_EQ_INT(rep.page_indexes, 9 * 4); /* every chunk */
  CHECK(rep.chunk_bytes > 0);
  CHECK_OK(pqt_reader_open_buffer(&ro, out.data, out.len, NULL, &e));
  if (!ro) goto done;
  CHECK_EQ_INT(pqt_reader_num_rows(ro), 630);
  CHECK_EQ_INT(pqt_reader_num_row_groups(ro), 9);
  /* the rows: the inputs' rows one after the other, as text and through the stream */
  char *ta = rows_text(ra, NULL, 0), *tb = rows_text(rb, NULL, 0), *to = rows_text(ro, NULL, 0);
  CHECK(ta && tb && to);
  if (ta && tb && to) {
    size_t la = strlen(ta), lb = strlen(tb);
    CHECK_EQ_INT(strlen(to), 2 * la + lb);
    CHECK(strncmp(to, ta, la) == 0 && strncmp(to + la, tb, lb) == 0 && strcmp(to + la + lb, ta) == 0);
  }
  free(ta);
  free(tb);
  free(to);
  int64_t *va = malloc(1000 * 8), *vo = malloc(1000 * 8);
  int64_t na = stream_column_a(ra, va, 1000), nb = stream_column_a(rb, va + 230, 770);
  CHECK_EQ_INT(na, 230);
  CHECK_EQ_INT(nb, 170);
  memcpy(va + 400, va, 230 * 8);
  CHECK_EQ_INT(stream_column_a(ro, vo, 1000), 630);
  CHECK(memcmp(va, vo, 630 * 8) == 0);
  free(va);
  free(vo);
  /* everything checks out: pages, statistics, page index, Bloom filters */
  int64_t chunks = 0;
  CHECK_EQ_INT(verify_problems(ro, &chunks), 0);
  CHECK_EQ_INT(chunks, 36);
  /* metadata carried: indexes and Bloom filters moved, chunk key-value kept,
   * the first file's key-value metadata, created_by of the inputs */
  for (int32_t g = 0; g < 9; g++) {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    CHECK_OK(pqt_reader_chunk(ro, g, 1, &ci, &e));
    CHECK(ci.bloom_filter_offset > 0 && ci.offset_index_offset > ci.bloom_filter_offset);
    CHECK(ci.column_index_offset > 0);
    CHECK_EQ_INT(pqt_chunk_kv_count(ro, g, 0), 1);
    pqt_value v;
    pqt_value_init(&v);
    pqt_string storage = {0};
    CHECK_OK(pqt_reader_parse_value(ro, 1, g < 3 || g >= 6 ? "s1_3" : "s2_3", &v, &storage, &e));
    int maybe = 0;
    CHECK_OK(pqt_bloom_might_contain(ro, g, 1, &v, &maybe, &e));
    CHECK(maybe == 1);
    /* values that are not there: the filter (not its absence) says no to most */
    int no = 0;
    const char *absent[] = {"absent-1", "absent-2", "absent-3", "absent-4"};
    for (int k = 0; k < 4; k++) {
      CHECK_OK(pqt_reader_parse_value(ro, 1, absent[k], &v, &storage, &e));
      CHECK_OK(pqt_bloom_might_contain(ro, g, 1, &v, &maybe, &e));
      no += maybe == 0;
    }
    CHECK(no >= 3);
    pqt_string_free(&storage);
  }
  CHECK_EQ_STR(pqt_reader_created_by(ro), pqt_reader_created_by(ra));
  pqt_kv kv;
  pqt_kv_init(&kv);
  bool origin = false;
  for (int32_t i = 0; i < pqt_reader_kv_count(ro); i++)
    if (pqt_reader_kv(ro, i, &kv, &e) == PQT_OK && kv.key_len == 6 && memcmp(kv.key, "origin", 6) == 0)
      origin = kv.value_len == 3 && memcmp(kv.value, "one", 3) == 0;
  CHECK(origin);
done:
  if (ro) pqt_reader_close(ro);
  if (ra) pqt_reader_close(ra);
  if (rb) pqt_reader_close(rb);
  pqt_string_free(&fa);
  pqt_string_free(&fb);
  pqt_string_free(&out);
}

static void test_prune(void) {
  pqt_error e;
  pqt_string fa = {0}, out = {0}, out2 = {0};
  CHECK_OK(make_file(&fa, 300, 120, 1, 1, PQT_CODEC_SNAPPY, &e));
  pqt_reader *ra = NULL, *ro = NULL, *ro2 = NULL;
  CHECK_OK(pqt_reader_open_buffer(&ra, fa.data, fa.len, NULL, &e));
  if (!ra) goto done;
  /* a leaf by its dotted path, a group (the list) by its name */
  const char *drop[] = {"s", "l.list.element"};
  pqt_edit_options o;
  pqt_edit_options_init(&o);
  o.drop_columns = drop;
  o.n_drop_columns = 2;
  pqt_edit_report rep;
  pqt_edit_report_init(&rep);
  CHECK_OK(pqt_edit_copy_buffer(&out, &ra, 1, &o, &rep, &e));
  CHECK_EQ_INT(rep.columns, 2);
  CHECK_EQ_INT(rep.bloom_filters, 0);
  CHECK_OK(pqt_reader_open_buffer(&ro, out.data, out.len, NULL, &e));
  if (!ro) goto done;
  CHECK_EQ_INT(pqt_reader_num_columns(ro), 2);
  pqt_string schema = {0};
  CHECK_OK(pqt_reader_schema_text(ro, &schema, &e));
  CHECK(schema.data && strstr(schema.data, "required int64 a;") && strstr(schema.data, "optional double d;") &&
        !strstr(schema.data, " l ") && !strstr(schema.data, " s "));
  pqt_string_free(&schema);
  const char *keep[] = {"a", "d"};
  char *t0 = rows_text(ra, keep, 2), *t1 = rows_text(ro, NULL, 0);
  CHECK(t0 && t1 && strcmp(t0, t1) == 0);
  free(t0);
  free(t1);
  CHECK_EQ_INT(verify_problems(ro, NULL), 0);
  /* the kept chunks' bytes are the input's: same sizes, same statistics */
  for (int32_t g = 0; g < 3; g++) {
    pqt_chunk_info x, y;
    pqt_chunk_info_init(&x);
    pqt_chunk_info_init(&y);
    CHECK_OK(pqt_reader_chunk(ra, g, 3, &x, &e));
    CHECK_OK(pqt_reader_chunk(ro, g, 1, &y, &e));
    CHECK_EQ_INT(x.total_compressed_size, y.total_compressed_size);
    CHECK_EQ_INT(x.num_values, y.num_values);
    CHECK(y.offset_index_offset > 0);
    int64_t sx = x.dictionary_page_offset >= 0 ? x.dictionary_page_offset : x.data_page_offset;
    int64_t sy = y.dictionary_page_offset >= 0 ? y.dictionary_page_offset : y.data_page_offset;
    CHECK(sx > 0 && sy > 0 && sy + y.total_compressed_size <= (int64_t)out.len);
    if (sx > 0 && sy > 0 && sy + y.total_compressed_size <= (int64_t)out.len)
      CHECK(memcmp(fa.data + sx, out.data + sy, (size_t)x.total_compressed_size) == 0);
  }
  /* dropping the list's only leaf drops the list; a whole group by name */
  const char *drop2[] = {"l"};
  o.drop_columns = drop2;
  o.n_drop_columns = 1;
  CHECK_OK(pqt_edit_copy_buffer(&out2, &ra, 1, &o, NULL, &e));
  CHECK_OK(pqt_reader_open_buffer(&ro2, out2.data, out2.len, NULL, &e));
  if (ro2) {
    CHECK_EQ_INT(pqt_reader_num_columns(ro2), 3);
    CHECK_EQ_INT(verify_problems(ro2, NULL), 0);
  }
done:
  if (ro2) pqt_reader_close(ro2);
  if (ro) pqt_reader_close(ro);
  if (ra) pqt_reader_close(ra);
  pqt_string_free(&fa);
  pqt_string_free(&out);
  pqt_string_free(&out2);
}

static void test_errors(void) {
  pqt_error e;
  pqt_string fa = {0}, fb = {0}, out = {0};
  CHECK_OK(make_file(&fa, 50, 50, 1, 1, PQT_CODEC_SNAPPY, &e));
  pqt_reader *ra = NULL, *rb = NULL, *rc = NULL;
  CHECK_OK(pqt_reader_open_buffer(&ra, fa.data, fa.len, NULL, &e));
  /* another schema: d is a float */
  {
    pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                           .message =
                               "message m { required int64 a; optional binary s (STRING); optional group l "
                               "(LIST) { repeated group list { optional int32 element; } } optional float d; }"};
    pqt_writer *w = NULL;
    CHECK_OK(pqt_writer_open_buffer(&w, &fb, &ws, NULL, &e));
    if (w) CHECK_OK(pqt_writer_close(w, &e));
    CHECK_OK(pqt_reader_open_buffer(&rb, fb.data, fb.len, NULL, &e));
  }
  if (!ra || !rb) goto done;
  pqt_reader *in[] = {ra, rb};
  const char *names[] = {"first.parquet", "second.parquet"};
  pqt_edit_options o;
  pqt_edit_options_init(&o);
  o.input_names = names;
  CHECK(pqt_edit_copy_buffer(&out, in, 2, &o, NULL, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "first.parquet") && strstr(e.message, "second.parquet") && strstr(e.message, "'d'") &&
        strstr(e.message, "DOUBLE") && strstr(e.message, "FLOAT"));
  CHECK(pqt_edit_same_schema(ra, "x", ra, "y", &e) == PQT_OK);
  /* logical types, repetition and field ids count */
  {
    static const struct {
      const char *a, *b, *want;
    } pairs[] = {
        {"message m { required group g { optional binary s (STRING); } }",
         "message m { required group g { optional binary s; } }", "field 'g.s': logical type"},
        {"message m { optional int32 a; }", "message m { required int32 a; }", "field 'a': repetition OPTIONAL"},
        {"message m { optional int32 a = 1; }", "message m { optional int32 a = 2; }", "field 'a': field id 1"},
        {"message m { optional int64 t (TIMESTAMP(MILLIS,true)); }",
         "message m { optional int64 t (TIMESTAMP(MICROS,true)); }", "field 't': logical type"},
        {"message m { optional int32 a; optional int32 b; }", "message m { optional int32 a; optional int32 c; }",
         "field 'b' of x is 'c' in y"},
        {"message m { optional group g { optional int32 a; } }",
         "message m { optional group g { optional int32 a; "
         "optional int32 b; } }",
         "field 'g': shape a group of 1 fields in x, a group of 2 fields in y"},
        {"message root1 { optional int32 a; }", "message root2 { optional int32 a; }", NULL},
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      pqt_string sa = {0}, sb = {0};
      pqt_reader *xa = NULL, *xb = NULL;
      pqt_write_schema wa = {.struct_size = sizeof(pqt_write_schema), .message = pairs[k].a};
      pqt_write_schema wb = {.struct_size = sizeof(pqt_write_schema), .message = pairs[k].b};
      pqt_writer *w = NULL;
      CHECK_OK(pqt_writer_open_buffer(&w, &sa, &wa, NULL, &e));
      if (w) CHECK_OK(pqt_writer_close(w, &e));
      w = NULL;
      CHECK_OK(pqt_writer_open_buffer(&w, &sb, &wb, NULL, &e));
      if (w) CHECK_OK(pqt_writer_close(w, &e));
      if (pqt_reader_open_buffer(&xa, sa.data, sa.len, NULL, &e) == PQT_OK &&
          pqt_reader_open_buffer(&xb, sb.data, sb.len, NULL, &e) == PQT_OK) {
        pqt_status st = pqt_edit_same_schema(xa, "x", xb, "y", &e);
        if (pairs[k].want)
          CHECK_MSG(st == PQT_EINVAL && strstr(e.message, pairs[k].want), "pair %zu: %s", k, e.message);
        else CHECK_MSG(st == PQT_OK, "pair %zu: %s", k, e.message);
      } else {
        CHECK_MSG(0, "pair %zu: %s", k, e.message);
      }
      if (xa) pqt_reader_close(xa);
      if (xb) pqt_reader_close(xb);
      pqt_string_free(&sa);
      pqt_string_free(&sb);
    }
  }
  /* names that are no column, or every column */
  const char *bad[] = {"nope"};
  o.drop_columns = bad;
  o.n_drop_columns = 1;
  CHECK(pqt_edit_copy_buffer(&out, &ra, 1, &o, NULL, &e) == PQT_EINVAL);
  CHECK(strstr(e.message, "'nope'") != NULL);
  const char *all[] = {"a", "s", "l", "d"};
  o.drop_columns = all;
  o.n_drop_columns = 4;
  CHECK(pqt_edit_copy_buffer(&out, &ra, 1, &o, NULL, &e) == PQT_EINVAL);
  o.n_drop_columns = 0;
  /* no inputs, an options struct never initialised */
  CHECK(pqt_edit_copy_buffer(&out, in, 0, &o, NULL, &e) == PQT_EINVAL);
  pqt_edit_options zero;
  memset(&zero, 0, sizeof zero);
  CHECK(pqt_edit_copy_buffer(&out, in, 1, &zero, NULL, &e) == PQT_EINVAL);
  /* a page header smashed: ECORRUPT naming the input, row group and column;
   * no file is left behind */
  {
    pqt_chunk_info ci;
    pqt_chunk_info_init(&ci);
    CHECK_OK(pqt_reader_chunk(ra, 0, 0, &ci, &e));
    char *copy = malloc(fa.len);
    memcpy(copy, fa.data, fa.len);
    memset(copy + ci.data_page_offset, 0xFF, 6);
    CHECK_OK(pqt_reader_open_buffer(&rc, copy, fa.len, NULL, &e));
    char path[] = "/tmp/pqt_test_edit_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    unlink(path);
    if (rc) {
      const char *nm[] = {"smashed.parquet"};
      o.input_names = nm;
      CHECK(pqt_edit_copy_file(path, &rc, 1, &o, NULL, &e) == PQT_ECORRUPT);
      CHECK(strstr(e.message, "smashed.parquet") && strstr(e.message, "row group 0") && strstr(e.message, "column a"));
      CHECK(access(path, F_OK) != 0);
      pqt_reader_close(rc);
      rc = NULL;
    }
    free(copy);
  }
  /* an encrypted file (plaintext footer: it opens without keys) is refused */
  const char *dir = pqt_testing_dir();
  if (dir) {
    char p[1024];
    snprintf(p, sizeof p, "%s/data/encrypt_columns_plaintext_footer.parquet.encrypted", dir);
    pqt_reader *re = NULL;
    if (pqt_reader_open_file(&re, p, NULL, &e) == PQT_OK) {
      o.input_names = NULL;
      CHECK(pqt_edit_copy_buffer(&out, &re, 1, &o, NULL, &e) == PQT_EUNSUPPORTED);
      CHECK(strstr(e.message, "encrypted") != NULL);
      pqt_reader_close(re);
    } else {
      CHECK_MSG(0, "%s: %s", p, e.message);
    }
  }
done:
  if (ra) pqt_reader_close(ra);
  if (rb) pqt_reader_close(rb);
  pqt_string_free(&fa);
  pqt_string_free(&fb);
  pqt_string_free(&out);
}

/* A source that cannot lend its bytes (read_at only) is read a window at a
 * time; the file written is the same, byte for byte. */
static void test_read_at_source(void) {
  pqt_error e;
  pqt_string fa = {0}, o1 = {0}, o2 = {0};
  CHECK_OK(make_file(&fa, 20000, 12000, 1, 2, PQT_CODEC_UNCOMPRESSED, &e)); /* chunks over the 64 KiB window */
  pqt_reader *lend = NULL, *read = NULL;
  CHECK_OK(pqt_reader_open_buffer(&lend, fa.data, fa.len, NULL, &e));
  pqt_io io;
  pqt_io_init(&io);
  CHECK_OK(pqt_io_from_buffer(&io, fa.data, fa.len, NULL, &e));
  io.borrow_at = NULL;
  CHECK_OK(pqt_reader_open(&read, &io, NULL, &e));
  if (lend && read) {
    pqt_reader *a[] = {lend, lend}, *b[] = {read, read};
    CHECK_OK(pqt_edit_copy_buffer(&o1, a, 2, NULL, NULL, &e));
    CHECK_OK(pqt_edit_copy_buffer(&o2, b, 2, NULL, NULL, &e));
    CHECK(o1.len > 0 && o1.len == o2.len && memcmp(o1.data, o2.data, o1.len) == 0);
  }
  if (lend) pqt_reader_close(lend);
  if (read) pqt_reader_close(read);
  pqt_string_free(&fa);
  pqt_string_free(&o1);
  pqt_string_free(&o2);
}

/* One-byte mutations of a file with a dictionary, page index and Bloom
 * filters: every copy either succeeds (and opens again) or fails with a
 * "bad file" status and a message (ASan/UBSan watch the rest). */
static void test_mutations(void) {
  pqt_error e;
  pqt_string fa = {0};
  CHECK_OK(make_file(&fa, 120, 60, 1, 1, PQT_CODEC_UNCOMPRESSED, &e));
  if (!fa.data) return;
  uint8_t *m = malloc(fa.len);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  int copied = 0, refused = 0;
  for (int k = 0; k < 3000; k++) {
    memcpy(m, fa.data, fa.len);
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    size_t at = (size_t)(x % fa.len);
    m[at] = (uint8_t)(x >> 32);
    pqt_reader *r = NULL;
    if (pqt_reader_open_buffer(&r, m, fa.len, NULL, &e) != PQT_OK) continue;
    pqt_reader *in[] = {r, r};
    pqt_string out = {0};
    pqt_status st = pqt_edit_copy_buffer(&out, in, 2, NULL, NULL, &e);
    if (st == PQT_OK) {
      pqt_reader *back = NULL;
      CHECK_MSG(pqt_reader_open_buffer(&back, out.data, out.len, NULL, &e) == PQT_OK, "byte %zu: %s", at, e.message);
      if (back) pqt_reader_close(back);
      copied++;
    } else {
      CHECK_MSG((st == PQT_ECORRUPT || st == PQT_EUNSUPPORTED || st == PQT_ELIMIT) && e.message[0] && e.code == st,
                "byte %zu: status %d: %s", at, st, e.message);
      refused++;
    }
    pqt_string_free(&out);
    pqt_reader_close(r);
  }
  printf("  3000 mutations: %d copied, %d refused\n", copied, refused);
  CHECK(copied > 0 && refused > 0);
  free(m);
  pqt_string_free(&fa);
}

/* Every corpus file that reads: concatenated with itself, the rows are twice its own. */
static int corpus_files, corpus_copied;
static void corpus_one(const char *path, void *ctx) {
  (void)ctx;
  pqt_reader *r = NULL;
  pqt_error e;
  if (strstr(path, "encrypt") || pqt_reader_open_file(&r, path, NULL, &e) != PQT_OK) return;
  char *t = rows_text_q(r, NULL, 0, true);
  if (!t) { /* a file the reader cannot read whole is not this test's business */
    pqt_reader_close(r);
    return;
  }
  corpus_files++;
  pqt_reader *in[] = {r, r};
  pqt_string out = {0};
  pqt_status st = pqt_edit_copy_buffer(&out, in, 2, NULL, NULL, &e);
  if (strstr(path, "unknown-logical-type")) {
    /* a logical type this version does not know cannot be written again: refused, not dropped */
    CHECK_MSG(st == PQT_EUNSUPPORTED && strstr(e.message, "logical type"), "%s: status %d: %s", path, st, e.message);
    corpus_files--;
    free(t);
    pqt_string_free(&out);
    pqt_reader_close(r);
    return;
  }
  CHECK_MSG(st == PQT_OK, "%s: %s", path, e.message);
  pqt_reader *ro = NULL;
  if (st == PQT_OK && pqt_reader_open_buffer(&ro, out.data, out.len, NULL, &e) == PQT_OK) {
    char *to = rows_text(ro, NULL, 0);
    size_t n = strlen(t);
    CHECK_MSG(to && strlen(to) == 2 * n && strncmp(to, t, n) == 0 && strcmp(to + n, t) == 0, "%s: rows differ", path);
    free(to);
    corpus_copied++;
    pqt_reader_close(ro);
  } else if (st == PQT_OK) {
    CHECK_MSG(0, "%s: the copy does not open: %s", path, e.message);
  }
  free(t);
  pqt_string_free(&out);
  pqt_reader_close(r);
}

static void test_corpus_self_concat(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char d[1024];
  snprintf(d, sizeof d, "%s/data", dir);
  pqt_test_walk(d, ".parquet", corpus_one, NULL);
  printf("  %d corpus files concatenated with themselves, %d read back\n", corpus_files, corpus_copied);
  CHECK(corpus_files > 50);
  CHECK_EQ_INT(corpus_copied, corpus_files);
}

RUN_TESTS("edit", TEST_CASE(test_concat_round_trip), TEST_CASE(test_prune), TEST_CASE(test_errors),
          TEST_CASE(test_read_at_source), TEST_CASE(test_mutations), TEST_CASE(test_corpus_self_concat))
