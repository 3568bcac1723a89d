/*
 * thrift/parquet_desc.c: descriptor tables for parquet.thrift (parquet-format README.md,
 * "Metadata"; field ids, types, requiredness and names transcribed from
 * apache/parquet-format src/main/thrift/parquet.thrift, including VECTOR,
 * IEEE754TotalOrder and Int96TimestampOrder). tests/unit/test_thrift_desc.c
 * checks every row against an independent transcription of those facts.
 * The rows are generated from the field lists of thrift/parquet_fields.h
 * (ids, names, kinds, requiredness); rows stay sorted by field id there (the
 * encoder writes in table order).
 */
#include "thrift/parquet_desc.h"

/* ---- enums ------------------------------------------------------------ */

#define ENUM_TABLE(var, tname, ...)                       \
  static const char *const var##_names[] = {__VA_ARGS__}; \
  const pqt_thrift_enum var = {tname, var##_names, (int32_t)(sizeof var##_names / sizeof var##_names[0])}

static bool name_equal(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a, y = *b;
    if (x >= 'a' && x <= 'z') x = (char)(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = (char)(y - 'a' + 'A');
    if (x != y) return false;
  }
  return *a == *b;
}

int32_t pqt_enum_from_name(const pqt_thrift_enum *e, const char *name) {
  if (!name) return -1;
  for (int32_t i = 0; i < e->count; i++)
    if (e->names[i] && name_equal(name, e->names[i])) return i;
  return -1;
}

ENUM_TABLE(pqt_enum_type, "Type", "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
           "FIXED_LEN_BYTE_ARRAY");
ENUM_TABLE(pqt_enum_converted_type, "ConvertedType", "UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
           "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32",
           "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL");
ENUM_TABLE(pqt_enum_field_repetition_type, "FieldRepetitionType", "REQUIRED", "OPTIONAL", "REPEATED", "VECTOR");
ENUM_TABLE(pqt_enum_encoding, "Encoding", "PLAIN", NULL /* GROUP_VAR_INT, never used */, "PLAIN_DICTIONARY", "RLE",
           "BIT_PACKED", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY",
           "BYTE_STREAM_SPLIT", "ALP");
ENUM_TABLE(pqt_enum_compression_codec, "CompressionCodec", "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4",
           "ZSTD", "LZ4_RAW");
ENUM_TABLE(pqt_enum_page_type, "PageType", "DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2");
ENUM_TABLE(pqt_enum_boundary_order, "BoundaryOrder", "UNORDERED", "ASCENDING", "DESCENDING");
ENUM_TABLE(pqt_enum_edge_interpolation_algorithm, "EdgeInterpolationAlgorithm", "SPHERICAL", "VINCENTY", "THOMAS",
           "ANDOYER", "KARNEY");

/* ---- row macros -------------------------------------------------------- */

/* One descriptor row per X(S, field, id, kind, "ThriftName", arg, req) entry
 * of the field lists in thrift/parquet_fields.h (the only place ids are
 * written); ST is the C struct of the list being expanded. */
#define ROW(S, m, id, kind, nm, arg, req) ROW_##kind(id, nm, arg, REQ_##req, m),
#define REQ_REQ                           PQT_TF_REQUIRED
#define REQ_OPT                           0
#define REQ_DEFAULT_TRUE                  PQT_TF_DEFAULT_TRUE
#define OFF(m)                            ((int32_t)offsetof(ST, m))
#define ROW_SCALAR(id, nm, kind, fl, m) \
  { nm, id, kind, 0, fl, OFF(m), NULL, NULL }
#define ROW_ENUM(id, nm, en, fl, m) \
  { nm, id, PQT_TK_ENUM, 0, fl, OFF(m), NULL, &en }
#define ROW_STRUCT(id, nm, sub, fl, m) \
  { nm, id, PQT_TK_STRUCT, 0, fl, OFF(m), &sub, NULL }
/* union member that is an empty marker struct: stores nothing */
#define ROW_EMPTY(id, nm, sub, fl, m) \
  { nm, id, PQT_TK_STRUCT, 0, 0, PQT_TF_NO_STORAGE, &sub, NULL }
#define ROW_LIST(id, nm, ek, fl, m) \
  { nm, id, PQT_TK_LIST, ek, fl, OFF(m), NULL, NULL }
#define ROW_LIST_ENUM(id, nm, en, fl, m) \
  { nm, id, PQT_TK_LIST, PQT_TK_ENUM, fl, OFF(m), NULL, &en }
#define ROW_LIST_STRUCT(id, nm, sub, fl, m) \
  { nm, id, PQT_TK_LIST, PQT_TK_STRUCT, fl, OFF(m), &sub, NULL }

#define NFIELDS(a) ((uint16_t)(sizeof(a) / sizeof(a[0])))
#define STRUCT_DESC(var, tname, rows, ctype) \
  const pqt_thrift_desc var = {tname, rows, NFIELDS(rows), 0, (uint32_t)sizeof(ctype)}
#define UNION_DESC(var, tname, rows, ctype) \
  const pqt_thrift_desc var = {tname, rows, NFIELDS(rows), 1, (uint32_t)sizeof(ctype)}
#define EMPTY_DESC(var, tname) const pqt_thrift_desc var = {tname, NULL, 0, 0, 0}

/* ---- empty marker structs ------------------------------------------- */

EMPTY_DESC(pqt_desc_string_type, "StringType");
EMPTY_DESC(pqt_desc_uuid_type, "UUIDType");
EMPTY_DESC(pqt_desc_map_type, "MapType");
EMPTY_DESC(pqt_desc_list_type, "ListType");
EMPTY_DESC(pqt_desc_vector_type, "VectorType");
EMPTY_DESC(pqt_desc_enum_type, "EnumType");
EMPTY_DESC(pqt_desc_date_type, "DateType");
EMPTY_DESC(pqt_desc_float16_type, "Float16Type");
EMPTY_DESC(pqt_desc_null_type, "NullType");
EMPTY_DESC(pqt_desc_json_type, "JsonType");
EMPTY_DESC(pqt_desc_bson_type, "BsonType");
EMPTY_DESC(pqt_desc_milli_seconds, "MilliSeconds");
EMPTY_DESC(pqt_desc_micro_seconds, "MicroSeconds");
EMPTY_DESC(pqt_desc_nano_seconds, "NanoSeconds");
EMPTY_DESC(pqt_desc_split_block_algorithm, "SplitBlockAlgorithm");
EMPTY_DESC(pqt_desc_xx_hash, "XxHash");
EMPTY_DESC(pqt_desc_uncompressed, "Uncompressed");
EMPTY_DESC(pqt_desc_encryption_with_footer_key, "EncryptionWithFooterKey");
EMPTY_DESC(pqt_desc_type_defined_order, "TypeDefinedOrder");
EMPTY_DESC(pqt_desc_ieee754_total_order, "IEEE754TotalOrder");
EMPTY_DESC(pqt_desc_int96_timestamp_order, "Int96TimestampOrder");

/* ---- statistics --------------------------------------------------------- */

#define ST pqt_size_statistics
static const pqt_thrift_field size_statistics_rows[] = {PQT_FIELDS_size_statistics(ROW, ST)};
STRUCT_DESC(pqt_desc_size_statistics, "SizeStatistics", size_statistics_rows, ST);
#undef ST

#define ST pqt_bounding_box
static const pqt_thrift_field bounding_box_rows[] = {PQT_FIELDS_bounding_box(ROW, ST)};
STRUCT_DESC(pqt_desc_bounding_box, "BoundingBox", bounding_box_rows, ST);
#undef ST

#define ST pqt_geospatial_statistics
static const pqt_thrift_field geospatial_statistics_rows[] = {PQT_FIELDS_geospatial_statistics(ROW, ST)};
STRUCT_DESC(pqt_desc_geospatial_statistics, "GeospatialStatistics", geospatial_statistics_rows, ST);
#undef ST

#define ST pqt_statistics
static const pqt_thrift_field statistics_rows[] = {PQT_FIELDS_statistics(ROW, ST)};
STRUCT_DESC(pqt_desc_statistics, "Statistics", statistics_rows, ST);
#undef ST

/* ---- logical types ------------------------------------------------------ */

#define ST pqt_decimal_type
static const pqt_thrift_field decimal_type_rows[] = {PQT_FIELDS_decimal_type(ROW, ST)};
STRUCT_DESC(pqt_desc_decimal_type, "DecimalType", decimal_type_rows, ST);
#undef ST

static const pqt_thrift_field time_unit_rows[] = {PQT_FIELDS_time_unit(ROW, ST)};
UNION_DESC(pqt_desc_time_unit, "TimeUnit", time_unit_rows, pqt_time_unit);

#define ST pqt_timestamp_type
static const pqt_thrift_field timestamp_type_rows[] = {PQT_FIELDS_time_type(ROW, ST)};
STRUCT_DESC(pqt_desc_timestamp_type, "TimestampType", timestamp_type_rows, ST);
#undef ST

#define ST pqt_time_type
static const pqt_thrift_field time_type_rows[] = {PQT_FIELDS_time_type(ROW, ST)};
STRUCT_DESC(pqt_desc_time_type, "TimeType", time_type_rows, ST);
#undef ST

#define ST pqt_int_type
static const pqt_thrift_field int_type_rows[] = {PQT_FIELDS_int_type(ROW, ST)};
STRUCT_DESC(pqt_desc_int_type, "IntType", int_type_rows, ST);
#undef ST

#define ST pqt_variant_type
static const pqt_thrift_field variant_type_rows[] = {PQT_FIELDS_variant_type(ROW, ST)};
STRUCT_DESC(pqt_desc_variant_type, "VariantType", variant_type_rows, ST);
#undef ST

#define ST pqt_geometry_type
static const pqt_thrift_field geometry_type_rows[] = {PQT_FIELDS_geometry_type(ROW, ST)};
STRUCT_DESC(pqt_desc_geometry_type, "GeometryType", geometry_type_rows, ST);
#undef ST

#define ST pqt_geography_type
static const pqt_thrift_field geography_type_rows[] = {PQT_FIELDS_geography_type(ROW, ST)};
STRUCT_DESC(pqt_desc_geography_type, "GeographyType", geography_type_rows, ST);
#undef ST

#define ST pqt_logical_type
static const pqt_thrift_field logical_type_rows[] = {PQT_FIELDS_logical_type(ROW, ST)};
UNION_DESC(pqt_desc_logical_type, "LogicalType", logical_type_rows, ST);
#undef ST

#define ST pqt_schema_element
static const pqt_thrift_field schema_element_rows[] = {PQT_FIELDS_schema_element(ROW, ST)};
STRUCT_DESC(pqt_desc_schema_element, "SchemaElement", schema_element_rows, ST);
#undef ST

/* ---- pages --------------------------------------------------------------- */

#define ST pqt_data_page_header
static const pqt_thrift_field data_page_header_rows[] = {PQT_FIELDS_data_page_header(ROW, ST)};
STRUCT_DESC(pqt_desc_data_page_header, "DataPageHeader", data_page_header_rows, ST);
#undef ST

const pqt_thrift_desc pqt_desc_index_page_header = {"IndexPageHeader", NULL, 0, 0,
                                                    (uint32_t)sizeof(pqt_index_page_header)};

#define ST pqt_dictionary_page_header
static const pqt_thrift_field dictionary_page_header_rows[] = {PQT_FIELDS_dictionary_page_header(ROW, ST)};
STRUCT_DESC(pqt_desc_dictionary_page_header, "DictionaryPageHeader", dictionary_page_header_rows, ST);
#undef ST

#define ST pqt_data_page_header_v2
static const pqt_thrift_field data_page_header_v2_rows[] = {PQT_FIELDS_data_page_header_v2(ROW, ST)};
STRUCT_DESC(pqt_desc_data_page_header_v2, "DataPageHeaderV2", data_page_header_v2_rows, ST);
#undef ST

static const pqt_thrift_field bloom_filter_algorithm_rows[] = {PQT_FIELDS_bloom_filter_algorithm(ROW, ST)};
UNION_DESC(pqt_desc_bloom_filter_algorithm, "BloomFilterAlgorithm", bloom_filter_algorithm_rows, uint32_t);
static const pqt_thrift_field bloom_filter_hash_rows[] = {PQT_FIELDS_bloom_filter_hash(ROW, ST)};
UNION_DESC(pqt_desc_bloom_filter_hash, "BloomFilterHash", bloom_filter_hash_rows, uint32_t);
static const pqt_thrift_field bloom_filter_compression_rows[] = {PQT_FIELDS_bloom_filter_compression(ROW, ST)};
UNION_DESC(pqt_desc_bloom_filter_compression, "BloomFilterCompression", bloom_filter_compression_rows, uint32_t);

#define ST pqt_bloom_filter_header
static const pqt_thrift_field bloom_filter_header_rows[] = {PQT_FIELDS_bloom_filter_header(ROW, ST)};
STRUCT_DESC(pqt_desc_bloom_filter_header, "BloomFilterHeader", bloom_filter_header_rows, ST);
#undef ST

#define ST pqt_page_header
static const pqt_thrift_field page_header_rows[] = {PQT_FIELDS_page_header(ROW, ST)};
STRUCT_DESC(pqt_desc_page_header, "PageHeader", page_header_rows, ST);
#undef ST

/* ---- column chunks and row groups --------------------------------------- */

#define ST pqt_key_value
static const pqt_thrift_field key_value_rows[] = {PQT_FIELDS_key_value(ROW, ST)};
STRUCT_DESC(pqt_desc_key_value, "KeyValue", key_value_rows, ST);
#undef ST

#define ST pqt_sorting_column
static const pqt_thrift_field sorting_column_rows[] = {PQT_FIELDS_sorting_column(ROW, ST)};
STRUCT_DESC(pqt_desc_sorting_column, "SortingColumn", sorting_column_rows, ST);
#undef ST

#define ST pqt_page_encoding_stats
static const pqt_thrift_field page_encoding_stats_rows[] = {PQT_FIELDS_page_encoding_stats(ROW, ST)};
STRUCT_DESC(pqt_desc_page_encoding_stats, "PageEncodingStats", page_encoding_stats_rows, ST);
#undef ST

#define ST pqt_column_metadata
static const pqt_thrift_field column_metadata_rows[] = {PQT_FIELDS_column_metadata(ROW, ST)};
STRUCT_DESC(pqt_desc_column_metadata, "ColumnMetaData", column_metadata_rows, ST);
#undef ST

#define ST pqt_encryption_with_column_key
static const pqt_thrift_field encryption_with_column_key_rows[] = {PQT_FIELDS_encryption_with_column_key(ROW, ST)};
STRUCT_DESC(pqt_desc_encryption_with_column_key, "EncryptionWithColumnKey", encryption_with_column_key_rows, ST);
#undef ST

#define ST pqt_column_crypto_metadata
static const pqt_thrift_field column_crypto_metadata_rows[] = {PQT_FIELDS_column_crypto_metadata(ROW, ST)};
UNION_DESC(pqt_desc_column_crypto_metadata, "ColumnCryptoMetaData", column_crypto_metadata_rows, ST);
#undef ST

#define ST pqt_column_chunk
static const pqt_thrift_field column_chunk_rows[] = {PQT_FIELDS_column_chunk(ROW, ST)};
STRUCT_DESC(pqt_desc_column_chunk, "ColumnChunk", column_chunk_rows, ST);
#undef ST

#define ST pqt_row_group
static const pqt_thrift_field row_group_rows[] = {PQT_FIELDS_row_group(ROW, ST)};
STRUCT_DESC(pqt_desc_row_group, "RowGroup", row_group_rows, ST);
#undef ST

static const pqt_thrift_field column_order_rows[] = {PQT_FIELDS_column_order(ROW, ST)};
UNION_DESC(pqt_desc_column_order, "ColumnOrder", column_order_rows, pqt_column_order);

/* ---- page index ---------------------------------------------------------- */

#define ST pqt_page_location
static const pqt_thrift_field page_location_rows[] = {PQT_FIELDS_page_location(ROW, ST)};
STRUCT_DESC(pqt_desc_page_location, "PageLocation", page_location_rows, ST);
#undef ST

#define ST pqt_offset_index
static const pqt_thrift_field offset_index_rows[] = {PQT_FIELDS_offset_index(ROW, ST)};
STRUCT_DESC(pqt_desc_offset_index, "OffsetIndex", offset_index_rows, ST);
#undef ST

#define ST pqt_column_index
static const pqt_thrift_field column_index_rows[] = {PQT_FIELDS_column_index(ROW, ST)};
STRUCT_DESC(pqt_desc_column_index, "ColumnIndex", column_index_rows, ST);
#undef ST

/* ---- encryption ------------------------------------------------------------ */

#define ST pqt_aes_gcm_v1
static const pqt_thrift_field aes_gcm_rows[] = {PQT_FIELDS_aes_gcm_v1(ROW, ST)};
STRUCT_DESC(pqt_desc_aes_gcm_v1, "AesGcmV1", aes_gcm_rows, ST);
STRUCT_DESC(pqt_desc_aes_gcm_ctr_v1, "AesGcmCtrV1", aes_gcm_rows, ST);
#undef ST

#define ST pqt_encryption_algorithm
static const pqt_thrift_field encryption_algorithm_rows[] = {PQT_FIELDS_encryption_algorithm(ROW, ST)};
UNION_DESC(pqt_desc_encryption_algorithm, "EncryptionAlgorithm", encryption_algorithm_rows, ST);
#undef ST

#define ST pqt_file_metadata
static const pqt_thrift_field file_metadata_rows[] = {PQT_FIELDS_file_metadata(ROW, ST)};
STRUCT_DESC(pqt_desc_file_metadata, "FileMetaData", file_metadata_rows, ST);
#undef ST

#define ST pqt_file_crypto_metadata
static const pqt_thrift_field file_crypto_metadata_rows[] = {PQT_FIELDS_file_crypto_metadata(ROW, ST)};
STRUCT_DESC(pqt_desc_file_crypto_metadata, "FileCryptoMetaData", file_crypto_metadata_rows, ST);
#undef ST

const pqt_thrift_desc *const pqt_thrift_all_descs[] = {
    &pqt_desc_size_statistics,
    &pqt_desc_bounding_box,
    &pqt_desc_geospatial_statistics,
    &pqt_desc_statistics,
    &pqt_desc_string_type,
    &pqt_desc_uuid_type,
    &pqt_desc_map_type,
    &pqt_desc_list_type,
    &pqt_desc_vector_type,
    &pqt_desc_enum_type,
    &pqt_desc_date_type,
    &pqt_desc_float16_type,
    &pqt_desc_null_type,
    &pqt_desc_decimal_type,
    &pqt_desc_milli_seconds,
    &pqt_desc_micro_seconds,
    &pqt_desc_nano_seconds,
    &pqt_desc_time_unit,
    &pqt_desc_timestamp_type,
    &pqt_desc_time_type,
    &pqt_desc_int_type,
    &pqt_desc_json_type,
    &pqt_desc_bson_type,
    &pqt_desc_variant_type,
    &pqt_desc_geometry_type,
    &pqt_desc_geography_type,
    &pqt_desc_logical_type,
    &pqt_desc_schema_element,
    &pqt_desc_data_page_header,
    &pqt_desc_index_page_header,
    &pqt_desc_dictionary_page_header,
    &pqt_desc_data_page_header_v2,
    &pqt_desc_split_block_algorithm,
    &pqt_desc_bloom_filter_algorithm,
    &pqt_desc_xx_hash,
    &pqt_desc_bloom_filter_hash,
    &pqt_desc_uncompressed,
    &pqt_desc_bloom_filter_compression,
    &pqt_desc_bloom_filter_header,
    &pqt_desc_page_header,
    &pqt_desc_key_value,
    &pqt_desc_sorting_column,
    &pqt_desc_page_encoding_stats,
    &pqt_desc_column_metadata,
    &pqt_desc_encryption_with_footer_key,
    &pqt_desc_encryption_with_column_key,
    &pqt_desc_column_crypto_metadata,
    &pqt_desc_column_chunk,
    &pqt_desc_row_group,
    &pqt_desc_type_defined_order,
    &pqt_desc_ieee754_total_order,
    &pqt_desc_int96_timestamp_order,
    &pqt_desc_column_order,
    &pqt_desc_page_location,
    &pqt_desc_offset_index,
    &pqt_desc_column_index,
    &pqt_desc_aes_gcm_v1,
    &pqt_desc_aes_gcm_ctr_v1,
    &pqt_desc_encryption_algorithm,
    &pqt_desc_file_metadata,
    &pqt_desc_file_crypto_metadata,
};
const size_t pqt_thrift_n_descs = sizeof pqt_thrift_all_descs / sizeof pqt_thrift_all_descs[0];
