/*
 * variant/variant_shred.h: reconstruction of shredded Variant columns
 * (parquet-format VariantShredding.md, "Reconstructing a Shredded Variant").
 *
 * The decoded columns of a VARIANT group are described to this layer as a
 * tree of plain column views (the Arrow columnar layout: validity bitmap,
 * int32 offsets, values; slot i of a struct's children is slot i of the
 * struct). The arrow layer builds the views from its array tree; this layer
 * knows nothing of Parquet schemas or Arrow arrays.
 */
#ifndef PQT_VARIANT_SHRED_H
#define PQT_VARIANT_SHRED_H

#include "variant/variant.h"

/* What a typed_value column holds. */
typedef enum pqt_vshred_type {
  PQT_VSHRED_BOOLEAN = 1,     /* values: bitmap */
  PQT_VSHRED_INT8,            /* values: int32 */
  PQT_VSHRED_INT16,           /* values: int32 */
  PQT_VSHRED_INT32,           /* values: int32 */
  PQT_VSHRED_INT64,           /* values: int64 */
  PQT_VSHRED_FLOAT,           /* values: float */
  PQT_VSHRED_DOUBLE,          /* values: double */
  PQT_VSHRED_DECIMAL4,        /* values: int32, scale */
  PQT_VSHRED_DECIMAL8,        /* values: int64, scale */
  PQT_VSHRED_DECIMAL16_FIXED, /* values: `width` big-endian bytes each, scale */
  PQT_VSHRED_DECIMAL16_BYTES, /* offsets + values: big-endian, scale */
  PQT_VSHRED_DATE,            /* values: int32 days */
  PQT_VSHRED_TIME_MICROS,     /* values: int64 */
  PQT_VSHRED_TIMESTAMP_UTC_MICROS,
  PQT_VSHRED_TIMESTAMP_NTZ_MICROS,
  PQT_VSHRED_TIMESTAMP_UTC_NANOS,
  PQT_VSHRED_TIMESTAMP_NTZ_NANOS,
  PQT_VSHRED_BINARY, /* offsets + values */
  PQT_VSHRED_STRING, /* offsets + values */
  PQT_VSHRED_UUID,   /* values: 16 bytes each */
  PQT_VSHRED_OBJECT, /* fields */
  PQT_VSHRED_ARRAY,  /* offsets; one field: the element */
  PQT_VSHRED_UNSUPPORTED
} pqt_vshred_type;

typedef struct pqt_vshred_col pqt_vshred_col;

/* A value/typed_value pair: the top-level group, an object's field group or
 * an array's element group. value is a BINARY column (or NULL when the
 * schema has none), typed NULL when the schema has no typed_value. */
typedef struct pqt_vshred_pair {
  const char *name; /* object fields: the field name (NUL-terminated) */
  size_t name_len;
  const uint8_t *validity; /* the group's own (NULL: never null) */
  const pqt_vshred_col *value;
  const pqt_vshred_col *typed;
} pqt_vshred_pair;

struct pqt_vshred_col {
  pqt_vshred_type type;
  const char *path;        /* dotted column path, for errors */
  const char *type_name;   /* UNSUPPORTED: what the column is */
  const uint8_t *validity; /* NULL: no nulls */
  const int32_t *offsets;
  const uint8_t *values;
  int32_t width; /* DECIMAL16_FIXED */
  int32_t scale; /* decimals */
  int32_t n_fields;
  const pqt_vshred_pair *fields;
};

/* Append the Variant value of row i of the group top (metadata given) to
 * out. A value missing at the top level is Variant null. Errors name the
 * column path and the row (row_base + i). */
pqt_status pqt_vshred_row(const pqt_variant *meta, const pqt_vshred_pair *top, int64_t i, int64_t row_base,
                          const pqt_allocator *alloc, pqt_buf *out, pqt_error *err);

#endif
