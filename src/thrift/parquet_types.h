/*
 * thrift/parquet_types.h: the structs of parquet.thrift (apache/parquet-format,
 * src/main/thrift/parquet.thrift, including VECTOR, IEEE754TotalOrder and
 * Int96TimestampOrder) as C structs, written from the field facts of that file.
 *
 * Conventions (the table-driven codec in thrift/codec.c relies on them):
 *   - Every struct and union starts with `uint32_t isset`: bit N is set when
 *     the field with Thrift id N was present (all ids are < 32). Use PQT_HAS.
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

#define PQT_HAS(s, field_id) ((((s)->isset) >> (field_id)) & 1u)
#define PQT_SET(s, field_id) ((s)->isset |= (1u << (field_id)))

typedef struct pqt_bytes {
  const uint8_t *ptr;
  int64_t len;
} pqt_bytes;

typedef struct pqt_list_i32 { int32_t *items; int32_t n; } pqt_list_i32;
typedef struct pqt_list_i64 { int64_t *items; int32_t n; } pqt_list_i64;
typedef struct pqt_list_bool { bool *items; int32_t n; } pqt_list_bool;
typedef struct pqt_list_bytes { pqt_bytes *items; int32_t n; } pqt_list_bytes;

/* ---- enums (values as in parquet.thrift) ---- */
enum pqt_physical_type { /* the public PQT_TYPE_* have the same values */
  PQT_BOOLEAN = 0, PQT_INT32 = 1, PQT_INT64 = 2, PQT_INT96 = 3,
  PQT_FLOAT = 4, PQT_DOUBLE = 5, PQT_BYTE_ARRAY = 6, PQT_FIXED_LEN_BYTE_ARRAY = 7
};
enum pqt_converted_type {
  PQT_CT_UTF8 = 0, PQT_CT_MAP = 1, PQT_CT_MAP_KEY_VALUE = 2, PQT_CT_LIST = 3,
  PQT_CT_ENUM = 4, PQT_CT_DECIMAL = 5, PQT_CT_DATE = 6, PQT_CT_TIME_MILLIS = 7,
  PQT_CT_TIME_MICROS = 8, PQT_CT_TIMESTAMP_MILLIS = 9, PQT_CT_TIMESTAMP_MICROS = 10,
  PQT_CT_UINT_8 = 11, PQT_CT_UINT_16 = 12, PQT_CT_UINT_32 = 13, PQT_CT_UINT_64 = 14,
  PQT_CT_INT_8 = 15, PQT_CT_INT_16 = 16, PQT_CT_INT_32 = 17, PQT_CT_INT_64 = 18,
  PQT_CT_JSON = 19, PQT_CT_BSON = 20, PQT_CT_INTERVAL = 21
};
enum pqt_repetition {
  PQT_REQUIRED = 0, PQT_OPTIONAL = 1, PQT_REPEATED = 2, PQT_VECTOR = 3
};
enum pqt_encoding_internal { /* the public PQT_ENCODING_* (parquetry.h) have the same values */
  PQT_ENC_PLAIN = 0, /* 1 (GROUP_VAR_INT) was never used */
  PQT_ENC_PLAIN_DICTIONARY = 2, PQT_ENC_RLE = 3, PQT_ENC_BIT_PACKED = 4,
  PQT_ENC_DELTA_BINARY_PACKED = 5, PQT_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
  PQT_ENC_DELTA_BYTE_ARRAY = 7, PQT_ENC_RLE_DICTIONARY = 8,
  PQT_ENC_BYTE_STREAM_SPLIT = 9
};
/* CompressionCodec: the public enum pqt_codec (PQT_CODEC_*) in parquetry.h. */
enum pqt_page_type {
  PQT_PAGE_DATA = 0, PQT_PAGE_INDEX = 1, PQT_PAGE_DICTIONARY = 2, PQT_PAGE_DATA_V2 = 3
};
enum pqt_boundary_order {
  PQT_BOUNDARY_UNORDERED = 0, PQT_BOUNDARY_ASCENDING = 1, PQT_BOUNDARY_DESCENDING = 2
};
enum pqt_edge_algorithm {
  PQT_EDGE_SPHERICAL = 0, PQT_EDGE_VINCENTY = 1, PQT_EDGE_THOMAS = 2,
  PQT_EDGE_ANDOYER = 3, PQT_EDGE_KARNEY = 4
};

/* ---- statistics ---- */
typedef struct pqt_size_statistics {
  uint32_t isset;
  int64_t unencoded_byte_array_data_bytes; /* 1 */
  pqt_list_i64 repetition_level_histogram; /* 2 */
  pqt_list_i64 definition_level_histogram; /* 3 */
} pqt_size_statistics;

typedef struct pqt_bounding_box {
  uint32_t isset;
  double xmin, xmax, ymin, ymax; /* 1..4 required */
  double zmin, zmax, mmin, mmax; /* 5..8 optional */
} pqt_bounding_box;

typedef struct pqt_geospatial_statistics {
  uint32_t isset;
  pqt_bounding_box bbox;         /* 1 */
  pqt_list_i32 geospatial_types; /* 2 */
} pqt_geospatial_statistics;

typedef struct pqt_statistics {
  uint32_t isset;
  pqt_bytes max;            /* 1 (deprecated, signed order) */
  pqt_bytes min;            /* 2 */
  int64_t null_count;       /* 3 */
  int64_t distinct_count;   /* 4 */
  pqt_bytes max_value;      /* 5 */
  pqt_bytes min_value;      /* 6 */
  bool is_max_value_exact;  /* 7 */
  bool is_min_value_exact;  /* 8 */
  int64_t nan_count;        /* 9 */
} pqt_statistics;

/* ---- logical types ---- */
typedef struct pqt_decimal_type {
  uint32_t isset;
  int32_t scale;     /* 1 */
  int32_t precision; /* 2 */
} pqt_decimal_type;

/* union TimeUnit: bit 1 MILLIS, 2 MICROS, 3 NANOS */
enum { PQT_TIME_UNIT_MILLIS = 1, PQT_TIME_UNIT_MICROS = 2, PQT_TIME_UNIT_NANOS = 3 };
typedef struct pqt_time_unit { uint32_t isset; } pqt_time_unit;

typedef struct pqt_time_type { /* also TimestampType: same fields */
  uint32_t isset;
  bool is_adjusted_to_utc; /* 1 isAdjustedToUTC */
  pqt_time_unit unit;      /* 2 */
} pqt_time_type;
typedef pqt_time_type pqt_timestamp_type;

typedef struct pqt_int_type {
  uint32_t isset;
  int8_t bit_width; /* 1 bitWidth (i8) */
  bool is_signed;   /* 2 isSigned */
} pqt_int_type;

typedef struct pqt_variant_type {
  uint32_t isset;
  int8_t specification_version; /* 1 */
} pqt_variant_type;

typedef struct pqt_geometry_type {
  uint32_t isset;
  pqt_bytes crs; /* 1 */
} pqt_geometry_type;

typedef struct pqt_geography_type {
  uint32_t isset;
  pqt_bytes crs;     /* 1 */
  int32_t algorithm; /* 2 EdgeInterpolationAlgorithm */
} pqt_geography_type;

/* union LogicalType; the set bit names the member (the public PQT_LOGICAL_*
 * have the same values). */
enum {
  PQT_LT_STRING = 1, PQT_LT_MAP = 2, PQT_LT_LIST = 3, PQT_LT_ENUM = 4,
  PQT_LT_DECIMAL = 5, PQT_LT_DATE = 6, PQT_LT_TIME = 7, PQT_LT_TIMESTAMP = 8,
  /* 9 reserved for INTERVAL */
  PQT_LT_INTEGER = 10, PQT_LT_UNKNOWN = 11, PQT_LT_JSON = 12, PQT_LT_BSON = 13,
  PQT_LT_UUID = 14, PQT_LT_FLOAT16 = 15, PQT_LT_VARIANT = 16,
  PQT_LT_GEOMETRY = 17, PQT_LT_GEOGRAPHY = 18, PQT_LT_VECTOR = 19
};
typedef struct pqt_logical_type {
  uint32_t isset;
  pqt_decimal_type decimal;     /* 5 */
  pqt_time_type time;           /* 7 */
  pqt_timestamp_type timestamp; /* 8 */
  pqt_int_type integer;         /* 10 */
  pqt_variant_type variant;     /* 16 */
  pqt_geometry_type geometry;   /* 17 */
  pqt_geography_type geography; /* 18 */
} pqt_logical_type;

/* Which member of a decoded union is set (0 when none or unknown). */
static inline int pqt_union_which(uint32_t isset) {
  return isset ? __builtin_ctz(isset) : 0;
}

typedef struct pqt_schema_element {
  uint32_t isset;
  int32_t type;              /* 1 Type */
  int32_t type_length;       /* 2 */
  int32_t repetition_type;   /* 3 FieldRepetitionType */
  pqt_bytes name;            /* 4 required */
  int32_t num_children;      /* 5 */
  int32_t converted_type;    /* 6 ConvertedType */
  int32_t scale;             /* 7 */
  int32_t precision;         /* 8 */
  int32_t field_id;          /* 9 */
  pqt_logical_type logical_type; /* 10 logicalType */
  int32_t vector_length;     /* 11 */
} pqt_schema_element;

/* ---- pages ---- */
typedef struct pqt_data_page_header {
  uint32_t isset;
  int32_t num_values;                /* 1 */
  int32_t encoding;                  /* 2 */
  int32_t definition_level_encoding; /* 3 */
  int32_t repetition_level_encoding; /* 4 */
  pqt_statistics statistics;         /* 5 */
} pqt_data_page_header;

typedef struct pqt_index_page_header { uint32_t isset; } pqt_index_page_header;

typedef struct pqt_dictionary_page_header {
  uint32_t isset;
  int32_t num_values; /* 1 */
  int32_t encoding;   /* 2 */
  bool is_sorted;     /* 3 */
} pqt_dictionary_page_header;

typedef struct pqt_data_page_header_v2 {
  uint32_t isset;
  int32_t num_values;                    /* 1 */
  int32_t num_nulls;                     /* 2 */
  int32_t num_rows;                      /* 3 */
  int32_t encoding;                      /* 4 */
  int32_t definition_levels_byte_length; /* 5 */
  int32_t repetition_levels_byte_length; /* 6 */
  bool is_compressed;                    /* 7 (default true when absent) */
  pqt_statistics statistics;             /* 8 */
} pqt_data_page_header_v2;

typedef struct pqt_page_header {
  uint32_t isset;
  int32_t type;                   /* 1 PageType */
  int32_t uncompressed_page_size; /* 2 */
  int32_t compressed_page_size;   /* 3 */
  int32_t crc;                    /* 4 */
  pqt_data_page_header data_page_header;             /* 5 */
  pqt_index_page_header index_page_header;           /* 6 */
  pqt_dictionary_page_header dictionary_page_header; /* 7 */
  pqt_data_page_header_v2 data_page_header_v2;       /* 8 */
} pqt_page_header;

/* ---- Bloom filter header: unions with empty members ---- */
typedef struct pqt_bloom_filter_header {
  uint32_t isset;
  int32_t num_bytes;   /* 1 numBytes */
  uint32_t algorithm;  /* 2 union BloomFilterAlgorithm: isset bits (1 = BLOCK) */
  uint32_t hash;       /* 3 union BloomFilterHash: isset bits (1 = XXHASH) */
  uint32_t compression;/* 4 union BloomFilterCompression: isset bits (1 = UNCOMPRESSED) */
} pqt_bloom_filter_header;

/* ---- column chunks and row groups ---- */
typedef struct pqt_key_value {
  uint32_t isset;
  pqt_bytes key;   /* 1 required */
  pqt_bytes value; /* 2 */
} pqt_key_value;
typedef struct pqt_list_key_value { pqt_key_value *items; int32_t n; } pqt_list_key_value;

typedef struct pqt_sorting_column {
  uint32_t isset;
  int32_t column_idx; /* 1 */
  bool descending;    /* 2 */
  bool nulls_first;   /* 3 */
} pqt_sorting_column;
typedef struct pqt_list_sorting_column { pqt_sorting_column *items; int32_t n; } pqt_list_sorting_column;

typedef struct pqt_page_encoding_stats {
  uint32_t isset;
  int32_t page_type; /* 1 */
  int32_t encoding;  /* 2 */
  int32_t count;     /* 3 */
} pqt_page_encoding_stats;
typedef struct pqt_list_page_encoding_stats { pqt_page_encoding_stats *items; int32_t n; } pqt_list_page_encoding_stats;

typedef struct pqt_column_metadata {
  uint32_t isset;
  int32_t type;                          /* 1 */
  pqt_list_i32 encodings;                /* 2 */
  pqt_list_bytes path_in_schema;         /* 3 */
  int32_t codec;                         /* 4 */
  int64_t num_values;                    /* 5 */
  int64_t total_uncompressed_size;       /* 6 */
  int64_t total_compressed_size;         /* 7 */
  pqt_list_key_value key_value_metadata; /* 8 */
  int64_t data_page_offset;              /* 9 */
  int64_t index_page_offset;             /* 10 */
  int64_t dictionary_page_offset;        /* 11 */
  pqt_statistics statistics;             /* 12 */
  pqt_list_page_encoding_stats encoding_stats; /* 13 */
  int64_t bloom_filter_offset;           /* 14 */
  int32_t bloom_filter_length;           /* 15 */
  pqt_size_statistics size_statistics;   /* 16 */
  pqt_geospatial_statistics geospatial_statistics; /* 17 */
} pqt_column_metadata;

typedef struct pqt_encryption_with_column_key {
  uint32_t isset;
  pqt_list_bytes path_in_schema; /* 1 */
  pqt_bytes key_metadata;        /* 2 */
} pqt_encryption_with_column_key;

/* union ColumnCryptoMetaData: 1 ENCRYPTION_WITH_FOOTER_KEY (empty), 2 ENCRYPTION_WITH_COLUMN_KEY */
typedef struct pqt_column_crypto_metadata {
  uint32_t isset;
  pqt_encryption_with_column_key encryption_with_column_key; /* 2 */
} pqt_column_crypto_metadata;

typedef struct pqt_column_chunk {
  uint32_t isset;
  pqt_bytes file_path;                        /* 1 */
  int64_t file_offset;                        /* 2 */
  pqt_column_metadata meta_data;              /* 3 */
  int64_t offset_index_offset;                /* 4 */
  int32_t offset_index_length;                /* 5 */
  int64_t column_index_offset;                /* 6 */
  int32_t column_index_length;                /* 7 */
  pqt_column_crypto_metadata crypto_metadata; /* 8 */
  pqt_bytes encrypted_column_metadata;        /* 9 */
} pqt_column_chunk;
typedef struct pqt_list_column_chunk { pqt_column_chunk *items; int32_t n; } pqt_list_column_chunk;

typedef struct pqt_row_group {
  uint32_t isset;
  pqt_list_column_chunk columns;          /* 1 */
  int64_t total_byte_size;                /* 2 */
  int64_t num_rows;                       /* 3 */
  pqt_list_sorting_column sorting_columns;/* 4 */
  int64_t file_offset;                    /* 5 */
  int64_t total_compressed_size;          /* 6 */
  int16_t ordinal;                        /* 7 */
} pqt_row_group;
typedef struct pqt_list_row_group { pqt_row_group *items; int32_t n; } pqt_list_row_group;

/* union ColumnOrder: 1 TYPE_ORDER, 2 IEEE_754_TOTAL_ORDER, 3 INT96_TIMESTAMP_ORDER (all empty) */
enum { PQT_ORDER_TYPE = 1, PQT_ORDER_IEEE_754_TOTAL = 2, PQT_ORDER_INT96_TIMESTAMP = 3 };
typedef struct pqt_column_order { uint32_t isset; } pqt_column_order;
typedef struct pqt_list_column_order { pqt_column_order *items; int32_t n; } pqt_list_column_order;

/* ---- page index ---- */
typedef struct pqt_page_location {
  uint32_t isset;
  int64_t offset;               /* 1 */
  int32_t compressed_page_size; /* 2 */
  int64_t first_row_index;      /* 3 */
} pqt_page_location;
typedef struct pqt_list_page_location { pqt_page_location *items; int32_t n; } pqt_list_page_location;

typedef struct pqt_offset_index {
  uint32_t isset;
  pqt_list_page_location page_locations;        /* 1 */
  pqt_list_i64 unencoded_byte_array_data_bytes; /* 2 */
} pqt_offset_index;

typedef struct pqt_column_index {
  uint32_t isset;
  pqt_list_bool null_pages;                  /* 1 */
  pqt_list_bytes min_values;                 /* 2 */
  pqt_list_bytes max_values;                 /* 3 */
  int32_t boundary_order;                    /* 4 */
  pqt_list_i64 null_counts;                  /* 5 */
  pqt_list_i64 repetition_level_histograms;  /* 6 */
  pqt_list_i64 definition_level_histograms;  /* 7 */
  pqt_list_i64 nan_counts;                   /* 8 */
} pqt_column_index;

/* ---- encryption ---- */
typedef struct pqt_aes_gcm_v1 { /* also AesGcmCtrV1: same fields */
  uint32_t isset;
  pqt_bytes aad_prefix;      /* 1 */
  pqt_bytes aad_file_unique; /* 2 */
  bool supply_aad_prefix;    /* 3 */
} pqt_aes_gcm_v1;

/* union EncryptionAlgorithm: 1 AES_GCM_V1, 2 AES_GCM_CTR_V1 */
typedef struct pqt_encryption_algorithm {
  uint32_t isset;
  pqt_aes_gcm_v1 aes_gcm_v1;     /* 1 */
  pqt_aes_gcm_v1 aes_gcm_ctr_v1; /* 2 */
} pqt_encryption_algorithm;

typedef struct pqt_list_schema_element { pqt_schema_element *items; int32_t n; } pqt_list_schema_element;

typedef struct pqt_file_metadata {
  uint32_t isset;
  int32_t version;                              /* 1 */
  pqt_list_schema_element schema;               /* 2 */
  int64_t num_rows;                             /* 3 */
  pqt_list_row_group row_groups;                /* 4 */
  pqt_list_key_value key_value_metadata;        /* 5 */
  pqt_bytes created_by;                         /* 6 */
  pqt_list_column_order column_orders;          /* 7 */
  pqt_encryption_algorithm encryption_algorithm;/* 8 */
  pqt_bytes footer_signing_key_metadata;        /* 9 */
} pqt_file_metadata;

typedef struct pqt_file_crypto_metadata {
  uint32_t isset;
  pqt_encryption_algorithm encryption_algorithm; /* 1 */
  pqt_bytes key_metadata;                        /* 2 */
} pqt_file_crypto_metadata;

#endif /* PQT_THRIFT_PARQUET_TYPES_H */
