/* Unit tests for arrow/arrow_schema_ipc.c (the ARROW:schema key-value
 * metadata): the corpus files' ARROW:schema values (exact field lists for
 * some), round trips of every Arrow type through encode/decode and from an
 * ArrowSchema, and hostile input: truncation at every byte, seeded random
 * byte flips, offsets pointing outside, deep and exponentially shared
 * nesting, bad base64. Set PQT_ARROW_SCHEMA_DUMP=1 to print each corpus
 * file's decoded fields. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrow/arrow_schema_ipc.h"
#include "core/core.h"
#include "harness.h"
#include "rng.h"
#include "meta/footer.h"

/* ---- rendering a tree as one line -------------------------------------- */

/* name:format, "dict<index>" before the value format of a dictionary field,
 * "!" when not nullable, "<children>" and "{k=v;...}" for metadata,
 * "~sorted" for a map with sorted keys, "~ordered" for ordered dictionaries. */
static void render_field(pqt_buf *b, const pqt_arrow_field *f);
static void render_fields(pqt_buf *b, const pqt_arrow_field *fs, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    if (i) pqt_buf_append(b, ", ", 2, NULL);
    render_field(b, &fs[i]);
  }
}
static void render_field(pqt_buf *b, const pqt_arrow_field *f) {
  pqt_buf_printf(b, NULL, "%s:", f->name ? f->name : "");
  if (f->dictionary) pqt_buf_printf(b, NULL, "dict<%s>", f->index_format);
  pqt_buf_printf(b, NULL, "%s", f->format);
  if (f->dictionary && f->dictionary_ordered) pqt_buf_printf(b, NULL, "~ordered");
  if (f->map_keys_sorted) pqt_buf_printf(b, NULL, "~sorted");
  if (!f->nullable) pqt_buf_append(b, "!", 1, NULL);
  if (f->n_children) {
    pqt_buf_append(b, "<", 1, NULL);
    render_fields(b, f->children, f->n_children);
    pqt_buf_append(b, ">", 1, NULL);
  }
  if (f->n_metadata) {
    pqt_buf_append(b, "{", 1, NULL);
    for (int32_t i = 0; i < f->n_metadata; i++)
      pqt_buf_printf(b, NULL, "%s%s=%s", i ? ";" : "", f->meta_keys[i], f->meta_values[i]);
    pqt_buf_append(b, "}", 1, NULL);
  }
}
/* Rendering into a static buffer (tests are single-threaded). */
static const char *render(const pqt_arrow_field *fs, int32_t n) {
  static char out[8192];
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  render_fields(&b, fs, n);
  size_t len = b.len < sizeof out - 1 ? b.len : sizeof out - 1;
  if (len) memcpy(out, b.data, len);
  out[len] = '\0';
  pqt_buf_free(&b);
  return out;
}

/* ---- the corpus ---------------------------------------------------------- */

typedef struct corpus_kv {
  unsigned char *file;
  pqt_arena arena;
  pqt_file_metadata md;
  const char *value; /* ARROW:schema, or NULL */
  size_t value_len;
} corpus_kv;

/* Decode the footer of path; find ARROW:schema. false when unreadable. */
static bool corpus_open(const char *path, corpus_kv *c) {
  memset(c, 0, sizeof *c);
  pqt_arena_init(&c->arena, NULL);
  size_t len = 0;
  c->file = pqt_test_read_file(path, &len);
  if (!c->file || len < 12) return false;
  pqt_footer_location loc;
  if (pqt_footer_locate(c->file, c->file + len - 8, len, &loc, NULL) != PQT_OK || loc.encrypted_footer) return false;
  if (pqt_footer_decode(c->file + loc.metadata_offset, loc.metadata_len, &c->arena, &c->md, NULL) != PQT_OK)
    return false;
  for (int32_t i = 0; i < c->md.key_value_metadata.n; i++) {
    const pqt_key_value *kv = &c->md.key_value_metadata.items[i];
    if (kv->key.len == 12 && memcmp(kv->key.ptr, PQT_ARROW_SCHEMA_KEY, 12) == 0) {
      c->value = (const char *)kv->value.ptr;
      c->value_len = (size_t)kv->value.len;
    }
  }
  return true;
}
static void corpus_close(corpus_kv *c) {
  pqt_arena_reset(&c->arena);
  free(c->file);
}

/* Decode a value; on success check the re-encoding decodes to the same tree. */
static pqt_status decode_and_roundtrip(const char *b64, size_t len, pqt_arena *a, pqt_arrow_schema *s, pqt_error *err) {
  pqt_status st = pqt_arrow_schema_decode_ex(b64, len, a, s, err);
  if (st != PQT_OK) return st;
  pqt_buf enc;
  pqt_buf_init(&enc, NULL);
  pqt_error e2;
  pqt_error_init(&e2);
  CHECK_OK(pqt_arrow_schema_encode(s, &enc, &e2));
  pqt_arrow_schema back;
  CHECK_OK(pqt_arrow_schema_decode_ex((const char *)enc.data, enc.len, a, &back, &e2));
  CHECK(pqt_arrow_fields_equal(s->fields, s->n_fields, back.fields, back.n_fields));
  CHECK_EQ_INT(back.n_metadata, s->n_metadata);
  pqt_buf_free(&enc);
  return PQT_OK;
}

/* Exact field lists, checked against each file's Parquet schema by hand
 * (`parquetry schema FILE`): names, nullability (optional/required), and the
 * Arrow types Parquet cannot say (map entries named "entries", float16,
 * extension metadata, time zones, large types, fixed-size lists,
 * dictionaries). */
static const struct {
  const char *subdir, *file, *fields;
} EXPECTED[] = {
    {"data", "large_string_map.brotli.parquet", "arr:+m<entries:+s!<key:u!, value:i>>"},
    {"data", "float16_nonzeros_and_nans.parquet", "x:e"},
    {"data", "binary_truncated_min_max.parquet",
     "utf8_full_truncation:u!, binary_full_truncation:z!, utf8_partial_truncation:u!, "
     "binary_partial_truncation:z!, utf8_no_truncation:u!, binary_no_truncation:z!"},
    {"data", "unknown-logical-type.parquet",
     "column with known type:u, column with unknown type:z"
     "{ARROW:extension:metadata={};ARROW:extension:name=geoarrow.wkb}"},
    {"data", "byte_stream_split_extended.gzip.parquet",
     "float16_plain:e, float16_byte_stream_split:e, float_plain:f, float_byte_stream_split:f, "
     "double_plain:g, double_byte_stream_split:g, int32_plain:i, int32_byte_stream_split:i, "
     "int64_plain:l, int64_byte_stream_split:l, flba5_plain:w:5, flba5_byte_stream_split:w:5, "
     "decimal_plain:d:7,3, decimal_byte_stream_split:d:7,3"},
    {"data", "list_columns.parquet", "int64_list:+l<item:l>, utf8_list:+l<item:u>"},
    {"data", "null_list.parquet", "emptylist:+l<item:n>"},
    /* bad in its data, not in its ARROW:schema: nearly every Arrow type */
    {"bad_data", "ARROW-GH-41321.parquet",
     "boolean:b, null:n, uint8:C, int8:c, uint16:S, int16:s, uint32:I, int32:i, uint64:L, "
     "int64:l, float32:f, float64:g, string:u, large_string:U, timestamp_ms_gmt:tsm:UTC, "
     "timestamp_ms_gmt_plus_2:tsm:+02:00, timestamp_ms_gmt_minus_0215:tsm:-02:15, "
     "timestamp_s_no_tz:tss:, timestamp_us_no_tz:tsu:, timestamp_ns_no_tz:tsn:, time32_s:tts, "
     "time32_ms:ttm, time64_us:ttu, time64_ns:ttn, date32:tdD, date64:tdm, binary:z, "
     "large_binary:Z, fixed_size_binary:w:2, decimal128:d:7,3, decimal256:d:7,3,256, "
     "list_boolean:+l<item:b>, list_uint8:+l<item:C>, list_int8:+l<item:c>, "
     "list_uint16:+l<item:S>, list_int16:+l<item:s>, list_uint32:+l<item:I>, "
     "list_int32:+l<item:i>, list_uint64:+l<item:L>, list_int64:+l<item:l>, "
     "list_float32:+l<item:f>, list_float64:+l<item:g>, list_decimal128:+l<item:d:7,3>, "
     "list_decimal256:+l<item:d:7,3,256>, list_string:+l<item:u>, list_large_string:+l<item:U>, "
     "fixed_size_list_boolean:+w:2<item:b>, fixed_size_list_uint8:+w:2<item:C>, "
     "fixed_size_list_int8:+w:2<item:c>, fixed_size_list_uint16:+w:2<item:S>, "
     "fixed_size_list_int16:+w:2<item:s>, fixed_size_list_uint32:+w:2<item:I>, "
     "fixed_size_list_int32:+w:2<item:i>, fixed_size_list_uint64:+w:2<item:L>, "
     "fixed_size_list_int64:+w:2<item:l>, fixed_size_list_float32:+w:2<item:f>, "
     "fixed_size_list_float64:+w:2<item:g>, fixed_size_list_string:+w:2<item:u>, "
     "struct_field:+s<a:l, b:g, c:+s<d:u, f:u>, h:+l<item:l>, i:l>, "
     "list_struct:+l<item:+s<a:l, b:g, c:g>>, "
     "map_boolean:+m<entries:+s!<key:u!, value:b>>, map_uint8:+m<entries:+s!<key:u!, value:C>>, "
     "map_int8:+m<entries:+s!<key:u!, value:c>>, map_uint16:+m<entries:+s!<key:u!, value:S>>, "
     "map_int16:+m<entries:+s!<key:u!, value:s>>, map_uint32:+m<entries:+s!<key:u!, value:I>>, "
     "map_int32:+m<entries:+s!<key:u!, value:i>>, map_uint64:+m<entries:+s!<key:u!, value:L>>, "
     "map_int64:+m<entries:+s!<key:u!, value:l>>, map_float32:+m<entries:+s!<key:u!, value:f>>, "
     "map_float64:+m<entries:+s!<key:u!, value:g>>, "
     "map_decimal128:+m<entries:+s!<key:u!, value:d:7,3>>, "
     "map_decimal256:+m<entries:+s!<key:u!, value:d:7,3,256>>, "
     "map_string:+m<entries:+s!<key:u!, value:u>>, "
     "map_large_string:+m<entries:+s!<key:u!, value:U>>, "
     "map_list_string:+m<entries:+s!<key:u!, value:+l<item:u>>>, "
     "map_large_list_string:+m<entries:+s!<key:u!, value:+L<item:u>>>, "
     "map_fixed_size_list_string:+m<entries:+s!<key:u!, value:+w:2<item:u>>>, "
     "dict:dict<i>u, geometry:z"},
};
#define N_EXPECTED ((int)(sizeof EXPECTED / sizeof EXPECTED[0]))

static void test_corpus(void) {
  const char *dir = pqt_testing_dir();
  if (!dir) {
    printf("  corpus absent: ARROW:schema corpus checks skipped\n");
    return;
  }
  const char *subdirs[] = {"data", "bad_data"};
  bool dump = getenv("PQT_ARROW_SCHEMA_DUMP") != NULL;
  int with_schema = 0, decoded = 0, expected_seen = 0;
  for (int d = 0; d < 2; d++) {
    char dpath[4096];
    snprintf(dpath, sizeof dpath, "%s/%s", dir, subdirs[d]);
    DIR *dh = opendir(dpath);
    if (!dh) continue;
    struct dirent *de;
    while ((de = readdir(dh)) != NULL) {
      size_t nl = strlen(de->d_name);
      if (nl < 8 || strcmp(de->d_name + nl - 8, ".parquet") != 0) continue;
      char path[8192];
      snprintf(path, sizeof path, "%s/%s", dpath, de->d_name);
      corpus_kv c;
      if (corpus_open(path, &c) && c.value) {
        with_schema++;
        pqt_arena a;
        pqt_arena_init(&a, NULL);
        pqt_arrow_schema s;
        pqt_error err;
        pqt_error_init(&err);
        pqt_status st = decode_and_roundtrip(c.value, c.value_len, &a, &s, &err);
        if (d == 0) {
          CHECK_MSG(st == PQT_OK, "%s: %s", de->d_name, err.message);
        } else {
          CHECK(st == PQT_OK || err.code == st);
        }
        if (st == PQT_OK) {
          decoded++;
          /* as many top-level fields as the Parquet root has children */
          if (c.md.schema.n > 0)
            CHECK_MSG(s.n_fields == c.md.schema.items[0].num_children, "%s: %d fields vs %d columns", de->d_name,
                      (int)s.n_fields, (int)c.md.schema.items[0].num_children);
          const char *r = render(s.fields, s.n_fields);
          if (dump) printf("  %s/%s: %s\n", subdirs[d], de->d_name, r);
          for (size_t i = 0; i < sizeof EXPECTED / sizeof EXPECTED[0]; i++) {
            if (strcmp(EXPECTED[i].subdir, subdirs[d]) == 0 && strcmp(EXPECTED[i].file, de->d_name) == 0) {
              expected_seen++;
              CHECK_EQ_STR(r, EXPECTED[i].fields);
            }
          }
        }
        pqt_arena_reset(&a);
      }
      corpus_close(&c);
    }
    closedir(dh);
  }
  printf("  corpus: %d files carry ARROW:schema, %d decoded\n", with_schema, decoded);
  CHECK(with_schema >= 14);
  CHECK_EQ_INT(expected_seen, N_EXPECTED);
}

/* ---- building trees ------------------------------------------------------ */

static pqt_arrow_field leaf(const char *name, const char *format, bool nullable) {
  pqt_arrow_field f;
  memset(&f, 0, sizeof f);
  f.name = name;
  f.nullable = nullable;
  snprintf(f.format, sizeof f.format, "%s", format);
  return f;
}

static pqt_arrow_field nested(const char *name, const char *format, pqt_arrow_field *children, int32_t n) {
  pqt_arrow_field f = leaf(name, format, true);
  f.children = children;
  f.n_children = n;
  return f;
}

/* encode -> decode -> equal; returns the decoded rendering. */
static const char *roundtrip(const pqt_arrow_field *fs, int32_t n) {
  pqt_buf b64;
  pqt_buf_init(&b64, NULL);
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_arrow_schema_encode_fields(fs, n, &b64, &err);
  CHECK_MSG(st == PQT_OK, "encode: %s", err.message);
  const char *r = "(failed)";
  if (st == PQT_OK) {
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_arrow_field *out = NULL;
    int32_t n_out = -1;
    st = pqt_arrow_schema_decode((const char *)b64.data, b64.len, &a, &out, &n_out, &err);
    CHECK_MSG(st == PQT_OK, "decode: %s", err.message);
    if (st == PQT_OK) {
      CHECK(pqt_arrow_fields_equal(fs, n, out, n_out));
      r = render(out, n_out);
    }
    pqt_arena_reset(&a);
  }
  pqt_buf_free(&b64);
  return r;
}

static const char *const LEAF_FORMATS[] = {
    "n",          "b",         "c",     "C",   "s",    "S",       "i",
    "I",          "l",         "L",     "e",   "f",    "g",       "z",
    "Z",          "vz",        "u",     "U",   "vu",   "d:38,10", "d:76,-3,256",
    "d:9,2,32",   "d:18,4,64", "d:1,0", "w:0", "w:16", "tdD",     "tdm",
    "tts",        "ttm",       "ttu",   "ttn", "tss:", "tsm:UTC", "tsu:America/New_York",
    "tsn:+07:30", "tDs",       "tDm",   "tDu", "tDn",  "tiM",     "tiD",
    "tin",
};
#define N_LEAF ((int32_t)(sizeof LEAF_FORMATS / sizeof LEAF_FORMATS[0]))

static void test_roundtrip_leaf_types(void) {
  pqt_arrow_field fs[N_LEAF];
  for (int32_t i = 0; i < N_LEAF; i++) {
    fs[i] = leaf(LEAF_FORMATS[i], LEAF_FORMATS[i], i % 2 == 0);
    pqt_arrow_field one = fs[i];
    char want[128];
    snprintf(want, sizeof want, "%s:%s%s", LEAF_FORMATS[i], LEAF_FORMATS[i], i % 2 ? "!" : "");
    CHECK_EQ_STR(roundtrip(&one, 1), want);
  }
  roundtrip(fs, N_LEAF); /* all at once */
}

static void test_roundtrip_nested_types(void) {
  pqt_arrow_field item = leaf("item", "i", true);
  pqt_arrow_field kv[2] = {leaf("key", "u", false), leaf("value", "+l", true)};
  pqt_arrow_field vitem = leaf("element", "tsu:Europe/Paris", true);
  kv[1].children = &vitem;
  kv[1].n_children = 1;
  pqt_arrow_field entries = nested("entries", "+s", kv, 2);
  entries.nullable = false;
  pqt_arrow_field ree[2] = {leaf("run_ends", "i", false), leaf("values", "U", true)};
  pqt_arrow_field un[3] = {leaf("a", "i", true), leaf("b", "u", true), leaf("c", "+s", true)};
  pqt_arrow_field st[3] = {leaf("x", "g", false), leaf("y", "Z", true), leaf("empty", "+s", true)};
  pqt_arrow_field fs[] = {
      nested("list", "+l", &item, 1),          nested("large_list", "+L", &item, 1),
      nested("list_view", "+vl", &item, 1),    nested("large_list_view", "+vL", &item, 1),
      nested("fixed_list", "+w:3", &item, 1),  nested("map", "+m", &entries, 1),
      nested("sorted_map", "+m", &entries, 1), nested("ree", "+r", ree, 2),
      nested("dense", "+ud:5,7,127", un, 3),   nested("sparse", "+us:0,1,2", un, 3),
      nested("sparse1", "+us:3", un, 1),       nested("struct", "+s", st, 3),
      nested("empty_struct", "+s", NULL, 0),   nested("empty_union", "+ud:", NULL, 0),
  };
  fs[6].map_keys_sorted = true;
  int32_t n = (int32_t)(sizeof fs / sizeof fs[0]);
  CHECK_EQ_STR(roundtrip(fs, n),
               "list:+l<item:i>, large_list:+L<item:i>, list_view:+vl<item:i>, "
               "large_list_view:+vL<item:i>, fixed_list:+w:3<item:i>, "
               "map:+m<entries:+s!<key:u!, value:+l<element:tsu:Europe/Paris>>>, "
               "sorted_map:+m~sorted<entries:+s!<key:u!, value:+l<element:tsu:Europe/Paris>>>, "
               "ree:+r<run_ends:i!, values:U>, dense:+ud:5,7,127<a:i, b:u, c:+s>, "
               "sparse:+us:0,1,2<a:i, b:u, c:+s>, sparse1:+us:3<a:i>, "
               "struct:+s<x:g!, y:Z, empty:+s>, empty_struct:+s, empty_union:+ud:");
}

static void test_roundtrip_dictionary_metadata(void) {
  const char *k1[] = {"ARROW:extension:name", "ARROW:extension:metadata"};
  const char *v1[] = {"arrow.uuid", ""};
  const char *k2[] = {"comment"};
  const char *v2[] = {"caf\xc3\xa9 \"quoted\""};
  pqt_arrow_field child = leaf("item", "u", true);
  child.dictionary = true;
  strcpy(child.index_format, "C");
  child.dictionary_id = 7;
  pqt_arrow_field fs[] = {leaf("id", "w:16", false), leaf("cat", "u", true), leaf("ord", "+s", true),
                          nested("l", "+l", &child, 1), leaf("", "l", true)};
  fs[0].n_metadata = 2;
  fs[0].meta_keys = k1;
  fs[0].meta_values = v1;
  fs[1].dictionary = true;
  strcpy(fs[1].index_format, "i");
  fs[1].dictionary_id = 0;
  fs[1].n_metadata = 1;
  fs[1].meta_keys = k2;
  fs[1].meta_values = v2;
  fs[2].dictionary = true;
  fs[2].dictionary_ordered = true;
  fs[2].dictionary_id = 1LL << 40;
  strcpy(fs[2].index_format, "L");
  CHECK_EQ_STR(roundtrip(fs, 5),
               "id:w:16!{ARROW:extension:name=arrow.uuid;ARROW:extension:metadata=}, "
               "cat:dict<i>u{comment=caf\xc3\xa9 \"quoted\"}, ord:dict<L>+s~ordered, "
               "l:+l<item:dict<C>u>, :l");

  /* schema-level metadata, big endian and no fields */
  pqt_arrow_schema s;
  memset(&s, 0, sizeof s);
  s.n_metadata = 1;
  s.meta_keys = k2;
  s.meta_values = v2;
  s.big_endian = true;
  pqt_buf raw;
  pqt_buf_init(&raw, NULL);
  CHECK_OK(pqt_arrow_schema_encode_ipc(&s, &raw, NULL));
  CHECK(raw.len % 8 == 0);
  CHECK(raw.len >= 8 && pqt_load_u32le(raw.data) == 0xFFFFFFFFu);
  CHECK_EQ_INT(pqt_load_u32le(raw.data + 4), raw.len - 8);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_arrow_schema back;
  CHECK_OK(pqt_arrow_schema_decode_ipc(raw.data, raw.len, &a, &back, NULL));
  CHECK_EQ_INT(back.n_fields, 0);
  CHECK_EQ_INT(back.n_metadata, 1);
  if (back.n_metadata == 1) CHECK_EQ_STR(back.meta_values[0], v2[0]);
  CHECK(back.big_endian);
  CHECK_EQ_INT(back.version, 4);
  /* the same message without its prefix, and with the pre-0.15 4-byte length */
  CHECK_OK(pqt_arrow_schema_decode_ipc(raw.data + 8, raw.len - 8, &a, &back, NULL));
  CHECK_EQ_INT(back.n_metadata, 1);
  raw.data[4] = raw.data[5] = raw.data[6] = raw.data[7] = 0;
  pqt_store_u32le(raw.data + 4, (uint32_t)(raw.len - 8));
  CHECK_OK(pqt_arrow_schema_decode_ipc(raw.data + 4, raw.len - 4, &a, &back, NULL));
  CHECK_EQ_INT(back.n_metadata, 1);
  pqt_arena_reset(&a);
  pqt_buf_free(&raw);
}

static void test_deep_nesting_encode(void) {
  enum { N = PQT_ARROW_SCHEMA_MAX_DEPTH + 1 };
  pqt_arrow_field chain[N];
  for (int i = 0; i < N; i++) {
    chain[i] = i == N - 1 ? leaf("leaf", "i", true) : nested("s", "+s", &chain[i + 1], 1);
  }
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  pqt_error err;
  pqt_error_init(&err);
  /* 64 levels are fine, 65 are not */
  roundtrip(&chain[1], 1);
  CHECK_EQ_INT(pqt_arrow_schema_encode_fields(chain, 1, &b, &err), PQT_EINVAL);
  CHECK_EQ_INT(b.len, 0);
  pqt_buf_free(&b);
}

static void test_encode_rejects_bad_trees(void) {
  pqt_arrow_field item = leaf("item", "i", true);
  pqt_arrow_field two[2] = {leaf("a", "i", true), leaf("b", "i", true)};
  pqt_arrow_field bad[] = {
      leaf("x", "q", true),          leaf("x", "d:0,1", true),         leaf("x", "d:5,1,100", true),
      leaf("x", "w:-1", true),       leaf("x", "tsx:", true),          leaf("x", "ts", true),
      nested("x", "+l", NULL, 0),    nested("x", "+l", two, 2),        nested("x", "+m", &item, 1),
      nested("x", "+r", two, 1),     nested("x", "i", &item, 1),       nested("x", "+ud:1", two, 2),
      nested("x", "+ud:1,", two, 1), nested("x", "+us:128", &item, 1), leaf("x", "+w:", true),
      leaf("x", "", true),
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pqt_buf b;
    pqt_buf_init(&b, NULL);
    pqt_error err;
    pqt_error_init(&err);
    pqt_status st = pqt_arrow_schema_encode_fields(&bad[i], 1, &b, &err);
    CHECK_MSG(st == PQT_EINVAL, "format %s: status %d", bad[i].format, st);
    CHECK(err.message[0] != '\0');
    pqt_buf_free(&b);
  }
  /* a dictionary whose index is not an integer */
  pqt_arrow_field d = leaf("d", "u", true);
  d.dictionary = true;
  strcpy(d.index_format, "f");
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_EQ_INT(pqt_arrow_schema_encode_fields(&d, 1, &b, NULL), PQT_EINVAL);
  pqt_buf_free(&b);
}

/* ---- ArrowSchema input ----------------------------------------------------- */

static void noop_release(struct ArrowSchema *s) { (void)s; }

static struct ArrowSchema c_schema(const char *format, const char *name, int64_t flags, struct ArrowSchema **children,
                                   int64_t n) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof s);
  s.format = format;
  s.name = name;
  s.flags = flags;
  s.children = children;
  s.n_children = n;
  s.release = noop_release;
  return s;
}

static void test_encode_from_c(void) {
  /* metadata blob: 1 pair ("ARROW:extension:name", "my.ext") */
  char md[64];
  int32_t v;
  size_t o = 0;
  v = 1;
  memcpy(md + o, &v, 4);
  o += 4;
  v = 20;
  memcpy(md + o, &v, 4);
  o += 4;
  memcpy(md + o, "ARROW:extension:name", 20);
  o += 20;
  v = 6;
  memcpy(md + o, &v, 4);
  o += 4;
  memcpy(md + o, "my.ext", 6);
  o += 6;

  struct ArrowSchema dict_values = c_schema("U", NULL, 0, NULL, 0);
  struct ArrowSchema key = c_schema("u", "key", 0, NULL, 0);
  struct ArrowSchema val = c_schema("tDn", "value", ARROW_FLAG_NULLABLE, NULL, 0);
  struct ArrowSchema *kv[] = {&key, &val};
  struct ArrowSchema entries = c_schema("+s", "entries", 0, kv, 2);
  struct ArrowSchema *ent[] = {&entries};
  struct ArrowSchema a = c_schema("l", "a", 0, NULL, 0);
  struct ArrowSchema b = c_schema("s", "b", ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED, NULL, 0);
  b.dictionary = &dict_values;
  struct ArrowSchema m = c_schema("+m", "m", ARROW_FLAG_NULLABLE | ARROW_FLAG_MAP_KEYS_SORTED, ent, 1);
  struct ArrowSchema e = c_schema("w:16", "e", ARROW_FLAG_NULLABLE, NULL, 0);
  e.metadata = md;
  struct ArrowSchema cat_values = c_schema("u", NULL, 0, NULL, 0);
  struct ArrowSchema cat = c_schema("i", "cat", ARROW_FLAG_NULLABLE, NULL, 0);
  cat.dictionary = &cat_values;
  struct ArrowSchema *cols[] = {&a, &b, &m, &e, &cat};
  struct ArrowSchema top = c_schema("+s", "", 0, cols, 5);
  top.metadata = md;

  pqt_buf out;
  pqt_buf_init(&out, NULL);
  pqt_error err;
  pqt_error_init(&err);
  CHECK_MSG(pqt_arrow_schema_encode_from_c(&top, &out, &err) == PQT_OK, "%s", err.message);
  pqt_arena ar;
  pqt_arena_init(&ar, NULL);
  pqt_arrow_schema s;
  CHECK_MSG(pqt_arrow_schema_decode_ex((const char *)out.data, out.len, &ar, &s, &err) == PQT_OK, "%s", err.message);
  CHECK_EQ_STR(render(s.fields, s.n_fields),
               "a:l!, b:dict<s>U~ordered, m:+m~sorted<entries:+s!<key:u!, value:tDn>>, "
               "e:w:16{ARROW:extension:name=my.ext}, cat:dict<i>u");
  if (s.n_fields == 5) {
    CHECK_EQ_INT(s.fields[1].dictionary_id, 0);
    CHECK_EQ_INT(s.fields[4].dictionary_id, 1);
  }
  CHECK_EQ_INT(s.n_metadata, 1);
  if (s.n_metadata == 1) CHECK_EQ_STR(s.meta_keys[0], "ARROW:extension:name");
  pqt_arena_reset(&ar);

  /* not a struct at the top; a cycle; a released child */
  size_t before = out.len;
  CHECK_EQ_INT(pqt_arrow_schema_encode_from_c(&a, &out, NULL), PQT_EINVAL);
  struct ArrowSchema *self[1];
  struct ArrowSchema loop = c_schema("+l", "loop", 0, self, 1);
  self[0] = &loop;
  struct ArrowSchema *loopcol[] = {&loop};
  struct ArrowSchema top2 = c_schema("+s", "", 0, loopcol, 1);
  CHECK_EQ_INT(pqt_arrow_schema_encode_from_c(&top2, &out, &err), PQT_EINVAL);
  a.release = NULL;
  CHECK_EQ_INT(pqt_arrow_schema_encode_from_c(&top, &out, NULL), PQT_EINVAL);
  CHECK_EQ_INT(out.len, before);
  pqt_buf_free(&out);
}

/* ---- hostile input ----------------------------------------------------------- */

/* A rich valid message (raw IPC bytes) for the mutation tests. */
static void sample_message(pqt_buf *raw) {
  pqt_arrow_field item = leaf("item", "tsu:Asia/Tokyo", true);
  pqt_arrow_field kv[2] = {leaf("key", "u", false), leaf("value", "d:20,4", true)};
  pqt_arrow_field entries = nested("entries", "+s", kv, 2);
  entries.nullable = false;
  pqt_arrow_field un[2] = {leaf("a", "i", true), leaf("b", "vu", true)};
  const char *k[] = {"ARROW:extension:name"};
  const char *v[] = {"x.y"};
  pqt_arrow_field fs[] = {nested("l", "+L", &item, 1), nested("m", "+m", &entries, 1), nested("u", "+ud:2,9", un, 2),
                          leaf("d", "u", true), leaf("e", "w:4", false)};
  fs[3].dictionary = true;
  strcpy(fs[3].index_format, "c");
  fs[4].n_metadata = 1;
  fs[4].meta_keys = k;
  fs[4].meta_values = v;
  pqt_arrow_schema s;
  memset(&s, 0, sizeof s);
  s.fields = fs;
  s.n_fields = 5;
  s.n_metadata = 1;
  s.meta_keys = k;
  s.meta_values = v;
  CHECK_OK(pqt_arrow_schema_encode_ipc(&s, raw, NULL));
}

/* Decode; an error must carry its code and a message; a success must be a
 * tree the encoder accepts and that survives a round trip. */
static pqt_status decode_clean(const uint8_t *p, size_t n) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_arrow_schema s;
  pqt_error err;
  pqt_error_init(&err);
  pqt_status st = pqt_arrow_schema_decode_ipc(p, n, &a, &s, &err);
  if (st != PQT_OK) {
    CHECK(err.code == st);
    CHECK(err.message[0] != '\0');
    CHECK(st == PQT_ECORRUPT || st == PQT_EUNSUPPORTED);
  } else {
    pqt_buf raw;
    pqt_buf_init(&raw, NULL);
    CHECK_OK(pqt_arrow_schema_encode_ipc(&s, &raw, &err));
    pqt_arrow_schema back;
    CHECK_OK(pqt_arrow_schema_decode_ipc(raw.data, raw.len, &a, &back, &err));
    CHECK(pqt_arrow_fields_equal(s.fields, s.n_fields, back.fields, back.n_fields));
    pqt_buf_free(&raw);
  }
  pqt_arena_reset(&a);
  return st;
}

static void test_truncation_every_byte(void) {
  pqt_buf raw;
  pqt_buf_init(&raw, NULL);
  sample_message(&raw);
  CHECK_EQ_INT(decode_clean(raw.data, raw.len), PQT_OK);
  uint8_t *copy = malloc(raw.len);
  int ok_bare = 0;
  for (size_t k = 0; k < raw.len; k++) {
    /* the framed message cut at k */
    memcpy(copy, raw.data, k);
    CHECK(decode_clean(copy, k) != PQT_OK);
    /* the length field says k - 8: the flatbuffer itself is cut */
    if (k >= 8) {
      pqt_store_u32le(copy + 4, (uint32_t)(k - 8));
      pqt_status st = decode_clean(copy, k);
      /* only the trailing padding may go */
      CHECK(st != PQT_OK || k + 8 > raw.len);
      /* and as a bare flatbuffer */
      if (decode_clean(copy + 8, k - 8) == PQT_OK) ok_bare++;
    }
  }
  CHECK(ok_bare < 8);
  /* base64 text cut at every character */
  pqt_buf b64;
  pqt_buf_init(&b64, NULL);
  CHECK_OK(pqt_base64_append(&b64, raw.data, raw.len, NULL));
  for (size_t k = 0; k + 4 < b64.len; k++) {
    pqt_arena a;
    pqt_arena_init(&a, NULL);
    pqt_arrow_field *f;
    int32_t n;
    pqt_error err;
    pqt_error_init(&err);
    CHECK(pqt_arrow_schema_decode((const char *)b64.data, k, &a, &f, &n, &err) == PQT_ECORRUPT);
    pqt_arena_reset(&a);
  }
  free(copy);
  pqt_buf_free(&b64);
  pqt_buf_free(&raw);
}

static uint64_t xorshift(uint64_t *s) {
  return pqt_test_xorshift(s);
}

static void test_random_flips(void) {
  pqt_buf raw;
  pqt_buf_init(&raw, NULL);
  sample_message(&raw);
  uint8_t *copy = malloc(raw.len);
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  int ok = 0, failed = 0;
  for (int iter = 0; iter < 20000; iter++) {
    memcpy(copy, raw.data, raw.len);
    int flips = 1 + (int)(xorshift(&seed) % 4);
    for (int j = 0; j < flips; j++) {
      size_t at = 8 + xorshift(&seed) % (raw.len - 8);
      uint64_t r = xorshift(&seed);
      if (r & 1) copy[at] ^= (uint8_t)(1u << ((r >> 1) % 8));
      else copy[at] = (uint8_t)(r >> 8);
    }
    if (decode_clean(copy, raw.len) == PQT_OK) ok++;
    else failed++;
  }
  printf("  20000 mutations: %d decoded, %d rejected\n", ok, failed);
  CHECK(failed > 1000);
  free(copy);
  pqt_buf_free(&raw);
}

/* A hand-made message: Message -> Schema -> fields vector of `fanout`
 * elements -> a chain of `depth` Struct_ fields, each with `fanout`
 * children all pointing to the next one (a DAG: fanout 2 means 2^depth
 * paths). Returns the length. */
static size_t chain_message(uint8_t *buf, size_t cap, int depth, int fanout) {
  size_t need = 64 + (size_t)depth * 48 + 8;
  if (need > cap) return 0;
  memset(buf, 0, need);
  size_t end = 64 + (size_t)depth * 48; /* the shared empty Struct_ table: vtable at end, table at end+4 */
#define U16(at, v) (buf[(at)] = (uint8_t)(v), buf[(at) + 1] = (uint8_t)((v) >> 8))
#define U32(at, v) pqt_store_u32le(buf + (at), (uint32_t)(v))
  U32(0, 16); /* root -> Message table at 16 */
  U16(4, 10);
  U16(6, 12);
  U16(8, 4);
  U16(10, 6);
  U16(12, 8);       /* Message vtable */
  U32(16, 16 - 4);  /* soffset */
  U16(20, 4);       /* version V5 */
  buf[22] = 1;      /* header_type Schema */
  U32(24, 40 - 24); /* header -> Schema table at 40 */
  U16(32, 8);
  U16(34, 8);
  U16(36, 0);
  U16(38, 4); /* Schema vtable: fields at 4 */
  U32(40, 40 - 32);
  U32(44, 48 - 44); /* fields -> vector at 48 */
  U32(48, fanout);
  for (int j = 0; j < fanout; j++) U32(52 + 4 * j, (64 + 16) - (52 + 4 * (size_t)j));
  for (int i = 0; i < depth; i++) {
    size_t b = 64 + (size_t)i * 48;
    U16(b, 16);
    U16(b + 2, 16);
    U16(b + 4, 0);
    U16(b + 6, 0);
    U16(b + 8, 4);
    U16(b + 10, 8);
    U16(b + 12, 0);
    U16(b + 14, 12);
    U32(b + 16, 16);  /* soffset */
    buf[b + 20] = 13; /* Struct_ */
    U32(b + 24, (end + 4) - (b + 24));
    U32(b + 28, (b + 32) - (b + 28));
    bool last = i == depth - 1;
    U32(b + 32, last ? 0 : fanout);
    for (int j = 0; !last && j < fanout; j++) U32(b + 36 + 4 * (size_t)j, (b + 48 + 16) - (b + 36 + 4 * (size_t)j));
  }
  U16(end, 4);
  U16(end + 2, 4);
  U32(end + 4, 4);
#undef U16
#undef U32
  return need;
}

static void test_deep_and_shared_nesting(void) {
  static uint8_t buf[64 + 200 * 48 + 8];
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_arrow_schema s;
  pqt_error err;
  size_t n = chain_message(buf, sizeof buf, PQT_ARROW_SCHEMA_MAX_DEPTH, 1);
  pqt_error_init(&err);
  CHECK_MSG(pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err) == PQT_OK, "%s", err.message);
  CHECK_EQ_INT(s.n_fields, 1);
  n = chain_message(buf, sizeof buf, PQT_ARROW_SCHEMA_MAX_DEPTH + 1, 1);
  CHECK_EQ_INT(pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err), PQT_ECORRUPT);
  CHECK_MSG(strstr(err.message, "deeper") != NULL, "%s", err.message);
  n = chain_message(buf, sizeof buf, 200, 1);
  CHECK_EQ_INT(pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err), PQT_ECORRUPT);
  /* 2^40 paths through 40 tables: refused by the item budget, quickly */
  n = chain_message(buf, sizeof buf, 40, 2);
  CHECK_EQ_INT(pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err), PQT_ECORRUPT);
  CHECK(strstr(err.message, "more items") != NULL);
  /* 2^5 paths: fine */
  n = chain_message(buf, sizeof buf, 6, 2);
  CHECK_MSG(pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err) == PQT_OK, "%s", err.message);
  CHECK_EQ_INT(s.n_fields, 2);
  pqt_arena_reset(&a);
}

static void test_offsets_outside(void) {
  static uint8_t good[64 + 4 * 48 + 8];
  uint8_t buf[sizeof good];
  size_t n = chain_message(good, sizeof good, 4, 1);
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_arrow_schema s;
  pqt_error err;
  pqt_error_init(&err);
  CHECK_OK(pqt_arrow_schema_decode_ipc(good, n, &a, &s, &err));
  struct {
    size_t at;
    uint32_t v;
    pqt_status want;
    const char *what;
  } cases[] = {
      {0, 0xFFFFFF00u, PQT_ECORRUPT, "root offset outside"},
      {0, 0, PQT_ECORRUPT, "root offset zero"},
      {16, 0x80000000u, PQT_ECORRUPT, "vtable far before the buffer"},
      {16, (uint32_t)-4000, PQT_ECORRUPT, "vtable past the end"},
      {24, 0x7FFFFFF0u, PQT_ECORRUPT, "Schema offset outside"},
      {48, 0x7FFFFFFFu, PQT_ECORRUPT, "fields vector count huge"},
      {52, 0xFFFFFFF0u, PQT_ECORRUPT, "field offset outside"},
      {64 + 32, 1000, PQT_ECORRUPT, "children count past the end"},
      {64 + 24, 0x10000u, PQT_ECORRUPT, "type offset outside"},
      {64 + 28, 0xFFFFFFFFu, PQT_ECORRUPT, "children offset outside"},
      {64, 0xFFFF0010u, PQT_ECORRUPT, "table size past the end"},
      {64, 0x00100003u, PQT_ECORRUPT, "odd vtable size"},
      {64, 0x00020010u, PQT_ECORRUPT, "table smaller than its soffset"},
      {64 + 8, 0x00200004u, PQT_ECORRUPT, "field offset past the table"},
      {64 + 20, 99, PQT_EUNSUPPORTED, "unknown Type member"},
      {64 + 20, 0, PQT_ECORRUPT, "Type NONE"},
      {20, 2, PQT_EUNSUPPORTED, "metadata version V3"},
      {20, 0x00020004u, PQT_ECORRUPT, "header type RecordBatch"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(buf, good, n);
    pqt_store_u32le(buf + cases[i].at, cases[i].v);
    pqt_error_init(&err);
    pqt_status st = pqt_arrow_schema_decode_ipc(buf, n, &a, &s, &err);
    CHECK_MSG(st == cases[i].want, "%s: status %d (%s)", cases[i].what, st, err.message);
    CHECK(err.code == st);
  }
  pqt_arena_reset(&a);
  /* a string without its NUL, and one whose length runs past the end */
  pqt_buf raw;
  pqt_buf_init(&raw, NULL);
  sample_message(&raw);
  const char *needle = "ARROW:extension:name";
  uint8_t *hit = NULL;
  for (size_t i = 0; i + 20 <= raw.len && !hit; i++)
    if (memcmp(raw.data + i, needle, 20) == 0) hit = raw.data + i;
  CHECK(hit != NULL);
  if (hit) {
    hit[20] = 'X';
    CHECK_EQ_INT(decode_clean(raw.data, raw.len), PQT_ECORRUPT);
    hit[20] = 0;
    CHECK_EQ_INT(decode_clean(raw.data, raw.len), PQT_OK);
    pqt_store_u32le(hit - 4, 0x7FFFFFF0u);
    CHECK_EQ_INT(decode_clean(raw.data, raw.len), PQT_ECORRUPT);
    pqt_store_u32le(hit - 4, (uint32_t)(raw.data + raw.len - hit));
    CHECK_EQ_INT(decode_clean(raw.data, raw.len), PQT_ECORRUPT);
  }
  pqt_buf_free(&raw);
}

static void test_base64(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  uint8_t *out;
  size_t n;
  CHECK_OK(pqt_base64_decode("aGVsbG8=", 8, &a, &out, &n, NULL));
  CHECK(n == 5 && memcmp(out, "hello", 5) == 0);
  CHECK_OK(pqt_base64_decode("aGVsbG8", 7, &a, &out, &n, NULL));
  CHECK(n == 5 && memcmp(out, "hello", 5) == 0);
  CHECK_OK(pqt_base64_decode("", 0, &a, &out, &n, NULL));
  CHECK_EQ_INT(n, 0);
  const char *bad[] = {"aGVsbG8==", "a", "aGV*bG8=", "aG=sbG8=", "====", "aGVsbG8=\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pqt_error err;
    pqt_error_init(&err);
    CHECK_MSG(pqt_base64_decode(bad[i], strlen(bad[i]), &a, &out, &n, &err) == PQT_ECORRUPT, "%s", bad[i]);
  }
  /* a valid base64 text of garbage, and of an empty message */
  pqt_arrow_field *f;
  int32_t nf;
  CHECK_EQ_INT(pqt_arrow_schema_decode("aGVsbG8gd29ybGQh", 16, &a, &f, &nf, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_arrow_schema_decode("", 0, &a, &f, &nf, NULL), PQT_ECORRUPT);
  CHECK_EQ_INT(pqt_arrow_schema_decode("/////wAAAAA=", 12, &a, &f, &nf, NULL), PQT_ECORRUPT);
  pqt_arena_reset(&a);
}

RUN_TESTS("arrow_schema_ipc", TEST_CASE(test_corpus), TEST_CASE(test_roundtrip_leaf_types),
          TEST_CASE(test_roundtrip_nested_types), TEST_CASE(test_roundtrip_dictionary_metadata),
          TEST_CASE(test_deep_nesting_encode), TEST_CASE(test_encode_rejects_bad_trees), TEST_CASE(test_encode_from_c),
          TEST_CASE(test_truncation_every_byte), TEST_CASE(test_random_flips), TEST_CASE(test_deep_and_shared_nesting),
          TEST_CASE(test_offsets_outside), TEST_CASE(test_base64))
