/* arrow/format_name.h: Arrow C Data Interface format strings ("tsu:UTC",
 * "d:12,2") as users write the types ("timestamp[us, tz=UTC]",
 * "decimal(12,2)"), for messages. */
#ifndef PQT_ARROW_FORMAT_NAME_H
#define PQT_ARROW_FORMAT_NAME_H

#include <stddef.h>

/* Write the type's name for format into buf (n > 0; cut to fit) and return
 * buf. An unknown format is shown as "Arrow format 'FMT'". */
const char *pqt_arrow_format_name(const char *format, char *buf, size_t n);

#endif
