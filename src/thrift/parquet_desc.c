/*
 * thrift/parquet_desc.c: descriptor tables for parquet.thrift (seed 002,
 * "Metadata"; field ids, types, requiredness and names transcribed from
 * apache/parquet-format src/main/thrift/parquet.thrift, including VECTOR,
 * IEEE754TotalOrder and Int96TimestampOrder). tests/unit/test_thrift_desc.c
 * checks every row against an independent transcription of those facts.
 * Rows must stay sorted by field id (the encoder writes in table order).
 */
#include "thrift/parquet_desc.h"

/* ---- enums ------------------------------------------------------------ */

#define ENUM_TABLE(var, tname, ...)                                             \
  static const char *const var##_names[] = {__VA_ARGS__};                      \
  const pqt_thrift_enum var = {tname, var##_names,                             \
                               (int32_t)(sizeof var##_names / sizeof var##_names[0])}

ENUM_TABLE(pqt_enum_type, "Type", "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
           "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY");
ENUM_TABLE(pqt_enum_converted_type, "ConvertedType", "UTF8", "MAP", "MAP_KEY_VALUE", "LIST",
           "ENUM", "DECIMAL", "DATE", "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS",
           "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8", "INT_16",
           "INT_32", "INT_64", "JSON", "BSON", "INTERVAL");
ENUM_TABLE(pqt_enum_field_repetition_type, "FieldRepetitionType", "REQUIRED", "OPTIONAL",
           "REPEATED", "VECTOR");
ENUM_TABLE(pqt_enum_encoding, "Encoding", "PLAIN", NULL /* GROUP_VAR_INT, never used */,
           "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
           "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY",
           "BYTE_STREAM_SPLIT");
ENUM_TABLE(pqt_enum_compression_codec, "CompressionCodec", "UNCOMPRESSED", "SNAPPY", "GZIP",
           "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW");
ENUM_TABLE(pqt_enum_page_type, "PageType", "DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
           "DATA_PAGE_V2");
ENUM_TABLE(pqt_enum_boundary_order, "BoundaryOrder", "UNORDERED", "ASCENDING", "DESCENDING");
ENUM_TABLE(pqt_enum_edge_interpolation_algorithm, "EdgeInterpolationAlgorithm", "SPHERICAL",
           "VINCENTY", "THOMAS", "ANDOYER", "KARNEY");

/* ---- row macros -------------------------------------------------------- */

#define R PQT_TF_REQUIRED
#define O 0
#define OFF(m) ((int32_t)offsetof(ST, m))
/* scalar field */
#define F(id, nm, kind, fl, m) {nm, id, kind, 0, fl, OFF(m), NULL, NULL}
#define F_ENUM(id, nm, en, fl, m) {nm, id, PQT_TK_ENUM, 0, fl, OFF(m), NULL, &en}
#define F_STRUCT(id, nm, sub, fl, m) {nm, id, PQT_TK_STRUCT, 0, fl, OFF(m), &sub, NULL}
/* union member that is an empty marker struct: stores nothing */
#define F_EMPTY(id, nm, sub) {nm, id, PQT_TK_STRUCT, 0, 0, PQT_TF_NO_STORAGE, &sub, NULL}
#define F_LIST(id, nm, ek, fl, m) {nm, id, PQT_TK_LIST, ek, fl, OFF(m), NULL, NULL}
#define F_LIST_ENUM(id, nm, en, fl, m) {nm, id, PQT_TK_LIST, PQT_TK_ENUM, fl, OFF(m), NULL, &en}
#define F_LIST_STRUCT(id, nm, sub, fl, m) {nm, id, PQT_TK_LIST, PQT_TK_STRUCT, fl, OFF(m), &sub, NULL}

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
static const pqt_thrift_field size_statistics_rows[] = {
    F(1, "unencoded_byte_array_data_bytes", PQT_TK_I64, O, unencoded_byte_array_data_bytes),
    F_LIST(2, "repetition_level_histogram", PQT_TK_I64, O, repetition_level_histogram),
    F_LIST(3, "definition_level_histogram", PQT_TK_I64, O, definition_level_histogram),
};
STRUCT_DESC(pqt_desc_size_statistics, "SizeStatistics", size_statistics_rows, ST);
#undef ST

#define ST pqt_bounding_box
static const pqt_thrift_field bounding_box_rows[] = {
    F(1, "xmin", PQT_TK_DOUBLE, R, xmin), F(2, "xmax", PQT_TK_DOUBLE, R, xmax),
    F(3, "ymin", PQT_TK_DOUBLE, R, ymin), F(4, "ymax", PQT_TK_DOUBLE, R, ymax),
    F(5, "zmin", PQT_TK_DOUBLE, O, zmin), F(6, "zmax", PQT_TK_DOUBLE, O, zmax),
    F(7, "mmin", PQT_TK_DOUBLE, O, mmin), F(8, "mmax", PQT_TK_DOUBLE, O, mmax),
};
STRUCT_DESC(pqt_desc_bounding_box, "BoundingBox", bounding_box_rows, ST);
#undef ST

#define ST pqt_geospatial_statistics
static const pqt_thrift_field geospatial_statistics_rows[] = {
    F_STRUCT(1, "bbox", pqt_desc_bounding_box, O, bbox),
    F_LIST(2, "geospatial_types", PQT_TK_I32, O, geospatial_types),
};
STRUCT_DESC(pqt_desc_geospatial_statistics, "GeospatialStatistics", geospatial_statistics_rows, ST);
#undef ST

#define ST pqt_statistics
static const pqt_thrift_field statistics_rows[] = {
    F(1, "max", PQT_TK_BINARY, O, max),
    F(2, "min", PQT_TK_BINARY, O, min),
    F(3, "null_count", PQT_TK_I64, O, null_count),
    F(4, "distinct_count", PQT_TK_I64, O, distinct_count),
    F(5, "max_value", PQT_TK_BINARY, O, max_value),
    F(6, "min_value", PQT_TK_BINARY, O, min_value),
    F(7, "is_max_value_exact", PQT_TK_BOOL, O, is_max_value_exact),
    F(8, "is_min_value_exact", PQT_TK_BOOL, O, is_min_value_exact),
    F(9, "nan_count", PQT_TK_I64, O, nan_count),
};
STRUCT_DESC(pqt_desc_statistics, "Statistics", statistics_rows, ST);
#undef ST

/* ---- logical types ------------------------------------------------------ */

#define ST pqt_decimal_type
static const pqt_thrift_field decimal_type_rows[] = {
    F(1, "scale", PQT_TK_I32, R, scale),
    F(2, "precision", PQT_TK_I32, R, precision),
};
STRUCT_DESC(pqt_desc_decimal_type, "DecimalType", decimal_type_rows, ST);
#undef ST

static const pqt_thrift_field time_unit_rows[] = {
    F_EMPTY(1, "MILLIS", pqt_desc_milli_seconds),
    F_EMPTY(2, "MICROS", pqt_desc_micro_seconds),
    F_EMPTY(3, "NANOS", pqt_desc_nano_seconds),
};
UNION_DESC(pqt_desc_time_unit, "TimeUnit", time_unit_rows, pqt_time_unit);

#define ST pqt_timestamp_type
static const pqt_thrift_field timestamp_type_rows[] = {
    F(1, "isAdjustedToUTC", PQT_TK_BOOL, R, is_adjusted_to_utc),
    F_STRUCT(2, "unit", pqt_desc_time_unit, R, unit),
};
STRUCT_DESC(pqt_desc_timestamp_type, "TimestampType", timestamp_type_rows, ST);
#undef ST

#define ST pqt_time_type
static const pqt_thrift_field time_type_rows[] = {
    F(1, "isAdjustedToUTC", PQT_TK_BOOL, R, is_adjusted_to_utc),
    F_STRUCT(2, "unit", pqt_desc_time_unit, R, unit),
};
STRUCT_DESC(pqt_desc_time_type, "TimeType", time_type_rows, ST);
#undef ST

#define ST pqt_int_type
static const pqt_thrift_field int_type_rows[] = {
    F(1, "bitWidth", PQT_TK_I8, R, bit_width),
    F(2, "isSigned", PQT_TK_BOOL, R, is_signed),
};
STRUCT_DESC(pqt_desc_int_type, "IntType", int_type_rows, ST);
#undef ST

#define ST pqt_variant_type
static const pqt_thrift_field variant_type_rows[] = {
    F(1, "specification_version", PQT_TK_I8, O, specification_version),
};
STRUCT_DESC(pqt_desc_variant_type, "VariantType", variant_type_rows, ST);
#undef ST

#define ST pqt_geometry_type
static const pqt_thrift_field geometry_type_rows[] = {
    F(1, "crs", PQT_TK_STRING, O, crs),
};
STRUCT_DESC(pqt_desc_geometry_type, "GeometryType", geometry_type_rows, ST);
#undef ST

#define ST pqt_geography_type
static const pqt_thrift_field geography_type_rows[] = {
    F(1, "crs", PQT_TK_STRING, O, crs),
    F_ENUM(2, "algorithm", pqt_enum_edge_interpolation_algorithm, O, algorithm),
};
STRUCT_DESC(pqt_desc_geography_type, "GeographyType", geography_type_rows, ST);
#undef ST

#define ST pqt_logical_type
static const pqt_thrift_field logical_type_rows[] = {
    F_EMPTY(1, "STRING", pqt_desc_string_type),
    F_EMPTY(2, "MAP", pqt_desc_map_type),
    F_EMPTY(3, "LIST", pqt_desc_list_type),
    F_EMPTY(4, "ENUM", pqt_desc_enum_type),
    F_STRUCT(5, "DECIMAL", pqt_desc_decimal_type, O, decimal),
    F_EMPTY(6, "DATE", pqt_desc_date_type),
    F_STRUCT(7, "TIME", pqt_desc_time_type, O, time),
    F_STRUCT(8, "TIMESTAMP", pqt_desc_timestamp_type, O, timestamp),
    /* 9 reserved for INTERVAL */
    F_STRUCT(10, "INTEGER", pqt_desc_int_type, O, integer),
    F_EMPTY(11, "UNKNOWN", pqt_desc_null_type),
    F_EMPTY(12, "JSON", pqt_desc_json_type),
    F_EMPTY(13, "BSON", pqt_desc_bson_type),
    F_EMPTY(14, "UUID", pqt_desc_uuid_type),
    F_EMPTY(15, "FLOAT16", pqt_desc_float16_type),
    F_STRUCT(16, "VARIANT", pqt_desc_variant_type, O, variant),
    F_STRUCT(17, "GEOMETRY", pqt_desc_geometry_type, O, geometry),
    F_STRUCT(18, "GEOGRAPHY", pqt_desc_geography_type, O, geography),
    F_EMPTY(19, "VECTOR", pqt_desc_vector_type),
};
UNION_DESC(pqt_desc_logical_type, "LogicalType", logical_type_rows, ST);
#undef ST

#define ST pqt_schema_element
static const pqt_thrift_field schema_element_rows[] = {
    F_ENUM(1, "type", pqt_enum_type, O, type),
    F(2, "type_length", PQT_TK_I32, O, type_length),
    F_ENUM(3, "repetition_type", pqt_enum_field_repetition_type, O, repetition_type),
    F(4, "name", PQT_TK_STRING, R, name),
    F(5, "num_children", PQT_TK_I32, O, num_children),
    F_ENUM(6, "converted_type", pqt_enum_converted_type, O, converted_type),
    F(7, "scale", PQT_TK_I32, O, scale),
    F(8, "precision", PQT_TK_I32, O, precision),
    F(9, "field_id", PQT_TK_I32, O, field_id),
    F_STRUCT(10, "logicalType", pqt_desc_logical_type, O, logical_type),
    F(11, "vector_length", PQT_TK_I32, O, vector_length),
};
STRUCT_DESC(pqt_desc_schema_element, "SchemaElement", schema_element_rows, ST);
#undef ST

/* ---- pages --------------------------------------------------------------- */

#define ST pqt_data_page_header
static const pqt_thrift_field data_page_header_rows[] = {
    F(1, "num_values", PQT_TK_I32, R, num_values),
    F_ENUM(2, "encoding", pqt_enum_encoding, R, encoding),
    F_ENUM(3, "definition_level_encoding", pqt_enum_encoding, R, definition_level_encoding),
    F_ENUM(4, "repetition_level_encoding", pqt_enum_encoding, R, repetition_level_encoding),
    F_STRUCT(5, "statistics", pqt_desc_statistics, O, statistics),
};
STRUCT_DESC(pqt_desc_data_page_header, "DataPageHeader", data_page_header_rows, ST);
#undef ST

const pqt_thrift_desc pqt_desc_index_page_header = {"IndexPageHeader", NULL, 0, 0,
                                                    (uint32_t)sizeof(pqt_index_page_header)};

#define ST pqt_dictionary_page_header
static const pqt_thrift_field dictionary_page_header_rows[] = {
    F(1, "num_values", PQT_TK_I32, R, num_values),
    F_ENUM(2, "encoding", pqt_enum_encoding, R, encoding),
    F(3, "is_sorted", PQT_TK_BOOL, O, is_sorted),
};
STRUCT_DESC(pqt_desc_dictionary_page_header, "DictionaryPageHeader", dictionary_page_header_rows, ST);
#undef ST

#define ST pqt_data_page_header_v2
static const pqt_thrift_field data_page_header_v2_rows[] = {
    F(1, "num_values", PQT_TK_I32, R, num_values),
    F(2, "num_nulls", PQT_TK_I32, R, num_nulls),
    F(3, "num_rows", PQT_TK_I32, R, num_rows),
    F_ENUM(4, "encoding", pqt_enum_encoding, R, encoding),
    F(5, "definition_levels_byte_length", PQT_TK_I32, R, definition_levels_byte_length),
    F(6, "repetition_levels_byte_length", PQT_TK_I32, R, repetition_levels_byte_length),
    F(7, "is_compressed", PQT_TK_BOOL, PQT_TF_DEFAULT_TRUE, is_compressed),
    F_STRUCT(8, "statistics", pqt_desc_statistics, O, statistics),
};
STRUCT_DESC(pqt_desc_data_page_header_v2, "DataPageHeaderV2", data_page_header_v2_rows, ST);
#undef ST

static const pqt_thrift_field bloom_filter_algorithm_rows[] = {
    F_EMPTY(1, "BLOCK", pqt_desc_split_block_algorithm),
};
UNION_DESC(pqt_desc_bloom_filter_algorithm, "BloomFilterAlgorithm", bloom_filter_algorithm_rows,
           uint32_t);
static const pqt_thrift_field bloom_filter_hash_rows[] = {
    F_EMPTY(1, "XXHASH", pqt_desc_xx_hash),
};
UNION_DESC(pqt_desc_bloom_filter_hash, "BloomFilterHash", bloom_filter_hash_rows, uint32_t);
static const pqt_thrift_field bloom_filter_compression_rows[] = {
    F_EMPTY(1, "UNCOMPRESSED", pqt_desc_uncompressed),
};
UNION_DESC(pqt_desc_bloom_filter_compression, "BloomFilterCompression",
           bloom_filter_compression_rows, uint32_t);

#define ST pqt_bloom_filter_header
static const pqt_thrift_field bloom_filter_header_rows[] = {
    F(1, "numBytes", PQT_TK_I32, R, num_bytes),
    F_STRUCT(2, "algorithm", pqt_desc_bloom_filter_algorithm, R, algorithm),
    F_STRUCT(3, "hash", pqt_desc_bloom_filter_hash, R, hash),
    F_STRUCT(4, "compression", pqt_desc_bloom_filter_compression, R, compression),
};
STRUCT_DESC(pqt_desc_bloom_filter_header, "BloomFilterHeader", bloom_filter_header_rows, ST);
#undef ST

#define ST pqt_page_header
static const pqt_thrift_field page_header_rows[] = {
    F_ENUM(1, "type", pqt_enum_page_type, R, type),
    F(2, "uncompressed_page_size", PQT_TK_I32, R, uncompressed_page_size),
    F(3, "compressed_page_size", PQT_TK_I32, R, compressed_page_size),
    F(4, "crc", PQT_TK_I32, O, crc),
    F_STRUCT(5, "data_page_header", pqt_desc_data_page_header, O, data_page_header),
    F_STRUCT(6, "index_page_header", pqt_desc_index_page_header, O, index_page_header),
    F_STRUCT(7, "dictionary_page_header", pqt_desc_dictionary_page_header, O, dictionary_page_header),
    F_STRUCT(8, "data_page_header_v2", pqt_desc_data_page_header_v2, O, data_page_header_v2),
};
STRUCT_DESC(pqt_desc_page_header, "PageHeader", page_header_rows, ST);
#undef ST

/* ---- column chunks and row groups --------------------------------------- */

#define ST pqt_key_value
static const pqt_thrift_field key_value_rows[] = {
    F(1, "key", PQT_TK_STRING, R, key),
    F(2, "value", PQT_TK_STRING, O, value),
};
STRUCT_DESC(pqt_desc_key_value, "KeyValue", key_value_rows, ST);
#undef ST

#define ST pqt_sorting_column
static const pqt_thrift_field sorting_column_rows[] = {
    F(1, "column_idx", PQT_TK_I32, R, column_idx),
    F(2, "descending", PQT_TK_BOOL, R, descending),
    F(3, "nulls_first", PQT_TK_BOOL, R, nulls_first),
};
STRUCT_DESC(pqt_desc_sorting_column, "SortingColumn", sorting_column_rows, ST);
#undef ST

#define ST pqt_page_encoding_stats
static const pqt_thrift_field page_encoding_stats_rows[] = {
    F_ENUM(1, "page_type", pqt_enum_page_type, R, page_type),
    F_ENUM(2, "encoding", pqt_enum_encoding, R, encoding),
    F(3, "count", PQT_TK_I32, R, count),
};
STRUCT_DESC(pqt_desc_page_encoding_stats, "PageEncodingStats", page_encoding_stats_rows, ST);
#undef ST

#define ST pqt_column_metadata
static const pqt_thrift_field column_metadata_rows[] = {
    F_ENUM(1, "type", pqt_enum_type, R, type),
    F_LIST_ENUM(2, "encodings", pqt_enum_encoding, R, encodings),
    F_LIST(3, "path_in_schema", PQT_TK_STRING, R, path_in_schema),
    F_ENUM(4, "codec", pqt_enum_compression_codec, R, codec),
    F(5, "num_values", PQT_TK_I64, R, num_values),
    F(6, "total_uncompressed_size", PQT_TK_I64, R, total_uncompressed_size),
    F(7, "total_compressed_size", PQT_TK_I64, R, total_compressed_size),
    F_LIST_STRUCT(8, "key_value_metadata", pqt_desc_key_value, O, key_value_metadata),
    F(9, "data_page_offset", PQT_TK_I64, R, data_page_offset),
    F(10, "index_page_offset", PQT_TK_I64, O, index_page_offset),
    F(11, "dictionary_page_offset", PQT_TK_I64, O, dictionary_page_offset),
    F_STRUCT(12, "statistics", pqt_desc_statistics, O, statistics),
    F_LIST_STRUCT(13, "encoding_stats", pqt_desc_page_encoding_stats, O, encoding_stats),
    F(14, "bloom_filter_offset", PQT_TK_I64, O, bloom_filter_offset),
    F(15, "bloom_filter_length", PQT_TK_I32, O, bloom_filter_length),
    F_STRUCT(16, "size_statistics", pqt_desc_size_statistics, O, size_statistics),
    F_STRUCT(17, "geospatial_statistics", pqt_desc_geospatial_statistics, O, geospatial_statistics),
};
STRUCT_DESC(pqt_desc_column_metadata, "ColumnMetaData", column_metadata_rows, ST);
#undef ST

#define ST pqt_encryption_with_column_key
static const pqt_thrift_field encryption_with_column_key_rows[] = {
    F_LIST(1, "path_in_schema", PQT_TK_STRING, R, path_in_schema),
    F(2, "key_metadata", PQT_TK_BINARY, O, key_metadata),
};
STRUCT_DESC(pqt_desc_encryption_with_column_key, "EncryptionWithColumnKey",
            encryption_with_column_key_rows, ST);
#undef ST

#define ST pqt_column_crypto_metadata
static const pqt_thrift_field column_crypto_metadata_rows[] = {
    F_EMPTY(1, "ENCRYPTION_WITH_FOOTER_KEY", pqt_desc_encryption_with_footer_key),
    F_STRUCT(2, "ENCRYPTION_WITH_COLUMN_KEY", pqt_desc_encryption_with_column_key, O,
             encryption_with_column_key),
};
UNION_DESC(pqt_desc_column_crypto_metadata, "ColumnCryptoMetaData", column_crypto_metadata_rows, ST);
#undef ST

#define ST pqt_column_chunk
static const pqt_thrift_field column_chunk_rows[] = {
    F(1, "file_path", PQT_TK_STRING, O, file_path),
    F(2, "file_offset", PQT_TK_I64, R, file_offset),
    F_STRUCT(3, "meta_data", pqt_desc_column_metadata, O, meta_data),
    F(4, "offset_index_offset", PQT_TK_I64, O, offset_index_offset),
    F(5, "offset_index_length", PQT_TK_I32, O, offset_index_length),
    F(6, "column_index_offset", PQT_TK_I64, O, column_index_offset),
    F(7, "column_index_length", PQT_TK_I32, O, column_index_length),
    F_STRUCT(8, "crypto_metadata", pqt_desc_column_crypto_metadata, O, crypto_metadata),
    F(9, "encrypted_column_metadata", PQT_TK_BINARY, O, encrypted_column_metadata),
};
STRUCT_DESC(pqt_desc_column_chunk, "ColumnChunk", column_chunk_rows, ST);
#undef ST

#define ST pqt_row_group
static const pqt_thrift_field row_group_rows[] = {
    F_LIST_STRUCT(1, "columns", pqt_desc_column_chunk, R, columns),
    F(2, "total_byte_size", PQT_TK_I64, R, total_byte_size),
    F(3, "num_rows", PQT_TK_I64, R, num_rows),
    F_LIST_STRUCT(4, "sorting_columns", pqt_desc_sorting_column, O, sorting_columns),
    F(5, "file_offset", PQT_TK_I64, O, file_offset),
    F(6, "total_compressed_size", PQT_TK_I64, O, total_compressed_size),
    F(7, "ordinal", PQT_TK_I16, O, ordinal),
};
STRUCT_DESC(pqt_desc_row_group, "RowGroup", row_group_rows, ST);
#undef ST

static const pqt_thrift_field column_order_rows[] = {
    F_EMPTY(1, "TYPE_ORDER", pqt_desc_type_defined_order),
    F_EMPTY(2, "IEEE_754_TOTAL_ORDER", pqt_desc_ieee754_total_order),
    F_EMPTY(3, "INT96_TIMESTAMP_ORDER", pqt_desc_int96_timestamp_order),
};
UNION_DESC(pqt_desc_column_order, "ColumnOrder", column_order_rows, pqt_column_order);

/* ---- page index ---------------------------------------------------------- */

#define ST pqt_page_location
static const pqt_thrift_field page_location_rows[] = {
    F(1, "offset", PQT_TK_I64, R, offset),
    F(2, "compressed_page_size", PQT_TK_I32, R, compressed_page_size),
    F(3, "first_row_index", PQT_TK_I64, R, first_row_index),
};
STRUCT_DESC(pqt_desc_page_location, "PageLocation", page_location_rows, ST);
#undef ST

#define ST pqt_offset_index
static const pqt_thrift_field offset_index_rows[] = {
    F_LIST_STRUCT(1, "page_locations", pqt_desc_page_location, R, page_locations),
    F_LIST(2, "unencoded_byte_array_data_bytes", PQT_TK_I64, O, unencoded_byte_array_data_bytes),
};
STRUCT_DESC(pqt_desc_offset_index, "OffsetIndex", offset_index_rows, ST);
#undef ST

#define ST pqt_column_index
static const pqt_thrift_field column_index_rows[] = {
    F_LIST(1, "null_pages", PQT_TK_BOOL, R, null_pages),
    F_LIST(2, "min_values", PQT_TK_BINARY, R, min_values),
    F_LIST(3, "max_values", PQT_TK_BINARY, R, max_values),
    F_ENUM(4, "boundary_order", pqt_enum_boundary_order, R, boundary_order),
    F_LIST(5, "null_counts", PQT_TK_I64, O, null_counts),
    F_LIST(6, "repetition_level_histograms", PQT_TK_I64, O, repetition_level_histograms),
    F_LIST(7, "definition_level_histograms", PQT_TK_I64, O, definition_level_histograms),
    F_LIST(8, "nan_counts", PQT_TK_I64, O, nan_counts),
};
STRUCT_DESC(pqt_desc_column_index, "ColumnIndex", column_index_rows, ST);
#undef ST

/* ---- encryption ------------------------------------------------------------ */

#define ST pqt_aes_gcm_v1
static const pqt_thrift_field aes_gcm_rows[] = {
    F(1, "aad_prefix", PQT_TK_BINARY, O, aad_prefix),
    F(2, "aad_file_unique", PQT_TK_BINARY, O, aad_file_unique),
    F(3, "supply_aad_prefix", PQT_TK_BOOL, O, supply_aad_prefix),
};
STRUCT_DESC(pqt_desc_aes_gcm_v1, "AesGcmV1", aes_gcm_rows, ST);
STRUCT_DESC(pqt_desc_aes_gcm_ctr_v1, "AesGcmCtrV1", aes_gcm_rows, ST);
#undef ST

#define ST pqt_encryption_algorithm
static const pqt_thrift_field encryption_algorithm_rows[] = {
    F_STRUCT(1, "AES_GCM_V1", pqt_desc_aes_gcm_v1, O, aes_gcm_v1),
    F_STRUCT(2, "AES_GCM_CTR_V1", pqt_desc_aes_gcm_ctr_v1, O, aes_gcm_ctr_v1),
};
UNION_DESC(pqt_desc_encryption_algorithm, "EncryptionAlgorithm", encryption_algorithm_rows, ST);
#undef ST

#define ST pqt_file_metadata
static const pqt_thrift_field file_metadata_rows[] = {
    F(1, "version", PQT_TK_I32, R, version),
    F_LIST_STRUCT(2, "schema", pqt_desc_schema_element, R, schema),
    F(3, "num_rows", PQT_TK_I64, R, num_rows),
    F_LIST_STRUCT(4, "row_groups", pqt_desc_row_group, R, row_groups),
    F_LIST_STRUCT(5, "key_value_metadata", pqt_desc_key_value, O, key_value_metadata),
    F(6, "created_by", PQT_TK_STRING, O, created_by),
    F_LIST_STRUCT(7, "column_orders", pqt_desc_column_order, O, column_orders),
    F_STRUCT(8, "encryption_algorithm", pqt_desc_encryption_algorithm, O, encryption_algorithm),
    F(9, "footer_signing_key_metadata", PQT_TK_BINARY, O, footer_signing_key_metadata),
};
STRUCT_DESC(pqt_desc_file_metadata, "FileMetaData", file_metadata_rows, ST);
#undef ST

#define ST pqt_file_crypto_metadata
static const pqt_thrift_field file_crypto_metadata_rows[] = {
    F_STRUCT(1, "encryption_algorithm", pqt_desc_encryption_algorithm, R, encryption_algorithm),
    F(2, "key_metadata", PQT_TK_BINARY, O, key_metadata),
};
STRUCT_DESC(pqt_desc_file_crypto_metadata, "FileCryptoMetaData", file_crypto_metadata_rows, ST);
#undef ST

const pqt_thrift_desc *const pqt_thrift_all_descs[] = {
    &pqt_desc_size_statistics, &pqt_desc_bounding_box, &pqt_desc_geospatial_statistics,
    &pqt_desc_statistics, &pqt_desc_string_type, &pqt_desc_uuid_type, &pqt_desc_map_type,
    &pqt_desc_list_type, &pqt_desc_vector_type, &pqt_desc_enum_type, &pqt_desc_date_type,
    &pqt_desc_float16_type, &pqt_desc_null_type, &pqt_desc_decimal_type,
    &pqt_desc_milli_seconds, &pqt_desc_micro_seconds, &pqt_desc_nano_seconds,
    &pqt_desc_time_unit, &pqt_desc_timestamp_type, &pqt_desc_time_type, &pqt_desc_int_type,
    &pqt_desc_json_type, &pqt_desc_bson_type, &pqt_desc_variant_type, &pqt_desc_geometry_type,
    &pqt_desc_geography_type, &pqt_desc_logical_type, &pqt_desc_schema_element,
    &pqt_desc_data_page_header, &pqt_desc_index_page_header, &pqt_desc_dictionary_page_header,
    &pqt_desc_data_page_header_v2, &pqt_desc_split_block_algorithm,
    &pqt_desc_bloom_filter_algorithm, &pqt_desc_xx_hash, &pqt_desc_bloom_filter_hash,
    &pqt_desc_uncompressed, &pqt_desc_bloom_filter_compression, &pqt_desc_bloom_filter_header,
    &pqt_desc_page_header, &pqt_desc_key_value, &pqt_desc_sorting_column,
    &pqt_desc_page_encoding_stats, &pqt_desc_column_metadata,
    &pqt_desc_encryption_with_footer_key, &pqt_desc_encryption_with_column_key,
    &pqt_desc_column_crypto_metadata, &pqt_desc_column_chunk, &pqt_desc_row_group,
    &pqt_desc_type_defined_order, &pqt_desc_ieee754_total_order,
    &pqt_desc_int96_timestamp_order, &pqt_desc_column_order, &pqt_desc_page_location,
    &pqt_desc_offset_index, &pqt_desc_column_index, &pqt_desc_aes_gcm_v1,
    &pqt_desc_aes_gcm_ctr_v1, &pqt_desc_encryption_algorithm, &pqt_desc_file_metadata,
    &pqt_desc_file_crypto_metadata,
};
const size_t pqt_thrift_n_descs = sizeof pqt_thrift_all_descs / sizeof pqt_thrift_all_descs[0];
