/*
 * thrift/parquet_fields.h: THE list of fields of every struct and union of
 * parquet.thrift (apache/parquet-format src/main/thrift/parquet.thrift,
 * including VECTOR, IEEE754TotalOrder and Int96TimestampOrder). Each Thrift
 * field id is written here once and nowhere else:
 *   - thrift/parquet_types.h turns every list into named field-id constants
 *     (PQT_FID_<struct>_<field>) and the typed accessors PQT_HAS_FIELD,
 *     PQT_SET_FIELD and PQT_FIELD_MASK;
 *   - thrift/parquet_desc.c turns the same lists into the descriptor rows the
 *     codec interprets (tests/unit/test_thrift_desc.c checks those rows against
 *     an independent transcription of parquet.thrift).
 *
 * One list per C struct: PQT_FIELDS_<struct>(X, S) calls
 *   X(S, field, id, kind, "ThriftName", arg, req)
 * for every field in id order (the encoder writes in table order), where
 *   field  the C member (for empty union members, which store nothing, the
 *          lower-case Thrift member name);
 *   kind   SCALAR (arg: PQT_TK_* storage kind), ENUM (arg: the pqt_enum_*
 *          table), STRUCT (arg: the pqt_desc_* of the struct or union),
 *          EMPTY (union member that is an empty marker struct, arg: its
 *          pqt_desc_*), LIST (arg: element PQT_TK_* kind), LIST_ENUM,
 *          LIST_STRUCT (arg as for ENUM / STRUCT, of the elements);
 *   req    REQ, OPT or DEFAULT_TRUE (optional bool read as true when absent).
 * <struct> is the C type without its pqt_ prefix. TimestampType has the same
 * fields as TimeType (one C type, one list); AesGcmCtrV1 the same as AesGcmV1.
 * The three Bloom filter unions are stored as bare uint32_t isset words in
 * pqt_bloom_filter_header (use PQT_FIELD_MASK for them).
 */
#ifndef PQT_THRIFT_PARQUET_FIELDS_H
#define PQT_THRIFT_PARQUET_FIELDS_H

#define PQT_FIELDS_size_statistics(X, S)                                                               \
  X(S, unencoded_byte_array_data_bytes, 1, SCALAR, "unencoded_byte_array_data_bytes", PQT_TK_I64, OPT) \
  X(S, repetition_level_histogram, 2, LIST, "repetition_level_histogram", PQT_TK_I64, OPT)             \
  X(S, definition_level_histogram, 3, LIST, "definition_level_histogram", PQT_TK_I64, OPT)

#define PQT_FIELDS_bounding_box(X, S)               \
  X(S, xmin, 1, SCALAR, "xmin", PQT_TK_DOUBLE, REQ) \
  X(S, xmax, 2, SCALAR, "xmax", PQT_TK_DOUBLE, REQ) \
  X(S, ymin, 3, SCALAR, "ymin", PQT_TK_DOUBLE, REQ) \
  X(S, ymax, 4, SCALAR, "ymax", PQT_TK_DOUBLE, REQ) \
  X(S, zmin, 5, SCALAR, "zmin", PQT_TK_DOUBLE, OPT) \
  X(S, zmax, 6, SCALAR, "zmax", PQT_TK_DOUBLE, OPT) \
  X(S, mmin, 7, SCALAR, "mmin", PQT_TK_DOUBLE, OPT) \
  X(S, mmax, 8, SCALAR, "mmax", PQT_TK_DOUBLE, OPT)

#define PQT_FIELDS_geospatial_statistics(X, S)              \
  X(S, bbox, 1, STRUCT, "bbox", pqt_desc_bounding_box, OPT) \
  X(S, geospatial_types, 2, LIST, "geospatial_types", PQT_TK_I32, OPT)

#define PQT_FIELDS_statistics(X, S)                                           \
  X(S, max, 1, SCALAR, "max", PQT_TK_BINARY, OPT)                             \
  X(S, min, 2, SCALAR, "min", PQT_TK_BINARY, OPT)                             \
  X(S, null_count, 3, SCALAR, "null_count", PQT_TK_I64, OPT)                  \
  X(S, distinct_count, 4, SCALAR, "distinct_count", PQT_TK_I64, OPT)          \
  X(S, max_value, 5, SCALAR, "max_value", PQT_TK_BINARY, OPT)                 \
  X(S, min_value, 6, SCALAR, "min_value", PQT_TK_BINARY, OPT)                 \
  X(S, is_max_value_exact, 7, SCALAR, "is_max_value_exact", PQT_TK_BOOL, OPT) \
  X(S, is_min_value_exact, 8, SCALAR, "is_min_value_exact", PQT_TK_BOOL, OPT) \
  X(S, nan_count, 9, SCALAR, "nan_count", PQT_TK_I64, OPT)

#define PQT_FIELDS_decimal_type(X, S)              \
  X(S, scale, 1, SCALAR, "scale", PQT_TK_I32, REQ) \
  X(S, precision, 2, SCALAR, "precision", PQT_TK_I32, REQ)

#define PQT_FIELDS_time_unit(X, S)                              \
  X(S, millis, 1, EMPTY, "MILLIS", pqt_desc_milli_seconds, OPT) \
  X(S, micros, 2, EMPTY, "MICROS", pqt_desc_micro_seconds, OPT) \
  X(S, nanos, 3, EMPTY, "NANOS", pqt_desc_nano_seconds, OPT)

#define PQT_FIELDS_time_type(X, S)                                         \
  X(S, is_adjusted_to_utc, 1, SCALAR, "isAdjustedToUTC", PQT_TK_BOOL, REQ) \
  X(S, unit, 2, STRUCT, "unit", pqt_desc_time_unit, REQ)

#define PQT_FIELDS_int_type(X, S)                        \
  X(S, bit_width, 1, SCALAR, "bitWidth", PQT_TK_I8, REQ) \
  X(S, is_signed, 2, SCALAR, "isSigned", PQT_TK_BOOL, REQ)

#define PQT_FIELDS_variant_type(X, S) X(S, specification_version, 1, SCALAR, "specification_version", PQT_TK_I8, OPT)

#define PQT_FIELDS_geometry_type(X, S) X(S, crs, 1, SCALAR, "crs", PQT_TK_STRING, OPT)

#define PQT_FIELDS_geography_type(X, S)           \
  X(S, crs, 1, SCALAR, "crs", PQT_TK_STRING, OPT) \
  X(S, algorithm, 2, ENUM, "algorithm", pqt_enum_edge_interpolation_algorithm, OPT)

#define PQT_FIELDS_logical_type(X, S)                                    \
  X(S, string, 1, EMPTY, "STRING", pqt_desc_string_type, OPT)            \
  X(S, map, 2, EMPTY, "MAP", pqt_desc_map_type, OPT)                     \
  X(S, list, 3, EMPTY, "LIST", pqt_desc_list_type, OPT)                  \
  X(S, enum, 4, EMPTY, "ENUM", pqt_desc_enum_type, OPT)                  \
  X(S, decimal, 5, STRUCT, "DECIMAL", pqt_desc_decimal_type, OPT)        \
  X(S, date, 6, EMPTY, "DATE", pqt_desc_date_type, OPT)                  \
  X(S, time, 7, STRUCT, "TIME", pqt_desc_time_type, OPT)                 \
  X(S, timestamp, 8, STRUCT, "TIMESTAMP", pqt_desc_timestamp_type, OPT)  \
  /* 9 is reserved for INTERVAL */                                       \
  X(S, integer, 10, STRUCT, "INTEGER", pqt_desc_int_type, OPT)           \
  X(S, unknown, 11, EMPTY, "UNKNOWN", pqt_desc_null_type, OPT)           \
  X(S, json, 12, EMPTY, "JSON", pqt_desc_json_type, OPT)                 \
  X(S, bson, 13, EMPTY, "BSON", pqt_desc_bson_type, OPT)                 \
  X(S, uuid, 14, EMPTY, "UUID", pqt_desc_uuid_type, OPT)                 \
  X(S, float16, 15, EMPTY, "FLOAT16", pqt_desc_float16_type, OPT)        \
  X(S, variant, 16, STRUCT, "VARIANT", pqt_desc_variant_type, OPT)       \
  X(S, geometry, 17, STRUCT, "GEOMETRY", pqt_desc_geometry_type, OPT)    \
  X(S, geography, 18, STRUCT, "GEOGRAPHY", pqt_desc_geography_type, OPT) \
  X(S, vector, 19, EMPTY, "VECTOR", pqt_desc_vector_type, OPT)

#define PQT_FIELDS_schema_element(X, S)                                                  \
  X(S, type, 1, ENUM, "type", pqt_enum_type, OPT)                                        \
  X(S, type_length, 2, SCALAR, "type_length", PQT_TK_I32, OPT)                           \
  X(S, repetition_type, 3, ENUM, "repetition_type", pqt_enum_field_repetition_type, OPT) \
  X(S, name, 4, SCALAR, "name", PQT_TK_STRING, REQ)                                      \
  X(S, num_children, 5, SCALAR, "num_children", PQT_TK_I32, OPT)                         \
  X(S, converted_type, 6, ENUM, "converted_type", pqt_enum_converted_type, OPT)          \
  X(S, scale, 7, SCALAR, "scale", PQT_TK_I32, OPT)                                       \
  X(S, precision, 8, SCALAR, "precision", PQT_TK_I32, OPT)                               \
  X(S, field_id, 9, SCALAR, "field_id", PQT_TK_I32, OPT)                                 \
  X(S, logical_type, 10, STRUCT, "logicalType", pqt_desc_logical_type, OPT)              \
  X(S, vector_length, 11, SCALAR, "vector_length", PQT_TK_I32, OPT)

#define PQT_FIELDS_data_page_header(X, S)                                                       \
  X(S, num_values, 1, SCALAR, "num_values", PQT_TK_I32, REQ)                                    \
  X(S, encoding, 2, ENUM, "encoding", pqt_enum_encoding, REQ)                                   \
  X(S, definition_level_encoding, 3, ENUM, "definition_level_encoding", pqt_enum_encoding, REQ) \
  X(S, repetition_level_encoding, 4, ENUM, "repetition_level_encoding", pqt_enum_encoding, REQ) \
  X(S, statistics, 5, STRUCT, "statistics", pqt_desc_statistics, OPT)

#define PQT_FIELDS_dictionary_page_header(X, S)               \
  X(S, num_values, 1, SCALAR, "num_values", PQT_TK_I32, REQ)  \
  X(S, encoding, 2, ENUM, "encoding", pqt_enum_encoding, REQ) \
  X(S, is_sorted, 3, SCALAR, "is_sorted", PQT_TK_BOOL, OPT)

#define PQT_FIELDS_data_page_header_v2(X, S)                                                       \
  X(S, num_values, 1, SCALAR, "num_values", PQT_TK_I32, REQ)                                       \
  X(S, num_nulls, 2, SCALAR, "num_nulls", PQT_TK_I32, REQ)                                         \
  X(S, num_rows, 3, SCALAR, "num_rows", PQT_TK_I32, REQ)                                           \
  X(S, encoding, 4, ENUM, "encoding", pqt_enum_encoding, REQ)                                      \
  X(S, definition_levels_byte_length, 5, SCALAR, "definition_levels_byte_length", PQT_TK_I32, REQ) \
  X(S, repetition_levels_byte_length, 6, SCALAR, "repetition_levels_byte_length", PQT_TK_I32, REQ) \
  X(S, is_compressed, 7, SCALAR, "is_compressed", PQT_TK_BOOL, DEFAULT_TRUE)                       \
  X(S, statistics, 8, STRUCT, "statistics", pqt_desc_statistics, OPT)

#define PQT_FIELDS_bloom_filter_algorithm(X, S) X(S, block, 1, EMPTY, "BLOCK", pqt_desc_split_block_algorithm, OPT)

#define PQT_FIELDS_bloom_filter_hash(X, S) X(S, xxhash, 1, EMPTY, "XXHASH", pqt_desc_xx_hash, OPT)

#define PQT_FIELDS_bloom_filter_compression(X, S) \
  X(S, uncompressed, 1, EMPTY, "UNCOMPRESSED", pqt_desc_uncompressed, OPT)

#define PQT_FIELDS_bloom_filter_header(X, S)                                    \
  X(S, num_bytes, 1, SCALAR, "numBytes", PQT_TK_I32, REQ)                       \
  X(S, algorithm, 2, STRUCT, "algorithm", pqt_desc_bloom_filter_algorithm, REQ) \
  X(S, hash, 3, STRUCT, "hash", pqt_desc_bloom_filter_hash, REQ)                \
  X(S, compression, 4, STRUCT, "compression", pqt_desc_bloom_filter_compression, REQ)

#define PQT_FIELDS_page_header(X, S)                                                                      \
  X(S, type, 1, ENUM, "type", pqt_enum_page_type, REQ)                                                    \
  X(S, uncompressed_page_size, 2, SCALAR, "uncompressed_page_size", PQT_TK_I32, REQ)                      \
  X(S, compressed_page_size, 3, SCALAR, "compressed_page_size", PQT_TK_I32, REQ)                          \
  X(S, crc, 4, SCALAR, "crc", PQT_TK_I32, OPT)                                                            \
  X(S, data_page_header, 5, STRUCT, "data_page_header", pqt_desc_data_page_header, OPT)                   \
  X(S, index_page_header, 6, STRUCT, "index_page_header", pqt_desc_index_page_header, OPT)                \
  X(S, dictionary_page_header, 7, STRUCT, "dictionary_page_header", pqt_desc_dictionary_page_header, OPT) \
  X(S, data_page_header_v2, 8, STRUCT, "data_page_header_v2", pqt_desc_data_page_header_v2, OPT)

#define PQT_FIELDS_key_value(X, S)                \
  X(S, key, 1, SCALAR, "key", PQT_TK_STRING, REQ) \
  X(S, value, 2, SCALAR, "value", PQT_TK_STRING, OPT)

#define PQT_FIELDS_sorting_column(X, S)                       \
  X(S, column_idx, 1, SCALAR, "column_idx", PQT_TK_I32, REQ)  \
  X(S, descending, 2, SCALAR, "descending", PQT_TK_BOOL, REQ) \
  X(S, nulls_first, 3, SCALAR, "nulls_first", PQT_TK_BOOL, REQ)

#define PQT_FIELDS_page_encoding_stats(X, S)                     \
  X(S, page_type, 1, ENUM, "page_type", pqt_enum_page_type, REQ) \
  X(S, encoding, 2, ENUM, "encoding", pqt_enum_encoding, REQ)    \
  X(S, count, 3, SCALAR, "count", PQT_TK_I32, REQ)

#define PQT_FIELDS_column_metadata(X, S)                                                     \
  X(S, type, 1, ENUM, "type", pqt_enum_type, REQ)                                            \
  X(S, encodings, 2, LIST_ENUM, "encodings", pqt_enum_encoding, REQ)                         \
  X(S, path_in_schema, 3, LIST, "path_in_schema", PQT_TK_STRING, REQ)                        \
  X(S, codec, 4, ENUM, "codec", pqt_enum_compression_codec, REQ)                             \
  X(S, num_values, 5, SCALAR, "num_values", PQT_TK_I64, REQ)                                 \
  X(S, total_uncompressed_size, 6, SCALAR, "total_uncompressed_size", PQT_TK_I64, REQ)       \
  X(S, total_compressed_size, 7, SCALAR, "total_compressed_size", PQT_TK_I64, REQ)           \
  X(S, key_value_metadata, 8, LIST_STRUCT, "key_value_metadata", pqt_desc_key_value, OPT)    \
  X(S, data_page_offset, 9, SCALAR, "data_page_offset", PQT_TK_I64, REQ)                     \
  X(S, index_page_offset, 10, SCALAR, "index_page_offset", PQT_TK_I64, OPT)                  \
  X(S, dictionary_page_offset, 11, SCALAR, "dictionary_page_offset", PQT_TK_I64, OPT)        \
  X(S, statistics, 12, STRUCT, "statistics", pqt_desc_statistics, OPT)                       \
  X(S, encoding_stats, 13, LIST_STRUCT, "encoding_stats", pqt_desc_page_encoding_stats, OPT) \
  X(S, bloom_filter_offset, 14, SCALAR, "bloom_filter_offset", PQT_TK_I64, OPT)              \
  X(S, bloom_filter_length, 15, SCALAR, "bloom_filter_length", PQT_TK_I32, OPT)              \
  X(S, size_statistics, 16, STRUCT, "size_statistics", pqt_desc_size_statistics, OPT)        \
  X(S, geospatial_statistics, 17, STRUCT, "geospatial_statistics", pqt_desc_geospatial_statistics, OPT)

#define PQT_FIELDS_encryption_with_column_key(X, S)                   \
  X(S, path_in_schema, 1, LIST, "path_in_schema", PQT_TK_STRING, REQ) \
  X(S, key_metadata, 2, SCALAR, "key_metadata", PQT_TK_BINARY, OPT)

#define PQT_FIELDS_column_crypto_metadata(X, S)                                                                      \
  X(S, encryption_with_footer_key, 1, EMPTY, "ENCRYPTION_WITH_FOOTER_KEY", pqt_desc_encryption_with_footer_key, OPT) \
  X(S, encryption_with_column_key, 2, STRUCT, "ENCRYPTION_WITH_COLUMN_KEY", pqt_desc_encryption_with_column_key, OPT)

#define PQT_FIELDS_column_chunk(X, S)                                                       \
  X(S, file_path, 1, SCALAR, "file_path", PQT_TK_STRING, OPT)                               \
  X(S, file_offset, 2, SCALAR, "file_offset", PQT_TK_I64, REQ)                              \
  X(S, meta_data, 3, STRUCT, "meta_data", pqt_desc_column_metadata, OPT)                    \
  X(S, offset_index_offset, 4, SCALAR, "offset_index_offset", PQT_TK_I64, OPT)              \
  X(S, offset_index_length, 5, SCALAR, "offset_index_length", PQT_TK_I32, OPT)              \
  X(S, column_index_offset, 6, SCALAR, "column_index_offset", PQT_TK_I64, OPT)              \
  X(S, column_index_length, 7, SCALAR, "column_index_length", PQT_TK_I32, OPT)              \
  X(S, crypto_metadata, 8, STRUCT, "crypto_metadata", pqt_desc_column_crypto_metadata, OPT) \
  X(S, encrypted_column_metadata, 9, SCALAR, "encrypted_column_metadata", PQT_TK_BINARY, OPT)

#define PQT_FIELDS_row_group(X, S)                                                       \
  X(S, columns, 1, LIST_STRUCT, "columns", pqt_desc_column_chunk, REQ)                   \
  X(S, total_byte_size, 2, SCALAR, "total_byte_size", PQT_TK_I64, REQ)                   \
  X(S, num_rows, 3, SCALAR, "num_rows", PQT_TK_I64, REQ)                                 \
  X(S, sorting_columns, 4, LIST_STRUCT, "sorting_columns", pqt_desc_sorting_column, OPT) \
  X(S, file_offset, 5, SCALAR, "file_offset", PQT_TK_I64, OPT)                           \
  X(S, total_compressed_size, 6, SCALAR, "total_compressed_size", PQT_TK_I64, OPT)       \
  X(S, ordinal, 7, SCALAR, "ordinal", PQT_TK_I16, OPT)

#define PQT_FIELDS_column_order(X, S)                                                             \
  X(S, type_order, 1, EMPTY, "TYPE_ORDER", pqt_desc_type_defined_order, OPT)                      \
  X(S, ieee_754_total_order, 2, EMPTY, "IEEE_754_TOTAL_ORDER", pqt_desc_ieee754_total_order, OPT) \
  X(S, int96_timestamp_order, 3, EMPTY, "INT96_TIMESTAMP_ORDER", pqt_desc_int96_timestamp_order, OPT)

#define PQT_FIELDS_page_location(X, S)                                           \
  X(S, offset, 1, SCALAR, "offset", PQT_TK_I64, REQ)                             \
  X(S, compressed_page_size, 2, SCALAR, "compressed_page_size", PQT_TK_I32, REQ) \
  X(S, first_row_index, 3, SCALAR, "first_row_index", PQT_TK_I64, REQ)

#define PQT_FIELDS_offset_index(X, S)                                                 \
  X(S, page_locations, 1, LIST_STRUCT, "page_locations", pqt_desc_page_location, REQ) \
  X(S, unencoded_byte_array_data_bytes, 2, LIST, "unencoded_byte_array_data_bytes", PQT_TK_I64, OPT)

#define PQT_FIELDS_column_index(X, S)                                                        \
  X(S, null_pages, 1, LIST, "null_pages", PQT_TK_BOOL, REQ)                                  \
  X(S, min_values, 2, LIST, "min_values", PQT_TK_BINARY, REQ)                                \
  X(S, max_values, 3, LIST, "max_values", PQT_TK_BINARY, REQ)                                \
  X(S, boundary_order, 4, ENUM, "boundary_order", pqt_enum_boundary_order, REQ)              \
  X(S, null_counts, 5, LIST, "null_counts", PQT_TK_I64, OPT)                                 \
  X(S, repetition_level_histograms, 6, LIST, "repetition_level_histograms", PQT_TK_I64, OPT) \
  X(S, definition_level_histograms, 7, LIST, "definition_level_histograms", PQT_TK_I64, OPT) \
  X(S, nan_counts, 8, LIST, "nan_counts", PQT_TK_I64, OPT)

#define PQT_FIELDS_aes_gcm_v1(X, S)                                       \
  X(S, aad_prefix, 1, SCALAR, "aad_prefix", PQT_TK_BINARY, OPT)           \
  X(S, aad_file_unique, 2, SCALAR, "aad_file_unique", PQT_TK_BINARY, OPT) \
  X(S, supply_aad_prefix, 3, SCALAR, "supply_aad_prefix", PQT_TK_BOOL, OPT)

#define PQT_FIELDS_encryption_algorithm(X, S)                         \
  X(S, aes_gcm_v1, 1, STRUCT, "AES_GCM_V1", pqt_desc_aes_gcm_v1, OPT) \
  X(S, aes_gcm_ctr_v1, 2, STRUCT, "AES_GCM_CTR_V1", pqt_desc_aes_gcm_ctr_v1, OPT)

#define PQT_FIELDS_file_metadata(X, S)                                                              \
  X(S, version, 1, SCALAR, "version", PQT_TK_I32, REQ)                                              \
  X(S, schema, 2, LIST_STRUCT, "schema", pqt_desc_schema_element, REQ)                              \
  X(S, num_rows, 3, SCALAR, "num_rows", PQT_TK_I64, REQ)                                            \
  X(S, row_groups, 4, LIST_STRUCT, "row_groups", pqt_desc_row_group, REQ)                           \
  X(S, key_value_metadata, 5, LIST_STRUCT, "key_value_metadata", pqt_desc_key_value, OPT)           \
  X(S, created_by, 6, SCALAR, "created_by", PQT_TK_STRING, OPT)                                     \
  X(S, column_orders, 7, LIST_STRUCT, "column_orders", pqt_desc_column_order, OPT)                  \
  X(S, encryption_algorithm, 8, STRUCT, "encryption_algorithm", pqt_desc_encryption_algorithm, OPT) \
  X(S, footer_signing_key_metadata, 9, SCALAR, "footer_signing_key_metadata", PQT_TK_BINARY, OPT)

#define PQT_FIELDS_file_crypto_metadata(X, S)                                                       \
  X(S, encryption_algorithm, 1, STRUCT, "encryption_algorithm", pqt_desc_encryption_algorithm, REQ) \
  X(S, key_metadata, 2, SCALAR, "key_metadata", PQT_TK_BINARY, OPT)

/* Every list above, as Y(struct). */
#define PQT_THRIFT_FIELD_LISTS(Y) \
  Y(size_statistics)              \
  Y(bounding_box)                 \
  Y(geospatial_statistics)        \
  Y(statistics)                   \
  Y(decimal_type)                 \
  Y(time_unit)                    \
  Y(time_type)                    \
  Y(int_type)                     \
  Y(variant_type)                 \
  Y(geometry_type)                \
  Y(geography_type)               \
  Y(logical_type)                 \
  Y(schema_element)               \
  Y(data_page_header)             \
  Y(dictionary_page_header)       \
  Y(data_page_header_v2)          \
  Y(bloom_filter_algorithm)       \
  Y(bloom_filter_hash)            \
  Y(bloom_filter_compression)     \
  Y(bloom_filter_header)          \
  Y(page_header)                  \
  Y(key_value)                    \
  Y(sorting_column)               \
  Y(page_encoding_stats)          \
  Y(column_metadata)              \
  Y(encryption_with_column_key)   \
  Y(column_crypto_metadata)       \
  Y(column_chunk)                 \
  Y(row_group)                    \
  Y(column_order)                 \
  Y(page_location)                \
  Y(offset_index)                 \
  Y(column_index)                 \
  Y(aes_gcm_v1)                   \
  Y(encryption_algorithm)         \
  Y(file_metadata)                \
  Y(file_crypto_metadata)

#endif /* PQT_THRIFT_PARQUET_FIELDS_H */
