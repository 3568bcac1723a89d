/* io/source.h: what the library knows about a byte source. */
#ifndef PQT_IO_SOURCE_H
#define PQT_IO_SOURCE_H

#include "core/core.h"

/* Is io one of the library's own sources (pqt_io_open_file,
 * pqt_io_from_buffer), whose read_at and borrow_at any number of threads
 * may call at once? A caller's callbacks are not assumed to be. */
bool pqt_io_is_builtin(const pqt_io *io);

#endif
