/* Seed 004 (a byte-by-byte walkthrough of a parquet-go file): decode its
 * footer and its first page header with the descriptor tables and check the
 * values the walkthrough lists, the JSON dump, and the re-encoding. */
#include "core/core.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* simple.parquet bytes 0x71..0x12a: the 186-byte footer (FileMetaData). */
static const uint8_t seed004_footer[186] = {
    0x15, 0x04, 0x19, 0x2c, 0x48, 0x0c, 0x4d, 0x79, 0x54, 0x79, 0x70, 0x65, 0x53, 0x69, 0x6d, 0x70, 0x6c, 0x65, 0x15,
    0x02, 0x00, 0x15, 0x0c, 0x25, 0x00, 0x18, 0x04, 0x74, 0x65, 0x78, 0x74, 0x25, 0x00, 0x4c, 0x1c, 0x00, 0x00, 0x00,
    0x16, 0x0a, 0x19, 0x1c, 0x19, 0x1c, 0x26, 0x00, 0x1c, 0x15, 0x0c, 0x19, 0x15, 0x00, 0x19, 0x18, 0x04, 0x74, 0x65,
    0x78, 0x74, 0x15, 0x00, 0x16, 0x0a, 0x16, 0x92, 0x01, 0x16, 0x92, 0x01, 0x26, 0x08, 0x3c, 0x58, 0x05, 0x74, 0x65,
    0x78, 0x74, 0x35, 0x18, 0x05, 0x74, 0x65, 0x78, 0x74, 0x31, 0x00, 0x19, 0x1c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x02,
    0x00, 0x00, 0x16, 0xcc, 0x01, 0x15, 0x16, 0x16, 0x9a, 0x01, 0x15, 0x32, 0x00, 0x16, 0x92, 0x01, 0x16, 0x0a, 0x19,
    0x0c, 0x16, 0x08, 0x16, 0x92, 0x01, 0x00, 0x19, 0x0c, 0x18, 0x37, 0x67, 0x69, 0x74, 0x68, 0x75, 0x62, 0x2e, 0x63,
    0x6f, 0x6d, 0x2f, 0x70, 0x61, 0x72, 0x71, 0x75, 0x65, 0x74, 0x2d, 0x67, 0x6f, 0x2f, 0x70, 0x61, 0x72, 0x71, 0x75,
    0x65, 0x74, 0x2d, 0x67, 0x6f, 0x20, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x20, 0x30, 0x2e, 0x32, 0x33, 0x2e,
    0x30, 0x28, 0x62, 0x75, 0x69, 0x6c, 0x64, 0x20, 0x29, 0x19, 0x1c, 0x1c, 0x00, 0x00, 0x00,
};

/* simple.parquet bytes 0x04..0x4c: page header (28 bytes) then 45 bytes of
 * PLAIN data. */
static const uint8_t seed004_page[73] = {
    0x15, 0x06, 0x15, 0x5a, 0x15, 0x5a, 0x15, 0xab, 0xa3, 0x84, 0xb4, 0x03, 0x4c, 0x15, 0x0a, 0x15, 0x00, 0x15, 0x0a,
    0x15, 0x00, 0x15, 0x00, 0x15, 0x00, 0x12, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x31, 0x05,
    0x00, 0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x32, 0x05, 0x00, 0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x33, 0x05, 0x00,
    0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x34, 0x05, 0x00, 0x00, 0x00, 0x74, 0x65, 0x78, 0x74, 0x35,
};

static void test_seed004_footer_values(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  size_t used = 0;
  pqt_error e;
  pqt_error_init(&e);
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, seed004_footer, sizeof seed004_footer, &used, &a, &m, &e));
  CHECK_EQ_INT(used, sizeof seed004_footer);
  CHECK_EQ_INT(m.version, 2);
  CHECK_EQ_INT(m.num_rows, 5);
  CHECK_EQ_INT(m.schema.n, 2);
  CHECK(m.schema.items[0].name.len == 12 && !memcmp(m.schema.items[0].name.ptr, "MyTypeSimple", 12));
  CHECK_EQ_INT(m.schema.items[0].num_children, 1);
  CHECK(!PQT_HAS_FIELD(&m.schema.items[0], schema_element, type));
  const pqt_schema_element *t = &m.schema.items[1];
  CHECK(t->name.len == 4 && !memcmp(t->name.ptr, "text", 4));
  CHECK_EQ_INT(t->type, PQT_BYTE_ARRAY);
  CHECK_EQ_INT(t->repetition_type, PQT_REQUIRED);
  CHECK_EQ_INT(t->converted_type, PQT_CT_UTF8);
  CHECK_EQ_INT(pqt_union_which(t->logical_type.isset), PQT_LT_STRING);
  CHECK_EQ_INT(m.row_groups.n, 1);
  const pqt_row_group *rg = &m.row_groups.items[0];
  CHECK_EQ_INT(rg->num_rows, 5);
  CHECK_EQ_INT(rg->total_byte_size, 73);
  CHECK_EQ_INT(rg->file_offset, 4);
  CHECK_EQ_INT(rg->total_compressed_size, 73);
  CHECK_EQ_INT(rg->columns.n, 1);
  const pqt_column_chunk *cc = &rg->columns.items[0];
  CHECK_EQ_INT(cc->file_offset, 0);
  CHECK_EQ_INT(cc->offset_index_offset, 102);
  CHECK_EQ_INT(cc->offset_index_length, 11);
  CHECK_EQ_INT(cc->column_index_offset, 77);
  CHECK_EQ_INT(cc->column_index_length, 25);
  const pqt_column_metadata *md = &cc->meta_data;
  CHECK_EQ_INT(md->type, PQT_BYTE_ARRAY);
  CHECK(md->encodings.n == 1 && md->encodings.items[0] == PQT_ENC_PLAIN);
  CHECK(md->path_in_schema.n == 1 && md->path_in_schema.items[0].len == 4 &&
        !memcmp(md->path_in_schema.items[0].ptr, "text", 4));
  CHECK_EQ_INT(md->codec, PQT_CODEC_UNCOMPRESSED);
  CHECK_EQ_INT(md->num_values, 5);
  CHECK_EQ_INT(md->total_uncompressed_size, 73);
  CHECK_EQ_INT(md->total_compressed_size, 73);
  CHECK_EQ_INT(md->data_page_offset, 4);
  CHECK(md->statistics.min_value.len == 5 && !memcmp(md->statistics.min_value.ptr, "text1", 5));
  CHECK(md->statistics.max_value.len == 5 && !memcmp(md->statistics.max_value.ptr, "text5", 5));
  CHECK(md->encoding_stats.n == 1 && md->encoding_stats.items[0].page_type == PQT_PAGE_DATA_V2 &&
        md->encoding_stats.items[0].encoding == PQT_ENC_PLAIN && md->encoding_stats.items[0].count == 1);
  static const char cb[] = "github.com/parquet-go/parquet-go version 0.23.0(build )";
  CHECK(m.created_by.len == (int64_t)strlen(cb) && !memcmp(m.created_by.ptr, cb, strlen(cb)));
  CHECK(m.column_orders.n == 1 && pqt_union_which(m.column_orders.items[0].isset) == PQT_ORDER_TYPE);

  /* parquet-go also wrote two empty lists the walkthrough leaves out */
  CHECK(PQT_HAS_FIELD(rg, row_group, sorting_columns) && rg->sorting_columns.n == 0);
  CHECK(PQT_HAS_FIELD(&m, file_metadata, key_value_metadata) && m.key_value_metadata.n == 0);

  /* JSON: the walkthrough's rendering plus those two empty lists, with
   * binary statistics as base64 ("text5" = dGV4dDU=, "text1" = dGV4dDE=) */
  pqt_buf j;
  pqt_buf_init(&j, NULL);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_file_metadata, &m, 0, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  CHECK_EQ_STR((const char *)j.data,
               "{\"version\":2,\"schema\":[{\"name\":\"MyTypeSimple\",\"num_children\":1},"
               "{\"type\":\"BYTE_ARRAY\",\"repetition_type\":\"REQUIRED\",\"name\":\"text\","
               "\"converted_type\":\"UTF8\",\"logicalType\":{\"STRING\":{}}}],\"num_rows\":5,"
               "\"row_groups\":[{\"columns\":[{\"file_offset\":0,\"meta_data\":{\"type\":\"BYTE_ARRAY\","
               "\"encodings\":[\"PLAIN\"],\"path_in_schema\":[\"text\"],\"codec\":\"UNCOMPRESSED\","
               "\"num_values\":5,\"total_uncompressed_size\":73,\"total_compressed_size\":73,"
               "\"data_page_offset\":4,\"statistics\":{\"max_value\":\"dGV4dDU=\","
               "\"min_value\":\"dGV4dDE=\"},\"encoding_stats\":[{\"page_type\":\"DATA_PAGE_V2\","
               "\"encoding\":\"PLAIN\",\"count\":1}]},\"offset_index_offset\":102,"
               "\"offset_index_length\":11,\"column_index_offset\":77,\"column_index_length\":25}],"
               "\"total_byte_size\":73,\"num_rows\":5,\"sorting_columns\":[],\"file_offset\":4,"
               "\"total_compressed_size\":73}],\"key_value_metadata\":[],\"created_by\":\"github.com/parquet-go/"
               "parquet-go version 0.23.0(build )\","
               "\"column_orders\":[{\"TYPE_ORDER\":{}}]}");
  pqt_buf_clear(&j);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_file_metadata, &m, 2, &j, NULL));
  CHECK(j.len > 0 && memchr(j.data, '\n', j.len) != NULL);

  /* parquet-go writes fields in id order, so our encoding is byte-identical */
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &m, &b, NULL));
  CHECK(b.len == sizeof seed004_footer && memcmp(b.data, seed004_footer, b.len) == 0);
  pqt_buf_free(&b);
  pqt_buf_free(&j);
  pqt_arena_reset(&a);
}

static void test_seed004_page_header(void) {
  pqt_page_header h;
  size_t used = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_page_header, seed004_page, sizeof seed004_page, &used, NULL, &h, NULL));
  CHECK_EQ_INT(used, 28); /* header ends at file byte 0x1f */
  CHECK_EQ_INT(h.type, PQT_PAGE_DATA_V2);
  CHECK_EQ_INT(h.uncompressed_page_size, 45);
  CHECK_EQ_INT(h.compressed_page_size, 45);
  CHECK_EQ_INT(h.crc, -457214166);
  CHECK(PQT_HAS_FIELD(&h, page_header, data_page_header_v2));
  const pqt_data_page_header_v2 *v2 = &h.data_page_header_v2;
  CHECK_EQ_INT(v2->num_values, 5);
  CHECK_EQ_INT(v2->num_nulls, 0);
  CHECK_EQ_INT(v2->num_rows, 5);
  CHECK_EQ_INT(v2->encoding, PQT_ENC_PLAIN);
  CHECK_EQ_INT(v2->definition_levels_byte_length, 0);
  CHECK_EQ_INT(v2->repetition_levels_byte_length, 0);
  CHECK(PQT_HAS_FIELD(v2, data_page_header_v2, is_compressed) && v2->is_compressed == false);
  /* the data follows: first value length 5, "text1" */
  CHECK(seed004_page[used] == 5 && !memcmp(seed004_page + used + 4, "text1", 5));
  pqt_buf j;
  pqt_buf_init(&j, NULL);
  CHECK_OK(pqt_thrift_to_json(&pqt_desc_page_header, &h, 0, &j, NULL));
  CHECK_OK(pqt_buf_append(&j, "", 1, NULL));
  CHECK_EQ_STR((const char *)j.data,
               "{\"type\":\"DATA_PAGE_V2\",\"uncompressed_page_size\":45,\"compressed_page_size\":45,"
               "\"crc\":-457214166,\"data_page_header_v2\":{\"num_values\":5,\"num_nulls\":0,"
               "\"num_rows\":5,\"encoding\":\"PLAIN\",\"definition_levels_byte_length\":0,"
               "\"repetition_levels_byte_length\":0,\"is_compressed\":false}}");
  pqt_buf_clear(&j);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_page_header, &h, &j, NULL));
  CHECK(j.len == 28 && memcmp(j.data, seed004_page, 28) == 0);
  /* every truncation of the header fails */
  for (size_t k = 0; k < 28; k++) {
    uint8_t *copy = malloc(k ? k : 1);
    memcpy(copy, seed004_page, k);
    CHECK(pqt_thrift_decode(&pqt_desc_page_header, copy, k, NULL, NULL, &h, NULL) != PQT_OK);
    free(copy);
  }
  pqt_buf_free(&j);
}

/* The nested example of seed 004 (598 bytes): footer (343 bytes at 0xf7)
 * and the first page header of column nest.nest (at byte 4). */
static const uint8_t seed004_nested_footer[343] = {
    0x15, 0x04, 0x19, 0x6c, 0x48, 0x06, 0x4d, 0x79, 0x44, 0x65, 0x65, 0x70, 0x15, 0x02, 0x00, 0x35, 0x02, 0x18, 0x04,
    0x6e, 0x65, 0x73, 0x74, 0x15, 0x04, 0x00, 0x15, 0x0c, 0x25, 0x02, 0x18, 0x04, 0x6e, 0x65, 0x73, 0x74, 0x25, 0x00,
    0x4c, 0x1c, 0x00, 0x00, 0x00, 0x35, 0x04, 0x18, 0x08, 0x72, 0x65, 0x70, 0x65, 0x61, 0x74, 0x65, 0x64, 0x15, 0x02,
    0x00, 0x35, 0x02, 0x18, 0x04, 0x6e, 0x65, 0x73, 0x74, 0x15, 0x02, 0x00, 0x15, 0x0c, 0x25, 0x04, 0x18, 0x08, 0x72,
    0x65, 0x70, 0x65, 0x61, 0x74, 0x65, 0x64, 0x25, 0x00, 0x4c, 0x1c, 0x00, 0x00, 0x00, 0x16, 0x06, 0x19, 0x1c, 0x19,
    0x2c, 0x26, 0x00, 0x1c, 0x15, 0x0c, 0x19, 0x25, 0x00, 0x06, 0x19, 0x28, 0x04, 0x6e, 0x65, 0x73, 0x74, 0x04, 0x6e,
    0x65, 0x73, 0x74, 0x15, 0x00, 0x16, 0x06, 0x16, 0x64, 0x16, 0x64, 0x26, 0x08, 0x3c, 0x36, 0x02, 0x28, 0x05, 0x6e,
    0x65, 0x73, 0x74, 0x32, 0x18, 0x05, 0x6e, 0x65, 0x73, 0x74, 0x31, 0x00, 0x19, 0x1c, 0x15, 0x06, 0x15, 0x00, 0x15,
    0x02, 0x00, 0x00, 0x16, 0xc4, 0x03, 0x15, 0x14, 0x16, 0xd4, 0x02, 0x15, 0x32, 0x00, 0x26, 0x00, 0x1c, 0x15, 0x0c,
    0x19, 0x25, 0x00, 0x06, 0x19, 0x48, 0x04, 0x6e, 0x65, 0x73, 0x74, 0x08, 0x72, 0x65, 0x70, 0x65, 0x61, 0x74, 0x65,
    0x64, 0x04, 0x6e, 0x65, 0x73, 0x74, 0x08, 0x72, 0x65, 0x70, 0x65, 0x61, 0x74, 0x65, 0x64, 0x15, 0x00, 0x16, 0x0e,
    0x16, 0xe8, 0x01, 0x16, 0xe8, 0x01, 0x26, 0x6c, 0x3c, 0x36, 0x02, 0x28, 0x08, 0x6e, 0x65, 0x73, 0x74, 0x52, 0x65,
    0x70, 0x36, 0x18, 0x08, 0x6e, 0x65, 0x73, 0x74, 0x52, 0x65, 0x70, 0x31, 0x00, 0x19, 0x1c, 0x15, 0x06, 0x15, 0x00,
    0x15, 0x02, 0x00, 0x00, 0x16, 0xd8, 0x03, 0x15, 0x16, 0x16, 0x86, 0x03, 0x15, 0x3e, 0x00, 0x16, 0xcc, 0x02, 0x16,
    0x06, 0x19, 0x0c, 0x16, 0x08, 0x16, 0xcc, 0x02, 0x00, 0x19, 0x0c, 0x18, 0x37, 0x67, 0x69, 0x74, 0x68, 0x75, 0x62,
    0x2e, 0x63, 0x6f, 0x6d, 0x2f, 0x70, 0x61, 0x72, 0x71, 0x75, 0x65, 0x74, 0x2d, 0x67, 0x6f, 0x2f, 0x70, 0x61, 0x72,
    0x71, 0x75, 0x65, 0x74, 0x2d, 0x67, 0x6f, 0x20, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x20, 0x30, 0x2e, 0x32,
    0x33, 0x2e, 0x30, 0x28, 0x62, 0x75, 0x69, 0x6c, 0x64, 0x20, 0x29, 0x19, 0x2c, 0x1c, 0x00, 0x00, 0x1c, 0x00, 0x00,
    0x00,
};
static const uint8_t seed004_nested_page[64] = {
    0x15, 0x06, 0x15, 0x2c, 0x15, 0x2c, 0x15, 0xdf, 0xcf, 0xfe, 0xdb, 0x0d, 0x4c, 0x15, 0x06, 0x15,
    0x02, 0x15, 0x06, 0x15, 0x00, 0x15, 0x08, 0x15, 0x00, 0x12, 0x00, 0x00, 0x04, 0x02, 0x02, 0x01,
    0x05, 0x00, 0x00, 0x00, 0x6e, 0x65, 0x73, 0x74, 0x31, 0x05, 0x00, 0x00, 0x00, 0x6e, 0x65, 0x73,
    0x74, 0x32, 0x15, 0x06, 0x15, 0xac, 0x01, 0x15, 0xac, 0x01, 0x15, 0xbc, 0x81, 0xac, 0xe6, 0x09,
};

static void test_seed004_nested(void) {
  pqt_arena a;
  pqt_arena_init(&a, NULL);
  pqt_file_metadata m;
  size_t used = 0;
  CHECK_OK(pqt_thrift_decode(&pqt_desc_file_metadata, seed004_nested_footer, sizeof seed004_nested_footer, &used, &a,
                             &m, NULL));
  CHECK_EQ_INT(used, sizeof seed004_nested_footer);
  CHECK_EQ_INT(m.version, 2);
  CHECK_EQ_INT(m.num_rows, 3);
  CHECK_EQ_INT(m.row_groups.n, 1);
  const pqt_row_group *rg = &m.row_groups.items[0];
  CHECK_EQ_INT(rg->columns.n, 2);
  const pqt_column_metadata *c0 = &rg->columns.items[0].meta_data;
  const pqt_column_metadata *c1 = &rg->columns.items[1].meta_data;
  CHECK_EQ_INT(c0->total_compressed_size, 50);
  CHECK_EQ_INT(c0->data_page_offset, 4);
  /* The walkthrough's text says 121, but its hexdump encodes 116 (16 e8 01),
   * which matches the layout: the column spans bytes 54..169 and the column
   * index of the first column starts at 170 (0xaa). The bytes win. */
  CHECK_EQ_INT(c1->total_compressed_size, 116);
  CHECK_EQ_INT(c1->data_page_offset + c1->total_compressed_size, 0xaa);
  CHECK_EQ_INT(c1->data_page_offset, 54);
  static const char *const p1[] = {"nest", "repeated", "nest", "repeated"};
  CHECK_EQ_INT(c1->path_in_schema.n, 4);
  for (int i = 0; i < 4 && i < c1->path_in_schema.n; i++)
    CHECK(c1->path_in_schema.items[i].len == (int64_t)strlen(p1[i]) &&
          !memcmp(c1->path_in_schema.items[i].ptr, p1[i], strlen(p1[i])));
  CHECK(c0->path_in_schema.n == 2);
  pqt_buf b;
  pqt_buf_init(&b, NULL);
  CHECK_OK(pqt_thrift_encode(&pqt_desc_file_metadata, &m, &b, NULL));
  CHECK(b.len == sizeof seed004_nested_footer && memcmp(b.data, seed004_nested_footer, b.len) == 0);
  pqt_buf_free(&b);
  pqt_arena_reset(&a);

  pqt_page_header h;
  CHECK_OK(
      pqt_thrift_decode(&pqt_desc_page_header, seed004_nested_page, sizeof seed004_nested_page, &used, NULL, &h, NULL));
  CHECK_EQ_INT(h.type, PQT_PAGE_DATA_V2);
  CHECK_EQ_INT(h.data_page_header_v2.num_values, 3);
  CHECK_EQ_INT(h.data_page_header_v2.num_nulls, 1);
  CHECK_EQ_INT(h.data_page_header_v2.num_rows, 3);
  CHECK_EQ_INT(h.data_page_header_v2.encoding, PQT_ENC_PLAIN);
  CHECK_EQ_INT(h.data_page_header_v2.definition_levels_byte_length, 4);
  CHECK_EQ_INT(h.data_page_header_v2.repetition_levels_byte_length, 0);
  CHECK(h.data_page_header_v2.is_compressed == false);
  CHECK_EQ_INT(h.compressed_page_size, 22);
}

RUN_TESTS("thrift_seed", TEST_CASE(test_seed004_footer_values), TEST_CASE(test_seed004_page_header),
          TEST_CASE(test_seed004_nested))
