/*
 * parquetry_filter.h: filter expressions for scans (selective reads).
 *
 * A pqt_expr is a predicate over a file's columns, built with the C
 * builders below or parsed from a small SQL-like text:
 *
 *   l_shipdate >= DATE '1995-01-01' AND l_returnflag = 'R'
 *   x IN (1, 2, 3)      s LIKE 'ab%'      a.b IS NOT NULL
 *   ts < TIMESTAMP '2020-01-01 00:00:00'  price BETWEEN 1.50 AND 2
 *
 * Grammar (keywords in any case; NOT binds tighter than AND, AND than OR):
 *   expr      := term (OR term)*        term := factor (AND factor)*
 *   factor    := NOT factor | '(' expr ')' | predicate
 *   predicate := column op literal | literal op column       op: = != <> < <= > >=
 *              | column [NOT] IN (literal, ...)
 *              | column [NOT] BETWEEN literal AND literal
 *              | column IS [NOT] NULL | column [NOT] LIKE 'pattern'
 *              | ST_Intersects(column, 'WKT') | ST_Intersects(column, BOX(xmin, ymin, xmax, ymax))
 *   column    := name ('.' name)*   name: [A-Za-z_][A-Za-z0-9_]* or "any text" ("" for ")
 *              | variant_get(column, 'path', 'type') | try_variant_get(column, 'path', 'type')
 *   literal   := [-]digits[.digits][e[+-]digits] | 'text' ('' for ') | X'hex' | TRUE | FALSE
 *              | NAN | INFINITY | -INFINITY
 *              | DATE 'YYYY-MM-DD' | TIME 'HH:MM:SS[.fffffffff]'
 *              | TIMESTAMP 'YYYY-MM-DD[ T]HH:MM:SS[.fffffffff][Z|+HH:MM|-HH:MM]'
 *              | UUID '8-4-4-4-12'
 * A number without an exponent is exact (a decimal); with one it is a double.
 * A text literal compared with a DATE, TIME, TIMESTAMP, UUID or floating-point
 * column is read as a value of that type.
 *
 * Semantics (as SQL's WHERE, and as DuckDB's): three-valued logic, a NULL
 * compares as unknown and a row is returned only when the predicate is
 * true. Floating-point NaN equals NaN and is greater than every other
 * value (so `x > 1` holds for NaN and `x < 1` does not); -0 equals +0.
 * An exact literal with more fraction digits than a DECIMAL column's scale
 * (or a timestamp finer than the column's unit) compares exactly (never
 * equal). A TIMESTAMP literal with a zone is an instant; without one it is
 * taken as UTC for a column adjusted to UTC. Strings and binaries compare
 * byte-wise (unsigned); LIKE patterns use % (any run) and _ (one byte).
 *
 * ST_Intersects (GEOMETRY and GEOGRAPHY columns) has bounding-box semantics:
 * a row matches when its envelope intersects the envelope of the WKT
 * geometry (or the BOX); see pqt_expr_st_intersects. Row groups whose
 * geospatial statistics' box does not intersect are skipped.
 *
 * variant_get (Spark's and Databricks' name; try_variant_get is the same
 * here) reads a VARIANT column: the value at the path ("$.a.b", "$.items[0]",
 * "$['a b']"; see pqt_variant_path) cast to the type ('int64', 'bigint',
 * 'int', 'double', 'string', 'boolean', 'date', 'timestamp',
 * 'timestamp_ntz', 'uuid', 'binary', ...; pqt_variant_target_from_name), as
 * pqt_variant_get does it. It then compares as a column of that type. A
 * missing path, a Variant null or a value the cast refuses is SQL NULL (as
 * try_variant_get in Spark; Spark's variant_get would raise an error where
 * the cast fails): so `variant_get(v, '$.a', 'int') > 5` never holds for a
 * row whose a is the string "x", and neither does its NOT. Results are
 * exact (the value is reconstructed from the shredded columns). Row groups
 * and pages are skipped through the statistics of the shredded
 * typed_value column of the path when it is safe: the path steps through
 * object fields only, the typed_value column's type is the one asked for
 * (any integer type for an integer type), and every `value` column on the
 * way (the variant's own and each field's) is all null in that row group
 * as its statistics say (else a row could hold the path unshredded).
 *
 * Column references are dotted paths of a leaf column, through structs
 * ("a.b"); IS [NOT] NULL also takes a struct, list or map field. Columns
 * inside lists or maps cannot be compared (a predicate selects rows).
 * Binding to a file (pqt_expr_check, or a scan) fails with PQT_EINVAL naming
 * the column and the position in the text for an unknown column or a
 * literal that does not fit the column's type.
 */
#ifndef PARQUETRY_FILTER_H
#define PARQUETRY_FILTER_H

#include "parquetry.h"
#include "parquetry_variant.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pqt_expr pqt_expr;

typedef enum pqt_cmp_op {
  PQT_CMP_EQ = 0,
  PQT_CMP_NE = 1,
  PQT_CMP_LT = 2,
  PQT_CMP_LE = 3,
  PQT_CMP_GT = 4,
  PQT_CMP_GE = 5
} pqt_cmp_op;

typedef enum pqt_expr_unit { PQT_EXPR_MILLIS = 0, PQT_EXPR_MICROS = 1, PQT_EXPR_NANOS = 2 } pqt_expr_unit;

/*
 * Builders. Each returns a new expression, or NULL when out of memory (or,
 * for the combinators, when an argument is NULL). The combinators take
 * ownership of their arguments (freeing them when they fail), so builder
 * calls nest: pqt_expr_and(pqt_expr_compare(PQT_CMP_GE, pqt_expr_column("d"),
 * pqt_expr_date(9131)), ...). Free the result with pqt_expr_free.
 */
PQT_API pqt_expr *pqt_expr_column(const char *dotted_path);
PQT_API pqt_expr *pqt_expr_bool(int value);
PQT_API pqt_expr *pqt_expr_int(int64_t value);
PQT_API pqt_expr *pqt_expr_uint(uint64_t value);
PQT_API pqt_expr *pqt_expr_double(double value);   /* NaN allowed */
PQT_API pqt_expr *pqt_expr_float16(uint16_t bits); /* IEEE half, as stored */
/* unscaled * 10^-scale, scale 0..38 */
PQT_API pqt_expr *pqt_expr_decimal(int64_t unscaled, int32_t scale);
PQT_API pqt_expr *pqt_expr_date(int32_t days_since_epoch);
PQT_API pqt_expr *pqt_expr_time(int64_t since_midnight, pqt_expr_unit unit);
/* utc != 0: an instant (compares with UTC-adjusted columns as is) */
PQT_API pqt_expr *pqt_expr_timestamp(int64_t since_epoch, pqt_expr_unit unit, int utc);
PQT_API pqt_expr *pqt_expr_string(const char *data, size_t len);
PQT_API pqt_expr *pqt_expr_binary(const void *data, size_t len);
PQT_API pqt_expr *pqt_expr_uuid(const uint8_t bytes[16]);

/* column op literal (either side may be the column). */
PQT_API pqt_expr *pqt_expr_compare(pqt_cmp_op op, pqt_expr *left, pqt_expr *right);
/* column IN (values[0], ...): takes the n values and frees the array's
 * entries, not the array. */
PQT_API pqt_expr *pqt_expr_in(pqt_expr *column, pqt_expr *const *values, size_t n);
PQT_API pqt_expr *pqt_expr_between(pqt_expr *column, pqt_expr *low, pqt_expr *high);
PQT_API pqt_expr *pqt_expr_is_null(pqt_expr *column, int negate);
PQT_API pqt_expr *pqt_expr_like(pqt_expr *column, const char *pattern, size_t len);
/* ST_Intersects(column, geometry) on a GEOMETRY or GEOGRAPHY column, with
 * bounding-box semantics: true when the row's own envelope (its bounding
 * box; for GEOGRAPHY with the edges' bulge and the antimeridian) intersects
 * the envelope of the geometry given as WKB (copied); NULL rows are
 * unknown, empty geometries never intersect. No exact geometric test. */
PQT_API pqt_expr *pqt_expr_st_intersects(pqt_expr *column, const uint8_t *wkb, size_t len);
/* The same with the box given: x in [xmin, xmax] (for GEOGRAPHY xmin > xmax
 * wraps the antimeridian: x >= xmin or x <= xmax), y in [ymin, ymax]. */
PQT_API pqt_expr *pqt_expr_bbox_intersects(pqt_expr *column, double xmin, double ymin, double xmax, double ymax);
/* variant_get(column, path, type) on a VARIANT column: usable wherever a
 * column is (compare, IN, BETWEEN, LIKE, IS [NOT] NULL). Takes column; path
 * is copied (pqt_variant_path syntax, checked here: NULL when malformed). */
PQT_API pqt_expr *pqt_expr_variant_get(pqt_expr *column, const char *path, pqt_variant_target type);
PQT_API pqt_expr *pqt_expr_and(pqt_expr *a, pqt_expr *b);
PQT_API pqt_expr *pqt_expr_or(pqt_expr *a, pqt_expr *b);
PQT_API pqt_expr *pqt_expr_not(pqt_expr *a);
PQT_API void pqt_expr_free(pqt_expr *e);

/* Parse text (len bytes; need not be NUL-terminated). Errors are
 * PQT_EINVAL with the 1-based position: "position 12: expected a literal". */
PQT_API pqt_status pqt_expr_parse(const char *text, size_t len, pqt_expr **out, pqt_error *err);

/* The expression as text in the grammar above, fully parenthesised
 * (parses back to the same expression). */
PQT_API pqt_status pqt_expr_to_string(const pqt_expr *e, pqt_string *out, pqt_error *err);

/* Bind e against r's schema without scanning: PQT_OK when every column
 * exists and every literal fits its column's type. */
PQT_API pqt_status pqt_expr_check(const pqt_expr *e, const pqt_reader *r, pqt_error *err);

/*
 * What a scan read (pqt_scan_options.stats): rows returned; row groups read
 * out of those selected; data pages decoded out of the data pages of the
 * selected row groups (from the chunks' encoding_stats, else their page
 * counts where read); bytes requested from the pqt_io source.
 */
typedef struct pqt_scan_stats {
  int64_t rows;
  int64_t row_groups_read;
  int64_t row_groups_total;
  int64_t pages_read;
  int64_t pages_total;
  uint64_t bytes_read;
  int64_t row_groups_pruned_stats;      /* skipped by min/max/null counts */
  int64_t row_groups_pruned_dictionary; /* skipped by the dictionary */
  int64_t row_groups_pruned_bloom;      /* skipped by a Bloom filter (read by block) */
} pqt_scan_stats;

/* Count the rows of a scan (opts: row_groups and filter apply; the
 * projection does not). Without a filter the footer answers: no page is
 * read. opts->stats, when set, is filled as for a scan. */
PQT_API pqt_status pqt_reader_count(pqt_reader *r, const pqt_scan_options *opts, int64_t *rows, pqt_error *err);

/* "rows=R row_groups=G/GT pages=P/PT bytes_read=B" (no newline) into buf. */
PQT_API void pqt_scan_stats_format(const pqt_scan_stats *s, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* PARQUETRY_FILTER_H */
