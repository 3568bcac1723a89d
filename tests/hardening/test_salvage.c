/*
 * pqt_salvage: files written by our writer (flat and nested columns, with
 * and without dictionaries, v1 and v2 pages, several codecs) are cut at
 * every page boundary and at seeded random offsets, or lose their footer.
 * Salvage must recover every row group that lies wholly before the cut,
 * and what it writes must be exactly a prefix of the original rows: never a
 * wrong value.
 */
#include "harness.h"
#include "parquetry.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

#define RG_ROWS 1000
#define N_RGS   5

static const char *SCHEMA =
    "message m {\n"
    "  required int64 id;\n"
    "  optional binary name (STRING);\n"
    "  optional double score;\n"
    "  optional group tags (LIST) {\n"
    "    repeated group list {\n"
    "      optional int32 element;\n"
    "    }\n"
    "  }\n"
    "  required boolean flag;\n"
    "  optional binary cat (STRING);\n"
    "}\n";

static pqt_status cat_buffer(const void *data, size_t len, pqt_test_text *t, int64_t *rows, pqt_error *e) {
  pqt_reader *r;
  pqt_status st = pqt_reader_open_buffer(&r, data, len, NULL, e);
  if (st != PQT_OK) return st;
  *rows = pqt_reader_num_rows(r);
  st = pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, pqt_test_collect, t, e);
  pqt_reader_close(r);
  return st;
}

/* One row group of the test table, rows [first, first + RG_ROWS). */
static void write_rg(pqt_writer *w, int64_t first) {
  enum { N = RG_ROWS };
  static int64_t ids[N];
  static int16_t def[N * 5], rep[N * 5];
  static double dbl[N];
  static int32_t i32[N * 5], offs[N + 1];
  static uint8_t flags[N];
  static char strs[N * 16];
  int64_t nv = 0;
  pqt_error e;
  pqt_error_init(&e);
  for (int i = 0; i < N; i++) ids[i] = first + i;
  CHECK_OK(pqt_writer_write_column(w, 0, N, NULL, NULL, ids, NULL, N, &e));
  /* name: dictionary-friendly strings, some null */
  size_t sl = 0;
  nv = 0;
  offs[0] = 0;
  for (int i = 0; i < N; i++) {
    int64_t r = first + i;
    def[i] = r % 11 != 0;
    if (!def[i]) continue;
    sl += (size_t)snprintf(strs + sl, 16, "name_%d", (int)(r * 7 % 301));
    offs[++nv] = (int32_t)sl;
  }
  CHECK_OK(pqt_writer_write_column(w, 1, N, def, NULL, strs, offs, nv, &e));
  nv = 0;
  for (int i = 0; i < N; i++) {
    int64_t r = first + i;
    def[i] = r % 7 != 0;
    if (def[i]) dbl[nv++] = (double)r * 0.5 + 0.25;
  }
  CHECK_OK(pqt_writer_write_column(w, 2, N, def, NULL, dbl, NULL, nv, &e));
  /* tags: null list, empty list, or 1..4 elements with some null */
  int64_t nl = 0;
  nv = 0;
  for (int i = 0; i < N; i++) {
    int64_t r = first + i;
    if (r % 5 == 0) {
      def[nl] = 0;
      rep[nl++] = 0;
      continue;
    }
    if (r % 5 == 1) {
      def[nl] = 1;
      rep[nl++] = 0;
      continue;
    }
    int k = (int)(r % 4) + 1;
    for (int j = 0; j < k; j++) {
      rep[nl] = j == 0 ? 0 : 1;
      def[nl] = (r + j) % 6 == 0 ? 2 : 3;
      if (def[nl] == 3) i32[nv++] = (int32_t)(r * 10 + j);
      nl++;
    }
  }
  CHECK_OK(pqt_writer_write_column(w, 3, nl, def, rep, i32, NULL, nv, &e));
  for (int i = 0; i < N; i++) flags[i] = (first + i) % 3 != 0;
  CHECK_OK(pqt_writer_write_column(w, 4, N, NULL, NULL, flags, NULL, N, &e));
  static const char *cats[] = {"a", "bb", "ccc"};
  sl = 0;
  nv = 0;
  for (int i = 0; i < N; i++) {
    int64_t r = first + i;
    def[i] = r % 13 != 0;
    if (!def[i]) continue;
    size_t l = strlen(cats[r % 3]);
    memcpy(strs + sl, cats[r % 3], l);
    sl += l;
    offs[++nv] = (int32_t)sl;
  }
  CHECK_OK(pqt_writer_write_column(w, 5, N, def, NULL, strs, offs, nv, &e));
  CHECK_OK(pqt_writer_flush_row_group(w, &e));
}

typedef struct variant {
  const char *name;
  int32_t codec, page_version, dictionary;
} variant;

static bool build_file(const variant *v, pqt_string *out) {
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = v->codec;
  o.defaults.page_version = v->page_version;
  o.defaults.dictionary = v->dictionary;
  o.defaults.page_row_limit = 300; /* several pages per chunk */
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  memset(out, 0, sizeof *out);
  if (pqt_writer_open_buffer(&w, out, &ws, &o, &e) != PQT_OK) {
    fprintf(stderr, "  open: %s\n", e.message);
    return false;
  }
  for (int g = 0; g < N_RGS; g++) write_rg(w, (int64_t)g * RG_ROWS);
  return pqt_writer_close(w, &e) == PQT_OK;
}

/* The end offset of each row group's bytes, and every page start. */
static int layout(const uint8_t *f, size_t len, uint64_t *rg_end, uint64_t *page_starts, int max_pages) {
  uint32_t flen = pqt_load_u32le(f + len - 8);
  pqt_arena arena;
  pqt_arena_init(&arena, NULL);
  pqt_file_metadata md;
  int np = 0;
  if (pqt_thrift_decode(&pqt_desc_file_metadata, f + len - 8 - flen, flen, NULL, &arena, &md, NULL) != PQT_OK) {
    pqt_arena_reset(&arena);
    return -1;
  }
  for (int g = 0; g < md.row_groups.n && g < N_RGS; g++) {
    rg_end[g] = 0;
    for (int c = 0; c < md.row_groups.items[g].columns.n; c++) {
      const pqt_column_metadata *cm = &md.row_groups.items[g].columns.items[c].meta_data;
      uint64_t start = PQT_HAS_FIELD(cm, column_metadata, dictionary_page_offset) && cm->dictionary_page_offset > 0
                           ? (uint64_t)cm->dictionary_page_offset
                           : (uint64_t)cm->data_page_offset;
      uint64_t end = start + (uint64_t)cm->total_compressed_size;
      if (end > rg_end[g]) rg_end[g] = end;
      for (uint64_t p = start; p < end && np < max_pages;) {
        pqt_page_header h;
        size_t hl = 0;
        if (pqt_thrift_decode(&pqt_desc_page_header, f + p, (size_t)(end - p), &hl, NULL, &h, NULL) != PQT_OK) break;
        page_starts[np++] = p;
        p += hl + (uint64_t)h.compressed_page_size;
      }
    }
  }
  pqt_arena_reset(&arena);
  return np;
}

typedef struct tally {
  int runs, partial_runs;
  int64_t rows;
} tally;

/* Salvage the first `cut` bytes of f and compare with the original rows. */
static void salvage_cut(const variant *v, const uint8_t *f, size_t cut, const pqt_test_text *orig,
                        const uint64_t *rg_end, tally *t) {
  int complete = 0;
  for (int g = 0; g < N_RGS; g++)
    if (rg_end[g] <= cut) complete = g + 1;
  pqt_io io;
  pqt_io_init(&io);
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_io_from_buffer(&io, f, cut, NULL, &e));
  pqt_string out;
  memset(&out, 0, sizeof out);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  pqt_writer *w = NULL;
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  pqt_salvage_report rep;
  pqt_salvage_report_init(&rep);
  pqt_status st = pqt_salvage(&io, w, NULL, &rep, &e);
  io.release(io.private_data);
  t->runs++;
  if (cut < 4) {
    CHECK(st != PQT_OK);
    pqt_writer_discard(w);
    pqt_string_free(&out);
    return;
  }
  CHECK_MSG(st == PQT_OK, "%s cut %zu: %s", v->name, cut, e.message);
  CHECK_MSG(rep.row_groups >= complete, "%s cut %zu: %d row groups recovered, %d lie before the cut", v->name, cut,
            rep.row_groups, complete);
  CHECK_MSG(rep.rows <= (int64_t)(complete + 1) * RG_ROWS, "%s cut %zu: %lld rows", v->name, cut, (long long)rep.rows);
  if (rep.partial_rows) t->partial_runs++;
  t->rows += rep.rows;
  if (st != PQT_OK || rep.rows == 0) {
    pqt_writer_discard(w);
    pqt_string_free(&out);
    return;
  }
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_test_text got = {0};
  int64_t n = -1;
  CHECK_OK(cat_buffer(out.data, out.len, &got, &n, &e));
  CHECK_EQ_INT(n, rep.rows);
  /* exactly the first n rows of the original */
  bool prefix = got.p && got.n <= orig->n && memcmp(got.p, orig->p, got.n) == 0 &&
                (got.n == orig->n || orig->p[got.n - 1] == '\n');
  CHECK_MSG(prefix, "%s cut %zu: the salvaged rows are not a prefix of the original", v->name, cut);
  free(got.p);
  pqt_string_free(&out);
}

static void test_variant(const variant *v) {
  pqt_string file;
  CHECK(build_file(v, &file));
  if (!file.data) return;
  const uint8_t *f = (const uint8_t *)file.data;
  if (getenv("SALVAGE_DUMP")) {
    FILE *df = fopen(getenv("SALVAGE_DUMP"), "wb");
    if (df) {
      fwrite(f, 1, file.len, df);
      fclose(df);
    }
  }
  pqt_test_text orig = {0};
  int64_t n = 0;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(cat_buffer(f, file.len, &orig, &n, &e));
  CHECK_EQ_INT(n, N_RGS * RG_ROWS);
  uint64_t rg_end[N_RGS] = {0};
  static uint64_t starts[4096];
  int np = layout(f, file.len, rg_end, starts, 4096);
  CHECK(np > N_RGS * 6);
  tally t = {0};
  /* every page boundary, and one byte short of it */
  for (int i = 0; i < np; i++) {
    salvage_cut(v, f, (size_t)starts[i], &orig, rg_end, &t);
    if (i % 4 == 1) salvage_cut(v, f, (size_t)starts[i] - 1, &orig, rg_end, &t);
  }
  for (int g = 0; g < N_RGS; g++) salvage_cut(v, f, (size_t)rg_end[g], &orig, rg_end, &t);
  /* seeded random offsets */
  uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)v->codec;
  for (int i = 0; i < 30; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    salvage_cut(v, f, (size_t)(x % file.len), &orig, rg_end, &t);
  }
  /* the whole file, and the file with its footer overwritten */
  salvage_cut(v, f, file.len, &orig, rg_end, &t);
  uint8_t *broken = malloc(file.len);
  memcpy(broken, f, file.len);
  memset(broken + rg_end[N_RGS - 1], 0xff, file.len - rg_end[N_RGS - 1]);
  salvage_cut(v, broken, file.len, &orig, rg_end, &t);
  free(broken);
  /* a cut inside the last column of a row group keeps its complete rows */
  CHECK_MSG(t.partial_runs > 0, "%s: no cut kept rows of a row group cut short", v->name);
  printf("  %s: %d bytes, %d pages, %d salvages, %d kept rows of a cut row group, %lld rows in all\n", v->name,
         (int)file.len, np, t.runs, t.partial_runs, (long long)t.rows);
  free(orig.p);
  pqt_string_free(&file);
}

static void test_variants(void) {
  static const variant vs[] = {
      {"v1 snappy dictionary", 1, 1, 1},
      {"v2 zstd dictionary", 6, 2, 1},
      {"v1 uncompressed plain", 0, 1, 0},
      {"v2 gzip plain", 2, 2, 0},
  };
  for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) test_variant(&vs[i]);
}

/* Not a Parquet file, an empty one, a schema that does not match. */
static void test_bad_inputs(void) {
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  static const char junk[] = "this is not a parquet file at all";
  pqt_io io;
  pqt_io_init(&io);
  CHECK_OK(pqt_io_from_buffer(&io, junk, sizeof junk, NULL, &e));
  pqt_string out = {0};
  pqt_writer *w;
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK(pqt_salvage(&io, w, NULL, NULL, &e) == PQT_ECORRUPT);
  CHECK(strstr(e.message, "PAR1") != NULL);
  pqt_writer_discard(w);
  io.release(io.private_data);
  pqt_string_free(&out);

  /* a file of another schema: nothing fits, nothing is written, no crash */
  variant v = {"v1 snappy", 1, 1, 1};
  pqt_string file;
  CHECK(build_file(&v, &file));
  pqt_write_schema other = {.struct_size = sizeof(pqt_write_schema),
                            .message = "message m { required int32 a; required binary b; }"};
  CHECK_OK(pqt_io_from_buffer(&io, file.data, file.len, NULL, &e));
  memset(&out, 0, sizeof out);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &other, NULL, &e));
  pqt_salvage_report rep;
  pqt_salvage_report_init(&rep);
  CHECK_OK(pqt_salvage(&io, w, NULL, &rep, &e));
  CHECK_EQ_INT(rep.rows, 0);
  CHECK(rep.pages_found > 0);
  pqt_writer_discard(w);
  io.release(io.private_data);
  pqt_string_free(&out);
  pqt_string_free(&file);
}

RUN_TESTS("salvage", TEST_CASE(test_variants), TEST_CASE(test_bad_inputs))
