/* Checks every descriptor table of src/thrift/parquet_desc.c against an
 * independent transcription of the field facts of parquet.thrift
 * (apache/parquet-format src/main/thrift/parquet.thrift): struct/union
 * names, field ids, requiredness, types and names. A typo in a table (or a
 * missing struct or field) fails here. Also checks table invariants the
 * interpreter relies on (sorted ids < 32, offsets inside the C struct,
 * no overlapping members). */
#include "core/core.h"
#include "harness.h"
#include "thrift/codec.h"
#include "thrift/parquet_desc.h"

/* Format: "struct Name" / "union Name" opens a block; field lines are
 * "<id> <required|optional|default_true|-> <type> <name>". Union members
 * use "-". */
static const char *const facts =
    "struct SizeStatistics\n"
    "1 optional i64 unencoded_byte_array_data_bytes\n"
    "2 optional list<i64> repetition_level_histogram\n"
    "3 optional list<i64> definition_level_histogram\n"
    "struct BoundingBox\n"
    "1 required double xmin\n"
    "2 required double xmax\n"
    "3 required double ymin\n"
    "4 required double ymax\n"
    "5 optional double zmin\n"
    "6 optional double zmax\n"
    "7 optional double mmin\n"
    "8 optional double mmax\n"
    "struct GeospatialStatistics\n"
    "1 optional BoundingBox bbox\n"
    "2 optional list<i32> geospatial_types\n"
    "struct Statistics\n"
    "1 optional binary max\n"
    "2 optional binary min\n"
    "3 optional i64 null_count\n"
    "4 optional i64 distinct_count\n"
    "5 optional binary max_value\n"
    "6 optional binary min_value\n"
    "7 optional bool is_max_value_exact\n"
    "8 optional bool is_min_value_exact\n"
    "9 optional i64 nan_count\n"
    "struct StringType\n"
    "struct UUIDType\n"
    "struct MapType\n"
    "struct ListType\n"
    "struct VectorType\n"
    "struct EnumType\n"
    "struct DateType\n"
    "struct Float16Type\n"
    "struct NullType\n"
    "struct DecimalType\n"
    "1 required i32 scale\n"
    "2 required i32 precision\n"
    "struct MilliSeconds\n"
    "struct MicroSeconds\n"
    "struct NanoSeconds\n"
    "union TimeUnit\n"
    "1 - MilliSeconds MILLIS\n"
    "2 - MicroSeconds MICROS\n"
    "3 - NanoSeconds NANOS\n"
    "struct TimestampType\n"
    "1 required bool isAdjustedToUTC\n"
    "2 required TimeUnit unit\n"
    "struct TimeType\n"
    "1 required bool isAdjustedToUTC\n"
    "2 required TimeUnit unit\n"
    "struct IntType\n"
    "1 required i8 bitWidth\n"
    "2 required bool isSigned\n"
    "struct JsonType\n"
    "struct BsonType\n"
    "struct VariantType\n"
    "1 optional i8 specification_version\n"
    "struct GeometryType\n"
    "1 optional string crs\n"
    "struct GeographyType\n"
    "1 optional string crs\n"
    "2 optional EdgeInterpolationAlgorithm algorithm\n"
    "union LogicalType\n"
    "1 - StringType STRING\n"
    "2 - MapType MAP\n"
    "3 - ListType LIST\n"
    "4 - EnumType ENUM\n"
    "5 - DecimalType DECIMAL\n"
    "6 - DateType DATE\n"
    "7 - TimeType TIME\n"
    "8 - TimestampType TIMESTAMP\n"
    "10 - IntType INTEGER\n"
    "11 - NullType UNKNOWN\n"
    "12 - JsonType JSON\n"
    "13 - BsonType BSON\n"
    "14 - UUIDType UUID\n"
    "15 - Float16Type FLOAT16\n"
    "16 - VariantType VARIANT\n"
    "17 - GeometryType GEOMETRY\n"
    "18 - GeographyType GEOGRAPHY\n"
    "19 - VectorType VECTOR\n"
    "struct SchemaElement\n"
    "1 optional Type type\n"
    "2 optional i32 type_length\n"
    "3 optional FieldRepetitionType repetition_type\n"
    "4 required string name\n"
    "5 optional i32 num_children\n"
    "6 optional ConvertedType converted_type\n"
    "7 optional i32 scale\n"
    "8 optional i32 precision\n"
    "9 optional i32 field_id\n"
    "10 optional LogicalType logicalType\n"
    "11 optional i32 vector_length\n"
    "struct DataPageHeader\n"
    "1 required i32 num_values\n"
    "2 required Encoding encoding\n"
    "3 required Encoding definition_level_encoding\n"
    "4 required Encoding repetition_level_encoding\n"
    "5 optional Statistics statistics\n"
    "struct IndexPageHeader\n"
    "struct DictionaryPageHeader\n"
    "1 required i32 num_values\n"
    "2 required Encoding encoding\n"
    "3 optional bool is_sorted\n"
    "struct DataPageHeaderV2\n"
    "1 required i32 num_values\n"
    "2 required i32 num_nulls\n"
    "3 required i32 num_rows\n"
    "4 required Encoding encoding\n"
    "5 required i32 definition_levels_byte_length\n"
    "6 required i32 repetition_levels_byte_length\n"
    "7 default_true bool is_compressed\n"
    "8 optional Statistics statistics\n"
    "struct SplitBlockAlgorithm\n"
    "union BloomFilterAlgorithm\n"
    "1 - SplitBlockAlgorithm BLOCK\n"
    "struct XxHash\n"
    "union BloomFilterHash\n"
    "1 - XxHash XXHASH\n"
    "struct Uncompressed\n"
    "union BloomFilterCompression\n"
    "1 - Uncompressed UNCOMPRESSED\n"
    "struct BloomFilterHeader\n"
    "1 required i32 numBytes\n"
    "2 required BloomFilterAlgorithm algorithm\n"
    "3 required BloomFilterHash hash\n"
    "4 required BloomFilterCompression compression\n"
    "struct PageHeader\n"
    "1 required PageType type\n"
    "2 required i32 uncompressed_page_size\n"
    "3 required i32 compressed_page_size\n"
    "4 optional i32 crc\n"
    "5 optional DataPageHeader data_page_header\n"
    "6 optional IndexPageHeader index_page_header\n"
    "7 optional DictionaryPageHeader dictionary_page_header\n"
    "8 optional DataPageHeaderV2 data_page_header_v2\n"
    "struct KeyValue\n"
    "1 required string key\n"
    "2 optional string value\n"
    "struct SortingColumn\n"
    "1 required i32 column_idx\n"
    "2 required bool descending\n"
    "3 required bool nulls_first\n"
    "struct PageEncodingStats\n"
    "1 required PageType page_type\n"
    "2 required Encoding encoding\n"
    "3 required i32 count\n"
    "struct ColumnMetaData\n"
    "1 required Type type\n"
    "2 required list<Encoding> encodings\n"
    "3 required list<string> path_in_schema\n"
    "4 required CompressionCodec codec\n"
    "5 required i64 num_values\n"
    "6 required i64 total_uncompressed_size\n"
    "7 required i64 total_compressed_size\n"
    "8 optional list<KeyValue> key_value_metadata\n"
    "9 required i64 data_page_offset\n"
    "10 optional i64 index_page_offset\n"
    "11 optional i64 dictionary_page_offset\n"
    "12 optional Statistics statistics\n"
    "13 optional list<PageEncodingStats> encoding_stats\n"
    "14 optional i64 bloom_filter_offset\n"
    "15 optional i32 bloom_filter_length\n"
    "16 optional SizeStatistics size_statistics\n"
    "17 optional GeospatialStatistics geospatial_statistics\n"
    "struct EncryptionWithFooterKey\n"
    "struct EncryptionWithColumnKey\n"
    "1 required list<string> path_in_schema\n"
    "2 optional binary key_metadata\n"
    "union ColumnCryptoMetaData\n"
    "1 - EncryptionWithFooterKey ENCRYPTION_WITH_FOOTER_KEY\n"
    "2 - EncryptionWithColumnKey ENCRYPTION_WITH_COLUMN_KEY\n"
    "struct ColumnChunk\n"
    "1 optional string file_path\n"
    "2 required i64 file_offset\n"
    "3 optional ColumnMetaData meta_data\n"
    "4 optional i64 offset_index_offset\n"
    "5 optional i32 offset_index_length\n"
    "6 optional i64 column_index_offset\n"
    "7 optional i32 column_index_length\n"
    "8 optional ColumnCryptoMetaData crypto_metadata\n"
    "9 optional binary encrypted_column_metadata\n"
    "struct RowGroup\n"
    "1 required list<ColumnChunk> columns\n"
    "2 required i64 total_byte_size\n"
    "3 required i64 num_rows\n"
    "4 optional list<SortingColumn> sorting_columns\n"
    "5 optional i64 file_offset\n"
    "6 optional i64 total_compressed_size\n"
    "7 optional i16 ordinal\n"
    "struct TypeDefinedOrder\n"
    "struct IEEE754TotalOrder\n"
    "struct Int96TimestampOrder\n"
    "union ColumnOrder\n"
    "1 - TypeDefinedOrder TYPE_ORDER\n"
    "2 - IEEE754TotalOrder IEEE_754_TOTAL_ORDER\n"
    "3 - Int96TimestampOrder INT96_TIMESTAMP_ORDER\n"
    "struct PageLocation\n"
    "1 required i64 offset\n"
    "2 required i32 compressed_page_size\n"
    "3 required i64 first_row_index\n"
    "struct OffsetIndex\n"
    "1 required list<PageLocation> page_locations\n"
    "2 optional list<i64> unencoded_byte_array_data_bytes\n"
    "struct ColumnIndex\n"
    "1 required list<bool> null_pages\n"
    "2 required list<binary> min_values\n"
    "3 required list<binary> max_values\n"
    "4 required BoundaryOrder boundary_order\n"
    "5 optional list<i64> null_counts\n"
    "6 optional list<i64> repetition_level_histograms\n"
    "7 optional list<i64> definition_level_histograms\n"
    "8 optional list<i64> nan_counts\n"
    "struct AesGcmV1\n"
    "1 optional binary aad_prefix\n"
    "2 optional binary aad_file_unique\n"
    "3 optional bool supply_aad_prefix\n"
    "struct AesGcmCtrV1\n"
    "1 optional binary aad_prefix\n"
    "2 optional binary aad_file_unique\n"
    "3 optional bool supply_aad_prefix\n"
    "union EncryptionAlgorithm\n"
    "1 - AesGcmV1 AES_GCM_V1\n"
    "2 - AesGcmCtrV1 AES_GCM_CTR_V1\n"
    "struct FileMetaData\n"
    "1 required i32 version\n"
    "2 required list<SchemaElement> schema\n"
    "3 required i64 num_rows\n"
    "4 required list<RowGroup> row_groups\n"
    "5 optional list<KeyValue> key_value_metadata\n"
    "6 optional string created_by\n"
    "7 optional list<ColumnOrder> column_orders\n"
    "8 optional EncryptionAlgorithm encryption_algorithm\n"
    "9 optional binary footer_signing_key_metadata\n"
    "struct FileCryptoMetaData\n"
    "1 required EncryptionAlgorithm encryption_algorithm\n"
    "2 optional binary key_metadata\n";

static const char *kind_name(const pqt_thrift_field *f, int kind) {
  switch (kind) {
    case PQT_TK_BOOL: return "bool";
    case PQT_TK_I8: return "i8";
    case PQT_TK_I16: return "i16";
    case PQT_TK_I32: return "i32";
    case PQT_TK_I64: return "i64";
    case PQT_TK_DOUBLE: return "double";
    case PQT_TK_BINARY: return "binary";
    case PQT_TK_STRING: return "string";
    case PQT_TK_ENUM: return f->en ? f->en->name : "?enum";
    case PQT_TK_STRUCT: return f->sub ? f->sub->name : "?struct";
    default: return "?";
  }
}

static void field_type(const pqt_thrift_field *f, char *out, size_t n) {
  if (f->kind == PQT_TK_LIST) snprintf(out, n, "list<%s>", kind_name(f, f->elem));
  else snprintf(out, n, "%s", kind_name(f, f->kind));
}

static const pqt_thrift_desc *desc_by_name(const char *name) {
  for (size_t i = 0; i < pqt_thrift_n_descs; i++)
    if (strcmp(pqt_thrift_all_descs[i]->name, name) == 0) return pqt_thrift_all_descs[i];
  return NULL;
}

static void test_tables_match_parquet_thrift_facts(void) {
  char line[256];
  const char *p = facts;
  const pqt_thrift_desc *cur = NULL;
  int n_seen_fields = 0, n_structs = 0, n_fields_total = 0;
  const char *seen_names[128];
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = (size_t)(nl - p);
    memcpy(line, p, len);
    line[len] = 0;
    p = nl + 1;
    char a[64], b[64], c[64], d[64];
    if (sscanf(line, "%63s %63s", a, b) == 2 && (!strcmp(a, "struct") || !strcmp(a, "union"))) {
      if (cur)
        CHECK_MSG(n_seen_fields == cur->n_fields, "%s: %d fields in facts, %d in table", cur->name, n_seen_fields,
                  cur->n_fields);
      cur = desc_by_name(b);
      CHECK_MSG(cur != NULL, "no descriptor for %s", b);
      if (!cur) {
        n_seen_fields = 0;
        continue;
      }
      CHECK_MSG(cur->is_union == (a[0] == 'u'), "%s: union flag", b);
      seen_names[n_structs++] = cur->name;
      n_seen_fields = 0;
      continue;
    }
    int id;
    CHECK_MSG(sscanf(line, "%d %63s %63s %63s", &id, b, c, d) == 4, "bad fact line: %s", line);
    if (!cur) continue;
    n_seen_fields++;
    n_fields_total++;
    const pqt_thrift_field *f = pqt_thrift_find_field(cur, (int16_t)id);
    CHECK_MSG(f != NULL, "%s: no field %d (%s)", cur->name, id, d);
    if (!f) continue;
    CHECK_MSG(strcmp(f->name, d) == 0, "%s.%d: name %s, facts say %s", cur->name, id, f->name, d);
    char t[96];
    field_type(f, t, sizeof t);
    CHECK_MSG(strcmp(t, c) == 0, "%s.%s: type %s, facts say %s", cur->name, d, t, c);
    int want_flags = !strcmp(b, "required") ? PQT_TF_REQUIRED : !strcmp(b, "default_true") ? PQT_TF_DEFAULT_TRUE : 0;
    CHECK_MSG(f->flags == want_flags, "%s.%s: flags %d, facts say %s", cur->name, d, f->flags, b);
    if (cur->is_union) CHECK_MSG(!strcmp(b, "-"), "%s.%s: union member marked %s", cur->name, d, b);
  }
  if (cur) CHECK_MSG(n_seen_fields == cur->n_fields, "%s: field count", cur->name);
  /* every table is in the facts, and no struct twice */
  CHECK_EQ_INT((size_t)n_structs, pqt_thrift_n_descs);
  for (int i = 0; i < n_structs; i++)
    for (int j = i + 1; j < n_structs; j++) CHECK(strcmp(seen_names[i], seen_names[j]) != 0);
  CHECK(n_fields_total > 150);
}

static size_t storage_size(const pqt_thrift_field *f) {
  switch (f->kind) {
    case PQT_TK_BOOL: return sizeof(bool);
    case PQT_TK_I8: return 1;
    case PQT_TK_I16: return 2;
    case PQT_TK_I32:
    case PQT_TK_ENUM: return 4;
    case PQT_TK_I64:
    case PQT_TK_DOUBLE: return 8;
    case PQT_TK_BINARY:
    case PQT_TK_STRING: return sizeof(pqt_bytes);
    case PQT_TK_STRUCT: return f->sub->size;
    case PQT_TK_LIST: return sizeof(pqt_list_i64);
    default: return 0;
  }
}

static void test_table_invariants(void) {
  for (size_t i = 0; i < pqt_thrift_n_descs; i++) {
    const pqt_thrift_desc *d = pqt_thrift_all_descs[i];
    CHECK_MSG(d->n_fields == 0 || d->size >= sizeof(uint32_t), "%s: size", d->name);
    for (uint16_t k = 0; k < d->n_fields; k++) {
      const pqt_thrift_field *f = &d->fields[k];
      CHECK_MSG(f->id > 0 && f->id < 32, "%s.%s: id %d", d->name, f->name, f->id);
      if (k) CHECK_MSG(f->id > d->fields[k - 1].id, "%s: ids not sorted at %s", d->name, f->name);
      if (f->kind == PQT_TK_STRUCT || (f->kind == PQT_TK_LIST && f->elem == PQT_TK_STRUCT))
        CHECK_MSG(f->sub != NULL, "%s.%s: no sub", d->name, f->name);
      if (f->kind == PQT_TK_ENUM || (f->kind == PQT_TK_LIST && f->elem == PQT_TK_ENUM))
        CHECK_MSG(f->en != NULL, "%s.%s: no enum", d->name, f->name);
      if (f->offset == PQT_TF_NO_STORAGE) {
        CHECK_MSG(f->kind == PQT_TK_STRUCT && f->sub->size == 0 && d->is_union,
                  "%s.%s: only empty union members may store nothing", d->name, f->name);
        continue;
      }
      size_t sz = storage_size(f);
      CHECK_MSG(f->offset >= (int32_t)sizeof(uint32_t) && f->offset + sz <= d->size,
                "%s.%s: offset %d size %zu outside %u", d->name, f->name, f->offset, sz, d->size);
      /* no two members overlap */
      for (uint16_t m = 0; m < k; m++) {
        const pqt_thrift_field *g = &d->fields[m];
        if (g->offset == PQT_TF_NO_STORAGE) continue;
        size_t gs = storage_size(g);
        bool overlap = f->offset < g->offset + (int32_t)gs && g->offset < f->offset + (int32_t)sz;
        CHECK_MSG(!overlap, "%s: %s overlaps %s", d->name, f->name, g->name);
      }
    }
  }
  /* a few C-side facts */
  CHECK_EQ_INT(pqt_desc_file_metadata.size, sizeof(pqt_file_metadata));
  CHECK_EQ_INT(pqt_desc_bloom_filter_algorithm.size, sizeof(uint32_t));
  CHECK(pqt_desc_logical_type.is_union && pqt_desc_column_order.is_union);
}

static void test_enum_tables(void) {
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_type, PQT_FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
  CHECK_EQ_INT(pqt_enum_type.count, 8);
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_converted_type, PQT_CT_INTERVAL), "INTERVAL");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_converted_type, PQT_CT_UINT_8), "UINT_8");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_converted_type, PQT_CT_INT_8), "INT_8");
  CHECK_EQ_INT(pqt_enum_converted_type.count, 22);
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_field_repetition_type, PQT_VECTOR), "VECTOR");
  CHECK(pqt_thrift_enum_name(&pqt_enum_encoding, 1) == NULL);
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_encoding, PQT_ENC_PLAIN_DICTIONARY), "PLAIN_DICTIONARY");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_encoding, PQT_ENC_RLE_DICTIONARY), "RLE_DICTIONARY");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_encoding, PQT_ENC_BYTE_STREAM_SPLIT), "BYTE_STREAM_SPLIT");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_encoding, PQT_ENC_ALP), "ALP"); /* preview in parquet-format */
  CHECK(pqt_thrift_enum_name(&pqt_enum_encoding, 11) == NULL);
  CHECK(pqt_thrift_enum_name(&pqt_enum_encoding, -1) == NULL);
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_compression_codec, PQT_CODEC_LZ4_RAW), "LZ4_RAW");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_compression_codec, PQT_CODEC_SNAPPY), "SNAPPY");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_page_type, PQT_PAGE_DATA_V2), "DATA_PAGE_V2");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_boundary_order, PQT_BOUNDARY_DESCENDING), "DESCENDING");
  CHECK_EQ_STR(pqt_thrift_enum_name(&pqt_enum_edge_interpolation_algorithm, PQT_EDGE_KARNEY), "KARNEY");
}

RUN_TESTS("thrift_desc", TEST_CASE(test_tables_match_parquet_thrift_facts), TEST_CASE(test_table_invariants),
          TEST_CASE(test_enum_tables))
