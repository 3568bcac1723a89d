/* text/text.h: rows of an array tree as canonical JSON or CSV cells. */
#ifndef PQT_ARROW_TEXT_H
#define PQT_ARROW_TEXT_H

#include "arrow/array.h"

/* Append the canonical JSON of slot i of a. */
pqt_status pqt_array_row_json(const pqt_array *a, int64_t i, pqt_buf *out, pqt_error *err);
/* Append slot i of a as one CSV cell (strings raw, nested values as JSON,
 * null as an empty cell; quoted when needed). */
pqt_status pqt_array_row_csv(const pqt_array *a, int64_t i, pqt_buf *out, pqt_error *err);
/* Append s[0..n) as one CSV cell (RFC 4180): quoted, with quotes doubled,
 * when it holds a comma, a quote or a line break; as it is otherwise. Used
 * for values and for the header's column names. */
pqt_status pqt_csv_cell(pqt_buf *out, const char *s, size_t n, pqt_error *err);

#endif
