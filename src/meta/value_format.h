/*
 * meta/value_format.h: the canonical text form of one Parquet value, as
 * `parquetry cat` prints it and `parquetry meta` shows statistics.
 *
 * The form depends on the Parquet types (physical + logical/converted), not
 * on any in-memory representation:
 *   BOOLEAN true/false; integers exact (unsigned types unsigned);
 *   FLOAT/DOUBLE/FLOAT16 the shortest decimal that round-trips at the
 *   value's own precision, in ECMAScript Number::toString layout, "-0" for
 *   negative zero, "NaN"/"Infinity"/"-Infinity" as JSON strings;
 *   STRING/ENUM/JSON a JSON string; other binaries base64; DECIMAL a string
 *   with exactly `scale` fraction digits; DATE "YYYY-MM-DD"; TIME
 *   "HH:MM:SS.fff[fff[fff]]"; TIMESTAMP "YYYY-MM-DDTHH:MM:SS.fff..." with "Z"
 *   when adjusted to UTC; INT96 a timestamp with 9 fraction digits, no "Z";
 *   UUID 8-4-4-4-12 lower case; INTERVAL {"months":m,"days":d,"millis":ms}.
 */
#ifndef PQT_META_VALUE_FORMAT_H
#define PQT_META_VALUE_FORMAT_H

#include "core/core.h"
#include "thrift/parquet_types.h"

/* What the formatter needs to know about a leaf column's type. */
typedef struct pqt_value_type {
  int32_t physical_type;    /* pqt_physical_type */
  int32_t type_length;      /* FIXED_LEN_BYTE_ARRAY width */
  int32_t converted_type;   /* -1 when absent */
  int32_t scale, precision; /* from DECIMAL (logical or converted) */
  pqt_logical_type logical; /* isset == 0 when absent */
} pqt_value_type;

/* Fill a pqt_value_type from a schema element. */
void pqt_value_type_from_element(pqt_value_type *vt, const pqt_schema_element *e);
/* The same for a leaf of the schema tree, with its effective logical type
 * (the LogicalType, or the one derived from a ConvertedType). */
struct pqt_schema_node;
void pqt_value_type_from_leaf(pqt_value_type *vt, const struct pqt_schema_node *leaf);

/*
 * Append the canonical JSON text of one value given in its PLAIN encoding
 * without the BYTE_ARRAY length prefix (the form statistics use): 4 bytes
 * for INT32/FLOAT, 8 for INT64/DOUBLE, 12 for INT96, 1 for BOOLEAN, the
 * raw bytes for byte arrays. A value of the wrong size is PQT_ECORRUPT.
 */
pqt_status pqt_format_value(const pqt_value_type *vt, const uint8_t *p, size_t n, pqt_buf *out, pqt_error *err);

/* Shortest round-trip text of a double / float / half (bits), ECMAScript layout. */
void pqt_format_double(double v, pqt_buf *out, pqt_error *err);
void pqt_format_float(float v, pqt_buf *out, pqt_error *err);
void pqt_format_float16(uint16_t bits, pqt_buf *out, pqt_error *err);
double pqt_float16_to_double(uint16_t bits);

/* INT96 (Julian day, nanoseconds) to days since the epoch + nanoseconds of
 * day, reading Spark's wrapped out-of-range values as Spark meant them. */
void pqt_int96_split(int64_t julian, int64_t nanos, int64_t *days, int64_t *nod);

/* The INT96 helpers, one copy. An INT96 timestamp is 12 bytes: nanoseconds
 * of the day (u64 LE) then the Julian day (i32 LE); Julian day 2440588 is
 * 1970-01-01. */
#define PQT_INT96_JULIAN_EPOCH 2440588
/* pqt_int96_split of the 12 bytes at p. */
void pqt_int96_split_bytes(const uint8_t *p, int64_t *days, int64_t *nod);
/* Nanoseconds since the epoch, exactly (no wrapping; the low 64 bits are
 * what wrapping int64 arithmetic would give). */
__int128 pqt_int96_to_nanos(const uint8_t *p);
/* Nanoseconds since the epoch -> the 12 bytes at out (floor to whole days). */
void pqt_int96_from_nanos(int64_t ns, uint8_t *out);

/* Civil date from days since 1970-01-01 (proleptic Gregorian). */
void pqt_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

/* Append "YYYY-MM-DD" (years at least 4 digits, negative with '-'). */
pqt_status pqt_format_date(int64_t days, pqt_buf *out, pqt_error *err);
/* Append a timestamp: value in units of 10^-digits seconds (digits 3, 6, 9). */
pqt_status pqt_format_timestamp(int64_t v, int digits, bool utc, pqt_buf *out, pqt_error *err);
/* Append a time of day: value in units of 10^-digits seconds. */
pqt_status pqt_format_time(int64_t v, int digits, pqt_buf *out, pqt_error *err);
/* Append a decimal given as big-endian two's complement bytes. */
pqt_status pqt_format_decimal_be(const uint8_t *p, size_t n, int32_t scale, pqt_buf *out, pqt_error *err);
/* Append a decimal given as an int64 unscaled value. */
pqt_status pqt_format_decimal_i64(int64_t v, int32_t scale, pqt_buf *out, pqt_error *err);

#endif
