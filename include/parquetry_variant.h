/*
 * parquetry_variant.h: the Variant binary encoding (parquet-format
 * VariantEncoding.md): validate untrusted bytes, read values, build them
 * from JSON text, print them as JSON.
 *
 * A Variant is two byte strings: the metadata (a dictionary of field names)
 * and the value. A pqt_variant is a view of both; it owns nothing. A value
 * nested inside another (an object's field, an array's element) is itself a
 * pqt_variant with the same metadata.
 *
 * Every byte is untrusted. pqt_variant_validate checks a whole value tree
 * (offsets in range, sizes consistent, field ids in the dictionary, object
 * fields sorted by name and unique, UTF-8 strings, nesting at most
 * PQT_VARIANT_MAX_DEPTH, metadata version 1); the accessors check what they
 * touch as well, so a value that was not validated gives an error, never an
 * out-of-bounds read.
 */
#ifndef PARQUETRY_VARIANT_H
#define PARQUETRY_VARIANT_H

#include "parquetry.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PQT_VARIANT_MAX_DEPTH 128

/* The kind of a Variant value: the spec's primitive type ids, then the two
 * containers. A short string reads as PQT_VARIANT_STRING. */
typedef enum pqt_variant_kind {
  PQT_VARIANT_NULL = 0,
  PQT_VARIANT_TRUE = 1,
  PQT_VARIANT_FALSE = 2,
  PQT_VARIANT_INT8 = 3,
  PQT_VARIANT_INT16 = 4,
  PQT_VARIANT_INT32 = 5,
  PQT_VARIANT_INT64 = 6,
  PQT_VARIANT_DOUBLE = 7,
  PQT_VARIANT_DECIMAL4 = 8,
  PQT_VARIANT_DECIMAL8 = 9,
  PQT_VARIANT_DECIMAL16 = 10,
  PQT_VARIANT_DATE = 11,
  PQT_VARIANT_TIMESTAMP_MICROS = 12, /* adjusted to UTC */
  PQT_VARIANT_TIMESTAMP_NTZ_MICROS = 13,
  PQT_VARIANT_FLOAT = 14,
  PQT_VARIANT_BINARY = 15,
  PQT_VARIANT_STRING = 16,
  PQT_VARIANT_TIME_NTZ_MICROS = 17,
  PQT_VARIANT_TIMESTAMP_NANOS = 18, /* adjusted to UTC */
  PQT_VARIANT_TIMESTAMP_NTZ_NANOS = 19,
  PQT_VARIANT_UUID = 20,
  PQT_VARIANT_OBJECT = 64,
  PQT_VARIANT_ARRAY = 65
} pqt_variant_kind;

/* A view of a Variant: metadata and value bytes (both borrowed). */
typedef struct pqt_variant {
  const uint8_t *metadata;
  size_t metadata_len;
  const uint8_t *value;
  size_t value_len;
} pqt_variant;

/* A scalar read out of a value. Byte strings point into the value. */
typedef struct pqt_variant_scalar {
  pqt_variant_kind type;
  union {
    int64_t i64; /* INT8..INT64, DATE (days), TIMESTAMP*, TIME (units of the type) */
    double f64;  /* DOUBLE */
    float f32;   /* FLOAT */
    struct {
      const uint8_t *data;
      size_t len;
    } bytes; /* BINARY, STRING (UTF-8) */
    struct {
      uint8_t unscaled_le[16]; /* two's complement, little-endian, sign-extended to 16 bytes */
      int32_t scale;
    } decimal;        /* DECIMAL4/8/16 */
    uint8_t uuid[16]; /* UUID, big-endian as stored */
  } u;
} pqt_variant_scalar;

/* Check the whole value tree and the metadata (see above). */
PQT_API pqt_status pqt_variant_validate(const pqt_variant *v, pqt_error *err);

/* The type of the outermost value. */
PQT_API pqt_status pqt_variant_get_type(const pqt_variant *v, pqt_variant_kind *out, pqt_error *err);
/* A primitive (or string) value; PQT_EINVAL for an object or array. */
PQT_API pqt_status pqt_variant_get_scalar(const pqt_variant *v, pqt_variant_scalar *out, pqt_error *err);
/* Number of fields of an object or elements of an array. */
PQT_API pqt_status pqt_variant_num_elements(const pqt_variant *v, int64_t *out, pqt_error *err);
/* Field i of an object, in the encoding's order (sorted by name). name
 * points into the metadata and is not NUL-terminated. */
PQT_API pqt_status pqt_variant_object_field(const pqt_variant *v, int64_t i, const char **name, size_t *name_len,
                                            pqt_variant *field, pqt_error *err);
/* The field of an object with this name (binary search, then field by
 * field for an object whose ids are out of name order, which readers
 * accept): *found 0 when there is none. */
PQT_API pqt_status pqt_variant_object_find(const pqt_variant *v, const char *name, size_t name_len, pqt_variant *field,
                                           int *found, pqt_error *err);
/* Element i of an array. */
PQT_API pqt_status pqt_variant_array_element(const pqt_variant *v, int64_t i, pqt_variant *element, pqt_error *err);
/* The value at a path: "$" (the value itself), "$.a.b", "$['a b']",
 * "$.items[0].id". *found 0 when a field or element is missing or a step
 * meets a value of the wrong kind. A malformed path is PQT_EINVAL. */
PQT_API pqt_status pqt_variant_path(const pqt_variant *v, const char *path, pqt_variant *out, int *found,
                                    pqt_error *err);

/* Value equality as the spec defines equivalence of encodings: object fields
 * compared by name whatever their ids and order, short and long strings
 * alike, and integers and decimals of the same numeric value alike. */
PQT_API pqt_status pqt_variant_equal(const pqt_variant *a, const pqt_variant *b, int *equal, pqt_error *err);

/*
 * The value as JSON text, appended to out (which may be zero-initialised):
 * integers as numbers, FLOAT/DOUBLE in the shortest round-trip form (NaN and
 * infinities as strings), DECIMAL as a string with exactly `scale` fraction
 * digits, DATE "YYYY-MM-DD", TIME "HH:MM:SS.ffffff", TIMESTAMP with 6 or 9
 * fraction digits and "Z" when adjusted to UTC, BINARY as base64, UUID as
 * 8-4-4-4-12, object keys in the encoding's order.
 */
PQT_API pqt_status pqt_variant_to_json(const pqt_variant *v, pqt_string *out, pqt_error *err);

/* A Variant the library built: owns its two buffers. */
typedef struct pqt_variant_owned {
  pqt_variant view;
  uint8_t *metadata;
  size_t metadata_cap;
  uint8_t *value;
  size_t value_cap;
  const pqt_allocator *alloc;
} pqt_variant_owned;

/*
 * Build a Variant from JSON text (RFC 8259; one value, surrounding white
 * space allowed). Integers become the smallest of INT8..INT64 that holds
 * them; other numbers without an exponent become the smallest DECIMAL that
 * holds every digit (up to 38), anything else DOUBLE; strings STRING; the
 * metadata dictionary is sorted and unique. Errors name the byte offset.
 * Release with pqt_variant_owned_free.
 */
PQT_API pqt_status pqt_variant_from_json(const char *json, size_t len, const pqt_allocator *alloc,
                                         pqt_variant_owned *out, pqt_error *err);
PQT_API void pqt_variant_owned_free(pqt_variant_owned *v);

/* Encode v anew (after validating it as a reader does: objects whose field
 * ids are out of name order are accepted): a dictionary of just the names
 * it uses, sorted and unique, object fields in name order, the smallest
 * widths, strings short when they fit. The result equals v
 * (pqt_variant_equal) and passes pqt_variant_validate. */
PQT_API pqt_status pqt_variant_rebuild(const pqt_variant *v, const pqt_allocator *alloc, pqt_variant_owned *out,
                                       pqt_error *err);

/*
 * The spec's variant_get: the value at a path (pqt_variant_path syntax) cast
 * to a type, or SQL NULL (out->is_null 1) when the path is missing, the
 * value there is Variant null, or the cast fails. Casts are exact, never
 * lossy except where noted:
 *   BOOLEAN   from booleans; strings "true" / "false".
 *   INT8..64  from integers and decimals whose value is a whole number in
 *             range; from FLOAT/DOUBLE holding such a whole number; from a
 *             string that is exactly such an integer (decimal digits).
 *   FLOAT, DOUBLE  from any number (decimals and wide integers rounded to
 *             the nearest representable value); from a string that is a
 *             whole JSON-style number.
 *   STRING    from strings (bytes point into the value). BINARY from binary.
 *   DATE      from dates (days).
 *   TIMESTAMP / TIMESTAMP_NTZ  microseconds, from the timestamp kinds of the
 *             same zone flavour (nanoseconds when a whole microsecond) and
 *             from dates (midnight).
 *   UUID      from UUIDs. VARIANT  the value itself (never a cast failure).
 * A malformed path or unknown type is PQT_EINVAL; damaged bytes are the
 * accessors' errors.
 */
typedef enum pqt_variant_target {
  PQT_VARIANT_GET_BOOLEAN = 1,
  PQT_VARIANT_GET_INT8 = 2,
  PQT_VARIANT_GET_INT16 = 3,
  PQT_VARIANT_GET_INT32 = 4,
  PQT_VARIANT_GET_INT64 = 5,
  PQT_VARIANT_GET_FLOAT = 6,
  PQT_VARIANT_GET_DOUBLE = 7,
  PQT_VARIANT_GET_STRING = 8,
  PQT_VARIANT_GET_BINARY = 9,
  PQT_VARIANT_GET_DATE = 10,
  PQT_VARIANT_GET_TIMESTAMP = 11,     /* microseconds, adjusted to UTC */
  PQT_VARIANT_GET_TIMESTAMP_NTZ = 12, /* microseconds, no zone */
  PQT_VARIANT_GET_UUID = 13,
  PQT_VARIANT_GET_VARIANT = 14
} pqt_variant_target;

typedef struct pqt_variant_value {
  int is_null; /* SQL NULL: path missing, Variant null, or the cast failed */
  pqt_variant_target type;
  union {
    int b;      /* BOOLEAN */
    int64_t i64; /* INT8..INT64, DATE (days), TIMESTAMP* (micros) */
    float f32;
    double f64;
    struct {
      const uint8_t *data;
      size_t len;
    } bytes;          /* STRING, BINARY: point into the value */
    uint8_t uuid[16]; /* big-endian */
    pqt_variant variant;
  } u;
} pqt_variant_value;

/* A type name as SQL writes it ("int64", "bigint", "string", "double",
 * "timestamp", "variant", ...; case-insensitive): *out set, or PQT_EINVAL. */
PQT_API pqt_status pqt_variant_target_from_name(const char *name, pqt_variant_target *out, pqt_error *err);
PQT_API pqt_status pqt_variant_get(const pqt_variant *v, const char *path, pqt_variant_target type,
                                   pqt_variant_value *out, pqt_error *err);

/*
 * Shredded writing (parquet-format VariantShredding.md). A VARIANT column
 * of an Arrow schema (the parquet.variant extension struct<metadata
 * binary, value binary>) is written shredded when pqt_write_options names
 * it. `typed_value` describes the shredded shape in message syntax, with
 * one field named typed_value and without the value/typed_value pairs
 * (the writer adds them):
 *
 *   message s { optional group typed_value {      -- an object with fields
 *     optional binary event_type (STRING);         -- a shredded string field
 *     optional group loc { optional double lat; }  -- a nested object
 *     optional group tags (LIST) { repeated group list {
 *       optional binary element (STRING); } }      -- an array of strings
 *   } }
 *
 * Leaf types are those of the spec's table (BOOLEAN, INT(8/16/32/64),
 * FLOAT, DOUBLE, DECIMAL, DATE, TIME(false, MICROS), TIMESTAMP(MICROS or
 * NANOS), BINARY, STRING, UUID). A value goes to typed_value when it is of
 * that type (integers also into a wider integer, decimals of the same scale
 * that fit the precision), otherwise to value; an object's fields that are
 * not shredded stay in value (partially shredded), never in both.
 * Repetitions in the text are ignored.
 */
typedef struct pqt_variant_shredding {
  size_t struct_size;     /* sizeof(pqt_variant_shredding) */
  const char *column;     /* the VARIANT group's Parquet dotted path: "v" at the top level, "s.v" in a
                           * struct, "l.list.element" in a list, "m.key_value.value" in a map */
  const char *typed_value; /* message syntax as above; NULL or "": unshredded */
} pqt_variant_shredding;

/*
 * Infer a shredding schema (the typed_value text above) from sample values:
 * per path the most common type (nulls not counted; integers as the widest
 * integer seen; decimals by scale), objects' fields shredded `depth` levels
 * deep (0: nothing shredded, out gets ""; 1: the top value, or the
 * primitive fields of a top object or elements of a top array; ...); at
 * most max_fields fields per object (the most frequent; 0: 256). out is
 * appended to (it may be zero-initialised).
 */
PQT_API pqt_status pqt_variant_shred_infer(const pqt_variant *values, int64_t n, int32_t depth, int32_t max_fields,
                                           const pqt_allocator *alloc, pqt_string *out, pqt_error *err);

#ifdef __cplusplus
}
#endif

#endif
