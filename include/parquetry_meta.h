/*
 * parquetry_meta.h: the metadata of an open file as a C API, for query
 * planners and tools that would otherwise parse `parquetry meta --json`.
 *
 * What is here: file and column-chunk key-value metadata; the schema tree
 * with logical types and Dremel levels; per column chunk its codec,
 * encodings, encoding stats, sizes and offsets; the statistics decoded into
 * typed values (pqt_value) with "usable for pruning" decided by the column
 * order rules; SizeStatistics; GeospatialStatistics; the ColumnIndex and
 * OffsetIndex decoded into arrays; a Bloom filter probe; the dictionary of
 * a chunk as an Arrow array; and the canonical text of a value.
 *
 * Conventions (as in parquetry.h):
 *   - Every fallible function returns pqt_status and takes pqt_error* last
 *     (may be NULL). The library never reads *err.
 *   - Structs that the library fills start with `size_t struct_size`. Call
 *     the struct's _init before passing it in: _init zeroes it and sets
 *     struct_size = sizeof the struct as this header defines it. The library
 *     checks struct_size (PQT_EINVAL when smaller than the first release of
 *     the struct) and fills only the fields that fit, so a program built
 *     against an older header keeps working with a newer library.
 *   - Row groups and columns are 0-based indexes (`col` is the leaf column
 *     ordinal, as in pqt_reader_column_info). Out of range is PQT_EINVAL.
 *   - Pointers returned inside structs point into the reader's metadata and
 *     stay valid until pqt_reader_close, unless the function says the caller
 *     frees them. Byte views (pqt_value.bytes, key-value text) are NOT
 *     NUL-terminated: use their lengths.
 *   - A chunk encrypted with a key that was not given (pqt_read_options)
 *     gives PQT_ECRYPTO with a message naming the column.
 *   - Accessors on one reader must not run on two threads at once (as for
 *     every other reader function).
 */
#ifndef PARQUETRY_META_H
#define PARQUETRY_META_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ArrowArray;
struct ArrowSchema;

/* ------------------------------------------------------------------ */
/* Enums (values as in parquet.thrift, so raw footer values compare)   */
/* ------------------------------------------------------------------ */

typedef enum pqt_repetition_kind {
  PQT_REPETITION_REQUIRED = 0,
  PQT_REPETITION_OPTIONAL = 1,
  PQT_REPETITION_REPEATED = 2,
  PQT_REPETITION_VECTOR = 3,
  PQT_REPETITION_NONE = -1 /* the root */
} pqt_repetition_kind;

typedef enum pqt_unit_kind {
  PQT_UNIT_NONE = 0,
  PQT_UNIT_MILLIS = 1,
  PQT_UNIT_MICROS = 2,
  PQT_UNIT_NANOS = 3
} pqt_unit_kind;

typedef enum pqt_page_kind {
  PQT_PAGE_KIND_DATA_PAGE = 0,
  PQT_PAGE_KIND_INDEX_PAGE = 1,
  PQT_PAGE_KIND_DICTIONARY_PAGE = 2,
  PQT_PAGE_KIND_DATA_PAGE_V2 = 3
} pqt_page_kind;

typedef enum pqt_boundary_order_kind {
  PQT_BOUNDARY_ORDER_UNORDERED = 0,
  PQT_BOUNDARY_ORDER_ASCENDING = 1,
  PQT_BOUNDARY_ORDER_DESCENDING = 2
} pqt_boundary_order_kind;

/* FileMetaData.column_orders of a column (the ColumnOrder union's ids). */
typedef enum pqt_column_order_kind {
  PQT_COLUMN_ORDER_UNDEFINED = 0, /* absent, or a member this version does not know */
  PQT_COLUMN_ORDER_TYPE_DEFINED = 1,
  PQT_COLUMN_ORDER_IEEE_754_TOTAL = 2,
  PQT_COLUMN_ORDER_INT96_TIMESTAMP = 3
} pqt_column_order_kind;

/* Names as in parquet.thrift ("ZSTD", "RLE_DICTIONARY", "DATA_PAGE_V2",
 * "ASCENDING", "INT32", "OPTIONAL", "TIMESTAMP"); "?" when out of range. */
PQT_API const char *pqt_compression_name(int32_t codec);
PQT_API const char *pqt_encoding_name(int32_t encoding);
PQT_API const char *pqt_page_kind_name(int32_t page_type);
PQT_API const char *pqt_boundary_order_name(int32_t order);
PQT_API const char *pqt_physical_name(int32_t physical);
PQT_API const char *pqt_repetition_kind_name(int32_t repetition);
PQT_API const char *pqt_logical_name(int32_t logical);
/* The other way, from the same tables: the value of a name, ASCII
 * case-insensitive ("zstd", "rle_dictionary"), or -1 when unknown.
 * pqt_compression_from_name also takes "NONE" for UNCOMPRESSED and answers
 * -1 for a codec this build does not know. */
PQT_API int32_t pqt_compression_from_name(const char *name);
PQT_API int32_t pqt_encoding_from_name(const char *name);

/* ------------------------------------------------------------------ */
/* Typed values                                                        */
/* ------------------------------------------------------------------ */

typedef enum pqt_value_kind {
  PQT_VALUE_NONE = 0,      /* no value (absent bound, null page) */
  PQT_VALUE_BOOLEAN = 1,   /* i64 0 or 1 */
  PQT_VALUE_INT64 = 2,     /* i64: signed integers of any width */
  PQT_VALUE_UINT64 = 3,    /* u64: INTEGER(unsigned) / UINT_n */
  PQT_VALUE_DOUBLE = 4,    /* f64: FLOAT (exactly widened) and DOUBLE */
  PQT_VALUE_FLOAT16 = 5,   /* f64: FLOAT16, exactly widened; bytes: its 2 stored bytes */
  PQT_VALUE_BYTES = 6,     /* bytes: BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY without a text type,
                              UUID (16 bytes), INTERVAL (12), INT96 (12), geometry WKB */
  PQT_VALUE_STRING = 7,    /* bytes: STRING, ENUM, JSON (UTF-8, not NUL-terminated) */
  PQT_VALUE_DECIMAL = 8,   /* scale/precision; unscaled in i64 when n_bytes == 0 (INT32/INT64
                              decimals), else bytes: big-endian two's complement */
  PQT_VALUE_DATE = 9,      /* i64 days since 1970-01-01 */
  PQT_VALUE_TIME = 10,     /* i64 in `unit` since midnight; is_utc */
  PQT_VALUE_TIMESTAMP = 11 /* i64 in `unit` since the epoch; is_utc (INT96: NANOS, not UTC) */
} pqt_value_kind;

/*
 * One value of a column, typed by the column's logical type. Bytes point
 * into the reader's metadata (statistics), into the page index struct they
 * came from (its lifetime), or into caller memory (values the caller
 * builds); `plain` always holds the value's PLAIN encoding as stored
 * (BYTE_ARRAY without its length prefix) when the library filled it.
 * Functions that take a value use `plain` when it is set and the typed
 * fields otherwise: set plain = NULL after changing a value the library
 * returned.
 */
typedef struct pqt_value {
  size_t struct_size;
  int32_t kind;      /* pqt_value_kind */
  int32_t unit;      /* pqt_unit_kind: TIME, TIMESTAMP */
  int32_t is_utc;    /* TIME, TIMESTAMP: adjusted to UTC */
  int32_t scale;     /* DECIMAL */
  int32_t precision; /* DECIMAL */
  int64_t i64;
  uint64_t u64;
  double f64;
  const uint8_t *bytes;
  size_t n_bytes;
  const uint8_t *plain; /* PLAIN bytes as stored (NULL in values the caller builds) */
  size_t n_plain;
} pqt_value;

PQT_API void pqt_value_init(pqt_value *v);

/*
 * Parse `text` as a value of column `col` (the forms `parquetry cat` prints,
 * unquoted: 42, -1.5, NaN, true, 2024-01-31, 12:30:00.5, 2024-01-31T12:30:00Z,
 * 12.34 for DECIMAL (at most `scale` fraction digits; unscaled values up to
 * 18 digits), 8-4-4-4-12 for UUID; strings and binaries as their bytes;
 * "hex:..." for any other byte array). Bytes that need storage (UUID,
 * BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY) go into *storage: its previous contents
 * are freed first (zero it before the first call; one storage per value
 * kept), and the caller frees it with pqt_string_free after the last use of
 * *out. STRING values point into text itself, which must outlive *out.
 * Errors: PQT_EINVAL naming the column and what was expected.
 */
PQT_API pqt_status pqt_reader_parse_value(const pqt_reader *r, int32_t col, const char *text, pqt_value *out,
                                          pqt_string *storage, pqt_error *err);

/*
 * The canonical JSON text of a value of column `col`, as `parquetry cat`
 * prints it (strings quoted, numbers bare, "NaN" quoted...). Appended to
 * out (out may be zeroed; free with pqt_string_free). A value whose kind
 * does not fit the column is PQT_EINVAL.
 */
PQT_API pqt_status pqt_reader_format_value(const pqt_reader *r, int32_t col, const pqt_value *v, pqt_string *out,
                                           pqt_error *err);

/* ------------------------------------------------------------------ */
/* Key-value metadata                                                  */
/* ------------------------------------------------------------------ */

typedef struct pqt_kv {
  size_t struct_size;
  const char *key; /* not NUL-terminated */
  size_t key_len;
  const char *value; /* NULL when the entry has no value; not NUL-terminated */
  size_t value_len;
} pqt_kv;

PQT_API void pqt_kv_init(pqt_kv *kv);

/* FileMetaData.key_value_metadata. */
PQT_API int32_t pqt_reader_kv_count(const pqt_reader *r);
PQT_API pqt_status pqt_reader_kv(const pqt_reader *r, int32_t i, pqt_kv *out, pqt_error *err);
/* ColumnMetaData.key_value_metadata of a chunk (count -1 on bad indexes
 * or an encrypted chunk without its key). */
PQT_API int32_t pqt_chunk_kv_count(const pqt_reader *r, int32_t rg, int32_t col);
PQT_API pqt_status pqt_chunk_kv(const pqt_reader *r, int32_t rg, int32_t col, int32_t i, pqt_kv *out, pqt_error *err);

/* ------------------------------------------------------------------ */
/* Schema                                                              */
/* ------------------------------------------------------------------ */

/* A node of the schema tree; nodes are numbered in depth-first (footer)
 * order, the root is node 0. */
typedef struct pqt_schema_info {
  size_t struct_size;
  const char *name; /* NUL-terminated (names holding NUL bytes: see name_len) */
  size_t name_len;
  int32_t index;      /* this node */
  int32_t parent;     /* -1 for the root */
  int32_t n_children; /* pqt_reader_schema_child gives them */
  int32_t depth;      /* root 0 */
  int32_t repetition; /* pqt_repetition_kind */
  int32_t is_leaf;
  int32_t physical;       /* pqt_type (-1 for groups) */
  int32_t type_length;    /* FIXED_LEN_BYTE_ARRAY width, else -1 */
  int32_t converted_type; /* the raw ConvertedType value, -1 when absent */
  int32_t has_field_id;
  int32_t field_id;
  /* the effective logical type (see pqt_logical) and its parameters */
  int32_t logical;          /* pqt_logical */
  int32_t scale, precision; /* DECIMAL */
  int32_t unit;             /* TIME, TIMESTAMP: pqt_unit_kind */
  int32_t is_utc;           /* TIME, TIMESTAMP */
  int32_t bit_width;        /* INTEGER: 8, 16, 32, 64 */
  int32_t is_signed;        /* INTEGER */
  const char *crs;          /* GEOMETRY/GEOGRAPHY: NULL when absent (not NUL-terminated) */
  size_t crs_len;
  int32_t edge_algorithm; /* GEOGRAPHY: EdgeInterpolationAlgorithm value, -1 when absent */
  int32_t vector_length;  /* VECTOR repetition, else 0 */
  /* levels */
  int32_t max_def;
  int32_t max_rep;
  /* leaves under this node: [first_leaf, first_leaf + n_leaves) */
  int32_t first_leaf;
  int32_t n_leaves;
  int32_t column;   /* leaves: the column ordinal; -1 for groups */
  const char *path; /* leaves: dotted path "a.b.c" (NUL-terminated); NULL for groups */
} pqt_schema_info;

PQT_API void pqt_schema_info_init(pqt_schema_info *s);
PQT_API int32_t pqt_reader_schema_node_count(const pqt_reader *r);
PQT_API pqt_status pqt_reader_schema_node(const pqt_reader *r, int32_t node, pqt_schema_info *out, pqt_error *err);
/* The node index of child i of node (-1 when out of range). */
PQT_API int32_t pqt_reader_schema_child(const pqt_reader *r, int32_t node, int32_t i);
/* The node index of leaf column col (-1 when out of range). */
PQT_API int32_t pqt_reader_column_node(const pqt_reader *r, int32_t col);
/* The leaf column with this dotted path (-1 when there is none). */
PQT_API int32_t pqt_reader_find_column(const pqt_reader *r, const char *dotted_path);

/* ------------------------------------------------------------------ */
/* Column chunks                                                       */
/* ------------------------------------------------------------------ */

typedef struct pqt_chunk_info {
  size_t struct_size;
  int32_t physical;   /* pqt_type */
  int32_t codec;      /* pqt_codec (raw value) */
  int64_t num_values; /* values incl. nulls (ColumnMetaData.num_values) */
  int64_t total_compressed_size;
  int64_t total_uncompressed_size;
  int64_t data_page_offset;
  int64_t dictionary_page_offset; /* -1 when absent (0 is read as absent, as writers meant) */
  int64_t index_page_offset;      /* -1 when absent */
  int64_t bloom_filter_offset;    /* -1 when absent */
  int64_t bloom_filter_length;    /* -1 when absent */
  int64_t column_index_offset;    /* -1 when absent */
  int64_t column_index_length;
  int64_t offset_index_offset; /* -1 when absent */
  int64_t offset_index_length;
  int32_t n_encodings;
  const int32_t *encodings; /* pqt_encoding values as stored */
  int32_t n_encoding_stats; /* pqt_chunk_encoding_stats */
  int32_t has_statistics;
  int32_t has_size_statistics;
  int32_t has_geospatial_statistics;
  int32_t encrypted;                 /* the chunk is encrypted (its metadata was at hand) */
  int32_t all_data_pages_dictionary; /* 1: encoding_stats say every data page is
                                        dictionary encoded; 0: some is not; -1: unknown */
  /* Added later (older callers' struct_size stops before these): */
  int64_t stored_dictionary_page_offset; /* dictionary_page_offset as stored (0 kept); -1 when absent */
} pqt_chunk_info;

PQT_API void pqt_chunk_info_init(pqt_chunk_info *c);
PQT_API pqt_status pqt_reader_chunk(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_info *out, pqt_error *err);

typedef struct pqt_encoding_stat {
  size_t struct_size;
  int32_t page_type; /* pqt_page_kind */
  int32_t encoding;  /* pqt_encoding */
  int32_t count;
} pqt_encoding_stat;

PQT_API void pqt_encoding_stat_init(pqt_encoding_stat *s);
PQT_API pqt_status pqt_chunk_encoding_stats(const pqt_reader *r, int32_t rg, int32_t col, int32_t i,
                                            pqt_encoding_stat *out, pqt_error *err);

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

/*
 * Statistics of a chunk, the bounds typed. min/max come from min_value /
 * max_value, or else from the deprecated min / max (from_legacy = 1).
 * usable_min / usable_max say whether a pruner may trust the bound, by the
 * column order rules of parquet.thrift:
 *   - min_value/max_value: only under a known ColumnOrder (TYPE_DEFINED or
 *     IEEE_754_TOTAL) and for a type with a sort order (not INT96,
 *     INTERVAL, geospatial, VARIANT, UNKNOWN);
 *   - deprecated min/max: only for signed orders (integers, floats,
 *     BOOLEAN), never byte arrays (their old order was signed bytes);
 *   - a NaN bound is never usable.
 * A truncated bound (exact = 0) is still a valid bound.
 */
typedef struct pqt_chunk_statistics {
  size_t struct_size;
  int32_t present;     /* the chunk has a Statistics struct */
  pqt_value min, max;  /* kind PQT_VALUE_NONE when absent */
  int32_t from_legacy; /* min/max are the deprecated fields */
  int32_t usable_min, usable_max;
  int32_t min_exact, max_exact; /* 1 exact, 0 not (truncated), -1 not stated */
  int32_t has_null_count;
  int64_t null_count;
  int32_t has_nan_count;
  int64_t nan_count;
  int32_t has_distinct_count;
  int64_t distinct_count;
  int32_t column_order; /* pqt_column_order_kind of the column */
  /* Added later: the Statistics struct as stored, for tools that show the
   * footer as it is. n_fields counts the fields the writer set (0: an
   * empty struct). The PLAIN bytes of each bound field (pointers NULL when
   * the field is absent) are the ones min/max above were decoded from;
   * format them with pqt_reader_format_plain. */
  int32_t n_fields;
  const uint8_t *min_value_plain, *max_value_plain; /* min_value, max_value */
  size_t n_min_value_plain, n_max_value_plain;
  const uint8_t *legacy_min_plain, *legacy_max_plain; /* the deprecated min, max */
  size_t n_legacy_min_plain, n_legacy_max_plain;
  /* Added later: 1 when the deprecated min/max were computed in an order
   * this column's sort order agrees with (signed: integers, floats,
   * BOOLEAN); 0 for every other type (byte arrays above all). */
  int32_t legacy_order_ok;
} pqt_chunk_statistics;

PQT_API void pqt_chunk_statistics_init(pqt_chunk_statistics *s);
PQT_API pqt_status pqt_reader_chunk_statistics(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_statistics *out,
                                               pqt_error *err);

/* SizeStatistics of a chunk. Histograms have max_rep+1 / max_def+1
 * entries (NULL and 0 when absent). */
typedef struct pqt_size_stats {
  size_t struct_size;
  int32_t present;
  int32_t has_unencoded_byte_array_data_bytes;
  int64_t unencoded_byte_array_data_bytes;
  int32_t n_repetition_level_histogram;
  const int64_t *repetition_level_histogram;
  int32_t n_definition_level_histogram;
  const int64_t *definition_level_histogram;
} pqt_size_stats;

PQT_API void pqt_size_stats_init(pqt_size_stats *s);
PQT_API pqt_status pqt_reader_chunk_size_stats(const pqt_reader *r, int32_t rg, int32_t col, pqt_size_stats *out,
                                               pqt_error *err);

/* GeospatialStatistics of a chunk. geospatial_types are WKB type codes
 * (1 Point ... 7 GeometryCollection, +1000 Z, +2000 M, +3000 ZM). */
typedef struct pqt_geo_stats {
  size_t struct_size;
  int32_t present;
  int32_t has_bbox;
  double xmin, xmax, ymin, ymax;
  int32_t has_z;
  double zmin, zmax;
  int32_t has_m;
  double mmin, mmax;
  int32_t n_geospatial_types;
  const int32_t *geospatial_types;
  /* Added later: */
  int32_t has_geospatial_types; /* the field is set (it may list none) */
} pqt_geo_stats;

PQT_API void pqt_geo_stats_init(pqt_geo_stats *s);
PQT_API pqt_status pqt_reader_chunk_geo_stats(const pqt_reader *r, int32_t rg, int32_t col, pqt_geo_stats *out,
                                              pqt_error *err);

/* ------------------------------------------------------------------ */
/* Page index                                                          */
/* ------------------------------------------------------------------ */

/*
 * The ColumnIndex and OffsetIndex of a chunk as arrays. Filled by
 * pqt_reader_page_index; free with pqt_page_index_free (all arrays and the
 * values' bytes live until then). A chunk without one of the two has
 * has_column_index / has_offset_index 0 and its arrays NULL.
 */
typedef struct pqt_page_index {
  size_t struct_size;
  /* ColumnIndex: one entry per data page */
  int32_t has_column_index;
  int32_t n_pages;
  const uint8_t *null_pages;   /* 1: the page has only nulls (no bounds) */
  const pqt_value *min_values; /* kind PQT_VALUE_NONE for null pages */
  const pqt_value *max_values;
  int32_t boundary_order;                     /* pqt_boundary_order_kind */
  const int64_t *null_counts;                 /* NULL when absent */
  const int64_t *nan_counts;                  /* NULL when absent */
  int32_t n_rep_levels;                       /* histogram width per page (max_rep + 1) */
  const int64_t *repetition_level_histograms; /* n_pages * n_rep_levels, NULL when absent */
  int32_t n_def_levels;
  const int64_t *definition_level_histograms; /* n_pages * n_def_levels, NULL when absent */
  int32_t usable_bounds;                      /* 1: min/max may prune (same rules as chunk statistics) */
  /* OffsetIndex: one entry per data page */
  int32_t has_offset_index;
  int32_t n_locations;
  const int64_t *page_offsets;
  const int32_t *compressed_page_sizes;
  const int64_t *first_row_indexes;
  const int64_t *unencoded_byte_array_data_bytes; /* NULL when absent */
  void *private_data;                             /* the library's; do not touch */
  /* Added later, set by pqt_reader_page_index_stored only (0 and NULL from
   * pqt_reader_page_index): each list's own length as stored, -1 for a
   * list that is absent, and why an index that is there could not be read. */
  int32_t n_min_values, n_max_values;
  int32_t n_null_counts, n_nan_counts;
  int32_t n_repetition_level_histograms, n_definition_level_histograms; /* entries */
  const char *column_index_error; /* NUL-terminated; NULL when read (or absent) */
  const char *offset_index_error;
} pqt_page_index;

PQT_API void pqt_page_index_init(pqt_page_index *pi);
PQT_API pqt_status pqt_reader_page_index(pqt_reader *r, int32_t rg, int32_t col, pqt_page_index *out, pqt_error *err);
/*
 * The page index as stored, for a checker that judges it entry by entry
 * (`parquetry verify`), where pqt_reader_page_index refuses an index whose
 * lists disagree. Nothing is refused but bytes that do not parse, and then
 * only that index: its *_error says why (the other one is still given),
 * and the call returns PQT_OK. Each list keeps its own length (n_pages is
 * null_pages'; n_min_values, n_max_values, n_null_counts, ... the others').
 * Every min/max entry has `plain` set to its bytes as stored, null pages'
 * too; kind is PQT_VALUE_NONE where the bytes are not a value of the type
 * (a wrong length). Errors: bad arguments; the chunk's data cannot be
 * opened (no key: PQT_ECRYPTO); out of memory. The caller's struct must
 * have the fields added later (pqt_page_index_init sets them up).
 */
PQT_API pqt_status pqt_reader_page_index_stored(pqt_reader *r, int32_t rg, int32_t col, pqt_page_index *out,
                                                pqt_error *err);
PQT_API void pqt_page_index_free(pqt_page_index *pi);

/*
 * Compare two PLAIN-encoded values of column col (BYTE_ARRAY without its
 * length prefix, BOOLEAN one byte 0/1) in the column's sort order, the one
 * its statistics and column index use: signed or unsigned integers,
 * unsigned bytes for byte arrays (a truncated bound compares as the prefix
 * it is), DECIMAL by value, floats numerically (-0 equal to +0). Returns
 * -1, 0 or 1; 2 when either value is not ordered: the type has no sort
 * order (INT96, INTERVAL, geospatial, ...), a NaN, or a length that is not
 * the type's. The column order the file declares is not looked at
 * (pqt_chunk_statistics.column_order has it).
 */
PQT_API int pqt_reader_compare_plain(const pqt_reader *r, int32_t col, const uint8_t *a, size_t an, const uint8_t *b,
                                     size_t bn);

/* ------------------------------------------------------------------ */
/* Bloom filters and dictionaries                                      */
/* ------------------------------------------------------------------ */

/*
 * Probe the chunk's split-block Bloom filter for v (a value of the column's
 * type, e.g. from pqt_reader_parse_value, or a pqt_value the library
 * returned): XXH64 of the value's PLAIN encoding as BloomFilter.md says.
 * Reads the filter's header and only the 32-byte block the hash selects.
 * *result: 1 the value might be in the chunk, 0 it definitely is not.
 * A chunk without a Bloom filter gives *result 1 (check
 * pqt_chunk_info.bloom_filter_offset to tell the cases apart).
 */
PQT_API pqt_status pqt_bloom_might_contain(pqt_reader *r, int32_t rg, int32_t col, const pqt_value *v, int *result,
                                           pqt_error *err);

/*
 * The dictionary page of a chunk as an Arrow array of the column's Arrow
 * type (as the stream exports the leaf; entries never null) and its
 * schema. Both are the caller's to release and stay valid after the
 * reader is closed. A chunk without a dictionary page gives PQT_OK with
 * out->release and out_schema->release NULL.
 */
PQT_API pqt_status pqt_reader_dictionary(pqt_reader *r, int32_t rg, int32_t col, struct ArrowArray *out,
                                         struct ArrowSchema *out_schema, pqt_error *err);

/*
 * The same dictionary as typed values (e.g. to prune a chunk whose data
 * pages are all dictionary encoded: pqt_chunk_info.all_data_pages_dictionary).
 * present 0 when the chunk has no dictionary page. Free with
 * pqt_dictionary_free (the values' bytes live until then).
 */
typedef struct pqt_dictionary {
  size_t struct_size;
  int32_t present;
  int64_t n_values;
  const pqt_value *values;
  void *private_data; /* the library's; do not touch */
} pqt_dictionary;

PQT_API void pqt_dictionary_init(pqt_dictionary *d);
PQT_API pqt_status pqt_reader_dictionary_values(pqt_reader *r, int32_t rg, int32_t col, pqt_dictionary *out,
                                                pqt_error *err);
PQT_API void pqt_dictionary_free(pqt_dictionary *d);

/* ------------------------------------------------------------------ */
/* Pages and the file's byte layout                                    */
/* ------------------------------------------------------------------ */

/* One page of a column chunk as its header describes it. */
typedef struct pqt_page_info {
  size_t struct_size;
  int32_t index;             /* ordinal of the page in the chunk (every page type) */
  int32_t page_type;         /* pqt_page_kind as stored (an unknown type is passed on too) */
  int64_t offset;            /* file offset of the page header */
  int32_t header_size;       /* bytes of the Thrift page header */
  int32_t compressed_size;   /* bytes after the header (compressed_page_size) */
  int32_t uncompressed_size; /* uncompressed_page_size */
  int32_t encoding;          /* pqt_encoding of the values; -1 when the page has none */
  int32_t def_encoding;      /* levels: v1 as stored, v2 RLE; -1 when not a data page */
  int32_t rep_encoding;
  int32_t num_values;   /* data pages: values incl. nulls; dictionary: entries; -1 otherwise */
  int32_t num_nulls;    /* v2 only, else -1 */
  int32_t num_rows;     /* v2 only, else -1 */
  int32_t def_bytes;    /* v2: definition levels byte length, else -1 */
  int32_t rep_bytes;    /* v2: repetition levels byte length, else -1 */
  int32_t is_compressed;  /* v2's flag (1 when absent); 1 for other pages */
  int32_t has_crc;        /* the header has a CRC */
  int32_t crc_ok;         /* with has_crc: 1 it matches the page bytes, 0 not; -1 not checked */
  int32_t has_statistics; /* the header has a Statistics struct */
  /* Added later, filled by pqt_page_cursor_next only (pqt_reader_chunk_pages
   * leaves them as pqt_page_info_init set them, 0): the byte lengths of the
   * level sections of a data page as the page holds them after decryption
   * and decompression (v1: without the 4-byte RLE length prefix; 0 when
   * the column has no such levels or the page is not a data page). */
  int64_t rep_levels_len;
  int64_t def_levels_len;
} pqt_page_info;

PQT_API void pqt_page_info_init(pqt_page_info *p);

/* Called for each page; any status but PQT_OK stops the walk and is returned. */
typedef pqt_status (*pqt_page_fn)(void *ctx, const pqt_page_info *page);

/*
 * The pages of chunk (rg, col), in file order, from their headers: each
 * header is decoded, the page's bytes are checked against the header's CRC
 * when check_crc is set (nothing is decompressed or decoded). The walk
 * covers the chunk's total_compressed_size bytes from its first page.
 * A header that does not decode, or a page that runs past the chunk, is
 * PQT_ECORRUPT naming row group, column and page (the pages before it were
 * passed to fn). An encrypted chunk is PQT_EUNSUPPORTED (its headers are
 * encrypted modules; `parquetry pages --lines` shows them with the keys).
 */
PQT_API pqt_status pqt_reader_chunk_pages(pqt_reader *r, int32_t rg, int32_t col, int check_crc, pqt_page_fn fn,
                                          void *ctx, pqt_error *err);

/*
 * A walk over the data and dictionary pages of one column chunk, the way
 * the reader reads them: each page's header is decoded (decrypted first
 * when the chunk is encrypted and its key was given to pqt_read_options),
 * its CRC checked when the header has one (a mismatch is reported in
 * crc_ok, not an error), and its body decrypted and decompressed, which
 * gives the level section lengths. Pages in another file (ColumnChunk.
 * file_path) are read there (pqt_read_options.allow_external_paths).
 * Index pages and page types this version does not know are skipped (their
 * ordinals still count in pqt_page_info.index).
 *
 *   pqt_page_cursor *pc;
 *   if (pqt_page_cursor_open(r, rg, col, &pc, &err) != PQT_OK) ...;
 *   pqt_page_info p; pqt_page_info_init(&p);
 *   int eof = 0;
 *   while ((st = pqt_page_cursor_next(pc, &p, &eof, &err)) == PQT_OK && !eof) ...;
 *   pqt_page_cursor_close(pc);
 *
 * Ownership: the cursor is the caller's, freed by pqt_page_cursor_close,
 * which must come before pqt_reader_close (the cursor borrows the reader;
 * do not use the reader from another thread while a cursor is open).
 * What pqt_page_cursor_statistics and pqt_page_cursor_file point at lives
 * until the next pqt_page_cursor_next or the close.
 *
 * Errors: pqt_page_cursor_open gives PQT_ECRYPTO only when the chunk is
 * encrypted and its key was not given (the message names the column), and
 * any other failure to reach the chunk's pages with its own status; every
 * message names the row group and column, and err->row_group and
 * err->column are set. pqt_page_cursor_next: a page that does not read
 * (bad header, a size past the chunk or the read limits, a failed
 * decompression or decryption) is an error naming row group, column and
 * page ordinal (err->page set); the cursor cannot go on after it.
 */
typedef struct pqt_page_cursor pqt_page_cursor;

PQT_API pqt_status pqt_page_cursor_open(pqt_reader *r, int32_t rg, int32_t col, pqt_page_cursor **out, pqt_error *err);
/* The next page into *out (initialised with pqt_page_info_init); *eof = 1
 * and PQT_OK after the last page. */
PQT_API pqt_status pqt_page_cursor_next(pqt_page_cursor *c, pqt_page_info *out, int *eof, pqt_error *err);
/* The Statistics of the current page's header, decoded as for a chunk
 * (pqt_reader_chunk_statistics_stored: a bound whose bytes do not decode as
 * the column's type has kind PQT_VALUE_NONE, its PLAIN bytes still given;
 * usable_min/usable_max by the same column order rules). present 0 when the
 * header has none (dictionary pages never do). */
PQT_API pqt_status pqt_page_cursor_statistics(const pqt_page_cursor *c, pqt_chunk_statistics *out, pqt_error *err);
/* The file the chunk's pages are read from when it is not the footer's
 * file: ColumnChunk.file_path as stored (not NUL-terminated, *len bytes);
 * NULL when the pages are in the footer's file. */
PQT_API const char *pqt_page_cursor_file(const pqt_page_cursor *c, size_t *len);
PQT_API void pqt_page_cursor_close(pqt_page_cursor *c);

/*
 * The current data page decoded with the reader's own decoders (levels,
 * dictionary, values), and what a check of the page's statistics, the
 * column index and the Bloom filter needs:
 *   - num_levels: entries (values, nulls, a list's empty or null entries);
 *     num_values: the non-null values; num_nulls: the rest; num_rows: the
 *     records that start in the page (repetition level 0);
 *   - nan_count: the NaN values (FLOAT, DOUBLE, FLOAT16; 0 for the rest);
 *   - min_value/max_value: the smallest and largest value in the column's
 *     sort order (the writer's: signed or unsigned, byte-wise, IEEE 754),
 *     NaNs left out; has_min_max 0 when the type has no order or no value
 *     is ordered (none, or only NaNs). Typed as pqt_reader_chunk_statistics
 *     types them, with `plain` the value's PLAIN bytes (kind
 *     PQT_VALUE_NONE, plain still set, when the bytes do not type);
 *   - the repetition and definition level histograms (max level + 1
 *     counts each, SizeStatistics' and the ColumnIndex's layout);
 *   - the chunk's Bloom filter probed with every value of the page:
 *     bloom_checked 1 when the chunk has one (BOOLEAN columns have none),
 *     bloom_missing the values it says are absent (a sound filter has none),
 *     bloom_first_missing the page value index of the first (-1: none).
 * The first call in a chunk decodes the whole chunk once (its values are
 * held until the close; a later page is a slice of it), and loads the
 * Bloom filter. Only for data pages: a dictionary page is PQT_EINVAL.
 * Ownership: what out points at (min/max bytes, histograms) lives until
 * the next pqt_page_cursor_next or the close.
 * Errors: a chunk whose pages do not decode: the decoder's status, the
 * message naming the row group, column and page ("row group G, column P:
 * page N: ..."), err->row_group and err->column set (err->page too); every
 * later decode of the chunk returns the same error.
 */
typedef struct pqt_page_values {
  size_t struct_size;
  int32_t data_page; /* ordinal among the chunk's data pages */
  int64_t num_levels;
  int64_t num_values;
  int64_t num_nulls;
  int64_t num_rows;
  int64_t nan_count;
  int32_t has_min_max;
  pqt_value min_value;
  pqt_value max_value;
  int32_t n_rep_levels; /* max_rep + 1 */
  const int64_t *repetition_level_histogram;
  int32_t n_def_levels; /* max_def + 1 */
  const int64_t *definition_level_histogram;
  int32_t bloom_checked;
  int64_t bloom_missing;
  int64_t bloom_first_missing;
  /* Added later: with bloom_checked -1, why the filter could not be read
   * (NUL-terminated, lives until the close); NULL otherwise. */
  const char *bloom_error;
} pqt_page_values;

PQT_API void pqt_page_values_init(pqt_page_values *v);
PQT_API pqt_status pqt_page_cursor_decode(pqt_page_cursor *c, pqt_page_values *out, pqt_error *err);
/* The decode of the whole chunk that pqt_page_cursor_decode hands out page
 * by page, run now when no page asked for it yet: PQT_OK, or the decoder's
 * error as pqt_page_cursor_decode gives it. A chunk without data pages
 * can only be judged this way (its pages holding no values while its row
 * group has rows is an error). Any time after the open. */
PQT_API pqt_status pqt_page_cursor_check(pqt_page_cursor *c, pqt_error *err);
/* Value i (0 .. num_values) of the page pqt_page_cursor_decode decoded,
 * typed as min_value is (plain: its PLAIN bytes, BOOLEAN one byte 0/1);
 * bytes live until the close. PQT_EINVAL out of range or before a decode. */
PQT_API pqt_status pqt_page_cursor_value(const pqt_page_cursor *c, int64_t i, pqt_value *out, pqt_error *err);

/*
 * The message of err without the place in front of it: when err->row_group
 * and err->column name a column chunk of r and the message starts with
 * "row group G, column P" (P the column's dotted path) followed by ": " or
 * ", ", what comes after (for a page: "page N: ..."); otherwise the whole
 * message. For a caller that prints the place its own way (`verify`:
 * "row group G, column P: ..."). Points into err->message.
 */
PQT_API const char *pqt_reader_error_detail(const pqt_reader *r, const pqt_error *err);

/* Where the footer is. */
typedef struct pqt_file_layout {
  size_t struct_size;
  int64_t file_size;
  int64_t footer_offset;    /* first byte of the serialized FileMetaData (or FileCryptoMetaData) */
  int64_t footer_length;    /* as the 4 bytes before the trailing magic say */
  int32_t encrypted_footer; /* the file ends "PARE" */
} pqt_file_layout;

PQT_API void pqt_file_layout_init(pqt_file_layout *l);
PQT_API pqt_status pqt_reader_file_layout(const pqt_reader *r, pqt_file_layout *out, pqt_error *err);

/* What pqt_reader_footer_signature found. */
typedef enum pqt_footer_signature_kind {
  PQT_FOOTER_SIGNATURE_NONE = 0,     /* no plaintext-footer signature: the file is not encrypted, or its footer is */
  PQT_FOOTER_SIGNATURE_VERIFIED = 1, /* the signature matches the footer (checked at open or now) */
  PQT_FOOTER_SIGNATURE_NO_KEY = 2    /* signed, but the footer key was not given: not checked */
} pqt_footer_signature_kind;

/*
 * The signature of a plaintext footer (Encryption.md "Plaintext footer
 * mode": the 28 bytes after FileMetaData, AES-GCM over it with the footer
 * key). The reader checks it at open when the footer key is given and
 * pqt_read_options.verify_footer_signature is set; this checks it whenever
 * the key was given. *state: a pqt_footer_signature_kind. A signature that
 * does not match, or a footer too short to hold one: PQT_ECRYPTO or
 * PQT_ECORRUPT with the reason.
 */
PQT_API pqt_status pqt_reader_footer_signature(const pqt_reader *r, int32_t *state, pqt_error *err);

/*
 * A copy of the file for sharing a reproduction without the data, written
 * through write(ctx, ...): what identifies the data is replaced by
 * placeholders of the same byte lengths, and the copy is a valid file with
 * the same structure (schema shape, row groups, pages, encodings, codecs,
 * statistics, indexes and Bloom filters present where they were).
 * Replaced: schema names (and path_in_schema), but the names the LIST, MAP
 * and VARIANT shapes prescribe ("list", "element", "key_value", ...);
 * key-value metadata keys and values (file and column chunks);
 * ColumnChunk.file_path; and in each column whose values sort as unsigned
 * bytes (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY but DECIMAL, FLOAT16, INTERVAL,
 * GEOMETRY, GEOGRAPHY, and not under a VARIANT) every value in dictionary
 * and data pages ("xxx...", its length kept), statistics min/max ("aaa..."
 * and "zzz..." of their lengths: still bounds; exact flags false, distinct
 * counts 0), page-header statistics, the ColumnIndex bounds (its boundary
 * order UNORDERED when the new bounds do not keep it) and the Bloom filter
 * (rebuilt for the new values). Kept: numbers, dates, levels, null counts,
 * SizeStatistics, encodings, page boundaries, created_by. Compressed pages
 * are compressed again with their codec, so their compressed sizes (and so
 * every offset, which is rewritten) may change; uncompressed sizes do not.
 * Bytes no metadata refers to are left out. Encrypted files:
 * PQT_EUNSUPPORTED. An encoding a scrubbed column cannot be rewritten in:
 * PQT_EUNSUPPORTED naming it. Errors name row group, column and page.
 */
PQT_API pqt_status pqt_reader_scrub(pqt_reader *r, pqt_write_fn write, void *ctx, pqt_error *err);

/* ------------------------------------------------------------------ */
/* The footer as stored                                                */
/* ------------------------------------------------------------------ */

/* ConvertedType values (the deprecated annotation, as in parquet.thrift):
 * what pqt_schema_info.converted_type holds. */
typedef enum pqt_converted_kind {
  PQT_CONVERTED_NONE = -1,
  PQT_CONVERTED_UTF8 = 0,
  PQT_CONVERTED_MAP = 1,
  PQT_CONVERTED_MAP_KEY_VALUE = 2,
  PQT_CONVERTED_LIST = 3,
  PQT_CONVERTED_ENUM = 4,
  PQT_CONVERTED_DECIMAL = 5,
  PQT_CONVERTED_DATE = 6,
  PQT_CONVERTED_TIME_MILLIS = 7,
  PQT_CONVERTED_TIME_MICROS = 8,
  PQT_CONVERTED_TIMESTAMP_MILLIS = 9,
  PQT_CONVERTED_TIMESTAMP_MICROS = 10,
  PQT_CONVERTED_UINT_8 = 11,
  PQT_CONVERTED_UINT_16 = 12,
  PQT_CONVERTED_UINT_32 = 13,
  PQT_CONVERTED_UINT_64 = 14,
  PQT_CONVERTED_INT_8 = 15,
  PQT_CONVERTED_INT_16 = 16,
  PQT_CONVERTED_INT_32 = 17,
  PQT_CONVERTED_INT_64 = 18,
  PQT_CONVERTED_JSON = 19,
  PQT_CONVERTED_BSON = 20,
  PQT_CONVERTED_INTERVAL = 21
} pqt_converted_kind;

/* FileMetaData.version as stored. */
PQT_API int32_t pqt_reader_footer_version(const pqt_reader *r);

/* The allocator the reader was opened with (the default one when none was
 * given): what the strings it hands out are freed with. */
PQT_API const pqt_allocator *pqt_reader_allocator(const pqt_reader *r);

/* A row group as its footer entry says. */
typedef struct pqt_row_group_info {
  size_t struct_size;
  int64_t num_rows;
  int64_t total_byte_size;       /* uncompressed, as the writer counted */
  int64_t total_compressed_size; /* -1 when absent */
  int32_t n_chunks;              /* ColumnChunks listed (a damaged footer may list fewer than the columns) */
  int32_t n_sorting_columns;     /* pqt_reader_sorting_columns gives them */
} pqt_row_group_info;

PQT_API void pqt_row_group_info_init(pqt_row_group_info *g);
PQT_API pqt_status pqt_reader_row_group(const pqt_reader *r, int32_t rg, pqt_row_group_info *out, pqt_error *err);

/* What the footer holds for a column chunk. */
typedef enum pqt_chunk_metadata_kind {
  PQT_CHUNK_METADATA_PLAIN = 0,     /* a ColumnMetaData in the clear (for an encrypted column in a file
                                       with a plaintext footer, a stripped copy) */
  PQT_CHUNK_METADATA_ENCRYPTED = 1, /* only encrypted_column_metadata */
  PQT_CHUNK_METADATA_NONE = 2       /* neither, or no ColumnChunk for the column */
} pqt_chunk_metadata_kind;

/* pqt_chunk_metadata_kind of chunk (rg, col); -1 on bad indexes. */
PQT_API int32_t pqt_reader_chunk_metadata_kind(const pqt_reader *r, int32_t rg, int32_t col);

/*
 * The accessors above as stored: the ColumnMetaData the footer holds in the
 * clear, also for an encrypted column whose key was not given (its stripped
 * copy), where pqt_reader_chunk and the others give PQT_ECRYPTO. For tools
 * that show the footer as it is (`parquetry meta`); a pruner wants the
 * checked ones. pqt_reader_chunk_statistics_stored does not fail on a bound
 * whose bytes do not decode as the column's type: that bound's kind is
 * PQT_VALUE_NONE and its PLAIN bytes are still given. A chunk without a
 * ColumnMetaData in the clear (pqt_reader_chunk_metadata_kind not PLAIN):
 * PQT_ECRYPTO when encrypted, PQT_ECORRUPT else.
 */
PQT_API pqt_status pqt_reader_chunk_stored(const pqt_reader *r, int32_t rg, int32_t col, pqt_chunk_info *out,
                                           pqt_error *err);
PQT_API pqt_status pqt_reader_chunk_statistics_stored(const pqt_reader *r, int32_t rg, int32_t col,
                                                      pqt_chunk_statistics *out, pqt_error *err);
PQT_API pqt_status pqt_reader_chunk_geo_stats_stored(const pqt_reader *r, int32_t rg, int32_t col, pqt_geo_stats *out,
                                                     pqt_error *err);
PQT_API int32_t pqt_chunk_kv_count_stored(const pqt_reader *r, int32_t rg, int32_t col);
PQT_API pqt_status pqt_chunk_kv_stored(const pqt_reader *r, int32_t rg, int32_t col, int32_t i, pqt_kv *out,
                                       pqt_error *err);

/*
 * The canonical JSON text of PLAIN-encoded bytes of column `col` (a
 * statistics bound as stored), as pqt_reader_format_value prints the
 * value; appended to out (zeroed, or holding text; free with
 * pqt_string_free). Bytes that are not one value of the column's type:
 * an error (out's text unchanged).
 */
PQT_API pqt_status pqt_reader_format_plain(const pqt_reader *r, int32_t col, const uint8_t *plain, size_t n,
                                           pqt_string *out, pqt_error *err);

/* The shortest text that reads back as v ("1.5", "1e+100", "NaN",
 * "Infinity"), as the library prints doubles; NUL-terminated into buf
 * (32 bytes always suffice). Returns the length (cut to cap - 1). */
PQT_API size_t pqt_double_text(double v, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_META_H */
