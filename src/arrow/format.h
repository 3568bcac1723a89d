/* arrow/format.h: the one parser of Arrow C Data Interface format strings
 * ("i", "tsu:UTC", "d:12,2", "w:16", "+l", "+ud:0,1", ...; Arrow's "Data type
 * description -- format strings"). Every layer that looks inside a format
 * string (the writer's schema mapping, import, export, the IPC schema
 * encoder, readable type names) asks this parser instead of reading the
 * characters itself. */
#ifndef PQT_ARROW_FORMAT_H
#define PQT_ARROW_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#define PQT_ARROW_FORMAT_MAX_UNION_IDS 128

typedef enum pqt_arrow_kind {
  PQT_AK_INVALID = 0, /* not a format string this parser knows */
  PQT_AK_NULL,
  PQT_AK_BOOL,
  PQT_AK_INT,   /* bit_width 8/16/32/64, is_signed */
  PQT_AK_FLOAT, /* bit_width 16/32/64 */
  PQT_AK_BINARY,
  PQT_AK_LARGE_BINARY,
  PQT_AK_BINARY_VIEW,
  PQT_AK_UTF8,
  PQT_AK_LARGE_UTF8,
  PQT_AK_UTF8_VIEW,
  PQT_AK_DATE,         /* unit 'D' (days, 32 bits) or 'm' (milliseconds, 64 bits) */
  PQT_AK_TIME,         /* unit s/m (32 bits) or u/n (64 bits) */
  PQT_AK_DURATION,     /* unit s/m/u/n */
  PQT_AK_INTERVAL,     /* unit 'M' (months), 'D' (day_time), 'n' (month_day_nano) */
  PQT_AK_TIMESTAMP,    /* unit s/m/u/n, tz (NULL when none) */
  PQT_AK_DECIMAL,      /* precision, scale, bit_width 32/64/128/256 */
  PQT_AK_FIXED_BINARY, /* fixed_width bytes */
  PQT_AK_LIST,
  PQT_AK_LARGE_LIST,
  PQT_AK_LIST_VIEW,
  PQT_AK_LARGE_LIST_VIEW,
  PQT_AK_FIXED_LIST, /* fixed_width items */
  PQT_AK_STRUCT,
  PQT_AK_MAP,
  PQT_AK_UNION, /* union_dense, union_ids */
  PQT_AK_RUN_END
} pqt_arrow_kind;

typedef struct pqt_arrow_format {
  pqt_arrow_kind kind;
  int32_t bit_width;        /* INT, FLOAT, DATE, TIME, DECIMAL (128 unless given) */
  bool is_signed;           /* INT */
  bool width_given;         /* DECIMAL: the third number was written ("d:P,S,W") */
  char unit;                /* see the kinds above; 0 when the kind has none */
  int32_t precision, scale; /* DECIMAL */
  int32_t fixed_width;      /* FIXED_BINARY bytes, FIXED_LIST items (>= 0) */
  const char *tz;           /* TIMESTAMP: points into the parsed string; NULL when none */
  bool union_dense;
  int32_t n_union_ids;
  int32_t union_ids[PQT_ARROW_FORMAT_MAX_UNION_IDS];
} pqt_arrow_format;

/* Parse format into *out. Returns false (and out->kind = PQT_AK_INVALID)
 * when format is NULL or not a well-formed Arrow format string: numbers
 * are plain decimals in range, nothing trails. */
bool pqt_arrow_format_parse(const char *format, pqt_arrow_format *out);

/* The power of ten of a time unit character: s 0, m 3, u 6, n 9; -1 otherwise. */
int pqt_arrow_unit_pow10(char unit);

#endif
