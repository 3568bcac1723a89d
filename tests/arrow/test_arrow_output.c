/*
 * The Arrow output options (pqt_arrow_output): dictionary arrays and
 * string/binary views. Every stream read with an option is expanded back
 * (dictionary indexes looked up, views followed) and must equal the
 * default stream value for value; every batch passes the structural
 * checker the fuzzers use (fuzz/fuzz_arrow_check.h, which follows
 * dictionaries and views), and ASan/LSan see every buffer freed.
 * Generated files cover a dictionary that falls back to PLAIN midway,
 * chunks without a dictionary, nulls, empty strings, values of 12 and 13
 * bytes, long values, a struct leaf and a list leaf, several row groups and
 * batches, filters and row ranges, threads; then the public corpus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../fuzz/fuzz_arrow_check.h"
#include "gen_file.h"
#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "parquetry_filter.h"

/* ---- expanding a batch to comparable text ---------------------------- */

typedef struct tbuf {
  char *p;
  size_t len, cap;
} tbuf;

static void tput(tbuf *b, const void *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap : 4096;
    while (c < b->len + n + 1) c *= 2;
    char *q = realloc(b->p, c);
    if (!q) abort();
    b->p = q;
    b->cap = c;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}
static void tstr(tbuf *b, const char *s) { tput(b, s, strlen(s)); }
static void thex(tbuf *b, const uint8_t *p, size_t n) {
  static const char hx[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    char c[2] = {hx[p[i] >> 4], hx[p[i] & 15]};
    tput(b, c, 2);
  }
}
static bool tbit(const void *bits, int64_t i) { return (((const uint8_t *)bits)[i >> 3] >> (i & 7)) & 1; }

static int g_dict_arrays, g_view_arrays, g_real_dicts, g_long_views, g_inline_views;

/* The value at slot (offsets of this array already added) as text. */
static void expand(tbuf *b, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t slot) {
  const char *f = s->format;
  if (strcmp(f, "n") == 0) {
    tstr(b, "null");
    return;
  }
  if (a->buffers[0] && !tbit(a->buffers[0], slot)) {
    tstr(b, "null");
    return;
  }
  if (s->dictionary) {
    int32_t k = ((const int32_t *)a->buffers[1])[slot];
    expand(b, s->dictionary, a->dictionary, a->dictionary->offset + k);
    return;
  }
  if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
    const int32_t *o = a->buffers[1];
    tstr(b, "'");
    thex(b, (const uint8_t *)a->buffers[2] + o[slot], (size_t)(o[slot + 1] - o[slot]));
    tstr(b, "'");
    return;
  }
  if (strcmp(f, "U") == 0 || strcmp(f, "Z") == 0) {
    const int64_t *o = a->buffers[1];
    tstr(b, "'");
    thex(b, (const uint8_t *)a->buffers[2] + o[slot], (size_t)(o[slot + 1] - o[slot]));
    tstr(b, "'");
    return;
  }
  if (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0) {
    const uint8_t *v = (const uint8_t *)a->buffers[1] + 16 * slot;
    int32_t len, bi, off;
    memcpy(&len, v, 4);
    tstr(b, "'");
    if (len <= 12) {
      thex(b, v + 4, (size_t)len);
    } else {
      memcpy(&bi, v + 8, 4);
      memcpy(&off, v + 12, 4);
      thex(b, (const uint8_t *)a->buffers[2 + bi] + off, (size_t)len);
    }
    tstr(b, "'");
    return;
  }
  if (strcmp(f, "+s") == 0) {
    tstr(b, "{");
    for (int64_t k = 0; k < a->n_children; k++) {
      if (k) tstr(b, ",");
      expand(b, s->children[k], a->children[k], slot + a->children[k]->offset);
    }
    tstr(b, "}");
    return;
  }
  if (strcmp(f, "+l") == 0 || strcmp(f, "+m") == 0) {
    const int32_t *o = a->buffers[1];
    tstr(b, "[");
    for (int32_t j = o[slot]; j < o[slot + 1]; j++) {
      if (j > o[slot]) tstr(b, ",");
      expand(b, s->children[0], a->children[0], j + a->children[0]->offset);
    }
    tstr(b, "]");
    return;
  }
  int w = pqt_ac_fixed_width(f);
  if (w < 0) {
    tstr(b, tbit(a->buffers[1], slot) ? "T" : "F");
    return;
  }
  if (w > 0) {
    thex(b, (const uint8_t *)a->buffers[1] + (size_t)slot * (size_t)w, (size_t)w);
    return;
  }
  tstr(b, "?");
  tstr(b, f);
}

/* Count what the options produced (dictionary and view arrays). */
static void count_kinds(const struct ArrowSchema *s, const struct ArrowArray *a) {
  if (s->dictionary) {
    g_dict_arrays++;
    if (a->dictionary->length < a->length) g_real_dicts++; /* indexes into a smaller dictionary: no gather */
    count_kinds(s->dictionary, a->dictionary);
  }
  if (strcmp(s->format, "vu") == 0 || strcmp(s->format, "vz") == 0) {
    g_view_arrays++;
    for (int64_t i = a->offset; i < a->offset + a->length; i++) {
      int32_t len;
      memcpy(&len, (const uint8_t *)a->buffers[1] + 16 * i, 4);
      if (len > 12) g_long_views++;
      else if (len > 0) g_inline_views++;
    }
  }
  for (int64_t k = 0; k < a->n_children; k++) count_kinds(s->children[k], a->children[k]);
}

typedef struct read_cfg {
  uint64_t arrow_output;
  int64_t batch_size;
  const pqt_expr *filter;
  const pqt_row_span *ranges;
  int32_t n_ranges;
  int32_t threads;
} read_cfg;

/* Stream the file with cfg, every batch checked, all rows expanded into out.
 * Returns the status of the stream (non-zero: out is partial). */
static int read_all(pqt_reader *r, const read_cfg *cfg, tbuf *out, const char *what) {
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.arrow_output = cfg->arrow_output;
  so.batch_size = cfg->batch_size;
  so.filter = cfg->filter;
  so.row_ranges = cfg->ranges;
  so.n_row_ranges = cfg->n_ranges;
  so.threads = cfg->threads ? cfg->threads : 1;
  struct ArrowArrayStream st;
  pqt_error err;
  if (pqt_reader_get_stream(r, &so, &st, &err) != PQT_OK) return -1;
  struct ArrowSchema schema;
  int rc = st.get_schema(&st, &schema);
  if (rc != 0) {
    st.release(&st);
    return rc;
  }
  for (;;) {
    struct ArrowArray batch;
    rc = st.get_next(&st, &batch);
    if (rc != 0 || !batch.release) break;
    pqt_arrow_check chk;
    memset(&chk, 0, sizeof chk);
    const char *bad = pqt_arrow_check_array(&chk, &schema, &batch, 0);
    CHECK_MSG(bad == NULL, "%s (options %llu): %s %s", what, (unsigned long long)cfg->arrow_output, bad ? bad : "",
              chk.msg);
    if (!bad) {
      count_kinds(&schema, &batch);
      for (int64_t i = 0; i < batch.length; i++) {
        expand(out, &schema, &batch, batch.offset + i);
        tstr(out, "\n");
      }
    }
    batch.release(&batch);
  }
  schema.release(&schema);
  st.release(&st);
  return rc;
}

/* Every option (and batch sizes) against the default: same text. */
static void compare_file(pqt_reader *r, const read_cfg *base, const char *what, bool must_read) {
  tbuf ref = {0};
  int rc = read_all(r, base, &ref, what);
  if (must_read) CHECK_MSG(rc == 0, "%s: default read failed (%d)", what, rc);
  if (rc != 0) {
    free(ref.p);
    return;
  }
  static const uint64_t opts[] = {PQT_ARROW_DICTIONARY, PQT_ARROW_VIEW, PQT_ARROW_DICTIONARY | PQT_ARROW_VIEW};
  for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
    read_cfg c = *base;
    c.arrow_output = opts[k];
    tbuf got = {0};
    rc = read_all(r, &c, &got, what);
    CHECK_MSG(rc == 0, "%s: options %llu: read failed (%d) where the default read works", what,
              (unsigned long long)opts[k], rc);
    bool same = rc == 0 && got.len == ref.len && (ref.len == 0 || memcmp(got.p, ref.p, ref.len) == 0);
    if (!same && rc == 0) {
      size_t i = 0;
      while (i < got.len && i < ref.len && got.p[i] == ref.p[i]) i++;
      fprintf(stderr, "  %s: options %llu differ at byte %zu: ...%.80s vs ...%.80s\n", what,
              (unsigned long long)opts[k], i, got.p + (i > 20 ? i - 20 : 0), ref.p + (i > 20 ? i - 20 : 0));
    }
    CHECK_MSG(same || rc != 0, "%s: options %llu: values differ from the default output", what,
              (unsigned long long)opts[k]);
    free(got.p);
  }
  free(ref.p);
}

/* ---- a generated file -------------------------------------------------- */

static const char *SCHEMA =
    "message m {\n"
    "  required int32 k;\n"
    "  optional binary s (STRING);\n"
    "  optional double d;\n"
    "  optional group g { optional binary t (STRING); }\n"
    "  optional group l (LIST) { repeated group list { optional binary element (STRING); } }\n"
    "  optional fixed_len_byte_array(3) fx;\n"
    "}\n";

#define ROWS_PER_GROUP 1000
#define GROUPS         3

/* The string of row i: a small pool (dictionary), with nulls, empty
 * values, values of exactly 12 and 13 bytes and long ones; after row 600
 * of each row group mostly unique values (the writer's small dictionary
 * limit makes it fall back to plain). */
static const char *str_of(int i, char *tmp, size_t cap) {
  static const char *const pool[] = {"",
                                     "a",
                                     "abcdefghijkl",
                                     "abcdefghijklm",
                                     "twelve bytes",
                                     "thirteen byte",
                                     "a long value that does not fit inline in a view, forty+ bytes"};
  if (i % 11 == 3) return NULL;
  if (i % ROWS_PER_GROUP > 600 && i % 3 == 0) {
    snprintf(tmp, cap, "unique value number %d, long enough to be out of line", i);
    return tmp;
  }
  return pool[(i / 3 + i) % 7];
}

static bool write_file(pqt_string *buf, bool dict) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.row_group_rows = 1 << 30;
  o.defaults.dictionary = dict;
  o.defaults.dictionary_page_size_limit = 300;
  o.defaults.page_row_limit = 97;
  pqt_writer *w = pqt_test_gen_open(buf, SCHEMA, &o);
  if (!w) return false;
  pqt_error err;
  enum { N = ROWS_PER_GROUP };
  static int16_t def[N * 4], rep[N * 4];
  static int32_t offs[N * 4 + 1];
  static char bytes[N * 4 * 80];
  static double dv[N];
  static int32_t iv[N];
  char tmp[128];
  bool ok = true;
  for (int g = 0; ok && g < GROUPS; g++) {
    int base = g * N;
    /* k */
    for (int i = 0; i < N; i++) iv[i] = base + i;
    ok = pqt_writer_write_column(w, 0, N, NULL, NULL, iv, NULL, N, &err) == PQT_OK;
    /* s, g.t: flat / one level of struct */
    for (int c = 1; ok && c <= 3; c += 2) {
      int64_t nv = 0;
      size_t nb = 0;
      offs[0] = 0;
      for (int i = 0; i < N; i++) {
        const char *v = str_of(base + i + (c == 3 ? 5 : 0), tmp, sizeof tmp);
        if (c == 3 && (base + i) % 13 == 0) {
          def[i] = 0; /* g null */
          continue;
        }
        def[i] = v ? (int16_t)(c == 1 ? 1 : 2) : (int16_t)(c == 1 ? 0 : 1);
        if (v) pqt_test_gen_string(bytes, &nb, offs, &nv, v);
      }
      ok = pqt_writer_write_column(w, c, N, def, NULL, bytes, offs, nv, &err) == PQT_OK;
    }
    /* d: doubles from a small set, with nulls */
    if (ok) {
      int64_t nv = 0;
      for (int i = 0; i < N; i++) {
        def[i] = (base + i) % 7 != 0;
        if (def[i]) dv[nv++] = (double)((base + i) % 40) * 0.25 + ((base + i) % ROWS_PER_GROUP > 700 ? i : 0);
      }
      ok = pqt_writer_write_column(w, 2, N, def, NULL, dv, NULL, nv, &err) == PQT_OK;
    }
    /* l: lists of 0..3 strings, null lists, null elements */
    if (ok) {
      int64_t nl = 0, nv = 0;
      size_t nb = 0;
      offs[0] = 0;
      for (int i = 0; i < N; i++) {
        int r = base + i, n = r % 4;
        if (r % 17 == 0) {
          rep[nl] = 0;
          def[nl++] = 0;
          continue;
        }
        if (n == 0) {
          rep[nl] = 0;
          def[nl++] = 1;
          continue;
        }
        for (int e = 0; e < n; e++) {
          const char *v = str_of(r * 3 + e, tmp, sizeof tmp);
          rep[nl] = e ? 1 : 0;
          def[nl++] = v ? 3 : 2;
          if (v) pqt_test_gen_string(bytes, &nb, offs, &nv, v);
        }
      }
      ok = pqt_writer_write_column(w, 4, nl, def, rep, bytes, offs, nv, &err) == PQT_OK;
    }
    /* fx: FIXED_LEN_BYTE_ARRAY(3) */
    if (ok) {
      int64_t nv = 0;
      for (int i = 0; i < N; i++) {
        def[i] = (base + i) % 5 != 0;
        if (def[i]) {
          int v = (base + i) % 9;
          bytes[nv * 3] = (char)('a' + v);
          bytes[nv * 3 + 1] = (char)('0' + v);
          bytes[nv * 3 + 2] = 'z';
          nv++;
        }
      }
      ok = pqt_writer_write_column(w, 5, N, def, NULL, bytes, NULL, nv, &err) == PQT_OK;
    }
    if (!ok) fprintf(stderr, "  write: %s\n", err.message);
    ok = pqt_test_gen_flush(w, ok);
  }
  return pqt_test_gen_close(w, ok);
}

static pqt_reader *open_generated(pqt_string *buf, bool dict) {
  if (!write_file(buf, dict)) {
    CHECK(!"the generated file could not be written");
    return NULL;
  }
  pqt_reader *r = NULL;
  pqt_error err;
  if (pqt_reader_open_buffer(&r, buf->data, buf->len, NULL, &err) != PQT_OK) {
    CHECK_MSG(0, "open: %s", err.message);
    return NULL;
  }
  return r;
}

static void test_generated_dictionary_and_fallback(void) {
  pqt_string buf;
  pqt_reader *r = open_generated(&buf, true);
  if (!r) return;
  g_dict_arrays = g_view_arrays = g_real_dicts = g_long_views = g_inline_views = 0;
  static const int64_t sizes[] = {0, 257, 1000, 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    read_cfg c = {.batch_size = sizes[i]};
    compare_file(r, &c, "generated (dictionary, plain fallback)", true);
  }
  read_cfg t = {.batch_size = 300, .threads = 2};
  compare_file(r, &t, "generated, 2 threads", true);
  printf("dictionary arrays %d (%d smaller than their batch), view arrays %d (%d long values, %d inline)\n",
         g_dict_arrays, g_real_dicts, g_view_arrays, g_long_views, g_inline_views);
  CHECK(g_dict_arrays > 0);
  CHECK(g_real_dicts > 0); /* indexes straight from the pages, not an identity dictionary */
  CHECK(g_view_arrays > 0);
  CHECK(g_long_views > 0);
  CHECK(g_inline_views > 0);
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

static void test_generated_without_dictionary(void) {
  pqt_string buf;
  pqt_reader *r = open_generated(&buf, false);
  if (!r) return;
  read_cfg c = {.batch_size = 333};
  compare_file(r, &c, "generated (no dictionary)", true);
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

/* The schema under the options: which leaves become dictionaries and views. */
static void test_schema_types(void) {
  pqt_string buf;
  pqt_reader *r = open_generated(&buf, true);
  if (!r) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.arrow_output = PQT_ARROW_DICTIONARY | PQT_ARROW_VIEW;
  struct ArrowArrayStream st;
  CHECK_OK(pqt_reader_get_stream(r, &so, &st, NULL));
  struct ArrowSchema s;
  CHECK_EQ_INT(st.get_schema(&st, &s), 0);
  CHECK_EQ_INT(s.n_children, 6);
  if (s.n_children == 6) {
    CHECK_EQ_STR(s.children[0]->format, "i"); /* k: int32 dictionary of int32 */
    CHECK(s.children[0]->dictionary && strcmp(s.children[0]->dictionary->format, "i") == 0);
    CHECK_EQ_STR(s.children[1]->format, "i");
    CHECK(s.children[1]->dictionary && strcmp(s.children[1]->dictionary->format, "vu") == 0);
    CHECK(s.children[2]->dictionary && strcmp(s.children[2]->dictionary->format, "g") == 0);
    CHECK_EQ_STR(s.children[3]->format, "+s");
    CHECK(s.children[3]->children[0]->dictionary != NULL);
    CHECK_EQ_STR(s.children[4]->format, "+l");
    CHECK(s.children[4]->children[0]->dictionary != NULL);
    CHECK(s.children[5]->dictionary && strcmp(s.children[5]->dictionary->format, "w:3") == 0);
  }
  s.release(&s);
  st.release(&st);
  /* views alone */
  so.arrow_output = PQT_ARROW_VIEW;
  CHECK_OK(pqt_reader_get_stream(r, &so, &st, NULL));
  CHECK_EQ_INT(st.get_schema(&st, &s), 0);
  if (s.n_children == 6) {
    CHECK_EQ_STR(s.children[1]->format, "vu");
    CHECK(s.children[1]->dictionary == NULL);
    CHECK_EQ_STR(s.children[0]->format, "i");
    CHECK(s.children[0]->dictionary == NULL);
  }
  s.release(&s);
  st.release(&st);
  /* the reader's default applies when the scan's is 0 */
  pqt_reader_close(r);
  pqt_read_options ro;
  pqt_read_options_init(&ro);
  ro.arrow_output = PQT_ARROW_DICTIONARY;
  pqt_error err;
  CHECK_OK(pqt_reader_open_buffer(&r, buf.data, buf.len, &ro, &err));
  CHECK_OK(pqt_reader_get_stream(r, NULL, &st, NULL));
  CHECK_EQ_INT(st.get_schema(&st, &s), 0);
  if (s.n_children == 6) CHECK(s.children[1]->dictionary && strcmp(s.children[1]->dictionary->format, "u") == 0);
  s.release(&s);
  st.release(&st);
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

static void test_filter_and_row_ranges(void) {
  pqt_string buf;
  pqt_reader *r = open_generated(&buf, true);
  if (!r) return;
  pqt_expr *e = pqt_expr_and(pqt_expr_compare(PQT_CMP_GE, pqt_expr_column("k"), pqt_expr_int(150)),
                             pqt_expr_compare(PQT_CMP_LT, pqt_expr_column("k"), pqt_expr_int(2600)));
  CHECK(e != NULL);
  read_cfg c = {.batch_size = 200, .filter = e};
  compare_file(r, &c, "generated, filtered", true);
  static const pqt_row_span spans[] = {{10, 500}, {990, 30}, {1500, 900}};
  read_cfg rr = {.batch_size = 128, .ranges = spans, .n_ranges = 3};
  compare_file(r, &rr, "generated, row ranges", true);
  rr.filter = e;
  compare_file(r, &rr, "generated, row ranges and filter", true);
  pqt_expr_free(e);
  pqt_reader_close(r);
  pqt_string_free(&buf);
}

/* ---- the corpus ------------------------------------------------------- */

static int g_corpus_files;

static void corpus_one(const char *path, void *ctx) {
  (void)ctx;
  pqt_reader *r = NULL;
  pqt_error err;
  if (pqt_reader_open_file(&r, path, NULL, &err) != PQT_OK) return;
  g_corpus_files++;
  read_cfg c = {0};
  compare_file(r, &c, path, false);
  read_cfg c2 = {.batch_size = 100};
  compare_file(r, &c2, path, false);
  pqt_reader_close(r);
}

static void test_corpus(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) return;
  char p[4096];
  snprintf(p, sizeof p, "%s/data", dir);
  g_dict_arrays = g_real_dicts = 0;
  pqt_test_walk(p, ".parquet", corpus_one, NULL);
  printf("corpus: %d files, %d dictionary arrays (%d smaller than their batch)\n", g_corpus_files, g_dict_arrays,
         g_real_dicts);
  CHECK(g_corpus_files > 50);
  CHECK(g_real_dicts > 0);
}

RUN_TESTS("arrow_output", TEST_CASE(test_schema_types), TEST_CASE(test_generated_dictionary_and_fallback),
          TEST_CASE(test_generated_without_dictionary), TEST_CASE(test_filter_and_row_ranges), TEST_CASE(test_corpus))
