/*
 * meta/typed_value.h: one value of a leaf column between its PLAIN bytes
 * (the form statistics, the page index and Bloom filters use: BYTE_ARRAY
 * without its length prefix), the typed pqt_value of parquetry_meta.h, and
 * text. The type comes from the leaf's physical type and effective logical
 * type (spec: LogicalTypes.md in seeds/001; parquet.thrift Statistics).
 */
#ifndef PQT_META_TYPED_VALUE_H
#define PQT_META_TYPED_VALUE_H

#include "core/core.h"
#include "meta/schema.h"
#include "parquetry_meta.h"

/* The public logical kind of a leaf or group (INTERVAL from its ConvertedType). */
int32_t pqt_node_logical_kind(const pqt_schema_node *node);

/* The pqt_value_kind a leaf's values take. */
int32_t pqt_leaf_value_kind(const pqt_schema_node *leaf);

/* PLAIN bytes p[0..n) of a value of leaf -> *out (struct_size set; bytes
 * point into p). A size that does not fit the type is PQT_ECORRUPT. */
pqt_status pqt_typed_from_plain(const pqt_schema_node *leaf, const uint8_t *p, size_t n, pqt_value *out,
                                pqt_error *err);

/* The PLAIN bytes of v as a value of leaf, appended to out. v->plain, when
 * set, is used as it is (checked for width). PQT_EINVAL when v's kind or
 * range does not fit the column. */
pqt_status pqt_typed_to_plain(const pqt_schema_node *leaf, const pqt_value *v, pqt_buf *out, pqt_error *err);

/* Parse text as a value of leaf (see pqt_reader_parse_value). Bytes that
 * need storage are put in *storage (cleared first; it must not change
 * until out is no longer used). */
pqt_status pqt_typed_parse(const pqt_schema_node *leaf, const char *text, pqt_value *out, pqt_buf *storage,
                           pqt_error *err);

/* Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t pqt_days_from_civil(int64_t y, unsigned m, unsigned d);

#endif
