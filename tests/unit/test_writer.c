/* Unit tests for the writer (file/writer.c, column/column_writer.c;
 * seeds/002 file layout, statistics, page index, Bloom filters, CRC):
 * the low-level column API, metadata written, sinks, temp-file rename,
 * schema sources and misuse. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "file/reader_internal.h"
#include "harness.h"
#include "rng.h"
#include "meta/bloom.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

static const char *SCHEMA =
    "message m {\n"
    "  required int64 a;\n"
    "  optional binary s (STRING);\n"
    "  optional group l (LIST) {\n"
    "    repeated group list {\n"
    "      optional int32 element;\n"
    "    }\n"
    "  }\n"
    "  optional double d;\n"
    "}\n";

static pqt_status collect(void *ctx, const char *data, size_t len) {
  pqt_buf *b = ctx;
  return pqt_buf_append(b, data, len, NULL);
}

/* rows: a = i; s = "v<i%3>" or null every 4th; l = [i, null] / [] / null;
 * d = -0.0, NaN, 1.5 ... */
static pqt_status write_sample(pqt_writer *w, int64_t rows, pqt_error *e) {
  int64_t *a = malloc((size_t)rows * 8);
  int16_t *sdef = malloc((size_t)rows * 2), *ddef = malloc((size_t)rows * 2);
  int32_t *soff = malloc((size_t)(rows + 1) * 4);
  char *sdat = malloc((size_t)rows * 2 + 1);
  int16_t *ldef = malloc((size_t)rows * 4), *lrep = malloc((size_t)rows * 4);
  int32_t *lval = malloc((size_t)rows * 8);
  double *dv = malloc((size_t)rows * 8);
  int64_t ns = 0, nl = 0, nlv = 0, nd = 0;
  soff[0] = 0;
  for (int64_t i = 0; i < rows; i++) {
    a[i] = i;
    if (i % 4 == 3) sdef[i] = 0;
    else {
      sdef[i] = 1;
      sdat[soff[ns]] = 'v';
      sdat[soff[ns] + 1] = (char)('0' + i % 3);
      soff[ns + 1] = soff[ns] + 2;
      ns++;
    }
    switch (i % 3) {
      case 0: /* [i, null] */
        ldef[nl] = 3;
        lrep[nl++] = 0;
        lval[nlv++] = (int32_t)i;
        ldef[nl] = 2;
        lrep[nl++] = 1;
        break;
      case 1:
        ldef[nl] = 1;
        lrep[nl++] = 0;
        break; /* [] */
      default:
        ldef[nl] = 0;
        lrep[nl++] = 0;
        break; /* null */
    }
    ddef[i] = 1;
    dv[nd++] = i % 5 == 0 ? -0.0 : i % 5 == 1 ? (0.0 / 0.0) : 1.5 * (double)i;
  }
  pqt_status st = pqt_writer_write_column(w, 0, rows, NULL, NULL, a, NULL, rows, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 1, rows, sdef, NULL, sdat, soff, ns, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 2, nl, ldef, lrep, lval, NULL, nlv, e);
  if (st == PQT_OK) st = pqt_writer_write_column(w, 3, rows, ddef, NULL, dv, NULL, nd, e);
  if (st == PQT_OK) st = pqt_writer_flush_row_group(w, e);
  free(a);
  free(sdef);
  free(ddef);
  free(soff);
  free(sdat);
  free(ldef);
  free(lrep);
  free(lval);
  free(dv);
  return st;
}

static void test_low_level_and_text(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK_OK(write_sample(w, 6, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  pqt_buf txt;
  pqt_buf_init(&txt, NULL);
  CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &txt, &e));
  CHECK_OK(pqt_buf_append(&txt, "", 1, NULL));
  const char *want =
      "{\"a\":0,\"s\":\"v0\",\"l\":[0,null],\"d\":-0}\n"
      "{\"a\":1,\"s\":\"v1\",\"l\":[],\"d\":\"NaN\"}\n"
      "{\"a\":2,\"s\":\"v2\",\"l\":null,\"d\":3}\n"
      "{\"a\":3,\"s\":null,\"l\":[3,null],\"d\":4.5}\n"
      "{\"a\":4,\"s\":\"v1\",\"l\":[],\"d\":6}\n"
      "{\"a\":5,\"s\":\"v2\",\"l\":null,\"d\":-0}\n";
  CHECK_EQ_STR((const char *)txt.data, want);
  CHECK(strncmp(pqt_reader_created_by(r), "parquetry version ", 18) == 0);
  pqt_buf_free(&txt);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

static void test_metadata(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.page_row_limit = 100; /* several pages */
  pqt_column_override ov = {"s", o.defaults};
  ov.options.bloom_filter = 1;
  ov.options.bloom_ndv = 1000;
  o.columns = &ov;
  o.n_columns = 1;
  const char *keys[] = {"k1"}, *vals[] = {"v1"};
  o.kv_keys = keys;
  o.kv_values = vals;
  o.n_kv = 1;
  pqt_sorting_column_spec sc = {0, 0, 1};
  o.sorting_columns = &sc;
  o.n_sorting_columns = 1;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  CHECK_OK(write_sample(w, 1000, &e));
  CHECK_OK(write_sample(w, 10, &e)); /* a second row group */
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  const pqt_file_metadata *md = &r->md;
  const uint8_t *file = (const uint8_t *)out.data;
  CHECK_EQ_INT(md->num_rows, 1010);
  CHECK_EQ_INT(md->row_groups.n, 2);
  CHECK_EQ_INT(md->column_orders.n, 4);
  CHECK(md->column_orders.n == 4 && md->column_orders.items[0].isset == (1u << PQT_ORDER_TYPE));
  CHECK(md->key_value_metadata.n == 1 && md->key_value_metadata.items[0].key.len == 2);
  const pqt_row_group *rg = &md->row_groups.items[0];
  CHECK(rg->sorting_columns.n == 1 && rg->sorting_columns.items[0].nulls_first);
  CHECK_EQ_INT(rg->num_rows, 1000);
  CHECK_EQ_INT(rg->file_offset, 4);
  /* a: INT64 0..999, dictionary abandoned (unique values) */
  const pqt_column_chunk *ca = &rg->columns.items[0];
  const pqt_statistics *st = &ca->meta_data.statistics;
  int64_t mn, mx;
  CHECK(st->min_value.len == 8 && st->max_value.len == 8);
  memcpy(&mn, st->min_value.ptr, 8);
  memcpy(&mx, st->max_value.ptr, 8);
  CHECK(mn == 0 && mx == 999);
  CHECK(PQT_HAS_FIELD(st, statistics, null_count) && st->null_count == 0);
  CHECK(st->is_min_value_exact && st->is_max_value_exact);
  CHECK_EQ_INT(ca->file_offset, ca->meta_data.data_page_offset);
  /* page index of a: pages of 100 rows, ascending, absolute offsets */
  CHECK(PQT_HAS_FIELD(ca, column_chunk, offset_index_offset) && PQT_HAS_FIELD(ca, column_chunk, column_index_offset));
  pqt_arena ar;
  pqt_arena_init(&ar, NULL);
  pqt_offset_index oi;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_offset_index, file + ca->offset_index_offset, (size_t)ca->offset_index_length,
                             NULL, &ar, &oi, NULL));
  CHECK_EQ_INT(oi.page_locations.n, 10);
  int64_t end = ca->meta_data.data_page_offset;
  for (int32_t i = 0; i < oi.page_locations.n; i++) {
    const pqt_page_location *pl = &oi.page_locations.items[i];
    CHECK_EQ_INT(pl->offset, end);
    CHECK_EQ_INT(pl->first_row_index, i * 100);
    pqt_page_header ph;
    size_t used = 0;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, file + pl->offset, (size_t)pl->compressed_page_size, &used, NULL,
                               &ph, NULL));
    CHECK_EQ_INT((int64_t)used + ph.compressed_page_size, pl->compressed_page_size);
    CHECK(PQT_HAS_FIELD(&ph, page_header, crc)); /* CRC */
    end = pl->offset + pl->compressed_page_size;
  }
  pqt_column_index ci;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_column_index, file + ca->column_index_offset, (size_t)ca->column_index_length,
                             NULL, &ar, &ci, NULL));
  CHECK_EQ_INT(ci.boundary_order, PQT_BOUNDARY_ASCENDING);
  CHECK_EQ_INT(ci.null_pages.n, 10);
  /* s: dictionary, strings, Bloom filter, truncation-free bounds */
  const pqt_column_chunk *cs = &rg->columns.items[1];
  CHECK(PQT_HAS_FIELD(&cs->meta_data, column_metadata, dictionary_page_offset));
  CHECK(cs->meta_data.statistics.min_value.len == 2 && memcmp(cs->meta_data.statistics.min_value.ptr, "v0", 2) == 0);
  CHECK_EQ_INT(cs->meta_data.statistics.null_count, 250);
  CHECK(PQT_HAS_FIELD(&cs->meta_data, column_metadata, bloom_filter_offset) &&
        PQT_HAS_FIELD(&cs->meta_data, column_metadata, bloom_filter_length));
  CHECK(PQT_HAS_FIELD(&cs->meta_data.size_statistics, size_statistics, unencoded_byte_array_data_bytes) &&
        cs->meta_data.size_statistics.unencoded_byte_array_data_bytes == 1500);
  pqt_bloom bf;
  CHECK_OK(pqt_bloom_parse(file + cs->meta_data.bloom_filter_offset, (size_t)cs->meta_data.bloom_filter_length, NULL,
                           &bf, NULL, NULL));
  CHECK(pqt_bloom_check(&bf, pqt_bloom_hash("v0", 2)) && pqt_bloom_check(&bf, pqt_bloom_hash("v2", 2)));
  int fp = 0;
  char buf[16];
  for (int i = 0; i < 1000; i++) {
    int n = snprintf(buf, sizeof buf, "x%d", i);
    fp += pqt_bloom_check(&bf, pqt_bloom_hash(buf, (size_t)n));
  }
  CHECK(fp < 50);
  pqt_bloom_free(&bf);
  /* l: level histograms */
  const pqt_size_statistics *ss = &rg->columns.items[2].meta_data.size_statistics;
  CHECK(ss->definition_level_histogram.n == 4 && ss->repetition_level_histogram.n == 2);
  if (ss->definition_level_histogram.n == 4) {
    CHECK_EQ_INT(ss->definition_level_histogram.items[0], 333); /* null lists */
    CHECK_EQ_INT(ss->definition_level_histogram.items[1], 333); /* empty lists */
    CHECK_EQ_INT(ss->definition_level_histogram.items[2], 334); /* null elements */
    CHECK_EQ_INT(ss->definition_level_histogram.items[3], 334);
  }
  /* d: NaN excluded, -0 kept as min, nan_count */
  const pqt_statistics *sd = &rg->columns.items[3].meta_data.statistics;
  double dmn, dmx;
  memcpy(&dmn, sd->min_value.ptr, 8);
  memcpy(&dmx, sd->max_value.ptr, 8);
  CHECK(dmn == 0 && __builtin_signbit(dmn) && dmx == 1.5 * 999);
  CHECK(PQT_HAS_FIELD(sd, statistics, nan_count) && sd->nan_count == 200);
  int64_t flip_at = ca->meta_data.data_page_offset + ca->meta_data.total_compressed_size - 3;
  pqt_arena_reset(&ar);
  pqt_reader_close(r);
  /* a flipped byte in a page: the reader's CRC check names it */
  char *bad = malloc(out.len);
  memcpy(bad, out.data, out.len);
  bad[flip_at] ^= 0x55;
  CHECK_OK(pqt_reader_open_buffer(&r, bad, out.len, NULL, &e));
  pqt_buf txt;
  pqt_buf_init(&txt, NULL);
  CHECK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &txt, &e) == PQT_ECORRUPT);
  CHECK(strstr(e.message, "CRC") != NULL);
  pqt_buf_free(&txt);
  pqt_reader_close(r);
  free(bad);
  pqt_string_free(&out);
}

static void test_sinks_and_files(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK_OK(write_sample(w, 50, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_buf cb;
  pqt_buf_init(&cb, NULL);
  CHECK_OK(pqt_writer_open_callbacks(&w, collect, &cb, &ws, NULL, &e));
  CHECK_OK(write_sample(w, 50, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  CHECK(cb.len == out.len && memcmp(cb.data, out.data, out.len) == 0);
  char dir[] = "/tmp/pqt_writer_test_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/x.parquet", dir);
  CHECK_OK(pqt_writer_open_file(&w, path, &ws, NULL, &e));
  CHECK_OK(write_sample(w, 50, &e));
  CHECK(access(path, F_OK) != 0); /* not there before close */
  pqt_writer_discard(w);
  CHECK(access(path, F_OK) != 0);
  CHECK_OK(pqt_writer_open_file(&w, path, &ws, NULL, &e));
  CHECK_OK(write_sample(w, 50, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (f) {
    char *d = malloc(out.len + 1);
    CHECK_EQ_INT(fread(d, 1, out.len + 1, f), out.len);
    CHECK(memcmp(d, out.data, out.len) == 0);
    free(d);
    fclose(f);
  }
  int entries = 0;
  DIR *dd = opendir(dir);
  for (struct dirent *de; dd && (de = readdir(dd));) entries += de->d_name[0] != '.';
  if (dd) closedir(dd);
  CHECK_EQ_INT(entries, 1); /* no temporary left behind */
  unlink(path);
  rmdir(dir);
  pqt_buf_free(&cb);
  pqt_string_free(&out);
}

static void test_misuse(void) {
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = SCHEMA};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  int64_t a[3] = {1, 2, 3};
  int16_t def[3] = {1, 0, 1};
  CHECK(pqt_writer_write_column(w, 0, 3, NULL, NULL, a, NULL, 2, &e) == PQT_EINVAL); /* count mismatch */
  CHECK(pqt_writer_write_column(w, 0, 3, NULL, NULL, a, NULL, 3, &e) == PQT_EINVAL); /* poisoned */
  pqt_writer_discard(w);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK_OK(pqt_writer_write_column(w, 0, 3, NULL, NULL, a, NULL, 3, &e));
  CHECK_OK(pqt_writer_write_column(w, 3, 3, def, NULL, a, NULL, 2, &e));
  int16_t ldef[3] = {3, 3, 3}, lrep[3] = {0, 1, 2}; /* rep 2 > max_rep 1 */
  int32_t lv[3] = {1, 2, 3};
  CHECK(pqt_writer_write_column(w, 2, 3, ldef, lrep, lv, NULL, 3, &e) == PQT_EINVAL);
  int16_t ldef2[2] = {0, 3}, lrep2[2] = {0, 1}; /* continues a null list */
  CHECK(pqt_writer_write_column(w, 2, 2, ldef2, lrep2, lv, NULL, 1, &e) == PQT_EINVAL);
  CHECK(pqt_writer_flush_row_group(w, &e) == PQT_EINVAL); /* columns 1, 2 have no rows */
  CHECK(pqt_writer_close(w, &e) == PQT_EINVAL);
  pqt_write_schema bad = {.struct_size = sizeof(pqt_write_schema),
                          .message = "message m { required int32 x (STRING); }"};
  CHECK(pqt_writer_open_buffer(&w, &out, &bad, NULL, &e) == PQT_EINVAL);
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.encoding = PQT_ENC_DELTA_LENGTH_BYTE_ARRAY; /* defaults: applies where it fits */
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  pqt_writer_discard(w);
  pqt_column_override ov = {"a", o.defaults}; /* an override must fit: not for int64 */
  o.columns = &ov;
  o.n_columns = 1;
  CHECK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e) == PQT_EINVAL);
  pqt_string_free(&out);
}

static void test_arrow_schema_mapping(void) {
  const char *text =
      "message schema {\n"
      "  required int32 i8 (INTEGER(8,true));\n"
      "  optional int64 u64 (INTEGER(64,false));\n"
      "  optional binary s (STRING);\n"
      "  optional group l (LIST) {\n"
      "    repeated group list {\n"
      "      required int64 element;\n"
      "    }\n"
      "  }\n"
      "  optional group mp (MAP) {\n"
      "    repeated group key_value {\n"
      "      required binary key (STRING);\n"
      "      optional double value;\n"
      "    }\n"
      "  }\n"
      "  optional int64 ts (TIMESTAMP(MICROS,true));\n"
      "  optional fixed_len_byte_array(9) dec (DECIMAL(20,2));\n"
      "  optional int32 dsmall (DECIMAL(5,1));\n"
      "  optional int32 dt (DATE);\n"
      "  optional fixed_len_byte_array(2) h (FLOAT16);\n"
      "}\n";
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  struct ArrowSchema as;
  CHECK_OK(pqt_writer_arrow_schema(w, &as, &e));
  pqt_writer_discard(w);
  /* the Arrow schema maps back to the same Parquet schema */
  pqt_string out2 = {0};
  pqt_write_schema ws2 = {.struct_size = sizeof(pqt_write_schema), .arrow = &as};
  CHECK_OK(pqt_writer_open_buffer(&w, &out2, &ws2, NULL, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out2.data, out2.len, NULL, &e));
  pqt_string st = {0};
  CHECK_OK(pqt_reader_schema_text(r, &st, &e));
  CHECK_EQ_STR(st.data, text);
  pqt_string_free(&st);
  pqt_reader_close(r);
  pqt_string_free(&out2);
  /* Spark compatibility: INT96 timestamps, signed 64-bit */
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.compat = PQT_COMPAT_SPARK_INT96;
  CHECK_OK(pqt_writer_open_buffer(&w, &out2, &ws2, &o, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  CHECK_OK(pqt_reader_open_buffer(&r, out2.data, out2.len, NULL, &e));
  CHECK_OK(pqt_reader_schema_text(r, &st, &e));
  CHECK(strstr(st.data, "optional int96 ts;") != NULL);
  CHECK(strstr(st.data, "optional int64 u64;") != NULL);
  pqt_string_free(&st);
  pqt_reader_close(r);
  as.release(&as);
  pqt_string_free(&out2);
  pqt_string_free(&out);
}

static void noop_release(struct ArrowArray *a) { a->release = NULL; }

static void noop_schema_release(struct ArrowSchema *s) { s->release = NULL; }

/* Arrow types whose layout differs from Parquet's: converted on the way in. */
static void test_arrow_conversions(void) {
  struct ArrowSchema f_ts = {"tss:Europe/Paris", "ts", NULL, 0, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema f_d64 = {"tdm", "d64", NULL, 0, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema f_t32 = {"tts", "t32", NULL, 0, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema f_ls = {"U", "ls", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema f_el = {"s", "item", NULL, 0, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema *el[1] = {&f_el};
  struct ArrowSchema f_ll = {"+L", "ll", NULL, 0, 1, el, NULL, noop_schema_release, NULL};
  struct ArrowSchema f_dec = {"d:4,2", "dec", NULL, 0, 0, NULL, NULL, noop_schema_release, NULL};
  struct ArrowSchema *kids[6] = {&f_ts, &f_d64, &f_t32, &f_ls, &f_ll, &f_dec};
  struct ArrowSchema rec = {"+s", "", NULL, 0, 6, kids, NULL, noop_schema_release, NULL};
  int64_t ts[2] = {-1, 86400};                  /* seconds */
  int64_t d64[2] = {-86400000, 86400000 * 3LL}; /* ms -> days -1, 3 */
  int32_t t32[2] = {1, 3600};                   /* s -> ms */
  int64_t lso[3] = {0, 3, 3};
  uint8_t lsv = 0x1; /* second string null */
  int64_t llo[3] = {0, 2, 3};
  int16_t lle[3] = {-7, 8, 9};
  uint8_t dec[32] = {0};
  int64_t d0 = -1234, d1 = 5;
  memcpy(dec, &d0, 8);
  memset(dec + 8, 0xFF, 8);
  memcpy(dec + 16, &d1, 8);
  const void *b_ts[2] = {NULL, ts}, *b_d64[2] = {NULL, d64}, *b_t32[2] = {NULL, t32}, *b_ls[3] = {&lsv, lso, "abc"},
             *b_ll[2] = {NULL, llo}, *b_el[2] = {NULL, lle}, *b_dec[2] = {NULL, dec}, *b_rec[1] = {NULL};
  struct ArrowArray a_el = {3, 0, 0, 2, 0, b_el, NULL, NULL, noop_release, NULL};
  struct ArrowArray *a_elp[1] = {&a_el};
  struct ArrowArray a_ts = {2, 0, 0, 2, 0, b_ts, NULL, NULL, noop_release, NULL};
  struct ArrowArray a_d64 = {2, 0, 0, 2, 0, b_d64, NULL, NULL, noop_release, NULL};
  struct ArrowArray a_t32 = {2, 0, 0, 2, 0, b_t32, NULL, NULL, noop_release, NULL};
  struct ArrowArray a_ls = {2, 1, 0, 3, 0, b_ls, NULL, NULL, noop_release, NULL};
  struct ArrowArray a_ll = {2, 0, 0, 2, 1, b_ll, a_elp, NULL, noop_release, NULL};
  struct ArrowArray a_dec = {2, 0, 0, 2, 0, b_dec, NULL, NULL, noop_release, NULL};
  struct ArrowArray *a_kids[6] = {&a_ts, &a_d64, &a_t32, &a_ls, &a_ll, &a_dec};
  struct ArrowArray batch = {2, 0, 0, 1, 6, b_rec, a_kids, NULL, noop_release, NULL};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .arrow = &rec};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK_OK(pqt_writer_write_batch(w, &batch, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  pqt_string st = {0};
  CHECK_OK(pqt_reader_schema_text(r, &st, &e));
  CHECK_EQ_STR(st.data,
               "message schema {\n"
               "  required int64 ts (TIMESTAMP(MILLIS,true));\n"
               "  required int32 d64 (DATE);\n"
               "  required int32 t32 (TIME(MILLIS,true));\n"
               "  optional binary ls (STRING);\n"
               "  required group ll (LIST) {\n"
               "    repeated group list {\n"
               "      required int32 element (INTEGER(16,true));\n"
               "    }\n"
               "  }\n"
               "  required int32 dec (DECIMAL(4,2));\n"
               "}\n");
  pqt_string_free(&st);
  pqt_buf txt;
  pqt_buf_init(&txt, NULL);
  CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, collect, &txt, &e));
  CHECK_OK(pqt_buf_append(&txt, "", 1, NULL));
  CHECK_EQ_STR((const char *)txt.data,
               "{\"ts\":\"1969-12-31T23:59:59.000Z\",\"d64\":\"1969-12-31\",\"t32\":\"00:00:01.000\",\"ls\":\"abc\","
               "\"ll\":[-7,8],\"dec\":\"-12.34\"}\n"
               "{\"ts\":\"1970-01-02T00:00:00.000Z\",\"d64\":\"1970-01-04\",\"t32\":\"01:00:00.000\",\"ls\":null,"
               "\"ll\":[9],\"dec\":\"0.05\"}\n");
  pqt_buf_free(&txt);
  pqt_reader_close(r);
  pqt_string_free(&out);
}

/* row_group_bytes and page_size bound what they say, with Arrow batches. */
static void test_size_limits(void) {
  const char *text = "message m { required int64 x; }";
  enum { N = 200000 };
  int64_t *v = malloc(N * sizeof *v);
  for (int64_t i = 0; i < N; i++) v[i] = i * 7919 % 1000003;
  const void *bufs[2] = {NULL, v};
  struct ArrowArray leaf = {N, 0, 0, 2, 0, bufs, NULL, NULL, noop_release, NULL};
  struct ArrowArray *kids[1] = {&leaf};
  const void *bb[1] = {NULL};
  struct ArrowArray batch = {N, 0, 0, 1, 1, bb, kids, NULL, noop_release, NULL};
  pqt_write_options o;
  pqt_write_options_init(&o);
  o.defaults.codec = PQT_CODEC_UNCOMPRESSED;
  o.defaults.page_size = 4096;
  o.defaults.page_row_limit = 1 << 30;
  o.row_group_bytes = 300000;
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
  for (int k = 0; k < 4; k++) {
    struct ArrowArray part = batch;
    part.offset = k * (N / 4);
    part.length = N / 4;
    CHECK_OK(pqt_writer_write_batch(w, &part, &e));
  }
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_reader *r;
  CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
  CHECK_EQ_INT(r->md.num_rows, N);
  CHECK_MSG(r->md.row_groups.n >= 4, "%d row groups for 1.6 MB at 300 kB", r->md.row_groups.n);
  for (int32_t g = 0; g < r->md.row_groups.n; g++) {
    const pqt_column_chunk *cc = &r->md.row_groups.items[g].columns.items[0];
    CHECK_MSG(cc->meta_data.total_compressed_size < 2 * 300000, "row group %d: %lld bytes", g,
              (long long)cc->meta_data.total_compressed_size);
    pqt_arena ar;
    pqt_arena_init(&ar, NULL);
    pqt_offset_index oi;
    CHECK_OK(pqt_thrift_decode(&pqt_desc_offset_index, (const uint8_t *)out.data + cc->offset_index_offset,
                               (size_t)cc->offset_index_length, NULL, &ar, &oi, NULL));
    for (int32_t i = 0; i < oi.page_locations.n; i++)
      CHECK_MSG(oi.page_locations.items[i].compressed_page_size < 4096 * 3, "page of %d bytes",
                oi.page_locations.items[i].compressed_page_size);
    CHECK(oi.page_locations.n > 10);
    pqt_arena_reset(&ar);
  }
  pqt_reader_close(r);
  pqt_string_free(&out);
  free(v);
}

/* Malformed Arrow input is refused with PQT_EINVAL, never a crash. */
static void test_bad_arrow_input(void) {
  const char *text =
      "message m { optional group l (LIST) { repeated group list { required int32 element; } } required binary s; }";
  int32_t vals[4] = {1, 2, 3, 4};
  int32_t good_off[3] = {0, 2, 4}, back_off[3] = {0, 3, 1}, far_off[3] = {0, 2, 9};
  int32_t soff[3] = {0, 1, 2};
  const void *leaf_bufs[2] = {NULL, vals};
  const void *s_bufs[3] = {NULL, soff, "ab"};
  struct ArrowArray leaf = {4, 0, 0, 2, 0, leaf_bufs, NULL, NULL, noop_release, NULL};
  struct ArrowArray *leafp = &leaf;
  const void *l_bufs[2] = {NULL, good_off};
  struct ArrowArray list = {2, 0, 0, 2, 1, l_bufs, &leafp, NULL, noop_release, NULL};
  struct ArrowArray str = {2, 0, 0, 3, 0, s_bufs, NULL, NULL, noop_release, NULL};
  struct ArrowArray *kids[2] = {&list, &str};
  const void *b_bufs[1] = {NULL};
  struct ArrowArray batch = {2, 0, 0, 1, 2, b_bufs, kids, NULL, noop_release, NULL};
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema), .message = text};
  pqt_string out = {0};
  pqt_writer *w;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK_OK(pqt_writer_write_batch(w, &batch, &e)); /* well-formed */
  CHECK_OK(pqt_writer_close(w, &e));
  struct {
    const int32_t *off;
    int64_t list_len, batch_len, leaf_nbuf;
  } cases[] = {
      {back_off, 2, 2, 2}, /* offsets go backwards */
      {far_off, 2, 2, 2},  /* offsets past the child */
      {good_off, 1, 2, 2}, /* list shorter than the batch */
      {good_off, 2, 2, 1}, /* leaf without its values buffer */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    l_bufs[1] = cases[i].off;
    list.length = cases[i].list_len;
    batch.length = cases[i].batch_len;
    leaf.n_buffers = cases[i].leaf_nbuf;
    CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
    CHECK_MSG(pqt_writer_write_batch(w, &batch, &e) == PQT_EINVAL, "case %zu", i);
    CHECK(pqt_writer_close(w, &e) == PQT_EINVAL); /* unusable after the error */
  }
  /* a null in the required leaf */
  l_bufs[1] = good_off;
  list.length = 2;
  leaf.n_buffers = 2;
  uint8_t valid = 0x1;
  s_bufs[0] = &valid;
  str.null_count = 1;
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  CHECK(pqt_writer_write_batch(w, &batch, &e) == PQT_EINVAL);
  pqt_writer_discard(w);
  /* a released batch, a non-struct ArrowSchema */
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  batch.release = NULL;
  CHECK(pqt_writer_write_batch(w, &batch, &e) == PQT_EINVAL);
  pqt_writer_discard(w);
  struct ArrowSchema notstruct = {"i", "x", NULL, 0, 0, NULL, NULL, NULL, NULL};
  pqt_write_schema wa = {.struct_size = sizeof(pqt_write_schema), .arrow = &notstruct};
  CHECK(pqt_writer_open_buffer(&w, &out, &wa, NULL, &e) == PQT_EINVAL);
  pqt_string_free(&out);
}

/* Dictionary-encoded strings whose entries all have one length (the
 * reader gathers those as fixed-width values and steps the offsets): every
 * length the fast path takes (1, 2, 4, 8, 12, 16) and some it does not (3,
 * 5), with nulls, long runs (RLE) and random stretches (bit-packed), pages
 * of 700 rows, v1 and v2 pages; read back through the Arrow stream. */
static void test_fixed_length_string_dictionary(void) {
  const int lens[] = {1, 2, 3, 4, 5, 8, 12, 16};
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
    for (int pv = 1; pv <= 2; pv++) {
      const int L = lens[li];
      const int64_t rows = 5000;
      const int n_dict = 1 + (int)(li * 7 % 40);
      char entries[40][16];
      for (int k = 0; k < n_dict; k++)
        for (int b = 0; b < L; b++) entries[k][b] = (char)('A' + (k * 7 + b) % 26);
      int16_t *def = malloc((size_t)rows * 2);
      int32_t *off = malloc((size_t)(rows + 1) * 4);
      char *dat = malloc((size_t)rows * (size_t)L + 1);
      int *pick = malloc((size_t)rows * sizeof *pick);
      int64_t nv = 0;
      off[0] = 0;
      for (int64_t i = 0; i < rows; i++) {
        pqt_test_xorshift(&seed);
        bool run = (i / 100) % 3 == 0; /* stretches of one value: RLE runs */
        pick[i] = run ? (int)((i / 100) % (uint64_t)n_dict) : (int)(seed % (uint64_t)n_dict);
        def[i] = (int16_t)(seed % 10 != 0);
        if (!def[i]) continue;
        memcpy(dat + off[nv], entries[pick[i]], (size_t)L);
        off[nv + 1] = off[nv] + L;
        nv++;
      }
      pqt_write_options o;
      pqt_write_options_init(&o);
      o.defaults.page_row_limit = 700;
      o.defaults.page_version = pv;
      pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                             .message = "message m { optional binary s (STRING); }"};
      pqt_string out = {0};
      pqt_writer *w;
      pqt_error e;
      pqt_error_init(&e);
      CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, &o, &e));
      CHECK_OK(pqt_writer_write_column(w, 0, rows, def, NULL, dat, off, nv, &e));
      CHECK_OK(pqt_writer_close(w, &e));
      pqt_reader *r;
      CHECK_OK(pqt_reader_open_buffer(&r, out.data, out.len, NULL, &e));
      struct ArrowArrayStream st;
      CHECK_OK(pqt_reader_get_stream(r, NULL, &st, &e));
      int64_t row = 0, bad = 0;
      for (;;) {
        struct ArrowArray a;
        CHECK(st.get_next(&st, &a) == 0);
        if (!a.release) break;
        const struct ArrowArray *c = a.children[0];
        const uint8_t *valid = c->buffers[0];
        const int32_t *o32 = c->buffers[1];
        const char *d = c->buffers[2];
        for (int64_t i = 0; i < c->length; i++, row++) {
          int64_t k = c->offset + i;
          bool v = !valid || ((valid[k >> 3] >> (k & 7)) & 1);
          if (v != (def[row] != 0)) bad++;
          else if (v && (o32[k + 1] - o32[k] != L || memcmp(d + o32[k], entries[pick[row]], (size_t)L) != 0)) bad++;
          else if (!v && o32[k + 1] != o32[k]) bad++;
        }
        a.release(&a);
      }
      CHECK_MSG(row == rows && bad == 0, "length %d, v%d pages: %lld rows, %lld wrong", L, pv, (long long)row,
                (long long)bad);
      st.release(&st);
      pqt_reader_close(r);
      pqt_string_free(&out);
      free(def);
      free(off);
      free(dat);
      free(pick);
    }
  }
}

int main(void) {
  static const pqt_test_case cases[] = {TEST_CASE(test_low_level_and_text),
                                        TEST_CASE(test_metadata),
                                        TEST_CASE(test_sinks_and_files),
                                        TEST_CASE(test_misuse),
                                        TEST_CASE(test_arrow_schema_mapping),
                                        TEST_CASE(test_bad_arrow_input),
                                        TEST_CASE(test_size_limits),
                                        TEST_CASE(test_arrow_conversions),
                                        TEST_CASE(test_fixed_length_string_dictionary)};
  return pqt_run_tests("writer", cases, sizeof cases / sizeof cases[0]);
}
