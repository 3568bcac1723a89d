/*
 * scan/expr_internal.h: the filter expression tree (parquetry_filter.h) as
 * built or parsed, before it is bound to a file's schema (scan/filter.h).
 */
#ifndef PQT_SCAN_EXPR_INTERNAL_H
#define PQT_SCAN_EXPR_INTERNAL_H

#include "core/core.h"
#include "meta/typed_value.h"
#include "meta/value_format.h"
#include "parquetry_filter.h"

typedef enum pqt_expr_kind {
  PQT_EK_COLUMN = 0,
  PQT_EK_LITERAL,
  PQT_EK_CMP,     /* args[0] op args[1] */
  PQT_EK_IN,      /* args[0] IN (args[1..]) */
  PQT_EK_BETWEEN, /* args[0] BETWEEN args[1] AND args[2] */
  PQT_EK_ISNULL,  /* args[0] IS [NOT] NULL (negate) */
  PQT_EK_LIKE,    /* args[0] LIKE bytes */
  PQT_EK_AND,
  PQT_EK_OR,
  PQT_EK_NOT,
  PQT_EK_GEO, /* ST_Intersects(args[0], geometry): bytes/len the WKB, or (op 1) the box gbox (scan/expr_geo.c) */
  PQT_EK_VGET /* variant_get(args[0], bytes: the path, op: pqt_variant_target): used as a column (scan/expr_variant.c) */
} pqt_expr_kind;

typedef enum pqt_lit_kind {
  PQT_LIT_BOOL = 0,
  PQT_LIT_EXACT,     /* i * 10^-scale */
  PQT_LIT_DOUBLE,    /* d (NaN allowed) */
  PQT_LIT_FLOAT16,   /* d holds the value; i the bits */
  PQT_LIT_STRING,    /* bytes */
  PQT_LIT_BINARY,    /* bytes */
  PQT_LIT_DATE,      /* i days */
  PQT_LIT_TIME,      /* i nanoseconds since midnight */
  PQT_LIT_TIMESTAMP, /* i nanoseconds since the epoch; utc: an instant */
  PQT_LIT_UUID       /* 16 bytes */
} pqt_lit_kind;

struct pqt_expr {
  pqt_expr_kind kind;
  int32_t pos; /* 1-based position in the parsed text; 0 when built */
  int32_t op;  /* PQT_EK_CMP: pqt_cmp_op */
  bool negate; /* ISNULL: IS NOT NULL */
  /* column: the dotted path; literal STRING/BINARY/UUID and LIKE: the bytes */
  char *bytes;
  size_t len;
  pqt_lit_kind lit;
  __int128 i;
  int32_t scale;
  double d;
  bool utc;
  pqt_expr **args;
  int32_t n_args;
  double gbox[4]; /* PQT_EK_GEO with op 1: xmin, ymin, xmax, ymax */
};

/* ---- spatial predicates (scan/expr_geo.c) ---- */
/* The text of a PQT_EK_GEO node: "ST_Intersects(col, 'WKT')" or "ST_Intersects(col, BOX(a, b, c, d))". */
pqt_status pqt_geo_expr_put(pqt_buf *b, const pqt_expr *e, pqt_error *err);

/* A column reference: a column, or variant_get of one. */
static inline bool pqt_expr_is_colref(const pqt_expr *e) {
  return e && (e->kind == PQT_EK_COLUMN || e->kind == PQT_EK_VGET);
}
/* Is path a well-formed variant path (pqt_variant_path syntax)? err says why not. */
pqt_status pqt_vget_check_path(const char *path, size_t len, pqt_error *err);
/* The name variant_get prints for a type. */
const char *pqt_vget_type_name(int32_t target);

pqt_expr *pqt_expr_new_node(pqt_expr_kind kind, int32_t n_args);
pqt_expr *pqt_expr_new_bytes(pqt_expr_kind kind, const void *data, size_t len);
/* Parse "YYYY-MM-DD" (whole text). */
bool pqt_parse_date_text(const char *s, size_t n, int64_t *days);
/* Parse "HH:MM:SS[.f{1,9}]" (whole text) into nanoseconds. */
bool pqt_parse_time_text(const char *s, size_t n, int64_t *nanos);
/* Parse a timestamp (whole text): date, ' ' or 'T', time, optional zone
 * (Z, +HH[:MM], -HH[:MM]); nanoseconds since the epoch, shifted to UTC when a
 * zone is given (*has_zone). */
bool pqt_parse_timestamp_text(const char *s, size_t n, __int128 *nanos, bool *has_zone);
bool pqt_parse_uuid_text(const char *s, size_t n, uint8_t out[16]);
/* A number: exact (no exponent: *is_exact, *i, *scale) or a double. Also
 * NaN, Infinity, -Infinity (any case) as doubles. Whole text. */
bool pqt_parse_number_text(const char *s, size_t n, bool *is_exact, __int128 *i, int32_t *scale, double *d);

#endif
