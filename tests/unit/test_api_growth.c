/*
 * The public API's growth scheme and enums: a struct from an older caller
 * (a smaller struct_size) is read only as far as it goes, with defaults for
 * the rest, and results are written back only as far as it goes; struct_size
 * 0 or larger than the library's is PQT_EINVAL naming the struct; _init
 * writes only the caller's size; pqt_write_options with a shorter embedded
 * pqt_column_options (and override arrays of that stride) are read at the
 * caller's offsets; the enums carry parquet.thrift's values;
 * max_nesting_depth is honoured.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parquetry.h"
#include "parquetry_arrow.h"
#include "thrift/parquet_types.h"

/* ---- enums: the public names have the spec's values ------------------------ */

/* (int): the two sides are constants of different enums */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(PQT_TYPE_BOOLEAN, PQT_BOOLEAN) && SAME(PQT_TYPE_INT32, PQT_INT32) &&
                   SAME(PQT_TYPE_INT64, PQT_INT64) && SAME(PQT_TYPE_INT96, PQT_INT96) &&
                   SAME(PQT_TYPE_FLOAT, PQT_FLOAT) && SAME(PQT_TYPE_DOUBLE, PQT_DOUBLE) &&
                   SAME(PQT_TYPE_BYTE_ARRAY, PQT_BYTE_ARRAY) &&
                   SAME(PQT_TYPE_FIXED_LEN_BYTE_ARRAY, PQT_FIXED_LEN_BYTE_ARRAY),
               "pqt_type");
_Static_assert(PQT_TYPE_BOOLEAN == 0 && PQT_TYPE_INT96 == 3 && PQT_TYPE_FIXED_LEN_BYTE_ARRAY == 7, "Type values");
_Static_assert(SAME(PQT_ENCODING_PLAIN, PQT_ENC_PLAIN) &&
                   SAME(PQT_ENCODING_PLAIN_DICTIONARY, PQT_ENC_PLAIN_DICTIONARY) &&
                   SAME(PQT_ENCODING_RLE, PQT_ENC_RLE) && SAME(PQT_ENCODING_BIT_PACKED, PQT_ENC_BIT_PACKED) &&
                   SAME(PQT_ENCODING_DELTA_BINARY_PACKED, PQT_ENC_DELTA_BINARY_PACKED) &&
                   SAME(PQT_ENCODING_DELTA_LENGTH_BYTE_ARRAY, PQT_ENC_DELTA_LENGTH_BYTE_ARRAY) &&
                   SAME(PQT_ENCODING_DELTA_BYTE_ARRAY, PQT_ENC_DELTA_BYTE_ARRAY) &&
                   SAME(PQT_ENCODING_RLE_DICTIONARY, PQT_ENC_RLE_DICTIONARY) &&
                   SAME(PQT_ENCODING_BYTE_STREAM_SPLIT, PQT_ENC_BYTE_STREAM_SPLIT),
               "pqt_encoding");
_Static_assert(PQT_ENCODING_PLAIN == 0 && PQT_ENCODING_PLAIN_DICTIONARY == 2 && PQT_ENCODING_RLE_DICTIONARY == 8 &&
                   PQT_ENCODING_BYTE_STREAM_SPLIT == 9,
               "Encoding values");
/* CompressionCodec: parquet.thrift's values (the internal code uses these names too) */
_Static_assert(PQT_CODEC_UNCOMPRESSED == 0 && PQT_CODEC_SNAPPY == 1 && PQT_CODEC_GZIP == 2 && PQT_CODEC_LZO == 3 &&
                   PQT_CODEC_BROTLI == 4 && PQT_CODEC_LZ4 == 5 && PQT_CODEC_ZSTD == 6 && PQT_CODEC_LZ4_RAW == 7,
               "CompressionCodec values");
_Static_assert(SAME(PQT_LOGICAL_STRING, PQT_LT_STRING) && SAME(PQT_LOGICAL_MAP, PQT_LT_MAP) &&
                   SAME(PQT_LOGICAL_LIST, PQT_LT_LIST) && SAME(PQT_LOGICAL_ENUM, PQT_LT_ENUM) &&
                   SAME(PQT_LOGICAL_DECIMAL, PQT_LT_DECIMAL) && SAME(PQT_LOGICAL_DATE, PQT_LT_DATE) &&
                   SAME(PQT_LOGICAL_TIME, PQT_LT_TIME) && SAME(PQT_LOGICAL_TIMESTAMP, PQT_LT_TIMESTAMP) &&
                   SAME(PQT_LOGICAL_INTEGER, PQT_LT_INTEGER) && SAME(PQT_LOGICAL_UNKNOWN, PQT_LT_UNKNOWN) &&
                   SAME(PQT_LOGICAL_JSON, PQT_LT_JSON) && SAME(PQT_LOGICAL_BSON, PQT_LT_BSON) &&
                   SAME(PQT_LOGICAL_UUID, PQT_LT_UUID) && SAME(PQT_LOGICAL_FLOAT16, PQT_LT_FLOAT16) &&
                   SAME(PQT_LOGICAL_VARIANT, PQT_LT_VARIANT) && SAME(PQT_LOGICAL_GEOMETRY, PQT_LT_GEOMETRY) &&
                   SAME(PQT_LOGICAL_GEOGRAPHY, PQT_LT_GEOGRAPHY) && SAME(PQT_LOGICAL_VECTOR, PQT_LT_VECTOR),
               "pqt_logical");
_Static_assert(PQT_LOGICAL_NONE == 0 && PQT_LOGICAL_STRING == 1 && PQT_LOGICAL_TIMESTAMP == 8 &&
                   PQT_LOGICAL_INTEGER == 10 && PQT_LOGICAL_GEOGRAPHY == 18,
               "LogicalType field ids");
_Static_assert(PQT_VERSION_NUMBER == PQT_VERSION_MAJOR * 10000 + PQT_VERSION_MINOR * 100 + PQT_VERSION_PATCH,
               "PQT_VERSION_NUMBER");

/* Every versioned struct starts with its size. */
_Static_assert(offsetof(pqt_read_options, struct_size) == 0 && offsetof(pqt_scan_options, struct_size) == 0 &&
                   offsetof(pqt_write_options, struct_size) == 0 && offsetof(pqt_column_options, struct_size) == 0 &&
                   offsetof(pqt_salvage_options, struct_size) == 0 && offsetof(pqt_io, struct_size) == 0 &&
                   offsetof(pqt_column_info, struct_size) == 0 && offsetof(pqt_salvage_report, struct_size) == 0 &&
                   offsetof(pqt_column_batch, struct_size) == 0 && offsetof(pqt_write_schema, struct_size) == 0,
               "struct_size first");

static void test_version(void) {
  CHECK_EQ_INT(pqt_version_number(), PQT_VERSION_NUMBER);
  char s[32];
  snprintf(s, sizeof s, "%d.%d.%d", pqt_version_number() / 10000, pqt_version_number() / 100 % 100,
           pqt_version_number() % 100);
  CHECK_EQ_STR(s, pqt_version());
}

/* ---- a small file -------------------------------------------------------------- */

#define SCHEMA3 \
  "message m { required int32 a (INTEGER(8, true)); required int32 b (INTEGER(16, false)); required int32 c; }"

static pqt_status write3(pqt_string *out, const pqt_write_options *wo, pqt_error *e) {
  pqt_write_schema ws;
  pqt_write_schema_init(&ws);
  ws.message = SCHEMA3;
  memset(out, 0, sizeof *out);
  pqt_writer *w;
  pqt_status st = pqt_writer_open_buffer(&w, out, &ws, wo, e);
  if (st != PQT_OK) return st;
  int32_t v[3] = {1, 2, 3};
  for (int32_t c = 0; c < 3 && st == PQT_OK; c++) st = pqt_writer_write_column(w, c, 3, NULL, NULL, v, NULL, 3, e);
  if (st == PQT_OK) st = pqt_writer_flush_row_group(w, e);
  if (st != PQT_OK) {
    pqt_writer_discard(w);
    return st;
  }
  return pqt_writer_close(w, e);
}

static pqt_status discard(void *ctx, const char *d, size_t n) {
  pqt_string *s = ctx;
  if (!s) return PQT_OK;
  char *p = realloc(s->data, s->len + n + 1);
  if (!p) return PQT_ENOMEM;
  memcpy(p + s->len, d, n);
  s->data = p;
  s->len += n;
  p[s->len] = 0;
  return PQT_OK;
}

static bool has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

/* ---- reading options from an older caller ------------------------------------- */

static void test_read_options_older_caller(void) {
  pqt_string f;
  pqt_error e;
  CHECK_OK(write3(&f, NULL, &e));
  /* control: with the whole struct, a 1-byte page ceiling stops the read */
  pqt_read_options o;
  pqt_read_options_init(&o);
  CHECK_EQ_INT(o.struct_size, sizeof o);
  o.max_page_bytes = 1;
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, &o, &e));
  if (r) {
    CHECK_EQ_INT(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, discard, NULL, &e), PQT_ELIMIT);
    pqt_reader_close(r);
  }
  /* an older caller whose struct ends before max_page_bytes: that field is
   * not read (the default applies) while the fields it has are */
  o.struct_size = offsetof(pqt_read_options, max_page_bytes);
  o.validate_utf8 = 0;
  r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, &o, &e));
  if (r) {
    pqt_string text = {0};
    CHECK_OK(pqt_reader_write_text(r, NULL, PQT_TEXT_JSONL, -1, discard, &text, &e));
    CHECK_MSG(has(text.data, "{\"a\":1,\"b\":1,\"c\":1}"), "text: %s", text.data ? text.data : "(none)");
    free(text.data);
    pqt_reader_close(r);
  }
  /* a prefix that cuts deeper still reads */
  o.struct_size = offsetof(pqt_read_options, verify_checksums);
  r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, &o, &e));
  pqt_reader_close(r);
  pqt_string_free(&f);
}

/* _init writes exactly the caller's size and no further */
static void test_init_writes_only_callers_size(void) {
  alignas(max_align_t) unsigned char buf[sizeof(pqt_write_options) + 64];
  size_t cut = offsetof(pqt_read_options, max_page_bytes);
  memset(buf, 0xA5, sizeof buf);
  pqt_read_options_init_sized((pqt_read_options *)(void *)buf, cut);
  size_t got;
  memcpy(&got, buf, sizeof got);
  CHECK_EQ_INT(got, cut);
  bool intact = true;
  for (size_t i = cut; i < sizeof buf; i++) intact &= buf[i] == 0xA5;
  CHECK_MSG(intact, "pqt_read_options_init_sized wrote past %zu bytes", cut);
  pqt_read_options ro;
  memcpy(&ro, buf, cut);
  CHECK_EQ_INT(ro.verify_checksums, 1);
  CHECK_EQ_INT(ro.max_nesting_depth, 256);
  /* a header newer than the library: the extra bytes are zeroed, and using it is refused */
  memset(buf, 0xA5, sizeof buf);
  pqt_scan_options_init_sized((pqt_scan_options *)(void *)buf, sizeof(pqt_scan_options) + 16);
  memcpy(&got, buf, sizeof got);
  CHECK_EQ_INT(got, sizeof(pqt_scan_options) + 16);
  bool zero = true;
  for (size_t i = sizeof(pqt_scan_options); i < sizeof(pqt_scan_options) + 16; i++) zero &= buf[i] == 0;
  CHECK(zero);
  CHECK_EQ_INT(buf[sizeof(pqt_scan_options) + 16], 0xA5);
}

/* ---- struct_size 0 or too large -------------------------------------------------- */

static void expect_einval(pqt_status st, const pqt_error *e, const char *type) {
  CHECK_EQ_INT(st, PQT_EINVAL);
  CHECK_MSG(has(e->message, type) && has(e->message, "struct_size"), "message for %s: %s", type, e->message);
}

static void test_bad_sizes(void) {
  pqt_string f;
  pqt_error e;
  CHECK_OK(write3(&f, NULL, &e));
  const size_t bad_read[] = {0, sizeof(pqt_read_options) + 8};
  for (int i = 0; i < 2; i++) {
    pqt_read_options o;
    pqt_read_options_init(&o);
    o.struct_size = bad_read[i];
    pqt_reader *r = NULL;
    expect_einval(pqt_reader_open_buffer(&r, f.data, f.len, &o, &e), &e, "pqt_read_options");
    CHECK(r == NULL);
  }
  CHECK(has(e.message, "newer parquetry.h"));

  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e));
  if (!r) return;
  pqt_scan_options so;
  pqt_scan_options_init(&so);
  so.struct_size = 0;
  expect_einval(pqt_reader_write_text(r, &so, PQT_TEXT_JSONL, -1, discard, NULL, &e), &e, "pqt_scan_options");
  so.struct_size = sizeof so + 8;
  struct ArrowArrayStream st;
  expect_einval(pqt_reader_get_stream(r, &so, &st, &e), &e, "pqt_scan_options");

  pqt_column_info ci;
  pqt_column_info_init(&ci);
  ci.struct_size = 0;
  expect_einval(pqt_reader_column_info(r, 0, &ci, &e), &e, "pqt_column_info");
  pqt_column_reader *cr;
  CHECK_OK(pqt_column_reader_open(&cr, r, 0, 0, &e));
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  b.struct_size = sizeof b + 8;
  expect_einval(pqt_column_reader_next(cr, 10, &b, &e), &e, "pqt_column_batch");
  pqt_column_reader_close(cr);
  pqt_reader_close(r);

  pqt_io io;
  pqt_io_init(&io);
  CHECK_OK(pqt_io_from_buffer(&io, f.data, f.len, NULL, &e));
  pqt_io bad = io;
  bad.struct_size = sizeof bad + 8;
  r = NULL;
  expect_einval(pqt_reader_open(&r, &bad, NULL, &e), &e, "pqt_io");
  io.release(io.private_data); /* a failed open leaves io to the caller */
  pqt_io_init(&io);
  io.struct_size = 0;
  expect_einval(pqt_io_open_file(&io, "/dev/null", NULL, &e), &e, "pqt_io");

  pqt_write_options wo;
  pqt_write_options_init(&wo);
  wo.struct_size = sizeof wo + 8;
  pqt_string out;
  expect_einval(write3(&out, &wo, &e), &e, "pqt_write_options");
  pqt_write_options_init(&wo);
  wo.defaults.struct_size = 0;
  expect_einval(write3(&out, &wo, &e), &e, "pqt_column_options");
  pqt_write_options_init(&wo);
  pqt_column_override ov = {"b", wo.defaults};
  ov.options.struct_size = 0;
  wo.columns = &ov;
  wo.n_columns = 1;
  expect_einval(write3(&out, &wo, &e), &e, "pqt_column_options");
  pqt_write_schema ws = {.struct_size = 0, .message = SCHEMA3};
  pqt_writer *w = NULL;
  expect_einval(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e), &e, "pqt_write_schema");
  CHECK(w == NULL);

  /* salvage: options and report */
  pqt_write_schema_init(&ws);
  ws.message = SCHEMA3;
  memset(&out, 0, sizeof out);
  CHECK_OK(pqt_writer_open_buffer(&w, &out, &ws, NULL, &e));
  if (w) {
    pqt_io_init(&io);
    CHECK_OK(pqt_io_from_buffer(&io, f.data, f.len, NULL, &e));
    pqt_salvage_options sv;
    pqt_salvage_options_init(&sv);
    sv.struct_size = 0;
    expect_einval(pqt_salvage(&io, w, &sv, NULL, &e), &e, "pqt_salvage_options");
    pqt_salvage_report rep;
    pqt_salvage_report_init(&rep);
    rep.struct_size = sizeof rep + 8;
    expect_einval(pqt_salvage(&io, w, NULL, &rep, &e), &e, "pqt_salvage_report");
    /* and with both right it runs */
    pqt_salvage_report_init(&rep);
    CHECK_OK(pqt_salvage(&io, w, NULL, &rep, &e));
    CHECK_EQ_INT(rep.rows, 3);
    io.release(io.private_data);
    pqt_writer_discard(w);
  }
  pqt_string_free(&out);
  pqt_string_free(&f);
}

/* ---- results into an older caller's struct -------------------------------------- */

static void test_results_older_caller(void) {
  pqt_string f;
  pqt_error e;
  CHECK_OK(write3(&f, NULL, &e));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e));
  if (!r) return;
  pqt_column_info ci;
  pqt_column_info_init(&ci);
  ci.struct_size = offsetof(pqt_column_info, max_rep_level); /* ends before max_rep_level */
  ci.max_rep_level = 77;
  CHECK_OK(pqt_reader_column_info(r, 1, &ci, &e));
  CHECK_EQ_STR(ci.path, "b");
  CHECK_EQ_INT(ci.physical_type, PQT_TYPE_INT32);
  CHECK_EQ_INT(ci.max_rep_level, 77); /* not written */
  CHECK_EQ_INT(ci.struct_size, offsetof(pqt_column_info, max_rep_level));
  /* a whole struct: every field, the logical types named by pqt_logical */
  const int32_t logical[3] = {PQT_LOGICAL_INTEGER, PQT_LOGICAL_INTEGER, PQT_LOGICAL_NONE};
  for (int32_t c = 0; c < 3; c++) {
    pqt_column_info_init(&ci);
    ci.logical_type = -7;
    CHECK_OK(pqt_reader_column_info(r, c, &ci, &e));
    CHECK_EQ_INT(ci.logical_type, logical[c]);
    CHECK_EQ_INT(ci.max_rep_level, 0);
    CHECK_EQ_INT(ci.struct_size, sizeof ci);
  }

  pqt_column_reader *cr;
  CHECK_OK(pqt_column_reader_open(&cr, r, 0, 2, &e));
  pqt_column_batch b;
  pqt_column_batch_init(&b);
  b.struct_size = offsetof(pqt_column_batch, offsets);
  b.offsets = (const int32_t *)&b; /* a marker that must survive */
  CHECK_OK(pqt_column_reader_next(cr, 10, &b, &e));
  CHECK_EQ_INT(b.n_levels, 3);
  CHECK_EQ_INT(b.n_values, 3);
  CHECK(b.values && ((const int32_t *)b.values)[2] == 3);
  CHECK(b.offsets == (const int32_t *)&b);
  pqt_column_reader_close(cr);

  pqt_scan_options so; /* an older scan options: up to the projection */
  pqt_scan_options_init(&so);
  const char *cols[] = {"c"};
  so.columns = cols;
  so.n_columns = 1;
  so.struct_size = offsetof(pqt_scan_options, row_groups);
  so.n_row_groups = 5; /* past its size: must not be read */
  pqt_string text = {0};
  CHECK_OK(pqt_reader_write_text(r, &so, PQT_TEXT_CSV, -1, discard, &text, &e));
  CHECK_EQ_STR(text.data ? text.data : "", "c\n1\n2\n3\n");
  free(text.data);
  pqt_reader_close(r);
  pqt_string_free(&f);
}

/* ---- write options with a shorter embedded pqt_column_options ------------------- */

/* An "older" pqt_column_options: everything before crc (crc is new to it). */
#define OLD_CO offsetof(pqt_column_options, crc)
_Static_assert(OLD_CO % _Alignof(pqt_column_options) == 0, "the older struct ends on its alignment");
#define SHIFT   (sizeof(pqt_column_options) - OLD_CO)
#define WO_HEAD offsetof(pqt_write_options, defaults)
/* where a field after `defaults` sits in the older caller's struct */
#define OLD_AT(field) (offsetof(pqt_write_options, field) - SHIFT)
/* the older write options also lack their last field */
#define OLD_WO OLD_AT(write_arrow_schema)

static void put(unsigned char *base, size_t at, const void *v, size_t n) { memcpy(base + at, v, n); }
static int64_t get_i64(const unsigned char *base, size_t at) {
  int64_t v;
  memcpy(&v, base + at, sizeof v);
  return v;
}

static void test_write_options_older_layout(void) {
  alignas(max_align_t) unsigned char wo[sizeof(pqt_write_options) + 64];
  memset(wo, 0x5A, sizeof wo);
  pqt_write_options_init_sized((pqt_write_options *)(void *)wo, OLD_WO, OLD_CO);
  /* init put the sizes, the column defaults and the later defaults at the caller's offsets */
  size_t sz;
  memcpy(&sz, wo, sizeof sz);
  CHECK_EQ_INT(sz, OLD_WO);
  memcpy(&sz, wo + WO_HEAD, sizeof sz);
  CHECK_EQ_INT(sz, OLD_CO);
  int32_t codec;
  memcpy(&codec, wo + WO_HEAD + offsetof(pqt_column_options, codec), sizeof codec);
  CHECK_EQ_INT(codec, PQT_CODEC_SNAPPY);
  CHECK_EQ_INT(get_i64(wo, OLD_AT(row_group_rows)), 1 << 20);
  CHECK_EQ_INT(get_i64(wo, OLD_AT(row_group_bytes)), (int64_t)128 << 20);
  bool intact = true;
  for (size_t i = OLD_WO; i < sizeof wo; i++) intact &= wo[i] == 0x5A;
  CHECK_MSG(intact, "pqt_write_options_init_sized wrote past %zu bytes", (size_t)OLD_WO);

  /* the caller sets fields where its header has them */
  codec = PQT_CODEC_UNCOMPRESSED;
  put(wo, WO_HEAD + offsetof(pqt_column_options, codec), &codec, sizeof codec);
  const char *created = "an older caller";
  put(wo, OLD_AT(created_by), &created, sizeof created);

  /* two overrides in the older stride */
  const size_t at = offsetof(pqt_column_override, options);
  const size_t stride =
      (at + OLD_CO + _Alignof(pqt_column_override) - 1) / _Alignof(pqt_column_override) * _Alignof(pqt_column_override);
  alignas(max_align_t) unsigned char ov[2 * sizeof(pqt_column_override)];
  memset(ov, 0x5A, sizeof ov);
  const char *paths[2] = {"a", "b"};
  const int32_t codecs[2] = {PQT_CODEC_GZIP, PQT_CODEC_ZSTD};
  for (int i = 0; i < 2; i++) {
    unsigned char *el = ov + (size_t)i * stride;
    put(el, 0, &paths[i], sizeof paths[i]);
    pqt_column_options_init_sized((pqt_column_options *)(void *)(el + at), OLD_CO);
    put(el, at + offsetof(pqt_column_options, codec), &codecs[i], sizeof codecs[i]);
  }
  const void *ovp = ov;
  put(wo, OLD_AT(columns), &ovp, sizeof ovp);
  int32_t n = 2;
  put(wo, OLD_AT(n_columns), &n, sizeof n);

  pqt_string f;
  pqt_error e;
  CHECK_OK(write3(&f, (const pqt_write_options *)(const void *)wo, &e));
  pqt_reader *r = NULL;
  CHECK_OK(pqt_reader_open_buffer(&r, f.data, f.len, NULL, &e));
  if (r) {
    CHECK_EQ_STR(pqt_reader_created_by(r), "an older caller");
    CHECK_EQ_INT(pqt_reader_num_row_groups(r), 1);
    pqt_string js;
    CHECK_OK(pqt_reader_metadata_json(r, 0, &js, &e));
    const char *a = strstr(js.data, "\"GZIP\""), *b = strstr(js.data, "\"ZSTD\""),
               *c = strstr(js.data, "\"UNCOMPRESSED\"");
    CHECK_MSG(a && b && c && a < b && b < c, "codecs a GZIP, b ZSTD, c UNCOMPRESSED: %s", js.data);
    pqt_string_free(&js);
    pqt_reader_close(r);
  }
  pqt_string_free(&f);

  /* overrides whose sizes differ within one array are refused */
  unsigned char *el1 = ov + stride + at;
  size_t other = OLD_CO - 8;
  put(el1, 0, &other, sizeof other);
  pqt_string g;
  CHECK_EQ_INT(write3(&g, (const pqt_write_options *)(const void *)wo, &e), PQT_EINVAL);
  CHECK_MSG(has(e.message, "columns[1]"), "%s", e.message);
}

/* ---- max_nesting_depth -------------------------------------------------------- */

static void test_max_nesting_depth(void) {
  pqt_write_schema ws = {.struct_size = sizeof(pqt_write_schema),
                         .message = "message m { required group s { required group t { required int32 x; } } }"};
  pqt_string f = {0};
  pqt_error e;
  pqt_writer *w;
  CHECK_OK(pqt_writer_open_buffer(&w, &f, &ws, NULL, &e));
  if (!w) return;
  int32_t v = 7;
  CHECK_OK(pqt_writer_write_column(w, 0, 1, NULL, NULL, &v, NULL, 1, &e));
  CHECK_OK(pqt_writer_close(w, &e));
  pqt_read_options o;
  pqt_read_options_init(&o);
  const struct {
    int32_t depth;
    pqt_status want;
  } cases[] = {{1, PQT_ELIMIT}, {2, PQT_ELIMIT},   {3, PQT_OK},     {0, PQT_OK},
               {256, PQT_OK},   {257, PQT_EINVAL}, {-1, PQT_EINVAL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    o.max_nesting_depth = cases[i].depth;
    pqt_reader *r = NULL;
    pqt_status st = pqt_reader_open_buffer(&r, f.data, f.len, &o, &e);
    CHECK_MSG(st == cases[i].want, "depth %d: %s (%s)", cases[i].depth, pqt_status_name(st), st ? e.message : "");
    if (st == PQT_ELIMIT) CHECK_MSG(has(e.message, "max_nesting_depth"), "%s", e.message);
    if (st == PQT_EINVAL) CHECK_MSG(has(e.message, "max_nesting_depth"), "%s", e.message);
    pqt_reader_close(r);
  }
  pqt_string_free(&f);
}

RUN_TESTS("api_growth", TEST_CASE(test_version), TEST_CASE(test_read_options_older_caller),
          TEST_CASE(test_init_writes_only_callers_size), TEST_CASE(test_bad_sizes),
          TEST_CASE(test_results_older_caller), TEST_CASE(test_write_options_older_layout),
          TEST_CASE(test_max_nesting_depth))
