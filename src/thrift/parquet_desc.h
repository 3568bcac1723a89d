/*
 * thrift/parquet_desc.h: descriptor tables for every struct and union of
 * parquet.thrift (apache/parquet-format), mapping each Thrift field onto the
 * C structs of thrift/parquet_types.h, plus the enum name tables. Drive them
 * with thrift/codec.h:
 *
 *   pqt_file_metadata md;
 *   pqt_thrift_decode(&pqt_desc_file_metadata, footer, len, NULL, &arena, &md, err);
 *
 * Empty marker structs (StringType, TypeDefinedOrder, ...) have descriptors
 * with size 0: as union members they store nothing but the union's isset bit.
 */
#ifndef PQT_THRIFT_PARQUET_DESC_H
#define PQT_THRIFT_PARQUET_DESC_H

#include <stdio.h>

#include "thrift/codec.h"

/* ---- enums ---- */
extern const pqt_thrift_enum pqt_enum_type;                         /* Type */
extern const pqt_thrift_enum pqt_enum_converted_type;               /* ConvertedType */
extern const pqt_thrift_enum pqt_enum_field_repetition_type;        /* FieldRepetitionType */
extern const pqt_thrift_enum pqt_enum_encoding;                     /* Encoding */
extern const pqt_thrift_enum pqt_enum_compression_codec;            /* CompressionCodec */
extern const pqt_thrift_enum pqt_enum_page_type;                    /* PageType */
extern const pqt_thrift_enum pqt_enum_boundary_order;               /* BoundaryOrder */
extern const pqt_thrift_enum pqt_enum_edge_interpolation_algorithm; /* EdgeInterpolationAlgorithm */

/* A value's name in an enum ("DELTA_BINARY_PACKED", "INT32") for messages,
 * from the tables above; a value without a name as "unknown N" in buf.
 * PQT_ENCODING_NAME / PQT_TYPE_NAME give a buffer that lives until the end
 * of the enclosing block (use them in a call's arguments). */
static inline const char *pqt_enum_label(const pqt_thrift_enum *e, int32_t v, char *buf, size_t n) {
  const char *s = pqt_thrift_enum_name(e, v);
  if (s) return s;
  snprintf(buf, n, "unknown %d", (int)v);
  return buf;
}
/* The value named name in an enum, ASCII case-insensitive ("zstd",
 * "RLE_DICTIONARY"), or -1. The one name -> value lookup over the tables
 * above (codec and encoding names for options and the CLI). */
int32_t pqt_enum_from_name(const pqt_thrift_enum *e, const char *name);

#define PQT_ENCODING_NAME(v) pqt_enum_label(&pqt_enum_encoding, (v), (char[24]){0}, 24)
#define PQT_TYPE_NAME(v)     pqt_enum_label(&pqt_enum_type, (v), (char[24]){0}, 24)

/* ---- empty marker structs (no storage) ---- */
extern const pqt_thrift_desc pqt_desc_string_type, pqt_desc_uuid_type, pqt_desc_map_type, pqt_desc_list_type,
    pqt_desc_vector_type, pqt_desc_enum_type, pqt_desc_date_type, pqt_desc_float16_type, pqt_desc_null_type,
    pqt_desc_json_type, pqt_desc_bson_type, pqt_desc_milli_seconds, pqt_desc_micro_seconds, pqt_desc_nano_seconds,
    pqt_desc_split_block_algorithm, pqt_desc_xx_hash, pqt_desc_uncompressed, pqt_desc_encryption_with_footer_key,
    pqt_desc_type_defined_order, pqt_desc_ieee754_total_order, pqt_desc_int96_timestamp_order;

/* ---- structs and unions (C type in parentheses) ---- */
extern const pqt_thrift_desc pqt_desc_size_statistics;            /* pqt_size_statistics */
extern const pqt_thrift_desc pqt_desc_bounding_box;               /* pqt_bounding_box */
extern const pqt_thrift_desc pqt_desc_geospatial_statistics;      /* pqt_geospatial_statistics */
extern const pqt_thrift_desc pqt_desc_statistics;                 /* pqt_statistics */
extern const pqt_thrift_desc pqt_desc_decimal_type;               /* pqt_decimal_type */
extern const pqt_thrift_desc pqt_desc_time_unit;                  /* pqt_time_unit (union) */
extern const pqt_thrift_desc pqt_desc_timestamp_type;             /* pqt_timestamp_type */
extern const pqt_thrift_desc pqt_desc_time_type;                  /* pqt_time_type */
extern const pqt_thrift_desc pqt_desc_int_type;                   /* pqt_int_type */
extern const pqt_thrift_desc pqt_desc_variant_type;               /* pqt_variant_type */
extern const pqt_thrift_desc pqt_desc_geometry_type;              /* pqt_geometry_type */
extern const pqt_thrift_desc pqt_desc_geography_type;             /* pqt_geography_type */
extern const pqt_thrift_desc pqt_desc_logical_type;               /* pqt_logical_type (union) */
extern const pqt_thrift_desc pqt_desc_schema_element;             /* pqt_schema_element */
extern const pqt_thrift_desc pqt_desc_data_page_header;           /* pqt_data_page_header */
extern const pqt_thrift_desc pqt_desc_index_page_header;          /* pqt_index_page_header */
extern const pqt_thrift_desc pqt_desc_dictionary_page_header;     /* pqt_dictionary_page_header */
extern const pqt_thrift_desc pqt_desc_data_page_header_v2;        /* pqt_data_page_header_v2 */
extern const pqt_thrift_desc pqt_desc_bloom_filter_algorithm;     /* uint32_t isset (union) */
extern const pqt_thrift_desc pqt_desc_bloom_filter_hash;          /* uint32_t isset (union) */
extern const pqt_thrift_desc pqt_desc_bloom_filter_compression;   /* uint32_t isset (union) */
extern const pqt_thrift_desc pqt_desc_bloom_filter_header;        /* pqt_bloom_filter_header */
extern const pqt_thrift_desc pqt_desc_page_header;                /* pqt_page_header */
extern const pqt_thrift_desc pqt_desc_key_value;                  /* pqt_key_value */
extern const pqt_thrift_desc pqt_desc_sorting_column;             /* pqt_sorting_column */
extern const pqt_thrift_desc pqt_desc_page_encoding_stats;        /* pqt_page_encoding_stats */
extern const pqt_thrift_desc pqt_desc_column_metadata;            /* pqt_column_metadata */
extern const pqt_thrift_desc pqt_desc_encryption_with_column_key; /* pqt_encryption_with_column_key */
extern const pqt_thrift_desc pqt_desc_column_crypto_metadata;     /* pqt_column_crypto_metadata (union) */
extern const pqt_thrift_desc pqt_desc_column_chunk;               /* pqt_column_chunk */
extern const pqt_thrift_desc pqt_desc_row_group;                  /* pqt_row_group */
extern const pqt_thrift_desc pqt_desc_column_order;               /* pqt_column_order (union) */
extern const pqt_thrift_desc pqt_desc_page_location;              /* pqt_page_location */
extern const pqt_thrift_desc pqt_desc_offset_index;               /* pqt_offset_index */
extern const pqt_thrift_desc pqt_desc_column_index;               /* pqt_column_index */
extern const pqt_thrift_desc pqt_desc_aes_gcm_v1;                 /* pqt_aes_gcm_v1 */
extern const pqt_thrift_desc pqt_desc_aes_gcm_ctr_v1;             /* pqt_aes_gcm_v1 */
extern const pqt_thrift_desc pqt_desc_encryption_algorithm;       /* pqt_encryption_algorithm (union) */
extern const pqt_thrift_desc pqt_desc_file_metadata;              /* pqt_file_metadata */
extern const pqt_thrift_desc pqt_desc_file_crypto_metadata;       /* pqt_file_crypto_metadata */

/* Every descriptor above (for tests and tools). */
extern const pqt_thrift_desc *const pqt_thrift_all_descs[];
extern const size_t pqt_thrift_n_descs;

#endif /* PQT_THRIFT_PARQUET_DESC_H */
