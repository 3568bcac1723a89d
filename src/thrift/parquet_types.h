/*
 * thrift/parquet_types.h: the structs of parquet.thrift (apache/parquet-format,
 * src/main/thrift/parquet.thrift, including VECTOR, IEEE754TotalOrder and
 * Int96TimestampOrder) as C structs, written from the field facts of that file.
 *
 * Conventions (the table-driven codec in thrift/codec.c relies on them):
 *   - Every struct and union starts with `uint32_t isset`: bit N is set when
 *     the field with Thrift id N was present (all ids are < 32). Name fields,
 *     never number them: PQT_HAS_FIELD(cc, column_chunk, meta_data),
 *     PQT_SET_FIELD(...), PQT_FIELD_MASK(...) below; the ids come from the
 *     per-struct field lists of thrift/parquet_fields.h.
 *     For a union exactly one bit is set after a successful decode; a union
 *     member this version does not know leaves isset == 0.
 *   - Enums are kept as raw int32_t (forward compatibility): validate them
 *     where they are used, never at decode time.
 *   - `binary` and `string` fields are pqt_bytes views. After decoding they
 *     point into the footer buffer, which must outlive the struct.
 *   - Lists are {items, n}; items live in the decoder's arena.
 *   - Empty Thrift structs used only as union markers carry no storage.
 */
#ifndef PQT_THRIFT_PARQUET_TYPES_H
#define PQT_THRIFT_PARQUET_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "parquetry.h" /* the enums a caller sees: pqt_codec, pqt_encoding, pqt_type, pqt_logical */
#include "thrift/parquet_fields.h"

/* Untyped bit access by an id held in a variable (e.g. a union member picked
 * at run time). For a known field use the named forms below. */
#define PQT_HAS(s, field_id) ((((s)->isset) >> (field_id)) & 1u)
#define PQT_SET(s, field_id) ((s)->isset |= (1u << (field_id)))

/* Field ids by name: PQT_FID_<struct>_<field>, e.g.
 * PQT_FID_column_chunk_meta_data == 3, generated from parquet_fields.h. */
#define PQT_FID_ENUMERATOR_(S, field, id, ...) PQT_FID_##S##_##field = id,
#define PQT_FID_ENUM_(S)                       enum { PQT_FIELDS_##S(PQT_FID_ENUMERATOR_, S) };
PQT_THRIFT_FIELD_LISTS(PQT_FID_ENUM_)
enum { PQT_FIELDS_time_type(PQT_FID_ENUMERATOR_, timestamp_type) }; /* TimestampType */
#undef PQT_FID_ENUM_
/* isset is a uint32_t: every id must be a bit of it (checked per field). */
#define PQT_FID_CHECK_(S, field, id, ...) \
  _Static_assert(id >= 1 && id <= 31, "thrift/parquet_fields.h: " #S "." #field " must have an id in 1..31");
#define PQT_FID_CHECKS_(S) PQT_FIELDS_##S(PQT_FID_CHECK_, S)
PQT_THRIFT_FIELD_LISTS(PQT_FID_CHECKS_)
#undef PQT_FID_CHECKS_
#undef PQT_FID_CHECK_

#define PQT_FIELD_ID(st, field)  PQT_FID_##st##_##field
#define PQT_FIELD_BIT(st, field) (1u << PQT_FIELD_ID(st, field))

/* Typed access: `s` must point to a pqt_<st> (else no _Generic association
 * matches: a compile error) and `field` must be a field of that struct's
 * list (else PQT_FID_<st>_<field> is undeclared: a compile error). `s` is
 * evaluated once. */
#ifdef __CPPCHECK__ /* cppcheck 2.10 cannot parse a _Generic used as a value */
#define PQT_ASSERT_TYPE_(s, st) ((void)0)
#else
#define PQT_ASSERT_TYPE_(s, st) ((void)_Generic((s), pqt_##st * : 0, const pqt_##st * : 0))
#endif
#define PQT_HAS_FIELD(s, st, field) (PQT_ASSERT_TYPE_(s, st), PQT_HAS(s, PQT_FIELD_ID(st, field)))
#define PQT_SET_FIELD(s, st, field) (PQT_ASSERT_TYPE_(s, st), PQT_SET(s, PQT_FIELD_ID(st, field)))

/* The isset mask of one to ten named fields of struct st:
 * PQT_FIELD_MASK(data_page_header, num_values, encoding). */
#define PQT_FIELD_MASK(st, ...) \
  (0u PQT_FM_CAT_(PQT_FM_, PQT_FM_COUNT_(__VA_ARGS__, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))(st, __VA_ARGS__))
#define PQT_FM_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, n, ...) n
#define PQT_FM_CAT_(a, b)                                              PQT_FM_CAT2_(a, b)
#define PQT_FM_CAT2_(a, b)                                             a##b
#define PQT_FM_1(st, a)                                                | PQT_FIELD_BIT(st, a)
#define PQT_FM_2(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_1(st, __VA_ARGS__)
#define PQT_FM_3(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_2(st, __VA_ARGS__)
#define PQT_FM_4(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_3(st, __VA_ARGS__)
#define PQT_FM_5(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_4(st, __VA_ARGS__)
#define PQT_FM_6(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_5(st, __VA_ARGS__)
#define PQT_FM_7(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_6(st, __VA_ARGS__)
#define PQT_FM_8(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_7(st, __VA_ARGS__)
#define PQT_FM_9(st, a, ...)                                           PQT_FM_1(st, a) PQT_FM_8(st, __VA_ARGS__)
#define PQT_FM_10(st, a, ...)                                          PQT_FM_1(st, a) PQT_FM_9(st, __VA_ARGS__)

typedef struct pqt_bytes {
  const uint8_t *ptr;
  int64_t len;
} pqt_bytes;

typedef struct pqt_list_i32 {
  int32_t *items;
  int32_t n;
} pqt_list_i32;
typedef struct pqt_list_i64 {
  int64_t *items;
  int32_t n;
} pqt_list_i64;
typedef struct pqt_list_bool {
  bool *items;
  int32_t n;
} pqt_list_bool;
typedef struct pqt_list_bytes {
  pqt_bytes *items;
  int32_t n;
} pqt_list_bytes;

/* ---- enums (values as in parquet.thrift) ---- */
enum pqt_physical_type { /* the public PQT_TYPE_* have the same values */
                         PQT_BOOLEAN = 0,
                         PQT_INT32 = 1,
                         PQT_INT64 = 2,
                         PQT_INT96 = 3,
                         PQT_FLOAT = 4,
                         PQT_DOUBLE = 5,
                         PQT_BYTE_ARRAY = 6,
                         PQT_FIXED_LEN_BYTE_ARRAY = 7
};
enum pqt_converted_type {
  PQT_CT_UTF8 = 0,
  PQT_CT_MAP = 1,
  PQT_CT_MAP_KEY_VALUE = 2,
  PQT_CT_LIST = 3,
  PQT_CT_ENUM = 4,
  PQT_CT_DECIMAL = 5,
  PQT_CT_DATE = 6,
  PQT_CT_TIME_MILLIS = 7,
  PQT_CT_TIME_MICROS = 8,
  PQT_CT_TIMESTAMP_MILLIS = 9,
  PQT_CT_TIMESTAMP_MICROS = 10,
  PQT_CT_UINT_8 = 11,
  PQT_CT_UINT_16 = 12,
  PQT_CT_UINT_32 = 13,
  PQT_CT_UINT_64 = 14,
  PQT_CT_INT_8 = 15,
  PQT_CT_INT_16 = 16,
  PQT_CT_INT_32 = 17,
  PQT_CT_INT_64 = 18,
  PQT_CT_JSON = 19,
  PQT_CT_BSON = 20,
  PQT_CT_INTERVAL = 21
};
enum pqt_repetition { PQT_REQUIRED = 0, PQT_OPTIONAL = 1, PQT_REPEATED = 2, PQT_VECTOR = 3 };
enum pqt_encoding_internal {                    /* the public PQT_ENCODING_* (parquetry.h) have the same values */
                             PQT_ENC_PLAIN = 0, /* 1 (GROUP_VAR_INT) was never used */
                             PQT_ENC_PLAIN_DICTIONARY = 2,
                             PQT_ENC_RLE = 3,
                             PQT_ENC_BIT_PACKED = 4,
                             PQT_ENC_DELTA_BINARY_PACKED = 5,
                             PQT_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
                             PQT_ENC_DELTA_BYTE_ARRAY = 7,
                             PQT_ENC_RLE_DICTIONARY = 8,
                             PQT_ENC_BYTE_STREAM_SPLIT = 9,
                             PQT_ENC_ALP = 10 /* preview in parquet-format (AlpEncoding.md): written only on request */
};
/* CompressionCodec: the public enum pqt_codec (PQT_CODEC_*) in parquetry.h. */
enum pqt_page_type { PQT_PAGE_DATA = 0, PQT_PAGE_INDEX = 1, PQT_PAGE_DICTIONARY = 2, PQT_PAGE_DATA_V2 = 3 };
enum pqt_boundary_order { PQT_BOUNDARY_UNORDERED = 0, PQT_BOUNDARY_ASCENDING = 1, PQT_BOUNDARY_DESCENDING = 2 };
enum pqt_edge_algorithm {
  PQT_EDGE_SPHERICAL = 0,
  PQT_EDGE_VINCENTY = 1,
  PQT_EDGE_THOMAS = 2,
  PQT_EDGE_ANDOYER = 3,
  PQT_EDGE_KARNEY = 4
};

/* ---- statistics ---- */
typedef struct pqt_size_statistics {
  uint32_t isset;
  int64_t unencoded_byte_array_data_bytes;
  pqt_list_i64 repetition_level_histogram;
  pqt_list_i64 definition_level_histogram;
} pqt_size_statistics;

typedef struct pqt_bounding_box {
  uint32_t isset;
  double xmin, xmax, ymin, ymax; /* required */
  double zmin, zmax, mmin, mmax; /* optional */
} pqt_bounding_box;

typedef struct pqt_geospatial_statistics {
  uint32_t isset;
  pqt_bounding_box bbox;
  pqt_list_i32 geospatial_types;
} pqt_geospatial_statistics;

typedef struct pqt_statistics {
  uint32_t isset;
  pqt_bytes max; /* (deprecated, signed order) */
  pqt_bytes min;
  int64_t null_count;
  int64_t distinct_count;
  pqt_bytes max_value;
  pqt_bytes min_value;
  bool is_max_value_exact;
  bool is_min_value_exact;
  int64_t nan_count;
} pqt_statistics;

/* ---- logical types ---- */
typedef struct pqt_decimal_type {
  uint32_t isset;
  int32_t scale;
  int32_t precision;
} pqt_decimal_type;

/* union TimeUnit: one bit of MILLIS, MICROS, NANOS */
enum {
  PQT_TIME_UNIT_MILLIS = PQT_FID_time_unit_millis,
  PQT_TIME_UNIT_MICROS = PQT_FID_time_unit_micros,
  PQT_TIME_UNIT_NANOS = PQT_FID_time_unit_nanos
};
typedef struct pqt_time_unit {
  uint32_t isset;
} pqt_time_unit;

typedef struct pqt_time_type { /* also TimestampType: same fields */
  uint32_t isset;
  bool is_adjusted_to_utc; /* isAdjustedToUTC */
  pqt_time_unit unit;
} pqt_time_type;
typedef pqt_time_type pqt_timestamp_type;

typedef struct pqt_int_type {
  uint32_t isset;
  int8_t bit_width; /* bitWidth (i8) */
  bool is_signed;   /* isSigned */
} pqt_int_type;

typedef struct pqt_variant_type {
  uint32_t isset;
  int8_t specification_version;
} pqt_variant_type;

typedef struct pqt_geometry_type {
  uint32_t isset;
  pqt_bytes crs;
} pqt_geometry_type;

typedef struct pqt_geography_type {
  uint32_t isset;
  pqt_bytes crs;
  int32_t algorithm; /* EdgeInterpolationAlgorithm */
} pqt_geography_type;

/* union LogicalType; the set bit names the member (the public PQT_LOGICAL_*
 * have the same values). */
enum {
  PQT_LT_STRING = PQT_FID_logical_type_string,
  PQT_LT_MAP = PQT_FID_logical_type_map,
  PQT_LT_LIST = PQT_FID_logical_type_list,
  PQT_LT_ENUM = PQT_FID_logical_type_enum,
  PQT_LT_DECIMAL = PQT_FID_logical_type_decimal,
  PQT_LT_DATE = PQT_FID_logical_type_date,
  PQT_LT_TIME = PQT_FID_logical_type_time,
  PQT_LT_TIMESTAMP = PQT_FID_logical_type_timestamp,
  PQT_LT_INTEGER = PQT_FID_logical_type_integer,
  PQT_LT_UNKNOWN = PQT_FID_logical_type_unknown,
  PQT_LT_JSON = PQT_FID_logical_type_json,
  PQT_LT_BSON = PQT_FID_logical_type_bson,
  PQT_LT_UUID = PQT_FID_logical_type_uuid,
  PQT_LT_FLOAT16 = PQT_FID_logical_type_float16,
  PQT_LT_VARIANT = PQT_FID_logical_type_variant,
  PQT_LT_GEOMETRY = PQT_FID_logical_type_geometry,
  PQT_LT_GEOGRAPHY = PQT_FID_logical_type_geography,
  PQT_LT_VECTOR = PQT_FID_logical_type_vector
};
typedef struct pqt_logical_type {
  uint32_t isset;
  pqt_decimal_type decimal;
  pqt_time_type time;
  pqt_timestamp_type timestamp;
  pqt_int_type integer;
  pqt_variant_type variant;
  pqt_geometry_type geometry;
  pqt_geography_type geography;
} pqt_logical_type;

/* Which member of a decoded union is set (0 when none or unknown). */
static inline int pqt_union_which(uint32_t isset) { return isset ? __builtin_ctz(isset) : 0; }

typedef struct pqt_schema_element {
  uint32_t isset;
  int32_t type; /* Type */
  int32_t type_length;
  int32_t repetition_type; /* FieldRepetitionType */
  pqt_bytes name;          /* required */
  int32_t num_children;
  int32_t converted_type; /* ConvertedType */
  int32_t scale;
  int32_t precision;
  int32_t field_id;
  pqt_logical_type logical_type; /* logicalType */
  int32_t vector_length;
} pqt_schema_element;

/* ---- pages ---- */
typedef struct pqt_data_page_header {
  uint32_t isset;
  int32_t num_values;
  int32_t encoding;
  int32_t definition_level_encoding;
  int32_t repetition_level_encoding;
  pqt_statistics statistics;
} pqt_data_page_header;

typedef struct pqt_index_page_header {
  uint32_t isset;
} pqt_index_page_header;

typedef struct pqt_dictionary_page_header {
  uint32_t isset;
  int32_t num_values;
  int32_t encoding;
  bool is_sorted;
} pqt_dictionary_page_header;

typedef struct pqt_data_page_header_v2 {
  uint32_t isset;
  int32_t num_values;
  int32_t num_nulls;
  int32_t num_rows;
  int32_t encoding;
  int32_t definition_levels_byte_length;
  int32_t repetition_levels_byte_length;
  bool is_compressed; /* (default true when absent) */
  pqt_statistics statistics;
} pqt_data_page_header_v2;

typedef struct pqt_page_header {
  uint32_t isset;
  int32_t type; /* PageType */
  int32_t uncompressed_page_size;
  int32_t compressed_page_size;
  int32_t crc;
  pqt_data_page_header data_page_header;
  pqt_index_page_header index_page_header;
  pqt_dictionary_page_header dictionary_page_header;
  pqt_data_page_header_v2 data_page_header_v2;
} pqt_page_header;

/* ---- Bloom filter header: unions with empty members ---- */
typedef struct pqt_bloom_filter_header {
  uint32_t isset;
  int32_t num_bytes;    /* numBytes */
  uint32_t algorithm;   /* union BloomFilterAlgorithm: isset bits (PQT_FIELD_MASK(bloom_filter_algorithm, block)) */
  uint32_t hash;        /* union BloomFilterHash: isset bits (PQT_FIELD_MASK(bloom_filter_hash, xxhash)) */
  uint32_t compression; /* union BloomFilterCompression: isset bits (PQT_FIELD_MASK(bloom_filter_compression,
                           uncompressed)) */
} pqt_bloom_filter_header;

/* ---- column chunks and row groups ---- */
typedef struct pqt_key_value {
  uint32_t isset;
  pqt_bytes key; /* required */
  pqt_bytes value;
} pqt_key_value;
typedef struct pqt_list_key_value {
  pqt_key_value *items;
  int32_t n;
} pqt_list_key_value;

typedef struct pqt_sorting_column {
  uint32_t isset;
  int32_t column_idx;
  bool descending;
  bool nulls_first;
} pqt_sorting_column;
typedef struct pqt_list_sorting_column {
  pqt_sorting_column *items;
  int32_t n;
} pqt_list_sorting_column;

typedef struct pqt_page_encoding_stats {
  uint32_t isset;
  int32_t page_type;
  int32_t encoding;
  int32_t count;
} pqt_page_encoding_stats;
typedef struct pqt_list_page_encoding_stats {
  pqt_page_encoding_stats *items;
  int32_t n;
} pqt_list_page_encoding_stats;

typedef struct pqt_column_metadata {
  uint32_t isset;
  int32_t type;
  pqt_list_i32 encodings;
  pqt_list_bytes path_in_schema;
  int32_t codec;
  int64_t num_values;
  int64_t total_uncompressed_size;
  int64_t total_compressed_size;
  pqt_list_key_value key_value_metadata;
  int64_t data_page_offset;
  int64_t index_page_offset;
  int64_t dictionary_page_offset;
  pqt_statistics statistics;
  pqt_list_page_encoding_stats encoding_stats;
  int64_t bloom_filter_offset;
  int32_t bloom_filter_length;
  pqt_size_statistics size_statistics;
  pqt_geospatial_statistics geospatial_statistics;
} pqt_column_metadata;

typedef struct pqt_encryption_with_column_key {
  uint32_t isset;
  pqt_list_bytes path_in_schema;
  pqt_bytes key_metadata;
} pqt_encryption_with_column_key;

/* union ColumnCryptoMetaData: ENCRYPTION_WITH_FOOTER_KEY (empty), ENCRYPTION_WITH_COLUMN_KEY */
typedef struct pqt_column_crypto_metadata {
  uint32_t isset;
  pqt_encryption_with_column_key encryption_with_column_key;
} pqt_column_crypto_metadata;

typedef struct pqt_column_chunk {
  uint32_t isset;
  pqt_bytes file_path;
  int64_t file_offset;
  pqt_column_metadata meta_data;
  int64_t offset_index_offset;
  int32_t offset_index_length;
  int64_t column_index_offset;
  int32_t column_index_length;
  pqt_column_crypto_metadata crypto_metadata;
  pqt_bytes encrypted_column_metadata;
} pqt_column_chunk;
typedef struct pqt_list_column_chunk {
  pqt_column_chunk *items;
  int32_t n;
} pqt_list_column_chunk;

typedef struct pqt_row_group {
  uint32_t isset;
  pqt_list_column_chunk columns;
  int64_t total_byte_size;
  int64_t num_rows;
  pqt_list_sorting_column sorting_columns;
  int64_t file_offset;
  int64_t total_compressed_size;
  int16_t ordinal;
} pqt_row_group;
typedef struct pqt_list_row_group {
  pqt_row_group *items;
  int32_t n;
} pqt_list_row_group;

/* union ColumnOrder: TYPE_ORDER, IEEE_754_TOTAL_ORDER, INT96_TIMESTAMP_ORDER (all empty) */
enum {
  PQT_ORDER_TYPE = PQT_FID_column_order_type_order,
  PQT_ORDER_IEEE_754_TOTAL = PQT_FID_column_order_ieee_754_total_order,
  PQT_ORDER_INT96_TIMESTAMP = PQT_FID_column_order_int96_timestamp_order
};
typedef struct pqt_column_order {
  uint32_t isset;
} pqt_column_order;
typedef struct pqt_list_column_order {
  pqt_column_order *items;
  int32_t n;
} pqt_list_column_order;

/* ---- page index ---- */
typedef struct pqt_page_location {
  uint32_t isset;
  int64_t offset;
  int32_t compressed_page_size;
  int64_t first_row_index;
} pqt_page_location;
typedef struct pqt_list_page_location {
  pqt_page_location *items;
  int32_t n;
} pqt_list_page_location;

typedef struct pqt_offset_index {
  uint32_t isset;
  pqt_list_page_location page_locations;
  pqt_list_i64 unencoded_byte_array_data_bytes;
} pqt_offset_index;

typedef struct pqt_column_index {
  uint32_t isset;
  pqt_list_bool null_pages;
  pqt_list_bytes min_values;
  pqt_list_bytes max_values;
  int32_t boundary_order;
  pqt_list_i64 null_counts;
  pqt_list_i64 repetition_level_histograms;
  pqt_list_i64 definition_level_histograms;
  pqt_list_i64 nan_counts;
} pqt_column_index;

/* ---- encryption ---- */
typedef struct pqt_aes_gcm_v1 { /* also AesGcmCtrV1: same fields */
  uint32_t isset;
  pqt_bytes aad_prefix;
  pqt_bytes aad_file_unique;
  bool supply_aad_prefix;
} pqt_aes_gcm_v1;

/* union EncryptionAlgorithm: AES_GCM_V1, AES_GCM_CTR_V1 */
typedef struct pqt_encryption_algorithm {
  uint32_t isset;
  pqt_aes_gcm_v1 aes_gcm_v1;
  pqt_aes_gcm_v1 aes_gcm_ctr_v1;
} pqt_encryption_algorithm;

typedef struct pqt_list_schema_element {
  pqt_schema_element *items;
  int32_t n;
} pqt_list_schema_element;

typedef struct pqt_file_metadata {
  uint32_t isset;
  int32_t version;
  pqt_list_schema_element schema;
  int64_t num_rows;
  pqt_list_row_group row_groups;
  pqt_list_key_value key_value_metadata;
  pqt_bytes created_by;
  pqt_list_column_order column_orders;
  pqt_encryption_algorithm encryption_algorithm;
  pqt_bytes footer_signing_key_metadata;
} pqt_file_metadata;

typedef struct pqt_file_crypto_metadata {
  uint32_t isset;
  pqt_encryption_algorithm encryption_algorithm;
  pqt_bytes key_metadata;
} pqt_file_crypto_metadata;

#endif /* PQT_THRIFT_PARQUET_TYPES_H */
