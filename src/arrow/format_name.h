/* arrow/format_name.h: Arrow C Data Interface format strings ("tsu:UTC",
 * "d:12,2") as users write the types ("timestamp[us, tz=UTC]",
 * "decimal(12,2)"), for messages. */
#ifndef PQT_ARROW_FORMAT_NAME_H
#define PQT_ARROW_FORMAT_NAME_H

#include <stddef.h>

/* pqt_arrow_format_name(format, buf, n) is public (include/parquetry.h):
 * the CLI's `schema --arrow` prints the same names as the messages. */
#include "parquetry.h"

#endif
